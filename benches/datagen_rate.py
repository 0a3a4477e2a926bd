#!/usr/bin/env python3
"""Self-play data throughput: positions kept per core-hour.

Runs the lab build's `cavalier selfplay` at the settings the training data
is made with (`--soft-nodes 2000 --nodes 8000 --nnue --packed --threads 1`
by default: docs/network.md, "Self-play throughput"), for a
number of games or until the child has used a budget of CPU time, and
prints the positions kept per core-hour. The rate is taken over the
child's own CPU time (user + system, from its resource usage), not the
wall clock, so that other work on a busy machine does not lower it; the
wall-clock figures and the machine's load are printed beside it.

Positions kept are the packed output's 32-byte records, as written after
each game. With `--cpu-seconds`, the run is ended once the child has
used that much CPU time; the rate is then taken at the last game written
(the child's CPU time read from /proc when its progress file changed), so
the unfinished game does not count against it.

Usage (from the repository root, after `cargo build --release --features lab`):

    make pgo FEATURES=lab EXE=cavalier-lab   # the data's build
    python3 benches/datagen_rate.py --binary cavalier-lab --games 40 --seed 1
    python3 benches/datagen_rate.py --cpu-seconds 300 --seed 1
    python3 benches/datagen_rate.py --binary path/to/cavalier --cpu-seconds 60 -- --hash 4

Arguments after `--` are passed on to `cavalier selfplay`; any of
`--nodes`, `--soft-nodes` or `--depth` among them replaces the default
search per move (`-- --nodes 5000`: the first data's setting).
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

RECORD_BYTES = 32
DATA_SETTINGS = ["--nnue", "--packed", "--threads", "1"]
# The data's search per move, unless the arguments after `--` give their own.
DATA_NODES = ["--soft-nodes", "2000", "--nodes", "8000"]
SEARCH_ARGS = ("--nodes", "--soft-nodes", "--depth")


def proc_cpu_seconds(pid):
    """The user + system CPU time of a running process (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    # Fields 14 and 15 of stat (utime, stime), counted from after the name.
    return (int(fields[11]) + int(fields[12])) / ticks


def read_progress(path):
    """Games and bytes a selfplay progress file vouches for."""
    try:
        with open(path) as f:
            words = f.read().split()
        return int(words[0]), int(words[1])
    except (OSError, ValueError, IndexError):
        return None


def load():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", default="target/release/cavalier",
                   help="the lab build (default target/release/cavalier)")
    p.add_argument("--seed", type=int, default=1)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--games", type=int, help="play this many games")
    g.add_argument("--cpu-seconds", type=float,
                   help="play until the child has used this much CPU time")
    p.add_argument("--out", help="keep the data here (default: a temporary file)")
    p.add_argument("extra", nargs="*", help="more selfplay arguments, after --")
    args = p.parse_args()

    if not os.path.exists(args.binary):
        sys.exit(f"error: no binary at {args.binary} (cargo build --release --features lab)")
    tmp = None
    out = args.out
    if out is None:
        tmp = tempfile.TemporaryDirectory(prefix="datagen-rate-")
        out = os.path.join(tmp.name, "data.bin")
    games = args.games if args.games else 1_000_000
    nodes = [] if any(a in SEARCH_ARGS for a in args.extra) else DATA_NODES
    command = [args.binary, "selfplay", *DATA_SETTINGS, *nodes, "--games", str(games),
               "--seed", str(args.seed), "--out", out, *args.extra]
    print("command:", " ".join(command))
    print("load before:", load())

    progress_path = out + ".progress"
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.set_blocking(child.stderr.fileno(), False)
    stderr = b""
    # (games, bytes, cpu seconds, wall seconds) at the last progress seen.
    last = None
    seen = None
    stopped = False
    while True:
        try:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        except ChildProcessError:
            sys.exit("error: lost the child")
        try:
            stderr += child.stderr.read() or b""
        except (OSError, TypeError):
            pass
        if pid:
            break
        cpu = proc_cpu_seconds(child.pid)
        progress = read_progress(progress_path)
        if progress is not None and progress != seen and cpu is not None:
            seen = progress
            last = (progress[0], progress[1], cpu, time.monotonic() - start)
        if (args.cpu_seconds and not stopped and cpu is not None
                and cpu >= args.cpu_seconds):
            child.send_signal(signal.SIGTERM)
            stopped = True
        time.sleep(0.05)
    wall = time.monotonic() - start
    try:
        stderr += child.stderr.read() or b""
    except (OSError, TypeError):
        pass
    child_cpu = usage.ru_utime + usage.ru_stime
    print("load after:", load())
    if not stopped:
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.stderr.write(stderr.decode(errors="replace"))
            sys.exit(f"error: selfplay exited with {code}")
        games_done = games
        kept = os.path.getsize(out) // RECORD_BYTES
        cpu, wall_at = child_cpu, wall
        basis = "whole run (child's rusage)"
    else:
        if last is None:
            sys.exit("error: no game finished within the CPU budget")
        games_done, size, cpu, wall_at = last
        kept = size // RECORD_BYTES
        basis = "up to the last game written (child's /proc CPU time then)"
    done = [line for line in stderr.decode(errors="replace").splitlines()
            if line.startswith("selfplay: done")]
    if done:
        print(done[-1])
    print(f"basis: {basis}")
    print(f"games: {games_done}  positions kept: {kept}  ({kept / max(games_done, 1):.1f} a game)")
    print(f"child CPU: {cpu:.1f} s  wall: {wall_at:.1f} s  "
          f"(CPU/wall {cpu / max(wall_at, 1e-9):.2f}; whole run: CPU {child_cpu:.1f} s, wall {wall:.1f} s)")
    print(f"games per core-hour: {games_done * 3600 / max(cpu, 1e-9):.0f}  "
          f"games per wall-hour: {games_done * 3600 / max(wall_at, 1e-9):.0f}")
    print(f"positions kept per core-hour: {kept * 3600 / max(cpu, 1e-9):.0f}  "
          f"per wall-hour: {kept * 3600 / max(wall_at, 1e-9):.0f}")


if __name__ == "__main__":
    main()
