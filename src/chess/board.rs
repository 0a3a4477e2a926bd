//! The 120-cell board: position state, make/unmake, the board's attack
//! tests, hashing, draws. The keys live in [`crate::chess::zobrist`], the
//! ray walk and the square-difference tables in [`crate::chess::attacks`].
//!
//! `Board` keeps, beside the cells, everything a move changes: side to move,
//! castling rights, en-passant square, the two move counters, a Zobrist key
//! and the material balance (the plain sum of the piece codes on the board,
//! the seed design's "balance"), all updated incrementally. Piece lists (one
//! per colour, king always first) let the generator and evaluation skip the
//! empty cells; `index` maps a square to its slot in its colour's list.
//!
//! make/unmake keep an internal undo stack, which doubles as the history of
//! position keys used to detect repetitions.

use crate::chess::attacks::{distance, first_piece, first_piece_lifting, knight_jump, slider_step};
use crate::chess::bitboard::{
    bishop_attacks, bit, pawn_attacks_each_way, rook_attacks, Bitboard, KING_ATTACKS,
    KNIGHT_ATTACKS,
};
use crate::chess::types::*;
use crate::chess::zobrist::{castling_key, ep_key, piece_key, side_key, PAWN_KEY_SALT};

/// Castling right bits: White king side, White queen side, Black king side,
/// Black queen side.
pub const WHITE_OO: u8 = 1;
pub const WHITE_OOO: u8 = 2;
pub const BLACK_OO: u8 = 4;
pub const BLACK_OOO: u8 = 8;
pub const ALL_CASTLING: u8 = 15;

/// Index of a castling right bit (0..4) for a colour and side.
#[inline(always)]
pub const fn castle_index(color: Color, king_side: bool) -> usize {
    color.index() * 2 + if king_side { 0 } else { 1 }
}

/// Most pieces a side may have.
pub const MAX_PIECES: usize = 16;
/// Most pieces of one kind a side can have: two plus eight promoted.
pub const MAX_OF_KIND: usize = 10;
/// Number of piece lists: six kinds for each colour.
const LISTS: usize = 12;

/// [`list_index`] of `color`'s pieces of `kind` (a kind, not a signed
/// code): folds to a constant offset when `kind` is one.
#[inline(always)]
const fn list_of(color: Color, kind: Piece) -> usize {
    color.index() * 6 + kind_index(kind)
}

/// Earlier occurrences of the position that make a threefold repetition.
const REPETITION_DRAW: usize = 2;
/// Half-moves without a capture or pawn move that draw by the fifty-move rule.
const FIFTY_MOVE_PLIES: u32 = 100;

/// How a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side given won by mate.
    Checkmate(Color),
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
}

impl Outcome {
    /// The PGN result token.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate(Color::White) => "1-0",
            Outcome::Checkmate(Color::Black) => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// White's score: 1, 0.5 or 0.
    pub fn white_score(self) -> f32 {
        match self {
            Outcome::Checkmate(Color::White) => 1.0,
            Outcome::Checkmate(Color::Black) => 0.0,
            _ => 0.5,
        }
    }
}

/// Everything make changes that unmake cannot recompute.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Piece,
    /// Slot the captured piece had in its piece list.
    captured_slot: u8,
    /// Slot a promoting pawn had in the pawn list.
    promo_slot: u8,
    castling: u8,
    ep: u8,
    halfmove: u16,
    material: i32,
    hash: u64,
    pawn_key: u64,
    non_pawn_keys: [u64; 2],
    occupied: u64,
}

impl Undo {
    /// The record of `board` as it stands before `mv` (`Move::NONE` for a
    /// null move) is made: nothing captured, no promotion slot yet.
    #[inline(always)]
    fn before(board: &Board, mv: Move) -> Undo {
        Undo {
            mv,
            captured: EMPTY,
            captured_slot: 0,
            promo_slot: 0,
            castling: board.castling,
            ep: board.ep.byte(),
            halfmove: board.halfmove,
            material: board.material,
            hash: board.hash,
            pawn_key: board.pawn_key,
            non_pawn_keys: board.non_pawn_keys,
            occupied: board.occupied,
        }
    }
}

/// A chess position on the 10x12 mailbox, with its move history.
#[derive(Clone)]
pub struct Board {
    pub(crate) cells: [Piece; CELLS],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// En-passant target square, or 0. Set only when a pawn of the side to
    /// move stands ready to capture, so equal positions hash equally.
    pub(crate) ep: Square,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
    /// [`Board::pawn_key`], kept up to date by make and unmake.
    pub(crate) pawn_key: u64,
    /// [`Board::non_pawn_key`] of each colour (White first), kept up to
    /// date by make and unmake.
    pub(crate) non_pawn_keys: [u64; 2],
    pub(crate) material: i32,
    /// The occupied squares as a bitboard (bit `s.sq64()` for square `s`),
    /// kept up to date by make and unmake: the move generator finds the
    /// first piece along a line from it instead of walking the empty cells.
    pub(crate) occupied: u64,
    /// Squares of the pieces of each code, by [`list_index`].
    pub(crate) plist: [[u8; MAX_OF_KIND]; LISTS],
    /// Length of each piece list: the number of pieces of that code.
    pub(crate) pcount: [u8; LISTS],
    /// Slot of the piece on each square in its list.
    pub(crate) index: [u8; CELLS],
    /// Home square of the rook of each castling right (0 = none).
    pub(crate) castle_rook: [Square; 4],
    /// Rights kept when a piece moves from or to each square.
    pub(crate) castle_mask: [u8; CELLS],
    pub(crate) chess960: bool,
    stack: Vec<Undo>,
}

/// The squares of one piece list, in list order: what
/// [`Board::squares`] and [`Board::piece_squares`] give. The lists keep each
/// square in a byte ([`Square::byte`]).
#[derive(Clone, Debug)]
pub struct PieceSquares<'a>(std::slice::Iter<'a, u8>);

impl Iterator for PieceSquares<'_> {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.next().map(|&b| Square::from_byte(b))
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for PieceSquares<'_> {}

impl Board {
    /// An empty board (no pieces, White to move): a scratch base for FEN
    /// parsing. Not a legal position until pieces are added.
    pub(crate) fn empty() -> Board {
        let mut cells = [OFF_BOARD; CELLS];
        for i in Sq64::all() {
            cells[i.cell()] = EMPTY;
        }
        Board {
            cells,
            side: Color::White,
            castling: 0,
            ep: Square::NONE,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            material: 0,
            occupied: 0,
            plist: [[Square::NONE.byte(); MAX_OF_KIND]; LISTS],
            pcount: [0; LISTS],
            index: [0; CELLS],
            castle_rook: [Square::NONE; 4],
            castle_mask: [ALL_CASTLING; CELLS],
            chess960: false,
            stack: Vec::with_capacity(256),
        }
    }

    // ----- accessors -----------------------------------------------------

    /// The occupied squares, as a 64-square set (bit `s.sq64()` for `s`).
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The code on a mailbox cell.
    #[inline(always)]
    pub fn at(&self, s: Square) -> Piece {
        self.cells[s]
    }

    /// All 120 cells.
    #[inline(always)]
    pub fn cells(&self) -> &[Piece; CELLS] {
        &self.cells
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// En-passant target square, if a capture there is possible.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep != Square::NONE).then_some(self.ep)
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Zobrist key of the position.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The position key `make(mv)` would leave, worked out without making
    /// the move, for the search to prefetch the child's hash-table bucket
    /// while it still decides whether to play it. Exact for a move or
    /// capture of a piece that neither promotes nor changes the castling
    /// rights nor lets an en-passant capture follow; for the others
    /// (castling, en passant, promotions, some double pushes, king and
    /// rook moves with rights) it may differ, which costs a prefetch of
    /// the wrong line and nothing else.
    #[inline(always)]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.cells[from];
        let mut key = self.hash ^ side_key() ^ piece_key(piece, from) ^ piece_key(piece, to);
        if self.ep != Square::NONE {
            key ^= ep_key(self.ep);
        }
        let captured = self.cells[to];
        if captured != EMPTY {
            key ^= piece_key(captured, to);
        }
        key
    }

    /// Sum of all piece codes on the board (White's material minus Black's
    /// in the rough units of the codes; the kings cancel).
    #[inline(always)]
    pub fn material(&self) -> i32 {
        self.material
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_byte(self.plist[list_of(color, KING)][0])
    }

    /// Zobrist key of the pawns alone, for a pawn-structure cache. Never
    /// zero (an empty cache slot), even without pawns. Kept by make and
    /// unmake.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Zobrist key of one colour's pieces other than pawns (its king
    /// included), for tables that learn about piece placements. Kept by
    /// make and unmake.
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color as usize]
    }

    /// [`Board::non_pawn_key`] of both colours computed from the piece
    /// lists.
    pub fn compute_non_pawn_keys(&self) -> [u64; 2] {
        let mut keys = [0; 2];
        for color in [Color::White, Color::Black] {
            for kind in [KNIGHT, BISHOP, ROOK, QUEEN, KING] {
                let piece = color.piece(kind);
                for s in self.squares(piece) {
                    keys[color as usize] ^= piece_key(piece, s);
                }
            }
        }
        keys
    }

    /// [`Board::pawn_key`] computed from the pawn lists.
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = PAWN_KEY_SALT;
        for pawn in [PAWN, -PAWN] {
            for s in self.squares(pawn) {
                key ^= piece_key(pawn, s);
            }
        }
        key
    }

    /// Squares of the pieces with code `piece` (e.g. `-KNIGHT` for Black's
    /// knights).
    #[inline(always)]
    pub fn squares(&self, piece: Piece) -> PieceSquares<'_> {
        let l = list_index(piece);
        PieceSquares(self.plist[l][..self.pcount[l] as usize].iter())
    }

    /// Squares of `color`'s pieces of `kind`: [`Board::squares`] of
    /// `color.piece(kind)`, with the list found without a look-up.
    #[inline(always)]
    pub fn piece_squares(&self, color: Color, kind: Piece) -> PieceSquares<'_> {
        let l = list_of(color, kind);
        PieceSquares(self.plist[l][..self.pcount[l] as usize].iter())
    }

    /// How many pieces of `kind` `color` has.
    #[inline(always)]
    pub fn count(&self, color: Color, kind: Piece) -> u32 {
        self.pcount[list_of(color, kind)] as u32
    }

    /// How many pieces (king included) `color` has.
    #[inline]
    pub fn piece_count(&self, color: Color) -> u32 {
        KINDS.iter().map(|&k| self.count(color, k)).sum()
    }

    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches how castling is read and written (king takes rook in 960).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Home square of the rook for a castling right index (see
    /// [`castle_index`]), if that right exists.
    #[inline(always)]
    pub fn castle_rook(&self, right: usize) -> Option<Square> {
        (self.castling & (1 << right) != 0).then_some(self.castle_rook[right])
    }

    /// Number of moves made since the position was set up.
    pub fn ply_count(&self) -> usize {
        self.stack.len()
    }

    /// The moves made since the position was set up, oldest first.
    pub fn played_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.stack.iter().map(|u| u.mv)
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.stack.last().map(|u| u.mv)
    }

    /// Forgets the move history (the position stays). Keeps the undo stack
    /// from growing without bound in a long game; repetitions before this
    /// point are no longer seen, so call it only at irreversible moves.
    pub fn clear_history(&mut self) {
        self.stack.clear();
    }

    // ----- attacks and checks --------------------------------------------

    /// Every square `by` attacks (bits by [`Square::sq64`]): its pawns' diagonals,
    /// its knights' and king's steps and its sliders' lines up to the first
    /// piece, from the piece lists and the slider tables.
    pub fn attack_map(&self, by: Color) -> Bitboard {
        self.threat_levels(by)[3]
    }

    /// The squares `by` attacks, graded by the cheapest attacker: by a
    /// pawn, by a minor piece or less, by a rook or less, by anything
    /// (each set contains the one before; the last is [`Board::attack_map`]).
    pub fn threat_levels(&self, by: Color) -> [Bitboard; 4] {
        let mut pawns = 0;
        for s in self.piece_squares(by, PAWN) {
            pawns |= bit(s);
        }
        let (east, west) = pawn_attacks_each_way(pawns, by);
        let by_pawn = east | west;
        let mut minor = by_pawn;
        for s in self.piece_squares(by, KNIGHT) {
            minor |= KNIGHT_ATTACKS[s.sq64()];
        }
        let occupied = self.occupied;
        for s in self.piece_squares(by, BISHOP) {
            minor |= bishop_attacks(s.sq64(), occupied);
        }
        let mut rook = minor;
        for s in self.piece_squares(by, ROOK) {
            rook |= rook_attacks(s.sq64(), occupied);
        }
        let mut any = rook | KING_ATTACKS[self.king_square(by).sq64()];
        for s in self.piece_squares(by, QUEEN) {
            let q = s.sq64();
            any |= bishop_attacks(q, occupied) | rook_attacks(q, occupied);
        }
        [by_pawn, minor, rook, any]
    }

    /// True when `s` is attacked by `by`.
    #[inline(always)]
    pub fn is_attacked(&self, s: Square, by: Color) -> bool {
        self.attacked_lifting(s, by, Square::NONE)
    }

    /// True when `s` is attacked by `by`, with the cell `lifted` treated as
    /// empty (0 for none): a king stepping off a checking ray must not
    /// shield its own destination.
    ///
    /// Looks outward from `s` at the pawn cells, tests the enemy knights
    /// and king by distance, then, for each enemy slider on a line through
    /// `s`, walks only that line.
    #[inline(never)]
    pub fn attacked_lifting(&self, s: Square, by: Color, lifted: Square) -> bool {
        self.attacked_on(&self.cells, s, by, lifted)
    }

    /// [`Board::attacked_lifting`] on `cells`, a scratch copy of the board's
    /// cells on which only the other side's pieces and `by`'s pawns may
    /// have moved or been lifted: `by`'s other pieces are found from the
    /// board's piece lists.
    #[inline(always)]
    pub(crate) fn attacked_on(
        &self,
        cells: &[Piece; CELLS],
        s: Square,
        by: Color,
        lifted: Square,
    ) -> bool {
        let pawn = by.piece(PAWN);
        let behind = s.offset(-by.forward());
        if cells[behind.offset(EAST)] == pawn || cells[behind.offset(WEST)] == pawn {
            return true;
        }
        for n in self.piece_squares(by, KNIGHT) {
            if knight_jump(s, n) {
                return true;
            }
        }
        if distance(s, self.king_square(by)) == 1 {
            return true;
        }
        self.slider_reaches(cells, s, by, ROOK, lifted)
            || self.slider_reaches(cells, s, by, BISHOP, lifted)
            || self.slider_reaches(cells, s, by, QUEEN, lifted)
    }

    /// True when one of `by`'s sliders of `kind` attacks `s` on `cells`,
    /// the cell `lifted` seen as empty.
    #[inline(always)]
    fn slider_reaches(
        &self,
        cells: &[Piece; CELLS],
        s: Square,
        by: Color,
        kind: Piece,
        lifted: Square,
    ) -> bool {
        for from in self.piece_squares(by, kind) {
            let d = slider_step(kind, s, from);
            if d != 0 && first_piece_lifting(cells, s, d, lifted) == from {
                return true;
            }
        }
        false
    }

    /// True when the piece on `from` attacks `to` (along its own moves; the
    /// cells between a slider and `to` must be empty).
    pub fn attacks(&self, from: Square, to: Square) -> bool {
        let piece = self.cells[from];
        let Some(color) = color_of(piece) else {
            return false;
        };
        let d = from.delta(to);
        match kind_of(piece) {
            PAWN => d == color.forward() + EAST || d == color.forward() + WEST,
            KNIGHT => knight_jump(from, to),
            KING => distance(from, to) == 1,
            kind => {
                let step = slider_step(kind, from, to);
                if step == 0 {
                    return false;
                }
                // Looking back from `to`, the slider is the first piece.
                first_piece(&self.cells, to, -step) == from
            }
        }
    }

    /// Squares of the pieces giving check to the side to move.
    pub fn checkers(&self) -> Vec<Square> {
        let king = self.king_square(self.side);
        Sq64::all()
            .map(Sq64::cell)
            .filter(|&s| self.side.flip().owns(self.cells[s]) && self.attacks(s, king))
            .collect()
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king_square(self.side), self.side.flip())
    }

    /// True when `color`'s king is attacked.
    #[inline(always)]
    pub fn king_attacked(&self, color: Color) -> bool {
        self.is_attacked(self.king_square(color), color.flip())
    }

    // ----- piece list maintenance ----------------------------------------

    #[inline(always)]
    fn list_add(&mut self, piece: Piece, s: Square) {
        let l = list_index(piece);
        let n = self.pcount[l] as usize;
        debug_assert!(n < MAX_OF_KIND);
        self.plist[l][n] = s.byte();
        self.index[s] = n as u8;
        self.pcount[l] += 1;
    }

    /// Removes the piece on `s` from its list; returns the slot it had.
    #[inline(always)]
    fn list_remove(&mut self, piece: Piece, s: Square) -> u8 {
        let l = list_index(piece);
        let slot = self.index[s];
        let last = self.pcount[l] as usize - 1;
        let moved = self.plist[l][last];
        self.plist[l][slot as usize] = moved;
        self.index[Square::from_byte(moved)] = slot;
        self.pcount[l] -= 1;
        slot
    }

    /// Puts a removed piece back into the exact slot it had.
    #[inline(always)]
    fn list_restore(&mut self, piece: Piece, s: Square, slot: u8) {
        let l = list_index(piece);
        let n = self.pcount[l] as usize;
        if (slot as usize) < n {
            // The piece that filled the gap goes back to the end. (When the
            // removed piece was last, the cell past the end is stale.)
            let displaced = self.plist[l][slot as usize];
            self.plist[l][n] = displaced;
            self.index[Square::from_byte(displaced)] = n as u8;
        }
        self.plist[l][slot as usize] = s.byte();
        self.index[s] = slot;
        self.pcount[l] += 1;
    }

    #[inline(always)]
    fn list_move(&mut self, piece: Piece, from: Square, to: Square) {
        let slot = self.index[from];
        self.plist[list_index(piece)][slot as usize] = to.byte();
        self.index[to] = slot;
    }

    /// Places a piece on an empty square during set-up (FEN parsing).
    /// The caller keeps each list within `MAX_OF_KIND`.
    pub(crate) fn put(&mut self, piece: Piece, s: Square) {
        debug_assert_eq!(self.cells[s], EMPTY);
        self.cells[s] = piece;
        self.occupied |= bit(s);
        self.list_add(piece, s);
        self.material += piece as i32;
    }

    // ----- hashing ---------------------------------------------------------

    /// The Zobrist key computed from scratch (the incremental one must
    /// always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for s in Sq64::all().map(Sq64::cell) {
            let p = self.cells[s];
            if p != EMPTY {
                h ^= piece_key(p, s);
            }
        }
        h ^= castling_key(self.castling);
        if self.ep != Square::NONE {
            h ^= ep_key(self.ep);
        }
        if self.side == Color::Black {
            h ^= side_key();
        }
        h
    }

    /// True when a pawn of the side to move could capture on `target`
    /// (used to decide whether an en-passant square is worth keeping).
    pub(crate) fn ep_capturable(&self, target: Square) -> bool {
        let us = self.side;
        let pawn = us.piece(PAWN);
        let from_behind = target.offset(-us.forward());
        self.cells[from_behind.offset(EAST)] == pawn || self.cells[from_behind.offset(WEST)] == pawn
    }

    /// Recomputes hash and material after set-up.
    pub(crate) fn finish_setup(&mut self) {
        self.hash = self.compute_hash();
        self.pawn_key = self.compute_pawn_key();
        self.non_pawn_keys = self.compute_non_pawn_keys();
    }

    // ----- make / unmake ---------------------------------------------------

    /// Where the king and rook land when castling with the rook on
    /// `rook_from`: (king_to, rook_to).
    #[inline(always)]
    pub fn castle_targets(&self, king_from: Square, rook_from: Square) -> (Square, Square) {
        let rank = king_from.rank();
        if rook_from > king_from {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        } else {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        }
    }

    /// Plays a pseudo-legal move. The move may leave the mover's king in
    /// check: callers test `king_attacked(mover)` (or use only moves that
    /// passed a legality test) and unmake.
    pub fn make(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let from = mv.from();
        let to = mv.to();
        let piece = self.cells[from];
        debug_assert!(us.owns(piece), "make: no own piece on from in {mv:?}");

        let mut undo = Undo::before(self, mv);

        let mut hash = self.hash ^ side_key();
        if self.ep != Square::NONE {
            hash ^= ep_key(self.ep);
            self.ep = Square::NONE;
        }
        self.halfmove += 1;

        match mv.kind() {
            MoveKind::Castle => {
                let rook = us.piece(ROOK);
                let (king_to, rook_to) = self.castle_targets(from, to);
                let king_slot = self.index[from];
                let rook_slot = self.index[to];
                self.cells[from] = EMPTY;
                self.cells[to] = EMPTY;
                self.cells[king_to] = piece;
                self.cells[rook_to] = rook;
                self.occupied =
                    self.occupied & !(bit(from) | bit(to)) | bit(king_to) | bit(rook_to);
                self.plist[list_index(piece)][king_slot as usize] = king_to.byte();
                self.plist[list_index(rook)][rook_slot as usize] = rook_to.byte();
                self.index[king_to] = king_slot;
                self.index[rook_to] = rook_slot;
                let moved = piece_key(piece, from)
                    ^ piece_key(piece, king_to)
                    ^ piece_key(rook, to)
                    ^ piece_key(rook, rook_to);
                hash ^= moved;
                self.non_pawn_keys[us as usize] ^= moved;
            }
            kind => {
                let cap_sq = if kind == MoveKind::EnPassant {
                    to.offset(-us.forward())
                } else {
                    to
                };
                let captured = self.cells[cap_sq];
                if captured != EMPTY {
                    debug_assert!(them.owns(captured) && kind_of(captured) != KING);
                    undo.captured = captured;
                    undo.captured_slot = self.list_remove(captured, cap_sq);
                    self.cells[cap_sq] = EMPTY;
                    self.occupied &= !bit(cap_sq);
                    self.material -= captured as i32;
                    hash ^= piece_key(captured, cap_sq);
                    if kind_of(captured) == PAWN {
                        self.pawn_key ^= piece_key(captured, cap_sq);
                    } else {
                        self.non_pawn_keys[them as usize] ^= piece_key(captured, cap_sq);
                    }
                    self.halfmove = 0;
                }
                self.cells[from] = EMPTY;
                self.cells[to] = piece;
                self.occupied = self.occupied & !bit(from) | bit(to);
                self.list_move(piece, from, to);
                let moved = piece_key(piece, from) ^ piece_key(piece, to);
                hash ^= moved;
                if kind_of(piece) != PAWN {
                    self.non_pawn_keys[us as usize] ^= moved;
                } else {
                    self.halfmove = 0;
                    self.pawn_key ^= moved;
                    if kind == MoveKind::DoublePush {
                        let target = from.offset(us.forward());
                        // Keep the square only if a pawn can take there.
                        let pawn = them.piece(PAWN);
                        if self.cells[to.offset(EAST)] == pawn
                            || self.cells[to.offset(WEST)] == pawn
                        {
                            self.ep = target;
                            hash ^= ep_key(target);
                        }
                    } else if kind == MoveKind::Promotion {
                        let promoted = us.piece(mv.promo());
                        self.cells[to] = promoted;
                        undo.promo_slot = self.list_remove(piece, to);
                        self.list_add(promoted, to);
                        self.material += (promoted - piece) as i32;
                        hash ^= piece_key(piece, to) ^ piece_key(promoted, to);
                        self.pawn_key ^= piece_key(piece, to);
                        self.non_pawn_keys[us as usize] ^= piece_key(promoted, to);
                    }
                }
            }
        }

        let rights = self.castling & self.castle_mask[from] & self.castle_mask[to];
        if rights != self.castling {
            hash ^= castling_key(self.castling) ^ castling_key(rights);
            self.castling = rights;
        }

        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash = hash;
        self.stack.push(undo);
        debug_assert_eq!(self.hash, self.compute_hash(), "hash drift after {mv:?}");
        debug_assert_eq!(self.pawn_key, self.compute_pawn_key(), "pawn key drift");
        debug_assert_eq!(
            self.non_pawn_keys,
            self.compute_non_pawn_keys(),
            "non-pawn key drift"
        );
        debug_assert_eq!(self.occupied, self.compute_occupied(), "occupancy drift");
    }

    /// Takes back the last move made. Does nothing when there is none.
    pub fn unmake(&mut self) {
        let Some(undo) = self.stack.pop() else {
            return;
        };
        let mv = undo.mv;
        let them = self.side;
        let us = them.flip();
        self.side = us;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
        self.castling = undo.castling;
        self.ep = Square::from_byte(undo.ep);
        self.halfmove = undo.halfmove;
        self.material = undo.material;
        self.hash = undo.hash;
        self.pawn_key = undo.pawn_key;
        self.non_pawn_keys = undo.non_pawn_keys;
        self.occupied = undo.occupied;

        let from = mv.from();
        let to = mv.to();
        match mv.kind() {
            MoveKind::Castle => {
                let (king_to, rook_to) = self.castle_targets(from, to);
                let king = self.cells[king_to];
                let rook = self.cells[rook_to];
                let king_slot = self.index[king_to];
                let rook_slot = self.index[rook_to];
                self.cells[king_to] = EMPTY;
                self.cells[rook_to] = EMPTY;
                self.cells[from] = king;
                self.cells[to] = rook;
                self.plist[list_index(king)][king_slot as usize] = from.byte();
                self.plist[list_index(rook)][rook_slot as usize] = to.byte();
                self.index[from] = king_slot;
                self.index[to] = rook_slot;
            }
            kind => {
                let mut piece = self.cells[to];
                if kind == MoveKind::Promotion {
                    self.list_remove(piece, to);
                    piece = us.piece(PAWN);
                    self.list_restore(piece, to, undo.promo_slot);
                }
                self.cells[to] = EMPTY;
                self.cells[from] = piece;
                self.list_move(piece, to, from);
                if undo.captured != EMPTY {
                    let cap_sq = if kind == MoveKind::EnPassant {
                        to.offset(-us.forward())
                    } else {
                        to
                    };
                    self.cells[cap_sq] = undo.captured;
                    self.list_restore(undo.captured, cap_sq, undo.captured_slot);
                }
            }
        }
    }

    /// Passes the move (null move, for null-move pruning). Undo with
    /// [`Board::unmake_null`].
    pub fn make_null(&mut self) {
        let undo = Undo::before(self, Move::NONE);
        self.hash ^= side_key();
        if self.ep != Square::NONE {
            self.hash ^= ep_key(self.ep);
            self.ep = Square::NONE;
        }
        self.halfmove += 1;
        self.side = self.side.flip();
        self.stack.push(undo);
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        if let Some(undo) = self.stack.pop() {
            debug_assert!(undo.mv.is_none());
            self.side = self.side.flip();
            self.ep = Square::from_byte(undo.ep);
            self.halfmove = undo.halfmove;
            self.hash = undo.hash;
        }
    }

    // ----- draws -----------------------------------------------------------

    /// True when the current position occurred before since the last
    /// irreversible move, at least `times` times (1 = any repetition).
    pub fn repetitions(&self) -> usize {
        let mut found = 0;
        let reversible = (self.halfmove as usize).min(self.stack.len());
        let n = self.stack.len();
        let mut back = 4;
        while back <= reversible {
            if self.stack[n - back].hash == self.hash {
                found += 1;
            }
            back += 2;
        }
        found
    }

    /// True when the position repeated once within the search path since
    /// `root_ply` or twice in the whole history (the usual search rule).
    pub fn is_repetition(&self, root_ply: usize) -> bool {
        let n = self.stack.len();
        let mut reversible = (self.halfmove as usize).min(n);
        // A position before a null move (null-move pruning) is no earlier
        // occurrence of this one: stop the scan there.
        if let Some(null) = (n - reversible..n)
            .rev()
            .find(|&i| self.stack[i].mv.is_none())
        {
            reversible = n - 1 - null;
        }
        let mut found = 0;
        let mut back = 4;
        while back <= reversible {
            if self.stack[n - back].hash == self.hash {
                if n - back >= root_ply {
                    return true;
                }
                found += 1;
                if found >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// The end of the game by the rules, if it has ended. Mate and stalemate
    /// come first: a mate on the hundredth half-move still wins.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.in_check() {
                Outcome::Checkmate(self.side_to_move().flip())
            } else {
                Outcome::Stalemate
            });
        }
        if self.repetitions() >= REPETITION_DRAW {
            Some(Outcome::Repetition)
        } else if self.halfmove_clock() >= FIFTY_MOVE_PLIES {
            Some(Outcome::FiftyMoves)
        } else if self.insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else {
            None
        }
    }

    /// Neither side can possibly mate: K v K, K+minor v K, and kings with
    /// bishops all on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let (w, b) = (Color::White, Color::Black);
        for kind in [PAWN, ROOK, QUEEN] {
            if self.count(w, kind) + self.count(b, kind) > 0 {
                return false;
            }
        }
        let knights = self.count(w, KNIGHT) + self.count(b, KNIGHT);
        let bishops = self.count(w, BISHOP) + self.count(b, BISHOP);
        if knights + bishops <= 1 {
            return true;
        }
        if knights > 0 {
            return false;
        }
        // Only bishops: a draw when they all stand on one square colour.
        let shade = |s: Square| (s.file() + s.rank()) % 2;
        let mut shades = self.squares(BISHOP).chain(self.squares(-BISHOP)).map(shade);
        let first = shades.next();
        shades.all(|x| Some(x) == first)
    }

    /// The board seen from the other side: colours swapped, ranks mirrored.
    /// Evaluation must give the mirrored position the same score from the
    /// side to move's point of view.
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for s in Sq64::all().map(Sq64::cell) {
            let p = self.cells[s];
            if p != EMPTY {
                b.put(-p, s.mirror());
            }
        }
        b.side = self.side.flip();
        b.castling = (self.castling & 3) << 2 | (self.castling >> 2) & 3;
        for r in 0..4 {
            let src = r ^ 2;
            if self.castle_rook[src] != Square::NONE {
                b.castle_rook[r] = self.castle_rook[src].mirror();
            }
        }
        b.castle_mask = [ALL_CASTLING; CELLS];
        b.rebuild_castle_mask();
        b.ep = if self.ep != Square::NONE {
            self.ep.mirror()
        } else {
            Square::NONE
        };
        b.halfmove = self.halfmove;
        b.fullmove = self.fullmove;
        b.chess960 = self.chess960;
        b.finish_setup();
        b
    }

    /// Recomputes which squares clear which castling rights from the king
    /// and castling rook squares.
    pub(crate) fn rebuild_castle_mask(&mut self) {
        self.castle_mask = [ALL_CASTLING; CELLS];
        for color in [Color::White, Color::Black] {
            let king = self.king_square(color);
            for king_side in [true, false] {
                let r = castle_index(color, king_side);
                if self.castling & (1 << r) != 0 {
                    self.castle_mask[king] &= !(1 << r);
                    self.castle_mask[self.castle_rook[r]] &= !(1 << r);
                }
            }
        }
    }

    /// The occupied squares computed from the cells (the incremental
    /// [`Board::occupied`] must always equal it).
    pub fn compute_occupied(&self) -> u64 {
        Sq64::all()
            .filter(|&i| self.cells[i.cell()] != EMPTY)
            .fold(0, |o, i| o | i.bit())
    }

    /// Checks internal consistency (lists, counts, hash, material). For
    /// tests and debug assertions.
    pub fn is_consistent(&self) -> bool {
        let mut material = 0;
        let mut pcount = [0u8; LISTS];
        for s in Sq64::all().map(Sq64::cell) {
            let p = self.cells[s];
            if color_of(p).is_some() {
                material += p as i32;
                let l = list_index(p);
                pcount[l] += 1;
                let slot = self.index[s] as usize;
                if slot >= self.pcount[l] as usize || self.plist[l][slot] != s.byte() {
                    return false;
                }
            }
        }
        pcount == self.pcount
            && self.count(Color::White, KING) == 1
            && self.count(Color::Black, KING) == 1
            && material == self.material
            && self.occupied == self.compute_occupied()
            && self.hash == self.compute_hash()
            && self.pawn_key == self.compute_pawn_key()
            && self.non_pawn_keys == self.compute_non_pawn_keys()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl PartialEq for Board {
    /// Two boards are equal when they hold the same position (history is not
    /// compared).
    fn eq(&self, other: &Board) -> bool {
        self.cells == other.cells
            && self.side == other.side
            && self.castling == other.castling
            && self.castle_rook == other.castle_rook
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.hash == other.hash
            && self.material == other.material
            && self.pcount == other.pcount
            && (0..LISTS).all(|l| {
                let n = self.pcount[l] as usize;
                self.plist[l][..n] == other.plist[l][..n]
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_map_agrees_with_the_square_test() {
        let text = include_str!("../../tests/data/standard.epd");
        let mut positions = 0;
        for line in text.lines() {
            let fen = line.split(';').next().unwrap().trim();
            let Ok(board) = Board::from_fen(fen) else {
                continue;
            };
            positions += 1;
            for by in [Color::White, Color::Black] {
                let map = board.attack_map(by);
                for i in Sq64::all() {
                    let s = i.cell();
                    assert_eq!(
                        map & i.bit() != 0,
                        board.is_attacked(s, by),
                        "{fen}: square {i:?} by {by:?}"
                    );
                }
            }
        }
        assert!(positions > 100);
    }

    /// `key_after` gives the key `make` leaves for every move it promises
    /// to be exact for.
    #[test]
    fn key_after_predicts_the_key_of_plain_moves() {
        let text = include_str!("../../tests/data/standard.epd");
        let (mut plain, mut all) = (0, 0);
        for line in text.lines() {
            let fen = line.split(';').next().unwrap().trim();
            let Ok(mut board) = Board::from_fen(fen) else {
                continue;
            };
            for &mv in board.legal_moves().iter() {
                let predicted = board.key_after(mv);
                let rights = board.castling;
                board.make(mv);
                let promised = matches!(mv.kind(), MoveKind::Normal | MoveKind::DoublePush)
                    && board.castling == rights
                    && board.ep == Square::NONE;
                all += 1;
                if promised {
                    plain += 1;
                    assert_eq!(predicted, board.hash(), "{fen}: {mv:?}");
                }
                board.unmake();
            }
        }
        // The perft suite is rich in castling, en passant and promotions:
        // 954 of its 1,524 moves are plain.
        assert!(plain > 900, "{plain} plain moves of {all}");
    }

    #[test]
    fn threat_levels_grade_the_attackers() {
        // Black: pawn d5 (hits c4, e4), knight g4 (hits e3, f2, h2, e5,
        // f6, h6), rook a3 (the third rank to the knight on c3), queen h4.
        let board = Board::from_fen("4k3/8/8/3p4/6nq/r1N5/8/4K3 w - - 0 1").unwrap();
        let levels = board.threat_levels(Color::Black);
        let at = |name: &str| bit(parse_square(name).unwrap());
        for w in levels.windows(2) {
            assert_eq!(w[0] & !w[1], 0, "each level holds the one before");
        }
        assert_eq!(levels[3], board.attack_map(Color::Black));
        assert_ne!(levels[0] & at("e4"), 0);
        assert_eq!(levels[0] & at("e3"), 0);
        assert_ne!(levels[1] & at("e3"), 0);
        assert_eq!(levels[1] & at("b3"), 0);
        assert_ne!(levels[2] & at("b3"), 0);
        assert_eq!(levels[2] & at("h3"), 0);
        assert_ne!(levels[3] & at("h3"), 0);
    }

    #[test]
    fn checkers_are_all_named() {
        // Double check from a rook and a knight.
        let b = Board::from_fen("4k3/8/8/8/8/3n4/8/r3K2R w K - 0 1").unwrap();
        let mut c = b.checkers();
        c.sort_unstable();
        assert_eq!(c, vec![sq::A1, Square::from_coords(3, 2)]);
        assert!(Board::startpos().checkers().is_empty());
        // The suite's two bishops on one diagonal.
        let b = Board::from_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").unwrap();
        assert_eq!(b.checkers().len(), 2);
    }

    #[test]
    fn start_position_basics() {
        let b = Board::startpos();
        assert!(b.is_consistent());
        assert_eq!(b.material(), 0);
        assert_eq!(b.king_square(Color::White), sq::E1);
        assert_eq!(b.king_square(Color::Black), sq::E8);
        assert_eq!(b.count(Color::White, PAWN), 8);
        assert!(!b.in_check());
        assert!(b.is_attacked(Square::from_coords(4, 2), Color::White));
        assert!(!b.is_attacked(Square::from_coords(4, 3), Color::White));
    }
}
