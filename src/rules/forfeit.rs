//! Forfeits (online play): a side whose player did not come back gives up the battle. The
//! referee decides it; the rules apply it as the round it was given in ends, so the referee,
//! every follower and the replay of the save write it at the same place in the log.

use bevy::prelude::*;

use super::CombatSystems;
use super::components::Status;
use super::log::{CombatLog, LogEvent, line};
use super::unit::UnitsMut;
use crate::battlefield::ZoneIndex;
use crate::rules::log::StatusChange;

/// A side gives up the battle: its units leave the fight as round `round` ends.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideForfeited {
    /// The side, by index.
    pub side: usize,
    /// The round at whose end its units leave.
    pub round: u32,
}

/// Every forfeit of the battle so far, in the order they were given (for the end stage and the
/// save).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Forfeits(pub Vec<SideForfeited>);

impl Forfeits {
    /// The sides that forfeit as `round` ends.
    fn due(&self, round: u32) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().filter(move |forfeit| forfeit.round == round).map(|forfeit| forfeit.side)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SideForfeited>().init_resource::<Forfeits>();
    // Every update, not only in the end phase (so outside the End set and its phase
    // condition): a message is kept for two updates only.
    app.add_systems(Update, note_forfeits.before(CombatSystems::End));
}

/// Notes each forfeit given, once (a follower rebuilt from the record may hear one again).
fn note_forfeits(mut given: MessageReader<SideForfeited>, mut forfeits: ResMut<Forfeits>) {
    for forfeit in given.read() {
        if !forfeits.0.contains(forfeit) {
            forfeits.0.push(*forfeit);
        }
    }
}

/// Takes out of the fight, in level order, every unit still in it (or on its way) of each side
/// that forfeits as `round` ends, with a `status` line `forfeited` each. Returns whether any
/// side forfeited.
pub(super) fn leave_the_fight(
    forfeits: &Forfeits,
    units: &mut UnitsMut,
    index: &mut ZoneIndex,
    log: &mut CombatLog,
    round: u32,
) -> bool {
    let sides: Vec<usize> = forfeits.due(round).collect();
    if sides.is_empty() {
        return false;
    }
    let mut leaving: Vec<(u32, Entity)> = units
        .iter()
        .filter(|view| sides.contains(&view.standing.side.0))
        .filter(|view| {
            view.standing.status.on_field()
                || (*view.standing.status == Status::Reserve && view.standing.reinforcement.is_some())
        })
        .map(|view| (view.standing.order.0, view.entity))
        .collect();
    leaving.sort_unstable();
    for (_, entity) in leaving {
        let Ok(mut unit) = units.get_mut(entity) else {
            continue;
        };
        if unit.standing.status.on_field() {
            index.remove(entity, unit.standing.zone.0);
        }
        *unit.standing.status = Status::Surrendered;
        let id = unit.standing.id.0.clone();
        log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Forfeited }));
    }
    true
}
