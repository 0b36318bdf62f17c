//! Learn to play: a level's lessons shown over its battle one after another, each waiting for
//! the player to do what it teaches (declare an attack, watch a round...). While a lesson only
//! asks to be read, the battle waits for its Continue; any lesson may be skipped.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::controls::UiCommand;
use super::session::{BattleStarted, LevelSource, Screen, Session, StartBattle};
use crate::levels::lessons::{Lesson, LessonGoal};
use crate::rules::components::{Controller, UnitId};
use crate::rules::log::{CombatLog, line};
use crate::rules::{CombatState, CombatSystems};

/// The built-in level the menu's Learn to play starts.
pub const TUTORIAL_LEVEL: &str = "tutorial.ron";
/// Width of the lesson window, in points.
const LESSON_WIDTH: f32 = 380.0;
/// Gap between the lesson window and the board's edges, in points.
const LESSON_GAP: f32 = 12.0;

/// Start the tutorial level (the menu's Learn to play).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct StartTutorial;

/// The lessons of the battle being played, and how far the player has come.
#[derive(Resource, Debug, Default, Clone)]
pub struct Tutorial {
    /// The level's lessons.
    pub lessons: Vec<Lesson>,
    /// The lesson on show (`lessons.len()` once all are done).
    pub at: usize,
    /// The log's length when it began: what the player did since counts for it.
    since: usize,
}

impl Tutorial {
    /// The lesson on show, if any.
    pub fn current(&self) -> Option<&Lesson> {
        self.lessons.get(self.at)
    }

    /// Whether the battle waits for the player to read the lesson on show.
    pub fn holds_battle(&self) -> bool {
        self.current().is_some_and(|lesson| lesson.until == LessonGoal::Continue)
    }

    /// On to the next lesson, counting from a log of `logged` entries.
    fn next(&mut self, logged: usize) {
        self.at = (self.at + 1).min(self.lessons.len());
        self.since = logged;
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Tutorial>()
        .add_message::<StartTutorial>()
        .configure_sets(Update, CombatSystems::Initiative.run_if(no_lesson_to_read))
        .configure_sets(Update, CombatSystems::Resolve.run_if(no_lesson_to_read))
        .add_systems(
            Update,
            (
                start_tutorial.before(super::session::start_battle),
                // As the battle starts, before its first round can: a first lesson to read holds it.
                take_lessons.after(super::session::start_battle).before(CombatSystems::Surprise),
                follow_lessons.after(super::controls::apply_commands),
            ),
        );
}

/// The window's part: the lesson over the board.
pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_lesson.run_if(in_state(Screen::Battle)));
}

fn no_lesson_to_read(tutorial: Res<Tutorial>) -> bool {
    !tutorial.holds_battle()
}

/// Learn to play: the tutorial level with its default seats.
fn start_tutorial(
    mut requests: MessageReader<StartTutorial>,
    mut session: ResMut<Session>,
    mut start: MessageWriter<StartBattle>,
) {
    if requests.read().count() > 0 {
        session.select_source(LevelSource::Builtin(TUTORIAL_LEVEL));
        start.write(StartBattle);
    }
}

/// A battle that starts takes its level's lessons from the first.
fn take_lessons(mut started: MessageReader<BattleStarted>, session: Res<Session>, mut tutorial: ResMut<Tutorial>) {
    if started.read().count() > 0 {
        let lessons = session.current.as_ref().map(|template| template.lessons.clone()).unwrap_or_default();
        *tutorial = Tutorial { lessons, at: 0, since: 0 };
    }
}

/// A lesson ends when the player did what it asks (or pressed Continue or Skip); once the
/// battle is over, lessons about fighting it are passed over.
fn follow_lessons(
    mut commands: MessageReader<UiCommand>,
    mut tutorial: ResMut<Tutorial>,
    state: Res<CombatState>,
    log: Res<CombatLog>,
    units: Query<(&UnitId, &Controller)>,
) {
    let logged = log.entries().len();
    if commands.read().any(|command| *command == UiCommand::NextLesson) {
        tutorial.next(logged);
    }
    while let Some(lesson) = tutorial.current() {
        let done = match lesson.until {
            LessonGoal::Continue => false,
            LessonGoal::Declare(action) => {
                let kind = action.kind().log_name();
                let human = |id: &str| {
                    units.iter().any(|(unit, controller)| &*unit.0 == id && *controller == Controller::Human)
                };
                log.entries().get(tutorial.since..).unwrap_or_default().iter().any(|entry| {
                    matches!(&entry.event, crate::rules::log::LogEvent::Declared(line::Declared { unit, action, .. })
                        if *action == kind && human(unit))
                })
            }
            LessonGoal::Round(round) => state.round >= round,
            LessonGoal::BattleOver => state.is_over(),
        };
        let passed_over = state.is_over() && matches!(lesson.until, LessonGoal::Declare(_) | LessonGoal::Round(_));
        if !(done || passed_over) {
            break;
        }
        tutorial.next(logged);
    }
}

/// The lesson on show, at the board's bottom left: its place in the course, its words, and
/// Continue (or Skip, while it waits for the player to act).
fn draw_lesson(
    mut contexts: EguiContexts,
    tutorial: Res<Tutorial>,
    ui_state: Res<super::controls::BattleUi>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(lesson) = tutorial.current() else {
        return Ok(());
    };
    // Behind the hot-seat curtain nothing of the battle shows.
    if ui_state.curtain.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let title = format!("Learn to play · {} of {}", tutorial.at + 1, tutorial.lessons.len());
    let offset = egui::vec2(super::ui::LEFT_PANEL_WIDTH + LESSON_GAP, -LESSON_GAP);
    egui::Window::new(title)
        .id(egui::Id::new("lesson"))
        .anchor(egui::Align2::LEFT_BOTTOM, offset)
        .default_width(LESSON_WIDTH)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(&lesson.title).heading().strong());
            ui.label(&lesson.text);
            ui.add_space(LESSON_GAP / 2.0);
            let label = if lesson.until == LessonGoal::Continue { "Continue" } else { "Skip" };
            if super::ui::tracked_button(ui, label).clicked() {
                commands.write(UiCommand::NextLesson);
            }
        });
    Ok(())
}
