//! Scenario tests, named by rule ID, for levels whose party is not the first side: marking the
//! second side `party: Some(true)` makes it, and only it, the party in every rule that asks.

use crate::*;
use bevy::prelude::*;
use fray::rules::components::*;

/// The two sides, `red` first and `blue` marked as the party.
const BLUE_IS_THE_PARTY: &str =
    r#"(name: "red", controller: Human), (name: "blue", controller: Human, party: Some(true))"#;

/// A zone level `a - b - c - d` under `zones_and_tests` with blue as the party.
fn zone_level(units: &str) -> String {
    format!(
        r#"(
    name: "party second",
    ruleset: "zones_and_tests",
    zones: [(id: "a", adjacent: ["b"]), (id: "b", adjacent: ["c"]), (id: "c", adjacent: ["d"]), (id: "d")],
    sides: [{BLUE_IS_THE_PARTY}],
    {TEST_CATALOG}
    units: [{units}],
)"#
    )
}

/// An open 6 × 3 grid under `shock_and_cover` with blue as the party.
fn grid_level(units: &str) -> String {
    format!(
        r#"(
    name: "party second on a grid",
    ruleset: "shock_and_cover",
    grid: Some((rows: ["......", "......", "......"], squares_per_zone: 6)),
    sides: [{BLUE_IS_THE_PARTY}],
    {TEST_CATALOG}
    units: [{units}],
)"#
    )
}

/// The side named by the only `side_initiative` line that says it begins.
fn beginning_side(app: &App) -> String {
    let sides = lines::<line::SideInitiative>(app);
    assert_eq!(sides.len(), 1, "one side roll: {sides:?}");
    assert_eq!(sides[0].begins, Some(true));
    sides[0].side.to_string()
}

const APART: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "a"),
    (id: "b1", creature: "soldier", side: "blue", zone: "d"),
"#;

#[test]
fn z_init_1_a_low_side_roll_lets_the_unmarked_first_side_begin() {
    // Side roll 1: below 4, so the party (blue) does not begin; red, the other side, does.
    let mut app = scripted(&zone_level(APART), &[1, 3, 3]);
    app.update();
    assert_eq!(beginning_side(&app), "red");
    let (r1, b1) = (unit(&mut app, "r1"), unit(&mut app, "b1"));
    let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
    assert_eq!(order, vec![r1, b1]);
}

#[test]
fn z_init_1_a_side_roll_of_4_lets_the_marked_second_side_begin() {
    let mut app = scripted(&zone_level(APART), &[4, 3, 3]);
    app.update();
    assert_eq!(beginning_side(&app), "blue");
    let (r1, b1) = (unit(&mut app, "r1"), unit(&mut app, "b1"));
    let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
    assert_eq!(order, vec![b1, r1]);
}

#[test]
fn z_atk_2_only_the_marked_party_rolls_to_avoid() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    // Side roll 4, both units roll 3. b1 holds; r1's attack is b1's avoid test: 11 < 12 fails
    // to avoid, and the blade deals 6.
    let mut app = scripted(&zone_level(units), &[4, 3, 3, 11, 6]);
    set::<Wounds>(&mut app, "b1", |wounds| (wounds.current, wounds.max) = (20, 20));
    app.update();
    // Whoever begins, b1 holds and r1 attacks, so only the avoid rule is under test here.
    let b1 = unit(&mut app, "b1");
    let b1_first = state(&app).turns.first().is_some_and(|(_, group)| group.contains(&b1));
    if b1_first {
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        app.update();
    }
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(attacks.len(), 1, "{attacks:?}");
    assert_eq!(&*attacks[0].attacker, "r1");
    assert!(attacks[0].extra.avoid, "a creature's attack on the party is the party's avoid test");
    assert!(attacks[0].hit);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 14);
}

#[test]
fn z_atk_2_the_unmarked_first_side_does_not_roll_to_avoid() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    // Side roll 4, both units roll 3. r1 holds; b1's attack is its own test: 10 + 2 = 12 hits.
    let mut app = scripted(&zone_level(units), &[4, 3, 3, 10, 6]);
    set::<Wounds>(&mut app, "r1", |wounds| (wounds.current, wounds.max) = (20, 20));
    app.update();
    let r1 = unit(&mut app, "r1");
    let r1_first = state(&app).turns.first().is_some_and(|(_, group)| group.contains(&r1));
    if r1_first {
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
    }
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(attacks.len(), 1, "{attacks:?}");
    assert!(!attacks[0].extra.avoid, "the party's attack is its own test, not red's avoid test");
    assert_eq!(attacks[0].total, 12);
    assert!(attacks[0].hit);
}

#[test]
fn s_init_1_only_the_marked_party_adds_its_best_dex_and_wins_ties() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), attributes: Some((dexterity: 16))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        (id: "b2", creature: "soldier", side: "blue", at: Some((5, 1)), attributes: Some((dexterity: 16))),
    "#;
    // Red rolls 5 and adds nothing; blue rolls 3 and adds b2's +2: a tie the party wins.
    let mut app = scripted(&grid_level(units), &[5, 3]);
    app.update();
    let scores: Vec<(String, i32)> =
        lines::<line::SideInitiative>(&app).iter().map(|side| (side.side.to_string(), side.score)).collect();
    assert_eq!(scores, vec![("red".into(), 5), ("blue".into(), 5)]);
    let r1 = unit(&mut app, "r1");
    let turns = state(&app).turns;
    assert_eq!(turns.last().unwrap().1, vec![r1], "red acts after the whole party");
}
