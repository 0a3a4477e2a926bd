//! `cavalier net`: the evaluation network's data and trainer.
//!
//! - `packed`: the 32-byte training record and its conversions (from a
//!   board, from `selfplay`'s `FEN;RESULT;SCORE` text);
//! - `network`: the network in floating point, its forward pass and
//!   gradient (768 inputs, `hidden` units per view, SCReLU, one output);
//! - `train`: mini-batch AdamW over threads, held-out validation;
//! - `quant`: the trained network rounded to the engine's integers
//!   (`engine::nnue`, which reads the file), and the file written.
//!
//! The verbs: `pack` converts text to records, `train` fits a network and
//! writes one file per epoch, `eval` prints a network's score of a FEN.
//! Data lives outside the repository; the commands that remake it are in
//! docs/network.md.

pub mod games;
pub mod network;
pub mod packed;
pub mod quant;
pub mod train;

use crate::chess::board::Board;
use crate::engine::nnue::Network;
use crate::util::command_line::{
    args_or_exit, say, unexpected, CommandLine, EXIT_FAILED, EXIT_USAGE,
};
use network::{features, sigmoid, target, SCALE};
use packed::{unpack, RECORD_BYTES};
use std::io::Write;
use train::Config;

const USAGE: &str = "usage: cavalier net pack TEXT... --out FILE
       cavalier net train DATA... --out DIR [options]
       cavalier net eval NETFILE FEN
pack   converts FEN;RESULT;SCORE lines (cavalier selfplay) to 32-byte records
       (docs/network.md), appended to FILE; bad lines are counted and skipped
train  fits a network to the records of the DATA files; writes DIR/net-E.nnue
       (quantised) after every epoch E and a line of DIR/log.txt
  --hidden N        units per view, a multiple of 16 (default 128)
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
                    width is the run's; a run that carries on from it)
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
}

fn parse_train(args: &[String]) -> Result<NetTrainOptions, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut o = NetTrainOptions {
        data: Vec::new(),
        out: String::new(),
        max_score: 3000,
        cfg: Config {
            hidden: 128,
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
    };
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        let c = &mut o.cfg;
        match a {
            "--out" => o.out = args.value()?.to_string(),
            "--hidden" => {
                c.hidden =
                    args.number(|&n: &usize| n.is_multiple_of(16) && (16..=1024).contains(&n))?;
                o.hidden_given = true;
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

/// Reads the records of `paths`, keeping those that unpack and whose score
/// is within `max_score`; returns them and the count left out.
fn read_records(
    paths: &[String],
    max_score: i32,
) -> Result<(Vec<[u8; RECORD_BYTES]>, usize), String> {
    let mut out = Vec::new();
    let mut left_out = 0;
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read \"{path}\": {e}"))?;
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
/// width must be `--hidden`'s when both are given, and becomes the run's.
fn initial_network(o: &mut NetTrainOptions) -> Result<Option<network::Params>, String> {
    let Some(path) = &o.init else {
        return Ok(None);
    };
    let net = crate::engine::nnue::load(Some(path))?;
    let p = quant::to_float(&net).map_err(|e| format!("\"{path}\": {e}"))?;
    if o.hidden_given && p.hidden != o.cfg.hidden {
        return Err(format!(
            "\"{path}\" has {} units, --hidden says {}",
            p.hidden, o.cfg.hidden
        ));
    }
    o.cfg.hidden = p.hidden;
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
        "# {} records ({left_out} left out: unreadable or beyond {} cp), {:?}, from {}",
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
        if let Err(e) = std::fs::write(&path, quant::to_bytes(&q)) {
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

fn pack_command(args: &[String]) -> i32 {
    let mut inputs = Vec::new();
    let mut out = None;
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        match a {
            // A missing FILE is reported below, with the usage.
            "--out" => out = args.value().ok().map(str::to_string),
            "-h" | "--help" => {
                say!("{USAGE}");
                return 0;
            }
            _ => inputs.push(a.to_string()),
        }
    }
    let Some(out) = out.filter(|o| !o.trim().is_empty()) else {
        eprintln!("error: pack needs --out FILE\n{USAGE}");
        return EXIT_USAGE;
    };
    if inputs.is_empty() {
        eprintln!("error: pack needs TEXT files\n{USAGE}");
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
                    if bad < 10 {
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
    let net = match crate::engine::nnue::load(Some(path)) {
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
        Some("train") => train_command(rest),
        Some("eval") => eval_command(rest),
        Some("-h" | "--help") => {
            say!("{USAGE}");
            0
        }
        _ => {
            eprintln!("error: net needs pack, train or eval\n{USAGE}");
            EXIT_USAGE
        }
    }
}
