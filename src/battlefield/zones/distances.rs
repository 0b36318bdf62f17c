//! Building a battlefield from zones or a grid, and its all-pairs distance table.

use super::*;

/// Distances for which "zones within N" is a table lookup; longer ones use a binary search.
/// On a grid a shooter's reach and a charge's double move often pass 8, and there the binary
/// search reads a dozen far-apart distances of a large table (64 MiB on a 64x64 grid).
/// The counts cost 256 bytes a zone (1 MiB on a 64x64 grid, against its 64 MiB of distances).
pub(super) const BANDS_KEPT: usize = 64;

/// The all-pairs distance table, in the narrowest cells that hold every finite distance of the
/// field, with the cell's largest value standing for [`UNREACHABLE`]: bytes on any field whose
/// walks are shorter than 255 steps. A 64x64 grid's 4,096 x 4,096 pairs are then 16 MiB
/// instead of 64, and the grid searches, which mostly wait on reads of this table, touch a
/// quarter of the cache lines.
#[derive(Clone, Debug)]
pub(super) enum DistanceTable {
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
pub(super) trait DistanceCell: Copy + Eq + Into<u32> + TryFrom<u32> {
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
    pub(super) fn get(&self, at: usize) -> u32 {
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
