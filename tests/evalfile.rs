//! `EvalFile` and `bench --net` with a network other than the embedded
//! one: a small random network written here byte by byte from the file
//! format (docs/network.md), independently of the engine's writer, and
//! evaluated here with the format's arithmetic. The engine's `eval` must
//! give the scores computed here, and its searches must differ from the
//! embedded network's; a bad file (wrong magic, truncated, damaged,
//! `/dev/zero`, a FIFO, a huge sparse file, a folder) is an `info
//! string error` that keeps the random network, which the scores prove.

mod common;

use common::{cavalier, Engine};
use std::path::{Path, PathBuf};

/// The format's constants (docs/network.md).
const MAGIC: &[u8; 8] = b"CAVNNUE1";
const INPUTS: usize = 768;
const QA: i64 = 255;
const QB: i64 = 64;

/// The network of the tests: few units, so that the file is small.
const HIDDEN: usize = 32;

/// Positions evaluated: both sides to move, castling rights, few and many
/// pieces (none a bare king, which `eval` notes apart).
const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "4k3/8/3q4/8/8/2N5/8/3QK3 w - - 0 1",
];

/// A network in the file's integers.
struct Net {
    hidden: usize,
    scale: u32,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
}

/// A xorshift generator: the test's own, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `-bound..=bound`.
    fn within(&mut self, bound: i64) -> i64 {
        (self.next() % (2 * bound as u64 + 1)) as i64 - bound
    }
}

/// Random weights small enough that scores stay far from the engine's
/// clamp, large enough that every position scores differently.
fn random_net(seed: u64) -> Net {
    let mut rng = Rng(seed);
    let mut shorts = |n: usize, bound: i64| (0..n).map(|_| rng.within(bound) as i16).collect();
    let w1 = shorts(INPUTS * HIDDEN, 64);
    let b1 = shorts(HIDDEN, 128);
    let w2 = shorts(2 * HIDDEN, 32);
    Net {
        hidden: HIDDEN,
        scale: 150,
        w1,
        b1,
        w2,
        b2: 40_000,
    }
}

/// FNV-1a, the file's check.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The file of `net`: magic, hidden, scale, w1, b1, w2, b2, check, all
/// little-endian.
fn file_of(net: &Net) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(net.hidden as u32).to_le_bytes());
    out.extend_from_slice(&net.scale.to_le_bytes());
    for v in net.w1.iter().chain(&net.b1).chain(&net.w2) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&net.b2.to_le_bytes());
    let check = fnv1a(&out);
    out.extend_from_slice(&check.to_le_bytes());
    out
}

/// The pieces of a FEN: (square a1 = 0 .. h8 = 63, colour White 0 /
/// Black 1, kind pawn 0 .. king 5), and the side to move (0 White).
fn pieces(fen: &str) -> (Vec<(usize, usize, usize)>, usize) {
    let mut fields = fen.split_whitespace();
    let mut out = Vec::new();
    for (i, rank) in fields.next().unwrap().split('/').enumerate() {
        let mut file = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let kind = "pnbrqk".find(c.to_ascii_lowercase()).unwrap();
            let colour = c.is_ascii_lowercase() as usize;
            out.push(((7 - i) * 8 + file, colour, kind));
            file += 1;
        }
    }
    let stm = (fields.next() == Some("b")) as usize;
    (out, stm)
}

/// The score in centipawns for the side to move, by the format's
/// arithmetic: each view's sums (i16, wrapping) of the biases and its
/// features' weights, a feature being (colour relative to the view) x 384
/// + kind x 64 + square, Black's view mirrored vertically; each unit
///   clamped to [0, QA] and squared times its output weight, the side to
///   move's units first; that sum / QA + b2, times scale / (QA x QB).
fn score(net: &Net, fen: &str) -> i32 {
    let (pieces, stm) = pieces(fen);
    let h = net.hidden;
    let sums = |view: usize| {
        let mut s = net.b1.clone();
        for &(sq, colour, kind) in &pieces {
            let (sq, rel) = if view == 0 {
                (sq, colour)
            } else {
                (sq ^ 56, colour ^ 1)
            };
            let f = rel * 384 + kind * 64 + sq;
            for (j, v) in s.iter_mut().enumerate() {
                *v = v.wrapping_add(net.w1[f * h + j]);
            }
        }
        s
    };
    let (us, them) = (sums(stm), sums(stm ^ 1));
    let mut total: i64 = 0;
    for (units, w2) in [(&us, &net.w2[..h]), (&them, &net.w2[h..])] {
        for (&u, &w) in units.iter().zip(w2) {
            let v = (u as i64).clamp(0, QA);
            total += v * v * w as i64;
        }
    }
    let raw = total / QA + net.b2 as i64;
    let cp = raw * net.scale as i64 / (QA * QB);
    assert!(cp.abs() < 20_000, "the test's network scores {cp}: too big");
    cp as i32
}

/// A folder of this test's own, emptied when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("cav-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// A FIFO made with `mkfifo`; `None` where there is none.
fn fifo(dir: &Path) -> Option<String> {
    let path = dir.join("fifo.nnue");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    made.is_ok_and(|s| s.success())
        .then(|| path.display().to_string())
}

/// A sparse file far larger than any network (nothing of it on disk).
fn huge_sparse(dir: &Path) -> String {
    let path = dir.join("huge.nnue");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(1 << 36)
        .unwrap();
    path.display().to_string()
}

/// The engine's network score of `fen` (side to move's view), from `eval`.
fn engine_score(e: &mut Engine, fen: &str) -> i32 {
    e.send(&format!("position fen {fen}"));
    e.send("eval");
    let got = e.until("NNUE evaluation");
    let line = got.last().unwrap();
    // "NNUE evaluation: W cp (White's view), S cp (side to move's)"
    line.split(", ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score in {line:?}"))
}

/// The nodes of UCI `bench 2`.
fn bench_nodes(e: &mut Engine) -> u64 {
    e.send("bench 2");
    let got = e.until_line("N nodes M nps", |l| l.ends_with(" nps"));
    let last = got.last().unwrap();
    last.split_whitespace().next().unwrap().parse().unwrap()
}

/// The nodes of `cavalier bench 2 ARGS`'s last line.
fn cli_bench_nodes(args: &[&str]) -> u64 {
    let mut all = vec!["bench", "2"];
    all.extend_from_slice(args);
    common::bench_nodes(&all)
}

fn load(e: &mut Engine, path: &str) {
    e.send(&format!("setoption name EvalFile value {path}"));
    let got = e.until("info string");
    let last = got.last().unwrap();
    assert!(
        last.starts_with("info string EvalFile ") && last.contains(&format!("{HIDDEN}x2")),
        "{got:?}"
    );
}

/// The random network's scores are the engine's `eval`, and not the
/// embedded network's; the search with it (`bench`) differs from the
/// search with the embedded one, through UCI and the command line alike.
#[test]
fn a_random_network_from_evalfile_is_the_one_evaluated_and_searched() {
    let net = random_net(0x5eed_0001);
    let dir = Scratch::new("evalfile-random");
    let path = dir.file("random.nnue", &file_of(&net));
    let expected: Vec<i32> = FENS.iter().map(|f| score(&net, f)).collect();
    let mut distinct = expected.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 3, "{expected:?}");

    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let embedded: Vec<i32> = FENS.iter().map(|f| engine_score(&mut e, f)).collect();
    let embedded_nodes = bench_nodes(&mut e);
    load(&mut e, &path);
    let got: Vec<i32> = FENS.iter().map(|f| engine_score(&mut e, f)).collect();
    assert_eq!(got, expected, "the random network's scores");
    assert_ne!(got, embedded);
    let random_nodes = bench_nodes(&mut e);
    assert_ne!(random_nodes, embedded_nodes);
    e.send("setoption name EvalFile value <embedded>");
    e.until("info string EvalFile <embedded>");
    assert_eq!(engine_score(&mut e, FENS[1]), embedded[1]);
    e.send("quit");
    assert!(e.wait().success());

    assert_eq!(cli_bench_nodes(&["--net", &path]), random_nodes);
    assert_eq!(cli_bench_nodes(&[]), embedded_nodes);
}

/// Every bad file is an error that names what is wrong, and the random
/// network loaded before it is still the one evaluated and searched.
#[test]
fn bad_network_files_keep_the_random_network() {
    let net = random_net(0x5eed_0002);
    let dir = Scratch::new("evalfile-bad");
    let good = file_of(&net);
    let path = dir.file("random.nnue", &good);
    let mut magic = good.clone();
    magic[0] = b'X';
    let mut damaged = good.clone();
    damaged[1000] ^= 1;
    let mut bad_files = vec![
        (dir.file("magic.nnue", &magic), "bad magic"),
        (
            dir.file("truncated.nnue", &good[..good.len() - 1]),
            "bytes where",
        ),
        (dir.file("damaged.nnue", &damaged), "checksum"),
        (dir.file("empty.nnue", b""), "bad magic"),
        ("/dev/zero".to_string(), "not a regular file"),
        (huge_sparse(&dir.0), "larger than"),
        (dir.0.display().to_string(), "a folder"),
        (
            dir.0.join("none.nnue").display().to_string(),
            "cannot be read",
        ),
    ];
    if let Some(f) = fifo(&dir.0) {
        bad_files.push((f, "a FIFO"));
    }

    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    load(&mut e, &path);
    let expected = score(&net, FENS[1]);
    assert_eq!(engine_score(&mut e, FENS[1]), expected);
    e.send("position startpos");
    let nodes = bench_nodes(&mut e);
    for (file, needle) in &bad_files {
        e.send(&format!("setoption name EvalFile value {file}"));
        let got = e.until("info string");
        let last = got.last().unwrap();
        assert!(
            last.starts_with("info string error: EvalFile: network \"")
                && last.contains(needle)
                && last.contains("; keeping \"/"),
            "{file}: {got:?}"
        );
        assert_eq!(engine_score(&mut e, FENS[1]), expected, "after {file}");
    }
    e.send("position startpos");
    assert_eq!(bench_nodes(&mut e), nodes);
    e.send("quit");
    assert!(e.wait().success());

    // The command line: a clear error and exit code 2, for each.
    for (file, needle) in &bad_files {
        let run = cavalier(&["bench", "2", "--net", file]);
        assert_eq!(run.code, Some(2), "{file}: {run:?}");
        assert!(run.stdout.is_empty(), "{file}: {run:?}");
        assert!(
            run.stderr.starts_with("error: network \"") && run.stderr.contains(needle),
            "{file}: {run:?}"
        );
    }
}
