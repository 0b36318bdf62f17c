//! The battle as every panel, overlay and hover card reads it: one read-only param with the
//! naming helpers they share.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use crate::rules::actions::ActionContext;
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::UnitReadOnly;
use crate::rules::{CombatState, DeclarationQueue, Sides};

/// What the window's views read of the battle, read-only: the state, the declaration queue, the
/// ruleset, the field, the zone index, the sides and the units.
#[derive(SystemParam)]
pub struct BattleRead<'w, 's> {
    /// Round, phase and schedule.
    pub state: Res<'w, CombatState>,
    /// Who declares, and in what order.
    pub queue: Res<'w, DeclarationQueue>,
    /// The rules in play.
    pub ruleset: Res<'w, Ruleset>,
    /// Zones or squares.
    pub battlefield: Res<'w, Battlefield>,
    /// Who stands where.
    pub index: Res<'w, ZoneIndex>,
    /// The sides' names and colours.
    pub sides: Res<'w, Sides>,
    /// Every unit.
    pub units: Query<'w, 's, UnitReadOnly>,
}

impl BattleRead<'_, '_> {
    /// What a legality check needs to know of the battle.
    pub fn ctx(&self) -> ActionContext<'_> {
        ActionContext {
            ruleset: &self.ruleset,
            battlefield: &self.battlefield,
            index: &self.index,
            round: self.state.round,
        }
    }

    /// A side's name, or its number when the level has no such side.
    pub fn side_name(&self, side: usize) -> String {
        side_name(&self.sides, side)
    }

    /// A unit's display name, or `?`.
    pub fn unit_name(&self, unit: Entity) -> String {
        self.units.get(unit).map_or_else(|_| "?".to_string(), |view| view.standing.name.as_str().to_string())
    }

    /// A zone's display name, or `?`.
    pub fn zone_name(&self, zone: ZoneIdx) -> &str {
        self.battlefield.zones().get(usize::from(zone)).map_or("?", |zone| zone.name.as_str())
    }
}

/// A side's name, or its number when the level has no such side.
pub fn side_name(sides: &Sides, side: usize) -> String {
    sides.0.get(side).map_or_else(|| format!("side {}", side + 1), |info| info.name.to_string())
}
