//! The command line as a user meets it: output format and exit codes.

mod common;

use common::{cavalier, cavalier_with_input, run_with_env, RUN_LIMIT};

#[test]
fn perft_divide_format() {
    let o = cavalier(&["perft", "3"]);
    assert!(o.success());
    let out = &o.stdout;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20 + 4, "{out}");
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
    assert!(lines[22].starts_with("Time: "));
    assert!(lines[23].starts_with("Nodes per second: "));
}

#[test]
fn perft_with_fen_words() {
    let o = cavalier(&[
        "perft",
        "2",
        "4k3/8/8/8/8/8/8/4K2R",
        "w",
        "K",
        "-",
        "0",
        "1",
    ]);
    assert!(o.success());
    assert!(o.stdout.contains("Nodes searched: 66"));
}

/// A position whose castling only Chess960 has is counted as Chess960
/// when asked: king takes rook (f1h1, f1a1) among the 26 moves.
#[test]
fn perft_chess960_castling_when_asked() {
    let o = cavalier(&[
        "perft",
        "1",
        "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
        "--chess960",
    ]);
    assert!(o.success());
    let out = &o.stdout;
    assert!(out.contains("f1h1: 1") && out.contains("f1a1: 1"), "{out}");
    assert!(out.contains("Nodes searched: 26"), "{out}");
}

#[test]
fn perft_bad_input_is_a_clear_error() {
    for args in [
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "0"],
        vec!["perft", "99"],
        vec!["perft", "2", "not", "a", "fen", "at all"],
        vec!["perft", "2", "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"],
        // Chess960 castling rights without --chess960.
        vec!["perft", "1", "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1"],
        vec!["perft", "--suite"],
        vec!["perft", "--suite", "/no/such/file.epd"],
        vec!["perft", "3", "--threads", "0"],
        vec!["perft", "3", "--threads", "many"],
        vec!["perft", "3", "--hash"],
        vec!["perft", "3", "--hash", "-1"],
        vec!["perft", "3", "--hash", "100000000"],
        vec!["perft", "3", "--depth", "2"],
        vec!["frobnicate"],
    ] {
        let o = cavalier(&args);
        assert_eq!(o.code, Some(2), "{args:?}");
        let err = &o.stderr;
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// An empty or blank FEN argument (an unset shell variable, say) is a
/// mistake to report, not a request for the start position.
#[test]
fn blank_fen_arguments_are_refused() {
    for args in [
        vec!["perft", "1", ""],
        vec!["perft", "2", " ", "\t"],
        vec!["book", ""],
        vec!["book", "  "],
        vec!["play", "--fen", ""],
        vec!["play", "--fen", " "],
        vec!["syzygy", ""],
    ] {
        let o = cavalier(&args);
        assert_eq!(o.code, Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
        let err = &o.stderr;
        assert!(
            err.contains("error") || err.contains("usage"),
            "{args:?}: {err}"
        );
    }
    // Without the argument the start position is still the default.
    let o = cavalier(&["perft", "1"]);
    assert!(o.stdout.contains("Nodes searched: 20"));
    let o = cavalier(&["book"]);
    assert!(o
        .stdout
        .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
}

/// Every subcommand answers --help with its usage on stdout and exit code 0.
#[test]
fn subcommands_answer_help() {
    for name in ["perft", "bench", "book", "play", "tour", "syzygy"] {
        let o = cavalier(&[name, "--help"]);
        assert_eq!(o.code, Some(0), "{name}");
        let out = &o.stdout;
        assert!(
            out.starts_with(&format!("usage: cavalier {name}")),
            "{name}: {out}"
        );
        assert!(o.stderr.is_empty(), "{name}");
    }
}

/// `cavalier syzygy` reports a line that is not a FEN (and exits 2) but
/// still probes the others; blank lines and comments are skipped quietly.
#[test]
fn syzygy_reports_bad_lines() {
    let o = cavalier_with_input(
        &[
            "syzygy",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy"),
        ],
        "# a comment\n\nnot a fen\n8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
    );
    assert_eq!(o.code, Some(2));
    let err = &o.stderr;
    assert!(err.contains("error: line 3:"), "{err}");
    assert_eq!(err.matches("error").count(), 1, "{err}");
    assert!(
        o.stdout.starts_with("8/8/8/8/8/8/8/K1k5 w - - 0 1;0;0"),
        "{}",
        o.stdout
    );
}

#[test]
fn perft_threads_and_hash() {
    // Kiwipete to depth 4 on two threads through a 4 MB table, with the
    // options before and after the FEN: the counts of one plain thread.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let plain = cavalier(&["perft", "4", kiwi]).stdout;
    let moves = |out: &str| -> Vec<String> {
        out.lines()
            .take_while(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    for args in [
        vec!["perft", "4", kiwi, "--threads", "2", "--hash", "4"],
        vec!["perft", "--hash", "4", "4", kiwi, "--threads", "2"],
    ] {
        let o = cavalier(&args);
        assert!(o.success(), "{args:?}");
        let out = &o.stdout;
        assert!(out.contains("Nodes searched: 4085603"), "{out}");
        assert_eq!(moves(out), moves(&plain));
    }
    let o = cavalier(&[
        "perft",
        "--suite",
        "tests/data/standard.epd",
        "--depth",
        "3",
        "--threads",
        "2",
        "--hash",
        "2",
    ]);
    assert!(o.success());
    assert!(o.stdout.contains("0 mismatches"));
}

#[test]
fn perft_suite_reports_mismatches() {
    let dir = std::env::temp_dir().join(format!("cavalier-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    let bad = dir.join("bad.epd");
    std::fs::write(
        &good,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n",
    )
    .unwrap();
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n").unwrap();
    let o = cavalier(&["perft", "--suite", good.to_str().unwrap()]);
    assert!(o.success(), "{}", o.stdout);
    assert!(o.stdout.contains("3 counts checked, 0 mismatches"));
    let o = cavalier(&["perft", "--suite", good.to_str().unwrap(), "--depth", "2"]);
    assert!(o.stdout.contains("2 counts checked, 0 mismatches"));
    let o = cavalier(&["perft", "--suite", bad.to_str().unwrap()]);
    assert_eq!(o.code, Some(1));
    let err = &o.stderr;
    assert!(
        err.contains("line 1") && err.contains("depth 2") && err.contains("expected 67, found 66"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `cavalier bench` searches with the embedded network (as `--nnue`),
/// `--hce` with the hand-written evaluation (another node count), `--net
/// FILE` with the network of FILE; bad arguments are errors.
#[test]
fn bench_with_the_network() {
    let nodes = |args: &[&str]| {
        let o = cavalier(args);
        assert!(o.success(), "{args:?}");
        let out = &o.stdout;
        let last = out.lines().last().unwrap_or_default().to_string();
        assert!(last.ends_with(" nps"), "{out}");
        last.split_whitespace().next().unwrap().to_string()
    };
    let hce = nodes(&["bench", "2", "--hce"]);
    let nnue = nodes(&["bench", "2", "--nnue"]);
    assert_ne!(hce, nnue);
    assert_eq!(nodes(&["bench", "2"]), nnue);
    // The portable arithmetic (forced) plays the same as AVX2 (where the
    // CPU has it).
    let o = run_with_env(
        &["bench", "4", "--nnue"],
        &[("CAVALIER_PORTABLE", "1")],
        None,
        RUN_LIMIT,
    );
    let portable = o.stdout.lines().last().map(str::to_string);
    let o = cavalier(&["bench", "4", "--nnue"]);
    let detected = o.stdout.lines().last().map(str::to_string);
    let count = |l: Option<String>| l.and_then(|l| l.split_whitespace().next().map(str::to_string));
    assert_eq!(count(portable), count(detected));
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/nnue/default.nnue");
    assert_eq!(nodes(&["bench", "--net", net, "2"]), nnue);
    for bad in [
        vec!["bench", "--net"],
        vec!["bench", "--net", "/no/such/net.nnue"],
        vec!["bench", "--net", "Cargo.toml"],
        vec!["bench", "2", "3"],
        vec!["bench", "--bogus"],
        vec!["bench", "0"],
    ] {
        let o = cavalier(&bad);
        assert_eq!(o.code, Some(2), "{bad:?}");
        let err = &o.stderr;
        assert!(err.contains("error"), "{bad:?}: {err}");
    }
}

#[test]
fn usage_lists_every_subcommand_and_the_lab_apart() {
    let o = cavalier(&["--help"]);
    assert!(o.success());
    let text = o.stdout;
    let (engine, lab) = text.split_once("lab tools").expect("a lab section");
    for name in [
        "bench",
        "book",
        "play",
        "tour",
        "perft",
        "syzygy",
        "--version",
    ] {
        assert!(
            engine.contains(&format!("cavalier {name}")),
            "{name}: {text}"
        );
    }
    for name in ["selfplay", "tune", "wdl", "epd", "net"] {
        assert!(lab.contains(&format!("cavalier {name}")), "{name}: {text}");
        assert!(
            !engine.contains(&format!("cavalier {name}")),
            "{name}: {text}"
        );
    }
    assert!(lab.contains("--features lab"), "{text}");
}

/// The default build has no lab: each lab tool is answered with the
/// command that builds it.
#[cfg(not(feature = "lab"))]
#[test]
fn lab_tools_name_their_build() {
    for name in ["selfplay", "tune", "wdl", "epd", "net"] {
        let o = cavalier(&[name, "--help"]);
        assert_eq!(o.code, Some(2), "{name}");
        assert!(o.stdout.is_empty(), "{name}");
        let err = &o.stderr;
        assert_eq!(
            err.trim(),
            format!(
                "error: \"{name}\" is a lab tool; build it with cargo build --release --features lab"
            )
        );
    }
}

/// The network's pipeline from the command line: text from selfplay
/// packed, packed records straight from selfplay, a small network trained
/// on both (a file per epoch, its losses logged, falling), and its score of
/// a position.
#[cfg(feature = "lab")]
#[test]
fn selfplay_then_net_train_and_eval() {
    let dir = std::env::temp_dir().join(format!("cavalier-net-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let play = |out: &str, packed: bool, seed: &str| {
        let mut args = vec![
            "selfplay",
            "--games",
            "6",
            "--nodes",
            "400",
            "--threads",
            "2",
            "--seed",
            seed,
            "--max-plies",
            "100",
            "--out",
            out,
        ];
        if packed {
            args.push("--packed");
        }
        let o = cavalier(&args);
        assert!(o.success(), "{}", o.stderr);
    };
    play(&path("a.txt"), false, "21");
    play(&path("b.bin"), true, "22");
    let o = cavalier(&["net", "pack", &path("a.txt"), "--out", &path("a.bin")]);
    assert!(o.success(), "{}", o.stderr);
    let lines = std::fs::read_to_string(path("a.txt"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(
        std::fs::metadata(path("a.bin")).unwrap().len(),
        32 * lines as u64
    );
    // `net train` on both files into `out`, with `extra` flags.
    let train = |out: &str, extra: &[&str]| {
        let (a, b, out) = (path("a.bin"), path("b.bin"), path(out));
        let mut args = vec!["net", "train", &a, &b, "--out", &out, "--threads", "2"];
        args.extend_from_slice(extra);
        cavalier(&args)
    };
    // An epoch's line: `epoch E train T valid V valid-quantised Q ...`;
    // the value after `name`.
    let value = |line: &str, name: &str| -> f64 {
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            (w[0], w[2], w[4], w[6]),
            ("epoch", "train", "valid", "valid-quantised"),
            "{line}"
        );
        let at = w.iter().position(|&x| x == name).unwrap();
        w[at + 1].parse().unwrap()
    };
    let o = train(
        "nets",
        &[
            "--hidden", "16", "--epochs", "3", "--batch", "64", "--lr", "0.01",
        ],
    );
    assert!(o.success(), "{}", o.stderr);
    let out = &o.stdout;
    let losses: Vec<f64> = out.lines().map(|l| value(l, "train")).collect();
    assert_eq!(losses.len(), 3, "{out}");
    assert!(losses[2] < losses[0], "{out}");
    let log = std::fs::read_to_string(path("nets/log.txt")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.starts_with("epoch")).count(),
        3,
        "{log}"
    );
    // A run carried on from the last network (`--init`) starts where it
    // ended: at a learning rate too small to move it, its held-out loss is
    // the saved network's.
    let quantised = value(out.lines().last().unwrap(), "valid-quantised");
    let net3 = path("nets/net-3.nnue");
    let o = train(
        "nets2",
        &["--init", &net3, "--epochs", "1", "--lr", "0.0000001"],
    );
    assert!(o.success(), "{}", o.stderr);
    let valid = value(o.stdout.trim(), "valid");
    assert!(
        (valid - quantised).abs() < 0.02 * quantised,
        "{valid} vs {quantised}: {}",
        o.stdout
    );
    let o = train("nets3", &["--init", &net3, "--hidden", "32"]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        o.stderr.contains("16 units, --hidden says 32"),
        "{}",
        o.stderr
    );
    let o = cavalier(&[
        "net",
        "eval",
        &path("nets/net-3.nnue"),
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    ]);
    assert!(o.success(), "{}", o.stderr);
    assert!(
        o.stdout.contains(" cp for the side to move ("),
        "{}",
        o.stdout
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(feature = "lab")]
#[test]
fn selfplay_then_tune() {
    let dir = std::env::temp_dir().join(format!("cavalier-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("positions.txt");
    let weights = dir.join("weights.rs");
    let o = cavalier(&[
        "selfplay",
        "--games",
        "2",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--max-plies",
        "80",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(o.success());
    assert!(o.stdout.is_empty(), "positions go to the file");
    let err = &o.stderr;
    assert!(
        err.contains("seed 5") && err.contains("done: 2 games"),
        "{err}"
    );
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.lines().count() > 10, "{text}");
    // FEN;RESULT;SCORE
    assert!(text.lines().all(|l| {
        let f: Vec<&str> = l.split(';').collect();
        f.len() == 3 && ["1.0", "0.5", "0.0"].contains(&f[1]) && f[2].parse::<i32>().is_ok()
    }));

    let o = cavalier(&[
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(o.success(), "{}", o.stderr);
    let out = &o.stdout;
    for expected in [
        "positions: ",
        "K = ",
        "error before: ",
        "epoch 2: error ",
        "error after: ",
        "wrote ",
    ] {
        assert!(out.contains(expected), "{expected}: {out}");
    }
    let written = std::fs::read_to_string(&weights).unwrap();
    assert!(written.contains("pub const PIECE_VALUE: [Score; 6]"));
    assert!(written.contains("pub const LAZY_MARGIN: i32 = 700;"));
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(feature = "lab")]
#[test]
fn lab_bad_input_is_a_clear_error() {
    for args in [
        vec!["selfplay", "--games", "0"],
        vec!["selfplay", "--nodes", "many"],
        vec!["selfplay", "--openings", "/no/such/file.epd"],
        vec!["selfplay", "--out", "/no/such/dir/out.txt"],
        vec!["selfplay", "--bogus"],
        vec!["tune"],
        vec!["tune", "/no/such/file.txt"],
        vec!["tune", "x.txt", "--lr", "-3"],
        vec!["tune", "x.txt", "--bogus"],
        vec!["wdl"],
        vec!["wdl", "/no/such/file.txt"],
        vec!["wdl", "f", "--max-score", "0"],
        vec!["epd"],
        vec!["epd", "/no/such/file.epd"],
        vec!["epd", "f.epd", "--nodes", "0"],
        vec!["net"],
        vec!["net", "frobnicate"],
        vec!["net", "pack", "x.txt"],
        vec![
            "net",
            "pack",
            "/no/such/file.txt",
            "--out",
            "/tmp/cavalier-never.bin",
        ],
        vec!["net", "train", "--out", "/tmp/x"],
        vec!["net", "train", "/no/such/file.bin", "--out", "/tmp/x"],
        vec![
            "net", "train", "f.bin", "--out", "/tmp/x", "--hidden", "100",
        ],
        vec!["net", "train", "f.bin", "--out", "/tmp/x", "--blend", "2"],
        vec![
            "net",
            "train",
            "f.bin",
            "--out",
            "/tmp/x",
            "--init",
            "/no/such/net.nnue",
        ],
        vec!["net", "eval"],
        vec!["net", "eval", "/no/such/net.nnue"],
        vec!["net", "eval", "Cargo.toml"],
        vec!["selfplay", "--resume"],
        vec![
            "selfplay",
            "--resume",
            "--out",
            "Cargo.toml.progress-missing",
            "--seed",
            "x",
        ],
    ] {
        let o = cavalier(&args);
        assert_eq!(o.code, Some(2), "{args:?}");
        let err = &o.stderr;
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    for help in [
        ["selfplay", "--help"],
        ["tune", "--help"],
        ["wdl", "--help"],
        ["net", "--help"],
    ] {
        let o = cavalier(&help);
        assert!(o.success());
        assert!(o.stdout.starts_with("usage: cavalier"), "{help:?}");
    }
}

#[test]
fn version_is_printed() {
    for flag in ["--version", "-V"] {
        let o = cavalier(&[flag]);
        assert!(o.success());
        assert_eq!(
            o.stdout.trim(),
            format!("cavalier {}", env!("CARGO_PKG_VERSION"))
        );
    }
}

/// The FENs of a run's `info string genfens FEN` lines.
fn genfens_lines(o: &common::Run) -> Vec<String> {
    o.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect()
}

/// OpenBench's data generation starts engines as `ENGINE "genfens N seed S
/// book None" quit` and reads N positions back.
#[test]
fn genfens_on_the_command_line_prints_n_legal_positions() {
    let args = ["genfens 12 seed 2147483647 book None ", "quit"];
    let o = cavalier(&args);
    assert!(o.success(), "{o:?}");
    let fens = genfens_lines(&o);
    assert_eq!(fens.len(), 12, "{}", o.stdout);
    for fen in &fens {
        // Six fields, as OpenBench's FEN-to-EPD conversion needs.
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        let board = cavalier::Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(board.has_legal_move() && !board.in_check(), "{fen}");
    }
    let distinct: std::collections::HashSet<_> = fens.iter().collect();
    assert_eq!(distinct.len(), 12, "{fens:?}");
    // Reproducible from the seed; another seed, other positions.
    assert_eq!(genfens_lines(&cavalier(&args)), fens);
    let other = genfens_lines(&cavalier(&["genfens 12 seed 2147483646 book None", "quit"]));
    assert_eq!(other.len(), 12);
    assert!(other.iter().filter(|f| fens.contains(f)).count() < 2);
}

/// Without `quit` among the arguments, the engine goes on reading stdin.
#[test]
fn command_line_lines_run_before_stdin() {
    let o = cavalier_with_input(
        &["position startpos moves e2e4", "genfens 2 seed 1 book None"],
        "d\nisready\nquit\n",
    );
    assert!(o.success(), "{o:?}");
    assert_eq!(genfens_lines(&o).len(), 2, "{}", o.stdout);
    // genfens leaves the position alone.
    assert!(
        o.stdout
            .contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("readyok"));
    // A word that is no subcommand and no UCI command is still an error.
    let o = cavalier(&["frobnicate 3"]);
    assert_eq!(o.code, Some(2));
    assert!(o.stderr.contains("unknown command"), "{}", o.stderr);
}

#[test]
fn genfens_draws_from_a_book_file() {
    let dir = std::env::temp_dir().join(format!("cavalier-genfens-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    // One position, 1. d4 d5 2. c4 e6 3. Nc3 Nf6: every output is a few
    // plies after it.
    std::fs::write(
        &book,
        "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - hmvc 2; fmvn 4;\n",
    )
    .unwrap();
    let command = format!("genfens 6 seed 7 book {}", book.display());
    let o = cavalier(&[&command, "quit"]);
    let fens = genfens_lines(&o);
    assert_eq!(fens.len(), 6, "{}", o.stdout);
    for fen in &fens {
        let board = cavalier::Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        // Two or three plies after move 4 of the book's position.
        assert!(
            (5..=6).contains(&board.fullmove_number()),
            "{fen} is not a few plies after the book's position"
        );
        assert!(board.has_legal_move() && !board.in_check(), "{fen}");
    }
    assert_eq!(genfens_lines(&cavalier(&[&command, "quit"])), fens);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genfens_bad_input_is_answered_and_the_loop_goes_on() {
    for (command, needle) in [
        ("genfens", "needs a count"),
        ("genfens ten seed 1 book None", "not a whole number"),
        ("genfens 1000000000000 seed 1 book None", "above 1000000"),
        (
            "genfens 3 seed 1 book /no/such/book.epd",
            "cannot read the book",
        ),
        ("genfens 3 seed x book None", "not a whole number"),
    ] {
        let o = cavalier(&[command, "genfens 1 seed 1 book None", "quit"]);
        assert!(o.success(), "{command}: {o:?}");
        assert!(
            o.stdout.contains("info string error: ") && o.stdout.contains(needle),
            "{command}: {}",
            o.stdout
        );
        // The error printed no position; the next command printed one.
        assert_eq!(genfens_lines(&o).len(), 1, "{command}: {}", o.stdout);
    }
}
