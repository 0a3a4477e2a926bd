//! `bench`: a fixed list of positions searched to a fixed depth, each with
//! a fresh hash table and fresh heuristics, so the node count is the same
//! on every run and machine. It fingerprints the search: a change that
//! alters it says so in its commit message. Ends with `N nodes M nps`.

use crate::chess::board::Board;
use crate::engine::nnue::Network;
use crate::engine::search::{SearchControl, SearchLimits, Searcher};
use crate::engine::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Instant;

/// Default search depth of `cavalier bench`: deep enough (about 1.3 M
/// nodes) that the search, not clearing the hash tables, is what it times.
pub const DEFAULT_DEPTH: i32 = 10;
/// Hash size for each position (MB).
const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames with tactics, and endgames of every kind.
pub const POSITIONS: [&str; 36] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
    "rnbqkbnr/pp3ppp/4p3/2ppP3/3P4/8/PPP2PPP/RNBQKBNR w KQkq - 0 4",
    "rnbqkb1r/ppp1pp1p/5np1/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP2BPPP/R1BQK2R b KQ - 3 6",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 4 8",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 7 11",
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3BPP2/2NB4/PPPQ2PP/2KR3R w - - 2 14",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 0 12",
    "3r1rk1/p4ppp/1pn1pn2/2q5/2P5/P1N1P3/1BQ2PPP/3R1RK1 w - - 0 17",
    "r1bqr1k1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQR1K1 w - - 1 8",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "2kr3r/ppp2ppp/2n5/2b1q3/4n3/2N2N2/PPPBBPPP/R2QK2R w KQ - 0 11",
    "r1b1k2r/pp1n1ppp/2p1pn2/q2p4/1bPP4/2N1PN2/PPQB1PPP/R3KB1R w KQkq - 5 8",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1",
    "8/8/1p1k4/p1p1p3/P1P1P3/1P1K4/8/8 w - - 0 1",
    "6k1/6p1/7p/8/8/7P/6P1/5RK1 w - - 0 1",
    "8/5pk1/6p1/8/4R3/6P1/5PK1/r7 b - - 0 40",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 2 48",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "8/3k4/8/8/8/8/2Q1K3/8 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "7k/8/8/8/8/8/8/KQ6 b - - 0 1",
];

/// Searches every position to `depth`, evaluating with `network` (`None`:
/// the hand-written evaluation); `out` receives one line per position and
/// the final `N nodes M nps`. Returns the total node count.
pub fn run(depth: i32, network: Option<Arc<Network>>, out: &mut dyn FnMut(&str)) -> u64 {
    let limits = SearchLimits {
        network,
        ..SearchLimits::depth(depth)
    };
    // Only the searches are timed: allocating and clearing each position's
    // table is not search speed (it was about 5% of `bench` at depth 10),
    // and OpenBench scales its time controls by this figure.
    let mut searching = std::time::Duration::ZERO;
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(mut board) = Board::from_fen(fen) else {
            out(&format!("position {} has a bad FEN: {fen}", i + 1));
            continue;
        };
        let tt = TranspositionTable::new(BENCH_HASH_MB);
        let mut searcher = Searcher::new();
        let ctl = SearchControl::new(false);
        let start = Instant::now();
        let result = searcher.think(&mut board, &limits, &ctl, &tt, &mut |_| {});
        searching += start.elapsed();
        total += result.nodes;
        out(&format!(
            "position {:>2}: {:>10} nodes  score {:>6}  best {}",
            i + 1,
            result.nodes,
            result.score,
            crate::chess::notation::to_uci(&board, result.best)
        ));
    }
    let secs = searching.as_secs_f64().max(1e-9);
    out(&format!(
        "{total} nodes {} nps",
        (total as f64 / secs) as u64
    ));
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for fen in POSITIONS {
            let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(seen.insert(b.hash()), "duplicate {fen}");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let a = run(3, None, &mut |_| {});
        let b = run(3, None, &mut |_| {});
        assert_eq!(a, b);
        assert!(a > 0);
    }

    /// With the network too, and the network changes the search.
    #[test]
    fn network_bench_is_deterministic() {
        let net = crate::engine::nnue::embedded().unwrap();
        let a = run(3, Some(Arc::clone(&net)), &mut |_| {});
        let b = run(3, Some(net), &mut |_| {});
        assert_eq!(a, b);
        assert_ne!(a, run(3, None, &mut |_| {}));
    }
}
