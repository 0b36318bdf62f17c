//! Zones as a graph (`Z-ZONE-1..3`): distance bands, capacity, hazards, and the occupancy index.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::grid::{Cover, GridMap, Square};
use crate::vocabulary::dice::Dice;
use crate::vocabulary::traits::{Attribute, DamageType, Hindrance};

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

/// `Graph::sight` entry for a pair not yet worked out.
const SIGHT_UNKNOWN: u8 = 0;
/// `Graph::sight` entry for a pair that cannot see each other.
const SIGHT_HIDDEN: u8 = 1;
/// `Graph::sight` entries from here on are this plus the cover.
const SIGHT_COVER_BASE: u8 = 2;

/// Distances for which "zones within N" is a table lookup; longer ones use a binary search.
/// On a grid a shooter's reach and a charge's double move often pass 8, and there the binary
/// search reads a dozen far-apart distances of a large table (64 MiB on a 64x64 grid).
/// The counts cost 256 bytes a zone (1 MiB on a 64x64 grid, against its 64 MiB of distances).
const BANDS_KEPT: usize = 64;

/// The all-pairs distance table, in the narrowest cells that hold every finite distance of the
/// field, with the cell's largest value standing for [`UNREACHABLE`]: bytes on any field whose
/// walks are shorter than 255 steps. A 64x64 grid's 4,096 x 4,096 pairs are then 16 MiB
/// instead of 64, and the grid searches, which mostly wait on reads of this table, touch a
/// quarter of the cache lines.
#[derive(Clone, Debug)]
enum DistanceTable {
    Bytes(Vec<u8>),
    Halves(Vec<u16>),
    Words(Vec<u32>),
}

impl Default for DistanceTable {
    fn default() -> Self {
        Self::Bytes(Vec::new())
    }
}

/// A cell of the [`DistanceTable`]: `NONE` for no path, and every other value the distance.
trait DistanceCell: Copy + Eq + Into<u32> + TryFrom<u32> {
    const NONE: Self;

    /// `distance` in this cell; `NONE` when there is no path (or, never asked, when it does
    /// not fit: the table widens first).
    fn narrow(distance: u32) -> Self {
        if distance == UNREACHABLE { Self::NONE } else { Self::try_from(distance).unwrap_or(Self::NONE) }
    }

    /// The distance in this cell, [`UNREACHABLE`] for `NONE`.
    fn widen(self) -> u32 {
        if self == Self::NONE { UNREACHABLE } else { self.into() }
    }

    /// Whether every distance up to `farthest` fits below `NONE`.
    fn holds(farthest: u32) -> bool {
        farthest < Self::NONE.into()
    }

    /// `distance` cut to this cell's width: the same as [`Self::narrow`] for a row whose
    /// finite distances this cell [`Self::holds`] (`UNREACHABLE`'s low bits are all ones, which
    /// is `NONE`), without a test per cell.
    fn truncated(distance: u32) -> Self;
}

impl DistanceCell for u8 {
    const NONE: Self = u8::MAX;

    fn truncated(distance: u32) -> Self {
        distance as u8
    }
}

impl DistanceCell for u16 {
    const NONE: Self = u16::MAX;

    fn truncated(distance: u32) -> Self {
        distance as u16
    }
}

impl DistanceCell for u32 {
    const NONE: Self = UNREACHABLE;

    fn truncated(distance: u32) -> Self {
        distance
    }
}

/// `cells` copied into a wider kind of cell, with room for `pairs` in all.
fn widened<A: DistanceCell, B: DistanceCell>(cells: &[A], pairs: usize) -> Vec<B> {
    let mut wider = Vec::with_capacity(pairs.max(cells.len()));
    wider.extend(cells.iter().map(|&cell| B::narrow(cell.widen())));
    wider
}

impl DistanceTable {
    /// Appends one zone's row of distances, whose largest finite one is `farthest`, widening
    /// the cells first if they cannot hold it. `pairs` is the size of the whole table.
    fn push_row(&mut self, row: &[u32], farthest: u32, pairs: usize) {
        match self {
            Self::Bytes(cells) if !u8::holds(farthest) => {
                *self = if u16::holds(farthest) {
                    Self::Halves(widened(cells, pairs))
                } else {
                    Self::Words(widened(cells, pairs))
                };
            }
            Self::Halves(cells) if !u16::holds(farthest) => *self = Self::Words(widened(cells, pairs)),
            _ => {}
        }
        // The cells now hold every finite distance of the row.
        match self {
            Self::Bytes(cells) => cells.extend(row.iter().map(|&distance| u8::truncated(distance))),
            Self::Halves(cells) => cells.extend(row.iter().map(|&distance| u16::truncated(distance))),
            Self::Words(cells) => cells.extend_from_slice(row),
        }
    }

    /// The distance in cell `at`, [`UNREACHABLE`] for no path.
    fn get(&self, at: usize) -> u32 {
        match self {
            Self::Bytes(cells) => cells[at].widen(),
            Self::Halves(cells) => cells[at].widen(),
            Self::Words(cells) => cells[at],
        }
    }
}

impl Battlefield {
    /// Builds the graph; `edges` are undirected pairs of zone indices.
    pub fn new(zones: Vec<ZoneDef>, edges: &[(ZoneIdx, ZoneIdx)]) -> Self {
        let count = zones.len();
        let neighbours = neighbour_lists(count, edges);
        let pairs = count * count;
        let mut distances = DistanceTable::default();
        let mut nearest_first = Vec::with_capacity(pairs);
        let mut within_counts = Vec::with_capacity(count * BANDS_KEPT);
        let mut reachable = Vec::with_capacity(count);
        // One row at a time, searched breadth first in full-width cells, then ordered and kept:
        // the row stays in cache while it is worked on.
        let mut row = vec![UNREACHABLE; count];
        let mut queue = VecDeque::with_capacity(count);
        for start in 0..count {
            let (farthest, walked) = walk_from(start, &neighbours, &mut row, &mut queue);
            distances.push_row(&row, farthest, pairs);
            let (order, at_most) = nearest_first_order(&row);
            nearest_first.extend(order);
            let reached = at_most.last().copied().unwrap_or(0);
            within_counts.extend((0..BANDS_KEPT).map(|band| at_most.get(band).copied().unwrap_or(reached)));
            reachable.push(walked);
        }
        let rooms = zones.iter().map(|zone| zone.capacity.unwrap_or(u32::MAX)).collect();
        let squares = zones.iter().map(|zone| zone.square).collect();
        Self(Arc::new(Graph {
            zones,
            rooms,
            squares,
            neighbours,
            distances,
            nearest_first,
            within_counts,
            reachable,
            grid: None,
            node_of_cell: Vec::new(),
            sight: Vec::new(),
        }))
    }

    /// A grid battlefield (`S-GRID-1`): every passable square becomes a zone of capacity one,
    /// joined to the squares one step away, so movement, reach and the occupancy index work
    /// exactly as on zones, with distances in squares.
    pub fn from_grid(grid: GridMap) -> Self {
        let cells = grid.width() as usize * grid.height() as usize;
        let mut node_of_cell = vec![None; cells];
        let mut zones = Vec::new();
        for (cell, node) in node_of_cell.iter_mut().enumerate() {
            let square = grid.square(cell);
            if grid.passable(square) {
                *node = Some(zones.len() as ZoneIdx);
                zones.push(ZoneDef {
                    id: format!("{},{}", square.x, square.y).into(),
                    name: format!("({}, {})", square.x, square.y),
                    capacity: Some(1),
                    hazard: None,
                    position: Some((square.x as f32, square.y as f32)),
                    square: Some(square),
                    enter_cost: grid.step_cost(square),
                });
            }
        }
        let edges: Vec<(ZoneIdx, ZoneIdx)> = grid
            .edges()
            .into_iter()
            .filter_map(|(a, b)| Some((node_of_cell.get(a).copied()??, node_of_cell.get(b).copied()??)))
            .collect();
        let built = Self::new(zones, &edges);
        let mut graph = Arc::try_unwrap(built.0).unwrap_or_else(|shared| Graph {
            zones: shared.zones.clone(),
            rooms: shared.rooms.clone(),
            squares: shared.squares.clone(),
            neighbours: shared.neighbours.clone(),
            distances: shared.distances.clone(),
            nearest_first: shared.nearest_first.clone(),
            within_counts: shared.within_counts.clone(),
            reachable: shared.reachable.clone(),
            grid: None,
            node_of_cell: Vec::new(),
            sight: Vec::new(),
        });
        let pairs = graph.zones.len() * graph.zones.len();
        graph.sight = (0..pairs).map(|_| AtomicU8::new(SIGHT_UNKNOWN)).collect();
        graph.grid = Some(grid);
        graph.node_of_cell = node_of_cell;
        Self(Arc::new(graph))
    }

    /// The square map, on a grid battlefield.
    pub fn grid(&self) -> Option<&GridMap> {
        self.0.grid.as_ref()
    }

    /// Whether this is a grid battlefield.
    pub fn is_grid(&self) -> bool {
        self.0.grid.is_some()
    }

    /// Movement the walk along [`Battlefield::path`] costs: one per zone or square entered, two
    /// for difficult ground (`UNREACHABLE` when there is no way).
    pub fn path_cost(&self, from: ZoneIdx, to: ZoneIdx) -> u32 {
        if self.distance(from, to) == UNREACHABLE {
            return UNREACHABLE;
        }
        self.path(from, to).iter().map(|&step| self.zone(step).enter_cost.max(1)).sum()
    }

    /// The zone standing on `square`, on a grid battlefield.
    pub fn zone_at(&self, square: Square) -> Option<ZoneIdx> {
        let cell = self.grid()?.index(square)?;
        self.0.node_of_cell.get(cell).copied().flatten()
    }

    /// Most units that fit in `zone`, if limited: its [`ZoneDef::capacity`], read from a
    /// table of its own (a search asks it of many squares).
    pub fn capacity(&self, zone: ZoneIdx) -> Option<u32> {
        Some(self.0.rooms[zone as usize]).filter(|&room| room != u32::MAX)
    }

    /// Whether `zone` has room for one more unit, by `index`'s count of its occupants.
    pub fn has_room(&self, index: &ZoneIndex, zone: ZoneIdx) -> bool {
        self.capacity(zone).is_none_or(|capacity| (index.count(zone) as u32) < capacity)
    }

    /// The grid square `zone` is ([`ZoneDef::square`]), read from a table of its own.
    pub fn square(&self, zone: ZoneIdx) -> Option<Square> {
        self.0.squares[zone as usize]
    }

    /// The zone's name for the log: its id, or `[x, y]` on a grid.
    pub fn place(&self, zone: ZoneIdx) -> Place {
        let def = self.zone(zone);
        match def.square {
            Some(square) => Place::Square([square.x, square.y]),
            None => Place::Zone(def.id.clone()),
        }
    }

    /// Melee reach in steps of this battlefield for a weapon of `reach`: zones count from the
    /// zone a unit stands in (0 = Close), squares from the adjacent ones (`A-ZONE-1`).
    pub fn melee_reach(&self, reach: u32) -> u32 {
        if self.is_grid() { reach.saturating_add(1) } else { reach }
    }

    /// Distance a missile or a spell must cover: the straight line on a grid (walls do not
    /// lengthen it; they block sight instead), the zone count otherwise.
    pub fn line_distance(&self, from: ZoneIdx, to: ZoneIdx) -> u32 {
        match (self.square(from), self.square(to)) {
            (Some(a), Some(b)) => GridMap::distance(a, b),
            _ => self.distance(from, to),
        }
    }

    /// What `from` sees of `to` (`S-LOS-1`, `S-COVER-1`): `None` when a wall hides it entirely.
    /// Zones hide nothing.
    pub fn sight(&self, from: ZoneIdx, to: ZoneIdx) -> Option<Cover> {
        let (Some(grid), Some(a), Some(b)) = (self.grid(), self.square(from), self.square(to)) else {
            return Some(Cover::None);
        };
        let Some(slot) = self.0.sight.get(from as usize * self.len() + to as usize) else {
            return grid.cover(a, b);
        };
        let decode = |value: u8| match value {
            SIGHT_HIDDEN => None,
            value => Some(match value - SIGHT_COVER_BASE {
                0 => Cover::None,
                1 => Cover::Half,
                _ => Cover::Full,
            }),
        };
        match slot.load(Ordering::Relaxed) {
            SIGHT_UNKNOWN => self.file_sight((from, a), (to, b), grid, slot),
            known => decode(known),
        }
    }

    /// Works out what `from` (on square `a`) sees of `to` (on `b`) and files it in `slot`. Sight
    /// is symmetric (`S-LOS-1`), cover is not: the way back, once known, says whether the two see
    /// each other at all, and hidden is filed both ways. Kept out of [`Self::sight`], whose known
    /// answers are asked for far more often.
    #[inline(never)]
    fn file_sight(
        &self,
        (from, a): (ZoneIdx, Square),
        (to, b): (ZoneIdx, Square),
        grid: &GridMap,
        slot: &AtomicU8,
    ) -> Option<Cover> {
        let back = self.0.sight.get(to as usize * self.len() + from as usize);
        let cover = match back.map(|back| back.load(Ordering::Relaxed)) {
            Some(SIGHT_HIDDEN) => None,
            Some(SIGHT_UNKNOWN) | None => grid.cover(a, b),
            Some(_) => grid.cover_in_sight(a, b),
        };
        if cover.is_none()
            && let Some(back) = back
        {
            back.store(SIGHT_HIDDEN, Ordering::Relaxed);
        }
        let value = match cover {
            None => SIGHT_HIDDEN,
            Some(Cover::None) => SIGHT_COVER_BASE,
            Some(Cover::Half) => SIGHT_COVER_BASE + 1,
            Some(Cover::Full) => SIGHT_COVER_BASE + 2,
        };
        slot.store(value, Ordering::Relaxed);
        cover
    }

    /// Number of zones.
    pub fn len(&self) -> usize {
        self.0.zones.len()
    }

    /// Whether there are no zones.
    pub fn is_empty(&self) -> bool {
        self.0.zones.is_empty()
    }

    /// The zone at `zone`.
    pub fn zone(&self, zone: ZoneIdx) -> &ZoneDef {
        &self.0.zones[zone as usize]
    }

    /// All zones in level order.
    pub fn zones(&self) -> &[ZoneDef] {
        &self.0.zones
    }

    /// The index of the zone with level id `id`.
    pub fn find(&self, id: &str) -> Option<ZoneIdx> {
        self.0.zones.iter().position(|zone| &*zone.id == id).map(|at| at as ZoneIdx)
    }

    /// Zones adjacent to `zone`.
    pub fn neighbours(&self, zone: ZoneIdx) -> &[ZoneIdx] {
        &self.0.neighbours[zone as usize]
    }

    /// Zones between `from` and `to` ([`UNREACHABLE`] if none).
    pub fn distance(&self, from: ZoneIdx, to: ZoneIdx) -> u32 {
        self.0.distances.get(from as usize * self.0.zones.len() + to as usize)
    }

    /// The distance band between two zones.
    pub fn band(&self, from: ZoneIdx, to: ZoneIdx) -> DistanceBand {
        DistanceBand::of(self.distance(from, to))
    }

    /// A shortest path from `from` to `to`, excluding `from`; empty if unreachable or the same.
    /// Among equal paths the one through lower zone indices is taken, so paths are deterministic.
    pub fn path(&self, from: ZoneIdx, to: ZoneIdx) -> Vec<ZoneIdx> {
        let total = self.distance(from, to);
        if total == UNREACHABLE || total == 0 {
            return Vec::new();
        }
        let mut path = Vec::with_capacity(total as usize);
        let mut here = from;
        while here != to {
            // Read from `to`'s row (distances are symmetric: `new` links zones both ways): one
            // row of the table for the whole path, rather than a row per neighbour looked at.
            let remaining = self.distance(to, here);
            let step = self.neighbours(here).iter().copied().find(|&next| self.distance(to, next) + 1 == remaining);
            match step {
                Some(next) => {
                    path.push(next);
                    here = next;
                }
                None => return Vec::new(),
            }
        }
        path
    }

    /// The zone `steps` steps along the shortest path from `from` to `to` (the same path as
    /// [`Battlefield::path`]), without building the path.
    pub fn step_toward(&self, from: ZoneIdx, to: ZoneIdx, steps: u32) -> Option<ZoneIdx> {
        let mut here = from;
        for _ in 0..steps {
            // `to`'s row, as in `path`: a 64x64 grid's table is 64 MiB, and a row per
            // neighbour is a cache miss per neighbour.
            let remaining = self.distance(to, here);
            if remaining == 0 || remaining == UNREACHABLE {
                return None;
            }
            here = self.neighbours(here).iter().copied().find(|&next| self.distance(to, next) + 1 == remaining)?;
        }
        Some(here)
    }

    /// Zones within `range` steps of `zone`, nearest first (ties by index).
    pub fn within(&self, zone: ZoneIdx, range: u32) -> impl Iterator<Item = ZoneIdx> + '_ {
        self.within_from(zone, 0, range)
    }

    /// Zones at least `nearest` and at most `range` steps from `zone`, nearest first (ties by
    /// index): the part of [`Self::within`] `range` past the zones nearer than `nearest`.
    pub fn within_from(&self, zone: ZoneIdx, nearest: u32, range: u32) -> impl Iterator<Item = ZoneIdx> + '_ {
        let row = self.nearest_first_row(zone);
        let reached = self.reached(zone, row, range);
        let skipped = nearest.checked_sub(1).map_or(0, |nearer| self.reached(zone, row, nearer)).min(reached);
        row[skipped..reached].iter().copied()
    }

    /// Every zone ordered by distance from `zone` (then by index).
    fn nearest_first_row(&self, zone: ZoneIdx) -> &[ZoneIdx] {
        let count = self.0.zones.len();
        &self.0.nearest_first[zone as usize * count..(zone as usize + 1) * count]
    }

    /// How many zones of `row` (`zone`'s [`Self::nearest_first_row`]) lie within `range` steps.
    fn reached(&self, zone: ZoneIdx, row: &[ZoneIdx], range: u32) -> usize {
        let first = zone as usize * BANDS_KEPT;
        let counts = &self.0.within_counts[first..first + BANDS_KEPT];
        if let Some(&reached) = counts.get(range as usize) {
            return reached as usize;
        }
        if range == UNREACHABLE {
            return row.len();
        }
        // Past the kept bands: the zones within the last of them are within `range` too, and
        // those no walk reaches (last in the row) are not. Most often nothing is left between
        // (a 64x64 grid's walks are all shorter than the bands kept), and there is no search.
        let kept = counts[BANDS_KEPT - 1] as usize;
        let reachable = self.0.reachable[zone as usize] as usize;
        kept + row[kept..reachable].partition_point(|&other| self.distance(zone, other) <= range)
    }
}

/// Each zone's neighbours, sorted, from undirected `edges` (self-links, repeats and indices
/// past `count` left out).
fn neighbour_lists(count: usize, edges: &[(ZoneIdx, ZoneIdx)]) -> Vec<Vec<ZoneIdx>> {
    let mut neighbours = vec![Vec::new(); count];
    for &(a, b) in edges {
        if a == b || a as usize >= count || b as usize >= count {
            continue;
        }
        if !neighbours[a as usize].contains(&b) {
            neighbours[a as usize].push(b);
            neighbours[b as usize].push(a);
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
    }
    neighbours
}

/// Fills `row` with the steps from `start` to every zone (breadth first, `queue` left empty)
/// and returns the farthest distance reached and how many zones were reached.
fn walk_from(start: usize, neighbours: &[Vec<ZoneIdx>], row: &mut [u32], queue: &mut VecDeque<usize>) -> (u32, u32) {
    row.fill(UNREACHABLE);
    row[start] = 0;
    queue.push_back(start);
    // Breadth first, the last zone reached is the farthest.
    let (mut farthest, mut walked) = (0, 0);
    while let Some(zone) = queue.pop_front() {
        let next = row[zone] + 1;
        farthest = row[zone];
        walked += 1;
        for &neighbour in &neighbours[zone] {
            if row[neighbour as usize] == UNREACHABLE {
                row[neighbour as usize] = next;
                queue.push_back(neighbour as usize);
            }
        }
    }
    (farthest, walked)
}

/// The zones of one distance row ordered by distance, then by index (what sorting by
/// `(distance, index)` gives), by counting rather than sorting: a 64×64 grid has 4,096 rows of
/// 4,096. Also returns, for each distance `d` reached, how many zones lie within `d`.
fn nearest_first_order(row: &[u32]) -> (Vec<ZoneIdx>, Vec<u32>) {
    let farthest = row.iter().copied().filter(|&distance| distance != UNREACHABLE).max().unwrap_or(0) as usize;
    // One bucket per distance, and a last one for the zones nothing walks to.
    let bucket = |distance: u32| if distance == UNREACHABLE { farthest + 1 } else { distance as usize };
    let mut starts = vec![0u32; farthest + 3];
    for &distance in row {
        starts[bucket(distance) + 1] += 1;
    }
    for at in 1..starts.len() {
        starts[at] += starts[at - 1];
    }
    let at_most: Vec<u32> = starts[1..=farthest + 1].to_vec();
    let mut order = vec![0 as ZoneIdx; row.len()];
    for (zone, &distance) in row.iter().enumerate() {
        let slot = &mut starts[bucket(distance)];
        order[*slot as usize] = zone as ZoneIdx;
        *slot += 1;
    }
    (order, at_most)
}

/// One zone's occupants, in the order they entered. Up to two are kept in the list itself (in
/// the room a `Vec` takes): a grid square holds one unit, and a search over the squares around a
/// unit then reads one table, not a separate allocation per square.
type Occupants = smallvec::SmallVec<[Entity; 2]>;

/// Who stands in which zone, kept up to date as units move, fall and arrive, so that
/// threat, capacity and targeting never scan all pairs of units.
#[derive(Resource, Debug)]
pub struct ZoneIndex {
    occupants: Vec<Occupants>,
    longest_reach: u32,
    /// Changes made so far, all zones together: the clock of `changed_at`.
    changes: u64,
    /// By zone: the value of `changes` when its occupants last changed.
    changed_at: Vec<u64>,
    /// The zones the last [`RECENT_CHANGES`] changes touched: the change that set the clock to
    /// `c` touched `recent[c % RECENT_CHANGES]`.
    recent: Vec<ZoneIdx>,
    /// Which index this is: each new, reset or cloned index gets its own, so a reader that kept
    /// what it saw of one never takes another's changes for its own.
    id: u64,
}

/// How many of the last changes a [`ZoneIndex`] remembers the zones of: more than a turn makes.
const RECENT_CHANGES: usize = 256;

/// The next [`ZoneIndex::id`] (0 is never given: an index with it is never trusted).
static NEXT_INDEX_ID: AtomicU64 = AtomicU64::new(1);

impl Default for ZoneIndex {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Clone for ZoneIndex {
    /// A copy of the occupants, as another index: the two change apart from here on.
    fn clone(&self) -> Self {
        Self {
            occupants: self.occupants.clone(),
            longest_reach: self.longest_reach,
            changes: self.changes,
            changed_at: self.changed_at.clone(),
            recent: self.recent.clone(),
            id: NEXT_INDEX_ID.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl ZoneIndex {
    /// An empty index for `zones` zones.
    pub fn new(zones: usize) -> Self {
        Self {
            occupants: vec![Occupants::new(); zones],
            longest_reach: 0,
            changes: 0,
            changed_at: vec![0; zones],
            recent: vec![0; RECENT_CHANGES],
            id: NEXT_INDEX_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Which index this is and its clock (the changes made so far): with
    /// [`Self::touched_since`], what a reader kept of the index can be brought up to date.
    pub fn version(&self) -> (u64, u64) {
        (self.id, self.changes)
    }

    /// The zones whose occupants changed since the clock read `since` (with repeats), if the
    /// index still remembers every one of those changes.
    pub fn touched_since(&self, since: u64) -> Option<impl Iterator<Item = ZoneIdx> + '_> {
        let count = self.changes.checked_sub(since)?;
        (count <= RECENT_CHANGES as u64)
            .then(|| (since + 1..=self.changes).map(|change| self.recent[(change % RECENT_CHANGES as u64) as usize]))
    }

    /// When `zone`'s occupants last changed, on a clock that only runs forward: a list made
    /// from them stays right while this stays the same.
    pub fn changed_at(&self, zone: ZoneIdx) -> u64 {
        self.changed_at.get(zone as usize).copied().unwrap_or(u64::MAX)
    }

    /// Notes that `zone`'s occupants change now.
    fn touch(&mut self, zone: ZoneIdx) {
        self.changes += 1;
        if let Some(at) = self.changed_at.get_mut(zone as usize) {
            *at = self.changes;
        }
        if let Some(recent) = self.recent.get_mut((self.changes % RECENT_CHANGES as u64) as usize) {
            *recent = zone;
        }
    }

    /// The longest melee reach of any unit in the battle, in zones: how far to look for threats.
    pub fn longest_reach(&self) -> u32 {
        self.longest_reach
    }

    /// Records a unit's melee reach.
    pub fn note_reach(&mut self, reach: u32) {
        self.longest_reach = self.longest_reach.max(reach);
    }

    /// Clears every zone, keeping the allocations.
    pub fn reset(&mut self, zones: usize) {
        self.occupants.resize_with(zones, Occupants::new);
        self.occupants.truncate(zones);
        for list in &mut self.occupants {
            list.clear();
        }
        self.changes += 1;
        self.changed_at.clear();
        self.changed_at.resize(zones, self.changes);
        // Every zone changed at once: readers start afresh.
        self.id = NEXT_INDEX_ID.fetch_add(1, Ordering::Relaxed);
    }

    /// Units in `zone`, in the order they entered.
    pub fn occupants(&self, zone: ZoneIdx) -> &[Entity] {
        self.occupants.get(zone as usize).map_or(&[], |list| list.as_slice())
    }

    /// How many units stand in `zone`.
    pub fn count(&self, zone: ZoneIdx) -> usize {
        self.occupants(zone).len()
    }

    /// Puts `unit` in `zone`.
    pub fn insert(&mut self, unit: Entity, zone: ZoneIdx) {
        if let Some(list) = self.occupants.get_mut(zone as usize) {
            list.push(unit);
        }
        self.touch(zone);
    }

    /// Takes `unit` out of `zone`.
    pub fn remove(&mut self, unit: Entity, zone: ZoneIdx) {
        if let Some(list) = self.occupants.get_mut(zone as usize)
            && let Some(at) = list.iter().position(|&other| other == unit)
        {
            list.remove(at);
        }
        self.touch(zone);
    }

    /// Moves `unit` between zones.
    pub fn relocate(&mut self, unit: Entity, from: ZoneIdx, to: ZoneIdx) {
        self.remove(unit, from);
        self.insert(unit, to);
    }
}

/// Registers the battlefield resources.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Battlefield>().init_resource::<ZoneIndex>();
}

impl Battlefield {
    /// Where a shove from `from` pushes a unit at `at` (`S-MAN-1`, `Z-STUNT-1`) when the
    /// aggressor does not choose: the first of [`Self::push_destinations`]; `None` when there
    /// is no room (it falls instead).
    pub fn push_destination(&self, index: &ZoneIndex, from: ZoneIdx, at: ZoneIdx) -> Option<ZoneIdx> {
        self.push_destinations(index, from, at).next()
    }

    /// Every zone a shove from `from` may push a unit at `at` into, in level order: the free
    /// step straight away on a grid (only that one), or each free neighbouring zone farther
    /// from the shover (`Z-STUNT-1`, the aggressor's pick).
    pub fn push_destinations<'a>(
        &'a self,
        index: &'a ZoneIndex,
        from: ZoneIdx,
        at: ZoneIdx,
    ) -> impl Iterator<Item = ZoneIdx> + 'a {
        let free = move |zone: ZoneIdx| self.has_room(index, zone);
        let (grid_step, neighbours): (Option<ZoneIdx>, &[ZoneIdx]) = match (self.square(from), self.square(at)) {
            (Some(a), Some(b)) => {
                let away = Square { x: b.x + (b.x - a.x).signum(), y: b.y + (b.y - a.y).signum() };
                (self.zone_at(away).filter(|&zone| self.distance(at, zone) == 1), &[])
            }
            _ => (None, self.neighbours(at)),
        };
        let mut farther: Vec<ZoneIdx> =
            neighbours.iter().copied().filter(|&zone| self.distance(from, zone) > self.distance(from, at)).collect();
        farther.sort_unstable();
        grid_step.into_iter().chain(farther).filter(move |&zone| free(zone))
    }

    /// Every place a grappler at `grappler` may drag the foe it holds at `victim` to, within
    /// `steps` (`S-MAN-1`), nearest first: pairs of the grappler's destination and the victim's.
    /// On a grid the victim moves as the grappler does, so it stays where it was beside it; on
    /// zones both go into the grappler's destination. Each must be walkable within `steps` and
    /// have room for the one arriving (the square the other leaves counts as free).
    pub fn drag_destinations(
        &self,
        index: &ZoneIndex,
        grappler: ZoneIdx,
        victim: ZoneIdx,
        steps: u32,
    ) -> Vec<(ZoneIdx, ZoneIdx)> {
        let room = |zone: ZoneIdx, arriving: u32, leaving: u32| {
            self.zone(zone)
                .capacity
                .is_none_or(|capacity| (index.count(zone) as u32).saturating_sub(leaving) + arriving <= capacity)
        };
        let from = (self.zone(grappler).square, self.zone(victim).square);
        self.within(grappler, steps)
            .filter(|&to| to != grappler)
            .filter_map(|to| {
                let along = match (from, self.zone(to).square) {
                    ((Some(a), Some(v)), Some(d)) => self.zone_at(Square { x: v.x + d.x - a.x, y: v.y + d.y - a.y })?,
                    _ => to,
                };
                if self.distance(victim, along) > steps {
                    return None;
                }
                if along == to {
                    // Both into one zone: room for whichever of the two is not there already.
                    let arriving = 1 + u32::from(victim != to);
                    return room(to, arriving, 0).then_some((to, along));
                }
                let fits = room(to, 1, u32::from(to == victim)) && room(along, 1, u32::from(along == grappler));
                fits.then_some((to, along))
            })
            .collect()
    }

    /// Every place a grappler at `grappler` may hurl the foe it holds at `victim` into, within
    /// `steps` of the victim and farther from the grappler (`S-MAN-1`), with room, nearest
    /// first and then in level order.
    pub fn throw_destinations(
        &self,
        index: &ZoneIndex,
        grappler: ZoneIdx,
        victim: ZoneIdx,
        steps: u32,
    ) -> Vec<ZoneIdx> {
        let free = |zone: ZoneIdx| self.has_room(index, zone);
        let near = self.distance(grappler, victim);
        self.within(victim, steps)
            .filter(|&zone| zone != victim && self.distance(grappler, zone) > near && free(zone))
            .collect()
    }
}

#[cfg(test)]
mod grid_tests {
    use super::*;

    #[test]
    fn s_grid_1_squares_are_zones_of_one_and_walls_are_not() {
        let grid = GridMap::parse(&["...", ".#.", "..."]).unwrap();
        let field = Battlefield::from_grid(grid);
        assert_eq!(field.len(), 8);
        let corner = field.zone_at(Square { x: 0, y: 0 }).unwrap();
        let opposite = field.zone_at(Square { x: 2, y: 2 }).unwrap();
        // Around the pillar: no corner cutting past it, so four steps.
        assert_eq!(field.distance(corner, opposite), 4);
        assert_eq!(field.line_distance(corner, opposite), 2);
        assert_eq!(field.zone(corner).capacity, Some(1));
        assert_eq!(field.place(corner), Place::Square([0, 0]));
        assert_eq!(field.melee_reach(0), 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sight table answers as `GridMap::cover` does, both ways round, whichever way a pair is
    /// asked first: what it files for the way back (hidden both ways, or seen) must not change
    /// an answer.
    #[test]
    fn s_cover_1_filed_sight_agrees_with_cover_both_ways() {
        let rows = ["#..|.", ".#.#.", "..=..", "#...#"];
        let grid = GridMap::parse(&rows).unwrap();
        // A zone per open square, in the field's own order.
        let squares: Vec<Square> =
            Battlefield::from_grid(grid.clone()).0.zones.iter().filter_map(|zone| zone.square).collect();
        let expected = |a: usize, b: usize| grid.cover(squares[a], squares[b]);
        let mut hidden = 0;
        for backwards_first in [false, true] {
            let field = Battlefield::from_grid(grid.clone());
            for a in 0..squares.len() {
                for b in 0..squares.len() {
                    let (first, second) = if backwards_first { (b, a) } else { (a, b) };
                    assert_eq!(field.sight(first as ZoneIdx, second as ZoneIdx), expected(first, second));
                    assert_eq!(field.sight(second as ZoneIdx, first as ZoneIdx), expected(second, first));
                    hidden += usize::from(expected(a, b).is_none());
                }
            }
        }
        assert!(hidden > 0, "the map hides some squares from others");
    }

    #[test]
    fn nearest_first_by_counting_is_the_order_sorting_gives() {
        let row: Vec<u32> =
            (0..200u32).map(|zone| if zone % 17 == 5 { UNREACHABLE } else { (zone * 7919) % 13 }).collect();
        let mut sorted: Vec<ZoneIdx> = (0..row.len() as ZoneIdx).collect();
        sorted.sort_by_key(|&zone| (row[zone as usize], zone));
        let (order, at_most) = nearest_first_order(&row);
        assert_eq!(order, sorted);
        for (distance, &within) in at_most.iter().enumerate() {
            assert_eq!(within as usize, row.iter().filter(|&&other| other <= distance as u32).count());
        }
    }

    /// `count` open zones with no capacity limit, named by their index, joined to nothing yet.
    fn plain_zones(count: usize) -> Vec<ZoneDef> {
        (0..count)
            .map(|at| ZoneDef {
                id: format!("z{at}").into(),
                name: format!("Zone {at}"),
                capacity: None,
                hazard: None,
                position: None,
                square: None,
                enter_cost: 1,
            })
            .collect()
    }

    fn line(count: usize) -> Battlefield {
        let edges: Vec<_> = (1..count).map(|at| ((at - 1) as ZoneIdx, at as ZoneIdx)).collect();
        Battlefield::new(plain_zones(count), &edges)
    }

    #[test]
    fn z_zone_2_distance_bands_follow_the_graph() {
        let field = line(5);
        assert_eq!(field.band(0, 0), DistanceBand::Close);
        assert_eq!(field.band(0, 1), DistanceBand::Nearby);
        assert_eq!(field.band(0, 2), DistanceBand::FarAway);
        assert_eq!(field.band(0, 3), DistanceBand::Distant);
        assert_eq!(field.band(0, 4), DistanceBand::Distant);
    }

    #[test]
    fn z_zone_1_paths_step_through_adjacent_zones() {
        let field = line(4);
        assert_eq!(field.path(0, 3), vec![1, 2, 3]);
        assert_eq!(field.path(3, 1), vec![2, 1]);
        assert!(field.path(2, 2).is_empty());
    }

    #[test]
    fn unconnected_zones_are_unreachable() {
        let field = Battlefield::new(plain_zones(2), &[]);
        assert_eq!(field.distance(0, 1), UNREACHABLE);
        assert!(field.path(0, 1).is_empty());
    }

    /// The table widens as rows too long for its cells come, and keeps every distance exact.
    #[test]
    fn distance_table_widens_to_the_longest_walk() {
        let rows: [(Vec<u32>, u32); 3] =
            [(vec![0, 3, UNREACHABLE], 3), (vec![254, 0, 300], 300), (vec![70_000, UNREACHABLE, 0], 70_000)];
        let mut table = DistanceTable::default();
        for (at, (row, farthest)) in rows.iter().enumerate() {
            table.push_row(row, *farthest, 9);
            let kind = match table {
                DistanceTable::Bytes(_) => 0,
                DistanceTable::Halves(_) => 1,
                DistanceTable::Words(_) => 2,
            };
            assert_eq!(kind, at, "row {at} needs the next width");
            for (cell, &distance) in rows[..=at].iter().flat_map(|(row, _)| row).enumerate() {
                assert_eq!(table.get(cell), distance);
            }
        }
    }

    /// A field with walks longer than a byte holds (a line of 300 zones, and one cut off):
    /// distances, and the zones within any range, past the bands kept as counts too.
    #[test]
    fn long_walks_keep_exact_distances_and_ranges() {
        let count = 301;
        let zones = plain_zones(count);
        let edges: Vec<_> = (1..count - 1).map(|at| ((at - 1) as ZoneIdx, at as ZoneIdx)).collect();
        let field = Battlefield::new(zones, &edges);
        let lone = (count - 1) as ZoneIdx;
        for (a, b) in [(0, 299), (299, 0), (10, 280), (5, 5), (0, 254), (0, 255)] {
            assert_eq!(field.distance(a, b), u32::from(a.abs_diff(b)));
        }
        assert_eq!(field.distance(0, lone), UNREACHABLE);
        assert_eq!(field.distance(lone, 0), UNREACHABLE);
        for range in [0, 1, 63, 64, 65, 100, 250, 298, 299, 300, 1000, UNREACHABLE - 1] {
            let within: Vec<ZoneIdx> = field.within(0, range).collect();
            let expected: Vec<ZoneIdx> = (0..=range.min(299) as ZoneIdx).collect();
            assert_eq!(within, expected, "within {range}");
            // 150 zones on one side of zone 150, 149 on the other.
            let around = 1 + range.min(150) + range.min(149);
            assert_eq!(field.within(150, range).count(), around as usize, "around 150, {range}");
        }
        assert_eq!(field.within(0, UNREACHABLE).count(), count);
        assert_eq!(field.within(lone, 500).collect::<Vec<_>>(), vec![lone]);
        assert_eq!(field.within_from(0, 100, 120).collect::<Vec<_>>(), (100..=120).collect::<Vec<ZoneIdx>>());
    }

    #[test]
    fn within_lists_nearest_first() {
        let field = line(4);
        assert_eq!(field.within(1, 1).collect::<Vec<_>>(), vec![1, 0, 2]);
    }

    #[test]
    fn the_index_follows_moves() {
        let mut index = ZoneIndex::new(3);
        let unit = Entity::from_raw_u32(7).unwrap();
        index.insert(unit, 0);
        index.relocate(unit, 0, 2);
        assert_eq!(index.count(0), 0);
        assert_eq!(index.occupants(2), &[unit]);
    }
}
