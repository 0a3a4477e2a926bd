#!/usr/bin/env python3
"""Issue 17's ladder and the strength levels, played in chunks that survive
interruptions, by one build.

    python3 benches/ladder.py --dir runs/ladder --engine ./cavalier [--only toga2,glaurung]
    python3 benches/ladder.py --dir runs/levels --engine ./cavalier --preset levels
    python3 benches/ladder.py --dir runs/ladder --sum        # the table so far

A preset is a list of legs: an opponent (a match.py engine spec), the
games, the time control, Chess960 or not, and for the levels the UCI
options that set cavalier's level. `ladder` is issue 17's: 10+0.1, Hash
64 for both sides, Threads 1, books and pondering off, 200 games each
against Phalanx XXV, GNU Chess 6.2.7, Toga II 3.0, Glaurung 2.2 and
Ethereal 12.00, and 100 Chess960 games against Glaurung 2.2. `levels` is
STRENGTH.md's calibration of `Skill Level` (40 games a level at 5+0.05
against the anchor nearest it). Debian's packages provide the opponents.

Each leg is played in chunks of --chunk games. The openings are shuffled
once by --seed and every leg takes them in the same order, chunk k
playing openings k*chunk/2 onwards (each twice, colours swapped), so no
opening repeats within a leg and every opponent meets the same ones
(Chess960 legs take the 960 start positions, shuffled by the same seed).
Each chunk's summary goes to DIR/LEG-K.json as soon as it ends; a run
skips finished chunks and plays a chunk cut off midway again. DIR/engine
records the spec and the SHA-256 of the binary, and a later run with
another binary is refused: the whole ladder is one build's. Needs
python-chess (match.py does).
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spsa import MATCH, OPENINGS  # noqa: E402
from sprt import checksum, load_match  # noqa: E402

TOGA = "name=toga2 cmd=/usr/games/toga2 option.Hash=64 'option.Number of Threads=1' option.OwnBook=false"
GLAURUNG = "name=glaurung cmd=/usr/games/glaurung option.Hash=64 option.Threads=1 option.OwnBook=false"
ETHEREAL = "name=ethereal cmd=/usr/games/ethereal-chess option.Hash=64 option.Threads=1"
PHALANX = "name=phalanx cmd='/usr/games/phalanx -b- -p- -l- -t 65536' proto=xboard"
GNUCHESS = "name=gnuchess cmd='/usr/games/gnuchess --uci' option.OwnBook=false option.Hash=64"
SF1350 = ("name=sf1350 cmd=/usr/games/stockfish option.Hash=16 option.Threads=1 "
          "option.UCI_LimitStrength=true option.UCI_Elo=1350")
FAIRYMAX = "name=fairymax cmd=/usr/games/fairymax proto=xboard"
# The levels' anchors as STRENGTH.md's calibration ran them (Hash 16).
PHALANX_16 = "name=phalanx cmd='/usr/games/phalanx -b- -p- -l-' proto=xboard"
GLAURUNG_16 = "name=glaurung cmd=/usr/games/glaurung option.Hash=16 option.Threads=1 option.OwnBook=false"
HASH64 = "option.Hash=64"


def leg(name, opponent, games, tc, own="", chess960=False):
    return {"name": name, "opponent": opponent, "games": games, "tc": tc, "own": own,
            "chess960": chess960}


def level(n):
    return f"option.Hash=16 'option.Skill Level={n}'"


PRESETS = {
    "ladder": [
        leg("phalanx", PHALANX, 200, "10+0.1", HASH64),
        leg("gnuchess", GNUCHESS, 200, "10+0.1", HASH64),
        leg("toga2", TOGA, 200, "10+0.1", HASH64),
        leg("glaurung", GLAURUNG, 200, "10+0.1", HASH64),
        leg("ethereal", ETHEREAL, 200, "10+0.1", HASH64),
        leg("glaurung960", GLAURUNG, 100, "10+0.1", HASH64, chess960=True),
    ],
    "levels": [
        leg("L0-sf1350", SF1350, 40, "5+0.05", level(0)),
        leg("L3-sf1350", SF1350, 40, "5+0.05", level(3)),
        leg("L5-fairymax", FAIRYMAX, 40, "5+0.05", level(5)),
        leg("L8-fairymax", FAIRYMAX, 40, "5+0.05", level(8)),
        leg("L8-phalanx", PHALANX_16, 40, "5+0.05", level(8)),
        leg("L11-phalanx", PHALANX_16, 40, "5+0.05", level(11)),
        leg("L14-glaurung", GLAURUNG_16, 40, "5+0.05", level(14)),
        leg("L17-glaurung", GLAURUNG_16, 40, "5+0.05", level(17)),
    ],
}


def check_build(directory, spec, args):
    """Records the engine's spec and checksum, and what decides each chunk's
    games, on the first run; refuses a run that differs in any of them."""
    record = os.path.join(directory, "engine")
    here = {"engine": spec, "sha256": checksum(spec), "each": args.each,
            "preset": args.preset, "chunk": args.chunk, "seed": args.seed,
            "games": args.games, "tc": args.tc}
    if not os.path.exists(record):
        with open(record, "w") as f:
            json.dump(here, f, indent=1)
        return
    with open(record) as f:
        first = json.load(f)
    if first != here:
        diff = ", ".join(k for k in here if first.get(k) != here[k])
        sys.exit(f"{record}: this run differs in {diff}; a ladder is one build's, "
                 "played one way: use a new --dir")


def chunk_openings(match, args, lg, k, path):
    """Writes chunk k's openings (one FEN a line) to path."""
    if lg["chess960"]:
        boards = match.load_openings(None, args.seed, chess960=True)
    else:
        boards = match.load_openings(args.openings, args.seed)
    pairs = args.chunk // 2
    part = [boards[(k * pairs + i) % len(boards)] for i in range(pairs)]
    with open(path, "w") as f:
        f.writelines(b.fen() + "\n" for b in part)


def leg_sum(match, directory, lg):
    """The leg's finished chunks summed: a match.py Score and the chunk count."""
    score, chunks = match.Score(), 0
    prefix = lg["name"] + "-"
    for name in sorted(os.listdir(directory)):
        rest = name[len(prefix):-5] if name.startswith(prefix) and name.endswith(".json") else ""
        if not rest.isdigit():
            continue
        with open(os.path.join(directory, name)) as f:
            s = json.load(f)["opponents"][0]
        part = match.Score(wdl=[s["L"], s["D"], s["W"]], penta=s["penta"])
        part.faults = {k: list(v) for k, v in s["faults"].items()}
        score.merge(part)
        chunks += 1
    return score, chunks


def table(match, directory, legs):
    """The ladder so far as a Markdown table."""
    print("| leg | games | W | D | L | score | Elo | pentanomial | faults (cavalier / opponent) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for lg in legs:
        score, _ = leg_sum(match, directory, lg)
        st = score.stats()
        if not st["games"]:
            print(f"| {lg['name']} | 0 | | | | | | | |")
            continue
        faults = ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in score.faults.items() if any(v)) or "0 / 0"
        print(f"| {lg['name']} | {st['games']} | {st['W']} | {st['D']} | {st['L']} | "
              f"{100 * st['score']:.1f}% | {st['elo']:+.1f} ± {st['err']:.1f} | {st['penta']} | "
              f"{faults} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, help="where the chunks' summaries go")
    ap.add_argument("--engine", help="cavalier: a path or a match.py spec")
    ap.add_argument("--each", default="option.Threads=1 option.OwnBook=false",
                    help="keys for cavalier (the opponents' are in the presets)")
    ap.add_argument("--preset", default="ladder", choices=sorted(PRESETS))
    ap.add_argument("--only", default="", help="comma-separated leg names")
    ap.add_argument("--chunk", type=int, default=20, help="games per chunk (even)")
    ap.add_argument("--games", type=int, help="games per leg instead of the preset's")
    ap.add_argument("--tc", help="time control instead of the preset's (a quick gauge, not the ladder)")
    ap.add_argument("--seed", type=int, default=171, help="shuffles the openings")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--match", default=MATCH)
    ap.add_argument("--sum", action="store_true", help="only print the table")
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
    match = load_match(args.match)
    os.makedirs(args.dir, exist_ok=True)
    if args.sum:
        table(match, args.dir, legs)
        return
    if not args.engine:
        sys.exit("--engine is needed to play")
    spec = args.engine if "=" in args.engine else f"cmd={shlex.quote(os.path.abspath(args.engine))}"
    check_build(args.dir, spec, args)
    for lg in legs:
        for k in range((lg["games"] + args.chunk - 1) // args.chunk):
            out = os.path.join(args.dir, f"{lg['name']}-{k}.json")
            if os.path.exists(out):
                continue
            openings = os.path.join(args.dir, f"{lg['name']}-{k}.epd")
            chunk_openings(match, args, lg, k, openings)
            games = min(args.chunk, lg["games"] - k * args.chunk)
            cmd = [sys.executable, args.match,
                   "--engine", f"name=cavalier {spec} {args.each} {lg['own']}",
                   "--engine", lg["opponent"], "--games", str(games), "--tc", lg["tc"],
                   "--concurrency", str(args.concurrency), "--openings", openings,
                   "--pgn", os.path.join(args.dir, f"{lg['name']}-{k}.pgn"),
                   "--json", out + ".part"]
            if lg["chess960"]:
                cmd.append("--chess960")
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            os.replace(out + ".part", out)
            score, chunks = leg_sum(match, args.dir, lg)
            st = score.stats()
            print(f"{lg['name']}: {chunks} chunks, {st['games']} games +{st['W']} ={st['D']} "
                  f"-{st['L']}, {100 * st['score']:.1f}%, Elo {st['elo']:+.1f} +- {st['err']:.1f}",
                  flush=True)
    table(match, args.dir, legs)


if __name__ == "__main__":
    main()
