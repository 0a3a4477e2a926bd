#!/usr/bin/env python3
"""Self-play adjudication, tuned on games played to the end.

Reads game files (`cavalier selfplay --format games`, docs/network.md,
"Game files") of games played with `--no-adjudication`, and replays each
game's scores under every adjudication rule of a grid, the way
`cavalier selfplay` applies them (`lab::selfplay`, `Adjudication`): per
searched ply, a win when the score (White's view) has stayed beyond R cp
with the same sign for N plies in a row; a draw when it has stayed within
D cp of zero for M plies in a row, counting from ply F of the game on.
For each rule it prints:

  wrong    games whose adjudicated result differs from the result the
           game reached when played on (win/draw/loss), % of all games
  w-wrong  ... of those, adjudicated wins (% of all games)
  saved    searched plies the rule saves, % of all searched plies
  kept     share of the searched plies whose score training keeps (known,
           not a mate score, within 3000 cp): the work not thrown away
           (the trainer's other filters, check and captures, do not
           depend on the rule and are left out)
  games    games per 1,000 searched plies (more games: more openings)

A rule saves CPU time in proportion to the plies it saves (a move costs
the same nodes whatever the score), so `saved` is the speed-up of the
games and `kept` what the saved time would have been spent on.

Usage:

    cavalier selfplay --nnue --format games --soft-nodes 2000 --nodes 8000 \\
        --no-adjudication --games 2000 --seed 7201 --out full.games
    python3 benches/adjudication.py full.games
    python3 benches/adjudication.py --check sp.games   # files of the default
        rule: every game's end must be where the default rule ends it

`--check` tests this script against the engine: on games played with the
default rule (1000 cp for 8 plies; 10 cp for 20 plies from ply 80), the
rule must fire at each adjudicated game's last ply with its result, and
nowhere in the others.
"""

import argparse
import struct
import sys

HEADER = 32
PLY = 4
NO_SCORE = -32768
KEEP_LIMIT = 3000
DEFAULT = ((1000, 8), (10, 20, 80))


def read_games(path):
    """Yields (result, scores) per game: result 1, 0.5 or 0 for White,
    scores one a searched ply (None where unknown)."""
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        if len(data) - at < HEADER:
            sys.exit(f"{path}: byte {at}: a truncated header")
        head = data[at:at + HEADER]
        if head[30:31] != b"G" or head[31] != 1:
            sys.exit(f"{path}: byte {at}: not a game header (a record file?)")
        code = (head[24] >> 2) & 3
        if code > 2:
            sys.exit(f"{path}: byte {at}: result code {code}")
        plies = struct.unpack_from("<H", head, 28)[0]
        end = at + HEADER + PLY * plies
        if end > len(data):
            sys.exit(f"{path}: byte {at}: the file ends inside a game")
        scores = []
        for p in range(plies):
            mv, score = struct.unpack_from("<Hh", data, at + HEADER + PLY * p)
            if mv == 0 and p + 1 < plies:
                sys.exit(f"{path}: byte {at}: a null move before the last ply")
            if mv != 0:
                scores.append(None if score == NO_SCORE else score)
        yield (code / 2.0, scores)
        at = end


def adjudicate(scores, resign, draw):
    """Where the rule ends a game: (searched plies, result), or None."""
    r_run, r_sign, d_run = 0, 0, 0
    for p, s in enumerate(scores):
        if s is None:
            r_run, r_sign, d_run = 0, 0, 0
            continue
        if resign and abs(s) >= resign[0]:
            sign = 1 if s > 0 else -1
            r_run = r_run + 1 if sign == r_sign else 1
            r_sign = sign
            if r_run >= resign[1]:
                return (p + 1, 1.0 if sign > 0 else 0.0)
        else:
            r_run, r_sign = 0, 0
        if draw and p >= draw[2] and abs(s) <= draw[0]:
            d_run += 1
            if d_run >= draw[1]:
                return (p + 1, 0.5)
        else:
            d_run = 0
    return None


def kept(s):
    return s is not None and abs(s) <= KEEP_LIMIT


def evaluate(games, resign, draw):
    n = len(games)
    wrong = w_wrong = 0
    plies = searched = kept_plies = 0
    for result, scores in games:
        plies += len(scores)
        cut = adjudicate(scores, resign, draw)
        used = scores if cut is None else scores[:cut[0]]
        searched += len(used)
        kept_plies += sum(1 for s in used if kept(s))
        if cut is not None and cut[1] != result:
            wrong += 1
            if cut[1] != 0.5:
                w_wrong += 1
    return {
        "wrong": 100.0 * wrong / n,
        "w_wrong": 100.0 * w_wrong / n,
        "saved": 100.0 * (plies - searched) / plies,
        "kept": 100.0 * kept_plies / searched,
        "games": 1000.0 * n / searched,
    }


def name(resign, draw):
    r = f"{resign[0]}x{resign[1]}" if resign else "off"
    d = f"{draw[0]}x{draw[1]}f{draw[2]}" if draw else "off"
    return f"--resign {r:9} --draw {d:10}"


def check(games):
    """The default rule against games the engine adjudicated with it."""
    resign, draw = DEFAULT
    fired = bad = 0
    for i, (result, scores) in enumerate(games):
        cut = adjudicate(scores, resign, draw)
        if cut is None:
            continue
        if cut[0] == len(scores) and cut[1] == result:
            fired += 1
        else:
            bad += 1
            if bad <= 5:
                print(f"game {i}: the rule ends it at ply {cut[0]} ({cut[1]}), "
                      f"the engine at {len(scores)} ({result})")
    print(f"{len(games)} games: the default rule ends {fired} where the engine "
          f"adjudicated them, {bad} elsewhere")
    return bad == 0 and fired > 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="game files")
    ap.add_argument("--check", action="store_true",
                    help="check the default rule against games it adjudicated")
    ap.add_argument("--max-wrong", type=float, default=1.0,
                    help="the best rules shown: wrong results at most this %% of games "
                         "(default 1)")
    a = ap.parse_args()
    games = [g for f in a.files for g in read_games(f)]
    if not games:
        sys.exit("no games")
    if a.check:
        sys.exit(0 if check(games) else 1)
    plies = sum(len(s) for _, s in games)
    results = [sum(1 for r, _ in games if r == v) for v in (1.0, 0.5, 0.0)]
    print(f"{len(games)} games, {plies} searched plies ({plies / len(games):.1f} a game); "
          f"White won {results[0]}, drew {results[1]}, lost {results[2]}")
    resigns = [None] + [(r, k) for r in (400, 600, 800, 1000, 1500, 2000, 3000)
                        for k in (2, 4, 6, 8, 12)]
    draws = [None] + [(d, m, f) for d in (0, 5, 10, 20, 40) for m in (8, 12, 20)
                      for f in (40, 60, 80)]
    rows = []
    # The two halves of a rule act almost independently: each half is
    # scanned with the other at its default, then the best pairs together.
    for r in resigns:
        rows.append((r, DEFAULT[1], evaluate(games, r, DEFAULT[1])))
    for d in draws:
        rows.append((DEFAULT[0], d, evaluate(games, DEFAULT[0], d)))
    header = f"{'rule':40} {'wrong%':>7} {'w-wrong%':>8} {'saved%':>7} {'kept%':>6} {'games':>6}"

    def show(title, selected):
        print(f"\n{title}\n{header}")
        for r, d, m in selected:
            print(f"{name(r, d):40} {m['wrong']:7.2f} {m['w_wrong']:8.2f} "
                  f"{m['saved']:7.2f} {m['kept']:6.2f} {m['games']:6.2f}")

    base = [(DEFAULT[0], DEFAULT[1], evaluate(games, *DEFAULT)),
            (None, None, evaluate(games, None, None))]
    show("the default rule, and none", base)
    show("win rules (draw rule at its default)", rows[:len(resigns)])
    show("draw rules (win rule at its default)", rows[len(resigns):])
    good_r = sorted((m["saved"], r) for r, d, m in rows[:len(resigns)]
                    if m["w_wrong"] <= a.max_wrong / 2)[-3:]
    good_d = sorted((m["saved"], d) for r, d, m in rows[len(resigns):]
                    if m["wrong"] - m["w_wrong"] <= a.max_wrong / 2)[-3:]
    pairs = [(r, d, evaluate(games, r, d)) for _, r in good_r for _, d in good_d]
    pairs = [p for p in pairs if p[2]["wrong"] <= a.max_wrong]
    pairs.sort(key=lambda p: -p[2]["saved"])
    show(f"the best pairs: wrong results at most {a.max_wrong}% of games", pairs)


if __name__ == "__main__":
    main()
