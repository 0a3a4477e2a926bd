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
    Score(98, 107),
    Score(470, 279),
    Score(527, 268),
    Score(637, 495),
    Score(1661, 681),
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
    Score(-11, -2), Score(-1, 8), Score(-2, -7), Score(-14, 12), Score(-19, 45), Score(16, 10), Score(1, 5), Score(-9, -2),
    Score(-11, -7), Score(-15, -5), Score(1, -7), Score(-8, 6), Score(-4, 6), Score(6, 4), Score(-16, 1), Score(-8, -10),
    Score(-6, 3), Score(-7, 19), Score(-12, 0), Score(15, -7), Score(6, -7), Score(-2, 5), Score(-17, 9), Score(0, -5),
    Score(13, -16), Score(-5, -3), Score(-31, 2), Score(8, -19), Score(-9, -2), Score(-6, 0), Score(-3, -7), Score(17, -18),
    Score(21, 17), Score(53, -24), Score(7, -15), Score(-35, 46), Score(-2, -2), Score(29, 12), Score(21, -26), Score(116, -66),
    Score(293, -116), Score(148, -2), Score(242, -54), Score(-47, 72), Score(52, 63), Score(231, -38), Score(-185, 30), Score(776, -257),
    Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
];
/// Knights.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    Score(-90, -55), Score(-17, -15), Score(37, -83), Score(-29, 2), Score(21, -70), Score(31, -20), Score(-30, -26), Score(-90, -55),
    Score(-10, 28), Score(30, -29), Score(-4, -36), Score(16, -8), Score(7, -36), Score(46, -37), Score(40, -59), Score(-34, 23),
    Score(-14, -8), Score(-17, -33), Score(-1, -1), Score(15, 16), Score(30, 10), Score(-6, 10), Score(2, -9), Score(-14, -27),
    Score(-13, -3), Score(73, -27), Score(8, 28), Score(-3, 35), Score(34, 2), Score(13, 12), Score(-5, -1), Score(-22, -11),
    Score(-6, -11), Score(1, -9), Score(-10, 18), Score(21, 20), Score(-5, 25), Score(8, 31), Score(-25, 18), Score(27, 7),
    Score(-96, -2), Score(9, -34), Score(-19, 34), Score(40, 5), Score(12, 73), Score(24, 30), Score(-72, 22), Score(-5, -13),
    Score(6, -41), Score(-21, 6), Score(19, -27), Score(53, -20), Score(97, -59), Score(37, -27), Score(-72, -33), Score(-81, -44),
    Score(-90, -55), Score(-81, -44), Score(-72, -33), Score(-63, -22), Score(-63, -22), Score(-72, -33), Score(-81, -44), Score(-90, -55),
];
/// Bishops.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    Score(-53, -46), Score(-29, -44), Score(-13, -7), Score(-14, -35), Score(-16, -7), Score(-7, -2), Score(63, -21), Score(30, -50),
    Score(17, -55), Score(1, -7), Score(-13, 9), Score(-6, 4), Score(-4, 8), Score(-15, 9), Score(29, -50), Score(96, -30),
    Score(-23, -8), Score(20, 5), Score(20, 4), Score(0, 24), Score(-3, 11), Score(7, 3), Score(18, -2), Score(0, -27),
    Score(19, -39), Score(-17, -3), Score(1, 16), Score(1, 20), Score(12, 1), Score(-1, 13), Score(11, -9), Score(-28, -13),
    Score(-21, 0), Score(-15, 3), Score(2, 9), Score(37, 31), Score(19, 10), Score(23, 5), Score(-8, 0), Score(16, -47),
    Score(2, -34), Score(-11, 34), Score(3, 8), Score(10, 3), Score(-1, 16), Score(34, 36), Score(66, -61), Score(14, 21),
    Score(21, -52), Score(-41, 8), Score(3, 12), Score(74, -67), Score(-15, 5), Score(-38, -4), Score(-2, 63), Score(-87, -16),
    Score(-4, -5), Score(-24, 6), Score(24, -17), Score(-95, -8), Score(-7, -57), Score(43, 50), Score(-2, -1), Score(-4, -5),
];
/// Rooks.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    Score(1, -13), Score(15, -9), Score(23, -11), Score(31, -25), Score(16, -15), Score(17, -4), Score(-43, 37), Score(-34, -1),
    Score(-41, -3), Score(-1, -8), Score(-13, 3), Score(15, -24), Score(38, -15), Score(29, -34), Score(11, -24), Score(-68, -21),
    Score(0, -13), Score(-19, 29), Score(-31, 22), Score(23, -5), Score(-29, 19), Score(-46, 11), Score(-1, 6), Score(-29, 4),
    Score(-26, 18), Score(0, 25), Score(14, 13), Score(-11, 3), Score(-19, 4), Score(-27, 28), Score(-63, 50), Score(-37, 19),
    Score(-29, 25), Score(-36, 28), Score(-19, 33), Score(9, 18), Score(-53, 27), Score(54, -10), Score(-28, 30), Score(-61, 45),
    Score(-12, 24), Score(55, 4), Score(-40, 28), Score(40, -4), Score(42, 7), Score(86, -17), Score(102, -25), Score(24, 4),
    Score(-2, 30), Score(5, 32), Score(29, 30), Score(4, 38), Score(5, 39), Score(18, 31), Score(20, 34), Score(-12, 37),
    Score(-45, 39), Score(-35, 42), Score(68, 18), Score(18, 30), Score(53, 13), Score(-41, 35), Score(26, 7), Score(-35, 33),
];
/// Queens.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    Score(-53, -1), Score(6, -56), Score(20, -78), Score(2, -50), Score(22, -66), Score(34, -129), Score(17, 30), Score(16, 24),
    Score(-20, 32), Score(-1, -65), Score(-2, -21), Score(7, -25), Score(10, -8), Score(13, -15), Score(-27, 39), Score(17, 30),
    Score(-33, 13), Score(0, 4), Score(8, 13), Score(0, -13), Score(-8, 23), Score(19, 1), Score(0, -24), Score(-18, 53),
    Score(-11, 69), Score(-14, 10), Score(15, 46), Score(-1, 63), Score(21, 26), Score(-43, 125), Score(-2, 62), Score(-8, 32),
    Score(-32, 63), Score(-23, 80), Score(-13, 105), Score(-45, 104), Score(-3, 68), Score(-1, 51), Score(6, 40), Score(-18, 58),
    Score(-25, 72), Score(-5, 55), Score(5, 48), Score(-1, 63), Score(40, 43), Score(9, 137), Score(12, 61), Score(-13, 86),
    Score(-21, 61), Score(-45, 71), Score(-32, 94), Score(-22, 117), Score(2, 103), Score(-13, 112), Score(18, 36), Score(3, 26),
    Score(33, -44), Score(41, -24), Score(18, 36), Score(-89, 122), Score(19, 42), Score(18, 36), Score(17, 30), Score(16, 24),
];
/// The king (a constant here would cancel: each side has one king).
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    Score(-43, 12), Score(46, -47), Score(37, -26), Score(-5, -29), Score(34, -46), Score(-15, -26), Score(30, -32), Score(-6, -21),
    Score(-47, -7), Score(29, -20), Score(-2, -21), Score(10, -15), Score(-3, -12), Score(5, -5), Score(24, -14), Score(-5, -18),
    Score(68, -19), Score(28, 14), Score(-5, 31), Score(-20, 38), Score(-22, 44), Score(-48, 42), Score(0, 28), Score(-29, 26),
    Score(53, 28), Score(167, 13), Score(51, 45), Score(-101, 79), Score(-154, 86), Score(-32, 61), Score(1, 40), Score(-75, 39),
    Score(66, 39), Score(126, 47), Score(-74, 92), Score(-265, 108), Score(-296, 120), Score(-185, 105), Score(-3, 60), Score(-107, 50),
    Score(-115, 89), Score(193, 36), Score(-55, 88), Score(-24, 74), Score(-190, 72), Score(69, 76), Score(64, 51), Score(-96, 78),
    Score(6, 38), Score(-68, 77), Score(-31, 79), Score(141, 10), Score(-25, 49), Score(-87, 99), Score(-79, 121), Score(25, 12),
    Score(-9, 22), Score(299, -51), Score(-35, 76), Score(628, -22), Score(260, -22), Score(-274, 141), Score(166, -33), Score(-267, -49),
];

// ----- mobility -------------------------------------------------------------

// By the number of squares a piece reaches that hold no own piece and are
// not attacked by an enemy pawn. The entry at the typical count is held at
// zero, so that the piece value keeps the rest.

/// Knights, by squares reached (8 at most); 4 scores zero.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    Score(-48, -64), Score(-27, -41), Score(-12, -9), Score(-5, 6), Score(0, 11), Score(2, 10), Score(5, 7),
    Score(18, -12), Score(50, -61),
];
/// Bishops, by squares reached (13 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    Score(-34, -20), Score(-27, -8), Score(-13, -19), Score(-10, -2), Score(-6, 17), Score(4, 15), Score(4, 17),
    Score(9, 9), Score(14, 9), Score(10, 6), Score(16, -7), Score(69, -40), Score(198, -108), Score(100, -215),
];
/// Rooks, by squares reached (14 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    Score(-31, -96), Score(-14, -32), Score(-7, -24), Score(1, -17), Score(0, -6), Score(1, -2), Score(10, -1),
    Score(4, 11), Score(1, 23), Score(2, 25), Score(16, 23), Score(-3, 32), Score(28, 33), Score(35, 17),
    Score(-11, 41),
];
/// Queens, by squares reached (27 at most); 12 scores zero.
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    Score(-15, -321), Score(-26, -15), Score(-19, 17), Score(-15, -4), Score(-21, -18), Score(-19, -30), Score(-18, -38),
    Score(-13, -18), Score(-9, -7), Score(-13, 19), Score(-17, 62), Score(-5, 27), Score(-2, 34), Score(-5, 52),
    Score(-14, 59), Score(1, 45), Score(-20, 73), Score(7, 48), Score(26, 33), Score(-15, 62), Score(48, 10),
    Score(102, -56), Score(221, -136), Score(490, -310), Score(703, -410), Score(1316, -787), Score(40, 104), Score(427, -594),
];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-5, -4);
pub const ISOLATED_PAWN: Score = Score(-14, -14);
pub const BACKWARD_PAWN: Score = Score(1, -22);
/// A pawn with an own pawn beside it or defending it, by relative rank.
pub const CONNECTED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(1, -3),
    Score(8, 4),
    Score(11, -1),
    Score(26, 8),
    Score(-24, 58),
    Score(94, 115),
    Score(0, 0),
];
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(-10, 22),
    Score(-3, 19),
    Score(43, -6),
    Score(127, -5),
    Score(237, -29),
    Score(327, -52),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(-6, 16),
    Score(-34, -1),
    Score(-28, 18),
    Score(-10, 25),
    Score(48, 29),
    Score(117, 65),
    Score(0, 0),
];
/// Passed pawn whose stop square (the one in front) the enemy does not
/// attack, by relative rank.
pub const PASSED_SAFE: [Score; 8] = [
    Score(0, 0),
    Score(2, 9),
    Score(-17, 25),
    Score(-13, 29),
    Score(-24, 37),
    Score(-50, 77),
    Score(28, 59),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(-5, 14);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(-9, -4);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(-8, 88);
/// Per own pawn on the squares of the bishop's colour.
pub const BISHOP_PAWNS: Score = Score(-7, 1);
pub const ROOK_OPEN_FILE: Score = Score(41, -4);
pub const ROOK_HALF_OPEN_FILE: Score = Score(17, -5);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, on relative ranks 4 to 6.
pub const KNIGHT_OUTPOST: Score = Score(46, 10);
pub const BISHOP_OUTPOST: Score = Score(34, 3);
/// Chess960 only: a bishop in its corner (relative a1 or h1) shut in by
/// an own pawn on the next square of its diagonal; counted twice when
/// that pawn cannot advance.
pub const CORNERED_BISHOP: Score = Score(-50, -50);
/// A pawn attacking an enemy piece (twice when two pawns attack it).
pub const PAWN_THREAT: Score = Score(46, 16);
/// An enemy piece attacked by our knights or bishops, by its kind index
/// (pawn .. queen; pawns only when no enemy pawn defends them).
pub const THREAT_BY_MINOR: [Score; 5] = [
    Score(1, 19),
    Score(16, 7),
    Score(40, 18),
    Score(61, 3),
    Score(45, 10),
];
/// The same, attacked by our rooks.
pub const THREAT_BY_ROOK: [Score; 5] = [
    Score(6, 16),
    Score(13, 20),
    Score(26, 0),
    Score(0, 0),
    Score(57, 42),
];
/// An enemy piece or pawn that our king attacks and nothing defends.
pub const THREAT_BY_KING: Score = Score(111, -15);
/// An enemy knight, bishop, rook or queen that we attack and nothing
/// defends.
pub const HANGING: Score = Score(16, 5);
pub const TEMPO: Score = Score(10, 1);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(8, 2);
pub const SHIELD_FAR: Score = Score(1, 9);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(-24, 19);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(-6, -1);
/// King on a file without own pawns: without enemy pawns either (open),
/// or with (half-open).
pub const KING_OPEN_FILE: Score = Score(-42, -5);
pub const KING_HALF_OPEN_FILE: Score = Score(-13, 7);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 24, 21, 38, 29, 0];
/// Attack units by kind index (knight .. queen) per safe check: a square
/// from which a piece of that kind would give check, that a piece of that
/// kind attacks, not held by an own piece and not attacked by the enemy.
pub const KING_SAFE_CHECK_UNITS: [i32; 6] = [0, 84, 58, 46, 20, 0];
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
pub const DRAWISH_SCALE: i32 = 3;
/// Opposite-coloured bishops with only pawns besides: score scaled by
/// this / 64.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 19;

// ----- lazy evaluation ------------------------------------------------------

/// The positional pass is skipped when material alone is outside the
/// alpha-beta window by more than this.
pub const LAZY_MARGIN: i32 = 700;
