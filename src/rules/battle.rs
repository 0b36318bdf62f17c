//! The battle as one system parameter: the state, log, dice, zones, units and rules every stage touches.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::dice::CombatRng;
use super::log::CombatLog;
use super::ruleset::Ruleset;
use super::state::{CombatState, Sides};
use super::unit::UnitsMut;
use crate::battlefield::{Battlefield, ZoneIndex};

/// What every stage system reads or changes, so each names only its own extra queries and messages.
#[derive(SystemParam)]
pub struct Battle<'w, 's> {
    /// Round, phase, schedule and outcome.
    pub state: ResMut<'w, CombatState>,
    /// The combat log.
    pub log: ResMut<'w, CombatLog>,
    /// The combat dice.
    pub rng: ResMut<'w, CombatRng>,
    /// Who stands in which zone.
    pub index: ResMut<'w, ZoneIndex>,
    /// Every unit.
    pub units: UnitsMut<'w, 's>,
    /// The rules in force.
    pub ruleset: Res<'w, Ruleset>,
    /// The zones and how they connect.
    pub battlefield: Res<'w, Battlefield>,
    /// The sides, by index.
    pub sides: Res<'w, Sides>,
}
