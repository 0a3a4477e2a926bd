//! A trained network rounded to the engine's integers, and back.
//!
//! The integer network, its arithmetic and its file are the engine's
//! (`engine::nnue`; the file read and written by `engine::nnue::file`,
//! documented there and in docs/network.md): first-layer weights and
//! biases are scaled by `QA` and rounded to i16, output weights by `QB`
//! (kept within the engine's bound, which the trainer's weight clip
//! already keeps), the output biases by `QA x QB` (i32), every bucket's
//! alike. This file only rounds; `Network::to_bytes` writes the file.

use super::network::{FloatNetwork, SCALE};
use crate::engine::nnue::{Network, MAX_OUTPUT_WEIGHT, QA, QB};

/// Rounds a trained network to the engine's integers.
pub fn from_float(p: &FloatNetwork) -> Network {
    let q = |x: f32, s: i32, bound: f32| (x * s as f32).round().clamp(-bound, bound) as i16;
    let wide = i16::MAX as f32;
    let w2_bound = MAX_OUTPUT_WEIGHT as f32;
    let net = Network::new(
        p.hidden,
        SCALE as i32,
        p.w1.iter().map(|&w| q(w, QA, wide)).collect(),
        p.b1.iter().map(|&b| q(b, QA, wide)).collect(),
        p.w2.iter().map(|&w| q(w, QB, w2_bound)).collect(),
        p.b2.iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect(),
    );
    // The trainer's hidden sizes and bucket counts are the engine's
    // (checked when parsed), and every part has the size `FloatNetwork`
    // gives it.
    net.expect("a trained network has the engine's shape")
}

/// A network of the engine's back to floats (the inverse of `from_float`,
/// exact for what it rounded): the starting point of a run that carries
/// on from a network (`net train --init`). Refused when the network's
/// scale is not the trainer's.
pub fn to_float(net: &Network) -> Result<FloatNetwork, String> {
    if net.scale() != SCALE as i32 {
        return Err(format!(
            "the network's scale is {}, the trainer's {SCALE}",
            net.scale()
        ));
    }
    let f = |v: &[i16], s: i32| v.iter().map(|&x| x as f32 / s as f32).collect();
    Ok(FloatNetwork {
        hidden: net.hidden(),
        buckets: net.buckets(),
        w1: f(net.w1(), QA),
        b1: f(net.b1(), QA),
        w2: f(net.w2(), QB),
        b2: net
            .b2()
            .iter()
            .map(|&b| b as f32 / (QA * QB) as f32)
            .collect(),
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::network::{feature, FloatNetwork};
    use super::*;
    use crate::engine::nnue::INPUTS;

    fn random_net(hidden: usize) -> FloatNetwork {
        random_bucketed(hidden, 1)
    }

    /// Random weights, each bucket's output layer its own, and biases.
    fn random_bucketed(hidden: usize, buckets: usize) -> FloatNetwork {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut p = FloatNetwork::random(hidden, buckets, &mut next);
        for (i, b) in p.b1.iter_mut().enumerate() {
            *b = (i % 7) as f32 * 0.1;
        }
        p.w2.iter_mut().for_each(|w| *w *= 8.0);
        for (i, b) in p.b2.iter_mut().enumerate() {
            *b = 0.05 - 0.1 * i as f32;
        }
        p
    }

    /// The features (side to move's view first) of positions of 3 to 32
    /// pieces, which fall in different buckets.
    pub(in crate::lab::net) fn positions() -> Vec<(Vec<usize>, Vec<usize>)> {
        use crate::chess::board::Board;
        use crate::chess::types::Color;
        use crate::engine::nnue::board_features;
        [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "r1bq1rk1/pp3ppp/2n1pn2/3p4/3P4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
            "r1bq1rk1/pp3ppp/8/3p4/3P4/8/PP3PPP/R2QK2R w KQ - 0 9",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ]
        .iter()
        .map(|fen| {
            let board = Board::from_fen(fen).unwrap();
            let [white, black] = board_features(&board);
            match board.side_to_move() {
                Color::White => (white, black),
                Color::Black => (black, white),
            }
        })
        .collect()
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
        let q = from_float(&p);
        let (us, them) = position();
        let float_cp = p.forward(&us, &them) * SCALE;
        let cp = q.evaluate_features(&us, &them);
        assert!((cp as f32 - float_cp).abs() < 3.0, "{cp} vs {float_cp}");
    }

    /// Every bucket's output layer is rounded: the quantised network
    /// follows the float one on positions of every bucket, and its
    /// buckets score them differently.
    #[test]
    fn quantised_buckets_follow_the_float_ones() {
        let p = random_bucketed(32, 8);
        let q = from_float(&p);
        assert_eq!(q.buckets(), 8);
        let rounded = to_float(&q).unwrap();
        let mut scores = Vec::new();
        for (us, them) in positions() {
            let cp = q.evaluate_features(&us, &them);
            // Exact but for the integer divisions, from the rounded
            // weights; near the float network's (the rounding of up to
            // 32 pieces' first-layer weights adds up).
            let exact = rounded.forward(&us, &them) * SCALE;
            assert!((cp as f32 - exact).abs() < 2.0, "{cp} vs {exact}");
            let float_cp = p.forward(&us, &them) * SCALE;
            let within = 3.0 + 0.1 * float_cp.abs();
            assert!((cp as f32 - float_cp).abs() < within, "{cp} vs {float_cp}");
            scores.push(cp);
        }
        let q1 = from_float(&FloatNetwork {
            buckets: 1,
            w2: p.w2[..64].to_vec(),
            b2: p.b2[..1].to_vec(),
            ..p.clone()
        });
        let same = positions()
            .iter()
            .zip(&scores)
            .filter(|((us, them), &cp)| q1.evaluate_features(us, them) == cp)
            .count();
        // Only the positions of bucket 0 (the bare king) score alike.
        assert_eq!(same, 1);
        assert_eq!(rounded.buckets, 8);
        assert_eq!(from_float(&rounded), q);
    }

    /// A plain network widened to buckets (`net train --init` of a plain
    /// network with `--buckets`) evaluates every position as the plain one
    /// did, in floats and once quantised.
    #[test]
    fn a_widened_network_evaluates_as_the_plain_one() {
        let q = from_float(&random_net(32));
        let plain = to_float(&q).unwrap();
        let wide = plain.widened(4);
        assert_eq!((wide.buckets, wide.b2.len(), wide.w2.len()), (4, 4, 4 * 64));
        let q4 = from_float(&wide);
        assert_eq!(q4.buckets(), 4);
        let positions = positions();
        let buckets: std::collections::BTreeSet<usize> = positions
            .iter()
            .map(|(us, _)| q4.bucket(us.len()))
            .collect();
        assert_eq!(buckets.len(), 4, "{buckets:?}");
        for (us, them) in &positions {
            assert_eq!(wide.forward(us, them), plain.forward(us, them));
            assert_eq!(
                q4.evaluate_features(us, them),
                q.evaluate_features(us, them)
            );
        }
    }

    #[test]
    fn floats_of_a_network_round_back_to_it() {
        let q = from_float(&random_net(32));
        let p = to_float(&q).unwrap();
        assert_eq!(p.hidden, 32);
        assert_eq!(from_float(&p), q);
        let (us, them) = position();
        let cp = q.evaluate_features(&us, &them) as f32;
        assert!((p.forward(&us, &them) * SCALE - cp).abs() < 3.0);
        let other = Network::new(
            16,
            600,
            vec![0; INPUTS * 16],
            vec![0; 16],
            vec![0; 32],
            vec![0],
        )
        .unwrap();
        assert!(to_float(&other).unwrap_err().contains("600"));
    }

    /// The trainer's features of a board (through its record) are the
    /// engine's: the same mapping, the same pieces.
    #[test]
    fn trainer_and_engine_see_the_same_features() {
        use super::super::network::features;
        use super::super::packed::sample_of;
        use crate::chess::board::Board;
        use crate::engine::nnue::board_features;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let (mut us, mut them) = features(&sample_of(&board, 0, 0.5));
            let [mut white, mut black] = board_features(&board);
            if board.side_to_move() == crate::chess::types::Color::Black {
                std::mem::swap(&mut white, &mut black);
            }
            for v in [&mut us, &mut them, &mut white, &mut black] {
                v.sort_unstable();
            }
            assert_eq!((us, them), (white, black), "{fen}");
        }
    }
}
