//! The network's file, read and written: the one place of its format. The
//! engine reads it (`EvalFile`, `--net`, the embedded network); the lab's
//! trainer writes it (`lab::net::quant` rounds its float network to a
//! [`Network`] and calls [`Network::to_bytes`]).
//!
//! Little-endian (docs/network.md):
//!
//! ```text
//! "CAVNNUE1"        8 bytes ("CAVNNUE2": with output buckets)
//! hidden            u32 (a multiple of 16, 16..=1024: `valid_hidden`)
//! scale             u32 (centipawns per output unit, 1..=10000)
//! buckets           u32, "CAVNNUE2" only (1..=8; "CAVNNUE1": 1 bucket)
//! w1                768 x hidden i16, one input's weights together (x QA)
//! b1                hidden i16 (x QA)
//! w2                buckets x 2 x hidden i16, bucket by bucket, the side to
//!                   move's first in each (x QB, within +-128)
//! b2                buckets x i32 (x QA x QB)
//! check             u64, FNV-1a of every byte before it
//! ```
//!
//! A network of one bucket is written as "CAVNNUE1", so that the files of
//! plain networks stay what they were.

use super::{valid_hidden, Network, NetworkError, INPUTS, MAX_BUCKETS, MAX_HIDDEN, MAX_SCALE};

/// The first 8 bytes of a file of one output bucket.
pub const MAGIC: &[u8; 8] = b"CAVNNUE1";
/// The first 8 bytes of a file with a bucket count.
pub const MAGIC_BUCKETED: &[u8; 8] = b"CAVNNUE2";
/// Bytes before the weights: magic, hidden, scale (and the bucket count
/// in a "CAVNNUE2" file: [`header_bytes`]).
pub const HEADER_BYTES: usize = 16;
/// Bytes of the checksum at the end.
pub const CHECK_BYTES: usize = 8;
/// Largest file read (`EvalFile`, `--net`): the largest network's size,
/// with room beyond it so that a file a little too long is told apart
/// (its length is wrong) from one far too long, which is refused unread.
pub const MAX_READ_BYTES: u64 = file_bytes(MAX_HIDDEN, MAX_BUCKETS) as u64 + 4096;

/// Bytes before the weights in a file of `buckets` output buckets, as
/// written ("CAVNNUE2" for more than one).
pub const fn header_bytes(buckets: usize) -> usize {
    header_of(buckets > 1)
}

/// Bytes before the weights: magic, hidden, scale, and in a "CAVNNUE2"
/// (`bucketed`) file the bucket count.
const fn header_of(bucketed: bool) -> usize {
    HEADER_BYTES + if bucketed { 4 } else { 0 }
}

/// The size of a network file of `hidden` units per view and `buckets`
/// output buckets, as written.
pub const fn file_bytes(hidden: usize, buckets: usize) -> usize {
    size(header_bytes(buckets), hidden, buckets)
}

/// The size of a file with a header of `header` bytes.
const fn size(header: usize, hidden: usize, buckets: usize) -> usize {
    header + 2 * (INPUTS + 1) * hidden + buckets * (2 * 2 * hidden + 4) + CHECK_BYTES
}

/// FNV-1a of `bytes`: the file's check.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads the little-endian u32 at `at` (the caller checked the length).
fn word(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

impl Network {
    /// Reads a network file's bytes, or says what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::BadMagic);
        }
        let bucketed = match &bytes[..MAGIC.len()] {
            m if m == MAGIC => false,
            m if m == MAGIC_BUCKETED => true,
            _ => return Err(NetworkError::BadMagic),
        };
        let hidden = word(bytes, 8);
        let scale = word(bytes, 12);
        let h = hidden as usize;
        // Checked before any size is computed from it.
        if !valid_hidden(h) {
            return Err(NetworkError::BadHidden(hidden));
        }
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(NetworkError::BadScale(scale));
        }
        let buckets = match bucketed {
            false => 1,
            // Too short for its header (a length, since the magic is right).
            true if bytes.len() < header_of(true) => {
                return Err(NetworkError::BadLength {
                    found: bytes.len(),
                    expected: header_of(true),
                })
            }
            true => word(bytes, HEADER_BYTES),
        };
        if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
            return Err(NetworkError::BadBuckets(buckets));
        }
        let b = buckets as usize;
        let header = header_of(bucketed);
        let expected = size(header, h, b);
        if bytes.len() != expected {
            return Err(NetworkError::BadLength {
                found: bytes.len(),
                expected,
            });
        }
        let body = expected - CHECK_BYTES;
        let mut check = [0u8; CHECK_BYTES];
        check.copy_from_slice(&bytes[body..]);
        if fnv1a(&bytes[..body]) != u64::from_le_bytes(check) {
            return Err(NetworkError::Checksum);
        }
        let biases = body - 4 * b;
        let mut values = bytes[header..biases]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let w1 = take(INPUTS * h);
        let b1 = take(h);
        let w2 = take(b * 2 * h);
        let b2 = (0..b).map(|i| word(bytes, biases + 4 * i) as i32).collect();
        Network::new(h, scale as i32, w1, b1, w2, b2)
    }

    /// Reads the network file at `path`: a regular file of at most
    /// [`MAX_READ_BYTES`], refused unread otherwise (a FIFO, a device, a
    /// huge file).
    pub fn from_file(path: &str) -> Result<Network, NetworkError> {
        let bytes =
            crate::util::read_bounded(path, MAX_READ_BYTES).map_err(NetworkError::Unreadable)?;
        Network::from_bytes(&bytes)
    }

    /// The network's file: "CAVNNUE1" for one output bucket,
    /// "CAVNNUE2" for more.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(file_bytes(self.hidden, buckets));
        out.extend_from_slice(if buckets == 1 { MAGIC } else { MAGIC_BUCKETED });
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.scale as u32).to_le_bytes());
        if buckets > 1 {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let check = fnv1a(&out);
        out.extend_from_slice(&check.to_le_bytes());
        debug_assert_eq!(out.len(), file_bytes(self.hidden, buckets));
        out
    }

    /// The check of the network's file (its last 8 bytes): a short name
    /// for the network (selfplay's progress file records it).
    pub fn file_check(&self) -> u64 {
        let bytes = self.to_bytes();
        let mut check = [0u8; CHECK_BYTES];
        check.copy_from_slice(&bytes[bytes.len() - CHECK_BYTES..]);
        u64::from_le_bytes(check)
    }
}
