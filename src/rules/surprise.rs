//! Surprise stage (`W-SURP-1`): opens the log and says who was caught unaware.

use std::sync::Arc;

use bevy::prelude::*;

use super::CombatSystems;
use super::battle::Battle;
use super::components::{Reinforcement, Status, StoodAside, SurpriseShift, Surprised};
use super::dice::CombatRng;
use super::equipment::Attribute;
use super::log::{Arrival, CombatLog, LogEvent, UnitEntry, UnitStats};
use super::ruleset::Ruleset;
use super::state::{CombatInfo, CombatPhase, Sides};
use super::unit::{self, UnitView};
use crate::battlefield::{Battlefield, ZoneIndex};
use crate::rules::log::StatusChange;
use crate::rules::log::line;

/// `C-SURP-1`: each side rolls; at or under its range (shifted by its enemies' abilities, and by
/// the wariest of its own units, `own_shift`) it is surprised. When every side or none is,
/// nobody is. Returns who is, per side.
fn roll_surprise(
    ruleset: &Ruleset,
    sides: &Sides,
    own_shift: &[i32],
    rng: &mut CombatRng,
    log: &mut CombatLog,
) -> Vec<bool> {
    let Some(rule) = ruleset.surprise.roll.as_ref().filter(|rule| !rule.individual) else {
        return Vec::new();
    };
    let mut surprised = Vec::with_capacity(sides.0.len());
    for (at, side) in sides.0.iter().enumerate() {
        let own = own_shift.get(at).copied().unwrap_or(0);
        let range = rule.surprised_at_most + enemy_shift(sides, at) + own;
        let roll = rng.roll(rule.die);
        let is_surprised = roll.total <= range;
        surprised.push(is_surprised);
        let name = side.name.clone();
        log.record(0, || {
            LogEvent::SurpriseRoll(line::SurpriseRoll { side: name, unit: None, roll, range, surprised: is_surprised })
        });
    }
    if surprised.iter().all(|&flag| flag) || surprised.iter().all(|&flag| !flag) {
        surprised.iter_mut().for_each(|flag| *flag = false);
    }
    surprised
}

/// How far the enemies of side `at` shift its surprise range (an elf on point, `C-SURP-1`).
fn enemy_shift(sides: &Sides, at: usize) -> i32 {
    sides.0.iter().enumerate().filter(|(other, _)| *other != at).map(|(_, other)| other.surprise_range).sum()
}

/// A unit about to roll for surprise: entity, id, side, marked surprised by the level, and the
/// shift of its own range.
type Roller = (Entity, Arc<str>, usize, bool, i32);

/// `C-SURP-1`'s individual option: each unit on the field, in level order, rolls against its
/// side's range shifted by its own. One that rolls surprised is surprised only if some enemy is
/// not, so that when everyone is caught unaware nobody is. Returns the units that are.
fn roll_individual_surprise(
    ruleset: &Ruleset,
    sides: &Sides,
    rng: &mut CombatRng,
    log: &mut CombatLog,
    units: &[Roller],
) -> Vec<Entity> {
    let Some(rule) = ruleset.surprise.roll.as_ref().filter(|rule| rule.individual) else {
        return Vec::new();
    };
    let mut caught = Vec::with_capacity(units.len());
    for (_, id, side, marked, own) in units {
        let range = rule.surprised_at_most + enemy_shift(sides, *side) + own;
        let roll = rng.roll(rule.die);
        let surprised = roll.total <= range;
        caught.push(*marked || surprised);
        let name = sides.0.get(*side).map_or_else(|| "?".into(), |info| info.name.clone());
        log.record(0, || {
            LogEvent::SurpriseRoll(line::SurpriseRoll { side: name, unit: Some(id.clone()), roll, range, surprised })
        });
    }
    let alert_enemy =
        |side: usize| units.iter().zip(&caught).any(|((_, _, other, ..), &caught)| *other != side && !caught);
    units
        .iter()
        .zip(&caught)
        .filter(|((_, _, side, ..), caught)| **caught && alert_enemy(*side))
        .map(|((entity, ..), _)| *entity)
        .collect()
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, open_combat.in_set(CombatSystems::Surprise));
}

/// The shift of each side's own surprise range: its wariest unit's on the field (`C-SURP-1`; a
/// ranger keeps the whole party alert), counting a unit without one as 0.
fn side_shifts(sides: &Sides, rollers: &[Roller]) -> Vec<i32> {
    (0..sides.0.len())
        .map(|side| rollers.iter().filter(|roller| roller.2 == side).map(|roller| roller.4).min().unwrap_or(0))
        .collect()
}

/// Logs `combat_started` with every unit's numbers, then one `surprise` per unit on the field.
fn open_combat(mut commands: Commands, battle: Battle, info: Res<CombatInfo>, shifts: Query<&SurpriseShift>) {
    let Battle { mut state, mut log, mut rng, mut index, mut units, ruleset, battlefield, sides } = battle;
    // Statuses are inserted below through commands, which the threat marking cannot see.
    units.touch_everyone();
    let mut ordered: Vec<_> = units.iter().collect();
    ordered.sort_by_key(|view| *view.standing.order);
    log.record(0, || {
        LogEvent::CombatStarted(line::CombatStarted {
            level: info.level.clone(),
            ruleset: ruleset.name.clone(),
            seed: rng.seed(),
            units: ordered.iter().map(|view| unit_entry(view, &ruleset, &sides, &battlefield)).collect(),
        })
    });
    let rolling: Vec<Roller> = ordered
        .iter()
        .filter(|view| *view.standing.status == Status::Active)
        .map(|view| {
            let own = shifts.get(view.entity).map_or(0, |shift| shift.0);
            (view.entity, view.standing.id.0.clone(), view.standing.side.0, view.round.surprised, own)
        })
        .collect();
    let rolled = roll_surprise(&ruleset, &sides, &side_shifts(&sides, &rolling), &mut rng, &mut log);
    let caught = roll_individual_surprise(&ruleset, &sides, &mut rng, &mut log, &rolling);
    for view in ordered.iter().filter(|view| *view.standing.status == Status::Active) {
        let surprised = view.round.surprised
            || rolled.get(view.standing.side.0).copied().unwrap_or(false)
            || caught.contains(&view.entity);
        if surprised && !view.round.surprised {
            commands.entity(view.entity).insert(Surprised);
        }
        log.record(0, || LogEvent::Surprise(line::Surprise { unit: view.standing.id.0.clone(), surprised }));
    }
    let mut reactions = Reactions { commands: &mut commands, rng: &mut rng, log: &mut log, index: &mut index };
    reactions.roll(&ruleset, &sides, &ordered);
    state.phase = CombatPhase::Initiative;
}

/// A unit's line in `combat_started`: who it is, its numbers, where it stands and when it arrives.
fn unit_entry(view: &UnitView, ruleset: &Ruleset, sides: &Sides, battlefield: &Battlefield) -> UnitEntry {
    UnitEntry {
        id: view.standing.id.0.clone(),
        name: view.standing.name.as_str().to_string(),
        side: sides.0.get(view.standing.side.0).map(|side| side.name.clone()).unwrap_or_else(|| "?".into()),
        controller: *view.standing.controller,
        stats: UnitStats {
            agility_mod: unit::modifier(ruleset, view.body.attributes, Attribute::Agility),
            strength: view.body.attributes.score(Attribute::Strength),
            hd: view.body.hit_dice.0.to_string(),
            defense: unit::defense_score(ruleset, view.body.attributes, view.arms.defense, view.round.conditions),
            armour: view.arms.armour.0,
            stress: view.body.stress.current,
            stress_max: view.body.stress.max,
            wounds: view.body.wounds.current,
            wounds_max: view.body.wounds.max,
            speed: view.body.speed.0,
            weapon: view.arms.loadout.weapon_name.clone(),
        },
        zone: battlefield.place(view.standing.zone.0),
        arrives: view
            .standing
            .reinforcement
            .map(|&Reinforcement { round, at_initiative }| Arrival { round, at_initiative }),
    }
}

/// What rolling the reaction table changes: the units' statuses, the dice, the log and the index.
struct Reactions<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    rng: &'a mut CombatRng,
    log: &'a mut CombatLog,
    index: &'a mut ZoneIndex,
}

impl Reactions<'_, '_, '_> {
    /// Creatures with no set mind decide how they feel about this fight (`Z-REACT-1`): one roll
    /// each on the ruleset's reaction table for every unit on the field, in the units' order, and
    /// those that will not fight stand aside.
    fn roll(&mut self, ruleset: &Ruleset, sides: &Sides, ordered: &[UnitView]) {
        let Some(table) = &ruleset.surprise.reaction else {
            return;
        };
        for view in ordered.iter().filter(|view| *view.standing.status == Status::Active) {
            if !sides.0.get(view.standing.side.0).is_some_and(|side| side.unscripted) {
                continue;
            }
            let roll = self.rng.roll(table.die);
            let row = table.rows.iter().find(|(up_to, ..)| roll.total <= *up_to).or(table.rows.last());
            let (reaction, fights) =
                row.map_or(("hostile".to_string(), true), |(_, name, fights)| (name.clone(), *fights));
            let id = view.standing.id.0.clone();
            self.log.record(0, || LogEvent::Reaction(line::Reaction { unit: id.clone(), roll, reaction, fights }));
            if !fights {
                self.commands.entity(view.entity).insert((Status::Surrendered, StoodAside));
                self.index.remove(view.entity, view.standing.zone.0);
                self.log.record(0, || LogEvent::Status(line::Status { unit: id, status: StatusChange::StandsAside }));
            }
        }
    }
}
