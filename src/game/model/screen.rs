//! Which screen shows: the menu, a battle or the level editor (the game's Bevy state).

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
