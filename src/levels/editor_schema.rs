//! JSON Schemas of the RON files modders write, generated from the Rust types, for editors
//! (`fray schema KIND`, and the copies kept in `docs/schema/`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use super::schema::{CreatureFile, LevelFile};
use crate::rules::equipment::{ArmourPiece, DamageType, InjuryTables, Item, Spell, Weapon};
use crate::rules::ruleset::Ruleset;

/// A kind of file that has a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, strum::EnumIter, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum SchemaKind {
    /// A level (`levels/*.ron`).
    Level,
    /// A ruleset (`assets/rulesets/*.ron`).
    Ruleset,
    /// `assets/creatures.ron`.
    Creatures,
    /// `assets/weapons.ron`.
    Weapons,
    /// `assets/armour.ron`.
    Armour,
    /// `assets/spells.ron`.
    Spells,
    /// `assets/items.ron`.
    Items,
    /// `assets/injuries.ron`.
    Injuries,
    /// A mod's manifest, `mod.ron`.
    Mod,
}

impl SchemaKind {
    /// The kind's name on the command line and in `docs/schema/<name>.json`.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// What files of this kind are, for the schema's description.
    fn description(self) -> &'static str {
        match self {
            Self::Level => "A Fray level (levels/*.ron): the battlefield, the sides, the units and how to win.",
            Self::Ruleset => "A Fray ruleset (assets/rulesets/*.ron): every number and option the combat stages read.",
            Self::Creatures => "Fray's creature catalog (assets/creatures.ron): catalog name -> creature.",
            Self::Weapons => "Fray's weapon catalog (assets/weapons.ron): catalog name -> weapon.",
            Self::Armour => "Fray's armour catalog (assets/armour.ron): catalog name -> armour piece.",
            Self::Spells => "Fray's spell catalog (assets/spells.ron): catalog name -> spell.",
            Self::Items => "Fray's item catalog (assets/items.ron): catalog name -> item.",
            Self::Injuries => "Fray's injury tables (assets/injuries.ron): damage type -> combat injury table.",
            Self::Mod => "A Fray mod's manifest (mods/<id>/mod.ron): who the mod is, its version and what it needs.",
        }
    }

    /// The schema as pretty-printed JSON, ending in a newline; the same bytes every time.
    pub fn json(self) -> String {
        let mut schema = match self {
            Self::Level => root::<LevelFile>(),
            Self::Ruleset => root::<Ruleset>(),
            Self::Creatures => root::<BTreeMap<String, CreatureFile>>(),
            Self::Weapons => root::<BTreeMap<String, Weapon>>(),
            Self::Armour => root::<BTreeMap<String, ArmourPiece>>(),
            Self::Spells => root::<BTreeMap<String, Spell>>(),
            Self::Items => root::<BTreeMap<String, Item>>(),
            Self::Injuries => injuries(),
            Self::Mod => root::<super::mods::ModManifest>(),
        };
        schema.insert("title".into(), format!("Fray {}", self.name()).into());
        schema.insert("description".into(), self.description().into());
        let mut text = serde_json::to_string_pretty(&schema).expect("a JSON Schema is plain JSON");
        text.push('\n');
        text
    }
}

/// The injury tables, whose keys must be damage types: a map keyed by an enum gets no key
/// schema of its own.
fn injuries() -> schemars::Schema {
    let mut generator = SchemaSettings::draft07().into_generator();
    let key = generator.subschema_for::<DamageType>();
    let mut schema = generator.into_root_schema_for::<InjuryTables>();
    schema.insert("propertyNames".into(), key.to_value());
    schema
}

/// The root schema of `T`, in draft 7: the draft editors' JSON support knows best.
fn root<T: JsonSchema>() -> schemars::Schema {
    SchemaSettings::draft07().into_generator().into_root_schema_for::<T>()
}

#[cfg(test)]
mod tests {
    use strum::IntoEnumIterator;

    use super::*;

    #[test]
    fn every_schema_is_a_json_object_with_our_title() {
        for kind in SchemaKind::iter() {
            let value: serde_json::Value = serde_json::from_str(&kind.json()).expect("valid JSON");
            assert_eq!(value["title"], format!("Fray {}", kind.name()));
        }
    }

    #[test]
    fn dice_are_written_as_text_with_a_pattern() {
        let value: serde_json::Value = serde_json::from_str(&SchemaKind::Weapons.json()).expect("valid JSON");
        let dice = &value["definitions"]["Dice"];
        assert_eq!(dice["type"], "string");
        assert_eq!(dice["pattern"], crate::vocabulary::dice::DICE_PATTERN);
    }

    #[test]
    fn injury_tables_are_keyed_by_damage_type() {
        let value: serde_json::Value = serde_json::from_str(&SchemaKind::Injuries.json()).expect("valid JSON");
        assert_eq!(value["propertyNames"]["$ref"], "#/definitions/DamageType");
        assert!(value["definitions"]["DamageType"].is_object());
    }
}
