//! Scaling: how much of its edge the stronger side can hope to realise
//! (dead draws, pawnless endings with a small edge, opposite-coloured
//! bishops).

use super::weights::*;
use crate::chess::board::Board;
use crate::chess::types::*;

/// Which scale factor applies to a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleKind {
    /// Neither side can mate: 0.
    Dead,
    /// Pawnless, with too small a material edge: `DRAWISH_SCALE`.
    Drawish,
    /// Opposite-coloured bishops and pawns: `OPPOSITE_BISHOPS_SCALE`.
    OppositeBishops,
    /// Everything else: 64.
    Full,
}

/// How much of the score the stronger side can hope to realise, out of 64.
#[inline(always)]
pub(super) fn scale_factor(board: &Board, white_score: i32) -> i32 {
    let strong = if white_score >= 0 {
        Color::White
    } else {
        Color::Black
    };
    match scale_kind(board, strong) {
        ScaleKind::Dead => 0,
        ScaleKind::Drawish => DRAWISH_SCALE,
        ScaleKind::OppositeBishops => OPPOSITE_BISHOPS_SCALE,
        ScaleKind::Full => 64,
    }
}

/// The scale factor that applies when `strong` is ahead (White when the
/// score is 0).
#[inline(always)]
pub fn scale_kind(board: &Board, strong: Color) -> ScaleKind {
    if board.insufficient_material() {
        return ScaleKind::Dead;
    }
    let weak = strong.flip();
    let non_pawn = |c: Color| -> i32 {
        [KNIGHT, BISHOP, ROOK, QUEEN]
            .iter()
            .map(|&k| DRAWISH_PIECE_VALUE[kind_index(k)] * board.count(c, k) as i32)
            .sum()
    };
    if board.count(strong, PAWN) == 0 && non_pawn(strong) - non_pawn(weak) <= DRAWISH_MATERIAL_EDGE
    {
        return ScaleKind::Drawish;
    }
    let only_bishop = |c: Color| {
        board.count(c, BISHOP) == 1
            && board.count(c, KNIGHT) == 0
            && board.count(c, ROOK) == 0
            && board.count(c, QUEEN) == 0
    };
    if only_bishop(Color::White) && only_bishop(Color::Black) {
        let shade = |c: Color| {
            let s = board.piece_squares(c, BISHOP)[0] as Square;
            (file_of(s) + rank_of(s)) % 2
        };
        if shade(Color::White) != shade(Color::Black) {
            return ScaleKind::OppositeBishops;
        }
    }
    ScaleKind::Full
}
