//! `fray play`: the window game, straight into a level with the seats given.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::app::AppExit;
use clap::Args;

use super::CommandMods;
use crate::game::{LaunchOptions, LevelSource, Seat};
use crate::levels::BattleTemplate;

/// Arguments of `fray play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The level: a `.ron` file, or a built-in one by path, file name or level name
    /// (`levels/ambush.ron`, `ambush.ron`); the default ambush when left out.
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
    /// Play AI against AI unattended, save menu, battle and game-over screenshots here, and quit
    /// (with --script, the script's screenshots go here).
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
    /// Play a script of key presses, clicks and checks (tests/scripts/*.ron), then quit; exits
    /// non-zero if a check fails.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Go on with a saved battle (from the save folder, or Ctrl+S in a battle).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["level", "seats", "seed"])]
    pub load: Option<PathBuf>,
    /// Start with every sound off (Ctrl+M turns it back on).
    #[arg(long)]
    pub mute: bool,
}

/// Exit code of a bad command line.
const USAGE_ERROR: u8 = 2;
/// Exit code when the level or the display is not there to play.
const CANNOT_PLAY: u8 = 1;

/// Opens the window on the main menu, with `mods` in play.
pub fn menu(mods: &CommandMods) -> ExitCode {
    open_window(LaunchOptions::default(), mods)
}

/// Runs `fray play`, its level loaded with `mods`.
pub fn run(args: &PlayArgs, mods: &CommandMods) -> ExitCode {
    let mut seats = Vec::new();
    for pair in &args.seats {
        let Some((side, seat)) = pair.split_once('=') else {
            eprintln!("--seat {pair}: expected SIDE=SEAT, e.g. --seat party=human");
            return ExitCode::from(USAGE_ERROR);
        };
        let Some(seat) = Seat::parse(seat) else {
            eprintln!("--seat {pair}: unknown seat \"{seat}\"; expected human, ai:greedy or ai:random");
            return ExitCode::from(USAGE_ERROR);
        };
        seats.push((side.to_string(), seat));
    }
    let level = args.level.as_ref().map(|path| match crate::levels::builtin_level_for(path) {
        Some(known) => LevelSource::Builtin(known),
        None => LevelSource::File(path.clone()),
    });
    let level = level
        .or((args.screenshots.is_none() && !seats.is_empty())
            .then_some(LevelSource::Builtin(crate::levels::DEFAULT_LEVEL)));
    // A level named on the command line is checked before any window opens: its errors go to
    // stderr as `file:line:column` and the exit code says it failed.
    if let Some(level) = &level {
        let template = match level.load(&mods.set) {
            Ok(template) => template,
            Err(errors) => {
                eprintln!("{errors}");
                return ExitCode::from(CANNOT_PLAY);
            }
        };
        if let Err(problem) = check_seats(&template, &seats) {
            eprintln!("{problem}");
            return ExitCode::from(USAGE_ERROR);
        }
    } else if let Some((side, _)) = seats.first() {
        eprintln!("--seat {side}=...: seats need a level to seat them in");
        return ExitCode::from(USAGE_ERROR);
    }
    // A save is checked before any window opens, as a level is: a corrupt or outdated one is
    // a `file:line:column` message and a failing exit code.
    if let Some(path) = &args.load
        && let Err(error) =
            crate::save::SaveFile::read(path).and_then(|save| crate::save::level_of(&save, path, &mods.set))
    {
        eprintln!("{error}");
        return ExitCode::from(CANNOT_PLAY);
    }
    if let Some(script) = &args.script
        && let Err(error) = crate::game::script::load(script)
    {
        eprintln!("{error}");
        return ExitCode::from(USAGE_ERROR);
    }
    let options = LaunchOptions {
        level,
        seats,
        seed: args.seed,
        screenshots: args.screenshots.clone(),
        settings: args.settings.clone(),
        script: args.script.clone(),
        load: args.load.clone(),
        mute: args.mute,
        playback: None,
        join: None,
        mod_folders: Vec::new(),
    };
    open_window(options, mods)
}

/// Opens the window game with these options and `mods` in play, once a display is known to be
/// there.
pub(super) fn open_window(options: LaunchOptions, mods: &CommandMods) -> ExitCode {
    if let Err(problem) = check_display() {
        eprintln!("fray: {problem}");
        return ExitCode::from(CANNOT_PLAY);
    }
    let options = LaunchOptions { mod_folders: mods.folders.clone(), ..options };
    exit_code(crate::game::run(options, mods.set.clone()))
}

/// Every `--seat` names a side of the level, or the error says which sides there are.
fn check_seats(template: &BattleTemplate, seats: &[(String, Seat)]) -> Result<(), String> {
    let known: Vec<&str> = template.sides.iter().map(|side| &*side.name).collect();
    for (side, _) in seats {
        if template.side_index(side).is_none() {
            let problem = crate::levels::error::not_found("side", side, &known);
            return Err(format!(
                "--seat {side}=...: {problem} (the sides of {}: {})",
                template.level_name,
                known.join(", ")
            ));
        }
    }
    Ok(())
}

/// The window needs a display; without one, say so plainly rather than panic in the window
/// layer. Only the environment is read: a display that is named but gone still fails there.
fn check_display() -> Result<(), String> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return Ok(());
    }
    let named = |variable: &str| std::env::var_os(variable).is_some_and(|value| !value.is_empty());
    if named("DISPLAY") || named("WAYLAND_DISPLAY") {
        return Ok(());
    }
    Err("no display to open the window on: neither DISPLAY nor WAYLAND_DISPLAY is set. \
         Run it from a desktop session, or under a virtual display (`Xvfb :99 & DISPLAY=:99 fray`); \
         `fray sim` plays battles without a window."
        .into())
}

fn exit_code(exit: AppExit) -> ExitCode {
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
