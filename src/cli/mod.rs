//! Command-line subcommands. Each returns the process exit code:
//! 0 success, 1 a check failed (e.g. a perft mismatch), 2 bad usage.

pub mod epd;
pub mod play;
pub mod selfplay;
pub mod tune;

use crate::chess::board::Board;
use crate::chess::notation::to_uci;
use crate::chess::perft::{divide, parse_suite, perft};
use std::time::Instant;

/// Prints a line on stdout. When the reader has gone (a closed pipe, as
/// with `cavalier perft 6 | head`), ends the process quietly, as other
/// command-line tools do, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say_line(&format!($($arg)*))
    };
}

/// The function behind `say!`.
pub(crate) fn say_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Exit code for a failed check.
pub const EXIT_FAILED: i32 = 1;
/// Exit code for bad arguments.
pub const EXIT_USAGE: i32 = 2;
/// Deepest perft accepted from the command line.
const MAX_PERFT_DEPTH: u32 = 15;

const USAGE: &str = "usage: cavalier [uci]                      UCI engine on stdin/stdout
       cavalier bench [depth]                fixed positions, fixed depth, N nodes M nps
       cavalier book [--file F] [FEN | moves]  book moves and weights of a position
       cavalier book [--file F] --check [--depth D]
                                             search every line's end; flag > 1.5 pawns
       cavalier epd FILE [--movetime MS]     run an EPD suite (bm/am), count the solved
       cavalier play [options]               a game against the engine in the terminal
                                             (cavalier play --help for the options)
       cavalier tour <square> [options]      knight's tours (cavalier tour --help)
       cavalier selfplay [options]           self-play games written as positions with
                                             results (cavalier selfplay --help)
       cavalier tune FILE [options]          fit the evaluation weights to those results
                                             (cavalier tune --help)
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
        Some("book") => book_command(&args[1..]),
        Some("play") => crate::cli::play::cli(&args[1..]),
        Some("epd") => epd_command(&args[1..]),
        Some("tour") => crate::tour::cli(&args[1..]),
        Some("selfplay") => crate::cli::selfplay::cli(&args[1..]),
        Some("tune") => crate::cli::tune::cli(&args[1..]),
        Some("-h" | "--help" | "help") => {
            say!("{USAGE}");
            0
        }
        Some(other) => {
            eprintln!(
                "error: unknown command \"{}\"\n{USAGE}",
                crate::util::text::quote(other)
            );
            EXIT_USAGE
        }
    }
}

/// A subcommand's parsed arguments, or its exit code once the usage (for
/// `--help`, an empty error) or the error and the usage have been shown.
pub(crate) fn args_or_exit<T>(parsed: Result<T, String>, usage: &str) -> Result<T, i32> {
    match parsed {
        Ok(o) => Ok(o),
        Err(e) if e.is_empty() => {
            say_line(usage);
            Err(0)
        }
        Err(e) => {
            eprintln!("error: {e}\n{usage}");
            Err(EXIT_USAGE)
        }
    }
}

/// Parses the value of option `name`, accepted when `ok` says so.
pub(crate) fn parse_number<T: std::str::FromStr>(
    name: &str,
    text: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T, String> {
    text.parse::<T>()
        .ok()
        .filter(ok)
        .ok_or_else(|| format!("bad {name} \"{}\"", crate::util::text::quote(text)))
}

fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "bad depth \"{}\": expected a whole number 1..={MAX_PERFT_DEPTH}",
            crate::util::text::quote(text)
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
        say!("{}: {n}", to_uci(&board, *mv));
        total += n;
    }
    say!("");
    say!("Nodes searched: {total}");
    print_speed(total, elapsed.as_secs_f64());
    0
}

/// Reads a file named on the command line, or says why not.
pub(crate) fn read_input(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .map_err(|e| eprintln!("error: cannot read \"{path}\": {e}"))
        .ok()
}

fn print_speed(nodes: u64, seconds: f64) {
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    say!("Time: {:.3} s", seconds);
    say!("Nodes per second: {nps}");
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

fn bench_command(args: &[String]) -> i32 {
    let depth = match args.first() {
        None => crate::engine::bench::DEFAULT_DEPTH,
        Some(d) => match d.parse::<i32>() {
            Ok(d) if (1..=30).contains(&d) => d,
            _ => {
                eprintln!(
                    "error: bad bench depth \"{}\": expected 1..=30",
                    crate::util::text::quote(d)
                );
                return EXIT_USAGE;
            }
        },
    };
    crate::engine::bench::run(depth, &mut |line| say!("{line}"));
    0
}

/// A book line's end position is flagged when one side is worse by more
/// than this (centipawns).
const BOOK_UNSOUND_CP: i32 = 150;
/// Default depth of `book --check`.
const BOOK_CHECK_DEPTH: i32 = 7;

fn book_command(args: &[String]) -> i32 {
    use crate::book::{Book, EMBEDDED, EMBEDDED_NAME};
    let mut file = None;
    let mut check = false;
    let mut depth = BOOK_CHECK_DEPTH;
    let mut words = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--file" => match it.next() {
                Some(f) => file = Some(f.clone()),
                None => {
                    eprintln!("error: --file needs a path");
                    return EXIT_USAGE;
                }
            },
            "--check" => check = true,
            "--depth" => match it.next().and_then(|d| d.parse::<i32>().ok()) {
                Some(d) if (1..=30).contains(&d) => depth = d,
                _ => {
                    eprintln!("error: --depth needs a number 1..=30");
                    return EXIT_USAGE;
                }
            },
            _ => words.push(a.clone()),
        }
    }
    let book = match &file {
        None => Book::Text(EMBEDDED.clone()),
        Some(path) => {
            let (book, errors) = Book::load(path);
            for e in &errors {
                eprintln!("error: {e}");
            }
            match book {
                Some(b) => b,
                None => return EXIT_USAGE,
            }
        }
    };
    let name = file.as_deref().unwrap_or(EMBEDDED_NAME);
    if check {
        return book_check(&book, name, depth);
    }
    let text = words.join(" ");
    let board = match position_from_words(&text) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let moves = book.moves(&board);
    say!("{}", board.to_fen());
    if moves.is_empty() {
        say!("no book moves ({name})");
        return 0;
    }
    let total: u32 = moves.iter().map(|&(_, w)| w).sum();
    say!("{:<8} {:<6} {:>7} {:>7}", "move", "uci", "weight", "share");
    for (mv, w) in moves {
        say!(
            "{:<8} {:<6} {:>7} {:>6.1}%",
            crate::chess::notation::to_san(&board, mv),
            to_uci(&board, mv),
            w,
            100.0 * w as f64 / total as f64
        );
    }
    0
}

/// A FEN, or moves (coordinates or SAN, spaces optional between
/// coordinates) from the start position; empty for the start position.
fn position_from_words(text: &str) -> Result<Board, String> {
    if text.trim().is_empty() {
        return Ok(Board::startpos());
    }
    if let Ok(b) = Board::from_fen(text) {
        return Ok(b);
    }
    let mut board = Board::startpos();
    for word in text.split_whitespace() {
        // Concatenated coordinates ("e2e4e7e5") first, then one move in
        // any notation.
        let mut trial = board.clone();
        let coordinates = crate::book::split_moves(word).is_ok_and(|moves| {
            moves
                .iter()
                .all(|m| match crate::chess::notation::parse_uci(&trial, m) {
                    Ok(mv) => {
                        trial.make(mv);
                        true
                    }
                    Err(_) => false,
                })
        });
        if coordinates {
            board = trial;
            continue;
        }
        let mv = crate::chess::notation::parse_move(&board, word)
            .map_err(|e| format!("not a FEN, and {e}"))?;
        board.make(mv);
    }
    Ok(board)
}

fn book_check(book: &crate::book::Book, name: &str, depth: i32) -> i32 {
    use crate::engine::search::{SearchControl, SearchLimits, Searcher};
    use crate::engine::tt::TranspositionTable;
    let crate::book::Book::Text(text) = book else {
        eprintln!("error: --check works on text books (lines), not Polyglot");
        return EXIT_USAGE;
    };
    let mut flagged = 0;
    for (i, line) in text.lines().iter().enumerate() {
        let mut board = Board::startpos();
        let mut shown = Vec::new();
        for &mv in line {
            shown.push(to_uci(&board, mv));
            board.make(mv);
        }
        let tt = TranspositionTable::new(16);
        let result = Searcher::new().think(
            &mut board,
            &SearchLimits::depth(depth),
            &SearchControl::new(false),
            &tt,
            &mut |_| {},
        );
        let white = if board.side_to_move() == crate::chess::types::Color::White {
            result.score
        } else {
            -result.score
        };
        let bad = white.abs() > BOOK_UNSOUND_CP;
        flagged += bad as usize;
        say!(
            "{:>4} {:>6} {}{}",
            i + 1,
            white,
            shown.join(" "),
            if bad { "  <-- unsound" } else { "" }
        );
    }
    say!("");
    say!(
        "{name}: {} lines searched to depth {depth}, {flagged} beyond +-{BOOK_UNSOUND_CP} cp",
        text.line_count()
    );
    if flagged > 0 {
        EXIT_FAILED
    } else {
        0
    }
}

/// Default thinking time per EPD position (ms).
const EPD_DEFAULT_MS: u64 = 1000;

fn epd_command(args: &[String]) -> i32 {
    let Some(path) = args.first() else {
        eprintln!("error: epd needs a file\n{USAGE}");
        return EXIT_USAGE;
    };
    let mut movetime = EPD_DEFAULT_MS;
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match (a.as_str(), rest.next().map(|v| v.parse::<u64>())) {
            ("--movetime", Some(Ok(ms))) if (1..=3_600_000).contains(&ms) => movetime = ms,
            _ => {
                eprintln!(
                    "error: bad argument \"{}\" (expected --movetime MS)",
                    crate::util::text::quote(a)
                );
                return EXIT_USAGE;
            }
        }
    }
    let Some(text) = read_input(path) else {
        return EXIT_USAGE;
    };
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match crate::cli::epd::parse_line(line) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(e) => {
                eprintln!("error: {path} line {}: {e}", n + 1);
                return EXIT_USAGE;
            }
        }
    }
    crate::cli::epd::run(
        &entries,
        std::time::Duration::from_millis(movetime),
        &mut |l| say!("{l}"),
    );
    0
}
