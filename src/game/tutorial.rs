//! Learn to play: a level's lessons shown over its battle one after another, each waiting for
//! the player to do what it teaches (declare an attack, watch a round...). While a lesson only
//! asks to be read, the battle waits for its Continue; any lesson may be skipped.

use super::model::battle_ui::UiCommand;
use super::model::screen::Screen;
use super::model::session::{BattleStarted, LevelSource, Session, StartBattle};
use super::spine::GameSystems;
use crate::battlefield::{Battlefield, Place, Square, ZoneIdx};
use crate::levels::lessons::{Lesson, LessonGoal, TaughtCover};
use crate::levels::mods::ActiveMods;
use crate::rules::components::{ActionKind, Conditions, Controller, Loadout, Offer, UnitId, Zone};
use crate::rules::log::{CombatLog, LogEntry, LogEvent, line};
use crate::rules::{CombatState, CombatSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The built-in level of the first lesson: the basics, on zones.
pub const TUTORIAL_LEVEL: &str = "tutorial.ron";
/// The built-in level of the second lesson: sight and cover, on a grid.
pub const GRID_TUTORIAL_LEVEL: &str = "tutorial_grid.ron";
/// Width of the lesson window, in points.
const LESSON_WIDTH: f32 = 380.0;
/// Gap between the lesson window and the board's edges, in points.
const LESSON_GAP: f32 = 12.0;

/// The courses Learn to play offers, each a built-in level with lessons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Course {
    /// The Training Yard: declaring, initiative, Stress and Wounds, free attacks (zones).
    #[default]
    Basics,
    /// The grid: moving square by square, who sees whom, and cover.
    SightAndCover,
}

impl Course {
    /// Every course, in the order the menu offers them.
    pub const ALL: [Self; 2] = [Self::Basics, Self::SightAndCover];

    /// The built-in level it plays.
    pub const fn level(self) -> &'static str {
        match self {
            Self::Basics => TUTORIAL_LEVEL,
            Self::SightAndCover => GRID_TUTORIAL_LEVEL,
        }
    }

    /// Its name in the menu.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Basics => "The basics",
            Self::SightAndCover => "Sight and cover",
        }
    }

    /// What it teaches, in a line.
    pub const fn summary(self) -> &'static str {
        match self {
            Self::Basics => {
                "A first battle, on zones: declaring, initiative, Stress and Wounds, free attacks. Start here."
            }
            Self::SightAndCover => {
                "A battle on a grid: moving square by square, who can see whom, and shooting at targets in cover."
            }
        }
    }
}

/// Start a course of Learn to play (the menu's Learn to play).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct StartTutorial(pub Course);

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
                start_tutorial.in_set(GameSystems::Session).before(super::session::start_battle),
                // As the battle starts, before its first round can: a first lesson to read holds it.
                take_lessons.in_set(GameSystems::Session).after(super::session::start_battle),
                follow_lessons.in_set(GameSystems::Answers),
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

/// Learn to play: the course's level with its default seats.
fn start_tutorial(
    mut requests: MessageReader<StartTutorial>,
    (mut session, mods): (ResMut<Session>, Res<ActiveMods>),
    mut start: MessageWriter<StartBattle>,
) {
    if let Some(StartTutorial(course)) = requests.read().last() {
        session.select_source(LevelSource::Builtin(course.level()), &mods.0);
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
    battlefield: Res<Battlefield>,
    units: Query<LessonUnit>,
) {
    let logged = log.entries().len();
    if commands.read().any(|command| *command == UiCommand::NextLesson) {
        tutorial.next(logged);
    }
    while let Some(lesson) = tutorial.current() {
        let done = match lesson.until {
            LessonGoal::Continue => false,
            LessonGoal::Declare(action) => {
                let kind = Offer::from(action.kind());
                let human = |id: &str| {
                    units.iter().any(|(unit, controller, ..)| &*unit.0 == id && *controller == Controller::Human)
                };
                declarations(log.entries(), tutorial.since)
                    .any(|declared| Offer::from(declared.action) == kind && human(&declared.unit))
            }
            LessonGoal::Shoot(cover) => declarations(log.entries(), tutorial.since)
                .any(|declared| shot_at_cover(declared, cover, &battlefield, &units)),
            LessonGoal::Round(round) => state.round >= round,
            LessonGoal::BattleOver => state.is_over(),
        };
        let passed_over = state.is_over()
            && matches!(lesson.until, LessonGoal::Declare(_) | LessonGoal::Shoot(_) | LessonGoal::Round(_));
        if !(done || passed_over) {
            break;
        }
        tutorial.next(logged);
    }
}

/// What a lesson reads of a unit: who it is, who plays it, where it stands and what it shoots with.
type LessonUnit = (&'static UnitId, &'static Controller, &'static Zone, &'static Loadout, &'static Conditions);

/// The declarations logged from entry `since` on.
fn declarations(entries: &[LogEntry], since: usize) -> impl Iterator<Item = &line::Declared> {
    entries.get(since..).unwrap_or_default().iter().filter_map(|entry| match &entry.event {
        LogEvent::Declared(declared) => Some(declared),
        _ => None,
    })
}

/// Whether `declared` is one of the player's units shooting a missile weapon at a target that
/// has `cover` from where the shooter will stand (the square it moves to first, else its own).
fn shot_at_cover(
    declared: &line::Declared,
    cover: TaughtCover,
    battlefield: &Battlefield,
    units: &Query<LessonUnit>,
) -> bool {
    let find = |id: &str| units.iter().find(|(unit, ..)| &*unit.0 == id);
    let Some((_, controller, zone, loadout, conditions)) = find(&declared.unit) else {
        return false;
    };
    let Some((_, _, target_zone, ..)) = declared.target.as_deref().and_then(find) else {
        return false;
    };
    let shooting = declared.action == ActionKind::Attack && loadout.usable_weapon(conditions).1.is_ranged();
    let standing = declared.move_to.as_ref().and_then(|place| zone_of(battlefield, place)).unwrap_or(zone.0);
    *controller == Controller::Human && shooting && battlefield.sight(standing, target_zone.0) == Some(cover.cover())
}

/// The zone (or square) a log's place names.
fn zone_of(battlefield: &Battlefield, place: &Place) -> Option<ZoneIdx> {
    match place {
        Place::Zone(id) => battlefield.find(id),
        Place::Square([x, y]) => battlefield.zone_at(Square::new(*x, *y)),
    }
}

/// The lesson on show, at the board's bottom left: its place in the course, its words, and
/// Continue (or Skip, while it waits for the player to act).
fn draw_lesson(
    mut contexts: EguiContexts,
    tutorial: Res<Tutorial>,
    ui_state: Res<super::model::battle_ui::BattleUi>,
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
    let offset = egui::vec2(super::model::screen::LEFT_PANEL_WIDTH + LESSON_GAP, -LESSON_GAP);
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
            if super::ui::widgets::tracked_button(ui, label).clicked() {
                commands.write(UiCommand::NextLesson);
            }
        });
    Ok(())
}
