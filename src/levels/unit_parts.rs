//! One placed unit resolved against the catalog and the ruleset, part by part (gear, spells,
//! items, numbers, pools), into the [`UnitTemplate`] a battle spawns from.

use std::sync::Arc;

use super::catalog::Catalog;
use super::error::not_found;
use super::icons::weapon_icon;
use super::schema::{CreatureFile, SideFile, UnitFile};
use super::template::UnitTemplate;
use crate::battlefield::ZoneIdx;
use crate::rules::components::*;
use crate::rules::damage::maximum_stress;
use crate::rules::dice::Dice;
use crate::rules::equipment::{ArmourPiece, Attribute, DamageType, Weapon};
use crate::rules::ruleset::{Pools, Ruleset};

/// Highest attribute score a level may give (scores below 0 make no sense).
const MAX_SCORE: i32 = 1000;
/// Largest flat bonus (Defense, Wound Points, Mana) in either direction.
const MAX_BONUS: i32 = 10_000;
/// Most dice and sides a Hit Dice expression may have before Stress is absurd.
const MAX_HIT_DICE: u32 = 100;

/// The first problem with a unit's gear or numbers: the field and value to point at, and what
/// is wrong (the caller names the unit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct UnitProblem {
    /// The key the problem is written under.
    pub field: &'static str,
    /// The value written there (empty when the problem is a number, not a name).
    pub value: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl UnitProblem {
    fn new(field: &'static str, value: impl Into<String>, message: String) -> Self {
        Self { field, value: value.into(), message }
    }
}

type UnitResult<T> = Result<T, UnitProblem>;

/// A unit as the level places it, with what it is built from; the unit's own fields win over
/// its creature's.
pub(super) struct UnitSource<'a> {
    /// The unit in the level.
    pub unit: &'a UnitFile,
    /// Its catalog creature.
    pub creature: &'a CreatureFile,
    /// Its side in the level.
    pub side_file: &'a SideFile,
    /// The catalog, with the level's own entries merged in.
    pub catalog: &'a Catalog,
    /// The ruleset.
    pub ruleset: &'a Ruleset,
}

impl UnitSource<'_> {
    /// Its Speed: the level's, else the ruleset's, else the creature's, never above the
    /// ruleset's `max_speed` (`Z-TURN-1`).
    fn speed(&self) -> u32 {
        let speed = self.unit.speed.or(self.ruleset.movement.speed).unwrap_or(self.creature.speed);
        self.ruleset.movement.max_speed.map_or(speed, |max| speed.min(max))
    }

    /// The unit's template, or the first problem with its gear or numbers.
    pub fn template(&self, side: usize, zone: ZoneIdx, summoned_by: Option<(usize, bool)>) -> UnitResult<UnitTemplate> {
        let (unit, creature) = (self.unit, self.creature);
        let (loadout, armour) = self.loadout()?;
        let spells = self.spells()?;
        let inventory = self.inventory()?;
        let hit_dice = self.hit_dice()?;
        let attributes = self.attributes()?;
        self.check_bonuses()?;
        let (stress, wounds) = self.pools(hit_dice, &attributes);
        let (defense, armour) = self.protection(&armour);
        let icon = Arc::from(self.icon(&loadout));
        Ok(UnitTemplate {
            id: unit.id.as_str().into(),
            name: unit.name.clone().unwrap_or_else(|| creature.name.clone()),
            side,
            zone,
            surprised: unit.surprised.unwrap_or(self.side_file.surprised),
            initiative_group: unit.initiative_group.as_deref().map(Arc::from),
            arrives: unit
                .arrives
                .map(|arrival| Reinforcement { round: arrival.round, at_initiative: arrival.at_initiative }),
            checks_morale: self.side_file.checks_morale || creature.checks_morale,
            initiated: unit.initiated,
            level: Level(creature.level.max(1)),
            class: creature.class.as_deref().map(Arc::from),
            surprise_shift: unit.surprise_shift.unwrap_or(creature.surprise_shift),
            summoning_slots: creature.level.max(1),
            summoned_by,
            attributes,
            hit_dice: HitDice(Dice { modifier: 0, ..hit_dice }),
            stress,
            wounds,
            defense,
            armour,
            speed: Speed(self.speed()),
            loadout,
            skills: self.skills(),
            size: self.creature.size,
            mana: Mana { current: creature.mana, max: creature.mana },
            spells,
            inventory,
            icon,
        })
    }

    /// Weapons in hand, fists and worn armour; the armour piece is returned for the numbers it adds.
    fn loadout(&self) -> UnitResult<(Loadout, ArmourPiece)> {
        let (unit, creature) = (self.unit, self.creature);
        let weapon_name = unit.weapon.clone().unwrap_or_else(|| creature.weapon.clone());
        let weapon = self.weapon(&weapon_name)?;
        let offhand = match unit.offhand.clone().or_else(|| creature.offhand.clone()) {
            Some(name) => Some((Arc::from(name.as_str()), self.weapon(&name)?)),
            None => None,
        };
        let unarmed = self.catalog.weapons.get("unarmed").cloned().unwrap_or_else(fallback_unarmed);
        let armour_name = unit.armour.clone().or_else(|| creature.armour.clone());
        let armour = self.armour(armour_name.as_deref())?;
        let loadout = Loadout {
            weapon_name: weapon_name.as_str().into(),
            weapon,
            offhand,
            unarmed,
            armour_name: armour_name.as_deref().map(Arc::from),
            shield: armour.shield,
            sneak_dice: 0,
            focus_dice: 0,
            battle_caster: false,
            maneuverer: false,
        };
        Ok((loadout, armour))
    }

    fn weapon(&self, name: &str) -> UnitResult<Weapon> {
        self.catalog.weapons.get(name).cloned().ok_or_else(|| {
            let known: Vec<&str> = self.catalog.weapons.keys().map(String::as_str).collect();
            UnitProblem::new("weapon", name, not_found("weapon", name, &known))
        })
    }

    /// The armour piece called `name`; no armour adds nothing.
    fn armour(&self, name: Option<&str>) -> UnitResult<ArmourPiece> {
        let Some(name) = name else { return Ok(ArmourPiece::default()) };
        self.catalog.armour.get(name).cloned().ok_or_else(|| {
            let known: Vec<&str> = self.catalog.armour.keys().map(String::as_str).collect();
            UnitProblem::new("armour", name, not_found("armour", name, &known))
        })
    }

    fn spells(&self) -> UnitResult<Spells> {
        let names = self.unit.spells.as_ref().unwrap_or(&self.creature.spells);
        let known: Vec<&str> = self.catalog.spells.keys().map(String::as_str).collect();
        let spells = names
            .iter()
            .map(|name| match self.catalog.spells.get(name) {
                Some(spell) => Ok((Arc::from(name.as_str()), spell.clone())),
                None => Err(UnitProblem::new("spells", name, not_found("spell", name, &known))),
            })
            .collect::<UnitResult<Vec<_>>>()?;
        Ok(Spells(spells))
    }

    fn inventory(&self) -> UnitResult<Inventory> {
        let carried = self.unit.items.as_ref().unwrap_or(&self.creature.items);
        let known: Vec<&str> = self.catalog.items.keys().map(String::as_str).collect();
        let stacks = carried
            .iter()
            .map(|(name, count)| match self.catalog.items.get(name) {
                Some(item) => Ok(ItemStack { name: Arc::from(name.as_str()), item: item.clone(), count: *count }),
                None => Err(UnitProblem::new("items", name, not_found("item", name, &known))),
            })
            .collect::<UnitResult<Vec<_>>>()?;
        Ok(Inventory(stacks))
    }

    /// The Hit Dice with their modifier (which adds to Stress, not to each die).
    fn hit_dice(&self) -> UnitResult<Dice> {
        let hit_dice = self.unit.hd.unwrap_or(self.creature.hd);
        if hit_dice.count > MAX_HIT_DICE {
            let message = format!("Hit Dice {hit_dice} are more than {MAX_HIT_DICE} dice");
            return Err(UnitProblem::new("hd", hit_dice.to_string(), message));
        }
        Ok(hit_dice)
    }

    fn attributes(&self) -> UnitResult<Attributes> {
        let scores = self.unit.attributes.unwrap_or(self.creature.attributes).scores();
        if let Some(score) = scores.iter().find(|score| !(0..=MAX_SCORE).contains(*score)) {
            let message = format!("attribute score {score} is out of range; expected 0 to {MAX_SCORE}");
            return Err(UnitProblem::new("attributes", "", message));
        }
        Ok(Attributes(scores))
    }

    /// The creature's flat Defense, Wound Point and Mana bonuses are in range.
    fn check_bonuses(&self) -> UnitResult<()> {
        let creature = self.creature;
        let numbers = [creature.defense, creature.wounds_bonus, creature.mana];
        match numbers.iter().find(|number| number.unsigned_abs() > MAX_BONUS as u32) {
            Some(number) => Err(UnitProblem::new(
                "defense",
                "",
                format!(
                    "{number} is out of range for a defense, wounds or mana bonus; expected -{MAX_BONUS} to {MAX_BONUS}"
                ),
            )),
            None => Ok(()),
        }
    }

    /// Stress and Wound Points, full.
    fn pools(&self, hit_dice: Dice, attributes: &Attributes) -> (Stress, Wounds) {
        let ruleset = self.ruleset;
        let strength = attributes.score(Attribute::Strength);
        let strength_modifier = ruleset.attributes.modifier(strength);
        let stress_max = maximum_stress(ruleset, Dice { modifier: 0, ..hit_dice }, strength_modifier)
            .saturating_add(hit_dice.modifier);
        // One hit-point pool: the Hit Dice give it, as they give Stress in seed 000.
        let (stress_max, wounds_max) = match ruleset.damage.pools {
            Pools::StressAndWounds => (stress_max, strength.saturating_add(self.creature.wounds_bonus)),
            Pools::HitPoints => (0, stress_max.max(1).saturating_add(self.creature.wounds_bonus)),
        };
        let stress = Stress { current: stress_max.max(0), max: stress_max.max(0) };
        (stress, Wounds { current: wounds_max, max: wounds_max, injuries: Vec::new() })
    }

    /// Defense and Armour: an Armour Class ruleset counts armour toward Defense instead of
    /// soaking damage; one whose Defense is Agility alone (`A-HIT-1`) counts no gear there.
    fn protection(&self, armour: &ArmourPiece) -> (Defense, Armour) {
        let as_defense = self.ruleset.attack.armour_is_defense;
        let counted = if as_defense { armour.armour } else { 0 };
        let gear = self.creature.defense.saturating_add(armour.defense).saturating_add(counted);
        let bonus = if self.ruleset.attack.agility_defense_only { 0 } else { gear };
        (Defense { bonus }, Armour(if as_defense { 0 } else { armour.armour }))
    }

    /// The token picture: the unit's, else the creature's, else its main weapon's kind.
    fn icon(&self, loadout: &Loadout) -> &str {
        let chosen = self.unit.icon.as_deref().or(self.creature.icon.as_deref());
        chosen.unwrap_or_else(|| weapon_icon(&loadout.weapon_name, &loadout.weapon))
    }

    fn skills(&self) -> Skills {
        let skills = self.unit.skills.unwrap_or(self.creature.skills);
        let hit_dice = self.unit.hd.unwrap_or(self.creature.hd).count;
        Skills {
            attack: skills.attack,
            heal: skills.heal,
            intimidation: skills.intimidation,
            spellcasting: skills.spellcasting,
            brawl: skills.brawl,
            stab: skills.stab,
            exert: skills.exert,
            shoot: skills.shoot,
            npc_attack: skills.npc.map(|training| (hit_dice as i32).saturating_add(training)),
        }
    }
}

/// Fists, for catalogs that define no `unarmed` weapon.
fn fallback_unarmed() -> Weapon {
    Weapon {
        damage: Dice::new(1, 3),
        damage_type: DamageType::Blunt,
        speed: 0,
        critical_multiplier: 2,
        critical_natural: None,
        reach: 0,
        range: None,
        attack_bonus: 0,
        shock: None,
        ongoing: None,
        hinders: None,
        attributes: Vec::new(),
        two_handed: false,
        non_lethal: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::catalog::AssetSource;
    use crate::rules::ruleset::DEFAULT_RULESET;

    /// A unit of `creature` with the level-file overrides written in `fields` (RON, without
    /// the parentheses), on a plain side.
    fn unit(creature: &str, fields: &str) -> UnitFile {
        let text = format!("(id: \"u\", creature: \"{creature}\", side: \"s\", zone: \"z\", {fields})");
        ron::from_str(&text).unwrap_or_else(|error| panic!("test unit does not parse: {error}\n{text}"))
    }

    fn side() -> SideFile {
        ron::from_str("(name: \"s\", checks_morale: true)").expect("test side parses")
    }

    fn ruleset(name: &str) -> Ruleset {
        AssetSource::default().ruleset(name, std::path::Path::new("")).expect("a shipped ruleset").0
    }

    /// The template of `unit` under `ruleset`, or its first problem.
    fn build(unit: &UnitFile, ruleset: &Ruleset) -> UnitResult<UnitTemplate> {
        let catalog = Catalog::builtin().expect("the built-in catalog loads");
        let creature = catalog.creatures.get(&unit.creature).expect("a catalog creature").clone();
        let side = side();
        let source = UnitSource { unit, creature: &creature, side_file: &side, catalog: &catalog, ruleset };
        source.template(1, 2, None)
    }

    fn problem(fields: &str) -> UnitProblem {
        build(&unit("bandit_captain", fields), &ruleset(DEFAULT_RULESET)).expect_err("the unit should not build")
    }

    #[test]
    fn a_catalog_creature_builds_with_its_gear() {
        let template = build(&unit("bandit_captain", ""), &ruleset(DEFAULT_RULESET)).expect("builds");
        assert_eq!((template.side, template.zone), (1, 2));
        assert_eq!(&*template.loadout.weapon_name, "longsword");
        assert!(template.checks_morale, "the side checks morale");
        assert!(template.stress.max > 0 && template.stress.current == template.stress.max);
    }

    #[test]
    fn unit_overrides_win_over_the_creature() {
        let fields = "weapon: Some(\"spear\"), name: Some(\"Spearman\"), speed: Some(4), hd: Some(\"1d4\")";
        let template = build(&unit("bandit_captain", fields), &ruleset(DEFAULT_RULESET)).expect("builds");
        assert_eq!(&*template.loadout.weapon_name, "spear");
        assert_eq!(template.name, "Spearman");
        assert_eq!(template.speed.0, 4);
        assert_eq!(template.hit_dice.0, Dice::new(1, 4));
    }

    #[test]
    fn reports_an_unknown_weapon_with_a_suggestion() {
        let expected = "weapon \"longsord\" not found; did you mean \"longsword\"?";
        assert_eq!(problem("weapon: Some(\"longsord\")"), UnitProblem::new("weapon", "longsord", expected.into()));
    }

    #[test]
    fn reports_an_unknown_offhand_and_armour() {
        assert_eq!(problem("offhand: Some(\"daggr\")").message, "weapon \"daggr\" not found; did you mean \"dagger\"?");
        let armour = problem("armour: Some(\"chainmale\")");
        assert_eq!((armour.field, armour.value.as_str()), ("armour", "chainmale"));
        assert!(armour.message.starts_with("armour \"chainmale\" not found"), "{}", armour.message);
    }

    #[test]
    fn reports_unknown_spells_and_items() {
        let spell = problem("spells: Some([\"no_such_spell\"])");
        assert_eq!((spell.field, spell.value.as_str()), ("spells", "no_such_spell"));
        // The shipped catalog knows more than twelve spells: too many to list.
        assert_eq!(spell.message, "spell \"no_such_spell\" not found");
        let item = problem("items: Some([(\"no_such_item\", 1)])");
        assert_eq!((item.field, item.value.as_str()), ("items", "no_such_item"));
        assert!(item.message.starts_with("item \"no_such_item\" not found; expected one of: "), "{}", item.message);
    }

    #[test]
    fn reports_too_many_hit_dice() {
        let expected = UnitProblem::new("hd", "101d8", "Hit Dice 101d8 are more than 100 dice".into());
        assert_eq!(problem("hd: Some(\"101d8\")"), expected);
    }

    #[test]
    fn reports_an_attribute_out_of_range() {
        let expected = "attribute score 1001 is out of range; expected 0 to 1000";
        assert_eq!(problem("attributes: Some((strength: 1001))"), UnitProblem::new("attributes", "", expected.into()));
    }

    #[test]
    fn reports_the_first_problem_only() {
        assert_eq!(problem("weapon: Some(\"nothing\"), hd: Some(\"101d8\")").field, "weapon");
    }

    #[test]
    fn armour_counts_toward_defense_under_an_armour_class_ruleset() {
        let mut armour_class = ruleset(DEFAULT_RULESET);
        armour_class.attack.armour_is_defense = true;
        let soaking = build(&unit("bandit_captain", ""), &ruleset(DEFAULT_RULESET)).expect("builds");
        let counted = build(&unit("bandit_captain", ""), &armour_class).expect("builds");
        assert!(soaking.armour.0 > 0, "the captain wears armour");
        assert_eq!(counted.armour.0, 0);
        assert_eq!(counted.defense.bonus, soaking.defense.bonus + soaking.armour.0);
    }

    #[test]
    fn fists_are_the_fallback_unarmed_weapon() {
        assert_eq!(fallback_unarmed().damage, Dice::new(1, 3));
    }
}
