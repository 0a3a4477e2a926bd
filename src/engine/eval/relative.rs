//! Squares as a colour sees them: its relative rank and its index in the
//! piece-square tables. A leaf that every term file may use (the context
//! and the pawn structure each need it without needing each other).

use crate::chess::types::*;

/// Relative rank (0 = own back rank).
#[inline(always)]
pub(super) fn rel_rank(color: Color, s: Square) -> usize {
    match color {
        Color::White => s.rank(),
        Color::Black => 7 - s.rank(),
    }
}

/// A square's index in the piece-square tables: as `color` sees it (a1 =
/// 0 .. h8 = 63 from White's side, mirrored by rank for Black).
#[inline(always)]
pub(super) fn pst_index(color: Color, s: Square) -> usize {
    match color {
        Color::White => s.sq64().index(),
        Color::Black => s.sq64().flip_rank().index(),
    }
}
