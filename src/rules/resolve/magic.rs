//! Spells, items and other help (`A-SUMM-1`, `S-SPEC-1`, `W-STRESS-1`, `W-WOUND-4`,
//! `A-WOUND-1`): casting, summoning, joining a swarm, using and throwing items, the effects they
//! queue, stabilising and healing, and intimidation.

use crate::rules::log::LostReason;
use crate::rules::log::StatusChange;
use std::sync::Arc;

use bevy::prelude::*;

use super::{DamageHit, Pending, Resolver};
use crate::battlefield::ZoneIdx;
use crate::rules::components::*;
use crate::rules::damage;
use crate::rules::dice::DiceRoll;
use crate::rules::equipment::{Attribute, CastingTime, Effect, Item};
use crate::rules::initiative::{arrive, roll_base_initiative};
use crate::rules::log::LogEvent;
use crate::rules::log::line;
use crate::rules::ruleset::Pools;
use crate::rules::state::{CastInProgress, Intimidated};
use crate::rules::unit;

impl Resolver<'_, '_> {
    /// Calls `summoner`'s next waiting summoned unit to the nearest free spot, if a summoning slot
    /// is free (`A-SUMM-1`); it is summoning-sick through the end of the next round.
    pub(super) fn summon(&mut self, summoner: Entity) {
        /// How far from its summoner a summoned unit may appear.
        const SUMMON_RANGE: u32 = 3;
        let round = self.round();
        let slots = self.slots.get(summoner).map_or(0, |slots| slots.0) as usize;
        let mine: Vec<Entity> = self
            .summoned
            .iter()
            .filter(|(_, summoned)| summoned.summoner == summoner)
            .map(|(entity, _)| entity)
            .collect();
        let active =
            mine.iter().filter(|&&unit| self.units.get(unit).is_ok_and(|view| view.standing.status.on_field())).count();
        let waiting = mine
            .iter()
            .copied()
            .filter(|&unit| self.units.get(unit).is_ok_and(|view| *view.standing.status == Status::Reserve))
            .min_by_key(|&unit| self.units.get(unit).map_or(u32::MAX, |view| view.standing.order.0));
        let (Some(called), true) = (waiting, active < slots) else {
            self.lose(summoner, LostReason::NoSummoningSlot);
            return;
        };
        let Some(origin) = self.unit(summoner, "summoning").map(|view| view.standing.zone.0) else {
            return;
        };
        let spot = self.battlefield.within(origin, SUMMON_RANGE).find(|&zone| {
            zone != origin
                && self
                    .battlefield
                    .zone(zone)
                    .capacity
                    .is_none_or(|capacity| (self.index.count(zone) as u32) < capacity)
                || (zone == origin && self.battlefield.zone(zone).capacity.is_none())
        });
        let Some(spot) = spot else {
            self.lose(summoner, LostReason::ZoneFull);
            return;
        };
        let on_turn = self.ruleset.turns.order.on_turn();
        let Some(mut unit) = self.faults.found(self.units.get_mut(called), called, "summoning") else {
            return;
        };
        unit.standing.zone.0 = spot;
        unit.round.conditions.sick_until = Some(round + 1);
        arrive(&mut unit, &mut self.index, &self.battlefield, &mut self.log, round);
        if !on_turn {
            let mut arrivals = vec![unit];
            roll_base_initiative(&self.ruleset, &mut self.rng, &mut self.log, round, &mut arrivals, &self.groups);
        }
    }

    /// Creates up to `count` new units of `creature` on `summoner`'s side, one per free summoning
    /// slot, each in the summoner's zone or the nearest one with room (`A-SUMM-1`). They arrive
    /// sick through the end of the next round, and roll their initiative as the next round starts.
    /// `thrall`: they are kept after the battle if the summoner pays their cost.
    pub(super) fn conjure(&mut self, summoner: Entity, creature: &str, (count, thrall): (u32, bool)) {
        let round = self.round();
        let Some(view) = self.unit(summoner, "conjuring") else {
            return;
        };
        let (side, origin, controller) = (view.standing.side.0, view.standing.zone.0, *view.standing.controller);
        let free = self.free_summoning_slots(summoner);
        let spawner = self.conjurable.as_ref().and_then(|conjurable| conjurable.spawner(creature, side));
        // A forward-model world (the search AI's) has no spawners: it cannot foresee new units.
        let (Some(spawner), true) = (spawner, free > 0) else {
            self.lose(summoner, LostReason::NoSummoningSlot);
            return;
        };
        for _ in 0..count.min(free) {
            let Some(spot) = self.spot_with_room(origin) else {
                self.lose(summoner, LostReason::ZoneFull);
                return;
            };
            let id = self.fresh_id(creature);
            let Some(conjurable) = self.conjurable.as_mut() else {
                return;
            };
            let order = conjurable.next_order;
            conjurable.next_order += 1;
            let sick_until = round + 1;
            let call = Conjuring { id: id.clone(), zone: spot, order, controller, summoner, sick_until, thrall };
            let entity = spawner(&mut self.commands, call);
            self.units.touch(entity);
            conjurable.made.push((id.clone(), summoner, entity));
            self.index.insert(entity, spot);
            let zone = self.battlefield.place(spot);
            self.log.record(round, || LogEvent::Arrived(line::Arrived { unit: id, zone }));
        }
    }

    /// How many more summoned units `summoner` may have on the field: listed ones called and
    /// conjured ones, against its summoning slots (`A-SUMM-1`).
    fn free_summoning_slots(&self, summoner: Entity) -> u32 {
        let slots = self.slots.get(summoner).map_or(0, |slots| slots.0);
        let mut mine: Vec<Entity> = self
            .summoned
            .iter()
            .filter(|(_, summoned)| summoned.summoner == summoner)
            .map(|(entity, _)| entity)
            .collect();
        if let Some(conjurable) = &self.conjurable {
            mine.extend(conjurable.made.iter().filter(|(_, by, _)| *by == summoner).map(|&(_, _, unit)| unit));
        }
        mine.sort_unstable();
        mine.dedup();
        // A unit made this stage is not in the query yet, and is on the field.
        let active = mine.iter().filter(|&&unit| self.units.get(unit).is_err() || self.on_field(unit)).count();
        slots.saturating_sub(active as u32)
    }

    fn on_field(&self, unit: Entity) -> bool {
        self.units.get(unit).is_ok_and(|view| view.standing.status.on_field())
    }

    /// `origin` if it has room, else the nearest place within reach of it that has.
    fn spot_with_room(&self, origin: ZoneIdx) -> Option<ZoneIdx> {
        /// How far from its summoner a conjured unit may appear.
        const CONJURE_RANGE: u32 = 3;
        let has_room = |zone: ZoneIdx| {
            self.battlefield.zone(zone).capacity.is_none_or(|capacity| (self.index.count(zone) as u32) < capacity)
        };
        std::iter::once(origin).chain(self.battlefield.within(origin, CONJURE_RANGE)).find(|&zone| has_room(zone))
    }

    /// `creature-1`, `creature-2`, ...: the first such id no unit of the battle has.
    fn fresh_id(&self, creature: &str) -> Arc<str> {
        let made = self.conjurable.as_ref().map(|conjurable| conjurable.made.as_slice()).unwrap_or_default();
        let taken =
            |id: &str| self.ids.iter().any(|taken| &*taken.0 == id) || made.iter().any(|(made, _, _)| &**made == id);
        (1..)
            .map(|count| format!("{creature}-{count}"))
            .find(|candidate| !taken(candidate))
            .map(Arc::from)
            .unwrap_or_else(|| Arc::from(creature))
    }

    /// Joins a swarm on `target` (`S-SPEC-1`), unless as many of the side's units as the
    /// ruleset allows have swarmed it this round: then the action is lost (`swarm_full`).
    pub(super) fn swarm(&mut self, actor: Entity, target: Entity) {
        let Some(view) = self.unit(actor, "joining a swarm") else {
            return;
        };
        let side = view.standing.side.0;
        if self.state.swarm_full(&self.ruleset, target, side) {
            self.lose(actor, LostReason::SwarmFull);
            return;
        }
        match self.state.swarm_assailants.iter_mut().find(|(unit, by, _)| *unit == target && *by == side) {
            Some((_, _, count)) => *count += 1,
            None => self.state.swarm_assailants.push((target, side, 1)),
        }
        match self.state.swarms.iter_mut().find(|(unit, by, _)| *unit == target && *by == side) {
            Some((_, _, count)) => *count += 1,
            None => self.state.swarms.push((target, side, 1)),
        }
    }

    /// Casts spell `at` of `caster` at `target`: at once, or begun now and completed later in
    /// the round when the ruleset counts casting times (`C-CAST-1`).
    pub(super) fn cast(&mut self, caster: Entity, at: usize, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        let completing = self.take_due_cast(caster);
        let Some(unit) = self.faults.found(self.units.get(caster), caster, "casting") else {
            return;
        };
        // The declaration checked the spell exists; a caster's spells never change in battle.
        let Some((name, spell)) = unit.magic.spells.0.get(at).cloned() else {
            return;
        };
        let (id, damage_taken) = (unit.standing.id.0.clone(), unit.round.record.damage_taken);
        if self.ruleset.spells.damage_disrupts && damage_taken > 0 {
            // Struck while casting, the spell is lost and its Mana spent with it; hurt before
            // starting, the caster simply cannot cast.
            if completing {
                self.pay_for_spell(caster, spell.mana);
            }
            self.log.record(round, || {
                LogEvent::SpellDisrupted(line::SpellDisrupted { unit: id, spell: name, damage_taken })
            });
            return;
        }
        if !completing && self.begins_casting(spell.casting_time) {
            self.begin_casting(caster, at, target, spell.casting_time);
            return;
        }
        if !self.can_pay(caster, spell.mana) {
            self.lose(caster, LostReason::CannotPay);
            return;
        }
        let (mana_spent, stress_spent) = self.pay_for_spell(caster, spell.mana);
        let (skill, weakened) = self
            .units
            .get(caster)
            .map_or((0, false), |view| (view.body.skills.spellcasting, unit::weakened(view.round.conditions)));
        let (roll, disadvantage_roll) = self.rng.roll_test(self.ruleset.spells.casting_die.plus(skill), weakened);
        let success = roll.total >= spell.tn;
        let target_id = self.id(target);
        self.log.record(round, || {
            LogEvent::Cast(line::Cast {
                unit: id.clone(),
                spell: name,
                target: Some(target_id),
                roll,
                tn: spell.tn,
                success,
                mana_spent,
                stress_spent,
                disadvantage_roll,
            })
        });
        if success {
            if spell.effect.is_hostile() {
                self.afflict_with(caster, target, (spell.ongoing, spell.hinders), &id);
            }
            self.queue_effect(&spell.effect, id, target, !self.ruleset.spells.armour_stops_spells, pending);
        }
    }

    /// Whether a spell of `casting_time` is begun now and takes effect later (`C-CAST-1`): only
    /// where the ruleset counts casting times and the round is played in turns.
    fn begins_casting(&self, casting_time: CastingTime) -> bool {
        self.ruleset.spells.casting_times && self.ruleset.turns.order.on_turn() && casting_time != CastingTime::Instant
    }

    /// Starts a spell that takes effect later in the round: the caster channels it until then.
    fn begin_casting(&mut self, caster: Entity, spell: usize, target: Entity, casting_time: CastingTime) {
        let now = self.state.count.unwrap_or(0);
        let completes_at = match casting_time {
            CastingTime::Turns(turns) => Some(now.saturating_add(turns as i32)),
            CastingTime::Instant | CastingTime::FullRound => None,
        };
        self.state.casting.push(CastInProgress { unit: caster, spell, target, completes_at, due: false });
        if let Ok(mut unit) = self.units.get_mut(caster) {
            unit.round.conditions.channelling = true;
        }
    }

    /// Takes `caster`'s spell off the list of those in progress if it is due now. Returns whether
    /// it was: this cast completes it rather than beginning a new one.
    fn take_due_cast(&mut self, caster: Entity) -> bool {
        let Some(at) = self.state.casting.iter().position(|cast| cast.unit == caster && cast.due) else {
            return false;
        };
        self.state.casting.remove(at);
        if let Ok(mut unit) = self.units.get_mut(caster) {
            unit.round.conditions.channelling = false;
        }
        true
    }

    /// Whether `caster` can still pay `cost`: Mana, and Stress where it stands in (`W-STRESS-1`).
    fn can_pay(&self, caster: Entity, cost: i32) -> bool {
        self.units.get(caster).is_ok_and(|unit| {
            let stress = if self.ruleset.spells.stress_pays_for_mana { unit.body.stress.current } else { 0 };
            unit.magic.mana.current.max(0) + stress.max(0) >= cost
        })
    }

    /// Spends up to `cost`: Mana first, Stress the rest 1:1 where the ruleset allows
    /// (`W-STRESS-1`). Returns the Mana and Stress spent.
    fn pay_for_spell(&mut self, caster: Entity, cost: i32) -> (i32, i32) {
        let stress_pays = self.ruleset.spells.stress_pays_for_mana;
        let Ok(mut unit) = self.units.get_mut(caster) else {
            return (0, 0);
        };
        let mana_spent = cost.min(unit.magic.mana.current).max(0);
        let stress_spent = if stress_pays { (cost - mana_spent).min(unit.body.stress.current).max(0) } else { 0 };
        unit.magic.mana.current -= mana_spent;
        unit.body.stress.current -= stress_spent;
        (mana_spent, stress_spent)
    }

    pub(super) fn use_item(&mut self, user: Entity, at: usize, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        // The stack may have run out since the declaration.
        let Some(item) = self.take_item(user, at) else {
            return;
        };
        let (user_id, name) = (
            self.id(user),
            self.units
                .get(user)
                .ok()
                .and_then(|view| view.arms.inventory.0.get(at).map(|stack| stack.name.clone()))
                .unwrap_or_else(|| "item".into()),
        );
        let target_id = self.id(target);
        self.log.record(round, || {
            LogEvent::ItemUsed(line::ItemUsed { unit: user_id.clone(), item: name, target: Some(target_id) })
        });
        if item.effect.is_hostile() {
            self.afflict_with(user, target, (item.ongoing, item.hinders), &user_id);
        }
        self.queue_effect(&item.effect, user_id, target, true, pending);
    }

    /// Takes one item from the stack at `at`, if any is left.
    pub(super) fn take_item(&mut self, user: Entity, at: usize) -> Option<Item> {
        let mut unit = self.units.get_mut(user).ok()?;
        let stack = unit.arms.inventory.0.get_mut(at).filter(|stack| stack.count > 0)?;
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
                let armour =
                    if ignore_armour { 0 } else { self.units.get(target).map_or(0, |view| view.arms.armour.0) };
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
            Effect::Summon => self.summon(target),
            Effect::Conjure { ref creature, count, thrall } => self.conjure(target, creature, (count, thrall)),
            Effect::RestoreWounds { dice } => {
                pending.push(Pending::Restore { target, source, roll: self.rng.roll(dice), wounds: true })
            }
        }
    }

    /// Heal check vs 10 + the highest injury (`W-WOUND-4`).
    pub(super) fn stabilize(&mut self, healer: Entity, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        let (Some(h), Some(t)) = (self.unit(healer, "stabilising"), self.unit(target, "stabilising")) else {
            return;
        };
        let tn = self.ruleset.wounds.stabilise_tn_base + t.body.wounds.highest_injury();
        let skill = h.body.skills.heal;
        let (healer_id, target_id) = (h.standing.id.0.clone(), t.standing.id.0.clone());
        let roll = self.rng.roll(self.ruleset.wounds.heal_die.plus(skill));
        let success = roll.total >= tn;
        self.log.record(round, || {
            LogEvent::Stabilise(line::Stabilise { unit: healer_id, target: target_id, roll, tn, success })
        });
        if success {
            pending.push(Pending::Stabilize { target });
        }
    }

    pub(super) fn intimidate(&mut self, actor: Entity, target: Entity) {
        let round = self.round();
        let (Some(a), Some(t)) = (self.unit(actor, "intimidating"), self.unit(target, "intimidating")) else {
            return;
        };
        let skill = a.body.skills.intimidation;
        let (actor_id, target_id) = (a.standing.id.0.clone(), t.standing.id.0.clone());
        let roll = self.rng.roll(self.ruleset.morale.intimidation_die.plus(skill));
        self.intimidated.write(Intimidated { unit: target, result: roll.total });
        self.log
            .record(round, || LogEvent::Intimidation(line::Intimidation { unit: actor_id, target: target_id, roll }));
    }

    /// A successful stabilise check takes effect (`W-WOUND-4`).
    pub(super) fn stabilized(&mut self, target: Entity) {
        let round = self.round();
        let Some(mut unit) = self.faults.found(self.units.get_mut(target), target, "stabilising it") else {
            return;
        };
        if unit.standing.status.is_down() && !unit.round.conditions.stabilised {
            unit.round.conditions.stabilised = true;
            let id = unit.standing.id.0.clone();
            self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Stabilized }));
        }
    }

    pub(super) fn restore(&mut self, target: Entity, source: Arc<str>, roll: DiceRoll, wounds: bool) {
        let round = self.round();
        let Some(mut unit) = self.faults.found(self.units.get_mut(target), target, "restoring it") else {
            return;
        };
        if !unit.standing.status.on_field() {
            return;
        }
        let amount = roll.total.max(0);
        let (mut stress_restored, mut wounds_restored) = (0, 0);
        // With one pool of hit points, whatever restores Stress restores hit points.
        let wounds = wounds || self.ruleset.damage.pools == Pools::HitPoints;
        if wounds {
            let before = unit.body.wounds.current;
            unit.body.wounds.current = before.saturating_add(amount).min(unit.body.wounds.max.max(before));
            wounds_restored = unit.body.wounds.current - before;
        } else {
            let before = unit.body.stress.current;
            unit.body.stress.current = before.saturating_add(amount).min(unit.body.stress.max.max(before));
            stress_restored = unit.body.stress.current - before;
        }
        // Healing enough in one go closes a wound, and its lasting penalties go with it (`A-WOUND-1`).
        let mut wound_closed = None;
        if let Some(aiming) = &self.ruleset.attack.aiming
            && unit.round.conditions.aimed_wounds > 0
            && stress_restored + wounds_restored >= aiming.heal_threshold
        {
            unit.round.conditions.aimed_wounds -= 1;
            wound_closed = super::wounds::close_wound(&mut unit.round.conditions, aiming);
        }
        let id = unit.standing.id.0.clone();
        let (stress, wounds_now) = (unit.body.stress.current, unit.body.wounds.current);
        self.log.record(round, || {
            LogEvent::Healed(line::Healed {
                unit: id.clone(),
                source,
                roll,
                stress_restored,
                wounds_restored,
                stress,
                wounds: wounds_now,
                wound_closed,
            })
        });
        let strength = unit.body.attributes.score(Attribute::Strength);
        let status = damage::status_under(&self.ruleset, *unit.standing.status, wounds_now, strength);
        if status != *unit.standing.status {
            *unit.standing.status = status;
            if status == Status::Active {
                unit.round.conditions.stabilised = false;
            }
            self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: status.into() }));
        }
    }
}
