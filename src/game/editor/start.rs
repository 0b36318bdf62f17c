//! The editor's start page: a new grid or zone level from the starter `fray new-level` writes,
//! or open one from the level list or a path.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::{EditorState, LEVELS_FOLDER, new_level_path};
use crate::game::model::screen::Screen;
use crate::game::model::session::{LevelSource, Session};
use crate::game::spine::UiSystems;
use crate::game::ui::widgets::{ERROR_COLOUR, screen_ui, tracked, tracked_button};
use crate::levels::catalog::{AssetSource, builtin, parse, read_text};
use crate::levels::edit;
use crate::levels::mods::{ActiveMods, ModSet};
use crate::levels::schema::LevelFile;
use crate::levels::starter::StarterField;
use crate::rules::ruleset::DEFAULT_RULESET;

/// Squares across and down of a new grid level (walls included).
const NEW_GRID_SIZE: (u16, u16) = (12, 10);
/// Zones of a new zone level.
const NEW_ZONE_COUNT: u32 = 3;
/// Width of the start page's column, in points.
const START_WIDTH: f32 = 560.0;
/// The start page's buttons, by the labels scripts click.
pub const NEW_GRID_LABEL: &str = "New grid level";
/// See [`NEW_GRID_LABEL`].
pub const NEW_ZONES_LABEL: &str = "New zone level";
/// See [`NEW_GRID_LABEL`].
const OPEN_LABEL: &str = "Open";
/// See [`NEW_GRID_LABEL`].
pub const BACK_LABEL: &str = "Back to menu";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_start.run_if(in_state(Screen::Editor)).run_if(no_level).in_set(UiSystems::Editor),
    );
}

fn no_level(state: Res<EditorState>) -> bool {
    state.level.is_none()
}

/// What the start page asked for.
enum Choice {
    New(StarterField),
    Open(LevelSource),
    OpenPath(PathBuf),
    Back,
}

fn draw_start(
    mut contexts: EguiContexts,
    mut state: ResMut<EditorState>,
    (session, mods): (Res<Session>, Res<ActiveMods>),
    mut next: ResMut<NextState<Screen>>,
    mut ruleset: Local<String>,
) -> Result {
    if ruleset.is_empty() {
        *ruleset = DEFAULT_RULESET.to_string();
    }
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "editor_start");
    let mut choice = None;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| ui.heading(RichText::new("Level editor").strong()));
        let margin = ((ui.available_width() - START_WIDTH) / 2.0).max(0.0);
        ui.horizontal_top(|ui| {
            ui.add_space(margin);
            ui.vertical(|ui| {
                ui.set_width(START_WIDTH.min(ui.available_width()));
                choice = start_column(ui, &mut state, (&session, &mods.0), &mut ruleset);
            });
        });
    });
    match choice {
        Some(Choice::New(field)) => new_level(&mut state, &ruleset, field, &mods.0),
        Some(Choice::Open(source)) => open_source(&mut state, &source, &mods.0),
        Some(Choice::OpenPath(path)) => open_source(&mut state, &LevelSource::File(path), &mods.0),
        Some(Choice::Back) => next.set(Screen::Menu),
        None => {}
    }
    Ok(())
}

fn start_column(
    ui: &mut egui::Ui,
    state: &mut EditorState,
    (session, mods): (&Session, &ModSet),
    ruleset: &mut String,
) -> Option<Choice> {
    let mut choice = None;
    ui.horizontal(|ui| {
        ui.label("Ruleset");
        let names = AssetSource::near(Path::new(LEVELS_FOLDER).join("new.ron").as_path(), mods).ruleset_names();
        egui::ComboBox::from_id_salt("new_ruleset").selected_text(ruleset.as_str()).show_ui(ui, |ui| {
            for name in names {
                ui.selectable_value(ruleset, name.clone(), name);
            }
        });
    });
    ui.horizontal(|ui| {
        if tracked_button(ui, NEW_GRID_LABEL).clicked() {
            let (width, height) = NEW_GRID_SIZE;
            choice = Some(Choice::New(StarterField::Grid { width, height }));
        }
        if tracked_button(ui, NEW_ZONES_LABEL).clicked() {
            choice = Some(Choice::New(StarterField::Zones(NEW_ZONE_COUNT)));
        }
        if tracked_button(ui, BACK_LABEL).clicked() {
            choice = Some(Choice::Back);
        }
    });
    ui.separator();
    ui.strong("Open a level");
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut state.open_field).hint_text("levels/my_level.ron"));
        if tracked_button(ui, OPEN_LABEL).clicked() {
            choice = Some(Choice::OpenPath(PathBuf::from(state.open_field.trim())));
        }
    });
    if !state.status.is_empty() {
        ui.label(RichText::new(&state.status).color(ERROR_COLOUR));
    }
    egui::ScrollArea::vertical().id_salt("editor_levels").show(ui, |ui| {
        for level in &session.levels {
            let label = format!("Edit: {}", level.title);
            if tracked(ui.button(&label), &label).clicked() {
                choice = Some(Choice::Open(level.source.clone()));
            }
        }
    });
    choice
}

fn new_level(state: &mut EditorState, ruleset: &str, field: StarterField, mods: &ModSet) {
    match edit::new_level(ruleset, field) {
        Ok(level) => {
            let stem = if level.grid.is_some() { "new_grid" } else { "new_zones" };
            state.open(level, new_level_path(stem), mods);
            state.status = "New level: not saved yet.".into();
        }
        Err(error) => state.status = error.to_string(),
    }
}

/// The level's text and the path it is saved at (a built-in level saves to `levels/`).
fn level_text(source: &LevelSource) -> Result<(String, PathBuf), String> {
    match source {
        LevelSource::Builtin(name) => builtin::LEVELS
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, text)| (text.to_string(), Path::new(LEVELS_FOLDER).join(name)))
            .ok_or_else(|| format!("no built-in level {name}")),
        LevelSource::File(path) => read_text(path).map(|text| (text, path.clone())).map_err(|error| error.to_string()),
    }
}

fn open_source(state: &mut EditorState, source: &LevelSource, mods: &ModSet) {
    let opened = level_text(source).and_then(|(text, path)| {
        parse::<LevelFile>(&text, &path).map(|level| (level, path)).map_err(|e| e.to_string())
    });
    match opened {
        Ok((level, path)) => {
            state.status = format!("Opened {}", path.display());
            state.open(level, path, mods);
        }
        Err(error) => state.status = error,
    }
}
