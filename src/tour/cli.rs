//! The `cavalier tour` command line: options, the start-square prompt, and
//! running a search with its tours and progress printed.
//!
//! Imports only std, the other `tour` files and the command-line reader
//! every subcommand shares (`util::command_line`, which knows nothing of
//! the engine).

use super::goal::Goal;
use super::output::{describe_outcome, group_digits, write_tour};
use super::request::SearchConfig;
use super::search::search;
use super::square::{ParseSquareError, Square};
use super::{
    DEFAULT_MAGIC_TIME_LIMIT, EXIT_NOT_FOUND, EXIT_OK, EXIT_USAGE, PROGRESS_INTERVAL, SQUARE_COUNT,
};
use crate::util::command_line::CommandLine;
use std::io::{self, BufRead, IsTerminal, Write};
use std::ops::ControlFlow;
use std::time::Duration;

/// Progress shows the node rate in millions per second.
const NODES_PER_MILLION: f64 = 1e6;

/// Help text of `cavalier tour`.
const USAGE: &str = "\
usage: cavalier tour <square> [--count N] [--closed] [--magic | --quarters]
                     [--time-limit SECONDS] [--ascii]

Finds knight's tours starting on <square> (a1..h8) by Warnsdorff's rule with
backtracking and prints each as a board of move numbers.

options:
  --count N             print N distinct tours (default 1)
  --closed              only closed tours: the last square is a knight's move
                        from the first
  --magic               only semi-magic tours: every rank and file sums to 260
  --quarters            only tours whose four 4x4 quarters have every rank and
                        file summing to 130
  --time-limit SECONDS  give up after this long (default 60 with --magic or
                        --quarters, otherwise no limit)
  --ascii               frame the board with ASCII characters only
  -h, --help            show this help

Without <square>, the square is asked for on a terminal until it is valid.
Long searches report progress on stderr about once a second. Magic tours are
rare: `cavalier tour a8 --quarters --time-limit 300` finds one in about 1.5
minutes; most other magic searches find none within a minute.

exit status: 0 if all requested tours were found; 1 if fewer were (time limit
reached or no more exist) or output failed; 2 for a bad square or option.
";

/// Options of `cavalier tour`.
#[derive(Debug, PartialEq)]
struct TourOptions {
    start: Option<Square>,
    count: u64,
    closed: bool,
    goal: Goal,
    time_limit: Option<Duration>,
    ascii: bool,
}

#[derive(Debug, PartialEq)]
enum CliCommand {
    Help,
    Run(TourOptions),
}

fn parse_args(args: &[String]) -> Result<CliCommand, String> {
    let mut options = TourOptions {
        start: None,
        count: 1,
        closed: false,
        goal: Goal::Any,
        time_limit: None,
        ascii: false,
    };
    // Accept both "--count 3" and "--count=3".
    let mut args = CommandLine::with_inline_values(args);
    while let Some(name) = args.next() {
        let arg = args.word();
        match name {
            "-h" | "--help" => return Ok(CliCommand::Help),
            "--count" => options.count = parse_count(args.value()?)?,
            "--time-limit" => options.time_limit = Some(parse_seconds(args.value()?)?),
            "--closed" => {
                args.no_value()?;
                options.closed = true;
            }
            "--ascii" => {
                args.no_value()?;
                options.ascii = true;
            }
            "--magic" | "--quarters" => {
                args.no_value()?;
                let goal = if name == "--magic" {
                    Goal::SemiMagic
                } else {
                    Goal::Quarters
                };
                if options.goal.is_magic() && options.goal != goal {
                    return Err("--magic and --quarters cannot be combined".to_string());
                }
                options.goal = goal;
            }
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg:?}")),
            _ if options.start.is_some() => {
                return Err(format!(
                    "unexpected argument {arg:?}: only one start square"
                ));
            }
            _ => {
                options.start = Some(
                    arg.parse()
                        .map_err(|error: ParseSquareError| error.to_string())?,
                )
            }
        }
    }
    if options.goal.is_magic() && options.time_limit.is_none() {
        options.time_limit = Some(DEFAULT_MAGIC_TIME_LIMIT);
    }
    Ok(CliCommand::Run(options))
}

fn parse_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(count) if count > 0 => Ok(count),
        _ => Err(format!(
            "invalid --count {text:?}: expected a whole number, at least 1"
        )),
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|seconds| *seconds > 0.0)
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .ok_or_else(|| {
            format!("invalid --time-limit {text:?}: expected a positive number of seconds")
        })
}

/// Runs `cavalier tour` with `args` (the words after `tour`) and returns the
/// exit code: [`EXIT_OK`], [`EXIT_NOT_FOUND`] or [`EXIT_USAGE`]. Tours and the
/// result go to stdout, progress and errors to stderr. With no square given
/// and stdin a terminal, the square is asked for until it is valid.
pub fn command(args: &[String]) -> i32 {
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    let mut input = stdin.lock();
    let prompt: Option<&mut dyn BufRead> = if interactive { Some(&mut input) } else { None };
    run(
        args,
        prompt,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )
}

/// [`command`] with its streams passed in, for tests.
pub(super) fn run(
    args: &[String],
    input: Option<&mut dyn BufRead>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    // Failing to write to stderr leaves no better place to complain: ignored.
    let options = match parse_args(args) {
        Ok(CliCommand::Help) => {
            return if out.write_all(USAGE.as_bytes()).is_ok() {
                EXIT_OK
            } else {
                EXIT_NOT_FOUND
            };
        }
        Ok(CliCommand::Run(options)) => options,
        Err(message) => {
            let _ = writeln!(
                err,
                "cavalier tour: {message}\n(run `cavalier tour --help` for usage)"
            );
            return EXIT_USAGE;
        }
    };
    let start = match (options.start, input) {
        (Some(square), _) => square,
        (None, Some(input)) => match ask_square(input, err) {
            Some(square) => square,
            None => {
                let _ = writeln!(err, "cavalier tour: no start square given");
                return EXIT_USAGE;
            }
        },
        (None, None) => {
            let _ = writeln!(err, "cavalier tour: missing start square, like e4\n{USAGE}");
            return EXIT_USAGE;
        }
    };
    let config = SearchConfig {
        start,
        closed: options.closed,
        goal: options.goal,
        max_tours: options.count,
        time_limit: options.time_limit,
        progress_interval: PROGRESS_INTERVAL,
    };
    let kind = format!(
        "{}{}",
        if options.closed { "closed " } else { "" },
        options.goal.noun()
    );
    let mut written = Ok(());
    let mut index = 0;
    let summary = search(
        &config,
        &mut |tour| {
            index += 1;
            written = write_tour(out, tour, index, options.goal, options.ascii);
            if written.is_ok() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        },
        &mut |progress| {
            let rate = progress.nodes as f64 / progress.elapsed.as_secs_f64().max(f64::EPSILON);
            let _ = writeln!(
                err,
                "searching {kind}s from {start}: {:.0} s, {} nodes ({:.1} M/s), deepest {}/{SQUARE_COUNT}, {} found",
                progress.elapsed.as_secs_f64(),
                group_digits(progress.nodes),
                rate / NODES_PER_MILLION,
                progress.deepest,
                progress.tours,
            );
        },
    );
    let outcome = written.and_then(|()| {
        writeln!(
            out,
            "{}",
            describe_outcome(&summary, &kind, start, options.count)
        )
    });
    if let Err(error) = outcome {
        // A closed pipe (`| head`) is the reader's choice, not worth a message.
        if error.kind() != io::ErrorKind::BrokenPipe {
            let _ = writeln!(err, "cavalier tour: cannot write output: {error}");
        }
        return EXIT_NOT_FOUND;
    }
    if summary.tours >= options.count {
        EXIT_OK
    } else {
        EXIT_NOT_FOUND
    }
}

/// Asks for a square until a valid one is typed; `None` at end of input.
fn ask_square(input: &mut dyn BufRead, err: &mut dyn Write) -> Option<Square> {
    loop {
        let _ = write!(err, "Start square (a1-h8): ");
        let _ = err.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) => match line.parse() {
                Ok(square) => return Some(square),
                Err(error) => {
                    let _ = writeln!(err, "{error}; please try again");
                }
            },
            // The bad bytes are consumed, so asking again makes progress.
            Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                let _ = writeln!(err, "that was not text; please try again");
            }
            Err(_) => return None,
        }
    }
}
