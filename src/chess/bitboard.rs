//! Sets of squares as 64-bit words, for the evaluation's attack maps.
//!
//! The board itself is the 10x12 mailbox; the evaluation turns the piece
//! lists into one bit per square (a1 = bit 0 .. h8 = bit 63, the order of
//! [`Sq64`]) so that "which squares does this piece attack", "how many of
//! them are safe" and "is this square defended" are a few word operations.
//! Knight and king attacks are tables; sliders look their attacks up by
//! magic multiplication (the table built from one ray table per direction,
//! cut at the first piece in the way).

use crate::chess::types::*;
use once_cell::sync::Lazy;

/// A set of squares, bit `s.index()` for the [`Sq64`] square `s`.
pub type Bitboard = u64;

/// The a-file and the h-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;

/// Squares of each shade: those where file + rank is even (a1, the dark
/// squares) and the others.
pub const DARK_SQUARES: Bitboard = 0xAA55_AA55_AA55_AA55;
pub const LIGHT_SQUARES: Bitboard = !DARK_SQUARES;

/// The bit of a real mailbox square.
#[inline(always)]
pub fn bit(s: Square) -> Bitboard {
    s.sq64().bit()
}

/// Squares reached from each square by the steps (file, rank) given, one
/// step each.
const fn step_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[s] |= 1u64 << (nf + 8 * nr);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Squares a knight attacks from each square.
pub const KNIGHT_ATTACKS: [Bitboard; 64] = step_table(&KNIGHT_STEPS);

/// Squares a king attacks from each square.
pub const KING_ATTACKS: [Bitboard; 64] = step_table(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);

/// Ray directions as (file, rank) steps. The first four go to higher
/// square indices (the nearest piece on them is the lowest bit), the last
/// four to lower ones (the highest bit).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (-1, 1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (1, -1),
];

/// Indices into `RAYS` by direction.
const NORTH_RAY: usize = 0;
const NORTH_EAST_RAY: usize = 1;
const EAST_RAY: usize = 2;
const NORTH_WEST_RAY: usize = 3;
const SOUTH_RAY: usize = 4;
const SOUTH_WEST_RAY: usize = 5;
const WEST_RAY: usize = 6;
const SOUTH_EAST_RAY: usize = 7;

/// Every square from each square to the edge in each direction (the
/// square itself excluded).
const RAYS: [[Bitboard; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i32, (s / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][s] |= 1u64 << (f + 8 * r);
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// The squares from `s` to the edge of the board along the
/// mailbox step `d`, one of the eight queen steps ([`QUEEN_DIRS`]), `s`
/// itself excluded.
#[inline(always)]
pub fn ray_of_step(d: isize, s: Sq64) -> Bitboard {
    RAYS[RAY_OF_STEP[(d + 11) as usize] as usize][s]
}

/// [`RAYS`]' index of each queen step, by step + 11 (the steps run from
/// -11 to 11 on the mailbox); 0 for the other offsets, which are not asked.
const RAY_OF_STEP: [u8; 23] = {
    let mut t = [0u8; 23];
    t[(NORTH + 11) as usize] = NORTH_RAY as u8;
    t[(NORTH + EAST + 11) as usize] = NORTH_EAST_RAY as u8;
    t[(EAST + 11) as usize] = EAST_RAY as u8;
    t[(NORTH + WEST + 11) as usize] = NORTH_WEST_RAY as u8;
    t[(SOUTH + 11) as usize] = SOUTH_RAY as u8;
    t[(SOUTH + WEST + 11) as usize] = SOUTH_WEST_RAY as u8;
    t[(WEST + 11) as usize] = WEST_RAY as u8;
    t[(SOUTH + EAST + 11) as usize] = SOUTH_EAST_RAY as u8;
    t
};

/// The member of `set`, a non-empty part of one [`ray_of_step`] with step
/// `d`, nearest the ray's start: a step up the board (d > 0) raises the
/// square index, so the nearest is the lowest; else the highest.
#[inline(always)]
pub fn nearest_on_ray(d: isize, set: Bitboard) -> Sq64 {
    debug_assert_ne!(set, 0);
    Sq64::new(if d > 0 {
        set.trailing_zeros() as usize
    } else {
        63 - set.leading_zeros() as usize
    })
}

/// Squares a bishop on each square attacks on an empty board.
pub const BISHOP_RAYS: [Bitboard; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = RAYS[NORTH_EAST_RAY][s]
            | RAYS[NORTH_WEST_RAY][s]
            | RAYS[SOUTH_WEST_RAY][s]
            | RAYS[SOUTH_EAST_RAY][s];
        s += 1;
    }
    t
};

/// Squares a rook on each square attacks on an empty board.
pub const ROOK_RAYS: [Bitboard; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = RAYS[NORTH_RAY][s] | RAYS[EAST_RAY][s] | RAYS[SOUTH_RAY][s] | RAYS[WEST_RAY][s];
        s += 1;
    }
    t
};

/// The squares along a ray that goes to higher indices, up to and with
/// the first occupied one.
#[inline(always)]
fn ray_up(dir: usize, s: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][s];
    // The extra bit 63 stands in for "no blocker": its ray is empty.
    let blocker = ((ray & occupied) | (1u64 << 63)).trailing_zeros() as usize;
    ray ^ RAYS[dir][blocker]
}

/// The squares along a ray that goes to lower indices, up to and with the
/// first occupied one.
#[inline(always)]
fn ray_down(dir: usize, s: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][s];
    // Bit 0 stands in for "no blocker": a1's downward rays are empty.
    let blocker = 63 - ((ray & occupied) | 1).leading_zeros() as usize;
    ray ^ RAYS[dir][blocker]
}

/// Bishop attacks by walking the four rays: what the magic table is built
/// from (and checked against).
fn bishop_attacks_by_rays(s: usize, occupied: Bitboard) -> Bitboard {
    ray_up(NORTH_EAST_RAY, s, occupied)
        | ray_up(NORTH_WEST_RAY, s, occupied)
        | ray_down(SOUTH_WEST_RAY, s, occupied)
        | ray_down(SOUTH_EAST_RAY, s, occupied)
}

/// Rook attacks by walking the four rays, as [`bishop_attacks_by_rays`].
fn rook_attacks_by_rays(s: usize, occupied: Bitboard) -> Bitboard {
    ray_up(NORTH_RAY, s, occupied)
        | ray_up(EAST_RAY, s, occupied)
        | ray_down(SOUTH_RAY, s, occupied)
        | ray_down(WEST_RAY, s, occupied)
}

// ---------------------------------------------------------------------------
// Magic look-up of slider attacks. Only the squares a ray crosses before the
// edge (the mask) can block it; multiplying the occupied part of the mask by
// the square's magic number gathers those bits into the top `bits` bits of
// the product, an index into that square's block of the shared table, where
// every occupancy that maps to one index has the same attacks. The numbers
// were found by a random search (sparse 64-bit candidates, kept when no two
// occupancies with different attacks collide), run once, offline; the table
// is built from the ray walk above on first use, and a test checks every
// occupancy of every square against it.

/// Magic numbers of the rook, by square (a1 = 0).
const ROOK_MAGICS: [u64; 64] = [
    0x1080_0040_0880_1020,
    0x0840_0920_02C0_3000,
    0x1900_2000_1040_0900,
    0x0880_1000_0800_0480,
    0x4200_1004_2008_0200,
    0x8100_0201_0008_0400,
    0x0200_0401_1088_6200,
    0x0200_0080_4022_0411,
    0x0404_8000_8440_0220,
    0x0000_4010_0040_2000,
    0x0086_0010_8122_0440,
    0x0408_8008_0010_0280,
    0x000A_0012_0104_0820,
    0x8848_8002_0084_0080,
    0x4001_0001_0004_0200,
    0x0442_0001_0210_5084,
    0x9080_0100_2080_4100,
    0x0040_4040_0020_1009,
    0x0000_8080_1000_2009,
    0x2200_0900_21D0_0100,
    0x0008_0080_0804_0080,
    0x0004_0040_0201_0040,
    0x0011_0400_0801_5042,
    0x0000_0A00_0176_8104,
    0x0000_8000_8020_4009,
    0x2010_0041_4000_2001,
    0x9800_2002_8010_0080,
    0x1000_1000_8008_0080,
    0x0442_000A_0004_9020,
    0x2100_0400_8002_0080,
    0x0800_1204_0090_0148,
    0x0010_040A_0012_8541,
    0x2800_8040_0080_0030,
    0x1010_0020_0040_0041,
    0x4000_2000_1100_4100,
    0x0610_0084_1080_0800,
    0x0400_8024_0280_0800,
    0xC100_0200_8080_0400,
    0x0002_0008_0200_0401,
    0x0182_0858_8200_0401,
    0x0220_2040_0080_8000,
    0x2860_1000_4002_4022,
    0x0001_0020_0411_0040,
    0x9910_1042_000A_0020,
    0x0004_0800_0400_8080,
    0x0010_0400_0200_8080,
    0x2012_0048_8102_0004,
    0x8300_8424_4482_0011,
    0x0088_4038_8201_0200,
    0x0820_4000_8021_0100,
    0x0110_9100_40A0_0300,
    0x0801_1002_8008_0480,
    0x0242_0090_0820_0600,
    0x1002_0004_8950_0200,
    0x0040_8002_0001_0080,
    0x0091_8000_4100_0080,
    0x0000_2093_0048_8001,
    0x04C1_0024_1482_4001,
    0x0200_2000_0B00_1041,
    0x7000_1000_0420_0901,
    0x8002_0020_0410_0802,
    0x3001_0002_084C_0007,
    0x0888_2218_0081_3004,
    0x4000_0028_4084_0112,
];

/// Magic numbers of the bishop, by square.
const BISHOP_MAGICS: [u64; 64] = [
    0xA010_0411_0800_3100,
    0x0060_8202_0A00_2900,
    0x6810_0106_1920_0000,
    0x0828_1A05_2000_0408,
    0x0001_1040_0100_0400,
    0x0018_9010_0804_8400,
    0x0004_0A02_1024_5280,
    0x0002_0021_0808_A402,
    0x9140_0484_1082_1200,
    0x0800_0910_1082_0041,
    0x2050_4804_8322_02C0,
    0x0100_0914_0108_1000,
    0x8021_0111_4000_0012,
    0x0810_0208_0445_0400,
    0x208B_0542_1090_08A2,
    0x0080_084A_0804_0204,
    0x0040_E2A8_0811_244C,
    0x2505_0220_0800_8108,
    0x0430_2201_0042_0040,
    0x010A_0404_2022_0040,
    0x1105_0002_9040_0000,
    0x0093_0012_0082_2120,
    0x4000_A620_4804_3004,
    0x2801_2004_8A01_5004,
    0x0060_9000_2A02_0814,
    0x4404_2000_2408_00D0,
    0x0110_2800_040A_4400,
    0x1004_0800_8022_0040,
    0x0001_0010_1100_4024,
    0x0010_0440_0080_5040,
    0x0914_0412_0082_0100,
    0x0004_8210_1282_1480,
    0x0024_0405_00C0_5021,
    0x0088_6110_0208_0200,
    0x0116_080A_0004_0020,
    0x4000_0200_8008_0080,
    0x2450_4501_4084_0040,
    0x0000_8802_0148_4100,
    0x0222_0204_0402_0092,
    0x8081_1106_0000_2E00,
    0x2842_1011_0500_0801,
    0x1100_8090_0800_1025,
    0x0002_0202_221C_0400,
    0x0422_0140_2200_9020,
    0x0210_0461_0210_0C00,
    0xC004_0080_8202_9102,
    0x00AA_4618_0110_1200,
    0x0404_0800_8020_1108,
    0x0205_4210_8C20_5002,
    0x0410_5448_0410_0100,
    0x0040_9108_4110_0000,
    0x0400_2000_4202_1100,
    0x0000_4204_8504_00C0,
    0x0200_1004_10A4_2102,
    0x1040_0208_0121_0102,
    0x0805_0404_1042_0000,
    0x2884_8041_3010_0200,
    0x800C_2622_0124_2000,
    0x1058_0001_9410_8800,
    0x0014_2210_5442_0204,
    0x0104_0000_12A0_2200,
    0x0200_8810_0330_0100,
    0x0140_4002_0284_0100,
    0x0402_0208_0101_0201,
];

/// One square's look-up: the mask, the magic, the shift (64 less the
/// mask's bit count) and where its block starts in the table.
#[derive(Clone, Copy, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// The magics of both kinds and the attack sets they index: 102,400 rook
/// and 5,248 bishop entries, 861 KB.
struct SliderTables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<Bitboard>,
}

/// The squares of the ray from `s` in direction `dir` that can block it:
/// all but the last (the edge), the highest bit on the rays that go to
/// higher indices (the first four), the lowest on the others.
fn blockers(dir: usize, s: usize) -> Bitboard {
    let ray = RAYS[dir][s];
    match ray {
        0 => 0,
        _ if dir < SOUTH_RAY => ray & !(1u64 << (63 - ray.leading_zeros())),
        _ => ray & (ray - 1),
    }
}

/// Every subset of `mask`, the empty one first, by the carry-rippler step.
fn subsets(mask: Bitboard) -> impl Iterator<Item = Bitboard> {
    let mut next: Option<Bitboard> = Some(0);
    std::iter::from_fn(move || {
        let subset = next?;
        let following = subset.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(subset)
    })
}

impl SliderTables {
    fn build() -> SliderTables {
        let mut t = SliderTables {
            rook: [Magic::default(); 64],
            bishop: [Magic::default(); 64],
            attacks: Vec::with_capacity(107_648),
        };
        for s in 0..64 {
            let mask_of = |dirs: [usize; 4]| dirs.iter().fold(0, |m, &d| m | blockers(d, s));
            let rook_mask = mask_of([NORTH_RAY, EAST_RAY, SOUTH_RAY, WEST_RAY]);
            let bishop_mask = mask_of([
                NORTH_EAST_RAY,
                NORTH_WEST_RAY,
                SOUTH_WEST_RAY,
                SOUTH_EAST_RAY,
            ]);
            t.rook[s] = Self::fill(
                &mut t.attacks,
                rook_mask,
                ROOK_MAGICS[s],
                s,
                rook_attacks_by_rays,
            );
            t.bishop[s] = Self::fill(
                &mut t.attacks,
                bishop_mask,
                BISHOP_MAGICS[s],
                s,
                bishop_attacks_by_rays,
            );
        }
        t
    }

    /// Appends square `s`'s block, every subset of `mask` at its index.
    fn fill(
        attacks: &mut Vec<Bitboard>,
        mask: Bitboard,
        magic: u64,
        s: usize,
        by_rays: fn(usize, Bitboard) -> Bitboard,
    ) -> Magic {
        let bits = mask.count_ones();
        let m = Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset: attacks.len() as u32,
        };
        attacks.resize(attacks.len() + (1 << bits), 0);
        for subset in subsets(mask) {
            attacks[m.index(subset)] = by_rays(s, subset);
        }
        m
    }
}

static SLIDERS: Lazy<SliderTables> = Lazy::new(SliderTables::build);

/// Squares a bishop on `s` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(s: Sq64, occupied: Bitboard) -> Bitboard {
    let t = &*SLIDERS;
    t.attacks[t.bishop[s].index(occupied)]
}

/// Squares a rook on `s` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(s: Sq64, occupied: Bitboard) -> Bitboard {
    let t = &*SLIDERS;
    t.attacks[t.rook[s].index(occupied)]
}

/// Squares the pawns `pawns` of `color` attack towards the h-file side and
/// towards the a-file side.
#[inline(always)]
pub fn pawn_attacks_each_way(pawns: Bitboard, color: Color) -> (Bitboard, Bitboard) {
    match color {
        Color::White => ((pawns & !FILE_H) << 9, (pawns & !FILE_A) << 7),
        Color::Black => ((pawns & !FILE_H) >> 7, (pawns & !FILE_A) >> 9),
    }
}

/// The number of squares in a set that is often empty: the test first is
/// cheaper than a count, which the baseline x86-64 target does without a
/// popcount instruction.
#[inline(always)]
pub fn count_sparse(set: Bitboard) -> i32 {
    if set == 0 {
        0
    } else {
        set.count_ones() as i32
    }
}

/// Iterates over the squares of a set, a1 first.
#[inline(always)]
pub fn squares_of(mut set: Bitboard) -> impl Iterator<Item = Sq64> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = Sq64::new(set.trailing_zeros() as usize);
            set &= set - 1;
            s
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::board::Board;

    /// Squares attacked from `from` by walking the mailbox, as the move
    /// generator does.
    fn walk(board: &Board, from: Square, steps: &[isize], slides: bool) -> Bitboard {
        let mut set = 0;
        for &d in steps {
            let mut to = from.offset(d);
            while board.at(to) != OFF_BOARD {
                set |= bit(to);
                if !slides || board.at(to) != EMPTY {
                    break;
                }
                to = to.offset(d);
            }
        }
        set
    }

    #[test]
    fn attacks_agree_with_the_mailbox() {
        for fen in crate::engine::bench::POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            let mut occupied = 0;
            for i in Sq64::all() {
                if board.at(i.cell()) != EMPTY {
                    occupied |= i.bit();
                }
            }
            for i in Sq64::all() {
                let s = i.cell();
                assert_eq!(s.sq64(), i);
                assert_eq!(KNIGHT_ATTACKS[i], walk(&board, s, &KNIGHT_JUMPS, false));
                assert_eq!(KING_ATTACKS[i], walk(&board, s, &QUEEN_DIRS, false));
                assert_eq!(
                    bishop_attacks(i, occupied),
                    walk(&board, s, &BISHOP_DIRS, true),
                    "{fen} {i:?}"
                );
                assert_eq!(
                    rook_attacks(i, occupied),
                    walk(&board, s, &ROOK_DIRS, true),
                    "{fen} {i:?}"
                );
            }
        }
    }

    /// The magic look-up gives the ray walk's attacks for every occupancy
    /// of every square's mask (so no two occupancies with different
    /// attacks share an entry), and pieces off the mask change nothing.
    #[test]
    fn magic_lookup_agrees_with_the_rays_on_every_occupancy() {
        let t = &*SLIDERS;
        let mut checked = 0;
        for s in 0..64 {
            for (m, by_rays) in [
                (
                    t.rook[s],
                    rook_attacks_by_rays as fn(usize, Bitboard) -> Bitboard,
                ),
                (t.bishop[s], bishop_attacks_by_rays),
            ] {
                for subset in subsets(m.mask) {
                    // Pieces in the corners (never on a mask) block nothing.
                    let outside = !m.mask & 0x8100_0000_0000_0081 & !(1u64 << s);
                    assert_eq!(t.attacks[m.index(subset)], by_rays(s, subset), "square {s}");
                    assert_eq!(
                        t.attacks[m.index(subset | outside)],
                        by_rays(s, subset | outside),
                        "square {s}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 107_648);
        assert_eq!(t.attacks.len(), 107_648);
    }

    #[test]
    fn pawns_attack_diagonally_forward() {
        let e4 = Sq64::from_coords(4, 3).bit();
        let a4 = Sq64::from_coords(0, 3).bit();
        let h4 = Sq64::from_coords(7, 3).bit();
        let at = |f, r| Sq64::from_coords(f, r).bit();
        assert_eq!(
            pawn_attacks_each_way(e4, Color::White),
            (at(5, 4), at(3, 4))
        );
        assert_eq!(
            pawn_attacks_each_way(e4, Color::Black),
            (at(5, 2), at(3, 2))
        );
        assert_eq!(pawn_attacks_each_way(a4, Color::White), (at(1, 4), 0));
        assert_eq!(pawn_attacks_each_way(h4, Color::Black), (0, at(6, 2)));
        assert_eq!(DARK_SQUARES & 1, 1, "a1 is dark");
        assert_eq!(
            squares_of(e4 | a4).collect::<Vec<_>>(),
            vec![
                Square::from_coords(0, 3).sq64(),
                Square::from_coords(4, 3).sq64()
            ]
        );
    }
}
