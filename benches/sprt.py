#!/usr/bin/env python3
"""A pentanomial SPRT played in chunks that survive interruptions.

    python3 benches/sprt.py --dir runs/threats --new "cmd=./new" --base "cmd=./old" \\
        --tc 2+0.02 --first-seed 351 [--chunk 200] [--elo0 0 --elo1 10]

Plays match.py in chunks of --chunk games (a new opening seed each, from
--first-seed on), writes each chunk's summary to DIR/seed-N.json as soon as
it ends, and after each chunk sums the pentanomial counts of every chunk in
DIR and computes the LLR (match.py's GSPRT, normalized Elo by default).
It stops when the LLR leaves [log(beta/(1-alpha)), log((1-beta)/alpha)]
or after --chunks chunks; with --fixed it plays until DIR holds --chunks
chunks whatever the LLR says (a match of a size declared in advance, such
as issue 17's closing test). Run it again with the same DIR to go on: finished
chunks are skipped, a chunk cut off midway is played again from its start.
`--sum` only prints the sum. A test that a lost machine cut short goes on
from its recorded sum: DIR/carried-NAME.json holding {"W": .., "D": ..,
"L": .., "penta": [5 counts], "faults": .., "note": ".."} is added to the
chunks (its games must have been played by the same two builds). The
engines are match.py engine specs (`cmd=... option.X=Y`); both get
`--each`. Needs python-chess.
Chunks of one test must all be played by the same two builds: DIR/engines
records the specs and the first run's checksums of both binaries and later
runs refuse to go on with other ones (`--same-source` lets a rebuild of the
same commits go on, and records its checksums beside the first ones).
"""

import argparse
import hashlib
import json
import math
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spsa import MATCH, OPENINGS  # noqa: E402


def load_match(path):
    """match.py as a module, for its LLR."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    import match  # noqa: E402
    return match


def checksum(spec):
    """SHA-256 of the binary named by a spec's cmd= (or its first word)."""
    words = shlex.split(spec)
    cmd = next((w[4:] for w in words if w.startswith("cmd=")), words[0] if words else "")
    exe = cmd.split()[0] if cmd else ""
    with open(exe, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def add(total, counts, faults):
    """Adds one chunk's (or a carried sum's) W, D, L, pentanomial and faults."""
    for k in ("W", "D", "L"):
        total[k] += counts[k]
    total["penta"] = [a + b for a, b in zip(total["penta"], counts["penta"])]
    total["faults"] += faults


def summed(directory):
    """Sum of every finished chunk and carried sum: W, D, L, pentanomial,
    faults, the chunks' seeds and how many games were carried."""
    total = {"W": 0, "D": 0, "L": 0, "penta": [0] * 5, "faults": 0, "seeds": [], "carried": 0}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name.startswith("carried-") and name.endswith(".json"):
            with open(path) as f:
                c = json.load(f)
            add(total, c, c.get("faults", 0))
            total["carried"] += c["W"] + c["D"] + c["L"]
        elif name.startswith("seed-") and name.endswith(".json"):
            with open(path) as f:
                s = json.load(f)["opponents"][0]
            add(total, s, sum(sum(v) for v in s.get("faults", {}).values()))
            total["seeds"].append(int(name[5:-5]))
    return total


def report(match, total, args):
    """One line: the sum, its Elo and the LLR."""
    score = match.Score(wdl=[total["L"], total["D"], total["W"]], penta=total["penta"])
    st = score.stats()
    llr = match.sprt_llr(total["penta"], args.elo0, args.elo1, args.elo_model)
    seeds = total["seeds"]
    span = f"seeds {min(seeds)}-{max(seeds)} ({len(seeds)} chunks)" if seeds else "no chunks"
    if total["carried"]:
        span += f" and {total['carried']} carried games"
    elo = f"{st['elo']:+.1f} +- {st['err']:.1f}" if st["games"] else "-"
    print(f"{span}: {st['games']} games +{total['W']} ={total['D']} -{total['L']}, "
          f"Elo {elo}, LLR {llr:+.2f}, penta {total['penta']}, faults {total['faults']}",
          flush=True)
    return llr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, help="where the chunks' summaries go")
    ap.add_argument("--new", help="match.py spec of the engine under test")
    ap.add_argument("--base", help="match.py spec of the engine it is tested against")
    ap.add_argument("--each", default="option.Hash=16 option.OwnBook=false")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead of --tc")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--chunks", type=int, default=30, help="chunks to play at most this run")
    ap.add_argument("--chunk", type=int, default=200, help="games per chunk")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--elo-model", default="normalized", choices=["normalized", "logistic"])
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--match", default=MATCH)
    ap.add_argument("--fixed", action="store_true",
                    help="play until DIR holds --chunks chunks, whatever the LLR")
    ap.add_argument("--sum", action="store_true", help="only print the sum so far")
    ap.add_argument("--same-source", action="store_true",
                    help="go on although the binaries' checksums changed (a rebuild)")
    args = ap.parse_args()
    match = load_match(args.match)
    os.makedirs(args.dir, exist_ok=True)
    if args.sum:
        report(match, summed(args.dir), args)
        return
    if not (args.new and args.base):
        sys.exit("--new and --base are needed to play")
    record = os.path.join(args.dir, "engines")
    build = {"new_sha256": checksum(args.new), "base_sha256": checksum(args.base)}
    here = {"new": args.new, "base": args.base, "each": args.each,
            "limit": f"nodes {args.nodes}" if args.nodes else f"tc {args.tc}", **build}
    if os.path.exists(record):
        with open(record) as f:
            first = json.load(f)
        same = all(first.get(k) == here[k] for k in ("new", "base", "each", "limit"))
        builds = first.get("rebuilds", []) + [{k: first[k] for k in build}]
        if not same:
            sys.exit(f"{record} names other engines or limits; a new test needs a new --dir")
        if build not in builds:
            if not args.same_source:
                sys.exit(f"{record}: the binaries changed since the first chunk "
                         "(--same-source if they are a rebuild of the same commits)")
            first.setdefault("rebuilds", []).append(build)
            with open(record, "w") as f:
                json.dump(first, f, indent=1)
    else:
        with open(record, "w") as f:
            json.dump(here, f, indent=1)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    llr = report(match, summed(args.dir), args)
    seed = args.first_seed
    played = 0

    def go_on():
        if args.fixed:
            return len(summed(args.dir)["seeds"]) < args.chunks
        return lower < llr < upper and played < args.chunks

    while go_on():
        out = os.path.join(args.dir, f"seed-{seed}.json")
        if os.path.exists(out):
            seed += 1
            continue
        part = out + ".part"
        cmd = [sys.executable, args.match, "--engine", "name=new " + args.new,
               "--engine", "name=base " + args.base, "--each", args.each,
               "--games", str(args.chunk), "--concurrency", str(args.concurrency),
               "--openings", args.openings, "--seed", str(seed),
               "--pgn", os.path.join(args.dir, f"seed-{seed}.pgn"), "--json", part]
        cmd += ["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        os.replace(part, out)
        played += 1
        seed += 1
        llr = report(match, summed(args.dir), args)
    if args.fixed:
        print(f"{len(summed(args.dir)['seeds'])} chunks played (a fixed-size match)")
    elif llr >= upper:
        print("H1 accepted")
    elif llr <= lower:
        print("H0 accepted")
    else:
        print("undecided")


if __name__ == "__main__":
    main()
