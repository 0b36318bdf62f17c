//! Which screen shows (the menu, a battle or the level editor: the game's Bevy state), and the
//! room the battle's panels take around the board.

use bevy::prelude::*;

/// Which screen is showing.
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Level and seat choice.
    #[default]
    Menu,
    /// A battle, through to its game-over screen.
    Battle,
    /// The level editor.
    Editor,
}

/// Height of one row of the battle's top bar, in points.
pub const TOP_BAR_HEIGHT: f32 = 34.0;
/// Below this window width, in points, the battle's state (level, round, stage, who declares)
/// takes a second row of the top bar under the buttons: at a large UI scale one row would cut it.
pub const ONE_ROW_TOP_BAR_WIDTH: f32 = 1150.0;

/// The top bar's height in a window `width` points wide: one row, or two when narrow.
pub fn top_bar_height(width: f32) -> f32 {
    if top_bar_has_two_rows(width) { 2.0 * TOP_BAR_HEIGHT } else { TOP_BAR_HEIGHT }
}

/// Whether the top bar of a window `width` points wide puts the battle's state on a row of its own.
pub fn top_bar_has_two_rows(width: f32) -> bool {
    width < ONE_ROW_TOP_BAR_WIDTH
}
/// Width of the initiative panel, in points.
pub const LEFT_PANEL_WIDTH: f32 = 250.0;
/// Height of the online panel, docked under the initiative panel while the window follows a
/// referee's battle, in points: the board keeps its whole area at any UI scale.
pub const ONLINE_PANEL_HEIGHT: f32 = 230.0;
/// Width of the unit card and declaration panel, in points.
pub const RIGHT_PANEL_WIDTH: f32 = 320.0;
