//! Standing up out of turn (`A-BONUS-1`): a unit left prone by someone else's turn gets up as
//! that turn ends, paying with a Bonus Action of its own next turn, if that turn has one left.

use bevy::prelude::*;

use super::Resolver;
use crate::rules::components::*;
use crate::rules::log::LogEvent;
use crate::rules::state::Slot;

impl Resolver<'_, '_> {
    /// After the turn of `group`: every other prone unit still in the fight stands up, unless it
    /// lay down on purpose this round or its next turn has no Bonus Action left to give.
    pub(super) fn stand_up_out_of_turn(&mut self, group: &[Slot]) {
        if !self.ruleset.turns.stand_up_out_of_turn {
            return;
        }
        let round = self.round();
        let acting: Vec<Entity> = group.iter().map(|slot| slot.unit).collect();
        for mut unit in &mut self.units {
            let conditions = &unit.conditions;
            let next_turn_left = BONUS_ACTIONS_PER_TURN
                .saturating_sub(conditions.bonus_actions_lost)
                .saturating_sub(conditions.bonus_actions_owed);
            let lay_down = unit.declared.action.is_some_and(|action| action.kind == ActionKind::GoProne);
            let rises = conditions.prone
                && next_turn_left > 0
                && !lay_down
                && !acting.contains(&unit.entity)
                && crate::rules::unit::is_fighting(*unit.status, conditions);
            if rises {
                unit.conditions.prone = false;
                unit.conditions.bonus_actions_owed += 1;
                let id = unit.id.0.clone();
                self.log.record(round, || LogEvent::Status { unit: id, status: "standing" });
            }
        }
    }
}
