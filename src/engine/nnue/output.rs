//! SCReLU and the output layer: the sum over units of
//! `clamp(sum, 0, QA)^2 x w2`, then the bias and the scale, with the
//! weights and bias of the position's output bucket. Two ways, the
//! same integers: portable (any CPU), and AVX2 (16 units at a time, taken
//! when the CPU has it, [`crate::util::cpu::has_avx2`]). Exact in both, so they agree on
//! every position (tested): a unit `v` (0..=QA) times a weight (within
//! +-`MAX_OUTPUT_WEIGHT`) fits an i16, so AVX2 multiplies `v x w` in i16
//! and then `(v x w) x v` pairwise into i32 (`madd`); each of the 8 i32
//! lanes adds `hidden / 8` such products of one view, at most
//! 128 x 255^2 x 128 < 2^31 for 1024 units; the views' totals are i64.

use super::{Network, QA, QB};
use crate::engine::score::MATE_BOUND;

/// Largest evaluation the network gives (either sign): clear of the mate
/// scores.
const MAX_EVAL: i64 = (MATE_BOUND - 1) as i64;

/// The evaluation in centipawns (side to move's view) of the output
/// layer's sum over both views, in `bucket`.
#[inline(always)]
fn conclude(net: &Network, bucket: usize, sum: i64) -> i32 {
    let raw = sum / QA as i64 + net.b2[bucket] as i64;
    (raw * net.scale as i64 / (QA * QB) as i64).clamp(-MAX_EVAL, MAX_EVAL) as i32
}

/// One view's sum over units of `clamp(a, 0, QA)^2 x w`, portable.
#[inline(always)]
fn view_sum_portable(sums: &[i16], w: &[i16]) -> i64 {
    sums.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let v = (a as i32).clamp(0, QA);
            (v * w as i32 * v) as i64
        })
        .sum()
}

/// The output weights of `bucket`: the side to move's units', the
/// other's.
#[inline(always)]
fn weights(net: &Network, bucket: usize) -> (&[i16], &[i16]) {
    let h = net.hidden;
    net.w2[2 * h * bucket..2 * h * (bucket + 1)].split_at(h)
}

/// The evaluation of the two views' sums (the side to move's first) with
/// the output weights of `bucket`, portable arithmetic.
#[inline(always)]
pub fn output_portable(net: &Network, bucket: usize, us: &[i16], them: &[i16]) -> i32 {
    let (w_us, w_them) = weights(net, bucket);
    conclude(
        net,
        bucket,
        view_sum_portable(us, w_us) + view_sum_portable(them, w_them),
    )
}

/// `output_portable` with AVX2. Safe to declare; a caller without AVX2
/// enabled itself must know the CPU has it
/// ([`crate::util::cpu::has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub fn output_avx2(net: &Network, bucket: usize, us: &[i16], them: &[i16]) -> i32 {
    let (w_us, w_them) = weights(net, bucket);
    conclude(
        net,
        bucket,
        avx2::view_sum(us, w_us) + avx2::view_sum(them, w_them),
    )
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    /// The 16 i16 of `chunk` (exactly 16 long) in a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(chunk: &[i16]) -> __m256i {
        debug_assert_eq!(chunk.len(), 16);
        // SAFETY: `chunk` holds 16 i16, the 32 bytes read, and the
        // unaligned load has no alignment requirement.
        unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
    }

    /// `view_sum_portable` 16 units at a time (the unit count is a
    /// multiple of 16).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn view_sum(sums: &[i16], w: &[i16]) -> i64 {
        debug_assert!(sums.len() == w.len() && sums.len().is_multiple_of(16));
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut total = _mm256_setzero_si256();
        for (s, w) in sums.chunks_exact(16).zip(w.chunks_exact(16)) {
            let v = _mm256_min_epi16(_mm256_max_epi16(load(s), zero), qa);
            let vw = _mm256_mullo_epi16(v, load(w));
            total = _mm256_add_epi32(total, _mm256_madd_epi16(vw, v));
        }
        // The 8 lanes, widened to i64 before they are added.
        let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(total));
        let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(total));
        let four = _mm256_add_epi64(low, high);
        _mm256_extract_epi64::<0>(four)
            + _mm256_extract_epi64::<1>(four)
            + _mm256_extract_epi64::<2>(four)
            + _mm256_extract_epi64::<3>(four)
    }
}
