//! The win/draw/loss model behind `UCI_ShowWDL`: how often cavalier's own
//! games were won, drawn and lost from a score, by the material left.
//!
//! The win rate at a score of `x` cp (side to move's view) is
//! `1 / (1 + exp((a - x) / b))`, the loss rate the same at `-x`, the draw
//! rate what remains; `a` (the score at which a win is as likely as not)
//! and `b` (the spread) are cubic polynomials in the material count `m /
//! 58`, `m` = pawns + 3 × minors + 5 × rooks + 9 × queens of both sides
//! (4..=78), the form Stockfish's model has used since 2022. The
//! coefficients come from `cavalier wdl` (`src/lab/wdl.rs`, a lab tool)
//! run over self-play positions; docs/tuning.md gives the command and the
//! data.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::engine::score::mate_in;

/// Material counts outside this range are clamped into it.
pub const MATERIAL_MIN: i32 = 4;
pub const MATERIAL_MAX: i32 = 78;
/// The material count the polynomials are normalised by.
pub const MATERIAL_NORM: f64 = 58.0;

/// `a(t)` and `b(t)`, `t = m / 58`: coefficients of t^3, t^2, t, 1.
pub const WDL_A: [f64; 4] = [-499.157, 1664.332, -1876.617, 811.776];
pub const WDL_B: [f64; 4] = [96.704, -211.254, 111.143, 106.627];

/// The model's material count of `board` (both sides), clamped.
pub fn material(board: &Board) -> i32 {
    let count =
        |kind: Piece| (board.count(Color::White, kind) + board.count(Color::Black, kind)) as i32;
    let m = count(PAWN) + 3 * (count(KNIGHT) + count(BISHOP)) + 5 * count(ROOK) + 9 * count(QUEEN);
    m.clamp(MATERIAL_MIN, MATERIAL_MAX)
}

/// Evaluates a cubic given as `[c3, c2, c1, c0]`.
pub fn cubic(c: &[f64; 4], t: f64) -> f64 {
    ((c[0] * t + c[1]) * t + c[2]) * t + c[3]
}

/// `(a, b)` at material count `m`.
pub fn params(m: i32) -> (f64, f64) {
    let t = m.clamp(MATERIAL_MIN, MATERIAL_MAX) as f64 / MATERIAL_NORM;
    (cubic(&WDL_A, t), cubic(&WDL_B, t).max(1.0))
}

/// The logistic win rate at score `x` for parameters `a`, `b`.
#[inline]
pub fn win_rate(x: f64, a: f64, b: f64) -> f64 {
    1.0 / (1.0 + ((a - x) / b).exp())
}

/// Win, draw and loss per mille (summing to 1000) for `score` (side to
/// move's view, search units: cp, or a mate score) with material count `m`.
pub fn wdl(score: i32, m: i32) -> (u32, u32, u32) {
    if let Some(n) = mate_in(score) {
        return if n > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let (a, b) = params(m);
    let x = score as f64;
    let w = (1000.0 * win_rate(x, a, b)).round() as u32;
    let l = (1000.0 * win_rate(-x, a, b)).round() as u32;
    let l = l.min(1000 - w);
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_is_sane_at_every_material_count() {
        for m in 0..=100 {
            let (w, d, l) = wdl(0, m);
            assert_eq!(w, l);
            assert_eq!(w + d + l, 1000);
            let mut last_w = 0;
            for x in (-2000..=2000).step_by(50) {
                let (w, d, l) = wdl(x, m);
                assert_eq!(w + d + l, 1000, "{x} {m}");
                assert!(w >= last_w, "win rate rises with the score");
                assert_eq!((w, l), {
                    let (w2, _, l2) = wdl(-x, m);
                    (l2, w2)
                });
                last_w = w;
            }
            // +1000 cp: nearly a sure win in any ending; +600 cp: a win
            // more likely than not once a few pieces are left, and nearly
            // sure in a middlegame. (In the barest endings the network's
            // scores run high for material that cannot win, KNN v K and
            // the like: there +600 is mostly a draw.)
            let (w, _, l) = wdl(1000, m);
            assert!(w > 900 && l < 20, "{w} {l} at {m}");
            let (w, _, l) = wdl(600, m);
            assert!(l < 20, "{l} at {m}");
            if m >= 8 {
                assert!(w > 500, "{w} at {m}");
            }
            if m >= 30 {
                assert!(w > 950, "{w} at {m}");
            }
        }
        assert_eq!(wdl(crate::engine::score::MATE - 3, 40), (1000, 0, 0));
        assert_eq!(wdl(-crate::engine::score::MATE + 4, 40), (0, 0, 1000));
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Board::startpos()), 78);
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1").unwrap();
        assert_eq!(material(&b), 6);
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K2N w - - 0 1").unwrap();
        assert_eq!(material(&b), MATERIAL_MIN);
        let b = Board::from_fen("r3k3/pp6/8/8/8/8/2PPPP2/R2QK1N1 w - - 0 1").unwrap();
        assert_eq!(material(&b), 2 + 5 + 4 + 5 + 9 + 3);
    }
}
