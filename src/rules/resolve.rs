//! Resolve stage (`W-INIT-3`, `W-HIT-1`, `W-DMG-*`, `W-CRIT-*`, `W-DECL-3/4`, `W-WOUND-*`):
//! actions resolve from one end of the count to the other; equal counts are simultaneous, so
//! their damage lands together and two units can take each other down.

use std::sync::Arc;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::CombatSystems;
use super::actions::{self, ActionContext};
use super::components::*;
use super::damage::{self, DamageTaken};
use super::declare::has_passed;
use super::dice::{CombatRng, DiceRoll};
use super::equipment::{Attribute, DamageType, Effect, InjuryEffect, InjuryTables, Weapon};
use super::initiative::{arrive, roll_base_initiative};
use super::log::{CombatLog, InjuryRoll, LogEvent};
use super::ruleset::{InitiativeOrder, Ruleset};
use super::state::{CombatPhase, CombatState, DamageDealt, DeclarationQueue, Intimidated, Slot, in_phase};
use super::unit::{self, Unit, UnitItem};
use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, resolve_round.in_set(CombatSystems::Resolve).run_if(in_phase(CombatPhase::Resolve)));
}

/// Cause names for damage that no unit dealt.
pub(super) const EXERTION: &str = "exertion";

/// Everything the resolve stage reads and changes.
#[derive(SystemParam)]
pub(super) struct Resolver<'w, 's> {
    state: ResMut<'w, CombatState>,
    queue: ResMut<'w, DeclarationQueue>,
    log: ResMut<'w, CombatLog>,
    rng: ResMut<'w, CombatRng>,
    index: ResMut<'w, ZoneIndex>,
    units: Query<'w, 's, Unit>,
    ids: Query<'w, 's, &'static UnitId>,
    reinforcements: Query<'w, 's, (Entity, &'static Reinforcement)>,
    groups: Query<'w, 's, &'static InitiativeGroup>,
    ruleset: Res<'w, Ruleset>,
    battlefield: Res<'w, Battlefield>,
    tables: Res<'w, InjuryTables>,
    dealt: MessageWriter<'w, DamageDealt>,
    intimidated: MessageWriter<'w, Intimidated>,
}

/// Something a simultaneous group does to a unit, applied once the whole group has acted.
#[derive(Clone, Debug)]
enum Pending {
    Damage(DamageHit),
    Restore { target: Entity, source: Arc<str>, roll: DiceRoll, wounds: bool },
    Stabilize { target: Entity },
}

/// Resolves the round's schedule, pausing for reinforcements that arrive mid-round.
fn resolve_round(mut battle: Resolver) {
    loop {
        let next = battle.state.schedule.get(battle.state.cursor).map(|slot| slot.initiative);
        if battle.bring_in_mid_round_arrivals(next) {
            return;
        }
        let Some(count) = next else { break };
        let start = battle.state.cursor;
        let end = start + battle.state.schedule[start..].iter().take_while(|slot| slot.initiative == count).count();
        battle.state.count = Some(count);
        let group: Vec<Slot> = battle.state.schedule[start..end].to_vec();
        battle.resolve_group(&group);
        battle.state.cursor = end;
    }
    battle.state.phase = CombatPhase::Morale;
}

impl Resolver<'_, '_> {
    fn round(&self) -> u32 {
        self.state.round
    }

    fn ctx(&self) -> ActionContext<'_> {
        ActionContext {
            ruleset: &self.ruleset,
            battlefield: &self.battlefield,
            index: &self.index,
            round: self.state.round,
        }
    }

    fn id(&self, unit: Entity) -> Arc<str> {
        self.ids.get(unit).map(|id| id.0.clone()).unwrap_or_else(|_| "?".into())
    }

    /// Brings in reinforcements whose count has passed before the group at `next` (or at the
    /// round's end); they roll and declare at once. Returns whether the stage must wait for them.
    fn bring_in_mid_round_arrivals(&mut self, next: Option<i32>) -> bool {
        let round = self.round();
        let order = self.ruleset.initiative.order;
        let due_at = |at: i32| next.is_none_or(|next| has_passed(order, at, next) && at != next);
        let mut due: Vec<(i32, Entity)> = self
            .reinforcements
            .iter()
            .filter_map(|(entity, arrival)| {
                let at = arrival.at_initiative?;
                (arrival.round == round && due_at(at)).then_some((at, entity))
            })
            .filter(|&(_, entity)| self.units.get(entity).is_ok_and(|view| *view.status == Status::Reserve))
            .collect();
        let first = match order {
            InitiativeOrder::LowestFirst => due.iter().map(|&(at, _)| at).min(),
            InitiativeOrder::HighestFirst => due.iter().map(|&(at, _)| at).max(),
        };
        let Some(first) = first else {
            return false;
        };
        due.retain(|&(at, _)| at == first);
        let entities: Vec<Entity> = due.into_iter().map(|(_, entity)| entity).collect();
        let mut arrivals: Vec<UnitItem> =
            self.units.iter_mut().filter(|unit| entities.contains(&unit.entity)).collect();
        for unit in arrivals.iter_mut() {
            arrive(unit, &mut self.index, &self.battlefield, &mut self.log, round);
        }
        roll_base_initiative(&self.ruleset, &mut self.rng, &mut self.log, round, &mut arrivals, &self.groups);
        let mut late: Vec<(u32, Entity)> = arrivals
            .iter_mut()
            .filter(|unit| !unit.surprised)
            .map(|unit| {
                *unit.declared = Declared::default();
                (unit.order.0, unit.entity)
            })
            .collect();
        late.sort_unstable();
        self.state.count = Some(first);
        if late.is_empty() {
            return false;
        }
        let secret = self.queue.secret;
        self.queue.begin(late.into_iter().map(|(_, entity)| entity).collect(), secret, true);
        self.state.phase = CombatPhase::Declare;
        true
    }

    /// One initiative count: moves, then actions against the state after the moves, then all
    /// damage at once.
    fn resolve_group(&mut self, group: &[Slot]) {
        let round = self.round();
        let able: Vec<bool> = group
            .iter()
            .map(|slot| {
                self.units
                    .get(slot.unit)
                    .is_ok_and(|view| unit::may_act(*view.status, view.conditions, view.surprised, round))
            })
            .collect();
        let mut interrupted = vec![false; group.len()];
        for (at, slot) in group.iter().enumerate() {
            if !able[at] {
                let id = self.id(slot.unit);
                self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "cannot_act" });
                continue;
            }
            if let Some(to) = slot.action.move_to {
                interrupted[at] = !self.perform_move(slot, to);
            }
        }
        let mut pending = Vec::new();
        for (at, slot) in group.iter().enumerate() {
            if able[at] && !interrupted[at] {
                self.perform_action(slot, &mut pending);
            }
        }
        for effect in pending {
            self.apply(effect);
        }
    }

    /// Moves a unit zone by zone; enemies whose threat range it enters may Reposte at once.
    /// Returns whether it is still able to act.
    fn perform_move(&mut self, slot: &Slot, to: ZoneIdx) -> bool {
        let round = self.round();
        let Ok(view) = self.units.get(slot.unit) else {
            return false;
        };
        let start = view.zone.0;
        let side = *view.side;
        let status_before = *view.status;
        let path = self.battlefield.path(start, to);
        let mut here = start;
        for step in path {
            if let Some(capacity) = self.battlefield.zone(step).capacity
                && self.index.count(step) as u32 >= capacity
            {
                let id = self.id(slot.unit);
                self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "zone_full" });
                break;
            }
            let before =
                if slot.action.kind == ActionKind::DefensiveAttack || !self.ruleset.reposte.when_threat_range_entered {
                    Vec::new()
                } else {
                    actions::threateners_of(self.ctx(), here, side, &self.units)
                };
            self.index.relocate(slot.unit, here, step);
            if let Ok(mut unit) = self.units.get_mut(slot.unit) {
                unit.zone.0 = step;
            }
            let (from_id, to_id) = (self.battlefield.zone(here).id.clone(), self.battlefield.zone(step).id.clone());
            let id = self.id(slot.unit);
            self.log.record(round, || LogEvent::Moved { unit: id, from: from_id, to: to_id });
            here = step;
            if slot.action.kind == ActionKind::DefensiveAttack || !self.ruleset.reposte.when_threat_range_entered {
                continue;
            }
            let provoked: Vec<Entity> = actions::threateners_of(self.ctx(), step, side, &self.units)
                .into_iter()
                .filter(|&other| self.units.get(other).is_ok_and(|view| actions::can_react(&view)))
                .filter(|other| !before.contains(other))
                .collect();
            for threatener in provoked {
                if !self.units.get(slot.unit).is_ok_and(|view| view.status.on_field()) {
                    break;
                }
                if let Ok(mut other) = self.units.get_mut(threatener) {
                    other.reactions.0 = other.reactions.0.saturating_sub(1);
                }
                let mut reaction = Vec::new();
                self.attack(threatener, slot.unit, slot.initiative, "reposte", None, &mut reaction);
                for effect in reaction {
                    self.apply(effect);
                }
            }
            if !self.units.get(slot.unit).is_ok_and(|view| *view.status == status_before) {
                return false;
            }
        }
        true
    }

    /// Carries out one declared action, queueing its effects.
    fn perform_action(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        let round = self.round();
        let actor = slot.unit;
        let Some(target) = slot.action.target.or(match slot.action.kind {
            ActionKind::FullDefense | ActionKind::Move | ActionKind::Hold | ActionKind::DefensiveAttack => None,
            _ => Some(Entity::PLACEHOLDER),
        }) else {
            self.pay_for_exertion(slot, pending);
            return;
        };
        let is_strike = matches!(slot.action.kind, ActionKind::Attack | ActionKind::DefensiveAttack);
        if !is_strike && !self.target_in_reach(slot, target) {
            let id = self.id(actor);
            self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "target_out_of_reach" });
            return;
        }
        match slot.action.kind {
            ActionKind::Attack | ActionKind::DefensiveAttack => {
                match self.attack(actor, target, slot.initiative, "normal", None, pending) {
                    None => {
                        let id = self.id(actor);
                        self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "target_out_of_reach" });
                        return;
                    }
                    // A target in full defense answers a melee attack with a Reposte (`W-DECL-3`).
                    Some(true) => {
                        if let Ok(mut other) = self.units.get_mut(target) {
                            other.reactions.0 = other.reactions.0.saturating_sub(1);
                        }
                        self.attack(target, actor, slot.initiative, "reposte", None, pending);
                    }
                    Some(false) => {}
                }
            }
            ActionKind::Cast(at) => self.cast(actor, at, target, pending),
            ActionKind::UseItem(at) => self.use_item(actor, at, target, pending),
            ActionKind::Throw(at) => {
                let Some(weapon) = self.take_item(actor, at).and_then(|item| item.as_thrown_weapon()) else {
                    return;
                };
                self.attack(actor, target, slot.initiative, "thrown", Some(weapon), pending);
            }
            ActionKind::Stabilize => self.stabilize(actor, target, pending),
            ActionKind::Intimidate => self.intimidate(actor, target),
            ActionKind::FullDefense | ActionKind::Move | ActionKind::Hold => {}
        }
        self.pay_for_exertion(slot, pending);
    }

    /// Whether the declared target is still there and in reach after the move.
    fn target_in_reach(&self, slot: &Slot, target: Entity) -> bool {
        let (Ok(actor), Ok(other)) = (self.units.get(slot.unit), self.units.get(target)) else {
            return false;
        };
        if !other.status.on_field() {
            return false;
        }
        let distance = self.battlefield.distance(actor.zone.0, other.zone.0);
        let range = match slot.action.kind {
            ActionKind::Attack | ActionKind::DefensiveAttack => {
                actions::weapon_range(actor.loadout.usable_weapon(actor.conditions).1)
            }
            ActionKind::Cast(at) => actor.spells.0.get(at).map_or(0, |(_, spell)| spell.range),
            ActionKind::UseItem(at) | ActionKind::Throw(at) => {
                actor.inventory.0.get(at).map_or(0, |stack| stack.item.range)
            }
            ActionKind::Intimidate => 1,
            _ => 0,
        };
        distance <= range
    }

    /// Incapacitated and dying units pay Wound Points for exertion (`W-WOUND-1`, `W-WOUND-4`).
    fn pay_for_exertion(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        if !slot.action.kind.is_exertion() {
            return;
        }
        let cost = self.ruleset.wounds.action_cost_when_down;
        let free = self.ruleset.wounds.stabilised_free_actions;
        let Ok(mut unit) = self.units.get_mut(slot.unit) else {
            return;
        };
        unit.record.actions_taken += 1;
        if !unit.status.is_down() || (unit.conditions.stabilised && unit.record.actions_taken <= free) {
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

    /// An attack roll against Defense; a hit queues its damage (`W-HIT-1`, `W-CRIT-1`).
    fn attack(
        &mut self,
        attacker: Entity,
        target: Entity,
        initiative: i32,
        kind: &'static str,
        thrown: Option<Weapon>,
        pending: &mut Vec<Pending>,
    ) -> Option<bool> {
        let round = self.round();
        let (Ok(a), Ok(t)) = (self.units.get(attacker), self.units.get(target)) else {
            return None;
        };
        let is_thrown = thrown.is_some();
        let weapon = thrown.unwrap_or_else(|| a.loadout.usable_weapon(a.conditions).1.clone());
        let distance = self.battlefield.distance(a.zone.0, t.zone.0);
        if !t.status.on_field() || distance > actions::weapon_range(&weapon) {
            return None;
        }
        let target_weapon = t.loadout.usable_weapon(t.conditions).1;
        let reposte = kind == "normal"
            && self.ruleset.reposte.when_attacked_in_full_defense
            && t.conditions.full_defense
            && actions::can_react(&t)
            && unit::is_fighting(*t.status, t.conditions)
            && !weapon.is_ranged()
            && !target_weapon.is_ranged()
            && target_weapon.reach >= distance;
        let bonus = actions::attack_bonus(&a, &weapon);
        let damage_dice = actions::damage_dice(&self.ruleset, &a, &weapon, is_thrown);
        let defense = unit::defense_score(&self.ruleset, t.attributes, t.defense, t.conditions);
        let armour = t.armour.0;
        let (attacker_id, target_id) = (a.id.0.clone(), t.id.0.clone());
        let roll = self.rng.roll(self.ruleset.attack.die.plus(bonus));
        let natural = roll.natural().unwrap_or(0);
        let critical_natural = natural >= weapon.critical_natural.unwrap_or(self.ruleset.attack.critical_natural);
        let hit = natural > self.ruleset.attack.fumble_natural
            && (roll.total >= defense || (critical_natural && self.ruleset.attack.critical_always_hits));
        let critical = hit && critical_natural;
        let damage_roll = hit.then(|| self.rng.roll(damage_dice));
        if let Some(rolled) = &damage_roll {
            let multiplier = if critical { weapon.critical_multiplier } else { 1 };
            let amount = damage::damage_after_armour(&self.ruleset, rolled.total, multiplier, armour);
            // The attack line carries the damage roll.
            pending.push(Pending::Damage(DamageHit {
                target,
                source: attacker_id.clone(),
                amount,
                damage_type: weapon.damage_type,
                critical,
                roll: None,
            }));
        }
        let total = roll.total;
        self.log.record(round, || LogEvent::Attack {
            attacker: attacker_id,
            target: target_id,
            initiative,
            roll,
            total,
            defense,
            hit,
            critical,
            kind,
            damage_roll,
        });
        Some(reposte)
    }

    fn cast(&mut self, caster: Entity, at: usize, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        let Ok(mut unit) = self.units.get_mut(caster) else {
            return;
        };
        let Some((name, spell)) = unit.spells.0.get(at).cloned() else {
            return;
        };
        // Mana first; Stress pays the rest 1:1 (`W-STRESS-1`).
        let mana_spent = spell.mana.min(unit.mana.current).max(0);
        let stress_spent = if self.ruleset.spells.stress_pays_for_mana {
            (spell.mana - mana_spent).min(unit.stress.current).max(0)
        } else {
            0
        };
        unit.mana.current -= mana_spent;
        unit.stress.current -= stress_spent;
        let skill = unit.skills.spellcasting;
        let caster_id = unit.id.0.clone();
        let roll = self.rng.roll(self.ruleset.spells.casting_die.plus(skill));
        let paid = mana_spent + stress_spent >= spell.mana;
        let success = paid && roll.total >= spell.tn;
        let target_id = self.id(target);
        self.log.record(round, || LogEvent::Cast {
            unit: caster_id.clone(),
            spell: name,
            target: Some(target_id),
            roll,
            tn: spell.tn,
            success,
            mana_spent,
            stress_spent,
        });
        if success {
            self.queue_effect(&spell.effect, caster_id, target, !self.ruleset.spells.armour_stops_spells, pending);
        }
    }

    fn use_item(&mut self, user: Entity, at: usize, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        let Some(item) = self.take_item(user, at) else {
            return;
        };
        let (user_id, name) = (
            self.id(user),
            self.units
                .get(user)
                .ok()
                .and_then(|view| view.inventory.0.get(at).map(|stack| stack.name.clone()))
                .unwrap_or_else(|| "item".into()),
        );
        let target_id = self.id(target);
        self.log.record(round, || LogEvent::ItemUsed { unit: user_id.clone(), item: name, target: Some(target_id) });
        self.queue_effect(&item.effect, user_id, target, true, pending);
    }

    /// Takes one item from the stack at `at`, if any is left.
    fn take_item(&mut self, user: Entity, at: usize) -> Option<super::equipment::Item> {
        let mut unit = self.units.get_mut(user).ok()?;
        let stack = unit.inventory.0.get_mut(at).filter(|stack| stack.count > 0)?;
        stack.count -= 1;
        Some(stack.item.clone())
    }

    fn queue_effect(
        &mut self,
        effect: &Effect,
        source: Arc<str>,
        target: Entity,
        ignore_armour: bool,
        pending: &mut Vec<Pending>,
    ) {
        match *effect {
            Effect::Damage { dice, damage_type } => {
                let roll = self.rng.roll(dice);
                let armour = if ignore_armour { 0 } else { self.units.get(target).map_or(0, |view| view.armour.0) };
                let amount = damage::damage_after_armour(&self.ruleset, roll.total, 1, armour);
                pending.push(Pending::Damage(DamageHit {
                    target,
                    source,
                    amount,
                    damage_type,
                    critical: false,
                    roll: Some(roll),
                }));
            }
            Effect::RestoreStress { dice } => {
                pending.push(Pending::Restore { target, source, roll: self.rng.roll(dice), wounds: false })
            }
            Effect::RestoreWounds { dice } => {
                pending.push(Pending::Restore { target, source, roll: self.rng.roll(dice), wounds: true })
            }
        }
    }

    /// Heal check vs 10 + the highest injury (`W-WOUND-4`).
    fn stabilize(&mut self, healer: Entity, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        let (Ok(h), Ok(t)) = (self.units.get(healer), self.units.get(target)) else {
            return;
        };
        let tn = self.ruleset.wounds.stabilise_tn_base + t.wounds.highest_injury();
        let skill = h.skills.heal;
        let (healer_id, target_id) = (h.id.0.clone(), t.id.0.clone());
        let roll = self.rng.roll(self.ruleset.wounds.heal_die.plus(skill));
        let success = roll.total >= tn;
        self.log.record(round, || LogEvent::Stabilise { unit: healer_id, target: target_id, roll, tn, success });
        if success {
            pending.push(Pending::Stabilize { target });
        }
    }

    fn intimidate(&mut self, actor: Entity, target: Entity) {
        let round = self.round();
        let (Ok(a), Ok(t)) = (self.units.get(actor), self.units.get(target)) else {
            return;
        };
        let skill = a.skills.intimidation;
        let (actor_id, target_id) = (a.id.0.clone(), t.id.0.clone());
        let roll = self.rng.roll(self.ruleset.morale.intimidation_die.plus(skill));
        self.intimidated.write(Intimidated { unit: target, result: roll.total });
        self.log.record(round, || LogEvent::Intimidation { unit: actor_id, target: target_id, roll });
    }

    fn apply(&mut self, effect: Pending) {
        match effect {
            Pending::Damage(hit) => {
                apply_damage_to(
                    &mut self.units,
                    &mut self.index,
                    &mut self.log,
                    &mut self.rng,
                    &self.ruleset,
                    &self.tables,
                    &mut self.dealt,
                    self.state.round,
                    hit,
                );
            }
            Pending::Restore { target, source, roll, wounds } => self.restore(target, source, roll, wounds),
            Pending::Stabilize { target } => {
                let round = self.round();
                let Ok(mut unit) = self.units.get_mut(target) else {
                    return;
                };
                if unit.status.is_down() && !unit.conditions.stabilised {
                    unit.conditions.stabilised = true;
                    let id = unit.id.0.clone();
                    self.log.record(round, || LogEvent::Status { unit: id, status: "stabilized" });
                }
            }
        }
    }

    fn restore(&mut self, target: Entity, source: Arc<str>, roll: DiceRoll, wounds: bool) {
        let round = self.round();
        let Ok(mut unit) = self.units.get_mut(target) else {
            return;
        };
        if !unit.status.on_field() {
            return;
        }
        let amount = roll.total.max(0);
        let (mut stress_restored, mut wounds_restored) = (0, 0);
        if wounds {
            let before = unit.wounds.current;
            unit.wounds.current = before.saturating_add(amount).min(unit.wounds.max.max(before));
            wounds_restored = unit.wounds.current - before;
        } else {
            let before = unit.stress.current;
            unit.stress.current = before.saturating_add(amount).min(unit.stress.max.max(before));
            stress_restored = unit.stress.current - before;
        }
        let id = unit.id.0.clone();
        let (stress, wounds_now) = (unit.stress.current, unit.wounds.current);
        self.log.record(round, || LogEvent::Healed {
            unit: id.clone(),
            source,
            roll,
            stress_restored,
            wounds_restored,
            stress,
            wounds: wounds_now,
        });
        let strength = unit.attributes.score(Attribute::Strength);
        let status = damage::status_for_wounds(*unit.status, wounds_now, strength);
        if status != *unit.status {
            *unit.status = status;
            if status == Status::Active {
                unit.conditions.stabilised = false;
            }
            self.log.record(round, || LogEvent::Status { unit: id, status: status.log_name() });
        }
    }
}

/// One hit to apply.
#[derive(Clone, Debug)]
pub(super) struct DamageHit {
    /// Who takes it.
    pub target: Entity,
    /// Who or what dealt it.
    pub source: Arc<str>,
    /// Amount after Armour.
    pub amount: i32,
    /// Type.
    pub damage_type: DamageType,
    /// From a critical hit.
    pub critical: bool,
    /// The damage roll, when no other line of the log carries it.
    pub roll: Option<DiceRoll>,
}

/// Applies a hit: Stress then Wounds, the `damage` line, a combat injury roll after a critical,
/// and the new status. Shared by resolution and the end of round (dying, hazards).
#[expect(clippy::too_many_arguments, reason = "applying damage touches the unit, the index, the log and the dice")]
pub(super) fn apply_damage_to(
    units: &mut Query<Unit>,
    index: &mut ZoneIndex,
    log: &mut CombatLog,
    rng: &mut CombatRng,
    ruleset: &Ruleset,
    tables: &InjuryTables,
    dealt: &mut MessageWriter<DamageDealt>,
    round: u32,
    hit: DamageHit,
) -> DamageTaken {
    let Ok(mut unit) = units.get_mut(hit.target) else {
        return DamageTaken::default();
    };
    if !unit.status.on_field() {
        return DamageTaken::default();
    }
    let unit = &mut unit;
    let bypass = damage::bypasses_stress(ruleset, hit.damage_type, hit.critical);
    let taken = damage::apply_damage(&mut unit.stress, &mut unit.wounds, hit.amount, hit.damage_type, bypass, round);
    let id = unit.id.0.clone();
    let (stress, wounds) = (unit.stress.current, unit.wounds.current);
    log.record(round, || LogEvent::Damage {
        unit: id.clone(),
        source: hit.source.clone(),
        amount: hit.amount,
        damage_type: hit.damage_type.as_str(),
        critical: hit.critical,
        stress_lost: taken.stress_lost,
        wounds_lost: taken.wounds_lost,
        stress,
        wounds,
        roll: hit.roll.clone(),
    });
    dealt.write(DamageDealt {
        unit: hit.target,
        round,
        wounds_lost: taken.wounds_lost,
        stress_lost: taken.stress_lost,
    });
    // A fresh wound undoes stabilising; the bleeding and strain of the down do not.
    if taken.wounds_lost > 0 && &*hit.source != EXERTION && hit.damage_type != DamageType::Bleeding {
        unit.conditions.stabilised = false;
    }
    if hit.critical && taken.wounds_lost > 0 && ruleset.injuries.enabled {
        roll_combat_injury(unit, log, rng, ruleset, tables, round, hit.amount, hit.damage_type);
    }
    let strength = unit.attributes.score(Attribute::Strength);
    let status = damage::status_for_wounds(*unit.status, unit.wounds.current, strength);
    if status != *unit.status {
        *unit.status = status;
        if status == Status::Dead {
            index.remove(hit.target, unit.zone.0);
        }
        log.record(round, || LogEvent::Status { unit: id, status: status.log_name() });
    }
    taken
}

/// d% at or under the damage dealt: roll on the damage type's table and apply it (`W-CRIT-2`).
#[expect(clippy::too_many_arguments, reason = "an injury roll reads the hit, the tables and the dice")]
fn roll_combat_injury(
    unit: &mut UnitItem,
    log: &mut CombatLog,
    rng: &mut CombatRng,
    ruleset: &Ruleset,
    tables: &InjuryTables,
    round: u32,
    damage: i32,
    damage_type: DamageType,
) {
    let chance = rng.roll(ruleset.injuries.chance_die);
    let id = unit.id.0.clone();
    if chance.total > damage {
        log.record(round, || LogEvent::Injury {
            unit: id,
            chance,
            damage,
            roll: None,
            table: damage_type.as_str(),
            injury: None,
            effects: Vec::new(),
        });
        return;
    }
    let roll = rng.roll(ruleset.injuries.table_die);
    let row = tables.0.get(&damage_type).and_then(|table| table.row(roll.total)).cloned();
    let mut effect_rolls = Vec::new();
    if let Some(row) = &row {
        for effect in &row.effects {
            apply_injury_effect(unit, effect, rng, ruleset, round, &mut effect_rolls);
        }
        if let Some(last) = unit.wounds.injuries.last_mut() {
            last.combat_injury = Some(row.name.clone());
        }
    }
    let name = row.map(|row| row.name);
    log.record(round, || LogEvent::Injury {
        unit: id,
        chance,
        damage,
        roll: Some(roll),
        table: damage_type.as_str(),
        injury: name,
        effects: effect_rolls,
    });
}

fn apply_injury_effect(
    unit: &mut UnitItem,
    effect: &InjuryEffect,
    rng: &mut CombatRng,
    ruleset: &Ruleset,
    round: u32,
    rolls: &mut Vec<InjuryRoll>,
) {
    let conditions = &mut unit.conditions;
    match effect {
        InjuryEffect::AttributeDamage { attributes, dice } => {
            let roll = rng.roll(*dice);
            for attribute in attributes {
                let score = &mut unit.attributes.0[attribute.index()];
                *score = (*score - roll.total).max(0);
            }
            let what = attributes
                .iter()
                .map(|attribute| format!("{attribute:?}").to_lowercase())
                .collect::<Vec<_>>()
                .join("+");
            rolls.push(InjuryRoll { what, roll });
        }
        InjuryEffect::HalfSpeed => conditions.slowed = true,
        InjuryEffect::Prone => conditions.prone = true,
        InjuryEffect::ArmUseless => {
            let roll = rng.roll(ruleset.injuries.arm_die);
            let main = roll.total <= (ruleset.injuries.arm_die.max() / 2).max(1);
            if main {
                conditions.main_arm_useless = true;
            } else {
                conditions.off_arm_useless = true;
            }
            rolls.push(InjuryRoll { what: if main { "main_arm".into() } else { "off_arm".into() }, roll });
        }
        InjuryEffect::ActsEveryOtherRound => conditions.acts_every_other_round = Some(round),
        InjuryEffect::Paralysed => conditions.paralysed = true,
        InjuryEffect::Suffocating => conditions.suffocating = true,
        InjuryEffect::CheckPenalty { check, amount } => conditions.check_penalties.push((check.clone(), *amount)),
        InjuryEffect::Condition(note) => conditions.notes.push(note.clone()),
    }
}
