//! Perft exactness against the standard suite: every position at every
//! depth up to 4 in the normal run, and every count (to depth 6) in the
//! ignored deep run (`cargo test --release -- --ignored`).

use cavalier::chess::perft::{parse_suite, perft};
use cavalier::Board;

const STANDARD: &str = include_str!("data/standard.epd");

fn check_suite(max_depth: u32) -> (usize, u64) {
    let entries = parse_suite(STANDARD).expect("suite parses");
    assert_eq!(entries.len(), 131);
    let mut checked = 0;
    let mut nodes = 0;
    let mut failures = Vec::new();
    for (line, entry) in &entries {
        let mut board = Board::from_fen(&entry.fen).expect("suite FEN");
        for &(depth, expected) in &entry.counts {
            if depth > max_depth {
                continue;
            }
            let found = perft(&mut board, depth);
            checked += 1;
            nodes += found;
            if found != expected {
                failures.push(format!(
                    "line {line} {} D{depth}: expected {expected}, found {found}",
                    entry.fen
                ));
            }
        }
        assert!(
            board.is_consistent(),
            "board corrupted by perft on line {line}"
        );
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    (checked, nodes)
}

#[test]
fn standard_suite_to_depth_4() {
    let (checked, _) = check_suite(4);
    assert_eq!(checked, 524);
}

#[test]
#[ignore = "deep: about 5e9 leaves; run with --ignored in release mode"]
fn standard_suite_every_depth() {
    let (checked, nodes) = check_suite(u32::MAX);
    eprintln!("{checked} counts, {nodes} leaves");
    assert_eq!(checked, 784);
}
