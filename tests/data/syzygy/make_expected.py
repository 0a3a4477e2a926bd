#!/usr/bin/env python3
"""Expected Syzygy values for cavalier's tests, from python-chess's own
prober (chess.syzygy), which shares no code with cavalier's.

usage: make_expected.py TABLE_DIR [--per-table N] [--tables KQvKR,KPvKP]
                        [--seed S] > expected.txt
       make_expected.py TABLE_DIR --boundary N [--seed S] > root_boundary.txt
       make_expected.py TABLE_DIR --annotate FILE --stockfish PATH > FILE2
       make_expected.py TABLE_DIR --check-bound N [--tables ...]

For each WDL table of TABLE_DIR (or those named), N random legal positions
(both colourings of the material, either side to move), then positions
with an en-passant capture when both sides have pawns. Each line:

    FEN;WDL;DTZ;ROOT

WDL and DTZ are python-chess's probe_wdl and probe_dtz. ROOT, given for
about one position in six (whose FEN carries a fifty-move counter, often
close to 100), is the outcome for the side to move under the fifty-move
rule with that counter: 2 win, 1 win drawn by the rule, 0 draw, -1 loss
saved by the rule, -2 loss; '-' where not computed. It is found by
playing the moves out on python-chess's board where DTZ leaves it open
(class Play), not by a formula on DTZ values, so that a mistake in
cavalier's formula (src/engine/syzygy/root.rs) cannot pass.

With --boundary N: for each table, N won or lost positions whose counter
puts the next capture, pawn move or mate within two plies of the
fifty-move boundary, each line FEN;ROOT. The committed root_boundary.txt
is `--boundary 40 --seed 48` (640 lines, 10 minutes), then annotated.

With --annotate FILE --stockfish PATH: FILE's FEN;ROOT lines become
FEN;ROOT;SF;HOW, SF being Stockfish 15.1's root outcome with the same
tables, HOW who vouches for ROOT where Stockfish differs (see annotate;
12 minutes for root_boundary.txt: 623 of 640 equal, 13 settled by
Proof, 4 left to Play).

With --check-bound N: checks the one premise Play takes from the tables'
documentation (|DTZ| <= t <= |DTZ| + 1, below) by a plain search on N
positions a table; slow, so for tables with short distances.
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


class Play:
    """The outcome of a position under the fifty-move rule, settled by
    playing moves on python-chess's board rather than by a formula on DTZ
    values: the clock is the board's halfmove_clock, a capture or pawn
    move resets it, and the game is drawn when python-chess's
    is_fifty_moves() says so (clock at 100 and not mate).

    A position the tables win with a fresh clock (WDL 2) stays won when the
    winner can force a mate, or a capture or pawn move into a position the
    tables still win with a fresh clock, before that draw. DTZ n (its
    absolute value) only bounds the number t of plies that takes: python-
    chess documents n <= t <= n + 1 (DTZ stored in moves is rounded), so a
    position whose clock c has c + n + 1 <= 100 is won, one with
    c + n > 100 is not, and one in between (c + n = 100) is played out: the
    winner needs one move that keeps the win, the loser none that saves
    it. `within` searches t out without DTZ, to check that bound
    (--check-bound)."""

    def __init__(self, tb):
        self.tb = tb
        self.memo = {}
        self.played = 0
        self.probes = {}

    def probe(self, board):
        """WDL and |DTZ| of the position (the clock aside), remembered."""
        key = board._transposition_key()
        if key not in self.probes:
            self.probes[key] = (self.tb.probe_wdl(board), abs(self.tb.probe_dtz(board)))
        return self.probes[key]

    def wins_fresh(self, board, winner):
        """The tables give `winner` a win from here with a fresh clock."""
        w = self.probe(board)[0]
        return (w if board.turn == winner else -w) == 2

    def keeps_win(self, board, winner):
        """Whether `winner` still wins the position just reached."""
        if board.is_checkmate():
            return board.turn != winner
        if board.is_fifty_moves() or not any(board.generate_legal_moves()):
            return False
        if not self.wins_fresh(board, winner):
            return False
        if board.halfmove_clock == 0:
            return True
        c, n = board.halfmove_clock, self.probe(board)[1]
        if c + n + 1 <= 100:
            return True
        if c + n > 100:
            return False
        key = (board._transposition_key(), c, winner)
        if key not in self.memo:
            self.played += 1
            results = (self.after(board, m, winner) for m in list(board.legal_moves))
            self.memo[key] = any(results) if board.turn == winner else all(results)
        return self.memo[key]

    def after(self, board, move, winner):
        board.push(move)
        try:
            return self.keeps_win(board, winner)
        finally:
            board.pop()

    def root(self, board):
        """The outcome for the side to move with the position's clock: 2
        won, 1 won without the rule but drawn by it, 0 drawn, -1 lost
        without the rule but saved by it, -2 lost."""
        w = self.tb.probe_wdl(board)
        if abs(w) != 2:
            return w
        winner = board.turn if w > 0 else not board.turn
        won = self.keeps_win(board, winner)
        return (2 if won else 1) * (1 if w > 0 else -1)

    def within(self, board, winner, k, memo):
        """Whether `winner` forces, within k plies, a mate or a capture or
        pawn move keeping a win the tables give with a fresh clock: a plain
        search over every move, DTZ unused."""
        if k <= 0:
            return False
        key = (board._transposition_key(), k)
        if key not in memo:
            mine = board.turn == winner
            result = not mine
            for move in list(board.legal_moves):
                board.push(move)
                try:
                    if board.is_checkmate():
                        good = mine
                    elif board.halfmove_clock == 0:
                        good = self.wins_fresh(board, winner)
                    elif not any(board.generate_legal_moves()):
                        good = False
                    else:
                        good = self.within(board, winner, k - 1, memo)
                finally:
                    board.pop()
                if good == mine:
                    result = mine
                    break
            memo[key] = result
        return memo[key]


class Budget(Exception):
    """A search of Proof ran past its node budget."""


class Proof:
    """The outcome under the fifty-move rule by a search over every move
    on python-chess's board, without Play's use of DTZ as an upper bound:
    the winner keeps the win if he can force, within the plies the clock
    leaves, a mate or a capture or pawn move into a position the tables
    win with a fresh clock. The tables give only that WDL and, to cut the
    search, |DTZ| as a lower bound of those plies (the bound's one side
    that --check-bound also checks). Slow where many plies are left, so
    --annotate runs it with a node budget."""

    def __init__(self, play, budget):
        self.play = play
        self.memo = {}
        self.budget = budget

    def within(self, board, winner, k):
        if k <= 0 or not self.play.wins_fresh(board, winner):
            return False
        if self.play.probe(board)[1] > k:
            return False
        key = (board._transposition_key(), winner, k)
        if key not in self.memo:
            self.budget -= 1
            if self.budget < 0:
                raise Budget
            mine = board.turn == winner
            result = not mine
            for move in list(board.legal_moves):
                board.push(move)
                try:
                    if board.is_checkmate():
                        good = mine
                    elif not any(board.generate_legal_moves()):
                        good = False
                    elif board.halfmove_clock == 0:
                        good = self.play.wins_fresh(board, winner)
                    else:
                        good = self.within(board, winner, k - 1)
                finally:
                    board.pop()
                if good == mine:
                    result = mine
                    break
            self.memo[key] = result
        return self.memo[key]

    def root(self, board):
        """As Play.root, or None past the budget."""
        w = self.play.tb.probe_wdl(board)
        if abs(w) != 2:
            return w
        winner = board.turn if w > 0 else not board.turn
        try:
            won = self.within(board, winner, 100 - board.halfmove_clock)
        except Budget:
            return None
        return (2 if won else 1) * (1 if w > 0 else -1)


def stockfish_roots(path, table_dir, fens):
    """Stockfish's root outcome of each position with the same tables:
    its score after `go depth 1` (the tablebase score of the moves it
    keeps, Syzygy50MoveRule on): a win or loss beyond 50 pawns counts as
    2 or -2, a smaller score as 1 or -1 (a win drawn by the rule, which
    Stockfish scores a few centipawns, 0 when rounded, so the sign comes
    from the tables' WDL), 0 a draw."""
    import subprocess
    sf = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(text):
        sf.stdin.write(text + "\n")
        sf.stdin.flush()

    send("uci")
    send(f"setoption name SyzygyPath value {table_dir}")
    send("isready")
    version = ""
    while True:
        got = sf.stdout.readline().strip()
        if got.startswith("id name"):
            version = got[8:]
        if got == "readyok":
            break
    out = []
    for fen, wdl in fens:
        send(f"position fen {fen}")
        send("go depth 1")
        score = None
        while True:
            words = sf.stdout.readline().split()
            if "score" in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
            if words and words[0] == "bestmove":
                break
        kind, value = score
        if kind == "mate" or abs(value) >= 5000:
            out.append(2 if value > 0 else -2)
        else:
            out.append((wdl > 0) - (wdl < 0))
    send("quit")
    sf.wait()
    return version, out


def annotate(tb, path, stockfish, table_dir, budget):
    """FEN;ROOT lines to FEN;ROOT;SF;HOW: SF Stockfish's root outcome,
    HOW 'sf' where it equals ROOT, else 'proof' where Proof found ROOT
    within the budget, 'play' where only Play did (Proof ran out), and
    an error where Proof found otherwise."""
    play = Play(tb)
    rows = [line.strip().split(";")[:2] for line in open(path) if line.strip()]
    version, sf = stockfish_roots(stockfish, table_dir,
                                  [(fen, tb.probe_wdl(chess.Board(fen))) for fen, _ in rows])
    print(f"{version}: {sum(int(r[1]) == s for r, s in zip(rows, sf))} of {len(rows)} equal",
          file=sys.stderr)
    for (fen, root), s in zip(rows, sf):
        how = "sf"
        if int(root) != s:
            found = Proof(play, budget).root(chess.Board(fen))
            if found is not None and found != int(root):
                sys.exit(f"{fen}: Play {root}, Proof {found}")
            how = "play" if found is None else "proof"
            print(f"{fen}: Play {root}, Stockfish {s}, {how}", file=sys.stderr)
        print(f"{fen};{root};{s};{how}")


def check_bound(tb, rng, names, count):
    """For `count` won or lost positions of each table, the true number t
    of plies to the winner's next capture, pawn move or mate, by plain
    search, against n = |DTZ|: the premise n <= t <= n + 1 of Play (and of
    cavalier's root.rs). Prints the counts of t - n."""
    play = Play(tb)
    for name in names:
        seen, memo = {}, {}
        first, second = name.split("v")
        for _ in range(200 * count):
            if sum(seen.values()) == count:
                break
            board = random_board(rng, first, second)
            if not any(board.generate_legal_moves()) or abs(tb.probe_wdl(board)) != 2:
                continue
            winner = board.turn if tb.probe_wdl(board) > 0 else not board.turn
            n = abs(tb.probe_dtz(board))
            below = play.within(board, winner, n - 1, memo)
            above = play.within(board, winner, n + 1, memo)
            t = "< n" if below else ("n" if play.within(board, winner, n, memo) else
                                     ("n + 1" if above else "> n + 1"))
            seen[t] = seen.get(t, 0) + 1
        print(f"{name}: t - |DTZ| over {count} positions: {seen}", file=sys.stderr)


def root_outcome(tb, board):
    return Play(tb).root(board)


def line(tb, board, rng, with_root):
    if with_root:
        board.halfmove_clock = rng.choice([rng.randrange(100), 90 + rng.randrange(10), 99])
    board.fullmove_number = 1 + rng.randrange(60)
    wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
    root = root_outcome(tb, board) if with_root and any(board.generate_legal_moves()) else "-"
    return f"{board.fen()};{wdl};{dtz};{root}"


def boundary_lines(tb, play, rng, first, second, count):
    """`count` won or lost positions whose clock puts the next capture or
    pawn move within two plies of the fifty-move boundary, with their
    outcome by play."""
    out = []
    for _ in range(200 * count):
        if len(out) == count:
            break
        board = random_board(rng, first, second)
        if not any(board.generate_legal_moves()) or abs(tb.probe_wdl(board)) != 2:
            continue
        h = 100 - abs(tb.probe_dtz(board)) + rng.randrange(-2, 3)
        if not 0 <= h <= 99:
            continue
        board.halfmove_clock = h
        board.fullmove_number = 1 + rng.randrange(60)
        out.append(f"{board.fen()};{play.root(board)}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--per-table", type=int, default=2000)
    ap.add_argument("--tables", default="")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--boundary", type=int, default=0, metavar="N",
                    help="instead: N positions a table near the fifty-move boundary, FEN;ROOT")
    ap.add_argument("--annotate", metavar="FILE",
                    help="instead: FEN;ROOT lines of FILE to FEN;ROOT;SF;HOW (needs --stockfish)")
    ap.add_argument("--stockfish", metavar="PATH", help="a Stockfish 15.1 binary")
    ap.add_argument("--budget", type=int, default=20000,
                    help="nodes Proof may search a line (--annotate)")
    ap.add_argument("--check-bound", type=int, default=0, metavar="N",
                    help="instead: check |DTZ| <= t <= |DTZ| + 1 on N positions a table")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    names = sorted(f[:-5] for f in os.listdir(a.dir) if f.endswith(".rtbw"))
    if a.tables:
        names = [n for n in names if n in a.tables.split(",")]
    with chess.syzygy.open_tablebase(a.dir) as tb:
        if a.annotate:
            annotate(tb, a.annotate, a.stockfish, a.dir, a.budget)
            return
        if a.check_bound:
            check_bound(tb, rng, names, a.check_bound)
            return
        if a.boundary:
            play = Play(tb)
            for name in names:
                out = boundary_lines(tb, play, rng, *name.split("v"), a.boundary)
                if out:
                    print("\n".join(out))
                print(f"{name}: {len(out)} positions, {play.played} positions played out",
                      file=sys.stderr)
            return
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
