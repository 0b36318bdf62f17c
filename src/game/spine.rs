//! The window game's ordering spine: the steps of an update, in order, that its systems join,
//! anchored to the combat pipeline's stages, and the steps in which the panels draw. A system
//! says which step it belongs to, not which other system it follows.

use bevy::prelude::*;

use crate::rules::{CombatSystems, DeclareSystems};

/// The window game's steps in an update, run in this order (as the template's `AppSystems`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// A battle starts, is left, is paced, is rebuilt for a replay's step or held for a lesson:
    /// before the combat pipeline's first stage.
    Session,
    /// The player's keys and clicks become commands, and the commands apply: once the
    /// declaration order is open, whatever the phase.
    Commands,
    /// What answers the commands before the choices are recorded: standing orders, saving,
    /// loading and undo, the seats handed over, the catch-up summary, the lessons followed.
    Answers,
    /// After the pipeline's last stage: the log shown and heard.
    Aftermath,
    /// Tokens move along the round's timeline.
    Motion,
    /// The board places its zones and tokens and knows what the pointer is over.
    Board,
    /// Over the board: names, feedback, the plan and the overlays.
    OverBoard,
}

/// The panels' drawing steps, in the order they draw: later ones sit over earlier ones, and the
/// button bookkeeping reads what every one of them drew.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::game) enum UiSystems {
    /// The main menu.
    Menu,
    /// The level editor.
    Editor,
    /// The battle's top bar and side panels.
    Panels,
    /// The combat log window.
    Log,
    /// The game-over window.
    GameOver,
    /// The help window.
    Help,
    /// Load errors and settings notices, over the menu or the battle.
    Notices,
    /// The hot-seat curtain, over everything drawn before it.
    Curtain,
    /// The leave confirmation, over the curtain.
    Confirm,
    /// Focus and button places, once every button is drawn.
    Buttons,
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            GameSystems::Session.before(CombatSystems::Surprise),
            GameSystems::Commands.after(DeclareSystems::Open),
            GameSystems::Answers.before(DeclareSystems::Record),
            GameSystems::Aftermath.after(CombatSystems::End),
            GameSystems::Motion,
            GameSystems::Board,
            GameSystems::OverBoard,
        )
            .chain(),
    );
}
