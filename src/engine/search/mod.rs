//! Iterative deepening, negamax alpha-beta with principal-variation
//! search, quiescence search, transposition table, move ordering.
//!
//! The search never prints: it reports each finished iteration through a
//! callback, and the UCI layer turns reports into `info` lines. The only
//! state shared with other threads is the [`SearchControl`] (atomic stop
//! and ponder flags) and the transposition table.
//!
//! Inside: `limits` (what limits a search, the control shared with the
//! thread that started it, and the checks of both), `root` (iterative
//! deepening, aspiration windows, the root moves and MultiPV), `negamax`
//! and `quiescence` (the node searches), `tb` (the tablebases' use) and
//! `correction` (correction history). This file holds the public
//! [`Searcher`] (what a search thread keeps from one search to the next),
//! the private `Search` (one search under way, holding what every node
//! needs so that nothing of it is passed down from node to node), the
//! reports and the small helpers the node searches share.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::engine::eval::{evaluate, evaluate_cached, judges_bare_king, EvalCache, PawnTable};
use crate::engine::nnue::{same_network, Accumulators, Delta, Network};
use crate::engine::ordering::{piece_to, Context, MoveOrdering, NO_PIECE_TO};
pub use crate::engine::score::{mate_in, INFINITY, MATE, MATE_BOUND};
use crate::engine::tt::{Bound, TranspositionTable};
use correction::CorrectionHistory;
use root::RootMove;
use std::sync::Arc;
use std::time::Duration;

mod correction;
mod limits;
mod negamax;
mod quiescence;
mod root;
mod tb;

pub use limits::{SearchControl, SearchLimits};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;
/// The static eval of a node in check (there is none).
const NO_EVAL: i32 = -INFINITY - 1;
/// Double singular extensions allowed on one line.
const DOUBLE_EXTENSIONS_MAX: u8 = 5;

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

/// One search thread's memory, kept from one search to the next until
/// [`Searcher::clear`]: the move-ordering histories, the evaluation caches
/// and the correction history. Each search borrows it for as long as it
/// runs.
pub struct Searcher {
    /// Killers and history: what orders the moves.
    ordering: MoveOrdering,
    /// Pawn-structure cache of this thread's evaluations.
    pawns: PawnTable,
    /// Full evaluations of this thread's recent positions, by key.
    evals: EvalCache,
    /// What searches found the static eval to be worth.
    correction: CorrectionHistory,
    /// The lines found below each ply (triangular), kept here so that a
    /// search need not allocate them.
    pv: Vec<[Move; MAX_PLY + 1]>,
    /// A Lazy SMP helper: searches silently until halted, sharing only the
    /// transposition table with the main thread.
    helper: bool,
    /// Nodes searched by the last search.
    nodes: u64,
    /// The network the last search evaluated with (`None`: the
    /// hand-written evaluation), whose values the caches hold.
    network: Option<Arc<Network>>,
    /// The network's first-layer sums by ply.
    accumulators: Accumulators,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            ordering: MoveOrdering::new(MAX_PLY + 2),
            pawns: PawnTable::new(),
            evals: EvalCache::new(),
            correction: CorrectionHistory::new(),
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            helper: false,
            nodes: 0,
            network: None,
            accumulators: Accumulators::default(),
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

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Evaluates with `network` (`None`: the hand-written evaluation)
    /// from now on. Another evaluation than the last search's empties the
    /// evaluation cache and the correction history, whose values came from
    /// the other one.
    fn use_network(&mut self, network: Option<&Arc<Network>>) {
        if same_network(self.network.as_ref(), network) {
            return;
        }
        self.evals.clear();
        self.correction.clear();
        self.network = network.cloned();
        if let Some(net) = network {
            if self.accumulators.hidden() != net.hidden() {
                self.accumulators = Accumulators::new(net.hidden(), MAX_PLY + 2);
            }
        }
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
        let mut search = Search::new(self, board, limits, ctl, tt);
        let result = search.iterate(board, report);
        self.nodes = search.nodes;
        result
    }

    /// The quiescence search's score of `board` with a full window, side to
    /// move's view: the static evaluation unless captures change it (the
    /// tuner keeps the positions where the two agree).
    pub fn quiescence_score(&mut self, board: &mut Board, tt: &TranspositionTable) -> i32 {
        let ctl = SearchControl::new(false);
        // Root depth 0: `poll` applies no node or time limit.
        let mut search = Search::new(self, board, &SearchLimits::default(), &ctl, tt);
        let score = search.quiescence(board, 0, -INFINITY, INFINITY, None);
        self.nodes = search.nodes;
        score
    }
}

/// One search under way, holding what every node needs so that nothing
/// of it is passed down from node to node: the thread's tables (borrowed
/// from its [`Searcher`]), the shared transposition table and control,
/// the limits, the stacks by ply and the counters.
struct Search<'a> {
    /// Killers and history: what orders the moves.
    ordering: &'a mut MoveOrdering,
    /// Pawn-structure cache of this thread's evaluations.
    pawns: &'a mut PawnTable,
    /// Full evaluations of this thread's recent positions, by key.
    evals: &'a mut EvalCache,
    /// What searches found the static eval to be worth.
    correction: &'a mut CorrectionHistory,
    /// The line found below each ply, `pv_len[ply]` moves long.
    pv: &'a mut [[Move; MAX_PLY + 1]],
    pv_len: [usize; MAX_PLY + 1],
    /// The table, shared with the other threads.
    tt: &'a TranspositionTable,
    /// The flags shared with the thread that started the search.
    ctl: &'a SearchControl,
    /// The network that evaluates, if any (else the hand-written
    /// evaluation), and its sums by ply.
    network: Option<&'a Network>,
    accumulators: &'a mut Accumulators,
    limits: SearchLimits,
    /// A Lazy SMP helper (see [`Searcher::new_helper`]).
    helper: bool,
    /// The (piece, target) key of the move made at each ply
    /// ([`NO_PIECE_TO`] for a null move): the continuation histories' context.
    moved: [usize; MAX_PLY + 2],
    /// The move left out at each ply (the singular-extension test).
    excluded: [Move; MAX_PLY + 2],
    /// Static eval by ply (`NO_EVAL` in check), for the improving flag.
    eval_stack: [i32; MAX_PLY + 2],
    /// Double singular extensions on the line to each ply.
    double_extensions: [u8; MAX_PLY + 2],
    root_moves: Vec<RootMove>,
    /// A move of an unfinished iteration that beat the first move's full
    /// search (with its score and line, and `Lower` when it failed high):
    /// better than the last finished iteration's choice if time runs out.
    interrupted_best: Option<(RootMove, Option<Bound>)>,
    /// The MultiPV line being searched (0-based).
    pv_index: usize,
    /// The root's ply in the game (repetitions are counted from it).
    root_ply: usize,
    /// The iteration's depth (0 outside an iteration).
    root_depth: i32,
    nodes: u64,
    seldepth: usize,
    /// Set when a limit or `stop` ends the search: every node returns.
    aborted: bool,
    /// Tablebase probes that gave a result, this search.
    tb_hits: u64,
}

impl<'a> Search<'a> {
    /// A search of `board` with `searcher`'s tables, none of it begun.
    fn new(
        searcher: &'a mut Searcher,
        board: &Board,
        limits: &SearchLimits,
        ctl: &'a SearchControl,
        tt: &'a TranspositionTable,
    ) -> Search<'a> {
        searcher.use_network(limits.network.as_ref());
        let network = searcher.network.as_deref();
        if let Some(net) = network {
            searcher.accumulators.start(net, board);
        }
        Search {
            ordering: &mut searcher.ordering,
            pawns: &mut searcher.pawns,
            evals: &mut searcher.evals,
            correction: &mut searcher.correction,
            pv: &mut searcher.pv,
            pv_len: [0; MAX_PLY + 1],
            tt,
            ctl,
            network,
            accumulators: &mut searcher.accumulators,
            limits: limits.clone(),
            helper: searcher.helper,
            moved: [NO_PIECE_TO; MAX_PLY + 2],
            excluded: [Move::NONE; MAX_PLY + 2],
            eval_stack: [NO_EVAL; MAX_PLY + 2],
            double_extensions: [0; MAX_PLY + 2],
            root_moves: Vec::new(),
            interrupted_best: None,
            pv_index: 0,
            root_ply: board.ply_count(),
            root_depth: 0,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            tb_hits: 0,
        }
    }

    /// Makes `mv` at `ply` of the search, noting the piece and its target
    /// for the continuation histories. `predicted` is the key
    /// [`Board::key_after`] gave before the move was made, whose bucket and
    /// evaluation-cache entry are on their way already; when the move's key
    /// came out different (castling, en passant, promotions, changed
    /// rights), the right ones are fetched now.
    #[inline(always)]
    fn play(&mut self, board: &mut Board, mv: Move, ply: usize, predicted: u64) {
        self.moved[ply] = piece_to(board, mv);
        self.note_move(board, mv, ply);
        board.make(mv);
        if board.hash() != predicted {
            self.prefetch_child(board.hash());
        }
    }

    /// Tells the network's sums what `mv`, about to be made at `ply`,
    /// changes (nothing to do without a network).
    #[inline(always)]
    fn note_move(&mut self, board: &Board, mv: Move, ply: usize) {
        if self.network.is_some() {
            self.accumulators.push(ply + 1, Delta::of(board, mv));
        }
    }

    /// A null move at `ply` changes no input of the network.
    #[inline(always)]
    fn note_null_move(&mut self, ply: usize) {
        if self.network.is_some() {
            self.accumulators.push(ply + 1, Delta::NONE);
        }
    }

    /// The static evaluation of `board`, `ply` plies below the root, side
    /// to move's view: the network's when there is one (but for a bare
    /// king against pieces, see [`judges_bare_king`]), else the
    /// hand-written one; looked up in the evaluation cache first.
    #[inline(always)]
    fn static_eval(&mut self, board: &Board, ply: usize) -> i32 {
        match self.network {
            None => evaluate_cached(board, self.pawns, self.evals),
            Some(net) => {
                let accumulators = &mut *self.accumulators;
                self.evals.get_or(board.hash(), || {
                    if judges_bare_king(board) {
                        evaluate(board)
                    } else {
                        accumulators.evaluate(net, board, ply)
                    }
                })
            }
        }
    }

    /// Starts fetching what the position of `key` will need first: its
    /// hash bucket and its evaluation-cache entry (it evaluates before it
    /// probes, so both are wanted at once).
    #[inline(always)]
    fn prefetch_child(&self, key: u64) {
        self.tt.prefetch(key);
        self.evals.prefetch(key);
    }

    /// The continuation-history context of a node at `ply`: the moves made
    /// one and two plies before it.
    #[inline(always)]
    fn context(&self, ply: usize) -> Context {
        let (earlier, last) = self.last_moves(ply);
        Context::new(last, earlier)
    }

    /// The (piece, target) keys of the moves two plies and one ply before
    /// a node at `ply` ([`NO_PIECE_TO`] for none): the continuation
    /// correction's key.
    #[inline(always)]
    fn last_moves(&self, ply: usize) -> (usize, usize) {
        let at = |back: usize| {
            if ply >= back {
                self.moved[ply - back]
            } else {
                NO_PIECE_TO
            }
        };
        (at(2), at(1))
    }

    /// `mv` found best at `ply`: the line there becomes `mv` and the
    /// line below it.
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child = (self.pv_len[ply + 1]).min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=child].copy_from_slice(&tail[0][..child]);
        self.pv_len[ply] = child + 1;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A searcher keeps its evaluation cache while the evaluation stays,
    /// empties it when the evaluation changes, and sizes its sums to the
    /// network; a search with a network of another size runs.
    #[test]
    fn a_new_evaluation_empties_the_cache_and_fits_the_sums() {
        use crate::engine::nnue::{embedded, INPUTS};
        let big = embedded().unwrap();
        let small = Arc::new(
            Network::new(
                16,
                400,
                vec![3; INPUTS * 16],
                vec![0; 16],
                vec![5; 32],
                vec![0],
            )
            .unwrap(),
        );
        let mut s = Searcher::new();
        s.use_network(Some(&big));
        assert_eq!(s.accumulators.hidden(), big.hidden());
        assert_eq!(s.evals.get_or(42, || 7), 7);
        s.use_network(Some(&big));
        assert_eq!(s.evals.get_or(42, || 8), 7);
        s.use_network(Some(&small));
        assert_eq!(s.accumulators.hidden(), 16);
        assert_eq!(s.evals.get_or(42, || 9), 9);
        s.use_network(None);
        assert_eq!(s.evals.get_or(42, || 10), 10);
        let mut board = Board::startpos();
        let tt = TranspositionTable::new(1);
        let limits = SearchLimits {
            network: Some(small),
            ..SearchLimits::depth(4)
        };
        let r = s.think(
            &mut board,
            &limits,
            &SearchControl::new(false),
            &tt,
            &mut |_| {},
        );
        assert!(!r.best.is_none() && r.nodes > 0);
    }

    /// A soft node limit ends the search between iterations: past the
    /// limit, under the hard cap, and with exactly the nodes of a search to
    /// the depth it reached (a search is deterministic on one thread).
    #[test]
    fn a_soft_node_limit_ends_the_search_after_an_iteration() {
        let think = |limits: &SearchLimits| {
            let mut board = Board::from_fen(
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            )
            .unwrap();
            let tt = TranspositionTable::new(1);
            Searcher::new().think(
                &mut board,
                limits,
                &SearchControl::new(false),
                &tt,
                &mut |_| {},
            )
        };
        let soft = think(&SearchLimits {
            max_nodes: 10_000_000,
            soft_nodes: Some(5_000),
            ..SearchLimits::default()
        });
        assert!(soft.nodes >= 5_000 && soft.nodes < 10_000_000, "{soft:?}");
        let to_depth = think(&SearchLimits::depth(soft.depth));
        assert_eq!(soft.nodes, to_depth.nodes);
        assert_eq!(soft.best, to_depth.best);
        // The hard cap still cuts an iteration short.
        let hard = think(&SearchLimits {
            max_nodes: 5_000,
            soft_nodes: Some(5_000),
            ..SearchLimits::default()
        });
        assert!(hard.nodes <= 5_000 + 2 * 1024, "{hard:?}");
        assert!(hard.depth <= soft.depth, "{hard:?} {soft:?}");
    }

    #[test]
    fn mate_in_conversion() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-MATE + 2), Some(-1));
        assert_eq!(mate_in(-MATE + 4), Some(-2));
        assert_eq!(mate_in(150), None);
    }
}
