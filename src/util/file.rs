//! Reading a whole file that a user names (a network, a book) with a
//! bound on its size: refused before a byte is read when it is not a
//! regular file (a FIFO would block, `/dev/zero` never ends) or larger
//! than the bound, and never read beyond the bound even when it grows
//! while being read or says a wrong size (as `/proc`'s files do).

use std::io::Read;
use std::path::Path;

/// The bytes of the regular file at `path`, or why not, in words that
/// follow the file's name in a message, all beginning `cannot be read: `
/// ("... it is a FIFO (named pipe), not a regular file", "... it has N
/// bytes, larger than M bytes"). At most `max` bytes are ever read: `max +
/// 1` through `take`, so that a file longer than it says is refused too.
/// The one bounded read of the program: networks (`EvalFile`, `--net`) and
/// books (`BookFile`, `book --file`).
pub fn read_bounded(path: impl AsRef<Path>, max: u64) -> Result<Vec<u8>, String> {
    let path = path.as_ref();
    let cannot = |e: std::io::Error| format!("cannot be read: {e}");
    let meta = regular_file(path)?;
    if meta.len() > max {
        return Err(format!(
            "cannot be read: it has {} bytes, larger than {max} bytes",
            meta.len()
        ));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "cannot be read: larger than {max} bytes (its size said {})",
            meta.len()
        ));
    }
    Ok(bytes)
}

/// The metadata of the regular file at `path`, or why it cannot be read
/// (`cannot be read: ...`): missing, or not a regular file (a folder, a
/// FIFO that would block on opening, a device), judged before it is
/// opened. For readers that stream a file instead of reading it whole.
pub fn regular_file(path: impl AsRef<Path>) -> Result<std::fs::Metadata, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "cannot be read: it is {}, not a regular file",
            kind_of(&meta)
        ));
    }
    Ok(meta)
}

/// What a file that is not a regular one is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "something else"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cavalier-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_file_within_the_bound_is_read_whole() {
        let path = scratch("small");
        std::fs::write(&path, b"twelve bytes").unwrap();
        assert_eq!(read_bounded(&path, 12).unwrap(), b"twelve bytes");
        assert_eq!(read_bounded(&path, 1000).unwrap(), b"twelve bytes");
        let err = read_bounded(&path, 11).unwrap_err();
        assert!(err.contains("12 bytes, larger than 11 bytes"), "{err}");
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_huge_sparse_file_is_refused_without_reading_it() {
        let path = scratch("sparse");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(1 << 36).unwrap();
        let start = std::time::Instant::now();
        let err = read_bounded(&path, 1 << 20).unwrap_err();
        assert!(err.contains(&(1u64 << 36).to_string()), "{err}");
        assert!(start.elapsed().as_secs() < 2);
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn missing_files_directories_and_devices_are_refused() {
        let err = read_bounded("/no/such/file", 100).unwrap_err();
        assert!(err.starts_with("cannot be read: "), "{err}");
        let err = read_bounded(std::env::temp_dir(), 100).unwrap_err();
        assert!(err.contains("a folder"), "{err}");
        #[cfg(unix)]
        {
            let err = read_bounded("/dev/zero", 100).unwrap_err();
            assert!(err.contains("a character device"), "{err}");
        }
    }

    /// A FIFO with no writer would block whoever opens it: it is refused
    /// before it is opened.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_opening_it() {
        let path = scratch("fifo");
        std::fs::remove_file(&path).ok();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo unavailable: not tested");
            return;
        }
        let err = read_bounded(&path, 100).unwrap_err();
        assert!(err.contains("a FIFO"), "{err}");
        std::fs::remove_file(&path).ok();
    }

    /// `/proc`'s files are regular files that say they are empty: the
    /// bound holds through `take`, whatever the length said.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_longer_than_it_says_is_cut_at_the_bound() {
        let path = "/proc/self/status";
        if std::fs::metadata(path).ok().map(|m| m.len()) != Some(0) {
            return;
        }
        let err = read_bounded(path, 10).unwrap_err();
        assert!(err.contains("larger than 10 bytes"), "{err}");
        assert!(read_bounded(path, 1 << 20).unwrap().len() > 10);
    }
}
