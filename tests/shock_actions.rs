//! Scenario tests for `shock_and_cover`'s action economy (`S-ACT-1`, `S-ACT-2`, `S-SPEC-1`):
//! total defense as an Instant action after an attack roll, and the swarm's four assailants.

mod common;

use bevy::prelude::*;
use common::*;
use fray::rules::components::*;

const RULESET: &str = "shock_and_cover";
const OPEN: [&str; 3] = ["......", "......", "......"];

fn grid_level(units: &str) -> String {
    let rows: Vec<String> = OPEN.iter().map(|row| format!("\"{row}\"")).collect();
    format!(
        r#"(
    name: "action economy scenario",
    ruleset: "{RULESET}",
    grid: Some((rows: [{}], squares_per_zone: 6)),
    sides: [(name: "red", controller: Human), (name: "blue", controller: Human)],
    {TEST_CATALOG}
    units: [{units}],
)"#,
        rows.join(", ")
    )
}

fn hit_points(app: &mut App, id: &str, points: i32) {
    set::<Wounds>(app, id, |wounds| {
        wounds.current = points;
        wounds.max = wounds.max.max(points);
    });
}

fn attacks_by(app: &App, attacker: &str) -> Vec<serde_json::Value> {
    events(app, "attack").into_iter().filter(|attack| attack["attacker"] == attacker).collect()
}

/// r1 at (1,1) next to b1 at (2,1), red's side first; b1 has 5 hit points and attack skill 1, too
/// little for a snap attack, so only total defense can answer r1's blow.
fn red_strikes_a_weak_b1(faces: &[u32]) -> App {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut script = vec![8, 1];
    script.extend_from_slice(faces);
    let mut app = scripted(&grid_level(units), &script);
    hit_points(&mut app, "r1", 20);
    hit_points(&mut app, "b1", 5);
    set::<Skills>(&mut app, "b1", |skills| skills.attack = 1);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    app
}

#[test]
fn s_spec_1_total_defense_is_taken_after_the_attack_roll_and_spends_the_main_action() {
    // 9 + attack 2 = 11 hits AC 10; b1's 5 hit points are within r1's 1d8: it gives up its
    // Main action for +2 AC, and the blow meets AC 12 and misses.
    let mut app = red_strikes_a_weak_b1(&[9, 4]);
    let statuses = events(&app, "status");
    assert_eq!((statuses[0]["unit"].as_str(), statuses[0]["status"].as_str()), (Some("b1"), Some("full_defense")));
    let attack = &attacks_by(&app, "r1")[0];
    assert_eq!((attack["defense"].as_i64(), attack["hit"].as_bool()), (Some(12), Some(false)));
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 5, "no damage");
    let conditions = get::<Conditions>(&mut app, "b1");
    assert!(conditions.full_defense && conditions.snapped);
    // Its Main action is gone: in its own turn it may only move (or hold).
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    app.update();
    assert!(attacks_by(&app, "b1").is_empty(), "no attack left this round");
}

#[test]
fn s_spec_1_total_defense_is_not_taken_when_it_cannot_turn_the_blow() {
    // 15 + 2 = 17 hits AC 12 all the same: b1 keeps its Main action and takes the blow.
    let mut app = red_strikes_a_weak_b1(&[15, 4]);
    assert!(events(&app, "status").iter().all(|line| line["status"] != "full_defense"));
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 1);
    assert!(!get::<Conditions>(&mut app, "b1").snapped);

    // A blow that cannot take b1 down is not worth its Main action.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[8, 1, 9, 4]);
    hit_points(&mut app, "b1", 20);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(attacks_by(&app, "r1")[0]["hit"], true);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 16);
}

#[test]
fn s_spec_1_at_most_four_assailants_swarm_one_target_a_round() {
    // Five red soldiers around b1: the fifth cannot join the swarm, and r6 strikes at +6.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 0))),
        (id: "r2", creature: "soldier", side: "red", at: Some((2, 0))),
        (id: "r3", creature: "soldier", side: "red", at: Some((3, 0))),
        (id: "r4", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "r5", creature: "soldier", side: "red", at: Some((3, 1))),
        (id: "r6", creature: "soldier", side: "red", at: Some((2, 2))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[8, 1, 6, 4]);
    hit_points(&mut app, "b1", 20);
    app.update();
    for id in ["r1", "r2", "r3", "r4", "r5"] {
        declare(&mut app, id, ActionKind::Swarm, Some("b1"), None);
        app.update();
    }
    let lost = events(&app, "action_lost");
    assert_eq!(lost.len(), 1, "only the fifth swarm is lost");
    assert_eq!((lost[0]["unit"].as_str(), lost[0]["reason"].as_str()), (Some("r5"), Some("swarm_full")));
    assert_eq!(state(&app).swarm_assailants, vec![(unit(&mut app, "b1"), 0, 4)]);
    declare(&mut app, "r6", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(attacks_by(&app, "r6")[0]["swarm_bonus"], 6);
}
