//! The `Ruleset` resource: every number and option the combat stages read, loaded from RON.

use bevy::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::dice::Dice;
use super::equipment::Attribute;
use super::log::AttackKind;

mod attack;
mod harm;
mod morale_end;
mod movement;
mod turn;

pub use attack::{
    AimRules, AttackRollRules, AttackRules, AttackStyle, ChargeRules, ConditionRules, CriticalRule, DualWield,
    ExecutionRules, FumbleRule, HaulRules, ManeuverRules, ManeuverSkill, RangedExecutionRules, RangedInMelee,
    ScreenRules, SituationalRules, SnapRules, SwarmRules, WeaponWear,
};
pub use harm::{
    DamageRules, InjuryRules, Pools, ReactionKind, ReposteRules, StressMethod, WoundRules, WoundThresholds,
};
pub use morale_end::{EndRules, MoraleCheck, MoraleFailure, MoraleRules, MoraleTrigger, Withdrawal, WithdrawalRow};
pub use movement::{MovementRules, SpellRules};
pub use turn::{
    AttributeRules, BonusActionRules, DeclarationOrder, DeclarationRules, InitiativeOrder, InitiativeRules,
    ReactionTable, SurpriseRoll, SurpriseRules, TieBreak, TurnOrder, TurnRules,
};

/// The default ruleset's name; levels that name no ruleset use it.
pub const DEFAULT_RULESET: &str = "stress_and_wounds";

/// A complete ruleset. Each field group belongs to one pipeline stage (or to the combat stats
/// those stages read); a modder changes the game by editing these values, never the stages.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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
    /// Who acts when: declared initiative (seed 000) or turns in an order rolled per side or unit.
    #[serde(default)]
    pub turns: TurnRules,
}

/// Which actions the ruleset offers: derived from [`super::components::ActionKind`].
pub use super::components::Offer;

/// The built-in default ruleset's RON, so the game runs from any directory.
pub const BUILTIN_STRESS_AND_WOUNDS: &str = include_str!("../../../assets/rulesets/stress_and_wounds.ron");

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
