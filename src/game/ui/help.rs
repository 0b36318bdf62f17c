//! The help window (F1): the battle's rules in plain words with a glossary of every rules term,
//! as this ruleset has it, and every action with the keys bound to it, as the player's settings
//! have them.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::{ButtonlikeChord, InputMap, ModifierKey, MouseScrollDirection};

use super::UiSystems;
use crate::game::controls::{self, Binding};
use crate::game::model::battle_ui::Player;
use crate::game::model::battle_ui::{BattleUi, UiCommand};
use crate::game::model::player_action::PlayerAction;
use crate::game::model::screen::Screen;
use crate::rules::glossary::Glossary;
use crate::rules::ruleset::Ruleset;

/// Default width of the help window, in points.
const HELP_WIDTH: f32 = 360.0;
/// Draws the help window during a battle, while it is open.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_help.run_if(in_state(Screen::Battle)).in_set(UiSystems::Help));
}

/// The help window: the rules and glossary of this ruleset, and every action with its keys.
fn draw_help(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    ruleset: Res<Ruleset>,
    players: Query<&InputMap<PlayerAction>, With<Player>>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    if !ui_state.show_help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let map = players.single().ok();
    let defaults = controls::default_bindings();
    let names = if map.is_some() { binding_names() } else { Vec::new() };
    let mut open = true;
    egui::Window::new("Help").open(&mut open).order(egui::Order::Foreground).default_width(HELP_WIDTH).show(
        ctx,
        |ui| {
            // The battle's top bar is full: its settings open from here.
            if super::widgets::tracked_button(ui, "Settings").clicked() {
                commands.write(UiCommand::ToggleSettings);
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                rules_and_words(ui, &ruleset.name);
                egui::CollapsingHeader::new("Keys")
                    .default_open(true)
                    .show(ui, |ui| bindings_grid(ui, map, &defaults, &names));
            });
        },
    );
    if !open {
        commands.write(UiCommand::ToggleHelp);
    }
    Ok(())
}

/// The ruleset's turn in plain words, and every rules term it uses with what it means here.
fn rules_and_words(ui: &mut egui::Ui, ruleset: &str) {
    let glossary = Glossary::builtin();
    egui::CollapsingHeader::new(format!("Rules: {ruleset}")).show(ui, |ui| {
        if let Some(overview) = glossary.overview(ruleset) {
            ui.label(overview);
        }
    });
    egui::CollapsingHeader::new("Glossary").show(ui, |ui| {
        for (term, words) in glossary.terms_for(ruleset) {
            ui.label(egui::RichText::new(term.label()).strong());
            ui.label(words);
            ui.add_space(GLOSSARY_SPACING);
        }
    });
}

/// Room between two glossary entries, in points.
const GLOSSARY_SPACING: f32 = 4.0;

/// Every action, what it does, and the keys bound to it.
fn bindings_grid(
    ui: &mut egui::Ui,
    map: Option<&InputMap<PlayerAction>>,
    defaults: &std::collections::BTreeMap<String, Vec<String>>,
    names: &[(String, String)],
) {
    egui::Grid::new("bindings").num_columns(2).striped(true).show(ui, |ui| {
        for action in PlayerAction::ALL {
            let bindings = match map {
                Some(map) => bound_inputs(map, action, names),
                None => defaults.get(action.key()).cloned().unwrap_or_default(),
            };
            // The settings file's name for the action, for players who rebind there.
            ui.label(action.describe()).on_hover_text(format!("{} in fray-settings.ron", action.key()));
            ui.label(if bindings.is_empty() { "unbound".to_string() } else { bindings.join(", ") });
            ui.end_row();
        }
    });
}

/// Every binding name the settings file accepts, with the `Debug` text of the input it means,
/// to name the inputs of an [`InputMap`] the way the player wrote them.
fn binding_names() -> Vec<(String, String)> {
    // One list of key names, shared with the settings window, so the help shows every key the
    // settings file accepts (the replay keys included).
    let with_control = ('A'..='Z').map(|letter| format!("Ctrl+{letter}"));
    controls::MOUSE_BINDINGS
        .iter()
        .map(|(name, _)| name.to_string())
        .chain(controls::key_names())
        .chain(with_control)
        .filter_map(|name| {
            let input = match controls::parse_binding(&name)? {
                Binding::Key(key) => format!("{key:?}"),
                Binding::Mouse(button) => format!("{button:?}"),
                Binding::WheelUp => format!("{:?}", MouseScrollDirection::UP),
                Binding::WheelDown => format!("{:?}", MouseScrollDirection::DOWN),
                Binding::Control(key) => format!("{:?}", ButtonlikeChord::modified(ModifierKey::Control, key)),
            };
            Some((input, name))
        })
        .collect()
}

/// The names of the inputs bound to `action` (an input without a settings name shows as is).
fn bound_inputs(map: &InputMap<PlayerAction>, action: PlayerAction, names: &[(String, String)]) -> Vec<String> {
    let Some(inputs) = map.get_buttonlike(&action) else {
        return Vec::new();
    };
    inputs
        .iter()
        .map(|input| {
            let debug = format!("{input:?}");
            names.iter().find(|(known, _)| *known == debug).map_or(debug, |(_, name)| name.clone())
        })
        .collect()
}
