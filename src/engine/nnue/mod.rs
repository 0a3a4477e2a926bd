//! The evaluation network as the engine runs it (`Use NNUE`): 768 inputs
//! per view into `hidden` units, the two views' units through SCReLU into
//! one output, in integers. The output layer may come in up to
//! `MAX_BUCKETS` sets of weights and bias (output buckets), of which a
//! position uses the one its number of pieces picks ([`bucket`]); the
//! first layer is the same for all.
//!
//! - this file: the inputs ([`feature`]), the network's integers
//!   ([`Network`]: the engine's network, as opposed to the lab's trainer's
//!   float one, `lab::net::network::FloatNetwork`), the embedded network
//!   and the one loader of a network, embedded or from a file ([`load`]);
//! - `file`: the file's format, read and written (the lab's trainer writes
//!   through it);
//! - `accumulator`: each view's first-layer sums by ply of the search,
//!   brought up to date from the moves played when a position is
//!   evaluated;
//! - `output`: SCReLU and the output layer, portable and AVX2.
//!
//! Arithmetic: a view's sums are i16 (wrapping); each unit is clamped to
//! [0, QA] and squared; the output is `(sum of v x v x w2) / QA + b2`, the
//! float network's output times `QA x QB`, and times `scale / (QA x QB)`
//! the evaluation in centipawns for the side to move.

mod accumulator;
pub mod file;
mod output;

pub use accumulator::{Accumulators, Delta};

use crate::chess::board::Board;
use crate::chess::types::{kind_index, kind_of, Color, Piece, Square, EMPTY};
use std::fmt;
use std::sync::Arc;

/// Inputs of one view: 2 colours x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;
/// First-layer weights and biases are the float ones times this.
pub const QA: i32 = 255;
/// Output weights are the float ones times this.
pub const QB: i32 = 64;
/// Fewest and most units per view; their count is a multiple of
/// `HIDDEN_STEP` (one AVX2 register of i16): [`valid_hidden`].
pub const MIN_HIDDEN: usize = 16;
pub const MAX_HIDDEN: usize = 1024;
pub const HIDDEN_STEP: usize = 16;
/// Largest output weight (either sign): a unit (at most `QA`) times it
/// fits an i16, which the AVX2 output layer needs. The trainer's weight
/// clip (1.98 x `QB` = 126.7) keeps within it.
pub const MAX_OUTPUT_WEIGHT: i32 = 128;
/// Largest `scale` a file may give.
pub const MAX_SCALE: u32 = 10_000;
/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included)
/// in a network of `buckets` (1..=`MAX_BUCKETS`) buckets: the pieces
/// beyond the two kings, `ceil(32 / buckets)` to a bucket, and the last
/// bucket for any more. The one definition: the engine's (through
/// [`Network::bucket`]) and the trainer's.
pub const fn bucket(buckets: usize, pieces: usize) -> usize {
    let per_bucket = 32usize.div_ceil(buckets);
    let b = pieces.saturating_sub(2) / per_bucket;
    if b < buckets {
        b
    } else {
        buckets - 1
    }
}

/// Whether a network may have `hidden` units per view: the one check, of
/// the file, of a network's parts and of the trainer's `--hidden`.
pub const fn valid_hidden(hidden: usize) -> bool {
    MIN_HIDDEN <= hidden && hidden <= MAX_HIDDEN && hidden.is_multiple_of(HIDDEN_STEP)
}

/// Feature index of a piece in one view (0 White's, 1 Black's): its colour
/// relative to the view (own 0, other 1), its kind (pawn 0 .. king 5) and
/// its square (a1 = 0 .. h8 = 63), Black's view mirrored vertically. The
/// one definition, which the lab's trainer uses too.
#[inline(always)]
pub fn feature(view: u8, square: u8, colour: u8, kind: u8) -> usize {
    let (sq, rel) = if view == 0 {
        (square, colour)
    } else {
        (square ^ 56, colour ^ 1)
    };
    rel as usize * 384 + kind as usize * 64 + sq as usize
}

/// Both views' features (White's view first) of `piece` on mailbox `square`.
#[inline(always)]
pub fn piece_features(piece: Piece, square: Square) -> [u16; 2] {
    let sq = square.sq64().index() as u8;
    let colour = (piece < 0) as u8;
    let kind = kind_index(kind_of(piece)) as u8;
    [
        feature(0, sq, colour, kind) as u16,
        feature(1, sq, colour, kind) as u16,
    ]
}

/// Every piece's features of `board`, White's view first.
pub fn board_features(board: &Board) -> [Vec<usize>; 2] {
    let mut views = [Vec::with_capacity(32), Vec::with_capacity(32)];
    let mut bits = board.occupied();
    while bits != 0 {
        let sq = crate::chess::types::Sq64::new(bits.trailing_zeros() as usize).cell();
        bits &= bits - 1;
        let piece = board.at(sq);
        debug_assert!(piece != EMPTY);
        let [w, b] = piece_features(piece, sq);
        views[0].push(w as usize);
        views[1].push(b as usize);
    }
    views
}

/// What is wrong with a network file (or with the parts of a network).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read, or was refused unread (too large, not
    /// a regular file): in words, from `util::read_bounded`.
    Unreadable(String),
    BadMagic,
    BadHidden(u32),
    BadScale(u32),
    /// An output bucket count beyond 1..=`MAX_BUCKETS`.
    BadBuckets(u32),
    BadLength {
        found: usize,
        expected: usize,
    },
    Checksum,
    /// An output weight beyond `MAX_OUTPUT_WEIGHT`.
    OutputWeight(i16),
    /// Parts whose sizes do not agree with `hidden` and the buckets.
    Sizes,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Unreadable(e) => write!(f, "{e}"),
            NetworkError::BadMagic => write!(f, "not a cavalier network (bad magic)"),
            NetworkError::BadHidden(h) => write!(
                f,
                "bad hidden size {h} (a multiple of {HIDDEN_STEP}, {MIN_HIDDEN}..={MAX_HIDDEN})"
            ),
            NetworkError::BadScale(s) => write!(f, "bad scale {s} (1..={MAX_SCALE})"),
            NetworkError::BadBuckets(b) => {
                write!(f, "bad output bucket count {b} (1..={MAX_BUCKETS})")
            }
            NetworkError::BadLength { found, expected } => write!(
                f,
                "{found} bytes where a network of its hidden size and buckets has {expected}"
            ),
            NetworkError::Checksum => write!(f, "checksum mismatch (damaged file)"),
            NetworkError::OutputWeight(w) => {
                write!(f, "output weight {w} beyond +-{MAX_OUTPUT_WEIGHT}")
            }
            NetworkError::Sizes => write!(f, "parts of the wrong sizes"),
        }
    }
}

/// The engine's network, in integers (the trainer's float network rounded
/// by `QA` and `QB`), checked: its parts have the sizes `hidden` and the
/// bucket count say and its output weights are within
/// `MAX_OUTPUT_WEIGHT`. Read and written by `file`.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    scale: i32,
    /// `INPUTS x hidden`, one input's weights together.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// `buckets x 2 x hidden`, bucket by bucket; in each, the side to
    /// move's units first.
    w2: Vec<i16>,
    /// One bias per bucket.
    b2: Vec<i32>,
    /// The bucket of each number of pieces (0..=64), from [`bucket`]:
    /// a look-up where the evaluation needs it.
    bucket_of: [u8; 65],
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({})", self.shape())
    }
}

impl Network {
    /// A network of these parts, or what is wrong with them. Its output
    /// buckets are as many as its output biases (`b2`).
    pub fn new(
        hidden: usize,
        scale: i32,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        if !valid_hidden(hidden) {
            return Err(NetworkError::BadHidden(hidden as u32));
        }
        if !(1..=MAX_SCALE as i32).contains(&scale) {
            return Err(NetworkError::BadScale(scale as u32));
        }
        let buckets = b2.len();
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetworkError::BadBuckets(buckets as u32));
        }
        if w1.len() != INPUTS * hidden || b1.len() != hidden || w2.len() != buckets * 2 * hidden {
            return Err(NetworkError::Sizes);
        }
        if let Some(&w) = w2.iter().find(|&&w| (w as i32).abs() > MAX_OUTPUT_WEIGHT) {
            return Err(NetworkError::OutputWeight(w));
        }
        Ok(Network {
            hidden,
            scale,
            w1,
            b1,
            w2,
            b2,
            bucket_of: std::array::from_fn(|n| bucket(buckets, n) as u8),
        })
    }

    /// Units per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Centipawns per output unit.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// First-layer weights, `INPUTS x hidden`, one input's together.
    pub fn w1(&self) -> &[i16] {
        &self.w1
    }

    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// The layers in words: `768 -> 256x2 -> 1`, and the output buckets
    /// when there are several.
    pub fn shape(&self) -> String {
        let layers = format!("{INPUTS} -> {}x2 -> 1", self.hidden);
        match self.buckets() {
            1 => layers,
            b => format!("{layers} ({b} output buckets)"),
        }
    }

    /// Output buckets: sets of output weights and bias.
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// Output weights, `buckets x 2 x hidden`, bucket by bucket, the side
    /// to move's units first in each.
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    /// Output biases, one per bucket.
    pub fn b2(&self) -> &[i32] {
        &self.b2
    }

    /// The output bucket of a position of `pieces` pieces.
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        self.bucket_of[pieces.min(64)] as usize
    }

    /// The output bucket of `board`.
    #[inline(always)]
    pub fn bucket_of_board(&self, board: &Board) -> usize {
        self.bucket(board.occupied().count_ones() as usize)
    }

    /// The first-layer weights of input `f`.
    #[inline(always)]
    fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// A view's sums from scratch, from its active features.
    pub fn refresh(&self, features: &[usize], sums: &mut [i16]) {
        sums.copy_from_slice(&self.b1);
        for &f in features {
            sums.iter_mut()
                .zip(self.row(f))
                .for_each(|(s, &w)| *s = s.wrapping_add(w));
        }
    }

    /// The evaluation (centipawns, side to move's view) of a position
    /// given as the two views' features, the side to move's first (one
    /// feature a piece, so their count picks the bucket): from scratch,
    /// portable arithmetic (the reference and the lab's).
    pub fn evaluate_features(&self, us: &[usize], them: &[usize]) -> i32 {
        let (mut a, mut b) = (vec![0i16; self.hidden], vec![0i16; self.hidden]);
        self.refresh(us, &mut a);
        self.refresh(them, &mut b);
        output::output_portable(self, self.bucket(us.len()), &a, &b)
    }

    /// The evaluation of `board` (centipawns, side to move's view) from
    /// scratch: what the search's incremental sums must give.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let [white, black] = board_features(board);
        if board.side_to_move() == Color::White {
            self.evaluate_features(&white, &black)
        } else {
            self.evaluate_features(&black, &white)
        }
    }
}

/// Whether two choices of evaluation (`None`: the hand-written one) are
/// the same: the same network, not merely equal weights.
pub fn same_network(a: Option<&Arc<Network>>, b: Option<&Arc<Network>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => false,
    }
}

/// Whether the network evaluates by default (UCI `Use NNUE`, `cavalier
/// bench`): yes since the embedded network beat the hand-written
/// evaluation on the clock (STRENGTH.md's SPRT log).
pub const USE_BY_DEFAULT: bool = true;

/// The network built into the binary (`src/engine/nnue/default.nnue`; its
/// provenance is in `default.txt` beside it), read once.
pub fn embedded() -> Result<Arc<Network>, NetworkError> {
    static BYTES: &[u8] = include_bytes!("default.nnue");
    static NET: once_cell::sync::Lazy<Result<Arc<Network>, NetworkError>> =
        once_cell::sync::Lazy::new(|| Network::from_bytes(BYTES).map(Arc::new));
    NET.clone()
}

/// Where a network comes from: the one built into the binary, or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSource {
    Embedded,
    File(String),
}

/// The name of the embedded network wherever a file name may be given
/// (`EvalFile`'s default; `--net <embedded>` on a command line).
pub const EMBEDDED_NAME: &str = "<embedded>";

impl NetSource {
    /// The source a name gives: the embedded network for nothing (an empty
    /// `EvalFile`) or [`EMBEDDED_NAME`], else the file of that name.
    pub fn named(name: &str) -> NetSource {
        match name.trim() {
            "" | EMBEDDED_NAME => NetSource::Embedded,
            path => NetSource::File(path.to_string()),
        }
    }
}

impl fmt::Display for NetSource {
    /// `<embedded>`, or the file's name quoted (shortened when long).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetSource::Embedded => f.write_str(EMBEDDED_NAME),
            NetSource::File(path) => write!(f, "\"{}\"", crate::util::text::quote(path)),
        }
    }
}

/// The network of `source`: the one loader of a network, for `EvalFile`,
/// `cavalier bench --net` and the lab (selfplay, `net train --init`, `net
/// eval`). The error names the source: `network "FILE": what is wrong`.
pub fn load(source: &NetSource) -> Result<Arc<Network>, String> {
    match source {
        NetSource::Embedded => embedded(),
        NetSource::File(path) => Network::from_file(path).map(Arc::new),
    }
    .map_err(|e| format!("network {source}: {e}"))
}

#[cfg(test)]
mod tests;
