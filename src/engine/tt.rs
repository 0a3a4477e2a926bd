//! The transposition table: shared by all search threads, lock-free.
//!
//! Buckets of four 16-byte entries (one cache line). Each entry is two
//! atomic words, the key xor-ed with the data, so a torn write by another
//! thread shows up as a key mismatch rather than as wrong data. Replacement
//! prefers the same position, then the shallowest entry of an old search.

use crate::chess::types::{Move, MoveKind, Piece, Sq64, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score (a PV node).
    Exact = 1,
    /// At least this (a fail-high).
    Lower = 2,
    /// At most this (a fail-low).
    Upper = 3,
}

/// A probe's result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const ENTRY_BYTES: usize = 16;
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * ENTRY_BYTES;
/// Largest table accepted (MB).
pub const MAX_HASH_MB: usize = 65_536;
/// Ages wrap at 64 (6 bits).
const AGE_MASK: u8 = 63;

/// Packs a move into 16 bits: from (6), to (6), kind (3: 0-3 as MoveKind,
/// 4-7 promotion to queen, rook, bishop, knight).
fn pack_move(mv: Move) -> u64 {
    if mv.is_none() {
        return 0;
    }
    let kind = match mv.kind() {
        MoveKind::Promotion => {
            4 + match mv.promo() {
                crate::chess::types::QUEEN => 0,
                crate::chess::types::ROOK => 1,
                crate::chess::types::BISHOP => 2,
                _ => 3,
            }
        }
        k => k as u64,
    };
    // +1 keeps a real move from packing to zero (a1a1 never occurs anyway).
    ((mv.from().sq64().index() as u64) | (mv.to().sq64().index() as u64) << 6 | kind << 12) + 1
}

fn unpack_move(bits: u64) -> Move {
    if bits == 0 {
        return Move::NONE;
    }
    let bits = bits - 1;
    let from: Square = Sq64::new((bits & 63) as usize).cell();
    let to: Square = Sq64::new((bits >> 6 & 63) as usize).cell();
    let kind = bits >> 12 & 7;
    match kind {
        0 => Move::new(from, to, MoveKind::Normal),
        1 => Move::new(from, to, MoveKind::DoublePush),
        2 => Move::new(from, to, MoveKind::EnPassant),
        3 => Move::new(from, to, MoveKind::Castle),
        _ => {
            let promo: Piece = [
                crate::chess::types::QUEEN,
                crate::chess::types::ROOK,
                crate::chess::types::BISHOP,
                crate::chess::types::KNIGHT,
            ][(kind - 4) as usize];
            Move::promotion(from, to, promo)
        }
    }
}

/// data word: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    pack_move(mv)
        | ((score as i16 as u16) as u64) << 16
        | ((eval as i16 as u16) as u64) << 32
        | ((depth.clamp(-1, 254) + 1) as u64) << 48
        | (bound as u64) << 56
        | ((age & AGE_MASK) as u64) << 58
}

struct Unpacked {
    entry: Entry,
    age: u8,
}

fn unpack(data: u64) -> Option<Unpacked> {
    let (bound, depth, age) = header(data)?;
    Some(Unpacked {
        entry: Entry {
            mv: unpack_move(data & 0xffff),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth,
            bound,
        },
        age,
    })
}

/// The bound, depth and age of a data word, or `None` for an empty slot:
/// all that replacement looks at, without decoding the move.
#[inline(always)]
fn header(data: u64) -> Option<(Bound, i32, u8)> {
    let bound = match data >> 56 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some((
        bound,
        (data >> 48 & 0xff) as i32 - 1,
        (data >> 58) as u8 & AGE_MASK,
    ))
}

/// One bucket: four entries of two words (key ^ data, data), aligned to
/// a cache line so that a probe touches one line.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * ENTRIES_PER_BUCKET]);

/// A clearing thread gets at least this many buckets (4 MB): smaller
/// tables clear faster than threads start.
const MIN_CLEAR_BUCKETS: usize = 65_536;

/// Asks Linux to back the `len` bytes at `addr` with transparent huge
/// pages (2 MB), where the system leaves that to the program (`madvise`
/// mode, a common default). A probe lands anywhere in the table, so with
/// 4 KB pages nearly every probe of a large table also misses the CPU's
/// address-translation cache; with 2 MB pages a 64 MB table needs 32
/// translations instead of 16,384. Advice only: if it is refused, or
/// elsewhere than Linux, nothing changes but the speed.
fn advise_huge_pages(addr: usize, len: usize) {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    {
        const PAGE: usize = 4096;
        const MADV_HUGEPAGE: i32 = 14;
        extern "C" {
            fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
        }
        // madvise wants a page-aligned start: the whole pages inside.
        let start = addr.next_multiple_of(PAGE);
        let end = (addr + len) / PAGE * PAGE;
        if end > start {
            // The crate's third `unsafe`: a foreign call. madvise only
            // reads its arguments; the range lies within the table's own
            // allocation, and MADV_HUGEPAGE changes how the kernel backs
            // it, never its contents.
            // SAFETY: see above; a failure returns -1 and is ignored.
            #[allow(unsafe_code)]
            let rc = unsafe { madvise(start as *mut u8, end - start, MADV_HUGEPAGE) };
            log::debug!(
                "hash table: madvise(MADV_HUGEPAGE, {} bytes) = {rc}",
                end - start
            );
        }
    }
    #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
    let _ = (addr, len);
}

/// The table. Share it between threads behind an `Arc`.
pub struct TranspositionTable {
    table: Vec<Bucket>,
    buckets: usize,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.clamp(1, MAX_HASH_MB) * 1024 * 1024;
        let buckets = (bytes / BUCKET_BYTES).max(1);
        // Reserved first and advised before it is written: the kernel
        // backs the table with 2 MB pages as the zeroing below first
        // touches it.
        let mut table = Vec::with_capacity(buckets);
        advise_huge_pages(table.as_ptr() as usize, buckets * BUCKET_BYTES);
        table.resize_with(buckets, || {
            Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
        });
        TranspositionTable {
            table,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        self.clear_with(1);
    }

    /// Empties the table with `threads` threads, each zeroing its own
    /// slice (a large table clears in a fraction of the time).
    pub fn clear_with(&self, threads: usize) {
        let zero = |part: &[Bucket]| {
            for b in part {
                for w in &b.0 {
                    w.store(0, Ordering::Relaxed);
                }
            }
        };
        let threads = threads.clamp(1, self.buckets.div_ceil(MIN_CLEAR_BUCKETS).max(1));
        if threads == 1 {
            zero(&self.table);
        } else {
            let chunk = self.buckets.div_ceil(threads);
            std::thread::scope(|s| {
                for part in self.table.chunks(chunk) {
                    s.spawn(move || zero(part));
                }
            });
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred
    /// victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & AGE_MASK, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64; 2 * ENTRIES_PER_BUCKET] {
        &self.table[((key as u128 * self.buckets as u128) >> 64) as usize].0
    }

    /// Asks the CPU to start fetching the bucket of `key` (one cache
    /// line) without waiting for it: called with the key a move will leave
    /// ([`Board::key_after`](crate::chess::board::Board::key_after)) once
    /// the search knows it will play the move, the memory's latency
    /// overlaps the move and the child's first steps (its static
    /// evaluation above all) instead of stalling its probe. A hint only:
    /// it changes no result.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::util::prefetch(self.bucket(key));
    }

    /// Looks up a position. Scores are returned as stored: adjust mate
    /// scores with [`score_from_tt`].
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let k = bucket[2 * i].load(Ordering::Relaxed);
            let d = bucket[2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == key {
                if let Some(u) = unpack(d) {
                    return Some(u.entry);
                }
            }
        }
        None
    }

    /// Stores a search result. Keeps an existing move when the new one is
    /// none.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let bucket = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let k = bucket[2 * i].load(Ordering::Relaxed);
            let d = bucket[2 * i + 1].load(Ordering::Relaxed);
            let old = header(d);
            if let Some((_, old_depth, old_age)) = old.filter(|_| k ^ d == key) {
                // Keep a much deeper entry of the same position unless the
                // new one is exact.
                if bound != Bound::Exact && old_depth > depth + 3 && old_age == age {
                    return;
                }
                let mv = if mv.is_none() {
                    unpack_move(d & 0xffff)
                } else {
                    mv
                };
                let data = pack(mv, score, eval, depth, bound, age);
                bucket[2 * i].store(key ^ data, Ordering::Relaxed);
                bucket[2 * i + 1].store(data, Ordering::Relaxed);
                return;
            }
            // Worth of keeping: depth, minus a lot for each search of age.
            let worth = match old {
                None => i32::MIN,
                Some((_, old_depth, old_age)) => {
                    let stale = (age.wrapping_sub(old_age) & AGE_MASK) as i32;
                    old_depth - 8 * stale
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, age);
        bucket[2 * victim].store(key ^ data, Ordering::Relaxed);
        bucket[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used by the current search
    /// (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = (1000 / ENTRIES_PER_BUCKET).min(self.buckets) * ENTRIES_PER_BUCKET;
        let mut used = 0;
        for i in 0..n {
            let d = self.table[i / ENTRIES_PER_BUCKET].0[2 * (i % ENTRIES_PER_BUCKET) + 1]
                .load(Ordering::Relaxed);
            if let Some(u) = unpack(d) {
                if u.age == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::types::{sq, QUEEN};

    #[test]
    fn moves_pack_and_unpack() {
        let b = crate::Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for mv in b.legal_moves() {
            assert_eq!(unpack_move(pack_move(mv)), mv);
        }
        let p = Move::promotion(Square::from_coords(0, 6), Square::from_coords(0, 7), QUEEN);
        assert_eq!(unpack_move(pack_move(p)), p);
        let c = Move::new(sq::E1, sq::H1, MoveKind::Castle);
        assert_eq!(unpack_move(pack_move(c)), c);
        assert_eq!(unpack_move(pack_move(Move::NONE)), Move::NONE);
    }

    #[test]
    fn clearing_with_threads_empties_every_slice() {
        let tt = TranspositionTable::new(16);
        let mv = Move::new(sq::E1, sq::E8, MoveKind::Normal);
        let keys: Vec<u64> = (0..4096u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            tt.store(k, mv, 1, 2, 3, Bound::Exact);
        }
        assert!(keys.iter().any(|&k| tt.probe(k).is_some()));
        tt.clear_with(4);
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(sq::E1, sq::E8, MoveKind::Normal);
        tt.store(0xDEAD_BEEF, mv, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (mv, -123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }
}
