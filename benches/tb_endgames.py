#!/usr/bin/env python3
"""Endgame starting positions (6-8 pieces) for the tablebase match of
issue 19: random legal placements of a fixed list of materials (pawns on
ranks 2-6 from their own side, no side in check), kept when cavalier's
depth-8 search without tables scores them within +-SCORE cp, so that the
games are not decided from the start.

usage: tb_endgames.py ENGINE [--count N] [--score CP] [--seed S] > endgames.epd
"""
import argparse
import random

import chess
import chess.engine

MATERIALS = ["KRPvKR", "KRPPvKRP", "KRPvKRP", "KBPPvKNP", "KNPPvKBP", "KPPPvKPP",
             "KRPPvKRPP", "KQPvKQ", "KBPvKBP", "KRBvKRP", "KPPvKP", "KRNvKRP"]
KINDS = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}


def place(board, rng, color, letters):
    for c in letters:
        while True:
            sq = rng.randrange(64)
            rank = chess.square_rank(sq) if color == chess.WHITE else 7 - chess.square_rank(sq)
            if board.piece_at(sq) is None and not (c == "P" and not 1 <= rank <= 5):
                board.set_piece_at(sq, chess.Piece(KINDS[c], color))
                break


def candidate(rng):
    first, second = rng.choice(MATERIALS).split("v")
    while True:
        board = chess.Board(None)
        flip = rng.random() < 0.5
        place(board, rng, chess.WHITE, second if flip else first)
        place(board, rng, chess.BLACK, first if flip else second)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_check() and not board.is_game_over():
            return board


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--score", type=int, default=150)
    ap.add_argument("--seed", type=int, default=19)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kept = 0
    with chess.engine.SimpleEngine.popen_uci(a.engine) as eng:
        while kept < a.count:
            board = candidate(rng)
            info = eng.analyse(board, chess.engine.Limit(depth=8))
            cp = info["score"].relative.score(mate_score=100000)
            if abs(cp) <= a.score:
                print(board.epd())
                kept += 1


if __name__ == "__main__":
    main()
