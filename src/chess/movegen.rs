//! Pseudo-legal move generation from direction offsets, and the legality
//! test that looks outward from the king.
//!
//! Generation walks the side's piece list and the offset tables of
//! [`crate::chess::types`]. Legality never generates the opponent's moves: a
//! [`CheckInfo`], built by walking the eight rays and the knight and pawn
//! squares around the own king, names the checkers and the pinned pieces, so
//! that almost every pseudo-legal move is judged without being made. Only
//! king moves (an attack test on the destination) and en-passant captures
//! (an attack test on a scratch copy of the cells) need more.

use crate::chess::attacks::{
    attacked, direction, first_piece, first_piece_lifting, is_straight, knight_jump, slider_step,
};
use crate::chess::bitboard::{nearest_on_ray, ray_of_step};
use crate::chess::board::{castle_index, Board};
use crate::chess::types::*;
use arrayvec::ArrayVec;

/// Upper bound on the number of moves in a chess position (218 is the known
/// maximum for legal moves; pseudo-legal lists stay below this too).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Which moves a generator call produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Every pseudo-legal move.
    All,
    /// Captures (en passant included) and promotions: for quiescence.
    Captures,
    /// Everything else: non-capturing, non-promoting moves and castling.
    Quiets,
}

/// What the position around the side to move's king looks like.
#[derive(Clone, Debug)]
pub struct CheckInfo {
    pub king: Square,
    /// Number of pieces giving check (0, 1 or 2).
    pub checkers: u8,
    /// The checker when there is exactly one.
    pub checker: Square,
    /// Step from the king towards a sliding checker, 0 for a contact check.
    pub check_dir: isize,
    /// Own pieces pinned to the king, with the step from the king towards
    /// the pinner.
    pub pins: ArrayVec<(u8, i8), 8>,
}

impl CheckInfo {
    /// The pin direction of the piece on `s`, or 0 when it is not pinned.
    #[inline(always)]
    pub fn pin_dir(&self, s: Square) -> isize {
        for &(p, d) in &self.pins {
            if Square::from_byte(p) == s {
                return d as isize;
            }
        }
        0
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers > 0
    }
}

/// Where the generator puts the moves it finds: a list, or a counter that
/// judges each move in place (perft's last ply).
pub trait MoveSink {
    /// Whether the generator should add castling moves. A sink that
    /// judges castling itself (perft's counter) says no.
    const CASTLING: bool = true;

    fn add(&mut self, mv: Move);

    /// A step of the king (not castling): as [`MoveSink::add`] unless the
    /// sink treats king moves apart.
    #[inline(always)]
    fn add_king_step(&mut self, mv: Move) {
        self.add(mv);
    }

    /// An en-passant capture: as [`MoveSink::add`] unless the sink treats
    /// them apart.
    #[inline(always)]
    fn add_en_passant(&mut self, mv: Move) {
        self.add(mv);
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        // Capacity is never reached in a legal position; a corrupt position
        // loses moves rather than panicking.
        let _ = self.try_push(mv);
    }
}

/// Counts the legal moves among those generated. Castling is left to
/// [`Board::count_legal`], which reuses the king steps judged here.
/// `SIMPLE`: not in check and nothing pinned, so that every move but the
/// king's steps and en-passant captures is legal (a constant, so that the
/// generator's copy for this common case counts those with no test at all).
struct LegalCounter<'a, const SIMPLE: bool> {
    board: &'a Board,
    info: CheckInfo,
    count: usize,
    /// Squares the king's steps were tested on, by bit of the cell (not in
    /// check only), and those of them found attacked.
    king_tested: u128,
    king_attacked: u128,
}

impl<const SIMPLE: bool> MoveSink for LegalCounter<'_, SIMPLE> {
    const CASTLING: bool = false;

    /// Any move but a king step or an en-passant capture.
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        if SIMPLE {
            self.count += 1;
        } else {
            self.count += self.judge(mv) as usize;
        }
    }

    #[inline(always)]
    fn add_king_step(&mut self, mv: Move) {
        self.count += self.king_step(mv.to()) as usize;
    }

    #[inline(always)]
    fn add_en_passant(&mut self, mv: Move) {
        self.count += self.judge(mv) as usize;
    }
}

impl<const SIMPLE: bool> LegalCounter<'_, SIMPLE> {
    /// The full legality test, out of line: the simple case above is the
    /// common one, and inlining the test at every place the generator adds
    /// a move would bloat the generator.
    #[inline(never)]
    fn judge(&self, mv: Move) -> bool {
        self.board.is_legal_with(mv, &self.info)
    }

    /// Legality of a king step to `to` (as in [`Board::is_legal_with`]);
    /// out of check, the answer is kept for castling.
    #[inline(never)]
    fn king_step(&mut self, to: Square) -> bool {
        let them = self.board.side.flip();
        if self.info.checkers != 0 {
            return !self.board.attacked_lifting(to, them, self.info.king);
        }
        let attacked = self.board.attacked_lifting(to, them, Square::NONE);
        let bit = 1u128 << to.index();
        self.king_tested |= bit;
        if attacked {
            self.king_attacked |= bit;
        }
        !attacked
    }
}

/// Looks for one move among those generated.
struct Finder {
    wanted: Move,
    found: bool,
}

impl MoveSink for Finder {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        self.found |= mv == self.wanted;
    }
}

const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

/// A piece of the side not to move (`WHITE` is the side to move).
#[inline(always)]
fn enemy<const WHITE: bool>(c: Piece) -> bool {
    if WHITE {
        c < 0
    } else {
        c > 0 && c != OFF_BOARD
    }
}

/// An empty cell or one holding an enemy piece (the seed's one test).
#[inline(always)]
fn empty_or_enemy<const WHITE: bool>(c: Piece) -> bool {
    if WHITE {
        c <= 0
    } else {
        c >= 0 && c != OFF_BOARD
    }
}

/// A cell a knight or king step of `KIND` may land on.
#[inline(always)]
fn jump_target<const WHITE: bool, const KIND: u8>(c: Piece) -> bool {
    match KIND {
        ALL => empty_or_enemy::<WHITE>(c),
        CAPTURES => enemy::<WHITE>(c),
        _ => c == EMPTY,
    }
}

#[inline(always)]
fn push<S: MoveSink>(list: &mut S, mv: Move) {
    list.add(mv);
}

impl Board {
    /// Checkers and pins of the side to move, found by looking outward from
    /// its king.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let them = us.flip();
        let king = self.king_square(us);
        let cells = &self.cells;
        let mut info = CheckInfo {
            king,
            checkers: 0,
            checker: Square::NONE,
            check_dir: 0,
            pins: ArrayVec::new(),
        };
        let pawn = them.piece(PAWN);
        for side_step in [EAST, WEST] {
            let s = king.offset(us.forward() + side_step);
            if cells[s] == pawn {
                info.checkers += 1;
                info.checker = s;
            }
        }
        for s in self.piece_squares(them, KNIGHT) {
            if knight_jump(king, s) {
                info.checkers += 1;
                info.checker = s;
            }
        }
        // Only sliders on a line through the king can check or pin.
        for kind in [ROOK, BISHOP, QUEEN] {
            for from in self.piece_squares(them, kind) {
                let d = slider_step(kind, king, from);
                if d == 0 {
                    continue;
                }
                let first = first_piece(cells, king, d);
                if first == from {
                    info.checkers += 1;
                    info.checker = from;
                    info.check_dir = d;
                } else if us.owns(cells[first]) && first_piece(cells, first, d) == from {
                    info.pins.push((first.byte(), d as i8));
                }
            }
        }
        info
    }

    /// Appends the pseudo-legal moves of the side to move to `list`.
    ///
    /// Castling is generated only when it is fully legal (rights, empty
    /// squares, king not in check and not passing an attacked square).
    pub fn generate<S: MoveSink>(&self, kind: GenKind, list: &mut S) {
        // One specialised copy per colour and kind, so the colour tests and
        // the kind choices below fold into constants.
        match (self.side, kind) {
            (Color::White, GenKind::All) => self.gen::<S, true, ALL>(list),
            (Color::White, GenKind::Captures) => self.gen::<S, true, CAPTURES>(list),
            (Color::White, GenKind::Quiets) => self.gen::<S, true, QUIETS>(list),
            (Color::Black, GenKind::All) => self.gen::<S, false, ALL>(list),
            (Color::Black, GenKind::Captures) => self.gen::<S, false, CAPTURES>(list),
            (Color::Black, GenKind::Quiets) => self.gen::<S, false, QUIETS>(list),
        }
    }

    #[inline(always)]
    fn gen<S: MoveSink, const WHITE: bool, const KIND: u8>(&self, list: &mut S) {
        let us = if WHITE { Color::White } else { Color::Black };
        // One loop per piece kind: no per-piece dispatch.
        for s in self.piece_squares(us, PAWN) {
            self.pawn_moves::<S, WHITE, KIND>(s, list);
        }
        for s in self.piece_squares(us, KNIGHT) {
            self.jumps::<S, WHITE, KIND>(s, &KNIGHT_JUMPS, list);
        }
        for s in self.piece_squares(us, BISHOP) {
            self.slides::<S, WHITE, KIND>(s, &BISHOP_DIRS, list);
        }
        for s in self.piece_squares(us, ROOK) {
            self.slides::<S, WHITE, KIND>(s, &ROOK_DIRS, list);
        }
        for s in self.piece_squares(us, QUEEN) {
            self.slides::<S, WHITE, KIND>(s, &QUEEN_DIRS, list);
        }
        let king = self.king_square(us);
        self.king_steps::<S, WHITE, KIND>(king, list);
        if KIND != CAPTURES && S::CASTLING && self.castling != 0 {
            self.castling_moves(king, list);
        }
    }

    #[inline(always)]
    fn jumps<S: MoveSink, const WHITE: bool, const KIND: u8>(
        &self,
        s: Square,
        offsets: &[isize],
        list: &mut S,
    ) {
        for &j in offsets {
            let t = s.offset(j);
            if jump_target::<WHITE, KIND>(self.cells[t]) {
                push(list, Move::new(s, t, MoveKind::Normal));
            }
        }
    }

    /// The king's steps (castling apart): [`Board::jumps`] over the eight
    /// neighbours, handed to the sink as king steps.
    #[inline(always)]
    fn king_steps<S: MoveSink, const WHITE: bool, const KIND: u8>(&self, s: Square, list: &mut S) {
        for &j in &QUEEN_DIRS {
            let t = s.offset(j);
            if jump_target::<WHITE, KIND>(self.cells[t]) {
                list.add_king_step(Move::new(s, t, MoveKind::Normal));
            }
        }
    }

    #[inline(always)]
    fn slides<S: MoveSink, const WHITE: bool, const KIND: u8>(
        &self,
        s: Square,
        dirs: &[isize],
        list: &mut S,
    ) {
        if KIND == CAPTURES {
            // Only the first piece on each line matters: found from the
            // occupancy, without walking the empty cells (same order).
            let from = s.sq64();
            for &d in dirs {
                let blockers = ray_of_step(d, from) & self.occupied;
                if blockers != 0 {
                    let t = nearest_on_ray(d, blockers).cell();
                    if enemy::<WHITE>(self.cells[t]) {
                        push(list, Move::new(s, t, MoveKind::Normal));
                    }
                }
            }
            return;
        }
        for &d in dirs {
            let mut t = s.offset(d);
            while self.cells[t] == EMPTY {
                if KIND != CAPTURES {
                    push(list, Move::new(s, t, MoveKind::Normal));
                }
                t = t.offset(d);
            }
            if KIND != QUIETS && enemy::<WHITE>(self.cells[t]) {
                push(list, Move::new(s, t, MoveKind::Normal));
            }
        }
    }

    #[inline(always)]
    fn pawn_moves<S: MoveSink, const WHITE: bool, const KIND: u8>(&self, s: Square, list: &mut S) {
        let fwd = if WHITE { NORTH } else { SOUTH };
        let rank = if WHITE { s.rank() } else { 7 - s.rank() };
        let promoting = rank == 6;
        let one = s.offset(fwd);
        // Pushes.
        if self.cells[one] == EMPTY {
            if promoting {
                if KIND != QUIETS {
                    for p in PROMOTION_KINDS {
                        push(list, Move::promotion(s, one, p));
                    }
                }
            } else if KIND != CAPTURES {
                push(list, Move::new(s, one, MoveKind::Normal));
                let two = one.offset(fwd);
                if rank == 1 && self.cells[two] == EMPTY {
                    push(list, Move::new(s, two, MoveKind::DoublePush));
                }
            }
        }
        if KIND == QUIETS {
            return;
        }
        // Captures.
        for side_step in [WEST, EAST] {
            let t = one.offset(side_step);
            if enemy::<WHITE>(self.cells[t]) {
                if promoting {
                    for p in PROMOTION_KINDS {
                        push(list, Move::promotion(s, t, p));
                    }
                } else {
                    push(list, Move::new(s, t, MoveKind::Normal));
                }
            } else if t == self.ep && self.ep != Square::NONE {
                list.add_en_passant(Move::new(s, t, MoveKind::EnPassant));
            }
        }
    }

    /// Fully legal castling moves (king takes own rook encoding).
    fn castling_moves<S: MoveSink>(&self, king: Square, list: &mut S) {
        let us = self.side;
        for king_side in [true, false] {
            let right = castle_index(us, king_side);
            if self.castling & (1 << right) == 0 {
                continue;
            }
            let rook_from = self.castle_rook[right];
            if self.castle_path_clear(king, rook_from) && self.castle_path_safe(king, rook_from) {
                push(list, Move::new(king, rook_from, MoveKind::Castle));
            }
        }
    }

    /// Every square the king and rook cross or land on is empty, apart from
    /// the king and the castling rook themselves.
    fn castle_path_clear(&self, king: Square, rook_from: Square) -> bool {
        let (king_to, rook_to) = self.castle_targets(king, rook_from);
        let lo = king.min(rook_from).min(king_to).min(rook_to);
        let hi = king.max(rook_from).max(king_to).max(rook_to);
        (lo.index()..=hi.index())
            .map(Square::new)
            .all(|s| s == king || s == rook_from || self.cells[s] == EMPTY)
    }

    /// The king is not in check and no square it crosses or lands on is
    /// attacked: [`Board::castle_squares_safe`] after a test of the king's
    /// own square.
    fn castle_path_safe(&self, king: Square, rook_from: Square) -> bool {
        !self.attacked_lifting(king, self.side.flip(), Square::NONE)
            && self.castle_squares_safe(king, rook_from, |_| None)
    }

    /// For a king not in check: no square the king crosses or lands on is
    /// attacked. `known` may answer for a square the king crosses (whether
    /// it is attacked, on the board as it stands) when that was already
    /// found out.
    ///
    /// Only the destination is tested with the castling rook lifted off
    /// the board, so that a rook shielding it (possible in Chess960) is
    /// seen to move away; the squares crossed are tested as they stand.
    /// That is enough: every square tested lies on the king's rank, so
    /// only an attacker on that rank, on the far side of the rook, can see
    /// a crossed square through the lifted rook. Such an attacker stands
    /// beyond the cleared span of king, rook and their destinations, so
    /// the king's destination lies between it and the square, and the
    /// same line reaches the destination. Lifting the king opens nothing:
    /// a line through the king's square to a square on its rank is the
    /// rank, and an attacker on it beyond the king would be giving check.
    #[inline(always)]
    fn castle_squares_safe(
        &self,
        king: Square,
        rook_from: Square,
        known: impl Fn(Square) -> Option<bool>,
    ) -> bool {
        let them = self.side.flip();
        let (king_to, _) = self.castle_targets(king, rook_from);
        let (lo, hi) = (king.min(king_to), king.max(king_to));
        // The squares strictly between king and destination first: often
        // known already.
        (lo.index() + 1..hi.index())
            .map(Square::new)
            .all(|s| !known(s).unwrap_or_else(|| self.attacked_lifting(s, them, Square::NONE)))
            && !self.attacked_lifting(king_to, them, rook_from)
    }

    /// Legality of a pseudo-legal move of the side to move, judged from the
    /// check info without making the move.
    #[inline(always)]
    pub fn is_legal_with(&self, mv: Move, info: &CheckInfo) -> bool {
        let from = mv.from();
        let to = mv.to();
        let them = self.side.flip();
        if from == info.king {
            if mv.is_castle() {
                return true; // checked in full when generated
            }
            // In check, the king must not stay on the checking ray: test
            // with the king lifted off.
            let lifted = if info.checkers == 0 {
                Square::NONE
            } else {
                from
            };
            return !self.attacked_lifting(to, them, lifted);
        }
        if mv.kind() == MoveKind::EnPassant {
            return self.en_passant_legal(mv, info.king);
        }
        if info.checkers > 1 {
            return false;
        }
        let pin = info.pin_dir(from);
        if pin != 0 && direction(info.king, to) != pin {
            return false;
        }
        if info.checkers == 1 {
            // Capture the checker, or block a sliding check.
            if to == info.checker {
                return true;
            }
            if info.check_dir == 0 || direction(info.king, to) != info.check_dir {
                return false;
            }
            return info.king.delta(to).abs() < info.king.delta(info.checker).abs();
        }
        true
    }

    /// [`Board::is_legal_with`] for a side to move that is not in check,
    /// without the check info: only a piece on a line from its king can be
    /// pinned, so most moves need one table look-up, and a move along the
    /// line stays legal. Cheaper than building the check info when a node
    /// tries a few moves, as most do.
    #[inline(always)]
    pub fn is_legal_out_of_check(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let king = self.king_square(self.side);
        if from == king {
            return mv.is_castle() || !self.attacked_lifting(to, self.side.flip(), Square::NONE);
        }
        if mv.kind() == MoveKind::EnPassant {
            return self.en_passant_legal(mv, king);
        }
        let d = direction(king, from);
        d == 0 || direction(king, to) == d || !self.pinned_along(king, from, d)
    }

    /// Whether our piece on `from`, on the line from our king in step `d`,
    /// is pinned: nothing stands between them, and the first piece beyond
    /// it is an enemy slider that moves along that line.
    #[inline(never)]
    fn pinned_along(&self, king: Square, from: Square, d: isize) -> bool {
        if first_piece(&self.cells, king, d) != from {
            return false;
        }
        let beyond = self.cells[first_piece(&self.cells, from, d)];
        if !self.side.flip().owns(beyond) {
            return false;
        }
        let kind = kind_of(beyond);
        kind == QUEEN || kind == if is_straight(d) { ROOK } else { BISHOP }
    }

    /// Legality of an en-passant capture: played on a scratch copy of the
    /// cells, the two pawns leaving their squares may open a line to our
    /// king. Rare, so out of line.
    #[inline(never)]
    fn en_passant_legal(&self, mv: Move, king: Square) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let mut scratch = self.cells;
        let cap = to.offset(-self.side.forward());
        scratch[to] = scratch[from];
        scratch[from] = EMPTY;
        scratch[cap] = EMPTY;
        // Our pawn moved and theirs was taken: the board's lists still
        // name every other attacker.
        !self.attacked_on(&scratch, king, self.side.flip(), Square::NONE)
    }

    /// True when the legal move `mv` checks the opponent's king, judged
    /// without making it: the moved piece may attack the king from `to`
    /// (direct check), or leaving `from` may open a line from one of our
    /// sliders to the king (discovered check). Castling, en passant and
    /// promotions play the move on a scratch copy of the cells instead.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let king = self.king_square(us.flip());
        let (from, to) = (mv.from(), mv.to());
        if mv.kind() != MoveKind::Normal && mv.kind() != MoveKind::DoublePush {
            let mut scratch = self.cells;
            match mv.kind() {
                MoveKind::Castle => {
                    let (king_to, rook_to) = self.castle_targets(from, to);
                    scratch[from] = EMPTY;
                    scratch[to] = EMPTY;
                    scratch[king_to] = us.piece(KING);
                    scratch[rook_to] = us.piece(ROOK);
                }
                MoveKind::EnPassant => {
                    scratch[to.offset(-us.forward())] = EMPTY;
                    scratch[to] = scratch[from];
                    scratch[from] = EMPTY;
                }
                _ => {
                    scratch[to] = us.piece(mv.promo());
                    scratch[from] = EMPTY;
                }
            }
            return attacked(&scratch, king, us);
        }

        let cells = &self.cells;
        let piece = cells[from];
        let direct = match kind_of(piece) {
            PAWN => {
                to.offset(us.forward() + EAST) == king || to.offset(us.forward() + WEST) == king
            }
            KNIGHT => knight_jump(to, king),
            KING => false,
            kind => {
                let d = slider_step(kind, to, king);
                d != 0 && first_piece_lifting(cells, to, d, from) == king
            }
        };
        if direct {
            return true;
        }
        // Discovered: `from` is the first piece on a line out of the king,
        // `to` leaves that line, and behind `from` stands our slider.
        let d = direction(king, from);
        if d == 0 || direction(king, to) == d {
            return false;
        }
        if first_piece(cells, king, d) != from {
            return false;
        }
        let p = cells[first_piece(cells, from, d)];
        let slider = if is_straight(d) { ROOK } else { BISHOP };
        p == us.piece(slider) || p == us.piece(QUEEN)
    }

    /// Appends the legal moves of the side to move to `list`.
    pub fn generate_legal(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.generate(GenKind::All, &mut pseudo);
        let info = self.check_info();
        for mv in pseudo {
            if self.is_legal_with(mv, &info) {
                push(list, mv);
            }
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Number of legal moves, counted without making or storing any.
    pub fn count_legal(&self) -> usize {
        let info = self.check_info();
        if info.checkers == 0 && info.pins.is_empty() {
            self.count_legal_with::<true>(info)
        } else {
            self.count_legal_with::<false>(info)
        }
    }

    /// [`Board::count_legal`] once the check info is known, `SIMPLE` as
    /// for [`LegalCounter`].
    #[inline(always)]
    fn count_legal_with<const SIMPLE: bool>(&self, info: CheckInfo) -> usize {
        let mut counter = LegalCounter::<SIMPLE> {
            board: self,
            info,
            count: 0,
            king_tested: 0,
            king_attacked: 0,
        };
        self.generate(GenKind::All, &mut counter);
        let mut count = counter.count;
        if self.castling != 0 && counter.info.checkers == 0 {
            let king = counter.info.king;
            let known = |s: Square| {
                let bit = 1u128 << s.index();
                (counter.king_tested & bit != 0).then_some(counter.king_attacked & bit != 0)
            };
            for king_side in [true, false] {
                let right = castle_index(self.side, king_side);
                if self.castling & (1 << right) == 0 {
                    continue;
                }
                let rook_from = self.castle_rook[right];
                if self.castle_path_clear(king, rook_from)
                    && self.castle_squares_safe(king, rook_from, known)
                {
                    count += 1;
                }
            }
        }
        count
    }

    /// Full legality test for a move from outside (UCI, book, hash table):
    /// true only when `mv` is one of the position's legal moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_none() || !mv.from().is_real() || !mv.to().is_real() {
            return false;
        }
        if !self.side.owns(self.cells[mv.from()]) {
            return false;
        }
        self.legal_moves().contains(&mv)
    }

    /// True when `mv` is one of the pseudo-legal moves of the side to
    /// move (castling only when fully legal): the test a move from the hash
    /// table or a killer slot passes before it is tried without generating
    /// the whole list. Asks the generator for the moving piece's moves only,
    /// so it agrees with [`Board::generate`] by construction.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let from = mv.from();
        if mv.is_none() || !from.is_real() || !mv.to().is_real() {
            return false;
        }
        if !self.side.owns(self.cells[from]) {
            return false;
        }
        let mut finder = Finder {
            wanted: mv,
            found: false,
        };
        match self.side {
            Color::White => self.piece_moves::<Finder, true>(from, &mut finder),
            Color::Black => self.piece_moves::<Finder, false>(from, &mut finder),
        }
        finder.found
    }

    /// The pseudo-legal moves of the piece of the side to move on `s`.
    #[inline(always)]
    fn piece_moves<S: MoveSink, const WHITE: bool>(&self, s: Square, list: &mut S) {
        match kind_of(self.cells[s]) {
            PAWN => self.pawn_moves::<S, WHITE, ALL>(s, list),
            KNIGHT => self.jumps::<S, WHITE, ALL>(s, &KNIGHT_JUMPS, list),
            BISHOP => self.slides::<S, WHITE, ALL>(s, &BISHOP_DIRS, list),
            ROOK => self.slides::<S, WHITE, ALL>(s, &ROOK_DIRS, list),
            QUEEN => self.slides::<S, WHITE, ALL>(s, &QUEEN_DIRS, list),
            _ => {
                self.king_steps::<S, WHITE, ALL>(s, list);
                if self.castling != 0 {
                    self.castling_moves(s, list);
                }
            }
        }
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut pseudo = MoveList::new();
        self.generate(GenKind::All, &mut pseudo);
        let info = self.check_info();
        pseudo.iter().any(|&mv| self.is_legal_with(mv, &info))
    }

    /// True when the move captures something (en passant included).
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        match mv.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => self.cells[mv.to()] != EMPTY,
        }
    }

    /// Neither a capture nor a promotion: a move the history tables order
    /// and the quiet-move pruning may skip.
    #[inline(always)]
    pub fn is_quiet(&self, mv: Move) -> bool {
        !self.is_capture(mv) && mv.kind() != MoveKind::Promotion
    }

    /// The piece a move captures (`EMPTY` if none), en passant included.
    #[inline(always)]
    pub fn captured_piece(&self, mv: Move) -> Piece {
        match mv.kind() {
            MoveKind::EnPassant => self.side.flip().piece(PAWN),
            MoveKind::Castle => EMPTY,
            _ => self.cells[mv.to()],
        }
    }
}

#[cfg(test)]
mod tests {
    /// Out of check, judging a move alone agrees with the check info on
    /// every pseudo-legal move of every position two plies deep from the
    /// suite's tricky positions (pins, en passant, castling).
    #[test]
    fn legal_out_of_check_agrees_with_the_check_info() {
        use super::*;
        fn walk(board: &mut Board, depth: u32, tested: &mut usize) {
            let mut list = MoveList::new();
            board.generate(GenKind::All, &mut list);
            let info = board.check_info();
            for &mv in &list {
                let legal = board.is_legal_with(mv, &info);
                if !info.in_check() {
                    assert_eq!(
                        board.is_legal_out_of_check(mv),
                        legal,
                        "{} {mv:?}",
                        board.to_fen()
                    );
                    *tested += 1;
                }
                if legal && depth > 1 {
                    board.make(mv);
                    walk(board, depth - 1, tested);
                    board.unmake();
                }
            }
        }
        let mut tested = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3pP3/8/8/4K2B b - e3 0 1",
            "4k3/8/8/q2pP2K/8/8/8/8 w - d6 0 1",
        ] {
            walk(&mut Board::from_fen(fen).unwrap(), 3, &mut tested);
        }
        assert!(tested > 50_000, "{tested}");
    }

    /// The first piece on a line found from the occupancy (the capture
    /// generator's and SEE's way) is the one the mailbox walk meets, from
    /// every square in every direction, on every position two plies deep
    /// from the tricky positions; and the occupancy made and unmade move by
    /// move equals the one counted from the cells.
    #[test]
    fn occupancy_finds_the_first_piece_on_every_line() {
        use crate::chess::attacks::first_piece;
        fn lines(board: &mut Board, depth: u32, tested: &mut usize) {
            assert_eq!(
                board.occupied(),
                board.compute_occupied(),
                "{}",
                board.to_fen()
            );
            for i in Sq64::all() {
                let s = i.cell();
                for d in QUEEN_DIRS {
                    let blockers = ray_of_step(d, i) & board.occupied();
                    let walked = first_piece(board.cells(), s, d);
                    if board.at(walked) == OFF_BOARD {
                        assert_eq!(blockers, 0, "{} {s} {d}", board.to_fen());
                    } else {
                        assert_eq!(nearest_on_ray(d, blockers).cell(), walked);
                        *tested += 1;
                    }
                }
            }
            if depth > 0 {
                for mv in board.legal_moves() {
                    board.make(mv);
                    lines(board, depth - 1, tested);
                    board.unmake();
                }
            }
        }
        let mut tested = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3pP3/8/8/4K2B b - e3 0 1",
            "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
        ] {
            lines(&mut Board::from_fen(fen).unwrap(), 2, &mut tested);
        }
        assert!(tested > 1_000_000, "{tested}");
    }

    use super::*;

    fn legal_count(fen: &str) -> usize {
        Board::from_fen(fen).unwrap().legal_moves().len()
    }

    #[test]
    fn start_position_has_twenty_moves() {
        assert_eq!(legal_count(crate::chess::fen::START_FEN), 20);
    }

    #[test]
    fn pinned_pieces_stay_on_the_line() {
        // The e2 knight is pinned by the rook on e8: it has no move.
        let b = Board::from_fen("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        let info = b.check_info();
        assert_eq!(info.pin_dir(Square::from_coords(4, 1)), NORTH);
        assert!(b
            .legal_moves()
            .iter()
            .all(|m| m.from() != Square::from_coords(4, 1)));
        // A pinned rook may slide along the pin, up to and onto the pinner.
        let b = Board::from_fen("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1").unwrap();
        let rook_moves = b
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Square::from_coords(4, 1))
            .count();
        assert_eq!(rook_moves, 6);
    }

    #[test]
    fn en_passant_horizontal_pin() {
        // Taking en passant would expose the king on the fifth rank.
        let b = Board::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
        assert!(b
            .legal_moves()
            .iter()
            .all(|m| m.kind() != MoveKind::EnPassant));
    }

    #[test]
    fn evasions() {
        // Double check: only king moves.
        let b = Board::from_fen("4k3/8/8/8/8/3n4/8/r3K2R w K - 0 1");
        let b = b.unwrap();
        assert_eq!(b.check_info().checkers, 2);
        assert!(b.legal_moves().iter().all(|m| m.from() == sq::E1));
        // No castling out of check, and the king may not step back along
        // the checking ray.
        let b = Board::from_fen("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let moves = b.legal_moves();
        assert!(moves.iter().all(|m| !m.is_castle()));
        assert!(!moves.contains(&Move::new(
            sq::E1,
            Square::from_coords(4, 1),
            MoveKind::Normal
        )));
    }

    #[test]
    fn castling_through_attack_is_refused() {
        // f1 attacked by the bishop on c4: no O-O; O-O-O fine (b1 may be
        // attacked, the seed program's bug).
        let b = Board::from_fen("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1").unwrap();
        let castles: Vec<_> = b
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        assert_eq!(castles, vec![Move::new(sq::E1, sq::A1, MoveKind::Castle)]);
        let b = Board::from_fen("r3k2r/8/8/8/8/8/b7/R3K2R w KQkq - 0 1").unwrap();
        let castles: Vec<_> = b
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        assert_eq!(
            castles.len(),
            2,
            "b1 attacked does not stop O-O-O: {castles:?}"
        );
    }

    /// Every legal move of each position, judged by `gives_check` and by
    /// making it; the positions hold direct, discovered, castling,
    /// en-passant and promotion checks, and the test counts that each kind
    /// really occurs.
    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let fens = [
            // Each of the e5 knight's eight moves uncovers the b2 bishop.
            "7k/8/8/4N3/8/8/1B6/4K3 w - - 0 1",
            // O-O checks with the rook on f1; the king's own steps do not.
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            // e5xd6 en passant opens the fifth rank to the a5 rook.
            "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1",
            // Promotions: to a queen and a knight both check.
            "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1",
            // Pawn checks, and a king step uncovering the h1 rook's file.
            "8/8/3k4/8/2P5/8/8/R3K2R w KQ - 0 1",
            "7k/8/8/8/8/8/7K/7R w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let mut kinds = [0usize; 5];
        for (i, fen) in fens.into_iter().enumerate() {
            let mut b = Board::from_fen(fen).unwrap();
            if i == 0 {
                let checks = b
                    .legal_moves()
                    .iter()
                    .filter(|&&m| b.gives_check(m))
                    .count();
                assert_eq!(checks, 8, "discovered checks");
            }
            for mv in b.legal_moves() {
                b.make(mv);
                let checks = b.in_check();
                b.unmake();
                assert_eq!(b.gives_check(mv), checks, "{mv:?} in {fen}");
                if checks {
                    kinds[mv.kind() as usize] += 1;
                }
            }
        }
        // Normal, (double push may not), en passant, castle, promotion.
        assert!(
            kinds[0] > 10 && kinds[2] == 1 && kinds[3] >= 1 && kinds[4] >= 2,
            "{kinds:?}"
        );
    }

    #[test]
    fn pseudo_legal_test_agrees_with_the_generator() {
        // Every position of the perft suites (standard and Chess960) and
        // two plies below each: a move passes exactly when the generator
        // makes it, for the position's own moves and for every move of
        // the other positions (foreign moves, like a hash collision's).
        let text = concat!(
            include_str!("../../tests/data/standard.epd"),
            include_str!("../../tests/data/chess960.epd")
        );
        let mut boards = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap().trim();
            let Ok(b) = Board::from_fen(fen) else {
                continue;
            };
            for m in b.legal_moves().into_iter().step_by(5) {
                let mut c = b.clone();
                c.make(m);
                for r in c.legal_moves().into_iter().step_by(7) {
                    let mut d = c.clone();
                    d.make(r);
                    boards.push(d);
                }
                boards.push(c);
            }
            boards.push(b);
        }
        let mut foreign = Vec::new();
        for b in boards.iter().step_by(50) {
            let mut l = MoveList::new();
            b.generate(GenKind::All, &mut l);
            foreign.extend(l);
        }
        assert!(boards.len() > 1000 && foreign.len() > 10_000);
        let (mut yes, mut no) = (0, 0);
        for b in &boards {
            let mut own = MoveList::new();
            b.generate(GenKind::All, &mut own);
            for &m in own.iter().chain(foreign.iter().step_by(101)) {
                let expected = own.contains(&m);
                assert_eq!(b.is_pseudo_legal(m), expected, "{m:?} in {}", b.to_fen());
                if expected {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
            for bits in [0, 1, 0x7f, 0x3fff, u32::MAX] {
                assert!(!b.is_pseudo_legal(Move::from_bits(bits)));
            }
        }
        assert!(yes > 10_000 && no > 10_000, "{yes} {no}");
    }
}
