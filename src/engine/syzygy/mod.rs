//! Syzygy endgame tablebases, read by a prober written here from the
//! published format: `.rtbw` files (win/draw/loss) and `.rtbz` files
//! (distance to the next capture or pawn move).
//!
//! - `index`: squares to table index (symmetries, piece and pawn orders);
//! - `pairs`: the compressed value stream and its decoder;
//! - `layout`: a file's header and sections;
//! - `table`: one file, checked when found, its header kept;
//! - `cache`: the rest of the files, read by pages on demand into a
//!   bounded cache shared by the search threads ([`DEFAULT_CACHE_BYTES`],
//!   or what [`Tablebases::open_with_cache`] is given: the UCI option
//!   `SyzygyCacheMB`), so tables of any size fit in that memory;
//! - `probe`: positions (captures, en passant, missing sides);
//! - `root`: which root moves keep the best outcome.
//!
//! Uses `chess` only. Never prints: problems found while scanning the
//! folders are returned as messages for the caller to show.

mod cache;
mod index;
mod layout;
mod pairs;
mod probe;
pub mod root;
mod table;

use crate::chess::board::Board;
use cache::BlockCache;
use layout::Material;
use std::collections::HashMap;
use std::path::Path;
use table::{board_key, TableFile};

pub use cache::{DEFAULT_CACHE_BYTES, PAGE_BYTES};

/// Separator of the folders in `SyzygyPath`, as Stockfish has it.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// The tables found in the folders of a `SyzygyPath`.
#[derive(Default)]
pub struct Tablebases {
    files: Vec<TableFile>,
    /// Material key (either colour order) to the WDL and DTZ files.
    wdl: HashMap<u64, usize>,
    dtz: HashMap<u64, usize>,
    max_pieces: usize,
    /// The pages of the files read so far.
    cache: BlockCache,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tablebases({} files, {} pieces, {:?})",
            self.files.len(),
            self.max_pieces,
            self.cache
        )
    }
}

impl Tablebases {
    /// Scans the folders of `path` (separated by [`PATH_SEPARATOR`]; empty
    /// or `<empty>` for none), reading each table's header only. Returns
    /// the tables and one message per folder or file that could not be
    /// used, naming it. The files are then read by pages into a cache of
    /// [`DEFAULT_CACHE_BYTES`].
    pub fn open(path: &str) -> (Tablebases, Vec<String>) {
        Tablebases::open_with_cache(path, DEFAULT_CACHE_BYTES)
    }

    /// [`Tablebases::open`] with a cache of about `cache_bytes` (at least
    /// a few pages).
    pub fn open_with_cache(path: &str, cache_bytes: usize) -> (Tablebases, Vec<String>) {
        let mut tb = Tablebases {
            cache: BlockCache::new(cache_bytes),
            ..Tablebases::default()
        };
        let mut errors = Vec::new();
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return (tb, errors);
        }
        for folder in path.split(PATH_SEPARATOR).filter(|f| !f.is_empty()) {
            match std::fs::read_dir(folder) {
                Ok(entries) => {
                    let mut paths: Vec<_> =
                        entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
                    paths.sort();
                    for p in paths {
                        if let Err(e) = tb.add_file(&p) {
                            errors.push(format!("{}: {e}", p.display()));
                        }
                    }
                }
                Err(e) => errors.push(format!("{folder}: {e}")),
            }
        }
        (tb, errors)
    }

    /// Adds one file if its name is a table's; other files are ignored.
    fn add_file(&mut self, p: &Path) -> Result<(), String> {
        let dtz = match p.extension().and_then(|e| e.to_str()) {
            Some("rtbw") => false,
            Some("rtbz") => true,
            _ => return Ok(()),
        };
        let Some(material) = p
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(Material::from_name)
        else {
            return Ok(());
        };
        let (key, mirrored) = (material.key(), material.mirrored_key());
        let pieces = material.count();
        let map = if dtz { &mut self.dtz } else { &mut self.wdl };
        if map.contains_key(&key) {
            return Ok(());
        }
        let id = u32::try_from(self.files.len()).map_err(|_| "too many tables".to_string())?;
        let file = TableFile::open(p, id, &material, dtz)?;
        map.insert(key, self.files.len());
        map.insert(mirrored, self.files.len());
        self.files.push(file);
        if !dtz {
            self.max_pieces = self.max_pieces.max(pieces);
        }
        Ok(())
    }

    /// Most pieces of any WDL table found (0 when none).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Number of table files found.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Bytes kept in memory for the tables' headers.
    pub fn header_bytes(&self) -> usize {
        self.files.iter().map(TableFile::header_bytes).sum()
    }

    /// Most bytes of file data the cache holds.
    pub fn cache_capacity(&self) -> usize {
        self.cache.capacity_bytes()
    }

    /// Bytes of file data the cache holds now.
    pub fn cache_used(&self) -> usize {
        self.cache.pages() * PAGE_BYTES
    }

    fn wdl_file(&self, board: &Board) -> Option<&TableFile> {
        self.wdl.get(&board_key(board)).map(|&i| &self.files[i])
    }

    fn dtz_file(&self, board: &Board) -> Option<&TableFile> {
        self.dtz.get(&board_key(board)).map(|&i| &self.files[i])
    }

    /// Whether `board` can be probed at all: no castling rights and few
    /// enough pieces for the tables found.
    pub fn covers(&self, board: &Board) -> bool {
        let n = board.piece_count(crate::chess::types::Color::White)
            + board.piece_count(crate::chess::types::Color::Black);
        board.castling_rights() == 0 && n as usize <= self.max_pieces
    }

    /// Win/draw/loss of the side to move, -2..=2, as if the fifty-move
    /// counter had just been reset; `None` without the tables needed.
    pub fn probe_wdl(&self, board: &mut Board) -> Option<i32> {
        if !self.covers(board) {
            return None;
        }
        probe::probe_wdl(self, board)
    }

    /// Signed plies to the next capture or pawn move with best play
    /// (beyond ±100 for results the fifty-move rule draws); `None` without
    /// the tables needed.
    pub fn probe_dtz(&self, board: &mut Board) -> Option<i32> {
        if !self.covers(board) {
            return None;
        }
        probe::probe_dtz(self, board)
    }
}

/// How the search uses the tables (the `Syzygy*` options).
#[derive(Clone, Debug)]
pub struct TbConfig {
    pub tables: std::sync::Arc<Tablebases>,
    /// Interior nodes are probed from this depth on...
    pub probe_depth: i32,
    /// ...with at most this many pieces.
    pub probe_limit: usize,
    /// Whether the fifty-move rule counts: off, cursed wins are wins.
    pub rule50: bool,
}

impl TbConfig {
    /// Most pieces probed: the limit, or fewer if the tables stop sooner.
    pub fn max_pieces(&self) -> usize {
        self.probe_limit.min(self.tables.max_pieces())
    }
}
