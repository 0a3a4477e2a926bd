//! `cavalier syzygy PATH [FILE]`: probes each FEN of FILE (or stdin) in
//! the tables of PATH and prints `FEN;WDL;DTZ` (`-` where a table is
//! missing); the probes per second go to stderr. Blank lines and `#`
//! comments are skipped; a line that is not a FEN is reported and makes the
//! exit code 2, the other lines still probed. A folder or file of PATH that
//! cannot be used is reported and makes the exit code 2 too, the tables
//! found still probed; no table found at all ends the command at once.

use crate::chess::board::Board;
use crate::engine::syzygy::Tablebases;
use crate::util::command_line::{say, EXIT_FAILED, EXIT_USAGE};
use std::io::BufRead;
use std::time::Instant;

const USAGE: &str = "usage: cavalier syzygy PATH [FILE]
Probes the FENs of FILE (or stdin), one a line, in the Syzygy tables of PATH
(folders separated by ':', ';' on Windows); prints FEN;WDL;DTZ.";

pub fn command(args: &[String]) -> i32 {
    if matches!(args.first().map(String::as_str), Some("-h" | "--help")) {
        say!("{USAGE}");
        return 0;
    }
    let Some(path) = args.first().filter(|p| !p.trim().is_empty()) else {
        eprintln!("{USAGE}");
        return EXIT_USAGE;
    };
    let (tb, errors) = Tablebases::open(path);
    for e in &errors {
        eprintln!("error: {e}");
    }
    if tb.file_count() == 0 {
        eprintln!("error: no tables found in {path}");
        return EXIT_USAGE;
    }
    let lines: Vec<String> = match args.get(1) {
        Some(f) => match std::fs::read_to_string(f) {
            Ok(t) => t.lines().map(str::to_string).collect(),
            Err(e) => {
                eprintln!("error: {f}: {e}");
                return EXIT_FAILED;
            }
        },
        None => std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect(),
    };
    let mut out = Vec::with_capacity(lines.len());
    let (mut probes, mut wdl_time, mut dtz_time) = (0u64, 0f64, 0f64);
    let mut bad_lines = 0;
    for (n, line) in lines.iter().enumerate() {
        let fen = line.split(';').next().unwrap_or("").trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        let mut board = match Board::from_fen(fen) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: line {}: {e}", n + 1);
                bad_lines += 1;
                continue;
            }
        };
        let t = Instant::now();
        let wdl = tb.probe_wdl(&mut board);
        wdl_time += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let dtz = tb.probe_dtz(&mut board);
        dtz_time += t.elapsed().as_secs_f64();
        probes += 1;
        let show = |v: Option<i32>| v.map_or("-".to_string(), |v| v.to_string());
        out.push(format!("{fen};{};{}", show(wdl), show(dtz)));
    }
    for l in out {
        say!("{l}");
    }
    eprintln!(
        "{} tables, {probes} positions: WDL {:.0} probes/s, DTZ {:.0} probes/s",
        tb.file_count(),
        probes as f64 / wdl_time.max(1e-9),
        probes as f64 / dtz_time.max(1e-9)
    );
    if bad_lines > 0 || !errors.is_empty() {
        EXIT_USAGE
    } else {
        0
    }
}
