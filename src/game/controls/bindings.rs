//! Key bindings: the default and remappable bindings of the player's actions, their parsing from
//! the settings file, and their names and conflicts.

use super::*;

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
