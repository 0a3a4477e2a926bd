//! Correction history: what earlier searches found the static evaluation
//! to be worth, by pawn structure, by each side's piece placement and by
//! the two moves that led to the position.
//!
//! A node that settles its score on the far side of its static eval (a cut
//! above it, a fail-low below it) says the evaluation misjudged the
//! position by about the difference. The same pawns, the same pieces of
//! one colour on the same squares, or the same pair of moves (a piece to a
//! square answered by a piece to a square), recur all over a search and a
//! game, and so do the evaluation's misjudgements of them; each table
//! keeps a running estimate of the error by its key, and the search adds
//! the estimates to the static eval before it prunes by it.
//!
//! Entries are bounded accumulators ("gravity"): a bonus moves an entry
//! less the nearer it already is to the bound, so old lessons fade under
//! new ones. The error is measured against the corrected eval, so the
//! tables together settle where the searches stop disagreeing with it.
//!
//! One set of tables per searcher, kept between searches and cleared for
//! a new game, like the move-ordering histories.
//!
//! Positions with a bare king are left out, both ways: there the
//! evaluation is a rule (the mop-up term's step toward the corner that
//! mates, see [`judges_bare_king`]), not an estimate with errors to learn,
//! and a correction learned elsewhere (the continuation table's is up to
//! 128 cp) would drown the rule's gradient: with it, king, bishop and
//! knight failed to mate a bare king from 6 of the 20 positions of
//! `tests/endgames.rs`.

use crate::chess::board::Board;
use crate::chess::types::Color;
use crate::engine::eval::judges_bare_king;
use crate::engine::ordering::{gravity, NO_PIECE_TO};
use crate::engine::params::*;

/// Slots per side to move in each table (a power of two: a key's low bits
/// pick the slot).
const SLOTS: usize = 16_384;
/// The bound of an entry; a correction is an entry times its table's
/// weight over [`WEIGHT_SCALE`].
const LIMIT: i32 = 1024;
/// The most one update moves an entry.
const MAX_BONUS: i32 = LIMIT / 4;
/// Weights are in 1/`WEIGHT_SCALE` centipawn per entry unit.
const WEIGHT_SCALE: i32 = 256;

/// The tables, each by side to move then key.
pub struct CorrectionHistory {
    pawns: Vec<i16>,
    /// By the colour whose pieces make the key, then side to move.
    non_pawns: [Vec<i16>; 2],
    /// By the (piece, target) keys of the moves two plies and one ply
    /// before the node (the last one's colour says who is to move).
    cont: Vec<i16>,
}

/// Keys of a move for the continuation table, "no move" included.
const MOVE_KEYS: usize = NO_PIECE_TO + 1;

/// Where a position's entries sit in the tables.
#[derive(Clone, Copy)]
struct Slots {
    pawns: usize,
    white: usize,
    black: usize,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            pawns: vec![0; 2 * SLOTS],
            non_pawns: [vec![0; 2 * SLOTS], vec![0; 2 * SLOTS]],
            cont: vec![0; MOVE_KEYS * MOVE_KEYS],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.pawns.fill(0);
        for t in &mut self.non_pawns {
            t.fill(0);
        }
        self.cont.fill(0);
    }

    #[inline(always)]
    fn slots(board: &Board) -> Slots {
        let side = board.side_to_move() as usize * SLOTS;
        let slot = |key: u64| side + (key as usize & (SLOTS - 1));
        Slots {
            pawns: slot(board.pawn_key()),
            white: slot(board.non_pawn_key(Color::White)),
            black: slot(board.non_pawn_key(Color::Black)),
        }
    }

    /// The correction, in centipawns, to add to the side to move's static
    /// eval; `moves`: the (piece, target) keys of the moves two plies and
    /// one ply before ([`NO_PIECE_TO`] for none). None where a king is
    /// bare.
    #[inline(always)]
    pub fn correction(&self, board: &Board, moves: (usize, usize)) -> i32 {
        if judges_bare_king(board) {
            return 0;
        }
        let s = Self::slots(board);
        let pawns = self.pawns[s.pawns] as i32 * CORR_PAWN_WEIGHT();
        let pieces = (self.non_pawns[0][s.white] as i32 + self.non_pawns[1][s.black] as i32)
            * CORR_NON_PAWN_WEIGHT();
        let cont = self.cont[cont_slot(moves)] as i32 * CORR_CONT_WEIGHT();
        (pawns + pieces + cont) / WEIGHT_SCALE
    }

    /// Learns from a node searched to `depth` whose score `best` fell on
    /// the far side of its corrected static eval `eval` by `best - eval`
    /// (nothing where a king is bare).
    pub fn update(
        &mut self,
        board: &Board,
        moves: (usize, usize),
        depth: i32,
        best: i32,
        eval: i32,
    ) {
        if judges_bare_king(board) {
            return;
        }
        let bonus = ((best - eval) * depth / 8).clamp(-MAX_BONUS, MAX_BONUS);
        let s = Self::slots(board);
        nudge(&mut self.pawns[s.pawns], bonus);
        nudge(&mut self.non_pawns[0][s.white], bonus);
        nudge(&mut self.non_pawns[1][s.black], bonus);
        nudge(&mut self.cont[cont_slot(moves)], bonus);
    }
}

/// The continuation table's slot of the moves (two plies, one ply) back.
#[inline(always)]
fn cont_slot((earlier, last): (usize, usize)) -> usize {
    earlier.min(NO_PIECE_TO) * MOVE_KEYS + last.min(NO_PIECE_TO)
}

/// Moves an entry by `bonus`, less the nearer it is to the bound on that
/// side; it never leaves `[-LIMIT, LIMIT]`.
#[inline(always)]
fn nudge(entry: &mut i16, bonus: i32) {
    *entry = gravity(*entry as i32, bonus, LIMIT) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_stay_within_the_bound_and_fade() {
        let mut e = 0i16;
        for _ in 0..1000 {
            nudge(&mut e, MAX_BONUS);
        }
        assert!(e as i32 <= LIMIT && e as i32 > LIMIT * 9 / 10, "{e}");
        for _ in 0..1000 {
            nudge(&mut e, -MAX_BONUS);
        }
        assert!(e as i32 >= -LIMIT && (e as i32) < -LIMIT * 9 / 10, "{e}");
        // Small bonuses of both signs pull it back toward zero.
        for i in 0..4000 {
            nudge(&mut e, if i % 2 == 0 { 8 } else { -8 });
        }
        assert!((e as i32).abs() < LIMIT / 4, "{e}");
    }

    #[test]
    fn learns_the_sign_of_the_error_by_side_and_structure() {
        let mut ch = CorrectionHistory::new();
        let start = Board::startpos();
        let none = (NO_PIECE_TO, NO_PIECE_TO);
        assert_eq!(ch.correction(&start, none), 0);
        for _ in 0..50 {
            ch.update(&start, none, 8, 100, 0);
        }
        let c = ch.correction(&start, none);
        assert!(c > 0, "{c}");
        assert!(
            c <= LIMIT * (CORR_PAWN_WEIGHT() + 2 * CORR_NON_PAWN_WEIGHT() + CORR_CONT_WEIGHT())
                / WEIGHT_SCALE
        );
        // The other side to move, same pieces: a table of its own (the
        // continuation entry of "no moves" is shared, so it is weighed).
        let mut black = start.clone();
        black.make_null();
        let shared = ch.cont[cont_slot(none)] as i32 * CORR_CONT_WEIGHT() / WEIGHT_SCALE;
        assert_eq!(ch.correction(&black, none), shared);
        ch.clear();
        assert_eq!(ch.correction(&start, none), 0);
    }

    #[test]
    fn a_bare_king_is_neither_corrected_nor_learned_from() {
        let mut ch = CorrectionHistory::new();
        let none = (NO_PIECE_TO, NO_PIECE_TO);
        let kbnk = Board::from_fen("8/8/8/4k3/8/8/8/KBN5 w - - 0 1").unwrap();
        let krkp = Board::from_fen("8/8/8/4k3/8/4p3/8/KR6 w - - 0 1").unwrap();
        // Entries learned elsewhere, under the same moves' key.
        for _ in 0..50 {
            ch.update(&krkp, none, 8, 300, 0);
        }
        let learned = ch.cont[cont_slot(none)];
        assert!(learned as i32 > LIMIT / 2, "{learned}");
        assert!(ch.correction(&krkp, none) > 0);
        assert_eq!(ch.correction(&kbnk, none), 0);
        // Nothing learned from it either: the tables are as they were.
        let (pawns, non_pawns) = (ch.pawns.clone(), ch.non_pawns.clone());
        for _ in 0..50 {
            ch.update(&kbnk, none, 8, -300, 0);
        }
        assert_eq!(ch.cont[cont_slot(none)], learned);
        assert!(ch.pawns == pawns && ch.non_pawns == non_pawns);
    }

    #[test]
    fn the_continuation_table_keys_by_the_last_two_moves() {
        let mut ch = CorrectionHistory::new();
        let start = Board::startpos();
        let (a, b, c) = (3, 400, 700);
        for _ in 0..50 {
            ch.update(&start, (a, b), 8, -100, 0);
        }
        assert!((ch.cont[cont_slot((a, b))] as i32) < -LIMIT / 2);
        assert_eq!(ch.cont[cont_slot((b, a))], 0);
        assert_eq!(ch.cont[cont_slot((a, c))], 0);
        // "No move" is a key of its own, never out of the table.
        assert_eq!(
            cont_slot((NO_PIECE_TO, NO_PIECE_TO)),
            MOVE_KEYS * MOVE_KEYS - 1
        );
    }
}
