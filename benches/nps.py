#!/usr/bin/env python3
"""Nodes per second side by side: cavalier and other UCI engines, one
thread, Hash 64, a fixed time on each of a fixed set of positions.

    python3 benches/nps.py [--time 3] [--engine NAME=CMD ...]

Each engine searches each position once for --time seconds (a fresh
process per engine, `ucinewgame` before each position); its nodes per
second on a position are the nodes and time of its last `info` line. The
table gives them per position and their mean. Defaults: the release build
of this repository and Toga II 3.0, Glaurung 2.2 and Ethereal 12.00 from
Debian (/usr/games). Needs python-chess (`pip install chess`). Run it on an
otherwise idle machine: two engines never search at once here, but any
other load shows in the figures.
"""

import argparse
import os
import statistics
import sys

import chess
import chess.engine

POSITIONS = [
    # Middlegames: an open Italian, a closed Queen's Gambit, Kiwipete.
    ("italian", "r1bq1rk1/pp1n1ppp/2pbpn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9"),
    ("qgd", "r2q1rk1/pp2bppp/2n1pn2/2pp4/3P1B2/2P1PN2/PP1NBPPP/R2QK2R w KQ - 0 9"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    # An ending: rooks and pawns.
    ("rook-ending", "8/5pk1/6p1/3R4/1r5P/6P1/5PK1/8 w - - 0 40"),
]

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENGINES = [
    ("cavalier", os.path.join(HERE, "..", "target", "release", "cavalier")),
    ("toga2", "/usr/games/toga2"),
    ("glaurung", "/usr/games/glaurung"),
    ("ethereal", "/usr/games/ethereal-chess"),
]


def measure(cmd, seconds):
    """Nodes per second of `cmd` on each position."""
    engine = chess.engine.SimpleEngine.popen_uci(cmd.split())
    options = {"Threads": 1, "Hash": 64}
    for name in ("OwnBook",):
        if name in engine.options:
            options[name] = False
    engine.configure({k: v for k, v in options.items() if k in engine.options})
    out = []
    try:
        for _, fen in POSITIONS:
            with engine.analysis(chess.Board(fen), chess.engine.Limit(time=seconds),
                                 game=object()) as analysis:
                nodes = elapsed = 0
                for info in analysis:
                    if "nodes" in info and "time" in info and info["time"] > 0:
                        nodes, elapsed = info["nodes"], info["time"]
            out.append(nodes / elapsed if elapsed else 0.0)
    finally:
        engine.quit()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time", type=float, default=3.0, help="seconds per position")
    ap.add_argument("--engine", action="append", default=[],
                    help="NAME=COMMAND (repeatable; default: cavalier and the Debian engines)")
    a = ap.parse_args()
    engines = [tuple(e.split("=", 1)) for e in a.engine] or DEFAULT_ENGINES
    header = ["engine"] + [p[0] for p in POSITIONS] + ["mean"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for name, cmd in engines:
        if not os.path.exists(cmd.split()[0]):
            print(f"{name}: {cmd.split()[0]} not found, skipped", file=sys.stderr)
            continue
        nps = measure(cmd, a.time)
        cells = [f"{x / 1e6:.2f} M" for x in nps]
        print(" | ".join([name] + cells + [f"{statistics.mean(nps) / 1e6:.2f} M"]))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
