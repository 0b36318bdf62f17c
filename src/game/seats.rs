//! Handing a side to the AI mid-battle, and taking it back: the seats window in a battle sets
//! who plays each side from the next declaration on. Saves follow the handovers (each
//! declaration records who made it, and the save who plays each side now).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::model::battle_ui::{BattleUi, UiCommand};
use super::model::screen::Screen;
use super::model::session::{Seat, Session};
use crate::rules::Sides;
use crate::rules::components::{Controller, SideIndex, UnitId};

/// Width of the seats window, in points.
const SEATS_WIDTH: f32 = 300.0;

/// Whether the seats window shows.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SeatsWindow(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SeatsWindow>().add_systems(Update, hand_over.in_set(super::spine::GameSystems::Answers));
}

/// The window's part: the seats window.
pub(super) fn window_plugin(app: &mut App) {
    // Online, the referee says who plays each side.
    app.add_systems(
        EguiPrimaryContextPass,
        draw_seats.run_if(in_state(Screen::Battle)).run_if(not(resource_exists::<crate::net::Follower>)),
    );
}

/// Puts each chosen seat in force: every unit of the side is played by it from now on.
fn hand_over(
    mut commands: MessageReader<UiCommand>,
    mut session: ResMut<Session>,
    mut window: ResMut<SeatsWindow>,
    mut units: Query<(&SideIndex, &mut Controller), With<UnitId>>,
) {
    for command in commands.read() {
        match *command {
            UiCommand::ToggleSeats => window.0 = !window.0,
            UiCommand::SetSeat(side, seat) => {
                for (unit_side, mut controller) in &mut units {
                    if unit_side.0 == side {
                        controller.set_if_neq(seat.controller());
                    }
                }
                if let Some(slot) = session.seats.get_mut(side) {
                    *slot = seat;
                }
            }
            _ => {}
        }
    }
}

/// Each side with who plays it, to change at any time.
fn draw_seats(
    mut contexts: EguiContexts,
    window: Res<SeatsWindow>,
    session: Res<Session>,
    sides: Res<Sides>,
    ui_state: Res<BattleUi>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    // Behind the hot-seat curtain nobody may change another player's seat.
    if !window.0 || ui_state.curtain.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Seats").open(&mut open).default_width(SEATS_WIDTH).collapsible(false).show(ctx, |ui| {
        ui.label(egui::RichText::new("Who plays each side, from its next declaration on.").small().weak());
        egui::Grid::new("battle_seats").num_columns(2).show(ui, |ui| {
            for (side, info) in sides.0.iter().enumerate() {
                let Some(&seat) = session.seats.get(side) else {
                    continue;
                };
                ui.label(egui::RichText::new(&*info.name).color(super::ui::widgets::side_colour(ui.ctx(), side)));
                egui::ComboBox::from_id_salt(("battle_seat", side)).selected_text(seat.label()).show_ui(ui, |ui| {
                    for choice in Seat::ALL {
                        if ui.selectable_label(choice == seat, choice.label()).clicked() && choice != seat {
                            commands.write(UiCommand::SetSeat(side, choice));
                        }
                    }
                });
                ui.end_row();
            }
        });
    });
    if !open {
        commands.write(UiCommand::ToggleSeats);
    }
    Ok(())
}
