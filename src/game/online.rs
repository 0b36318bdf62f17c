//! Following a referee's battle in the window (`fray join` without `--headless`): the battle
//! shows once the referee welcomes us, the person's declarations go to the referee instead of
//! the rules, only our own side's units take orders, and a panel lists the seats, whom the
//! battle waits for, the referee's refusals and the chat.

use std::net::SocketAddr;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_replicon::prelude::ClientState;

use super::model::launch::JoinOptions;
use super::model::pace::RoundPacing;
use super::model::screen::Screen;
use super::model::session::{BattleStarted, Seat, Session};
use crate::net::follower::FollowerSystems;
use crate::net::protocol::{SeatInfo, SeatState};
use crate::net::transport::GamePassword;
use crate::net::{Declarations, Follower, Hello, Notice, Role};
use crate::rules::components::{Action, AiKind, SideIndex, UnitId};
use crate::rules::{ActionChosen, CombatPhase, CombatState, DeclarationQueue, Sides};
use crate::save::Replay;

/// How often the window wakes while following, to read the referee's messages: the window
/// otherwise sleeps until input, and the battle would wait for a mouse move.
const NETWORK_WAKE: std::time::Duration = std::time::Duration::from_millis(30);
/// Width of the chat line, in points.
const CHAT_WIDTH: f32 = 180.0;
/// The most notices (chat lines, refusals) the panel shows, the latest ones.
const SHOWN_NOTICES: usize = 8;

/// The seats this window left in battles still going: each referee's address and the session
/// token of its welcome. Joining the same referee again from the menu sends the token, so the
/// player takes back the seats they left (within the grace period) instead of new ones.
#[derive(Resource, Debug, Default)]
pub struct LeftSeats(std::collections::HashMap<SocketAddr, u64>);

impl LeftSeats {
    /// `hello` as sent to `server`: with the token of the seats left there, if any and if the
    /// player asks for a seat at all (a spectator takes none back).
    fn hello_for(&self, server: SocketAddr, hello: &Hello) -> Hello {
        match self.0.get(&server) {
            Some(&token) if hello.token == 0 && hello.role != Role::Spectator => Hello { token, ..hello.clone() },
            _ => hello.clone(),
        }
    }
}

/// The chat line being typed.
#[derive(Resource, Debug, Default)]
pub(super) struct ChatLine(pub(super) String);

/// Writes a person's declaration: to the rules offline, to the referee while following one.
#[derive(SystemParam)]
pub struct Declarer<'w> {
    chosen: MessageWriter<'w, ActionChosen>,
    online: Option<ResMut<'w, Declarations>>,
    follower: Option<Res<'w, Follower>>,
}

impl Declarer<'_> {
    /// Declares `action` for `unit`.
    pub fn declare(&mut self, unit: Entity, action: Action) {
        match (&self.follower, self.online.as_mut()) {
            (Some(_), Some(online)) => online.outbox.push((unit, action)),
            _ => {
                self.chosen.write(ActionChosen { unit, action });
            }
        }
    }
}

/// Which units the person at this machine may give orders to: every human one offline; online,
/// only those of our own sides whose declaration is not already on its way.
#[derive(SystemParam)]
pub struct OwnUnits<'w> {
    follower: Option<Res<'w, Follower>>,
    online: Option<Res<'w, Declarations>>,
}

impl OwnUnits<'_> {
    /// Whether `unit` of side `side` takes orders from here.
    pub fn takes_orders(&self, unit: Entity, side: usize) -> bool {
        let Some(follower) = &self.follower else {
            return true;
        };
        let pending = self.online.as_ref().is_some_and(|online| online.pending.contains(&unit));
        own_sides(follower).contains(&side) && !pending
    }
}

/// Our sides' indices in the battle followed: none for a spectator or before the welcome,
/// several when players share this machine (hot-seat).
fn own_sides(follower: &Follower) -> Vec<usize> {
    let Some(level) = follower.level.as_ref() else {
        return Vec::new();
    };
    follower.sides.iter().filter_map(|side| level.side_index(side)).collect()
}

/// The window's online parts: the follower (idle until a game is joined) and the online panel
/// (the menu's Play online window is `host`'s, the lobby `lobby`'s).
pub(super) fn window_plugin(app: &mut App) {
    app.add_plugins(crate::net::window_follower_plugin);
    app.init_resource::<ChatLine>().init_resource::<JoinForm>().init_resource::<LeftSeats>();
    app.add_systems(Update, show_followed_battle.after(FollowerSystems::Receive).run_if(resource_exists::<Follower>));
    app.add_systems(
        EguiPrimaryContextPass,
        draw_online_panel.run_if(resource_exists::<Follower>).run_if(in_state(Screen::Battle)),
    );
    app.add_systems(OnExit(Screen::Battle), leave_referee.run_if(resource_exists::<Follower>));
}

/// Starts following the referee at `options.server`: connects, and says hello once connected.
pub fn start_joining(world: &mut World, options: &JoinOptions) {
    let hello = world
        .get_resource::<LeftSeats>()
        .map_or(options.hello.clone(), |left| left.hello_for(options.server, &options.hello));
    world.insert_resource(Follower::new(hello, None));
    world.insert_resource(bevy::winit::WinitSettings {
        focused_mode: bevy::winit::UpdateMode::reactive(NETWORK_WAKE),
        unfocused_mode: bevy::winit::UpdateMode::reactive(NETWORK_WAKE),
    });
    if let Err(error) = crate::net::transport::connect_world(world, options.server, options.password.as_ref()) {
        world.resource_mut::<Follower>().refused = Some(error.to_string());
    }
}

/// Back in the menu, the followed battle is left: the referee hears us go, and nothing of the
/// online battle (the record still feeding, its dice seeds) stays to steer the next battle here.
pub(super) fn leave_referee(world: &mut World) {
    remember_left_seats(world);
    if let Some(mut client) = world.get_resource_mut::<bevy_replicon_renet::RenetClient>() {
        client.disconnect();
    }
    world.remove_resource::<Follower>();
    world.remove_resource::<crate::net::transport::Reconnect>();
    world.remove_resource::<Replay>();
    world.remove_resource::<crate::rules::Following>();
    world.remove_resource::<crate::rules::PassSeeds>();
    *world.resource_mut::<Declarations>() = Declarations::default();
}

/// Keeps the token of the seats this window leaves in a battle still going, to take them back
/// on joining again; forgets it once that battle is over.
fn remember_left_seats(world: &mut World) {
    // The link's own record of the referee it dials.
    let Some(server) = world.get_resource::<crate::net::transport::Reconnect>().map(|reconnect| reconnect.server)
    else {
        return;
    };
    let Some(follower) = world.get_resource::<Follower>() else {
        return;
    };
    let keep =
        (follower.hello.token != 0 && !follower.ended && !follower.sides.is_empty()).then_some(follower.hello.token);
    let mut left = world.get_resource_or_init::<LeftSeats>();
    match keep {
        Some(token) => left.0.insert(server, token),
        None => left.0.remove(&server),
    };
}

/// The Join button's label, as scripts click it.
const JOIN_LABEL: &str = "Join";

/// The menu's Join game form.
#[derive(Resource, Debug)]
pub(super) struct JoinForm {
    host: String,
    port: String,
    name: String,
    side: String,
    password: String,
    spectate: bool,
    problem: Option<String>,
}

/// The port `fray serve` listens on unless told otherwise.
pub(super) const DEFAULT_PORT: &str = "5000";

impl Default for JoinForm {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: DEFAULT_PORT.into(),
            name: "player".into(),
            side: String::new(),
            password: String::new(),
            spectate: false,
            problem: None,
        }
    }
}

impl JoinForm {
    /// What the form asks for, or what is wrong with it.
    fn options(&self) -> Result<JoinOptions, String> {
        use std::net::ToSocketAddrs;
        let address = format!("{}:{}", self.host.trim(), self.port.trim());
        let server = address
            .to_socket_addrs()
            .map_err(|error| format!("{address}: {error}"))?
            .next()
            .ok_or_else(|| format!("{address}: no address found"))?;
        let role = if self.spectate { Role::Spectator } else { role_for_sides(&self.side) };
        let hello = Hello::new(self.name.trim(), role);
        Ok(JoinOptions { server, hello, password: GamePassword::new(&self.password) })
    }
}

/// The role for the sides a player typed, separated by commas: any free side for none, that
/// side for one, and all of them, played hot-seat at this machine, for several.
pub(super) fn role_for_sides(text: &str) -> Role {
    let sides: Vec<String> =
        text.split(',').map(str::trim).filter(|side| !side.is_empty()).map(str::to_string).collect();
    match sides.as_slice() {
        [] => Role::AnySide,
        [side] => Role::Side(side.clone()),
        _ => Role::Sides(sides),
    }
}

/// The Join game form: where the referee is, who we are, which side we take. Returns what to
/// join once the player clicks Join and the form reads well.
pub(super) fn join_form_ui(ui: &mut egui::Ui, form: &mut JoinForm) -> Option<JoinOptions> {
    ui.label(egui::RichText::new("Play or watch a battle someone hosts.").small().weak());
    egui::Grid::new("join_form").num_columns(2).show(ui, |ui| {
        for (label, text) in [("Address", &mut form.host), ("Port", &mut form.port), ("Your name", &mut form.name)] {
            ui.label(label);
            ui.text_edit_singleline(text);
            ui.end_row();
        }
        ui.label("Side");
        let hint = "any free side; several, such as wardens, bandits, to share this machine";
        ui.add_enabled(!form.spectate, egui::TextEdit::singleline(&mut form.side).hint_text(hint));
        ui.end_row();
        ui.label("Password");
        ui.add(egui::TextEdit::singleline(&mut form.password).password(true).hint_text("if the host set one"));
        ui.end_row();
    });
    ui.checkbox(&mut form.spectate, "Only watch");
    if let Some(problem) = &form.problem {
        ui.label(egui::RichText::new(problem).color(super::ui::widgets::ERROR_COLOUR));
    }
    if !super::ui::widgets::tracked_button(ui, JOIN_LABEL).clicked() {
        return None;
    }
    match form.options() {
        Ok(options) => {
            form.problem = None;
            Some(options)
        }
        Err(problem) => {
            form.problem = Some(problem);
            None
        }
    }
}

/// Each welcome (re)built the battle from the record: the board shows it, with our side the
/// only one played here.
fn show_followed_battle(world: &mut World, mut shown: Local<u32>) {
    let follower = world.resource::<Follower>();
    if follower.welcomes == *shown {
        return;
    }
    *shown = follower.welcomes;
    let Some(level) = follower.level.clone() else {
        return;
    };
    let own = own_sides(follower);
    let mut session = world.resource_mut::<Session>();
    // Remote players count as AIs here: no hot-seat curtain for them, no orders from here. Our
    // own sides are human seats, so with two or more the curtain falls between them as offline.
    session.seats = (0..level.sides.len())
        .map(|side| if own.contains(&side) { Seat::Human } else { Seat::Ai(AiKind::Greedy) })
        .collect();
    session.current = Some(level);
    session.battles += 1;
    let delay = world.resource::<RoundPacing>().delay;
    *world.resource_mut::<RoundPacing>() = RoundPacing { delay, ..default() };
    NextState::set_if_neq(&mut world.resource_mut::<NextState<Screen>>(), Screen::Battle);
    world.write_message(BattleStarted);
}

/// What the panel reads.
#[derive(SystemParam)]
struct PanelView<'w, 's> {
    follower: Res<'w, Follower>,
    client: Res<'w, State<ClientState>>,
    state: Res<'w, CombatState>,
    queue: Res<'w, DeclarationQueue>,
    sides: Option<Res<'w, Sides>>,
    units: Query<'w, 's, (&'static SideIndex, &'static UnitId)>,
    online: Res<'w, Declarations>,
}

impl PanelView<'_, '_> {
    /// The sides whose units the battle waits for, beyond ours already on their way.
    fn waiting_for(&self) -> Vec<usize> {
        if self.state.phase != CombatPhase::Declare || !self.queue.open {
            return Vec::new();
        }
        let mut sides: Vec<usize> = self
            .queue
            .awaiting()
            .filter(|unit| !self.online.pending.contains(unit))
            .filter_map(|unit| self.units.get(unit).ok())
            // On a secret pass the referee tells us who has declared, not what.
            .filter(|(_, id)| !self.follower.declared.contains(&id.0))
            .map(|(side, _)| side.0)
            .collect();
        sides.sort_unstable();
        sides.dedup();
        sides
    }

    fn side_name(&self, side: usize) -> String {
        self.sides
            .as_ref()
            .map_or_else(|| format!("side {}", side + 1), |sides| super::ui::widgets::side_name(sides, side))
    }

    /// Who plays `side`, from the referee's list of seats.
    fn player_of(&self, side: usize) -> String {
        let name = self.side_name(side);
        match self.seat(&name).map(|seat| (&seat.player, seat.state)) {
            Some((_, SeatState::Ai(kind))) => format!("{name} (AI: {kind:?})"),
            Some((Some(player), _)) => format!("{player} ({name})"),
            _ => name,
        }
    }

    fn seat(&self, side_name: &str) -> Option<&SeatInfo> {
        self.follower.seats.iter().find(|seat| seat.side.eq_ignore_ascii_case(side_name))
    }
}

/// How the connection stands, in plain words, and whether that is bad news.
pub(super) fn connection_words(follower: &Follower, client: &ClientState) -> (String, bool) {
    if let Some(reason) = &follower.refused {
        return (format!("The referee turned us away: {reason}"), true);
    }
    match client {
        ClientState::Connected if follower.welcomed => match follower.sides.as_slice() {
            [] => ("Watching online".into(), false),
            sides => (format!("Playing {} online", and_list(sides)), false),
        },
        ClientState::Connected if follower.lobby.is_some() => ("In the lobby".into(), false),
        ClientState::Connected => ("Connected; waiting for the referee's welcome".into(), false),
        ClientState::Connecting => ("Connecting to the referee...".into(), false),
        ClientState::Disconnected if follower.ended => ("The battle is over.".into(), false),
        ClientState::Disconnected if follower.welcomed || follower.lobby.is_some() => {
            let every = crate::net::transport::RETRY_EVERY.as_secs();
            (format!("The connection to the referee was lost; trying again every {every} s."), true)
        }
        ClientState::Disconnected => ("Could not reach the referee.".into(), true),
    }
}

/// Names as a list a person reads: `a`, `a and b`, `a, b and c`.
pub(super) fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The connection's state as a label, red when it is bad news.
pub(super) fn connection_label(ui: &mut egui::Ui, follower: &Follower, client: &ClientState) {
    let (status, bad) = connection_words(follower, client);
    let text = egui::RichText::new(status);
    ui.label(if bad { text.color(super::ui::widgets::ERROR_COLOUR).strong() } else { text.strong() });
}

/// The latest notices (chat, refusals, resyncs) and a chat line; returns a line to send.
pub(super) fn chat_box(ui: &mut egui::Ui, notices: &[Notice], line: &mut String) -> Option<String> {
    for notice in &notices[notices.len().saturating_sub(SHOWN_NOTICES)..] {
        match notice {
            Notice::Chat { from, text, .. } => ui.label(format!("{from}: {text}")),
            Notice::Rejected(why) => {
                ui.label(egui::RichText::new(format!("Refused: {why}")).color(super::ui::widgets::ERROR_COLOUR))
            }
            Notice::Resynced(why) => ui.label(egui::RichText::new(why).weak()),
            Notice::Forfeited(what) => ui.label(egui::RichText::new(what).strong()),
        };
    }
    let mut send = None;
    ui.horizontal(|ui| {
        let field = ui.add(egui::TextEdit::singleline(line).hint_text("Say something").desired_width(CHAT_WIDTH));
        let entered = field.lost_focus() && ui.input(|input| input.key_pressed(egui::Key::Enter));
        if (super::ui::widgets::tracked_button(ui, "Send").clicked() || entered) && !line.trim().is_empty() {
            send = Some(std::mem::take(line));
        }
    });
    send
}

/// What is left on a side's chess clock, if it has one, as `, 9:32 left`.
pub(super) fn clock_words(left: Option<u32>) -> String {
    left.map_or(String::new(), |seconds| format!(", {}:{:02} left", seconds / 60, seconds % 60))
}

/// A seat's state in plain words.
pub(super) fn seat_words(state: SeatState) -> String {
    match state {
        SeatState::Open => "open: nobody has joined".into(),
        SeatState::Connected => "connected".into(),
        SeatState::Away { seconds_left } => format!("away: the seat waits {seconds_left} s more"),
        SeatState::Ai(kind) => format!("played by the AI ({kind:?})"),
        SeatState::Forfeited => "gave up".into(),
    }
}

/// The online panel: connection, seats, whom we wait for, notices and the chat line.
fn draw_online_panel(
    mut contexts: EguiContexts,
    view: PanelView,
    mut chat: ResMut<ChatLine>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let height = super::model::screen::ONLINE_PANEL_HEIGHT;
    // Docked under the initiative panel, which leaves it this room (`ui/battle.rs`).
    let rect = egui::Rect::from_min_size(
        egui::pos2(screen.left(), screen.bottom() - height),
        egui::vec2(super::model::screen::LEFT_PANEL_WIDTH, height),
    );
    let send = super::ui::widgets::dock(ctx, "online_panel", rect, |ui| {
        ui.heading("Online");
        egui::ScrollArea::vertical()
            .id_salt("online_panel_scroll")
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                connection_label(ui, &view.follower, view.client.get());
                for seat in &view.follower.seats {
                    let who = seat.player.as_deref().map_or(String::new(), |player| format!("{player}, "));
                    ui.label(format!("{}: {who}{}{}", seat.side, seat_words(seat.state), clock_words(seat.clock_left)));
                }
                let waiting = view.waiting_for();
                if !waiting.is_empty() {
                    let names: Vec<String> = waiting.iter().map(|&side| view.player_of(side)).collect();
                    ui.label(egui::RichText::new(format!("Waiting for {}", names.join(", "))).italics());
                }
                chat_box(ui, &view.follower.notices, &mut chat.0)
            })
            .inner
    });
    if let Some(text) = send {
        commands.queue(move |world: &mut World| crate::net::say(world, text));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joining_a_referee_again_takes_back_the_seats_left_there() {
        let server: SocketAddr = "127.0.0.1:5000".parse().expect("an address");
        let elsewhere: SocketAddr = "127.0.0.1:5001".parse().expect("an address");
        let mut left = LeftSeats::default();
        left.0.insert(server, 77);
        let player = Hello::new("Tess", Role::AnySide);
        assert_eq!(left.hello_for(server, &player).token, 77);
        assert_eq!(left.hello_for(elsewhere, &player).token, 0);
        // A spectator takes no seat back.
        assert_eq!(left.hello_for(server, &Hello::new("Tess", Role::Spectator)).token, 0);
    }

    #[test]
    fn the_join_form_reads_several_sides_separated_by_commas_as_one_machine_s_seats() {
        assert_eq!(role_for_sides("  "), Role::AnySide);
        assert_eq!(role_for_sides(" wardens "), Role::Side("wardens".into()));
        assert_eq!(role_for_sides("wardens, bandits,"), Role::Sides(vec!["wardens".into(), "bandits".into()]));
    }

    #[test]
    fn several_sides_are_named_as_a_person_would_list_them() {
        let names = |list: &[&str]| and_list(&list.iter().map(|name| name.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&["wardens"]), "wardens");
        assert_eq!(names(&["wardens", "bandits"]), "wardens and bandits");
        assert_eq!(names(&["a", "b", "c"]), "a, b and c");
    }
}
