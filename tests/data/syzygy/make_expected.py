#!/usr/bin/env python3
"""Expected Syzygy values for cavalier's tests, from python-chess's own
prober (chess.syzygy), which shares no code with cavalier's.

usage: make_expected.py TABLE_DIR [--per-table N] [--tables KQvKR,KPvKP]
                        [--seed S] > expected.txt

For each WDL table of TABLE_DIR (or those named), N random legal positions
(both colourings of the material, either side to move), then positions
with an en-passant capture when both sides have pawns. Each line:

    FEN;WDL;DTZ;ROOT

WDL and DTZ are python-chess's probe_wdl and probe_dtz. ROOT, given for
about one position in six (whose FEN carries a fifty-move counter, often
close to 100), is the best outcome a root move keeps under the fifty-move
rule with that counter: 2 win, 1 win drawn by the rule, 0 draw, -1 loss
saved by the rule, -2 loss; '-' where not computed. A move's outcome:
mate 2; stalemate 0; a capture or pawn move, minus the WDL after it;
otherwise, from the DTZ d after it (side to move there) and the counter
h after it, a win when -d <= 100 and h - d <= 99 (1 otherwise), a loss
when d <= 100 and h + d <= 100 (-1 otherwise).
"""
import argparse
import os
import random
import sys

import chess
import chess.syzygy

PIECE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}


def place(board, rng, color, letters):
    for c in letters:
        kind = PIECE[c]
        while True:
            sq = rng.randrange(64)
            if board.piece_at(sq) is None and not (kind == chess.PAWN and chess.square_rank(sq) in (0, 7)):
                board.set_piece_at(sq, chess.Piece(kind, color))
                break


def random_board(rng, first, second):
    """A legal position with `first` for one colour and `second` for the other."""
    while True:
        board = chess.Board(None)
        white_first = rng.random() < 0.5
        place(board, rng, chess.WHITE, first if white_first else second)
        place(board, rng, chess.BLACK, second if white_first else first)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def ep_board(rng, first, second):
    """A legal position where the side to move can take en passant, or None."""
    for _ in range(200):
        board = chess.Board(None)
        mover = rng.choice([chess.WHITE, chess.BLACK])
        letters = {True: list(first), False: list(second)}
        white_first = rng.random() < 0.5
        mine = letters[white_first] if mover == chess.WHITE else letters[not white_first]
        theirs = letters[not white_first] if mover == chess.WHITE else letters[white_first]
        if "P" not in mine or "P" not in theirs:
            return None
        f = rng.randrange(8)
        df = rng.choice([-1, 1])
        if not 0 <= f + df < 8:
            continue
        # Their pawn has just come two squares; ours stands beside it.
        rank = 3 if mover == chess.BLACK else 4
        step = -1 if mover == chess.BLACK else 1
        board.set_piece_at(chess.square(f, rank), chess.Piece(chess.PAWN, not mover))
        board.set_piece_at(chess.square(f + df, rank), chess.Piece(chess.PAWN, mover))
        mine.remove("P")
        theirs.remove("P")
        behind = [chess.square(f, rank + step), chess.square(f, rank + 2 * step)]
        place(board, rng, mover, mine)
        place(board, rng, not mover, theirs)
        if any(board.piece_at(s) for s in behind):
            continue
        board.turn = mover
        board.ep_square = chess.square(f, rank + step)
        if board.is_valid() and board.has_legal_en_passant():
            return board
    return None


def move_outcome(tb, board):
    """The outcome, for the side that just moved, of the position reached."""
    if board.is_checkmate():
        return 2
    if not any(board.generate_legal_moves()):
        return 0
    if board.halfmove_clock == 0:
        return -tb.probe_wdl(board)
    d, h = tb.probe_dtz(board), board.halfmove_clock
    if d < 0:
        return 2 if -d <= 100 and h - d <= 99 else 1
    if d > 0:
        return -2 if d <= 100 and h + d <= 100 else -1
    return 0


def root_outcome(tb, board):
    best = -3
    for mv in list(board.legal_moves):
        board.push(mv)
        try:
            best = max(best, move_outcome(tb, board))
        finally:
            board.pop()
    return best


def line(tb, board, rng, with_root):
    if with_root:
        board.halfmove_clock = rng.choice([rng.randrange(100), 90 + rng.randrange(10), 99])
    board.fullmove_number = 1 + rng.randrange(60)
    wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
    root = root_outcome(tb, board) if with_root and any(board.generate_legal_moves()) else "-"
    return f"{board.fen()};{wdl};{dtz};{root}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--per-table", type=int, default=2000)
    ap.add_argument("--tables", default="")
    ap.add_argument("--seed", type=int, default=19)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    names = sorted(f[:-5] for f in os.listdir(a.dir) if f.endswith(".rtbw"))
    if a.tables:
        names = [n for n in names if n in a.tables.split(",")]
    with chess.syzygy.open_tablebase(a.dir) as tb:
        for name in names:
            first, second = name.split("v")
            out = []
            for i in range(a.per_table):
                out.append(line(tb, random_board(rng, first, second), rng, i % 6 == 0))
            if "P" in first and "P" in second:
                for i in range(max(1, a.per_table // 4)):
                    b = ep_board(rng, first, second)
                    if b is not None:
                        out.append(line(tb, b, rng, i % 3 == 0))
            print("\n".join(out))
            print(f"{name}: {len(out)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
