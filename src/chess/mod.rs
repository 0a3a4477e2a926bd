//! The rules of chess and nothing else: piece and square types, the 10x12
//! board with make/unmake, its Zobrist keys, attack tests, move generation, FEN,
//! move notation, perft, the board diagram, and the bitboard helpers the
//! evaluation uses.
//!
//! Nothing here imports from the engine, the book or the protocol.

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod diagram;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod types;
pub mod zobrist;
