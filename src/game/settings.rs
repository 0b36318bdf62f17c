//! The settings screen (from the main menu and in battle): UI scale, a colour-blind-safe side
//! palette, names on the board, the volumes and mute, and the key bindings; kept in
//! `fray-settings.ron` in the platform's config folder.

use std::path::Path;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::controls::{binding_conflicts, binding_name, default_bindings};
use super::model::battle_ui::UiCommand;
use super::model::launch::LaunchOptions;
use super::model::player_action::PlayerAction;
use super::model::settings::{BindingsChanged, Settings};
use super::model::settings::{DisplaySettings, SettingsScreen, settings_path};

/// The smallest and largest UI scale the slider offers.
const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.75..=2.0;
/// The slowest and fastest animation speed the slider offers (1 is normal).
const ANIMATION_SPEED_RANGE: std::ops::RangeInclusive<f32> = 0.25..=3.0;
/// The shortest and longest pause between rounds the slider offers, in seconds.
const ROUND_PAUSE_RANGE: std::ops::RangeInclusive<f32> = 0.0..=6.0;
/// The volume sliders' range (0 silent, 1 as recorded).
const VOLUME_RANGE: std::ops::RangeInclusive<f32> = 0.0..=1.0;
/// Default width of the settings window, in points.
const SETTINGS_WIDTH: f32 = 420.0;

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

/// Binds `action` to the key `name` alone in `settings` (the file's bindings) and returns the
/// other actions bound to the same key, which the settings window shows as a conflict.
pub fn rebind(settings: &mut Settings, action: PlayerAction, name: &str) -> Vec<&'static str> {
    settings.bindings.insert(action.key().to_string(), vec![name.to_string()]);
    let mut all = default_bindings();
    all.extend(settings.bindings.clone());
    let mut conflicts = binding_conflicts(&all);
    conflicts.remove(name).unwrap_or_default().into_iter().filter(|other| *other != action.key()).collect()
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsScreen>()
        .add_systems(Startup, read_display)
        .add_systems(Update, (toggle_settings, apply_display, capture_rebind, mirror_key_capture).chain())
        .add_systems(EguiPrimaryContextPass, draw_settings);
}

fn read_display(options: Res<LaunchOptions>, mut screen: ResMut<SettingsScreen>) {
    screen.path = settings_path(&options);
    // A broken file is reported by the key bindings' loader; here it just keeps the defaults.
    let settings = read_settings(&screen.path).ok();
    screen.display = settings.as_ref().map(|settings| settings.display.clone()).unwrap_or_default();
    screen.audio = settings.map(|settings| settings.audio).unwrap_or_default();
    screen.audio.muted |= options.mute;
}

fn toggle_settings(mut commands: MessageReader<UiCommand>, mut screen: ResMut<SettingsScreen>) {
    if commands.read().filter(|command| **command == UiCommand::ToggleSettings).count() % 2 == 1 {
        screen.open = !screen.open;
    }
}

/// Puts the display settings in force whenever they change.
fn apply_display(
    screen: Res<SettingsScreen>,
    mut contexts: EguiContexts,
    mut time: ResMut<Time<Virtual>>,
    (mut pacing, options): (ResMut<super::model::pace::RoundPacing>, Res<LaunchOptions>),
    mut palette: ResMut<super::board::SidePalette>,
) -> Result {
    if !screen.is_changed() {
        return Ok(());
    }
    palette.set_if_neq(super::board::SidePalette::chosen(screen.display.colour_blind_palette));
    contexts.ctx_mut()?.set_zoom_factor(screen.display.ui_scale);
    // The board's animations and timers all run on virtual time.
    time.set_relative_speed(
        screen.display.animation_speed.clamp(*ANIMATION_SPEED_RANGE.start(), *ANIMATION_SPEED_RANGE.end()),
    );
    // Unattended runs (screenshots, scripts) keep the pacing the autoplay chose.
    if options.screenshots.is_none() {
        let pause = screen.display.round_pause.clamp(*ROUND_PAUSE_RANGE.start(), *ROUND_PAUSE_RANGE.end());
        pacing.delay = std::time::Duration::from_secs_f32(pause);
    }
    Ok(())
}

/// Tells the game's controls when a key press is a new binding, so it does not also act.
fn mirror_key_capture(screen: Res<SettingsScreen>, mut capture: ResMut<super::model::settings::KeyCapture>) {
    capture.set_if_neq(super::model::settings::KeyCapture(screen.rebinding.is_some()));
}

/// While an action waits for its key: the next key pressed becomes its binding, written to the
/// settings file and in force at once (Escape gives up).
fn capture_rebind(
    mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>,
    held: Res<ButtonInput<KeyCode>>,
    mut screen: ResMut<SettingsScreen>,
    mut changed: MessageWriter<BindingsChanged>,
) {
    let Some(action) = screen.rebinding else {
        keys.clear();
        return;
    };
    let control = held.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let pressed = keys.read().filter(|key| key.state.is_pressed()).map(|key| key.key_code).find(|code| {
        !matches!(code, KeyCode::ControlLeft | KeyCode::ControlRight | KeyCode::ShiftLeft | KeyCode::ShiftRight)
    });
    let Some(code) = pressed else {
        return;
    };
    screen.rebinding = None;
    if code == KeyCode::Escape {
        screen.status = Some(format!("{} keeps its keys", action.key()));
        return;
    }
    let Some(name) = binding_name(code, control) else {
        screen.status = Some(format!("{code:?} cannot be bound; {} keeps its keys", action.key()));
        return;
    };
    let mut settings = read_settings(&screen.path).unwrap_or(Settings {
        bindings: default(),
        display: screen.display.clone(),
        audio: screen.audio.clone(),
    });
    let conflicts = rebind(&mut settings, action, &name);
    screen.status = Some(match write_settings(&screen.path, &settings) {
        Err(error) => format!("Not saved: {error}"),
        Ok(()) if conflicts.is_empty() => format!("{} is now {name}", action.key()),
        Ok(()) => format!("{} is now {name}; conflict: {name} is also {}", action.key(), conflicts.join(", ")),
    });
    changed.write(BindingsChanged);
}

/// The settings window: the display settings, the key bindings, Save and Close.
fn draw_settings(mut contexts: EguiContexts, mut screen: ResMut<SettingsScreen>) -> Result {
    if !screen.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut display = screen.display.clone();
    let mut audio = screen.audio.clone();
    let mut open = true;
    let mut save = false;
    let mut rebinding = None;
    // In front, with the help window it opens from: a window opened later shows on top.
    let window = egui::Window::new("Settings").open(&mut open).order(egui::Order::Foreground);
    window.default_width(SETTINGS_WIDTH).show(ctx, |ui| {
        // A typed scale takes effect on Enter: scaling the window under each keystroke ("0" of
        // "0.9" is the smallest scale) would move the field away from the typing.
        let scale = egui::Slider::new(&mut display.ui_scale, UI_SCALE_RANGE).text("UI scale").step_by(0.05);
        ui.add(scale.update_while_editing(false));
        ui.checkbox(&mut display.colour_blind_palette, "Colour-blind-safe side colours (Okabe–Ito)");
        ui.checkbox(&mut display.show_names, "Names under the tokens");
        ui.add(
            egui::Slider::new(&mut display.animation_speed, ANIMATION_SPEED_RANGE)
                .text("Animation speed")
                .step_by(0.25),
        );
        ui.add(
            egui::Slider::new(&mut display.round_pause, ROUND_PAUSE_RANGE)
                .text("Pause between rounds (s)")
                .step_by(0.1),
        );
        ui.separator();
        audio_controls(ui, &mut audio);
        ui.separator();
        ui.strong("Key bindings");
        ui.label(egui::RichText::new("Rebind, then press the new key (Escape keeps the old ones)").weak());
        if let Some(action) = bindings_grid(ui, &screen.path, screen.rebinding) {
            rebinding = Some(action);
        }
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
    if audio != screen.audio {
        screen.audio = audio;
    }
    if save {
        let status = save_display(&screen.path, &screen.display, &screen.audio);
        screen.status = Some(status);
    }
    if rebinding.is_some() {
        screen.rebinding = rebinding;
    }
    if !open {
        screen.open = false;
        screen.rebinding = None;
    }
    Ok(())
}

/// The volume sliders and the mute box.
fn audio_controls(ui: &mut egui::Ui, audio: &mut super::model::settings::AudioSettings) {
    ui.strong("Sound");
    ui.checkbox(&mut audio.muted, "Mute every sound").on_hover_text("toggle_mute in fray-settings.ron; Ctrl+M");
    ui.add_enabled_ui(!audio.muted, |ui| {
        for (volume, label) in [
            (&mut audio.master, "Master volume"),
            (&mut audio.music, "Music"),
            (&mut audio.effects, "Sound effects"),
            (&mut audio.interface, "Interface sounds"),
        ] {
            let slider = egui::Slider::new(volume, VOLUME_RANGE).text(label).step_by(0.05);
            let slider = slider
                .custom_formatter(|value, _| format!("{:.0}%", value * 100.0))
                .custom_parser(|text| text.trim().trim_end_matches('%').trim().parse::<f64>().ok().map(|v| v / 100.0));
            ui.add(slider);
        }
    });
}

/// Writes the display and audio settings, keeping the file's bindings.
fn save_display(path: &Path, display: &DisplaySettings, audio: &super::model::settings::AudioSettings) -> String {
    let mut settings =
        read_settings(path).unwrap_or(Settings { bindings: Default::default(), display: default(), audio: default() });
    settings.display = display.clone();
    settings.audio = audio.clone();
    match write_settings(path, &settings) {
        Ok(()) => format!("Saved to {}", path.display()),
        Err(error) => format!("Not saved: {error}"),
    }
}

/// Every action, its keys (the file's, else the defaults; a key two actions share in red) and
/// a Rebind button; returns the action whose Rebind was clicked.
fn bindings_grid(ui: &mut egui::Ui, path: &Path, waiting: Option<PlayerAction>) -> Option<PlayerAction> {
    let mut bindings = default_bindings();
    if let Ok(settings) = read_settings(path) {
        bindings.extend(settings.bindings);
    }
    let conflicts = binding_conflicts(&bindings);
    let mut clicked = None;
    egui::ScrollArea::vertical().max_height(ui.ctx().content_rect().height() * 0.4).show(ui, |ui| {
        egui::Grid::new("settings_bindings").num_columns(3).striped(true).show(ui, |ui| {
            for action in PlayerAction::ALL {
                // What the action does, with the name the settings file knows it by on hover.
                ui.label(action.describe()).on_hover_text(format!("{} in fray-settings.ron", action.key()));
                let keys = bindings.get(action.key()).cloned().unwrap_or_default();
                let shared: Vec<String> = keys
                    .iter()
                    .filter_map(|key| conflicts.get(key).map(|actions| format!("{key}: {}", actions.join(", "))))
                    .collect();
                let text = egui::RichText::new(keys.join(", "));
                if shared.is_empty() {
                    ui.label(text);
                } else {
                    ui.label(text.color(super::ui::widgets::ERROR_COLOUR))
                        .on_hover_text(format!("Shared: {}", shared.join("; ")));
                }
                let label = if waiting == Some(action) { "Press a key…" } else { "Rebind" };
                if ui.small_button(label).clicked() {
                    clicked = Some(action);
                }
                ui.end_row();
            }
        });
    });
    clicked
}
