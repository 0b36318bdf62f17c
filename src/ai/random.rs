//! The random AI: any legal action, uniformly. A baseline, and a fuzzer for the rules.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::choice::Choice;
use crate::rules::components::{Action, ActionKind};
use crate::rules::legal::LegalActions;

/// Picks uniformly among every legal action of the unit choosing, its targets from the pass's
/// target index: the actions are counted and the chosen one found by position, never listed one
/// by one.
pub fn choose(choice: &Choice, rng: &mut ChaCha8Rng) -> Action {
    let Choice { view, units, actor, .. } = *choice;
    let legal = LegalActions::of(view.ctx(), actor, units.targets(view.ctx()).index());
    if legal.is_empty() {
        return Action::simple(ActionKind::Hold);
    }
    legal.get(rng.random_range(0..legal.len())).unwrap_or(Action::simple(ActionKind::Hold))
}
