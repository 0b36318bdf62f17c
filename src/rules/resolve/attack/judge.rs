//! Judging an attack roll by the ruleset's `AttackStyle`: against the target's Defense, or a
//! test against a fixed difficulty that a party member may roll to avoid (`Z-ATK-1/2`).

use super::{AttackRequest, Engagement, Modifiers};
use crate::rules::actions;
use crate::rules::components::Conditions;
use crate::rules::dice::{Dice, DiceRoll};
use crate::rules::equipment::Attribute;
use crate::rules::log::AttackExtra;
use crate::rules::resolve::Resolver;
use crate::rules::ruleset::AttackStyle;
use crate::rules::unit::{self, UnitView};

/// What an attack roll is made with and must reach.
pub(super) struct Test {
    /// The dice, with every bonus.
    dice: Dice,
    /// The total that succeeds.
    needed: i32,
    /// The target rolls to avoid the blow (`Z-ATK-2`) rather than the attacker to land it.
    avoid: bool,
    /// The target making the avoid test is weakened: its own disadvantage (`Z-HIND-1`).
    avoider_weakened: bool,
}

/// How an attack roll turned out.
#[derive(Clone, Debug)]
pub(in crate::rules::resolve) struct Judgement {
    /// The roll that counts.
    pub roll: DiceRoll,
    /// The total it had to reach.
    pub needed: i32,
    /// It was the target's avoid test.
    pub avoid: bool,
    /// A natural fumble.
    pub fumbled: bool,
    /// The blow lands.
    pub hit: bool,
    /// A critical hit.
    pub critical: bool,
    /// A fumbled avoid test doubles the damage (`Z-CRIT-1`).
    pub doubled: bool,
}

impl Resolver<'_, '_> {
    /// Rolls the attack (twice with disadvantage) for `test` and judges hit, critical and fumble.
    pub(super) fn judge(
        &mut self,
        request: &AttackRequest,
        engagement: &Engagement,
        test: Test,
        modifiers: &Modifiers,
        extra: &mut AttackExtra,
    ) -> Judgement {
        let roll = self.roll_test(&test, modifiers.disadvantage(), extra);
        let rules = &self.ruleset.attack;
        let natural = roll.natural().unwrap_or(0);
        let forced = request.strike.forced_critical;
        let fumbled = natural <= rules.fumble_natural && !forced;
        let (needed, avoid) = (test.needed, test.avoid);
        let (hit, critical, doubled) = if avoid {
            extra.avoid = true;
            let avoided = !fumbled && roll.total >= needed;
            // A natural 1 on the avoid test doubles the damage (`Z-CRIT-1`).
            (!avoided, false, fumbled)
        } else {
            let critical_natural = natural >= actions::critical_natural(&self.ruleset, &engagement.weapon) || forced;
            let hit =
                forced || (!fumbled && (roll.total >= needed || (critical_natural && rules.critical_always_hits)));
            (hit, hit && critical_natural, false)
        };
        Judgement { roll, needed, avoid, fumbled, hit, critical, doubled }
    }

    /// The roll to make, by the ruleset's attack style.
    pub(super) fn test(&self, engagement: &Engagement, bonus: i32, attacker: &UnitView, target: &UnitView) -> Test {
        let rules = &self.ruleset.attack;
        match &rules.style {
            AttackStyle::VsDefense => Test {
                dice: rules.die.plus(bonus),
                needed: self.defense_against(target),
                avoid: false,
                avoider_weakened: false,
            },
            AttackStyle::Test { tn, melee, ranged, player_facing, avoid } => {
                let (attacker_side, target_side) = engagement.sides;
                if *player_facing && self.sides.is_party(target_side) && !self.sides.is_party(attacker_side) {
                    let modifier = unit::modifier(&self.ruleset, target.body.attributes, *avoid);
                    let avoider_weakened = unit::weakened(target.round.conditions);
                    Test { dice: rules.die.plus(modifier), needed: *tn, avoid: true, avoider_weakened }
                } else {
                    let attribute = if engagement.ranged { *ranged } else { *melee };
                    let modifier = unit::modifier(&self.ruleset, attacker.body.attributes, attribute);
                    Test { dice: rules.die.plus(modifier + bonus), needed: *tn, avoid: false, avoider_weakened: false }
                }
            }
        }
    }

    /// The target's Defense: flat-footed, prone or charging where the ruleset says so (`A-COND-1`, `S-SPEC-1`).
    fn defense_against(&self, target: &UnitView) -> i32 {
        let rules = &self.ruleset.attack;
        let mut defense =
            unit::defense_score(&self.ruleset, target.body.attributes, target.arms.defense, target.round.conditions);
        // Flat-footed: hit on a fixed number; prone: that number plus Agility (`A-COND-1`).
        if let Some(conditions) = &rules.conditions {
            let sick = target.round.conditions.sick_until.is_some_and(|last| self.state.round <= last);
            // Channelling a spell leaves the caster unable to dodge, unless it is a Battle Caster.
            let channelling = conditions.channelling_flat_footed
                && target.round.conditions.channelling
                && !target.arms.loadout.battle_caster;
            if target.round.surprised || target.round.conditions.paralysed || sick || channelling {
                defense = conditions.flat_footed_defense;
            } else if target.round.conditions.prone {
                defense = conditions.prone_defense
                    + unit::modifier(&self.ruleset, target.body.attributes, Attribute::Agility)
                    - target.round.conditions.agility_penalty;
            }
        }
        defense - self.charge_penalty(target.round.conditions)
    }

    /// How much a charge this round lowers the charger's Defense, against every roll made at it (`S-SPEC-1`).
    pub(in crate::rules::resolve) fn charge_penalty(&self, conditions: &Conditions) -> i32 {
        let penalty = self.ruleset.attack.charge.as_ref().map_or(0, |charge| charge.defense_penalty);
        if conditions.charging { penalty } else { 0 }
    }

    /// Rolls the test; with disadvantage it rolls twice and keeps the worse for the roller:
    /// the attacker's lower roll, or the target's higher avoid roll. A weakened avoider keeps its
    /// lower roll instead (`Z-HIND-1`); with the attacker's disadvantage too, the two cancel out.
    fn roll_test(&mut self, test: &Test, disadvantage: bool, extra: &mut AttackExtra) -> DiceRoll {
        let mut roll = self.rng.roll(test.dice);
        let (twice, keep_higher) = if test.avoid {
            (disadvantage != test.avoider_weakened, disadvantage && !test.avoider_weakened)
        } else {
            (disadvantage, false)
        };
        if twice {
            let other = self.rng.roll(test.dice);
            let other_counts = if keep_higher { other.total > roll.total } else { other.total < roll.total };
            if other_counts {
                extra.disadvantage_roll = Some(std::mem::replace(&mut roll, other));
            } else {
                extra.disadvantage_roll = Some(other);
            }
        }
        roll
    }
}
