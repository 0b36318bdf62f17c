//! The game session: which screen shows, the levels on offer, the seats, starting (and
//! hot-reloading) battles, and pacing rounds so a person can follow them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::spine::GameSystems;
use bevy::prelude::*;

use super::model::launch::LaunchOptions;
use super::model::pace::{Pace, RoundPacing};
use super::model::screen::Screen;
use super::model::session::{BackToMenu, BattleStarted, LevelChoice, LevelSource, Session, StartBattle};
use crate::levels::catalog::builtin;
use crate::levels::mods::{ActiveMods, ModSet};
use crate::levels::{BattleSetup, BattleTemplate, DEFAULT_LEVEL};
use crate::rules::components::UnitId;
use crate::rules::log::CombatLog;
use crate::rules::{CombatPhase, CombatState, CombatSystems};

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<Session>()
        .init_resource::<RoundPacing>()
        .init_resource::<Pace>()
        .init_resource::<LaunchOptions>()
        .init_resource::<ActiveMods>()
        .add_message::<StartBattle>()
        .add_message::<BackToMenu>()
        .add_message::<BattleStarted>()
        .configure_sets(Update, CombatSystems::Initiative.run_if(round_pacing_ready))
        .add_systems(Startup, (discover_levels, apply_launch_options).chain())
        .add_systems(Update, (start_battle, back_to_menu, tick_pacing).chain().in_set(GameSystems::Session))
        .add_systems(OnEnter(Screen::Menu), end_battle);
}

/// The levels in the menu: the built-in ones (or their copies in `levels/`, which win so that
/// edits hot-reload), then any other `.ron` in `levels/`. The shipped levels kept out of the
/// list (the siege, the tutorials) stay out even where their files are on disk.
pub fn level_choices(dir: &Path, mods: &ModSet) -> Vec<LevelChoice> {
    let mut choices = Vec::new();
    for (name, _) in builtin::LEVELS {
        let on_disk = dir.join(name);
        let source = if on_disk.is_file() { LevelSource::File(on_disk) } else { LevelSource::Builtin(name) };
        choices.push(LevelChoice::load(source, mods));
    }
    let mut extra: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|entries| entries.flatten().map(|entry| entry.path()).collect()).unwrap_or_default();
    extra.retain(|path| {
        path.extension().is_some_and(|ext| ext == "ron")
            && !builtin::every_level().any(|(name, _)| path.file_name().is_some_and(|file| file == name))
    });
    extra.sort();
    choices.extend(extra.into_iter().map(|path| LevelChoice::load(LevelSource::File(path), mods)));
    choices.extend(mod_level_choices(mods));
    choices
}

/// The levels in each mod's `levels/`, titled with the mod's name.
fn mod_level_choices(mods: &ModSet) -> Vec<LevelChoice> {
    let mut choices = Vec::new();
    for one in mods.iter() {
        for path in one.files_in("levels") {
            let mut level = LevelChoice::load(LevelSource::File(path), mods);
            level.title = format!("{}: {}", one.manifest.name, level.title);
            choices.push(level);
        }
    }
    choices
}

fn discover_levels(mut session: ResMut<Session>, mods: Res<ActiveMods>) {
    session.levels = level_choices(Path::new("levels"), &mods.0);
    let default = session
        .levels
        .iter()
        .position(|level| {
            matches!(&level.source, LevelSource::Builtin(name) if *name == DEFAULT_LEVEL)
                || matches!(&level.source, LevelSource::File(path) if path.file_name().is_some_and(|file| file == DEFAULT_LEVEL))
        })
        .unwrap_or(0);
    session.select(default);
}

/// `fray play LEVEL --seat SIDE=...`: choose, seat and start at once.
pub(super) fn apply_launch_options(
    (options, mods): (Res<LaunchOptions>, Res<ActiveMods>),
    mut session: ResMut<Session>,
    mut start: MessageWriter<StartBattle>,
) {
    let Some(source) = options.level.clone() else {
        if let Some(seed) = options.seed {
            session.seed = seed;
        }
        return;
    };
    // After `select`, which resets the seed to the level's own: `--seed` wins over it.
    session.select_source(source, &mods.0);
    if let Some(seed) = options.seed {
        session.seed = seed;
    }
    for (side, seat) in &options.seats {
        let index =
            session.level().and_then(|level| level.template.as_ref()).and_then(|template| template.side_index(side));
        if let Some(index) = index
            && let Some(slot) = session.seats.get_mut(index)
        {
            *slot = *seat;
        }
    }
    // Unattended play photographs the menu first and starts the battle from there.
    if options.screenshots.is_none() || options.script.is_some() {
        start.write(StartBattle);
    }
}

/// Loads the chosen level afresh and spawns the battle. A broken file keeps the last good
/// data and shows its errors; a level that never loaded stays in the menu.
pub(super) fn start_battle(world: &mut World) {
    let requested = world.resource_mut::<Messages<StartBattle>>().drain().count() > 0;
    if !requested {
        return;
    }
    let mods = world.get_resource::<ActiveMods>().cloned().unwrap_or_default();
    let template = {
        let mut session = world.resource_mut::<Session>();
        let at = session.selected;
        let Some(level) = session.levels.get_mut(at) else {
            return;
        };
        match level.source.load(&mods.0) {
            Ok(template) => {
                level.template = Some(template.clone());
                level.error = None;
                session.error = None;
                template
            }
            Err(errors) => {
                let message = errors.to_string();
                level.error = Some(message.clone());
                let last_good = level.template.clone();
                session.error = Some(message);
                match last_good {
                    Some(template) => template,
                    None => return,
                }
            }
        }
    };
    let (seed, controllers) = {
        let mut session = world.resource_mut::<Session>();
        let seed = session.seed;
        session.seed = session.seed.wrapping_add(1);
        let controllers = session.seats.iter().enumerate().map(|(side, seat)| (side, seat.controller())).collect();
        (seed, controllers)
    };
    template.spawn(world, &BattleSetup { seed, controllers, record_log: true });
    show_new_battle(world, template);
}

/// After `template` was spawned: it becomes the current battle, the pacing starts afresh and
/// the battle screen shows (a fresh start, a restart or a loaded save alike).
pub(super) fn show_new_battle(world: &mut World, template: BattleTemplate) {
    // A battle started anew is not the replay of a save.
    world.remove_resource::<crate::save::Replay>();
    let mut session = world.resource_mut::<Session>();
    session.current = Some(template);
    session.battles += 1;
    *world.resource_mut::<RoundPacing>() = RoundPacing { delay: world.resource::<RoundPacing>().delay, ..default() };
    // A restart stays on the battle screen: leaving and re-entering it would despawn the
    // freshly drawn board along with the old one.
    NextState::set_if_neq(&mut world.resource_mut::<NextState<Screen>>(), Screen::Battle);
    world.write_message(BattleStarted);
}

fn back_to_menu(mut requests: MessageReader<BackToMenu>, mut next: ResMut<NextState<Screen>>) {
    if requests.read().count() > 0 {
        next.set(Screen::Menu);
    }
}

/// Clears the battle when the menu shows again.
fn end_battle(
    mut commands: Commands,
    units: Query<Entity, With<UnitId>>,
    mut state: ResMut<CombatState>,
    mut log: ResMut<CombatLog>,
) {
    for unit in &units {
        commands.entity(unit).despawn();
    }
    *state = CombatState::default();
    log.clear();
}

fn tick_pacing(time: Res<Time>, state: Res<CombatState>, mut pacing: ResMut<RoundPacing>, mut pace: ResMut<Pace>) {
    if state.round != pacing.round {
        // A round that started while paused used up one step.
        if pace.paused && state.round > pacing.round {
            pace.steps = pace.steps.saturating_sub(1);
        }
        pacing.round = state.round;
        pacing.elapsed = Duration::ZERO;
    } else {
        pacing.elapsed += time.delta();
    }
}

/// A new round starts once the last one has been on screen long enough at the chosen speed
/// and the player has not paused (the first round at once).
fn round_pacing_ready(
    state: Res<CombatState>,
    pacing: Res<RoundPacing>,
    pace: Res<Pace>,
    replay: Option<Res<crate::save::Replay>>,
    (playback, log): (Option<Res<super::model::playback::Playback>>, Res<CombatLog>),
    following: Option<Res<crate::rules::Following>>,
) -> bool {
    // A replay plays a round when its view needs one, whatever the pace.
    if let Some(wanted) = super::model::playback::playback_wants_round(playback.as_deref(), log.entries().len()) {
        return wanted;
    }
    // A loaded save replays its rounds at once, up to where it was saved.
    let catching_up = super::model::pace::fast_forward(replay.as_deref(), &log, following.is_some());
    if state.round == 0 || state.phase != CombatPhase::Initiative || catching_up {
        return true;
    }
    if pace.paused {
        return pace.steps > 0;
    }
    // Autoplay holds a round with an endless delay, which no scaling may overflow.
    let delay = Duration::try_from_secs_f64(pacing.delay.as_secs_f64() * f64::from(pace.speed.pause_share()))
        .unwrap_or(Duration::MAX);
    pacing.elapsed >= delay
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::session::Seat;
    use crate::rules::components::AiKind;

    #[test]
    fn seats_chosen_in_the_menu_carry_over_to_the_next_level_picked() {
        let mut session =
            Session { levels: level_choices(Path::new("/nonexistent"), &ModSet::default()), ..Default::default() };
        let two_sided = |session: &Session| {
            session
                .levels
                .iter()
                .enumerate()
                .filter(|(_, level)| level.template.as_ref().is_some_and(|t| t.sides.len() == 2))
                .map(|(at, _)| at)
                .collect::<Vec<_>>()
        };
        let levels = two_sided(&session);
        session.select(levels[0]);
        let chosen = vec![Seat::Ai(AiKind::Hard), Seat::Human];
        session.choose_seats(chosen.clone());
        session.select(levels[1]);
        assert_eq!(session.seats, chosen, "picking another level keeps the seats the player chose");
    }

    #[test]
    fn the_built_in_levels_are_always_offered() {
        let choices = level_choices(Path::new("/nonexistent"), &ModSet::default());
        assert_eq!(choices.len(), builtin::LEVELS.len());
        assert!(choices.iter().all(|choice| choice.template.is_some()));
    }
}
