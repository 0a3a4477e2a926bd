//! The training data's record: one position, its search score and the
//! game's result, in 32 bytes.
//!
//! ```text
//! bytes  0..8   occupancy, u64 little-endian: bit s set when square s
//!               (a1 = 0, b1 = 1, ..., h8 = 63) holds a piece
//! bytes  8..24  the pieces of the occupied squares in ascending square
//!               order, four bits each, the first in the low half of byte
//!               8: colour << 3 | kind (kind 0 pawn, 1 knight, 2 bishop,
//!               3 rook, 4 queen, 5 king; colour 0 White, 1 Black);
//!               unused nibbles 0
//! bytes 24..26  score, i16 little-endian, centipawns from White's view
//! byte  26      result: 0 Black won, 1 draw, 2 White won
//! byte  27      side to move: 0 White, 1 Black
//! byte  28      halfmove clock (saturating at 255)
//! bytes 29..31  fullmove number, u16 little-endian (saturating)
//! byte  31      0 (reserved)
//! ```
//!
//! A position has at most 32 pieces, so 16 bytes always hold them. Files
//! are records back to back, with no header: `cat` joins them, and a
//! file's record count is its size / 32.

use crate::chess::board::Board;
use crate::chess::types::{kind_index, kind_of, piece_char, Color, Sq64, EMPTY, KINDS};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;

/// A position for training, unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// (square 0..64, colour 0/1, kind 0..6) of every piece.
    pub pieces: Vec<(u8, u8, u8)>,
    pub score: i16,
    /// 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    /// 0 White, 1 Black.
    pub stm: u8,
    pub halfmove: u8,
    pub fullmove: u16,
}

/// Bytes of a record's pieces (occupancy, then the nibbles).
pub const PIECE_BYTES: usize = 24;

/// Packs pieces (square, colour, kind) as a record's first 24 bytes;
/// `None` for more than 32 pieces, a square twice or a field out of
/// range (kinds up to `max_kind`).
pub fn pack_pieces(pieces: &[(u8, u8, u8)], max_kind: u8) -> Option<[u8; PIECE_BYTES]> {
    if pieces.len() > 32 {
        return None;
    }
    let mut sorted = pieces.to_vec();
    sorted.sort_unstable();
    let mut out = [0u8; PIECE_BYTES];
    let mut occ = 0u64;
    for (i, &(sq, colour, kind)) in sorted.iter().enumerate() {
        if sq >= 64 || colour > 1 || kind > max_kind || occ & (1 << sq) != 0 {
            return None;
        }
        occ |= 1 << sq;
        let nibble = colour << 3 | kind;
        out[8 + i / 2] |= nibble << (4 * (i % 2));
    }
    out[..8].copy_from_slice(&occ.to_le_bytes());
    Some(out)
}

/// The pieces of a record's first 24 bytes, in ascending square order;
/// `None` for more than 32 pieces or a kind beyond `max_kind`.
pub fn unpack_pieces(r: &[u8], max_kind: u8) -> Option<Vec<(u8, u8, u8)>> {
    let occ = u64::from_le_bytes(r.get(..8)?.try_into().ok()?);
    let n = occ.count_ones() as usize;
    if n > 32 || r.len() < PIECE_BYTES {
        return None;
    }
    let mut pieces = Vec::with_capacity(n);
    let mut bits = occ;
    for i in 0..n {
        let sq = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let nibble = r[8 + i / 2] >> (4 * (i % 2)) & 15;
        if nibble & 7 > max_kind {
            return None;
        }
        pieces.push((sq, nibble >> 3, nibble & 7));
    }
    Some(pieces)
}

/// Packs a sample; `None` for more than 32 pieces or a bad field.
pub fn pack(s: &Sample) -> Option<[u8; RECORD_BYTES]> {
    if s.result > 2 || s.stm > 1 {
        return None;
    }
    let mut out = [0u8; RECORD_BYTES];
    out[..PIECE_BYTES].copy_from_slice(&pack_pieces(&s.pieces, 5)?);
    out[24..26].copy_from_slice(&s.score.to_le_bytes());
    out[26] = s.result;
    out[27] = s.stm;
    out[28] = s.halfmove;
    out[29..31].copy_from_slice(&s.fullmove.to_le_bytes());
    Some(out)
}

/// Unpacks a record; `None` when it is not one `pack` writes.
pub fn unpack(r: &[u8; RECORD_BYTES]) -> Option<Sample> {
    if r[26] > 2 || r[27] > 1 || r[31] != 0 {
        return None;
    }
    Some(Sample {
        pieces: unpack_pieces(r, 5)?,
        score: i16::from_le_bytes([r[24], r[25]]),
        result: r[26],
        stm: r[27],
        halfmove: r[28],
        fullmove: u16::from_le_bytes([r[29], r[30]]),
    })
}

/// The sample of a position, its search score (centipawns, White's view,
/// saturated to i16) and the game's result for White (1, 0.5 or 0).
pub fn sample_of(board: &Board, white_score: i32, white_result: f32) -> Sample {
    let pieces = Sq64::all()
        .filter_map(|sq| {
            let p = board.at(sq.cell());
            let colour = (p < 0) as u8;
            (p != EMPTY).then(|| (sq.index() as u8, colour, kind_index(kind_of(p)) as u8))
        })
        .collect();
    Sample {
        pieces,
        score: white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        result: (white_result * 2.0).round().clamp(0.0, 2.0) as u8,
        stm: (board.side_to_move() == Color::Black) as u8,
        halfmove: board.halfmove_clock().min(255) as u8,
        fullmove: board.fullmove_number().min(u16::MAX as u32) as u16,
    }
}

/// The position, White's result (1, 0.5 or 0) and score (cp, White's
/// view) of a `FEN;RESULT;SCORE` line (the text `selfplay` writes):
/// The text of a result as written in a `FEN;RESULT;SCORE` line.
pub fn result_text(r: f32) -> &'static str {
    if r >= 1.0 {
        "1.0"
    } else if r <= 0.0 {
        "0.0"
    } else {
        "0.5"
    }
}

/// `Ok(None)` for a blank line or a `#` comment.
pub fn parse_line(line: &str) -> Result<Option<(Board, f32, i32)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split(';').collect();
    let [fen, result, score] = fields[..] else {
        return Err("expected FEN;RESULT;SCORE".to_string());
    };
    let board = Board::from_fen(fen.trim()).map_err(|e| e.to_string())?;
    let result = match result.trim() {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(format!("bad result \"{other}\"")),
    };
    let score: i32 = score
        .trim()
        .parse()
        .map_err(|_| format!("bad score \"{}\"", score.trim()))?;
    Ok(Some((board, result, score)))
}

/// A record of a `FEN;RESULT;SCORE` line (the text `selfplay` writes):
/// `Ok(None)` for a blank line or a `#` comment.
pub fn record_of_line(line: &str) -> Result<Option<[u8; RECORD_BYTES]>, String> {
    let Some((board, result, score)) = parse_line(line)? else {
        return Ok(None);
    };
    pack(&sample_of(&board, score, result))
        .map(Some)
        .ok_or_else(|| "more than 32 pieces".to_string())
}

/// The piece placement field of a FEN for pieces (square, colour, kind
/// 0..6), or why they cannot be one.
pub fn placement(pieces: &[(u8, u8, u8)]) -> Result<String, String> {
    let mut cells = [' '; 64];
    for &(sq, colour, kind) in pieces {
        if sq >= 64 || colour > 1 || kind > 5 {
            return Err(format!("bad piece ({sq}, {colour}, {kind})"));
        }
        let piece = KINDS[kind as usize];
        cells[sq as usize] = piece_char(if colour == 0 { piece } else { -piece });
    }
    let mut out = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match cells[rank * 8 + file] {
                ' ' => empty += 1,
                c => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    Ok(out)
}

/// The position of a sample (no castling rights, no en-passant square: a
/// record keeps neither), or why it is not a legal one.
pub fn board_of_sample(s: &Sample) -> Result<Board, String> {
    let stm = if s.stm == 0 { 'w' } else { 'b' };
    let fen = format!(
        "{} {stm} - - {} {}",
        placement(&s.pieces)?,
        s.halfmove,
        s.fullmove.max(1)
    );
    Board::from_fen(&fen).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_line_becomes_a_record() {
        let r = record_of_line("4k3/8/8/8/8/8/4P3/4K2R b K - 3 40;1.0;-250")
            .unwrap()
            .unwrap();
        let s = unpack(&r).unwrap();
        // e1 king, h1 rook, e2 pawn (White), e8 king (Black).
        assert_eq!(s.pieces, vec![(4, 0, 5), (7, 0, 3), (12, 0, 0), (60, 1, 5)]);
        assert_eq!((s.score, s.result, s.stm), (-250, 2, 1));
        assert_eq!((s.halfmove, s.fullmove), (3, 40));
        assert_eq!(record_of_line("  # note").unwrap(), None);
        for bad in [
            "x;1.0;3",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1;2;0",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1;1.0",
        ] {
            assert!(record_of_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn round_trip() {
        let s = Sample {
            pieces: vec![(4, 0, 5), (60, 1, 5), (12, 0, 0), (63, 1, 3)],
            score: -123,
            result: 0,
            stm: 1,
            halfmove: 7,
            fullmove: 300,
        };
        let r = pack(&s).unwrap();
        let mut sorted = s.clone();
        sorted.pieces.sort_unstable();
        assert_eq!(unpack(&r).unwrap(), sorted);
    }
}
