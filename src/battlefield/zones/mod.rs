//! Zones as a graph (`Z-ZONE-1..3`): distance bands, capacity, hazards, and the occupancy index.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::grid::{Cover, GridMap, Square};
use crate::vocabulary::dice::Dice;
use crate::vocabulary::traits::{Attribute, DamageType, Hindrance};

mod distances;
mod index;
mod queries;

use distances::{BANDS_KEPT, DistanceTable};
pub use index::{ZoneIndex, install_zone_index};
use queries::SIGHT_UNKNOWN;

/// Index of a zone in the [`Battlefield`].
pub type ZoneIdx = u16;

/// Distance between zones that no path joins.
pub const UNREACHABLE: u32 = u32::MAX;

/// A hazard that tests everyone standing in the zone at the end of each round, or as each of
/// their turns begins (`Z-ZONE-3`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hazard {
    /// What it is, for the log (`"spores"`).
    pub name: String,
    /// The test die; the attribute's modifier is added.
    pub test: Dice,
    /// The attribute tested.
    pub attribute: Attribute,
    /// The number the test must reach.
    pub tn: i32,
    /// Damage on a failed test.
    pub damage: Dice,
    /// Its type.
    pub damage_type: DamageType,
    /// A failed test also leaves this hindrance, shaken off by passing the hazard's own test
    /// (`Z-HIND-1`): spores that weaken, mud that leaves a unit stuck.
    #[serde(default)]
    pub hinders: Option<Hindrance>,
    /// A failed test also leaves ongoing damage of this much a turn, shaken off by passing the
    /// hazard's own test (`Z-ONGO-1`): burning oil, acid.
    #[serde(default)]
    pub ongoing: Option<i32>,
}

/// A zone as the battle sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDef {
    /// Level id (`"ford"`).
    pub id: Arc<str>,
    /// Display name.
    pub name: String,
    /// Most units that fit, if limited (a bridge, a corridor).
    pub capacity: Option<u32>,
    /// Hazard, if any.
    pub hazard: Option<Hazard>,
    /// Where the board draws it, in zone widths, if the level says.
    pub position: Option<(f32, f32)>,
    /// The grid square it is, on a grid battlefield.
    pub square: Option<Square>,
    /// Movement it costs to enter (2 for difficult ground).
    pub enter_cost: u32,
}

/// Where a unit stands, as the log names it: a zone id, or `[x, y]` on a grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Place {
    /// A zone id.
    Zone(Arc<str>),
    /// A grid square.
    Square([i32; 2]),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Zone(id) => f.write_str(id),
            Self::Square([x, y]) => write!(f, "({x}, {y})"),
        }
    }
}

/// The four distance bands of `Z-ZONE-2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum DistanceBand {
    /// Same zone.
    Close,
    /// Adjacent zone.
    Nearby,
    /// Two zones away.
    FarAway,
    /// Further.
    Distant,
}

impl DistanceBand {
    /// The band of a zone distance.
    pub fn of(distance: u32) -> Self {
        match distance {
            0 => Self::Close,
            1 => Self::Nearby,
            2 => Self::FarAway,
            _ => Self::Distant,
        }
    }
}

/// The zone graph with all-pairs distances, built once per level and shared by every battle
/// spawned from it.
#[derive(Resource, Clone, Debug, Default)]
pub struct Battlefield(Arc<Graph>);

#[derive(Debug, Default)]
struct Graph {
    zones: Vec<ZoneDef>,
    /// Each zone's [`ZoneDef::capacity`] (`u32::MAX` for none) and [`ZoneDef::square`], apart
    /// from the rest of the definition: the searches ask them of hundreds of squares a choice,
    /// and a zone's whole definition is a cache line or more.
    rooms: Vec<u32>,
    squares: Vec<Option<Square>>,
    neighbours: Vec<Vec<ZoneIdx>>,
    distances: DistanceTable,
    /// For each zone, every zone ordered by distance from it (then by index), so "zones within
    /// N" is a prefix found by binary search rather than a scan of the whole field.
    nearest_first: Vec<ZoneIdx>,
    /// For each zone, how many zones lie within 0, 1, ... `BANDS_KEPT - 1` steps of it.
    within_counts: Vec<u32>,
    /// For each zone, how many zones any walk reaches from it (itself included).
    reachable: Vec<u32>,
    /// The square map, when the battlefield is a grid (each passable square is one zone).
    grid: Option<GridMap>,
    /// The zone of each grid cell (walls have none), so a square finds its zone at once.
    node_of_cell: Vec<Option<ZoneIdx>>,
    /// What each square sees of each other, worked out on first asking and kept for every battle
    /// on this field: 0 not yet known, 1 hidden, 2 + the cover otherwise.
    sight: Vec<AtomicU8>,
}

/// Registers the battlefield resources.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Battlefield>().init_resource::<ZoneIndex>();
}
