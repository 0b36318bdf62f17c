//! `fray check FILE...`: validates levels, rulesets and catalog files, reporting every error.

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

/// Checks each file; prints `ok` lines to stdout and errors to stderr.
pub fn run(args: &CheckArgs) -> ExitCode {
    let mut failed = 0;
    for path in &args.files {
        match check_file(path) {
            Ok(summary) => say!("ok: {}: {summary}", path.display()),
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
