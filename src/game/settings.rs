//! The settings screen (from the main menu and in battle): UI scale, a colour-blind-safe side
//! palette, names on the board, and the key bindings; kept in `fray-settings.ron` in the
//! platform's config folder.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde::{Deserialize, Serialize};

use super::LaunchOptions;
use super::controls::{PlayerAction, SETTINGS_FILE, Settings, UiCommand, default_bindings};

/// Set to keep settings in this folder instead of the platform's config folder.
pub const CONFIG_DIR_VARIABLE: &str = "FRAY_CONFIG_DIR";
/// The smallest and largest UI scale the slider offers.
const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.75..=2.0;
/// Default width of the settings window, in points.
const SETTINGS_WIDTH: f32 = 420.0;

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
}

impl Default for DisplaySettings {
    fn default() -> Self {
        Self { ui_scale: 1.0, colour_blind_palette: false, show_names: true }
    }
}

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

/// Reads a settings file; errors read `file:line:column: what`.
pub fn read_settings(path: &Path) -> Result<Settings, String> {
    crate::levels::catalog::read_text(path)
        .and_then(|text| crate::levels::catalog::parse::<Settings>(&text, path))
        .map_err(|error| error.to_string())
}

/// Writes a settings file through a temporary file, so a failed write keeps the old one.
pub fn write_settings(path: &Path, settings: &Settings) -> Result<(), crate::save::SaveError> {
    let config = ron::ser::PrettyConfig::new().struct_names(false);
    let text = ron::ser::to_string_pretty(settings, config).unwrap_or_default();
    crate::save::format::write_atomically(path, text.as_bytes())
}

/// The settings screen's state.
#[derive(Resource, Debug, Default)]
pub struct SettingsScreen {
    /// The display settings in force.
    pub display: DisplaySettings,
    /// Whether the window shows.
    pub open: bool,
    /// The file they are kept in.
    pub path: PathBuf,
    /// What the last Save did.
    pub status: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsScreen>()
        .add_systems(Startup, read_display)
        .add_systems(Update, (toggle_settings, apply_display).chain())
        .add_systems(EguiPrimaryContextPass, draw_settings);
}

fn read_display(options: Res<LaunchOptions>, mut screen: ResMut<SettingsScreen>) {
    screen.path = settings_path(&options);
    // A broken file is reported by the key bindings' loader; here it just keeps the defaults.
    screen.display = read_settings(&screen.path).map(|settings| settings.display).unwrap_or_default();
}

fn toggle_settings(mut commands: MessageReader<UiCommand>, mut screen: ResMut<SettingsScreen>) {
    if commands.read().filter(|command| **command == UiCommand::ToggleSettings).count() % 2 == 1 {
        screen.open = !screen.open;
    }
}

/// Puts the display settings in force whenever they change.
fn apply_display(screen: Res<SettingsScreen>, mut contexts: EguiContexts) -> Result {
    if !screen.is_changed() {
        return Ok(());
    }
    super::board::use_colour_blind_palette(screen.display.colour_blind_palette);
    contexts.ctx_mut()?.set_zoom_factor(screen.display.ui_scale);
    Ok(())
}

/// The settings window: the display settings, the key bindings, Save and Close.
fn draw_settings(mut contexts: EguiContexts, mut screen: ResMut<SettingsScreen>) -> Result {
    if !screen.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut display = screen.display.clone();
    let mut open = true;
    let mut save = false;
    egui::Window::new("Settings").open(&mut open).default_width(SETTINGS_WIDTH).show(ctx, |ui| {
        ui.add(egui::Slider::new(&mut display.ui_scale, UI_SCALE_RANGE).text("UI scale").step_by(0.05));
        ui.checkbox(&mut display.colour_blind_palette, "Colour-blind-safe side colours (Okabe–Ito)");
        ui.checkbox(&mut display.show_names, "Names under the tokens");
        ui.separator();
        ui.strong("Key bindings");
        ui.label(egui::RichText::new(format!("Change them in {}", screen.path.display())).weak());
        bindings_grid(ui, &screen.path);
        ui.separator();
        ui.horizontal(|ui| {
            save = ui.button("Save settings").clicked();
            if let Some(status) = &screen.status {
                ui.label(status);
            }
        });
    });
    if display != screen.display {
        screen.display = display;
    }
    if save {
        let status = save_display(&screen.path, &screen.display);
        screen.status = Some(status);
    }
    if !open {
        screen.open = false;
    }
    Ok(())
}

/// Writes the display settings, keeping the file's bindings.
fn save_display(path: &Path, display: &DisplaySettings) -> String {
    let mut settings = read_settings(path).unwrap_or(Settings { bindings: Default::default(), display: default() });
    settings.display = display.clone();
    match write_settings(path, &settings) {
        Ok(()) => format!("Saved to {}", path.display()),
        Err(error) => format!("Not saved: {error}"),
    }
}

/// Every action and its keys (the file's, else the defaults).
fn bindings_grid(ui: &mut egui::Ui, path: &Path) {
    let mut bindings = default_bindings();
    if let Ok(settings) = read_settings(path) {
        bindings.extend(settings.bindings);
    }
    egui::ScrollArea::vertical().max_height(ui.ctx().content_rect().height() * 0.4).show(ui, |ui| {
        egui::Grid::new("settings_bindings").num_columns(2).striped(true).show(ui, |ui| {
            for action in PlayerAction::ALL {
                ui.monospace(action.key());
                ui.label(bindings.get(action.key()).map(|keys| keys.join(", ")).unwrap_or_default());
                ui.end_row();
            }
        });
    });
}
