//! The combat log in words: one readable line per [`LogEntry`], with units and zones called by
//! their display names instead of the level's ids. The window's log, the CLI and the tests all
//! read it; the JSON Lines of [`super::log::CombatLog`] are untouched by it.

use std::collections::HashMap;
use std::sync::Arc;

use super::components::AimPoint;
use super::dice::DiceRoll;
use super::log::{
    AttackExtra, AttackKind, EscalationChain, LogEntry, LogEvent, ManeuverKind, ManeuverOutcome, ShockAbsorber,
    StatusChange, Withdrawal,
};
use crate::battlefield::{Battlefield, Place};
use crate::rules::log::line;

mod lines;
mod names;
mod rolls;

pub use lines::describe;
#[cfg(test)]
use lines::line;
pub use names::Names;
pub use rolls::{aim_words, rolls};

#[cfg(test)]
mod tests;
