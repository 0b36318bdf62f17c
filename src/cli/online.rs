//! `fray serve` (a dedicated referee) and `fray join --headless` (a client whose seat a local AI
//! plays, or a spectator): online play from the command line.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::CommandMods;
use crate::levels::mods::{ActiveMods, ModSet};
use crate::levels::{DEFAULT_LEVEL, load_builtin_level, load_level_or_builtin};
use crate::net::{
    AfterGrace, ChessClock, Follower, Hello, Link, Lobby, LobbyStart, Referee, RefereeConfig, Role, SeatPlan,
};
use crate::rules::CombatState;
use crate::rules::components::AiKind;
use crate::rules::log::CombatLog;

/// Pause between updates of a command-line referee or client: it waits on the network, and a
/// few milliseconds keep a declaration's round trip short without spinning a core.
const FRAME: Duration = Duration::from_millis(2);

/// Updates after the battle ends, so the last messages leave before the process exits.
const FLUSH_UPDATES: u32 = 50;

/// How long a headless client waits for a connection or a battle that does not move.
const CLIENT_PATIENCE: Duration = Duration::from_secs(30);

/// `fray serve`: a dedicated headless referee for one battle.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The level (`.ron`), or a shipped one by file name or level name.
    pub level: Option<PathBuf>,
    /// The UDP port to listen on; 0 picks a free one (the printed line names it).
    #[arg(long, default_value_t = 5000)]
    pub port: u16,
    /// How a side is played: `SIDE=remote` (a player who joins) or `SIDE=ai:KIND` (repeatable);
    /// sides not named are remote.
    #[arg(long = "seat", value_name = "SIDE=remote|ai:KIND")]
    pub seats: Vec<String>,
    /// Seconds a unit has to declare; on expiry it holds.
    #[arg(long, value_name = "SECONDS")]
    pub clock: Option<f64>,
    /// A chess clock per side, `BANK+INCREMENT` in seconds (`600+10`: ten minutes for all of a
    /// side's declarations, ten seconds back for each); a side out of time holds.
    #[arg(long, value_name = "BANK+INCREMENT")]
    pub chess_clock: Option<String>,
    /// Open a lobby first: players take their seats and chat, and the battle starts once every
    /// player's seat is taken and ready.
    #[arg(long)]
    pub lobby: bool,
    /// With --lobby: the key that makes a client the host, who starts the battle (the window's
    /// Host game passes it; without it the battle starts when everyone is ready).
    #[arg(long, hide = true, requires = "lobby")]
    pub host_key: Option<u64>,
    /// Seconds a dropped player's seat waits for them, its clock stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0)]
    pub grace: f64,
    /// What then: `wait` (however long it takes), `ai:KIND` (that AI plays the seat) or
    /// `forfeit` (the side gives up the battle as the round ends).
    #[arg(long, value_name = "wait|ai:KIND|forfeit", default_value = "ai:greedy")]
    pub after_grace: String,
    /// A game password: only clients that know it get in, and every packet is encrypted
    /// (netcode's secure mode). Without one, anyone who reaches the port may join.
    #[arg(long, env = "FRAY_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,
    /// Where to write the combat log (JSON Lines).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Where to write the battle's save (`fray replay --verify` checks it).
    #[arg(long)]
    pub save: Option<PathBuf>,
}

/// `fray join`: joins a referee's battle.
#[derive(Debug, clap::Args)]
pub struct JoinArgs {
    /// The referee's address, `HOST:PORT`.
    pub address: String,
    /// The name the other players see.
    #[arg(long, default_value = "player")]
    pub name: String,
    /// The side to play (any free one if left out). Repeat it to hold several sides at this
    /// machine: in the window they are played hot-seat, the curtain between them; headless,
    /// `--ai` plays them all.
    #[arg(long, conflicts_with = "spectate")]
    pub side: Vec<String>,
    /// Watch, declaring nothing.
    #[arg(long)]
    pub spectate: bool,
    /// The game's password, if the host set one.
    #[arg(long, env = "FRAY_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,
    /// No window: the seat is played by `--ai` (a spectator just follows).
    #[arg(long)]
    pub headless: bool,
    /// The AI that plays the seat in a headless client.
    #[arg(long, value_name = "KIND", default_value = "greedy")]
    pub ai: String,
    /// Where to write the combat log (JSON Lines).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Where to write every message received, one JSON object a line, with its pass.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// In the window: play a script of key presses, clicks and checks (tests/scripts/*.ron),
    /// then quit; exits non-zero if a check fails.
    #[arg(long, value_name = "FILE", conflicts_with = "headless")]
    pub script: Option<PathBuf>,
    /// In the window, with --script: where the script's screenshots go.
    #[arg(long, value_name = "DIR", requires = "script")]
    pub screenshots: Option<PathBuf>,
}

fn load(level: Option<&Path>, mods: &ModSet) -> Result<crate::levels::BattleTemplate, String> {
    let loaded = match level {
        Some(path) => load_level_or_builtin(path, mods),
        None => load_builtin_level(DEFAULT_LEVEL, mods),
    };
    loaded.map_err(|errors| errors.to_string())
}

/// Reads `--seat` pairs into a plan per side.
fn seat_plans(template: &crate::levels::BattleTemplate, pairs: &[String]) -> Result<Vec<SeatPlan>, String> {
    let mut plans = vec![SeatPlan::Remote; template.sides.len()];
    for pair in pairs {
        let (side, how) =
            pair.split_once('=').ok_or_else(|| format!("--seat {pair}: expected SIDE=remote or SIDE=ai:KIND"))?;
        let at = template.side_index(side).ok_or_else(|| {
            let names: Vec<&str> = template.sides.iter().map(|side| &*side.name).collect();
            format!("--seat {pair}: {}", crate::levels::error::not_found("side", side, &names))
        })?;
        plans[at] = match how.strip_prefix("ai:") {
            None if how == "remote" => SeatPlan::Remote,
            None => return Err(format!("--seat {pair}: expected remote or ai:KIND after the `=`")),
            Some(kind) => SeatPlan::Ai(parse_ai(kind).map_err(|error| format!("--seat {pair}: {error}"))?),
        };
    }
    Ok(plans)
}

fn parse_ai(kind: &str) -> Result<AiKind, String> {
    AiKind::parse(kind).ok_or_else(|| format!("unknown AI \"{kind}\"; expected one of {}", AiKind::NAMES.join(", ")))
}

fn after_grace(value: &str) -> Result<AfterGrace, String> {
    match value.strip_prefix("ai:") {
        None if value == "wait" => Ok(AfterGrace::Wait),
        None if value == "forfeit" => Ok(AfterGrace::Forfeit),
        None => Err(format!("--after-grace {value}: expected wait, ai:KIND or forfeit")),
        Some(kind) => parse_ai(kind).map(AfterGrace::Ai).map_err(|error| format!("--after-grace {value}: {error}")),
    }
}

fn seconds(value: f64, flag: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(value).map_err(|_| format!("{flag} {value}: expected a number of seconds, 0 or more"))
}

/// Reads `--chess-clock BANK+INCREMENT`.
fn chess_clock(value: &str) -> Result<ChessClock, String> {
    let wrong = || format!("--chess-clock {value}: expected BANK+INCREMENT in seconds, such as 600+10");
    let (bank, increment) = value.split_once('+').ok_or_else(wrong)?;
    let number =
        |text: &str| text.trim().parse::<f64>().ok().and_then(|seconds| Duration::try_from_secs_f64(seconds).ok());
    Ok(ChessClock { bank: number(bank).ok_or_else(wrong)?, increment: number(increment).ok_or_else(wrong)? })
}

/// The lobby `fray serve` was asked for.
fn lobby_of(args: &ServeArgs) -> Option<Lobby> {
    let lobby = match args.host_key {
        Some(host_key) => Lobby { start: LobbyStart::ByHost, host_key },
        None => Lobby { start: LobbyStart::WhenReady, host_key: 0 },
    };
    args.lobby.then_some(lobby)
}

/// The game password from `--password` (or `FRAY_PASSWORD`).
fn password(text: &Option<String>) -> Option<crate::net::transport::GamePassword> {
    text.as_deref().and_then(crate::net::transport::GamePassword::new)
}

/// Runs `fray serve`.
/// Runs `fray serve`, its level loaded with `mods`.
pub fn serve(args: &ServeArgs, mods: &ModSet) -> ExitCode {
    match try_serve(args, mods) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("fray serve: {error}");
            ExitCode::FAILURE
        }
    }
}

fn try_serve(args: &ServeArgs, mods: &ModSet) -> Result<(), String> {
    let template = load(args.level.as_deref(), mods)?;
    let config = RefereeConfig {
        grace: seconds(args.grace, "--grace")?,
        after_grace: after_grace(&args.after_grace)?,
        clock: args.clock.map(|clock| seconds(clock, "--clock")).transpose()?,
        chess_clock: args.chess_clock.as_deref().map(chess_clock).transpose()?,
        lobby: lobby_of(args),
        ..RefereeConfig::new(
            seat_plans(&template, &args.seats)?,
            crate::net::referee::fresh_secret(),
            crate::net::referee::fresh_secret(),
        )
    };
    let mut app = crate::net::referee_app(template.clone(), config, Link::Udp);
    let address = crate::net::transport::listen(&mut app, args.port, password(&args.password).as_ref())
        .map_err(|error| error.to_string())?;
    say!("listening on {address}");
    let mut noted = 0;
    loop {
        app.update();
        let referee = app.world().resource::<Referee>();
        for note in &referee.notes[noted..] {
            eprintln!("{note}");
        }
        noted = referee.notes.len();
        if app.world().resource::<CombatState>().is_over() {
            break;
        }
        std::thread::sleep(FRAME);
    }
    for _ in 0..FLUSH_UPDATES {
        app.update();
        std::thread::sleep(FRAME);
    }
    write_log(app.world(), args.log.as_deref())?;
    if let Some(path) = &args.save {
        let save = crate::save::capture(app.world_mut(), &template);
        save.write(path).map_err(|error| error.to_string())?;
    }
    Ok(())
}

fn write_log(world: &World, path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let text = world.resource::<CombatLog>().to_json_lines();
    crate::files::write_atomically(path, text.as_bytes())
        .map_err(|error| format!("could not write the log {}: {error}", path.display()))
}

/// Runs `fray join`; the referee's level loads with `mods`.
pub fn join(args: &JoinArgs, mods: &CommandMods) -> ExitCode {
    if !args.headless {
        #[cfg(feature = "gui")]
        return join_in_window(args, mods);
        #[cfg(not(feature = "gui"))]
        {
            eprintln!("fray join: built without the window game; add --headless with --ai KIND or --spectate");
            return ExitCode::from(2);
        }
    }
    match try_join(args, &mods.set) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("fray join: {error}");
            ExitCode::FAILURE
        }
    }
}

fn resolve(address: &str) -> Result<SocketAddr, String> {
    address
        .to_socket_addrs()
        .map_err(|error| format!("{address}: {error}; expected HOST:PORT"))?
        .next()
        .ok_or_else(|| format!("{address}: no address found"))
}

/// The hello of a client joining as `args` say.
fn hello_of(args: &JoinArgs) -> Hello {
    let role = match (args.side.as_slice(), args.spectate) {
        (_, true) => Role::Spectator,
        ([], false) => Role::AnySide,
        ([side], false) => Role::Side(side.clone()),
        (sides, false) => Role::Sides(sides.to_vec()),
    };
    Hello::new(&args.name, role)
}

#[cfg(feature = "gui")]
/// `fray join` in the window: the game follows the referee's battle, the player declares for
/// their side with the mouse and keys.
fn join_in_window(args: &JoinArgs, mods: &CommandMods) -> ExitCode {
    let server = match resolve(&args.address) {
        Ok(server) => server,
        Err(error) => {
            eprintln!("fray join: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(script) = &args.script
        && let Err(error) = crate::game::script::load(script)
    {
        eprintln!("{error}");
        return ExitCode::from(2);
    }
    let options = crate::game::LaunchOptions {
        screenshots: args.screenshots.clone(),
        script: args.script.clone(),
        join: Some(crate::game::model::launch::JoinOptions {
            server,
            hello: hello_of(args),
            password: password(&args.password),
        }),
        ..Default::default()
    };
    super::play::open_window(options, mods)
}

fn try_join(args: &JoinArgs, mods: &ModSet) -> Result<(), String> {
    let server = resolve(&args.address)?;
    let delegate = (!args.spectate).then(|| parse_ai(&args.ai)).transpose()?;
    let hello = hello_of(args);
    let mut app = crate::net::follower_app(hello, delegate, Link::Udp);
    app.insert_resource(ActiveMods(mods.clone()));
    if let Some(path) = &args.trace {
        app.world_mut()
            .resource_mut::<Follower>()
            .trace_to(path)
            .map_err(|error| format!("could not write the trace {}: {error}", path.display()))?;
    }
    crate::net::transport::connect(&mut app, server, password(&args.password).as_ref())
        .map_err(|error| error.to_string())?;
    let mut last_progress = Instant::now();
    let mut last_log = 0;
    let mut notices = 0;
    loop {
        app.update();
        let follower = app.world().resource::<Follower>();
        for notice in &follower.notices[notices..] {
            eprintln!("{notice:?}");
        }
        notices = follower.notices.len();
        if let Some(reason) = &follower.refused {
            return Err(format!("the referee refused us: {reason}"));
        }
        let over = app.world().get_resource::<CombatState>().is_some_and(CombatState::is_over);
        if follower.ended && over {
            break;
        }
        let lines = app.world().get_resource::<CombatLog>().map_or(0, |log| log.entries().len());
        if lines != last_log {
            last_log = lines;
            last_progress = Instant::now();
        } else if last_progress.elapsed() > CLIENT_PATIENCE && !follower.welcomed && follower.lobby.is_none() {
            return Err(format!("no answer from {server} in {} s", CLIENT_PATIENCE.as_secs()));
        }
        std::thread::sleep(FRAME);
    }
    write_log(app.world(), args.log.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_grace_reads_wait_an_ai_or_forfeit() {
        assert_eq!(after_grace("wait"), Ok(AfterGrace::Wait));
        assert_eq!(after_grace("ai:hard"), Ok(AfterGrace::Ai(AiKind::Hard)));
        assert_eq!(after_grace("forfeit"), Ok(AfterGrace::Forfeit));
        let wrong = after_grace("surrender").expect_err("not a choice");
        assert!(wrong.contains("expected wait, ai:KIND or forfeit"), "{wrong}");
        assert!(after_grace("ai:nobody").is_err());
    }
}
