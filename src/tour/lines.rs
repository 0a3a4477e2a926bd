//! Pruning for the magic goals: running sums of the constrained lines and
//! bounds on what their empty cells can still add up to.
//!
//! Imports only std and the other `tour` files.

use super::goal::{Goal, MAX_LINES};
use super::square::{knight_distances, Square, MAILBOX_CELLS};
use super::{BOARD_SIZE, MAGIC_SUM, SQUARE_COUNT};

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

/// Smallest total of `odd` odd and `even` even numbers in `base..=top`, no two
/// consecutive, or `None` if they do not fit. Consecutive move numbers never
/// share a rank or file (a knight always changes both), hence never a line.
/// The sorted numbers step by 2 within a parity and by at least 3 where the
/// parity changes, so the best is one parity run after the other.
pub(super) fn min_line_total(base: u32, odd: u32, even: u32, top: u32) -> Option<u32> {
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
pub(super) fn max_line_total(odd: u32, even: u32, top: u32) -> Option<u32> {
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

/// Running sums of the constrained lines, with the bounds used to prune.
///
/// A line's next number cannot come before move `number + reach`, and for
/// each line the bound tables give the latest such start (`limit`) from which
/// its empty cells can still make up the missing sum: the test per line and
/// move is then a single comparison.
pub(super) struct LineTracker {
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
    pub(super) fn new(goal: Goal, start: Square) -> Box<LineTracker> {
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

    pub(super) fn place(&mut self, cell: usize, number: u32) {
        for line in self.lines_of[cell] {
            self.sums[line] += number;
            self.slots[line][(number % 2) as usize] -= 1;
            self.update_limit(line);
        }
    }

    pub(super) fn remove(&mut self, cell: usize, number: u32) {
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
    pub(super) fn allows(&self, cell: usize, number: u32) -> bool {
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
