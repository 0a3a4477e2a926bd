//! `cavalier bench`: the fixed benchmark (node count and speed).

use crate::util::command_line::{say, EXIT_USAGE};

/// Runs the benchmark at the depth given (or the default).
pub fn command(args: &[String]) -> i32 {
    let depth = match args.first() {
        Some(h) if h == "-h" || h == "--help" => {
            say!(
                "usage: cavalier bench [depth]\nSearches the fixed positions to depth (default {}), \
                 each with a fresh table; ends with N nodes M nps.",
                crate::engine::bench::DEFAULT_DEPTH
            );
            return 0;
        }
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
