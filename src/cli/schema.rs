//! `fray schema KIND`: prints the JSON Schema of a level, a ruleset or a catalog file, for editors.

use std::process::ExitCode;

use clap::Args;

use crate::levels::editor_schema::SchemaKind;

/// Arguments of `fray schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which kind of file.
    pub kind: SchemaKind,
}

/// Prints the schema to stdout.
pub fn run(args: &SchemaArgs) -> ExitCode {
    // `json` ends in a newline already.
    print_raw(&args.kind.json());
    ExitCode::SUCCESS
}

fn print_raw(text: &str) {
    use std::io::Write as _;
    // A closed pipe (`fray schema level | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
}
