//! The replay viewer (`fray replay FILE`): a save or a JSON Lines combat log played back on the
//! board, event by event, with pause, stepping forward and back by event and by round, and the
//! game's own speeds. The engine is deterministic, so the board is the real battle run again, one
//! initiative count at a time as in a live battle: going forward lets it resolve the next count
//! (or the next stage of the round) only once the view reaches its first event, and the count on
//! show stands at the event in view (a walk part way, the acting unit ringed); going back before
//! what the board has played spawns the battle afresh and runs it to there. Playing at 1x or 2x,
//! a count's events come up on its playout timeline, as in a live round; the others one an
//! interval. The panel shows the event in view in words.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::spine::GameSystems;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::controls::{BattleUi, UiCommand};
use super::playout::PlayingCount;
use super::session::{Pace, Screen, Speed};
use super::ui::tracked_button;
use crate::levels::{BattleSetup, BattleTemplate};
use crate::rules::CombatSystems;
use crate::rules::log::CombatLog;
use crate::rules::log_text::{self, Names};
use crate::save::{Declaration, Replay};

/// Height of the replay bar at the bottom of the board, in points.
const BAR_HEIGHT: f32 = 64.0;
/// Time between events outside a count (a roll for initiative, a declaration, the end of a
/// round) when playing at normal speed.
pub const EVENT_INTERVAL: Duration = Duration::from_millis(600);

/// One way of stepping through the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayStep {
    /// One event back.
    EventBack,
    /// One event on.
    EventForward,
    /// Back to the end of the round before.
    RoundBack,
    /// On to the end of the next event's round.
    RoundForward,
}

/// A recorded battle to play back: how to start it again and the round of each logged event.
#[derive(Clone, Debug)]
pub struct PlaybackSource {
    /// The file it came from.
    pub file: PathBuf,
    /// The level it was fought on.
    pub template: BattleTemplate,
    /// Its seed and seats.
    pub setup: BattleSetup,
    /// A save's human declarations (a log holds AI-only battles, which need none).
    pub declarations: Option<Vec<Declaration>>,
    /// The round of each event, in log order.
    pub rounds: Vec<u32>,
}

impl PlaybackSource {
    /// Reads a save (`.ron`) or a JSON Lines log (its first battle); `level` names the level of
    /// a log fought on a level that is not shipped. Errors read `file:line:column: what`.
    pub fn open(file: &Path, level: Option<&Path>) -> Result<Self, String> {
        if crate::save::verify::is_log(file) {
            let (template, setup, rounds) =
                crate::save::verify::first_battle(file, level).map_err(|error| error.to_string())?;
            return Ok(Self { file: file.into(), template, setup, declarations: None, rounds });
        }
        let (save, template, battle) = crate::save::load_headless(file).map_err(|error| error.to_string())?;
        let setup = crate::save::setup_of(&save, &template, file).map_err(|error| error.to_string())?;
        let rounds = battle.log().entries().iter().take(save.events).map(|entry| entry.round).collect();
        Ok(Self { file: file.into(), template, setup, declarations: Some(save.declarations), rounds })
    }

    /// The save's events, when the source is a save.
    fn replay(&self) -> Option<Replay> {
        self.declarations.as_ref().map(|declarations| Replay::new(declarations.clone(), self.rounds.len()))
    }
}

/// The replay being watched: its events and how many of them are in view.
#[derive(Resource, Debug)]
pub struct Playback {
    /// What is played back.
    pub source: PlaybackSource,
    /// Events in view (0 before the first).
    pub cursor: usize,
    /// The log's length when the battle on the board last went on (`None` since it was
    /// spawned): a view that ends before it lacks what the board has played since.
    pub board_from: Option<usize>,
    /// Time since the last event came into view while playing.
    since_event: Duration,
}

/// What the battle on the board must do to show the events in view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Play on: the next count (or stage of the round) holds events still to show.
    Advance,
    /// Stay: every event in view has happened.
    Hold,
    /// Start again: the board is past the events in view.
    Rebuild,
}

impl Playback {
    /// A playback of `source`, before its first event.
    pub fn new(source: PlaybackSource) -> Self {
        Self { source, cursor: 0, board_from: None, since_event: Duration::ZERO }
    }

    /// Events in the whole replay.
    pub fn total(&self) -> usize {
        self.source.rounds.len()
    }

    /// The round of the last event in view (0 before round 1).
    pub fn round(&self) -> u32 {
        self.cursor.checked_sub(1).and_then(|at| self.source.rounds.get(at)).copied().unwrap_or(0)
    }

    /// The replay's last round.
    pub fn last_round(&self) -> u32 {
        self.source.rounds.last().copied().unwrap_or(0)
    }

    /// How many events have happened by the end of `round`.
    fn end_of_round(&self, round: u32) -> usize {
        self.source.rounds.partition_point(|at| *at <= round)
    }

    /// How many events happened before `round` began.
    fn start_of_round(&self, round: u32) -> usize {
        self.source.rounds.partition_point(|at| *at < round)
    }

    /// Moves the view (a step back past what the board has played asks for the battle again,
    /// see [`Self::drive`]).
    pub fn step(&mut self, step: ReplayStep) {
        let before = self.round();
        self.cursor = match step {
            ReplayStep::EventBack => self.cursor.saturating_sub(1),
            ReplayStep::EventForward => (self.cursor + 1).min(self.total()),
            ReplayStep::RoundBack => self.start_of_round(before),
            ReplayStep::RoundForward => match self.source.rounds.get(self.cursor) {
                Some(next) => self.end_of_round(*next),
                None => self.cursor,
            },
        };
        self.since_event = Duration::ZERO;
    }

    /// What the battle must do, given how many events it has logged. It goes on only while the
    /// view is ahead of it, so each count it resolves begins with an event in view; it starts
    /// again when the view went back before the first event of what it played last.
    pub fn drive(&self, logged: usize) -> Drive {
        if self.board_from.is_some_and(|from| from >= self.cursor) {
            Drive::Rebuild
        } else if logged < self.cursor {
            Drive::Advance
        } else {
            Drive::Hold
        }
    }

    /// What the battle must do this frame, as [`Self::drive`], noting where the board goes on
    /// from when it goes on.
    pub fn drive_now(&mut self, logged: usize) -> Drive {
        let drive = self.drive(logged);
        if drive == Drive::Advance {
            self.board_from = Some(logged);
        }
        drive
    }

    /// How far into its timeline the count on show stands with the events in view: when its
    /// last line in view came up, or its end once all of them are in view. `None` without a
    /// count on show, or while none of its lines is in view (the battle is about to start again).
    pub fn count_age(&self, count: &PlayingCount) -> Option<f32> {
        if count.slots.is_empty() {
            return None;
        }
        let last_in_view = self.cursor.checked_sub(count.lines.start)?.checked_sub(1)?;
        Some(count.at.get(last_in_view).copied().unwrap_or_else(|| count.length()))
    }

    /// Plays on while not paused, once the board has caught up: a count's events as its
    /// timeline brings them up (at 1x and 2x), any other event an interval after the last (a
    /// whole round at once at Instant), and nothing new until the count on show has been seen.
    pub fn tick(&mut self, elapsed: Duration, pace: &Pace, logged: usize, count: &PlayingCount) {
        if pace.paused || self.cursor >= self.total() || self.drive(logged) != Drive::Hold {
            return;
        }
        let instant = pace.speed == Speed::Instant;
        if count.playing() && !instant {
            if self.cursor < count.lines.end {
                let due = count.shown(logged).min(self.total());
                if due > self.cursor {
                    self.cursor = due;
                    self.since_event = Duration::ZERO;
                }
                return;
            }
            // Its results are read while the next event's interval runs.
            self.since_event += elapsed;
            return;
        }
        self.since_event += elapsed;
        let interval = match pace.speed {
            Speed::Normal => EVENT_INTERVAL,
            Speed::Double => EVENT_INTERVAL / 2,
            Speed::Instant => Duration::ZERO,
        };
        if self.since_event >= interval {
            let step = if instant { ReplayStep::RoundForward } else { ReplayStep::EventForward };
            self.step(step);
        }
    }
}

/// Whether the round pacing may start a round: `None` without a playback (the pace decides),
/// else only while the board has events still to show.
pub fn playback_wants_round(playback: Option<&Playback>, logged: usize) -> Option<bool> {
    playback.map(|playback| playback.drive(logged) == Drive::Advance)
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
        egui::pos2(screen.left() + super::ui::LEFT_PANEL_WIDTH, screen.bottom() - BAR_HEIGHT),
        egui::pos2(screen.right() - super::ui::RIGHT_PANEL_WIDTH, screen.bottom()),
    );
    super::ui::dock(ctx, "replay_bar", bar, |ui| {
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

    use super::*;
    use crate::battlefield::Place;
    use crate::rules::Slot;
    use crate::rules::components::{Action, ActionKind};
    use crate::rules::log::{LogEntry, LogEvent, line};

    /// A replay of `events` events, all of round 1 but the first.
    fn playback(events: usize) -> Playback {
        let template =
            crate::levels::load_builtin_level(crate::levels::DEFAULT_LEVEL).expect("the default level loads");
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
