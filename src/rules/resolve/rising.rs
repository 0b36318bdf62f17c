//! Standing up out of turn (`A-BONUS-1`): a unit left prone by someone else's turn gets up as
//! that turn ends, paying with a Bonus Action of its own next turn, if that turn has one left.

use bevy::prelude::*;

use super::Resolver;
use crate::rules::components::*;
use crate::rules::log::LogEvent;
use crate::rules::log::StatusChange;
use crate::rules::log::line;
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
        // Found first, then stood up one by one: only those are looked up for writing, so the
        // declare stage marks threats afresh for them alone. Whether one rises depends on
        // nothing another's rising changes, so the order and the outcome are as in one walk.
        let rising: Vec<Entity> = self
            .units
            .iter()
            .filter(|unit| {
                let conditions = unit.round.conditions;
                let next_turn_left = BONUS_ACTIONS_PER_TURN
                    .saturating_sub(conditions.bonus_actions_lost)
                    .saturating_sub(conditions.bonus_actions_owed);
                let lay_down = unit.round.declared.action.is_some_and(|action| action.kind == ActionKind::GoProne);
                conditions.prone
                    && next_turn_left > 0
                    && !lay_down
                    && !acting.contains(&unit.entity)
                    && crate::rules::unit::is_fighting(*unit.standing.status, conditions)
            })
            .map(|unit| unit.entity)
            .collect();
        for entity in rising {
            let Ok(mut unit) = self.units.get_mut(entity) else {
                continue;
            };
            unit.round.conditions.prone = false;
            unit.round.conditions.bonus_actions_owed += 1;
            let id = unit.standing.id.0.clone();
            self.log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Standing }));
        }
    }
}
