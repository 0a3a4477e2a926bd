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
    Score(100, 107),
    Score(446, 294),
    Score(494, 290),
    Score(621, 513),
    Score(1842, 657),
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
    Score(-10, 7), Score(1, -5), Score(-3, 1), Score(-3, 9), Score(-4, 19), Score(7, 17), Score(14, 0), Score(-15, 9),
    Score(-5, -8), Score(-17, 2), Score(-10, -4), Score(-11, -12), Score(-5, 7), Score(-6, 4), Score(-2, -2), Score(-18, 6),
    Score(-3, 7), Score(-7, 3), Score(-2, -12), Score(15, -17), Score(13, -19), Score(7, 4), Score(-7, -5), Score(-8, -1),
    Score(4, 6), Score(-3, 4), Score(5, -24), Score(15, -20), Score(5, -19), Score(17, -13), Score(5, -12), Score(-3, 4),
    Score(41, 2), Score(13, 21), Score(22, -12), Score(10, 27), Score(45, -11), Score(27, 3), Score(35, -20), Score(25, -16),
    Score(396, -121), Score(183, 6), Score(321, -83), Score(79, 53), Score(166, -14), Score(185, -35), Score(-40, -9), Score(238, -79),
    Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
];
/// Knights.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    Score(-43, -136), Score(-28, -20), Score(-5, -14), Score(-15, -9), Score(-1, -4), Score(-11, -24), Score(-26, -33), Score(-34, -52),
    Score(-24, 30), Score(12, -13), Score(-16, -55), Score(5, 1), Score(-4, -2), Score(3, -32), Score(7, -31), Score(8, -8),
    Score(-19, -19), Score(0, -16), Score(-9, -4), Score(5, 34), Score(0, 17), Score(2, -1), Score(-8, -13), Score(-22, 13),
    Score(-7, -18), Score(23, -9), Score(13, 32), Score(11, 34), Score(23, 21), Score(20, 33), Score(8, 3), Score(2, -9),
    Score(-21, -4), Score(14, 4), Score(20, 27), Score(23, 41), Score(21, 39), Score(18, 29), Score(3, 11), Score(18, 9),
    Score(-73, 29), Score(-31, 7), Score(-18, 34), Score(43, 27), Score(52, 23), Score(78, 7), Score(35, 12), Score(-5, -25),
    Score(29, -10), Score(5, -3), Score(15, -9), Score(19, 36), Score(69, -13), Score(48, -2), Score(-49, -2), Score(-58, -13),
    Score(-67, -24), Score(-58, -13), Score(-49, -2), Score(-40, 9), Score(-40, 9), Score(-49, -2), Score(-58, -13), Score(-67, -24),
];
/// Bishops.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    Score(-16, -67), Score(14, -17), Score(-14, 15), Score(-8, -10), Score(-8, -17), Score(-19, 4), Score(12, -36), Score(-5, -18),
    Score(-3, -32), Score(-1, 2), Score(7, 5), Score(0, -3), Score(2, 6), Score(2, -1), Score(7, -10), Score(25, -34),
    Score(-7, -15), Score(8, 3), Score(8, 6), Score(7, 7), Score(4, 6), Score(-2, 12), Score(-1, -21), Score(3, -17),
    Score(-19, -17), Score(-1, 0), Score(0, 5), Score(28, 5), Score(7, 28), Score(-2, 5), Score(-9, 10), Score(-12, 16),
    Score(-21, -5), Score(-7, 23), Score(26, 12), Score(12, 32), Score(22, 35), Score(39, -4), Score(8, 1), Score(-26, -13),
    Score(-15, 18), Score(12, 11), Score(10, 31), Score(50, -3), Score(17, 17), Score(63, -4), Score(5, 10), Score(-3, -1),
    Score(-9, 17), Score(-12, 35), Score(-1, -10), Score(64, -8), Score(-7, -11), Score(-38, 41), Score(20, -9), Score(-44, 17),
    Score(44, 23), Score(-9, 32), Score(-97, 57), Score(-4, 13), Score(-14, 23), Score(-185, 21), Score(-13, 34), Score(-63, 28),
];
/// Rooks.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    Score(-9, -8), Score(-2, 3), Score(5, -10), Score(20, -24), Score(17, -16), Score(9, -8), Score(-16, -3), Score(-18, -17),
    Score(-36, 9), Score(14, -29), Score(11, 9), Score(-1, -19), Score(9, -8), Score(4, -20), Score(-5, -19), Score(-48, 11),
    Score(-24, 12), Score(-29, 27), Score(-18, 16), Score(-22, 22), Score(-17, 4), Score(-14, 19), Score(-7, 2), Score(-16, -4),
    Score(-33, 32), Score(-15, 16), Score(-25, 28), Score(-24, 32), Score(-3, 16), Score(1, 25), Score(-23, 28), Score(-24, 15),
    Score(-53, 43), Score(-8, 27), Score(7, 35), Score(13, 23), Score(34, 5), Score(7, 12), Score(-3, 33), Score(27, 11),
    Score(-41, 36), Score(21, 28), Score(-30, 37), Score(-1, 23), Score(17, 18), Score(27, 20), Score(67, -3), Score(28, 9),
    Score(2, 25), Score(-12, 35), Score(-7, 34), Score(6, 28), Score(13, 24), Score(90, 20), Score(19, 30), Score(25, 17),
    Score(36, 32), Score(13, 35), Score(7, 38), Score(-31, 34), Score(12, 47), Score(57, 20), Score(47, 19), Score(-56, 49),
];
/// Queens.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    Score(-13, -42), Score(-9, -31), Score(0, 21), Score(2, -51), Score(1, -62), Score(-21, -41), Score(-19, -78), Score(-14, -32),
    Score(-26, 6), Score(5, -20), Score(8, -30), Score(10, 8), Score(15, -7), Score(16, -28), Score(13, -19), Score(6, -57),
    Score(13, -29), Score(-3, 10), Score(-8, 33), Score(-16, 33), Score(-6, 53), Score(-13, 47), Score(-26, 75), Score(-13, -4),
    Score(5, -3), Score(-14, 52), Score(-10, 86), Score(5, 54), Score(3, 88), Score(4, 59), Score(7, 2), Score(12, -44),
    Score(-5, 28), Score(24, 30), Score(1, 89), Score(-12, 97), Score(-19, 141), Score(-12, 91), Score(-2, 107), Score(-3, 34),
    Score(-14, 90), Score(-13, 76), Score(-7, 108), Score(-12, 138), Score(21, 95), Score(30, 91), Score(32, 38), Score(-24, 89),
    Score(2, 28), Score(-14, 55), Score(-27, 91), Score(15, 74), Score(20, 97), Score(21, 95), Score(9, 70), Score(32, 20),
    Score(24, -10), Score(32, 10), Score(9, 70), Score(-98, 156), Score(10, 76), Score(9, 70), Score(8, 64), Score(7, 58),
];
/// The king (a constant here would cancel: each side has one king).
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    Score(-16, -5), Score(16, -43), Score(-2, -25), Score(-15, -40), Score(-4, -45), Score(-24, -24), Score(25, -40), Score(41, -31),
    Score(36, -21), Score(1, -27), Score(-19, -18), Score(-34, -13), Score(-42, -10), Score(-16, -11), Score(22, -21), Score(-9, -3),
    Score(92, -9), Score(60, 25), Score(20, 34), Score(61, 38), Score(-2, 50), Score(25, 53), Score(11, 37), Score(34, 35),
    Score(87, 1), Score(88, 32), Score(-33, 65), Score(-16, 76), Score(-76, 78), Score(-9, 71), Score(42, 48), Score(-57, 55),
    Score(102, 29), Score(-9, 71), Score(-102, 93), Score(-12, 75), Score(-150, 107), Score(-27, 87), Score(96, 61), Score(2, 66),
    Score(-118, 47), Score(-23, 94), Score(-157, 100), Score(-18, 90), Score(-128, 115), Score(-184, 131), Score(-59, 95), Score(-69, 83),
    Score(-20, 35), Score(-176, 139), Score(24, 72), Score(125, 51), Score(1, 99), Score(-218, 134), Score(-155, 132), Score(-1, 9),
    Score(-35, 19), Score(273, -54), Score(-61, 73), Score(-87, 66), Score(234, -25), Score(253, 64), Score(140, -36), Score(-293, -52),
];

// ----- mobility -------------------------------------------------------------

// By the number of squares a piece reaches that hold no own piece and are
// not attacked by an enemy pawn. The entry at the typical count is held at
// zero, so that the piece value keeps the rest.

/// Knights, by squares reached (8 at most); 4 scores zero.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    Score(-28, -88), Score(-13, -61), Score(-8, -23), Score(-5, -4), Score(-3, 16), Score(3, 25), Score(8, 16),
    Score(17, 8), Score(45, -18),
];
/// Bishops, by squares reached (13 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    Score(-29, -72), Score(-21, -28), Score(-5, -5), Score(-4, 8), Score(-1, 12), Score(5, 16), Score(9, 20),
    Score(9, 21), Score(16, 18), Score(25, 17), Score(15, 18), Score(45, -1), Score(203, -105), Score(129, -47),
];
/// Rooks, by squares reached (14 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    Score(-17, -92), Score(-12, -42), Score(-6, -20), Score(-2, -8), Score(-5, 3), Score(0, 7), Score(1, 15),
    Score(-1, 21), Score(0, 24), Score(0, 32), Score(6, 31), Score(-2, 39), Score(8, 42), Score(26, 32),
    Score(59, 25),
];
/// Queens, by squares reached (27 at most); 12 scores zero.
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    Score(-27, -328), Score(-22, -101), Score(-20, -91), Score(-15, 1), Score(-12, 3), Score(-7, -25), Score(-6, 5),
    Score(-6, 19), Score(-3, 29), Score(-2, 31), Score(-2, 59), Score(3, 60), Score(0, 63), Score(-3, 79),
    Score(-4, 84), Score(-5, 81), Score(7, 73), Score(13, 49), Score(17, 60), Score(49, 17), Score(82, 13),
    Score(278, -173), Score(223, -107), Score(492, -281), Score(705, -381), Score(1318, -758), Score(42, 133), Score(429, -565),
];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-18, 3);
pub const ISOLATED_PAWN: Score = Score(-3, -14);
pub const BACKWARD_PAWN: Score = Score(0, -18);
/// A pawn with an own pawn beside it or defending it, by relative rank.
pub const CONNECTED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(1, -3),
    Score(18, -4),
    Score(12, 8),
    Score(19, 21),
    Score(85, 48),
    Score(108, 98),
    Score(0, 0),
];
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(-17, 17),
    Score(-30, 30),
    Score(56, -4),
    Score(119, -12),
    Score(214, -39),
    Score(193, -67),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(26, -2),
    Score(-14, 2),
    Score(-16, 11),
    Score(-3, 26),
    Score(12, 49),
    Score(92, 108),
    Score(0, 0),
];
/// Passed pawn whose stop square (the one in front) the enemy does not
/// attack, by relative rank.
pub const PASSED_SAFE: [Score; 8] = [
    Score(0, 0),
    Score(-15, 19),
    Score(-6, 8),
    Score(-13, 24),
    Score(-25, 29),
    Score(-23, 65),
    Score(64, 98),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(-6, 13);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(-6, -4);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(9, 49);
/// Per own pawn on the squares of the bishop's colour.
pub const BISHOP_PAWNS: Score = Score(-5, -1);
pub const ROOK_OPEN_FILE: Score = Score(41, -10);
pub const ROOK_HALF_OPEN_FILE: Score = Score(13, 1);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, on relative ranks 4 to 6.
pub const KNIGHT_OUTPOST: Score = Score(28, 7);
pub const BISHOP_OUTPOST: Score = Score(24, -1);
/// Knight or bishop with a pawn (either side's) on the square in front.
pub const MINOR_BEHIND_PAWN: Score = Score(3, 12);
/// Per step from a knight or bishop to its own king.
pub const KING_PROTECTOR: Score = Score(-1, -3);
/// Space: per unit of (safe central squares on our side, those behind
/// our pawns counted twice) x (our knights, bishops, rooks and queens) / 4.
pub const SPACE: Score = Score(1, 0);
/// Chess960 only: a bishop in its corner (relative a1 or h1) shut in by
/// an own pawn on the next square of its diagonal; counted twice when
/// that pawn cannot advance.
pub const CORNERED_BISHOP: Score = Score(-22, 20);
/// A pawn attacking an enemy piece (twice when two pawns attack it).
pub const PAWN_THREAT: Score = Score(49, 27);
/// An enemy piece a pawn would attack after a safe push (one or two
/// squares).
pub const PAWN_PUSH_THREAT: Score = Score(13, 10);
/// An enemy piece attacked by our knights or bishops, by its kind index
/// (pawn .. queen; pawns only when no enemy pawn defends them).
pub const THREAT_BY_MINOR: [Score; 5] = [
    Score(2, 22),
    Score(11, 37),
    Score(29, 14),
    Score(49, 18),
    Score(28, 59),
];
/// The same, attacked by our rooks.
pub const THREAT_BY_ROOK: [Score; 5] = [
    Score(15, 16),
    Score(16, 19),
    Score(19, 17),
    Score(0, 0),
    Score(49, 23),
];
/// An enemy piece or pawn that our king attacks and nothing defends.
pub const THREAT_BY_KING: Score = Score(43, 16);
/// An enemy knight, bishop, rook or queen that we attack and nothing
/// defends.
pub const HANGING: Score = Score(14, -3);
pub const TEMPO: Score = Score(12, 5);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(34, 12);
pub const SHIELD_FAR: Score = Score(21, 9);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(11, 16);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(0, 6);
/// King on a file without own pawns: without enemy pawns either (open),
/// or with (half-open).
pub const KING_OPEN_FILE: Score = Score(-53, 0);
pub const KING_HALF_OPEN_FILE: Score = Score(-17, 3);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 17, 23, 25, 30, 0];
/// Attack units by kind index (knight .. queen) per safe check: a square
/// from which a piece of that kind would give check, that a piece of that
/// kind attacks, not held by an own piece and not attacked by the enemy.
pub const KING_SAFE_CHECK_UNITS: [i32; 6] = [0, 69, 41, 68, 31, 0];
/// Middlegame penalty = units^2 * this / `KING_ATTACK_DIVISOR`, capped.
pub const KING_ATTACK_SCALE: i32 = 18;
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
pub const DRAWISH_SCALE: i32 = 1;
/// Opposite-coloured bishops with only pawns besides: score scaled by
/// this / 64.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 22;

// ----- lazy evaluation ------------------------------------------------------

/// The positional pass is skipped when material alone is outside the
/// alpha-beta window by more than this.
pub const LAZY_MARGIN: i32 = 700;
