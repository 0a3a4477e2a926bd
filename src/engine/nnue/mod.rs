//! The evaluation network as the engine runs it (`Use NNUE`): 768 inputs
//! per view into `hidden` units, the two views' units through SCReLU into
//! one output, in integers.
//!
//! - this file: the inputs ([`feature`]), the network's integers
//!   ([`Network`]), the reading of its file (the lab's trainer writes it)
//!   and the embedded network;
//! - `accumulator`: each view's first-layer sums by ply of the search,
//!   brought up to date from the moves played when a position is
//!   evaluated;
//! - `output`: SCReLU and the output layer, portable and AVX2.
//!
//! The file (little-endian; docs/network.md):
//!
//! ```text
//! "CAVNNUE1"        8 bytes
//! hidden            u32 (a multiple of 16, 16..=1024)
//! scale             u32 (centipawns per output unit, 1..=10000)
//! w1                768 x hidden i16, one input's weights together (x QA)
//! b1                hidden i16 (x QA)
//! w2                2 x hidden i16, the side to move's first (x QB, within
//!                   +-128)
//! b2                i32 (x QA x QB)
//! check             u64, FNV-1a of every byte before it
//! ```
//!
//! Arithmetic: a view's sums are i16 (wrapping); each unit is clamped to
//! [0, QA] and squared; the output is `(sum of v x v x w2) / QA + b2`, the
//! float network's output times `QA x QB`, and times `scale / (QA x QB)`
//! the evaluation in centipawns for the side to move.

mod accumulator;
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
/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"CAVNNUE1";
/// Fewest and most units per view; their count is a multiple of
/// `HIDDEN_STEP` (one AVX2 register of i16).
pub const MIN_HIDDEN: usize = 16;
pub const MAX_HIDDEN: usize = 1024;
pub const HIDDEN_STEP: usize = 16;
/// Largest output weight (either sign): a unit (at most `QA`) times it
/// fits an i16, which the AVX2 output layer needs. The trainer's weight
/// clip (1.98 x `QB` = 126.7) keeps within it.
pub const MAX_OUTPUT_WEIGHT: i32 = 128;
/// Largest `scale` a file may give.
pub const MAX_SCALE: u32 = 10_000;
/// Bytes before the weights: magic, hidden, scale.
const HEADER_BYTES: usize = 16;
/// Bytes of the checksum at the end.
const CHECK_BYTES: usize = 8;

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

/// FNV-1a of `bytes`: the file's check.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What is wrong with a network file (or with the parts of a network).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Unreadable(String),
    BadMagic,
    BadHidden(u32),
    BadScale(u32),
    BadLength {
        found: usize,
        expected: usize,
    },
    Checksum,
    /// An output weight beyond `MAX_OUTPUT_WEIGHT`.
    OutputWeight(i16),
    /// Parts whose sizes do not agree with `hidden`.
    Sizes,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Unreadable(e) => write!(f, "cannot read it: {e}"),
            NetworkError::BadMagic => write!(f, "not a cavalier network (bad magic)"),
            NetworkError::BadHidden(h) => write!(
                f,
                "bad hidden size {h} (a multiple of {HIDDEN_STEP}, {MIN_HIDDEN}..={MAX_HIDDEN})"
            ),
            NetworkError::BadScale(s) => write!(f, "bad scale {s} (1..={MAX_SCALE})"),
            NetworkError::BadLength { found, expected } => write!(
                f,
                "{found} bytes where a network of its hidden size has {expected}"
            ),
            NetworkError::Checksum => write!(f, "checksum mismatch (damaged file)"),
            NetworkError::OutputWeight(w) => {
                write!(f, "output weight {w} beyond +-{MAX_OUTPUT_WEIGHT}")
            }
            NetworkError::Sizes => write!(f, "parts of the wrong sizes"),
        }
    }
}

/// A network in integers, checked: its parts have the sizes `hidden` says
/// and its output weights are within `MAX_OUTPUT_WEIGHT`.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    scale: i32,
    /// `INPUTS x hidden`, one input's weights together.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// `2 x hidden`: the side to move's units first.
    w2: Vec<i16>,
    b2: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS} -> {}x2 -> 1)", self.hidden)
    }
}

/// Reads the little-endian u32 at `at` (the caller checked the length).
fn word(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

impl Network {
    /// A network of these parts, or what is wrong with them.
    pub fn new(
        hidden: usize,
        scale: i32,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: i32,
    ) -> Result<Network, NetworkError> {
        if !(MIN_HIDDEN..=MAX_HIDDEN).contains(&hidden) || !hidden.is_multiple_of(HIDDEN_STEP) {
            return Err(NetworkError::BadHidden(hidden as u32));
        }
        if !(1..=MAX_SCALE as i32).contains(&scale) {
            return Err(NetworkError::BadScale(scale as u32));
        }
        if w1.len() != INPUTS * hidden || b1.len() != hidden || w2.len() != 2 * hidden {
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
        })
    }

    /// Reads a network file's bytes, or says what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let hidden = word(bytes, 8);
        let scale = word(bytes, 12);
        let h = hidden as usize;
        if !(MIN_HIDDEN..=MAX_HIDDEN).contains(&h) || !h.is_multiple_of(HIDDEN_STEP) {
            return Err(NetworkError::BadHidden(hidden));
        }
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(NetworkError::BadScale(scale));
        }
        let shorts = (INPUTS + 1 + 2) * h;
        let expected = HEADER_BYTES + 2 * shorts + 4 + CHECK_BYTES;
        if bytes.len() != expected {
            return Err(NetworkError::BadLength {
                found: bytes.len(),
                expected,
            });
        }
        let body = expected - CHECK_BYTES;
        let mut check = [0u8; CHECK_BYTES];
        check.copy_from_slice(&bytes[body..]);
        if fnv1a(&bytes[..body]) != u64::from_le_bytes(check) {
            return Err(NetworkError::Checksum);
        }
        let mut values = bytes[HEADER_BYTES..HEADER_BYTES + 2 * shorts]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let w1 = take(INPUTS * h);
        let b1 = take(h);
        let w2 = take(2 * h);
        let b2 = word(bytes, body - 4) as i32;
        Network::new(h, scale as i32, w1, b1, w2, b2)
    }

    /// Reads the network file at `path`.
    pub fn from_file(path: &str) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError::Unreadable(e.to_string()))?;
        Network::from_bytes(&bytes)
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

    /// Output weights, `2 x hidden`, the side to move's units first.
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    pub fn b2(&self) -> i32 {
        self.b2
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
    /// given as the two views' features, the side to move's first: from
    /// scratch, portable arithmetic (the reference and the lab's).
    pub fn evaluate_features(&self, us: &[usize], them: &[usize]) -> i32 {
        let (mut a, mut b) = (vec![0i16; self.hidden], vec![0i16; self.hidden]);
        self.refresh(us, &mut a);
        self.refresh(them, &mut b);
        output::output_portable(self, &a, &b)
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

/// The network a command line names: the embedded one for `None`, else
/// the one in the file; the error says which could not be read.
pub fn load(file: Option<&str>) -> Result<Arc<Network>, String> {
    match file {
        None => embedded().map_err(|e| format!("the embedded network: {e}")),
        Some(path) => Network::from_file(path)
            .map(Arc::new)
            .map_err(|e| format!("network \"{}\": {e}", crate::util::text::quote(path))),
    }
}

#[cfg(test)]
mod tests;
