//! What every subcommand shares, the engine's (`cli/`) and the lab's
//! (`lab/`): messages on stdout that end quietly when the reader goes,
//! argument and input-file helpers, and the exit codes (0 success, 1 a
//! check failed, 2 bad usage). For the programs only: the engine's layers
//! never print.

/// Prints a line on stdout. When the reader has gone (a closed pipe, as
/// with `cavalier perft 6 | head`), ends the process quietly, as other
/// command-line tools do, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::util::command_line::say_line(&format!($($arg)*))
    };
}
pub(crate) use say;

/// The function behind `say!`.
pub(crate) fn say_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Exit code for a failed check.
pub const EXIT_FAILED: i32 = 1;
/// Exit code for bad arguments.
pub const EXIT_USAGE: i32 = 2;

/// A subcommand's parsed arguments, or its exit code once the usage (for
/// `--help`, an empty error) or the error and the usage have been shown.
pub fn args_or_exit<T>(parsed: Result<T, String>, usage: &str) -> Result<T, i32> {
    match parsed {
        Ok(o) => Ok(o),
        Err(e) if e.is_empty() => {
            say_line(usage);
            Err(0)
        }
        Err(e) => {
            eprintln!("error: {e}\n{usage}");
            Err(EXIT_USAGE)
        }
    }
}

/// Parses the value of option `name`, accepted when `ok` says so.
pub fn parse_number<T: std::str::FromStr>(
    name: &str,
    text: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T, String> {
    text.parse::<T>()
        .ok()
        .filter(ok)
        .ok_or_else(|| format!("bad {name} \"{}\"", crate::util::text::quote(text)))
}

/// Reads a file named on the command line, or says why not.
pub fn read_input(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .map_err(|e| eprintln!("error: cannot read \"{path}\": {e}"))
        .ok()
}
