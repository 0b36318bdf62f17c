//! The declaration panel: the kinds of action on offer, the drafted kind's options with their
//! odds, and the buttons that confirm, hold or cancel.

use bevy_egui::egui::{self, Color32, RichText};

use super::BattleView;
use crate::battlefield::Cover;
use crate::game::controls;
use crate::game::model::battle_ui::OptionEntry;
use crate::game::model::battle_ui::UiCommand;
use crate::game::model::player_action::NUMBERED_KINDS;
use crate::game::ui::widgets::{side_colour, tracked, tracked_button};
use crate::game::ui::{ERROR_COLOUR, SECTION_SPACING};
use crate::rules::glossary::{Glossary, Term};

/// A target's cover in the declaration panel (the board's cover tag uses the same hue).
const COVER_COLOUR: Color32 = Color32::from_rgb(235, 190, 80);
/// Converts a probability to a percentage.
const PERCENT: f64 = 100.0;
/// The key of the tenth numbered kind of action.
const TENTH_KIND_KEY: &str = "0";

/// The kinds of action on offer, the drafted kind's options and Confirm/Hold/Cancel.
pub(super) fn declaration_panel(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    let options = &view.options;
    let Some(unit) = options.unit else {
        return;
    };
    let side = options.side.unwrap_or_default();
    ui.heading(RichText::new(format!("Declare: {}", view.battle.unit_name(unit))).color(side_colour(ui.ctx(), side)));
    // Why this unit, now: the table's order of declaring.
    ui.label(
        RichText::new(crate::game::turn_flow::declaring_order_words(&view.battle.ruleset, &view.info)).small().weak(),
    );
    kind_list(ui, view, out);
    if let Some((label, entries)) = view.ui.draft.kind.and_then(|kind| options.kinds.get(kind)) {
        drafted_kind(ui, view, (label.as_str(), entries.as_slice()), out);
    }
    then_move_row(ui, view, out);
}

/// The declaration's hint and its Confirm, Hold and Cancel, pinned under the panel's scrolling
/// part so a long list of targets never pushes them out of the window.
pub(super) fn declaration_footer(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    if view.options.unit.is_none() {
        return;
    }
    ui.separator();
    if let Some(hint) = &view.ui.hint {
        ui.label(RichText::new(hint).color(COVER_COLOUR));
    }
    decision_buttons(ui, view, out);
}

/// Each kind of action on offer, numbered by the key that chooses it; a click chooses it.
fn kind_list(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    for (at, (label, entries)) in view.options.kinds.iter().enumerate() {
        let text = match at + 1 {
            number if number < NUMBERED_KINDS => format!("{number}. {label}"),
            NUMBERED_KINDS => format!("{TENTH_KIND_KEY}. {label}"),
            _ => label.clone(),
        };
        let kind = entries.first().map(|entry| entry.action.kind);
        let description = kind.map_or("", controls::kind_description);
        let mut hover = description.to_string();
        // The rules' own account of the action, as this ruleset has it.
        if let Some(words) =
            kind.and_then(|kind| Glossary::builtin().explain(Term::for_action(kind), &view.battle.ruleset.name))
        {
            hover = format!("{hover}\n\n{words}");
        }
        if ui.selectable_label(view.ui.draft.kind == Some(at), text).on_hover_text(hover).clicked() {
            out.push(UiCommand::ChooseKind(at));
        }
    }
}

/// The drafted kind `(label, entries)`: what it does and its options.
fn drafted_kind(
    ui: &mut egui::Ui,
    view: &BattleView,
    (label, entries): (&str, &[OptionEntry]),
    out: &mut Vec<UiCommand>,
) {
    ui.add_space(SECTION_SPACING);
    ui.strong(label);
    if let Some(first) = entries.first() {
        ui.label(RichText::new(controls::kind_description(first.action.kind)).small().weak());
    }
    let moves = entries.iter().filter(|entry| entry.action.move_to.is_some()).count();
    // A grid offers a move to every square in reach: the board picks those, and the list
    // keeps to the options in place and the one drafted.
    let listed_moves = !view.battle.battlefield.is_grid();
    if moves > 0 {
        let text = if listed_moves {
            "Click a zone on the board to move there.".to_string()
        } else {
            format!("Click a square on the board to move there ({moves} in reach).")
        };
        ui.label(RichText::new(text).small().weak());
    }
    for (at, entry) in entries.iter().enumerate() {
        let chosen = view.ui.draft.option == Some(at);
        if listed_moves || chosen || entry.action.move_to.is_none() {
            option_row(ui, view, entry, chosen, || out.push(UiCommand::ChooseOption(at)));
        }
    }
}

/// The move after the drafted action (`C-MOVE-1`), where the ruleset splits movement: where it
/// goes, or how to set one; a button does what the `then_move` key (B) does.
fn then_move_row(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    let (options, draft) = (&view.options, &view.ui.draft);
    if options.after.is_empty() || options.drafted(draft).is_none() {
        return;
    }
    ui.horizontal(|ui| {
        let (text, button) = match draft.then_move {
            Some(zone) => (format!("Then move to {}", view.battle.battlefield.zone(zone).name), "No move after (B)"),
            None if view.ui.picking_then_move => {
                ("Click where to move after the action.".to_string(), "No move after (B)")
            }
            None => {
                (format!("No move after the action ({} places in reach).", options.after.len()), "Then move... (B)")
            }
        };
        ui.label(RichText::new(text).small());
        if tracked_button(ui, button).clicked() {
            out.push(UiCommand::ThenMove);
        }
    });
}

/// Confirm, Hold and Cancel, and the orders for many units at once.
fn decision_buttons(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    let options = &view.options;
    ui.horizontal(|ui| {
        let complete = options.drafted(&view.ui.draft).is_some();
        if tracked(ui.add_enabled(complete, egui::Button::new(RichText::new("Confirm").strong())), "Confirm").clicked()
        {
            out.push(UiCommand::Confirm);
        }
        if tracked_button(ui, "Hold").clicked() {
            out.push(UiCommand::EndDeclaration);
        }
        if tracked_button(ui, "Cancel").clicked() {
            out.push(UiCommand::Cancel);
        }
    });
    // Orders for many units at once: what a 32-unit side needs every round.
    ui.horizontal(|ui| {
        let complete = options.drafted(&view.ui.draft).is_some();
        let all = ui.add_enabled(complete, egui::Button::new("Same for all"));
        if tracked(all, "Same for all").on_hover_text(ORDER_ALL_HELP).clicked() {
            out.push(UiCommand::OrderAll);
        }
        if tracked_button(ui, "Repeat last round").on_hover_text(REPEAT_HELP).clicked() {
            out.push(UiCommand::RepeatOrders);
        }
    });
}

/// What "Same for all" does.
const ORDER_ALL_HELP: &str =
    "Declare this order, then the same for each of your units that can take it this round (F).";
/// What "Repeat last round" does.
const REPEAT_HELP: &str = "Each of your units declares what it did last round, while it still can (G).";

/// One legal option with what the rules say of it.
fn option_row(ui: &mut egui::Ui, view: &BattleView, entry: &OptionEntry, chosen: bool, mut on_click: impl FnMut()) {
    if ui.selectable_label(chosen, entry.label.as_str()).clicked() {
        on_click();
    }
    ui.indent(("option", &entry.label), |ui| {
        // ASCII arrow: egui's default fonts have no glyph for "→".
        ui.label(RichText::new(format!("modifier {:+} -> initiative {}", entry.modifier, entry.initiative)).small());
        if let Some(odds) = &entry.odds {
            ui.label(
                RichText::new(format!(
                    "hit {:.0}% · damage {}–{} · critical {:.0}%",
                    odds.hit * PERCENT,
                    odds.damage_min,
                    odds.damage_max,
                    odds.critical * PERCENT
                ))
                .small(),
            );
        }
        if let Some(forecast) = &entry.forecast {
            let text = format!("{} · {}", forecast.chance_words(), forecast.outcome_words());
            ui.label(RichText::new(text).small());
        }
        let rules = &view.battle.ruleset.attack;
        match entry.cover {
            Some(Cover::Half) => {
                let text = format!("target in half cover: -{} to hit, counted in the chance", rules.half_cover_penalty);
                ui.label(RichText::new(text).small().color(COVER_COLOUR));
            }
            Some(Cover::Full) => {
                let text = format!("target in full cover: -{} to hit, counted in the chance", rules.full_cover_penalty);
                ui.label(RichText::new(text).small().color(COVER_COLOUR));
            }
            Some(Cover::None) => {
                ui.label(RichText::new("target in the open: no cover").small());
            }
            None => {}
        }
        if entry.repostes > 0 {
            let plural = if entry.repostes == 1 { "" } else { "s" };
            ui.label(RichText::new(format!("provokes {} Reposte{plural}", entry.repostes)).small().color(ERROR_COLOUR));
        }
        for warning in self_harm(view, entry) {
            ui.label(RichText::new(warning).small().color(ERROR_COLOUR));
        }
    });
}

/// What an option costs the unit declaring it, said before it is chosen: a unit that is down
/// bleeds for exertion (`W-WOUND-1`), and a caster within a foe's reach may be hit before its
/// spell goes off, which disrupts it where damage disrupts casting (`C-CAST-1`).
fn self_harm(view: &BattleView, entry: &OptionEntry) -> Vec<String> {
    let Some(actor) = view.options.unit.and_then(|unit| view.battle.units.get(unit).ok()) else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    let wounds = &view.battle.ruleset.wounds;
    let free = actor.round.conditions.stabilised && actor.round.record.actions_taken < wounds.stabilised_free_actions;
    if actor.standing.status.is_down() && entry.action.kind.is_exertion() && wounds.action_cost_when_down > 0 && !free {
        let cost = wounds.action_cost_when_down;
        let plural = if cost == 1 { "" } else { "s" };
        warnings.push(format!(
            "you are {}: this exertion costs you {cost} Wound Point{plural}",
            actor.standing.status.log_name()
        ));
    }
    let casting = matches!(entry.action.kind, crate::rules::components::ActionKind::Cast(_));
    if casting && view.battle.ruleset.spells.damage_disrupts && view.threatened.contains(actor.entity) {
        warnings.push("a foe can reach you: damage before the spell goes off disrupts it".to_string());
    }
    warnings
}
