//! Weapons, armour, spells, consumables and injury tables: the data units carry into a fight.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::dice::Dice;
pub use crate::vocabulary::traits::{Attribute, DamageType, Hindrance};

/// A weapon's combat numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Damage dice.
    pub damage: Dice,
    /// Damage type, for armour-independent effects and the injury table.
    pub damage_type: DamageType,
    /// Weapon speed: the Initiative modifier of attacking with it.
    pub speed: i32,
    /// Critical multiplier (2, 3 or 4).
    #[serde(default = "default_multiplier")]
    pub critical_multiplier: i32,
    /// Natural roll at or above which it scores a critical; `None` uses the ruleset's.
    #[serde(default)]
    pub critical_natural: Option<u32>,
    /// Zones beyond its own that it reaches in melee (0: Close only).
    #[serde(default)]
    pub reach: u32,
    /// For missile weapons, the farthest distance band it shoots (1 Nearby, 2 Far-Away, 3 Distant).
    #[serde(default)]
    pub range: Option<u32>,
    /// Bonus to attack rolls.
    #[serde(default)]
    pub attack_bonus: i32,
    /// Shock (`S-SHOCK-1`): damage dealt even on a miss.
    #[serde(default)]
    pub shock: Option<Shock>,
    /// A hit leaves ongoing damage (`Z-ONGO-1`): burning, bleeding, poison.
    #[serde(default)]
    pub ongoing: Option<Lingering>,
    /// A hit leaves a hindrance (`Z-HIND-1`): a net, a stunning blow, glue.
    #[serde(default)]
    pub hinders: Option<(Hindrance, Lingering)>,
    /// The attributes its wielder may choose from for damage (`S-DMG-1`: STR or DEX for a
    /// dagger), read where the ruleset has `damage.weapon_attributes`; empty: the ruleset's rule.
    #[serde(default)]
    pub attributes: Vec<Attribute>,
    /// Needs both hands, as a bow or crossbow does: where the ruleset says so it cannot be fired
    /// with a foe in melee range at all (`S-ATK-2`).
    #[serde(default)]
    pub two_handed: bool,
    /// Fells without killing (a sap, a club wrapped in cloth): an execution with it knocks the
    /// victim unconscious instead of leaving it mortally injured (`S-EXEC-1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub non_lethal: bool,
}

/// How a lingering effect is shaken off: a test of `attribute` against `tn`, at the end of each of
/// the sufferer's turns or, for a hindrance that says `by: Action`, when it spends its action on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lingering {
    /// The attribute tested.
    pub attribute: Attribute,
    /// The number to reach.
    pub tn: i32,
    /// When the test is made (`Z-HIND-1`: "sometimes needing an Action to complete").
    #[serde(default, skip_serializing_if = "ShakeOffBy::is_end_of_turn")]
    pub by: ShakeOffBy,
}

impl Lingering {
    /// A test that comes by itself at the end of each of the sufferer's turns.
    pub const fn at_turn_end(attribute: Attribute, tn: i32) -> Self {
        Self { attribute, tn, by: ShakeOffBy::EndOfTurn }
    }

    /// Whether only the sufferer's action ends it.
    pub fn needs_action(&self) -> bool {
        self.by == ShakeOffBy::Action
    }
}

/// When the test to shake off a lingering effect is made (`Z-HIND-1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum ShakeOffBy {
    /// At the end of each of the sufferer's turns, costing it nothing.
    #[default]
    EndOfTurn,
    /// Only when the sufferer declares `shake_off`, spending its action: a net to cut, glue to
    /// scrape off. Hindrances only, and not one that stops the unit acting (distracted,
    /// paralysed): `fray check` refuses those.
    Action,
}

impl ShakeOffBy {
    /// Whether the test comes by itself (what a file may leave out).
    pub fn is_end_of_turn(&self) -> bool {
        *self == Self::EndOfTurn
    }
}

/// "Shock 2/AC 15": a miss still deals `damage` (plus the attribute modifier) against a target
/// whose Defense is at most `max_defense`; `None` ("/-") against any Defense.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shock {
    /// Damage on a miss.
    pub damage: i32,
    /// Highest Defense it applies to.
    #[serde(default)]
    pub max_defense: Option<i32>,
}

fn default_multiplier() -> i32 {
    2
}

impl Weapon {
    /// Whether it is a missile weapon (it never threatens a zone).
    pub fn is_ranged(&self) -> bool {
        self.range.is_some()
    }

    /// Whether an attack can reach a target `distance` zones away.
    pub fn reaches(&self, distance: u32) -> bool {
        match self.range {
            Some(range) => distance <= range,
            None => distance <= self.reach,
        }
    }
}

/// An armour's bonuses.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmourPiece {
    /// Added to Defense.
    #[serde(default)]
    pub defense: i32,
    /// Armour Bonus: subtracted from the damage of each hit.
    #[serde(default)]
    pub armour: i32,
    /// Includes a shield: the first Shock each round is ignored (`S-SHOCK-1`).
    #[serde(default)]
    pub shield: bool,
}

/// What a spell or consumable does to its target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Effect {
    /// Deals damage to an enemy.
    Damage {
        /// Damage dice.
        dice: Dice,
        /// Damage type.
        damage_type: DamageType,
    },
    /// Restores Stress to an ally (or oneself).
    RestoreStress {
        /// Stress restored.
        dice: Dice,
    },
    /// Restores Wound Points to an ally (or oneself).
    RestoreWounds {
        /// Wound Points restored.
        dice: Dice,
    },
    /// Calls the caster's next waiting summoned unit to its side, if it has a summoning slot free (`A-SUMM-1`).
    Summon,
    /// Creates `count` new units of the catalog creature `creature` on the caster's side, in the
    /// caster's zone or the nearest one with room (the nearest free square on a grid), each taking
    /// a summoning slot while one is free (`A-SUMM-1`). They are summoned units: sick in their
    /// first round, and gone when the battle ends unless they are thralls.
    Conjure {
        /// The catalog creature it creates.
        creature: String,
        /// How many it creates with one casting.
        count: u32,
        /// The caster means to keep them: thralls, kept after the battle if it pays their cost.
        #[serde(default)]
        thrall: bool,
    },
}

impl Effect {
    /// Whether it brings summoned units into the battle (`A-SUMM-1`).
    pub fn summons(&self) -> bool {
        matches!(self, Self::Summon | Self::Conjure { .. })
    }

    /// Whether the effect is aimed at enemies.
    pub fn is_hostile(&self) -> bool {
        matches!(self, Self::Damage { .. })
    }
}

/// A spell a unit knows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// The casting TN the caster's casting check must reach.
    pub tn: i32,
    /// Spell speed; `None` means casting TN + the ruleset's offset.
    #[serde(default)]
    pub speed: Option<i32>,
    /// Mana it costs (Stress may pay it 1:1).
    pub mana: i32,
    /// Farthest distance band it reaches (0 Close).
    pub range: u32,
    /// What it does.
    pub effect: Effect,
    /// How long it takes to cast, where the ruleset counts casting times (`C-CAST-1`).
    #[serde(default)]
    pub casting_time: CastingTime,
    /// A successful casting of a hostile spell leaves ongoing damage on its target (`Z-ONGO-1`).
    #[serde(default)]
    pub ongoing: Option<Lingering>,
    /// A successful casting of a hostile spell leaves a hindrance on its target (`Z-HIND-1`).
    #[serde(default)]
    pub hinders: Option<(Hindrance, Lingering)>,
}

/// How long a spell takes to cast (`C-CAST-1`, `A-COND-1`). Rulesets without
/// `spells.casting_times` cast every spell at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CastingTime {
    /// It takes effect in the caster's own turn.
    #[default]
    Instant,
    /// It takes effect this many turns of the round after the caster's, or after the round's
    /// last turn if the round has fewer.
    Turns(u32),
    /// It takes the whole round: it takes effect after the round's last turn.
    FullRound,
}

/// A consumable or throwable item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// What it does when used (drunk, applied) or when a throw hits.
    pub effect: Effect,
    /// Whether it is thrown at a target (an attack roll) rather than used.
    #[serde(default)]
    pub thrown: bool,
    /// Initiative modifier; `None` uses the ruleset's use/throw modifier.
    #[serde(default)]
    pub modifier: Option<i32>,
    /// Farthest distance band it reaches (0 Close; thrown items usually 1).
    #[serde(default)]
    pub range: u32,
    /// A hit (thrown) or a use on an enemy leaves ongoing damage on the target (`Z-ONGO-1`).
    #[serde(default)]
    pub ongoing: Option<Lingering>,
    /// A hit (thrown) or a use on an enemy leaves a hindrance on the target (`Z-HIND-1`).
    #[serde(default)]
    pub hinders: Option<(Hindrance, Lingering)>,
}

/// Critical multiplier of a thrown item.
const THROWN_CRITICAL_MULTIPLIER: i32 = 2;

impl Item {
    /// A thrown item as the weapon its attack roll uses, if it deals damage.
    pub fn as_thrown_weapon(&self) -> Option<Weapon> {
        let Effect::Damage { dice, damage_type } = self.effect else {
            return None;
        };
        Some(Weapon {
            damage: dice,
            damage_type,
            speed: 0,
            critical_multiplier: THROWN_CRITICAL_MULTIPLIER,
            critical_natural: None,
            reach: 0,
            range: Some(self.range),
            attack_bonus: 0,
            shock: None,
            ongoing: self.ongoing,
            hinders: self.hinders,
            attributes: Vec::new(),
            two_handed: false,
            non_lethal: false,
        })
    }
}

/// One effect of a combat injury.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum InjuryEffect {
    /// Lowers attributes by a roll (one roll, applied to each listed attribute).
    AttributeDamage {
        /// Attributes that lose the rolled amount.
        attributes: Vec<Attribute>,
        /// The amount.
        dice: Dice,
    },
    /// Halves Speed until healed.
    HalfSpeed,
    /// Prone until healed: Defense penalty, no movement beyond a crawl.
    Prone,
    /// An arm (main or off, by the ruleset's arm die) can no longer attack.
    ArmUseless,
    /// Only one action every other round.
    ActsEveryOtherRound,
    /// Cannot move or act at all.
    Paralysed,
    /// Cannot breathe: loses Wound Points at the end of each round like the dying.
    Suffocating,
    /// A penalty to a named kind of check (shown on the unit card).
    CheckPenalty {
        /// The check, e.g. `balance`.
        check: String,
        /// The penalty.
        amount: i32,
    },
    /// A lasting condition with no effect on the fight itself (blind in one eye, cannot speak...).
    Condition(String),
}

/// One row of an injury table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InjuryRow {
    /// The lowest table roll of the row.
    pub from: i32,
    /// The highest table roll of the row.
    pub to: i32,
    /// Name, e.g. `Broken Shin`.
    pub name: String,
    /// Its effects.
    pub effects: Vec<InjuryEffect>,
}

/// A damage type's injury table.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InjuryTable {
    /// Rows, covering the table die.
    pub rows: Vec<InjuryRow>,
}

impl InjuryTable {
    /// The row for `roll`, if any.
    pub fn row(&self, roll: i32) -> Option<&InjuryRow> {
        self.rows.iter().find(|row| (row.from..=row.to).contains(&roll))
    }
}

/// Every damage type's injury table (`W-CRIT-2`).
#[derive(bevy::prelude::Resource, Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct InjuryTables(pub std::sync::Arc<std::collections::BTreeMap<DamageType, InjuryTable>>);

/// The shipped injury tables, built into the binary.
pub const BUILTIN_INJURY_TABLES: &str = include_str!("../../assets/injuries.ron");

impl Default for InjuryTables {
    fn default() -> Self {
        ron::from_str(BUILTIN_INJURY_TABLES).expect("the built-in injury tables are checked by a unit test")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w_crit_2_every_damage_type_that_can_crit_has_a_full_table() {
        let tables = InjuryTables::default();
        for damage_type in DamageType::ALL {
            if matches!(damage_type, DamageType::Poison | DamageType::Bleeding) {
                continue;
            }
            let table = tables.0.get(&damage_type).unwrap_or_else(|| panic!("no table for {damage_type:?}"));
            for roll in 1..=20 {
                assert!(table.row(roll).is_some(), "{damage_type:?} has no row for {roll}");
            }
        }
    }

    #[test]
    fn w_crit_2_the_blunt_table_is_the_seeds() {
        let tables = InjuryTables::default();
        let blunt = &tables.0[&DamageType::Blunt];
        assert_eq!(blunt.row(2).unwrap().name, "Broken Shin");
        assert_eq!(
            blunt.row(2).unwrap().effects,
            vec![
                InjuryEffect::AttributeDamage { attributes: vec![Attribute::Agility], dice: Dice::new(1, 8) },
                InjuryEffect::HalfSpeed,
            ]
        );
        assert_eq!(blunt.row(20).unwrap().name, "Cracked Skull");
    }
}
