//! The root: iterative deepening and when to stop it, aspiration windows,
//! the root moves in their order (with MultiPV's lines and skill's
//! choice), the reports of each iteration and the result.

use super::*;
use crate::engine::ordering::Context;
use crate::engine::params::*;
use crate::engine::score::score_to_tt;
use crate::engine::skill::SKILL_LINES;
use crate::engine::time::{soft_scale, Confidence};
use std::time::Duration;

/// The root move being searched is reported (UCI `currmove`) once a
/// search has run this long.
const CURRMOVE_AFTER: Duration = Duration::from_secs(3);
/// Aspiration windows that fail after this much search time are reported
/// as `lowerbound`/`upperbound` lines.
const BOUND_REPORT_AFTER: Duration = Duration::from_secs(1);

/// A move at the root, with its score and line from the last search of it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
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

impl Search<'_> {
    /// Iterative deepening of `board` within the limits, reporting each
    /// finished line.
    pub(super) fn iterate(
        &mut self,
        board: &mut Board,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> SearchResult {
        self.tt.new_search();
        let legal = board.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m))
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
        let (tb_root, instant) = self.tb_at_root(board, &mut moves, report);
        if let Some(r) = instant {
            return r;
        }
        let mut relay = |info: &IterationInfo| report(&tb::with_tb_score(info, tb_root));
        let report: &mut dyn FnMut(&IterationInfo) = &mut relay;
        // Initial order: hash move, then the usual ordering.
        let tt_move = self.tt.probe(board.hash()).map_or(Move::NONE, |e| e.mv);
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

        let mut multipv = self.limits.multipv;
        let mut max_depth = self.limits.max_depth.clamp(1, MAX_DEPTH);
        if let Some(skill) = self.limits.skill {
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
                let score = self.aspiration(board, depth, report);
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
                    nodes: self.nodes + self.ctl.helper_nodes(),
                    time: self.ctl.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: rm.pv.clone(),
                    currmove: None,
                    tbhits: self.tb_hits,
                });
            }
            if self.aborted {
                if multipv == 1 && self.limits.skill.is_none() {
                    self.keep_interrupted_best(depth, &mut result, report);
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
            if let Some(n) = self.limits.mate {
                if mate_in(best.score).is_some_and(|m| m > 0 && m <= n) {
                    break;
                }
            }
            if self.out_of_time(depth, &mut stability) {
                break;
            }
        }
        result.nodes = self.nodes;
        if let Some(s) = tb_root.filter(|_| mate_in(result.score).is_none()) {
            result.score = s;
        }
        if let Some(skill) = self.limits.skill {
            if let Some(mv) = skill.choose(&last_lines) {
                if mv != result.best {
                    result.best = mv;
                    result.ponder = Move::NONE;
                    result.score = last_lines.iter().find(|l| l.0 == mv).map_or(0, |l| l.1);
                }
            }
        }
        if result.ponder.is_none() {
            result.ponder = self.ponder_from_tt(board, result.best);
        }
        result
    }

    /// After a finished iteration: whether to stop rather than start the
    /// next. The next iteration takes about twice as long as all before
    /// it, so it is not started past half the soft limit, which is
    /// stretched or shrunk by how settled the best move is
    /// ([`soft_scale`]) and never beyond the hard limit.
    fn out_of_time(&self, depth: i32, stability: &mut Stability) -> bool {
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
        if self.ctl.is_pondering() {
            return false;
        }
        if self
            .limits
            .soft_nodes
            .is_some_and(|soft| self.nodes >= soft)
        {
            return true;
        }
        let Some(soft) = self.limits.time.soft else {
            return false;
        };
        if self.root_moves.len() == 1 && depth >= 4 {
            return true;
        }
        let mut budget = soft.mul_f64(soft_scale(&confidence));
        if let Some(hard) = self.limits.time.hard {
            budget = budget.min(hard);
        }
        self.ctl.clock_elapsed() * 2 >= budget
    }

    /// After an unfinished iteration: a move that beat the first one's full
    /// search is better than the last finished iteration's choice. (Only
    /// for one line: a MultiPV or skill search keeps its finished lines.)
    /// Its line is reported, so that the last line the GUI reads starts
    /// with the move played: a lower bound when it failed high.
    fn keep_interrupted_best(
        &mut self,
        depth: i32,
        result: &mut SearchResult,
        report: &mut dyn FnMut(&IterationInfo),
    ) {
        let Some((rm, bound)) = self.interrupted_best.take() else {
            return;
        };
        result.best = rm.mv;
        result.ponder = rm.pv.get(1).copied().unwrap_or(Move::NONE);
        result.score = rm.score;
        if !self.helper {
            report(&IterationInfo {
                depth,
                seldepth: self.seldepth,
                multipv: 1,
                score: rm.score,
                bound,
                nodes: self.nodes + self.ctl.helper_nodes(),
                time: self.ctl.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: rm.pv,
                currmove: None,
                tbhits: self.tb_hits,
            });
        }
    }

    /// Nodes spent below all root moves, this search.
    fn root_nodes(&self) -> u64 {
        self.root_moves.iter().map(|r| r.nodes).sum()
    }

    /// The reply stored in the table after `best`, if legal.
    fn ponder_from_tt(&self, board: &mut Board, best: Move) -> Move {
        if best.is_none() {
            return Move::NONE;
        }
        board.make(best);
        let reply = self
            .tt
            .probe(board.hash())
            .map(|e| e.mv)
            .filter(|&m| board.is_legal(m))
            .unwrap_or(Move::NONE);
        board.unmake();
        reply
    }

    /// One root search of `depth` in a window around the last iteration's
    /// score for this line, widened until the score falls inside it.
    fn aspiration(
        &mut self,
        board: &mut Board,
        depth: i32,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> i32 {
        let last = self.root_moves[self.pv_index].score;
        if depth < ASPIRATION_MIN_DEPTH() || last.abs() >= MATE_BOUND {
            return self.root_search(board, depth, -INFINITY, INFINITY, report);
        }
        let mut delta = ASPIRATION_DELTA();
        let mut alpha = (last - delta).max(-INFINITY);
        let mut beta = (last + delta).min(INFINITY);
        loop {
            let score = self.root_search(board, depth, alpha, beta, report);
            if self.aborted {
                return score;
            }
            // The move that failed high (or the first, failing low) leads
            // the re-search.
            self.root_moves[self.pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if (score <= alpha || score >= beta) && self.ctl.elapsed() >= BOUND_REPORT_AFTER {
                self.report_bound(depth, score, score >= beta, report);
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
            nodes: self.nodes + self.ctl.helper_nodes(),
            time: self.ctl.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: self.root_moves[self.pv_index].pv.clone(),
            currmove: None,
            tbhits: self.tb_hits,
        });
    }

    /// The root: the moves of `root_moves[pv_index..]` in order, in the
    /// window (`alpha`, `beta`).
    fn root_search(
        &mut self,
        board: &mut Board,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(&IterationInfo),
    ) -> i32 {
        let original_alpha = alpha;
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        for i in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.limits.report_currmove && !self.helper && self.ctl.elapsed() >= CURRMOVE_AFTER {
                report(&IterationInfo {
                    depth,
                    seldepth: self.seldepth,
                    multipv: self.pv_index + 1,
                    score: 0,
                    bound: None,
                    nodes: self.nodes + self.ctl.helper_nodes(),
                    time: self.ctl.elapsed(),
                    hashfull: 0,
                    pv: Vec::new(),
                    currmove: Some((mv, i + 1)),
                    tbhits: self.tb_hits,
                });
            }
            self.moved[0] = piece_to(board, mv);
            let nodes_before = self.nodes;
            self.note_move(board, mv, 0);
            board.make(mv);
            self.nodes += 1;
            let gives_check = board.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let score = if i == self.pv_index {
                -self.negamax(board, new_depth, 1, -beta, -alpha, gives_check)
            } else {
                let s = -self.negamax(board, new_depth, 1, -alpha - 1, -alpha, gives_check);
                if s > alpha && !self.aborted {
                    -self.negamax(board, new_depth, 1, -beta, -alpha, gives_check)
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
                    let bound = (score >= beta).then_some(Bound::Lower);
                    self.interrupted_best = Some((rm.clone(), bound));
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
            self.tt.store(
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
}
