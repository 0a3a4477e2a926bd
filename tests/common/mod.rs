//! Starts the `cavalier` binary for the integration tests, the same way
//! for every test file: a whole run ([`cavalier`], [`cavalier_with_input`]),
//! read back as stdout, stderr and exit code; or an [`Engine`] kept open,
//! whose stdin a test writes line by line and whose stdout lines it reads
//! as they come (a UCI session). Every wait has a limit, so that an engine
//! that hangs fails its test instead of hanging the suite.
//!
//! A test file says `mod common;` and uses what it needs, hence the
//! `allow(dead_code)`: each file is its own crate.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The binary under test.
pub const BINARY: &str = env!("CARGO_BIN_EXE_cavalier");

/// Longest a whole run may take. Far beyond any test's in a release build
/// (seconds), so that a debug build's `bench` fits too.
pub const RUN_LIMIT: Duration = Duration::from_secs(300);

/// Longest an open engine is waited for: for a line, or for its exit.
pub const LINE_LIMIT: Duration = Duration::from_secs(20);

/// What a finished run left.
#[derive(Debug)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    /// The exit code; `None` when a signal ended the process.
    pub code: Option<i32>,
}

impl Run {
    /// Whether the process exited with code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Runs `cavalier ARGS` with nothing on stdin.
pub fn cavalier(args: &[&str]) -> Run {
    run(args, None, RUN_LIMIT)
}

/// Runs `cavalier ARGS` with `input` on stdin, then the end of input.
pub fn cavalier_with_input(args: &[&str], input: &str) -> Run {
    run(args, Some(input), RUN_LIMIT)
}

/// The node count that starts the last line of `cavalier ARGS` (`bench`'s
/// `N nodes M nps`); fails the test when the run fails or has none.
pub fn bench_nodes(args: &[&str]) -> u64 {
    let o = cavalier(args);
    assert!(o.success(), "{args:?}: {}", o.stderr);
    let last = o.stdout.lines().last().unwrap_or("");
    last.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"))
}

/// Runs `cavalier ARGS`, `input` (if any) on stdin; fails the test when
/// the process is still running after `limit` (and ends it).
pub fn run(args: &[&str], input: Option<&str>, limit: Duration) -> Run {
    run_with_env(args, &[], input, limit)
}

/// Runs `cavalier ARGS` as [`run`] does, with the environment variables
/// `env` set.
pub fn run_with_env(
    args: &[&str],
    env: &[(&str, &str)],
    input: Option<&str>,
    limit: Duration,
) -> Run {
    let mut child = Command::new(BINARY)
        .args(args)
        .envs(env.iter().copied())
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        // From a thread, so that a long input cannot block on a full pipe
        // while the process blocks on its full stdout; dropped at the end,
        // which closes the input. A process that stops reading early
        // (it refused its arguments) is no failure of the harness.
        let text = text.to_string();
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let stdout = read_to_end(child.stdout.take().expect("stdout is piped"));
    let stderr = read_to_end(child.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + limit;
    let mut collect = |from: Receiver<Vec<u8>>| match from.recv_timeout(left(deadline)) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cavalier {args:?} still running after {limit:?}");
        }
    };
    let (stdout, stderr) = (collect(stdout), collect(stderr));
    // Both pipes are closed: the process has ended or is ending.
    let status = child.wait().expect("the binary is waited for");
    Run {
        stdout,
        stderr,
        code: status.code(),
    }
}

/// All that `from` gives until it closes, read on a thread and sent whole.
fn read_to_end(mut from: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        let _ = tx.send(bytes);
    });
    rx
}

/// Time left until `deadline`.
fn left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// Engines started with [`Engine::start_alone`] run one at a time.
static ALONE: Mutex<()> = Mutex::new(());

/// The engine kept open, stdin piped, stdout read line by line on a
/// thread (stderr dropped). Killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Held while the engine runs, for [`Engine::start_alone`].
    _turn: Option<MutexGuard<'static, ()>>,
}

impl Engine {
    /// Starts `cavalier` with no arguments: the UCI loop.
    pub fn start() -> Engine {
        Engine::launch(None)
    }

    /// Starts the UCI loop once no other engine of this test file started
    /// this way is running: for tests whose engines may search on every
    /// core, and whose timing checks (stop within 50 ms) must measure the
    /// engine, not the scheduler.
    pub fn start_alone() -> Engine {
        let turn = ALONE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Engine::launch(Some(turn))
    }

    fn launch(turn: Option<MutexGuard<'static, ()>>) -> Engine {
        let mut child = Command::new(BINARY)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            _turn: turn,
        }
    }

    /// Writes `text` and a newline.
    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Writes `bytes` as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the engine's stdin: the end of its input.
    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_line(prefix, |l| l.starts_with(prefix))
    }

    /// Lines up to and including the first that `done` accepts (`what`
    /// names it in a failure); fails the test after [`LINE_LIMIT`].
    pub fn until_line(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_line_within(what, done, LINE_LIMIT)
    }

    /// Lines up to and including the first that starts with `prefix`,
    /// waiting up to `limit` (for a search that takes seconds by design).
    pub fn until_within(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        self.until_line_within(prefix, |l| l.starts_with(prefix), limit)
    }

    /// [`Engine::until_line`] with a limit of its own.
    pub fn until_line_within(
        &mut self,
        what: &str,
        done: impl Fn(&str) -> bool,
        limit: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(left(deadline)) {
                Ok(line) => {
                    let done = done(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no line matching {what:?}; saw {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output waiting for {what:?}; saw {seen:#?}")
                }
            }
        }
    }

    /// The lines written so far and not yet read, without waiting.
    pub fn lines_so_far(&mut self) -> Vec<String> {
        self.lines.try_iter().collect()
    }

    /// Sends `go` and returns the move of the `bestmove` answer (or
    /// `(none)`).
    pub fn best_move(&mut self, go: &str) -> String {
        self.send(go);
        let lines = self.until("bestmove");
        let last = lines.last().unwrap();
        last.split_whitespace()
            .nth(1)
            .expect("a move after bestmove")
            .to_string()
    }

    /// Sends `isready` and waits for `readyok`.
    pub fn ready(&mut self) {
        self.send("isready");
        self.until("readyok");
    }

    /// Searches `fen` with `go`; returns the last info line with a score
    /// and the bestmove line.
    pub fn search(&mut self, fen: &str, go: &str) -> (String, String) {
        self.send(&format!("position fen {fen}"));
        self.send(go);
        let lines = self.until("bestmove");
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && l.contains(" score "))
            .cloned()
            .unwrap_or_default();
        (info, lines.last().cloned().unwrap())
    }

    /// The engine's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The exit status if the engine has ended, without waiting.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().expect("the engine is waited for")
    }

    /// Waits for the engine to end; fails the test after [`LINE_LIMIT`].
    pub fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + LINE_LIMIT;
        loop {
            if let Some(status) = self.try_wait() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine still runs {LINE_LIMIT:?} after it was told to end"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
