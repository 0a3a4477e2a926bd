//! What kind of tour to look for, and the lines of move numbers a magic goal
//! constrains.
//!
//! Imports only the other `tour` files.

use super::square::Square;
use super::{BOARD_SIZE, MAGIC_SUM, QUARTER_SIZE, QUARTER_SUM};

/// Most lines a goal constrains: 8 ranks x 2 halves + 8 files x 2 halves.
pub(super) const MAX_LINES: usize = 2 * BOARD_SIZE * (BOARD_SIZE / QUARTER_SIZE);

/// What kind of tour to look for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Any knight's tour.
    #[default]
    Any,
    /// Every rank and file sums to [`MAGIC_SUM`].
    SemiMagic,
    /// Every rank and file of each 4x4 quarter sums to [`QUARTER_SUM`].
    Quarters,
}

impl Goal {
    /// Whether the goal constrains move-number sums.
    pub fn is_magic(self) -> bool {
        self != Goal::Any
    }

    /// Human name of a tour meeting this goal.
    pub fn noun(self) -> &'static str {
        match self {
            Goal::Any => "knight's tour",
            Goal::SemiMagic => "semi-magic tour",
            Goal::Quarters => "quarter-magic tour",
        }
    }

    pub(super) fn line_count(self) -> usize {
        match self {
            Goal::Any => 0,
            Goal::SemiMagic => 2 * BOARD_SIZE,
            Goal::Quarters => MAX_LINES,
        }
    }

    pub(super) fn line_target(self) -> u32 {
        if self == Goal::Quarters {
            QUARTER_SUM
        } else {
            MAGIC_SUM
        }
    }

    /// The two constrained lines through `square`: its rank line, then its
    /// file line (whole lines, or the part inside the square's quarter).
    pub(super) fn lines_of(self, square: Square) -> Option<[usize; 2]> {
        let (file, rank) = (square.file(), square.rank());
        let halves = BOARD_SIZE / QUARTER_SIZE;
        match self {
            Goal::Any => None,
            Goal::SemiMagic => Some([rank, BOARD_SIZE + file]),
            Goal::Quarters => Some([
                rank * halves + file / QUARTER_SIZE,
                BOARD_SIZE * halves + file * halves + rank / QUARTER_SIZE,
            ]),
        }
    }
}
