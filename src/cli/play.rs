//! `cavalier play`: a game against the engine in the terminal.
//!
//! The human types moves (SAN or coordinates) and commands on stdin; the
//! board, the engine's replies and the game state go to stdout. Everything
//! is line based, so the same loop serves a person at a terminal and a test
//! that pipes a whole game in. When stdin is not a terminal the typed lines
//! are echoed after the prompt, which keeps a piped transcript readable.
//!
//! The game is a [`Board`] whose own move history holds the moves played
//! since the start position, so `undo` is `unmake` and the PGN is rebuilt by
//! replaying that history: there is no second record to keep in step.

use crate::chess::board::{Board, Outcome};
use crate::chess::diagram::{render, Diagram};
use crate::chess::notation::{parse_move, to_san, MoveError};
use crate::chess::types::*;
use crate::engine::search::{mate_in, SearchControl, SearchLimits, SearchResult, Searcher};
use crate::engine::time::TimePlan;
use crate::engine::tt::TranspositionTable;
use crate::util::command_line::{unexpected, CommandLine, EXIT_FAILED, EXIT_USAGE};
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Engine thinking time per move when `--movetime` is not given.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;
/// Longest thinking time accepted (one hour): beyond it a typo is likelier
/// than a wish.
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// Weakest level: search depth in plies.
pub const MIN_LEVEL: i32 = 1;
/// Strongest level: search depth in plies.
pub const MAX_LEVEL: i32 = 20;
/// Transposition table size for the game; small, since moves are quick.
const HASH_MB: usize = 16;
/// PGN move text is wrapped to lines of at most this many characters.
const PGN_WIDTH: usize = 80;
/// The move list printed by `moves` is wrapped to this width too.
const LIST_WIDTH: usize = 80;
/// Centipawns per pawn, for printing evaluations.
const CENTIPAWNS: f64 = 100.0;
/// Seconds in a day, for today's date in the PGN.
const SECONDS_PER_DAY: u64 = 86_400;
/// Name of the human player in the PGN tags.
const HUMAN_NAME: &str = "Human";
/// How the engine is named in messages.
const ENGINE_SIDE: &str = "cavalier";
/// How the human is named in messages.
const HUMAN_SIDE: &str = "you";
/// Unknown tag value in PGN.
const PGN_UNKNOWN: &str = "?";

const USAGE: &str =
    "usage: cavalier play [--color white|black] [--movetime MS] [--level N] [--fen FEN] [--ascii]
  --color white|black  the side you play (default white)
  --movetime MS        cavalier's thinking time per move, in ms (default 1000)
  --level N            cavalier's search depth, 1..20 (default: the time alone)
  --fen FEN            start from this position (one quoted argument, or its words)
  --ascii              draw the pieces as letters (White upper case)";

const HELP: &str =
    "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or in coordinates (e2e4, g1f3, e7e8q).
Commands:
  moves              list the legal moves
  undo               take back your last move and cavalier's reply
  hint               ask cavalier for a move
  flip               turn the board around
  board              draw the board again
  fen                print the position as FEN
  pgn [FILE]         print the game as PGN, or save it to FILE
  level [N|off]      show or set cavalier's strength: search depth N (1..20), or off (time only)
  new [white|black]  start again from the first position, optionally changing sides
  help               this text
  quit               end the session (the game so far is printed as PGN)";

/// Settings of a game, from the command line.
#[derive(Clone)]
pub struct PlayOptions {
    /// The side the human plays.
    pub human: Color,
    /// The engine's thinking time per move.
    pub movetime: Duration,
    /// Maximum search depth, or `None` to let the clock alone decide.
    pub level: Option<i32>,
    /// Start position given with `--fen`, already validated.
    pub start: Option<Board>,
    /// Letters instead of chess symbols.
    pub ascii: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            human: Color::White,
            movetime: Duration::from_millis(DEFAULT_MOVETIME_MS),
            level: None,
            start: None,
            ascii: false,
        }
    }
}

/// What the command line asked for.
enum Request {
    /// Boxed: the options hold a whole board.
    Play(Box<PlayOptions>),
    Help,
}

/// Runs `cavalier play` with the words after `play`; returns the exit code
/// (0 normal end, 2 bad arguments, 1 when the output could not be written).
pub fn command(args: &[String]) -> i32 {
    let options = match parse_args(args) {
        Ok(Request::Play(o)) => *o,
        Ok(Request::Help) => {
            crate::util::command_line::say_line(USAGE);
            return 0;
        }
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return EXIT_USAGE;
        }
    };
    let stdin = io::stdin();
    // A person at a terminal sees what they type; a pipe does not echo.
    let echo = !stdin.is_terminal();
    let mut out = io::stdout().lock();
    match play(stdin.lock(), &mut out, options, echo) {
        Ok(()) => 0,
        // The reader went away (e.g. `| head`): nothing left to tell anyone.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILED
        }
    }
}

/// Parses the options of `cavalier play`.
fn parse_args(args: &[String]) -> Result<Request, String> {
    let mut options = PlayOptions::default();
    // `--name=value` is accepted as well as `--name value`.
    let mut args = CommandLine::with_inline_values(args);
    while let Some(name) = args.next() {
        match name {
            "-h" | "--help" => return Ok(Request::Help),
            "--ascii" => {
                args.no_value()?;
                options.ascii = true;
            }
            "--fen" => {
                // The FEN may come as one argument or as its words (also
                // after `--fen=`): take everything up to the next option.
                let text = args.values_up_to_option().join(" ");
                if text.trim().is_empty() {
                    return Err("--fen needs a FEN".to_string());
                }
                let board = Board::from_fen(&text).map_err(|e| format!("bad --fen: {e}"))?;
                options.start = Some(board);
            }
            "--movetime" => options.movetime = parse_movetime(args.value()?)?,
            "--level" => options.level = parse_level(name, args.value()?)?,
            "--color" | "--colour" => {
                let value = args.value()?;
                options.human =
                    parse_color(value).ok_or_else(|| bad_value(name, value, "white or black"))?
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option \"{}\"", shorten(other)))
            }
            other => return Err(unexpected(other)),
        }
    }
    Ok(Request::Play(Box::new(options)))
}

/// An error message naming the option, the value and what was expected.
fn bad_value(name: &str, value: &str, expected: &str) -> String {
    format!("bad {name} \"{}\": expected {expected}", shorten(value))
}

/// User text cut to a length fit for an error message.
fn shorten(text: &str) -> String {
    crate::util::text::quote(text)
}

fn parse_color(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}

fn parse_movetime(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => Ok(Duration::from_millis(ms)),
        _ => Err(bad_value(
            "--movetime",
            text,
            &format!("milliseconds 1..={MAX_MOVETIME_MS}"),
        )),
    }
}

/// A level: a depth in `MIN_LEVEL..=MAX_LEVEL`, or `off` (no depth limit).
/// `name` is how the value was given, for the error message.
fn parse_level(name: &str, text: &str) -> Result<Option<i32>, String> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    match text.parse::<i32>() {
        Ok(n) if (MIN_LEVEL..=MAX_LEVEL).contains(&n) => Ok(Some(n)),
        _ => Err(bad_value(
            name,
            text,
            &format!("a depth {MIN_LEVEL}..={MAX_LEVEL} or off"),
        )),
    }
}

/// Plays a session: reads moves and commands from `input` until `quit` or
/// end of input, writing everything to `out`. With `echo`, each line read is
/// written after the prompt (for input that is not typed on a terminal).
pub fn play<R: BufRead, W: Write>(
    mut input: R,
    out: &mut W,
    options: PlayOptions,
    echo: bool,
) -> io::Result<()> {
    let mut game = Game::new(options);
    game.introduce(out)?;
    loop {
        if game.outcome().is_none() && game.board.side_to_move() != game.human {
            if !game.engine_move(out)? {
                return Ok(());
            }
            continue;
        }
        write!(out, "{}", game.prompt())?;
        out.flush()?;
        let Some(line) = read_line(&mut input)? else {
            writeln!(out)?;
            writeln!(out, "end of input")?;
            game.farewell(out)?;
            return Ok(());
        };
        if echo {
            writeln!(out, "{line}")?;
        }
        if game.handle(&line, out)? == Flow::Quit {
            game.farewell(out)?;
            return Ok(());
        }
        out.flush()?;
    }
}

/// One line of input without its line ending, or `None` at end of input.
/// Bytes that are not UTF-8 are replaced rather than refused, so they end up
/// as a bad move text instead of an I/O error.
fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(Some(text.trim().to_string()))
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Outcome {
    fn describe(self) -> String {
        match self {
            Outcome::Checkmate(winner) => format!("checkmate, {} wins", color_name(winner)),
            Outcome::Stalemate => "stalemate, a draw".to_string(),
            Outcome::Repetition => "draw by threefold repetition".to_string(),
            Outcome::FiftyMoves => "draw by the fifty-move rule".to_string(),
            Outcome::InsufficientMaterial => "draw by insufficient material".to_string(),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A move with its number, as written in a game: `12. Nf3` or `12... Nf6`.
fn numbered(number: u32, mover: Color, san: &str) -> String {
    match mover {
        Color::White => format!("{number}. {san}"),
        Color::Black => format!("{number}... {san}"),
    }
}

/// One played move, for PGN and messages.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PlayedMove {
    number: u32,
    mover: Color,
    san: String,
}

/// Move text of a game: numbers before White's moves, and before the first
/// move when Black made it (`5... Nf6`); one token per move.
fn move_tokens(moves: &[PlayedMove]) -> Vec<String> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if m.mover == Color::White || i == 0 {
                numbered(m.number, m.mover, &m.san)
            } else {
                m.san.clone()
            }
        })
        .collect()
}

/// Joins words into lines of at most `width` characters (a longer word gets
/// a line of its own).
fn wrap(words: &[String], width: usize) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for word in words {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            text.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(word);
        line_len += len;
    }
    text
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
fn pgn_date() -> String {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(since) => {
            let (y, m, d) = civil_date((since.as_secs() / SECONDS_PER_DAY) as i64);
            format!("{y:04}.{m:02}.{d:02}")
        }
        // A clock before 1970 is a broken clock: say the date is unknown.
        Err(_) => "????.??.??".to_string(),
    }
}

/// Year, month and day of a count of days since 1970-01-01, in the
/// proleptic Gregorian calendar. Years are counted from March so that the
/// leap day falls at the end of the year, and in 400-year eras, which repeat
/// exactly.
fn civil_date(days: i64) -> (i64, u32, u32) {
    const DAYS_PER_ERA: i64 = 146_097;
    // Days from 0000-03-01 to 1970-01-01.
    const EPOCH_SHIFT: i64 = 719_468;
    let z = days + EPOCH_SHIFT;
    let era = z.div_euclid(DAYS_PER_ERA);
    let day_of_era = z.rem_euclid(DAYS_PER_ERA);
    // Leap days so far in the era (one per 4 years of 1 460 + 1 days, none
    // per century of 36 524 days, one again at the era's end) are taken out
    // before dividing by 365.
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March; 153 days in every five months.
    let march_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month as u32, day as u32)
}

/// An evaluation in pawns, or a mate distance, from the point of view of
/// `side` ("cavalier" or "you"), who is to move.
fn describe_score(score: i32, side: &str) -> String {
    match mate_in(score) {
        Some(n) if n > 0 => format!("mate in {n} for {side}"),
        Some(n) => format!("mate in {} against {side}", -n),
        None => format!("eval {:+.2} for {side}", f64::from(score) / CENTIPAWNS),
    }
}

/// The state of a session.
struct Game {
    /// The position the games of this session start from.
    start: Board,
    /// True when `start` came from `--fen` (the PGN then needs FEN tags).
    from_fen: bool,
    /// The current position; its history is the game's moves.
    board: Board,
    human: Color,
    /// The board is drawn from the engine's side.
    flipped: bool,
    level: Option<i32>,
    movetime: Duration,
    ascii: bool,
    /// Games started in this session, for the PGN's Round tag.
    round: u32,
    date: String,
    searcher: Searcher,
    tt: TranspositionTable,
}

impl Game {
    fn new(options: PlayOptions) -> Game {
        let from_fen = options.start.is_some();
        let start = options.start.unwrap_or_else(Board::startpos);
        Game {
            board: start.clone(),
            start,
            from_fen,
            human: options.human,
            flipped: false,
            level: options.level,
            movetime: options.movetime,
            ascii: options.ascii,
            round: 1,
            date: pgn_date(),
            searcher: Searcher::new(),
            tt: TranspositionTable::new(HASH_MB),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    /// The opening words, the board, and the result if the start position
    /// is already over.
    fn introduce<W: Write>(&self, out: &mut W) -> io::Result<()> {
        writeln!(
            out,
            "cavalier play: you have the {} pieces; cavalier {}.",
            color_name(self.human),
            self.strength()
        )?;
        writeln!(
            out,
            "Type a move (e4, Nf3, O-O, g1f3) or a command ('help' lists them)."
        )?;
        self.show_board(out)?;
        if let Some(o) = self.outcome() {
            self.announce(o, out)?;
        }
        Ok(())
    }

    /// How the engine's moves are limited, in words.
    fn strength(&self) -> String {
        let ms = self.movetime.as_millis();
        match self.level {
            Some(depth) => format!("searches to depth {depth} (at most {ms} ms a move)"),
            None => format!("thinks {ms} ms a move"),
        }
    }

    fn prompt(&self) -> String {
        if self.outcome().is_some() {
            return "game over> ".to_string();
        }
        let number = self.board.fullmove_number();
        match self.board.side_to_move() {
            Color::White => format!("{number}. your move> "),
            Color::Black => format!("{number}... your move> "),
        }
    }

    fn show_board<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let bottom = if self.flipped {
            self.human.flip()
        } else {
            self.human
        };
        writeln!(out)?;
        write!(
            out,
            "{}",
            render(&self.board, &Diagram::play(bottom, self.ascii))
        )?;
        if let Some(last) = self.played().last() {
            writeln!(
                out,
                "last move: {}",
                numbered(last.number, last.mover, &last.san)
            )?;
        }
        Ok(())
    }

    /// The moves played since the start position.
    fn played(&self) -> Vec<PlayedMove> {
        let mut replay = self.start.clone();
        let moves: Vec<Move> = self.board.played_moves().collect();
        let mut list = Vec::with_capacity(moves.len());
        for mv in moves {
            list.push(PlayedMove {
                number: replay.fullmove_number(),
                mover: replay.side_to_move(),
                san: to_san(&replay, mv),
            });
            replay.make(mv);
        }
        list
    }

    /// The game so far as PGN (Seven Tag Roster, FEN tags after a set-up
    /// position, move text wrapped).
    fn pgn(&self) -> String {
        let result = self.outcome().map_or("*", Outcome::result);
        let engine = format!("cavalier {}", env!("CARGO_PKG_VERSION"));
        let (white, black) = match self.human {
            Color::White => (HUMAN_NAME.to_string(), engine),
            Color::Black => (engine, HUMAN_NAME.to_string()),
        };
        let mut tags = vec![
            ("Event", "cavalier play".to_string()),
            ("Site", PGN_UNKNOWN.to_string()),
            ("Date", self.date.clone()),
            ("Round", self.round.to_string()),
            ("White", white),
            ("Black", black),
            ("Result", result.to_string()),
        ];
        if self.from_fen {
            tags.push(("SetUp", "1".to_string()));
            tags.push(("FEN", self.start.to_fen()));
        }
        let mut text = String::new();
        for (name, value) in tags {
            // PGN strings escape backslashes and quotes.
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        text.push('\n');
        let mut words = move_tokens(&self.played());
        words.push(result.to_string());
        text.push_str(&wrap(&words, PGN_WIDTH));
        text.push('\n');
        text
    }

    /// The result, who won, and the PGN.
    fn announce<W: Write>(&self, outcome: Outcome, out: &mut W) -> io::Result<()> {
        let verdict = match outcome {
            Outcome::Checkmate(winner) if winner == self.human => "you win",
            Outcome::Checkmate(_) => "cavalier wins",
            _ => "nobody wins",
        };
        writeln!(
            out,
            "game over: {} ({}): {verdict}.",
            outcome.describe(),
            outcome.result()
        )?;
        writeln!(out)?;
        write!(out, "{}", self.pgn())?;
        writeln!(out)?;
        writeln!(
            out,
            "Type 'new' for another game, 'undo' to take back your last move, or 'quit'."
        )
    }

    /// At the end of a session: the unfinished game's PGN (a finished one
    /// was printed when it ended).
    fn farewell<W: Write>(&self, out: &mut W) -> io::Result<()> {
        if self.outcome().is_none() {
            writeln!(out, "the game so far:")?;
            writeln!(out)?;
            write!(out, "{}", self.pgn())?;
        }
        out.flush()
    }

    /// The search limits for one move: a depth with the clock as a safety
    /// net when a level is set (so play is repeatable), the clock alone
    /// otherwise.
    fn limits(&self) -> SearchLimits {
        match self.level {
            Some(depth) => SearchLimits {
                max_depth: depth,
                time: TimePlan {
                    soft: None,
                    hard: Some(self.movetime),
                },
                ..SearchLimits::default()
            },
            None => SearchLimits {
                time: TimePlan {
                    soft: Some(self.movetime),
                    hard: Some(self.movetime),
                },
                ..SearchLimits::default()
            },
        }
    }

    fn search(&mut self) -> SearchResult {
        let limits = self.limits();
        let ctl = SearchControl::new(false);
        let result = self
            .searcher
            .think(&mut self.board, &limits, &ctl, &self.tt, &mut |_| {});
        log::debug!(
            "play: depth {} score {} nodes {} in {:?}",
            result.depth,
            result.score,
            result.nodes,
            ctl.elapsed()
        );
        result
    }

    /// The engine moves; false if it could not (which a position that is not
    /// over never causes).
    fn engine_move<W: Write>(&mut self, out: &mut W) -> io::Result<bool> {
        let result = self.search();
        if result.best.is_none() {
            writeln!(out, "error: cavalier found no move")?;
            return Ok(false);
        }
        let label = numbered(
            self.board.fullmove_number(),
            self.board.side_to_move(),
            &to_san(&self.board, result.best),
        );
        writeln!(
            out,
            "cavalier plays {label} (depth {}, {})",
            result.depth,
            describe_score(result.score, ENGINE_SIDE)
        )?;
        self.board.make(result.best);
        self.show_board(out)?;
        match self.outcome() {
            Some(o) => self.announce(o, out)?,
            None if self.board.in_check() => writeln!(out, "check: your king is attacked")?,
            None => {}
        }
        Ok(true)
    }

    /// Acts on one line of input.
    fn handle<W: Write>(&mut self, line: &str, out: &mut W) -> io::Result<Flow> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(Flow::Continue);
        };
        // Everything after the command word, e.g. a file name with spaces.
        let rest = line[first.len()..].trim();
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Ok(Flow::Quit),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => self.show_board(out)?,
            "flip" => {
                self.flipped = !self.flipped;
                self.show_board(out)?;
            }
            "fen" => writeln!(out, "{}", self.board.to_fen())?,
            "moves" => self.list_moves(out)?,
            "undo" | "takeback" => self.undo(out)?,
            "hint" => self.hint(out)?,
            "pgn" => self.save_pgn(rest, out)?,
            "level" => self.set_level(rest, out)?,
            "new" => self.new_game(rest, out)?,
            _ => self.human_move(line, out)?,
        }
        Ok(Flow::Continue)
    }

    fn human_move<W: Write>(&mut self, text: &str, out: &mut W) -> io::Result<()> {
        if let Some(o) = self.outcome() {
            return writeln!(
                out,
                "the game is over ({}): type 'new', 'undo' or 'quit'",
                o.result()
            );
        }
        let mv = match parse_move(&self.board, text) {
            Ok(mv) => mv,
            Err(e) => return self.refuse(&e, out),
        };
        let label = numbered(
            self.board.fullmove_number(),
            self.board.side_to_move(),
            &to_san(&self.board, mv),
        );
        writeln!(out, "you play {label}")?;
        self.board.make(mv);
        if let Some(o) = self.outcome() {
            self.show_board(out)?;
            self.announce(o, out)?;
        }
        Ok(())
    }

    /// Says why a move was refused and where to look for a good one.
    fn refuse<W: Write>(&self, error: &MoveError, out: &mut W) -> io::Result<()> {
        let why = match error {
            MoveError::Illegal(_) if self.board.in_check() => " (your king is in check)",
            MoveError::Illegal(_) => "",
            MoveError::Ambiguous(_) => {
                " (more than one piece can go there: add its file or rank, e.g. Nbd2)"
            }
            MoveError::Syntax(_) => " (neither a move nor a command: 'help' lists the commands)",
        };
        writeln!(out, "{error}{why}: type 'moves' for the legal moves")
    }

    fn list_moves<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let mut sans: Vec<String> = self
            .board
            .legal_moves()
            .iter()
            .map(|&m| to_san(&self.board, m))
            .collect();
        if sans.is_empty() {
            return writeln!(out, "no legal moves: the game is over");
        }
        sans.sort();
        writeln!(out, "legal moves ({}):", sans.len())?;
        writeln!(out, "{}", wrap(&sans, LIST_WIDTH))
    }

    /// Takes back moves until one of the human's is undone, so that it is
    /// the human's turn again: normally the engine's reply and the move
    /// before it, or only the human's move when it ended the game.
    fn undo<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        let played = self.played();
        let human_moved = played.iter().any(|m| m.mover == self.human);
        if !human_moved {
            return writeln!(out, "nothing to undo: you have not moved yet");
        }
        let mut taken = 0;
        loop {
            self.board.unmake();
            taken += 1;
            if self.board.side_to_move() == self.human {
                break;
            }
        }
        let undone = &played[played.len() - taken..];
        writeln!(out, "took back {}", move_tokens(undone).join(" "))?;
        self.show_board(out)
    }

    fn hint<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        if self.outcome().is_some() {
            return writeln!(out, "no hint: the game is over");
        }
        let result = self.search();
        if result.best.is_none() {
            return writeln!(out, "no hint: no legal move");
        }
        writeln!(
            out,
            "hint: {} ({})",
            to_san(&self.board, result.best),
            describe_score(result.score, HUMAN_SIDE)
        )
    }

    fn save_pgn<W: Write>(&self, path: &str, out: &mut W) -> io::Result<()> {
        let text = self.pgn();
        if path.is_empty() {
            return write!(out, "{text}");
        }
        match std::fs::write(path, &text) {
            Ok(()) => writeln!(out, "saved the game to \"{path}\""),
            Err(e) => writeln!(out, "error: cannot write \"{}\": {e}", shorten(path)),
        }
    }

    fn set_level<W: Write>(&mut self, arg: &str, out: &mut W) -> io::Result<()> {
        if !arg.is_empty() {
            match parse_level("level", arg) {
                Ok(level) => self.level = level,
                Err(e) => return writeln!(out, "error: {e}"),
            }
        }
        let level = self
            .level
            .map_or("off".to_string(), |depth| depth.to_string());
        writeln!(out, "level {level}: cavalier {}", self.strength())
    }

    fn new_game<W: Write>(&mut self, arg: &str, out: &mut W) -> io::Result<()> {
        if !arg.is_empty() {
            match parse_color(arg) {
                Some(c) => self.human = c,
                None => {
                    return writeln!(out, "error: {}", bad_value("colour", arg, "white or black"))
                }
            }
        }
        self.board = self.start.clone();
        self.flipped = false;
        self.round += 1;
        // A new opponent, as far as the engine's memory is concerned.
        self.searcher.clear();
        self.tt.clear();
        writeln!(
            out,
            "new game: you have the {} pieces",
            color_name(self.human)
        )?;
        self.show_board(out)?;
        if let Some(o) = self.outcome() {
            self.announce(o, out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::START_FEN;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    fn options(words: &[&str]) -> Result<PlayOptions, String> {
        match parse_args(&args(words))? {
            Request::Play(o) => Ok(*o),
            Request::Help => Err("help".to_string()),
        }
    }

    /// Plays `input` with `words` as options; returns the transcript.
    fn session(words: &[&str], input: &str) -> String {
        let mut out = Vec::new();
        let opts = options(words).unwrap();
        play(input.as_bytes(), &mut out, opts, true).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn options_are_parsed() {
        let o = options(&[
            "--color",
            "black",
            "--movetime=250",
            "--level",
            "3",
            "--ascii",
        ])
        .unwrap();
        assert_eq!(o.human, Color::Black);
        assert_eq!(o.movetime, Duration::from_millis(250));
        assert_eq!(o.level, Some(3));
        assert!(o.ascii && o.start.is_none());
        let o = options(&["--fen", "8/8/8/8/8/8/8/K1k5", "w", "-", "-", "--ascii"]).unwrap();
        assert_eq!(o.start.unwrap().to_fen(), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        assert!(o.ascii);
        let o = options(&["--fen=8/8/8/8/8/8/8/K1k5", "b", "-", "-"]).unwrap();
        assert_eq!(o.start.unwrap().to_fen(), "8/8/8/8/8/8/8/K1k5 b - - 0 1");
        assert!(matches!(parse_args(&args(&["--help"])), Ok(Request::Help)));
    }

    #[test]
    fn bad_options_are_named() {
        for (words, needle) in [
            (vec!["--color", "red"], "bad --color \"red\""),
            (vec!["--color"], "--color needs a value"),
            (vec!["--movetime", "0"], "bad --movetime \"0\""),
            (vec!["--movetime", "fast"], "bad --movetime"),
            (vec!["--level", "21"], "bad --level \"21\""),
            (vec!["--fen", "x"], "bad --fen"),
            (vec!["--fen"], "--fen needs a FEN"),
            (vec!["--ascii=yes"], "takes no value"),
            (vec!["--frob"], "unknown option"),
            (vec!["white"], "unexpected argument"),
        ] {
            let err = options(&words).err().unwrap_or_default();
            assert!(err.contains(needle), "{words:?}: {err}");
        }
    }

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        assert_eq!(civil_date(11_017), (2000, 3, 1));
        assert_eq!(civil_date(19_782), (2024, 2, 29));
        assert_eq!(civil_date(47_541), (2100, 3, 1));
        assert_eq!(pgn_date().len(), "2024.02.29".len());
    }

    #[test]
    fn wrapping_respects_the_width() {
        let words: Vec<String> = (1..=60).map(|n| format!("{n}. Nf3")).collect();
        let text = wrap(&words, PGN_WIDTH);
        assert!(text.lines().count() > 1);
        assert!(text.lines().all(|l| l.len() <= PGN_WIDTH), "{text}");
        assert_eq!(text.split_whitespace().count(), 120);
    }

    #[test]
    fn outcomes() {
        let o = |fen: &str| Board::from_fen(fen).unwrap().outcome();
        assert_eq!(
            o("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
            Some(Outcome::Checkmate(Color::White))
        );
        assert_eq!(
            o("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some(Outcome::Stalemate)
        );
        assert_eq!(
            o("7k/8/6K1/8/8/8/8/6N1 b - - 0 1"),
            Some(Outcome::InsufficientMaterial)
        );
        assert_eq!(
            o("7k/8/6K1/8/8/8/8/R7 b - - 100 80"),
            Some(Outcome::FiftyMoves)
        );
        assert_eq!(o(START_FEN), None);
    }

    #[test]
    fn repetition_ends_the_game() {
        // Knights out and back twice: the start position occurs a third time.
        let mut b = Board::from_fen("4k3/8/8/8/8/8/8/1N2K1n1 w - - 0 1").unwrap();
        for text in ["Nc3", "Nh3", "Nb1", "Ng1", "Nc3", "Nh3", "Nb1", "Ng1"] {
            assert_eq!(b.outcome(), None);
            b.make(parse_move(&b, text).unwrap());
        }
        assert_eq!(b.outcome(), Some(Outcome::Repetition));
    }

    #[test]
    fn pgn_numbers_start_from_black() {
        let moves = vec![
            PlayedMove {
                number: 7,
                mover: Color::Black,
                san: "Nf6".into(),
            },
            PlayedMove {
                number: 8,
                mover: Color::White,
                san: "e5".into(),
            },
            PlayedMove {
                number: 8,
                mover: Color::Black,
                san: "Nd5".into(),
            },
        ];
        assert_eq!(move_tokens(&moves), ["7... Nf6", "8. e5", "Nd5"]);
    }

    #[test]
    fn a_session_in_memory() {
        let out = session(
            &["--level", "1", "--ascii"],
            "e4\nundo\nundo\nNf9\nfen\nquit\n",
        );
        assert!(out.contains("you play 1. e4"), "{out}");
        assert!(out.contains("took back 1. e4"), "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
        assert!(out.contains("bad move text \"Nf9\""), "{out}");
        assert!(out.contains(START_FEN), "{out}");
        assert!(out.contains("[Result \"*\"]"), "{out}");
    }
}
