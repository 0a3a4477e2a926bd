//! The network's file, and its incremental, refreshed, portable and AVX2
//! evaluations agreeing over random walks through games.

use super::output::output_portable;
use super::*;
use crate::chess::board::Board;
use crate::util::rng::Rng;

/// Positions with castling (Chess960's too), en passant and promotions.
const WALK_FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];
/// Chess960 starts whose castling moves the king onto or off a rook's
/// square, or not at all (Scharnagl numbers).
const WALK_960: [usize; 4] = [0, 1, 359, 959];
/// Deepest ply of a walk.
const WALK_PLIES: usize = 24;

/// A network of random weights: every first-layer value anywhere in
/// i16 (the sums wrap, and units fall on both sides of the clamp), output
/// weights anywhere within the bound.
fn random_network(hidden: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut short = |n: usize| (0..n).map(|_| rng.next_u64() as i16).collect::<Vec<i16>>();
    let w1 = short(INPUTS * hidden);
    let b1 = short(hidden);
    let w2 = short(2 * hidden)
        .into_iter()
        .map(|w| (w as i32 % (MAX_OUTPUT_WEIGHT + 1)) as i16)
        .collect();
    Network::new(hidden, 400, w1, b1, w2, 12_345).unwrap()
}

/// Walks at random down and up the move tree from `board` (moves, null
/// moves, take-backs, as a search does), evaluating at random plies with
/// lazily updated sums (portable and, when the CPU has it, AVX2) and
/// checking them against a refresh from the board. Returns the number of
/// evaluations compared.
fn walk(net: &Network, mut board: Board, seed: u64, steps: usize) -> usize {
    let mut rng = Rng::new(seed);
    let plies = WALK_PLIES + 1;
    let mut portable = Accumulators::new(net.hidden(), plies);
    let mut vector = Accumulators::new(net.hidden(), plies);
    portable.refresh(net, &board, 0);
    vector.refresh(net, &board, 0);
    let mut nulls: Vec<bool> = Vec::new();
    let mut compared = 0;
    for _ in 0..steps {
        let ply = nulls.len();
        let moves = board.legal_moves();
        let down = ply == 0 || (ply < WALK_PLIES && !rng.next_u64().is_multiple_of(3));
        if down && !moves.is_empty() {
            let null = !board.in_check() && rng.next_u64().is_multiple_of(10);
            let delta = if null {
                board.make_null();
                Delta::NONE
            } else {
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                let d = Delta::of(&board, mv);
                board.make(mv);
                d
            };
            portable.push(ply + 1, delta);
            vector.push(ply + 1, delta);
            nulls.push(null);
        } else if ply > 0 {
            if nulls.pop() == Some(true) {
                board.unmake_null();
            } else {
                board.unmake();
            }
        }
        if rng.next_u64().is_multiple_of(2) {
            let ply = nulls.len();
            let side = board.side_to_move();
            let expected = net.evaluate(&board);
            assert_eq!(
                portable.evaluate_portable(net, side, ply),
                expected,
                "{}",
                board.to_fen()
            );
            #[cfg(target_arch = "x86_64")]
            if super::output::has_avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                #[allow(unsafe_code)]
                let v = unsafe { vector.evaluate_avx2(net, side, ply) };
                assert_eq!(v, expected, "{}", board.to_fen());
            }
            assert_eq!(vector.evaluate(net, side, ply), expected);
            compared += 1;
        }
    }
    compared
}

fn walk_starts() -> Vec<Board> {
    let mut starts: Vec<Board> = WALK_FENS
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    starts.extend(WALK_960.iter().map(|&n| Board::chess960_start(n).unwrap()));
    starts
}

#[test]
fn incremental_refreshed_portable_and_avx2_agree() {
    let nets = [embedded().unwrap(), Arc::new(random_network(32, 7))];
    let mut compared = 0;
    for net in &nets {
        for (i, start) in walk_starts().into_iter().enumerate() {
            compared += walk(net, start, 1000 + i as u64, 600);
        }
    }
    assert!(compared > 4000, "{compared}");
}

/// The largest sums the output layer can meet (every unit at QA, every
/// weight at the bound, 1024 units) give the same score both ways.
#[test]
fn output_extremes_agree() {
    for w in [MAX_OUTPUT_WEIGHT, -MAX_OUTPUT_WEIGHT] {
        let h = MAX_HIDDEN;
        let net = Network::new(
            h,
            MAX_SCALE as i32,
            vec![0; INPUTS * h],
            vec![0; h],
            vec![w as i16; 2 * h],
            i32::MAX,
        )
        .unwrap();
        let units = vec![i16::MAX; h];
        let p = output_portable(&net, &units, &units);
        assert_eq!(p.abs(), crate::engine::score::MATE_BOUND - 1);
        #[cfg(target_arch = "x86_64")]
        if super::output::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            #[allow(unsafe_code)]
            let v = unsafe { super::output::output_avx2(&net, &units, &units) };
            assert_eq!(v, p);
        }
    }
}

#[test]
fn embedded_network_loads_and_scores_material() {
    let net = embedded().unwrap();
    assert_eq!(net.hidden(), 256);
    // A queen up is good for its side, from either side's view.
    let up = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let down = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    assert!(net.evaluate(&up) > 300, "{}", net.evaluate(&up));
    assert!(net.evaluate(&down) < -300, "{}", net.evaluate(&down));
}

/// The embedded network's bytes with `f` applied and the check redone.
fn rechecked(f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = include_bytes!("default.nnue").to_vec();
    f(&mut bytes);
    let body = bytes.len() - CHECK_BYTES;
    let check = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&check.to_le_bytes());
    bytes
}

#[test]
fn bad_files_are_errors() {
    let good = include_bytes!("default.nnue").to_vec();
    let hidden = Network::from_bytes(&good)
        .expect("the embedded network loads")
        .hidden();
    let err = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(err(&magic), NetworkError::BadMagic);
    assert_eq!(err(b"CAVNN"), NetworkError::BadMagic);
    assert_eq!(err(b""), NetworkError::BadMagic);
    for hidden in [0u32, 8, 100, 2048, u32::MAX] {
        let b = rechecked(|b| b[8..12].copy_from_slice(&hidden.to_le_bytes()));
        assert_eq!(err(&b), NetworkError::BadHidden(hidden));
    }
    let b = rechecked(|b| b[12..16].copy_from_slice(&0u32.to_le_bytes()));
    assert_eq!(err(&b), NetworkError::BadScale(0));
    // 64 units: a valid size, but not this file's.
    let b = rechecked(|b| b[8..12].copy_from_slice(&64u32.to_le_bytes()));
    assert!(
        matches!(err(&b), NetworkError::BadLength { .. }),
        "{}",
        err(&b)
    );
    assert!(matches!(
        err(&good[..good.len() - 1]),
        NetworkError::BadLength { .. }
    ));
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(err(&longer), NetworkError::BadLength { .. }));
    let mut damaged = good.clone();
    damaged[1000] ^= 1;
    assert_eq!(err(&damaged), NetworkError::Checksum);
    // The first output weight set beyond the bound.
    let w2_at = HEADER_BYTES + 2 * (INPUTS + 1) * hidden;
    let b = rechecked(|b| b[w2_at..w2_at + 2].copy_from_slice(&300i16.to_le_bytes()));
    assert_eq!(err(&b), NetworkError::OutputWeight(300));
    assert!(err(&b).to_string().contains("300"));
    assert!(matches!(
        Network::from_file("/no/such/file.nnue"),
        Err(NetworkError::Unreadable(_))
    ));
}

/// The feature mapping: White's view of a White piece is its own square;
/// Black's view mirrors the rank and swaps the colours.
#[test]
fn features_mirror_for_black() {
    use crate::chess::types::{Square, KING, PAWN};
    // A White pawn on e2 (12) and a Black king on e8 (60).
    assert_eq!(
        piece_features(PAWN, Square::from_coords(4, 1)),
        [12, 384 + 52]
    );
    assert_eq!(
        piece_features(-KING, Square::from_coords(4, 7)),
        [384 + 5 * 64 + 60, 5 * 64 + 4]
    );
}
