//! Windows over everything else: notices of load and settings errors, the banner offering a
//! restart when the level in play changed on disk, the hot-seat curtain and the
//! leave-the-battle confirmation.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::widgets::{side_colour, side_name, tracked, tracked_button};
use super::{ERROR_COLOUR, NOTICE_GAP, SECTION_SPACING, UiSystems};
use crate::game::HotReload;
use crate::game::model::battle_ui::{BattleUi, UiCommand};
use crate::game::model::screen::Screen;
use crate::game::model::screen::top_bar_height;
use crate::game::model::session::Session;
use crate::rules::{DeclarationQueue, Sides};

/// Background of the notices window, dark enough for the red text to read.
const NOTICE_FILL: Color32 = Color32::from_rgb(40, 16, 16);
/// The hot-seat curtain: fully opaque so nothing of the board shows through.
const CURTAIN_FILL: Color32 = Color32::from_rgb(14, 14, 20);
/// Width of the notices window, in points.
const NOTICE_WIDTH: f32 = 560.0;
/// Where the curtain's text starts, as a share of the screen's height.
const CURTAIN_TEXT_AT: f32 = 0.35;
/// Space between the curtain's lines, in points.
const CURTAIN_SPACING: f32 = 16.0;
/// Background of the restart banner: a calm blue, not an error's red.
const BANNER_FILL: Color32 = Color32::from_rgb(22, 40, 66);
/// The banner's height above the bottom edge (clear of the status line), in points.
const BANNER_RISE: f32 = 48.0;
/// What the restart banner says.
pub(crate) const RESTART_BANNER: &str = "The level changed on disk — Restart to apply";
/// The banner's button, by the label scripted tests click it by (the top bar has a Restart too).
pub(crate) const RESTART_TO_APPLY: &str = "Restart to apply";

/// Draws the notices on any screen, then the curtain and the confirmation over a battle.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_notices.in_set(UiSystems::Notices))
        .add_systems(
            EguiPrimaryContextPass,
            draw_restart_banner.run_if(in_state(Screen::Battle)).in_set(UiSystems::Notices),
        )
        // The curtain goes last so that it covers everything drawn before it.
        .add_systems(EguiPrimaryContextPass, draw_curtain.run_if(in_state(Screen::Battle)).in_set(UiSystems::Curtain))
        .add_systems(EguiPrimaryContextPass, draw_confirm.run_if(in_state(Screen::Battle)).in_set(UiSystems::Confirm));
}

/// A level that failed to (re)load and a bad settings file, in a red window until dismissed.
fn draw_notices(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    mut session: ResMut<Session>,
    mut ui_state: ResMut<BattleUi>,
) -> Result {
    if session.error.is_none() && ui_state.notice.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let frame = egui::Frame::window(&ctx.global_style()).fill(NOTICE_FILL).stroke(egui::Stroke::new(1.0, ERROR_COLOUR));
    let mut dismissed = false;
    egui::Window::new("Notices")
        .title_bar(false)
        .frame(frame)
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, top_bar_height(ctx.content_rect().width()) + NOTICE_GAP))
        .default_width(NOTICE_WIDTH)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(error) = &session.error {
                let what = match screen.get() {
                    Screen::Battle => "The level failed to reload; kept the last good data.",
                    Screen::Menu | Screen::Editor => "The level failed to load.",
                };
                ui.label(RichText::new(what).color(ERROR_COLOUR).strong());
                ui.label(RichText::new(error).color(ERROR_COLOUR).monospace());
            }
            if let Some(notice) = &ui_state.notice {
                ui.label(RichText::new("Settings").color(ERROR_COLOUR).strong());
                ui.label(RichText::new(notice).color(ERROR_COLOUR).monospace());
            }
            dismissed = ui.button("Dismiss").clicked();
        });
    if dismissed {
        session.error = None;
        ui_state.notice = None;
    }
    Ok(())
}

/// The level in play changed in ways the rules read: a banner (it blocks nothing) offers the
/// restart that applies it; the battle goes on as it was meanwhile.
fn draw_restart_banner(
    mut contexts: EguiContexts,
    hot: Res<HotReload>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(parts) = &hot.restart_offer else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let frame = egui::Frame::window(&ctx.global_style()).fill(BANNER_FILL);
    egui::Window::new("Level changed")
        .title_bar(false)
        .frame(frame)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -BANNER_RISE))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(RESTART_BANNER).strong());
                let restart = ui.button(RichText::new("Restart").strong());
                if tracked(restart, RESTART_TO_APPLY).clicked() {
                    commands.write(UiCommand::Restart);
                }
            });
            ui.label(
                RichText::new(format!("Changed: {}. This battle goes on as it was.", parts.join(", "))).small().weak(),
            );
        });
    Ok(())
}

/// What the curtain tells the next player it hides, by how the ruleset has sides declare.
pub(crate) fn curtain_words(secret: bool) -> &'static str {
    if secret {
        "Declarations are secret: everyone else, look away. No side sees another's choices until \
         every side has declared."
    } else {
        "Your turn to declare. Declaring is open under these rules: you will see what the other \
         sides have declared so far, as at the table. The curtain only hands over the seat."
    }
}

/// The hot-seat curtain: an opaque screen over everything until the next player takes the seat.
fn draw_curtain(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    sides: Res<Sides>,
    queue: Res<DeclarationQueue>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(side) = ui_state.curtain else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.viewport_rect();
    let name = side_name(&sides, side);
    egui::Area::new(egui::Id::new("curtain"))
        .order(egui::Order::Foreground)
        .fixed_pos(screen.min)
        .movable(false)
        .constrain(false)
        .show(ctx, |ui| {
            egui::Frame::new().fill(CURTAIN_FILL).show(ui, |ui| {
                ui.set_min_size(screen.size());
                ui.set_max_size(screen.size());
                ui.vertical_centered(|ui| {
                    ui.add_space(screen.height() * CURTAIN_TEXT_AT);
                    ui.heading(RichText::new(format!("Pass to {name}")).color(side_colour(ui.ctx(), side)).strong());
                    ui.add_space(CURTAIN_SPACING);
                    ui.label(curtain_words(queue.secret));
                    ui.add_space(CURTAIN_SPACING);
                    let lift = format!("I am {name} — show the board");
                    if tracked(ui.button(RichText::new(&lift).strong()), "Show the board").clicked() {
                        commands.write(UiCommand::LiftCurtain);
                    }
                });
            });
        });
    Ok(())
}

/// "Are you sure?" before a battle in progress is thrown away.
fn draw_confirm(mut contexts: EguiContexts, ui_state: Res<BattleUi>, mut commands: MessageWriter<UiCommand>) -> Result {
    let Some(leave) = ui_state.confirm else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Leave the battle?")
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(leave.question());
            ui.add_space(SECTION_SPACING);
            ui.horizontal(|ui| {
                if tracked(ui.button(RichText::new(leave.verb()).strong()), leave.verb()).clicked() {
                    commands.write(UiCommand::ConfirmLeave);
                }
                if tracked_button(ui, "Stay").clicked() {
                    commands.write(UiCommand::StayInBattle);
                }
            });
            ui.label(RichText::new("Enter: yes · Esc: stay").small().weak());
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::curtain_words;

    #[test]
    fn the_curtain_says_what_it_hides_under_each_declaration_order() {
        assert!(curtain_words(true).contains("No side sees another's choices"));
        let open = curtain_words(false);
        assert!(open.contains("you will see what the other sides have declared"), "{open}");
        assert!(!open.contains("secret"), "open declaring is not secret: {open}");
    }
}
