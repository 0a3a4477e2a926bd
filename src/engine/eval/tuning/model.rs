//! The evaluation as a function of the values: exactly in integers, in
//! reals for the fit, and its gradient. The non-linear steps are the
//! evaluation's own (`king_danger`, `ScaleKind::factor`, `conclude`),
//! computed in the number each caller needs.

use super::{
    KingAttack, ScaleKind, Shape, ATTACK_FEATURES, X_ATTACK_CAP, X_ATTACK_SCALE, X_DRAWISH,
    X_OPPOSITE_BISHOPS, X_UNITS,
};
use crate::engine::eval::king::king_danger;
use crate::engine::eval::scale::SCALE_ONE;
use crate::engine::eval::weights::{KING_ATTACK_DIVISOR, PHASE_TOTAL};
use crate::engine::eval::{conclude, Concluded};

/// The units of a scored attack with the values `p`.
#[inline(always)]
fn units_f64(k: &KingAttack, p: &[f64]) -> f64 {
    (0..ATTACK_FEATURES)
        .map(|i| k.hits[i] as f64 * p[X_UNITS + i])
        .sum()
}

/// The king's danger of an attack with the values `p` (0 when unscored).
#[inline(always)]
fn danger_f64(k: &KingAttack, p: &[f64]) -> f64 {
    if !k.scored {
        return 0.0;
    }
    king_danger(units_f64(k, p), p[X_ATTACK_SCALE], p[X_ATTACK_CAP])
}

/// The evaluation's last steps in the number `N`, the sums of the linear
/// terms and of the king's danger given.
#[inline(always)]
fn finish<N: crate::engine::eval::number::Number>(
    shape: &Shape,
    mg: N,
    eg: N,
    factor: impl Fn(ScaleKind) -> N,
    mopup: impl Fn(i16) -> N,
) -> Concluded<N> {
    conclude(
        mg,
        eg,
        N::of(shape.phase.into()),
        |strong| factor(shape.scale[strong.index()]),
        |leader| mopup(shape.mopup[leader.index()]),
    )
}

/// The evaluation (White's view) of a position with features `shape` and
/// `coefs`, with integer values `p` and the engine's integer arithmetic:
/// with the values as built, exactly what the engine's evaluation gives.
pub fn exact(shape: &Shape, coefs: &[(u16, i16)], p: &[i32]) -> i32 {
    let (mut mg, mut eg) = (0i32, 0i32);
    for &(slot, c) in coefs {
        mg += c as i32 * p[2 * slot as usize];
        eg += c as i32 * p[2 * slot as usize + 1];
    }
    let danger = |k: &KingAttack| {
        if !k.scored {
            return 0;
        }
        let units: i64 = (0..ATTACK_FEATURES)
            .map(|i| k.hits[i] as i64 * p[X_UNITS + i] as i64)
            .sum();
        king_danger(units, p[X_ATTACK_SCALE] as i64, p[X_ATTACK_CAP] as i64) as i32
    };
    mg += danger(&shape.king[0]) - danger(&shape.king[1]);
    let factor = |kind: ScaleKind| kind.factor(p[X_DRAWISH], p[X_OPPOSITE_BISHOPS]);
    finish(shape, mg, eg, factor, i32::from).score
}

/// The evaluation in reals, from [`forward`].
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// White's view, centipawns, unrounded.
    pub eval: f64,
    /// The terms blended by phase, before scaling: which side leads, and
    /// so which scale factor applies.
    blended: f64,
}

/// The evaluation (White's view) of a position with features `shape` and
/// `coefs`, with real values `p`: [`exact`] without the rounding.
#[inline(always)]
pub fn forward(shape: &Shape, coefs: &[(u16, i16)], p: &[f64]) -> Forward {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(slot, c) in coefs {
        let c = c as f64;
        mg += c * p[2 * slot as usize];
        eg += c * p[2 * slot as usize + 1];
    }
    mg += danger_f64(&shape.king[0], p) - danger_f64(&shape.king[1], p);
    let factor = |kind: ScaleKind| kind.factor(p[X_DRAWISH], p[X_OPPOSITE_BISHOPS]);
    let end = finish(shape, mg, eg, factor, f64::from);
    Forward {
        eval: end.score,
        blended: end.blended,
    }
}

/// Adds `d_eval` times the gradient of [`forward`] (`at`, its result for
/// the same position and values) with respect to the values `p` to
/// `grad`. The king's danger and the scale factor are differentiated by
/// hand (the scale as a constant of the side that leads, the mop-up as a
/// constant); a test checks the gradient against finite differences.
#[inline(always)]
pub fn backward(
    shape: &Shape,
    coefs: &[(u16, i16)],
    p: &[f64],
    at: &Forward,
    d_eval: f64,
    grad: &mut [f64],
) {
    let g = d_eval;
    let scale_one = f64::from(SCALE_ONE);
    let strong = if at.blended >= 0.0 { 0 } else { 1 };
    let kind = shape.scale[strong];
    let scale = kind.factor(p[X_DRAWISH], p[X_OPPOSITE_BISHOPS]) / scale_one;
    let rho = shape.phase as f64 / PHASE_TOTAL as f64;
    let g_mg = g * scale * rho;
    let g_eg = g * scale * (1.0 - rho);
    for &(slot, c) in coefs {
        grad[2 * slot as usize] += g_mg * c as f64;
        grad[2 * slot as usize + 1] += g_eg * c as f64;
    }
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        let king = &shape.king[side];
        if !king.scored {
            continue;
        }
        let units = units_f64(king, p);
        let divisor = KING_ATTACK_DIVISOR as f64;
        // The danger before its cap: the cap's value or the formula's
        // moves it.
        let raw = king_danger(units, p[X_ATTACK_SCALE], f64::INFINITY);
        let gd = g_mg * sign;
        if raw < p[X_ATTACK_CAP] {
            for i in 0..ATTACK_FEATURES {
                grad[X_UNITS + i] +=
                    gd * 2.0 * units * king.hits[i] as f64 * p[X_ATTACK_SCALE] / divisor;
            }
            grad[X_ATTACK_SCALE] += gd * units * units / divisor;
        } else {
            grad[X_ATTACK_CAP] += gd;
        }
    }
    match kind {
        ScaleKind::Drawish => grad[X_DRAWISH] += g * at.blended / scale_one,
        ScaleKind::OppositeBishops => grad[X_OPPOSITE_BISHOPS] += g * at.blended / scale_one,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::{features, initial, test_positions, SAFE_CHECKS, VALUES};
    use super::*;
    use crate::chess::types::{kind_index, PAWN};
    use crate::engine::eval::slots as ix;

    fn rounded(p: &[f64]) -> Vec<i32> {
        p.iter().map(|v| v.round() as i32).collect()
    }

    #[test]
    fn the_model_is_the_evaluation() {
        let p = rounded(&initial());
        let boards = test_positions(40);
        let (mut scored, mut drawish, mut bishops) = (0, 0, 0);
        let mut safe_checks = [0; 4];
        for b in &boards {
            let f = features(b);
            let white = crate::engine::eval::trace(b).white_score;
            assert_eq!(exact(&f.shape, &f.coefs, &p), white, "{}", b.to_fen());
            let real = forward(&f.shape, &f.coefs, &initial()).eval;
            assert!(
                (real - white as f64).abs() <= 2.0,
                "{} {real} {white}",
                b.to_fen()
            );
            let s = &f.shape;
            scored += s.king.iter().filter(|k| k.scored).count();
            for k in s.king.iter().filter(|k| k.scored) {
                for (n, &h) in safe_checks.iter_mut().zip(&k.hits[SAFE_CHECKS..]) {
                    *n += (h > 0) as usize;
                }
            }
            drawish += s.scale.contains(&ScaleKind::Drawish) as usize;
            bishops += s.scale.contains(&ScaleKind::OppositeBishops) as usize;
        }
        assert!(boards.len() > 3000, "{}", boards.len());
        // The non-linear parts were exercised.
        assert!(scored > 50 && drawish > 5, "{scored} {drawish} {bishops}");
        assert!(safe_checks.iter().all(|&n| n > 10), "{safe_checks:?}");
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let shapes: Vec<_> = test_positions(10).iter().map(features).collect();
        let p = initial();
        // The sum of the evaluations, and its gradient.
        let total = |p: &[f64]| -> f64 {
            shapes
                .iter()
                .map(|f| forward(&f.shape, &f.coefs, p).eval)
                .sum()
        };
        let mut grad = vec![0.0; VALUES];
        for f in &shapes {
            let at = forward(&f.shape, &f.coefs, &p);
            backward(&f.shape, &f.coefs, &p, &at, 1.0, &mut grad);
        }
        let check = [
            2 * (ix::PIECE_VALUE + kind_index(PAWN)),
            2 * (ix::MOBILITY_KNIGHT + 5) + 1,
            2 * (ix::MOBILITY_QUEEN + 14),
            2 * (ix::KNIGHT_PST + 21),
            2 * (ix::KING_PST + 6) + 1,
            2 * ix::TEMPO,
            X_ATTACK_SCALE,
            X_DRAWISH,
        ];
        // Every king-attack unit, safe checks included.
        let units = X_UNITS..X_UNITS + ATTACK_FEATURES;
        for i in check.into_iter().chain(units.clone()) {
            let h = 1e-3;
            let mut up = p.clone();
            up[i] += h;
            let mut down = p.clone();
            down[i] -= h;
            let numeric = (total(&up) - total(&down)) / (2.0 * h);
            let scale = numeric.abs().max(grad[i].abs()).max(1e-9);
            assert!(
                (numeric - grad[i]).abs() / scale < 0.05 || (numeric - grad[i]).abs() < 1e-9,
                "value {i}: analytic {} numeric {numeric}",
                grad[i]
            );
        }
        // The positions exercised them: none of their gradients is zero.
        for i in units {
            assert!(grad[i] != 0.0, "value {i}: no gradient");
        }
    }
}
