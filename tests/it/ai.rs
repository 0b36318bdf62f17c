//! The baseline AIs: legal, sensible, and complete (they use every kind of action).

use std::collections::BTreeSet;

use crate::*;
use bevy::prelude::*;
use fray::battlefield::Place;
use fray::headless::HeadlessBattle;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, load_builtin_level};
use fray::rules::DeclarationRejected;
use fray::rules::components::{ActionKind, AiKind, Controller};
use fray::rules::log::AttackKind;

fn ai_level(units: &str) -> String {
    line_level("", units).replace("controller: Human", "controller: Ai(greedy)")
}

#[test]
fn the_random_ai_only_declares_legal_actions_and_tries_them_all() {
    let mut kinds = BTreeSet::new();
    for level in ["ambush.ron", "duel.ron", "reinforcements.ron"] {
        let template = load_builtin_level(level, &ModSet::default()).unwrap();
        for seed in 0..40 {
            let mut battle = HeadlessBattle::new();
            let controllers = vec![(0, Controller::Ai(AiKind::Random)), (1, Controller::Ai(AiKind::Random))];
            battle.start(&template, &BattleSetup { seed, controllers, record_log: true });
            let mut rejected = 0;
            while !battle.state().is_over() {
                battle.step();
                let messages = battle.world().resource::<Messages<DeclarationRejected>>();
                rejected += messages.iter_current_update_messages().count();
            }
            assert_eq!(rejected, 0, "{level} seed {seed}: the random AI declared an illegal action");
            for declared in battle.log().lines::<line::Declared>() {
                kinds.insert(declared.action.log_name());
            }
        }
    }
    for kind in
        ["attack", "defensive_attack", "full_defense", "move", "hold", "cast", "use_item", "throw", "intimidate"]
    {
        assert!(kinds.contains(kind), "the random AI never tried {kind}: {kinds:?}");
    }
}

#[test]
fn the_greedy_ai_attacks_an_enemy_in_reach() {
    let mut app = app_with(
        &level_template(&ai_level(
            r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#,
        )),
        1,
    );
    app.update();
    let declared = lines::<line::Declared>(&app);
    assert!(declared.iter().all(|declaration| declaration.action == ActionKind::Attack), "{declared:?}");
}

#[test]
fn the_greedy_ai_closes_in_without_provoking_repostes() {
    let mut app = app_with(
        &level_template(&ai_level(
            r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#,
        )),
        1,
    );
    app.update();
    let declared = lines::<line::Declared>(&app);
    let red = declared.iter().find(|declaration| &*declaration.unit == "r1").unwrap();
    assert_eq!(red.action, ActionKind::DefensiveAttack, "moving into b1's zone would provoke a Reposte: {red:?}");
    assert_eq!(red.move_to, Some(Place::Zone("b".into())));
    assert!(lines::<line::Attack>(&app).iter().all(|attack| attack.kind != AttackKind::Reposte));
}

#[test]
fn the_greedy_ai_walks_toward_distant_enemies() {
    let mut app = app_with(
        &level_template(&ai_level(
            r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "d", speed: Some(0)),
    "#,
        )),
        1,
    );
    app.update();
    let moved = lines::<line::Moved>(&app);
    assert!(moved.iter().any(|step| &*step.unit == "r1"), "r1 should move toward b1");
}

#[test]
fn the_greedy_ai_defends_when_losing_the_exchange() {
    let mut app = app_with(
        &level_template(&ai_level(
            r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", weapon: Some("axe12")),
        (id: "b2", creature: "soldier", side: "blue", zone: "a", weapon: Some("axe12")),
    "#,
        )),
        1,
    );
    set::<fray::rules::components::Stress>(&mut app, "r1", |stress| stress.current = 0);
    set::<fray::rules::components::Wounds>(&mut app, "r1", |wounds| wounds.current = 3);
    app.update();
    let red = lines::<line::Declared>(&app).into_iter().find(|declared| &*declared.unit == "r1").unwrap();
    assert_eq!(red.action, ActionKind::FullDefense, "{red:?}");
}

#[test]
fn the_greedy_ai_stabilises_a_dying_friend() {
    let mut app = app_with(
        &level_template(&ai_level(
            r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", skills: Some((heal: 4))),
        (id: "r2", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "d", speed: Some(0)),
    "#,
        )),
        1,
    );
    set::<fray::rules::components::Status>(&mut app, "r2", |status| *status = fray::rules::components::Status::Dying);
    set::<fray::rules::components::Wounds>(&mut app, "r2", |wounds| wounds.current = -2);
    app.update();
    let red = lines::<line::Declared>(&app).into_iter().find(|declared| &*declared.unit == "r1").unwrap();
    assert_eq!(red.action, ActionKind::Stabilize);
    assert_eq!(red.target.as_deref(), Some("r2"));
}

#[test]
fn greedy_beats_random() {
    let template = load_builtin_level("duel.ron", &ModSet::default()).unwrap();
    let mut greedy_wins = 0;
    let mut random_wins = 0;
    let mut battle = HeadlessBattle::new();
    for seed in 0..200 {
        for (greedy_side, random_side) in [(0, 1), (1, 0)] {
            let controllers =
                vec![(greedy_side, Controller::Ai(AiKind::Greedy)), (random_side, Controller::Ai(AiKind::Random))];
            battle.start(&template, &BattleSetup { seed, controllers, record_log: false });
            match battle.run_to_end().and_then(|outcome| outcome.winner) {
                Some(side) if side == greedy_side => greedy_wins += 1,
                Some(_) => random_wins += 1,
                None => {}
            }
        }
    }
    assert!(greedy_wins > 2 * random_wins, "greedy {greedy_wins} vs random {random_wins}");
}

#[test]
fn the_greedy_ai_never_full_defends_two_rounds_running() {
    let mut battle = HeadlessBattle::new();
    for level in ["duel.ron", "ambush.ron", "reinforcements.ron"] {
        let template = load_builtin_level(level, &ModSet::default()).unwrap();
        for seed in 0..60 {
            battle.start(&template, &BattleSetup { seed, controllers: Vec::new(), record_log: true });
            battle.run_to_end();
            let mut last: std::collections::HashMap<&str, (&str, u32)> = Default::default();
            for entry in battle.log().entries() {
                let Some(declared) = line::Declared::of(&entry.event).filter(|declared| !declared.carried_over) else {
                    continue;
                };
                let (unit, action, round) = (&*declared.unit, declared.action.log_name(), entry.round);
                if action == "full_defense" {
                    assert_ne!(
                        last.get(unit),
                        Some(&("full_defense", round - 1)),
                        "{level} seed {seed}: {unit} in round {round}"
                    );
                }
                last.insert(unit, (action, round));
            }
        }
    }
}

/// Round 1's declarations in a fight of two against two in one zone, where `b1` has one Wound
/// Point left; `r1` declares through the UI (attacking `b1`) when `by_hand`, else greedy does.
fn declarations_around_a_weak_foe(by_hand: bool) -> Vec<line::Declared> {
    use fray::rules::components::{Stress, Wounds};
    let text = ai_level(
        r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "r2", creature: "soldier", side: "red", zone: "a"),
        (id: "b2", creature: "soldier", side: "blue", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#,
    );
    let mut app = app_with(&level_template(&text), 1);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 0);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
    if by_hand {
        set::<Controller>(&mut app, "r1", |controller| *controller = Controller::Human);
    }
    // Up to r1's turn to declare: the first in the round-robin order (r1, b2, r2, b1: the weak
    // foe declares last, so r2 cannot see what it does).
    app.update();
    if by_hand {
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    }
    for _ in 0..3 {
        app.update();
    }
    lines::<line::Declared>(&app)
}

#[test]
fn allies_declared_before_a_human_still_count_once_the_pass_resumes() {
    for by_hand in [false, true] {
        let declared = declarations_around_a_weak_foe(by_hand);
        let target = |unit: &str| {
            declared
                .iter()
                .find(|declaration| &*declaration.unit == unit)
                .map(|declaration| declaration.target.as_deref())
        };
        assert_eq!(target("r1"), Some(Some("b1")), "by hand: {by_hand}: {declared:?}");
        // r1's blow is expected to fell b1: r2 strikes the other foe, whether r1 declared in the
        // same pass or the pass waited for a human to declare it.
        assert_eq!(target("r2"), Some(Some("b2")), "by hand: {by_hand}: {declared:?}");
    }
}
