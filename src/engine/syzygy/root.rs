//! The root moves in a tablebase position: what each keeps under the
//! fifty-move rule (given the counter), and which to keep: those with the
//! best outcome, and of a win the ones closest to the next capture or
//! pawn move (so the win is converted, not drawn by the rule), of a loss
//! the ones that resist longest.

use super::Tablebases;
use crate::chess::board::Board;
use crate::chess::types::Move;

/// Outcomes, for the side to move: won, won but drawn by the fifty-move
/// rule (cursed), drawn, lost but saved by the rule (blessed), lost.
pub const WIN: i32 = 2;
pub const CURSED_WIN: i32 = 1;
pub const DRAW: i32 = 0;
pub const BLESSED_LOSS: i32 = -1;
pub const LOSS: i32 = -2;

/// One root move and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// [`WIN`] .. [`LOSS`] for the side to move at the root.
    pub outcome: i32,
    /// Plies to the next capture or pawn move (or mate) after this move,
    /// with best play: 0 when the move itself resets the counter or mates.
    pub plies: i32,
}

/// What a move leads to; the move is already made on `board`.
fn outcome_after(tb: &Tablebases, board: &mut Board) -> Option<(i32, i32)> {
    if !board.has_legal_move() {
        return Some((if board.in_check() { WIN } else { DRAW }, 0));
    }
    if board.halfmove_clock() == 0 {
        return Some((-tb.probe_wdl(board)?, 0));
    }
    let d = tb.probe_dtz(board)?;
    let h = board.halfmove_clock() as i32;
    let outcome = if d < 0 {
        if -d <= 100 && h - d <= 99 {
            WIN
        } else {
            CURSED_WIN
        }
    } else if d > 0 {
        if d <= 100 && h + d <= 100 {
            LOSS
        } else {
            BLESSED_LOSS
        }
    } else {
        DRAW
    };
    Some((outcome, d.abs()))
}

/// Every legal move of `board` ranked; `None` when a table is missing.
/// Without the fifty-move rule, cursed wins are wins and blessed losses
/// losses.
pub fn rank_moves(tb: &Tablebases, board: &mut Board, rule50: bool) -> Option<Vec<RankedMove>> {
    if !tb.covers(board) {
        return None;
    }
    let mut ranked = Vec::new();
    for mv in board.legal_moves() {
        board.make(mv);
        let r = outcome_after(tb, board);
        board.unmake();
        let (mut outcome, plies) = r?;
        if !rule50 {
            outcome = 2 * outcome.signum();
        }
        ranked.push(RankedMove { mv, outcome, plies });
    }
    Some(ranked)
}

/// The best outcome and the moves to keep: those reaching it, and of a
/// win (or loss) only the fastest (slowest) to the next reset.
pub fn keep_best(ranked: &[RankedMove]) -> Option<(i32, Vec<Move>)> {
    let best = ranked.iter().map(|r| r.outcome).max()?;
    let same: Vec<&RankedMove> = ranked.iter().filter(|r| r.outcome == best).collect();
    let target = if best > 0 {
        same.iter().map(|r| r.plies).min()
    } else if best < 0 {
        same.iter().map(|r| r.plies).max()
    } else {
        None
    };
    let kept = same
        .iter()
        .filter(|r| target.is_none_or(|t| r.plies == t))
        .map(|r| r.mv)
        .collect();
    Some((best, kept))
}
