//! The referee: the server's side of online play. It runs the real battle, owns the seats, the
//! dice and the AI seats, checks every declaration a client sends, and releases the match
//! record to everyone as the table would see it.

use std::time::Duration;

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::protocol::{
    FromWire, Hello, LobbyStart, MAX_CHAT_CHARS, MAX_NAME_CHARS, Order, PROTOCOL_VERSION, Release, Role, SeatInfo,
    SeatState, ToClient, ToServer,
};
use crate::levels::BattleTemplate;
use crate::rules::components::{AiKind, Controller, SideIndex, UnitId};
use crate::rules::log::CombatLog;
use crate::rules::{
    ActionChosen, CombatPhase, CombatState, CombatSystems, DeclarationQueue, DeclarationRejected, DeclareSystems,
    PassSeeds, SideForfeited,
};
use crate::save::{Declaration, Recording, SaveFile, SavedForfeit};

/// Garbled or oversized messages a client may send before it is dropped.
pub const MAX_STRIKES: u32 = 3;

/// The grace period a dropped player's seat waits, unless the host sets another.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(120);

/// How a seat is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatPlan {
    /// By a person on a client.
    Remote,
    /// By an AI on the referee.
    Ai(AiKind),
}

/// What happens to a dropped player's seat once its grace period is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterGrace {
    /// It waits for its player as long as it takes.
    Wait,
    /// An AI of this kind takes it.
    Ai(AiKind),
    /// Its side gives up the battle: its units hold for the rest of the round, then leave the
    /// fight as the round ends.
    Forfeit,
}

impl Default for AfterGrace {
    /// The greedy AI takes the seat, so the battle goes on.
    fn default() -> Self {
        Self::Ai(AiKind::Greedy)
    }
}

/// A chess clock: each side has a bank of time for all its declarations, and gains a little
/// back with each one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessClock {
    /// Each side's time at the start.
    pub bank: Duration,
    /// Time added to a side's clock for each declaration it makes.
    pub increment: Duration,
}

/// A lobby before the battle: players take their seats, chat, and say they are ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lobby {
    /// How the battle starts.
    pub start: LobbyStart,
    /// The key a client's hello must carry to be the host ([`LobbyStart::ByHost`]).
    pub host_key: u64,
}

/// How the host set the battle up.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    /// How each side is played, by side index.
    pub seats: Vec<SeatPlan>,
    /// How long a dropped player's seat waits.
    pub grace: Duration,
    /// What then.
    pub after_grace: AfterGrace,
    /// Time per declaration, if the host set a clock: on expiry the referee declares a hold.
    pub clock: Option<Duration>,
    /// A chess clock per side, if the host set one: a side out of time holds.
    pub chess_clock: Option<ChessClock>,
    /// A lobby before the battle, if the host wants one; without, the battle is open at once.
    pub lobby: Option<Lobby>,
    /// The secret the referee's dice seeds, AI stream and tokens come from. Drawn from the
    /// operating system unless a test fixes it.
    pub secret: u64,
    /// The public seed of `combat_started` (surprise and the first initiative rolls).
    pub seed: u64,
}

impl RefereeConfig {
    /// A battle seated as `seats` says, with no clock and no lobby, the default grace period, and
    /// the given secret and public seed.
    pub fn new(seats: Vec<SeatPlan>, secret: u64, seed: u64) -> Self {
        Self {
            seats,
            grace: DEFAULT_GRACE,
            after_grace: AfterGrace::default(),
            clock: None,
            chess_clock: None,
            lobby: None,
            secret,
            seed,
        }
    }
}

/// A player's hold on a seat.
#[derive(Clone, Debug)]
struct Player {
    name: String,
    token: u64,
    client: Option<Entity>,
    /// The battle time the player dropped at.
    away_since: Option<Duration>,
    /// In the lobby: whether they said they are ready.
    ready: bool,
}

/// A side's seat.
#[derive(Clone, Debug)]
struct Seat {
    name: String,
    plan: SeatPlan,
    player: Option<Player>,
    /// Whether its side gave up the battle.
    forfeited: bool,
}

impl Seat {
    /// Whether the clocks run for this seat: a person plays it and is connected (a dropped
    /// player's clock waits for them).
    fn clock_runs(&self) -> bool {
        self.plan == SeatPlan::Remote && self.player.as_ref().is_some_and(|player| player.client.is_some())
    }
}

/// What a connected client is to the referee.
#[derive(Component, Clone, Debug, Default)]
pub struct Peer {
    /// Its name, once it said hello.
    pub name: Option<String>,
    /// The seats it plays, by side index: none for a spectator, several for a machine where
    /// players share the keyboard (hot-seat).
    pub seats: Vec<usize>,
    /// Whether it said hello and was given its place (it hears the seats and the chat).
    pub greeted: bool,
    /// Whether it was welcomed to the battle with the record (and follows it).
    pub welcomed: bool,
    /// Whether it is the host, who starts the battle from the lobby.
    pub host: bool,
    /// Garbled messages so far.
    pub strikes: u32,
    /// Log lines its last out-of-sync check agreed on.
    pub agreed_events: usize,
}

/// The referee's state: seats, the match record released so far, what it holds back.
#[derive(Resource)]
pub struct Referee {
    template: BattleTemplate,
    config: RefereeConfig,
    seats: Vec<Seat>,
    /// The header of every record sent: level, fingerprints, seed, seats.
    header: SaveFile,
    /// Every item released, in order.
    released: Vec<Release>,
    /// Recording entries already looked at.
    recorded: usize,
    /// Accepted declarations of the open secret pass, held until it closes.
    held: Vec<Order>,
    /// Seeds released.
    seeds_released: usize,
    /// Which client sent the declaration now before the rules, by unit.
    pending: EntityHashMap<Entity>,
    /// Declaration time spent by each unit awaiting a remote seat's declaration (the clock).
    clock_spent: EntityHashMap<Duration>,
    /// Tokens for players.
    tokens: ChaCha8Rng,
    /// Whether `Ended` went out.
    ended: bool,
    /// Whether the lobby is still open (the battle has not started).
    in_lobby: bool,
    /// Whether the host asked to start.
    start_asked: bool,
    /// What is left on each side's chess clock.
    banks: Vec<Duration>,
    /// Things the referee noted (out-of-sync reports, drops), for its operator.
    pub notes: Vec<String>,
}

impl Referee {
    /// The referee of the battle `template` spawns, set up as `config` says.
    pub fn new(template: BattleTemplate, config: RefereeConfig, header: SaveFile) -> Self {
        let seats = template
            .sides
            .iter()
            .enumerate()
            .map(|(at, side)| Seat {
                name: side.name.to_string(),
                plan: config.seats.get(at).copied().unwrap_or(SeatPlan::Remote),
                player: None,
                forfeited: false,
            })
            .collect();
        let tokens = ChaCha8Rng::seed_from_u64(config.secret ^ TOKEN_STREAM);
        let banks = vec![config.chess_clock.map_or(Duration::ZERO, |clock| clock.bank); template.sides.len()];
        Self {
            in_lobby: config.lobby.is_some(),
            start_asked: false,
            banks,
            template,
            config,
            seats,
            header,
            released: Vec::new(),
            recorded: 0,
            held: Vec::new(),
            seeds_released: 0,
            pending: EntityHashMap::default(),
            clock_spent: EntityHashMap::default(),
            tokens,
            ended: false,
            notes: Vec::new(),
        }
    }

    /// The match record as released so far, as a save a follower starts from.
    pub fn record(&self) -> SaveFile {
        let mut record = self.header.clone();
        let mut seeds = Vec::new();
        let mut declarations = Vec::new();
        let mut forfeits = Vec::new();
        for item in &self.released {
            match item {
                Release::Order(order) => declarations.push(Declaration::from(order)),
                Release::Seed(seed) => seeds.push(*seed),
                Release::Forfeit { round, side, .. } => {
                    forfeits.push(SavedForfeit { round: *round, side: side.clone() })
                }
            }
        }
        record.declarations = declarations;
        record.pass_seeds = Some(seeds);
        record.forfeits = forfeits;
        record
    }

    /// The level the battle is on.
    pub fn template(&self) -> &BattleTemplate {
        &self.template
    }

    /// Whether every remote seat has a player (the clock runs only then), and the lobby is over.
    fn seated(&self) -> bool {
        !self.in_lobby && self.seats.iter().all(|seat| seat.plan != SeatPlan::Remote || seat.player.is_some())
    }

    /// Whether the lobby is still open: the battle waits for its players to be ready.
    pub fn in_lobby(&self) -> bool {
        self.in_lobby
    }

    /// The remote seats whose players are missing or not ready, by side name.
    fn not_ready(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter(|seat| seat.plan == SeatPlan::Remote)
            .filter(|seat| !seat.player.as_ref().is_some_and(|player| player.ready && player.client.is_some()))
            .map(|seat| seat.name.clone())
            .collect()
    }

    /// The players' list.
    fn seat_list(&self, now: Duration) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .enumerate()
            .map(|(at, seat)| {
                let state = match (&seat.player, seat.plan) {
                    _ if seat.forfeited => SeatState::Forfeited,
                    (_, SeatPlan::Ai(kind)) => SeatState::Ai(kind),
                    (None, SeatPlan::Remote) => SeatState::Open,
                    (Some(Player { client: Some(_), .. }), _) => SeatState::Connected,
                    (Some(Player { away_since, .. }), _) => {
                        let away = now.saturating_sub(away_since.unwrap_or(now));
                        SeatState::Away { seconds_left: self.config.grace.saturating_sub(away).as_secs() as u32 }
                    }
                };
                SeatInfo {
                    side: seat.name.clone(),
                    player: seat.player.as_ref().map(|p| p.name.clone()),
                    state,
                    ready: seat.player.as_ref().is_some_and(|p| p.ready),
                    clock_left: self.config.chess_clock.map(|_| self.banks[at].as_secs() as u32),
                }
            })
            .collect()
    }

    /// Seats `hello`'s sender, or says why not: the seats it now holds (none for a spectator)
    /// and the token that takes all of them back.
    fn seat_for(&mut self, client: Entity, hello: &Hello) -> Result<(Vec<usize>, u64), String> {
        if hello.protocol != PROTOCOL_VERSION || hello.fray != env!("CARGO_PKG_VERSION") {
            return Err(format!(
                "this referee runs Fray {} (protocol {PROTOCOL_VERSION}); the client is Fray {} (protocol {})",
                env!("CARGO_PKG_VERSION"),
                hello.fray,
                hello.protocol
            ));
        }
        let name: String = hello.name.chars().take(MAX_NAME_CHARS).collect();
        if hello.token != 0 {
            let held: Vec<usize> = (0..self.seats.len())
                .filter(|&at| self.seats[at].player.as_ref().is_some_and(|p| p.token == hello.token))
                .collect();
            if !held.is_empty() {
                return self.rejoin(client, held, hello.token);
            }
        }
        let wanted = match &hello.role {
            Role::Spectator => return Ok((Vec::new(), 0)),
            Role::Side(side) => vec![self.side_at(side)?],
            Role::Sides(sides) if sides.is_empty() => return Err("name at least one side to play".into()),
            Role::Sides(sides) => sides.iter().map(|side| self.side_at(side)).collect::<Result<Vec<_>, _>>()?,
            Role::AnySide => vec![
                self.seats
                    .iter()
                    .position(|seat| seat.plan == SeatPlan::Remote && seat.player.is_none())
                    .ok_or_else(|| "every player's seat is taken".to_string())?,
            ],
        };
        let mut seats = wanted;
        seats.sort_unstable();
        seats.dedup();
        // Every seat asked for must be free, or the client takes none of them.
        for &at in &seats {
            let seat = &self.seats[at];
            match (&seat.player, seat.plan) {
                (_, SeatPlan::Ai(_)) => return Err(format!("side {} is played by an AI", seat.name)),
                (Some(player), _) => return Err(format!("side {} is taken by {}", seat.name, player.name)),
                (None, SeatPlan::Remote) => {}
            }
        }
        let token = self.tokens.random::<u64>().max(1);
        for &at in &seats {
            let player = Player { name: name.clone(), token, client: Some(client), away_since: None, ready: false };
            self.seats[at].player = Some(player);
        }
        Ok((seats, token))
    }

    /// A player back with its token takes every seat it held again.
    fn rejoin(&mut self, client: Entity, held: Vec<usize>, token: u64) -> Result<(Vec<usize>, u64), String> {
        if let Some(seat) = held.iter().map(|&at| &self.seats[at]).find(|seat| seat.plan != SeatPlan::Remote) {
            return Err(format!("an AI took side {} over when its grace period ran out", seat.name));
        }
        if let Some(seat) = held.iter().map(|&at| &self.seats[at]).find(|seat| seat.forfeited) {
            return Err(format!("side {} forfeited when its grace period ran out", seat.name));
        }
        for &at in &held {
            if let Some(player) = self.seats[at].player.as_mut() {
                player.client = Some(client);
                player.away_since = None;
            }
        }
        Ok((held, token))
    }

    /// The seat of the side named `side`, or why there is none.
    fn side_at(&self, side: &str) -> Result<usize, String> {
        self.seats
            .iter()
            .position(|seat| seat.name == side)
            .ok_or_else(|| format!("the battle has no side {side}: its sides are {}", self.side_names()))
    }

    /// The names of `seats`.
    fn names_of(&self, seats: &[usize]) -> Vec<String> {
        seats.iter().map(|&at| self.seats[at].name.clone()).collect()
    }

    /// The welcome to the battle for a client in `seats` (none for a spectator), with `record`.
    fn welcome(&self, seats: &[usize], record: String) -> ToClient {
        let sides = self.names_of(seats);
        let token = seats.first().and_then(|&at| self.seats[at].player.as_ref()).map_or(0, |player| player.token);
        ToClient::Welcome { sides, token, record }
    }

    fn side_names(&self) -> String {
        self.seats.iter().map(|seat| seat.name.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// Keeps the token stream apart from the other streams drawn from the same secret.
const TOKEN_STREAM: u64 = 0x70CE;

/// The steps of refereeing, around the combat pipeline.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefereeSystems {
    /// Reads the clients' messages; declarations go to the rules.
    Receive,
    /// Tells clients whose declaration the rules refused.
    Refuse,
    /// Releases what the battle made public, watches seats and the clock.
    Release,
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            RefereeSystems::Receive.in_set(DeclareSystems::Choose),
            RefereeSystems::Refuse.after(DeclareSystems::Record).before(DeclareSystems::Close),
            RefereeSystems::Release.after(CombatSystems::End),
        )
            .run_if(resource_exists::<Referee>),
    );
    app.add_systems(
        Update,
        (
            (receive, open_battle, run_clock, run_chess_clock, hold_for_forfeited)
                .chain()
                .in_set(RefereeSystems::Receive),
            refuse_rejected.in_set(RefereeSystems::Refuse),
            (release, watch_seats, announce_end).chain().in_set(RefereeSystems::Release),
        ),
    );
    app.add_observer(greet_client);
}

/// A new connection gets its place in the referee's books.
fn greet_client(add: On<Add, ConnectedClient>, mut commands: Commands) {
    commands.entity(add.entity).insert(Peer::default());
}

/// What receiving touches.
#[derive(bevy::ecs::system::SystemParam)]
struct Inbox<'w, 's> {
    messages: MessageReader<'w, 's, FromClient<FromWire>>,
    peers: Query<'w, 's, (Entity, &'static mut Peer)>,
    referee: ResMut<'w, Referee>,
    out: MessageWriter<'w, ToClients<ToClient>>,
    disconnect: MessageWriter<'w, DisconnectRequest>,
    chosen: MessageWriter<'w, ActionChosen>,
    time: Res<'w, Time>,
}

/// Everything the rules need to check a declaration's sender.
#[derive(bevy::ecs::system::SystemParam)]
struct Battle<'w, 's> {
    state: Res<'w, CombatState>,
    queue: Res<'w, DeclarationQueue>,
    seeds: Res<'w, PassSeeds>,
    log: Res<'w, CombatLog>,
    units: Query<'w, 's, (Entity, &'static UnitId, &'static SideIndex)>,
}

fn to(client: Entity, message: ToClient) -> ToClients<ToClient> {
    ToClients { targets: SendTargets::Single(ClientId::Client(client)), message }
}

/// Reads every client message of this update.
fn receive(mut inbox: Inbox, battle: Battle) {
    let messages: Vec<(Entity, FromWire)> = inbox
        .messages
        .read()
        .filter_map(|message| message.client_id.entity().map(|client| (client, message.message.clone())))
        .collect();
    for (client, message) in messages {
        match message {
            FromWire::Read(ToServer::Hello(hello)) => welcome(&mut inbox, client, &hello),
            FromWire::Read(ToServer::Declare { pass, order }) => {
                if let Err(reason) = take_declaration(&mut inbox, &battle, client, pass, &order) {
                    let unit = Some(order.unit.clone());
                    inbox.out.write(to(client, ToClient::Rejected { unit, reason }));
                }
            }
            FromWire::Read(ToServer::Checked { events, hash }) => {
                check_sync(&mut inbox, &battle, client, events, &hash)
            }
            FromWire::Read(ToServer::Differs { line, ours }) => {
                let name = peer_name(&inbox.peers, client);
                let theirs = battle.log.entries().get(line as usize).map(|entry| entry.to_json()).unwrap_or_default();
                let note = format!(
                    "{name} went out of sync at log line {}: the referee has {theirs}, {name} has {ours}; resyncing it",
                    line + 1
                );
                inbox.referee.notes.push(note);
                resync(&mut inbox, client);
            }
            FromWire::Read(ToServer::Ready(ready)) => mark_ready(&mut inbox, client, None, ready),
            FromWire::Read(ToServer::ReadyAs { side, ready }) => mark_ready(&mut inbox, client, Some(side), ready),
            FromWire::Read(ToServer::Start) => ask_to_start(&mut inbox, client),
            FromWire::Read(ToServer::Chat(text)) => {
                let from = peer_name(&inbox.peers, client);
                let text: String = text.chars().take(MAX_CHAT_CHARS).collect();
                for peer in greeted(&inbox.peers) {
                    inbox.out.write(to(peer, ToClient::Chat { from: from.clone(), text: text.clone() }));
                }
            }
            FromWire::Unreadable { bytes } => strike(&mut inbox, client, format!("{bytes} bytes that are no message")),
            FromWire::Oversized { bytes } => strike(
                &mut inbox,
                client,
                format!("a message of {bytes} bytes, over the limit of {}", super::protocol::MAX_CLIENT_MESSAGE),
            ),
        }
    }
}

fn peer_name(peers: &Query<(Entity, &mut Peer)>, client: Entity) -> String {
    peers.get(client).ok().and_then(|(_, peer)| peer.name.clone()).unwrap_or_else(|| format!("client {client}"))
}

fn greeted(peers: &Query<(Entity, &mut Peer)>) -> Vec<Entity> {
    peers.iter().filter(|(_, peer)| peer.greeted).map(|(client, _)| client).collect()
}

/// A player in the lobby says they are ready, or no longer are: for the side named, or for
/// every side the client holds.
fn mark_ready(inbox: &mut Inbox, client: Entity, side: Option<String>, ready: bool) {
    let held = inbox.peers.get(client).map(|(_, peer)| peer.seats.clone()).unwrap_or_default();
    let marked: Vec<usize> = match &side {
        Some(side) => held.iter().copied().filter(|&at| inbox.referee.seats[at].name == *side).collect(),
        None => held.clone(),
    };
    let refusal = if !inbox.referee.in_lobby {
        Some("the battle has already started".to_string())
    } else if held.is_empty() {
        Some("only players say they are ready".to_string())
    } else if marked.is_empty() {
        Some(format!("side {} is not yours", side.unwrap_or_default()))
    } else {
        for at in marked {
            if let Some(player) = inbox.referee.seats[at].player.as_mut() {
                player.ready = ready;
            }
        }
        None
    };
    if let Some(reason) = refusal {
        inbox.out.write(to(client, ToClient::Rejected { unit: None, reason }));
    }
}

/// The host asks to start the battle: it starts once every player is ready.
fn ask_to_start(inbox: &mut Inbox, client: Entity) {
    let host = inbox.peers.get(client).is_ok_and(|(_, peer)| peer.host);
    let not_ready = inbox.referee.not_ready();
    let refusal = if !inbox.referee.in_lobby {
        Some("the battle has already started".to_string())
    } else if !host {
        Some("only the host starts the battle".to_string())
    } else if !not_ready.is_empty() {
        Some(format!("not every player is ready: waiting for {}", not_ready.join(", ")))
    } else {
        inbox.referee.start_asked = true;
        None
    };
    if let Some(reason) = refusal {
        inbox.out.write(to(client, ToClient::Rejected { unit: None, reason }));
    }
}

/// Closes the lobby when the battle may start: everyone there is welcomed with the record.
fn open_battle(
    mut referee: ResMut<Referee>,
    mut peers: Query<(Entity, &mut Peer)>,
    mut out: MessageWriter<ToClients<ToClient>>,
) {
    let Some(lobby) = referee.config.lobby else {
        return;
    };
    let ready = referee.not_ready().is_empty();
    let starts = match lobby.start {
        LobbyStart::ByHost => referee.start_asked && ready,
        LobbyStart::WhenReady => ready,
    };
    if !referee.in_lobby || !starts {
        return;
    }
    referee.in_lobby = false;
    let record = referee.record().to_text();
    for (client, mut peer) in peers.iter_mut().filter(|(_, peer)| peer.greeted) {
        peer.welcomed = true;
        out.write(to(client, referee.welcome(&peer.seats, record.clone())));
    }
    referee.notes.push("every player is ready: the battle starts".into());
}

/// A garbled message: refused, and a client that keeps sending them is dropped.
fn strike(inbox: &mut Inbox, client: Entity, what: String) {
    let Ok((_, mut peer)) = inbox.peers.get_mut(client) else {
        return;
    };
    peer.strikes += 1;
    let reason = format!("the referee could not read {what}");
    inbox.out.write(to(client, ToClient::Rejected { unit: None, reason }));
    if peer.strikes >= MAX_STRIKES {
        let note = format!("dropped client {client}: {} garbled messages", peer.strikes);
        inbox.referee.notes.push(note);
        inbox.disconnect.write(DisconnectRequest { client });
    }
}

/// The handshake: a seat (or a spectator's place) and the match record, or a refusal.
fn welcome(inbox: &mut Inbox, client: Entity, hello: &Hello) {
    let Ok((_, mut peer)) = inbox.peers.get_mut(client) else {
        return;
    };
    if peer.greeted {
        inbox.out.write(to(client, ToClient::Rejected { unit: None, reason: "already welcomed".into() }));
        return;
    }
    match inbox.referee.seat_for(client, hello) {
        Ok((seats, token)) => {
            peer.name = Some(hello.name.chars().take(MAX_NAME_CHARS).collect());
            let sides = inbox.referee.names_of(&seats);
            peer.seats = seats;
            peer.greeted = true;
            peer.agreed_events = 0;
            if let (Some(lobby), true) = (inbox.referee.config.lobby, inbox.referee.in_lobby) {
                peer.host =
                    lobby.start == LobbyStart::ByHost && hello.host_key != 0 && hello.host_key == lobby.host_key;
                let level = inbox.referee.template.level_name.clone();
                let message = ToClient::Lobby { level, sides, host: peer.host, start: lobby.start };
                inbox.out.write(to(client, message));
                return;
            }
            peer.welcomed = true;
            let record = inbox.referee.record().to_text();
            inbox.out.write(to(client, ToClient::Welcome { sides, token, record }));
        }
        Err(reason) => {
            inbox.out.write(to(client, ToClient::Refused { reason }));
            inbox.disconnect.write(DisconnectRequest { client });
        }
    }
}

/// Sends `client` the whole record again, to start over from.
fn resync(inbox: &mut Inbox, client: Entity) {
    let Ok((_, mut peer)) = inbox.peers.get_mut(client) else {
        return;
    };
    peer.agreed_events = 0;
    let record = inbox.referee.record().to_text();
    inbox.out.write(to(client, inbox.referee.welcome(&peer.seats, record)));
}

/// Checks a declaration's sender and hands it to the rules, which check the declaration itself.
fn take_declaration(
    inbox: &mut Inbox,
    battle: &Battle,
    client: Entity,
    pass: u32,
    order: &Order,
) -> Result<(), String> {
    let (_, peer) = inbox.peers.get(client).map_err(|_| "unknown client".to_string())?;
    if !peer.greeted {
        return Err("say hello before declaring".into());
    }
    if peer.seats.is_empty() {
        return Err("spectators do not declare".into());
    }
    if inbox.referee.in_lobby {
        return Err("the battle has not started: the lobby is still open".into());
    }
    let closed = battle.seeds.used().len() as u32;
    if pass != closed || order.round != battle.state.round {
        return Err(format!(
            "that declaration is for a pass that has closed (pass {pass}, round {}; now pass {closed}, round {})",
            order.round, battle.state.round
        ));
    }
    let find = |id: &str| battle.units.iter().find(|(_, unit, _)| &*unit.0 == id).map(|(entity, ..)| entity);
    let (entity, _, side) = battle
        .units
        .iter()
        .find(|(_, unit, _)| unit.0 == order.unit)
        .ok_or_else(|| format!("there is no unit {}", order.unit))?;
    if !peer.seats.contains(&side.0) {
        return Err(format!("{} is not your unit", order.unit));
    }
    if inbox.referee.seats[side.0].plan != SeatPlan::Remote {
        return Err(format!("side {} is played by an AI now", inbox.referee.seats[side.0].name));
    }
    if !battle.queue.open || !battle.queue.may_declare(entity) {
        return Err(format!("{} is not awaiting a declaration now", order.unit));
    }
    let action = crate::save::action_of(&Declaration::from(order), find)?;
    inbox.referee.pending.insert(entity, client);
    inbox.chosen.write(ActionChosen { unit: entity, action });
    Ok(())
}

/// The out-of-sync check: a follower's log hash against the referee's first lines.
fn check_sync(inbox: &mut Inbox, battle: &Battle, client: Entity, events: u32, hash: &str) {
    let events = events as usize;
    let Ok((_, mut peer)) = inbox.peers.get_mut(client) else {
        return;
    };
    let log = &battle.log;
    if events <= log.entries().len() && crate::save::log_hash(log, events) == hash {
        peer.agreed_events = events;
        return;
    }
    let from = peer.agreed_events;
    let upto = events.min(log.entries().len()).max(from);
    let lines = log.entries()[from..upto].iter().map(|entry| entry.to_json()).collect();
    inbox.out.write(to(client, ToClient::OutOfSync { from: from as u32, lines }));
}

/// The host's clock: a unit awaiting a remote player's declaration past its time holds.
fn run_clock(mut inbox: Inbox, battle: Battle) {
    let Some(limit) = inbox.referee.config.clock else {
        return;
    };
    if !battle.queue.open || !inbox.referee.seated() {
        inbox.referee.clock_spent.clear();
        return;
    }
    let delta = inbox.time.delta();
    let awaiting: Vec<Entity> = battle.queue.awaiting().collect();
    inbox.referee.clock_spent.retain(|unit, _| awaiting.contains(unit));
    for unit in awaiting {
        let Ok((_, _, side)) = battle.units.get(unit) else {
            continue;
        };
        let seat = &inbox.referee.seats[side.0];
        if !seat.clock_runs() {
            continue;
        }
        let spent = inbox.referee.clock_spent.entry(unit).or_default();
        *spent += delta;
        if *spent >= limit && !inbox.referee.pending.contains_key(&unit) {
            inbox.chosen.write(hold(unit));
            inbox.referee.clock_spent.remove(&unit);
        }
    }
}

/// The chess clock: while any unit of a present remote player's side awaits its declaration,
/// that side's clock runs; a side out of time holds with every unit it is awaited for.
fn run_chess_clock(mut inbox: Inbox, battle: Battle) {
    if inbox.referee.config.chess_clock.is_none() || !battle.queue.open || !inbox.referee.seated() {
        return;
    }
    let delta = inbox.time.delta();
    let awaiting: Vec<(Entity, usize)> = battle
        .queue
        .awaiting()
        .filter_map(|unit| battle.units.get(unit).ok().map(|(_, _, side)| (unit, side.0)))
        .collect();
    let referee = &mut *inbox.referee;
    let mut running: Vec<usize> = awaiting.iter().map(|&(_, side)| side).collect();
    running.sort_unstable();
    running.dedup();
    for side in running {
        let seat = &referee.seats[side];
        if !seat.clock_runs() {
            continue;
        }
        referee.banks[side] = referee.banks[side].saturating_sub(delta);
        if !referee.banks[side].is_zero() {
            continue;
        }
        for &(unit, _) in awaiting.iter().filter(|(unit, at)| *at == side && !referee.pending.contains_key(unit)) {
            inbox.chosen.write(hold(unit));
        }
    }
}

/// A side that forfeited holds with every unit it is awaited for until the round ends, when
/// its units leave the fight.
fn hold_for_forfeited(mut inbox: Inbox, battle: Battle) {
    if !battle.queue.open {
        return;
    }
    for unit in battle.queue.awaiting() {
        let forfeited = battle.units.get(unit).is_ok_and(|(_, _, side)| inbox.referee.seats[side.0].forfeited);
        if forfeited && !inbox.referee.pending.contains_key(&unit) {
            inbox.chosen.write(hold(unit));
        }
    }
}

/// The declaration a clock makes for a unit out of time.
fn hold(unit: Entity) -> ActionChosen {
    let action = crate::rules::components::Action::simple(crate::rules::components::ActionKind::Hold);
    ActionChosen { unit, action }
}

/// Tells a client the rules refused its declaration.
fn refuse_rejected(
    mut rejected: MessageReader<DeclarationRejected>,
    mut referee: ResMut<Referee>,
    units: Query<&UnitId>,
    mut out: MessageWriter<ToClients<ToClient>>,
) {
    for refusal in rejected.read() {
        if let Some(client) = referee.pending.remove(&refusal.unit) {
            let unit = units.get(refusal.unit).ok().map(|id| id.0.clone());
            out.write(to(client, ToClient::Rejected { unit, reason: refusal.reason.to_string() }));
        }
    }
    referee.pending.clear();
}

/// Releases what became public this update: declarations as accepted on a turn-order pass, a
/// secret pass's all at once when it closes, with the seed it closed with.
fn release(
    mut referee: ResMut<Referee>,
    recording: Res<Recording>,
    units: Query<(&UnitId, &SideIndex)>,
    queue: Res<DeclarationQueue>,
    seeds: Res<PassSeeds>,
    peers: Query<(Entity, &Peer)>,
    mut out: MessageWriter<ToClients<ToClient>>,
) {
    let referee = &mut *referee;
    let fresh: Vec<Order> = recording.entries[referee.recorded..].iter().map(Order::from).collect();
    referee.recorded = recording.entries.len();
    if let Some(clock) = referee.config.chess_clock {
        for order in &fresh {
            if let Some((_, side)) = units.iter().find(|(id, _)| id.0 == order.unit) {
                referee.banks[side.0] += clock.increment;
            }
        }
    }
    let closing = seeds.used().len() > referee.seeds_released;
    let secret_open = queue.open && queue.secret && !closing;
    let mut batch = Vec::new();
    if secret_open {
        for order in &fresh {
            for (client, _) in peers.iter().filter(|(_, peer)| peer.welcomed) {
                out.write(to(client, ToClient::Declared { unit: order.unit.clone() }));
            }
        }
        referee.held.extend(fresh);
    } else {
        batch.extend(referee.held.drain(..).map(Release::Order));
        batch.extend(fresh.into_iter().map(Release::Order));
    }
    batch.extend(seeds.used()[referee.seeds_released..].iter().map(|&seed| Release::Seed(seed)));
    referee.seeds_released = seeds.used().len();
    if batch.is_empty() {
        return;
    }
    referee.released.extend(batch.iter().cloned());
    for (client, _) in peers.iter().filter(|(_, peer)| peer.welcomed) {
        out.write(to(client, ToClient::Released(batch.clone())));
    }
}

/// Drops and returns: a seat whose player left waits its grace period, then is played as the
/// host chose. Everyone hears of every change.
#[expect(clippy::too_many_arguments, reason = "a system: each parameter is something it reads or writes")]
fn watch_seats(
    mut referee: ResMut<Referee>,
    mut gone: RemovedComponents<ConnectedClient>,
    peers: Query<(Entity, &Peer)>,
    mut controllers: Query<(&SideIndex, &mut Controller)>,
    time: Res<Time>,
    mut out: MessageWriter<ToClients<ToClient>>,
    mut forfeit: Forfeiting,
    mut last: Local<(Vec<SeatInfo>, usize)>,
) {
    let now = time.elapsed();
    let in_lobby = referee.in_lobby;
    for client in gone.read() {
        for seat in referee.seats.iter_mut() {
            if seat.player.as_ref().is_none_or(|player| player.client != Some(client)) {
                continue;
            }
            if in_lobby {
                // Before the battle a seat holds nobody's place: it is open again.
                seat.player = None;
            } else if let Some(player) = seat.player.as_mut() {
                player.client = None;
                player.away_since = Some(now);
            }
        }
    }
    let (grace, after) = (referee.config.grace, referee.config.after_grace);
    for at in 0..referee.seats.len() {
        let seat = &referee.seats[at];
        let away = seat.player.as_ref().and_then(|player| player.away_since);
        let overdue = seat.plan == SeatPlan::Remote && away.is_some_and(|since| now.saturating_sub(since) >= grace);
        if !overdue {
            continue;
        }
        if after == AfterGrace::Forfeit {
            forfeit.give_up(&mut referee, at, &peers, &mut out);
        }
        if let AfterGrace::Ai(kind) = after {
            referee.seats[at].plan = SeatPlan::Ai(kind);
            for (_, mut controller) in controllers.iter_mut().filter(|(side, _)| side.0 == at) {
                *controller = Controller::Ai(kind);
            }
            let note =
                format!("side {}: its player did not return in time; the {kind:?} AI plays it", referee.seats[at].name);
            referee.notes.push(note);
        }
    }
    let list = referee.seat_list(now);
    // Seconds left change every second: the list goes out when anything else changes, or each
    // whole second while someone is away.
    // ...and to everyone whenever someone new is greeted, since a spectator changes no seat.
    let greeted = peers.iter().filter(|(_, peer)| peer.greeted).count();
    if last.0 != list || last.1 != greeted {
        for (client, _) in peers.iter().filter(|(_, peer)| peer.greeted) {
            out.write(to(client, ToClient::Seats(list.clone())));
        }
        *last = (list, greeted);
    }
}

/// What a forfeit reads and tells.
#[derive(bevy::ecs::system::SystemParam)]
struct Forfeiting<'w> {
    state: Res<'w, CombatState>,
    queue: Res<'w, DeclarationQueue>,
    rules: MessageWriter<'w, SideForfeited>,
}

impl Forfeiting<'_> {
    /// The side at `at` gives up the battle: its units leave the fight as the round being
    /// declared ends. The forfeit waits for a declaration pass to be open, so that round's end
    /// is still to come on the referee and on every follower.
    fn give_up(
        &mut self,
        referee: &mut Referee,
        at: usize,
        peers: &Query<(Entity, &Peer)>,
        out: &mut MessageWriter<ToClients<ToClient>>,
    ) {
        let declaring = self.state.phase == CombatPhase::Declare && self.queue.open;
        if referee.seats[at].forfeited || referee.in_lobby || !declaring {
            return;
        }
        let round = self.state.round;
        let seat = &mut referee.seats[at];
        seat.forfeited = true;
        let (side, player) = (seat.name.clone(), seat.player.as_ref().map_or_else(String::new, |p| p.name.clone()));
        self.rules.write(SideForfeited { side: at, round });
        referee.notes.push(format!("{side} forfeited: {player} did not return within the grace period"));
        let item = Release::Forfeit { round, side, player };
        referee.released.push(item.clone());
        for (client, _) in peers.iter().filter(|(_, peer)| peer.welcomed) {
            out.write(to(client, ToClient::Released(vec![item.clone()])));
        }
    }
}

/// Tells everyone once the battle is over.
fn announce_end(
    mut referee: ResMut<Referee>,
    state: Res<CombatState>,
    peers: Query<(Entity, &Peer)>,
    mut out: MessageWriter<ToClients<ToClient>>,
) {
    if !state.is_over() || referee.ended {
        return;
    }
    referee.ended = true;
    for (client, _) in peers.iter().filter(|(_, peer)| peer.welcomed) {
        out.write(to(client, ToClient::Ended));
    }
}

/// The seed of a new battle's public stream and the referee's secret, from the operating system.
pub fn fresh_secret() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        // No entropy source: the clock is a poor secret, but the battle still plays.
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |time| time.as_nanos() as u64)
    })
}
