//! The search threads and their control: the one place in the engine
//! where threads that search are started, stopped and joined.
//!
//! A [`SearchPool`] runs one [`SearchJob`] at a time on a thread of its
//! own (with Lazy SMP helper threads when asked for more than one thread)
//! and reports through a [`SearchReport`] that the caller supplies; it never
//! prints. Imports `chess` and the rest of `engine`, never the protocol.

use crate::chess::board::Board;
use crate::chess::types::Move;
use crate::engine::classic::{classic_search, ClassicResult};
use crate::engine::search::{IterationInfo, SearchControl, SearchLimits, Searcher};
use crate::engine::tt::TranspositionTable;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack of each search thread: the search recurses up to `MAX_PLY` deep
/// with large frames.
const SEARCH_STACK_BYTES: usize = 32 << 20;
/// How often a finished search that must wait for `stop` (or `ponderhit`)
/// looks again.
const HOLD_POLL: Duration = Duration::from_millis(1);

/// One search to run.
pub struct SearchJob {
    /// The root position.
    pub board: Board,
    pub limits: SearchLimits,
    /// The table shared by all threads of the search.
    pub tt: Arc<TranspositionTable>,
    /// Threads in all: the main search and `threads - 1` helpers.
    pub threads: usize,
    /// The 1993 engine (`Style Classic`) instead of the modern search.
    pub classic: bool,
    /// Starts in ponder mode: the clock runs only from `ponderhit`.
    pub ponder: bool,
    /// Holds the result back until `stop`, even when the search ends.
    pub infinite: bool,
}

/// Where a search's results go; called on the search thread.
pub trait SearchReport: Send + 'static {
    /// A finished line of an iteration of the modern search.
    fn iteration(&mut self, info: &IterationInfo);
    /// The Classic search's result, once it is over.
    fn classic(&mut self, result: &ClassicResult);
    /// The search is over: its move (`Move::NONE` with no legal move) and
    /// the expected reply (`Move::NONE` when unknown). Called once per job.
    fn finished(&mut self, best: Move, ponder: Move);
}

/// The search thread panicked; the pool starts over with a new searcher.
#[derive(Debug)]
pub struct SearchPanicked;

struct Running {
    handle: JoinHandle<Searcher>,
    ctl: Arc<SearchControl>,
}

/// The searcher (its histories kept from search to search) and the
/// thread running it, if any. The searcher is made at the first search.
#[derive(Default)]
pub struct SearchPool {
    searcher: Option<Searcher>,
    running: Option<Running>,
}

impl SearchPool {
    /// Starts `job` on a thread of its own; `stop` any earlier search
    /// first. An error means no thread started and nothing will be
    /// reported.
    pub fn start<R: SearchReport>(&mut self, job: SearchJob, report: R) -> std::io::Result<()> {
        debug_assert!(self.running.is_none(), "start while a search runs");
        let ctl = Arc::new(SearchControl::new(job.ponder));
        let searcher = self.searcher.take().unwrap_or_default();
        let thread_ctl = Arc::clone(&ctl);
        let spawned = if job.classic {
            spawn("classic".into(), move || {
                run_classic(job, &thread_ctl, report);
                searcher
            })
        } else {
            spawn("search".into(), move || {
                run_modern(searcher, job, &thread_ctl, report)
            })
        };
        match spawned {
            Ok(handle) => {
                self.running = Some(Running { handle, ctl });
                Ok(())
            }
            Err(e) => {
                self.searcher = Some(Searcher::new());
                Err(e)
            }
        }
    }

    /// Stops a running search (it still reports its result) and waits
    /// for its thread.
    pub fn stop(&mut self) -> Result<(), SearchPanicked> {
        let Some(r) = self.running.take() else {
            return Ok(());
        };
        r.ctl.stop();
        match r.handle.join() {
            Ok(s) => {
                self.searcher = Some(s);
                Ok(())
            }
            Err(_) => {
                self.searcher = Some(Searcher::new());
                Err(SearchPanicked)
            }
        }
    }

    /// Joins the thread of a search that has sent its result (finished
    /// threads are joined lazily).
    pub fn reap(&mut self) -> Result<(), SearchPanicked> {
        let finished = self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.ctl.is_done());
        if finished {
            self.stop()
        } else {
            Ok(())
        }
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The opponent played the pondered move: the clock starts.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.ctl.ponderhit();
        }
    }

    /// Forgets what earlier searches learnt (a new game); call after
    /// `stop`.
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }
}

fn spawn<T: Send + 'static>(
    name: String,
    body: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<JoinHandle<T>> {
    std::thread::Builder::new()
        .name(name)
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(body)
}

/// The modern search with Lazy SMP: helpers search the same position with
/// their own histories, sharing the table, until the main search ends.
fn run_modern<R: SearchReport>(
    mut searcher: Searcher,
    mut job: SearchJob,
    ctl: &Arc<SearchControl>,
    mut report: R,
) -> Searcher {
    let helpers = start_helpers(&job, ctl);
    let result = searcher.think(&mut job.board, &job.limits, ctl, &job.tt, &mut |info| {
        report.iteration(info)
    });
    ctl.halt_helpers();
    for h in helpers {
        let _ = h.join();
    }
    finish(ctl, job.infinite, &mut report, result.best, result.ponder);
    searcher
}

/// Starts `job.threads - 1` helper threads; a helper that cannot start is
/// left out.
fn start_helpers(job: &SearchJob, ctl: &Arc<SearchControl>) -> Vec<JoinHandle<()>> {
    let limits = SearchLimits {
        max_depth: job.limits.max_depth,
        tb: job.limits.tb.clone(),
        network: job.limits.network.clone(),
        ..SearchLimits::default()
    };
    (0..job.threads.saturating_sub(1))
        .filter_map(|i| {
            let mut board = job.board.clone();
            let limits = limits.clone();
            let (ctl, tt) = (Arc::clone(ctl), Arc::clone(&job.tt));
            spawn(format!("helper {}", i + 1), move || {
                Searcher::new_helper().think(&mut board, &limits, &ctl, &tt, &mut |_| {});
            })
            .ok()
        })
        .collect()
}

/// `Style Classic`: the 1993 fixed-depth material search and positional
/// second pass.
fn run_classic<R: SearchReport>(mut job: SearchJob, ctl: &SearchControl, mut report: R) {
    let r = classic_search(&mut job.board, &|| ctl.is_stopped());
    report.classic(&r);
    finish(ctl, job.infinite, &mut report, r.best, Move::NONE);
}

/// Ends a search: waits as the protocol asks (no result before `stop` for
/// an infinite search, before `ponderhit` or `stop` for a ponder search),
/// marks the search done and reports the result.
fn finish<R: SearchReport>(
    ctl: &SearchControl,
    infinite: bool,
    report: &mut R,
    best: Move,
    ponder: Move,
) {
    while (infinite || ctl.is_pondering()) && !ctl.is_stopped() {
        std::thread::sleep(HOLD_POLL);
    }
    // A caller may change the table as soon as it has the result: it then
    // joins this thread instead of waiting for the next search.
    ctl.mark_done();
    report.finished(best, ponder);
}
