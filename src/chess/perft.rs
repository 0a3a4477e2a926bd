//! Perft: count the leaves of the legal move tree, to check the generator.
//!
//! The last ply is counted without making its moves (bulk counting): the
//! legality test from the king's check info decides each move in place.
//! For deep runs, [`divide_with`] splits the root moves among threads and
//! may share a [`PerftTable`] of subtree counts keyed by position and
//! depth.

use crate::chess::board::Board;
use crate::chess::fen::FenError;
use crate::chess::movegen::{GenKind, MoveList};
use crate::chess::types::Move;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

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

/// Perft split by root move, in generation order (one thread, no table).
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    divide_with(board, depth, 1, None)
}

/// Subtree counts by position and depth, shared by perft threads without
/// locks: each slot holds `key ^ data` and `data` (count and depth), so a
/// slot torn by two writers fails the key check and is a miss, never a
/// wrong count.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

/// Counts are kept below 2^56; the low byte holds the depth.
const COUNT_SHIFT: u32 = 8;

impl PerftTable {
    /// A table of about `mb` megabytes (rounded down to a power of two
    /// slots of 16 bytes), or `None` when `mb` is 0 or the memory cannot be
    /// had.
    pub fn new(mb: usize) -> Option<PerftTable> {
        let bytes = mb.checked_mul(1 << 20)?;
        let wanted = bytes / 16;
        if wanted == 0 {
            return None;
        }
        let n = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut slots = Vec::new();
        slots.try_reserve_exact(n).ok()?;
        slots.resize_with(n, || [AtomicU64::new(0), AtomicU64::new(0)]);
        Some(PerftTable { slots, mask: n - 1 })
    }

    #[inline(always)]
    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        if slot[0].load(Ordering::Relaxed) ^ data == key && data & 0xff == depth as u64 {
            Some(data >> COUNT_SHIFT)
        } else {
            None
        }
    }

    #[inline(always)]
    fn store(&self, key: u64, depth: u32, count: u64) {
        if count >> (64 - COUNT_SHIFT) != 0 {
            return;
        }
        let slot = &self.slots[key as usize & self.mask];
        let data = count << COUNT_SHIFT | depth as u64;
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

/// Perft through `table`: subtrees of depth 2 and more are looked up and
/// stored (depth 1 is counted in place, cheaper than a probe).
fn perft_hashed(board: &mut Board, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return perft(board, depth);
    }
    let key = board.hash();
    if let Some(n) = table.probe(key, depth) {
        return n;
    }
    let mut list = MoveList::new();
    board.generate(GenKind::All, &mut list);
    let info = board.check_info();
    let mut nodes = 0;
    for &mv in &list {
        if board.is_legal_with(mv, &info) {
            board.make(mv);
            nodes += perft_hashed(board, depth - 1, table);
            board.unmake();
        }
    }
    table.store(key, depth, nodes);
    nodes
}

/// Perft split by root move, in generation order, on `threads` threads
/// (each takes the next root move not yet taken) and through `table` if
/// given. The counts are those of [`divide`].
pub fn divide_with(
    board: &Board,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    if depth <= 1 {
        return moves.into_iter().map(|mv| (mv, 1)).collect();
    }
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut b = board.clone();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&mv) = moves.get(i) else { break };
            b.make(mv);
            let n = match table {
                Some(t) => perft_hashed(&mut b, depth - 1, t),
                None => perft(&mut b, depth - 1),
            };
            b.unmake();
            counts[i].store(n, Ordering::Relaxed);
        }
    };
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    moves
        .into_iter()
        .zip(counts)
        .map(|(mv, n)| (mv, n.into_inner()))
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
/// the speed. The CLI's `perft` and UCI's `go perft` print it alike;
/// `threads` and `table` as for [`divide_with`]. Returns the total.
pub fn divide_report(
    board: &Board,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
    out: &mut dyn FnMut(&str),
) -> u64 {
    let start = std::time::Instant::now();
    let split = divide_with(board, depth, threads, table);
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
        let total: u64 = divide(&b, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 8902);
    }

    #[test]
    fn threads_and_table_give_the_same_counts() {
        // Each position of the standard suite to depth 3 (and Kiwipete to
        // 4), on 3 threads through one small shared table (1 MB: 65536
        // slots, so positions of different depths and games collide).
        let table = PerftTable::new(1).unwrap();
        let text = include_str!("../../tests/data/standard.epd");
        let suite = parse_suite(text).unwrap();
        for (_, e) in suite.iter().take(40) {
            let mut b = Board::from_fen(&e.fen).unwrap();
            for &(d, expected) in e.counts.iter().filter(|c| c.0 <= 3) {
                let split = divide_with(&b, d, 3, Some(&table));
                assert_eq!(
                    split.iter().map(|x| x.1).sum::<u64>(),
                    expected,
                    "{}",
                    e.fen
                );
                assert_eq!(split, divide(&b, d));
                assert_eq!(perft(&mut b, d), expected);
            }
        }
        let kiwi = Board::from_fen(&suite[1].1.fen).unwrap();
        let total =
            |t: &PerftTable| -> u64 { divide_with(&kiwi, 4, 2, Some(t)).iter().map(|x| x.1).sum() };
        assert_eq!(total(&table), 4_085_603);
        assert_eq!(total(&table), 4_085_603, "again, from a warm table");
        assert!(PerftTable::new(0).is_none());
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
