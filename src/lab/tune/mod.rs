//! `cavalier tune`: fits the evaluation weights to game results by Texel's
//! method.
//!
//! Each position of the data set is labelled with the result of its game
//! (1, 0.5 or 0 from White's point of view). The evaluation `E` of a
//! position is turned into an expected score `sigmoid(K * E)`; `K` is first
//! chosen to fit the evaluation as built, then the weights are moved by
//! gradient descent (Adam, on mini-batches) to lower the mean squared
//! difference between expected scores and results.
//!
//! The evaluation is read through its tuning interface,
//! [`crate::engine::eval::tuning`], and nothing else: each position is
//! traced once into its features (for every weight, White's count minus
//! Black's, and what the non-linear steps need), and the evaluation as a
//! function of the values, its gradient and the written `weights.rs` come
//! from there. The score is linear in most values, so each one's gradient
//! is cheap; the parts that are not (the king's danger, whose units,
//! scale and cap are tuned, and the endgame scale factors) are computed by
//! the evaluation's own functions. A test there checks that the model,
//! with the values as built, gives exactly the evaluation.
//!
//! Files: `data` (reading and tracing positions, the data set), `fit`
//! (error, gradient, `K`, Adam), and this one (the command).
//!
//! The result is a complete `weights.rs`: the file as built with its numbers
//! replaced, so that a diff shows what the tune changed.

mod data;
mod fit;

pub use data::{line_score, load, parse_line, Dataset, LoadStats};
pub use fit::{epoch, error, exact_error, fit_k, rounded, Adam};

use crate::engine::eval::tuning::{changes, initial, weights_file, VALUES};
use crate::util::command_line::{unexpected, CommandLine};
use crate::util::rng::Rng;
use std::time::Instant;

/// Default number of passes over the data.
pub const DEFAULT_EPOCHS: usize = 200;
/// Default positions per gradient step.
pub const DEFAULT_BATCH: usize = 16_384;
/// Default number of positions a weight must be counted in to be fitted.
pub const DEFAULT_MIN_COUNT: usize = 2_000;
/// Default Adam step size (centipawns per step, roughly).
pub const DEFAULT_LR: f64 = 0.5;

/// Default output file.
pub const DEFAULT_OUT: &str = "weights.tuned.rs";

const USAGE: &str = "usage: cavalier tune FILE [options]
  FILE             positions with results, one a line: FEN;1.0;SCORE (as cavalier
                   selfplay writes; SCORE optional), FEN [0.5], or EPD with c9 \"1-0\";
                   results from White's view
                   (1.0/0.5/0.0, any fraction 0..1, or 1-0/1/2-1/2/0-1)
  --epochs N       passes over the data (default 200)
  --batch N        positions per gradient step; 0 = the whole set (default 16384)
  --lr X           Adam step size (default 0.5)
  --k K            sigmoid scale per centipawn (default: fitted to the data)
  --threads T      threads for loading and gradients (default 1)
  --limit N        read only the first N lines
  --holdout P      keep the last P percent of the positions (whole games, as selfplay
                   writes them) out of the fit and report their error too (default 0)
  --min-count N    fit only the weights counted in at least N positions; the others
                   keep their values (default 2000)
  --l2 X           add X * (weight - its starting value)^2 for every weight to the
                   error, so that weights the data barely determines stay near
                   their starting values (default 0)
  --lambda X       target = X * result + (1 - X) * sigmoid(K * score) for lines written
                   FEN;RESULT;SCORE (score in cp, White's view); 1 = results only
                   (default 1)
  --keep-all       keep every position (default: drop positions in check and those
                   whose quiescence score differs from the static evaluation)
  --seed S         seed of the mini-batch order (default 1)
  --out PATH       where to write the tuned weights.rs (default weights.tuned.rs);
                   written after every epoch, never src/weights.rs unless named";

/// Options of `cavalier tune`.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    pub file: String,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    pub k: Option<f64>,
    pub threads: usize,
    pub limit: usize,
    pub filter: bool,
    /// Percent of the positions (the last ones) kept out for validation.
    pub holdout: f64,
    /// Weights counted in fewer positions than this keep their values.
    pub min_count: usize,
    /// Strength of the pull towards the starting values.
    pub l2: f64,
    /// Weight of the game result in the target (the search score has the
    /// rest).
    pub lambda: f64,
    pub seed: u64,
    pub out: String,
}

/// Most threads accepted.
const MAX_THREADS: usize = 256;

fn parse_args(args: &[String]) -> Result<TuneOptions, String> {
    let mut o = TuneOptions {
        file: String::new(),
        epochs: DEFAULT_EPOCHS,
        batch: DEFAULT_BATCH,
        lr: DEFAULT_LR,
        k: None,
        threads: 1,
        limit: usize::MAX,
        filter: true,
        holdout: 0.0,
        min_count: DEFAULT_MIN_COUNT,
        l2: 0.0,
        lambda: 1.0,
        seed: 1,
        out: DEFAULT_OUT.to_string(),
    };
    let mut file = None;
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        match a {
            "--epochs" => o.epochs = args.number(|&n: &usize| n <= 1_000_000)?,
            "--batch" => o.batch = args.number(|_: &usize| true)?,
            "--lr" => o.lr = args.number(|x: &f64| *x > 0.0 && x.is_finite())?,
            "--k" => o.k = Some(args.number(|x: &f64| *x > 0.0 && x.is_finite())?),
            "--threads" => o.threads = args.number(|n: &usize| (1..=MAX_THREADS).contains(n))?,
            "--limit" => o.limit = args.number(|&n: &usize| n > 0)?,
            "--l2" => o.l2 = args.number(|x: &f64| *x >= 0.0 && x.is_finite())?,
            "--lambda" => o.lambda = args.number(|x: &f64| (0.0..=1.0).contains(x))?,
            "--min-count" => o.min_count = args.number(|_: &usize| true)?,
            "--seed" => o.seed = args.number(|_: &u64| true)?,
            "--out" => o.out = args.value()?.to_string(),
            "--keep-all" => o.filter = false,
            "--holdout" => o.holdout = args.number(|x: &f64| (0.0..100.0).contains(x))?,
            "-h" | "--help" => return Err(String::new()),
            other if !other.starts_with("--") && file.is_none() => file = Some(other.to_string()),
            other => return Err(unexpected(other)),
        }
    }
    o.file = file.ok_or("tune needs a FILE of positions")?;
    Ok(o)
}

/// `cavalier tune`: returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let o = match crate::util::command_line::args_or_exit(parse_args(args), USAGE) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let Some(text) = crate::util::command_line::read_input(&o.file) else {
        return crate::util::command_line::EXIT_USAGE;
    };
    let start = Instant::now();
    let (mut data, stats, first_error) = load(&text, o.filter, o.limit, o.threads);
    drop(text);
    crate::util::command_line::say_line(&format!(
        "positions: {} lines, {} kept ({} unreadable, {} in check, {} not quiet); {:.1} s",
        stats.lines,
        stats.kept,
        stats.unreadable,
        stats.in_check,
        stats.not_quiet,
        start.elapsed().as_secs_f64()
    ));
    if let Some(e) = first_error {
        eprintln!("tune: first unreadable line: {e}");
    }
    let held = (data.len() as f64 * o.holdout / 100.0).round() as usize;
    let validation = data.split_tail(held);
    if data.is_empty() {
        eprintln!("error: no usable positions in \"{}\"", o.file);
        return crate::util::command_line::EXIT_USAGE;
    }
    crate::util::command_line::say_line(&format!(
        "training on {} positions, {} held out for validation",
        data.len(),
        validation.len()
    ));
    run(
        &data,
        &validation,
        &o,
        &mut crate::util::command_line::say_line,
    )
}

/// Fits `K` (unless given) on `data`, tunes on it, and writes the weights
/// after every epoch; the error on `validation` (if not empty) is reported
/// alongside. `out` receives the report.
pub fn run(
    data: &Dataset,
    validation: &Dataset,
    o: &TuneOptions,
    out: &mut dyn FnMut(&str),
) -> i32 {
    let k = o.k.unwrap_or_else(|| fit_k(data));
    let blended;
    let (data, validation) = if o.lambda < 1.0 {
        let (d, scored) = data.blended(o.lambda, k);
        let (v, _) = validation.blended(o.lambda, k);
        out(&format!(
            "targets: {} x result + {} x sigmoid(K x score) for the {scored} positions with a score",
            o.lambda,
            1.0 - o.lambda
        ));
        blended = (d, v);
        (&blended.0, &blended.1)
    } else {
        (data, validation)
    };
    let initial = initial();
    let before = rounded(&initial);
    let held = |p: &[f64]| {
        if validation.is_empty() {
            String::new()
        } else {
            format!(", validation {:.6}", error(validation, p, k, o.threads))
        }
    };
    let movable = data.movable(o.min_count);
    out(&format!(
        "values: {VALUES}, of which {} free (the others held, or counted in fewer than {} positions)",
        movable.iter().filter(|&&m| m).count(),
        o.min_count
    ));
    out(&format!("K = {k:.6} per centipawn"));
    out(&format!(
        "error before: {:.6}{} (the evaluation as built)",
        exact_error(data, &before, k),
        if validation.is_empty() {
            String::new()
        } else {
            format!(", validation {:.6}", exact_error(validation, &before, k))
        }
    ));
    let mut p = initial.clone();
    let mut adam = Adam::new(o.lr, movable).with_prior(&initial, o.l2);
    let mut rng = Rng::new(o.seed);
    let start = Instant::now();
    for e in 1..=o.epochs {
        let steps = epoch(data, &mut p, k, &mut adam, o.batch, o.threads, &mut rng);
        let err = error(data, &p, k, o.threads);
        out(&format!(
            "epoch {e}: error {err:.6}{} ({steps} steps, {:.1} s)",
            held(&p),
            start.elapsed().as_secs_f64()
        ));
        if let Err(msg) = write_weights(&o.out, &rounded(&p), data.uses()) {
            eprintln!("error: {msg}");
            return crate::util::command_line::EXIT_FAILED;
        }
    }
    let after = rounded(&p);
    out(&format!(
        "error after: {:.6} (tuned), {:.6} (rounded to integers, as written){}",
        error(data, &p, k, o.threads),
        exact_error(data, &after, k),
        if validation.is_empty() {
            String::new()
        } else {
            format!(", validation {:.6}", exact_error(validation, &after, k))
        }
    ));
    if let Err(msg) = write_weights(&o.out, &after, data.uses()) {
        eprintln!("error: {msg}");
        return crate::util::command_line::EXIT_FAILED;
    }
    let changed = changes(&before, &after, data.uses());
    out(&format!("{} weights changed:", changed.len()));
    for line in &changed {
        out(&format!("  {line}"));
    }
    out(&format!("wrote {}", o.out));
    0
}

fn write_weights(path: &str, p: &[i32], uses: &[u64]) -> Result<(), String> {
    let text = weights_file(p, uses)?;
    std::fs::write(path, text).map_err(|e| format!("cannot write \"{path}\": {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse_args(&args(
            "data.txt --epochs 5 --lr 2 --threads 2 --keep-all --out x.rs",
        ))
        .unwrap();
        assert_eq!(
            (o.file.as_str(), o.epochs, o.lr, o.threads, o.filter),
            ("data.txt", 5, 2.0, 2, false)
        );
        assert_eq!(o.out, "x.rs");
        assert_eq!(parse_args(&args("d")).unwrap().out, DEFAULT_OUT);
        assert_eq!(parse_args(&args("d --holdout 5")).unwrap().holdout, 5.0);
        assert_eq!(parse_args(&args("d --min-count 7")).unwrap().min_count, 7);
        assert_eq!(parse_args(&args("d")).unwrap().min_count, DEFAULT_MIN_COUNT);
        assert_eq!(parse_args(&args("d")).unwrap().lambda, 1.0);
        assert_eq!(parse_args(&args("d --lambda 0.7")).unwrap().lambda, 0.7);
        for bad in [
            "d --lambda 1.5",
            "d --lambda -0.1",
            "",
            "d --epochs x",
            "d --lr -1",
            "d --threads 0",
            "d --bogus",
            "d e",
            "d --out",
            "d --holdout 100",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }
}
