//! Held actions that interrupt (`S-ACT-2`): a unit that held its action against a foe takes it
//! in answer to the foe's turn, resolving first: before the foe's move when its plan can be
//! carried out as the foe's turn comes, else before the foe's action when the foe's move made it
//! possible (a foe walking into reach or range). The plan (`HeldPlan`) was named when the unit
//! held; it is checked again, as a declaration is, against the board of that moment.

use bevy::prelude::*;

use super::attack::AttackRequest;
use super::{Resolver, Strike, is_strike};
use crate::rules::actions;
use crate::rules::components::{Action, ActionKind, HeldPlan};
use crate::rules::log::line;
use crate::rules::log::{AttackKind, LogEvent};
use crate::rules::state::Slot;
use crate::rules::unit;

impl Resolver<'_, '_> {
    /// Every unit holding its action against one of the units of `group`, which are about to
    /// move or act, takes its held action first when it is legal now. It is the holder's Main
    /// action: its turn after the round's last is dropped. A holder whose plan cannot be carried
    /// out yet keeps waiting.
    pub(super) fn answer_held_actions(&mut self, group: &[Slot]) {
        // Only `hold_action` holds against a foe, and it files the holder in
        // `CombatState::holding`: nobody there, nothing to answer.
        if self.state.holding.is_empty() {
            return;
        }
        for slot in group {
            for holder in self.holders_against(slot.unit) {
                if let Some(plan) = self.held_plan_now(holder, slot.unit) {
                    self.take_held_action(holder, slot, plan);
                }
            }
        }
    }

    /// The units holding their action against `foe` that can still take it, in level order.
    fn holders_against(&self, foe: Entity) -> Vec<Entity> {
        let round = self.round();
        let mut holders: Vec<(u32, Entity)> = self
            .state
            .holding
            .iter()
            .filter_map(|&holder| self.units.get(holder).ok())
            .filter(|view| {
                view.round.conditions.held_against == Some(foe)
                    && view.round.conditions.held_action
                    && !view.round.conditions.snapped
                    && unit::may_act(*view.standing.status, view.round.conditions, view.round.surprised, round)
                    && unit::is_fighting(*view.standing.status, view.round.conditions)
            })
            .map(|view| (view.standing.order.0, view.entity))
            .collect();
        holders.sort_unstable();
        holders.dedup();
        holders.into_iter().map(|(_, entity)| entity).collect()
    }

    /// `holder`'s plan against `foe` as an action, when the foe is still on the field and the
    /// plan passes the declaration's own check from where everyone stands now.
    fn held_plan_now(&self, holder: Entity, foe: Entity) -> Option<Action> {
        let (h, f) = (self.units.get(holder).ok()?, self.units.get(foe).ok()?);
        if !f.standing.status.on_field() {
            return None;
        }
        let plan = h.round.conditions.held_plan.unwrap_or(HeldPlan::strike(foe)).action();
        actions::check(self.ctx(), &h, &plan, &*self.units).is_ok().then_some(plan)
    }

    /// `holder` takes its held action `plan` in answer to the turn of `slot`'s unit, at its count:
    /// a `declared` line marked `held`, then the action and its effects.
    fn take_held_action(&mut self, holder: Entity, slot: &Slot, plan: Action) {
        let foe = slot.unit;
        // The foe's turn has come: too late for it to snap back or take total defense.
        if let Ok(mut unit) = self.units.get_mut(foe) {
            unit.round.conditions.turn_taken = true;
        }
        let Ok(mut unit) = self.units.get_mut(holder) else {
            return;
        };
        unit.round.conditions.turn_taken = true;
        unit.round.conditions.held_against = None;
        unit.round.conditions.held_plan = None;
        if plan.kind == ActionKind::FullDefense {
            unit.round.conditions.full_defense = true;
        }
        let order = unit.standing.order.0;
        let cursor = self.state.turn_cursor.min(self.state.turns.len());
        for (_, units) in &mut self.state.turns[cursor..] {
            units.retain(|&entity| entity != holder);
        }
        let held = Slot { initiative: slot.initiative, unit: holder, order, action: plan };
        self.log_held_declaration(&held);
        if is_strike(plan.kind)
            && let Some(target) = plan.target
        {
            self.held_strike(&held, target);
            return;
        }
        if let Some(to) = plan.move_to
            && !self.perform_move(&held, to).0
        {
            return;
        }
        let mut pending = Vec::new();
        self.perform_action(&held, &mut pending);
        for effect in pending {
            self.apply(effect);
        }
    }

    /// The `declared` line of a held action taken in answer to a foe: at the foe's count, with
    /// `held: true`.
    fn log_held_declaration(&mut self, held: &Slot) {
        let Some(view) = self.unit(held.unit, "logging a held action") else {
            return;
        };
        let action = held.action;
        let using = crate::rules::declare::action_tool(&view, &action);
        let unit = view.standing.id.0.clone();
        let target =
            action.target.and_then(|target| self.units.get(target).ok()).map(|target| target.standing.id.0.clone());
        let move_to = action.move_to.map(|zone| self.battlefield.place(zone));
        let aim = match action.kind {
            ActionKind::Aimed(aim) => Some(aim),
            _ => None,
        };
        let (round, initiative) = (self.round(), held.initiative);
        self.log.record(round, || {
            LogEvent::Declared(line::Declared {
                unit,
                action: action.kind,
                target,
                modifier: 0,
                initiative,
                move_to,
                aim,
                using,
                carried_over: false,
                move_after: None,
                held: true,
            })
        });
    }

    /// A held blow at `target` (kind `held`): struck without moving, before the foe can answer.
    fn held_strike(&mut self, held: &Slot, target: Entity) {
        let target = self.screened_target(held, target);
        let aim = match held.action.kind {
            ActionKind::Aimed(aim) => Some(aim),
            _ => None,
        };
        let strike = Strike { aim, primary: true, stood_still: true, ..Strike::default() };
        let mut pending = Vec::new();
        self.attack(
            AttackRequest::new(held.unit, target, held.initiative, AttackKind::Held).with(strike),
            &mut pending,
        );
        for effect in pending {
            self.apply(effect);
        }
    }
}
