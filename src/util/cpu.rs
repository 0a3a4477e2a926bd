//! The CPU features that the engine's fast paths are compiled for,
//! detected once for the whole program: AVX2 (the network's evaluation,
//! `engine::nnue`) and the bit-counting instructions POPCNT, LZCNT and
//! BMI1 (the hand-written evaluation, `engine::eval`). Never on other
//! architectures than x86-64. `CAVALIER_PORTABLE` set in the environment
//! (`CAVALIER_PORTABLE=1`) says no to both, to run the portable paths on
//! any machine.

use once_cell::sync::Lazy;

/// What this CPU has, of what the engine can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Features {
    avx2: bool,
    /// POPCNT, LZCNT and BMI1 (TZCNT), all three.
    bits: bool,
}

/// The features, detected on first use.
static FEATURES: Lazy<Features> = Lazy::new(detect);

fn detect() -> Features {
    if std::env::var_os("CAVALIER_PORTABLE").is_some() {
        return Features {
            avx2: false,
            bits: false,
        };
    }
    #[cfg(target_arch = "x86_64")]
    {
        Features {
            avx2: std::is_x86_feature_detected!("avx2"),
            bits: std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("bmi1"),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    Features {
        avx2: false,
        bits: false,
    }
}

/// Whether this CPU has AVX2 (and `CAVALIER_PORTABLE` is not set): code
/// compiled with `#[target_feature(enable = "avx2")]` may then run.
#[inline(always)]
pub fn has_avx2() -> bool {
    FEATURES.avx2
}

/// Whether this CPU counts bits in hardware, POPCNT, LZCNT and BMI1, as
/// every x86-64 since about 2013 does (and `CAVALIER_PORTABLE` is not
/// set): code compiled with `#[target_feature(enable =
/// "popcnt,lzcnt,bmi1")]` may then run.
#[inline(always)]
pub fn has_bit_instructions() -> bool {
    FEATURES.bits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is detected is what the standard library says, unless the
    /// environment says portable.
    #[test]
    fn detection_agrees_with_the_standard_library() {
        let portable = std::env::var_os("CAVALIER_PORTABLE").is_some();
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(
                has_avx2(),
                !portable && std::is_x86_feature_detected!("avx2")
            );
            assert_eq!(
                has_bit_instructions(),
                !portable
                    && std::is_x86_feature_detected!("popcnt")
                    && std::is_x86_feature_detected!("lzcnt")
                    && std::is_x86_feature_detected!("bmi1")
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = portable;
            assert!(!has_avx2() && !has_bit_instructions());
        }
    }
}
