//! Surprise stage (`W-SURP-1`): opens the log and says who was caught unaware.

use bevy::prelude::*;

use super::CombatSystems;
use super::components::{Reinforcement, Status};
use super::dice::CombatRng;
use super::equipment::Attribute;
use super::log::{Arrival, CombatLog, LogEvent, UnitEntry, UnitStats};
use super::ruleset::Ruleset;
use super::state::{CombatInfo, CombatPhase, CombatState, Sides, in_phase};
use super::unit::{self, UnitReadOnly};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, open_combat.in_set(CombatSystems::Surprise).run_if(in_phase(CombatPhase::Surprise)));
}

/// Logs `combat_started` with every unit's numbers, then one `surprise` per unit on the field.
#[expect(clippy::too_many_arguments, reason = "the opening line names the whole battle")]
fn open_combat(
    mut state: ResMut<CombatState>,
    mut log: ResMut<CombatLog>,
    units: Query<UnitReadOnly>,
    ruleset: Res<Ruleset>,
    info: Res<CombatInfo>,
    sides: Res<Sides>,
    rng: Res<CombatRng>,
    battlefield: Res<crate::battlefield::Battlefield>,
) {
    let mut ordered: Vec<_> = units.iter().collect();
    ordered.sort_by_key(|view| *view.order);
    log.record(0, || LogEvent::CombatStarted {
        level: info.level.clone(),
        ruleset: ruleset.name.clone(),
        seed: rng.seed(),
        units: ordered
            .iter()
            .map(|view| UnitEntry {
                id: view.id.0.clone(),
                name: view.name.as_str().to_string(),
                side: sides.0.get(view.side.0).map(|side| side.name.clone()).unwrap_or_else(|| "?".into()),
                controller: view.controller.log_name(),
                stats: UnitStats {
                    agility_mod: unit::modifier(&ruleset, view.attributes, Attribute::Agility),
                    strength: view.attributes.score(Attribute::Strength),
                    hd: view.hit_dice.0.to_string(),
                    defense: unit::defense_score(&ruleset, view.attributes, view.defense, view.conditions),
                    armour: view.armour.0,
                    stress: view.stress.current,
                    stress_max: view.stress.max,
                    wounds: view.wounds.current,
                    wounds_max: view.wounds.max,
                    speed: view.speed.0,
                    weapon: view.loadout.weapon_name.clone(),
                },
                zone: battlefield
                    .zones()
                    .get(view.zone.0 as usize)
                    .map(|zone| zone.id.clone())
                    .unwrap_or_else(|| "?".into()),
                arrives: view
                    .reinforcement
                    .map(|&Reinforcement { round, at_initiative }| Arrival { round, at_initiative }),
            })
            .collect(),
    });
    for view in ordered.iter().filter(|view| *view.status == Status::Active) {
        log.record(0, || LogEvent::Surprise { unit: view.id.0.clone(), surprised: view.surprised });
    }
    state.phase = CombatPhase::Initiative;
}
