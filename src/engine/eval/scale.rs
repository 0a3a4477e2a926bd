//! Scaling: how much of its edge the stronger side can hope to realise
//! (dead draws, pawnless endings with a small edge, opposite-coloured
//! bishops).

use super::number::Number;
use super::weights::*;
use crate::chess::board::Board;
use crate::chess::types::*;

/// Scale factors are out of this: the whole score.
pub(super) const SCALE_ONE: i32 = 64;

/// Which scale factor applies to a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScaleKind {
    /// Neither side can mate: 0.
    Dead,
    /// Pawnless, with too small a material edge: `DRAWISH_SCALE`.
    Drawish,
    /// Opposite-coloured bishops and pawns: `OPPOSITE_BISHOPS_SCALE`.
    OppositeBishops,
    /// Everything else: 64.
    Full,
}

impl ScaleKind {
    /// The factor, out of `SCALE_ONE`, given the drawish and the
    /// opposite bishops' factors: play passes `DRAWISH_SCALE` and
    /// `OPPOSITE_BISHOPS_SCALE`, the tuner's model its own values (see
    /// [`Number`]).
    #[inline(always)]
    pub(super) fn factor<N: Number>(self, drawish: N, opposite_bishops: N) -> N {
        match self {
            ScaleKind::Dead => N::ZERO,
            ScaleKind::Drawish => drawish,
            ScaleKind::OppositeBishops => opposite_bishops,
            ScaleKind::Full => N::of(SCALE_ONE.into()),
        }
    }
}

/// How much of the score `strong` can hope to realise when it is ahead,
/// out of `SCALE_ONE`.
#[inline(always)]
pub(super) fn scale_factor(board: &Board, strong: Color) -> i32 {
    scale_kind(board, strong).factor(DRAWISH_SCALE, OPPOSITE_BISHOPS_SCALE)
}

/// The scale factor that applies when `strong` is ahead (White when the
/// score is 0).
#[inline(always)]
pub(super) fn scale_kind(board: &Board, strong: Color) -> ScaleKind {
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
            let s = board.piece_squares(c, BISHOP).next();
            s.map(|s| (s.file() + s.rank()) % 2)
        };
        if shade(Color::White) != shade(Color::Black) {
            return ScaleKind::OppositeBishops;
        }
    }
    ScaleKind::Full
}
