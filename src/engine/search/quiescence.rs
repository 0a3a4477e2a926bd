//! The quiescence search: captures (or, in check, every evasion) until
//! the position is quiet, so the static evaluation is not taken in the
//! middle of an exchange.

use super::*;
use crate::engine::eval::evaluate_lazy_exact;
use crate::engine::ordering::{good_capture, keys};
use crate::engine::params::*;
use crate::engine::picker::MovePicker;
use crate::engine::score::{score_from_tt, score_to_tt};
use crate::engine::see::SEE_VALUE;

impl Search<'_> {
    /// The score of `board`, `ply` plies below the root, once captures
    /// (or, in check, evasions) have been played out, in the window
    /// (`alpha`, `beta`), side to move's view.
    /// `in_check`: whether the side to move is in check, when the caller
    /// knows (the main search does; tested here when needed otherwise).
    pub(super) fn quiescence(
        &mut self,
        board: &mut Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: Option<bool>,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if board.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(board, ply);
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
            self.correction.correction(board, self.last_moves(ply))
        };
        // The network's evaluation is always the full one: no material
        // cut-off before it.
        let lazy = (!in_check).then(|| match self.network {
            None => evaluate_lazy_exact(
                board,
                alpha - correction,
                beta - correction,
                self.pawns,
                self.evals,
            ),
            Some(_) => (self.static_eval(board, ply), true),
        });
        let mut tt_move = Move::NONE;
        let mut tt_eval = NO_EVAL;
        if let Some(e) = self.tt.probe(key) {
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
        while let Some((mv, key)) = picker.next(board, self.ordering, &mut cx) {
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
            self.prefetch_child(predicted);
            // SEE says it loses material (the hash move is tried anyway).
            if !in_check && key != keys::TT_MOVE && !good_capture(board, mv) {
                continue;
            }
            self.play(board, mv, ply, predicted);
            let score = -self.quiescence(board, ply + 1, -beta, -alpha, None);
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
        self.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            eval_to_store,
            0,
            bound,
        );
        best
    }
}
