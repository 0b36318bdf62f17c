//! Attack odds (`W-HIT-1`): the bonuses, damage dice and exact chances of one attack.

use crate::battlefield::Cover;
use crate::rules::dice::Dice;
use crate::rules::equipment::{Attribute, Weapon};
use crate::rules::ruleset::{AttackStyle, Ruleset};
use crate::rules::unit::{self, UnitView};

/// Chances and damage of one attack, computed exactly from the dice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackOdds {
    /// Chance to hit, 0 to 1.
    pub hit: f64,
    /// Chance of a critical, 0 to 1.
    pub critical: f64,
    /// Least damage on a hit, after Armour.
    pub damage_min: i32,
    /// Most damage on a critical hit, after Armour.
    pub damage_max: i32,
    /// Expected damage per attack, hits and criticals weighed.
    pub expected: f64,
}

/// The attack skill and the weapon's bonus, less the attacker's accuracy penalties: the whole
/// attack bonus unless the ruleset adds more ([`roll_bonus`]).
pub fn attack_bonus(attacker: &UnitView, weapon: &Weapon) -> i32 {
    attacker.body.skills.attack + weapon.attack_bonus
        - attacker.round.conditions.accuracy_penalty
        - attacker.round.conditions.round_accuracy_penalty
}

/// The attack roll's total bonus for `attacker` with `weapon` under `ruleset` (`S-ATK-1`): the
/// attack skill and the weapon's bonus, plus the attribute modifier and combat skill the
/// ruleset adds; an NPC's Hit Dice and training where the ruleset reads them.
pub fn roll_bonus(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    let base = attack_bonus(attacker, weapon);
    let Some(parts) = ruleset.attack.attack_roll else {
        return base;
    };
    if let Some(npc) = attacker.body.skills.npc_attack.filter(|_| parts.npc_hit_dice) {
        return base - attacker.body.skills.attack + npc;
    }
    let attribute =
        if parts.attribute_modifier { attack_attribute_modifier(ruleset, attacker, weapon, thrown) } else { 0 };
    let skill = if parts.combat_skill { combat_skill(attacker, weapon, thrown) } else { 0 };
    base + attribute + skill
}

/// The attribute modifier an attack with `weapon` adds (`S-ATK-1`): the best of the weapon's own
/// `attributes`; otherwise Strength for melee and bare hands, Dexterity for missiles, the
/// better of the two for a throw.
fn attack_attribute_modifier(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    // A weakening wound lowers the Strength modifier (`A-AIM-1`), as it does for damage.
    let modifier = |attribute: Attribute| {
        let penalty = if attribute == Attribute::Strength { attacker.round.conditions.strength_penalty } else { 0 };
        unit::modifier(ruleset, attacker.body.attributes, attribute) - penalty
    };
    let choices: &[Attribute] = if !weapon.attributes.is_empty() {
        &weapon.attributes
    } else if thrown {
        &[Attribute::Strength, Attribute::Dexterity]
    } else if weapon.is_ranged() {
        &[Attribute::Dexterity]
    } else {
        &[Attribute::Strength]
    };
    choices.iter().map(|&attribute| modifier(attribute)).max().unwrap_or(0)
}

/// The combat skill an attack with `weapon` adds (`S-ATK-1`): Brawl bare-handed, Shoot for
/// missiles and throws, Stab otherwise.
fn combat_skill(attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    if thrown || weapon.is_ranged() {
        attacker.body.skills.shoot
    } else if *weapon == attacker.arms.loadout.unarmed {
        attacker.body.skills.brawl
    } else {
        attacker.body.skills.stab
    }
}

/// What the attacker of a shove or grapple takes off its check for the target's size (`S-MAN-1`).
pub fn size_penalty(rules: &crate::rules::ruleset::ManeuverRules, attacker: &UnitView, target: &UnitView) -> i32 {
    match attacker.body.size.steps_below(*target.body.size) {
        0 => 0,
        1 => rules.larger_target_penalty,
        _ => rules.much_larger_target_penalty,
    }
}

/// The unit's level in the skill for melee weapons, as the dual-wielding requirement reads it
/// (`S-DUAL-1`): Stab where the ruleset adds combat skills, an NPC's attack bonus (its Hit Dice
/// and training, which stand in for skill levels it does not have) where it reads those, and
/// otherwise the attack skill, which holds the whole bonus.
pub fn weapon_skill(ruleset: &Ruleset, unit: &UnitView) -> i32 {
    let Some(parts) = ruleset.attack.attack_roll else {
        return unit.body.skills.attack;
    };
    match unit.body.skills.npc_attack.filter(|_| parts.npc_hit_dice) {
        Some(npc) => npc,
        None if parts.combat_skill => unit.body.skills.stab,
        None => unit.body.skills.attack,
    }
}

/// Whether `unit` is trained to fight with two weapons where the ruleset asks for it (`S-DUAL-1`).
pub fn may_dual_wield(ruleset: &Ruleset, unit: &UnitView) -> bool {
    match ruleset.attack.dual_wield {
        crate::rules::ruleset::DualWield::Bonus { min_skill, .. } => weapon_skill(ruleset, unit) >= min_skill,
        _ => true,
    }
}

/// The damage dice of `weapon` for `attacker`: its attribute bonus ([`damage_attribute_bonus`]),
/// a magic weapon's bonus ([`magic_damage_bonus`]) and, for bare hands, Brawl ([`brawl_bonus`]).
pub fn damage_dice(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> Dice {
    weapon.damage.plus(
        damage_attribute_bonus(ruleset, attacker, weapon, thrown)
            + magic_damage_bonus(ruleset, weapon)
            + brawl_bonus(ruleset, attacker, weapon, thrown),
    )
}

/// What `weapon`'s own `attack_bonus` (a magic weapon's) adds to its damage and its Shock, where
/// the ruleset says so (`S-ATK-1`, `S-SHOCK-1`: "a magic weapon's bonus"); else nothing.
pub fn magic_damage_bonus(ruleset: &Ruleset, weapon: &Weapon) -> i32 {
    if ruleset.damage.weapon_bonus_to_damage { weapon.attack_bonus } else { 0 }
}

/// The attribute modifier added to the damage of `weapon` (and to its Shock, `S-SHOCK-1`): the
/// best of the weapon's own attributes where the ruleset reads them (`S-DMG-1`); otherwise
/// Strength for melee and thrown damage when the ruleset says so, never for missiles a bow or
/// sling throws for you.
pub fn damage_attribute_bonus(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    // A weakening wound lowers the Strength modifier (`A-AIM-1`).
    let modifier = |attribute: Attribute| {
        let penalty = if attribute == Attribute::Strength { attacker.round.conditions.strength_penalty } else { 0 };
        unit::modifier(ruleset, attacker.body.attributes, attribute) - penalty
    };
    if ruleset.damage.weapon_attributes && !weapon.attributes.is_empty() {
        return weapon.attributes.iter().map(|&attribute| modifier(attribute)).max().unwrap_or(0);
    }
    if ruleset.damage.strength_to_damage && (thrown || !weapon.is_ranged()) { modifier(Attribute::Strength) } else { 0 }
}

/// The Brawl skill added to a purely unarmed blow where the ruleset says so (`S-DMG-1`).
pub fn brawl_bonus(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    let bare_hands = !thrown && *weapon == attacker.arms.loadout.unarmed;
    if ruleset.damage.unarmed_skill_to_damage && bare_hands { attacker.body.skills.brawl } else { 0 }
}

/// The natural roll from which `weapon` scores a critical: its own range, or the ruleset's. A
/// ruleset whose critical natural lies beyond the die has no criticals at all, whatever the weapon.
pub fn critical_natural(ruleset: &Ruleset, weapon: &Weapon) -> u32 {
    if ruleset.attack.critical_natural > ruleset.attack.die.sides {
        return u32::MAX;
    }
    weapon.critical_natural.unwrap_or(ruleset.attack.critical_natural)
}

/// Odds of `attacker` striking `target` with its usable weapon now.
pub fn attack_odds(ruleset: &Ruleset, attacker: &UnitView, target: &UnitView) -> AttackOdds {
    attack_odds_in_cover(ruleset, attacker, target, Cover::None)
}

/// [`attack_odds`] for a ranged attack at a target in `cover`, whose penalty to hit
/// ([`cover_penalty`]) the odds count.
pub fn attack_odds_in_cover(ruleset: &Ruleset, attacker: &UnitView, target: &UnitView, cover: Cover) -> AttackOdds {
    let defense = match &ruleset.attack.style {
        AttackStyle::VsDefense => {
            unit::defense_score(ruleset, target.body.attributes, target.arms.defense, target.round.conditions)
        }
        AttackStyle::Test { tn, .. } => *tn,
    };
    let mut attacker = AttackerOdds::of(ruleset, attacker);
    attacker.bonus -= cover_penalty(ruleset, cover);
    attacker.against(ruleset, defense, target.arms.armour.0)
}

/// What `cover` takes from a ranged attack's roll to hit (`S-COVER-1`).
pub fn cover_penalty(ruleset: &Ruleset, cover: Cover) -> i32 {
    match cover {
        Cover::None => 0,
        Cover::Half => ruleset.attack.half_cover_penalty,
        Cover::Full => ruleset.attack.full_cover_penalty,
    }
}

/// The attacker's half of [`attack_odds`]: its usable weapon, damage dice and roll bonus, which
/// do not depend on the target. A unit weighing many targets works them out once.
#[derive(Clone, Copy)]
pub struct AttackerOdds<'a> {
    weapon: &'a Weapon,
    dice: Dice,
    bonus: i32,
}

impl<'a> AttackerOdds<'a> {
    /// `attacker`'s half of the odds under `ruleset`.
    pub fn of(ruleset: &Ruleset, attacker: &'a UnitView) -> Self {
        let weapon = attacker.arms.loadout.usable_weapon(attacker.round.conditions).1;
        let dice = damage_dice(ruleset, attacker, weapon, false);
        let bonus = match &ruleset.attack.style {
            AttackStyle::VsDefense => roll_bonus(ruleset, attacker, weapon, false),
            AttackStyle::Test { melee, ranged, .. } => {
                // Avoid tests mirror the attack test closely enough for planning; the roll is the target's.
                let attribute = if weapon.is_ranged() { *ranged } else { *melee };
                attack_bonus(attacker, weapon) + unit::modifier(ruleset, attacker.body.attributes, attribute)
            }
        };
        Self { weapon, dice, bonus }
    }

    /// The odds against a target of `armour` whose Defense is `defense` ([`unit::defense_score`]);
    /// where the ruleset's attack is a test, its number stands in for the Defense.
    pub fn against(&self, ruleset: &Ruleset, defense: i32, armour: i32) -> AttackOdds {
        // The test's number stands in for the Defense: the target's own is not read.
        let defense = match &ruleset.attack.style {
            AttackStyle::VsDefense => defense,
            AttackStyle::Test { tn, .. } => *tn,
        };
        odds_against(ruleset, self.bonus, self.weapon, self.dice, defense, armour)
    }
}

/// Odds of an attack with `bonus` and `weapon` (damage `dice`) against `defense` and `armour`.
pub fn odds_against(
    ruleset: &Ruleset,
    bonus: i32,
    weapon: &Weapon,
    dice: Dice,
    defense: i32,
    armour: i32,
) -> AttackOdds {
    // Counted in closed form: the naturals that hit are an upper range of the die, and so are
    // the criticals among them.
    let sides = ruleset.attack.die.sides.max(1) as i64;
    let critical_at = (critical_natural(ruleset, weapon) as i64).min(i64::from(u32::MAX));
    let lowest_allowed = ruleset.attack.fumble_natural as i64 + 1;
    let needed = defense as i64 - ruleset.attack.die.modifier as i64 - bonus as i64;
    let lowest_hit = if ruleset.attack.critical_always_hits { needed.min(critical_at) } else { needed };
    let count_from = |lowest: i64| (sides - lowest.max(lowest_allowed).max(1) + 1).clamp(0, sides);
    let hits = count_from(lowest_hit);
    let crits = count_from(if ruleset.attack.critical_always_hits { critical_at } else { critical_at.max(needed) });
    // Expected damage from the mean roll, rounded half up without the float round call.
    let mean = (dice.mean() + 0.5) as i32;
    let normal = crate::rules::damage::damage_after_armour(ruleset, mean, 1, armour);
    let critical = crate::rules::damage::damage_after_armour(ruleset, mean, weapon.critical_multiplier, armour);
    let hit = hits as f64 / sides as f64;
    let crit = crits as f64 / sides as f64;
    AttackOdds {
        hit,
        critical: crit,
        damage_min: crate::rules::damage::damage_after_armour(ruleset, dice.min(), 1, armour),
        // Without a critical to roll (a ruleset or a target that allows none), a hit's best is the best.
        damage_max: crate::rules::damage::damage_after_armour(
            ruleset,
            dice.max(),
            if crits > 0 { weapon.critical_multiplier } else { 1 },
            armour,
        ),
        expected: (hit - crit) * normal as f64 + crit * critical as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::equipment::DamageType;

    /// The odds by walking every face, to check the closed form against.
    fn counted(ruleset: &Ruleset, bonus: i32, critical_at: u32, defense: i32) -> (u32, u32) {
        let (mut hits, mut crits) = (0, 0);
        for natural in 1..=ruleset.attack.die.sides {
            let critical = natural >= critical_at;
            let total = natural as i32 + ruleset.attack.die.modifier + bonus;
            let hit = natural > ruleset.attack.fumble_natural
                && (total >= defense || (critical && ruleset.attack.critical_always_hits));
            if hit {
                hits += 1;
                crits += u32::from(critical);
            }
        }
        (hits, crits)
    }

    #[test]
    fn w_hit_1_closed_form_odds_match_every_face() {
        let mut ruleset = Ruleset::default();
        for always in [true, false] {
            ruleset.attack.critical_always_hits = always;
            for critical_at in [18, 19, 20, 21] {
                let weapon = Weapon {
                    damage: Dice::new(1, 8),
                    damage_type: DamageType::Slashing,
                    speed: 2,
                    critical_multiplier: 2,
                    critical_natural: Some(critical_at),
                    reach: 0,
                    range: None,
                    attack_bonus: 0,
                    shock: None,
                    ongoing: None,
                    hinders: None,
                    attributes: Vec::new(),
                    two_handed: false,
                    non_lethal: false,
                };
                for bonus in -5..=8 {
                    for defense in 0..=30 {
                        let odds = odds_against(&ruleset, bonus, &weapon, weapon.damage, defense, 0);
                        let (hits, crits) = counted(&ruleset, bonus, critical_at, defense);
                        assert_eq!(
                            (odds.hit * 20.0).round() as u32,
                            hits,
                            "hits: bonus {bonus} defense {defense} crit {critical_at} always {always}"
                        );
                        assert_eq!(
                            (odds.critical * 20.0).round() as u32,
                            crits,
                            "crits: bonus {bonus} defense {defense} crit {critical_at} always {always}"
                        );
                    }
                }
            }
        }
    }
}
