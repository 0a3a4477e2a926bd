//! Opening books end to end: the embedded text book, text and Polyglot
//! book files (written here from the Polyglot format's documented keys),
//! bad books, and the `book` subcommand.

mod common;

use cavalier::book::polyglot::{encode, key, write_entries, Entry};
use cavalier::book::Book;
use cavalier::chess::notation::{parse_uci, to_uci};
use cavalier::Board;

const START_KEY: u64 = 0x463b96181691fc9c;
const AFTER_E4_KEY: u64 = 0x823c9b50fd114196;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cavalier-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn entry(board: &Board, k: u64, mv: &str, weight: u16) -> Entry {
    Entry {
        key: k,
        raw_move: encode(parse_uci(board, mv).unwrap()),
        weight,
    }
}

fn small_bin() -> Vec<u8> {
    let start = Board::startpos();
    let mut after = start.clone();
    after.make(parse_uci(&start, "e2e4").unwrap());
    assert_eq!(key(&start), START_KEY);
    assert_eq!(key(&after), AFTER_E4_KEY);
    write_entries(&[
        entry(&start, START_KEY, "e2e4", 3),
        entry(&start, START_KEY, "d2d4", 1),
        entry(&after, AFTER_E4_KEY, "c7c5", 5),
        entry(&after, AFTER_E4_KEY, "e7e5", 5),
        // A move that is not legal at that key must be skipped.
        entry(&start, AFTER_E4_KEY, "g1f3", 9),
    ])
}

/// Runs the engine on `input` lines; returns its output lines.
fn engine(input: &[&str]) -> Vec<String> {
    let mut text: String = input.iter().map(|line| format!("{line}\n")).collect();
    text.push_str("quit\n");
    common::cavalier_with_input(&[], &text)
        .stdout
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn polyglot_book_from_documented_keys() {
    let path = temp("small.bin");
    std::fs::write(&path, small_bin()).unwrap();
    let (book, errors) = Book::load(path.to_str().unwrap());
    assert!(errors.is_empty());
    let book = book.unwrap();
    let start = Board::startpos();
    let moves: Vec<(String, u32)> = book
        .moves(&start)
        .iter()
        .map(|&(m, w)| (to_uci(&start, m), w))
        .collect();
    assert_eq!(moves, [("e2e4".to_string(), 3), ("d2d4".to_string(), 1)]);
    let mut after = start.clone();
    after.make(parse_uci(&start, "e2e4").unwrap());
    let mut replies: Vec<String> = book
        .moves(&after)
        .iter()
        .map(|&(m, _)| to_uci(&after, m))
        .collect();
    replies.sort();
    assert_eq!(replies, ["c7c5", "e7e5"]);

    // The engine plays from it.
    let p = path.to_str().unwrap().to_string();
    let out = engine(&[
        &format!("setoption name BookFile value {p}"),
        "position startpos moves e2e4",
        "go wtime 10000 btime 10000",
        "isready",
    ]);
    assert!(
        out.iter()
            .any(|l| l == "info string book move c7c5" || l == "info string book move e7e5"),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l == "bestmove c7c5" || l == "bestmove e7e5"),
        "{out:?}"
    );
}

#[test]
fn truncated_polyglot_book_keeps_whole_entries() {
    let path = temp("truncated.bin");
    let mut bytes = small_bin();
    let whole = bytes.len();
    bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap().to_string();
    let out = engine(&[
        &format!("setoption name BookFile value {p}"),
        "position startpos",
        "go movetime 200",
    ]);
    let err = out
        .iter()
        .find(|l| l.starts_with("info string error"))
        .expect("an error");
    assert!(
        err.contains(&p) && err.contains(&format!("offset {whole}")),
        "{err}"
    );
    assert!(
        out.iter()
            .any(|l| l == "bestmove e2e4" || l == "bestmove d2d4"),
        "{out:?}"
    );
}

#[test]
fn embedded_book_is_used_and_can_be_turned_off() {
    let out = engine(&["position startpos", "go wtime 60000 btime 60000", "isready"]);
    assert!(
        out.iter().any(|l| l.starts_with("info string book move ")),
        "{out:?}"
    );
    let out = engine(&[
        "setoption name OwnBook value false",
        "position startpos",
        "go depth 3",
        "position startpos",
        "go wtime 60000 btime 60000 movestogo 40",
        "isready",
    ]);
    assert!(!out.iter().any(|l| l.contains("book move")), "{out:?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 2);
}

#[test]
fn bad_books_are_reported_and_the_engine_goes_on() {
    let text = temp("bad.book");
    std::fs::write(&text, "# a book\ne2e4 e7e5 g1f3\nd2d4 d7d5 e1e5\n").unwrap();
    let t = text.to_str().unwrap().to_string();
    let out = engine(&[
        "setoption name BookFile value /no/such/book.bin",
        &format!("setoption name BookFile value {t}"),
        "position startpos moves d2d4 d7d5",
        "go wtime 5000 btime 5000",
        "position startpos moves e2e4 e7e5",
        "go wtime 5000 btime 5000",
        "isready",
    ]);
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert!(
        errors
            .iter()
            .any(|l| l.contains("/no/such/book.bin") && l.contains("cannot be read")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|l| l.contains(&t) && l.contains("line 3") && l.contains("e1e5")),
        "{errors:?}"
    );
    // The valid line is in use; the bad line's moves before the error too.
    assert!(out.iter().any(|l| l == "bestmove g1f3"), "{out:?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 2);
    assert_eq!(out.last().unwrap(), "readyok");
}

#[test]
fn book_subcommand_lists_moves() {
    let o = common::cavalier(&["book", "e2e4", "c7c5"]);
    assert!(o.success());
    let text = &o.stdout;
    assert!(text.contains("g1f3"), "{text}");
    let o = common::cavalier(&["book", "e4", "Qxh7"]);
    assert_eq!(o.code, Some(2));
}

/// Lines cavalier's own search flags but a stronger engine has reviewed
/// and found level: they stay in the book, and only they may be flagged.
const REVIEWED_FALSE_ALARMS: [&str; 4] = [
    // Exchange Ruy Lopez, 6...Bg4 7.h3 h5: cavalier gives White +1.95 at
    // depth 6; Stockfish 15.1 at depth 22 gives +0.18.
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 c8g4 h2h3 h7h5 d2d3 d8f6 b1d2 g8e7 f1e1 e7g6",
    // Flagged since the network evaluates (build a818dec, 2026-12-01),
    // reviewed by Stockfish 15.1 at depth 22 (2 threads, Hash 256):
    // Scotch, 5...Qf6 6.c3 Nge7 7.Bc4 Ne5 8.Be2 Qg6 9.O-O d5: cavalier
    // +1.73, Stockfish +0.59.
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 f8c5 c1e3 d8f6 c2c3 g8e7 f1c4 c6e5 c4e2 f6g6 e1g1 d7d5",
    // Queen's Gambit Declined, 5.Bf4 ... 9.Qc2 Qa5 10.Rd1 Re8: cavalier
    // +1.99, Stockfish +0.56.
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 g1f3 f8e7 c1f4 e8g8 e2e3 c7c5 d4c5 e7c5 a2a3 b8c6 d1c2 d8a5 a1d1 f8e8",
    // Open Catalan, 8...Qxd4 9.Bxc6+ Bd7 10.Rd1 Qxd1+: cavalier +2.06,
    // Stockfish +0.96 (after 11.Qxd1).
    "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2 d5c4 g1f3 c7c5 e1g1 b8c6 d1a4 c5d4 f3d4 d8d4 g2c6 c8d7 f1d1 d4d1",
];

#[test]
#[ignore = "slow: searches the end position of every book line"]
fn every_book_line_ends_balanced() {
    let o = common::run(
        &["book", "--check", "--depth", "6"],
        None,
        std::time::Duration::from_secs(3600),
    );
    let text = &o.stdout;
    let unsound: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("unsound"))
        .filter(|l| !REVIEWED_FALSE_ALARMS.iter().any(|r| l.contains(r)))
        .collect();
    eprintln!("{}", text.lines().last().unwrap_or(""));
    assert!(text.contains("534 lines searched"), "{text}");
    assert!(unsound.is_empty(), "{unsound:#?}");
}

/// A move no book nor search of cavalier's would play from the start
/// position, checked as the test runs: not a move of the embedded book,
/// and not what the engine's own search plays there.
fn assert_odd_at_start(engine: &mut common::Engine, mv: &str) {
    let start = Board::startpos();
    let embedded: Vec<String> = Book::Text(cavalier::book::EMBEDDED.clone())
        .moves(&start)
        .iter()
        .map(|&(m, _)| to_uci(&start, m))
        .collect();
    assert!(
        !embedded.is_empty() && !embedded.iter().any(|m| m == mv),
        "{embedded:?}"
    );
    engine.send("position startpos");
    // `go depth` never answers from a book: this is the search's move.
    assert_ne!(engine.best_move("go depth 6"), mv);
}

/// The move the engine answers `go` on the clock with, from the book if
/// it has one; the `info string book move` line must name it.
fn book_move(engine: &mut common::Engine, position: &str) -> String {
    engine.send(position);
    engine.send("go wtime 10000 btime 10000");
    let lines = engine.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(
        lines.contains(&format!("info string book move {best}")),
        "{lines:?}"
    );
    best
}

/// Sets `BookFile`; returns the lines it answered with.
fn set_book_file(engine: &mut common::Engine, value: &str) -> Vec<String> {
    engine.send(&format!("setoption name BookFile value {value}"));
    engine.send("isready");
    let lines = engine.until("readyok");
    lines[..lines.len() - 1].to_vec()
}

/// A text book of one line of odd moves: its moves are played, not the
/// embedded book's nor the search's.
fn odd_text_book(tag: &str) -> String {
    let path = temp(&format!("odd-{tag}.book"));
    std::fs::write(&path, "# odd\nb1a3 g8h6 a3b1\n").unwrap();
    path.to_str().unwrap().to_string()
}

/// A Polyglot book of odd moves, from the start and after 1.g4.
fn odd_polyglot_book(tag: &str) -> String {
    let start = Board::startpos();
    let mut after = start.clone();
    after.make(parse_uci(&start, "g2g4").unwrap());
    let path = temp(&format!("odd-{tag}.bin"));
    std::fs::write(
        &path,
        write_entries(&[
            entry(&start, START_KEY, "g2g4", 1),
            entry(&after, key(&after), "h7h5", 1),
        ]),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_text_book_file_is_played_instead_of_the_embedded_book() {
    let book = odd_text_book("text");
    let mut e = common::Engine::start();
    assert_odd_at_start(&mut e, "b1a3");
    assert!(set_book_file(&mut e, &book).is_empty());
    assert_eq!(book_move(&mut e, "position startpos"), "b1a3");
    assert_eq!(book_move(&mut e, "position startpos moves b1a3"), "g8h6");
    assert_eq!(
        book_move(&mut e, "position startpos moves b1a3 g8h6"),
        "a3b1"
    );
}

#[test]
fn a_polyglot_book_file_is_played_instead_of_the_embedded_book() {
    let book = odd_polyglot_book("polyglot");
    let mut e = common::Engine::start();
    assert_odd_at_start(&mut e, "g2g4");
    assert!(set_book_file(&mut e, &book).is_empty());
    assert_eq!(book_move(&mut e, "position startpos"), "g2g4");
    assert_eq!(book_move(&mut e, "position startpos moves g2g4"), "h7h5");
}

/// Files that are no book, each refused at once with an error naming it:
/// a missing file, a folder, a device that never ends, a pipe no one
/// writes to (opening it would block), and a file larger than any book
/// (sparse: it takes no room).
fn bad_book_files(tag: &str) -> Vec<String> {
    let fifo = temp(&format!("pipe-{tag}.book"));
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {fifo:?}");
    let huge = temp(&format!("huge-{tag}.bin"));
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    [
        "/no/such/book.book".to_string(),
        std::env::temp_dir().to_str().unwrap().to_string(),
        "/dev/zero".to_string(),
        fifo.to_str().unwrap().to_string(),
        huge.to_str().unwrap().to_string(),
    ]
    .to_vec()
}

#[cfg(unix)]
#[test]
fn a_bad_book_file_is_refused_and_the_book_before_it_kept() {
    let bad = bad_book_files("kept");
    let books = [
        (odd_text_book("kept"), "b1a3"),
        (odd_polyglot_book("kept"), "g2g4"),
    ];
    for (book, first) in books {
        let mut e = common::Engine::start();
        e.ready();
        let said = set_book_file(&mut e, &book);
        assert!(said.is_empty(), "{said:?}");
        for path in &bad {
            let said = set_book_file(&mut e, path);
            assert!(
                said.iter()
                    .any(|l| l.starts_with("info string error: book ")
                        && l.contains(path.as_str())
                        && l.contains("cannot be read")),
                "{path}: {said:?}"
            );
            assert!(
                said.iter()
                    .any(|l| l.starts_with("info string error: no usable book")
                        && l.contains(&format!("keeping \"{book}\""))),
                "{path}: {said:?}"
            );
            assert_eq!(
                book_move(&mut e, "position startpos"),
                first,
                "after {path}"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn book_subcommand_refuses_a_bad_file() {
    for path in bad_book_files("subcommand") {
        let o = common::cavalier(&["book", "--file", &path]);
        assert_eq!(o.code, Some(2), "{path}: {o:?}");
        assert!(
            o.stderr
                .starts_with(&format!("error: book {path}: cannot be read")),
            "{path}: {}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{path}: {}", o.stdout);
    }
    let o = common::cavalier(&["book", "--file", &odd_text_book("subcommand")]);
    assert!(o.success(), "{}", o.stderr);
    assert!(o.stdout.contains("b1a3"), "{}", o.stdout);
}
