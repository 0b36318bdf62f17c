//! The player's settings: how the game looks, how loud it plays and which keys do what, as the
//! settings file keeps them and the settings window shows them, and where that file is.

use std::collections::BTreeMap;
use std::path::PathBuf;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::launch::LaunchOptions;
use super::pace::ROUND_PAUSE;
use super::player_action::PlayerAction;

/// Set to keep settings in this folder instead of the platform's config folder.
pub const CONFIG_DIR_VARIABLE: &str = "FRAY_CONFIG_DIR";

/// The settings file: key bindings by action name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Action name → binding names; actions left out keep their defaults.
    #[serde(default)]
    pub bindings: BTreeMap<String, Vec<String>>,
    /// UI scale, palette, names (the settings screen writes these).
    #[serde(default)]
    pub display: DisplaySettings,
    /// Volumes and mute (the settings screen writes these).
    #[serde(default)]
    pub audio: AudioSettings,
}

/// Where the game looks for its settings when none is named.
pub const SETTINGS_FILE: &str = "fray-settings.ron";

/// How the game looks, as the settings file keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DisplaySettings {
    /// Size of the panels' text and buttons (1 is the default).
    pub ui_scale: f32,
    /// Side colours from the Okabe–Ito palette, which stay apart with every common colour-vision
    /// deficiency; sides also keep their token shapes, so colour is never the only cue.
    pub colour_blind_palette: bool,
    /// Names under the tokens.
    pub show_names: bool,
    /// How fast the board's animations play: moves, floating numbers, tumbling dice (1 is
    /// normal, 2 twice as fast).
    pub animation_speed: f32,
    /// Resolution speed: how long a resolved round stays on screen before the next starts,
    /// in seconds at 1x (the top bar's 2x and Instant shorten it further). Set below the
    /// default, each initiative count of a round plays out faster in proportion too.
    pub round_pause: f32,
}

impl Default for DisplaySettings {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            colour_blind_palette: false,
            show_names: true,
            animation_speed: 1.0,
            round_pause: ROUND_PAUSE.as_secs_f32(),
        }
    }
}

/// The volume settings, as the settings file keeps them (each 0 to 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AudioSettings {
    /// Everything.
    pub master: f32,
    /// The menu and battle themes and the end-of-battle stingers.
    pub music: f32,
    /// Blows, falls, steps and spells.
    pub effects: f32,
    /// Clicks and the call to declare.
    pub interface: f32,
    /// No sound at all (the mute key, `--mute`).
    pub muted: bool,
}

impl Default for AudioSettings {
    fn default() -> Self {
        Self { master: 0.8, music: 0.5, effects: 0.9, interface: 0.7, muted: false }
    }
}

/// The settings screen's state.
#[derive(Resource, Debug, Default)]
pub struct SettingsScreen {
    /// The display settings in force.
    pub display: DisplaySettings,
    /// The volumes and mute in force (`--mute` mutes them from the start).
    pub audio: AudioSettings,
    /// Whether the window shows.
    pub open: bool,
    /// The file they are kept in.
    pub path: PathBuf,
    /// What the last Save did.
    pub status: Option<String>,
    /// The action waiting for its new key ("press a key").
    pub rebinding: Option<PlayerAction>,
}

/// Set while the settings wait for the key of a new binding: that key press is the binding,
/// not an order to the game.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCapture(pub bool);

/// The settings file's key bindings were rewritten (a key rebound in the settings window).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BindingsChanged;

/// The settings file to read and write: `--settings FILE`, else `fray-settings.ron` in the
/// working folder if one is there (as older versions kept it), else in the config folder.
pub fn settings_path(options: &LaunchOptions) -> PathBuf {
    if let Some(path) = &options.settings {
        return path.clone();
    }
    let beside = PathBuf::from(SETTINGS_FILE);
    if beside.is_file() {
        return beside;
    }
    if let Some(dir) = std::env::var_os(CONFIG_DIR_VARIABLE) {
        return PathBuf::from(dir).join(SETTINGS_FILE);
    }
    directories::ProjectDirs::from("", "", "Fray").map_or(beside, |dirs| dirs.config_dir().join(SETTINGS_FILE))
}
