//! The root moves in a tablebase position: what each keeps under the
//! fifty-move rule (given the counter), and which to keep: those with the
//! best outcome, and of a win the ones closest to the next capture or
//! pawn move (so the win is converted, not drawn by the rule), of a loss
//! the ones that resist longest.
//!
//! A win is kept when the capture, pawn move or mate that converts it is
//! made before the clock reaches 100: with clock c after the move and t
//! plies to go, when c + t <= 100. DTZ gives t only to a ply (values
//! stored in moves are rounded: t is |DTZ| or |DTZ| + 1), so where that
//! ply decides (c + |DTZ| = 100), and only for the moves that can change
//! the result, the moves are played out, the tables settling each
//! position reached; a play-out too long leaves the cautious outcome (a
//! win drawn, a loss lost) and says so. tests/data/syzygy/root_boundary.txt
//! checks this against python-chess playing the same positions out.

use super::Tablebases;
use crate::chess::board::Board;
use crate::chess::types::{Color, Move};
use std::collections::HashMap;

/// Outcomes, for the side to move: won, won but drawn by the fifty-move
/// rule (cursed), drawn, lost but saved by the rule (blessed), lost.
pub const WIN: i32 = 2;
pub const CURSED_WIN: i32 = 1;
pub const DRAW: i32 = 0;
pub const BLESSED_LOSS: i32 = -1;
pub const LOSS: i32 = -2;

/// One root move and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// [`WIN`] .. [`LOSS`] for the side to move at the root.
    pub outcome: i32,
    /// Plies to the next capture or pawn move (or mate) after this move,
    /// with best play: 0 when the move itself resets the counter or mates.
    pub plies: i32,
    /// The move lies on the fifty-move boundary and its play-out was cut
    /// short ([`MAX_PLAYED`]): `outcome` is the cautious one (a win drawn,
    /// a loss lost), maybe a ply off.
    pub cut_short: bool,
}

/// Fifty moves: the clock at which, without mate, the game is drawn.
const RULE_PLIES: i32 = 100;
/// Most positions played out to settle the root moves at the fifty-move
/// boundary (see [`settle_boundary`]); beyond it a move keeps its
/// cautious outcome and is marked [`RankedMove::cut_short`]. Ranking the
/// 7,821 roots of the test files then takes at most some 0.15 s, 2.5 ms
/// at the 99th percentile (3-4-piece tables, development machine); 3 of
/// their 7,181 random roots and 20 of the 640 chosen on the boundary are
/// cut short.
const MAX_PLAYED: usize = 200;

/// A position (its hash), its clock and the side whose win is in question.
type PlayKey = (u64, u32, Color);

/// Positions played out at the root: what [`keeps_win`] found, what
/// [`settled`] said of the positions looked at, and how many more may be
/// played out.
struct Playout {
    memo: HashMap<PlayKey, bool>,
    seen: HashMap<PlayKey, Option<bool>>,
    left: usize,
}

/// A move's outcome as far as DTZ tells it: the outcome and plies, and
/// whether the move lands on the fifty-move boundary, where the outcome
/// given is the cautious one (a win drawn by the rule, a loss lost) and
/// [`settle_boundary`] may play it out.
struct Judged {
    outcome: i32,
    plies: i32,
    boundary: bool,
}

/// What a move leads to; the move is already made on `board`.
///
/// A win is kept when the capture, pawn move or mate converting it comes
/// before the clock reaches 100: with clock c and t plies to go, the last
/// made at clock c + t - 1 <= 99. t is n = |DTZ| or n + 1 (a DTZ stored
/// in moves can be a ply short: python-chess documents it, and
/// `make_expected.py --check-bound` found t - n in {0, 1} only), so the
/// win is kept when c + n < 100, lost when c + n > 100, and open at
/// c + n = 100.
fn outcome_after(tb: &Tablebases, board: &mut Board) -> Option<Judged> {
    let judged = |outcome, plies, boundary| Judged {
        outcome,
        plies,
        boundary,
    };
    if !board.has_legal_move() {
        return Some(judged(if board.in_check() { WIN } else { DRAW }, 0, false));
    }
    if board.halfmove_clock() == 0 {
        return Some(judged(-tb.probe_wdl(board)?, 0, false));
    }
    let d = tb.probe_dtz(board)?;
    if d == 0 {
        return Some(judged(DRAW, 0, false));
    }
    let (n, c) = (d.abs(), board.halfmove_clock() as i32);
    let boundary = n <= RULE_PLIES && c + n == RULE_PLIES;
    // `d` is the side to move's: the mover's opponent. Cautious at the
    // boundary: the mover's win is drawn, the mover's loss lost.
    let converted = n <= RULE_PLIES && (c + n < RULE_PLIES || (boundary && d > 0));
    let theirs = d.signum() * if converted { WIN } else { CURSED_WIN };
    Some(judged(-theirs, n, boundary))
}

/// Plays out the root moves on the fifty-move boundary whose outcome can
/// change the best outcome or the moves kept: wins (drawn, cautiously)
/// when no move surely wins (a sure win is closer to its reset, so it
/// would be kept instead), losses when every move loses. The others keep
/// their cautious outcome.
fn settle_boundary(
    tb: &Tablebases,
    board: &mut Board,
    ranked: &mut [RankedMove],
    boundary: &[usize],
) {
    let Some(best) = ranked.iter().map(|r| r.outcome).max() else {
        return;
    };
    let mut play = Playout {
        memo: HashMap::new(),
        seen: HashMap::new(),
        left: MAX_PLAYED,
    };
    for &i in boundary {
        let r = ranked[i];
        let (matters, won) = match r.outcome {
            CURSED_WIN => (best < WIN, WIN),
            _ => (best == LOSS, LOSS),
        };
        if !matters {
            continue;
        }
        board.make(r.mv);
        let winner = board.side_to_move().flip();
        let winner = if r.outcome > 0 { winner } else { winner.flip() };
        let converted = keeps_win(tb, board, winner, &mut play);
        board.unmake();
        match converted {
            Some(true) => ranked[i].outcome = won,
            Some(false) => ranked[i].outcome = if won > 0 { CURSED_WIN } else { BLESSED_LOSS },
            None => ranked[i].cut_short = true,
        }
    }
}

/// Whether `winner` still wins `board` under the fifty-move rule, as far
/// as the position itself tells: `Some(answer)`, or `None` when DTZ
/// leaves it open (clock + |DTZ| = 100). `Err` when a table is missing.
fn settled(tb: &Tablebases, board: &mut Board, winner: Color) -> Result<Option<bool>, ()> {
    if !board.has_legal_move() {
        return Ok(Some(board.in_check() && board.side_to_move() != winner));
    }
    let sign = if board.side_to_move() == winner {
        1
    } else {
        -1
    };
    let c = board.halfmove_clock() as i32;
    if c == 0 {
        return Ok(Some(sign * tb.probe_wdl(board).ok_or(())? == WIN));
    }
    // DTZ tells the outcome too: a win when 1..=100 for the winner.
    let d = sign * tb.probe_dtz(board).ok_or(())?;
    if !(1..=RULE_PLIES).contains(&d) {
        return Ok(Some(false));
    }
    // A clock at 100 (no mate) settles it as drawn.
    Ok((c + d != RULE_PLIES).then_some(c + d < RULE_PLIES))
}

/// [`settled`], playing out the positions it leaves open: the winner
/// needs one move that keeps the win, the loser none that saves it; moves
/// settled at once are looked at first. `None` when a table is missing or
/// too many positions were played out.
fn keeps_win(
    tb: &Tablebases,
    board: &mut Board,
    winner: Color,
    play: &mut Playout,
) -> Option<bool> {
    let key = (board.hash(), board.halfmove_clock(), winner);
    if let Some(&known) = play.memo.get(&key) {
        return Some(known);
    }
    let known = match play.seen.get(&key) {
        Some(&r) => r,
        None => settled(tb, board, winner).ok()?,
    };
    if let Some(known) = known {
        return Some(known);
    }
    play.left = play.left.checked_sub(1)?;
    let mine = board.side_to_move() == winner;
    let mut open = Vec::new();
    let mut result = !mine;
    for mv in board.legal_moves() {
        board.make(mv);
        let key = (board.hash(), board.halfmove_clock(), winner);
        let r = match play.seen.get(&key) {
            Some(&r) => Ok(r),
            None => settled(tb, board, winner),
        };
        board.unmake();
        let r = r.ok()?;
        play.seen.insert(key, r);
        match r {
            Some(r) if r == mine => {
                result = mine;
                break;
            }
            Some(_) => {}
            None => open.push(mv),
        }
    }
    if result != mine {
        for mv in open {
            board.make(mv);
            let r = keeps_win(tb, board, winner, play);
            board.unmake();
            if r? == mine {
                result = mine;
                break;
            }
        }
    }
    play.memo.insert(key, result);
    Some(result)
}

/// Every legal move of `board` ranked; `None` when a table is missing.
/// Without the fifty-move rule, cursed wins are wins and blessed losses
/// losses. A move on the fifty-move boundary that cannot be the best (see
/// [`settle_boundary`]) keeps its cautious outcome.
pub fn rank_moves(tb: &Tablebases, board: &mut Board, rule50: bool) -> Option<Vec<RankedMove>> {
    if !tb.covers(board) {
        return None;
    }
    let mut ranked = Vec::new();
    let mut boundary = Vec::new();
    for mv in board.legal_moves() {
        board.make(mv);
        let r = outcome_after(tb, board);
        board.unmake();
        let Judged {
            mut outcome,
            plies,
            boundary: open,
        } = r?;
        if !rule50 {
            outcome = 2 * outcome.signum();
        } else if open {
            boundary.push(ranked.len());
        }
        ranked.push(RankedMove {
            mv,
            outcome,
            plies,
            cut_short: false,
        });
    }
    settle_boundary(tb, board, &mut ranked, &boundary);
    Some(ranked)
}

/// The best outcome and the moves to keep: those reaching it, and of a
/// win (or loss) only the fastest (slowest) to the next reset.
pub fn keep_best(ranked: &[RankedMove]) -> Option<(i32, Vec<Move>)> {
    let best = ranked.iter().map(|r| r.outcome).max()?;
    let same: Vec<&RankedMove> = ranked.iter().filter(|r| r.outcome == best).collect();
    let target = if best > 0 {
        same.iter().map(|r| r.plies).min()
    } else if best < 0 {
        same.iter().map(|r| r.plies).max()
    } else {
        None
    };
    let kept = same
        .iter()
        .filter(|r| target.is_none_or(|t| r.plies == t))
        .map(|r| r.mv)
        .collect();
    Some((best, kept))
}
