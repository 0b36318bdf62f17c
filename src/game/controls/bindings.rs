//! Key bindings: the leafwing action enum, the default and remappable bindings, their parsing
//! from the settings file, and their names and conflicts.

use super::*;

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
    pub display: crate::game::settings::DisplaySettings,
    /// Volumes and mute (the settings screen writes these).
    #[serde(default)]
    pub audio: crate::game::audio::AudioSettings,
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
