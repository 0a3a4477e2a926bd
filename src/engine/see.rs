//! Static exchange evaluation: the material outcome of the capture
//! sequence on one square, each side always recapturing with its least
//! valuable piece and free to stop.
//!
//! Works on a scratch copy of the cells and of the occupied squares: each
//! attacker that captures is lifted off, so the lines looked along for the
//! next attacker see the pieces behind it (x-rays) without any special
//! case.

use crate::chess::attacks::{distance, slider_step};
use crate::chess::bitboard::{bit, nearest_on_ray, ray_of_step};
use crate::chess::board::Board;
use crate::chess::types::*;

/// The exchange's scratch copy of the board: its cells and occupied
/// squares, from which the capturers are lifted one by one.
struct Scratch {
    cells: [Piece; CELLS],
    occupied: u64,
}

impl Scratch {
    /// Empties square `s`.
    #[inline(always)]
    fn lift(&mut self, s: Square) {
        self.cells[s] = EMPTY;
        self.occupied &= !bit(s);
    }

    /// Puts `piece` on square `s`.
    #[inline(always)]
    fn place(&mut self, s: Square, piece: Piece) {
        self.cells[s] = piece;
        self.occupied |= bit(s);
    }
}

/// Exchange values by kind index (pawn .. king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline(always)]
fn value(piece: Piece) -> i32 {
    SEE_VALUE[kind_index(kind_of(piece))]
}

/// The least valuable piece of `side` attacking `to` on the scratch board,
/// as its square, or `None`.
///
/// `board` is the position `scratch` was copied from: the exchange only ever
/// lifts pieces off the copy (and puts each capturer on `to`, from where it
/// attacks nothing), so the board's piece lists name every piece that can
/// still attack, and a kind missing from them is missing from the copy.
#[inline(always)]
fn least_attacker(board: &Board, scratch: &Scratch, to: Square, side: Color) -> Option<Square> {
    let cells = &scratch.cells;
    let pawn = side.piece(PAWN);
    for step in [EAST, WEST] {
        let s = to.offset(step - side.forward());
        if cells[s] == pawn {
            return Some(s);
        }
    }
    if board.count(side, KNIGHT) > 0 {
        let knight = side.piece(KNIGHT);
        for j in KNIGHT_JUMPS {
            let s = to.offset(j);
            if cells[s] == knight {
                return Some(s);
            }
        }
    }
    if let Some(s) = least_slider(board, scratch, to, side) {
        return Some(s);
    }
    // The king, unless it has left its square for `to` already.
    let king = board.king_square(side);
    (cells[king] == side.piece(KING) && distance(to, king) == 1).then_some(king)
}

/// The least valuable slider of `side` that is the first piece on its line
/// to `to`, ties going to the earlier direction of `QUEEN_DIRS`. Looks only
/// along the lines from `to` to the sliders still on the scratch board, kinds in
/// order of value, so the first kind with an attacker holds the answer.
#[inline(always)]
fn least_slider(board: &Board, scratch: &Scratch, to: Square, side: Color) -> Option<Square> {
    let to_index = to.sq64();
    for kind in SLIDERS_BY_VALUE {
        let piece = side.piece(kind);
        let mut best: Option<(usize, Square)> = None;
        for from in board.piece_squares(side, kind) {
            if scratch.cells[from] != piece {
                continue; // already lifted by the exchange
            }
            let d = slider_step(kind, to, from);
            // The first piece on the line from `to` must be this one.
            if d == 0
                || nearest_on_ray(d, ray_of_step(d, to_index) & scratch.occupied) != from.sq64()
            {
                continue;
            }
            let rank = direction_rank(d);
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, from));
            }
        }
        if let Some((_, s)) = best {
            return Some(s);
        }
    }
    None
}

/// The sliding kinds, least valuable first (as `SEE_VALUE` ranks them).
const SLIDERS_BY_VALUE: [Piece; 3] = [BISHOP, ROOK, QUEEN];

/// A line's place in `QUEEN_DIRS`, the order that breaks ties between
/// equal attackers.
#[inline(always)]
fn direction_rank(d: isize) -> usize {
    QUEEN_DIRS
        .iter()
        .position(|&q| q == d)
        .unwrap_or(QUEEN_DIRS.len())
}

/// The exchange value of `mv` for the side making it, in centipawns.
pub fn see(board: &Board, mv: Move) -> i32 {
    if mv.is_castle() {
        return 0;
    }
    let mut scratch = Scratch {
        cells: *board.cells(),
        occupied: board.occupied(),
    };
    let from = mv.from();
    let to = mv.to();
    let us = board.side_to_move();
    let mut gain = [0i32; 34];
    let mut on_square = scratch.cells[from];
    gain[0] = match mv.kind() {
        MoveKind::EnPassant => {
            scratch.lift(to.offset(-us.forward()));
            SEE_VALUE[0]
        }
        _ => {
            let victim = scratch.cells[to];
            if victim == EMPTY {
                0
            } else {
                value(victim)
            }
        }
    };
    if mv.kind() == MoveKind::Promotion {
        gain[0] += SEE_VALUE[kind_index(mv.promo())] - SEE_VALUE[0];
        on_square = us.piece(mv.promo());
    }
    scratch.lift(from);
    scratch.place(to, on_square);
    let mut side = us.flip();
    let mut d = 0;
    while let Some(s) = least_attacker(board, &scratch, to, side) {
        // A king may not capture into a defended square.
        if kind_of(scratch.cells[s]) == KING
            && least_attacker(board, &scratch, to, side.flip()).is_some()
        {
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = value(on_square) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        on_square = scratch.cells[s];
        scratch.lift(s);
        scratch.cells[to] = on_square;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether `see(board, mv) < threshold`, without the exchange when its
/// first capture settles it. For a plain move or capture the exchange is
/// worth at most the victim (the mover may stop after it) and at least the
/// victim less the mover (the opponent's best reply is worth no more than
/// the mover), so outside that band the answer is known; the same answer
/// as `see` always.
#[inline(always)]
pub fn see_below(board: &Board, mv: Move, threshold: i32) -> bool {
    if matches!(mv.kind(), MoveKind::Normal | MoveKind::DoublePush) {
        let victim = board.at(mv.to());
        let gain = if victim == EMPTY { 0 } else { value(victim) };
        if gain < threshold {
            return true;
        }
        if gain - value(board.at(mv.from())) >= threshold {
            return false;
        }
    }
    see(board, mv) < threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        see(&b, parse_uci(&b, mv).unwrap())
    }

    #[test]
    fn simple_exchanges() {
        // Undefended pawn.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Defended pawn taken by a rook: lose the rook for a pawn.
        assert_eq!(
            see_of("4k3/2p5/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6"),
            100 - 500
        );
        // Pawn takes knight defended by a pawn.
        assert_eq!(
            see_of("4k3/2p5/3n4/4P3/8/8/8/4K3 w - - 0 1", "e5d6"),
            320 - 100
        );
        // X-ray: the queen behind the rook recaptures.
        assert_eq!(see_of("3r3k/3r4/8/8/8/8/3R4/3R3K w - - 0 1", "d2d7"), 500);
        assert_eq!(see_of("3q3k/3r4/8/8/8/8/3R4/3Q3K w - - 0 1", "d2d7"), 500);
        // The king defends: the exchange comes out even.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
    }

    /// `see_below` agrees with `see` on every legal move of a set of
    /// positions, at thresholds around every value the band test uses.
    #[test]
    fn see_below_agrees_with_see() {
        use crate::chess::movegen::{GenKind, MoveList};
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "3q3k/3r4/8/8/8/8/3R4/3Q3K w - - 0 1",
            "4k3/2p5/3n4/4P3/8/8/8/4K3 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 4",
            "1k6/6P1/8/3pP3/8/8/5r2/4K2R w K d6 0 1",
        ];
        let mut tested = 0;
        for fen in fens {
            let b = Board::from_fen(fen).unwrap();
            let mut list = MoveList::new();
            b.generate(GenKind::All, &mut list);
            for &mv in &list {
                let exact = see(&b, mv);
                for t in [
                    -1000, -500, -330, -321, -320, -100, -1, 0, 1, 100, 220, 500, 1000,
                ] {
                    assert_eq!(see_below(&b, mv, t), exact < t, "{fen} {mv:?} {t}");
                    tested += 1;
                }
            }
        }
        assert!(tested > 1000);
    }

    #[test]
    fn quiet_move_to_attacked_square() {
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -950);
        assert_eq!(see_of("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d5"), 0);
    }
}
