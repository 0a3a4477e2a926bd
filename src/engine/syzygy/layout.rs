//! Where things are in a `.rtbw` or `.rtbz` file: the piece orders of each
//! part, the pair decoders, the index, size and data sections and (DTZ)
//! the value maps. Parsed from the file's bytes, every offset checked
//! against the file's length.

use super::index::{pawn_encoding, piece_encoding, Encoding, TB_PIECES};
use super::pairs::{u16_le, u8_at, Pairs};

pub const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
pub const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// DTZ part flags: values are mapped through a table...
pub const FLAG_MAPPED: u8 = 2;
/// ...of 16-bit entries.
pub const FLAG_WIDE: u8 = 16;

/// The material a file name gives: piece type codes (1 pawn .. 6 king)
/// of the first side ("white") and the second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Material {
    pub sides: [Vec<u8>; 2],
}

impl Material {
    /// Parses `KQvKR`-style names; `None` for anything else.
    pub fn from_name(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let codes = |s: &str| -> Option<Vec<u8>> {
            s.chars()
                .map(|c| "PNBRQK".find(c).map(|i| i as u8 + 1))
                .collect()
        };
        let m = Material {
            sides: [codes(w)?, codes(b)?],
        };
        let kings = |v: &Vec<u8>| v.iter().filter(|&&c| c == 6).count() == 1;
        let n = m.count();
        (kings(&m.sides[0]) && kings(&m.sides[1]) && (3..=TB_PIECES).contains(&n)).then_some(m)
    }

    pub fn count(&self) -> usize {
        self.sides[0].len() + self.sides[1].len()
    }

    /// Count of `code` (1..6) on side `s`.
    fn of(&self, s: usize, code: u8) -> usize {
        self.sides[s].iter().filter(|&&c| c == code).count()
    }

    /// The key of the material: 4 bits per piece type and side.
    pub fn key(&self) -> u64 {
        material_key(|side, code| self.of(side, code))
    }

    /// The key with the colours swapped.
    pub fn mirrored_key(&self) -> u64 {
        material_key(|side, code| self.of(1 - side, code))
    }

    pub fn has_pawns(&self) -> bool {
        self.of(0, 1) + self.of(1, 1) > 0
    }

    /// Leading pawns (the side with fewer, if both have some) and others.
    pub fn pawns(&self) -> (usize, usize) {
        let (a, b) = (self.of(0, 1), self.of(1, 1));
        if a > 0 && b > 0 {
            (a.min(b), a.max(b))
        } else {
            (a + b, 0)
        }
    }

    /// Pieces-only tables: 3 leading unique pieces, or the 2 kings when
    /// fewer than three piece types stand alone.
    pub fn unique_leaders(&self) -> usize {
        let single = (0..2)
            .flat_map(|s| (1..=6).map(move |c| (s, c)))
            .filter(|&(s, c)| self.of(s, c) == 1)
            .count();
        if single >= 3 {
            3
        } else {
            2
        }
    }

    /// The material of stored piece codes (type + 8 for the second side).
    pub fn from_codes(codes: &[u8]) -> Material {
        let mut m = Material {
            sides: [Vec::new(), Vec::new()],
        };
        for &c in codes {
            m.sides[(c >> 3) as usize & 1].push(c & 7);
        }
        m
    }
}

/// Packs counts (at most 15) into a key: side 0 in the low 24 bits.
pub fn material_key(count: impl Fn(usize, u8) -> usize) -> u64 {
    let mut key = 0u64;
    for side in 0..2 {
        for code in 1..=6u8 {
            key |= (count(side, code) as u64 & 15) << (24 * side + 4 * (code as usize - 1));
        }
    }
    key
}

/// One part: how positions are numbered and how values are decoded.
#[derive(Clone, Debug)]
pub struct Part {
    pub enc: Encoding,
    pub pairs: Pairs,
}

/// A parsed file.
#[derive(Clone, Debug)]
pub struct Layout {
    pub dtz: bool,
    pub num: usize,
    /// `(leading, other)` pawns, or `None` for pieces only.
    pub pawns: Option<(usize, usize)>,
    /// By pawn file (one entry without pawns), by side to move stored.
    pub parts: Vec<Vec<Part>>,
    /// DTZ value maps: offsets by file, relative to `map_base`.
    pub maps: Vec<[usize; 4]>,
    pub map_base: usize,
    /// Key of the material of the table's first side, and mirrored.
    pub key: u64,
    pub mirrored_key: u64,
    /// Where the header ends: the index tables, sizes and data follow.
    pub header_end: usize,
    /// Bytes the table needs.
    pub end: usize,
}

fn short() -> String {
    "truncated table".into()
}

/// Reads the piece orders of one part header at `at` (`sel` 0 for the low
/// nibbles, 1 for the high ones).
fn read_orders(
    b: &[u8],
    at: usize,
    m: &Material,
    file: usize,
    sel: u32,
) -> Result<Encoding, String> {
    let num = m.count();
    let nib = |x: u8| if sel == 0 { x & 0x0f } else { x >> 4 };
    let pawns = m.has_pawns().then(|| m.pawns());
    let skip = match pawns {
        Some((_, other)) if other > 0 => 2,
        _ => 1,
    };
    let mut pieces = Vec::with_capacity(num);
    for i in 0..num {
        let c = nib(u8_at(b, at + skip + i).ok_or_else(short)?);
        if !(1..=6).contains(&(c & 7)) {
            return Err(format!("bad piece code {c}"));
        }
        pieces.push(c);
    }
    let found = Material::from_codes(&pieces);
    if found.key() != m.key() && found.mirrored_key() != m.key() {
        return Err("pieces do not match the file name".into());
    }
    let order = nib(u8_at(b, at).ok_or_else(short)?) as usize;
    Ok(match pawns {
        None => piece_encoding(pieces, order, m.unique_leaders()),
        Some((lead, other)) => {
            let order2 = if other > 0 {
                nib(u8_at(b, at + 1).ok_or_else(short)?) as usize
            } else {
                0x0f
            };
            if pieces[..lead].iter().any(|&c| c & 7 != 1) {
                return Err("leading pawns not first".into());
            }
            pawn_encoding(pieces, (lead, other), (order, order2), file)
        }
    })
}

impl Layout {
    /// Parses `b` (the file, or enough of its start) as a table of `m`.
    pub fn parse(b: &[u8], m: &Material, dtz: bool) -> Result<Layout, String> {
        let magic = if dtz { DTZ_MAGIC } else { WDL_MAGIC };
        if b.get(..4) != Some(&magic[..]) {
            return Err("wrong magic number".into());
        }
        let flags = u8_at(b, 4).ok_or_else(short)?;
        let pawns = m.has_pawns().then(|| m.pawns());
        if (flags & 2 != 0) != pawns.is_some() {
            return Err("pawn flag does not match the file name".into());
        }
        let files = if pawns.is_some() { 4 } else { 1 };
        let sides = if !dtz && flags & 1 != 0 { 2 } else { 1 };
        let skip = match pawns {
            Some((_, o)) if o > 0 => 2,
            _ => 1,
        };
        let mut p = 5;
        let mut encs: Vec<Vec<Encoding>> = Vec::new();
        for f in 0..files {
            let e: Result<Vec<Encoding>, String> = (0..sides)
                .map(|s| read_orders(b, p, m, f, s as u32))
                .collect();
            encs.push(e?);
            p += m.count() + skip;
        }
        p += p & 1;
        let mut parts = Vec::new();
        for file_encs in encs {
            let mut v = Vec::new();
            for enc in file_encs {
                let (pairs, next) = Pairs::parse(b, p, enc.size, !dtz)?;
                p = next;
                v.push(Part { enc, pairs });
            }
            parts.push(v);
        }
        let mut layout = Layout {
            dtz,
            num: m.count(),
            pawns,
            parts,
            maps: vec![[0; 4]; files],
            map_base: p,
            key: 0,
            mirrored_key: 0,
            header_end: 0,
            end: 0,
        };
        if dtz {
            p = layout.read_maps(b, p)?;
        }
        layout.place_sections(p);
        layout.set_keys(m);
        Ok(layout)
    }

    /// DTZ value maps, four per file (one per WDL outcome).
    fn read_maps(&mut self, b: &[u8], mut p: usize) -> Result<usize, String> {
        for (f, file) in self.parts.iter().enumerate() {
            let flags = file[0].pairs.flags;
            if flags & FLAG_MAPPED == 0 {
                continue;
            }
            if flags & FLAG_WIDE == 0 {
                for i in 0..4 {
                    self.maps[f][i] = p + 1 - self.map_base;
                    p += 1 + u8_at(b, p).ok_or_else(short)? as usize;
                }
            } else {
                p += p & 1;
                for i in 0..4 {
                    self.maps[f][i] = (p + 2 - self.map_base) / 2;
                    p += 2 + 2 * u16_le(b, p).ok_or_else(short)? as usize;
                }
            }
        }
        Ok(p + (p & 1))
    }

    /// Index tables, then size tables, then the 64-byte aligned data.
    fn place_sections(&mut self, mut p: usize) {
        self.header_end = p;
        for part in self.parts.iter_mut().flatten() {
            part.pairs.index_table = p;
            p += part.pairs.index_bytes;
        }
        for part in self.parts.iter_mut().flatten() {
            part.pairs.size_table = p;
            p += part.pairs.size_bytes;
        }
        for part in self.parts.iter_mut().flatten() {
            p = (p + 63) & !63;
            part.pairs.data = p;
            p += part.pairs.data_bytes;
        }
        self.end = p;
    }

    /// Pieces-only tables take their colours from the stored pieces (the
    /// file name may list the sides the other way round).
    fn set_keys(&mut self, m: &Material) {
        if self.pawns.is_none() {
            let stored = Material::from_codes(&self.parts[0][0].enc.pieces);
            self.key = stored.key();
            self.mirrored_key = stored.mirrored_key();
        } else {
            self.key = m.key();
            self.mirrored_key = m.mirrored_key();
        }
    }
}
