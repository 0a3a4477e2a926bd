//! A cache of full evaluations by position key, one per search thread.
//!
//! The evaluation depends on the position alone (pieces, side to move,
//! castling and en-passant rights: what the position key covers, not the
//! move counters), so a cached value is the value the evaluation would
//! return: the cache only saves work, and the search is the same with it or
//! without it. It pays for positions the search evaluates again without a
//! hash-table entry to carry the evaluation: the quiescence search stores
//! few, and entries get replaced.

/// Entries in an [`EvalCache`] (a power of two): 32,768 of 8 bytes, 256 KB.
const EVAL_CACHE_ENTRIES: usize = 1 << 15;

/// Each entry packs a check of the key (its high 32 bits, the lowest of
/// them forced to 1 so that an empty entry, 0, never matches) above the
/// evaluation.
pub struct EvalCache {
    entries: Vec<u64>,
}

/// The entry a key maps to: its low bits (the check is its high half).
#[inline(always)]
fn slot_of(key: u64) -> usize {
    key as usize & (EVAL_CACHE_ENTRIES - 1)
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![0; EVAL_CACHE_ENTRIES],
        }
    }

    /// Forgets every entry (the evaluation changed).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// Starts fetching the entry of `key` from memory: the search asks
    /// for the entry of the position a move leads to before it makes the
    /// move, beside the hash table's bucket.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::util::prefetch(&self.entries[slot_of(key)]);
    }

    /// The evaluation of the position of `key`: the cached one when there,
    /// else `eval()`, kept for next time.
    #[inline(always)]
    pub fn get_or(&mut self, key: u64, eval: impl FnOnce() -> i32) -> i32 {
        let check = (key >> 32) | 1;
        let slot = &mut self.entries[slot_of(key)];
        if *slot >> 32 == check {
            return *slot as u32 as i32;
        }
        let value = eval();
        *slot = check << 32 | value as u32 as u64;
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_what_it_kept_and_misses_otherwise() {
        let mut cache = EvalCache::new();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get_or(key, || -250), -250);
        // A hit: the closure is not called.
        assert_eq!(cache.get_or(key, || unreachable!()), -250);
        // Same slot, other key: a miss that replaces the entry.
        let other = key ^ 1 << 40;
        assert_eq!(cache.get_or(other, || 17), 17);
        assert_eq!(cache.get_or(key, || 31), 31);
        // An empty entry never matches, even a key whose check bits are 0.
        assert_eq!(EvalCache::new().get_or(5, || 9), 9);
    }
}
