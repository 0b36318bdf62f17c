//! The editor's screen once a level is open: the top bar (file, undo, redo, test play), the
//! tools and palette on the left, the level's sides, victory, seed, ruleset and the live check
//! on the right, and the board in between. Edits go to a copy of the level that is committed
//! (with an undo snapshot) when it differs.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui::{self, Key, Modifiers, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle};

use super::check::save_level;
use super::test_play::TestPlay;
use super::{EditorState, Tool, canvas};
use crate::game::icons::Icons;
use crate::game::model::screen::Screen;
use crate::game::spine::UiSystems;
use crate::game::ui::widgets::{ERROR_COLOUR, screen_ui, side_colour, tracked, tracked_button};
use crate::levels::edit::{self, Terrain};
use crate::levels::schema::{ControllerFile, LevelFile, SideFile, VictoryFile};
use crate::rules::components::AiKind;
use crate::rules::ruleset::DeclarationOrder;

/// Width of the tools panel, in points.
const TOOLS_WIDTH: f32 = 260.0;
/// Width of the level panel, in points.
const LEVEL_WIDTH: f32 = 330.0;
/// Width of a name field in the panels, in points.
const FIELD_WIDTH: f32 = 170.0;
/// What a panel's frame and scroll bar take of its width, in points.
const PANEL_MARGIN: f32 = 40.0;
/// Creatures the search list shows at most.
const CREATURES_SHOWN: usize = 40;
/// The largest grid side the size fields allow.
const MAX_GRID_SIDE: usize = 64;
/// Rounds a new Survive condition asks for.
const DEFAULT_SURVIVE_ROUNDS: u32 = 5;
/// Height of the creature list, in points.
const CREATURE_LIST_HEIGHT: f32 = 160.0;
/// The top bar's buttons, by the labels scripts click.
pub const SAVE_LABEL: &str = "Save";
/// See [`SAVE_LABEL`].
const SAVE_AS_LABEL: &str = "Save as";
/// See [`SAVE_LABEL`].
const UNDO_LABEL: &str = "Undo";
/// See [`SAVE_LABEL`].
const REDO_LABEL: &str = "Redo";
/// See [`SAVE_LABEL`].
pub const TEST_PLAY_LABEL: &str = "Test play";
/// The small remove button beside a side or a victory condition.
const REMOVE_LABEL: &str = "remove";
/// The creature search field, as scripts click it.
const SEARCH_LABEL: &str = "Search creatures";
/// See [`SAVE_LABEL`].
const CLOSE_LABEL: &str = "Close level";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_editor.run_if(in_state(Screen::Editor)).run_if(has_level).in_set(UiSystems::Editor),
    );
}

fn has_level(state: Res<EditorState>) -> bool {
    state.level.is_some()
}

/// What the top bar asked for, done once the panels are drawn.
#[derive(Default)]
struct Requests {
    save: Option<PathBuf>,
    /// The save goes where the player typed (Save as), not where the editor chose.
    typed_path: bool,
    undo: bool,
    redo: bool,
    test_play: bool,
    close: bool,
    menu: bool,
}

/// Hands egui the icon of every unit on the board that it does not have yet, for the tokens.
fn note_icon_textures(contexts: &mut EguiContexts, icons: &Icons, state: &mut EditorState, draft: &LevelFile) {
    for unit in &draft.units {
        let icon = state.unit_icon(unit);
        if !state.icon_textures.contains_key(icon) {
            let texture = contexts.add_image(EguiTextureHandle::Weak(icons.handle(icon).id()));
            let icon = icon.to_string();
            state.icon_textures.insert(icon, texture);
        }
    }
}

fn draw_editor(
    (mut contexts, mut icons, mut images): (EguiContexts, ResMut<Icons>, ResMut<Assets<Image>>),
    mut state: ResMut<EditorState>,
    mut next: ResMut<NextState<Screen>>,
    mut test_play: MessageWriter<TestPlay>,
) -> Result {
    let Some(mut draft) = state.level.clone() else {
        return Ok(());
    };
    if state.is_changed() {
        // The icons of the mods its catalog was read with, before egui is handed any.
        icons.add_mod_icons(&state.mod_icons, &mut images);
    }
    note_icon_textures(&mut contexts, &icons, &mut state, &draft);
    let ctx = contexts.ctx_mut()?;
    let mut requests = shortcuts(ctx, &state);
    let mut root = screen_ui(ctx, "editor");
    egui::Panel::top("editor_top").show(&mut root, |ui| top_bar(ui, &mut state, &mut draft, &mut requests));
    egui::Panel::left("editor_tools").exact_size(TOOLS_WIDTH).show(&mut root, |ui| {
        egui::ScrollArea::vertical().id_salt("tools_scroll").show(ui, |ui| tools_panel(ui, &mut state, &mut draft));
    });
    egui::Panel::right("editor_level").exact_size(LEVEL_WIDTH).show(&mut root, |ui| {
        egui::ScrollArea::vertical().id_salt("level_scroll").show(ui, |ui| level_panel(ui, &mut state, &mut draft));
    });
    let stroke = egui::CentralPanel::default().show(&mut root, |ui| canvas::board(ui, &mut state, &mut draft)).inner;
    state.commit(draft, stroke);
    if requests.undo {
        state.undo();
    }
    if requests.redo {
        state.redo();
    }
    if let Some(path) = requests.save.take() {
        save_level(&mut state, path, requests.typed_path);
    }
    if requests.test_play {
        test_play.write(TestPlay);
    }
    if requests.close {
        state.level = None;
    }
    if requests.menu {
        next.set(Screen::Menu);
    }
    Ok(())
}

/// Ctrl+Z undoes; Ctrl+Y or Ctrl+Shift+Z redoes; Ctrl+S saves (unless a text field has the keys).
fn shortcuts(ctx: &egui::Context, state: &EditorState) -> Requests {
    let mut requests = Requests::default();
    if ctx.text_edit_focused() {
        return requests;
    }
    ctx.input_mut(|input| {
        requests.redo = input.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)
            || input.consume_key(Modifiers::COMMAND, Key::Y);
        requests.undo = input.consume_key(Modifiers::COMMAND, Key::Z);
        if input.consume_key(Modifiers::COMMAND, Key::S) {
            requests.save = Some(state.path.clone());
        }
    });
    requests
}

fn top_bar(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile, requests: &mut Requests) {
    ui.horizontal(|ui| {
        ui.strong("Level editor");
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut draft.name).desired_width(160.0));
        ui.label("File");
        ui.add(egui::TextEdit::singleline(&mut state.path_field).desired_width(220.0));
        if tracked_button(ui, SAVE_LABEL).clicked() {
            requests.save = Some(state.path.clone());
        }
        if tracked_button(ui, SAVE_AS_LABEL).clicked() {
            match super::check::save_as_path(&state.path_field) {
                Ok(path) => {
                    requests.save = Some(path);
                    requests.typed_path = true;
                }
                Err(problem) => state.status = problem,
            }
        }
        let undo = ui.add_enabled(state.history.can_undo(), egui::Button::new(UNDO_LABEL));
        requests.undo |= tracked(undo, UNDO_LABEL).clicked();
        let redo = ui.add_enabled(state.history.can_redo(), egui::Button::new(REDO_LABEL));
        requests.redo |= tracked(redo, REDO_LABEL).clicked();
        requests.test_play = tracked_button(ui, TEST_PLAY_LABEL).clicked();
        requests.close = tracked_button(ui, CLOSE_LABEL).clicked();
        requests.menu = tracked_button(ui, super::start::BACK_LABEL).clicked();
    });
    if !state.status.is_empty() {
        ui.label(RichText::new(&state.status).small());
    }
}

fn tools_panel(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) {
    ui.strong("Tools");
    let tools: &[Tool] = if draft.grid.is_some() { &Tool::GRID } else { &Tool::ZONES };
    ui.horizontal_wrapped(|ui| {
        for tool in tools {
            let button = egui::Button::new(tool.label()).selected(state.tool == *tool);
            if tracked(ui.add(button), tool.label()).clicked() {
                state.tool = *tool;
                state.anchor = None;
            }
        }
    });
    if draft.grid.is_some() {
        grid_tools(ui, state, draft);
    } else {
        zone_tools(ui, state, draft);
    }
    ui.separator();
    unit_tools(ui, state, draft);
}

fn grid_tools(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) {
    ui.horizontal_wrapped(|ui| {
        for terrain in Terrain::ALL {
            let button = egui::Button::new(terrain.label()).selected(state.terrain == terrain);
            if tracked(ui.add(button), terrain.label()).clicked() {
                state.terrain = terrain;
            }
        }
    });
    ui.checkbox(&mut state.filled, "Filled rectangle");
    let Some(grid) = draft.grid.as_mut() else {
        return;
    };
    let (mut width, mut height) = edit::grid_size(&grid.rows);
    ui.horizontal(|ui| {
        ui.label("Width");
        ui.add(egui::DragValue::new(&mut width).range(1..=MAX_GRID_SIDE));
        ui.label("Height");
        ui.add(egui::DragValue::new(&mut height).range(1..=MAX_GRID_SIDE));
    });
    if (width, height) != edit::grid_size(&grid.rows) {
        edit::resize(&mut grid.rows, width, height);
    }
    ui.horizontal(|ui| {
        ui.label("Squares per zone");
        ui.add(egui::DragValue::new(&mut grid.squares_per_zone).range(1..=MAX_GRID_SIDE));
    });
}

fn zone_tools(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) {
    ui.label(RichText::new("Drag zones to move them; Connect zones: click two zones.").small());
    if tracked_button(ui, "Add zone").clicked() {
        let id = edit::add_zone(draft, (0.0, 1.0));
        state.zone_id_field = id.clone();
        state.selected_zone = Some(id);
    }
    let Some(id) = state.selected_zone.clone() else {
        return;
    };
    let Some(zone) = draft.zones.iter_mut().find(|zone| zone.id == id) else {
        return;
    };
    ui.strong(format!("Zone {id}"));
    let mut name = zone.name.clone().unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut name).desired_width(FIELD_WIDTH));
    });
    zone.name = (!name.is_empty()).then_some(name);
    let mut capacity = zone.capacity.unwrap_or(0);
    ui.horizontal(|ui| {
        ui.label("Capacity (0: any)");
        ui.add(egui::DragValue::new(&mut capacity));
    });
    zone.capacity = (capacity > 0).then_some(capacity);
    let field = ui.horizontal(|ui| {
        ui.label("Id");
        ui.add(egui::TextEdit::singleline(&mut state.zone_id_field).desired_width(FIELD_WIDTH))
    });
    if field.inner.lost_focus() && edit::rename_zone(draft, &id, state.zone_id_field.trim()) {
        state.selected_zone = Some(state.zone_id_field.trim().to_string());
    }
    if tracked_button(ui, "Remove zone").clicked() {
        edit::remove_zone(draft, &id);
        state.selected_zone = None;
    }
}

fn unit_tools(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) {
    ui.strong("Units");
    ui.horizontal(|ui| {
        ui.label("Side");
        let current = draft.sides.get(state.side).map_or("-".to_string(), |side| side.name.clone());
        egui::ComboBox::from_id_salt("new_unit_side").selected_text(current).show_ui(ui, |ui| {
            for (at, side) in draft.sides.iter().enumerate() {
                ui.selectable_value(&mut state.side, at, RichText::new(&side.name).color(side_colour(ui.ctx(), at)));
            }
        });
    });
    tracked(ui.add(egui::TextEdit::singleline(&mut state.search).hint_text("search creatures")), SEARCH_LABEL);
    let needle = state.search.to_lowercase();
    egui::ScrollArea::vertical().id_salt("creatures").max_height(CREATURE_LIST_HEIGHT).show(ui, |ui| {
        let matching = state.creatures.iter().filter(|(key, name)| {
            needle.is_empty() || key.to_lowercase().contains(&needle) || name.to_lowercase().contains(&needle)
        });
        for (key, name) in matching.take(CREATURES_SHOWN) {
            let label = format!("{name} ({key})");
            if tracked(ui.selectable_label(state.creature == *key, &label), key).clicked() {
                state.creature.clone_from(key);
                state.tool = Tool::PlaceUnit;
            }
        }
    });
    selected_unit(ui, state, draft);
}

fn selected_unit(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) {
    let Some(id) = state.selected_unit.clone() else {
        return;
    };
    let sides: Vec<String> = draft.sides.iter().map(|side| side.name.clone()).collect();
    let zones: Vec<String> = draft.zones.iter().map(|zone| zone.id.clone()).collect();
    let Some(unit) = draft.units.iter_mut().find(|unit| unit.id == id) else {
        return;
    };
    ui.separator();
    ui.strong(format!("Unit {id} ({})", unit.creature));
    egui::ComboBox::from_id_salt("unit_side").selected_text(unit.side.clone()).show_ui(ui, |ui| {
        for (at, side) in sides.iter().enumerate() {
            ui.selectable_value(&mut unit.side, side.clone(), RichText::new(side).color(side_colour(ui.ctx(), at)));
        }
    });
    let mut name = unit.name.clone().unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut name).desired_width(FIELD_WIDTH));
    });
    unit.name = (!name.is_empty()).then_some(name);
    if !zones.is_empty() {
        ui.horizontal(|ui| {
            ui.label("Zone");
            pick(ui, "unit_zone", &mut unit.zone, &zones);
        });
    }
    if tracked_button(ui, "Remove unit").clicked() {
        edit::remove_unit(draft, &id);
        state.selected_unit = None;
    }
}

fn level_panel(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) {
    check_panel(ui, state);
    ui.separator();
    ui.strong("Level");
    let description = egui::TextEdit::multiline(&mut draft.description).desired_rows(2).hint_text("description");
    ui.add(description.desired_width(LEVEL_WIDTH - PANEL_MARGIN));
    ui.horizontal(|ui| {
        ui.label("Ruleset");
        egui::ComboBox::from_id_salt("ruleset").selected_text(draft.ruleset.clone()).show_ui(ui, |ui| {
            for name in &state.rulesets {
                ui.selectable_value(&mut draft.ruleset, name.clone(), name);
            }
        });
    });
    seed_and_order(ui, draft);
    ui.separator();
    sides_panel(ui, draft);
    ui.separator();
    victory_panel(ui, draft);
}

fn seed_and_order(ui: &mut egui::Ui, draft: &mut LevelFile) {
    ui.horizontal(|ui| {
        let mut fixed = draft.seed.is_some();
        ui.checkbox(&mut fixed, "Seed");
        let mut seed = draft.seed.unwrap_or(0);
        ui.add_enabled(fixed, egui::DragValue::new(&mut seed));
        draft.seed = fixed.then_some(seed);
    });
    ui.horizontal(|ui| {
        ui.label("Declaration order");
        let label = draft.declaration_order.map_or("the ruleset's".to_string(), |order| format!("{order:?}"));
        egui::ComboBox::from_id_salt("declaration_order").selected_text(label).show_ui(ui, |ui| {
            ui.selectable_value(&mut draft.declaration_order, None, "the ruleset's");
            for order in
                [DeclarationOrder::RoundRobinBySide, DeclarationOrder::ByAgility, DeclarationOrder::SimultaneousSecret]
            {
                ui.selectable_value(&mut draft.declaration_order, Some(order), format!("{order:?}"));
            }
        });
    });
}

fn controller_label(controller: ControllerFile) -> String {
    match controller {
        ControllerFile::Human => "Human".into(),
        ControllerFile::Default => "Default (greedy AI)".into(),
        ControllerFile::Ai(kind) => format!("AI: {}", kind.name()),
    }
}

fn sides_panel(ui: &mut egui::Ui, draft: &mut LevelFile) {
    ui.strong("Sides");
    let mut renames = Vec::new();
    let mut remove = None;
    for (at, side) in draft.sides.iter_mut().enumerate() {
        let old = side.name.clone();
        ui.push_id(("side", at), |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("■").color(side_colour(ui.ctx(), at)));
                ui.add(egui::TextEdit::singleline(&mut side.name).desired_width(FIELD_WIDTH));
                if ui.small_button(REMOVE_LABEL).on_hover_text("Remove side").clicked() {
                    remove = Some(at);
                }
            });
            side_fields(ui, side);
        });
        if side.name != old {
            renames.push((old, side.name.clone()));
        }
    }
    for (old, new) in renames {
        rename_side(draft, &old, &new);
    }
    if let Some(at) = remove {
        draft.sides.remove(at);
    }
    if tracked_button(ui, "Add side").clicked() {
        let name = format!("side_{}", draft.sides.len() + 1);
        draft.sides.push(SideFile {
            name,
            controller: ControllerFile::Default,
            checks_morale: true,
            surprised: false,
            party: None,
            surprise_range: 0,
            unscripted: false,
        });
    }
}

fn side_fields(ui: &mut egui::Ui, side: &mut SideFile) {
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("controller").selected_text(controller_label(side.controller)).show_ui(ui, |ui| {
            let choices = [ControllerFile::Default, ControllerFile::Human]
                .into_iter()
                .chain(AiKind::ALL.into_iter().map(ControllerFile::Ai));
            for choice in choices {
                ui.selectable_value(&mut side.controller, choice, controller_label(choice));
            }
        });
        let mut party = side.party == Some(true);
        ui.checkbox(&mut party, "party");
        side.party = if party { Some(true) } else { side.party.filter(|marked| !marked) };
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut side.checks_morale, "checks morale");
        ui.checkbox(&mut side.surprised, "surprised");
    });
}

/// A side renamed in its field: its units and victory conditions follow it.
fn rename_side(draft: &mut LevelFile, old: &str, new: &str) {
    for unit in &mut draft.units {
        if unit.side == old {
            unit.side = new.to_string();
        }
    }
    for condition in &mut draft.victory {
        let (VictoryFile::Survive { side, .. } | VictoryFile::Eliminate { side, .. }) = condition;
        if side == old {
            *side = new.to_string();
        }
    }
}

fn victory_panel(ui: &mut egui::Ui, draft: &mut LevelFile) {
    ui.strong("Victory (the last side standing always wins)");
    let sides: Vec<String> = draft.sides.iter().map(|side| side.name.clone()).collect();
    let units: Vec<String> = draft.units.iter().map(|unit| unit.id.clone()).collect();
    let mut remove = None;
    for (at, condition) in draft.victory.iter_mut().enumerate() {
        ui.push_id(("victory", at), |ui| {
            ui.horizontal(|ui| {
                match condition {
                    VictoryFile::Survive { side, rounds } => {
                        pick(ui, "side", side, &sides);
                        ui.label("survives");
                        ui.add(egui::DragValue::new(rounds).range(1..=u32::MAX));
                        ui.label("rounds");
                    }
                    VictoryFile::Eliminate { unit, side } => {
                        pick(ui, "side", side, &sides);
                        ui.label("wins when down:");
                        pick(ui, "unit", unit, &units);
                    }
                }
                if ui.small_button(REMOVE_LABEL).on_hover_text("Remove condition").clicked() {
                    remove = Some(at);
                }
            });
        });
    }
    if let Some(at) = remove {
        draft.victory.remove(at);
    }
    let first_side = sides.first().cloned().unwrap_or_default();
    ui.horizontal(|ui| {
        if tracked_button(ui, "Add Survive").clicked() {
            draft.victory.push(VictoryFile::Survive { side: first_side.clone(), rounds: DEFAULT_SURVIVE_ROUNDS });
        }
        if tracked_button(ui, "Add Eliminate").clicked() {
            let unit = units.last().cloned().unwrap_or_default();
            draft.victory.push(VictoryFile::Eliminate { unit, side: first_side });
        }
    });
}

fn pick(ui: &mut egui::Ui, salt: &str, value: &mut String, choices: &[String]) {
    egui::ComboBox::from_id_salt(salt).selected_text(value.clone()).show_ui(ui, |ui| {
        for choice in choices {
            ui.selectable_value(value, choice.clone(), choice);
        }
    });
}

fn check_panel(ui: &mut egui::Ui, state: &EditorState) {
    if state.errors.is_empty() {
        ui.label(RichText::new("✔ fray check: no errors").strong());
    } else {
        ui.label(RichText::new(format!("✖ fray check: {} error(s)", state.errors.len())).color(ERROR_COLOUR).strong());
        for line in &state.errors {
            ui.label(RichText::new(&line.text).color(ERROR_COLOUR).monospace().small());
        }
    }
    for warning in &state.warnings {
        ui.label(RichText::new(warning).weak().small());
    }
}
