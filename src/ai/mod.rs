//! The built-in AI controllers: they declare for the units whose controller is an AI, through
//! the same `ActionChosen` message and the same legality checks as a human player.

mod controller;
mod greedy;
mod random;

pub use controller::AiRng;
pub use greedy::choose as greedy_choice;
pub use random::choose as random_choice;

use bevy::prelude::*;

/// Registers the AI controllers.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(controller::plugin);
}
