//! Initiative stage: Base Initiative rolls (`W-INIT-1`, `W-INIT-4`), a new round, and
//! reinforcements that arrive at the start of it (`W-INIT-5`).

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::CombatSystems;
use super::components::*;
use super::dice::{CombatRng, Dice, DiceRoll};
use super::equipment::Attribute;
use super::log::{CombatLog, LogEvent};
use super::ruleset::Ruleset;
use super::state::{CombatPhase, CombatState, in_phase};
use super::unit::{self, Unit, UnitItem};
use crate::battlefield::{Battlefield, ZoneIndex};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, start_round.in_set(CombatSystems::Initiative).run_if(in_phase(CombatPhase::Initiative)));
}

/// The Base Initiative dice of a unit with `agility_modifier`: 1d12−2 for +2, 1d12+1 for −1.
pub fn initiative_dice(ruleset: &Ruleset, agility_modifier: i32) -> Dice {
    ruleset.initiative.die.plus(ruleset.initiative.agility_factor * agility_modifier)
}

/// Rolls Base Initiative for every unit in `arrivals` that has none, sharing one roll per
/// initiative group and side, and logs each.
pub(super) fn roll_base_initiative(
    ruleset: &Ruleset,
    rng: &mut CombatRng,
    log: &mut CombatLog,
    round: u32,
    arrivals: &mut [UnitItem],
    groups: &Query<&InitiativeGroup>,
) {
    let mut shared: HashMap<(usize, Arc<str>), DiceRoll> = HashMap::new();
    arrivals.sort_by_key(|unit| *unit.order);
    for unit in arrivals.iter_mut().filter(|unit| unit.initiative.base.is_none()) {
        let group = groups.get(unit.entity).ok().map(|group| group.0.clone());
        let agility = unit::modifier(ruleset, &unit.attributes, Attribute::Agility);
        let roll = match &group {
            Some(name) => shared
                .entry((unit.side.0, name.clone()))
                .or_insert_with(|| rng.roll(initiative_dice(ruleset, agility)))
                .clone(),
            None => rng.roll(initiative_dice(ruleset, agility)),
        };
        unit.initiative.base = Some(roll.total);
        let id = unit.id.0.clone();
        log.record(round, || LogEvent::Initiative { unit: id, base: roll.total, roll, group });
    }
}

/// Brings `unit` onto the field in its zone.
pub(super) fn arrive(
    unit: &mut UnitItem,
    index: &mut ZoneIndex,
    battlefield: &Battlefield,
    log: &mut CombatLog,
    round: u32,
) {
    *unit.status = Status::Active;
    index.insert(unit.entity, unit.zone.0);
    let zone = battlefield.zone(unit.zone.0).id.clone();
    let id = unit.id.0.clone();
    log.record(round, || LogEvent::Arrived { unit: id, zone });
}

/// Starts a round: first rolls, round counter, arrivals, per-round resets.
#[expect(clippy::too_many_arguments, reason = "a stage system reads the whole battle")]
fn start_round(
    mut state: ResMut<CombatState>,
    mut log: ResMut<CombatLog>,
    mut rng: ResMut<CombatRng>,
    mut index: ResMut<ZoneIndex>,
    mut units: Query<Unit>,
    groups: Query<&InitiativeGroup>,
    reinforcements: Query<(Entity, &Reinforcement)>,
    ruleset: Res<Ruleset>,
    battlefield: Res<Battlefield>,
) {
    if state.round == 0 {
        let mut starters: Vec<UnitItem> = units.iter_mut().filter(|unit| unit.status.on_field()).collect();
        roll_base_initiative(&ruleset, &mut rng, &mut log, 0, &mut starters, &groups);
    }
    state.round += 1;
    let round = state.round;
    log.record(round, || LogEvent::RoundStarted {});
    let arriving: Vec<Entity> = reinforcements
        .iter()
        .filter(|(_, arrival)| arrival.round <= round && (arrival.at_initiative.is_none() || arrival.round < round))
        .map(|(entity, _)| entity)
        .collect();
    let mut arrivals: Vec<UnitItem> = if arriving.is_empty() {
        Vec::new()
    } else {
        units.iter_mut().filter(|unit| *unit.status == Status::Reserve && arriving.contains(&unit.entity)).collect()
    };
    arrivals.sort_by_key(|unit| *unit.order);
    for unit in arrivals.iter_mut() {
        arrive(unit, &mut index, &battlefield, &mut log, round);
    }
    roll_base_initiative(&ruleset, &mut rng, &mut log, round, &mut arrivals, &groups);
    for mut unit in units.iter_mut() {
        unit.reactions.0 = ruleset.reposte.reactions_per_round;
        *unit.record = RoundRecord::default();
        unit.conditions.full_defense = false;
        unit.initiative.round = None;
    }
    state.schedule.clear();
    state.cursor = 0;
    state.count = None;
    state.phase = CombatPhase::Declare;
}
