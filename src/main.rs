//! The `cavalier` binary: argument dispatch only.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cavalier::cli::run(&args));
}
