//! Turning `go` limits into deadlines: pure arithmetic, no clocks read.
//!
//! A *soft* limit says when not to start another iteration (the next one
//! would likely not finish); a *hard* limit stops the search wherever it
//! is. Both already have the GUI's `Move Overhead` taken off.

use crate::chess::types::Color;
use crate::engine::params::{
    TM_DROP_DIVISOR, TM_DROP_MAX, TM_HARD_SHARE, TM_HARD_SLICES, TM_INCREMENT_SHARE,
    TM_MOVES_TO_GO, TM_NODE_MAX, TM_NODE_MIN, TM_NODE_PIVOT, TM_NODE_SLOPE, TM_STABLE_FLOOR,
    TM_STABLE_SPAN,
};
use std::time::Duration;

/// What `go` asked for (times in milliseconds, as the GUI sent them;
/// negative values are treated as zero).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<i64>,
    pub movetime: Option<i64>,
    pub depth: Option<i64>,
    pub nodes: Option<u64>,
    pub mate: Option<i64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Move texts after `searchmoves`, checked against the position later.
    pub searchmoves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<i64>,
}

/// Deadlines from the start of the search (or of `ponderhit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimePlan {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

// The moves assumed still to play when the GUI does not say, the share
// of the increment spent and the hard limit's bounds are parameters
// (`TM_` in engine::params), tunable by games like the search's.

/// Never plan for more than this many moves (keeps early moves useful).
const MAX_MOVES_TO_GO: i64 = 50;
/// Always leave at least this much on the clock besides the overhead (ms).
const RESERVE_MS: i64 = 5;
/// Smallest planned search (ms), so a move always comes back with a PV.
const MIN_THINK_MS: i64 = 1;

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(0) as u64)
}

/// Plans the time for a search by `side` under `limits`, keeping
/// `overhead_ms` for the GUI's and the pipe's delays.
pub fn plan(limits: &GoLimits, side: Color, overhead_ms: i64) -> TimePlan {
    let overhead = overhead_ms.max(0);
    if limits.infinite {
        return TimePlan::default();
    }
    // `movetime`: search exactly that long (as the protocol says), not
    // stop early when the best move looks settled.
    if let Some(mt) = limits.movetime {
        let t = (mt.max(0) - overhead).max(MIN_THINK_MS);
        return TimePlan {
            soft: None,
            hard: Some(ms(t)),
        };
    }
    let (time, inc) = match side {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return TimePlan::default();
    };
    let time = time.max(0);
    let inc = inc.unwrap_or(0).max(0);
    let mtg = limits
        .movestogo
        .unwrap_or(TM_MOVES_TO_GO() as i64)
        .clamp(1, MAX_MOVES_TO_GO);
    // What may be spent at most on this move, whatever happens.
    let usable = (time - overhead - RESERVE_MS).max(MIN_THINK_MS);
    let slice = usable / mtg + inc * TM_INCREMENT_SHARE() as i64 / 100;
    let hard_cap = if mtg == 1 {
        usable
    } else {
        usable * TM_HARD_SHARE() as i64 / 100
    };
    let hard = (slice * TM_HARD_SLICES() as i64)
        .min(hard_cap)
        .max(MIN_THINK_MS);
    let soft = slice.min(hard).max(MIN_THINK_MS);
    TimePlan {
        soft: Some(ms(soft)),
        hard: Some(ms(hard)),
    }
}

/// How settled a search looks after an iteration: what stretches or
/// shrinks the soft limit (see [`soft_scale`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Confidence {
    /// The best move's share of the nodes spent on all root moves, 0 to 1.
    pub best_share: f64,
    /// Iterations in a row that have kept the same best move (0 when the
    /// last one changed it).
    pub stable_iterations: u32,
    /// How far the score fell since the iteration before, in centipawns
    /// (negative when it rose).
    pub score_drop: i32,
}

/// A parameter in hundredths (or percent) as a fraction.
fn hundredths(v: i32) -> f64 {
    v as f64 / 100.0
}

/// Bounds of the whole scale (its factors' weights are the `TM_`
/// parameters in engine::params).
const SCALE_MIN: f64 = 0.4;
const SCALE_MAX: f64 = 3.0;

/// The factor on the soft limit after an iteration: more time when the
/// best move took a small share of the nodes (the others were hard to
/// refute), when it has just changed, and when the score is falling; less
/// when one move has held the lead, cheaply, for many iterations.
pub fn soft_scale(c: &Confidence) -> f64 {
    let pivot = hundredths(TM_NODE_PIVOT());
    let share = if c.best_share.is_nan() {
        pivot
    } else {
        c.best_share.clamp(0.0, 1.0)
    };
    // The ranges keep the bounds apart (min at most 1, max at least 1).
    let nodes = (1.0 + hundredths(TM_NODE_SLOPE()) * (pivot - share))
        .clamp(hundredths(TM_NODE_MIN()), hundredths(TM_NODE_MAX()));
    let stable = hundredths(TM_STABLE_FLOOR())
        + hundredths(TM_STABLE_SPAN()) / (1.0 + c.stable_iterations as f64);
    let per_cp = 1.0 / TM_DROP_DIVISOR() as f64;
    let drop = 1.0 + c.score_drop.clamp(0, TM_DROP_MAX()) as f64 * per_cp;
    (nodes * stable * drop).clamp(SCALE_MIN, SCALE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(wtime: i64, winc: i64) -> GoLimits {
        GoLimits {
            wtime: Some(wtime),
            btime: Some(wtime),
            winc: Some(winc),
            binc: Some(winc),
            ..GoLimits::default()
        }
    }

    #[test]
    fn never_plans_past_the_clock() {
        for time in [0, 1, 5, 20, 100, 1000, 60_000, 3_600_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let mut l = clock(time, inc);
                    l.movestogo = mtg;
                    let p = plan(&l, Color::White, 30);
                    let hard = p.hard.unwrap().as_millis() as i64;
                    let soft = p.soft.unwrap().as_millis() as i64;
                    assert!(soft <= hard, "{time} {inc} {mtg:?}");
                    assert!(
                        hard <= (time - 30).max(1),
                        "{time} {inc} {mtg:?}: hard {hard}"
                    );
                }
            }
        }
    }

    #[test]
    fn one_second_plus_increment() {
        let p = plan(&clock(1000, 10), Color::White, 30);
        let soft = p.soft.unwrap().as_millis();
        let hard = p.hard.unwrap().as_millis();
        assert!((20..=60).contains(&soft), "{soft}");
        assert!(hard <= 400, "{hard}");
    }

    #[test]
    fn movetime_infinite_and_depth() {
        let l = GoLimits {
            movetime: Some(1000),
            ..GoLimits::default()
        };
        assert_eq!(
            plan(&l, Color::Black, 50),
            TimePlan {
                soft: None,
                hard: Some(Duration::from_millis(950))
            }
        );
        let l = GoLimits {
            infinite: true,
            movetime: Some(10),
            ..GoLimits::default()
        };
        assert_eq!(plan(&l, Color::White, 0), TimePlan::default());
        let l = GoLimits {
            depth: Some(5),
            ..GoLimits::default()
        };
        assert_eq!(plan(&l, Color::White, 0), TimePlan::default());
        // Negative times are zero, not a panic.
        let l = GoLimits {
            wtime: Some(-500),
            winc: Some(-3),
            ..GoLimits::default()
        };
        assert!(plan(&l, Color::White, 10).hard.is_some());
    }
    #[test]
    fn confidence_scales_the_soft_limit() {
        let settled = Confidence {
            best_share: 0.95,
            stable_iterations: 10,
            score_drop: -20,
        };
        let unsettled = Confidence {
            best_share: 0.3,
            stable_iterations: 0,
            score_drop: 80,
        };
        let neutral = Confidence {
            best_share: hundredths(TM_NODE_PIVOT()),
            stable_iterations: 4,
            score_drop: 0,
        };
        assert!(soft_scale(&settled) < 0.8, "{}", soft_scale(&settled));
        assert!(soft_scale(&unsettled) > 2.0, "{}", soft_scale(&unsettled));
        assert!((soft_scale(&neutral) - 1.0).abs() < 0.01);
        // Each signal moves the scale the right way on its own.
        let more_share = Confidence {
            best_share: 0.9,
            ..neutral
        };
        let less_stable = Confidence {
            stable_iterations: 0,
            ..neutral
        };
        let falling = Confidence {
            score_drop: 50,
            ..neutral
        };
        assert!(soft_scale(&more_share) < soft_scale(&neutral));
        assert!(soft_scale(&less_stable) > soft_scale(&neutral));
        assert!(soft_scale(&falling) > soft_scale(&neutral));
        // Absurd inputs stay in bounds.
        for share in [-1.0, 0.0, 1.0, 7.0, f64::NAN] {
            for drop in [i32::MIN, 0, i32::MAX] {
                let s = soft_scale(&Confidence {
                    best_share: share,
                    stable_iterations: u32::MAX,
                    score_drop: drop,
                });
                assert!((SCALE_MIN..=SCALE_MAX).contains(&s), "{share} {drop}: {s}");
            }
        }
    }
}
