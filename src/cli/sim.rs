//! `fray sim`: AI-only battles to the end — one game told as a story, or many as statistics.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bevy::prelude::*;
use clap::Args;

use crate::headless::HeadlessBattle;
use crate::levels::mods::ModSet;
use crate::levels::{BattleSetup, BattleTemplate, DEFAULT_LEVEL, load_builtin_level, load_level_or_builtin};
use crate::rules::Outcome;
use crate::rules::components::*;
use crate::rules::ruleset::Pools;
use crate::save::Recording;

/// Arguments of `fray sim`.
#[derive(Debug, Args)]
pub struct SimArgs {
    /// The level (`.ron`), or a shipped one by file name or level name; the built-in ambush when
    /// left out.
    pub level: Option<PathBuf>,
    /// Seed of the first game (the level's own seed, or 0, when left out).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of games, with seeds counting up from the first.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Controller for a side, as SIDE=KIND (KIND: random, easy, normal/greedy, hard/tactician,
    /// master); repeatable.
    #[arg(long = "ai", value_name = "SIDE=KIND")]
    pub ai: Vec<String>,
    /// Write the JSON Lines combat log here (every game's, one after another).
    #[arg(long)]
    pub log: Option<PathBuf>,
}

/// z for a two-sided 95% confidence interval.
const Z_95: f64 = 1.959_964;

/// Wilson score interval of `wins` out of `games`.
pub fn wilson_interval(wins: u64, games: u64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = games as f64;
    let p = wins as f64 / n;
    let z2 = Z_95 * Z_95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_95 * ((p * (1.0 - p) / n) + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Parses `SIDE=KIND` pairs against the level's sides.
pub fn parse_controllers(template: &BattleTemplate, pairs: &[String]) -> Result<Vec<(usize, Controller)>, String> {
    pairs
        .iter()
        .map(|pair| {
            let (side, kind) = pair
                .split_once('=')
                .ok_or_else(|| format!("--ai {pair}: expected SIDE=KIND, e.g. --ai party=greedy"))?;
            let side_index = template.side_index(side).ok_or_else(|| {
                let names: Vec<&str> = template.sides.iter().map(|side| &*side.name).collect();
                format!("--ai {pair}: {}", crate::levels::error::not_found("side", side, &names))
            })?;
            let kind = AiKind::parse(kind).ok_or_else(|| {
                format!("--ai {pair}: unknown AI \"{kind}\"; expected one of {}", AiKind::NAMES.join(", "))
            })?;
            Ok((side_index, Controller::Ai(kind)))
        })
        .collect()
}

/// Every side is played by an AI in `fray sim`: humans in the level become greedy.
fn ai_seats(template: &BattleTemplate, overrides: Vec<(usize, Controller)>) -> Vec<(usize, Controller)> {
    (0..template.sides.len())
        .map(|side| {
            let chosen = overrides.iter().rev().find(|(at, _)| *at == side).map(|(_, controller)| *controller);
            let controller = match chosen.unwrap_or(template.sides[side].controller) {
                Controller::Human => Controller::Ai(AiKind::Greedy),
                ai => ai,
            };
            (side, controller)
        })
        .collect()
}

/// Runs `fray sim`, its level loaded with `mods`.
pub fn run(args: &SimArgs, mods: &ModSet) -> ExitCode {
    let loaded = match &args.level {
        Some(path) => load_level_or_builtin(path, mods),
        None => load_builtin_level(DEFAULT_LEVEL, mods),
    };
    let template = match loaded {
        Ok(template) => template,
        Err(errors) => {
            eprintln!("{errors}");
            return ExitCode::FAILURE;
        }
    };
    let controllers = match parse_controllers(&template, &args.ai) {
        Ok(controllers) => ai_seats(&template, controllers),
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let mut log_out = match args.log.as_deref().map(open_log).transpose() {
        Ok(log_out) => log_out,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let first_seed = args.seed.or(template.seed).unwrap_or(0);
    let games = args.games.max(1);
    let mut battle = HeadlessBattle::new();
    // Nothing here is saved, so the declarations are not recorded for a save.
    battle.world_mut().insert_resource(Recording::off());
    let progress = (games > 1 && std::io::stderr().is_terminal()).then(|| super::progress_bar(games, "battles"));
    let started = Instant::now();
    let mut tally = Tally::new(template.sides.len());
    for game in 0..games {
        let setup = BattleSetup {
            seed: first_seed.wrapping_add(game),
            controllers: controllers.clone(),
            record_log: log_out.is_some(),
        };
        battle.start(&template, &setup);
        let outcome = battle.run_to_end();
        let seconds = started.elapsed().as_secs_f64().max(f64::EPSILON);
        if let Some(out) = log_out.as_mut()
            && let Err(error) = battle.log().write_json_lines(out)
        {
            eprintln!("cannot write the log: {error}");
            return ExitCode::FAILURE;
        }
        if games == 1 {
            print_account(&template, &mut battle, setup.seed, outcome.as_ref());
            let rounds = battle.state().round;
            say!("played in {seconds:.2} s: {:.1} rounds/s", f64::from(rounds) / seconds);
        }
        tally.add(outcome.as_ref());
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let Some(mut out) = log_out
        && let Err(error) = out.flush()
    {
        eprintln!("cannot write the log: {error}");
        return ExitCode::FAILURE;
    }
    if games > 1 {
        tally.print(&template, games, started.elapsed().as_secs_f64(), first_seed);
    }
    ExitCode::SUCCESS
}

/// The log file at `path`, buffered; or what stops it being written.
fn open_log(path: &std::path::Path) -> Result<BufWriter<File>, String> {
    File::create(path).map(BufWriter::new).map_err(|error| format!("{}: cannot write the log: {error}", path.display()))
}

/// Results over many games.
struct Tally {
    wins: Vec<u64>,
    draws: u64,
    rounds: u64,
}

impl Tally {
    fn new(sides: usize) -> Self {
        Self { wins: vec![0; sides], draws: 0, rounds: 0 }
    }

    fn add(&mut self, outcome: Option<&Outcome>) {
        match outcome {
            Some(Outcome { winner: Some(side), rounds, .. }) => {
                self.wins[*side] += 1;
                self.rounds += *rounds as u64;
            }
            Some(Outcome { rounds, .. }) => {
                self.draws += 1;
                self.rounds += *rounds as u64;
            }
            None => self.draws += 1,
        }
    }

    fn print(&self, template: &BattleTemplate, games: u64, seconds: f64, first_seed: u64) {
        say!("{}: {games} games, seeds {first_seed}..{}", template.level_name, first_seed.wrapping_add(games - 1));
        for (side, wins) in template.sides.iter().zip(&self.wins) {
            let (low, high) = wilson_interval(*wins, games);
            say!(
                "  {:<12} wins {:>6} ({:5.1}%, 95% CI {:5.1}%–{:5.1}%)",
                side.name,
                wins,
                100.0 * *wins as f64 / games as f64,
                100.0 * low,
                100.0 * high
            );
        }
        say!("  {:<12}      {:>6} ({:5.1}%)", "no winner", self.draws, 100.0 * self.draws as f64 / games as f64);
        say!("  mean rounds  {:.2}", self.rounds as f64 / games as f64);
        let seconds = seconds.max(f64::EPSILON);
        say!(
            "  throughput   {:.0} battles/s, {:.0} rounds/s ({seconds:.2} s)",
            games as f64 / seconds,
            self.rounds as f64 / seconds
        );
    }
}

/// One game told plainly: who won, how long it took, who fell.
fn print_account(template: &BattleTemplate, battle: &mut HeadlessBattle, seed: u64, outcome: Option<&Outcome>) {
    say!("{} (seed {seed}, ruleset {})", template.level_name, template.ruleset.name);
    match outcome {
        Some(Outcome { winner: Some(side), rounds, reason }) => {
            say!(
                "{} won in {rounds} round{} ({})",
                template.sides[*side].name,
                if *rounds == 1 { "" } else { "s" },
                reason.as_str().replace('_', " ")
            )
        }
        Some(Outcome { rounds, reason, .. }) => {
            say!("no winner after {rounds} rounds ({})", reason.as_str().replace('_', " "))
        }
        None => say!("the battle did not end"),
    }
    let world = battle.world_mut();
    let mut units: Vec<_> = world
        .query::<(&SpawnOrder, &UnitId, &Name, &SideIndex, &Status, &Stress, &Wounds)>()
        .iter(world)
        .map(|(order, id, name, side, status, stress, wounds)| {
            (*order, id.0.clone(), name.to_string(), side.0, *status, *stress, wounds.current, wounds.max)
        })
        .collect();
    units.sort_by_key(|unit| unit.0);
    for (side_index, side) in template.sides.iter().enumerate() {
        let fallen = units
            .iter()
            .filter(|unit| unit.3 == side_index && unit.4 != Status::Active && unit.4 != Status::Reserve)
            .count();
        say!("{}: {fallen} casualt{}", side.name, if fallen == 1 { "y" } else { "ies" });
        for (_, id, name, _, status, stress, wounds, wounds_max) in units.iter().filter(|unit| unit.3 == side_index) {
            let pools = pools_text(template.ruleset.damage.pools, stress, *wounds, *wounds_max);
            say!("  {id:<14} {name:<20} {:<13} {pools}", status.log_name());
        }
    }
}

/// A unit's pools in words, only those its ruleset uses: `stress  12/41  wounds   9/9`, or
/// `hit points   7/20` where one pool of hit points (kept as Wound Points) is all there is.
fn pools_text(pools: Pools, stress: &Stress, wounds: i32, wounds_max: i32) -> String {
    match pools {
        Pools::StressAndWounds => {
            format!("stress {:>3}/{:<3} wounds {wounds:>3}/{wounds_max}", stress.current, stress.max)
        }
        Pools::HitPoints => format!("hit points {wounds:>3}/{wounds_max}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_text_shows_only_the_pools_the_ruleset_uses() {
        let stress = Stress { current: 12, max: 41 };
        assert_eq!(pools_text(Pools::StressAndWounds, &stress, 9, 9), "stress  12/41  wounds   9/9");
        let none = Stress { current: 0, max: 0 };
        assert_eq!(pools_text(Pools::HitPoints, &none, 7, 20), "hit points   7/20");
    }

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (low, high) = wilson_interval(50, 100);
        assert!(low < 0.5 && high > 0.5);
        assert!((high - low) < 0.2);
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }
}
