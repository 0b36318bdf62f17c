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
use super::log::{AttackExtra, AttackKind, CombatLog, InjuryRoll, LogEvent};
use super::ruleset::{AttackStyle, CriticalRule, DualWield, FumbleRule, InitiativeOrder, Ruleset};
use super::state::{CombatPhase, CombatState, DamageDealt, DeclarationQueue, Intimidated, Sides, Slot, in_phase};
use super::unit::{self, Unit, UnitItem};
use crate::battlefield::{Battlefield, Cover, Square, ZoneIdx, ZoneIndex};

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
    sides: Res<'w, Sides>,
    levels: Query<'w, 's, &'static Level>,
    summoned: Query<'w, 's, (Entity, &'static Summoned)>,
    slots: Query<'w, 's, &'static SummoningSlots>,
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
    // Turn by turn: the next turn declares now, having seen this one.
    battle.state.phase = if battle.ruleset.turns.order.on_turn() { CombatPhase::Declare } else { CombatPhase::Morale };
}

/// How one attack is made, beyond who strikes whom.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Strike {
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
}

/// Damage that takes anyone down whatever they have left: "defeated outright".
fn lethal(view: &unit::UnitView) -> i32 {
    view.stress.current.max(0) + view.wounds.current.max(0) + view.attributes.score(Attribute::Strength).max(0) + 1
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
        if self.ruleset.turns.order.on_turn() {
            return false;
        }
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
        for slot in group {
            let kind = slot.action.kind;
            if matches!(kind, ActionKind::Disengage | ActionKind::Charge)
                && let Ok(mut unit) = self.units.get_mut(slot.unit)
            {
                unit.conditions.disengaged |= kind == ActionKind::Disengage;
                unit.conditions.charging |= kind == ActionKind::Charge;
            }
        }
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

    /// Moves a unit step by step. Enemies whose threat range it enters may Reposte at once
    /// (`W-DECL-3/4`); in rulesets that say so, enemies whose reach it leaves, or inside whose
    /// reach it walks too far, get a free attack unless it disengaged (`Z-DISEN-1`, `S-AOO-1`,
    /// `A-FREE-1`, `C-AOO-1`). Returns whether it is still able to act.
    fn perform_move(&mut self, slot: &Slot, to: ZoneIdx) -> bool {
        let round = self.round();
        let Ok(view) = self.units.get(slot.unit) else {
            return false;
        };
        let start = view.zone.0;
        let side = *view.side;
        let status_before = *view.status;
        let disengaged = view.conditions.disengaged;
        let kind = slot.action.kind;
        let path = self.battlefield.path(start, to);
        let rules = self.ruleset.reposte.clone();
        let entering = rules.when_threat_range_entered && kind != ActionKind::DefensiveAttack;
        let leaving = rules.when_reach_left && !disengaged;
        // The 5-ft step: a short shift before acting, as the unit's only movement (`C-MOVE-1`).
        let free_step = path.len() as u32 <= rules.free_step && kind != ActionKind::Move;
        let grid = self.battlefield.is_grid();
        // On a grid units pass through each other's squares but must end on a free one.
        if grid && self.index.count(to) as u32 >= self.battlefield.zone(to).capacity.unwrap_or(u32::MAX) {
            let id = self.id(slot.unit);
            self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "zone_full" });
            return true;
        }
        let mut inside_steps: Vec<(Entity, u32)> = Vec::new();
        let mut here = start;
        for step in path {
            if !grid
                && let Some(capacity) = self.battlefield.zone(step).capacity
                && self.index.count(step) as u32 >= capacity
            {
                let id = self.id(slot.unit);
                self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "zone_full" });
                break;
            }
            let watch = (entering || leaving) && !free_step;
            let (before, after) = if watch {
                (
                    actions::threateners_of(self.ctx(), here, side, &self.units),
                    actions::threateners_of(self.ctx(), step, side, &self.units),
                )
            } else {
                (Vec::new(), Vec::new())
            };
            // Leaving reach, or walking on inside it: struck before the step, while still in reach.
            let mut leaving_attacks: Vec<Entity> = Vec::new();
            if leaving {
                for &other in &before {
                    if !after.contains(&other) {
                        if !(rules.ally_in_reach_covers && self.ally_covers(other, slot.unit, here)) {
                            leaving_attacks.push(other);
                        }
                    } else if let Some(limit) = rules.steps_within_reach {
                        let walked = match inside_steps.iter_mut().find(|(unit, _)| *unit == other) {
                            Some((_, walked)) => {
                                *walked += 1;
                                *walked
                            }
                            None => {
                                inside_steps.push((other, 1));
                                1
                            }
                        };
                        if walked == limit + 1 {
                            leaving_attacks.push(other);
                        }
                    }
                }
            }
            self.provoked_attacks(slot, &leaving_attacks, rules.name.attack_kind());
            if !self.units.get(slot.unit).is_ok_and(|view| *view.status == status_before) {
                return false;
            }
            self.index.relocate(slot.unit, here, step);
            if let Ok(mut unit) = self.units.get_mut(slot.unit) {
                unit.zone.0 = step;
            }
            let (from_id, to_id) = (self.battlefield.place(here), self.battlefield.place(step));
            let id = self.id(slot.unit);
            self.log.record(round, || LogEvent::Moved { unit: id, from: from_id, to: to_id });
            here = step;
            if entering {
                let own_reach =
                    self.units.get(slot.unit).map_or(0, |view| view.loadout.usable_weapon(view.conditions).1.reach);
                let longer_only = rules.longer_weapon_first;
                let entered: Vec<Entity> = after
                    .iter()
                    .copied()
                    .filter(|other| !before.contains(other))
                    // The longer weapon strikes first (`C-REACH-1`).
                    .filter(|&other| {
                        !longer_only
                            || self
                                .units
                                .get(other)
                                .is_ok_and(|view| view.loadout.usable_weapon(view.conditions).1.reach > own_reach)
                    })
                    .collect();
                self.provoked_attacks(slot, &entered, AttackKind::Reposte);
            }
            if !self.units.get(slot.unit).is_ok_and(|view| *view.status == status_before) {
                return false;
            }
        }
        true
    }

    /// Shooting or casting with foes in melee reach gives each an attack of opportunity first,
    /// in rulesets that say so (`C-AOO-1`).
    fn provoke_by_acting(&mut self, slot: &Slot) {
        if self.ruleset.attack.ranged_in_melee != super::ruleset::RangedInMelee::Provokes {
            return;
        }
        let Ok(view) = self.units.get(slot.unit) else {
            return;
        };
        let shoots = match slot.action.kind {
            ActionKind::Cast(_) | ActionKind::Throw(_) => true,
            ActionKind::Attack | ActionKind::Aimed(_) => view.loadout.usable_weapon(view.conditions).1.is_ranged(),
            _ => false,
        };
        if !shoots {
            return;
        }
        let (zone, side) = (view.zone.0, *view.side);
        let foes = actions::threateners_of(self.ctx(), zone, side, &self.units);
        let kind = self.ruleset.reposte.name.attack_kind();
        self.provoked_attacks(slot, &foes, kind);
    }

    /// Free attacks provoked by a move, each by an enemy that can still react, until the mover falls.
    fn provoked_attacks(&mut self, slot: &Slot, attackers: &[Entity], kind: AttackKind) {
        for &threatener in attackers {
            if !self.units.get(slot.unit).is_ok_and(|view| view.status.on_field()) {
                break;
            }
            if !self.units.get(threatener).is_ok_and(|view| actions::can_react(&view)) {
                continue;
            }
            if let Ok(mut other) = self.units.get_mut(threatener) {
                other.reactions.0 = other.reactions.0.saturating_sub(1);
            }
            let mut reaction = Vec::new();
            self.attack(threatener, slot.unit, slot.initiative, kind, None, Strike::default(), &mut reaction);
            for effect in reaction {
                self.apply(effect);
            }
        }
    }

    /// Whether another fighting ally of `mover` stands within `enemy`'s reach (or in the zone it
    /// leaves), keeping the enemy busy (`Z-DISEN-1`).
    fn ally_covers(&self, enemy: Entity, mover: Entity, zone: ZoneIdx) -> bool {
        let (Ok(enemy_view), Ok(mover_view)) = (self.units.get(enemy), self.units.get(mover)) else {
            return false;
        };
        let reach = enemy_view.loadout.usable_weapon(enemy_view.conditions).1.reach;
        let side = *mover_view.side;
        self.battlefield.within(enemy_view.zone.0, reach).chain(std::iter::once(zone)).any(|near| {
            self.index.occupants(near).iter().any(|&other| {
                other != mover
                    && self
                        .units
                        .get(other)
                        .is_ok_and(|view| *view.side == side && unit::is_fighting(*view.status, view.conditions))
            })
        })
    }

    /// Carries out one declared action, queueing its effects.
    fn perform_action(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        if slot.action.kind == ActionKind::StandUp {
            self.stand_up(slot);
            self.pay_for_exertion(slot, pending);
            return;
        }
        let round = self.round();
        let actor = slot.unit;
        let Some(target) = slot.action.target.or(match slot.action.kind {
            ActionKind::FullDefense
            | ActionKind::Move
            | ActionKind::Hold
            | ActionKind::DefensiveAttack
            | ActionKind::Disengage
            | ActionKind::StandUp => None,
            _ => Some(Entity::PLACEHOLDER),
        }) else {
            self.pay_for_exertion(slot, pending);
            return;
        };
        self.provoke_by_acting(slot);
        if !self.units.get(actor).is_ok_and(|view| unit::may_act(*view.status, view.conditions, view.surprised, round))
        {
            return;
        }
        let is_strike = matches!(
            slot.action.kind,
            ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_)
        );
        if !is_strike && !self.target_in_reach(slot, target) {
            let id = self.id(actor);
            self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "target_out_of_reach" });
            return;
        }
        match slot.action.kind {
            ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_) => {
                let strike = Strike {
                    aim: match slot.action.kind {
                        ActionKind::Aimed(aim) => Some(aim),
                        _ => None,
                    },
                    charge: slot.action.kind == ActionKind::Charge,
                    forced_critical: false,
                    primary: true,
                    stood_still: slot.action.move_to.is_none(),
                };
                match self.attack(actor, target, slot.initiative, AttackKind::Normal, None, strike, pending) {
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
                        self.attack(
                            target,
                            actor,
                            slot.initiative,
                            AttackKind::Reposte,
                            None,
                            Strike::default(),
                            pending,
                        );
                    }
                    Some(false) => {}
                }
                // Extra attacks of a high level (`C-MULTI-1`) follow the first while the target stands.
                for _ in 1..self.attacks_this_round(actor) {
                    let queued: i32 = pending
                        .iter()
                        .map(|effect| match effect {
                            Pending::Damage(hit) if hit.target == target => hit.amount,
                            _ => 0,
                        })
                        .sum();
                    let standing = self.units.get(target).is_ok_and(|view| {
                        *view.status == Status::Active && view.stress.current + view.wounds.current > queued
                    });
                    if !standing {
                        break;
                    }
                    let extra = Strike { primary: false, ..strike };
                    self.attack(actor, target, slot.initiative, AttackKind::Normal, None, extra, pending);
                }
            }
            ActionKind::Cast(at) => self.cast(actor, at, target, pending),
            ActionKind::UseItem(at) => self.use_item(actor, at, target, pending),
            ActionKind::Throw(at) => {
                let Some(weapon) = self.take_item(actor, at).and_then(|item| item.as_thrown_weapon()) else {
                    return;
                };
                let strike = Strike { primary: true, ..Strike::default() };
                self.attack(actor, target, slot.initiative, AttackKind::Thrown, Some(weapon), strike, pending);
            }
            ActionKind::Swarm => self.swarm(actor, target),
            ActionKind::Shove | ActionKind::Grapple => self.maneuver(actor, target, slot.action.kind, slot.initiative),
            ActionKind::Execute => self.execute(actor, target, slot.initiative, pending),
            ActionKind::Stabilize => self.stabilize(actor, target, pending),
            ActionKind::Intimidate => self.intimidate(actor, target),
            ActionKind::FullDefense
            | ActionKind::Move
            | ActionKind::Hold
            | ActionKind::Disengage
            | ActionKind::StandUp => {}
        }
        self.pay_for_exertion(slot, pending);
    }

    /// Weapon attacks `actor` makes this round (`C-MULTI-1`): one unless the ruleset's level bands say more.
    fn attacks_this_round(&self, actor: Entity) -> u32 {
        let level = self.levels.get(actor).map_or(1, |level| level.0);
        super::initiative::attacks_per_round(&self.ruleset, level, self.state.round)
    }

    /// Whether the declared target is still there and in reach after the move.
    fn target_in_reach(&self, slot: &Slot, target: Entity) -> bool {
        let (Ok(actor), Ok(other)) = (self.units.get(slot.unit), self.units.get(target)) else {
            return false;
        };
        // The same reach the declaration was checked against, from where the actor stands now.
        other.status.on_field()
            && actions::reach(&actor, slot.action.kind)
                .is_ok_and(|reach| reach.reaches(&self.battlefield, actor.zone.0, other.zone.0))
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

    /// One attack (`W-HIT-1`, `W-CRIT-1`, and the variants rulesets choose: DR tests and avoid
    /// tests `Z-ATK-1/2`, cover `S-COVER-1`, Shock `S-SHOCK-1`, swarms and charges `S-SPEC-1`,
    /// dual wielding `Z-ATK-3`/`S-DUAL-1`, aimed wounds `A-AIM-1`/`A-WOUND-1`, escalating
    /// criticals and fumbles `A-CRIT-1`/`A-FAIL-1`, usage marks `Z-CRIT-1`). A hit queues its
    /// damage. Returns `None` when the target is out of reach or sight, else whether the target
    /// may answer with a Reposte.
    #[expect(clippy::too_many_arguments, reason = "an attack is who, whom, when, how and with what")]
    fn attack(
        &mut self,
        attacker: Entity,
        target: Entity,
        initiative: i32,
        kind: AttackKind,
        thrown: Option<Weapon>,
        strike: Strike,
        pending: &mut Vec<Pending>,
    ) -> Option<bool> {
        let round = self.round();
        let (Ok(a), Ok(t)) = (self.units.get(attacker), self.units.get(target)) else {
            return None;
        };
        let is_thrown = thrown.is_some();
        let weapon = thrown.unwrap_or_else(|| a.loadout.usable_weapon(a.conditions).1.clone());
        let ranged = weapon.is_ranged();
        let walking = self.battlefield.distance(a.zone.0, t.zone.0);
        let distance = if ranged { self.battlefield.line_distance(a.zone.0, t.zone.0) } else { walking };
        if !t.status.on_field() || distance > actions::weapon_range(&weapon) {
            return None;
        }
        let cover = if ranged { self.battlefield.sight(a.zone.0, t.zone.0)? } else { Cover::None };
        let target_weapon = t.loadout.usable_weapon(t.conditions).1;
        let reposte = kind == AttackKind::Normal
            && self.ruleset.reposte.when_attacked_in_full_defense
            && t.conditions.full_defense
            && actions::can_react(&t)
            && unit::is_fighting(*t.status, t.conditions)
            && !weapon.is_ranged()
            && !target_weapon.is_ranged()
            && target_weapon.reach >= distance;
        // The attacker stands in the target's melee reach (fumbles give it a free hit there).
        let in_target_zone =
            !target_weapon.is_ranged() && target_weapon.reach >= walking && unit::is_fighting(*t.status, t.conditions);
        let rules = self.ruleset.attack.clone();
        let mut extra = AttackExtra::default();
        let mut bonus = actions::attack_bonus(&a, &weapon);
        bonus -= match cover {
            Cover::None => 0,
            Cover::Half => rules.half_cover_penalty,
            Cover::Full => rules.full_cover_penalty,
        };
        extra.cover = match cover {
            Cover::None => None,
            Cover::Half => Some("half"),
            Cover::Full => Some("full"),
        };
        if let Some(aim) = strike.aim {
            extra.aim = Some(aim.log_name());
            if aim == AimPoint::CentreMass {
                bonus += rules.aiming.as_ref().map_or(0, |aiming| aiming.centre_mass_bonus);
            }
        }
        if strike.charge {
            bonus += rules.charge.as_ref().map_or(0, |charge| charge.hit_bonus);
            extra.charge = true;
        }
        let side = a.side.0;
        let (swarm_hit, swarm_damage) =
            if strike.primary { take_swarm(&self.ruleset, &mut self.state.swarms, target, side) } else { (0, 0) };
        bonus += swarm_hit;
        extra.swarm_bonus = (swarm_hit > 0).then_some(swarm_hit);
        // Two weapons in hand only count when both are for melee and the attack is one of them.
        let offhand = a
            .loadout
            .offhand
            .as_ref()
            .map(|(_, weapon)| weapon.clone())
            .filter(|second| !ranged && !is_thrown && !second.is_ranged());
        let both_reach = offhand.as_ref().is_some_and(|second| second.reaches(distance));
        let second_dice = offhand.as_ref().map(|second| actions::damage_dice(&self.ruleset, &a, second, false));
        let mut flat_damage = 0;
        if let DualWield::Bonus { hit, damage } = rules.dual_wield
            && offhand.is_some()
            && !is_thrown
        {
            bonus += hit;
            if both_reach {
                flat_damage += damage;
            }
        }
        if let Some((hit, damage)) = rules.standing_bonus
            && strike.primary
            && strike.stood_still
        {
            bonus += hit;
            flat_damage += damage;
        }
        // Flanking: an ally fights the target from the far side (`A-COND-1`).
        if let Some(conditions) = &rules.conditions
            && !ranged
            && self.flanked(&a, &t)
        {
            bonus += conditions.flanking_bonus;
            extra.flanking = true;
        }
        let pressed = ranged
            && (walking <= self.battlefield.melee_reach(0)
                || !actions::threateners_of(self.ctx(), a.zone.0, *a.side, &self.units).is_empty());
        // A weakened attacker rolls every test with disadvantage (`Z-HIND-1`).
        let mut disadvantage = matches!(a.conditions.hindrance, Some((super::equipment::Hindrance::Weakened, _)));
        if pressed {
            match rules.ranged_in_melee {
                super::ruleset::RangedInMelee::Allowed => {}
                super::ruleset::RangedInMelee::Disadvantage => disadvantage = true,
                super::ruleset::RangedInMelee::Penalty(penalty) => bonus -= penalty,
                // Handled before the action (see `provoke_by_acting`).
                super::ruleset::RangedInMelee::Provokes => {}
            }
        }
        let (attacker_party, target_party) = (self.sides.is_party(side), self.sides.is_party(t.side.0));
        let (dice, needed, avoid) = match &rules.style {
            AttackStyle::VsDefense => {
                let mut defense = unit::defense_score(&self.ruleset, t.attributes, t.defense, t.conditions);
                // Flat-footed: hit on a fixed number; prone: that number plus Agility (`A-COND-1`).
                if let Some(conditions) = &rules.conditions {
                    let sick = t.conditions.sick_until.is_some_and(|last| self.state.round <= last);
                    if t.surprised || t.conditions.paralysed || sick {
                        defense = conditions.flat_footed_defense;
                    } else if t.conditions.prone {
                        defense = conditions.prone_defense
                            + unit::modifier(&self.ruleset, t.attributes, Attribute::Agility)
                            - t.conditions.agility_penalty;
                    }
                }
                if t.conditions.charging {
                    defense -= rules.charge.as_ref().map_or(0, |charge| charge.defense_penalty);
                }
                (rules.die.plus(bonus), defense, false)
            }
            AttackStyle::Test { tn, melee, ranged: shooting, player_facing, avoid } => {
                if *player_facing && target_party && !attacker_party {
                    let modifier = unit::modifier(&self.ruleset, t.attributes, *avoid);
                    (rules.die.plus(modifier), *tn, true)
                } else {
                    let attribute = if ranged { *shooting } else { *melee };
                    let modifier = unit::modifier(&self.ruleset, a.attributes, attribute);
                    (rules.die.plus(modifier + bonus), *tn, false)
                }
            }
        };
        let damage_dice = actions::damage_dice(&self.ruleset, &a, &weapon, is_thrown);
        // Sneak damage against a target that has not noticed the attacker, doubled by criticals.
        let sneak_dice = rules
            .conditions
            .as_ref()
            .filter(|_| t.surprised)
            .map(|conditions| conditions.sneak_damage.times_dice(1 + a.loadout.sneak_dice));
        let shock_modifier = damage_dice.modifier - weapon.damage.modifier;
        let shock = weapon.shock.filter(|_| rules.shock);
        let armour = t.armour.0;
        let (attacker_id, target_id) = (a.id.0.clone(), t.id.0.clone());
        let target_full_defense = t.conditions.full_defense;
        let target_shield = t.loadout.shield && !t.conditions.shield_used;
        let target_lethal = lethal(&t);
        let attacker_lethal = lethal(&a);
        let weapon_name: Arc<str> = a.loadout.usable_weapon(a.conditions).0.into();
        let mut roll = self.rng.roll(dice);
        if disadvantage {
            let other = self.rng.roll(dice);
            // The attacker's disadvantage: its own roll keeps the lower, a target's avoid test the higher.
            let other_counts = if avoid { other.total > roll.total } else { other.total < roll.total };
            if other_counts {
                extra.disadvantage_roll = Some(std::mem::replace(&mut roll, other));
            } else {
                extra.disadvantage_roll = Some(other);
            }
        }
        let natural = roll.natural().unwrap_or(0);
        let fumbled = natural <= rules.fumble_natural && !strike.forced_critical;
        let (hit, critical, doubled) = if avoid {
            extra.avoid = true;
            let avoided = !fumbled && roll.total >= needed;
            // A natural 1 on the avoid test doubles the damage (`Z-CRIT-1`).
            (!avoided, false, fumbled)
        } else {
            let critical_natural =
                natural >= actions::critical_natural(&self.ruleset, &weapon) || strike.forced_critical;
            let hit = strike.forced_critical
                || (!fumbled && (roll.total >= needed || (critical_natural && rules.critical_always_hits)));
            (hit, hit && critical_natural, false)
        };
        let shock_applies =
            shock.is_some_and(|shock| shock.max_defense.is_none_or(|max| needed <= max) || swarm_hit > 0);
        let shock_damage = shock.map_or(0, |shock| shock.damage + shock_modifier);
        let mut damage_roll = None;
        if hit {
            let mut rolled_roll = self.rng.roll(damage_dice);
            if rules.dual_wield == DualWield::KeepHigher
                && both_reach
                && !is_thrown
                && let Some(second_dice) = second_dice
            {
                let other = self.rng.roll(second_dice);
                extra.other_damage_roll = Some(if other.total > rolled_roll.total {
                    std::mem::replace(&mut rolled_roll, other)
                } else {
                    other
                });
            }
            let mut rolled = rolled_roll.total;
            if let Some(dice) = sneak_dice {
                let sneak = self.rng.roll(dice);
                rolled += sneak.total;
                extra.sneak_roll = Some(sneak);
            }
            let mut multiplier = if doubled { 2 } else { 1 };
            let mut outright = false;
            if critical {
                match &rules.critical {
                    CriticalRule::WeaponMultiplier => multiplier *= weapon.critical_multiplier,
                    CriticalRule::DoubleDice => rolled = (rolled - damage_dice.modifier) * 2 + damage_dice.modifier,
                    CriticalRule::Escalating { chain } => {
                        // Each step that escalates doubles again; the last one defeats outright.
                        let reached = self.escalate(&attacker_id, "critical", chain);
                        outright = !chain.is_empty() && reached == chain.len();
                        multiplier *= 2 << reached.min(chain.len().saturating_sub(1));
                    }
                }
            }
            // Swarm damage never takes a weapon past its usual maximum.
            let boosted = (rolled + swarm_damage).min(rolled.max(damage_dice.max())) + flat_damage;
            let mut amount = damage::damage_after_armour(&self.ruleset, boosted, multiplier, armour);
            if shock_applies {
                amount = amount.max(shock_damage);
            }
            amount = amount.max(self.ruleset.damage.minimum);
            if outright {
                amount = amount.max(target_lethal);
            }
            if let Some(aim) = strike.aim {
                amount += self.wound(target, &attacker_id, aim, amount);
            }
            if amount > 0 {
                self.afflict(attacker, target, &weapon, &attacker_id);
            }
            pending.push(Pending::Damage(DamageHit {
                target,
                source: attacker_id.clone(),
                amount,
                damage_type: weapon.damage_type,
                critical,
                roll: None,
            }));
            damage_roll = Some(rolled_roll);
        }
        let total = roll.total;
        self.log.record(round, || LogEvent::Attack {
            attacker: attacker_id.clone(),
            target: target_id.clone(),
            initiative,
            roll,
            total,
            defense: needed,
            hit,
            critical,
            kind,
            damage_roll,
            extra,
        });
        if !hit && shock_applies && !avoid {
            // Total defense stops even a swarm's Shock; a shield stops only ordinary Shock.
            let absorbed_by = if target_full_defense {
                Some("total_defense")
            } else if swarm_hit > 0 {
                None
            } else if target_shield {
                Some("shield")
            } else {
                None
            };
            if absorbed_by == Some("shield")
                && let Ok(mut unit) = self.units.get_mut(target)
            {
                unit.conditions.shield_used = true;
            }
            let amount = if absorbed_by.is_some() { 0 } else { shock_damage.max(0) };
            self.log.record(round, || LogEvent::Shock {
                attacker: attacker_id.clone(),
                target: target_id.clone(),
                amount,
                absorbed_by,
            });
            if amount > 0 {
                pending.push(Pending::Damage(DamageHit {
                    target,
                    source: attacker_id.clone(),
                    amount,
                    damage_type: weapon.damage_type,
                    critical: false,
                    roll: None,
                }));
            }
        }
        if fumbled && strike.primary && !avoid {
            self.fumble(attacker, target, initiative, &weapon_name, in_target_zone, attacker_lethal, pending);
        }
        Some(reposte)
    }

    /// A hit from a weapon that lingers: ongoing damage equal to the attacker's level (`Z-ONGO-1`)
    /// or a hindrance (`Z-HIND-1`), each until the sufferer shakes it off.
    fn afflict(&mut self, attacker: Entity, target: Entity, weapon: &Weapon, source: &Arc<str>) {
        let round = self.round();
        let level = self.levels.get(attacker).map_or(1, |level| level.0) as i32;
        let Ok(mut unit) = self.units.get_mut(target) else {
            return;
        };
        let mut effects = Vec::new();
        if let Some(lingering) = weapon.ongoing {
            unit.conditions.ongoing = Some((level, lingering));
            effects.push("ongoing_damage");
        }
        if let Some((hindrance, lingering)) = weapon.hinders {
            unit.conditions.hindrance = Some((hindrance, lingering));
            if hindrance == super::equipment::Hindrance::Paralysed {
                unit.conditions.paralysed = true;
            }
            effects.push(hindrance.log_name());
        }
        let id = unit.id.0.clone();
        for effect in effects {
            let (id, source) = (id.clone(), source.clone());
            self.log.record(round, || LogEvent::Afflicted { unit: id, effect, source });
        }
    }

    /// Whether an ally of the attacker stands on the far side of the target, in reach of it.
    fn flanked(&self, attacker: &unit::UnitView, target: &unit::UnitView) -> bool {
        let (Some(from), Some(at)) =
            (self.battlefield.zone(attacker.zone.0).square, self.battlefield.zone(target.zone.0).square)
        else {
            return false;
        };
        let opposite = Square { x: 2 * at.x - from.x, y: 2 * at.y - from.y };
        let Some(zone) = self.battlefield.zone_at(opposite) else {
            return false;
        };
        self.index.occupants(zone).iter().any(|&other| {
            self.units
                .get(other)
                .is_ok_and(|view| view.side == attacker.side && unit::is_fighting(*view.status, view.conditions))
        })
    }

    /// What a natural fumble does besides missing (`Z-CRIT-1`, `A-FAIL-1`).
    #[expect(clippy::too_many_arguments, reason = "a fumble reads the attack it spoils")]
    fn fumble(
        &mut self,
        attacker: Entity,
        target: Entity,
        initiative: i32,
        weapon_name: &Arc<str>,
        in_target_zone: bool,
        attacker_lethal: i32,
        pending: &mut Vec<Pending>,
    ) {
        let round = self.round();
        match self.ruleset.attack.fumble.clone() {
            FumbleRule::Miss => {}
            FumbleRule::WeaponUsage => {
                let Ok(mut unit) = self.units.get_mut(attacker) else {
                    return;
                };
                unit.conditions.usage_marks += 1;
                let (id, marks) = (unit.id.0.clone(), unit.conditions.usage_marks);
                let weapon = weapon_name.clone();
                self.log.record(round, || LogEvent::WeaponUsage { unit: id, weapon, marks });
            }
            FumbleRule::Escalating { chain } => {
                if !in_target_zone {
                    return;
                }
                let attacker_id = self.id(attacker);
                let reached = self.escalate(&attacker_id, "tragedy", &chain);
                if !chain.is_empty() && reached == chain.len() {
                    // The fatal blow: the attacker dies at its victim's hand.
                    pending.push(Pending::Damage(DamageHit {
                        target: attacker,
                        source: self.id(target),
                        amount: attacker_lethal,
                        damage_type: DamageType::Piercing,
                        critical: true,
                        roll: None,
                    }));
                    return;
                }
                let tragedy = reached > 0;
                // A tragedy's free critical comes even without a Free Hit Slot left.
                let may = tragedy || self.units.get(target).is_ok_and(|view| actions::can_react(&view));
                if !may {
                    return;
                }
                if !tragedy && let Ok(mut other) = self.units.get_mut(target) {
                    other.reactions.0 = other.reactions.0.saturating_sub(1);
                }
                let strike = Strike { forced_critical: tragedy, ..Strike::default() };
                self.attack(target, attacker, initiative, AttackKind::FreeHit, None, strike, pending);
            }
        }
    }

    /// Rolls an escalation chain (`A-CRIT-1`, `A-FAIL-1`): each die in turn, stopping at the first
    /// that misses its top face. Returns how many escalated.
    fn escalate(&mut self, unit: &Arc<str>, name: &'static str, chain: &[crate::rules::dice::Dice]) -> usize {
        let round = self.round();
        for (step, die) in chain.iter().enumerate() {
            let roll = self.rng.roll(*die);
            let escalated = roll.total >= die.max();
            let id = unit.clone();
            self.log.record(round, || LogEvent::Escalation {
                unit: id,
                chain: name,
                step: step as u32 + 1,
                roll,
                escalated,
            });
            if !escalated {
                return step;
            }
        }
        chain.len()
    }

    /// A wound from one hit of `amount` net damage aimed at `aim` (`A-WOUND-1`, `A-AIM-1`):
    /// applies its effect and returns any extra damage it adds.
    fn wound(&mut self, target: Entity, source: &Arc<str>, aim: AimPoint, amount: i32) -> i32 {
        let round = self.round();
        let Some(rules) = self.ruleset.attack.aiming.clone() else {
            return 0;
        };
        if amount < rules.wound_threshold || aim == AimPoint::CentreMass {
            return 0;
        }
        let fatal_roll = (aim == AimPoint::Fatal).then(|| self.rng.roll(rules.fatal_die));
        let extra_damage = if fatal_roll.as_ref().is_some_and(|roll| roll.total >= rules.fatal_die.max()) {
            rules.fatal_damage
        } else {
            0
        };
        let Ok(mut unit) = self.units.get_mut(target) else {
            return extra_damage;
        };
        let conditions = &mut unit.conditions;
        conditions.aimed_wounds += 1;
        match aim {
            AimPoint::Slowing => {
                conditions.speed_penalty = conditions.speed_penalty.saturating_add(rules.slowing_speed);
                conditions.agility_penalty += 1;
            }
            AimPoint::Weakening => conditions.strength_penalty += 1,
            AimPoint::Disrupting => {
                conditions.accuracy_penalty += rules.disrupting_accuracy;
                conditions.round_accuracy_penalty += rules.disrupting_accuracy_this_round;
            }
            AimPoint::Fatal | AimPoint::CentreMass => {}
        }
        let (id, wounds) = (unit.id.0.clone(), unit.conditions.aimed_wounds);
        let source = source.clone();
        self.log.record(round, || LogEvent::Wound {
            unit: id,
            source,
            aim: aim.log_name(),
            wounds,
            roll: fatal_roll,
            extra_damage,
        });
        extra_damage
    }

    /// A shove or a grapple (`S-MAN-1`, `Z-STUNT-1`): an attack roll first where the chapter
    /// asks for one, then opposed checks; the shoved are pushed a step away (or knocked prone
    /// when there is no room), the grappled held.
    fn maneuver(&mut self, actor: Entity, target: Entity, kind: ActionKind, initiative: i32) {
        let round = self.round();
        let Some(rules) = self.ruleset.attack.maneuvers.clone() else {
            return;
        };
        let (Ok(a), Ok(t)) = (self.units.get(actor), self.units.get(target)) else {
            return;
        };
        let name = if kind == ActionKind::Grapple { AttackKind::Grapple } else { AttackKind::Shove };
        let (actor_id, target_id) = (a.id.0.clone(), t.id.0.clone());
        if rules.attack_roll_first {
            let weapon = if kind == ActionKind::Grapple {
                a.loadout.unarmed.clone()
            } else {
                a.loadout.usable_weapon(a.conditions).1.clone()
            };
            let defense = unit::defense_score(&self.ruleset, t.attributes, t.defense, t.conditions);
            let roll = self.rng.roll(self.ruleset.attack.die.plus(actions::attack_bonus(&a, &weapon)));
            let (total, hit) = (roll.total, roll.total >= defense);
            let (attacker, target_name) = (actor_id.clone(), target_id.clone());
            self.log.record(round, || LogEvent::Attack {
                attacker,
                target: target_name,
                initiative,
                roll,
                total,
                defense,
                hit,
                critical: false,
                kind: name,
                damage_roll: None,
                extra: AttackExtra::default(),
            });
            if !hit {
                return;
            }
        }
        let (Ok(a), Ok(t)) = (self.units.get(actor), self.units.get(target)) else {
            return;
        };
        let own = unit::modifier(&self.ruleset, a.attributes, rules.attribute) + a.skills.attack;
        let theirs = unit::modifier(&self.ruleset, t.attributes, rules.attribute);
        let (from, at) = (a.zone.0, t.zone.0);
        let roll = self.rng.roll(rules.die.plus(own));
        let against = self.rng.roll(rules.die.plus(theirs));
        let won = roll.total > against.total;
        let outcome = if !won {
            None
        } else if kind == ActionKind::Grapple {
            if let Ok(mut unit) = self.units.get_mut(target) {
                unit.conditions.grappled_by = Some(actor);
            }
            if let Ok(mut unit) = self.units.get_mut(actor) {
                unit.conditions.grappling = Some(target);
            }
            Some("grappled")
        } else {
            match self.push_destination(from, at) {
                Some(to) => {
                    self.index.relocate(target, at, to);
                    if let Ok(mut unit) = self.units.get_mut(target) {
                        unit.zone.0 = to;
                    }
                    let (left, entered, id) =
                        (self.battlefield.place(at), self.battlefield.place(to), target_id.clone());
                    self.log.record(round, || LogEvent::Moved { unit: id, from: left, to: entered });
                    Some("pushed")
                }
                None => {
                    if let Ok(mut unit) = self.units.get_mut(target) {
                        unit.conditions.prone = true;
                    }
                    let id = target_id.clone();
                    self.log.record(round, || LogEvent::Status { unit: id, status: "prone" });
                    Some("knocked_prone")
                }
            }
        };
        self.log.record(round, || LogEvent::Maneuver {
            unit: actor_id,
            target: target_id,
            maneuver: name.as_str(),
            roll,
            against,
            won,
            outcome,
        });
    }

    /// Where a shove from `from` pushes a unit at `at`: the free step straight away on a grid,
    /// or a free zone farther from the shover; `None` when there is no room (it falls instead).
    fn push_destination(&self, from: ZoneIdx, at: ZoneIdx) -> Option<ZoneIdx> {
        let field = &self.battlefield;
        let free =
            |zone: ZoneIdx| field.zone(zone).capacity.is_none_or(|capacity| (self.index.count(zone) as u32) < capacity);
        match (field.zone(from).square, field.zone(at).square) {
            (Some(a), Some(b)) => {
                let away = Square { x: b.x + (b.x - a.x).signum(), y: b.y + (b.y - a.y).signum() };
                field.zone_at(away).filter(|&zone| free(zone) && field.distance(at, zone) == 1)
            }
            _ => field
                .neighbours(at)
                .iter()
                .copied()
                .filter(|&zone| field.distance(from, zone) > field.distance(from, at) && free(zone))
                .min(),
        }
    }

    /// Standing up from prone; where the chapter says so it draws the attacks of adjacent foes first.
    fn stand_up(&mut self, slot: &Slot) {
        let Ok(view) = self.units.get(slot.unit) else {
            return;
        };
        if self.ruleset.reposte.when_reach_left {
            let foes = actions::threateners_of(self.ctx(), view.zone.0, *view.side, &self.units);
            let kind = self.ruleset.reposte.name.attack_kind();
            self.provoked_attacks(slot, &foes, kind);
        }
        let round = self.round();
        if let Ok(mut unit) = self.units.get_mut(slot.unit)
            && unit.status.on_field()
        {
            unit.conditions.prone = false;
            let id = unit.id.0.clone();
            self.log.record(round, || LogEvent::Status { unit: id, status: "standing" });
        }
    }

    /// An execution attack on an unaware target (`S-EXEC-1`): it hits; the target saves at a
    /// penalty of the attacker's attack skill or drops to zero; a saved target still takes the
    /// blow's maximum damage.
    fn execute(&mut self, actor: Entity, target: Entity, initiative: i32, pending: &mut Vec<Pending>) {
        let round = self.round();
        let Some(rules) = self.ruleset.attack.execution.clone() else {
            return;
        };
        let (Ok(a), Ok(t)) = (self.units.get(actor), self.units.get(target)) else {
            return;
        };
        let weapon = a.loadout.usable_weapon(a.conditions).1.clone();
        let dice = actions::damage_dice(&self.ruleset, &a, &weapon, false);
        let (actor_id, target_id) = (a.id.0.clone(), t.id.0.clone());
        let to_zero = t.stress.current.max(0) + t.wounds.current.max(0);
        let armour = t.armour.0;
        let skill = a.skills.attack;
        let defense = unit::defense_score(&self.ruleset, t.attributes, t.defense, t.conditions);
        // No roll to hit: the blow lands.
        let roll = self.rng.roll(crate::rules::dice::Dice::flat(defense));
        let (attacker, target_name) = (actor_id.clone(), target_id.clone());
        self.log.record(round, || LogEvent::Attack {
            attacker,
            target: target_name,
            initiative,
            roll,
            total: defense,
            defense,
            hit: true,
            critical: false,
            kind: AttackKind::Execution,
            damage_roll: None,
            extra: AttackExtra::default(),
        });
        let save = self.rng.roll(rules.save_die.plus(-skill));
        let saved = save.total >= rules.save_tn;
        let amount = if saved { damage::damage_after_armour(&self.ruleset, dice.max(), 1, armour) } else { to_zero };
        self.log.record(round, || LogEvent::Execution {
            unit: actor_id.clone(),
            target: target_id,
            roll: save,
            tn: rules.save_tn,
            saved,
        });
        pending.push(Pending::Damage(DamageHit {
            target,
            source: actor_id,
            amount,
            damage_type: weapon.damage_type,
            critical: false,
            roll: None,
        }));
    }

    /// Calls `summoner`'s next waiting summoned unit to the nearest free spot, if a summoning slot
    /// is free (`A-SUMM-1`); it is summoning-sick through the end of the next round.
    fn summon(&mut self, summoner: Entity) {
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
        let active = mine.iter().filter(|&&unit| self.units.get(unit).is_ok_and(|view| view.status.on_field())).count();
        let waiting = mine
            .iter()
            .copied()
            .filter(|&unit| self.units.get(unit).is_ok_and(|view| *view.status == Status::Reserve))
            .min_by_key(|&unit| self.units.get(unit).map_or(u32::MAX, |view| view.order.0));
        let (Some(called), true) = (waiting, active < slots) else {
            let id = self.id(summoner);
            self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "no_summoning_slot" });
            return;
        };
        let Ok(origin) = self.units.get(summoner).map(|view| view.zone.0) else {
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
            let id = self.id(summoner);
            self.log.record(round, || LogEvent::ActionLost { unit: id, reason: "zone_full" });
            return;
        };
        let on_turn = self.ruleset.turns.order.on_turn();
        let Ok(mut unit) = self.units.get_mut(called) else {
            return;
        };
        unit.zone.0 = spot;
        unit.conditions.sick_until = Some(round + 1);
        arrive(&mut unit, &mut self.index, &self.battlefield, &mut self.log, round);
        if !on_turn {
            let mut arrivals = vec![unit];
            roll_base_initiative(&self.ruleset, &mut self.rng, &mut self.log, round, &mut arrivals, &self.groups);
        }
    }

    /// Joins a swarm on `target` (`S-SPEC-1`).
    fn swarm(&mut self, actor: Entity, target: Entity) {
        let Ok(view) = self.units.get(actor) else {
            return;
        };
        let side = view.side.0;
        match self.state.swarms.iter_mut().find(|(unit, by, _)| *unit == target && *by == side) {
            Some((_, _, count)) => *count += 1,
            None => self.state.swarms.push((target, side, 1)),
        }
    }

    fn cast(&mut self, caster: Entity, at: usize, target: Entity, pending: &mut Vec<Pending>) {
        let round = self.round();
        let Ok(mut unit) = self.units.get_mut(caster) else {
            return;
        };
        let Some((name, spell)) = unit.spells.0.get(at).cloned() else {
            return;
        };
        if self.ruleset.spells.damage_disrupts && unit.record.damage_taken > 0 {
            let (id, damage_taken) = (unit.id.0.clone(), unit.record.damage_taken);
            self.log.record(round, || LogEvent::SpellDisrupted { unit: id, spell: name, damage_taken });
            return;
        }
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
            Effect::Summon => self.summon(target),
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
        // With one pool of hit points, whatever restores Stress restores hit points.
        let wounds = wounds || self.ruleset.damage.pools == super::ruleset::Pools::HitPoints;
        if wounds {
            let before = unit.wounds.current;
            unit.wounds.current = before.saturating_add(amount).min(unit.wounds.max.max(before));
            wounds_restored = unit.wounds.current - before;
        } else {
            let before = unit.stress.current;
            unit.stress.current = before.saturating_add(amount).min(unit.stress.max.max(before));
            stress_restored = unit.stress.current - before;
        }
        // Healing enough in one go closes a wound (`A-WOUND-1`).
        if let Some(aiming) = &self.ruleset.attack.aiming
            && unit.conditions.aimed_wounds > 0
            && stress_restored + wounds_restored >= aiming.heal_threshold
        {
            unit.conditions.aimed_wounds -= 1;
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
        let status = damage::status_under(&self.ruleset, *unit.status, wounds_now, strength);
        if status != *unit.status {
            *unit.status = status;
            if status == Status::Active {
                unit.conditions.stabilised = false;
            }
            self.log.record(round, || LogEvent::Status { unit: id, status: status.log_name() });
        }
    }
}

/// The swarm bonus an attack by `side` on `target` gets (to hit, damage), used up by the attack.
fn take_swarm(ruleset: &Ruleset, swarms: &mut Vec<(Entity, usize, i32)>, target: Entity, side: usize) -> (i32, i32) {
    let Some(rules) = &ruleset.attack.swarm else {
        return (0, 0);
    };
    let Some(at) = swarms.iter().position(|(unit, by, _)| *unit == target && *by == side) else {
        return (0, 0);
    };
    let (_, _, assailants) = swarms.remove(at);
    (
        (assailants * rules.hit_per_assailant).min(rules.max_hit),
        (assailants * rules.damage_per_assailant).min(rules.max_damage),
    )
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
    unit.record.damage_taken += taken.stress_lost + taken.wounds_lost;
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
    let status = damage::status_under(ruleset, *unit.status, unit.wounds.current, strength);
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
