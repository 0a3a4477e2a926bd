//! What every subcommand shares, the engine's (`cli/`), the lab's (`lab/`)
//! and the tours' (`tour/`, the reader only): messages on stdout that end
//! quietly when the reader goes, the argument reader and input-file
//! helpers, and the exit codes (0 success, 1 a
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

/// A subcommand's arguments, read one word at a time: the options' names
/// and the other words come from [`Iterator::next`], an option's value from
/// [`CommandLine::value`] (or [`CommandLine::number`]). The one loop every
/// subcommand uses, so that a missing value is reported in one way:
/// `--games needs a value`.
///
/// ```text
/// let mut args = CommandLine::new(args);
/// while let Some(word) = args.next() {
///     match word {
///         "--games" => games = args.number(|&n: &usize| n > 0)?,
///         "--out" => out = args.value()?.to_string(),
///         other => return Err(unexpected(other)),
///     }
/// }
/// ```
pub struct CommandLine<'a> {
    words: std::slice::Iter<'a, String>,
    /// `--name=value` is read as `--name` with its value.
    inline_values: bool,
    /// The option last read: its name...
    name: &'a str,
    /// ...and the value written after its `=`, not yet taken.
    inline: Option<&'a str>,
    /// The word last read, whole.
    word: &'a str,
}

impl<'a> CommandLine<'a> {
    /// Reads `args`, an option's value being the word after it.
    pub fn new(args: &'a [String]) -> Self {
        CommandLine {
            words: args.iter(),
            inline_values: false,
            name: "",
            inline: None,
            word: "",
        }
    }

    /// Reads `args`, accepting `--name=value` as well as `--name value`.
    pub fn with_inline_values(args: &'a [String]) -> Self {
        CommandLine {
            inline_values: true,
            ..CommandLine::new(args)
        }
    }

    /// The word last read, whole (with its `=value`).
    pub fn word(&self) -> &'a str {
        self.word
    }

    /// The value of the option last read: its `=value`, or else the next
    /// word, whatever it is.
    pub fn value(&mut self) -> Result<&'a str, String> {
        self.inline
            .take()
            .or_else(|| self.words.next().map(String::as_str))
            .ok_or_else(|| format!("{} needs a value", self.name))
    }

    /// The value of the option last read, a number that `ok` accepts (the
    /// option named in the error, as [`parse_number`] does).
    pub fn number<T: std::str::FromStr>(&mut self, ok: impl Fn(&T) -> bool) -> Result<T, String> {
        let text = self.value()?;
        parse_number(self.name, text, ok)
    }

    /// An error when the switch last read was given a value (`--ascii=yes`).
    pub fn no_value(&self) -> Result<(), String> {
        match self.inline {
            Some(_) => Err(format!("{} takes no value", self.name)),
            None => Ok(()),
        }
    }

    /// The option's `=value`, if any, and the words after it up to the next
    /// option: a value written as several words (a FEN).
    pub fn values_up_to_option(&mut self) -> Vec<&'a str> {
        let mut out: Vec<&'a str> = self.inline.take().into_iter().collect();
        while let Some(w) = self.words.as_slice().first() {
            if w.starts_with("--") {
                break;
            }
            out.push(w);
            self.words.next();
        }
        out
    }
}

impl<'a> Iterator for CommandLine<'a> {
    type Item = &'a str;

    /// The next option's name (without its `=value`) or other word.
    fn next(&mut self) -> Option<&'a str> {
        let word = self.words.next()?.as_str();
        self.word = word;
        self.name = word;
        self.inline = None;
        if self.inline_values {
            if let Some((name, value)) = word.split_once('=').filter(|(n, _)| n.starts_with("--")) {
                self.name = name;
                self.inline = Some(value);
            }
        }
        Some(self.name)
    }
}

/// The error for a word no option or operand of the subcommand takes.
pub fn unexpected(word: &str) -> String {
    format!("unexpected argument \"{}\"", crate::util::text::quote(word))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn options_values_and_words() {
        let args = words("--games 5 file --out x.txt --packed");
        let mut line = CommandLine::new(&args);
        assert_eq!(line.next(), Some("--games"));
        assert_eq!(line.number(|&n: &usize| n > 0), Ok(5));
        assert_eq!(line.next(), Some("file"));
        assert_eq!(line.next(), Some("--out"));
        assert_eq!(line.value(), Ok("x.txt"));
        assert_eq!(line.next(), Some("--packed"));
        assert_eq!(line.no_value(), Ok(()));
        assert_eq!(line.value(), Err("--packed needs a value".to_string()));
        assert_eq!(line.next(), None);
    }

    #[test]
    fn inline_values_only_when_asked() {
        let args = words("--count=3 --ascii=yes --fen=8/8 w - --level 2");
        let mut line = CommandLine::new(&args);
        assert_eq!(line.next(), Some("--count=3"));
        let mut line = CommandLine::with_inline_values(&args);
        assert_eq!(line.next(), Some("--count"));
        assert_eq!(line.word(), "--count=3");
        assert_eq!(line.value(), Ok("3"));
        assert_eq!(line.next(), Some("--ascii"));
        assert_eq!(line.no_value(), Err("--ascii takes no value".to_string()));
        assert_eq!(line.next(), Some("--fen"));
        assert_eq!(line.values_up_to_option(), ["8/8", "w", "-"]);
        assert_eq!(line.next(), Some("--level"));
        assert_eq!(
            line.number(|&n: &i32| n > 5),
            Err("bad --level \"2\"".to_string())
        );
    }

    #[test]
    fn unexpected_words_are_quoted() {
        assert_eq!(unexpected("--frob"), "unexpected argument \"--frob\"");
    }
}
