//! The greedy AI's answer to a hindrance that needs an action to end (`Z-HIND-1`): a unit with
//! no blow to strike where it stands spends its action cutting free rather than waiting.

use super::choice::Choice;
use crate::rules::actions;
use crate::rules::components::*;

/// `shake_off`, when the actor carries a hindrance that only an action ends and the declaration
/// is legal. The caller asks only once the unit has found nothing better to do with its action:
/// a stuck unit with a foe in reach strikes it where it stands.
pub(super) fn shake_off(choice: &Choice) -> Option<Action> {
    let actor = choice.actor;
    let needs_action = actor.round.conditions.hindrance_needing_action().is_some();
    let action = Action::simple(ActionKind::ShakeOff);
    (needs_action && actions::check(choice.ctx(), actor, &action, choice.units).is_ok()).then_some(action)
}
