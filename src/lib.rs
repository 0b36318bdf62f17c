//! Fray: a turn-based tactical skirmish engine that plays tabletop combat chapters as written.
//!
//! The crate is a library of Bevy plugins (the rules core, the battlefield, levels, the AIs)
//! and a thin binary on top. Everything here is headless.

pub mod ai;
pub mod battlefield;
pub mod cli;
#[cfg(feature = "gui")]
pub mod game;
pub mod headless;
pub mod levels;
pub mod net;
pub mod rules;
pub mod save;
pub mod vocabulary;

use bevy::prelude::*;

/// The headless engine: rules, battlefield, level loading, the AI controllers and the
/// declaration record that saves are made of.
pub fn headless_plugin(app: &mut App) {
    app.add_plugins((rules::plugin, battlefield::plugin, ai::plugin, save::plugin));
}
