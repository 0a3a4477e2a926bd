//! Polyglot opening books (`.bin`): the standard hashing and the entry
//! format that GUIs and most engines share.
//!
//! A book is a sequence of 16-byte big-endian entries (key 64 bits, move
//! 16, weight 16, learn 32) sorted by key. Keys come from the Random64
//! table: a piece on a square, castling rights, an en-passant file (only
//! when a pawn of the side to move can take there), and White to move.

use crate::book::keys::RANDOM64;
use crate::chess::board::{castle_index, Board};
use crate::chess::types::*;

const CASTLE_KEYS: usize = 768;
const EP_KEYS: usize = 772;
const TURN_KEY: usize = 780;
/// Bytes in one book entry.
pub const ENTRY_BYTES: usize = 16;

/// Polyglot's piece numbering: black pawn 0, white pawn 1, black knight 2,
/// ... white king 11 (its kind order is cavalier's `kind_index` order).
fn piece_number(piece: Piece) -> usize {
    2 * kind_index(kind_of(piece)) + usize::from(piece > 0)
}

/// The Polyglot key of a position.
pub fn key(board: &Board) -> u64 {
    let mut k = 0;
    for i in Sq64::all() {
        let s = i.cell();
        let p = board.at(s);
        if p != EMPTY {
            k ^= RANDOM64[64 * piece_number(p) + 8 * s.rank() + s.file()];
        }
    }
    let rights = board.castling_rights();
    for (n, (color, king_side)) in [
        (Color::White, true),
        (Color::White, false),
        (Color::Black, true),
        (Color::Black, false),
    ]
    .into_iter()
    .enumerate()
    {
        if rights & (1 << castle_index(color, king_side)) != 0 {
            k ^= RANDOM64[CASTLE_KEYS + n];
        }
    }
    // The board keeps an en-passant square only when a pawn of the side
    // to move can capture there: exactly Polyglot's rule.
    if let Some(ep) = board.ep_square() {
        k ^= RANDOM64[EP_KEYS + ep.file()];
    }
    if board.side_to_move() == Color::White {
        k ^= RANDOM64[TURN_KEY];
    }
    k
}

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
}

/// A Polyglot book read into memory, sorted by key.
#[derive(Clone, Debug, Default)]
pub struct PolyglotBook {
    entries: Vec<Entry>,
}

impl PolyglotBook {
    /// Reads entries from the bytes of a `.bin` file. A trailing partial
    /// entry is reported (with its byte offset) and ignored.
    pub fn parse(bytes: &[u8]) -> (PolyglotBook, Option<String>) {
        let whole = bytes.len() / ENTRY_BYTES * ENTRY_BYTES;
        let warning = (whole != bytes.len()).then(|| {
            format!(
                "truncated entry at byte offset {whole} ({} stray bytes ignored)",
                bytes.len() - whole
            )
        });
        let mut entries: Vec<Entry> = bytes[..whole]
            .chunks_exact(ENTRY_BYTES)
            .map(|c| {
                let mut key = [0u8; 8];
                key.copy_from_slice(&c[..8]);
                Entry {
                    key: u64::from_be_bytes(key),
                    raw_move: u16::from_be_bytes([c[8], c[9]]),
                    weight: u16::from_be_bytes([c[10], c[11]]),
                }
            })
            .collect();
        // Books are sorted already; sorting again makes a careless one work.
        entries.sort_by_key(|e| e.key);
        (PolyglotBook { entries }, warning)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal book moves of `board` with their weights (entries whose
    /// move is not legal here are skipped).
    pub fn moves(&self, board: &Board) -> Vec<(Move, u32)> {
        let k = key(board);
        let start = self.entries.partition_point(|e| e.key < k);
        let legal = board.legal_moves();
        let mut out: Vec<(Move, u32)> = Vec::new();
        for e in self.entries[start..].iter().take_while(|e| e.key == k) {
            if let Some(mv) = decode(&legal, e.raw_move) {
                match out.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, w)) => *w += e.weight as u32,
                    None => out.push((mv, e.weight as u32)),
                }
            }
        }
        out
    }
}

/// Polyglot move bits: to file 0-2, to row 3-5, from file 6-8, from row
/// 9-11, promotion 12-14 (knight 1 .. queen 4). Castling is written king
/// takes rook, as cavalier encodes it internally.
fn decode(legal: &[Move], raw: u16) -> Option<Move> {
    let to = Square::from_coords((raw & 7) as usize, (raw >> 3 & 7) as usize);
    let from = Square::from_coords((raw >> 6 & 7) as usize, (raw >> 9 & 7) as usize);
    let promo = match raw >> 12 & 7 {
        1 => KNIGHT,
        2 => BISHOP,
        3 => ROOK,
        4 => QUEEN,
        _ => EMPTY,
    };
    legal
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promo() == promo)
}

/// The Polyglot bits of a move (the inverse of `decode`).
pub fn encode(mv: Move) -> u16 {
    let (from, to) = (mv.from(), mv.to());
    let promo = match mv.promo() {
        KNIGHT => 1,
        BISHOP => 2,
        ROOK => 3,
        QUEEN => 4,
        _ => 0,
    };
    (to.file() | to.rank() << 3 | from.file() << 6 | from.rank() << 9 | promo << 12) as u16
}

/// Serialises entries as a `.bin` (for tests and tools).
pub fn write_entries(entries: &[Entry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|e| e.key);
    let mut out = Vec::with_capacity(sorted.len() * ENTRY_BYTES);
    for e in sorted {
        out.extend_from_slice(&e.key.to_be_bytes());
        out.extend_from_slice(&e.raw_move.to_be_bytes());
        out.extend_from_slice(&e.weight.to_be_bytes());
        out.extend_from_slice(&0u32.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;

    /// The example keys of the Polyglot book format description.
    const DOCUMENTED: [(&str, u64); 9] = [
        ("", 0x463b96181691fc9c),
        ("e2e4", 0x823c9b50fd114196),
        ("e2e4 d7d5", 0x0756b94461c50fb0),
        ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
    ];

    fn play(moves: &str) -> Board {
        let mut b = Board::startpos();
        for t in moves.split_whitespace() {
            let mv = parse_uci(&b, t).unwrap();
            b.make(mv);
        }
        b
    }

    #[test]
    fn documented_keys() {
        for (moves, expected) in DOCUMENTED {
            assert_eq!(key(&play(moves)), expected, "after \"{moves}\"");
        }
    }

    #[test]
    fn moves_encode_and_decode() {
        let b = Board::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let legal = b.legal_moves();
        for &mv in &legal {
            assert_eq!(decode(&legal, encode(mv)), Some(mv));
        }
        // e1h1 is O-O in Polyglot.
        let oo = parse_uci(&b, "e1g1").unwrap();
        assert_eq!(encode(oo), (7 | 4 << 6) as u16);
    }
}
