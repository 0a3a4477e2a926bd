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
    Score(104, 108),
    Score(458, 289),
    Score(511, 289),
    Score(641, 517),
    Score(1844, 642),
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
    Score(-9, 2), Score(1, -5), Score(-4, 4), Score(-13, 20), Score(-8, 31), Score(-2, 19), Score(3, -1), Score(-18, 20),
    Score(2, -12), Score(-11, -1), Score(-9, -2), Score(-17, -11), Score(-7, -2), Score(-8, 3), Score(-7, -3), Score(-12, -1),
    Score(1, 11), Score(-7, 8), Score(-1, -17), Score(22, -20), Score(13, -14), Score(8, 2), Score(-7, 1), Score(-7, 1),
    Score(-1, -3), Score(1, 3), Score(-3, -22), Score(22, -29), Score(-5, -23), Score(6, -17), Score(5, -10), Score(11, -8),
    Score(56, -15), Score(55, -28), Score(49, -40), Score(36, 4), Score(24, -3), Score(78, -29), Score(43, -38), Score(61, -31),
    Score(310, -132), Score(149, -6), Score(243, -58), Score(-46, 68), Score(53, 59), Score(232, -42), Score(-106, 21), Score(777, -261),
    Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
];
/// Knights.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    Score(-64, -53), Score(-24, -15), Score(8, -36), Score(-9, 1), Score(0, 5), Score(-2, -25), Score(-34, 4), Score(-64, -53),
    Score(-26, 55), Score(26, 3), Score(-6, -53), Score(9, -1), Score(-8, -10), Score(16, -41), Score(11, -35), Score(-8, 25),
    Score(-16, -30), Score(-3, -8), Score(-10, -6), Score(13, 53), Score(12, 21), Score(-3, -2), Score(-8, -9), Score(-34, -1),
    Score(-8, -14), Score(30, -2), Score(9, 39), Score(-8, 54), Score(22, 8), Score(4, 37), Score(6, -3), Score(-25, -7),
    Score(-24, -24), Score(1, 0), Score(9, 21), Score(25, 30), Score(16, 49), Score(-5, 39), Score(-10, 16), Score(1, 21),
    Score(-70, 0), Score(35, -32), Score(26, 22), Score(27, 31), Score(65, 11), Score(50, 32), Score(-46, 24), Score(21, -11),
    Score(32, -39), Score(5, 8), Score(45, -25), Score(79, -18), Score(123, -57), Score(63, -25), Score(-46, -31), Score(-55, -42),
    Score(-64, -53), Score(-55, -42), Score(-46, -31), Score(-37, -20), Score(-37, -20), Score(-46, -31), Score(-55, -42), Score(-64, -53),
];
/// Bishops.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    Score(-26, -116), Score(1, -21), Score(-15, 23), Score(-11, -34), Score(6, -14), Score(-11, 1), Score(24, -31), Score(-13, -14),
    Score(5, -42), Score(4, 15), Score(-1, 15), Score(2, -9), Score(1, 0), Score(4, 14), Score(9, -11), Score(45, -31),
    Score(-24, -22), Score(17, 2), Score(12, 23), Score(12, 15), Score(3, 17), Score(-4, 6), Score(1, -24), Score(9, -36),
    Score(-7, -32), Score(-9, 24), Score(-8, 4), Score(20, 19), Score(-5, 57), Score(-9, 11), Score(-10, -3), Score(-44, 21),
    Score(-21, -2), Score(-17, 8), Score(5, 25), Score(20, 47), Score(-5, 55), Score(0, 18), Score(2, -16), Score(-30, -25),
    Score(-14, 0), Score(12, 25), Score(7, 41), Score(61, -1), Score(20, 2), Score(77, 3), Score(50, -27), Score(11, -6),
    Score(5, -18), Score(12, 9), Score(-15, -39), Score(58, -33), Score(-31, 39), Score(-54, 30), Score(44, -19), Score(-103, 18),
    Score(-20, 29), Score(-40, 40), Score(8, 17), Score(-111, 26), Score(-23, -23), Score(-249, 29), Score(-18, 33), Score(-20, 29),
];
/// Rooks.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    Score(-2, -19), Score(0, 6), Score(15, -18), Score(19, -27), Score(9, -5), Score(12, -9), Score(-29, 25), Score(-23, -3),
    Score(-62, 4), Score(2, -16), Score(9, 24), Score(1, -15), Score(8, -12), Score(15, -49), Score(8, -32), Score(-72, -16),
    Score(-21, 7), Score(-29, 28), Score(-43, 14), Score(-18, 33), Score(-27, 17), Score(-17, 21), Score(-15, 15), Score(-17, -29),
    Score(-32, 19), Score(23, 5), Score(-23, 30), Score(-62, 53), Score(-22, 14), Score(-18, 33), Score(-24, 24), Score(-35, 23),
    Score(-63, 55), Score(8, 18), Score(3, 43), Score(49, 20), Score(20, 11), Score(2, 19), Score(13, 31), Score(2, 29),
    Score(-69, 35), Score(45, 22), Score(7, 25), Score(2, 24), Score(-14, 21), Score(21, 19), Score(121, -18), Score(18, 9),
    Score(13, 32), Score(-10, 34), Score(-31, 43), Score(23, 30), Score(-16, 29), Score(69, 23), Score(33, 25), Score(22, 22),
    Score(27, 23), Score(-21, 36), Score(74, 5), Score(-38, 41), Score(42, 34), Score(3, 38), Score(12, 20), Score(-92, 62),
];
/// Queens.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    Score(-37, -7), Score(3, -53), Score(1, 25), Score(3, -60), Score(5, -54), Score(-14, -76), Score(-27, -26), Score(-2, -34),
    Score(-14, 7), Score(6, -15), Score(4, 2), Score(11, 36), Score(18, -14), Score(26, -63), Score(-11, 33), Score(7, -3),
    Score(-17, 7), Score(-2, 22), Score(-8, 28), Score(-1, -4), Score(0, 49), Score(-10, 26), Score(-30, 114), Score(-2, 47),
    Score(0, 29), Score(2, 4), Score(-1, 48), Score(-7, 91), Score(19, 108), Score(-17, 96), Score(-3, 76), Score(8, 26),
    Score(-16, 57), Score(-7, 74), Score(3, 99), Score(-29, 98), Score(13, 62), Score(15, 45), Score(22, 34), Score(-2, 52),
    Score(-9, 66), Score(11, 49), Score(21, 42), Score(15, 57), Score(56, 37), Score(25, 131), Score(28, 55), Score(3, 80),
    Score(-5, 55), Score(-29, 65), Score(-16, 88), Score(-6, 111), Score(18, 97), Score(3, 106), Score(34, 30), Score(19, 20),
    Score(49, -50), Score(57, -30), Score(34, 30), Score(-73, 116), Score(35, 36), Score(34, 30), Score(33, 24), Score(32, 18),
];
/// The king (a constant here would cancel: each side has one king).
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    Score(-52, 15), Score(31, -49), Score(16, -18), Score(-4, -33), Score(26, -48), Score(2, -22), Score(44, -35), Score(42, -39),
    Score(5, -5), Score(3, -23), Score(3, -16), Score(-13, -3), Score(-23, -5), Score(5, -7), Score(28, -15), Score(-17, -2),
    Score(62, -15), Score(-9, 35), Score(-70, 40), Score(34, 25), Score(-61, 51), Score(-8, 45), Score(-40, 32), Score(13, 18),
    Score(115, -28), Score(71, 24), Score(-85, 67), Score(-111, 81), Score(-203, 93), Score(-37, 61), Score(-5, 42), Score(-58, 31),
    Score(64, 41), Score(-72, 80), Score(-147, 92), Score(-215, 104), Score(-66, 91), Score(-109, 87), Score(42, 58), Score(-109, 52),
    Score(-117, 91), Score(87, 68), Score(-142, 101), Score(109, 57), Score(-61, 87), Score(-77, 107), Score(43, 69), Score(-98, 80),
    Score(4, 40), Score(-70, 79), Score(-33, 81), Score(139, 12), Score(-27, 51), Score(-339, 116), Score(-182, 120), Score(23, 14),
    Score(-11, 24), Score(297, -49), Score(-37, 78), Score(626, -20), Score(258, -20), Score(-276, 143), Score(164, -31), Score(-269, -47),
];

// ----- mobility -------------------------------------------------------------

// By the number of squares a piece reaches that hold no own piece and are
// not attacked by an enemy pawn. The entry at the typical count is held at
// zero, so that the piece value keeps the rest.

/// Knights, by squares reached (8 at most); 4 scores zero.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    Score(-28, -89), Score(-13, -71), Score(-8, -28), Score(-6, -2), Score(-3, 16), Score(5, 24), Score(6, 20),
    Score(16, 9), Score(58, -13),
];
/// Bishops, by squares reached (13 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    Score(-29, -54), Score(-20, -32), Score(-10, -9), Score(-7, 9), Score(-2, 19), Score(5, 16), Score(9, 19),
    Score(9, 21), Score(26, 9), Score(39, 10), Score(27, 2), Score(41, -13), Score(203, -106), Score(105, -213),
];
/// Rooks, by squares reached (14 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    Score(-25, -83), Score(-12, -35), Score(-8, -21), Score(-1, -12), Score(-5, 3), Score(3, 6), Score(3, 10),
    Score(4, 12), Score(5, 19), Score(0, 32), Score(4, 34), Score(-7, 42), Score(1, 43), Score(44, 30),
    Score(42, 34),
];
/// Queens, by squares reached (27 at most); 12 scores zero.
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    Score(-27, -65), Score(-22, -19), Score(-20, -80), Score(-14, -35), Score(-8, -38), Score(-2, -55), Score(-5, -13),
    Score(-3, 1), Score(1, 3), Score(-2, 14), Score(-2, 55), Score(6, 52), Score(7, 52), Score(1, 90),
    Score(-11, 104), Score(-6, 104), Score(12, 85), Score(-5, 94), Score(7, 89), Score(51, 45), Score(57, 28),
    Score(111, -38), Score(230, -118), Score(499, -292), Score(712, -392), Score(1325, -769), Score(49, 122), Score(436, -576),
];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-14, -1);
pub const ISOLATED_PAWN: Score = Score(-8, -12);
pub const BACKWARD_PAWN: Score = Score(-2, -21);
/// A pawn with an own pawn beside it or defending it, by relative rank.
pub const CONNECTED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(3, -3),
    Score(19, -1),
    Score(11, 4),
    Score(20, 19),
    Score(54, 56),
    Score(94, 115),
    Score(0, 0),
];
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(-18, 17),
    Score(-18, 24),
    Score(56, -17),
    Score(118, -12),
    Score(190, -32),
    Score(236, -100),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(19, -7),
    Score(-20, 6),
    Score(-26, 16),
    Score(2, 28),
    Score(25, 38),
    Score(158, 91),
    Score(0, 0),
];
/// Passed pawn whose stop square (the one in front) the enemy does not
/// attack, by relative rank.
pub const PASSED_SAFE: [Score; 8] = [
    Score(0, 0),
    Score(-10, 23),
    Score(-9, 14),
    Score(-19, 25),
    Score(-36, 31),
    Score(-25, 66),
    Score(87, 90),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(-6, 13);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(-5, -3);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(2, 65);
/// Per own pawn on the squares of the bishop's colour.
pub const BISHOP_PAWNS: Score = Score(-6, 0);
pub const ROOK_OPEN_FILE: Score = Score(42, -11);
pub const ROOK_HALF_OPEN_FILE: Score = Score(14, -2);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, on relative ranks 4 to 6.
pub const KNIGHT_OUTPOST: Score = Score(40, 7);
pub const BISHOP_OUTPOST: Score = Score(22, 2);
/// Chess960 only: a bishop in its corner (relative a1 or h1) shut in by
/// an own pawn on the next square of its diagonal; counted twice when
/// that pawn cannot advance.
pub const CORNERED_BISHOP: Score = Score(-22, 55);
/// A pawn attacking an enemy piece (twice when two pawns attack it).
pub const PAWN_THREAT: Score = Score(44, 17);
/// An enemy piece attacked by our knights or bishops, by its kind index
/// (pawn .. queen; pawns only when no enemy pawn defends them).
pub const THREAT_BY_MINOR: [Score; 5] = [
    Score(1, 22),
    Score(12, 26),
    Score(36, 9),
    Score(45, 22),
    Score(24, 84),
];
/// The same, attacked by our rooks.
pub const THREAT_BY_ROOK: [Score; 5] = [
    Score(12, 18),
    Score(24, 21),
    Score(20, 16),
    Score(0, 0),
    Score(57, 42),
];
/// An enemy piece or pawn that our king attacks and nothing defends.
pub const THREAT_BY_KING: Score = Score(51, 20);
/// An enemy knight, bishop, rook or queen that we attack and nothing
/// defends.
pub const HANGING: Score = Score(17, -6);
pub const TEMPO: Score = Score(13, 4);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(13, 5);
pub const SHIELD_FAR: Score = Score(-1, 5);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(-15, 14);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(3, 4);
/// King on a file without own pawns: without enemy pawns either (open),
/// or with (half-open).
pub const KING_OPEN_FILE: Score = Score(-53, -2);
pub const KING_HALF_OPEN_FILE: Score = Score(-19, 3);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 7, 26, 31, 32, 0];
/// Attack units by kind index (knight .. queen) per safe check: a square
/// from which a piece of that kind would give check, that a piece of that
/// kind attacks, not held by an own piece and not attacked by the enemy.
pub const KING_SAFE_CHECK_UNITS: [i32; 6] = [0, 85, 37, 59, 28, 0];
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
