//! The command-line program: this file only dispatches on the first
//! argument; each subcommand lives in its own file over
//! [`crate::util::command_line`] (messages, argument helpers, exit codes)
//! and `usage`, and none imports from here. The lab's subcommands
//! ([`crate::lab`]) are dispatched here too when the build has them.
//! Arguments that are UCI input lines (`cavalier "genfens 8 seed 1 book
//! None" quit`, as OpenBench's data generation starts engines) are run as
//! such before the engine reads stdin.

pub mod bench;
pub mod book;
pub mod perft;
pub mod play;
pub mod syzygy;
pub mod usage;

use crate::util::command_line::{say, EXIT_USAGE};
use usage::USAGE;

/// Dispatches on the first argument.
pub fn run(args: &[String]) -> i32 {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        None | Some("uci") => {
            let stdin = std::io::stdin();
            crate::uci::run(
                stdin.lock(),
                crate::uci::Output::new(Box::new(std::io::stdout())),
            );
            0
        }
        Some("perft") => perft::command(rest),
        Some("bench") => bench::command(rest),
        Some("book") => book::command(rest),
        Some("play") => play::command(rest),
        Some("tour") => crate::tour::command(rest),
        Some("syzygy") => syzygy::command(rest),
        #[cfg(feature = "lab")]
        Some("selfplay") => crate::lab::selfplay::command(rest),
        #[cfg(feature = "lab")]
        Some("tune") => crate::lab::tune::command(rest),
        #[cfg(feature = "lab")]
        Some("wdl") => crate::lab::wdl::command(rest),
        #[cfg(feature = "lab")]
        Some("epd") => crate::lab::epd::command(rest),
        #[cfg(feature = "lab")]
        Some("net") => crate::lab::net::command(rest),
        #[cfg(not(feature = "lab"))]
        Some(lab) if usage::LAB_TOOLS.contains(&lab) => {
            eprintln!(
                "error: \"{lab}\" is a lab tool; build it with {}",
                usage::LAB_BUILD
            );
            EXIT_USAGE
        }
        Some("-V" | "--version" | "version") => {
            say!("cavalier {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("-h" | "--help" | "help") => {
            say!("{USAGE}");
            0
        }
        Some(other) if is_uci_line(other) => {
            let stdin = std::io::stdin();
            crate::uci::run_with_commands(
                args,
                stdin.lock(),
                crate::uci::Output::new(Box::new(std::io::stdout())),
            );
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

/// Whether a first argument that names no subcommand is a UCI input line:
/// its first word is a command of the UCI loop.
fn is_uci_line(arg: &str) -> bool {
    arg.split_whitespace()
        .next()
        .is_some_and(|word| crate::uci::COMMANDS.contains(&word))
}
