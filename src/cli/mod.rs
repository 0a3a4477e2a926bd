//! The command-line program: this file only dispatches on the first
//! argument; each subcommand lives in its own file over `common` (usage,
//! messages, argument helpers, exit codes), and none imports from here.

pub mod bench;
pub mod book;
pub mod common;
pub mod epd;
pub mod perft;
pub mod play;
pub mod selfplay;
pub mod syzygy;
pub mod tune;
pub mod wdl;

use common::{say, EXIT_USAGE, USAGE};

/// Dispatches on the first argument.
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        None | Some("uci") => {
            let stdin = std::io::stdin();
            crate::uci::run(
                stdin.lock(),
                crate::uci::Output::new(Box::new(std::io::stdout())),
            );
            0
        }
        Some("perft") => perft::command(&args[1..]),
        Some("bench") => bench::command(&args[1..]),
        Some("book") => book::command(&args[1..]),
        Some("play") => crate::cli::play::cli(&args[1..]),
        Some("epd") => epd::command(&args[1..]),
        Some("tour") => crate::tour::cli(&args[1..]),
        Some("selfplay") => crate::cli::selfplay::cli(&args[1..]),
        Some("tune") => crate::cli::tune::cli(&args[1..]),
        Some("wdl") => wdl::cli(&args[1..]),
        Some("syzygy") => syzygy::command(&args[1..]),
        Some("-V" | "--version" | "version") => {
            say!("cavalier {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("-h" | "--help" | "help") => {
            say!("{USAGE}");
            0
        }
        Some(other) => {
            eprintln!(
                "error: unknown command \"{}\"\n{USAGE}",
                crate::util::text::quote(other)
            );
            EXIT_USAGE
        }
    }
}
