//! A complete knight's tour as a validated path: its move numbers, line sums
//! and printed board.
//!
//! Imports only std and the other `tour` files.

use super::goal::Goal;
use super::square::{file_letter, Square};
use super::{BOARD_SIZE, SQUARE_COUNT};
use std::fmt;

/// Characters per board cell when printing (room for "64" and a gap).
const CELL_WIDTH: usize = 4;

/// Why a sequence of squares or a grid of numbers is not a knight's tour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TourError {
    /// The path does not have exactly 64 squares.
    WrongLength(usize),
    /// A square is visited twice.
    Repeated(Square),
    /// Two consecutive squares are not a knight's move apart.
    NotKnightMove(Square, Square),
    /// A grid entry is not a move number 1..=64 or occurs twice.
    BadNumber(u8),
}

impl fmt::Display for TourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TourError::WrongLength(n) => write!(f, "a tour has {SQUARE_COUNT} squares, not {n}"),
            TourError::Repeated(square) => write!(f, "{square} is visited twice"),
            TourError::NotKnightMove(from, to) => {
                write!(f, "{from} to {to} is not a knight's move")
            }
            TourError::BadNumber(n) => write!(f, "{n} is not a move number 1..=64 or is repeated"),
        }
    }
}

impl std::error::Error for TourError {}

/// A complete knight's tour: 64 distinct squares, each a knight's move from
/// the one before. Only valid tours can be constructed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tour {
    path: [Square; SQUARE_COUNT],
}

impl Tour {
    /// Checks `path` and makes a tour of it.
    pub fn new(path: &[Square]) -> Result<Tour, TourError> {
        let path: [Square; SQUARE_COUNT] = path
            .try_into()
            .map_err(|_| TourError::WrongLength(path.len()))?;
        let mut seen = [false; SQUARE_COUNT];
        for (step, &square) in path.iter().enumerate() {
            if std::mem::replace(&mut seen[square.index()], true) {
                return Err(TourError::Repeated(square));
            }
            if let Some(&previous) = step.checked_sub(1).map(|before| &path[before]) {
                if !previous.is_knight_move_to(square) {
                    return Err(TourError::NotKnightMove(previous, square));
                }
            }
        }
        Ok(Tour { path })
    }

    /// A path the search built move by move: every step was a knight's move
    /// to an empty square, so it is not checked again (debug builds check it).
    pub(super) fn from_searched(path: [Square; SQUARE_COUNT]) -> Tour {
        Tour { path }
    }

    /// Makes a tour of a grid of move numbers, `grid[rank][file]`, rank 1 first.
    pub fn from_numbers(grid: &[[u8; BOARD_SIZE]; BOARD_SIZE]) -> Result<Tour, TourError> {
        let mut path: [Option<Square>; SQUARE_COUNT] = [None; SQUARE_COUNT];
        for (rank, row) in grid.iter().enumerate() {
            for (file, &number) in row.iter().enumerate() {
                let slot = usize::from(number)
                    .checked_sub(1)
                    .and_then(|index| path.get_mut(index))
                    .filter(|slot| slot.is_none())
                    .ok_or(TourError::BadNumber(number))?;
                *slot = Square::new(file, rank);
            }
        }
        // 64 distinct numbers in 1..=64 fill every slot.
        let squares: Vec<Square> = path.iter().flatten().copied().collect();
        Tour::new(&squares)
    }

    /// The squares in the order visited.
    pub fn squares(&self) -> &[Square] {
        &self.path
    }

    /// The first square.
    pub fn start(&self) -> Square {
        self.path[0]
    }

    /// The last square.
    pub fn end(&self) -> Square {
        self.path[SQUARE_COUNT - 1]
    }

    /// Whether the last square is a knight's move from the first.
    pub fn is_closed(&self) -> bool {
        self.end().is_knight_move_to(self.start())
    }

    /// Move numbers 1..=64, `numbers()[rank][file]`, rank 1 first.
    pub fn numbers(&self) -> [[u8; BOARD_SIZE]; BOARD_SIZE] {
        let mut grid = [[0; BOARD_SIZE]; BOARD_SIZE];
        for (step, square) in self.path.iter().enumerate() {
            grid[square.rank()][square.file()] = (step + 1) as u8;
        }
        grid
    }

    /// Sum of the move numbers on each rank, rank 1 first.
    pub fn rank_sums(&self) -> [u32; BOARD_SIZE] {
        self.numbers()
            .map(|row| row.iter().map(|&n| u32::from(n)).sum())
    }

    /// Sum of the move numbers on each file, file a first.
    pub fn file_sums(&self) -> [u32; BOARD_SIZE] {
        let grid = self.numbers();
        std::array::from_fn(|file| grid.iter().map(|row| u32::from(row[file])).sum())
    }

    /// Sums of the two long diagonals, a1-h8 then a8-h1.
    pub fn diagonal_sums(&self) -> (u32, u32) {
        let grid = self.numbers();
        let rising = (0..BOARD_SIZE).map(|i| u32::from(grid[i][i])).sum();
        let falling = (0..BOARD_SIZE)
            .map(|i| u32::from(grid[BOARD_SIZE - 1 - i][i]))
            .sum();
        (rising, falling)
    }

    /// Sums of every line `goal` constrains, indexed as the search indexes them.
    pub(super) fn line_sums(&self, goal: Goal) -> Vec<u32> {
        let mut sums = vec![0; goal.line_count()];
        for (step, &square) in self.path.iter().enumerate() {
            for line in goal.lines_of(square).into_iter().flatten() {
                sums[line] += (step + 1) as u32;
            }
        }
        sums
    }

    /// Whether the tour meets `goal` (recomputed from the numbers).
    pub fn satisfies(&self, goal: Goal) -> bool {
        self.line_sums(goal)
            .iter()
            .all(|&sum| sum == goal.line_target())
    }

    /// The board of move numbers, rank 8 at the top, files labelled, framed
    /// with box-drawing characters or, if `ascii`, with `+-|`.
    pub fn board_text(&self, ascii: bool) -> String {
        let (horizontal, vertical, corners) = if ascii {
            ('-', '|', ['+'; 4])
        } else {
            ('─', '│', ['┌', '┐', '└', '┘'])
        };
        let grid = self.numbers();
        let files: String = (0..BOARD_SIZE)
            .map(|file| format!("{:>CELL_WIDTH$}", file_letter(file)))
            .collect();
        let rule = horizontal.to_string().repeat(BOARD_SIZE * CELL_WIDTH + 1);
        let mut text = format!("   {files}\n  {}{rule}{}\n", corners[0], corners[1]);
        for rank in (0..BOARD_SIZE).rev() {
            let cells: String = grid[rank]
                .iter()
                .map(|n| format!("{n:>CELL_WIDTH$}"))
                .collect();
            text += &format!("{} {vertical}{cells} {vertical} {}\n", rank + 1, rank + 1);
        }
        text += &format!("  {}{rule}{}\n   {files}\n", corners[2], corners[3]);
        text
    }
}

impl fmt::Display for Tour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board_text(false))
    }
}
