//! Passed pawns: by rank, with a free path, a safe stop square, and the
//! kings' distances to the stop square.

use super::context::EvalInfo;
use super::relative::rel_rank;
use super::slots as ix;
use super::trace::Tracer;
use super::weights::*;
use super::Term;
use crate::chess::attacks::distance;
use crate::chess::bitboard::*;
use crate::chess::types::*;

/// `color`'s passed pawns (the front-most of each file, from the pawn
/// entry).
#[inline(always)]
pub(super) fn passed_pawns<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let board = ei.board;
    let c = color.index();
    let them = color.flip();
    let enemy_king = board.king_square(them);
    let own_king = board.king_square(color);
    for at in squares_of(ei.pawns.passed[c]) {
        let s = at.cell();
        let rr = rel_rank(color, s);
        let mut bonus = PASSED_PAWN[rr];
        tr.add(color, ix::PASSED_PAWN + rr, 1);
        let mut path = s.offset(color.forward());
        let mut free = true;
        while path.is_real() {
            if board.at(path) != EMPTY {
                free = false;
                break;
            }
            path = path.offset(color.forward());
        }
        if free {
            bonus += PASSED_FREE[rr];
            tr.add(color, ix::PASSED_FREE + rr, 1);
        }
        let stop = s.offset(color.forward());
        if stop.is_real() && ei.all_attacks[them.index()] & bit(stop) == 0 {
            bonus += PASSED_SAFE[rr];
            tr.add(color, ix::PASSED_SAFE + rr, 1);
        }
        if stop.is_real() && rr >= 3 {
            let weight = rr as i32 - 2;
            let theirs = distance(stop, enemy_king) * weight;
            let ours = distance(stop, own_king) * weight;
            bonus += PASSED_KING_DISTANCE_THEIRS * theirs;
            bonus += PASSED_KING_DISTANCE_OURS * ours;
            tr.add(color, ix::PASSED_KING_DISTANCE_THEIRS, theirs);
            tr.add(color, ix::PASSED_KING_DISTANCE_OURS, ours);
        }
        ei.add(color, Term::PassedPawns, bonus);
    }
}
