//! Piece codes, colours, squares, direction offsets and the packed `Move`.
//!
//! The board is the classic 10x12 mailbox: 12 rows of 10 cells, the real
//! board in rows 2..=9 and columns 1..=8, so a1 = 21 and h8 = 98. A rank step
//! is 10 and a file step 1. The two-row guard band above and below (and one
//! column each side, which wraps into its neighbour row) means a knight jump
//! from any real square lands inside the array.
//!
//! Cells hold signed piece codes that are also rough material values:
//! White positive, Black negative, empty 0, off-board 127.

use std::fmt;

/// A cell value: a signed piece code, `EMPTY` or `OFF_BOARD`.
pub type Piece = i8;
/// A mailbox cell, 0..120: the board's square, the one moves, FEN and
/// notation speak. The 64 real ones are rows 2..=9, columns 1..=8 (a1 =
/// 21, h8 = 98); the others are the guard band. Bitboards and the
/// evaluation's tables use the 0..64 [`Sq64`]: [`Square::sq64`] and
/// [`Sq64::cell`] convert.
///
/// It holds a machine word, as the `usize` it replaced did, so that a step
/// ([`Square::offset`]) and the array index after it compile to one
/// address, and the compiler can prove bounds checks away: a byte-wide
/// square wraps at 256 on every step, and cost 8% of perft's instructions.
/// The piece lists and the undo record, which keep many squares, store a
/// [`Square::byte`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(usize);

impl Square {
    /// No square: cell 0, a guard cell (an absent en-passant target or
    /// castling rook).
    pub const NONE: Square = Square(0);

    /// The cell `cell` (0..120) of the mailbox.
    #[inline(always)]
    pub const fn new(cell: usize) -> Square {
        debug_assert!(cell < CELLS);
        Square(cell)
    }

    /// The real square on file (0..8) and rank (0..8).
    #[inline(always)]
    pub const fn from_coords(file: usize, rank: usize) -> Square {
        Square(21 + file + 10 * rank)
    }

    /// The 64 real squares, a1 first (in [`Sq64`] order).
    #[inline(always)]
    pub fn all() -> impl Iterator<Item = Square> {
        Sq64::all().map(Sq64::cell)
    }

    /// The cell number 0..120, for arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0
    }

    /// File 0..8 of a real square (8 off the board): one look-up, by the
    /// low byte (no bounds check).
    #[inline(always)]
    pub const fn file(self) -> usize {
        FILE_OF[self.0 as u8 as usize] as usize
    }

    /// Rank 0..8 of a real square (8 off the board): one look-up, by the
    /// low byte.
    #[inline(always)]
    pub const fn rank(self) -> usize {
        RANK_OF[self.0 as u8 as usize] as usize
    }

    /// True for the 64 real squares.
    #[inline(always)]
    pub const fn is_real(self) -> bool {
        self.0 >= 21 && self.0 <= 98 && !self.0.is_multiple_of(10) && self.0 % 10 != 9
    }

    /// The cell `d` steps away (a direction offset such as [`NORTH`]);
    /// from a real square, any queen step or knight jump stays in the array.
    #[inline(always)]
    pub const fn offset(self, d: isize) -> Square {
        Square(self.0.wrapping_add_signed(d))
    }

    /// The step from `self` to `to` (`to - self` on the mailbox).
    #[inline(always)]
    pub const fn delta(self, to: Square) -> isize {
        to.0 as isize - self.0 as isize
    }

    /// The 0..64 index of a real square: one look-up (64 off the board).
    #[inline(always)]
    pub const fn sq64(self) -> Sq64 {
        Sq64(TO64[self.0 as u8 as usize] as usize)
    }

    /// The same square seen from the other side (rank mirrored).
    #[inline(always)]
    pub const fn mirror(self) -> Square {
        Square::from_coords(self.file(), 7 - self.rank())
    }

    /// The cell number in one byte, for the piece lists, the undo record
    /// and the pin list: [`Square::from_byte`] reads it back.
    #[inline(always)]
    pub const fn byte(self) -> u8 {
        self.0 as u8
    }

    /// The square whose [`Square::byte`] is `b`.
    #[inline(always)]
    pub const fn from_byte(b: u8) -> Square {
        Square(b as usize)
    }
}

impl<T> std::ops::Index<Square> for [T; CELLS] {
    type Output = T;
    #[inline(always)]
    fn index(&self, s: Square) -> &T {
        &self[s.0]
    }
}

impl<T> std::ops::IndexMut<Square> for [T; CELLS] {
    #[inline(always)]
    fn index_mut(&mut self, s: Square) -> &mut T {
        &mut self[s.0]
    }
}

/// A table of 256 entries is read by the square's low byte: no bounds
/// check (every cell is below 120).
impl<T> std::ops::Index<Square> for [T; 256] {
    type Output = T;
    #[inline(always)]
    fn index(&self, s: Square) -> &T {
        &self[s.0 as u8 as usize]
    }
}

/// The square's name (`e4`), or `cell N` for a guard cell.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_real() {
            f.write_str(&square_name(*self))
        } else {
            write!(f, "cell {}", self.0)
        }
    }
}

pub const EMPTY: Piece = 0;
pub const PAWN: Piece = 2;
pub const BISHOP: Piece = 6;
pub const KNIGHT: Piece = 7;
pub const ROOK: Piece = 10;
pub const QUEEN: Piece = 19;
pub const KING: Piece = 126;
/// Guard cell. Positive, so "code > 0" does not mean "white piece": use
/// [`Color::owns`] to test colour.
pub const OFF_BOARD: Piece = 127;

/// Number of mailbox cells.
pub const CELLS: usize = 120;

/// Rank and file steps on the 10x12 board.
pub const NORTH: isize = 10;
pub const SOUTH: isize = -10;
pub const EAST: isize = 1;
pub const WEST: isize = -1;

pub const ROOK_DIRS: [isize; 4] = [NORTH, SOUTH, EAST, WEST];
pub const BISHOP_DIRS: [isize; 4] = [NORTH + EAST, NORTH + WEST, SOUTH + EAST, SOUTH + WEST];
pub const QUEEN_DIRS: [isize; 8] = [
    NORTH,
    SOUTH,
    EAST,
    WEST,
    NORTH + EAST,
    NORTH + WEST,
    SOUTH + EAST,
    SOUTH + WEST,
];
pub const KNIGHT_JUMPS: [isize; 8] = [-21, -19, -12, -8, 8, 12, 19, 21];

/// The kinds a pawn may promote to, strongest first.
pub const PROMOTION_KINDS: [Piece; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

/// Named squares used by the rules and tests.
pub mod sq {
    use super::Square;
    pub const A1: Square = Square::new(21);
    pub const B1: Square = Square::new(22);
    pub const C1: Square = Square::new(23);
    pub const D1: Square = Square::new(24);
    pub const E1: Square = Square::new(25);
    pub const F1: Square = Square::new(26);
    pub const G1: Square = Square::new(27);
    pub const H1: Square = Square::new(28);
    pub const A8: Square = Square::new(91);
    pub const C8: Square = Square::new(93);
    pub const D8: Square = Square::new(94);
    pub const E8: Square = Square::new(95);
    pub const F8: Square = Square::new(96);
    pub const G8: Square = Square::new(97);
    pub const H8: Square = Square::new(98);
}

/// The side to move, +1 for White and -1 for Black, so that a piece's code
/// times the colour's sign is positive for the colour's own pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// +1 for White, -1 for Black.
    #[inline(always)]
    pub const fn sign(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// True when `piece` is one of this colour's pieces (never for empty or
    /// off-board cells).
    #[inline(always)]
    pub const fn owns(self, piece: Piece) -> bool {
        match self {
            Color::White => piece > 0 && piece != OFF_BOARD,
            Color::Black => piece < 0,
        }
    }

    /// The code of this colour's piece of kind `kind`.
    #[inline(always)]
    pub const fn piece(self, kind: Piece) -> Piece {
        kind * self.sign()
    }

    /// Pawn push step for this colour.
    #[inline(always)]
    pub const fn forward(self) -> isize {
        match self {
            Color::White => NORTH,
            Color::Black => SOUTH,
        }
    }

    /// Rank (0-based) the colour's pieces start on.
    #[inline(always)]
    pub const fn back_rank(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

/// Colour of a piece code; `None` for empty and off-board cells.
#[inline(always)]
pub fn color_of(piece: Piece) -> Option<Color> {
    if Color::White.owns(piece) {
        Some(Color::White)
    } else if piece < 0 {
        Some(Color::Black)
    } else {
        None
    }
}

/// The kind (absolute code) of a piece.
#[inline(always)]
pub const fn kind_of(piece: Piece) -> Piece {
    piece.abs()
}

/// Dense 0..6 index of a piece kind (pawn 0 .. king 5), for tables.
/// Anything else (a negative code, `EMPTY`, `OFF_BOARD`) gives 5, as the
/// king does. One look-up in [`KIND_INDEX`].
#[inline(always)]
pub const fn kind_index(kind: Piece) -> usize {
    KIND_INDEX[kind as u8 as usize] as usize
}

/// Which piece list holds pieces with this code (White 0..6, Black 6..12,
/// each in `kind_index` order).
/// One look-up in [`LIST_INDEX`].
#[inline(always)]
pub const fn list_index(piece: Piece) -> usize {
    LIST_INDEX[piece as u8 as usize] as usize
}

/// [`list_index`] of every code, by the code's byte.
const LIST_INDEX: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let piece = i as u8 as Piece;
        t[i] = ((if piece < 0 { 6 } else { 0 }) + kind_index(piece.wrapping_abs())) as u8;
        i += 1;
    }
    t
};

/// [`kind_index`] of every code, by the code's byte.
const KIND_INDEX: [u8; 256] = {
    let mut t = [5u8; 256];
    t[PAWN as usize] = 0;
    t[KNIGHT as usize] = 1;
    t[BISHOP as usize] = 2;
    t[ROOK as usize] = 3;
    t[QUEEN as usize] = 4;
    t
};

/// Kinds in [`kind_index`] order.
pub const KINDS: [Piece; 6] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING];

/// [`Square::file`] and [`Square::rank`] of every cell (8 off the board).
const FILE_OF: [u8; 256] = coordinate_table(true);
const RANK_OF: [u8; 256] = coordinate_table(false);

const fn coordinate_table(file: bool) -> [u8; 256] {
    let mut t = [8u8; 256];
    let mut i = 0;
    while i < 64 {
        t[Sq64(i).cell().0] = if file { i % 8 } else { i / 8 } as u8;
        i += 1;
    }
    t
}

/// [`Square::sq64`] of every cell, by the cell's byte (64 off the board).
const TO64: [u8; 256] = {
    let mut t = [64u8; 256];
    let mut i = 0;
    while i < 64 {
        t[Sq64(i).cell().0] = i as u8;
        i += 1;
    }
    t
};

/// A bitboard square: the 0..64 index a1 = 0, b1 = 1 .. h8 = 63, bit
/// `index()` of a [`Bitboard`](crate::chess::bitboard::Bitboard). The
/// attack tables, the evaluation's tables, the book's keys and the
/// tablebase code speak it; the board, the moves and the notation speak
/// the mailbox [`Square`]. [`Sq64::cell`] and [`Square::sq64`] convert.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Sq64(usize);

impl Sq64 {
    /// The square of index `i` (0..64).
    #[inline(always)]
    pub const fn new(i: usize) -> Sq64 {
        debug_assert!(i < 64);
        Sq64(i)
    }

    /// The square on file (0..8) and rank (0..8).
    #[inline(always)]
    pub const fn from_coords(file: usize, rank: usize) -> Sq64 {
        Sq64(file + 8 * rank)
    }

    /// The 64 squares, a1 first.
    #[inline(always)]
    pub fn all() -> impl Iterator<Item = Sq64> {
        (0..64).map(Sq64)
    }

    /// The index 0..64, for arrays and shifts.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0
    }

    #[inline(always)]
    pub const fn file(self) -> usize {
        self.0 % 8
    }

    #[inline(always)]
    pub const fn rank(self) -> usize {
        self.0 / 8
    }

    /// The set holding just this square.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The same file on the mirrored rank (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Sq64 {
        Sq64(self.0 ^ 56)
    }

    /// The mailbox cell of this square.
    #[inline(always)]
    pub const fn cell(self) -> Square {
        Square::from_coords(self.file(), self.rank())
    }
}

impl<T> std::ops::Index<Sq64> for [T; 64] {
    type Output = T;
    #[inline(always)]
    fn index(&self, s: Sq64) -> &T {
        &self[s.0]
    }
}

impl<T> std::ops::IndexMut<Sq64> for [T; 64] {
    #[inline(always)]
    fn index_mut(&mut self, s: Sq64) -> &mut T {
        &mut self[s.0]
    }
}

/// `e4`-style name of a real square.
pub fn square_name(s: Square) -> String {
    let mut name = String::with_capacity(2);
    name.push((b'a' + s.file() as u8) as char);
    name.push((b'1' + s.rank() as u8) as char);
    name
}

/// Parses `e4`-style square names (exactly two bytes).
pub fn parse_square(text: &str) -> Option<Square> {
    match text.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(
            (f - b'a') as usize,
            (r - b'1') as usize,
        )),
        _ => None,
    }
}

/// FEN letter of a piece code (`P`, `n`, ...).
pub fn piece_char(piece: Piece) -> char {
    let c = match kind_of(piece) {
        PAWN => 'p',
        KNIGHT => 'n',
        BISHOP => 'b',
        ROOK => 'r',
        QUEEN => 'q',
        KING => 'k',
        _ => '?',
    };
    if Color::White.owns(piece) {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

/// Piece code of a FEN letter.
pub fn piece_from_char(c: char) -> Option<Piece> {
    let kind = match c.to_ascii_lowercase() {
        'p' => PAWN,
        'n' => KNIGHT,
        'b' => BISHOP,
        'r' => ROOK,
        'q' => QUEEN,
        'k' => KING,
        _ => return None,
    };
    Some(if c.is_ascii_uppercase() { kind } else { -kind })
}

/// What kind of move a [`Move`] is, beyond from and to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    DoublePush = 1,
    EnPassant = 2,
    /// Encoded as king takes own rook: `to` is the castling rook's square.
    Castle = 3,
    Promotion = 4,
}

/// A move packed in 32 bits: from (7 bits), to (7), kind (3), promotion
/// piece kind (8). `Move::NONE` is zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

const FROM_BITS: u32 = 7;
const TO_SHIFT: u32 = FROM_BITS;
const KIND_SHIFT: u32 = 14;
const PROMO_SHIFT: u32 = 17;
const SQ_MASK: u32 = 0x7f;

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << TO_SHIFT | (kind as u32) << KIND_SHIFT)
    }

    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, promo: Piece) -> Move {
        Move(
            from.0 as u32
                | (to.0 as u32) << TO_SHIFT
                | (MoveKind::Promotion as u32) << KIND_SHIFT
                | (promo as u8 as u32) << PROMO_SHIFT,
        )
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & SQ_MASK) as usize)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> TO_SHIFT & SQ_MASK) as usize)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            _ => MoveKind::Promotion,
        }
    }

    /// The promotion piece kind (positive), or `EMPTY`.
    #[inline(always)]
    pub const fn promo(self) -> Piece {
        (self.0 >> PROMO_SHIFT) as u8 as Piece
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> KIND_SHIFT & 7 == MoveKind::Castle as u32
    }

    /// The raw 32-bit encoding (for hash tables).
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Rebuilds a move from [`Move::bits`]. The result may not be legal in
    /// any position: check it with `Board::is_legal` before use.
    #[inline(always)]
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "Move(none)");
        }
        write!(
            f,
            "Move({}{}{:?}",
            square_name(self.from()),
            square_name(self.to()),
            self.kind()
        )?;
        if self.promo() != EMPTY {
            write!(f, "={}", piece_char(-self.promo()))?;
        }
        write!(f, ")")
    }
}

/// A knight's eight jumps as (file, rank) steps: the mailbox reach table
/// and the knight attack bitboards are both made from them.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        assert_eq!(sq::A1, Square::from_coords(0, 0));
        assert_eq!(sq::H8, Square::from_coords(7, 7));
        for i in Sq64::all() {
            let s = i.cell();
            assert!(s.is_real());
            assert_eq!(s.sq64(), i);
            assert_eq!(parse_square(&square_name(s)), Some(s));
            assert_eq!(s.mirror().mirror(), s);
        }
        let real = (0..CELLS).filter(|&s| Square::new(s).is_real()).count();
        assert_eq!(real, 64);
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(parse_square("é"), None);
    }

    #[test]
    fn knight_jumps_stay_in_the_array() {
        for i in Sq64::all() {
            for j in KNIGHT_JUMPS {
                let t = i.cell().index() as isize + j;
                assert!((0..CELLS as isize).contains(&t));
            }
        }
    }

    #[test]
    fn move_packing() {
        let m = Move::promotion(Square::from_coords(4, 6), Square::from_coords(4, 7), KNIGHT);
        assert_eq!(m.from(), Square::from_coords(4, 6));
        assert_eq!(m.to(), Square::from_coords(4, 7));
        assert_eq!(m.kind(), MoveKind::Promotion);
        assert_eq!(m.promo(), KNIGHT);
        let c = Move::new(sq::E1, sq::H1, MoveKind::Castle);
        assert!(c.is_castle());
        assert_eq!(c.promo(), EMPTY);
        assert_eq!(Move::from_bits(c.bits()), c);
    }

    #[test]
    fn colour_tests_ignore_guard_cells() {
        assert!(!Color::White.owns(OFF_BOARD));
        assert!(!Color::Black.owns(OFF_BOARD));
        assert!(!Color::White.owns(EMPTY));
        assert!(Color::White.owns(KING));
        assert!(Color::Black.owns(-PAWN));
        assert_eq!(color_of(OFF_BOARD), None);
    }
}
