//! Probing positions, not table entries: the tables leave out what a
//! capture decides and store DTZ for one side to move only, so a probe
//! resolves captures by a small alpha-beta search, en passant by trying
//! it, and missing DTZ entries by looking one move ahead.
//!
//! WDL values: 2 win, 1 win that the fifty-move rule turns into a draw
//! (cursed), 0 draw, -1 loss saved by the rule (blessed), -2 loss, for
//! the side to move, as if the last move had reset the fifty-move
//! counter. DTZ: plies to the next capture or pawn move (or mate) with
//! best play, signed like WDL, beyond 100 for cursed and blessed results.

use super::Tablebases;
use crate::chess::board::Board;
use crate::chess::types::*;

/// The table's WDL, captures left aside; KvK is a draw.
fn table_wdl(tb: &Tablebases, board: &Board) -> Option<i32> {
    if board.piece_count(Color::White) + board.piece_count(Color::Black) == 2 {
        return Some(0);
    }
    tb.wdl_file(board)?.wdl(&tb.cache, board)
}

/// Makes `mv`, runs `f`, takes the move back.
fn with_move<T>(board: &mut Board, mv: Move, f: impl FnOnce(&mut Board) -> T) -> T {
    board.make(mv);
    let r = f(board);
    board.unmake();
    r
}

/// Alpha-beta over captures (not en passant) down to the tables. The flag
/// is 2 when a capture gives the value, else 1.
fn probe_ab(tb: &Tablebases, board: &mut Board, mut alpha: i32, beta: i32) -> Option<(i32, u8)> {
    for mv in board.legal_moves() {
        if !board.is_capture(mv) || mv.kind() == MoveKind::EnPassant {
            continue;
        }
        let v = -with_move(board, mv, |b| probe_ab(tb, b, -beta, -alpha))?.0;
        if v > alpha {
            if v >= beta {
                return Some((v, 2));
            }
            alpha = v;
        }
    }
    let v = table_wdl(tb, board)?;
    if alpha >= v {
        Some((alpha, 1 + u8::from(alpha > 0)))
    } else {
        Some((v, 1))
    }
}

/// The best value of the legal en-passant captures, if any.
fn best_ep(tb: &Tablebases, board: &mut Board) -> Option<Option<i32>> {
    let mut best = None;
    for mv in board.legal_moves() {
        if mv.kind() != MoveKind::EnPassant {
            continue;
        }
        let v = -with_move(board, mv, |b| probe_ab(tb, b, -2, 2))?.0;
        best = Some(best.map_or(v, |b: i32| b.max(v)));
    }
    Some(best)
}

/// True when every legal move is an en-passant capture.
fn only_ep(board: &Board) -> bool {
    board
        .legal_moves()
        .iter()
        .all(|m| m.kind() == MoveKind::EnPassant)
}

/// WDL of `board`, en passant included.
pub fn probe_wdl(tb: &Tablebases, board: &mut Board) -> Option<i32> {
    let (mut v, _) = probe_ab(tb, board, -2, 2)?;
    if board.ep_square().is_none() {
        return Some(v);
    }
    if let Some(ep) = best_ep(tb, board)? {
        if ep >= v || (v == 0 && only_ep(board)) {
            v = ep;
        }
    }
    Some(v)
}

/// DTZ of a position whose best move resets the counter, by WDL.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

fn is_mate(board: &Board) -> bool {
    board.in_check() && !board.has_legal_move()
}

/// How deep the look-ahead for a side a DTZ file leaves out may go: one
/// move suffices for sound files; a damaged one could send it round.
const MAX_DTZ_LOOKAHEAD: u32 = 4;

/// DTZ of `board`, en passant left aside; `level` counts the look-aheads.
fn probe_dtz_no_ep(tb: &Tablebases, board: &mut Board, level: u32) -> Option<i32> {
    let (wdl, how) = probe_ab(tb, board, -2, 2)?;
    if wdl == 0 {
        return Some(0);
    }
    if how == 2 {
        return Some(dtz_before_zeroing(wdl));
    }
    if wdl > 0 {
        // A pawn push that keeps the result resets the counter at once.
        for mv in board.legal_moves() {
            if kind_of(board.at(mv.from())) != PAWN || board.is_capture(mv) {
                continue;
            }
            if -with_move(board, mv, |b| probe_wdl(tb, b))? == wdl {
                return Some(if wdl == 2 { 1 } else { 101 });
            }
        }
    }
    let file = tb.dtz_file(board)?;
    if let Some(d) = file.dtz(&tb.cache, board, wdl).ok()? {
        return Some(dtz_before_zeroing(wdl) + if wdl > 0 { d } else { -d });
    }
    if level >= MAX_DTZ_LOOKAHEAD {
        return None;
    }
    if wdl > 0 {
        dtz_by_search_win(tb, board, level + 1)
    } else {
        dtz_by_search_loss(tb, board, wdl, level + 1)
    }
}

/// The table stores the other side: the winner's best piece move.
fn dtz_by_search_win(tb: &Tablebases, board: &mut Board, level: u32) -> Option<i32> {
    let mut best = 0xffff;
    for mv in board.legal_moves() {
        if kind_of(board.at(mv.from())) == PAWN || board.is_capture(mv) {
            continue;
        }
        let (v, mate) = with_move(board, mv, |b| Some((-dtz_at(tb, b, level)?, is_mate(b))))?;
        if v == 1 && mate {
            best = 1;
        } else if v > 0 && v + 1 < best {
            best = v + 1;
        }
    }
    Some(best)
}

/// The table stores the other side: the loser's longest resistance.
fn dtz_by_search_loss(tb: &Tablebases, board: &mut Board, wdl: i32, level: u32) -> Option<i32> {
    let mut best = -1;
    for mv in board.legal_moves() {
        let v = with_move(board, mv, |b| -> Option<i32> {
            if b.halfmove_clock() == 0 {
                if wdl == -2 {
                    Some(-1)
                } else {
                    let (v, _) = probe_ab(tb, b, 1, 2)?;
                    Some(if v == 2 { 0 } else { -101 })
                }
            } else {
                Some(-dtz_at(tb, b, level)? - 1)
            }
        })?;
        best = best.min(v);
    }
    Some(best)
}

/// DTZ of `board`, en passant included.
pub fn probe_dtz(tb: &Tablebases, board: &mut Board) -> Option<i32> {
    dtz_at(tb, board, 0)
}

/// [`probe_dtz`] inside `level` look-aheads.
fn dtz_at(tb: &Tablebases, board: &mut Board, level: u32) -> Option<i32> {
    let mut v = probe_dtz_no_ep(tb, board, level)?;
    if board.ep_square().is_none() {
        return Some(v);
    }
    let Some(ep) = best_ep(tb, board)? else {
        return Some(v);
    };
    let e = [-1, -101, 0, 101, 1][(ep + 2) as usize];
    let take = if v < -100 {
        e >= 0
    } else if v < 0 {
        !(-100..0).contains(&e)
    } else if v > 100 {
        e > 0
    } else if v > 0 {
        e == 1
    } else {
        e >= 0 || only_ep(board)
    };
    if take {
        v = e;
    }
    Some(v)
}
