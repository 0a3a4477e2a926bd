//! `cavalier book`: the book moves of a position, or a check of every
//! line's end by search.

use crate::chess::board::Board;
use crate::chess::notation::to_uci;
use crate::util::command_line::{say, CommandLine, EXIT_FAILED, EXIT_USAGE};

/// `cavalier book --help`.
fn book_usage() -> String {
    format!(
        "usage: cavalier book [--file F] [FEN | moves]
       cavalier book [--file F] --check [--depth D]
Shows the book moves and weights of a position (a FEN, or moves in
coordinates or SAN from the start; none for the start position), or with
--check searches every line's end to depth D (default {BOOK_CHECK_DEPTH}) and flags
those beyond {BOOK_UNSOUND_CP} centipawns for one side. --file reads a text or
Polyglot book instead of the embedded one."
    )
}

/// A book line's end position is flagged when one side is worse by more
/// than this (centipawns).
const BOOK_UNSOUND_CP: i32 = 150;
/// Default depth of `book --check`.
const BOOK_CHECK_DEPTH: i32 = 7;

/// Shows the book moves of a position, or checks the whole book.
pub fn command(args: &[String]) -> i32 {
    use crate::book::{Book, EMBEDDED, EMBEDDED_NAME};
    let mut file = None;
    let mut check = false;
    let mut depth = BOOK_CHECK_DEPTH;
    let mut words = Vec::new();
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        match a {
            "--file" => match args.value() {
                Ok(f) => file = Some(f.to_string()),
                Err(_) => {
                    eprintln!("error: --file needs a path");
                    return EXIT_USAGE;
                }
            },
            "-h" | "--help" => {
                say!("{}", book_usage());
                return 0;
            }
            "--check" => check = true,
            "--depth" => match args.number(|d: &i32| (1..=30).contains(d)) {
                Ok(d) => depth = d,
                Err(_) => {
                    eprintln!("error: --depth needs a number 1..=30");
                    return EXIT_USAGE;
                }
            },
            _ => words.push(a.to_string()),
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
    let board = match position_from_words(&words) {
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
/// coordinates) from the start position; no words for the start position,
/// blank words refused.
fn position_from_words(words: &[String]) -> Result<Board, String> {
    match Board::from_fen_words(words) {
        Ok(board) => return Ok(board.unwrap_or_else(Board::startpos)),
        Err(e) if words.iter().all(|w| w.trim().is_empty()) => return Err(e),
        Err(_) => {} // not a FEN: moves from the start position
    }
    let mut board = Board::startpos();
    for word in words.iter().flat_map(|w| w.split_whitespace()) {
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
