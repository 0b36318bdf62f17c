//! The game-over window: who won, each side's casualties, and Play again, Back to menu and Quit.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::widgets::{side_colour, side_name, tracked_button};
use super::{SECTION_SPACING, UiSystems};
use crate::game::model::battle_ui::UiCommand;
use crate::game::model::screen::Screen;
use crate::rules::components::Status;
use crate::rules::{CombatState, Sides};

/// Gap between the game-over window and the bottom of the screen, so the board stays in view.
const GAME_OVER_MARGIN: f32 = 24.0;
/// Units in a battle beyond which the end screen sums casualties up by kind, not by name.
const SUMMARY_UNITS: usize = 16;

/// Draws the result once the battle is over.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_game_over.run_if(in_state(Screen::Battle)).in_set(UiSystems::GameOver),
    );
}

/// The units the end screen reads.
type FallenQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static Name,
        &'static crate::rules::components::SideIndex,
        &'static Status,
        &'static crate::rules::components::SpawnOrder,
    ),
>;

/// The result of the battle, with Play again, Back to menu and Quit.
fn draw_game_over(
    mut contexts: EguiContexts,
    state: Res<CombatState>,
    sides: Res<Sides>,
    units: FallenQuery,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(outcome) = &state.outcome else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Battle over")
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -GAME_OVER_MARGIN))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            // "Winner: bandits" reads right whether a side's name is singular or plural.
            let winner = match outcome.winner {
                Some(side) => {
                    RichText::new(format!("Winner: {}", side_name(&sides, side))).color(side_colour(ui.ctx(), side))
                }
                None => RichText::new("No winner"),
            };
            ui.heading(winner.strong());
            ui.label(format!("{} after {} rounds", outcome.reason.as_str().replace('_', " "), outcome.rounds));
            ui.add_space(SECTION_SPACING);
            ui.strong("Casualties");
            let summarise = units.iter().count() > SUMMARY_UNITS;
            for (side, _) in sides.0.iter().enumerate() {
                let fallen = casualties(&units, side, summarise);
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{}:", side_name(&sides, side))).color(side_colour(ui.ctx(), side)));
                    ui.label(fallen);
                });
            }
            ui.add_space(SECTION_SPACING);
            ui.horizontal(|ui| {
                for (label, command) in [
                    ("Play again", UiCommand::Restart),
                    ("Back to menu", UiCommand::BackToMenu),
                    ("Quit", UiCommand::Quit),
                ] {
                    if tracked_button(ui, label).clicked() {
                        commands.write(command);
                    }
                }
            });
        });
    Ok(())
}

/// A side's fallen: by name in a small battle; in a big one, counted by kind of unit
/// (`Human Fighter ×5 (3 dead, 2 dying)`), so the list stays a few lines long.
fn casualties(units: &FallenQuery, side: usize, summarise: bool) -> String {
    let mut fallen: Vec<_> = units
        .iter()
        .filter(|(_, unit_side, status, _)| unit_side.0 == side && !matches!(status, Status::Active | Status::Reserve))
        .collect();
    if fallen.is_empty() {
        return "none".into();
    }
    fallen.sort_by_key(|(_, _, _, order)| **order);
    if !summarise {
        let named: Vec<String> =
            fallen.iter().map(|(name, _, status, _)| format!("{} ({})", name.as_str(), status.log_name())).collect();
        return named.join(", ");
    }
    let mut kinds: Vec<(&str, std::collections::BTreeMap<&str, usize>)> = Vec::new();
    for (name, _, status, _) in &fallen {
        let at = match kinds.iter().position(|(kind, _)| *kind == name.as_str()) {
            Some(at) => at,
            None => {
                kinds.push((name.as_str(), std::collections::BTreeMap::new()));
                kinds.len() - 1
            }
        };
        *kinds[at].1.entry(status.log_name()).or_default() += 1;
    }
    let total = fallen.len();
    let lines: Vec<String> = kinds
        .iter()
        .map(|(kind, by_status)| {
            let count: usize = by_status.values().sum();
            let detail: Vec<String> = by_status.iter().map(|(status, n)| format!("{n} {status}")).collect();
            format!("{kind} \u{d7}{count} ({})", detail.join(", "))
        })
        .collect();
    format!("{total} fallen: {}", lines.join("; "))
}
