//! `cavalier perft`: divide counts of one position, or a whole suite of
//! positions checked against their known counts.

use crate::chess::board::Board;
use crate::chess::perft::{divide_report, divide_with, parse_suite, speed_lines, PerftTable};
use crate::cli::usage::USAGE;
use crate::util::command_line::{
    parse_number, read_input, say, CommandLine, EXIT_FAILED, EXIT_USAGE,
};
use std::time::Instant;

/// `cavalier perft --help`.
const PERFT_USAGE: &str =
    "usage: cavalier perft <depth> [FEN] [--threads N] [--hash MB] [--chess960]
       cavalier perft --suite FILE [--depth D] [--threads N] [--hash MB]
The first form prints each root move's count, then the nodes, time and nodes
per second (the FEN may be one argument or its words; none for the start
position). The second checks every line FEN ;D1 n ;D2 n ... of FILE to depth D
and names each mismatch (exit code 1). --threads shares out the root moves,
--hash shares subtree counts between them; --chess960 allows Chess960 castling.";

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

/// Most threads and megabytes of perft table accepted.
const MAX_THREADS: usize = 1024;
const MAX_HASH_MB: usize = 1 << 20;

/// The options shared by both forms: `--threads N`, `--hash MB`,
/// `--chess960` and (for suites) `--depth D`; the other arguments in order.
struct PerftOptions {
    threads: usize,
    hash_mb: usize,
    max_depth: Option<u32>,
    /// A single position's castling rights may be Chess960's.
    chess960: bool,
    rest: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<PerftOptions, String> {
    let mut o = PerftOptions {
        threads: 1,
        hash_mb: 0,
        max_depth: None,
        chess960: false,
        rest: Vec::new(),
    };
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        match a {
            "--chess960" => o.chess960 = true,
            "--threads" => {
                o.threads = parse_number("thread count (1..=1024)", args.value()?, |n: &usize| {
                    (1..=MAX_THREADS).contains(n)
                })?
            }
            "--hash" => {
                o.hash_mb = parse_number(
                    "hash size in MB (0..=1048576)",
                    args.value()?,
                    |n: &usize| *n <= MAX_HASH_MB,
                )?
            }
            "--depth" => o.max_depth = Some(parse_depth(args.value()?)?),
            _ => o.rest.push(a.to_string()),
        }
    }
    Ok(o)
}

pub fn command(args: &[String]) -> i32 {
    if matches!(args.first().map(String::as_str), Some("-h" | "--help")) {
        say!("{PERFT_USAGE}");
        return 0;
    }
    let suite = args.first().map(String::as_str) == Some("--suite");
    let opts = match parse_options(if suite { &args[1..] } else { args }) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return EXIT_USAGE;
        }
    };
    let table = if opts.hash_mb > 0 {
        let Some(t) = PerftTable::new(opts.hash_mb) else {
            eprintln!("error: cannot allocate a {} MB perft table", opts.hash_mb);
            return EXIT_USAGE;
        };
        Some(t)
    } else {
        None
    };
    if suite {
        return perft_suite(&opts, table.as_ref());
    }
    let Some(depth_text) = opts.rest.first() else {
        eprintln!("error: perft needs a depth\n{USAGE}");
        return EXIT_USAGE;
    };
    if opts.max_depth.is_some() {
        eprintln!("error: --depth belongs to --suite; give the depth first\n{USAGE}");
        return EXIT_USAGE;
    }
    let depth = match parse_depth(depth_text) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let mut board = match Board::from_fen_words(&opts.rest[1..]) {
        Ok(b) => b.unwrap_or_else(Board::startpos),
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    // Standard chess stays standard, as in the UCI loop: castling rights
    // only Chess960 has are refused unless asked for. (Suites mix both
    // kinds and are read as their rights say.)
    if board.is_chess960() && !opts.chess960 {
        eprintln!(
            "error: castling rights with the king off e1/e8 or a rook off the corner \
             are Chess960's (add --chess960)"
        );
        return EXIT_USAGE;
    }
    board.set_chess960(opts.chess960);
    divide_report(&board, depth, opts.threads, table.as_ref(), &mut |line| {
        say!("{line}")
    });
    0
}

/// Prints the time and speed lines of a perft run.
fn print_speed(nodes: u64, seconds: f64) {
    for line in speed_lines(nodes, seconds) {
        say!("{line}");
    }
}

fn perft_suite(opts: &PerftOptions, table: Option<&PerftTable>) -> i32 {
    let (Some(path), 1) = (opts.rest.first(), opts.rest.len()) else {
        eprintln!("error: --suite needs one file\n{USAGE}");
        return EXIT_USAGE;
    };
    let max_depth = opts.max_depth;
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
        let Ok(board) = Board::from_fen(&entry.fen) else {
            continue; // parse_suite already validated every FEN
        };
        let mut status = String::new();
        for &(depth, expected) in &entry.counts {
            if max_depth.is_some_and(|m| depth > m) || depth == 0 || depth > MAX_PERFT_DEPTH {
                continue;
            }
            let found = divide_with(&board, depth, opts.threads, table)
                .iter()
                .map(|(_, n)| n)
                .sum::<u64>();
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
