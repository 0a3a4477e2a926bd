//! The UCI protocol: a loop over input lines, the search on its own thread.
//!
//! The loop keeps reading while a search runs, so `isready`, `stop`,
//! `ponderhit` and `quit` are answered at once. Every `go` gets exactly one
//! `bestmove`, printed by the search thread when the search is over (and,
//! in `infinite` and `ponder` mode, only once `stop` or `ponderhit` came).
//! Nothing from the input can crash the loop or corrupt its state: bad
//! input is answered with `info string error: ...` and the previous state
//! is kept.
//!
//! This file keeps the loop, the command dispatch and the position;
//! `options.rs` has the option table behind `uci` and `setoption`, `go.rs`
//! parses and starts `go`, `format.rs` writes `info` and `bestmove`, and
//! `genfens.rs` draws the opening positions `genfens` prints.
//! The search runs in the engine's `threads::SearchPool`. The protocol
//! layer imports `book`, `chess`, `engine` and `util`; nothing below it
//! imports it.

mod format;
mod genfens;
mod go;
mod options;

pub use format::format_info;
pub use go::parse_go;
pub use options::UciOptions;

use crate::book::Book;
use crate::chess::board::Board;
use crate::chess::diagram::{render, Diagram};
use crate::chess::notation::parse_uci;
use crate::chess::perft::divide_report;
use crate::engine::eval::{describe, judges_bare_king};
use crate::engine::nnue::{same_network, Network};
use crate::engine::threads::SearchPool;
use crate::engine::tt::{TranspositionTable, MAX_HASH_MB};
use crate::util::rng::Rng;
use crate::util::text::quote;
use options::DEFAULT_HASH_MB;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// Longest input line kept; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 4 << 20;
/// Most moves accepted after `position ... moves`.
const MAX_POSITION_MOVES: usize = 10_000;

/// A shared line-oriented output (stdout, or a buffer in tests).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Sink>>);

/// Where output goes: the GUI, and the `Debug Log File` when one is set.
struct Sink {
    gui: Box<dyn Write + Send>,
    log: Option<std::fs::File>,
}

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(Sink { gui: w, log: None })))
    }

    fn sink(&self) -> std::sync::MutexGuard<'_, Sink> {
        match self.0.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Writes one line and flushes. Output errors (a closed pipe) are
    /// ignored: the GUI is gone and `quit` or end of input follows.
    pub fn line(&self, text: &str) {
        let mut s = self.sink();
        let _ = writeln!(s.gui, "{text}");
        let _ = s.gui.flush();
        if let Some(log) = s.log.as_mut() {
            let _ = writeln!(log, "<< {text}");
        }
    }

    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }

    /// Records a line the GUI sent, when a debug log is open.
    fn log_input(&self, text: &str) {
        if let Some(log) = self.sink().log.as_mut() {
            let _ = writeln!(log, ">> {text}");
        }
    }

    /// Starts (or, with `None`, stops) writing the dialogue to a file.
    fn set_log(&self, file: Option<std::fs::File>) {
        self.sink().log = file;
    }
}

/// The engine state behind the protocol.
pub struct Engine {
    out: Output,
    board: Board,
    options: UciOptions,
    tt: Arc<TranspositionTable>,
    pool: SearchPool,
    pending_hash_mb: Option<usize>,
    /// A book loaded from `BookFile`; `None` means the embedded book.
    book: Option<Book>,
    rng: Rng,
    /// The tables found in `SyzygyPath`'s folders, if any.
    tables: Option<Arc<crate::engine::syzygy::Tablebases>>,
    /// The network `EvalFile` loaded; `None` until one is needed or set
    /// (then the embedded one).
    network: Option<Arc<Network>>,
    /// The evaluation the table's entries hold values of (`None`: the
    /// hand-written one): a search with another empties the table first.
    table_network: Option<Arc<Network>>,
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

/// The line printed at start.
const BANNER: &str = concat!(
    "cavalier ",
    env!("CARGO_PKG_VERSION"),
    ": a UCI chess engine; type help for its commands"
);

/// The answer to `help`.
const HELP: &str = "\
cavalier speaks UCI (a GUI or a script drives it; see the README).
UCI:        uci, isready, setoption name N value V, ucinewgame,
            position startpos|fen F [moves M...], go [depth|nodes|movetime|
            wtime btime winc binc movestogo|infinite|ponder|mate|searchmoves],
            stop, ponderhit, quit
Extensions: d (the board, FEN, key, checkers), eval (the evaluation term by term),
            go perft N (move counts), bench [depth] (the fixed benchmark, with
            the network when Use NNUE is on), genfens N seed S book None|FILE
            (N varied, balanced openings as info string genfens FEN lines), help
Command line: cavalier \"LINE\" ... runs each argument as an input line first
            (cavalier \"genfens 10 seed 1 book None\" quit)";

/// The commands [`Engine::handle`] knows: a command-line argument whose
/// first word is one of them is read as an input line.
pub const COMMANDS: [&str; 16] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "quit",
    "d",
    "eval",
    "bench",
    "genfens",
    "help",
    "debug",
    "register",
];

/// Runs the protocol over `input` until `quit` or end of input.
pub fn run<R: BufRead>(input: R, out: Output) {
    run_with_commands(&[], input, out);
}

/// Runs the protocol over the lines of `commands` (the command line's
/// arguments, as `cavalier "genfens 8 seed 1 book None" quit` gives them),
/// then, unless one of them was `quit`, over `input` until `quit` or end
/// of input.
pub fn run_with_commands<R: BufRead>(commands: &[String], mut input: R, out: Output) {
    let mut engine = Engine::new(out);
    // For a person at the prompt; GUIs ignore a line before `uci`.
    engine.out.line(BANNER);
    for command in commands {
        engine.out.log_input(command);
        if engine.handle(command) == Flow::Quit {
            engine.shutdown();
            return;
        }
    }
    while let Some((line, truncated)) = read_line_bounded(&mut input) {
        if truncated {
            engine
                .out
                .error(&format!("line longer than {MAX_LINE_BYTES} bytes ignored"));
            continue;
        }
        engine.out.log_input(&line);
        if engine.handle(&line) == Flow::Quit {
            break;
        }
    }
    engine.shutdown();
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        Engine::with_hash(out, DEFAULT_HASH_MB as usize)
    }

    /// An engine whose table starts at `hash_mb` megabytes (tests and the
    /// fuzzer start many engines and need no 16 MB table each).
    pub fn with_hash(out: Output, hash_mb: usize) -> Engine {
        let options = UciOptions {
            hash_mb: hash_mb.clamp(1, MAX_HASH_MB),
            ..UciOptions::default()
        };
        Engine {
            out,
            board: Board::startpos(),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            pool: SearchPool::default(),
            pending_hash_mb: None,
            book: None,
            rng: Rng::from_time(),
            tables: None,
            network: None,
            table_network: None,
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
            "ponderhit" => self.pool.ponderhit(),
            "setoption" => self.setoption(args),
            "quit" => return Flow::Quit,
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => self.bench(args),
            "genfens" => self.genfens(args),
            "help" => self.out.line(HELP),
            "debug" | "register" => {}
            other => self
                .out
                .error(&format!("unknown command \"{}\"", quote(other))),
        }
        Flow::Continue
    }

    fn new_game(&mut self) {
        self.stop_search();
        self.apply_pending_hash();
        self.tt.clear_with(self.options.threads);
        self.pool.clear();
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
        } else if board.is_chess960() {
            // Castling rights whose king or rook stands off the standard
            // squares: only Chess960 has them, and a standard GUI could not
            // read the king-takes-rook castling moves that would follow.
            self.out.error(
                "castling rights with the king off e1/e8 or a rook off the corner are \
                 Chess960's (set UCI_Chess960 to true); position unchanged",
            );
            return;
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

    /// Stops a running search (its thread prints the bestmove) and waits
    /// for it.
    fn stop_search(&mut self) {
        if self.pool.stop().is_err() {
            self.out.error("the search thread failed");
        }
    }

    /// A finished search's thread is joined lazily; this collects it.
    fn reap(&mut self) {
        if self.pool.reap().is_err() {
            self.out.error("the search thread failed");
        }
    }

    fn display(&self) {
        let b = &self.board;
        let mut text = render(b, &Diagram::GRID);
        text.push('\n');
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

    /// `eval`: the hand-written evaluation term by term, and the
    /// network's score when `Use NNUE` is on.
    fn eval(&mut self) {
        self.out.line(describe(&self.board).trim_end());
        if let Some(net) = self.search_network() {
            let cp = net.evaluate(&self.board);
            let white = cp * self.board.side_to_move().sign() as i32;
            self.out.line(&format!(
                "NNUE evaluation: {white} cp (White's view), {cp} cp (side to move's)"
            ));
            if judges_bare_king(&self.board) {
                self.out.line(
                    "(a bare king against pieces: the search uses the evaluation above instead)",
                );
            }
        }
    }

    /// Empties the table before a search that evaluates with another
    /// evaluation than the one whose values it holds.
    fn match_table_to(&mut self, network: Option<&Arc<Network>>) {
        if !same_network(self.table_network.as_ref(), network) {
            self.tt.clear_with(self.options.threads);
            self.table_network = network.cloned();
        }
    }

    fn perft(&mut self, depth: i64) {
        let depth = depth.clamp(1, 12) as u32;
        let out = &mut self.out;
        divide_report(&self.board, depth, 1, None, &mut |line| out.line(line));
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
        let network = self.search_network();
        let out = self.out.clone();
        crate::engine::bench::run(depth, network, &mut |line| out.line(line));
    }

    /// `genfens N seed S book None|FILE`: N opening positions, one
    /// `info string genfens FEN` line each (see `genfens.rs`). The position
    /// set with `position` is kept.
    fn genfens(&mut self, args: &[&str]) {
        let request = match genfens::parse_request(args) {
            Ok(r) => r,
            Err(e) => return self.out.error(&e),
        };
        if !request.ignored.is_empty() {
            self.out.line(&format!(
                "info string note: genfens ignores \"{}\"",
                quote(&request.ignored.join(" "))
            ));
        }
        let book = match request.book.as_deref().map(genfens::BookFile::open) {
            None => None,
            Some(Ok(book)) => Some(book),
            Some(Err(e)) => return self.out.error(&e),
        };
        self.stop_search();
        let network = self.search_network();
        let mut generator =
            genfens::Generator::new(request.seed, book, self.options.chess960, network);
        for _ in 0..request.count {
            match generator.next_position() {
                Ok(board) => self
                    .out
                    .line(&format!("info string genfens {}", board.to_fen())),
                Err(e) => return self.out.error(&e),
            }
        }
    }

    /// Stops any search and waits for it (end of input or `quit`).
    pub fn shutdown(&mut self) {
        self.stop_search();
    }
}
