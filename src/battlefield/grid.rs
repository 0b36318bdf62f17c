//! Square-grid battlefield geometry: terrain, walking paths, line of sight (`S-LOS-1`) and cover (`S-COVER-1`).
//!
//! All sight geometry is exact: points are integers in units where one square is [`SCALE`] long, and every test
//! is a comparison of integer products, so a line that grazes a wall face or passes a slit's edge is judged the
//! same way on every machine.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Length of one square's side in the integer coordinates of [`GridMap::segment_clear`].
///
/// Eight keeps the slit opening (an eighth of a square) and the sight sample lattice (a quarter) whole numbers.
pub const SCALE: i64 = 8;

/// Half the width of an arrow slit's opening, in [`SCALE`] units: an eighth of a square.
pub const SLIT_HALF_WIDTH: i64 = SCALE / 8;

/// Spacing of the sight sample points across a square, in [`SCALE`] units: a quarter of a square.
pub const SAMPLE_STEP: i64 = SCALE / 4;

/// Sight sample points along each side of a square: corners, edges and interior, 25 per square in all.
pub const SAMPLES_PER_SIDE: usize = (SCALE / SAMPLE_STEP) as usize + 1;

/// Number of corners of a square; a target seen at all of them has no cover (`S-COVER-1`).
pub const CORNERS: usize = 4;

/// Movement cost of entering an ordinary square.
pub const STEP_COST: u32 = 1;

/// Movement cost of entering [`Terrain::Difficult`] ground.
pub const DIFFICULT_STEP_COST: u32 = 2;

// The centre of a square and its sample lattice must land on whole coordinates, the lattice must have a middle
// point (the centre) and the slit opening must be wider than nothing.
const _: () = assert!(SCALE % 2 == 0 && SCALE % SAMPLE_STEP == 0 && SAMPLES_PER_SIDE % 2 == 1 && SLIT_HALF_WIDTH > 0);

/// Half a square, in [`SCALE`] units: the offset from a square's corner to its centre.
const HALF_SQUARE: i64 = SCALE / 2;

/// Number of sight sample points per square.
const SAMPLE_COUNT: usize = SAMPLES_PER_SIDE * SAMPLES_PER_SIDE;

/// Offsets of the sight sample points from a square's top-left corner, centre first and then ring by ring outward:
/// the centre-to-centre line is the likeliest to be clear, and sight checks stop at the first clear line.
const SAMPLE_OFFSETS: [(i64, i64); SAMPLE_COUNT] = sample_offsets();

/// The eight neighbour offsets, orthogonal first, in the fixed order that makes paths deterministic.
const NEIGHBOUR_OFFSETS: [(i32, i32); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// Builds [`SAMPLE_OFFSETS`].
const fn sample_offsets() -> [(i64, i64); SAMPLE_COUNT] {
    let mut offsets = [(0, 0); SAMPLE_COUNT];
    let middle = (SAMPLES_PER_SIDE / 2) as i64;
    let mut filled = 0;
    let mut ring = 0;
    while ring <= middle {
        let mut column = 0;
        while column < SAMPLES_PER_SIDE as i64 {
            let mut row = 0;
            while row < SAMPLES_PER_SIDE as i64 {
                let from_middle_x = (column - middle).abs();
                let from_middle_y = (row - middle).abs();
                let ring_of_point = if from_middle_x > from_middle_y { from_middle_x } else { from_middle_y };
                if ring_of_point == ring {
                    offsets[filled] = (column * SAMPLE_STEP, row * SAMPLE_STEP);
                    filled += 1;
                }
                row += 1;
            }
            column += 1;
        }
        ring += 1;
    }
    offsets
}

/// A square on the grid, column x (0 = left), row y (0 = top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// Column, 0 = left.
    pub x: i32,
    /// Row, 0 = top.
    pub y: i32,
}

impl Square {
    /// The square at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// Its top-left corner in [`SCALE`] units.
    const fn origin(self) -> (i64, i64) {
        (self.x as i64 * SCALE, self.y as i64 * SCALE)
    }

    /// Its centre point in [`SCALE`] units.
    const fn centre(self) -> (i64, i64) {
        let (x, y) = self.origin();
        (x + HALF_SQUARE, y + HALF_SQUARE)
    }

    /// Its four corner points in [`SCALE`] units.
    const fn corners(self) -> [(i64, i64); CORNERS] {
        let (x, y) = self.origin();
        [(x, y), (x + SCALE, y), (x, y + SCALE), (x + SCALE, y + SCALE)]
    }
}

/// What fills a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Terrain {
    /// Open ground: passable, does not block sight.
    #[default]
    Open,
    /// Solid: blocks movement and sight entirely.
    Wall,
    /// An arrow slit or window: blocks movement, and blocks sight except through a narrow opening around its
    /// centre (see [`SLIT_HALF_WIDTH`]).
    Slit,
    /// Rubble, mud: passable at [`DIFFICULT_STEP_COST`], does not block sight.
    Difficult,
}

impl Terrain {
    /// Whether units can stand on it and walk through it.
    pub const fn passable(self) -> bool {
        matches!(self, Self::Open | Self::Difficult)
    }

    /// Whether it stops sight, wholly (a wall) or outside its opening (a slit).
    pub const fn solid(self) -> bool {
        matches!(self, Self::Wall | Self::Slit)
    }

    /// The map symbol for it: `.` open, `#` wall, `|` slit, `~` difficult.
    pub const fn symbol(self) -> char {
        match self {
            Self::Open => '.',
            Self::Wall => '#',
            Self::Slit => '|',
            Self::Difficult => '~',
        }
    }

    /// The terrain a map symbol stands for; `=` is a slit too (a horizontal one, to the eye), anything unknown is
    /// `None`.
    pub const fn from_symbol(symbol: char) -> Option<Self> {
        match symbol {
            '.' => Some(Self::Open),
            '#' => Some(Self::Wall),
            '|' | '=' => Some(Self::Slit),
            '~' => Some(Self::Difficult),
            _ => None,
        }
    }
}

/// How well a target is protected from one attacker (`S-COVER-1`); ordered from none to full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// The attacker sees all four corners of the target's square.
    None,
    /// The attacker sees the target but not all of its corners (−2 to hit in the seed rules).
    Half,
    /// The attacker sees the target but none of its corners, as through an arrow slit (−4 to hit in the seed rules).
    Full,
}

impl Cover {
    /// The snake_case name the log writes (`cover` of an `attack` line).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Half => "half",
            Self::Full => "full",
        }
    }

    /// The to-hit modifier for this cover, given the rules' modifiers for half and full cover: 0, `half` or `full`.
    pub const fn to_hit_penalty(self, half: i32, full: i32) -> i32 {
        match self {
            Self::None => 0,
            Self::Half => half,
            Self::Full => full,
        }
    }
}

/// Why a grid could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// No rows, or rows with no squares, or a zero width or height.
    Empty,
    /// More than [`GridMap::MAX_SQUARES`] squares.
    TooLarge {
        /// Requested width in squares.
        width: usize,
        /// Requested height in squares.
        height: usize,
    },
    /// A row whose length differs from the first row's.
    RaggedRow {
        /// The row, counting from 0 (its squares' `y`).
        row: usize,
        /// The first row's length.
        expected: usize,
        /// This row's length.
        found: usize,
    },
    /// A character that is not a map symbol.
    UnknownSymbol {
        /// The row, counting from 0 (the square's `y`).
        row: usize,
        /// The column in characters, counting from 0 (the square's `x`).
        column: usize,
        /// The character.
        symbol: char,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the map has no squares"),
            Self::TooLarge { width, height } => {
                write!(f, "a {width}×{height} map is larger than {} squares", GridMap::MAX_SQUARES)
            }
            Self::RaggedRow { row, expected, found } => {
                write!(f, "map row {row} (counting from 0) is {found} squares wide, expected {expected}")
            }
            Self::UnknownSymbol { row, column, symbol } => write!(
                f,
                "unknown map symbol {symbol:?} at row {row}, column {column} (counting from 0); \
                 use '.' open, '#' wall, '|' or '=' slit, '~' difficult"
            ),
        }
    }
}

impl std::error::Error for GridError {}

/// A rectangular battlefield of squares; everything outside it counts as wall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMap {
    width: u16,
    height: u16,
    cells: Vec<Terrain>,
}

impl GridMap {
    /// Most squares a map may have (64×64, room for a 2,048-unit battle); keeps every sight and
    /// path computation small, its arithmetic far from overflow, and the all-pairs tables of a
    /// field (distances, nearest-first orders, sight) within about 150 MB.
    pub const MAX_SQUARES: usize = 4096;

    /// An all-open map, or an error if a side is zero or it would exceed [`Self::MAX_SQUARES`].
    pub fn new(width: u16, height: u16) -> Result<Self, GridError> {
        let (width_usize, height_usize) = (usize::from(width), usize::from(height));
        Self::check_size(width_usize, height_usize)?;
        Ok(Self { width, height, cells: vec![Terrain::Open; width_usize * height_usize] })
    }

    /// A map from ASCII rows, top row first: `.` open, `#` wall, `|` or `=` slit, `~` difficult.
    ///
    /// Rows must be equally long; an unknown character is reported with its row and column (both from 0).
    pub fn parse(rows: &[&str]) -> Result<Self, GridError> {
        let width = rows.first().map_or(0, |row| row.chars().count());
        let height = rows.len();
        Self::check_size(width, height)?;
        let mut cells = Vec::with_capacity(width * height);
        for (row, text) in rows.iter().enumerate() {
            let found = text.chars().count();
            if found != width {
                return Err(GridError::RaggedRow { row, expected: width, found });
            }
            for (column, symbol) in text.chars().enumerate() {
                cells.push(Terrain::from_symbol(symbol).ok_or(GridError::UnknownSymbol { row, column, symbol })?);
            }
        }
        // check_size bounded both sides by MAX_SQUARES, which fits u16.
        let to_side = |side: usize| u16::try_from(side).map_err(|_| GridError::TooLarge { width, height });
        Ok(Self { width: to_side(width)?, height: to_side(height)?, cells })
    }

    /// Rejects empty and oversized maps.
    fn check_size(width: usize, height: usize) -> Result<(), GridError> {
        if width == 0 || height == 0 {
            return Err(GridError::Empty);
        }
        match width.checked_mul(height) {
            Some(squares) if squares <= Self::MAX_SQUARES => Ok(()),
            _ => Err(GridError::TooLarge { width, height }),
        }
    }

    /// The map as ASCII rows in the [`Self::parse`] symbols (slits as `|`).
    pub fn to_rows(&self) -> Vec<String> {
        self.cells.chunks(usize::from(self.width)).map(|row| row.iter().map(|t| t.symbol()).collect()).collect()
    }

    /// Width in squares.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height in squares.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Whether the square lies on the map.
    pub fn contains(&self, s: Square) -> bool {
        s.x >= 0 && s.y >= 0 && s.x < i32::from(self.width) && s.y < i32::from(self.height)
    }

    /// What fills the square; outside the map is [`Terrain::Wall`].
    pub fn terrain(&self, s: Square) -> Terrain {
        self.index(s).map_or(Terrain::Wall, |index| self.cells[index])
    }

    /// Changes what fills a square; squares outside the map are left alone (they are always wall).
    pub fn set(&mut self, s: Square, t: Terrain) {
        if let Some(index) = self.index(s) {
            self.cells[index] = t;
        }
    }

    /// Whether the square is on the map and open or difficult ground.
    pub fn passable(&self, s: Square) -> bool {
        self.terrain(s).passable()
    }

    /// The square's position in row-major order, or `None` outside the map.
    pub fn index(&self, s: Square) -> Option<usize> {
        if !self.contains(s) {
            return None;
        }
        // contains() made both coordinates non-negative and smaller than the u16 sides.
        let (x, y) = (usize::try_from(s.x).ok()?, usize::try_from(s.y).ok()?);
        Some(y * usize::from(self.width) + x)
    }

    /// The square at a row-major index; an index past the end gives a square outside the map.
    pub fn square(&self, index: usize) -> Square {
        let width = usize::from(self.width);
        let to_coordinate = |value: usize| i32::try_from(value).unwrap_or(i32::MAX);
        Square { x: to_coordinate(index % width), y: to_coordinate(index / width) }
    }

    /// Squares reachable in one step: the 8 neighbours that are passable; a diagonal step is allowed only if BOTH
    /// orthogonal squares it cuts past are passable (no squeezing past a wall corner).
    ///
    /// Nothing is reachable from a square that is not itself passable, so the walking graph is symmetric.
    pub fn steps(&self, s: Square) -> impl Iterator<Item = Square> + '_ {
        let from_passable = self.passable(s);
        NEIGHBOUR_OFFSETS.iter().filter_map(move |&(dx, dy)| {
            if !from_passable {
                return None;
            }
            let next = Square { x: s.x.checked_add(dx)?, y: s.y.checked_add(dy)? };
            let diagonal = dx != 0 && dy != 0;
            let cuts_corner = diagonal
                && !(self.passable(Square { x: next.x, y: s.y }) && self.passable(Square { x: s.x, y: next.y }));
            (self.passable(next) && !cuts_corner).then_some(next)
        })
    }

    /// Cost to enter `s`: [`STEP_COST`], or [`DIFFICULT_STEP_COST`] for difficult ground. Says nothing about whether
    /// `s` can be entered at all; see [`Self::passable`].
    pub fn step_cost(&self, s: Square) -> u32 {
        match self.terrain(s) {
            Terrain::Difficult => DIFFICULT_STEP_COST,
            Terrain::Open | Terrain::Wall | Terrain::Slit => STEP_COST,
        }
    }

    /// Straight-line distance in squares, diagonal = 1 (Chebyshev), ignoring walls.
    pub fn distance(a: Square, b: Square) -> u32 {
        let dx = (i64::from(a.x) - i64::from(b.x)).unsigned_abs();
        let dy = (i64::from(a.y) - i64::from(b.y)).unsigned_abs();
        // Two i32 differ by at most u32::MAX, so this never saturates.
        u32::try_from(dx.max(dy)).unwrap_or(u32::MAX)
    }

    /// Shortest walking path from `from` to `to`, excluding `from` (empty if they are the same square), or `None` if
    /// either square is impassable or no path joins them.
    ///
    /// A* over [`Self::steps`] with [`Self::step_cost`]; ties are broken by square index and by the fixed neighbour
    /// order, so the same map always gives the same path.
    pub fn path(&self, from: Square, to: Square) -> Option<Vec<Square>> {
        if !self.passable(from) || !self.passable(to) {
            return None;
        }
        let (start, goal) = (self.index(from)?, self.index(to)?);
        if start == goal {
            return Some(Vec::new());
        }
        let mut best = vec![u32::MAX; self.cells.len()];
        let mut came_from: Vec<Option<usize>> = vec![None; self.cells.len()];
        // Chebyshev distance never overestimates: every step moves at most one square and costs at least one.
        let estimate = |s: Square| Self::distance(s, to);
        let mut open = BinaryHeap::new();
        best[start] = 0;
        open.push(Reverse((estimate(from), start)));
        while let Some(Reverse((guess, index))) = open.pop() {
            if index == goal {
                break;
            }
            let here = self.square(index);
            let cost_here = best[index];
            if guess > cost_here.saturating_add(estimate(here)) {
                continue; // a cheaper way here was found after this entry was queued
            }
            for next in self.steps(here) {
                let Some(next_index) = self.index(next) else { continue };
                let cost = cost_here.saturating_add(self.step_cost(next));
                if cost < best[next_index] {
                    best[next_index] = cost;
                    came_from[next_index] = Some(index);
                    open.push(Reverse((cost.saturating_add(estimate(next)), next_index)));
                }
            }
        }
        let mut path = Vec::new();
        let mut at = goal;
        while at != start {
            path.push(self.square(at));
            at = came_from[at]?;
        }
        path.reverse();
        Some(path)
    }

    /// Every edge of the walking graph as (index, index) pairs with a < b, sorted, for building a zone-style graph.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut edges = Vec::new();
        for index in 0..self.cells.len() {
            for next in self.steps(self.square(index)) {
                if let Some(next_index) = self.index(next)
                    && index < next_index
                {
                    edges.push((index, next_index));
                }
            }
        }
        edges.sort_unstable();
        edges
    }

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

    #[test]
    fn s_grid_1_walls_block_movement() {
        let map = GridMap::parse(&["...", "###", "..."]).unwrap();
        assert_eq!(map.steps(Square::new(1, 0)).filter(|s| s.y == 1).count(), 0);
        assert_eq!(map.path(Square::new(0, 0), Square::new(0, 2)), None);
    }

    #[test]
    fn s_grid_1_one_square_gap_lets_units_through() {
        let map = GridMap::parse(&["...", "#.#", "..."]).unwrap();
        let gap = Square::new(1, 1);
        assert_eq!(map.path(Square::new(1, 0), Square::new(1, 2)), Some(vec![gap, Square::new(1, 2)]));
        // From the side the gap's wall corners forbid diagonals, so the way is straight through it.
        let path = map.path(Square::new(0, 0), Square::new(0, 2)).unwrap();
        assert_eq!(path, vec![Square::new(1, 0), gap, Square::new(1, 2), Square::new(0, 2)]);
    }

    #[test]
    fn s_grid_1_diagonal_corner_cutting_refused() {
        let map = GridMap::parse(&[".#", ".."]).unwrap();
        let steps: Vec<Square> = map.steps(Square::new(0, 0)).collect();
        assert_eq!(steps, vec![Square::new(0, 1)], "no diagonal past the wall's corner");
        assert_eq!(map.path(Square::new(0, 0), Square::new(1, 1)).unwrap().len(), 2);
        let open = GridMap::new(2, 2).unwrap();
        assert_eq!(open.path(Square::new(0, 0), Square::new(1, 1)), Some(vec![Square::new(1, 1)]));
    }

    #[test]
    fn s_grid_1_difficult_terrain_costs_two() {
        let map = GridMap::parse(&["...", "~~~", "..."]).unwrap();
        assert_eq!(map.step_cost(Square::new(0, 1)), DIFFICULT_STEP_COST);
        assert_eq!(map.step_cost(Square::new(0, 0)), STEP_COST);
        // A detour around mud costs more than wading: the path crosses it.
        let path = map.path(Square::new(1, 0), Square::new(1, 2)).unwrap();
        let cost: u32 = path.iter().map(|&s| map.step_cost(s)).sum();
        assert_eq!(cost, DIFFICULT_STEP_COST + STEP_COST);
        // A cheap detour is preferred to a long stretch of mud.
        let map = GridMap::parse(&["~~~~", "....", "~~~~"]).unwrap();
        let path = map.path(Square::new(0, 0), Square::new(3, 0)).unwrap();
        assert_eq!(path.iter().map(|&s| map.step_cost(s)).sum::<u32>(), STEP_COST * 2 + DIFFICULT_STEP_COST);
    }

    #[test]
    fn s_grid_1_parse_errors_report_row_and_column() {
        assert_eq!(GridMap::parse(&["...", ".x."]), Err(GridError::UnknownSymbol { row: 1, column: 1, symbol: 'x' }));
        assert_eq!(GridMap::parse(&["...", ".."]), Err(GridError::RaggedRow { row: 1, expected: 3, found: 2 }));
        assert_eq!(GridMap::parse(&[]), Err(GridError::Empty));
        assert_eq!(GridMap::parse(&[""]), Err(GridError::Empty));
        let message = GridError::UnknownSymbol { row: 1, column: 1, symbol: 'x' }.to_string();
        assert!(message.contains("row 1") && message.contains("column 1"), "{message}");
        let wide = ".".repeat(GridMap::MAX_SQUARES + 1);
        assert!(matches!(GridMap::parse(&[&wide]), Err(GridError::TooLarge { .. })));
    }

    #[test]
    fn s_grid_1_new_rejects_empty_and_oversized() {
        assert_eq!(GridMap::new(0, 3), Err(GridError::Empty));
        assert!(matches!(GridMap::new(u16::MAX, u16::MAX), Err(GridError::TooLarge { .. })));
        let ok = GridMap::new(64, 64).unwrap();
        assert_eq!((ok.width(), ok.height()), (64, 64));
        assert!(GridMap::new(64, 65).is_err());
    }

    #[test]
    fn s_grid_1_outside_squares_are_walls() {
        let mut map = GridMap::new(2, 2).unwrap();
        for outside in [Square::new(-1, 0), Square::new(0, -1), Square::new(2, 0), Square::new(i32::MIN, i32::MAX)] {
            assert_eq!(map.terrain(outside), Terrain::Wall);
            assert!(!map.passable(outside));
            assert_eq!(map.index(outside), None);
            map.set(outside, Terrain::Open);
            assert_eq!(map.terrain(outside), Terrain::Wall, "setting outside the map changes nothing");
        }
        assert_eq!(map.steps(Square::new(0, 0)).count(), 3);
        assert_eq!(map.steps(Square::new(i32::MAX, i32::MAX)).count(), 0);
    }

    #[test]
    fn s_grid_1_index_and_square_round_trip() {
        let map = GridMap::new(5, 3).unwrap();
        for index in 0..15 {
            assert_eq!(map.index(map.square(index)), Some(index));
        }
        assert!(!map.contains(map.square(15)));
        assert!(!map.contains(map.square(usize::MAX)));
    }

    #[test]
    fn s_grid_1_edges_match_steps() {
        let map = GridMap::parse(&[".#", ".."]).unwrap();
        assert_eq!(map.edges(), vec![(0, 2), (2, 3)]);
        assert_eq!(GridMap::new(2, 2).unwrap().edges().len(), 6);
    }

    #[test]
    fn s_grid_1_distance_is_chebyshev() {
        assert_eq!(GridMap::distance(Square::new(0, 0), Square::new(3, -5)), 5);
        assert_eq!(GridMap::distance(Square::new(i32::MIN, 0), Square::new(i32::MAX, 0)), u32::MAX);
    }

    #[test]
    fn s_grid_1_parse_round_trips() {
        let rows = [".#|~", "~..#"];
        assert_eq!(GridMap::parse(&rows).unwrap().to_rows(), rows);
    }
}
