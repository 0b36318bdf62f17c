//! Criterion benchmark of the search AI's forward model: simulated rounds per second from the
//! ambush's first declaration (snapshot reset, every declaration by the greedy model, the round
//! resolved with the real rules).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fray::ai::forward::{ForwardModel, Snapshot};
use fray::headless::HeadlessBattle;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, load_builtin_level};
use fray::rules::CombatPhase;
use fray::rules::dice::CombatRng;

fn ambush_snapshot() -> Snapshot {
    let template = load_builtin_level("ambush.ron", &ModSet::default()).expect("the ambush loads");
    let mut battle = HeadlessBattle::new();
    let controllers =
        (0..template.sides.len()).map(|side| (side, fray::rules::components::Controller::Human)).collect();
    battle.start(&template, &BattleSetup { seed: 1, controllers, record_log: false });
    // Humans never declare here: the battle waits at its first declaration.
    while battle.state().phase != CombatPhase::Declare {
        battle.step();
    }
    battle.step();
    Snapshot::from_world(battle.world_mut())
}

fn forward_model(c: &mut Criterion) {
    let snapshot = ambush_snapshot();
    let mut model = ForwardModel::new();
    model.load(&snapshot);
    let mut group = c.benchmark_group("forward_model");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("ambush_round", |bencher| {
        bencher.iter(|| {
            seed += 1;
            model.reset(&snapshot, CombatRng::seeded(seed), false);
            model.resolve_round()
        })
    });
    group.finish();
}

criterion_group!(benches, forward_model);
criterion_main!(benches);
