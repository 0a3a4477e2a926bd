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
//! `engine::eval::tuning::is_frozen`.

/// A middlegame / endgame pair, packed in one 64-bit integer (middlegame
/// in the high half, endgame in the low half, each signed) so that adding
/// two pairs or scaling one is a single instruction. The packing is exact
/// for any pair whose halves fit in `i32`, sums included.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    packed: i64,
}

/// The pair `(mg, eg)`; written like a tuple struct's constructor so the
/// weight tables read as pairs.
#[allow(non_snake_case)]
#[inline(always)]
pub const fn Score(mg: i32, eg: i32) -> Score {
    Score {
        packed: ((mg as i64) << 32).wrapping_add(eg as i64),
    }
}

impl Score {
    /// The middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        (self.packed.wrapping_add(1 << 31) >> 32) as i32
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.packed as i32
    }
}

impl std::fmt::Debug for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Score({}, {})", self.mg(), self.eg())
    }
}

impl std::ops::Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score {
            packed: self.packed.wrapping_add(o.packed),
        }
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score {
            packed: self.packed.wrapping_sub(o.packed),
        }
    }
}

impl std::ops::AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        *self = *self + o;
    }
}

impl std::ops::SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, o: Score) {
        *self = *self - o;
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, k: i32) -> Score {
        Score {
            packed: self.packed.wrapping_mul(k as i64),
        }
    }
}

// ----- material -------------------------------------------------------------

/// Piece values by `kind_index` (pawn, knight, bishop, rook, queen, king).
pub const PIECE_VALUE: [Score; 6] = [
    Score(95, 105),
    Score(434, 293),
    Score(481, 285),
    Score(609, 513),
    Score(1815, 659),
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
    Score(-8, 7), Score(3, -5), Score(1, -1), Score(-1, 6), Score(-1, 18), Score(9, 17), Score(14, -2), Score(-12, 8),
    Score(-5, -8), Score(-19, 1), Score(-9, -5), Score(-11, -11), Score(-4, 6), Score(-6, 3), Score(-4, -2), Score(-17, 7),
    Score(0, 10), Score(-9, 5), Score(-6, -14), Score(10, -16), Score(10, -19), Score(4, 2), Score(-7, -5), Score(-5, 2),
    Score(5, 6), Score(-5, 4), Score(4, -24), Score(8, -21), Score(-2, -20), Score(15, -12), Score(2, -10), Score(0, 6),
    Score(43, 0), Score(7, 20), Score(19, -13), Score(7, 27), Score(37, -10), Score(21, 5), Score(26, -16), Score(28, -13),
    Score(395, -128), Score(176, 2), Score(312, -92), Score(76, 46), Score(166, -23), Score(181, -40), Score(-38, -15), Score(241, -88),
    Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
];
/// Knights.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    Score(-41, -137), Score(-28, -22), Score(-6, -16), Score(-15, -9), Score(-2, -5), Score(-12, -25), Score(-24, -33), Score(-32, -56),
    Score(-23, 25), Score(11, -12), Score(-13, -53), Score(6, 5), Score(-5, 0), Score(1, -31), Score(7, -31), Score(8, -10),
    Score(-18, -17), Score(0, -16), Score(-10, -1), Score(6, 35), Score(-2, 19), Score(2, 0), Score(-9, -10), Score(-23, 16),
    Score(-5, -21), Score(26, -9), Score(15, 32), Score(12, 36), Score(25, 23), Score(22, 33), Score(9, 5), Score(3, -14),
    Score(-21, -4), Score(14, 4), Score(22, 27), Score(24, 41), Score(23, 39), Score(18, 28), Score(3, 11), Score(20, 5),
    Score(-71, 27), Score(-27, 7), Score(-17, 35), Score(45, 27), Score(52, 26), Score(79, 9), Score(36, 10), Score(-3, -27),
    Score(31, -12), Score(9, -5), Score(23, -13), Score(21, 35), Score(73, -14), Score(52, -2), Score(-47, -4), Score(-56, -15),
    Score(-65, -26), Score(-56, -15), Score(-47, -4), Score(-38, 7), Score(-38, 7), Score(-47, -4), Score(-56, -15), Score(-65, -26),
];
/// Bishops.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    Score(-19, -78), Score(13, -18), Score(-15, 15), Score(-9, -6), Score(-8, -14), Score(-16, 7), Score(12, -32), Score(-9, -31),
    Score(-5, -27), Score(-4, -9), Score(9, 11), Score(0, 0), Score(3, 10), Score(4, 2), Score(6, -22), Score(23, -33),
    Score(-6, -13), Score(7, 9), Score(6, -9), Score(9, 12), Score(3, 12), Score(-5, -4), Score(-2, -14), Score(3, -14),
    Score(-17, -15), Score(1, 4), Score(3, 11), Score(29, 11), Score(10, 33), Score(1, 13), Score(-7, 14), Score(-12, 18),
    Score(-17, -4), Score(-4, 27), Score(27, 18), Score(15, 37), Score(21, 41), Score(42, 1), Score(7, 7), Score(-23, -7),
    Score(-10, 17), Score(14, 14), Score(12, 17), Score(43, 4), Score(17, 21), Score(61, -20), Score(1, 14), Score(-5, 3),
    Score(-10, 20), Score(-8, 15), Score(3, -7), Score(59, -1), Score(-4, -6), Score(-35, 44), Score(19, -27), Score(-43, 16),
    Score(44, 2), Score(-7, 31), Score(-93, 56), Score(5, 13), Score(-34, 28), Score(-172, 24), Score(-14, 36), Score(-68, 6),
];
/// Rooks.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    Score(-6, -9), Score(-1, 3), Score(6, -9), Score(17, -22), Score(16, -16), Score(7, -7), Score(-14, 0), Score(-14, -16),
    Score(-32, 7), Score(15, -29), Score(11, 9), Score(-2, -18), Score(8, -8), Score(1, -18), Score(-5, -17), Score(-41, 12),
    Score(-23, 11), Score(-28, 26), Score(-17, 15), Score(-21, 22), Score(-15, 3), Score(-13, 18), Score(-5, 2), Score(-15, -4),
    Score(-31, 31), Score(-16, 19), Score(-27, 32), Score(-30, 33), Score(-9, 18), Score(-6, 28), Score(-24, 30), Score(-28, 17),
    Score(-52, 44), Score(-9, 28), Score(4, 36), Score(5, 25), Score(26, 9), Score(2, 13), Score(-4, 36), Score(20, 16),
    Score(-37, 37), Score(22, 30), Score(-29, 37), Score(2, 25), Score(9, 21), Score(20, 22), Score(66, 0), Score(25, 13),
    Score(5, 26), Score(-9, 33), Score(-4, 32), Score(9, 28), Score(10, 27), Score(84, 23), Score(21, 30), Score(26, 19),
    Score(32, 34), Score(14, 36), Score(6, 38), Score(-26, 33), Score(11, 45), Score(55, 22), Score(41, 21), Score(-49, 47),
];
/// Queens.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    Score(-13, -37), Score(-9, -25), Score(-2, 24), Score(1, -49), Score(-1, -58), Score(-20, -37), Score(-21, -76), Score(-16, -29),
    Score(-23, 6), Score(4, -21), Score(9, -31), Score(11, 11), Score(15, -5), Score(16, -26), Score(14, -15), Score(5, -56),
    Score(17, -26), Score(-1, 10), Score(-8, 41), Score(-12, 36), Score(-6, 55), Score(-13, 48), Score(-23, 77), Score(-13, -7),
    Score(10, -5), Score(-9, 51), Score(-6, 86), Score(5, 54), Score(3, 88), Score(5, 59), Score(6, 6), Score(11, -42),
    Score(1, 18), Score(33, 16), Score(10, 73), Score(-4, 87), Score(-14, 132), Score(-7, 80), Score(3, 96), Score(-5, 22),
    Score(-6, 72), Score(-8, 68), Score(3, 91), Score(-10, 126), Score(25, 83), Score(30, 82), Score(34, 27), Score(-21, 75),
    Score(7, 17), Score(-3, 41), Score(-16, 73), Score(28, 49), Score(27, 82), Score(28, 73), Score(0, 70), Score(26, 10),
    Score(15, -10), Score(23, 10), Score(0, 70), Score(-107, 156), Score(1, 76), Score(0, 70), Score(-1, 64), Score(-2, 58),
];
/// The king (a constant here would cancel: each side has one king).
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    Score(-2, -6), Score(11, -34), Score(-7, -18), Score(-15, -36), Score(-2, -38), Score(-25, -20), Score(16, -34), Score(41, -29),
    Score(34, -17), Score(-9, -20), Score(-27, -11), Score(-38, -9), Score(-45, -8), Score(-22, -8), Score(12, -15), Score(-6, -3),
    Score(98, -16), Score(65, 16), Score(29, 23), Score(75, 23), Score(15, 36), Score(36, 37), Score(24, 23), Score(48, 21),
    Score(91, -5), Score(88, 26), Score(-38, 61), Score(-11, 68), Score(-70, 68), Score(1, 56), Score(51, 35), Score(-45, 44),
    Score(116, 26), Score(10, 62), Score(-93, 88), Score(-7, 72), Score(-150, 104), Score(-31, 80), Score(106, 54), Score(24, 56),
    Score(-66, 40), Score(0, 90), Score(-125, 93), Score(-13, 88), Score(-157, 118), Score(-161, 124), Score(-37, 87), Score(-25, 71),
    Score(-27, 42), Score(-138, 138), Score(68, 71), Score(140, 57), Score(-2, 104), Score(-227, 137), Score(-145, 131), Score(-8, 16),
    Score(-42, 26), Score(266, -47), Score(-68, 80), Score(-86, 87), Score(227, -18), Score(227, 71), Score(133, -29), Score(-300, -45),
];

// ----- mobility -------------------------------------------------------------

// By the number of squares a piece reaches that hold no own piece and are
// not attacked by an enemy pawn. The entry at the typical count is held at
// zero, so that the piece value keeps the rest.

/// Knights, by squares reached (8 at most); 4 scores zero.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    Score(-25, -78), Score(-10, -57), Score(-6, -22), Score(-3, -4), Score(-2, 15), Score(4, 24), Score(7, 15),
    Score(15, 6), Score(37, -19),
];
/// Bishops, by squares reached (13 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    Score(-25, -66), Score(-17, -27), Score(-6, -4), Score(-3, 9), Score(-2, 11), Score(5, 15), Score(8, 18),
    Score(9, 19), Score(14, 15), Score(22, 11), Score(12, 12), Score(41, -9), Score(202, -107), Score(120, -56),
];
/// Rooks, by squares reached (14 at most); 6 scores zero.
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    Score(-14, -84), Score(-9, -37), Score(-4, -15), Score(-1, -4), Score(-4, 3), Score(3, 8), Score(0, 13),
    Score(-3, 18), Score(-1, 22), Score(-4, 27), Score(2, 29), Score(-5, 36), Score(4, 36), Score(21, 30),
    Score(52, 20),
];
/// Queens, by squares reached (27 at most); 12 scores zero.
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    Score(-24, -321), Score(-24, -101), Score(-20, -90), Score(-14, 1), Score(-13, 2), Score(-8, -25), Score(-7, 6),
    Score(-6, 19), Score(-3, 31), Score(-1, 31), Score(-4, 58), Score(1, 60), Score(-1, 61), Score(-3, 77),
    Score(-5, 81), Score(-6, 78), Score(6, 69), Score(11, 45), Score(18, 58), Score(50, 11), Score(83, 4),
    Score(283, -180), Score(222, -109), Score(491, -283), Score(704, -383), Score(1317, -760), Score(41, 131), Score(428, -567),
];

// ----- pawns ----------------------------------------------------------------

pub const DOUBLED_PAWN: Score = Score(-17, 0);
pub const ISOLATED_PAWN: Score = Score(-2, -13);
pub const BACKWARD_PAWN: Score = Score(1, -18);
/// A pawn with an own pawn beside it or defending it, by relative rank.
pub const CONNECTED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(3, -1),
    Score(17, -2),
    Score(12, 9),
    Score(19, 21),
    Score(86, 51),
    Score(99, 103),
    Score(0, 0),
];
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(-17, 14),
    Score(-31, 28),
    Score(55, -11),
    Score(116, -23),
    Score(207, -56),
    Score(186, -85),
    Score(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [Score; 8] = [
    Score(0, 0),
    Score(26, -1),
    Score(-14, 4),
    Score(-17, 11),
    Score(-4, 27),
    Score(12, 48),
    Score(88, 109),
    Score(0, 0),
];
/// Passed pawn whose stop square (the one in front) the enemy does not
/// attack, by relative rank.
pub const PASSED_SAFE: [Score; 8] = [
    Score(0, 0),
    Score(-14, 17),
    Score(-5, 7),
    Score(-12, 22),
    Score(-24, 26),
    Score(-22, 64),
    Score(58, 98),
    Score(0, 0),
];
/// Endgame bonus per square of distance of the enemy king from the
/// square in front of a passed pawn, and penalty for the own king's.
pub const PASSED_KING_DISTANCE_THEIRS: Score = Score(-5, 13);
pub const PASSED_KING_DISTANCE_OURS: Score = Score(-7, -3);

// ----- pieces ---------------------------------------------------------------

pub const BISHOP_PAIR: Score = Score(9, 52);
/// Per own pawn on the squares of the bishop's colour.
pub const BISHOP_PAWNS: Score = Score(-4, -1);
pub const ROOK_OPEN_FILE: Score = Score(42, -11);
pub const ROOK_HALF_OPEN_FILE: Score = Score(12, 0);
/// Knight or bishop on a square no enemy pawn can attack, guarded by an
/// own pawn, on relative ranks 4 to 6.
pub const KNIGHT_OUTPOST: Score = Score(29, 7);
pub const BISHOP_OUTPOST: Score = Score(22, -1);
/// Knight or bishop with a pawn (either side's) on the square in front.
pub const MINOR_BEHIND_PAWN: Score = Score(3, 12);
/// Per step from a knight or bishop to its own king.
pub const KING_PROTECTOR: Score = Score(-2, -2);
/// Space: per unit of (safe central squares on our side, those behind
/// our pawns counted twice) x (our knights, bishops, rooks and queens) / 4.
pub const SPACE: Score = Score(0, 1);
/// A bishop that sees both central squares of a long diagonal (through
/// pieces, not pawns).
pub const LONG_DIAGONAL_BISHOP: Score = Score(2, 23);
/// A bishop that does not hit the enemy king's zone but would with the
/// pieces (not the pawns) gone.
pub const BISHOP_ON_KING_RING: Score = Score(8, -2);
/// A rook that does not hit the enemy king's zone but stands on a file
/// that crosses it.
pub const ROOK_ON_KING_RING: Score = Score(3, -6);
/// A rook on a file with an own pawn, three squares to go or fewer, shut
/// in on the king's side; counted twice when the king cannot castle.
pub const TRAPPED_ROOK: Score = Score(-5, -11);
/// A rook on the file of an enemy queen.
pub const ROOK_ON_QUEEN_FILE: Score = Score(3, 6);
/// A queen in the enemy half on a square no enemy pawn can ever attack.
pub const QUEEN_INFILTRATION: Score = Score(4, 11);
/// Chess960 only: a bishop in its corner (relative a1 or h1) shut in by
/// an own pawn on the next square of its diagonal; counted twice when
/// that pawn cannot advance.
pub const CORNERED_BISHOP: Score = Score(-20, 26);
/// A pawn attacking an enemy piece (twice when two pawns attack it).
pub const PAWN_THREAT: Score = Score(47, 25);
/// An enemy piece a pawn would attack after a safe push (one or two
/// squares).
pub const PAWN_PUSH_THREAT: Score = Score(16, 11);
/// An enemy piece attacked by our knights or bishops, by its kind index
/// (pawn .. queen; pawns only when no enemy pawn defends them).
pub const THREAT_BY_MINOR: [Score; 5] = [
    Score(2, 24),
    Score(10, 36),
    Score(31, 13),
    Score(50, 19),
    Score(25, 63),
];
/// The same, attacked by our rooks.
pub const THREAT_BY_ROOK: [Score; 5] = [
    Score(14, 15),
    Score(15, 18),
    Score(21, 15),
    Score(0, 0),
    Score(32, 28),
];
/// An enemy piece or pawn that our king attacks and nothing defends.
pub const THREAT_BY_KING: Score = Score(51, 14);
/// An enemy knight, bishop, rook or queen that we attack and nothing
/// defends.
pub const HANGING: Score = Score(15, 0);
/// A square both sides attack that the enemy does not hold strongly (by a
/// pawn, or twice against our once), per square.
pub const RESTRICTED: Score = Score(5, 1);
/// A safe square from which one of our knights could attack the enemy
/// queen (one queen only).
pub const KNIGHT_ON_QUEEN: Score = Score(3, 9);
/// A safe square we attack twice from which one of our bishops or rooks
/// could attack the enemy queen (one queen only).
pub const SLIDER_ON_QUEEN: Score = Score(11, 7);
pub const TEMPO: Score = Score(12, 4);

// ----- king safety ----------------------------------------------------------

/// Own pawn on the file in front of the king, one or two ranks ahead.
pub const SHIELD_NEAR: Score = Score(43, 2);
pub const SHIELD_FAR: Score = Score(31, 2);
/// No own pawn on a file in front of the king.
pub const SHIELD_MISSING: Score = Score(19, 11);
/// Enemy pawn two or three ranks in front of the king (a storm).
pub const PAWN_STORM: Score = Score(3, 2);
/// King on a file without own pawns: without enemy pawns either (open),
/// or with (half-open).
pub const KING_OPEN_FILE: Score = Score(-57, 5);
pub const KING_HALF_OPEN_FILE: Score = Score(-13, 4);
/// No pawn of either side on the king's flank.
pub const PAWNLESS_FLANK: Score = Score(83, -39);
/// Per enemy attack on the king's flank in our camp (our first five
/// ranks), squares the enemy attacks twice counted twice.
pub const FLANK_ATTACK: Score = Score(-2, 1);
/// Per step from the king to its nearest own pawn.
pub const KING_PAWN_DISTANCE: Score = Score(-7, -9);
/// Attack units by attacker kind index (knight .. queen) per king-zone
/// square attacked.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 15, 21, 24, 28, 0];
/// Attack units by kind index (knight .. queen) per safe check: a square
/// from which a piece of that kind would give check, that a piece of that
/// kind attacks, not held by an own piece and not attacked by the enemy.
pub const KING_SAFE_CHECK_UNITS: [i32; 6] = [0, 68, 45, 71, 33, 0];
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
pub const DRAWISH_SCALE: i32 = 1;
/// Opposite-coloured bishops with only pawns besides: score scaled by
/// this / 64.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 22;

// ----- lazy evaluation ------------------------------------------------------

/// The positional pass is skipped when material alone is outside the
/// alpha-beta window by more than this.
pub const LAZY_MARGIN: i32 = 700;

#[cfg(test)]
mod packed_tests {
    use super::Score;

    #[test]
    fn packed_pairs_add_scale_and_split_exactly() {
        let halves = [
            0,
            1,
            -1,
            7,
            -7,
            300,
            -300,
            32_767,
            -32_768,
            1 << 20,
            -(1 << 20),
        ];
        for &a in &halves {
            for &b in &halves {
                let s = Score(a, b);
                assert_eq!((s.mg(), s.eg()), (a, b));
                for &c in &halves {
                    for &d in &halves {
                        let t = Score(c, d);
                        assert_eq!(((s + t).mg(), (s + t).eg()), (a + c, b + d));
                        assert_eq!(((s - t).mg(), (s - t).eg()), (a - c, b - d));
                    }
                }
                for k in [-3, -1, 0, 1, 2, 9] {
                    assert_eq!(((s * k).mg(), (s * k).eg()), (a * k, b * k));
                }
                assert_eq!(format!("{s:?}"), format!("Score({a}, {b})"));
            }
        }
    }
}
