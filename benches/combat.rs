//! Criterion benchmarks: whole 4-vs-4 battles, and one round of battles from 8 to 2,048 units.

use std::path::Path;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fray::headless::HeadlessBattle;
use fray::levels::catalog::AssetSource;
use fray::levels::{BattleSetup, BattleTemplate, load_builtin_level, load_level_text};

/// Units of each side per zone in the synthetic skirmishes.
const PER_SIDE_PER_ZONE: usize = 4;

/// A level of `units` soldiers in a square grid of zones, four of each side per zone, so every
/// zone is a melee and the work per unit stays the same as the battle grows.
fn skirmish(units: usize) -> BattleTemplate {
    let zones = (units / (2 * PER_SIDE_PER_ZONE)).max(1);
    let width = (zones as f64).sqrt().ceil() as usize;
    let mut text = String::from("(name: \"skirmish\", sides: [(name: \"red\"), (name: \"blue\")], zones: [\n");
    for zone in 0..zones {
        let (x, y) = (zone % width, zone / width);
        let mut adjacent = Vec::new();
        if x + 1 < width && zone + 1 < zones {
            adjacent.push(format!("\"z{}\"", zone + 1));
        }
        if zone + width < zones {
            adjacent.push(format!("\"z{}\"", zone + width));
        }
        let _ = y;
        text.push_str(&format!("(id: \"z{zone}\", adjacent: [{}]),\n", adjacent.join(", ")));
    }
    text.push_str("], units: [\n");
    for zone in 0..zones {
        for at in 0..PER_SIDE_PER_ZONE {
            text.push_str(&format!(
                "(id: \"r{zone}-{at}\", creature: \"human_fighter\", side: \"red\", zone: \"z{zone}\"),\n"
            ));
            text.push_str(&format!(
                "(id: \"b{zone}-{at}\", creature: \"orc_brute\", side: \"blue\", zone: \"z{zone}\"),\n"
            ));
        }
    }
    text.push_str("])");
    load_level_text(&text, Path::new("skirmish.ron"), &AssetSource::default()).expect("the synthetic level loads")
}

/// The 4-vs-4 level of each preset beyond seed 000.
const PRESET_SKIRMISHES: [&str; 4] = [
    "zones_and_tests_skirmish.ron",
    "shock_and_cover_skirmish.ron",
    "aimed_wounds_skirmish.ron",
    "crucible_skirmish.ron",
];

fn whole_battles(c: &mut Criterion) {
    let template = load_builtin_level("ambush.ron").expect("the ambush loads");
    let mut group = c.benchmark_group("battle");
    group.throughput(Throughput::Elements(1));
    for level in PRESET_SKIRMISHES {
        let preset = load_builtin_level(level).expect("every preset's skirmish loads");
        group.bench_function(level.trim_end_matches(".ron"), |bench| {
            let mut battle = HeadlessBattle::new();
            let mut seed = 0;
            bench.iter(|| {
                seed += 1;
                battle.start(&preset, &BattleSetup { seed, controllers: Vec::new(), record_log: false });
                battle.run_to_end()
            });
        });
    }
    group.bench_function("ambush_4v4_greedy", |bench| {
        let mut battle = HeadlessBattle::new();
        let mut seed = 0;
        bench.iter(|| {
            seed += 1;
            battle.start(&template, &BattleSetup { seed, controllers: Vec::new(), record_log: false });
            battle.run_to_end()
        });
    });
    group.bench_function("ambush_4v4_greedy_logged", |bench| {
        let mut battle = HeadlessBattle::new();
        let mut seed = 0;
        bench.iter(|| {
            seed += 1;
            battle.start(&template, &BattleSetup { seed, controllers: Vec::new(), record_log: true });
            battle.run_to_end()
        });
    });
    group.finish();
}

fn one_round(c: &mut Criterion) {
    let mut group = c.benchmark_group("round");
    group.sample_size(20);
    for units in [8, 64, 512, 2048] {
        let template = skirmish(units);
        group.throughput(Throughput::Elements(units as u64));
        group.bench_with_input(BenchmarkId::from_parameter(units), &template, |bench, template| {
            bench.iter_batched_ref(
                || {
                    let mut battle = HeadlessBattle::new();
                    battle.start(template, &BattleSetup { seed: 1, controllers: Vec::new(), record_log: false });
                    // Round 1 rolls everyone's initiative; measure a round of pure combat.
                    battle.step();
                    battle
                },
                |battle| battle.step(),
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

fn schedule_overhead(c: &mut Criterion) {
    // One schedule run with no battle loaded: the fixed cost every round pays.
    let mut battle = HeadlessBattle::new();
    c.bench_function("idle_update", |bench| bench.iter(|| battle.step()));
}

criterion_group!(benches, whole_battles, one_round, schedule_overhead);
criterion_main!(benches);
