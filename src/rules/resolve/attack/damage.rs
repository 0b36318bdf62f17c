//! A hit's damage: the rolls (dual wielding `Z-ATK-3`, sneak damage), criticals by the
//! ruleset's `CriticalRule` (`W-CRIT-1`, `A-CRIT-1`), swarm and flat bonuses, Armour, Shock's
//! floor, and the blow's aftermath: aimed wounds (`A-WOUND-1`) and lingering effects.

use super::judge::Judgement;
use super::{AttackRequest, Engagement, Modifiers};
use crate::rules::damage;
use crate::rules::dice::DiceRoll;
use crate::rules::log::{AttackExtra, EscalationChain};
use crate::rules::resolve::{DamageHit, Resolver};
use crate::rules::ruleset::{CriticalRule, DualWield};

/// How much more a hit deals to one who rolled a natural fumble on the test to avoid it (`Z-CRIT-1`).
const AVOID_FUMBLE_MULTIPLIER: i32 = 2;

/// The damage rolled after a critical, before Armour.
struct Rolled {
    /// The damage total.
    total: i32,
    /// What Armour's remainder is multiplied by.
    multiplier: i32,
    /// The blow defeats outright (the last step of an escalating critical).
    outright: bool,
}

impl Resolver<'_, '_> {
    /// Deals a hit: rolls its damage, queues it and applies its aftermath. Returns the damage roll.
    pub(super) fn deal_blow(
        &mut self,
        request: &AttackRequest,
        engagement: &Engagement,
        judgement: &Judgement,
        modifiers: &Modifiers,
        extra: &mut AttackExtra,
    ) -> (DiceRoll, DamageHit) {
        let (damage_roll, rolled) = self.roll_damage(engagement, extra);
        let rolled = self.critical(engagement, judgement, rolled);
        let dice = engagement.damage_dice;
        let (_, swarm_damage) = engagement.swarm;
        // Swarm damage never takes a weapon past its usual maximum.
        let boosted = (rolled.total + swarm_damage).min(rolled.total.max(dice.max())) + modifiers.damage();
        let mut amount = damage::damage_after_armour(&self.ruleset, boosted, rolled.multiplier, engagement.armour);
        if judgement.doubled {
            // The one who failed the avoid test takes double damage: the hit as Armour left it (`Z-CRIT-1`).
            amount = amount.saturating_mul(AVOID_FUMBLE_MULTIPLIER);
        }
        if let Some(shock) = self.shock_floor(engagement, judgement) {
            amount = amount.max(shock);
        }
        amount = amount.max(self.ruleset.damage.minimum);
        if rolled.outright {
            amount = amount.max(engagement.target_lethal);
        }
        if let Some(aim) = request.strike.aim {
            amount += self.wound(request.target, &engagement.attacker_id, aim, amount);
        }
        if amount > 0 {
            self.afflict(request.attacker, request.target, &engagement.weapon, &engagement.attacker_id);
        }
        let hit = DamageHit {
            target: request.target,
            source: engagement.attacker_id.clone(),
            amount,
            damage_type: engagement.weapon.damage_type,
            critical: judgement.critical,
            roll: None,
        };
        (damage_roll, hit)
    }

    /// Rolls the damage dice: the higher of two weapons where the ruleset keeps it, plus sneak
    /// damage. Returns the roll the log shows and the total.
    fn roll_damage(&mut self, engagement: &Engagement, extra: &mut AttackExtra) -> (DiceRoll, i32) {
        let mut roll = self.rng.roll(engagement.damage_dice);
        if self.ruleset.attack.dual_wield == DualWield::KeepHigher
            && engagement.both_reach
            && !engagement.thrown
            && let Some(second_dice) = engagement.second_dice
        {
            let other = self.rng.roll(second_dice);
            extra.other_damage_roll =
                Some(if other.total > roll.total { std::mem::replace(&mut roll, other) } else { other });
        }
        let mut total = roll.total;
        if let Some(dice) = engagement.sneak_dice {
            let sneak = self.rng.roll(dice);
            total += sneak.total;
            extra.sneak_roll = Some(sneak);
        }
        (roll, total)
    }

    /// What a critical does to the damage, by the ruleset's `CriticalRule`.
    fn critical(&mut self, engagement: &Engagement, judgement: &Judgement, total: i32) -> Rolled {
        let multiplier = 1;
        let plain = Rolled { total, multiplier, outright: false };
        if !judgement.critical {
            return plain;
        }
        match self.ruleset.attack.critical.clone() {
            CriticalRule::WeaponMultiplier => {
                Rolled { multiplier: multiplier * engagement.weapon.critical_multiplier, ..plain }
            }
            CriticalRule::DoubleDice => {
                let modifier = engagement.damage_dice.modifier;
                Rolled { total: (total - modifier) * 2 + modifier, ..plain }
            }
            CriticalRule::Escalating { chain } => {
                // Each step that escalates doubles again; the last one defeats outright.
                let reached = self.escalate(&engagement.attacker_id, EscalationChain::Critical, &chain);
                let outright = !chain.is_empty() && reached == chain.len();
                Rolled { multiplier: multiplier * (2 << reached.min(chain.len().saturating_sub(1))), outright, ..plain }
            }
        }
    }
}
