//! Chess960 perft: all 960 positions (Shredder-FEN castling) at every
//! depth up to 4 in the normal run, to depth 5 in the ignored deep run.

use cavalier::chess::notation::{parse_uci, to_uci};
use cavalier::chess::perft::{parse_suite, perft};
use cavalier::Board;

const SUITE: &str = include_str!("data/chess960.epd");

fn check(max_depth: u32) -> usize {
    let entries = parse_suite(SUITE).expect("suite parses");
    assert_eq!(entries.len(), 960);
    let mut checked = 0;
    let mut failures = Vec::new();
    for (line, entry) in &entries {
        let mut board = Board::from_fen(&entry.fen).expect("suite FEN");
        for &(depth, expected) in entry.counts.iter().filter(|(d, _)| *d <= max_depth) {
            let found = perft(&mut board, depth);
            checked += 1;
            if found != expected {
                failures.push(format!(
                    "line {line} {} D{depth}: expected {expected}, found {found}",
                    entry.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn chess960_suite_to_depth_4() {
    assert_eq!(check(4), 3840);
}

#[test]
#[ignore = "deep: about 1e10 leaves"]
fn chess960_suite_to_depth_5() {
    assert_eq!(check(5), 4800);
}

#[test]
fn castling_is_written_king_takes_rook_in_960() {
    // King c1, rooks b1 and g1: O-O-O leaves the king on c1.
    let mut b = Board::from_fen("1r2k2r/8/8/8/8/8/8/1RK3R1 w GBhb - 0 1").unwrap();
    assert!(b.is_chess960());
    let castles: Vec<String> = b
        .legal_moves()
        .iter()
        .filter(|m| m.is_castle())
        .map(|&m| to_uci(&b, m))
        .collect();
    assert_eq!(castles, ["c1g1", "c1b1"]);
    let mv = parse_uci(&b, "c1b1").unwrap();
    b.make(mv);
    assert_eq!(b.to_fen(), "1r2k2r/8/8/8/8/8/8/2KR2R1 b kq - 1 1");
    // Standard chess keeps e1g1.
    let s = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert!(!s.is_chess960());
    assert!(s.legal_moves().iter().any(|&m| to_uci(&s, m) == "e1g1"));
}
