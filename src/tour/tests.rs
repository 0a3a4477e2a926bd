//! Tests of the knight's tours: geometry, search, pruning soundness, magic
//! goals and the command line.

use super::cli::run;
use super::lines::{max_line_total, min_line_total};
use super::output::{group_digits, write_tour};
use super::search::Searcher;
use super::square::{cell_is_on_board, EMPTY, GUARD, KNIGHT_OFFSETS, MAILBOX_CELLS};
use super::*;
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// William Beverley's semi-magic tour (1848) as printed, rank 8 first.
/// Nothing about it is assumed: the tests check it move by move and sum
/// by sum.
const BEVERLEY: [[u8; BOARD_SIZE]; BOARD_SIZE] = [
    [1, 30, 47, 52, 5, 28, 43, 54],
    [48, 51, 2, 29, 44, 53, 6, 27],
    [31, 46, 49, 4, 25, 8, 55, 42],
    [50, 3, 32, 45, 56, 41, 26, 7],
    [33, 62, 15, 20, 9, 24, 39, 58],
    [16, 19, 34, 61, 40, 57, 10, 23],
    [63, 14, 17, 36, 21, 12, 59, 38],
    [18, 35, 64, 13, 60, 37, 22, 11],
];

/// The first quarter-magic tour this search finds from a8 (after about
/// 1.1 billion nodes), rank 8 first; it is also semi-magic.
const QUARTERS_FROM_A8: [[u8; BOARD_SIZE]; BOARD_SIZE] = [
    [1, 48, 31, 50, 9, 40, 63, 18],
    [30, 51, 8, 41, 62, 19, 38, 11],
    [47, 2, 49, 32, 39, 10, 17, 64],
    [52, 29, 42, 7, 20, 61, 12, 37],
    [3, 46, 25, 56, 33, 16, 21, 60],
    [28, 53, 6, 43, 24, 57, 36, 13],
    [45, 4, 55, 26, 15, 34, 59, 22],
    [54, 27, 44, 5, 58, 23, 14, 35],
];

/// A tour from a grid printed rank 8 first.
fn tour_from_printed(printed: &[[u8; BOARD_SIZE]; BOARD_SIZE]) -> Tour {
    let mut grid = *printed;
    grid.reverse();
    Tour::from_numbers(&grid).expect("the grid is a knight's tour")
}

fn known_magic_tours() -> Vec<Tour> {
    let mut tours = symmetric_tours(&beverley());
    tours.extend(symmetric_tours(&tour_from_printed(&QUARTERS_FROM_A8)));
    tours
}

fn beverley() -> Tour {
    tour_from_printed(&BEVERLEY)
}

fn square(name: &str) -> Square {
    name.parse().expect("test square names are valid")
}

/// Independent check of a tour, on file/rank coordinates only.
fn assert_valid_tour(path: &[Square], closed: bool) {
    assert_eq!(path.len(), SQUARE_COUNT);
    let distinct: HashSet<_> = path.iter().map(|s| (s.file(), s.rank())).collect();
    assert_eq!(distinct.len(), SQUARE_COUNT, "squares repeat in {path:?}");
    let knight = |a: Square, b: Square| {
        let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
        df * dr == 2
    };
    for pair in path.windows(2) {
        assert!(
            knight(pair[0], pair[1]),
            "{} to {} is not a knight's move",
            pair[0],
            pair[1]
        );
    }
    if closed {
        assert!(
            knight(path[SQUARE_COUNT - 1], path[0]),
            "tour is not closed"
        );
    }
}

/// The eight symmetries of the board applied to a tour, each also
/// reversed: every one is again a tour with the same line-sum properties.
fn symmetric_tours(tour: &Tour) -> Vec<Tour> {
    let mut tours = Vec::new();
    // Each symmetry: optionally swap file and rank, then optionally
    // mirror the file, then optionally mirror the rank.
    for symmetry in 0..8 {
        let (swap, mirror_file, mirror_rank) =
            (symmetry & 4 != 0, symmetry & 2 != 0, symmetry & 1 != 0);
        let map = |file: usize, rank: usize| {
            let (file, rank) = if swap { (rank, file) } else { (file, rank) };
            let flip = |x: usize, on: bool| if on { BOARD_SIZE - 1 - x } else { x };
            (flip(file, mirror_file), flip(rank, mirror_rank))
        };
        let mut path: Vec<Square> = tour
            .squares()
            .iter()
            .map(|s| {
                let (file, rank) = map(s.file(), s.rank());
                Square::new(file, rank).expect("symmetry keeps squares on the board")
            })
            .collect();
        tours.push(Tour::new(&path).expect("a symmetric image of a tour is a tour"));
        path.reverse();
        tours.push(Tour::new(&path).expect("a reversed tour is a tour"));
    }
    tours
}

/// Builds a searcher that has walked `prefix` with all pruning active;
/// `None` if some step was pruned.
fn walk<'a>(
    config: &SearchConfig,
    prefix: &[Square],
    on_tour: &'a mut dyn FnMut(&Tour) -> ControlFlow<()>,
    on_progress: &'a mut dyn FnMut(&Progress),
) -> Option<Searcher<'a>> {
    let config = SearchConfig {
        start: prefix[0],
        ..config.clone()
    };
    let mut searcher = Searcher::new(&config, on_tour, on_progress);
    prefix[1..]
        .iter()
        .all(|s| searcher.advance(s.cell()))
        .then_some(searcher)
}

/// All completions of `prefix` found by the pruned search.
fn completions(config: &SearchConfig, prefix: &[Square]) -> HashSet<Vec<Square>> {
    let mut found = HashSet::new();
    let mut on_tour = |tour: &Tour| {
        assert!(
            found.insert(tour.squares().to_vec()),
            "a tour was reported twice"
        );
        ControlFlow::Continue(())
    };
    let mut on_progress = |_: &Progress| {};
    let config = SearchConfig {
        max_tours: u64::MAX,
        ..config.clone()
    };
    if let Some(mut searcher) = walk(&config, prefix, &mut on_tour, &mut on_progress) {
        searcher.extend();
        assert_eq!(searcher.summary().stop, StopReason::Exhausted);
    }
    found
}

/// All completions of `prefix` by plain backtracking without pruning.
fn brute_completions(prefix: &[Square], closed: bool, goal: Goal) -> HashSet<Vec<Square>> {
    fn go(path: &mut Vec<Square>, closed: bool, goal: Goal, out: &mut HashSet<Vec<Square>>) {
        if path.len() == SQUARE_COUNT {
            let tour = Tour::new(path).expect("brute force builds tours");
            if (!closed || tour.is_closed()) && tour.satisfies(goal) {
                out.insert(path.clone());
            }
            return;
        }
        let head = path[path.len() - 1];
        for next in Square::all() {
            if head.is_knight_move_to(next) && !path.contains(&next) {
                path.push(next);
                go(path, closed, goal, out);
                path.pop();
            }
        }
    }
    let mut out = HashSet::new();
    go(&mut prefix.to_vec(), closed, goal, &mut out);
    out
}

#[test]
fn mailbox_layout() {
    assert_eq!(MAILBOX_CELLS, 120);
    assert_eq!(square("a1").cell(), 21);
    assert_eq!(square("h8").cell(), 98);
    let searcher_board = {
        let mut board = [GUARD; MAILBOX_CELLS];
        Square::all().for_each(|s| board[s.cell()] = EMPTY);
        board
    };
    for s in Square::all() {
        assert_eq!(Square::from_cell(s.cell()), s);
        for offset in KNIGHT_OFFSETS {
            // Every jump from the board lands inside the array; it lands
            // on an empty cell exactly when it is a real knight move.
            let target = s
                .cell()
                .checked_add_signed(offset)
                .expect("inside the mailbox");
            assert!(target < MAILBOX_CELLS);
            let on_board = searcher_board[target] == EMPTY;
            assert_eq!(on_board, cell_is_on_board(target));
            if on_board {
                assert!(s.is_knight_move_to(Square::from_cell(target)));
            }
        }
        assert_eq!(
            s.knight_moves().count(),
            Square::all().filter(|&t| s.is_knight_move_to(t)).count()
        );
    }
}

#[test]
fn square_names_round_trip() {
    for s in Square::all() {
        assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        assert_eq!(s.to_string().to_uppercase().parse::<Square>(), Ok(s));
    }
    assert_eq!(
        square(" e4\n"),
        Square::new(4, 3).expect("e4 is on the board")
    );
}

#[test]
fn bad_square_names_are_errors() {
    for bad in [
        "z9", "e", "", "   ", "i1", "a0", "a9", "e44", "4e", "é4", "e٤", "♞", "a1a", "--",
    ] {
        let error = bad.parse::<Square>().expect_err(bad);
        assert!(error.to_string().contains("invalid square"), "{error}");
    }
}

#[test]
fn warnsdorff_finds_a_tour_from_every_square() {
    for start in Square::all() {
        let (tours, summary) = find_tours(&SearchConfig::new(start));
        assert_eq!(tours.len(), 1, "no tour from {start}");
        assert_eq!(tours[0].start(), start);
        assert_valid_tour(tours[0].squares(), false);
        // Warnsdorff's rule barely needs to backtrack.
        assert!(
            summary.nodes < 1_000,
            "{start} took {} nodes",
            summary.nodes
        );
        assert_eq!(first_tour(start).as_ref(), Some(&tours[0]));
    }
}

#[test]
fn closed_tours_from_every_square() {
    for start in Square::all() {
        let config = SearchConfig {
            closed: true,
            max_tours: 2,
            ..SearchConfig::new(start)
        };
        let (tours, summary) = find_tours(&config);
        assert_eq!(summary.stop, StopReason::CountReached);
        assert_eq!(tours.len(), 2);
        assert_ne!(tours[0], tours[1]);
        for tour in &tours {
            assert_eq!(tour.start(), start);
            assert!(tour.is_closed());
            assert_valid_tour(tour.squares(), true);
        }
        assert!(
            summary.nodes < 10_000,
            "{start} took {} nodes",
            summary.nodes
        );
    }
}

#[test]
fn enumeration_yields_distinct_tours_deterministically() {
    for (name, closed) in [("a1", false), ("d5", false), ("b1", true)] {
        let config = SearchConfig {
            closed,
            max_tours: 300,
            ..SearchConfig::new(square(name))
        };
        let (tours, summary) = find_tours(&config);
        assert_eq!(tours.len(), 300);
        assert_eq!(summary.tours, 300);
        let distinct: HashSet<_> = tours.iter().collect();
        assert_eq!(distinct.len(), tours.len());
        tours
            .iter()
            .for_each(|t| assert_valid_tour(t.squares(), closed));
        assert_eq!(find_tours(&config).0, tours, "same input, same tours");
    }
}

#[test]
fn pruning_loses_no_completions() {
    // Compare against unpruned backtracking on the last squares of real
    // tours: same set, so the connectivity pruning is sound.
    let open = first_tour(square("c3")).expect("a tour from c3");
    let closed_config = SearchConfig {
        closed: true,
        ..SearchConfig::new(square("g2"))
    };
    let closed = find_tours(&closed_config).0.remove(0);
    for (tour, closed) in [(open, false), (closed, true)] {
        for free in [12, 16, 20] {
            let prefix = &tour.squares()[..SQUARE_COUNT - free];
            let config = SearchConfig {
                closed,
                ..SearchConfig::new(prefix[0])
            };
            let pruned = completions(&config, prefix);
            let brute = brute_completions(prefix, closed, Goal::Any);
            assert!(pruned.contains(tour.squares()));
            assert_eq!(pruned, brute, "{free} free squares, closed {closed}");
        }
    }
}

#[test]
fn validation_rejects_non_tours() {
    let tour = first_tour(square("a1")).expect("a tour from a1");
    let path = tour.squares();
    assert_eq!(Tour::new(&path[..63]), Err(TourError::WrongLength(63)));
    let mut repeated = path.to_vec();
    repeated[10] = repeated[8];
    assert_eq!(Tour::new(&repeated), Err(TourError::Repeated(repeated[8])));
    let mut swapped = path.to_vec();
    swapped.swap(10, 20);
    assert!(matches!(
        Tour::new(&swapped),
        Err(TourError::NotKnightMove(..))
    ));
    let mut grid = tour.numbers();
    grid[0][0] = 0;
    assert_eq!(Tour::from_numbers(&grid), Err(TourError::BadNumber(0)));
    grid[0][0] = grid[0][1];
    assert!(Tour::from_numbers(&grid).is_err());
    assert_eq!(Tour::from_numbers(&tour.numbers()).as_ref(), Ok(&tour));
}

#[test]
fn beverley_is_semi_magic_and_quarter_magic() {
    let tour = beverley();
    assert_valid_tour(tour.squares(), false);
    assert_eq!(tour.start(), square("a8"));
    assert!(!tour.is_closed());
    assert_eq!(tour.rank_sums(), [MAGIC_SUM; BOARD_SIZE]);
    assert_eq!(tour.file_sums(), [MAGIC_SUM; BOARD_SIZE]);
    // Check each quarter by hand, independently of the line indexing.
    for (rank0, file0) in [(0, 0), (0, 4), (4, 0), (4, 4)] {
        for i in 0..QUARTER_SIZE {
            let row: u32 = (0..QUARTER_SIZE)
                .map(|j| u32::from(BEVERLEY[rank0 + i][file0 + j]))
                .sum();
            let column: u32 = (0..QUARTER_SIZE)
                .map(|j| u32::from(BEVERLEY[rank0 + j][file0 + i]))
                .sum();
            assert_eq!((row, column), (QUARTER_SUM, QUARTER_SUM));
        }
    }
    assert!(tour.satisfies(Goal::SemiMagic));
    assert!(tour.satisfies(Goal::Quarters));
    assert_ne!(
        tour.diagonal_sums(),
        (MAGIC_SUM, MAGIC_SUM),
        "no 8x8 magic tour exists"
    );
    let plain = first_tour(square("a8")).expect("a tour from a8");
    assert!(!plain.satisfies(Goal::SemiMagic) && !plain.satisfies(Goal::Quarters));
    assert!(plain.satisfies(Goal::Any));
}

#[test]
fn line_bounds_match_brute_force() {
    // Small top so every subset can be listed; the formulas take `top`.
    const TOP: u32 = 16;
    const MAX_PER_PARITY: usize = 4;
    for base in 1..=TOP + 1 {
        let mut best: HashMap<(u32, u32), (u32, u32)> = HashMap::new();
        for mask in 0u32..1 << TOP {
            let numbers: Vec<u32> = (1..=TOP).filter(|n| mask & (1 << (n - 1)) != 0).collect();
            let spaced = numbers.windows(2).all(|w| w[1] - w[0] >= 2);
            if !spaced || numbers.iter().any(|&n| n < base) {
                continue;
            }
            let odd = numbers.iter().filter(|&&n| n % 2 == 1).count() as u32;
            let even = numbers.len() as u32 - odd;
            let total = numbers.iter().sum();
            let entry = best.entry((odd, even)).or_insert((total, total));
            *entry = (entry.0.min(total), entry.1.max(total));
        }
        for odd in 0..=MAX_PER_PARITY as u32 {
            for even in 0..=MAX_PER_PARITY as u32 {
                let brute = best.get(&(odd, even));
                assert_eq!(
                    min_line_total(base, odd, even, TOP),
                    brute.map(|b| b.0),
                    "{base} {odd} {even}"
                );
                if let Some(&(_, max)) = brute {
                    let bound = max_line_total(odd, even, TOP).expect("a bound exists");
                    assert!(bound >= max, "max bound unsound at {base} {odd} {even}");
                    if base == 1 {
                        assert_eq!(bound, max);
                    }
                }
            }
        }
    }
}

#[test]
fn consecutive_moves_never_share_a_line() {
    // The premise of the spacing in the line bounds.
    for a in Square::all() {
        for b in a.knight_moves() {
            assert!(a.rank() != b.rank() && a.file() != b.file());
        }
    }
}

#[test]
fn pruning_accepts_every_step_of_known_magic_tours() {
    // Beverley's tour and the one found from a8 under the eight board
    // symmetries and reversal: 32 numbered semi-magic and quarter-magic
    // tours, checked here. No step of any may be pruned.
    let images = known_magic_tours();
    assert_eq!(images.iter().collect::<HashSet<_>>().len(), 32);
    for tour in images {
        assert!(tour.satisfies(Goal::SemiMagic) && tour.satisfies(Goal::Quarters));
        for goal in [Goal::SemiMagic, Goal::Quarters] {
            let config = SearchConfig {
                goal,
                ..SearchConfig::new(tour.start())
            };
            let (mut on_tour, mut on_progress) =
                (|_: &Tour| ControlFlow::Continue(()), |_: &Progress| {});
            let walked = walk(&config, tour.squares(), &mut on_tour, &mut on_progress);
            assert!(
                walked.is_some(),
                "{goal:?} pruned a step of a magic tour from {}",
                tour.start()
            );
        }
    }
}

#[test]
fn pruning_rejects_a_non_magic_tour_early() {
    // A plain tour must be cut off, at the latest when a line is full.
    let tour = first_tour(square("a8")).expect("a tour from a8");
    let numbers = tour.numbers();
    let first_full_rank_at = (0..BOARD_SIZE)
        .filter(|&rank| numbers[rank].iter().map(|&n| u32::from(n)).sum::<u32>() != MAGIC_SUM)
        .map(|rank| numbers[rank].iter().copied().max().unwrap_or(0))
        .min()
        .expect("a plain tour has a wrong rank sum");
    let config = SearchConfig {
        goal: Goal::SemiMagic,
        ..SearchConfig::new(tour.start())
    };
    let (mut on_tour, mut on_progress) = (|_: &Tour| ControlFlow::Continue(()), |_: &Progress| {});
    let mut searcher = Searcher::new(&config, &mut on_tour, &mut on_progress);
    let accepted = tour.squares()[1..]
        .iter()
        .take_while(|s| searcher.advance(s.cell()))
        .count()
        + 1;
    assert!(
        accepted < usize::from(first_full_rank_at),
        "accepted {accepted} moves"
    );
}

#[test]
fn magic_search_completes_known_tours_and_loses_none() {
    for tour in known_magic_tours().into_iter().step_by(3) {
        for goal in [Goal::SemiMagic, Goal::Quarters] {
            let config = SearchConfig {
                goal,
                ..SearchConfig::new(tour.start())
            };
            // Deep enough to run fast in the pruned search, shallow enough
            // that the brute force still finishes.
            let prefix = &tour.squares()[..SQUARE_COUNT - 18];
            let pruned = completions(&config, prefix);
            assert!(pruned.contains(tour.squares()));
            assert_eq!(pruned, brute_completions(prefix, false, goal));
            for path in &pruned {
                assert!(Tour::new(path).is_ok_and(|t| t.satisfies(goal)));
            }
            // Much earlier, the full search must still find a magic tour.
            let found = completions(&config, &tour.squares()[..SQUARE_COUNT - 30]);
            assert!(found.contains(tour.squares()));
        }
    }
}

/// Slow (about 100 s in release mode): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn quarters_search_from_a8_finds_its_tour() {
    let config = SearchConfig {
        goal: Goal::Quarters,
        ..SearchConfig::new(square("a8"))
    };
    let (tours, _) = find_tours(&config);
    assert_eq!(tours, vec![tour_from_printed(&QUARTERS_FROM_A8)]);
    assert!(tours[0].satisfies(Goal::Quarters) && tours[0].satisfies(Goal::SemiMagic));
}

#[test]
fn magic_search_honours_time_limit() {
    let config = SearchConfig {
        goal: Goal::SemiMagic,
        // The clock is read every 4096 nodes: the limit leaves room for a
        // first reading before it even in a debug build on a loaded machine
        // (200 ms did not), and the interval is due by that reading.
        time_limit: Some(Duration::from_millis(1000)),
        progress_interval: Duration::from_millis(1),
        ..SearchConfig::new(square("d4"))
    };
    let mut reports = 0;
    let summary = search(&config, &mut |_| ControlFlow::Continue(()), &mut |_| {
        reports += 1
    });
    if summary.tours == 0 {
        assert_eq!(summary.stop, StopReason::TimeLimit);
        assert!(summary.elapsed < Duration::from_secs(5));
        assert!(reports >= 1);
    }
    assert!(summary.nodes > 0 && summary.deepest > 1);
}

fn run_cli(args: &[&str], input: Option<&str>) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut reader = input.map(|text| io::Cursor::new(text.as_bytes().to_vec()));
    let code = run(
        &args,
        reader.as_mut().map(|r| r as &mut dyn BufRead),
        &mut out,
        &mut err,
    );
    let text = |bytes| String::from_utf8(bytes).expect("output is UTF-8");
    (code, text(out), text(err))
}

/// Reads the boards back from the printed output.
fn printed_tours(output: &str) -> Vec<Tour> {
    let mut rows = Vec::new();
    for line in output.lines() {
        let cells: Vec<&str> = line.split(['│', '|']).collect();
        if cells.len() == 3 {
            let numbers: Vec<u8> = cells[1]
                .split_whitespace()
                .map(|n| n.parse().expect("a move number"))
                .collect();
            rows.push(<[u8; BOARD_SIZE]>::try_from(numbers).expect("eight numbers per rank"));
        }
    }
    rows.chunks(BOARD_SIZE)
        .map(|board| {
            let mut grid: [[u8; BOARD_SIZE]; BOARD_SIZE] = board.try_into().expect("eight ranks");
            grid.reverse();
            Tour::from_numbers(&grid).expect("every printed board is a tour")
        })
        .collect()
}

#[test]
fn cli_prints_valid_tours() {
    let (code, out, err) = run_cli(&["b2", "--count", "3"], None);
    assert_eq!(code, EXIT_OK, "{err}");
    let tours = printed_tours(&out);
    assert_eq!(tours.len(), 3);
    assert_eq!(tours.iter().collect::<HashSet<_>>().len(), 3);
    tours
        .iter()
        .for_each(|t| assert_eq!(t.start(), square("b2")));
    assert!(out.contains("Tour 3") && out.contains("Found 3 knight's tours from b2"));
    assert!(out.contains("      a   b   c   d   e   f   g   h"));

    let (code, out, _) = run_cli(&["--closed", "--count=2", "--ascii", "H8"], None);
    assert_eq!(code, EXIT_OK);
    assert!(out.is_ascii());
    let tours = printed_tours(&out);
    assert_eq!(tours.len(), 2);
    assert!(tours.iter().all(Tour::is_closed));
    assert!(out.contains("closed: "));
}

#[test]
fn cli_rejects_bad_input() {
    let cases: &[&[&str]] = &[
        &["z9"],
        &["e"],
        &[""],
        &["ñ3"],
        &["a1", "b2"],
        &["a1", "--count"],
        &["a1", "--count", "0"],
        &["a1", "--count", "-3"],
        &["a1", "--count", "lots"],
        &["a1", "--count", "99999999999999999999999"],
        &["a1", "--time-limit", "0"],
        &["a1", "--time-limit", "-1"],
        &["a1", "--time-limit", "NaN"],
        &["a1", "--time-limit", "inf"],
        &["a1", "--time-limit", "1e300"],
        &["a1", "--magic", "--quarters"],
        &["a1", "--closed=yes"],
        &["a1", "--fast"],
        &[],
    ];
    for args in cases {
        let (code, out, err) = run_cli(args, None);
        assert_eq!(code, EXIT_USAGE, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.starts_with("cavalier tour: "), "{args:?}: {err}");
    }
}

#[test]
fn cli_asks_again_for_a_bad_square() {
    let (code, out, err) = run_cli(&[], Some("z9\n\ne\nc6\n"));
    assert_eq!(code, EXIT_OK);
    assert_eq!(err.matches("Start square").count(), 4);
    assert_eq!(err.matches("please try again").count(), 3);
    assert_eq!(printed_tours(&out)[0].start(), square("c6"));
    let (code, _, err) = run_cli(&[], Some("x\n"));
    assert_eq!(code, EXIT_USAGE);
    assert!(err.contains("no start square"));
}

#[test]
fn cli_help() {
    let (code, out, _) = run_cli(&["--help"], None);
    assert_eq!(code, EXIT_OK);
    assert!(out.starts_with("usage: cavalier tour <square>"));
}

#[test]
fn cli_magic_reports_honestly() {
    let (code, out, _) = run_cli(&["a1", "--quarters", "--time-limit", "0.3"], None);
    match code {
        EXIT_NOT_FOUND => assert!(out.starts_with("No quarter-magic tour found from a1 in")),
        EXIT_OK => printed_tours(&out)
            .iter()
            .for_each(|t| assert!(t.satisfies(Goal::Quarters))),
        other => panic!("exit code {other}"),
    }
}

#[test]
fn printed_sums_are_checked() {
    let mut out = Vec::new();
    write_tour(&mut out, &beverley(), 1, Goal::Quarters, true).expect("writing to memory");
    let text = String::from_utf8(out).expect("UTF-8");
    assert!(text.contains("rank sums (8 down to 1): 260 260 260 260 260 260 260 260"));
    assert!(text.contains("quarter a5-d8: ranks 130 130 130 130, files 130 130 130 130"));
    assert!(text.contains("verified: every rank and file of each quarter sums to 130"));
    assert_eq!(printed_tours(&text), vec![beverley()]);
    assert_eq!(group_digits(1_234_567), "1,234,567");
    assert_eq!(group_digits(12), "12");
}
