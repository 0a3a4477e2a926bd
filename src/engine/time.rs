//! Turning `go` limits into deadlines: pure arithmetic, no clocks read.
//!
//! A *soft* limit says when not to start another iteration (the next one
//! would likely not finish); a *hard* limit stops the search wherever it
//! is. Both already have the GUI's `Move Overhead` taken off.

use crate::chess::types::Color;
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

/// Moves assumed still to play when the GUI does not say.
const DEFAULT_MOVES_TO_GO: i64 = 30;
/// Never plan for more than this many moves (keeps early moves useful).
const MAX_MOVES_TO_GO: i64 = 50;
/// Share of the increment spent on top of the time slice, in percent.
const INCREMENT_SHARE: i64 = 75;
/// The hard limit is at most this many soft slices...
const HARD_SLICES: i64 = 4;
/// ...and at most this percentage of the time left.
const HARD_SHARE_OF_LEFT: i64 = 40;
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
    if let Some(mt) = limits.movetime {
        let t = (mt.max(0) - overhead).max(MIN_THINK_MS);
        return TimePlan {
            soft: Some(ms(t)),
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
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, MAX_MOVES_TO_GO);
    // What may be spent at most on this move, whatever happens.
    let usable = (time - overhead - RESERVE_MS).max(MIN_THINK_MS);
    let slice = usable / mtg + inc * INCREMENT_SHARE / 100;
    let hard_cap = if mtg == 1 {
        usable
    } else {
        usable * HARD_SHARE_OF_LEFT / 100
    };
    let hard = (slice * HARD_SLICES).min(hard_cap).max(MIN_THINK_MS);
    let soft = slice.min(hard).max(MIN_THINK_MS);
    TimePlan {
        soft: Some(ms(soft)),
        hard: Some(ms(hard)),
    }
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
            plan(&l, Color::Black, 50).hard,
            Some(Duration::from_millis(950))
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
}
