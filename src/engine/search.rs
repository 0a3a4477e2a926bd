//! Iterative deepening, negamax alpha-beta with principal-variation
//! search, quiescence search, transposition table, move ordering.
//!
//! The search never prints: it reports each finished iteration through a
//! callback, and the UCI layer turns reports into `info` lines. The only
//! state shared with other threads is the [`SearchControl`] (atomic stop
//! and ponder flags) and the transposition table.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::engine::eval::{evaluate_cached, evaluate_lazy_exact, EvalCache, PawnTable};
use crate::engine::ordering::{
    below_killers, good_capture, keys, piece_to, Context, MoveOrdering, NO_PIECE_TO,
};
use crate::engine::params::*;
use crate::engine::picker::MovePicker;
pub use crate::engine::score::{mate_in, INFINITY, MATE, MATE_BOUND};
use crate::engine::score::{score_from_tt, score_to_tt};
use crate::engine::see::{see_below, SEE_VALUE};
use crate::engine::skill::{Skill, SKILL_LINES};
use crate::engine::syzygy::TbConfig;

mod correction;
mod tb;
use crate::engine::time::{soft_scale, Confidence, TimePlan};
use crate::engine::tt::{Bound, TranspositionTable};
use correction::CorrectionHistory;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;
/// The root move being searched is reported (UCI `currmove`) once a
/// search has run this long.
const CURRMOVE_AFTER: Duration = Duration::from_secs(3);
/// Aspiration windows that fail after this much search time are reported
/// as `lowerbound`/`upperbound` lines.
const BOUND_REPORT_AFTER: Duration = Duration::from_secs(1);
/// The static eval of a node in check (there is none).
const NO_EVAL: i32 = -INFINITY - 1;

/// Whether a static eval slot (of the stack or the table) holds a real
/// evaluation rather than `NO_EVAL`.
fn is_eval(e: i32) -> bool {
    e > -INFINITY
}

/// A static eval with its correction, kept clear of the mate scores.
#[inline(always)]
fn corrected(eval: i32, correction: i32) -> i32 {
    (eval + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// Nodes between looks at the clock and the node limit.
const POLL_INTERVAL: u64 = 1024;
/// What limits a search.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    pub max_depth: i32,
    pub max_nodes: u64,
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
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            max_depth: MAX_DEPTH,
            max_nodes: u64::MAX,
            mate: None,
            time: TimePlan::default(),
            searchmoves: Vec::new(),
            multipv: 1,
            skill: None,
            report_currmove: false,
            tb: None,
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

/// One finished line of an iteration, for `info` output.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based line number.
    pub multipv: usize,
    pub score: i32,
    /// `Some` when the score is only a bound.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
    /// `Some((move, 1-based number))` for a report of the root move now
    /// being searched, not of a finished line (score and pv then unset).
    pub currmove: Option<(Move, usize)>,
    /// Tablebase probes that gave a result, this search.
    pub tbhits: u64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `Move::NONE` when the side to move has no legal move.
    pub best: Move,
    pub ponder: Move,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    /// Nodes spent below this move, this search (the time manager's node
    /// share).
    nodes: u64,
}

/// What the iterations so far say about how settled the best move is.
#[derive(Clone, Copy, Debug, Default)]
struct Stability {
    /// The last finished iteration's best move and score.
    best: Move,
    score: i32,
    /// Iterations in a row that kept `best`.
    iterations: u32,
}

/// One search thread's state; its heuristics persist between searches
/// until [`Searcher::clear`].
pub struct Searcher {
    /// Killers and history: what orders the moves.
    ordering: MoveOrdering,
    /// The (piece, target) key of the move made at each ply
    /// ([`NO_PIECE_TO`] for a null move): the continuation histories' context.
    moved: [usize; MAX_PLY + 2],
    /// The move left out at each ply (the singular-extension test).
    excluded: [Move; MAX_PLY + 2],
    /// Pawn-structure cache of this thread's evaluations.
    pawns: PawnTable,
    /// Full evaluations of this thread's recent positions, by key.
    evals: EvalCache,
    /// What searches found the static eval to be worth.
    correction: CorrectionHistory,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// A move of an unfinished iteration that beat the first move's full
    /// search (with its score and line): better than the last finished
    /// iteration's choice if time runs out.
    interrupted_best: Option<RootMove>,
    /// Static eval by ply (`NO_EVAL` in check), for the improving flag.
    eval_stack: [i32; MAX_PLY + 2],
    pv_index: usize,
    root_ply: usize,
    root_depth: i32,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    limits: SearchLimits,
    /// A Lazy SMP helper: searches silently until halted, sharing only the
    /// transposition table with the main thread.
    helper: bool,
    /// Tablebase probes that gave a result, this search.
    tb_hits: u64,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

/// Late-move reduction of the `move_number`th move at `depth`:
/// `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR` (hundredths).
fn lmr_formula(depth: usize, move_number: usize) -> i32 {
    let base = LMR_BASE() as f64 / 100.0;
    let divisor = LMR_DIVISOR() as f64 / 100.0;
    (base + (depth as f64).ln() * (move_number as f64).ln() / divisor) as i32
}

/// The late-move reduction table, by depth and move number.
#[cfg(not(feature = "tune"))]
static LMR_TABLE: once_cell::sync::Lazy<[[i32; 64]; 64]> = once_cell::sync::Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    t
});

#[inline(always)]
fn lmr_reduction(depth: i32, move_number: usize) -> i32 {
    let (d, m) = ((depth as usize).min(63), move_number.min(63));
    // A tuning build computes it each time: its parameters may change.
    #[cfg(feature = "tune")]
    return if d == 0 || m == 0 {
        0
    } else {
        lmr_formula(d, m)
    };
    #[cfg(not(feature = "tune"))]
    LMR_TABLE[d][m]
}

/// True when the side to move has a piece besides king and pawns.
#[inline(always)]
fn has_pieces(board: &Board) -> bool {
    let us = board.side_to_move();
    [KNIGHT, BISHOP, ROOK, QUEEN]
        .iter()
        .any(|&k| board.count(us, k) > 0)
}

/// What a node's best score says about its true value.
#[inline(always)]
fn bound_of(best: i32, original_alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// True when a stored score with this bound settles the window.
#[inline(always)]
fn cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            ordering: MoveOrdering::new(MAX_PLY + 2),
            moved: [NO_PIECE_TO; MAX_PLY + 2],
            excluded: [Move::NONE; MAX_PLY + 2],
            pawns: PawnTable::new(),
            evals: EvalCache::new(),
            correction: CorrectionHistory::new(),
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            interrupted_best: None,
            eval_stack: [NO_EVAL; MAX_PLY + 2],
            pv_index: 0,
            root_ply: 0,
            root_depth: 0,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            limits: SearchLimits::default(),
            helper: false,
            tb_hits: 0,
        }
    }

    /// A helper thread's searcher (Lazy SMP).
    pub fn new_helper() -> Searcher {
        Searcher {
            helper: true,
            ..Searcher::new()
        }
    }

    /// Forgets killers and history (a new game).
    pub fn clear(&mut self) {
        self.ordering.clear();
        self.correction.clear();
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `board` within `limits`, reporting each finished line.
    pub fn think(
        &mut self,
        board: &mut Board,
        limits: &SearchLimits,
        ctl: &SearchControl,
        tt: &TranspositionTable,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> SearchResult {
        self.start_search(board, limits, tt);
        let legal = board.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        if moves.is_empty() {
            let score = if board.in_check() { -MATE } else { 0 };
            return SearchResult {
                best: Move::NONE,
                ponder: Move::NONE,
                score,
                depth: 0,
                nodes: 0,
            };
        }
        // Tablebases at the root: only the moves that keep the best outcome.
        let (tb_root, instant) = self.tb_at_root(board, limits, &mut moves, report);
        if let Some(r) = instant {
            return r;
        }
        let mut relay = |info: &IterationInfo| report(&tb::with_tb_score(info, tb_root));
        let report: &mut dyn FnMut(&IterationInfo) = &mut relay;
        // Initial order: hash move, then the usual ordering.
        let tt_move = tt.probe(board.hash()).map_or(Move::NONE, |e| e.mv);
        let mut cx = Context::ROOT;
        cx.fill_threats(board);
        let mut keyed: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| (self.ordering.score(board, m, tt_move, 0, cx), m))
            .collect();
        keyed.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        self.root_moves = keyed
            .into_iter()
            .map(|(_, mv)| RootMove {
                mv,
                score: -INFINITY,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
        let mut stability = Stability::default();

        let mut multipv = limits.multipv;
        let mut max_depth = limits.max_depth.clamp(1, MAX_DEPTH);
        if let Some(skill) = limits.skill {
            multipv = multipv.max(SKILL_LINES);
            max_depth = max_depth.min(skill.max_depth());
        }
        let multipv = multipv.clamp(1, self.root_moves.len());
        let mut last_lines: Vec<(Move, i32)> = Vec::new();
        let mut result = SearchResult {
            best: self.root_moves[0].mv,
            ponder: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=max_depth {
            self.root_depth = depth;
            self.interrupted_best = None;
            let mut lines = Vec::with_capacity(multipv);
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                let score = self.aspiration(board, depth, ctl, tt, report);
                if self.aborted {
                    break;
                }
                // Best first among the lines not yet taken; moves that did
                // not raise alpha keep their previous order.
                self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
                let rm = &self.root_moves[pv_index];
                lines.push(IterationInfo {
                    depth,
                    seldepth: self.seldepth,
                    multipv: pv_index + 1,
                    score,
                    bound: None,
                    nodes: self.nodes + ctl.helper_nodes(),
                    time: ctl.elapsed(),
                    hashfull: tt.hashfull(),
                    pv: rm.pv.clone(),
                    currmove: None,
                    tbhits: self.tb_hits,
                });
            }
            if self.aborted {
                if multipv == 1 && limits.skill.is_none() {
                    self.keep_interrupted_best(&mut result);
                }
                break;
            }
            if multipv > 1 {
                self.sort_lines(&mut lines);
            }
            for line in &lines {
                report(line);
            }
            last_lines = self.root_moves[..multipv]
                .iter()
                .map(|r| (r.mv, r.score))
                .collect();
            let best = &self.root_moves[0];
            result = SearchResult {
                best: best.mv,
                ponder: best.pv.get(1).copied().unwrap_or(Move::NONE),
                score: best.score,
                depth,
                nodes: self.nodes,
            };
            if let Some(n) = limits.mate {
                if mate_in(best.score).is_some_and(|m| m > 0 && m <= n) {
                    break;
                }
            }
            if self.out_of_time(depth, &mut stability, limits, ctl) {
                break;
            }
        }
        result.nodes = self.nodes;
        if let Some(s) = tb_root.filter(|_| mate_in(result.score).is_none()) {
            result.score = s;
        }
        if let Some(skill) = limits.skill {
            if let Some(mv) = skill.choose(&last_lines) {
                if mv != result.best {
                    result.best = mv;
                    result.ponder = Move::NONE;
                    result.score = last_lines.iter().find(|l| l.0 == mv).map_or(0, |l| l.1);
                }
            }
        }
        if result.ponder.is_none() {
            result.ponder = self.ponder_from_tt(board, result.best, tt);
        }
        result
    }

    /// After a finished iteration: whether to stop rather than start the
    /// next. The next iteration takes about twice as long as all before
    /// it, so it is not started past half the soft limit, which is
    /// stretched or shrunk by how settled the best move is
    /// ([`soft_scale`]) and never beyond the hard limit.
    fn out_of_time(
        &self,
        depth: i32,
        stability: &mut Stability,
        limits: &SearchLimits,
        ctl: &SearchControl,
    ) -> bool {
        let best = &self.root_moves[0];
        let confidence = Confidence {
            best_share: best.nodes as f64 / self.root_nodes().max(1) as f64,
            stable_iterations: if best.mv == stability.best {
                stability.iterations + 1
            } else {
                0
            },
            score_drop: if depth > 1 {
                stability.score.saturating_sub(best.score)
            } else {
                0
            },
        };
        *stability = Stability {
            best: best.mv,
            score: best.score,
            iterations: confidence.stable_iterations,
        };
        if ctl.is_pondering() {
            return false;
        }
        let Some(soft) = limits.time.soft else {
            return false;
        };
        if self.root_moves.len() == 1 && depth >= 4 {
            return true;
        }
        let mut budget = soft.mul_f64(soft_scale(&confidence));
        if let Some(hard) = limits.time.hard {
            budget = budget.min(hard);
        }
        ctl.clock_elapsed() * 2 >= budget
    }

    /// After an unfinished iteration: a move that beat the first one's full
    /// search is better than the last finished iteration's choice. (Only
    /// for one line: a MultiPV or skill search keeps its finished lines.)
    fn keep_interrupted_best(&mut self, result: &mut SearchResult) {
        if let Some(rm) = self.interrupted_best.take() {
            result.best = rm.mv;
            result.ponder = rm.pv.get(1).copied().unwrap_or(Move::NONE);
            result.score = rm.score;
        }
    }

    /// Nodes spent below all root moves, this search.
    fn root_nodes(&self) -> u64 {
        self.root_moves.iter().map(|r| r.nodes).sum()
    }

    /// Resets the counters of a new search.
    fn start_search(&mut self, board: &Board, limits: &SearchLimits, tt: &TranspositionTable) {
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.limits = limits.clone();
        self.root_ply = board.ply_count();
        self.tb_hits = 0;
        tt.new_search();
    }

    /// The quiescence search's score of `board` with a full window, side to
    /// move's view: the static evaluation unless captures change it (the
    /// tuner keeps the positions where the two agree).
    pub fn quiescence_score(&mut self, board: &mut Board, tt: &TranspositionTable) -> i32 {
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.limits = SearchLimits::default();
        self.root_ply = board.ply_count();
        // Depth 0: `poll` applies no node or time limit.
        self.root_depth = 0;
        let ctl = SearchControl::new(false);
        self.quiescence(board, 0, -INFINITY, INFINITY, None, &ctl, tt)
    }

    /// The reply stored in the table after `best`, if legal.
    fn ponder_from_tt(&self, board: &mut Board, best: Move, tt: &TranspositionTable) -> Move {
        if best.is_none() {
            return Move::NONE;
        }
        board.make(best);
        let reply = tt
            .probe(board.hash())
            .map(|e| e.mv)
            .filter(|&m| board.is_legal(m))
            .unwrap_or(Move::NONE);
        board.unmake();
        reply
    }

    /// Time, node and stop checks.
    #[inline(always)]
    fn poll(&mut self, ctl: &SearchControl) {
        if !self.nodes.is_multiple_of(POLL_INTERVAL) {
            return;
        }
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

    /// One root search of `depth` in a window around the last iteration's
    /// score for this line, widened until the score falls inside it.
    fn aspiration(
        &mut self,
        board: &mut Board,
        depth: i32,
        ctl: &SearchControl,
        tt: &TranspositionTable,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> i32 {
        let last = self.root_moves[self.pv_index].score;
        if depth < ASPIRATION_MIN_DEPTH() || last.abs() >= MATE_BOUND {
            return self.root_search(board, depth, -INFINITY, INFINITY, ctl, tt, report);
        }
        let mut delta = ASPIRATION_DELTA();
        let mut alpha = (last - delta).max(-INFINITY);
        let mut beta = (last + delta).min(INFINITY);
        loop {
            let score = self.root_search(board, depth, alpha, beta, ctl, tt, report);
            if self.aborted {
                return score;
            }
            // The move that failed high (or the first, failing low) leads
            // the re-search.
            self.root_moves[self.pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if (score <= alpha || score >= beta) && ctl.elapsed() >= BOUND_REPORT_AFTER {
                self.report_bound(depth, score, score >= beta, ctl, tt, report);
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 1_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// MultiPV: each line was searched after the ones above it, against a
    /// table they had filled, so a later line can come back higher. Orders
    /// the lines (and their root moves) best first, ties in search order,
    /// numbered again and all with the counts of the whole iteration.
    fn sort_lines(&mut self, lines: &mut [IterationInfo]) {
        let (nodes, time, hashfull) = lines
            .last()
            .map_or((0, Duration::ZERO, 0), |l| (l.nodes, l.time, l.hashfull));
        self.root_moves[..lines.len()].sort_by_key(|r| std::cmp::Reverse(r.score));
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        for (k, line) in lines.iter_mut().enumerate() {
            line.multipv = k + 1;
            line.nodes = nodes;
            line.time = time;
            line.hashfull = hashfull;
        }
    }

    /// A line for a window that failed in a long search: the score is
    /// only a bound (the GUI sees the search is busy and which way it
    /// leans). Not from helper threads.
    fn report_bound(
        &self,
        depth: i32,
        score: i32,
        lower: bool,
        ctl: &SearchControl,
        tt: &TranspositionTable,
        report: &mut dyn FnMut(&IterationInfo),
    ) {
        if self.helper {
            return;
        }
        report(&IterationInfo {
            depth,
            seldepth: self.seldepth,
            multipv: self.pv_index + 1,
            score,
            bound: Some(if lower { Bound::Lower } else { Bound::Upper }),
            nodes: self.nodes + ctl.helper_nodes(),
            time: ctl.elapsed(),
            hashfull: tt.hashfull(),
            pv: self.root_moves[self.pv_index].pv.clone(),
            currmove: None,
            tbhits: self.tb_hits,
        });
    }

    /// The root: the moves of `root_moves[pv_index..]` in order, in the
    /// window (`alpha`, `beta`).
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        board: &mut Board,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ctl: &SearchControl,
        tt: &TranspositionTable,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> i32 {
        let original_alpha = alpha;
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        for i in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.limits.report_currmove && !self.helper && ctl.elapsed() >= CURRMOVE_AFTER {
                report(&IterationInfo {
                    depth,
                    seldepth: self.seldepth,
                    multipv: self.pv_index + 1,
                    score: 0,
                    bound: None,
                    nodes: self.nodes + ctl.helper_nodes(),
                    time: ctl.elapsed(),
                    hashfull: 0,
                    pv: Vec::new(),
                    currmove: Some((mv, i + 1)),
                    tbhits: self.tb_hits,
                });
            }
            self.moved[0] = piece_to(board, mv);
            let nodes_before = self.nodes;
            board.make(mv);
            self.nodes += 1;
            let gives_check = board.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let score = if i == self.pv_index {
                -self.negamax(board, new_depth, 1, -beta, -alpha, gives_check, ctl, tt)
            } else {
                let s = -self.negamax(
                    board,
                    new_depth,
                    1,
                    -alpha - 1,
                    -alpha,
                    gives_check,
                    ctl,
                    tt,
                );
                if s > alpha && !self.aborted {
                    -self.negamax(board, new_depth, 1, -beta, -alpha, gives_check, ctl, tt)
                } else {
                    s
                }
            };
            board.unmake();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.aborted {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_index || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
                if i > self.pv_index && score > alpha {
                    self.interrupted_best = Some(rm.clone());
                }
            } else {
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        if self.pv_index == 0 {
            let best_mv = self.root_moves[self.pv_index..]
                .iter()
                .max_by_key(|r| r.score)
                .map_or(Move::NONE, |r| r.mv);
            tt.store(
                board.hash(),
                best_mv,
                score_to_tt(best, 0),
                0,
                depth,
                bound_of(best, original_alpha, beta),
            );
        }
        best
    }

    /// Makes `mv` at `ply` of the search, noting the piece and its target
    /// for the continuation histories. `predicted` is the key
    /// [`Board::key_after`] gave before the move was made, whose bucket and
    /// evaluation-cache entry are on their way already; when the move's key
    /// came out different (castling, en passant, promotions, changed
    /// rights), the right ones are fetched now.
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut Board,
        mv: Move,
        ply: usize,
        predicted: u64,
        tt: &TranspositionTable,
    ) {
        self.moved[ply] = piece_to(board, mv);
        board.make(mv);
        if board.hash() != predicted {
            self.prefetch_child(board.hash(), tt);
        }
    }

    /// Starts fetching what the position of `key` will need first: its
    /// hash bucket and its evaluation-cache entry (it evaluates before it
    /// probes, so both are wanted at once).
    #[inline(always)]
    fn prefetch_child(&self, key: u64, tt: &TranspositionTable) {
        tt.prefetch(key);
        self.evals.prefetch(key);
    }

    /// `in_check`: whether the side to move is in check, which every
    /// caller knows (from `gives_check` of the move just made), so the node
    /// need not test it.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        board: &mut Board,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        in_check: bool,
        ctl: &SearchControl,
        tt: &TranspositionTable,
    ) -> i32 {
        debug_assert_eq!(in_check, board.in_check());
        if depth <= 0 {
            return self.quiescence(board, ply, alpha, beta, Some(in_check), ctl, tt);
        }
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.poll(ctl);
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;

        if board.is_repetition(self.root_ply)
            || board.halfmove_clock() >= 100
            || board.insufficient_material()
        {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_cached(board, &mut self.pawns, &mut self.evals);
        }
        // Mate distance pruning: no line from here beats a shorter mate.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = board.hash();
        // A search without this move (the singular test) shares the node's
        // position but not its value: it neither uses nor stores the entry's
        // score.
        let excluded = self.excluded[ply];
        let mut tt_move = Move::NONE;
        let mut tt_eval = NO_EVAL;
        // The static eval first, then the table: the parent asked for this
        // node's bucket before it made the move, and the evaluation (needed
        // unless the table answers) gives the fetch that much longer to
        // arrive before the probe waits for it. The same value as after
        // the probe (the evaluation depends on the position alone), wasted
        // when the entry cuts off or carries the eval: 6% more nodes a
        // second (README, "Nodes per second against Toga II").
        let early_eval = if in_check {
            NO_EVAL
        } else {
            evaluate_cached(board, &mut self.pawns, &mut self.evals)
        };
        let tt_entry = tt.probe(key);
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            tt_eval = e.eval;
            let score = score_from_tt(e.score, ply);
            if excluded.is_none()
                && !pv_node
                && e.depth >= depth
                && cuts(e.bound, score, alpha, beta)
            {
                return score;
            }
        }

        // Tablebases, right after a capture or pawn move.
        if self.limits.tb.is_some() && excluded.is_none() {
            if let Some(score) = self.probe_tb(board, depth, ply, alpha, beta, tt) {
                return score;
            }
        }

        if tt_move.is_none() && depth >= IIR_MIN_DEPTH() {
            depth -= 1;
        }

        // The table keeps the evaluation itself; the search prunes by the
        // corrected one.
        let raw_eval = if in_check {
            NO_EVAL
        } else if is_eval(tt_eval) {
            tt_eval
        } else {
            early_eval
        };
        let eval = if in_check {
            NO_EVAL
        } else {
            corrected(raw_eval, self.correction.correction(board))
        };
        self.eval_stack[ply] = eval;
        // Better than two plies ago: the position is going our way, so
        // prune less eagerly... or more (reverse futility).
        let improving = !in_check && ply >= 2 && eval > self.eval_stack[ply - 2];

        // Reverse futility: far enough above beta near the leaves, the
        // opponent will not get back in time.
        if !pv_node
            && !in_check
            && depth <= RFP_MAX_DEPTH()
            && beta.abs() < MATE_BOUND
            && eval - RFP_MARGIN() * (depth - improving as i32) >= beta
        {
            return eval;
        }

        // Null move: if passing still fails high, a real move will too.
        // Not in check, not at PV nodes, not twice in a row, and not with
        // only pawns left (zugzwang is common there).
        if !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= NULL_MOVE_MIN_DEPTH()
            && beta.abs() < MATE_BOUND
            && has_pieces(board)
            && !board.last_move().is_some_and(|m| m.is_none())
            && eval >= beta
        {
            let r = NULL_MOVE_BASE_REDUCTION()
                + depth / NULL_MOVE_DEPTH_DIVISOR()
                + ((eval - beta) / NULL_MOVE_EVAL_DIVISOR()).min(NULL_MOVE_EVAL_MAX());
            self.moved[ply] = NO_PIECE_TO;
            board.make_null();
            tt.prefetch(board.hash());
            // Passing leaves the opponent out of check: our king was not
            // in check, nor could theirs be.
            let score = -self.negamax(
                board,
                depth - 1 - r,
                ply + 1,
                -beta,
                -beta + 1,
                false,
                ctl,
                tt,
            );
            board.unmake_null();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }

        let mut cx = self.context(ply);
        let mut picker = MovePicker::new(tt_move, self.ordering.killers(ply), false, in_check);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NONE;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();
        let mut i = usize::MAX;
        while let Some((mv, key)) = picker.next(board, &self.ordering, &mut cx) {
            // `i`: how many legal moves came before this one.
            i = i.wrapping_add(1);
            if mv == excluded {
                continue;
            }
            let quiet = board.is_quiet(mv);
            let stat = if quiet {
                cx.fill_threats(board);
                self.ordering.quiet_stat(board, mv, cx)
            } else {
                0
            };

            // Shallow pruning, once a move has been found that does not
            // lose to a mate; never at PV nodes or in check.
            let prunable = !pv_node && !in_check && best > -MATE_BOUND;
            if quiet && prunable {
                let lmp_limit = (LMP_BASE() + depth * depth) / (2 - improving as i32);
                if depth <= LMP_MAX_DEPTH() && quiets_tried.len() as i32 >= lmp_limit {
                    // So will every later quiet move be (the count only
                    // grows): the picker need not produce them.
                    picker.skip_quiets();
                    continue;
                }
                // History pruning: a quiet move the histories call bad.
                if depth <= HISTORY_PRUNE_MAX_DEPTH()
                    && stat < -HISTORY_PRUNE_MARGIN() * depth
                    && !self.ordering.is_killer(ply, mv)
                {
                    continue;
                }
            }
            let futile = quiet
                && prunable
                && depth <= FUTILITY_MAX_DEPTH()
                && eval + FUTILITY_BASE() + FUTILITY_MARGIN() * depth <= alpha;
            let gives_check = board.gives_check(mv);
            if futile && !gives_check {
                continue;
            }
            // Moves that lose material by exchange near the leaves (tested
            // after futility, which is cheaper).
            if prunable && depth <= SEE_PRUNE_MAX_DEPTH() && i > 0 {
                let threshold = if quiet {
                    -SEE_PRUNE_QUIET() * depth * depth
                } else {
                    -SEE_PRUNE_CAPTURE() * depth
                };
                if below_killers(key) && see_below(board, mv, threshold) {
                    continue;
                }
            }
            // The move will be searched: the child's bucket and its
            // evaluation-cache entry start on their way from memory, and
            // have the move and the child's evaluation to arrive in. (Asked
            // for as soon as the move was picked, before the pruning, they
            // came sooner but pruned moves fetched for nothing: 1-2% slower
            // since the child evaluates before it probes.)
            let predicted = board.key_after(mv);
            self.prefetch_child(predicted, tt);
            let mut extension = (gives_check && (ply as i32) < 2 * self.root_depth) as i32;
            // Singular extension: is the hash move much better than all
            // the others?
            if let Some(e) = tt_entry.filter(|e| {
                mv == tt_move
                    && depth >= SE_MIN_DEPTH()
                    && excluded.is_none()
                    && (ply as i32) < 2 * self.root_depth
                    && e.depth >= depth - SE_TT_DEPTH_MARGIN()
                    && e.bound != Bound::Upper
            }) {
                let tt_score = score_from_tt(e.score, ply);
                if tt_score.abs() < MATE_BOUND {
                    let singular_beta = tt_score - SE_MARGIN() * depth;
                    self.excluded[ply] = mv;
                    let s = self.negamax(
                        board,
                        (depth - 1) / 2,
                        ply,
                        singular_beta - 1,
                        singular_beta,
                        in_check,
                        ctl,
                        tt,
                    );
                    self.excluded[ply] = Move::NONE;
                    if self.aborted {
                        return 0;
                    }
                    if s < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }
            self.play(board, mv, ply, predicted, tt);
            let new_depth = depth - 1 + extension;
            // Late quiet moves of a well-ordered list rarely matter: search
            // them shallower first, in full only if they beat alpha.
            let mut reduction = 0;
            if quiet
                && !in_check
                && !gives_check
                && depth >= LMR_MIN_DEPTH()
                && i >= LMR_MIN_MOVES() as usize
            {
                reduction = lmr_reduction(depth, i);
                if pv_node {
                    reduction -= 1;
                }
                if self.ordering.is_killer(ply, mv) {
                    reduction -= 1;
                }
                // Good history reduces less, bad history more.
                reduction -=
                    (stat / LMR_HISTORY_DIVISOR()).clamp(-LMR_HISTORY_MAX(), LMR_HISTORY_MAX());
                reduction = reduction.clamp(0, new_depth - 1);
            }
            let score = if i == 0 {
                -self.negamax(
                    board,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    gives_check,
                    ctl,
                    tt,
                )
            } else {
                let mut s = -self.negamax(
                    board,
                    new_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    gives_check,
                    ctl,
                    tt,
                );
                if reduction > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(
                        board,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        gives_check,
                        ctl,
                        tt,
                    );
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(
                        board,
                        new_depth,
                        ply + 1,
                        -beta,
                        -alpha,
                        gives_check,
                        ctl,
                        tt,
                    )
                } else {
                    s
                }
            };
            board.unmake();
            if self.aborted {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if quiet {
                            self.ordering
                                .reward_quiet(board, mv, ply, depth, &quiets_tried, cx);
                            self.ordering
                                .reward_captures(board, None, depth, &captures_tried);
                        } else {
                            self.ordering
                                .reward_captures(board, Some(mv), depth, &captures_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(mv);
            } else {
                let _ = captures_tried.try_push(mv);
            }
        }

        if i == usize::MAX {
            // No legal move: mate or stalemate.
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if !excluded.is_none() {
            // Every other move was pruned or skipped: no verdict.
            return if best == -INFINITY { alpha } else { best };
        }
        let bound = bound_of(best, original_alpha, beta);
        // A quiet best move (or none) whose score lies beyond the eval on
        // the side its bound vouches for: the eval was wrong by that much.
        if !in_check
            && (best_move.is_none() || board.is_quiet(best_move))
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            self.correction.update(board, depth, best, eval);
        }
        tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            raw_eval,
            depth,
            bound,
        );
        best
    }

    /// `in_check`: whether the side to move is in check, when the caller
    /// knows (the main search does; tested here when needed otherwise).
    #[allow(clippy::too_many_arguments)]
    fn quiescence(
        &mut self,
        board: &mut Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: Option<bool>,
        ctl: &SearchControl,
        tt: &TranspositionTable,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.poll(ctl);
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if board.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_cached(board, &mut self.pawns, &mut self.evals);
        }
        let key = board.hash();
        let in_check = in_check.unwrap_or_else(|| board.in_check());
        // The static eval before the table's answer, as in `negamax`: the
        // same lazy or full value as after it (the window is not changed
        // by the probe), and the bucket's fetch has the evaluation's time
        // to arrive.
        let correction = if in_check {
            0
        } else {
            self.correction.correction(board)
        };
        let lazy = (!in_check).then(|| {
            evaluate_lazy_exact(
                board,
                alpha - correction,
                beta - correction,
                &mut self.pawns,
                &mut self.evals,
            )
        });
        let mut tt_move = Move::NONE;
        let mut tt_eval = NO_EVAL;
        if let Some(e) = tt.probe(key) {
            tt_move = e.mv;
            tt_eval = e.eval;
            let score = score_from_tt(e.score, ply);
            if beta - alpha == 1 && cuts(e.bound, score, alpha, beta) {
                return score;
            }
        }

        let original_alpha = alpha;
        let mut best;
        let mut stand_pat = -INFINITY;
        // What the table learns: the full static eval, never a lazy one.
        let mut eval_to_store = NO_EVAL;
        if let Some((score, exact)) = lazy {
            if is_eval(tt_eval) {
                stand_pat = corrected(tt_eval, correction);
                eval_to_store = tt_eval;
            } else {
                stand_pat = corrected(score, correction);
                if exact {
                    eval_to_store = score;
                }
            }
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        } else {
            best = -MATE + ply as i32;
        }
        let mut cx = self.context(ply);
        // Outside check only the winning captures (and the hash move if it
        // captures); in check every evasion.
        let mut picker = MovePicker::new(tt_move, self.ordering.killers(ply), !in_check, in_check);
        let mut best_move = Move::NONE;
        while let Some((mv, key)) = picker.next(board, &self.ordering, &mut cx) {
            if !in_check {
                let promo = mv.promo();
                if promo != EMPTY && promo != QUEEN {
                    continue;
                }
                let victim = board.captured_piece(mv);
                let gain = if victim == EMPTY {
                    0
                } else {
                    SEE_VALUE[kind_index(kind_of(victim))]
                };
                if promo == EMPTY && stand_pat + gain + DELTA_MARGIN() <= alpha {
                    continue;
                }
            }
            // As in `negamax`: the child's bucket and evaluation-cache
            // entry are fetched during SEE.
            let predicted = board.key_after(mv);
            self.prefetch_child(predicted, tt);
            // SEE says it loses material (the hash move is tried anyway).
            if !in_check && key != keys::TT_MOVE && !good_capture(board, mv) {
                continue;
            }
            self.play(board, mv, ply, predicted, tt);
            let score = -self.quiescence(board, ply + 1, -beta, -alpha, None, ctl, tt);
            board.unmake();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = bound_of(best, original_alpha, beta);
        tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            eval_to_store,
            0,
            bound,
        );
        best
    }

    /// The continuation-history context of a node at `ply`: the moves made
    /// one and two plies before it.
    #[inline(always)]
    fn context(&self, ply: usize) -> Context {
        Context::new(
            if ply >= 1 {
                self.moved[ply - 1]
            } else {
                NO_PIECE_TO
            },
            if ply >= 2 {
                self.moved[ply - 2]
            } else {
                NO_PIECE_TO
            },
        )
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child = (self.pv_len[ply + 1]).min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=child].copy_from_slice(&tail[0][..child]);
        self.pv_len[ply] = child + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_conversion() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-MATE + 2), Some(-1));
        assert_eq!(mate_in(-MATE + 4), Some(-2));
        assert_eq!(mate_in(150), None);
    }
}
