//! Checking catalog entries: creatures and gear a level or a mod defines.

use super::*;
use crate::rules::equipment::{Hindrance, Lingering};

/// Reports a problem: the field and value to point at, which occurrence, and the message.
pub(in crate::levels) type Invalid<'a> = dyn FnMut(&str, &str, usize, String) + 'a;

/// Catalog consistency: creatures refer to gear that exists; thrown items deal damage.
pub(in crate::levels) fn check_catalog(catalog: &Catalog, invalid: &mut Invalid) {
    check_catalog_entries(catalog, &mut |_kind: &str, _name: &str, field: &str, value: &str, nth: usize, message| {
        invalid(field, value, nth, message);
    });
}

/// Reports a problem with one catalog entry: its kind and name, then as [`Invalid`].
pub(super) type EntryInvalid<'a> = dyn FnMut(&'static str, &str, &str, &str, usize, String) + 'a;

/// [`check_catalog`], saying which entry each problem is in.
fn check_catalog_entries(catalog: &Catalog, invalid: &mut EntryInvalid) {
    for (name, creature) in &catalog.creatures {
        check_creature(catalog, name, creature, &mut |field: &str, value: &str, nth: usize, message: String| {
            invalid("creature", name, field, value, nth, message);
        });
    }
    let effects = catalog.spells.iter().map(|(name, spell)| ("spell", name, &spell.effect));
    for (kind, name, effect) in effects.chain(catalog.items.iter().map(|(name, item)| ("item", name, &item.effect))) {
        if let Effect::Conjure { creature, .. } = effect
            && !catalog.creatures.contains_key(creature)
        {
            let missing = not_found("creature", creature, &names(&catalog.creatures));
            invalid(kind, name, "creature", creature, 0, format!("{kind} \"{name}\" creates {missing}"));
        }
    }
    check_shake_offs(catalog, invalid);
    for (name, item) in &catalog.items {
        if item.thrown && !matches!(item.effect, Effect::Damage { .. }) {
            invalid(
                "item",
                name,
                "thrown",
                name,
                0,
                format!("item \"{name}\" is thrown but does not deal damage; expected `effect: Damage(...)`"),
            );
        }
    }
}

impl Catalog {
    /// Loads every catalog file with the mods' entries laid over them, and checks the mods'
    /// entries, collecting all errors.
    pub fn load(source: &crate::levels::catalog::AssetSource) -> Result<Self, LoadErrors> {
        let catalog = Catalog::read(source)?;
        let mut errors = Vec::new();
        check_mod_entries(&catalog, &mut errors);
        if errors.is_empty() { Ok(catalog) } else { Err(LoadErrors(errors)) }
    }
}

/// The catalog checks for entries that come from mods, reported in the mod's file and naming
/// the mod; problems in built-in entries are left to the level that uses them.
fn check_mod_entries(catalog: &Catalog, errors: &mut Vec<LoadError>) {
    check_catalog_entries(catalog, &mut |kind, name: &str, field: &str, value: &str, nth: usize, message| {
        let Some(Origin::Mod { id, path }) = catalog.origins.get(&(kind, name.to_string())) else {
            return;
        };
        let text = read_text(path).unwrap_or_default();
        let (line, column) = SourceMap::new(&text).locate(field, value, nth);
        errors.push(LoadError::Invalid { path: path.clone(), line, column, message: format!("mod `{id}`: {message}") });
    });
}

/// A creature's weapons, armour, spells, items and icon exist.
fn check_creature(catalog: &Catalog, name: &str, creature: &CreatureFile, invalid: &mut Invalid) {
    for weapon in std::iter::once(&creature.weapon).chain(creature.offhand.iter()) {
        if !catalog.weapons.contains_key(weapon) {
            let missing = not_found("weapon", weapon, &names(&catalog.weapons));
            invalid("weapon", weapon, 0, format!("creature \"{name}\": {missing}"));
        }
    }
    if let Some(armour) = &creature.armour
        && !catalog.armour.contains_key(armour)
    {
        let missing = not_found("armour", armour, &names(&catalog.armour));
        invalid("armour", armour, 0, format!("creature \"{name}\": {missing}"));
    }
    for spell in creature.spells.iter().filter(|spell| !catalog.spells.contains_key(*spell)) {
        let missing = not_found("spell", spell, &names(&catalog.spells));
        invalid("spells", spell, 0, format!("creature \"{name}\": {missing}"));
    }
    for (item, _) in creature.items.iter().filter(|(item, _)| !catalog.items.contains_key(item)) {
        let missing = not_found("item", item, &names(&catalog.items));
        invalid("items", item, 0, format!("creature \"{name}\": {missing}"));
    }
    if let Some(icon) = &creature.icon
        && !catalog.has_icon(icon)
    {
        invalid("icon", icon, 0, format!("creature \"{name}\": {}", unknown_icon(icon)));
    }
}

/// What a weapon, spell or item leaves behind: its ongoing damage and its hindrance.
type Leaves = (Option<Lingering>, Option<(Hindrance, Lingering)>);

/// `by: Action` only where an action can end the effect (`Z-HIND-1`): not on ongoing damage,
/// whose test comes at the end of each turn, and not on a hindrance that stops the unit acting.
fn check_shake_offs(catalog: &Catalog, invalid: &mut EntryInvalid) {
    let weapons = catalog.weapons.iter().map(|(name, weapon)| ("weapon", name, (weapon.ongoing, weapon.hinders)));
    let spells = catalog.spells.iter().map(|(name, spell)| ("spell", name, (spell.ongoing, spell.hinders)));
    let items = catalog.items.iter().map(|(name, item)| ("item", name, (item.ongoing, item.hinders)));
    for (kind, name, leaves) in weapons.chain(spells).chain(items) {
        if let Some(problem) = shake_off_problem(leaves) {
            invalid(kind, name, "by", name, 0, format!("{kind} \"{name}\" {problem}"));
        }
    }
}

/// Why an entry's `by: Action` can never be carried out, if it cannot.
fn shake_off_problem((ongoing, hinders): Leaves) -> Option<String> {
    if ongoing.is_some_and(|lingering| lingering.needs_action()) {
        return Some(
            "has `by: Action` on its ongoing damage, which is tested at the end of each turn; expected `by` left out of `ongoing` (only a hindrance may need an action)".into(),
        );
    }
    let (hindrance, _) = hinders.filter(|(_, lingering)| lingering.needs_action())?;
    match hindrance {
        Hindrance::Distracted | Hindrance::Paralysed => Some(format!(
            "leaves `{}` to be shaken off `by: Action`, but a {} unit cannot act, so it would never end; expected `by` left out, or a `stuck` or `weakened` hindrance",
            hindrance.log_name(),
            hindrance.log_name()
        )),
        Hindrance::Stuck | Hindrance::Weakened => None,
    }
}
