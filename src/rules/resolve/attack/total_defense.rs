//! Total defense as an Instant action (`S-SPEC-1`): a unit that still has its Main action this
//! round gives it up after seeing an attack roll against it, for +2 AC and immunity to Shock
//! until its next turn opens.

use super::judge::Judgement;
use super::{AttackRequest, Engagement};
use crate::rules::log::StatusChange;
use crate::rules::log::line;
use crate::rules::log::{AttackKind, LogEvent};
use crate::rules::resolve::Resolver;
use crate::rules::resolve::instant::{heaviest_blow, standing};
use crate::rules::ruleset::AttackStyle;
use crate::rules::unit;

impl Resolver<'_, '_> {
    /// Lets the target of `request` answer the roll just judged with total defense, when it wants
    /// to: the roll hits, the total defense bonus would make it miss, and the blow could take the
    /// target down. The target's Main action is spent, the roll is judged again against the
    /// raised Armour Class, and the target ignores the attack's Shock.
    pub(super) fn total_defense_reaction(
        &mut self,
        request: &AttackRequest,
        engagement: &mut Engagement,
        judgement: &mut Judgement,
    ) {
        let bonus = self.ruleset.attack.full_defense_bonus;
        if !judgement.hit || judgement.avoid || judgement.roll.total >= judgement.needed + bonus {
            return;
        }
        if !self.wants_total_defense(request) {
            return;
        }
        if let Ok(mut target) = self.units.get_mut(request.target) {
            target.round.conditions.full_defense = true;
            // The Main action is gone: the unit's own turn keeps only its move, as after a snap.
            target.round.conditions.snapped = true;
        }
        let round = self.round();
        let unit = engagement.target_id.clone();
        self.log.record(round, || LogEvent::Status(line::Status { unit, status: StatusChange::FullDefense }));
        judgement.needed += bonus;
        judgement.hit = false;
        judgement.critical = false;
        engagement.target_full_defense = true;
    }

    /// Whether the target of `request` takes total defense against it: the ruleset allows it out
    /// of turn, the roll is against its Armour Class, it can act and has not yet spent its Main
    /// action this round (no turn taken, no snap attack), and the attacker's heaviest blow
    /// reaches its hit points left.
    fn wants_total_defense(&self, request: &AttackRequest) -> bool {
        let rules = &self.ruleset.attack;
        if !rules.full_defense_reaction
            || !matches!(rules.style, AttackStyle::VsDefense)
            || request.kind == AttackKind::Execution
            || request.strike.forced_critical
        {
            return false;
        }
        let (Some(attacker), Some(target)) =
            (self.unit(request.attacker, "total defense"), self.unit(request.target, "total defense"))
        else {
            return false;
        };
        let ready =
            unit::may_act(*target.standing.status, target.round.conditions, target.round.surprised, self.round())
                && unit::is_fighting(*target.standing.status, target.round.conditions)
                && !target.round.conditions.full_defense
                && !target.round.conditions.snapped
                && !target.round.conditions.turn_taken;
        ready && heaviest_blow(&self.ruleset, &attacker, &target) >= standing(&target)
    }
}
