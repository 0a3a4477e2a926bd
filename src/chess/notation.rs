//! Move text: UCI coordinates (`e2e4`, `e7e8n`) and SAN (`Nbd2`, `exd6`,
//! `O-O-O`, `e8=Q+`), both ways.
//!
//! Text is only ever turned into a move by matching it against the
//! position's legal moves, so a parsed move is always legal.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::util::text::quote;
use std::fmt;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move text at all.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
    /// SAN that fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "bad move text \"{t}\""),
            MoveError::Illegal(t) => write!(f, "illegal move \"{t}\""),
            MoveError::Ambiguous(t) => write!(f, "ambiguous move \"{t}\""),
        }
    }
}

impl std::error::Error for MoveError {}

/// Where the king lands when castling (its own square in king-takes-rook
/// notation is not used here).
fn castle_king_target(board: &Board, mv: Move) -> Square {
    board.castle_targets(mv.from(), mv.to()).0
}

/// UCI text of a move. Castling is written king-to-destination (`e1g1`) in
/// standard chess and king-takes-rook (`e1h1`) in Chess960.
pub fn to_uci(board: &Board, mv: Move) -> String {
    if mv.is_none() {
        return "0000".to_string();
    }
    let to = if mv.is_castle() && !board.is_chess960() {
        castle_king_target(board, mv)
    } else {
        mv.to()
    };
    let mut s = square_name(mv.from());
    s.push_str(&square_name(to));
    if mv.kind() == MoveKind::Promotion {
        s.push(piece_char(-mv.promo()));
    }
    s
}

/// Parses UCI coordinate text against the legal moves of `board`.
pub fn parse_uci(board: &Board, text: &str) -> Result<Move, MoveError> {
    let bytes = text.as_bytes();
    let well_formed = text.is_ascii()
        && (bytes.len() == 4 || bytes.len() == 5)
        && parse_square(&text[..2]).is_some()
        && parse_square(&text[2..4]).is_some()
        && (bytes.len() == 4 || matches!(bytes[4], b'q' | b'r' | b'b' | b'n'));
    if !well_formed {
        return Err(MoveError::Syntax(quote(text)));
    }
    let moves = board.legal_moves();
    // The exact text first, then king-takes-rook castling in standard chess.
    if let Some(&mv) = moves.iter().find(|&&m| to_uci(board, m) == text) {
        return Ok(mv);
    }
    if !board.is_chess960() {
        let from = parse_square(&text[..2]);
        let to = parse_square(&text[2..4]);
        if let Some(&mv) = moves
            .iter()
            .find(|m| m.is_castle() && Some(m.from()) == from && Some(m.to()) == to)
        {
            return Ok(mv);
        }
    }
    Err(MoveError::Illegal(quote(text)))
}

/// SAN of a legal move, with `+` or `#`.
pub fn to_san(board: &Board, mv: Move) -> String {
    let mut s = san_body(board, mv);
    let mut after = board.clone();
    after.make(mv);
    if after.in_check() {
        s.push(if after.has_legal_move() { '+' } else { '#' });
    }
    s
}

/// SAN without the check suffix.
fn san_body(board: &Board, mv: Move) -> String {
    if mv.is_castle() {
        return if mv.to() > mv.from() { "O-O" } else { "O-O-O" }.to_string();
    }
    let from = mv.from();
    let to = mv.to();
    let kind = kind_of(board.at(from));
    let capture = board.is_capture(mv);
    let mut s = String::with_capacity(8);
    if kind == PAWN {
        if capture {
            s.push((b'a' + from.file() as u8) as char);
        }
    } else {
        s.push(piece_char(kind));
        // Disambiguate among same-kind pieces that can also reach `to`.
        let rivals: Vec<Square> = board
            .legal_moves()
            .iter()
            .filter(|m| {
                m.to() == to
                    && m.from() != from
                    && !m.is_castle()
                    && kind_of(board.at(m.from())) == kind
            })
            .map(|m| m.from())
            .collect();
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|&r| r.file() != from.file());
            let rank_unique = rivals.iter().all(|&r| r.rank() != from.rank());
            let name = square_name(from);
            if file_unique {
                s.push_str(&name[..1]);
            } else if rank_unique {
                s.push_str(&name[1..]);
            } else {
                s.push_str(&name);
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&square_name(to));
    if mv.kind() == MoveKind::Promotion {
        s.push('=');
        s.push(piece_char(mv.promo()));
    }
    s
}

/// Parses SAN (lenient about `+`, `#`, `!`, `?`, `0-0`, a missing `=` or
/// `x`) against the legal moves of `board`.
pub fn parse_san(board: &Board, text: &str) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(quote(text));
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    if !core.is_ascii() || core.is_empty() || core.len() > 8 {
        return Err(syntax());
    }
    let moves = board.legal_moves();
    let castle = match core {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        return moves
            .iter()
            .copied()
            .find(|m| m.is_castle() && (m.to() > m.from()) == king_side)
            .ok_or_else(|| MoveError::Illegal(quote(text)));
    }
    let mut chars: Vec<u8> = core.bytes().collect();
    // Promotion suffix: "=Q" or a trailing piece letter.
    let mut promo = EMPTY;
    if let Some(&last) = chars.last() {
        if let Some(p) = match last {
            b'Q' => Some(QUEEN),
            b'R' => Some(ROOK),
            b'B' => Some(BISHOP),
            b'N' => Some(KNIGHT),
            _ => None,
        } {
            promo = p;
            chars.pop();
            if chars.last() == Some(&b'=') {
                chars.pop();
            }
        }
    }
    let kind = match chars.first() {
        Some(b'N') => KNIGHT,
        Some(b'B') => BISHOP,
        Some(b'R') => ROOK,
        Some(b'Q') => QUEEN,
        Some(b'K') => KING,
        _ => PAWN,
    };
    let body = if kind == PAWN {
        &chars[..]
    } else {
        &chars[1..]
    };
    if body.len() < 2 {
        return Err(syntax());
    }
    let target_text = std::str::from_utf8(&body[body.len() - 2..]).map_err(|_| syntax())?;
    let to = parse_square(target_text).ok_or_else(syntax)?;
    let mut hint: &[u8] = &body[..body.len() - 2];
    if hint.last() == Some(&b'x') {
        hint = &hint[..hint.len() - 1];
    }
    let (mut hint_file, mut hint_rank) = (None, None);
    for &c in hint {
        match c {
            b'a'..=b'h' if hint_file.is_none() => hint_file = Some((c - b'a') as usize),
            b'1'..=b'8' if hint_rank.is_none() => hint_rank = Some((c - b'1') as usize),
            _ => return Err(syntax()),
        }
    }
    let fits: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            !m.is_castle()
                && m.to() == to
                && kind_of(board.at(m.from())) == kind
                && m.promo() == promo
                && hint_file.is_none_or(|f| m.from().file() == f)
                && hint_rank.is_none_or(|r| m.from().rank() == r)
        })
        .collect();
    match fits.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(MoveError::Illegal(quote(text))),
        _ => Err(MoveError::Ambiguous(quote(text))),
    }
}

/// Parses a move written either in UCI coordinates or in SAN.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, MoveError> {
    match parse_uci(board, text) {
        Ok(mv) => Ok(mv),
        Err(MoveError::Syntax(_)) => parse_san(board, text),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn uci_round_trip_and_castling() {
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let oo = parse_uci(&b, "e1g1").unwrap();
        assert!(oo.is_castle());
        assert_eq!(to_uci(&b, oo), "e1g1");
        assert_eq!(parse_uci(&b, "e1h1").unwrap(), oo);
        let mut b960 = b.clone();
        b960.set_chess960(true);
        assert_eq!(to_uci(&b960, oo), "e1h1");
        for mv in b.legal_moves() {
            assert_eq!(parse_uci(&b, &to_uci(&b, mv)).unwrap(), mv);
        }
    }

    #[test]
    fn uci_errors() {
        let b = Board::startpos();
        assert!(matches!(parse_uci(&b, "e2e5"), Err(MoveError::Illegal(_))));
        assert!(matches!(parse_uci(&b, "e2"), Err(MoveError::Syntax(_))));
        assert!(matches!(parse_uci(&b, "e2e4x"), Err(MoveError::Syntax(_))));
        assert!(matches!(parse_uci(&b, "ée4"), Err(MoveError::Syntax(_))));
        assert!(matches!(parse_uci(&b, "e2éé"), Err(MoveError::Syntax(_))));
        assert!(matches!(parse_uci(&b, "e7e8q"), Err(MoveError::Illegal(_))));
    }

    #[test]
    fn san_examples() {
        let b = board("r3k2r/1P6/8/3pP3/8/8/3N1N2/R3K2R w KQkq d6 0 1");
        let san = |t: &str| to_san(&b, parse_uci(&b, t).unwrap());
        assert_eq!(san("e5d6"), "exd6");
        assert_eq!(san("d2b3"), "Nb3");
        assert_eq!(san("d2e4"), "Nde4");
        assert_eq!(san("f2e4"), "Nfe4");
        assert_eq!(san("e1c1"), "O-O-O");
        assert_eq!(san("b7a8q"), "bxa8=Q+");
        assert_eq!(san("b7b8n"), "b8=N");
        assert_eq!(
            parse_san(&b, "Nde4").unwrap(),
            parse_uci(&b, "d2e4").unwrap()
        );
        assert!(matches!(parse_san(&b, "Ne4"), Err(MoveError::Ambiguous(_))));
        assert_eq!(
            parse_san(&b, "bxa8=Q+").unwrap(),
            parse_uci(&b, "b7a8q").unwrap()
        );
        assert_eq!(
            parse_san(&b, "bxa8Q").unwrap(),
            parse_uci(&b, "b7a8q").unwrap()
        );
        assert_eq!(
            parse_san(&b, "0-0").unwrap(),
            parse_uci(&b, "e1g1").unwrap()
        );
        assert!(parse_san(&b, "Qh5").is_err());
        assert!(parse_san(&b, "").is_err());
        assert!(parse_san(&b, "Nxx4").is_err());
        // Rank disambiguation.
        let b = board("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(to_san(&b, parse_uci(&b, "a1a3").unwrap()), "R1a3");
        // Mate.
        let b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(to_san(&b, parse_uci(&b, "a1a8").unwrap()), "Ra8#");
    }

    #[test]
    fn san_round_trips_on_all_moves() {
        let b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        for mv in b.legal_moves() {
            let s = to_san(&b, mv);
            assert_eq!(parse_san(&b, &s).unwrap(), mv, "{s}");
            assert_eq!(parse_move(&b, &s).unwrap(), mv);
        }
    }
}
