//! Mailbox geometry for attack tests: the one ray walk of the crate
//! ([`first_piece`]), the attack test on bare cells ([`attacked`]), and the
//! byte-indexed tables that turn the difference of two squares into a line
//! step ([`direction`], [`slider_step`]), a knight jump ([`knight_jump`]) or
//! a king distance ([`distance`]).

use crate::chess::types::*;

/// True when `square` is attacked by a piece of colour `by` on `cells`.
///
/// Looks outward from the square: pawn diagonals, knight and king jumps, then
/// the rook and bishop rays up to the first piece on each.
#[inline]
pub fn attacked(cells: &[Piece; CELLS], square: Square, by: Color) -> bool {
    let at = |d: isize| cells[square.offset(d)];
    // A pawn of `by` attacks `square` from one rank behind it (seen from `by`).
    let pawn = by.piece(PAWN);
    let back = -by.forward();
    if at(back + EAST) == pawn || at(back + WEST) == pawn {
        return true;
    }
    let knight = by.piece(KNIGHT);
    for j in KNIGHT_JUMPS {
        if at(j) == knight {
            return true;
        }
    }
    let king = by.piece(KING);
    for d in QUEEN_DIRS {
        if at(d) == king {
            return true;
        }
    }
    let (rook, bishop, queen) = (by.piece(ROOK), by.piece(BISHOP), by.piece(QUEEN));
    for d in ROOK_DIRS {
        let p = cells[first_piece(cells, square, d)];
        if p == rook || p == queen {
            return true;
        }
    }
    for d in BISHOP_DIRS {
        let p = cells[first_piece(cells, square, d)];
        if p == bishop || p == queen {
            return true;
        }
    }
    false
}

/// The first occupied cell met walking from `from` (not included) in steps
/// of `d`; the guard band ends every walk. The one ray walk of the crate:
/// the check test, the checkers and pins of move generation, `gives_check`
/// and SEE all ask it what stands first on a line.
#[inline(always)]
pub fn first_piece(cells: &[Piece; CELLS], from: Square, d: isize) -> Square {
    walk::<false>(cells, from, d, Square::NONE)
}

/// [`first_piece`] with the cell `lifted` seen as empty: a king stepping off
/// a checking ray must not shield its own destination, a piece leaving a
/// line must not block it.
#[inline(always)]
pub fn first_piece_lifting(
    cells: &[Piece; CELLS],
    from: Square,
    d: isize,
    lifted: Square,
) -> Square {
    walk::<true>(cells, from, d, lifted)
}

/// The walk itself; `LIFT` is a constant so that the plain walk carries no
/// test for the lifted cell.
#[inline(always)]
fn walk<const LIFT: bool>(
    cells: &[Piece; CELLS],
    from: Square,
    d: isize,
    lifted: Square,
) -> Square {
    let mut t = from.offset(d);
    while cells[t] == EMPTY || (LIFT && t == lifted) {
        t = t.offset(d);
    }
    t
}

/// Size of the tables indexed by a byte: a `u8` index needs no bounds
/// check.
const BYTE_TABLE: usize = 256;

/// 0x88 index of each mailbox cell (file + 16 * rank; 0x88 bits set off
/// the board), used to turn square differences into directions. Indexed
/// by the square's low byte.
const TO_0X88: [u8; BYTE_TABLE] = {
    let mut t = [0x88u8; BYTE_TABLE];
    let mut i = 0;
    while i < 64 {
        t[Sq64::new(i).cell().index()] = (i % 8 + 16 * (i / 8)) as u8;
        i += 1;
    }
    t
};

/// The eight line steps as (file, rank) steps, rank and file steps first.
const LINE_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Direction (10x12 step) by 0x88 difference + 119 along the lines of
/// `LINE_STEPS[first..last]`, else 0: on a 0x88 board each difference
/// belongs to at most one line, which a 10x12 difference does not.
const fn directions(first: usize, last: usize) -> [i8; BYTE_TABLE] {
    let mut t = [0i8; BYTE_TABLE];
    let mut k = first;
    while k < last {
        let (df, dr) = LINE_STEPS[k];
        let mut n = 1;
        while n < 8 {
            t[(119 + (df + 16 * dr) * n) as usize] = (df + 10 * dr) as i8;
            n += 1;
        }
        k += 1;
    }
    t
}

/// The step along any line, along ranks and files, along diagonals, by
/// [`diff_index`]: one look-up gives a slider's step towards a square.
const DIRECTION_BY_DIFF: [i8; BYTE_TABLE] = directions(0, 8);
const STRAIGHT_BY_DIFF: [i8; BYTE_TABLE] = directions(0, 4);
const DIAGONAL_BY_DIFF: [i8; BYTE_TABLE] = directions(4, 8);

/// Whether the difference is a knight jump, by [`diff_index`].
const KNIGHT_BY_DIFF: [bool; BYTE_TABLE] = {
    let mut t = [false; BYTE_TABLE];
    let jumps = KNIGHT_STEPS;
    let mut k = 0;
    while k < 8 {
        t[(119 + jumps[k].0 + 16 * jumps[k].1) as usize] = true;
        k += 1;
    }
    t
};

/// True when a knight jump leads from `from` to `to` (real squares).
#[inline(always)]
pub fn knight_jump(from: Square, to: Square) -> bool {
    KNIGHT_BY_DIFF[diff_index(from, to)]
}

/// The step from `from` towards `to` when a slider of `kind` (bishop, rook
/// or queen) moves along that line, else 0: [`direction`] restricted to
/// the kind's lines, in one look-up.
#[inline(always)]
pub fn slider_step(kind: Piece, from: Square, to: Square) -> isize {
    let i = diff_index(from, to);
    (match kind {
        ROOK => STRAIGHT_BY_DIFF[i],
        BISHOP => DIAGONAL_BY_DIFF[i],
        _ => DIRECTION_BY_DIFF[i],
    }) as isize
}

/// The 10x12 step that leads from `from` to `to` along a rank, file or
/// diagonal, or 0 when the two squares are not aligned (or equal). Both
/// must be real squares.
#[inline(always)]
pub fn direction(from: Square, to: Square) -> isize {
    DIRECTION_BY_DIFF[diff_index(from, to)] as isize
}

/// Index of the 0x88 difference `to - from`, plus 119, in the byte-indexed
/// tables (0..239 for real squares). Computed in bytes, so no look-up
/// needs a bounds check.
#[inline(always)]
fn diff_index(from: Square, to: Square) -> usize {
    TO_0X88[to].wrapping_sub(TO_0X88[from]).wrapping_add(119) as usize
}

/// Chebyshev distance (king steps) by 0x88 difference + 119.
const DISTANCE_BY_DIFF: [u8; BYTE_TABLE] = {
    let mut t = [0u8; BYTE_TABLE];
    let mut dr = -7i32;
    while dr <= 7 {
        let mut df = -7i32;
        while df <= 7 {
            let (a, b) = (if df < 0 { -df } else { df }, if dr < 0 { -dr } else { dr });
            t[(119 + df + 16 * dr) as usize] = if a > b { a as u8 } else { b as u8 };
            df += 1;
        }
        dr += 1;
    }
    t
};

/// King-step distance between two real squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    DISTANCE_BY_DIFF[diff_index(a, b)] as i32
}

/// True for rook steps (rank and file).
#[inline(always)]
pub const fn is_straight(d: isize) -> bool {
    d == NORTH || d == SOUTH || d == EAST || d == WEST
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_table() {
        assert_eq!(direction(sq::A1, sq::H8), NORTH + EAST);
        assert_eq!(direction(sq::H1, sq::A1), WEST);
        assert_eq!(direction(sq::A1, sq::A8), NORTH);
        assert_eq!(direction(sq::A1, Square::from_coords(7, 2)), 0);
        assert_eq!(direction(sq::D1, Square::from_coords(0, 1)), 0);
        assert_eq!(direction(sq::E1, sq::E1), 0);
    }
}
