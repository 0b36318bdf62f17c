//! Figures for docs/architecture.md: how long the window plays out a round at 1x, count by count
//! ([`PlayingCount::length`]), over greedy-AI battles of the ambush and Millbrook. A model of the
//! window's pacing, not a timing: the same numbers on any machine. Run with
//! `cargo test --test it -- --ignored playout_figures --nocapture`.

#![cfg(feature = "gui")]

use fray::game::model::playing_count::PlayingCount;
use fray::headless::HeadlessBattle;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, load_builtin_level};
use fray::rules::ResolveByCount;
use fray::rules::components::{AiKind, Controller};

/// Battles per level.
const SEEDS: u64 = 10;

/// Seconds each round of `level` plays out at 1x, over [`SEEDS`] greedy battles.
fn round_seconds(level: &str) -> Vec<f32> {
    let template = load_builtin_level(level, &ModSet::default()).expect("shipped level");
    let controllers: Vec<(usize, Controller)> =
        (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
    let mut rounds = Vec::new();
    for seed in 0..SEEDS {
        let mut battle = HeadlessBattle::new();
        battle.world_mut().insert_resource(ResolveByCount);
        battle.start(&template, &BattleSetup { seed, controllers: controllers.clone(), record_log: true });
        let (mut round, mut seconds) = (0, 0.0);
        while !battle.state().is_over() {
            let before = (battle.state().round, battle.state().cursor, battle.log().entries().len());
            battle.step();
            let state = battle.state();
            if state.round == before.0 && state.cursor > before.1 {
                let slots = state.schedule[before.1..state.cursor].to_vec();
                let lines = before.2..battle.log().entries().len();
                seconds += PlayingCount::new(state.round, state.count, slots, lines, battle.log().entries()).length();
            }
            if battle.state().round != round {
                if round > 0 {
                    rounds.push(seconds);
                }
                (round, seconds) = (battle.state().round, 0.0);
            }
        }
        rounds.push(seconds);
    }
    rounds.sort_by(f32::total_cmp);
    rounds
}

#[test]
#[ignore = "prints figures for the docs: run with --ignored playout_figures --nocapture"]
fn playout_figures() {
    for level in ["ambush.ron", "crucible_skirmish.ron"] {
        let rounds = round_seconds(level);
        let mean = rounds.iter().sum::<f32>() / rounds.len() as f32;
        let median = rounds[rounds.len() / 2];
        let most = rounds.last().copied().unwrap_or_default();
        println!(
            "{level}: {} rounds, played out in {mean:.1} s on average, median {median:.1} s, at most {most:.1} s",
            rounds.len()
        );
    }
}
