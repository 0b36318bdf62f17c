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
pub(super) mod widgets;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use super::spine::UiSystems;
use widgets::ERROR_COLOUR;

/// Gap between the top bar and the notices under it, in points.
const NOTICE_GAP: f32 = 8.0;
/// Space between sections of a panel, in points.
const SECTION_SPACING: f32 = 6.0;

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
