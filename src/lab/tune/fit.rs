//! The fit: the mean squared error of expected scores against results,
//! its gradient over the data set on several threads, the scale `K` of
//! expected scores, and Adam's steps over shuffled mini-batches. The
//! evaluation and its gradient come from its tuning interface.

use super::data::{sigmoid, Dataset, Entry};
use crate::engine::eval::tuning::{backward, clamp, exact, forward, initial, VALUES};
use crate::util::rng::Rng;

const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;
const ADAM_EPSILON: f64 = 1e-8;
/// Range searched for `K` (per centipawn) and the search's iterations.
const K_RANGE: (f64, f64) = (1e-4, 5e-2);
const K_ITERATIONS: usize = 100;

/// Adds one position's gradient of its squared error to `grad`; returns
/// the squared error.
#[inline(always)]
fn accumulate(e: &Entry, coefs: &[(u16, i16)], p: &[f64], k: f64, grad: &mut [f64]) -> f64 {
    let at = forward(&e.shape, coefs, p);
    let s = sigmoid(k * at.eval);
    let err = e.result as f64 - s;
    // d(err^2)/d(eval).
    let g = -2.0 * err * s * (1.0 - s) * k;
    backward(&e.shape, coefs, p, &at, g, grad);
    err * err
}

/// Mean squared error and its gradient over `indices` (all positions when
/// `None`), computed on `threads` threads.
fn gradient(
    data: &Dataset,
    indices: Option<&[u32]>,
    p: &[f64],
    k: f64,
    threads: usize,
) -> (f64, Vec<f64>) {
    let n = indices.map_or(data.len(), |i| i.len());
    if n == 0 {
        return (0.0, vec![0.0; VALUES]);
    }
    let threads = threads.clamp(1, n);
    let chunk = n.div_ceil(threads);
    let part = |from: usize, to: usize| {
        let mut grad = vec![0.0; VALUES];
        let mut sum = 0.0;
        for i in from..to {
            let idx = indices.map_or(i, |ix| ix[i] as usize);
            let e = &data.entries[idx];
            sum += accumulate(e, data.coefs_of(e), p, k, &mut grad);
        }
        (sum, grad)
    };
    let parts: Vec<(f64, Vec<f64>)> = if threads == 1 {
        vec![part(0, n)]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let part = &part;
                    s.spawn(move || part(t * chunk, ((t + 1) * chunk).min(n)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    let mut total = 0.0;
    let mut grad = vec![0.0; VALUES];
    for (sum, g) in parts {
        total += sum;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    for g in &mut grad {
        *g /= n as f64;
    }
    (total / n as f64, grad)
}

/// Mean squared error of the model with weights `p`.
pub fn error(data: &Dataset, p: &[f64], k: f64, threads: usize) -> f64 {
    gradient(data, None, p, k, threads).0
}

/// Mean squared error of fixed evaluations (`evals[i]` for position `i`).
fn error_of_evals(data: &Dataset, evals: &[f64], k: f64) -> f64 {
    let n = data.len().max(1) as f64;
    data.entries
        .iter()
        .zip(evals)
        .map(|(e, &v)| {
            let d = e.result as f64 - sigmoid(k * v);
            d * d
        })
        .sum::<f64>()
        / n
}

/// The `K` that minimises the error of the evaluation with the weights as
/// built (golden-section search; the error is unimodal in `K`).
pub fn fit_k(data: &Dataset) -> f64 {
    let p = rounded(&initial());
    let evals: Vec<f64> = data
        .entries
        .iter()
        .map(|e| exact(&e.shape, data.coefs_of(e), &p) as f64)
        .collect();
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = K_RANGE;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (
        error_of_evals(data, &evals, c),
        error_of_evals(data, &evals, d),
    );
    for _ in 0..K_ITERATIONS {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = error_of_evals(data, &evals, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = error_of_evals(data, &evals, d);
        }
    }
    (a + b) / 2.0
}

/// The weights rounded to integers, as they would be written.
pub fn rounded(p: &[f64]) -> Vec<i32> {
    p.iter().map(|v| v.round() as i32).collect()
}

/// Mean squared error of the model with integer weights and integer
/// arithmetic: what the engine would see with those weights.
pub fn exact_error(data: &Dataset, p: &[i32], k: f64) -> f64 {
    let evals: Vec<f64> = data
        .entries
        .iter()
        .map(|e| exact(&e.shape, data.coefs_of(e), p) as f64)
        .collect();
    error_of_evals(data, &evals, k)
}

/// Adam's state.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    movable: Vec<bool>,
    /// Each value is pulled towards `prior` by `l2 * (value - prior)^2`
    /// added to the error.
    prior: Vec<f64>,
    l2: f64,
    steps: i32,
    /// Step size.
    pub lr: f64,
}

impl Adam {
    /// Fresh moments; `lr` is the step size; only the values marked in
    /// `movable` (see [`Dataset::movable`]) will move.
    pub fn new(lr: f64, movable: Vec<bool>) -> Adam {
        Adam {
            m: vec![0.0; VALUES],
            v: vec![0.0; VALUES],
            movable,
            prior: vec![0.0; VALUES],
            l2: 0.0,
            steps: 0,
            lr,
        }
    }

    /// Adds a pull towards `prior` of `l2 * (value - prior)^2` to the
    /// error (ridge regression), which keeps weights that the data barely
    /// determines (a middlegame/endgame pair of a term seen in one phase
    /// only) near their starting values.
    pub fn with_prior(mut self, prior: &[f64], l2: f64) -> Adam {
        self.prior = prior.to_vec();
        self.l2 = l2;
        self
    }

    /// Moves `p` against `grad`, leaving the held values alone.
    pub fn step(&mut self, p: &mut [f64], grad: &[f64]) {
        self.steps += 1;
        let c1 = 1.0 - ADAM_BETA1.powi(self.steps);
        let c2 = 1.0 - ADAM_BETA2.powi(self.steps);
        for i in 0..VALUES {
            if !self.movable[i] {
                continue;
            }
            let g = grad[i] + 2.0 * self.l2 * (p[i] - self.prior[i]);
            self.m[i] = ADAM_BETA1 * self.m[i] + (1.0 - ADAM_BETA1) * g;
            self.v[i] = ADAM_BETA2 * self.v[i] + (1.0 - ADAM_BETA2) * g * g;
            let m_hat = self.m[i] / c1;
            let v_hat = self.v[i] / c2;
            p[i] -= self.lr * m_hat / (v_hat.sqrt() + ADAM_EPSILON);
        }
        clamp(p);
    }
}

/// One pass over the data in shuffled mini-batches of `batch` (the whole
/// set when 0). Returns the number of steps taken.
pub fn epoch(
    data: &Dataset,
    p: &mut [f64],
    k: f64,
    adam: &mut Adam,
    batch: usize,
    threads: usize,
    rng: &mut Rng,
) -> usize {
    let n = data.len();
    if batch == 0 || batch >= n {
        let (_, g) = gradient(data, None, p, k, threads);
        adam.step(p, &g);
        return 1;
    }
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let mut steps = 0;
    for chunk in order.chunks(batch) {
        let (_, g) = gradient(data, Some(chunk), p, k, threads);
        adam.step(p, &g);
        steps += 1;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::board::Board;
    use crate::engine::eval::tuning::{features, is_frozen, slot_of, test_positions};

    #[test]
    fn fitted_k_recovers_a_known_curve() {
        // Results drawn so that P(White wins) = sigmoid(K * eval), K = 0.01.
        let mut data = Dataset::default();
        let mut rng = Rng::new(99);
        let queen = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let f = features(&queen);
        let eval = forward(&f.shape, &f.coefs, &initial()).eval;
        let target = sigmoid(0.01 * eval);
        let pawn = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let fp = features(&pawn);
        let eval_p = forward(&fp.shape, &fp.coefs, &initial()).eval;
        let target_p = sigmoid(0.01 * eval_p);
        for _ in 0..20_000 {
            let r = (rng.next_u64() % 1_000_000) as f64 / 1e6;
            data.push(&f, if r < target { 1.0 } else { 0.0 });
            let r = (rng.next_u64() % 1_000_000) as f64 / 1e6;
            data.push(&fp, if r < target_p { 1.0 } else { 0.0 });
        }
        let k = fit_k(&data);
        assert!((k - 0.01).abs() < 0.0015, "K = {k}");
    }

    #[test]
    fn gradient_matches_finite_differences_and_a_step_lowers_the_error() {
        let built = rounded(&initial());
        let mut data = Dataset::default();
        let mut rng = Rng::new(5);
        for b in &test_positions(10) {
            // Results loosely tied to the evaluation, with noise.
            let f = features(b);
            let e = exact(&f.shape, &f.coefs, &built);
            let r = match (rng.next_u64() % 4, e) {
                (0, _) => 0.5,
                (_, e) if e > 50 => 1.0,
                (_, e) if e < -50 => 0.0,
                _ => 0.5,
            };
            data.push(&f, r);
        }
        let k = 0.006;
        let p = initial();
        let (err, grad) = gradient(&data, None, &p, k, 2);
        // The values with the steepest gradients, and every value that is
        // not a slot's (the king's attack, the scale factors).
        let mut steepest: Vec<usize> = (0..VALUES).collect();
        steepest.sort_by(|&a, &b| grad[b].abs().total_cmp(&grad[a].abs()));
        let plain = (0..VALUES).filter(|&i| slot_of(i).is_none());
        for i in steepest.into_iter().take(12).chain(plain) {
            let h = 1e-3;
            let mut up = p.clone();
            up[i] += h;
            let mut down = p.clone();
            down[i] -= h;
            let numeric = (error(&data, &up, k, 1) - error(&data, &down, k, 1)) / (2.0 * h);
            let scale = numeric.abs().max(grad[i].abs()).max(1e-9);
            assert!(
                (numeric - grad[i]).abs() / scale < 0.05 || (numeric - grad[i]).abs() < 1e-9,
                "value {i}: analytic {} numeric {numeric}",
                grad[i]
            );
        }
        let mut q = p.clone();
        let mut adam = Adam::new(crate::lab::tune::DEFAULT_LR, data.movable(1));
        adam.step(&mut q, &grad);
        let after = error(&data, &q, k, 1);
        assert!(after < err, "{after} >= {err}");
        for i in 0..VALUES {
            if is_frozen(i) {
                assert_eq!(q[i], p[i]);
            }
        }
    }
}
