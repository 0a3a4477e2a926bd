//! PGN of engine matches (fastchess, cutechess-cli) read as training
//! games: the moves replayed from the game's start, each with the score
//! its engine reported in the move's comment.
//!
//! Both runners write the mover's score after each move, in pawns or as a
//! mate, then a slash and the depth: `{+0.35/12 0.123s, ...}` (fastchess),
//! `{+0.35/12 0.123s}` (cutechess-cli), `{-M3/20 ...}`; a book move's
//! comment is `{book}` and has no score. Scores are turned to White's view
//! in centipawns; a mate in n moves becomes the engine's mate score
//! (`MATE` less the plies, 2n - 1 for the side that mates, 2n for the side
//! mated). Moves are SAN or UCI coordinates (fastchess's `notation=san`
//! or `uci`). Variations, NAGs, `;` comments and `%` lines are skipped.

use super::games::{stored_result, stored_score, Game, NO_SCORE};
use crate::chess::board::Board;
use crate::chess::notation::parse_move;
use crate::chess::types::{Color, Move};
use crate::engine::score::MATE;

/// A game as PGN text holds it: tags, moves with their comments, and the
/// termination marker.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    /// Each move's SAN and the first comment after it.
    pub moves: Vec<(String, Option<String>)>,
    pub termination: Option<String>,
    /// The line of the text where the game begins (from 1).
    pub line: usize,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN's are).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn has_movetext(&self) -> bool {
        !self.moves.is_empty() || self.termination.is_some()
    }
}

/// The games of a PGN text, in order.
pub fn parse(text: &str) -> Vec<PgnGame> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut game = PgnGame {
        line: 1,
        ..PgnGame::default()
    };
    let mut line = 1;
    let mut i = 0;
    // Reads up to (and past) `end`, counting lines; returns the text.
    let take_until = |i: &mut usize, line: &mut usize, end: char| -> String {
        let mut s = String::new();
        while *i < chars.len() && chars[*i] != end {
            if chars[*i] == '\n' {
                *line += 1;
            }
            s.push(chars[*i]);
            *i += 1;
        }
        *i += 1;
        s
    };
    let at_line_start = |i: usize| i == 0 || chars[i - 1] == '\n';
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '%' if at_line_start(i) => {
                take_until(&mut i, &mut line, '\n');
                line += 1;
            }
            ';' => {
                take_until(&mut i, &mut line, '\n');
                line += 1;
            }
            '[' => {
                if game.has_movetext() {
                    out.push(std::mem::take(&mut game));
                }
                if game.tags.is_empty() {
                    game.line = line;
                }
                i += 1;
                let body = take_until(&mut i, &mut line, ']');
                let body = body.trim();
                let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
                let value = body[name.len()..].trim();
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(value)
                    .replace("\\\"", "\"")
                    .replace("\\\\", "\\");
                game.tags.push((name, value));
            }
            '{' => {
                i += 1;
                let comment = take_until(&mut i, &mut line, '}');
                if let Some(last) = game.moves.last_mut() {
                    last.1.get_or_insert(comment);
                }
            }
            '(' => {
                // A variation, nested ones and comments inside it.
                let mut depth = 0;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '{' => {
                            take_until(&mut i, &mut line, '}');
                            continue;
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}()[];".contains(chars[i])
                {
                    i += 1;
                }
                if i == start {
                    i += 1; // a stray ')', '}' or ']'
                    continue;
                }
                let token: String = chars[start..i].iter().collect();
                if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.termination = Some(token);
                    if game.line == 0 {
                        game.line = line;
                    }
                    out.push(std::mem::take(&mut game));
                    game.line = 0;
                    continue;
                }
                if token.starts_with('$') {
                    continue;
                }
                // Move numbers, alone ("12.", "12...") or glued ("12.e4").
                let san = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let san = if san.len() < token.len() && san.starts_with('.') {
                    san.trim_start_matches('.')
                } else {
                    token.as_str()
                };
                if !san.is_empty() {
                    if game.line == 0 {
                        game.line = line;
                    }
                    game.moves.push((san.to_string(), None));
                }
            }
        }
    }
    if game.has_movetext() || !game.tags.is_empty() {
        out.push(game);
    }
    out
}

/// The mover's score of a runner's move comment (cp, or a mate score),
/// `None` for a book move or a comment without a score.
pub fn comment_score(comment: &str) -> Option<i32> {
    let first = comment
        .split([' ', ',', '\t', '\n'])
        .find(|w| !w.is_empty())?;
    let (value, depth) = first.split_once('/')?;
    if depth.parse::<u32>().is_err() {
        return None;
    }
    let (negative, body) = match value.as_bytes().first()? {
        b'+' => (false, &value[1..]),
        b'-' => (true, &value[1..]),
        _ => (false, value),
    };
    let score = if let Some(moves) = body.strip_prefix('M') {
        let n: i32 = moves.parse().ok().filter(|&n| (1..=500).contains(&n))?;
        if negative {
            -(MATE - 2 * n)
        } else {
            MATE - (2 * n - 1)
        }
    } else {
        let pawns: f64 = body.parse().ok().filter(|p: &f64| p.is_finite())?;
        let cp = (pawns * 100.0).round().clamp(-(MATE as f64), MATE as f64) as i32;
        if negative {
            -cp
        } else {
            cp
        }
    };
    Some(score)
}

/// Why a game was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// No result (`*`, or none at all).
    Unfinished,
    /// A player not named cavalier (neither the name nor the engine's
    /// name contains "cav").
    OtherEngine,
    /// Text that cannot be replayed: why.
    Unreadable(String),
}

/// Whether a name is cavalier's (contains "cav", any case).
fn is_cavalier(name: Option<&str>) -> bool {
    name.is_some_and(|n| n.to_ascii_lowercase().contains("cav"))
}

/// Whether `side` ("White" or "Black") is played by cavalier: its player's
/// name says so, or the engine's own name, which fastchess writes as
/// `EngineWhiteName` (an SPRT names its players "new" and "base").
fn plays_cavalier(pgn: &PgnGame, side: &str) -> bool {
    is_cavalier(pgn.tag(side)) || is_cavalier(pgn.tag(&format!("Engine{side}Name")))
}

/// The training game of a PGN game: every move replayed from the start
/// (the `FEN` tag, Chess960 when the `Variant` tag says so), each with its
/// comment's score from White's view ([`NO_SCORE`] for a book move).
/// Games of other engines than cavalier are skipped unless `any_engine`.
pub fn game_of(pgn: &PgnGame, any_engine: bool) -> Result<Game, Skip> {
    let unreadable = |why: String| Skip::Unreadable(why);
    let result = pgn
        .tag("Result")
        .filter(|r| *r != "*")
        .or(pgn.termination.as_deref());
    let result = match result {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        Some("*") | None => return Err(Skip::Unfinished),
        Some(other) => return Err(unreadable(format!("result \"{other}\""))),
    };
    let both_cavalier = plays_cavalier(pgn, "White") && plays_cavalier(pgn, "Black");
    if !(any_engine || both_cavalier) {
        return Err(Skip::OtherEngine);
    }
    let chess960 = match pgn.tag("Variant").map(|v| v.to_ascii_lowercase()) {
        None => false,
        Some(v) if ["standard", "normal", "chess", "from position", ""].contains(&v.as_str()) => {
            false
        }
        Some(v)
            if [
                "chess 960",
                "chess960",
                "fischerandom",
                "fischer random",
                "960",
            ]
            .contains(&v.as_str()) =>
        {
            true
        }
        Some(v) => return Err(unreadable(format!("variant \"{v}\""))),
    };
    let mut board = match pgn.tag("FEN") {
        Some(fen) => Board::from_fen(fen).map_err(|e| unreadable(e.to_string()))?,
        None => Board::startpos(),
    };
    if chess960 {
        board.set_chess960(true);
    }
    let start = board.clone();
    let mut plies: Vec<(Move, i16)> = Vec::with_capacity(pgn.moves.len());
    for (san, comment) in &pgn.moves {
        let mv = parse_move(&board, san)
            .map_err(|e| unreadable(format!("move {} ({san}): {e}", plies.len() / 2 + 1)))?;
        let score = match comment.as_deref().and_then(comment_score) {
            Some(s) if board.side_to_move() == Color::White => stored_score(s),
            Some(s) => stored_score(-s),
            None => NO_SCORE,
        };
        plies.push((mv, score));
        board.make(mv);
    }
    if plies.len() > super::games::MAX_PLIES {
        return Err(unreadable(format!("{} plies", plies.len())));
    }
    Ok(Game {
        start,
        result: stored_result(result),
        plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::net::games::{write_game, Filter};

    /// A fastchess game (its comment style, a book move, a mate score), a
    /// cutechess-cli Chess960 game from a FEN, an unfinished game, a game
    /// of another engine, one with an illegal move, and two of an SPRT
    /// (players "new" and "base"), cavalier against itself and against
    /// another engine.
    const PGN: &str = r#"[Event "Fast Chess"]
[White "cavalier-dev"]
[Black "Cavalier base"]
[Result "1-0"]

1. e4 {book} e5 {book} 2. Qh5 {+0.12/10 0.101s, info} Nc6 {-0.20/9 0.090s}
3. Bc4 {+1.05/11 0.110s} Nf6 {-4.30/9 0.095s} 4. Qxf7# {+M1/1 0.001s, White mates} 1-0

[Event "?"]
[White "cav-a"]
[Black "cav-b"]
[Result "1/2-1/2"]
[Variant "fischerandom"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. g3 {+0.30/12 0.2s} g6 {-0.25/12 0.2s} 2. f4 {+0.20/12 0.2s} (2. Nf3 Nf6) f5
{-M3/20 0.1s} ; a note
3. Nf2 $1 {+0.10/13 0.2s} 1/2-1/2

[White "cavalier"]
[Black "cavalier"]
[Result "*"]

1. d4 {+0.10/5 0.1s} *

[White "stockfish"]
[Black "cavalier"]
[Result "0-1"]

1. f2f3 {-0.50/5 0.1s} e7e5 {+0.6/5 0.1s} 0-1

[White "cavalier"]
[Black "cavalier"]
[Result "0-1"]

1. e4 {+0.1/5 0.1s} e4 {+0.1/5 0.1s} 0-1

[White "new"]
[Black "base"]
[Result "1-0"]
[EngineWhiteName "cavalier 0.1.0"]
[EngineBlackName "cavalier 0.1.0"]

1. d4 {+0.20/8 0.010s} d5 {-0.15/8 0.010s} 1-0

[White "new"]
[Black "base"]
[Result "1-0"]
[EngineWhiteName "cavalier 0.1.0"]
[EngineBlackName "Stockfish 15.1"]

1. d4 {+0.20/8 0.010s} d5 {-0.15/8 0.010s} 1-0
"#;

    #[test]
    fn runner_comments_give_the_movers_score() {
        assert_eq!(comment_score("+0.35/12 0.123s, ..."), Some(35));
        assert_eq!(comment_score("+0.35/12 0.123s"), Some(35));
        assert_eq!(comment_score("-1.5/7"), Some(-150));
        assert_eq!(comment_score("0.00/1 0s"), Some(0));
        assert_eq!(comment_score("+M5/30 1s"), Some(MATE - 9));
        assert_eq!(comment_score("-M3/30 1s"), Some(-(MATE - 6)));
        for none in [
            "book", "", "+0.3", "x/3", "+0.3/x", "+M/3", "+Mx/3", "nan/3",
        ] {
            assert_eq!(comment_score(none), None, "{none}");
        }
    }

    #[test]
    fn match_games_are_replayed_with_white_scores() {
        let pgn = parse(PGN);
        assert_eq!(pgn.len(), 7);
        let games: Vec<Result<Game, Skip>> = pgn.iter().map(|g| game_of(g, false)).collect();
        // The fastchess game: book moves unscored, Black's -0.20 is +20 for
        // White, the mate kept as a mate score.
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.result, 2);
        let scores: Vec<i16> = g.plies.iter().map(|p| p.1).collect();
        assert_eq!(
            scores,
            [NO_SCORE, NO_SCORE, 12, 20, 105, 430, stored_score(MATE - 1)]
        );
        // Kept for training: the four quiet scored moves (plies 2 to 5);
        // the book moves have no score, Qxf7# is a capture scored as a mate.
        let mut records = Vec::new();
        g.records(&Filter::training(3000), &mut records);
        assert_eq!(records.len(), 4);
        // The Chess960 game from its FEN, the variation skipped.
        let g = games[1].as_ref().unwrap();
        assert!(g.start.is_chess960());
        assert_eq!(g.result, 1);
        let scores: Vec<i16> = g.plies.iter().map(|p| p.1).collect();
        assert_eq!(scores, [30, 25, 20, stored_score(MATE - 6), 10]);
        let bytes = write_game(g).unwrap();
        assert_eq!(super::super::games::read_game(&bytes, 0).unwrap().0, *g);
        assert_eq!(games[2], Err(Skip::Unfinished));
        assert_eq!(games[3], Err(Skip::OtherEngine));
        // Moves in UCI notation (fastchess's notation=uci) read too.
        assert_eq!(game_of(&pgn[3], true).unwrap().plies[1].1, -60);
        match &games[4] {
            Err(Skip::Unreadable(why)) => assert!(why.contains("move 1 (e4)"), "{why}"),
            other => panic!("{other:?}"),
        }
        // An SPRT's players, "new" and "base": cavalier by the engines'
        // names fastchess writes; a game against another engine is not.
        let g = games[5].as_ref().unwrap();
        assert_eq!(g.plies.iter().map(|p| p.1).collect::<Vec<_>>(), [20, 15]);
        assert_eq!(games[6], Err(Skip::OtherEngine));
    }

    #[test]
    fn bad_pgn_never_panics() {
        for text in [
            "",
            "[",
            "{",
            "(",
            "1.",
            "[White \"cav\"] [Black \"cav\"] 1. e4 {",
            "[FEN \"bad\"][White \"cav\"][Black \"cav\"][Result \"1-0\"] 1. e4 1-0",
            "[Variant \"atomic\"][White \"cav\"][Black \"cav\"] 1. e4 1-0",
            "1. e4 {+9999999999999999999999.0/3} e5 1-0",
            ")))]]}}} 1-0 0-1",
        ] {
            for g in parse(text) {
                let _ = game_of(&g, true);
            }
        }
    }
}
