//! Sockets: renet's netcode transport over UDP, for a referee that listens and a client that
//! connects. With a game password, netcode's secure mode: the password is stretched into the
//! private key, each client makes its connect token with it, and every packet is encrypted.
//! Without one, unsecure mode: for a LAN, loopback and tests.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{
    ClientAuthentication, ConnectToken, NETCODE_KEY_BYTES, NetcodeClientTransport, NetcodeServerTransport,
    ServerAuthentication, ServerConfig,
};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RenetClient, RenetServer};

/// Netcode's protocol id: Fray's name in ASCII, so other games' packets are ignored.
const NETCODE_PROTOCOL: u64 = 0x4652_4159;

/// How long a client's connect token stays good, in seconds: long enough to reach the referee.
const CONNECT_TOKEN_SECONDS: u64 = 300;

/// Seconds without a packet before netcode drops a secure connection.
const CONNECTION_TIMEOUT_SECONDS: i32 = 15;

/// The salt the game password is stretched with: the same for every game, so both ends
/// derive the same key from the password alone.
const PASSWORD_SALT: &[u8] = b"fray netcode key v1";

/// A game password: a host's referee admits only clients that know it.
#[derive(Clone, PartialEq, Eq)]
pub struct GamePassword(String);

impl std::fmt::Debug for GamePassword {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("GamePassword(..)")
    }
}

impl GamePassword {
    /// The password typed by the host or the player; an empty one is no password.
    pub fn new(text: &str) -> Option<Self> {
        (!text.is_empty()).then(|| Self(text.to_string()))
    }

    /// Netcode's private key, stretched from the password with Argon2id so that a captured
    /// handshake does not give up a password by quick guessing.
    fn key(&self) -> Result<[u8; NETCODE_KEY_BYTES], LinkError> {
        let mut key = [0; NETCODE_KEY_BYTES];
        argon2::Argon2::default()
            .hash_password_into(self.0.as_bytes(), PASSWORD_SALT, &mut key)
            .map_err(|error| LinkError::Transport(format!("the game password could not be used: {error}")))?;
        Ok(key)
    }
}

/// Most clients (players and spectators) one referee takes at once.
pub const MAX_CLIENTS: usize = 64;

/// Why the network could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The socket.
    #[error("could not open the UDP socket on {address}: {source}")]
    Socket {
        /// Where.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// Netcode refused to start.
    #[error("the network transport did not start: {0}")]
    Transport(String),
}

fn connection(world: &World) -> ConnectionConfig {
    let channels = world.resource::<RepliconChannels>();
    ConnectionConfig {
        server_channels_config: channels.server_configs(),
        client_channels_config: channels.client_configs(),
        ..Default::default()
    }
}

fn now() -> std::time::Duration {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default()
}

/// Listens on `port` of every interface (0 picks a free port), in secure mode when there is a
/// `password`; returns the address it listens on.
pub fn listen(app: &mut App, port: u16, password: Option<&GamePassword>) -> Result<SocketAddr, LinkError> {
    let address = SocketAddr::from((Ipv4Addr::UNSPECIFIED, port));
    let socket =
        UdpSocket::bind(address).map_err(|source| LinkError::Socket { address: address.to_string(), source })?;
    let local = socket.local_addr().map_err(|source| LinkError::Socket { address: address.to_string(), source })?;
    let public = SocketAddr::from((Ipv4Addr::LOCALHOST, local.port()));
    let config = ServerConfig {
        current_time: now(),
        max_clients: MAX_CLIENTS,
        protocol_id: NETCODE_PROTOCOL,
        authentication: match password {
            Some(password) => ServerAuthentication::Secure { private_key: password.key()? },
            None => ServerAuthentication::Unsecure,
        },
        // A client's token names the address it dials and this one, the address the socket is
        // bound to, which is the same however the referee is reached (LAN, forwarded port).
        public_addresses: vec![public, local],
    };
    let transport =
        NetcodeServerTransport::new(config, socket).map_err(|error| LinkError::Transport(error.to_string()))?;
    let server = RenetServer::new(connection(app.world()));
    app.insert_resource(server);
    app.insert_resource(transport);
    Ok(public)
}

/// Connects to the referee at `server`, with the game's password if it has one.
pub fn connect(app: &mut App, server: SocketAddr, password: Option<&GamePassword>) -> Result<(), LinkError> {
    connect_world(app.world_mut(), server, password)
}

/// How long a follower whose connection dropped waits before it tries the referee again.
pub const RETRY_EVERY: Duration = Duration::from_secs(2);

/// Where a follower connected to, so that it can connect again by itself when the link drops.
#[derive(Resource, Clone, Debug)]
pub struct Reconnect {
    /// The referee.
    pub server: SocketAddr,
    /// The game's password, if any.
    pub password: Option<GamePassword>,
    /// Tries made since the link last dropped.
    pub tries: u32,
    /// When the link was seen down, by the app's clock.
    down_since: Option<Duration>,
}

/// The follower's side of a dropped link: while the battle goes on, it connects again every
/// [`RETRY_EVERY`], and the referee gives the seat back by the token of its welcome.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, retry_dropped_link.run_if(resource_exists::<Reconnect>));
}

fn retry_dropped_link(world: &mut World) {
    let now = world.resource::<Time<Real>>().elapsed();
    let down = *world.resource::<State<ClientState>>().get() == ClientState::Disconnected;
    let follower = world.get_resource::<super::Follower>();
    // Only a battle in progress is worth coming back to; a refusal is final.
    let wanted = follower.is_some_and(|f| (f.welcomed || f.lobby.is_some()) && !f.ended && f.refused.is_none());
    let mut reconnect = world.resource_mut::<Reconnect>();
    if !down || !wanted {
        reconnect.down_since = None;
        return;
    }
    let since = *reconnect.down_since.get_or_insert(now);
    if now.saturating_sub(since) < RETRY_EVERY {
        return;
    }
    reconnect.down_since = Some(now);
    reconnect.tries += 1;
    let (server, password) = (reconnect.server, reconnect.password.clone());
    if let Err(error) = connect_world(world, server, password.as_ref()) {
        world.resource_mut::<super::Follower>().notices.push(super::Notice::Rejected(error.to_string()));
    }
}

/// Connects to the referee at `server` from a running app (the window's Join game).
pub fn connect_world(world: &mut World, server: SocketAddr, password: Option<&GamePassword>) -> Result<(), LinkError> {
    let address = SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0));
    let socket =
        UdpSocket::bind(address).map_err(|source| LinkError::Socket { address: address.to_string(), source })?;
    let client_id = super::referee::fresh_secret();
    let authentication = match password {
        Some(password) => {
            let bound = SocketAddr::from((Ipv4Addr::UNSPECIFIED, server.port()));
            let connect_token = ConnectToken::generate(
                now(),
                NETCODE_PROTOCOL,
                CONNECT_TOKEN_SECONDS,
                client_id,
                CONNECTION_TIMEOUT_SECONDS,
                vec![server, bound],
                None,
                &password.key()?,
            )
            .map_err(|error| LinkError::Transport(error.to_string()))?;
            ClientAuthentication::Secure { connect_token }
        }
        None => ClientAuthentication::Unsecure {
            client_id,
            protocol_id: NETCODE_PROTOCOL,
            server_addr: server,
            user_data: None,
        },
    };
    let transport = NetcodeClientTransport::new(now(), authentication, socket)
        .map_err(|error| LinkError::Transport(error.to_string()))?;
    let client = RenetClient::new(connection(world));
    // A fresh client, not a changed one: replicon's transport counts it as connecting anew.
    world.remove_resource::<RenetClient>();
    world.remove_resource::<NetcodeClientTransport>();
    world.insert_resource(client);
    world.insert_resource(transport);
    let tries = world.get_resource::<Reconnect>().map_or(0, |reconnect| reconnect.tries);
    world.insert_resource(Reconnect { server, password: password.cloned(), tries, down_since: None });
    Ok(())
}
