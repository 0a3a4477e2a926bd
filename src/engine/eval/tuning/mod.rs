//! The evaluation as the tuner sees it: the one interface through which
//! the lab's tuner (`cavalier tune`, feature `lab`) reads and rewrites the
//! evaluation. Compiled only with that feature.
//!
//! The evaluation is a function of its weights. Most of it is linear: a
//! position's middlegame and endgame sums are every weight of `weights.rs`
//! times how often the position uses it, White's count minus Black's (the
//! weight's *slot* and its *coefficient*). The rest is not: the king's
//! danger from an attack's units, the blend by phase, the endgame scale
//! and the mop-up bonus. This interface gives the tuner
//!
//! - the **values** it may move, as one vector of reals ([`VALUES`] long,
//!   [`initial`] as built): both halves of every slot, then the attack's
//!   units, scale and cap and the two endgame scale factors; which values
//!   must stay as they are ([`is_frozen`]), which slot a value belongs to
//!   ([`slot_of`]) and their meaningful ranges ([`clamp`]);
//! - the **features** of a position ([`features`]): the coefficients,
//!   traced from the evaluation itself, and the [`Shape`] (phase, king
//!   attacks, which scale applies, the mop-up) that the non-linear steps
//!   need;
//! - the **evaluation as a function of the values**: [`exact`] with
//!   integer values and the engine's integer arithmetic (with the values as
//!   built, exactly what the engine plays with), [`forward`] in reals for
//!   the fit, and [`backward`], its gradient. The non-linear steps are
//!   the evaluation's own functions, written once for integers and reals,
//!   never re-written here;
//! - the **source**: [`weights_file`], a complete `weights.rs` holding
//!   given values, and [`changes`], the weights they change.
//!
//! A test checks that [`exact`], with the values as built, is the
//! evaluation of thousands of positions, so a term added to the
//! evaluation without its trace cannot pass unseen.

mod model;
mod source;

pub use model::{backward, exact, forward, Forward};
pub use source::{changes, weights_file};

use super::mopup::mopup;
use super::scale::{scale_kind, ScaleKind, SCALE_ONE};
use super::slots as ix;
use super::trace::Tracer;
use super::weights as w;
use crate::chess::board::Board;
use crate::chess::types::{kind_index, Color, KING};

/// Number of slots: the linear weights. A feature's coefficients and the
/// tuner's usage counts are by slot.
pub const SLOTS: usize = ix::SLOTS;

/// Kinds that have king-attack units: knight, bishop, rook, queen.
const ATTACK_KINDS: usize = 4;
/// Kind index of the first of them (knight).
const FIRST_ATTACKER: usize = 1;
/// What a king attack counts: zone hits by kind (`KING_ATTACK_UNITS`),
/// then safe checks by kind (`KING_SAFE_CHECK_UNITS`).
const ATTACK_FEATURES: usize = 2 * ATTACK_KINDS;
/// Where the safe checks begin among them.
const SAFE_CHECKS: usize = ATTACK_KINDS;

/// The values, one vector: `2 * slot` and `2 * slot + 1` are a slot's
/// middlegame and endgame parts, then the plain integers below: first the
/// units of each attack feature (`KING_ATTACK_UNITS`, then
/// `KING_SAFE_CHECK_UNITS`, knight to queen).
const X_UNITS: usize = 2 * SLOTS;
/// `KING_ATTACK_SCALE`.
const X_ATTACK_SCALE: usize = X_UNITS + ATTACK_FEATURES;
/// `KING_ATTACK_CAP`.
const X_ATTACK_CAP: usize = X_ATTACK_SCALE + 1;
/// `DRAWISH_SCALE`.
const X_DRAWISH: usize = X_ATTACK_CAP + 1;
/// `OPPOSITE_BISHOPS_SCALE`.
const X_OPPOSITE_BISHOPS: usize = X_DRAWISH + 1;
/// Length of the vector of values.
pub const VALUES: usize = X_OPPOSITE_BISHOPS + 1;

/// The values as built.
pub fn initial() -> Vec<f64> {
    let mut p = Vec::with_capacity(VALUES);
    for weight in ix::WEIGHTS {
        for s in weight.values {
            p.push(s.mg() as f64);
            p.push(s.eg() as f64);
        }
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
    debug_assert_eq!(p.len(), VALUES);
    p
}

/// The slot value `index` is a half of, or `None` for the plain integers
/// after the slots.
pub fn slot_of(index: usize) -> Option<usize> {
    (index < X_UNITS).then_some(index / 2)
}

/// Mobility entries held at zero, one per table (the count the entry is
/// for): a constant per piece would be the piece's value over again.
const MOBILITY_ZEROS: [usize; 4] = [
    ix::MOBILITY_KNIGHT + 4,
    ix::MOBILITY_BISHOP + 6,
    ix::MOBILITY_ROOK + 6,
    ix::MOBILITY_QUEEN + 12,
];

/// Pawn weights by relative rank: their first and last entries are never
/// counted (no pawn stands there).
const BY_PAWN_RANK: [usize; 4] = [
    ix::CONNECTED_PAWN,
    ix::PASSED_PAWN,
    ix::PASSED_FREE,
    ix::PASSED_SAFE,
];

/// Values a fit must leave alone: the king's piece value (each side has
/// one king: it cancels), the pawn table's first and last ranks and the
/// first and last entries of the other pawn tables by rank (no pawn stands
/// there), and one entry of each mobility table (`MOBILITY_ZEROS`).
/// The constant part of each piece-square table is free but re-centred
/// into the piece's value on output (see [`weights_file`]).
pub fn is_frozen(index: usize) -> bool {
    let Some(slot) = slot_of(index) else {
        return false;
    };
    slot == ix::PIECE_VALUE + kind_index(KING)
        || (ix::PAWN_PST..ix::PAWN_PST + 8).contains(&slot)
        || (ix::PAWN_PST + 56..ix::PAWN_PST + 64).contains(&slot)
        || MOBILITY_ZEROS.contains(&slot)
        || BY_PAWN_RANK
            .iter()
            .any(|&first| slot == first || slot == first + 7)
}

/// Keeps the plain integers in their meaningful ranges: units, the
/// attack's scale and cap not negative, scale factors within 0 ..= 64.
pub fn clamp(p: &mut [f64]) {
    for u in &mut p[X_UNITS..X_UNITS + ATTACK_FEATURES] {
        *u = u.max(0.0);
    }
    p[X_ATTACK_SCALE] = p[X_ATTACK_SCALE].max(0.0);
    p[X_ATTACK_CAP] = p[X_ATTACK_CAP].max(0.0);
    let one = f64::from(SCALE_ONE);
    p[X_DRAWISH] = p[X_DRAWISH].clamp(0.0, one);
    p[X_OPPOSITE_BISHOPS] = p[X_OPPOSITE_BISHOPS].clamp(0.0, one);
}

/// One side's attack on the enemy king as the evaluation saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct KingAttack {
    /// King-zone squares hit by knights, bishops, rooks, queens, then safe
    /// checks by knights, bishops, rooks, queens.
    hits: [u8; ATTACK_FEATURES],
    /// Whether the attack is scored (two attackers and a queen).
    scored: bool,
}

/// What of a position the non-linear steps need: small, to be kept per
/// position by the tuner and handed back to [`exact`], [`forward`] and
/// [`backward`].
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Game phase, 0 ..= `PHASE_TOTAL`.
    phase: u8,
    /// By attacking colour (White, Black).
    king: [KingAttack; 2],
    /// The scale factor when White is ahead (or level), when Black is.
    scale: [ScaleKind; 2],
    /// The untuned mop-up bonus when White is ahead (or level), when Black
    /// is: a constant added after scaling.
    mopup: [i16; 2],
}

/// The traced evaluation of one position.
#[derive(Clone, Debug)]
pub struct Features {
    /// (slot, White's count minus Black's), the non-zero ones.
    pub coefs: Vec<(u16, i16)>,
    /// (slot, White's count plus Black's), the non-zero ones: how often
    /// each weight is used, whatever the side.
    pub uses: Vec<(u16, u16)>,
    /// The rest, for the non-linear steps.
    pub shape: Shape,
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
    let t = super::trace_with(board, &mut c);
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
    let colors = [Color::White, Color::Black];
    Features {
        coefs,
        uses: c
            .uses
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n != 0)
            .map(|(slot, &n)| (slot as u16, n.clamp(0, u16::MAX as i32) as u16))
            .collect(),
        shape: Shape {
            phase: t.phase as u8,
            king: c.king,
            scale: colors.map(|strong| scale_kind(board, strong)),
            mopup: colors
                .map(|strong| mopup(board, strong).unwrap_or(0).clamp(0, i16::MAX as i32) as i16),
        },
    }
}

/// Positions from random games (and the bench list), for tests: varied
/// material, phases, king attacks, passed pawns and endings.
#[cfg(test)]
pub(crate) fn test_positions(games: usize) -> Vec<Board> {
    use crate::util::rng::Rng;
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
