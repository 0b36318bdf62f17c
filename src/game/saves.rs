//! Saving and loading in the window: `Ctrl+S` and the Save button, an autosave each round, the
//! menu's Continue and list of saves, `fray play --load`, and `Ctrl+Z` (and the Undo button) to
//! take a declaration back. Saves live in the platform's data folder.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::model::battle_ui::{BattleUi, DeclarationOptions, UiCommand};
use super::model::launch::LaunchOptions;
use super::model::screen::Screen;
use super::model::session::{LevelSource, Seat, Session};
use crate::levels::catalog::builtin;
use crate::levels::mods::ActiveMods;
use crate::rules::components::{Controller, SideIndex, UnitId};
use crate::rules::log::CombatLog;
use crate::rules::{CombatPhase, CombatState, DeclarationQueue};
use crate::save::{self, LevelRef, Replay, SaveFile};

/// The file the autosave overwrites each round.
pub const AUTOSAVE_FILE: &str = "autosave.ron";
/// Set to use this folder for saves instead of the platform's (tests, portable installs).
pub const DATA_DIR_VARIABLE: &str = "FRAY_DATA_DIR";
/// Seconds in a day, to print a save's date.
const SECONDS_PER_DAY: u64 = 86_400;

/// Where saves go: `$FRAY_DATA_DIR`, else the platform's data folder (`~/.local/share/fray`
/// on Linux), else `saves` beside the game.
pub fn save_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DATA_DIR_VARIABLE) {
        return PathBuf::from(dir).join("saves");
    }
    directories::ProjectDirs::from("", "", "Fray")
        .map_or_else(|| PathBuf::from("saves"), |dirs| dirs.data_dir().join("saves"))
}

/// A save as the menu lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveSummary {
    /// The file.
    pub path: PathBuf,
    /// Level name.
    pub level: String,
    /// Ruleset name.
    pub ruleset: String,
    /// The round it was saved in.
    pub round: u32,
    /// When, as `YYYY-MM-DD HH:MM` (UTC).
    pub date: String,
    /// Seconds since the epoch, newest first in the list.
    pub saved_at: u64,
}

/// The saves in the save folder, newest first, and a problem to show.
#[derive(Resource, Debug, Default)]
pub struct SaveList {
    /// The folder.
    pub dir: PathBuf,
    /// Its saves.
    pub saves: Vec<SaveSummary>,
    /// The last load's or save's error, with its location.
    pub problem: Option<String>,
}

impl SaveList {
    /// Reads the folder again (unreadable files are left out of the list).
    pub fn refresh(&mut self) {
        let entries = std::fs::read_dir(&self.dir).map(|entries| entries.flatten().map(|entry| entry.path()));
        let mut saves: Vec<SaveSummary> = entries
            .into_iter()
            .flatten()
            .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
            .filter_map(|path| SaveFile::read(&path).ok().map(|save| summary(path, &save)))
            .collect();
        saves.sort_by(|a, b| b.saved_at.cmp(&a.saved_at).then_with(|| a.path.cmp(&b.path)));
        self.saves = saves;
    }
}

fn summary(path: PathBuf, save: &SaveFile) -> SaveSummary {
    SaveSummary {
        path,
        level: save.level_name.clone(),
        ruleset: save.ruleset.clone(),
        round: save.round,
        date: utc_date(save.saved_at),
        saved_at: save.saved_at,
    }
}

/// `YYYY-MM-DD HH:MM` in UTC from seconds since the epoch (the civil-from-days algorithm).
pub fn utc_date(seconds: u64) -> String {
    let days = (seconds / SECONDS_PER_DAY) as i64;
    let minutes_of_day = (seconds % SECONDS_PER_DAY) / 60;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", minutes_of_day / 60, minutes_of_day % 60)
}

/// Present in the window game: each new round is autosaved (headless tests of the game's
/// logic leave it out, so they write nothing into the player's save folder).
#[derive(Resource, Debug, Default)]
pub struct Autosave;

/// Go on with the battle saved in this file.
#[derive(Message, Clone, Debug)]
pub struct LoadSave(pub PathBuf);

/// A save being replayed to its saved moment, checked once it gets there.
#[derive(Resource, Debug)]
struct Loading {
    save: SaveFile,
    path: PathBuf,
}

/// Save and undo requests of this frame, done with the whole world at hand.
#[derive(Resource, Debug, Default)]
struct Requests {
    save: bool,
    undo: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveList>()
        .init_resource::<Requests>()
        .add_message::<LoadSave>()
        .add_systems(Startup, (find_saves, load_from_command_line).chain())
        .add_systems(OnEnter(Screen::Menu), refresh_saves)
        .add_systems(
            Update,
            (
                collect_requests,
                save_or_undo,
                autosave.run_if(resource_exists::<Autosave>),
                load_requested,
                finish_loading,
            )
                .chain()
                .in_set(super::spine::GameSystems::Answers),
        );
}

fn find_saves(mut list: ResMut<SaveList>) {
    list.dir = save_dir();
    list.refresh();
}

fn refresh_saves(mut list: ResMut<SaveList>) {
    list.refresh();
}

fn load_from_command_line(options: Res<LaunchOptions>, mut load: MessageWriter<LoadSave>) {
    if let Some(path) = &options.load {
        load.write(LoadSave(path.clone()));
    }
}

fn collect_requests(
    mut commands: MessageReader<UiCommand>,
    mut requests: ResMut<Requests>,
    ui: Res<BattleUi>,
    playback: Option<Res<super::model::playback::Playback>>,
    online: Option<Res<crate::net::Follower>>,
) {
    // A replay is watched, not played: there is nothing of the viewer's own to save or undo.
    // Online, the referee keeps the record and the save, and a declaration sent is not taken back.
    if playback.is_some() || online.is_some() {
        commands.clear();
        return;
    }
    for command in commands.read() {
        match command {
            UiCommand::Save if ui.confirm.is_none() => requests.save = true,
            UiCommand::Undo if ui.confirm.is_none() && ui.curtain.is_none() => requests.undo = true,
            _ => {}
        }
    }
}

fn save_or_undo(world: &mut World) {
    let requests = std::mem::take(&mut *world.resource_mut::<Requests>());
    if *world.resource::<State<Screen>>().get() != Screen::Battle {
        return;
    }
    if requests.save {
        let file = format!("{}-{}.ron", level_stem(world), now());
        let status = match write_save(world, &file) {
            Ok(path) => format!("Saved to {}", path.display()),
            Err(problem) => problem,
        };
        world.resource_mut::<BattleUi>().status = Some(status);
    }
    if requests.undo {
        undo(world);
    }
}

/// The current level's file name without `.ron`, to name its saves.
fn level_stem(world: &World) -> String {
    let session = world.resource::<Session>();
    let source = session.current.as_ref().map(LevelRef::of);
    let name = match &source {
        Some(LevelRef::Builtin(name)) => name.clone(),
        Some(LevelRef::File(path)) => {
            path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
        }
        None => "battle".into(),
    };
    name.trim_end_matches(".ron").to_string()
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

/// Writes the battle to `file` in the save folder; no save while a load is still replaying.
fn write_save(world: &mut World, file: &str) -> Result<PathBuf, String> {
    if world.contains_resource::<Replay>() {
        return Err("Not saved: the loaded battle is still catching up".into());
    }
    if world.resource::<CombatState>().phase == CombatPhase::Idle {
        return Err("Not saved: no battle is being fought".into());
    }
    let Some(template) = world.resource::<Session>().current.clone() else {
        return Err("Not saved: no battle is being fought".into());
    };
    let save = save::capture(world, &template);
    let path = world.resource::<SaveList>().dir.join(file);
    save.write(&path).map_err(|error| format!("Not saved: {error}"))?;
    world.resource_mut::<SaveList>().refresh();
    Ok(path)
}

/// Each new round, the battle so far goes to the autosave (not while a load catches up).
fn autosave(world: &mut World, mut last_round: Local<u32>) {
    let round = world.resource::<CombatState>().round;
    let in_battle = *world.resource::<State<Screen>>().get() == Screen::Battle;
    if !in_battle || round == *last_round || world.contains_resource::<Replay>() {
        *last_round = if in_battle { round } else { 0 };
        return;
    }
    *last_round = round;
    if round > 1
        && let Err(problem) = write_save(world, AUTOSAVE_FILE)
    {
        world.resource_mut::<BattleUi>().status = Some(problem);
    }
}

/// Takes back the seated side's last declaration (the declaring side's, with one player).
fn undo(world: &mut World) {
    let side = {
        let ui = world.resource::<BattleUi>();
        ui.seated.or(world.resource::<DeclarationOptions>().side).or_else(|| first_human_side(world))
    };
    let Some(side) = side else {
        world.resource_mut::<BattleUi>().status = Some("Nothing to take back: no side is played here".into());
        return;
    };
    let status = match save::undo::undo_last(world, side) {
        Ok(unit) => {
            let entity = find_unit(world, &unit);
            let mut ui = world.resource_mut::<BattleUi>();
            ui.draft = default();
            ui.selected = entity;
            save::undo::took_back_message(world, &unit)
        }
        Err(error) => format!("Cannot take back: {error}"),
    };
    world.resource_mut::<BattleUi>().status = Some(status);
}

fn first_human_side(world: &mut World) -> Option<usize> {
    let mut units = world.query::<(&SideIndex, &Controller)>();
    units.iter(world).find(|(_, controller)| **controller == Controller::Human).map(|(side, _)| side.0)
}

fn find_unit(world: &mut World, id: &str) -> Option<Entity> {
    let mut units = world.query::<(Entity, &UnitId)>();
    units.iter(world).find(|(_, unit)| &*unit.0 == id).map(|(entity, _)| entity)
}

/// Loads each requested save: checks it, chooses its level and seats in the menu (so Play
/// again replays the level) and starts replaying it to the saved moment.
fn load_requested(world: &mut World) {
    let requests: Vec<PathBuf> =
        world.resource_mut::<Messages<LoadSave>>().drain().map(|LoadSave(path)| path).collect();
    let mods = world.get_resource::<ActiveMods>().cloned().unwrap_or_default().0;
    for path in requests {
        let loaded =
            SaveFile::read(&path).and_then(|save| save::level_of(&save, &path, &mods).map(|template| (save, template)));
        let (save, template) = match loaded {
            Ok(loaded) => loaded,
            Err(error) => {
                world.resource_mut::<SaveList>().problem = Some(error.to_string());
                continue;
            }
        };
        choose_in_menu(world, &save, &template);
        let setup = match save::setup_of(&save, &template, &path) {
            Ok(setup) => setup,
            Err(error) => {
                world.resource_mut::<SaveList>().problem = Some(error.to_string());
                continue;
            }
        };
        template.spawn(world, &setup);
        super::session::show_new_battle(world, template);
        world.insert_resource(Replay::new(save.declarations.clone(), save.events));
        world.resource_mut::<SaveList>().problem = None;
        world.resource_mut::<BattleUi>().status = Some(format!("Loading {}", path.display()));
        world.insert_resource(Loading { save, path });
    }
}

/// Makes the save's level, seats and next seed the menu's choice.
fn choose_in_menu(world: &mut World, save: &SaveFile, template: &crate::levels::BattleTemplate) {
    let source = match &save.level {
        LevelRef::Builtin(name) => match builtin::level(name) {
            Some((known, _)) => LevelSource::Builtin(known),
            None => return,
        },
        LevelRef::File(path) => LevelSource::File(path.clone()),
    };
    let mut session = world.resource_mut::<Session>();
    let at = session.levels.iter().position(|level| level.source == source).or_else(|| {
        session
            .levels
            .iter()
            .position(|level| level.template.as_ref().is_some_and(|known| known.level_name == template.level_name))
    });
    let at = match at {
        Some(at) => at,
        None => {
            session.levels.push(super::model::session::LevelChoice {
                title: template.level_name.clone(),
                source,
                template: Some(template.clone()),
                error: None,
            });
            session.levels.len() - 1
        }
    };
    session.select(at);
    for (side, controller) in &save.seats {
        if let Some(index) = template.side_index(side)
            && let Some(seat) = session.seats.get_mut(index)
        {
            *seat = match controller {
                Controller::Human => Seat::Human,
                Controller::Ai(kind) => Seat::Ai(*kind),
            };
        }
    }
    session.seed = save.seed.wrapping_add(1);
}

/// Once the replay reaches the saved moment, checks it reproduced the saved battle.
fn finish_loading(world: &mut World) {
    let Some(replay) = world.get_resource::<Replay>() else {
        world.remove_resource::<Loading>();
        return;
    };
    let opening =
        world.resource::<CombatState>().phase == CombatPhase::Declare && !world.resource::<DeclarationQueue>().open;
    let over = world.resource::<CombatState>().is_over();
    let at_saved_moment = replay.caught_up(world.resource::<CombatLog>()) && !opening;
    if !at_saved_moment && !over {
        return;
    }
    let Some(Loading { save, path }) = world.remove_resource::<Loading>() else {
        // A battle followed online replays the referee's record for as long as it lasts.
        if !world.contains_resource::<crate::net::Follower>() {
            world.remove_resource::<Replay>();
        }
        return;
    };
    let status = match save::finish_replay(world, &save, &path) {
        Ok(()) => format!("Loaded {} (round {})", file_name(&path), save.round),
        Err(error) => format!("Loaded with a warning: {error}"),
    };
    world.resource_mut::<BattleUi>().status = Some(status);
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_print_in_utc() {
        assert_eq!(utc_date(0), "1970-01-01 00:00");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00");
        assert_eq!(utc_date(1_795_000_000), "2026-11-18 11:06");
    }
}
