//! The bytes of the table files past their headers, read on demand: a
//! probe asks for the few bytes it needs (an index entry, block sizes, one
//! compressed block), which come from a bounded cache of 4 KiB pages of
//! the files, shared by every search thread; a page not cached is read
//! with one positioned read (`pread` on Unix, `ReadFile` at an offset on
//! Windows), so no file is ever read whole and memory stays within the
//! cache's size however large the tables are.
//!
//! The cache is set-associative: a page's file and number choose one set
//! of [`WAYS`] pages, each set behind its own lock, the least recently
//! used page of the set making room. Locks are held only to find a page
//! and copy a few bytes out, never during a read from the disk.
//!
//! A read that fails (the file removed or shortened since it was scanned)
//! is logged once per file and makes that probe find nothing.

use std::cell::RefCell;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Bytes of a cached page (the usual size of an operating system page).
pub const PAGE_BYTES: usize = 4096;
/// The cache's size when none is given: 16 MiB, some 4,000 pages. The
/// operating system's own file cache keeps more of the tables in memory
/// it can take back; this one only saves the system calls.
pub const DEFAULT_CACHE_BYTES: usize = 16 << 20;
/// Pages per set: enough that pages hot in several tables rarely evict
/// one another, few enough to search at each look-up.
pub const WAYS: usize = 8;

/// One table file as the cache reads it: opened on its first read, then
/// kept open.
pub struct FileHandle {
    /// The file's number in the cache's keys.
    id: u32,
    path: PathBuf,
    /// Length when scanned; pages end there.
    len: u64,
    file: OnceLock<File>,
    /// Whether a failed read has been logged.
    failed: AtomicBool,
}

impl FileHandle {
    pub fn new(id: u32, path: &Path, len: u64) -> FileHandle {
        FileHandle {
            id,
            path: path.to_path_buf(),
            len,
            file: OnceLock::new(),
            failed: AtomicBool::new(false),
        }
    }

    /// Logs the first failure only: a missing file would otherwise be
    /// reported at every probe of a search.
    fn fail<T>(&self, what: impl std::fmt::Display) -> Option<T> {
        if !self.failed.swap(true, Ordering::Relaxed) {
            log::error!("{}: {what}", self.path.display());
        }
        None
    }

    /// Reads page `page` (shorter at the end of the file).
    fn read_page(&self, page: u64) -> Option<Arc<[u8]>> {
        let start = page.checked_mul(PAGE_BYTES as u64)?;
        if start >= self.len {
            return None;
        }
        let len = (self.len - start).min(PAGE_BYTES as u64) as usize;
        let file = match self.file.get() {
            Some(f) => f,
            None => match File::open(&self.path) {
                // Another thread may have opened it meanwhile: either will do.
                Ok(f) => self.file.get_or_init(|| f),
                Err(e) => return self.fail(e),
            },
        };
        let mut buf = vec![0u8; len];
        if let Err(e) = read_exact_at(file, &mut buf, start) {
            return self.fail(format_args!("reading {len} bytes at {start}: {e}"));
        }
        Some(buf.into())
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, at) {
            Ok(0) => return Err(Error::from(ErrorKind::UnexpectedEof)),
            Ok(n) => {
                buf = &mut buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Elsewhere: a handle of its own for each read, so that threads sharing
/// the file never move one another's position.
#[cfg(not(any(unix, windows)))]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut own = file.try_clone()?;
    own.seek(SeekFrom::Start(at))?;
    own.read_exact(buf)
}

/// A cached page: its key (file, page number), the bytes and when it was
/// last used (the set's clock).
struct Way {
    key: (u32, u64),
    bytes: Arc<[u8]>,
    used: u64,
}

#[derive(Default)]
struct Set {
    ways: Vec<Way>,
    clock: u64,
}

impl Set {
    fn find(&mut self, key: (u32, u64)) -> Option<&Arc<[u8]>> {
        self.clock += 1;
        let clock = self.clock;
        let w = self.ways.iter_mut().find(|w| w.key == key)?;
        w.used = clock;
        Some(&w.bytes)
    }

    /// Puts a page in, in place of the least recently used when full.
    fn insert(&mut self, key: (u32, u64), bytes: Arc<[u8]>) {
        self.clock += 1;
        let way = Way {
            key,
            bytes,
            used: self.clock,
        };
        if self.ways.len() < WAYS {
            self.ways.push(way);
        } else if let Some(old) = self.ways.iter_mut().min_by_key(|w| w.used) {
            *old = way;
        }
    }
}

/// Pages of the table files, at most [`BlockCache::capacity_bytes`] of
/// them.
pub struct BlockCache {
    /// A power of two of them.
    sets: Box<[Mutex<Set>]>,
}

impl Default for BlockCache {
    fn default() -> Self {
        BlockCache::new(DEFAULT_CACHE_BYTES)
    }
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockCache({} bytes)", self.capacity_bytes())
    }
}

impl BlockCache {
    /// A cache of at most `bytes`, rounded down to a power of two of sets
    /// of [`WAYS`] pages (at least one set).
    pub fn new(bytes: usize) -> BlockCache {
        let sets = (bytes / (PAGE_BYTES * WAYS)).max(1);
        let sets = 1usize << sets.ilog2();
        BlockCache {
            sets: (0..sets).map(|_| Mutex::default()).collect(),
        }
    }

    /// Most bytes of file data held.
    pub fn capacity_bytes(&self) -> usize {
        self.sets.len() * WAYS * PAGE_BYTES
    }

    fn set_of(&self, key: (u32, u64)) -> &Mutex<Set> {
        // Fibonacci hashing of the page number, the file spreading tables.
        let h = (key.1 ^ (u64::from(key.0) << 40)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.sets[(h >> 32) as usize & (self.sets.len() - 1)]
    }

    /// Page `page` of `file`, read first if it is not cached; `None` if
    /// it cannot be read.
    pub fn page(&self, file: &FileHandle, page: u64) -> Option<Arc<[u8]>> {
        let key = (file.id, page);
        let set = self.set_of(key);
        // A poisoned lock (a panic elsewhere while holding it) still holds
        // sound pages.
        if let Some(bytes) = set.lock().unwrap_or_else(|e| e.into_inner()).find(key) {
            return Some(Arc::clone(bytes));
        }
        let bytes = file.read_page(page)?;
        let mut s = set.lock().unwrap_or_else(|e| e.into_inner());
        // Another thread may have read the same page meanwhile.
        if s.find(key).is_none() {
            s.insert(key, Arc::clone(&bytes));
        }
        Some(bytes)
    }

    /// Pages held now (for tests and measurements).
    pub fn pages(&self) -> usize {
        self.sets
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).ways.len())
            .sum()
    }
}

/// What a probe reads one table from: its header (kept in memory since
/// the folder was scanned) and the rest of the file through the cache,
/// the last page used kept at hand (a probe's reads mostly fall in one or
/// two pages).
pub struct Source<'a> {
    pub header: &'a [u8],
    file: &'a FileHandle,
    cache: &'a BlockCache,
    last: RefCell<Option<(u64, Arc<[u8]>)>>,
}

impl<'a> Source<'a> {
    pub fn new(header: &'a [u8], file: &'a FileHandle, cache: &'a BlockCache) -> Source<'a> {
        Source {
            header,
            file,
            cache,
            last: RefCell::new(None),
        }
    }

    /// Makes page `n` the one at hand.
    fn load(&self, n: u64) -> Option<()> {
        let mut last = self.last.borrow_mut();
        if last.as_ref().is_none_or(|(p, _)| *p != n) {
            *last = Some((n, self.cache.page(self.file, n)?));
        }
        Some(())
    }

    /// Runs `f` on the `len` bytes from offset `at` of the file: in place
    /// when they lie in one page, else copied together.
    pub fn with<R>(&self, at: usize, len: usize, f: impl FnOnce(&[u8]) -> Option<R>) -> Option<R> {
        let at = at as u64;
        let end = at.checked_add(len as u64)?;
        let page = at / PAGE_BYTES as u64;
        if end <= (page + 1) * PAGE_BYTES as u64 {
            self.load(page)?;
            let last = self.last.borrow();
            let (_, bytes) = last.as_ref()?;
            let off = (at % PAGE_BYTES as u64) as usize;
            return f(bytes.get(off..off + len)?);
        }
        let mut buf = vec![0u8; len];
        self.read(at, &mut buf)?;
        f(&buf)
    }

    /// Fills `buf` from offset `at`.
    fn read(&self, mut at: u64, buf: &mut [u8]) -> Option<()> {
        let mut done = 0;
        while done < buf.len() {
            let page = at / PAGE_BYTES as u64;
            let off = (at % PAGE_BYTES as u64) as usize;
            let n = (buf.len() - done).min(PAGE_BYTES - off);
            self.load(page)?;
            let last = self.last.borrow();
            let (_, bytes) = last.as_ref()?;
            buf[done..done + n].copy_from_slice(bytes.get(off..off + n)?);
            done += n;
            at += n as u64;
        }
        Some(())
    }

    /// `N` bytes from offset `at` of the file.
    pub fn bytes<const N: usize>(&self, at: usize) -> Option<[u8; N]> {
        let mut b = [0u8; N];
        self.read(at as u64, &mut b)?;
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `len` bytes, byte i being i mod 251.
    fn scratch_file(name: &str, len: usize) -> PathBuf {
        let p = std::env::temp_dir().join(format!("cavalier-cache-{name}-{}", std::process::id()));
        let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn reads_across_pages_and_stays_within_its_size() {
        let len = 40 * PAGE_BYTES + 100;
        let p = scratch_file("pages", len);
        let file = FileHandle::new(0, &p, len as u64);
        let cache = BlockCache::new(2 * WAYS * PAGE_BYTES);
        let src = Source::new(&[], &file, &cache);
        for at in [0, PAGE_BYTES - 10, 17 * PAGE_BYTES + 4000, len - 3000, 5] {
            let ok = src.with(at, 3000, |b| {
                Some(
                    b.iter()
                        .enumerate()
                        .all(|(i, &b)| b == ((at + i) % 251) as u8),
                )
            });
            assert_eq!(ok, Some(true), "at {at}");
        }
        for page in 0..41 {
            src.bytes::<1>(page * PAGE_BYTES);
        }
        assert!(cache.pages() <= 2 * WAYS);
        // Past the end: nothing, no panic.
        assert_eq!(src.bytes::<3>(len - 2), None);
        assert_eq!(src.bytes::<3>(usize::MAX - 1), None);
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_file_gone_gives_nothing() {
        let p = scratch_file("gone", 100);
        let file = FileHandle::new(0, &p, 5000);
        let cache = BlockCache::default();
        // Shorter than when scanned.
        assert_eq!(Source::new(&[], &file, &cache).bytes::<8>(96), None);
        std::fs::remove_file(&p).unwrap();
        let other = FileHandle::new(1, &p, 100);
        assert_eq!(Source::new(&[], &other, &cache).bytes::<8>(0), None);
    }
}
