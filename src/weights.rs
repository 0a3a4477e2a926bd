//! Every evaluation weight, in one place. Each is a (middlegame, endgame)
//! pair in centipawns, blended by game phase.
//!
//! The piece-square tables are built from a few shape parameters (centre
//! distance, advancement) so that they stay smooth and few enough to tune.
//!
//! The values are those fitted by `cavalier tune` (Texel's method, Adam,
//! 200 epochs) to 1,037,914 quiet positions of 16,000 self-play games at
//! 5000 nodes a move (`cavalier selfplay --games 16000 --nodes 5000
//! --threads 2 --seed 1`), 54,627 more held out: mean squared error
//! 0.101485 -> 0.098981, held-out 0.101463 -> 0.098778. Values the
//! tuner does not move (see `tune::is_frozen`: the king's value, pawn
//! ranks no pawn stands on; the per-piece `*_CENTRE_BASE` offsets are
//! re-centred) and weights no position exercised are as they were.

/// A middlegame / endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl std::ops::SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

// ----- material -------------------------------------------------------------

/// Piece values by `kind_index` (pawn, knight, bishop, rook, queen, king).
pub const PIECE_VALUE: [Score; 6] = [
    Score(63, 111),
    Score(290, 373),
    Score(321, 408),
    Score(383, 718),
    Score(993, 1308),
    Score(0, 0),
];

/// Game phase weight of each kind; a full board is `PHASE_TOTAL`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

// ----- piece-square shape ---------------------------------------------------

/// Centrality of a file or rank (0 at the edge, 3 in the middle).
pub const CENTRALITY: [i32; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// Pawn bonus by relative rank.
pub const PAWN_ADVANCE: [Score; 8] = [
    Score(0, 0),
    Score(0, 0),
    Score(-4, 1),
    Score(-1, 5),
    Score(-9, 9),
    Score(59, 35),
    Score(161, -11),
    Score(0, 0),
];
/// Extra for a pawn on a centre file (d, e) on ranks 3 to 5.
pub const PAWN_CENTRE: Score = Score(14, -7);
/// Extra for a pawn on c or f on ranks 3 to 5.
pub const PAWN_NEAR_CENTRE: Score = Score(-2, -1);

/// Per step of centrality (file + rank), for knights, bishops, queens.
pub const KNIGHT_CENTRE: Score = Score(9, 11);
pub const BISHOP_CENTRE: Score = Score(2, 4);
pub const QUEEN_CENTRE: Score = Score(1, 6);
/// Offsets that make the average piece-square value about zero.
pub const KNIGHT_CENTRE_BASE: Score = Score(-27, -33);
pub const BISHOP_CENTRE_BASE: Score = Score(-6, -12);
pub const QUEEN_CENTRE_BASE: Score = Score(-3, -18);

/// Rook on the seventh rank (relative).
pub const ROOK_SEVENTH: Score = Score(41, 10);
/// King per rank away from home in the middlegame.
pub const KING_ADVANCE: Score = Score(-13, 20);
/// King on a castled file (b, c, g) / on its home rank corner squares.
pub const KING_CASTLED: Score = Score(45, -13);
/// King centralisation in the endgame, per step.
pub const KING_CENTRE: Score = Score(-10, 3);
pub const KING_CENTRE_BASE: Score = Score(30, -9);

// ----- mobility -------------------------------------------------------------

/// Per reachable square (not guarded by an enemy pawn), and the count
/// that scores zero, by kind index (knight .. queen).
pub const MOBILITY: [Score; 6] = [
    Score(0, 0),
    Score(4, 4),
    Score(6, 6),
    Score(4, 5),
    Score(3, 5),
    Score(0, 0),
];
pub const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-2, -10);
pub const ISOLATED_PAWN: Score = Score(-10, -15);
pub const BACKWARD_PAWN: Score = Score(-4, -6);
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(20, 1),
    Score(-16, 34),
    Score(21, 18),
    Score(81, 29),
    Score(143, 19),
    Score(191, 49),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(4, 8),
    Score(-2, -7),
    Score(-17, 12),
    Score(15, 22),
    Score(29, 39),
    Score(12, 108),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(-2, 14);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(-6, -5);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(16, 65);
pub const ROOK_OPEN_FILE: Score = Score(47, -8);
pub const ROOK_HALF_OPEN_FILE: Score = Score(20, 9);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, in the enemy half.
pub const OUTPOST: Score = Score(33, 20);
/// A pawn attacking an enemy piece; a minor attacking a rook or queen.
pub const PAWN_THREAT: Score = Score(43, 35);
pub const MINOR_THREAT: Score = Score(48, 36);
pub const TEMPO: Score = Score(9, 0);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(10, -6);
pub const SHIELD_FAR: Score = Score(8, 4);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(-13, 5);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(-13, 8);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 8, 13, 23, 36, 0];
/// Middlegame penalty = units^2 * this / `KING_ATTACK_DIVISOR`, capped.
pub const KING_ATTACK_SCALE: i32 = 26;
pub const KING_ATTACK_CAP: i32 = 610;
/// Fixed: the units and the scale are fine-grained integers so that tuned
/// values round with little loss.
pub const KING_ATTACK_DIVISOR: i64 = 4096;

// ----- scaling --------------------------------------------------------------

/// Without pawns, a side ahead by no more than this (endgame units) can
/// rarely win: its score is scaled by `DRAWISH_SCALE` / 64.
pub const DRAWISH_MATERIAL_EDGE: i32 = 400;
pub const DRAWISH_SCALE: i32 = 2;
/// Opposite-coloured bishops with only pawns besides: score scaled by
/// this / 64.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 18;

// ----- lazy evaluation ------------------------------------------------------

/// The positional pass is skipped when material alone is outside the
/// alpha-beta window by more than this.
pub const LAZY_MARGIN: i32 = 700;
