//! Lingering effects on the sufferer's own turn (`Z-ONGO-1`, `Z-HIND-1`) in turn-based
//! rulesets: ongoing damage is lost at the start of the unit's turn, and the tests to shake off
//! ongoing damage and a hindrance come at its end. Where the ruleset says so, a zone's hazard
//! also tests each unit as its turn begins (`Z-ZONE-3`), and a held unit tries to break free
//! (`Z-STUNT-1`). Rulesets that declare before resolving have no
//! turns of their own, and keep the end-of-round pass in `end.rs`.

use bevy::prelude::*;

use super::battle::Battle;
use super::end;
use super::equipment::InjuryTables;
use super::resolve::Harm;
use super::state::{DamageDealt, DeclarationQueue};
use super::unit;
use super::{CombatSystems, DeclareSystems};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TurnUpkeep>()
        .add_systems(Update, turn_upkeep.in_set(CombatSystems::Declare).before(DeclareSystems::Open));
}

/// Where the turn-by-turn upkeep stands in the round.
#[derive(Resource, Default, Debug)]
pub(super) struct TurnUpkeep {
    /// The round and turn whose start has been dealt with, so no turn starts twice.
    started: Option<(u32, usize)>,
    /// The units of the turn now being played, whose end is still to come.
    ending: Vec<Entity>,
}

/// Before a turn opens: the turn just played ends, and the next one starts. A turn whose units
/// cannot act (paralysed, surprised, down) starts and ends at once, so a paralysed unit still
/// gets its test; the declare stage then skips it as before.
fn turn_upkeep(
    battle: Battle,
    queue: Res<DeclarationQueue>,
    mut upkeep: ResMut<TurnUpkeep>,
    tables: Res<InjuryTables>,
    mut dealt: MessageWriter<DamageDealt>,
) {
    let Battle { mut state, mut log, mut rng, mut index, mut units, ruleset, battlefield, .. } = battle;
    if queue.open || !ruleset.turns.order.on_turn() {
        return;
    }
    let round = state.round;
    let mut harm = Harm {
        units: &mut units,
        index: &mut index,
        log: &mut log,
        rng: &mut rng,
        ruleset: &ruleset,
        tables: &tables,
        dealt: &mut dealt,
        round,
    };
    for entity in std::mem::take(&mut upkeep.ending) {
        end::shake_off(&mut harm, entity);
    }
    while let Some((_, group)) = state.turns.get(state.turn_cursor) {
        let turn = (round, state.turn_cursor);
        if upkeep.started == Some(turn) {
            return;
        }
        upkeep.started = Some(turn);
        // A held action's own turn (`S-ACT-2`) is only that action: the unit's turn started and
        // ended where its place in the order was.
        let group = group.clone();
        let ending: Vec<Entity> = group
            .iter()
            .copied()
            .filter(|&entity| !harm.units.get(entity).is_ok_and(|view| view.round.conditions.held_action))
            .filter(|entity| !state.turn_parts.contains(entity))
            .collect();
        // A delayed turn (`A-INIT-1`) began once already this round.
        for &entity in ending.iter().filter(|entity| !state.delayed.contains(entity)) {
            lose_ongoing(&mut harm, entity);
            if harm.ruleset.turns.hazards_on_turn() {
                end::test_hazard(&mut harm, &battlefield, entity);
            }
            end::break_free(&mut harm, entity);
        }
        let acts = group.iter().any(|&entity| {
            harm.units.get(entity).is_ok_and(|view| {
                unit::may_act(*view.standing.status, view.round.conditions, view.round.surprised, round)
            })
        });
        if acts {
            upkeep.ending = ending;
            return;
        }
        for entity in ending {
            end::shake_off(&mut harm, entity);
        }
        state.turn_cursor += 1;
    }
}

/// The loss of a unit still on the field with ongoing damage: a `damage` line that Armour does
/// not reduce.
fn lose_ongoing(harm: &mut Harm, entity: Entity) {
    if harm.units.get(entity).is_ok_and(|view| view.standing.status.on_field()) {
        end::suffer_ongoing(harm, entity);
    }
}
