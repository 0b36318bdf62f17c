//! `fray mods`: lists the mods the other commands would load, in load order, with their errors.

use std::process::ExitCode;

use clap::Args;

use super::ModArgs;
use crate::levels::mods::{self, Mod, ModSet};

/// Arguments of `fray mods` (the mods themselves come from `--mod` and the installed folder).
#[derive(Debug, Args)]
pub struct ModsArgs {}

/// Prints where installed mods live, then each mod: in load order when they all load, else
/// each one found with its errors.
pub fn run(_args: &ModsArgs, choice: &ModArgs) -> ExitCode {
    say!("installed mods: {}", mods::installed_dir().display());
    let folders = match choice.folders() {
        Ok(folders) => folders,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    if folders.is_empty() {
        say!("no mods enabled");
        return ExitCode::SUCCESS;
    }
    match ModSet::open(&folders) {
        Ok(set) => {
            for (at, one) in set.iter().enumerate() {
                say!("{}. {}", at + 1, describe(one));
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for folder in &folders {
                match Mod::open(folder) {
                    Ok(one) => say!("- {}", describe(&one)),
                    Err(_) => say!("- {} (does not open)", folder.display()),
                }
            }
            for error in &errors {
                eprintln!("{error}");
            }
            ExitCode::FAILURE
        }
    }
}

fn describe(one: &Mod) -> String {
    format!("{} {} \"{}\" ({})", one.id(), one.manifest.version, one.manifest.name, one.dir.display())
}
