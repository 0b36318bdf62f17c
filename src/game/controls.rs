//! Controls without egui: the leafwing action enum and its remappable bindings, the battle UI
//! state (selection, the declaration being drafted, the hot-seat curtain), the legal options the
//! rules offer the unit declaring, and the commands that panels, clicks and keys all send.

use std::collections::BTreeMap;
use std::path::Path;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

use super::LaunchOptions;
use super::playback::ReplayStep;
use super::session::{BackToMenu, BattleStarted, Pace, Screen, Speed, StartBattle};
use crate::battlefield::{Battlefield, Cover, ZoneIdx, ZoneIndex};
use crate::rules::actions::{self, ActionContext, AttackOdds, ThreatMap, ViewCache};
use crate::rules::components::*;
use crate::rules::forecast::{self, Forecast};
use crate::rules::legal;
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::UnitReadOnly;
use crate::rules::{CombatPhase, CombatState, DeclarationQueue, DeclareSystems};

/// Everything a player can do with a key or a button.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum PlayerAction {
    /// Inspect the next unit.
    NextUnit,
    /// Inspect the previous unit.
    PreviousUnit,
    /// Choose action 1.
    Choose1,
    /// Choose action 2.
    Choose2,
    /// Choose action 3.
    Choose3,
    /// Choose action 4.
    Choose4,
    /// Choose action 5.
    Choose5,
    /// Choose action 6.
    Choose6,
    /// Choose action 7.
    Choose7,
    /// Choose action 8.
    Choose8,
    /// Choose action 9.
    Choose9,
    /// Choose action 10.
    Choose10,
    /// Choose the next kind of action (for kinds past the numbered ones).
    NextKind,
    /// Cycle to the next legal target of the chosen action.
    NextTarget,
    /// Pick what is under the pointer (a unit to inspect or target).
    Pick,
    /// Confirm the drafted declaration (or lift the hot-seat curtain).
    Confirm,
    /// Drop the draft, or the selection.
    Cancel,
    /// The declaring unit holds this round.
    EndDeclaration,
    /// Then move: the next place clicked is where the drafted action's unit moves once it has
    /// acted, where the ruleset splits movement (`C-MOVE-1`); pressed again, drops that move.
    ThenMove,
    /// Pan the camera left.
    PanLeft,
    /// Pan the camera right.
    PanRight,
    /// Pan the camera up.
    PanUp,
    /// Pan the camera down.
    PanDown,
    /// Zoom in.
    ZoomIn,
    /// Zoom out.
    ZoomOut,
    /// Fit the whole board between the panels.
    FitBoard,
    /// Show or hide the combat log.
    ToggleLog,
    /// Show or hide the list of bindings.
    Help,
    /// Pause or resume the rounds.
    Pause,
    /// While paused, play on by one initiative count (or start the next round).
    Step,
    /// Resolve rounds faster (1x, 2x, instant).
    Faster,
    /// Resolve rounds slower.
    Slower,
    /// Start the same level again (asks first while the battle is on).
    Restart,
    /// Back to the main menu (asks first while the battle is on).
    MainMenu,
    /// Quit the game (asks first while the battle is on).
    Quit,
    /// Each of your units declares what it did last round, while it still can.
    RepeatOrders,
    /// Declare the drafted order, and the same for each of your units that can take it.
    OrderAll,
    /// Show or hide the grid overlays (path, sight lines, threatened squares).
    ToggleOverlays,
    /// Save the battle.
    Save,
    /// Turn every sound off, or back on.
    ToggleMute,
    /// Take back your last declaration of this round (or turn).
    Undo,
    /// In a replay: one event back.
    ReplayEventBack,
    /// In a replay: one event on.
    ReplayEventForward,
    /// In a replay: back to the round before.
    ReplayRoundBack,
    /// In a replay: on to the end of the next round.
    ReplayRoundForward,
}

impl PlayerAction {
    /// Every action, in help-overlay order.
    pub const ALL: [PlayerAction; 45] = [
        Self::NextUnit,
        Self::PreviousUnit,
        Self::Choose1,
        Self::Choose2,
        Self::Choose3,
        Self::Choose4,
        Self::Choose5,
        Self::Choose6,
        Self::Choose7,
        Self::Choose8,
        Self::Choose9,
        Self::Choose10,
        Self::NextKind,
        Self::NextTarget,
        Self::Pick,
        Self::Confirm,
        Self::Cancel,
        Self::EndDeclaration,
        Self::ThenMove,
        Self::RepeatOrders,
        Self::OrderAll,
        Self::Undo,
        Self::Save,
        Self::PanLeft,
        Self::PanRight,
        Self::PanUp,
        Self::PanDown,
        Self::ZoomIn,
        Self::ZoomOut,
        Self::FitBoard,
        Self::ToggleLog,
        Self::ToggleOverlays,
        Self::ToggleMute,
        Self::Help,
        Self::Pause,
        Self::Step,
        Self::Faster,
        Self::Slower,
        Self::Restart,
        Self::MainMenu,
        Self::Quit,
        Self::ReplayEventBack,
        Self::ReplayEventForward,
        Self::ReplayRoundBack,
        Self::ReplayRoundForward,
    ];

    /// The name used in the settings file and the help overlay.
    pub fn key(self) -> &'static str {
        match self {
            Self::NextUnit => "next_unit",
            Self::PreviousUnit => "previous_unit",
            Self::Choose1 => "choose_1",
            Self::Choose2 => "choose_2",
            Self::Choose3 => "choose_3",
            Self::Choose4 => "choose_4",
            Self::Choose5 => "choose_5",
            Self::Choose6 => "choose_6",
            Self::Choose7 => "choose_7",
            Self::Choose8 => "choose_8",
            Self::Choose9 => "choose_9",
            Self::Choose10 => "choose_10",
            Self::NextKind => "next_kind",
            Self::NextTarget => "next_target",
            Self::Pick => "pick",
            Self::Confirm => "confirm",
            Self::Cancel => "cancel",
            Self::EndDeclaration => "end_declaration",
            Self::ThenMove => "then_move",
            Self::PanLeft => "pan_left",
            Self::PanRight => "pan_right",
            Self::PanUp => "pan_up",
            Self::PanDown => "pan_down",
            Self::ZoomIn => "zoom_in",
            Self::ZoomOut => "zoom_out",
            Self::FitBoard => "fit_board",
            Self::ToggleLog => "toggle_log",
            Self::Help => "help",
            Self::Pause => "pause",
            Self::Step => "step",
            Self::Faster => "faster",
            Self::Slower => "slower",
            Self::Restart => "restart",
            Self::MainMenu => "main_menu",
            Self::Quit => "quit",
            Self::RepeatOrders => "repeat_orders",
            Self::OrderAll => "order_all",
            Self::ToggleOverlays => "toggle_overlays",
            Self::Save => "save",
            Self::ToggleMute => "toggle_mute",
            Self::Undo => "undo",
            Self::ReplayEventBack => "replay_event_back",
            Self::ReplayEventForward => "replay_event_forward",
            Self::ReplayRoundBack => "replay_round_back",
            Self::ReplayRoundForward => "replay_round_forward",
        }
    }

    /// What the action does, in the player's words (the help window's second column).
    pub fn describe(self) -> &'static str {
        match self {
            Self::NextUnit => "Look at the next unit",
            Self::PreviousUnit => "Look at the previous unit",
            Self::Choose1 => "Choose the 1st action in the list",
            Self::Choose2 => "Choose the 2nd action in the list",
            Self::Choose3 => "Choose the 3rd action in the list",
            Self::Choose4 => "Choose the 4th action in the list",
            Self::Choose5 => "Choose the 5th action in the list",
            Self::Choose6 => "Choose the 6th action in the list",
            Self::Choose7 => "Choose the 7th action in the list",
            Self::Choose8 => "Choose the 8th action in the list",
            Self::Choose9 => "Choose the 9th action in the list",
            Self::Choose10 => "Choose the 10th action in the list",
            Self::NextKind => "Choose the next kind of action, past the tenth",
            Self::NextTarget => "Cycle through the chosen action's targets",
            Self::Pick => "Pick the unit or place under the pointer",
            Self::Confirm => "Declare the drafted action (or lift the hot-seat curtain)",
            Self::Cancel => "Drop the draft, or the selection",
            Self::EndDeclaration => "The declaring unit holds: it does nothing this round",
            Self::ThenMove => "Add a move after the action (rulesets that split moves)",
            Self::PanLeft => "Move the view left",
            Self::PanRight => "Move the view right",
            Self::PanUp => "Move the view up",
            Self::PanDown => "Move the view down",
            Self::ZoomIn => "Zoom in",
            Self::ZoomOut => "Zoom out",
            Self::FitBoard => "Fit the whole board between the panels",
            Self::ToggleLog => "Show or hide the combat log",
            Self::Help => "Show or hide this list",
            Self::Pause => "Pause or resume the rounds",
            Self::Step => "While paused, play on by one initiative count, or start the next round",
            Self::Faster => "Play the rounds faster (1x, 2x, instant)",
            Self::Slower => "Play the rounds slower",
            Self::Restart => "Start this level again (asks first)",
            Self::MainMenu => "Back to the main menu (asks first)",
            Self::Quit => "Quit the game (asks first)",
            Self::RepeatOrders => "Each of your units repeats last round's order, where it still can",
            Self::OrderAll => "Give the drafted order to every unit of yours that can take it",
            Self::ToggleOverlays => "Show or hide the grid overlays: path, sight lines, threatened squares",
            Self::Save => "Save the battle",
            Self::ToggleMute => "Turn every sound off, or back on",
            Self::Undo => "Take back your last declaration this round",
            Self::ReplayEventBack => "Replay: one event back",
            Self::ReplayEventForward => "Replay: one event on",
            Self::ReplayRoundBack => "Replay: back to the round before",
            Self::ReplayRoundForward => "Replay: on to the end of the next round",
        }
    }

    /// The number of a Choose action (1–10).
    pub fn choice(self) -> Option<usize> {
        const FIRST_CHOICE: usize = 2;
        let at = Self::ALL.iter().position(|action| *action == self)?;
        (FIRST_CHOICE..FIRST_CHOICE + NUMBERED_KINDS).contains(&at).then(|| at + 1 - FIRST_CHOICE)
    }
}

/// How many kinds of action have a number key (`choose_1` … `choose_10`, the last on `0`).
pub const NUMBERED_KINDS: usize = 10;

/// One input a binding names: a key, a mouse button or the scroll wheel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A keyboard key.
    Key(KeyCode),
    /// A mouse button.
    Mouse(MouseButton),
    /// Scrolling up.
    WheelUp,
    /// Scrolling down.
    WheelDown,
    /// A key held with Control (`"Ctrl+S"`).
    Control(KeyCode),
}

/// The default bindings, as the settings file would write them.
pub fn default_bindings() -> BTreeMap<String, Vec<String>> {
    let pairs: [(PlayerAction, &[&str]); 45] = [
        (PlayerAction::NextUnit, &["Tab"]),
        (PlayerAction::PreviousUnit, &["Backquote"]),
        (PlayerAction::Choose1, &["1"]),
        (PlayerAction::Choose2, &["2"]),
        (PlayerAction::Choose3, &["3"]),
        (PlayerAction::Choose4, &["4"]),
        (PlayerAction::Choose5, &["5"]),
        (PlayerAction::Choose6, &["6"]),
        (PlayerAction::Choose7, &["7"]),
        (PlayerAction::Choose8, &["8"]),
        (PlayerAction::Choose9, &["9"]),
        (PlayerAction::Choose10, &["0"]),
        (PlayerAction::NextKind, &["C"]),
        (PlayerAction::NextTarget, &["T"]),
        (PlayerAction::Pick, &["MouseLeft"]),
        (PlayerAction::Confirm, &["Enter", "Space"]),
        (PlayerAction::Cancel, &["Escape", "MouseRight"]),
        (PlayerAction::EndDeclaration, &["E"]),
        (PlayerAction::ThenMove, &["B"]),
        (PlayerAction::PanLeft, &["A", "ArrowLeft"]),
        (PlayerAction::PanRight, &["D", "ArrowRight"]),
        (PlayerAction::PanUp, &["W", "ArrowUp"]),
        (PlayerAction::PanDown, &["S", "ArrowDown"]),
        (PlayerAction::ZoomIn, &["Equal", "WheelUp"]),
        (PlayerAction::ZoomOut, &["Minus", "WheelDown"]),
        (PlayerAction::FitBoard, &["Home"]),
        (PlayerAction::ToggleLog, &["L"]),
        (PlayerAction::Help, &["F1", "H"]),
        (PlayerAction::Pause, &["P"]),
        (PlayerAction::Step, &["N"]),
        (PlayerAction::Faster, &["BracketRight"]),
        (PlayerAction::Slower, &["BracketLeft"]),
        (PlayerAction::Restart, &["R"]),
        (PlayerAction::MainMenu, &["M"]),
        (PlayerAction::Quit, &["Q"]),
        (PlayerAction::RepeatOrders, &["G"]),
        (PlayerAction::OrderAll, &["F"]),
        (PlayerAction::ToggleOverlays, &["O"]),
        (PlayerAction::Save, &["Ctrl+S"]),
        (PlayerAction::ToggleMute, &["Ctrl+M"]),
        (PlayerAction::Undo, &["Ctrl+Z"]),
        (PlayerAction::ReplayEventBack, &["Comma"]),
        (PlayerAction::ReplayEventForward, &["Period"]),
        (PlayerAction::ReplayRoundBack, &["PageUp"]),
        (PlayerAction::ReplayRoundForward, &["PageDown"]),
    ];
    pairs
        .into_iter()
        .map(|(action, keys)| (action.key().to_string(), keys.iter().map(|key| key.to_string()).collect()))
        .collect()
}

/// Mouse inputs by their binding names.
pub const MOUSE_BINDINGS: [(&str, Binding); 5] = [
    ("MouseLeft", Binding::Mouse(MouseButton::Left)),
    ("MouseRight", Binding::Mouse(MouseButton::Right)),
    ("MouseMiddle", Binding::Mouse(MouseButton::Middle)),
    ("WheelUp", Binding::WheelUp),
    ("WheelDown", Binding::WheelDown),
];

/// Keys with a name of their own (besides letters, digits and F-keys), by binding name.
const NAMED_KEYS: [(&str, KeyCode); 21] = [
    ("Enter", KeyCode::Enter),
    ("Space", KeyCode::Space),
    ("Escape", KeyCode::Escape),
    ("Tab", KeyCode::Tab),
    ("Backspace", KeyCode::Backspace),
    ("Backquote", KeyCode::Backquote),
    ("Equal", KeyCode::Equal),
    ("Minus", KeyCode::Minus),
    ("BracketLeft", KeyCode::BracketLeft),
    ("BracketRight", KeyCode::BracketRight),
    ("ArrowLeft", KeyCode::ArrowLeft),
    ("ArrowRight", KeyCode::ArrowRight),
    ("ArrowUp", KeyCode::ArrowUp),
    ("ArrowDown", KeyCode::ArrowDown),
    ("ShiftLeft", KeyCode::ShiftLeft),
    ("ControlLeft", KeyCode::ControlLeft),
    ("Comma", KeyCode::Comma),
    ("Period", KeyCode::Period),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("Home", KeyCode::Home),
];

/// `A` … `Z`, in order.
const LETTERS: [KeyCode; 26] = [
    KeyCode::KeyA,
    KeyCode::KeyB,
    KeyCode::KeyC,
    KeyCode::KeyD,
    KeyCode::KeyE,
    KeyCode::KeyF,
    KeyCode::KeyG,
    KeyCode::KeyH,
    KeyCode::KeyI,
    KeyCode::KeyJ,
    KeyCode::KeyK,
    KeyCode::KeyL,
    KeyCode::KeyM,
    KeyCode::KeyN,
    KeyCode::KeyO,
    KeyCode::KeyP,
    KeyCode::KeyQ,
    KeyCode::KeyR,
    KeyCode::KeyS,
    KeyCode::KeyT,
    KeyCode::KeyU,
    KeyCode::KeyV,
    KeyCode::KeyW,
    KeyCode::KeyX,
    KeyCode::KeyY,
    KeyCode::KeyZ,
];

/// `0` … `9`, in order.
const DIGITS: [KeyCode; 10] = [
    KeyCode::Digit0,
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// `F1` … `F12`, in order.
const FUNCTION_KEYS: [KeyCode; 12] = [
    KeyCode::F1,
    KeyCode::F2,
    KeyCode::F3,
    KeyCode::F4,
    KeyCode::F5,
    KeyCode::F6,
    KeyCode::F7,
    KeyCode::F8,
    KeyCode::F9,
    KeyCode::F10,
    KeyCode::F11,
    KeyCode::F12,
];

/// Reads a binding name (`"Enter"`, `"A"`, `"5"`, `"F1"`, `"MouseLeft"`, `"WheelUp"`,
/// `"Ctrl+S"`).
pub fn parse_binding(name: &str) -> Option<Binding> {
    if let Some(key) = name.strip_prefix("Ctrl+") {
        return match parse_binding(key)? {
            Binding::Key(key) => Some(Binding::Control(key)),
            _ => None,
        };
    }
    if let Some(&(_, binding)) = MOUSE_BINDINGS.iter().find(|(known, _)| *known == name) {
        return Some(binding);
    }
    if let Some(&(_, key)) = NAMED_KEYS.iter().find(|(known, _)| *known == name) {
        return Some(Binding::Key(key));
    }
    let key = if name.len() == 1 {
        let c = name.chars().next()?.to_ascii_uppercase();
        match c {
            'A'..='Z' => LETTERS[(c as u8 - b'A') as usize],
            '0'..='9' => DIGITS[(c as u8 - b'0') as usize],
            _ => return None,
        }
    } else {
        let number: usize = name.strip_prefix('F')?.parse().ok()?;
        *FUNCTION_KEYS.get(number.checked_sub(1)?)?
    };
    Some(Binding::Key(key))
}

/// The settings file: key bindings by action name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Action name → binding names; actions left out keep their defaults.
    #[serde(default)]
    pub bindings: BTreeMap<String, Vec<String>>,
    /// UI scale, palette, names (the settings screen writes these).
    #[serde(default)]
    pub display: super::settings::DisplaySettings,
    /// Volumes and mute (the settings screen writes these).
    #[serde(default)]
    pub audio: super::audio::AudioSettings,
}

/// Where the game looks for its settings when none is named.
pub const SETTINGS_FILE: &str = "fray-settings.ron";

/// Builds the input map from a settings file (defaults for anything it leaves out). A bad file
/// gives a `file:line:column` message and the defaults.
pub fn load_bindings(path: Option<&Path>) -> (InputMap<PlayerAction>, Option<String>) {
    let mut bindings = default_bindings();
    let mut problem = None;
    if let Some(path) = path.filter(|path| path.is_file()) {
        match crate::levels::catalog::read_text(path)
            .and_then(|text| crate::levels::catalog::parse::<Settings>(&text, path))
        {
            Ok(settings) => {
                let known: Vec<&str> = PlayerAction::ALL.iter().map(|action| action.key()).collect();
                let mut unknown = Vec::new();
                for (action, names) in settings.bindings {
                    if !known.contains(&action.as_str()) {
                        unknown.push(crate::levels::error::not_found("action", &action, &known));
                        continue;
                    }
                    for name in &names {
                        if parse_binding(name).is_none() {
                            unknown.push(format!("action \"{action}\": unknown key \"{name}\"; expected a letter, digit, F1–F12, Enter, Space, Escape, Tab, an arrow, MouseLeft/Right/Middle, WheelUp/Down, or Ctrl+ and a key"));
                        }
                    }
                    bindings.insert(action, names);
                }
                if !unknown.is_empty() {
                    problem = Some(format!("{}: {}; using the defaults for those", path.display(), unknown.join("; ")));
                }
            }
            Err(error) => problem = Some(format!("{error}; using the default bindings")),
        }
    }
    let mut map = InputMap::default();
    for action in PlayerAction::ALL {
        let names = bindings.get(action.key()).cloned().unwrap_or_default();
        for binding in names.iter().filter_map(|name| parse_binding(name)) {
            match binding {
                Binding::Key(key) => map.insert(action, key),
                Binding::Mouse(button) => map.insert(action, button),
                Binding::WheelUp => map.insert(action, MouseScrollDirection::UP),
                Binding::WheelDown => map.insert(action, MouseScrollDirection::DOWN),
                Binding::Control(key) => map.insert(action, ButtonlikeChord::modified(ModifierKey::Control, key)),
            };
        }
    }
    (map, problem)
}

/// The player's input entity.
#[derive(Component, Debug, Default)]
pub struct Player;

/// A request from the panels, the board or the keys; all UI changes go through these.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum UiCommand {
    /// On to the next lesson of the tutorial (its Continue or Skip).
    NextLesson,
    /// Open or close the battle's seats window.
    ToggleSeats,
    /// Hand a side (by index) to this seat from its next declaration on.
    SetSeat(usize, super::session::Seat),
    /// Inspect this unit (or, while picking a target, target it).
    Select(Entity),
    /// Inspect the next unit.
    SelectNext,
    /// Inspect the previous unit.
    SelectPrevious,
    /// Choose the n-th (0-based) kind of action on offer.
    ChooseKind(usize),
    /// Choose the n-th (0-based) option of the chosen kind.
    ChooseOption(usize),
    /// A zone (or grid square) was clicked: move there with the drafted kind, or with a plain
    /// move when the drafted kind cannot.
    PickZone(ZoneIdx),
    /// Cycle to the next option of the chosen kind.
    NextTarget,
    /// Confirm the draft.
    Confirm,
    /// Drop the draft or the selection.
    Cancel,
    /// The declaring unit holds.
    EndDeclaration,
    /// The next place picked is where the drafted action's unit moves after acting
    /// (`C-MOVE-1`); again, or with a move after already set, drops it.
    ThenMove,
    /// The next player has the seat: lift the curtain.
    LiftCurtain,
    /// Show or hide the log.
    ToggleLog,
    /// Show or hide the help overlay.
    ToggleHelp,
    /// Choose the next kind of action on offer (wrapping round).
    NextKind,
    /// Start the same level again (asks first while the battle is on).
    Restart,
    /// Back to the menu (asks first while the battle is on).
    BackToMenu,
    /// Quit the game (asks first while the battle is on).
    Quit,
    /// Yes, leave the battle as asked.
    ConfirmLeave,
    /// No, stay in the battle.
    StayInBattle,
    /// Pause or resume the rounds.
    TogglePause,
    /// While paused, play on by one initiative count (or start the next round).
    Step,
    /// Resolve rounds at this speed.
    SetSpeed(Speed),
    /// One speed faster (`true`) or slower.
    ChangeSpeed(bool),
    /// Each of the player's units repeats last round's order (see `standing_orders`).
    RepeatOrders,
    /// The drafted order for every one of the player's units that can take it.
    OrderAll,
    /// Show or hide the grid overlays.
    ToggleOverlays,
    /// Save the battle (done by `saves`, which reads these too).
    Save,
    /// Take back the seated side's last declaration (done by `saves`).
    Undo,
    /// Show or hide the settings window (done by `settings`).
    ToggleSettings,
    /// Turn every sound off or back on (done by `audio`).
    ToggleMute,
    /// Step through a replay (`fray replay FILE`).
    Replay(ReplayStep),
}

/// Where a player asked to go from a battle in progress, awaiting "are you sure?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Start the level again.
    Restart,
    /// Back to the main menu.
    Menu,
    /// Quit the game.
    Quit,
}

impl Leave {
    /// The question the confirmation asks.
    pub fn question(self) -> &'static str {
        match self {
            Leave::Restart => "Restart this battle? The battle in progress will be lost.",
            Leave::Menu => "Leave for the main menu? The battle in progress will be lost.",
            Leave::Quit => "Quit Fray? The battle in progress will be lost.",
        }
    }

    /// The label of the button that goes ahead.
    pub fn verb(self) -> &'static str {
        match self {
            Leave::Restart => "Restart",
            Leave::Menu => "Leave",
            Leave::Quit => "Quit",
        }
    }
}

/// The declaration being drafted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    /// Index into [`DeclarationOptions::kinds`].
    pub kind: Option<usize>,
    /// Index into the chosen kind's options.
    pub option: Option<usize>,
    /// Where the unit moves once its action is done (`C-MOVE-1`): one of
    /// [`DeclarationOptions::after`].
    pub then_move: Option<ZoneIdx>,
}

/// The battle UI's state, all egui-free.
#[derive(Resource, Debug, Default)]
pub struct BattleUi {
    /// The unit whose card shows.
    pub selected: Option<Entity>,
    /// The draft for the declaring unit.
    pub draft: Draft,
    /// The side waiting behind the "pass to" curtain, in hot-seat play.
    pub curtain: Option<usize>,
    /// The side whose player holds the seat now.
    pub seated: Option<usize>,
    /// Whether the log panel shows.
    pub show_log: bool,
    /// Whether the help overlay shows.
    pub show_help: bool,
    /// A problem to show (a bad settings file).
    pub notice: Option<String>,
    /// A leave request waiting for the player's yes or no.
    pub confirm: Option<Leave>,
    /// A short hint for the declaring player (what a key press still needs).
    pub hint: Option<String>,
    /// The next place picked is the drafted action's move after it (`C-MOVE-1`).
    pub picking_then_move: bool,
    /// What the last save, load or undo did (`Saved to ...`), for the top bar.
    pub status: Option<String>,
}

/// One legal declaration, with what the rules say of it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionEntry {
    /// The action.
    pub action: Action,
    /// Its Initiative modifier.
    pub modifier: i32,
    /// Its Round Initiative.
    pub initiative: i32,
    /// A readable label (`attack Wren`, `move to ford`).
    pub label: String,
    /// For attacks and throws: the exact odds.
    pub odds: Option<AttackOdds>,
    /// For spells, items, manoeuvres and other help at a unit: what it would do, and how likely.
    pub forecast: Option<Forecast>,
    /// How many Repostes the move provokes.
    pub repostes: usize,
    /// On a grid, for a ranged action: the target's cover from where the actor will stand.
    pub cover: Option<Cover>,
}

/// The legal declarations of the unit whose turn it is, grouped by kind.
#[derive(Resource, Debug, Default)]
pub struct DeclarationOptions {
    /// The unit declaring now (a human's), if any.
    pub unit: Option<Entity>,
    /// Its side.
    pub side: Option<usize>,
    /// Kinds on offer, in order, with their options.
    pub kinds: Vec<(String, Vec<OptionEntry>)>,
    /// Where the drafted option's unit may move after its action (`C-MOVE-1`): empty unless
    /// the ruleset splits movement and an option is drafted.
    pub after: Vec<ZoneIdx>,
}

impl DeclarationOptions {
    /// The drafted option, if complete.
    pub fn drafted(&self, draft: &Draft) -> Option<&OptionEntry> {
        self.kinds.get(draft.kind?)?.1.get(draft.option?)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<PlayerAction>::default())
        .init_resource::<BattleUi>()
        .init_resource::<KeyCapture>()
        .init_resource::<DeclarationOptions>()
        .init_resource::<super::overlays::BoardOverlays>()
        .add_message::<UiCommand>()
        .add_message::<BindingsChanged>()
        .add_systems(Startup, spawn_player)
        .add_systems(Update, reload_bindings.before(read_player_actions))
        // Every screen and every stage of a battle: restarting after the end or opening the
        // log during resolution must work as well as declaring does. Options are worked out
        // after the declaration order opens, and choices land before it records them. The level
        // editor reads its own keys: Q or R over its board must not quit or start a battle.
        .add_systems(
            Update,
            (
                reset_ui,
                read_player_actions
                    .run_if(not(typing))
                    .run_if(not(capturing_key))
                    .run_if(not(in_state(Screen::Editor))),
                compute_options,
                apply_commands,
                update_curtain,
            )
                .chain()
                .after(DeclareSystems::Open)
                .before(DeclareSystems::Record),
        );
}

/// Set while the settings wait for the key of a new binding: that key press is the binding,
/// not an order to the game.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCapture(pub bool);

/// Whether keys are the settings' to capture: while they wait for a new binding, and after, until
/// every key held is let go (the captured key must not act once the wait ends).
fn capturing_key(capture: Res<KeyCapture>, keys: Res<ButtonInput<KeyCode>>, mut held_over: Local<bool>) -> bool {
    let capturing = capture.0 || (*held_over && keys.get_pressed().next().is_some());
    *held_over = capturing;
    capturing
}

/// Whether the player is typing into a text field (the menu's seed), so keys are text.
fn typing(wants: Option<Res<bevy_egui::input::EguiWantsInput>>) -> bool {
    wants.is_some_and(|wants| wants.wants_any_keyboard_input())
}

fn spawn_player(mut commands: Commands, options: Res<LaunchOptions>, mut ui: ResMut<BattleUi>) {
    let path = super::settings::settings_path(&options);
    let (map, problem) = load_bindings(Some(&path));
    ui.notice = problem;
    commands.spawn((Player, map, ActionState::<PlayerAction>::default()));
}

/// The settings file's key bindings were rewritten (a key rebound in the settings window).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BindingsChanged;

/// Reads the bindings again after the settings window rewrote them, so a rebound key works
/// at once.
fn reload_bindings(
    mut changed: MessageReader<BindingsChanged>,
    options: Res<LaunchOptions>,
    mut maps: Query<&mut InputMap<PlayerAction>, With<Player>>,
    mut ui: ResMut<BattleUi>,
) {
    if changed.read().count() == 0 {
        return;
    }
    let (map, problem) = load_bindings(Some(&super::settings::settings_path(&options)));
    for mut current in &mut maps {
        *current = map.clone();
    }
    ui.notice = problem;
}

/// Every binding name that stands for a key of its own (letters, digits, F1–F12 and the named
/// keys), as [`parse_binding`] reads them.
pub fn key_names() -> Vec<String> {
    let named = NAMED_KEYS.iter().map(|(name, _)| name.to_string());
    let letters = ('A'..='Z').map(String::from);
    let digits = ('0'..='9').map(String::from);
    let function_keys = (1..=FUNCTION_KEYS.len()).map(|number| format!("F{number}"));
    named.chain(letters).chain(digits).chain(function_keys).collect()
}

/// The binding name of a key (with `Ctrl+` when Control is held), if the settings file has one.
pub fn binding_name(key: KeyCode, control: bool) -> Option<String> {
    let name = key_names().into_iter().find(|name| parse_binding(name) == Some(Binding::Key(key)))?;
    Some(if control { format!("Ctrl+{name}") } else { name })
}

/// Keys bound to more than one action: key name → the actions, in help order.
pub fn binding_conflicts(bindings: &BTreeMap<String, Vec<String>>) -> BTreeMap<String, Vec<&'static str>> {
    let mut users: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
    for action in PlayerAction::ALL {
        for name in bindings.get(action.key()).into_iter().flatten() {
            users.entry(name.clone()).or_default().push(action.key());
        }
    }
    users.retain(|_, actions| actions.len() > 1);
    users
}

/// A new battle (or a restart) starts with a clean UI; only a settings problem stays.
fn reset_ui(mut started: MessageReader<BattleStarted>, mut ui: ResMut<BattleUi>) {
    if started.read().count() == 0 {
        return;
    }
    let notice = ui.notice.take();
    *ui = BattleUi { notice, ..default() };
}

/// Keys and buttons become commands (egui absorbs its own clicks before they get here).
fn read_player_actions(
    players: Query<&ActionState<PlayerAction>, With<Player>>,
    mut commands: MessageWriter<UiCommand>,
) {
    for state in &players {
        for action in PlayerAction::ALL {
            if !state.just_pressed(&action) {
                continue;
            }
            let command = match action {
                PlayerAction::NextUnit => UiCommand::SelectNext,
                PlayerAction::PreviousUnit => UiCommand::SelectPrevious,
                PlayerAction::NextTarget => UiCommand::NextTarget,
                PlayerAction::Confirm => UiCommand::Confirm,
                PlayerAction::Cancel => UiCommand::Cancel,
                PlayerAction::EndDeclaration => UiCommand::EndDeclaration,
                PlayerAction::ThenMove => UiCommand::ThenMove,
                PlayerAction::ToggleLog => UiCommand::ToggleLog,
                PlayerAction::Help => UiCommand::ToggleHelp,
                PlayerAction::NextKind => UiCommand::NextKind,
                PlayerAction::Pause => UiCommand::TogglePause,
                PlayerAction::Step => UiCommand::Step,
                PlayerAction::Faster => UiCommand::ChangeSpeed(true),
                PlayerAction::Slower => UiCommand::ChangeSpeed(false),
                PlayerAction::Restart => UiCommand::Restart,
                PlayerAction::MainMenu => UiCommand::BackToMenu,
                PlayerAction::Quit => UiCommand::Quit,
                PlayerAction::RepeatOrders => UiCommand::RepeatOrders,
                PlayerAction::OrderAll => UiCommand::OrderAll,
                PlayerAction::ToggleOverlays => UiCommand::ToggleOverlays,
                PlayerAction::Save => UiCommand::Save,
                PlayerAction::ToggleMute => UiCommand::ToggleMute,
                PlayerAction::Undo => UiCommand::Undo,
                PlayerAction::ReplayEventBack => UiCommand::Replay(ReplayStep::EventBack),
                PlayerAction::ReplayEventForward => UiCommand::Replay(ReplayStep::EventForward),
                PlayerAction::ReplayRoundBack => UiCommand::Replay(ReplayStep::RoundBack),
                PlayerAction::ReplayRoundForward => UiCommand::Replay(ReplayStep::RoundForward),
                other => match other.choice() {
                    Some(number) => UiCommand::ChooseKind(number - 1),
                    // Panning, zooming and picking are the board's and the camera's.
                    None => continue,
                },
            };
            commands.write(command);
        }
    }
}

/// What the options system reads.
#[derive(SystemParam)]
pub struct OptionsView<'w, 's> {
    units: Query<'w, 's, UnitReadOnly>,
    queue: Res<'w, DeclarationQueue>,
    state: Res<'w, CombatState>,
    ruleset: Res<'w, Ruleset>,
    battlefield: Res<'w, Battlefield>,
    index: Res<'w, ZoneIndex>,
}

/// The human unit that declares now: the next in turn, or in secret declaration the first
/// undeclared unit of the seated side (then of any human side).
pub fn current_declarer(
    queue: &DeclarationQueue,
    units: &Query<UnitReadOnly>,
    seated: Option<usize>,
    own: &super::online::OwnUnits,
) -> Option<Entity> {
    if !queue.open {
        return None;
    }
    let human = |unit: &Entity| {
        units.get(*unit).is_ok_and(|view| *view.controller == Controller::Human && own.takes_orders(*unit, view.side.0))
    };
    if !queue.secret {
        return queue.awaiting().next().filter(human);
    }
    let side_of = |unit: &Entity| units.get(*unit).map(|view| view.side.0).ok();
    let waiting: Vec<Entity> = queue.awaiting().filter(human).collect();
    waiting.iter().copied().find(|unit| side_of(unit) == seated).or_else(|| waiting.first().copied())
}

fn compute_options(
    view: OptionsView,
    own: super::online::OwnUnits,
    ui: Res<BattleUi>,
    mut options: ResMut<DeclarationOptions>,
) {
    let declarer = if view.state.phase == CombatPhase::Declare {
        current_declarer(&view.queue, &view.units, ui.seated, &own)
    } else {
        None
    };
    let Some(unit) = declarer else {
        if options.unit.is_some() {
            *options = DeclarationOptions::default();
        }
        return;
    };
    let Ok(actor) = view.units.get(unit) else {
        return;
    };
    let ctx = ActionContext {
        ruleset: &view.ruleset,
        battlefield: &view.battlefield,
        index: &view.index,
        round: view.state.round,
    };
    let cache = ViewCache::new(&view.units);
    let threats = ThreatMap::build(view.battlefield.len(), cache.iter());
    let base = actor.initiative.base.unwrap_or(0);
    let mut kinds: Vec<(String, Vec<OptionEntry>)> = Vec::new();
    let legal = actions::legal_actions(ctx, &actor, &cache);
    let choices = legal.iter().flat_map(|&action| with_push_choices(&view, &actor, action));
    let choices: Vec<Action> =
        choices.flat_map(|action| with_held_choices(ctx, &view, &actor, &legal, action)).collect();
    for action in choices {
        let Ok(modifier) = actions::check(ctx, &actor, &action, &cache) else {
            continue;
        };
        let kind_label = kind_label(&actor, action.kind);
        let target = action.target.and_then(|target| view.units.get(target).ok());
        let standing = action.move_to.unwrap_or(actor.zone.0);
        let cover = match &target {
            Some(target) if view.battlefield.is_grid() && actions::is_ranged(&actor, action.kind) => {
                view.battlefield.sight(standing, target.zone.0)
            }
            _ => None,
        };
        // The odds count the cover the shot is taken through (`S-COVER-1`).
        let through = cover.unwrap_or(Cover::None);
        let odds = match (action.kind, &target) {
            (
                ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_),
                Some(target),
            ) => Some(actions::attack_odds_in_cover(&view.ruleset, &actor, target, through)),
            (ActionKind::Throw(at), Some(target)) => forecast::throw_odds(&view.ruleset, &actor, target, (at, through)),
            _ => None,
        };
        let forecast = target.as_ref().and_then(|target| forecast::forecast(&view.ruleset, &actor, target, &action));
        let mut label = match &target {
            Some(target) => format!("{} ({})", target.name.as_str(), target.id.0),
            None => match action.kind {
                ActionKind::DefensiveAttack => "no attack".to_string(),
                _ => String::new(),
            },
        };
        if let Some(zone) = action.move_to {
            let zone = &view.battlefield.zone(zone).name;
            let verb = if action.kind == ActionKind::Charge { "charging" } else { "moving" };
            label = if label.is_empty() { format!("to {zone}") } else { format!("{label}, {verb} to {zone}") };
        }
        if let Some(zone) = action.push_to {
            let verb = match action.kind {
                ActionKind::Drag => "dragging it to",
                ActionKind::Hurl => "hurling it into",
                _ => "pushing into",
            };
            let zone = &view.battlefield.zone(zone).name;
            label = if label.is_empty() { format!("{verb} {zone}") } else { format!("{label}, {verb} {zone}") };
        }
        if action.kind == ActionKind::HoldAction && action.target.is_some() {
            label = format!("{label}, then: {}", held_plan_label(&view, &actor, action.held));
        }
        if label.is_empty() {
            label = "in place".into();
        }
        let repostes = actions::repostes_on_path(ctx, &threats, &actor, &action).len();
        let entry =
            OptionEntry { action, modifier, initiative: base + modifier, label, odds, forecast, repostes, cover };
        match kinds.iter_mut().find(|(label, _)| *label == kind_label) {
            Some((_, entries)) => entries.push(entry),
            None => kinds.push((kind_label, vec![entry])),
        }
    }
    // Offer kinds in a fixed order players learn, whatever order the rules listed them in.
    kinds.sort_by_key(|(_, entries)| entries.first().map_or(usize::MAX, |entry| kind_rank(entry.action.kind)));
    let drafted = kinds.get(ui.draft.kind.unwrap_or(usize::MAX)).and_then(|(_, entries)| entries.get(ui.draft.option?));
    let after = drafted.map_or_else(Vec::new, |entry| moves_after(ctx, &actor, &cache, entry.action));
    *options = DeclarationOptions { unit: Some(unit), side: Some(actor.side.0), kinds, after };
}

/// Where `action`'s unit may move once it has acted, each checked by the rules (`C-MOVE-1`);
/// none unless the ruleset splits movement.
fn moves_after(
    ctx: ActionContext,
    actor: &crate::rules::unit::UnitView,
    units: &ViewCache,
    action: Action,
) -> Vec<ZoneIdx> {
    if !ctx.ruleset.movement.split_move || !actions::may_move_after(ctx.ruleset, actor, action.kind) {
        return Vec::new();
    }
    let standing = actions::standing_after(actor, action.move_to);
    let allowance =
        crate::rules::unit::action_allowance(ctx.ruleset, *actor.speed, *actor.status, actor.conditions, &action);
    ctx.battlefield
        .within(standing, allowance)
        .filter(|&zone| {
            let split = Action { move_after: Some(zone), ..action };
            actions::check(ctx, actor, &split, units).is_ok()
        })
        .collect()
}

/// A shove offered once per zone it may push its target into, so the player picks the zone
/// (`Z-STUNT-1`), and a drag or hurl once per place it may take the held foe (`S-MAN-1`); any
/// other action, or one with nowhere to go, as it is.
fn with_push_choices(view: &OptionsView, actor: &crate::rules::unit::UnitView, action: Action) -> Vec<Action> {
    if matches!(action.kind, ActionKind::Drag | ActionKind::Hurl) {
        let victim = actor.conditions.grappling.and_then(|victim| view.units.get(victim).ok()).map(|view| view.zone.0);
        let ctx = ActionContext {
            ruleset: &view.ruleset,
            battlefield: &view.battlefield,
            index: &view.index,
            round: view.state.round,
        };
        let choices: Vec<Action> = victim
            .map(|at| actions::haul_destinations(ctx, actor.zone.0, at, action.kind))
            .unwrap_or_default()
            .into_iter()
            .map(|zone| Action { push_to: Some(zone), ..action })
            .collect();
        return if choices.is_empty() { vec![action] } else { choices };
    }
    let target_zone = action.target.and_then(|target| view.units.get(target).ok()).map(|target| target.zone.0);
    let (ActionKind::Shove, Some(at)) = (action.kind, target_zone) else {
        return vec![action];
    };
    let from = actions::standing_after(actor, action.move_to);
    let choices: Vec<Action> = view
        .battlefield
        .push_destinations(&view.index, from, at)
        .map(|zone| Action { push_to: Some(zone), ..action })
        .collect();
    if choices.is_empty() { vec![action] } else { choices }
}

/// A hold against a foe offered once per plan it may name (`S-ACT-2`): striking the foe (the
/// hold as the rules list it), then each plan [`legal::held_plans`] finds, so the player chooses
/// what the held action does when the foe comes; any other action as it is.
fn with_held_choices(
    ctx: ActionContext,
    view: &OptionsView,
    actor: &crate::rules::unit::UnitView,
    legal: &[Action],
    action: Action,
) -> Vec<Action> {
    let foe = action.target.and_then(|target| view.units.get(target).ok()).map(|target| (target.entity, target.zone.0));
    let (ActionKind::HoldAction, Some(foe)) = (action.kind, foe) else {
        return vec![action];
    };
    let plans = legal::held_plans(ctx, actor, foe, legal);
    std::iter::once(action).chain(plans.into_iter().map(|plan| Action { held: Some(plan), ..action })).collect()
}

/// What a held action will do, in words (`strike`, `cast heal on Ana (a1)`, `move to (3, 1)`).
fn held_plan_label(view: &OptionsView, actor: &crate::rules::unit::UnitView, plan: Option<HeldPlan>) -> String {
    let Some(plan) = plan else {
        return "strike".into();
    };
    let mut text = kind_label(actor, plan.kind).to_lowercase();
    if let Some(target) = plan.target.and_then(|target| view.units.get(target).ok()) {
        text = format!("{text} on {} ({})", target.name.as_str(), target.id.0);
    }
    if let Some(zone) = plan.move_to {
        text = format!("{text} to {}", view.battlefield.zone(zone).name);
    }
    text
}

/// Where a kind of action sits in the declaration panel: attacks first (plain, aimed, charge,
/// swarm, defensive), then defense and movement, then spells, throws and items, then the rest.
fn kind_rank(kind: ActionKind) -> usize {
    const SLOTS_PER_LIST: usize = 100;
    match kind {
        ActionKind::Attack => 0,
        ActionKind::Aimed(aim) => 1 + aim_rank(aim),
        ActionKind::Charge => 10,
        ActionKind::Swarm => 11,
        ActionKind::DefensiveAttack => 12,
        ActionKind::FullDefense => 13,
        ActionKind::Move => 14,
        ActionKind::Disengage => 15,
        ActionKind::Shove => 16,
        ActionKind::Grapple => 17,
        ActionKind::Execute => 18,
        ActionKind::StandUp => 19,
        ActionKind::Screen => 20,
        ActionKind::GoProne => 21,
        ActionKind::BreakFree => 22,
        ActionKind::KnockDown => 23,
        ActionKind::HoldAction => 24,
        ActionKind::LetGo => 25,
        ActionKind::Drag => 26,
        ActionKind::Hurl => 27,
        ActionKind::Delay => 4 * SLOTS_PER_LIST + 3,
        ActionKind::Cast(at) => SLOTS_PER_LIST + at,
        ActionKind::Throw(at) => 2 * SLOTS_PER_LIST + at,
        ActionKind::UseItem(at) => 3 * SLOTS_PER_LIST + at,
        ActionKind::Stabilize => 4 * SLOTS_PER_LIST,
        ActionKind::Intimidate => 4 * SLOTS_PER_LIST + 1,
        ActionKind::Hold => 4 * SLOTS_PER_LIST + 2,
    }
}

/// Aim points in panel order: the easy shot first, then the wounds from least to most drastic.
fn aim_rank(aim: AimPoint) -> usize {
    match aim {
        AimPoint::CentreMass => 0,
        AimPoint::Slowing => 1,
        AimPoint::Weakening => 2,
        AimPoint::Disrupting => 3,
        AimPoint::Fatal => 4,
    }
}

/// Where an aimed attack aims, in words (`legs`, `centre mass`).
pub fn aim_label(aim: AimPoint) -> &'static str {
    match aim {
        AimPoint::Fatal => "vitals",
        AimPoint::Slowing => "legs",
        AimPoint::Weakening => "arms",
        AimPoint::Disrupting => "eyes and hands",
        AimPoint::CentreMass => "centre mass",
    }
}

/// The label of a kind of action for a unit (`Attack with spear`, `Cast firebolt`).
fn kind_label(actor: &crate::rules::unit::UnitView, kind: ActionKind) -> String {
    // Catalog keys read as words in the panel: `throwing_knife` is "throwing knife".
    let weapon = actor.loadout.usable_weapon(actor.conditions).0.replace('_', " ");
    let spell = |at: usize| actor.spells.0.get(at).map_or("?".into(), |(name, _)| name.replace('_', " "));
    let item = |at: usize| actor.inventory.0.get(at).map_or("?".into(), |stack| stack.name.replace('_', " "));
    match kind {
        ActionKind::Attack => format!("Attack with {weapon}"),
        ActionKind::DefensiveAttack => format!("Defensive attack with {weapon}"),
        ActionKind::FullDefense => "Full defense".into(),
        ActionKind::Cast(at) => format!("Cast {}", spell(at)),
        ActionKind::UseItem(at) => format!("Use {}", item(at)),
        ActionKind::Throw(at) => format!("Throw {}", item(at)),
        ActionKind::Move => "Move".into(),
        ActionKind::Hold => "Hold".into(),
        ActionKind::Stabilize => "Stabilise".into(),
        ActionKind::Intimidate => "Intimidate".into(),
        ActionKind::Disengage => "Disengage and move".into(),
        ActionKind::Shove => "Shove".into(),
        ActionKind::Grapple => "Grapple".into(),
        ActionKind::StandUp => "Stand up".into(),
        ActionKind::Screen => "Screen an ally".into(),
        ActionKind::GoProne => "Go prone".into(),
        ActionKind::BreakFree => "Break free".into(),
        ActionKind::KnockDown => "Knock down".into(),
        ActionKind::HoldAction => "Hold your action".into(),
        ActionKind::LetGo => "Let go".into(),
        ActionKind::Drag => "Drag the held foe".into(),
        ActionKind::Hurl => "Hurl the held foe".into(),
        ActionKind::Delay => "Delay the turn".into(),
        ActionKind::Execute => format!("Execution attack with {weapon}"),
        ActionKind::Charge => format!("Charge with {weapon}"),
        ActionKind::Swarm => "Swarm".into(),
        ActionKind::Aimed(aim) => format!("Aimed attack ({})", aim_label(aim)),
    }
}

/// What a kind of action does, in a sentence for the declaration panel.
pub fn kind_description(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Attack => "Strike a target in reach with your weapon.",
        ActionKind::DefensiveAttack => "Attack, or not, without provoking Repostes on the way in.",
        ActionKind::FullDefense => "Raise your Defense for the round; move at reduced speed.",
        ActionKind::Cast(_) => "Cast the spell at a target in range.",
        ActionKind::UseItem(_) => "Use the item on yourself or a target in range.",
        ActionKind::Throw(_) => "Throw the item at an enemy in range.",
        ActionKind::Move => "Only move, as far as your speed allows.",
        ActionKind::Hold => "Do nothing this round.",
        ActionKind::Stabilize => "Try to stop a fallen ally's dying.",
        ActionKind::Intimidate => "Shout down an enemy nearby, who must then check morale.",
        ActionKind::Disengage => "Spend the action to move away without provoking free attacks.",
        ActionKind::Shove => "Push a foe a step away, or knock it down: an opposed Strength check.",
        ActionKind::Grapple => "Seize a foe bare-handed: neither of you moves while it holds.",
        ActionKind::StandUp => "Get up from prone (adjacent foes may strike as you rise).",
        ActionKind::Screen => "Step beside an ally and block the attacks at it until your next turn.",
        ActionKind::GoProne => "Drop to the ground: harder to shoot from afar, easier to strike up close.",
        ActionKind::BreakFree => "Struggle against the hold on you: win the contest of strength and you are free.",
        ActionKind::KnockDown => "Throw a foe to the ground where it stands instead of pushing it away.",
        ActionKind::HoldAction => {
            "Give up your move to act after everyone else this round, having seen what they did; or name a foe and what you will do when its turn comes (strike it, cast, shoot, tend an ally, step away): it goes first. A hold on a foe that never comes is lost at the round's end where the rules say so."
        }
        ActionKind::LetGo => "Release the foe you hold: both of you may move and take up weapons again.",
        ActionKind::Drag => "Move with the foe you hold, up to 10 ft: win the contest of strength, or it breaks free.",
        ActionKind::Hurl => {
            "Throw the foe you hold 5 ft: win the contest of strength and it lands prone and free; lose and it breaks free."
        }
        ActionKind::Delay => "Wait: act again after the next unit's turn this round.",
        ActionKind::Execute => "Strike a foe unaware of danger: it must save or drop.",
        ActionKind::Charge => "Run in a straight line and strike at its end: easier to hit, easier to be hit.",
        ActionKind::Swarm => "Harry a target so the next ally to attack it this round hits harder.",
        ActionKind::Aimed(AimPoint::CentreMass) => "Aim at the body: easier to hit, no wound effect.",
        ActionKind::Aimed(AimPoint::Slowing) => "Aim at the legs: a wound costs movement and Agility.",
        ActionKind::Aimed(AimPoint::Weakening) => "Aim at the arms: a wound costs Strength.",
        ActionKind::Aimed(AimPoint::Disrupting) => "Aim at eyes, ears and hands: a wound costs accuracy.",
        ActionKind::Aimed(AimPoint::Fatal) => "Aim at throat, heart or head: a wound may deal heavy damage.",
    }
}

/// The option a click on `zone` picks: of the drafted kind, the one moving there (keeping the
/// drafted target if it can); failing that, a plain move there. Returns (kind, option).
pub fn option_for_zone(options: &DeclarationOptions, draft: &Draft, zone: ZoneIdx) -> Option<(usize, usize)> {
    let target = options.drafted(draft).and_then(|entry| entry.action.target);
    let in_kind = |kind: usize| {
        let entries = &options.kinds.get(kind)?.1;
        let moving = |entry: &&OptionEntry| entry.action.move_to == Some(zone);
        entries
            .iter()
            .position(|entry| moving(&entry) && target.is_some() && entry.action.target == target)
            .or_else(|| entries.iter().position(|entry| moving(&entry) && entry.action.target.is_none()))
            .or_else(|| entries.iter().position(|entry| moving(&entry)))
            .map(|option| (kind, option))
    };
    let plain_move = options
        .kinds
        .iter()
        .position(|(_, entries)| entries.first().is_some_and(|entry| entry.action.kind == ActionKind::Move));
    draft.kind.and_then(in_kind).or_else(|| plain_move.and_then(in_kind))
}

/// What applying the UI commands reads and writes besides the UI state.
#[derive(SystemParam)]
pub struct CommandTargets<'w, 's> {
    options: Res<'w, DeclarationOptions>,
    chosen: super::online::Declarer<'w>,
    units: Query<'w, 's, (Entity, &'static SpawnOrder, &'static Status)>,
    start: MessageWriter<'w, StartBattle>,
    menu: MessageWriter<'w, BackToMenu>,
    exit: MessageWriter<'w, AppExit>,
    pace: ResMut<'w, Pace>,
    overlays: ResMut<'w, super::overlays::BoardOverlays>,
    state: Res<'w, CombatState>,
    screen: Res<'w, State<Screen>>,
    /// Present while a replay plays back: leaving one loses nothing, its file stays.
    playback: Option<Res<'w, super::playback::Playback>>,
    /// Present while the battle follows a referee: the referee, not this window, restarts it.
    online: Option<Res<'w, crate::net::Follower>>,
}

impl CommandTargets<'_, '_> {
    /// Whether leaving now would throw away a battle still being fought (a replay is not one).
    fn battle_in_progress(&self) -> bool {
        *self.screen.get() == Screen::Battle
            && self.playback.is_none()
            && self.state.phase != CombatPhase::Idle
            && !self.state.is_over()
    }

    /// Restart, back to the menu, or quit.
    fn leave(&mut self, leave: Leave) {
        match leave {
            Leave::Restart => {
                self.start.write(StartBattle);
            }
            Leave::Menu => {
                self.menu.write(BackToMenu);
            }
            Leave::Quit => {
                self.exit.write(AppExit::Success);
            }
        }
    }
}

/// Applies the commands of this frame, in every screen and every stage of a battle: the
/// declaration commands only do something while a human unit declares.
pub(super) fn apply_commands(
    mut commands: MessageReader<UiCommand>,
    mut ui: ResMut<BattleUi>,
    mut targets: CommandTargets,
) {
    for command in commands.read() {
        if ui.confirm.is_some() {
            confirm_or_stay(*command, &mut ui, &mut targets);
            continue;
        }
        if ui.curtain.is_some() {
            if *command == UiCommand::Confirm {
                lift_curtain(&mut ui);
                continue;
            }
            if !allowed_behind_curtain(*command) {
                // Behind the curtain nothing of the battle may be touched.
                continue;
            }
        }
        if !session_command(*command, &mut ui, &mut targets) {
            declaration_command(*command, &mut ui, &mut targets);
        }
    }
}

/// Commands that work behind the hot-seat curtain: none of them shows or changes the battle.
fn allowed_behind_curtain(command: UiCommand) -> bool {
    matches!(
        command,
        UiCommand::LiftCurtain
            | UiCommand::ToggleHelp
            | UiCommand::BackToMenu
            | UiCommand::Restart
            | UiCommand::Quit
            | UiCommand::Save
            | UiCommand::ToggleSettings
            | UiCommand::ToggleMute
    )
}

/// While "are you sure?" shows, only yes (Confirm) or no (Cancel) count.
fn confirm_or_stay(command: UiCommand, ui: &mut BattleUi, targets: &mut CommandTargets) {
    match command {
        UiCommand::ConfirmLeave | UiCommand::Confirm => {
            if let Some(leave) = ui.confirm.take() {
                targets.leave(leave);
            }
        }
        UiCommand::StayInBattle | UiCommand::Cancel => ui.confirm = None,
        _ => {}
    }
}

/// Panels, pacing and leaving; returns whether `command` was one of them.
fn session_command(command: UiCommand, ui: &mut BattleUi, targets: &mut CommandTargets) -> bool {
    let leave = match command {
        UiCommand::Restart if targets.online.is_some() => return true,
        UiCommand::Restart => Some(Leave::Restart),
        UiCommand::BackToMenu => Some(Leave::Menu),
        UiCommand::Quit => Some(Leave::Quit),
        _ => None,
    };
    if let Some(leave) = leave {
        if leave == Leave::Menu && *targets.screen.get() == Screen::Menu {
            return true;
        }
        if targets.battle_in_progress() {
            ui.confirm = Some(leave);
        } else {
            targets.leave(leave);
        }
        return true;
    }
    match command {
        // Saving and undoing need the whole world: `saves` reads these commands itself.
        UiCommand::ConfirmLeave
        | UiCommand::StayInBattle
        | UiCommand::Save
        | UiCommand::Undo
        | UiCommand::ToggleSettings
        | UiCommand::ToggleMute => {}
        UiCommand::LiftCurtain => lift_curtain(ui),
        UiCommand::ToggleLog => ui.show_log = !ui.show_log,
        UiCommand::ToggleHelp => ui.show_help = !ui.show_help,
        UiCommand::TogglePause => {
            targets.pace.paused = !targets.pace.paused;
            targets.pace.steps = 0;
        }
        UiCommand::Step => {
            targets.pace.paused = true;
            targets.pace.steps += 1;
        }
        // A replay's steps are the playback's (`playback.rs`); stepping stops the playing.
        UiCommand::Replay(_) => targets.pace.paused = true,
        UiCommand::SetSpeed(speed) => targets.pace.speed = speed,
        UiCommand::ChangeSpeed(faster) => targets.pace.speed = targets.pace.speed.step(faster),
        UiCommand::ToggleOverlays => targets.overlays.toggle(),
        _ => return false,
    }
    true
}

/// Selecting units and drafting, confirming or holding the declaration.
fn declaration_command(command: UiCommand, ui: &mut BattleUi, targets: &mut CommandTargets) {
    let options = &targets.options;
    match command {
        UiCommand::Select(entity) => select_or_target(ui, options, entity),
        UiCommand::SelectNext | UiCommand::SelectPrevious => {
            cycle_selection(ui, &targets.units, command == UiCommand::SelectNext)
        }
        UiCommand::ChooseKind(kind) => choose_kind(ui, options, kind),
        UiCommand::NextKind if !options.kinds.is_empty() => {
            let next = ui.draft.kind.map_or(0, |kind| (kind + 1) % options.kinds.len());
            choose_kind(ui, options, next);
        }
        UiCommand::ChooseOption(option)
            if ui
                .draft
                .kind
                .and_then(|kind| options.kinds.get(kind))
                .is_some_and(|(_, entries)| option < entries.len()) =>
        {
            ui.draft = Draft { option: Some(option), then_move: None, ..ui.draft };
            ui.hint = None;
        }
        UiCommand::PickZone(zone) if ui.picking_then_move => pick_then_move(ui, options, zone),
        UiCommand::PickZone(zone) => {
            if let Some((kind, option)) = option_for_zone(options, &ui.draft, zone) {
                ui.draft = Draft { kind: Some(kind), option: Some(option), then_move: None };
                ui.hint = None;
            }
        }
        UiCommand::ThenMove => then_move(ui, options),
        UiCommand::NextTarget => {
            if let Some((_, entries)) = ui.draft.kind.and_then(|kind| options.kinds.get(kind))
                && !entries.is_empty()
            {
                let option = Some(ui.draft.option.map_or(0, |option| (option + 1) % entries.len()));
                ui.draft = Draft { option, then_move: None, ..ui.draft };
                ui.hint = None;
            }
        }
        UiCommand::Confirm => confirm_draft(ui, targets),
        UiCommand::Cancel if ui.picking_then_move || ui.draft.then_move.is_some() => {
            // The move after the action goes first, then the draft itself.
            ui.picking_then_move = false;
            ui.draft.then_move = None;
            ui.hint = None;
        }
        UiCommand::Cancel => {
            ui.hint = None;
            if ui.draft != Draft::default() {
                ui.draft = Draft::default();
            } else {
                ui.selected = None;
            }
        }
        UiCommand::EndDeclaration => {
            if let Some(unit) = options.unit {
                targets.chosen.declare(unit, Action::simple(ActionKind::Hold));
                ui.draft = Draft::default();
                ui.picking_then_move = false;
                ui.hint = None;
            }
        }
        _ => {}
    }
}

/// B: the next place picked is the drafted action's move after it (`C-MOVE-1`); with one set,
/// or while picking, drops it. A hint says when the draft or the ruleset allows none.
fn then_move(ui: &mut BattleUi, options: &DeclarationOptions) {
    if ui.picking_then_move || ui.draft.then_move.is_some() {
        ui.picking_then_move = false;
        ui.draft.then_move = None;
        ui.hint = None;
    } else if options.drafted(&ui.draft).is_none() {
        ui.hint = Some("Draft an action first; then B and a click set where to move after it.".into());
    } else if options.after.is_empty() {
        ui.hint = Some("This action cannot be followed by a move here.".into());
    } else {
        ui.picking_then_move = true;
        ui.hint = Some("Click where to move after the action (B or Esc: no move after).".into());
    }
}

/// A place picked for the move after the action: kept when the rules allow it (`C-MOVE-1`).
fn pick_then_move(ui: &mut BattleUi, options: &DeclarationOptions, zone: ZoneIdx) {
    if options.after.contains(&zone) {
        ui.draft.then_move = Some(zone);
        ui.picking_then_move = false;
        ui.hint = None;
    } else {
        ui.hint = Some("The unit cannot move there after its action: too far, taken, or out of the way.".into());
    }
}

/// A click on a unit: its card, or, while drafting, the target (keeping the drafted
/// destination when the target can be reached from it).
fn select_or_target(ui: &mut BattleUi, options: &DeclarationOptions, entity: Entity) {
    let moving_to = options.drafted(&ui.draft).and_then(|entry| entry.action.move_to);
    let targeted = ui.draft.kind.and_then(|kind| options.kinds.get(kind)).and_then(|(_, entries)| {
        let aimed_at = |entry: &&OptionEntry| entry.action.target == Some(entity);
        entries
            .iter()
            .position(|entry| aimed_at(&entry) && entry.action.move_to == moving_to)
            .or_else(|| entries.iter().position(|entry| aimed_at(&entry)))
    });
    match targeted {
        Some(option) => {
            ui.draft = Draft { option: Some(option), then_move: None, ..ui.draft };
            ui.hint = None;
        }
        None => ui.selected = Some(entity),
    }
}

/// Tab and its reverse: the next unit on the field, in spawn order.
fn cycle_selection(ui: &mut BattleUi, units: &Query<(Entity, &SpawnOrder, &Status)>, forward: bool) {
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|(_, _, status)| **status != Status::Reserve)
        .map(|(entity, order, _)| (order.0, entity))
        .collect();
    order.sort_unstable();
    if order.is_empty() {
        return;
    }
    let at = ui.selected.and_then(|selected| order.iter().position(|(_, entity)| *entity == selected));
    let next = match (at, forward) {
        (None, _) => 0,
        (Some(at), true) => (at + 1) % order.len(),
        (Some(at), false) => (at + order.len() - 1) % order.len(),
    };
    ui.selected = Some(order[next].1);
}

/// Drafts a kind of action. A kind with one option (hold), or whose options are all places to
/// stand with one of them "in place" (full defense), is drafted whole, so Enter confirms it.
fn choose_kind(ui: &mut BattleUi, options: &DeclarationOptions, kind: usize) {
    let Some((_, entries)) = options.kinds.get(kind) else {
        return;
    };
    let untargeted = entries.iter().all(|entry| entry.action.target.is_none());
    let in_place = entries.iter().position(|entry| entry.action.move_to.is_none());
    let option = if entries.len() == 1 {
        Some(0)
    } else if untargeted {
        in_place
    } else {
        None
    };
    ui.draft = Draft { kind: Some(kind), option, then_move: None };
    ui.picking_then_move = false;
    ui.hint = None;
}

/// Enter: declares the drafted option, or says what the draft still needs.
fn confirm_draft(ui: &mut BattleUi, targets: &mut CommandTargets) {
    let options = &targets.options;
    let Some(unit) = options.unit else {
        return;
    };
    match options.drafted(&ui.draft) {
        Some(entry) => {
            // A move after the action only where the rules still allow it (`C-MOVE-1`).
            let move_after = ui.draft.then_move.filter(|zone| options.after.contains(zone));
            targets.chosen.declare(unit, Action { move_after, ..entry.action });
            ui.draft = Draft::default();
            ui.picking_then_move = false;
            ui.hint = None;
        }
        None if ui.draft.kind.is_some() => {
            let needs_target = ui
                .draft
                .kind
                .and_then(|kind| options.kinds.get(kind))
                .is_some_and(|(_, entries)| entries.iter().any(|entry| entry.action.target.is_some()));
            ui.hint = Some(if needs_target {
                "Pick a target first: click it, or press T to cycle targets.".into()
            } else {
                "Pick where to go first: click a place, or press T to cycle them.".into()
            });
        }
        None => ui.hint = Some("Choose an action first: press its number, or click it.".into()),
    }
}

fn lift_curtain(ui: &mut BattleUi) {
    if let Some(side) = ui.curtain.take() {
        ui.seated = Some(side);
        ui.draft = Draft::default();
        ui.picking_then_move = false;
        ui.selected = None;
    }
}

/// In hot-seat play, a different side's turn to declare lowers the curtain until its player
/// takes the seat, so nobody sees another side's choices or options. With one human side there
/// is nobody to hide anything from.
fn update_curtain(mut ui: ResMut<BattleUi>, options: Res<DeclarationOptions>, session: Res<super::session::Session>) {
    let Some(side) = options.side else {
        return;
    };
    if session.humans() < 2 {
        ui.seated = Some(side);
        return;
    }
    if ui.seated != Some(side) && ui.curtain.is_none() {
        ui.curtain = Some(side);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_describes_every_action_in_words_not_its_settings_name() {
        for action in PlayerAction::ALL {
            let words = action.describe();
            assert!(!words.is_empty() && !words.contains('_'), "{}: {words:?} is not words", action.key());
            assert_ne!(words, action.key());
        }
    }

    #[test]
    fn home_fits_the_board_by_default() {
        assert_eq!(default_bindings()["fit_board"], ["Home"]);
        assert_eq!(PlayerAction::ALL.iter().filter(|action| **action == PlayerAction::FitBoard).count(), 1);
    }
}
