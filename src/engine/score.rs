//! Scores: the mate values, mate distance as UCI reports it, and the
//! conversion of mate scores between root-relative (as the search uses
//! them) and node-relative (as the transposition table stores them).
//!
//! A leaf of the engine: it imports nothing.

/// Score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: i32 = 32_500;
/// A tablebase win found at the root scores this; `ply` plies down it
/// scores `TB_WIN - ply`. Just inside the mate range (so the search treats
/// it as decided, and the hash table stores it relative to the node) but
/// below every real mate, which the search finds within 128 plies.
pub const TB_WIN: i32 = MATE - 256;

/// A tablebase win `ply` plies from the root.
pub fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// Converts a score to the `mate N` of UCI (moves, negative when mated), if
/// it is a mate score (not a tablebase win or loss, which have no known
/// distance to mate).
pub fn mate_in(score: i32) -> Option<i32> {
    if score.abs() <= TB_WIN {
        None
    } else if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Mate scores are stored relative to the node, not the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_ply_relative() {
        let mate_in_3_from_root = MATE - 5;
        let stored = score_to_tt(mate_in_3_from_root, 2);
        assert_eq!(score_from_tt(stored, 2), mate_in_3_from_root);
        assert_eq!(score_from_tt(stored, 4), mate_in_3_from_root - 2);
    }

    #[test]
    fn tablebase_wins_are_decided_but_not_mates() {
        assert!(tb_win_in(100) >= MATE_BOUND);
        assert!(tb_win_in(0) < MATE - 128);
        assert_eq!(mate_in(tb_win_in(3)), None);
        assert_eq!(mate_in(-tb_win_in(3)), None);
        assert_eq!(score_from_tt(score_to_tt(tb_win_in(7), 5), 5), tb_win_in(7));
    }
}
