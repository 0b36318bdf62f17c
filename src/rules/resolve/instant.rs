//! Out-of-turn defence (`S-SPEC-1`): screens that turn an attack on a ward to its screener, and
//! snap attacks struck at an attacker before its blow lands; and held actions (`S-ACT-2`), taken
//! in a turn of their own after the round's last or in answer to a foe's turn (`held`).

use crate::rules::log::ManeuverKind;
use bevy::prelude::*;

use super::Resolver;
use super::attack::AttackRequest;
use crate::rules::actions;
use crate::rules::components::*;
use crate::rules::damage;
use crate::rules::equipment::Attribute;
use crate::rules::log::ManeuverOutcome;
use crate::rules::log::line;
use crate::rules::log::{AttackKind, LogEvent};
use crate::rules::ruleset::Ruleset;
use crate::rules::state::Slot;
use crate::rules::unit::{self, UnitView};

impl Resolver<'_, '_> {
    /// Holds `actor`'s action (`S-ACT-2`): its Move is spent, and it gets a turn of its own after
    /// the round's last turn, counted one past it, to take its Main action then. A unit that
    /// has not acted still may snap at an attacker in the meantime. Held against a foe (the
    /// action's target), it takes its plan (the action's `held`, else a strike) first when the
    /// foe's turn comes (`answer_held_actions`); if the foe never comes, the turn after the
    /// round's last takes it or, under `turns.unanswered_hold_lapses`, it is lost there.
    pub(super) fn hold_action(&mut self, actor: Entity, action: &Action) {
        let Ok(mut unit) = self.units.get_mut(actor) else {
            return;
        };
        unit.round.conditions.held_action = true;
        unit.round.conditions.held_against = action.target;
        unit.round.conditions.held_plan = action.target.map(|foe| action.held.unwrap_or(HeldPlan::strike(foe)));
        unit.round.conditions.turn_taken = false;
        self.state.holding.push(actor);
        let count = self.state.turns.last().map_or(0, |(count, _)| *count) + 1;
        self.state.turns.push((count, vec![actor]));
    }
}

/// A unit's bonus to a screen's opposed check: its better of Strength and Dexterity, and its
/// attack skill standing in for the most fitting combat skill.
fn screen_bonus(ruleset: &Ruleset, view: &UnitView) -> i32 {
    let strength = unit::modifier(ruleset, view.body.attributes, Attribute::Strength);
    let dexterity = unit::modifier(ruleset, view.body.attributes, Attribute::Dexterity);
    strength.max(dexterity) + view.body.skills.attack
}

/// Hit points left before the unit goes down.
pub(super) fn standing(view: &UnitView) -> i32 {
    view.body.stress.current.max(0) + view.body.wounds.current.max(0)
}

/// The most the attack of `attacker` with its weapon in hand can deal `target` on a hit.
pub(super) fn heaviest_blow(ruleset: &Ruleset, attacker: &UnitView, target: &UnitView) -> i32 {
    let weapon = attacker.arms.loadout.usable_weapon(attacker.round.conditions).1;
    let most = actions::damage_dice(ruleset, attacker, weapon, false).max();
    damage::damage_after_armour(ruleset, most, 1, target.arms.armour.0)
}

/// One screener's opposed check against the attacker.
struct ScreenCheck {
    screener: Entity,
    roll: crate::rules::dice::DiceRoll,
    against: crate::rules::dice::DiceRoll,
}

impl Resolver<'_, '_> {
    /// `actor` screens `ward` until its own next turn (`S-SPEC-1`).
    pub(super) fn screen(&mut self, actor: Entity, ward: Entity) {
        if let Ok(mut unit) = self.units.get_mut(actor) {
            unit.round.conditions.screening = Some(ward);
        }
    }

    /// Whom the declared blow of `slot` at `target` strikes (`S-SPEC-1`): each screener of the
    /// target that could block it makes an opposed check against the attacker; of those who
    /// win, the worst-rolling takes the attack. Nobody wins: the target itself.
    pub(super) fn screened_target(&mut self, slot: &Slot, target: Entity) -> Entity {
        let Some(rules) = self.ruleset.attack.screen.clone() else {
            return target;
        };
        // Nobody screening the target: no check, no roll, no line, the target itself, and no need
        // to look the two units up (missing ones are still reported below, as before).
        if self.units.contains(slot.unit)
            && self.units.contains(target)
            && !self.units.iter().any(|view| view.round.conditions.screening == Some(target))
        {
            return target;
        }
        let screeners = self.screeners_of(slot, target);
        let Some(attacker) = self.unit(slot.unit, "a screened attack") else {
            return target;
        };
        let against_bonus = screen_bonus(&self.ruleset, &attacker);
        let attacker_id = attacker.standing.id.0.clone();
        let mut checks = Vec::with_capacity(screeners.len());
        for (screener, bonus) in screeners {
            let roll = self.rng.roll(rules.die.plus(bonus));
            let against = self.rng.roll(rules.die.plus(against_bonus));
            if let Ok(mut unit) = self.units.get_mut(screener) {
                unit.round.conditions.screens_made += 1;
            }
            checks.push(ScreenCheck { screener, roll, against });
        }
        // Ties go to the attacker, the `maneuver` line's target.
        let blocker = checks
            .iter()
            .filter(|check| check.roll.total > check.against.total)
            .min_by_key(|check| check.roll.total)
            .map(|check| check.screener);
        let round = self.round();
        for check in checks {
            let won = check.roll.total > check.against.total;
            let unit = self.id(check.screener);
            let target = attacker_id.clone();
            let outcome = (blocker == Some(check.screener)).then_some(ManeuverOutcome::Screened);
            self.log.record(round, || {
                LogEvent::Maneuver(line::Maneuver {
                    unit,
                    target,
                    maneuver: ManeuverKind::Screen,
                    roll: check.roll,
                    against: check.against,
                    won,
                    outcome,
                    // Screens belong to `shock_and_cover`, which has no Weakened hindrance.
                    disadvantage_roll: None,
                    against_disadvantage_roll: None,
                })
            });
        }
        blocker.unwrap_or(target)
    }

    /// The screeners of `target` able to block the blow of `slot`, in level order, with their
    /// check bonuses: fighting, still beside the ward, with screens left this round, and within
    /// the blow's reach themselves.
    fn screeners_of(&self, slot: &Slot, target: Entity) -> Vec<(Entity, i32)> {
        let (Some(attacker), Some(ward)) = (self.unit(slot.unit, "a screen"), self.unit(target, "a screen")) else {
            return Vec::new();
        };
        let Ok(reach) = actions::reach(&attacker, slot.action.kind) else {
            return Vec::new();
        };
        let mut found: Vec<(u32, Entity, i32)> = self
            .units
            .iter()
            .filter(|view| {
                view.round.conditions.screening == Some(target)
                    && view.standing.side == ward.standing.side
                    && view.entity != target
                    && unit::is_fighting(*view.standing.status, view.round.conditions)
                    && view.round.conditions.screens_made < view.body.skills.attack
                    && self.battlefield.distance(view.standing.zone.0, ward.standing.zone.0)
                        <= view.arms.loadout.unarmed.reach
                    && reach.reaches(&self.battlefield, attacker.standing.zone.0, view.standing.zone.0)
            })
            .map(|view| (view.standing.order.0, view.entity, screen_bonus(&self.ruleset, &view)))
            .collect();
        found.sort_unstable_by_key(|&(order, ..)| order);
        found.into_iter().map(|(_, entity, bonus)| (entity, bonus)).collect()
    }

    /// A snap attack by `target` at the unit of `slot`, struck before its blow (`S-SPEC-1`),
    /// when `target` wants one. Returns whether the attacker can still strike. The caller has
    /// just found that the attacker may act (and screening its target does not change that), so
    /// without a snap it still may, and it is not looked up again.
    pub(super) fn snap_first(&mut self, slot: &Slot, target: Entity) -> bool {
        let round = self.round();
        if !self.wants_to_snap(slot.unit, target) {
            return true;
        }
        if let Ok(mut unit) = self.units.get_mut(target) {
            unit.round.conditions.snapped = true;
        }
        let mut reaction = Vec::new();
        self.attack(AttackRequest::new(target, slot.unit, slot.initiative, AttackKind::Snap), &mut reaction);
        for effect in reaction {
            self.apply(effect);
        }
        self.units
            .get(slot.unit)
            .is_ok_and(|view| unit::may_act(*view.standing.status, view.round.conditions, view.round.surprised, round))
    }

    /// Whether `target` snaps at `attacker`: the ruleset has snap attacks, it is trained
    /// enough, has not had its turn this round, reaches the attacker with its weapon, and the
    /// blow coming could take it down or its own could take the attacker down.
    fn wants_to_snap(&self, attacker: Entity, target: Entity) -> bool {
        let Some(rules) = &self.ruleset.attack.snap_attack else {
            return false;
        };
        let (Some(a), Some(t)) = (self.unit(attacker, "a snap attack"), self.unit(target, "a snap attack")) else {
            return false;
        };
        let ready = unit::may_act(*t.standing.status, t.round.conditions, t.round.surprised, self.round())
            && unit::is_fighting(*t.standing.status, t.round.conditions)
            && !t.round.conditions.snapped
            && !t.round.conditions.turn_taken
            && t.body.skills.attack >= rules.min_attack_skill;
        let reaches = actions::reach(&t, ActionKind::Attack)
            .is_ok_and(|reach| reach.reaches(&self.battlefield, t.standing.zone.0, a.standing.zone.0));
        // No bow or crossbow snaps in melee (`S-ATK-2`).
        let bow_in_melee = actions::fires_forbidden_bow(&self.ruleset, &t, ActionKind::Attack)
            && actions::shooting_in_melee(
                self.ctx(),
                t.standing.zone.0,
                a.standing.zone.0,
                *t.standing.side,
                &*self.units,
            );
        ready
            && reaches
            && !bow_in_melee
            && (heaviest_blow(&self.ruleset, &a, &t) >= standing(&t)
                || heaviest_blow(&self.ruleset, &t, &a) >= standing(&a))
    }
}
