//! The network in integers, as the engine runs it, and its file.
//!
//! First-layer weights and biases are scaled by `QA` and rounded to i16,
//! output weights by `QB`, the output bias by `QA x QB` (i32). A view's
//! sums are i16; each unit is clamped to [0, QA] and squared; the output is
//! `(sum of v x v x w2) / QA + b2`, which is the float network's output
//! times `QA x QB`.
//!
//! File (little-endian):
//!
//! ```text
//! "CAVNNUE1"        8 bytes
//! hidden            u32 (a multiple of 16, 16..=1024)
//! scale             u32 (centipawns per output unit)
//! w1                768 x hidden i16, one input's weights together
//! b1                hidden i16
//! w2                2 x hidden i16, the side to move's first
//! b2                i32
//! check             u64, FNV-1a of every byte before it
//! ```

use super::network::{Params, INPUTS, SCALE};

pub const QA: i32 = 255;
pub const QB: i32 = 64;
const MAGIC: &[u8; 8] = b"CAVNNUE1";
const MAX_HIDDEN: usize = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet {
    pub hidden: usize,
    pub scale: i32,
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    pub w2: Vec<i16>,
    pub b2: i32,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl QuantNet {
    /// Rounds a trained network to integers.
    pub fn from_float(p: &Params) -> QuantNet {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        QuantNet {
            hidden: p.hidden,
            scale: SCALE as i32,
            w1: p.w1.iter().map(|&w| q(w, QA)).collect(),
            b1: p.b1.iter().map(|&b| q(b, QA)).collect(),
            w2: p.w2.iter().map(|&w| q(w, QB)).collect(),
            b2: (p.b2 * (QA * QB) as f32).round() as i32,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 2 * self.w1.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.scale as u32).to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let check = fnv1a(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Reads a network file, or says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNet, String> {
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err("not a cavalier network (bad magic)".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let hidden = word(8) as usize;
        let scale = word(12) as i32;
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
            return Err(format!("bad hidden size {hidden}"));
        }
        if !(1..=10_000).contains(&scale) {
            return Err(format!("bad scale {scale}"));
        }
        let shorts = (INPUTS + 1 + 2) * hidden;
        let expected = 16 + 2 * shorts + 4 + 8;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes where a network of {hidden} units has {expected}",
                bytes.len()
            ));
        }
        let body = expected - 8;
        let check = u64::from_le_bytes(bytes[body..].try_into().unwrap());
        if fnv1a(&bytes[..body]) != check {
            return Err("checksum mismatch (damaged file)".into());
        }
        let mut values = bytes[16..16 + 2 * shorts]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let w1 = take(INPUTS * hidden);
        let b1 = take(hidden);
        let w2 = take(2 * hidden);
        let b2 = i32::from_le_bytes(bytes[body - 4..body].try_into().unwrap());
        Ok(QuantNet {
            hidden,
            scale,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// A view's sums from scratch.
    pub fn refresh(&self, feats: &[usize], acc: &mut [i16]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &f in feats {
            let row = &self.w1[f * h..(f + 1) * h];
            acc.iter_mut()
                .zip(row)
                .for_each(|(a, &w)| *a = a.wrapping_add(w));
        }
    }

    /// The evaluation (centipawns, side to move's view) of the two views'
    /// sums, the side to move's first.
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let h = self.hidden;
        let sum = output_sum(us, &self.w2[..h]) + output_sum(them, &self.w2[h..]);
        (sum / QA as i64 + self.b2 as i64) as i32 * self.scale / (QA * QB)
    }
}

/// Sum over units of clamp(acc, 0, QA)^2 x w. (The engine will want a
/// vector version of this and of `refresh`; this is the reference.)
fn output_sum(acc: &[i16], w: &[i16]) -> i64 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let v = (a as i32).clamp(0, QA);
            (v * w as i32 * v) as i64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::network::{feature, Params};
    use super::*;

    fn random_net(hidden: usize) -> Params {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut p = Params::random(hidden, &mut next);
        for (i, b) in p.b1.iter_mut().enumerate() {
            *b = (i % 7) as f32 * 0.1;
        }
        p.w2.iter_mut().for_each(|w| *w *= 8.0);
        p.b2 = 0.05;
        p
    }

    fn position() -> (Vec<usize>, Vec<usize>) {
        let pieces = [
            (4u8, 0u8, 5u8),
            (60, 1, 5),
            (12, 0, 0),
            (52, 1, 0),
            (3, 0, 4),
            (57, 1, 1),
        ];
        let v = |view| {
            pieces
                .iter()
                .map(|&(s, c, k)| feature(view, s, c, k))
                .collect()
        };
        (v(0), v(1))
    }

    #[test]
    fn quantised_output_follows_the_float_one() {
        let p = random_net(32);
        let q = QuantNet::from_float(&p);
        let (us, them) = position();
        let float_cp = p.forward(&us, &them) * SCALE;
        let (mut a, mut b) = (vec![0; 32], vec![0; 32]);
        q.refresh(&us, &mut a);
        q.refresh(&them, &mut b);
        let cp = q.output(&a, &b);
        assert!((cp as f32 - float_cp).abs() < 3.0, "{cp} vs {float_cp}");
    }

    #[test]
    fn file_round_trip_and_damage() {
        let q = QuantNet::from_float(&random_net(16));
        let bytes = q.to_bytes();
        assert_eq!(QuantNet::from_bytes(&bytes).unwrap(), q);
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(QuantNet::from_bytes(&bad).unwrap_err().contains("checksum"));
        assert!(QuantNet::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(QuantNet::from_bytes(b"garbage").is_err());
    }
}
