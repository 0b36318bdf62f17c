//! The battlefield: zones, their adjacency and distances, and the index of who stands where.

mod zones;

pub use zones::{Battlefield, DistanceBand, Hazard, UNREACHABLE, ZoneDef, ZoneIdx, ZoneIndex};

use bevy::prelude::*;

/// Registers the battlefield resources.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(zones::plugin);
}
