//! The search's margins and constants, and the time manager's weights,
//! in one place.
//!
//! Each is read through a function named like a constant (`RFP_MARGIN()`).
//! In the default build the function returns the literal, so the compiler
//! sees a constant. Built with `--features tune`, every parameter is also a
//! UCI spin option of the same name (listed by `uci`, set by `setoption`),
//! for `benches/spsa.py` to tune them by games; the default build neither
//! lists nor accepts them.
//!
//! Part of the engine: imports nothing of the crate.

/// One tunable parameter: its name (the option's), default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

macro_rules! search_params {
    ($($(#[doc = $doc:expr])* $name:ident = $default:literal, $min:literal..=$max:literal;)*) => {
        /// Every parameter, in declaration order.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
        }),*];

        /// Slots of the tuning build's values.
        #[cfg(feature = "tune")]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Slot { $($name),* }

        #[cfg(feature = "tune")]
        static VALUES: [std::sync::atomic::AtomicI32; PARAMS.len()] =
            [$(std::sync::atomic::AtomicI32::new($default)),*];

        $(
            $(#[doc = $doc])*
            #[allow(non_snake_case)]
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "tune")]
                {
                    VALUES[Slot::$name as usize].load(std::sync::atomic::Ordering::Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
            }
        )*
    };
}

search_params! {
    /// Quiescence: a capture that cannot lift the score to alpha even with
    /// this much (cp) to spare is skipped.
    DELTA_MARGIN = 221, 50..=600;
    /// Null-move pruning: only this deep or deeper...
    NULL_MOVE_MIN_DEPTH = 3, 1..=8;
    /// ...reducing by this much...
    NULL_MOVE_BASE_REDUCTION = 3, 1..=6;
    /// ...plus one per this many plies of depth...
    NULL_MOVE_DEPTH_DIVISOR = 4, 1..=12;
    /// ...plus one per this many centipawns the static eval exceeds beta...
    NULL_MOVE_EVAL_DIVISOR = 183, 50..=800;
    /// ...at most this many.
    NULL_MOVE_EVAL_MAX = 3, 0..=6;
    /// Late-move reductions: from this depth on...
    LMR_MIN_DEPTH = 3, 1..=8;
    /// ...for moves after this many...
    LMR_MIN_MOVES = 3, 1..=10;
    /// ...by `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR` plies
    /// (both in hundredths), one less at PV nodes and for killers.
    LMR_BASE = 82, 0..=200;
    LMR_DIVISOR = 198, 100..=500;
    /// History in reductions: a ply less (more) per this much quiet-move
    /// history above (below) zero, at most `LMR_HISTORY_MAX` plies.
    LMR_HISTORY_DIVISOR = 6452, 1000..=20000;
    LMR_HISTORY_MAX = 2, 0..=4;
    /// History pruning: up to this depth, a quiet move whose history is
    /// below `-HISTORY_PRUNE_MARGIN * depth` is not searched.
    HISTORY_PRUNE_MAX_DEPTH = 3, 0..=8;
    HISTORY_PRUNE_MARGIN = 3583, 500..=16000;
    /// Aspiration windows: from this depth on, the root searches a window
    /// this wide (cp) around the last score, widened by half on each
    /// failure.
    ASPIRATION_MIN_DEPTH = 5, 1..=12;
    ASPIRATION_DELTA = 23, 5..=100;
    /// Reverse futility: up to this depth, a node whose static eval beats
    /// beta by this margin per ply (one ply less when improving) is a cut.
    RFP_MAX_DEPTH = 8, 0..=14;
    RFP_MARGIN = 72, 20..=200;
    /// Futility: up to this depth, a quiet move at a node whose static eval
    /// is this far below alpha (base + per ply) is not searched.
    FUTILITY_MAX_DEPTH = 6, 0..=12;
    FUTILITY_BASE = 69, 0..=400;
    FUTILITY_MARGIN = 73, 20..=300;
    /// Late-move pruning: up to this depth, quiet moves after
    /// `(LMP_BASE + depth^2) / (2 - improving)` tried ones are not searched.
    LMP_MAX_DEPTH = 8, 0..=14;
    LMP_BASE = 4, 0..=12;
    /// Internal iterative reduction: a node this deep without a hash move
    /// is searched one ply shallower (it will be searched again with one).
    IIR_MIN_DEPTH = 4, 2..=12;
    /// Singular extensions: from this depth on, a hash move whose entry is
    /// at most `SE_TT_DEPTH_MARGIN` plies shallower and not an upper bound
    /// is tested: if every other move fails low against its score less
    /// `SE_MARGIN` per ply, at half the depth, it is searched a ply deeper.
    /// If the test itself fails high over beta, the node is cut
    /// (multi-cut).
    SE_MIN_DEPTH = 7, 4..=14;
    SE_TT_DEPTH_MARGIN = 3, 1..=6;
    SE_MARGIN = 2, 0..=8;
    /// Double extension: when the other moves fall this far below the
    /// test's bound, the hash move is searched two plies deeper (not at PV
    /// nodes, at most five times on a line).
    SE_DOUBLE_MARGIN = 20, 1..=200;
    /// Negative extension: plies less for the hash move when the test
    /// finds it not singular but its hash score reaches beta.
    SE_NEGATIVE_EXT = 1, 0..=2;
    /// SEE pruning: up to this depth, a capture losing more than this much
    /// per ply, or a quiet move losing more than this much per ply
    /// squared, is not searched.
    SEE_PRUNE_MAX_DEPTH = 6, 0..=12;
    SEE_PRUNE_CAPTURE = 88, 10..=300;
    SEE_PRUNE_QUIET = 18, 2..=100;
    /// Quiet history: a cut's bonus is `QUAD * d^2 + LIN * (d - 1)`, at
    /// most `HISTORY_BONUS_MAX`.
    HISTORY_BONUS_QUAD = 16, 1..=64;
    HISTORY_BONUS_LIN = 182, 0..=512;
    HISTORY_BONUS_MAX = 2285, 300..=8000;
    /// Correction history: the weight (in 1/256 cp per entry unit, an
    /// entry being at most 1024) of the pawn-structure table, of each
    /// colour's piece-placement table and of the table by the last two
    /// moves.
    CORR_PAWN_WEIGHT = 12, 0..=64;
    CORR_NON_PAWN_WEIGHT = 15, 0..=64;
    CORR_CONT_WEIGHT = 32, 0..=64;
    /// Time: moves assumed still to play when the GUI does not say...
    TM_MOVES_TO_GO = 30, 10..=50;
    /// ...and the percentage of the increment spent on top of the slice.
    TM_INCREMENT_SHARE = 75, 0..=100;
    /// Time: the hard limit is at most this many soft slices...
    TM_HARD_SLICES = 4, 2..=10;
    /// ...and at most this percentage of the time left.
    TM_HARD_SHARE = 40, 10..=80;
    /// Time: the soft limit's node factor is 1 when the best move took this
    /// percentage of the root's nodes, and moves by `TM_NODE_SLOPE`
    /// hundredths per unit of share below (above) it, within
    /// `TM_NODE_MIN..=TM_NODE_MAX` hundredths.
    TM_NODE_PIVOT = 80, 30..=100;
    TM_NODE_SLOPE = 160, 0..=400;
    TM_NODE_MIN = 60, 20..=100;
    TM_NODE_MAX = 180, 100..=400;
    /// Time: the stability factor is `(TM_STABLE_FLOOR + TM_STABLE_SPAN /
    /// (1 + iterations the best move has held))` hundredths.
    TM_STABLE_FLOOR = 80, 30..=150;
    TM_STABLE_SPAN = 100, 0..=300;
    /// Time: a score drop of up to `TM_DROP_MAX` cp since the last
    /// iteration adds one to the drop factor per `TM_DROP_DIVISOR` cp.
    TM_DROP_MAX = 120, 0..=400;
    TM_DROP_DIVISOR = 150, 30..=1000;
}

/// Sets a parameter by name (case-insensitive), clamped to its range, in a
/// tuning build. `Err` names why not: no such parameter, or a default
/// build.
pub fn set(name: &str, value: i64) -> Result<i32, String> {
    let Some(slot) = PARAMS
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(name))
    else {
        return Err(format!("no search parameter \"{name}\""));
    };
    let p = PARAMS[slot];
    let v = value.clamp(p.min as i64, p.max as i64) as i32;
    #[cfg(feature = "tune")]
    {
        VALUES[slot].store(v, std::sync::atomic::Ordering::Relaxed);
        Ok(v)
    }
    #[cfg(not(feature = "tune"))]
    {
        let _ = v;
        Err(format!(
            "search parameter \"{}\" is settable only in a --features tune build",
            p.name
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(PARAMS[..i].iter().all(|q| q.name != p.name), "{p:?}");
        }
        assert_eq!(
            RFP_MARGIN(),
            PARAMS
                .iter()
                .find(|p| p.name == "RFP_MARGIN")
                .unwrap()
                .default
        );
        assert!(set("NO_SUCH_PARAMETER", 1).is_err());
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn a_default_build_refuses_to_change_a_parameter() {
        let p = PARAMS.iter().find(|p| p.name == "RFP_MARGIN").unwrap();
        assert!(set("RFP_MARGIN", p.default as i64 + 5).is_err());
        assert_eq!(RFP_MARGIN(), p.default);
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tuning_build_sets_within_the_range() {
        let p = PARAMS.iter().find(|p| p.name == "SE_MARGIN").unwrap();
        assert_eq!(set("se_margin", 1_000_000), Ok(p.max));
        assert_eq!(SE_MARGIN(), p.max);
        assert_eq!(set("SE_MARGIN", p.default as i64), Ok(p.default));
    }
}
