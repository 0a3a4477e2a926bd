//! Move ordering: the order in which a node tries its moves, and the
//! heuristics that learn it (killer moves and the history table).
//!
//! Order: the hash move, winning and equal captures (MVV-LVA, losing ones
//! found by SEE), the two killers, quiet moves by history, losing captures,
//! under-promotions last ([`crate::engine::picker`] hands a node's moves
//! out in this order). Imports the rules and SEE; the search owns one
//! [`MoveOrdering`] per thread.

use crate::chess::bitboard::{bit, Bitboard};
use crate::chess::board::Board;
use crate::chess::types::list_index;
use crate::chess::types::*;
use crate::engine::params::{HISTORY_BONUS_LIN, HISTORY_BONUS_MAX, HISTORY_BONUS_QUAD};
use crate::engine::see::{see, SEE_VALUE};

/// History scores stay within this bound (gravity pulls every update
/// toward zero in proportion to how far the score already is from it).
const HISTORY_MAX: i32 = 16_384;
/// Capture history's weight in a capture's key: MVV-LVA steps are
/// `8 * victim value`, so a full capture history moves a capture by about
/// one victim class.
const CAPTURE_HISTORY_DIVISOR: i32 = 8;
/// Lifts every capture key by the most capture history can take away, so
/// that a capture stays inside its band (SEE alone decides the band).
const CAPTURE_HISTORY_FLOOR: i32 = HISTORY_MAX / CAPTURE_HISTORY_DIVISOR;

// Move-ordering bands.
const ORDER_TT_MOVE: i32 = 30_000_000;
const ORDER_GOOD_CAPTURE: i32 = 20_000_000;
const ORDER_KILLER_1: i32 = 19_000_000;
const ORDER_KILLER_2: i32 = 18_900_000;
const ORDER_BAD_CAPTURE: i32 = -20_000_000;
const ORDER_UNDER_PROMOTION: i32 = -30_000_000;

/// Number of (piece, target square) keys: 12 pieces times 64 squares.
const PIECE_TO: usize = 12 * 64;
/// The key of "no move" (a null move, or before the root): a row of the
/// continuation table that stays zero.
pub const NO_PIECE_TO: usize = PIECE_TO;

/// The (piece, target) key of `mv` on `board` before it is made: what the
/// continuation histories remember of a move.
#[inline(always)]
pub fn piece_to(board: &Board, mv: Move) -> usize {
    list_index(board.at(mv.from())) * 64 + mv.to().sq64().index()
}

/// Whether an ordering key ranks below the killers: a quiet move by
/// history or a losing capture (the moves SEE pruning looks at).
#[inline(always)]
pub fn below_killers(key: i32) -> bool {
    key < ORDER_KILLER_2
}

/// Which of the four quiet histories `mv` belongs to, given the squares
/// the opponent attacks: whether it leaves an attacked square (2) and
/// whether it goes to one (1).
#[inline(always)]
fn threat_class(mv: Move, threats: Bitboard) -> usize {
    let hit = |s: Square| (threats & bit(s) != 0) as usize;
    2 * hit(mv.from()) + hit(mv.to())
}

/// What a quiet move's ordering key gains for taking a piece out of reach
/// of a cheaper attacker (and loses for stepping into it): a queen out of
/// a rook's or less, a rook out of a minor's or less, a minor out of a
/// pawn's; history units. Ordering only.
const ESCAPE_BONUS: [i32; 6] = [0, 8000, 8000, 12000, 24000, 0];
/// The threat level ([`Board::threat_levels`]) that menaces each kind.
const ESCAPE_LEVEL: [usize; 6] = [0, 0, 0, 1, 2, 0];

/// The escape bonus of the quiet move `mv` given the opponent's graded
/// attacks: positive when it leaves a square attacked by a cheaper piece
/// for one that is not, negative the other way round.
#[inline(always)]
fn escape(board: &Board, mv: Move, levels: &[Bitboard; 4]) -> i32 {
    let k = kind_index(kind_of(board.at(mv.from())));
    let menace = levels[ESCAPE_LEVEL[k]];
    let hit = |s: Square| (menace & bit(s) != 0) as i32;
    (hit(mv.from()) - hit(mv.to())) * ESCAPE_BONUS[k]
}

/// The bonus a move earns (or the malus it pays) at `depth`.
#[inline(always)]
fn history_bonus(depth: i32) -> i32 {
    // The bonus (`engine::params`) is large enough that a few cut-offs at
    // a real depth move a score by a visible share of its range.
    (HISTORY_BONUS_QUAD() * depth * depth + HISTORY_BONUS_LIN() * (depth - 1).max(0))
        .min(HISTORY_BONUS_MAX())
}

/// One gravity step of a history entry toward `delta`'s sign.
#[inline(always)]
fn nudge(h: i32, delta: i32) -> i32 {
    gravity(h, delta, HISTORY_MAX)
}

/// An entry bounded by `limit` moved by `delta`, less the nearer it already
/// is to the bound on that side (so it never leaves `[-limit, limit]` when
/// `|delta| <= limit`): the update of every history-like table.
#[inline(always)]
pub(crate) fn gravity(h: i32, delta: i32, limit: i32) -> i32 {
    h + delta - h * delta.abs() / limit
}

/// The moves made one and two plies before a node, as (piece, target)
/// keys ([`NO_PIECE_TO`] when there is none): the context of the
/// continuation histories.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub prev1: usize,
    pub prev2: usize,
    /// Every square the opponent of the side to move attacks
    /// ([`Board::attack_map`]), once [`Context::fill_threats`] has found
    /// them: quiet history is kept apart by whether a move leaves such a
    /// square and whether it goes to one.
    threats: Option<[Bitboard; 4]>,
}

impl Context {
    /// No earlier moves (the root).
    pub const ROOT: Context = Context {
        prev1: NO_PIECE_TO,
        prev2: NO_PIECE_TO,
        threats: None,
    };

    /// The context of a node whose last two moves were `prev1` and `prev2`
    /// (as (piece, target) keys), its threat map not yet found.
    pub fn new(prev1: usize, prev2: usize) -> Context {
        Context {
            prev1,
            prev2,
            threats: None,
        }
    }

    /// Finds the threat map of `board` (the position of this context) if
    /// not found yet: once a node, when its first quiet move needs it.
    #[inline(always)]
    pub fn fill_threats(&mut self, board: &Board) {
        if self.threats.is_none() {
            self.threats = Some(board.threat_levels(board.side_to_move().flip()));
        }
    }

    /// The threat map of `board`, found now if [`Context::fill_threats`]
    /// has not run.
    #[inline(always)]
    fn threats(&self, board: &Board) -> Bitboard {
        self.levels(board)[3]
    }

    /// The opponent's attacks graded by attacker ([`Board::threat_levels`]),
    /// found now if [`Context::fill_threats`] has not run.
    #[inline(always)]
    fn levels(&self, board: &Board) -> [Bitboard; 4] {
        match self.threats {
            Some(levels) => levels,
            None => board.threat_levels(board.side_to_move().flip()),
        }
    }
}

/// One search thread's ordering heuristics; they persist between searches
/// until [`MoveOrdering::clear`].
pub struct MoveOrdering {
    /// Two quiet moves per ply that last caused a cut-off there.
    killers: Vec<[Move; 2]>,
    /// Quiet-move history by threat class ([`threat_class`]), piece and
    /// target square.
    history: Box<[[[i32; CELLS]; 12]; 4]>,
    /// Continuation history: quiet-move history by the (piece, target) of
    /// the move one or two plies earlier (one table serves both, as the
    /// follow-up of a move and the reply to it share their statistics),
    /// then the (piece, target) of the move. Row `NO_PIECE_TO` stays zero.
    continuation: Vec<[i16; PIECE_TO]>,
    /// Capture history by piece, target square and captured kind.
    captures: Vec<[[i16; 6]; 64]>,
}

impl MoveOrdering {
    /// Empty heuristics for a search `plies` deep.
    pub fn new(plies: usize) -> MoveOrdering {
        MoveOrdering {
            killers: vec![[Move::NONE; 2]; plies],
            history: Box::new([[[0; CELLS]; 12]; 4]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO + 1],
            captures: vec![[[0; 6]; 64]; 12],
        }
    }

    /// Forgets killers and histories (a new game).
    pub fn clear(&mut self) {
        for k in &mut self.killers {
            *k = [Move::NONE; 2];
        }
        for row in self.history.iter_mut().flatten() {
            row.fill(0);
        }
        for row in self.continuation.iter_mut() {
            row.fill(0);
        }
        for row in self.captures.iter_mut() {
            row.fill([0; 6]);
        }
    }

    /// Whether `mv` is one of the killers of `ply`.
    #[inline(always)]
    pub fn is_killer(&self, ply: usize, mv: Move) -> bool {
        mv == self.killers[ply][0] || mv == self.killers[ply][1]
    }

    /// What the histories say of the quiet move `mv` in context `cx`: its
    /// own history plus both continuation histories (about -3 .. 3 times
    /// `HISTORY_MAX`). Orders quiets and scales their reductions.
    #[inline(always)]
    pub fn quiet_stat(&self, board: &Board, mv: Move, cx: Context) -> i32 {
        let key = piece_to(board, mv);
        self.history[threat_class(mv, cx.threats(board))][key / 64][mv.to()]
            + self.continuation[cx.prev1][key] as i32
            + self.continuation[cx.prev2][key] as i32
    }

    /// The ordering key of the quiet move `mv` in context `cx`: what the
    /// histories say ([`MoveOrdering::quiet_stat`]) and its escape bonus.
    #[inline(always)]
    pub fn quiet_key(&self, board: &Board, mv: Move, cx: Context) -> i32 {
        self.quiet_stat(board, mv, cx) + escape(board, mv, &cx.levels(board))
    }

    /// Killers and histories for a quiet move that caused a cut-off; the
    /// quiets tried before it lose what it gains.
    pub fn reward_quiet(
        &mut self,
        board: &Board,
        mv: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
        cx: Context,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let mut cx = cx;
        cx.fill_threats(board);
        let bonus = history_bonus(depth);
        self.update_quiet(board, mv, bonus, cx);
        for &m in tried {
            self.update_quiet(board, m, -bonus, cx);
        }
    }

    fn update_quiet(&mut self, board: &Board, mv: Move, delta: i32, cx: Context) {
        let key = piece_to(board, mv);
        let h = &mut self.history[threat_class(mv, cx.threats(board))][key / 64][mv.to()];
        *h = nudge(*h, delta);
        for prev in [cx.prev1, cx.prev2] {
            if prev != NO_PIECE_TO {
                let c = &mut self.continuation[prev][key];
                *c = nudge(*c as i32, delta) as i16;
            }
        }
    }

    /// Capture history after a cut-off at `depth`: the capture that cut
    /// (if it was one) gains, the captures tried before it lose.
    pub fn reward_captures(
        &mut self,
        board: &Board,
        cut: Option<Move>,
        depth: i32,
        tried: &[Move],
    ) {
        let bonus = history_bonus(depth);
        if let Some(mv) = cut {
            self.update_capture(board, mv, bonus);
        }
        for &m in tried {
            self.update_capture(board, m, -bonus);
        }
    }

    fn update_capture(&mut self, board: &Board, mv: Move, delta: i32) {
        let h = self.capture_entry(board, mv);
        let c = &mut self.captures[h.0][h.1][h.2];
        *c = nudge(*c as i32, delta) as i16;
    }

    /// Index of a capture (or queen promotion) in the capture history.
    #[inline(always)]
    fn capture_entry(&self, board: &Board, mv: Move) -> (usize, usize, usize) {
        let victim = board.captured_piece(mv);
        let kind = if victim == EMPTY {
            0
        } else {
            kind_index(kind_of(victim))
        };
        (
            list_index(board.at(mv.from())),
            mv.to().sq64().index(),
            kind,
        )
    }

    /// Ordering key of `mv` at `ply` in context `cx`: higher is tried
    /// first. (The root orders its list with it; interior nodes ask the
    /// staged [`crate::engine::picker::MovePicker`], which gives the same
    /// keys stage by stage.)
    pub fn score(&self, board: &Board, mv: Move, tt_move: Move, ply: usize, cx: Context) -> i32 {
        if mv == tt_move {
            return ORDER_TT_MOVE;
        }
        let promo = mv.promo();
        if promo != EMPTY && promo != QUEEN {
            return ORDER_UNDER_PROMOTION;
        }
        if board.captured_piece(mv) != EMPTY || promo == QUEEN {
            let key = self.capture_key(board, mv);
            return if good_capture(board, mv) {
                ORDER_GOOD_CAPTURE + key
            } else {
                ORDER_BAD_CAPTURE + key
            };
        }
        let k = &self.killers[ply];
        if mv == k[0] {
            return ORDER_KILLER_1;
        }
        if mv == k[1] {
            return ORDER_KILLER_2;
        }
        self.quiet_key(board, mv, cx)
    }

    /// A capture's (or queen promotion's) key within its band: MVV-LVA
    /// plus what capture history learned of it, always positive. The band
    /// ([`good_capture`]) is added by the caller.
    #[inline(always)]
    pub fn capture_key(&self, board: &Board, mv: Move) -> i32 {
        let (p, s, k) = self.capture_entry(board, mv);
        let learned = self.captures[p][s][k] as i32 / CAPTURE_HISTORY_DIVISOR;
        mvv_lva(board, mv) + CAPTURE_HISTORY_FLOOR + learned
    }

    /// The two killers of `ply`, the more recent first.
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }
}

/// The value a capture (or queen promotion) gains at once.
#[inline(always)]
fn gain(board: &Board, mv: Move) -> i32 {
    let victim = board.captured_piece(mv);
    (if victim == EMPTY {
        0
    } else {
        SEE_VALUE[kind_index(kind_of(victim))]
    }) + if mv.promo() == QUEEN { SEE_VALUE[4] } else { 0 }
}

/// Most valuable victim first, then least valuable attacker.
#[inline(always)]
fn mvv_lva(board: &Board, mv: Move) -> i32 {
    gain(board, mv) * 8 - kind_index(kind_of(board.at(mv.from()))) as i32
}

/// Whether a capture (or queen promotion) goes in the winning band: it
/// takes at least what it risks, or SEE says it does not lose material.
#[inline(always)]
pub fn good_capture(board: &Board, mv: Move) -> bool {
    SEE_VALUE[kind_index(kind_of(board.at(mv.from())))] <= gain(board, mv) || see(board, mv) >= 0
}

/// Ordering keys of the picker's stages (see [`MoveOrdering::score`]).
pub mod keys {
    use super::*;
    pub const TT_MOVE: i32 = ORDER_TT_MOVE;
    pub const KILLERS: [i32; 2] = [ORDER_KILLER_1, ORDER_KILLER_2];
    /// A capture's band, from its key and whether it is good.
    #[inline(always)]
    pub fn capture(key: i32, good: bool) -> i32 {
        key + if good {
            ORDER_GOOD_CAPTURE
        } else {
            ORDER_BAD_CAPTURE
        }
    }
    pub const UNDER_PROMOTION: i32 = ORDER_UNDER_PROMOTION;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn below_good_captures(key: i32) -> bool {
        key < ORDER_GOOD_CAPTURE
    }

    fn mv(text: &str, board: &Board) -> Move {
        crate::chess::notation::parse_move(board, text).expect("legal move")
    }

    #[test]
    fn bands_order_hash_captures_killers_history() {
        // Nc3xa4 wins a loose pawn; Qd1xd5 gives the queen for the pawn
        // that c6 guards.
        let board = Board::from_fen("4k3/8/2p5/3p4/p7/2N5/8/3QK3 w - - 0 1").unwrap();
        let mut o = MoveOrdering::new(4);
        let hash = mv("e1f2", &board);
        let good = mv("c3a4", &board);
        let bad = mv("d1d5", &board);
        let killer = mv("c3e4", &board);
        let quiet = mv("c3b5", &board);
        o.reward_quiet(&board, killer, 1, 3, &[], Context::ROOT);
        let s = |m| o.score(&board, m, hash, 1, Context::ROOT);
        assert!(s(hash) > s(good));
        assert!(s(good) > s(killer));
        assert!(s(killer) > s(quiet));
        assert!(s(quiet) > s(bad), "a capture SEE calls losing goes last");
        assert!(o.is_killer(1, killer) && !o.is_killer(2, killer));
        o.clear();
        assert!(!o.is_killer(1, killer));
    }

    #[test]
    fn history_rewards_the_cut_and_punishes_the_tried() {
        let board = Board::startpos();
        let mut o = MoveOrdering::new(4);
        let cut = mv("g1f3", &board);
        let tried = mv("b1c3", &board);
        for _ in 0..50 {
            o.reward_quiet(&board, cut, 0, 12, &[tried], Context::ROOT);
        }
        let (c, t) = (
            o.score(&board, cut, Move::NONE, 3, Context::ROOT),
            o.score(&board, tried, Move::NONE, 3, Context::ROOT),
        );
        assert!(c > 0 && t < 0);
        assert!(
            c <= HISTORY_MAX && t >= -HISTORY_MAX,
            "gravity keeps history bounded"
        );
    }

    #[test]
    fn quiet_history_is_kept_apart_by_threats() {
        let mut o = MoveOrdering::new(4);
        let start = Board::startpos();
        let nf3 = mv("g1f3", &start);
        o.reward_quiet(&start, nf3, 1, 8, &[], Context::ROOT);
        let learned = o.quiet_stat(&start, nf3, Context::ROOT);
        assert!(learned > 0);
        // A black pawn on a5 attacks neither g1 nor f3: the same history.
        let far =
            Board::from_fen("rnbqkbnr/1ppppppp/8/p7/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2").unwrap();
        assert_eq!(o.quiet_stat(&far, nf3, Context::ROOT), learned);
        // One on e4 attacks f3: the knight would go to an attacked square,
        // which the history learned nothing of.
        let near =
            Board::from_fen("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2").unwrap();
        assert_eq!(o.quiet_stat(&near, nf3, Context::ROOT), 0);
    }

    #[test]
    fn a_quiet_move_out_of_a_cheaper_attack_comes_first() {
        // The black pawn on e5 hits the white knight on f4 and d4.
        let board = Board::from_fen("4k3/8/8/4p3/5N2/8/8/4K3 w - - 0 1").unwrap();
        let o = MoveOrdering::new(4);
        let key = |m| o.quiet_key(&board, mv(m, &board), Context::ROOT);
        assert_eq!(key("f4h5"), ESCAPE_BONUS[kind_index(KNIGHT)]);
        assert_eq!(key("f4d3"), ESCAPE_BONUS[kind_index(KNIGHT)]);
        // The king's move neither escapes nor walks into a pawn's reach.
        assert_eq!(key("e1e2"), 0);
        // Into the pawn's reach from a square it does not hit: the malus.
        let safe = Board::from_fen("4k3/8/8/4p3/8/8/4N3/4K3 w - - 0 1").unwrap();
        let key = |m| o.quiet_key(&safe, mv(m, &safe), Context::ROOT);
        assert_eq!(key("e2d4"), -ESCAPE_BONUS[kind_index(KNIGHT)]);
        assert_eq!(key("e2c3"), 0);
    }

    #[test]
    fn continuation_history_belongs_to_its_context() {
        let board = Board::startpos();
        let mut o = MoveOrdering::new(4);
        let after_e4 =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let reply = mv("g8f6", &after_e4);
        let e4 = piece_to(&board, mv("e2e4", &board));
        let d4 = piece_to(&board, mv("d2d4", &board));
        let cx = |prev1| Context::new(prev1, NO_PIECE_TO);
        for _ in 0..20 {
            o.reward_quiet(&after_e4, reply, 1, 8, &[], cx(e4));
        }
        let own = o.quiet_stat(&after_e4, reply, Context::ROOT);
        assert!(
            o.quiet_stat(&after_e4, reply, cx(e4)) > own,
            "after e4 it learned more"
        );
        assert_eq!(
            o.quiet_stat(&after_e4, reply, cx(d4)),
            own,
            "nothing learned after d4"
        );
        o.clear();
        assert_eq!(o.quiet_stat(&after_e4, reply, cx(e4)), 0);
    }

    #[test]
    fn capture_history_stays_inside_the_band() {
        let board = Board::from_fen("4k3/8/2p5/3p4/p7/2N5/8/3QK3 w - - 0 1").unwrap();
        let mut o = MoveOrdering::new(4);
        let good = mv("c3a4", &board);
        let bad = mv("d1d5", &board);
        for _ in 0..100 {
            o.reward_captures(&board, None, 12, &[good]);
            o.reward_captures(&board, Some(bad), 12, &[]);
        }
        let s = |m| o.score(&board, m, Move::NONE, 0, Context::ROOT);
        assert!(
            !below_good_captures(s(good)),
            "history never demotes a winning capture"
        );
        assert!(below_good_captures(s(bad)), "nor promotes a losing one");
    }
}
