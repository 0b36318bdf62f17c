//! Re-simulating a recorded battle to prove it reproduces: a save (its log so far) or a JSON
//! Lines log of AI-only battles (`fray sim --log`), byte for byte.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::SaveError;
use crate::headless::HeadlessBattle;
use crate::levels::catalog::builtin;
use crate::levels::mods::ModSet;
use crate::levels::{BattleSetup, BattleTemplate, load_builtin_level, load_level_or_builtin};
use crate::rules::components::{AiKind, Controller};

/// What a verification found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every battle reproduced; how many.
    Reproduced(usize),
    /// A battle did not: which one and where.
    Differs(String),
}

/// Why a log cannot be verified at all.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The save could not be loaded.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// The log could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line is not a log event.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong and what was expected.
        message: String,
    },
    /// The log holds too little to play the battle again.
    #[error("{}:{line}: {message}", path.display())]
    CannotReplay {
        /// The file.
        path: PathBuf,
        /// The `combat_started` line.
        line: usize,
        /// Why.
        message: String,
    },
}

/// Verifies a save, its level loaded with `mods`: loading it replays the declarations and
/// checks the saved log's hash.
pub fn verify_save(path: &Path, mods: &ModSet) -> Result<Verdict, VerifyError> {
    match super::load_headless(path, mods) {
        Ok(_) => Ok(Verdict::Reproduced(1)),
        Err(SaveError::Diverged { problem, .. }) => Ok(Verdict::Differs(problem)),
        Err(error) => Err(error.into()),
    }
}

/// How an online battle's `dice_reseeded` lines begin.
const ONLINE_RESEED: &str = "{\"event\":\"dice_reseeded\"";

/// Whether `path` holds a JSON Lines log rather than a save.
pub fn is_log(path: &Path) -> bool {
    if path.extension().is_some_and(|ext| ext == "jsonl" || ext == "json") {
        return true;
    }
    std::fs::read_to_string(path).is_ok_and(|text| text.trim_start().starts_with('{'))
}

/// One battle of a log: where it starts, its lines, and what its first line says.
struct Game<'a> {
    first_line: usize,
    lines: Vec<&'a str>,
    header: Value,
}

/// Verifies a JSON Lines log (one or many battles): each is played again from its level, seed
/// and controllers (its level loaded with `mods`), and its lines compared byte for byte.
/// `level` overrides the level lookup.
pub fn verify_log(path: &Path, level: Option<&Path>, mods: &ModSet) -> Result<Verdict, VerifyError> {
    let text = std::fs::read_to_string(path).map_err(|source| VerifyError::Io { path: path.into(), source })?;
    let games = split_games(&text, path)?;
    let mut battle = HeadlessBattle::new();
    for game in &games {
        let cannot = |message: String| VerifyError::CannotReplay { path: path.into(), line: game.first_line, message };
        if game.lines.iter().any(|line| line.starts_with(ONLINE_RESEED)) {
            return Err(cannot(
                "an online battle: the referee drew its dice pass by pass, and its AI seats played on a secret seed; verify the referee's save (`fray serve --save`) instead".into(),
            ));
        }
        let (template, setup) = game_setup(&game.header, level, mods).map_err(cannot)?;
        battle.start(&template, &setup);
        battle.run_to_end();
        let replayed = battle.log().to_json_lines();
        let replayed: Vec<&str> = replayed.lines().collect();
        if let Some(problem) = first_difference(&game.lines, &replayed) {
            return Ok(Verdict::Differs(format!(
                "{}:{}: {problem}",
                path.display(),
                game.first_line + problem_line(&game.lines, &replayed)
            )));
        }
    }
    Ok(Verdict::Reproduced(games.len()))
}

/// The first battle of a JSON Lines log, ready to play again: its level, its setup and the
/// round of each of its lines (the window's replay viewer shows it event by event); its level
/// loaded with `mods`.
pub fn first_battle(
    path: &Path,
    level: Option<&Path>,
    mods: &ModSet,
) -> Result<(BattleTemplate, BattleSetup, Vec<u32>), VerifyError> {
    let text = std::fs::read_to_string(path).map_err(|source| VerifyError::Io { path: path.into(), source })?;
    let games = split_games(&text, path)?;
    let Some(game) = games.first() else {
        return Err(VerifyError::Parse {
            path: path.into(),
            line: 1,
            column: 1,
            message: "the log is empty; expected a combat_started line".into(),
        });
    };
    let (template, setup) = game_setup(&game.header, level, mods).map_err(|message| VerifyError::CannotReplay {
        path: path.into(),
        line: game.first_line,
        message,
    })?;
    let rounds = game
        .lines
        .iter()
        .map(|line| {
            let value: Value = serde_json::from_str(line).unwrap_or_default();
            value.get("round").and_then(Value::as_u64).and_then(|round| u32::try_from(round).ok()).unwrap_or(0)
        })
        .collect();
    Ok((template, setup, rounds))
}

/// Splits the log into battles at each `combat_started` line, checking every line is JSON.
fn split_games<'a>(text: &'a str, path: &Path) -> Result<Vec<Game<'a>>, VerifyError> {
    let mut games: Vec<Game> = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let value: Value = serde_json::from_str(line).map_err(|error| VerifyError::Parse {
            path: path.into(),
            line: at + 1,
            column: error.column(),
            message: format!("{error}; expected one JSON object per line (a Fray combat log)"),
        })?;
        if value.get("event").and_then(Value::as_str) == Some("combat_started") {
            games.push(Game { first_line: at + 1, lines: Vec::new(), header: value });
        }
        match games.last_mut() {
            Some(game) => game.lines.push(line),
            None => {
                return Err(VerifyError::Parse {
                    path: path.into(),
                    line: at + 1,
                    column: 1,
                    message: "the log must begin with a combat_started line".into(),
                });
            }
        }
    }
    Ok(games)
}

/// The level, seed and controllers a battle's `combat_started` line names. Only AI-only
/// battles can be played again from a log: a human's choices are in a save, not in the log.
fn game_setup(header: &Value, level: Option<&Path>, mods: &ModSet) -> Result<(BattleTemplate, BattleSetup), String> {
    let text = |field: &str| header.get(field).and_then(Value::as_str).unwrap_or_default().to_string();
    let (level_name, ruleset) = (text("level"), text("ruleset"));
    let seed = header.get("seed").and_then(Value::as_u64).ok_or("combat_started has no seed")?;
    let template = match level {
        Some(path) => load_level_or_builtin(path, mods).map_err(|errors| errors.to_string())?,
        None => builtin::every_level()
            .filter_map(|(name, _)| load_builtin_level(name, mods).ok())
            .find(|template| template.level_name == level_name)
            .ok_or_else(|| format!("no shipped level is named \"{level_name}\"; name its file with --level"))?,
    };
    if *template.ruleset.name != *ruleset {
        return Err(format!("the log's ruleset is \"{ruleset}\" but the level plays \"{}\"", template.ruleset.name));
    }
    let mut controllers = Vec::new();
    for unit in header.get("units").and_then(Value::as_array).into_iter().flatten() {
        let side = unit.get("side").and_then(Value::as_str).unwrap_or_default();
        let id = unit.get("id").and_then(Value::as_str).unwrap_or_default();
        let controller = match unit.get("controller").and_then(Value::as_str) {
            Some("greedy") => Controller::Ai(AiKind::Greedy),
            Some("random") => Controller::Ai(AiKind::Random),
            _ => {
                return Err(format!(
                    "unit {id} is played by a human: a log holds no human's choices in a form that replays; verify the battle's save instead"
                ));
            }
        };
        let at = template.side_index(side).ok_or_else(|| format!("unit {id}'s side \"{side}\" is not in the level"))?;
        if !controllers.iter().any(|(known, _)| *known == at) {
            controllers.push((at, controller));
        }
    }
    Ok((template, BattleSetup { seed, controllers, record_log: true }))
}

/// The first line where two logs differ, in words.
fn first_difference(recorded: &[&str], replayed: &[&str]) -> Option<String> {
    let at = problem_line(recorded, replayed);
    match (recorded.get(at), replayed.get(at)) {
        (None, None) => None,
        (Some(want), Some(got)) => Some(format!("the log says\n  {want}\nbut the battle plays\n  {got}")),
        (Some(want), None) => Some(format!("the battle ended before the log's line\n  {want}")),
        (None, Some(got)) => Some(format!("the log ends before the battle's line\n  {got}")),
    }
}

/// Index of the first differing line (or the shorter length).
fn problem_line(recorded: &[&str], replayed: &[&str]) -> usize {
    recorded.iter().zip(replayed).position(|(want, got)| want != got).unwrap_or(recorded.len().min(replayed.len()))
}
