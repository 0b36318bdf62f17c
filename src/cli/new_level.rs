//! `fray new-level FILE --ruleset NAME [--grid WxH | --zones N]`: writes a commented starter
//! level that passes `fray check`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::levels::catalog::AssetSource;
use crate::levels::check_file;
use crate::levels::error::not_found;
use crate::levels::mods::ModSet;
use crate::levels::starter::{StarterField, starter_level};

/// Zones in the line when neither `--grid` nor `--zones` is given.
const DEFAULT_ZONES: u32 = 3;

/// Arguments of `fray new-level`.
#[derive(Debug, Args)]
pub struct NewLevelArgs {
    /// The level file to write (`.ron`).
    pub file: PathBuf,
    /// The ruleset the level plays under (a name from `assets/rulesets/`).
    #[arg(long)]
    pub ruleset: String,
    /// A walled square grid, WIDTH x HEIGHT squares (`--grid 16x10`).
    #[arg(long, value_name = "WxH", value_parser = parse_grid, conflicts_with = "zones")]
    pub grid: Option<(u16, u16)>,
    /// This many zones in a line (3 unless `--grid` is given).
    #[arg(long, value_name = "N")]
    pub zones: Option<u32>,
    /// Overwrite FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Reads `16x10` as (16, 10).
fn parse_grid(text: &str) -> Result<(u16, u16), String> {
    let expected = || format!("`{text}` is not a grid size; expected WIDTHxHEIGHT, like `16x10`");
    let (width, height) = text.split_once(['x', 'X']).ok_or_else(expected)?;
    let side = |part: &str| part.trim().parse::<u16>().map_err(|_| expected());
    Ok((side(width)?, side(height)?))
}

/// Writes the level, then checks it as `fray check` would, with `mods`.
pub fn run(args: &NewLevelArgs, mods: &ModSet) -> ExitCode {
    let source = AssetSource::near(&args.file, mods);
    let names = source.ruleset_names();
    if !names.contains(&args.ruleset) {
        let known: Vec<&str> = names.iter().map(String::as_str).collect();
        eprintln!("fray new-level: {}", not_found("ruleset", &args.ruleset, &known));
        return ExitCode::from(2);
    }
    if args.file.exists() && !args.force {
        eprintln!("fray new-level: {} exists already; pass --force to overwrite it", args.file.display());
        return ExitCode::from(2);
    }
    let field = match args.grid {
        Some((width, height)) => StarterField::Grid { width, height },
        None => StarterField::Zones(args.zones.unwrap_or(DEFAULT_ZONES)),
    };
    let text = match starter_level(&args.ruleset, field) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("fray new-level: {error}");
            return ExitCode::from(2);
        }
    };
    if let Err(error) = crate::files::write_atomically(&args.file, text.as_bytes()) {
        eprintln!("fray new-level: cannot write {}: {error}", args.file.display());
        return ExitCode::FAILURE;
    }
    match check_file(&args.file, mods) {
        Ok(checked) => {
            for warning in checked.warnings {
                eprintln!("{warning}");
            }
            say!("wrote {}: {}", args.file.display(), checked.summary);
            ExitCode::SUCCESS
        }
        Err(errors) => {
            // Only a changed catalog or ruleset on disk can get here; the file stays to be fixed.
            eprintln!("fray new-level: wrote {}, but it does not check:\n{errors}", args.file.display());
            ExitCode::FAILURE
        }
    }
}
