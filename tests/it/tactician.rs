//! The search AI (`hard`, `master`) and its forward model: the model replays the engine exactly,
//! the search only declares legal actions, plays the same for the same seed, and never reads
//! what its side may not know.

use bevy::prelude::*;
use fray::ai::forward::{ForwardModel, Snapshot};
use fray::ai::{SearchInFlight, SearchThread};
use fray::headless::HeadlessBattle;
use fray::levels::catalog::builtin::LEVELS;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, BattleTemplate, load_builtin_level};
use fray::rules::components::{Action, AiKind, Controller, Declared, SpawnOrder};
use fray::rules::dice::CombatRng;
use fray::rules::log::line::{self, Line};
use fray::rules::log::{AttackKind, CombatLog, LogEntry};
use fray::rules::ruleset::DeclarationOrder;
use fray::rules::{CombatPhase, CombatState, DeclarationQueue, DeclarationRejected, DeclareSystems};
use proptest::prelude::*;

/// What the test captured of one round of the real battle.
#[derive(Resource, Default)]
struct Captured {
    /// The round to capture.
    round: u32,
    /// The battle and the dice just before anyone declared.
    before: Option<(Snapshot, CombatRng)>,
    /// What every unit declared, in the declaration order.
    declared: Vec<(Entity, Action)>,
}

fn capture_before(world: &mut World) {
    let round = world.resource::<CombatState>().round;
    let fresh = world.resource::<DeclarationQueue>().done.iter().all(|done| !done);
    let wanted = world.resource::<Captured>().round;
    if round == wanted && fresh && world.resource::<Captured>().before.is_none() {
        let snapshot = Snapshot::from_world(world);
        let rng = world.resource::<CombatRng>().clone();
        world.resource_mut::<Captured>().before = Some((snapshot, rng));
    }
}

fn capture_declared(world: &mut World) {
    let round = world.resource::<CombatState>().round;
    if round != world.resource::<Captured>().round || !world.resource::<DeclarationQueue>().complete() {
        return;
    }
    let order = world.resource::<DeclarationQueue>().order.clone();
    let declared: Vec<(Entity, Action)> = order
        .iter()
        .filter_map(|&unit| {
            world.get::<Declared>(unit).and_then(|declared| declared.action).map(|action| (unit, action))
        })
        .collect();
    world.resource_mut::<Captured>().declared = declared;
}

fn every_side(template: &BattleTemplate, kind: AiKind) -> Vec<(usize, Controller)> {
    (0..template.sides.len()).map(|side| (side, Controller::Ai(kind))).collect()
}

/// The log lines of `round` from its first declaration on.
fn round_lines(log: &CombatLog, round: u32) -> Vec<LogEntry> {
    let lines: Vec<&LogEntry> = log.entries().iter().filter(|entry| entry.round == round).collect();
    let first = lines.iter().position(|entry| line::Declared::of(&entry.event).is_some()).unwrap_or(lines.len());
    lines[first..].iter().map(|&entry| entry.clone()).collect()
}

#[test]
fn the_forward_model_replays_the_engine_round_for_round() {
    let mut lost_seen = 0;
    for (level, round) in [("ambush.ron", 1), ("ambush.ron", 3), ("melee.ron", 2), ("crucible_skirmish.ron", 2)] {
        let template = load_builtin_level(level, &ModSet::default()).unwrap();
        let mut battle = HeadlessBattle::new();
        let app = battle.app_mut();
        app.insert_resource(Captured { round, ..Default::default() });
        app.add_systems(
            Update,
            (
                capture_before.after(DeclareSystems::Open).before(DeclareSystems::Choose),
                capture_declared.after(DeclareSystems::Record).before(DeclareSystems::Close),
            )
                .run_if(|state: Res<CombatState>| state.phase == CombatPhase::Declare),
        );
        battle.start(
            &template,
            &BattleSetup { seed: 5, controllers: every_side(&template, AiKind::Greedy), record_log: true },
        );
        battle.run_to_end();
        let engine = round_lines(battle.log(), round);
        let captured = battle.world_mut().remove_resource::<Captured>().unwrap();
        let (snapshot, rng) = captured.before.unwrap_or_else(|| panic!("{level}: round {round} was never declared"));
        let mut model = ForwardModel::new();
        model.load(&snapshot);
        model.reset(&snapshot, rng, true);
        for (unit, action) in captured.declared {
            model.declare(unit, action);
        }
        model.resolve_round();
        let simulated = round_lines(model.log(), round);
        assert!(!engine.is_empty(), "{level}: round {round} has no log");
        assert_eq!(simulated, engine, "{level} round {round}: the forward model and the engine disagree");
        let logged_lost: Vec<&str> = simulated
            .iter()
            .filter_map(|entry| line::ActionLost::of(&entry.event))
            .map(|lost| snapshot.units.iter().find(|unit| unit.id() == &*lost.unit))
            .map(|unit| unit.expect("every action_lost line names a unit").id())
            .collect();
        let reported_lost: Vec<&str> =
            snapshot.units.iter().filter(|unit| model.lost_action(unit.entity, round)).map(|unit| unit.id()).collect();
        let mut logged_sorted = logged_lost.clone();
        logged_sorted.sort_unstable();
        let mut reported_sorted = reported_lost;
        reported_sorted.sort_unstable();
        assert_eq!(reported_sorted, logged_sorted, "{level} round {round}: the lost actions the model reports");
        lost_seen += logged_sorted.len();
    }
    assert!(lost_seen > 0, "no replayed round loses an action, so the report is untested");
}

/// Plays `level` with `kind` on every side and returns the log; panics on any rejected declaration.
fn play(level: &str, kind: AiKind, seed: u64, max_rounds: u32) -> Vec<LogEntry> {
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed, controllers: every_side(&template, kind), record_log: true });
    let mut updates = 0;
    while !battle.state().is_over() && battle.state().round <= max_rounds && updates < max_rounds * 8 {
        battle.step();
        updates += 1;
        let rejected = battle.world().resource::<Messages<DeclarationRejected>>();
        let illegal: Vec<_> = rejected.iter_current_update_messages().collect();
        assert!(illegal.is_empty(), "{level} seed {seed}: {kind:?} declared illegal actions: {illegal:?}");
    }
    battle.log().entries().to_vec()
}

#[test]
fn the_search_never_declares_an_illegal_action_on_any_preset() {
    for (level, _) in LEVELS.iter().filter(|(level, _)| *level != "melee.ron") {
        play(level, AiKind::Hard, 0, 4);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random battles (level, seed, and how far they have got) of every preset: every
    /// declaration the search makes passes the rules' own check.
    #[test]
    fn the_search_declares_only_legal_actions_in_random_states(
        level in 0..LEVELS.len(),
        seed in any::<u64>(),
        rounds in 1u32..6,
    ) {
        let (level, _) = LEVELS[level];
        prop_assume!(level != "melee.ron");
        play(level, AiKind::Hard, seed, rounds);
    }
}

#[test]
fn the_search_plays_the_same_for_the_same_seed() {
    for level in ["ambush.ron", "shock_and_cover_skirmish.ron"] {
        let first = play(level, AiKind::Hard, 11, 3);
        let second = play(level, AiKind::Hard, 11, 3);
        assert_eq!(first, second, "{level}: the same seed gave two different battles");
    }
}

/// Plays `level` with `hard` on every side, the search running on `thread`, for `rounds`
/// rounds; returns the log and how many frames found the search still thinking.
fn play_searching_on(level: &str, seed: u64, rounds: u32, thread: SearchThread) -> (Vec<LogEntry>, u32) {
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    battle.world_mut().insert_resource(thread);
    battle.start(&template, &BattleSetup { seed, controllers: every_side(&template, AiKind::Hard), record_log: true });
    let (mut updates, mut waited) = (0, 0);
    while !battle.state().is_over() && battle.state().round <= rounds && updates < 100_000 {
        battle.step();
        if battle.world().resource::<SearchInFlight>().thinking() {
            // Frames spent waiting for a search on another thread do not count towards the
            // cap: how many there are depends on the machine, not on the battle.
            waited += 1;
            std::thread::sleep(std::time::Duration::from_millis(1));
        } else {
            updates += 1;
        }
    }
    // The two runs stop after different numbers of frames: compare the rounds both finished.
    let finished = battle.log().entries().iter().filter(|entry| entry.round <= rounds).cloned().collect();
    (finished, waited)
}

#[test]
fn a_search_on_the_task_pool_plays_the_same_battle_as_one_inline() {
    for level in ["ambush.ron", "shock_and_cover_skirmish.ron"] {
        let (inline, _) = play_searching_on(level, 5, 3, SearchThread::Inline);
        let (background, waited) = play_searching_on(level, 5, 3, SearchThread::Background);
        assert!(waited > 0, "{level}: the search never ran in the background");
        assert_eq!(inline, background, "{level}: thinking in the background changed the battle");
    }
}

/// The hard AI's declarations for the first round of `level`, with the other side's units
/// already carrying `enemy_declaration` (as if they had declared in secret before it).
fn first_plan_with_enemy_declared(level: &str, enemy_declaration: Option<Action>) -> Vec<(u32, Action)> {
    let mut template = load_builtin_level(level, &ModSet::default()).unwrap();
    template.declaration_order = Some(DeclarationOrder::SimultaneousSecret);
    let mut battle = HeadlessBattle::new();
    let controllers = vec![(0, Controller::Ai(AiKind::Hard)), (1, Controller::Human)];
    battle.start(&template, &BattleSetup { seed: 3, controllers, record_log: true });
    // Surprise and initiative, up to the first declaration.
    while battle.state().phase != CombatPhase::Declare {
        battle.step();
    }
    let world = battle.world_mut();
    let mut enemies = world.query::<(Entity, &fray::rules::components::SideIndex, &mut Declared)>();
    let mut hidden = Vec::new();
    for (entity, side, mut declared) in enemies.iter_mut(world) {
        if side.0 == 1 {
            declared.action = enemy_declaration;
            hidden.push(entity);
        }
    }
    // As the declare stage records a human's secret choice: stored, and marked as declared.
    if enemy_declaration.is_some() {
        let mut queue = world.resource_mut::<DeclarationQueue>();
        for entity in hidden {
            queue.mark_done(entity);
        }
    }
    battle.step();
    let world = battle.world_mut();
    let mut units = world.query::<(&SpawnOrder, &fray::rules::components::SideIndex, &Declared)>();
    let mut plan: Vec<(u32, Action)> = units
        .iter(world)
        .filter(|(_, side, _)| side.0 == 0)
        .filter_map(|(order, _, declared)| declared.action.map(|action| (order.0, action)))
        .collect();
    plan.sort_by_key(|(order, _)| *order);
    plan
}

#[test]
fn a_snapshot_for_one_side_holds_none_of_the_others_secret_declarations() {
    let mut template = load_builtin_level("ambush.ron", &ModSet::default()).unwrap();
    template.declaration_order = Some(DeclarationOrder::SimultaneousSecret);
    let mut battle = HeadlessBattle::new();
    let controllers = vec![(0, Controller::Human), (1, Controller::Human)];
    battle.start(&template, &BattleSetup { seed: 3, controllers, record_log: true });
    while battle.state().phase != CombatPhase::Declare {
        battle.step();
    }
    battle.step();
    let world = battle.world_mut();
    // Every unit of both sides has written its action down in secret.
    let defend = Action::simple(fray::rules::components::ActionKind::FullDefense);
    let mut units = world.query::<(Entity, &fray::rules::components::SideIndex, &mut Declared)>();
    let mut all = Vec::new();
    for (entity, side, mut declared) in units.iter_mut(world) {
        declared.action = Some(defend);
        all.push((entity, side.0));
    }
    // Only the units that may act this round are in the declaration order (the surprised are not).
    let mut queue = world.resource_mut::<DeclarationQueue>();
    all.retain(|(entity, _)| queue.order.contains(entity));
    assert!(all.iter().any(|(_, side)| *side == 0) && all.iter().any(|(_, side)| *side == 1));
    for &(entity, _) in &all {
        queue.mark_done(entity);
    }
    let everything = Snapshot::from_world(world);
    let for_side_0 = Snapshot::from_world_as(world, Some(0));
    for &(entity, side) in &all {
        assert_eq!(everything.unit(entity).unwrap().declared_action(), Some(defend));
        assert!(everything.has_declared(entity));
        let seen = for_side_0.unit(entity).unwrap();
        if side == 0 {
            assert_eq!(seen.declared_action(), Some(defend), "a side knows its own declarations");
            assert!(for_side_0.has_declared(entity));
        } else {
            assert_eq!(seen.declared_action(), None, "side 0 must not see side {side}'s secret declaration");
            assert!(!for_side_0.has_declared(entity), "side {side}'s unit must declare again in the model");
        }
    }
}

#[test]
fn the_search_never_reads_the_enemys_secret_declarations() {
    // With secret declarations, the party's choices must not depend on what the monsters (a
    // human here, who has already written theirs down) declared.
    let level = "ambush.ron";
    let defend = Some(Action::simple(fray::rules::components::ActionKind::FullDefense));
    let hold = Some(Action::simple(fray::rules::components::ActionKind::Hold));
    let unseen = first_plan_with_enemy_declared(level, None);
    assert!(!unseen.is_empty());
    assert_eq!(first_plan_with_enemy_declared(level, defend), unseen);
    assert_eq!(first_plan_with_enemy_declared(level, hold), unseen);
}

/// Turns in which one unit made two `normal` attacks: only a second attack bought with both
/// Bonus Actions does that (a free hit or a Reposte has a kind of its own).
fn turns_with_two_attacks(log: &[LogEntry]) -> usize {
    let mut attacks: std::collections::HashMap<(u32, &str), usize> = std::collections::HashMap::new();
    for entry in log {
        if let Some(attack) = line::Attack::of(&entry.event)
            && attack.kind == AttackKind::Normal
        {
            *attacks.entry((entry.round, &*attack.attacker)).or_default() += 1;
        }
    }
    attacks.values().filter(|&&count| count >= 2).count()
}

#[test]
fn a_bonus_1_the_search_buys_a_second_attack_where_the_greedy_ai_never_does() {
    let level = "aimed_wounds_skirmish.ron";
    let (mut greedy, mut hard) = (0, 0);
    for seed in 0..3 {
        greedy += turns_with_two_attacks(&play(level, AiKind::Greedy, seed, 5));
        hard += turns_with_two_attacks(&play(level, AiKind::Hard, seed, 5));
    }
    assert_eq!(greedy, 0, "the greedy AI spends its Bonus Actions as the rules' default says");
    assert!(hard > 0, "the search never took the second attack the portfolio offers");
}
