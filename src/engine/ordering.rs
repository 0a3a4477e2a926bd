//! Move ordering: the order in which a node tries its moves, and the
//! heuristics that learn it (killer moves and the history table).
//!
//! Order: the hash move, winning and equal captures (MVV-LVA, losing ones
//! found by SEE), the two killers, quiet moves by history, losing captures,
//! under-promotions last. Imports the rules and SEE; the search owns one
//! [`MoveOrdering`] per thread.

use crate::chess::board::{list_index, Board};
use crate::chess::movegen::{MoveList, MAX_MOVES};
use crate::chess::types::*;
use crate::engine::see::{see, SEE_VALUE};

/// History scores stay within this bound.
const HISTORY_MAX: i32 = 16_384;
/// Largest single history bonus.
const HISTORY_BONUS_MAX: i32 = 1_200;

// Move-ordering bands.
const ORDER_TT_MOVE: i32 = 30_000_000;
const ORDER_GOOD_CAPTURE: i32 = 20_000_000;
const ORDER_KILLER_1: i32 = 19_000_000;
const ORDER_KILLER_2: i32 = 18_900_000;
const ORDER_BAD_CAPTURE: i32 = -20_000_000;
const ORDER_UNDER_PROMOTION: i32 = -30_000_000;

/// Whether an ordering key ranks below the killers: a quiet move by
/// history or a losing capture (the moves SEE pruning looks at).
#[inline(always)]
pub fn below_killers(key: i32) -> bool {
    key < ORDER_KILLER_2
}

/// Whether an ordering key puts a capture in the losing band (by SEE); in
/// quiescence, where only captures are ordered, every key below the winning
/// band is such a capture.
#[inline(always)]
pub fn below_good_captures(key: i32) -> bool {
    key < ORDER_GOOD_CAPTURE
}

/// One search thread's ordering heuristics; they persist between searches
/// until [`MoveOrdering::clear`].
pub struct MoveOrdering {
    /// Two quiet moves per ply that last caused a cut-off there.
    killers: Vec<[Move; 2]>,
    /// Quiet-move history by piece and target square.
    history: Box<[[i32; CELLS]; 12]>,
}

impl MoveOrdering {
    /// Empty heuristics for a search `plies` deep.
    pub fn new(plies: usize) -> MoveOrdering {
        MoveOrdering {
            killers: vec![[Move::NONE; 2]; plies],
            history: Box::new([[0; CELLS]; 12]),
        }
    }

    /// Forgets killers and history (a new game).
    pub fn clear(&mut self) {
        for k in &mut self.killers {
            *k = [Move::NONE; 2];
        }
        for row in self.history.iter_mut() {
            row.fill(0);
        }
    }

    /// Whether `mv` is one of the killers of `ply`.
    #[inline(always)]
    pub fn is_killer(&self, ply: usize, mv: Move) -> bool {
        mv == self.killers[ply][0] || mv == self.killers[ply][1]
    }

    /// Killers and history for a quiet move that caused a cut-off; the
    /// quiets tried before it lose history.
    pub fn reward_quiet(
        &mut self,
        board: &Board,
        mv: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        let mut apply = |m: Move, delta: i32| {
            let piece = board.at(m.from());
            let h = &mut self.history[list_index(piece)][m.to()];
            *h += delta - *h * delta.abs() / HISTORY_MAX;
        };
        apply(mv, bonus);
        for &m in tried {
            apply(m, -bonus);
        }
    }

    /// Ordering key of `mv` at `ply`: higher is tried first.
    pub fn score(&self, board: &Board, mv: Move, tt_move: Move, ply: usize) -> i32 {
        if mv == tt_move {
            return ORDER_TT_MOVE;
        }
        let promo = mv.promo();
        if promo != EMPTY && promo != QUEEN {
            return ORDER_UNDER_PROMOTION;
        }
        let victim = board.captured_piece(mv);
        if victim != EMPTY || promo == QUEEN {
            return capture_score(board, mv, victim, promo);
        }
        let k = &self.killers[ply];
        if mv == k[0] {
            return ORDER_KILLER_1;
        }
        if mv == k[1] {
            return ORDER_KILLER_2;
        }
        self.history[list_index(board.at(mv.from()))][mv.to()]
    }
}

/// A capture or queen promotion: MVV-LVA within the winning band, or
/// within the losing band when SEE says it loses material.
#[inline(always)]
fn capture_score(board: &Board, mv: Move, victim: Piece, promo: Piece) -> i32 {
    let attacker = board.at(mv.from());
    let victim_value = if victim == EMPTY {
        0
    } else {
        SEE_VALUE[kind_index(kind_of(victim))]
    } + if promo == QUEEN { SEE_VALUE[4] } else { 0 };
    let mvv_lva = victim_value * 8 - kind_index(kind_of(attacker)) as i32;
    let attacker_value = SEE_VALUE[kind_index(kind_of(attacker))];
    let good = attacker_value <= victim_value || see(board, mv) >= 0;
    if good {
        ORDER_GOOD_CAPTURE + mvv_lva
    } else {
        ORDER_BAD_CAPTURE + mvv_lva
    }
}

/// Selection sort, one step: brings the best-scored move from `i` on to
/// `i` and returns it.
#[inline(always)]
pub fn pick_next(moves: &mut MoveList, scores: &mut [i32; MAX_MOVES], i: usize) -> Move {
    let mut b = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[b] {
            b = j;
        }
    }
    moves.swap(i, b);
    scores.swap(i, b);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::GenKind;

    fn mv(text: &str, board: &Board) -> Move {
        crate::chess::notation::parse_move(board, text).expect("legal move")
    }

    #[test]
    fn bands_order_hash_captures_killers_history() {
        // Nc3xa4 wins a loose pawn; Qd1xd5 gives the queen for the pawn
        // that c6 guards.
        let board = Board::from_fen("4k3/8/2p5/3p4/p7/2N5/8/3QK3 w - - 0 1").unwrap();
        let mut o = MoveOrdering::new(4);
        let hash = mv("e1f2", &board);
        let good = mv("c3a4", &board);
        let bad = mv("d1d5", &board);
        let killer = mv("c3e4", &board);
        let quiet = mv("c3b5", &board);
        o.reward_quiet(&board, killer, 1, 3, &[]);
        let s = |m| o.score(&board, m, hash, 1);
        assert!(s(hash) > s(good));
        assert!(s(good) > s(killer));
        assert!(s(killer) > s(quiet));
        assert!(s(quiet) > s(bad), "a capture SEE calls losing goes last");
        assert!(o.is_killer(1, killer) && !o.is_killer(2, killer));
        o.clear();
        assert!(!o.is_killer(1, killer));
    }

    #[test]
    fn history_rewards_the_cut_and_punishes_the_tried() {
        let board = Board::startpos();
        let mut o = MoveOrdering::new(4);
        let cut = mv("g1f3", &board);
        let tried = mv("b1c3", &board);
        for _ in 0..50 {
            o.reward_quiet(&board, cut, 0, 12, &[tried]);
        }
        let (c, t) = (
            o.score(&board, cut, Move::NONE, 3),
            o.score(&board, tried, Move::NONE, 3),
        );
        assert!(c > 0 && t < 0);
        assert!(
            c <= HISTORY_MAX && t >= -HISTORY_MAX,
            "gravity keeps history bounded"
        );
    }

    #[test]
    fn pick_next_takes_the_best_left() {
        let board = Board::startpos();
        let mut moves = MoveList::new();
        board.generate(GenKind::All, &mut moves);
        let mut scores = [0i32; MAX_MOVES];
        for (i, s) in scores.iter_mut().enumerate().take(moves.len()) {
            *s = (i as i32 * 7) % 11;
        }
        let mut last = i32::MAX;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            assert!(scores[i] <= last);
            last = scores[i];
        }
    }
}
