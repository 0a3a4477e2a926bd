//! `go`: its words parsed into [`GoLimits`], turned into the engine's
//! search limits, answered from the book or handed to the search pool.
//!
//! Part of the protocol layer: imports `chess`, `book`, `engine` and
//! `util`.

use super::format::UciReport;
use super::Engine;
use crate::book::{pick_weighted, EMBEDDED};
use crate::chess::notation::{parse_uci, to_uci};
use crate::chess::types::Move;
use crate::engine::search::{SearchLimits, MAX_DEPTH};
use crate::engine::skill::{skill_for_elo, Skill, MAX_SKILL};
use crate::engine::threads::SearchJob;
use crate::engine::time::{plan, GoLimits};
use crate::util::text::quote;
use std::sync::Arc;

/// The words `go` knows; `searchmoves` ends at the next of them.
const KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Parses the words after `go`: the limits understood, and a message for
/// each word that was not (the search still runs with the rest).
pub fn parse_go(args: &[&str]) -> (GoLimits, Vec<String>) {
    let mut limits = GoLimits::default();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let (used, error) = parse_word(&mut limits, &args[i..]);
        errors.extend(error);
        i += used;
    }
    (limits, errors)
}

/// Parses the word that starts `words`, with its value: how many words it
/// used, and a message if it was not understood.
fn parse_word(l: &mut GoLimits, words: &[&str]) -> (usize, Option<String>) {
    let key = words[0];
    let value = words.get(1).copied();
    let slot = match key {
        "wtime" => &mut l.wtime,
        "btime" => &mut l.btime,
        "winc" => &mut l.winc,
        "binc" => &mut l.binc,
        "movestogo" => &mut l.movestogo,
        "movetime" => &mut l.movetime,
        "depth" => &mut l.depth,
        "mate" => &mut l.mate,
        "perft" => &mut l.perft,
        "nodes" => {
            let parsed = number(key, value).map(|v| l.nodes = Some(v.max(1) as u64));
            return (2, parsed.err());
        }
        "infinite" => {
            l.infinite = true;
            return (1, None);
        }
        "ponder" => {
            l.ponder = true;
            return (1, None);
        }
        "searchmoves" => {
            let n = words[1..]
                .iter()
                .take_while(|t| !KEYWORDS.contains(t))
                .count();
            l.searchmoves
                .extend(words[1..=n].iter().map(|t| t.to_string()));
            return (1 + n, None);
        }
        other => {
            let error = format!("go: unknown word \"{}\" ignored", quote(other));
            return (1, Some(error));
        }
    };
    match number(key, value) {
        Ok(v) => {
            *slot = Some(v);
            (2, None)
        }
        Err(e) => (2, Some(e)),
    }
}

/// The number after `go <key>`: a whole number, or a decimal one cut to
/// a whole number.
fn number(key: &str, value: Option<&str>) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("go {key} needs a number"))?;
    v.parse::<i64>()
        .or_else(|_| v.parse::<f64>().map(|f| f.clamp(-1e15, 1e15) as i64))
        .map_err(|_| format!("go {key}: \"{}\" is not a number; ignored", quote(v)))
}

impl Engine {
    pub(super) fn go(&mut self, args: &[&str]) {
        let (limits, errors) = parse_go(args);
        for e in errors {
            self.out.error(&e);
        }
        self.stop_search();
        if let Some(depth) = limits.perft {
            self.perft(depth);
            return;
        }
        self.apply_pending_hash();
        if self.play_book_move(&limits) {
            return;
        }
        let search_limits = self.search_limits(&limits);
        if !self.options.classic {
            self.match_table_to(search_limits.network.as_ref());
        }
        let job = SearchJob {
            limits: search_limits,
            board: self.board.clone(),
            tt: Arc::clone(&self.tt),
            threads: self.options.threads,
            classic: self.options.classic,
            ponder: limits.ponder,
            infinite: limits.infinite,
        };
        let report = UciReport {
            out: self.out.clone(),
            root: self.board.clone(),
            show_wdl: self.options.show_wdl,
        };
        if let Err(e) = self.pool.start(job, report) {
            self.out
                .error(&format!("cannot start the search thread: {e}"));
            self.out.line("bestmove (none)");
        }
    }

    /// The engine's limits for a `go`: clock, depth, nodes, mate, the
    /// root moves, the number of lines and the playing strength.
    fn search_limits(&mut self, limits: &GoLimits) -> SearchLimits {
        let side = self.board.side_to_move();
        let mut search_limits = SearchLimits {
            time: plan(limits, side, self.options.move_overhead),
            searchmoves: self.searchmoves(&limits.searchmoves),
            multipv: self.options.multipv,
            report_currmove: true,
            ..SearchLimits::default()
        };
        if let Some(d) = limits.depth {
            search_limits.max_depth = d.clamp(1, MAX_DEPTH as i64) as i32;
        }
        if let Some(n) = limits.nodes {
            search_limits.max_nodes = n.max(1);
        }
        if let Some(m) = limits.mate {
            let m = m.clamp(1, MAX_DEPTH as i64 / 2) as i32;
            search_limits.mate = Some(m);
            if limits.depth.is_none() {
                search_limits.max_depth = (2 * m + 1).min(MAX_DEPTH);
            }
        }
        search_limits.skill = self.skill();
        search_limits.tb = self.tb_config();
        // The network is the modern search's; Classic keeps its own
        // evaluation.
        if !self.options.classic {
            search_limits.network = self.search_network();
        }
        search_limits
    }

    /// The `searchmoves` that are legal here; the others are reported and
    /// left out.
    fn searchmoves(&self, texts: &[String]) -> Vec<Move> {
        let mut moves = Vec::new();
        for text in texts {
            match parse_uci(&self.board, text) {
                Ok(mv) => moves.push(mv),
                Err(e) => self.out.error(&format!("searchmoves: {e}; ignored")),
            }
        }
        moves
    }

    /// The strength set by `UCI_LimitStrength` and `UCI_Elo`, or by
    /// `Skill Level`; `None` at full strength.
    fn skill(&mut self) -> Option<Skill> {
        let level = if self.options.limit_strength {
            skill_for_elo(self.options.elo)
        } else {
            self.options.skill_level as i32
        };
        (level < MAX_SKILL).then(|| Skill {
            level,
            seed: self.rng.next_u64(),
        })
    }

    /// Answers `go` from the book when the book knows the position and
    /// the `go` is for a game move: not under `UCI_AnalyseMode` or MultiPV
    /// above 1, and not a `go` that asks for analysis or pondering.
    fn play_book_move(&mut self, limits: &GoLimits) -> bool {
        let analysing = self.options.analyse_mode
            || self.options.multipv > 1
            || limits.infinite
            || limits.ponder
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty();
        if !self.options.own_book || analysing {
            return false;
        }
        let mv = match &self.book {
            Some(book) => book.pick(&self.board, &mut self.rng),
            None => pick_weighted(&EMBEDDED.moves(&self.board), &mut self.rng),
        };
        // Book moves are checked legal when looked up; check once more
        // before they leave the engine.
        match mv.filter(|&m| self.board.is_legal(m)) {
            Some(m) => {
                let text = to_uci(&self.board, m);
                self.out.line(&format!("info string book move {text}"));
                self.out.line(&format!("bestmove {text}"));
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_words_parse() {
        let args = "wtime 1000 btime 2.5 nodes 0 searchmoves e2e4 d2d4 depth x ponder bogus mate"
            .split_whitespace()
            .collect::<Vec<_>>();
        let (l, errors) = parse_go(&args);
        assert_eq!((l.wtime, l.btime, l.nodes), (Some(1000), Some(2), Some(1)));
        assert_eq!(l.searchmoves, ["e2e4", "d2d4"]);
        assert!(l.ponder && l.depth.is_none());
        assert_eq!(
            errors,
            [
                "go depth: \"x\" is not a number; ignored",
                "go: unknown word \"bogus\" ignored",
                "go mate needs a number",
            ]
        );
    }
}
