//! Perft: count the leaves of the legal move tree, to check the generator.
//!
//! The last ply is counted without making its moves (bulk counting): the
//! legality test from the king's check info decides each move in place.

use crate::chess::board::Board;
use crate::chess::fen::FenError;
use crate::chess::movegen::{GenKind, MoveList};
use crate::chess::types::Move;
use std::fmt;

/// Number of leaf nodes of the legal move tree of depth `depth`.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return board.count_legal() as u64;
    }
    let mut list = MoveList::new();
    board.generate(GenKind::All, &mut list);
    let info = board.check_info();
    let mut nodes = 0;
    for &mv in &list {
        if board.is_legal_with(mv, &info) {
            board.make(mv);
            nodes += perft(board, depth - 1);
            board.unmake();
        }
    }
    nodes
}

/// Perft split by root move, in generation order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    moves
        .into_iter()
        .map(|mv| {
            if depth <= 1 {
                return (mv, 1);
            }
            board.make(mv);
            let n = perft(board, depth - 1);
            board.unmake();
            (mv, n)
        })
        .collect()
}

/// One line of a perft suite: a FEN and the expected counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    pub fen: String,
    /// (depth, expected leaf count), in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// Why a suite line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    BadCount { line: usize, text: String },
    BadFen { line: usize, error: FenError },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::BadCount { line, text } => {
                write!(
                    f,
                    "line {line}: bad depth/count \"{text}\" (expected \"D<depth> <count>\")"
                )
            }
            SuiteError::BadFen { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Parses a suite in the `FEN ;D1 n ;D2 n ...` format. Blank lines and
/// lines starting with `#` are skipped. Returns entries with their line
/// numbers (1-based).
pub fn parse_suite(text: &str) -> Result<Vec<(usize, SuiteEntry)>, SuiteError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        if let Err(error) = Board::from_fen(&fen) {
            return Err(SuiteError::BadFen {
                line: line_no,
                error,
            });
        }
        let mut counts = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let bad = || SuiteError::BadCount {
                line: line_no,
                text: crate::util::text::quote(part),
            };
            let (d, n) = part.split_once(char::is_whitespace).ok_or_else(bad)?;
            let depth = d
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or_else(bad)?;
            let count = n.trim().parse::<u64>().map_err(|_| bad())?;
            counts.push((depth, count));
        }
        entries.push((line_no, SuiteEntry { fen, counts }));
    }
    Ok(entries)
}

/// The divide report of `board` at `depth`, line by line through `out`:
/// each root move with its count, a blank line, the total, the time and
/// the speed. The CLI's `perft` and UCI's `go perft` print it alike.
/// Returns the total.
pub fn divide_report(board: &mut Board, depth: u32, out: &mut dyn FnMut(&str)) -> u64 {
    let start = std::time::Instant::now();
    let split = divide(board, depth);
    let elapsed = start.elapsed();
    let mut total = 0;
    for (mv, n) in &split {
        out(&format!(
            "{}: {n}",
            crate::chess::notation::to_uci(board, *mv)
        ));
        total += n;
    }
    out("");
    out(&format!("Nodes searched: {total}"));
    for line in speed_lines(total, elapsed.as_secs_f64()) {
        out(&line);
    }
    total
}

/// The time and speed lines of a perft run of `nodes` in `seconds`.
pub fn speed_lines(nodes: u64, seconds: f64) -> [String; 2] {
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    [
        format!("Time: {seconds:.3} s"),
        format!("Nodes per second: {nps}"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_small_depths() {
        let mut b = Board::startpos();
        assert_eq!(perft(&mut b, 0), 1);
        assert_eq!(perft(&mut b, 1), 20);
        assert_eq!(perft(&mut b, 2), 400);
        assert_eq!(perft(&mut b, 3), 8902);
        assert!(b.is_consistent());
        let total: u64 = divide(&mut b, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 8902);
    }

    #[test]
    fn suite_parsing() {
        let text = "# comment\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n";
        let s = parse_suite(text).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].0, 3);
        assert_eq!(s[0].1.counts, vec![(1, 15), (2, 66)]);
        assert!(parse_suite("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;X1 15").is_err());
        assert!(parse_suite("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 -15").is_err());
        assert!(parse_suite("garbage ;D1 15").is_err());
    }
}
