//! Training: mini-batches of shuffled records, the batch's gradient summed
//! over threads, AdamW, a held-out validation loss after every epoch.

use super::network::{features, sigmoid, target, FloatNetwork, WEIGHT_CLIP};
use super::packed::{unpack, RECORD_BYTES};
use crate::util::rng::{derive_seed, Rng};

/// What a training run is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub hidden: usize,
    /// Output buckets (by piece count, `engine::nnue::bucket`).
    pub buckets: usize,
    pub epochs: usize,
    pub batch: usize,
    /// Learning rate at the start...
    pub lr: f32,
    /// ...multiplied by `lr_drop` after every `lr_step` epochs.
    pub lr_drop: f32,
    pub lr_step: usize,
    /// Weight of the game's result in the target (the rest is the score's).
    pub blend: f32,
    pub weight_decay: f32,
    pub threads: usize,
    pub seed: u64,
    /// Share of the records held out for validation.
    pub validation: f32,
    /// Trains on each position or its mirror image across the d-file
    /// (a to h), chosen afresh every epoch: the network sees no castling
    /// rights, so both are the same example to it.
    pub mirror: bool,
}

/// The optimiser's state.
pub struct AdamW {
    m: FloatNetwork,
    v: FloatNetwork,
    t: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl AdamW {
    pub fn new(hidden: usize, buckets: usize) -> AdamW {
        AdamW {
            m: FloatNetwork::zeros(hidden, buckets),
            v: FloatNetwork::zeros(hidden, buckets),
            t: 0,
        }
    }

    /// One step along `grad` (the batch's mean gradient).
    pub fn step(&mut self, p: &mut FloatNetwork, grad: &FloatNetwork, lr: f32, decay: f32) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t);
        let c2 = 1.0 - BETA2.powi(self.t);
        let clip = [WEIGHT_CLIP, f32::INFINITY, WEIGHT_CLIP, f32::INFINITY];
        for ((((w, g), m), v), bound) in p
            .slices_mut()
            .into_iter()
            .zip(grad.slices())
            .zip(self.m.slices_mut())
            .zip(self.v.slices_mut())
            .zip(clip)
        {
            for i in 0..w.len() {
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
                let update = (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                w[i] = (w[i] * (1.0 - lr * decay) - lr * update).clamp(-bound, bound);
            }
        }
    }
}

/// Mean loss of `records` (and their gradient added into `grad` when one
/// is given), spread over `threads`.
fn batch_loss(
    net: &FloatNetwork,
    records: &[[u8; RECORD_BYTES]],
    blend: f32,
    mirror: Option<u64>,
    threads: usize,
    grads: &mut [FloatNetwork],
) -> f64 {
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let mut total = 0.0f64;
    std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .zip(grads.iter_mut())
            .map(|(part, grad)| {
                s.spawn(move || {
                    let mut scratch = vec![0.0; 3 * net.hidden];
                    let mut loss = 0.0f64;
                    for r in part {
                        let Some(mut sample) = unpack(r) else {
                            continue;
                        };
                        if mirror.is_some_and(|salt| mirrored(r, salt)) {
                            sample.pieces.iter_mut().for_each(|p| p.0 ^= 7);
                        }
                        let (us, them) = features(&sample);
                        let t = target(&sample, blend);
                        loss += net.backward(&us, &them, t, &mut scratch, grad) as f64;
                    }
                    loss
                })
            })
            .collect();
        for h in handles {
            total += h.join().expect("a training thread panicked");
        }
    });
    total / records.len().max(1) as f64
}

/// Whether record `r` is mirrored in the epoch of `salt`: a hash of the
/// record's pieces and the salt (`derive_seed`), so each thread decides
/// alone and a run repeats from its seed.
fn mirrored(r: &[u8; RECORD_BYTES], salt: u64) -> bool {
    let word = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().expect("8 bytes"));
    let pieces = word(0) ^ word(8).rotate_left(21) ^ word(16).rotate_left(42);
    derive_seed(salt, pieces) & 1 == 1
}

/// Mean loss of `net` on `records`, forward passes only.
fn validation_loss(net: &FloatNetwork, records: &[[u8; RECORD_BYTES]], blend: f32) -> f64 {
    let mut total = 0.0f64;
    for r in records {
        let Some(s) = unpack(r) else { continue };
        let (us, them) = features(&s);
        let e = sigmoid(net.forward(&us, &them)) - target(&s, blend);
        total += (e * e) as f64;
    }
    total / records.len().max(1) as f64
}

/// What `train` tells its caller after every epoch.
pub struct Epoch<'a> {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub net: &'a FloatNetwork,
    /// The held-out records.
    pub validation: &'a [[u8; RECORD_BYTES]],
}

/// Trains on `records`, the last `validation` share of them held out
/// before any shuffling: self-play files hold games one after another, so
/// the held-out positions come from games the network never trained on
/// (a random share would hold out near-twins of trained positions, the
/// same game a move later, and flatter the loss). Starts from `start`
/// (of `cfg.hidden` units and `cfg.buckets` buckets) if given, else from
/// random weights (drawn either way, so that the shuffles do not depend
/// on it). Calls `report` after every epoch.
pub fn train(
    records: &mut [[u8; RECORD_BYTES]],
    cfg: &Config,
    start: Option<FloatNetwork>,
    report: &mut dyn FnMut(&Epoch),
) -> FloatNetwork {
    let mut rng = Rng::new(cfg.seed);
    let held = ((records.len() as f64 * cfg.validation as f64) as usize).min(records.len() / 2);
    let (train, valid) = records.split_at_mut(records.len() - held);
    let random = FloatNetwork::random(cfg.hidden, cfg.buckets, &mut || rng.next_u64());
    let mut net = start.unwrap_or(random);
    assert_eq!(net.hidden, cfg.hidden, "the starting network's width");
    assert_eq!(net.buckets, cfg.buckets, "the starting network's buckets");
    let zeros = FloatNetwork::zeros(cfg.hidden, cfg.buckets);
    let mut opt = AdamW::new(cfg.hidden, cfg.buckets);
    let mut grads = vec![zeros.clone(); cfg.threads.max(1)];
    let mut sum = zeros;
    for epoch in 1..=cfg.epochs {
        shuffle(train, &mut rng);
        let lr = cfg.lr * cfg.lr_drop.powi(((epoch - 1) / cfg.lr_step.max(1)) as i32);
        let salt = rng.next_u64();
        let mirror = cfg.mirror.then_some(salt);
        let mut loss = 0.0;
        let mut batches = 0;
        for batch in train.chunks(cfg.batch) {
            grads.iter_mut().for_each(FloatNetwork::clear);
            loss += batch_loss(&net, batch, cfg.blend, mirror, cfg.threads, &mut grads);
            batches += 1;
            sum.clear();
            grads.iter().for_each(|g| sum.add(g));
            let n = batch.len() as f32;
            for s in sum.slices_mut() {
                s.iter_mut().for_each(|x| *x /= n);
            }
            opt.step(&mut net, &sum, lr, cfg.weight_decay);
        }
        report(&Epoch {
            epoch,
            train_loss: loss / batches.max(1) as f64,
            validation_loss: validation_loss(&net, valid, cfg.blend),
            net: &net,
            validation: valid,
        });
    }
    net
}

fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of the positions of a few random games.
    fn records(seed: u64, count: usize) -> Vec<[u8; RECORD_BYTES]> {
        use super::super::packed::{pack, sample_of};
        use crate::chess::board::Board;
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        let mut board = Board::startpos();
        let mut plies = 0;
        while out.len() < count {
            let moves = board.legal_moves();
            if moves.is_empty() || plies >= 60 {
                (board, plies) = (Board::startpos(), 0);
                continue;
            }
            board.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            plies += 1;
            let score = (rng.next_u64() % 801) as i32 - 400;
            let result = (rng.next_u64() % 3) as f32 / 2.0;
            out.extend(pack(&sample_of(&board, score, result)));
        }
        out
    }

    /// The file of the network trained on `records` with `buckets`, from
    /// `start` or random weights.
    fn trained_file(
        records: &[[u8; RECORD_BYTES]],
        buckets: usize,
        start: Option<FloatNetwork>,
    ) -> Vec<u8> {
        let cfg = Config {
            hidden: 16,
            buckets,
            epochs: 2,
            batch: 32,
            lr: 0.01,
            lr_drop: 0.3,
            lr_step: 5,
            blend: 0.3,
            weight_decay: 0.01,
            threads: 2,
            seed: 5,
            validation: 0.05,
            mirror: true,
        };
        let mut records = records.to_vec();
        let net = train(&mut records, &cfg, start, &mut |_| {});
        assert_eq!(net.buckets, buckets);
        super::super::quant::from_float(&net).to_bytes()
    }

    /// A run repeats from its seed, with one bucket (written in the plain
    /// format) or several, and the random weights of one bucket are the
    /// first drawn for several.
    #[test]
    fn training_repeats_from_its_seed_with_any_buckets() {
        let data = records(3, 600);
        let one = trained_file(&data, 1, None);
        assert_eq!(&one[..8], b"CAVNNUE1");
        assert_eq!(trained_file(&data, 1, None), one);
        let four = trained_file(&data, 4, None);
        assert_eq!(&four[..8], b"CAVNNUE2");
        assert_eq!(trained_file(&data, 4, None), four);
        let mut next = {
            let mut rng = Rng::new(5);
            move || rng.next_u64()
        };
        let first = FloatNetwork::random(16, 1, &mut next);
        let mut next = {
            let mut rng = Rng::new(5);
            move || rng.next_u64()
        };
        let bucketed = FloatNetwork::random(16, 4, &mut next);
        assert_eq!(first.w1, bucketed.w1);
        assert_eq!(first.w2[..], bucketed.w2[..32]);
    }

    /// Each position trains its own bucket's output layer: from a plain
    /// network widened to 4 buckets, the buckets of the positions trained
    /// on part from the others, and the two buckets that no position
    /// falls in (2..=17 pieces; the games are short) stay equal.
    #[test]
    fn positions_train_their_own_buckets() {
        let data = records(4, 600);
        let pieces = |r: &[u8; RECORD_BYTES]| unpack(r).unwrap().pieces.len();
        let mut seen = [0usize; 4];
        data.iter()
            .for_each(|r| seen[crate::engine::nnue::bucket(4, pieces(r))] += 1);
        assert_eq!(seen[..2], [0, 0], "{seen:?}");
        assert!(seen[3] > 0, "{seen:?}");
        let mut rng = Rng::new(8);
        let plain = FloatNetwork::random(16, 1, &mut || rng.next_u64());
        let file = trained_file(&data, 4, Some(plain.widened(4)));
        let net = crate::engine::nnue::Network::from_bytes(&file).unwrap();
        let row = |b: usize| &net.w2()[32 * b..32 * (b + 1)];
        assert_eq!(row(0), row(1));
        assert_ne!(row(3), row(0));
        if seen[2] > 0 {
            assert_ne!(row(2), row(0));
        }
    }

    #[test]
    fn mirroring_is_repeatable_and_about_half() {
        let mut rng = Rng::new(7);
        let records: Vec<[u8; RECORD_BYTES]> = (0..4000)
            .map(|_| {
                let mut r = [0u8; RECORD_BYTES];
                r.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
                r
            })
            .collect();
        for salt in [1u64, 0xdead_beef, u64::MAX] {
            let first: Vec<bool> = records.iter().map(|r| mirrored(r, salt)).collect();
            let again: Vec<bool> = records.iter().map(|r| mirrored(r, salt)).collect();
            assert_eq!(first, again);
            let share = first.iter().filter(|&&m| m).count();
            assert!((1800..2200).contains(&share), "{share} of 4000 mirrored");
        }
        // Another epoch's salt chooses afresh.
        let changed = records
            .iter()
            .filter(|r| mirrored(r, 1) != mirrored(r, 2))
            .count();
        assert!((1800..2200).contains(&changed), "{changed} of 4000 changed");
    }
}
