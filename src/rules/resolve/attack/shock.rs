//! Shock (`S-SHOCK-1`): a weapon with Shock still hurts a lightly defended target it misses,
//! unless total defense or a shield absorbs it; a hit deals at least its Shock.

use super::judge::Judgement;
use super::{AttackRequest, Engagement};
use crate::rules::log::line;
use crate::rules::log::{LogEvent, ShockAbsorber};
use crate::rules::resolve::{DamageHit, Pending, Resolver};

impl Resolver<'_, '_> {
    /// The weapon's Shock damage, when it applies against this target: a Defense no higher than
    /// its limit, or any Defense when a swarm drives the blow.
    pub(super) fn shock_damage(&self, engagement: &Engagement, judgement: &Judgement) -> Option<i32> {
        let (shock, modifier) = engagement.shock?;
        let (swarm_hit, _) = engagement.swarm;
        let applies = shock.max_defense.is_none_or(|max| judgement.needed <= max) || swarm_hit > 0;
        applies.then_some(shock.damage + modifier)
    }

    /// A miss with Shock: total defense stops even a swarm's Shock; a shield (once per battle)
    /// stops only ordinary Shock. Otherwise the damage is queued.
    pub(super) fn shock_on_miss(
        &mut self,
        request: &AttackRequest,
        engagement: &Engagement,
        judgement: &Judgement,
        pending: &mut Vec<Pending>,
    ) {
        // No Shock, or none against this Defense.
        let Some(shock) = self.shock_damage(engagement, judgement) else {
            return;
        };
        let (swarm_hit, _) = engagement.swarm;
        let absorbed_by = if engagement.target_full_defense {
            Some(ShockAbsorber::TotalDefense)
        } else if swarm_hit == 0 && engagement.target_shield {
            Some(ShockAbsorber::Shield)
        } else {
            None
        };
        if absorbed_by == Some(ShockAbsorber::Shield)
            && let Ok(mut unit) = self.units.get_mut(request.target)
        {
            unit.conditions.shield_used = true;
        }
        let amount = if absorbed_by.is_some() { 0 } else { shock.max(0) };
        let (round, attacker, target) = (self.round(), engagement.attacker_id.clone(), engagement.target_id.clone());
        self.log.record(round, || LogEvent::Shock(line::Shock { attacker, target, amount, absorbed_by }));
        if amount > 0 {
            pending.push(Pending::Damage(DamageHit {
                target: request.target,
                source: engagement.attacker_id.clone(),
                amount,
                damage_type: engagement.weapon.damage_type,
                critical: false,
                roll: None,
            }));
        }
    }
}
