//! Every middlegame/endgame weight of `weights.rs` as a slot in one
//! vector, so that the evaluation can say how many times it added each one
//! (see [`super::trace::Tracer`]) and the tuner can vary them all
//! ([`super::tuning`], with the feature `lab`).
//!
//! A weight array takes one slot per element: slot `PASSED_PAWN + 4` is
//! `PASSED_PAWN[4]`. The layout follows the order of `weights.rs`. The few
//! plain integers of the evaluation (king-attack units, scale and cap, the
//! endgame scale factors) are not slots: the evaluation is not linear in
//! them, and the tuning interface handles them by name.
//!
//! (The search's parameters are another thing: `engine::params`.)

use super::weights as w;
#[cfg(any(test, feature = "lab"))]
use super::weights::Score;

/// One named weight (or weight array) of `weights.rs` and where its slots
/// begin.
#[cfg(any(test, feature = "lab"))]
#[derive(Clone, Copy, Debug)]
pub(super) struct Weight {
    /// Its name in `weights.rs`.
    pub(super) name: &'static str,
    /// First slot.
    pub(super) first: usize,
    /// Current values (one per slot).
    pub(super) values: &'static [Score],
}

macro_rules! layout {
    ($($name:ident => $values:expr),* $(,)?) => {
        layout!(@offsets 0usize; $($name => $values),*);
        /// Every weight, in slot order.
        #[cfg(any(test, feature = "lab"))]
        pub(super) const WEIGHTS: &[Weight] = &[
            $(Weight { name: stringify!($name), first: $name, values: &$values }),*
        ];
    };
    (@offsets $at:expr; $name:ident => $values:expr $(, $rest:ident => $rvalues:expr)*) => {
        #[doc = concat!("First slot of `weights::", stringify!($name), "`.")]
        pub(super) const $name: usize = $at;
        layout!(@offsets $name + $values.len(); $($rest => $rvalues),*);
    };
    (@offsets $at:expr;) => {
        /// Number of slots.
        #[cfg(any(test, feature = "lab"))]
        pub(super) const SLOTS: usize = $at;
    };
}

layout! {
    PIECE_VALUE => w::PIECE_VALUE,
    PAWN_PST => w::PAWN_PST,
    KNIGHT_PST => w::KNIGHT_PST,
    BISHOP_PST => w::BISHOP_PST,
    ROOK_PST => w::ROOK_PST,
    QUEEN_PST => w::QUEEN_PST,
    KING_PST => w::KING_PST,
    MOBILITY_KNIGHT => w::MOBILITY_KNIGHT,
    MOBILITY_BISHOP => w::MOBILITY_BISHOP,
    MOBILITY_ROOK => w::MOBILITY_ROOK,
    MOBILITY_QUEEN => w::MOBILITY_QUEEN,
    DOUBLED_PAWN => [w::DOUBLED_PAWN],
    ISOLATED_PAWN => [w::ISOLATED_PAWN],
    BACKWARD_PAWN => [w::BACKWARD_PAWN],
    CONNECTED_PAWN => w::CONNECTED_PAWN,
    PASSED_PAWN => w::PASSED_PAWN,
    PASSED_FREE => w::PASSED_FREE,
    PASSED_SAFE => w::PASSED_SAFE,
    PASSED_KING_DISTANCE_THEIRS => [w::PASSED_KING_DISTANCE_THEIRS],
    PASSED_KING_DISTANCE_OURS => [w::PASSED_KING_DISTANCE_OURS],
    BISHOP_PAIR => [w::BISHOP_PAIR],
    BISHOP_PAWNS => [w::BISHOP_PAWNS],
    ROOK_OPEN_FILE => [w::ROOK_OPEN_FILE],
    ROOK_HALF_OPEN_FILE => [w::ROOK_HALF_OPEN_FILE],
    KNIGHT_OUTPOST => [w::KNIGHT_OUTPOST],
    BISHOP_OUTPOST => [w::BISHOP_OUTPOST],
    MINOR_BEHIND_PAWN => [w::MINOR_BEHIND_PAWN],
    KING_PROTECTOR => [w::KING_PROTECTOR],
    SPACE => [w::SPACE],
    LONG_DIAGONAL_BISHOP => [w::LONG_DIAGONAL_BISHOP],
    BISHOP_ON_KING_RING => [w::BISHOP_ON_KING_RING],
    ROOK_ON_KING_RING => [w::ROOK_ON_KING_RING],
    TRAPPED_ROOK => [w::TRAPPED_ROOK],
    ROOK_ON_QUEEN_FILE => [w::ROOK_ON_QUEEN_FILE],
    QUEEN_INFILTRATION => [w::QUEEN_INFILTRATION],
    CORNERED_BISHOP => [w::CORNERED_BISHOP],
    PAWN_THREAT => [w::PAWN_THREAT],
    PAWN_PUSH_THREAT => [w::PAWN_PUSH_THREAT],
    THREAT_BY_MINOR => w::THREAT_BY_MINOR,
    THREAT_BY_ROOK => w::THREAT_BY_ROOK,
    THREAT_BY_KING => [w::THREAT_BY_KING],
    HANGING => [w::HANGING],
    RESTRICTED => [w::RESTRICTED],
    KNIGHT_ON_QUEEN => [w::KNIGHT_ON_QUEEN],
    SLIDER_ON_QUEEN => [w::SLIDER_ON_QUEEN],
    TEMPO => [w::TEMPO],
    SHIELD_NEAR => [w::SHIELD_NEAR],
    SHIELD_FAR => [w::SHIELD_FAR],
    SHIELD_MISSING => [w::SHIELD_MISSING],
    PAWN_STORM => [w::PAWN_STORM],
    KING_OPEN_FILE => [w::KING_OPEN_FILE],
    KING_HALF_OPEN_FILE => [w::KING_HALF_OPEN_FILE],
    PAWNLESS_FLANK => [w::PAWNLESS_FLANK],
    FLANK_ATTACK => [w::FLANK_ATTACK],
    KING_PAWN_DISTANCE => [w::KING_PAWN_DISTANCE],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_contiguous_and_named_once() {
        let mut next = 0;
        let mut names = std::collections::HashSet::new();
        for weight in WEIGHTS {
            assert_eq!(weight.first, next, "{}", weight.name);
            assert!(names.insert(weight.name), "{} twice", weight.name);
            next += weight.values.len();
        }
        assert_eq!(next, SLOTS);
        let passed = WEIGHTS.iter().find(|x| x.name == "PASSED_PAWN").unwrap();
        assert_eq!(passed.first, PASSED_PAWN);
        assert_eq!(passed.values[4], w::PASSED_PAWN[4]);
    }
}
