//! The board's geometry that the board, its camera, the terrain and token art and the name
//! labels share: the grid's tile and lines, where zones and squares are drawn, the zone and
//! detail markers, which grid overlays show, and the size of a name label's text.

use bevy::prelude::*;

use crate::battlefield::{Square, ZoneIdx};

/// A grid square's drawn size, in board pixels.
pub const GRID_TILE: f32 = 80.0;

/// Gap between grid tiles, which draws the grid lines.
pub const GRID_GAP: f32 = 2.0;

/// The opening of an arrow slit.
pub const SLIT_GAP_COLOUR: Color = Color::srgb(0.3, 0.32, 0.28);

/// The lines between grid squares.
pub const GRID_LINE_COLOUR: Color = Color::srgb(0.16, 0.17, 0.15);

/// Where a grid square is drawn: column x to the right, row 0 at the top.
pub fn square_centre(square: Square) -> Vec2 {
    Vec2::new(square.x as f32, -(square.y as f32)) * GRID_TILE
}

/// A zone's drawn area, or a grid tile (anything rebuilt with the battlefield).
#[derive(Component, Debug)]
pub struct BoardZone;

/// A part of a token drawn only while the token shows detail: its rim, icon, weapon badge and
/// status mark.
#[derive(Component, Debug, Default)]
pub struct DetailPart;

/// Where each zone is drawn.
#[derive(Resource, Debug, Default)]
pub struct BoardLayout {
    /// Zone centres, by zone index.
    pub centres: Vec<Vec2>,
    /// The drawn size of one zone (of one square, on a grid).
    pub cell: Vec2,
    /// On a grid: its width, and the zone on each square in row-major order (`None` for walls).
    pub squares: Option<(u16, Vec<Option<ZoneIdx>>)>,
    /// On zones: where each zone's tokens stand (its box under its label), by zone index.
    pub token_areas: Vec<Rect>,
}

impl BoardLayout {
    /// The zone (or grid square) drawn under the board point `at`, if any.
    pub fn zone_at(&self, at: Vec2) -> Option<ZoneIdx> {
        match &self.squares {
            Some((width, zones)) => {
                let (x, y) = ((at.x / GRID_TILE).round(), (-at.y / GRID_TILE).round());
                if x < 0.0 || y < 0.0 || x >= f32::from(*width) {
                    return None;
                }
                let cell = y as usize * usize::from(*width) + x as usize;
                zones.get(cell).copied().flatten()
            }
            None => self
                .centres
                .iter()
                .position(|centre| {
                    let offset = (at - *centre).abs();
                    offset.x <= self.cell.x / 2.0 && offset.y <= self.cell.y / 2.0
                })
                .map(|at| at as ZoneIdx),
        }
    }
}

/// Which grid overlays show.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardOverlays {
    /// The path to the drafted or hovered square.
    pub path: bool,
    /// Sight lines to the enemies in view, coloured by cover.
    pub sight: bool,
    /// Squares where moving would provoke a free attack.
    pub threat: bool,
}

impl BoardOverlays {
    /// All off when any is on, else all on.
    pub fn toggle(&mut self) {
        let on = !(self.path || self.sight || self.threat);
        *self = Self { path: on, sight: on, threat: on };
    }
}

impl Default for BoardOverlays {
    fn default() -> Self {
        Self { path: true, sight: true, threat: true }
    }
}

/// Size of a name on screen, in logical pixels (the text is drawn at this size and scaled
/// with the zoom, so it stays sharp).
pub const LABEL_PX: f32 = 13.0;
/// Advance of one character as a share of the font size (the default font is monospaced).
pub const CHAR_WIDTH: f32 = 0.6;
/// Height of a line of name, as a share of the font size.
pub const LINE_HEIGHT: f32 = 1.2;
/// Shortest cut of a name worth showing, in characters (a shorter name shows whole).
pub const FEWEST_CHARS: usize = 5;
