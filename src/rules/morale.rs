//! Morale stage (`W-MOR-1`, `W-MOR-2`): monsters that took a big hit, are outnumbered or were
//! intimidated roll 3d6 + Insight + HD + allies against 11 + opponents, or flee.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

use super::CombatSystems;
use super::battle::Battle;
use super::components::*;
use super::dice::Draw;
use super::equipment::Attribute;
use super::log::{LogEvent, MoraleReason};
use super::ruleset::{MoraleCheck, MoraleFailure, MoraleTrigger, Ruleset, Withdrawal};
use super::state::{CombatPhase, DamageDealt, Fleeing, Intimidated, MoraleInbox};
use super::unit::{self, Unit};
use crate::battlefield::ZoneIdx;
use crate::rules::log::StatusChange;
use crate::rules::log::line;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            // Every frame, whatever the phase: a message lives two frames, a round may take more.
            collect_pressure.after(CombatSystems::Resolve).before(CombatSystems::Morale),
            check_morale.in_set(CombatSystems::Morale),
        ),
    );
}

/// Keeps the damage and intimidation the resolve stage reported, for the morale stage.
fn collect_pressure(
    mut dealt: MessageReader<DamageDealt>,
    mut intimidated: MessageReader<Intimidated>,
    mut inbox: ResMut<MoraleInbox>,
) {
    inbox.dealt.extend(dealt.read().copied());
    inbox.intimidated.extend(intimidated.read().copied());
}

/// Why a unit must check, if it must.
fn trigger(ruleset: &Ruleset, big_hit: bool, outnumbered: bool, intimidation: Option<i32>) -> Option<MoraleReason> {
    let rules = &ruleset.morale;
    if rules.check_when_intimidated && intimidation.is_some() {
        Some(MoraleReason::Intimidated)
    } else if rules.check_on_big_hit && big_hit {
        Some(MoraleReason::BigHit)
    } else if rules.check_when_outnumbered && outnumbered {
        Some(MoraleReason::Outnumbered)
    } else {
        None
    }
}

/// What presses on every side this round: big hits taken, intimidation, and who still stands.
struct Pressure {
    /// Units that lost more than half their Wound Points to one hit this round.
    big_hits: EntityHashSet,
    /// The strongest intimidation each unit faced, as the TN it must beat.
    intimidation: HashMap<Entity, i32>,
    /// Units each side fielded (not in reserve nor stood aside), by side index.
    present: Vec<u32>,
    /// Units each side still has fighting, by side index.
    fighting: Vec<u32>,
    /// Units fighting on every side together.
    total: u32,
}

/// One unit's morale check: its bonus, the TN it must reach, and whether it fails regardless.
struct MoraleTest {
    bonus: i32,
    tn: i32,
    automatic: bool,
}

fn check_morale(
    mut battle: Battle,
    aside: Query<(), With<StoodAside>>,
    mut inbox: ResMut<MoraleInbox>,
    mut fleeing: MessageWriter<Fleeing>,
) {
    let round = battle.state.round;
    let MoraleInbox { dealt, intimidated } = std::mem::take(&mut *inbox);
    let big_hits = big_hits(&battle.units, &dealt, round);
    let intimidation = strongest_intimidation(&intimidated);
    let Census { present, fighting, checkers } = take_census(&mut battle, &aside);
    let total = fighting.iter().sum();
    let pressure = Pressure { big_hits, intimidation, present, fighting, total };
    for (entity, side) in checkers {
        test_morale(&mut battle, &pressure, entity, side, &mut fleeing);
    }
    battle.state.phase = CombatPhase::End;
}

/// Units that lost more than half their Wound Points to one hit this round.
fn big_hits(units: &Query<Unit>, dealt: &[DamageDealt], round: u32) -> EntityHashSet {
    let mut big_hits = EntityHashSet::default();
    // End-of-round bleeding and hazards land after this stage; they count in no later round.
    for hit in dealt.iter().filter(|hit| hit.round == round) {
        if let Ok(view) = units.get(hit.unit)
            && hit.wounds_lost * 2 > view.body.wounds.max
        {
            big_hits.insert(hit.unit);
        }
    }
    big_hits
}

/// The best intimidation result against each unit this round.
fn strongest_intimidation(intimidated: &[Intimidated]) -> HashMap<Entity, i32> {
    let mut intimidation: HashMap<Entity, i32> = HashMap::new();
    for check in intimidated {
        let best = intimidation.entry(check.unit).or_insert(check.result);
        *best = (*best).max(check.result);
    }
    intimidation
}

/// Who stands where in the morale stage, counted in one pass over the units.
struct Census {
    /// Units each side fielded: every one not in reserve nor stood aside.
    present: Vec<u32>,
    /// Units each side still has fighting.
    fighting: Vec<u32>,
    /// Those that must check, in level order, with their sides.
    checkers: Vec<(Entity, usize)>,
}

/// Counts the units each side fielded and has fighting, and lists those that must check, in level
/// order. Falling back lasts until the next check, which may renew it: it ends here, after the
/// counts read it. One pass, because each visit of the whole unit view costs more than the
/// counting.
fn take_census(battle: &mut Battle, aside: &Query<(), With<StoodAside>>) -> Census {
    let sides = battle.sides.0.len();
    let mut present = vec![0; sides];
    let mut fighting = vec![0; sides];
    let mut checkers: Vec<(u32, Entity, usize)> = Vec::new();
    let party_never_checks = battle.ruleset.morale.party_never_checks;
    for mut view in battle.units.iter_mut() {
        let side = view.standing.side.0;
        if side >= sides {
            // A battle put together without its `Sides` (tests do) still counts every side.
            present.resize(side + 1, 0);
            fighting.resize(side + 1, 0);
        }
        if *view.standing.status != Status::Reserve && !aside.contains(view.entity) {
            present[side] += 1;
        }
        if unit::is_fighting(*view.standing.status, &view.round.conditions) {
            fighting[side] += 1;
            // Players decide their characters' morale (`C-WDRAW-1`).
            if view.body.checks_morale && !(party_never_checks && battle.sides.is_party(side)) {
                checkers.push((view.standing.order.0, view.entity, side));
            }
        }
        if view.round.conditions.falling_back {
            view.round.conditions.falling_back = false;
        }
    }
    checkers.sort_unstable();
    Census { present, fighting, checkers: checkers.into_iter().map(|(_, entity, side)| (entity, side)).collect() }
}

/// Checks one unit (of `side`) for morale, if something triggers it, and carries out a failure.
/// What triggers it is told before the unit is looked up: most units, most rounds, have no reason.
fn test_morale(
    battle: &mut Battle,
    pressure: &Pressure,
    entity: Entity,
    side: usize,
    fleeing: &mut MessageWriter<Fleeing>,
) {
    let round = battle.state.round;
    battle.rng.key(round, || battle.units.get(entity).ok().map(|unit| unit.standing.order.0), Draw::Morale);
    let own = pressure.fighting.get(side).copied().unwrap_or(0);
    let opponents = pressure.total - own;
    let allies = own.saturating_sub(1);
    let Some(reason) = reason(&battle.ruleset, pressure, entity, side, own, opponents) else {
        return;
    };
    let Ok(unit) = battle.units.get(entity) else {
        return;
    };
    let test = morale_test(&battle.ruleset, pressure, &unit, reason, opponents, allies);
    let id = unit.standing.id.0.clone();
    let weakened = unit::weakened(unit.round.conditions);
    let ruleset = &battle.ruleset;
    let (roll, disadvantage_roll) = if test.automatic && ruleset.morale.check == MoraleCheck::Automatic {
        (battle.rng.roll(crate::rules::dice::Dice::flat(0)), None)
    } else {
        battle.rng.roll_test(ruleset.morale.dice.plus(test.bonus), weakened)
    };
    let passed = !test.automatic && roll.total >= test.tn;
    let (total, tn, automatic) = (roll.total, test.tn, test.automatic);
    let unit = id.clone();
    battle.log.record(round, || {
        LogEvent::Morale(line::Morale { unit, roll, total, tn, passed, reason, automatic, disadvantage_roll })
    });
    if !passed && let Some(response) = failure_response(battle, entity, &id) {
        if response == Withdrawal::Flee && battle.ruleset.morale.flee_provokes {
            // Its foes strike at its back before it goes (`resolve/flight.rs`).
            fleeing.write(Fleeing { unit: entity });
            return;
        }
        withdraw(battle, entity, response);
    }
}

/// Why `unit` (of `side`) must check this round, if it must (`W-MOR-1`).
fn reason(
    ruleset: &Ruleset,
    pressure: &Pressure,
    unit: Entity,
    side: usize,
    own: u32,
    opponents: u32,
) -> Option<MoraleReason> {
    match ruleset.morale.trigger {
        MoraleTrigger::Seed000 => trigger(
            ruleset,
            pressure.big_hits.contains(&unit),
            opponents > own,
            pressure.intimidation.get(&unit).copied(),
        ),
        MoraleTrigger::SideLosing { percent } => {
            let fielded = pressure.present.get(side).copied().unwrap_or(0).max(1);
            let lost = fielded.saturating_sub(own);
            (lost * 100 >= percent * fielded && lost > 0).then_some(MoraleReason::Losing)
        }
    }
}

/// The bonus and TN of `unit`'s check, and whether defeat is too plain to roll for (`W-MOR-2`).
fn morale_test(
    ruleset: &Ruleset,
    pressure: &Pressure,
    unit: &unit::UnitView,
    reason: MoraleReason,
    opponents: u32,
    allies: u32,
) -> MoraleTest {
    let tn = match (reason, pressure.intimidation.get(&unit.entity)) {
        (MoraleReason::Intimidated, Some(&result)) => result,
        _ => ruleset.morale.tn_base + opponents as i32,
    };
    match &ruleset.morale.check {
        MoraleCheck::Seed000 => MoraleTest {
            bonus: unit::modifier(ruleset, unit.body.attributes, Attribute::Insight)
                + unit.body.hit_dice.0.count as i32
                + allies as i32,
            tn,
            automatic: opponents >= ruleset.morale.obvious_defeat_ratio.max(1) * (allies + 1),
        },
        MoraleCheck::Test { attribute } => MoraleTest {
            bonus: unit::modifier(ruleset, unit.body.attributes, *attribute),
            tn: ruleset.morale.tn_base,
            automatic: false,
        },
        MoraleCheck::Automatic => MoraleTest { bonus: 0, tn: ruleset.morale.tn_base, automatic: true },
    }
}

/// What a unit that failed its check does (`C-WDRAW-1`); a parley settles it here and then.
fn failure_response(battle: &mut Battle, entity: Entity, id: &Arc<str>) -> Option<Withdrawal> {
    let round = battle.state.round;
    match battle.ruleset.morale.on_failure {
        MoraleFailure::Flee => Some(Withdrawal::Flee),
        MoraleFailure::Surrender => Some(Withdrawal::Surrender),
        MoraleFailure::Parley => {
            parley(battle, entity, id);
            None
        }
        MoraleFailure::ParleyOrFlee if engaged(battle, entity) => {
            parley(battle, entity, id);
            None
        }
        MoraleFailure::ParleyOrFlee => Some(Withdrawal::Flee),
        MoraleFailure::Withdraw => Some(Withdrawal::Disengage),
        MoraleFailure::Withdrawal => Some(match &battle.ruleset.morale.withdrawal {
            Some((die, rows)) => {
                let roll = battle.rng.roll(*die);
                let response = rows
                    .iter()
                    .find(|row| roll.total <= row.up_to)
                    .or(rows.last())
                    .map_or(Withdrawal::Flee, |row| row.response);
                let unit = id.clone();
                battle.log.record(round, || LogEvent::Withdrawal(line::Withdrawal { unit, roll, response }));
                response
            }
            None => Withdrawal::Flee,
        }),
    }
}

/// The unit asks for terms (`Z-MOR-1`): it leaves the fight as if it had surrendered.
fn parley(battle: &mut Battle, entity: Entity, id: &Arc<str>) {
    let round = battle.state.round;
    if let Ok(mut unit) = battle.units.get_mut(entity) {
        *unit.standing.status = Status::Surrendered;
        battle.index.remove(entity, unit.standing.zone.0);
    }
    let unit = id.clone();
    battle.log.record(round, || LogEvent::Status(line::Status { unit, status: StatusChange::Parley }));
}

/// Whether a fighting enemy stands Close to the unit, within bare-handed melee reach: running
/// would mean turning its back on it (`Z-MOR-1`).
fn engaged(battle: &Battle, entity: Entity) -> bool {
    let Ok(unit) = battle.units.get(entity) else {
        return false;
    };
    let (here, side) = (unit.standing.zone.0, *unit.standing.side);
    let reach = battle.battlefield.melee_reach(0);
    battle.battlefield.within(here, reach).flat_map(|zone| battle.index.occupants(zone).iter()).any(|&other| {
        battle.units.get(other).is_ok_and(|view| {
            *view.standing.side != side && unit::is_fighting(*view.standing.status, view.round.conditions)
        })
    })
}

/// Carries out a failed morale check's response (`C-WDRAW-1`): falling back steps one zone or
/// square away from the nearest enemy and fights on; the others leave the fight (a fleeing
/// unit's free attacks at its back are not rolled: see docs/rules/crucible.md).
fn withdraw(battle: &mut Battle, entity: Entity, response: Withdrawal) {
    match response {
        Withdrawal::FallBack => fall_back(battle, entity),
        Withdrawal::Disengage | Withdrawal::Flee => leave(battle, entity, Status::Fled),
        Withdrawal::Surrender => leave(battle, entity, Status::Surrendered),
    }
}

/// Backs away to the free neighbouring zone farthest from every fighting enemy, if one is
/// farther than where it stands.
fn fall_back(battle: &mut Battle, entity: Entity) {
    let Battle { state, log, index, units, battlefield, .. } = battle;
    let Ok(unit) = units.get(entity) else {
        return;
    };
    let (id, here, side) = (unit.standing.id.0.clone(), unit.standing.zone.0, *unit.standing.side);
    if let Ok(mut unit) = units.get_mut(entity) {
        unit.round.conditions.falling_back = true;
    }
    let enemies: Vec<ZoneIdx> = units
        .iter()
        .filter(|view| *view.standing.side != side && unit::is_fighting(*view.standing.status, view.round.conditions))
        .map(|view| view.standing.zone.0)
        .collect();
    let nearest =
        |zone: ZoneIdx| enemies.iter().map(|&enemy| battlefield.distance(zone, enemy)).min().unwrap_or(u32::MAX);
    let best = battlefield
        .neighbours(here)
        .iter()
        .copied()
        .filter(|&zone| battlefield.zone(zone).capacity.is_none_or(|cap| (index.count(zone) as u32) < cap))
        .filter(|&zone| nearest(zone) > nearest(here))
        .max_by_key(|&zone| (nearest(zone), std::cmp::Reverse(zone)));
    if let Some(to) = best
        && let Ok(mut unit) = units.get_mut(entity)
    {
        index.relocate(entity, here, to);
        unit.standing.zone.0 = to;
        let (from, to) = (battlefield.place(here), battlefield.place(to));
        log.record(state.round, || LogEvent::Moved(line::Moved { unit: id, from, to }));
    }
}

/// Takes the unit out of the fight as `status` (fled or surrendered).
fn leave(battle: &mut Battle, entity: Entity, status: Status) {
    let round = battle.state.round;
    let Ok(mut unit) = battle.units.get_mut(entity) else {
        return;
    };
    *unit.standing.status = status;
    battle.index.remove(entity, unit.standing.zone.0);
    let id = unit.standing.id.0.clone();
    battle.log.record(round, || LogEvent::Status(line::Status { unit: id, status: status.into() }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w_mor_1_triggers_in_priority_order() {
        let ruleset = Ruleset::default();
        assert_eq!(trigger(&ruleset, true, true, Some(12)), Some(MoraleReason::Intimidated));
        assert_eq!(trigger(&ruleset, true, true, None), Some(MoraleReason::BigHit));
        assert_eq!(trigger(&ruleset, false, true, None), Some(MoraleReason::Outnumbered));
        assert_eq!(trigger(&ruleset, false, false, None), None);
    }
}
