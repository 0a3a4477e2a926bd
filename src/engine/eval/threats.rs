//! Threats: enemy pieces attacked by pawns (or by a safe pawn push),
//! minors, rooks and the king, and hanging pieces; read from both sides' attack maps.

use super::context::EvalInfo;
use super::params as ix;
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
}
