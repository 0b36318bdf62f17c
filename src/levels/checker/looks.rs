//! How a level's board looks, read from its file: each zone's and square's terrain and texture,
//! with the mistakes found (a terrain area off the map or fitting none of its squares, a texture
//! no mod brings).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::battlefield::{GridMap, Square, Terrain};
use crate::levels::schema::LevelFile;
use crate::levels::terrain::{BoardLooks, Looks, SquareTerrain, TerrainAreaFile, ZoneTerrain};

/// A mistake in a level's terrain: at the `nth` `field:` (or at `field: "value"` when `value`
/// is given), and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainProblem {
    /// The key it is written at.
    pub field: &'static str,
    /// The value written there, when it locates the mistake (a texture's name).
    pub value: Option<String>,
    /// Which of the keys (0 for the first).
    pub nth: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// How `level`'s board looks (`grid`: its map, on a grid level), with the mistakes found: a
/// terrain area off the map or fitting none of its squares, a texture no mod brings
/// (`textures`: the mods' textures by name, as the catalog has them).
pub fn board_looks(
    level: &LevelFile,
    grid: Option<&GridMap>,
    textures: &BTreeMap<String, PathBuf>,
) -> (BoardLooks, Vec<TerrainProblem>) {
    let mut problems = Vec::new();
    let mut texture = |name: &Option<String>, problems: &mut Vec<TerrainProblem>| {
        let name = name.as_deref()?;
        if !textures.contains_key(name) {
            problems.push(TerrainProblem {
                field: "texture",
                value: Some(name.to_string()),
                nth: 0,
                message: format!(
                    "texture \"{name}\" not found; expected the name of a picture in a mod's textures/ folder (without `.png`)"
                ),
            });
        }
        Some(Arc::from(name))
    };
    let mut seen = std::collections::HashSet::new();
    let zones = level
        .zones
        .iter()
        .filter(|zone| seen.insert(zone.id.as_str()))
        .map(|zone| Looks {
            terrain: zone.terrain.unwrap_or(ZoneTerrain::default_for(zone.hazard.is_some(), zone.capacity.is_some())),
            texture: texture(&zone.texture, &mut problems),
        })
        .collect();
    let squares = match (grid, &level.grid) {
        (Some(map), Some(file)) => paint_squares(map, &file.terrain, &mut problems, &mut texture),
        _ => Vec::new(),
    };
    (BoardLooks { zones, squares }, problems)
}

/// Each square's looks: its symbol's default, then each area over the squares it fits.
fn paint_squares(
    map: &GridMap,
    areas: &[TerrainAreaFile],
    problems: &mut Vec<TerrainProblem>,
    texture: &mut impl FnMut(&Option<String>, &mut Vec<TerrainProblem>) -> Option<Arc<str>>,
) -> Vec<Looks<SquareTerrain>> {
    let (width, height) = (i32::from(map.width()), i32::from(map.height()));
    let cells = usize::from(map.width()) * usize::from(map.height());
    let mut squares: Vec<Looks<SquareTerrain>> = (0..cells)
        .map(|cell| Looks { terrain: SquareTerrain::default_for(map.terrain(map.square(cell))), texture: None })
        .collect();
    for (nth, area) in areas.iter().enumerate() {
        let to = area.to.unwrap_or(area.from);
        let number = nth + 1;
        let own_texture = texture(&area.texture, problems);
        let mut problem = |message: String| problems.push(TerrainProblem { field: "from", value: None, nth, message });
        if let Some((x, y)) = [area.from, to].into_iter().find(|&(x, y)| !map.contains(Square::new(x, y))) {
            problem(format!(
                "terrain area {number}: square ({x}, {y}) is off the map; expected corners from (0, 0) to ({}, {})",
                width - 1,
                height - 1
            ));
            continue;
        }
        let mut painted = 0;
        for y in area.from.1.min(to.1)..=area.from.1.max(to.1) {
            for x in area.from.0.min(to.0)..=area.from.0.max(to.0) {
                let cell = (y * width + x) as usize;
                if map.terrain(Square::new(x, y)) == area.terrain.kind() {
                    squares[cell] = Looks { terrain: area.terrain, texture: own_texture.clone() };
                    painted += 1;
                }
            }
        }
        if painted == 0 {
            problem(format!(
                "terrain area {number}: {:?} fits {} squares and there are none from {:?} to {:?}; expected an area over at least one",
                area.terrain,
                kind_name(area.terrain.kind()),
                area.from,
                to
            ));
        }
    }
    squares
}

/// A kind of square in a modder's words.
fn kind_name(kind: Terrain) -> &'static str {
    match kind {
        Terrain::Open => "open (`.`)",
        Terrain::Wall => "wall (`#`)",
        Terrain::Slit => "arrow slit (`|` or `=`)",
        Terrain::Difficult => "difficult (`~`)",
    }
}
