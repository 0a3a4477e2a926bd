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
//! The evaluation is traced once per position ([`crate::engine::eval::Tracer`]):
//! for every weight slot of [`crate::engine::eval::params`], White's count minus Black's.
//! The blended score is linear in those weights, so each one's gradient is
//! cheap. The parts that are not linear are kept as they are computed in
//! play and differentiated by hand: the king-attack penalty (`units^2 *
//! scale / divisor`, capped; its units, scale and cap are tuned) and the
//! endgame scale factors (the drawish and opposite-bishops factors are
//! tuned; which factor applies is decided per position as the evaluation
//! does, from the sign of the score). The threshold `DRAWISH_MATERIAL_EDGE`
//! (with `DRAWISH_PIECE_VALUE`) and the phase weights are shape constants
//! and stay as they are. A test checks that this model, with the weights as
//! built, gives exactly [`crate::engine::eval::evaluate`].
//!
//! The result is a complete `weights.rs`: the file as built with its numbers
//! replaced, so that a diff shows what the tune changed.

use crate::chess::board::Board;
use crate::chess::types::{kind_index, Color, Piece, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::engine::eval::params::{self, SLOTS};
use crate::engine::eval::weights::{self as w, Score, PHASE_TOTAL};
use crate::engine::eval::{self, ScaleKind, Tracer};
use crate::engine::search::{Searcher, MATE_BOUND};
use crate::engine::tt::TranspositionTable;
use crate::util::command_line::parse_number;
use crate::util::rng::Rng;
use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

/// The text of `src/weights.rs` as built: the template of the output.
pub const WEIGHTS_SOURCE: &str = include_str!("../engine/eval/weights.rs");

/// Kinds that have king-attack units: knight, bishop, rook, queen.
const ATTACK_KINDS: usize = 4;
/// Kind index of the first of them (knight).
const FIRST_ATTACKER: usize = 1;
/// What a king attack counts: zone hits by kind (`KING_ATTACK_UNITS`),
/// then safe checks by kind (`KING_SAFE_CHECK_UNITS`).
const ATTACK_FEATURES: usize = 2 * ATTACK_KINDS;
/// Where the safe checks begin among them.
const SAFE_CHECKS: usize = ATTACK_KINDS;

/// The tuned values, one vector: `2 * slot` and `2 * slot + 1` are a weight
/// slot's middlegame and endgame parts, then the plain integers below:
/// first the units of each attack feature (`KING_ATTACK_UNITS`, then
/// `KING_SAFE_CHECK_UNITS`, knight to queen).
pub const X_UNITS: usize = 2 * SLOTS;
/// `KING_ATTACK_SCALE`.
pub const X_ATTACK_SCALE: usize = X_UNITS + ATTACK_FEATURES;
/// `KING_ATTACK_CAP`.
pub const X_ATTACK_CAP: usize = X_ATTACK_SCALE + 1;
/// `DRAWISH_SCALE`.
pub const X_DRAWISH: usize = X_ATTACK_CAP + 1;
/// `OPPOSITE_BISHOPS_SCALE`.
pub const X_OPPOSITE_BISHOPS: usize = X_DRAWISH + 1;
/// Length of the vector.
pub const N_PARAMS: usize = X_OPPOSITE_BISHOPS + 1;

/// Scale factors are out of this.
const SCALE_ONE: f64 = 64.0;

/// Default number of passes over the data.
pub const DEFAULT_EPOCHS: usize = 200;
/// Default positions per gradient step.
pub const DEFAULT_BATCH: usize = 16_384;
/// Default number of positions a weight must be counted in to be fitted.
pub const DEFAULT_MIN_COUNT: usize = 2_000;
/// Default Adam step size (centipawns per step, roughly).
pub const DEFAULT_LR: f64 = 0.5;
const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;
const ADAM_EPSILON: f64 = 1e-8;
/// Range searched for `K` (per centipawn) and the search's iterations.
const K_RANGE: (f64, f64) = (1e-4, 5e-2);
const K_ITERATIONS: usize = 100;
/// Hash table of each loading thread's quiescence searches (MB).
const FILTER_HASH_MB: usize = 1;
/// Lines between progress reports while loading.
const LOAD_PROGRESS_LINES: usize = 200_000;

/// One side's attack on the enemy king as the evaluation saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingAttack {
    /// King-zone squares hit by knights, bishops, rooks, queens, then safe
    /// checks by knights, bishops, rooks, queens.
    pub hits: [u8; ATTACK_FEATURES],
    /// Whether the attack is scored (two attackers and a queen).
    pub scored: bool,
}

/// The traced evaluation of one position.
#[derive(Clone, Debug)]
pub struct Features {
    /// (slot, White's count minus Black's), the non-zero ones.
    pub coefs: Vec<(u16, i16)>,
    /// Game phase, 0 ..= `PHASE_TOTAL`.
    pub phase: u8,
    /// By attacking colour (White, Black).
    pub king: [KingAttack; 2],
    /// The scale factor when White is ahead (or level), when Black is.
    pub scale: [ScaleKind; 2],
    /// The untuned mop-up bonus when White is ahead (or level), when Black
    /// is (eval's `mopup_bonus`): a constant the model adds after scaling.
    pub mopup: [i16; 2],
    /// (slot, White's count plus Black's), the non-zero ones: how often
    /// each weight is used, whatever the side.
    pub uses: Vec<(u16, u16)>,
}

/// The tracer that counts.
struct Collect {
    net: [i32; SLOTS],
    uses: [i32; SLOTS],
    king: [KingAttack; 2],
}

impl Tracer for Collect {
    const ACTIVE: bool = true;

    fn add(&mut self, color: Color, slot: usize, count: i32) {
        self.net[slot] += if color == Color::White { count } else { -count };
        self.uses[slot] += count.abs();
    }

    fn king_attack(
        &mut self,
        color: Color,
        zone_hits: &[i32; 6],
        safe_checks: &[i32; 6],
        scored: bool,
    ) {
        let k = &mut self.king[color.index()];
        let count = |n: i32| n.clamp(0, u8::MAX as i32) as u8;
        for i in 0..ATTACK_KINDS {
            k.hits[i] = count(zone_hits[FIRST_ATTACKER + i]);
            k.hits[SAFE_CHECKS + i] = count(safe_checks[FIRST_ATTACKER + i]);
        }
        k.scored = scored;
    }
}

/// Traces the evaluation of `board`.
pub fn features(board: &Board) -> Features {
    let mut c = Collect {
        net: [0; SLOTS],
        uses: [0; SLOTS],
        king: [KingAttack::default(); 2],
    };
    let t = eval::trace_with(board, &mut c);
    let coefs = c
        .net
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(slot, &n)| {
            (
                slot as u16,
                n.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            )
        })
        .collect();
    Features {
        coefs,
        phase: t.phase as u8,
        king: c.king,
        scale: [
            eval::scale_kind(board, Color::White),
            eval::scale_kind(board, Color::Black),
        ],
        mopup: eval::mopup_bonus(board).map(|b| b.clamp(0, i16::MAX as i32) as i16),
        uses: c
            .uses
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n != 0)
            .map(|(slot, &n)| (slot as u16, n.clamp(0, u16::MAX as i32) as u16))
            .collect(),
    }
}

/// One position of a data set; its coefficients live in the set's arena.
#[derive(Clone, Copy, Debug)]
struct Entry {
    first: u32,
    len: u16,
    phase: u8,
    king: [KingAttack; 2],
    scale: [ScaleKind; 2],
    mopup: [i16; 2],
    result: f32,
    /// The search score written beside the result (cp, White's view), NaN
    /// when the line had none.
    score: f32,
}

/// Positions with results, traced.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    entries: Vec<Entry>,
    coefs: Vec<(u16, i16)>,
    /// How often each weight slot is used over all positions pushed (both
    /// sides' counts added), for re-centring tables on output.
    uses: Vec<u64>,
}

impl Dataset {
    /// Adds a traced position and its result (White's view, 0..=1).
    pub fn push(&mut self, f: &Features, result: f32) {
        self.push_scored(f, result, None);
    }

    /// Adds a traced position, its result and the search score written
    /// beside it, if any (cp, White's view).
    pub fn push_scored(&mut self, f: &Features, result: f32, score: Option<i32>) {
        self.entries.push(Entry {
            first: self.coefs.len() as u32,
            len: f.coefs.len() as u16,
            phase: f.phase,
            king: f.king,
            scale: f.scale,
            mopup: f.mopup,
            result,
            score: score.map_or(f32::NAN, |x| x as f32),
        });
        self.coefs.extend_from_slice(&f.coefs);
        let uses = self.uses_mut();
        for &(slot, n) in &f.uses {
            uses[slot as usize] += n as u64;
        }
    }

    /// A copy whose targets blend each game result with its search score:
    /// `lambda * result + (1 - lambda) * sigmoid(k * score)` where a score
    /// was written (positions without one keep their result), and how many
    /// had one. Mate scores are clamped to +-2000 cp first.
    pub fn blended(&self, lambda: f64, k: f64) -> (Dataset, usize) {
        let mut out = self.clone();
        let mut scored = 0;
        for e in &mut out.entries {
            if !e.score.is_nan() {
                let s = sigmoid(k * (e.score as f64).clamp(-2000.0, 2000.0));
                e.result = (lambda * e.result as f64 + (1.0 - lambda) * s) as f32;
                scored += 1;
            }
        }
        (out, scored)
    }

    /// The usage counts, made one per slot on first use.
    fn uses_mut(&mut self) -> &mut [u64] {
        if self.uses.is_empty() {
            self.uses = vec![0; SLOTS];
        }
        &mut self.uses
    }

    /// How often each weight slot was used (both sides) by the positions
    /// pushed; empty when none was.
    pub fn uses(&self) -> &[u64] {
        &self.uses
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn append(&mut self, other: Dataset) {
        for (a, b) in self.uses_mut().iter_mut().zip(&other.uses) {
            *a += b;
        }
        let base = self.coefs.len() as u32;
        self.coefs.extend_from_slice(&other.coefs);
        self.entries.extend(other.entries.into_iter().map(|mut e| {
            e.first += base;
            e
        }));
    }

    /// Moves the last `count` positions into a data set of their own.
    pub fn split_tail(&mut self, count: usize) -> Dataset {
        let at = self.entries.len() - count.min(self.entries.len());
        let mut tail = Dataset::default();
        for e in self.entries.split_off(at) {
            let coefs = self.coefs_of(&e).to_vec();
            tail.entries.push(Entry {
                first: tail.coefs.len() as u32,
                ..e
            });
            tail.coefs.extend_from_slice(&coefs);
        }
        let used = self
            .entries
            .last()
            .map_or(0, |e| e.first as usize + e.len as usize);
        self.coefs.truncate(used);
        tail
    }

    /// Which values the fit may move: not frozen, and (for a weight slot)
    /// counted in at least `min_count` positions. A weight that few
    /// positions exercise would be fitted to their noise (a queen reaching
    /// 25 squares, a king on an odd square), so it keeps its value.
    pub fn movable(&self, min_count: usize) -> Vec<bool> {
        let mut positions = vec![0usize; SLOTS];
        for &(slot, _) in &self.coefs {
            positions[slot as usize] += 1;
        }
        (0..N_PARAMS)
            .map(|i| !is_frozen(i) && (i >= X_UNITS || positions[i / 2] >= min_count.max(1)))
            .collect()
    }

    fn coefs_of(&self, e: &Entry) -> &[(u16, i16)] {
        &self.coefs[e.first as usize..e.first as usize + e.len as usize]
    }
}

/// The weights as built, as one vector (see `X_UNITS` and the others).
pub fn initial_params() -> Vec<f64> {
    let mut p = Vec::with_capacity(N_PARAMS);
    for s in params::current() {
        p.push(s.mg() as f64);
        p.push(s.eg() as f64);
    }
    for i in 0..ATTACK_KINDS {
        p.push(w::KING_ATTACK_UNITS[FIRST_ATTACKER + i] as f64);
    }
    for i in 0..ATTACK_KINDS {
        p.push(w::KING_SAFE_CHECK_UNITS[FIRST_ATTACKER + i] as f64);
    }
    p.push(w::KING_ATTACK_SCALE as f64);
    p.push(w::KING_ATTACK_CAP as f64);
    p.push(w::DRAWISH_SCALE as f64);
    p.push(w::OPPOSITE_BISHOPS_SCALE as f64);
    debug_assert_eq!(p.len(), N_PARAMS);
    p
}

/// Mobility entries held at zero, one per table (the count the entry is
/// for): a constant per piece would be the piece's value over again.
const MOBILITY_ZEROS: [usize; 4] = [
    params::MOBILITY_KNIGHT + 4,
    params::MOBILITY_BISHOP + 6,
    params::MOBILITY_ROOK + 6,
    params::MOBILITY_QUEEN + 12,
];

/// Pawn weights by relative rank: their first and last entries are never
/// counted (no pawn stands there).
const BY_PAWN_RANK: [usize; 4] = [
    params::CONNECTED_PAWN,
    params::PASSED_PAWN,
    params::PASSED_FREE,
    params::PASSED_SAFE,
];

/// Values the tuner leaves alone: the king's piece value (each side has
/// one king: it cancels), the pawn table's first and last ranks and the
/// first and last entries of the other pawn tables by rank (no pawn stands
/// there), and one entry of each mobility table (`MOBILITY_ZEROS`).
/// The constant part of each piece-square table is free but re-centred
/// into the piece's value on output (see `named_values`).
pub fn is_frozen(index: usize) -> bool {
    if index >= X_UNITS {
        return false;
    }
    let slot = index / 2;
    slot == params::PIECE_VALUE + kind_index(KING)
        || (params::PAWN_PST..params::PAWN_PST + 8).contains(&slot)
        || (params::PAWN_PST + 56..params::PAWN_PST + 64).contains(&slot)
        || MOBILITY_ZEROS.contains(&slot)
        || BY_PAWN_RANK
            .iter()
            .any(|&first| slot == first || slot == first + 7)
}

/// Keeps the plain integers in their meaningful ranges.
fn clamp_params(p: &mut [f64]) {
    for u in &mut p[X_UNITS..X_UNITS + ATTACK_FEATURES] {
        *u = u.max(0.0);
    }
    p[X_ATTACK_SCALE] = p[X_ATTACK_SCALE].max(0.0);
    p[X_ATTACK_CAP] = p[X_ATTACK_CAP].max(0.0);
    p[X_DRAWISH] = p[X_DRAWISH].clamp(0.0, SCALE_ONE);
    p[X_OPPOSITE_BISHOPS] = p[X_OPPOSITE_BISHOPS].clamp(0.0, SCALE_ONE);
}

/// The king-attack penalty and the attack's units (0, 0 when unscored).
#[inline(always)]
fn danger(k: &KingAttack, p: &[f64]) -> (f64, f64) {
    if !k.scored {
        return (0.0, 0.0);
    }
    let units: f64 = (0..ATTACK_FEATURES)
        .map(|i| k.hits[i] as f64 * p[X_UNITS + i])
        .sum();
    let raw = units * units * p[X_ATTACK_SCALE] / w::KING_ATTACK_DIVISOR as f64;
    (raw.min(p[X_ATTACK_CAP]), units)
}

/// Scale factor value of a kind, out of 64.
#[inline(always)]
fn scale_value(kind: ScaleKind, p: &[f64]) -> f64 {
    match kind {
        ScaleKind::Dead => 0.0,
        ScaleKind::Drawish => p[X_DRAWISH],
        ScaleKind::OppositeBishops => p[X_OPPOSITE_BISHOPS],
        ScaleKind::Full => SCALE_ONE,
    }
}

/// The model's evaluation (White's view, centipawns, unrounded) and the
/// blended score before scaling.
#[inline(always)]
fn forward(e: &Entry, coefs: &[(u16, i16)], p: &[f64]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(slot, c) in coefs {
        let c = c as f64;
        mg += c * p[2 * slot as usize];
        eg += c * p[2 * slot as usize + 1];
    }
    mg += danger(&e.king[0], p).0 - danger(&e.king[1], p).0;
    let phase = e.phase as f64;
    let total = PHASE_TOTAL as f64;
    let blended = (mg * phase + eg * (total - phase)) / total;
    let strong = if blended >= 0.0 { 0 } else { 1 };
    let scaled = blended * scale_value(e.scale[strong], p) / SCALE_ONE;
    (scaled + mopup_of(e, scaled >= 0.0) as f64, blended)
}

/// The model with integer weights and the evaluation's integer arithmetic:
/// with the weights as built, exactly `evaluate` from White's view.
fn forward_exact(e: &Entry, coefs: &[(u16, i16)], p: &[i32]) -> i32 {
    let (mut mg, mut eg) = (0i32, 0i32);
    for &(slot, c) in coefs {
        mg += c as i32 * p[2 * slot as usize];
        eg += c as i32 * p[2 * slot as usize + 1];
    }
    let danger = |k: &KingAttack| {
        if !k.scored {
            return 0;
        }
        let units: i64 = (0..ATTACK_FEATURES)
            .map(|i| k.hits[i] as i64 * p[X_UNITS + i] as i64)
            .sum();
        (units * units * p[X_ATTACK_SCALE] as i64 / w::KING_ATTACK_DIVISOR)
            .min(p[X_ATTACK_CAP] as i64) as i32
    };
    mg += danger(&e.king[0]) - danger(&e.king[1]);
    let phase = e.phase as i32;
    let blended = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let strong = if blended >= 0 { 0 } else { 1 };
    let scale = match e.scale[strong] {
        ScaleKind::Dead => 0,
        ScaleKind::Drawish => p[X_DRAWISH],
        ScaleKind::OppositeBishops => p[X_OPPOSITE_BISHOPS],
        ScaleKind::Full => SCALE_ONE as i32,
    };
    let scaled = blended * scale / SCALE_ONE as i32;
    scaled + mopup_of(e, scaled >= 0)
}

/// The mop-up constant as the evaluation adds it (White's view): the
/// leader's bonus, White's when the scaled score is level or better.
#[inline(always)]
fn mopup_of(e: &Entry, white_leads: bool) -> i32 {
    if white_leads {
        e.mopup[0] as i32
    } else {
        -(e.mopup[1] as i32)
    }
}

#[inline(always)]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Adds one position's gradient of its squared error to `grad`; returns
/// the squared error.
#[inline(always)]
fn accumulate(e: &Entry, coefs: &[(u16, i16)], p: &[f64], k: f64, grad: &mut [f64]) -> f64 {
    let (eval, blended) = forward(e, coefs, p);
    let s = sigmoid(k * eval);
    let err = e.result as f64 - s;
    // d(err^2)/d(eval).
    let g = -2.0 * err * s * (1.0 - s) * k;
    let strong = if blended >= 0.0 { 0 } else { 1 };
    let kind = e.scale[strong];
    let scale = scale_value(kind, p) / SCALE_ONE;
    let rho = e.phase as f64 / PHASE_TOTAL as f64;
    let g_mg = g * scale * rho;
    let g_eg = g * scale * (1.0 - rho);
    for &(slot, c) in coefs {
        grad[2 * slot as usize] += g_mg * c as f64;
        grad[2 * slot as usize + 1] += g_eg * c as f64;
    }
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        let king = &e.king[side];
        if !king.scored {
            continue;
        }
        let (_, units) = danger(king, p);
        let divisor = w::KING_ATTACK_DIVISOR as f64;
        let raw = units * units * p[X_ATTACK_SCALE] / divisor;
        let gd = g_mg * sign;
        if raw < p[X_ATTACK_CAP] {
            for i in 0..ATTACK_FEATURES {
                grad[X_UNITS + i] +=
                    gd * 2.0 * units * king.hits[i] as f64 * p[X_ATTACK_SCALE] / divisor;
            }
            grad[X_ATTACK_SCALE] += gd * units * units / divisor;
        } else {
            grad[X_ATTACK_CAP] += gd;
        }
    }
    match kind {
        ScaleKind::Drawish => grad[X_DRAWISH] += g * blended / SCALE_ONE,
        ScaleKind::OppositeBishops => grad[X_OPPOSITE_BISHOPS] += g * blended / SCALE_ONE,
        _ => {}
    }
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
        return (0.0, vec![0.0; N_PARAMS]);
    }
    let threads = threads.clamp(1, n);
    let chunk = n.div_ceil(threads);
    let part = |from: usize, to: usize| {
        let mut grad = vec![0.0; N_PARAMS];
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
    let mut grad = vec![0.0; N_PARAMS];
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
    let p = rounded(&initial_params());
    let evals: Vec<f64> = data
        .entries
        .iter()
        .map(|e| forward_exact(e, data.coefs_of(e), &p) as f64)
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
        .map(|e| forward_exact(e, data.coefs_of(e), p) as f64)
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
            m: vec![0.0; N_PARAMS],
            v: vec![0.0; N_PARAMS],
            movable,
            prior: vec![0.0; N_PARAMS],
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
        for i in 0..N_PARAMS {
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
        clamp_params(p);
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

// ----- reading positions -----------------------------------------------------

/// Reads a result: a number from 0 to 1 (1.0, 0.5, 0.0, or a fraction),
/// or 1-0, 1/2-1/2, 0-1.
fn parse_result(token: &str) -> Option<f32> {
    let t = token.trim_matches(|c: char| matches!(c, '"' | '[' | ']' | ';' | ' '));
    match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "1/2" | "=" => Some(0.5),
        _ => t.parse::<f32>().ok().filter(|r| (0.0..=1.0).contains(r)),
    }
}

/// One line of a data file: `FEN;RESULT` (what `cavalier selfplay`
/// writes), `FEN [RESULT]`, or an EPD line ending with `c9 "RESULT";`.
/// `Ok(None)` for blank lines and `#` comments.
pub fn parse_line(line: &str) -> Result<Option<(Board, f32)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let between = |open: char, close: char| {
        let from = line.find(open)?;
        let to = line[from + 1..].find(close)? + from + 1;
        Some((&line[..from], &line[from + 1..to]))
    };
    let (fen, result) = if let Some(x) = between('[', ']') {
        x
    } else if let Some((fen, result)) = between('"', '"') {
        (fen.trim_end().trim_end_matches("c9"), result)
    } else if let Some((fen, rest)) = line.split_once(';') {
        (fen, rest.split(';').next().unwrap_or("").trim())
    } else {
        return Err(
            "no result: expected FEN;RESULT, FEN [RESULT] or EPD c9 \"RESULT\"".to_string(),
        );
    };
    let result = parse_result(result).ok_or_else(|| {
        format!(
            "bad result \"{}\" (a number 0..1, 1-0, 1/2-1/2 or 0-1)",
            crate::util::text::quote(result)
        )
    })?;
    let board = Board::from_fen(fen).map_err(|e| e.to_string())?;
    Ok(Some((board, result)))
}

/// The SCORE of a `FEN;RESULT;SCORE` line (what `cavalier selfplay`
/// writes), if it has one.
pub fn line_score(line: &str) -> Option<i32> {
    let mut fields = line.trim().split(';');
    let (_, _, score) = (fields.next()?, fields.next()?, fields.next()?);
    score.trim().parse::<i32>().ok()
}

/// What loading kept and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub lines: usize,
    pub kept: usize,
    pub unreadable: usize,
    pub in_check: usize,
    /// Quiescence search differs from the static evaluation.
    pub not_quiet: usize,
}

/// Traces the positions of `lines`; with `filter`, only positions not in
/// check whose quiescence score equals their static evaluation are kept.
fn load_part(lines: &[&str], filter: bool, progress: bool) -> (Dataset, LoadStats, Option<String>) {
    let mut data = Dataset::default();
    let mut stats = LoadStats::default();
    let mut first_error = None;
    let mut searcher = Searcher::new();
    let tt = TranspositionTable::new(FILTER_HASH_MB);
    for (n, line) in lines.iter().enumerate() {
        if progress && n > 0 && n % LOAD_PROGRESS_LINES == 0 {
            eprintln!("tune: {n} lines read by the first loader");
        }
        let (mut board, result) = match parse_line(line) {
            Ok(Some(x)) => x,
            Ok(None) => continue,
            Err(e) => {
                stats.lines += 1;
                stats.unreadable += 1;
                first_error
                    .get_or_insert_with(|| format!("\"{}\": {e}", crate::util::text::quote(line)));
                continue;
            }
        };
        stats.lines += 1;
        if filter {
            if board.in_check() {
                stats.in_check += 1;
                continue;
            }
            let q = searcher.quiescence_score(&mut board, &tt);
            if q.abs() >= MATE_BOUND || q != eval::evaluate(&board) {
                stats.not_quiet += 1;
                continue;
            }
        }
        data.push_scored(&features(&board), result, line_score(line));
        stats.kept += 1;
    }
    (data, stats, first_error)
}

/// Loads a data set from text (one position a line) on `threads` threads.
pub fn load(
    text: &str,
    filter: bool,
    limit: usize,
    threads: usize,
) -> (Dataset, LoadStats, Option<String>) {
    let lines: Vec<&str> = text.lines().take(limit).collect();
    let threads = threads.clamp(1, lines.len().max(1));
    let chunk = lines.len().div_ceil(threads).max(1);
    let parts: Vec<(Dataset, LoadStats, Option<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .enumerate()
            .map(|(i, part)| s.spawn(move || load_part(part, filter, i == 0)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut data = Dataset::default();
    let mut stats = LoadStats::default();
    let mut first_error = None;
    for (d, st, err) in parts {
        data.append(d);
        stats.lines += st.lines;
        stats.kept += st.kept;
        stats.unreadable += st.unreadable;
        stats.in_check += st.in_check;
        stats.not_quiet += st.not_quiet;
        if first_error.is_none() {
            first_error = err;
        }
    }
    (data, stats, first_error)
}

// ----- writing weights.rs ----------------------------------------------------

/// A piece-square table, the kind it belongs to, the squares its mean is
/// taken over and the squares a piece of the kind can stand on.
type TableSquares = (usize, Piece, Range<usize>, Range<usize>);

/// Every piece-square table. The pawn's mean is taken over rank 2, so that
/// the pawn's value stays that of a pawn on its starting square.
const PIECE_SQUARE_TABLES: [TableSquares; 6] = [
    (params::PAWN_PST, PAWN, 8..16, 8..56),
    (params::KNIGHT_PST, KNIGHT, 0..64, 0..64),
    (params::BISHOP_PST, BISHOP, 0..64, 0..64),
    (params::ROOK_PST, ROOK, 0..64, 0..64),
    (params::QUEEN_PST, QUEEN, 0..64, 0..64),
    (params::KING_PST, KING, 0..64, 0..64),
];

/// Subtracts `shift` from the slots of `range` (a table of `kind`) and
/// adds it to the piece's value (the king's cancels): the evaluation stays
/// the same.
fn move_into_value(slots: &mut [Score], range: Range<usize>, kind: Piece, shift: Score) {
    for i in range {
        slots[i] -= shift;
    }
    if kind != KING {
        slots[params::PIECE_VALUE + kind_index(kind)] += shift;
    }
}

/// Every mobility table and its piece: re-centred like the piece-square
/// tables when the data's usage counts are known.
const MOBILITY_TABLES: [(usize, usize, Piece); 4] = [
    (params::MOBILITY_KNIGHT, w::MOBILITY_KNIGHT.len(), KNIGHT),
    (params::MOBILITY_BISHOP, w::MOBILITY_BISHOP.len(), BISHOP),
    (params::MOBILITY_ROOK, w::MOBILITY_ROOK.len(), ROOK),
    (params::MOBILITY_QUEEN, w::MOBILITY_QUEEN.len(), QUEEN),
];

/// The whole number nearest the mean of the values of `slots` weighted by
/// `uses` (halves down), or `None` when no slot is used.
fn weighted_shift(values: &[Score], uses: &[u64], slots: Range<usize>) -> Option<Score> {
    let weight: i128 = slots.clone().map(|i| uses[i] as i128).sum();
    if weight == 0 {
        return None;
    }
    let total = |part: fn(Score) -> i32| -> i32 {
        let sum: i128 = slots
            .clone()
            .map(|i| uses[i] as i128 * part(values[i]) as i128)
            .sum();
        (sum + weight / 2).div_euclid(weight) as i32
    };
    Some(Score(total(|s| s.mg()), total(|s| s.eg())))
}

/// The whole number nearest the mean of `total` over `n` (halves down),
/// so that a table re-centred once is left as it is the next time.
fn centre_shift(total: i32, n: i32) -> i32 {
    (total + n / 2).div_euclid(n)
}

/// The (middlegame, endgame) pair of every weight slot of `p`.
fn slot_scores(p: &[i32]) -> Vec<Score> {
    (0..SLOTS).map(|s| Score(p[2 * s], p[2 * s + 1])).collect()
}

/// Weight arrays by constant name.
pub type ScoreValues = HashMap<&'static str, Vec<Score>>;
/// Integer constants (or arrays) by name.
pub type IntValues = HashMap<&'static str, Vec<i32>>;

/// The named values of the tuned vector. With the data's usage counts
/// (`uses`, one per slot), every piece-square and mobility table is
/// shifted to a zero mean weighted by how often its entries were used and
/// the shift moved into the piece's value (the king's cancels), so that
/// each piece value is the piece's average worth and the material pass of
/// the lazy evaluation sees what the full one does on average; the
/// evaluation is otherwise unchanged. A table the data never uses is
/// centred plainly (see `PIECE_SQUARE_TABLES`; the pawn's over rank 2) or,
/// for mobility, left as it is. Without counts (`uses` empty) the tables
/// are written as they are: the file's own centring is kept.
pub fn named_values(p: &[i32], uses: &[u64]) -> (ScoreValues, IntValues) {
    let mut slots = slot_scores(p);
    let counted = uses.len() == SLOTS;
    if counted {
        for (table, kind, mean_over, squares) in PIECE_SQUARE_TABLES {
            let range = table + squares.start..table + squares.end;
            let shift = weighted_shift(&slots, uses, range.clone()).unwrap_or_else(|| {
                let n = mean_over.len() as i32;
                let total = mean_over.fold(Score(0, 0), |sum, sq| sum + slots[table + sq]);
                Score(centre_shift(total.mg(), n), centre_shift(total.eg(), n))
            });
            move_into_value(&mut slots, range, kind, shift);
        }
        for (table, len, kind) in MOBILITY_TABLES {
            if let Some(shift) = weighted_shift(&slots, uses, table..table + len) {
                move_into_value(&mut slots, table..table + len, kind, shift);
            }
        }
    }
    let scores = params::PARAMS
        .iter()
        .map(|prm| {
            (
                prm.name,
                slots[prm.offset..prm.offset + prm.values.len()].to_vec(),
            )
        })
        .collect();
    let mut units = w::KING_ATTACK_UNITS.to_vec();
    units[FIRST_ATTACKER..FIRST_ATTACKER + ATTACK_KINDS]
        .copy_from_slice(&p[X_UNITS..X_UNITS + ATTACK_KINDS]);
    let mut check_units = w::KING_SAFE_CHECK_UNITS.to_vec();
    check_units[FIRST_ATTACKER..FIRST_ATTACKER + ATTACK_KINDS]
        .copy_from_slice(&p[X_UNITS + SAFE_CHECKS..X_UNITS + SAFE_CHECKS + ATTACK_KINDS]);
    let ints = HashMap::from([
        ("KING_ATTACK_UNITS", units),
        ("KING_SAFE_CHECK_UNITS", check_units),
        ("KING_ATTACK_SCALE", vec![p[X_ATTACK_SCALE]]),
        ("KING_ATTACK_CAP", vec![p[X_ATTACK_CAP]]),
        ("DRAWISH_SCALE", vec![p[X_DRAWISH]]),
        ("OPPOSITE_BISHOPS_SCALE", vec![p[X_OPPOSITE_BISHOPS]]),
    ]);
    (scores, ints)
}

/// `text` (a `weights.rs`) with the values of the named constants replaced:
/// each `Score(mg, eg)` of a constant in `scores`, in order, and the whole
/// value of a constant in `ints` (an `i32` or an `[i32; N]` on one line).
/// Comments and layout are kept. Fails if a name is missing or its number
/// of values does not match.
pub fn rewrite_weights(
    text: &str,
    scores: &HashMap<&str, Vec<Score>>,
    ints: &HashMap<&str, Vec<i32>>,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut used: HashMap<&str, usize> = HashMap::new();
    let mut current: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let trimmed = body.trim_start();
        if let Some(rest) = trimmed.strip_prefix("pub const ") {
            current = rest.split(':').next().map(str::trim);
        }
        let mut new_line = body.to_string();
        if let Some(name) = current {
            if let Some(values) = ints.get(name) {
                let (head, _) = body
                    .split_once('=')
                    .ok_or_else(|| format!("{name}: no '=' on its line"))?;
                if !body.trim_end().ends_with(';') {
                    return Err(format!("{name}: expected on one line"));
                }
                let value = if head.contains('[') {
                    let list: Vec<String> = values.iter().map(i32::to_string).collect();
                    format!("[{}]", list.join(", "))
                } else {
                    values.first().copied().unwrap_or(0).to_string()
                };
                new_line = format!("{head}= {value};");
                *used.entry(name).or_default() += values.len();
            } else if let Some(values) = scores.get(name) {
                let mut rebuilt = String::new();
                let mut rest = body;
                while let Some(at) = rest.find("Score(") {
                    let close = rest[at..]
                        .find(')')
                        .ok_or_else(|| format!("{name}: unclosed Score("))?;
                    let n = used.entry(name).or_default();
                    let v = values
                        .get(*n)
                        .ok_or_else(|| format!("{name}: more values in the file than tuned"))?;
                    *n += 1;
                    rebuilt.push_str(&rest[..at]);
                    rebuilt.push_str(&format!("Score({}, {})", v.mg(), v.eg()));
                    rest = &rest[at + close + 1..];
                }
                rebuilt.push_str(rest);
                new_line = rebuilt;
            }
        }
        out.push_str(&new_line);
        if line.ends_with('\n') {
            out.push('\n');
        }
        if trimmed.ends_with(';') {
            current = None;
        }
    }
    for (name, values) in scores {
        if used.get(name).copied().unwrap_or(0) != values.len() {
            return Err(format!(
                "{name}: {} values tuned, {} found in the file",
                values.len(),
                used.get(name).copied().unwrap_or(0)
            ));
        }
    }
    for (name, values) in ints {
        if used.get(name).copied().unwrap_or(0) != values.len() {
            return Err(format!("{name}: not found as one line in the file"));
        }
    }
    Ok(out)
}

/// A complete `weights.rs` holding the weights `p`.
pub fn weights_file(p: &[i32], uses: &[u64]) -> Result<String, String> {
    let (scores, ints) = named_values(p, uses);
    rewrite_weights(WEIGHTS_SOURCE, &scores, &ints)
}

/// The weights that differ between `before` and `after`, one per line.
pub fn changes(before: &[i32], after: &[i32], uses: &[u64]) -> Vec<String> {
    let (sb, ib) = named_values(before, uses);
    let (sa, ia) = named_values(after, uses);
    let mut lines = Vec::new();
    for prm in params::PARAMS {
        let (old, new) = (&sb[prm.name], &sa[prm.name]);
        for (i, (o, n)) in old.iter().zip(new).enumerate() {
            if o != n {
                let name = if old.len() == 1 {
                    prm.name.to_string()
                } else {
                    format!("{}[{i}]", prm.name)
                };
                lines.push(format!(
                    "{name}: ({}, {}) -> ({}, {})",
                    o.mg(),
                    o.eg(),
                    n.mg(),
                    n.eg()
                ));
            }
        }
    }
    let mut names: Vec<&&str> = ib.keys().collect();
    names.sort();
    for name in names {
        if ib[*name] != ia[*name] {
            lines.push(format!("{name}: {:?} -> {:?}", ib[*name], ia[*name]));
        }
    }
    lines
}

// ----- the command -------------------------------------------------------------

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
pub struct Options {
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

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
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
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--epochs" => o.epochs = parse_number(a, &value()?, |&n: &usize| n <= 1_000_000)?,
            "--batch" => o.batch = parse_number(a, &value()?, |_: &usize| true)?,
            "--lr" => o.lr = parse_number(a, &value()?, |x: &f64| *x > 0.0 && x.is_finite())?,
            "--k" => {
                o.k = Some(parse_number(a, &value()?, |x: &f64| {
                    *x > 0.0 && x.is_finite()
                })?)
            }
            "--threads" => {
                o.threads = parse_number(a, &value()?, |n: &usize| (1..=MAX_THREADS).contains(n))?
            }
            "--limit" => o.limit = parse_number(a, &value()?, |&n: &usize| n > 0)?,
            "--l2" => o.l2 = parse_number(a, &value()?, |x: &f64| *x >= 0.0 && x.is_finite())?,
            "--lambda" => o.lambda = parse_number(a, &value()?, |x: &f64| (0.0..=1.0).contains(x))?,
            "--min-count" => o.min_count = parse_number(a, &value()?, |_: &usize| true)?,
            "--seed" => o.seed = parse_number(a, &value()?, |_: &u64| true)?,
            "--out" => o.out = value()?,
            "--keep-all" => o.filter = false,
            "--holdout" => {
                o.holdout = parse_number(a, &value()?, |x: &f64| (0.0..100.0).contains(x))?
            }
            "-h" | "--help" => return Err(String::new()),
            other if !other.starts_with("--") && file.is_none() => file = Some(other.to_string()),
            other => {
                return Err(format!(
                    "unexpected argument \"{}\"",
                    crate::util::text::quote(other)
                ))
            }
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
pub fn run(data: &Dataset, validation: &Dataset, o: &Options, out: &mut dyn FnMut(&str)) -> i32 {
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
    let initial = initial_params();
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
        "values: {N_PARAMS}, of which {} free (the others held, or counted in fewer than {} positions)",
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
    use crate::chess::types::PAWN as P;

    /// Positions from random games (and the bench list): varied material,
    /// phases, king attacks, passed pawns and endings.
    fn positions(games: usize) -> Vec<Board> {
        let mut out: Vec<Board> = crate::engine::bench::POSITIONS
            .iter()
            .filter_map(|f| Board::from_fen(f).ok())
            .collect();
        let mut rng = Rng::new(12345);
        for _ in 0..games {
            let mut b = Board::startpos();
            for _ in 0..160 {
                let moves = b.legal_moves();
                if moves.is_empty() || b.halfmove_clock() >= 100 {
                    break;
                }
                // Prefer captures now and then, so material comes off.
                let caps: Vec<_> = moves.iter().copied().filter(|&m| b.is_capture(m)).collect();
                let mv = if !caps.is_empty() && rng.next_u64().is_multiple_of(3) {
                    caps[(rng.next_u64() % caps.len() as u64) as usize]
                } else {
                    moves[(rng.next_u64() % moves.len() as u64) as usize]
                };
                b.make(mv);
                out.push(Board::from_fen(&b.to_fen()).expect("own FEN"));
            }
        }
        out
    }

    #[test]
    fn the_model_is_the_evaluation() {
        let p = rounded(&initial_params());
        let mut data = Dataset::default();
        let boards = positions(40);
        for b in &boards {
            data.push(&features(b), 0.5);
        }
        let (mut scored, mut drawish, mut bishops) = (0, 0, 0);
        let mut safe_checks = [0; ATTACK_KINDS];
        for (b, e) in boards.iter().zip(&data.entries) {
            let white = eval::trace(b).white_score;
            assert_eq!(
                forward_exact(e, data.coefs_of(e), &p),
                white,
                "{}",
                b.to_fen()
            );
            let f = forward(e, data.coefs_of(e), &initial_params()).0;
            assert!(
                (f - white as f64).abs() <= 2.0,
                "{} {f} {white}",
                b.to_fen()
            );
            scored += e.king.iter().filter(|k| k.scored).count();
            for k in e.king.iter().filter(|k| k.scored) {
                for (n, &h) in safe_checks.iter_mut().zip(&k.hits[SAFE_CHECKS..]) {
                    *n += (h > 0) as usize;
                }
            }
            drawish += e.scale.contains(&ScaleKind::Drawish) as usize;
            bishops += e.scale.contains(&ScaleKind::OppositeBishops) as usize;
        }
        assert!(boards.len() > 3000, "{}", boards.len());
        // The non-linear parts were exercised.
        assert!(scored > 50 && drawish > 5, "{scored} {drawish} {bishops}");
        assert!(safe_checks.iter().all(|&n| n > 10), "{safe_checks:?}");
    }

    #[test]
    fn fitted_k_recovers_a_known_curve() {
        // Results drawn so that P(White wins) = sigmoid(K * eval), K = 0.01.
        let mut data = Dataset::default();
        let mut rng = Rng::new(99);
        let queen = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let f = features(&queen);
        let eval = forward(&data_entry(&f), &f.coefs, &initial_params()).0;
        let target = sigmoid(0.01 * eval);
        let pawn = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let fp = features(&pawn);
        let eval_p = forward(&data_entry(&fp), &fp.coefs, &initial_params()).0;
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

    fn data_entry(f: &Features) -> Entry {
        Entry {
            first: 0,
            len: f.coefs.len() as u16,
            phase: f.phase,
            king: f.king,
            scale: f.scale,
            mopup: f.mopup,
            result: 0.5,
            score: f32::NAN,
        }
    }

    #[test]
    fn gradient_matches_finite_differences_and_a_step_lowers_the_error() {
        let boards = positions(10);
        let mut data = Dataset::default();
        let mut rng = Rng::new(5);
        for b in &boards {
            // Results loosely tied to the evaluation, with noise.
            let e = eval::trace(b).white_score;
            let r = match (rng.next_u64() % 4, e) {
                (0, _) => 0.5,
                (_, e) if e > 50 => 1.0,
                (_, e) if e < -50 => 0.0,
                _ => 0.5,
            };
            data.push(&features(b), r);
        }
        let k = 0.006;
        let p = initial_params();
        let (err, grad) = gradient(&data, None, &p, k, 2);
        let check = [
            2 * (params::PIECE_VALUE + kind_index(P)),
            2 * (params::MOBILITY_KNIGHT + 5) + 1,
            2 * (params::MOBILITY_QUEEN + 14),
            2 * (params::KNIGHT_PST + 21),
            2 * (params::KING_PST + 6) + 1,
            2 * params::TEMPO,
            X_ATTACK_SCALE,
            X_DRAWISH,
        ];
        // Every king-attack unit, safe checks included.
        let units = X_UNITS..X_UNITS + ATTACK_FEATURES;
        for i in check.into_iter().chain(units.clone()) {
            let h = 1e-3;
            let mut up = p.clone();
            up[i] += h;
            let mut down = p.clone();
            down[i] -= h;
            let numeric = (error(&data, &up, k, 1) - error(&data, &down, k, 1)) / (2.0 * h);
            let scale = numeric.abs().max(grad[i].abs()).max(1e-9);
            assert!(
                (numeric - grad[i]).abs() / scale < 0.05 || (numeric - grad[i]).abs() < 1e-9,
                "param {i}: analytic {} numeric {numeric}",
                grad[i]
            );
        }
        // The data exercised them: none of their gradients is zero.
        for i in units {
            assert!(grad[i] != 0.0, "param {i}: no gradient");
        }
        let mut q = p.clone();
        let mut adam = Adam::new(DEFAULT_LR, data.movable(1));
        adam.step(&mut q, &grad);
        let after = error(&data, &q, k, 1);
        assert!(after < err, "{after} >= {err}");
        for i in 0..N_PARAMS {
            if is_frozen(i) {
                assert_eq!(q[i], p[i]);
            }
        }
    }

    #[test]
    fn unchanged_weights_rewrite_to_the_same_file() {
        let p = rounded(&initial_params());
        assert_eq!(weights_file(&p, &[]).unwrap(), WEIGHTS_SOURCE);
        assert!(changes(&p, &p, &[]).is_empty());
    }

    #[test]
    fn changed_weights_are_written_and_recentred() {
        let mut p = rounded(&initial_params());
        p[2 * params::TEMPO] = 17;
        p[2 * (params::PASSED_PAWN + 6) + 1] = 133;
        p[2 * (params::KNIGHT_PST + 19)] += 64;
        p[2 * (params::PAWN_PST + 8) + 1] += 8;
        p[2 * (params::KING_PST + 6)] += 128;
        p[X_ATTACK_CAP] = 555;
        p[X_UNITS] = 9;
        p[X_UNITS + SAFE_CHECKS + 3] = 11;
        let text = weights_file(&p, &[]).unwrap();
        let has = |line: String| assert!(text.contains(&line), "missing: {line}");
        has(format!(
            "pub const TEMPO: Score = Score(17, {});",
            w::TEMPO.eg()
        ));
        has(format!("    Score({}, 133),", w::PASSED_PAWN[6].mg()));
        // Without usage counts the tables are written as they are...
        let (plain, _) = named_values(&p, &[]);
        assert_eq!(plain["KNIGHT_PST"][19], w::KNIGHT_PST[19] + Score(64, 0));
        assert_eq!(plain["PIECE_VALUE"], w::PIECE_VALUE.to_vec());
        // ...with them (here every square of the knight's and king's
        // tables used once, the pawn's rank 2 only, no mobility entry) each
        // table is shifted to a zero mean and the piece's value takes it.
        let mut uses = vec![0u64; SLOTS];
        for i in (params::KNIGHT_PST..params::KNIGHT_PST + 64)
            .chain(params::KING_PST..params::KING_PST + 64)
            .chain(params::PAWN_PST + 8..params::PAWN_PST + 16)
        {
            uses[i] = 1;
        }
        let (scores, _) = named_values(&p, &uses);
        let slot = |s: usize| Score(p[2 * s], p[2 * s + 1]);
        let mean = |first: usize, n: usize| {
            let t = (first..first + n).fold(Score(0, 0), |a, s| a + slot(s));
            Score(
                centre_shift(t.mg(), n as i32),
                centre_shift(t.eg(), n as i32),
            )
        };
        let (knight_shift, pawn_shift, king_shift) = (
            mean(params::KNIGHT_PST, 64),
            mean(params::PAWN_PST + 8, 8),
            mean(params::KING_PST, 64),
        );
        assert_ne!(knight_shift, Score(0, 0));
        for sq in 0..64 {
            let knights = &scores["KNIGHT_PST"];
            assert_eq!(
                knights[sq],
                slot(params::KNIGHT_PST + sq) - knight_shift,
                "{sq}"
            );
            let kings = &scores["KING_PST"];
            assert_eq!(kings[sq], slot(params::KING_PST + sq) - king_shift, "{sq}");
        }
        let pawns = &scores["PAWN_PST"];
        for (sq, &pawn) in pawns.iter().enumerate().take(56).skip(8) {
            assert_eq!(pawn, slot(params::PAWN_PST + sq) - pawn_shift, "{sq}");
        }
        assert_eq!(pawns[0], w::PAWN_PST[0], "rank 1 is left alone");
        assert_eq!(pawns[56], w::PAWN_PST[56], "rank 8 is left alone");
        let mobility = &scores["MOBILITY_KNIGHT"];
        assert_eq!(mobility, &w::MOBILITY_KNIGHT.to_vec(), "unused: unshifted");
        let values = &scores["PIECE_VALUE"];
        let value = |kind| w::PIECE_VALUE[kind_index(kind)];
        assert_eq!(values[kind_index(KNIGHT)], value(KNIGHT) + knight_shift);
        assert_eq!(values[kind_index(P)], value(P) + pawn_shift);
        assert_eq!(values[kind_index(KING)], value(KING), "the king's cancels");
        assert_eq!(
            values[kind_index(ROOK)],
            value(ROOK) + mean(params::ROOK_PST, 64)
        );
        has("pub const KING_ATTACK_CAP: i32 = 555;".to_string());
        let mut units = w::KING_ATTACK_UNITS;
        units[1] = 9;
        has(format!(
            "pub const KING_ATTACK_UNITS: [i32; 6] = {units:?};"
        ));
        let mut check_units = w::KING_SAFE_CHECK_UNITS;
        check_units[4] = 11;
        has(format!(
            "pub const KING_SAFE_CHECK_UNITS: [i32; 6] = {check_units:?};"
        ));
        let changed = changes(&rounded(&initial_params()), &p, &[]);
        let tempo = format!(
            "TEMPO: ({}, {}) -> (17, {})",
            w::TEMPO.mg(),
            w::TEMPO.eg(),
            w::TEMPO.eg()
        );
        assert!(changed.contains(&tempo), "{changed:?}");
        // A missing constant is an error, not a silent skip.
        let (scores, ints) = named_values(&p, &[]);
        assert!(
            rewrite_weights("pub const TEMPO: Score = Score(1, 2);\n", &scores, &ints).is_err()
        );
    }

    #[test]
    fn usage_weighted_recentring_keeps_the_evaluation() {
        // Usage counts from real positions: every piece-square and mobility
        // table is shifted to a zero mean weighted by them, the shift going
        // into the piece's value, so the model's evaluation of every
        // position is unchanged, and a second re-centring changes nothing.
        let boards = positions(40);
        let mut data = Dataset::default();
        for b in &boards {
            data.push(&features(b), 0.5);
        }
        let uses = data.uses().to_vec();
        assert_eq!(uses.len(), SLOTS);
        let p = rounded(&initial_params());
        let (scores, _) = named_values(&p, &uses);
        let mut q = p.clone();
        for prm in params::PARAMS {
            for (i, v) in scores[prm.name].iter().enumerate() {
                q[2 * (prm.offset + i)] = v.mg();
                q[2 * (prm.offset + i) + 1] = v.eg();
            }
        }
        assert_ne!(p, q, "the starting tables are not centred by usage");
        for e in &data.entries {
            let coefs = data.coefs_of(e);
            assert_eq!(forward_exact(e, coefs, &p), forward_exact(e, coefs, &q));
        }
        let centred = slot_scores(&q);
        for (table, len, _) in MOBILITY_TABLES {
            let mean = weighted_shift(&centred, &uses, table..table + len);
            assert_eq!(mean, Some(Score(0, 0)));
        }
        let (again, _) = named_values(&q, &uses);
        assert_eq!(again, scores, "re-centring twice changes nothing");
    }

    #[test]
    fn lines_in_every_format() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (line, r) in [
            (format!("{start};1.0"), 1.0),
            (format!("{start};0.5"), 0.5),
            (format!("{start} [0.0]"), 0.0),
            (format!("{start} [1-0]"), 1.0),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";".to_string(),
                0.5,
            ),
        ] {
            let (b, got) = parse_line(&line).unwrap().unwrap();
            assert_eq!(got, r, "{line}");
            assert_eq!(b.hash(), Board::startpos().hash());
        }
        assert_eq!(parse_line("  ").unwrap().map(|x| x.1), None);
        assert_eq!(parse_line("# note").unwrap().map(|x| x.1), None);
        assert!(parse_line(start).is_err());
        assert_eq!(
            parse_line(&format!("{start};0.75")).unwrap().map(|x| x.1),
            Some(0.75)
        );
        assert!(parse_line(&format!("{start};1.5")).is_err());
        assert!(parse_line(&format!("{start};")).is_err());
        assert!(parse_line("not a fen;1.0").is_err());
    }

    #[test]
    fn loading_filters_loud_positions() {
        let text = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5
rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3;0.5
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3;0.0
garbage;1.0
";
        let (data, stats, err) = load(text, true, usize::MAX, 2);
        assert_eq!(stats.lines, 4);
        assert_eq!(stats.unreadable, 1);
        assert_eq!(stats.in_check, 1);
        assert_eq!(stats.not_quiet, 1, "exd4 wins the queen");
        assert_eq!(data.len(), 1);
        assert!(err.is_some());
        let (all, stats, _) = load(text, false, usize::MAX, 1);
        assert_eq!((all.len(), stats.kept), (3, 3));
    }

    #[test]
    fn a_split_keeps_every_position_whole() {
        let boards = positions(1);
        let mut data = Dataset::default();
        for b in &boards {
            data.push(&features(b), 0.5);
        }
        let p = initial_params();
        let evals = |d: &Dataset| -> Vec<f64> {
            d.entries
                .iter()
                .map(|e| forward(e, d.coefs_of(e), &p).0)
                .collect()
        };
        let all = evals(&data);
        let tail = data.split_tail(50);
        assert_eq!((data.len(), tail.len()), (boards.len() - 50, 50));
        assert_eq!([evals(&data), evals(&tail)].concat(), all);
        assert_eq!(data.coefs.len() + tail.coefs.len(), {
            let mut d = Dataset::default();
            boards.iter().for_each(|b| d.push(&features(b), 0.5));
            d.coefs.len()
        });
    }

    #[test]
    fn result_and_score_blend() {
        assert_eq!(
            line_score("8/8/8/8/8/8/8/K1k5 w - - 0 1;0.5;-37"),
            Some(-37)
        );
        assert_eq!(line_score("8/8/8/8/8/8/8/K1k5 w - - 0 1;0.5"), None);
        assert_eq!(line_score("8/8/8/8/8/8/8/K1k5 w - - 0 1 [0.5]"), None);
        let b = Board::startpos();
        let mut data = Dataset::default();
        data.push_scored(&features(&b), 1.0, Some(0));
        data.push_scored(&features(&b), 0.0, Some(30_000));
        data.push_scored(&features(&b), 0.5, None);
        let (mixed, scored) = data.blended(0.25, 0.01);
        assert_eq!(scored, 2);
        let r: Vec<f32> = mixed.entries.iter().map(|e| e.result).collect();
        // 0.25 * 1 + 0.75 * 0.5; 0.25 * 0 + 0.75 * sigmoid(20): a mate
        // clamped to 2000 cp; no score: the result.
        assert!((r[0] - 0.625).abs() < 1e-6, "{r:?}");
        assert!((r[1] - 0.75).abs() < 1e-3, "{r:?}");
        assert_eq!(r[2], 0.5);
        let (same, _) = data.blended(1.0, 0.01);
        assert_eq!(same.entries[1].result, 0.0);
    }

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
