//! Carrying out one declared action: its target, strikes and extra attacks, throws, exertion
//! and queued effects.

use super::*;

/// How one attack is made, beyond who strikes whom.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::rules) struct Strike {
    /// Where it aims (`A-AIM-1`).
    pub aim: Option<AimPoint>,
    /// At the end of a charge (`S-SPEC-1`).
    pub charge: bool,
    /// A critical whatever the roll (`A-FAIL-1`'s free critical).
    pub forced_critical: bool,
    /// The action's own attack, rather than a reaction: fumbles and swarms count.
    pub primary: bool,
    /// Made without moving first: the bonus actions went into the blow (`A-BONUS-1`).
    pub stood_still: bool,
    /// To hit and damage the turn's chosen Bonus Actions add (`A-BONUS-1`).
    pub bonus: (i32, i32),
    /// The extra attack bought with the Move and both Bonus Actions: the weapon's own dice, no
    /// Strength and no feats (`A-BONUS-1`).
    pub bonus_attack: bool,
}

/// Whether an action is a weapon attack against its target.
pub(super) fn is_strike(kind: ActionKind) -> bool {
    matches!(kind, ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_))
}

/// Whether a turn leaves a Bonus Action free for dodging (`A-BONUS-1`): moving further, a
/// disengage and a blow struck without moving (where the ruleset has the standing bonus) spend
/// both; anything else spends none.
pub(super) fn leaves_a_bonus_action(action: &Action, standing_bonus: bool) -> bool {
    match action.kind {
        ActionKind::Move | ActionKind::Disengage => false,
        ActionKind::Attack | ActionKind::Aimed(_) => action.move_to.is_some() || !standing_bonus,
        _ => true,
    }
}

/// Whether an action needs a target; one that may go without (a defensive attack) acts on
/// one only when it names one.
fn needs_target(kind: ActionKind) -> bool {
    match kind {
        ActionKind::FullDefense
        | ActionKind::Move
        | ActionKind::Hold
        | ActionKind::DefensiveAttack
        | ActionKind::Disengage
        | ActionKind::StandUp
        | ActionKind::GoProne
        | ActionKind::BreakFree
        | ActionKind::HoldAction
        | ActionKind::LetGo
        | ActionKind::Delay
        | ActionKind::Drag
        | ActionKind::Hurl
        | ActionKind::ShakeOff => false,
        ActionKind::Attack
        | ActionKind::Cast(_)
        | ActionKind::UseItem(_)
        | ActionKind::Throw(_)
        | ActionKind::Stabilize
        | ActionKind::Intimidate
        | ActionKind::Charge
        | ActionKind::Swarm
        | ActionKind::Aimed(_)
        | ActionKind::Shove
        | ActionKind::Grapple
        | ActionKind::Execute
        | ActionKind::Screen
        | ActionKind::KnockDown => true,
    }
}

impl<'w, 's> Resolver<'w, 's> {
    /// Carries out one declared action, queueing its effects; a lost action costs no exertion.
    pub(super) fn perform_action(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        let kind = slot.action.kind;
        let acted = if kind == ActionKind::StandUp {
            self.stand_up(slot);
            true
        } else if kind == ActionKind::GoProne {
            self.go_prone(slot.unit);
            true
        } else if kind == ActionKind::BreakFree {
            self.break_free(slot.unit)
        } else if kind == ActionKind::HoldAction {
            self.hold_action(slot.unit, &slot.action);
            true
        } else if kind == ActionKind::LetGo {
            self.let_go(slot.unit);
            true
        } else if matches!(kind, ActionKind::Drag | ActionKind::Hurl) {
            self.haul(slot.unit, &slot.action)
        } else if kind == ActionKind::ShakeOff {
            self.shake_off(slot.unit)
        } else if slot.action.target.is_some() || needs_target(kind) {
            self.act_on(slot, slot.action.target, pending)
        } else {
            true
        };
        if acted {
            self.pay_for_exertion(slot, pending);
        }
        if matches!(kind, ActionKind::StandUp | ActionKind::GoProne | ActionKind::Screen) {
            self.continue_turn(slot);
        }
    }

    /// An action aimed at `target` (`None` when it needed one and has none, which is lost like a
    /// target out of reach). Returns whether the action was carried out.
    fn act_on(&mut self, slot: &Slot, target: Option<Entity>, pending: &mut Vec<Pending>) -> bool {
        let (round, actor, kind) = (self.round(), slot.unit, slot.action.kind);
        // A spell taking effect after its casting time drew its attacks when it was begun.
        if !self.completes_a_cast(actor) {
            self.provoke_by_acting(slot);
        }
        if !self
            .units
            .get(actor)
            .is_ok_and(|view| unit::may_act(*view.standing.status, view.round.conditions, view.round.surprised, round))
        {
            return false;
        }
        let Some(target) = target.filter(|&target| is_strike(kind) || self.target_in_reach(slot, target)) else {
            self.lose(actor, LostReason::TargetOutOfReach);
            return false;
        };
        match kind {
            ActionKind::Charge if self.charge_throws(slot, target) => return self.charge_throw(slot, target, pending),
            ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_) => {
                return self.strike(slot, target, pending);
            }
            ActionKind::Throw(at) => return self.throw(slot, at, target, pending),
            ActionKind::Cast(at) => self.cast(actor, at, target, pending),
            ActionKind::UseItem(at) => self.use_item(actor, at, target, pending),
            ActionKind::Swarm => self.swarm(actor, target),
            ActionKind::Shove | ActionKind::KnockDown | ActionKind::Grapple => {
                self.maneuver(actor, target, &slot.action, slot.initiative);
            }
            ActionKind::Execute => self.execute(actor, target, slot.initiative, pending),
            ActionKind::Stabilize => self.stabilize(actor, target, pending),
            ActionKind::Intimidate => self.intimidate(actor, target),
            ActionKind::Screen => self.screen(actor, target),
            ActionKind::FullDefense
            | ActionKind::Move
            | ActionKind::Hold
            | ActionKind::Disengage
            | ActionKind::StandUp
            | ActionKind::GoProne
            | ActionKind::BreakFree
            | ActionKind::HoldAction
            | ActionKind::LetGo
            | ActionKind::Delay
            | ActionKind::Drag
            | ActionKind::Hurl
            | ActionKind::ShakeOff => {}
        }
        true
    }

    /// A declared weapon attack, the Reposte of a target in full defense (`W-DECL-3`), and any
    /// extra attacks of a high level (`C-MULTI-1`). Returns whether the attack was made.
    pub(super) fn strike(&mut self, slot: &Slot, target: Entity, pending: &mut Vec<Pending>) -> bool {
        let kind = slot.action.kind;
        // Instant defences come first (`S-SPEC-1`): a screen may take the blow, and whoever it
        // falls on may snap at the attacker before it lands.
        let target = self.screened_target(slot, target);
        if !self.snap_first(slot, target) {
            return false;
        }
        // What the turn's Bonus Actions add, from one look-up of the attacker (none without
        // Bonus Action rules).
        let no_bonus = ((0, 0), false);
        let (bonus, bonus_attack) = match crate::rules::bonus::rules(&self.ruleset) {
            None => no_bonus,
            Some(_) => self.units.get(slot.unit).map_or(no_bonus, |view| {
                (
                    crate::rules::bonus::attack_bonus(&self.ruleset, view.round.conditions, &slot.action),
                    crate::rules::bonus::effective(&self.ruleset, view.round.conditions, &slot.action).extra_attack,
                )
            }),
        };
        let strike = Strike {
            aim: match kind {
                ActionKind::Aimed(aim) => Some(aim),
                _ => None,
            },
            charge: kind == ActionKind::Charge,
            forced_critical: false,
            primary: true,
            stood_still: slot.action.move_to.is_none(),
            bonus,
            bonus_attack: false,
        };
        let request = AttackRequest::new(slot.unit, target, slot.initiative, AttackKind::Normal).with(strike);
        match self.attack(request.clone(), pending) {
            None => {
                self.lose(slot.unit, LostReason::TargetOutOfReach);
                return false;
            }
            Some(true) => {
                if let Ok(mut other) = self.units.get_mut(target) {
                    other.round.reactions.0 = other.round.reactions.0.saturating_sub(1);
                }
                self.attack(AttackRequest::new(target, slot.unit, slot.initiative, AttackKind::Reposte), pending);
            }
            Some(false) => {}
        }
        let extra = request.with(Strike { primary: false, ..strike });
        for _ in 1..self.attacks_this_round(slot.unit) {
            if !self.still_standing(target, pending) {
                break;
            }
            self.attack(extra.clone(), pending);
        }
        if bonus_attack && self.still_standing(target, pending) && self.still_able(slot.unit) {
            self.attack(extra.with(Strike { bonus_attack: true, primary: false, ..strike }), pending);
        }
        true
    }

    /// Whether `actor` may still act this round (a fumble's free hit may have felled it).
    pub(super) fn still_able(&self, actor: Entity) -> bool {
        let round = self.round();
        self.units
            .get(actor)
            .is_ok_and(|view| unit::may_act(*view.standing.status, view.round.conditions, view.round.surprised, round))
    }

    /// Whether `target` is still active with more left than the damage queued against it.
    fn still_standing(&self, target: Entity, pending: &[Pending]) -> bool {
        let queued: i32 = pending
            .iter()
            .map(|effect| match effect {
                Pending::Damage(hit) if hit.target == target => hit.amount,
                _ => 0,
            })
            .sum();
        self.units.get(target).is_ok_and(|view| {
            *view.standing.status == Status::Active && view.body.stress.current + view.body.wounds.current > queued
        })
    }

    /// Throws one item from the stack at `at`. Returns whether anything was thrown.
    pub(super) fn throw(&mut self, slot: &Slot, at: usize, target: Entity, pending: &mut Vec<Pending>) -> bool {
        // The stack may have run out since the declaration, or hold nothing throwable.
        let Some(weapon) = self.take_item(slot.unit, at).and_then(|item| item.as_thrown_weapon()) else {
            return false;
        };
        let strike = Strike { primary: true, ..Strike::default() };
        let request = AttackRequest::new(slot.unit, target, slot.initiative, AttackKind::Thrown).with(strike);
        self.attack(request.thrown(weapon), pending);
        true
    }

    /// Weapon attacks `actor` makes this round (`C-MULTI-1`): one unless the ruleset's level bands say more.
    fn attacks_this_round(&self, actor: Entity) -> u32 {
        let (level, class) = self.levels.get(actor).map_or((1, None), |(level, class)| (level.0, class));
        crate::rules::initiative::attacks_per_round(
            &self.ruleset,
            level,
            class.map(|class| &*class.0),
            self.state.round,
        )
    }

    /// Whether the declared target is still there and in reach after the move.
    fn target_in_reach(&self, slot: &Slot, target: Entity) -> bool {
        let (Ok(actor), Ok(other)) = (self.units.get(slot.unit), self.units.get(target)) else {
            self.fault(slot.unit, "checking the reach of an action");
            return false;
        };
        // The same reach the declaration was checked against, from where the actor stands now.
        other.standing.status.on_field()
            && actions::reach(&actor, slot.action.kind)
                .is_ok_and(|reach| reach.reaches(&self.battlefield, actor.standing.zone.0, other.standing.zone.0))
    }

    /// Incapacitated and dying units pay Wound Points for exertion (`W-WOUND-1`, `W-WOUND-4`).
    fn pay_for_exertion(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        if !slot.action.kind.is_exertion() {
            return;
        }
        let cost = self.ruleset.wounds.action_cost_when_down;
        let free = self.ruleset.wounds.stabilised_free_actions;
        let Some(mut unit) = self.faults.found(self.units.get_mut(slot.unit), slot.unit, "paying for exertion") else {
            return;
        };
        unit.round.record.actions_taken += 1;
        if !unit.standing.status.is_down()
            || (unit.round.conditions.stabilised && unit.round.record.actions_taken <= free)
        {
            return;
        }
        pending.push(Pending::Damage(DamageHit {
            target: slot.unit,
            source: EXERTION.into(),
            amount: cost,
            damage_type: DamageType::Bleeding,
            critical: false,
            roll: None,
        }));
    }

    /// Applies one queued effect once its group has acted.
    pub(super) fn apply(&mut self, effect: Pending) {
        match effect {
            Pending::Damage(hit) => {
                self.harm().deal(hit);
            }
            Pending::Restore { target, source, roll, wounds } => self.restore(target, source, roll, wounds),
            Pending::Stabilize { target } => self.stabilized(target),
        }
    }

    /// The parts of the battle damage touches, borrowed to deal a hit.
    pub(super) fn harm(&mut self) -> Harm<'_, 'w, 's, 'w> {
        Harm {
            units: &mut self.units,
            index: &mut self.index,
            log: &mut self.log,
            rng: &mut self.rng,
            ruleset: &self.ruleset,
            tables: &self.tables,
            dealt: &mut self.dealt,
            round: self.state.round,
        }
    }
}
