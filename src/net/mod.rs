//! Online play: a referee (server) that runs the battle, and followers (clients) that replay it
//! from the declarations and dice seeds the referee releases. See `docs/online.md`.

pub mod bench;
pub mod follower;
pub mod protocol;
pub mod referee;
pub mod transport;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;

pub use follower::LobbyPlace;
pub use follower::{Declarations, Follower, Notice};
pub use protocol::LobbyStart;
pub use protocol::{Hello, Role, ToClient, ToServer};
pub use referee::{AfterGrace, ChessClock, Lobby, Referee, RefereeConfig, SeatPlan};

use crate::ai::AiSeed;
use crate::levels::{BattleSetup, BattleTemplate};
use crate::rules::PassSeeds;
use crate::rules::components::Controller;

/// How an online app reaches the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// No sockets: a test moves the messages between apps in one process.
    InProcess,
    /// UDP through renet's netcode transport.
    Udp,
}

/// Keeps the AI seats' stream apart from the dice seeds drawn from the same secret.
const AI_SECRET_STREAM: u64 = 0xA15EED;

/// An app with the engine and the protocol, ready for a referee's or a follower's part.
fn online_app(link: Link) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        // Every update is a tick: messages go out the update they are written.
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
        protocol::plugin,
        crate::headless_plugin,
    ));
    if link == Link::Udp {
        app.add_plugins(bevy_replicon_renet::RepliconRenetPlugins);
    }
    app
}

/// What the window game adds to follow a referee over UDP (it has its own window, states and
/// engine): the transport, the protocol and the follower.
pub fn window_follower_plugin(app: &mut App) {
    app.add_plugins((
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
        protocol::plugin,
        follower::plugin,
        transport::plugin,
        bevy_replicon_renet::RepliconRenetPlugins,
    ));
}

/// Sends a chat line to the referee.
pub fn say(world: &mut World, text: String) {
    send(world, ToServer::Chat(text));
}

/// Sends `message` to the referee.
pub fn send(world: &mut World, message: ToServer) {
    world.write_message(protocol::FromWire::Read(message));
}

/// The referee's app for a battle on `template`: the battle is spawned and waits for its players.
pub fn referee_app(template: BattleTemplate, config: RefereeConfig, link: Link) -> App {
    let mut app = online_app(link);
    app.add_plugins(referee::plugin);
    app.finish();
    app.cleanup();
    let controllers = config
        .seats
        .iter()
        .enumerate()
        .map(|(side, plan)| {
            let controller = match plan {
                SeatPlan::Remote => Controller::Human,
                SeatPlan::Ai(kind) => Controller::Ai(*kind),
            };
            (side, controller)
        })
        .collect();
    let world = app.world_mut();
    world.insert_resource(AiSeed(config.secret ^ AI_SECRET_STREAM));
    world.insert_resource(PassSeeds::drawn_from(config.secret));
    template.spawn(world, &BattleSetup { seed: config.seed, controllers, record_log: true });
    let header = crate::save::capture(world, &template);
    world.insert_resource(Referee::new(template, config, header));
    app
}

/// A follower's app: it says `hello` once connected and follows the battle it is welcomed to.
pub fn follower_app(hello: Hello, delegate: Option<crate::rules::components::AiKind>, link: Link) -> App {
    let mut app = online_app(link);
    app.add_plugins((follower::plugin, transport::plugin));
    app.finish();
    app.cleanup();
    app.insert_resource(Follower::new(hello, delegate));
    app
}
