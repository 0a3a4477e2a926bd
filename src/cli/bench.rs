//! `cavalier bench`: the fixed benchmark (node count and speed), with the
//! hand-written evaluation or a network.

use crate::engine::bench::DEFAULT_DEPTH;
use crate::engine::nnue::{load, NetSource, USE_BY_DEFAULT};
use crate::util::command_line::{args_or_exit, say, EXIT_USAGE};
use crate::util::text::quote;

/// `cavalier bench --help`.
fn usage() -> String {
    format!(
        "usage: cavalier bench [depth] [--hce | --nnue | --net FILE]
Searches the fixed positions to depth (default {DEFAULT_DEPTH}), each with a fresh
table; ends with N nodes M nps. The evaluation is the engine's default
({default}), or with --hce the hand-written one, with --nnue the embedded
network, with --net FILE the network of FILE (<embedded>: the embedded one).",
        default = if USE_BY_DEFAULT {
            "the embedded network"
        } else {
            "the hand-written one"
        }
    )
}

/// What `cavalier bench` was asked for.
struct BenchArgs {
    depth: i32,
    /// Evaluate with a network: the embedded one, or the one of `net`.
    nnue: bool,
    net: Option<String>,
}

fn parse(args: &[String]) -> Result<BenchArgs, String> {
    let mut b = BenchArgs {
        depth: DEFAULT_DEPTH,
        nnue: USE_BY_DEFAULT,
        net: None,
    };
    let mut depth_seen = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--nnue" => b.nnue = true,
            "--hce" => b.nnue = false,
            "--net" => {
                let file = it.next().ok_or("--net needs a FILE")?;
                b.net = Some(file.clone());
                b.nnue = true;
            }
            d if !depth_seen => {
                b.depth = match d.parse::<i32>() {
                    Ok(d) if (1..=30).contains(&d) => d,
                    _ => return Err(format!("bad bench depth \"{}\": expected 1..=30", quote(d))),
                };
                depth_seen = true;
            }
            other => return Err(format!("unexpected argument \"{}\"", quote(other))),
        }
    }
    Ok(b)
}

/// Runs the benchmark as asked; returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let b = match args_or_exit(parse(args), &usage()) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let source = b
        .net
        .as_deref()
        .map_or(NetSource::Embedded, NetSource::named);
    let network = match b.nnue.then(|| load(&source)).transpose() {
        Ok(network) => network,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    crate::engine::bench::run(b.depth, network, &mut |line| say!("{line}"));
    0
}
