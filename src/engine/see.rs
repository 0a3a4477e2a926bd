//! Static exchange evaluation: the material outcome of the capture
//! sequence on one square, each side always recapturing with its least
//! valuable piece and free to stop.
//!
//! Works on a scratch copy of the cells: each attacker that captures is
//! lifted off, so the rays walked for the next attacker see the pieces
//! behind it (x-rays) without any special case.

use crate::chess::board::{first_piece, Board};
use crate::chess::types::*;

/// Exchange values by kind index (pawn .. king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline(always)]
fn value(piece: Piece) -> i32 {
    SEE_VALUE[kind_index(kind_of(piece))]
}

/// The least valuable piece of `side` attacking `to` on `cells`, as its
/// square, or `None`.
fn least_attacker(cells: &[Piece; CELLS], to: Square, side: Color) -> Option<Square> {
    let t = to as isize;
    let pawn = side.piece(PAWN);
    for step in [EAST, WEST] {
        let s = (t - side.forward() + step) as Square;
        if cells[s] == pawn {
            return Some(s);
        }
    }
    let knight = side.piece(KNIGHT);
    for j in KNIGHT_JUMPS {
        let s = (t + j) as Square;
        if cells[s] == knight {
            return Some(s);
        }
    }
    // First piece on each ray.
    let mut best: Option<(i32, Square)> = None;
    for (i, d) in QUEEN_DIRS.into_iter().enumerate() {
        let straight = i < 4;
        let s = first_piece(cells, to, d);
        let p = cells[s];
        if !side.owns(p) {
            continue;
        }
        let fits = match kind_of(p) {
            QUEEN => true,
            ROOK => straight,
            BISHOP => !straight,
            _ => false,
        };
        if fits && best.is_none_or(|(v, _)| value(p) < v) {
            best = Some((value(p), s));
        }
    }
    if let Some((v, s)) = best {
        if v < SEE_VALUE[5] {
            return Some(s);
        }
    }
    let king = side.piece(KING);
    for d in QUEEN_DIRS {
        let s = (t + d) as Square;
        if cells[s] == king {
            return Some(s);
        }
    }
    None
}

/// The exchange value of `mv` for the side making it, in centipawns.
pub fn see(board: &Board, mv: Move) -> i32 {
    if mv.is_castle() {
        return 0;
    }
    let mut cells = *board.cells();
    let from = mv.from();
    let to = mv.to();
    let us = board.side_to_move();
    let mut gain = [0i32; 34];
    let mut on_square = cells[from];
    gain[0] = match mv.kind() {
        MoveKind::EnPassant => {
            cells[(to as isize - us.forward()) as Square] = EMPTY;
            SEE_VALUE[0]
        }
        _ => {
            if cells[to] == EMPTY {
                0
            } else {
                value(cells[to])
            }
        }
    };
    if mv.kind() == MoveKind::Promotion {
        gain[0] += SEE_VALUE[kind_index(mv.promo())] - SEE_VALUE[0];
        on_square = us.piece(mv.promo());
    }
    cells[from] = EMPTY;
    cells[to] = on_square;
    let mut side = us.flip();
    let mut d = 0;
    while let Some(s) = least_attacker(&cells, to, side) {
        // A king may not capture into a defended square.
        if kind_of(cells[s]) == KING && least_attacker(&cells, to, side.flip()).is_some() {
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
        on_square = cells[s];
        cells[s] = EMPTY;
        cells[to] = on_square;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
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

    #[test]
    fn quiet_move_to_attacked_square() {
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -950);
        assert_eq!(see_of("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d5"), 0);
    }
}
