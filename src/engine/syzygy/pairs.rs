//! The compressed value stream of one table part: a canonical Huffman code
//! over symbols, each symbol standing for a pair of symbols (or a value),
//! in fixed-size blocks reached through a sparse index.
//!
//! The header's tables are parsed once, from the bytes read when the
//! folder is scanned; the index, block sizes and blocks are read on demand
//! through [`Source`]. Every read is checked: a damaged or unreadable file
//! gives `None` (or an error when the header is parsed), never a panic.

use super::cache::Source;

/// Little-endian and big-endian reads that fail outside the slice.
pub fn u8_at(b: &[u8], at: usize) -> Option<u8> {
    b.get(at).copied()
}

pub fn u16_le(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

pub fn u32_le(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u32_be(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_be(b: &[u8], at: usize) -> Option<u64> {
    let s = b.get(at..at.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_be_bytes(a))
}

/// Bytes the block decoder may read past a block's end (its 64-bit window
/// is refilled 32 bits at a time).
const BLOCK_LOOKAHEAD: usize = 8;
/// Largest block (as a power of two) accepted: the generator writes WDL
/// blocks of at most 64 bytes and DTZ blocks of at most 1 KiB; a damaged
/// header cannot make a probe read more than 64 KiB.
const MAX_BLOCK_BITS: u32 = 16;

/// Flag bit of a part whose every value is the same.
const SINGLE_VALUE: u8 = 0x80;

/// The decoding tables of one part.
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    /// The part's flags byte (DTZ: side stored, value map, units).
    pub flags: u8,
    /// `Some(v)` when every position has value `v`.
    single: Option<u16>,
    block_bits: u32,
    idx_bits: u32,
    min_len: u32,
    /// First code of each length, left-aligned in 64 bits.
    base: Vec<u64>,
    /// Offset of the first-symbol table (one u16 per code length).
    offsets: usize,
    /// Offset of the symbol pairs (3 bytes each).
    sym_pat: usize,
    /// Number of values each symbol stands for, less one.
    sym_len: Vec<u32>,
    pub index_table: usize,
    pub size_table: usize,
    pub data: usize,
    /// Bytes of the index, size and data sections.
    pub index_bytes: usize,
    pub size_bytes: usize,
    pub data_bytes: usize,
    num_blocks: usize,
}

impl Pairs {
    /// Reads the header at `at` for a part of `positions` values; returns
    /// the tables and the offset after the header. `wdl` parts store their
    /// single value; DTZ parts with a single value hold 0.
    pub fn parse(b: &[u8], at: usize, positions: u64, wdl: bool) -> Result<(Pairs, usize), String> {
        let short = || "truncated table header".to_string();
        let flags = u8_at(b, at).ok_or_else(short)?;
        let mut p = Pairs {
            flags,
            ..Pairs::default()
        };
        if flags & SINGLE_VALUE != 0 {
            let v = if wdl {
                u8_at(b, at + 1).ok_or_else(short)?
            } else {
                0
            };
            p.single = Some(v as u16);
            return Ok((p, at + 2));
        }
        p.block_bits = u8_at(b, at + 1).ok_or_else(short)? as u32;
        p.idx_bits = u8_at(b, at + 2).ok_or_else(short)? as u32;
        let real_blocks = u32_le(b, at + 4).ok_or_else(short)? as usize;
        p.num_blocks = real_blocks + u8_at(b, at + 3).ok_or_else(short)? as usize;
        let max_len = u8_at(b, at + 8).ok_or_else(short)? as u32;
        p.min_len = u8_at(b, at + 9).ok_or_else(short)? as u32;
        if p.block_bits > MAX_BLOCK_BITS
            || p.idx_bits == 0
            || p.idx_bits > 40
            || p.min_len == 0
            || max_len < p.min_len
            || max_len > 64
        {
            return Err(format!(
                "bad pair header (block {} index {} lengths {}..{})",
                p.block_bits, p.idx_bits, p.min_len, max_len
            ));
        }
        let h = (max_len - p.min_len + 1) as usize;
        let num_syms = u16_le(b, at + 10 + 2 * h).ok_or_else(short)? as usize;
        p.offsets = at + 10;
        p.sym_pat = at + 12 + 2 * h;
        let next = p.sym_pat + 3 * num_syms + (num_syms & 1);
        if next > b.len() {
            return Err(short());
        }
        p.base = vec![0u64; h];
        for i in (0..h - 1).rev() {
            let a = u16_le(b, p.offsets + 2 * i).ok_or_else(short)? as u64;
            let c = u16_le(b, p.offsets + 2 * i + 2).ok_or_else(short)? as u64;
            p.base[i] = (p.base[i + 1] + a).wrapping_sub(c) / 2;
        }
        for (i, v) in p.base.iter_mut().enumerate() {
            let shift = 64 - (p.min_len + i as u32);
            *v = if shift >= 64 {
                0
            } else {
                v.checked_shl(shift).unwrap_or(0)
            };
        }
        p.sym_len = symbol_lengths(b, p.sym_pat, num_syms)?;
        let entries = positions.div_ceil(1u64 << p.idx_bits) as usize;
        p.index_bytes = 6 * entries;
        p.size_bytes = 2 * p.num_blocks;
        p.data_bytes = real_blocks << p.block_bits;
        Ok((p, next))
    }

    /// The value stored at index `idx`; `None` if the file is damaged or
    /// cannot be read. The header comes from `src.header`, the index, sizes
    /// and the compressed block from the file through the cache.
    pub fn value(&self, src: &Source, idx: u64, wdl: bool) -> Option<u16> {
        if let Some(v) = self.single {
            return Some(v);
        }
        let h = src.header;
        let (block, lit) = self.find_block(src, idx)?;
        let (mut sym, mut lit) = self.symbol_in_block(src, block, lit)?;
        // Walk down the pair tree to the value.
        let mut steps = 0;
        while self.sym_len[sym] != 0 {
            let (left, right) = self.pair(h, sym)?;
            let left_len = *self.sym_len.get(left)? as i64 + 1;
            if lit < left_len {
                sym = left;
            } else {
                lit -= left_len;
                sym = right;
            }
            steps += 1;
            if steps > 4096 || sym >= self.sym_len.len() {
                return None;
            }
        }
        let w = self.sym_pat + 3 * sym;
        let lo = u8_at(h, w)? as u16;
        if wdl {
            Some(lo)
        } else {
            Some(((u8_at(h, w + 1)? as u16 & 0x0f) << 8) | lo)
        }
    }

    /// The block holding `idx` and the value's number inside it.
    fn find_block(&self, src: &Source, idx: u64) -> Option<(usize, i64)> {
        let main = (idx >> self.idx_bits) as usize;
        let half = 1i64 << (self.idx_bits - 1);
        let mut lit = (idx & ((1u64 << self.idx_bits) - 1)) as i64 - half;
        let entry = src.bytes::<6>(self.index_table.checked_add(main.checked_mul(6)?)?)?;
        let mut block = u32_le(&entry, 0)? as usize;
        lit += u16_le(&entry, 4)? as i64;
        let size = |k: usize| -> Option<i64> {
            if k >= self.num_blocks {
                return None;
            }
            Some(u16::from_le_bytes(src.bytes::<2>(self.size_table + 2 * k)?) as i64)
        };
        while lit < 0 {
            block = block.checked_sub(1)?;
            lit += size(block)? + 1;
        }
        loop {
            let s = size(block)?;
            if lit <= s {
                return Some((block, lit));
            }
            lit -= s + 1;
            block += 1;
        }
    }

    /// Decodes the block's symbols until the one covering value `lit`;
    /// returns it and the value's offset inside it.
    fn symbol_in_block(&self, src: &Source, block: usize, lit: i64) -> Option<(usize, i64)> {
        let bytes = 1usize << self.block_bits;
        let at = self.data.checked_add(block.checked_mul(bytes)?)?;
        src.with(at, bytes, |b| self.decode(src.header, b, lit))
    }

    /// [`Pairs::symbol_in_block`] on the block's bytes `b`. The decoder's
    /// 64-bit window looks up to [`BLOCK_LOOKAHEAD`] bytes past the bits
    /// it uses; past the block those read as zeros, which never change a
    /// symbol of the block (only a code's leading bits choose it).
    fn decode(&self, h: &[u8], b: &[u8], lit: i64) -> Option<(usize, i64)> {
        let mut lit = lit;
        let word = |at: usize, n: usize| -> Option<u64> {
            if at + n > b.len() + BLOCK_LOOKAHEAD {
                return None;
            }
            Some((at..at + n).fold(0u64, |w, i| {
                (w << 8) | u64::from(b.get(i).copied().unwrap_or(0))
            }))
        };
        let mut code = match b.get(..8) {
            Some(s) => u64_be(s, 0)?,
            None => word(0, 8)?,
        };
        let mut ptr = 8;
        let mut bits = 0u32;
        let m = self.min_len;
        loop {
            let mut l = m;
            while code < self.base[(l - m) as usize] {
                l += 1;
                if (l - m) as usize >= self.base.len() {
                    return None;
                }
            }
            let first = u16_le(h, self.offsets + 2 * (l - m) as usize)? as u64;
            let sym = (first + ((code - self.base[(l - m) as usize]) >> (64 - l))) as usize;
            let len = *self.sym_len.get(sym)? as i64 + 1;
            if lit < len {
                return Some((sym, lit));
            }
            lit -= len;
            code = if l >= 64 { 0 } else { code << l };
            bits += l;
            if bits >= 32 {
                bits -= 32;
                let next = match u32_be(b, ptr) {
                    Some(w) => w as u64,
                    None => word(ptr, 4)?,
                };
                // Valid files keep `bits` under 32; a damaged one is refused.
                code |= next.checked_shl(bits)?;
                ptr += 4;
            }
        }
    }

    /// The two halves of a pair symbol.
    fn pair(&self, b: &[u8], sym: usize) -> Option<(usize, usize)> {
        let w = self.sym_pat + 3 * sym;
        let (a, m, c) = (
            u8_at(b, w)? as usize,
            u8_at(b, w + 1)? as usize,
            u8_at(b, w + 2)? as usize,
        );
        Some((((m & 0x0f) << 8) | a, (c << 4) | (m >> 4)))
    }
}

/// Number of values each symbol expands to, less one; symbols form a
/// tree that must not loop.
fn symbol_lengths(b: &[u8], sym_pat: usize, n: usize) -> Result<Vec<u32>, String> {
    const LEAF: usize = 0x0fff;
    let mut len = vec![0u32; n];
    // 0 unseen, 1 in progress, 2 done
    let mut state = vec![0u8; n];
    for root in 0..n {
        let mut stack = vec![root];
        while let Some(&s) = stack.last() {
            if state[s] == 2 {
                stack.pop();
                continue;
            }
            let w = sym_pat + 3 * s;
            let (x, m, y) = (b[w] as usize, b[w + 1] as usize, b[w + 2] as usize);
            let right = (y << 4) | (m >> 4);
            if right == LEAF {
                state[s] = 2;
                stack.pop();
                continue;
            }
            let left = ((m & 0x0f) << 8) | x;
            if left >= n || right >= n {
                return Err(format!("symbol {s} refers past the {n} symbols"));
            }
            let pending: Vec<usize> = [left, right]
                .into_iter()
                .filter(|&c| state[c] != 2)
                .collect();
            if pending.is_empty() {
                len[s] = len[left] + len[right] + 1;
                state[s] = 2;
                stack.pop();
            } else {
                if state[s] == 1 || pending.iter().any(|&c| state[c] == 1) {
                    return Err("symbol tree loops".into());
                }
                state[s] = 1;
                stack.extend(pending);
            }
        }
    }
    Ok(len)
}
