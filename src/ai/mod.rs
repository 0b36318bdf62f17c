//! The built-in AI controllers (random, easy, greedy, and the search AI for hard and master):
//! they declare for the units whose controller is an AI, through the same `ActionChosen`
//! message and the same legality checks as a human player.

mod choice;
mod controller;
pub mod forward;
mod greedy;
mod hindrance;
mod manhandle;
mod random;
pub mod tactician;
mod view;

pub use choice::Choice;
pub use controller::{AiClock, AiRng, AiSeed, Delegated, SearchInFlight, SearchThread, thread_cpu_time};
pub use greedy::choose as greedy_choice;
pub use random::choose as random_choice;
pub use view::{AiView, JustDeclared};

use bevy::prelude::*;

/// Registers the AI controllers.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(controller::plugin);
}
