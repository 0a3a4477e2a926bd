//! The arithmetic of the evaluation's non-linear steps (the king's danger,
//! the phase blend, the endgame scale, the mop-up), so that each step is
//! written once: for play's integers, and for the reals of the tuner's
//! model of the evaluation (`tuning`, with the feature `lab`). The same
//! expression gives the same result in each: integer division truncates,
//! as the evaluation always has.

use std::ops::{Add, Div, Mul, Sub};

/// A number the non-linear steps can be computed in: `i32` and `i64` in
/// play, `f64` in the tuner's model.
pub(super) trait Number:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
{
    const ZERO: Self;
    /// A constant of the evaluation (`PHASE_TOTAL`, a divisor) as this
    /// number.
    fn of(n: i64) -> Self;
    /// This, or `cap` when that is smaller.
    fn at_most(self, cap: Self) -> Self;
}

impl Number for i32 {
    const ZERO: i32 = 0;
    #[inline(always)]
    fn of(n: i64) -> i32 {
        n as i32
    }
    #[inline(always)]
    fn at_most(self, cap: i32) -> i32 {
        Ord::min(self, cap)
    }
}

impl Number for i64 {
    const ZERO: i64 = 0;
    #[inline(always)]
    fn of(n: i64) -> i64 {
        n
    }
    #[inline(always)]
    fn at_most(self, cap: i64) -> i64 {
        Ord::min(self, cap)
    }
}

impl Number for f64 {
    const ZERO: f64 = 0.0;
    #[inline(always)]
    fn of(n: i64) -> f64 {
        n as f64
    }
    #[inline(always)]
    fn at_most(self, cap: f64) -> f64 {
        f64::min(self, cap)
    }
}
