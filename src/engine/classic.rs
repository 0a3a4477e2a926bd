//! The "Classic" playing style: the 1993 Turbo Pascal engine cavalier
//! descends from (the project's notes on its sources, SEEDS §1), played the
//! way it played, minus its two bugs.
//!
//! # The 1993 algorithm
//!
//! The original knows nothing but material. Its board cells hold piece codes
//! that are also values (pawn 2, bishop 6, knight 7, rook 10, queen 19,
//! king 126; White positive, Black negative), so the material balance is just
//! the sum of the cells ([`Board::material`]; the kings cancel). A move is
//! chosen in two passes:
//!
//! 1. **Material.** A minimax with alpha-beta cut-offs over the material
//!    balance alone. Plies 1 to 3 are searched full width; plies 4 and 5 go
//!    on only along captures; after ply 5 the search stops. Every root move
//!    gets the value of its line (the material at the end of the line), and
//!    the best value is kept.
//! 2. **Position.** Among the root moves that share the best material value a
//!    positional score decides (see [`positional_score`]):
//!    [`START_SQUARE_BONUS`] for moving a piece still on its start square
//!    ([`START_SQUARE_PAWN_EXTRA`] more for a pawn), [`KING_MOVE_PENALTY`]
//!    for moving the king, [`LEAVE_EDGE_BONUS`] for leaving an edge square,
//!    [`ENTER_EDGE_PENALTY`] for moving onto one, [`OPENING_MINOR_BONUS`] for
//!    pawn, knight and bishop moves in the first [`OPENING_HALF_MOVES`]
//!    half-moves of the game, and a mobility count: [`MOBILITY_MOVE`] for
//!    every move the side would have if it could move again at once,
//!    [`MOBILITY_CAPTURE_EXTRA`] more for each of them that captures. Ties go
//!    to the last best move found, in generation order.
//!
//! # The two bugs, not copied
//!
//! * The original promoted only to a queen. cavalier's generator yields all
//!   four promotions and the material search sees every one of them, so an
//!   under-promotion is played when it mates or wins more.
//! * The original refused to castle when b1/b8 was attacked. cavalier's
//!   generator applies the real rule (only the king's path matters).
//!
//! # Readings chosen where the description leaves room
//!
//! **Depths.** A node's depth is the number of plies from the root (the root
//! is depth 0). Nodes at depths 0, 1 and 2 ([`FULL_WIDTH_DEPTH`]) try every
//! legal move. Nodes at depths 3 and 4 also look at every legal move, but
//! only a capture (en passant and capturing promotions included) continues
//! the line; a move that captures nothing *ends* the line there, and its
//! value is the material after it (the static balance, plus the gain of a
//! quiet promotion). A node at depth 5 ([`HORIZON`]) is not expanded: its
//! value is the static balance.
//!
//! This is "it goes on only along moves that capture" read literally: a
//! quiet move stops the line, it is not forbidden. The consequence, chosen
//! deliberately, is that the side to move at depth 3 or 4 may decline to
//! capture (a stand pat) whenever it has a legal non-capturing move, and is
//! held to its captures only when every legal move captures (for example a
//! king in check whose only escape is to take). The other reading (at depths
//! 3-4 only captures exist, the side must take if it can, static material
//! when it cannot) makes both sides take defended pieces with their queens
//! in the search's imagination, so the search would "win" a queen by
//! offering a pawn to it at ply 3; SEEDS calls the extension
//! quiescence-style, and a quiescence search lets the side decline.
//!
//! **Legality, checkmate, stalemate.** The original asked "can the opponent
//! capture my king?" by generating every reply; cavalier generates only legal
//! moves ([`Board::legal_moves`]), the same move set. A node that is expanded
//! (depths 0 to 4) and has no legal move scores, for its side to move,
//! `-(`[`MATE_VALUE`]` - depth)` when in check (worse than any material, and
//! sooner mates weigh more) and 0 when stalemated. Positions that are not
//! expanded (depth 5, or after a quiet move at depth 3-4) are not tested for
//! mate: their value is material, as in the original. Values beyond
//! [`MATE_BOUND`] in size are mates ([`mate_in_plies`]).
//!
//! **Draws.** Like the original, the search ignores repetition and the
//! fifty-move rule; the game layer applies them.
//!
//! **Root values.** Every root move is searched with a full window, so every
//! candidate's `material` is the exact value of its line (not a bound), and
//! moves that tie for best are found exactly. Alpha-beta works inside each
//! root move's subtree (fail-soft, moves in generation order; the values do
//! not depend on the order). From the start position the search takes well
//! under a millisecond; busy middlegames take some tens of milliseconds.
//!
//! **Start square.** A piece is "still on its start square" when the square
//! holds the same piece (kind and colour) that the standard initial position
//! has there. A piece that has returned to its start square, or another
//! piece of the same kind and colour that arrived there, counts too: only
//! the cell is compared with the initial layout. The original's position
//! record (board, side, en passant, castling rights, balance, move list) had
//! no room for a piece's history either.
//!
//! **Edge square.** File a or h, or rank 1 or 8.
//!
//! **Castling.** Castling is encoded king-takes-rook; it is scored as a king
//! move from the king's square to the king's real destination
//! ([`Board::castle_targets`]), so the start-square bonus, the king penalty
//! and both edge terms apply to the king.
//!
//! **Half-moves of the game.** `2 * (fullmove_number - 1)`, plus 1 when Black
//! is to move; the opening bonus applies while this is below
//! [`OPENING_HALF_MOVES`] (half-moves 0 to 31).
//!
//! **Mobility.** After the move is made, the move is handed back to the same
//! side (a null move) and its *pseudo-legal* moves are counted, as the
//! original counted them: moves that would leave its king attacked count,
//! a "capture" of the enemy king (after a checking move) counts as a capture,
//! and castling counts when cavalier's generator offers it (only when fully
//! legal). En passant never counts: after a null move no en-passant square
//! is left.
//!
//! **Stopping.** The `stop` callback is polled before each root move and
//! every [`POLL_INTERVAL`] nodes. When it says stop, the root move being
//! searched is dropped and the best of the finished root moves is returned
//! (the positional pass still runs on those). If no root move was finished,
//! the first legal move is returned with the static material and no
//! candidates.

use crate::chess::board::Board;
use crate::chess::movegen::{GenKind, MoveList};
use crate::chess::types::*;

/// Number of plies searched full width (nodes at depths below this try every
/// legal move and follow each).
pub const FULL_WIDTH_DEPTH: usize = 3;
/// Depth at which the search stops and returns the static material.
pub const HORIZON: usize = 5;
/// Value of being checkmated at the root; mated `d` plies from the root is
/// `-(MATE_VALUE - d)` from the mated side's view. Larger than any material
/// balance (at most about 9 * 19 + 2 * 10 + 2 * 7 + 2 * 6).
pub const MATE_VALUE: i32 = 1000;
/// Values of this size or more are mate values.
pub const MATE_BOUND: i32 = MATE_VALUE - 100;

/// Positional pass: moving a piece that is still on its start square.
pub const START_SQUARE_BONUS: i32 = 5;
/// Positional pass: more when that piece is a pawn.
pub const START_SQUARE_PAWN_EXTRA: i32 = 2;
/// Positional pass: moving the king (castling included).
pub const KING_MOVE_PENALTY: i32 = -10;
/// Positional pass: leaving an edge square.
pub const LEAVE_EDGE_BONUS: i32 = 2;
/// Positional pass: moving onto an edge square.
pub const ENTER_EDGE_PENALTY: i32 = -2;
/// Positional pass: a pawn, knight or bishop move early in the game.
pub const OPENING_MINOR_BONUS: i32 = 20;
/// Positional pass: the opening bonus applies in half-moves
/// `0..OPENING_HALF_MOVES` of the game.
pub const OPENING_HALF_MOVES: u32 = 32;
/// Positional pass: each move the side would have if it moved again at once.
pub const MOBILITY_MOVE: i32 = 1;
/// Positional pass: more for each of those moves that captures.
pub const MOBILITY_CAPTURE_EXTRA: i32 = 1;

/// UCI scores: the pawn (code 2) is worth this many centipawns.
pub const CENTIPAWNS_PER_PAWN: i32 = 100;

/// Nodes between two calls of the stop callback.
pub const POLL_INTERVAL: u64 = 1024;

/// Larger than any value the search returns.
const INFINITY: i32 = MATE_VALUE + 1;

/// The back rank of the standard initial position, file a to h.
const START_BACK_RANK: [Piece; 8] = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK];

/// One root move as the two passes saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassicMove {
    pub mv: Move,
    /// Exact value of the move's line, from the root side to move's view:
    /// the material balance at the end of the line, or a mate value.
    pub material: i32,
    /// The positional score, computed only for the moves that share the best
    /// material value (`None` for the others).
    pub positional: Option<i32>,
}

/// What [`classic_search`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicResult {
    /// The move to play; `Move::NONE` when there is no legal move.
    pub best: Move,
    /// The best material value, from the side to move's view (the balance at
    /// the end of the best line, or a mate value; see [`mate_in_plies`]).
    /// With no legal move: `-MATE_VALUE` when mated, 0 when stalemated.
    pub material: i32,
    /// The root moves whose search finished, in generation order.
    pub candidates: Vec<ClassicMove>,
    /// Moves the material search made or scored (root moves included; a
    /// quiet move that ends a line counts without being made).
    pub nodes: u64,
    /// True when the stop callback cut the search short.
    pub stopped: bool,
}

/// Plies to the mate for a mate value (positive: the side to move mates,
/// negative: it is mated), `None` for a material value.
pub fn mate_in_plies(value: i32) -> Option<i32> {
    if value >= MATE_BOUND {
        Some(MATE_VALUE - value)
    } else if value <= -MATE_BOUND {
        Some(-(MATE_VALUE + value))
    } else {
        None
    }
}

/// A value in UCI terms: `mate N` (moves, negative when mated) or `cp N`,
/// with a pawn (code 2) as 100 centipawns.
pub fn uci_score(value: i32) -> String {
    match mate_in_plies(value) {
        Some(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Some(p) => format!("mate {}", p / 2),
        None => format!("cp {}", value * CENTIPAWNS_PER_PAWN / PAWN as i32),
    }
}

/// Searches the position the 1993 way and returns the move it would play.
///
/// `stop` is polled before each root move and every [`POLL_INTERVAL`]
/// nodes; when it returns true the best move among the finished root moves
/// is returned. The board is left as it was.
pub fn classic_search(board: &mut Board, stop: &dyn Fn() -> bool) -> ClassicResult {
    let (hash, plies) = (board.hash(), board.ply_count());
    let result = search_root(board, stop);
    debug_assert!(board.hash() == hash && board.ply_count() == plies && board.is_consistent());
    result
}

/// Both passes; [`classic_search`] checks that the board came back.
fn search_root(board: &mut Board, stop: &dyn Fn() -> bool) -> ClassicResult {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return ClassicResult {
            best: Move::NONE,
            material: if board.in_check() { -MATE_VALUE } else { 0 },
            candidates: Vec::new(),
            nodes: 0,
            stopped: false,
        };
    }

    // First pass: the material value of every root move.
    let mut ctx = Context {
        nodes: 0,
        stop,
        stopped: false,
    };
    let mut candidates = Vec::with_capacity(moves.len());
    for &mv in &moves {
        if stop() {
            ctx.stopped = true;
            break;
        }
        ctx.nodes += 1;
        board.make(mv);
        let value = -material_search(board, 1, -INFINITY, INFINITY, &mut ctx);
        board.unmake();
        if ctx.stopped {
            break;
        }
        candidates.push(ClassicMove {
            mv,
            material: value,
            positional: None,
        });
    }

    let Some(best_material) = candidates.iter().map(|c| c.material).max() else {
        return ClassicResult {
            best: moves[0],
            material: static_value(board),
            candidates,
            nodes: ctx.nodes,
            stopped: true,
        };
    };

    // Second pass: the positional score decides among the best; a later
    // move wins a tie.
    let mut best = Move::NONE;
    let mut best_positional = i32::MIN;
    for c in candidates
        .iter_mut()
        .filter(|c| c.material == best_material)
    {
        let p = positional_score(board, c.mv);
        c.positional = Some(p);
        if p >= best_positional {
            best_positional = p;
            best = c.mv;
        }
    }

    ClassicResult {
        best,
        material: best_material,
        candidates,
        nodes: ctx.nodes,
        stopped: ctx.stopped,
    }
}

/// The positional score of a legal move of the side to move (the second
/// pass). The board is left as it was.
pub fn positional_score(board: &mut Board, mv: Move) -> i32 {
    let from = mv.from();
    let piece = board.at(from);
    let kind = kind_of(piece);
    let to = if mv.is_castle() {
        board.castle_targets(from, mv.to()).0
    } else {
        mv.to()
    };

    let mut score = 0;
    if piece == start_piece(from) {
        score += START_SQUARE_BONUS;
        if kind == PAWN {
            score += START_SQUARE_PAWN_EXTRA;
        }
    }
    if kind == KING {
        score += KING_MOVE_PENALTY;
    }
    if is_edge(from) {
        score += LEAVE_EDGE_BONUS;
    }
    if is_edge(to) {
        score += ENTER_EDGE_PENALTY;
    }
    if matches!(kind, PAWN | KNIGHT | BISHOP) && game_half_moves(board) < OPENING_HALF_MOVES {
        score += OPENING_MINOR_BONUS;
    }
    score + mobility_after(board, mv)
}

/// The mobility term: after `mv`, with the move given back to the same side,
/// [`MOBILITY_MOVE`] per pseudo-legal move and [`MOBILITY_CAPTURE_EXTRA`]
/// more per capture among them.
pub fn mobility_after(board: &mut Board, mv: Move) -> i32 {
    board.make(mv);
    board.make_null();
    let mut list = MoveList::new();
    board.generate(GenKind::All, &mut list);
    let score = list
        .iter()
        .map(|&m| {
            if board.is_capture(m) {
                MOBILITY_MOVE + MOBILITY_CAPTURE_EXTRA
            } else {
                MOBILITY_MOVE
            }
        })
        .sum();
    board.unmake_null();
    board.unmake();
    score
}

/// The piece the standard initial position has on `s` (`EMPTY` if none).
pub fn start_piece(s: Square) -> Piece {
    match s.rank() {
        0 => START_BACK_RANK[s.file()],
        1 => PAWN,
        6 => -PAWN,
        7 => -START_BACK_RANK[s.file()],
        _ => EMPTY,
    }
}

/// File a or h, rank 1 or 8.
pub fn is_edge(s: Square) -> bool {
    matches!(s.file(), 0 | 7) || matches!(s.rank(), 0 | 7)
}

/// Half-moves played in the game: `2 * (fullmove - 1)`, plus 1 with Black to
/// move.
pub fn game_half_moves(board: &Board) -> u32 {
    2 * board.fullmove_number().saturating_sub(1) + (board.side_to_move() == Color::Black) as u32
}

/// Search state shared down the tree.
struct Context<'a> {
    nodes: u64,
    stop: &'a dyn Fn() -> bool,
    stopped: bool,
}

/// The material balance from the side to move's view.
fn static_value(board: &Board) -> i32 {
    board.side_to_move().sign() as i32 * board.material()
}

/// Negamax over the material balance (fail-soft alpha-beta). `depth` is the
/// node's distance from the root in plies; the value is from the side to
/// move's view. Returns 0 once stopped (the caller drops the result).
fn material_search(
    board: &mut Board,
    depth: usize,
    mut alpha: i32,
    beta: i32,
    ctx: &mut Context,
) -> i32 {
    let stand = static_value(board);
    if depth >= HORIZON {
        return stand;
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return if board.in_check() {
            -(MATE_VALUE - depth as i32)
        } else {
            0
        };
    }
    let full_width = depth < FULL_WIDTH_DEPTH;
    let mut best = -INFINITY;
    for &mv in &moves {
        ctx.nodes += 1;
        if ctx.nodes.is_multiple_of(POLL_INTERVAL) && (ctx.stop)() {
            ctx.stopped = true;
        }
        if ctx.stopped {
            return 0;
        }
        let value = if full_width || board.is_capture(mv) {
            board.make(mv);
            let v = -material_search(board, depth + 1, -beta, -alpha, ctx);
            board.unmake();
            v
        } else {
            // A quiet move in the capture zone ends the line: its value is
            // the material after it.
            stand + promotion_gain(mv)
        };
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Material gained by promoting (0 for other moves).
fn promotion_gain(mv: Move) -> i32 {
    if mv.kind() == MoveKind::Promotion {
        (mv.promo() - PAWN) as i32
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::{parse_uci, to_uci};

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("test FEN is valid")
    }

    fn mv(b: &Board, text: &str) -> Move {
        parse_uci(b, text).expect("test move is legal")
    }

    fn mobility_of(b: &mut Board, text: &str) -> i32 {
        let m = mv(b, text);
        mobility_after(b, m)
    }

    fn positional_of(b: &mut Board, text: &str) -> i32 {
        let m = mv(b, text);
        positional_score(b, m)
    }

    fn never() -> bool {
        false
    }

    fn search(fen: &str) -> (Board, ClassicResult) {
        let mut b = board(fen);
        let r = classic_search(&mut b, &never);
        (b, r)
    }

    fn candidate(b: &Board, r: &ClassicResult, text: &str) -> ClassicMove {
        let m = mv(b, text);
        *r.candidates
            .iter()
            .find(|c| c.mv == m)
            .expect("root move searched")
    }

    /// An independent plain minimax (no alpha-beta) over the same rules,
    /// written line by line, with the horizon as a parameter: a line stops
    /// at ply `horizon`, or after a move that captured nothing when it was
    /// made at ply 4 or later.
    fn reference(b: &mut Board, depth: usize, horizon: usize, ended_by_quiet: bool) -> i32 {
        if depth == horizon || ended_by_quiet {
            return static_value(b);
        }
        let moves = b.legal_moves();
        if moves.is_empty() {
            return if b.in_check() {
                -(MATE_VALUE - depth as i32)
            } else {
                0
            };
        }
        moves
            .iter()
            .map(|&m| {
                let quiet_in_zone = depth >= FULL_WIDTH_DEPTH && !b.is_capture(m);
                b.make(m);
                let v = -reference(b, depth + 1, horizon, quiet_in_zone);
                b.unmake();
                v
            })
            .max()
            .unwrap()
    }

    /// The reference value of one root move with a given horizon.
    fn reference_root(b: &mut Board, m: Move, horizon: usize) -> i32 {
        b.make(m);
        let v = -reference(b, 1, horizon, false);
        b.unmake();
        v
    }

    /// Every candidate's value agrees with the plain minimax.
    fn check_against_reference(b: &mut Board, r: &ClassicResult) {
        assert_eq!(r.candidates.len(), b.legal_moves().len());
        for c in &r.candidates {
            let v = reference_root(b, c.mv, HORIZON);
            assert_eq!(c.material, v, "{}", to_uci(b, c.mv));
        }
    }

    // (a) The second pass decides.
    //
    // White: Kh1, Nb1, Pg2, Ph2; Black: Ka8. White to move in move 1
    // (half-move 0, so pawn and knight moves get +20). Nothing can be
    // captured within five plies, so all eight moves keep the material at
    // 7 + 2 + 2 = 11 and all reach the second pass. Mobility is counted with
    // White to move again (no captures anywhere): the king on h1 has g1 plus
    // g2 or h2 once vacated; the king on g1 has f1 f2 h1; the knight on b1
    // has 3 moves (a3 c3 d2), on a3 4 (b5 c4 c2 b1), on c3 8, on d2 6 (b3
    // f3 e4 c4 f1 b1); a pawn on its second rank 2, one further up 1.
    //
    //   move  start  leave  onto  king  opening  mobility K+N+Pg+Ph  total
    //   g2g3    +7     0      0     0     +20      2+3+1+2 =  8        35
    //   g2g4    +7     0      0     0     +20      2+3+1+2 =  8        35
    //   h2h3    +7    +2     -2     0     +20      2+3+2+1 =  8        35
    //   h2h4    +7    +2     -2     0     +20      2+3+2+1 =  8        35
    //   b1a3    +5    +2     -2     0     +20      1+4+2+2 =  9        34
    //   b1c3    +5    +2      0     0     +20      1+8+2+2 = 13        40
    //   b1d2    +5    +2      0     0     +20      1+6+2+2 = 11        38
    //   h1g1     0    +2     -2   -10       0      3+3+2+2 = 10         0
    //
    // (The king on h1 is not on its start square: h1 starts with a rook.)
    #[test]
    fn second_pass_decides_among_equal_material() {
        let (mut b, r) = search("k7/8/8/8/8/8/6PP/1N5K w - - 0 1");
        assert_eq!(r.material, 11);
        assert_eq!(r.candidates.len(), 8);
        let expected = [
            ("g2g3", 35),
            ("g2g4", 35),
            ("h2h3", 35),
            ("h2h4", 35),
            ("b1a3", 34),
            ("b1c3", 40),
            ("b1d2", 38),
            ("h1g1", 0),
        ];
        for (text, score) in expected {
            let c = candidate(&b, &r, text);
            assert_eq!(c.material, 11, "{text}");
            assert_eq!(c.positional, Some(score), "{text}");
        }
        assert_eq!(to_uci(&b, r.best), "b1c3");
        check_against_reference(&mut b, &r);
    }

    // The same position twenty moves later (half-move 40): no opening bonus,
    // so every pawn move scores 15, Na3 14, Nc3 20, Nd2 18, Kg1 0.
    #[test]
    fn opening_bonus_ends_after_32_half_moves() {
        let (b, r) = search("k7/8/8/8/8/8/6PP/1N5K w - - 0 21");
        assert_eq!(candidate(&b, &r, "g2g3").positional, Some(15));
        assert_eq!(candidate(&b, &r, "b1c3").positional, Some(20));
        assert_eq!(candidate(&b, &r, "h1g1").positional, Some(0));
        assert_eq!(to_uci(&b, r.best), "b1c3");
        // Half-move 31 (Black to move in move 16) still has it; 32 not.
        assert_eq!(game_half_moves(&board("k7/8/8/8/8/8/8/K7 b - - 0 16")), 31);
        assert_eq!(game_half_moves(&board("k7/8/8/8/8/8/8/K7 w - - 0 17")), 32);
    }

    // Mobility counts pseudo-legal moves, +1 more for each capture.
    //
    // White: Ka1, Ra2; Black: Kh8, Pa7; move 40 (no opening bonus).
    #[test]
    fn mobility_counts_pseudo_legal_moves_and_captures() {
        let mut b = board("7k/p7/8/8/8/8/R7/K7 w - - 0 40");
        // After Ka1-b1, White again: Kb1 a1 c1 b2 c2 = 4; Ra2 a3..a6 (4),
        // a7 capture (1 + 1), a1 (1), b2..h2 (7) = 14. Total 18.
        assert_eq!(mobility_of(&mut b, "a1b1"), 18);
        // a1 starts with a rook, not a king: no start bonus; king -10,
        // leaves a1 +2, lands on b1 -2: -10 + 2 - 2 + 18 = 8.
        assert_eq!(positional_of(&mut b, "a1b1"), 8);
        // After Ra2-g2: Ka1 a2 b1 b2 = 3; Rg2 g1 g3..g8 (7), a2..f2 (6),
        // h2 (1) = 14; nothing to capture. Total 17.
        assert_eq!(mobility_of(&mut b, "a2g2"), 17);
        // After Ra2-h2+ the rook could "capture" the king on h8: pseudo-
        // legal, and a capture, as the original's generator saw it.
        // Ka1 3; Rh2 h1, h3..h7 (5), h8 (1 + 1), a2..g2 (7) = 15. Total 18.
        assert_eq!(mobility_of(&mut b, "a2h2"), 18);
        assert_eq!(b, board("7k/p7/8/8/8/8/R7/K7 w - - 0 40"));
    }

    // (b1) It takes a hanging queen.
    #[test]
    fn takes_a_hanging_queen() {
        // White: Ke1, Rd1; Black: Ke8, Qd5. Rxd5 leaves White a rook up.
        let (mut b, r) = search("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 30");
        assert_eq!(to_uci(&b, r.best), "d1d5");
        assert_eq!(r.material, 10);
        check_against_reference(&mut b, &r);
    }

    // (b2) A fork found within the three full-width plies.
    //
    // White: Kg1, Nb5; Black: Ke8, Ra8 (material 7 - 10 = -3). 1.Nc7+ forks
    // king and rook; Black must move the king (a knight check cannot be
    // blocked, nothing takes c7), and 2.Nxa8 at ply 3 wins the rook, which
    // no black king square reached at ply 2 can take back at ply 4:
    // material +7.
    #[test]
    fn sees_a_fork_within_three_plies() {
        let (mut b, r) = search("r3k3/8/8/1N6/8/8/8/6K1 w - - 0 30");
        assert_eq!(to_uci(&b, r.best), "b5c7");
        assert_eq!(r.material, 7);
        check_against_reference(&mut b, &r);
    }

    // (b2') The first capture-only ply matters: a recapture at ply 4.
    //
    // White: Kg1, Nb5; Black: Ke8, Ra8, Bb7 (material 7 - 16 = -9).
    // 1.Nc7+ forks king and rook, but 2.Nxa8 (ply 3) is answered by
    // Bxa8 (ply 4): -9 + 10 - 7 = -6. 1.Nd6+ forks king and bishop and
    // 2.Nxb7 stands (no black piece reaches b7 at ply 4): -9 + 6 = -3.
    // It plays Nd6+. A search that stopped after ply 3 would take the rook
    // (+1) and play Nc7+.
    #[test]
    fn sees_a_recapture_at_ply_four() {
        let (mut b, r) = search("r3k3/1b6/8/1N6/8/8/8/6K1 w - - 0 30");
        assert_eq!(to_uci(&b, r.best), "b5d6");
        assert_eq!(r.material, -3);
        assert_eq!(candidate(&b, &r, "b5c7").material, -6);
        check_against_reference(&mut b, &r);
        let fork = mv(&b, "b5c7");
        assert_eq!(reference_root(&mut b, fork, FULL_WIDTH_DEPTH), 1);
    }

    // (b3) A capture sequence on d5 that needs plies 4 and 5, and a sixth
    // capture that the search does not see.
    //
    // White: Kh1, Qd1, Rd2, Rd3, Pg2, Ph2; Black: Kh8, Qd8, Rd7, Rd6, Nd5,
    // Pg7, Ph7. Material 43 - 50 = -7. The exchange on the d-file:
    //   ply 1 Rd3xd5 (+7 -> 0)      ply 2 Rd6xd5 (-10 -> -10)
    //   ply 3 Rd2xd5 (+10 -> 0)     ply 4 Rd7xd5 (-10 -> -10)
    //   ply 5 Qd1xd5 (+10 -> 0)     ply 6 Qd8xd5 (-19 -> -19, not seen)
    // At ply 2 Black must recapture (else the rook on d5 takes on d6 and
    // the battery follows). At ply 4 Black may recapture or decline: with
    // ply 5 in view both give 0, so 1.Rxd5 is worth 0. Stopping at ply 4,
    // the recapture would stand (-10); reaching ply 6, White could not
    // retake at ply 5 without losing the queen (-10 again). The plain
    // minimax with horizons 4 and 6 confirms both.
    //
    // The quiet root moves are worth 0 as well (Black cannot stop the same
    // three captures at plies 3 to 5), so the test checks the value of the
    // line, not the move chosen.
    #[test]
    fn capture_line_reaches_ply_five_not_six() {
        let (mut b, r) = search("3q3k/3r2pp/3r4/3n4/8/3R4/3R2PP/3Q3K w - - 0 30");
        let take = mv(&b, "d3d5");
        assert_eq!(candidate(&b, &r, "d3d5").material, 0);
        assert_eq!(r.material, 0);
        check_against_reference(&mut b, &r);
        assert_eq!(reference_root(&mut b, take, HORIZON - 1), -10);
        assert_eq!(reference_root(&mut b, take, HORIZON + 1), -10);
    }

    // Depth 3-4 nodes may decline a capture (the reading documented in the
    // module): at depth 3 White's queen could take the pawn on d5, but
    // exd5 at depth 4 would cost the queen, so the node keeps its static
    // value, 15. A forced-capture reading would give 15 + 2 - 19 = -2.
    #[test]
    fn capture_zone_may_decline_a_losing_capture() {
        // White: Kh1, Qd1; Black: Kh8, Pd5, Pe6. Material 19 - 4 = 15.
        let mut b = board("7k/8/4p3/3p4/8/8/8/3Q3K w - - 0 30");
        let mut ctx = Context {
            nodes: 0,
            stop: &never,
            stopped: false,
        };
        let v = material_search(&mut b, FULL_WIDTH_DEPTH, -INFINITY, INFINITY, &mut ctx);
        assert_eq!(v, 15);
        // At depth 4 a capture leads straight to the horizon: Qxd5 counts
        // +2 and the recapture is not seen.
        let v = material_search(&mut b, HORIZON - 1, -INFINITY, INFINITY, &mut ctx);
        assert_eq!(v, 17);
    }

    // (c) Under-promotion is searched: e8=N+ forks king and queen.
    //
    // White: Kh1, Pe7; Black: Kg7, Qc7. Material 2 - 19 = -17.
    // 1.e8=N+ (knight on e8 attacks g7, f6, d6, c7): Black must move the
    // king, and 2.Nxc7 wins the queen: 7, the knight's value.
    // 1.e8=Q: queen against queen, 0 (Qc6+ would be met by Qxc6).
    // 1.e8=B: 6 - 19 = -13 (the bishop guards c6 and keeps itself).
    // 1.e8=R: Qc6+ skewers king and rook (c6-h1, c6-e8): 10 - 19 - 10 = -19.
    #[test]
    fn under_promotes_to_a_knight_when_it_wins_more() {
        let (mut b, r) = search("8/2q1P1k1/8/8/8/8/8/7K w - - 0 30");
        assert_eq!(to_uci(&b, r.best), "e7e8n");
        assert_eq!(r.material, 7);
        // All four promotions were searched.
        for (text, value) in [("e7e8q", 0), ("e7e8r", -19), ("e7e8b", -13), ("e7e8n", 7)] {
            assert_eq!(candidate(&b, &r, text).material, value, "{text}");
        }
        check_against_reference(&mut b, &r);
    }

    // A knight promotion that mates.
    //
    // White: Kh5, Pf7; Black: Kh7, Bg8, Nh8, Pg7. 1.f8=N# : the knight
    // checks h7; g8, h8, g7 hold Black's own pieces, g6 is covered by the
    // knight and the king, h6 by the king; nothing reaches f8. The queen on
    // f8 does not even give check, and fxg8 (any piece) is not mate.
    #[test]
    fn knight_promotion_that_mates_is_chosen() {
        let (mut b, r) = search("6bn/5Ppk/8/7K/8/8/8/8 w - - 0 30");
        assert_eq!(to_uci(&b, r.best), "f7f8n");
        assert_eq!(r.material, MATE_VALUE - 1);
        assert!(candidate(&b, &r, "f7f8q").material < MATE_BOUND);
        check_against_reference(&mut b, &r);
    }

    // (d) Ties go to the last best move in generation order.
    //
    // White: Kh1, Pg2, Ph2; Black: Ka8; half-move 0. Material 4 for all.
    //   g2g3, g2g4: +7 start, +20 opening, mobility K2 + 1 + 2 = 5 -> 32
    //   h2h3, h2h4: +7, +2 leave h2, -2 onto the h-file, +20, 5      -> 32
    //   h1g1: -10, +2, -2, mobility K3 (f1 f2 h1) + 2 + 2 = 7        -> -3
    // Four moves tie at 32; the last of them in generation order wins.
    #[test]
    fn ties_go_to_the_last_best_move() {
        let (b, r) = search("k7/8/8/8/8/8/6PP/7K w - - 0 1");
        let order: Vec<String> = b.legal_moves().iter().map(|&m| to_uci(&b, m)).collect();
        let tied: Vec<&String> = order
            .iter()
            .filter(|t| candidate(&b, &r, t).positional == Some(32))
            .collect();
        assert_eq!(tied.len(), 4);
        assert_eq!(candidate(&b, &r, "h1g1").positional, Some(-3));
        assert_eq!(to_uci(&b, r.best), **tied.last().unwrap());
        // The piece list gives g2 before h2, a push before a double push.
        assert_eq!(to_uci(&b, r.best), "h2h4");
    }

    // (e) No legal move: Move::NONE.
    #[test]
    fn no_legal_move_gives_none() {
        // Fool's mate: White is mated.
        let (_, r) = search("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(r.best.is_none());
        assert_eq!(r.material, -MATE_VALUE);
        assert!(r.candidates.is_empty());
        // Stalemate.
        let (_, r) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(r.best.is_none());
        assert_eq!(r.material, 0);
    }

    // A mate in one is worth more than any material; it is scored
    // MATE_VALUE - 1 (mated one ply from the root).
    //
    // White: Kg1, Ra1, Pe3; Black: Kh8, Pg7, Ph7, Nd4. 1.exd4 wins a
    // knight, 1.Ra8# mates (the knight cannot reach the back rank).
    #[test]
    fn mate_beats_material() {
        let (mut b, r) = search("7k/6pp/8/8/3n4/4P3/8/R5K1 w - - 0 30");
        assert_eq!(to_uci(&b, r.best), "a1a8");
        assert_eq!(r.material, MATE_VALUE - 1);
        assert_eq!(mate_in_plies(r.material), Some(1));
        assert_eq!(uci_score(r.material), "mate 1");
        assert!(candidate(&b, &r, "e3d4").material < MATE_BOUND);
        check_against_reference(&mut b, &r);
    }

    // (f) The board is unchanged by the search (also when stopped).
    #[test]
    fn board_is_unchanged() {
        for fen in [
            crate::chess::fen::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2q1P1k1/8/8/8/8/8/7K w - - 0 30",
        ] {
            let mut b = board(fen);
            let before = b.clone();
            let r = classic_search(&mut b, &never);
            assert!(!r.best.is_none());
            assert!(b.legal_moves().contains(&r.best));
            assert_eq!(b.to_fen(), fen);
            assert_eq!(b.hash(), before.hash());
            assert_eq!(b.ply_count(), before.ply_count());
            assert_eq!(b, before);
            assert!(b.is_consistent());
        }
    }

    // Stopping: immediately -> the first legal move, no candidates; after a
    // few polls -> only finished root moves are candidates.
    #[test]
    fn stop_returns_the_best_so_far() {
        let mut b = Board::startpos();
        let before = b.clone();
        let r = classic_search(&mut b, &|| true);
        assert!(r.stopped);
        assert_eq!(r.best, b.legal_moves()[0]);
        assert!(r.candidates.is_empty());
        assert_eq!(b, before);

        let calls = std::cell::Cell::new(0);
        let stop = || {
            calls.set(calls.get() + 1);
            calls.get() > 3
        };
        let r = classic_search(&mut b, &stop);
        assert!(r.stopped);
        assert!(!r.candidates.is_empty() && r.candidates.len() < 20);
        assert!(r.candidates.iter().any(|c| c.mv == r.best));
        assert_eq!(b, before);
    }

    #[test]
    fn start_squares_and_edges() {
        assert_eq!(start_piece(sq::E1), KING);
        assert_eq!(start_piece(sq::B1), KNIGHT);
        assert_eq!(start_piece(Square::from_coords(3, 6)), -PAWN);
        assert_eq!(start_piece(sq::D8), -QUEEN);
        assert_eq!(start_piece(Square::from_coords(4, 3)), EMPTY);
        assert!(
            is_edge(sq::A1)
                && is_edge(Square::from_coords(7, 4))
                && is_edge(Square::from_coords(3, 7))
        );
        assert!(!is_edge(Square::from_coords(1, 1)) && !is_edge(Square::from_coords(6, 6)));
    }

    // Castling is scored as the king's move e1 -> g1: start square +5,
    // king -10, leaves an edge +2, lands on one -2.
    #[test]
    fn castling_is_scored_as_the_king_move() {
        let mut b = board("4k3/8/8/8/8/8/8/4K2R w K - 0 30");
        let castle = mv(&b, "e1g1");
        assert!(castle.is_castle());
        // After O-O, White again: Kg1 f2 g2 h2 h1 = 4 (f1 holds the
        // rook); Rf1 a1..e1 (5), f2..f8 (7) = 12. Total 16.
        let mobility = mobility_after(&mut b, castle);
        assert_eq!(mobility, 16);
        assert_eq!(positional_score(&mut b, castle), 5 - 10 + 2 - 2 + 16);
    }
}
