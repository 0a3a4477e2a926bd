//! One table file: checked when the folder is scanned (length, magic,
//! header, sections within the file), its header kept in memory, the
//! rest read through the block cache as probes need it; then looked up
//! by position.

use super::cache::{BlockCache, FileHandle, Source};
use super::index::{encode_pawn, encode_piece, SQUARES, TB_PIECES};
use super::layout::{Layout, Material, FLAG_MAPPED, FLAG_WIDE};
use super::pairs::{u16_le, u8_at};
use crate::chess::board::Board;
use crate::chess::types::*;
use std::io::Read;
use std::path::Path;

/// Bytes read to parse a file's header when the folder is scanned: a
/// first read that holds the header of every generated table, then, if
/// the header is longer, a second one; a header longer still is refused.
const HEADER_READS: [u64; 2] = [1 << 16, 1 << 20];

/// A table file: its layout and header, and the file to read the rest from.
pub struct TableFile {
    layout: Layout,
    /// The file's bytes up to its first index table: piece orders, pair
    /// decoders' tables, DTZ value maps.
    header: Vec<u8>,
    file: FileHandle,
}

/// Reads enough of the start of the file to parse its layout; returns the
/// header bytes and the layout.
fn read_header(
    path: &Path,
    len: u64,
    material: &Material,
    dtz: bool,
) -> Result<(Vec<u8>, Layout), String> {
    let mut result = Err(String::new());
    for limit in HEADER_READS {
        let want = limit.min(len);
        let mut head = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(want).read_to_end(&mut head))
            .map_err(|e| e.to_string())?;
        result = match Layout::parse(&head, material, dtz) {
            Ok(l) if l.header_end <= head.len() => {
                head.truncate(l.header_end);
                head.shrink_to_fit();
                return Ok((head, l));
            }
            Ok(_) => Err(format!("header longer than {want} bytes")),
            Err(e) => Err(e),
        };
        if want == len {
            break;
        }
    }
    result
}

impl TableFile {
    /// Checks the file: its length (a multiple of 64 plus the 16-byte
    /// checksum), magic number, header and that every section lies in it.
    /// `id` names the file in the cache.
    pub fn open(path: &Path, id: u32, material: &Material, dtz: bool) -> Result<TableFile, String> {
        let len = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
        if len % 64 != 16 {
            return Err(format!("length {len} is not 64 n + 16 (truncated?)"));
        }
        let (header, layout) = read_header(path, len, material, dtz)?;
        if layout.end as u64 > len {
            return Err(format!("needs {} bytes, has {len} (truncated)", layout.end));
        }
        Ok(TableFile {
            layout,
            header,
            file: FileHandle::new(id, path, len),
        })
    }

    /// Bytes of the header kept in memory.
    pub fn header_bytes(&self) -> usize {
        self.header.len()
    }

    fn source<'a>(&'a self, cache: &'a BlockCache) -> Source<'a> {
        Source::new(&self.header, &self.file, cache)
    }

    /// The raw WDL value (-2..2) of `board`, captures not considered.
    pub fn wdl(&self, cache: &BlockCache, board: &Board) -> Option<i32> {
        let l = &self.layout;
        let (f, side, idx) = locate(l, board)?;
        let part = l.parts[f].get(side)?;
        let v = part.pairs.value(&self.source(cache), idx, true)?;
        // 0..=4 in a sound file.
        (v <= 4).then_some(v as i32 - 2)
    }

    /// The raw DTZ value of `board` whose WDL value is `wdl`; `Ok(None)`
    /// when this file does not store the side to move.
    pub fn dtz(&self, cache: &BlockCache, board: &Board, wdl: i32) -> Result<Option<i32>, ()> {
        let (l, b) = (&self.layout, &self.header);
        let (f, side, idx) = locate(l, board).ok_or(())?;
        let part = &l.parts[f][0];
        let flags = part.pairs.flags;
        if (flags & 1) as usize != side {
            return Ok(None);
        }
        let mut v = part
            .pairs
            .value(&self.source(cache), idx, false)
            .ok_or(())? as usize;
        if flags & FLAG_MAPPED != 0 {
            // Outcome order of the maps: win, loss, cursed win, blessed loss.
            let slot = [1, 3, 0, 2, 0][(wdl + 2) as usize];
            let m = l.maps[f][slot];
            v = if flags & FLAG_WIDE == 0 {
                u8_at(b, l.map_base + m + v).ok_or(())? as usize
            } else {
                u16_le(b, l.map_base + 2 * (m + v)).ok_or(())? as usize
            };
        }
        // Stored in moves unless the flag for this outcome says plies.
        let in_plies = [8, 0, 0, 0, 4][(wdl + 2) as usize];
        if flags & in_plies == 0 || wdl & 1 != 0 {
            v *= 2;
        }
        Ok(Some(v as i32))
    }
}

/// The part (pawn file, side) and index of `board` in a table.
fn locate(l: &Layout, board: &Board) -> Option<(usize, usize, u64)> {
    let key = board_key(board);
    let white = board.side_to_move() == Color::White;
    let symmetric = l.key == l.mirrored_key;
    // Swap colours (and ranks) when the board's white is the table's second side.
    let (cmirror, mirror, side) = if symmetric {
        if white {
            (0, 0, 0)
        } else {
            (8, 0x38, 0)
        }
    } else if key == l.key {
        (0, 0, usize::from(!white))
    } else if key == l.mirrored_key {
        (8, 0x38, usize::from(white))
    } else {
        return None;
    };
    let mut pos = [0usize; TB_PIECES];
    let n = l.num;
    match l.pawns {
        None => {
            let part = l.parts[0].get(if l.dtz { 0 } else { side })?;
            fill(board, &part.enc.pieces, &mut pos[..n], 0, cmirror, 0)?;
            let idx = encode_piece(&part.enc, &mut pos[..n])?;
            Some((0, side, idx))
        }
        Some((lead, other)) => {
            let first = &l.parts[0][0].enc.pieces;
            fill(board, &first[..lead], &mut pos[..lead], 0, cmirror, mirror)?;
            let f = SQUARES.pawn_file(&mut pos[..lead], lead);
            let part = l.parts[f].get(if l.dtz { 0 } else { side })?;
            fill(
                board,
                &part.enc.pieces,
                &mut pos[..n],
                lead,
                cmirror,
                mirror,
            )?;
            Some((f, side, encode_pawn(&part.enc, &mut pos[..n], lead, other)))
        }
    }
}

/// Fills `pos[from..]` with the squares of the pieces listed in `codes`
/// (from `from` on), colours swapped by `cmirror`, squares by `mirror`.
fn fill(
    board: &Board,
    codes: &[u8],
    pos: &mut [usize],
    from: usize,
    cmirror: u8,
    mirror: usize,
) -> Option<()> {
    let mut i = from;
    while i < pos.len() {
        let c = *codes.get(i)? ^ cmirror;
        let color = if c & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let kind =
            [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING][((c & 7) as usize).checked_sub(1)?.min(5)];
        let mut found: arrayvec::ArrayVec<usize, 10> = board
            .piece_squares(color, kind)
            .map(|s| s.sq64().index() ^ mirror)
            .collect();
        if found.is_empty() || i + found.len() > pos.len() {
            return None;
        }
        found.sort_unstable_by_key(|&s| s ^ mirror);
        pos[i..i + found.len()].copy_from_slice(&found);
        i += found.len();
    }
    Some(())
}

/// The material key of a position (White as side 0).
pub fn board_key(board: &Board) -> u64 {
    super::layout::material_key(|side, code| {
        let color = if side == 0 {
            Color::White
        } else {
            Color::Black
        };
        board.count(
            color,
            [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING][code as usize - 1],
        ) as usize
    })
}
