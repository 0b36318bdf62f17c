//! Shock (`S-SHOCK-1`): a weapon with Shock still hurts a lightly defended target it misses,
//! unless total defense or a shield absorbs it; a hit deals at least the Shock a miss would have
//! dealt.

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

    /// What would turn this attack's Shock from the target: total defense, even a swarm's Shock;
    /// an unused shield, only ordinary Shock. `None`: the target would suffer it.
    fn shock_absorber(engagement: &Engagement) -> Option<ShockAbsorber> {
        let (swarm_hit, _) = engagement.swarm;
        if engagement.target_full_defense {
            Some(ShockAbsorber::TotalDefense)
        } else if swarm_hit == 0 && engagement.target_shield {
            Some(ShockAbsorber::Shield)
        } else {
            None
        }
    }

    /// The least a hit deals (`S-SHOCK-1`): "never [...] less damage than the Shock that would
    /// have been inflicted on a miss". A target that would have turned the Shock (total defense,
    /// an unused shield) would have suffered none, so there is no floor against it.
    pub(super) fn shock_floor(&self, engagement: &Engagement, judgement: &Judgement) -> Option<i32> {
        let shock = self.shock_damage(engagement, judgement)?;
        Self::shock_absorber(engagement).is_none().then_some(shock)
    }

    /// A miss with Shock: total defense stops even a swarm's Shock; a shield (once a round)
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
        let absorbed_by = Self::shock_absorber(engagement);
        if absorbed_by == Some(ShockAbsorber::Shield)
            && let Ok(mut unit) = self.units.get_mut(request.target)
        {
            unit.round.conditions.shield_used = true;
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
