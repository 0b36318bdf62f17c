//! What a battlefield answers: places, squares, sight, neighbours, distances, paths and the
//! zones within reach.

use super::*;

/// `Graph::sight` entry for a pair not yet worked out.
pub(super) const SIGHT_UNKNOWN: u8 = 0;
/// `Graph::sight` entry for a pair that cannot see each other.
const SIGHT_HIDDEN: u8 = 1;
/// `Graph::sight` entries from here on are this plus the cover.
const SIGHT_COVER_BASE: u8 = 2;

impl Battlefield {
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
    pub(super) fn reached(&self, zone: ZoneIdx, row: &[ZoneIdx], range: u32) -> usize {
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
