//! Lingering effects on the sufferer's own turn (`Z-ONGO-1`, `Z-HIND-1`) in turn-based
//! rulesets: ongoing damage is lost at the start of the unit's turn, and the tests to shake off
//! ongoing damage and a hindrance come at its end. Rulesets that declare before resolving have no
//! turns of their own, and keep the end-of-round pass in `end.rs`.

use bevy::prelude::*;

use super::battle::Battle;
use super::equipment::{DamageType, Hindrance, InjuryTables};
use super::log::LogEvent;
use super::resolve::{DamageHit, Harm};
use super::state::{CombatPhase, DamageDealt, DeclarationQueue, in_phase};
use super::unit;
use super::{CombatSystems, DeclareSystems};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TurnUpkeep>().add_systems(
        Update,
        turn_upkeep.in_set(CombatSystems::Declare).before(DeclareSystems::Open).run_if(in_phase(CombatPhase::Declare)),
    );
}

/// Cause of ongoing damage in the log.
const ONGOING: &str = "ongoing";
/// The `effect` the log gives ongoing damage.
const ONGOING_EFFECT: &str = "ongoing_damage";

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
    let Battle { mut state, mut log, mut rng, mut index, mut units, ruleset, .. } = battle;
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
        shake_off(&mut harm, entity);
    }
    while let Some((_, group)) = state.turns.get(state.turn_cursor) {
        let turn = (round, state.turn_cursor);
        if upkeep.started == Some(turn) {
            return;
        }
        upkeep.started = Some(turn);
        let group = group.clone();
        for &entity in &group {
            lose_ongoing(&mut harm, entity);
        }
        let acts = group.iter().any(|&entity| {
            harm.units.get(entity).is_ok_and(|view| unit::may_act(*view.status, view.conditions, view.surprised, round))
        });
        if acts {
            upkeep.ending = group;
            return;
        }
        for entity in group {
            shake_off(&mut harm, entity);
        }
        state.turn_cursor += 1;
    }
}

/// The loss of a unit with ongoing damage: a `damage` line that Armour does not reduce.
pub(super) fn lose_ongoing(harm: &mut Harm, entity: Entity) {
    let Some((amount, _)) =
        harm.units.get(entity).ok().filter(|view| view.status.on_field()).and_then(|view| view.conditions.ongoing)
    else {
        return;
    };
    harm.deal(DamageHit {
        target: entity,
        source: ONGOING.into(),
        amount,
        damage_type: DamageType::Bleeding,
        critical: false,
        roll: None,
    });
}

/// The tests of a unit still on the field to shake off its ongoing damage, then its hindrance:
/// the attack die + its modifier in the effect's attribute against the effect's number, each a
/// `lingering` line.
pub(super) fn shake_off(harm: &mut Harm, entity: Entity) {
    let Ok(mut unit) = harm.units.get_mut(entity) else {
        return;
    };
    if !unit.status.on_field() {
        return;
    }
    let tests = [
        unit.conditions.ongoing.map(|(_, lingering)| (None, lingering)),
        unit.conditions.hindrance.map(|(hindrance, lingering)| (Some(hindrance), lingering)),
    ];
    for (hindrance, lingering) in tests.into_iter().flatten() {
        let bonus = unit::modifier(harm.ruleset, &unit.attributes, lingering.attribute);
        let roll = harm.rng.roll(harm.ruleset.attack.die.plus(bonus));
        let shaken_off = roll.total >= lingering.tn;
        if shaken_off {
            match hindrance {
                None => unit.conditions.ongoing = None,
                Some(hindrance) => {
                    if hindrance == Hindrance::Paralysed {
                        unit.conditions.paralysed = false;
                    }
                    unit.conditions.hindrance = None;
                }
            }
        }
        let effect = hindrance.map_or(ONGOING_EFFECT, Hindrance::log_name);
        let id = unit.id.0.clone();
        harm.log.record(harm.round, || LogEvent::Lingering { unit: id, effect, roll, tn: lingering.tn, shaken_off });
    }
}
