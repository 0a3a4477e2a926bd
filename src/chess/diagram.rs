//! The one board printer: the UCI `d` command's grid and the terminal
//! game's open board with the last move marked, both drawn from the same
//! orientation and glyphs. Part of the rules layer: it imports nothing
//! from the engine.

use crate::chess::board::Board;
use crate::chess::types::*;

/// How to draw a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Whose pieces are at the bottom.
    pub bottom: Color,
    /// ASCII letters, or chess glyphs.
    pub ascii: bool,
    /// The boxed grid of `d`, or the open board of the terminal game.
    pub grid: bool,
}

impl Diagram {
    /// The UCI `d` command's grid: White at the bottom, piece letters.
    pub const GRID: Diagram = Diagram {
        bottom: Color::White,
        ascii: true,
        grid: true,
    };

    /// The terminal game's board.
    pub fn play(bottom: Color, ascii: bool) -> Diagram {
        Diagram {
            bottom,
            ascii,
            grid: false,
        }
    }
}

/// `board` drawn as `how` says.
pub fn render(board: &Board, how: &Diagram) -> String {
    if how.grid {
        render_grid(board, how.bottom)
    } else {
        render_open(board, how.bottom, how.ascii)
    }
}

/// Files left to right and ranks top to bottom, as `bottom` sees them.
fn orientation(bottom: Color) -> (Vec<usize>, Vec<usize>) {
    match bottom {
        Color::White => ((0..8).collect(), (0..8).rev().collect()),
        Color::Black => ((0..8).rev().collect(), (0..8).collect()),
    }
}

/// The boxed grid: a `+---+` line between ranks, rank numbers on the
/// right, file letters below.
fn render_grid(board: &Board, bottom: Color) -> String {
    const RULE: &str = " +---+---+---+---+---+---+---+---+\n";
    let (files, ranks) = orientation(bottom);
    let mut text = String::new();
    for &rank in &ranks {
        text.push_str(RULE);
        for &file in &files {
            let p = board.at(Square::from_coords(file, rank));
            let c = if p == EMPTY { ' ' } else { glyph(p, true) };
            text.push_str(&format!(" | {c}"));
        }
        text.push_str(&format!(" | {}\n", rank + 1));
    }
    text.push_str(RULE);
    let letters: Vec<String> = files
        .iter()
        .map(|&f| ((b'a' + f as u8) as char).to_string())
        .collect();
    text.push_str(&format!("   {}\n", letters.join("   ")));
    text
}

/// Squares to mark as the last move: where the piece came from and where it
/// went. Castling is stored as king-takes-rook, so the king's real
/// destination is worked out.
pub fn marked_squares(board: &Board) -> Option<(Square, Square)> {
    let mv = board.last_move()?;
    let to = if mv.is_castle() && !board.is_chess960() {
        board.castle_targets(mv.from(), mv.to()).0
    } else {
        mv.to()
    };
    Some((mv.from(), to))
}

/// The character drawn for a piece (or an empty square).
fn glyph(piece: Piece, ascii: bool) -> char {
    if piece == EMPTY {
        return if ascii { '.' } else { '·' };
    }
    if ascii {
        return piece_char(piece);
    }
    let white = Color::White.owns(piece);
    match (kind_of(piece), white) {
        (KING, true) => '♔',
        (QUEEN, true) => '♕',
        (ROOK, true) => '♖',
        (BISHOP, true) => '♗',
        (KNIGHT, true) => '♘',
        (PAWN, true) => '♙',
        (KING, false) => '♚',
        (QUEEN, false) => '♛',
        (ROOK, false) => '♜',
        (BISHOP, false) => '♝',
        (KNIGHT, false) => '♞',
        (PAWN, false) => '♟',
        _ => '?',
    }
}

/// The open frame: file letters above and below, rank numbers on both
/// sides, and the last move's two squares in brackets.
fn render_open(board: &Board, bottom: Color, ascii: bool) -> String {
    let (files, ranks) = orientation(bottom);
    let marked = marked_squares(board);
    let is_marked = |s: Square| marked.is_some_and(|(a, b)| s == a || s == b);
    // Letters over the middle of the three-character cells.
    let letters: Vec<String> = files
        .iter()
        .map(|&f| ((b'a' + f as u8) as char).to_string())
        .collect();
    let header = format!("   {}", letters.join("  "));
    let mut text = header.clone();
    text.push('\n');
    for &r in &ranks {
        let label = (b'1' + r as u8) as char;
        text.push(label);
        text.push(' ');
        for &f in &files {
            let s = Square::from_coords(f, r);
            let (open, close) = if is_marked(s) { ('[', ']') } else { (' ', ' ') };
            // An emptied from-square shows as "[ ]": the brackets are the mark.
            let piece = board.at(s);
            let g = if piece == EMPTY && is_marked(s) {
                ' '
            } else {
                glyph(piece, ascii)
            };
            text.push(open);
            text.push(g);
            text.push(close);
        }
        text.push(' ');
        text.push(label);
        text.push('\n');
    }
    text.push_str(&header);
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_move;

    #[test]
    fn grid_of_the_start_position() {
        let text = render(&Board::startpos(), &Diagram::GRID);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 18);
        assert_eq!(lines[0], " +---+---+---+---+---+---+---+---+");
        assert_eq!(lines[1], " | r | n | b | q | k | b | n | r | 8");
        assert_eq!(lines[7], " |   |   |   |   |   |   |   |   | 5");
        assert_eq!(lines[15], " | R | N | B | Q | K | B | N | R | 1");
        assert_eq!(lines[17], "   a   b   c   d   e   f   g   h");
    }

    #[test]
    fn board_orientation_and_marks() {
        let mut b = Board::startpos();
        b.make(parse_move(&b, "e4").unwrap());
        let white = render(&b, &Diagram::play(Color::White, true));
        let lines: Vec<&str> = white.lines().collect();
        assert_eq!(lines[0].trim(), "a  b  c  d  e  f  g  h");
        assert_eq!(lines[1], "8  r  n  b  q  k  b  n  r  8");
        assert!(lines[5].contains("[P]"), "{white}");
        assert!(lines[7].contains("[ ]"), "{white}");
        let black = render(&b, &Diagram::play(Color::Black, false));
        let lines: Vec<&str> = black.lines().collect();
        assert_eq!(lines[0].trim(), "h  g  f  e  d  c  b  a");
        assert!(lines[1].starts_with("1 ") && lines[1].contains('♔'));
        assert!(lines[8].starts_with("8 ") && lines[8].contains('♚'));
    }

    #[test]
    fn castling_marks_the_king_destination() {
        let mut b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        b.make(parse_move(&b, "O-O").unwrap());
        let (from, to) = marked_squares(&b).unwrap();
        assert_eq!(
            (square_name(from), square_name(to)),
            ("e1".into(), "g1".into())
        );
    }
}
