//! Text of `cavalier tour`: a found tour with its sums, and the closing line
//! that says honestly what the search found.
//!
//! Imports only std and the other `tour` files.

use super::goal::Goal;
use super::path::Tour;
use super::request::{SearchSummary, StopReason};
use super::square::Square;
use super::{BOARD_SIZE, MAGIC_SUM, QUARTER_SIZE, QUARTER_SUM, SQUARE_COUNT};
use std::io::{self, Write};
use std::time::Duration;

/// Short searches are reported in milliseconds.
const MILLISECONDS_PER_SECOND: f64 = 1e3;
/// Digits between thousands separators in node counts.
const DIGIT_GROUP: usize = 3;

/// Prints one tour: its number, shape, board and, for magic goals, the sums.
pub(super) fn write_tour(
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

pub(super) fn describe_outcome(
    summary: &SearchSummary,
    kind: &str,
    start: Square,
    requested: u64,
) -> String {
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
pub(super) fn group_digits(number: u64) -> String {
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
