//! Terrain as the board draws it: what a zone or a grid square looks like (a road, a forest, a
//! brick wall, mud). Looks only: no rule reads it, so a level's terrain never changes a battle
//! or its log. A level may name it (`terrain` on a zone, `terrain` areas on a grid); where it
//! does not, it follows from what the zone or square already is.

use std::sync::Arc;

use bevy::prelude::Resource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::battlefield::Terrain;

/// What a zone looks like on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum ZoneTerrain {
    /// Open grassland (a zone with no hazard and no capacity, by default).
    #[default]
    Field,
    /// A beaten earth road or track.
    Road,
    /// Woodland: tree roots and leaf litter.
    Forest,
    /// Running water.
    River,
    /// A bridge or a narrow stone way.
    Bridge,
    /// Tumbled stone.
    Ruins,
    /// An indoor stone floor.
    Hall,
    /// Boggy, waterlogged ground.
    Marsh,
    /// Broken ground: scree, rubble, thorns (a zone with a hazard, by default).
    Rough,
    /// A cramped stone passage (a zone with a capacity, by default).
    Passage,
    /// Sand or a beach.
    Sand,
}

impl ZoneTerrain {
    /// Every zone terrain, for the editor and the docs.
    pub const ALL: [Self; 11] = [
        Self::Field,
        Self::Road,
        Self::Forest,
        Self::River,
        Self::Bridge,
        Self::Ruins,
        Self::Hall,
        Self::Marsh,
        Self::Rough,
        Self::Passage,
        Self::Sand,
    ];

    /// The terrain in plain words, for the board's hover card.
    pub const fn words(self) -> &'static str {
        match self {
            Self::Field => "open field",
            Self::Road => "road",
            Self::Forest => "forest",
            Self::River => "river",
            Self::Bridge => "bridge",
            Self::Ruins => "ruins",
            Self::Hall => "hall",
            Self::Marsh => "marsh",
            Self::Rough => "rough ground",
            Self::Passage => "narrow passage",
            Self::Sand => "sand",
        }
    }

    /// The look of a zone that names none: broken ground where it has a hazard, a passage where
    /// it holds few, else a field (the colours the board gave these zones before terrain).
    pub fn default_for(has_hazard: bool, has_capacity: bool) -> Self {
        match (has_hazard, has_capacity) {
            (true, _) => Self::Rough,
            (false, true) => Self::Passage,
            (false, false) => Self::Field,
        }
    }
}

/// What a grid square looks like on the board. Each fits one kind of square (open ground,
/// wall, arrow slit, difficult ground): the map's symbol says what a square is, its terrain
/// only how it looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum SquareTerrain {
    /// Open ground: a smooth stone floor (the default for `.`).
    Floor,
    /// Open ground: grass.
    Grass,
    /// Open ground: bare earth, a track.
    Dirt,
    /// Open ground: sand.
    Sand,
    /// Open ground: rough flagstones or cobbles.
    Flagstones,
    /// A wall: brick and stone (the default for `#`).
    Wall,
    /// A wall: a natural rock face.
    Rock,
    /// An arrow slit or window in a wall (the default for `|` and `=`).
    ArrowSlit,
    /// Difficult ground: rubble (the default for `~`).
    Rubble,
    /// Difficult ground: mud.
    Mud,
    /// Difficult ground: shallow water.
    Shallows,
}

impl SquareTerrain {
    /// Every square terrain, for the editor and the docs.
    pub const ALL: [Self; 11] = [
        Self::Floor,
        Self::Grass,
        Self::Dirt,
        Self::Sand,
        Self::Flagstones,
        Self::Wall,
        Self::Rock,
        Self::ArrowSlit,
        Self::Rubble,
        Self::Mud,
        Self::Shallows,
    ];

    /// The look of a square whose level names none.
    pub const fn default_for(kind: Terrain) -> Self {
        match kind {
            Terrain::Open => Self::Floor,
            Terrain::Wall => Self::Wall,
            Terrain::Slit => Self::ArrowSlit,
            Terrain::Difficult => Self::Rubble,
        }
    }

    /// The terrain in plain words, for the board's hover card.
    pub const fn words(self) -> &'static str {
        match self {
            Self::Floor => "stone floor",
            Self::Grass => "grass",
            Self::Dirt => "bare earth",
            Self::Sand => "sand",
            Self::Flagstones => "flagstones",
            Self::Wall => "wall",
            Self::Rock => "rock face",
            Self::ArrowSlit => "arrow slit",
            Self::Rubble => "rubble",
            Self::Mud => "mud",
            Self::Shallows => "shallow water",
        }
    }

    /// The kind of square it fits.
    pub const fn kind(self) -> Terrain {
        match self {
            Self::Floor | Self::Grass | Self::Dirt | Self::Sand | Self::Flagstones => Terrain::Open,
            Self::Wall | Self::Rock => Terrain::Wall,
            Self::ArrowSlit => Terrain::Slit,
            Self::Rubble | Self::Mud | Self::Shallows => Terrain::Difficult,
        }
    }
}

/// An area of a grid given one terrain: the squares from `from` to `to` (corners, inclusive)
/// that are of the kind the terrain fits; the others keep theirs. Later areas paint over
/// earlier ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainAreaFile {
    /// The look.
    pub terrain: SquareTerrain,
    /// One corner `(x, y)`.
    pub from: (i32, i32),
    /// The opposite corner; the area is the one square `from` when left out.
    #[serde(default)]
    pub to: Option<(i32, i32)>,
    /// A picture from a mod's `textures/` folder (its name, without `.png`) drawn instead of
    /// the terrain's own.
    #[serde(default)]
    pub texture: Option<String>,
}

/// How one zone or square looks: its terrain, and a mod's texture in place of the terrain's own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Looks<T> {
    /// The terrain.
    pub terrain: T,
    /// A mod texture's name, drawn instead of the terrain's.
    pub texture: Option<Arc<str>>,
}

/// How the battle's board looks: each zone's terrain (zone battlefields), or each square's in
/// row-major order (grids). The window draws it; nothing else reads it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BoardLooks {
    /// By zone index, on a zone battlefield.
    pub zones: Vec<Looks<ZoneTerrain>>,
    /// By square, row by row, on a grid.
    pub squares: Vec<Looks<SquareTerrain>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_square_defaults_to_a_terrain_that_fits_it() {
        for kind in [Terrain::Open, Terrain::Wall, Terrain::Slit, Terrain::Difficult] {
            assert_eq!(SquareTerrain::default_for(kind).kind(), kind);
        }
    }

    #[test]
    fn every_kind_of_square_has_a_terrain_and_every_terrain_a_kind() {
        for kind in [Terrain::Open, Terrain::Wall, Terrain::Slit, Terrain::Difficult] {
            assert!(SquareTerrain::ALL.iter().any(|terrain| terrain.kind() == kind), "{kind:?}");
        }
    }

    #[test]
    fn zones_without_terrain_look_as_the_board_coloured_them() {
        assert_eq!(ZoneTerrain::default_for(false, false), ZoneTerrain::Field);
        assert_eq!(ZoneTerrain::default_for(true, true), ZoneTerrain::Rough);
        assert_eq!(ZoneTerrain::default_for(false, true), ZoneTerrain::Passage);
    }
}
