//! Every evaluation weight, in one place. Each is a (middlegame, endgame)
//! pair in centipawns, blended by game phase.
//!
//! The piece-square tables are built from a few shape parameters (centre
//! distance, advancement) so that they stay smooth and few enough to tune.

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
    Score(82, 104),
    Score(337, 300),
    Score(352, 322),
    Score(477, 550),
    Score(1025, 986),
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
    Score(-2, 2),
    Score(2, 6),
    Score(8, 14),
    Score(18, 30),
    Score(30, 60),
    Score(0, 0),
];
/// Extra for a pawn on a centre file (d, e) on ranks 3 to 5.
pub const PAWN_CENTRE: Score = Score(14, 0);
/// Extra for a pawn on c or f on ranks 3 to 5.
pub const PAWN_NEAR_CENTRE: Score = Score(5, 0);

/// Per step of centrality (file + rank), for knights, bishops, queens.
pub const KNIGHT_CENTRE: Score = Score(7, 6);
pub const BISHOP_CENTRE: Score = Score(3, 3);
pub const QUEEN_CENTRE: Score = Score(1, 4);
/// Offsets that make the average piece-square value about zero.
pub const KNIGHT_CENTRE_BASE: Score = Score(-21, -18);
pub const BISHOP_CENTRE_BASE: Score = Score(-9, -9);
pub const QUEEN_CENTRE_BASE: Score = Score(-3, -12);

/// Rook on the seventh rank (relative).
pub const ROOK_SEVENTH: Score = Score(18, 22);
/// King per rank away from home in the middlegame.
pub const KING_ADVANCE: Score = Score(-22, 0);
/// King on a castled file (b, c, g) / on its home rank corner squares.
pub const KING_CASTLED: Score = Score(24, 0);
/// King centralisation in the endgame, per step.
pub const KING_CENTRE: Score = Score(0, 9);
pub const KING_CENTRE_BASE: Score = Score(0, -27);

// ----- mobility -------------------------------------------------------------

/// Per reachable square (not guarded by an enemy pawn), and the count
/// that scores zero, by kind index (knight .. queen).
pub const MOBILITY: [Score; 6] = [
    Score(0, 0),
    Score(4, 4),
    Score(5, 5),
    Score(2, 4),
    Score(1, 2),
    Score(0, 0),
];
pub const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-10, -20);
pub const ISOLATED_PAWN: Score = Score(-10, -14);
pub const BACKWARD_PAWN: Score = Score(-6, -8);
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(2, 8),
    Score(4, 12),
    Score(10, 22),
    Score(22, 42),
    Score(40, 75),
    Score(60, 120),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(0, 0),
    Score(0, 2),
    Score(0, 5),
    Score(2, 12),
    Score(5, 25),
    Score(10, 45),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(0, 5);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(0, -2);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(28, 52);
pub const ROOK_OPEN_FILE: Score = Score(26, 10);
pub const ROOK_HALF_OPEN_FILE: Score = Score(12, 6);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, in the enemy half.
pub const OUTPOST: Score = Score(18, 8);
/// A pawn attacking an enemy piece; a minor attacking a rook or queen.
pub const PAWN_THREAT: Score = Score(40, 25);
pub const MINOR_THREAT: Score = Score(22, 14);
pub const TEMPO: Score = Score(12, 4);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(14, 0);
pub const SHIELD_FAR: Score = Score(7, 0);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(-16, 0);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(-8, 0);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 8, 8, 12, 20, 0];
/// Middlegame penalty = units^2 * this / `KING_ATTACK_DIVISOR`, capped.
pub const KING_ATTACK_SCALE: i32 = 48;
pub const KING_ATTACK_CAP: i32 = 600;
/// Fixed: the units and the scale are fine-grained integers so that tuned
/// values round with little loss.
pub const KING_ATTACK_DIVISOR: i64 = 4096;

// ----- scaling --------------------------------------------------------------

/// Without pawns, a side ahead by no more than this (endgame units) can
/// rarely win: its score is scaled by `DRAWISH_SCALE` / 64.
pub const DRAWISH_MATERIAL_EDGE: i32 = 400;
pub const DRAWISH_SCALE: i32 = 16;
/// Opposite-coloured bishops with only pawns besides: score scaled by
/// this / 64.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 40;

// ----- lazy evaluation ------------------------------------------------------

/// The positional pass is skipped when material alone is outside the
/// alpha-beta window by more than this.
pub const LAZY_MARGIN: i32 = 700;
