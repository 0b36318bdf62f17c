//! The command line: `fray sim`, `fray arena`, `fray check`, `fray replay`, `fray schema`, `fray new-level`, `fray mods`, `fray serve`, `fray join` (and, with the window game, `fray play`).

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
mod mods;
mod new_level;
mod online;
#[cfg(feature = "gui")]
mod play;
mod replay;
mod schema;
pub mod sim;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::levels::mods::ModSet;

/// Fray: tabletop combat chapters, played exactly as written.
#[derive(Debug, Parser)]
#[command(name = "fray", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Which mods to load.
    #[command(flatten)]
    pub mods: ModArgs,
}

impl Cli {
    /// Whether the command opens the window game (the menu, or `fray play`).
    fn opens_the_window(&self) -> bool {
        #[cfg(feature = "gui")]
        if matches!(self.command, Some(Command::Play(_))) {
            return true;
        }
        self.command.is_none()
    }
}

/// The mods every command loads: the enabled installed mods (`mods/` in the data folder), then
/// each `--mod` folder in the order given (one with an installed mod's id takes its place);
/// dependencies and `load_after` may move a mod later. Later mods win.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ModArgs {
    /// A mod folder to load after the installed mods (repeatable; later ones win).
    #[arg(long = "mod", value_name = "DIR", global = true)]
    pub mods: Vec<PathBuf>,
    /// Load no installed mods, only the `--mod` ones.
    #[arg(long, global = true)]
    pub no_installed_mods: bool,
}

impl ModArgs {
    /// The mod folders to open, in the order given to the load order.
    pub fn folders(&self) -> Result<Vec<PathBuf>, crate::levels::mods::ModError> {
        use crate::levels::mods;
        let installed =
            if self.no_installed_mods { Vec::new() } else { mods::enabled_installed(&mods::installed_dir())? };
        Ok(mods::with_command_line(installed, &self.mods))
    }

    /// Opens the mods and puts them in load order, for the command to load its levels with;
    /// prints every error (each naming its mod and file) when they cannot load.
    pub fn activate(&self) -> Result<ModSet, ExitCode> {
        let opened = self.folders().map_err(|error| vec![error]).and_then(|dirs| ModSet::open(&dirs));
        match opened {
            Ok(set) => Ok(set),
            Err(errors) => {
                for error in &errors {
                    eprintln!("{error}");
                }
                eprintln!("{} mod error(s); fix them, or leave the mod out", errors.len());
                Err(ExitCode::FAILURE)
            }
        }
    }
}

/// The mods a command runs with: those [`ModArgs::activate`] opened, and the `--mod` folders
/// (which the window keeps when its Mods screen changes the installed mods).
#[derive(Clone, Debug, Default)]
pub struct CommandMods {
    /// The mods, in load order.
    pub set: ModSet,
    /// The `--mod` folders, in command-line order.
    pub folders: Vec<PathBuf>,
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
    /// List the installed and `--mod` mods, their load order and their errors.
    Mods(mods::ModsArgs),
    /// Print the JSON Schema of a level, ruleset, catalog file or mod.ron (for editors).
    Schema(schema::SchemaArgs),
    /// Referee one online battle, headless: players and spectators join it over UDP.
    Serve(online::ServeArgs),
    /// Join an online battle (`--headless`: a local AI plays the seat, or `--spectate`).
    Join(online::JoinArgs),
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
    match &cli.command {
        Some(Command::Mods(args)) => return mods::run(args, &cli.mods),
        // A schema does not depend on content: broken installed mods must not stop it.
        Some(Command::Schema(args)) => return schema::run(args),
        _ => {}
    }
    let set = match cli.mods.activate() {
        Ok(set) => set,
        // The window opens even when mods are broken (without them): its Mods section shows why.
        Err(_) if cli.opens_the_window() => ModSet::default(),
        Err(code) => return code,
    };
    let mods = CommandMods { set, folders: cli.mods.mods.clone() };
    match cli.command {
        Some(Command::Mods(_)) | Some(Command::Schema(_)) => ExitCode::SUCCESS,
        Some(Command::Sim(args)) => sim::run(&args, &mods.set),
        Some(Command::Arena(args)) => arena::run(&args, &mods.set),
        Some(Command::Check(args)) => check::run(&args, &mods),
        Some(Command::Bench(args)) => bench::run(&args, &mods.set),
        Some(Command::Replay(args)) => replay::run(&args, &mods),
        Some(Command::NewLevel(args)) => new_level::run(&args, &mods.set),
        Some(Command::Serve(args)) => online::serve(&args, &mods.set),
        Some(Command::Join(args)) => online::join(&args, &mods),
        #[cfg(feature = "gui")]
        Some(Command::Play(args)) => play::run(&args, &mods),
        #[cfg(feature = "gui")]
        None => play::menu(&mods),
        #[cfg(not(feature = "gui"))]
        None => {
            eprintln!("fray: built without the window game; try `fray sim` to watch the AIs fight, or `fray --help`");
            ExitCode::from(2)
        }
    }
}

/// A progress bar over `len` runs counted as `noun` ("battles", "games"), in the commands' one style.
fn progress_bar(len: u64, noun: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {noun} {{per_sec}} eta {{eta}}");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
