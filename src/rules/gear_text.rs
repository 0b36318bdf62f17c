//! A unit's gear and declared action in words, for the window's unit card, hover card and
//! initiative list: catalog keys read as words (`chain_and_shield` is "chain and shield"), a
//! declared spell, item or throw names what it uses, and what only some rulesets read (the
//! shield's hold on Shock) is said only under them. Headless, so it is tested without a window.

use bevy::prelude::Entity;

use super::components::{Action, ActionKind, Inventory, ItemStack, Loadout, Spells};
use super::equipment::Spell;
use super::log_text::aim_words;
use super::ruleset::Ruleset;
use crate::battlefield::ZoneIdx;

/// A catalog key in words: `healing_draught` reads "healing draught".
pub fn catalog_words(key: &str) -> String {
    key.replace('_', " ")
}

/// What the unit holds and wears, one line each: weapon, off hand, shield (only where the
/// ruleset has Shock, the one thing a shield does besides the armour's Defense) and armour.
pub fn gear_lines(loadout: &Loadout, ruleset: &Ruleset) -> Vec<String> {
    let mut lines = vec![format!("Weapon: {}", catalog_words(&loadout.weapon_name))];
    if let Some((offhand, _)) = &loadout.offhand {
        lines.push(format!("Off hand: {}", catalog_words(offhand)));
    }
    if loadout.shield && ruleset.attack.shock {
        lines.push("Shield: turns the first Shock each round".to_string());
    }
    let armour = loadout.armour_name.as_deref().map_or_else(|| "none".to_string(), catalog_words);
    lines.push(format!("Armour: {armour}"));
    lines
}

/// A carried item and how many are left: `healing draught ×1`.
pub fn item_line(stack: &ItemStack) -> String {
    format!("{} ×{}", catalog_words(&stack.name), stack.count)
}

/// A known spell with its casting TN and cost: `frost ray (TN 12, 2 mana)`.
pub fn spell_line(name: &str, spell: &Spell) -> String {
    format!("{} (TN {}, {} mana)", catalog_words(name), spell.tn, spell.mana)
}

/// A declared action as the panels and the hover card show it: [`declared_words`], then where
/// it moves (`attack Varro, moving to The Millyard`, `..., then moving on to The Lane`), units
/// and places named by `unit_name` and `zone_name`.
pub fn declared_sentence(
    action: &Action,
    spells: &Spells,
    inventory: &Inventory,
    unit_name: impl Fn(Entity) -> String,
    zone_name: impl Fn(ZoneIdx) -> String,
) -> String {
    let target = action.target.map(unit_name);
    let mut text = declared_words(action.kind, target.as_deref(), spells, inventory);
    if let Some(zone) = action.move_to {
        text = format!("{text}, moving to {}", zone_name(zone));
    }
    if let Some(zone) = action.move_after {
        text = format!("{text}, then moving on to {}", zone_name(zone));
    }
    text
}

/// A declared action in words, naming the spell or item it uses and its target by `target`
/// (a display name): `cast frost ray on Wren`, `throw javelin at Hobgoblin Warrior`,
/// `attack Varro`.
pub fn declared_words(kind: ActionKind, target: Option<&str>, spells: &Spells, inventory: &Inventory) -> String {
    let spell = |at: usize| spells.0.get(at).map_or_else(|| "a spell".to_string(), |(name, _)| catalog_words(name));
    let item =
        |at: usize| inventory.0.get(at).map_or_else(|| "an item".to_string(), |stack| catalog_words(&stack.name));
    let (text, preposition) = match kind {
        ActionKind::Cast(at) => (format!("cast {}", spell(at)), " on "),
        ActionKind::UseItem(at) => (format!("use {}", item(at)), " on "),
        ActionKind::Throw(at) => (format!("throw {}", item(at)), " at "),
        ActionKind::Aimed(aim) => (format!("aimed attack ({})", aim_words(aim)), " "),
        other => (catalog_words(other.log_name()), " "),
    };
    match target {
        Some(target) => format!("{text}{preposition}{target}"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use bevy::prelude::*;

    use super::*;
    use crate::headless::HeadlessBattle;
    use crate::levels::{BattleSetup, load_builtin_level};
    use crate::rules::components::UnitId;

    /// A unit's id, loadout, spells and inventory.
    type Gear = (Arc<str>, Loadout, Spells, Inventory);

    /// The gear of each unit of the ambush, and its ruleset.
    fn ambush_gear() -> (Vec<Gear>, Ruleset) {
        let template =
            load_builtin_level("ambush.ron", &crate::levels::mods::ModSet::default()).expect("the ambush loads");
        let mut battle = HeadlessBattle::new();
        battle.start(&template, &BattleSetup { seed: 7, controllers: Vec::new(), record_log: false });
        let world = battle.world_mut();
        let mut units = world.query::<(&UnitId, &Loadout, &Spells, &Inventory)>();
        let gear = units
            .iter(world)
            .map(|(id, loadout, spells, inventory)| (id.0.clone(), loadout.clone(), spells.clone(), inventory.clone()))
            .collect();
        (gear, template.ruleset.clone())
    }

    fn of<'a>(
        gear: &'a [(Arc<str>, Loadout, Spells, Inventory)],
        id: &str,
    ) -> &'a (Arc<str>, Loadout, Spells, Inventory) {
        gear.iter().find(|(unit, ..)| &**unit == id).unwrap_or_else(|| panic!("no unit {id}"))
    }

    #[test]
    fn the_shield_line_shows_only_where_the_ruleset_has_shock() {
        let (gear, ruleset) = ambush_gear();
        let (_, loadout, ..) = of(&gear, "fighter");
        assert!(loadout.shield, "Sir Aldous carries chain and shield");
        assert!(!ruleset.attack.shock, "stress_and_wounds has no Shock");
        let lines = gear_lines(loadout, &ruleset);
        assert!(lines.iter().all(|line| !line.contains("Shock")), "{lines:?}");
        assert!(lines.contains(&"Armour: chain and shield".to_string()), "{lines:?}");
        let mut with_shock = ruleset;
        with_shock.attack.shock = true;
        assert!(gear_lines(loadout, &with_shock).contains(&"Shield: turns the first Shock each round".to_string()));
    }

    #[test]
    fn cards_read_catalog_keys_as_words() {
        let (gear, _) = ambush_gear();
        let (_, _, spells, inventory) = of(&gear, "mage");
        let spells: Vec<String> = spells.0.iter().map(|(name, spell)| spell_line(name, spell)).collect();
        let items: Vec<String> = inventory.0.iter().map(item_line).collect();
        assert!(spells.iter().any(|line| line.starts_with("frost ray (TN ")), "{spells:?}");
        assert!(items.contains(&"healing draught ×1".to_string()), "{items:?}");
        assert!(spells.iter().chain(&items).all(|line| !line.contains('_')), "{spells:?} {items:?}");
    }

    #[test]
    fn a_declaration_names_its_spell_or_item_and_its_target() {
        let (gear, _) = ambush_gear();
        let (_, _, spells, inventory) = of(&gear, "mage");
        let frost = spells.0.iter().position(|(name, _)| &**name == "frost_ray").expect("the mage knows frost ray");
        let cast = declared_words(ActionKind::Cast(frost), Some("Wren"), spells, inventory);
        assert_eq!(cast, "cast frost ray on Wren");
        let (_, _, spells, inventory) = of(&gear, "rogue");
        let knife = inventory.0.iter().position(|stack| &*stack.name == "throwing_knife").expect("Wren has knives");
        let throw = declared_words(ActionKind::Throw(knife), Some("Hobgoblin Warrior"), spells, inventory);
        assert_eq!(throw, "throw throwing knife at Hobgoblin Warrior");
        let draught = inventory.0.iter().position(|stack| &*stack.name == "healing_draught").expect("a draught");
        assert_eq!(declared_words(ActionKind::UseItem(draught), None, spells, inventory), "use healing draught");
        assert_eq!(declared_words(ActionKind::FullDefense, None, spells, inventory), "full defense");
        assert_eq!(declared_words(ActionKind::Attack, Some("Varro"), spells, inventory), "attack Varro");
    }
}
