//! Zobrist keys: one per piece and mailbox cell, per castling-rights set,
//! per en-passant file, and for the side to move. They are computed at
//! compile time from one fixed stream of the crate's random generator
//! (`util::rng::stream`), so that keys (and bench node counts) never change
//! between builds. The board keeps its keys up to date through
//! [`piece_key`], [`castling_key`], [`ep_key`] and [`side_key`].

use crate::chess::types::*;
use crate::util::rng::stream;

/// Every key, by piece list and cell, rights set, file and side.
struct Keys {
    piece: [[u64; CELLS]; 12],
    castling: [u64; 16],
    ep_file: [u64; 8],
    side: u64,
}

/// Seed of the Zobrist key stream.
const KEY_SEED: u64 = 0x00C0_FFEE_CAFE_F00D;
/// Draws the keys take: one per piece and cell, the four single castling
/// rights, the eight en-passant files and the side to move, in that order.
const KEY_DRAWS: usize = 12 * CELLS + 4 + 8 + 1;

const KEYS: Keys = {
    let draws: [u64; KEY_DRAWS] = stream(KEY_SEED);
    let mut next = 0;
    let mut piece = [[0u64; CELLS]; 12];
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < CELLS {
            piece[p][s] = draws[next];
            next += 1;
            s += 1;
        }
        p += 1;
    }
    let mut castling = [0u64; 16];
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        single[i] = draws[next];
        next += 1;
        i += 1;
    }
    // A rights set hashes as the xor of its single rights.
    let mut r = 0;
    while r < 16 {
        let mut b = 0;
        while b < 4 {
            if r & (1 << b) != 0 {
                castling[r] ^= single[b];
            }
            b += 1;
        }
        r += 1;
    }
    let mut ep_file = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        ep_file[f] = draws[next];
        next += 1;
        f += 1;
    }
    Keys {
        piece,
        castling,
        ep_file,
        side: draws[next],
    }
};

/// Makes the pawn key of "no pawns" non-zero.
pub(crate) const PAWN_KEY_SALT: u64 = 0x5041_574E_5F4B_4559;

/// Key of a piece on a square.
#[inline(always)]
pub fn piece_key(piece: Piece, s: Square) -> u64 {
    // The keys are kept by piece list: colour and kind in one look-up.
    KEYS.piece[list_index(piece)][s]
}

/// Key of a castling-rights set (the xor of its single rights).
#[inline(always)]
pub fn castling_key(rights: u8) -> u64 {
    KEYS.castling[rights as usize & 15]
}

/// Key of an en-passant target square (by its file).
#[inline(always)]
pub fn ep_key(s: Square) -> u64 {
    KEYS.ep_file[s.file()]
}

/// Key of Black to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.piece.iter().flatten().copied().collect();
        all.extend(KEYS.ep_file);
        all.push(KEYS.side);
        all.extend(&KEYS.castling[1..]);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
