//! Everything that thinks: the search and its tables, static exchange
//! evaluation, time management, the Classic 1993 style, the benchmark and
//! the evaluation (`eval/`).
//!
//! The engine uses `chess` and never the protocol: it reports through
//! callbacks and never prints.

pub mod bench;
pub mod classic;
pub mod eval;
pub mod ordering;
pub mod score;
pub mod search;
pub mod see;
pub mod skill;
pub mod threads;
pub mod time;
pub mod tt;
