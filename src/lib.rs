//! cavalier: a UCI chess engine on a 10x12 mailbox board.
//!
//! Dependencies point one way: `uci`/`cli` use `search` and `book`, which
//! use `eval` and `movegen`, which use `board`, which uses `types`.

#![forbid(unsafe_code)]

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod classic;
pub mod cli;
pub mod epd;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod params;
pub mod perft;
pub mod play;
pub mod polyglot;
pub mod polyglot_keys;
pub mod search;
pub mod see;
pub mod selfplay;
pub mod time;
pub mod tour;
pub mod tt;
pub mod tune;
pub mod types;
pub mod uci;
pub mod weights;

pub use board::Board;
pub use types::{Color, Move, Piece, Square};
