//! Unit icons as data: the names of the shipped game-icons.net pictures (`assets/icons/`), the
//! icon a unit shows when its creature names none, and the component that carries it.

use std::sync::Arc;

use bevy::prelude::*;

use super::error::{not_found, suggestion};
use crate::rules::equipment::{DamageType, Weapon};

/// Every icon Fray ships, as `assets/icons/<name>.png`. A level or catalog that names an icon
/// must name one of these; `xtask/icons.txt` renders them and the window game embeds them.
pub const ICON_NAMES: &[&str] = &[
    GENERIC_ICON,
    // Creatures.
    "lion",
    "lynx-head",
    "visored-helm",
    "hooded-assassin",
    "sun-priest",
    "wizard-face",
    "bandit",
    "bowman",
    "pirate-captain",
    "centurion-helmet",
    "woman-elf-face",
    "goblin-head",
    "goblin",
    "warlord-helmet",
    "witch-face",
    "ogre",
    "orc-head",
    "wolf-head",
    "direwolf",
    "skull-crossed-bones",
    "william-tell-skull",
    "shambling-zombie",
    // Weapon kinds.
    FIST,
    CLAWS,
    FANGS,
    CLUB,
    STAFF,
    DAGGER,
    SWORD,
    AXE,
    PICK,
    MACE,
    HAMMER,
    SPEAR,
    POLEARM,
    SLING,
    BOW,
    CROSSBOW,
    TORCH,
    NET,
];

/// The icon for anything with no better picture: a unit whose weapon is of no known kind, or a
/// name the window game cannot find.
pub const GENERIC_ICON: &str = "crossed-swords";

const FIST: &str = "fist";
const CLAWS: &str = "claw-slashes";
const FANGS: &str = "fangs";
const CLUB: &str = "wood-club";
const STAFF: &str = "wizard-staff";
const DAGGER: &str = "plain-dagger";
const SWORD: &str = "broadsword";
const AXE: &str = "battle-axe";
const PICK: &str = "war-pick";
const MACE: &str = "spiked-mace";
const HAMMER: &str = "warhammer";
const SPEAR: &str = "spear-hook";
const POLEARM: &str = "halberd";
const SLING: &str = "sling";
const BOW: &str = "pocket-bow";
const CROSSBOW: &str = "crossbow";
const TORCH: &str = "torch";
const NET: &str = "fishing-net";

/// Weapon kinds by a word in the weapon's catalog name, so a modder's `heavy_crossbow` or
/// `orc_cleaver` finds its picture without naming one. The first match wins, so a word comes
/// before the words it contains or is contained in: `crossbow` before `bow`, `pick` before the
/// `axe` of a pickaxe, the heads (`mace`, `club`, `axe`) before the `pike` of `spiked_mace`.
const KIND_WORDS: &[(&str, &str)] = &[
    ("crossbow", CROSSBOW),
    ("bow", BOW),
    ("sling", SLING),
    ("staff", STAFF),
    ("claw", CLAWS),
    ("talon", CLAWS),
    ("bite", FANGS),
    ("fang", FANGS),
    ("tusk", FANGS),
    ("unarmed", FIST),
    ("fist", FIST),
    ("dagger", DAGGER),
    ("knife", DAGGER),
    ("dirk", DAGGER),
    ("sword", SWORD),
    ("scimitar", SWORD),
    ("sabre", SWORD),
    ("saber", SWORD),
    ("cutlass", SWORD),
    ("falchion", SWORD),
    ("rapier", SWORD),
    ("pick", PICK),
    ("axe", AXE),
    ("cleaver", AXE),
    ("morningstar", MACE),
    ("mace", MACE),
    ("flail", MACE),
    ("hammer", HAMMER),
    ("maul", HAMMER),
    ("club", CLUB),
    ("cudgel", CLUB),
    ("sap", CLUB),
    ("halberd", POLEARM),
    ("glaive", POLEARM),
    ("spear", SPEAR),
    ("pike", SPEAR),
    ("lance", SPEAR),
    ("javelin", SPEAR),
    ("trident", SPEAR),
    ("torch", TORCH),
    ("net", NET),
];

/// Whether `name` is a shipped icon.
pub fn is_icon(name: &str) -> bool {
    ICON_NAMES.contains(&name)
}

/// `icon "name" not found; did you mean "best"?`, or where the shipped names are listed.
pub fn unknown_icon(name: &str) -> String {
    let message = not_found("icon", name, ICON_NAMES);
    if suggestion(name, ICON_NAMES.iter().copied()).is_some() {
        message
    } else {
        format!("{message}; expected the name of a picture in assets/icons/ or the mod's icons/ (without `.png`)")
    }
}

/// The icon of a weapon's kind: by a word in its catalog name (`longsword` → a sword), else by
/// what it does (a missile weapon → a bow, chopping → an axe), else [`GENERIC_ICON`].
pub fn weapon_icon(name: &str, weapon: &Weapon) -> &'static str {
    let name = name.to_lowercase();
    if let Some(&(_, icon)) = KIND_WORDS.iter().find(|(word, _)| name.contains(word)) {
        return icon;
    }
    if weapon.is_ranged() {
        return BOW;
    }
    match weapon.damage_type {
        DamageType::Blunt => MACE,
        DamageType::Slashing => SWORD,
        DamageType::Chopping => AXE,
        DamageType::Piercing if weapon.reach > 0 => SPEAR,
        DamageType::Piercing => DAGGER,
        DamageType::Fire => TORCH,
        _ => GENERIC_ICON,
    }
}

/// The picture a unit's token shows: a name from [`ICON_NAMES`]. Presentation only; the rules
/// never read it.
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Icon(pub Arc<str>);

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::levels::catalog::Catalog;

    fn listed(text: &str) -> BTreeSet<String> {
        text.lines()
            .map(|line| line.split('#').next().unwrap_or_default().trim())
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect()
    }

    fn shipped() -> BTreeSet<String> {
        ICON_NAMES.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn names_are_unique() {
        assert_eq!(shipped().len(), ICON_NAMES.len(), "an icon is listed twice in ICON_NAMES");
    }

    #[test]
    fn the_xtask_renders_exactly_the_shipped_icons() {
        let list = include_str!("../../xtask/icons.txt");
        assert_eq!(listed(list), shipped(), "xtask/icons.txt and ICON_NAMES disagree");
    }

    #[test]
    fn every_shipped_icon_has_its_png_and_no_other_png_is_shipped() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/icons");
        let pngs: BTreeSet<String> = std::fs::read_dir(&dir)
            .expect("assets/icons exists")
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".png").map(str::to_string))
            .collect();
        assert_eq!(pngs, shipped(), "assets/icons/*.png and ICON_NAMES disagree");
    }

    #[test]
    fn every_shipped_weapon_has_a_kind_and_every_creature_an_icon() {
        let catalog = Catalog::builtin().expect("the built-in catalog loads");
        for (name, weapon) in &catalog.weapons {
            let icon = weapon_icon(name, weapon);
            assert!(is_icon(icon), "weapon \"{name}\" maps to unshipped icon \"{icon}\"");
            assert_ne!(icon, GENERIC_ICON, "weapon \"{name}\" has no kind");
        }
        for (name, creature) in &catalog.creatures {
            assert!(creature.icon.as_deref().is_some_and(is_icon), "creature \"{name}\" names no shipped icon");
        }
    }

    #[test]
    fn units_show_their_own_icon_else_their_creatures_else_their_weapons() {
        let path = std::path::Path::new("duel.ron");
        let source = crate::levels::catalog::AssetSource::default();
        let icons = |text: &str| -> Vec<String> {
            let template = crate::levels::load_level_text(text, path, &source).expect("the level loads");
            let mut world = World::new();
            template.spawn(&mut world, &crate::levels::BattleSetup::default());
            let mut query = world.query::<(&crate::rules::components::SpawnOrder, &Icon)>();
            let mut spawned: Vec<_> = query.iter(&world).map(|(order, icon)| (order.0, icon.0.to_string())).collect();
            spawned.sort();
            let from_template: Vec<String> = template.units.iter().map(|unit| unit.icon.to_string()).collect();
            let from_world: Vec<String> = spawned.into_iter().map(|(_, icon)| icon).collect();
            assert_eq!(from_world, from_template, "every unit spawns with its template's icon");
            from_template
        };
        let duel = crate::levels::catalog::builtin::LEVELS
            .iter()
            .find(|(name, _)| *name == "duel.ron")
            .map(|(_, text)| *text)
            .expect("duel.ron is built in");
        assert_eq!(icons(duel), ["lion", "pirate-captain"]);
        let drifter = "creatures: {\"drifter\": (name: \"Drifter\", hd: \"1d8\", weapon: \"longbow\", speed: 2)},";
        let changed = duel
            .replacen("victory: [],", &format!("victory: [],\n    {drifter}"), 1)
            .replacen("creature: \"bandit_captain\"", "creature: \"drifter\"", 1)
            .replacen(
                "weapon: Some(\"spear\"),",
                "weapon: Some(\"spear\"),\n            icon: Some(\"wolf-head\"),",
                1,
            );
        assert_eq!(icons(&changed), ["wolf-head", BOW]);
    }

    #[test]
    fn unknown_icons_get_a_suggestion_or_a_pointer() {
        assert_eq!(unknown_icon("wolf-haed"), "icon \"wolf-haed\" not found; did you mean \"wolf-head\"?");
        assert!(
            unknown_icon("zeppelin")
                .ends_with("expected the name of a picture in assets/icons/ or the mod's icons/ (without `.png`)")
        );
    }

    #[test]
    fn kinds_come_from_the_name_then_the_numbers() {
        let catalog = Catalog::builtin().expect("the built-in catalog loads");
        let weapon = |name: &str| catalog.weapons[name].clone();
        assert_eq!(weapon_icon("longbow", &weapon("longbow")), BOW);
        assert_eq!(weapon_icon("heavy_crossbow", &weapon("crossbow")), CROSSBOW);
        assert_eq!(weapon_icon("war_pick", &weapon("war_pick")), PICK);
        assert_eq!(weapon_icon("Katana", &weapon("longsword")), SWORD);
        assert_eq!(weapon_icon("thunderstick", &weapon("shortbow")), BOW);
        assert_eq!(weapon_icon("bec_de_corbin", &weapon("pike")), SPEAR);
        assert_eq!(weapon_icon("stiletto", &weapon("dagger")), DAGGER);
        assert_eq!(weapon_icon("spiked_club", &weapon("pike")), CLUB);
        assert_eq!(weapon_icon("pickaxe", &weapon("greataxe")), PICK);
    }
}
