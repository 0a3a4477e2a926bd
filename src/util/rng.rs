//! The one random generator: SplitMix64 to derive seeds and fixed key
//! streams (usable at compile time), xorshift64 for the many cheap draws of
//! book choices, opening randomisation, skill noise and the tuner's
//! shuffles. Every stream is fixed by its seed, so bench node counts,
//! self-play games and Zobrist keys never change between builds.

/// The golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: the next state and the value drawn. A `const fn`
/// so that tables such as the Zobrist keys can be built at compile time.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GOLDEN);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// The first `N` values of the SplitMix64 stream started at `seed`: fixed
/// key tables (the Zobrist keys) built at compile time.
pub const fn stream<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix(state);
        state = next;
        out[i] = value;
        i += 1;
    }
    out
}

/// A seed for stream `index` of a run seeded with `seed`: independent
/// streams (one per game, say) that depend only on the pair.
pub const fn derive_seed(seed: u64, index: u64) -> u64 {
    splitmix(seed.wrapping_add(index.wrapping_mul(GOLDEN))).1
}

/// A small, fast xorshift64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value: the state is never zero).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// Seeded from the clock and the process: a different stream each run.
    pub fn from_time() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9, |d| d.as_nanos() as u64);
        Rng::new(nanos ^ (std::process::id() as u64).rotate_left(32))
    }

    /// The next value of the stream.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_the_splitmix_sequence() {
        let s: [u64; 3] = stream(7);
        let (a, x) = splitmix(7);
        let (b, y) = splitmix(a);
        let (_, z) = splitmix(b);
        assert_eq!(s, [x, y, z]);
    }

    #[test]
    fn splitmix_matches_the_reference_stream() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference).
        let (s, a) = splitmix(0);
        let (_, b) = splitmix(s);
        assert_eq!(a, 0xE220_A839_7B1D_CDAF);
        assert_eq!(b, 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn derived_seeds_differ_and_repeat() {
        assert_eq!(derive_seed(7, 3), derive_seed(7, 3));
        assert_ne!(derive_seed(7, 3), derive_seed(7, 4));
        assert_ne!(derive_seed(7, 3), derive_seed(8, 3));
    }

    #[test]
    fn xorshift_never_sticks_at_zero() {
        let mut r = Rng::new(0);
        assert!((0..100).all(|_| r.next_u64() != 0));
    }
}
