//! Sight on a grid: clear segments, line of sight and cover, with walls, slits and diagonal cracks.

use super::*;

impl GridMap {
    /// Whether a segment between two points is clear of walls and slits. Points are in units where one square is
    /// [`SCALE`]: the corners of square (x, y) are at (x·SCALE, y·SCALE) … ((x+1)·SCALE, (y+1)·SCALE).
    ///
    /// The segment is blocked if
    /// - it passes through the open interior of a wall square (squares outside the map are walls);
    /// - it passes through the open interior of a slit square and its closest approach to the slit's centre is
    ///   more than [`SLIT_HALF_WIDTH`];
    /// - it runs along a grid line between two solid (wall or slit) squares: that is inside a solid mass, not
    ///   grazing its face;
    /// - it passes through (not merely ends at) a grid point where two diagonally opposite squares are both solid:
    ///   no seeing through the crack between two diagonal walls;
    /// - one of its ends lies outside the map (it then runs through outside squares, which are walls).
    ///
    /// Touching only a wall's face or corner does not block. A zero-length segment is blocked only where the point
    /// is inside solid matter. The answer does not depend on the order of the two ends.
    pub fn segment_clear(&self, from: (i64, i64), to: (i64, i64)) -> bool {
        if !self.on_map(from) || !self.on_map(to) {
            return false;
        }
        // Walking from the lexicographically smaller end makes the result symmetric by construction and leaves the
        // walk only three directions to handle (dx >= 0).
        let (start, end) = if from <= to { (from, to) } else { (to, from) };
        let (dx, dy) = (end.0 - start.0, end.1 - start.1);
        if dx == 0 && dy == 0 {
            self.point_clear(start)
        } else if dx == 0 && on_grid_line(start.0) {
            self.grid_line_clear(start.0.div_euclid(SCALE), start.1, end.1, true)
        } else if dy == 0 && on_grid_line(start.1) {
            self.grid_line_clear(start.1.div_euclid(SCALE), start.0, end.0, false)
        } else {
            self.crossing_clear(start, end)
        }
    }

    /// S-LOS-1: some point of `a`'s square sees some point of `b`'s square, over a [`SAMPLES_PER_SIDE`]²
    /// lattice of points on each closed square. Symmetric; a square always sees itself.
    ///
    /// Beyond [`Self::segment_clear`], a sample point sitting in the crack between two diagonal walls belongs to its
    /// own square's side of the crack: it cannot look through to the other side.
    pub fn line_of_sight(&self, a: Square, b: Square) -> bool {
        if a == b {
            return true;
        }
        let (origin_a, origin_b) = (a.origin(), b.origin());
        SAMPLE_OFFSETS.iter().any(|&(ax, ay)| {
            let from = (origin_a.0 + ax, origin_a.1 + ay);
            SAMPLE_OFFSETS.iter().any(|&(bx, by)| self.sight_clear(from, a, (origin_b.0 + bx, origin_b.1 + by), b))
        })
    }

    /// S-COVER-1: `None` if the attacker cannot see the target at all, else its cover: [`Cover::None`] if some point
    /// of the attacker's square sees each of the target's 4 corners, [`Cover::Full`] if none of them, else
    /// [`Cover::Half`]. Not symmetric.
    pub fn cover(&self, attacker: Square, target: Square) -> Option<Cover> {
        let seen = target.corners().into_iter().filter(|&corner| self.sees_point(attacker, corner, target)).count();
        // A visible corner is itself a sample point of the target, so only a wholly hidden corner set needs the
        // full sight check.
        if seen == 0 && !self.line_of_sight(attacker, target) {
            return None;
        }
        Some(match seen {
            CORNERS => Cover::None,
            0 => Cover::Full,
            _ => Cover::Half,
        })
    }

    /// [`Self::cover`] of two squares already known to see each other (sight is symmetric, so
    /// `target` seeing `attacker` is enough): the cover alone, without the full sight check.
    pub fn cover_in_sight(&self, attacker: Square, target: Square) -> Option<Cover> {
        let seen = target.corners().into_iter().filter(|&corner| self.sees_point(attacker, corner, target)).count();
        Some(match seen {
            CORNERS => Cover::None,
            0 => Cover::Full,
            _ => Cover::Half,
        })
    }

    /// Whether some sample point of `viewer`'s square sees `point`, which lies on `point_square`.
    fn sees_point(&self, viewer: Square, point: (i64, i64), point_square: Square) -> bool {
        let origin = viewer.origin();
        SAMPLE_OFFSETS
            .iter()
            .any(|&(ox, oy)| self.sight_clear((origin.0 + ox, origin.1 + oy), viewer, point, point_square))
    }

    /// A sight line between a point of square `a` and a point of square `b`: [`Self::segment_clear`], plus the rule
    /// that an end sitting at a diagonal-wall crack must look into its own square's side. Symmetric.
    fn sight_clear(&self, from: (i64, i64), a: Square, to: (i64, i64), b: Square) -> bool {
        let mut direction = (to.0 - from.0, to.1 - from.1);
        if direction == (0, 0) {
            // Two squares meeting at one point: which side of a crack each is on is what matters.
            let (centre_a, centre_b) = (a.centre(), b.centre());
            direction = (centre_b.0 - centre_a.0, centre_b.1 - centre_a.1);
        }
        self.end_faces_own_side(from, a, direction)
            && self.end_faces_own_side(to, b, (-direction.0, -direction.1))
            && self.segment_clear(from, to)
    }

    /// False if `point` is a grid point where two diagonal solid squares pinch together and `direction` leaves it
    /// away from `square`'s quadrant: the line would squeeze through the crack to the far side.
    fn end_faces_own_side(&self, point: (i64, i64), square: Square, direction: (i64, i64)) -> bool {
        if !on_grid_line(point.0) || !on_grid_line(point.1) {
            return true;
        }
        let (gx, gy) = (point.0.div_euclid(SCALE), point.1.div_euclid(SCALE));
        if !self.pinched(gx, gy) {
            return true;
        }
        let side_x = if i64::from(square.x) >= gx { 1 } else { -1 };
        let side_y = if i64::from(square.y) >= gy { 1 } else { -1 };
        direction.0 * side_x >= 0 && direction.1 * side_y >= 0
    }

    /// Whether a point lies in the closed rectangle of the map.
    fn on_map(&self, (x, y): (i64, i64)) -> bool {
        (0..=i64::from(self.width) * SCALE).contains(&x) && (0..=i64::from(self.height) * SCALE).contains(&y)
    }

    /// Terrain at square coordinates given as i64; anything off the map is wall.
    fn terrain_at(&self, x: i64, y: i64) -> Terrain {
        match (i32::try_from(x), i32::try_from(y)) {
            (Ok(x), Ok(y)) => self.terrain(Square { x, y }),
            _ => Terrain::Wall,
        }
    }

    /// Whether the square at i64 coordinates is a wall or slit (off the map counts).
    fn solid_at(&self, x: i64, y: i64) -> bool {
        self.terrain_at(x, y).solid()
    }

    /// Whether grid point (gx, gy), in square units, has solid squares on both ends of one of its diagonals.
    fn pinched(&self, gx: i64, gy: i64) -> bool {
        (self.solid_at(gx - 1, gy - 1) && self.solid_at(gx, gy))
            || (self.solid_at(gx, gy - 1) && self.solid_at(gx - 1, gy))
    }

    /// Whether the segment `start`–`end` may pass through the interior of square (x, y).
    fn interior_admits(&self, x: i64, y: i64, start: (i64, i64), end: (i64, i64)) -> bool {
        match self.terrain_at(x, y) {
            Terrain::Open | Terrain::Difficult => true,
            Terrain::Wall => false,
            Terrain::Slit => {
                let centre = (x * SCALE + HALF_SQUARE, y * SCALE + HALF_SQUARE);
                within_slit_opening(centre, start, end)
            }
        }
    }

    /// A zero-length segment: blocked only inside solid matter.
    fn point_clear(&self, (x, y): (i64, i64)) -> bool {
        let (cx, cy) = (x.div_euclid(SCALE), y.div_euclid(SCALE));
        match (on_grid_line(x), on_grid_line(y)) {
            (false, false) => self.interior_admits(cx, cy, (x, y), (x, y)),
            (true, false) => !(self.solid_at(cx - 1, cy) && self.solid_at(cx, cy)),
            (false, true) => !(self.solid_at(cx, cy - 1) && self.solid_at(cx, cy)),
            (true, true) => {
                !(self.solid_at(cx - 1, cy - 1)
                    && self.solid_at(cx, cy - 1)
                    && self.solid_at(cx - 1, cy)
                    && self.solid_at(cx, cy))
            }
        }
    }

    /// A segment lying on grid line number `line` (a column boundary if `vertical`, else a row boundary), from
    /// coordinate `start` to `end > start` along it.
    fn grid_line_clear(&self, line: i64, start: i64, end: i64, vertical: bool) -> bool {
        // (x, y) in square units of a square beside the line, or of a grid point on it.
        let at = |across: i64, along: i64| if vertical { (across, along) } else { (along, across) };
        let first = start.div_euclid(SCALE);
        let last = (end - 1).div_euclid(SCALE);
        let inside_mass = (first..=last).any(|along| {
            let (before, after) = (at(line - 1, along), at(line, along));
            self.solid_at(before.0, before.1) && self.solid_at(after.0, after.1)
        });
        // Grid points strictly between the ends are first+1..=last.
        let through_crack = (first + 1..=last).any(|along| {
            let (gx, gy) = at(line, along);
            self.pinched(gx, gy)
        });
        !inside_mass && !through_crack
    }

    /// A segment not lying on a grid line, with `end.0 >= start.0`: walks the squares whose interiors it crosses,
    /// in order, with exact integer comparisons of where it meets the next column and row boundaries.
    fn crossing_clear(&self, start: (i64, i64), end: (i64, i64)) -> bool {
        let (dx, dy) = (end.0 - start.0, end.1 - start.1);
        let (abs_dy, step_y) = (dy.abs(), dy.signum());
        // The square the segment enters on leaving `start`, which may lie on a boundary.
        let mut cx = start.0.div_euclid(SCALE);
        let mut cy = if dy < 0 { (start.1 - 1).div_euclid(SCALE) } else { start.1.div_euclid(SCALE) };
        // Distances from `start` along each axis to the next boundary crossed; the crossing parameters are
        // to_column / dx and to_row / |dy|, compared by cross-multiplying.
        let mut to_column = (cx + 1) * SCALE - start.0;
        let mut to_row = if dy < 0 { start.1 - cy * SCALE } else { (cy + 1) * SCALE - start.1 };
        loop {
            if !self.interior_admits(cx, cy, start, end) {
                return false;
            }
            let crosses_column = to_column < dx;
            let crosses_row = to_row < abs_dy;
            let next = match (crosses_column, crosses_row) {
                (false, false) => return true,
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                (true, true) => (to_column * abs_dy).cmp(&(to_row * dx)),
            };
            if next == Ordering::Equal {
                let corner_y = if step_y > 0 { cy + 1 } else { cy };
                if self.pinched(cx + 1, corner_y) {
                    return false;
                }
            }
            if next != Ordering::Greater {
                cx += 1;
                to_column += SCALE;
            }
            if next != Ordering::Less {
                cy += step_y;
                to_row += SCALE;
            }
        }
    }
}

/// Whether a point is on a grid line along one axis.
const fn on_grid_line(coordinate: i64) -> bool {
    coordinate.rem_euclid(SCALE) == 0
}

/// Whether the segment `start`–`end` comes within [`SLIT_HALF_WIDTH`] of `centre`, exactly.
fn within_slit_opening(centre: (i64, i64), start: (i64, i64), end: (i64, i64)) -> bool {
    let reach_squared = SLIT_HALF_WIDTH * SLIT_HALF_WIDTH;
    let (dx, dy) = (end.0 - start.0, end.1 - start.1);
    let (vx, vy) = (centre.0 - start.0, centre.1 - start.1);
    let length_squared = dx * dx + dy * dy;
    let along = vx * dx + vy * dy;
    if length_squared == 0 || along <= 0 {
        vx * vx + vy * vy <= reach_squared
    } else if along >= length_squared {
        let (ux, uy) = (centre.0 - end.0, centre.1 - end.1);
        ux * ux + uy * uy <= reach_squared
    } else {
        // Distance to the line is |cross| / length; squaring keeps it in integers.
        let cross = vx * dy - vy * dx;
        cross * cross <= reach_squared * length_squared
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// A test map in which capital letters mark units standing on open ground; returns the map and where each
    /// letter stands.
    fn battle(rows: &[&str]) -> (GridMap, BTreeMap<char, Square>) {
        let mut units = BTreeMap::new();
        let mut plain = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let mut text = String::new();
            for (x, symbol) in row.chars().enumerate() {
                if symbol.is_ascii_uppercase() {
                    let square = Square::new(i32::try_from(x).unwrap(), i32::try_from(y).unwrap());
                    assert!(units.insert(symbol, square).is_none(), "unit {symbol} drawn twice");
                    text.push(Terrain::Open.symbol());
                } else {
                    text.push(symbol);
                }
            }
            plain.push(text);
        }
        let plain: Vec<&str> = plain.iter().map(String::as_str).collect();
        (GridMap::parse(&plain).unwrap(), units)
    }

    /// The drawing turned 90° clockwise.
    fn rotate_clockwise(rows: &[&str]) -> Vec<String> {
        let grid: Vec<Vec<char>> = rows.iter().map(|row| row.chars().collect()).collect();
        let width = grid[0].len();
        (0..width).map(|x| grid.iter().rev().map(|row| row[x]).collect()).collect()
    }

    /// Cover both ways between Alice and Bob: (Alice's cover from Bob, Bob's cover from Alice).
    fn covers(rows: &[&str]) -> (Option<Cover>, Option<Cover>) {
        let (map, units) = battle(rows);
        let (alice, bob) = (units[&'A'], units[&'B']);
        assert_eq!(map.line_of_sight(alice, bob), map.line_of_sight(bob, alice));
        (map.cover(bob, alice), map.cover(alice, bob))
    }

    const OPEN_HORIZONTAL: [&str; 4] = ["..............B.", "................", "A...............", "................"];

    // The wall runs from Alice's corner toward Bob; Alice stands diagonally past its near end.
    const WALL_END_HORIZONTAL: [&str; 4] =
        ["..............B.", ".###............", "A...............", "................"];

    const OPEN_VERTICAL: [&str; 16] = [
        ".A..", "....", "....", "....", "....", "....", "....", "....", "....", "....", "....", "....", "....", "....",
        "...B", "....",
    ];

    const WALL_END_VERTICAL: [&str; 16] = [
        ".A..", "..#.", "..#.", "..#.", "....", "....", "....", "....", "....", "....", "....", "....", "....", "....",
        "...B", "....",
    ];

    #[test]
    fn s_cover_1_open_ground_horizontal_no_cover_either_way() {
        assert_eq!(covers(&OPEN_HORIZONTAL), (Some(Cover::None), Some(Cover::None)));
    }

    #[test]
    fn s_cover_1_past_wall_end_horizontal_half_one_way_none_the_other() {
        // From far off Bob sees Alice's two lower corners under the wall, but her upper two lie behind its end;
        // Alice, from her lower-left corner, sees all of Bob past the same end.
        let (alice_from_bob, bob_from_alice) = covers(&WALL_END_HORIZONTAL);
        assert_eq!(alice_from_bob, Some(Cover::Half), "Alice, just past the wall's end, has half cover");
        assert_eq!(bob_from_alice, Some(Cover::None), "Alice can lean out and see all of Bob");
    }

    #[test]
    fn s_cover_1_vertical_maps_are_the_horizontal_ones_rotated() {
        assert_eq!(rotate_clockwise(&OPEN_HORIZONTAL), OPEN_VERTICAL);
        assert_eq!(rotate_clockwise(&WALL_END_HORIZONTAL), WALL_END_VERTICAL);
    }

    #[test]
    fn s_cover_1_open_ground_vertical_no_cover_either_way() {
        assert_eq!(covers(&OPEN_VERTICAL), (Some(Cover::None), Some(Cover::None)));
    }

    #[test]
    fn s_cover_1_past_wall_end_vertical_half_one_way_none_the_other() {
        assert_eq!(covers(&WALL_END_VERTICAL), (Some(Cover::Half), Some(Cover::None)));
    }

    #[test]
    fn s_cover_1_target_behind_arrow_slit_has_full_cover() {
        let (map, units) = battle(&["..B..", ".....", ".....", ".....", "##|##", "..A.."]);
        let (archer, target) = (units[&'B'], units[&'A']);
        assert!(map.line_of_sight(archer, target), "the slit's opening lets the line through");
        assert_eq!(map.cover(archer, target), Some(Cover::Full));
        let (map, _) = battle(&["..B..", ".....", ".....", ".....", "##=##", "..A.."]);
        assert_eq!(map.cover(archer, target), Some(Cover::Full), "'=' is a slit too");
    }

    #[test]
    fn s_cover_1_target_behind_solid_wall_is_not_visible() {
        let (map, units) = battle(&["..B..", ".....", ".....", ".....", "#####", "..A.."]);
        let (archer, target) = (units[&'B'], units[&'A']);
        assert!(!map.line_of_sight(archer, target));
        assert_eq!(map.cover(archer, target), None);
    }

    #[test]
    fn s_cover_1_penalties() {
        let (half, full) = (-2, -4);
        assert_eq!(Cover::None.to_hit_penalty(half, full), 0);
        assert_eq!(Cover::Half.to_hit_penalty(half, full), half);
        assert_eq!(Cover::Full.to_hit_penalty(half, full), full);
    }

    #[test]
    fn s_cover_1_a_square_has_no_cover_from_itself() {
        let map = GridMap::new(3, 3).unwrap();
        assert_eq!(map.cover(Square::new(1, 1), Square::new(1, 1)), Some(Cover::None));
    }

    #[test]
    fn s_los_1_wall_between_blocks_sight() {
        let (map, units) = battle(&["A#B"]);
        assert!(!map.line_of_sight(units[&'A'], units[&'B']));
        assert!(!map.line_of_sight(units[&'B'], units[&'A']));
    }

    #[test]
    fn s_los_1_grazing_a_wall_face_is_clear() {
        let map = GridMap::parse(&["...", ".#.", "..."]).unwrap();
        // Along the wall's top face, then along its left face.
        assert!(map.segment_clear((0, SCALE), (3 * SCALE, SCALE)));
        assert!(map.segment_clear((SCALE, 0), (SCALE, 3 * SCALE)));
        // Touching only its corner.
        assert!(map.segment_clear((0, 0), (SCALE, SCALE)));
        // Through its interior.
        assert!(!map.segment_clear((0, SCALE + 1), (3 * SCALE, SCALE + 1)));
        assert!(!map.segment_clear((0, 0), (2 * SCALE, 2 * SCALE)));
    }

    #[test]
    fn s_los_1_running_between_two_walls_is_blocked() {
        let map = GridMap::parse(&["...", "##.", "..."]).unwrap();
        // The shared edge of two adjacent walls is inside the mass.
        assert!(!map.segment_clear((SCALE, SCALE), (SCALE, 2 * SCALE)));
        // The map edge beside an outside wall and an open square is a face.
        assert!(map.segment_clear((0, 0), (0, SCALE)));
        assert!(!map.segment_clear((0, SCALE), (0, 2 * SCALE)), "outside wall beside a wall");
    }

    #[test]
    fn s_los_1_no_sight_through_a_diagonal_wall_crack() {
        let map = GridMap::parse(&["#.", ".#"]).unwrap();
        let crack = (SCALE, SCALE);
        // Passing through the crack from one open side to the other.
        assert!(!map.segment_clear((2 * SCALE, 0), (0, 2 * SCALE)));
        assert!(!map.segment_clear((SCALE, 0), (SCALE, 2 * SCALE)));
        // Ending at the crack is only touching.
        assert!(map.segment_clear((2 * SCALE, 0), crack));
        // The two open squares meet only at the crack: they do not see each other.
        assert!(!map.line_of_sight(Square::new(1, 0), Square::new(0, 1)));
        // A single wall corner is no crack.
        let map = GridMap::parse(&["#.", ".."]).unwrap();
        assert!(map.segment_clear((2 * SCALE, 0), (0, 2 * SCALE)));
    }

    #[test]
    fn s_los_1_slit_opening_is_an_eighth_of_a_square() {
        let map = GridMap::parse(&["...", ".|.", "..."]).unwrap();
        let centre_y = SCALE + HALF_SQUARE;
        let across = |offset: i64| map.segment_clear((0, centre_y + offset), (3 * SCALE, centre_y + offset));
        assert!(across(0));
        assert!(across(SLIT_HALF_WIDTH));
        assert!(across(-SLIT_HALF_WIDTH));
        assert!(!across(SLIT_HALF_WIDTH + 1));
        // Slanted along (3, 4): the line through centre + (2w, w) is exactly w from the centre (4·2w − 3·w = 5w),
        // the one through centre + (2w + 1, w) is further.
        let cx = SCALE + HALF_SQUARE;
        let slanted = |(ux, uy): (i64, i64)| {
            let reach = 2;
            let (dx, dy) = (3, 4);
            map.segment_clear(
                (cx + ux - reach * dx, centre_y + uy - reach * dy),
                (cx + ux + reach * dx, centre_y + uy + reach * dy),
            )
        };
        assert!(slanted((2 * SLIT_HALF_WIDTH, SLIT_HALF_WIDTH)));
        assert!(!slanted((2 * SLIT_HALF_WIDTH + 1, SLIT_HALF_WIDTH)));
    }

    #[test]
    fn s_los_1_symmetric_and_reflexive() {
        let (map, _) = battle(&["..#..", ".#...", "...|.", "#...."]);
        for a in 0..20 {
            for b in 0..20 {
                let (a, b) = (map.square(a), map.square(b));
                assert_eq!(map.line_of_sight(a, b), map.line_of_sight(b, a), "{a:?} {b:?}");
            }
            assert!(map.line_of_sight(map.square(a), map.square(a)));
        }
    }

    #[test]
    fn s_los_1_points_off_the_map_are_blocked() {
        let map = GridMap::new(2, 2).unwrap();
        assert!(!map.segment_clear((-1, 0), (SCALE, SCALE)));
        assert!(!map.segment_clear((i64::MIN, i64::MAX), (i64::MAX, i64::MIN)));
        assert!(map.segment_clear((0, 0), (2 * SCALE, 2 * SCALE)));
    }
}
