//! The lab: the tools that make and measure the engine rather than play
//! with it. Self-play data (`selfplay`), the network's data and trainer
//! (`net`), the hand-written evaluation's tuner (`tune`), the
//! win/draw/loss model's fit (`wdl`) and EPD test suites (`epd`).
//!
//! Compiled only with the cargo feature `lab`
//! (`cargo build --release --features lab`): the same `cavalier` binary
//! then answers `cavalier selfplay|net|tune|wdl|epd ...`, and the default
//! build answers them with that build command. A feature rather than a
//! second binary, because a second binary would still need these modules
//! in the library, which every build compiles; behind a feature the
//! default build compiles none of them (Viridithas gates its data
//! generation the same way), and one binary keeps one command line.
//!
//! A layer at the top, beside `cli/`: it uses `engine/`, `chess/`,
//! `book/` and `util/`; nothing below imports it, and `cli/` only
//! dispatches to it. The tuner reads the evaluation through one
//! interface, `engine::eval::tuning`, compiled with this feature too.

pub mod epd;
pub mod net;
pub mod selfplay;
pub mod tune;
pub mod wdl;
