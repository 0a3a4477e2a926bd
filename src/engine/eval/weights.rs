//! Every evaluation weight, in one place. Each is a (middlegame, endgame)
//! pair in centipawns, blended by game phase.
//!
//! Fitted by `cavalier tune` (Texel's method, Adam, 200 epochs, weights
//! seen in fewer than 2000 positions kept as they were) to the quiet
//! positions of 16,000 self-play games of the build before this evaluation
//! at 5000 nodes a move (`cavalier selfplay --games 16000 --nodes 5000
//! --threads 2 --seed 11`: 1,365,887 positions written, 1,246,603 kept as
//! quiet, 1,184,273 to train on and 62,330 held out). Mean squared error of
//! the evaluation with its hand-set starting values 0.084334 (held out
//! 0.081184); after the first fit 0.080475 (0.078539); after the second,
//! which also re-centres each table by how often the data uses each entry,
//! 0.080181 (0.078572).
//!
//! Each table is re-centred so that its usage-weighted average is zero and
//! the piece's value carries the rest; the king's constant cancels. The
//! tables are noisy where the data is thin (pawns on the seventh rank, the
//! queen's long mobility tail): more and more varied data is the cure, not
//! hand-smoothing. Values the tuner does not move are listed in
//! `tune::is_frozen`.

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
    Score(106, 107),
    Score(452, 286),
    Score(508, 281),
    Score(627, 512),
    Score(1828, 644),
    Score(0, 0),
];

/// Game phase weight of each kind; a full board is `PHASE_TOTAL`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

// ----- piece-square tables -------------------------------------------------

// One table per kind from White's point of view, indexed a1 = 0 .. h8 = 63:
// rank 1 is the first line, rank 8 the last (the board upside down). Black
// reads the square mirrored by rank. Each table averages about zero (the
// tuner re-centres it into the piece's value), the pawn's over rank 2, so
// that the pawn's value is that of a pawn on its starting square.

/// Pawns (ranks 1 and 8 are never used and stay zero).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
    Score(-12, 8), Score(1, -8), Score(-3, 4), Score(-9, 13), Score(-5, 25), Score(5, 12), Score(11, -3), Score(-14, 10),
    Score(-4, -9), Score(-17, -1), Score(-10, -2), Score(-15, -15), Score(-6, 5), Score(-5, 3), Score(-4, -3), Score(-14, 3),
    Score(-3, 9), Score(-9, 10), Score(-4, -11), Score(15, -17), Score(12, -13), Score(9, 8), Score(-6, -3), Score(-7, -1),
    Score(3, 3), Score(-4, 7), Score(1, -22), Score(12, -23), Score(0, -21), Score(6, -9), Score(0, -12), Score(2, 1),
    Score(54, 2), Score(31, 16), Score(21, -7), Score(4, 33), Score(43, -2), Score(25, 12), Score(41, -22), Score(35, -11),
    Score(371, -118), Score(203, -8), Score(327, -85), Score(60, 43), Score(151, 22), Score(220, -52), Score(-75, 5), Score(337, -142),
    Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
];
/// Knights.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    Score(-47, -121), Score(-25, -16), Score(5, -12), Score(-15, 4), Score(-3, 1), Score(-6, -27), Score(-24, -15), Score(-34, -67),
    Score(-22, 47), Score(16, -16), Score(-9, -64), Score(10, 2), Score(2, -2), Score(15, -34), Score(9, -24), Score(7, 1),
    Score(-20, -28), Score(-2, -4), Score(-8, -14), Score(5, 41), Score(3, 18), Score(0, -1), Score(-2, -15), Score(-25, 2),
    Score(-12, -18), Score(22, -11), Score(5, 38), Score(2, 37), Score(25, 13), Score(12, 35), Score(1, 5), Score(-3, -13),
    Score(-16, -14), Score(5, -6), Score(9, 30), Score(22, 28), Score(11, 46), Score(12, 30), Score(-8, 18), Score(9, 13),
    Score(-76, 13), Score(-30, 8), Score(8, 25), Score(41, 25), Score(49, 14), Score(16, 28), Score(37, 1), Score(15, 2),
    Score(26, -26), Score(-4, -11), Score(13, -15), Score(40, 19), Score(117, -44), Score(57, -12), Score(-52, -18), Score(-61, -29),
    Score(-70, -40), Score(-61, -29), Score(-52, -18), Score(-43, -7), Score(-43, -7), Score(-52, -18), Score(-61, -29), Score(-70, -40),
];
/// Bishops.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    Score(-14, -95), Score(15, -6), Score(-15, 17), Score(-6, -26), Score(-5, -17), Score(-13, 12), Score(20, -28), Score(-7, -23),
    Score(5, -42), Score(-2, 1), Score(8, 11), Score(0, -5), Score(3, 6), Score(6, 6), Score(12, -9), Score(36, -33),
    Score(-17, -26), Score(18, 2), Score(10, 6), Score(11, 13), Score(5, 11), Score(1, 9), Score(-1, -23), Score(14, -27),
    Score(-10, -28), Score(-14, 12), Score(-7, 13), Score(32, 3), Score(-1, 31), Score(-13, 17), Score(-13, 1), Score(-26, 3),
    Score(-36, -3), Score(-10, 22), Score(10, 22), Score(23, 27), Score(9, 35), Score(34, -4), Score(-3, -12), Score(-28, -14),
    Score(-6, -4), Score(-4, 21), Score(7, 34), Score(63, -11), Score(5, 9), Score(73, -14), Score(3, 16), Score(-7, -1),
    Score(12, -8), Score(-19, 26), Score(-30, -10), Score(81, -24), Score(-28, -11), Score(-50, 38), Score(8, -13), Score(-96, 28),
    Score(-13, 39), Score(-28, 32), Score(-83, 44), Score(-22, 11), Score(-16, -13), Score(-224, 25), Score(-59, 38), Score(-13, 39),
];
/// Rooks.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    Score(-7, -10), Score(-1, 2), Score(12, -18), Score(24, -28), Score(16, -14), Score(11, -8), Score(-20, 5), Score(-18, -11),
    Score(-47, 6), Score(9, -23), Score(8, 19), Score(0, -12), Score(10, -5), Score(11, -28), Score(0, -27), Score(-66, 8),
    Score(-24, 18), Score(-32, 29), Score(-22, 12), Score(-17, 24), Score(-19, 12), Score(-18, 27), Score(-4, 12), Score(-19, -16),
    Score(-29, 31), Score(-15, 18), Score(-32, 34), Score(-33, 39), Score(-3, 11), Score(-18, 41), Score(-43, 36), Score(-22, 12),
    Score(-73, 54), Score(-9, 26), Score(-4, 48), Score(34, 16), Score(13, 15), Score(11, 11), Score(5, 29), Score(19, 12),
    Score(-47, 38), Score(25, 29), Score(-15, 34), Score(-25, 31), Score(22, 12), Score(32, 24), Score(74, -1), Score(31, 7),
    Score(-4, 34), Score(-19, 38), Score(-24, 41), Score(19, 25), Score(14, 21), Score(92, 17), Score(-5, 35), Score(18, 21),
    Score(22, 35), Score(10, 38), Score(19, 32), Score(-41, 44), Score(12, 51), Score(27, 33), Score(64, 18), Score(-76, 54),
];
/// Queens.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    Score(-18, -1), Score(-4, -51), Score(2, 26), Score(4, -64), Score(5, -68), Score(-14, -62), Score(-28, -44), Score(-9, -43),
    Score(-16, -5), Score(11, -30), Score(8, -20), Score(8, 29), Score(18, -7), Score(28, -49), Score(32, -33), Score(8, -30),
    Score(10, -27), Score(-5, 15), Score(-14, 41), Score(-13, 25), Score(-5, 66), Score(-10, 33), Score(-27, 74), Score(-21, 24),
    Score(1, -1), Score(-19, 50), Score(-13, 79), Score(-2, 61), Score(5, 96), Score(-10, 69), Score(-5, 29), Score(-2, -42),
    Score(-15, 56), Score(30, 46), Score(-6, 94), Score(-9, 92), Score(-30, 158), Score(-16, 111), Score(-3, 77), Score(-12, 43),
    Score(-31, 96), Score(-16, 74), Score(15, 61), Score(9, 76), Score(50, 56), Score(19, 150), Score(22, 74), Score(-20, 103),
    Score(1, 48), Score(-2, 66), Score(-22, 107), Score(-12, 130), Score(12, 116), Score(-3, 125), Score(28, 49), Score(13, 39),
    Score(43, -31), Score(51, -11), Score(28, 49), Score(-79, 135), Score(29, 55), Score(28, 49), Score(27, 43), Score(26, 37),
];
/// The king (a constant here would cancel: each side has one king).
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    Score(-43, -2), Score(25, -53), Score(11, -28), Score(-2, -41), Score(13, -47), Score(-9, -27), Score(32, -38), Score(42, -32),
    Score(25, -23), Score(5, -31), Score(-6, -21), Score(-11, -13), Score(-33, -10), Score(-4, -7), Score(29, -23), Score(-13, -5),
    Score(79, -13), Score(39, 28), Score(-18, 43), Score(62, 32), Score(-25, 53), Score(7, 55), Score(-20, 43), Score(22, 30),
    Score(135, -17), Score(78, 28), Score(-53, 69), Score(-39, 81), Score(-133, 88), Score(-8, 71), Score(4, 47), Score(-52, 52),
    Score(67, 36), Score(-38, 79), Score(-152, 94), Score(-41, 78), Score(-162, 109), Score(-65, 92), Score(42, 60), Score(-47, 68),
    Score(-127, 85), Score(-70, 96), Score(-165, 91), Score(9, 88), Score(-149, 110), Score(-129, 114), Score(-46, 83), Score(-123, 87),
    Score(-6, 34), Score(-80, 73), Score(106, 83), Score(140, 50), Score(-43, 106), Score(-289, 124), Score(-179, 126), Score(13, 8),
    Score(-21, 18), Score(287, -55), Score(-47, 72), Score(51, 23), Score(248, -26), Score(153, 74), Score(154, -37), Score(-279, -53),
];

// ----- mobility -------------------------------------------------------------

// By the number of squares a piece reaches that hold no own piece and are
// not attacked by an enemy pawn. The entry at the typical count is held at
// zero, so that the piece value keeps the rest.

/// Knights, by squares reached (8 at most); 4 scores zero.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    Score(-33, -104), Score(-16, -62), Score(-8, -25), Score(-7, -6), Score(-3, 14), Score(5, 25), Score(8, 21),
    Score(18, 11), Score(50, -18),
];
/// Bishops, by squares reached (13 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    Score(-30, -71), Score(-25, -24), Score(-9, -3), Score(-6, 9), Score(-2, 12), Score(4, 16), Score(9, 18),
    Score(9, 23), Score(21, 13), Score(36, 12), Score(25, 8), Score(53, -8), Score(203, -107), Score(164, -52),
];
/// Rooks, by squares reached (14 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    Score(-23, -83), Score(-14, -40), Score(-8, -24), Score(-1, -12), Score(-3, 2), Score(2, 8), Score(1, 13),
    Score(1, 19), Score(2, 21), Score(2, 31), Score(8, 31), Score(-2, 40), Score(6, 44), Score(32, 32),
    Score(46, 31),
];
/// Queens, by squares reached (27 at most); 12 scores zero.
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    Score(-32, -298), Score(-25, -87), Score(-25, -92), Score(-19, -11), Score(-14, -21), Score(-6, -28), Score(-7, -1),
    Score(-6, 23), Score(-3, 26), Score(-3, 44), Score(-5, 68), Score(4, 60), Score(1, 63), Score(-2, 86),
    Score(-4, 89), Score(-6, 91), Score(12, 76), Score(16, 64), Score(20, 62), Score(66, 21), Score(116, -2),
    Score(314, -209), Score(224, -107), Score(493, -281), Score(706, -381), Score(1319, -758), Score(43, 133), Score(430, -565),
];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-19, -1);
pub const ISOLATED_PAWN: Score = Score(-5, -14);
pub const BACKWARD_PAWN: Score = Score(-1, -23);
/// A pawn with an own pawn beside it or defending it, by relative rank.
pub const CONNECTED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(2, -3),
    Score(17, -1),
    Score(13, 6),
    Score(19, 17),
    Score(95, 46),
    Score(94, 115),
    Score(0, 0),
];
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(-23, 16),
    Score(-27, 30),
    Score(54, -8),
    Score(120, -8),
    Score(215, -52),
    Score(212, -89),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(26, -8),
    Score(-19, 2),
    Score(-15, 12),
    Score(7, 26),
    Score(9, 53),
    Score(120, 119),
    Score(0, 0),
];
/// Passed pawn whose stop square (the one in front) the enemy does not
/// attack, by relative rank.
pub const PASSED_SAFE: [Score; 8] = [
    Score(0, 0),
    Score(-11, 23),
    Score(-4, 7),
    Score(-13, 24),
    Score(-28, 30),
    Score(-20, 72),
    Score(40, 108),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(-6, 13);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(-5, -4);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(8, 56);
/// Per own pawn on the squares of the bishop's colour.
pub const BISHOP_PAWNS: Score = Score(-6, -2);
pub const ROOK_OPEN_FILE: Score = Score(44, -13);
pub const ROOK_HALF_OPEN_FILE: Score = Score(15, -2);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, on relative ranks 4 to 6.
pub const KNIGHT_OUTPOST: Score = Score(36, 7);
pub const BISHOP_OUTPOST: Score = Score(26, 0);
/// Chess960 only: a bishop in its corner (relative a1 or h1) shut in by
/// an own pawn on the next square of its diagonal; counted twice when
/// that pawn cannot advance.
pub const CORNERED_BISHOP: Score = Score(-20, 33);
/// A pawn attacking an enemy piece (twice when two pawns attack it).
pub const PAWN_THREAT: Score = Score(48, 25);
/// An enemy piece attacked by our knights or bishops, by its kind index
/// (pawn .. queen; pawns only when no enemy pawn defends them).
pub const THREAT_BY_MINOR: [Score; 5] = [
    Score(-1, 24),
    Score(12, 33),
    Score(36, 10),
    Score(52, 17),
    Score(26, 68),
];
/// The same, attacked by our rooks.
pub const THREAT_BY_ROOK: [Score; 5] = [
    Score(14, 18),
    Score(19, 22),
    Score(22, 19),
    Score(0, 0),
    Score(51, 23),
];
/// An enemy piece or pawn that our king attacks and nothing defends.
pub const THREAT_BY_KING: Score = Score(44, 19);
/// An enemy knight, bishop, rook or queen that we attack and nothing
/// defends.
pub const HANGING: Score = Score(15, -4);
pub const TEMPO: Score = Score(13, 5);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(24, 11);
pub const SHIELD_FAR: Score = Score(10, 10);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(-2, 16);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(0, 4);
/// King on a file without own pawns: without enemy pawns either (open),
/// or with (half-open).
pub const KING_OPEN_FILE: Score = Score(-49, -2);
pub const KING_HALF_OPEN_FILE: Score = Score(-16, 2);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 14, 25, 30, 30, 0];
/// Attack units by kind index (knight .. queen) per safe check: a square
/// from which a piece of that kind would give check, that a piece of that
/// kind attacks, not held by an own piece and not attacked by the enemy.
pub const KING_SAFE_CHECK_UNITS: [i32; 6] = [0, 73, 38, 73, 30, 0];
/// Middlegame penalty = units^2 * this / `KING_ATTACK_DIVISOR`, capped.
pub const KING_ATTACK_SCALE: i32 = 20;
pub const KING_ATTACK_CAP: i32 = 1076;
/// Fixed: the units and the scale are fine-grained integers so that tuned
/// values round with little loss.
pub const KING_ATTACK_DIVISOR: i64 = 4096;

// ----- scaling --------------------------------------------------------------

/// Without pawns, a side ahead by no more than this in pieces, counted
/// with `DRAWISH_PIECE_VALUE`, can rarely win: its score is scaled by
/// `DRAWISH_SCALE` / 64 (a rook against a minor, a minor ahead, but not a
/// queen against a rook).
pub const DRAWISH_MATERIAL_EDGE: i32 = 400;
/// Piece values of that test (knight, bishop, rook, queen by kind index),
/// fixed: the endgame values of the tune before the piece-square tables,
/// so that which endings count as drawish does not move with a tune
/// (the tuned values also carry the tables' averages).
pub const DRAWISH_PIECE_VALUE: [i32; 6] = [0, 373, 408, 718, 1308, 0];
pub const DRAWISH_SCALE: i32 = 2;
/// Opposite-coloured bishops with only pawns besides: score scaled by
/// this / 64.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 24;

// ----- lazy evaluation ------------------------------------------------------

/// The positional pass is skipped when material alone is outside the
/// alpha-beta window by more than this.
pub const LAZY_MARGIN: i32 = 700;
