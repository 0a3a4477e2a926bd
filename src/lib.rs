//! cavalier: a UCI chess engine on a 10x12 mailbox board.
//!
//! The folders are the layers, and dependencies point one way, downwards:
//!
//! ```text
//! cli/, uci/      programs and the protocol: read input, print output
//! lab/            the lab, feature `lab` only: self-play, tuner, WDL fit, EPD suites
//!   |
//! engine/, book/  what thinks (search, evaluation, time) and the opening books
//!   |
//! chess/          the rules: board, move generation, FEN, notation, perft
//!   |
//! util/           a random generator, text and command-line helpers, the
//!                 CPU's features, bounded file reads
//!
//! tour/           knight's tours: stands alone, shares nothing with the engine
//! ```
//!
//! `lab/` sits beside `cli/` at the top and is compiled only with
//! `--features lab` (see `src/lab/mod.rs`): `cli/` dispatches its
//! subcommands in that build, and nothing else imports it.
//!
//! The search never prints, never reads input and never opens the book: it
//! reports through a callback to whoever started it.

// No `unsafe` but these, each allowed where it stands: the evaluation
// compiled for the CPU's bit-counting instructions, taken once they are
// detected (engine::eval::evaluate_with), the network's evaluation
// compiled for AVX2, taken once it is detected
// (engine::nnue::Accumulators::evaluate), both detected once by
// util::cpu, with the AVX2 output layer's unaligned loads
// (engine::nnue::output), the prefetch hint the search gives for the hash
// table and the evaluation cache (util::prefetch), and the hash table's
// request for huge pages on Linux (engine::tt::advise_huge_pages).
#![deny(unsafe_code)]

pub mod book;
pub mod chess;
pub mod cli;
pub mod engine;
#[cfg(feature = "lab")]
pub mod lab;
pub mod tour;
pub mod uci;
pub mod util;

pub use chess::board::Board;
pub use chess::types::{Color, Move, Piece, Square};
