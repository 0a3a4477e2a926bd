//! The README against the binary: the `bench` node counts it announces,
//! its table of UCI options and its table of subcommands must be what the
//! engine itself reports (`bench`, `uci`, `--help`). A change to either
//! side that forgets the other fails here.

mod common;

use common::{bench_nodes, cavalier, cavalier_with_input};
use std::collections::BTreeMap;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable")
}

/// The lines of the README's section headed `## {title}`.
fn section(text: &str, title: &str) -> Vec<String> {
    let heading = format!("## {title}");
    let mut lines = text.lines().skip_while(|l| l.trim() != heading);
    assert!(lines.next().is_some(), "README has no section {heading:?}");
    lines
        .take_while(|l| !l.starts_with("## "))
        .map(str::to_string)
        .collect()
}

/// The cells of a Markdown table row, trimmed, `\|` kept as `|`.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|').trim_end_matches('|');
    row.replace("\\|", "\u{1}")
        .split('|')
        .map(|c| c.trim().replace('\u{1}', "|"))
        .collect()
}

/// The number in bold right after `marker` in the README.
fn bold_number_after(text: &str, marker: &str) -> u64 {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("README does not say {marker:?}"));
    let rest = &text[at + marker.len()..];
    let rest = rest.trim_start().strip_prefix("**").unwrap_or_else(|| {
        panic!("README: no bold number after {marker:?}");
    });
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a node count")
}

#[test]
fn the_readme_announces_the_bench_counts_the_binary_searches() {
    let text = readme();
    let network = bold_number_after(&text, "Now");
    let hce = bold_number_after(&text, "(`bench --hce`:");
    assert_eq!(network, bench_nodes(&["bench"]), "README's bench count");
    assert_eq!(
        hce,
        bench_nodes(&["bench", "--hce"]),
        "README's bench --hce count"
    );
}

/// What the README's table says of an option, or what `uci` says of it:
/// type, default and range, written as the README writes them.
type OptionRows = BTreeMap<String, (String, String, String)>;

fn readme_options(text: &str) -> OptionRows {
    let mut rows = OptionRows::new();
    for line in section(text, "UCI options") {
        if !line.starts_with("| `") {
            continue;
        }
        let c = cells(&line);
        assert!(c.len() >= 5, "short option row {line:?}");
        let name = c[0].trim_matches('`').to_string();
        let default = c[2].trim_matches('`').to_string();
        rows.insert(name, (c[1].clone(), default, c[3].clone()));
    }
    rows
}

fn engine_options() -> OptionRows {
    let run = cavalier_with_input(&[], "uci\nquit\n");
    assert!(run.success());
    let mut rows = OptionRows::new();
    for line in run.stdout.lines() {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let (name, rest) = rest.split_once(" type ").expect("an option's type");
        let mut words = rest.split(' ');
        let kind = words.next().unwrap_or("").to_string();
        let rest: Vec<&str> = words.collect();
        // The values after each keyword, up to the next keyword.
        let mut fields: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut key = "";
        let mut vars = Vec::new();
        for w in rest {
            if matches!(w, "default" | "min" | "max" | "var") {
                key = w;
                if w == "var" {
                    vars.push(String::new());
                }
                fields.entry(w).or_default();
            } else if key == "var" {
                let v = vars.last_mut().expect("a var");
                if !v.is_empty() {
                    v.push(' ');
                }
                v.push_str(w);
            } else {
                fields.entry(key).or_default().push(w);
            }
        }
        let field = |k: &str| fields.get(k).map(|v| v.join(" ")).unwrap_or_default();
        let range = match kind.as_str() {
            "spin" => format!("{}-{}", field("min"), field("max")),
            "combo" => vars.join(", "),
            _ => String::new(),
        };
        rows.insert(name.to_string(), (kind, field("default"), range));
    }
    rows
}

#[test]
fn the_readme_option_table_is_the_engines_option_list() {
    let documented = readme_options(&readme());
    let reported = engine_options();
    assert!(
        reported.len() >= 20,
        "uci listed {} options",
        reported.len()
    );
    let names = |rows: &OptionRows| rows.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&documented),
        names(&reported),
        "README's options and the engine's differ"
    );
    for (name, engine) in &reported {
        assert_eq!(
            &documented[name], engine,
            "option {name:?}: README (type, default, range) against the engine's"
        );
    }
}

/// The first word after `cavalier` of each usage line, flags left out.
fn command_words<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut words: Vec<String> = lines
        .filter_map(|l| {
            let at = l.find("cavalier ")?;
            let word = l[at + "cavalier ".len()..].split_whitespace().next()?;
            let word = word.trim_matches(|c| matches!(c, '`' | '[' | ']'));
            // A quoted argument is a UCI line (`cavalier "LINE"...`).
            let word = if word.starts_with('"') {
                "\"LINE\""
            } else {
                word
            };
            (!word.starts_with('-')).then(|| word.to_string())
        })
        .collect();
    words.sort();
    words.dedup();
    words
}

#[test]
fn the_readme_subcommand_table_is_the_binarys_usage() {
    let text = readme();
    let table = section(&text, "Subcommands");
    let documented = command_words(
        table
            .iter()
            .filter(|l| l.starts_with("| `cavalier"))
            .map(String::as_str),
    );
    let help = cavalier(&["--help"]);
    assert!(help.success());
    // The engine's own commands: the usage lines before the lab tools.
    let engine_part = help.stdout.split("lab tools").next().unwrap_or("");
    let reported = command_words(engine_part.lines());
    assert!(reported.len() >= 7, "usage named only {reported:?}");
    assert_eq!(
        documented, reported,
        "README's subcommands and --help differ"
    );
}
