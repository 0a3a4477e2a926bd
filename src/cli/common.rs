//! What every subcommand shares: the usage text, messages on stdout that
//! end quietly when the reader goes, argument and input-file helpers, and
//! the exit codes (0 success, 1 a check failed, 2 bad usage).

/// Prints a line on stdout. When the reader has gone (a closed pipe, as
/// with `cavalier perft 6 | head`), ends the process quietly, as other
/// command-line tools do, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::common::say_line(&format!($($arg)*))
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

/// The program's usage, shown by `--help` and after a bad command line.
pub const USAGE: &str = "usage: cavalier [uci]                      UCI engine on stdin/stdout
       cavalier bench [depth]                fixed positions, fixed depth, N nodes M nps
       cavalier book [--file F] [FEN | moves]  book moves and weights of a position
       cavalier book [--file F] --check [--depth D]
                                             search every line's end; flag > 1.5 pawns
       cavalier epd FILE [--movetime MS | --nodes N]
                                             run an EPD suite (bm/am), count the solved
       cavalier play [options]               a game against the engine in the terminal
                                             (cavalier play --help for the options)
       cavalier tour <square> [options]      knight's tours (cavalier tour --help)
       cavalier selfplay [options]           self-play games written as positions with
                                             results (cavalier selfplay --help)
       cavalier tune FILE [options]          fit the evaluation weights to those results
                                             (cavalier tune --help)
       cavalier wdl FILE [options]           fit the win/draw/loss model to those results
                                             and scores (cavalier wdl --help)
       cavalier perft <depth> [FEN] [--threads N] [--hash MB] [--chess960]
                                             divide counts, nodes, time, nps
       cavalier perft --suite FILE [--depth D] [--threads N] [--hash MB]
                                             check a FEN ;D1 n ;D2 n ... suite
       cavalier --version                    the version";

/// A subcommand's parsed arguments, or its exit code once the usage (for
/// `--help`, an empty error) or the error and the usage have been shown.
pub(crate) fn args_or_exit<T>(parsed: Result<T, String>, usage: &str) -> Result<T, i32> {
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
pub(crate) fn parse_number<T: std::str::FromStr>(
    name: &str,
    text: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T, String> {
    text.parse::<T>()
        .ok()
        .filter(ok)
        .ok_or_else(|| format!("bad {name} \"{}\"", crate::util::text::quote(text)))
}

/// The position named by the FEN words of a command line: `None` when no
/// word was given (the caller's default, usually the start position), an
/// error when words were given but all are blank (`""`, an unset shell
/// variable: silently reading that as the start position would hide the
/// mistake), else the FEN parsed.
pub(crate) fn fen_words(words: &[String]) -> Result<Option<crate::chess::board::Board>, String> {
    if words.is_empty() {
        return Ok(None);
    }
    let text = words.join(" ");
    if text.trim().is_empty() {
        return Err("the FEN is blank".to_string());
    }
    crate::chess::board::Board::from_fen(&text)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Reads a file named on the command line, or says why not.
pub(crate) fn read_input(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .map_err(|e| eprintln!("error: cannot read \"{path}\": {e}"))
        .ok()
}
