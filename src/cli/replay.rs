//! `fray replay FILE`: plays a saved battle or a JSON Lines combat log back in the window, event
//! by event; `fray replay --verify FILE` plays it again headless and says whether it reproduces
//! byte for byte (the exit code tells scripts).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::CommandMods;
use crate::save::verify::{self, Verdict};

/// Arguments of `fray replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A save (`.ron`) or a JSON Lines combat log (`fray sim --log`).
    pub file: PathBuf,
    /// Re-simulate and compare instead of showing the battle; exits 0 only if it reproduces.
    #[arg(long)]
    pub verify: bool,
    /// The level a log was played on, when it is not a shipped one.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<PathBuf>,
    /// Play this script of key presses, clicks and checks in the window, then quit (tests).
    #[cfg(feature = "gui")]
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Where the script's screenshots go.
    #[cfg(feature = "gui")]
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
    /// Start with every sound off.
    #[cfg(feature = "gui")]
    #[arg(long)]
    pub mute: bool,
}

/// Exit code when the battle does not reproduce.
const DIFFERS: u8 = 1;
/// Exit code when the file cannot be verified at all (unreadable, corrupt, or lacking what a
/// replay needs).
const CANNOT_VERIFY: u8 = 2;

/// Runs `fray replay`, its level loaded with `mods`.
pub fn run(args: &ReplayArgs, mods: &CommandMods) -> ExitCode {
    if !args.verify {
        return view(args, mods);
    }
    let verdict = if verify::is_log(&args.file) {
        verify::verify_log(&args.file, args.level.as_deref(), &mods.set)
    } else {
        verify::verify_save(&args.file, &mods.set)
    };
    match verdict {
        Ok(Verdict::Reproduced(battles)) => {
            say!(
                "{}: reproduced byte for byte ({battles} battle{})",
                args.file.display(),
                if battles == 1 { "" } else { "s" }
            );
            ExitCode::SUCCESS
        }
        Ok(Verdict::Differs(problem)) => {
            eprintln!("{}: does not reproduce: {problem}", args.file.display());
            ExitCode::from(DIFFERS)
        }
        Err(error) => {
            eprintln!("{error}");
            ExitCode::from(CANNOT_VERIFY)
        }
    }
}

/// Opens the recorded battle in the window. The file is read and played headless first, so a
/// broken one is a `file:line:column` message before any window opens.
#[cfg(feature = "gui")]
fn view(args: &ReplayArgs, mods: &CommandMods) -> ExitCode {
    let source = match crate::game::model::playback::PlaybackSource::open(&args.file, args.level.as_deref(), &mods.set)
    {
        Ok(source) => source,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(CANNOT_VERIFY);
        }
    };
    if let Some(script) = &args.script
        && let Err(error) = crate::game::script::load(script)
    {
        eprintln!("{error}");
        return ExitCode::from(CANNOT_VERIFY);
    }
    let options = crate::game::LaunchOptions {
        playback: Some(source),
        script: args.script.clone(),
        screenshots: args.screenshots.clone(),
        mute: args.mute,
        ..Default::default()
    };
    super::play::open_window(options, mods)
}

/// Without the window game there is nothing to show the battle in.
#[cfg(not(feature = "gui"))]
fn view(args: &ReplayArgs, _mods: &CommandMods) -> ExitCode {
    eprintln!(
        "fray replay: this fray is built without the window; `fray replay --verify {}` checks that it reproduces",
        args.file.display()
    );
    ExitCode::from(CANNOT_VERIFY)
}
