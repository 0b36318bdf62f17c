//! Scripted play for real-window tests: a RON list of steps (press a key, click a button by
//! its label, wait for or expect a condition, take a screenshot) fed to the game as the
//! window's own input messages, so keys and clicks go through the same path as a person's:
//! winit's messages, leafwing's action state and egui's input.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::{MouseButtonInput, MouseScrollUnit, MouseWheel};
use bevy::input::touch::TouchPhase;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::{CursorMoved, PrimaryWindow, WindowEvent};
use serde::Deserialize;

use super::board::Token;
use super::controls::{self, Binding};
use super::model::battle_ui::{BattleUi, DeclarationOptions};
use super::model::board::{BoardLayout, BoardZone, GRID_TILE};
use super::model::launch::LaunchOptions;
use super::model::pace::Pace;
use super::model::screen::Screen;
use super::model::session::Session;
use super::ui::widgets::ButtonRects;
use crate::battlefield::Battlefield;
use crate::rules::CombatState;
use crate::rules::components::{Status, UnitId};

/// Frames a key or mouse button is held down, as a person's press lasts a few frames.
const HOLD_FRAMES: u32 = 3;
/// Frames between moving the pointer onto a button and pressing it, so egui sees it hover.
const HOVER_FRAMES: u32 = 2;
/// Frames after a click's release before the next step: egui sees the release a frame later
/// and its command is applied the frame after that.
const CLICK_SETTLE_FRAMES: u32 = 4;
/// How long a step may wait for its condition when the script names no timeout, in seconds.
const DEFAULT_TIMEOUT_SECONDS: f32 = 120.0;

/// A script file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// Seconds any one step may wait before the script fails.
    #[serde(default = "default_timeout")]
    pub timeout: f32,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

fn default_timeout() -> f32 {
    DEFAULT_TIMEOUT_SECONDS
}

/// One step of a script.
#[derive(Debug, Clone, Deserialize)]
pub enum Step {
    /// Let this many frames pass.
    Frames(u32),
    /// Wait until the condition holds.
    WaitFor(Condition),
    /// Fail unless the condition holds now.
    Expect(Condition),
    /// Press and release a key, named as in the settings file (`"Tab"`, `"Enter"`, `"R"`,
    /// `"Ctrl+S"`).
    Press(String),
    /// Press the key again and again until the condition holds (a player holding every round).
    PressUntil(String, Condition),
    /// Click the button with this label (waiting for it to show).
    Click(String),
    /// Click the button with this label if it shows now; go on either way.
    ClickIfShown(String),
    /// Turn the mouse wheel by this many lines (negative scrolls down) over the button with
    /// this label, to bring a list's hidden entries into view.
    Scroll(String, f32),
    /// Press the mouse on the widget with the first label, move to the one with the second
    /// label and release there (a drag on the level editor's board, say).
    Drag(String, String),
    /// Move the pointer onto the token of the unit with this level id (to show its hover card).
    PointAt(String),
    /// Move the pointer onto the grid square at this column and row, counting from 0 (to show
    /// its hover card).
    PointAtSquare(i32, i32),
    /// Click the grid square at this column and row, counting from 0 (to pick a destination or a
    /// target there, as a person's click on the board does).
    ClickSquare(i32, i32),
    /// Save a screenshot of the window under this file name in the screenshots folder.
    Screenshot(String),
    /// Edit a file on disk, as a modder's editor would while the game runs: replace the first
    /// `from` in the file at this path (relative to where the game runs) with `to`.
    Edit(PathBuf, String, String),
    /// The last step: the game must quit by itself (the step fails if it is still running at
    /// the timeout).
    AwaitQuit,
}

/// Something about the game that a step waits for or expects.
#[derive(Debug, Clone, Deserialize)]
pub enum Condition {
    /// This screen shows.
    Screen(ScreenName),
    /// The battle has ended.
    BattleOver,
    /// A battle is being fought (not over).
    BattleOn,
    /// The battle has reached at least this round.
    Round(u32),
    /// The battle being played is the level of this name.
    Level(String),
    /// The board is drawn: every zone (every square of a grid) and a token for every unit.
    BoardDrawn,
    /// A human unit is declaring.
    Declaring,
    /// The "leave the battle?" question shows.
    Confirming,
    /// The hot-seat curtain is down.
    Curtain,
    /// At least this many battles have started (restarts count).
    Battles(u32),
    /// The log window shows.
    LogOpen,
    /// The declaration panel shows a hint (what the draft still needs).
    Hint,
    /// Rounds are paused.
    Paused,
    /// An initiative count is being played out on the board.
    CountOnShow,
    /// The token of the unit with this level id is drawn in the zone with this id (where the
    /// board shows it, part way along a walk or not).
    TokenIn(String, String),
    /// The kind of action drafted offers at least this many options.
    KindOptions(usize),
    /// The tutorial shows this lesson (counted from 1).
    Lesson(usize),
    /// The tutorial's lessons are all done.
    TutorialDone,
    /// The top bar's status (what the last save, load or undo did) contains this text.
    Status(String),
    /// At least this many saves are listed in the save folder.
    Saves(usize),
    /// A replay shows exactly this many events.
    ReplayEvent(usize),
    /// A replay's event in view is of this round.
    ReplayRound(u32),
    /// A button or tracked label with this text is drawn (a level's title in the menu, say).
    Shown(String),
    /// The button with this label is drawn, and the whole of its clickable part lies inside
    /// the window.
    Inside(String),
    /// Every zone (every square, walls too, on a grid) is drawn whole inside the window and
    /// clear of the docked panels (the top bar and the side panels).
    BoardInView,
    /// The notice of a load error shows, and its text contains this.
    Notice(String),
    /// The banner offering a restart for a level changed on disk shows.
    RestartOffered,
    /// The level editor's status line (what the last save, open or test play did) contains
    /// this text.
    EditorStatus(String),
    /// The level editor's live check has run and found no errors.
    EditorChecked,
    /// The level being edited has exactly this many units.
    EditorUnits(usize),
    /// The condition does not hold.
    Not(Box<Condition>),
}

/// A screen, as scripts name it.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
pub enum ScreenName {
    /// The main menu.
    Menu,
    /// A battle.
    Battle,
    /// The level editor.
    Editor,
}

/// Reads a script file; errors read `file:line:column: what`.
pub fn load(path: &Path) -> Result<Script, String> {
    let text = crate::levels::catalog::read_text(path).map_err(|error| error.to_string())?;
    crate::levels::catalog::parse::<Script>(&text, path).map_err(|error| error.to_string())
}

/// The script being played and how far it has got.
#[derive(Resource, Debug)]
struct Player {
    script: Script,
    file: PathBuf,
    shots: PathBuf,
    at: usize,
    /// Frames spent on the current step.
    frames: u32,
    /// Time spent on the current step.
    waited: Duration,
    /// A screenshot on its way to the disk.
    pending: Option<PathBuf>,
    /// Where the current click step clicks, once its button has shown.
    clicking: Option<Vec2>,
    /// When the last `Edit` step wrote its file: waits after it report how long they took.
    edited: Option<std::time::Instant>,
}

/// Registers the script player when `fray play --script` names a script.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, begin).add_systems(Update, play.run_if(resource_exists::<Player>));
}

fn begin(mut commands: Commands, options: Res<LaunchOptions>, mut exit: MessageWriter<AppExit>) {
    let Some(file) = options.script.clone() else {
        return;
    };
    let script = match load(&file) {
        Ok(script) => script,
        Err(error) => {
            eprintln!("{error}");
            exit.write(AppExit::error());
            return;
        }
    };
    let shots = options.screenshots.clone().unwrap_or_else(std::env::temp_dir);
    if let Err(error) = std::fs::create_dir_all(&shots) {
        eprintln!("cannot create {}: {error}", shots.display());
    }
    commands.insert_resource(Player {
        script,
        file,
        shots,
        at: 0,
        frames: 0,
        waited: Duration::ZERO,
        pending: None,
        clicking: None,
        edited: None,
    });
}

/// What the conditions read.
#[derive(bevy::ecs::system::SystemParam)]
struct GameView<'w, 's> {
    screen: Res<'w, State<Screen>>,
    state: Res<'w, CombatState>,
    session: Res<'w, Session>,
    ui: Res<'w, BattleUi>,
    pace: Res<'w, Pace>,
    options: Res<'w, DeclarationOptions>,
    battlefield: Res<'w, Battlefield>,
    board: Query<'w, 's, (), With<BoardZone>>,
    layout: Res<'w, BoardLayout>,
    tokens: Query<'w, 's, (), With<Token>>,
    units: Query<'w, 's, &'static Status, With<UnitId>>,
    saves: Res<'w, super::saves::SaveList>,
    playback: Option<Res<'w, super::model::playback::Playback>>,
    log: Res<'w, crate::rules::log::CombatLog>,
    rects: Res<'w, ButtonRects>,
    hot: Option<Res<'w, super::HotReload>>,
    editor: Res<'w, super::editor::EditorState>,
    playing: Res<'w, super::model::playing_count::PlayingCount>,
    tutorial: Res<'w, super::tutorial::Tutorial>,
    token_places: Query<'w, 's, (&'static Token, &'static GlobalTransform)>,
    unit_ids: Query<'w, 's, (Entity, &'static UnitId)>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<super::camera::BoardCamera>>,
}

impl GameView<'_, '_> {
    /// Where the token of the unit with level id `unit` shows in the window, if it does.
    fn token_on_screen(&self, unit: &str) -> Option<Vec2> {
        let (entity, _) = self.unit_ids.iter().find(|(_, id)| &*id.0 == unit)?;
        let (_, place) = self.token_places.iter().find(|(token, _)| token.0 == entity)?;
        let (camera, camera_place) = self.cameras.iter().next()?;
        camera.world_to_viewport(camera_place, place.translation()).ok()
    }

    /// Whether `rect` (in window pixels) lies wholly inside the window (the board camera's
    /// view, which fills it).
    fn window_holds(&self, rect: Rect) -> bool {
        let window = self.cameras.iter().next().and_then(|(camera, _)| camera.logical_viewport_size());
        window.is_some_and(|size| {
            let inside = Rect::from_corners(Vec2::ZERO, size);
            inside.contains(rect.min) && inside.contains(rect.max)
        })
    }

    /// Whether every place on the board shows whole in the window, clear of the docked panels.
    fn board_in_view(&self) -> bool {
        let Some((camera, camera_place)) = self.cameras.iter().next() else {
            return false;
        };
        let half = self.layout.cell / 2.0;
        let on_screen = |centre: Vec2| {
            let corners = [centre - half, centre + half];
            let corners = corners.map(|corner| camera.world_to_viewport(camera_place, corner.extend(0.0)).ok());
            let [Some(one), Some(other)] = corners else {
                return false;
            };
            let drawn = Rect::from_corners(one, other);
            self.window_holds(drawn) && self.rects.docks.iter().all(|dock| dock.intersect(drawn).is_empty())
        };
        !self.layout.centres.is_empty() && self.board_places().into_iter().all(on_screen)
    }

    /// Where each place is drawn on the board: every square on a grid (walls too), else each
    /// zone's centre.
    fn board_places(&self) -> Vec<Vec2> {
        match &self.layout.squares {
            Some((width, squares)) => {
                let width = usize::from(*width);
                let at = |index: usize| Vec2::new((index % width) as f32, -((index / width) as f32)) * GRID_TILE;
                (0..squares.len()).map(at).collect()
            }
            None => self.layout.centres.clone(),
        }
    }

    /// Where the grid square at column `x`, row `y` shows in the window, if it does.
    fn square_on_screen(&self, x: i32, y: i32) -> Option<Vec2> {
        let zone = self.battlefield.zone_at(crate::battlefield::Square::new(x, y))?;
        let centre = self.layout.centres.get(usize::from(zone))?;
        let (camera, camera_place) = self.cameras.iter().next()?;
        camera.world_to_viewport(camera_place, centre.extend(0.0)).ok()
    }

    /// Whether the token of the unit with level id `unit` is drawn in the zone with id `zone`.
    fn token_in(&self, unit: &str, zone: &str) -> bool {
        let Some((entity, _)) = self.unit_ids.iter().find(|(_, id)| &*id.0 == unit) else {
            return false;
        };
        let drawn = self.token_places.iter().find(|(token, _)| token.0 == entity);
        let at = drawn.and_then(|(_, place)| self.layout.zone_at(place.translation().truncate()));
        at.is_some() && at == self.battlefield.find(zone)
    }

    /// Whether a replay is on, its view passes `test`, and its board has caught up with it.
    fn replay_shows(&self, test: impl Fn(&super::model::playback::Playback) -> bool) -> bool {
        self.playback.as_ref().is_some_and(|playback| {
            test(playback) && playback.drive(self.log.entries().len()) == super::model::playback::Drive::Hold
        })
    }

    fn holds(&self, condition: &Condition) -> bool {
        let in_battle = *self.screen.get() == Screen::Battle;
        match condition {
            Condition::Screen(ScreenName::Menu) => *self.screen.get() == Screen::Menu,
            Condition::Screen(ScreenName::Battle) => in_battle,
            Condition::Screen(ScreenName::Editor) => *self.screen.get() == Screen::Editor,
            Condition::BattleOver => in_battle && self.state.is_over(),
            Condition::BattleOn => in_battle && !self.state.is_over(),
            Condition::Round(round) => in_battle && self.state.round >= *round,
            Condition::Level(name) => {
                in_battle && self.session.current.as_ref().is_some_and(|level| level.level_name == *name)
            }
            Condition::BoardDrawn => {
                let on_field = self.units.iter().filter(|status| **status != Status::Reserve).count();
                in_battle
                    && !self.battlefield.is_empty()
                    // Every zone or square has its place, and the board's pictures are up (a
                    // large grid is one painted floor, not a sprite per square).
                    && self.layout.centres.len() == self.battlefield.len()
                    && !self.board.is_empty()
                    && self.tokens.iter().count() == on_field
            }
            Condition::Declaring => in_battle && self.options.unit.is_some(),
            Condition::Confirming => self.ui.confirm.is_some(),
            Condition::Curtain => self.ui.curtain.is_some(),
            Condition::Battles(count) => self.session.battles >= *count,
            Condition::LogOpen => self.ui.show_log,
            Condition::Hint => self.ui.hint.is_some(),
            Condition::Paused => self.pace.paused,
            Condition::CountOnShow => in_battle && self.playing.playing(),
            Condition::TokenIn(unit, zone) => in_battle && self.token_in(unit, zone),
            Condition::KindOptions(least) => {
                let kind = self.ui.draft.kind.and_then(|kind| self.options.kinds.get(kind));
                kind.is_some_and(|(_, options)| options.len() >= *least)
            }
            Condition::Lesson(number) => {
                in_battle && self.tutorial.current().is_some() && self.tutorial.at + 1 == *number
            }
            Condition::TutorialDone => {
                in_battle && !self.tutorial.lessons.is_empty() && self.tutorial.at >= self.tutorial.lessons.len()
            }
            Condition::Status(text) => self.ui.status.as_ref().is_some_and(|status| status.contains(text.as_str())),
            Condition::Saves(count) => self.saves.saves.len() >= *count,
            Condition::ReplayEvent(events) => self.replay_shows(|playback| playback.cursor == *events),
            Condition::ReplayRound(round) => self.replay_shows(|playback| playback.round() == *round),
            Condition::Shown(label) => self.rects.buttons.contains_key(label),
            Condition::Inside(label) => self.rects.buttons.get(label).is_some_and(|rect| self.window_holds(*rect)),
            Condition::BoardInView => in_battle && self.board_in_view(),
            Condition::Notice(text) => self.session.error.as_ref().is_some_and(|error| error.contains(text.as_str())),
            Condition::RestartOffered => self.hot.as_ref().is_some_and(|hot| hot.restart_offer.is_some()),
            Condition::EditorStatus(text) => self.editor.status.contains(text.as_str()),
            Condition::EditorChecked => {
                self.editor.level.is_some() && self.editor.check_owed.is_none() && self.editor.errors.is_empty()
            }
            Condition::EditorUnits(count) => {
                self.editor.level.as_ref().is_some_and(|level| level.units.len() == *count)
            }
            Condition::Not(inner) => !self.holds(inner),
        }
    }
}

/// Writes input the way the window does: the specific message and the window event.
#[derive(bevy::ecs::system::SystemParam)]
struct Input<'w, 's> {
    windows: Query<'w, 's, (Entity, &'static mut Window), With<PrimaryWindow>>,
    keys: MessageWriter<'w, KeyboardInput>,
    cursor: MessageWriter<'w, CursorMoved>,
    buttons: MessageWriter<'w, MouseButtonInput>,
    wheels: MessageWriter<'w, MouseWheel>,
    events: MessageWriter<'w, WindowEvent>,
}

impl Input<'_, '_> {
    fn key(&mut self, key_code: KeyCode, state: ButtonState) {
        let Ok((window, _)) = self.windows.single() else {
            return;
        };
        let logical_key = logical_key(key_code);
        let text = match (&logical_key, state) {
            (Key::Character(text), ButtonState::Pressed) => Some(text.clone()),
            _ => None,
        };
        let message = KeyboardInput { key_code, logical_key, state, text, repeat: false, window };
        self.events.write(WindowEvent::KeyboardInput(message.clone()));
        self.keys.write(message);
    }

    fn point_at(&mut self, position: Vec2) {
        let Ok((window, mut window_state)) = self.windows.single_mut() else {
            return;
        };
        window_state.set_cursor_position(Some(position));
        let message = CursorMoved { window, position, delta: None };
        self.events.write(WindowEvent::CursorMoved(message.clone()));
        self.cursor.write(message);
    }

    fn wheel(&mut self, lines: f32) {
        let Ok((window, _)) = self.windows.single() else {
            return;
        };
        let message = MouseWheel { unit: MouseScrollUnit::Line, x: 0.0, y: lines, window, phase: TouchPhase::Moved };
        self.events.write(WindowEvent::MouseWheel(message));
        self.wheels.write(message);
    }

    fn mouse(&mut self, state: ButtonState) {
        let Ok((window, _)) = self.windows.single() else {
            return;
        };
        let message = MouseButtonInput { button: MouseButton::Left, state, window };
        self.events.write(WindowEvent::MouseButtonInput(message));
        self.buttons.write(message);
    }
}

/// The logical key a key code gives on a plain layout.
fn logical_key(code: KeyCode) -> Key {
    let named = match code {
        KeyCode::Enter => Some(Key::Enter),
        KeyCode::Tab => Some(Key::Tab),
        KeyCode::Space => Some(Key::Space),
        KeyCode::Escape => Some(Key::Escape),
        // egui takes its modifiers from these logical keys.
        KeyCode::ControlLeft | KeyCode::ControlRight => Some(Key::Control),
        KeyCode::ShiftLeft | KeyCode::ShiftRight => Some(Key::Shift),
        KeyCode::Backspace => Some(Key::Backspace),
        KeyCode::ArrowLeft => Some(Key::ArrowLeft),
        KeyCode::ArrowRight => Some(Key::ArrowRight),
        KeyCode::ArrowUp => Some(Key::ArrowUp),
        KeyCode::ArrowDown => Some(Key::ArrowDown),
        KeyCode::F1 => Some(Key::F1),
        KeyCode::PageUp => Some(Key::PageUp),
        KeyCode::PageDown => Some(Key::PageDown),
        KeyCode::Comma => Some(Key::Character(",".into())),
        KeyCode::Period => Some(Key::Character(".".into())),
        _ => None,
    };
    if let Some(named) = named {
        return named;
    }
    let debug = format!("{code:?}");
    let character = debug.strip_prefix("Key").or_else(|| debug.strip_prefix("Digit")).unwrap_or(&debug);
    Key::Character(character.to_lowercase().into())
}

/// How a step went this frame.
enum Progress {
    /// Still going.
    Busy,
    /// Done: on to the next step.
    Done,
    /// The script fails with this reason.
    Failed(String),
}

fn play(
    mut commands: Commands,
    mut player: ResMut<Player>,
    view: GameView,
    rects: Res<ButtonRects>,
    mut input: Input,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    if let Some(path) = &player.pending {
        if !path.is_file() {
            return;
        }
        player.pending = None;
    }
    let Some(step) = player.script.steps.get(player.at).cloned() else {
        println!("script {}: all {} steps passed", player.file.display(), player.script.steps.len());
        exit.write(AppExit::Success);
        commands.remove_resource::<Player>();
        return;
    };
    player.frames += 1;
    player.waited += time.delta();
    let progress = run_step(&step, &mut player, &view, &rects, &mut input, &mut commands);
    let timed_out = player.waited.as_secs_f32() > player.script.timeout;
    let failure = match progress {
        Progress::Done => {
            // A wait after an edit reports how long the change took to show: hot reload's latency.
            let since_edit = match (&step, player.edited) {
                (Step::WaitFor(_), Some(edited)) => {
                    player.edited = None;
                    format!(" ({} ms after the edit)", edited.elapsed().as_millis())
                }
                _ => String::new(),
            };
            println!("script: step {}/{} ok{since_edit}: {step:?}", player.at + 1, player.script.steps.len());
            player.at += 1;
            player.frames = 0;
            player.waited = Duration::ZERO;
            None
        }
        Progress::Failed(reason) => Some(reason),
        Progress::Busy if timed_out => {
            let mut shown: Vec<&str> = rects.buttons.keys().map(String::as_str).collect();
            shown.sort_unstable();
            Some(format!("still waiting after {} s (buttons showing: {})", player.script.timeout, shown.join(", ")))
        }
        Progress::Busy => None,
    };
    if let Some(reason) = failure {
        eprintln!("script {}: step {} ({step:?}) failed: {reason}", player.file.display(), player.at + 1);
        exit.write(AppExit::error());
        commands.remove_resource::<Player>();
    }
}

fn run_step(
    step: &Step,
    player: &mut Player,
    view: &GameView,
    rects: &ButtonRects,
    input: &mut Input,
    commands: &mut Commands,
) -> Progress {
    let frame = player.frames;
    match step {
        Step::Frames(count) => done_if(frame >= *count),
        Step::WaitFor(condition) => done_if(view.holds(condition)),
        Step::Expect(condition) => match view.holds(condition) {
            true => Progress::Done,
            false => Progress::Failed(format!("expected {condition:?}")),
        },
        Step::Press(name) => press(name, frame, input),
        // Presses again and again (a few frames apart) until the condition holds.
        Step::PressUntil(_, condition) if view.holds(condition) => Progress::Done,
        Step::PressUntil(name, _) => match press(name, (frame - 1) % (HOLD_FRAMES + 2) + 1, input) {
            Progress::Failed(problem) => Progress::Failed(problem),
            _ => Progress::Busy,
        },
        Step::Click(label) => click(label, frame, player, rects, input),
        Step::ClickIfShown(label) if frame == 1 && !rects.buttons.contains_key(label) => Progress::Done,
        Step::ClickIfShown(label) => click(label, frame, player, rects, input),
        Step::Scroll(label, lines) => {
            // Once the wheel has turned the label may well have scrolled out of view: that is
            // the point, so only the pointing waits for it.
            let wheeled = frame > 1 + HOVER_FRAMES;
            if wheeled {
                return done_if(frame > 1 + HOVER_FRAMES + CLICK_SETTLE_FRAMES);
            }
            let Some(at) = rects.centre(label) else {
                player.frames = 0;
                return Progress::Busy;
            };
            match frame {
                1 => input.point_at(at),
                at_frame if at_frame == 1 + HOVER_FRAMES => input.wheel(*lines),
                _ => {}
            }
            Progress::Busy
        }
        Step::Drag(from, to) => drag((from, to), frame, player, rects, input),
        Step::PointAt(unit) => point_at(view.token_on_screen(unit), frame, player, input),
        Step::PointAtSquare(x, y) => point_at(view.square_on_screen(*x, *y), frame, player, input),
        Step::ClickSquare(x, y) => {
            if frame == 1 {
                player.clicking = view.square_on_screen(*x, *y);
            }
            click_at(frame, player, input)
        }
        Step::Screenshot(name) => {
            let path = player.shots.join(name);
            let _ = std::fs::remove_file(&path);
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
            player.pending = Some(path);
            Progress::Done
        }
        Step::Edit(path, from, to) => match edit_file(path, from, to) {
            Ok(()) => {
                player.edited = Some(std::time::Instant::now());
                Progress::Done
            }
            Err(problem) => Progress::Failed(problem),
        },
        Step::AwaitQuit => Progress::Busy,
    }
}

/// Replaces the first `from` in the file at `path` with `to`, in one write.
fn edit_file(path: &Path, from: &str, to: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    if !text.contains(from) {
        return Err(format!("{} has no {from:?} to replace", path.display()));
    }
    std::fs::write(path, text.replacen(from, to, 1)).map_err(|error| format!("{}: {error}", path.display()))
}

/// Moves the pointer onto the button, presses and releases it. The step waits for the button
/// to show, then keeps to where it was: a clicked button may change its label (Pause becomes
/// Resume) or go away.
fn click(label: &str, frame: u32, player: &mut Player, rects: &ButtonRects, input: &mut Input) -> Progress {
    if frame == 1 {
        player.clicking = rects.centre(label);
    }
    click_at(frame, player, input)
}

/// Moves the pointer onto the place a click step found (waiting while it has none), presses and
/// releases it there.
fn click_at(frame: u32, player: &mut Player, input: &mut Input) -> Progress {
    let Some(centre) = player.clicking else {
        player.frames = 0;
        return Progress::Busy;
    };
    let press = 1 + HOVER_FRAMES;
    // The pointer is put back on the button with the press and the release: the X server may
    // have reported the real pointer in between (another window mapped over this one, say).
    match frame {
        1 => input.point_at(centre),
        at if at == press => {
            input.point_at(centre);
            input.mouse(ButtonState::Pressed);
        }
        at if at == press + HOLD_FRAMES => {
            input.point_at(centre);
            input.mouse(ButtonState::Released);
        }
        _ => {}
    }
    done_if(frame > press + HOLD_FRAMES + CLICK_SETTLE_FRAMES)
}

/// Moves the pointer onto `at` once it shows (waiting while it does not) and lets the hover
/// settle.
fn point_at(at: Option<Vec2>, frame: u32, player: &mut Player, input: &mut Input) -> Progress {
    let Some(at) = at else {
        player.frames = 0;
        return Progress::Busy;
    };
    if frame == 1 {
        input.point_at(at);
    }
    done_if(frame > 1 + HOVER_FRAMES)
}

/// Frames a drag spends moving between its ends, so the widget sees the pointer travel.
const DRAG_FRAMES: u32 = 6;

/// Presses on `from`, moves over [`DRAG_FRAMES`] frames to `to` and releases there; waits for
/// both labels to show first.
fn drag((from, to): (&str, &str), frame: u32, player: &mut Player, rects: &ButtonRects, input: &mut Input) -> Progress {
    let (Some(start), Some(end)) = (rects.centre(from), rects.centre(to)) else {
        player.frames = 0;
        return Progress::Busy;
    };
    let press = 1 + HOVER_FRAMES;
    let release = press + HOLD_FRAMES + DRAG_FRAMES;
    match frame {
        1 => input.point_at(start),
        at if at == press => input.mouse(ButtonState::Pressed),
        at if at > press && at < release => {
            let share = ((at - press) as f32 / DRAG_FRAMES as f32).min(1.0);
            input.point_at(start.lerp(end, share));
        }
        at if at == release => {
            input.point_at(end);
            input.mouse(ButtonState::Released);
        }
        _ => {}
    }
    done_if(frame > release + CLICK_SETTLE_FRAMES)
}

/// Frame `frame` of pressing the key (or Control chord) `name`.
fn press(name: &str, frame: u32, input: &mut Input) -> Progress {
    // A chord holds Control down around the key, as a person's fingers do.
    let (modifier, code) = match controls::parse_binding(name) {
        Some(Binding::Key(code)) => (None, code),
        Some(Binding::Control(code)) => (Some(KeyCode::ControlLeft), code),
        _ => return Progress::Failed(format!("\"{name}\" is not a key name")),
    };
    // Control goes down a frame before the key, as fingers do: egui reads the modifiers as
    // they stood before the frame's keys, so a chord pressed in one frame would reach it bare.
    match frame {
        1 if modifier.is_some() => {
            if let Some(modifier) = modifier {
                input.key(modifier, ButtonState::Pressed);
            }
        }
        2 if modifier.is_some() => input.key(code, ButtonState::Pressed),
        1 => input.key(code, ButtonState::Pressed),
        HOLD_FRAMES => {
            input.key(code, ButtonState::Released);
            if let Some(modifier) = modifier {
                input.key(modifier, ButtonState::Released);
            }
        }
        _ => {}
    }
    done_if(frame > HOLD_FRAMES)
}

fn done_if(done: bool) -> Progress {
    if done { Progress::Done } else { Progress::Busy }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logical_keys_follow_the_key_codes() {
        assert_eq!(logical_key(KeyCode::KeyR), Key::Character("r".into()));
        assert_eq!(logical_key(KeyCode::Digit1), Key::Character("1".into()));
        assert_eq!(logical_key(KeyCode::Enter), Key::Enter);
        assert_eq!(logical_key(KeyCode::ControlLeft), Key::Control);
    }

    #[test]
    fn the_shipped_scripts_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).expect("tests/scripts exists") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|ext| ext == "ron") {
                let script = load(&path).unwrap_or_else(|error| panic!("{error}"));
                assert!(!script.steps.is_empty(), "{} has no steps", path.display());
                count += 1;
            }
        }
        assert!(count > 0, "no scripts in {}", dir.display());
    }
}
