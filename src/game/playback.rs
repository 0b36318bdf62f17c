//! The replay viewer (`fray replay FILE`): a save or a JSON Lines combat log played back on the
//! board, event by event, with pause, stepping forward and back by event and by round, and the
//! game's own speeds. The engine is deterministic, so the board is the real battle run again, one
//! initiative count at a time as in a live battle: going forward lets it resolve the next count
//! (or the next stage of the round) only once the view reaches its first event, and the count on
//! show stands at the event in view (a walk part way, the acting unit ringed); going back before
//! what the board has played spawns the battle afresh and runs it to there. Playing at 1x or 2x,
//! a count's events come up on its playout timeline, as in a live round; the others one an
//! interval. The panel shows the event in view in words.

use std::path::Path;

use super::model::battle_ui::{BattleUi, UiCommand};
use super::model::pace::Pace;
use super::model::playback::{Drive, Playback, PlaybackSource, ReplayStep, playback_wants_round};
use super::model::playing_count::PlayingCount;
use super::model::screen::Screen;
use super::spine::GameSystems;
use super::ui::widgets::tracked_button;
use crate::levels::mods::ModSet;
use crate::rules::CombatSystems;
use crate::rules::log::CombatLog;
use crate::rules::log_text::{self, Names};
use crate::save::Replay;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Height of the replay bar at the bottom of the board, in points.
const BAR_HEIGHT: f32 = 64.0;
impl PlaybackSource {
    /// Reads a save (`.ron`) or a JSON Lines log (its first battle); `level` names the level of
    /// a log fought on a level that is not shipped; the level loads with `mods`. Errors read
    /// `file:line:column: what`.
    pub fn open(file: &Path, level: Option<&Path>, mods: &ModSet) -> Result<Self, String> {
        if crate::save::verify::is_log(file) {
            let (template, setup, rounds) =
                crate::save::verify::first_battle(file, level, mods).map_err(|error| error.to_string())?;
            return Ok(Self { file: file.into(), template, setup, declarations: None, rounds });
        }
        let (save, template, battle) = crate::save::load_headless(file, mods).map_err(|error| error.to_string())?;
        let setup = crate::save::setup_of(&save, &template, file).map_err(|error| error.to_string())?;
        let rounds = battle.log().entries().iter().take(save.events).map(|entry| entry.round).collect();
        Ok(Self { file: file.into(), template, setup, declarations: Some(save.declarations), rounds })
    }

    /// The save's events, when the source is a save.
    fn replay(&self) -> Option<Replay> {
        self.declarations.as_ref().map(|declarations| Replay::new(declarations.clone(), self.rounds.len()))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, start_playback.after(super::session::apply_launch_options))
        .add_systems(
            Update,
            (steer, rebuild)
                .chain()
                .run_if(resource_exists::<Playback>)
                // Before the rounds, so a step's rebuild or count plays in the same frame; the
                // keys' and buttons' commands of the frame before are read here.
                .in_set(GameSystems::Session),
        )
        // The end of a round (morale, bleeding, fleeing) waits for its first event to be in
        // view too, not only the counts (`playout.rs`) and the next round (`session.rs`).
        .configure_sets(Update, CombatSystems::Morale.run_if(view_wants_more));
}

/// Whether the battle may go on: always, but in a replay whose view has caught up with it.
fn view_wants_more(playback: Option<Res<Playback>>, log: Res<CombatLog>) -> bool {
    playback_wants_round(playback.as_deref(), log.entries().len()).unwrap_or(true)
}

/// The window's part: the replay bar.
pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_playback.run_if(resource_exists::<Playback>));
}

/// `fray replay FILE`: spawns the recorded battle, paused before its first event.
fn start_playback(world: &mut World) {
    let Some(source) = world.resource::<super::LaunchOptions>().playback.clone() else {
        return;
    };
    spawn(world, &source);
    world.resource_mut::<Pace>().paused = true;
    let status = format!("Replay of {}: press P or Resume to play", source.file.display());
    world.resource_mut::<BattleUi>().status = Some(status);
    world.insert_resource(Playback::new(source));
}

/// Spawns the battle of `source` from its start (a save's declarations queued to replay).
fn spawn(world: &mut World, source: &PlaybackSource) {
    source.template.spawn(world, &source.setup);
    super::session::show_new_battle(world, source.template.clone());
    // The count on show was the old battle's.
    if let Some(mut playing) = world.get_resource_mut::<PlayingCount>() {
        *playing = PlayingCount::default();
    }
    if let Some(replay) = source.replay() {
        world.insert_resource(replay);
    }
}

/// Step commands move the view; playing moves it with time.
fn steer(
    mut commands: MessageReader<UiCommand>,
    mut playback: ResMut<Playback>,
    pace: Res<Pace>,
    time: Res<Time>,
    (log, playing): (Res<CombatLog>, Option<Res<PlayingCount>>),
) {
    for command in commands.read() {
        match command {
            UiCommand::Replay(step) => playback.step(*step),
            // The game's Step (one more round) is one more event here.
            UiCommand::Step => playback.step(ReplayStep::EventForward),
            _ => {}
        }
    }
    let none = PlayingCount::default();
    playback.tick(time.delta(), &pace, log.entries().len(), playing.as_deref().unwrap_or(&none));
}

/// A step back before what the board has played: the battle is spawned again and plays forward
/// to the event in view (a count per frame). Notes where the board goes on from this frame.
fn rebuild(world: &mut World) {
    let logged = world.resource::<CombatLog>().entries().len();
    let mut playback = world.resource_mut::<Playback>();
    if playback.drive(logged) == Drive::Rebuild {
        playback.board_from = None;
        let source = playback.source.clone();
        let paused = world.resource::<Pace>().paused;
        spawn(world, &source);
        world.resource_mut::<Pace>().paused = paused;
    }
    let logged = world.resource::<CombatLog>().entries().len();
    world.resource_mut::<Playback>().drive_now(logged);
}

/// The replay bar at the bottom: where the view is, the event in words, and the steps.
fn draw_playback(
    mut contexts: EguiContexts,
    playback: Res<Playback>,
    log: Res<CombatLog>,
    screen: Res<State<Screen>>,
    battlefield: Res<crate::battlefield::Battlefield>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    if *screen.get() != Screen::Battle {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Zones by their names, as the log window shows them ("The Courtyard", not `courtyard`).
    let names = Names::from_log(log.entries()).with_zones(&battlefield);
    let event = playback.cursor.checked_sub(1).and_then(|at| log.entries().get(at));
    let screen = ctx.content_rect();
    let bar = egui::Rect::from_min_max(
        egui::pos2(screen.left() + super::model::screen::LEFT_PANEL_WIDTH, screen.bottom() - BAR_HEIGHT),
        egui::pos2(screen.right() - super::model::screen::RIGHT_PANEL_WIDTH, screen.bottom()),
    );
    super::ui::widgets::dock(ctx, "replay_bar", bar, |ui| {
        ui.horizontal(|ui| {
            ui.strong("Replay");
            ui.label(format!(
                "event {} of {} · round {} of {}",
                playback.cursor,
                playback.total(),
                playback.round(),
                playback.last_round()
            ));
            ui.separator();
            let steps = [
                ("Round back", ReplayStep::RoundBack),
                ("Event back", ReplayStep::EventBack),
                ("Event forward", ReplayStep::EventForward),
                ("Round forward", ReplayStep::RoundForward),
            ];
            for (label, step) in steps {
                if tracked_button(ui, label).clicked() {
                    commands.write(UiCommand::Replay(step));
                }
            }
        });
        let words =
            event.map_or_else(|| "Before the first event".to_string(), |entry| log_text::describe(entry, &names));
        ui.label(egui::RichText::new(words).monospace());
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::battlefield::Place;
    use crate::game::model::playback::EVENT_INTERVAL;
    use crate::levels::BattleSetup;
    use crate::rules::Slot;
    use crate::rules::components::{Action, ActionKind};
    use crate::rules::log::{LogEntry, LogEvent, line};

    /// A replay of `events` events, all of round 1 but the first.
    fn playback(events: usize) -> Playback {
        let template =
            crate::levels::load_builtin_level(crate::levels::DEFAULT_LEVEL, &crate::levels::mods::ModSet::default())
                .expect("the default level loads");
        let rounds = (0..events).map(|at| u32::from(at > 0)).collect();
        let source = PlaybackSource {
            file: "test.jsonl".into(),
            template,
            setup: BattleSetup::default(),
            declarations: None,
            rounds,
        };
        Playback::new(source)
    }

    fn moved(x: i32) -> LogEntry {
        let unit: Arc<str> = "wren".into();
        let event = LogEvent::Moved(line::Moved { unit, from: Place::Square([x, 0]), to: Place::Square([x + 1, 0]) });
        LogEntry { round: 1, event }
    }

    /// Events 0 and 1 before it, then a count walking three squares (events 2 to 4), then one
    /// more event.
    fn a_walk() -> (Vec<LogEntry>, PlayingCount) {
        let entries = vec![moved(9), moved(9), moved(0), moved(1), moved(2), moved(9)];
        let slot =
            Slot { initiative: 3, unit: Entity::PLACEHOLDER, order: 0, action: Action::simple(ActionKind::Move) };
        let count = PlayingCount::new(1, Some(3), vec![slot], 2..5, &entries);
        (entries, count)
    }

    #[test]
    fn the_count_on_show_stands_at_the_event_in_view() {
        let (_, count) = a_walk();
        let mut view = playback(6);
        view.cursor = 2;
        assert_eq!(view.count_age(&count), None, "none of its lines in view: the board is ahead");
        for (cursor, line) in [(3, 0), (4, 1), (5, 2)] {
            view.cursor = cursor;
            assert_eq!(view.count_age(&count), Some(count.at[line]), "event {cursor}");
        }
        view.cursor = 6;
        assert_eq!(view.count_age(&count), Some(count.length()), "all of it in view: played out");
        assert_eq!(view.count_age(&PlayingCount::default()), None, "no count on show");
    }

    #[test]
    fn a_step_back_within_the_count_on_show_keeps_the_board_and_one_before_it_starts_again() {
        let mut view = playback(6);
        view.cursor = 3;
        assert_eq!(view.drive_now(2), Drive::Advance, "the count is resolved once its first event is in view");
        assert_eq!(view.drive_now(5), Drive::Hold);
        view.step(ReplayStep::EventForward);
        view.step(ReplayStep::EventBack);
        assert_eq!(view.drive(5), Drive::Hold, "back to the count's first event: the board shows it");
        view.step(ReplayStep::EventBack);
        assert_eq!(view.drive(5), Drive::Rebuild, "back before the count: the battle is played again");
    }

    #[test]
    fn playing_brings_a_count_s_events_up_on_its_timeline_then_lets_it_be_read() {
        let (entries, mut count) = a_walk();
        let logged = entries.len();
        let mut view = playback(6);
        view.cursor = 3;
        let pace = Pace::default();
        count.age = count.at[1];
        view.tick(Duration::ZERO, &pace, logged, &count);
        assert_eq!(view.cursor, 4, "the second step of the walk is up");
        count.age = count.at[2];
        view.tick(Duration::ZERO, &pace, logged, &count);
        assert_eq!(view.cursor, 5);
        view.tick(EVENT_INTERVAL, &pace, logged, &count);
        assert_eq!(view.cursor, 5, "the count is still on show: nothing new yet");
        count.age = count.length();
        view.tick(Duration::ZERO, &pace, logged, &count);
        assert_eq!(view.cursor, 6, "seen, and the interval has passed meanwhile");
    }
}
