//! Everything that thinks. Inside, from the bottom up:
//!
//! - `score`: mate values, mate distance, hash-table score conversion;
//! - `see`: static exchange evaluation; `eval/`: the two-pass evaluation,
//!   its pawn hash, tracer, weights and parameter slots; `nnue/`: the
//!   network (`Use NNUE`), its file, its sums by ply; `params`: the
//!   search's margins and constants (UCI options in a tuning build);
//! - `tt`: the transposition table; `ordering`: killers, histories and the
//!   order moves are tried in; `picker`: a node's moves in that order,
//!   generated in stages; `time`: go limits to deadlines;
//! - `search/`: the limits and control, the root (iterative deepening,
//!   aspiration, MultiPV), the node searches (PVS, quiescence), tablebase
//!   use, correction history; `skill`: weaker levels; `classic`: the 1993
//!   style;
//! - `threads`: the search pool, the only place search threads start;
//!   `bench`: the fixed benchmark; `wdl`: the win/draw/loss model.
//!
//! The engine uses `chess` and `util`, never the book or the protocol: it
//! reports through callbacks and never prints.

pub mod bench;
pub mod classic;
pub mod eval;
pub mod nnue;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod score;
pub mod search;
pub mod see;
pub mod skill;
pub mod syzygy;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;
