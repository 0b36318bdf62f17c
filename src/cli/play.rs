//! `fray play`: the window game, straight into a level with the seats given.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::app::AppExit;
use clap::Args;

use crate::game::{LaunchOptions, LevelSource, Seat};
use crate::levels::catalog::builtin;

/// Arguments of `fray play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The level: a `.ron` file, or a built-in one by name (`ambush.ron`); the default ambush when left out.
    pub level: Option<PathBuf>,
    /// Who plays a side, as SIDE=human, SIDE=ai:greedy or SIDE=ai:random; repeatable.
    #[arg(long = "seat", value_name = "SIDE=SEAT")]
    pub seats: Vec<String>,
    /// Seed of the first battle.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Key bindings file (default `fray-settings.ron` in the current directory).
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Play AI against AI unattended, save menu, battle and game-over screenshots here, and quit.
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
}

/// Opens the window on the main menu.
pub fn menu() -> ExitCode {
    exit_code(crate::game::run(LaunchOptions::default()))
}

/// Runs `fray play`.
pub fn run(args: &PlayArgs) -> ExitCode {
    let mut seats = Vec::new();
    for pair in &args.seats {
        let Some((side, seat)) = pair.split_once('=') else {
            eprintln!("--seat {pair}: expected SIDE=SEAT, e.g. --seat party=human");
            return ExitCode::from(2);
        };
        let Some(seat) = Seat::parse(seat) else {
            eprintln!("--seat {pair}: unknown seat \"{seat}\"; expected human, ai:greedy or ai:random");
            return ExitCode::from(2);
        };
        seats.push((side.to_string(), seat));
    }
    let level = args.level.as_ref().map(|path| {
        let name = path.to_str().unwrap_or_default();
        match builtin::LEVELS.iter().find(|(known, _)| *known == name) {
            Some((known, _)) if !path.is_file() => LevelSource::Builtin(known),
            _ => LevelSource::File(path.clone()),
        }
    });
    let level = level
        .or((args.screenshots.is_none() && !seats.is_empty())
            .then_some(LevelSource::Builtin(crate::levels::DEFAULT_LEVEL)));
    let options = LaunchOptions {
        level,
        seats,
        seed: args.seed,
        screenshots: args.screenshots.clone(),
        settings: args.settings.clone(),
    };
    exit_code(crate::game::run(options))
}

fn exit_code(exit: AppExit) -> ExitCode {
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
