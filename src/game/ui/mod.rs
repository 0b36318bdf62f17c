//! The egui panels: the menu, the battle's top bar, initiative track, unit card and declaration
//! panel, the log, help, notices, game over and the hot-seat curtain. Panels only draw state and
//! send [`UiCommand`](super::UiCommand)s (or [`StartBattle`](super::StartBattle)); they never
//! change the battle themselves.

mod battle;
mod dialogs;
mod game_over;
mod help;
mod log;
mod menu;
mod mods;
mod widgets;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::egui::Color32;

pub(super) use widgets::{ButtonRects, dock, screen_ui, side_colour, side_name, tracked, tracked_button};

/// Errors and warnings.
pub(super) const ERROR_COLOUR: Color32 = Color32::from_rgb(235, 85, 75);

/// Gap between the top bar and the notices under it, in points.
const NOTICE_GAP: f32 = 8.0;
/// Space between sections of a panel, in points.
const SECTION_SPACING: f32 = 6.0;

/// The panels' drawing steps, in the order they draw: later ones sit over earlier ones, and the
/// button bookkeeping reads what every one of them drew.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum UiSystems {
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

/// Draws the menu, the battle panels and the overlays, each only on its screen.
pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        EguiPrimaryContextPass,
        (
            (
                UiSystems::Panels,
                UiSystems::Log,
                UiSystems::GameOver,
                UiSystems::Help,
                UiSystems::Notices,
                UiSystems::Curtain,
                UiSystems::Confirm,
                UiSystems::Buttons,
            )
                .chain(),
            UiSystems::Menu.before(UiSystems::Notices),
            UiSystems::Editor.before(UiSystems::Notices),
        ),
    );
    app.add_plugins((
        widgets::plugin,
        menu::plugin,
        mods::plugin,
        battle::plugin,
        log::plugin,
        game_over::plugin,
        help::plugin,
        dialogs::plugin,
    ));
}
