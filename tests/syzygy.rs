//! Syzygy tablebases on real tables (tests/data/syzygy, made by the
//! public generator): cavalier's prober against python-chess's, whose
//! values `make_expected.py` wrote to `expected.txt`; damaged files; the
//! root filter converting a won ending under the fifty-move rule; the
//! options over UCI.

mod common;

use cavalier::chess::board::Outcome;
use cavalier::engine::search::{SearchControl, SearchLimits, Searcher};
use cavalier::engine::syzygy::{root, Tablebases, TbConfig};
use cavalier::engine::tt::TranspositionTable;
use cavalier::{Board, Color};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

fn tables() -> Tablebases {
    let (tb, errors) = Tablebases::open(DIR);
    assert!(errors.is_empty(), "{errors:?}");
    tb
}

/// One line of expected.txt: FEN;WDL;DTZ;ROOT.
struct Expected {
    fen: String,
    wdl: i32,
    dtz: i32,
    root: Option<i32>,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(Path::new(DIR).join("expected.txt")).unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            Expected {
                fen: f[0].to_string(),
                wdl: f[1].parse().unwrap(),
                dtz: f[2].parse().unwrap(),
                root: f[3].parse().ok(),
            }
        })
        .collect()
}

/// The table name of a position's material, stronger side first as the
/// files are named.
fn table_name(board: &Board) -> String {
    let side = |c: Color| -> String {
        let fen = board.to_fen();
        let placement = fen.split(' ').next().unwrap().to_string();
        let mut s = String::new();
        for p in ['K', 'Q', 'R', 'B', 'N', 'P'] {
            let want = if c == Color::White {
                p
            } else {
                p.to_ascii_lowercase()
            };
            s.extend(std::iter::repeat_n(p, placement.matches(want).count()));
        }
        s
    };
    let (w, b) = (side(Color::White), side(Color::Black));
    let a = format!("{w}v{b}");
    if Path::new(DIR).join(format!("{a}.rtbw")).exists() {
        a
    } else {
        format!("{b}v{w}")
    }
}

#[test]
fn wdl_and_dtz_equal_python_chess_on_every_committed_table() {
    let tb = tables();
    let mut per_table: HashMap<String, usize> = HashMap::new();
    let (mut ep, mut near_limit) = (0, 0);
    for e in expected() {
        let mut board = Board::from_fen(&e.fen).unwrap();
        assert_eq!(tb.probe_wdl(&mut board), Some(e.wdl), "WDL of {}", e.fen);
        assert_eq!(tb.probe_dtz(&mut board), Some(e.dtz), "DTZ of {}", e.fen);
        *per_table.entry(table_name(&board)).or_default() += 1;
        ep += usize::from(board.ep_square().is_some());
        near_limit += usize::from(board.halfmove_clock() >= 90);
    }
    let committed = std::fs::read_dir(DIR)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "rtbw")
        })
        .count();
    assert_eq!(per_table.len(), committed, "{per_table:?}");
    assert!(per_table.values().all(|&n| n >= 2000), "{per_table:?}");
    assert!(ep >= 100, "{ep} positions with en passant");
    assert!(near_limit >= 1000, "{near_limit} positions near the limit");
}

#[test]
fn root_outcome_under_the_fifty_move_rule_equals_python_chess() {
    let tb = tables();
    let (mut checked, mut cut) = (0, 0);
    for e in expected() {
        let Some(want) = e.root else { continue };
        let mut board = Board::from_fen(&e.fen).unwrap();
        let ranked = root::rank_moves(&tb, &mut board, true).unwrap();
        if ranked.iter().any(|r| r.cut_short) {
            cut += 1;
            continue;
        }
        let (best, kept) = root::keep_best(&ranked).unwrap();
        assert_eq!(best, want, "root outcome of {}", e.fen);
        assert!(!kept.is_empty());
        // Without the rule, cursed wins are wins and blessed losses losses.
        let free = root::rank_moves(&tb, &mut board, false).unwrap();
        assert_eq!(root::keep_best(&free).unwrap().0, 2 * want.signum());
        checked += 1;
    }
    assert!(checked >= 3000, "{checked} root positions");
    assert!(cut * 1000 <= checked, "{cut} cut short");
}

#[test]
fn a_cache_of_a_few_pages_gives_the_same_values_within_its_size() {
    // 64 KiB: two sets of pages for 2.7 MB of tables, so nearly every
    // probe evicts a page.
    let (tb, errors) = Tablebases::open_with_cache(DIR, 64 << 10);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(tb.cache_capacity() <= 64 << 10);
    // Headers (piece orders, symbol tables, DTZ maps): 182 KB of the
    // 2.7 MB of files, kept from the scan.
    assert!(
        tb.header_bytes() < 256 << 10,
        "{} header bytes",
        tb.header_bytes()
    );
    for e in expected().into_iter().step_by(7) {
        let mut board = Board::from_fen(&e.fen).unwrap();
        assert_eq!(tb.probe_wdl(&mut board), Some(e.wdl), "WDL of {}", e.fen);
        assert_eq!(tb.probe_dtz(&mut board), Some(e.dtz), "DTZ of {}", e.fen);
    }
    assert!(tb.cache_used() <= tb.cache_capacity());
}

#[test]
fn a_file_cut_or_removed_after_the_scan_gives_no_result() {
    let d = scratch("cut");
    for t in ["KQvK", "KRvK", "KQvKR"] {
        copy(&format!("{t}.rtbw"), &d);
        copy(&format!("{t}.rtbz"), &d);
    }
    let (tb, errors) = Tablebases::open_with_cache(&d.display().to_string(), 0);
    assert!(errors.is_empty(), "{errors:?}");
    let kqkr: Vec<Expected> = expected()
        .into_iter()
        .filter(|e| table_name(&Board::from_fen(&e.fen).unwrap()) == "KQvKR")
        .take(200)
        .collect();
    // Cut to its header: pages read before may still answer, others none.
    let w = std::fs::read(d.join("KQvKR.rtbw")).unwrap();
    std::fs::write(d.join("KQvKR.rtbw"), &w[..200]).unwrap();
    std::fs::remove_file(d.join("KQvKR.rtbz")).unwrap();
    let mut none = 0;
    for e in &kqkr {
        let mut b = Board::from_fen(&e.fen).unwrap();
        let w = tb.probe_wdl(&mut b);
        assert!(w.is_none() || w == Some(e.wdl), "{}", e.fen);
        none += usize::from(w.is_none());
        let z = tb.probe_dtz(&mut b);
        assert!(z.is_none() || z == Some(e.dtz), "{}", e.fen);
    }
    assert!(none > 100, "{none} of 200 without a result");
    // The tables left whole still answer.
    let mut kqk = Board::from_fen("8/8/8/8/8/3k4/8/1KQ5 w - - 0 1").unwrap();
    assert_eq!(tb.probe_dtz(&mut kqk), Some(9));
    let _ = std::fs::remove_dir_all(&d);
}

/// Probes per second with `threads` threads sharing one set of tables,
/// each probing every position (WDL and DTZ) from its own starting point.
fn probe_rate(tb: &Arc<Tablebases>, fens: &Arc<Vec<Board>>, threads: usize) -> f64 {
    let start = std::time::Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (tb, fens) = (Arc::clone(tb), Arc::clone(fens));
            std::thread::spawn(move || {
                let n = fens.len();
                for i in 0..n {
                    let mut b = fens[(i + t * n / threads) % n].clone();
                    assert!(tb.probe_wdl(&mut b).is_some());
                    assert!(tb.probe_dtz(&mut b).is_some());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    (threads * fens.len()) as f64 / start.elapsed().as_secs_f64()
}

/// How the shared cache scales: probes per second with 1, 2 and 4
/// threads, with the default cache and with one of 64 KiB (mostly
/// misses). `cargo test --release --test syzygy -- --ignored
/// --nocapture threads`.
#[test]
#[ignore]
fn threads_sharing_the_cache() {
    let fens: Arc<Vec<Board>> = Arc::new(
        expected()
            .iter()
            .map(|e| Board::from_fen(&e.fen).unwrap())
            .collect(),
    );
    for cache in [cavalier::engine::syzygy::DEFAULT_CACHE_BYTES, 64 << 10] {
        let tb = Arc::new(Tablebases::open_with_cache(DIR, cache).0);
        probe_rate(&tb, &fens, 1);
        for threads in [1, 2, 4] {
            let rate = probe_rate(&tb, &fens, threads);
            eprintln!("cache {cache} bytes, {threads} threads: {rate:.0} positions/s");
        }
    }
}

/// `root_boundary.txt`: won and lost positions whose clock puts the next
/// capture, pawn move or mate within two plies of the fifty-move
/// boundary, each `FEN;ROOT;SF;HOW`. ROOT is the outcome
/// `make_expected.py --boundary` found by playing the moves out on
/// python-chess's board (its clock, its `is_fifty_moves`), not by a rule
/// on DTZ values; SF is Stockfish 15.1's with the same tables
/// (`--annotate`); HOW says who vouches for ROOT: `sf` where Stockfish
/// agrees, `proof` where it does not and a search that uses DTZ only as
/// a lower bound found ROOT too, `play` where that search ran out of
/// nodes. Roots whose play-out cavalier cuts short (it says so) are left
/// out, and must be few.
#[test]
fn root_outcome_at_the_fifty_move_boundary_equals_play() {
    let tb = tables();
    let text = std::fs::read_to_string(Path::new(DIR).join("root_boundary.txt")).unwrap();
    let mut count: HashMap<i32, usize> = HashMap::new();
    let (mut wrong, mut cut, mut unproved) = (Vec::new(), 0, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split(';').collect();
        let [fen, want, sf, how] = f[..] else {
            panic!("{line}")
        };
        let (want, sf): (i32, i32) = (want.parse().unwrap(), sf.parse().unwrap());
        match how {
            "sf" => assert_eq!(sf, want, "{line}"),
            "proof" | "play" => assert_ne!(sf, want, "{line}"),
            _ => panic!("{line}"),
        }
        unproved += usize::from(how == "play");
        let mut board = Board::from_fen(fen).unwrap();
        let ranked = root::rank_moves(&tb, &mut board, true).unwrap();
        if ranked.iter().any(|r| r.cut_short) {
            cut += 1;
            continue;
        }
        let (best, _) = root::keep_best(&ranked).unwrap();
        if best != want {
            wrong.push(format!("{fen}: {best}, by play {want}, Stockfish {sf}"));
        }
        *count.entry(want).or_default() += 1;
    }
    assert!(wrong.is_empty(), "{} wrong: {wrong:#?}", wrong.len());
    assert!(cut * 20 <= text.lines().count(), "{cut} cut short");
    assert!(unproved <= 8, "{unproved} lines vouched for by Play alone");
    for outcome in [root::WIN, root::CURSED_WIN, root::BLESSED_LOSS, root::LOSS] {
        assert!(count.get(&outcome) >= Some(&50), "{count:?}");
    }
}

/// A fresh folder under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cavalier-syzygy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(table: &str, to: &Path) -> Vec<u8> {
    let bytes = std::fs::read(Path::new(DIR).join(table)).unwrap();
    std::fs::write(to.join(table), &bytes).unwrap();
    bytes
}

#[test]
fn damaged_files_are_named_and_left_out() {
    let d = scratch("damaged");
    for t in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw"] {
        copy(t, &d);
    }
    let good = std::fs::read(Path::new(DIR).join("KQvKR.rtbw")).unwrap();
    // Truncated (by a multiple of 64, so only the layout check sees it).
    std::fs::write(d.join("KQvKR.rtbw"), &good[..good.len() - 640]).unwrap();
    // The magic number of the other kind.
    let mut z = std::fs::read(Path::new(DIR).join("KRvKR.rtbz")).unwrap();
    z[..4].copy_from_slice(&[0x71, 0xe8, 0x23, 0x5d]);
    std::fs::write(d.join("KRvKR.rtbz"), &z).unwrap();
    // Right magic and length, header garbage.
    let mut junk = vec![0xa5u8; 64 * 40 + 16];
    junk[..4].copy_from_slice(&[0x71, 0xe8, 0x23, 0x5d]);
    std::fs::write(d.join("KBvKB.rtbw"), &junk).unwrap();
    std::fs::write(d.join("KNvKN.rtbw"), b"").unwrap();
    let missing = d.join("no-such-folder");
    let path = format!("{}:{}", d.display(), missing.display());
    let (tb, errors) = Tablebases::open(&path);
    for bad in [
        "KQvKR.rtbw",
        "KRvKR.rtbz",
        "KBvKB.rtbw",
        "KNvKN.rtbw",
        "no-such-folder",
    ] {
        assert!(
            errors.iter().any(|e| e.contains(bad)),
            "no error for {bad}: {errors:?}"
        );
    }
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert_eq!(tb.file_count(), 3);
    let mut kqk = Board::from_fen("8/8/8/8/8/3k4/8/1KQ5 w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&mut kqk), Some(2));
    assert_eq!(tb.probe_dtz(&mut kqk), Some(9));
    let mut kqkr = Board::from_fen("8/8/8/3r4/8/3k4/8/1KQ5 w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&mut kqkr), None);
    let _ = std::fs::remove_dir_all(&d);
}

/// A small deterministic generator for the corruption test.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn corrupted_bytes_never_panic() {
    let positions: Vec<String> = expected()
        .into_iter()
        .map(|e| e.fen)
        .filter(|f| {
            let b = Board::from_fen(f).unwrap();
            table_name(&b) == "KQvKR"
        })
        .take(300)
        .collect();
    let mut state = 19u64;
    for round in 0..12 {
        let d = scratch(&format!("corrupt{round}"));
        for t in ["KQvK", "KRvK"] {
            copy(&format!("{t}.rtbw"), &d);
            copy(&format!("{t}.rtbz"), &d);
        }
        for ext in ["rtbw", "rtbz"] {
            let name = format!("KQvKR.{ext}");
            let mut bytes = copy(&name, &d);
            // Early rounds hit the header, later ones anywhere.
            let span = if round < 6 { 400 } else { bytes.len() };
            for _ in 0..(1 + round * 3) {
                let at = next(&mut state) as usize % span;
                bytes[at] = next(&mut state) as u8;
            }
            std::fs::write(d.join(&name), &bytes).unwrap();
        }
        let (tb, _errors) = Tablebases::open(&d.display().to_string());
        for fen in &positions {
            let mut b = Board::from_fen(fen).unwrap();
            let w = tb.probe_wdl(&mut b);
            assert!(w.is_none_or(|w| (-2..=2).contains(&w)));
            let _ = tb.probe_dtz(&mut b);
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// Plays a position out, both sides searching `nodes` nodes a move, with
/// the tables or without; returns how the game ended and after how many
/// plies.
fn play_out(fen: &str, nodes: u64, with_tables: bool) -> (Option<Outcome>, usize) {
    let cfg = with_tables.then(|| TbConfig {
        tables: Arc::new(tables()),
        probe_depth: 1,
        probe_limit: 7,
        rule50: true,
    });
    let limits = SearchLimits {
        max_nodes: nodes,
        tb: cfg,
        ..SearchLimits::default()
    };
    let tt = TranspositionTable::new(16);
    let mut searcher = Searcher::new();
    let mut board = Board::from_fen(fen).unwrap();
    for ply in 0..300 {
        if let Some(o) = board.outcome() {
            return (Some(o), ply);
        }
        let ctl = SearchControl::new(false);
        let r = searcher.think(&mut board, &limits, &ctl, &tt, &mut |_| {});
        board.make(r.best);
    }
    (None, 300)
}

/// The longest KBNvK win among the expected positions, White to move,
/// its counter set so the win holds with one ply to spare; and its DTZ.
fn longest_kbnvk_win() -> (String, i32) {
    let e = expected()
        .into_iter()
        .filter(|e| e.fen.contains(" w ") && e.wdl == 2 && e.dtz > 0)
        .filter(|e| table_name(&Board::from_fen(&e.fen).unwrap()) == "KBNvK")
        .max_by_key(|e| e.dtz)
        .unwrap();
    assert!(e.dtz >= 40, "{}", e.dtz);
    let mut fields: Vec<String> = e.fen.split(' ').map(str::to_string).collect();
    fields[4] = (99 - e.dtz).to_string();
    (fields.join(" "), e.dtz)
}

#[test]
fn a_won_ending_is_converted_within_the_fifty_move_rule() {
    let (fen, dtz) = longest_kbnvk_win();
    let (outcome, plies) = play_out(&fen, 3_000, true);
    assert_eq!(
        outcome,
        Some(Outcome::Checkmate(Color::White)),
        "{fen}: {plies} plies"
    );
    assert!(
        plies as i32 <= dtz + 1,
        "{fen}: mate after {plies} plies, DTZ {dtz}"
    );
}

/// The same ending, the same search, without the tables: the mate is too
/// far for the search to find within the counter left, and the game is
/// drawn by the fifty-move rule (what the tables are for).
#[test]
fn the_same_ending_without_tables_is_drawn_by_the_rule() {
    let (fen, _) = longest_kbnvk_win();
    let (outcome, plies) = play_out(&fen, 3_000, false);
    assert_eq!(outcome, Some(Outcome::FiftyMoves), "{fen}: {plies} plies");
}

/// Runs the engine binary on `input`, waiting up to 20 s for each of
/// `bestmoves` `bestmove` lines before quitting; returns its output.
fn uci_session(input: &[&str], bestmoves: usize) -> Vec<String> {
    let mut engine = common::Engine::start();
    for line in input {
        engine.send(line);
    }
    let mut out = Vec::new();
    for _ in 0..bestmoves {
        out.extend(engine.until("bestmove"));
    }
    engine.send("quit");
    engine.wait();
    out
}

#[test]
fn uci_options_report_errors_probe_and_answer_at_once() {
    let missing = format!("{DIR}/no-such-folder");
    let set = format!("setoption name SyzygyPath value {DIR}:{missing}");
    // KQvKR, White to move: a win whose DTZ-fastest moves the root keeps.
    let fen = "8/8/8/3r4/8/3k4/8/1KQ5 w - - 0 1";
    let tb = tables();
    let mut board = Board::from_fen(fen).unwrap();
    let (best, kept) = root::keep_best(&root::rank_moves(&tb, &mut board, true).unwrap()).unwrap();
    assert_eq!(best, root::WIN);
    let pos = format!("position fen {fen}");
    let cache = "setoption name SyzygyCacheMB value 1";
    let mut out = uci_session(&["uci", &set, cache, &pos, "go depth 8"], 1);
    out.extend(uci_session(&[&set, &pos, "go wtime 3000 btime 3000"], 1));
    let has = |p: &str| out.iter().any(|l| l.contains(p));
    assert!(has(&format!("info string error: {missing}")), "{out:?}");
    assert!(has(
        "option name SyzygyCacheMB type spin default 16 min 1 max 65536"
    ));
    // Found, and found again with the smaller cache.
    let found = "info string found 42 tablebase files, up to 4 pieces";
    assert_eq!(
        out.iter().filter(|l| l.contains(found)).count(),
        3,
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 8 ") && l.contains(" tbhits ")),
        "{out:?}"
    );
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(moves.len(), 2, "{out:?}");
    for m in moves {
        let mv = m.split(' ').nth(1).unwrap();
        assert!(
            kept.iter()
                .any(|&k| cavalier::chess::notation::to_uci(&board, k) == mv),
            "{m} not in {kept:?}"
        );
    }
    // The short clock is answered at once: a depth 1 line with no nodes.
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 1 ") && l.contains(" nodes 0 ")),
        "{out:?}"
    );
}

/// How long the root ranking takes, its play-out at the fifty-move
/// boundary included, over every root position of the expected files.
/// `cargo test --release --test syzygy -- --ignored --nocapture ranking`.
#[test]
#[ignore]
fn root_ranking_time() {
    let tb = tables();
    let boundary = std::fs::read_to_string(Path::new(DIR).join("root_boundary.txt")).unwrap();
    let fens: Vec<String> = expected()
        .into_iter()
        .filter(|e| e.root.is_some())
        .map(|e| e.fen)
        .chain(
            boundary
                .lines()
                .map(|l| l.split(';').next().unwrap().to_string()),
        )
        .collect();
    let mut ms: Vec<(f64, &String)> = fens
        .iter()
        .map(|fen| {
            let mut board = Board::from_fen(fen).unwrap();
            let t = std::time::Instant::now();
            root::rank_moves(&tb, &mut board, true).unwrap();
            (t.elapsed().as_secs_f64() * 1e3, fen)
        })
        .collect();
    ms.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: usize| ms[(ms.len() - 1) * q / 100].0;
    eprintln!(
        "{} roots: median {:.3} ms, 99th percentile {:.2} ms, most {:.2} ms ({})",
        ms.len(),
        at(50),
        at(99),
        at(100),
        ms[ms.len() - 1].1
    );
}

/// `cavalier syzygy` with a folder that is not there: an error naming it
/// and exit code 2, before any input is read; with one folder missing
/// among good ones, the tables found are probed and the exit code is 2.
#[test]
fn syzygy_subcommand_refuses_a_missing_folder() {
    let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1\n";
    let missing = format!("{DIR}/no-such-folder");
    let o = common::cavalier_with_input(&["syzygy", &missing], fen);
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(
        o.stderr.starts_with(&format!("error: {missing}: ")),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains(&format!("error: no tables found in {missing}")),
        "{}",
        o.stderr
    );
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    let both = format!("{DIR}:{missing}");
    let o = common::cavalier_with_input(&["syzygy", &both], fen);
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(
        o.stderr.starts_with(&format!("error: {missing}: ")),
        "{}",
        o.stderr
    );
    assert_eq!(o.stdout, "8/8/8/8/8/8/8/K1k5 w - - 0 1;0;0\n");
}
