//! Mop-up: against a bare king, the score alone does not say how to mate.
//! With a queen, a rook, two bishops or bishop and knight against a lone
//! king, the stronger side gains for every step the lone king is pushed
//! toward the edge (for bishop and knight, toward a corner of the bishop's
//! colour, the only corners where that mate exists) and for every step its
//! own king comes closer. Without it the search sees no progress within its
//! horizon and wanders into the fifty-move rule (self-play at 10,000 nodes
//! a move drew most king-and-rook-against-king endings).

use crate::chess::board::Board;
use crate::chess::types::*;

/// Per step of the lone king away from the centre (0..=6).
const MOPUP_EDGE: i32 = 48;
/// Per step of the lone king toward a mating corner (bishop and knight).
const MOPUP_CORNER: i32 = 64;
/// Per step the kings are closer than 7 apart (Chebyshev distance).
const MOPUP_CLOSE: i32 = 24;

/// The mop-up bonus for `strong` against a bare king, or `None` when the
/// other side has more than its king or `strong` has no mating force.
#[inline(always)]
pub(super) fn mopup(board: &Board, strong: Color) -> Option<i32> {
    let weak = strong.flip();
    let weak_has = |k: Piece| board.count(weak, k) > 0;
    if [PAWN, KNIGHT, BISHOP, ROOK, QUEEN]
        .into_iter()
        .any(weak_has)
    {
        return None;
    }
    let (knights, bishops) = (board.count(strong, KNIGHT), board.count(strong, BISHOP));
    let heavy = board.count(strong, QUEEN) + board.count(strong, ROOK) > 0;
    let bishop_knight = !heavy && bishops == 1 && knights >= 1;
    if !heavy && !bishop_knight && bishops < 2 {
        return None;
    }
    let lone = board.king_square(weak);
    let own = board.king_square(strong);
    let (lf, lr) = (lone.file() as i32, lone.rank() as i32);
    let (of, or) = (own.file() as i32, own.rank() as i32);
    let kings = (lf - of).abs().max((lr - or).abs());
    let mut bonus = MOPUP_CLOSE * (7 - kings);
    if bishop_knight {
        // Corners a1/h8 are dark, a8/h1 light; the bishop's shade decides.
        let dark = board
            .piece_squares(strong, BISHOP)
            .next()
            .is_some_and(|b| (b.file() + b.rank()).is_multiple_of(2));
        let corner = if dark {
            lf.max(lr).min((7 - lf).max(7 - lr))
        } else {
            lf.max(7 - lr).min((7 - lf).max(lr))
        };
        bonus += MOPUP_CORNER * (7 - corner);
    } else {
        let centre = (3 - lf).max(lf - 4) + (3 - lr).max(lr - 4);
        bonus += MOPUP_EDGE * centre;
    }
    Some(bonus)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bonus(fen: &str) -> Option<i32> {
        mopup(&Board::from_fen(fen).unwrap(), Color::White)
    }

    #[test]
    fn pushes_the_lone_king_and_brings_ours() {
        let centre = bonus("8/8/8/3k4/8/8/8/R3K3 w - - 0 1").unwrap();
        let edge = bonus("3k4/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let corner = bonus("k7/8/8/8/8/8/8/1R2K3 w - - 0 1").unwrap();
        assert!(centre < edge && edge < corner, "{centre} {edge} {corner}");
        let near = bonus("k7/8/1K6/8/8/8/8/1R6 w - - 0 1").unwrap();
        assert!(near > corner);
    }

    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // Dark-squared bishop (c1): a1 and h8 are the mating corners.
        let right = bonus("8/8/8/8/8/8/8/k1B1K1N1 w - - 0 1").unwrap();
        let wrong = bonus("k7/8/8/8/8/8/8/2B1K1N1 w - - 0 1").unwrap();
        assert!(right > wrong, "{right} {wrong}");
        // Light-squared bishop (f1): a8 and h1.
        let right = bonus("k7/8/8/8/8/8/8/4KBN1 w - - 0 1").unwrap();
        let wrong = bonus("8/8/8/8/8/8/8/k3KBN1 w - - 0 1").unwrap();
        assert!(right > wrong, "{right} {wrong}");
    }

    #[test]
    fn only_against_a_bare_king_with_mating_force() {
        assert_eq!(bonus("8/8/8/3k4/8/8/p7/R3K3 w - - 0 1"), None);
        assert_eq!(bonus("8/8/8/3k4/8/8/8/1N2K1N1 w - - 0 1"), None);
        assert_eq!(bonus("8/8/8/3k4/8/8/8/1B2K3 w - - 0 1"), None);
        assert!(bonus("8/8/8/3k4/8/8/8/1B2KB2 w - - 0 1").is_some());
        assert!(bonus("8/8/8/3k4/8/8/7Q/4K3 w - - 0 1").is_some());
    }
}
