#!/usr/bin/env python3
"""Conversion of won tablebase endings (issue 19 item 6).

For each material, random positions that Syzygy scores as a win for the
side to move (not a cursed win) with at least --min-dtz plies to the next
zeroing move; cavalier plays the winning side at --movetime ms a move,
with or without SyzygyPath; the defence plays perfectly (python-chess's
prober: among the moves that hold the best outcome, the one that puts
off the zeroing move longest). A game counts as converted when cavalier mates
before the fifty-move rule (or a 300-ply cap); a capture or pawn move
that throws the win away ends it at once.

usage: tb_convert.py ENGINE TABLES [--materials KQvKR,KBNvK] [--count N]
       [--movetime MS] [--seed S] [--min-dtz N] [--with-tables]
"""
import argparse
import random

import chess
import chess.engine
import chess.syzygy

KINDS = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}


def random_position(rng, material, tb, min_dtz):
    strong, weak = material.split("v")
    while True:
        board = chess.Board(None)
        for color, letters in ((chess.WHITE, strong), (chess.BLACK, weak)):
            for c in letters:
                while True:
                    sq = rng.randrange(64)
                    if board.piece_at(sq) is None and not (c == "P" and chess.square_rank(sq) in (0, 7)):
                        board.set_piece_at(sq, chess.Piece(KINDS[c], color))
                        break
        board.turn = chess.WHITE
        if not board.is_valid() or board.is_game_over():
            continue
        if tb.probe_wdl(board) == 2 and tb.probe_dtz(board) >= min_dtz:
            return board


def defend(board, tb):
    """The perfect defence: keep the best outcome, then delay the zeroing
    move (or the mate) as long as possible."""
    best, key = None, None
    for mv in board.legal_moves:
        board.push(mv)
        wdl = tb.probe_wdl(board)  # from the attacker's view now
        dtz = tb.probe_dtz(board)
        board.pop()
        k = (-wdl, abs(dtz))
        if key is None or k > key:
            best, key = mv, k
    return best


def play(engine, board, tb, movetime):
    board = board.copy(stack=False)
    for _ in range(300):
        if board.is_checkmate():
            return "mate"
        if board.is_game_over(claim_draw=True):
            return "draw"
        if board.turn == chess.WHITE:
            mv = engine.play(board, chess.engine.Limit(time=movetime / 1000)).move
            zeroing = board.is_zeroing(mv)
            board.push(mv)
            if zeroing and not board.is_game_over() and len(board.piece_map()) <= 5:
                if tb.probe_wdl(board) != -2:
                    return "lost the win"
        else:
            board.push(defend(board, tb))
    return "cap"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("tables")
    ap.add_argument("--materials", default="KQvKR,KBNvK,KBBvKN,KRBvKR")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--min-dtz", type=int, default=20)
    ap.add_argument("--with-tables", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tb = chess.syzygy.open_tablebase(a.tables)
    opts = {"OwnBook": False, "Hash": 16}
    if a.with_tables:
        opts["SyzygyPath"] = a.tables
    total = converted = 0
    with chess.engine.SimpleEngine.popen_uci(a.engine) as eng:
        eng.configure(opts)
        for material in a.materials.split(","):
            won = 0
            for _ in range(a.count):
                board = random_position(rng, material, tb, a.min_dtz)
                r = play(eng, board, tb, a.movetime)
                won += r == "mate"
                print(f"{material} {board.fen()} dtz {tb.probe_dtz(board)}: {r}", flush=True)
            print(f"{material}: {won} of {a.count} converted", flush=True)
            total += a.count
            converted += won
    print(f"all: {converted} of {total} converted "
          f"({'with' if a.with_tables else 'without'} tables, {a.movetime} ms a move)")


if __name__ == "__main__":
    main()
