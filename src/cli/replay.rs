//! `fray replay --verify FILE`: plays a saved battle or a JSON Lines combat log again and says
//! whether it reproduces byte for byte (the exit code tells scripts).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

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
}

/// Exit code when the battle does not reproduce.
const DIFFERS: u8 = 1;
/// Exit code when the file cannot be verified at all (unreadable, corrupt, or lacking what a
/// replay needs).
const CANNOT_VERIFY: u8 = 2;

/// Whether `path` holds a JSON Lines log rather than a save.
fn is_log(path: &Path) -> bool {
    if path.extension().is_some_and(|ext| ext == "jsonl" || ext == "json") {
        return true;
    }
    std::fs::read_to_string(path).is_ok_and(|text| text.trim_start().starts_with('{'))
}

/// Runs `fray replay`.
pub fn run(args: &ReplayArgs) -> ExitCode {
    if !args.verify {
        eprintln!(
            "fray replay: playback in the window is not built yet; `fray replay --verify {}` checks that it reproduces, \
             and `fray play --load FILE` goes on with a save",
            args.file.display()
        );
        return ExitCode::from(CANNOT_VERIFY);
    }
    let verdict = if is_log(&args.file) {
        verify::verify_log(&args.file, args.level.as_deref())
    } else {
        verify::verify_save(&args.file)
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
