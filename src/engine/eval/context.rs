//! The evaluation context: what every term function shares, computed once
//! per evaluation (where the pieces stand, the pawn entry, each side's
//! attack maps and king attack), and the per-term, per-colour sums the
//! terms add to.

use super::pawns::PawnEntry;
use super::weights::*;
use super::Term;
use crate::chess::bitboard::*;
use crate::chess::board::Board;
use crate::chess::types::*;

/// One side's attack on the enemy king.
#[derive(Clone, Copy, Default)]
pub(super) struct KingAttack {
    /// Pieces that hit the king's zone (the king's square and its
    /// neighbours).
    pub(super) attackers: i32,
    /// Zone squares hit, by kind index of the attacker (a square hit by two
    /// pieces counts twice).
    pub(super) zone_hits: [i32; 6],
}

/// What the term functions share. Filled in two steps: [`EvalInfo::new`]
/// places the pieces; the piece pass (`pieces::mobility_and_placement`)
/// fills the attack maps (by kind, united, and squares hit twice) and the
/// king attacks, which the second pass reads for both sides.
pub(super) struct EvalInfo<'a> {
    pub(super) board: &'a Board,
    /// The pawn structure's cached facts.
    pub(super) pawns: &'a PawnEntry,
    /// `terms[term][colour]`, from that colour's point of view; or, when
    /// not `by_term`, every term's sum in `terms[0]`.
    pub(super) terms: [[Score; 2]; 9],
    /// Whether the terms are kept apart (the `eval` table, the tuner) or
    /// only summed (play). A constant where the evaluation is inlined, so
    /// the choice costs nothing.
    pub(super) by_term: bool,
    /// Where the pieces stand, by colour and kind index.
    pub(super) pieces: [[Bitboard; 6]; 2],
    pub(super) occupied_by: [Bitboard; 2],
    pub(super) occupied: Bitboard,
    /// Squares attacked, by colour and kind index of the attacker.
    pub(super) attacks: [[Bitboard; 6]; 2],
    /// Squares attacked by any piece of each colour.
    pub(super) all_attacks: [Bitboard; 2],
    /// Squares each colour attacks at least twice (two pawns, or any two
    /// of its pieces).
    pub(super) twice: [Bitboard; 2],
    /// Each colour's attack on the other's king.
    pub(super) king_attack: [KingAttack; 2],
}

impl<'a> EvalInfo<'a> {
    /// The context of `board`: pieces placed, attack maps empty.
    #[inline(always)]
    pub(super) fn new(board: &'a Board, pawns: &'a PawnEntry, by_term: bool) -> EvalInfo<'a> {
        let mut pieces = [[0u64; 6]; 2];
        let mut occupied_by = [0u64; 2];
        for color in [Color::White, Color::Black] {
            let c = color.index();
            pieces[c][kind_index(PAWN)] = pawns.pawns[c];
            for kind in [KNIGHT, BISHOP, ROOK, QUEEN, KING] {
                let mut set = 0;
                for s in board.piece_squares(color, kind) {
                    set |= bit(s);
                }
                pieces[c][kind_index(kind)] = set;
            }
            occupied_by[c] = pieces[c].iter().fold(0, |all, &set| all | set);
        }
        EvalInfo {
            board,
            pawns,
            terms: [[Score(0, 0); 2]; 9],
            by_term,
            pieces,
            occupied_by,
            occupied: occupied_by[0] | occupied_by[1],
            attacks: [[0u64; 6]; 2],
            all_attacks: [0; 2],
            twice: [0; 2],
            king_attack: [KingAttack::default(); 2],
        }
    }

    /// Adds `s` to `color`'s `term`.
    #[inline(always)]
    pub(super) fn add(&mut self, color: Color, term: Term, s: Score) {
        let t = if self.by_term { term as usize } else { 0 };
        self.terms[t][color.index()] += s;
    }

    /// Adds `reach`, the attacks of one more piece of kind index `ki`, to
    /// `color`'s maps.
    #[inline(always)]
    pub(super) fn add_attacks(&mut self, c: usize, ki: usize, reach: Bitboard) {
        self.attacks[c][ki] |= reach;
        self.twice[c] |= self.all_attacks[c] & reach;
        self.all_attacks[c] |= reach;
    }
}
