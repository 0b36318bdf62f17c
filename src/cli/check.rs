//! `fray check FILE...`: validates levels, rulesets and catalog files, reporting every error
//! and warning.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::levels::check_file;

/// Arguments of `fray check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Level, ruleset or catalog files (`.ron`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Checks each file; prints `ok` lines to stdout, and errors and warnings to stderr. Only
/// errors fail the check.
pub fn run(args: &CheckArgs) -> ExitCode {
    let mut failed = 0;
    // Levels that share a ruleset would repeat its warnings.
    let mut warned = HashSet::new();
    for path in &args.files {
        match check_file(path) {
            Ok(checked) => {
                for warning in checked.warnings {
                    let line = warning.to_string();
                    if warned.insert(line.clone()) {
                        eprintln!("{line}");
                    }
                }
                say!("ok: {}: {}", path.display(), checked.summary);
            }
            Err(errors) => {
                failed += 1;
                eprintln!("{errors}");
            }
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("{failed} of {} file(s) have errors", args.files.len());
        ExitCode::FAILURE
    }
}
