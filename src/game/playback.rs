//! The replay viewer (`fray replay FILE`): a save or a JSON Lines combat log played back on the
//! board, event by event, with pause, stepping forward and back by event and by round, and the
//! game's own speeds. The engine is deterministic, so the board is the real battle run again:
//! going forward lets it play the next round; going back to an earlier round spawns the battle
//! afresh and runs it to there. The board shows the battle at the end of the round of the event
//! in view; the panel shows that event in words.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::controls::{BattleUi, UiCommand};
use super::session::{Pace, Screen, Speed};
use super::ui::tracked_button;
use crate::levels::{BattleSetup, BattleTemplate};
use crate::rules::log::CombatLog;
use crate::rules::log_text::{self, Names};
use crate::save::{Declaration, Replay};

/// Height of the replay bar at the bottom of the board, in points.
const BAR_HEIGHT: f32 = 64.0;
/// Time between events when playing at normal speed.
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
    /// A step back went before what the board shows: the battle must be run again.
    pub rebuild: bool,
    /// Time since the last event came into view while playing.
    since_event: Duration,
}

/// What the battle on the board must do to show the events in view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Play on: the next round holds events still to show.
    Advance,
    /// Stay: every event in view has happened.
    Hold,
    /// Start again: the board is past the events in view.
    Rebuild,
}

impl Playback {
    /// A playback of `source`, before its first event.
    pub fn new(source: PlaybackSource) -> Self {
        Self { source, cursor: 0, rebuild: false, since_event: Duration::ZERO }
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

    /// Moves the view; a step back past what the board shows asks for the battle again.
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
        if self.round() < before {
            self.rebuild = true;
        }
        self.since_event = Duration::ZERO;
    }

    /// What the battle must do, given how many events it has logged.
    pub fn drive(&self, logged: usize) -> Drive {
        if self.rebuild && logged > self.end_of_round(self.round()) {
            Drive::Rebuild
        } else if logged < self.cursor {
            Drive::Advance
        } else {
            Drive::Hold
        }
    }

    /// Plays on while not paused: an event per interval at the chosen speed (a whole round at
    /// once at Instant), once the board has caught up with the last one.
    pub fn tick(&mut self, elapsed: Duration, pace: &Pace, logged: usize) {
        if pace.paused || self.cursor >= self.total() || self.drive(logged) != Drive::Hold {
            return;
        }
        self.since_event += elapsed;
        let interval = match pace.speed {
            Speed::Normal => EVENT_INTERVAL,
            Speed::Double => EVENT_INTERVAL / 2,
            Speed::Instant => Duration::ZERO,
        };
        if self.since_event >= interval {
            let step = if pace.speed == Speed::Instant { ReplayStep::RoundForward } else { ReplayStep::EventForward };
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
    app.add_systems(Startup, start_playback.after(super::session::apply_launch_options)).add_systems(
        Update,
        (steer, rebuild)
            .chain()
            .run_if(resource_exists::<Playback>)
            // Before the rounds, so a step's rebuild or round plays in the same frame; the
            // keys' and buttons' commands of the frame before are read here.
            .before(crate::rules::CombatSystems::Surprise),
    );
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
    log: Res<CombatLog>,
) {
    for command in commands.read() {
        match command {
            UiCommand::Replay(step) => playback.step(*step),
            // The game's Step (one more round) is one more event here.
            UiCommand::Step => playback.step(ReplayStep::EventForward),
            _ => {}
        }
    }
    playback.tick(time.delta(), &pace, log.entries().len());
}

/// A step back before what the board shows: the battle is spawned again and plays forward to
/// the round in view (a round per frame).
fn rebuild(world: &mut World) {
    let logged = world.resource::<CombatLog>().entries().len();
    let mut playback = world.resource_mut::<Playback>();
    let drive = playback.drive(logged);
    playback.rebuild = false;
    if drive == Drive::Rebuild {
        let source = playback.source.clone();
        let paused = world.resource::<Pace>().paused;
        spawn(world, &source);
        world.resource_mut::<Pace>().paused = paused;
    }
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
