//! A unit fleeing in panic after failed morale (`C-WDRAW-1`): every foe whose melee weapon
//! reaches it and that has an attack of opportunity left strikes at its back, then the unit
//! leaves the battle. Runs between the morale stage and the end of the round.

use bevy::prelude::*;

use super::Resolver;
use crate::rules::EndSystems;
use crate::rules::components::*;
use crate::rules::log::LogEvent;
use crate::rules::log::line;
use crate::rules::state::{Fleeing, Slot};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, strike_the_fleeing.in_set(EndSystems::Strikes));
}

/// The `initiative` of the attacks at a fleeing back: they come after every turn and count of
/// the round, in no turn of their own.
const AFTER_THE_TURNS: i32 = 0;

/// Lets the foes of each fleeing unit strike at its back, in the order the units fled; a unit
/// still standing afterwards leaves the battle (`status`: `fled`).
fn strike_the_fleeing(mut battle: Resolver, mut fleeing: MessageReader<Fleeing>) -> Result {
    for &Fleeing { unit } in fleeing.read() {
        battle.strike_at_back(unit);
    }
    battle.faults()
}

impl Resolver<'_, '_> {
    /// The attacks of opportunity at one fleeing unit's back, then its flight.
    fn strike_at_back(&mut self, unit: Entity) {
        let Some(view) = self.unit(unit, "striking at a fleeing back") else {
            return;
        };
        let (zone, side, order) = (view.standing.zone.0, *view.standing.side, view.standing.order.0);
        let foes = self.threateners_of(zone, side);
        let running = Action::new(ActionKind::Move, None, None);
        let slot = Slot { initiative: AFTER_THE_TURNS, unit, order, action: running };
        let kind = self.ruleset.reposte.name.attack_kind();
        self.provoked_attacks(&slot, &foes, kind);
        let round = self.round();
        let Ok(mut fled) = self.units.get_mut(unit) else {
            return;
        };
        // Struck down, it goes nowhere.
        if *fled.standing.status != Status::Active {
            return;
        }
        *fled.standing.status = Status::Fled;
        self.index.remove(unit, zone);
        let id = fled.standing.id.0.clone();
        self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: Status::Fled.into() }));
    }
}
