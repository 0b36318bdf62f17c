//! Same level, seed and AI: the same battle and a byte-identical log; and a headless round
//! never spins: an AI-only round takes one schedule run.

use std::process::Command;

use fray::headless::HeadlessBattle;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, load_builtin_level};
use fray::rules::components::{AiKind, Controller};

fn log_of(level: &str, seed: u64, controllers: Vec<(usize, Controller)>) -> String {
    let template = load_builtin_level(level, &ModSet::default()).expect("shipped level loads");
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed, controllers, record_log: true });
    battle.run_to_end().expect("the battle ends");
    battle.log().to_json_lines()
}

#[test]
fn the_same_seed_gives_a_byte_identical_log() {
    for level in ["ambush.ron", "duel.ron", "reinforcements.ron"] {
        for seed in [0, 7, 12345] {
            let random = vec![(0, Controller::Ai(AiKind::Random)), (1, Controller::Ai(AiKind::Greedy))];
            assert_eq!(log_of(level, seed, Vec::new()), log_of(level, seed, Vec::new()), "{level} seed {seed}");
            assert_eq!(
                log_of(level, seed, random.clone()),
                log_of(level, seed, random),
                "{level} seed {seed}, random AI"
            );
        }
    }
}

#[test]
fn different_seeds_give_different_battles() {
    assert_ne!(log_of("ambush.ron", 1, Vec::new()), log_of("ambush.ron", 2, Vec::new()));
}

#[test]
fn a_reused_app_replays_a_battle_exactly() {
    let template = load_builtin_level("ambush.ron", &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    let setup = BattleSetup { seed: 99, controllers: Vec::new(), record_log: true };
    battle.start(&template, &setup);
    battle.run_to_end();
    let first = battle.log().to_json_lines();
    battle.start(&template, &BattleSetup { seed: 5, ..setup.clone() });
    battle.run_to_end();
    battle.start(&template, &setup);
    battle.run_to_end();
    assert_eq!(first, battle.log().to_json_lines());
}

#[test]
fn fray_sim_writes_the_same_log_file_twice() {
    let dir = std::env::temp_dir();
    let paths: Vec<_> =
        (0..2).map(|at| dir.join(format!("fray-determinism-{}-{at}.jsonl", std::process::id()))).collect();
    for path in &paths {
        let status = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(["sim", "--seed", "4", "--ai", "monsters=random", "--log"])
            .arg(path)
            .output()
            .expect("fray runs");
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    }
    let (a, b) = (std::fs::read(&paths[0]).unwrap(), std::fs::read(&paths[1]).unwrap());
    assert!(!a.is_empty());
    assert_eq!(a, b);
    for path in paths {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn an_ai_only_round_takes_one_schedule_run() {
    let template = load_builtin_level("ambush.ron", &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 3, controllers: Vec::new(), record_log: false });
    let mut updates = 0;
    while !battle.state().is_over() {
        battle.step();
        updates += 1;
        assert!(updates <= 200, "the battle spins");
        if !battle.state().is_over() {
            assert_eq!(battle.state().round, updates, "one update, one round");
        }
    }
}

#[test]
fn mid_round_arrivals_cost_one_extra_schedule_run_each() {
    let template = load_builtin_level("reinforcements.ron", &ModSet::default()).unwrap();
    let arrivals = template
        .units
        .iter()
        .filter(|unit| unit.arrives.is_some_and(|arrival| arrival.at_initiative.is_some()))
        .count() as u32;
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 3, controllers: Vec::new(), record_log: false });
    let mut updates = 0;
    while !battle.state().is_over() && updates < 500 {
        battle.step();
        updates += 1;
    }
    let rounds = battle.state().outcome.as_ref().expect("ends").rounds;
    assert!(updates <= rounds + arrivals, "{updates} updates for {rounds} rounds and {arrivals} mid-round arrivals");
}

/// The window resolves a round count by count, to show each before the next
/// ([`ResolveByCount`]): every shipped level must then play the very battle it plays when a
/// round resolves in one run, roll for roll.
#[test]
fn resolving_count_by_count_changes_nothing_in_the_battle() {
    use fray::levels::catalog::builtin::LEVELS;
    use fray::rules::ResolveByCount;
    for (level, _) in LEVELS {
        let template = load_builtin_level(level, &ModSet::default()).expect("shipped level loads");
        let controllers: Vec<(usize, Controller)> =
            (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
        for seed in [0, 3] {
            let setup = BattleSetup { seed, controllers: controllers.clone(), record_log: true };
            let mut whole = HeadlessBattle::new();
            whole.start(&template, &setup);
            whole.run_to_end();
            let mut by_count = HeadlessBattle::new();
            by_count.world_mut().insert_resource(ResolveByCount);
            by_count.start(&template, &setup);
            let mut runs_in_resolve = 0;
            while !by_count.state().is_over() && runs_in_resolve < 100_000 {
                let resolving = by_count.state().phase == fray::rules::CombatPhase::Resolve;
                by_count.step();
                runs_in_resolve += usize::from(resolving);
            }
            let rounds = by_count.state().round as usize;
            let (whole, by_count) = (whole.log().to_json_lines(), by_count.log().to_json_lines());
            let first_difference = whole.lines().zip(by_count.lines()).position(|(one, other)| one != other);
            if let Some(at) = first_difference {
                panic!(
                    "{level} seed {seed}: resolving count by count changed the battle at line {}:\n  whole round: {}\n  by count:    {}",
                    at + 1,
                    whole.lines().nth(at).unwrap_or_default(),
                    by_count.lines().nth(at).unwrap_or_default()
                );
            }
            assert_eq!(whole.lines().count(), by_count.lines().count(), "{level} seed {seed}: as long a log");
            // It did resolve by counts: more resolve runs than rounds.
            // It did resolve by counts: more runs of the resolve stage than rounds.
            assert!(runs_in_resolve > rounds, "{level} seed {seed}: never split a round");
        }
    }
}
