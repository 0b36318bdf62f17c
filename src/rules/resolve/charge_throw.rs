//! A charge that ends in a thrown attack (`S-SPEC-1`): at a foe beyond the weapon's melee reach
//! when the run ends, the charger throws a carried throwable item, with the charge's bonus.

use crate::rules::log::LostReason;
use bevy::prelude::*;

use super::attack::AttackRequest;
use super::{Pending, Resolver, Strike};
use crate::rules::actions;
use crate::rules::log::AttackKind;
use crate::rules::state::Slot;

impl Resolver<'_, '_> {
    /// Whether the charge of `slot` ends in a throw: the ruleset allows it and `target` stands
    /// beyond the melee reach of the weapon in hand.
    pub(super) fn charge_throws(&self, slot: &Slot, target: Entity) -> bool {
        let allowed = self.ruleset.attack.charge.as_ref().is_some_and(|charge| charge.thrown);
        let (Ok(actor), Ok(other)) = (self.units.get(slot.unit), self.units.get(target)) else {
            return false;
        };
        allowed
            && self.battlefield.distance(actor.standing.zone.0, other.standing.zone.0)
                > actor.arms.loadout.usable_weapon(actor.round.conditions).1.reach
    }

    /// Throws the first carried item that flies to `target` at it, with the charge's +2 (its
    /// lowered AC was set as the charge began). Returns whether the throw was made; without an
    /// item that flies that far, the action is lost (`target_out_of_reach`).
    pub(super) fn charge_throw(&mut self, slot: &Slot, target: Entity, pending: &mut Vec<Pending>) -> bool {
        let item = match (self.units.get(slot.unit), self.units.get(target)) {
            (Ok(actor), Ok(other)) => actions::charge_throw_item(
                &actor,
                self.battlefield.line_distance(actor.standing.zone.0, other.standing.zone.0),
            ),
            _ => None,
        };
        let Some(weapon) = item.and_then(|at| self.take_item(slot.unit, at)).and_then(|item| item.as_thrown_weapon())
        else {
            self.lose(slot.unit, LostReason::TargetOutOfReach);
            return false;
        };
        let strike = Strike { primary: true, charge: true, ..Strike::default() };
        let request = AttackRequest::new(slot.unit, target, slot.initiative, AttackKind::Thrown).with(strike);
        if self.attack(request.thrown(weapon), pending).is_none() {
            self.lose(slot.unit, LostReason::TargetOutOfReach);
        }
        true
    }
}
