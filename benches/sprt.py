#!/usr/bin/env python3
"""An SPRT of one build against another, played by fastchess.

    benches/fastchess.sh                                # once: builds the runner
    python3 benches/sprt.py --dir runs/my-test --new target/release/cavalier \\
        --base ./cavalier-main [--tc 8+0.08 | --nodes 25000] [--elo0 0 --elo1 10]

A pentanomial SPRT in normalized Elo (nElo), bounds [0, 10] by default,
alpha = beta = 0.05: the test fishtest and OpenBench run. fastchess decides
it (its built-in SPRT); each opening of --openings (shuffled by --seed) is
played twice with colours swapped, Hash 16 and no book for both
(--each), fishtest's adjudication (--chess960: the 960 Chess960 start
positions instead, shuffled by --seed). It stops at H0 or H1, or after
--rounds pairs undecided; --fixed plays exactly --rounds pairs with no
SPRT (a match of a size declared in advance).

DIR holds what the test makes, all written as it goes:
  games.pgn    every game
  summary.txt  rewritten after each game: the engines, W/D/L, Elo +- 95%,
               nElo, LLR and its bounds, the pentanomial counts, faults
               (time losses, illegal moves, crashes per engine), the state
  runner.log   the runner's console
  test.json    the engines, their binaries' SHA-256, the conditions
  fastchess.json  fastchess's own state, for resuming
Run the same command again to go on after an interruption (Ctrl-C is
safe): fastchess resumes from its state. A run with other binaries is
refused (--same-source accepts a rebuild of the same commits). --sum only
prints the summary.

The engines are paths, or runner words such as
"cmd=./cavalier option.Threads=1 name=x". --runner cutechess plays with
cutechess-cli instead; as it has no pentanomial SPRT, this script then
computes the LLR from the PGN after every game and stops cutechess-cli at
a decision (the summary is computed that way for both runners; with
fastchess, its own last report is shown beside it, and they agree).
For a tuning build's values (benches/spsa.py) give both sides the build
made with `cargo build --release --features tune` and the values as
option.NAME=VALUE words on --new. No Python package is needed.
"""

import argparse
import json
import os
import re
import shlex
import sys

import runner

FASTCHESS_REPORT = re.compile(r"^(Elo:|LLR:|Games:|Ptnml\(0-2\):)")
DECISION = re.compile(r"SPRT .* completed - (H[01]) was accepted")
DONE = ("H0 accepted", "H1 accepted", "finished", "undecided after --rounds pairs")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="where the games and the summary go")
    ap.add_argument("--new", help="the engine under test: a path or runner words")
    ap.add_argument("--base", help="the engine it is tested against")
    ap.add_argument("--each", default="option.Hash=16 option.OwnBook=false",
                    help="runner words for both engines (default: %(default)s)")
    ap.add_argument("--tc", default="2+0.02",
                    help="time control, seconds+increment (default %(default)s)")
    ap.add_argument("--nodes", type=int, help="fixed nodes per move instead of --tc")
    ap.add_argument("--elo0", type=float, default=0.0, help="H0's nElo (default 0)")
    ap.add_argument("--elo1", type=float, default=10.0, help="H1's nElo (default 10)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--rounds", type=int, default=20000,
                    help="pairs of games at most (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="shuffles the openings (default 1)")
    ap.add_argument("--fixed", action="store_true", help="play --rounds pairs, no SPRT")
    ap.add_argument("--chess960", action="store_true",
                    help="Chess960 from the 960 start positions (shuffled by --seed), not --openings")
    ap.add_argument("--same-source", action="store_true",
                    help="go on although the binaries changed (a rebuild of the same commits)")
    ap.add_argument("--sum", action="store_true", help="only print the summary")
    runner.add_runner_args(ap)
    args = ap.parse_args()
    if not -200 <= args.elo0 < args.elo1 <= 200:
        sys.exit("the SPRT's bounds must satisfy -200 <= elo0 < elo1 <= 200 (nElo)")
    os.makedirs(args.dir, exist_ok=True)
    paths = {k: os.path.join(args.dir, f) for k, f in (
        ("pgn", "games.pgn"), ("summary", "summary.txt"), ("log", "runner.log"),
        ("record", "test.json"), ("state", "fastchess.json"), ("book", "openings.epd"))}
    record = load(paths["record"])
    if args.sum:
        if not record:
            sys.exit(f"{paths['record']}: no test here")
        print(summary(record, runner.Tally.from_pgn([paths["pgn"]], "new")), end="")
        return
    if not (args.new and args.base):
        sys.exit("--new and --base are needed to play (or --sum)")
    # The summary counts the games of the engine named "new".
    new, base = runner.Engine(args.new).renamed("new"), runner.Engine(args.base).renamed("base")
    for e in (new, base):
        why = runner.usable(e, args.runner)
        if why:
            sys.exit(why)
    record = check_record(paths["record"], record, args, new, base)
    tally = runner.Tally.from_pgn([paths["pgn"]], "new")
    if record.get("state") in DONE:
        print(summary(record, tally), end="")
        return
    exe = runner.find_runner(args.runner, args.runner_path)
    if args.chess960:
        # Both runners take the shuffled file in order, so --seed alone
        # decides which positions are played.
        paths["book"] = os.path.join(args.dir, "openings960.epd")
        if not os.path.exists(paths["book"]):
            runner.chess960_openings(args.seed, paths["book"])
    if args.runner == "fastchess" and os.path.exists(paths["state"]):
        cmd = [exe, "-config", f"file={os.path.abspath(paths['state'])}"]
    elif args.runner == "fastchess":
        cmd = runner.command(
            "fastchess", exe, [new, base], rounds=args.rounds, pgn=paths["pgn"],
            each=limit(args) + shlex.split(args.each),
            openings=paths["book"] if args.chess960 else args.openings,
            order="sequential" if args.chess960 else "random", seed=args.seed,
            concurrency=args.concurrency, chess960=args.chess960,
            adjudicate=not args.no_adjudication,
            sprt=None if args.fixed else (args.elo0, args.elo1, args.alpha, args.beta),
            state=paths["state"])
    else:
        # cutechess-cli cannot resume: each run takes the openings after the
        # games already played, from a file shuffled once.
        if not os.path.exists(paths["book"]):
            runner.shuffled_openings(args.openings, args.seed, paths["book"])
        played = sum(tally.penta) + tally.unpaired
        cmd = runner.command(
            "cutechess", exe, [new, base], rounds=args.rounds - sum(tally.penta),
            pgn=paths["pgn"], each=limit(args) + shlex.split(args.each), openings=paths["book"],
            order="sequential", start=played + 1, concurrency=args.concurrency,
            chess960=args.chess960, adjudicate=not args.no_adjudication)
    lower, upper = runner.sprt_bounds(args.alpha, args.beta)
    report, outcome = [], []

    def on_line(line):
        print(line, flush=True)
        if FASTCHESS_REPORT.match(line):
            if line.startswith("Elo:"):
                report.clear()
            report.append(line)
        m = DECISION.search(line)
        if m:
            outcome.append(f"{m.group(1)} accepted")
        if line.startswith("Tournament was interrupted") and not outcome:
            outcome.append("interrupted")
        if line.startswith("Finished game"):
            tally.read(paths["pgn"])
            write(record, paths, tally, "running", report)
            if args.runner == "cutechess" and not args.fixed and not outcome:
                # cutechess-cli has no pentanomial SPRT: this script decides.
                llr = tally.llr(args.elo0, args.elo1)
                if llr >= upper or llr <= lower:
                    outcome.append("H1 accepted" if llr >= upper else "H0 accepted")

    with open(paths["log"], "a") as f:
        f.write("$ " + shlex.join(cmd) + "\n")
    try:
        rc = runner.run(cmd, log=paths["log"], on_line=on_line, 
                        stop=lambda: args.runner == "cutechess" and bool(outcome))
    except KeyboardInterrupt:
        rc, outcome = None, ["interrupted"]
    tally.read(paths["pgn"])
    if outcome:
        state = outcome[-1]
    elif rc != 0:
        state = f"the runner stopped with exit code {rc} (see {paths['log']})"
    else:
        state = "finished" if args.fixed else "undecided after --rounds pairs"
    if state in DONE and os.path.exists(paths["state"]):
        # fastchess leaves its state behind: a later run must not resume it.
        os.replace(paths["state"], paths["state"] + ".done")
    if state == "interrupted":
        state += " (the same command goes on)"
    write(record, paths, tally, state, report)
    print(open(paths["summary"]).read(), end="")
    if rc is None:
        sys.exit(130)


def limit(args):
    return [f"nodes={args.nodes}"] if args.nodes else [f"tc={args.tc}"]


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def save(path, record):
    with open(path + ".tmp", "w") as f:
        json.dump(record, f, indent=1)
    os.replace(path + ".tmp", path)


def check_record(path, first, args, new, base):
    """The test's record: written by the first run; a later run must name
    the same engines and conditions, and binaries with the same checksums
    (or say --same-source)."""
    here = {"new": args.new, "base": args.base, "each": args.each,
            "limit": f"nodes {args.nodes}" if args.nodes else f"tc {args.tc}",
            "fixed": args.fixed, "elo0": args.elo0, "elo1": args.elo1, "alpha": args.alpha,
            "beta": args.beta, "rounds": args.rounds,
            "openings": "chess960" if args.chess960 else os.path.basename(args.openings),
            "seed": args.seed, "runner": args.runner}
    build = {"new_sha256": new.sha256(), "base_sha256": base.sha256()}
    if first is None:
        record = dict(here, **build, rebuilds=[])
        save(path, record)
        return record
    differ = [k for k in here if first.get(k) != here[k]]
    if differ:
        sys.exit(f"{path}: this test was started with another {', '.join(differ)}; "
                 "a new test needs a new --dir")
    if build not in [{k: first[k] for k in build}] + first["rebuilds"]:
        if not args.same_source:
            sys.exit(f"{path}: the binaries changed since the test began "
                     "(--same-source if they are a rebuild of the same commits)")
        first["rebuilds"].append(build)
        save(path, first)
    return first


def summary(r, t, report=()):
    """The summary's text."""
    w, d, l = t.wdl
    lines = [
        f"new:     {r['new']}  (sha256 {r['new_sha256'][:16]}...)",
        f"base:    {r['base']}  (sha256 {r['base_sha256'][:16]}...)",
        f"each:    {r['each']}, {r['limit']}; openings {r['openings']} seed {r['seed']}; "
        f"{r['runner']}",
        "test:    " + (f"{r['rounds']} pairs, no SPRT" if r["fixed"] else
                       f"SPRT nElo [{r['elo0']:g}, {r['elo1']:g}], alpha {r['alpha']:g}, "
                       f"beta {r['beta']:g}, at most {r['rounds']} pairs"),
        f"games:   {t.games} in {sum(t.penta)} pairs (and {t.unpaired} unpaired), "
        f"W {w} D {d} L {l}",
    ]
    e = t.elo()
    if e:
        nelo = f", nElo {e[2]:+.2f} +- {e[3]:.2f}" if e[2] is not None else ""
        lines.append(f"Elo:     {e[0]:+.2f} +- {e[1]:.2f} (95%){nelo}")
    if not r["fixed"]:
        lower, upper = runner.sprt_bounds(r["alpha"], r["beta"])
        lines.append(f"LLR:     {t.llr(r['elo0'], r['elo1']):+.2f} ({lower:.2f}, {upper:.2f})")
    lines += [f"penta:   {t.penta} (pairs scoring 0, 1/2, 1, 3/2, 2 for new)",
              f"faults:  {t.faults_text()} (time losses, illegal moves, crashes)"]
    if report:
        lines.append("fastchess's last report: " + " | ".join(report))
    lines.append(f"state:   {r.get('state', '?')}")
    return "\n".join(lines) + "\n"


def write(record, paths, tally, state, report=()):
    """Records the state and rewrites the summary."""
    record["state"] = state
    save(paths["record"], record)
    with open(paths["summary"] + ".tmp", "w") as f:
        f.write(summary(record, tally, report))
    os.replace(paths["summary"] + ".tmp", paths["summary"])


if __name__ == "__main__":
    main()
