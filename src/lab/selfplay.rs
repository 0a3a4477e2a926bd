//! `cavalier selfplay`: games of the engine against itself at a small fixed
//! search per move, written as training positions for `cavalier tune`.
//!
//! Each game starts from a varied opening: a random prefix of a line of the
//! embedded book (or a random position of an `--openings` file), then a few
//! random legal moves; an opening the engine judges lopsided is drawn again
//! (`--opening-score`).
//! Every move is searched to a node limit (or a depth) with the game's own
//! searcher and small hash table, both cleared before each game, so a game
//! depends only on the seed and its number, not on the thread that plays it.
//!
//! Games end by the rules (mate, stalemate, threefold repetition, the
//! fifty-move rule, insufficient material) or by adjudication
//! ([`Adjudication`], by default: a side whose score stays beyond 1000 cp
//! for 8 plies wins, a game whose score stays within 10 cp of zero for 20
//! plies from ply 80 on is drawn; `--resign`, `--draw` and
//! `--no-adjudication` change it), and a game reaching `--max-plies` is
//! drawn.
//!
//! Output: one line per kept position, `FEN;RESULT;SCORE`, RESULT being
//! 1.0, 0.5 or 0.0 from White's point of view and SCORE the score (cp,
//! White's view, mates as the search reports them) of the search that
//! chose the move played there. Kept are the positions played after
//! the opening, not in check, whose chosen move is neither a capture nor a
//! promotion (quiet positions, as Texel's method wants). `--format
//! records` (or `--packed`) writes the same positions as 32-byte records
//! (`lab::net::packed`); `--format games` writes whole games instead, every
//! ply with its score (`lab::net::games`), filtered when read. Progress goes
//! to stderr.

use crate::book::EMBEDDED;
use crate::chess::board::{Board, Outcome};
use crate::chess::types::{Color, Move};
use crate::engine::nnue::file::fnv1a;
use crate::engine::nnue::{load, NetSource, Network};
use crate::engine::search::{SearchControl, SearchLimits, Searcher, MAX_DEPTH};
use crate::engine::tt::TranspositionTable;
use crate::util::command_line::{unexpected, CommandLine, EXIT_FAILED, EXIT_USAGE};
use crate::util::rng::{derive_seed, Rng};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default number of games.
pub const DEFAULT_GAMES: usize = 100;
/// Default nodes searched per move.
pub const DEFAULT_NODES: u64 = 5_000;
/// Default random plies after the book line (or opening position).
pub const DEFAULT_RANDOM_PLIES: usize = 4;
/// Default game length after which a game is drawn (plies).
pub const DEFAULT_MAX_PLIES: usize = 400;
/// Default hash table per game (MB).
pub const DEFAULT_HASH_MB: usize = 2;
/// Fewest book plies played before the random ones.
const MIN_BOOK_PLIES: usize = 2;
/// By default an opening whose first search scores beyond this (cp) is
/// drawn again (`--opening-score`)...
pub const DEFAULT_OPENING_SCORE: i32 = 300;
/// ...at most this many times.
const OPENING_TRIES: usize = 20;
/// When a game ends before the rules end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A win: the score (White's view) beyond `score` cp with the same sign
    /// for `plies` consecutive plies.
    pub resign: Option<Resign>,
    /// A draw: the score within `score` cp of zero for `plies` consecutive
    /// plies, counted from ply `from` of the game on.
    pub draw: Option<Draw>,
}

/// Win adjudication (see [`Adjudication`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    pub score: i32,
    pub plies: usize,
}

/// Draw adjudication (see [`Adjudication`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub score: i32,
    pub plies: usize,
    pub from: usize,
}

impl Adjudication {
    /// The setting every run had before it could be chosen.
    pub const DEFAULT: Adjudication = Adjudication {
        resign: Some(Resign {
            score: 1_000,
            plies: 8,
        }),
        draw: Some(Draw {
            score: 10,
            plies: 20,
            from: 80,
        }),
    };

    /// No adjudication: games end by the rules or `--max-plies` only.
    pub const NONE: Adjudication = Adjudication {
        resign: None,
        draw: None,
    };

    /// Its part of the progress mark: empty for the default (so that runs
    /// begun before the setting existed resume), else `:r1000x8:d10x20f80`
    /// (`-` for a rule that is off).
    fn mark(&self) -> String {
        if *self == Adjudication::DEFAULT {
            return String::new();
        }
        let resign = match self.resign {
            Some(r) => format!("r{}x{}", r.score, r.plies),
            None => "r-".to_string(),
        };
        let draw = match self.draw {
            Some(d) => format!("d{}x{}f{}", d.score, d.plies, d.from),
            None => "d-".to_string(),
        };
        format!(":{resign}:{draw}")
    }
}

/// Reads `--resign CP,PLIES` (or `off`).
fn parse_resign(text: &str) -> Result<Option<Resign>, String> {
    if text == "off" {
        return Ok(None);
    }
    match parse_numbers(text)[..] {
        [Some(score), Some(plies)]
            if (1..=30_000).contains(&score) && (1..=1000).contains(&plies) =>
        {
            Ok(Some(Resign {
                score: score as i32,
                plies: plies as usize,
            }))
        }
        _ => Err(format!(
            "--resign {text}: expected CP,PLIES (1..=30000 and 1..=1000) or off"
        )),
    }
}

/// Reads `--draw CP,PLIES,FROM` (or `off`).
fn parse_draw(text: &str) -> Result<Option<Draw>, String> {
    if text == "off" {
        return Ok(None);
    }
    match parse_numbers(text)[..] {
        [Some(score), Some(plies), Some(from)]
            if score <= 30_000 && (1..=1000).contains(&plies) && from <= 1000 =>
        {
            Ok(Some(Draw {
                score: score as i32,
                plies: plies as usize,
                from: from as usize,
            }))
        }
        _ => Err(format!(
            "--draw {text}: expected CP,PLIES,FROM (0..=30000, 1..=1000, 0..=1000) or off"
        )),
    }
}

/// Comma-separated unsigned numbers (`None` for a word that is not one).
fn parse_numbers(text: &str) -> Vec<Option<u64>> {
    text.split(',').map(|w| w.trim().parse().ok()).collect()
}

/// Seconds between progress lines.
const PROGRESS_SECONDS: u64 = 10;
/// Most threads and hash accepted.
const MAX_THREADS: usize = 256;
const MAX_HASH_MB: usize = 1024;

/// Options of `cavalier selfplay`.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfplayOptions {
    pub games: usize,
    /// Nodes a move: the hard limit.
    pub nodes: u64,
    /// A soft node limit under `nodes`: no iteration started past it.
    pub soft_nodes: Option<u64>,
    /// A fixed depth per move instead of the node limit.
    pub depth: Option<i32>,
    pub threads: usize,
    pub seed: u64,
    pub out: Option<String>,
    pub openings: Option<String>,
    /// Start from the 960 Chess960 start positions (instead of the book).
    pub chess960: bool,
    pub random_plies: usize,
    /// An opening scored beyond this (cp) by its first search is drawn
    /// again; `None`: any opening is played.
    pub opening_score: Option<i32>,
    pub max_plies: usize,
    pub hash_mb: usize,
    /// What is written: text, 32-byte records or games.
    pub format: OutputFormat,
    /// Carry on an interrupted run of the same command (`--out` needed).
    pub resume: bool,
    /// The first game to play (games before it are already written).
    pub first_game: usize,
    /// What evaluates in the games' searches.
    pub eval: SelfplayEval,
    /// When a game is adjudicated.
    pub adjudication: Adjudication,
}

/// What `cavalier selfplay` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// `FEN;RESULT;SCORE` lines of the quiet positions.
    Text,
    /// 32-byte records (`lab::net::packed`) of the quiet positions.
    Records,
    /// Whole games (`lab::net::games`): every ply, filtered when read.
    Games,
}

impl OutputFormat {
    const ALL: [OutputFormat; 3] = [
        OutputFormat::Text,
        OutputFormat::Records,
        OutputFormat::Games,
    ];

    /// The name `--format` takes (and the progress file records).
    fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Records => "records",
            OutputFormat::Games => "games",
        }
    }
}

/// The evaluation of `cavalier selfplay`'s searches.
#[derive(Clone, Debug, PartialEq)]
pub enum SelfplayEval {
    /// The hand-written evaluation (the default, so that a run started
    /// before networks existed resumes as it began).
    HandWritten,
    /// The network built into the binary.
    Embedded,
    /// A network file.
    File(String),
}

impl SelfplayEval {
    /// This choice read: its network (`None`: the hand-written evaluation)
    /// and its mark for the progress file, or why the network cannot be
    /// read.
    pub fn load(&self) -> Result<LoadedEval, String> {
        let network = match self {
            SelfplayEval::HandWritten => None,
            SelfplayEval::Embedded => Some(load(&NetSource::Embedded)?),
            SelfplayEval::File(path) => Some(load(&NetSource::named(path))?),
        };
        let mark = eval_mark(network.as_deref());
        Ok(LoadedEval { network, mark })
    }

    /// Its name in the first progress line.
    fn describe(&self) -> String {
        match self {
            SelfplayEval::HandWritten => "the hand-written evaluation".to_string(),
            SelfplayEval::Embedded => "the embedded network".to_string(),
            SelfplayEval::File(path) => format!("the network {path}"),
        }
    }
}

/// A run's evaluation, read once: the network (`None`: the hand-written
/// evaluation) and its mark (`eval_mark`).
#[derive(Clone, Debug)]
pub struct LoadedEval {
    pub network: Option<Arc<Network>>,
    pub mark: String,
}

const USAGE: &str = "usage: cavalier selfplay [options]
  --games N         games to play (default 100)
  --nodes N         nodes searched per move (default 5000)
  --soft-nodes N    no search iteration started past N nodes; --nodes stays the hard cap
  --depth D         search every move to depth D instead (1..=30)
  --threads T       games played at once, each with its own search and hash (default 1)
  --seed S          seed of the openings (default: from the clock, printed)
  --out FILE        write the positions to FILE (default: stdout)
  --openings FILE   start from the positions of an EPD/FEN file (one a line) instead of
                    lines of the built-in book
  --chess960        start from the 960 Chess960 start positions instead of the book
  --random-plies N  random moves played after the opening (default 4)
  --opening-score CP  an opening whose first search scores beyond CP is drawn again, up
                    to 20 times (default 300; off: any opening is played)
  --max-plies N     a game this long is a draw (default 400)
  --hash MB         hash table of each game (default 2)
  --format F        what is written: text (the default), records (32-byte records of the
                    quiet positions) or games (every ply of every game, 4 bytes a ply:
                    the positions are filtered when read; docs/network.md)
  --packed          the same as --format records
  --nnue            evaluate with the embedded network (default: the hand-written evaluation)
  --net FILE        evaluate with the network in FILE
  --resign CP,PLIES a side scored beyond CP (same sign) for PLIES plies in a row wins
                    (default 1000,8; off: never)
  --draw CP,PLIES,FROM  a game scored within CP of 0 for PLIES plies in a row, from ply
                    FROM on, is drawn (default 10,20,80; off: never)
  --no-adjudication the same as --resign off --draw off: games end by the rules or
                    --max-plies only
  --resume          carry on an interrupted run of the same command: FILE.progress says
                    how many games FILE holds, the seed, the evaluation, a setting of
                    adjudication other than the default and the settings that shape the
                    games (all options but --games and --threads must be as the run
                    began); the rest are played and appended
Text is one line per quiet position (not in check, the move played neither a capture
nor a promotion): FEN;RESULT;SCORE with RESULT 1.0, 0.5 or 0.0 for White and SCORE the
search's score there (cp, White's view).";

fn parse_args(args: &[String]) -> Result<SelfplayOptions, String> {
    let mut o = SelfplayOptions {
        games: DEFAULT_GAMES,
        nodes: DEFAULT_NODES,
        soft_nodes: None,
        depth: None,
        threads: 1,
        seed: Rng::from_time().next_u64(),
        out: None,
        openings: None,
        chess960: false,
        random_plies: DEFAULT_RANDOM_PLIES,
        opening_score: Some(DEFAULT_OPENING_SCORE),
        max_plies: DEFAULT_MAX_PLIES,
        hash_mb: DEFAULT_HASH_MB,
        format: OutputFormat::Text,
        resume: false,
        first_game: 0,
        eval: SelfplayEval::HandWritten,
        adjudication: Adjudication::DEFAULT,
    };
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        match a {
            "--games" => o.games = args.number(|&n: &usize| n > 0)?,
            "--nodes" => o.nodes = args.number(|&n: &u64| n > 0)?,
            "--soft-nodes" => o.soft_nodes = Some(args.number(|&n: &u64| n > 0)?),
            "--depth" => o.depth = Some(args.number(|d: &i32| (1..=30).contains(d))?),
            "--threads" => o.threads = args.number(|n: &usize| (1..=MAX_THREADS).contains(n))?,
            "--seed" => o.seed = args.number(|_: &u64| true)?,
            "--out" => o.out = Some(args.value()?.to_string()),
            "--openings" => o.openings = Some(args.value()?.to_string()),
            "--chess960" => o.chess960 = true,
            "--packed" => o.format = OutputFormat::Records,
            "--format" => {
                let name = args.value()?;
                o.format = OutputFormat::ALL
                    .into_iter()
                    .find(|f| f.name() == name)
                    .ok_or_else(|| format!("--format {name}: expected text, records or games"))?;
            }
            "--resume" => o.resume = true,
            "--nnue" => o.eval = SelfplayEval::Embedded,
            "--net" => o.eval = SelfplayEval::File(args.value()?.to_string()),
            "--random-plies" => o.random_plies = args.number(|&n: &usize| n <= 40)?,
            "--opening-score" => {
                o.opening_score = match args.value()? {
                    "off" => None,
                    v => match v.parse::<i32>() {
                        Ok(cp) if (0..=30_000).contains(&cp) => Some(cp),
                        _ => return Err(format!("--opening-score {v}: expected 0..=30000 or off")),
                    },
                }
            }
            "--max-plies" => o.max_plies = args.number(|&n: &usize| n >= 10)?,
            "--hash" => o.hash_mb = args.number(|n: &usize| (1..=MAX_HASH_MB).contains(n))?,
            "--resign" => o.adjudication.resign = parse_resign(args.value()?)?,
            "--draw" => o.adjudication.draw = parse_draw(args.value()?)?,
            "--no-adjudication" => o.adjudication = Adjudication::NONE,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(unexpected(other)),
        }
    }
    if o.soft_nodes.is_some_and(|soft| soft > o.nodes) {
        return Err("--soft-nodes must not exceed --nodes (the hard cap)".to_string());
    }
    if o.format == OutputFormat::Games && o.max_plies > crate::lab::net::games::MAX_PLIES {
        return Err(format!(
            "--format games holds games of at most {} plies",
            crate::lab::net::games::MAX_PLIES
        ));
    }
    Ok(o)
}

/// Reads an openings file: a FEN (or EPD: the first four fields) a line;
/// blank lines and `#` comments are skipped.
pub fn parse_openings(text: &str) -> Result<Vec<Board>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = Board::from_fen(line).or_else(|e| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            Board::from_fen(&fields.join(" ")).map_err(|_| format!("line {}: {e}", n + 1))
        })?;
        if board.has_legal_move() {
            out.push(board);
        }
    }
    if out.is_empty() {
        return Err("no playable position".to_string());
    }
    Ok(out)
}

/// A game's kept positions and result.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Each kept position with its search score (cp, White's view).
    pub fens: Vec<(String, i32)>,
    /// The position the game started from (after the opening)...
    pub start: Board,
    /// ...and every move played, with its search score (cp, White's view).
    pub moves: Vec<(Move, i32)>,
    /// White's score: 1, 0.5 or 0.
    pub result: f32,
    /// Plies played after the opening.
    pub plies: usize,
}

/// One player of games: a searcher and its hash table.
pub struct Player {
    searcher: Searcher,
    tt: TranspositionTable,
    limits: SearchLimits,
}

impl Player {
    /// A player searching as `o` asks, with an `o.hash_mb` table,
    /// evaluating with `network` (`None`: the hand-written evaluation).
    pub fn new(o: &SelfplayOptions, network: Option<Arc<Network>>) -> Player {
        let limits = match o.depth {
            Some(d) => SearchLimits {
                network,
                ..SearchLimits::depth(d)
            },
            None => SearchLimits {
                max_depth: MAX_DEPTH,
                max_nodes: o.nodes,
                soft_nodes: o.soft_nodes,
                network,
                ..SearchLimits::default()
            },
        };
        Player {
            searcher: Searcher::new(),
            tt: TranspositionTable::new(o.hash_mb),
            limits,
        }
    }

    fn search(&mut self, board: &mut Board) -> crate::engine::search::SearchResult {
        let ctl = SearchControl::new(false);
        self.searcher
            .think(board, &self.limits, &ctl, &self.tt, &mut |_| {})
    }

    /// A random opening: from `openings` if given, else a prefix of a book
    /// line; then `random_plies` random moves; drawn again while its first
    /// search scores beyond `max_score` (cp), at most `OPENING_TRIES` times.
    fn opening(
        &mut self,
        openings: Option<&[Board]>,
        random_plies: usize,
        max_score: Option<i32>,
        rng: &mut Rng,
    ) -> Board {
        let mut best = None;
        for _ in 0..OPENING_TRIES {
            let mut board = match openings {
                Some(list) => list[(rng.next_u64() % list.len() as u64) as usize].clone(),
                None => {
                    let lines = EMBEDDED.lines();
                    let mut b = Board::startpos();
                    if !lines.is_empty() {
                        let line = &lines[(rng.next_u64() % lines.len() as u64) as usize];
                        let span = line.len().saturating_sub(MIN_BOOK_PLIES) as u64 + 1;
                        let plies =
                            (MIN_BOOK_PLIES + (rng.next_u64() % span) as usize).min(line.len());
                        for &mv in &line[..plies] {
                            b.make(mv);
                        }
                    }
                    b
                }
            };
            for _ in 0..random_plies {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
            if board.outcome().is_some() {
                continue;
            }
            let Some(max_score) = max_score else {
                return board;
            };
            self.searcher.clear();
            self.tt.clear();
            let score = self.search(&mut board).score;
            if score.abs() <= max_score {
                return board;
            }
            best = Some(board);
        }
        best.unwrap_or_else(Board::startpos)
    }

    /// Plays game `index` of a run.
    pub fn play(
        &mut self,
        o: &SelfplayOptions,
        openings: Option<&[Board]>,
        index: usize,
    ) -> GameRecord {
        let mut rng = Rng::new(derive_seed(o.seed, index as u64));
        let mut board = self.opening(openings, o.random_plies, o.opening_score, &mut rng);
        self.searcher.clear();
        self.tt.clear();
        let start = board.clone();
        let mut moves = Vec::new();
        let mut fens = Vec::new();
        let (mut resign_run, mut resign_sign, mut draw_run) = (0, 0, 0);
        let mut plies = 0;
        let result = loop {
            if let Some(r) = board.outcome().map(Outcome::white_score) {
                break r;
            }
            if plies >= o.max_plies {
                break 0.5;
            }
            let found = self.search(&mut board);
            let best = found.best;
            if best.is_none() {
                break 0.5; // unreachable: a legal move exists
            }
            let white = if board.side_to_move() == Color::White {
                found.score
            } else {
                -found.score
            };
            let quiet = board.is_quiet(best);
            if quiet && !board.in_check() {
                fens.push((board.to_fen(), white));
            }
            // Kept even when the game is adjudicated before it is played.
            moves.push((best, white));
            let adj = o.adjudication;
            if let Some(r) = adj.resign.filter(|r| white.abs() >= r.score) {
                let sign = white.signum();
                resign_run = if sign == resign_sign {
                    resign_run + 1
                } else {
                    1
                };
                resign_sign = sign;
                if resign_run >= r.plies {
                    break if sign > 0 { 1.0 } else { 0.0 };
                }
            } else {
                resign_run = 0;
                resign_sign = 0;
            }
            if let Some(d) = adj
                .draw
                .filter(|d| plies >= d.from && white.abs() <= d.score)
            {
                draw_run += 1;
                if draw_run >= d.plies {
                    break 0.5;
                }
            } else {
                draw_run = 0;
            }
            board.make(best);
            plies += 1;
        };
        GameRecord {
            fens,
            start,
            moves,
            result,
            plies,
        }
    }
}

/// A game as written: `FEN;RESULT;SCORE` lines or 32-byte records of its
/// kept positions, or the whole game (`lab::net::games`).
fn game_bytes(game: &GameRecord, format: OutputFormat) -> Vec<u8> {
    use crate::lab::net::{games, packed};
    let mut out = Vec::new();
    if format == OutputFormat::Games {
        let whole = games::Game {
            start: game.start.clone(),
            result: games::stored_result(game.result),
            plies: game
                .moves
                .iter()
                .map(|&(mv, score)| (mv, games::stored_score(score)))
                .collect(),
        };
        return games::write_game(&whole).expect("a game the searcher played is written");
    }
    for (fen, score) in &game.fens {
        if format == OutputFormat::Records {
            let board = Board::from_fen(fen).expect("a FEN the board wrote");
            let sample = packed::sample_of(&board, *score, game.result);
            out.extend_from_slice(&packed::pack(&sample).expect("a legal position packs"));
        } else {
            let result = crate::lab::net::packed::result_text(game.result);
            out.extend_from_slice(format!("{fen};{result};{score}\n").as_bytes());
        }
    }
    out
}

/// Games finished out of order, waiting for the ones before them: the
/// output holds games in order, so that a run can be resumed.
struct InOrder {
    /// The next game to write.
    next: usize,
    /// Bytes written so far (from the start of the file).
    bytes: u64,
    waiting: std::collections::BTreeMap<usize, Vec<u8>>,
}

/// The name of the file that records how far `out` got.
pub fn progress_path(out: &str) -> String {
    format!("{out}.progress")
}

/// What a progress file says: games and bytes written, the run's seed and
/// the run's mark (`None` in files written before the mark; without the
/// settings word in files written before that).
pub type Progress = (usize, u64, u64, Option<String>);

/// The mark of an evaluation in a progress file: `hce` for the
/// hand-written one, else `net-` and the checksum of the network's file
/// (its last 8 bytes, in hexadecimal), so that a run is not resumed with
/// another evaluation than it began with.
pub fn eval_mark(network: Option<&Network>) -> String {
    match network {
        None => "hce".to_string(),
        Some(net) => format!("net-{:016x}", net.file_check()),
    }
}

/// A run's mark in its progress file: its evaluation's mark, then its
/// adjudication's if that is not the default; after a space, the settings
/// that shape its games (see [`settings_mark`]).
fn run_mark(o: &SelfplayOptions, eval: &LoadedEval, openings: Option<&[Board]>) -> String {
    format!(
        "{}{} {}",
        eval.mark,
        o.adjudication.mark(),
        settings_mark(o, openings)
    )
}

/// The settings besides the evaluation and the adjudication that change
/// which games a run plays or how they are written: the node or depth
/// limits, the game length, the hash size, the output format, the random
/// plies, the opening filter and the openings themselves (a checksum of
/// their positions; `book` for the built-in book). `--games` and
/// `--threads` are not in it: a run may be lengthened, and the games do
/// not depend on how many are played at once.
fn settings_mark(o: &SelfplayOptions, openings: Option<&[Board]>) -> String {
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let openings = match openings {
        None => "book".to_string(),
        Some(list) => {
            // FNV-1a (the network file's check) over the positions' keys, in order.
            let keys: Vec<u8> = list.iter().flat_map(|b| b.hash().to_le_bytes()).collect();
            format!("{}x{:016x}", list.len(), fnv1a(&keys))
        }
    };
    format!(
        "n{}:s{}:d{}:m{}:h{}:{}:r{}:o{}:{openings}",
        o.nodes,
        or_dash(o.soft_nodes.map(|n| n.to_string())),
        or_dash(o.depth.map(|d| d.to_string())),
        o.max_plies,
        o.hash_mb,
        o.format.name(),
        o.random_plies,
        or_dash(o.opening_score.map(|s| s.to_string())),
    )
}

/// Reads a progress file.
pub fn read_progress(path: &str) -> Result<Progress, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read \"{path}\": {e}"))?;
    let mut words = text.split_whitespace();
    let mut next = |what: &str| {
        words
            .next()
            .and_then(|w| w.parse::<u64>().ok())
            .ok_or_else(|| format!("\"{path}\": no {what}"))
    };
    let (games, bytes, seed) = (
        next("game count")? as usize,
        next("byte count")?,
        next("seed")?,
    );
    let mark: Vec<&str> = words.collect();
    Ok((
        games,
        bytes,
        seed,
        (!mark.is_empty()).then(|| mark.join(" ")),
    ))
}

/// Records how far the output got, atomically (write, then rename).
fn write_progress(
    path: &str,
    games: usize,
    bytes: u64,
    seed: u64,
    mark: &str,
) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, format!("{games} {bytes} {seed} {mark}\n"))
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write \"{path}\": {e}"))
}

/// Counters shared by the playing threads.
#[derive(Default)]
struct Tally {
    games: AtomicUsize,
    positions: AtomicU64,
    plies: AtomicU64,
    /// White wins, draws, Black wins.
    results: [AtomicUsize; 3],
}

impl Tally {
    fn line(&self, start: Instant) -> String {
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let games = self.games.load(Ordering::Relaxed);
        let positions = self.positions.load(Ordering::Relaxed);
        format!(
            "{games} games ({} white wins, {} draws, {} black wins), {positions} positions, {:.0} plies/game; {:.2} games/s, {:.0} positions/s, {:.0} s",
            self.results[0].load(Ordering::Relaxed),
            self.results[1].load(Ordering::Relaxed),
            self.results[2].load(Ordering::Relaxed),
            self.plies.load(Ordering::Relaxed) as f64 / games.max(1) as f64,
            games as f64 / secs,
            positions as f64 / secs,
            secs
        )
    }
}

/// Plays games `o.first_game..o.games` of `o` with the evaluation `eval`
/// (`o.eval` read) on its threads, writing
/// their positions to `sink` in game order (`start_bytes` already there);
/// after each write, records the games and bytes written in the file
/// `progress_file` if given. Progress lines go to `progress`. Returns the
/// final tally line, or the first write error.
pub fn run(
    o: &SelfplayOptions,
    eval: &LoadedEval,
    openings: Option<&[Board]>,
    sink: &mut (dyn Write + Send),
    start_bytes: u64,
    progress_file: Option<&str>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<String, String> {
    let network = &eval.network;
    let mark = &run_mark(o, eval, openings);
    let start = Instant::now();
    let next = AtomicUsize::new(o.first_game);
    let order = Mutex::new(InOrder {
        next: o.first_game,
        bytes: start_bytes,
        waiting: std::collections::BTreeMap::new(),
    });
    let failed = AtomicBool::new(false);
    let tally = Tally::default();
    let sink = Mutex::new(sink);
    let last_report = Mutex::new(Instant::now());
    let error = Mutex::new(None::<String>);
    std::thread::scope(|s| {
        for _ in 0..o.threads.min(o.games.saturating_sub(o.first_game)) {
            s.spawn(|| {
                let mut player = Player::new(o, network.clone());
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= o.games || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = player.play(o, openings, index);
                    let written = {
                        let mut order = order.lock().unwrap_or_else(|e| e.into_inner());
                        order.waiting.insert(index, game_bytes(&game, o.format));
                        let mut out = sink.lock().unwrap_or_else(|e| e.into_inner());
                        let mut written = Ok(());
                        let mut moved = false;
                        while let Some(bytes) = {
                            let n = order.next;
                            order.waiting.remove(&n)
                        } {
                            written = out.write_all(&bytes).map_err(|e| e.to_string());
                            if written.is_err() {
                                break;
                            }
                            order.next += 1;
                            order.bytes += bytes.len() as u64;
                            moved = true;
                        }
                        if let (Ok(()), Some(path), true) = (&written, progress_file, moved) {
                            written = out.flush().map_err(|e| e.to_string()).and_then(|_| {
                                write_progress(path, order.next, order.bytes, o.seed, mark)
                            });
                        }
                        written
                    };
                    if let Err(e) = written {
                        failed.store(true, Ordering::Relaxed);
                        error
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(format!("cannot write the positions: {e}"));
                        break;
                    }
                    tally
                        .positions
                        .fetch_add(game.fens.len() as u64, Ordering::Relaxed);
                    tally.plies.fetch_add(game.plies as u64, Ordering::Relaxed);
                    let slot = if game.result >= 1.0 {
                        0
                    } else if game.result <= 0.0 {
                        2
                    } else {
                        1
                    };
                    tally.results[slot].fetch_add(1, Ordering::Relaxed);
                    tally.games.fetch_add(1, Ordering::Relaxed);
                    let mut last = last_report.lock().unwrap_or_else(|e| e.into_inner());
                    if last.elapsed() >= Duration::from_secs(PROGRESS_SECONDS) {
                        *last = Instant::now();
                        progress(&format!("selfplay: {}", tally.line(start)));
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let out = sink.into_inner().unwrap_or_else(|e| e.into_inner());
    out.flush()
        .map_err(|e| format!("cannot write the positions: {e}"))?;
    Ok(tally.line(start))
}

/// The output file: created (or emptied) for a new run; for `--resume`,
/// cut back to what its progress file vouches for, with the first game to
/// play and the run's seed taken from there (a different `--seed` is an
/// error). Returns the file, positioned at its end, and its length.
fn open_output(
    path: &str,
    o: &mut SelfplayOptions,
    args: &[String],
    mark: &str,
) -> Result<(std::fs::File, u64), String> {
    use std::io::{Seek, SeekFrom};
    if !o.resume || !std::path::Path::new(&progress_path(path)).exists() {
        let f =
            std::fs::File::create(path).map_err(|e| format!("cannot create \"{path}\": {e}"))?;
        return Ok((f, 0));
    }
    let (games, bytes, seed, resumed_mark) = read_progress(&progress_path(path))?;
    if args.iter().any(|a| a == "--seed") && seed != o.seed {
        return Err(format!(
            "--seed {} differs from the run being resumed ({seed})",
            o.seed
        ));
    }
    if let Some(resumed) = resumed_mark {
        let (eval_part, settings) = mark.split_once(' ').unwrap_or((mark, ""));
        let (resumed_eval, resumed_settings) = match resumed.split_once(' ') {
            Some((e, s)) => (e, Some(s)),
            None => (resumed.as_str(), None),
        };
        if resumed_eval != eval_part {
            return Err(format!(
                "the run being resumed was made with {resumed_eval}, this command with \
                 {eval_part} (--nnue, --net FILE or neither, and --resign, --draw or \
                 --no-adjudication: as the run began)"
            ));
        }
        match resumed_settings {
            Some(s) if s != settings => {
                return Err(format!(
                    "the run being resumed was played with the settings {s}, this command's \
                     are {settings} (--nodes, --soft-nodes, --depth, --max-plies, --hash, \
                     --format, --random-plies, --opening-score and the openings: as the run \
                     began)"
                ))
            }
            Some(_) => {}
            None => eprintln!(
                "selfplay: warning: \"{}\" predates the record of the settings: \
                 they are not checked (the nodes, the format, the openings and the rest \
                 must be as the run began)",
                progress_path(path)
            ),
        }
    }
    o.seed = seed;
    o.first_game = games.min(o.games);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open \"{path}\": {e}"))?;
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    if len < bytes {
        return Err(format!(
            "\"{path}\" holds {len} bytes, fewer than its progress file's {bytes}"
        ));
    }
    f.set_len(bytes)
        .and_then(|_| f.seek(SeekFrom::End(0)))
        .map_err(|e| format!("cannot cut \"{path}\" back: {e}"))?;
    eprintln!(
        "selfplay: resuming at game {games} of {}, seed {seed}",
        o.games
    );
    Ok((f, bytes))
}

/// `cavalier selfplay`: returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let mut o = match crate::util::command_line::args_or_exit(parse_args(args), USAGE) {
        Ok(o) => o,
        Err(code) => return code,
    };
    if o.chess960 && o.openings.is_some() {
        eprintln!("error: --chess960 and --openings exclude each other\n{USAGE}");
        return EXIT_USAGE;
    }
    let openings = match &o.openings {
        None if o.chess960 => Some((0..960).filter_map(Board::chess960_start).collect()),
        None => None,
        Some(path) => {
            let Some(text) = crate::util::command_line::read_input(path) else {
                return EXIT_USAGE;
            };
            match parse_openings(&text) {
                Ok(list) => Some(list),
                Err(e) => {
                    eprintln!("error: {path}: {e}");
                    return EXIT_USAGE;
                }
            }
        }
    };
    let eval = match o.eval.load() {
        Ok(eval) => eval,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let mark = run_mark(&o, &eval, openings.as_deref());
    let (mut sink, start_bytes): (Box<dyn Write + Send>, u64) = match o.out.clone() {
        None if o.resume => {
            eprintln!("error: --resume needs --out FILE\n{USAGE}");
            return EXIT_USAGE;
        }
        None => (Box::new(std::io::BufWriter::new(std::io::stdout())), 0),
        Some(path) => match open_output(&path, &mut o, args, &mark) {
            Ok((f, bytes)) => (Box::new(std::io::BufWriter::new(f)), bytes),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_USAGE;
            }
        },
    };
    let progress_file = o.out.as_deref().map(progress_path);
    let limit = match o.depth {
        Some(d) => format!("depth {d}"),
        None => format!("{} nodes", o.nodes),
    };
    eprintln!(
        "selfplay: {} games, {limit} a move, {} threads, seed {}, openings from {}, {}",
        o.games,
        o.threads,
        o.seed,
        match (&o.openings, o.chess960) {
            (Some(path), _) => path.as_str(),
            (None, true) => "the 960 Chess960 start positions",
            (None, false) => "the built-in book",
        },
        o.eval.describe()
    );
    let report = |line: &str| eprintln!("{line}");
    match run(
        &o,
        &eval,
        openings.as_deref(),
        &mut *sink,
        start_bytes,
        progress_file.as_deref(),
        &report,
    ) {
        Ok(line) => {
            eprintln!("selfplay: done: {line}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILED
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> SelfplayOptions {
        SelfplayOptions {
            games: 2,
            nodes: 300,
            soft_nodes: None,
            depth: None,
            threads: 2,
            seed: 7,
            out: None,
            openings: None,
            chess960: false,
            random_plies: 2,
            opening_score: Some(DEFAULT_OPENING_SCORE),
            max_plies: 60,
            hash_mb: 1,
            format: OutputFormat::Text,
            resume: false,
            first_game: 0,
            eval: SelfplayEval::HandWritten,
            adjudication: Adjudication::DEFAULT,
        }
    }

    /// The games of `o` played to a buffer: the final tally line and the
    /// bytes written.
    fn run_to_buffer(o: &SelfplayOptions) -> (String, Vec<u8>) {
        let mut buf: Vec<u8> = Vec::new();
        let line = run(o, &o.eval.load().unwrap(), None, &mut buf, 0, None, &|_| {}).unwrap();
        (line, buf)
    }

    /// Games `from..to` of `o`, as the output would hold them.
    fn output(o: &SelfplayOptions, from: usize, to: usize) -> Vec<u8> {
        let o = SelfplayOptions {
            games: to,
            first_game: from,
            ..o.clone()
        };
        run_to_buffer(&o).1
    }

    /// Games are written in order whatever thread finishes first, so a run
    /// cut after game k and resumed writes the bytes of the whole run; and
    /// the packed output holds the text output's positions, and the game
    /// file, filtered as training filters it, the same records.
    #[test]
    fn output_is_in_game_order_resumable_and_packed_alike() {
        let o = SelfplayOptions {
            games: 4,
            max_plies: 40,
            ..tiny()
        };
        let whole = output(&o, 0, 4);
        let mut parts = output(&o, 0, 1);
        parts.extend(output(&o, 1, 4));
        assert_eq!(whole, parts);
        let packed = output(
            &SelfplayOptions {
                format: OutputFormat::Records,
                ..o.clone()
            },
            0,
            4,
        );
        let text = String::from_utf8(whole).unwrap();
        assert_eq!(packed.len(), 32 * text.lines().count());
        for (line, record) in text.lines().zip(packed.chunks_exact(32)) {
            let expected = crate::lab::net::packed::record_of_line(line)
                .unwrap()
                .unwrap();
            assert_eq!(record, expected, "{line}");
        }
        use crate::lab::net::games;
        let file = output(
            &SelfplayOptions {
                format: OutputFormat::Games,
                ..o.clone()
            },
            0,
            4,
        );
        let mut records = Vec::new();
        let mut plies = 0;
        for game in games::games(&file) {
            let game = game.unwrap();
            plies += game.plies.len();
            game.records(&games::Filter::training(i16::MAX as i32), &mut records);
        }
        // Training leaves mate scores out of game files.
        let not_mate: Vec<&[u8]> = packed
            .chunks_exact(32)
            .filter(|r| {
                let score = i16::from_le_bytes([r[24], r[25]]) as i32;
                score.abs() < crate::engine::score::MATE_BOUND
            })
            .collect();
        assert_eq!(records.len(), not_mate.len());
        assert!(records.iter().zip(not_mate).all(|(a, b)| a[..] == b[..]));
        // Every ply is stored, at 4 bytes and a 32-byte header a game.
        let per_ply = file.len() as f64 / plies as f64;
        assert_eq!(file.len(), 32 * 4 + 4 * plies);
        assert!(per_ply <= 8.0, "{per_ply:.2} bytes a position");
    }

    /// The command line's --resume: an interrupted run (cut short to its
    /// first games, as a killed process leaves it, with a torn record after
    /// them) carried on gives the same file as an uninterrupted one.
    #[test]
    fn resume_carries_on_from_the_progress_file() {
        resume_carries_on("records", "--packed");
    }

    /// The same with game files.
    #[test]
    fn resume_carries_on_with_game_files() {
        resume_carries_on("games", "--format=games");
    }

    fn resume_carries_on(name: &str, format: &str) {
        let dir =
            std::env::temp_dir().join(format!("cavalier-resume-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let (a, b) = (file("a.bin"), file("b.bin"));
        let args = |out: &str, games: &str| -> Vec<String> {
            [
                "--games",
                games,
                "--nodes",
                "300",
                "--threads",
                "2",
                "--seed",
                "11",
                "--max-plies",
                "40",
                "--random-plies",
                "2",
                "--hash",
                "1",
                "--resume",
                "--out",
                out,
            ]
            .iter()
            .map(|s| s.to_string())
            .chain(format.split('=').map(String::from))
            .collect()
        };
        assert_eq!(command(&args(&a, "3")), 0);
        assert_eq!(command(&args(&b, "1")), 0);
        let (games, bytes, seed, mark) = read_progress(&progress_path(&b)).unwrap();
        let settings = if format.contains("games") {
            "n300:s-:d-:m40:h1:games:r2:o300:book"
        } else {
            "n300:s-:d-:m40:h1:records:r2:o300:book"
        };
        assert_eq!(
            (games, seed, mark.as_deref()),
            (1, 11, Some(format!("hce {settings}").as_str()))
        );
        // A torn write after the last whole game.
        let mut torn = std::fs::read(&b).unwrap();
        assert_eq!(torn.len() as u64, bytes);
        torn.extend_from_slice(&[7; 13]);
        std::fs::write(&b, torn).unwrap();
        assert_eq!(command(&args(&b, "3")), 0);
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert_eq!(read_progress(&progress_path(&b)).unwrap().0, 3);
        let mut other_seed = args(&b, "4");
        other_seed[7] = "12".to_string();
        assert_eq!(command(&other_seed), EXIT_USAGE);
        // Not with another evaluation than the run began with...
        let mut with_net = args(&b, "4");
        with_net.push("--nnue".to_string());
        assert_eq!(command(&with_net), EXIT_USAGE);
        assert_eq!(read_progress(&progress_path(&b)).unwrap().0, 3);
        // ...or another adjudication (the default written out is the same).
        for (other, code) in [
            ("--no-adjudication", EXIT_USAGE),
            ("--resign=900,8", EXIT_USAGE),
            ("--draw=10,20,80", 0),
        ] {
            let mut changed = args(&b, "3");
            changed.extend(other.split('=').map(String::from));
            assert_eq!(command(&changed), code, "{other}");
            assert_eq!(read_progress(&progress_path(&b)).unwrap().0, 3, "{other}");
        }
        // ...or other settings that shape the games (the default written
        // out is the same; --threads may change).
        for (other, code) in [
            ("--random-plies=3", EXIT_USAGE),
            ("--max-plies=41", EXIT_USAGE),
            ("--opening-score=off", EXIT_USAGE),
            ("--soft-nodes=200", EXIT_USAGE),
            ("--hash=2", EXIT_USAGE),
            ("--opening-score=300", 0),
            ("--threads=1", 0),
        ] {
            let mut changed = args(&b, "3");
            changed.extend(other.split('=').map(String::from));
            assert_eq!(command(&changed), code, "{other}");
            assert_eq!(read_progress(&progress_path(&b)).unwrap().0, 3, "{other}");
        }
        // A progress file from before the settings word resumes (with a
        // warning on stderr), and the word is written from then on...
        let (games, bytes, seed, mark) = read_progress(&progress_path(&b)).unwrap();
        let eval_only = mark.unwrap().split(' ').next().unwrap().to_string();
        std::fs::write(
            progress_path(&b),
            format!("{games} {bytes} {seed} {eval_only}\n"),
        )
        .unwrap();
        assert_eq!(command(&args(&b, "4")), 0);
        let (games, _, _, mark) = read_progress(&progress_path(&b)).unwrap();
        assert_eq!(games, 4);
        assert!(mark.unwrap().ends_with(settings));
        // ...and so does one from before the mark.
        let (games, bytes, seed, _) = read_progress(&progress_path(&b)).unwrap();
        std::fs::write(progress_path(&b), format!("{games} {bytes} {seed}\n")).unwrap();
        assert_eq!(command(&args(&b, "5")), 0);
        assert_eq!(read_progress(&progress_path(&b)).unwrap().0, 5);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_tiny_run_writes_well_formed_quiet_positions() {
        let (line, buf) = run_to_buffer(&tiny());
        assert!(line.starts_with("2 games"), "{line}");
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 20, "{}", lines.len());
        for l in &lines {
            let fields: Vec<&str> = l.split(';').collect();
            let [fen, result, score] = fields[..] else {
                panic!("{l}")
            };
            assert!(["1.0", "0.5", "0.0"].contains(&result), "{l}");
            assert!(score.parse::<i32>().is_ok_and(|s| s.abs() <= 32_000), "{l}");
            let b = Board::from_fen(fen).unwrap();
            assert!(!b.in_check(), "{l}");
            // The tuner reads it back.
            assert!(crate::lab::tune::parse_line(l).unwrap().is_some());
        }
        // The start position of the book is not among them.
        assert!(!text.contains("RNBQKBNR w KQkq - 0 1;"));
    }

    #[test]
    fn a_game_depends_only_on_seed_and_number() {
        let o = tiny();
        let a = Player::new(&o, None).play(&o, None, 1);
        let mut p = Player::new(&o, None);
        p.play(&o, None, 0);
        let b = p.play(&o, None, 1);
        assert_eq!(a.fens, b.fens);
        assert_eq!(a.result, b.result);
    }

    #[test]
    fn games_from_an_openings_file() {
        let text = "# two openings\n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3\n\
            rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Nxe5;\n";
        let list = parse_openings(text).unwrap();
        assert_eq!(list.len(), 2);
        assert!(parse_openings("nonsense\n").is_err());
        assert!(parse_openings("# nothing\n").is_err());
        let mut o = tiny();
        o.random_plies = 0;
        o.max_plies = 10;
        let game = Player::new(&o, None).play(&o, Some(&list), 3);
        assert!(game.plies <= 10);
    }

    #[test]
    fn adjudication_and_rules() {
        let mate = Board::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(mate.outcome().map(Outcome::white_score), Some(1.0));
        let stalemate = Board::from_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(stalemate.outcome().map(Outcome::white_score), Some(0.5));
        // A queen up: the side ahead wins by adjudication long before the
        // game's limit.
        let mut o = tiny();
        o.random_plies = 0;
        o.max_plies = 200;
        let won = [Board::from_fen("4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1").unwrap()];
        let game = Player::new(&o, None).play(&o, Some(&won), 0);
        assert_eq!(game.result, 1.0);
        assert!(game.plies < 60, "{}", game.plies);
        // The game file holds every searched position, the last one too
        // (where the game was adjudicated before its move was played).
        let mut board = game.start.clone();
        let mut quiet = Vec::new();
        for &(mv, score) in &game.moves {
            if board.is_quiet(mv) && !board.in_check() {
                quiet.push((board.to_fen(), score));
            }
            board.make(mv);
        }
        assert_eq!(quiet, game.fens);
        // Without adjudication the same game is played on to mate, and it
        // is the adjudicated game's continuation: the same moves up to there.
        let mut off = o.clone();
        off.adjudication = Adjudication::NONE;
        let full = Player::new(&off, None).play(&off, Some(&won), 0);
        assert_eq!(full.result, 1.0);
        assert!(full.plies > game.plies, "{} {}", full.plies, game.plies);
        assert_eq!(full.moves[..game.moves.len()], game.moves[..]);
        let mut end = full.start.clone();
        for &(mv, _) in &full.moves {
            end.make(mv);
        }
        assert_eq!(end.outcome().map(Outcome::white_score), Some(1.0));
        // A draw rule that starts at once ends a level game early.
        let mut quick = o.clone();
        quick.adjudication.draw = Some(Draw {
            score: 30_000,
            plies: 3,
            from: 0,
        });
        let level = [Board::startpos()];
        let drawn = Player::new(&quick, None).play(&quick, Some(&level), 0);
        assert_eq!((drawn.result, drawn.plies), (0.5, 2));
    }

    /// An opening scored beyond `--opening-score` is drawn again, so from a
    /// list of a level position and a won one the games start from the
    /// level one; with the filter off, from either.
    #[test]
    fn lopsided_openings_are_drawn_again_unless_the_filter_is_off() {
        let list = [
            Board::startpos(),
            Board::from_fen("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1").unwrap(),
        ];
        let o = SelfplayOptions {
            random_plies: 0,
            ..tiny()
        };
        let starts = |o: &SelfplayOptions| -> Vec<String> {
            let mut player = Player::new(o, None);
            (0..8)
                .map(|i| {
                    player.opening(
                        Some(&list),
                        0,
                        o.opening_score,
                        &mut Rng::new(derive_seed(7, i)),
                    )
                })
                .map(|b| b.to_fen())
                .collect()
        };
        let level = list[0].to_fen();
        assert!(starts(&o).iter().all(|f| *f == level));
        let off = SelfplayOptions {
            opening_score: None,
            ..o.clone()
        };
        let any = starts(&off);
        assert!(any.contains(&level) && any.iter().any(|f| *f != level));
        assert!(parse_args(&["--opening-score".to_string(), "x".to_string()]).is_err());
        let parsed = parse_args(&["--opening-score".to_string(), "off".to_string()]).unwrap();
        assert_eq!(parsed.opening_score, None);
    }

    /// A network plays other games than the hand-written evaluation from
    /// the same seed, the same games again and again; a network file that
    /// cannot be read stops the run before any game.
    #[test]
    fn games_with_a_network() {
        let hce = output(&tiny(), 0, 2);
        let o = SelfplayOptions {
            eval: SelfplayEval::Embedded,
            ..tiny()
        };
        let net = output(&o, 0, 2);
        assert!(!net.is_empty());
        assert_ne!(net, hce);
        assert_eq!(net, output(&o, 0, 2));
        let bad = SelfplayEval::File("no/such/file.nnue".to_string());
        assert!(bad.load().unwrap_err().contains("no/such/file.nnue"));
        let out = std::env::temp_dir()
            .join(format!("cavalier-badnet-{}.bin", std::process::id()))
            .to_string_lossy()
            .into_owned();
        let args: Vec<String> = ["--games", "1", "--net", "no/such/file.nnue", "--out", &out]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(command(&args), EXIT_USAGE);
        assert!(!std::path::Path::new(&out).exists());
    }

    #[test]
    fn options() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse_args(&args(
            "--games 5 --nodes 100 --threads 2 --seed 3 --out f.txt",
        ))
        .unwrap();
        assert_eq!((o.games, o.nodes, o.threads, o.seed), (5, 100, 2, 3));
        assert_eq!(o.out.as_deref(), Some("f.txt"));
        assert_eq!(o.eval, SelfplayEval::HandWritten);
        assert_eq!(
            parse_args(&args("--nnue")).unwrap().eval,
            SelfplayEval::Embedded
        );
        assert_eq!(
            parse_args(&args("--net n.nnue")).unwrap().eval,
            SelfplayEval::File("n.nnue".to_string())
        );
        assert_eq!(
            parse_args(&args("--format games")).unwrap().format,
            OutputFormat::Games
        );
        assert_eq!(
            parse_args(&args("--packed")).unwrap().format,
            OutputFormat::Records
        );
        assert_eq!(
            parse_args(&args("")).unwrap().adjudication,
            Adjudication::DEFAULT
        );
        let none = parse_args(&args("--no-adjudication")).unwrap().adjudication;
        assert_eq!((none.resign, none.draw), (None, None));
        assert_eq!(none.mark(), ":r-:d-");
        let set = parse_args(&args("--resign 700,4 --draw 5,12,60")).unwrap();
        assert_eq!(
            set.adjudication,
            Adjudication {
                resign: Some(Resign {
                    score: 700,
                    plies: 4
                }),
                draw: Some(Draw {
                    score: 5,
                    plies: 12,
                    from: 60
                }),
            }
        );
        assert_eq!(set.adjudication.mark(), ":r700x4:d5x12f60");
        assert_eq!(Adjudication::DEFAULT.mark(), "");
        let off = parse_args(&args("--resign off")).unwrap().adjudication;
        assert_eq!((off.resign, off.draw), (None, Adjudication::DEFAULT.draw));
        let soft = parse_args(&args("--soft-nodes 2500 --nodes 10000")).unwrap();
        assert_eq!((soft.soft_nodes, soft.nodes), (Some(2500), 10000));
        for bad in [
            "--soft-nodes 6000",
            "--soft-nodes 0",
            "--soft-nodes",
            "--format",
            "--format pgn",
            "--format games --max-plies 70000",
            "--net",
            "--games 0",
            "--nodes x",
            "--depth 99",
            "--threads 0",
            "--frob",
            "--out",
            "--resign",
            "--resign 1000",
            "--resign 1000,0",
            "--resign -5,8",
            "--resign 1000,8,3",
            "--resign x,8",
            "--draw 10,20",
            "--draw 10,0,80",
            "--draw on",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }
}
