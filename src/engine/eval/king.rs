//! King safety: the attack on the enemy king (zone hits and safe checks,
//! scored when two pieces and a queen take part), and the own king's
//! placement, open files, pawn shield and storm, and its flank.

use super::context::EvalInfo;
use super::number::Number;
use super::relative::{pst_index, rel_rank};
use super::slots as ix;
use super::trace::Tracer;
use super::weights::*;
use super::Term;
use crate::chess::attacks::distance;
use crate::chess::bitboard::*;
use crate::chess::types::*;

/// Middlegame penalty of an attack on the king worth `units`: `units^2 *
/// scale / KING_ATTACK_DIVISOR`, at most `cap`. Play passes
/// `KING_ATTACK_SCALE` and `KING_ATTACK_CAP` in `i64`; the tuner's model
/// its own values (see [`Number`]).
#[inline(always)]
pub(super) fn king_danger<N: Number>(units: N, scale: N, cap: N) -> N {
    (units * units * scale / N::of(KING_ATTACK_DIVISOR)).at_most(cap)
}

/// `color`'s attack on the enemy king, scored as that king's danger and
/// counted for `color`. With two attackers in the zone and a queen, the
/// zone hits and the safe checks add up to the attack's units.
#[inline(always)]
pub(super) fn king_attack<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let c = color.index();
    let them = color.flip();
    let attack = ei.king_attack[c];
    let scored = attack.attackers >= 2 && ei.board.count(color, QUEEN) > 0;
    let mut safe_checks = [0i32; 6];
    if scored {
        let king_at = ei.board.king_square(them).sq64();
        let diagonals = bishop_attacks(king_at, ei.occupied);
        let lines = rook_attacks(king_at, ei.occupied);
        let safe = !ei.occupied_by[c] & !ei.all_attacks[them.index()];
        let ours = &ei.attacks[c];
        for (kind, checking) in [
            (KNIGHT, KNIGHT_ATTACKS[king_at]),
            (BISHOP, diagonals),
            (ROOK, lines),
            (QUEEN, diagonals | lines),
        ] {
            let k = kind_index(kind);
            safe_checks[k] = count_sparse(checking & ours[k] & safe);
        }
        let units: i32 = (0..6)
            .map(|k| {
                attack.zone_hits[k] * KING_ATTACK_UNITS[k]
                    + safe_checks[k] * KING_SAFE_CHECK_UNITS[k]
            })
            .sum();
        let danger = king_danger(
            i64::from(units),
            i64::from(KING_ATTACK_SCALE),
            i64::from(KING_ATTACK_CAP),
        );
        ei.add(color, Term::KingSafety, Score(danger as i32, 0));
    }
    tr.king_attack(color, &attack.zone_hits, &safe_checks, scored);
}

/// `color`'s own king: placement, open files beside it, pawn shield and
/// enemy pawns storming it.
#[inline(always)]
pub(super) fn king_shelter<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let board = ei.board;
    let c = color.index();
    let them = color.flip();
    let own_king = board.king_square(color);
    let kr = rel_rank(color, own_king);
    let kf = own_king.file();
    let at = pst_index(color, own_king);
    ei.add(color, Term::PieceSquare, KING_PST[at]);
    tr.add(color, ix::KING_PST + at, 1);
    let pf = &ei.pawns.files;
    if pf.count[c][kf + 1] == 0 {
        if pf.count[them.index()][kf + 1] == 0 {
            ei.add(color, Term::KingSafety, KING_OPEN_FILE);
            tr.add(color, ix::KING_OPEN_FILE, 1);
        } else {
            ei.add(color, Term::KingSafety, KING_HALF_OPEN_FILE);
            tr.add(color, ix::KING_HALF_OPEN_FILE, 1);
        }
    }
    king_flank(ei, tr, color, own_king);
    if kr > 1 {
        return;
    }
    let own_pawn = color.piece(PAWN);
    let enemy_pawn = them.piece(PAWN);
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let at = |ahead: usize| {
            let r = kr + ahead;
            if r > 7 {
                return EMPTY;
            }
            let rank = if color == Color::White { r } else { 7 - r };
            board.at(Square::from_coords(f, rank))
        };
        if at(1) == own_pawn {
            ei.add(color, Term::KingSafety, SHIELD_NEAR);
            tr.add(color, ix::SHIELD_NEAR, 1);
        } else if at(2) == own_pawn {
            ei.add(color, Term::KingSafety, SHIELD_FAR);
            tr.add(color, ix::SHIELD_FAR, 1);
        } else {
            ei.add(color, Term::KingSafety, SHIELD_MISSING);
            tr.add(color, ix::SHIELD_MISSING, 1);
        }
        if at(2) == enemy_pawn || at(3) == enemy_pawn {
            ei.add(color, Term::KingSafety, PAWN_STORM);
            tr.add(color, ix::PAWN_STORM, 1);
        }
    }
}

/// `color`'s king on `king` and its flank (files a-d, c-f or e-h by the
/// king's file): no pawns there, the enemy's attacks there in our camp,
/// and the king's distance to its nearest pawn.
#[inline(always)]
fn king_flank<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color, king: Square) {
    const FLANKS: [Bitboard; 8] = [
        FILE_A * 0x0F,
        FILE_A * 0x0F,
        FILE_A * 0x0F,
        FILE_A * 0x3C,
        FILE_A * 0x3C,
        FILE_A * 0xF0,
        FILE_A * 0xF0,
        FILE_A * 0xF0,
    ];
    let c = color.index();
    let them = color.flip().index();
    let flank = FLANKS[king.file()];
    let pawns = ei.pieces[c][kind_index(PAWN)];
    if (pawns | ei.pieces[them][kind_index(PAWN)]) & flank == 0 {
        ei.add(color, Term::KingSafety, PAWNLESS_FLANK);
        tr.add(color, ix::PAWNLESS_FLANK, 1);
    }
    let camp = match color {
        Color::White => 0x0000_00FF_FFFF_FFFF,
        Color::Black => 0xFFFF_FFFF_FF00_0000,
    };
    let hit = ei.all_attacks[them] & flank & camp;
    let n = count_sparse(hit) + count_sparse(hit & ei.twice[them]);
    ei.add(color, Term::KingSafety, FLANK_ATTACK * n);
    tr.add(color, ix::FLANK_ATTACK, n);
    if pawns != 0 {
        let near = if pawns & KING_ATTACKS[king.sq64()] != 0 {
            1
        } else {
            ei.board
                .piece_squares(color, PAWN)
                .map(|p| distance(king, p))
                .min()
                .unwrap_or(0)
        };
        ei.add(color, Term::KingSafety, KING_PAWN_DISTANCE * near);
        tr.add(color, ix::KING_PAWN_DISTANCE, near);
    }
}
