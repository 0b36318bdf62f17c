//! What a level edit changes for a battle already being fought: nothing, only what is shown
//! (names, descriptions, icons, where zones are drawn), or the rules state itself. The window's
//! hot reload applies the first two at once and offers a restart for the third.

use super::template::{BattleTemplate, SideTemplate, UnitTemplate};
use crate::battlefield::{Battlefield, ZoneDef, ZoneIdx};

/// How a freshly loaded level differs from the one a battle was started from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelChange {
    /// Nothing that the battle or the screen shows (a comment, a reformatted file).
    Same,
    /// Only names, the description, icons or zone layout: the battle can take them as it is.
    Presentational,
    /// Something the rules read changed; these parts (in words) need a restart.
    Rules(Vec<&'static str>),
}

/// Compares `new` with `old`. Anything not known to be presentation counts as rules: zone and
/// unit ids, hazards (their names too), capacities, terrain, adjacency, every number of a unit,
/// sides' settings, victory, the seed, the declaration order, the injury tables and the ruleset.
pub fn classify(old: &BattleTemplate, new: &BattleTemplate) -> LevelChange {
    let rules = [
        (field_rules(&old.battlefield) != field_rules(&new.battlefield), "battlefield"),
        (sides_rules(&old.sides) != sides_rules(&new.sides), "sides"),
        (units_rules(&old.units) != units_rules(&new.units), "units"),
        (old.victory != new.victory || old.seed != new.seed, "victory conditions or seed"),
        (old.declaration_order != new.declaration_order, "declaration order"),
        (old.injuries != new.injuries, "injury tables"),
        (old.ruleset != new.ruleset, "ruleset"),
    ];
    let changed: Vec<&'static str> = rules.iter().filter(|(changed, _)| *changed).map(|(_, what)| *what).collect();
    if !changed.is_empty() {
        return LevelChange::Rules(changed);
    }
    let shown = old.level_name != new.level_name
        || old.description != new.description
        || old.sides != new.sides
        || old.units != new.units
        || old.battlefield.zones() != new.battlefield.zones();
    if shown { LevelChange::Presentational } else { LevelChange::Same }
}

/// The battlefield without zone names and drawing positions: zones, links and the grid.
fn field_rules(field: &Battlefield) -> (Vec<ZoneDef>, Vec<&[ZoneIdx]>, Option<Vec<String>>) {
    let zones = field.zones().iter().map(|zone| ZoneDef { name: String::new(), position: None, ..zone.clone() });
    let links = (0..field.len()).map(|zone| field.neighbours(zone as ZoneIdx)).collect();
    (zones.collect(), links, field.grid().map(|grid| grid.to_rows()))
}

/// Sides without their names.
fn sides_rules(sides: &[SideTemplate]) -> Vec<SideTemplate> {
    sides.iter().map(|side| SideTemplate { name: "".into(), ..side.clone() }).collect()
}

/// Units without their display names and icons.
fn units_rules(units: &[UnitTemplate]) -> Vec<UnitTemplate> {
    units.iter().map(|unit| UnitTemplate { name: String::new(), icon: "".into(), ..unit.clone() }).collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::levels::catalog::AssetSource;
    use crate::levels::catalog::builtin::LEVELS;
    use crate::levels::load_level_text;

    fn duel_text() -> &'static str {
        LEVELS.iter().find(|(name, _)| *name == "duel.ron").map(|(_, text)| *text).expect("duel.ron is shipped")
    }

    fn grid_text() -> &'static str {
        LEVELS.iter().find(|(name, _)| *name == "shock_and_cover_breach.ron").map(|(_, text)| *text).expect("shipped")
    }

    fn load(text: &str) -> BattleTemplate {
        load_level_text(text, Path::new("<test>/levels/duel.ron"), &AssetSource::default())
            .unwrap_or_else(|errors| panic!("{errors}"))
    }

    /// `classify` of the shipped duel against the duel with `from` replaced by `to`.
    fn duel_edit(from: &str, to: &str) -> LevelChange {
        let text = duel_text();
        assert!(text.contains(from), "duel.ron has no {from:?}");
        classify(&load(text), &load(&text.replacen(from, to, 1)))
    }

    #[test]
    fn a_comment_changes_nothing() {
        assert_eq!(duel_edit("// duel.ron", "// the duel, edited"), LevelChange::Same);
    }

    #[test]
    fn names_descriptions_and_zone_layout_are_presentation() {
        assert_eq!(duel_edit("Duel at the Old Keep", "Duel at the New Keep"), LevelChange::Presentational);
        assert_eq!(duel_edit("has tracked", "has followed"), LevelChange::Presentational);
        assert_eq!(duel_edit("Some(\"The Courtyard\")", "Some(\"The Yard\")"), LevelChange::Presentational);
        assert_eq!(duel_edit("Some(\"Ruusa the Hunter\")", "Some(\"Ruusa\")"), LevelChange::Presentational);
        // A side is renamed everywhere the level names it.
        let renamed = duel_text().replace("\"hunter\"", "\"hunters\"");
        assert_eq!(classify(&load(duel_text()), &load(&renamed)), LevelChange::Presentational);
        let placed = "(id: \"courtyard\", name: Some(\"The Courtyard\"), position: Some((0.0, 1.0)),";
        assert_eq!(
            duel_edit("(id: \"courtyard\", name: Some(\"The Courtyard\"),", placed),
            LevelChange::Presentational
        );
    }

    #[track_caller]
    fn rules(change: LevelChange) -> Vec<&'static str> {
        match change {
            LevelChange::Rules(parts) => parts,
            other => panic!("expected a rules change, got {other:?}"),
        }
    }

    #[test]
    fn numbers_links_seats_and_the_ruleset_are_rules() {
        assert_eq!(rules(duel_edit("seed: Some(7)", "seed: Some(8)")), ["victory conditions or seed"]);
        assert!(rules(duel_edit("ruleset: \"stress_and_wounds\"", "ruleset: \"crucible\"")).contains(&"ruleset"));
        assert_eq!(rules(duel_edit("zone: \"west_gate\"", "zone: \"courtyard\"")), ["units"]);
        assert_eq!(rules(duel_edit("weapon: Some(\"spear\")", "weapon: Some(\"longsword\")")), ["units"]);
        assert_eq!(rules(duel_edit("surprised: false", "surprised: true")), ["units"]);
        let linked = "(id: \"east_gate\", name: Some(\"East Gate\"), adjacent: [\"courtyard\", \"west_gate\"])";
        let shortcut =
            rules(duel_edit("(id: \"east_gate\", name: Some(\"East Gate\"), adjacent: [\"courtyard\"])", linked));
        assert_eq!(shortcut, ["battlefield"]);
        assert_eq!(rules(duel_edit("controller: Default", "controller: Human")), ["sides"]);
    }

    #[test]
    fn terrain_that_moves_or_hides_units_is_rules() {
        let text = grid_text();
        let old = load(text);
        let rows = old.battlefield.grid().expect("a grid level").to_rows();
        let (at, row) = rows.iter().enumerate().find(|(_, row)| row.contains('.')).expect("an open square");
        let column = row.find('.').expect("an open square");
        let mut edited = row.clone();
        edited.replace_range(column..=column, "~");
        let new_text = text.replacen(&format!("\"{row}\""), &format!("\"{edited}\""), 1);
        assert_ne!(new_text, text, "row {at} is written as it is drawn");
        assert!(
            matches!(classify(&old, &load(&new_text)), LevelChange::Rules(parts) if parts.contains(&"battlefield"))
        );
    }
}
