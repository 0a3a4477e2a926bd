//! The UCI options: one table, [`OPTIONS`], from which both the `uci`
//! listing and `setoption` are made, and the [`UciOptions`] they set.
//!
//! Part of the protocol layer: imports `book`, `chess`, `engine` and
//! `util`.

use super::{Engine, Output};
use crate::book::Book;
use crate::chess::board::Board;
use crate::engine::nnue::{load, NetSource, Network, EMBEDDED_NAME, USE_BY_DEFAULT};
use crate::engine::params;
use crate::engine::skill::{MAX_ELO, MAX_SKILL, MIN_ELO};
use crate::engine::syzygy::{Tablebases, TbConfig, DEFAULT_CACHE_BYTES};
use crate::engine::tt::{TranspositionTable, MAX_HASH_MB};
use crate::util::text::quote;
use std::sync::Arc;

/// `Hash` when the GUI does not set it (MB).
pub const DEFAULT_HASH_MB: i64 = 16;
const DEFAULT_OVERHEAD_MS: i64 = 30;
const MAX_OVERHEAD_MS: i64 = 5_000;
const MAX_MULTIPV: i64 = 256;
const MAX_THREADS: i64 = 1024;
/// `UCI_Elo` default: inside the measured range, as GUIs require.
const DEFAULT_ELO: i64 = 1500;
/// Memory (MB) left to the rest of the system when `Hash` is checked
/// against the memory available.
const HASH_MEMORY_RESERVE_MB: usize = 64;
/// `UCI_Opponent`'s default: none named (the GUI sends `title elo type
/// name`; it is logged, and changes nothing).
const EMPTY_OPPONENT: &str = "<empty>";
/// `Debug Log File`'s default: no log.
const EMPTY_LOG_FILE: &str = "<empty>";
/// `BookFile`'s default: the embedded book.
const EMPTY_BOOK_FILE: &str = "<empty>";
/// `SyzygyPath`'s default: no tablebases.
const EMPTY_SYZYGY_PATH: &str = "<empty>";
/// Most pieces of a Syzygy table.
const MAX_TB_PIECES: i64 = 7;
/// `SyzygyCacheMB`: the tables' pages kept in memory (the files are read
/// by pages as probes need them), default and most.
const DEFAULT_SYZYGY_CACHE_MB: i64 = (DEFAULT_CACHE_BYTES >> 20) as i64;
const MAX_SYZYGY_CACHE_MB: i64 = 65_536;

/// The engine's options, as set with `setoption`.
#[derive(Clone, Debug)]
pub struct UciOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead: i64,
    pub ponder: bool,
    pub multipv: usize,
    pub chess960: bool,
    pub own_book: bool,
    /// Empty for the embedded book.
    pub book_file: String,
    /// 0..=20; 20 is full strength.
    pub skill_level: i64,
    pub limit_strength: bool,
    pub elo: i64,
    pub show_wdl: bool,
    /// The 1993 engine (`Style Classic`) instead of the modern search.
    pub classic: bool,
    /// `Use NNUE`: the modern search evaluates with the network.
    pub use_nnue: bool,
    /// `EvalFile`: the network's file; empty for the embedded network.
    pub eval_file: String,
    /// The GUI analyses (`UCI_AnalyseMode`): never answer from the book.
    pub analyse_mode: bool,
    /// `SyzygyPath`: folders of tablebase files (empty for none).
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`: interior nodes are probed from this depth on.
    pub syzygy_probe_depth: i64,
    /// `SyzygyProbeLimit`: most pieces probed.
    pub syzygy_probe_limit: i64,
    /// `Syzygy50MoveRule`: wins the fifty-move rule draws are draws.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyCacheMB`: most MB of table pages kept in memory.
    pub syzygy_cache_mb: i64,
}

impl Default for UciOptions {
    fn default() -> Self {
        UciOptions {
            hash_mb: DEFAULT_HASH_MB as usize,
            threads: 1,
            move_overhead: DEFAULT_OVERHEAD_MS,
            ponder: false,
            multipv: 1,
            chess960: false,
            own_book: true,
            book_file: String::new(),
            skill_level: MAX_SKILL as i64,
            limit_strength: false,
            elo: DEFAULT_ELO,
            show_wdl: false,
            classic: false,
            use_nnue: USE_BY_DEFAULT,
            eval_file: String::new(),
            analyse_mode: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: MAX_TB_PIECES,
            syzygy_50_move_rule: true,
            syzygy_cache_mb: DEFAULT_SYZYGY_CACHE_MB,
        }
    }
}

/// An option's UCI type, its range or choices, and what setting it does.
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut Engine, i64),
    },
    Check {
        default: bool,
        set: fn(&mut Engine, bool),
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        set: fn(&mut Engine, &'static str),
    },
    Button {
        press: fn(&mut Engine),
    },
    Text {
        default: &'static str,
        set: fn(&mut Engine, &str),
    },
}

/// One UCI option.
pub struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
}

/// Every option, in the order `uci` lists them.
pub static OPTIONS: [UciOption; 24] = [
    UciOption {
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_MB,
            min: 1,
            max: MAX_HASH_MB as i64,
            set: |e, mb| e.set_hash(mb as usize),
        },
    },
    UciOption {
        name: "Clear Hash",
        kind: Kind::Button {
            press: Engine::clear_hash,
        },
    },
    UciOption {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
            set: |e, v| e.options.threads = v as usize,
        },
    },
    UciOption {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: DEFAULT_OVERHEAD_MS,
            min: 0,
            max: MAX_OVERHEAD_MS,
            set: |e, v| e.options.move_overhead = v,
        },
    },
    UciOption {
        name: "Ponder",
        kind: Kind::Check {
            default: false,
            set: |e, v| e.options.ponder = v,
        },
    },
    UciOption {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
            set: |e, v| e.options.multipv = v as usize,
        },
    },
    UciOption {
        name: "UCI_Chess960",
        kind: Kind::Check {
            default: false,
            set: Engine::set_chess960,
        },
    },
    UciOption {
        name: "OwnBook",
        kind: Kind::Check {
            default: true,
            set: |e, v| e.options.own_book = v,
        },
    },
    UciOption {
        name: "BookFile",
        kind: Kind::Text {
            default: EMPTY_BOOK_FILE,
            set: Engine::set_book_file,
        },
    },
    UciOption {
        name: "Skill Level",
        kind: Kind::Spin {
            default: MAX_SKILL as i64,
            min: 0,
            max: MAX_SKILL as i64,
            set: |e, v| e.options.skill_level = v,
        },
    },
    UciOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check {
            default: false,
            set: |e, v| e.options.limit_strength = v,
        },
    },
    UciOption {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: DEFAULT_ELO,
            min: MIN_ELO,
            max: MAX_ELO,
            set: |e, v| e.options.elo = v,
        },
    },
    UciOption {
        name: "UCI_ShowWDL",
        kind: Kind::Check {
            default: false,
            set: |e, v| e.options.show_wdl = v,
        },
    },
    UciOption {
        name: "UCI_AnalyseMode",
        kind: Kind::Check {
            default: false,
            set: |e, v| e.options.analyse_mode = v,
        },
    },
    UciOption {
        name: "UCI_Opponent",
        kind: Kind::Text {
            default: EMPTY_OPPONENT,
            set: |_, v| log::info!("opponent: {v}"),
        },
    },
    UciOption {
        name: "Debug Log File",
        kind: Kind::Text {
            default: EMPTY_LOG_FILE,
            set: Engine::set_debug_log,
        },
    },
    UciOption {
        name: "Style",
        kind: Kind::Combo {
            default: "Modern",
            vars: &["Modern", "Classic"],
            set: |e, v| e.options.classic = v == "Classic",
        },
    },
    UciOption {
        name: "Use NNUE",
        kind: Kind::Check {
            default: USE_BY_DEFAULT,
            set: |e, v| e.options.use_nnue = v,
        },
    },
    UciOption {
        name: "EvalFile",
        kind: Kind::Text {
            default: EMBEDDED_NAME,
            set: Engine::set_eval_file,
        },
    },
    UciOption {
        name: "SyzygyPath",
        kind: Kind::Text {
            default: EMPTY_SYZYGY_PATH,
            set: Engine::set_syzygy_path,
        },
    },
    UciOption {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
            set: |e, v| e.options.syzygy_probe_depth = v,
        },
    },
    UciOption {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: MAX_TB_PIECES,
            min: 0,
            max: MAX_TB_PIECES,
            set: |e, v| e.options.syzygy_probe_limit = v,
        },
    },
    UciOption {
        name: "Syzygy50MoveRule",
        kind: Kind::Check {
            default: true,
            set: |e, v| e.options.syzygy_50_move_rule = v,
        },
    },
    UciOption {
        name: "SyzygyCacheMB",
        kind: Kind::Spin {
            default: DEFAULT_SYZYGY_CACHE_MB,
            min: 1,
            max: MAX_SYZYGY_CACHE_MB,
            set: Engine::set_syzygy_cache,
        },
    },
];

impl UciOption {
    /// The option's line in the answer to `uci`.
    pub fn listing(&self) -> String {
        let name = self.name;
        match &self.kind {
            Kind::Spin {
                default, min, max, ..
            } => format!("option name {name} type spin default {default} min {min} max {max}"),
            Kind::Check { default, .. } => {
                format!("option name {name} type check default {default}")
            }
            Kind::Combo { default, vars, .. } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Button { .. } => format!("option name {name} type button"),
            Kind::Text { default, .. } => {
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// Sets the option to `value` (trimmed), or says why not. `typed` is
    /// the name as the GUI wrote it, for messages.
    fn apply(&self, engine: &mut Engine, typed: &str, value: Option<&str>) {
        match self.kind {
            Kind::Spin { min, max, set, .. } => {
                if let Some(v) = spin(&engine.out, typed, value, min, max) {
                    set(engine, v);
                }
            }
            Kind::Check { set, .. } => {
                if let Some(v) = check(&engine.out, typed, value) {
                    set(engine, v);
                }
            }
            Kind::Combo { vars, set, .. } => {
                match vars
                    .iter()
                    .find(|v| value.is_some_and(|t| t.eq_ignore_ascii_case(v)))
                {
                    Some(v) => set(engine, v),
                    None => engine.out.error(&format!(
                        "option \"{}\" is {}; unchanged",
                        self.name,
                        vars.join(" or ")
                    )),
                }
            }
            Kind::Button { press } => press(engine),
            Kind::Text { set, .. } => set(engine, value.unwrap_or("")),
        }
    }
}

/// Splits `setoption name <option> [value <v>]` into the option's name
/// (its words joined by single spaces) and the trimmed value, or says
/// what is missing.
fn name_and_value(args: &[&str]) -> Result<(String, Option<String>), &'static str> {
    let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
    let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let n = name_at.ok_or("setoption needs \"name <option> [value <v>]\"")?;
    let name_end = value_at.unwrap_or(args.len());
    if name_end <= n + 1 {
        return Err("setoption: missing option name");
    }
    let value = value_at.map(|v| args[v + 1..].join(" ").trim().to_string());
    Ok((args[n + 1..name_end].join(" "), value))
}

impl Engine {
    pub(super) fn uci(&self) {
        let o = &self.out;
        o.line(&format!("id name cavalier {}", env!("CARGO_PKG_VERSION")));
        o.line("id author the cavalier developers");
        for option in &OPTIONS {
            o.line(&option.listing());
        }
        // A tuning build lists the search parameters too.
        if cfg!(feature = "tune") {
            for p in params::PARAMS {
                o.line(&format!(
                    "option name {} type spin default {} min {} max {}",
                    p.name, p.default, p.min, p.max
                ));
            }
        }
        o.line("uciok");
    }

    pub(super) fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match name_and_value(args) {
            Ok(parsed) => parsed,
            Err(e) => return self.out.error(e),
        };
        match OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&name)) {
            Some(option) => option.apply(self, &name, value.as_deref()),
            None if cfg!(feature = "tune") && params::PARAMS.iter().any(|p| p.name == name) => {
                self.set_param(&name, value.as_deref())
            }
            None => self
                .out
                .error(&format!("unknown option \"{}\"", quote(&name))),
        }
    }

    /// A search parameter of a tuning build (`engine::params`).
    fn set_param(&mut self, name: &str, value: Option<&str>) {
        let Some(p) = params::PARAMS.iter().find(|p| p.name == name) else {
            return;
        };
        if let Some(v) = spin(&self.out, name, value, p.min as i64, p.max as i64) {
            if let Err(e) = params::set(name, v) {
                self.out.error(&e);
            }
        }
    }

    /// `Hash`: a new table of `mb` megabytes if the memory is there, now
    /// or when the running search ends.
    fn set_hash(&mut self, mb: usize) {
        if let Some(avail) = available_memory_mb() {
            if mb > avail.saturating_sub(HASH_MEMORY_RESERVE_MB) {
                self.out.error(&format!(
                    "Hash {mb} MB is more than the {avail} MB of memory available; kept {} MB",
                    self.options.hash_mb
                ));
                return;
            }
        }
        self.pending_hash_mb = Some(mb);
        self.apply_pending_hash();
        if self.pending_hash_mb.is_some() {
            self.out.line(&format!(
                "info string Hash {mb} MB takes effect when the current search ends"
            ));
        }
    }

    /// Makes a `Hash` change take effect unless a search still runs.
    pub(super) fn apply_pending_hash(&mut self) {
        self.reap();
        if self.pool.is_running() {
            return;
        }
        if let Some(mb) = self.pending_hash_mb.take() {
            self.tt = Arc::new(TranspositionTable::new(mb));
            self.options.hash_mb = mb;
        }
    }

    fn clear_hash(&mut self) {
        if self.pool.is_running() {
            self.out.error("Clear Hash ignored during a search");
        } else {
            self.tt.clear_with(self.options.threads);
        }
    }

    fn set_chess960(&mut self, on: bool) {
        self.options.chess960 = on;
        self.board.set_chess960(on || self.board_needs_960());
    }

    /// A position whose castling geometry only Chess960 allows keeps the
    /// 960 notation even when the option is off.
    fn board_needs_960(&self) -> bool {
        Board::from_fen(&self.board.to_fen()).is_ok_and(|b| b.is_chess960())
    }

    /// Opens (appending) the file the whole UCI dialogue is copied to,
    /// GUI lines as `>> ` and the engine's as `<< `; empty stops it. GUIs
    /// such as Arena and ChessBase hide the engine's stderr.
    fn set_debug_log(&mut self, value: &str) {
        let path = value.trim();
        if path.is_empty() || path == EMPTY_LOG_FILE {
            self.out.set_log(None);
            return;
        }
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(file) => self.out.set_log(Some(file)),
            Err(e) => self.out.error(&format!(
                "cannot open debug log file \"{}\": {e}; log unchanged",
                quote(path)
            )),
        }
    }

    /// Scans the folders of `SyzygyPath`; each folder or file that
    /// cannot be used is an error line naming it, and is left out.
    fn set_syzygy_path(&mut self, value: &str) {
        let path = value.trim();
        let cache = (self.options.syzygy_cache_mb as usize).saturating_mul(1 << 20);
        let (tables, errors) = Tablebases::open_with_cache(path, cache);
        for e in &errors {
            self.out.error(e);
        }
        let off = path.is_empty() || path == EMPTY_SYZYGY_PATH;
        self.options.syzygy_path = if off { String::new() } else { path.to_string() };
        if tables.file_count() == 0 {
            self.tables = None;
            if !off {
                self.out
                    .error("SyzygyPath: no tables found; tablebases off");
            }
            return;
        }
        self.out.line(&format!(
            "info string found {} tablebase files, up to {} pieces",
            tables.file_count(),
            tables.max_pieces()
        ));
        self.tables = Some(Arc::new(tables));
    }

    /// A new cache size applies to tables opened from then on: the folders
    /// of `SyzygyPath`, if any, are scanned again.
    fn set_syzygy_cache(&mut self, mb: i64) {
        self.options.syzygy_cache_mb = mb;
        if self.tables.is_some() {
            let path = self.options.syzygy_path.clone();
            self.set_syzygy_path(&path);
        }
    }

    /// `EvalFile`: loads the network of the file named (the embedded one
    /// for `<embedded>` or nothing). A file that cannot be read or is not
    /// a network is an error, and the network before it stays.
    fn set_eval_file(&mut self, value: &str) {
        let source = NetSource::named(value);
        match load(&source) {
            Ok(net) => {
                self.out.line(&format!(
                    "info string EvalFile {source}: network {} loaded",
                    net.shape()
                ));
                self.network = Some(net);
                self.options.eval_file = match source {
                    NetSource::Embedded => String::new(),
                    NetSource::File(path) => path,
                };
            }
            Err(e) => {
                let kept = NetSource::named(&self.options.eval_file);
                self.out.error(&format!("EvalFile: {e}; keeping {kept}"));
            }
        }
    }

    /// The network the modern search is to evaluate with: `None` unless
    /// `Use NNUE` is on; the `EvalFile` one, the embedded one by default.
    pub(super) fn search_network(&mut self) -> Option<Arc<Network>> {
        if !self.options.use_nnue {
            return None;
        }
        if self.network.is_none() {
            match load(&NetSource::named(&self.options.eval_file)) {
                Ok(net) => self.network = Some(net),
                Err(e) => {
                    self.out
                        .error(&format!("{e}; the hand-written evaluation evaluates"));
                    return None;
                }
            }
        }
        self.network.clone()
    }

    /// How the search is to use the tables, if any were found.
    pub(super) fn tb_config(&self) -> Option<TbConfig> {
        let tables = self.tables.as_ref()?;
        (self.options.syzygy_probe_limit > 0).then(|| TbConfig {
            tables: Arc::clone(tables),
            probe_depth: self.options.syzygy_probe_depth as i32,
            probe_limit: self.options.syzygy_probe_limit as usize,
            rule50: self.options.syzygy_50_move_rule,
        })
    }

    fn set_book_file(&mut self, value: &str) {
        let path = value.trim();
        if path.is_empty() || path == EMPTY_BOOK_FILE {
            self.book = None;
            self.options.book_file.clear();
            return;
        }
        let (book, errors) = Book::load(path);
        for e in &errors {
            self.out.error(&e.to_string());
        }
        match book {
            Some(b) => {
                self.book = Some(b);
                self.options.book_file = path.to_string();
            }
            None => self.out.error(&format!(
                "no usable book in \"{}\"; {}",
                quote(path),
                if self.options.book_file.is_empty() {
                    "keeping the embedded book".to_string()
                } else {
                    format!("keeping \"{}\"", self.options.book_file)
                }
            )),
        }
    }
}

/// Megabytes of memory the system says it can still give, if known.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Parses a spin value, clamping it into range with a message.
fn spin(out: &Output, name: &str, value: Option<&str>, min: i64, max: i64) -> Option<i64> {
    let Some(text) = value else {
        out.error(&format!("option \"{name}\" needs a value"));
        return None;
    };
    let v = match text.parse::<i64>() {
        Ok(v) => v,
        // Out-of-range integers clamp; anything else is refused.
        Err(_) if is_integer(text) => {
            if text.starts_with('-') {
                i64::MIN
            } else {
                i64::MAX
            }
        }
        Err(_) => {
            out.error(&format!(
                "option \"{name}\": \"{}\" is not a whole number; unchanged",
                quote(text)
            ));
            return None;
        }
    };
    if v < min || v > max {
        let c = v.clamp(min, max);
        out.error(&format!(
            "option \"{name}\": {} is outside {min}..{max}; using {c}",
            quote(text)
        ));
        return Some(c);
    }
    Some(v)
}

/// Digits, with any number of leading minus signs (as the old parser
/// accepted), and not empty.
fn is_integer(text: &str) -> bool {
    !text.is_empty()
        && text
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
}

fn check(out: &Output, name: &str, value: Option<&str>) -> Option<bool> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => {
            out.error(&format!(
                "option \"{name}\" needs \"true\" or \"false\"; unchanged"
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Setting every option to its listed default leaves the default
    /// options unchanged: the table and `UciOptions::default` agree.
    #[test]
    fn table_defaults_are_the_default_options() {
        let mut engine = Engine::new(Output::new(Box::new(std::io::sink())));
        let before = format!("{:?}", engine.options);
        assert_eq!(before, format!("{:?}", UciOptions::default()));
        for option in &OPTIONS {
            match option.kind {
                Kind::Spin { default, set, .. } => set(&mut engine, default),
                Kind::Check { default, set } => set(&mut engine, default),
                Kind::Combo { default, set, .. } => set(&mut engine, default),
                Kind::Button { .. } => {}
                Kind::Text { default, set } => set(&mut engine, default),
            }
        }
        assert_eq!(format!("{:?}", engine.options), before);
    }

    #[test]
    fn default_elo_is_a_limited_level() {
        use crate::engine::skill::skill_for_elo;
        assert!((MIN_ELO..=MAX_ELO).contains(&DEFAULT_ELO));
        assert!(skill_for_elo(DEFAULT_ELO) < MAX_SKILL);
    }
}
