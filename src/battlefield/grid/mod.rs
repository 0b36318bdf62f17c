//! Square-grid battlefield geometry: terrain, walking paths, line of sight (`S-LOS-1`) and cover (`S-COVER-1`).
//!
//! All sight geometry is exact: points are integers in units where one square is [`SCALE`] long, and every test
//! is a comparison of integer products, so a line that grazes a wall face or passes a slit's edge is judged the
//! same way on every machine.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fmt;

use serde::{Deserialize, Serialize};

mod paths;
mod sight;
mod squares;

pub use squares::{Cover, GridError, Square, Terrain};

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
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn s_grid_1_parse_round_trips() {
        let rows = [".#|~", "~..#"];
        assert_eq!(GridMap::parse(&rows).unwrap().to_rows(), rows);
    }
}
