//! `fray bench`: how the time of a round grows with the army. Plays generated mass battles
//! (`levels::mass`) for a few rounds and prints milliseconds per round, or writes the level.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use crate::ai::thread_cpu_time;
use crate::headless::HeadlessBattle;
use crate::levels::BattleSetup;
use crate::levels::mass::{grid_field_text, load_generated, melee_zones_text};
use crate::rules::components::{AiKind, Controller};

/// The kind of field a generated battle is fought on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Field {
    /// The Great Melee's eight zones.
    Zones,
    /// An open square field, 64 squares a side or more.
    Grid,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Self::Zones => "zones",
            Self::Grid => "grid",
        }
    }
}

/// The ruleset of generated grid fields: the shipped preset made for squares.
pub const GRID_RULESET: &str = "shock_and_cover";

/// Arguments of `fray bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The field to fight on.
    #[arg(long, value_enum, default_value_t = Field::Zones)]
    pub field: Field,
    /// Army sizes, both sides together.
    #[arg(long, value_delimiter = ',', default_values_t = [256, 1024, 2048])]
    pub units: Vec<usize>,
    /// The AI on both sides (random, greedy, ...).
    #[arg(long, default_value = "greedy")]
    pub ai: String,
    /// Rounds timed per size, after the first (which also rolls surprise).
    #[arg(long, default_value_t = 5)]
    pub rounds: u32,
    /// Seed of the battle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append `field,ai,units,ms_per_round` lines (processor time) to this CSV file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the level of the first size here instead of timing anything.
    #[arg(long)]
    pub write_level: Option<PathBuf>,
    /// Measure online play instead: bytes and messages per round, the referee's processor time,
    /// and the loopback time from a pass's last declaration to the resolved round.
    #[arg(long)]
    pub online: bool,
    /// The level `--online` plays (the 4-vs-4 `shock_and_cover_skirmish.ron` if left out).
    #[arg(long, requires = "online")]
    pub level: Option<PathBuf>,
    /// Battles `--online` plays in one process.
    #[arg(long, default_value_t = 5, requires = "online")]
    pub battles: u32,
}

/// The level `fray bench --online` plays unless told otherwise: a 4-vs-4.
const ONLINE_LEVEL: &str = "shock_and_cover_skirmish.ron";

/// How often a busy referee would update each battle it holds.
const REFEREE_TICKS_PER_SECOND: f64 = 10.0;

/// Runs `fray bench --online`, its level loaded with `mods`.
fn run_online(args: &BenchArgs, mods: &crate::levels::mods::ModSet) -> ExitCode {
    let path = args.level.clone().unwrap_or_else(|| PathBuf::from(ONLINE_LEVEL));
    let template = match crate::levels::load_level_or_builtin(&path, mods) {
        Ok(template) => template,
        Err(errors) => {
            eprintln!("{errors}");
            return ExitCode::FAILURE;
        }
    };
    let cost = match crate::net::bench::in_process(&template, args.battles) {
        Ok(cost) => cost,
        Err(error) => {
            eprintln!("fray bench --online: {error}");
            return ExitCode::FAILURE;
        }
    };
    say!(
        "online: {} ({} battles, {} rounds; each side a greedy AI on its own client, and a spectator)",
        template.level_name,
        args.battles,
        cost.rounds
    );
    say!(
        "to clients   {:>8.0} bytes {:>6.1} messages per round",
        cost.bytes_out_per_round,
        cost.messages_out_per_round
    );
    say!("to referee   {:>8.0} bytes {:>6.1} messages per round", cost.bytes_in_per_round, cost.messages_in_per_round);
    let per_round_ms = cost.referee_cpu_per_round.as_secs_f64() * 1000.0;
    let idle_us = cost.idle_update.as_secs_f64() * 1e6;
    say!("referee cpu  {per_round_ms:>8.3} ms per round, {idle_us:.1} us per idle update");
    // At one declaration a second per seat, a round lasts as many seconds as a side has units.
    let round_seconds = (0..template.sides.len())
        .map(|side| template.units.iter().filter(|unit| unit.side == side).count())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let cpu_per_second = cost.referee_cpu_per_round.as_secs_f64() / round_seconds
        + cost.idle_update.as_secs_f64() * REFEREE_TICKS_PER_SECOND;
    say!(
        "one core referees about {:.0} such battles at once (one declaration a second per seat, a round every {round_seconds:.0} s, {REFEREE_TICKS_PER_SECOND:.0} updates a second)",
        1.0 / cpu_per_second.max(f64::EPSILON)
    );
    match crate::net::bench::loopback(&template) {
        Ok(mut latencies) if !latencies.is_empty() => {
            latencies.sort();
            let at = |share: f64| latencies[((latencies.len() - 1) as f64 * share).round() as usize];
            let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
            say!(
                "loopback UDP: last declaration to resolved round: median {:.1} ms, p95 {:.1} ms, max {:.1} ms ({} passes)",
                ms(at(0.5)),
                ms(at(0.95)),
                ms(at(1.0)),
                latencies.len()
            );
            ExitCode::SUCCESS
        }
        Ok(_) => {
            eprintln!("fray bench --online: the loopback battle had no declarations to time");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("fray bench --online: loopback: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The level text of `units` fighters on `field`.
pub fn level_text(field: Field, units: usize) -> String {
    match field {
        Field::Zones => melee_zones_text(units),
        Field::Grid => grid_field_text(units, GRID_RULESET),
    }
}

/// Runs `fray bench` (`mods`: what a level named with `--online` loads with).
pub fn run(args: &BenchArgs, mods: &crate::levels::mods::ModSet) -> ExitCode {
    if args.online {
        return run_online(args, mods);
    }
    let Some(ai) = AiKind::parse(&args.ai) else {
        eprintln!("--ai {}: unknown AI; expected one of {}", args.ai, AiKind::NAMES.join(", "));
        return ExitCode::from(2);
    };
    if let Some(path) = &args.write_level {
        let units = args.units.first().copied().unwrap_or_default();
        return match std::fs::write(path, level_text(args.field, units)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("{}: cannot write the level: {error}", path.display());
                ExitCode::FAILURE
            }
        };
    }
    say!("{:<6} {:<8} {:>6} {:>12} {:>12} {:>10}", "field", "ai", "units", "cpu ms/round", "wall ms", "rounds/s");
    for &units in &args.units {
        let name = format!("{}{units}.ron", args.field.name());
        let template = match load_generated(&level_text(args.field, units), &name) {
            Ok(template) => template,
            Err(errors) => {
                eprintln!("{errors}");
                return ExitCode::FAILURE;
            }
        };
        let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(ai))).collect();
        let mut battle = HeadlessBattle::new();
        battle.start(&template, &BattleSetup { seed: args.seed, controllers, record_log: false });
        let (rounds, spent) = time_rounds(&mut battle, args.rounds);
        let per_round = spent.cpu.as_secs_f64() * 1000.0 / f64::from(rounds.max(1));
        let wall_per_round = spent.wall.as_secs_f64() * 1000.0 / f64::from(rounds.max(1));
        say!(
            "{:<6} {:<8} {units:>6} {per_round:>12.2} {wall_per_round:>12.2} {:>10.1}",
            args.field.name(),
            args.ai,
            1000.0 / per_round.max(f64::EPSILON)
        );
        if let Some(path) = &args.csv {
            let line = format!("{},{},{units},{per_round:.3}\n", args.field.name(), args.ai);
            let written = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut file| file.write_all(line.as_bytes()));
            if let Err(error) = written {
                eprintln!("{}: cannot write: {error}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Time a battle took: on the processor (this thread's own, so other programs on a busy
/// machine do not count) and on the clock.
#[derive(Clone, Copy, Debug)]
pub struct Spent {
    /// Processor time of this thread; the clock's where the system does not tell.
    pub cpu: Duration,
    /// Wall-clock time.
    pub wall: Duration,
}

/// Plays round 1 untimed (it also rolls surprise and initiative), then up to `rounds` more
/// (fewer if the battle ends first); returns how many were played and the time they took.
pub fn time_rounds(battle: &mut HeadlessBattle, rounds: u32) -> (u32, Spent) {
    while battle.state().round < 2 && !battle.state().is_over() {
        play_round(battle);
    }
    let (started, cpu_started) = (Instant::now(), thread_cpu_time());
    let mut played = 0;
    while played < rounds && !battle.state().is_over() {
        play_round(battle);
        played += 1;
    }
    let wall = started.elapsed();
    let cpu = cpu_started.zip(thread_cpu_time()).map_or(wall, |(from, to)| to.saturating_sub(from));
    (played, Spent { cpu, wall })
}

/// Runs schedule passes until the round number moves on or the battle ends.
pub fn play_round(battle: &mut HeadlessBattle) {
    let round = battle.state().round;
    while battle.state().round == round && !battle.state().is_over() {
        battle.step();
    }
}
