//! The pieces: material, piece-square values (the pawns' from the pawn
//! entry), mobility, outposts, minors behind pawns and their distance to
//! their king, bishops' pawns and the bishop pair, rooks on open files,
//! space; and, on the way, each piece's attack map and its hits on the
//! enemy king's zone, which the later terms read from the context.

use super::context::EvalInfo;
use super::relative::{pst_index, rel_rank};
use super::slots as ix;
use super::trace::Tracer;
use super::weights::*;
use super::{material_of, Term};
use crate::chess::attacks::distance;
use crate::chess::bitboard::*;
use crate::chess::types::*;

/// Material and the pawn entry's terms of `color`.
#[inline(always)]
pub(super) fn material_and_pawns<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let c = color.index();
    ei.add(color, Term::Material, material_of(ei.board, color));
    if T::ACTIVE {
        for kind in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
            let n = ei.board.count(color, kind) as i32;
            tr.add(color, ix::PIECE_VALUE + kind_index(kind), n);
        }
    }
    ei.add(color, Term::PieceSquare, ei.pawns.psq[c]);
    ei.add(color, Term::PawnStructure, ei.pawns.structure[c]);
}

/// The tables and slots of one kind of piece: piece-square values and
/// mobility by number of squares.
#[inline(always)]
fn tables_of(kind: Piece) -> (&'static [Score; 64], usize, &'static [Score], usize) {
    match kind {
        KNIGHT => (
            &KNIGHT_PST,
            ix::KNIGHT_PST,
            &MOBILITY_KNIGHT,
            ix::MOBILITY_KNIGHT,
        ),
        BISHOP => (
            &BISHOP_PST,
            ix::BISHOP_PST,
            &MOBILITY_BISHOP,
            ix::MOBILITY_BISHOP,
        ),
        ROOK => (&ROOK_PST, ix::ROOK_PST, &MOBILITY_ROOK, ix::MOBILITY_ROOK),
        _ => (
            &QUEEN_PST,
            ix::QUEEN_PST,
            &MOBILITY_QUEEN,
            ix::MOBILITY_QUEEN,
        ),
    }
}

/// Every knight, bishop, rook and queen of `color`: placement, mobility
/// and the kind's own terms; fills `color`'s attack maps (the king's too)
/// and its attack on the enemy king.
#[inline(always)]
pub(super) fn mobility_and_placement<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    let board = ei.board;
    let c = color.index();
    let them = color.flip();
    // Squares a piece may go to and count for its mobility: not held by an
    // own piece, not attacked by an enemy pawn.
    let mobility_area = !ei.occupied_by[c] & !ei.pawns.pawn_attacks[them.index()];
    let enemy_king = board.king_square(them).sq64();
    let zone = KING_ATTACKS[enemy_king] | enemy_king.bit();
    ei.attacks[c][kind_index(PAWN)] = ei.pawns.pawn_attacks[c];
    ei.all_attacks[c] = ei.pawns.pawn_attacks[c];
    ei.twice[c] = ei.pawns.pawn_attacks_twice[c];
    // One call per kind, the kind a constant in each.
    pieces_of_kind(ei, tr, color, KNIGHT, mobility_area, zone);
    pieces_of_kind(ei, tr, color, BISHOP, mobility_area, zone);
    pieces_of_kind(ei, tr, color, ROOK, mobility_area, zone);
    pieces_of_kind(ei, tr, color, QUEEN, mobility_area, zone);
    let king = KING_ATTACKS[board.king_square(color).sq64()];
    ei.add_attacks(c, kind_index(KING), king);
}

/// `color`'s pieces of `kind` (knight to queen): placement, mobility in
/// `mobility_area`, hits on the enemy king's `zone` and the kind's own
/// terms.
#[inline(always)]
fn pieces_of_kind<T: Tracer>(
    ei: &mut EvalInfo,
    tr: &mut T,
    color: Color,
    kind: Piece,
    mobility_area: Bitboard,
    zone: Bitboard,
) {
    let c = color.index();
    let ki = kind_index(kind);
    let (pst, pst_slot, mobility_table, mobility_slot) = tables_of(kind);
    for s in ei.board.piece_squares(color, kind) {
        let at = pst_index(color, s);
        ei.add(color, Term::PieceSquare, pst[at]);
        tr.add(color, pst_slot + at, 1);

        let from = s.sq64();
        let reach = match kind {
            KNIGHT => KNIGHT_ATTACKS[from],
            BISHOP => bishop_attacks(from, ei.occupied),
            ROOK => rook_attacks(from, ei.occupied),
            _ => bishop_attacks(from, ei.occupied) | rook_attacks(from, ei.occupied),
        };
        ei.add_attacks(c, ki, reach);
        let mobility = (reach & mobility_area).count_ones() as usize;
        ei.add(color, Term::Mobility, mobility_table[mobility]);
        tr.add(color, mobility_slot + mobility, 1);
        let zone_hits = count_sparse(reach & zone);
        if zone_hits > 0 {
            let attack = &mut ei.king_attack[c];
            attack.attackers += 1;
            attack.zone_hits[ki] += zone_hits;
        }
        let x_ray = x_ray(ei, kind, from, zone_hits, zone);
        let piece = Placed {
            s,
            mobility,
            x_ray,
            on_ring: zone_hits == 0 && x_ray & zone != 0,
        };
        piece_terms(ei, tr, color, kind, &piece);
    }
}

/// The long diagonals, a1-h8 and h1-a8.
const LONG_DIAGONALS: Bitboard = 0x8040_2010_0804_0201 | 0x0102_0408_1020_4080;

/// What a bishop or rook on `from` would attack with only the pawns on the
/// board (a rook: its whole file), where a term needs it: a bishop's on a
/// long diagonal, or when it misses the king's `zone` but its rays on an
/// empty board do not. Nothing for the other kinds or where no term needs it.
#[inline(always)]
fn x_ray(ei: &EvalInfo, kind: Piece, from: Sq64, zone_hits: i32, zone: Bitboard) -> Bitboard {
    match kind {
        BISHOP
            if from.bit() & LONG_DIAGONALS != 0
                || (zone_hits == 0 && BISHOP_RAYS[from] & zone != 0) =>
        {
            bishop_attacks(from, ei.pawns.pawns[0] | ei.pawns.pawns[1])
        }
        ROOK => FILE_A << from.file(),
        _ => 0,
    }
}

/// One piece as the piece pass found it.
struct Placed {
    /// Its square.
    s: Square,
    /// Its mobility (squares in the mobility area).
    mobility: usize,
    /// Its [`x_ray`].
    x_ray: Bitboard,
    /// It does not hit the enemy king's zone, but its x-ray does.
    on_ring: bool,
}

/// The terms of one piece: outposts, a bishop's pawns on its colour and
/// the long diagonal, a rook's file and whether it is trapped, a queen's
/// infiltration; bishops and rooks aimed at the king's zone.
#[inline(always)]
fn piece_terms<T: Tracer>(
    ei: &mut EvalInfo,
    tr: &mut T,
    color: Color,
    kind: Piece,
    piece: &Placed,
) {
    let c = color.index();
    let s = piece.s;
    let pf = &ei.pawns.files;
    if (kind == KNIGHT || kind == BISHOP)
        && (3..=5).contains(&rel_rank(color, s))
        && ei.pawns.pawn_attacks[c] & bit(s) != 0
        && pf.safe_from_pawns(color, s.file() + 1, s.rank() as i32)
    {
        if kind == KNIGHT {
            ei.add(color, Term::Pieces, KNIGHT_OUTPOST);
            tr.add(color, ix::KNIGHT_OUTPOST, 1);
        } else {
            ei.add(color, Term::Pieces, BISHOP_OUTPOST);
            tr.add(color, ix::BISHOP_OUTPOST, 1);
        }
    }
    if kind == KNIGHT || kind == BISHOP {
        minor_terms(ei, tr, color, s);
    }
    match kind {
        BISHOP => {
            let n = ei.pawns.on_shade[c][(bit(s) & DARK_SQUARES == 0) as usize];
            ei.add(color, Term::Pieces, BISHOP_PAWNS * n);
            tr.add(color, ix::BISHOP_PAWNS, n);
            if ei.board.is_chess960() && rel_rank(color, s) == 0 {
                cornered_bishop(ei, tr, color, s);
            }
            const CENTRE: Bitboard = 0x0000_0018_1800_0000;
            if (piece.x_ray & CENTRE).count_ones() > 1 {
                ei.add(color, Term::Pieces, LONG_DIAGONAL_BISHOP);
                tr.add(color, ix::LONG_DIAGONAL_BISHOP, 1);
            }
            if piece.on_ring {
                ei.add(color, Term::Pieces, BISHOP_ON_KING_RING);
                tr.add(color, ix::BISHOP_ON_KING_RING, 1);
            }
        }
        ROOK => rook_terms(ei, tr, color, piece),
        QUEEN
            if rel_rank(color, s) >= 4
                && pf.safe_from_pawns(color, s.file() + 1, s.rank() as i32) =>
        {
            ei.add(color, Term::Pieces, QUEEN_INFILTRATION);
            tr.add(color, ix::QUEEN_INFILTRATION, 1);
        }
        _ => {}
    }
}

/// A rook of `color`: on an open or half-open file, else trapped beside
/// its uncastled king; on the enemy queen's file; on a file through the
/// enemy king's zone.
#[inline(always)]
fn rook_terms<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color, piece: &Placed) {
    let s = piece.s;
    let c = color.index();
    let them = color.flip().index();
    let pf = &ei.pawns.files;
    let file = s.file();
    if pf.count[c][file + 1] == 0 {
        if pf.count[them][file + 1] == 0 {
            ei.add(color, Term::Pieces, ROOK_OPEN_FILE);
            tr.add(color, ix::ROOK_OPEN_FILE, 1);
        } else {
            ei.add(color, Term::Pieces, ROOK_HALF_OPEN_FILE);
            tr.add(color, ix::ROOK_HALF_OPEN_FILE, 1);
        }
    } else if piece.mobility <= 3 {
        let king_file = ei.board.king_square(color).file();
        if (king_file < 4) == (file < king_file) {
            let rights = ei.board.castling_rights() >> (2 * c) & 3;
            let n = 1 + (rights == 0) as i32;
            ei.add(color, Term::Pieces, TRAPPED_ROOK * n);
            tr.add(color, ix::TRAPPED_ROOK, n);
        }
    }
    if ei.pieces[them][kind_index(QUEEN)] & (FILE_A << file) != 0 {
        ei.add(color, Term::Pieces, ROOK_ON_QUEEN_FILE);
        tr.add(color, ix::ROOK_ON_QUEEN_FILE, 1);
    }
    if piece.on_ring {
        ei.add(color, Term::Pieces, ROOK_ON_KING_RING);
        tr.add(color, ix::ROOK_ON_KING_RING, 1);
    }
}

/// A knight or bishop of `color` on `s`: shielded by a pawn in front of
/// it, and how far it stands from its own king.
#[inline(always)]
fn minor_terms<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color, s: Square) {
    let front = ei.board.at(s.offset(color.forward()));
    if kind_of(front) == PAWN {
        ei.add(color, Term::Pieces, MINOR_BEHIND_PAWN);
        tr.add(color, ix::MINOR_BEHIND_PAWN, 1);
    }
    let steps = distance(s, ei.board.king_square(color));
    ei.add(color, Term::Pieces, KING_PROTECTOR * steps);
    tr.add(color, ix::KING_PROTECTOR, steps);
}

/// Space: the safe central squares on `color`'s side of the board (files
/// c to f, relative ranks 2 to 4; no own pawn, no enemy pawn attack),
/// those behind an own pawn and not attacked by the enemy counted twice, times
/// the number of `color`'s pieces that can use them.
#[inline(always)]
pub(super) fn space<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    const CENTRE_FILES: Bitboard = 0x3C3C_3C3C_3C3C_3C3C;
    let c = color.index();
    let them = color.flip().index();
    let pawns = ei.pieces[c][kind_index(PAWN)];
    let (side, behind) = match color {
        Color::White => (
            CENTRE_FILES & 0x0000_0000_FFFF_FF00,
            (pawns >> 8) | (pawns >> 16) | (pawns >> 24),
        ),
        Color::Black => (
            CENTRE_FILES & 0x00FF_FFFF_0000_0000,
            (pawns << 8) | (pawns << 16) | (pawns << 24),
        ),
    };
    let safe = side & !pawns & !ei.pawns.pawn_attacks[them];
    let squares = count_sparse(safe) + count_sparse(safe & behind & !ei.all_attacks[them]);
    let pieces = ei.occupied_by[c] & !pawns & !ei.pieces[c][kind_index(KING)];
    let units = squares * count_sparse(pieces) / 4;
    ei.add(color, Term::Pieces, SPACE * units);
    tr.add(color, ix::SPACE, units);
}

/// A bishop of `color` on its first rank at `s`: in a corner, with an own
/// pawn on the diagonal square in front, it is shut in (a Chess960 start
/// can put it there; standard chess practically never does).
#[inline(always)]
fn cornered_bishop<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color, s: Square) {
    let file = s.file();
    if file != 0 && file != 7 {
        return;
    }
    let inward = if file == 0 { 1 } else { -1 };
    let pawn_at = s.offset(color.forward() + inward);
    if ei.board.at(pawn_at) != color.piece(PAWN) {
        return;
    }
    let blocked = ei.board.at(pawn_at.offset(color.forward())) != EMPTY;
    let n = 1 + blocked as i32;
    ei.add(color, Term::Pieces, CORNERED_BISHOP * n);
    tr.add(color, ix::CORNERED_BISHOP, n);
}

/// The bishop pair, and the tempo of the side to move.
#[inline(always)]
pub(super) fn pair_and_tempo<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    if ei.board.count(color, BISHOP) >= 2 {
        ei.add(color, Term::Pieces, BISHOP_PAIR);
        tr.add(color, ix::BISHOP_PAIR, 1);
    }
    if ei.board.side_to_move() == color {
        ei.add(color, Term::Tempo, TEMPO);
        tr.add(color, ix::TEMPO, 1);
    }
}
