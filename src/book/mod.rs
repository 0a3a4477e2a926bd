//! The opening book: the seed's text format (one variation per line of
//! concatenated coordinate moves), indexed by position, plus Polyglot
//! `.bin` books.
//!
//! A text book is replayed once when loaded: every move is checked legal
//! and counted under the Zobrist key of the position it is played from, so
//! transpositions meet and a move's weight is the number of lines that
//! play it there. The default book is compiled into the binary.

pub mod keys;
pub mod polyglot;

use crate::book::polyglot::PolyglotBook;
use crate::chess::board::Board;
use crate::chess::notation::parse_uci;
use crate::chess::types::Move;
use crate::util::rng::Rng;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::fmt;

/// The text of the book in `book/cavalier.book`, built into the binary.
pub const EMBEDDED_TEXT: &str = include_str!("../../book/cavalier.book");
/// Name the embedded book goes by in messages.
pub const EMBEDDED_NAME: &str = "<embedded cavalier.book>";

/// A problem in a book: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub file: String,
    /// 1-based line of a text book, or byte offset of a `.bin` book.
    pub at: String,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "book {}: {}", self.file, self.message)
        } else {
            write!(f, "book {} {}: {}", self.file, self.at, self.message)
        }
    }
}

/// A book indexed by position key.
#[derive(Clone, Debug, Default)]
pub struct TextBook {
    /// Position key -> (move bits, number of lines playing it).
    index: HashMap<u64, Vec<(u32, u32)>>,
    lines: Vec<Vec<Move>>,
}

/// Splits one book line into coordinate move texts. Comments start with
/// `#`; spaces between moves are optional. A promotion letter is told
/// apart from the file letter of the next move by what follows it: a move
/// always goes on with a rank digit.
pub fn split_moves(line: &str) -> Result<Vec<String>, String> {
    let text: Vec<u8> = line
        .split('#')
        .next()
        .unwrap_or("")
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if i + 4 > text.len() {
            return Err(format!(
                "incomplete move \"{}\"",
                String::from_utf8_lossy(&text[i..])
            ));
        }
        let mut end = i + 4;
        if let Some(&c) = text.get(end) {
            let next_is_digit = text.get(end + 1).is_some_and(|d| d.is_ascii_digit());
            if matches!(c, b'q' | b'r' | b'b' | b'n') && !next_is_digit {
                end += 1;
            }
        }
        moves.push(String::from_utf8_lossy(&text[i..end]).into_owned());
        i = end;
    }
    Ok(moves)
}

impl TextBook {
    /// Parses a text book. Lines with an error are reported and skipped
    /// from the first bad move on (the moves before it still count).
    pub fn parse(text: &str, file: &str) -> (TextBook, Vec<BookError>) {
        let mut book = TextBook::default();
        let mut errors = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let err = |message: String| BookError {
                file: file.to_string(),
                at: format!("line {}", n + 1),
                message,
            };
            let texts = match split_moves(line) {
                Ok(t) => t,
                Err(e) => {
                    errors.push(err(e));
                    continue;
                }
            };
            if texts.is_empty() {
                continue;
            }
            let mut board = Board::startpos();
            let mut played = Vec::with_capacity(texts.len());
            for (i, t) in texts.iter().enumerate() {
                match parse_uci(&board, t) {
                    Ok(mv) => {
                        let entry = book.index.entry(board.hash()).or_default();
                        match entry.iter_mut().find(|(m, _)| *m == mv.bits()) {
                            Some((_, w)) => *w += 1,
                            None => entry.push((mv.bits(), 1)),
                        }
                        played.push(mv);
                        board.make(mv);
                    }
                    Err(e) => {
                        errors.push(err(format!("move {} ({e})", i + 1)));
                        break;
                    }
                }
            }
            book.lines.push(played);
        }
        (book, errors)
    }

    /// Number of variations read.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The variations, as played.
    pub fn lines(&self) -> &[Vec<Move>] {
        &self.lines
    }

    /// Number of distinct positions with a book move.
    pub fn position_count(&self) -> usize {
        self.index.len()
    }

    /// The book moves of `board` that are legal, with their weights.
    pub fn moves(&self, board: &Board) -> Vec<(Move, u32)> {
        let Some(entries) = self.index.get(&board.hash()) else {
            return Vec::new();
        };
        entries
            .iter()
            .map(|&(bits, w)| (Move::from_bits(bits), w))
            .filter(|&(m, _)| board.is_legal(m))
            .collect()
    }
}

/// A loaded book of either kind.
#[derive(Clone, Debug)]
pub enum Book {
    Text(TextBook),
    Polyglot(PolyglotBook),
}

/// The embedded book, parsed on first use.
pub static EMBEDDED: Lazy<TextBook> = Lazy::new(|| TextBook::parse(EMBEDDED_TEXT, EMBEDDED_NAME).0);

impl Book {
    /// Loads a book file: `.bin` as Polyglot, anything else as text.
    /// Returns the book (if anything usable was read) and the problems.
    pub fn load(path: &str) -> (Option<Book>, Vec<BookError>) {
        let err = |at: &str, message: String| BookError {
            file: path.to_string(),
            at: at.to_string(),
            message,
        };
        let bytes = match crate::util::read_bounded(path, MAX_BOOK_BYTES) {
            Ok(b) => b,
            Err(e) => return (None, vec![err("", e)]),
        };
        if path.to_ascii_lowercase().ends_with(".bin") {
            let (book, warning) = PolyglotBook::parse(&bytes);
            let errors = warning.into_iter().map(|w| err("", w)).collect();
            let book = (!book.is_empty()).then_some(Book::Polyglot(book));
            return (book, errors);
        }
        let text = String::from_utf8_lossy(&bytes);
        let (book, errors) = TextBook::parse(&text, path);
        let book = (book.position_count() > 0).then_some(Book::Text(book));
        (book, errors)
    }

    /// Legal book moves and weights in `board`, heaviest first.
    pub fn moves(&self, board: &Board) -> Vec<(Move, u32)> {
        let mut m = match self {
            Book::Text(b) => b.moves(board),
            Book::Polyglot(b) => b.moves(board),
        };
        m.retain(|&(_, w)| w > 0);
        m.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        m
    }

    /// A book move chosen at random, weighted; `None` out of book.
    pub fn pick(&self, board: &Board, rng: &mut Rng) -> Option<Move> {
        pick_weighted(&self.moves(board), rng)
    }
}

/// Most bytes a book file may hold: 64 M Polyglot entries of 16 bytes,
/// beyond the largest books in use (a few hundred MB).
const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Weighted random choice.
pub fn pick_weighted(moves: &[(Move, u32)], rng: &mut Rng) -> Option<Move> {
    let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum();
    if total == 0 {
        return None;
    }
    let mut r = rng.next_u64() % total;
    for &(m, w) in moves {
        if r < w as u64 {
            return Some(m);
        }
        r -= w as u64;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::to_uci;

    #[test]
    fn splitting() {
        assert_eq!(
            split_moves("e2e4e7e5g1f3").unwrap(),
            ["e2e4", "e7e5", "g1f3"]
        );
        assert_eq!(
            split_moves(" e2e4 e7e5 # comment e2e4").unwrap(),
            ["e2e4", "e7e5"]
        );
        assert_eq!(split_moves("a7a8qb1c3").unwrap(), ["a7a8q", "b1c3"]);
        assert_eq!(split_moves("a7a8b1c3").unwrap(), ["a7a8", "b1c3"]);
        assert_eq!(split_moves("a7a8bb1c3").unwrap(), ["a7a8b", "b1c3"]);
        assert_eq!(split_moves("a7a8n").unwrap(), ["a7a8n"]);
        assert!(split_moves("# only a comment").unwrap().is_empty());
        assert!(split_moves("e2e4e7").is_err());
    }

    #[test]
    fn transpositions_meet() {
        let text = "d2d4 g8f6 c2c4 e7e6\nc2c4 e7e6 d2d4 g8f6 b1c3\nc2c4 g8f6 d2d4 e7e6 g1f3\n";
        let (book, errors) = TextBook::parse(text, "t");
        assert!(errors.is_empty());
        // After 1.d4 Nf6 2.c4 e6 (any order) both continuations are known.
        let mut b = Board::startpos();
        for t in ["c2c4", "g8f6", "d2d4", "e7e6"] {
            b.make(parse_uci(&b, t).unwrap());
        }
        let mut found: Vec<String> = book.moves(&b).iter().map(|&(m, _)| to_uci(&b, m)).collect();
        found.sort();
        assert_eq!(found, ["b1c3", "g1f3"]);
        // Weights count lines: 1.c4 is played by two lines.
        let start = Book::Text(book);
        let w: Vec<(String, u32)> = start
            .moves(&Board::startpos())
            .iter()
            .map(|&(m, w)| (to_uci(&Board::startpos(), m), w))
            .collect();
        assert_eq!(w, [("c2c4".to_string(), 2), ("d2d4".to_string(), 1)]);
    }

    #[test]
    fn bad_lines_are_reported_and_skipped() {
        let text = "e2e4 e7e5\n\ne2e4 e7e6 e1e3\nzz\n";
        let (book, errors) = TextBook::parse(text, "mine.book");
        assert_eq!(errors.len(), 2);
        assert!(errors[0]
            .to_string()
            .contains("mine.book line 3: move 3 (illegal move \"e1e3\")"));
        assert!(errors[1].to_string().contains("line 4"));
        assert_eq!(book.line_count(), 2);
    }

    #[test]
    fn weighted_choice_follows_weights() {
        let b = Board::startpos();
        let moves: Vec<(Move, u32)> = b
            .legal_moves()
            .iter()
            .take(2)
            .copied()
            .zip([3, 1])
            .collect();
        let mut rng = Rng::new(7);
        let mut first = 0;
        for _ in 0..4000 {
            if pick_weighted(&moves, &mut rng) == Some(moves[0].0) {
                first += 1;
            }
        }
        assert!((2800..3200).contains(&first), "{first}");
    }

    #[test]
    fn embedded_book_is_large_sound_and_legal() {
        let (book, errors) = TextBook::parse(EMBEDDED_TEXT, EMBEDDED_NAME);
        assert!(
            errors.is_empty(),
            "{:?}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        );
        assert!(book.line_count() >= 400, "{} lines", book.line_count());
        for line in book.lines() {
            assert!(
                (10..=20).contains(&line.len()),
                "a line of {} plies",
                line.len()
            );
        }
        let distinct: std::collections::HashSet<&Vec<Move>> = book.lines().iter().collect();
        assert_eq!(distinct.len(), book.line_count(), "duplicate lines");
        // The check bites: 3.Qxf7+?? Kxf7 leaves White a queen for a pawn.
        let (blunder, _) = TextBook::parse("e2e4 e7e5 d1h5 b8c6 h5f7 e8f7\n", "blunder");
        assert_eq!(unsound_lines(&blunder).len(), 1);
        let unsound = unsound_lines(&book);
        assert!(
            unsound.is_empty(),
            "{} lines end more than {SOUND_WINDOW_CP} cp from level at depth {SOUND_CHECK_DEPTH}:\n{}",
            unsound.len(),
            unsound.join("\n")
        );
        assert!(!Book::Text(book).moves(&Board::startpos()).is_empty());
    }

    /// Soundness bar of the embedded book test: no line may end with either
    /// side more than a minor piece (about 300 cp) behind, which is what a
    /// dropped piece or a mistyped move looks like. `cavalier book --check`
    /// holds the book to a stricter 150 cp at depth 7 and is the tool for
    /// finer review; this test keeps the bar that no eval retuning can make
    /// flaky.
    const SOUND_WINDOW_CP: i32 = 300;
    /// Depth of the search that scores each line's end: quiescence resolves
    /// pending captures, and all the lines take about half a second.
    const SOUND_CHECK_DEPTH: i32 = 4;
    /// Transposition table of each line's search: small and new per line, so
    /// every score is independent of the lines before it.
    const SOUND_CHECK_HASH_MB: usize = 1;

    /// Lines whose end position a shallow search scores outside
    /// +-[`SOUND_WINDOW_CP`], each as "line N: score moves".
    fn unsound_lines(book: &TextBook) -> Vec<String> {
        use crate::engine::search::{SearchControl, SearchLimits, Searcher};
        use crate::engine::tt::TranspositionTable;
        let mut unsound = Vec::new();
        for (index, line) in book.lines().iter().enumerate() {
            let mut board = Board::startpos();
            let mut shown = Vec::new();
            for &mv in line {
                shown.push(to_uci(&board, mv));
                board.make(mv);
            }
            let tt = TranspositionTable::new(SOUND_CHECK_HASH_MB);
            let result = Searcher::new().think(
                &mut board,
                &SearchLimits::depth(SOUND_CHECK_DEPTH),
                &SearchControl::new(false),
                &tt,
                &mut |_| {},
            );
            if result.score.abs() > SOUND_WINDOW_CP {
                unsound.push(format!(
                    "line {}: {} cp for the side to move after {}",
                    index + 1,
                    result.score,
                    shown.join(" ")
                ));
            }
        }
        unsound
    }
}
