//! Move text (UCI and SAN, as typed at `position ... moves` and in `play`):
//! the first byte picks a position, the rest is words of move text. A word
//! either is refused or names a legal move that prints back to itself.
#![no_main]

use cavalier::chess::notation::{parse_move, parse_san, parse_uci, to_san, to_uci};
use cavalier::Board;
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut board = Board::from_fen(POSITIONS[pick as usize % POSITIONS.len()]).unwrap();
    let text = String::from_utf8_lossy(rest);
    for word in text.split_whitespace().take(64) {
        // The three parsers must each refuse or accept a legal move.
        for parsed in [
            parse_uci(&board, word),
            parse_san(&board, word),
            parse_move(&board, word),
        ] {
            if let Ok(mv) = parsed {
                assert!(board.is_legal(mv), "{word:?} gave an illegal move");
            }
        }
        let Ok(mv) = parse_move(&board, word) else {
            continue;
        };
        let uci = to_uci(&board, mv);
        let san = to_san(&board, mv);
        assert_eq!(
            parse_uci(&board, &uci).ok(),
            Some(mv),
            "{uci} does not read back"
        );
        assert_eq!(
            parse_san(&board, &san).ok(),
            Some(mv),
            "{san} does not read back"
        );
        board.make(mv);
        assert!(board.is_consistent());
    }
});
