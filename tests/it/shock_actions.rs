//! Scenario tests for `shock_and_cover`'s action economy (`S-ACT-1`, `S-ACT-2`, `S-SPEC-1`):
//! standing up as a Move action and going prone as a Free one, total defense as an Instant
//! action after an attack roll, and the swarm's four assailants.

use crate::*;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, Square};
use fray::rules::components::*;
use fray::rules::log::StatusChange;
use fray::rules::log::{AttackKind, ManeuverOutcome};
use fray::rules::{ActionChosen, CombatPhase};

const RULESET: &str = "shock_and_cover";
const OPEN: [&str; 3] = ["......", "......", "......"];

fn grid_level(units: &str) -> String {
    grid_level_text(RULESET, &OPEN, RED_AND_BLUE, TEST_CATALOG, units)
}

fn declare_at(app: &mut App, id: &str, kind: ActionKind, target: Option<&str>, to: (i32, i32)) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to = app.world().resource::<Battlefield>().zone_at(Square { x: to.0, y: to.1 }).expect("open square");
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action::new(kind, target, Some(move_to)) });
}

/// The `declared` lines of `id`, as (action, initiative).
fn declared_by(app: &App, id: &str) -> Vec<(&'static str, i32)> {
    lines::<line::Declared>(app)
        .into_iter()
        .filter(|declared| &*declared.unit == id)
        .map(|declared| (declared.action.log_name(), declared.initiative))
        .collect()
}

fn finish_round(app: &mut App) {
    let round = state(app).round;
    for _ in 0..3 {
        app.update();
        if state(app).round > round {
            break;
        }
    }
}

fn status_of(app: &mut App, id: &str) -> Status {
    get::<Status>(app, id)
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
    let statuses = lines::<line::Status>(&app);
    assert_eq!((&*statuses[0].unit, statuses[0].status), ("b1", StatusChange::FullDefense));
    let attack = &attacks_by(&app, "r1")[0];
    assert_eq!((attack.defense, attack.hit), (12, false));
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
    assert!(lines::<line::Status>(&app).iter().all(|status| status.status != StatusChange::FullDefense));
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
    assert!(attacks_by(&app, "r1")[0].hit);
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
    let lost = lines::<line::ActionLost>(&app);
    assert_eq!(lost.len(), 1, "only the fifth swarm is lost");
    assert_eq!((&*lost[0].unit, lost[0].reason.as_str()), ("r5", "swarm_full"));
    assert_eq!(state(&app).swarm_assailants, vec![(unit(&mut app, "b1"), 0, 4)]);
    declare(&mut app, "r6", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(attacks_by(&app, "r6")[0].extra.swarm_bonus, Some(6));
}

/// r1 at (1,1) next to b1 at (2,1), both with 20 hit points; red's side goes first.
fn side_by_side(faces: &[u32]) -> App {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut script = vec![8, 1];
    script.extend_from_slice(faces);
    let mut app = scripted(&grid_level(units), &script);
    hit_points(&mut app, "r1", 20);
    hit_points(&mut app, "b1", 20);
    app
}

#[test]
fn s_act_2_standing_up_spends_only_the_move_and_the_main_action_follows() {
    // b1's attack of opportunity rolls 1 and misses; then r1, on its feet, strikes with 15.
    let mut app = side_by_side(&[1, 15, 4]);
    set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
    app.update();
    declare(&mut app, "r1", ActionKind::StandUp, None, None);
    app.update();
    assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::Opportunity);
    assert!(!get::<Conditions>(&mut app, "r1").prone);
    // Same turn: the Move is spent, so no step before the blow.
    declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (1, 2));
    app.update();
    assert_eq!(declared_by(&app, "r1").len(), 1, "refused: the move went into standing up");
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(declared_by(&app, "r1"), vec![("stand_up", 1), ("attack", 1)], "one turn, two parts");
    assert!(attacks_by(&app, "r1")[0].hit);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 16);
    assert!(declared_by(&app, "b1").is_empty(), "b1's turn has not come yet");
}

#[test]
fn s_act_2_a_unit_that_crawls_before_standing_up_has_no_action_left() {
    // Crawling out of b1's reach draws its attack of opportunity: a 1, a miss.
    let mut app = side_by_side(&[1]);
    set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
    app.update();
    // Crawling a square is the Move, standing up then takes the Main action.
    declare_at(&mut app, "r1", ActionKind::StandUp, None, (0, 1));
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(declared_by(&app, "r1").len(), 1);
    assert_eq!(declared_by(&app, "b1").len(), 1, "b1's turn came straight after r1's");
}

#[test]
fn s_act_1_going_prone_is_a_free_action_before_the_turn_s_move_and_action() {
    // r1 drops and then strikes from the ground at -4: 15 + 2 - 4 = 13.
    let mut app = side_by_side(&[15, 4]);
    app.update();
    declare(&mut app, "r1", ActionKind::GoProne, None, None);
    app.update();
    assert!(get::<Conditions>(&mut app, "r1").prone);
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(declared_by(&app, "r1"), vec![("go_prone", 1), ("attack", 1)]);
    assert_eq!(attacks_by(&app, "r1")[0].total, 13);

    // After a move, dropping leaves only the Main action: no second step.
    let mut app = side_by_side(&[]);
    app.update();
    declare_at(&mut app, "r1", ActionKind::GoProne, None, (1, 0));
    app.update();
    declare_at(&mut app, "r1", ActionKind::Disengage, None, (0, 0));
    app.update();
    assert_eq!(declared_by(&app, "r1").len(), 1, "refused: the Move is spent");
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(declared_by(&app, "r1").len(), 2);
}

#[test]
fn s_act_2_the_greedy_ai_stands_up_and_strikes_in_the_same_turn() {
    let mut app = side_by_side(&[1, 15, 4]);
    set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
    let r1 = unit(&mut app, "r1");
    app.world_mut().entity_mut(r1).insert(Controller::Ai(AiKind::Greedy));
    for _ in 0..4 {
        app.update();
    }
    let actions: Vec<&str> = declared_by(&app, "r1").into_iter().map(|(action, _)| action).collect();
    assert_eq!(actions[..2], ["stand_up", "attack"]);
    assert_ne!(state(&app).phase, CombatPhase::Over);
}

#[test]
fn s_act_2_a_held_action_against_a_foe_strikes_it_before_its_own_action() {
    // Blue goes first: b1 holds its action against r1. When r1's turn comes and it declares its
    // blow, b1's held strike (15, 1d8 = 4) lands first and leaves r1 mortally wounded; r1's blow
    // (15, 4) follows.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8, 15, 4, 15, 4]);
    hit_points(&mut app, "r1", 3);
    hit_points(&mut app, "b1", 20);
    app.update();
    declare(&mut app, "b1", ActionKind::HoldAction, Some("r1"), None);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    finish_round(&mut app);
    let attacks = lines::<line::Attack>(&app);
    assert_eq!((&*attacks[0].attacker, attacks[0].kind), ("b1", AttackKind::Held));
    assert_eq!((&*attacks[1].attacker, attacks[1].kind), ("r1", AttackKind::Normal));
    assert_eq!(status_of(&mut app, "r1"), Status::Dying, "struck down before its blow");
    assert_eq!(
        declared_by(&app, "b1"),
        vec![("hold_action", 1), ("attack", 2)],
        "the held strike, declared at r1's place, was b1's action: no turn after the round's last"
    );
}

#[test]
fn s_act_2_a_held_action_waits_while_its_foe_is_out_of_reach() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8]);
    app.update();
    declare(&mut app, "b1", ActionKind::HoldAction, Some("r1"), None);
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    assert!(lines::<line::Attack>(&app).is_empty());
    finish_round(&mut app);
    assert_eq!(declared_by(&app, "b1"), vec![("hold_action", 1)], "out of reach: b1 kept waiting");
    let lost = lines::<line::ActionLost>(&app);
    assert_eq!((&*lost[0].unit, lost[0].reason.as_str()), ("b1", "held_action_lapsed"));
}

#[test]
fn s_act_2_a_held_action_meets_a_foe_that_walks_into_reach_before_its_blow() {
    // r1 runs up to b1 and swings; b1, holding against it, strikes as r1 arrives (15, 4), first.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8, 15, 4, 15, 4]);
    hit_points(&mut app, "r1", 20);
    hit_points(&mut app, "b1", 20);
    app.update();
    declare(&mut app, "b1", ActionKind::HoldAction, Some("r1"), None);
    app.update();
    declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (4, 1));
    app.update();
    let log = log_entries(&app);
    let moved = line_position(&log, |_: &line::Moved| true).expect("r1 moves");
    let held = line_position(&log, |attack: &line::Attack| attack.kind == AttackKind::Held).expect("held strike");
    let blow = line_position(&log, |attack: &line::Attack| &*attack.attacker == "r1").expect("r1's blow");
    assert!(moved < held && held < blow, "the move, then the held strike, then the blow");
    assert_eq!(get::<Wounds>(&mut app, "r1").current, 16);
}

#[test]
fn s_act_2_screening_an_ally_is_a_move_action_and_the_main_action_follows() {
    // r2 steps beside r1 to screen it, then strikes b1 in the same turn (15, 4). b1's blow at r1
    // then meets r2's screen: 2d6 + 2 each, 12 against 2, and falls on r2 (15, 4).
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "r2", creature: "soldier", side: "red", at: Some((0, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[8, 1, 15, 4, 6, 6, 1, 1, 15, 4]);
    for id in ["r1", "r2", "b1"] {
        hit_points(&mut app, id, 20);
    }
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    declare_at(&mut app, "r2", ActionKind::Screen, Some("r1"), (1, 0));
    app.update();
    declare(&mut app, "r2", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(declared_by(&app, "r2"), vec![("screen", 2), ("attack", 2)]);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 16);
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    app.update();
    let screen = &lines::<line::Maneuver>(&app)[0];
    assert_eq!((&*screen.unit, screen.outcome), ("r2", Some(ManeuverOutcome::Screened)));
    assert_eq!(get::<Wounds>(&mut app, "r2").current, 16, "the screen made in the turn's first part holds");
}

#[test]
fn s_spec_1_a_charge_can_end_in_a_thrown_attack() {
    // r1 runs two squares straight at b1 and, still three squares off, throws its javelin:
    // 15 + attack 2 + charge 2.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), items: Some([("javelin", 1)])),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[8, 1, 15, 4]);
    hit_points(&mut app, "b1", 20);
    app.update();
    declare_at(&mut app, "r1", ActionKind::Charge, Some("b1"), (2, 1));
    app.update();
    let attack = &attacks_by(&app, "r1")[0];
    assert_eq!((attack.kind, attack.extra.charge), (AttackKind::Thrown, true));
    assert_eq!(attack.total, 19);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 16, "the javelin's 1d6 = 4");
    assert!(get::<Conditions>(&mut app, "r1").charging, "its AC is 2 lower until the round ends");
    assert_eq!(get::<Inventory>(&mut app, "r1").0[0].count, 0, "the javelin is gone");

    // With nothing to throw, the run must end in melee reach.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[8, 1]);
    app.update();
    declare_at(&mut app, "r1", ActionKind::Charge, Some("b1"), (2, 1));
    app.update();
    assert!(declared_by(&app, "r1").is_empty(), "refused");
}
