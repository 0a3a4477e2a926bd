//! The UCI protocol: a loop over input lines, the search on its own thread.
//!
//! The loop keeps reading while a search runs, so `isready`, `stop`,
//! `ponderhit` and `quit` are answered at once. Every `go` gets exactly one
//! `bestmove`, printed by the search thread when the search is over (and,
//! in `infinite` and `ponder` mode, only once `stop` or `ponderhit` came).
//! Nothing from the input can crash the loop or corrupt its state: bad
//! input is answered with `info string error: ...` and the previous state
//! is kept.

use crate::book::{pick_weighted, Book, EMBEDDED};
use crate::chess::board::Board;
use crate::chess::notation::{parse_uci, to_uci};
use crate::chess::perft::divide;
use crate::chess::types::Move;
use crate::engine::classic;
use crate::engine::eval::describe;
use crate::engine::search::{
    mate_in, IterationInfo, SearchControl, SearchLimits, Searcher, Skill, MAX_DEPTH, MAX_SKILL,
};
use crate::engine::time::{plan, GoLimits};
use crate::engine::tt::{Bound, TranspositionTable, MAX_HASH_MB};
use crate::util::rng::Rng;
use crate::util::text::quote;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longest input line kept; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 4 << 20;
/// Most moves accepted after `position ... moves`.
const MAX_POSITION_MOVES: usize = 10_000;

const DEFAULT_HASH_MB: i64 = 16;
const DEFAULT_OVERHEAD_MS: i64 = 30;
const MAX_OVERHEAD_MS: i64 = 5_000;
const MAX_MULTIPV: i64 = 256;
const MAX_THREADS: i64 = 64;
/// Measured strength of Skill Levels, (level, Elo) with both rising: 40
/// games each at 5+0.05 against Stockfish 15.1 at `UCI_Elo` 1350, Fairy-Max
/// 5.0b (~1940) or Phalanx XXV (~2610), rounded to 5 (STRENGTH.md,
/// "Strength levels"). The top level is full strength.
const SKILL_ELO: [(i32, i64); 6] = [
    (0, 1135),
    (3, 1540),
    (8, 2100),
    (11, 2345),
    (14, 2445),
    (MAX_SKILL, 2655),
];
/// `UCI_Elo` range (the measured one) and default (inside it, as GUIs
/// require).
const MIN_ELO: i64 = SKILL_ELO[0].1;
const MAX_ELO: i64 = SKILL_ELO[SKILL_ELO.len() - 1].1;
const DEFAULT_ELO: i64 = 1500;

/// Skill level for a `UCI_Elo`: interpolated between the measured levels
/// of `SKILL_ELO` and rounded to the nearest level.
pub fn skill_for_elo(elo: i64) -> i32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let mut level = SKILL_ELO[0].0;
    for pair in SKILL_ELO.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if elo >= e0 {
            let span = e1 - e0;
            level = l0 + ((2 * (elo - e0) * (l1 - l0) as i64 + span) / (2 * span)) as i32;
        }
    }
    level.min(MAX_SKILL)
}

/// Win/draw/loss per mille for a score (side to move's view): a fixed
/// logistic model, not fitted to game results yet.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    /// Centipawns at which winning becomes as likely as not.
    const WDL_MIDPOINT: f64 = 200.0;
    /// Spread of the logistic curve (cp).
    const WDL_SPREAD: f64 = 70.0;
    if let Some(m) = mate_in(score) {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let cp = score as f64;
    let win = 1000.0 / (1.0 + ((WDL_MIDPOINT - cp) / WDL_SPREAD).exp());
    let loss = 1000.0 / (1.0 + ((WDL_MIDPOINT + cp) / WDL_SPREAD).exp());
    let (w, l) = (win.round() as u32, loss.round() as u32);
    (w, 1000 - w - l, l)
}

/// A shared line-oriented output (stdout, or a buffer in tests).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes. Output errors (a closed pipe) are
    /// ignored: the GUI is gone and `quit` or end of input follows.
    pub fn line(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// The engine's options, as set with `setoption`.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead: i64,
    pub ponder: bool,
    pub multipv: usize,
    pub chess960: bool,
    pub own_book: bool,
    /// Empty for the embedded book.
    pub book_file: String,
    /// 0..=20; 20 is full strength.
    pub skill_level: i64,
    pub limit_strength: bool,
    pub elo: i64,
    pub show_wdl: bool,
    /// The 1993 engine (`Style Classic`) instead of the modern search.
    pub classic: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB as usize,
            threads: 1,
            move_overhead: DEFAULT_OVERHEAD_MS,
            ponder: false,
            multipv: 1,
            chess960: false,
            own_book: true,
            book_file: String::new(),
            skill_level: MAX_SKILL as i64,
            limit_strength: false,
            elo: DEFAULT_ELO,
            show_wdl: false,
            classic: false,
        }
    }
}

struct Running {
    handle: JoinHandle<Searcher>,
    ctl: Arc<SearchControl>,
}

/// The engine state behind the protocol.
pub struct Engine {
    out: Output,
    board: Board,
    options: Options,
    tt: Arc<TranspositionTable>,
    searcher: Option<Searcher>,
    running: Option<Running>,
    pending_hash_mb: Option<usize>,
    /// A book loaded from `BookFile`; `None` means the embedded book.
    book: Option<Book>,
    rng: Rng,
}

/// What the loop should do after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Reads one line of at most `MAX_LINE_BYTES` (the rest of a longer line
/// is skipped). `None` at end of input.
pub fn read_line_bounded<R: BufRead>(input: &mut R) -> Option<(String, bool)> {
    let mut buf = Vec::new();
    let mut truncated = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => {
                return if any {
                    Some((lossy(buf), truncated))
                } else {
                    None
                }
            }
        };
        if chunk.is_empty() {
            return if any {
                Some((lossy(buf), truncated))
            } else {
                None
            };
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let keep = used - done as usize;
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        if keep > room {
            truncated = true;
        }
        buf.extend_from_slice(&chunk[..keep.min(room)]);
        input.consume(used);
        if done {
            return Some((lossy(buf), truncated));
        }
    }
}

fn lossy(buf: Vec<u8>) -> String {
    match String::from_utf8(buf) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Runs the protocol over `input` until `quit` or end of input.
pub fn run<R: BufRead>(mut input: R, out: Output) {
    let mut engine = Engine::new(out);
    while let Some((line, truncated)) = read_line_bounded(&mut input) {
        if truncated {
            engine
                .out
                .error(&format!("line longer than {MAX_LINE_BYTES} bytes ignored"));
            continue;
        }
        if engine.handle(&line) == Flow::Quit {
            break;
        }
    }
    engine.shutdown();
}

/// Megabytes of memory the system says it can still give, if known.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        Engine::with_hash(out, DEFAULT_HASH_MB as usize)
    }

    /// An engine whose table starts at `hash_mb` megabytes (tests and the
    /// fuzzer start many engines and need no 16 MB table each).
    pub fn with_hash(out: Output, hash_mb: usize) -> Engine {
        let options = Options {
            hash_mb: hash_mb.clamp(1, MAX_HASH_MB),
            ..Options::default()
        };
        Engine {
            out,
            board: Board::startpos(),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            searcher: Some(Searcher::new()),
            running: None,
            pending_hash_mb: None,
            book: None,
            rng: Rng::from_time(),
        }
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return Flow::Continue;
        };
        let args = &tokens[1..];
        match command {
            "uci" => self.uci(),
            "isready" => {
                self.apply_pending_hash();
                self.out.line("readyok");
            }
            "ucinewgame" => self.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.ctl.ponderhit();
                }
            }
            "setoption" => self.setoption(args),
            "quit" => return Flow::Quit,
            "d" => self.display(),
            "eval" => self.out.line(describe(&self.board).trim_end()),
            "bench" => self.bench(args),
            "debug" | "register" => {}
            other => self
                .out
                .error(&format!("unknown command \"{}\"", quote(other))),
        }
        Flow::Continue
    }

    fn uci(&self) {
        let o = &self.out;
        o.line(&format!("id name cavalier {}", env!("CARGO_PKG_VERSION")));
        o.line("id author the cavalier developers");
        o.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        o.line("option name Clear Hash type button");
        o.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        o.line(&format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        ));
        o.line("option name Ponder type check default false");
        o.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        o.line("option name UCI_Chess960 type check default false");
        o.line("option name OwnBook type check default true");
        o.line("option name BookFile type string default <empty>");
        o.line(&format!(
            "option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}"
        ));
        o.line("option name UCI_LimitStrength type check default false");
        o.line(&format!(
            "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
        ));
        o.line("option name UCI_ShowWDL type check default false");
        o.line("option name Style type combo default Modern var Modern var Classic");
        o.line("uciok");
    }

    fn new_game(&mut self) {
        self.stop_search();
        self.apply_pending_hash();
        self.tt.clear();
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    /// `position startpos|fen <FEN> [moves ...]`: all or nothing.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut board = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Board::startpos(),
            Some(&"startpos") => {
                self.out.error(&format!(
                    "unexpected \"{}\" after startpos; position unchanged",
                    quote(setup[1])
                ));
                return;
            }
            Some(&"fen") => match Board::from_fen(&setup[1..].join(" ")) {
                Ok(b) => b,
                Err(e) => {
                    self.out.error(&format!("{e}; position unchanged"));
                    return;
                }
            },
            Some(other) => {
                self.out.error(&format!(
                    "position needs \"startpos\" or \"fen\", got \"{}\"; position unchanged",
                    quote(other)
                ));
                return;
            }
            None => {
                self.out
                    .error("position needs \"startpos\" or \"fen\"; position unchanged");
                return;
            }
        };
        if self.options.chess960 {
            board.set_chess960(true);
        }
        if moves.len() > MAX_POSITION_MOVES {
            self.out.error(&format!(
                "more than {MAX_POSITION_MOVES} moves; position unchanged"
            ));
            return;
        }
        for (i, token) in moves.iter().enumerate() {
            match parse_uci(&board, token) {
                Ok(mv) => {
                    board.make(mv);
                    // Irreversible moves end any repetition: forget the
                    // history before them so it cannot grow without bound.
                    if board.halfmove_clock() == 0 {
                        board.clear_history();
                    }
                }
                Err(e) => {
                    self.out.error(&format!(
                        "move {} of the list: {e}; position unchanged",
                        i + 1
                    ));
                    return;
                }
            }
        }
        self.board = board;
    }

    fn go(&mut self, args: &[&str]) {
        let (limits, errors) = parse_go(args);
        for e in errors {
            self.out.error(&e);
        }
        if let Some(depth) = limits.perft {
            self.stop_search();
            self.perft(depth);
            return;
        }
        self.stop_search();
        self.apply_pending_hash();
        if self.play_book_move(&limits) {
            return;
        }

        let mut searchmoves = Vec::new();
        for text in &limits.searchmoves {
            match parse_uci(&self.board, text) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => self.out.error(&format!("searchmoves: {e}; ignored")),
            }
        }
        let side = self.board.side_to_move();
        let mut search_limits = SearchLimits {
            time: plan(&limits, side, self.options.move_overhead),
            searchmoves,
            multipv: self.options.multipv,
            ..SearchLimits::default()
        };
        if let Some(d) = limits.depth {
            search_limits.max_depth = d.clamp(1, MAX_DEPTH as i64) as i32;
        }
        if let Some(n) = limits.nodes {
            search_limits.max_nodes = n.max(1);
        }
        if let Some(m) = limits.mate {
            let m = m.clamp(1, MAX_DEPTH as i64 / 2) as i32;
            search_limits.mate = Some(m);
            if limits.depth.is_none() {
                search_limits.max_depth = (2 * m + 1).min(MAX_DEPTH);
            }
        }

        let level = if self.options.limit_strength {
            skill_for_elo(self.options.elo)
        } else {
            self.options.skill_level as i32
        };
        if level < MAX_SKILL {
            search_limits.skill = Some(Skill {
                level,
                seed: self.rng.next_u64(),
            });
        }
        let show_wdl = self.options.show_wdl;
        let helpers = self.options.threads.saturating_sub(1);
        let helper_limits = SearchLimits {
            max_depth: search_limits.max_depth,
            ..SearchLimits::default()
        };

        let ctl = Arc::new(SearchControl::new(limits.ponder));
        if self.options.classic {
            self.go_classic(ctl, limits.infinite);
            return;
        }
        let infinite = limits.infinite;
        let mut searcher = self.searcher.take().unwrap_or_default();
        let mut board = self.board.clone();
        let root = self.board.clone();
        let tt = Arc::clone(&self.tt);
        let out = self.out.clone();
        let thread_ctl = Arc::clone(&ctl);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(32 << 20)
            .spawn(move || {
                // Lazy SMP: helpers search the same position with their own
                // histories, sharing the table, until the main search ends.
                let helper_threads: Vec<_> = (0..helpers)
                    .filter_map(|i| {
                        let mut board = root.clone();
                        let limits = helper_limits.clone();
                        let (ctl, tt) = (Arc::clone(&thread_ctl), Arc::clone(&tt));
                        std::thread::Builder::new()
                            .name(format!("helper {}", i + 1))
                            .stack_size(32 << 20)
                            .spawn(move || {
                                Searcher::new_helper().think(
                                    &mut board,
                                    &limits,
                                    &ctl,
                                    &tt,
                                    &mut |_| {},
                                );
                            })
                            .ok()
                    })
                    .collect();
                let result =
                    searcher.think(&mut board, &search_limits, &thread_ctl, &tt, &mut |info| {
                        out.line(&format_info(&root, info, show_wdl))
                    });
                thread_ctl.halt_helpers();
                for h in helper_threads {
                    let _ = h.join();
                }
                send_bestmove(
                    &out,
                    &root,
                    &thread_ctl,
                    infinite,
                    result.best,
                    result.ponder,
                );
                searcher
            });
        self.track(spawned, ctl);
    }

    /// Answers `go` from the book when the book knows the position and
    /// the `go` is for a game move (not analysis or pondering).
    fn play_book_move(&mut self, limits: &GoLimits) -> bool {
        let analysing = limits.infinite
            || limits.ponder
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty();
        if !self.options.own_book || analysing {
            return false;
        }
        let mv = match &self.book {
            Some(book) => book.pick(&self.board, &mut self.rng),
            None => pick_weighted(&EMBEDDED.moves(&self.board), &mut self.rng),
        };
        // Book moves are checked legal when looked up; check once more
        // before they leave the engine.
        match mv.filter(|&m| self.board.is_legal(m)) {
            Some(m) => {
                let text = to_uci(&self.board, m);
                self.out.line(&format!("info string book move {text}"));
                self.out.line(&format!("bestmove {text}"));
                true
            }
            None => false,
        }
    }

    fn set_book_file(&mut self, value: Option<&str>) {
        let path = value.unwrap_or("").trim();
        if path.is_empty() || path == "<empty>" {
            self.book = None;
            self.options.book_file.clear();
            return;
        }
        let (book, errors) = Book::load(path);
        for e in &errors {
            self.out.error(&e.to_string());
        }
        match book {
            Some(b) => {
                self.book = Some(b);
                self.options.book_file = path.to_string();
            }
            None => self.out.error(&format!(
                "no usable book in \"{}\"; {}",
                quote(path),
                if self.options.book_file.is_empty() {
                    "keeping the embedded book".to_string()
                } else {
                    format!("keeping \"{}\"", self.options.book_file)
                }
            )),
        }
    }

    /// `Style Classic`: the 1993 fixed-depth material search and positional
    /// second pass, on the search thread like any other `go`.
    fn go_classic(&mut self, ctl: Arc<SearchControl>, infinite: bool) {
        let mut board = self.board.clone();
        let root = self.board.clone();
        let out = self.out.clone();
        let thread_ctl = Arc::clone(&ctl);
        let searcher = self.searcher.take().unwrap_or_default();
        let spawned = std::thread::Builder::new()
            .name("classic".into())
            .spawn(move || {
                let r = classic::classic_search(&mut board, &|| thread_ctl.is_stopped());
                if !r.best.is_none() {
                    out.line(&format!(
                        "info depth {} score {} nodes {} pv {}",
                        classic::HORIZON,
                        classic::uci_score(r.material),
                        r.nodes,
                        to_uci(&root, r.best)
                    ));
                }
                send_bestmove(&out, &root, &thread_ctl, infinite, r.best, Move::NONE);
                searcher
            });
        self.track(spawned, ctl);
    }

    /// Keeps a started search thread, or answers the `go` at once when
    /// the thread could not start.
    fn track(&mut self, spawned: std::io::Result<JoinHandle<Searcher>>, ctl: Arc<SearchControl>) {
        match spawned {
            Ok(handle) => self.running = Some(Running { handle, ctl }),
            Err(e) => {
                self.out
                    .error(&format!("cannot start the search thread: {e}"));
                self.out.line("bestmove (none)");
                self.searcher = Some(Searcher::new());
            }
        }
    }

    /// Stops a running search (its thread prints the bestmove) and waits
    /// for it.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.ctl.stop();
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    self.out.error("the search thread failed");
                    self.searcher = Some(Searcher::new());
                }
            }
        }
    }

    /// A finished search's thread is joined lazily; this collects it.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.ctl.is_done())
        {
            self.stop_search();
        }
    }

    fn apply_pending_hash(&mut self) {
        self.reap();
        if self.running.is_some() {
            return;
        }
        if let Some(mb) = self.pending_hash_mb.take() {
            self.tt = Arc::new(TranspositionTable::new(mb));
            self.options.hash_mb = mb;
        }
    }

    fn setoption(&mut self, args: &[&str]) {
        let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            self.out
                .error("setoption needs \"name <option> [value <v>]\"");
            return;
        };
        let name_end = value_at.unwrap_or(args.len());
        if name_end <= n + 1 {
            self.out.error("setoption: missing option name");
            return;
        }
        let name = args[n + 1..name_end].join(" ");
        let value = value_at.map(|v| args[v + 1..].join(" "));
        let value = value.as_deref().map(str::trim);
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                if let Some(mb) = self.spin(&name, value, 1, MAX_HASH_MB as i64) {
                    let mb = mb as usize;
                    if let Some(avail) = available_memory_mb() {
                        if mb > avail.saturating_sub(64) {
                            self.out.error(&format!(
                                "Hash {mb} MB is more than the {avail} MB of memory available; kept {} MB",
                                self.options.hash_mb
                            ));
                            return;
                        }
                    }
                    self.pending_hash_mb = Some(mb);
                    self.apply_pending_hash();
                    if self.pending_hash_mb.is_some() {
                        self.out.line(&format!(
                            "info string Hash {mb} MB takes effect when the current search ends"
                        ));
                    }
                }
            }
            "clear hash" => {
                if self.running.is_some() {
                    self.out.error("Clear Hash ignored during a search");
                } else {
                    self.tt.clear();
                }
            }
            "threads" => {
                if let Some(t) = self.spin(&name, value, 1, MAX_THREADS) {
                    self.options.threads = t as usize;
                }
            }
            "move overhead" => {
                if let Some(v) = self.spin(&name, value, 0, MAX_OVERHEAD_MS) {
                    self.options.move_overhead = v;
                }
            }
            "multipv" => {
                if let Some(v) = self.spin(&name, value, 1, MAX_MULTIPV) {
                    self.options.multipv = v as usize;
                }
            }
            "ponder" => {
                if let Some(v) = self.check(&name, value) {
                    self.options.ponder = v;
                }
            }
            "uci_chess960" => {
                if let Some(v) = self.check(&name, value) {
                    self.options.chess960 = v;
                    self.board.set_chess960(v || self.board_needs_960());
                }
            }
            "ownbook" => {
                if let Some(v) = self.check(&name, value) {
                    self.options.own_book = v;
                }
            }
            "bookfile" => self.set_book_file(value),
            "skill level" => {
                if let Some(v) = self.spin(&name, value, 0, MAX_SKILL as i64) {
                    self.options.skill_level = v;
                }
            }
            "uci_limitstrength" => {
                if let Some(v) = self.check(&name, value) {
                    self.options.limit_strength = v;
                }
            }
            "uci_elo" => {
                if let Some(v) = self.spin(&name, value, MIN_ELO, MAX_ELO) {
                    self.options.elo = v;
                }
            }
            "style" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("modern") => self.options.classic = false,
                Some("classic") => self.options.classic = true,
                _ => self
                    .out
                    .error("option \"Style\" is Modern or Classic; unchanged"),
            },
            "uci_showwdl" => {
                if let Some(v) = self.check(&name, value) {
                    self.options.show_wdl = v;
                }
            }
            _ => self
                .out
                .error(&format!("unknown option \"{}\"", quote(&name))),
        }
    }

    /// A position whose castling geometry only Chess960 allows keeps the
    /// 960 notation even when the option is off.
    fn board_needs_960(&self) -> bool {
        Board::from_fen(&self.board.to_fen()).is_ok_and(|b| b.is_chess960())
    }

    /// Parses a spin value, clamping it into range with a message.
    fn spin(&self, name: &str, value: Option<&str>, min: i64, max: i64) -> Option<i64> {
        let Some(text) = value else {
            self.out.error(&format!("option \"{name}\" needs a value"));
            return None;
        };
        let v = match text.parse::<i64>() {
            Ok(v) => v,
            Err(_) => {
                // Out-of-range integers clamp; anything else is refused.
                if text
                    .trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    && !text.is_empty()
                {
                    if text.starts_with('-') {
                        i64::MIN
                    } else {
                        i64::MAX
                    }
                } else {
                    self.out.error(&format!(
                        "option \"{name}\": \"{}\" is not a whole number; unchanged",
                        quote(text)
                    ));
                    return None;
                }
            }
        };
        if v < min || v > max {
            let c = v.clamp(min, max);
            self.out.error(&format!(
                "option \"{name}\": {} is outside {min}..{max}; using {c}",
                quote(text)
            ));
            return Some(c);
        }
        Some(v)
    }

    fn check(&self, name: &str, value: Option<&str>) -> Option<bool> {
        match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => {
                self.out.error(&format!(
                    "option \"{name}\" needs \"true\" or \"false\"; unchanged"
                ));
                None
            }
        }
    }

    fn display(&self) {
        let b = &self.board;
        let mut text = String::new();
        for rank in (0..8).rev() {
            text.push_str(" +---+---+---+---+---+---+---+---+\n");
            for file in 0..8 {
                let p = b.at(crate::chess::types::square(file, rank));
                let c = if p == crate::chess::types::EMPTY {
                    ' '
                } else {
                    crate::chess::types::piece_char(p)
                };
                text.push_str(&format!(" | {c}"));
            }
            text.push_str(&format!(" | {}\n", rank + 1));
        }
        text.push_str(" +---+---+---+---+---+---+---+---+\n");
        text.push_str("   a   b   c   d   e   f   g   h\n\n");
        text.push_str(&format!("Fen: {}\n", b.to_fen()));
        text.push_str(&format!("Key: {:016X}\n", b.hash()));
        let checkers: Vec<String> = b
            .checkers()
            .into_iter()
            .map(crate::chess::types::square_name)
            .collect();
        text.push_str(&format!("Checkers: {}", checkers.join(" ")));
        self.out.line(&text);
    }

    fn perft(&mut self, depth: i64) {
        let depth = depth.clamp(1, 12) as u32;
        let mut board = self.board.clone();
        let start = Instant::now();
        let split = divide(&mut board, depth);
        let mut total = 0;
        for (mv, n) in &split {
            self.out.line(&format!("{}: {n}", to_uci(&board, *mv)));
            total += n;
        }
        let secs = start.elapsed().as_secs_f64();
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
        self.out.line(&format!(
            "Time: {secs:.3} s, {} nps",
            if secs > 0.0 {
                (total as f64 / secs) as u64
            } else {
                0
            }
        ));
    }

    fn bench(&mut self, args: &[&str]) {
        self.stop_search();
        let depth = match args.first().map(|d| d.parse::<i32>()) {
            None => crate::engine::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            Some(_) => {
                self.out.error("bench depth must be 1..30");
                return;
            }
        };
        let out = self.out.clone();
        crate::engine::bench::run(depth, &mut |line| out.line(line));
    }

    /// Stops any search and waits for it (end of input or `quit`).
    pub fn shutdown(&mut self) {
        self.stop_search();
    }
}

/// Ends a search thread's work: waits as the protocol asks (no bestmove
/// before `stop` for an infinite search, before `ponderhit` or `stop` for a
/// ponder search), marks the search done, and sends the result. With no
/// move (mated or stalemated at the root) it sends Stockfish's lines.
fn send_bestmove(
    out: &Output,
    root: &Board,
    ctl: &SearchControl,
    infinite: bool,
    best: Move,
    ponder: Move,
) {
    while (infinite || ctl.is_pondering()) && !ctl.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    // A GUI may change Hash as soon as it reads the bestmove: the engine
    // then joins this thread instead of waiting for the next search.
    ctl.mark_done();
    if best.is_none() {
        let score = if root.in_check() { "mate 0" } else { "cp 0" };
        out.line(&format!("info depth 0 score {score}"));
        out.line("bestmove (none)");
    } else if ponder.is_none() {
        out.line(&format!("bestmove {}", to_uci(root, best)));
    } else {
        out.line(&format!(
            "bestmove {} ponder {}",
            to_uci(root, best),
            to_uci(root, ponder)
        ));
    }
}

/// Parses the words after `go`: the limits understood, and a message for
/// each word that was not (the search still runs with the rest).
pub fn parse_go(args: &[&str]) -> (GoLimits, Vec<String>) {
    let mut l = GoLimits::default();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let next = args.get(i + 1).copied();
        let int = |v: Option<&str>| -> Result<i64, String> {
            let v = v.ok_or_else(|| format!("go {key} needs a number"))?;
            v.parse::<i64>()
                .or_else(|_| v.parse::<f64>().map(|f| f.clamp(-1e15, 1e15) as i64))
                .map_err(|_| format!("go {key}: \"{}\" is not a number; ignored", quote(v)))
        };
        let mut take = |slot: &mut Option<i64>| {
            match int(next) {
                Ok(v) => *slot = Some(v),
                Err(e) => errors.push(e),
            }
            2
        };
        i += match key {
            "wtime" => take(&mut l.wtime),
            "btime" => take(&mut l.btime),
            "winc" => take(&mut l.winc),
            "binc" => take(&mut l.binc),
            "movestogo" => take(&mut l.movestogo),
            "movetime" => take(&mut l.movetime),
            "depth" => take(&mut l.depth),
            "mate" => take(&mut l.mate),
            "perft" => take(&mut l.perft),
            "nodes" => {
                match int(next) {
                    Ok(v) => l.nodes = Some(v.max(1) as u64),
                    Err(e) => errors.push(e),
                }
                2
            }
            "infinite" => {
                l.infinite = true;
                1
            }
            "ponder" => {
                l.ponder = true;
                1
            }
            "searchmoves" => {
                let mut n = 1;
                while let Some(t) = args.get(i + n) {
                    if KEYWORDS.contains(t) {
                        break;
                    }
                    l.searchmoves.push(t.to_string());
                    n += 1;
                }
                n
            }
            other => {
                errors.push(format!("go: unknown word \"{}\" ignored", quote(other)));
                1
            }
        };
    }
    (l, errors)
}

const KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// One `info` line.
pub fn format_info(root: &Board, info: &IterationInfo, show_wdl: bool) -> String {
    let ms = info.time.as_millis().max(1) as u64;
    let nps = info.nodes * 1000 / ms;
    let score = match mate_in(info.score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", info.score),
    };
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let wdl = if show_wdl {
        let (w, d, l) = wdl(info.score);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let pv: Vec<String> = info.pv.iter().map(|&m: &Move| to_uci(root, m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {nps} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_is_sane() {
        let (w, d, l) = wdl(0);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
        let (w, _, l) = wdl(300);
        assert!(w > 500 && l < 20, "{w} {l}");
        let (w, _, l) = wdl(-300);
        assert!(l > 500 && w < 20);
        assert_eq!(wdl(crate::engine::search::MATE - 3), (1000, 0, 0));
        assert_eq!(wdl(-crate::engine::search::MATE + 4), (0, 0, 1000));
    }

    #[test]
    fn elo_maps_into_the_levels() {
        // Each measured point maps to its own level, the ends clamp, the
        // default is a limited level, and a higher Elo is never weaker.
        for (level, elo) in SKILL_ELO {
            assert_eq!(skill_for_elo(elo), level);
        }
        assert_eq!(skill_for_elo(0), SKILL_ELO[0].0);
        assert_eq!(skill_for_elo(MAX_ELO + 500), MAX_SKILL);
        assert!((MIN_ELO..=MAX_ELO).contains(&DEFAULT_ELO));
        assert!(skill_for_elo(DEFAULT_ELO) < MAX_SKILL);
        let levels: Vec<i32> = (MIN_ELO..=MAX_ELO).map(skill_for_elo).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]));
        // Halfway between two measured points is halfway between levels.
        let (l0, e0) = SKILL_ELO[1];
        let (l1, e1) = SKILL_ELO[2];
        assert_eq!(skill_for_elo((e0 + e1) / 2), (l0 + l1 + 1) / 2);
    }
}
