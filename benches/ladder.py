#!/usr/bin/env python3
"""The ladder: one build against the Debian engines in /usr/games, leg by
leg, played by fastchess in chunks that survive interruptions.

    benches/fastchess.sh                                # once: builds the runner
    sudo apt-get install stockfish fairy-stockfish toga2 ethereal-chess glaurung gnuchess
    python3 benches/ladder.py --dir runs/ladder --engine target/release/cavalier
    python3 benches/ladder.py --dir runs/ladder --sum     # the table so far
    python3 benches/ladder.py --dir runs/levels --engine ./cavalier --preset levels \\
        --runner cutechess                              # the xboard anchors too

A preset is a list of legs: an opponent, the games, the time control,
Chess960 or not, and (for `levels`) cavalier's own options. `ladder` is
STRENGTH.md's: 10+0.1, Hash 64 for both sides, one thread, books and
pondering off, 200 games each against GNU Chess 6.2.7, Toga II 3.0,
Glaurung 2.2 and Ethereal 12.00 (and Phalanx XXV, an xboard engine), and
200 Chess960 games against Glaurung 2.2; then issue 65's legs: Toga II
3.0 in Chess960, Fairy-Stockfish 11.1, Stockfish 15.1 with `Use NNUE`
false (sf-hce), and Stockfish 15.1 with its network at a tenth of the
time, 1+0.01 against cavalier's 10+0.1 (sf-tenth). `levels` calibrates `Skill
Level` (40 games a level at 5+0.05 against the anchor nearest it:
Stockfish at UCI_Elo 1350, fairymax, phalanx, glaurung). fastchess plays
UCI engines only: the xboard legs (phalanx, fairymax) need --runner
cutechess (cutechess-cli), and without it are skipped with a note. A leg
whose opponent is not installed is skipped too.

Every leg takes the same openings: --openings shuffled once by --seed
into DIR/openings.epd, chunk k playing openings k*chunk/2 onward, each
twice with colours swapped (Chess960 legs take the 960 start positions,
shuffled by the same seed). Each chunk's games go to DIR/LEG-K.pgn once
the chunk is whole; a run skips whole chunks and plays a chunk cut off
midway again. DIR/engine.json records the build's SHA-256 and the
conditions, and a later run with another binary or other conditions is
refused: a ladder is one build's. The table gives, per leg, W/D/L, the
score, Elo +- 95% from the pentanomial counts, and the faults (time
losses, illegal moves, crashes) of each side. No Python package is needed.

Where the opponent has a rating (RATINGS, each with its source), the
table adds cavalier's Elo on that scale, the rating plus the measured
difference, and below it each strength's figure from all its rated legs
together (weighted by inverse variance): full strength for `ladder`, each
Skill Level for `levels`. The ratings come from different lists and time
controls, so read those figures as +- 100 at best. Chess960 legs are not
rated (the ratings are standard chess's), nor is Ethereal (no source).
"""

import argparse
import glob
import json
import math
import os
import shlex
import sys

import runner

OWN = "option.Hash=64 option.Threads=1 option.Ponder=false option.OwnBook=false"
TOGA = ("name=toga2 cmd=/usr/games/toga2 option.Hash=64 'option.Number of Threads=1' "
        "option.OwnBook=false option.Ponder=false")
GLAURUNG = ("name=glaurung cmd=/usr/games/glaurung option.Hash=64 option.Threads=1 "
            "option.OwnBook=false option.Ponder=false")
ETHEREAL = "name=ethereal cmd=/usr/games/ethereal-chess option.Hash=64 option.Threads=1 option.Ponder=false"
# Stockfish 15.1's own defaults but one thread and Hash 64: with its hand-written
# evaluation (`Use NNUE` false) at equal time, and with its network at a tenth of
# the time (the leg's opponent clock).
SF_HCE = ("name=sf-hce cmd=/usr/games/stockfish option.Hash=64 option.Threads=1 "
          "option.Ponder=false 'option.Use NNUE=false'")
SF = "name=sf cmd=/usr/games/stockfish option.Hash=64 option.Threads=1 option.Ponder=false"
FAIRY = ("name=fairy-stockfish cmd=/usr/games/fairy-stockfish option.Hash=64 option.Threads=1 "
         "option.Ponder=false")
GNUCHESS = ("name=gnuchess cmd=/usr/games/gnuchess args=--uci option.Hash=64 option.OwnBook=false "
            "option.Ponder=false")
# Phalanx: -b- no book, -p- no pondering, -l- no learning, -t hash entries.
PHALANX = "name=phalanx cmd=/usr/games/phalanx 'args=-b- -p- -l- -t 65536' proto=xboard"
SF1350 = ("name=sf1350 cmd=/usr/games/stockfish option.Hash=16 option.Threads=1 "
          "option.UCI_LimitStrength=true option.UCI_Elo=1350")
FAIRYMAX = "name=fairymax cmd=/usr/games/fairymax proto=xboard"
# The levels' anchors as STRENGTH.md's calibration ran them (Hash 16).
PHALANX_16 = "name=phalanx cmd=/usr/games/phalanx 'args=-b- -p- -l-' proto=xboard"
GLAURUNG_16 = ("name=glaurung cmd=/usr/games/glaurung option.Hash=16 option.Threads=1 "
               "option.OwnBook=false option.Ponder=false")

# The anchors' ratings, by the opponent's name: Stockfish's UCI_Elo is
# documented as calibrated to CCRL 40/4; Fairy-Max 5.0b plays as micro-Max
# 4.8, CCRL 40/40 1940 by its author's account; Phalanx, GNU Chess,
# Glaurung and Toga II are the CCRL figures of the project's issue 6.
RATINGS = {"sf1350": 1350, "fairymax": 1940, "phalanx": 2610, "gnuchess": 2700,
           "glaurung": 2790, "toga2": 2900}


def leg(name, opponent, games, tc, own=OWN, chess960=False, strength="full strength",
        opponent_tc=None):
    """One leg; `strength` names cavalier's setting, the legs of one
    setting rated together; `opponent_tc` gives the opponent a clock of its
    own (cavalier keeps `tc`), a handicap in time."""
    return {"name": name, "opponent": opponent, "games": games, "tc": tc, "own": own,
            "chess960": chess960, "strength": strength, "opponent_tc": opponent_tc}


def level(n):
    return f"option.Hash=16 option.Threads=1 option.OwnBook=false 'option.Skill Level={n}'"


def level_leg(n, opponent):
    return leg(f"L{n}-{runner.Engine(opponent).name}", opponent, 40, "5+0.05", level(n),
               strength=f"Skill Level {n}")


PRESETS = {
    "ladder": [
        leg("phalanx", PHALANX, 200, "10+0.1"),
        leg("gnuchess", GNUCHESS, 200, "10+0.1"),
        leg("toga2", TOGA, 200, "10+0.1"),
        leg("glaurung", GLAURUNG, 200, "10+0.1"),
        leg("ethereal", ETHEREAL, 200, "10+0.1"),
        leg("glaurung960", GLAURUNG, 200, "10+0.1", chess960=True),
        leg("toga960", TOGA, 200, "10+0.1", chess960=True),
        leg("fairy", FAIRY, 200, "10+0.1"),
        leg("sf-hce", SF_HCE, 200, "10+0.1"),
        leg("sf-tenth", SF, 200, "10+0.1", opponent_tc="1+0.01"),
    ],
    "levels": [level_leg(0, SF1350), level_leg(3, SF1350), level_leg(5, FAIRYMAX),
               level_leg(8, FAIRYMAX), level_leg(8, PHALANX_16), level_leg(11, PHALANX_16),
               level_leg(14, GLAURUNG_16), level_leg(17, GLAURUNG_16)],
}


def check_build(path, engine, args):
    """Records the build's checksum and what decides each chunk's games on
    the first run; refuses a run that differs in any of them."""
    here = {"engine": engine.text, "each": args.each, "sha256": engine.sha256(),
            "preset": args.preset,
            "chunk": args.chunk, "seed": args.seed, "games": args.games, "tc": args.tc,
            "openings": os.path.basename(args.openings),
            "adjudication": not args.no_adjudication}
    if not os.path.exists(path):
        with open(path, "w") as f:
            json.dump(here, f, indent=1)
        return
    with open(path) as f:
        first = json.load(f)
    differ = [k for k in here if first.get(k) != here[k]]
    if differ:
        sys.exit(f"{path}: this run differs in {', '.join(differ)}; a ladder is one build's, "
                 "played one way: use a new --dir")


def chunks(directory, lg):
    """The leg's whole chunks' PGN files."""
    return sorted(glob.glob(os.path.join(directory, f"{glob.escape(lg['name'])}-[0-9]*.pgn")))


def rating(lg):
    """The opponent's rating, or None (unrated, or a Chess960 leg)."""
    return None if lg["chess960"] else RATINGS.get(runner.Engine(lg["opponent"]).name)


def table(directory, legs, notes):
    """The ladder so far as a Markdown table, then each strength's Elo on
    the rated opponents' scale."""
    print("| leg | games | W | D | L | score | Elo | on the scale | pentanomial | faults |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rated = {}
    for lg in legs:
        t = runner.Tally.from_pgn(chunks(directory, lg), "cavalier")
        if not t.games:
            print(f"| {lg['name']} | 0 | | | | | | | | {notes.get(lg['name'], '')} |")
            continue
        w, d, l = t.wdl
        e = t.elo()
        elo = f"{e[0]:+.1f} ± {e[1]:.1f}" if e else ""
        scale, r = "", rating(lg)
        # A score of 0 or 100% (infinite width) or pairs all alike (zero) cannot be weighted.
        if e and r is not None and math.isfinite(e[1]) and e[1] > 0:
            scale = f"{r + e[0]:.0f} ({r} {e[0]:+.0f})"
            rated.setdefault(lg["strength"], []).append((r + e[0], e[1], lg["name"]))
        print(f"| {lg['name']} | {t.games} | {w} | {d} | {l} | {100 * (w + d / 2) / t.games:.1f}% "
              f"| {elo} | {scale} | {t.penta} | {t.faults_text()} |", flush=True)
    for strength, found in rated.items():
        elo, half = combined(found)
        print(f"{strength}: {elo:.0f} ± {half:.0f} on the rated opponents' scale, "
              f"from {', '.join(n for _, _, n in found)}")


def combined(found):
    """The inverse-variance mean of (Elo, 95% half-width, _) figures and
    its 95% half-width."""
    weights = [1 / h ** 2 for _, h, _ in found]
    mean = sum(w * e for w, (e, _, _) in zip(weights, found)) / sum(weights)
    return mean, 1 / math.sqrt(sum(weights))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="where the games go")
    ap.add_argument("--engine", help="cavalier: a path or runner words")
    ap.add_argument("--each", default="", help="more runner words for cavalier (after the leg's)")
    ap.add_argument("--preset", default="ladder", choices=sorted(PRESETS))
    ap.add_argument("--only", default="", help="comma-separated leg names")
    ap.add_argument("--chunk", type=int, default=20, help="games per chunk (even, default 20)")
    ap.add_argument("--games", type=int, help="games per leg instead of the preset's")
    ap.add_argument("--tc", help="time control instead of the preset's (a quick gauge, "
                    "not the ladder)")
    ap.add_argument("--seed", type=int, default=171, help="shuffles the openings (default 171)")
    ap.add_argument("--sum", action="store_true", help="only print the table")
    runner.add_runner_args(ap)
    args = ap.parse_args()
    if args.chunk < 2 or args.chunk % 2:
        sys.exit("--chunk must be even and at least 2")
    legs = [dict(lg, games=args.games or lg["games"], tc=args.tc or lg["tc"])
            for lg in PRESETS[args.preset]]
    if args.only:
        names = args.only.split(",")
        unknown = [n for n in names if n not in {lg["name"] for lg in legs}]
        if unknown:
            sys.exit(f"no leg named {', '.join(unknown)} in preset {args.preset}")
        legs = [lg for lg in legs if lg["name"] in names]
    os.makedirs(args.dir, exist_ok=True)
    if args.sum:
        table(args.dir, legs, {})
        return
    if not args.engine:
        sys.exit("--engine is needed to play")
    engine = runner.Engine(args.engine)
    why = runner.usable(engine, args.runner)
    if why:
        sys.exit(why)
    check_build(os.path.join(args.dir, "engine.json"), engine, args)
    exe = runner.find_runner(args.runner, args.runner_path)
    books = {False: os.path.join(args.dir, "openings.epd"),
             True: os.path.join(args.dir, "openings960.epd")}
    if not os.path.exists(books[False]):
        runner.shuffled_openings(args.openings, args.seed, books[False])
    if not os.path.exists(books[True]):
        runner.chess960_openings(args.seed, books[True])
    sizes = {}
    for k, path in books.items():
        with open(path) as f:
            sizes[k] = sum(1 for _ in f)
    notes = {}
    try:
        for lg in legs:
            opponent = runner.Engine(lg["opponent"])
            why = runner.usable(opponent, args.runner)
            if why:
                notes[lg["name"]] = f"skipped: {why}"
                print(f"{lg['name']}: skipped: {why}", flush=True)
                continue
            play_leg(args, exe, engine, opponent, lg, books, sizes)
    except KeyboardInterrupt:
        print("\ninterrupted; the same command goes on from the last whole chunk")
        table(args.dir, legs, notes)
        sys.exit(130)
    table(args.dir, legs, notes)


def play_leg(args, exe, engine, opponent, lg, books, sizes):
    """Plays the leg's missing chunks."""
    pairs = args.chunk // 2
    cavalier = engine.renamed("cavalier", f"{lg['own']} {args.each}")
    each = [f"tc={lg['tc']}"]
    if lg.get("opponent_tc"):
        # Each side its own clock: fastchess and cutechess-cli take tc= per engine.
        cavalier = cavalier.renamed("cavalier", f"tc={lg['tc']}")
        opponent = opponent.renamed(opponent.name, f"tc={lg['opponent_tc']}")
        each = []
    for k in range((lg["games"] + args.chunk - 1) // args.chunk):
        out = os.path.join(args.dir, f"{lg['name']}-{k}.pgn")
        if os.path.exists(out):
            continue
        part = out + ".part"
        if os.path.exists(part):
            os.remove(part)
        games = min(args.chunk, lg["games"] - k * args.chunk)
        book = books[lg["chess960"]]
        cmd = runner.command(
            args.runner, exe, [cavalier, opponent], rounds=(games + 1) // 2, pgn=part,
            each=each, openings=book, order="sequential",
            start=(k * pairs) % sizes[lg["chess960"]] + 1, concurrency=args.concurrency,
            chess960=lg["chess960"], adjudicate=not args.no_adjudication)
        log = os.path.join(args.dir, f"{lg['name']}.log")
        with open(log, "a") as f:
            f.write("$ " + shlex.join(cmd) + "\n")
        rc = runner.run(cmd, log=log)
        if rc != 0:
            sys.exit(f"{lg['name']} chunk {k}: the runner stopped with exit code {rc} (see {log})")
        os.replace(part, out)
        if os.path.exists(part + ".fastchess.json"):
            os.remove(part + ".fastchess.json")   # fastchess's state: a whole chunk needs none
        t = runner.Tally.from_pgn(chunks(args.dir, lg), "cavalier")
        e = t.elo()
        elo = f", Elo {e[0]:+.1f} +- {e[1]:.1f}" if e else ""
        print(f"{lg['name']}: chunk {k} done, {t.games} games +{t.wdl[0]} ={t.wdl[1]} "
              f"-{t.wdl[2]}{elo}, faults: {t.faults_text()}", flush=True)


if __name__ == "__main__":
    main()
