//! What limits a search and the control it shares with the thread that
//! started it (the stop, ponder and helper flags), and the poll of both
//! every [`POLL_INTERVAL`] nodes. Whether to start another iteration is
//! the root's call (`root::out_of_time`).

use super::{Search, MAX_DEPTH};
use crate::chess::types::Move;
use crate::engine::nnue::Network;
use crate::engine::skill::Skill;
use crate::engine::syzygy::TbConfig;
use crate::engine::time::TimePlan;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Nodes between looks at the clock and the node limit.
const POLL_INTERVAL: u64 = 1024;

/// What limits a search.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    pub max_depth: i32,
    /// The hard node limit: the search stops at once past it.
    pub max_nodes: u64,
    /// A soft node limit: no iteration is started once the search has
    /// counted this many nodes (the one under way finishes, within
    /// `max_nodes`). Self-play's (`selfplay --soft-nodes`); `None` in play.
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<i32>,
    pub time: TimePlan,
    /// Only these root moves (all when empty).
    pub searchmoves: Vec<Move>,
    /// Number of best lines to find.
    pub multipv: usize,
    /// Play weaker than full strength (see [`Skill`]).
    pub skill: Option<Skill>,
    /// Report the root move being searched once a search has run
    /// `CURRMOVE_AFTER` (for the UCI `currmove` lines).
    pub report_currmove: bool,
    /// Endgame tablebases, when `SyzygyPath` names some.
    pub tb: Option<TbConfig>,
    /// The network that evaluates (`Use NNUE`); `None`: the hand-written
    /// evaluation.
    pub network: Option<Arc<Network>>,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            max_depth: MAX_DEPTH,
            max_nodes: u64::MAX,
            soft_nodes: None,
            mate: None,
            time: TimePlan::default(),
            searchmoves: Vec::new(),
            multipv: 1,
            skill: None,
            report_currmove: false,
            tb: None,
            network: None,
        }
    }
}

impl SearchLimits {
    /// A fixed-depth search with no clock.
    pub fn depth(d: i32) -> SearchLimits {
        SearchLimits {
            max_depth: d.clamp(1, MAX_DEPTH),
            ..SearchLimits::default()
        }
    }
}

/// Flags shared between a search and the thread that started it.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Instant,
    /// Nanoseconds after `start` at which the clock began to run (set by
    /// `ponderhit`).
    clock_start_ns: AtomicU64,
    /// Tells helper threads (Lazy SMP) that the main search is over.
    halt_helpers: AtomicBool,
    /// Nodes searched by helper threads, counted in steps of the poll
    /// interval.
    helper_nodes: AtomicU64,
    /// Set when the result is about to be sent: the thread only has to end.
    done: AtomicBool,
}

impl SearchControl {
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Instant::now(),
            clock_start_ns: AtomicU64::new(0),
            halt_helpers: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            done: AtomicBool::new(false),
        }
    }

    /// Marks the search as over (its bestmove is being sent).
    pub fn mark_done(&self) {
        self.done.store(true, Ordering::SeqCst);
    }

    /// Whether the search is over and its thread only has to end.
    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Ends the helper threads' searches (the main search has finished).
    pub fn halt_helpers(&self) {
        self.halt_helpers.store(true, Ordering::SeqCst);
    }

    /// Nodes counted so far by helper threads.
    pub fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Ordering::Relaxed)
    }

    /// The opponent played the pondered move: our clock runs from now.
    pub fn ponderhit(&self) {
        let now = self.start.elapsed().as_nanos() as u64;
        self.clock_start_ns.store(now, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time on our clock: since the start, or since `ponderhit`.
    pub fn clock_elapsed(&self) -> Duration {
        let from = Duration::from_nanos(self.clock_start_ns.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(from)
    }
}

impl Search<'_> {
    /// Time, node and stop checks.
    #[inline(always)]
    pub(super) fn poll(&mut self) {
        if !self.nodes.is_multiple_of(POLL_INTERVAL) {
            return;
        }
        let ctl = self.ctl;
        if self.helper {
            ctl.helper_nodes.fetch_add(POLL_INTERVAL, Ordering::Relaxed);
            if ctl.is_stopped() || ctl.halt_helpers.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            return;
        }
        if ctl.is_stopped() {
            self.aborted = true;
            return;
        }
        // The first iteration always finishes (it takes microseconds), so
        // even a starved search returns a searched move.
        if self.root_depth <= 1 {
            return;
        }
        if self.nodes >= self.limits.max_nodes {
            self.aborted = true;
            return;
        }
        if let Some(hard) = self.limits.time.hard {
            if !ctl.is_pondering() && ctl.clock_elapsed() >= hard {
                self.aborted = true;
            }
        }
    }
}
