//! `cavalier play` as a user meets it: the real binary, moves and commands
//! piped into stdin, the transcript read back from stdout.
//!
//! Every game here uses `--level` (a fixed, shallow search) or a position
//! where the engine's reply is forced, so the transcripts do not depend on
//! the machine's speed.

mod common;

use common::{cavalier_with_input, Run};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White to move mates in one: Ra8#.
const WHITE_MATES_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// White (the engine) has one legal move, Kg1, after which Black mates
/// with Ra1#: the knight covers f2 and the pawn g2.
const BLACK_MATES_IN_TWO: &str = "4k3/r7/8/8/8/3n3p/7P/7K w - - 0 1";

/// Runs `cavalier play ARGS` with `input` on stdin.
fn play(args: &[&str], input: &str) -> Run {
    let words: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    cavalier_with_input(&words, input)
}

/// The lines of the last board drawn in `out` (file header to file footer).
fn last_board(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let footer = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("a  b") || l.trim_start().starts_with("h  g"))
        .expect("a board was drawn");
    lines[footer - 9..=footer]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn human_mates_as_white_with_coordinates() {
    let o = play(&["--fen", WHITE_MATES_IN_ONE, "--level", "1"], "a1a8\n");
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let out = &o.stdout;
    assert!(out.contains("you play 1. Ra8#"), "{out}");
    assert!(
        out.contains("game over: checkmate, White wins (1-0): you win"),
        "{out}"
    );
    for tag in [
        "[Event \"cavalier play\"]",
        "[Site \"?\"]",
        "[Round \"1\"]",
        "[White \"Human\"]",
        "[Black \"cavalier",
        "[Result \"1-0\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{WHITE_MATES_IN_ONE}\"]"),
    ] {
        assert!(out.contains(tag), "{tag} missing: {out}");
    }
    assert!(out.contains("[Date \""), "{out}");
    assert!(out.lines().any(|l| l == "1. Ra8# 1-0"), "{out}");
    // The finished game is not printed a second time at end of input.
    assert_eq!(out.matches("[Event ").count(), 1, "{out}");
}

#[test]
fn whole_game_as_black_ends_in_mate() {
    // The FEN's words may also come as separate arguments.
    let mut args = vec!["--color", "black", "--level", "2", "--fen"];
    args.extend(BLACK_MATES_IN_TWO.split(' '));
    let o = play(&args, "Ra1\n");
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let out = &o.stdout;
    assert!(out.contains("you have the Black pieces"), "{out}");
    assert!(out.contains("cavalier plays 1. Kg1"), "{out}");
    assert!(out.contains("you play 1... Ra1#"), "{out}");
    assert!(
        out.contains("checkmate, Black wins (0-1): you win"),
        "{out}"
    );
    assert!(out.contains("[White \"cavalier"), "{out}");
    assert!(out.contains("[Black \"Human\"]"), "{out}");
    assert!(out.contains("[Result \"0-1\"]"), "{out}");
    assert!(out.lines().any(|l| l == "1. Kg1 Ra1# 0-1"), "{out}");
    // Black at the bottom: rank 1 on top, files from h to a.
    let board = last_board(out);
    assert_eq!(board[0].trim(), "h  g  f  e  d  c  b  a", "{out}");
    assert!(
        board[1].starts_with("1 ") && board[8].starts_with("8 "),
        "{out}"
    );
    // A move after the end is refused.
    let o = play(&args, "Ra1\nRa2\n");
    assert!(o.stdout.contains("the game is over (0-1)"));
}

#[test]
fn engine_mates_the_human() {
    // The human (Black) has one legal move, Kg8, and then Qg7 is mate.
    let o = play(
        &[
            "--color",
            "black",
            "--level",
            "3",
            "--fen",
            "7k/4Q3/5K2/8/8/8/8/8 b - - 0 1",
        ],
        "Kg8\n",
    );
    let out = &o.stdout;
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(out.contains("cavalier plays 2. Qg7#"), "{out}");
    assert!(
        out.contains("checkmate, White wins (1-0): cavalier wins"),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "1... Kg8 2. Qg7# 1-0"), "{out}");
    assert!(out.contains("[Result \"1-0\"]"), "{out}");
}

/// Plays `input` from `fen` as White and returns the transcript.
fn from_fen(fen: &str, input: &str) -> String {
    let o = play(&["--level", "1", "--ascii", "--fen", fen], input);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    o.stdout
}

#[test]
fn draws_end_the_game() {
    // Black's king can only shuttle h8-g8 while the rook shuttles f1-f2.
    let out = from_fen("7k/7p/7P/8/8/8/8/2K2R2 w - - 0 1", "Rf2\nRf1\nRf2\nRf1\n");
    assert!(
        out.contains("game over: draw by threefold repetition (1/2-1/2)"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l == "1. Rf2 Kg8 2. Rf1 Kh8 3. Rf2 Kg8 4. Rf1 Kh8 1/2-1/2"),
        "{out}"
    );
    let out = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 70", "Ra2\n");
    assert!(
        out.contains("game over: draw by the fifty-move rule (1/2-1/2)"),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "70. Ra2 1/2-1/2"), "{out}");
    // The pawn gives check; taking it leaves king and knight against king.
    let out = from_fen("4k3/8/8/8/8/8/3p4/4K1N1 w - - 0 1", "Kxd2\n");
    assert!(
        out.contains("game over: draw by insufficient material"),
        "{out}"
    );
    let out = from_fen("7k/8/4Q1K1/8/8/8/8/8 w - - 0 1", "Qf7\n");
    assert!(
        out.contains("game over: stalemate, a draw (1/2-1/2): nobody wins"),
        "{out}"
    );
    assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");
}

#[test]
fn illegal_and_garbled_moves_are_refused_with_a_reason() {
    let o = play(
        &["--level", "1"],
        "e5\nxyz\nNf9\nKe2\n\u{00e9}4\nfen\nquit\n",
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let out = &o.stdout;
    assert!(
        out.contains("illegal move \"e5\": type 'moves' for the legal moves"),
        "{out}"
    );
    assert!(out.contains("bad move text \"xyz\""), "{out}");
    assert!(out.contains("bad move text \"Nf9\""), "{out}");
    assert!(out.contains("illegal move \"Ke2\""), "{out}");
    assert!(out.contains("bad move text \"é4\""), "{out}");
    assert_eq!(out.matches("type 'moves' for the legal moves").count(), 5);
    // Nothing was played.
    assert!(out.lines().any(|l| l.ends_with(START_FEN)), "{out}");
    assert!(!out.contains("you play"), "{out}");
}

#[test]
fn check_and_ambiguity_are_explained() {
    let o = play(
        &[
            "--level",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
        ],
        "O-O\nquit\n",
    );
    let out = &o.stdout;
    assert!(
        out.contains("illegal move \"O-O\" (your king is in check)"),
        "{out}"
    );
    let o = play(
        &["--level", "1", "--fen", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"],
        "Rd1\nquit\n",
    );
    assert!(o.stdout.contains("ambiguous move \"Rd1\""));
}

#[test]
fn moves_lists_the_legal_moves_in_san() {
    let o = play(&["--level", "1"], "moves\n");
    let out = &o.stdout;
    assert!(out.contains("legal moves (20):"), "{out}");
    assert!(out.contains("Na3 Nc3 Nf3 Nh3 a3 a4"), "{out}");
}

/// The FENs printed by the `fen` command, in order.
fn printed_fens(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.split('/').count() == 8 && !l.starts_with('['))
        .collect()
}

#[test]
fn undo_takes_back_the_move_pair() {
    let o = play(&["--level", "1"], "undo\ne4\nundo\nfen\nd4\nfen\nquit\n");
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let out = &o.stdout;
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("you play 1. e4"), "{out}");
    assert!(out.contains("took back 1. e4 "), "{out}");
    let fens = printed_fens(out);
    assert_eq!(fens.len(), 2, "{out}");
    assert_eq!(fens[0], START_FEN, "{out}");
    // After 1. d4 and the engine's reply it is White's second move.
    assert!(
        fens[1].contains("/3P4/") && fens[1].contains(" w KQkq - "),
        "{out}"
    );
    assert!(fens[1].ends_with(" 2"), "{out}");
    // The quit prints the game so far: 1. d4 and the reply.
    assert!(
        out.lines()
            .any(|l| l.starts_with("1. d4 ") && l.ends_with(" *")),
        "{out}"
    );
}

#[test]
fn undo_after_a_mate_takes_back_only_the_mating_move() {
    let o = play(
        &["--fen", WHITE_MATES_IN_ONE, "--level", "1"],
        "Ra8\nundo\nfen\nquit\n",
    );
    let out = &o.stdout;
    assert!(out.contains("took back 1. Ra8#"), "{out}");
    assert_eq!(printed_fens(out), [WHITE_MATES_IN_ONE], "{out}");
    // Unfinished again: quitting prints the game so far, with no moves.
    assert!(out.contains("[Result \"*\"]"), "{out}");
}

#[test]
fn pgn_is_printed_and_saved() {
    let path = std::env::temp_dir().join(format!("cavalier-play-test-{}.pgn", std::process::id()));
    let path_text = path.to_string_lossy().into_owned();
    let o = play(
        &["--level", "1"],
        &format!("e4\npgn\npgn {path_text}\npgn /no/such/dir/game.pgn\nquit\n"),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let out = &o.stdout;
    assert!(
        out.contains(&format!("saved the game to \"{path_text}\"")),
        "{out}"
    );
    assert!(
        out.contains("error: cannot write \"/no/such/dir/game.pgn\""),
        "{out}"
    );
    let saved = std::fs::read_to_string(&path).expect("the PGN file was written");
    let _ = std::fs::remove_file(&path);
    assert!(saved.starts_with("[Event \"cavalier play\"]\n"), "{saved}");
    assert!(saved.contains("[Result \"*\"]"), "{saved}");
    assert!(!saved.contains("[FEN "), "{saved}");
    let moves = saved.lines().last().unwrap_or_default();
    assert!(
        moves.starts_with("1. e4 ") && moves.ends_with(" *"),
        "{saved}"
    );
    // The printed PGN is the same text.
    assert!(out.contains(&saved), "{out}");
}

#[test]
fn ascii_board_has_coordinates_and_the_last_move() {
    let o = play(&["--ascii", "--fen", WHITE_MATES_IN_ONE], "Ra8\n");
    let out = &o.stdout;
    let board = last_board(out);
    assert_eq!(board[0].trim(), "a  b  c  d  e  f  g  h", "{out}");
    assert_eq!(board[9].trim(), "a  b  c  d  e  f  g  h", "{out}");
    assert_eq!(board[1], "8 [R] .  .  .  .  .  k  .  8", "{out}");
    assert_eq!(board[8], "1 [ ] .  .  .  .  .  K  .  1", "{out}");
    for (i, line) in board[1..9].iter().enumerate() {
        let rank = (b'8' - i as u8) as char;
        assert!(line.starts_with(rank) && line.ends_with(rank), "{line}");
    }
    assert!(out.is_ascii(), "{out}");
    // Without --ascii the pieces are chess symbols.
    let o = play(&["--level", "1"], "");
    assert!(o.stdout.contains('♔'));
}

#[test]
fn flip_new_level_hint_and_help() {
    let o = play(
        &["--level", "1"],
        "help\nflip\nlevel\nlevel 3\nlevel 0\nlevel off\nlevel 1\nhint\ne4\nnew black\nquit\n",
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let out = &o.stdout;
    for command in [
        "undo", "hint", "flip", "fen", "pgn", "new", "level", "moves", "quit",
    ] {
        assert!(
            out.contains(&format!("\n  {command} ")),
            "help lacks {command}: {out}"
        );
    }
    assert!(out.contains("\n   h  g  f  e  d  c  b  a\n1 "), "{out}");
    assert!(
        out.contains("level 1: cavalier searches to depth 1 "),
        "{out}"
    );
    assert!(
        out.contains("level 3: cavalier searches to depth 3 "),
        "{out}"
    );
    assert!(out.contains("error: bad level \"0\""), "{out}");
    assert!(
        out.contains("level off: cavalier thinks 1000 ms a move"),
        "{out}"
    );
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("new game: you have the Black pieces"), "{out}");
    // In the new game the engine (White) moves first, and the round counts.
    let after_new = &out[out.find("new game").unwrap_or(0)..];
    assert!(after_new.contains("cavalier plays 1. "), "{out}");
    assert!(after_new.contains("[Round \"2\"]"), "{out}");
}

#[test]
fn end_of_input_ends_cleanly_with_the_game_so_far() {
    for input in ["", "e4\n", "e4"] {
        let o = play(&["--level", "1"], input);
        assert_eq!(o.code, Some(0), "{input:?}: {}", o.stderr);
        let out = &o.stdout;
        assert!(out.contains("end of input"), "{out}");
        assert!(out.contains("[Result \"*\"]"), "{out}");
        assert!(o.stderr.is_empty(), "{}", o.stderr);
    }
}

#[test]
fn bad_options_exit_with_code_2() {
    for args in [
        vec!["--color", "red"],
        vec!["--color"],
        vec!["--movetime", "0"],
        vec!["--movetime", "soon"],
        vec!["--movetime", "-5"],
        vec!["--level", "0"],
        vec!["--level", "21"],
        vec!["--level", "x"],
        vec!["--fen", "not a fen"],
        vec!["--fen"],
        vec!["--fen", "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"],
        vec!["--frobnicate"],
        vec!["stray"],
    ] {
        let o = play(&args, "");
        assert_eq!(o.code, Some(2), "{args:?}");
        let err = &o.stderr;
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains("usage: cavalier play"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = play(&["--help"], "");
    assert_eq!(o.code, Some(0));
    assert!(o.stdout.contains("--movetime MS"));
}
