//! `cavalier selfplay --chess960` from the command line (a lab tool: run
//! with `cargo test --release --features lab --test selfplay`): half of
//! the fifth network's data came from it. Its games start from Chess960
//! start positions, not the standard one; they castle the Chess960 way
//! (the engine's move, replayed here, gives the next position written);
//! and a run is the same for the same seed, whatever the threads.

#![cfg(feature = "lab")]

mod common;

use cavalier::chess::notation::to_uci;
use cavalier::Board;
use std::collections::HashSet;

const GAMES: usize = 6;

/// The text output of a small run with `seed` on `threads` threads.
fn selfplay(seed: &str, threads: &str) -> String {
    let o = common::cavalier(&[
        "selfplay",
        "--chess960",
        "--games",
        &GAMES.to_string(),
        "--nodes",
        "300",
        "--threads",
        threads,
        "--seed",
        seed,
        "--random-plies",
        "0",
        "--max-plies",
        "80",
    ]);
    assert!(o.success(), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("openings from the 960 Chess960 start positions"),
        "{}",
        o.stderr
    );
    o.stdout
}

/// The board of an output line (`FEN;RESULT;SCORE`).
fn board_of(line: &str) -> Board {
    let fen = line.split(';').next().unwrap();
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The placement and side to move of a FEN: what a move changes.
fn placement(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// The legal move of `board` that gives `next`'s placement, if one does.
fn move_between(board: &Board, next: &str) -> Option<cavalier::chess::types::Move> {
    let want = placement(next);
    board.legal_moves().iter().copied().find(|&m| {
        let mut b = board.clone();
        b.make(m);
        placement(&b.to_fen()) == want
    })
}

#[test]
fn selfplay_chess960_starts_from_chess960_positions_and_castles_their_way() {
    let out = selfplay("960", "2");
    let starts: HashSet<String> = (0..960)
        .map(|n| placement(&Board::chess960_start(n).unwrap().to_fen()))
        .collect();
    let standard = placement(&Board::startpos().to_fen());
    assert!(starts.contains(&standard));
    // Games begin at their start position (no random plies): the first
    // move of a game is quiet, so its start is always written.
    let lines: Vec<&str> = out.lines().collect();
    let is_start = |line: &str| {
        let fen = line.split(';').next().unwrap();
        fen.ends_with(" 0 1") && starts.contains(&placement(fen))
    };
    let game_starts: Vec<usize> = (0..lines.len()).filter(|&i| is_start(lines[i])).collect();
    assert_eq!(game_starts.len(), GAMES, "{out}");
    assert_eq!(game_starts[0], 0);
    let first: HashSet<String> = game_starts
        .iter()
        .map(|&i| placement(lines[i].split(';').next().unwrap()))
        .collect();
    assert!(first.len() >= GAMES - 1, "{first:?}");
    assert!(!first.contains(&standard), "{first:?}");
    // Castling: a written position and the next one a castling apart.
    let mut castles = Vec::new();
    for i in 0..lines.len() - 1 {
        if is_start(lines[i + 1]) {
            continue;
        }
        let mut board = board_of(lines[i]);
        board.set_chess960(true);
        if let Some(m) = move_between(&board, lines[i + 1].split(';').next().unwrap()) {
            if m.is_castle() {
                castles.push(to_uci(&board, m));
            }
        }
    }
    // King takes rook; at least one from squares the standard game never
    // castles from (the king off e1/e8, or the rook off the a and h files).
    assert!(!castles.is_empty(), "no castling in {out}");
    assert!(
        castles.iter().any(|c| {
            let b = c.as_bytes();
            b[0] != b'e' || !matches!(b[2], b'a' | b'h')
        }),
        "{castles:?}"
    );
}

#[test]
fn selfplay_chess960_is_the_same_for_the_same_seed() {
    let once = selfplay("31", "1");
    assert_eq!(selfplay("31", "2"), once);
    assert_ne!(selfplay("32", "1"), once);
}
