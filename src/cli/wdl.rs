//! `cavalier wdl FILE`: fits the win/draw/loss model of
//! [`crate::engine::wdl`] to self-play positions written as
//! `FEN;RESULT;SCORE` (what `cavalier selfplay` writes).
//!
//! Two steps, as Stockfish's model fit does: for each material count with
//! enough positions, the `a` and `b` of the logistic win rate that make the
//! games' results most likely (maximum likelihood over win, draw and loss,
//! by gradient ascent on counts grouped by score); then cubic polynomials
//! through those `a` and `b`, weighted by the positions behind each. Prints
//! the table, the two polynomials as the constants of `engine/wdl.rs`, and
//! the log-loss of the old and new model on the data.

use crate::chess::board::Board;
use crate::cli::common::{args_or_exit, parse_number, read_input, say, EXIT_FAILED};
use crate::engine::wdl::{
    self, cubic, win_rate, MATERIAL_MAX, MATERIAL_MIN, MATERIAL_NORM, WDL_A, WDL_B,
};

const USAGE: &str = "usage: cavalier wdl FILE [--min-count N] [--max-score CP]
Fits the win/draw/loss model (UCI_ShowWDL) to FEN;RESULT;SCORE lines (cavalier selfplay).
  --min-count N   material counts with fewer positions are left out (default 1000)
  --max-score CP  positions scored beyond this are left out (default 1500)";

/// Scores are grouped in steps of this many centipawns.
const SCORE_STEP: i32 = 4;

struct Options {
    path: String,
    min_count: usize,
    max_score: i32,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        path: String::new(),
        min_count: 1000,
        max_score: 1500,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--min-count" | "--max-score" => {
                let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                if a == "--min-count" {
                    o.min_count = parse_number("--min-count", v, |n: &usize| *n >= 1)?;
                } else {
                    o.max_score =
                        parse_number("--max-score", v, |n: &i32| (50..=10_000).contains(n))?;
                }
            }
            _ if o.path.is_empty() && !a.starts_with("--") => o.path = a.clone(),
            _ => {
                return Err(format!(
                    "unexpected argument \"{}\"",
                    crate::util::text::quote(a)
                ))
            }
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

/// Weighted least squares cubic through `(t, y, weight)` points, as
/// `[c3, c2, c1, c0]`.
fn fit_cubic(points: &[(f64, f64, f64)]) -> [f64; 4] {
    let mut m = [[0.0f64; 5]; 4];
    for &(t, y, w) in points {
        let p = [t * t * t, t * t, t, 1.0];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * p[i] * p[j];
            }
            m[i][4] += w * p[i] * y;
        }
    }
    // Gaussian elimination with partial pivoting.
    for c in 0..4 {
        let pivot = (c..4)
            .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
            .unwrap_or(c);
        m.swap(c, pivot);
        if m[c][c].abs() < 1e-12 {
            continue;
        }
        let row = m[c];
        for (r, other) in m.iter_mut().enumerate() {
            if r != c {
                let f = other[c] / row[c];
                for (x, y) in other.iter_mut().zip(row.iter()).skip(c) {
                    *x -= f * y;
                }
            }
        }
    }
    let mut out = [0.0; 4];
    for (i, o) in out.iter_mut().enumerate() {
        *o = if m[i][i].abs() < 1e-12 {
            0.0
        } else {
            m[i][4] / m[i][i]
        };
    }
    out
}

/// Mean log-loss of the data under the polynomials `(ca, cb)`.
fn log_loss(buckets: &[Bucket], ca: &[f64; 4], cb: &[f64; 4]) -> f64 {
    let (mut ll, mut n) = (0.0, 0.0);
    for (i, b) in buckets.iter().enumerate() {
        let t = (MATERIAL_MIN + i as i32) as f64 / MATERIAL_NORM;
        let (pa, pb) = (cubic(ca, t), cubic(cb, t).max(1.0));
        ll += likelihood(b, pa, pb).0;
        n += b.count as f64;
    }
    -ll / n.max(1.0)
}

pub fn cli(args: &[String]) -> i32 {
    let o = match args_or_exit(parse_args(args), USAGE) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let Some(text) = read_input(&o.path) else {
        return crate::cli::common::EXIT_USAGE;
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
    let mut points_a = Vec::new();
    let mut points_b = Vec::new();
    say!("material  positions        a        b");
    for (i, b) in buckets.iter().enumerate() {
        let m = MATERIAL_MIN + i as i32;
        if b.count / 2 < o.min_count {
            continue;
        }
        let (pa, pb) = fit_bucket(b);
        say!("{m:8}  {:9}  {pa:7.1}  {pb:7.1}", b.count / 2);
        let t = m as f64 / MATERIAL_NORM;
        points_a.push((t, pa, b.count as f64));
        points_b.push((t, pb, b.count as f64));
    }
    if points_a.len() < 4 {
        eprintln!(
            "error: only {} material counts have {} positions or more; a cubic needs 4",
            points_a.len(),
            o.min_count
        );
        return EXIT_FAILED;
    }
    let (ca, cb) = (fit_cubic(&points_a), fit_cubic(&points_b));
    say!(
        "log-loss per position: model as built {:.6}, fitted {:.6}",
        log_loss(&buckets, &WDL_A, &WDL_B),
        log_loss(&buckets, &ca, &cb)
    );
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
        let mut points = (Vec::new(), Vec::new());
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
            points.0.push((t, fa, 1.0));
            points.1.push((t, fb, 1.0));
        }
        let ca = fit_cubic(&points.0);
        for t in [0.4, 0.8, 1.2] {
            assert!((cubic(&ca, t) - (120.0 + 60.0 * t)).abs() < 8.0);
        }
        let exact = fit_cubic(&[
            (0.0, 1.0, 1.0),
            (1.0, 2.0, 1.0),
            (2.0, 9.0, 1.0),
            (3.0, 28.0, 1.0),
        ]);
        for (c, e) in exact.iter().zip([1.0, 0.0, 0.0, 1.0]) {
            assert!((c - e).abs() < 1e-6, "{exact:?}");
        }
    }

    #[test]
    fn lines_and_arguments() {
        assert_eq!(
            parse_line("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1;1.0;250"),
            Some((MATERIAL_MIN, 250, 1.0))
        );
        assert_eq!(parse_line("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1;1.0"), None);
        assert_eq!(parse_line("garbage;0.5;3"), None);
        assert!(parse_args(&[]).is_err());
        assert!(parse_args(&["f".into(), "--min-count".into(), "0".into()]).is_err());
        assert!(parse_args(&["f".into(), "g".into()]).is_err());
    }
}
