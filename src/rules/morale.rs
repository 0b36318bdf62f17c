//! Morale stage (`W-MOR-1`, `W-MOR-2`): monsters that took a big hit, are outnumbered or were
//! intimidated roll 3d6 + Insight + HD + allies against 11 + opponents, or flee.

use std::collections::HashMap;

use bevy::prelude::*;

use super::CombatSystems;
use super::components::*;
use super::dice::CombatRng;
use super::equipment::Attribute;
use super::log::{CombatLog, LogEvent};
use super::ruleset::{MoraleFailure, Ruleset};
use super::state::{CombatPhase, CombatState, DamageDealt, Intimidated, in_phase};
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

#[expect(clippy::too_many_arguments, reason = "a stage system reads the whole battle")]
fn check_morale(
    mut state: ResMut<CombatState>,
    mut log: ResMut<CombatLog>,
    mut rng: ResMut<CombatRng>,
    mut index: ResMut<ZoneIndex>,
    mut units: Query<Unit>,
    mut dealt: MessageReader<DamageDealt>,
    mut intimidated: MessageReader<Intimidated>,
    ruleset: Res<Ruleset>,
) {
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
    let mut checkers: Vec<(u32, Entity)> = Vec::new();
    for view in units.iter().filter(|view| unit::is_fighting(*view.status, view.conditions)) {
        *counts.entry(view.side.0).or_insert(0) += 1;
        if view.checks_morale {
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
        let Some(reason) =
            trigger(&ruleset, big_hits.contains(&entity), opponents > own, intimidation.get(&entity).copied())
        else {
            continue;
        };
        let tn = match (reason, intimidation.get(&entity)) {
            ("intimidated", Some(&result)) => result,
            _ => ruleset.morale.tn_base + opponents as i32,
        };
        let bonus = unit::modifier(&ruleset, &unit.attributes, Attribute::Insight)
            + unit.hit_dice.0.count as i32
            + allies as i32;
        let roll = rng.roll(ruleset.morale.dice.plus(bonus));
        let automatic = opponents >= ruleset.morale.obvious_defeat_ratio.max(1) * (allies + 1);
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
            let status = match ruleset.morale.on_failure {
                MoraleFailure::Flee => Status::Fled,
                MoraleFailure::Surrender => Status::Surrendered,
            };
            *unit.status = status;
            index.remove(entity, unit.zone.0);
            log.record(round, || LogEvent::Status { unit: id, status: status.log_name() });
        }
    }
    state.phase = CombatPhase::End;
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
