//! The greedy AI: strikes the target it can hurt most for the least risk, stabilises fallen
//! friends, casts and throws when that beats its weapon, closes distance without walking into
//! Repostes for nothing, and turns to full defense when it is losing the exchange.

use super::view::{AiView, JustDeclared};
use crate::battlefield::{Cover, UNREACHABLE, ZoneIdx};
use crate::rules::actions::{self, ThreatMap, ViewCache};
use crate::rules::components::*;
use crate::rules::equipment::Effect;
use crate::rules::ruleset::RangedInMelee;
use crate::rules::unit::{self, UnitView};
use bevy::prelude::Entity;

/// Below this share of its Stress and Wounds, a unit counts itself as badly hurt.
const BADLY_HURT: f64 = 0.35;
/// A downed enemy is worth this share of a standing one as a target: it is already out of the fight.
const DOWNED_TARGET_WEIGHT: f64 = 0.05;
/// How much a provoked Reposte's expected damage weighs against the damage the move buys.
const REPOSTE_AVERSION: f64 = 1.0;
/// Stress share below which an ally is worth a restoring spell or item.
const HEAL_STRESS_SHARE: f64 = 0.4;
/// Below this chance to hit, an aimed attack goes for centre mass rather than a wound.
const AIM_FOR_WOUNDS_HIT_CHANCE: f64 = 0.6;
/// Below this chance to hit, a unit would rather swarm for an ally who strikes later.
const SWARM_BELOW_HIT_CHANCE: f64 = 0.4;
/// Chance an enemy with no foe in its reach is still where it stood when a blade walks up to it:
/// such a unit is free to move off, and usually does (to its own target).
const UNENGAGED_STAY_CHANCE: f64 = 0.35;
/// Share of a target's remaining health still worth striking once allies' declared blows are
/// expected to drop it: spare blows go to other targets.
const OVERKILL_FLOOR: f64 = 0.1;
/// Healing already declared on an ally covers this share of what it is missing: no one adds more.
const HEALING_ENOUGH: f64 = 0.8;
/// At most this many enemies are weighed as targets in one choice. In a crowd, a unit looks at
/// the nearest enemies first and takes an evenly spread sample of the zone that would overflow
/// the budget, so a round's cost grows with the units, not with their square. No shipped
/// skirmish goes past it (the Great Melee has 32 a side).
const MAX_PROSPECTS: usize = 32;
/// At most this many units nearby are looked at when a choice sizes up the crowd around it
/// (allies to heal, enemies that could strike): beyond it, an evenly spread sample stands in
/// for the rest. No shipped level has more units than this.
const MAX_NEIGHBOURS: usize = 64;

/// What is left of a unit to take down.
fn remaining(unit: &UnitView) -> f64 {
    (unit.stress.current.max(0) + unit.wounds.current.max(0) + 1) as f64
}

fn health_share(unit: &UnitView) -> f64 {
    let max = (unit.stress.max + unit.wounds.max).max(1) as f64;
    (unit.stress.current.max(0) + unit.wounds.current.max(0)) as f64 / max
}

/// What the actor's allies already declared in this pass (never the enemy's: their declarations
/// are theirs): expected damage aimed at each enemy and expected healing aimed at each friend.
enum Commitments<'a> {
    /// Summed over the pass's declarations for this one choice.
    Summed { damage: bevy::ecs::entity::EntityHashMap<f64>, healing: bevy::ecs::entity::EntityHashMap<f64> },
    /// Read from the pass's [`CommitmentBook`] for the actor's side.
    Booked { book: &'a CommitmentBook, side: SideIndex, actor: bevy::prelude::Entity },
}

impl Commitments<'_> {
    fn of_allies(view: &AiView, units: &ViewCache, actor: &UnitView, just_declared: &JustDeclared) -> Self {
        let mut damage = bevy::ecs::entity::EntityHashMap::<f64>::default();
        let mut healing = bevy::ecs::entity::EntityHashMap::<f64>::default();
        // Summed in a fixed order (level order), so the same pass always gives the same sums.
        let mut declared: Vec<(u32, &UnitView, Action)> = just_declared
            .iter()
            .filter_map(|(&unit, &action)| units.get(unit).map(|ally| (ally.order.0, ally, action)))
            .filter(|(_, ally, _)| ally.side == actor.side && ally.entity != actor.entity)
            .collect();
        declared.sort_by_key(|(order, ..)| *order);
        for (_, ally, action) in declared {
            let Some(target) = action.target.and_then(|target| units.get(target)) else {
                continue;
            };
            if target.side == actor.side {
                *healing.entry(target.entity).or_default() += expected_healing(view, ally, action.kind);
            } else {
                *damage.entry(target.entity).or_default() += expected_damage(view, ally, target, action.kind);
            }
        }
        Self::Summed { damage, healing }
    }

    fn damage_on(&self, unit: bevy::prelude::Entity) -> f64 {
        match self {
            Self::Summed { damage, .. } => damage.get(&unit).copied().unwrap_or(0.0),
            Self::Booked { book, side, actor } => CommitmentBook::sum(book.damage.get(&unit), *side, *actor),
        }
    }

    fn healing_on(&self, unit: bevy::prelude::Entity) -> f64 {
        match self {
            Self::Summed { healing, .. } => healing.get(&unit).copied().unwrap_or(0.0),
            Self::Booked { book, side, actor } => CommitmentBook::sum(book.healing.get(&unit), *side, *actor),
        }
    }
}

/// One declared blow or cure, as a [`CommitmentBook`] files it under its target.
#[derive(Clone, Copy)]
struct Pledge {
    /// The declaring unit's place in the level order: pledges are summed in that order.
    order: u32,
    ally: bevy::prelude::Entity,
    side: SideIndex,
    amount: f64,
}

/// The declarations of one pass, filed under their targets as they are made, in level order:
/// each later choice reads its allies' commitments to the targets it weighs, instead of going
/// over every declaration of the pass again (which made a big battle's pass quadratic). Sums
/// come out exactly as [`Commitments::of_allies`] adds them up.
#[derive(Default)]
pub struct CommitmentBook {
    damage: bevy::ecs::entity::EntityHashMap<Vec<Pledge>>,
    healing: bevy::ecs::entity::EntityHashMap<Vec<Pledge>>,
}

impl CommitmentBook {
    /// Files `unit`'s declared `action`, made in this pass.
    pub fn record(&mut self, view: &AiView, units: &ViewCache, unit: bevy::prelude::Entity, action: Action) {
        let Some(ally) = units.get(unit) else {
            return;
        };
        let Some(target) = action.target.and_then(|target| units.get(target)) else {
            return;
        };
        let (filed, amount) = if target.side == ally.side {
            (&mut self.healing, expected_healing(view, ally, action.kind))
        } else {
            (&mut self.damage, expected_damage(view, ally, target, action.kind))
        };
        let pledges = filed.entry(target.entity).or_default();
        let at = pledges.partition_point(|pledge| pledge.order <= ally.order.0);
        pledges.insert(at, Pledge { order: ally.order.0, ally: unit, side: *ally.side, amount });
    }

    /// What `side`'s units other than `actor` pledged, added up in level order.
    fn sum(pledges: Option<&Vec<Pledge>>, side: SideIndex, actor: bevy::prelude::Entity) -> f64 {
        pledges.map_or(0.0, |pledges| {
            pledges
                .iter()
                .filter(|pledge| pledge.side == side && pledge.ally != actor)
                .fold(0.0, |sum, pledge| sum + pledge.amount)
        })
    }
}

/// Expected Stress or Wound Points a restoring spell or item brings back.
fn expected_healing(view: &AiView, actor: &UnitView, kind: ActionKind) -> f64 {
    let restore = |effect: &Effect| match effect {
        Effect::RestoreStress { dice } | Effect::RestoreWounds { dice } => dice.mean(),
        _ => 0.0,
    };
    match kind {
        ActionKind::Cast(at) => {
            actor.spells.0.get(at).map_or(0.0, |(_, spell)| {
                cast_chance(view, actor.skills.spellcasting, spell.tn) * restore(&spell.effect)
            })
        }
        ActionKind::UseItem(at) => actor.inventory.0.get(at).map_or(0.0, |stack| restore(&stack.item.effect)),
        _ => 0.0,
    }
}

/// Whether `target` has a fighting foe of `side` within its weapon's reach: pinned there, it has
/// no reason to walk away before a blow lands.
pub(super) fn engaged(
    view: &AiView,
    units: &ViewCache,
    target: &UnitView,
    side: crate::rules::components::SideIndex,
) -> bool {
    let reach = actions::weapon_range(target.loadout.usable_weapon(target.conditions).1);
    view.battlefield.within(target.zone.0, reach).any(|zone| units.has_fighting(view.ctx(), zone, side))
}

/// Chance a melee target is still in reach when the blow falls: certain when its (visible)
/// declaration says it stays, or when it is pinned by one of ours; otherwise it may well walk off.
/// `declared` is the target's visible declaration ([`visible_declaration`]).
fn stay_chance(view: &AiView, units: &ViewCache, actor: &UnitView, target: &UnitView, declared: Option<Action>) -> f64 {
    if let Some(action) = declared {
        return if action.move_to.is_none_or(|to| to == target.zone.0) { 1.0 } else { UNENGAGED_STAY_CHANCE };
    }
    if !unit::is_fighting(*target.status, target.conditions) || engaged(view, units, target, *actor.side) {
        1.0
    } else {
        UNENGAGED_STAY_CHANCE
    }
}

/// The greedy AI's choice for `actor`.
pub fn choose(
    view: &AiView,
    units: &ViewCache,
    threats: &ThreatMap,
    actor: &UnitView,
    just_declared: &JustDeclared,
) -> Action {
    let commitments = || Commitments::of_allies(view, units, actor, just_declared);
    choose_with(view, units, threats, actor, just_declared, commitments)
}

/// The greedy AI's choice for `actor` in a declaration pass whose choices so far `book` has
/// filed (every one in `just_declared`, and no other): the same choice as [`choose`], found
/// without going over the whole pass.
pub(super) fn choose_in_pass(
    view: &AiView,
    units: &ViewCache,
    threats: &ThreatMap,
    actor: &UnitView,
    just_declared: &JustDeclared,
    book: &CommitmentBook,
) -> Action {
    let commitments = || Commitments::Booked { book, side: *actor.side, actor: actor.entity };
    choose_with(view, units, threats, actor, just_declared, commitments)
}

fn choose_with<'c>(
    view: &AiView,
    units: &ViewCache,
    threats: &ThreatMap,
    actor: &UnitView,
    just_declared: &JustDeclared,
    commitments: impl FnOnce() -> Commitments<'c>,
) -> Action {
    let ctx = view.ctx();
    let hold = Action::simple(ActionKind::Hold);
    if actor.status.is_down() {
        return self_rescue(view, units, actor).unwrap_or(hold);
    }
    if let Some(action) = super::manhandle::stand_up(view, units, threats, actor) {
        return action;
    }
    if let Some(action) = stabilise_an_ally(view, units, actor) {
        return action;
    }
    let commitments = commitments();
    if let Some(action) = restore_an_ally(view, units, actor, &commitments) {
        return action;
    }
    if let Some(action) = summon(view, units, actor) {
        return action;
    }
    if let Some(action) = parry_while_falling_back(view, units, actor) {
        return action;
    }
    let best_attack = best_offence(view, units, threats, actor, just_declared, &commitments);
    let outgoing = best_attack.as_ref().map_or(0.0, |(_, expected, _)| *expected);
    // Losing the exchange: badly hurt, and it would go down before its best target does. Never
    // twice running, so two defenders facing each other do not stall the fight for ever.
    let defended_last_round = actor.declared.previous == Some(ActionKind::FullDefense);
    let losing = health_share(actor) < BADLY_HURT && !defended_last_round && {
        let incoming = incoming_damage(view, units, actor, actor.zone.0);
        let rounds_to_fall = remaining(actor) / incoming.max(f64::EPSILON);
        let rounds_to_win =
            best_attack.as_ref().map_or(f64::INFINITY, |(_, _, left)| left / outgoing.max(f64::EPSILON));
        incoming > 0.0 && rounds_to_fall < rounds_to_win
    };
    if losing {
        let defend = Action::simple(ActionKind::FullDefense);
        if actions::check(ctx, actor, &defend, units).is_ok() {
            return defend;
        }
    }
    if let Some(action) = super::manhandle::manhandle(view, units, actor, outgoing) {
        return action;
    }
    if let Some((action, ..)) = best_attack {
        let refined = refine_attack(view, units, actor, action);
        return step_away_after(view, units, threats, actor, refined);
    }
    if let Some(action) = charge(view, units, actor) {
        return action;
    }
    approach(view, units, threats, actor).unwrap_or(hold)
}

/// A unit falling back after failed morale parries instead of attacking while a foe can reach
/// it this round (`C-WDRAW-1`: "you can parry instead of attack").
fn parry_while_falling_back(view: &AiView, units: &ViewCache, actor: &UnitView) -> Option<Action> {
    if !actor.conditions.falling_back || incoming_damage(view, units, actor, actor.zone.0) <= 0.0 {
        return None;
    }
    let parry = Action::simple(ActionKind::FullDefense);
    actions::check(view.ctx(), actor, &parry, units).is_ok().then_some(parry)
}

/// A downed unit drinks a restoring draught if it has one (the Wound Point it costs is worth it).
fn self_rescue(view: &AiView, units: &ViewCache, actor: &UnitView) -> Option<Action> {
    actor.inventory.0.iter().enumerate().find_map(|(at, stack)| {
        let heals = matches!(stack.item.effect, Effect::RestoreWounds { .. }) && !stack.item.thrown && stack.count > 0;
        let action = Action::new(ActionKind::UseItem(at), Some(actor.entity), None);
        (heals && actions::check(view.ctx(), actor, &action, units).is_ok()).then_some(action)
    })
}

/// A healer Close to a fallen ally tries to stabilise it, when it has the skill for it.
fn stabilise_an_ally(view: &AiView, units: &ViewCache, actor: &UnitView) -> Option<Action> {
    if actor.skills.heal <= 0 {
        return None;
    }
    view.index.occupants(actor.zone.0).iter().find_map(|&other| {
        // Only a fallen unit can be stabilised (`check_target`): the standing ones are passed
        // over on the cache's brief, without checking or viewing them.
        if !units.side_and_status(other).is_some_and(|(_, status)| status.is_down()) {
            return None;
        }
        let action = Action::new(ActionKind::Stabilize, Some(other), None);
        actions::check(view.ctx(), actor, &action, units).is_ok().then_some(action)
    })
}

/// Casts or uses a restoring spell or item on the most worn-down ally in reach.
fn restore_an_ally(view: &AiView, units: &ViewCache, actor: &UnitView, commitments: &Commitments) -> Option<Action> {
    let mut kinds: Vec<ActionKind> = Vec::new();
    for (at, (_, spell)) in actor.spells.0.iter().enumerate() {
        if !spell.effect.is_hostile() && !spell.effect.summons() && actor.mana.current >= spell.mana {
            kinds.push(ActionKind::Cast(at));
        }
    }
    for (at, stack) in actor.inventory.0.iter().enumerate() {
        if !stack.item.effect.is_hostile() && !stack.item.thrown {
            kinds.push(ActionKind::UseItem(at));
        }
    }
    if kinds.is_empty() {
        return None;
    }
    let mut best: Option<(f64, Action)> = None;
    let nearby: Vec<&[Entity]> =
        view.battlefield.within(actor.zone.0, 1).map(|zone| view.index.occupants(zone)).collect();
    for other in within_budget(&nearby, actor.entity, MAX_NEIGHBOURS) {
        // Enemies, the fallen and those off the field are passed over on the cache's brief,
        // without viewing them.
        let Some((side, status)) = units.side_and_status(other) else {
            continue;
        };
        if side != actor.side.0 || !status.on_field() || status.is_down() {
            continue;
        }
        let Some(ally) = units.get(other) else {
            continue;
        };
        // One-pool rulesets heal hit points: judge by the whole of what is left.
        let share =
            if ally.stress.max > 0 { ally.stress.current as f64 / ally.stress.max as f64 } else { health_share(ally) };
        if share >= HEAL_STRESS_SHARE {
            continue;
        }
        // Healing beyond what it is missing is wasted: leave it to the allies already on it.
        let missing = if ally.stress.max > 0 {
            ally.stress.max - ally.stress.current
        } else {
            ally.wounds.max - ally.wounds.current
        };
        if commitments.healing_on(other) >= HEALING_ENOUGH * missing.max(0) as f64 {
            continue;
        }
        for &kind in &kinds {
            let action = Action::new(kind, Some(other), None);
            if actions::check(view.ctx(), actor, &action, units).is_ok()
                && best.as_ref().is_none_or(|(worst, _)| share < *worst)
            {
                best = Some((share, action));
            }
        }
    }
    best.map(|(_, action)| action)
}

/// Expected damage per round the enemies that can reach `zone` would deal to `actor`.
fn incoming_damage(view: &AiView, units: &ViewCache, actor: &UnitView, zone: ZoneIdx) -> f64 {
    const FURTHEST_THREAT: u32 = 3;
    let around: Vec<&[Entity]> =
        view.battlefield.within(zone, FURTHEST_THREAT).map(|here| view.index.occupants(here)).collect();
    let crowd: usize = around.iter().map(|units| units.len()).sum();
    let mut total = 0.0;
    let mut weighed = 0;
    for other in within_budget(&around, actor.entity, MAX_NEIGHBOURS) {
        weighed += 1;
        let Some(enemy) = units.get(other) else {
            continue;
        };
        let distance = view.battlefield.distance(enemy.zone.0, zone);
        if enemy.side == actor.side || !unit::is_fighting(*enemy.status, enemy.conditions) {
            continue;
        }
        let weapon = enemy.loadout.usable_weapon(enemy.conditions).1;
        let reach = actions::weapon_range(weapon)
            + unit::movement_allowance(
                &view.ruleset,
                *enemy.speed,
                *enemy.status,
                enemy.conditions,
                ActionKind::Attack,
            );
        if reach >= distance {
            total += actions::attack_odds(&view.ruleset, enemy, actor).expected;
        }
    }
    // A sampled crowd stands for the whole of it.
    if weighed < crowd { total * crowd as f64 / weighed as f64 } else { total }
}

/// An enemy the actor could strike this round, looked at once.
struct Prospect<'v, 'w, 's> {
    view: &'v UnitView<'w, 's>,
    weight: f64,
    remaining: f64,
    /// What is left of it once the blows allies already declared land, as expected.
    left_after_allies: f64,
    /// Chance it is still where it stands when a melee blow that must walk to it lands.
    stay_chance: f64,
    /// Where this prospect's expected damage per option starts in the shared table.
    first: usize,
    full_defense_risk: f64,
}

/// One way the actor could do damage this round: an action kind and how far it reaches.
#[derive(Clone, Copy)]
struct OffenceOption {
    kind: ActionKind,
    range: u32,
}

/// Every kind of damaging action the actor has to hand, with its range. Each kind is gathered by
/// a small function of its own: a new kind of offence (a shove, a grapple) adds one here, and
/// [`expected_damage`] says what it is worth against a target.
fn offence_options(actor: &UnitView) -> Vec<OffenceOption> {
    let mut options = vec![weapon_attack(actor)];
    options.extend(hostile_spells(actor));
    options.extend(throwables(actor));
    options
}

/// A blow or shot with the weapon in hand.
fn weapon_attack(actor: &UnitView) -> OffenceOption {
    let weapon = actor.loadout.usable_weapon(actor.conditions).1;
    OffenceOption { kind: ActionKind::Attack, range: actions::weapon_range(weapon) }
}

/// Hostile spells the actor has the Mana for.
fn hostile_spells<'a>(actor: &'a UnitView) -> impl Iterator<Item = OffenceOption> + 'a {
    actor.spells.0.iter().enumerate().filter_map(|(at, (_, spell))| {
        // Spend Mana, not Stress: Stress is what keeps the caster standing.
        (spell.effect.is_hostile() && actor.mana.current >= spell.mana)
            .then_some(OffenceOption { kind: ActionKind::Cast(at), range: spell.range })
    })
}

/// Thrown items the actor still carries.
fn throwables<'a>(actor: &'a UnitView) -> impl Iterator<Item = OffenceOption> + 'a {
    actor.inventory.0.iter().enumerate().filter_map(|(at, stack)| {
        (stack.item.thrown && stack.count > 0)
            .then_some(OffenceOption { kind: ActionKind::Throw(at), range: stack.item.range })
    })
}

/// A scored offensive action: its score, the damage it is expected to deal, and what is left of
/// its target.
#[derive(Clone, Copy)]
struct Candidate {
    score: f64,
    action: Action,
    expected: f64,
    left: f64,
}

/// The actor's offence as it is weighed: what it looks at, gathered once per choice. (The AI's
/// view, the unit cache and the actor each carry their own pair of Bevy lifetimes.)
struct Offence<'a, 'vw, 'vs, 'w, 's, 'uw, 'us> {
    view: &'a AiView<'vw, 'vs>,
    units: &'a ViewCache<'w, 's>,
    threats: &'a ThreatMap<'a>,
    actor: &'a UnitView<'uw, 'us>,
    just_declared: &'a JustDeclared,
    /// How far it may walk before it strikes.
    allowance: u32,
    options: Vec<OffenceOption>,
    /// How many allies chose to move into each zone earlier in this pass, counted once and only
    /// when a zone with a capacity is asked about.
    claims: std::cell::OnceCell<std::collections::HashMap<ZoneIdx, usize>>,
}

/// The best damaging action (attack, throw or spell, with a move if needed), its expected
/// damage, and what is left of its target.
fn best_offence(
    view: &AiView,
    units: &ViewCache,
    threats: &ThreatMap,
    actor: &UnitView,
    just_declared: &JustDeclared,
    commitments: &Commitments,
) -> Option<(Action, f64, f64)> {
    let allowance =
        unit::movement_allowance(&view.ruleset, *actor.speed, *actor.status, actor.conditions, ActionKind::Attack);
    let options = offence_options(actor);
    let claims = std::cell::OnceCell::new();
    let offence = Offence { view, units, threats, actor, just_declared, allowance, options, claims };
    let (prospects, expected_table) = offence.prospects(commitments);
    let candidates = offence.candidates(&prospects, &expected_table);
    offence.finish(best_first(candidates))
}

/// The enemies in `lists` (nearest zone first) that one choice weighs: all of them when they fit
/// in `budget`, else every one of the nearer zones that fit whole and an evenly spaced sample of
/// the first zone that does not. Where the sample starts depends on the chooser, so neighbours in
/// a crowd weigh overlapping but different targets.
/// Taken as the caller goes, with nothing collected on the way.
fn within_budget<'a, 'l: 'a>(
    lists: &'a [&'l [Entity]],
    chooser: Entity,
    budget: usize,
) -> impl Iterator<Item = Entity> + 'a {
    let mut left = budget;
    lists
        .iter()
        .map_while(move |&list| {
            // How many of this zone are weighed: all while they fit, else what is left.
            let take = list.len().min(left);
            (left > 0).then(|| {
                left -= take;
                (list, take)
            })
        })
        .flat_map(move |(list, take)| {
            let len = list.len();
            let start = if take < len { chooser.index_u32() as usize % len } else { 0 };
            (0..take).map(move |nth| if take < len { list[(start + nth * len / take) % len] } else { list[nth] })
        })
}

/// How many enemies [`within_budget`] weighs from `lists`.
fn budgeted_count(lists: &[&[Entity]], budget: usize) -> usize {
    lists.iter().map(|list| list.len()).sum::<usize>().min(budget)
}

impl<'a, 'w, 's> Offence<'a, '_, '_, 'w, 's, '_, '_> {
    /// Every enemy in reach this round, with what each option would do to it, computed once
    /// into one shared table.
    fn prospects(&self, commitments: &Commitments) -> (Vec<Prospect<'a, 'w, 's>>, Vec<f64>) {
        let (view, units, actor, just_declared) = (self.view, self.units, self.actor, self.just_declared);
        let max_range = self.options.iter().map(|option| option.range).max().unwrap_or(0);
        let melee = !actor.loadout.usable_weapon(actor.conditions).1.is_ranged();
        let mut alike = AlikeTargets::default();
        let targets = units.targets(view.ctx());
        // The nearest enemies first, and no more of them than the budget weighs: the lists after
        // those that fill it would not be read.
        let mut reachable: Vec<&[Entity]> = Vec::new();
        let mut listed = 0;
        // Zones nearer than the nearest unit of another side hold no enemy: passed over.
        let nearest = units.foe_distance_floor(view.ctx(), actor.zone.0, actor.side.0);
        for zone in view.battlefield.within_from(actor.zone.0, nearest, self.allowance + max_range) {
            if listed >= MAX_PROSPECTS {
                break;
            }
            let enemies = targets.enemies(zone, actor.side.0);
            if !enemies.is_empty() {
                listed += enemies.len();
                reachable.push(enemies);
            }
        }
        let count = budgeted_count(&reachable, MAX_PROSPECTS);
        // Sized once: one row of options per enemy weighed.
        let mut expected_table: Vec<f64> = Vec::with_capacity(count * self.options.len());
        let mut prospects = Vec::with_capacity(count);
        let picked = within_budget(&reachable, actor.entity, MAX_PROSPECTS);
        prospects.extend(picked.filter_map(|other| units.get(other)).map(|target| {
            // Looked up once for both of the melee risks below.
            let declared = if melee { visible_declaration(view, units, target.entity, just_declared) } else { None };
            Prospect {
                view: target,
                weight: if target.status.is_down() { DOWNED_TARGET_WEIGHT } else { 1.0 },
                remaining: remaining(target),
                left_after_allies: (remaining(target) - commitments.damage_on(target.entity))
                    .max(OVERKILL_FLOOR * remaining(target)),
                stay_chance: if melee { stay_chance(view, units, actor, target, declared) } else { 1.0 },
                first: {
                    let first = expected_table.len();
                    expected_table.extend(
                        self.options
                            .iter()
                            .enumerate()
                            .map(|(at, option)| alike.expected(view, actor, target, at, option.kind)),
                    );
                    first
                },
                full_defense_risk: if melee { full_defense_risk(view, actor, target, declared) } else { 0.0 },
            }
        }));
        (prospects, expected_table)
    }

    /// One candidate per target and option, scored without the Repostes a move provokes (which
    /// can only lower a score).
    fn candidates(&self, prospects: &[Prospect], expected_table: &[f64]) -> Vec<Ranked> {
        let mut candidates = Vec::with_capacity(prospects.len() * self.options.len());
        for prospect in prospects {
            let expected_per_option = &expected_table[prospect.first..prospect.first + self.options.len()];
            for (&option, &expected) in self.options.iter().zip(expected_per_option) {
                if let Some(candidate) = self.candidate(prospect, option, expected) {
                    candidates.push(Ranked { candidate, at: candidates.len() });
                }
            }
        }
        candidates
    }

    /// `option` against `prospect`: from where it stands if in reach, else from a step just far
    /// enough along the shortest path; `None` when it cannot get there or it is not worth it.
    fn candidate(&self, prospect: &Prospect, option: OffenceOption, expected: f64) -> Option<Candidate> {
        let OffenceOption { kind, range } = option;
        let target_zone = prospect.view.zone.0;
        // Missiles and spells fly straight and need sight; blades walk.
        let shoots = actions::is_ranged(self.actor, kind);
        let move_to = self.strike_from(target_zone, shoots, range)?;
        // A shooter on a grid takes cover: the free spot in range and sight of its target
        // where the target sees least of it, if one is as near as the plain choice.
        let move_to = if shoots && self.view.battlefield.is_grid() {
            take_cover(self.view, self.actor, target_zone, range, self.allowance, move_to, &|zone| self.full(zone))
        } else {
            move_to
        };
        let score = self.score(prospect, kind, expected, move_to, shoots);
        (score > 0.0).then_some(Candidate {
            score,
            action: Action::new(kind, Some(prospect.view.entity), move_to),
            expected,
            left: prospect.remaining,
        })
    }

    /// Where to strike `target_zone` from with a reach of `range`: `Some(None)` from where the
    /// actor stands, `None` when no free spot in reach this round will do.
    fn strike_from(&self, target_zone: ZoneIdx, shoots: bool, range: u32) -> Option<Option<ZoneIdx>> {
        let field = &self.view.battlefield;
        let here = self.actor.zone.0;
        let walking = field.distance(here, target_zone);
        let distance_now = if !shoots {
            walking
        } else if field.sight(here, target_zone).is_some() {
            field.line_distance(here, target_zone)
        } else {
            walking.max(range + 1)
        };
        if distance_now <= range {
            return Some(None);
        }
        if distance_now - range > self.allowance {
            return None;
        }
        match field.step_toward(here, target_zone, distance_now - range) {
            Some(zone) if !self.full(zone) => Some(Some(zone)),
            // The square on the straight way is taken: any free one in reach of the target and
            // in a walk of here, looked for from whichever of the two is the smaller circle.
            _ => {
                let in_reach = |zone: &ZoneIdx| field.distance(target_zone, *zone) <= range;
                let in_walk = |zone: &ZoneIdx| field.distance(here, *zone) <= self.allowance;
                // Both searches find the least `(walk from here, index)` among free spots in
                // reach and in the walk. From here the search stops at the first such spot, and
                // none lies nearer here than `walking - range`: when that is less than the reach,
                // the circle searched from here is the smaller one too (a shooter's circle round
                // its target is wide).
                if self.allowance < range || walking.saturating_sub(range) < range {
                    // `within` goes nearest first, ties by index: the first free spot is the
                    // nearest (lowest index among the nearest), so the search stops there. It
                    // starts `walking - range` out: a spot nearer here is more than `range` from
                    // the target, or the walk through it would be shorter than `walking`.
                    return field
                        .within_from(here, walking.saturating_sub(range), self.allowance)
                        .filter(in_reach)
                        .find(|&zone| !self.full(zone))
                        .map(Some);
                }
                field
                    .within(target_zone, range)
                    .filter(in_walk)
                    .filter(|&zone| !self.full(zone))
                    .map(|zone| (field.distance(here, zone), zone))
                    .min()
                    .map(|(_, zone)| Some(zone))
            }
        }
    }

    /// Whether `zone` has no room left, counting squares allies just chose in this same pass
    /// (never the enemy's: secret).
    fn full(&self, zone: ZoneIdx) -> bool {
        self.view.battlefield.capacity(zone).is_some_and(|capacity| {
            let standing = self.view.index.count(zone);
            // A zone full of those standing there needs no look at the claims (a hashed look-up).
            standing as u32 >= capacity || {
                let claims = self.claims.get_or_init(|| ally_claims(self.units, self.actor, self.just_declared));
                (standing + claims.get(&zone).copied().unwrap_or(0)) as u32 >= capacity
            }
        })
    }

    /// A candidate's score before the Repostes its move provokes: the damage it does where it
    /// counts, less the risks of where it strikes from.
    fn score(
        &self,
        prospect: &Prospect,
        kind: ActionKind,
        expected: f64,
        move_to: Option<ZoneIdx>,
        shoots: bool,
    ) -> f64 {
        let (view, actor) = (self.view, self.actor);
        let mut score = prospect.weight * expected.min(prospect.left_after_allies) / prospect.remaining.sqrt();
        // A blade that must walk up to an unpinned foe often finds it gone.
        if move_to.is_some() && !shoots {
            score *= prospect.stay_chance;
        }
        let standing = move_to.unwrap_or(actor.zone.0);
        // Shooting or casting from inside an enemy's reach draws its attack where the ruleset
        // says so: weigh that like a Reposte.
        if shoots && view.ruleset.attack.ranged_in_melee == crate::rules::ruleset::RangedInMelee::Provokes {
            let risk: f64 = self
                .threats
                .threateners(view.ctx(), standing, *actor.side)
                .filter(|threat| threat.can_react)
                .filter_map(|threat| self.units.get(threat.unit))
                .map(|enemy| actions::attack_odds(&view.ruleset, enemy, actor).expected)
                .sum();
            score -= REPOSTE_AVERSION * risk / remaining(actor).sqrt();
        }
        if matches!(kind, ActionKind::Attack) && view.battlefield.distance(standing, prospect.view.zone.0) == 0 {
            score -= prospect.full_defense_risk;
        }
        score
    }

    /// Best first, each candidate is finished off with the Repostes its move provokes (or turned
    /// into a defensive attack) and checked, until none left can beat the best so far.
    fn finish(&self, candidates: impl Iterator<Item = Candidate>) -> Option<(Action, f64, f64)> {
        let mut walks: Vec<Walk> = Vec::new();
        let mut best: Option<Candidate> = None;
        for Candidate { score: bound, mut action, expected, left } in candidates {
            if best.as_ref().is_some_and(|best| bound <= best.score) {
                break;
            }
            let walk = self.walk(&mut walks, action.move_to);
            let mut score = bound;
            if walk.provokes {
                // A defensive attack enters threat ranges without provoking, for one count of initiative.
                if action.kind == ActionKind::Attack
                    && actions::offered(&self.view.ruleset, ActionKind::DefensiveAttack)
                {
                    action.kind = ActionKind::DefensiveAttack;
                } else {
                    score -= walk.reposte_risk;
                }
            }
            if score > 0.0
                && best.as_ref().is_none_or(|best| score > best.score)
                && actions::check(self.view.ctx(), self.actor, &action, self.units).is_ok()
            {
                best = Some(Candidate { score, action, expected, left });
            }
        }
        best.map(|best| (best.action, best.expected, best.left))
    }

    /// The Repostes a walk to `move_to` provokes, worked out once per destination.
    fn walk(&self, walks: &mut Vec<Walk>, move_to: Option<ZoneIdx>) -> Walk {
        if let Some(walk) = walks.iter().find(|walk| walk.to == move_to) {
            return *walk;
        }
        let walk = Action::new(ActionKind::Attack, None, move_to);
        let provoked = actions::repostes_on_path(self.view.ctx(), self.threats, self.actor, &walk);
        let reposte_risk = provoked
            .iter()
            .filter_map(|&enemy| self.units.get(enemy))
            .map(|enemy| actions::attack_odds(&self.view.ruleset, enemy, self.actor).expected)
            .sum::<f64>()
            * REPOSTE_AVERSION
            / remaining(self.actor).sqrt();
        let walk = Walk { to: move_to, provokes: !provoked.is_empty(), reposte_risk };
        walks.push(walk);
        walk
    }
}

/// How many of `actor`'s allies chose to move into each zone earlier in this pass: squares they
/// claimed are taken too (never the enemy's choices: those are secret).
fn ally_claims(
    units: &ViewCache,
    actor: &UnitView,
    just_declared: &JustDeclared,
) -> std::collections::HashMap<ZoneIdx, usize> {
    let mut claims = std::collections::HashMap::new();
    for (unit, action) in just_declared {
        if let Some(zone) = action.move_to
            && units.get(*unit).is_some_and(|ally| ally.side == actor.side)
        {
            *claims.entry(zone).or_default() += 1;
        }
    }
    claims
}

/// A candidate and its place in the order candidates were made: ranked by score, equal scores
/// in that order.
struct Ranked {
    candidate: Candidate,
    at: usize,
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.candidate.score.total_cmp(&other.candidate.score).then(other.at.cmp(&self.at))
    }
}

/// `candidates` best score first, equal scores in the order they came (as a stable sort would
/// give them), taken from a heap as asked: the search usually stops after a few. The heap is
/// made in the candidates' own list.
fn best_first(candidates: Vec<Ranked>) -> impl Iterator<Item = Candidate> {
    let mut heap = std::collections::BinaryHeap::from(candidates);
    std::iter::from_fn(move || heap.pop().map(|ranked| ranked.candidate))
}

/// Expected damage of each option against targets alike in Defense and Armour (all it depends
/// on besides the actor), worked out once per choice: a crowd wears few kinds of armour. The
/// actor's half of a weapon blow's odds is worked out once too, at the first blow weighed.
#[derive(Default)]
struct AlikeTargets<'a> {
    seen: Vec<((usize, i32, i32), f64)>,
    blow: Option<actions::AttackerOdds<'a>>,
}

impl<'a> AlikeTargets<'a> {
    fn expected(
        &mut self,
        view: &AiView,
        actor: &'a UnitView,
        target: &UnitView,
        option: usize,
        kind: ActionKind,
    ) -> f64 {
        let defense = unit::defense_score(&view.ruleset, target.attributes, target.defense, target.conditions);
        let key = (option, defense, target.armour.0);
        if let Some(&(_, expected)) = self.seen.iter().find(|(seen, _)| *seen == key) {
            return expected;
        }
        // The same as `expected_damage`, with the actor's half of a blow's odds kept.
        let expected = if is_weapon_blow(kind) {
            let ruleset = &view.ruleset;
            let blow = self.blow.get_or_insert_with(|| actions::AttackerOdds::of(ruleset, actor));
            blow.against(ruleset, defense, target.armour.0).expected
        } else {
            expected_damage(view, actor, target, kind)
        };
        self.seen.push((key, expected));
        expected
    }
}

/// Whether `kind` strikes with the weapon in hand, so [`actions::attack_odds`] gives its odds.
fn is_weapon_blow(kind: ActionKind) -> bool {
    matches!(
        kind,
        ActionKind::Attack
            | ActionKind::DefensiveAttack
            | ActionKind::Aimed(_)
            | ActionKind::Charge
            | ActionKind::Execute
    )
}

/// What `unit` has visibly declared, as [`AiView::visible_declaration`] says, read from the views
/// cached for this pass rather than the world.
fn visible_declaration(
    view: &AiView,
    units: &ViewCache,
    unit: bevy::prelude::Entity,
    just_declared: &JustDeclared,
) -> Option<Action> {
    if view.queue.secret {
        return None;
    }
    just_declared.get(&unit).copied().or_else(|| units.get(unit).and_then(|seen| seen.declared.action))
}

/// A walk to a spot to strike from, and the Repostes it would provoke.
#[derive(Clone, Copy)]
struct Walk {
    to: Option<ZoneIdx>,
    provokes: bool,
    /// Their expected damage, weighed against what the actor has left.
    reposte_risk: f64,
}

/// The spot a shooter should shoot from: among free spots it can reach this round that keep the
/// target in range and sight, the one where the target has the least sight of it (most cover),
/// then the one nearest to where it stands; `planned` when nothing is better.
fn take_cover(
    view: &AiView,
    actor: &UnitView,
    target_zone: ZoneIdx,
    range: u32,
    allowance: u32,
    planned: Option<ZoneIdx>,
    full: &impl Fn(ZoneIdx) -> bool,
) -> Option<ZoneIdx> {
    let field = &view.battlefield;
    let here = actor.zone.0;
    let cover_at = |zone: ZoneIdx| field.sight(target_zone, zone).map_or(Cover::Full, |cover| cover);
    let planned_spot = planned.unwrap_or(here);
    let planned_cover = cover_at(planned_spot);
    // Only more cover than the plan's replaces it.
    if planned_cover == Cover::Full {
        return planned;
    }
    let planned_walk = field.distance(here, planned_spot);
    // The most cover, then the shortest walk, then the lowest index: `within` goes nearest
    // first (ties by index), so the first spot with the most cover is the one, and a spot with
    // full cover ends the search.
    let mut best: Option<(Cover, ZoneIdx)> = None;
    // A spot whose walk from here is shorter than `line - range` is more than `range` from the
    // target in a straight line (no walk is shorter than the straight line), so the search
    // starts that far out.
    let nearest = field.line_distance(here, target_zone).saturating_sub(range);
    for zone in field.within_from(here, nearest, allowance) {
        // The distance first: it is the cheapest test, then the room, then the sight.
        if field.line_distance(zone, target_zone) > range || (zone != here && full(zone)) {
            continue;
        }
        // Sight is symmetric (`S-LOS-1`): the spot sees the target exactly when the target sees
        // the spot, so one look tells both that and the spot's cover.
        let Some(cover) = field.sight(target_zone, zone) else {
            continue;
        };
        if best.is_none_or(|(best_cover, _)| cover > best_cover) {
            best = Some((cover, zone));
            if cover == Cover::Full {
                break;
            }
        }
    }
    let (cover, zone) = best?;
    let walk = field.distance(here, zone);
    if cover > planned_cover && walk <= planned_walk.max(1) + 1 {
        Some(zone).filter(|&zone| zone != here)
    } else {
        planned
    }
}

/// Calls a waiting summoned unit while a slot is free, or conjures new ones while none of its
/// summons is on the field: more bodies beat one more blow (`A-SUMM-1`).
fn summon(view: &AiView, units: &ViewCache, actor: &UnitView) -> Option<Action> {
    let mine = |wanted: fn(&Status) -> bool| {
        view.summoned.iter().any(|(summoned, status)| summoned.summoner == actor.entity && wanted(status))
    };
    let waiting = mine(|status| *status == Status::Reserve);
    let fielded = mine(|status| status.on_field());
    actor.spells.0.iter().enumerate().find_map(|(at, (_, spell))| {
        let wanted = match spell.effect {
            Effect::Summon => waiting,
            Effect::Conjure { .. } => !fielded,
            _ => false,
        };
        let action = Action::new(ActionKind::Cast(at), Some(actor.entity), None);
        (wanted && actions::check(view.ctx(), actor, &action, units).is_ok()).then_some(action)
    })
}

/// The Reposte a target in (visibly declared) full defense would answer a melee attack with.
/// `declared` is the target's visible declaration ([`visible_declaration`]).
fn full_defense_risk(view: &AiView, actor: &UnitView, target: &UnitView, declared: Option<Action>) -> f64 {
    let in_full_defense = declared.is_some_and(|action| action.kind == ActionKind::FullDefense);
    if in_full_defense {
        REPOSTE_AVERSION * actions::attack_odds(&view.ruleset, target, actor).expected / remaining(actor).sqrt()
    } else {
        0.0
    }
}

/// The damage `actor` may expect to deal `target` in one action of `kind`.
pub(super) fn expected_damage(view: &AiView, actor: &UnitView, target: &UnitView, kind: ActionKind) -> f64 {
    match kind {
        kind if is_weapon_blow(kind) => actions::attack_odds(&view.ruleset, actor, target).expected,
        ActionKind::Cast(at) => actor.spells.0.get(at).map_or(0.0, |(_, spell)| {
            let chance = cast_chance(view, actor.skills.spellcasting, spell.tn);
            match spell.effect {
                Effect::Damage { dice, .. } => chance * dice.mean(),
                _ => 0.0,
            }
        }),
        ActionKind::Throw(at) => {
            let Some(weapon) = actor.inventory.0.get(at).and_then(|stack| stack.item.as_thrown_weapon()) else {
                return 0.0;
            };
            let dice = actions::damage_dice(&view.ruleset, actor, &weapon, true);
            let defense = unit::defense_score(&view.ruleset, target.attributes, target.defense, target.conditions);
            let bonus = actions::roll_bonus(&view.ruleset, actor, &weapon, true);
            actions::odds_against(&view.ruleset, bonus, &weapon, dice, defense, target.armour.0).expected
        }
        _ => 0.0,
    }
}

/// Chance the casting check reaches `tn`.
fn cast_chance(view: &AiView, skill: i32, tn: i32) -> f64 {
    let die = view.ruleset.spells.casting_die;
    let sides = die.sides.max(1) as i32;
    let needed = tn - skill - die.modifier;
    ((sides - needed + 1).clamp(0, sides)) as f64 / sides as f64
}

/// Moves toward the nearest fighting enemy; attacks defensively on the way when the move
/// enters a threat range, so it provokes no Reposte.
fn approach(view: &AiView, units: &ViewCache, threats: &ThreatMap, actor: &UnitView) -> Option<Action> {
    let allowance = unit::action_allowance(
        &view.ruleset,
        *actor.speed,
        *actor.status,
        actor.conditions,
        &Action::simple(ActionKind::Move),
    );
    if allowance == 0 {
        return None;
    }
    let enemy_zones = nearest_enemy_zones(view, units, actor);
    // Distances are symmetric (every way between zones goes both ways): read from the enemies'
    // rows of the table, a few rows for all the squares around, not a row per square.
    let nearest = |zone: ZoneIdx| {
        enemy_zones.iter().map(|&enemy| view.battlefield.distance(enemy, zone)).min().unwrap_or(UNREACHABLE)
    };
    let here = nearest(actor.zone.0);
    let mut closer: Vec<(u32, u32, ZoneIdx)> = view
        .battlefield
        .within(actor.zone.0, allowance)
        .filter(|&zone| zone != actor.zone.0)
        .filter(|&zone| view.battlefield.has_room(&view.index, zone))
        .map(|zone| (nearest(zone), view.battlefield.distance(actor.zone.0, zone), zone))
        .filter(|&(distance, ..)| distance < here)
        .collect();
    // Difficult ground costs double on a grid: a square in walking distance may be out of a
    // move's reach. A path is worked out only for the best squares, best first, until one is.
    closer.sort_unstable();
    let destination = closer
        .into_iter()
        .find(|&(.., zone)| actions::move_cost(&view.battlefield, actor, actor.zone.0, zone) <= allowance)?
        .2;
    guarded_walk(view, units, threats, actor, Action::new(ActionKind::Move, None, Some(destination)))
}

/// The zones holding a fighting enemy nearest `actor`, all at the same walking distance: found
/// nearest first from where it stands.
fn nearest_enemy_zones(view: &AiView, units: &ViewCache, actor: &UnitView) -> Vec<ZoneIdx> {
    let ctx = view.ctx();
    let has_enemy = |zone: ZoneIdx| {
        // The side and standing suffice: no need to view every ally on the way.
        view.index.occupants(zone).iter().any(|&other| units.is_fighting_foe(other, *actor.side))
    };
    // `within` goes nearest first: the first zone with an enemy is the nearest, and the others
    // as near follow it up to the end of `within` that distance. No distance is read on the way:
    // on a 64x64 grid the table is 64 MiB, and a read a square was most of this search.
    let mut enemy_zones: Vec<ZoneIdx> = Vec::new();
    // Zones nearer than the nearest unit of another side hold no enemy: counted as looked at.
    let nearest_foe = units.foe_distance_floor(ctx, actor.zone.0, actor.side.0);
    let mut around = view.battlefield.within_from(actor.zone.0, nearest_foe, UNREACHABLE - 1);
    let mut looked =
        nearest_foe.checked_sub(1).map_or(0, |nearer| view.battlefield.within(actor.zone.0, nearer).count());
    if let Some(first) = around.by_ref().inspect(|_| looked += 1).find(|&zone| has_enemy(zone)) {
        let as_near = view.battlefield.within(actor.zone.0, view.battlefield.distance(actor.zone.0, first)).count();
        enemy_zones.push(first);
        enemy_zones.extend(around.take(as_near.saturating_sub(looked)).filter(|&zone| has_enemy(zone)));
    }
    enemy_zones
}

/// `step` as it is when it provokes no Reposte on the way, else as a defensive attack or a
/// disengage if the rules allow one of them, else as it is if legal at all.
fn guarded_walk(
    view: &AiView,
    units: &ViewCache,
    threats: &ThreatMap,
    actor: &UnitView,
    step: Action,
) -> Option<Action> {
    let ctx = view.ctx();
    if actions::repostes_on_path(ctx, threats, actor, &step).is_empty() {
        return Some(step);
    }
    // Walk past without provoking: a defensive attack (seed 000) or disengaging first.
    for kind in [ActionKind::DefensiveAttack, ActionKind::Disengage] {
        let guarded = Action { kind, ..step };
        if actions::check(ctx, actor, &guarded, units).is_ok() {
            return Some(guarded);
        }
    }
    actions::check(ctx, actor, &step, units).is_ok().then_some(step)
}

/// Refines a chosen weapon attack with what the ruleset offers: an aim (`A-AIM-1`), a swarm
/// that sets up a later ally's blow (`S-SPEC-1`), or a charge when the target is out of a walk's
/// reach.
pub(super) fn refine_attack(view: &AiView, units: &ViewCache, actor: &UnitView, action: Action) -> Action {
    let ctx = view.ctx();
    let Some(target) = action.target.and_then(|target| units.get(target)) else {
        return action;
    };
    if action.kind != ActionKind::Attack {
        return action;
    }
    // An unsuspecting foe in reach: an execution attack (`S-EXEC-1`).
    if target.surprised {
        let execution = Action { kind: ActionKind::Execute, ..action };
        if actions::check(ctx, actor, &execution, units).is_ok() {
            return execution;
        }
    }
    let odds = actions::attack_odds(&view.ruleset, actor, target);
    if let Some(aiming) = &view.ruleset.attack.aiming
        && actions::offered(&view.ruleset, ActionKind::Aimed(AimPoint::CentreMass))
    {
        // A wound needs 6+ net damage; when the weapon can wound and usually hits, go for the
        // most telling spot, otherwise take centre mass's surer hit.
        let aim = if odds.damage_max < aiming.wound_threshold || odds.hit < AIM_FOR_WOUNDS_HIT_CHANCE {
            AimPoint::CentreMass
        } else if target.wounds.current <= aiming.fatal_damage {
            AimPoint::Fatal
        } else {
            AimPoint::Slowing
        };
        let aimed = Action { kind: ActionKind::Aimed(aim), ..action };
        if actions::check(ctx, actor, &aimed, units).is_ok() {
            return aimed;
        }
    }
    if odds.hit < SWARM_BELOW_HIT_CHANCE && actions::offered(&view.ruleset, ActionKind::Swarm) {
        // Another ally who acts later this round and can reach the target takes the boosted blow.
        let my_turn = actor.initiative.round.unwrap_or(i32::MAX);
        let reach = actions::weapon_range(actor.loadout.usable_weapon(actor.conditions).1);
        let later_ally = view.battlefield.within(target.zone.0, reach.max(1)).any(|zone| {
            view.index.occupants(zone).iter().any(|&other| {
                units.get(other).is_some_and(|ally| {
                    ally.entity != actor.entity
                        && ally.side == actor.side
                        && unit::is_fighting(*ally.status, ally.conditions)
                        && ally.initiative.round.is_some_and(|turn| turn > my_turn)
                })
            })
        });
        let swarm = Action { kind: ActionKind::Swarm, ..action };
        let full = view.state.swarm_full(&view.ruleset, target.entity, actor.side.0);
        if later_ally && !full && actions::check(ctx, actor, &swarm, units).is_ok() {
            return swarm;
        }
    }
    action
}

/// Where the ruleset splits movement (`C-MOVE-1`), a unit that would rather not end its turn in
/// a foe's melee reach (it shoots or casts, or it is badly hurt) walks out of every foe's reach
/// after its action with the movement it has left: to the nearest such place, and only when the
/// walk provokes no attack (the foes it leaves have spent their attack of opportunity, perhaps on
/// the shot or spell itself). Otherwise the action is left as it was.
pub(super) fn step_away_after(
    view: &AiView,
    units: &ViewCache,
    threats: &ThreatMap,
    actor: &UnitView,
    action: Action,
) -> Action {
    let (ctx, field, ruleset) = (view.ctx(), &view.battlefield, &view.ruleset);
    if !ruleset.movement.split_move
        || action.move_after.is_some()
        || !actions::may_move_after(ruleset, actor, action.kind)
    {
        return action;
    }
    let ranged = actions::is_ranged(actor, action.kind);
    if !ranged && health_share(actor) >= BADLY_HURT {
        return action;
    }
    let side = *actor.side;
    let standing = actions::standing_after(actor, action.move_to);
    if threats.threateners(ctx, standing, side).next().is_none() {
        return action;
    }
    let allowance = unit::action_allowance(ruleset, *actor.speed, *actor.status, actor.conditions, &action);
    let left = allowance.saturating_sub(actions::move_cost(field, actor, actor.zone.0, standing));
    if left == 0 {
        return action;
    }
    // A shot or spell in reach draws each reacting foe's one attack of opportunity first (`C-AOO-1`).
    let spent_on_action: Vec<bevy::prelude::Entity> = if ranged
        && ruleset.attack.ranged_in_melee == RangedInMelee::Provokes
        && ruleset.reposte.reactions_per_round <= 1
    {
        threats.threateners(ctx, standing, side).filter(|threat| threat.can_react).map(|threat| threat.unit).collect()
    } else {
        Vec::new()
    };
    let mut spots: Vec<(u32, ZoneIdx)> = field
        .within(standing, left)
        .filter(|&zone| zone != standing && threats.threateners(ctx, zone, side).next().is_none())
        .map(|zone| (actions::move_cost(field, actor, standing, zone), zone))
        .filter(|&(cost, _)| cost <= left)
        .collect();
    spots.sort_unstable();
    spots
        .into_iter()
        .find_map(|(_, zone)| {
            let provoked = actions::repostes_between(ctx, threats, actor, action.kind, (standing, zone), false);
            if provoked.iter().any(|foe| !spent_on_action.contains(foe)) {
                return None;
            }
            let split = Action { move_after: Some(zone), ..action };
            actions::check(ctx, actor, &split, units).is_ok().then_some(split)
        })
        .unwrap_or(action)
}

/// A charge at the best enemy a walk cannot reach but a straight double run can (`S-SPEC-1`).
fn charge(view: &AiView, units: &ViewCache, actor: &UnitView) -> Option<Action> {
    if !actions::offered(&view.ruleset, ActionKind::Charge) {
        return None;
    }
    let ctx = view.ctx();
    let allowance =
        unit::movement_allowance(&view.ruleset, *actor.speed, *actor.status, actor.conditions, ActionKind::Charge);
    let reach = actor.loadout.usable_weapon(actor.conditions).1.reach;
    let mut best: Option<(f64, Action)> = None;
    // An army's enemies are mostly alike: their odds are worked out once per kind.
    let mut alike = AlikeTargets::default();
    // The free spots in reach of a foe standing in `target_zone` that a charge gets to.
    let spots = |target_zone: ZoneIdx| {
        view.battlefield
            .within(target_zone, reach)
            .filter(|&spot| spot != actor.zone.0)
            .filter(|&spot| view.battlefield.has_room(&view.index, spot))
            .map(|spot| (view.battlefield.distance(actor.zone.0, spot), spot))
            .filter(|&(distance, _)| distance <= allowance)
    };
    // Zones nearer than the nearest unit of another side hold no foe: passed over.
    let nearest = units.foe_distance_floor(ctx, actor.zone.0, actor.side.0);
    for zone in view.battlefield.within_from(actor.zone.0, nearest, allowance + reach) {
        // Whether the zone has a free spot to charge a foe standing there from, asked once and
        // only for a unit not known to be an ally.
        let mut has_spot = None;
        for &other in view.index.occupants(zone) {
            // Allies are passed over without viewing them, and so, before its brief is read, is
            // a foe with no free spot to charge it from (on a grid, a reach of 0 leaves only its
            // own square, which it fills): it could never be the charge. The index files each
            // unit under the zone it stands in, so this zone is where it would be charged.
            if units.seen_ally(other, *actor.side) || !*has_spot.get_or_insert_with(|| spots(zone).next().is_some()) {
                continue;
            }
            // The fallen are passed over too.
            if units.fighting_foe_at(other, *actor.side).is_none() {
                continue;
            }
            let Some(target) = units.get(other) else { continue };
            let expected = alike.expected(view, actor, target, 0, ActionKind::Attack);
            if best.as_ref().is_some_and(|(score, _)| *score >= expected) {
                continue;
            }
            let spot = spots(target.zone.0)
                .filter(|&(_, spot)| {
                    let action = Action::new(ActionKind::Charge, Some(other), Some(spot));
                    actions::check(ctx, actor, &action, units).is_ok()
                })
                .min();
            if let Some((_, spot)) = spot {
                best = Some((expected, Action::new(ActionKind::Charge, Some(other), Some(spot))));
            }
        }
    }
    best.map(|(_, action)| action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(from: u32, count: u32) -> Vec<Entity> {
        (from..from + count).map(Entity::from_raw_u32).map(Option::unwrap).collect()
    }

    #[test]
    fn a_few_enemies_are_all_weighed_in_their_order() {
        let (near, far) = (units(1, 3), units(10, 4));
        let picked: Vec<Entity> = within_budget(&[&near, &far], Entity::from_raw_u32(99).unwrap(), 32).collect();
        assert_eq!(picked, [near, far].concat());
    }

    #[test]
    fn a_crowd_is_sampled_nearest_first_and_spread_by_the_chooser() {
        let (near, crowd) = (units(1, 10), units(100, 200));
        let budget = 32;
        let chooser = |index| Entity::from_raw_u32(index).unwrap();
        let first: Vec<Entity> = within_budget(&[&near, &crowd], chooser(5), budget).collect();
        assert_eq!(first.len(), budget);
        assert_eq!(first[..near.len()], near[..], "the nearest zone fits, so it is taken whole");
        let mut sampled = first[near.len()..].to_vec();
        sampled.sort();
        sampled.dedup();
        assert_eq!(sampled.len(), budget - near.len(), "the sample never repeats a unit");
        let second: Vec<Entity> = within_budget(&[&near, &crowd], chooser(6), budget).collect();
        assert_ne!(first, second, "another chooser starts its sample elsewhere");
    }
}
