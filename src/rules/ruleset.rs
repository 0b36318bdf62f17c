//! The `Ruleset` resource: every number and option the combat stages read, loaded from RON.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::dice::Dice;

/// The default ruleset's name; levels that name no ruleset use it.
pub const DEFAULT_RULESET: &str = "stress_and_wounds";

/// A complete ruleset. Each field group belongs to one pipeline stage (or to the combat stats
/// those stages read); a modder changes the game by editing these values, never the stages.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// Short identifier, written to the log as `ruleset`.
    pub name: String,
    /// One line for menus and `fray check`.
    #[serde(default)]
    pub description: String,
    /// How attribute scores turn into modifiers.
    pub attributes: AttributeRules,
    /// Surprise stage.
    pub surprise: SurpriseRules,
    /// Initiative stage.
    pub initiative: InitiativeRules,
    /// Declare stage: order and action modifiers.
    pub declaration: DeclarationRules,
    /// Attack rolls and Defense.
    pub attack: AttackRules,
    /// Damage, Stress and Wound Points.
    pub damage: DamageRules,
    /// Incapacitated, dying, death and stabilising.
    pub wounds: WoundRules,
    /// Combat injuries after critical hits.
    pub injuries: InjuryRules,
    /// Repostes and the threat range.
    pub reposte: ReposteRules,
    /// Movement across zones.
    pub movement: MovementRules,
    /// Casting spells.
    pub spells: SpellRules,
    /// Monster morale.
    pub morale: MoraleRules,
    /// When a combat ends.
    pub end: EndRules,
}

/// Attribute scores to modifiers: `floor((score - base) / step)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeRules {
    /// The score whose modifier is 0.
    pub modifier_base: i32,
    /// Points of score per point of modifier.
    pub modifier_step: i32,
}

impl AttributeRules {
    /// The modifier of `score`.
    pub fn modifier(&self, score: i32) -> i32 {
        (score as i64 - self.modifier_base as i64).div_euclid(self.modifier_step.max(1) as i64) as i32
    }
}

/// What being surprised costs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurpriseRules {
    /// Rounds in which surprised units neither declare nor act (nor react).
    pub rounds_lost: u32,
}

/// Which way the initiative count runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InitiativeOrder {
    /// Lowest Round Initiative acts first (stress_and_wounds).
    LowestFirst,
    /// Highest acts first.
    HighestFirst,
}

/// Base and Round Initiative.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitiativeRules {
    /// The Base Initiative die, before the Agility modifier.
    pub die: Dice,
    /// Multiplier applied to the Agility modifier before it is added (−1 subtracts it).
    pub agility_factor: i32,
    /// Which way the count runs.
    pub order: InitiativeOrder,
    /// Added to the Round Initiative of an action a late joiner missed, acted next round.
    pub missed_turn_modifier: i32,
}

/// How units take turns declaring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeclarationOrder {
    /// One unit per side in turn, sides in level order.
    RoundRobinBySide,
    /// Highest Agility score first.
    ByAgility,
    /// Everyone writes their action down; nothing is seen until all have declared.
    SimultaneousSecret,
}

/// Declaration and the action modifiers of `W-DECL-2`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclarationRules {
    /// Declaration order for the whole combat; a level may override it.
    pub order: DeclarationOrder,
    /// Use a consumable item, unless the item says otherwise.
    pub use_item_modifier: i32,
    /// Throw an item, unless the item says otherwise.
    pub throw_modifier: i32,
    /// Full defense.
    pub full_defense_modifier: i32,
    /// Added to weapon speed for a defensive attack.
    pub defensive_attack_extra: i32,
    /// Spell speed = casting TN + this, unless the spell states its speed.
    pub spell_speed_offset: i32,
    /// Moving without any other action.
    pub move_modifier: i32,
    /// Doing nothing this round.
    pub hold_modifier: i32,
    /// A Heal check to stabilise a fallen ally.
    pub stabilise_modifier: i32,
    /// An Intimidation check against a monster.
    pub intimidate_modifier: i32,
}

/// Attack rolls against Defense.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackRules {
    /// The attack die; the attacker's attack bonus is added.
    pub die: Dice,
    /// Defense = this + Agility modifier + Defense bonus + equipment.
    pub base_defense: i32,
    /// Extra Defense while in full defense.
    pub full_defense_bonus: i32,
    /// A natural roll at or above this is a critical hit (weapons may lower it).
    pub critical_natural: u32,
    /// Whether a critical hits whatever the Defense.
    pub critical_always_hits: bool,
    /// A natural roll at or below this always misses.
    pub fumble_natural: u32,
    /// Defense lost while prone.
    pub prone_defense_penalty: i32,
}

/// Damage, Stress and Wound Points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageRules {
    /// Add the attacker's Strength modifier to melee and thrown damage.
    pub strength_to_damage: bool,
    /// Armour is subtracted after the critical multiplier (true) or before it.
    pub armour_after_multiplier: bool,
    /// Whether critical damage skips Stress and goes to Wound Points.
    pub critical_bypasses_stress: bool,
    /// How maximum Stress is worked out from Hit Dice.
    pub stress_method: StressMethod,
}

/// Maximum Stress from Hit Dice (`W-DMG-3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StressMethod {
    /// The first Hit Die in full, the others at their average, plus Strength modifier per HD,
    /// rounded down: the seed's 5d8+15 → 41.
    FirstMaxThenAverage,
    /// Every Hit Die at its average, rounded down.
    Average,
    /// Every Hit Die in full.
    Maximum,
}

/// Wound Point thresholds, dying and stabilising.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WoundRules {
    /// Wound Points lost at the end of each round while dying and not stabilised.
    pub dying_loss_per_round: i32,
    /// Wound Points an incapacitated or dying unit pays for an action (after any free one).
    pub action_cost_when_down: i32,
    /// Zones an incapacitated unit may crawl per round (a yard is far less than a zone).
    pub crawl_zones: u32,
    /// The Heal check die; the healer's Heal skill is added.
    pub heal_die: Dice,
    /// Stabilise TN = this + the highest single injury.
    pub stabilise_tn_base: i32,
    /// Actions per round a stabilised unit takes without paying Wound Points.
    pub stabilised_free_actions: u32,
}

/// Combat injuries (`W-CRIT-2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InjuryRules {
    /// Whether critical hits can cause injuries at all.
    pub enabled: bool,
    /// The chance roll; an injury happens when it is at or under the damage dealt.
    pub chance_die: Dice,
    /// The table roll.
    pub table_die: Dice,
    /// The die choosing main (low half) or off hand (high half) for arm injuries.
    pub arm_die: Dice,
}

/// Repostes (`W-DECL-3`, `W-DECL-4`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReposteRules {
    /// A unit in full defense may Reposte when attacked in melee.
    pub when_attacked_in_full_defense: bool,
    /// A unit may Reposte an enemy that enters its threat range (unless that enemy attacks defensively).
    pub when_threat_range_entered: bool,
    /// Reactions a unit may make per round.
    pub reactions_per_round: u32,
}

/// Movement over zones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// Speed is divided by this in full defense (rounded down).
    pub full_defense_speed_divisor: u32,
    /// Speed is divided by this when an injury halves it, or when stabilised.
    pub slowed_speed_divisor: u32,
}

/// Casting (`W-DECL-2`, `W-STRESS-1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellRules {
    /// The casting check die; the caster's spellcasting skill is added and must reach the spell's TN.
    pub casting_die: Dice,
    /// Whether Stress may pay for Mana 1:1 when Mana runs short.
    pub stress_pays_for_mana: bool,
    /// Whether Armour reduces spell damage.
    pub armour_stops_spells: bool,
}

/// What a failed morale check does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoraleFailure {
    /// The unit runs from the battle.
    Flee,
    /// The unit lays down its arms.
    Surrender,
}

/// Monster morale (`W-MOR-1`, `W-MOR-2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleRules {
    /// The morale dice; Insight modifier, HD and allies are added.
    pub dice: Dice,
    /// TN = this + number of opponents.
    pub tn_base: i32,
    /// Check after losing more than half the maximum Wound Points in one hit.
    pub check_on_big_hit: bool,
    /// Check when the side is outnumbered.
    pub check_when_outnumbered: bool,
    /// Check when targeted by an Intimidation check.
    pub check_when_intimidated: bool,
    /// Active opponents per active ally (the unit included) at which defeat is obvious and the check fails on its own.
    pub obvious_defeat_ratio: u32,
    /// What failure does.
    pub on_failure: MoraleFailure,
    /// The Intimidation check die; the intimidator's Intimidation skill is added.
    pub intimidation_die: Dice,
}

/// When combat ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRules {
    /// A combat still running after this many rounds ends as interrupted, with no winner.
    pub max_rounds: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_round_down_both_ways() {
        let rules = AttributeRules { modifier_base: 10, modifier_step: 2 };
        assert_eq!(rules.modifier(14), 2);
        assert_eq!(rules.modifier(15), 2);
        assert_eq!(rules.modifier(10), 0);
        assert_eq!(rules.modifier(9), -1);
        assert_eq!(rules.modifier(8), -1);
        assert_eq!(rules.modifier(7), -2);
    }
}

/// The built-in default ruleset's RON, so the game runs from any directory.
pub const BUILTIN_STRESS_AND_WOUNDS: &str = include_str!("../../assets/rulesets/stress_and_wounds.ron");

impl Default for Ruleset {
    fn default() -> Self {
        ron::from_str(BUILTIN_STRESS_AND_WOUNDS).expect("the built-in ruleset is checked by a unit test")
    }
}

#[cfg(test)]
mod builtin_tests {
    use super::*;

    #[test]
    fn the_builtin_ruleset_parses() {
        let ruleset: Ruleset = ron::from_str(BUILTIN_STRESS_AND_WOUNDS).unwrap();
        assert_eq!(ruleset.name, DEFAULT_RULESET);
        assert_eq!(ruleset.declaration.use_item_modifier, 6);
    }
}
