//! The lobby window: before an online battle starts, who sits where and who is ready, the
//! chat, the player's Ready mark, and the host's Start battle button.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_replicon::prelude::ClientState;

use super::model::screen::Screen;
use super::online::{ChatLine, chat_box, clock_words, connection_label, seat_words};
use crate::net::protocol::SeatInfo;
use crate::net::{Follower, LobbyStart, ToServer};

/// Width of the lobby window, in points.
const LOBBY_WIDTH: f32 = 420.0;
/// The host's button, as scripts click it.
const START_LABEL: &str = "Start battle";
/// The ready mark, as scripts click it.
const READY_LABEL: &str = "I am ready";
/// Leaves the lobby.
const LEAVE_LABEL: &str = "Leave";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_lobby.run_if(in_state(Screen::Menu)).run_if(resource_exists::<Follower>),
    );
}

/// What a click in the lobby asks for.
enum LobbyClick {
    Send(ToServer),
    Leave,
}

/// The lobby window, from the moment we connect until the battle starts.
fn draw_lobby(
    mut contexts: EguiContexts,
    follower: Res<Follower>,
    client: Res<State<ClientState>>,
    (mut chat, hosted): (ResMut<ChatLine>, Option<Res<super::host::HostedServer>>),
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut clicks = Vec::new();
    let title = follower.lobby.as_ref().map_or_else(|| "Lobby".to_string(), |place| format!("Lobby: {}", place.level));
    egui::Window::new(title)
        .id(egui::Id::new("lobby"))
        .default_width(LOBBY_WIDTH)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            connection_label(ui, &follower, client.get());
            if let Some(port) = hosted.as_ref().and_then(|server| server.port) {
                let text = format!("You host this battle: players join at this machine's address, port {port}.");
                ui.label(egui::RichText::new(text).small());
            }
            let own = follower.lobby.as_ref().map_or(&[][..], |place| place.sides.as_slice());
            seats_grid(ui, &follower.seats, own);
            ui.separator();
            own_controls(ui, &follower, &mut clicks);
            ui.separator();
            if let Some(line) = chat_box(ui, &follower.notices, &mut chat.0) {
                clicks.push(LobbyClick::Send(ToServer::Chat(line)));
            }
            ui.separator();
            if super::ui::widgets::tracked_button(ui, LEAVE_LABEL).clicked() {
                clicks.push(LobbyClick::Leave);
            }
        });
    for click in clicks {
        match click {
            LobbyClick::Send(message) => commands.queue(move |world: &mut World| crate::net::send(world, message)),
            LobbyClick::Leave => commands.queue(super::online::leave_referee),
        }
    }
    Ok(())
}

/// Who sits where, and whether each player is ready.
fn seats_grid(ui: &mut egui::Ui, seats: &[SeatInfo], own: &[String]) {
    egui::Grid::new("lobby_seats").num_columns(3).striped(true).show(ui, |ui| {
        for (at, seat) in seats.iter().enumerate() {
            ui.label(egui::RichText::new(&seat.side).color(super::ui::widgets::side_colour(ui.ctx(), at)).strong());
            let you = if own.contains(&seat.side) { " (you)" } else { "" };
            let who = seat.player.clone().unwrap_or_default();
            ui.label(format!("{who}{you}"));
            let state = match seat.state {
                crate::net::protocol::SeatState::Connected if seat.ready => "ready".to_string(),
                crate::net::protocol::SeatState::Connected => "not ready yet".to_string(),
                state => seat_words(state),
            };
            ui.label(format!("{state}{}", clock_words(seat.clock_left)));
            ui.end_row();
        }
    });
}

/// The Ready mark for a player, and Start battle for the host, with what the start waits for.
fn own_controls(ui: &mut egui::Ui, follower: &Follower, clicks: &mut Vec<LobbyClick>) {
    let Some(place) = &follower.lobby else {
        return;
    };
    let not_ready: Vec<&str> = follower
        .seats
        .iter()
        .filter(|seat| !matches!(seat.state, crate::net::protocol::SeatState::Ai(_)) && !seat.ready)
        .map(|seat| seat.side.as_str())
        .collect();
    // One mark for a single seat; with several at this machine, each side's player marks
    // their own.
    let several = place.sides.len() > 1;
    for side in &place.sides {
        let mut ready = follower.seats.iter().any(|seat| &seat.side == side && seat.ready);
        let label = if several { format!("{side}: {READY_LABEL}") } else { READY_LABEL.to_string() };
        let mark = super::ui::widgets::tracked(ui.checkbox(&mut ready, &label), &label);
        if mark.changed() {
            let message =
                if several { ToServer::ReadyAs { side: side.clone(), ready } } else { ToServer::Ready(ready) };
            clicks.push(LobbyClick::Send(message));
        }
    }
    let waiting = if not_ready.is_empty() {
        "Every player is ready.".to_string()
    } else {
        format!("Waiting for: {}", not_ready.join(", "))
    };
    ui.label(egui::RichText::new(waiting).italics());
    match (place.start, place.host) {
        (LobbyStart::ByHost, true) => {
            let start =
                ui.add_enabled(not_ready.is_empty(), egui::Button::new(egui::RichText::new(START_LABEL).strong()));
            if super::ui::widgets::tracked(start, START_LABEL).clicked() {
                clicks.push(LobbyClick::Send(ToServer::Start));
            }
        }
        (LobbyStart::ByHost, false) => {
            ui.label("The host starts the battle once every player is ready.");
        }
        (LobbyStart::WhenReady, _) => {
            ui.label("The battle starts once every player is ready.");
        }
    }
}
