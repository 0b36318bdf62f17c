//! The unit card: everything about the selected unit.

use bevy_egui::egui::{self, Color32, RichText};

use super::BattleView;
use crate::game::ui::widgets::{explained, side_colour};
use crate::game::ui::{ERROR_COLOUR, SECTION_SPACING};
use crate::rules::equipment::Attribute;
use crate::rules::gear_text;
use crate::rules::glossary::Term;
use crate::rules::ruleset::{Pools, Ruleset};
use crate::rules::unit::{self, UnitView};

/// Stress bar fill.
const STRESS_COLOUR: Color32 = Color32::from_rgb(200, 160, 60);
/// Wound Points bar fill.
const WOUNDS_COLOUR: Color32 = Color32::from_rgb(180, 60, 60);

/// Attributes in card order (the order of [`Attribute`] and of the data files).
const ATTRIBUTES: [(Attribute, &str); 6] = [
    (Attribute::Strength, "Strength"),
    (Attribute::Agility, "Agility"),
    (Attribute::Dexterity, "Dexterity"),
    (Attribute::Insight, "Insight"),
    (Attribute::Memory, "Memory"),
    (Attribute::Perception, "Perception"),
];

/// Everything about the selected unit, or, with none selected, the unit declaring now: the
/// card follows the declaring unit.
pub(super) fn unit_card(ui: &mut egui::Ui, view: &BattleView) {
    let shown = view.ui.selected.or(view.options.unit);
    let Some(unit) = shown.and_then(|unit| view.battle.units.get(unit).ok()) else {
        ui.heading("Unit");
        ui.label(RichText::new("Click a unit, or press Tab, to inspect it.").weak());
        return;
    };
    let colour = side_colour(ui.ctx(), unit.standing.side.0);
    ui.heading(RichText::new(unit.standing.name.as_str()).color(colour));
    ui.label(format!("{} · {}", unit.standing.id.0, view.battle.side_name(unit.standing.side.0)));
    let rules = view.battle.ruleset.name.as_str();
    let status = ui.label(format!("{} {}", unit.standing.status.log_name(), view.whereabouts(unit.standing.zone.0)));
    explained(status, Term::for_status(*unit.standing.status), rules);
    // Only the pools the ruleset uses: one of hit points (kept as Wound Points) has no Stress.
    match view.battle.ruleset.damage.pools {
        Pools::StressAndWounds => {
            explained(
                meter(ui, "Stress", unit.body.stress.current, unit.body.stress.max, STRESS_COLOUR),
                Term::Stress,
                rules,
            );
            let wounds = meter(ui, "Wound Points", unit.body.wounds.current, unit.body.wounds.max, WOUNDS_COLOUR);
            explained(wounds, Term::WoundPoints, rules);
        }
        Pools::HitPoints => {
            let hit_points = meter(ui, "Hit points", unit.body.wounds.current, unit.body.wounds.max, WOUNDS_COLOUR);
            explained(hit_points, Term::HitPoints, rules);
        }
    }
    ui.add_space(SECTION_SPACING);
    let defense =
        unit::defense_score(&view.battle.ruleset, unit.body.attributes, unit.arms.defense, unit.round.conditions);
    ui.label(format!("Defense {defense} · Armour {} · Speed {}", unit.arms.armour.0, unit.body.speed.0));
    egui::Grid::new("attributes").num_columns(3).striped(true).show(ui, |ui| {
        for (attribute, name) in ATTRIBUTES {
            ui.label(name);
            ui.label(unit.body.attributes.score(attribute).to_string());
            ui.label(format!("{:+}", unit::modifier(&view.battle.ruleset, unit.body.attributes, attribute)));
            ui.end_row();
        }
    });
    ui.add_space(SECTION_SPACING);
    unit_gear(ui, &unit, &view.battle.ruleset);
}

/// How a hindrance that needs an action ends (`Z-HIND-1`), for a card that shows it: every other
/// lingering effect is tested at the end of the turn without a word from the player.
fn action_to_shake_off(unit: &UnitView) -> Option<String> {
    let (hindrance, lingering) = unit.round.conditions.hindrance_needing_action()?;
    let attribute =
        ATTRIBUTES.iter().find(|(attribute, _)| *attribute == lingering.attribute).map_or("?", |(_, name)| name);
    let name = Term::for_condition(hindrance.log_name()).map_or(hindrance.log_name(), Term::label);
    Some(format!("{name}: only an action ends it (Shake off: {attribute} test, {} to pass)", lingering.tn))
}

/// What the unit carries and suffers: loadout, conditions, injuries, items, spells and mana.
fn unit_gear(ui: &mut egui::Ui, unit: &UnitView, ruleset: &Ruleset) {
    let rules = ruleset.name.as_str();
    for line in gear_text::gear_lines(unit.arms.loadout, ruleset) {
        ui.label(line);
    }
    let conditions = unit.round.conditions.names();
    ui.horizontal_wrapped(|ui| {
        ui.label("Conditions:");
        if conditions.is_empty() {
            ui.label("none");
        }
        // Each condition its own label, so hovering one explains it.
        for condition in &conditions {
            let shown = ui.label(condition.as_str());
            if let Some(term) = Term::for_condition(condition) {
                explained(shown, term, rules);
            }
        }
    });
    if let Some(how) = action_to_shake_off(unit) {
        ui.label(how);
    }
    if unit.round.surprised {
        ui.label(RichText::new("Surprised").color(ERROR_COLOUR));
    }
    list(
        ui,
        "Injuries",
        unit.body.wounds.injuries.iter().map(|injury| {
            let mut text = format!("{} {} (round {})", injury.amount, injury.damage_type.as_str(), injury.round);
            if let Some(combat_injury) = &injury.combat_injury {
                text = format!("{text}: {combat_injury}");
            }
            text
        }),
    );
    list(ui, "Items", unit.arms.inventory.0.iter().map(gear_text::item_line));
    list(ui, "Spells", unit.magic.spells.0.iter().map(|(name, spell)| gear_text::spell_line(name, spell)));
    if unit.magic.mana.max > 0 || !unit.magic.spells.0.is_empty() {
        ui.label(format!("Mana {}/{}", unit.magic.mana.current, unit.magic.mana.max));
    }
}

/// A labelled bar for a pool that runs from 0 to `max` (shown empty when below 0).
fn meter(ui: &mut egui::Ui, label: &str, current: i32, max: i32, colour: Color32) -> egui::Response {
    let fraction = if max > 0 { (current as f32 / max as f32).clamp(0.0, 1.0) } else { 0.0 };
    ui.add(egui::ProgressBar::new(fraction).fill(colour).text(format!("{label} {current}/{max}")))
}

/// A titled list, or nothing when it is empty.
fn list(ui: &mut egui::Ui, title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        return;
    }
    ui.strong(title);
    for item in items {
        ui.label(format!("• {item}"));
    }
}
