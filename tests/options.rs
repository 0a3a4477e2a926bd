//! Bad option values over UCI: each is answered with an `info string
//! error: ...` line, and the option's value before it is the one in force
//! afterwards, read back through what the option changes (a book move,
//! `wdl` in the info lines, tablebase hits), not only survived. Numbers
//! out of range are clamped with a message, as the README says; anything
//! unreadable is refused and the option keeps its value.

mod common;

use common::Engine;

/// The engine, its greeting read.
fn start() -> Engine {
    let mut e = Engine::start();
    e.ready();
    e
}

/// Sends `line` and `isready`; returns the lines before `readyok`.
fn answer(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.send("isready");
    let mut lines = e.until("readyok");
    lines.pop();
    lines
}

/// Asserts that `line` is answered with exactly one line, an error
/// containing `needle`; returns it.
fn refused(e: &mut Engine, line: &str, needle: &str) -> String {
    let said = answer(e, line);
    assert!(
        said.len() == 1 && said[0].starts_with("info string error: ") && said[0].contains(needle),
        "{line}: {said:?}"
    );
    said[0].clone()
}

/// The info lines and bestmove of a search.
fn search(e: &mut Engine, position: &str, go: &str) -> Vec<String> {
    e.send("ucinewgame");
    e.send(position);
    e.send(go);
    e.until("bestmove")
}

#[test]
fn a_check_option_given_no_boolean_keeps_its_value() {
    let mut e = start();
    let shows_wdl = |e: &mut Engine| {
        let lines = search(e, "position startpos", "go depth 3");
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && l.contains(" wdl "))
    };
    let bad = "needs \"true\" or \"false\"; unchanged";
    assert!(answer(&mut e, "setoption name UCI_ShowWDL value true").is_empty());
    assert!(shows_wdl(&mut e));
    for value in ["value maybe", "value", "value 1", ""] {
        refused(&mut e, &format!("setoption name UCI_ShowWDL {value}"), bad);
        assert!(shows_wdl(&mut e), "after {value:?}");
    }
    assert!(answer(&mut e, "setoption name UCI_ShowWDL value FALSE").is_empty());
    assert!(!shows_wdl(&mut e));
    for value in ["value maybe", "value", "value 1", ""] {
        refused(&mut e, &format!("setoption name UCI_ShowWDL {value}"), bad);
        assert!(!shows_wdl(&mut e), "after {value:?}");
    }

    // OwnBook, read back through the book move on the clock.
    let book_move = |e: &mut Engine| {
        let lines = search(e, "position startpos", "go wtime 10000 btime 10000");
        lines
            .iter()
            .any(|l| l.starts_with("info string book move "))
    };
    assert!(book_move(&mut e));
    refused(&mut e, "setoption name OwnBook value no", bad);
    assert!(book_move(&mut e));
    assert!(answer(&mut e, "setoption name OwnBook value false").is_empty());
    refused(&mut e, "setoption name OwnBook value yes", bad);
    assert!(!book_move(&mut e));
}

/// MB of memory the system says is available, as the engine reads it.
fn available_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn hash_beyond_the_available_memory_is_refused_and_the_table_kept() {
    let Some(avail) = available_mb() else {
        eprintln!("no /proc/meminfo: nothing to check");
        return;
    };
    // Well beyond what is available, yet within the option's range.
    let too_much = avail + 2048;
    if too_much > 65_536 {
        eprintln!("{avail} MB available: no Hash value in range exceeds it");
        return;
    }
    let mut e = start();
    assert!(answer(&mut e, "setoption name Hash value 2").is_empty());
    // Twice: the message names the table kept, the one set before.
    for _ in 0..2 {
        let said = refused(
            &mut e,
            &format!("setoption name Hash value {too_much}"),
            &format!("Hash {too_much} MB is more than the "),
        );
        assert!(said.ends_with("kept 2 MB"), "{said}");
    }
    let lines = search(&mut e, "position startpos", "go depth 5");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// Tablebase hits of a search of `fen` (those of its last info line with a
/// score; none written means none).
fn tbhits(e: &mut Engine, fen: &str, go: &str) -> u64 {
    let lines = search(e, &format!("position fen {fen}"), go);
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    words
        .iter()
        .position(|&w| w == "tbhits")
        .map_or(0, |at| words[at + 1].parse().unwrap())
}

/// An engine with the test tables found.
fn engine_with_tables() -> Engine {
    let mut e = start();
    let said = answer(&mut e, &format!("setoption name SyzygyPath value {TABLES}"));
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string found 42 tablebase files")),
        "{said:?}"
    );
    e
}

/// Five pieces (no table), where a capture leads into a table (KQvK):
/// only the interior nodes' probes can hit.
const FIVE: &str = "3r4/8/6k1/8/8/8/8/1KQR4 w - - 0 1";

/// Sets `option` to each case's value, checks the message (`needle`) and
/// then whether a search of [`FIVE`] probes the tables.
fn set_and_probe(e: &mut Engine, option: &str, cases: &[(&str, &str, bool)]) {
    for &(value, needle, probes) in cases {
        refused(e, &format!("setoption name {option} value {value}"), needle);
        assert_eq!(
            tbhits(e, FIVE, "go depth 6") > 0,
            probes,
            "{option} after {value:?}"
        );
    }
}

#[test]
fn syzygy_probe_depth_out_of_range_is_clamped_and_unreadable_kept() {
    let mut e = engine_with_tables();
    assert!(
        tbhits(&mut e, FIVE, "go depth 6") > 0,
        "probing from depth 1"
    );
    let cases = [
        ("1000", "outside 1..100; using 100", false),
        ("-5", "outside 1..100; using 1", true),
        ("1000", "outside 1..100; using 100", false),
        ("abc", "not a whole number; unchanged", false),
        ("", "not a whole number; unchanged", false),
        ("0", "outside 1..100; using 1", true),
        ("abc", "not a whole number; unchanged", true),
    ];
    set_and_probe(&mut e, "SyzygyProbeDepth", &cases);
}

#[test]
fn syzygy_probe_limit_out_of_range_is_clamped_and_unreadable_kept() {
    let mut e = engine_with_tables();
    let cases = [
        ("8", "outside 0..7; using 7", true),
        ("-1", "outside 0..7; using 0", false),
        ("abc", "not a whole number; unchanged", false),
        ("8", "outside 0..7; using 7", true),
        ("7.5", "not a whole number; unchanged", true),
    ];
    set_and_probe(&mut e, "SyzygyProbeLimit", &cases);
}

#[test]
fn syzygy_cache_out_of_range_is_clamped_and_unreadable_kept() {
    let mut e = engine_with_tables();
    // Clamped: the value is set, so the tables are scanned again.
    for (value, needle) in [("0", "outside 1..65536; using 1"), ("-3", "using 1")] {
        let said = answer(
            &mut e,
            &format!("setoption name SyzygyCacheMB value {value}"),
        );
        assert!(
            said[0].starts_with("info string error: ") && said[0].contains(needle),
            "{value}: {said:?}"
        );
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[1].starts_with("info string found 42 tablebase files"));
        assert!(tbhits(&mut e, FIVE, "go depth 6") > 0, "after {value:?}");
    }
    // Refused: nothing set, nothing scanned.
    refused(
        &mut e,
        "setoption name SyzygyCacheMB value lots",
        "not a whole number; unchanged",
    );
    assert!(tbhits(&mut e, FIVE, "go depth 6") > 0);
}
