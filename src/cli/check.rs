//! `fray check FILE...`: validates levels, rulesets and catalog files, reporting every error
//! and warning; `fray check --mod DIR` with no files checks each whole mod.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::CommandMods;
use crate::levels::mods::Mod;
use crate::levels::{Checked, LoadErrors, check_file, check_mod};

/// Arguments of `fray check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Level, ruleset or catalog files (`.ron`); with none, each `--mod` folder is checked whole.
    pub files: Vec<PathBuf>,
}

/// Checks each file (or each `--mod` mod) with `mods`; prints `ok` lines and notes to stdout,
/// and errors and warnings to stderr. Only errors fail the check.
pub fn run(args: &CheckArgs, mods: &CommandMods) -> ExitCode {
    let mut report = Report::default();
    if args.files.is_empty() {
        if mods.folders.is_empty() {
            eprintln!("fray check: nothing to check; expected files (`fray check levels/duel.ron`) or `--mod DIR`");
            return ExitCode::from(2);
        }
        let set = &mods.set;
        for dir in &mods.folders {
            let label = dir.display().to_string();
            let one = set.iter().find(|one| Mod::open(dir).is_ok_and(|opened| opened.id() == one.id()));
            match one {
                Some(one) => report.add(&label, check_mod(one, set)),
                // `activate` has reported why it did not open.
                None => report.failed += 1,
            }
        }
        return report.finish(mods.folders.len(), "mod(s)");
    }
    for path in &args.files {
        report.add(&path.display().to_string(), check_file(path, &mods.set));
    }
    report.finish(args.files.len(), "file(s)")
}

/// What has been printed so far.
#[derive(Default)]
struct Report {
    failed: usize,
    // Levels that share a ruleset would repeat its warnings.
    warned: HashSet<String>,
}

impl Report {
    fn add(&mut self, label: &str, checked: Result<Checked, LoadErrors>) {
        match checked {
            Ok(checked) => {
                for warning in checked.warnings {
                    let line = warning.to_string();
                    if self.warned.insert(line.clone()) {
                        eprintln!("{line}");
                    }
                }
                for note in checked.notes {
                    say!("{note}");
                }
                say!("ok: {label}: {}", checked.summary);
            }
            Err(errors) => {
                self.failed += 1;
                eprintln!("{errors}");
            }
        }
    }

    fn finish(self, total: usize, what: &str) -> ExitCode {
        if self.failed == 0 {
            ExitCode::SUCCESS
        } else {
            eprintln!("{} of {total} {what} have errors", self.failed);
            ExitCode::FAILURE
        }
    }
}
