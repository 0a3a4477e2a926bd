//! The UCI line handler: any sequence of lines is answered without a panic,
//! and the engine still answers `isready` afterwards.
//!
//! Searches are stopped right after their `go` unless they are infinite or
//! ponder searches, which meet the lines that follow them. Three things are
//! kept out on purpose, because they are slow by design and not parsing:
//! `bench`, `go perft` (both run to the end before the next line is read,
//! as in other engines) and Hash sizes above 64 MB (each would allocate up
//! to the machine's free memory).
#![no_main]

use cavalier::uci::{Engine, Output};
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn slow_by_design(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.first() == Some(&"bench") || words.contains(&"perft") {
        return true;
    }
    lower.contains("hash")
        && words.iter().any(|w| {
            w.trim_start_matches('+')
                .parse::<u64>()
                .is_ok_and(|v| v > 64)
        })
}

fuzz_target!(|data: &[u8]| {
    let sink = Sink::default();
    let mut engine = Engine::with_hash(Output::new(Box::new(sink.clone())), 1);
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(32) {
        if slow_by_design(line) {
            continue;
        }
        if engine.handle(line) == cavalier::uci::Flow::Quit {
            break;
        }
        // A search is stopped at once unless the input asked for one that
        // waits (infinite or ponder): the target is the line handler, and
        // searches that run to their depth would make it a hundred times
        // slower. The waiting ones meet the lines that follow them.
        let lower = line.to_ascii_lowercase();
        if lower.trim_start().starts_with("go")
            && !lower.contains("infinite")
            && !lower.contains("ponder")
        {
            engine.handle("stop");
        }
    }
    engine.handle("stop");
    sink.0.lock().unwrap().clear();
    engine.handle("isready");
    let out = String::from_utf8_lossy(&sink.0.lock().unwrap()).into_owned();
    assert!(out.contains("readyok"), "no readyok: {out:?}");
    engine.shutdown();
});
