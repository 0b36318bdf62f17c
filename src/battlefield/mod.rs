//! The battlefield: zones or a square grid, adjacency and distances, sight and cover, and the
//! index of who stands where.

pub mod grid;
mod zones;

pub use grid::{Cover, GridMap, Square, Terrain};
pub use zones::{
    Battlefield, DistanceBand, Hazard, Place, UNREACHABLE, ZoneDef, ZoneIdx, ZoneIndex, install_zone_index,
};

use bevy::prelude::*;

/// Registers the battlefield resources.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(zones::plugin);
}
