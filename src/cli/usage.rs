//! The program's usage text, shown by `--help` and after a bad command
//! line: the engine's subcommands, then the lab's.

/// The program's usage, shown by `--help` and after a bad command line.
pub const USAGE: &str = "usage: cavalier [uci]                        UCI engine on stdin/stdout
       cavalier \"LINE\"...                    the UCI engine, reading the arguments first
                                             (cavalier \"genfens 8 seed 1 book None\" quit)
       cavalier bench [depth] [--hce | --net FILE]
                                             fixed positions, fixed depth, N nodes M nps
                                             (the network evaluates; --hce: the hand-written
                                             evaluation)
       cavalier book [--file F] [FEN | moves]  book moves and weights of a position
       cavalier book [--file F] --check [--depth D]
                                             search every line's end; flag > 1.5 pawns
       cavalier play [options]               a game against the engine in the terminal
                                             (cavalier play --help for the options)
       cavalier tour <square> [options]      knight's tours (cavalier tour --help)
       cavalier perft <depth> [FEN] [--threads N] [--hash MB] [--chess960]
                                             divide counts, nodes, time, nps
       cavalier perft --suite FILE [--depth D] [--threads N] [--hash MB]
                                             check a FEN ;D1 n ;D2 n ... suite
       cavalier syzygy PATH [FILE]           probe the FENs of FILE (or stdin) in the Syzygy
                                             tables of PATH: FEN;WDL;DTZ a line
       cavalier --version                    the version

lab tools, in the build made by cargo build --release --features lab:
       cavalier selfplay [options]           self-play games written as positions with
                                             results (cavalier selfplay --help)
       cavalier tune FILE [options]          fit the evaluation weights to those results
                                             (cavalier tune --help)
       cavalier wdl FILE [options]           fit the win/draw/loss model to those results
                                             and scores (cavalier wdl --help)
       cavalier epd FILE [--movetime MS | --nodes N]
                                             run an EPD suite (bm/am), count the solved
       cavalier net pack|train|eval ...      the evaluation network's data and trainer
                                             (cavalier net --help)";

/// The lab's subcommands ([`crate::lab`]): a build without the `lab`
/// feature answers them with the command that builds them.
pub const LAB_TOOLS: [&str; 5] = ["selfplay", "tune", "wdl", "epd", "net"];

/// How to build the lab tools.
pub const LAB_BUILD: &str = "cargo build --release --features lab";
