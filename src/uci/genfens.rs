//! `genfens N seed S book <None|FILE> [extra]`: opening positions for
//! distributed data generation (OpenBench's DATAGEN workloads start the
//! engine with this command and `quit` as its arguments and read the
//! `info string genfens FEN` lines it prints).
//!
//! Each position starts from the start position (a random Chess960 one
//! when `UCI_Chess960` is on) followed by `START_PLIES` or one more random
//! legal plies, or from a random line of the book file followed by
//! `BOOK_PLIES` or one more. A position is kept when it has legal moves,
//! its side to move is not in check, the game has not ended by the rules,
//! and a search of `CHECK_NODES` nodes scores it within `MAX_SCORE`
//! centipawns of equality. Everything depends only on the seed, the book
//! file and the evaluation (the same request prints the same lines).
//!
//! The book is indexed once (where each line starts, bounded in lines and
//! bytes) and its lines are read and parsed only when drawn, so a large
//! book costs little memory and no time per unused line.

use crate::chess::board::Board;
use crate::engine::nnue::Network;
use crate::engine::search::{SearchControl, SearchLimits, Searcher, MAX_DEPTH};
use crate::engine::tt::TranspositionTable;
use crate::util::rng::{derive_seed, Rng};
use crate::util::text::quote;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::Arc;

/// Most positions one command may ask for.
pub const MAX_COUNT: u64 = 1_000_000;
/// Random plies played from the start position: this many or one more,
/// so that either side may be to move.
const START_PLIES: u64 = 8;
/// Random plies played from a book position: this many or one more.
const BOOK_PLIES: u64 = 2;
/// Nodes of the search that judges a candidate.
const CHECK_NODES: u64 = 2_000;
/// A candidate scoring beyond this (cp, side to move's view) is drawn again.
pub const MAX_SCORE: i32 = 200;
/// Candidates tried for one position before the most balanced one seen is
/// taken.
const TRIES: usize = 500;
/// Most book lines indexed; the lines after are not used.
const MAX_BOOK_LINES: usize = 20_000_000;
/// Most book bytes read while indexing.
const MAX_BOOK_BYTES: u64 = 2 << 30;
/// Longest book line read; a longer one is not a position.
const MAX_BOOK_LINE: u64 = 1_024;
/// Hash table of the judging search (MB).
const CHECK_HASH_MB: usize = 1;

/// A parsed `genfens` command.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    /// The book file; `None` for `book None` or no `book`.
    pub book: Option<String>,
    /// Words after the known ones, which this engine does not use.
    pub ignored: Vec<String>,
}

/// Parses the words after `genfens`: `N [seed S] [book None|FILE] [extra]`.
pub fn parse_request(args: &[&str]) -> Result<Request, String> {
    let usage = "usage: genfens N seed S book <None|FILE>";
    let Some(count) = args.first() else {
        return Err(format!("genfens needs a count; {usage}"));
    };
    let count = match count.parse::<u64>() {
        Ok(n) if n <= MAX_COUNT => n,
        Ok(_) => return Err(format!("genfens count above {MAX_COUNT}")),
        Err(_) => {
            return Err(format!(
                "genfens count \"{}\" is not a whole number; {usage}",
                quote(count)
            ))
        }
    };
    let mut request = Request {
        count,
        seed: 0,
        book: None,
        ignored: Vec::new(),
    };
    let mut words = args[1..].iter();
    while let Some(&word) = words.next() {
        match word {
            "seed" => {
                let Some(value) = words.next() else {
                    return Err(format!("genfens seed needs a value; {usage}"));
                };
                request.seed = value.parse().map_err(|_| {
                    format!("genfens seed \"{}\" is not a whole number", quote(value))
                })?;
            }
            "book" => {
                let Some(value) = words.next() else {
                    return Err(format!("genfens book needs a file or None; {usage}"));
                };
                request.book = (!value.eq_ignore_ascii_case("none")).then(|| value.to_string());
            }
            other => request.ignored.push(other.to_string()),
        }
    }
    Ok(request)
}

/// A book file's lines, indexed by where they start.
pub struct BookFile {
    file: BufReader<std::fs::File>,
    starts: Vec<u64>,
}

impl BookFile {
    /// Indexes the lines of `path` (at most `MAX_BOOK_LINES` of them, in
    /// the first `MAX_BOOK_BYTES` bytes).
    pub fn open(path: &str) -> Result<BookFile, String> {
        let fail = |e: std::io::Error| format!("cannot read the book \"{}\": {e}", quote(path));
        // A FIFO would block the loop on opening: only regular files.
        crate::util::file::regular_file(path).map_err(|e| {
            let why = e.strip_prefix("cannot be read: ").unwrap_or(&e);
            format!("cannot read the book \"{}\": {why}", quote(path))
        })?;
        let file = std::fs::File::open(path).map_err(fail)?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut starts = Vec::new();
        let mut at = 0u64;
        let mut line_empty = true;
        while at < MAX_BOOK_BYTES && starts.len() < MAX_BOOK_LINES {
            let chunk = match reader.fill_buf() {
                Ok([]) => break,
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(fail(e)),
            };
            let len = chunk.len();
            for (i, &b) in chunk.iter().enumerate() {
                if b == b'\n' {
                    line_empty = true;
                } else if line_empty && !b.is_ascii_whitespace() {
                    // A line with something on it: indexed from its start
                    // (blank lines are never drawn).
                    line_empty = false;
                    starts.push(at + i as u64);
                    if starts.len() >= MAX_BOOK_LINES {
                        break;
                    }
                }
            }
            reader.consume(len);
            at += len as u64;
        }
        if starts.is_empty() {
            return Err(format!("the book \"{}\" holds no line", quote(path)));
        }
        if at >= MAX_BOOK_BYTES || starts.len() >= MAX_BOOK_LINES {
            log::warn!(
                "genfens: only the first {} lines of the book {path} are used",
                starts.len()
            );
        }
        Ok(BookFile {
            file: reader,
            starts,
        })
    }

    /// Lines indexed.
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The position of line `index`: a FEN, or an EPD's (with its `hmvc`
    /// and `fmvn` counters);
    /// `None` when the line is neither (a comment, a bad FEN, too long).
    pub fn position(&mut self, index: usize) -> Option<Board> {
        let start = *self.starts.get(index)?;
        self.file.seek(SeekFrom::Start(start)).ok()?;
        let mut bytes = Vec::new();
        (&mut self.file)
            .take(MAX_BOOK_LINE)
            .read_until(b'\n', &mut bytes)
            .ok()?;
        if bytes.last() != Some(&b'\n') && bytes.len() as u64 >= MAX_BOOK_LINE {
            return None;
        }
        let text = std::str::from_utf8(&bytes).ok()?.trim();
        if text.starts_with('#') {
            return None;
        }
        Board::from_fen(text).ok().or_else(|| epd_position(text))
    }
}

/// An EPD line's position: its four fields, with the move counters of its
/// `hmvc` and `fmvn` operations when it has them.
fn epd_position(text: &str) -> Option<Board> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (fields, ops) = words.split_at_checked(4)?;
    let op = |name: &str, default: u32| {
        ops.iter()
            .position(|w| *w == name)
            .and_then(|i| ops.get(i + 1))
            .and_then(|v| v.trim_end_matches(';').parse::<u32>().ok())
            .unwrap_or(default)
    };
    let fen = format!("{} {} {}", fields.join(" "), op("hmvc", 0), op("fmvn", 1));
    Board::from_fen(&fen).ok()
}

/// Draws positions as the module's comment says.
pub struct Generator {
    rng: Rng,
    book: Option<BookFile>,
    chess960: bool,
    searcher: Searcher,
    tt: TranspositionTable,
    limits: SearchLimits,
}

impl Generator {
    /// A generator seeded with `seed`, drawing from `book` (else the start
    /// position, or the Chess960 ones when `chess960`), judging with
    /// `network` (`None`: the hand-written evaluation).
    pub fn new(
        seed: u64,
        book: Option<BookFile>,
        chess960: bool,
        network: Option<Arc<Network>>,
    ) -> Generator {
        Generator {
            rng: Rng::new(derive_seed(seed, 0)),
            book,
            chess960,
            searcher: Searcher::new(),
            tt: TranspositionTable::new(CHECK_HASH_MB),
            limits: SearchLimits {
                max_depth: MAX_DEPTH,
                max_nodes: CHECK_NODES,
                network,
                ..SearchLimits::default()
            },
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n.max(1)
    }

    /// A random candidate, or `None` when the draw led nowhere playable.
    fn candidate(&mut self) -> Option<Board> {
        let (mut board, plies) = match self.book.as_ref().map(BookFile::lines) {
            Some(lines) => {
                let index = self.below(lines as u64) as usize;
                let board = self.book.as_mut()?.position(index)?;
                (board, BOOK_PLIES)
            }
            None if self.chess960 => {
                let n = self.below(960) as usize;
                (Board::chess960_start(n)?, START_PLIES)
            }
            None => (Board::startpos(), START_PLIES),
        };
        if self.chess960 || board.is_chess960() {
            board.set_chess960(true);
        }
        for _ in 0..plies + self.below(2) {
            let moves = board.legal_moves();
            if moves.is_empty() {
                return None;
            }
            let mv = moves[self.below(moves.len() as u64) as usize];
            board.make(mv);
        }
        (!board.in_check() && board.outcome().is_none()).then_some(board)
    }

    /// The score (cp, side to move's view) of a short search of `board`.
    fn judge(&mut self, board: &mut Board) -> i32 {
        self.searcher.clear();
        self.tt.clear();
        let ctl = SearchControl::new(false);
        self.searcher
            .think(board, &self.limits, &ctl, &self.tt, &mut |_| {})
            .score
    }

    /// The next position: the first candidate judged within `MAX_SCORE`,
    /// else the most balanced of `TRIES` candidates; an error when none
    /// of them was playable (a book of ended games, say).
    pub fn next_position(&mut self) -> Result<Board, String> {
        let mut best: Option<(i32, Board)> = None;
        for _ in 0..TRIES {
            let Some(mut board) = self.candidate() else {
                continue;
            };
            let score = self.judge(&mut board).abs();
            if score <= MAX_SCORE {
                return Ok(board);
            }
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, board));
            }
        }
        best.map(|(_, board)| board).ok_or_else(|| {
            format!("genfens found no playable position in {TRIES} tries (is the book valid?)")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fens(seed: u64, count: usize, book: Option<BookFile>) -> Vec<String> {
        let mut g = Generator::new(seed, book, false, None);
        (0..count)
            .map(|_| g.next_position().unwrap().to_fen())
            .collect()
    }

    #[test]
    fn requests_parse_as_openbench_writes_them() {
        let r = parse_request(&["16", "seed", "2147483647", "book", "None"]).unwrap();
        assert_eq!(
            r,
            Request {
                count: 16,
                seed: 2_147_483_647,
                book: None,
                ignored: Vec::new()
            }
        );
        let r = parse_request(&["3", "seed", "1", "book", "Books/x.epd", "depth", "9"]).unwrap();
        assert_eq!(r.book.as_deref(), Some("Books/x.epd"));
        assert_eq!(r.ignored, ["depth", "9"]);
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        for (args, needle) in [
            (&[][..], "needs a count"),
            (&["x"][..], "not a whole number"),
            (&["-1"][..], "not a whole number"),
            (&["1000000000000"][..], "above"),
            (&["5", "seed"][..], "seed needs a value"),
            (&["5", "seed", "abc"][..], "not a whole number"),
            (&["5", "seed", "1", "book"][..], "book needs"),
        ] {
            let e = parse_request(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }

    /// Legal, playable, not in check, judged balanced by a deeper look
    /// too (most of them), reproducible and seed-dependent.
    #[test]
    fn positions_are_playable_reproducible_and_seeded() {
        let a = fens(5, 12, None);
        assert_eq!(a, fens(5, 12, None));
        assert_ne!(a, fens(6, 12, None));
        // Seeds differing in the lowest bit differ too.
        assert_ne!(a, fens(4, 12, None));
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert!(distinct.len() >= 11, "{a:?}");
        for fen in &a {
            let b = Board::from_fen(fen).unwrap();
            assert!(b.has_legal_move() && !b.in_check(), "{fen}");
            let plies = 2 * (b.fullmove_number() as usize - 1)
                + (b.side_to_move() == crate::chess::types::Color::Black) as usize;
            assert!((8..=9).contains(&plies), "{fen}: {plies} plies");
        }
        // A search ten times longer than the judging one finds most of
        // them within a pawn and a half of the threshold.
        let mut g = Generator::new(0, None, false, None);
        g.limits.max_nodes = 10 * CHECK_NODES;
        let balanced = a
            .iter()
            .filter(|fen| {
                let mut b = Board::from_fen(fen).unwrap();
                g.judge(&mut b).abs() <= MAX_SCORE + 150
            })
            .count();
        assert!(balanced >= 10, "{balanced} of {} balanced", a.len());
    }

    #[test]
    fn book_lines_are_read_as_fen_or_epd_and_bad_ones_skipped() {
        let dir = std::env::temp_dir().join(format!("cavalier-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.epd");
        let text = "# a comment\n\n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n\
            not a fen at all\r\n\
            rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - hmvc 1; fmvn 2; c0 \"x\";\r\n";
        std::fs::write(&path, text).unwrap();
        let mut book = BookFile::open(path.to_str().unwrap()).unwrap();
        assert_eq!(book.lines(), 4);
        assert!(book.position(0).is_none());
        assert!(book.position(1).is_some());
        assert!(book.position(2).is_none());
        assert_eq!(
            book.position(3).map(|b| b.to_fen()),
            Some("rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2".to_string())
        );
        let drawn = fens(3, 6, Some(book));
        for fen in &drawn {
            let b = Board::from_fen(fen).unwrap();
            // Two or three plies after one of the two positions.
            assert!(b.fullmove_number() >= 2, "{fen}");
        }
        assert!(BookFile::open(dir.join("missing.epd").to_str().unwrap()).is_err());
        let e = BookFile::open(dir.to_str().unwrap()).err().unwrap();
        assert!(e.contains("not a regular file"), "{e}");
        std::fs::write(dir.join("blank.epd"), "\n  \n").unwrap();
        let e = BookFile::open(dir.join("blank.epd").to_str().unwrap())
            .err()
            .unwrap();
        assert!(e.contains("holds no line"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn chess960_positions_start_from_the_960_starts() {
        let mut g = Generator::new(9, None, true, None);
        let fens: Vec<String> = (0..8)
            .map(|_| g.next_position().unwrap().to_fen())
            .collect();
        for fen in &fens {
            let b = Board::from_fen(fen).unwrap();
            assert!(b.has_legal_move(), "{fen}");
        }
        // Drawn from the Chess960 starts, not the standard one.
        let standard: Vec<String> = {
            let mut g = Generator::new(9, None, false, None);
            (0..8)
                .map(|_| g.next_position().unwrap().to_fen())
                .collect()
        };
        let shared = fens.iter().filter(|f| standard.contains(f)).count();
        assert!(shared < 2, "{fens:?}");
    }
}
