"""What the game scripts (sprt.py, spsa.py, ladder.py) share: finding the
match runner, writing its command line, running it, and reading the games
it wrote back from the PGN.

The runner is fastchess (https://github.com/Disservin/fastchess, built by
benches/fastchess.sh into target/fastchess/) or, with `--runner cutechess`,
cutechess-cli. fastchess speaks UCI only; an xboard opponent (fairymax,
phalanx, sjeng, hoichess) needs cutechess-cli. Both take the same engine
words (`cmd=PATH name=NAME option.Hash=16 ...`), so an engine is given to
the scripts as those words, or as a bare path.

Results are read from the PGN, not from the runner's console, so both
runners are summed alike: the two games of an opening (colours swapped)
make a pair, and W/D/L, the pentanomial counts, Elo, normalized Elo and
the SPRT's log-likelihood ratio are computed over the finished pairs, as
fastchess and fishtest count them. Faults (time losses, illegal moves,
crashes or stalls) come from each game's Termination tag.

This file is a module, not a script: the scripts beside it import it.
Plain Python 3.11; no package needed.
"""

import hashlib
import math
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OPENINGS = os.path.join(HERE, "openings", "noob_2moves.epd")
FASTCHESS_BUILT = os.path.join(ROOT, "target", "fastchess", "fastchess")
RUNNERS = ("fastchess", "cutechess")
# fishtest's adjudication: resign when both engines agree for 3 moves at
# 600 cp or more, draw from move 34 after 8 moves within 20 cp.
ADJUDICATION = ["-resign", "movecount=3", "score=600",
                "-draw", "movenumber=34", "movecount=8", "score=20"]
# Milliseconds a move may overrun the clock before it loses on time (as
# cutechess-cli and fishtest allow; fastchess's own default is none).
TIME_MARGIN = 100
FAULTS = {"time forfeit": "time", "illegal move": "illegal", "rules infraction": "illegal",
          "abandoned": "crash", "stalled connection": "crash"}


# ---------------------------------------------------------------- the runner

def add_runner_args(ap):
    """The options every game script takes for its runner and openings."""
    g = ap.add_argument_group("runner")
    g.add_argument("--runner", choices=RUNNERS, default="fastchess",
                   help="the match runner (default fastchess; cutechess-cli for xboard engines)")
    g.add_argument("--runner-path", metavar="PATH",
                   help="the runner's binary (default: target/fastchess/fastchess, "
                        "$FASTCHESS or $CUTECHESS, then PATH)")
    g.add_argument("--openings", default=OPENINGS, metavar="EPD",
                   help="EPD file of start positions (default benches/openings/noob_2moves.epd)")
    g.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    g.add_argument("--no-adjudication", action="store_true",
                   help="only the rules end games (default: fishtest's resign and draw rules)")


def find_runner(kind, path=None):
    """The runner's binary, or exit with how to get one."""
    if path:
        found = shutil.which(path) or (path if os.access(path, os.X_OK) else None)
        if not found:
            sys.exit(f"{path}: not an executable")
        return os.path.abspath(found)
    if kind == "fastchess":
        for candidate in (os.environ.get("FASTCHESS"), FASTCHESS_BUILT, shutil.which("fastchess")):
            if candidate and os.access(candidate, os.X_OK):
                return os.path.abspath(candidate)
        sys.exit("no fastchess: build it with `benches/fastchess.sh` "
                 "(or name one with --runner-path or $FASTCHESS)")
    for candidate in (os.environ.get("CUTECHESS"), shutil.which("cutechess-cli")):
        if candidate and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    sys.exit("no cutechess-cli on PATH (name one with --runner-path or $CUTECHESS)")


class Engine:
    """An engine as the runners' `-engine` words: cmd=, name=, args=,
    proto=, option.NAME=VALUE and limits such as tc= or nodes=."""

    def __init__(self, text, name=None):
        words = shlex.split(text)
        if len(words) == 1 and "=" not in words[0]:
            words = [f"cmd={words[0]}"]
        self.words = []
        self.keys = {}
        for w in words:
            key, eq, value = w.partition("=")
            if not eq:
                sys.exit(f"engine word {w!r} is not KEY=VALUE (in {text!r})")
            if key == "cmd":
                exe = shutil.which(value) or value
                value = os.path.abspath(exe) if os.path.exists(exe) else value
            self.keys[key] = value
            self.words.append(f"{key}={value}")
        if "cmd" not in self.keys:
            sys.exit(f"engine {text!r} has no cmd=")
        if name and "name" not in self.keys:
            self.keys["name"] = name
            self.words.append(f"name={name}")
        self.keys.setdefault("name", os.path.basename(self.keys["cmd"]))
        self.text = text

    def renamed(self, name, more=""):
        """The same engine named `name`, with the words of `more` added."""
        words = [w for w in self.words if not w.startswith("name=")]
        return Engine(shlex.join(words) + " " + more, name)

    @property
    def name(self):
        return self.keys["name"]

    @property
    def cmd(self):
        return self.keys["cmd"]

    @property
    def proto(self):
        return self.keys.get("proto", "uci")

    def exists(self):
        return os.access(self.cmd, os.X_OK)

    def sha256(self):
        """SHA-256 of the engine's binary."""
        with open(self.cmd, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    def argv(self, kind):
        """The words after `-engine` for this runner. fastchess takes the
        arguments as one args="A B" word, cutechess-cli as one arg= each."""
        out = []
        for w in self.words:
            key, _, value = w.partition("=")
            if key == "args" and kind == "cutechess":
                out += [f"arg={a}" for a in shlex.split(value)]
            elif key == "proto" and kind == "fastchess":
                continue
            else:
                out.append(w)
        if kind == "cutechess" and "proto" not in self.keys:
            out.append("proto=uci")
        return out


def usable(engine, kind):
    """None if the runner can play the engine, else why not."""
    if not engine.exists():
        return f"{engine.cmd} not found"
    if engine.proto != "uci" and kind == "fastchess":
        return f"{engine.name} speaks {engine.proto}; fastchess plays UCI engines only (--runner cutechess)"
    return None


def command(kind, exe, engines, *, rounds, pgn, each=(), openings=None, order="random",
            start=1, seed=None, concurrency=1, chess960=False, adjudicate=True, sprt=None,
            state=None):
    """The runner's command line: `rounds` openings, each played twice with
    colours swapped, between the first engine and each other one (a
    gauntlet). `each` are engine words for all (tc=, nodes=, options);
    `sprt` is (elo0, elo1, alpha, beta) in normalized Elo, for fastchess
    only; `state` is where fastchess saves what it needs to resume (it
    always saves it: by default beside the PGN, as PGN.fastchess.json)."""
    cmd = [exe]
    for e in engines:
        cmd += ["-engine", *e.argv(kind)]
    each = list(each)
    if not any(w.startswith("timemargin=") for w in each):
        each.append(f"timemargin={TIME_MARGIN}")
    if kind == "cutechess":
        # cutechess-cli needs a clock even for fixed nodes.
        words = each + [w for e in engines for w in e.words]
        if not any(w.startswith(("tc=", "st=")) for w in words):
            each.append("tc=inf")
    cmd += ["-each", *each]
    if len(engines) > 2:
        cmd += ["-tournament", "gauntlet"]
    cmd += ["-rounds", str(rounds), "-games", "2", "-repeat", "-concurrency", str(concurrency)]
    if openings:
        cmd += ["-openings", f"file={os.path.abspath(openings)}", "format=epd",
                f"order={order}", f"start={start}"]
    if seed is not None:
        cmd += ["-srand", str(seed)]
    if chess960:
        cmd += ["-variant", "fischerandom"]
    if adjudicate:
        cmd += ADJUDICATION
    cmd += ["-recover"]
    if kind == "fastchess":
        cmd += ["-pgnout", f"file={os.path.abspath(pgn)}", "-ratinginterval", "10"]
        if sprt:
            elo0, elo1, alpha, beta = sprt
            cmd += ["-sprt", f"elo0={elo0}", f"elo1={elo1}", f"alpha={alpha}", f"beta={beta}",
                    "model=normalized"]
        cmd += ["-config", f"outname={os.path.abspath(state or pgn + '.fastchess.json')}"]
    else:
        cmd += ["-pgnout", os.path.abspath(pgn)]
    return cmd


def run(cmd, log=None, on_line=None, stop=None):
    """Runs a runner command, its output appended to `log` (a path) line by
    line and each line handed to `on_line`. `stop()` is asked after each
    line; once it says so the runner is interrupted (it saves its state and
    ends its games). On Ctrl-C or SIGTERM the runner is interrupted and
    waited for, and KeyboardInterrupt raised again. Returns the runner's
    exit code."""
    signal.signal(signal.SIGTERM, _interrupt)
    out = open(log, "a") if log else None
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            bufsize=1)
    stopping = False
    try:
        for line in proc.stdout:
            if out:
                out.write(line)
                out.flush()
            if on_line:
                on_line(line.rstrip("\n"))
            if stop and not stopping and stop():
                stopping = True
                proc.send_signal(signal.SIGINT)
        return proc.wait()
    except KeyboardInterrupt:
        _end(proc)
        raise
    finally:
        _end(proc)
        if out:
            out.close()


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _end(proc):
    """Interrupts the runner if it still runs, and waits for it (killed
    after 30 s)."""
    if proc.poll() is not None:
        return
    try:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# ---------------------------------------------------------------- openings

def shuffled_openings(path, seed, out):
    """Writes the EPD file's positions to `out` in an order shuffled by
    `seed` (one position a line), for runs that take the openings in turn."""
    with open(path) as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    random.Random(seed).shuffle(lines)
    with open(out, "w") as f:
        f.writelines(ln + "\n" for ln in lines)
    return len(lines)


def chess960_openings(seed, out):
    """Writes the 960 Chess960 start positions, shuffled by `seed`, to `out`
    (FEN with Shredder castling letters, which both runners read)."""
    order = list(range(960))
    random.Random(seed).shuffle(order)
    with open(out, "w") as f:
        for n in order:
            f.write(chess960_fen(n) + " w " + "".join(chess960_castling(n)) + " - 0 1\n")
    return 960


def chess960_back_rank(n):
    """The back rank of Chess960 position n (Scharnagl numbering), as letters."""
    rank = [None] * 8
    n, b1 = divmod(n, 4)
    rank[2 * b1 + 1] = "B"
    n, b2 = divmod(n, 4)
    rank[2 * b2] = "B"
    n, q = divmod(n, 6)
    free = [i for i in range(8) if rank[i] is None]
    rank[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, piece in zip(free, "RKR"):
        rank[i] = piece
    return "".join(rank)


def chess960_fen(n):
    back = chess960_back_rank(n)
    return f"{back.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{back}"


def chess960_castling(n):
    files = [i for i, p in enumerate(chess960_back_rank(n)) if p == "R"]
    letters = "ABCDEFGH"
    return [letters[files[1]], letters[files[0]], letters[files[1]].lower(),
            letters[files[0]].lower()]


# ---------------------------------------------------------------- results

HEADER = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


class Tally:
    """The games of `first` against the others, summed over finished pairs.
    A pair is two games from one start position with the colours swapped;
    a game whose pair has not finished (yet) waits in `unpaired`. `read`
    takes what was added to a PGN file since the last call, so a tally can
    follow a file that a runner writes."""

    def __init__(self, first):
        self.first = first
        self.wdl = [0, 0, 0]            # first's wins, draws, losses
        self.penta = [0] * 5            # pairs scoring 0, 1/2, 1, 3/2, 2 for first
        self.faults = {}                # engine name -> {"time": n, "illegal": n, "crash": n}
        self.opponents = set()
        self._waiting = {}              # (opening, opponent) -> [(first is white, points)]
        self._files = {}                # path -> [offset, unfinished line, tags]

    @classmethod
    def from_pgn(cls, paths, first):
        t = cls(first)
        for path in paths:
            t.read(path)
        return t

    @property
    def unpaired(self):
        return sum(len(q) for q in self._waiting.values())

    def read(self, path):
        """Adds the games written to `path` since the last call. A game
        counts once its movetext begins, its header tags all read."""
        if not os.path.exists(path):
            return self
        offset, rest, tags = self._files.get(path, (0, "", None))
        with open(path, errors="replace") as f:
            f.seek(offset)
            text = rest + f.read()
            offset = f.tell()
        *lines, rest = text.split("\n")
        for line in lines:
            m = HEADER.match(line)
            if m:
                tags = {} if tags is None or m.group(1) == "Event" else tags
                tags[m.group(1)] = m.group(2)
            elif line.strip() and tags is not None:
                self.add(tags)
                tags = None
        self._files[path] = (offset, rest, tags)
        return self

    def add(self, g):
        """Adds one game, given its header tags."""
        white, black, result = g.get("White"), g.get("Black"), g.get("Result")
        first = self.first
        if result not in POINTS or first not in (white, black):
            return
        self.fault(g, white, black, result)
        other = black if white == first else white
        self.opponents.add(other)
        mine = POINTS[result][0 if white == first else 1]
        queue = self._waiting.setdefault((g.get("FEN", "startpos"), other), [])
        # The latest unmatched game of this opening with the other colours
        # is its partner (a resumed run replays an unfinished pair, so an
        # older lone game stays alone).
        partner = next((i for i in range(len(queue) - 1, -1, -1)
                        if queue[i][0] != (white == first)), None)
        if partner is None:
            queue.append((white == first, mine))
            return
        _, theirs = queue.pop(partner)
        for s in (mine, theirs):
            self.wdl[0 if s == 1 else 1 if s == 0.5 else 2] += 1
        self.penta[round(2 * (mine + theirs))] += 1

    def fault(self, g, white, black, result):
        kind = FAULTS.get(g.get("Termination", ""))
        if not kind or result == "1/2-1/2":
            return
        loser = black if result == "1-0" else white
        self.faults.setdefault(loser, {"time": 0, "illegal": 0, "crash": 0})[kind] += 1

    @property
    def games(self):
        return sum(self.wdl)

    def faults_text(self):
        parts = [f"{name} " + ", ".join(f"{n} {k}" for k, n in f.items() if n)
                 for name, f in sorted(self.faults.items())]
        return "; ".join(parts) or "none"

    def elo(self):
        """(Elo, its 95% half-width, nElo, its half-width) from the pairs,
        or None before two pairs (nElo None when every pair scored alike)."""
        return pair_elo(self.penta)

    def llr(self, elo0, elo1):
        return llr_normalized(self.penta, elo0, elo1)

    def line(self):
        """One line: games, W/D/L, score, Elo, pentanomial, faults."""
        w, d, l = self.wdl
        score = f"{100 * (w + d / 2) / self.games:.1f}%" if self.games else "-"
        e = self.elo()
        elo = f"Elo {e[0]:+.1f} +- {e[1]:.1f}" if e else "Elo -"
        if e and e[2] is not None:
            elo += f", nElo {e[2]:+.1f} +- {e[3]:.1f}"
        return (f"{self.games} games +{w} ={d} -{l} ({score}), {elo}, "
                f"penta {self.penta}, faults: {self.faults_text()}")


# The pentanomial statistics: a pair scores 0, 1/4, ..., 1 a game.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
NELO = 800 / math.log(10)      # normalized Elo per unit of t = (mu - 1/2) / sigma
Z95 = 1.959963984540054


def logistic(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def pair_elo(penta):
    pairs = sum(penta)
    if pairs < 2:
        return None
    mu = sum(a * n for a, n in zip(PAIR_SCORES, penta)) / pairs
    var = sum(n * (a - mu) ** 2 for a, n in zip(PAIR_SCORES, penta)) / pairs
    half = Z95 * math.sqrt(var / pairs)
    if mu in (0, 1):
        return math.copysign(math.inf, mu - 0.5), math.inf, None, None
    elo = logistic(mu)
    err = (logistic(mu + half) - logistic(mu - half)) / 2
    if var == 0:
        return elo, err, None, None      # every pair scored alike: no nElo
    # A game's standard deviation is sqrt(2) times a pair's (per game).
    sd = math.sqrt(2 * var)
    return elo, err, (mu - 0.5) / sd * NELO, half / sd * NELO


def llr_normalized(penta, elo0, elo1):
    """The generalized SPRT's log-likelihood ratio of nElo elo1 against
    elo0 for pentanomial counts (M. Van den Bergh, "Comments on normalized
    Elo"): under each hypothesis, the distribution nearest the observed
    one whose t = (mu - 1/2) / sigma is the hypothesis's, found by a fixed
    point on the constraint linearized about the current estimate. Empty
    cells count as 0.001 of a pair and the WL and DD pairs as one cell, as
    fastchess counts them."""
    counts = [penta[0], penta[1], penta[2], penta[3], penta[4]]
    counts = [n if n else 1e-3 for n in counts]
    total = sum(counts)
    phat = [n / total for n in counts]
    # t per pair: a pair's sigma is a game's over sqrt(2).
    t0, t1 = (math.sqrt(2) * e / NELO for e in (elo0, elo1))
    p0, p1 = nearest(phat, t0), nearest(phat, t1)
    return total * sum(q * (math.log(b) - math.log(a)) for q, a, b in zip(phat, p0, p1))


def nearest(phat, t):
    """The distribution over PAIR_SCORES that maximizes sum(phat log p)
    subject to (mu - 1/2) / sigma = t."""
    p = [0.2] * 5
    for _ in range(30):
        mu = sum(a * q for a, q in zip(PAIR_SCORES, p))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(PAIR_SCORES, p)))
        phi = [a - 0.5 - t * sigma * (1 + ((a - mu) / sigma) ** 2) / 2 for a in PAIR_SCORES]
        if not min(phi) < 0 < max(phi):
            break   # only for |t| far beyond any SPRT's bounds (sprt.py refuses them)
        # p_i = phat_i / (1 + x phi_i), with x the root of sum(phat phi / (1 + x phi)) = 0
        # between the poles -1/max(phi) and -1/min(phi); the sum falls with x.
        lo, hi = -1 / max(phi), -1 / min(phi)
        for _ in range(200):
            x = (lo + hi) / 2
            if sum(q * f / (1 + x * f) for q, f in zip(phat, phi)) > 0:
                lo = x
            else:
                hi = x
        new = [q / (1 + x * f) for q, f in zip(phat, phi)]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-9
        p = new
        if done:
            break
    return p


def sprt_bounds(alpha, beta):
    """The LLR's lower and upper bounds."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
