//! `cavalier epd`: EPD test suites, positions with `bm` (best move) and
//! `am` (avoid move) operations, each searched for a fixed time (or a
//! fixed number of nodes) with a fresh hash table.

use crate::chess::board::Board;
use crate::chess::notation::{parse_move, to_san, to_uci};
use crate::chess::types::Move;
use crate::engine::search::{SearchControl, SearchLimits, Searcher};
use crate::engine::time::TimePlan;
use crate::engine::tt::TranspositionTable;
use crate::util::command_line::{read_input, say, EXIT_USAGE};
use std::time::Duration;

/// The command line of `cavalier epd`.
const USAGE: &str = "usage: cavalier epd FILE [--movetime MS | --nodes N]
Searches each position of the EPD file FILE (bm/am operations) for MS
milliseconds (default 1000) or N nodes and counts the solved.";

/// Hash table per position (MB).
const EPD_HASH_MB: usize = 64;

/// One test position.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdEntry {
    pub board: Board,
    pub id: String,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
}

/// Parses one EPD line: four FEN fields, then `op args;` operations.
/// Blank lines and `#` comments give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<EpdEntry>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, char::is_whitespace).collect();
    if fields.len() < 4 {
        return Err("expected four FEN fields".to_string());
    }
    let board = Board::from_fen(&fields[..4].join(" ")).map_err(|e| e.to_string())?;
    let mut entry = EpdEntry {
        board,
        id: String::new(),
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for op in fields.get(4).unwrap_or(&"").split(';') {
        let mut words = op.split_whitespace();
        let Some(code) = words.next() else { continue };
        let args: Vec<&str> = words.collect();
        match code {
            "bm" | "am" => {
                for a in &args {
                    let mv = parse_move(&entry.board, a).map_err(|e| format!("{code}: {e}"))?;
                    if code == "bm" {
                        entry.best.push(mv);
                    } else {
                        entry.avoid.push(mv);
                    }
                }
            }
            "id" => entry.id = args.join(" ").trim_matches('"').to_string(),
            _ => {}
        }
    }
    if entry.best.is_empty() && entry.avoid.is_empty() {
        return Err("no bm or am operation".to_string());
    }
    Ok(Some(entry))
}

/// True when `mv` passes the entry's `bm` and `am` operations.
pub fn solves(entry: &EpdEntry, mv: Move) -> bool {
    (entry.best.is_empty() || entry.best.contains(&mv)) && !entry.avoid.contains(&mv)
}

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed time.
    Time(Duration),
    /// A fixed number of nodes: the same result on any machine and under
    /// any load.
    Nodes(u64),
}

/// Searches every entry within `budget`; `out` receives a line per
/// position and the summary. Returns (solved, total).
pub fn run(entries: &[EpdEntry], budget: Budget, out: &mut dyn FnMut(&str)) -> (usize, usize) {
    let mut solved = 0;
    for (i, e) in entries.iter().enumerate() {
        let mut board = e.board.clone();
        let tt = TranspositionTable::new(EPD_HASH_MB);
        let limits = match budget {
            // The whole time, as `go movetime` searches.
            Budget::Time(t) => SearchLimits {
                time: TimePlan {
                    soft: None,
                    hard: Some(t),
                },
                ..SearchLimits::default()
            },
            Budget::Nodes(n) => SearchLimits {
                max_nodes: n,
                ..SearchLimits::default()
            },
        };
        let ctl = SearchControl::new(false);
        let r = Searcher::new().think(&mut board, &limits, &ctl, &tt, &mut |_| {});
        let ok = !r.best.is_none() && solves(e, r.best);
        solved += ok as usize;
        let names = |ms: &[Move]| {
            ms.iter()
                .map(|&m| to_san(&e.board, m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let wanted = match (e.best.is_empty(), e.avoid.is_empty()) {
            (false, true) => format!("bm {}", names(&e.best)),
            (true, false) => format!("am {}", names(&e.avoid)),
            _ => format!("bm {} am {}", names(&e.best), names(&e.avoid)),
        };
        let played = if r.best.is_none() {
            "(none)".to_string()
        } else {
            format!(
                "{} ({})",
                to_san(&e.board, r.best),
                to_uci(&e.board, r.best)
            )
        };
        out(&format!(
            "{:>4} {:<12} {:<4} {:<16} {:<20} depth {:>2} score {:>6}",
            i + 1,
            if e.id.is_empty() { "-" } else { &e.id },
            if ok { "ok" } else { "FAIL" },
            played,
            wanted,
            r.depth,
            r.score
        ));
    }
    let per = match budget {
        Budget::Time(t) => format!("{} ms", t.as_millis()),
        Budget::Nodes(n) => format!("{n} nodes"),
    };
    out(&format!(
        "solved {solved} of {} ({per} per position)",
        entries.len()
    ));
    (solved, entries.len())
}

/// Default thinking time per EPD position (ms).
const EPD_DEFAULT_MS: u64 = 1000;

/// Runs an EPD suite named on the command line.
pub fn command(args: &[String]) -> i32 {
    let Some(path) = args.first() else {
        eprintln!("error: epd needs a file\n{USAGE}");
        return EXIT_USAGE;
    };
    let mut budget = Budget::Time(Duration::from_millis(EPD_DEFAULT_MS));
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match (a.as_str(), rest.next().map(|v| v.parse::<u64>())) {
            ("--movetime", Some(Ok(ms))) if (1..=3_600_000).contains(&ms) => {
                budget = Budget::Time(Duration::from_millis(ms))
            }
            ("--nodes", Some(Ok(n))) if (1..=1_000_000_000_000).contains(&n) => {
                budget = Budget::Nodes(n)
            }
            _ => {
                eprintln!(
                    "error: bad argument \"{}\" (expected --movetime MS or --nodes N)",
                    crate::util::text::quote(a)
                );
                return EXIT_USAGE;
            }
        }
    }
    let Some(text) = read_input(path) else {
        return EXIT_USAGE;
    };
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(e) => {
                eprintln!("error: {path} line {}: {e}", n + 1);
                return EXIT_USAGE;
            }
        }
    }
    run(&entries, budget, &mut |l| say!("{l}"));
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bm_am_and_id() {
        let e = parse_line(r#"6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "mate.1";"#)
            .unwrap()
            .unwrap();
        assert_eq!(e.id, "mate.1");
        assert_eq!(e.best.len(), 1);
        let e = parse_line("4k3/8/8/8/8/8/8/R3K3 w - - am Ra8+ Rb1;")
            .unwrap()
            .unwrap();
        assert_eq!(e.avoid.len(), 2);
        assert!(parse_line("# comment").unwrap().is_none());
        assert!(parse_line("4k3/8/8/8/8/8/8/R3K3 w - - bm Qh5;").is_err());
        assert!(parse_line("4k3/8/8/8/8/8/8/R3K3 w - - id \"x\";").is_err());
        assert!(parse_line("garbage").is_err());
    }

    #[test]
    fn finds_a_mate_and_a_won_queen() {
        let entries: Vec<EpdEntry> = [
            r#"6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "m1";"#,
            r#"4k3/8/8/3q4/8/8/8/3RK3 w - - bm Rxd5; id "q";"#,
        ]
        .iter()
        .map(|l| parse_line(l).unwrap().unwrap())
        .collect();
        let mut lines = Vec::new();
        let (solved, total) = run(
            &entries,
            Budget::Time(Duration::from_millis(100)),
            &mut |l| lines.push(l.to_string()),
        );
        assert_eq!((solved, total), (2, 2), "{lines:#?}");
        // A node budget gives the same lines on every run.
        let by_nodes = || {
            let mut lines = Vec::new();
            let counts = run(&entries, Budget::Nodes(20_000), &mut |l| {
                lines.push(l.to_string())
            });
            (counts, lines)
        };
        let (first, second) = (by_nodes(), by_nodes());
        assert_eq!(first.0, (2, 2), "{:#?}", first.1);
        assert_eq!(first, second);
        assert!(
            first.1[2].contains("20000 nodes per position"),
            "{:#?}",
            first.1
        );
    }
}
