//! The network in floating point, for training: 768 inputs (piece kind and
//! colour relative to the side whose view it is, times square, Black's
//! view mirrored vertically) into `hidden` units with weights shared by
//! both views, the two views' units side by side (the side to move's
//! first) through SCReLU (clamp to [0, 1], squared), into one output, by
//! the output weights and bias of the position's bucket (its piece count,
//! `engine::nnue::bucket`) when there are several. The output times
//! `SCALE` is the evaluation in centipawns for the side to move.

use super::packed::Sample;

use crate::engine::nnue::bucket;
/// The inputs and their feature mapping are the engine's (one definition).
pub use crate::engine::nnue::{feature, INPUTS};
/// The output's scale: centipawns = output x SCALE.
pub const SCALE: f32 = 400.0;
/// Weights are kept within this bound during training, so that they fit
/// the quantised network's integers.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The active features of a sample: (side to move's view, the other's).
pub fn features(s: &Sample) -> (Vec<usize>, Vec<usize>) {
    let us = s.stm;
    let them = us ^ 1;
    let f = |view| {
        s.pieces
            .iter()
            .map(|&(sq, c, k)| feature(view, sq, c, k))
            .collect()
    };
    (f(us), f(them))
}

/// The training target of a sample, from the side to move's view:
/// `blend` x result + (1 - blend) x sigmoid(score / SCALE).
pub fn target(s: &Sample, blend: f32) -> f32 {
    let white_result = s.result as f32 / 2.0;
    let white_score = s.score as f32;
    let (result, score) = if s.stm == 0 {
        (white_result, white_score)
    } else {
        (1.0 - white_result, -white_score)
    };
    blend * result + (1.0 - blend) * sigmoid(score / SCALE)
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

fn screlu_grad(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

/// The trainer's network, in floats: its parameters (or, in the same
/// shape, their gradients or an optimiser's moments). `quant` rounds it to
/// the engine's integer network (`engine::nnue::Network`).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    /// Output buckets (1..=`engine::nnue::MAX_BUCKETS`).
    pub buckets: usize,
    /// `INPUTS x hidden`, one input's weights together.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `buckets x 2 x hidden`, bucket by bucket: in each, the side to
    /// move's units first.
    pub w2: Vec<f32>,
    /// One per bucket.
    pub b2: Vec<f32>,
}

impl FloatNetwork {
    pub fn zeros(hidden: usize, buckets: usize) -> FloatNetwork {
        FloatNetwork {
            hidden,
            buckets,
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
        }
    }

    /// Random weights: uniform in +-1/sqrt(fan-in), from `next` (any
    /// source of u64), the first layer's drawn first (so that one bucket
    /// draws what a network of buckets draws first).
    pub fn random(hidden: usize, buckets: usize, next: &mut impl FnMut() -> u64) -> FloatNetwork {
        let mut p = FloatNetwork::zeros(hidden, buckets);
        let mut uniform = |bound: f32| {
            let u = (next() >> 11) as f32 / (1u64 << 53) as f32;
            (2.0 * u - 1.0) * bound
        };
        // 32 active inputs at most.
        let b1 = 1.0 / 32f32.sqrt();
        p.w1.iter_mut().for_each(|w| *w = uniform(b1));
        let b2 = 1.0 / (2.0 * hidden as f32).sqrt();
        p.w2.iter_mut().for_each(|w| *w = uniform(b2));
        p
    }

    /// This one-bucket network with its output weights and bias copied
    /// into each of `buckets`: the same evaluation of every position, the
    /// start of a bucketed network from a plain one.
    pub fn widened(&self, buckets: usize) -> FloatNetwork {
        assert_eq!(self.buckets, 1, "only a one-bucket network widens");
        FloatNetwork {
            buckets,
            w2: self.w2.repeat(buckets),
            b2: self.b2.repeat(buckets),
            ..self.clone()
        }
    }

    /// Every number, in a fixed order (for the optimiser).
    pub fn slices_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    pub fn slices(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }

    /// Adds `other` into these.
    pub fn add(&mut self, other: &FloatNetwork) {
        for (a, b) in self.slices_mut().into_iter().zip(other.slices()) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
    }

    pub fn clear(&mut self) {
        for s in self.slices_mut() {
            s.fill(0.0);
        }
    }

    /// The hidden sums of one view.
    fn accumulate(&self, feats: &[usize], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &f in feats {
            let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }

    /// The output bucket of a position of these features (one a piece).
    fn bucket(&self, us: &[usize]) -> usize {
        bucket(self.buckets, us.len())
    }

    /// The output weights of `bucket`, both views'.
    fn w2_of(&self, bucket: usize) -> &[f32] {
        &self.w2[2 * self.hidden * bucket..2 * self.hidden * (bucket + 1)]
    }

    /// The output (side to move's view, in units of `SCALE` centipawns).
    pub fn forward(&self, us: &[usize], them: &[usize]) -> f32 {
        let h = self.hidden;
        let b = self.bucket(us);
        let mut acc = vec![0.0; 2 * h];
        self.accumulate(us, &mut acc[..h]);
        self.accumulate(them, &mut acc[h..]);
        self.b2[b]
            + acc
                .iter()
                .zip(self.w2_of(b))
                .map(|(&a, w)| screlu(a) * w)
                .sum::<f32>()
    }

    /// Adds the gradient of one sample's loss, (sigmoid(output) - target)^2,
    /// into `grad`; returns the loss. `scratch` holds 3 x hidden numbers.
    pub fn backward(
        &self,
        us: &[usize],
        them: &[usize],
        target: f32,
        scratch: &mut [f32],
        grad: &mut FloatNetwork,
    ) -> f32 {
        let h = self.hidden;
        let b = self.bucket(us);
        let (acc, gacc) = scratch.split_at_mut(2 * h);
        self.accumulate(us, &mut acc[..h]);
        self.accumulate(them, &mut acc[h..]);
        let out = self.b2[b]
            + acc
                .iter()
                .zip(self.w2_of(b))
                .map(|(&a, w)| screlu(a) * w)
                .sum::<f32>();
        let p = sigmoid(out);
        let err = p - target;
        let g = 2.0 * err * p * (1.0 - p);
        grad.b2[b] += g;
        for (view, feats) in [(0, us), (1, them)] {
            let units = &acc[view * h..(view + 1) * h];
            let at = 2 * h * b + view * h;
            let w2 = &self.w2[at..at + h];
            let gw2 = &mut grad.w2[at..at + h];
            for j in 0..h {
                gw2[j] += g * screlu(units[j]);
                gacc[j] = g * w2[j] * screlu_grad(units[j]);
            }
            grad.b1
                .iter_mut()
                .zip(gacc.iter())
                .for_each(|(b, d)| *b += d);
            for &f in feats {
                let row = &mut grad.w1[f * h..(f + 1) * h];
                row.iter_mut().zip(gacc.iter()).for_each(|(w, d)| *w += d);
            }
        }
        err * err
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradient agrees with finite differences.
    #[test]
    fn gradient_matches_finite_differences() {
        let mut state = 0x1234_5678u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut p = FloatNetwork::random(8, 1, &mut next);
        p.b1.iter_mut().for_each(|b| *b = 0.3);
        let us = [3usize, 100, 400, 700];
        let them = [5usize, 64, 383, 767];
        let t = 0.7;
        let mut grad = FloatNetwork::zeros(8, 1);
        let mut scratch = vec![0.0; 24];
        p.backward(&us, &them, t, &mut scratch, &mut grad);
        let loss = |p: &FloatNetwork| {
            let e = sigmoid(p.forward(&us, &them)) - t;
            e * e
        };
        let eps = 1e-3;
        let check = |get: &dyn Fn(&mut FloatNetwork) -> &mut f32, analytic: f32| {
            let mut a = p.clone();
            *get(&mut a) += eps;
            let mut b = p.clone();
            *get(&mut b) -= eps;
            let numeric = (loss(&a) - loss(&b)) / (2.0 * eps);
            assert!(
                (numeric - analytic).abs() < 1e-3 + 0.02 * numeric.abs(),
                "numeric {numeric} analytic {analytic}"
            );
        };
        check(&|q| &mut q.b2[0], grad.b2[0]);
        for j in 0..8 {
            check(&|q| &mut q.w2[j], grad.w2[j]);
            check(&|q| &mut q.w2[8 + j], grad.w2[8 + j]);
            check(&|q| &mut q.b1[j], grad.b1[j]);
            check(&|q| &mut q.w1[100 * 8 + j], grad.w1[100 * 8 + j]);
            check(&|q| &mut q.w1[767 * 8 + j], grad.w1[767 * 8 + j]);
        }
    }
}
