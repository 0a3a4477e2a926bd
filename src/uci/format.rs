//! The lines a search sends to the GUI: `info` for each iteration (with
//! the optional win/draw/loss estimate) and `bestmove`.
//!
//! Imports `chess` notation and the engine's result types; the protocol
//! loop (`uci/mod.rs`) hands a [`UciReport`] to the engine's search pool.

use super::Output;
use crate::chess::board::Board;
use crate::chess::notation::to_uci;
use crate::chess::types::Move;
use crate::engine::classic::{uci_score, ClassicResult, HORIZON};
use crate::engine::score::mate_in;
use crate::engine::search::IterationInfo;
use crate::engine::threads::SearchReport;
use crate::engine::tt::Bound;
use crate::engine::wdl::{material, wdl};

/// One `info` line.
pub fn format_info(root: &Board, info: &IterationInfo, show_wdl: bool) -> String {
    if let Some((mv, number)) = info.currmove {
        return format!(
            "info depth {} currmove {} currmovenumber {number}",
            info.depth,
            to_uci(root, mv)
        );
    }
    let ms = info.time.as_millis().max(1) as u64;
    let nps = info.nodes * 1000 / ms;
    let score = match mate_in(info.score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", info.score),
    };
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let wdl = if show_wdl {
        let (w, d, l) = wdl(info.score, material(root));
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let pv: Vec<String> = info.pv.iter().map(|&m: &Move| to_uci(root, m)).collect();
    // Only once the tables have answered, so lines without tables keep
    // their old form.
    let tbhits = if info.tbhits > 0 {
        format!(" tbhits {}", info.tbhits)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {nps} hashfull {}{tbhits} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

/// The one `info` line of a Classic search; none when there is no move.
pub fn format_classic_info(root: &Board, r: &ClassicResult) -> Option<String> {
    (!r.best.is_none()).then(|| {
        format!(
            "info depth {} score {} nodes {} pv {}",
            HORIZON,
            uci_score(r.material),
            r.nodes,
            to_uci(root, r.best)
        )
    })
}

/// Sends a search's result. With no move (mated or stalemated at the
/// root) it sends Stockfish's lines.
pub fn send_bestmove(out: &Output, root: &Board, best: Move, ponder: Move) {
    if best.is_none() {
        let score = if root.in_check() { "mate 0" } else { "cp 0" };
        out.line(&format!("info depth 0 score {score}"));
        out.line("bestmove (none)");
    } else if ponder.is_none() {
        out.line(&format!("bestmove {}", to_uci(root, best)));
    } else {
        out.line(&format!(
            "bestmove {} ponder {}",
            to_uci(root, best),
            to_uci(root, ponder)
        ));
    }
}

/// Turns a search's reports into protocol lines.
pub struct UciReport {
    pub out: Output,
    /// The searched position, for move notation.
    pub root: Board,
    pub show_wdl: bool,
}

impl SearchReport for UciReport {
    fn iteration(&mut self, info: &IterationInfo) {
        self.out.line(&format_info(&self.root, info, self.show_wdl));
    }

    fn classic(&mut self, result: &ClassicResult) {
        if let Some(line) = format_classic_info(&self.root, result) {
            self.out.line(&line);
        }
    }

    fn finished(&mut self, best: Move, ponder: Move) {
        send_bestmove(&self.out, &self.root, best, ponder);
    }
}
