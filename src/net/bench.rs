//! `fray bench --online`: what online play costs. In one process with no sockets, the bytes and
//! messages a round sends and the referee's processor time per round; over loopback UDP, the
//! time from a pass's last declaration to the round resolved on the clients.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon::test_app::{ServerTestAppExt, TestClientEntity};

use super::{Follower, Hello, Link, RefereeConfig, Role, SeatPlan};
use crate::ai::{Delegated, thread_cpu_time};
use crate::levels::BattleTemplate;
use crate::rules::components::AiKind;
use crate::rules::{CombatState, PassSeeds};

/// Updates one benchmarked battle may take before it is given up as stuck.
const MAX_UPDATES: usize = 20_000;

/// The pause between updates of each loopback app: what `fray serve` and `fray join` use.
const LOOPBACK_FRAME: Duration = Duration::from_millis(2);

/// The cost of online play for one level, over `battles` battles.
#[derive(Clone, Debug, Default)]
pub struct OnlineCost {
    /// Rounds played, all battles together.
    pub rounds: u32,
    /// Bytes and messages from the referee to all clients, per round.
    pub bytes_out_per_round: f64,
    /// Messages from the referee to all clients, per round.
    pub messages_out_per_round: f64,
    /// Bytes from all clients to the referee, per round.
    pub bytes_in_per_round: f64,
    /// Messages from all clients to the referee, per round.
    pub messages_in_per_round: f64,
    /// The referee's processor time per round (its updates only).
    pub referee_cpu_per_round: Duration,
    /// The referee's processor time for an update with nothing to do.
    pub idle_update: Duration,
}

fn config(template: &BattleTemplate, seed: u64) -> RefereeConfig {
    RefereeConfig::new(vec![SeatPlan::Remote; template.sides.len()], seed ^ 0xBE7C4, seed)
}

fn player(side: &str) -> Hello {
    Hello::new(side, Role::Side(side.into()))
}

/// Moves the messages between the referee and one client, counting them.
fn exchange(referee: &mut App, client: &mut App, cost: &mut (u64, u64, u64, u64)) {
    let entity = **client.world().resource::<TestClientEntity>();
    let mut client_messages = client.world_mut().resource_mut::<ClientMessages>();
    let mut server_messages = referee.world_mut().resource_mut::<ServerMessages>();
    for (channel, message) in client_messages.drain_sent() {
        cost.2 += message.len() as u64;
        cost.3 += 1;
        server_messages.insert_received(entity, channel, message);
    }
    server_messages.retain_sent(|(to, channel, message)| {
        if *to != entity {
            return true;
        }
        cost.0 += message.len() as u64;
        cost.1 += 1;
        client_messages.insert_received(*channel, message.clone());
        false
    });
}

fn cpu_now() -> Duration {
    thread_cpu_time().unwrap_or_default()
}

/// Plays `battles` battles of `template` in one process, each side played by a greedy AI on a
/// client of its own, and one spectator, and measures what they send and what the referee spends.
pub fn in_process(template: &BattleTemplate, battles: u32) -> Result<OnlineCost, String> {
    let mut totals = (0u64, 0u64, 0u64, 0u64);
    let (mut rounds, mut referee_cpu, mut idle) = (0u32, Duration::ZERO, Duration::ZERO);
    for battle in 0..battles {
        let mut referee = super::referee_app(template.clone(), config(template, u64::from(battle)), Link::InProcess);
        let mut clients: Vec<App> = template
            .sides
            .iter()
            .map(|side| super::follower_app(player(&side.name), Some(AiKind::Greedy), Link::InProcess))
            .collect();
        let spectator = Hello { role: Role::Spectator, ..player("watcher") };
        clients.push(super::follower_app(spectator, None, Link::InProcess));
        for client in &mut clients {
            referee.connect_client(client);
        }
        let over = |app: &App| app.world().resource::<CombatState>().is_over();
        let mut updates = 0;
        while !(over(&referee) && clients.iter().all(over)) {
            updates += 1;
            if updates > MAX_UPDATES {
                return Err(format!("battle {battle} did not end in {MAX_UPDATES} updates"));
            }
            let started = cpu_now();
            referee.update();
            referee_cpu += cpu_now().saturating_sub(started);
            for client in &mut clients {
                exchange(&mut referee, client, &mut totals);
                client.update();
                exchange(&mut referee, client, &mut totals);
            }
        }
        rounds += referee.world().resource::<CombatState>().round;
        // An update with the battle over: what each tick of a waiting battle costs.
        let started = cpu_now();
        const IDLE_SAMPLES: u32 = 100;
        for _ in 0..IDLE_SAMPLES {
            referee.update();
        }
        idle += cpu_now().saturating_sub(started) / IDLE_SAMPLES;
    }
    let per_round = f64::from(rounds.max(1));
    Ok(OnlineCost {
        rounds,
        bytes_out_per_round: totals.0 as f64 / per_round,
        messages_out_per_round: totals.1 as f64 / per_round,
        bytes_in_per_round: totals.2 as f64 / per_round,
        messages_in_per_round: totals.3 as f64 / per_round,
        referee_cpu_per_round: referee_cpu / rounds.max(1),
        idle_update: idle / battles.max(1),
    })
}

/// When, on one client, each pass had its last declaration sent and was resolved.
#[derive(Default)]
struct PassTimes {
    sent: Vec<(usize, Instant)>,
    resolved: Vec<(usize, Instant)>,
}

/// Plays one battle of `template` over loopback UDP, a thread for the referee and one for each
/// side's client; returns, per pass, the time from its last declaration sent to the pass resolved
/// on the last client.
pub fn loopback(template: &BattleTemplate) -> Result<Vec<Duration>, String> {
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let referee_done = done.clone();
    let (address_to, address_from) = std::sync::mpsc::channel();
    let referee_template = template.clone();
    // An App is not `Send`: the referee's is built on its own thread.
    let referee_thread = std::thread::spawn(move || {
        let mut referee = super::referee_app(referee_template.clone(), config(&referee_template, 1), Link::Udp);
        let listening = super::transport::listen(&mut referee, 0, None).map_err(|error| error.to_string());
        let ok = listening.is_ok();
        let _ = address_to.send(listening);
        while ok && !referee_done.load(std::sync::atomic::Ordering::Relaxed) {
            referee.update();
            std::thread::sleep(LOOPBACK_FRAME);
        }
    });
    let address = address_from.recv().map_err(|_| "the referee thread stopped".to_string())??;
    let times: Vec<Arc<Mutex<PassTimes>>> = template.sides.iter().map(|_| Arc::default()).collect();
    let clients: Vec<_> = template
        .sides
        .iter()
        .zip(&times)
        .map(|(side, times)| {
            let (hello, times) = (player(&side.name), times.clone());
            std::thread::spawn(move || run_client(hello, address, &times))
        })
        .collect();
    let mut failure = None;
    for client in clients {
        if let Err(error) = client.join().unwrap_or_else(|_| Err("a client thread panicked".into())) {
            failure = Some(error);
        }
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = referee_thread.join();
    if let Some(error) = failure {
        return Err(error);
    }
    Ok(latencies(&times))
}

fn run_client(hello: Hello, address: std::net::SocketAddr, times: &Mutex<PassTimes>) -> Result<(), String> {
    let mut app = super::follower_app(hello, Some(AiKind::Greedy), Link::Udp);
    super::transport::connect(&mut app, address, None).map_err(|error| error.to_string())?;
    let started = Instant::now();
    let patience = Duration::from_secs(120);
    loop {
        let chosen = app.world().get_resource::<Delegated>().map_or(0, |delegated| delegated.chosen.len());
        let passes = app.world().get_resource::<PassSeeds>().map_or(0, |seeds| seeds.used().len());
        app.update();
        let now = Instant::now();
        let world = app.world();
        let chosen_now = world.get_resource::<Delegated>().map_or(0, |delegated| delegated.chosen.len());
        let passes_now = world.get_resource::<PassSeeds>().map_or(0, |seeds| seeds.used().len());
        let mut times = times.lock().map_err(|_| "the timing table was poisoned".to_string())?;
        if chosen_now > chosen {
            times.sent.push((passes_now, now));
        }
        if passes_now > passes {
            times.resolved.push((passes_now - 1, now));
        }
        drop(times);
        let follower = world.resource::<Follower>();
        if let Some(reason) = &follower.refused {
            return Err(reason.clone());
        }
        if follower.ended && world.get_resource::<CombatState>().is_some_and(CombatState::is_over) {
            return Ok(());
        }
        if started.elapsed() > patience {
            return Err(format!("the loopback battle took over {} s", patience.as_secs()));
        }
        std::thread::sleep(LOOPBACK_FRAME);
    }
}

/// Per pass with a declaration: the last client's resolution less the last declaration sent.
fn latencies(times: &[Arc<Mutex<PassTimes>>]) -> Vec<Duration> {
    let tables: Vec<std::sync::MutexGuard<PassTimes>> = times.iter().filter_map(|times| times.lock().ok()).collect();
    let passes = tables.iter().flat_map(|table| table.resolved.iter().map(|(pass, _)| *pass)).max().unwrap_or(0);
    (0..=passes)
        .filter_map(|pass| {
            let sent = tables
                .iter()
                .flat_map(|table| &table.sent)
                .filter(|(at, _)| *at == pass)
                .map(|(_, when)| *when)
                .max()?;
            let resolved = tables
                .iter()
                .flat_map(|table| &table.resolved)
                .filter(|(at, _)| *at == pass)
                .map(|(_, when)| *when)
                .max()?;
            Some(resolved.saturating_duration_since(sent))
        })
        .collect()
}
