//! The pawn structure: what the pawns alone decide (piece-square values,
//! isolated, backward, doubled and connected pawns, passed pawns, pawn
//! attacks), computed once per structure and cached per search thread.

use super::relative::{pst_index, rel_rank};
use super::slots as ix;
use super::trace::{NoTrace, Tracer};
use super::weights::*;
use crate::chess::bitboard::*;
use crate::chess::board::Board;
use crate::chess::types::*;

/// Pawn facts per colour and file (files padded by one on each side so
/// neighbours of a and h need no test).
#[derive(Clone, Copy)]
pub(super) struct PawnFiles {
    pub(super) count: [[u8; 10]; 2],
    /// Lowest and highest absolute rank of the colour's pawns per file
    /// (8 / -1 when none).
    lowest: [[i8; 10]; 2],
    highest: [[i8; 10]; 2],
}

impl PawnFiles {
    /// No pawns at all.
    const EMPTY: PawnFiles = PawnFiles {
        count: [[0; 10]; 2],
        lowest: [[8; 10]; 2],
        highest: [[-1; 10]; 2],
    };

    fn new(board: &Board) -> PawnFiles {
        let mut pf = PawnFiles::EMPTY;
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for s in board.piece_squares(color, PAWN) {
                let (f, r) = (s.file() + 1, s.rank() as i32);
                pf.count[c][f] += 1;
                pf.lowest[c][f] = pf.lowest[c][f].min(r as i8);
                pf.highest[c][f] = pf.highest[c][f].max(r as i8);
            }
        }
        pf
    }

    /// No enemy pawn ahead of (`file`+1 padded, `rank`) on this file or its
    /// neighbours, from `color`'s point of view.
    fn passed(&self, color: Color, padded_file: usize, rank: i32) -> bool {
        let them = color.flip().index();
        (padded_file - 1..=padded_file + 1).all(|f| match color {
            Color::White => self.highest[them][f] as i32 <= rank,
            Color::Black => self.lowest[them][f] as i32 >= rank,
        })
    }

    /// No enemy pawn on the neighbouring files can ever attack this square.
    pub(super) fn safe_from_pawns(&self, color: Color, padded_file: usize, rank: i32) -> bool {
        let them = color.flip().index();
        [padded_file - 1, padded_file + 1]
            .iter()
            .all(|&f| match color {
                Color::White => self.highest[them][f] as i32 <= rank,
                Color::Black => self.lowest[them][f] as i32 >= rank,
            })
    }
}

/// What the pawns alone decide, computed once per pawn structure.
#[derive(Clone, Copy)]
pub(super) struct PawnEntry {
    /// `Board::pawn_key` of the structure (0: an empty slot).
    key: u64,
    pub(super) files: PawnFiles,
    /// Pawn piece-square terms (advance, centre) per colour.
    pub(super) psq: [Score; 2],
    /// Isolated, backward and doubled pawns per colour.
    pub(super) structure: [Score; 2],
    /// The front-most passed pawns per colour.
    pub(super) passed: [Bitboard; 2],
    /// The pawns per colour.
    pub(super) pawns: [Bitboard; 2],
    /// The pawns per colour on the dark squares (0) and on the light ones
    /// (1), for the bishops.
    pub(super) on_shade: [[i32; 2]; 2],
    /// Squares attacked by a pawn of each colour, and by two.
    pub(super) pawn_attacks: [Bitboard; 2],
    pub(super) pawn_attacks_twice: [Bitboard; 2],
}

/// Entries in a [`PawnTable`] (a power of two).
const PAWN_TABLE_ENTRIES: usize = 4096;

/// A cache of pawn-structure evaluations, one per search thread. It only
/// saves work: the evaluation is the same with or without it.
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl PawnTable {
    pub fn new() -> PawnTable {
        let empty = PawnEntry {
            key: 0,
            files: PawnFiles::EMPTY,
            psq: [Score(0, 0); 2],
            structure: [Score(0, 0); 2],
            passed: [0; 2],
            pawns: [0; 2],
            on_shade: [[0; 2]; 2],
            pawn_attacks: [0; 2],
            pawn_attacks_twice: [0; 2],
        };
        PawnTable {
            entries: vec![empty; PAWN_TABLE_ENTRIES],
        }
    }

    /// The entry of `board`'s pawns, computed now if not cached.
    pub(super) fn get(&mut self, board: &Board) -> &PawnEntry {
        let key = board.pawn_key();
        let slot = &mut self.entries[key as usize & (PAWN_TABLE_ENTRIES - 1)];
        if slot.key != key {
            *slot = pawn_entry(board, &mut NoTrace, key);
        }
        slot
    }
}

/// The pawn-only terms of `board`, telling `tr` their weights.
pub(super) fn pawn_entry<T: Tracer>(board: &Board, tr: &mut T, key: u64) -> PawnEntry {
    let pf = PawnFiles::new(board);
    let mut psq = [Score(0, 0); 2];
    let mut structure = [Score(0, 0); 2];
    let mut passed = [0u64; 2];
    let mut pawns = [0u64; 2];
    let mut pawn_attacks_by = [0u64; 2];
    let mut pawn_attacks_twice = [0u64; 2];
    for color in [Color::White, Color::Black] {
        let c = color.index();
        let them = color.flip();
        for s in board.piece_squares(color, PAWN) {
            pawns[c] |= bit(s);
        }
        let (east, west) = pawn_attacks_each_way(pawns[c], color);
        pawn_attacks_by[c] = east | west;
        pawn_attacks_twice[c] = east & west;
        // Connected: a pawn beside it on the same rank, or one defending it.
        let own = pawns[c];
        let beside = ((own & !FILE_H) << 1) | ((own & !FILE_A) >> 1);
        for at in squares_of(own & (beside | pawn_attacks_by[c])) {
            let rr = rel_rank(color, at.cell());
            structure[c] += CONNECTED_PAWN[rr];
            tr.add(color, ix::CONNECTED_PAWN + rr, 1);
        }
        for s in board.piece_squares(color, PAWN) {
            let pfile = s.file() + 1;
            let at = pst_index(color, s);
            psq[c] += PAWN_PST[at];
            tr.add(color, ix::PAWN_PST + at, 1);
            if pf.count[c][pfile - 1] == 0 && pf.count[c][pfile + 1] == 0 {
                structure[c] += ISOLATED_PAWN;
                tr.add(color, ix::ISOLATED_PAWN, 1);
            } else {
                // Backward: no own pawn beside or behind on the neighbouring
                // files, and the square in front is guarded by an enemy pawn.
                let r = s.rank() as i32;
                let supported_later = match color {
                    Color::White => {
                        pf.lowest[c][pfile - 1] as i32 <= r || pf.lowest[c][pfile + 1] as i32 <= r
                    }
                    Color::Black => {
                        pf.highest[c][pfile - 1] as i32 >= r || pf.highest[c][pfile + 1] as i32 >= r
                    }
                };
                let front = s.offset(color.forward());
                if !supported_later && pawn_attacks(board, front, them) {
                    structure[c] += BACKWARD_PAWN;
                    tr.add(color, ix::BACKWARD_PAWN, 1);
                }
            }
            // Only the most advanced pawn of a doubled pair is passed.
            let front_most = match color {
                Color::White => pf.highest[c][pfile] as i32 == s.rank() as i32,
                Color::Black => pf.lowest[c][pfile] as i32 == s.rank() as i32,
            };
            if front_most && pf.passed(color, pfile, s.rank() as i32) {
                passed[c] |= bit(s);
            }
        }
        for pfile in 1..=8 {
            if pf.count[c][pfile] > 1 {
                let extra = pf.count[c][pfile] as i32 - 1;
                structure[c] += DOUBLED_PAWN * extra;
                tr.add(color, ix::DOUBLED_PAWN, extra);
            }
        }
    }
    let on_shade = pawns
        .map(|own| [DARK_SQUARES, LIGHT_SQUARES].map(|shade| (own & shade).count_ones() as i32));
    PawnEntry {
        key,
        files: pf,
        psq,
        structure,
        passed,
        pawns,
        on_shade,
        pawn_attacks: pawn_attacks_by,
        pawn_attacks_twice,
    }
}

/// True when `s` is attacked by a pawn of `by`.
#[inline(always)]
fn pawn_attacks(board: &Board, s: Square, by: Color) -> bool {
    let back = -by.forward();
    let pawn = by.piece(PAWN);
    board.at(s.offset(back + EAST)) == pawn || board.at(s.offset(back + WEST)) == pawn
}
