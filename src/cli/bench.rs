//! `cavalier bench`: the fixed benchmark (node count and speed).

use crate::util::command_line::{say, EXIT_USAGE};

/// Runs the benchmark at the depth given (or the default).
pub fn command(args: &[String]) -> i32 {
    let depth = match args.first() {
        None => crate::engine::bench::DEFAULT_DEPTH,
        Some(d) => match d.parse::<i32>() {
            Ok(d) if (1..=30).contains(&d) => d,
            _ => {
                eprintln!(
                    "error: bad bench depth \"{}\": expected 1..=30",
                    crate::util::text::quote(d)
                );
                return EXIT_USAGE;
            }
        },
    };
    crate::engine::bench::run(depth, &mut |line| say!("{line}"));
    0
}
