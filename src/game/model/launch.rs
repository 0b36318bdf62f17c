//! How the window game starts: the command line's level, seats, seed, files and modes, and
//! whom to join online.

use std::net::SocketAddr;
use std::path::PathBuf;

use bevy::prelude::*;

use super::playback::PlaybackSource;
use super::session::{LevelSource, Seat};
use crate::net::Hello;
use crate::net::transport::GamePassword;

/// How the window game starts.
#[derive(Resource, Clone, Debug, Default)]
pub struct LaunchOptions {
    /// Skip the menu and start this level (a path, or a built-in file name).
    pub level: Option<LevelSource>,
    /// Seats chosen on the command line: (side name, seat).
    pub seats: Vec<(String, Seat)>,
    /// Seed of the first battle.
    pub seed: Option<u64>,
    /// Save menu, mid-battle and game-over screenshots here and quit (the real-window test);
    /// with a script, where its screenshots go.
    pub screenshots: Option<PathBuf>,
    /// Play this script of key presses, clicks and checks, then quit (real-window tests).
    pub script: Option<PathBuf>,
    /// The key bindings file.
    pub settings: Option<PathBuf>,
    /// Start with every sound off (`--mute`; the real-window tests).
    pub mute: bool,
    /// Go on with this saved battle (`fray play --load`).
    pub load: Option<PathBuf>,
    /// Play this recorded battle back (`fray replay FILE`).
    pub playback: Option<PlaybackSource>,
    /// Follow this referee's battle (`fray join` in the window).
    pub join: Option<JoinOptions>,
    /// The `--mod` folders, in command-line order: the Mods screen loads them after the
    /// installed mods it enables, and a battle hosted from the menu is served with them.
    pub mod_folders: Vec<PathBuf>,
}

/// Whom to join, from `fray join` or the menu.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    /// The referee's address.
    pub server: SocketAddr,
    /// What we say when we connect.
    pub hello: Hello,
    /// The game's password, if the host set one.
    pub password: Option<GamePassword>,
}
