//! The online protocol: what a client and the referee say to each other, and how it is read.
//!
//! Only declarations travel. The referee (the server) runs the real battle; every client runs
//! the same engine as a follower, fed the declarations and dice seeds the referee releases, and
//! writes the same log. Messages are replicon client and server messages, encoded with postcard.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_replicon::bytes::Bytes;
use bevy_replicon::prelude::*;
use bevy_replicon::shared::message::ctx::{ClientSendCtx, ServerReceiveCtx};
use serde::{Deserialize, Serialize};

use crate::battlefield::ZoneIdx;
use crate::rules::components::{BonusUses, Controller};
use crate::save::Declaration;
use crate::save::format::{SavedHeld, SavedKind};

/// Bumped whenever a message changes shape: a client and a referee must speak the same one.
/// 3: a client may hold several seats ([`Role::Sides`], the welcome's and lobby's `sides`,
/// [`ToServer::ReadyAs`]), and a side may forfeit
/// (`Release::Forfeit`, a seat's `forfeited`).
pub const PROTOCOL_VERSION: u32 = 3;

/// The largest client message the referee reads, in bytes. A declaration is well under 200;
/// anything past this is refused unread.
pub const MAX_CLIENT_MESSAGE: usize = 2048;

/// The longest chat line, in characters; longer lines are cut.
pub const MAX_CHAT_CHARS: usize = 400;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// What a client may ask to be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// The player of this side, by name.
    Side(String),
    /// Any free player's seat.
    AnySide,
    /// A spectator: sees what is public, declares nothing.
    Spectator,
    /// The players of these sides, by name, played at one machine (hot-seat): every one of
    /// them, or none.
    Sides(Vec<String>),
}

/// The first thing a client says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// The client's Fray version.
    pub fray: String,
    /// The client's [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The player's name.
    pub name: String,
    /// The session token of a player rejoining (from the welcome it was given), or 0.
    pub token: u64,
    /// What it wants to be.
    pub role: Role,
    /// The key that makes this client the host who starts the battle from the lobby, or 0.
    pub host_key: u64,
}

impl Hello {
    /// The hello of a newcomer (no token) called `name` who wants to be `role`; the version
    /// fields are filled in when it is sent.
    pub fn new(name: &str, role: Role) -> Self {
        Self { fray: String::new(), protocol: 0, name: name.into(), token: 0, role, host_key: 0 }
    }
}

/// A declaration as it travels: a save's [`Declaration`], with every field always present
/// (postcard needs a fixed shape).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// The round it is for.
    pub round: u32,
    /// The declaring unit's level id.
    pub unit: Arc<str>,
    /// Who made it.
    pub by: Controller,
    /// What.
    pub kind: SavedKind,
    /// At whom, by level id.
    pub target: Option<Arc<str>>,
    /// The zone (or square) moved to first.
    pub move_to: Option<ZoneIdx>,
    /// The Bonus Actions chosen.
    pub bonus: Option<BonusUses>,
    /// Where a shove, drag or hurl sends its foe.
    pub push_to: Option<ZoneIdx>,
    /// Where the unit moves once its action is done.
    pub move_after: Option<ZoneIdx>,
    /// A held action's plan: what, at whom, where.
    pub held: Option<(SavedKind, Option<Arc<str>>, Option<ZoneIdx>)>,
}

impl From<&Declaration> for Order {
    fn from(entry: &Declaration) -> Self {
        Self {
            round: entry.round,
            unit: entry.unit.clone(),
            by: entry.by,
            kind: entry.kind,
            target: entry.target.clone(),
            move_to: entry.move_to,
            bonus: entry.bonus,
            push_to: entry.push_to,
            move_after: entry.move_after,
            held: entry.held.as_ref().map(|plan| (plan.kind, plan.target.clone(), plan.move_to)),
        }
    }
}

impl From<&Order> for Declaration {
    fn from(order: &Order) -> Self {
        Self {
            round: order.round,
            unit: order.unit.clone(),
            by: order.by,
            kind: order.kind,
            target: order.target.clone(),
            move_to: order.move_to,
            bonus: order.bonus,
            push_to: order.push_to,
            move_after: order.move_after,
            held: order.held.as_ref().map(|(kind, target, move_to)| SavedHeld {
                kind: *kind,
                target: target.clone(),
                move_to: *move_to,
            }),
        }
    }
}

/// What a client says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToServer {
    /// The handshake.
    Hello(Hello),
    /// A declaration for the pass numbered `pass` (the passes the client has seen close).
    Declare {
        /// Passes closed before this one.
        pass: u32,
        /// The declaration.
        order: Order,
    },
    /// The out-of-sync check, after each pass: the hash of the client's first `events` log lines.
    Checked {
        /// Log lines hashed.
        events: u32,
        /// Their hash ([`crate::save::log_hash`]).
        hash: String,
    },
    /// Where the client's log first differs from lines the referee sent (`None`: it does not).
    Differs {
        /// The line's place in the log, from 0.
        line: u32,
        /// The client's line there (empty if it has none).
        ours: String,
    },
    /// A chat line.
    Chat(String),
    /// In the lobby: this player is ready to start (or no longer is).
    Ready(bool),
    /// In the lobby: the host starts the battle.
    Start,
    /// In the lobby: the player of this one of our sides is ready (or no longer is); `Ready`
    /// marks every side we hold.
    ReadyAs {
        /// The side, by name.
        side: String,
        /// Ready or not.
        ready: bool,
    },
}

/// A client message as the referee reads it: a message, or why it could not be read.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum FromWire {
    /// A message.
    Read(ToServer),
    /// Bytes that do not read as a message.
    Unreadable {
        /// How many.
        bytes: usize,
    },
    /// More bytes than [`MAX_CLIENT_MESSAGE`].
    Oversized {
        /// How many.
        bytes: usize,
    },
}

/// One item of the match record as it is released: a declaration, or the seed a pass closed with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Release {
    /// An accepted declaration.
    Order(Order),
    /// A pass closed: the dice roll from this seed until the next one.
    Seed(u64),
    /// A side gave up the battle, its player gone past the grace period: its units leave the
    /// fight as round `round` ends.
    Forfeit {
        /// The round at whose end its units leave.
        round: u32,
        /// The side's name.
        side: String,
        /// Its player's name.
        player: String,
    },
}

/// What a seat is doing, for the players' list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatState {
    /// No one has taken it yet.
    Open,
    /// Its player is connected.
    Connected,
    /// Its player dropped; the seat waits this many more seconds.
    Away {
        /// Seconds left of the grace period.
        seconds_left: u32,
    },
    /// An AI plays it on the referee.
    Ai(crate::rules::components::AiKind),
    /// It gave up the battle.
    Forfeited,
}

/// One seat in the players' list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The side's name.
    pub side: String,
    /// Its player's name, if it has one.
    pub player: Option<String>,
    /// What it is doing.
    pub state: SeatState,
    /// In the lobby: whether its player said they are ready.
    pub ready: bool,
    /// With a chess clock: the seconds left on the side's clock.
    pub clock_left: Option<u32>,
}

/// How a lobby's battle starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LobbyStart {
    /// The host starts it once every player is ready.
    ByHost,
    /// It starts by itself once every player's seat is taken and ready.
    WhenReady,
}

/// What the referee says to a client.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToClient {
    /// The handshake's answer: the match record so far, as a save (RON), to follow from.
    Welcome {
        /// The sides the client plays (none for a spectator; several for a hot-seat machine).
        sides: Vec<String>,
        /// The token that lets this player rejoin its seat.
        token: u64,
        /// The match record: the released declarations and seeds, as a save file's text.
        record: String,
    },
    /// The handshake's answer while the lobby is open: a seat (or a spectator's place), and the
    /// welcome with the record follows when the battle starts.
    Lobby {
        /// The level's title.
        level: String,
        /// The sides the client plays (none for a spectator).
        sides: Vec<String>,
        /// Whether this client is the host, who starts the battle.
        host: bool,
        /// How the battle starts.
        start: LobbyStart,
    },
    /// The handshake failed; the connection closes.
    Refused {
        /// Why, in plain words.
        reason: String,
    },
    /// New items of the match record, in order.
    Released(Vec<Release>),
    /// A unit declared on a secret pass: what it declared stays with the referee until the
    /// pass closes.
    Declared {
        /// The unit's level id.
        unit: Arc<str>,
    },
    /// A declaration of this client's was refused; the battle goes on.
    Rejected {
        /// The unit, if the message named one.
        unit: Option<Arc<str>>,
        /// Why.
        reason: String,
    },
    /// Who sits where, and what each seat is doing.
    Seats(Vec<SeatInfo>),
    /// A chat line.
    Chat {
        /// Who said it.
        from: String,
        /// What.
        text: String,
    },
    /// The out-of-sync check failed: the referee's log lines from `from` on, to find the first
    /// that differs.
    OutOfSync {
        /// The place of the first line sent.
        from: u32,
        /// The referee's lines, as JSON.
        lines: Vec<String>,
    },
    /// The battle is over.
    Ended,
}

/// Registers the messages, with a version check folded into replicon's protocol hash.
pub(super) fn plugin(app: &mut App) {
    app.world_mut().resource_mut::<ProtocolHasher>().add_custom((env!("CARGO_PKG_VERSION"), PROTOCOL_VERSION));
    app.add_client_message_with(Channel::Ordered, write_to_server, read_from_client);
    app.add_server_message::<ToClient>(Channel::Ordered);
}

/// The client side of [`FromWire`]: only messages are ever sent.
fn write_to_server(_ctx: &mut ClientSendCtx, message: &FromWire, bytes: &mut Vec<u8>) -> Result<()> {
    match message {
        FromWire::Read(message) => {
            *bytes = bevy_replicon::postcard::to_extend(message, std::mem::take(bytes))?;
            Ok(())
        }
        other => Err(format!("{other:?} is what the referee makes of bad bytes, not a message to send").into()),
    }
}

/// The referee side: bad bytes become a refusal to give, never a dropped message.
fn read_from_client(_ctx: &mut ServerReceiveCtx, bytes: &mut Bytes) -> Result<FromWire> {
    let length = bytes.len();
    let read = if length > MAX_CLIENT_MESSAGE {
        FromWire::Oversized { bytes: length }
    } else {
        match bevy_replicon::postcard::from_bytes::<ToServer>(bytes) {
            Ok(message) => FromWire::Read(message),
            Err(_) => FromWire::Unreadable { bytes: length },
        }
    };
    // Every byte is taken, read or not.
    let _ = bytes.split_to(length);
    Ok(read)
}

/// Raw bytes as a client could send them, for tests of garbage and oversized messages.
pub fn raw_bytes(message: &ToServer) -> Vec<u8> {
    bevy_replicon::postcard::to_extend(message, Vec::new()).unwrap_or_default()
}
