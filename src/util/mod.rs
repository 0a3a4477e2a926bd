//! Small helpers every layer may use: one random generator, one quoting
//! helper for messages, one memory hint, the CPU's features detected once
//! (`cpu`), a bounded read of a whole file (`file`); and, for the programs
//! (`cli/`, `lab/`, `tour/`'s command line) only, the command line's shared
//! helpers.

pub mod command_line;
pub mod cpu;
pub mod file;
pub mod rng;
pub mod text;

pub use file::read_bounded;

/// Asks the CPU to start fetching the cache line that holds `r` without
/// waiting for it, so that a read of it soon after finds it near (x86-64;
/// elsewhere nothing). A hint only: it changes no result.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let line = r as *const T as *const i8;
        // The crate's second `unsafe`: the intrinsic is marked unsafe for
        // its raw pointer, which it never dereferences.
        // SAFETY: a prefetch reads nothing and cannot fault, and the
        // pointer comes from a reference anyway.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(line)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}
