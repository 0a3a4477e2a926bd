//! FEN in and out.
//!
//! Parsing builds the position on a scratch board and returns it only when
//! every field is well formed and the position is possible, so a caller's
//! position is never touched by a bad FEN. Castling accepts the classic
//! `KQkq`, X-FEN (`K`/`Q` for the outermost rook, a file letter for an inner
//! one) and Shredder-FEN (`HAha`).

use crate::chess::board::{castle_index, Board, MAX_OF_KIND, MAX_PIECES};
use crate::chess::types::*;
use crate::util::text::quote;
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Longest halfmove clock accepted (far past any draw claim).
const MAX_HALFMOVE: u32 = 10_000;
/// Longest fullmove number accepted.
const MAX_FULLMOVE: u32 = 60_000;

/// Why a FEN was refused. Each message names the field and the bad value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than four fields, or more than six.
    FieldCount(usize),
    Placement(String, &'static str),
    SideToMove(String),
    Castling(String, &'static str),
    EnPassant(String, &'static str),
    HalfmoveClock(String),
    FullmoveNumber(String),
    /// Well formed, but not a position that can occur.
    Impossible(&'static str),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => {
                write!(f, "bad FEN: expected 4 to 6 fields, found {n}")
            }
            FenError::Placement(v, why) => write!(f, "bad piece placement \"{v}\": {why}"),
            FenError::SideToMove(v) => {
                write!(f, "bad side to move \"{v}\": expected \"w\" or \"b\"")
            }
            FenError::Castling(v, why) => write!(f, "bad castling field \"{v}\": {why}"),
            FenError::EnPassant(v, why) => write!(f, "bad en-passant field \"{v}\": {why}"),
            FenError::HalfmoveClock(v) => write!(
                f,
                "bad halfmove clock \"{v}\": expected a whole number 0..={MAX_HALFMOVE}"
            ),
            FenError::FullmoveNumber(v) => write!(
                f,
                "bad fullmove number \"{v}\": expected a whole number 1..={MAX_FULLMOVE}"
            ),
            FenError::Impossible(why) => write!(f, "impossible position: {why}"),
        }
    }
}

impl std::error::Error for FenError {}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("start position FEN is valid")
    }

    /// Chess960 start position number `n` (0..960, Scharnagl's numbering;
    /// 518 is the standard start), castling rights in Shredder-FEN form.
    /// `None` for `n` out of range.
    pub fn chess960_start(n: usize) -> Option<Board> {
        if n >= 960 {
            return None;
        }
        let mut rank = [b' '; 8];
        // Light-squared bishop on b/d/f/h, dark-squared on a/c/e/g.
        rank[2 * (n % 4) + 1] = b'b';
        rank[2 * (n / 4 % 4)] = b'b';
        let mut place = |piece: u8, mut skip: usize| {
            for cell in rank.iter_mut().filter(|c| **c == b' ') {
                if skip == 0 {
                    *cell = piece;
                    return;
                }
                skip -= 1;
            }
        };
        place(b'q', n / 16 % 6);
        // The ten ways to put two knights on the five squares left.
        const KNIGHTS: [(usize, usize); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let (k1, k2) = KNIGHTS[n / 96];
        // The second knight's index counts the squares left after the first.
        place(b'n', k2);
        place(b'n', k1);
        place(b'r', 0);
        place(b'k', 0);
        place(b'r', 0);
        let black = String::from_utf8(rank.to_vec()).expect("ascii");
        let files: Vec<usize> = (0..8).filter(|&f| rank[f] == b'r').collect();
        let letter = |f: usize, up: bool| {
            let c = (b'a' + f as u8) as char;
            if up {
                c.to_ascii_uppercase()
            } else {
                c
            }
        };
        let fen = format!(
            "{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{}{}{} - 0 1",
            black.to_ascii_uppercase(),
            letter(files[1], true),
            letter(files[0], true),
            letter(files[1], false),
            letter(files[0], false),
        );
        let mut board = Board::from_fen(&fen).ok()?;
        board.chess960 = true;
        Some(board)
    }

    /// The position named by the FEN words of a command line: `None` when
    /// no word was given (the caller's default, usually the start
    /// position), an error when words were given but all are blank (`""`,
    /// an unset shell variable: reading that as the start position would
    /// hide the mistake), else the FEN the words make.
    pub fn from_fen_words(words: &[String]) -> Result<Option<Board>, String> {
        if words.is_empty() {
            return Ok(None);
        }
        let text = words.join(" ");
        if text.trim().is_empty() {
            return Err("the FEN is blank".to_string());
        }
        Board::from_fen(&text).map(Some).map_err(|e| e.to_string())
    }

    /// Parses a FEN (four to six fields).
    pub fn from_fen(text: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().take(7).collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut b = Board::empty();
        parse_placement(&mut b, fields[0])?;
        b.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(quote(other))),
        };
        parse_castling(&mut b, fields[2])?;
        parse_ep(&mut b, fields[3])?;
        if let Some(v) = fields.get(4) {
            b.halfmove = match v.parse::<u32>() {
                Ok(n) if n <= MAX_HALFMOVE => n as u16,
                _ => return Err(FenError::HalfmoveClock(quote(v))),
            };
        }
        if let Some(v) = fields.get(5) {
            b.fullmove = match v.parse::<u32>() {
                // Many tools write 0 here; read it as the first move.
                Ok(n) if n <= MAX_FULLMOVE => n.max(1) as u16,
                _ => return Err(FenError::FullmoveNumber(quote(v))),
            };
        }
        if b.king_attacked(b.side.flip()) {
            return Err(FenError::Impossible("the side not to move is in check"));
        }
        b.rebuild_castle_mask();
        b.finish_setup();
        debug_assert!(b.is_consistent());
        Ok(b)
    }

    /// The position as FEN. Castling is written `KQkq` style when each
    /// castling rook is the outermost one, and by file letter otherwise.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.cells[Square::from_coords(file, rank)];
                if p == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(piece_char(p));
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut castling = String::new();
        for color in [Color::White, Color::Black] {
            for king_side in [true, false] {
                let r = castle_index(color, king_side);
                if self.castling & (1 << r) == 0 {
                    continue;
                }
                let rook = self.castle_rook[r];
                let letter = if self.outermost_rook(color, king_side) == Some(rook) {
                    if king_side {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    (b'a' + rook.file() as u8) as char
                };
                castling.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        out.push_str(&castling);
        out.push(' ');
        match self.ep_square() {
            Some(s) => out.push_str(&square_name(s)),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    /// The rook of `color` furthest from its king on one side of it, on the
    /// back rank.
    fn outermost_rook(&self, color: Color, king_side: bool) -> Option<Square> {
        let rank = color.back_rank();
        let rook = color.piece(ROOK);
        let king = self.king_square(color);
        if king.rank() != rank {
            return None;
        }
        let files: Vec<usize> = if king_side {
            ((king.file() + 1)..8).rev().collect()
        } else {
            (0..king.file()).collect()
        };
        files
            .into_iter()
            .map(|f| Square::from_coords(f, rank))
            .find(|&s| self.cells[s] == rook)
    }
}

fn parse_placement(b: &mut Board, field: &str) -> Result<(), FenError> {
    let err = |why| Err(FenError::Placement(quote(field), why));
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return err("expected 8 ranks separated by '/'");
    }
    let mut counts = [0usize; 2];
    let mut pawns = [0usize; 2];
    let mut kings = [0usize; 2];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return err("empty-square counts run from 1 to 8");
                }
                file += d as usize;
                if file > 8 {
                    return err("a rank holds more than 8 squares");
                }
                continue;
            }
            let Some(piece) = piece_from_char(c) else {
                return err("unknown piece letter");
            };
            if file >= 8 {
                return err("a rank holds more than 8 squares");
            }
            let color = if piece > 0 {
                Color::White
            } else {
                Color::Black
            };
            let ci = color.index();
            counts[ci] += 1;
            match kind_of(piece) {
                PAWN => {
                    if rank == 0 || rank == 7 {
                        return Err(FenError::Impossible("a pawn on the first or last rank"));
                    }
                    pawns[ci] += 1;
                }
                KING => kings[ci] += 1,
                _ => {}
            }
            if counts[ci] > MAX_PIECES || b.count(color, kind_of(piece)) as usize >= MAX_OF_KIND {
                return Err(FenError::Impossible("a side has more than 16 pieces"));
            }
            b.put(piece, Square::from_coords(file, rank));
            file += 1;
        }
        if file != 8 {
            return err("a rank holds fewer than 8 squares");
        }
    }
    if kings != [1, 1] {
        return Err(FenError::Impossible("each side needs exactly one king"));
    }
    if pawns[0] > 8 || pawns[1] > 8 {
        return Err(FenError::Impossible("a side has more than 8 pawns"));
    }
    // Pieces beyond the starting set must come from promoted pawns.
    for color in [Color::White, Color::Black] {
        let extra = |kind: Piece, start: u32| b.count(color, kind).saturating_sub(start);
        let promoted = extra(QUEEN, 1) + extra(ROOK, 2) + extra(BISHOP, 2) + extra(KNIGHT, 2);
        if promoted + b.count(color, PAWN) > 8 {
            return Err(FenError::Impossible(
                "more promoted pieces than missing pawns",
            ));
        }
    }
    Ok(())
}

fn parse_castling(b: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |why| Err(FenError::Castling(quote(field), why));
    if field.is_empty() || field.len() > 4 {
        return err("expected '-' or up to four of KQkq or rook files");
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let king = b.king_square(color);
        if king.rank() != rank {
            return err("castling right for a king not on its back rank");
        }
        let rook_sq = match c.to_ascii_lowercase() {
            'k' => b.outermost_rook(color, true),
            'q' => b.outermost_rook(color, false),
            f @ 'a'..='h' => Some(Square::from_coords(f as usize - 'a' as usize, rank)),
            _ => return err("unknown castling letter"),
        };
        let Some(rook_sq) = rook_sq else {
            return err("no rook for that castling right");
        };
        if b.cells[rook_sq] != color.piece(ROOK) {
            return err("no rook on the castling rook's square");
        }
        if rook_sq == king {
            return err("the king's own square");
        }
        let king_side = rook_sq > king;
        let r = castle_index(color, king_side);
        if b.castling & (1 << r) != 0 {
            return err("the same castling right twice");
        }
        b.castling |= 1 << r;
        b.castle_rook[r] = rook_sq;
    }
    // Anything but the classic king e-file / corner rooks is Chess960.
    let classic = (0..4).all(|r| {
        b.castling & (1 << r) == 0 || {
            let color = if r < 2 { Color::White } else { Color::Black };
            let king_side = r % 2 == 0;
            b.king_square(color).file() == 4
                && b.castle_rook[r].file() == if king_side { 7 } else { 0 }
        }
    });
    if !classic {
        b.chess960 = true;
    }
    Ok(())
}

fn parse_ep(b: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |why| Err(FenError::EnPassant(quote(field), why));
    let Some(target) = parse_square(field) else {
        return err("expected '-' or a square");
    };
    let us = b.side;
    let them = us.flip();
    // The target lies behind a pawn of `them` that just advanced two.
    let expected_rank = if us == Color::White { 5 } else { 2 };
    if target.rank() != expected_rank {
        return err("not on the rank a double push passes for this side to move");
    }
    let pawn_sq = target.offset(-us.forward());
    let origin = target.offset(us.forward());
    if b.cells[pawn_sq] != them.piece(PAWN) {
        return err("no pawn that has just advanced two squares");
    }
    if b.cells[target] != EMPTY || b.cells[origin] != EMPTY {
        return err("the squares the pawn passed are not empty");
    }
    // Kept only when a capture is possible, so that equal positions get
    // equal keys.
    if b.ep_capturable(target) {
        b.ep = target;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn chess960_start_positions() {
        use crate::chess::types::Color;
        let standard = Board::chess960_start(518).unwrap();
        assert_eq!(
            standard.to_fen().split(' ').next(),
            super::START_FEN.split(' ').next()
        );
        let first = Board::chess960_start(0).unwrap();
        assert!(first
            .to_fen()
            .starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"));
        assert_eq!(
            Board::chess960_start(959)
                .unwrap()
                .to_fen()
                .split(' ')
                .next(),
            Some("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB")
        );
        assert!(Board::chess960_start(960).is_none());
        // Back ranks as python-chess's `Board.from_chess960_pos` gives them.
        for (n, rank) in [
            (1, "bqnbnrkr"),
            (100, "qbbnrnkr"),
            (333, "nrqbkrbn"),
            (777, "qrkbbnrn"),
        ] {
            let fen = Board::chess960_start(n).unwrap().to_fen();
            assert!(fen.starts_with(&format!("{rank}/")), "{n}: {fen}");
        }
        // All 960 differ, with the king between its rooks, all four
        // castling rights and a legal move.
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let b = Board::chess960_start(n).unwrap();
            assert!(b.is_chess960());
            assert!(b.has_legal_move());
            let king = b.king_square(Color::White);
            let rooks: Vec<_> = (0..8)
                .filter(|&f| b.to_fen().as_bytes()[f] == b'r')
                .collect();
            let kf = king.file();
            assert!(rooks[0] < kf && kf < rooks[1], "{n}");
            assert!(seen.insert(b.to_fen()), "{n}");
        }
    }

    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let out = b.to_fen();
            let again = Board::from_fen(&out).unwrap();
            assert_eq!(out, again.to_fen());
            assert!(b == again);
        }
        // Shredder letters read as the outermost rook come out as KQkq.
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
        assert_eq!(b.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(!b.is_chess960());
    }

    #[test]
    fn four_fields_accepted() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!(b.halfmove_clock(), 0);
        assert_eq!(b.fullmove_number(), 1);
    }

    #[test]
    fn errors_name_the_field_and_value() {
        let cases = [
            ("", "expected 4 to 6 fields"),
            ("8/8/8/8/8/8/8/8 w - - 0 1", "exactly one king"),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move \"x\""),
            ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "castling field \"KQ\""),
            ("4k3/8/8/8/8/8/8/4K2R w Kx - 0 1", "castling field \"Kx\""),
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en-passant field \"e3\""),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock \"-1\""),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 x", "fullmove number \"x\""),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
                "4 to 6 fields, found 7",
            ),
            ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"),
            (
                "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",
                "side not to move is in check",
            ),
            ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", "from 1 to 8"),
            ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", "8 ranks"),
            ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "more than 8 squares"),
            ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "fewer than 8"),
            ("4kx2/8/8/8/8/8/8/4K3 w - - 0 1", "unknown piece letter"),
            ("4k3/8/8/8/8/8/8/4K3 w é - 0 1", "castling field \"é\""),
            ("PPPPkPPP/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"),
        ];
        for (fen, needle) in cases {
            let e = Board::from_fen(fen).expect_err(fen).to_string();
            assert!(e.contains(needle), "{fen:?} gave {e:?}, wanted {needle:?}");
        }
    }

    #[test]
    fn huge_and_binary_input_is_refused() {
        let long = "8/".repeat(500_000);
        let e = Board::from_fen(&long).unwrap_err().to_string();
        assert!(e.len() < 200, "error quotes too much: {} bytes", e.len());
        for text in [
            "\u{0}\u{1}\u{2}",
            "ééé/ñ w - -",
            "k7/8/8/8/8/8/8/7K w - - 99999999999999999999 1",
        ] {
            assert!(Board::from_fen(text).is_err());
        }
    }

    #[test]
    fn en_passant_square_kept_only_when_capturable() {
        let with = Board::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
        assert_eq!(with.ep_square(), Some(Square::from_coords(3, 5)));
        let without = Board::from_fen("4k3/8/8/3p4/8/8/4P3/4K3 w - d6 0 2").unwrap();
        assert_eq!(without.ep_square(), None);
    }
}
