//! What the evaluation tells: the [`Tracer`] the tuner listens with
//! through `tuning` (the play-time [`NoTrace`] compiles away), the
//! per-term [`Trace`], and the `eval` command's table.

use super::weights::{Score, PHASE_TOTAL};
use super::{evaluate, trace, TERMS};
use crate::chess::board::Board;
use crate::chess::types::*;

/// Per-term, per-colour scores, the phase and the final result.
#[derive(Clone, Debug)]
pub(super) struct Trace {
    /// `terms[term][colour]`, from that colour's point of view.
    pub(super) terms: [[Score; 2]; 9],
    pub(super) phase: i32,
    /// Scale factor applied to the blended score, out of 64.
    pub(super) scale: i32,
    /// Final score, White's point of view.
    pub(super) white_score: i32,
}

/// Told what the evaluation adds, term by term, for the tuner. Counts are
/// for `color`, whose terms count positively from its own point of view.
pub(super) trait Tracer {
    /// False for the play-time evaluation: the tracing code compiles away.
    const ACTIVE: bool;
    /// `color` gets the weight of `slot` (see `slots`) `count` times.
    fn add(&mut self, color: Color, slot: usize, count: i32);
    /// `color`'s attack on the enemy king: king-zone squares hit by each
    /// kind of attacker (`zone_hits[kind_index]`), safe checks by kind
    /// (`safe_checks[kind_index]`, counted only when scored), and whether
    /// the attack is scored at all (two attackers and a queen).
    fn king_attack(
        &mut self,
        color: Color,
        zone_hits: &[i32; 6],
        safe_checks: &[i32; 6],
        scored: bool,
    );
}

/// The tracer of the evaluation in play: does nothing.
pub(super) struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
    #[inline(always)]
    fn king_attack(&mut self, _: Color, _: &[i32; 6], _: &[i32; 6], _: bool) {}
}

/// Human-readable table of the evaluation (the UCI `eval` command).
pub fn describe(board: &Board) -> String {
    let t = trace(board);
    let mut out = String::new();
    out.push_str("       term    |    White    |    Black    |    Total\n");
    out.push_str("               |   MG    EG  |   MG    EG  |   MG    EG\n");
    out.push_str(" --------------+-------------+-------------+------------\n");
    for (i, term) in TERMS.iter().enumerate() {
        let [w, b] = t.terms[i];
        let d = w - b;
        out.push_str(&format!(
            " {:>13} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}\n",
            format!("{term:?}"),
            w.mg(),
            w.eg(),
            b.mg(),
            b.eg(),
            d.mg(),
            d.eg(),
        ));
    }
    out.push_str(&format!(
        "\nphase {}/{}, scale {}/64\nfinal evaluation: {} (White's view), {} (side to move)\n",
        t.phase,
        PHASE_TOTAL,
        t.scale,
        t.white_score,
        evaluate(board)
    ));
    out
}
