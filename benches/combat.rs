//! Criterion benchmarks: whole 4-vs-4 battles of every preset (`battle/*`), and one round of the
//! generated mass battles at 256, 1,024 and 2,048 units on zones and on a grid (`round/*`).

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fray::cli::bench::{Field, level_text, play_round};
use fray::headless::HeadlessBattle;
use fray::levels::mass::load_generated;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, BattleTemplate, load_builtin_level};
use fray::rules::components::{AiKind, Controller};

/// Army sizes of the round benchmarks, both sides together.
const ARMIES: [usize; 3] = [256, 1024, 2048];

/// The generated mass battle of `units` on `field` (`fray bench` plays the same ones).
fn mass_battle(field: Field, units: usize) -> BattleTemplate {
    let name = format!("{field:?}{units}.ron");
    load_generated(&level_text(field, units), &name).expect("the generated level loads")
}

/// The 4-vs-4 level of each preset beyond seed 000.
const PRESET_SKIRMISHES: [&str; 4] = [
    "zones_and_tests_skirmish.ron",
    "shock_and_cover_skirmish.ron",
    "aimed_wounds_skirmish.ron",
    "crucible_skirmish.ron",
];

fn whole_battles(c: &mut Criterion) {
    let template = load_builtin_level("ambush.ron", &ModSet::default()).expect("the ambush loads");
    let mut group = c.benchmark_group("battle");
    group.throughput(Throughput::Elements(1));
    for level in PRESET_SKIRMISHES {
        let preset = load_builtin_level(level, &ModSet::default()).expect("every preset's skirmish loads");
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

/// One round of pure combat (after the first, which rolls surprise and initiative) of the Great
/// Melee's eight zones and of the open 64x64 field, at each army size, the greedy AI on both sides.
fn one_round(c: &mut Criterion) {
    let mut group = c.benchmark_group("round");
    group.sample_size(10);
    for (field, name) in [(Field::Zones, "zones"), (Field::Grid, "grid")] {
        for units in ARMIES {
            let template = mass_battle(field, units);
            let controllers: Vec<(usize, Controller)> =
                (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
            group.throughput(Throughput::Elements(units as u64));
            group.bench_with_input(BenchmarkId::new(name, units), &template, |bench, template| {
                bench.iter_batched_ref(
                    || {
                        let mut battle = HeadlessBattle::new();
                        let setup = BattleSetup { seed: 1, controllers: controllers.clone(), record_log: false };
                        battle.start(template, &setup);
                        while battle.state().round < 2 {
                            play_round(&mut battle);
                        }
                        battle
                    },
                    play_round,
                    BatchSize::PerIteration,
                );
            });
        }
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
