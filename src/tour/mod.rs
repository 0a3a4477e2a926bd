//! Knight's tours: the `cavalier tour` subcommand.
//!
//! A knight's tour is a path of knight moves that visits all 64 squares of the
//! board exactly once; it is *closed* (re-entrant) when the last square is a
//! knight's move from the first.
//!
//! The search walks the same 10x12 mailbox the engine plays on: the 8x8 board
//! sits inside two layers of guard cells, so a single byte test tells a jump
//! that leaves the board from a jump onto a visited square. Moves are tried in
//! Warnsdorff order (fewest onward moves first, ties broken by a fixed offset
//! order so results are reproducible) with depth-first backtracking, which
//! finds a first tour almost without backtracking and then enumerates further
//! tours through the untried alternatives.
//!
//! The same search serves other goals by adding constraints on the move
//! numbers: a *semi-magic* tour has every row and column summing to
//! [`MAGIC_SUM`], a *quarter-magic* tour has every row and column of each 4x4
//! quarter summing to [`QUARTER_SUM`]. Such tours are rare (140 distinct
//! semi-magic 8x8 tours are known, none fully magic with diagonals), so those
//! searches run under a time limit and report honestly what they found.
//!
//! Exit codes of [`command()`]: [`EXIT_OK`] when every requested tour was found,
//! [`EXIT_NOT_FOUND`] when fewer were (time limit reached, search space
//! exhausted, or output could not be written), [`EXIT_USAGE`] for bad input.
//!
//! Files, each importing only std and its siblings here (nothing of the
//! engine): `square` (board geometry and the mailbox), `path` (a validated
//! tour, its numbers and board), `goal` (what to look for and its lines),
//! `lines` (sum bounds for the magic goals), `request` (what a search is
//! asked and reports), `search` (the Warnsdorff backtracking walk),
//! `output` (the printed text) and `cli` (the command line).

mod cli;
mod goal;
mod lines;
mod output;
mod path;
mod request;
mod search;
mod square;
#[cfg(test)]
mod tests;

pub use cli::command;
pub use goal::Goal;
pub use path::{Tour, TourError};
pub use request::{Progress, SearchConfig, SearchSummary, StopReason};
pub use search::{find_tours, first_tour, search};
pub use square::{ParseSquareError, Square};

use std::time::Duration;

/// Squares along one side of the board.
pub const BOARD_SIZE: usize = 8;
/// Squares on the board, and so the number of moves in a tour.
pub const SQUARE_COUNT: usize = BOARD_SIZE * BOARD_SIZE;
/// Sum of each row and column of a semi-magic tour: (1 + ... + 64) / 8.
pub const MAGIC_SUM: u32 = 260;
/// Side of a quarter of the board.
pub const QUARTER_SIZE: usize = BOARD_SIZE / 2;
/// Sum of each row and column inside a 4x4 quarter of a quarter-magic tour.
pub const QUARTER_SUM: u32 = MAGIC_SUM / 2;

/// Exit code: every requested tour was found.
pub const EXIT_OK: i32 = 0;
/// Exit code: the search ran as asked but found fewer tours than requested.
pub const EXIT_NOT_FOUND: i32 = 1;
/// Exit code: bad square, option or option value.
pub const EXIT_USAGE: i32 = 2;

/// Time limit of the magic searches when `--time-limit` is not given.
pub const DEFAULT_MAGIC_TIME_LIMIT: Duration = Duration::from_secs(60);
/// How often a long search reports progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);
