//! Held actions that interrupt (`S-ACT-2`): a unit that held its action against a foe strikes it
//! in answer to the foe's turn, resolving first: before the foe's move when the foe is in reach as
//! its turn comes, else before its action when its move brought it into reach.

use bevy::prelude::*;

use super::attack::AttackRequest;
use super::{Resolver, Strike};
use crate::rules::actions;
use crate::rules::components::{Action, ActionKind};
use crate::rules::log::AttackKind;
use crate::rules::state::Slot;
use crate::rules::unit;

impl Resolver<'_, '_> {
    /// Every unit holding its action against one of the units of `group`, which are about to
    /// move or act, strikes that unit first when its weapon reaches it. The strike is the
    /// holder's Main action: its turn after the round's last is dropped. A holder out of reach
    /// keeps waiting.
    pub(super) fn answer_held_actions(&mut self, group: &[Slot]) {
        for slot in group {
            for holder in self.holders_against(slot.unit) {
                if self.held_strike_reaches(holder, slot.unit) {
                    self.held_strike(holder, slot);
                }
            }
        }
    }

    /// The units holding their action against `foe` that can still take it, in level order.
    fn holders_against(&self, foe: Entity) -> Vec<Entity> {
        let round = self.round();
        let mut holders: Vec<(u32, Entity)> = self
            .units
            .iter()
            .filter(|view| {
                view.conditions.held_against == Some(foe)
                    && view.conditions.held_action
                    && !view.conditions.snapped
                    && unit::may_act(*view.status, view.conditions, view.surprised, round)
                    && unit::is_fighting(*view.status, view.conditions)
            })
            .map(|view| (view.order.0, view.entity))
            .collect();
        holders.sort_unstable();
        holders.into_iter().map(|(_, entity)| entity).collect()
    }

    /// Whether `holder`'s weapon in hand reaches `foe` from where both stand (sight included).
    fn held_strike_reaches(&self, holder: Entity, foe: Entity) -> bool {
        let (Ok(h), Ok(f)) = (self.units.get(holder), self.units.get(foe)) else {
            return false;
        };
        f.status.on_field()
            && actions::reach(&h, ActionKind::Attack)
                .is_ok_and(|reach| reach.reaches(&self.battlefield, h.zone.0, f.zone.0))
    }

    /// `holder` strikes the unit of `slot` before its action, and its held turn is spent.
    fn held_strike(&mut self, holder: Entity, slot: &Slot) {
        let foe = slot.unit;
        // The foe's turn has come: too late for it to snap back or take total defense.
        if let Ok(mut unit) = self.units.get_mut(foe) {
            unit.conditions.turn_taken = true;
        }
        let Ok(mut unit) = self.units.get_mut(holder) else {
            return;
        };
        unit.conditions.turn_taken = true;
        unit.conditions.held_against = None;
        let order = unit.order.0;
        let cursor = self.state.turn_cursor.min(self.state.turns.len());
        for (_, units) in &mut self.state.turns[cursor..] {
            units.retain(|&entity| entity != holder);
        }
        let action = Action::new(ActionKind::Attack, Some(foe), None);
        let held = Slot { initiative: slot.initiative, unit: holder, order, action };
        let target = self.screened_target(&held, foe);
        let strike = Strike { primary: true, stood_still: true, ..Strike::default() };
        let mut pending = Vec::new();
        self.attack(AttackRequest::new(holder, target, slot.initiative, AttackKind::Held).with(strike), &mut pending);
        for effect in pending {
            self.apply(effect);
        }
    }
}
