//! Saves, loading, undo and replay checks. A save is the battle's header and its declarations;
//! loading spawns the level with the saved seed and seats and replays the declarations through
//! the real rules, so the loaded battle is the saved one, log line for log line.

pub mod error;
pub mod format;
mod record;
pub mod undo;
pub mod verify;

use std::path::Path;

use bevy::prelude::*;

pub use error::SaveError;
pub use format::{ContentHashes, Declaration, LevelRef, SaveFile, SavedForfeit};
pub use record::{Recording, Replay, action_of, declaration_of};

use crate::headless::{HeadlessBattle, UPDATES_PER_ROUND};
use crate::levels::mods::ModSet;
use crate::levels::{BattleSetup, BattleTemplate};
use crate::rules::components::{Controller, SideIndex, SpawnOrder};
use crate::rules::log::CombatLog;
use crate::rules::{
    CombatInfo, CombatPhase, CombatState, DeclarationQueue, Following, Forfeits, PassSeeds, SideForfeited, Sides,
};

/// Registers the recorder and the replay feeder.
pub fn plugin(app: &mut App) {
    app.add_plugins(record::plugin);
}

/// The hash of the first `events` log lines as JSON Lines.
pub fn log_hash(log: &CombatLog, events: usize) -> String {
    let mut text = String::new();
    for entry in log.entries().iter().take(events) {
        text.push_str(&entry.to_json());
        text.push('\n');
    }
    format::hash_text(&text)
}

/// Seconds since the Unix epoch, for the save's date.
fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

/// The save of the battle in `world`, which was spawned from `template`.
pub fn capture(world: &mut World, template: &BattleTemplate) -> SaveFile {
    let seats = seats_at_start(world, template);
    let seats_now = seats_now(world, &seats);
    let log = world.resource::<CombatLog>();
    let events = log.entries().len();
    SaveFile {
        format: format::FORMAT,
        fray: env!("CARGO_PKG_VERSION").to_string(),
        level: LevelRef::of(template),
        level_name: template.level_name.clone(),
        ruleset: template.ruleset.name.to_string(),
        hashes: ContentHashes::of(template),
        seed: world.resource::<CombatInfo>().seed,
        seats,
        seats_now,
        round: world.resource::<CombatState>().round,
        events,
        log_hash: log_hash(log, events),
        saved_at: now(),
        declarations: world.resource::<Recording>().entries.clone(),
        mods: template.mods.clone(),
        pass_seeds: world.get_resource::<PassSeeds>().map(|seeds| seeds.used().to_vec()),
        forfeits: forfeits_of(world),
    }
}

/// The battle's forfeits, by side name.
fn forfeits_of(world: &World) -> Vec<SavedForfeit> {
    let (Some(forfeits), Some(sides)) = (world.get_resource::<Forfeits>(), world.get_resource::<Sides>()) else {
        return Vec::new();
    };
    forfeits
        .0
        .iter()
        .filter_map(|forfeit| {
            let side = sides.0.get(forfeit.side)?.name.to_string();
            Some(SavedForfeit { round: forfeit.round, side })
        })
        .collect()
}

/// The save's forfeits, by side index, for the rules to apply as the replay reaches them.
fn restore_forfeits(save: &SaveFile, template: &BattleTemplate, path: &Path) -> Result<Forfeits, SaveError> {
    let forfeits = save.forfeits.iter().map(|forfeit| {
        let side = template
            .side_index(&forfeit.side)
            .ok_or_else(|| SaveError::UnknownSide { path: path.into(), side: forfeit.side.clone() })?;
        Ok(SideForfeited { side, round: forfeit.round })
    });
    Ok(Forfeits(forfeits.collect::<Result<_, SaveError>>()?))
}

/// Who played each side when the battle began, by side name: the controllers its log's first
/// line names (the seats the replay must start from, whatever was handed over since), else
/// those of its first units now.
fn seats_at_start(world: &mut World, template: &BattleTemplate) -> Vec<(String, Controller)> {
    let started = world.resource::<CombatLog>().lines::<crate::rules::log::line::CombatStarted>().next().cloned();
    let mut controllers: Vec<(SpawnOrder, usize, Controller)> = world
        .query::<(&SpawnOrder, &SideIndex, &Controller)>()
        .iter(world)
        .map(|(order, side, controller)| (*order, side.0, *controller))
        .collect();
    controllers.sort_by_key(|(order, ..)| *order);
    let logged =
        |side: &str| started.as_ref()?.units.iter().find(|unit| &*unit.side == side).map(|entry| entry.controller);
    let sides = world.resource::<Sides>();
    sides
        .0
        .iter()
        .enumerate()
        .map(|(at, side)| {
            let now = controllers.iter().find(|(_, side, _)| *side == at).map(|(.., controller)| *controller);
            let controller = logged(&side.name).or(now).unwrap_or(template.sides[at].controller);
            (side.name.to_string(), controller)
        })
        .collect()
}

/// Who plays each side now, by side name, when that differs from the seats it started with
/// (empty otherwise): a side is played by whoever controls its units.
fn seats_now(world: &mut World, seats: &[(String, Controller)]) -> Vec<(String, Controller)> {
    let sides = world.resource::<crate::rules::Sides>().0.clone();
    let mut units = world.query::<(&crate::rules::components::SideIndex, &Controller)>();
    let now: Vec<(String, Controller)> = seats
        .iter()
        .map(|(name, at_start)| {
            let side = sides.iter().position(|info| &*info.name == name);
            let controller = units.iter(world).find(|(index, _)| Some(index.0) == side).map(|(_, now)| *now);
            (name.clone(), controller.unwrap_or(*at_start))
        })
        .collect();
    if now == seats { Vec::new() } else { now }
}

/// Hands each side to whoever played it when the battle was saved (see [`SaveFile::seats_now`]).
fn restore_seats_now(world: &mut World, save: &SaveFile) {
    if save.seats_now.is_empty() {
        return;
    }
    let sides = world.resource::<crate::rules::Sides>().0.clone();
    let mut units = world.query::<(&crate::rules::components::SideIndex, &mut Controller)>();
    for (side, mut controller) in units.iter_mut(world) {
        let name = sides.get(side.0).map(|info| info.name.clone());
        let now = save.seats_now.iter().find(|(seat, _)| Some(seat.as_str()) == name.as_deref());
        if let Some((_, now)) = now {
            *controller = *now;
        }
    }
}

/// Loads the save's level with `mods` and checks it is the one the battle was played on (with
/// the same mods).
pub fn level_of(save: &SaveFile, path: &Path, mods: &ModSet) -> Result<BattleTemplate, SaveError> {
    let loaded = save.level.load(mods);
    let mods_now = loaded.as_ref().map_or_else(|_| save.level.mods_now(mods), |template| template.mods.clone());
    let changes = format::mod_changes(&save.mods, &mods_now);
    if !changes.is_empty() {
        return Err(SaveError::Mods { path: path.into(), changes });
    }
    let template = loaded.map_err(|errors| SaveError::Level {
        path: path.into(),
        level: save.level.to_string(),
        errors: errors.to_string(),
    })?;
    let changed = save.hashes.changes(&ContentHashes::of(&template));
    if !changed.is_empty() {
        return Err(SaveError::Changed { path: path.into(), level: save.level.to_string(), changed });
    }
    Ok(template)
}

/// The battle setup the save describes: its seed and a controller per side.
pub fn setup_of(save: &SaveFile, template: &BattleTemplate, path: &Path) -> Result<BattleSetup, SaveError> {
    let controllers = save
        .seats
        .iter()
        .map(|(side, controller)| {
            template
                .side_index(side)
                .map(|at| (at, *controller))
                .ok_or_else(|| SaveError::UnknownSide { path: path.into(), side: side.clone() })
        })
        .collect::<Result<_, _>>()?;
    Ok(BattleSetup { seed: save.seed, controllers, record_log: true })
}

/// Spawns the saved battle in `world` and queues its declarations for replay; the world's
/// updates then play it forward to the saved moment.
pub fn begin_replay(
    world: &mut World,
    save: &SaveFile,
    template: &BattleTemplate,
    path: &Path,
) -> Result<(), SaveError> {
    let setup = setup_of(save, template, path)?;
    let forfeits = restore_forfeits(save, template, path)?;
    template.spawn(world, &setup);
    world.insert_resource(forfeits);
    let mut replay = Replay::new(save.declarations.clone(), save.events);
    match &save.pass_seeds {
        Some(seeds) => {
            replay.feed_every = true;
            world.insert_resource(PassSeeds::given(seeds.iter().copied()));
            world.insert_resource(Following);
        }
        None => {
            world.remove_resource::<PassSeeds>();
            world.remove_resource::<Following>();
        }
    }
    world.insert_resource(replay);
    Ok(())
}

/// Once the replay has caught up: checks it reproduced the saved log and stops replaying.
pub fn finish_replay(world: &mut World, save: &SaveFile, path: &Path) -> Result<(), SaveError> {
    let replay = world.remove_resource::<Replay>().unwrap_or_default();
    restore_seats_now(world, save);
    let diverged = |problem: String| SaveError::Diverged { path: path.into(), problem };
    if let Some(problem) = replay.diverged {
        return Err(diverged(problem));
    }
    if !replay.declarations_done() {
        let missing = replay.expected.iter().zip(&replay.matched).find(|(_, matched)| !**matched);
        let problem = missing.map_or_else(String::new, |(entry, _)| {
            format!("round {}: {}'s saved declaration was never called for", entry.round, entry.unit)
        });
        return Err(diverged(problem));
    }
    let log = world.resource::<CombatLog>();
    if log.entries().len() < save.events || log_hash(log, save.events) != save.log_hash {
        return Err(diverged(format!(
            "the first {} log lines differ from the saved battle's (this Fray is {}, the save was made by {})",
            save.events,
            env!("CARGO_PKG_VERSION"),
            save.fray
        )));
    }
    Ok(())
}

/// Reads `path` and replays it headless, its level loaded with `mods`, to the saved moment.
pub fn load_headless(path: &Path, mods: &ModSet) -> Result<(SaveFile, BattleTemplate, HeadlessBattle), SaveError> {
    let save = SaveFile::read(path)?;
    let template = level_of(&save, path, mods)?;
    let mut battle = HeadlessBattle::new();
    begin_replay(battle.world_mut(), &save, &template, path)?;
    replay_to_saved_moment(&mut battle, &save);
    finish_replay(battle.world_mut(), &save, path)?;
    Ok((save, template, battle))
}

/// Steps `battle` until the replay has caught up, the battle ended, or the update budget the
/// save could need ran out (a replay that stalls is reported by [`finish_replay`]).
pub fn replay_to_saved_moment(battle: &mut HeadlessBattle, save: &SaveFile) {
    // Sequential declaration orders take one update per human declaration.
    let budget = (save.round + 2) * UPDATES_PER_ROUND + save.declarations.len() as u32;
    for _ in 0..budget {
        let world = battle.world();
        let caught_up =
            world.get_resource::<Replay>().is_none_or(|replay| replay.caught_up(world.resource::<CombatLog>()));
        // A declare stage whose queue is not built yet opens in the next update, as it did
        // in the saved battle before anyone could declare.
        let opening = battle.state().phase == CombatPhase::Declare && !world.resource::<DeclarationQueue>().open;
        if (caught_up && !opening) || battle.state().is_over() {
            break;
        }
        battle.step();
    }
}
