//! Playing strength below full: `Skill Level` and its measured Elo scale.
//!
//! A [`Skill`] cuts the search short and picks the move among the best few
//! lines with some randomness; [`skill_for_elo`] turns a `UCI_Elo` into a
//! level. Imports only `chess` types, `engine::score` and `util`.

use crate::chess::types::Move;
use crate::engine::score::MATE_BOUND;
use crate::util::rng::Rng;

/// A strength below full: the search is cut short and the move is chosen
/// among the best few lines with some randomness, as a weaker player
/// would, rather than by adding blunders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 (weakest) ..= `MAX_SKILL - 1`; `MAX_SKILL` is full strength.
    pub level: i32,
    /// Seed of the choice.
    pub seed: u64,
}

/// Full strength.
pub const MAX_SKILL: i32 = 20;
/// Lines compared when choosing a weaker move.
pub const SKILL_LINES: usize = 4;
/// Centipawns of noise per level below full strength.
const SKILL_NOISE_PER_LEVEL: i32 = 12;
/// The weakest level never gives away more than this (cp) on purpose.
const SKILL_MAX_SACRIFICE: i32 = 300;

impl Skill {
    /// Deepest iteration at this level.
    pub fn max_depth(self) -> i32 {
        1 + self.level.clamp(0, MAX_SKILL)
    }

    /// Picks among `lines` (move, score, best first): each line gets a
    /// random bonus up to the level's noise, and lines much worse than
    /// the best are not considered.
    pub fn choose(self, lines: &[(Move, i32)]) -> Option<Move> {
        let (_, top) = *lines.first()?;
        let noise = (MAX_SKILL - self.level.clamp(0, MAX_SKILL)) * SKILL_NOISE_PER_LEVEL;
        if noise == 0 || top.abs() >= MATE_BOUND {
            return Some(lines[0].0);
        }
        let mut rng = Rng::new(self.seed);
        let mut best = None;
        let mut best_value = i32::MIN;
        for &(mv, score) in lines {
            if top - score > SKILL_MAX_SACRIFICE.min(2 * noise) {
                continue;
            }
            let value = score + (rng.next_u64() % (noise as u64 + 1)) as i32;
            // Ties go to the earlier (better) line.
            if value > best_value {
                best_value = value;
                best = Some(mv);
            }
        }
        best
    }
}

/// Measured strength of Skill Levels with the network, (level, Elo) with
/// both rising: 40 games each at 5+0.05 against an anchor near the
/// level's strength, Stockfish 15.1 at `UCI_Elo` 1350, Fairy-Max 5.0b
/// (~1940), Phalanx XXV (~2610) or Glaurung 2.2 (~2790), rounded to 5;
/// level 8 pools its games against Fairy-Max and Phalanx; full strength
/// from the ladder's 200-game legs against Toga II 3.0 and Glaurung 2.2
/// at 10+0.1 (STRENGTH.md, "Strength levels"; build `a6546b6`).
pub const SKILL_ELO: [(i32, i64); 8] = [
    (0, 1190),
    (3, 1690),
    (5, 2065),
    (8, 2680),
    (11, 2865),
    (14, 3060),
    (17, 3110),
    (MAX_SKILL, 3360),
];
/// Lowest Elo measured (the weakest level).
pub const MIN_ELO: i64 = SKILL_ELO[0].1;
/// Highest Elo measured (full strength).
pub const MAX_ELO: i64 = SKILL_ELO[SKILL_ELO.len() - 1].1;

/// Skill level for an Elo: interpolated between the measured levels of
/// `SKILL_ELO` and rounded to the nearest level.
pub fn skill_for_elo(elo: i64) -> i32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let mut level = SKILL_ELO[0].0;
    for pair in SKILL_ELO.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if elo >= e0 {
            let span = e1 - e0;
            level = l0 + ((2 * (elo - e0) * (l1 - l0) as i64 + span) / (2 * span)) as i32;
        }
    }
    level.min(MAX_SKILL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::types::{MoveKind, Square};

    #[test]
    fn skill_chooses_near_the_top() {
        let a = Move::new(
            Square::from_coords(0, 0),
            Square::from_coords(0, 1),
            MoveKind::Normal,
        );
        let b = Move::new(
            Square::from_coords(1, 0),
            Square::from_coords(1, 1),
            MoveKind::Normal,
        );
        let c = Move::new(
            Square::from_coords(2, 0),
            Square::from_coords(2, 1),
            MoveKind::Normal,
        );
        let lines = [(a, 50), (b, 40), (c, -400)];
        let full = Skill {
            level: MAX_SKILL,
            seed: 1,
        };
        assert_eq!(full.choose(&lines), Some(a));
        let mut seen_b = false;
        for seed in 0..200 {
            let weak = Skill { level: 0, seed };
            let m = weak.choose(&lines).unwrap();
            assert_ne!(m, c, "a 450 cp blunder is never chosen");
            seen_b |= m == b;
        }
        assert!(seen_b, "a weak level sometimes prefers a near-equal move");
        assert_eq!(Skill { level: 5, seed: 3 }.max_depth(), 6);
    }

    #[test]
    fn elo_maps_into_the_levels() {
        // Each measured point maps to its own level, the ends clamp, and a
        // higher Elo is never weaker.
        for (level, elo) in SKILL_ELO {
            assert_eq!(skill_for_elo(elo), level);
        }
        assert_eq!(skill_for_elo(0), SKILL_ELO[0].0);
        assert_eq!(skill_for_elo(MAX_ELO + 500), MAX_SKILL);
        let levels: Vec<i32> = (MIN_ELO..=MAX_ELO).map(skill_for_elo).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]));
        // Halfway between two measured points is halfway between levels.
        let (l0, e0) = SKILL_ELO[1];
        let (l1, e1) = SKILL_ELO[2];
        assert_eq!(skill_for_elo((e0 + e1) / 2), (l0 + l1 + 1) / 2);
    }
}
