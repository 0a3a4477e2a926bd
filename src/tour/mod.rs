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
//! Exit codes of [`cli`]: [`EXIT_OK`] when every requested tour was found,
//! [`EXIT_NOT_FOUND`] when fewer were (time limit reached, search space
//! exhausted, or output could not be written), [`EXIT_USAGE`] for bad input.

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::ops::ControlFlow;
use std::str::FromStr;
use std::time::{Duration, Instant};

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

/// The clock is read once per this many nodes plus one: reading it every node
/// would cost more than the node itself.
const CLOCK_CHECK_MASK: u64 = (1 << 12) - 1;

/// Width of a mailbox row: one guard column each side, which together with
/// the neighbouring row's guard makes the horizontal guard two cells deep.
const MAILBOX_WIDTH: usize = 10;
/// Guard rows below rank 1 and above rank 8: a knight jumps up to two ranks.
const GUARD_ROWS: usize = 2;
/// Cells of the mailbox (10 x 12 = 120).
const MAILBOX_CELLS: usize = MAILBOX_WIDTH * (BOARD_SIZE + 2 * GUARD_ROWS);
/// Mailbox cell of a1 (21); h8 is then 98.
const A1_CELL: usize = GUARD_ROWS * MAILBOX_WIDTH + 1;
/// Content of a guard cell: non-empty, so it reads as "can't go there".
const GUARD: u8 = u8::MAX;
/// Content of an unvisited square; visited squares hold their move number.
const EMPTY: u8 = 0;
/// Knight jumps in the mailbox. Their order is the Warnsdorff tie-break.
const KNIGHT_OFFSETS: [isize; 8] = [-21, -19, -12, -8, 8, 12, 19, 21];
/// Move keys are `degree << ORDER_SHIFT | offset index`, sorted ascending.
const ORDER_SHIFT: u32 = 8;
/// Mask extracting the offset index from a move key.
const ORDER_MASK: u16 = (1 << ORDER_SHIFT) - 1;

/// Most lines a goal constrains: 8 ranks x 2 halves + 8 files x 2 halves.
const MAX_LINES: usize = 2 * BOARD_SIZE * (BOARD_SIZE / QUARTER_SIZE);
/// A line holds at most four numbers of each parity, so counts are 0..=4.
const SLOT_LIMIT: usize = BOARD_SIZE / 2 + 1;
/// Bound tables are indexed by the missing part of a line sum, 0..=260.
const NEED_LIMIT: usize = MAGIC_SUM as usize + 1;
/// A line limit no move number meets: every move number is at least 1 and
/// every reach at least 1.
const HOPELESS: u8 = 0;
/// The limit of a complete line with the right sum: never exceeded.
const UNLIMITED: u8 = u8::MAX;
/// Index of even numbers in the per-parity slot counts.
const EVEN: usize = 0;
/// Index of odd numbers in the per-parity slot counts.
const ODD: usize = 1;
/// Progress shows the node rate in millions per second.
const NODES_PER_MILLION: f64 = 1e6;
/// Short searches are reported in milliseconds.
const MILLISECONDS_PER_SECOND: f64 = 1e3;
/// Digits between thousands separators in node counts.
const DIGIT_GROUP: usize = 3;
/// Characters per board cell when printing (room for "64" and a gap).
const CELL_WIDTH: usize = 4;

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
    fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    fn cell(self) -> usize {
        A1_CELL + self.rank() * MAILBOX_WIDTH + self.file()
    }

    /// The square of a mailbox cell known to be on the board.
    fn from_cell(cell: usize) -> Square {
        let offset = cell - A1_CELL;
        Square((offset / MAILBOX_WIDTH * BOARD_SIZE + offset % MAILBOX_WIDTH) as u8)
    }

    fn knight_moves(self) -> impl Iterator<Item = Square> {
        let cell = self.cell();
        KNIGHT_OFFSETS.iter().filter_map(move |&offset| {
            let target = cell.wrapping_add_signed(offset);
            cell_is_on_board(target).then(|| Square::from_cell(target))
        })
    }
}

fn cell_is_on_board(cell: usize) -> bool {
    let (row, column) = (cell / MAILBOX_WIDTH, cell % MAILBOX_WIDTH);
    (GUARD_ROWS..GUARD_ROWS + BOARD_SIZE).contains(&row) && (1..=BOARD_SIZE).contains(&column)
}

fn file_letter(file: usize) -> char {
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
    fn line_sums(&self, goal: Goal) -> Vec<u32> {
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

    fn line_count(self) -> usize {
        match self {
            Goal::Any => 0,
            Goal::SemiMagic => 2 * BOARD_SIZE,
            Goal::Quarters => MAX_LINES,
        }
    }

    fn line_target(self) -> u32 {
        if self == Goal::Quarters {
            QUARTER_SUM
        } else {
            MAGIC_SUM
        }
    }

    /// The two constrained lines through `square`: its rank line, then its
    /// file line (whole lines, or the part inside the square's quarter).
    fn lines_of(self, square: Square) -> Option<[usize; 2]> {
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

/// What to search for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Square of move 1.
    pub start: Square,
    /// Only closed (re-entrant) tours.
    pub closed: bool,
    /// Sum constraints on the move numbers.
    pub goal: Goal,
    /// Stop after this many tours.
    pub max_tours: u64,
    /// Give up after this long; `None` searches until done.
    pub time_limit: Option<Duration>,
    /// Interval between progress reports.
    pub progress_interval: Duration,
}

impl SearchConfig {
    /// One open tour of any kind from `start`, no time limit.
    pub fn new(start: Square) -> SearchConfig {
        SearchConfig {
            start,
            closed: false,
            goal: Goal::Any,
            max_tours: 1,
            time_limit: None,
            progress_interval: PROGRESS_INTERVAL,
        }
    }
}

/// Progress of a running search, reported about every `progress_interval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions (partial tours) visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Longest partial tour reached, in squares.
    pub deepest: usize,
    /// Tours found so far.
    pub tours: u64,
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The requested number of tours was found.
    CountReached,
    /// Every alternative was tried.
    Exhausted,
    /// The time limit ran out.
    TimeLimit,
    /// The tour callback asked to stop.
    Cancelled,
}

/// Outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// Tours found.
    pub tours: u64,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Longest partial tour reached, in squares.
    pub deepest: usize,
    /// Why the search stopped.
    pub stop: StopReason,
}

/// Searches for tours as `config` asks, calling `on_tour` for each tour found
/// (return `ControlFlow::Break` to stop) and `on_progress` periodically.
pub fn search(
    config: &SearchConfig,
    on_tour: &mut dyn FnMut(&Tour) -> ControlFlow<()>,
    on_progress: &mut dyn FnMut(&Progress),
) -> SearchSummary {
    let mut searcher = Searcher::new(config, on_tour, on_progress);
    if config.max_tours == 0 {
        searcher.stop = Some(StopReason::CountReached);
    } else {
        searcher.extend();
    }
    searcher.summary()
}

/// Collects the tours [`search`] finds, without progress reports.
pub fn find_tours(config: &SearchConfig) -> (Vec<Tour>, SearchSummary) {
    let mut tours = Vec::new();
    let summary = search(
        config,
        &mut |tour| {
            tours.push(tour.clone());
            ControlFlow::Continue(())
        },
        &mut |_| {},
    );
    (tours, summary)
}

/// The first open tour from `start` in Warnsdorff order.
pub fn first_tour(start: Square) -> Option<Tour> {
    let mut found = None;
    search(
        &SearchConfig::new(start),
        &mut |tour| {
            found = Some(tour.clone());
            ControlFlow::Break(())
        },
        &mut |_| {},
    );
    found
}

/// Smallest total of `odd` odd and `even` even numbers in `base..=top`, no two
/// consecutive, or `None` if they do not fit. Consecutive move numbers never
/// share a rank or file (a knight always changes both), hence never a line.
/// The sorted numbers step by 2 within a parity and by at least 3 where the
/// parity changes, so the best is one parity run after the other.
fn min_line_total(base: u32, odd: u32, even: u32, top: u32) -> Option<u32> {
    let count = odd + even;
    if count == 0 {
        return Some(0);
    }
    [(odd, even, 1), (even, odd, 0)]
        .into_iter()
        .filter(|&(first_run, _, _)| first_run > 0)
        .filter_map(|(_, second_run, parity)| {
            let first = if base % 2 == parity { base } else { base + 1 };
            let last = first + 2 * (count - 1) + u32::from(second_run > 0);
            (last <= top).then_some(count * first + count * (count - 1) + second_run)
        })
        .min()
}

/// Largest total of `odd` odd and `even` even numbers up to `top`, no two
/// consecutive: the mirror image of [`min_line_total`], an upper bound.
fn max_line_total(odd: u32, even: u32, top: u32) -> Option<u32> {
    let count = odd + even;
    if count == 0 {
        return Some(0);
    }
    [(odd, even, 1), (even, odd, 0)]
        .into_iter()
        .filter(|&(first_run, _, _)| first_run > 0)
        .map(|(_, second_run, parity)| {
            let highest = if top % 2 == parity { top } else { top - 1 };
            (count * highest).saturating_sub(count * (count - 1) + second_run)
        })
        .max()
}

/// Knight distance between every pair of squares on an empty board.
fn knight_distances() -> [[u8; SQUARE_COUNT]; SQUARE_COUNT] {
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

/// Running sums of the constrained lines, with the bounds used to prune.
///
/// A line's next number cannot come before move `number + reach`, and for
/// each line the bound tables give the latest such start (`limit`) from which
/// its empty cells can still make up the missing sum: the test per line and
/// move is then a single comparison.
struct LineTracker {
    target: u32,
    line_count: usize,
    lines_of: [[usize; 2]; MAILBOX_CELLS],
    sums: [u32; MAX_LINES],
    /// Empty cells per line, by the parity of the number each will receive.
    slots: [[usize; 2]; MAX_LINES],
    /// Latest first number that still lets the line reach its target:
    /// [`HOPELESS`] if none does, [`UNLIMITED`] for a line complete and right.
    limit: [u8; MAX_LINES],
    /// `reach[head][line]`: fewest knight moves from `head` to another cell
    /// of `line`.
    reach: [[u8; MAX_LINES]; MAILBOX_CELLS],
    /// `base_limits[odd][even][needed]`: the `limit` of a line with that many
    /// empty cells of each parity and that much missing from its sum.
    base_limits: [[[u8; NEED_LIMIT]; SLOT_LIMIT]; SLOT_LIMIT],
}

impl LineTracker {
    fn new(goal: Goal, start: Square) -> Box<LineTracker> {
        let mut tracker = Box::new(LineTracker {
            target: goal.line_target(),
            line_count: goal.line_count(),
            lines_of: [[0; 2]; MAILBOX_CELLS],
            sums: [0; MAX_LINES],
            slots: [[0; 2]; MAX_LINES],
            limit: [HOPELESS; MAX_LINES],
            reach: [[u8::MAX; MAX_LINES]; MAILBOX_CELLS],
            base_limits: std::array::from_fn(|odd| {
                std::array::from_fn(|even| {
                    std::array::from_fn(|needed| base_limit(odd as u32, even as u32, needed as u32))
                })
            }),
        });
        let distances = knight_distances();
        for square in Square::all() {
            let lines = goal.lines_of(square).unwrap_or_default();
            tracker.lines_of[square.cell()] = lines;
            // Move 1 is on the start's colour, so that colour gets odd numbers.
            let parity = if square.is_light() == start.is_light() {
                ODD
            } else {
                EVEN
            };
            for line in lines {
                tracker.slots[line][parity] += 1;
            }
            for head in Square::all().filter(|&head| head != square) {
                for line in lines {
                    let reach = &mut tracker.reach[head.cell()][line];
                    *reach = (*reach).min(distances[head.index()][square.index()]);
                }
            }
        }
        for line in 0..tracker.line_count {
            tracker.update_limit(line);
        }
        tracker
    }

    /// The limit of `line` with `number` added to it (or, if `number` is 0,
    /// as it stands).
    fn limit_with(&self, line: usize, number: u32) -> u8 {
        let mut slots = self.slots[line];
        if number > 0 {
            slots[(number % 2) as usize] -= 1;
        }
        let [even, odd] = slots;
        self.target
            .checked_sub(self.sums[line] + number)
            .map_or(HOPELESS, |needed| {
                self.base_limits[odd][even][needed as usize]
            })
    }

    fn update_limit(&mut self, line: usize) {
        self.limit[line] = self.limit_with(line, 0);
    }

    fn place(&mut self, cell: usize, number: u32) {
        for line in self.lines_of[cell] {
            self.sums[line] += number;
            self.slots[line][(number % 2) as usize] -= 1;
            self.update_limit(line);
        }
    }

    fn remove(&mut self, cell: usize, number: u32) {
        for line in self.lines_of[cell] {
            self.sums[line] -= number;
            self.slots[line][(number % 2) as usize] += 1;
            self.update_limit(line);
        }
    }

    /// Whether every line could still reach its target after `number` is
    /// placed on `cell`, checked before placing it so that a refused move
    /// costs no bookkeeping. Every line is checked, not only the two through
    /// `cell`: a line elsewhere may have just run out of small numbers.
    fn allows(&self, cell: usize, number: u32) -> bool {
        let mut limit = self.limit;
        for line in self.lines_of[cell] {
            limit[line] = self.limit_with(line, number);
        }
        let reach = &self.reach[cell][..self.line_count];
        // Branch-free so the compiler can compare all lines at once.
        reach.iter().zip(&limit).fold(true, |ok, (&reach, &limit)| {
            ok & (number + u32::from(reach) <= u32::from(limit))
        })
    }
}

/// The latest first number from which `odd` odd and `even` even numbers, no
/// two consecutive, up to 64, can add up to `needed`; [`HOPELESS`] if none.
fn base_limit(odd: u32, even: u32, needed: u32) -> u8 {
    let top = SQUARE_COUNT as u32;
    if odd + even == 0 {
        return if needed == 0 { UNLIMITED } else { HOPELESS };
    }
    if max_line_total(odd, even, top).is_none_or(|max| needed > max) {
        return HOPELESS;
    }
    // The smallest total only grows with the first number.
    (0..=top)
        .rev()
        .find(|&base| min_line_total(base, odd, even, top).is_some_and(|min| min <= needed))
        .map_or(HOPELESS, |base| base as u8)
}

/// Depth-first Warnsdorff search on the mailbox.
///
/// Besides the goal's sum bounds it prunes with a connectivity argument: an
/// empty square left behind (no longer next to the head) needs two empty
/// neighbours, one to enter and one to leave, unless it is the last square.
/// So a left-behind square with no empty neighbour kills the branch, and one
/// with a single empty neighbour must end the tour: at most one such "loose
/// end" may exist. For closed tours the start counts as an empty neighbour of
/// the squares around it (the tour must return there), and then the start is
/// the only allowed end, so no loose end is allowed.
struct Searcher<'a> {
    board: [u8; MAILBOX_CELLS],
    /// Empty neighbours of each empty square (plus the start, when closed).
    degree: [u8; MAILBOX_CELLS],
    path: [u8; SQUARE_COUNT],
    depth: usize,
    closed: bool,
    beside_start: [bool; MAILBOX_CELLS],
    /// Empty squares a knight's move from the start (closed tours only).
    start_exits: u8,
    loose_ends: u8,
    allowed_loose_ends: u8,
    saved_loose_ends: [u8; SQUARE_COUNT],
    goal: Goal,
    lines: Option<Box<LineTracker>>,
    max_tours: u64,
    tours: u64,
    nodes: u64,
    deepest: usize,
    started: Instant,
    deadline: Option<Instant>,
    progress_interval: Duration,
    next_progress: Instant,
    stop: Option<StopReason>,
    on_tour: &'a mut dyn FnMut(&Tour) -> ControlFlow<()>,
    on_progress: &'a mut dyn FnMut(&Progress),
}

impl<'a> Searcher<'a> {
    fn new(
        config: &SearchConfig,
        on_tour: &'a mut dyn FnMut(&Tour) -> ControlFlow<()>,
        on_progress: &'a mut dyn FnMut(&Progress),
    ) -> Searcher<'a> {
        let started = Instant::now();
        let mut board = [GUARD; MAILBOX_CELLS];
        for square in Square::all() {
            board[square.cell()] = EMPTY;
        }
        let mut degree = [0; MAILBOX_CELLS];
        for square in Square::all() {
            degree[square.cell()] = square.knight_moves().count() as u8;
        }
        let start = config.start;
        let mut beside_start = [false; MAILBOX_CELLS];
        for neighbour in start.knight_moves() {
            beside_start[neighbour.cell()] = config.closed;
        }
        let mut searcher = Searcher {
            board,
            degree,
            path: [0; SQUARE_COUNT],
            depth: 0,
            closed: config.closed,
            beside_start,
            start_exits: 0,
            loose_ends: 0,
            allowed_loose_ends: u8::from(!config.closed),
            saved_loose_ends: [0; SQUARE_COUNT],
            goal: config.goal,
            lines: config
                .goal
                .is_magic()
                .then(|| LineTracker::new(config.goal, start)),
            max_tours: config.max_tours,
            tours: 0,
            nodes: 0,
            deepest: 0,
            started,
            deadline: config
                .time_limit
                .and_then(|limit| started.checked_add(limit)),
            progress_interval: config.progress_interval,
            next_progress: started + config.progress_interval,
            stop: None,
            on_tour,
            on_progress,
        };
        searcher.place(start.cell());
        if config.closed {
            // The start stays "open" for its neighbours: the tour returns there.
            for neighbour in start.knight_moves() {
                searcher.degree[neighbour.cell()] += 1;
            }
            searcher.start_exits = start.knight_moves().count() as u8;
        }
        searcher
    }

    fn head(&self) -> usize {
        usize::from(self.path[self.depth - 1])
    }

    /// Visits `cell` as the next move and updates the bookkeeping.
    fn place(&mut self, cell: usize) {
        self.saved_loose_ends[self.depth] = self.loose_ends;
        self.path[self.depth] = cell as u8;
        self.depth += 1;
        self.board[cell] = self.depth as u8;
        for offset in KNIGHT_OFFSETS {
            let neighbour = cell.wrapping_add_signed(offset);
            if self.board[neighbour] == EMPTY {
                self.degree[neighbour] -= 1;
            }
        }
        if self.beside_start[cell] {
            self.start_exits -= 1;
        }
        if let Some(lines) = &mut self.lines {
            lines.place(cell, self.depth as u32);
        }
    }

    /// Takes back the last move.
    fn retreat(&mut self) {
        let cell = self.head();
        if let Some(lines) = &mut self.lines {
            lines.remove(cell, self.depth as u32);
        }
        if self.beside_start[cell] {
            self.start_exits += 1;
        }
        for offset in KNIGHT_OFFSETS {
            let neighbour = cell.wrapping_add_signed(offset);
            if self.board[neighbour] == EMPTY {
                self.degree[neighbour] += 1;
            }
        }
        self.board[cell] = EMPTY;
        self.depth -= 1;
        self.loose_ends = self.saved_loose_ends[self.depth];
    }

    /// Jumps from the head to the empty square `cell` unless that provably
    /// cannot lead to a tour meeting the goal; returns whether it jumped.
    /// (The search counts the head's neighbours once for all its moves; the
    /// tests walk given paths through here with the same pruning.)
    #[cfg(test)]
    fn advance(&mut self, cell: usize) -> bool {
        let (mut dead, mut narrow) = (0, 0);
        for offset in KNIGHT_OFFSETS {
            let neighbour = self.head().wrapping_add_signed(offset);
            if self.board[neighbour] == EMPTY {
                match self.degree[neighbour] {
                    0 => dead += 1,
                    1 => narrow += 1,
                    _ => {}
                }
            }
        }
        self.advance_counted(cell, dead, narrow)
    }

    /// The jump of `advance`, given how many empty neighbours of the head have no
    /// (`dead`) or one (`narrow`) empty neighbour of their own.
    fn advance_counted(&mut self, cell: usize, dead: u8, narrow: u8) -> bool {
        let last = self.depth + 1 == SQUARE_COUNT;
        let cell_degree = self.degree[cell];
        if last {
            if self.closed && !self.beside_start[cell] {
                return false;
            }
        } else if cell_degree == 0 || dead > 0 || (self.beside_start[cell] && self.start_exits == 1)
        {
            // `cell` is a dead end, or another square only reachable from
            // here would be cut off, or the last way back to the start used.
            return false;
        }
        // The head's other empty neighbours are left behind. The board is
        // bipartite, so none of them is next to `cell`: their degree is final,
        // and those with one way in must end the tour.
        let new_loose_ends = narrow - u8::from(cell_degree == 1);
        if self.loose_ends + new_loose_ends > self.allowed_loose_ends {
            return false;
        }
        let number = (self.depth + 1) as u32;
        if self
            .lines
            .as_ref()
            .is_some_and(|lines| !lines.allows(cell, number))
        {
            return false;
        }
        self.place(cell);
        self.loose_ends += new_loose_ends;
        true
    }

    /// Tries every continuation of the current partial tour.
    fn extend(&mut self) {
        self.nodes += 1;
        if self.nodes & CLOCK_CHECK_MASK == 0 {
            self.check_clock();
            if self.stop.is_some() {
                return;
            }
        }
        self.deepest = self.deepest.max(self.depth);
        if self.depth == SQUARE_COUNT {
            self.report();
            return;
        }
        let head = self.head();
        let mut keys = [0u16; KNIGHT_OFFSETS.len()];
        let (mut count, mut dead, mut narrow) = (0, 0, 0);
        for (index, offset) in KNIGHT_OFFSETS.into_iter().enumerate() {
            let target = head.wrapping_add_signed(offset);
            if self.board[target] == EMPTY {
                let degree = self.degree[target];
                keys[count] = (u16::from(degree) << ORDER_SHIFT) | index as u16;
                count += 1;
                dead += u8::from(degree == 0);
                narrow += u8::from(degree == 1);
            }
        }
        // Warnsdorff: fewest onward moves first; keys are unique, so the
        // order is fully determined.
        keys[..count].sort_unstable();
        for &key in &keys[..count] {
            let target = head.wrapping_add_signed(KNIGHT_OFFSETS[usize::from(key & ORDER_MASK)]);
            if self.advance_counted(target, dead, narrow) {
                self.extend();
                self.retreat();
                if self.stop.is_some() {
                    return;
                }
            }
        }
    }

    fn current_tour(&self) -> Tour {
        Tour {
            path: self.path.map(|cell| Square::from_cell(usize::from(cell))),
        }
    }

    fn report(&mut self) {
        let tour = self.current_tour();
        debug_assert!(Tour::new(tour.squares()).is_ok());
        debug_assert!(tour.satisfies(self.goal) && (!self.closed || tour.is_closed()));
        self.tours += 1;
        if (self.on_tour)(&tour).is_break() {
            self.stop = Some(StopReason::Cancelled);
        } else if self.tours >= self.max_tours {
            self.stop = Some(StopReason::CountReached);
        }
    }

    fn check_clock(&mut self) {
        let now = Instant::now();
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            self.stop = Some(StopReason::TimeLimit);
        } else if now >= self.next_progress {
            let progress = Progress {
                nodes: self.nodes,
                elapsed: now - self.started,
                deepest: self.deepest,
                tours: self.tours,
            };
            (self.on_progress)(&progress);
            self.next_progress = now + self.progress_interval;
        }
    }

    fn summary(&self) -> SearchSummary {
        SearchSummary {
            tours: self.tours,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
            deepest: self.deepest,
            stop: self.stop.unwrap_or(StopReason::Exhausted),
        }
    }
}

/// Help text of `cavalier tour`.
const USAGE: &str = "\
usage: cavalier tour <square> [--count N] [--closed] [--magic | --quarters]
                     [--time-limit SECONDS] [--ascii]

Finds knight's tours starting on <square> (a1..h8) by Warnsdorff's rule with
backtracking and prints each as a board of move numbers.

options:
  --count N             print N distinct tours (default 1)
  --closed              only closed tours: the last square is a knight's move
                        from the first
  --magic               only semi-magic tours: every rank and file sums to 260
  --quarters            only tours whose four 4x4 quarters have every rank and
                        file summing to 130
  --time-limit SECONDS  give up after this long (default 60 with --magic or
                        --quarters, otherwise no limit)
  --ascii               frame the board with ASCII characters only
  -h, --help            show this help

Without <square>, the square is asked for on a terminal until it is valid.
Long searches report progress on stderr about once a second. Magic tours are
rare: `cavalier tour a8 --quarters --time-limit 300` finds one in about 1.5
minutes; most other magic searches find none within a minute.

exit status: 0 if all requested tours were found; 1 if fewer were (time limit
reached or no more exist) or output failed; 2 for a bad square or option.
";

/// Options of `cavalier tour`.
#[derive(Debug, PartialEq)]
struct CliOptions {
    start: Option<Square>,
    count: u64,
    closed: bool,
    goal: Goal,
    time_limit: Option<Duration>,
    ascii: bool,
}

#[derive(Debug, PartialEq)]
enum CliCommand {
    Help,
    Run(CliOptions),
}

fn parse_args(args: &[String]) -> Result<CliCommand, String> {
    let mut options = CliOptions {
        start: None,
        count: 1,
        closed: false,
        goal: Goal::Any,
        time_limit: None,
        ascii: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        // Accept both "--count 3" and "--count=3".
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if arg.starts_with("--") => (name, Some(value)),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .or_else(|| args.next().map(String::as_str))
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match name {
            "-h" | "--help" => return Ok(CliCommand::Help),
            "--count" => options.count = parse_count(value()?)?,
            "--time-limit" => options.time_limit = Some(parse_seconds(value()?)?),
            "--closed" | "--magic" | "--quarters" | "--ascii" if inline.is_some() => {
                return Err(format!("{name} takes no value"));
            }
            "--closed" => options.closed = true,
            "--ascii" => options.ascii = true,
            "--magic" | "--quarters" => {
                let goal = if name == "--magic" {
                    Goal::SemiMagic
                } else {
                    Goal::Quarters
                };
                if options.goal.is_magic() && options.goal != goal {
                    return Err("--magic and --quarters cannot be combined".to_string());
                }
                options.goal = goal;
            }
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg:?}")),
            _ if options.start.is_some() => {
                return Err(format!(
                    "unexpected argument {arg:?}: only one start square"
                ));
            }
            _ => {
                options.start = Some(
                    arg.parse()
                        .map_err(|error: ParseSquareError| error.to_string())?,
                )
            }
        }
    }
    if options.goal.is_magic() && options.time_limit.is_none() {
        options.time_limit = Some(DEFAULT_MAGIC_TIME_LIMIT);
    }
    Ok(CliCommand::Run(options))
}

fn parse_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(count) if count > 0 => Ok(count),
        _ => Err(format!(
            "invalid --count {text:?}: expected a whole number, at least 1"
        )),
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|seconds| *seconds > 0.0)
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .ok_or_else(|| {
            format!("invalid --time-limit {text:?}: expected a positive number of seconds")
        })
}

/// Runs `cavalier tour` with `args` (the words after `tour`) and returns the
/// exit code: [`EXIT_OK`], [`EXIT_NOT_FOUND`] or [`EXIT_USAGE`]. Tours and the
/// result go to stdout, progress and errors to stderr. With no square given
/// and stdin a terminal, the square is asked for until it is valid.
pub fn cli(args: &[String]) -> i32 {
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    let mut input = stdin.lock();
    let prompt: Option<&mut dyn BufRead> = if interactive { Some(&mut input) } else { None };
    run(
        args,
        prompt,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )
}

/// [`cli`] with its streams passed in, for tests.
fn run(
    args: &[String],
    input: Option<&mut dyn BufRead>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    // Failing to write to stderr leaves no better place to complain: ignored.
    let options = match parse_args(args) {
        Ok(CliCommand::Help) => {
            return if out.write_all(USAGE.as_bytes()).is_ok() {
                EXIT_OK
            } else {
                EXIT_NOT_FOUND
            };
        }
        Ok(CliCommand::Run(options)) => options,
        Err(message) => {
            let _ = writeln!(
                err,
                "cavalier tour: {message}\n(run `cavalier tour --help` for usage)"
            );
            return EXIT_USAGE;
        }
    };
    let start = match (options.start, input) {
        (Some(square), _) => square,
        (None, Some(input)) => match ask_square(input, err) {
            Some(square) => square,
            None => {
                let _ = writeln!(err, "cavalier tour: no start square given");
                return EXIT_USAGE;
            }
        },
        (None, None) => {
            let _ = writeln!(err, "cavalier tour: missing start square, like e4\n{USAGE}");
            return EXIT_USAGE;
        }
    };
    let config = SearchConfig {
        start,
        closed: options.closed,
        goal: options.goal,
        max_tours: options.count,
        time_limit: options.time_limit,
        progress_interval: PROGRESS_INTERVAL,
    };
    let kind = format!(
        "{}{}",
        if options.closed { "closed " } else { "" },
        options.goal.noun()
    );
    let mut written = Ok(());
    let mut index = 0;
    let summary = search(
        &config,
        &mut |tour| {
            index += 1;
            written = write_tour(out, tour, index, options.goal, options.ascii);
            if written.is_ok() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        },
        &mut |progress| {
            let rate = progress.nodes as f64 / progress.elapsed.as_secs_f64().max(f64::EPSILON);
            let _ = writeln!(
                err,
                "searching {kind}s from {start}: {:.0} s, {} nodes ({:.1} M/s), deepest {}/{SQUARE_COUNT}, {} found",
                progress.elapsed.as_secs_f64(),
                group_digits(progress.nodes),
                rate / NODES_PER_MILLION,
                progress.deepest,
                progress.tours,
            );
        },
    );
    let outcome = written.and_then(|()| {
        writeln!(
            out,
            "{}",
            describe_outcome(&summary, &kind, start, options.count)
        )
    });
    if let Err(error) = outcome {
        // A closed pipe (`| head`) is the reader's choice, not worth a message.
        if error.kind() != io::ErrorKind::BrokenPipe {
            let _ = writeln!(err, "cavalier tour: cannot write output: {error}");
        }
        return EXIT_NOT_FOUND;
    }
    if summary.tours >= options.count {
        EXIT_OK
    } else {
        EXIT_NOT_FOUND
    }
}

/// Asks for a square until a valid one is typed; `None` at end of input.
fn ask_square(input: &mut dyn BufRead, err: &mut dyn Write) -> Option<Square> {
    loop {
        let _ = write!(err, "Start square (a1-h8): ");
        let _ = err.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) => match line.parse() {
                Ok(square) => return Some(square),
                Err(error) => {
                    let _ = writeln!(err, "{error}; please try again");
                }
            },
            // The bad bytes are consumed, so asking again makes progress.
            Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                let _ = writeln!(err, "that was not text; please try again");
            }
            Err(_) => return None,
        }
    }
}

/// Prints one tour: its number, shape, board and, for magic goals, the sums.
fn write_tour(
    out: &mut dyn Write,
    tour: &Tour,
    index: u64,
    goal: Goal,
    ascii: bool,
) -> io::Result<()> {
    let shape = if tour.is_closed() {
        format!(
            "closed: {} is a knight's move from {}",
            tour.end(),
            tour.start()
        )
    } else {
        format!("open, ends on {}", tour.end())
    };
    writeln!(
        out,
        "Tour {index}, a {} from {} ({shape}):",
        goal.noun(),
        tour.start()
    )?;
    out.write_all(tour.board_text(ascii).as_bytes())?;
    if goal.is_magic() {
        write_sums(out, tour, goal)?;
    }
    writeln!(out)
}

fn join_sums(sums: impl IntoIterator<Item = u32>) -> String {
    sums.into_iter()
        .map(|sum| sum.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_sums(out: &mut dyn Write, tour: &Tour, goal: Goal) -> io::Result<()> {
    let ranks = tour.rank_sums();
    writeln!(
        out,
        "rank sums (8 down to 1): {}",
        join_sums(ranks.iter().rev().copied())
    )?;
    writeln!(
        out,
        "file sums (a to h):      {}",
        join_sums(tour.file_sums())
    )?;
    if goal == Goal::Quarters {
        let sums = tour.line_sums(goal);
        let halves = BOARD_SIZE / QUARTER_SIZE;
        for (rank_half, file_half) in [(1, 0), (1, 1), (0, 0), (0, 1)] {
            let corner = |rank, file| {
                Square::new(file, rank)
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            };
            let low = corner(rank_half * QUARTER_SIZE, file_half * QUARTER_SIZE);
            let high = corner(
                rank_half * QUARTER_SIZE + QUARTER_SIZE - 1,
                file_half * QUARTER_SIZE + QUARTER_SIZE - 1,
            );
            let rank_lines = (0..QUARTER_SIZE)
                .map(|i| sums[(rank_half * QUARTER_SIZE + i) * halves + file_half]);
            let file_lines = (0..QUARTER_SIZE).map(|i| {
                sums[BOARD_SIZE * halves + (file_half * QUARTER_SIZE + i) * halves + rank_half]
            });
            writeln!(
                out,
                "quarter {low}-{high}: ranks {}, files {}",
                join_sums(rank_lines),
                join_sums(file_lines)
            )?;
        }
    }
    let (rising, falling) = tour.diagonal_sums();
    let verdict = if tour.satisfies(goal) {
        "verified"
    } else {
        "NOT verified"
    };
    let lines = if goal == Goal::Quarters {
        format!("every rank and file of each quarter sums to {QUARTER_SUM}")
    } else {
        format!("every rank and file sums to {MAGIC_SUM}")
    };
    let diagonals = if rising == MAGIC_SUM && falling == MAGIC_SUM {
        "also"
    } else {
        "not"
    };
    writeln!(
        out,
        "{verdict}: {lines}; diagonals {rising} and {falling}, so {diagonals} fully magic"
    )
}

fn describe_outcome(summary: &SearchSummary, kind: &str, start: Square, requested: u64) -> String {
    let found = summary.tours;
    let nodes = group_digits(summary.nodes);
    let time = format_duration(summary.elapsed);
    let deepest = summary.deepest;
    match summary.stop {
        _ if found >= requested => {
            format!("Found {} from {start} in {time} ({nodes} nodes).", plural(found, kind))
        }
        StopReason::TimeLimit if found == 0 => format!(
            "No {kind} found from {start} in {time} after {nodes} nodes (time limit; longest partial tour {deepest}/{SQUARE_COUNT})."
        ),
        StopReason::TimeLimit => format!(
            "Found only {found} of {} from {start}: time limit reached after {time} and {nodes} nodes.",
            plural(requested, kind)
        ),
        StopReason::Exhausted if found == 0 => format!(
            "No {kind} exists from {start}: the whole search ({nodes} nodes) was exhausted in {time}."
        ),
        _ => format!(
            "Only {} exist from {start}: the whole search ({nodes} nodes) was exhausted in {time}.",
            plural(found, kind)
        ),
    }
}

fn plural(count: u64, noun: &str) -> String {
    format!("{count} {noun}{}", if count == 1 { "" } else { "s" })
}

fn format_duration(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        format!("{:.3} ms", duration.as_secs_f64() * MILLISECONDS_PER_SECOND)
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

/// 1234567 -> "1,234,567".
fn group_digits(number: u64) -> String {
    let digits = number.to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(DIGIT_GROUP) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// William Beverley's semi-magic tour (1848) as printed, rank 8 first.
    /// Nothing about it is assumed: the tests check it move by move and sum
    /// by sum.
    const BEVERLEY: [[u8; BOARD_SIZE]; BOARD_SIZE] = [
        [1, 30, 47, 52, 5, 28, 43, 54],
        [48, 51, 2, 29, 44, 53, 6, 27],
        [31, 46, 49, 4, 25, 8, 55, 42],
        [50, 3, 32, 45, 56, 41, 26, 7],
        [33, 62, 15, 20, 9, 24, 39, 58],
        [16, 19, 34, 61, 40, 57, 10, 23],
        [63, 14, 17, 36, 21, 12, 59, 38],
        [18, 35, 64, 13, 60, 37, 22, 11],
    ];

    /// The first quarter-magic tour this search finds from a8 (after about
    /// 1.1 billion nodes), rank 8 first; it is also semi-magic.
    const QUARTERS_FROM_A8: [[u8; BOARD_SIZE]; BOARD_SIZE] = [
        [1, 48, 31, 50, 9, 40, 63, 18],
        [30, 51, 8, 41, 62, 19, 38, 11],
        [47, 2, 49, 32, 39, 10, 17, 64],
        [52, 29, 42, 7, 20, 61, 12, 37],
        [3, 46, 25, 56, 33, 16, 21, 60],
        [28, 53, 6, 43, 24, 57, 36, 13],
        [45, 4, 55, 26, 15, 34, 59, 22],
        [54, 27, 44, 5, 58, 23, 14, 35],
    ];

    /// A tour from a grid printed rank 8 first.
    fn tour_from_printed(printed: &[[u8; BOARD_SIZE]; BOARD_SIZE]) -> Tour {
        let mut grid = *printed;
        grid.reverse();
        Tour::from_numbers(&grid).expect("the grid is a knight's tour")
    }

    fn known_magic_tours() -> Vec<Tour> {
        let mut tours = symmetric_tours(&beverley());
        tours.extend(symmetric_tours(&tour_from_printed(&QUARTERS_FROM_A8)));
        tours
    }

    fn beverley() -> Tour {
        tour_from_printed(&BEVERLEY)
    }

    fn square(name: &str) -> Square {
        name.parse().expect("test square names are valid")
    }

    /// Independent check of a tour, on file/rank coordinates only.
    fn assert_valid_tour(path: &[Square], closed: bool) {
        assert_eq!(path.len(), SQUARE_COUNT);
        let distinct: HashSet<_> = path.iter().map(|s| (s.file(), s.rank())).collect();
        assert_eq!(distinct.len(), SQUARE_COUNT, "squares repeat in {path:?}");
        let knight = |a: Square, b: Square| {
            let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
            df * dr == 2
        };
        for pair in path.windows(2) {
            assert!(
                knight(pair[0], pair[1]),
                "{} to {} is not a knight's move",
                pair[0],
                pair[1]
            );
        }
        if closed {
            assert!(
                knight(path[SQUARE_COUNT - 1], path[0]),
                "tour is not closed"
            );
        }
    }

    /// The eight symmetries of the board applied to a tour, each also
    /// reversed: every one is again a tour with the same line-sum properties.
    fn symmetric_tours(tour: &Tour) -> Vec<Tour> {
        let mut tours = Vec::new();
        // Each symmetry: optionally swap file and rank, then optionally
        // mirror the file, then optionally mirror the rank.
        for symmetry in 0..8 {
            let (swap, mirror_file, mirror_rank) =
                (symmetry & 4 != 0, symmetry & 2 != 0, symmetry & 1 != 0);
            let map = |file: usize, rank: usize| {
                let (file, rank) = if swap { (rank, file) } else { (file, rank) };
                let flip = |x: usize, on: bool| if on { BOARD_SIZE - 1 - x } else { x };
                (flip(file, mirror_file), flip(rank, mirror_rank))
            };
            let mut path: Vec<Square> = tour
                .squares()
                .iter()
                .map(|s| {
                    let (file, rank) = map(s.file(), s.rank());
                    Square::new(file, rank).expect("symmetry keeps squares on the board")
                })
                .collect();
            tours.push(Tour::new(&path).expect("a symmetric image of a tour is a tour"));
            path.reverse();
            tours.push(Tour::new(&path).expect("a reversed tour is a tour"));
        }
        tours
    }

    /// Builds a searcher that has walked `prefix` with all pruning active;
    /// `None` if some step was pruned.
    fn walk<'a>(
        config: &SearchConfig,
        prefix: &[Square],
        on_tour: &'a mut dyn FnMut(&Tour) -> ControlFlow<()>,
        on_progress: &'a mut dyn FnMut(&Progress),
    ) -> Option<Searcher<'a>> {
        let config = SearchConfig {
            start: prefix[0],
            ..config.clone()
        };
        let mut searcher = Searcher::new(&config, on_tour, on_progress);
        prefix[1..]
            .iter()
            .all(|s| searcher.advance(s.cell()))
            .then_some(searcher)
    }

    /// All completions of `prefix` found by the pruned search.
    fn completions(config: &SearchConfig, prefix: &[Square]) -> HashSet<Vec<Square>> {
        let mut found = HashSet::new();
        let mut on_tour = |tour: &Tour| {
            assert!(
                found.insert(tour.squares().to_vec()),
                "a tour was reported twice"
            );
            ControlFlow::Continue(())
        };
        let mut on_progress = |_: &Progress| {};
        let config = SearchConfig {
            max_tours: u64::MAX,
            ..config.clone()
        };
        if let Some(mut searcher) = walk(&config, prefix, &mut on_tour, &mut on_progress) {
            searcher.extend();
            assert_eq!(searcher.summary().stop, StopReason::Exhausted);
        }
        found
    }

    /// All completions of `prefix` by plain backtracking without pruning.
    fn brute_completions(prefix: &[Square], closed: bool, goal: Goal) -> HashSet<Vec<Square>> {
        fn go(path: &mut Vec<Square>, closed: bool, goal: Goal, out: &mut HashSet<Vec<Square>>) {
            if path.len() == SQUARE_COUNT {
                let tour = Tour::new(path).expect("brute force builds tours");
                if (!closed || tour.is_closed()) && tour.satisfies(goal) {
                    out.insert(path.clone());
                }
                return;
            }
            let head = path[path.len() - 1];
            for next in Square::all() {
                if head.is_knight_move_to(next) && !path.contains(&next) {
                    path.push(next);
                    go(path, closed, goal, out);
                    path.pop();
                }
            }
        }
        let mut out = HashSet::new();
        go(&mut prefix.to_vec(), closed, goal, &mut out);
        out
    }

    #[test]
    fn mailbox_layout() {
        assert_eq!(MAILBOX_CELLS, 120);
        assert_eq!(square("a1").cell(), 21);
        assert_eq!(square("h8").cell(), 98);
        let searcher_board = {
            let mut board = [GUARD; MAILBOX_CELLS];
            Square::all().for_each(|s| board[s.cell()] = EMPTY);
            board
        };
        for s in Square::all() {
            assert_eq!(Square::from_cell(s.cell()), s);
            for offset in KNIGHT_OFFSETS {
                // Every jump from the board lands inside the array; it lands
                // on an empty cell exactly when it is a real knight move.
                let target = s
                    .cell()
                    .checked_add_signed(offset)
                    .expect("inside the mailbox");
                assert!(target < MAILBOX_CELLS);
                let on_board = searcher_board[target] == EMPTY;
                assert_eq!(on_board, cell_is_on_board(target));
                if on_board {
                    assert!(s.is_knight_move_to(Square::from_cell(target)));
                }
            }
            assert_eq!(
                s.knight_moves().count(),
                Square::all().filter(|&t| s.is_knight_move_to(t)).count()
            );
        }
    }

    #[test]
    fn square_names_round_trip() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
            assert_eq!(s.to_string().to_uppercase().parse::<Square>(), Ok(s));
        }
        assert_eq!(
            square(" e4\n"),
            Square::new(4, 3).expect("e4 is on the board")
        );
    }

    #[test]
    fn bad_square_names_are_errors() {
        for bad in [
            "z9", "e", "", "   ", "i1", "a0", "a9", "e44", "4e", "é4", "e٤", "♞", "a1a", "--",
        ] {
            let error = bad.parse::<Square>().expect_err(bad);
            assert!(error.to_string().contains("invalid square"), "{error}");
        }
    }

    #[test]
    fn warnsdorff_finds_a_tour_from_every_square() {
        for start in Square::all() {
            let (tours, summary) = find_tours(&SearchConfig::new(start));
            assert_eq!(tours.len(), 1, "no tour from {start}");
            assert_eq!(tours[0].start(), start);
            assert_valid_tour(tours[0].squares(), false);
            // Warnsdorff's rule barely needs to backtrack.
            assert!(
                summary.nodes < 1_000,
                "{start} took {} nodes",
                summary.nodes
            );
            assert_eq!(first_tour(start).as_ref(), Some(&tours[0]));
        }
    }

    #[test]
    fn closed_tours_from_every_square() {
        for start in Square::all() {
            let config = SearchConfig {
                closed: true,
                max_tours: 2,
                ..SearchConfig::new(start)
            };
            let (tours, summary) = find_tours(&config);
            assert_eq!(summary.stop, StopReason::CountReached);
            assert_eq!(tours.len(), 2);
            assert_ne!(tours[0], tours[1]);
            for tour in &tours {
                assert_eq!(tour.start(), start);
                assert!(tour.is_closed());
                assert_valid_tour(tour.squares(), true);
            }
            assert!(
                summary.nodes < 10_000,
                "{start} took {} nodes",
                summary.nodes
            );
        }
    }

    #[test]
    fn enumeration_yields_distinct_tours_deterministically() {
        for (name, closed) in [("a1", false), ("d5", false), ("b1", true)] {
            let config = SearchConfig {
                closed,
                max_tours: 300,
                ..SearchConfig::new(square(name))
            };
            let (tours, summary) = find_tours(&config);
            assert_eq!(tours.len(), 300);
            assert_eq!(summary.tours, 300);
            let distinct: HashSet<_> = tours.iter().collect();
            assert_eq!(distinct.len(), tours.len());
            tours
                .iter()
                .for_each(|t| assert_valid_tour(t.squares(), closed));
            assert_eq!(find_tours(&config).0, tours, "same input, same tours");
        }
    }

    #[test]
    fn pruning_loses_no_completions() {
        // Compare against unpruned backtracking on the last squares of real
        // tours: same set, so the connectivity pruning is sound.
        let open = first_tour(square("c3")).expect("a tour from c3");
        let closed_config = SearchConfig {
            closed: true,
            ..SearchConfig::new(square("g2"))
        };
        let closed = find_tours(&closed_config).0.remove(0);
        for (tour, closed) in [(open, false), (closed, true)] {
            for free in [12, 16, 20] {
                let prefix = &tour.squares()[..SQUARE_COUNT - free];
                let config = SearchConfig {
                    closed,
                    ..SearchConfig::new(prefix[0])
                };
                let pruned = completions(&config, prefix);
                let brute = brute_completions(prefix, closed, Goal::Any);
                assert!(pruned.contains(tour.squares()));
                assert_eq!(pruned, brute, "{free} free squares, closed {closed}");
            }
        }
    }

    #[test]
    fn validation_rejects_non_tours() {
        let tour = first_tour(square("a1")).expect("a tour from a1");
        let path = tour.squares();
        assert_eq!(Tour::new(&path[..63]), Err(TourError::WrongLength(63)));
        let mut repeated = path.to_vec();
        repeated[10] = repeated[8];
        assert_eq!(Tour::new(&repeated), Err(TourError::Repeated(repeated[8])));
        let mut swapped = path.to_vec();
        swapped.swap(10, 20);
        assert!(matches!(
            Tour::new(&swapped),
            Err(TourError::NotKnightMove(..))
        ));
        let mut grid = tour.numbers();
        grid[0][0] = 0;
        assert_eq!(Tour::from_numbers(&grid), Err(TourError::BadNumber(0)));
        grid[0][0] = grid[0][1];
        assert!(Tour::from_numbers(&grid).is_err());
        assert_eq!(Tour::from_numbers(&tour.numbers()).as_ref(), Ok(&tour));
    }

    #[test]
    fn beverley_is_semi_magic_and_quarter_magic() {
        let tour = beverley();
        assert_valid_tour(tour.squares(), false);
        assert_eq!(tour.start(), square("a8"));
        assert!(!tour.is_closed());
        assert_eq!(tour.rank_sums(), [MAGIC_SUM; BOARD_SIZE]);
        assert_eq!(tour.file_sums(), [MAGIC_SUM; BOARD_SIZE]);
        // Check each quarter by hand, independently of the line indexing.
        for (rank0, file0) in [(0, 0), (0, 4), (4, 0), (4, 4)] {
            for i in 0..QUARTER_SIZE {
                let row: u32 = (0..QUARTER_SIZE)
                    .map(|j| u32::from(BEVERLEY[rank0 + i][file0 + j]))
                    .sum();
                let column: u32 = (0..QUARTER_SIZE)
                    .map(|j| u32::from(BEVERLEY[rank0 + j][file0 + i]))
                    .sum();
                assert_eq!((row, column), (QUARTER_SUM, QUARTER_SUM));
            }
        }
        assert!(tour.satisfies(Goal::SemiMagic));
        assert!(tour.satisfies(Goal::Quarters));
        assert_ne!(
            tour.diagonal_sums(),
            (MAGIC_SUM, MAGIC_SUM),
            "no 8x8 magic tour exists"
        );
        let plain = first_tour(square("a8")).expect("a tour from a8");
        assert!(!plain.satisfies(Goal::SemiMagic) && !plain.satisfies(Goal::Quarters));
        assert!(plain.satisfies(Goal::Any));
    }

    #[test]
    fn line_bounds_match_brute_force() {
        // Small top so every subset can be listed; the formulas take `top`.
        const TOP: u32 = 16;
        const MAX_PER_PARITY: usize = 4;
        for base in 1..=TOP + 1 {
            let mut best: HashMap<(u32, u32), (u32, u32)> = HashMap::new();
            for mask in 0u32..1 << TOP {
                let numbers: Vec<u32> = (1..=TOP).filter(|n| mask & (1 << (n - 1)) != 0).collect();
                let spaced = numbers.windows(2).all(|w| w[1] - w[0] >= 2);
                if !spaced || numbers.iter().any(|&n| n < base) {
                    continue;
                }
                let odd = numbers.iter().filter(|&&n| n % 2 == 1).count() as u32;
                let even = numbers.len() as u32 - odd;
                let total = numbers.iter().sum();
                let entry = best.entry((odd, even)).or_insert((total, total));
                *entry = (entry.0.min(total), entry.1.max(total));
            }
            for odd in 0..=MAX_PER_PARITY as u32 {
                for even in 0..=MAX_PER_PARITY as u32 {
                    let brute = best.get(&(odd, even));
                    assert_eq!(
                        min_line_total(base, odd, even, TOP),
                        brute.map(|b| b.0),
                        "{base} {odd} {even}"
                    );
                    if let Some(&(_, max)) = brute {
                        let bound = max_line_total(odd, even, TOP).expect("a bound exists");
                        assert!(bound >= max, "max bound unsound at {base} {odd} {even}");
                        if base == 1 {
                            assert_eq!(bound, max);
                        }
                    }
                }
            }
        }
    }

    use std::collections::HashMap;

    #[test]
    fn consecutive_moves_never_share_a_line() {
        // The premise of the spacing in the line bounds.
        for a in Square::all() {
            for b in a.knight_moves() {
                assert!(a.rank() != b.rank() && a.file() != b.file());
            }
        }
    }

    #[test]
    fn pruning_accepts_every_step_of_known_magic_tours() {
        // Beverley's tour and the one found from a8 under the eight board
        // symmetries and reversal: 32 numbered semi-magic and quarter-magic
        // tours, checked here. No step of any may be pruned.
        let images = known_magic_tours();
        assert_eq!(images.iter().collect::<HashSet<_>>().len(), 32);
        for tour in images {
            assert!(tour.satisfies(Goal::SemiMagic) && tour.satisfies(Goal::Quarters));
            for goal in [Goal::SemiMagic, Goal::Quarters] {
                let config = SearchConfig {
                    goal,
                    ..SearchConfig::new(tour.start())
                };
                let (mut on_tour, mut on_progress) =
                    (|_: &Tour| ControlFlow::Continue(()), |_: &Progress| {});
                let walked = walk(&config, tour.squares(), &mut on_tour, &mut on_progress);
                assert!(
                    walked.is_some(),
                    "{goal:?} pruned a step of a magic tour from {}",
                    tour.start()
                );
            }
        }
    }

    #[test]
    fn pruning_rejects_a_non_magic_tour_early() {
        // A plain tour must be cut off, at the latest when a line is full.
        let tour = first_tour(square("a8")).expect("a tour from a8");
        let numbers = tour.numbers();
        let first_full_rank_at = (0..BOARD_SIZE)
            .filter(|&rank| numbers[rank].iter().map(|&n| u32::from(n)).sum::<u32>() != MAGIC_SUM)
            .map(|rank| numbers[rank].iter().copied().max().unwrap_or(0))
            .min()
            .expect("a plain tour has a wrong rank sum");
        let config = SearchConfig {
            goal: Goal::SemiMagic,
            ..SearchConfig::new(tour.start())
        };
        let (mut on_tour, mut on_progress) =
            (|_: &Tour| ControlFlow::Continue(()), |_: &Progress| {});
        let mut searcher = Searcher::new(&config, &mut on_tour, &mut on_progress);
        let accepted = tour.squares()[1..]
            .iter()
            .take_while(|s| searcher.advance(s.cell()))
            .count()
            + 1;
        assert!(
            accepted < usize::from(first_full_rank_at),
            "accepted {accepted} moves"
        );
    }

    #[test]
    fn magic_search_completes_known_tours_and_loses_none() {
        for tour in known_magic_tours().into_iter().step_by(3) {
            for goal in [Goal::SemiMagic, Goal::Quarters] {
                let config = SearchConfig {
                    goal,
                    ..SearchConfig::new(tour.start())
                };
                // Deep enough to run fast in the pruned search, shallow enough
                // that the brute force still finishes.
                let prefix = &tour.squares()[..SQUARE_COUNT - 18];
                let pruned = completions(&config, prefix);
                assert!(pruned.contains(tour.squares()));
                assert_eq!(pruned, brute_completions(prefix, false, goal));
                for path in &pruned {
                    assert!(Tour::new(path).is_ok_and(|t| t.satisfies(goal)));
                }
                // Much earlier, the full search must still find a magic tour.
                let found = completions(&config, &tour.squares()[..SQUARE_COUNT - 30]);
                assert!(found.contains(tour.squares()));
            }
        }
    }

    /// Slow (about 100 s in release mode): `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn quarters_search_from_a8_finds_its_tour() {
        let config = SearchConfig {
            goal: Goal::Quarters,
            ..SearchConfig::new(square("a8"))
        };
        let (tours, _) = find_tours(&config);
        assert_eq!(tours, vec![tour_from_printed(&QUARTERS_FROM_A8)]);
        assert!(tours[0].satisfies(Goal::Quarters) && tours[0].satisfies(Goal::SemiMagic));
    }

    #[test]
    fn magic_search_honours_time_limit() {
        let config = SearchConfig {
            goal: Goal::SemiMagic,
            time_limit: Some(Duration::from_millis(200)),
            progress_interval: Duration::from_millis(50),
            ..SearchConfig::new(square("d4"))
        };
        let mut reports = 0;
        let summary = search(&config, &mut |_| ControlFlow::Continue(()), &mut |_| {
            reports += 1
        });
        if summary.tours == 0 {
            assert_eq!(summary.stop, StopReason::TimeLimit);
            assert!(summary.elapsed < Duration::from_secs(5));
            assert!(reports >= 1);
        }
        assert!(summary.nodes > 0 && summary.deepest > 1);
    }

    fn run_cli(args: &[&str], input: Option<&str>) -> (i32, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut reader = input.map(|text| io::Cursor::new(text.as_bytes().to_vec()));
        let code = run(
            &args,
            reader.as_mut().map(|r| r as &mut dyn BufRead),
            &mut out,
            &mut err,
        );
        let text = |bytes| String::from_utf8(bytes).expect("output is UTF-8");
        (code, text(out), text(err))
    }

    /// Reads the boards back from the printed output.
    fn printed_tours(output: &str) -> Vec<Tour> {
        let mut rows = Vec::new();
        for line in output.lines() {
            let cells: Vec<&str> = line.split(['│', '|']).collect();
            if cells.len() == 3 {
                let numbers: Vec<u8> = cells[1]
                    .split_whitespace()
                    .map(|n| n.parse().expect("a move number"))
                    .collect();
                rows.push(<[u8; BOARD_SIZE]>::try_from(numbers).expect("eight numbers per rank"));
            }
        }
        rows.chunks(BOARD_SIZE)
            .map(|board| {
                let mut grid: [[u8; BOARD_SIZE]; BOARD_SIZE] =
                    board.try_into().expect("eight ranks");
                grid.reverse();
                Tour::from_numbers(&grid).expect("every printed board is a tour")
            })
            .collect()
    }

    #[test]
    fn cli_prints_valid_tours() {
        let (code, out, err) = run_cli(&["b2", "--count", "3"], None);
        assert_eq!(code, EXIT_OK, "{err}");
        let tours = printed_tours(&out);
        assert_eq!(tours.len(), 3);
        assert_eq!(tours.iter().collect::<HashSet<_>>().len(), 3);
        tours
            .iter()
            .for_each(|t| assert_eq!(t.start(), square("b2")));
        assert!(out.contains("Tour 3") && out.contains("Found 3 knight's tours from b2"));
        assert!(out.contains("      a   b   c   d   e   f   g   h"));

        let (code, out, _) = run_cli(&["--closed", "--count=2", "--ascii", "H8"], None);
        assert_eq!(code, EXIT_OK);
        assert!(out.is_ascii());
        let tours = printed_tours(&out);
        assert_eq!(tours.len(), 2);
        assert!(tours.iter().all(Tour::is_closed));
        assert!(out.contains("closed: "));
    }

    #[test]
    fn cli_rejects_bad_input() {
        let cases: &[&[&str]] = &[
            &["z9"],
            &["e"],
            &[""],
            &["ñ3"],
            &["a1", "b2"],
            &["a1", "--count"],
            &["a1", "--count", "0"],
            &["a1", "--count", "-3"],
            &["a1", "--count", "lots"],
            &["a1", "--count", "99999999999999999999999"],
            &["a1", "--time-limit", "0"],
            &["a1", "--time-limit", "-1"],
            &["a1", "--time-limit", "NaN"],
            &["a1", "--time-limit", "inf"],
            &["a1", "--time-limit", "1e300"],
            &["a1", "--magic", "--quarters"],
            &["a1", "--closed=yes"],
            &["a1", "--fast"],
            &[],
        ];
        for args in cases {
            let (code, out, err) = run_cli(args, None);
            assert_eq!(code, EXIT_USAGE, "{args:?}");
            assert!(out.is_empty(), "{args:?}");
            assert!(err.starts_with("cavalier tour: "), "{args:?}: {err}");
        }
    }

    #[test]
    fn cli_asks_again_for_a_bad_square() {
        let (code, out, err) = run_cli(&[], Some("z9\n\ne\nc6\n"));
        assert_eq!(code, EXIT_OK);
        assert_eq!(err.matches("Start square").count(), 4);
        assert_eq!(err.matches("please try again").count(), 3);
        assert_eq!(printed_tours(&out)[0].start(), square("c6"));
        let (code, _, err) = run_cli(&[], Some("x\n"));
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("no start square"));
    }

    #[test]
    fn cli_help() {
        let (code, out, _) = run_cli(&["--help"], None);
        assert_eq!(code, EXIT_OK);
        assert!(out.starts_with("usage: cavalier tour <square>"));
    }

    #[test]
    fn cli_magic_reports_honestly() {
        let (code, out, _) = run_cli(&["a1", "--quarters", "--time-limit", "0.3"], None);
        match code {
            EXIT_NOT_FOUND => assert!(out.starts_with("No quarter-magic tour found from a1 in")),
            EXIT_OK => printed_tours(&out)
                .iter()
                .for_each(|t| assert!(t.satisfies(Goal::Quarters))),
            other => panic!("exit code {other}"),
        }
    }

    #[test]
    fn printed_sums_are_checked() {
        let mut out = Vec::new();
        write_tour(&mut out, &beverley(), 1, Goal::Quarters, true).expect("writing to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.contains("rank sums (8 down to 1): 260 260 260 260 260 260 260 260"));
        assert!(text.contains("quarter a5-d8: ranks 130 130 130 130, files 130 130 130 130"));
        assert!(text.contains("verified: every rank and file of each quarter sums to 130"));
        assert_eq!(printed_tours(&text), vec![beverley()]);
        assert_eq!(group_digits(1_234_567), "1,234,567");
        assert_eq!(group_digits(12), "12");
    }
}
