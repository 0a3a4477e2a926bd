//! `cavalier perft`: divide counts of one position, or a whole suite of
//! positions checked against their known counts.

use crate::chess::board::Board;
use crate::chess::perft::{divide_report, parse_suite, perft, speed_lines};
use crate::cli::common::{read_input, say, EXIT_FAILED, EXIT_USAGE, USAGE};
use std::time::Instant;

/// Deepest perft accepted from the command line.
const MAX_PERFT_DEPTH: u32 = 15;

fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "bad depth \"{}\": expected a whole number 1..={MAX_PERFT_DEPTH}",
            crate::util::text::quote(text)
        )),
    }
}

pub fn command(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("--suite") {
        return perft_suite(&args[1..]);
    }
    let Some(depth_text) = args.first() else {
        eprintln!("error: perft needs a depth\n{USAGE}");
        return EXIT_USAGE;
    };
    let depth = match parse_depth(depth_text) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let fen = args[1..].join(" ");
    let mut board = if fen.trim().is_empty() {
        Board::startpos()
    } else {
        match Board::from_fen(&fen) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_USAGE;
            }
        }
    };
    divide_report(&mut board, depth, &mut |line| say!("{line}"));
    0
}

/// Prints the time and speed lines of a perft run.
fn print_speed(nodes: u64, seconds: f64) {
    for line in speed_lines(nodes, seconds) {
        say!("{line}");
    }
}

fn perft_suite(args: &[String]) -> i32 {
    let Some(path) = args.first() else {
        eprintln!("error: --suite needs a file\n{USAGE}");
        return EXIT_USAGE;
    };
    let mut max_depth = None;
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match (a.as_str(), rest.next()) {
            ("--depth", Some(d)) => match parse_depth(d) {
                Ok(d) => max_depth = Some(d),
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_USAGE;
                }
            },
            _ => {
                eprintln!(
                    "error: unexpected argument \"{}\"\n{USAGE}",
                    crate::util::text::quote(a)
                );
                return EXIT_USAGE;
            }
        }
    }
    let Some(text) = read_input(path) else {
        return EXIT_USAGE;
    };
    let entries = match parse_suite(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return EXIT_USAGE;
        }
    };
    let start = Instant::now();
    let (mut checked, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    for (line, entry) in &entries {
        let Ok(mut board) = Board::from_fen(&entry.fen) else {
            continue; // parse_suite already validated every FEN
        };
        let mut status = String::new();
        for &(depth, expected) in &entry.counts {
            if max_depth.is_some_and(|m| depth > m) || depth == 0 || depth > MAX_PERFT_DEPTH {
                continue;
            }
            let found = perft(&mut board, depth);
            nodes += found;
            checked += 1;
            if found == expected {
                status.push_str(&format!(" D{depth} ok"));
            } else {
                failed += 1;
                status.push_str(&format!(" D{depth} FAIL"));
                eprintln!(
                    "mismatch: line {line} \"{}\" depth {depth}: expected {expected}, found {found}",
                    entry.fen
                );
            }
        }
        say!("{line}: {}{status}", entry.fen);
    }
    say!("");
    say!(
        "{} positions, {checked} counts checked, {failed} mismatches",
        entries.len()
    );
    say!("Nodes searched: {nodes}");
    print_speed(nodes, start.elapsed().as_secs_f64());
    if failed > 0 {
        EXIT_FAILED
    } else {
        0
    }
}
