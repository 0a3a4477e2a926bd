#!/usr/bin/env python3
"""Checks cavalier against OpenBench's own opening generation for DATAGEN.

OpenBench's client makes the openings of a data-generation workload by
starting the engine as `./ENGINE "genfens N seed S book <None|FILE> EXTRA"
quit` once per thread and reading the `info string genfens FEN` lines it
prints (Client/genfens.py, `create_genfens_opening_book`). This script
calls that very function, from an OpenBench checkout you give it, on a
cavalier binary, then checks the book it wrote: the number of lines, that
every position is one cavalier accepts, that they are mostly distinct, and
that a second run with the same seeds writes the same positions.

This script fetches nothing. Get OpenBench first:

    git clone https://github.com/AndyGrant/OpenBench
    pip install requests          # Client/utils.py imports it

then, from cavalier's repository root after `cargo build --release`:

    python3 benches/openbench_genfens.py --openbench path/to/OpenBench
    python3 benches/openbench_genfens.py --openbench path/to/OpenBench \\
        --threads 4 --count-per 64 --book benches/openings/noob_2moves.epd
"""

import argparse
import io
import os
import random
import subprocess
import sys


def fen_of_epd(line):
    """The FEN of a line as OpenBench writes it: 4 fields, hmvc N; fmvn M;"""
    words = line.replace(";", " ").split()
    fields = words[:4]
    ops = dict(zip(words[4::2], words[5::2]))
    return " ".join(fields + [ops.get("hmvc", "0"), ops.get("fmvn", "1")])


def rejected_by_engine(binary, fens):
    """The FENs the engine refuses as positions (or has no move in)."""
    script = []
    for fen in fens:
        script += [f"position fen {fen}", "go perft 1", "isready"]
    script.append("quit")
    out = subprocess.run([binary], input="\n".join(script) + "\n", text=True,
                         capture_output=True, timeout=600).stdout
    answers = out.split("readyok")[: len(fens)]
    bad = []
    for fen, answer in zip(fens, answers):
        if "info string error" in answer or "Nodes searched: 0" in answer:
            bad.append((fen, answer.strip().splitlines()[-1:]))
    return bad


def generate(openbench, binary, threads, count_per, book, seeds, extra):
    """Runs OpenBench's create_genfens_opening_book; returns its lines."""
    sys.path.insert(0, os.path.join(openbench, "Client"))
    import genfens  # OpenBench's module

    # OpenBench runs './ENGINE' from its client folder: run from the
    # binary's folder with its bare name.
    here = os.getcwd()
    os.chdir(os.path.dirname(binary))
    try:
        output = io.StringIO()
        genfens.create_genfens_opening_book({
            "N": count_per,
            "book": book,
            "seeds": seeds,
            "extra": extra,
            "engine": os.path.basename(binary),
            "threads": threads,
            "output": output,
        })
    finally:
        os.chdir(here)
    print()
    return output.getvalue().splitlines()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--openbench", required=True, help="an OpenBench checkout")
    p.add_argument("--engine", default="target/release/cavalier")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--count-per", type=int, default=32, help="openings per thread")
    p.add_argument("--book", default="None", help="an EPD/FEN book, or None")
    p.add_argument("--extra", default="", help="OpenBench's custom genfens arguments")
    p.add_argument("--seed", type=int, default=1, help="draws the threads' seeds")
    args = p.parse_args()

    if not os.path.isfile(os.path.join(args.openbench, "Client", "genfens.py")):
        sys.exit(f"error: no Client/genfens.py under {args.openbench}")
    binary = os.path.abspath(args.engine)
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: no engine at {binary} (cargo build --release)")
    book = args.book if args.book.upper() == "NONE" else os.path.abspath(args.book)
    # As OpenBench's server draws them: one seed in [0, 2^31) per thread.
    rng = random.Random(args.seed)
    seeds = [rng.randint(0, 2**31 - 1) for _ in range(args.threads)]
    print(f"engine {binary}, book {book}, seeds {seeds}")

    first = generate(args.openbench, binary, args.threads, args.count_per, book, seeds, args.extra)
    again = generate(args.openbench, binary, args.threads, args.count_per, book, seeds, args.extra)

    failures = []
    expected = args.threads * args.count_per
    if len(first) != expected:
        failures.append(f"{len(first)} lines, {expected} expected")
    fens = [fen_of_epd(line) for line in first]
    bad = rejected_by_engine(binary, fens)
    for fen, why in bad[:5]:
        failures.append(f"engine refuses {fen}: {why}")
    if bad:
        failures.append(f"{len(bad)} positions refused")
    distinct = len(set(first))
    if distinct < 0.95 * len(first):
        failures.append(f"only {distinct} distinct positions of {len(first)}")
    # The threads' lines interleave as they come: compare as sets.
    if sorted(first) != sorted(again):
        failures.append("a second run with the same seeds wrote other positions")

    print(f"{len(first)} openings, {distinct} distinct, {len(bad)} refused by the engine")
    for line in first[:3]:
        print("  " + line)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("ok: OpenBench's genfens client reads cavalier's openings")


if __name__ == "__main__":
    main()
