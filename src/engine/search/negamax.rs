//! The main node search: negamax alpha-beta with principal-variation
//! search, the hash table's cuts, pruning, reductions and extensions.

use super::*;
use crate::engine::ordering::below_killers;
use crate::engine::params::*;
use crate::engine::picker::MovePicker;
use crate::engine::score::{score_from_tt, score_to_tt};
use crate::engine::see::see_below;

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

/// Late-move reduction of the `move_number`th move at `depth` (plies).
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

impl Search<'_> {
    /// The score of `board`, `ply` plies below the root, searched `depth`
    /// plies deep in the window (`alpha`, `beta`), side to move's view.
    /// `in_check`: whether the side to move is in check, which every
    /// caller knows (from `gives_check` of the move just made), so the node
    /// need not test it.
    pub(super) fn negamax(
        &mut self,
        board: &mut Board,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        in_check: bool,
    ) -> i32 {
        debug_assert_eq!(in_check, board.in_check());
        if depth <= 0 {
            return self.quiescence(board, ply, alpha, beta, Some(in_check));
        }
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.poll();
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
            return self.static_eval(board, ply);
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
        // second (docs/speed.md, "Nodes per second against Toga II").
        let early_eval = if in_check {
            NO_EVAL
        } else {
            self.static_eval(board, ply)
        };
        let tt_entry = self.tt.probe(key);
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
            if let Some(score) = self.probe_tb(board, depth, ply, alpha, beta) {
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
            corrected(
                raw_eval,
                self.correction.correction(board, self.last_moves(ply)),
            )
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
            self.note_null_move(ply);
            board.make_null();
            self.tt.prefetch(board.hash());
            // Passing leaves the opponent out of check: our king was not
            // in check, nor could theirs be.
            let score = -self.negamax(board, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
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
        while let Some((mv, key)) = picker.next(board, self.ordering, &mut cx) {
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
            self.prefetch_child(predicted);
            let mut extension = (gives_check && (ply as i32) < 2 * self.root_depth) as i32;
            // Singular extension: is the hash move much better than all
            // the others? By far: extend it twice (a few times a line).
            // Not singular, and the hash move fails high anyway: another
            // move likely would too, so it is searched a ply shallower.
            // Several moves beat beta: cut here (multi-cut).
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
                    );
                    self.excluded[ply] = Move::NONE;
                    if self.aborted {
                        return 0;
                    }
                    if s < singular_beta {
                        extension = if !pv_node
                            && s < singular_beta - SE_DOUBLE_MARGIN()
                            && self.double_extensions[ply] < DOUBLE_EXTENSIONS_MAX
                        {
                            2
                        } else {
                            1
                        };
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta {
                        extension = -SE_NEGATIVE_EXT();
                    }
                }
            }
            self.double_extensions[ply + 1] = self.double_extensions[ply] + (extension >= 2) as u8;
            self.play(board, mv, ply, predicted);
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
                reduction = reduction.clamp(0, (new_depth - 1).max(0));
            }
            let score = if i == 0 {
                -self.negamax(board, new_depth, ply + 1, -beta, -alpha, gives_check)
            } else {
                let mut s = -self.negamax(
                    board,
                    new_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    gives_check,
                );
                if reduction > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(board, new_depth, ply + 1, -alpha - 1, -alpha, gives_check);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(board, new_depth, ply + 1, -beta, -alpha, gives_check)
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
            let moves = self.last_moves(ply);
            self.correction.update(board, moves, depth, best, eval);
        }
        self.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            raw_eval,
            depth,
            bound,
        );
        best
    }
}
