//! `cavalier wdl FILE`: fits the win/draw/loss model of
//! [`crate::engine::wdl`] to self-play positions written as
//! `FEN;RESULT;SCORE` (what `cavalier selfplay` writes).
//!
//! The two cubics (eight coefficients) are fitted to all positions at once:
//! the coefficients that make the games' results most likely (maximum
//! likelihood over win, draw and loss, by Adam ascent on counts grouped by
//! material and score). A first version fitted each material count on its
//! own and then put cubics through those points, as Stockfish's script
//! does; with few positions at low material its cubics swung far outside
//! the data, and the model did worse than constants (log-loss 3.02 against
//! 1.37 on 72,000 positions). The per-count fits are still printed, for
//! reading, beside the log-loss of the old and new model on the data.

use crate::chess::board::Board;
use crate::engine::wdl::{
    self, cubic, win_rate, MATERIAL_MAX, MATERIAL_MIN, MATERIAL_NORM, WDL_A, WDL_B,
};
use crate::util::command_line::{
    args_or_exit, read_input, say, unexpected, CommandLine, EXIT_FAILED,
};

const USAGE: &str = "usage: cavalier wdl FILE [--min-count N] [--max-score CP]
Fits the win/draw/loss model (UCI_ShowWDL) to FEN;RESULT;SCORE lines (cavalier selfplay).
  --min-count N   material counts with fewer positions are left out (default 1000)
  --max-score CP  positions scored beyond this are left out (default 1500)";

/// Scores are grouped in steps of this many centipawns.
const SCORE_STEP: i32 = 4;

struct WdlOptions {
    path: String,
    min_count: usize,
    max_score: i32,
}

fn parse_args(args: &[String]) -> Result<WdlOptions, String> {
    let mut o = WdlOptions {
        path: String::new(),
        min_count: 1000,
        max_score: 1500,
    };
    let mut args = CommandLine::new(args);
    while let Some(a) = args.next() {
        match a {
            "-h" | "--help" => return Err(String::new()),
            "--min-count" => o.min_count = args.number(|n: &usize| *n >= 1)?,
            "--max-score" => o.max_score = args.number(|n: &i32| (50..=10_000).contains(n))?,
            _ if o.path.is_empty() && !a.starts_with("--") => o.path = a.to_string(),
            _ => return Err(unexpected(a)),
        }
    }
    if o.path.is_empty() {
        return Err("wdl needs a file".to_string());
    }
    Ok(o)
}

/// Positions of one material count: by score, the number of wins, draws
/// and losses (all from White's view; each position is also counted
/// mirrored, from Black's).
#[derive(Default)]
struct Bucket {
    rows: std::collections::BTreeMap<i32, [f64; 3]>,
    count: usize,
}

/// One line: material count, White's score, White's result.
fn parse_line(line: &str) -> Option<(i32, i32, f64)> {
    let mut f = line.trim().split(';');
    let (fen, result, score) = (f.next()?, f.next()?, f.next()?);
    let result = match result.trim() {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        _ => return None,
    };
    let score = score.trim().parse::<i32>().ok()?;
    let board = Board::from_fen(fen.trim()).ok()?;
    Some((wdl::material(&board), score, result))
}

/// Log-likelihood of a bucket's results under `(a, b)`, and its gradient.
fn likelihood(b: &Bucket, pa: f64, pb: f64) -> (f64, f64, f64) {
    let (mut ll, mut ga, mut gb) = (0.0, 0.0, 0.0);
    for (&x, &[nw, nd, nl]) in &b.rows {
        let x = x as f64;
        let (u, v) = ((x - pa) / pb, (-x - pa) / pb);
        let w = win_rate(x, pa, pb).clamp(1e-9, 1.0 - 1e-9);
        let l = win_rate(-x, pa, pb).clamp(1e-9, 1.0 - 1e-9);
        let d = (1.0 - w - l).max(1e-9);
        ll += nw * w.ln() + nd * d.ln() + nl * l.ln();
        // d ln w / da = -(1 - w) / b; d ln w / db = -(1 - w) u / b.
        ga += -nw * (1.0 - w) / pb - nl * (1.0 - l) / pb;
        gb += -nw * (1.0 - w) * u / pb - nl * (1.0 - l) * v / pb;
        let (sw, sl) = (w * (1.0 - w), l * (1.0 - l));
        ga += nd * (sw + sl) / pb / d;
        gb += nd * (sw * u + sl * v) / pb / d;
    }
    (ll, ga, gb)
}

/// The `(a, b)` that make a bucket's results most likely (Adam ascent).
fn fit_bucket(b: &Bucket) -> (f64, f64) {
    let (mut pa, mut pb) = (150.0, 80.0);
    let (mut m, mut v) = ([0.0f64; 2], [0.0f64; 2]);
    let (beta1, beta2, lr) = (0.9, 0.999, 1.0);
    let n = b.count as f64;
    for t in 1..=4000 {
        let (_, ga, gb) = likelihood(b, pa, pb);
        let g = [ga / n, gb / n];
        for i in 0..2 {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
        }
        let step = |i: usize| {
            let mh = m[i] / (1.0 - f64::powi(beta1, t));
            let vh = v[i] / (1.0 - f64::powi(beta2, t));
            lr * mh / (vh.sqrt() + 1e-12)
        };
        pa += step(0);
        pb = (pb + step(1)).max(5.0);
    }
    (pa, pb)
}

/// Log-likelihood of all buckets under the polynomials `(ca, cb)`, and its
/// gradient by their eight coefficients (the chain rule through
/// `a = cubic(ca, t)`, `b = cubic(cb, t)`).
fn likelihood_all(buckets: &[Bucket], ca: &[f64; 4], cb: &[f64; 4]) -> (f64, [f64; 8]) {
    let (mut ll, mut grad) = (0.0, [0.0; 8]);
    for (i, b) in buckets.iter().enumerate().filter(|(_, b)| b.count > 0) {
        let t = (MATERIAL_MIN + i as i32) as f64 / MATERIAL_NORM;
        let (pa, raw_b) = (cubic(ca, t), cubic(cb, t));
        let pb = raw_b.max(SPREAD_MIN);
        let (l, ga, gb) = likelihood(b, pa, pb);
        ll += l;
        let powers = [t * t * t, t * t, t, 1.0];
        for k in 0..4 {
            grad[k] += ga * powers[k];
            if raw_b > SPREAD_MIN {
                grad[4 + k] += gb * powers[k];
            }
        }
    }
    (ll, grad)
}

/// The smallest spread `b` the fit may use.
const SPREAD_MIN: f64 = 5.0;

/// The cubics `(ca, cb)` that make all the results most likely at once
/// (Adam ascent from constants fitted to all the data as one bucket).
fn fit_global(buckets: &[Bucket]) -> ([f64; 4], [f64; 4]) {
    let mut all = Bucket::default();
    for b in buckets {
        for (&x, r) in &b.rows {
            let row = all.rows.entry(x).or_insert([0.0; 3]);
            for k in 0..3 {
                row[k] += r[k];
            }
        }
        all.count += b.count;
    }
    let (a0, b0) = fit_bucket(&all);
    let mut p = [0.0, 0.0, 0.0, a0, 0.0, 0.0, 0.0, b0];
    let (mut m, mut v) = ([0.0f64; 8], [0.0f64; 8]);
    let (beta1, beta2) = (0.9, 0.999);
    let n = all.count.max(1) as f64;
    for t in 1..=GLOBAL_STEPS {
        let lr = if t < GLOBAL_STEPS / 2 { 2.0 } else { 0.5 };
        let ca = [p[0], p[1], p[2], p[3]];
        let cb = [p[4], p[5], p[6], p[7]];
        let (_, g) = likelihood_all(buckets, &ca, &cb);
        for k in 0..8 {
            let gk = g[k] / n;
            m[k] = beta1 * m[k] + (1.0 - beta1) * gk;
            v[k] = beta2 * v[k] + (1.0 - beta2) * gk * gk;
            let mh = m[k] / (1.0 - f64::powi(beta1, t as i32));
            let vh = v[k] / (1.0 - f64::powi(beta2, t as i32));
            p[k] += lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    ([p[0], p[1], p[2], p[3]], [p[4], p[5], p[6], p[7]])
}

/// Adam steps of the global fit.
const GLOBAL_STEPS: usize = 6000;

/// Mean log-loss of the data under the polynomials `(ca, cb)`.
fn log_loss(buckets: &[Bucket], ca: &[f64; 4], cb: &[f64; 4]) -> f64 {
    let (mut ll, mut n) = (0.0, 0.0);
    for (i, b) in buckets.iter().enumerate() {
        let t = (MATERIAL_MIN + i as i32) as f64 / MATERIAL_NORM;
        let (pa, pb) = (cubic(ca, t), cubic(cb, t).max(1.0));
        if b.count > 0 {
            ll += likelihood(b, pa, pb).0;
        }
        n += b.count as f64;
    }
    -ll / n.max(1.0)
}

pub fn command(args: &[String]) -> i32 {
    let o = match args_or_exit(parse_args(args), USAGE) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let Some(text) = read_input(&o.path) else {
        return crate::util::command_line::EXIT_USAGE;
    };
    let span = (MATERIAL_MAX - MATERIAL_MIN + 1) as usize;
    let mut buckets: Vec<Bucket> = (0..span).map(|_| Bucket::default()).collect();
    let (mut used, mut unreadable, mut beyond) = (0usize, 0usize, 0usize);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some((m, score, result)) = parse_line(line) else {
            unreadable += 1;
            continue;
        };
        if score.abs() > o.max_score {
            beyond += 1;
            continue;
        }
        // Each position counts once from each side's view, so the model
        // is symmetric by construction.
        let b = &mut buckets[(m - MATERIAL_MIN) as usize];
        let x = (score / SCORE_STEP) * SCORE_STEP;
        let slot = if result >= 1.0 {
            0
        } else if result <= 0.0 {
            2
        } else {
            1
        };
        b.rows.entry(x).or_insert([0.0; 3])[slot] += 1.0;
        b.rows.entry(-x).or_insert([0.0; 3])[2 - slot] += 1.0;
        b.count += 2;
        used += 1;
    }
    say!("wdl: {used} positions used, {beyond} beyond {} cp, {unreadable} lines without FEN;RESULT;SCORE", o.max_score);
    // Per material count, for reading: the best a and b of each on its
    // own (and what the data would allow with no smoothing at all).
    say!("material  positions        a        b");
    let (mut table_ll, mut table_n, mut shown) = (0.0, 0.0, 0);
    for (i, b) in buckets.iter().enumerate() {
        let m = MATERIAL_MIN + i as i32;
        if b.count / 2 < o.min_count {
            continue;
        }
        let (pa, pb) = fit_bucket(b);
        say!("{m:8}  {:9}  {pa:7.1}  {pb:7.1}", b.count / 2);
        table_ll += likelihood(b, pa, pb).0;
        table_n += b.count as f64;
        shown += 1;
    }
    if used == 0 {
        eprintln!(
            "error: no FEN;RESULT;SCORE positions within {} cp",
            o.max_score
        );
        return EXIT_FAILED;
    }
    let (ca, cb) = fit_global(&buckets);
    say!(
        "log-loss per position: model as built {:.6}, fitted {:.6}",
        log_loss(&buckets, &WDL_A, &WDL_B),
        log_loss(&buckets, &ca, &cb)
    );
    if shown > 0 {
        say!(
            "(the {shown} material counts above with a and b of their own: {:.6})",
            -table_ll / table_n
        );
    }
    let show = |c: &[f64; 4]| c.map(|x| format!("{x:.3}")).join(", ");
    say!("pub const WDL_A: [f64; 4] = [{}];", show(&ca));
    say!("pub const WDL_B: [f64; 4] = [{}];", show(&cb));
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::Rng;

    #[test]
    fn recovers_a_known_model() {
        // Results drawn from a model with a = 120 + 60 t, b = 50 + 40 t:
        // the fit finds it again.
        let mut rng = Rng::new(7);
        let span = (MATERIAL_MAX - MATERIAL_MIN + 1) as usize;
        let mut buckets: Vec<Bucket> = (0..span).map(|_| Bucket::default()).collect();
        for (i, b) in buckets.iter_mut().enumerate().step_by(6) {
            let t = (MATERIAL_MIN + i as i32) as f64 / MATERIAL_NORM;
            let (pa, pb) = (120.0 + 60.0 * t, 50.0 + 40.0 * t);
            for _ in 0..20_000 {
                let x = (rng.next_u64() % 801) as i32 - 400;
                let r = (rng.next_u64() % 1_000_000) as f64 / 1e6;
                let (w, l) = (win_rate(x as f64, pa, pb), win_rate(-x as f64, pa, pb));
                let slot = if r < w {
                    0
                } else if r < w + l {
                    2
                } else {
                    1
                };
                b.rows.entry(x).or_insert([0.0; 3])[slot] += 1.0;
                b.count += 1;
            }
            let (fa, fb) = fit_bucket(b);
            assert!(
                (fa - pa).abs() < 6.0 && (fb - pb).abs() < 4.0,
                "{fa} {fb} vs {pa} {pb}"
            );
        }
        let (ca, cb) = fit_global(&buckets);
        for t in [0.2, 0.6, 1.0, 1.3] {
            let (fa, fb) = (cubic(&ca, t), cubic(&cb, t));
            let (pa, pb) = (120.0 + 60.0 * t, 50.0 + 40.0 * t);
            assert!(
                (fa - pa).abs() < 8.0 && (fb - pb).abs() < 6.0,
                "at {t}: {fa} {fb} vs {pa} {pb}"
            );
        }
    }

    #[test]
    fn lines_and_arguments() {
        assert_eq!(
            parse_line("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1;1.0;250"),
            Some((6, 250, 1.0))
        );
        assert_eq!(parse_line("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1;1.0"), None);
        assert_eq!(parse_line("garbage;0.5;3"), None);
        assert!(parse_args(&[]).is_err());
        assert!(parse_args(&["f".into(), "--min-count".into(), "0".into()]).is_err());
        assert!(parse_args(&["f".into(), "g".into()]).is_err());
    }
}
