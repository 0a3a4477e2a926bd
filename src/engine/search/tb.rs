//! The search's use of the Syzygy tablebases: a WDL probe at interior
//! nodes reached by a capture or pawn move, and the root's move filter by
//! DTZ (with an answer at once when the result is settled and the clock
//! short).

use super::{cuts, IterationInfo, Search, SearchResult, MAX_DEPTH};
use crate::chess::board::Board;
use crate::chess::types::{Color, Move};
use crate::engine::score::{mate_in, score_to_tt, tb_win_in, MATE_BOUND};
use crate::engine::syzygy::root::{keep_best, rank_moves, CURSED_WIN, DRAW, LOSS, WIN};
use crate::engine::syzygy::TbConfig;
use crate::engine::tt::Bound;
use std::time::Duration;

/// A hit is stored this much deeper than the node's depth: it is exact
/// whatever the depth.
const TB_STORE_EXTRA_DEPTH: i32 = 6;
/// With a soft time limit this short, a root whose outcome the tables
/// settle is answered at once with the DTZ move.
const TB_INSTANT_SOFT: Duration = Duration::from_secs(1);

/// The score of a tablebase outcome `ply` plies from the root, side to
/// move's view: wins and losses just inside the mate range, results the
/// fifty-move rule draws a hair off zero.
pub(super) fn tb_score(outcome: i32, ply: usize) -> i32 {
    match outcome {
        WIN => tb_win_in(ply),
        LOSS => -tb_win_in(ply),
        o => o.signum(),
    }
}

impl Search<'_> {
    /// WDL at an interior node just after a capture or pawn move, within
    /// the piece limit and depth; returns the score when it settles the
    /// window (and stores it), else `None`.
    pub(super) fn probe_tb(
        &mut self,
        board: &mut Board,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let cfg = self.limits.tb.as_ref()?;
        if depth < cfg.probe_depth || board.halfmove_clock() != 0 || board.castling_rights() != 0 {
            return None;
        }
        let pieces = board.piece_count(Color::White) + board.piece_count(Color::Black);
        if pieces as usize > cfg.max_pieces() {
            return None;
        }
        let rule50 = cfg.rule50;
        let mut wdl = cfg.tables.probe_wdl(board)?;
        self.tb_hits += 1;
        if !rule50 {
            wdl = 2 * wdl.signum();
        }
        let score = tb_score(wdl, ply);
        let bound = match wdl {
            WIN => Bound::Lower,
            LOSS => Bound::Upper,
            _ => Bound::Exact,
        };
        if !cuts(bound, score, alpha, beta) {
            return None;
        }
        let store_depth = (depth + TB_STORE_EXTRA_DEPTH).min(MAX_DEPTH);
        self.tt.store(
            board.hash(),
            Move::NONE,
            score_to_tt(score, ply),
            super::NO_EVAL,
            store_depth,
            bound,
        );
        Some(score)
    }

    /// The root's tablebase score (the root moves narrowed to those that
    /// keep the best outcome) and, when the clock is short and the
    /// outcome a win or loss, the answer without a search.
    pub(super) fn tb_at_root(
        &mut self,
        board: &mut Board,
        moves: &mut Vec<Move>,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> (Option<i32>, Option<SearchResult>) {
        let Some(cfg) = self.limits.tb.clone() else {
            return (None, None);
        };
        let score = self.tb_root(board, &cfg, moves);
        let instant = score.and_then(|s| self.tb_instant(s, moves[0], report));
        (score, instant)
    }

    /// At the root: keeps in `moves` those the tables say preserve the
    /// best outcome (DTZ-fastest of a win); returns the root's score.
    fn tb_root(&mut self, board: &mut Board, cfg: &TbConfig, moves: &mut Vec<Move>) -> Option<i32> {
        let pieces = board.piece_count(Color::White) + board.piece_count(Color::Black);
        if pieces as usize > cfg.max_pieces() {
            return None;
        }
        let ranked = rank_moves(&cfg.tables, board, cfg.rule50)?;
        self.tb_hits += 1;
        let (best, kept) = keep_best(&ranked)?;
        let narrowed: Vec<Move> = moves.iter().copied().filter(|m| kept.contains(m)).collect();
        if !narrowed.is_empty() {
            *moves = narrowed;
        }
        let plies = ranked
            .iter()
            .filter(|r| moves.contains(&r.mv))
            .map(|r| r.plies)
            .min()
            .unwrap_or(0);
        Some(match best {
            WIN => tb_win_in(1 + plies as usize),
            LOSS => -tb_win_in(1 + plies as usize),
            CURSED_WIN | DRAW => best,
            _ => -1,
        })
    }

    /// The answer without a search: the first kept move, when the outcome
    /// is a win or loss (a draw is searched, for the opponent's mistakes)
    /// and the clock is short.
    fn tb_instant(
        &self,
        score: i32,
        best: Move,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> Option<SearchResult> {
        let short = self.limits.time.soft.is_some_and(|s| s <= TB_INSTANT_SOFT);
        if !short || score.abs() < MATE_BOUND || best.is_none() {
            return None;
        }
        report(&IterationInfo {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
            time: Duration::ZERO,
            hashfull: 0,
            pv: vec![best],
            currmove: None,
            tbhits: self.tb_hits,
        });
        Some(SearchResult {
            best,
            ponder: Move::NONE,
            score,
            depth: 1,
            nodes: 0,
        })
    }
}

/// A search line with the root's tablebase score instead of the search's,
/// unless the search found a mate.
pub(super) fn with_tb_score(info: &IterationInfo, root: Option<i32>) -> IterationInfo {
    let mut line = info.clone();
    if let Some(s) = root {
        if info.currmove.is_none() && mate_in(info.score).is_none() {
            line.score = s;
            line.bound = None;
        }
    }
    line
}
