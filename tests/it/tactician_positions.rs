//! Hand-made positions for the search AI (issue 8's proof): a killing blow that only a search
//! sees, a unit one blow from death that gets out of reach instead of trading blows, not
//! attacking into a full defense's Reposte, and striking the foe that hurts most rather than the
//! weakest. Each position is played by the greedy AI too: it gets the first two and the last
//! wrong (the search's answer comes from looking ahead and weighing units by their fighting
//! power, not from the greedy heuristics), and the third right.

use crate::*;
use fray::battlefield::Place;
use fray::rules::components::{ActionKind, Declared, Stress, Wounds};
use fray::rules::log::{LogEntry, LogEvent};

/// The AI seed (and dice) every position is played with.
const SEED: u64 = 1;

/// A line level (`a - b - c - d`) with red played by `red` and blue by the greedy AI.
fn position(red: &str, units: &str) -> String {
    line_level("", units).replacen("controller: Human", &format!("controller: Ai({red})"), 1).replacen(
        "controller: Human",
        "controller: Ai(greedy)",
        1,
    )
}

/// Plays the first round of `units` with red played by `red` (after `setup`), and returns
/// `unit`'s first declaration.
fn first_declaration(red: &str, units: &str, unit: &str, setup: impl Fn(&mut bevy::prelude::App)) -> line::Declared {
    first_declaration_on(SEED, red, units, unit, setup)
}

/// [`first_declaration`] with the dice and the AI seeded by `seed`.
fn first_declaration_on(
    seed: u64,
    red: &str,
    units: &str,
    unit: &str,
    setup: impl Fn(&mut bevy::prelude::App),
) -> line::Declared {
    let mut app = app_with(&level_template(&position(red, units)), seed);
    setup(&mut app);
    for _ in 0..4 {
        app.update();
        if let Some(declared) = lines::<line::Declared>(&app).into_iter().find(|declared| &*declared.unit == unit) {
            return declared;
        }
    }
    panic!("{unit} never declared")
}

/// A rooted enemy one blow from death stands a zone away; a healthy one is in reach. The greedy
/// AI reckons an unpinned foe walks off before a blade gets there (×0.35) and strikes the healthy
/// one; the search plays the enemy's reply, sees the rooted one cannot go anywhere, and walks
/// over (without provoking its Reposte) for the kill. On [`ROOTED_SEED`] r1's turn comes before
/// b1's; where b1 strikes first, the search may count the walk's risk of coming to nothing
/// (`LOST_ACTION`) and stay on b1.
const ROOTED_WEAKLING: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "a"),
    (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    (id: "b2", creature: "soldier", side: "blue", zone: "b", speed: Some(0), hd: Some("1"), attributes: Some((strength: 1))),
"#;

/// The seed of [`ROOTED_WEAKLING`].
const ROOTED_SEED: u64 = 2;

#[test]
fn the_search_walks_over_for_a_killing_blow_the_greedy_ai_passes_up() {
    let search = first_declaration_on(ROOTED_SEED, "hard", ROOTED_WEAKLING, "r1", |_| {});
    assert_eq!(search.target.as_deref(), Some("b2"), "the search should go for the rooted weakling: {search:?}");
    assert_eq!(search.move_to, Some(Place::Zone("b".into())), "{search:?}");
    assert_eq!(search.action, ActionKind::DefensiveAttack, "walking in must not provoke b2's Reposte: {search:?}");
    let greedy = first_declaration_on(ROOTED_SEED, "greedy", ROOTED_WEAKLING, "r1", |_| {});
    assert_eq!(greedy.target.as_deref(), Some("b1"), "the greedy AI discounts the unpinned weakling: {greedy:?}");
}

/// A unit one blow from death stands with an axeman; its ally is two zones off, and the axeman
/// walks one zone a round. The greedy AI trades blows (its health share is full, if tiny); the
/// search walks out of the axe's reach.
const ONE_BLOW_FROM_DEATH: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "b", hd: Some("1"), attributes: Some((strength: 2))),
    (id: "r2", creature: "soldier", side: "red", zone: "a"),
    (id: "b1", creature: "soldier", side: "blue", zone: "b", weapon: Some("axe12"), speed: Some(1)),
"#;

#[test]
fn the_search_takes_a_unit_one_blow_from_death_out_of_reach() {
    let search = first_declaration("hard", ONE_BLOW_FROM_DEATH, "r1", |_| {});
    assert_eq!(search.action, ActionKind::Move, "the search should retreat: {search:?}");
    assert_eq!(
        search.move_to,
        Some(Place::Zone("d".into())),
        "out of the axeman's reach (it walks one zone): {search:?}"
    );
    let greedy = first_declaration("greedy", ONE_BLOW_FROM_DEATH, "r1", |_| {});
    assert_eq!(greedy.action, ActionKind::Attack, "the greedy AI trades blows: {greedy:?}");
}

/// Blue declares first here, and its wounded b1 has declared full defense with an axe: any
/// blade swung at it draws a Reposte for 12. Focus fire makes b1 the first target the search's
/// portfolio offers (it is the weakest enemy); the search plays the Reposte out and keeps off
/// b1 (with `hard`'s budget it goes to full defense itself rather than strike the healthy b2). The greedy AI weighs the visible Reposte too, and also strikes b2: this
/// position shows the search is not blind to Repostes, not that it beats the greedy AI here.
const BEHIND_AN_AXE: &str = r#"
    (id: "b1", creature: "soldier", side: "blue", zone: "a", weapon: Some("axe12")),
    (id: "b2", creature: "soldier", side: "blue", zone: "a"),
    (id: "r1", creature: "soldier", side: "red", zone: "a"),
"#;

/// `r1`'s first declaration (its kind and target's id) once blue's b1 (declaring first, played
/// by hand) has declared `b1_action` in plain sight.
fn after_b1_declared(red: &str, b1_action: ActionKind) -> (ActionKind, String) {
    let text = line_level("", BEHIND_AN_AXE).replace(
        r#"sides: [(name: "red", controller: Human), (name: "blue", controller: Human)]"#,
        &format!(r#"sides: [(name: "blue", controller: Human), (name: "red", controller: Ai({red}))]"#),
    );
    let mut app = app_with(&level_template(&text), SEED);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 0);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 3);
    let targets = [("b1", unit(&mut app, "b1")), ("b2", unit(&mut app, "b2"))];
    for _ in 0..6 {
        app.update();
        if get::<Declared>(&mut app, "b1").action.is_none() {
            declare(&mut app, "b1", b1_action, None, None);
        }
        if let Some(action) = get::<Declared>(&mut app, "r1").action {
            let target = targets.iter().find(|(_, entity)| Some(*entity) == action.target).map(|(id, _)| id);
            return (action.kind, target.unwrap_or(&"none").to_string());
        }
    }
    panic!("r1 never declared")
}

#[test]
fn the_search_does_not_attack_into_a_visible_full_defense_reposte() {
    // With 600 rounds the search prefers its own full defense against two foes to a blow on b2;
    // either keeps it off b1's axe.
    let search = after_b1_declared("hard", ActionKind::FullDefense);
    assert_ne!(search.1, "b1", "the search attacked into b1's Reposte: {search:?}");
    // Without the full defense the wounded b1 is the better target: the Reposte is what turns
    // the search away.
    let unguarded = after_b1_declared("hard", ActionKind::Hold);
    assert_eq!(unguarded.1, "b1", "{unguarded:?}");
    let greedy = after_b1_declared("greedy", ActionKind::FullDefense);
    assert_eq!(greedy.1, "b2", "{greedy:?}");
}

/// A hardy red soldier faces two hurt foes in its zone: b1 swings an axe for 12, b2 only taps
/// for 1 and has a little less left. The greedy AI finishes the weakest first (b2); the
/// search weighs each unit by its fighting power, so dropping the axeman is worth far more
/// than dropping the tapper, and it strikes b1.
const AXEMAN_AND_TAPPER: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "a", hd: Some("8d8")),
    (id: "b1", creature: "soldier", side: "blue", zone: "a", weapon: Some("axe12")),
    (id: "b2", creature: "soldier", side: "blue", zone: "a", weapon: Some("tap")),
"#;

/// Both blue foes hurt: nothing left of their Stress, and a blow or two of Wounds.
fn hurt_foes(app: &mut bevy::prelude::App) {
    for (id, wounds) in [("b1", 7), ("b2", 6)] {
        set::<Stress>(app, id, |stress| stress.current = 0);
        set::<Wounds>(app, id, |wounds_now| wounds_now.current = wounds);
    }
}

/// The seeds [`AXEMAN_AND_TAPPER`] is played on: which foe is the better target shows over several
/// dice samples, not on one.
const AXEMAN_SEEDS: std::ops::RangeInclusive<u64> = 1..=12;

#[test]
fn the_search_strikes_the_foe_that_hurts_most_not_the_weakest() {
    let targets = |red: &str| -> Vec<Option<String>> {
        AXEMAN_SEEDS
            .map(|seed| {
                first_declaration_on(seed, red, AXEMAN_AND_TAPPER, "r1", hurt_foes).target.map(|id| id.to_string())
            })
            .collect()
    };
    let search = targets("hard");
    let axeman = search.iter().filter(|target| target.as_deref() == Some("b1")).count();
    assert!(axeman * 2 > search.len(), "the search should mostly drop the axeman first: {search:?}");
    let greedy = targets("greedy");
    assert!(
        greedy.iter().all(|target| target.as_deref() == Some("b2")),
        "the greedy AI finishes the weakest: {greedy:?}"
    );
}

/// Blue's b1 stands a zone from red's r1, and a weakling r2 stands a zone beyond it. b1 walks on
/// to strike r2, and on these seeds it moves before r1's turn comes: the greedy AI's walking blow
/// on b1 finds nobody there (`action_lost`). The search plays b1's walk out, counts the wasted
/// turn against the blow (`LOST_ACTION`) and declares something that happens.
const FOE_WALKS_ON: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "a", speed: Some(1)),
    (id: "r2", creature: "soldier", side: "red", zone: "c", hd: Some("1"), attributes: Some((strength: 1))),
    (id: "b1", creature: "soldier", side: "blue", zone: "b", speed: Some(1)),
"#;

/// The log lines of round 1 about `unit`'s declaration and its loss, played by `red` on `seed`.
fn round_one_of(red: &str, seed: u64, unit: &str) -> Vec<LogEntry> {
    let mut app = app_with(&level_template(&position(red, FOE_WALKS_ON)), seed);
    for _ in 0..6 {
        app.update();
    }
    let about = |entry: &LogEntry| match &entry.event {
        LogEvent::Declared(declared) => &*declared.unit == unit,
        LogEvent::ActionLost(lost) => &*lost.unit == unit,
        _ => false,
    };
    log_entries(&app).into_iter().filter(|entry| entry.round == 1 && about(entry)).collect()
}

#[test]
fn the_search_does_not_waste_its_turn_on_a_foe_that_walks_on() {
    for seed in [4, 8] {
        let greedy = round_one_of("greedy", seed, "r1");
        assert!(
            greedy.iter().any(|entry| matches!(entry.event, LogEvent::ActionLost(_))),
            "seed {seed}: the greedy AI's blow should be lost: {greedy:?}"
        );
        let search = round_one_of("hard", seed, "r1");
        assert!(search.iter().any(|entry| matches!(entry.event, LogEvent::Declared(_))), "seed {seed}: {search:?}");
        assert!(
            search.iter().all(|entry| !matches!(entry.event, LogEvent::ActionLost(_))),
            "seed {seed}: the search wasted r1's turn: {search:?}"
        );
    }
}
