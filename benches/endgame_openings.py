#!/usr/bin/env python3
"""Random endgame positions, mostly pawn endings, as starting positions for
`cavalier selfplay --openings`: the self-play from the book adjudicates a
game once a side leads by 1000 cp, so won pawn endings are seldom played
out and the network sees few of them. Each line is a FEN of a random legal
placement of one of MATERIALS (White's letters, then Black's; the colours
swapped for half of them), pawns on their second to seventh ranks, either
side to move, the side not to move not in check, the kings apart. Seeded:
the same arguments write the same file. Needs only Python 3.

usage: endgame_openings.py [--count N] [--seed S] > endgames.epd
"""
import argparse
import random

# Pawn endings (most) and a few with one piece a side.
MATERIALS = (
    ["KPvK"] * 4 + ["KPPvK", "KPvKP", "KPPvKP"] * 3
    + ["KPPvKPP", "KPPPvKPP", "KPPPvKPPP", "KPPPPvKPPP", "KPPPPvKPPPP"] * 2
    + ["KRPvKR", "KRPPvKRP", "KBPvKB", "KNPvKN", "KBPvKN", "KNPvKB", "KRPvKR",
       "KQPvKQ", "KRPPvKRPP", "KBPPvKBP"]
)

KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def attacked(cells, square, by_white):
    """Whether `square` (0..63, a1 = 0) is attacked by White's pieces
    (`by_white`) or Black's."""
    f, r = square % 8, square // 8

    def at(x, y):
        return cells.get(y * 8 + x) if 0 <= x < 8 and 0 <= y < 8 else None

    def mine(p, kind):
        return p is not None and p.upper() == kind and p.isupper() == by_white

    pawn_rank = r - 1 if by_white else r + 1
    if any(mine(at(f + d, pawn_rank), "P") for d in (-1, 1)):
        return True
    if any(mine(at(f + x, r + y), "N") for x, y in KNIGHT):
        return True
    if any(mine(at(f + x, r + y), "K") for x, y in KING):
        return True
    for dirs, kinds in ((ROOK, "RQ"), (BISHOP, "BQ")):
        for x, y in dirs:
            cx, cy = f + x, r + y
            while 0 <= cx < 8 and 0 <= cy < 8:
                p = at(cx, cy)
                if p is not None:
                    if p.upper() in kinds and p.isupper() == by_white:
                        return True
                    break
                cx, cy = cx + x, cy + y
    return False


def fen(cells, white_to_move):
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = cells.get(r * 8 + f)
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if white_to_move else " b") + " - - 0 1"


def position(rng):
    white, black = rng.choice(MATERIALS).split("v")
    if rng.random() < 0.5:
        white, black = black, white
    while True:
        cells = {}
        ok = True
        for letters, is_white in ((white, True), (black, False)):
            for c in letters:
                piece = c if is_white else c.lower()
                for _ in range(100):
                    s = rng.randrange(64)
                    if s in cells:
                        continue
                    if c == "P" and not 1 <= s // 8 <= 6:
                        continue
                    cells[s] = piece
                    break
                else:
                    ok = False
        if not ok:
            continue
        wk, bk = (next(s for s, p in cells.items() if p == k) for k in "Kk")
        if max(abs(wk % 8 - bk % 8), abs(wk // 8 - bk // 8)) <= 1:
            continue
        white_to_move = rng.random() < 0.5
        # The side not to move may not be in check.
        if attacked(cells, bk if white_to_move else wk, white_to_move):
            continue
        return fen(cells, white_to_move)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    for _ in range(a.count):
        print(position(rng))


if __name__ == "__main__":
    main()
