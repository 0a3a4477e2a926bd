//! Properties over random games: make/unmake restores everything, the
//! incremental hash equals a fresh one, the fast legality test agrees with
//! making the move and looking at the king, FEN and SAN round-trip.

use cavalier::chess::movegen::{GenKind, MoveList};
use cavalier::chess::notation::{parse_san, parse_uci, to_san, to_uci};
use cavalier::Board;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// Checks every property at one position.
fn check_position(board: &mut Board) {
    assert!(board.is_consistent(), "inconsistent: {}", board.to_fen());
    assert_eq!(board.hash(), board.compute_hash());

    let fen = board.to_fen();
    let reparsed = Board::from_fen(&fen).expect("own FEN parses");
    assert_eq!(reparsed.to_fen(), fen);
    assert_eq!(
        reparsed.hash(),
        board.hash(),
        "hash differs after FEN round trip: {fen}"
    );

    let legal = board.legal_moves();
    // The slow, obviously right rule: make each pseudo-legal move and see
    // whether the mover's king is attacked.
    let mut pseudo = MoveList::new();
    board.generate(GenKind::All, &mut pseudo);
    let mover = board.side_to_move();
    let mut slow = Vec::new();
    for &mv in &pseudo {
        let before = board.clone();
        board.make(mv);
        assert_eq!(
            board.hash(),
            board.compute_hash(),
            "hash drift after {mv:?} in {fen}"
        );
        if !board.king_attacked(mover) {
            slow.push(mv);
        }
        board.unmake();
        assert!(*board == before, "unmake of {mv:?} did not restore {fen}");
    }
    assert_eq!(legal.to_vec(), slow, "legality disagrees in {fen}");

    // The check test without making the move agrees with making it.
    for &mv in &legal {
        board.make(mv);
        let checks = board.in_check();
        board.unmake();
        assert_eq!(
            board.gives_check(mv),
            checks,
            "gives_check wrong for {mv:?} in {fen}"
        );
    }
    assert_eq!(board.count_legal(), legal.len());

    // Captures + quiets = all.
    let mut caps = MoveList::new();
    let mut quiets = MoveList::new();
    board.generate(GenKind::Captures, &mut caps);
    board.generate(GenKind::Quiets, &mut quiets);
    let mut split: Vec<_> = caps.iter().chain(quiets.iter()).map(|m| m.bits()).collect();
    let mut all: Vec<_> = pseudo.iter().map(|m| m.bits()).collect();
    split.sort_unstable();
    all.sort_unstable();
    assert_eq!(split, all, "capture/quiet split differs from all in {fen}");
    for mv in &caps {
        assert!(
            board.is_capture(*mv) || mv.promo() != 0,
            "{mv:?} is in the capture list of {fen}"
        );
    }

    for &mv in &legal {
        let san = to_san(board, mv);
        assert_eq!(parse_san(board, &san), Ok(mv), "SAN {san} in {fen}");
        let uci = to_uci(board, mv);
        assert_eq!(parse_uci(board, &uci), Ok(mv), "UCI {uci} in {fen}");
        assert!(board.is_legal(mv));
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Rng(0x5EED_CAFE_1234_5678);
    let mut positions = 0;
    for game in 0..60 {
        let mut board = Board::from_fen(STARTS[game % STARTS.len()]).unwrap();
        let start = board.clone();
        let mut played = 0;
        for _ in 0..160 {
            check_position(&mut board);
            positions += 1;
            let moves = board.legal_moves();
            if moves.is_empty() || board.halfmove_clock() >= 100 {
                break;
            }
            board.make(moves[rng.below(moves.len())]);
            played += 1;
        }
        // Unwinding the whole game gives back the start exactly.
        for _ in 0..played {
            board.unmake();
        }
        assert!(board == start, "game {game} did not unwind");
    }
    assert!(positions > 3000, "only {positions} positions visited");
}

#[test]
fn mirrored_positions_have_mirrored_move_counts() {
    let mut rng = Rng(42);
    for game in 0..20 {
        let mut board = Board::from_fen(STARTS[game % STARTS.len()]).unwrap();
        for _ in 0..80 {
            let mirrored = board.mirrored();
            assert!(mirrored.is_consistent());
            assert_eq!(board.legal_moves().len(), mirrored.legal_moves().len());
            assert_eq!(mirrored.mirrored().to_fen(), board.to_fen());
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn evaluation_is_colour_symmetric() {
    use cavalier::engine::eval::{evaluate, evaluate_lazy, material};
    let mut rng = Rng(0xE7A1_5EED);
    let mut checked = 0;
    for game in 0..40 {
        let mut board = Board::from_fen(STARTS[game % STARTS.len()]).unwrap();
        for _ in 0..100 {
            let mirrored = board.mirrored();
            let fen = board.to_fen();
            assert_eq!(evaluate(&board), evaluate(&mirrored), "{fen}");
            assert_eq!(material(&board), material(&mirrored), "{fen}");
            assert_eq!(
                evaluate_lazy(&board, -30, 30),
                evaluate_lazy(&mirrored, -30, 30),
                "{fen}"
            );
            checked += 1;
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 2000, "{checked}");
}
