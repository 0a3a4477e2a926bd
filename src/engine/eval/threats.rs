//! Threats: enemy pieces attacked by pawns (or by a safe pawn push),
//! minors, rooks and the king, hanging pieces, restricted squares and
//! squares that would attack the queen; read from both sides' attack maps.

use super::context::EvalInfo;
use super::slots as ix;
use super::trace::Tracer;
use super::weights::*;
use super::Term;
use crate::chess::bitboard::*;
use crate::chess::types::*;

/// `color`'s threats against the other side's pieces.
#[inline(always)]
pub(super) fn threats<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let c = color.index();
    let them = color.flip().index();
    // Pawns attacking enemy pieces (a piece attacked by two pawns counts
    // twice).
    let targets = ei.occupied_by[them]
        & !ei.pieces[them][kind_index(PAWN)]
        & !ei.pieces[them][kind_index(KING)];
    let pawn_threats = count_sparse(ei.pawns.pawn_attacks[c] & targets)
        + count_sparse(ei.pawns.pawn_attacks_twice[c] & targets);
    ei.add(color, Term::Threats, PAWN_THREAT * pawn_threats);
    tr.add(color, ix::PAWN_THREAT, pawn_threats);

    // Enemy pieces a pawn would attack after a push (one or two squares)
    // to a square no enemy pawn attacks and that we hold at least as well.
    let empty = !ei.occupied;
    let pawns = ei.pieces[c][kind_index(PAWN)];
    let pushes = match color {
        Color::White => {
            let one = (pawns << 8) & empty;
            one | ((one & 0x0000_0000_00FF_0000) << 8) & empty
        }
        Color::Black => {
            let one = (pawns >> 8) & empty;
            one | ((one & 0x0000_FF00_0000_0000) >> 8) & empty
        }
    };
    let safe = pushes & !ei.pawns.pawn_attacks[them] & (ei.all_attacks[c] | !ei.all_attacks[them]);
    let (east, west) = pawn_attacks_each_way(safe, color);
    let n = count_sparse((east | west) & targets);
    ei.add(color, Term::Threats, PAWN_PUSH_THREAT * n);
    tr.add(color, ix::PAWN_PUSH_THREAT, n);

    // Pieces attacked by our minors and rooks, by the victim's kind: every
    // piece but the king, pawns only when no pawn defends them.
    let theirs = ei.pieces[them];
    let defended = ei.all_attacks[them];
    let victims = (ei.occupied_by[them] & !theirs[kind_index(PAWN)])
        | (theirs[kind_index(PAWN)] & !ei.pawns.pawn_attacks[them]);
    let ours = ei.attacks[c];
    let by_minor = (ours[kind_index(KNIGHT)] | ours[kind_index(BISHOP)]) & victims;
    let by_rook = ours[kind_index(ROOK)] & victims;
    if by_minor | by_rook != 0 {
        for victim in 0..kind_index(KING) {
            let n = count_sparse(by_minor & theirs[victim]);
            ei.add(color, Term::Threats, THREAT_BY_MINOR[victim] * n);
            tr.add(color, ix::THREAT_BY_MINOR + victim, n);
            let n = count_sparse(by_rook & theirs[victim]);
            ei.add(color, Term::Threats, THREAT_BY_ROOK[victim] * n);
            tr.add(color, ix::THREAT_BY_ROOK + victim, n);
        }
    }
    let undefended = ei.occupied_by[them] & !theirs[kind_index(KING)] & !defended;
    let n = count_sparse(ours[kind_index(KING)] & undefended);
    ei.add(color, Term::Threats, THREAT_BY_KING * n);
    tr.add(color, ix::THREAT_BY_KING, n);
    let n = count_sparse(ei.all_attacks[c] & undefended & !theirs[kind_index(PAWN)]);
    ei.add(color, Term::Threats, HANGING * n);
    tr.add(color, ix::HANGING, n);
    queen_and_restriction(ei, tr, color);
}

/// Squares both sides attack that the enemy does not hold strongly; and,
/// against a lone enemy queen, the safe squares from which our knights, or
/// our bishops and rooks with support, could attack it.
#[inline(always)]
fn queen_and_restriction<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let c = color.index();
    let them = color.flip().index();
    let strongly_held = ei.pawns.pawn_attacks[them] | (ei.twice[them] & !ei.twice[c]);
    let n = (ei.all_attacks[them] & ei.all_attacks[c] & !strongly_held).count_ones() as i32;
    ei.add(color, Term::Threats, RESTRICTED * n);
    tr.add(color, ix::RESTRICTED, n);

    let queens = ei.pieces[them][kind_index(QUEEN)];
    if queens == 0 || queens & (queens - 1) != 0 {
        return;
    }
    let q = Sq64::new(queens.trailing_zeros() as usize);
    let ours = ei.attacks[c];
    let safe = !ei.occupied_by[c] & !strongly_held;
    let n = count_sparse(ours[kind_index(KNIGHT)] & KNIGHT_ATTACKS[q] & safe);
    ei.add(color, Term::Threats, KNIGHT_ON_QUEEN * n);
    tr.add(color, ix::KNIGHT_ON_QUEEN, n);
    // Squares on the queen's lines of an empty board first: most often
    // none, and then its real lines need not be traced.
    let (bishops, rooks) = (ours[kind_index(BISHOP)], ours[kind_index(ROOK)]);
    let candidates = ((bishops & BISHOP_RAYS[q]) | (rooks & ROOK_RAYS[q])) & safe & ei.twice[c];
    if candidates != 0 {
        let sliders =
            (bishops & bishop_attacks(q, ei.occupied)) | (rooks & rook_attacks(q, ei.occupied));
        let n = count_sparse(sliders & candidates);
        ei.add(color, Term::Threats, SLIDER_ON_QUEEN * n);
        tr.add(color, ix::SLIDER_ON_QUEEN, n);
    }
}
