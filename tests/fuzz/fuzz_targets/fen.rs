//! FEN parser: any text either is refused with an error or gives a board
//! that is consistent, prints back to a FEN that parses to the same board,
//! and has a move generator that agrees with the make-and-look rule.
#![no_main]

use cavalier::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(board) = Board::from_fen(&text) else {
        return;
    };
    assert!(board.is_consistent(), "inconsistent board from {text:?}");
    assert_eq!(board.hash(), board.compute_hash(), "hash of {text:?}");
    let fen = board.to_fen();
    let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen:?} refused: {e}"));
    assert_eq!(again.to_fen(), fen, "round trip of {text:?}");
    assert_eq!(
        again.hash(),
        board.hash(),
        "hash after round trip of {text:?}"
    );

    // Every generated legal move leaves the mover's king safe, and
    // make/unmake restores the position exactly.
    let mut b = board.clone();
    for mv in board.legal_moves().iter().copied() {
        let before = b.to_fen();
        let mover = b.side_to_move();
        b.make(mv);
        assert!(
            !b.king_attacked(mover),
            "{fen}: {mv:?} leaves the king in check"
        );
        assert!(b.is_consistent(), "{fen}: after {mv:?}");
        assert_eq!(b.hash(), b.compute_hash(), "{fen}: hash after {mv:?}");
        b.unmake();
        assert_eq!(b.to_fen(), before, "{fen}: unmake of {mv:?}");
    }
    // Perft 2 must not panic on any accepted position.
    cavalier::chess::perft::perft(&mut b, 2);
});
