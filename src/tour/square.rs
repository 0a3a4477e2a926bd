//! Board geometry: squares, their names, and the 10x12 mailbox the search
//! walks, with the knight's jumps on it and knight distances.
//!
//! Imports only std and the board constants of `tour`.

use super::{BOARD_SIZE, SQUARE_COUNT};
use std::fmt;
use std::str::FromStr;

/// Width of a mailbox row: one guard column each side, which together with
/// the neighbouring row's guard makes the horizontal guard two cells deep.
const MAILBOX_WIDTH: usize = 10;
/// Guard rows below rank 1 and above rank 8: a knight jumps up to two ranks.
const GUARD_ROWS: usize = 2;
/// Cells of the mailbox (10 x 12 = 120).
pub(super) const MAILBOX_CELLS: usize = MAILBOX_WIDTH * (BOARD_SIZE + 2 * GUARD_ROWS);
/// Mailbox cell of a1 (21); h8 is then 98.
const A1_CELL: usize = GUARD_ROWS * MAILBOX_WIDTH + 1;
/// Content of a guard cell: non-empty, so it reads as "can't go there".
pub(super) const GUARD: u8 = u8::MAX;
/// Content of an unvisited square; visited squares hold their move number.
pub(super) const EMPTY: u8 = 0;
/// Knight jumps in the mailbox. Their order is the Warnsdorff tie-break.
pub(super) const KNIGHT_OFFSETS: [isize; 8] = [-21, -19, -12, -8, 8, 12, 19, 21];

/// A square of the board, a1 = 0 .. h8 = 63 (rank-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub fn new(file: usize, rank: usize) -> Option<Square> {
        (file < BOARD_SIZE && rank < BOARD_SIZE).then(|| Square((rank * BOARD_SIZE + file) as u8))
    }

    /// The square with index `index` (a1 = 0, b1 = 1, ..., h8 = 63).
    pub fn from_index(index: usize) -> Option<Square> {
        (index < SQUARE_COUNT).then_some(Square(index as u8))
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT).map(|index| Square(index as u8))
    }

    /// Index a1 = 0 .. h8 = 63.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// File, 0 = a.
    pub fn file(self) -> usize {
        self.index() % BOARD_SIZE
    }

    /// Rank, 0 = rank 1.
    pub fn rank(self) -> usize {
        self.index() / BOARD_SIZE
    }

    /// Whether a knight on `self` attacks `other`.
    pub fn is_knight_move_to(self, other: Square) -> bool {
        let files = self.file().abs_diff(other.file());
        let ranks = self.rank().abs_diff(other.rank());
        (files == 1 && ranks == 2) || (files == 2 && ranks == 1)
    }

    /// Squares share a colour when file + rank has the same parity; a knight
    /// always changes colour, so move numbers alternate parity with colour.
    pub(super) fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    pub(super) fn cell(self) -> usize {
        A1_CELL + self.rank() * MAILBOX_WIDTH + self.file()
    }

    /// The square of a mailbox cell known to be on the board.
    pub(super) fn from_cell(cell: usize) -> Square {
        let offset = cell - A1_CELL;
        Square((offset / MAILBOX_WIDTH * BOARD_SIZE + offset % MAILBOX_WIDTH) as u8)
    }

    pub(super) fn knight_moves(self) -> impl Iterator<Item = Square> {
        let cell = self.cell();
        KNIGHT_OFFSETS.iter().filter_map(move |&offset| {
            let target = cell.wrapping_add_signed(offset);
            cell_is_on_board(target).then(|| Square::from_cell(target))
        })
    }
}

pub(super) fn cell_is_on_board(cell: usize) -> bool {
    let (row, column) = (cell / MAILBOX_WIDTH, cell % MAILBOX_WIDTH);
    (GUARD_ROWS..GUARD_ROWS + BOARD_SIZE).contains(&row) && (1..=BOARD_SIZE).contains(&column)
}

pub(super) fn file_letter(file: usize) -> char {
    char::from(b'a' + file as u8)
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_letter(self.file()), self.rank() + 1)
    }
}

/// Why a square name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    input: String,
    reason: &'static str,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid square {:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses "e4" (file letter, either case, then rank digit).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let trimmed = text.trim();
        let fail = |reason| ParseSquareError {
            input: trimmed.to_string(),
            reason,
        };
        // Work on chars, never byte slices, so non-ASCII input cannot split
        // a character and panic.
        let mut chars = trimmed.chars();
        let (file, rank) = match (chars.next(), chars.next(), chars.next()) {
            (None, _, _) => {
                return Err(fail(
                    "no square given (expected a file a-h and a rank 1-8, like e4)",
                ))
            }
            (Some(file), Some(rank), None) => (file, rank),
            _ => return Err(fail("expected a file a-h followed by a rank 1-8, like e4")),
        };
        let file = match file.to_ascii_lowercase() {
            letter @ 'a'..='h' => usize::from(letter as u8 - b'a'),
            _ => return Err(fail("the file must be a letter from a to h")),
        };
        let rank = match rank {
            digit @ '1'..='8' => usize::from(digit as u8 - b'1'),
            _ => return Err(fail("the rank must be a digit from 1 to 8")),
        };
        Square::new(file, rank).ok_or_else(|| fail("not on the board"))
    }
}

/// Knight distance between every pair of squares on an empty board.
pub(super) fn knight_distances() -> [[u8; SQUARE_COUNT]; SQUARE_COUNT] {
    let mut distances = [[u8::MAX; SQUARE_COUNT]; SQUARE_COUNT];
    for (source, row) in distances.iter_mut().enumerate() {
        let mut queue = [Square(0); SQUARE_COUNT];
        let (mut head, mut tail) = (0, 1);
        queue[0] = Square(source as u8);
        row[source] = 0;
        while head < tail {
            let square = queue[head];
            head += 1;
            for next in square.knight_moves() {
                if row[next.index()] == u8::MAX {
                    row[next.index()] = row[square.index()] + 1;
                    queue[tail] = next;
                    tail += 1;
                }
            }
        }
    }
    distances
}
