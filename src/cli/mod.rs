//! The command line: `fray sim`, `fray arena`, `fray check`, `fray replay`, `fray schema`, `fray new-level` (and, with the window game, `fray play`).

/// Prints a line to stdout; a closed pipe (`fray sim | head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub mod arena;
pub mod bench;
mod check;
mod new_level;
#[cfg(feature = "gui")]
mod play;
mod replay;
mod schema;
pub mod sim;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Fray: tabletop combat chapters, played exactly as written.
#[derive(Debug, Parser)]
#[command(name = "fray", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run AI-only battles to the end and report the result.
    Sim(sim::SimArgs),
    /// Pit AIs against each other in mirrored pairs of games and report win rates.
    Arena(arena::ArenaArgs),
    /// Validate levels, rulesets and catalog files; exits non-zero on any error.
    Check(check::CheckArgs),
    /// Time rounds of generated mass battles (or write one as a level).
    Bench(bench::BenchArgs),
    /// Check that a save or a combat log plays again byte for byte (`--verify`).
    Replay(replay::ReplayArgs),
    /// Write a commented starter level that passes `fray check`.
    NewLevel(new_level::NewLevelArgs),
    /// Print the JSON Schema of a level, ruleset or catalog file (for editors).
    Schema(schema::SchemaArgs),
    /// Open the window game on a level, skipping the menu.
    #[cfg(feature = "gui")]
    Play(play::PlayArgs),
}

/// Parses the arguments and runs the command.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Arena(args)) => arena::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Schema(args)) => schema::run(&args),
        Some(Command::NewLevel(args)) => new_level::run(&args),
        #[cfg(feature = "gui")]
        Some(Command::Play(args)) => play::run(&args),
        #[cfg(feature = "gui")]
        None => play::menu(),
        #[cfg(not(feature = "gui"))]
        None => {
            eprintln!("fray: built without the window game; try `fray sim` to watch the AIs fight, or `fray --help`");
            ExitCode::from(2)
        }
    }
}
