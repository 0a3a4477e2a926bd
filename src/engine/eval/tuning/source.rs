//! Writing `weights.rs`: the file as built (embedded) with its numbers
//! replaced by given values, so that a diff shows what a tune changed;
//! tables re-centred so that each piece's value is its average worth.

use super::{ATTACK_KINDS, FIRST_ATTACKER, SAFE_CHECKS, SLOTS, X_ATTACK_CAP, X_ATTACK_SCALE};
use super::{X_DRAWISH, X_OPPOSITE_BISHOPS, X_UNITS};
use crate::chess::types::{kind_index, Piece, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::engine::eval::slots as ix;
use crate::engine::eval::weights::{self as w, Score};
use std::collections::HashMap;
use std::ops::Range;

/// The text of `weights.rs` as built: the template of the output.
const WEIGHTS_SOURCE: &str = include_str!("../weights.rs");

/// A piece-square table, the kind it belongs to, the squares its mean is
/// taken over and the squares a piece of the kind can stand on.
type TableSquares = (usize, Piece, Range<usize>, Range<usize>);

/// Every piece-square table. The pawn's mean is taken over rank 2, so that
/// the pawn's value stays that of a pawn on its starting square.
const PIECE_SQUARE_TABLES: [TableSquares; 6] = [
    (ix::PAWN_PST, PAWN, 8..16, 8..56),
    (ix::KNIGHT_PST, KNIGHT, 0..64, 0..64),
    (ix::BISHOP_PST, BISHOP, 0..64, 0..64),
    (ix::ROOK_PST, ROOK, 0..64, 0..64),
    (ix::QUEEN_PST, QUEEN, 0..64, 0..64),
    (ix::KING_PST, KING, 0..64, 0..64),
];

/// Subtracts `shift` from the slots of `range` (a table of `kind`) and
/// adds it to the piece's value (the king's cancels): the evaluation stays
/// the same.
fn move_into_value(slots: &mut [Score], range: Range<usize>, kind: Piece, shift: Score) {
    for i in range {
        slots[i] -= shift;
    }
    if kind != KING {
        slots[ix::PIECE_VALUE + kind_index(kind)] += shift;
    }
}

/// Every mobility table and its piece: re-centred like the piece-square
/// tables when the data's usage counts are known.
const MOBILITY_TABLES: [(usize, usize, Piece); 4] = [
    (ix::MOBILITY_KNIGHT, w::MOBILITY_KNIGHT.len(), KNIGHT),
    (ix::MOBILITY_BISHOP, w::MOBILITY_BISHOP.len(), BISHOP),
    (ix::MOBILITY_ROOK, w::MOBILITY_ROOK.len(), ROOK),
    (ix::MOBILITY_QUEEN, w::MOBILITY_QUEEN.len(), QUEEN),
];

/// The whole number nearest the mean of the values of `slots` weighted by
/// `uses` (halves down), or `None` when no slot is used.
fn weighted_shift(values: &[Score], uses: &[u64], slots: Range<usize>) -> Option<Score> {
    let weight: i128 = slots.clone().map(|i| uses[i] as i128).sum();
    if weight == 0 {
        return None;
    }
    let total = |part: fn(Score) -> i32| -> i32 {
        let sum: i128 = slots
            .clone()
            .map(|i| uses[i] as i128 * part(values[i]) as i128)
            .sum();
        (sum + weight / 2).div_euclid(weight) as i32
    };
    Some(Score(total(|s| s.mg()), total(|s| s.eg())))
}

/// The whole number nearest the mean of `total` over `n` (halves down),
/// so that a table re-centred once is left as it is the next time.
fn centre_shift(total: i32, n: i32) -> i32 {
    (total + n / 2).div_euclid(n)
}

/// The (middlegame, endgame) pair of every weight slot of `p`.
fn slot_scores(p: &[i32]) -> Vec<Score> {
    (0..SLOTS).map(|s| Score(p[2 * s], p[2 * s + 1])).collect()
}

/// Weight arrays by constant name.
type ScoreValues = HashMap<&'static str, Vec<Score>>;
/// Integer constants (or arrays) by name.
type IntValues = HashMap<&'static str, Vec<i32>>;

/// The named values of the tuned vector. With the data's usage counts
/// (`uses`, one per slot), every piece-square and mobility table is
/// shifted to a zero mean weighted by how often its entries were used and
/// the shift moved into the piece's value (the king's cancels), so that
/// each piece value is the piece's average worth and the material pass of
/// the lazy evaluation sees what the full one does on average; the
/// evaluation is otherwise unchanged. A table the data never uses is
/// centred plainly (see `PIECE_SQUARE_TABLES`; the pawn's over rank 2) or,
/// for mobility, left as it is. Without counts (`uses` empty) the tables
/// are written as they are: the file's own centring is kept.
fn named_values(p: &[i32], uses: &[u64]) -> (ScoreValues, IntValues) {
    let mut slots = slot_scores(p);
    let counted = uses.len() == SLOTS;
    if counted {
        for (table, kind, mean_over, squares) in PIECE_SQUARE_TABLES {
            let range = table + squares.start..table + squares.end;
            let shift = weighted_shift(&slots, uses, range.clone()).unwrap_or_else(|| {
                let n = mean_over.len() as i32;
                let total = mean_over.fold(Score(0, 0), |sum, sq| sum + slots[table + sq]);
                Score(centre_shift(total.mg(), n), centre_shift(total.eg(), n))
            });
            move_into_value(&mut slots, range, kind, shift);
        }
        for (table, len, kind) in MOBILITY_TABLES {
            if let Some(shift) = weighted_shift(&slots, uses, table..table + len) {
                move_into_value(&mut slots, table..table + len, kind, shift);
            }
        }
    }
    let scores = ix::WEIGHTS
        .iter()
        .map(|weight| {
            (
                weight.name,
                slots[weight.first..weight.first + weight.values.len()].to_vec(),
            )
        })
        .collect();
    let mut units = w::KING_ATTACK_UNITS.to_vec();
    units[FIRST_ATTACKER..FIRST_ATTACKER + ATTACK_KINDS]
        .copy_from_slice(&p[X_UNITS..X_UNITS + ATTACK_KINDS]);
    let mut check_units = w::KING_SAFE_CHECK_UNITS.to_vec();
    check_units[FIRST_ATTACKER..FIRST_ATTACKER + ATTACK_KINDS]
        .copy_from_slice(&p[X_UNITS + SAFE_CHECKS..X_UNITS + SAFE_CHECKS + ATTACK_KINDS]);
    let ints = HashMap::from([
        ("KING_ATTACK_UNITS", units),
        ("KING_SAFE_CHECK_UNITS", check_units),
        ("KING_ATTACK_SCALE", vec![p[X_ATTACK_SCALE]]),
        ("KING_ATTACK_CAP", vec![p[X_ATTACK_CAP]]),
        ("DRAWISH_SCALE", vec![p[X_DRAWISH]]),
        ("OPPOSITE_BISHOPS_SCALE", vec![p[X_OPPOSITE_BISHOPS]]),
    ]);
    (scores, ints)
}

/// `text` (a `weights.rs`) with the values of the named constants replaced:
/// each `Score(mg, eg)` of a constant in `scores`, in order, and the whole
/// value of a constant in `ints` (an `i32` or an `[i32; N]` on one line).
/// Comments and layout are kept. Fails if a name is missing or its number
/// of values does not match.
fn rewrite_weights(
    text: &str,
    scores: &HashMap<&str, Vec<Score>>,
    ints: &HashMap<&str, Vec<i32>>,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut used: HashMap<&str, usize> = HashMap::new();
    let mut current: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let trimmed = body.trim_start();
        if let Some(rest) = trimmed.strip_prefix("pub const ") {
            current = rest.split(':').next().map(str::trim);
        }
        let mut new_line = body.to_string();
        if let Some(name) = current {
            if let Some(values) = ints.get(name) {
                let (head, _) = body
                    .split_once('=')
                    .ok_or_else(|| format!("{name}: no '=' on its line"))?;
                if !body.trim_end().ends_with(';') {
                    return Err(format!("{name}: expected on one line"));
                }
                let value = if head.contains('[') {
                    let list: Vec<String> = values.iter().map(i32::to_string).collect();
                    format!("[{}]", list.join(", "))
                } else {
                    values.first().copied().unwrap_or(0).to_string()
                };
                new_line = format!("{head}= {value};");
                *used.entry(name).or_default() += values.len();
            } else if let Some(values) = scores.get(name) {
                let mut rebuilt = String::new();
                let mut rest = body;
                while let Some(at) = rest.find("Score(") {
                    let close = rest[at..]
                        .find(')')
                        .ok_or_else(|| format!("{name}: unclosed Score("))?;
                    let n = used.entry(name).or_default();
                    let v = values
                        .get(*n)
                        .ok_or_else(|| format!("{name}: more values in the file than tuned"))?;
                    *n += 1;
                    rebuilt.push_str(&rest[..at]);
                    rebuilt.push_str(&format!("Score({}, {})", v.mg(), v.eg()));
                    rest = &rest[at + close + 1..];
                }
                rebuilt.push_str(rest);
                new_line = rebuilt;
            }
        }
        out.push_str(&new_line);
        if line.ends_with('\n') {
            out.push('\n');
        }
        if trimmed.ends_with(';') {
            current = None;
        }
    }
    for (name, values) in scores {
        if used.get(name).copied().unwrap_or(0) != values.len() {
            return Err(format!(
                "{name}: {} values tuned, {} found in the file",
                values.len(),
                used.get(name).copied().unwrap_or(0)
            ));
        }
    }
    for (name, values) in ints {
        if used.get(name).copied().unwrap_or(0) != values.len() {
            return Err(format!("{name}: not found as one line in the file"));
        }
    }
    Ok(out)
}

/// A complete `weights.rs` holding the integer values `p` (the vector of
/// [`super::VALUES`], rounded). With `uses`, how often the data used each
/// slot (both sides, [`super::SLOTS`] counts), every table is re-centred by
/// usage and the shift moved into the piece's value (the evaluation stays
/// the same); with `uses` empty the tables are written as they are. Fails
/// if the embedded `weights.rs` lacks a weight or has it in another shape.
pub fn weights_file(p: &[i32], uses: &[u64]) -> Result<String, String> {
    let (scores, ints) = named_values(p, uses);
    rewrite_weights(WEIGHTS_SOURCE, &scores, &ints)
}

/// The weights that differ between the integer values `before` and
/// `after` as [`weights_file`] would write them (re-centred by `uses`),
/// one per line: `NAME[i]: (mg, eg) -> (mg, eg)`.
pub fn changes(before: &[i32], after: &[i32], uses: &[u64]) -> Vec<String> {
    let (sb, ib) = named_values(before, uses);
    let (sa, ia) = named_values(after, uses);
    let mut lines = Vec::new();
    for weight in ix::WEIGHTS {
        let (old, new) = (&sb[weight.name], &sa[weight.name]);
        for (i, (o, n)) in old.iter().zip(new).enumerate() {
            if o != n {
                let name = if old.len() == 1 {
                    weight.name.to_string()
                } else {
                    format!("{}[{i}]", weight.name)
                };
                lines.push(format!(
                    "{name}: ({}, {}) -> ({}, {})",
                    o.mg(),
                    o.eg(),
                    n.mg(),
                    n.eg()
                ));
            }
        }
    }
    let mut names: Vec<&&str> = ib.keys().collect();
    names.sort();
    for name in names {
        if ib[*name] != ia[*name] {
            lines.push(format!("{name}: {:?} -> {:?}", ib[*name], ia[*name]));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::{exact, features, initial, test_positions};
    use super::*;
    use crate::chess::types::PAWN as P;

    fn rounded(p: &[f64]) -> Vec<i32> {
        p.iter().map(|v| v.round() as i32).collect()
    }

    #[test]
    fn unchanged_weights_rewrite_to_the_same_file() {
        let p = rounded(&initial());
        assert_eq!(weights_file(&p, &[]).unwrap(), WEIGHTS_SOURCE);
        assert!(changes(&p, &p, &[]).is_empty());
    }

    #[test]
    fn changed_weights_are_written_and_recentred() {
        let mut p = rounded(&initial());
        p[2 * ix::TEMPO] = 17;
        p[2 * (ix::PASSED_PAWN + 6) + 1] = 133;
        p[2 * (ix::KNIGHT_PST + 19)] += 64;
        p[2 * (ix::PAWN_PST + 8) + 1] += 8;
        p[2 * (ix::KING_PST + 6)] += 128;
        p[X_ATTACK_CAP] = 555;
        p[X_UNITS] = 9;
        p[X_UNITS + SAFE_CHECKS + 3] = 11;
        let text = weights_file(&p, &[]).unwrap();
        let has = |line: String| assert!(text.contains(&line), "missing: {line}");
        has(format!(
            "pub const TEMPO: Score = Score(17, {});",
            w::TEMPO.eg()
        ));
        has(format!("    Score({}, 133),", w::PASSED_PAWN[6].mg()));
        // Without usage counts the tables are written as they are...
        let (plain, _) = named_values(&p, &[]);
        assert_eq!(plain["KNIGHT_PST"][19], w::KNIGHT_PST[19] + Score(64, 0));
        assert_eq!(plain["PIECE_VALUE"], w::PIECE_VALUE.to_vec());
        // ...with them (here every square of the knight's and king's
        // tables used once, the pawn's rank 2 only, no mobility entry) each
        // table is shifted to a zero mean and the piece's value takes it.
        let mut uses = vec![0u64; SLOTS];
        for i in (ix::KNIGHT_PST..ix::KNIGHT_PST + 64)
            .chain(ix::KING_PST..ix::KING_PST + 64)
            .chain(ix::PAWN_PST + 8..ix::PAWN_PST + 16)
        {
            uses[i] = 1;
        }
        let (scores, _) = named_values(&p, &uses);
        let slot = |s: usize| Score(p[2 * s], p[2 * s + 1]);
        let mean = |first: usize, n: usize| {
            let t = (first..first + n).fold(Score(0, 0), |a, s| a + slot(s));
            Score(
                centre_shift(t.mg(), n as i32),
                centre_shift(t.eg(), n as i32),
            )
        };
        let (knight_shift, pawn_shift, king_shift) = (
            mean(ix::KNIGHT_PST, 64),
            mean(ix::PAWN_PST + 8, 8),
            mean(ix::KING_PST, 64),
        );
        assert_ne!(knight_shift, Score(0, 0));
        for sq in 0..64 {
            let knights = &scores["KNIGHT_PST"];
            assert_eq!(
                knights[sq],
                slot(ix::KNIGHT_PST + sq) - knight_shift,
                "{sq}"
            );
            let kings = &scores["KING_PST"];
            assert_eq!(kings[sq], slot(ix::KING_PST + sq) - king_shift, "{sq}");
        }
        let pawns = &scores["PAWN_PST"];
        for (sq, &pawn) in pawns.iter().enumerate().take(56).skip(8) {
            assert_eq!(pawn, slot(ix::PAWN_PST + sq) - pawn_shift, "{sq}");
        }
        assert_eq!(pawns[0], w::PAWN_PST[0], "rank 1 is left alone");
        assert_eq!(pawns[56], w::PAWN_PST[56], "rank 8 is left alone");
        let mobility = &scores["MOBILITY_KNIGHT"];
        assert_eq!(mobility, &w::MOBILITY_KNIGHT.to_vec(), "unused: unshifted");
        let values = &scores["PIECE_VALUE"];
        let value = |kind| w::PIECE_VALUE[kind_index(kind)];
        assert_eq!(values[kind_index(KNIGHT)], value(KNIGHT) + knight_shift);
        assert_eq!(values[kind_index(P)], value(P) + pawn_shift);
        assert_eq!(values[kind_index(KING)], value(KING), "the king's cancels");
        assert_eq!(
            values[kind_index(ROOK)],
            value(ROOK) + mean(ix::ROOK_PST, 64)
        );
        has("pub const KING_ATTACK_CAP: i32 = 555;".to_string());
        let mut units = w::KING_ATTACK_UNITS;
        units[1] = 9;
        has(format!(
            "pub const KING_ATTACK_UNITS: [i32; 6] = {units:?};"
        ));
        let mut check_units = w::KING_SAFE_CHECK_UNITS;
        check_units[4] = 11;
        has(format!(
            "pub const KING_SAFE_CHECK_UNITS: [i32; 6] = {check_units:?};"
        ));
        let changed = changes(&rounded(&initial()), &p, &[]);
        let tempo = format!(
            "TEMPO: ({}, {}) -> (17, {})",
            w::TEMPO.mg(),
            w::TEMPO.eg(),
            w::TEMPO.eg()
        );
        assert!(changed.contains(&tempo), "{changed:?}");
        // A missing constant is an error, not a silent skip.
        let (scores, ints) = named_values(&p, &[]);
        assert!(
            rewrite_weights("pub const TEMPO: Score = Score(1, 2);\n", &scores, &ints).is_err()
        );
    }

    #[test]
    fn usage_weighted_recentring_keeps_the_evaluation() {
        // Usage counts from real positions: every piece-square and mobility
        // table is shifted to a zero mean weighted by them, the shift going
        // into the piece's value, so the model's evaluation of every
        // position is unchanged, and a second re-centring changes nothing.
        let traced: Vec<_> = test_positions(40).iter().map(features).collect();
        let mut uses = vec![0u64; SLOTS];
        for f in &traced {
            for &(slot, n) in &f.uses {
                uses[slot as usize] += n as u64;
            }
        }
        assert_eq!(uses.len(), SLOTS);
        let p = rounded(&initial());
        let (scores, _) = named_values(&p, &uses);
        let mut q = p.clone();
        for weight in ix::WEIGHTS {
            for (i, v) in scores[weight.name].iter().enumerate() {
                q[2 * (weight.first + i)] = v.mg();
                q[2 * (weight.first + i) + 1] = v.eg();
            }
        }
        assert_ne!(p, q, "the starting tables are not centred by usage");
        for f in &traced {
            let (shape, coefs) = (&f.shape, &f.coefs);
            assert_eq!(exact(shape, coefs, &p), exact(shape, coefs, &q));
        }
        let centred = slot_scores(&q);
        for (table, len, _) in MOBILITY_TABLES {
            let mean = weighted_shift(&centred, &uses, table..table + len);
            assert_eq!(mean, Some(Score(0, 0)));
        }
        let (again, _) = named_values(&q, &uses);
        assert_eq!(again, scores, "re-centring twice changes nothing");
    }
}
