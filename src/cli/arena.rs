//! `fray arena`: AIs play each other in mirrored pairs (same seed, sides swapped) and the results
//! come out as win rates with 95% intervals, draws, rounds, decision times and, for more than two
//! kinds, an Elo-style table.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use indicatif::ProgressBar;
use serde::Serialize;

use super::sim::wilson_interval;
use crate::ai::AiClock;
use crate::headless::HeadlessBattle;
use crate::levels::catalog::builtin::LEVELS;
use crate::levels::mods::ModSet;
use crate::levels::{BattleSetup, BattleTemplate, load_builtin_level, load_level_or_builtin};
use crate::rules::components::{AiKind, Controller};
use crate::save::Recording;

/// Arguments of `fray arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The level (`.ron`); leave it out with `--all-levels`.
    #[arg(required_unless_present = "all_levels")]
    pub level: Option<PathBuf>,
    /// An AI taking part, as NAME=KIND (or just KIND); KIND: random, easy, greedy (normal), hard
    /// (tactician) or master. Give two or more.
    #[arg(long = "ai", value_name = "NAME=KIND", required = true)]
    pub ai: Vec<String>,
    /// Games per pairing, played as mirrored pairs (an odd number is rounded up).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the first pair; each pair uses the next seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Every shipped level with two sides, one table row per level.
    #[arg(long)]
    pub all_levels: bool,
    /// Print one JSON object per level instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Elo of the first kind given; the others are placed relative to it.
const ELO_ANCHOR: f64 = 1500.0;
/// The Elo scale: a 400-point gap means 10-to-1 odds.
const ELO_SCALE: f64 = 400.0;
/// Passes of the rating fit; it settles long before.
const ELO_ITERATIONS: usize = 2000;
/// Step size of the rating fit, in Elo points per unit of score error.
const ELO_STEP: f64 = 16.0;
/// Percentile reported for decision times.
const DECISION_PERCENTILE: f64 = 0.95;

/// One AI's record in one level.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Every decision's time (one side's whole declaration pass).
    pub decisions: Vec<Duration>,
}

impl Record {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Share of games won.
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games().max(1) as f64
    }

    /// Share of decided games won.
    pub fn decided_rate(&self) -> f64 {
        self.wins as f64 / (self.wins + self.losses).max(1) as f64
    }

    /// Mean decision time in milliseconds.
    pub fn decision_ms_mean(&self) -> f64 {
        if self.decisions.is_empty() {
            return 0.0;
        }
        self.decisions.iter().map(Duration::as_secs_f64).sum::<f64>() * 1000.0 / self.decisions.len() as f64
    }

    /// The 95th percentile of decision times, in milliseconds.
    pub fn decision_ms_p95(&self) -> f64 {
        percentile_ms(&self.decisions, DECISION_PERCENTILE)
    }
}

/// The `p` quantile (nearest rank) of `samples`, in milliseconds; 0 with no samples.
pub fn percentile_ms(samples: &[Duration], p: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1].as_secs_f64() * 1000.0
}

/// What two AIs did against each other in one level.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// Index of the first AI in the list given.
    pub first: usize,
    /// Index of the second.
    pub second: usize,
    /// Games the first won.
    pub first_wins: u64,
    /// Games the second won.
    pub second_wins: u64,
    /// Games without a winner.
    pub draws: u64,
}

/// Everything one level's arena gives.
#[derive(Clone, Debug)]
pub struct LevelResult {
    /// Level name.
    pub level: String,
    /// Games per pairing.
    pub games: u64,
    /// Per AI, in the order given.
    pub records: Vec<Record>,
    /// Per pairing of two AIs.
    pub pairings: Vec<Pairing>,
    /// Rounds over every game.
    pub rounds: u64,
    /// Games played in all.
    pub played: u64,
}

/// The JSON object `--json` prints for one level.
#[derive(Serialize)]
struct JsonLevel<'a> {
    level: &'a str,
    games: u64,
    ai: Vec<JsonAi<'a>>,
}

#[derive(Serialize)]
struct JsonAi<'a> {
    kind: &'a str,
    wins: u64,
    draws: u64,
    losses: u64,
    win_rate: f64,
    decision_ms_mean: f64,
    decision_ms_p95: f64,
}

/// An entrant: its name in the tables and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Name in the tables.
    pub name: String,
    /// The AI.
    pub kind: AiKind,
}

/// Parses `NAME=KIND` (or `KIND`); the name is the kind's own when left out.
pub fn parse_entrant(text: &str) -> Result<Entrant, String> {
    let (name, kind) = match text.split_once('=') {
        Some((name, kind)) => (name.trim(), kind.trim()),
        None => (text.trim(), text.trim()),
    };
    let kind = AiKind::parse(kind)
        .ok_or_else(|| format!("--ai {text}: unknown AI \"{kind}\"; expected one of {}", AiKind::NAMES.join(", ")))?;
    // A bare label (`a=hard`) names the slot; the table shows the kind, which is what matters.
    let name = if name.len() <= 1 || name == kind.name() { kind.name().to_string() } else { name.to_string() };
    Ok(Entrant { name, kind })
}

/// Plays `games` games (mirrored pairs) between every two entrants on `template`.
pub fn play_level(
    template: &BattleTemplate,
    entrants: &[Entrant],
    games: u64,
    first_seed: u64,
    progress: &ProgressBar,
) -> LevelResult {
    let pairs = games.div_ceil(2);
    let mut result = LevelResult {
        level: template.level_name.clone(),
        games: pairs * 2,
        records: vec![Record::default(); entrants.len()],
        pairings: Vec::new(),
        rounds: 0,
        played: 0,
    };
    let mut battle = HeadlessBattle::new();
    // Nothing here is saved, so the declarations are not recorded for a save.
    battle.world_mut().insert_resource(Recording::off());
    battle.world_mut().insert_resource(AiClock::default());
    for first in 0..entrants.len() {
        for second in first + 1..entrants.len() {
            let mut pairing = Pairing { first, second, first_wins: 0, second_wins: 0, draws: 0 };
            for pair in 0..pairs {
                let seed = first_seed.wrapping_add(pair);
                for seats in [[first, second], [second, first]] {
                    let winner = play_one(&mut battle, template, entrants, seats, seed, &mut result);
                    match winner {
                        Some(at) if at == first => pairing.first_wins += 1,
                        Some(_) => pairing.second_wins += 1,
                        None => pairing.draws += 1,
                    }
                    progress.inc(1);
                }
            }
            result.pairings.push(pairing);
        }
    }
    result
}

/// One game: `seats[side]` is the entrant on that side; returns the winning entrant, if any.
fn play_one(
    battle: &mut HeadlessBattle,
    template: &BattleTemplate,
    entrants: &[Entrant],
    seats: [usize; 2],
    seed: u64,
    result: &mut LevelResult,
) -> Option<usize> {
    let controllers = seats.iter().enumerate().map(|(side, &at)| (side, Controller::Ai(entrants[at].kind))).collect();
    battle.start(template, &BattleSetup { seed, controllers, record_log: false });
    battle.world_mut().resource_mut::<AiClock>().samples.clear();
    let outcome = battle.run_to_end();
    for (side, time) in std::mem::take(&mut battle.world_mut().resource_mut::<AiClock>().samples) {
        if let Some(&at) = seats.get(side) {
            result.records[at].decisions.push(time);
        }
    }
    result.played += 1;
    let winner = outcome.as_ref().and_then(|outcome| {
        result.rounds += u64::from(outcome.rounds);
        outcome.winner
    });
    match winner.and_then(|side| seats.get(side).copied()) {
        Some(won) => {
            result.records[won].wins += 1;
            for &other in seats.iter().filter(|&&at| at != won) {
                result.records[other].losses += 1;
            }
            Some(won)
        }
        None => {
            for &at in &seats {
                result.records[at].draws += 1;
            }
            None
        }
    }
}

/// Elo-style ratings from pairings: the ratings whose expected scores (draws count half) best
/// match the scores played, the first entrant fixed at [`ELO_ANCHOR`].
pub fn elo_ratings(entrants: usize, pairings: &[Pairing]) -> Vec<f64> {
    let mut ratings = vec![ELO_ANCHOR; entrants];
    for _ in 0..ELO_ITERATIONS {
        let mut error = vec![0.0; entrants];
        for pairing in pairings {
            let games = (pairing.first_wins + pairing.second_wins + pairing.draws) as f64;
            if games == 0.0 {
                continue;
            }
            let scored = (pairing.first_wins as f64 + pairing.draws as f64 / 2.0) / games;
            let gap = ratings[pairing.second] - ratings[pairing.first];
            let expected = 1.0 / (1.0 + 10f64.powf(gap / ELO_SCALE));
            error[pairing.first] += scored - expected;
            error[pairing.second] -= scored - expected;
        }
        for (rating, error) in ratings.iter_mut().zip(&error) {
            *rating += ELO_STEP * error;
        }
        let shift = ratings[0] - ELO_ANCHOR;
        ratings.iter_mut().for_each(|rating| *rating -= shift);
    }
    ratings
}

/// The levels to play, loaded with `mods`: the one given, or every shipped level with exactly
/// two sides.
fn levels(args: &ArenaArgs, mods: &ModSet) -> Result<Vec<BattleTemplate>, String> {
    if args.all_levels {
        let mut templates = Vec::new();
        for (name, _) in LEVELS {
            let template = load_builtin_level(name, mods).map_err(|errors| errors.to_string())?;
            if template.sides.len() == 2 {
                templates.push(template);
            }
        }
        return Ok(templates);
    }
    let path = args.level.as_ref().ok_or("fray arena: give a level, or --all-levels")?;
    let template = load_level_or_builtin(path, mods).map_err(|errors| errors.to_string())?;
    if template.sides.len() != 2 {
        return Err(format!(
            "{}: the arena mirrors two sides; this level has {}",
            path.display(),
            template.sides.len()
        ));
    }
    Ok(vec![template])
}

/// Runs `fray arena`, its levels loaded with `mods`.
pub fn run(args: &ArenaArgs, mods: &ModSet) -> ExitCode {
    let entrants: Vec<Entrant> = match args.ai.iter().map(|text| parse_entrant(text)).collect() {
        Ok(entrants) => entrants,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    if entrants.len() < 2 {
        eprintln!("fray arena: give at least two --ai, e.g. --ai a=hard --ai b=greedy");
        return ExitCode::from(2);
    }
    let templates = match levels(args, mods) {
        Ok(templates) => templates,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let pairings = (entrants.len() * (entrants.len() - 1) / 2) as u64;
    let progress = super::progress_bar(templates.len() as u64 * pairings * args.games.div_ceil(2) * 2, "games");
    let mut results = Vec::with_capacity(templates.len());
    for template in &templates {
        results.push(play_level(template, &entrants, args.games, args.seed, &progress));
    }
    progress.finish_and_clear();
    for result in &results {
        if args.json {
            print_json(result, &entrants);
        } else {
            print_table(result, &entrants, args.seed);
        }
    }
    if !args.json && results.len() > 1 {
        print_summary(&results, &entrants);
    }
    ExitCode::SUCCESS
}

fn print_json(result: &LevelResult, entrants: &[Entrant]) {
    let ai = entrants
        .iter()
        .zip(&result.records)
        .map(|(entrant, record)| JsonAi {
            kind: entrant.kind.name(),
            wins: record.wins,
            draws: record.draws,
            losses: record.losses,
            win_rate: record.win_rate(),
            decision_ms_mean: record.decision_ms_mean(),
            decision_ms_p95: record.decision_ms_p95(),
        })
        .collect();
    let object = JsonLevel { level: &result.level, games: result.games, ai };
    match serde_json::to_string(&object) {
        Ok(line) => say!("{line}"),
        Err(error) => eprintln!("cannot write JSON: {error}"),
    }
}

fn print_table(result: &LevelResult, entrants: &[Entrant], first_seed: u64) {
    say!(
        "{}: {} games per pairing ({} mirrored pairs, seeds {first_seed}..{})",
        result.level,
        result.games,
        result.games / 2,
        first_seed.wrapping_add(result.games / 2).wrapping_sub(1)
    );
    say!(
        "  {:<10} {:>5} {:>5} {:>6}  {:>24}  {:>8}  {:>9} {:>9}",
        "ai",
        "wins",
        "draws",
        "losses",
        "win rate (95% CI)",
        "decided",
        "ms mean",
        "ms p95"
    );
    for (entrant, record) in entrants.iter().zip(&result.records) {
        let (low, high) = wilson_interval(record.wins, record.games());
        say!(
            "  {:<10} {:>5} {:>5} {:>6}  {:>5.1}% ({:>5.1}%–{:>5.1}%)  {:>7.1}%  {:>9.2} {:>9.2}",
            entrant.name,
            record.wins,
            record.draws,
            record.losses,
            100.0 * record.win_rate(),
            100.0 * low,
            100.0 * high,
            100.0 * record.decided_rate(),
            record.decision_ms_mean(),
            record.decision_ms_p95()
        );
    }
    say!("  mean rounds {:.2}", result.rounds as f64 / result.played.max(1) as f64);
    if entrants.len() > 2 {
        let ratings = elo_ratings(entrants.len(), &result.pairings);
        print_elo(entrants, &ratings);
    }
}

fn print_elo(entrants: &[Entrant], ratings: &[f64]) {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
    say!("  Elo (first AI fixed at {ELO_ANCHOR:.0})");
    for at in order {
        say!("    {:<10} {:>6.0}", entrants[at].name, ratings[at]);
    }
}

/// Over every level: each AI's totals, and the Elo over all pairings.
fn print_summary(results: &[LevelResult], entrants: &[Entrant]) {
    say!("All {} levels:", results.len());
    for (at, entrant) in entrants.iter().enumerate() {
        let mut total = Record::default();
        for result in results {
            let record = &result.records[at];
            total.wins += record.wins;
            total.draws += record.draws;
            total.losses += record.losses;
            total.decisions.extend_from_slice(&record.decisions);
        }
        let (low, high) = wilson_interval(total.wins, total.games());
        say!(
            "  {:<10} won {:>5.1}% ({:>5.1}%–{:>5.1}%) of {} games, decisions {:.2} ms mean, {:.2} ms p95",
            entrant.name,
            100.0 * total.win_rate(),
            100.0 * low,
            100.0 * high,
            total.games(),
            total.decision_ms_mean(),
            total.decision_ms_p95()
        );
    }
    if entrants.len() > 2 {
        let pairings: Vec<Pairing> = results.iter().flat_map(|result| result.pairings.iter().cloned()).collect();
        print_elo(entrants, &elo_ratings(entrants.len(), &pairings));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_parse_with_and_without_a_name() {
        assert_eq!(parse_entrant("a=hard").unwrap(), Entrant { name: "hard".into(), kind: AiKind::Hard });
        assert_eq!(parse_entrant("greedy").unwrap().kind, AiKind::Greedy);
        assert_eq!(parse_entrant("b=normal").unwrap().kind, AiKind::Greedy);
        assert_eq!(parse_entrant("b=tactician").unwrap().kind, AiKind::Hard);
        assert!(parse_entrant("a=genius").unwrap_err().contains("unknown AI"));
    }

    #[test]
    fn the_wilson_interval_matches_published_values() {
        let close = |got: f64, want: f64| (got - want).abs() < 5e-4;
        let (low, high) = wilson_interval(50, 100);
        assert!(close(low, 0.4038) && close(high, 0.5962), "{low} {high}");
        let (low, high) = wilson_interval(0, 10);
        assert!(close(low, 0.0) && close(high, 0.2775), "{low} {high}");
        let (low, high) = wilson_interval(10, 10);
        assert!(close(low, 0.7225) && close(high, 1.0), "{low} {high}");
        // 90% of 800 games: narrow enough to tell 90% from 85%.
        let (low, high) = wilson_interval(720, 800);
        assert!(close(low, 0.8773) && close(high, 0.9189), "{low} {high}");
    }

    #[test]
    fn the_percentile_is_the_nearest_rank() {
        let samples: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert!((percentile_ms(&samples, 0.95) - 95.0).abs() < 1e-9);
        assert!((percentile_ms(&samples[..1], 0.95) - 1.0).abs() < 1e-9);
        assert_eq!(percentile_ms(&[], 0.95), 0.0);
    }

    #[test]
    fn elo_gives_the_stronger_ai_the_higher_rating() {
        let pairings = [
            Pairing { first: 0, second: 1, first_wins: 75, second_wins: 25, draws: 0 },
            Pairing { first: 1, second: 2, first_wins: 50, second_wins: 50, draws: 0 },
        ];
        let ratings = elo_ratings(3, &pairings);
        assert_eq!(ratings[0], ELO_ANCHOR);
        // 75% is a gap of about 191 points.
        assert!((ratings[0] - ratings[1] - 191.0).abs() < 5.0, "{ratings:?}");
        assert!((ratings[1] - ratings[2]).abs() < 5.0, "{ratings:?}");
    }
}
