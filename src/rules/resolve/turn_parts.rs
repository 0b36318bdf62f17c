//! A turn in parts (`S-ACT-1`, `S-ACT-2`): where the ruleset makes standing up and screening an
//! ally Move actions and going prone a Free action, the unit's turn goes on after them with what
//! it has left, declared anew at the same place in the order.

use super::Resolver;
use crate::rules::components::ActionKind;
use crate::rules::state::Slot;
use crate::rules::unit;

impl Resolver<'_, '_> {
    /// After the stand-up, screen or drop to the ground of `slot`, gives the unit a second part of its
    /// turn, right after this one and at its count, when it has an action left: after standing up
    /// without moving first, and after screening an ally, its Main action (the Move is spent);
    /// after going prone, its Move and Main action, or only the Main action when it moved before
    /// dropping.
    pub(super) fn continue_turn(&mut self, slot: &Slot) {
        let rules = &self.ruleset.turns;
        if !rules.order.on_turn() {
            return;
        }
        let round = self.round();
        let moved = slot.action.move_to.is_some();
        let Ok(mut unit) = self.units.get_mut(slot.unit) else {
            return;
        };
        if !unit::may_act(*unit.standing.status, &unit.round.conditions, unit.round.surprised, round) {
            return;
        }
        let conditions = &mut *unit.round.conditions;
        let move_spent = conditions.held_action || moved;
        let goes_on = match slot.action.kind {
            // Rising spends the Move; a unit that had already spent it rose with its Main action.
            ActionKind::StandUp => rules.stand_up_is_move && !move_spent && !conditions.snapped,
            // A Free action leaves whatever the unit had; after a snap attack only a Move.
            ActionKind::GoProne => rules.go_prone_is_free && !(conditions.snapped && move_spent),
            // The screener's walk to its ward is the Move, whether or not it had to step.
            ActionKind::Screen => rules.screen_is_move && !conditions.held_action && !conditions.snapped,
            _ => false,
        };
        if !goes_on {
            return;
        }
        conditions.held_action |= matches!(slot.action.kind, ActionKind::StandUp | ActionKind::Screen) || moved;
        let count = self.state.turns.get(self.state.turn_cursor.wrapping_sub(1)).map_or(slot.initiative, |turn| turn.0);
        let next = self.state.turn_cursor.min(self.state.turns.len());
        self.state.turns.insert(next, (count, vec![slot.unit]));
        // The second part is no new turn: nothing that happens as a turn begins or ends repeats.
        self.state.delayed.push(slot.unit);
        self.state.turn_parts.push(slot.unit);
    }
}
