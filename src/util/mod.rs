//! Small helpers every layer may use: one random generator, one quoting
//! helper for messages.

pub mod rng;
pub mod text;
