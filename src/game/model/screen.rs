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

/// Height of the battle's top bar, in points.
pub const TOP_BAR_HEIGHT: f32 = 34.0;
/// Width of the initiative panel, in points.
pub const LEFT_PANEL_WIDTH: f32 = 250.0;
/// Height of the online panel, docked under the initiative panel while the window follows a
/// referee's battle, in points: the board keeps its whole area at any UI scale.
pub const ONLINE_PANEL_HEIGHT: f32 = 230.0;
/// Width of the unit card and declaration panel, in points.
pub const RIGHT_PANEL_WIDTH: f32 = 320.0;
