//! The tuner's data: positions with results read from text (one a line,
//! in the forms `cavalier selfplay` and other tools write), traced once
//! through the evaluation's tuning interface and kept compactly.

use crate::chess::board::Board;
use crate::engine::eval::evaluate;
use crate::engine::eval::tuning::{features, is_frozen, slot_of, Features, Shape, SLOTS, VALUES};
use crate::engine::search::{Searcher, MATE_BOUND};
use crate::engine::tt::TranspositionTable;

/// Hash table of each loading thread's quiescence searches (MB).
const FILTER_HASH_MB: usize = 1;
/// Lines between progress reports while loading.
const LOAD_PROGRESS_LINES: usize = 200_000;

/// The logistic function: an evaluation times `K` as an expected score.
#[inline(always)]
pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One position of a data set; its coefficients live in the set's arena.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    first: u32,
    len: u16,
    /// What the evaluation's non-linear steps need.
    pub(super) shape: Shape,
    /// The target: the game's result (White's view, 0..=1), or its blend
    /// with the score.
    pub(super) result: f32,
    /// The search score written beside the result (cp, White's view), NaN
    /// when the line had none.
    score: f32,
}

/// Positions with results, traced.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub(super) entries: Vec<Entry>,
    coefs: Vec<(u16, i16)>,
    /// How often each weight slot is used over all positions pushed (both
    /// sides' counts added), for re-centring tables on output.
    uses: Vec<u64>,
}

impl Dataset {
    /// Adds a traced position and its result (White's view, 0..=1).
    pub fn push(&mut self, f: &Features, result: f32) {
        self.push_scored(f, result, None);
    }

    /// Adds a traced position, its result and the search score written
    /// beside it, if any (cp, White's view).
    pub fn push_scored(&mut self, f: &Features, result: f32, score: Option<i32>) {
        self.entries.push(Entry {
            first: self.coefs.len() as u32,
            len: f.coefs.len() as u16,
            shape: f.shape,
            result,
            score: score.map_or(f32::NAN, |x| x as f32),
        });
        self.coefs.extend_from_slice(&f.coefs);
        let uses = self.uses_mut();
        for &(slot, n) in &f.uses {
            uses[slot as usize] += n as u64;
        }
    }

    /// A copy whose targets blend each game result with its search score:
    /// `lambda * result + (1 - lambda) * sigmoid(k * score)` where a score
    /// was written (positions without one keep their result), and how many
    /// had one. Mate scores are clamped to +-2000 cp first.
    pub fn blended(&self, lambda: f64, k: f64) -> (Dataset, usize) {
        let mut out = self.clone();
        let mut scored = 0;
        for e in &mut out.entries {
            if !e.score.is_nan() {
                let s = sigmoid(k * (e.score as f64).clamp(-2000.0, 2000.0));
                e.result = (lambda * e.result as f64 + (1.0 - lambda) * s) as f32;
                scored += 1;
            }
        }
        (out, scored)
    }

    /// The usage counts, made one per slot on first use.
    fn uses_mut(&mut self) -> &mut [u64] {
        if self.uses.is_empty() {
            self.uses = vec![0; SLOTS];
        }
        &mut self.uses
    }

    /// How often each weight slot was used (both sides) by the positions
    /// pushed; empty when none was.
    pub fn uses(&self) -> &[u64] {
        &self.uses
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn append(&mut self, other: Dataset) {
        for (a, b) in self.uses_mut().iter_mut().zip(&other.uses) {
            *a += b;
        }
        let base = self.coefs.len() as u32;
        self.coefs.extend_from_slice(&other.coefs);
        self.entries.extend(other.entries.into_iter().map(|mut e| {
            e.first += base;
            e
        }));
    }

    /// Moves the last `count` positions into a data set of their own.
    pub fn split_tail(&mut self, count: usize) -> Dataset {
        let at = self.entries.len() - count.min(self.entries.len());
        let mut tail = Dataset::default();
        for e in self.entries.split_off(at) {
            let coefs = self.coefs_of(&e).to_vec();
            tail.entries.push(Entry {
                first: tail.coefs.len() as u32,
                ..e
            });
            tail.coefs.extend_from_slice(&coefs);
        }
        let used = self
            .entries
            .last()
            .map_or(0, |e| e.first as usize + e.len as usize);
        self.coefs.truncate(used);
        tail
    }

    /// Which values the fit may move: not frozen, and (for a weight slot)
    /// counted in at least `min_count` positions. A weight that few
    /// positions exercise would be fitted to their noise (a queen reaching
    /// 25 squares, a king on an odd square), so it keeps its value.
    pub fn movable(&self, min_count: usize) -> Vec<bool> {
        let mut positions = vec![0usize; SLOTS];
        for &(slot, _) in &self.coefs {
            positions[slot as usize] += 1;
        }
        (0..VALUES)
            .map(|i| {
                !is_frozen(i) && slot_of(i).is_none_or(|slot| positions[slot] >= min_count.max(1))
            })
            .collect()
    }

    /// The coefficients of a position of this set.
    pub(super) fn coefs_of(&self, e: &Entry) -> &[(u16, i16)] {
        &self.coefs[e.first as usize..e.first as usize + e.len as usize]
    }
}

/// Reads a result: a number from 0 to 1 (1.0, 0.5, 0.0, or a fraction),
/// or 1-0, 1/2-1/2, 0-1.
fn parse_result(token: &str) -> Option<f32> {
    let t = token.trim_matches(|c: char| matches!(c, '"' | '[' | ']' | ';' | ' '));
    match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "1/2" | "=" => Some(0.5),
        _ => t.parse::<f32>().ok().filter(|r| (0.0..=1.0).contains(r)),
    }
}

/// One line of a data file: `FEN;RESULT` (what `cavalier selfplay`
/// writes), `FEN [RESULT]`, or an EPD line ending with `c9 "RESULT";`.
/// `Ok(None)` for blank lines and `#` comments.
pub fn parse_line(line: &str) -> Result<Option<(Board, f32)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let between = |open: char, close: char| {
        let from = line.find(open)?;
        let to = line[from + 1..].find(close)? + from + 1;
        Some((&line[..from], &line[from + 1..to]))
    };
    let (fen, result) = if let Some(x) = between('[', ']') {
        x
    } else if let Some((fen, result)) = between('"', '"') {
        (fen.trim_end().trim_end_matches("c9"), result)
    } else if let Some((fen, rest)) = line.split_once(';') {
        (fen, rest.split(';').next().unwrap_or("").trim())
    } else {
        return Err(
            "no result: expected FEN;RESULT, FEN [RESULT] or EPD c9 \"RESULT\"".to_string(),
        );
    };
    let result = parse_result(result).ok_or_else(|| {
        format!(
            "bad result \"{}\" (a number 0..1, 1-0, 1/2-1/2 or 0-1)",
            crate::util::text::quote(result)
        )
    })?;
    let board = Board::from_fen(fen).map_err(|e| e.to_string())?;
    Ok(Some((board, result)))
}

/// The SCORE of a `FEN;RESULT;SCORE` line (what `cavalier selfplay`
/// writes), if it has one.
pub fn line_score(line: &str) -> Option<i32> {
    let mut fields = line.trim().split(';');
    let (_, _, score) = (fields.next()?, fields.next()?, fields.next()?);
    score.trim().parse::<i32>().ok()
}

/// What loading kept and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub lines: usize,
    pub kept: usize,
    pub unreadable: usize,
    pub in_check: usize,
    /// Quiescence search differs from the static evaluation.
    pub not_quiet: usize,
}

/// Traces the positions of `lines`; with `filter`, only positions not in
/// check whose quiescence score equals their static evaluation are kept.
fn load_part(lines: &[&str], filter: bool, progress: bool) -> (Dataset, LoadStats, Option<String>) {
    let mut data = Dataset::default();
    let mut stats = LoadStats::default();
    let mut first_error = None;
    let mut searcher = Searcher::new();
    let tt = TranspositionTable::new(FILTER_HASH_MB);
    for (n, line) in lines.iter().enumerate() {
        if progress && n > 0 && n % LOAD_PROGRESS_LINES == 0 {
            eprintln!("tune: {n} lines read by the first loader");
        }
        let (mut board, result) = match parse_line(line) {
            Ok(Some(x)) => x,
            Ok(None) => continue,
            Err(e) => {
                stats.lines += 1;
                stats.unreadable += 1;
                first_error
                    .get_or_insert_with(|| format!("\"{}\": {e}", crate::util::text::quote(line)));
                continue;
            }
        };
        stats.lines += 1;
        if filter {
            if board.in_check() {
                stats.in_check += 1;
                continue;
            }
            let q = searcher.quiescence_score(&mut board, &tt);
            if q.abs() >= MATE_BOUND || q != evaluate(&board) {
                stats.not_quiet += 1;
                continue;
            }
        }
        data.push_scored(&features(&board), result, line_score(line));
        stats.kept += 1;
    }
    (data, stats, first_error)
}

/// Loads a data set from text (one position a line) on `threads` threads.
pub fn load(
    text: &str,
    filter: bool,
    limit: usize,
    threads: usize,
) -> (Dataset, LoadStats, Option<String>) {
    let lines: Vec<&str> = text.lines().take(limit).collect();
    let threads = threads.clamp(1, lines.len().max(1));
    let chunk = lines.len().div_ceil(threads).max(1);
    let parts: Vec<(Dataset, LoadStats, Option<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .enumerate()
            .map(|(i, part)| s.spawn(move || load_part(part, filter, i == 0)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut data = Dataset::default();
    let mut stats = LoadStats::default();
    let mut first_error = None;
    for (d, st, err) in parts {
        data.append(d);
        stats.lines += st.lines;
        stats.kept += st.kept;
        stats.unreadable += st.unreadable;
        stats.in_check += st.in_check;
        stats.not_quiet += st.not_quiet;
        if first_error.is_none() {
            first_error = err;
        }
    }
    (data, stats, first_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::tuning::{forward, initial, test_positions};

    #[test]
    fn lines_in_every_format() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (line, r) in [
            (format!("{start};1.0"), 1.0),
            (format!("{start};0.5"), 0.5),
            (format!("{start} [0.0]"), 0.0),
            (format!("{start} [1-0]"), 1.0),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";".to_string(),
                0.5,
            ),
        ] {
            let (b, got) = parse_line(&line).unwrap().unwrap();
            assert_eq!(got, r, "{line}");
            assert_eq!(b.hash(), Board::startpos().hash());
        }
        assert_eq!(parse_line("  ").unwrap().map(|x| x.1), None);
        assert_eq!(parse_line("# note").unwrap().map(|x| x.1), None);
        assert!(parse_line(start).is_err());
        assert_eq!(
            parse_line(&format!("{start};0.75")).unwrap().map(|x| x.1),
            Some(0.75)
        );
        assert!(parse_line(&format!("{start};1.5")).is_err());
        assert!(parse_line(&format!("{start};")).is_err());
        assert!(parse_line("not a fen;1.0").is_err());
    }

    #[test]
    fn loading_filters_loud_positions() {
        let text = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5
rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3;0.5
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3;0.0
garbage;1.0
";
        let (data, stats, err) = load(text, true, usize::MAX, 2);
        assert_eq!(stats.lines, 4);
        assert_eq!(stats.unreadable, 1);
        assert_eq!(stats.in_check, 1);
        assert_eq!(stats.not_quiet, 1, "exd4 wins the queen");
        assert_eq!(data.len(), 1);
        assert!(err.is_some());
        let (all, stats, _) = load(text, false, usize::MAX, 1);
        assert_eq!((all.len(), stats.kept), (3, 3));
    }

    #[test]
    fn a_split_keeps_every_position_whole() {
        let boards = test_positions(1);
        let mut data = Dataset::default();
        for b in &boards {
            data.push(&features(b), 0.5);
        }
        let p = initial();
        let evals = |d: &Dataset| -> Vec<f64> {
            d.entries
                .iter()
                .map(|e| forward(&e.shape, d.coefs_of(e), &p).eval)
                .collect()
        };
        let all = evals(&data);
        let tail = data.split_tail(50);
        assert_eq!((data.len(), tail.len()), (boards.len() - 50, 50));
        assert_eq!([evals(&data), evals(&tail)].concat(), all);
        assert_eq!(data.coefs.len() + tail.coefs.len(), {
            let mut d = Dataset::default();
            boards.iter().for_each(|b| d.push(&features(b), 0.5));
            d.coefs.len()
        });
    }

    #[test]
    fn result_and_score_blend() {
        assert_eq!(
            line_score("8/8/8/8/8/8/8/K1k5 w - - 0 1;0.5;-37"),
            Some(-37)
        );
        assert_eq!(line_score("8/8/8/8/8/8/8/K1k5 w - - 0 1;0.5"), None);
        assert_eq!(line_score("8/8/8/8/8/8/8/K1k5 w - - 0 1 [0.5]"), None);
        let b = Board::startpos();
        let mut data = Dataset::default();
        data.push_scored(&features(&b), 1.0, Some(0));
        data.push_scored(&features(&b), 0.0, Some(30_000));
        data.push_scored(&features(&b), 0.5, None);
        let (mixed, scored) = data.blended(0.25, 0.01);
        assert_eq!(scored, 2);
        let r: Vec<f32> = mixed.entries.iter().map(|e| e.result).collect();
        // 0.25 * 1 + 0.75 * 0.5; 0.25 * 0 + 0.75 * sigmoid(20): a mate
        // clamped to 2000 cp; no score: the result.
        assert!((r[0] - 0.625).abs() < 1e-6, "{r:?}");
        assert!((r[1] - 0.75).abs() < 1e-3, "{r:?}");
        assert_eq!(r[2], 0.5);
        let (same, _) = data.blended(1.0, 0.01);
        assert_eq!(same.entries[1].result, 0.0);
    }
}
