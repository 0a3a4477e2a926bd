#!/usr/bin/env python3
"""SPSA over cavalier's search parameters, with games played by fastchess.

    benches/fastchess.sh                       # once: builds the runner
    cargo build --release --features tune --target-dir target/tune
    python3 benches/spsa.py --engine target/tune/release/cavalier \\
        --iterations 200 --pairs 8 --nodes 10000 --state spsa.json

The `tune` build lists every search margin and constant as a UCI spin
option named like its constant (capitals and underscores, e.g.
`RFP_MARGIN`); the default build does not. Each iteration perturbs every
parameter at once by +-c_k (a random sign each), plays `--pairs` game pairs
between the two perturbed engines (same openings both colours, from
`--openings`, at `--nodes` per move or on `--tc`), and moves every
parameter along its sign by r_k * c_k * (wins - losses) of the plus side.
The time manager's weights (`TM_...`) act only on the clock: at fixed
nodes they are left out, and naming them needs `--nodes 0`.
The schedule is the usual one (Spall's alpha 0.602 and gamma 0.101,
stability constant A = 10% of the iterations), sized by its end values:
c_end, the last perturbation, is a fraction (`--c-frac`) of each
parameter's range, and r_end (`--r-end`) the last step per unit of
c_end squared, as fishtest's tuner takes them.

The state (iteration, values, every iteration's result) is written to
`--state` after each iteration; run again with the same file to go on.
At the end the values are printed as `name value` lines and as
`option.NAME=VALUE` runner words, for benches/sprt.py's test of the tuned
values against the defaults (the same tuning build on both sides, the
words on --new). `--apply src/engine/params.rs` writes the state's values,
rounded and within range, as the defaults there (once they have passed
their SPRT) and plays nothing. Each iteration's games go to a PGN beside
the state file (overwritten by the next). --runner cutechess plays them
with cutechess-cli instead. No Python package is needed.
"""

import argparse
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys

import runner

TUNABLE = re.compile(r"^[A-Z][A-Z0-9_]*$")
ALPHA = 0.602
GAMMA = 0.101


def tunables(engine, only):
    """(name, default, min, max) of every tunable spin option the engine lists."""
    out = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True,
                         timeout=30).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)", line)
        if m and TUNABLE.match(m.group(1)) and (not only or m.group(1) in only):
            found.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))))
    return found


def play(args, exe, plus, minus, seed):
    """(wins - losses, W, D, L) of the `plus` engine over `args.pairs` pairs."""
    def engine(name, values):
        opts = " ".join(f"option.{k}={v}" for k, v in values.items())
        return runner.Engine(f"cmd={shlex.quote(os.path.abspath(args.engine))} {opts}", name)
    pgn = args.state + ".pgn"
    if os.path.exists(pgn):
        os.remove(pgn)
    limit = f"nodes={args.nodes}" if args.nodes else f"tc={args.tc}"
    cmd = runner.command(args.runner, exe, [engine("plus", plus), engine("minus", minus)],
                         rounds=args.pairs, pgn=pgn,
                         each=[limit, "option.Hash=16", "option.OwnBook=false"],
                         openings=args.openings, seed=seed, concurrency=args.concurrency,
                         adjudicate=not args.no_adjudication)
    rc = runner.run(cmd, log=args.state + ".log")
    if rc != 0:
        sys.exit(f"the runner stopped with exit code {rc} (see {args.state}.log)")
    if os.path.exists(pgn + ".fastchess.json"):
        os.remove(pgn + ".fastchess.json")     # fastchess's state: not needed once played
    w, d, l = runner.Tally.from_pgn([pgn], "plus").wdl
    return w - l, w, d, l


def sround(rng, x):
    """`x` rounded down or up, up with probability its fraction."""
    low = math.floor(x)
    return low + (rng.random() < x - low)


def schedule(k, n, c_end, r_end):
    """c_k and r_k of iteration k (1-based) of n, for a parameter whose
    last perturbation is c_end."""
    big_a = 0.1 * n
    c_k = c_end * (n / k) ** GAMMA
    a_k = r_end * c_end ** 2 * ((big_a + n) / (big_a + k)) ** ALPHA
    return c_k, a_k / c_k ** 2


def apply(state_path, params_path):
    """Writes the state's values, rounded, as the defaults in params.rs."""
    with open(state_path) as f:
        values = json.load(f)["values"]
    with open(params_path) as f:
        src = f.read()
    changed = []

    def sub(m):
        name, default, lo, hi = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        if name not in values:
            return m.group(0)
        v = min(max(round(values[name]), lo), hi)
        if v != default:
            changed.append(f"{name} {default} -> {v}")
        return f"    {name} = {v}, {lo}..={hi};"
    src = re.sub(r"^    ([A-Z_0-9]+) = (-?\d+), (-?\d+)..=(-?\d+);", sub, src, flags=re.M)
    with open(params_path, "w") as f:
        f.write(src)
    print(", ".join(changed) or "no default changed")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="a build with --features tune")
    ap.add_argument("--params", default="", help="comma-separated names (default: all)")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=8, help="game pairs per iteration")
    ap.add_argument("--nodes", type=int, default=10000, help="nodes per move (0: use --tc)")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--c-frac", type=float, default=0.05, help="c_end as a fraction of the range")
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--state", default="spsa.json",
                    help="the tuner's state (default %(default)s); its games beside it")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--apply", metavar="PARAMS_RS",
                    help="write the state's values as the defaults in this file, then stop")
    runner.add_runner_args(ap)
    args = ap.parse_args()
    if args.apply:
        apply(args.state, args.apply)
        return
    if not args.engine:
        sys.exit("--engine is needed to tune")

    params = tunables(args.engine, set(filter(None, args.params.split(","))))
    if not params:
        sys.exit("no tunable options: build with `cargo build --release --features tune`")
    # The time manager's weights (TM_) do nothing at a fixed node count:
    # tuned there, they would only wander.
    timed = [p[0] for p in params if p[0].startswith("TM_")]
    if args.nodes and timed:
        if args.params:
            sys.exit(f"{', '.join(timed)}: time parameters are tuned on the clock (--nodes 0)")
        params = [p for p in params if p[0] not in timed]
        print(f"left out {len(timed)} time parameters (TM_): they need --nodes 0",
              file=sys.stderr)
    exe = runner.find_runner(args.runner, args.runner_path)
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
    else:
        state = {"k": 0, "values": {p[0]: float(p[1]) for p in params}, "log": []}
    # A parameter the state has not seen (added to the engine since) starts
    # from its default; one the engine no longer has is dropped.
    for name, default, _, _ in params:
        state["values"].setdefault(name, float(default))
    state["values"] = {p[0]: state["values"][p[0]] for p in params}
    rng = random.Random(args.seed * 1_000_003 + state["k"])
    bounds = {p[0]: (p[2], p[3]) for p in params}
    while state["k"] < args.iterations:
        k = state["k"] + 1
        plus, minus, steps = {}, {}, {}
        for name, (lo, hi) in bounds.items():
            c_k, r_k = schedule(k, args.iterations, args.c_frac * (hi - lo), args.r_end)
            sign = rng.choice((-1, 1))
            theta = state["values"][name]
            # Stochastic rounding: a perturbation smaller than one step still
            # moves a parameter of a small range on average.
            plus[name] = sround(rng, min(hi, max(lo, theta + c_k * sign)))
            minus[name] = sround(rng, min(hi, max(lo, theta - c_k * sign)))
            steps[name] = r_k * c_k * sign
        try:
            result, w, d, l = play(args, exe, plus, minus, args.seed * 100_000 + k)
        except KeyboardInterrupt:
            sys.exit(f"\ninterrupted in iteration {k}; the same command goes on from it")
        for name, (lo, hi) in bounds.items():
            state["values"][name] = min(hi, max(lo, state["values"][name] + steps[name] * result))
        state["k"] = k
        state["log"].append({"k": k, "W": w, "D": d, "L": l})
        with open(args.state + ".tmp", "w") as f:
            json.dump(state, f, indent=1)
        os.replace(args.state + ".tmp", args.state)
        print(f"iteration {k}/{args.iterations}: +{w} ={d} -{l}", flush=True)
    for name, _, _, _ in params:
        print(f"{name} {round(state['values'][name])}")
    print(" ".join(f"option.{n}={round(state['values'][n])}" for n, _, _, _ in params))


if __name__ == "__main__":
    main()
