//! Squares, terrain, cover grades and the errors a grid map can have.

use super::*;

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
    pub(super) const fn origin(self) -> (i64, i64) {
        (self.x as i64 * SCALE, self.y as i64 * SCALE)
    }

    /// Its centre point in [`SCALE`] units.
    pub(super) const fn centre(self) -> (i64, i64) {
        let (x, y) = self.origin();
        (x + HALF_SQUARE, y + HALF_SQUARE)
    }

    /// Its four corner points in [`SCALE`] units.
    pub(super) const fn corners(self) -> [(i64, i64); CORNERS] {
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
