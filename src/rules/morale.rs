//! Morale stage (`W-MOR-1`, `W-MOR-2`): monsters that took a big hit, are outnumbered or were
//! intimidated roll 3d6 + Insight + HD + allies against 11 + opponents, or flee.

use std::collections::HashMap;

use bevy::prelude::*;

use super::CombatSystems;
use super::battle::Battle;
use super::components::*;
use super::equipment::Attribute;
use super::log::{CombatLog, LogEvent};
use super::ruleset::{MoraleCheck, MoraleFailure, MoraleTrigger, Ruleset, Withdrawal};
use super::state::{CombatPhase, DamageDealt, Fleeing, Intimidated, in_phase};
use super::unit::{self, Unit};
use crate::battlefield::ZoneIndex;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, check_morale.in_set(CombatSystems::Morale).run_if(in_phase(CombatPhase::Morale)));
}

/// Why a unit must check, if it must.
fn trigger(ruleset: &Ruleset, big_hit: bool, outnumbered: bool, intimidation: Option<i32>) -> Option<&'static str> {
    let rules = &ruleset.morale;
    if rules.check_when_intimidated && intimidation.is_some() {
        Some("intimidated")
    } else if rules.check_on_big_hit && big_hit {
        Some("big_hit")
    } else if rules.check_when_outnumbered && outnumbered {
        Some("outnumbered")
    } else {
        None
    }
}

fn check_morale(
    battle: Battle,
    aside: Query<(), With<StoodAside>>,
    mut dealt: MessageReader<DamageDealt>,
    mut intimidated: MessageReader<Intimidated>,
    mut fleeing: MessageWriter<Fleeing>,
) {
    let Battle { mut state, mut log, mut rng, mut index, mut units, ruleset, battlefield, sides } = battle;
    let round = state.round;
    let mut big_hits = bevy::ecs::entity::EntityHashSet::default();
    // End-of-round bleeding and hazards land after this stage; they count in no later round.
    for hit in dealt.read().filter(|hit| hit.round == round) {
        if let Ok(view) = units.get(hit.unit)
            && hit.wounds_lost * 2 > view.wounds.max
        {
            big_hits.insert(hit.unit);
        }
    }
    let mut intimidation: HashMap<Entity, i32> = HashMap::new();
    for check in intimidated.read() {
        let best = intimidation.entry(check.unit).or_insert(check.result);
        *best = (*best).max(check.result);
    }
    let mut counts: HashMap<usize, u32> = HashMap::new();
    let mut present: HashMap<usize, u32> = HashMap::new();
    let mut checkers: Vec<(u32, Entity)> = Vec::new();
    for view in units.iter().filter(|view| *view.status != Status::Reserve && !aside.contains(view.entity)) {
        *present.entry(view.side.0).or_insert(0) += 1;
    }
    let is_party = |side: usize| sides.is_party(side);
    for view in units.iter().filter(|view| unit::is_fighting(*view.status, view.conditions)) {
        *counts.entry(view.side.0).or_insert(0) += 1;
        // Players decide their characters' morale (`C-WDRAW-1`).
        if view.checks_morale && !(ruleset.morale.party_never_checks && is_party(view.side.0)) {
            checkers.push((view.order.0, view.entity));
        }
    }
    let total: u32 = counts.values().sum();
    checkers.sort_unstable();
    for (_, entity) in checkers {
        let Ok(mut unit) = units.get_mut(entity) else {
            continue;
        };
        let own = counts.get(&unit.side.0).copied().unwrap_or(0);
        let opponents = total - own;
        let allies = own.saturating_sub(1);
        let reason = match ruleset.morale.trigger {
            MoraleTrigger::Seed000 => {
                trigger(&ruleset, big_hits.contains(&entity), opponents > own, intimidation.get(&entity).copied())
            }
            MoraleTrigger::SideLosing { percent } => {
                let fielded = present.get(&unit.side.0).copied().unwrap_or(0).max(1);
                let lost = fielded.saturating_sub(own);
                (lost * 100 >= percent * fielded && lost > 0).then_some("losing")
            }
        };
        let Some(reason) = reason else {
            continue;
        };
        let tn = match (reason, intimidation.get(&entity)) {
            ("intimidated", Some(&result)) => result,
            _ => ruleset.morale.tn_base + opponents as i32,
        };
        let (bonus, tn, automatic) = match &ruleset.morale.check {
            MoraleCheck::Seed000 => (
                unit::modifier(&ruleset, &unit.attributes, Attribute::Insight)
                    + unit.hit_dice.0.count as i32
                    + allies as i32,
                tn,
                opponents >= ruleset.morale.obvious_defeat_ratio.max(1) * (allies + 1),
            ),
            MoraleCheck::Test { attribute } => {
                (unit::modifier(&ruleset, &unit.attributes, *attribute), ruleset.morale.tn_base, false)
            }
            MoraleCheck::Automatic => (0, ruleset.morale.tn_base, true),
        };
        let roll = rng.roll(if automatic && ruleset.morale.check == MoraleCheck::Automatic {
            crate::rules::dice::Dice::flat(0)
        } else {
            ruleset.morale.dice.plus(bonus)
        });
        let passed = !automatic && roll.total >= tn;
        let total_rolled = roll.total;
        let id = unit.id.0.clone();
        log.record(round, || LogEvent::Morale {
            unit: id.clone(),
            roll,
            total: total_rolled,
            tn,
            passed,
            reason,
            automatic,
        });
        if !passed {
            let response = match ruleset.morale.on_failure {
                MoraleFailure::Flee => Withdrawal::Flee,
                MoraleFailure::Surrender => Withdrawal::Surrender,
                MoraleFailure::Parley => {
                    *unit.status = Status::Surrendered;
                    index.remove(entity, unit.zone.0);
                    log.record(round, || LogEvent::Status { unit: id, status: "parley" });
                    continue;
                }
                MoraleFailure::Withdraw => Withdrawal::Disengage,
                MoraleFailure::Withdrawal => match &ruleset.morale.withdrawal {
                    Some((die, rows)) => {
                        let roll = rng.roll(*die);
                        let response = rows
                            .iter()
                            .find(|row| roll.total <= row.up_to)
                            .or(rows.last())
                            .map_or(Withdrawal::Flee, |row| row.response);
                        log.record(round, || LogEvent::Withdrawal { unit: id.clone(), roll, response });
                        response
                    }
                    None => Withdrawal::Flee,
                },
            };
            if response == Withdrawal::Flee && ruleset.morale.flee_provokes {
                // Its foes strike at its back before it goes (`resolve/flight.rs`).
                fleeing.write(Fleeing { unit: entity });
                continue;
            }
            withdraw(entity, response, round, &mut units, &mut index, &mut log, &battlefield);
        }
    }
    state.phase = CombatPhase::End;
}

/// Carries out a failed morale check's response (`C-WDRAW-1`): falling back steps one zone or
/// square away from the nearest enemy and fights on; the others leave the fight (a fleeing
/// unit's free attacks at its back are not rolled: see docs/rules/crucible.md).
fn withdraw(
    entity: Entity,
    response: Withdrawal,
    round: u32,
    units: &mut Query<Unit>,
    index: &mut ZoneIndex,
    log: &mut CombatLog,
    battlefield: &crate::battlefield::Battlefield,
) {
    let Ok(mut unit) = units.get_mut(entity) else {
        return;
    };
    let id = unit.id.0.clone();
    let here = unit.zone.0;
    match response {
        Withdrawal::FallBack => {
            // Back away: the free neighbouring zone farthest from every enemy zone it can see.
            let side = *unit.side;
            let enemies: Vec<crate::battlefield::ZoneIdx> = units
                .iter()
                .filter(|view| *view.side != side && unit::is_fighting(*view.status, view.conditions))
                .map(|view| view.zone.0)
                .collect();
            let nearest = |zone: crate::battlefield::ZoneIdx| {
                enemies.iter().map(|&enemy| battlefield.distance(zone, enemy)).min().unwrap_or(u32::MAX)
            };
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
                unit.zone.0 = to;
                let (from, to) = (battlefield.place(here), battlefield.place(to));
                log.record(round, || LogEvent::Moved { unit: id, from, to });
            }
        }
        Withdrawal::Disengage | Withdrawal::Flee | Withdrawal::Surrender => {
            let status = if response == Withdrawal::Surrender { Status::Surrendered } else { Status::Fled };
            *unit.status = status;
            index.remove(entity, here);
            log.record(round, || LogEvent::Status { unit: id, status: status.log_name() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w_mor_1_triggers_in_priority_order() {
        let ruleset = Ruleset::default();
        assert_eq!(trigger(&ruleset, true, true, Some(12)), Some("intimidated"));
        assert_eq!(trigger(&ruleset, true, true, None), Some("big_hit"));
        assert_eq!(trigger(&ruleset, false, true, None), Some("outnumbered"));
        assert_eq!(trigger(&ruleset, false, false, None), None);
    }
}
