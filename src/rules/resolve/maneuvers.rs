//! Manoeuvres (`S-MAN-1`, `Z-STUNT-1`, `S-EXEC-1`): shoving, grappling, dragging and hurling
//! the held, standing up from prone, and executing an unaware foe.

use crate::rules::log::StatusChange;
use crate::rules::log::{LostReason, ManeuverKind};
use bevy::prelude::*;

use crate::battlefield::ZoneIdx;

use super::{DamageHit, Pending, Resolver};
use crate::rules::actions::{self, ManeuverCheck};
use crate::rules::components::*;
use crate::rules::damage;
use crate::rules::dice::Dice;
use crate::rules::equipment::Weapon;
use crate::rules::log::ManeuverOutcome;
use crate::rules::log::line;
use crate::rules::log::{AttackExtra, AttackKind, LogEvent};
use crate::rules::ruleset::{ExecutionRules, HaulRules};
use crate::rules::state::Slot;
use crate::rules::unit::{self, UnitView};

impl Resolver<'_, '_> {
    /// A shove or a grapple (`S-MAN-1`, `Z-STUNT-1`): an attack roll first where the chapter
    /// asks for one, then opposed checks; the shoved are pushed a step away (or knocked prone
    /// when there is no room), the grappled held.
    pub(super) fn maneuver(&mut self, actor: Entity, target: Entity, action: &Action, initiative: i32) {
        let kind = action.kind;
        let round = self.round();
        // Without manoeuvre rules the action is never offered; nothing to do.
        let Some(rules) = self.ruleset.attack.maneuvers.clone() else {
            return;
        };
        let name = if kind == ActionKind::Grapple { AttackKind::Grapple } else { AttackKind::Shove };
        if rules.attack_roll_first && !self.maneuver_lands(actor, target, name, initiative) {
            return;
        }
        let (Some(a), Some(t)) = (self.unit(actor, "a manoeuvre"), self.unit(target, "a manoeuvre")) else {
            return;
        };
        let check = if kind == ActionKind::Grapple { ManeuverCheck::Hold } else { ManeuverCheck::Shove };
        let own =
            actions::maneuver_bonus(&self.ruleset, &rules, &a, check, true) - actions::size_penalty(&rules, &a, &t);
        let theirs = actions::maneuver_bonus(&self.ruleset, &rules, &t, check, false);
        let (actor_id, target_id) = (a.standing.id.0.clone(), t.standing.id.0.clone());
        // A weakened side rolls its test with disadvantage (`Z-HIND-1`).
        let weak = (unit::weakened(a.round.conditions), unit::weakened(t.round.conditions));
        let (roll, disadvantage_roll) = self.rng.roll_test(rules.die.plus(own), weak.0);
        let (against, against_disadvantage_roll) = self.rng.roll_test(rules.die.plus(theirs), weak.1);
        let won = roll.total > against.total;
        let outcome = if !won {
            None
        } else if kind == ActionKind::Grapple {
            Some(self.grapple(actor, target))
        } else if kind == ActionKind::KnockDown {
            Some(self.knock_down(target))
        } else {
            Some(self.shove(actor, target, action.push_to))
        };
        let maneuver = if kind == ActionKind::Grapple { ManeuverKind::Grapple } else { ManeuverKind::Shove };
        self.log.record(round, || {
            LogEvent::Maneuver(line::Maneuver {
                unit: actor_id,
                target: target_id,
                maneuver,
                roll,
                against,
                won,
                outcome,
                disadvantage_roll,
                against_disadvantage_roll,
            })
        });
    }

    /// The attack roll a manoeuvre makes first where the chapter asks for one. Returns whether it hit.
    fn maneuver_lands(&mut self, actor: Entity, target: Entity, kind: AttackKind, initiative: i32) -> bool {
        let (Some(a), Some(t)) = (self.unit(actor, "a manoeuvre"), self.unit(target, "a manoeuvre")) else {
            return false;
        };
        let weapon = if kind == AttackKind::Grapple {
            &a.arms.loadout.unarmed
        } else {
            a.arms.loadout.usable_weapon(a.round.conditions).1
        };
        // A charger's lowered Defense holds against shoves and grapples too (`S-SPEC-1`).
        let defense = unit::defense_score(&self.ruleset, t.body.attributes, t.arms.defense, t.round.conditions)
            - self.charge_penalty(t.round.conditions);
        let dice = self.ruleset.attack.die.plus(actions::roll_bonus(&self.ruleset, &a, weapon, false));
        let (attacker, target) = (a.standing.id.0.clone(), t.standing.id.0.clone());
        let roll = self.rng.roll(dice);
        let (total, hit, round) = (roll.total, roll.total >= defense, self.round());
        self.log.record(round, || {
            LogEvent::Attack(line::Attack {
                attacker,
                target,
                initiative,
                roll,
                total,
                defense,
                hit,
                critical: false,
                kind,
                damage_roll: None,
                extra: AttackExtra::default(),
            })
        });
        hit
    }

    /// A won grapple: the target is held, by the actor alone or, where several may cling to it,
    /// by the actor too; one held by [`MAX_GRAPPLERS`] already has no room for another.
    fn grapple(&mut self, actor: Entity, target: Entity) -> ManeuverOutcome {
        let rules = self.ruleset.attack.maneuvers.as_ref();
        let bare_hands = rules.is_some_and(|rules| rules.unarmed_while_grappling);
        let many = rules.is_some_and(|rules| rules.many_grapplers);
        if many {
            // One target at a time: seizing another lets go of the first.
            let holding = self.units.get(actor).ok().and_then(|view| view.round.conditions.grappling);
            if let Some(old) = holding.filter(|&old| old != target) {
                crate::rules::end::let_go(&mut self.harm(), old, actor);
            }
        }
        if let Ok(mut unit) = self.units.get_mut(target) {
            if !many {
                // The hold passes to the newest grappler; the one before lets go at the round's end.
                unit.round.conditions.grappled_by = Grapplers::default();
            }
            if !unit.round.conditions.grappled_by.insert(actor) {
                return ManeuverOutcome::NoRoom;
            }
            unit.round.conditions.bare_hands_in_holds |= bare_hands;
        }
        if let Ok(mut unit) = self.units.get_mut(actor) {
            unit.round.conditions.grappling = Some(target);
            unit.round.conditions.bare_hands_in_holds |= bare_hands;
        }
        ManeuverOutcome::Grappled
    }

    /// A held unit's declared struggle against the hold (`S-MAN-1`): the opposed check, at the
    /// cost of its action. Returns whether the action was carried out (the unit still held).
    pub(super) fn break_free(&mut self, actor: Entity) -> bool {
        let rules = self.ruleset.attack.maneuvers.clone();
        let held = self.units.get(actor).is_ok_and(|view| !view.round.conditions.grappled_by.is_empty());
        let Some(rules) = rules.filter(|_| held) else {
            // Let go of before its turn came: nothing left to struggle against.
            self.lose(actor, LostReason::TargetOutOfReach);
            return false;
        };
        crate::rules::end::contest_hold(&mut self.harm(), actor, &rules);
        true
    }

    /// A grappler releases its hold (`S-MAN-1`); from then on both may move and take up their
    /// weapons again.
    pub(super) fn let_go(&mut self, actor: Entity) {
        let victim = self.units.get(actor).ok().and_then(|view| view.round.conditions.grappling);
        if let Some(victim) = victim {
            crate::rules::end::let_go(&mut self.harm(), victim, actor);
        }
    }

    /// A grappler's drag or hurl of the foe it holds (`S-MAN-1`): an opposed check (STR/Brawl
    /// where the ruleset reads skills), no attack roll. A win drags both, or hurls the foe to
    /// land prone and free of every hold; a loss frees the foe from this grappler. Returns
    /// whether the action was carried out.
    pub(super) fn haul(&mut self, actor: Entity, action: &Action) -> bool {
        let rules = self.ruleset.attack.maneuvers.clone().filter(|rules| rules.haul.is_some());
        let victim = self.units.get(actor).ok().and_then(|view| view.round.conditions.grappling).filter(|&victim| {
            self.units
                .get(victim)
                .is_ok_and(|view| view.standing.status.on_field() && view.round.conditions.grappled_by.contains(actor))
        });
        let (Some(rules), Some(victim)) = (rules, victim) else {
            // Let go of, or torn away, before its turn came: nothing left to haul.
            self.lose(actor, LostReason::TargetOutOfReach);
            return false;
        };
        let (Some(a), Some(t)) = (self.unit(actor, "a haul"), self.unit(victim, "a haul")) else {
            return false;
        };
        let own = actions::maneuver_bonus(&self.ruleset, &rules, &a, ManeuverCheck::Hold, true)
            - actions::size_penalty(&rules, &a, &t);
        let theirs = actions::maneuver_bonus(&self.ruleset, &rules, &t, ManeuverCheck::Hold, false);
        let (actor_id, target_id) = (a.standing.id.0.clone(), t.standing.id.0.clone());
        let weak = (unit::weakened(a.round.conditions), unit::weakened(t.round.conditions));
        let (roll, disadvantage_roll) = self.rng.roll_test(rules.die.plus(own), weak.0);
        let (against, against_disadvantage_roll) = self.rng.roll_test(rules.die.plus(theirs), weak.1);
        let won = roll.total > against.total;
        let dragging = action.kind == ActionKind::Drag;
        let outcome = if !won {
            // "If they lose, the defender breaks free."
            crate::rules::end::let_go(&mut self.harm(), victim, actor);
            None
        } else if dragging {
            Some(self.drag(actor, victim, action.push_to))
        } else {
            Some(self.hurl(actor, victim, action.push_to))
        };
        let round = self.round();
        self.log.record(round, || {
            LogEvent::Maneuver(line::Maneuver {
                unit: actor_id,
                target: target_id,
                maneuver: if dragging { ManeuverKind::Drag } else { ManeuverKind::Hurl },
                roll,
                against,
                won,
                outcome,
                disadvantage_roll,
                against_disadvantage_roll,
            })
        });
        true
    }

    /// A won drag: the grappler goes to `chosen` where it still may (else the nearest place
    /// there is room), and the victim with it, keeping its place beside it; anyone else holding
    /// the victim loses its grip. Both moves are logged; nothing is provoked.
    fn drag(&mut self, actor: Entity, victim: Entity, chosen: Option<ZoneIdx>) -> ManeuverOutcome {
        let zone_of = |battle: &Self, unit: Entity| battle.unit(unit, "a drag").map(|view| view.standing.zone.0);
        let (Some(from), Some(at)) = (zone_of(self, actor), zone_of(self, victim)) else {
            return ManeuverOutcome::NoRoom;
        };
        let steps =
            self.ruleset.attack.maneuvers.as_ref().and_then(|rules| rules.haul).map_or(0, |haul| haul.drag_steps);
        let steps = HaulRules::steps_on(steps, &self.battlefield);
        let options = self.battlefield.drag_destinations(&self.index, from, at, steps);
        let pick = options.iter().find(|(to, _)| Some(*to) == chosen).or(options.first()).copied();
        let Some((to, along)) = pick else {
            return ManeuverOutcome::NoRoom;
        };
        self.carry(actor, from, to);
        self.carry(victim, at, along);
        self.tear_free(victim, Some(actor));
        ManeuverOutcome::Dragged
    }

    /// A won hurl: the victim lands in `chosen` where it still may (else the nearest place there
    /// is room, or where it is when there is none), prone and free of every hold.
    fn hurl(&mut self, actor: Entity, victim: Entity, chosen: Option<ZoneIdx>) -> ManeuverOutcome {
        let zone_of = |battle: &Self, unit: Entity| battle.unit(unit, "a hurl").map(|view| view.standing.zone.0);
        let (Some(from), Some(at)) = (zone_of(self, actor), zone_of(self, victim)) else {
            return ManeuverOutcome::Thrown;
        };
        let steps =
            self.ruleset.attack.maneuvers.as_ref().and_then(|rules| rules.haul).map_or(0, |haul| haul.throw_steps);
        let steps = HaulRules::steps_on(steps, &self.battlefield);
        let options = self.battlefield.throw_destinations(&self.index, from, at, steps);
        if let Some(to) = chosen.filter(|zone| options.contains(zone)).or(options.first().copied()) {
            self.carry(victim, at, to);
        }
        self.tear_free(victim, None);
        let round = self.round();
        let id = self.id(victim);
        if let Ok(mut unit) = self.units.get_mut(victim) {
            unit.round.conditions.prone = true;
        }
        self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Prone }));
        ManeuverOutcome::Thrown
    }

    /// Moves `unit` from `at` to `to` without a walk (a drag or a hurl): a `moved` line, nothing provoked.
    fn carry(&mut self, unit: Entity, at: ZoneIdx, to: ZoneIdx) {
        if at == to {
            return;
        }
        self.index.relocate(unit, at, to);
        if let Ok(mut view) = self.units.get_mut(unit) {
            view.standing.zone.0 = to;
        }
        let (round, id) = (self.round(), self.id(unit));
        let (left, entered) = (self.battlefield.place(at), self.battlefield.place(to));
        self.log.record(round, || LogEvent::Moved(line::Moved { unit: id, from: left, to: entered }));
    }

    /// Every hold on `victim` but `keep`'s ends.
    fn tear_free(&mut self, victim: Entity, keep: Option<Entity>) {
        let holders: Vec<Entity> =
            self.units.get(victim).map(|view| view.round.conditions.grappled_by.iter().collect()).unwrap_or_default();
        for holder in holders.into_iter().filter(|&holder| Some(holder) != keep) {
            crate::rules::end::let_go(&mut self.harm(), victim, holder);
        }
    }

    /// A won shove that knocks the target down where it stands (`S-MAN-1`).
    fn knock_down(&mut self, target: Entity) -> ManeuverOutcome {
        let round = self.round();
        let id = self.id(target);
        if let Ok(mut unit) = self.units.get_mut(target) {
            unit.round.conditions.prone = true;
        }
        self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Prone }));
        ManeuverOutcome::KnockedProne
    }

    /// A won shove: the target is pushed a step away, into `push_to` where the aggressor chose
    /// and it is still open (`Z-STUNT-1`), else the first zone there is; or knocked prone when
    /// there is no room.
    fn shove(&mut self, actor: Entity, target: Entity, push_to: Option<ZoneIdx>) -> ManeuverOutcome {
        let round = self.round();
        let zone_of = |battle: &Self, unit: Entity| battle.unit(unit, "a shove").map(|view| view.standing.zone.0);
        // A fault, recorded by `unit`.
        let (Some(from), Some(at)) = (zone_of(self, actor), zone_of(self, target)) else {
            return ManeuverOutcome::KnockedProne;
        };
        let id = self.id(target);
        match self.push_destination(from, at, push_to) {
            Some(to) => {
                self.index.relocate(target, at, to);
                if let Ok(mut unit) = self.units.get_mut(target) {
                    unit.standing.zone.0 = to;
                }
                let (left, entered) = (self.battlefield.place(at), self.battlefield.place(to));
                self.log.record(round, || LogEvent::Moved(line::Moved { unit: id, from: left, to: entered }));
                ManeuverOutcome::Pushed
            }
            None => {
                if let Ok(mut unit) = self.units.get_mut(target) {
                    unit.round.conditions.prone = true;
                }
                self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Prone }));
                ManeuverOutcome::KnockedProne
            }
        }
    }

    /// Standing up from prone; where the chapter says so it draws the attacks of adjacent foes first.
    pub(super) fn stand_up(&mut self, slot: &Slot) {
        let Some(view) = self.unit(slot.unit, "standing it up") else {
            return;
        };
        if self.ruleset.reposte.when_reach_left && !self.ruleset.reposte.standing_up_is_free {
            let foes = self.threateners_of(view.standing.zone.0, *view.standing.side);
            let kind = self.ruleset.reposte.name.attack_kind();
            self.provoked_attacks(slot, &foes, kind);
        }
        let round = self.round();
        if let Ok(mut unit) = self.units.get_mut(slot.unit)
            && unit.standing.status.on_field()
        {
            unit.round.conditions.prone = false;
            let id = unit.standing.id.0.clone();
            self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Standing }));
        }
    }

    /// Dropping to the ground of the unit's own accord (`S-ACT-2`): no attack of opportunity.
    pub(super) fn go_prone(&mut self, actor: Entity) {
        let round = self.round();
        if let Ok(mut unit) = self.units.get_mut(actor)
            && unit.standing.status.on_field()
        {
            unit.round.conditions.prone = true;
            let id = unit.standing.id.0.clone();
            self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Prone }));
        }
    }

    /// An execution attack on an unaware target (`S-EXEC-1`): it hits; the target saves at a
    /// penalty of the attacker's attack skill or drops to zero; a saved target still takes the
    /// blow's maximum damage.
    pub(super) fn execute(&mut self, actor: Entity, target: Entity, initiative: i32, pending: &mut Vec<Pending>) {
        let round = self.round();
        // Without execution rules the action is never offered; nothing to do.
        let Some(rules) = self.ruleset.attack.execution.clone() else {
            return;
        };
        let (Some(a), Some(t)) = (self.unit(actor, "an execution"), self.unit(target, "an execution")) else {
            return;
        };
        let weapon = a.arms.loadout.usable_weapon(a.round.conditions).1.clone();
        let dice = actions::damage_dice(&self.ruleset, &a, &weapon, false);
        let (actor_id, target_id) = (a.standing.id.0.clone(), t.standing.id.0.clone());
        let to_zero = t.body.stress.current.max(0) + t.body.wounds.current.max(0);
        let armour = t.arms.armour.0;
        let skill = a.body.skills.attack;
        let aim = self.ranged_execution_aim(&a, &t, &weapon, &rules);
        let defense = unit::defense_score(&self.ruleset, t.body.attributes, t.arms.defense, t.round.conditions);
        let (roll, defense) = match aim {
            Some((bonus, tn)) => (self.rng.roll(self.ruleset.attack.die.plus(bonus)), tn),
            // No roll to hit: the blow lands.
            None => (self.rng.roll(Dice::flat(defense)), defense),
        };
        let (total, hit) = (roll.total, roll.total >= defense);
        let (attacker, target_name) = (actor_id.clone(), target_id.clone());
        self.log.record(round, || {
            LogEvent::Attack(line::Attack {
                attacker,
                target: target_name,
                initiative,
                roll,
                total,
                defense,
                hit,
                critical: false,
                kind: AttackKind::Execution,
                damage_roll: None,
                extra: AttackExtra::default(),
            })
        });
        // A ranged execution that misses does nothing more.
        if !hit {
            return;
        }
        let save = self.rng.roll(rules.save_die.plus(-skill));
        let saved = save.total >= rules.save_tn;
        let amount = if saved { damage::damage_after_armour(&self.ruleset, dice.max(), 1, armour) } else { to_zero };
        let tn = rules.save_tn;
        self.log.record(round, || {
            LogEvent::Execution(line::Execution { unit: actor_id.clone(), target: target_id, roll: save, tn, saved })
        });
        if !saved && weapon.non_lethal {
            self.knock_out(target);
            return;
        }
        let damage_type = weapon.damage_type;
        pending.push(Pending::Damage(DamageHit {
            target,
            source: actor_id,
            amount,
            damage_type,
            critical: false,
            roll: None,
        }));
    }
}

impl Resolver<'_, '_> {
    /// A failed save against a non-lethal execution (`S-EXEC-1`): the victim is knocked
    /// unconscious, its hit points untouched.
    fn knock_out(&mut self, target: Entity) {
        let round = self.round();
        if let Ok(mut unit) = self.units.get_mut(target)
            && unit.standing.status.on_field()
        {
            *unit.standing.status = Status::Unconscious;
            let id = unit.standing.id.0.clone();
            self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: Status::Unconscious.into() }));
        }
    }

    /// A ranged execution's roll bonus and the number it must reach (`S-EXEC-1`): the attack
    /// roll's bonus, +`point_blank_bonus` within `point_blank`, else +`normal_range_bonus` within
    /// the weapon's normal range, against `base_defense`, the victim's AC ignored. `None` for a
    /// melee execution, which simply hits.
    fn ranged_execution_aim(
        &self,
        attacker: &UnitView,
        target: &UnitView,
        weapon: &Weapon,
        rules: &ExecutionRules,
    ) -> Option<(i32, i32)> {
        let ranged = rules.ranged.as_ref().filter(|_| weapon.is_ranged())?;
        let distance = self.battlefield.line_distance(attacker.standing.zone.0, target.standing.zone.0);
        let percent = self.ruleset.attack.situational.as_ref().map_or(100, |rules| rules.normal_range_percent);
        let normal = weapon.range.unwrap_or(0).saturating_mul(percent) / 100;
        let bonus = if distance <= ranged.point_blank {
            ranged.point_blank_bonus
        } else if distance <= normal {
            ranged.normal_range_bonus
        } else {
            0
        };
        let tn = self.ruleset.attack.base_defense;
        Some((actions::roll_bonus(&self.ruleset, attacker, weapon, false) + bonus, tn))
    }
}
