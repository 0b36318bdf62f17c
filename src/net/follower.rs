//! A follower: a client's copy of the battle, run by the same engine and fed the match record
//! the referee releases, so it writes the referee's log line for line. A seat this client plays
//! sends its declarations to the referee, which releases them back when the table may see them.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_replicon::prelude::*;

use super::protocol::{FromWire, Hello, LobbyStart, Order, Release, SeatInfo, ToClient, ToServer};
use crate::ai::Delegated;
use crate::levels::BattleTemplate;
use crate::levels::mods::ActiveMods;
use crate::rules::components::Action;
use crate::rules::components::{AiKind, Controller, UnitId};
use crate::rules::log::CombatLog;
use crate::rules::{CombatState, CombatSystems, DeclareSystems, PassSeeds, SideForfeited};
use crate::save::{Replay, SaveFile};

/// Where the match record says it came from, in refusals.
const RECORD_PATH: &str = "the referee's match record";

/// Something the player should read: chat, a refusal, an out-of-sync report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A chat line.
    Chat {
        /// Who said it.
        from: String,
        /// What.
        text: String,
        /// The log lines there were when it arrived.
        at: usize,
    },
    /// The referee refused a declaration or message of ours.
    Rejected(String),
    /// Our copy went out of sync and was rebuilt from the record.
    Resynced(String),
    /// A side gave up the battle: `<side> forfeited: <player> did not return within the grace
    /// period`.
    Forfeited(String),
}

/// Our place in the lobby, before the battle starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyPlace {
    /// The level's title.
    pub level: String,
    /// The sides we play (none for a spectator; several when players share this machine).
    pub sides: Vec<String>,
    /// Whether we are the host, who starts the battle.
    pub host: bool,
    /// How the battle starts.
    pub start: LobbyStart,
}

/// A client's side of online play.
#[derive(Resource, Debug)]
pub struct Follower {
    /// What this client says when it connects.
    pub hello: Hello,
    /// The sides it plays, once welcomed (none for a spectator; several when players share
    /// this machine, hot-seat).
    pub sides: Vec<String>,
    /// Whether the referee welcomed it (and its battle follows the record).
    pub welcomed: bool,
    /// Why the referee, or the record, refused it.
    pub refused: Option<String>,
    /// The seats as the referee last listed them.
    pub seats: Vec<SeatInfo>,
    /// Our place in the lobby, while the referee holds one and until the battle starts.
    pub lobby: Option<LobbyPlace>,
    /// Units that declared on the open secret pass; what they chose is not known yet.
    pub declared: Vec<Arc<str>>,
    /// What the player should read, oldest first.
    pub notices: Vec<Notice>,
    /// Whether the referee said the battle is over.
    pub ended: bool,
    /// Every message received, with the passes this client had seen close when it arrived.
    pub received: Vec<(usize, ToClient)>,
    /// The local AI that plays this client's seat, if any (`--headless --ai KIND`).
    pub delegate: Option<AiKind>,
    /// The level of the battle followed, once welcomed (the window draws its board).
    pub level: Option<BattleTemplate>,
    /// Welcomes taken so far: each (re)builds the battle from the record.
    pub welcomes: u32,
    /// Where each received message is written, one JSON object a line (`--trace`).
    trace: Option<std::io::LineWriter<std::fs::File>>,
    greeted: bool,
    checked_passes: usize,
}

impl Follower {
    /// A follower that says `hello`, its seat played by `delegate` if given.
    pub fn new(hello: Hello, delegate: Option<AiKind>) -> Self {
        Self {
            hello,
            sides: Vec::new(),
            welcomed: false,
            refused: None,
            seats: Vec::new(),
            lobby: None,
            declared: Vec::new(),
            notices: Vec::new(),
            ended: false,
            received: Vec::new(),
            delegate,
            level: None,
            welcomes: 0,
            trace: None,
            greeted: false,
            checked_passes: 0,
        }
    }

    /// Writes every message received to `path`, one JSON object a line.
    pub fn trace_to(&mut self, path: &Path) -> std::io::Result<()> {
        self.trace = Some(std::io::LineWriter::new(std::fs::File::create(path)?));
        Ok(())
    }
}

/// The declarations a person at this client made for its side, on their way to the referee
/// (the window game writes them here instead of to the rules while it follows a referee).
#[derive(Resource, Debug, Default)]
pub struct Declarations {
    /// Made and not yet sent.
    pub outbox: Vec<(Entity, Action)>,
    /// Units declared for in the open pass: they wait for the referee to release them.
    pub pending: bevy::ecs::entity::EntityHashSet,
}

/// Messages read this update, for the exclusive step that applies them.
#[derive(Resource, Default)]
struct Mailbox(Vec<ToClient>);

/// The steps of following, around the combat pipeline.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FollowerSystems {
    /// Reads the referee's messages and applies them to the battle.
    Receive,
    /// Sends the local seat's declarations.
    Send,
    /// Reports the log's hash after each pass.
    Check,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Mailbox>().init_resource::<Declarations>();
    app.configure_sets(
        Update,
        (
            FollowerSystems::Receive.before(CombatSystems::Surprise),
            FollowerSystems::Send.after(DeclareSystems::Choose).before(DeclareSystems::Record),
            FollowerSystems::Check.after(CombatSystems::End),
        )
            .run_if(resource_exists::<Follower>),
    );
    app.add_systems(
        Update,
        (
            (say_hello, collect, apply_mail).chain().in_set(FollowerSystems::Receive),
            (send_delegated, send_declarations).in_set(FollowerSystems::Send),
            report_hash.in_set(FollowerSystems::Check),
        ),
    );
    app.add_systems(OnExit(ClientState::Connected), forget_greeting);
}

/// Says hello once connected.
fn say_hello(mut follower: ResMut<Follower>, state: Res<State<ClientState>>, mut out: MessageWriter<FromWire>) {
    if *state.get() != ClientState::Connected || follower.greeted {
        return;
    }
    follower.greeted = true;
    let mut hello = follower.hello.clone();
    hello.fray = env!("CARGO_PKG_VERSION").to_string();
    hello.protocol = super::protocol::PROTOCOL_VERSION;
    out.write(FromWire::Read(ToServer::Hello(hello)));
}

/// A dropped connection greets again when it comes back, with the token it was given.
fn forget_greeting(follower: Option<ResMut<Follower>>) {
    if let Some(mut follower) = follower {
        follower.greeted = false;
    }
}

/// Reads the referee's messages, and traces them.
fn collect(
    mut messages: MessageReader<ToClient>,
    mut follower: ResMut<Follower>,
    seeds: Option<Res<PassSeeds>>,
    mut mailbox: ResMut<Mailbox>,
) {
    let pass = seeds.map_or(0, |seeds| seeds.used().len());
    for message in messages.read() {
        if let Some(trace) = follower.trace.as_mut() {
            let line = serde_json::json!({ "pass": pass, "message": message });
            // A trace that cannot be written is the tester's problem, not the battle's.
            let _ = writeln!(trace, "{line}");
        }
        follower.received.push((pass, message.clone()));
        mailbox.0.push(message.clone());
    }
}

/// Applies the referee's messages: a welcome (re)builds the battle from the record, releases
/// feed it, the rest is noted for the player.
fn apply_mail(world: &mut World) {
    let mail = std::mem::take(&mut world.resource_mut::<Mailbox>().0);
    for message in mail {
        match message {
            ToClient::Welcome { sides, token, record } => follow_record(world, sides, token, &record),
            ToClient::Released(items) => release(world, items),
            ToClient::Declared { unit } => world.resource_mut::<Follower>().declared.push(unit),
            ToClient::Rejected { unit, reason } => rejected(world, unit, reason),
            ToClient::Seats(list) => seats_listed(world, list),
            ToClient::Lobby { level, sides, host, start } => {
                world.resource_mut::<Follower>().lobby = Some(LobbyPlace { level, sides, host, start });
            }
            ToClient::Chat { from, text } => {
                // The log window shows the line where it was said, between the battle's lines.
                let at = world.get_resource::<CombatLog>().map_or(0, |log| log.entries().len());
                world.resource_mut::<Follower>().notices.push(Notice::Chat { from, text, at });
            }
            ToClient::OutOfSync { from, lines } => out_of_sync(world, from, &lines),
            ToClient::Refused { reason } => world.resource_mut::<Follower>().refused = Some(reason),
            ToClient::Ended => world.resource_mut::<Follower>().ended = true,
        }
    }
}

/// A new list of seats; in the lobby a seat a local AI plays says at once that it is ready.
fn seats_listed(world: &mut World, list: Vec<SeatInfo>) {
    let mut follower = world.resource_mut::<Follower>();
    follower.seats = list;
    let own = follower.lobby.as_ref().map(|place| place.sides.clone()).unwrap_or_default();
    let waiting = follower.seats.iter().any(|seat| own.contains(&seat.side) && !seat.ready);
    if follower.delegate.is_some() && !follower.welcomed && waiting {
        world.write_message(FromWire::Read(ToServer::Ready(true)));
    }
}

/// Starts (or starts over) following from the match record.
fn follow_record(world: &mut World, sides: Vec<String>, token: u64, record: &str) {
    let path = Path::new(RECORD_PATH);
    let started = SaveFile::from_text(record, path).and_then(|save| {
        let mods = world.get_resource::<ActiveMods>().cloned().unwrap_or_default().0;
        let template = crate::save::level_of(&save, path, &mods)?;
        crate::save::begin_replay(world, &save, &template, path)?;
        Ok(template)
    });
    let template = match started {
        Ok(started) => started,
        Err(error) => {
            world.resource_mut::<Follower>().refused = Some(error.to_string());
            return;
        }
    };
    let side_indices: Vec<usize> = sides.iter().filter_map(|side| template.side_index(side)).collect();
    *world.resource_mut::<Declarations>() = Declarations::default();
    let mut follower = world.resource_mut::<Follower>();
    follower.welcomed = true;
    follower.welcomes += 1;
    follower.level = Some(template.clone());
    follower.hello.token = token;
    follower.sides = sides;
    follower.checked_passes = 0;
    follower.declared.clear();
    let delegate = follower.delegate;
    match delegate {
        Some(kind) if !side_indices.is_empty() => world.insert_resource(Delegated::for_sides(side_indices, kind)),
        _ => {
            world.remove_resource::<Delegated>();
        }
    }
}

/// Feeds released declarations and seeds to the battle.
fn release(world: &mut World, items: Vec<Release>) {
    for item in items {
        match item {
            Release::Order(order) => {
                if let Some(mut replay) = world.get_resource_mut::<Replay>() {
                    replay.push((&order).into());
                }
            }
            Release::Seed(seed) => {
                world.resource_mut::<Follower>().declared.clear();
                if let Some(mut seeds) = world.get_resource_mut::<PassSeeds>() {
                    seeds.give(seed);
                }
            }
            Release::Forfeit { round, side, player } => forfeited(world, round, &side, &player),
        }
    }
}

/// A side gave up the battle: the rules take its units out as the round ends, and the player
/// reads why.
fn forfeited(world: &mut World, round: u32, side: &str, player: &str) {
    let mut follower = world.resource_mut::<Follower>();
    let text = format!("{side} forfeited: {player} did not return within the grace period");
    follower.notices.push(Notice::Forfeited(text));
    let index = follower.level.as_ref().and_then(|level| level.side_index(side));
    if let Some(side) = index {
        world.write_message(SideForfeited { side, round });
    }
}

/// A refusal: noted, and a local AI's unit may choose again.
fn rejected(world: &mut World, unit: Option<Arc<str>>, reason: String) {
    let text = match &unit {
        Some(unit) => format!("{unit}: {reason}"),
        None => reason,
    };
    world.resource_mut::<Follower>().notices.push(Notice::Rejected(text));
    let Some(unit) = unit else {
        return;
    };
    let mut ids = world.query::<(Entity, &UnitId)>();
    let entity = ids.iter(world).find(|(_, id)| id.0 == unit).map(|(entity, _)| entity);
    let Some(entity) = entity else {
        return;
    };
    if let Some(mut delegated) = world.get_resource_mut::<Delegated>() {
        delegated.chosen.remove(&entity);
    }
    // The player may choose again.
    world.resource_mut::<Declarations>().pending.remove(&entity);
}

/// The referee's lines against ours: the first that differs goes back to the referee, which
/// then sends the record to start over from.
fn out_of_sync(world: &mut World, from: u32, lines: &[String]) {
    let ours: Vec<String> =
        world.resource::<CombatLog>().entries().iter().skip(from as usize).map(|entry| entry.to_json()).collect();
    let at = (0..lines.len().max(ours.len())).find(|&at| lines.get(at) != ours.get(at)).unwrap_or(lines.len());
    let line = from + at as u32;
    let our_line = ours.get(at).cloned().unwrap_or_default();
    let theirs = lines.get(at).cloned().unwrap_or_default();
    let note = format!("out of sync at log line {}: the referee has {theirs}, this copy has {our_line}", line + 1);
    world.resource_mut::<Follower>().notices.push(Notice::Resynced(note));
    world.write_message(FromWire::Read(ToServer::Differs { line, ours: our_line }));
}

/// Sends the local AI's choices to the referee, once each a pass.
fn send_delegated(
    delegated: Option<ResMut<Delegated>>,
    seeds: Option<Res<PassSeeds>>,
    orders: OrderWriter,
    mut last_pass: Local<usize>,
) {
    let (Some(mut delegated), Some(seeds)) = (delegated, seeds) else {
        return;
    };
    let pass = seeds.used().len();
    if pass != *last_pass {
        *last_pass = pass;
        delegated.chosen.clear();
    }
    orders.send(pass, std::mem::take(&mut delegated.outbox));
}

/// Sends the person's declarations to the referee; a new pass forgets which were pending.
fn send_declarations(
    mut declarations: ResMut<Declarations>,
    seeds: Option<Res<PassSeeds>>,
    orders: OrderWriter,
    mut last_pass: Local<usize>,
) {
    let Some(seeds) = seeds else {
        return;
    };
    let pass = seeds.used().len();
    if pass != *last_pass {
        *last_pass = pass;
        declarations.pending.clear();
    }
    let outbox = std::mem::take(&mut declarations.outbox);
    declarations.pending.extend(outbox.iter().map(|(unit, _)| *unit));
    orders.send(pass, outbox);
}

/// Writes declarations as `Declare` messages for the referee.
#[derive(bevy::ecs::system::SystemParam)]
struct OrderWriter<'w, 's> {
    state: Res<'w, CombatState>,
    units: Query<'w, 's, (&'static UnitId, &'static Controller)>,
    ids: Query<'w, 's, &'static UnitId>,
    out: MessageWriter<'w, FromWire>,
}

impl OrderWriter<'_, '_> {
    fn send(mut self, pass: usize, declarations: Vec<(Entity, Action)>) {
        for (unit, action) in declarations {
            let Ok((id, controller)) = self.units.get(unit) else {
                continue;
            };
            let entry = crate::save::declaration_of(self.state.round, id.0.clone(), *controller, &action, |target| {
                self.ids.get(target).ok().map(|target| target.0.clone())
            });
            self.out.write(FromWire::Read(ToServer::Declare { pass: pass as u32, order: Order::from(&entry) }));
        }
    }
}

/// After each pass closes, the hash of the log so far, for the referee to compare.
fn report_hash(
    mut follower: ResMut<Follower>,
    seeds: Option<Res<PassSeeds>>,
    log: Res<CombatLog>,
    mut out: MessageWriter<FromWire>,
) {
    let Some(seeds) = seeds else {
        return;
    };
    let passes = seeds.used().len();
    if !follower.welcomed || passes <= follower.checked_passes {
        return;
    }
    follower.checked_passes = passes;
    let events = log.entries().len();
    let hash = crate::save::log_hash(&log, events);
    out.write(FromWire::Read(ToServer::Checked { events: events as u32, hash }));
}
