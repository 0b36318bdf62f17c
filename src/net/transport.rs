//! Sockets: renet's netcode transport over UDP, for a referee that listens and a client that
//! connects. Unsecure mode (no connect tokens) is for play on a LAN or through a forwarded port.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::SystemTime;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication, ServerConfig,
};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RenetClient, RenetServer};

/// Netcode's protocol id: Fray's name in ASCII, so other games' packets are ignored.
const NETCODE_PROTOCOL: u64 = 0x4652_4159;

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

/// Listens on `port` of every interface (0 picks a free port); returns the address it listens on.
pub fn listen(app: &mut App, port: u16) -> Result<SocketAddr, LinkError> {
    let address = SocketAddr::from((Ipv4Addr::UNSPECIFIED, port));
    let socket =
        UdpSocket::bind(address).map_err(|source| LinkError::Socket { address: address.to_string(), source })?;
    let local = socket.local_addr().map_err(|source| LinkError::Socket { address: address.to_string(), source })?;
    let public = SocketAddr::from((Ipv4Addr::LOCALHOST, local.port()));
    let config = ServerConfig {
        current_time: now(),
        max_clients: MAX_CLIENTS,
        protocol_id: NETCODE_PROTOCOL,
        authentication: ServerAuthentication::Unsecure,
        public_addresses: vec![public, local],
    };
    let transport =
        NetcodeServerTransport::new(config, socket).map_err(|error| LinkError::Transport(error.to_string()))?;
    let server = RenetServer::new(connection(app.world()));
    app.insert_resource(server);
    app.insert_resource(transport);
    Ok(public)
}

/// Connects to the referee at `server`.
pub fn connect(app: &mut App, server: SocketAddr) -> Result<(), LinkError> {
    connect_world(app.world_mut(), server)
}

/// Connects to the referee at `server` from a running app (the window's Join game).
pub fn connect_world(world: &mut World, server: SocketAddr) -> Result<(), LinkError> {
    let address = SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0));
    let socket =
        UdpSocket::bind(address).map_err(|source| LinkError::Socket { address: address.to_string(), source })?;
    let client_id = super::referee::fresh_secret();
    let authentication = ClientAuthentication::Unsecure {
        client_id,
        protocol_id: NETCODE_PROTOCOL,
        server_addr: server,
        user_data: None,
    };
    let transport = NetcodeClientTransport::new(now(), authentication, socket)
        .map_err(|error| LinkError::Transport(error.to_string()))?;
    let client = RenetClient::new(connection(world));
    world.insert_resource(client);
    world.insert_resource(transport);
    Ok(())
}
