//! The tour search: a depth-first Warnsdorff walk with backtracking on the
//! mailbox, for open and closed tours, with connectivity pruning and, for
//! magic goals, the line bounds of [`LineTracker`]; and its entry points
//! [`search`], [`find_tours`] and [`first_tour`].
//!
//! Imports only std and the other `tour` files.

use super::goal::Goal;
use super::lines::LineTracker;
use super::path::Tour;
use super::request::{Progress, SearchConfig, SearchSummary, StopReason};
use super::square::{Square, EMPTY, GUARD, KNIGHT_OFFSETS, MAILBOX_CELLS};
use super::SQUARE_COUNT;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// The clock is read once per this many nodes plus one: reading it every node
/// would cost more than the node itself.
const CLOCK_CHECK_MASK: u64 = (1 << 12) - 1;
/// Move keys are `degree << ORDER_SHIFT | offset index`, sorted ascending.
const ORDER_SHIFT: u32 = 8;
/// Mask extracting the offset index from a move key.
const ORDER_MASK: u16 = (1 << ORDER_SHIFT) - 1;

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
pub(super) struct Searcher<'a> {
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
    pub(super) fn new(
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
    pub(super) fn advance(&mut self, cell: usize) -> bool {
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
    pub(super) fn extend(&mut self) {
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
        Tour::from_searched(self.path.map(|cell| Square::from_cell(usize::from(cell))))
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

    pub(super) fn summary(&self) -> SearchSummary {
        SearchSummary {
            tours: self.tours,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
            deepest: self.deepest,
            stop: self.stop.unwrap_or(StopReason::Exhausted),
        }
    }
}
