//! Sets of squares as 64-bit words, for the evaluation's attack maps.
//!
//! The board itself is the 10x12 mailbox; the evaluation turns the piece
//! lists into one bit per square (a1 = bit 0 .. h8 = bit 63, the order of
//! [`to64`]) so that "which squares does this piece attack", "how many of
//! them are safe" and "is this square defended" are a few word operations.
//! Knight and king attacks are tables; sliders use one ray table per
//! direction, cut at the first piece in the way.

use crate::chess::types::*;

/// A set of squares, bit `to64(s)` for square `s`.
pub type Bitboard = u64;

/// The a-file and the h-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;

/// Squares of each shade: those where file + rank is even (a1, the dark
/// squares) and the others.
pub const DARK_SQUARES: Bitboard = 0xAA55_AA55_AA55_AA55;
pub const LIGHT_SQUARES: Bitboard = !DARK_SQUARES;

/// The 0..64 index of a real square ([`to64`], a table look-up).
#[inline(always)]
pub fn index64(s: Square) -> usize {
    to64(s)
}

/// The bit of a real square.
#[inline(always)]
pub fn bit(s: Square) -> Bitboard {
    1u64 << to64(s)
}

/// Squares reached from each square by the steps (file, rank) given, one
/// step each.
const fn step_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[s] |= 1u64 << (nf + 8 * nr);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Squares a knight attacks from each square.
pub const KNIGHT_ATTACKS: [Bitboard; 64] = step_table(&KNIGHT_STEPS);

/// Squares a king attacks from each square.
pub const KING_ATTACKS: [Bitboard; 64] = step_table(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);

/// Ray directions as (file, rank) steps. The first four go to higher
/// square indices (the nearest piece on them is the lowest bit), the last
/// four to lower ones (the highest bit).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (-1, 1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (1, -1),
];

/// Indices into `RAYS` by direction.
const NORTH_RAY: usize = 0;
const NORTH_EAST_RAY: usize = 1;
const EAST_RAY: usize = 2;
const NORTH_WEST_RAY: usize = 3;
const SOUTH_RAY: usize = 4;
const SOUTH_WEST_RAY: usize = 5;
const WEST_RAY: usize = 6;
const SOUTH_EAST_RAY: usize = 7;

/// Every square from each square to the edge in each direction (the
/// square itself excluded).
const RAYS: [[Bitboard; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i32, (s / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][s] |= 1u64 << (f + 8 * r);
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// Squares a bishop on each square attacks on an empty board.
pub const BISHOP_RAYS: [Bitboard; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = RAYS[NORTH_EAST_RAY][s]
            | RAYS[NORTH_WEST_RAY][s]
            | RAYS[SOUTH_WEST_RAY][s]
            | RAYS[SOUTH_EAST_RAY][s];
        s += 1;
    }
    t
};

/// Squares a rook on each square attacks on an empty board.
pub const ROOK_RAYS: [Bitboard; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = RAYS[NORTH_RAY][s] | RAYS[EAST_RAY][s] | RAYS[SOUTH_RAY][s] | RAYS[WEST_RAY][s];
        s += 1;
    }
    t
};

/// The squares along a ray that goes to higher indices, up to and with
/// the first occupied one.
#[inline(always)]
fn ray_up(dir: usize, s: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][s];
    // The extra bit 63 stands in for "no blocker": its ray is empty.
    let blocker = ((ray & occupied) | (1u64 << 63)).trailing_zeros() as usize;
    ray ^ RAYS[dir][blocker]
}

/// The squares along a ray that goes to lower indices, up to and with the
/// first occupied one.
#[inline(always)]
fn ray_down(dir: usize, s: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][s];
    // Bit 0 stands in for "no blocker": a1's downward rays are empty.
    let blocker = 63 - ((ray & occupied) | 1).leading_zeros() as usize;
    ray ^ RAYS[dir][blocker]
}

/// Squares a bishop on `s` (0..64) attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(s: usize, occupied: Bitboard) -> Bitboard {
    ray_up(NORTH_EAST_RAY, s, occupied)
        | ray_up(NORTH_WEST_RAY, s, occupied)
        | ray_down(SOUTH_WEST_RAY, s, occupied)
        | ray_down(SOUTH_EAST_RAY, s, occupied)
}

/// Squares a rook on `s` (0..64) attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(s: usize, occupied: Bitboard) -> Bitboard {
    ray_up(NORTH_RAY, s, occupied)
        | ray_up(EAST_RAY, s, occupied)
        | ray_down(SOUTH_RAY, s, occupied)
        | ray_down(WEST_RAY, s, occupied)
}

/// Squares the pawns `pawns` of `color` attack towards the h-file side and
/// towards the a-file side.
#[inline(always)]
pub fn pawn_attacks_each_way(pawns: Bitboard, color: Color) -> (Bitboard, Bitboard) {
    match color {
        Color::White => ((pawns & !FILE_H) << 9, (pawns & !FILE_A) << 7),
        Color::Black => ((pawns & !FILE_H) >> 7, (pawns & !FILE_A) >> 9),
    }
}

/// The number of squares in a set that is often empty: the test first is
/// cheaper than a count, which the baseline x86-64 target does without a
/// popcount instruction.
#[inline(always)]
pub fn count_sparse(set: Bitboard) -> i32 {
    if set == 0 {
        0
    } else {
        set.count_ones() as i32
    }
}

/// Iterates over the squares (0..64) of a set.
#[inline(always)]
pub fn squares_of(mut set: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as usize;
            set &= set - 1;
            s
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::board::Board;

    /// Squares attacked from `from` by walking the mailbox, as the move
    /// generator does.
    fn walk(board: &Board, from: Square, steps: &[isize], slides: bool) -> Bitboard {
        let mut set = 0;
        for &d in steps {
            let mut to = (from as isize + d) as Square;
            while board.at(to) != OFF_BOARD {
                set |= bit(to);
                if !slides || board.at(to) != EMPTY {
                    break;
                }
                to = (to as isize + d) as Square;
            }
        }
        set
    }

    #[test]
    fn attacks_agree_with_the_mailbox() {
        for fen in crate::engine::bench::POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            let mut occupied = 0;
            for i in 0..64 {
                if board.at(from64(i)) != EMPTY {
                    occupied |= 1u64 << i;
                }
            }
            for i in 0..64 {
                let s = from64(i);
                assert_eq!(index64(s), to64(s));
                assert_eq!(KNIGHT_ATTACKS[i], walk(&board, s, &KNIGHT_JUMPS, false));
                assert_eq!(KING_ATTACKS[i], walk(&board, s, &QUEEN_DIRS, false));
                assert_eq!(
                    bishop_attacks(i, occupied),
                    walk(&board, s, &BISHOP_DIRS, true),
                    "{fen} {i}"
                );
                assert_eq!(
                    rook_attacks(i, occupied),
                    walk(&board, s, &ROOK_DIRS, true),
                    "{fen} {i}"
                );
            }
        }
    }

    #[test]
    fn pawns_attack_diagonally_forward() {
        let e4 = 1u64 << to64(square(4, 3));
        let a4 = 1u64 << to64(square(0, 3));
        let h4 = 1u64 << to64(square(7, 3));
        let at = |f, r| 1u64 << to64(square(f, r));
        assert_eq!(
            pawn_attacks_each_way(e4, Color::White),
            (at(5, 4), at(3, 4))
        );
        assert_eq!(
            pawn_attacks_each_way(e4, Color::Black),
            (at(5, 2), at(3, 2))
        );
        assert_eq!(pawn_attacks_each_way(a4, Color::White), (at(1, 4), 0));
        assert_eq!(pawn_attacks_each_way(h4, Color::Black), (0, at(6, 2)));
        assert_eq!(DARK_SQUARES & 1, 1, "a1 is dark");
        assert_eq!(
            squares_of(e4 | a4).collect::<Vec<_>>(),
            vec![to64(square(0, 3)), to64(square(4, 3))]
        );
    }
}
