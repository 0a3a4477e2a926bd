#!/usr/bin/env python3
"""Nodes per second of several engines, interleaved: for A/B tests of speed
on a machine whose speed drifts.

    python3 benches/npsab.py [--rounds 3] [--time 2 | --nodes N] [--hash 64] NAME=CMD ...
        [--set NAME:OPTION=VALUE ...]

Every engine stays up (one thread, Hash 64 unless --hash says otherwise: a
table that fits the CPU's caches shows what waiting for memory costs). Each
round searches each of benches/nps.py's four positions with every engine in
turn for --time seconds, so a drift of the machine's speed hits all engines
alike. Prints each engine's mean and median nps, and its mean ratio to the
first engine over the position-and-round pairs (with the smallest and
largest ratio: their spread shows how far to trust the mean), then each
engine's mean ratio by position, and last each engine's best rate on each
position over the rounds against the first engine's best (the geometric
mean of those ratios): interference from the rest of a shared machine only
ever slows a search down, so the best of several runs is the steadier
figure. Last, with two rounds or more, each engine's mean ratio by rounds
with a 95% interval (each round's geometric mean over the positions taken
as one sample): an interval that holds 1 means the two rates were not told
apart. --set gives one engine a UCI option (e.g. `--set hce:"Use NNUE=false"`
beside `nnue=target/release/cavalier hce=target/release/cavalier`: one
binary, two evaluations). With --nodes every search of a position by one engine is the same
search (the table is cleared before each), which makes the best-of figure
cleaner still (an engine that ignores `go nodes`, as Toga II 3.0 does,
searches for --time instead). Needs python-chess.
"""

import argparse
import math
import statistics
import sys

import chess
import chess.engine

from nps import POSITIONS


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--time", type=float, default=2.0, help="seconds per search")
    ap.add_argument("--nodes", type=int,
                    help="nodes per search; --time then only caps it (for engines that ignore nodes)")
    ap.add_argument("--hash", type=int, default=64, help="hash table MB for every engine")
    ap.add_argument("--set", action="append", default=[], metavar="NAME:OPTION=VALUE",
                    help="a UCI option for the engine NAME (repeatable)")
    ap.add_argument("engines", nargs="+", metavar="NAME=CMD")
    args = ap.parse_args()
    specs = [e.split("=", 1) for e in args.engines]
    if any(len(s) != 2 for s in specs):
        sys.exit("engines are given as NAME=CMD")
    extra = {name: {} for name, _ in specs}
    for item in args.set:
        name, _, setting = item.partition(":")
        option, eq, value = setting.partition("=")
        if name not in extra or not eq or not option:
            sys.exit(f"--set {item!r}: expected NAME:OPTION=VALUE with NAME one of the engines")
        extra[name][option] = value
    engines = {}
    try:
        for name, cmd in specs:
            engines[name] = chess.engine.SimpleEngine.popen_uci(cmd.split())
            wanted = {"Hash": args.hash, "Threads": 1}
            engines[name].configure({k: v for k, v in wanted.items() if k in engines[name].options})
            engines[name].configure(extra[name])
        nps = {name: [] for name in engines}
        for _ in range(args.rounds):
            for _, fen in POSITIONS:
                for name, engine in engines.items():
                    # With --nodes, --time still caps the search: an
                    # engine that ignores `go nodes` (Toga II 3.0 does)
                    # would otherwise search on and on.
                    limit = chess.engine.Limit(time=args.time, nodes=args.nodes)
                    info = engine.analyse(chess.Board(fen), limit, game=object())
                    nps[name].append(info["nodes"] / max(info["time"], 1e-3))
    finally:
        for engine in engines.values():
            engine.quit()
    first = specs[0][0]
    for name, values in nps.items():
        ratios = [b / a for a, b in zip(nps[first], values)]
        print(f"{name:14s} mean {statistics.mean(values) / 1e6:.3f} M  "
              f"median {statistics.median(values) / 1e6:.3f} M  "
              f"/ {first}: {statistics.mean(ratios):.3f} "
              f"(from {min(ratios):.3f} to {max(ratios):.3f})")
    # The searches ran position after position, round after round: entry
    # i is position i % n.
    n = len(POSITIONS)
    print(f"\nby position, mean nps (M) and mean ratio to {first}:")
    print(f"{'':14s} " + " ".join(f"{label:>18s}" for label, _ in POSITIONS))
    for name, values in nps.items():
        cells = []
        for p in range(n):
            mine = values[p::n]
            ratio = statistics.mean(b / a for a, b in zip(nps[first][p::n], mine))
            cells.append(f"{statistics.mean(mine) / 1e6:.3f} x{ratio:.3f}")
        print(f"{name:14s} " + " ".join(f"{c:>18s}" for c in cells))
    print(f"\nbest of {args.rounds} rounds by position (M), and the geometric mean of "
          f"the ratios to {first}'s best:")
    best_first = [max(nps[first][p::n]) for p in range(n)]
    for name, values in nps.items():
        best = [max(values[p::n]) for p in range(n)]
        ratio = statistics.geometric_mean(b / a for a, b in zip(best_first, best))
        print(f"{name:14s} " + " ".join(f"{b / 1e6:>18.3f}" for b in best) + f"   x{ratio:.3f}")
    if args.rounds >= 2:
        print(f"\neach round's geometric mean ratio to {first} over the positions, and the "
              f"95% interval of their mean (Student's t over {args.rounds} rounds):")
        for name, values in nps.items():
            low, mid, high = round_interval(nps[first], values, n)
            print(f"{name:14s} x{mid:.3f}  [{low:.3f}, {high:.3f}]")


# Two-sided 95% quantiles of Student's t by degrees of freedom (1-30).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def round_interval(base, values, n):
    """The mean over rounds of log(round's geometric mean ratio), as a ratio
    with its 95% interval: (low, mid, high). A round's positions ran one
    after another, so a round is the unit of the machine's drift."""
    logs = []
    for r in range(len(values) // n):
        pairs = zip(base[r * n:(r + 1) * n], values[r * n:(r + 1) * n])
        logs.append(statistics.mean(math.log(b / a) for a, b in pairs))
    mid = statistics.mean(logs)
    half = T95[min(len(logs) - 1, len(T95)) - 1] * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mid - half), math.exp(mid), math.exp(mid + half)


if __name__ == "__main__":
    main()
