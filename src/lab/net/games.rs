//! Game files: the training data as whole games, a start position then
//! one move and one score a ply, so that a game can be replayed (and
//! re-scored) and every position of it costs 4 bytes instead of a 32-byte
//! record.
//!
//! A file is games back to back; a game is a 32-byte header then its
//! plies, 4 bytes each:
//!
//! ```text
//! header
//! bytes  0..24  the start position's pieces as in a record
//!               (`packed`), with kind 6 for a rook that still has its
//!               castling right (Chess960 and standard alike)
//! byte  24      bit 0 side to move (0 White, 1 Black), bit 1 Chess960,
//!               bits 2..4 result (0 Black won, 1 draw, 2 White won),
//!               bits 4..8 en passant: 0 none, else 1 + the target's file
//! byte  25      halfmove clock (saturating at 255)
//! bytes 26..28  fullmove number, u16 little-endian
//! bytes 28..30  plies that follow, u16 little-endian
//! byte  30      b'G'
//! byte  31      format version, 1 (a record's byte 31 is always 0)
//! ply
//! bytes  0..2   the move, u16 little-endian: bits 0..6 from, 6..12 to
//!               (a1 = 0 ... h8 = 63), 12..14 promotion piece (knight,
//!               bishop, rook, queen), 14..16 kind (0 normal, 1 promotion,
//!               2 castling: `to` is the rook's square, 3 en passant);
//!               0 is no move, allowed only as a game's last ply: the
//!               score of the position without a move played (a record
//!               or text line made a game)
//! bytes  2..4   the search's score there, i16 little-endian, centipawns
//!               from White's view; -32768 when none is known (a book move)
//! ```
//!
//! Every ply is kept; which positions a network trains on ([`Filter`])
//! is decided when the file is read. Files join with `cat`. A reader
//! checks every header and replays every move, so that a truncated or
//! damaged file is an error naming the byte where it goes wrong.

use super::packed::{
    pack, pack_pieces, placement, sample_of, unpack_pieces, PIECE_BYTES, RECORD_BYTES,
};
use crate::chess::board::Board;
use crate::chess::types::{
    kind_index, kind_of, Color, Move, MoveKind, Sq64, Square, BISHOP, EMPTY, KNIGHT, PAWN, QUEEN,
    ROOK,
};
use crate::engine::score::MATE_BOUND;
use std::fmt;

/// Bytes of a game's header.
pub const HEADER_BYTES: usize = 32;
/// Bytes of a ply.
pub const PLY_BYTES: usize = 4;
/// Byte 30 of every header.
pub const MAGIC: u8 = b'G';
/// Byte 31 of every header: the format's version.
pub const VERSION: u8 = 1;
/// The score of a ply whose score is not known.
pub const NO_SCORE: i16 = i16::MIN;
/// Most plies a game holds.
pub const MAX_PLIES: usize = u16::MAX as usize;
/// The nibble kind of a rook with its castling right.
const CASTLING_ROOK: u8 = 6;
/// The promotion pieces in the order of their two bits.
const PROMOTIONS: [i8; 4] = [KNIGHT, BISHOP, ROOK, QUEEN];

/// A game: where it starts, its result and its plies (a move and the
/// score, White's view, of the position it was played from).
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub start: Board,
    /// 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    pub plies: Vec<(Move, i16)>,
}

/// What is wrong with a file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte of the file where it goes wrong.
    pub offset: usize,
    pub what: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.what)
    }
}

/// A search score (cp, White's view) as a ply stores it: saturated, never
/// [`NO_SCORE`].
pub fn stored_score(white: i32) -> i16 {
    white.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16
}

/// White's result (1, 0.5 or 0) as a header stores it.
pub fn stored_result(white: f32) -> u8 {
    (white * 2.0).round().clamp(0.0, 2.0) as u8
}

/// A game of one position with no move played: what a record or a text
/// line becomes.
pub fn one_position(board: Board, result: u8, score: i16) -> Game {
    Game {
        start: board,
        result,
        plies: vec![(Move::NONE, score)],
    }
}

/// The 16 bits of a legal move of `board`.
pub fn encode_move(board: &Board, mv: Move) -> u16 {
    if mv.is_none() {
        return 0;
    }
    let (from, to) = (
        mv.from().sq64().index() as u16,
        mv.to().sq64().index() as u16,
    );
    let (kind, promo) = match mv.kind() {
        MoveKind::Normal | MoveKind::DoublePush => (0, 0),
        MoveKind::Promotion => (
            1,
            PROMOTIONS
                .iter()
                .position(|&p| p == mv.promo())
                .unwrap_or(3) as u16,
        ),
        MoveKind::Castle => (2, 0),
        MoveKind::EnPassant => (3, 0),
    };
    debug_assert!(board.is_legal(mv), "{mv:?}");
    from | to << 6 | promo << 12 | kind << 14
}

/// The legal move of `board` that `bits` encodes, if it is one.
fn decode_move(board: &Board, bits: u16) -> Option<Move> {
    let from = Sq64::new((bits & 63) as usize).cell();
    let to = Sq64::new((bits >> 6 & 63) as usize).cell();
    let promo = (bits >> 12 & 3) as usize;
    let mv = match bits >> 14 {
        1 => Move::promotion(from, to, PROMOTIONS[promo]),
        _ if promo != 0 => return None,
        2 => Move::new(from, to, MoveKind::Castle),
        3 => Move::new(from, to, MoveKind::EnPassant),
        _ if kind_of(board.at(from)) == PAWN && from.rank().abs_diff(to.rank()) == 2 => {
            Move::new(from, to, MoveKind::DoublePush)
        }
        _ => Move::new(from, to, MoveKind::Normal),
    };
    board.is_legal(mv).then_some(mv)
}

/// The header of a game starting at `board`.
fn header(board: &Board, result: u8, plies: usize) -> Result<[u8; HEADER_BYTES], String> {
    let castling_rooks: Vec<Square> = (0..4).filter_map(|r| board.castle_rook(r)).collect();
    let pieces: Vec<(u8, u8, u8)> = Sq64::all()
        .filter_map(|sq| {
            let p = board.at(sq.cell());
            (p != EMPTY).then(|| {
                let kind = if castling_rooks.contains(&sq.cell()) {
                    CASTLING_ROOK
                } else {
                    kind_index(kind_of(p)) as u8
                };
                (sq.index() as u8, (p < 0) as u8, kind)
            })
        })
        .collect();
    let mut out = [0u8; HEADER_BYTES];
    out[..PIECE_BYTES]
        .copy_from_slice(&pack_pieces(&pieces, CASTLING_ROOK).ok_or("more than 32 pieces")?);
    let ep = board.ep_square().map_or(0, |s| 1 + s.file() as u8);
    out[24] = (board.side_to_move() == Color::Black) as u8
        | (board.is_chess960() as u8) << 1
        | result.min(2) << 2
        | ep << 4;
    out[25] = board.halfmove_clock().min(255) as u8;
    let fullmove = board.fullmove_number().min(u16::MAX as u32) as u16;
    out[26..28].copy_from_slice(&fullmove.to_le_bytes());
    let plies = u16::try_from(plies).map_err(|_| format!("{plies} plies, over {MAX_PLIES}"))?;
    out[28..30].copy_from_slice(&plies.to_le_bytes());
    out[30] = MAGIC;
    out[31] = VERSION;
    Ok(out)
}

/// The start position a header describes, its result and its ply count.
fn read_header(h: &[u8]) -> Result<(Board, u8, usize), String> {
    if h[30] != MAGIC || h[31] == 0 {
        return Err("not a game header".to_string());
    }
    if h[31] != VERSION {
        return Err(format!(
            "format version {}, this build reads {VERSION}",
            h[31]
        ));
    }
    let mut pieces = unpack_pieces(h, CASTLING_ROOK).ok_or("bad pieces")?;
    let mut castling = String::new();
    for p in pieces.iter_mut().filter(|p| p.2 == CASTLING_ROOK) {
        p.2 = kind_index(ROOK) as u8;
        let file = (b'a' + p.0 % 8) as char;
        castling.push(if p.1 == 0 {
            file.to_ascii_uppercase()
        } else {
            file
        });
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let flags = h[24];
    let black = flags & 1 == 1;
    let result = flags >> 2 & 3;
    if result > 2 {
        return Err("bad result".to_string());
    }
    let ep = match flags >> 4 {
        0 => "-".to_string(),
        f @ 1..=8 => format!("{}{}", (b'a' + f - 1) as char, if black { 3 } else { 6 }),
        _ => return Err("bad en-passant file".to_string()),
    };
    let fen = format!(
        "{} {} {castling} {ep} {} {}",
        placement(&pieces)?,
        if black { 'b' } else { 'w' },
        h[25],
        u16::from_le_bytes([h[26], h[27]]).max(1)
    );
    let mut board = Board::from_fen(&fen).map_err(|e| e.to_string())?;
    if flags & 2 != 0 {
        board.set_chess960(true);
    }
    Ok((board, result, u16::from_le_bytes([h[28], h[29]]) as usize))
}

/// A game's bytes; an error for a game longer than [`MAX_PLIES`], a move
/// that is not legal where it is played, or no move before the last ply.
pub fn write_game(game: &Game) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(HEADER_BYTES + PLY_BYTES * game.plies.len());
    out.extend_from_slice(&header(&game.start, game.result, game.plies.len())?);
    let mut board = game.start.clone();
    for (i, &(mv, score)) in game.plies.iter().enumerate() {
        if mv.is_none() {
            if i + 1 != game.plies.len() {
                return Err(format!("ply {i}: no move before the last ply"));
            }
        } else if !board.is_legal(mv) {
            return Err(format!("ply {i}: illegal move {mv:?}"));
        }
        out.extend_from_slice(&encode_move(&board, mv).to_le_bytes());
        out.extend_from_slice(&score.to_le_bytes());
        if !mv.is_none() {
            board.make(mv);
        }
    }
    Ok(out)
}

/// Reads the game at `offset` of `bytes`: the game and the offset after it.
pub fn read_game(bytes: &[u8], offset: usize) -> Result<(Game, usize), FormatError> {
    let err = |at: usize, what: String| FormatError { offset: at, what };
    let Some(h) = bytes.get(offset..offset + HEADER_BYTES) else {
        return Err(err(
            offset,
            format!(
                "the file ends {} bytes into a {HEADER_BYTES}-byte game header",
                bytes.len() - offset
            ),
        ));
    };
    let (start, result, n) = read_header(h).map_err(|e| err(offset, e))?;
    let body = offset + HEADER_BYTES;
    let end = body + n * PLY_BYTES;
    if end > bytes.len() {
        return Err(err(
            bytes.len(),
            format!("the file ends inside the game that starts at byte {offset}"),
        ));
    }
    let mut board = start.clone();
    let mut plies = Vec::with_capacity(n);
    for (i, ply) in bytes[body..end].chunks_exact(PLY_BYTES).enumerate() {
        let at = body + i * PLY_BYTES;
        let bits = u16::from_le_bytes([ply[0], ply[1]]);
        let score = i16::from_le_bytes([ply[2], ply[3]]);
        let mv = if bits == 0 {
            if i + 1 != n {
                return Err(err(at, format!("ply {i}: no move before the last ply")));
            }
            Move::NONE
        } else {
            let mv = decode_move(&board, bits).ok_or_else(|| {
                err(
                    at,
                    format!(
                        "ply {i}: move {bits:#06x} is not legal in {}",
                        board.to_fen()
                    ),
                )
            })?;
            board.make(mv);
            mv
        };
        plies.push((mv, score));
    }
    Ok((
        Game {
            start,
            result,
            plies,
        },
        end,
    ))
}

/// Whether `bytes` begin with a game header (and so are a game file, not
/// records: a record's byte 31 is 0).
pub fn is_game_file(bytes: &[u8]) -> bool {
    bytes.len() >= HEADER_BYTES && bytes[30] == MAGIC && bytes[31] != 0
}

/// The games of a file's bytes, in order; after an error, nothing more.
pub fn games(bytes: &[u8]) -> impl Iterator<Item = Result<Game, FormatError>> + '_ {
    let mut offset = 0;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed || offset >= bytes.len() {
            return None;
        }
        match read_game(bytes, offset) {
            Ok((game, next)) => {
                offset = next;
                Some(Ok(game))
            }
            Err(e) => {
                failed = true;
                Some(Err(e))
            }
        }
    })
}

/// Which positions of a game a network trains on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    /// Positions scored beyond this (cp) are left out.
    pub max_score: i32,
    /// Keep every position with a score (no other test).
    pub all: bool,
}

impl Filter {
    /// The trainer's: quiet positions (not in check, the move played there
    /// neither a capture nor a promotion) with a known score within
    /// `max_score` that is not a mate score.
    pub fn training(max_score: i32) -> Filter {
        Filter {
            max_score,
            all: false,
        }
    }

    /// Whether the position `board`, where `mv` was played (`Move::NONE`:
    /// none known) and scored `score`, is kept.
    pub fn keeps(&self, board: &Board, mv: Move, score: i16) -> bool {
        if score == NO_SCORE {
            return false;
        }
        if self.all {
            return true;
        }
        let s = (score as i32).abs();
        s <= self.max_score
            && s < MATE_BOUND
            && !board.in_check()
            && (mv.is_none() || board.is_quiet(mv))
    }
}

impl Game {
    /// Calls `f` with every position of the game, the move played there
    /// and its score, in order.
    pub fn replay(&self, f: &mut dyn FnMut(&Board, Move, i16)) {
        let mut board = self.start.clone();
        for &(mv, score) in &self.plies {
            f(&board, mv, score);
            if !mv.is_none() {
                board.make(mv);
            }
        }
    }

    /// White's result: 1, 0.5 or 0.
    pub fn white_result(&self) -> f32 {
        self.result as f32 / 2.0
    }

    /// Appends the records of the positions `filter` keeps to `out`;
    /// returns how many it left out.
    pub fn records(&self, filter: &Filter, out: &mut Vec<[u8; RECORD_BYTES]>) -> usize {
        let mut left_out = 0;
        let result = self.white_result();
        self.replay(&mut |board, mv, score| match filter
            .keeps(board, mv, score)
            .then(|| pack(&sample_of(board, score as i32, result)))
            .flatten()
        {
            Some(r) => out.push(r),
            None => left_out += 1,
        });
        left_out
    }

    /// Appends the `FEN;RESULT;SCORE` lines of the positions `filter` keeps
    /// to `out`; returns how many it left out.
    pub fn text(&self, filter: &Filter, out: &mut String) -> usize {
        let mut left_out = 0;
        let result = super::packed::result_text(self.white_result());
        self.replay(&mut |board, mv, score| {
            if filter.keeps(board, mv, score) {
                out.push_str(&format!("{};{result};{score}\n", board.to_fen()));
            } else {
                left_out += 1;
            }
        });
        left_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::lab::net::packed::unpack;

    /// The game of `moves` (UCI) from `fen`, each scored by its index.
    fn game(fen: &str, chess960: bool, moves: &[&str], result: u8) -> Game {
        let mut board = Board::from_fen(fen).unwrap();
        board.set_chess960(chess960);
        let start = board.clone();
        let plies = moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let mv = parse_uci(&board, text).unwrap_or_else(|e| panic!("{text}: {e}"));
                board.make(mv);
                (mv, 10 * i as i16 - 20)
            })
            .collect();
        Game {
            start,
            result,
            plies,
        }
    }

    fn round_trip(g: &Game) -> Game {
        let bytes = write_game(g).unwrap();
        assert_eq!(bytes.len(), HEADER_BYTES + PLY_BYTES * g.plies.len());
        assert!(is_game_file(&bytes));
        let (back, end) = read_game(&bytes, 0).unwrap();
        assert_eq!(end, bytes.len());
        back
    }

    /// The positions of a game, as FENs, replayed.
    fn fens(g: &Game) -> Vec<String> {
        let mut out = Vec::new();
        g.replay(&mut |b, _, _| out.push(b.to_fen()));
        out
    }

    #[test]
    fn chess960_castling_en_passant_and_promotions_survive_the_round_trip() {
        // Chess960 start 0 (bbqnnrkr): the flag and the castling rights
        // (Shredder letters) come back.
        let start = Board::chess960_start(0).unwrap();
        let g = game(&start.to_fen(), true, &["g2g3", "g7g6"], 1);
        let back = round_trip(&g);
        assert!(back.start.is_chess960());
        assert_eq!(back, g);
        assert_eq!(fens(&back), fens(&g));
        // An inner-rook castling right (Shredder letters), kept exactly.
        let inner = game(
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            true,
            &["e1g1", "e8b8"],
            0,
        );
        let back = round_trip(&inner);
        assert_eq!(back.start.to_fen(), inner.start.to_fen());
        assert_eq!(fens(&back), fens(&inner));
        // Standard castling both ways, en passant (the start holding a
        // capturable en-passant square, and one in the game), and every
        // promotion piece.
        let g = game(
            "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 30",
            false,
            &[
                "e5d6", "e8g8", "b7a8n", "g8g7", "e1c1", "g7g6", "d6d7", "g6g5", "d7d8q",
            ],
            2,
        );
        assert_eq!(
            g.start.ep_square().map(crate::chess::types::square_name),
            Some("d6".to_string())
        );
        let back = round_trip(&g);
        assert_eq!(back, g);
        assert!(back.plies[1].0.is_castle() && back.plies[4].0.is_castle());
        assert_eq!(back.plies[0].0.kind(), MoveKind::EnPassant);
        assert_eq!(fens(&back), fens(&g));
        let promos = ["b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7a8r"];
        for p in promos {
            let g = game("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", false, &[p], 1);
            assert_eq!(round_trip(&g), g, "{p}");
        }
        let ep = game(
            "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1",
            false,
            &["e2e4", "f4e3", "e1e2"],
            1,
        );
        let back = round_trip(&ep);
        assert_eq!(back.plies[1].0.kind(), MoveKind::EnPassant);
        assert_eq!(fens(&back), fens(&ep));
    }

    #[test]
    fn a_truncated_or_damaged_file_is_an_error_at_its_offset() {
        let g = game(
            crate::chess::fen::START_FEN,
            false,
            &["e2e4", "e7e5", "g1f3"],
            1,
        );
        let one = write_game(&g).unwrap();
        let mut two = one.clone();
        two.extend_from_slice(&one);
        assert_eq!(games(&two).count(), 2);
        assert!(games(&two).all(|g| g.is_ok()));
        // Cut inside the second game's plies, then inside its header.
        let cut = &two[..two.len() - 3];
        let e = games(cut).nth(1).unwrap().unwrap_err();
        assert_eq!(e.offset, cut.len());
        assert!(e.what.contains(&format!("byte {}", one.len())), "{e}");
        let e = games(&two[..one.len() + 10]).nth(1).unwrap().unwrap_err();
        assert_eq!(e.offset, one.len());
        // A damaged move: the third ply of the second game.
        let mut bad = two.clone();
        let at = one.len() + HEADER_BYTES + 2 * PLY_BYTES;
        bad[at] ^= 0x3f;
        let e = games(&bad).nth(1).unwrap().unwrap_err();
        assert_eq!(e.offset, at);
        assert!(
            e.to_string().starts_with(&format!("byte {at}: ply 2")),
            "{e}"
        );
        // A damaged header: its magic, its version, its pieces.
        for (byte, value) in [(30, b'g'), (31, 9), (8, 0xff), (24, 0xf0)] {
            let mut bad = two.clone();
            bad[one.len() + byte] = value;
            let e = games(&bad).nth(1).unwrap().unwrap_err();
            assert_eq!(e.offset, one.len(), "byte {byte}: {e}");
        }
        // No move before the last ply.
        let mut bad = one.clone();
        bad[HEADER_BYTES..HEADER_BYTES + 2].copy_from_slice(&[0, 0]);
        assert_eq!(
            games(&bad).next().unwrap().unwrap_err().offset,
            HEADER_BYTES
        );
        // Random bytes never panic.
        let mut rng = crate::util::rng::Rng::new(3);
        for _ in 0..2000 {
            let mut b = one.clone();
            let i = (rng.next_u64() % b.len() as u64) as usize;
            b[i] = rng.next_u64() as u8;
            let _ = games(&b).count();
        }
    }

    #[test]
    fn the_filter_keeps_quiet_scored_positions() {
        // e4 (quiet), d5, exd5 (a capture), Qxd5, then a check Bb5+ and
        // the answer from check.
        let mut g = game(
            crate::chess::fen::START_FEN,
            false,
            &["e2e4", "d7d5", "e4d5", "d8d5", "f1b5", "c7c6"],
            1,
        );
        g.plies[1].1 = NO_SCORE;
        g.plies[4].1 = 3500;
        let mut records = Vec::new();
        let left_out = g.records(&Filter::training(3000), &mut records);
        // Kept: e4 (ply 0); left out: no score (ply 1), captures (plies 2
        // and 3), beyond 3000 cp (ply 4), in check (ply 5).
        assert_eq!((records.len(), left_out), (1, 5));
        let mut text = String::new();
        g.text(&Filter::training(4000), &mut text);
        assert_eq!(text.lines().count(), 2);
        let every = Filter {
            max_score: 0,
            all: true,
        };
        records.clear();
        assert_eq!(g.records(&every, &mut records), 1);
        // A mate score is left out whatever the limit.
        g.plies[0].1 = stored_score(crate::engine::score::MATE - 3);
        records.clear();
        g.records(&Filter::training(i16::MAX as i32), &mut records);
        assert_eq!(records.len(), 1);
        assert_eq!(unpack(&records[0]).unwrap().score, 3500);
    }

    #[test]
    fn a_position_alone_is_a_game_of_one_ply() {
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K2R b K - 3 40").unwrap();
        let g = one_position(board, 2, -250);
        let back = round_trip(&g);
        assert_eq!(back, g);
        let mut text = String::new();
        back.text(&Filter::training(3000), &mut text);
        assert_eq!(text, "4k3/8/8/8/8/8/4P3/4K2R b K - 3 40;1.0;-250\n");
    }
}
