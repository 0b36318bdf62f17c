//! What a natural fumble does besides missing, by the ruleset's `FumbleRule`: nothing more, a
//! usage mark on the weapon (`Z-CRIT-1`), or an escalating chain of tragedies (`A-FAIL-1`).

use std::sync::Arc;

use super::{AttackRequest, Engagement};
use crate::rules::actions;
use crate::rules::components::Hand;
use crate::rules::dice::Dice;
use crate::rules::equipment::DamageType;
use crate::rules::log::line;
use crate::rules::log::{AttackKind, EscalationChain, LogEvent};
use crate::rules::resolve::{DamageHit, Pending, Resolver, Strike};
use crate::rules::ruleset::FumbleRule;

impl Resolver<'_, '_> {
    /// What a natural fumble does besides missing (`Z-CRIT-1`, `A-FAIL-1`).
    pub(super) fn fumble(&mut self, request: &AttackRequest, engagement: &Engagement, pending: &mut Vec<Pending>) {
        match self.ruleset.attack.fumble.clone() {
            FumbleRule::Miss => {}
            FumbleRule::WeaponUsage => self.wear_weapon(request, engagement),
            FumbleRule::Escalating { chain } => {
                if engagement.in_target_zone {
                    self.tragedy(request, engagement, &chain, pending);
                }
            }
        }
    }

    /// A usage mark on the fumbled weapon (`Z-CRIT-1`).
    fn wear_weapon(&mut self, request: &AttackRequest, engagement: &Engagement) {
        let round = self.round();
        let Some(mut unit) =
            self.faults.found(self.units.get_mut(request.attacker), request.attacker, "marking a fumbled weapon")
        else {
            return;
        };
        let hand = unit.arms.loadout.usable_hand(&unit.round.conditions);
        let marks = {
            let slot = &mut unit.round.conditions.usage_marks[hand.index()];
            *slot += 1;
            *slot
        };
        // Bare hands take marks but never break.
        let breaks_at = self.ruleset.attack.weapon_wear.map(|wear| wear.breaks_at);
        let broken = hand != Hand::Bare && breaks_at.is_some_and(|breaks_at| marks >= breaks_at);
        if let Some(slot) = unit.round.conditions.broken.get_mut(hand.index()) {
            *slot |= broken;
        }
        let id = unit.standing.id.0.clone();
        let weapon = engagement.weapon_name.clone();
        self.log.record(round, || LogEvent::WeaponUsage(line::WeaponUsage { unit: id, weapon, marks, broken }));
    }

    /// A fumble in the target's reach (`A-FAIL-1`): the chain decides between a free hit for the
    /// target, a tragedy's free critical, and the fatal blow at the victim's hand.
    fn tragedy(
        &mut self,
        request: &AttackRequest,
        engagement: &Engagement,
        chain: &[Dice],
        pending: &mut Vec<Pending>,
    ) {
        let (attacker, target) = (request.attacker, request.target);
        let reached = self.escalate(&engagement.attacker_id, EscalationChain::Tragedy, chain);
        if !chain.is_empty() && reached == chain.len() {
            pending.push(Pending::Damage(DamageHit {
                target: attacker,
                source: self.id(target),
                amount: engagement.attacker_lethal,
                damage_type: DamageType::Piercing,
                critical: true,
                roll: None,
            }));
            return;
        }
        let tragedy = reached > 0;
        // A tragedy's free critical comes even without a Free Hit Slot left.
        if !tragedy && !self.units.get(target).is_ok_and(|view| actions::can_react(&view)) {
            return;
        }
        if !tragedy && let Ok(mut other) = self.units.get_mut(target) {
            other.round.reactions.0 = other.round.reactions.0.saturating_sub(1);
        }
        let strike = Strike { forced_critical: tragedy, ..Strike::default() };
        self.attack(
            AttackRequest::new(target, attacker, request.initiative, AttackKind::FreeHit).with(strike),
            pending,
        );
    }

    /// Rolls an escalation chain (`A-CRIT-1`, `A-FAIL-1`): each die in turn, stopping at the first
    /// that misses its top face. Returns how many escalated.
    pub(super) fn escalate(&mut self, unit: &Arc<str>, name: EscalationChain, chain: &[Dice]) -> usize {
        let round = self.round();
        for (step, die) in chain.iter().enumerate() {
            let roll = self.rng.roll(*die);
            let escalated = roll.total >= die.max();
            let id = unit.clone();
            self.log.record(round, || {
                LogEvent::Escalation(line::Escalation { unit: id, chain: name, step: step as u32 + 1, roll, escalated })
            });
            if !escalated {
                return step;
            }
        }
        chain.len()
    }
}
