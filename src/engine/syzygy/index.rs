//! Position to table index: the square tables of the Syzygy encoding and
//! the two encoders (tables without pawns, folded by all eight board
//! symmetries; tables with pawns, folded left-right and split by the file
//! of the leading pawn).
//!
//! Squares here are 0..64 (a1 = 0, h8 = 63). Every table below is
//! computed from its definition rather than written out.

use once_cell::sync::Lazy;

/// Most pieces a table holds.
pub const TB_PIECES: usize = 7;

/// Binomial coefficient `n` over `k` (0 when k > n).
pub fn binom(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// Rank minus file: 0 on the a1-h8 diagonal, negative below it.
#[inline]
pub fn off_diag(s: usize) -> i32 {
    (s >> 3) as i32 - (s & 7) as i32
}

/// The square mirrored in the a1-h8 diagonal.
#[inline]
fn flip_diag(s: usize) -> usize {
    ((s >> 3) | (s << 3)) & 63
}

/// The order of the ten squares of the a1-d1-d4 triangle.
const TRIANGLE_ORDER: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// The squares' tables, built once.
pub struct Squares {
    /// Slot 0..10 of a square's image in the a1-d1-d4 triangle.
    triangle: [usize; 64],
    /// Number of a square strictly below the diagonal, in square order.
    lower: [usize; 64],
    /// Index of the two kings, by the first king's triangle slot.
    kk: [[Option<u16>; 64]; 10],
    /// Pawn squares folded to files a-d: file * 6 + rank - 1.
    flap: [usize; 64],
    /// Order of pawn squares for the leading pawns' index.
    ptwist: [usize; 64],
    /// Squares of files a-d by `flap` value.
    inv_flap: [usize; 24],
    /// Per leading-pawn count (0..5): start of each `flap` slot.
    pawn_idx: [[u64; 24]; 5],
    /// Per leading-pawn count and file: number of leading-pawn sets.
    pawn_factor: [[u64; 4]; 5],
}

pub static SQUARES: Lazy<Squares> = Lazy::new(Squares::build);

impl Squares {
    fn build() -> Squares {
        let mut t = Squares {
            triangle: [0; 64],
            lower: [0; 64],
            kk: [[None; 64]; 10],
            flap: [0; 64],
            ptwist: [0; 64],
            inv_flap: [0; 24],
            pawn_idx: [[0; 24]; 5],
            pawn_factor: [[0; 4]; 5],
        };
        for s in 0..64 {
            let mut f = s & 7;
            let mut r = s >> 3;
            if f > 3 {
                f = 7 - f;
            }
            if r > 3 {
                r = 7 - r;
            }
            let folded = if r > f { f * 8 + r } else { r * 8 + f };
            t.triangle[s] = TRIANGLE_ORDER
                .iter()
                .position(|&q| q == folded)
                .unwrap_or(0);
        }
        let mut n = 0;
        for s in 0..64 {
            if off_diag(s) < 0 {
                t.lower[s] = n;
                n += 1;
            }
        }
        t.build_kings();
        t.build_pawns();
        t
    }

    /// The kings' map: for each first king in the triangle, the second
    /// king's squares in order, legal pairs only, both kings on the
    /// diagonal numbered last.
    fn build_kings(&mut self) {
        let mut code = 0u16;
        let mut both_diag = Vec::new();
        for (slot, &k1) in TRIANGLE_ORDER.iter().enumerate() {
            for k2 in 0..64usize {
                let near = (k1 & 7).abs_diff(k2 & 7) <= 1 && (k1 >> 3).abs_diff(k2 >> 3) <= 1;
                if near || (off_diag(k1) == 0 && off_diag(k2) > 0) {
                    continue;
                }
                if off_diag(k1) == 0 && off_diag(k2) == 0 {
                    both_diag.push((slot, k2));
                } else {
                    self.kk[slot][k2] = Some(code);
                    code += 1;
                }
            }
        }
        for (slot, k2) in both_diag {
            self.kk[slot][k2] = Some(code);
            code += 1;
        }
    }

    fn build_pawns(&mut self) {
        for s in 8..56usize {
            let (f, r) = (s & 7, s >> 3);
            let m = f.min(7 - f);
            self.flap[s] = m * 6 + r - 1;
            self.ptwist[s] = (3 - m) * 12 + 2 * (6 - r) + usize::from(f < 4);
            if f < 4 {
                self.inv_flap[f * 6 + r - 1] = s;
            }
        }
        for lead in 0..5 {
            let mut total = 0u64;
            for j in 0..24 {
                if j % 6 == 0 && j > 0 {
                    self.pawn_factor[lead][j / 6 - 1] = total;
                    total = 0;
                }
                self.pawn_idx[lead][j] = total;
                total += if lead == 0 {
                    1
                } else {
                    binom(self.ptwist[self.inv_flap[j]] as u64, lead as u64)
                };
            }
            self.pawn_factor[lead][3] = total;
        }
    }

    /// Number of leading-pawn placements for `lead` pawns with the first on `file`.
    pub fn pawn_factor(&self, lead: usize, file: usize) -> u64 {
        self.pawn_factor[lead - 1][file]
    }

    /// The file (0..4, folded) of the leading pawns: the one with the
    /// smallest `flap` goes first.
    pub fn pawn_file(&self, pos: &mut [usize], lead: usize) -> usize {
        for i in 1..lead {
            if self.flap[pos[0]] > self.flap[pos[i]] {
                pos.swap(0, i);
            }
        }
        let f = pos[0] & 7;
        f.min(7 - f)
    }
}

/// How the pieces of one table side are numbered: the piece codes in the
/// table's order, the group sizes and each group's factor.
#[derive(Clone, Debug, Default)]
pub struct Encoding {
    /// Piece codes as stored (type 1..6, +8 for the second colour).
    pub pieces: Vec<u8>,
    /// At the first piece of each group, the group's size.
    pub norm: Vec<usize>,
    pub factor: [u64; TB_PIECES],
    /// Number of indices.
    pub size: u64,
}

/// Places `k` like pieces among `n` squares.
fn subfactor(k: usize, n: usize) -> u64 {
    binom(n as u64, k as u64)
}

/// Pieces-only tables: `unique` leading pieces (3, or 2 for the kings
/// alone), then groups of equal pieces.
pub fn piece_encoding(pieces: Vec<u8>, order: usize, unique: usize) -> Encoding {
    let n = pieces.len();
    let mut norm = vec![0usize; n];
    norm[0] = unique;
    group_rest(&pieces, &mut norm, unique);
    let mut e = Encoding {
        pieces,
        norm,
        ..Encoding::default()
    };
    let pivot: u64 = if unique == 3 { 31332 } else { 462 };
    let mut free = 64 - unique;
    let (mut f, mut i, mut k) = (1u64, unique, 0usize);
    while i < n || k == order {
        if k == order {
            e.factor[0] = f;
            f *= pivot;
        } else {
            e.factor[i] = f;
            f *= subfactor(e.norm[i], free);
            free -= e.norm[i];
            i += e.norm[i];
        }
        k += 1;
    }
    e.size = f;
    e
}

/// Runs of equal piece codes from `start` on.
fn group_rest(pieces: &[u8], norm: &mut [usize], start: usize) {
    let mut i = start;
    while i < pieces.len() {
        let mut j = i;
        while j < pieces.len() && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += norm[i];
    }
}

/// Tables with pawns: `lead` leading pawns, `other` pawns of the other
/// colour (0 if none), then groups; `order2` is 0x0f with no other pawns.
pub fn pawn_encoding(
    pieces: Vec<u8>,
    (lead, other): (usize, usize),
    (order, order2): (usize, usize),
    file: usize,
) -> Encoding {
    let n = pieces.len();
    let mut norm = vec![0usize; n];
    norm[0] = lead;
    if other > 0 {
        norm[lead] = other;
    }
    group_rest(&pieces, &mut norm, lead + other);
    let mut e = Encoding {
        pieces,
        norm,
        ..Encoding::default()
    };
    let mut i = lead;
    if order2 < 0x0f {
        i += e.norm[i];
    }
    let mut free = 64 - i;
    let (mut f, mut k) = (1u64, 0usize);
    while i < n || k == order || k == order2 {
        if k == order {
            e.factor[0] = f;
            f *= SQUARES.pawn_factor(lead, file);
        } else if k == order2 {
            e.factor[lead] = f;
            f *= subfactor(e.norm[lead], 48 - lead);
        } else {
            e.factor[i] = f;
            f *= subfactor(e.norm[i], free);
            free -= e.norm[i];
            i += e.norm[i];
        }
        k += 1;
    }
    e.size = f;
    e
}

/// The index of the groups from `start` on: each group's squares, sorted,
/// counted among the squares the earlier pieces leave free.
fn groups_index(e: &Encoding, pos: &mut [usize], start: usize, skip: usize) -> u64 {
    let mut idx = 0;
    let mut i = start;
    while i < pos.len() {
        let t = e.norm[i].max(1);
        pos[i..i + t].sort_unstable();
        let mut s = 0;
        for m in i..i + t {
            let p = pos[m];
            let below = pos[..i].iter().filter(|&&q| p > q).count();
            s += binom(p.saturating_sub(below + skip) as u64, (m - i + 1) as u64);
        }
        idx += s * e.factor[i];
        i += t;
    }
    idx
}

/// Index of a pieces-only position (`pos` in the encoding's piece order).
pub fn encode_piece(e: &Encoding, pos: &mut [usize]) -> Option<u64> {
    let sq = &*SQUARES;
    let unique = e.norm[0];
    if pos[0] & 4 != 0 {
        pos.iter_mut().for_each(|p| *p ^= 7);
    }
    if pos[0] & 0x20 != 0 {
        pos.iter_mut().for_each(|p| *p ^= 0x38);
    }
    if let Some(i) = pos.iter().position(|&p| off_diag(p) != 0) {
        if i < unique && off_diag(pos[i]) > 0 {
            pos.iter_mut().for_each(|p| *p = flip_diag(*p));
        }
    }
    let idx = if unique == 3 {
        three_index(pos)
    } else {
        sq.kk[sq.triangle[pos[0]]][pos[1]]? as u64
    };
    Some(idx * e.factor[0] + groups_index(e, pos, unique, 0))
}

/// The three leading unique pieces, folded into the triangle and below
/// the diagonal where a symmetry allows.
fn three_index(pos: &[usize]) -> u64 {
    let sq = &*SQUARES;
    let i = (pos[1] > pos[0]) as usize;
    let j = (pos[2] > pos[0]) as usize + (pos[2] > pos[1]) as usize;
    let diag = |s: usize| s & 7;
    let idx = if off_diag(pos[0]) != 0 {
        sq.triangle[pos[0]] * 63 * 62 + (pos[1] - i) * 62 + (pos[2] - j)
    } else if off_diag(pos[1]) != 0 {
        6 * 63 * 62 + diag(pos[0]) * 28 * 62 + sq.lower[pos[1]] * 62 + pos[2] - j
    } else if off_diag(pos[2]) != 0 {
        6 * 63 * 62
            + 4 * 28 * 62
            + diag(pos[0]) * 7 * 28
            + (diag(pos[1]) - i) * 28
            + sq.lower[pos[2]]
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + diag(pos[0]) * 7 * 6
            + (diag(pos[1]) - i) * 6
            + (diag(pos[2]) - j)
    };
    idx as u64
}

/// Index of a position with pawns; `pos` starts with the leading pawns,
/// the first of them already chosen by [`Squares::pawn_file`].
pub fn encode_pawn(e: &Encoding, pos: &mut [usize], lead: usize, other: usize) -> u64 {
    let sq = &*SQUARES;
    if pos[0] & 4 != 0 {
        pos.iter_mut().for_each(|p| *p ^= 7);
    }
    pos[1..lead].sort_unstable_by_key(|&p| std::cmp::Reverse(sq.ptwist[p]));
    let t = lead - 1;
    let mut idx = sq.pawn_idx[t][sq.flap[pos[0]]];
    for i in (1..=t).rev() {
        idx += binom(sq.ptwist[pos[i]] as u64, (t - i + 1) as u64);
    }
    idx *= e.factor[0];
    let mut i = lead;
    if other > 0 {
        idx += groups_index_range(e, pos, i, i + other, 8);
        i += other;
    }
    idx + groups_index(e, pos, i, 0)
}

/// [`groups_index`] for the one group `start..end` (the other side's pawns,
/// counted from a2 on).
fn groups_index_range(
    e: &Encoding,
    pos: &mut [usize],
    start: usize,
    end: usize,
    skip: usize,
) -> u64 {
    pos[start..end].sort_unstable();
    let mut s = 0;
    for m in start..end {
        let p = pos[m];
        let below = pos[..start].iter().filter(|&&q| p > q).count();
        s += binom(
            p.saturating_sub(below + skip) as u64,
            (m - start + 1) as u64,
        );
    }
    s * e.factor[start]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_map_counts_the_462_placements() {
        let sq = &*SQUARES;
        let codes: Vec<u16> = sq.kk.iter().flatten().filter_map(|&c| c).collect();
        assert_eq!(codes.len(), 462);
        assert_eq!(codes.iter().max(), Some(&461));
        // b1 is slot 0; the second king on d1 is its first legal square.
        assert_eq!(sq.kk[0][3], Some(0));
        assert_eq!(sq.triangle[63], 6);
    }

    #[test]
    fn pawn_twist_orders_files_a_to_d_first() {
        let sq = &*SQUARES;
        assert_eq!(sq.ptwist[8], 47);
        assert_eq!(sq.ptwist[52], 0);
        assert_eq!(sq.flap[51], 23);
        assert_eq!(sq.inv_flap[1], 16);
    }
}
