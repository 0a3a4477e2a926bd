//! What a tour search is asked for ([`SearchConfig`]) and what it reports
//! back ([`Progress`] while running, [`SearchSummary`] at the end).
//!
//! Imports only std and the other `tour` files.

use super::goal::Goal;
use super::square::Square;
use super::PROGRESS_INTERVAL;
use std::time::Duration;

/// What to search for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Square of move 1.
    pub start: Square,
    /// Only closed (re-entrant) tours.
    pub closed: bool,
    /// Sum constraints on the move numbers.
    pub goal: Goal,
    /// Stop after this many tours.
    pub max_tours: u64,
    /// Give up after this long; `None` searches until done.
    pub time_limit: Option<Duration>,
    /// Interval between progress reports.
    pub progress_interval: Duration,
}

impl SearchConfig {
    /// One open tour of any kind from `start`, no time limit.
    pub fn new(start: Square) -> SearchConfig {
        SearchConfig {
            start,
            closed: false,
            goal: Goal::Any,
            max_tours: 1,
            time_limit: None,
            progress_interval: PROGRESS_INTERVAL,
        }
    }
}

/// Progress of a running search, reported about every `progress_interval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions (partial tours) visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Longest partial tour reached, in squares.
    pub deepest: usize,
    /// Tours found so far.
    pub tours: u64,
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The requested number of tours was found.
    CountReached,
    /// Every alternative was tried.
    Exhausted,
    /// The time limit ran out.
    TimeLimit,
    /// The tour callback asked to stop.
    Cancelled,
}

/// Outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// Tours found.
    pub tours: u64,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Longest partial tour reached, in squares.
    pub deepest: usize,
    /// Why the search stopped.
    pub stop: StopReason,
}
