#!/usr/bin/env python3
"""An EPD suite (bm/am) through UCI, for any engine: the same test as
`cavalier epd`, by an independent driver, so cavalier and other engines are
measured alike.

    python3 benches/epd_uci.py --engine /usr/games/stockfish [--movetime 1000 | --nodes N] \\
        [--parts 2] [--hash 64] [FILE]

Each position gets `ucinewgame`, then `go movetime MS` (or `go nodes N`,
the same answer under any load), one thread and the hash size given; it
counts as solved when the move is one of its `bm` moves and none of its
`am` moves. `--parts` engines run at once, each on
its share of the positions. FILE defaults to benches/wac.epd. Needs
python-chess.
"""

import argparse
import concurrent.futures
import os

import chess
import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    """(id, board, best moves, avoided moves) of every position."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            board, ops = chess.Board.from_epd(line)
            out.append((ops.get("id", str(len(out) + 1)), board, ops.get("bm", []),
                        ops.get("am", [])))
    return out


def solve(engine_cmd, options, limit, items):
    """Searches `items`; returns (id, solved, move in SAN) for each."""
    results = []
    engine = chess.engine.SimpleEngine.popen_uci(engine_cmd)
    try:
        engine.configure({k: v for k, v in options.items() if k in engine.options})
        for ident, board, best, avoid in items:
            result = engine.play(board, limit, game=object())  # a new game: ucinewgame
            mv = result.move
            ok = mv is not None and (not best or mv in best) and mv not in avoid
            results.append((ident, ok, board.san(mv) if mv else "(none)"))
    finally:
        engine.quit()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=os.path.join(HERE, "wac.epd"))
    ap.add_argument("--engine", required=True, help="the UCI engine's command")
    ap.add_argument("--movetime", type=int, default=1000, help="ms per position")
    ap.add_argument("--nodes", type=int, help="nodes per position instead")
    ap.add_argument("--parts", type=int, default=2, help="engines at once")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    args = ap.parse_args()
    items = load(args.file)
    options = {"Hash": args.hash, "Threads": 1}
    for o in args.option:
        name, _, value = o.partition("=")
        options[name] = value
    per = (len(items) + args.parts - 1) // args.parts
    shares = [items[i:i + per] for i in range(0, len(items), per)]
    if args.nodes:
        limit, per_position = chess.engine.Limit(nodes=args.nodes), f"{args.nodes} nodes"
    else:
        limit, per_position = chess.engine.Limit(time=args.movetime / 1000), f"{args.movetime} ms"
    with concurrent.futures.ThreadPoolExecutor(len(shares)) as pool:
        parts = list(pool.map(lambda s: solve(args.engine.split(), options, limit, s), shares))
    results = [r for part in parts for r in part]
    missed = [ident for ident, ok, _ in results if not ok]
    print(f"{args.engine}: solved {len(results) - len(missed)} of {len(results)} "
          f"({per_position} per position, {len(shares)} at once, Hash {args.hash})")
    print("misses: " + " ".join(m.replace("WAC.", "") for m in missed))


if __name__ == "__main__":
    main()
