//! `cavalier net`: the evaluation network's data and trainer.
//!
//! - `packed`: the 32-byte training record and its conversions (from a
//!   board, from `selfplay`'s `FEN;RESULT;SCORE` text);
//! - `games`: game files, a start position then 4 bytes a ply, and the
//!   filter that picks training positions out of them;
//! - `pgn`: PGN of engine matches read as games, with their scores;
//! - `network`: the network in floating point, its forward pass and
//!   gradient (768 inputs, `hidden` units per view, SCReLU, one output);
//! - `train`: mini-batch AdamW over threads, held-out validation;
//! - `quant`: the trained network rounded to the engine's integers
//!   (`engine::nnue::Network`, whose file `engine::nnue::file` reads and
//!   writes), and back.
//!
//! The verbs: `pack` converts text to records (or match PGN to games),
//! `convert` between games, records and text, `train` fits a network and
//! writes one file per epoch, `eval` prints a network's score of a FEN.
//! Data lives outside the repository; the commands that remake it are in
//! docs/network.md.

pub mod games;
pub mod network;
pub mod packed;
pub mod pgn;
pub mod quant;
pub mod train;

use crate::chess::board::Board;
use crate::engine::nnue::{load, valid_hidden, NetSource, Network, MAX_BUCKETS};
use crate::util::command_line::{
    args_or_exit, say, unexpected, CommandLine, EXIT_FAILED, EXIT_USAGE,
};
use network::{features, sigmoid, target, SCALE};
use packed::{unpack, RECORD_BYTES};
use std::io::Write;
use train::Config;

const USAGE: &str = "usage: cavalier net pack TEXT... --out FILE
       cavalier net pack --pgn PGN... --out FILE [--to games|records] [--any-engine]
       cavalier net convert IN... --to records|text|games --out FILE [--max-score CP] [--all]
       cavalier net train DATA... --out DIR [options]
       cavalier net eval NETFILE FEN
pack   converts FEN;RESULT;SCORE lines (cavalier selfplay) to 32-byte records
       (docs/network.md), appended to FILE; bad lines are counted and skipped
  --pgn             the inputs are PGN of fastchess or cutechess-cli matches of cavalier
                    against itself: each game is replayed with the scores of the move
                    comments (+0.35/12, +M5/30; book moves have none) and appended to FILE
                    as a game (default) or as the records of the positions training keeps
  --to games|records
  --any-engine      take games whatever the players' names (else both contain \"cav\",
                    or both engines' names, fastchess's EngineWhiteName/EngineBlackName)
  --max-score CP    with --to records: leave out positions scored beyond this (default 3000)
convert writes the positions of IN (game files, record files or FEN;RESULT;SCORE text,
       told apart by their content) to FILE (created or emptied) as records or text
       of the positions training keeps (quiet: not in check, the move played neither a
       capture nor a promotion; a score, not a mate, within --max-score, default 3000;
       --all: every position with a score), or as games (a record or a text line becomes
       a game of one position, 36 bytes)
train  fits a network to the positions of the DATA files (record files, and game files
       filtered as convert filters them); writes DIR/net-E.nnue (quantised) after every
       epoch E and a line of DIR/log.txt
  --hidden N        units per view, a multiple of 16 (default 128)
  --buckets N       output buckets by piece count, 1..=8 (default 1; with --init
                    of a one-bucket network, its output layer copied into each)
  --epochs N        passes over the data (default 10)
  --batch N         positions per step (default 4096)
  --lr X            learning rate at the start (default 0.005)...
  --lr-drop X       ...multiplied by this (default 0.3)...
  --lr-step N       ...every N epochs (default 5)
  --blend X         weight of the game result in the target, the rest the
                    score's sigmoid (default 0.3)
  --weight-decay X  AdamW's decay (default 0.01)
  --max-score CP    leave out positions scored beyond this (default 3000)
  --validation X    share of the records held out: the last ones, whole games
                    the network never trains on (default 0.02)
  --mirror          train on each position or its mirror image (files a-h
                    swapped), chosen afresh every epoch
  --threads N       (default: every core)
  --seed S          shuffles and initial weights (default 1)
  --init NETFILE    start from this network instead of random weights (its
                    width and buckets are the run's; a run that carries on from it)
eval   prints the network's score of FEN (side to move's view, and White's)";

/// Options of `cavalier net train`.
#[derive(Clone, Debug)]
struct NetTrainOptions {
    data: Vec<String>,
    out: String,
    max_score: i32,
    cfg: Config,
    /// A network file to start from (`--init`), else random weights.
    init: Option<String>,
    /// Whether `--hidden` was given (it must then match `--init`'s).
    hidden_given: bool,
    /// Whether `--buckets` was given (it must then match `--init`'s, or
    /// widen a one-bucket network).
    buckets_given: bool,
}

fn parse_train(args: &[String]) -> Result<NetTrainOptions, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut o = NetTrainOptions {
        data: Vec::new(),
        out: String::new(),
        max_score: 3000,
        cfg: Config {
            hidden: 128,
            buckets: 1,
            epochs: 10,
            batch: 4096,
            lr: 0.005,
            lr_drop: 0.3,
            lr_step: 5,
            blend: 0.3,
            weight_decay: 0.01,
            threads,
            seed: 1,
            validation: 0.02,
            mirror: false,
        },
        init: None,
        hidden_given: false,
        buckets_given: false,
    };
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        let c = &mut o.cfg;
        match a {
            "--out" => o.out = args.value()?.to_string(),
            "--hidden" => {
                c.hidden = args.number(|&n: &usize| valid_hidden(n))?;
                o.hidden_given = true;
            }
            "--buckets" => {
                c.buckets = args.number(|n: &usize| (1..=MAX_BUCKETS).contains(n))?;
                o.buckets_given = true;
            }
            "--init" => o.init = Some(args.value()?.to_string()),
            "--epochs" => c.epochs = args.number(|&n: &usize| n > 0)?,
            "--batch" => c.batch = args.number(|&n: &usize| n > 0)?,
            "--lr" => c.lr = args.number(|&x: &f32| x > 0.0 && x < 1.0)?,
            "--lr-drop" => c.lr_drop = args.number(|&x: &f32| x > 0.0 && x <= 1.0)?,
            "--lr-step" => c.lr_step = args.number(|&n: &usize| n > 0)?,
            "--blend" => c.blend = args.number(|x: &f32| (0.0..=1.0).contains(x))?,
            "--weight-decay" => c.weight_decay = args.number(|x: &f32| (0.0..1.0).contains(x))?,
            "--validation" => c.validation = args.number(|x: &f32| (0.0..0.5).contains(x))?,
            "--mirror" => c.mirror = true,
            "--threads" => c.threads = args.number(|n: &usize| (1..=256).contains(n))?,
            "--seed" => c.seed = args.number(|_: &u64| true)?,
            "--max-score" => o.max_score = args.number(|&n: &i32| n > 0)?,
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(unexpected(flag)),
            _ => o.data.push(a.to_string()),
        }
    }
    if o.data.is_empty() {
        return Err("train needs DATA files".to_string());
    }
    if o.out.trim().is_empty() {
        return Err("train needs --out DIR".to_string());
    }
    Ok(o)
}

/// Reads the training positions of `paths`: of a record file, the records
/// that unpack and whose score is within `max_score`; of a game file, the
/// positions [`games::Filter::training`] keeps. Returns them (in file and
/// game order, so that the last share held out is whole games) and the
/// count left out.
fn read_records(
    paths: &[String],
    max_score: i32,
) -> Result<(Vec<[u8; RECORD_BYTES]>, usize), String> {
    let mut out = Vec::new();
    let mut left_out = 0;
    let filter = games::Filter::training(max_score);
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read \"{path}\": {e}"))?;
        if games::is_game_file(&bytes) {
            for game in games::games(&bytes) {
                let game = game.map_err(|e| format!("\"{path}\": {e}"))?;
                left_out += game.records(&filter, &mut out);
            }
            continue;
        }
        if bytes.len() % RECORD_BYTES != 0 {
            return Err(format!(
                "\"{path}\": {} bytes is not a whole number of {RECORD_BYTES}-byte records",
                bytes.len()
            ));
        }
        for chunk in bytes.chunks_exact(RECORD_BYTES) {
            let r: [u8; RECORD_BYTES] = chunk.try_into().expect("exact chunk");
            match unpack(&r) {
                Some(s) if (s.score as i32).abs() <= max_score => out.push(r),
                _ => left_out += 1,
            }
        }
    }
    Ok((out, left_out))
}

/// The network `--init` names as floats (`None` without `--init`); its
/// width must be `--hidden`'s when both are given, and becomes the run's;
/// so do its buckets, but that a one-bucket network is widened to
/// `--buckets` (its output layer copied into each bucket: the same
/// evaluations, [`network::FloatNetwork::widened`]).
fn initial_network(o: &mut NetTrainOptions) -> Result<Option<network::FloatNetwork>, String> {
    let Some(path) = &o.init else {
        return Ok(None);
    };
    let net = load(&NetSource::named(path))?;
    let mut p = quant::to_float(&net).map_err(|e| format!("\"{path}\": {e}"))?;
    if o.hidden_given && p.hidden != o.cfg.hidden {
        return Err(format!(
            "\"{path}\" has {} units, --hidden says {}",
            p.hidden, o.cfg.hidden
        ));
    }
    if o.buckets_given && p.buckets != o.cfg.buckets {
        if p.buckets != 1 {
            return Err(format!(
                "\"{path}\" has {} output buckets, --buckets says {} (only a \
                 one-bucket network is widened)",
                p.buckets, o.cfg.buckets
            ));
        }
        p = p.widened(o.cfg.buckets);
    }
    o.cfg.hidden = p.hidden;
    o.cfg.buckets = p.buckets;
    Ok(Some(p))
}

/// Mean loss of the quantised network on `records` (the float network's
/// loss, with the engine's integer arithmetic).
fn quantised_loss(net: &Network, records: &[[u8; RECORD_BYTES]], blend: f32) -> f64 {
    let mut total = 0.0f64;
    for r in records {
        let Some(s) = unpack(r) else { continue };
        let (us, them) = features(&s);
        let e = sigmoid(net.evaluate_features(&us, &them) as f32 / SCALE) - target(&s, blend);
        total += (e * e) as f64;
    }
    total / records.len().max(1) as f64
}

fn train_command(args: &[String]) -> i32 {
    let mut o = match args_or_exit(parse_train(args), USAGE) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let initial = match initial_network(&mut o) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let (mut records, left_out) = match read_records(&o.data, o.max_score) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    if records.len() < 100 {
        eprintln!(
            "error: {} usable records: too few to train on",
            records.len()
        );
        return EXIT_USAGE;
    }
    if let Err(e) = std::fs::create_dir_all(&o.out) {
        eprintln!("error: cannot create \"{}\": {e}", o.out);
        return EXIT_USAGE;
    }
    let log_path = format!("{}/log.txt", o.out);
    let mut log = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot open \"{log_path}\": {e}");
            return EXIT_USAGE;
        }
    };
    let header = format!(
        "# {} records ({left_out} left out: unreadable, beyond {} cp, or in game files not quiet), {:?}, from {}",
        records.len(),
        o.max_score,
        o.cfg,
        o.init.as_deref().unwrap_or("random weights")
    );
    eprintln!("{header}");
    let _ = writeln!(log, "{header}");
    let start = std::time::Instant::now();
    let mut last = start.elapsed();
    let trained = records.len() as f64 * (1.0 - o.cfg.validation as f64);
    let mut failure = None;
    train::train(&mut records, &o.cfg, initial, &mut |e| {
        let epoch = e.epoch;
        let q = quant::from_float(e.net);
        let qloss = quantised_loss(&q, e.validation, o.cfg.blend);
        let path = format!("{}/net-{epoch}.nnue", o.out);
        if let Err(e) = std::fs::write(&path, q.to_bytes()) {
            failure.get_or_insert(format!("cannot write \"{path}\": {e}"));
        }
        let now = start.elapsed();
        let rate = trained / (now - last).as_secs_f64().max(1e-9);
        last = now;
        let line = format!(
            "epoch {epoch} train {:.6} valid {:.6} valid-quantised {qloss:.6} {rate:.0} pos/s {:.0} s",
            e.train_loss,
            e.validation_loss,
            now.as_secs_f64()
        );
        say!("{line}");
        let _ = writeln!(log, "{line}");
    });
    match failure {
        Some(e) => {
            eprintln!("error: {e}");
            EXIT_FAILED
        }
        None => 0,
    }
}

/// What a converter writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Records,
    Text,
    Games,
}

impl Kind {
    fn parse(text: &str) -> Result<Kind, String> {
        match text {
            "records" => Ok(Kind::Records),
            "text" => Ok(Kind::Text),
            "games" => Ok(Kind::Games),
            other => Err(format!("--to {other}: expected records, text or games")),
        }
    }
}

/// Messages about bad input shown before they are only counted.
const SHOWN: u64 = 10;

/// Where converted games go: whole, or the positions `filter` keeps as
/// records or text.
struct Sink {
    out: std::io::BufWriter<std::fs::File>,
    path: String,
    to: Kind,
    filter: games::Filter,
    games: u64,
    written: u64,
    left_out: u64,
}

impl Sink {
    /// Opens `path`: appended to, or created (emptied).
    fn open(path: &str, append: bool, to: Kind, filter: games::Filter) -> Result<Sink, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .map_err(|e| format!("cannot open \"{path}\": {e}"))?;
        Ok(Sink {
            out: std::io::BufWriter::new(file),
            path: path.to_string(),
            to,
            filter,
            games: 0,
            written: 0,
            left_out: 0,
        })
    }

    fn game(&mut self, g: &games::Game) -> Result<(), String> {
        let bytes = match self.to {
            Kind::Games => {
                self.written += g.plies.len() as u64;
                games::write_game(g)?
            }
            Kind::Records => {
                let mut records = Vec::new();
                self.left_out += g.records(&self.filter, &mut records) as u64;
                self.written += records.len() as u64;
                records.concat()
            }
            Kind::Text => {
                let mut text = String::new();
                self.left_out += g.text(&self.filter, &mut text) as u64;
                self.written += text.lines().count() as u64;
                text.into_bytes()
            }
        };
        self.games += 1;
        self.out
            .write_all(&bytes)
            .map_err(|e| format!("cannot write \"{}\": {e}", self.path))
    }

    fn finish(mut self, verb: &str) -> Result<(), String> {
        self.out
            .flush()
            .map_err(|e| format!("cannot write \"{}\": {e}", self.path))?;
        let what = match self.to {
            Kind::Games => "positions (plies) in games",
            Kind::Records => "records",
            Kind::Text => "lines",
        };
        eprintln!(
            "{verb}: {} {what} written to {} from {} games, {} positions left out by the filter",
            self.written, self.path, self.games, self.left_out
        );
        Ok(())
    }
}

/// Passes every game of the input file `path` to `sink`: a game file's
/// games; a text file's `FEN;RESULT;SCORE` lines or a record file's
/// records as games of one position. Bad lines and records are counted
/// (returned) and skipped; a damaged game file is an error.
fn convert_file(path: &str, sink: &mut Sink) -> Result<u64, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read \"{path}\": {e}"))?;
    let mut bad = 0u64;
    let complain = |bad: &mut u64, what: String| {
        if *bad < SHOWN {
            eprintln!("{path}: {what}");
        }
        *bad += 1;
    };
    if games::is_game_file(&bytes) {
        for game in games::games(&bytes) {
            sink.game(&game.map_err(|e| format!("\"{path}\": {e}"))?)?;
        }
    } else if bytes[..bytes.len().min(RECORD_BYTES)]
        .iter()
        .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace())
    {
        // Text: a record's byte 26 (the result) and 31 are never printable.
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            match packed::parse_line(line) {
                Ok(Some((board, result, score))) => sink.game(&games::one_position(
                    board,
                    games::stored_result(result),
                    games::stored_score(score),
                ))?,
                Ok(None) => {}
                Err(e) => complain(&mut bad, format!("line {}: {e}", n + 1)),
            }
        }
    } else {
        if bytes.len() % RECORD_BYTES != 0 {
            return Err(format!(
                "\"{path}\": {} bytes is neither games nor a whole number of \
                 {RECORD_BYTES}-byte records",
                bytes.len()
            ));
        }
        for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            let r: [u8; RECORD_BYTES] = chunk.try_into().expect("exact chunk");
            let game = unpack(&r)
                .ok_or_else(|| "not a record".to_string())
                .and_then(|s| {
                    packed::board_of_sample(&s).map(|b| games::one_position(b, s.result, s.score))
                });
            match game {
                Ok(g) => sink.game(&g)?,
                Err(e) => complain(&mut bad, format!("byte {}: {e}", i * RECORD_BYTES)),
            }
        }
    }
    Ok(bad)
}

/// `cavalier net convert IN... --to KIND --out FILE [--max-score CP] [--all]`.
fn convert_command(args: &[String]) -> i32 {
    let mut inputs = Vec::new();
    let (mut out, mut to) = (None, None);
    let mut filter = games::Filter::training(3000);
    let parsed = (|| -> Result<(), String> {
        let mut args = CommandLine::new(args);
        while let Some(a) = args.next() {
            match a {
                "--out" => out = Some(args.value()?.to_string()),
                "--to" => to = Some(Kind::parse(args.value()?)?),
                "--max-score" => filter.max_score = args.number(|&n: &i32| n > 0)?,
                "--all" => filter.all = true,
                "-h" | "--help" => return Err(String::new()),
                flag if flag.starts_with("--") => return Err(unexpected(flag)),
                _ => inputs.push(a.to_string()),
            }
        }
        if inputs.is_empty() {
            return Err("convert needs input files".to_string());
        }
        Ok(())
    })();
    if let Err(code) = args_or_exit(parsed, USAGE) {
        return code;
    }
    let (Some(out), Some(to)) = (out.filter(|o| !o.trim().is_empty()), to) else {
        eprintln!("error: convert needs --to KIND and --out FILE\n{USAGE}");
        return EXIT_USAGE;
    };
    let same = |a: &str| {
        a == out
            || std::fs::canonicalize(a)
                .ok()
                .is_some_and(|a| std::fs::canonicalize(&out).ok().is_some_and(|o| a == o))
    };
    if inputs.iter().any(|i| same(i)) {
        eprintln!("error: --out \"{out}\" is one of the inputs");
        return EXIT_USAGE;
    }
    let mut sink = match Sink::open(&out, false, to, filter) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let mut bad = 0;
    for path in &inputs {
        match convert_file(path, &mut sink) {
            Ok(n) => bad += n,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_FAILED;
            }
        }
    }
    match sink.finish("convert") {
        Ok(()) => {
            if bad > 0 {
                eprintln!("convert: {bad} bad lines or records skipped");
            }
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILED
        }
    }
}

/// `cavalier net pack --pgn PGN... --out FILE [--to games|records]`: the
/// games of engine matches, appended to FILE.
fn pack_pgn(inputs: &[String], out: &str, to: Kind, any_engine: bool, max_score: i32) -> i32 {
    let mut sink = match Sink::open(out, true, to, games::Filter::training(max_score)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let (mut unfinished, mut others, mut unreadable) = (0u64, 0u64, 0u64);
    for path in inputs {
        let Some(text) = crate::util::command_line::read_input(path) else {
            return EXIT_USAGE;
        };
        for game in pgn::parse(&text) {
            match pgn::game_of(&game, any_engine) {
                Ok(g) => {
                    if let Err(e) = sink.game(&g) {
                        eprintln!("error: {e}");
                        return EXIT_FAILED;
                    }
                }
                Err(pgn::Skip::Unfinished) => unfinished += 1,
                Err(pgn::Skip::OtherEngine) => others += 1,
                Err(pgn::Skip::Unreadable(why)) => {
                    if unreadable < SHOWN {
                        eprintln!("{path}:{}: game skipped: {why}", game.line);
                    }
                    unreadable += 1;
                }
            }
        }
    }
    if let Err(e) = sink.finish("pack") {
        eprintln!("error: {e}");
        return EXIT_FAILED;
    }
    eprintln!(
        "pack: skipped {unfinished} games without a result, {others} of other engines \
         (--any-engine takes them), {unreadable} unreadable"
    );
    0
}

fn pack_command(args: &[String]) -> i32 {
    let mut inputs = Vec::new();
    let mut out = None;
    let (mut pgn, mut any_engine, mut to, mut max_score) = (false, false, None, 3000);
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        let option = match a {
            // A missing FILE is reported below, with the usage.
            "--out" => {
                out = args.value().ok().map(str::to_string);
                Ok(())
            }
            "--pgn" => {
                pgn = true;
                Ok(())
            }
            "--any-engine" => {
                any_engine = true;
                Ok(())
            }
            "--to" => args.value().and_then(Kind::parse).map(|k| to = Some(k)),
            "--max-score" => args.number(|&n: &i32| n > 0).map(|n| max_score = n),
            "-h" | "--help" => {
                say!("{USAGE}");
                return 0;
            }
            _ => {
                inputs.push(a.to_string());
                Ok(())
            }
        };
        if let Err(e) = option {
            eprintln!("error: {e}\n{USAGE}");
            return EXIT_USAGE;
        }
    }
    let Some(out) = out.filter(|o| !o.trim().is_empty()) else {
        eprintln!("error: pack needs --out FILE\n{USAGE}");
        return EXIT_USAGE;
    };
    if inputs.is_empty() {
        eprintln!("error: pack needs input files\n{USAGE}");
        return EXIT_USAGE;
    }
    if pgn {
        let to = to.unwrap_or(Kind::Games);
        if to == Kind::Text {
            eprintln!("error: pack --pgn writes games or records\n{USAGE}");
            return EXIT_USAGE;
        }
        return pack_pgn(&inputs, &out, to, any_engine, max_score);
    }
    if to.is_some_and(|t| t != Kind::Records) || any_engine {
        eprintln!("error: pack without --pgn writes records (net convert converts)\n{USAGE}");
        return EXIT_USAGE;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out);
    let mut sink = match file {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("error: cannot open \"{out}\": {e}");
            return EXIT_USAGE;
        }
    };
    let (mut written, mut bad) = (0u64, 0u64);
    for path in &inputs {
        let Some(text) = crate::util::command_line::read_input(path) else {
            return EXIT_USAGE;
        };
        for (n, line) in text.lines().enumerate() {
            match packed::record_of_line(line) {
                Ok(Some(r)) => {
                    if let Err(e) = sink.write_all(&r) {
                        eprintln!("error: cannot write \"{out}\": {e}");
                        return EXIT_FAILED;
                    }
                    written += 1;
                }
                Ok(None) => {}
                Err(e) => {
                    if bad < SHOWN {
                        eprintln!("{path}:{}: {e}", n + 1);
                    }
                    bad += 1;
                }
            }
        }
    }
    if let Err(e) = sink.flush() {
        eprintln!("error: cannot write \"{out}\": {e}");
        return EXIT_FAILED;
    }
    eprintln!("pack: {written} records written to {out}, {bad} bad lines skipped");
    0
}

fn eval_command(args: &[String]) -> i32 {
    let Some(path) = args.first() else {
        eprintln!("error: eval needs NETFILE FEN\n{USAGE}");
        return EXIT_USAGE;
    };
    let board = match Board::from_fen_words(&args[1..]) {
        Ok(Some(b)) => b,
        Ok(None) => Board::startpos(),
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let net = match load(&NetSource::named(path)) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let cp = net.evaluate(&board);
    let white = cp * board.side_to_move().sign() as i32;
    say!("{cp} cp for the side to move ({white} cp for White)");
    0
}

/// `cavalier net`: returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("pack") => pack_command(rest),
        Some("convert") => convert_command(rest),
        Some("train") => train_command(rest),
        Some("eval") => eval_command(rest),
        Some("-h" | "--help") => {
            say!("{USAGE}");
            0
        }
        _ => {
            eprintln!("error: net needs pack, convert, train or eval\n{USAGE}");
            EXIT_USAGE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory of its own for a test, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("cavalier-net-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn path(&self, file: &str) -> String {
            self.0.join(file).to_string_lossy().into_owned()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn run(words: &[&str]) -> i32 {
        command(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>())
    }

    const TEXT: &str = "\
# quiet positions as selfplay writes them
r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1;0.5;12
rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3;1.0;-40
1r2k1r1/pppppppp/8/8/8/8/1PPPPPPP/1R2K1RR b GQkq - 5 9;0.0;-31999
";

    #[test]
    fn text_records_and_games_convert_into_each_other() {
        let dir = Scratch::new("convert");
        let path = |file: &str| dir.path(file);
        let (text, games_file, back, records, again) = (
            path("in.txt"),
            path("g.bin"),
            path("back.txt"),
            path("r.bin"),
            path("r2.bin"),
        );
        std::fs::write(&text, format!("{TEXT}not a line\n")).unwrap();
        let to = |kind: &str, from: &str, out: &str, more: &[&str]| {
            let mut words = vec!["convert", from, "--to", kind, "--out", out];
            words.extend_from_slice(more);
            run(&words)
        };
        assert_eq!(to("games", &text, &games_file, &[]), 0);
        let bytes = std::fs::read(&games_file).unwrap();
        assert!(games::is_game_file(&bytes));
        // A position alone costs a header and one ply.
        assert_eq!(bytes.len(), 3 * (games::HEADER_BYTES + games::PLY_BYTES));
        // Back to text: castling (Chess960's too) and en passant kept; the
        // mate score is left out unless --all.
        assert_eq!(to("text", &games_file, &back, &["--all"]), 0);
        let lines: Vec<&str> = TEXT.lines().skip(1).collect();
        assert_eq!(
            std::fs::read_to_string(&back).unwrap(),
            lines.join("\n") + "\n"
        );
        assert_eq!(to("text", &games_file, &back, &[]), 0);
        assert_eq!(std::fs::read_to_string(&back).unwrap().lines().count(), 2);
        // Records: from the text as `pack` makes them, and through games.
        assert_eq!(run(&["pack", &text, "--out", &records]), 0);
        assert_eq!(to("games", &records, &games_file, &[]), 0);
        assert_eq!(to("records", &games_file, &again, &["--all"]), 0);
        assert_eq!(
            std::fs::read(&records).unwrap(),
            std::fs::read(&again).unwrap()
        );
        // The output is not an input; a damaged game file fails.
        assert_eq!(to("text", &text, &text, &[]), EXIT_USAGE);
        let mut bad = std::fs::read(&games_file).unwrap();
        bad.truncate(bad.len() - 1);
        std::fs::write(&games_file, bad).unwrap();
        assert_eq!(to("text", &games_file, &back, &[]), EXIT_FAILED);
        assert_eq!(to("pgn", &text, &back, &[]), EXIT_USAGE);
    }

    /// `net train --init` of a one-bucket network with `--buckets 4`
    /// starts from it widened, which before any step evaluates every
    /// position as the file's network does; without `--buckets` a
    /// network's buckets are the run's, and a bucketed network is not
    /// bucketed anew.
    #[test]
    fn init_widens_a_plain_network_into_buckets() {
        let dir = Scratch::new("widen");
        let (plain_path, wide_path) = (dir.path("plain.nnue"), dir.path("wide.nnue"));
        let mut rng = crate::util::rng::Rng::new(99);
        let mut p = network::FloatNetwork::random(32, 1, &mut || rng.next_u64());
        p.b1.iter_mut().for_each(|b| *b = 0.2);
        p.b2[0] = 0.1;
        let plain = quant::from_float(&p);
        std::fs::write(&plain_path, plain.to_bytes()).unwrap();
        let options = |init: &str, extra: &[&str]| {
            let mut words = vec!["d.bin", "--out", "o", "--init", init];
            words.extend_from_slice(extra);
            let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            parse_train(&args).unwrap()
        };
        let mut o = options(&plain_path, &["--buckets", "4"]);
        let start = initial_network(&mut o).unwrap().unwrap();
        assert_eq!((o.cfg.buckets, start.buckets), (4, 4));
        let wide = quant::from_float(&start);
        assert_eq!(wide.buckets(), 4);
        let floats = quant::to_float(&plain).unwrap();
        for (us, them) in &quant::tests::positions() {
            assert_eq!(start.forward(us, them), floats.forward(us, them));
            let cp = plain.evaluate_features(us, them);
            assert_eq!(wide.evaluate_features(us, them), cp);
        }
        let mut o = options(&plain_path, &[]);
        assert_eq!(initial_network(&mut o).unwrap().unwrap().buckets, 1);
        assert_eq!(o.cfg.buckets, 1);
        std::fs::write(&wide_path, wide.to_bytes()).unwrap();
        let mut o = options(&wide_path, &[]);
        assert_eq!(initial_network(&mut o).unwrap().unwrap().buckets, 4);
        assert_eq!(o.cfg.buckets, 4);
        let mut o = options(&wide_path, &["--buckets", "2"]);
        let e = initial_network(&mut o).unwrap_err();
        assert!(e.contains("4 output buckets, --buckets says 2"), "{e}");
        for bad in ["0", "9"] {
            let args: Vec<String> = ["d.bin", "--out", "o", "--buckets", bad]
                .iter()
                .map(|w| w.to_string())
                .collect();
            let e = parse_train(&args).unwrap_err();
            assert!(e.contains("--buckets"), "{e}");
        }
    }

    #[test]
    fn training_reads_game_files_beside_records_with_the_filter() {
        let dir = Scratch::new("train");
        let path = |file: &str| dir.path(file);
        let (text, games_file, records) = (path("in.txt"), path("g.bin"), path("r.bin"));
        std::fs::write(&text, TEXT).unwrap();
        assert_eq!(run(&["pack", &text, "--out", &records]), 0);
        assert_eq!(
            run(&["convert", &text, "--to", "games", "--out", &games_file]),
            0
        );
        let files = [records.clone(), games_file.clone()];
        let (read, left_out) = read_records(&files, 3000).unwrap();
        // The records' two within 3000 cp, then the same two from games.
        assert_eq!(left_out, 2);
        assert_eq!(read.len(), 4);
        assert_eq!(read[..2], read[2..]);
        let mut bytes = std::fs::read(&games_file).unwrap();
        bytes.truncate(70);
        std::fs::write(&games_file, bytes).unwrap();
        let e = read_records(&files, 3000).unwrap_err();
        assert!(e.contains("byte 70") && e.contains("g.bin"), "{e}");
    }

    #[test]
    fn match_pgn_packs_to_games_and_records() {
        let dir = Scratch::new("pgn");
        let path = |file: &str| dir.path(file);
        let (pgn_file, games_file, records) = (path("m.pgn"), path("g.bin"), path("r.bin"));
        std::fs::write(
            &pgn_file,
            "[White \"cavalier\"]\n[Black \"cavalier\"]\n[Result \"0-1\"]\n\n\
             1. f3 {book} e5 {book} 2. g4 {-0.50/7 0.01s} Qh4# {+M1/1 0.01s} 0-1\n\n\
             [White \"other\"]\n[Black \"cavalier\"]\n[Result \"0-1\"]\n\n1. f3 e5 0-1\n\n\
             [White \"cavalier\"]\n[Black \"cavalier\"]\n[Result \"1-0\"]\n\n1. e5 1-0\n",
        )
        .unwrap();
        let _ = std::fs::remove_file(&games_file);
        assert_eq!(run(&["pack", "--pgn", &pgn_file, "--out", &games_file]), 0);
        let bytes = std::fs::read(&games_file).unwrap();
        let all: Vec<games::Game> = games::games(&bytes).map(Result::unwrap).collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].plies.len(), 4);
        // White's g4 scored -0.50 by White.
        assert_eq!(all[0].plies[2].1, -50);
        // Appended: packing again doubles the file; --any-engine takes
        // the second game.
        assert_eq!(
            run(&[
                "pack",
                "--pgn",
                &pgn_file,
                "--any-engine",
                "--out",
                &games_file
            ]),
            0
        );
        assert_eq!(
            games::games(&std::fs::read(&games_file).unwrap()).count(),
            3
        );
        // As records: only g4 (the book moves have no score, Qh4# is a
        // mate score).
        let _ = std::fs::remove_file(&records);
        assert_eq!(
            run(&["pack", "--pgn", &pgn_file, "--to", "records", "--out", &records]),
            0
        );
        let r = std::fs::read(&records).unwrap();
        assert_eq!(r.len(), RECORD_BYTES);
        assert_eq!(unpack(&r[..].try_into().unwrap()).unwrap().score, -50);
        assert_eq!(
            run(&["pack", "--pgn", &pgn_file, "--to", "text", "--out", &records]),
            EXIT_USAGE
        );
    }
}
