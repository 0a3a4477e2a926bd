//! Command-line subcommands. Each returns the process exit code:
//! 0 success, 1 a check failed (e.g. a perft mismatch), 2 bad usage.

use crate::board::Board;
use crate::notation::to_uci;
use crate::perft::{divide, parse_suite, perft};
use std::time::Instant;

/// Exit code for a failed check.
pub const EXIT_FAILED: i32 = 1;
/// Exit code for bad arguments.
pub const EXIT_USAGE: i32 = 2;
/// Deepest perft accepted from the command line.
const MAX_PERFT_DEPTH: u32 = 15;

const USAGE: &str = "usage: cavalier [uci]                      UCI engine on stdin/stdout
       cavalier bench [depth]                fixed positions, fixed depth, N nodes M nps
       cavalier perft <depth> [FEN]          divide counts, nodes, time, nps
       cavalier perft --suite FILE [--depth D]
                                             check a FEN ;D1 n ;D2 n ... suite";

/// Dispatches on the first argument.
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        None | Some("uci") => {
            let stdin = std::io::stdin();
            crate::uci::run(
                stdin.lock(),
                crate::uci::Output::new(Box::new(std::io::stdout())),
            );
            0
        }
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            0
        }
        Some(other) => {
            eprintln!(
                "error: unknown command \"{}\"\n{USAGE}",
                crate::fen::quote(other)
            );
            EXIT_USAGE
        }
    }
}

fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "bad depth \"{}\": expected a whole number 1..={MAX_PERFT_DEPTH}",
            crate::fen::quote(text)
        )),
    }
}

fn perft_command(args: &[String]) -> i32 {
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
    let start = Instant::now();
    let split = divide(&mut board, depth);
    let elapsed = start.elapsed();
    let mut total = 0;
    for (mv, n) in &split {
        println!("{}: {n}", to_uci(&board, *mv));
        total += n;
    }
    println!();
    println!("Nodes searched: {total}");
    print_speed(total, elapsed.as_secs_f64());
    0
}

fn print_speed(nodes: u64, seconds: f64) {
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    println!("Time: {:.3} s", seconds);
    println!("Nodes per second: {nps}");
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
                    crate::fen::quote(a)
                );
                return EXIT_USAGE;
            }
        }
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read \"{path}\": {e}");
            return EXIT_USAGE;
        }
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
        println!("{line}: {}{status}", entry.fen);
    }
    println!();
    println!(
        "{} positions, {checked} counts checked, {failed} mismatches",
        entries.len()
    );
    println!("Nodes searched: {nodes}");
    print_speed(nodes, start.elapsed().as_secs_f64());
    if failed > 0 {
        EXIT_FAILED
    } else {
        0
    }
}

fn bench_command(args: &[String]) -> i32 {
    let depth = match args.first() {
        None => crate::bench::DEFAULT_DEPTH,
        Some(d) => match d.parse::<i32>() {
            Ok(d) if (1..=30).contains(&d) => d,
            _ => {
                eprintln!(
                    "error: bad bench depth \"{}\": expected 1..=30",
                    crate::fen::quote(d)
                );
                return EXIT_USAGE;
            }
        },
    };
    crate::bench::run(depth, &mut |line| println!("{line}"));
    0
}
