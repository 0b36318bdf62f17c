//! The random AI: any legal action, uniformly. A baseline, and a fuzzer for the rules.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::controller::AiView;
use crate::rules::actions::{self, ViewCache};
use crate::rules::components::{Action, ActionKind};
use crate::rules::unit::UnitView;

/// Picks uniformly among every legal action of `actor`.
pub fn choose(view: &AiView, units: &ViewCache, actor: &UnitView, rng: &mut ChaCha8Rng) -> Action {
    let legal = actions::legal_actions(view.ctx(), actor, units);
    if legal.is_empty() {
        return Action::simple(ActionKind::Hold);
    }
    legal[rng.random_range(0..legal.len())]
}
