//! Scenario tests for `shock_and_cover`'s held actions (`S-ACT-2`): a hold against a foe names
//! what it does when the foe's turn comes (a spell, first aid, a move, a strike), and it goes
//! first; a hold the foe never answers is lost at the round's end.

use crate::*;
use bevy::prelude::*;
use fray::battlefield::Place;
use fray::battlefield::{Battlefield, Square};
use fray::rules::components::*;
use fray::rules::log::{AttackKind, LogEntry, LogEvent};
use fray::rules::ruleset::Ruleset;
use fray::rules::{ActionChosen, DeclarationRejected};

const RULESET: &str = "shock_and_cover";
const OPEN: [&str; 3] = ["......", "......", "......"];

/// A caster and a medic beside the test catalog's soldiers.
const CASTERS: &str = r#"
        "caster": (name: "Caster", hd: "2d8", attributes: (agility: 10), weapon: "blade", speed: 2, mana: 6, spells: ["firebolt", "healing_word"], skills: (spellcasting: 10, attack: 1)),
"#;

fn grid_level(units: &str) -> String {
    // The test catalog's creatures, with the caster added to them.
    let catalog = TEST_CATALOG.replace("creatures: {", &format!("creatures: {{{CASTERS}"));
    grid_level_text(RULESET, &OPEN, RED_AND_BLUE, &catalog, units)
}

fn square(app: &App, at: (i32, i32)) -> fray::battlefield::ZoneIdx {
    app.world().resource::<Battlefield>().zone_at(Square { x: at.0, y: at.1 }).expect("open square")
}

fn declare_at(app: &mut App, id: &str, kind: ActionKind, target: Option<&str>, to: (i32, i32)) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to = square(app, to);
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action::new(kind, target, Some(move_to)) });
}

/// `id` holds its action against `foe`, naming `plan` (kind, target, destination square).
fn hold_against(app: &mut App, id: &str, foe: &str, plan: (ActionKind, Option<&str>, Option<(i32, i32)>)) {
    let entity = unit(app, id);
    let foe = unit(app, foe);
    let target = plan.1.map(|target| unit(app, target));
    let move_to = plan.2.map(|at| square(app, at));
    let plan = HeldPlan { kind: plan.0, target, move_to };
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action::hold_against(foe, plan) });
}

/// Where the first line of kind `L` that `wanted` picks stands in the log, and the line.
fn position<'a, L: Line>(log: &'a [LogEntry], what: &str, wanted: impl Fn(&L) -> bool) -> (usize, &'a L) {
    log.iter()
        .enumerate()
        .find_map(|(at, entry)| L::of(&entry.event).filter(|line| wanted(line)).map(|line| (at, line)))
        .unwrap_or_else(|| panic!("no {what} in the log: {log:#?}"))
}

fn declared_by(app: &App, id: &str) -> Vec<line::Declared> {
    lines::<line::Declared>(app).into_iter().filter(|declared| &*declared.unit == id).collect()
}

#[test]
fn s_act_2_a_held_spell_goes_off_before_the_awaited_foe_acts() {
    // Blue first: b1 holds against r1, naming a firebolt at it. r1 runs up to strike b1; the
    // firebolt (casting 15, damage 3 + 3) goes off as r1's turn comes, before its move.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "caster", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8, 15, 3, 3, 15, 4, 15, 4]);
    hit_points(&mut app, "r1", 20);
    hit_points(&mut app, "b1", 20);
    app.update();
    hold_against(&mut app, "b1", "r1", (ActionKind::Cast(0), Some("r1"), None));
    app.update();
    declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (4, 1));
    app.update();
    let log = log_entries(&app);
    let (r1_declared, r1_line) =
        position(&log, "r1's declaration", |declared: &line::Declared| &*declared.unit == "r1");
    let (held, held_line) =
        position(&log, "b1's held cast", |declared: &line::Declared| &*declared.unit == "b1" && declared.held);
    let (cast, _) = position(&log, "the cast", |cast: &line::Cast| &*cast.unit == "b1");
    let (moved, _) = position(&log, "r1's move", |moved: &line::Moved| &*moved.unit == "r1");
    assert!(r1_declared < held && held < cast && cast < moved, "r1 declares, b1's spell goes off, then r1 moves");
    assert!(matches!(held_line.action, ActionKind::Cast(_)), "{held_line:?}");
    assert_eq!(held_line.target.as_deref(), Some("r1"));
    assert_eq!(held_line.initiative, r1_line.initiative, "at the foe's place");
    assert!(get::<Wounds>(&mut app, "r1").current < 20, "the firebolt burnt r1");
    assert_eq!(get::<Mana>(&mut app, "b1").current, 4, "the firebolt's 2 Mana are spent");
    finish(&mut app);
    assert_eq!(declared_by(&app, "b1").len(), 2, "the held spell was b1's action: no turn after the round's last");
}

#[test]
fn s_act_2_a_held_first_aid_answers_the_foe() {
    // b1 holds against r1, naming first aid for b2, dying beside it. As r1's turn comes, b1
    // tends b2 (the check rolls 6 + 6) before r1 walks up and strikes.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b2", creature: "soldier", side: "blue", at: Some((5, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8, 6, 6, 15, 4, 15, 4, 6, 6]);
    hit_points(&mut app, "r1", 20);
    hit_points(&mut app, "b1", 20);
    set::<Wounds>(&mut app, "b2", |wounds| wounds.current = 0);
    set::<Status>(&mut app, "b2", |status| *status = Status::Dying);
    app.update();
    // The dying b2 comes first in blue's turn order and lies still.
    declare(&mut app, "b2", ActionKind::Hold, None, None);
    app.update();
    hold_against(&mut app, "b1", "r1", (ActionKind::Stabilize, Some("b2"), None));
    app.update();
    declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (3, 1));
    app.update();
    let log = log_entries(&app);
    let (held, held_line) =
        position(&log, "b1's held first aid", |declared: &line::Declared| &*declared.unit == "b1" && declared.held);
    let (aid, _) = position(&log, "the first aid", |aid: &line::Stabilise| &*aid.unit == "b1");
    let (moved, _) = position(&log, "r1's move", |moved: &line::Moved| &*moved.unit == "r1");
    let (blow, _) = position(&log, "r1's blow", |attack: &line::Attack| &*attack.attacker == "r1");
    assert_eq!((held_line.action, held_line.target.as_deref()), (ActionKind::Stabilize, Some("b2")));
    assert!(held < aid && aid < moved && moved < blow, "the first aid comes before r1's move and blow");
    assert!(get::<Conditions>(&mut app, "b2").stabilised, "b2 is stabilised");
}

#[test]
fn s_act_2_a_held_move_steps_away_before_the_foe_strikes() {
    // b1 holds against r1, naming a step back to (5, 1). r1 comes to strike it from (1, 1), but
    // b1 has stepped away first: r1's blow finds nobody in reach.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8, 15, 4, 15, 4]);
    hit_points(&mut app, "r1", 20);
    hit_points(&mut app, "b1", 20);
    app.update();
    hold_against(&mut app, "b1", "r1", (ActionKind::Move, None, Some((5, 1))));
    app.update();
    declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (1, 1));
    app.update();
    let log = log_entries(&app);
    let (stepped, step) = log
        .iter()
        .enumerate()
        .rev()
        .find_map(|(at, entry)| {
            line::Moved::of(&entry.event).filter(|moved| &*moved.unit == "b1").map(|moved| (at, moved))
        })
        .expect("b1 steps away");
    let (came, _) = position(&log, "r1's move", |moved: &line::Moved| &*moved.unit == "r1");
    let (lost, lost_line) = position(&log, "r1's lost blow", |lost: &line::ActionLost| &*lost.unit == "r1");
    assert!(stepped < came && came < lost, "b1 steps away, r1 comes, its blow is lost");
    assert_eq!(lost_line.reason, "target_out_of_reach");
    assert_eq!(step.to, Place::Square([5, 1]));
    assert!(attacks_by(&app, "r1").is_empty());
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 20);
}

#[test]
fn s_act_2_a_held_strike_may_fall_on_another_foe_when_the_awaited_one_comes() {
    // b1 holds against r1, far off, naming a blow at r2 beside it: as r1's turn comes, b1
    // strikes r2 (15, 4), a held blow.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "r2", creature: "soldier", side: "red", at: Some((3, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8, 15, 4, 15, 4, 15, 4]);
    for id in ["r1", "r2", "b1"] {
        hit_points(&mut app, id, 20);
    }
    app.update();
    hold_against(&mut app, "b1", "r1", (ActionKind::Attack, Some("r2"), None));
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    let held: Vec<line::Attack> = attacks_by(&app, "b1");
    assert_eq!(held.len(), 1);
    assert_eq!((&*held[0].target, held[0].kind), ("r2", AttackKind::Held));
    assert_eq!(get::<Wounds>(&mut app, "r2").current, 16);
}

#[test]
fn s_act_2_an_untriggered_held_action_is_lost_at_the_round_end() {
    // b1 holds against r1, which never comes into reach: when the round's turns are over the
    // held action is lost (`turns.unanswered_hold_lapses`, on in shock_and_cover).
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8]);
    app.update();
    declare(&mut app, "b1", ActionKind::HoldAction, Some("r1"), None);
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    finish(&mut app);
    let log = log_entries(&app);
    let (lost, lost_line) = position(&log, "the lapse", |lost: &line::ActionLost| &*lost.unit == "b1");
    let ended = log
        .iter()
        .position(|entry| matches!(entry.event, LogEvent::RoundEnded {}))
        .unwrap_or_else(|| panic!("no round's end in the log: {log:#?}"));
    let (r1_turn, _) = position(&log, "r1's turn", |declared: &line::Declared| &*declared.unit == "r1");
    assert!(r1_turn < lost && lost < ended, "lost after the round's last turn, before the round ends");
    assert_eq!(lost_line.reason, "held_action_lapsed");
    assert_eq!(declared_by(&app, "b1").len(), 1, "no turn after the round's last");
    assert!(attacks_by(&app, "b1").is_empty());
}

#[test]
fn s_act_2_an_unanswered_hold_is_taken_after_the_last_turn_where_it_does_not_lapse() {
    // With `turns.unanswered_hold_lapses` off, b1's hold against r1, never answered, is taken
    // in a turn of its own after the round's last, declared then.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8]);
    app.world_mut().resource_mut::<Ruleset>().turns.unanswered_hold_lapses = false;
    app.update();
    declare(&mut app, "b1", ActionKind::HoldAction, Some("r1"), None);
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish(&mut app);
    let turns: Vec<(&str, i32)> =
        declared_by(&app, "b1").iter().map(|declared| (declared.action.log_name(), declared.initiative)).collect();
    assert_eq!(turns, vec![("hold_action", 1), ("hold", 3)]);
    assert!(lines::<line::ActionLost>(&app).is_empty());
}

#[test]
fn s_act_2_a_held_plan_needs_a_foe_to_wait_for() {
    // Naming what the held action does is for a hold against a foe: without one it is refused.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(units), &[1, 8]);
    app.update();
    let b1 = unit(&mut app, "b1");
    let plan = HeldPlan { kind: ActionKind::FullDefense, target: None, move_to: None };
    let action = Action { held: Some(plan), ..Action::simple(ActionKind::HoldAction) };
    app.world_mut().write_message(ActionChosen { unit: b1, action });
    app.update();
    let rejected: Vec<DeclarationRejected> =
        app.world_mut().resource_mut::<Messages<DeclarationRejected>>().drain().collect();
    assert_eq!(rejected.len(), 1, "refused");
    assert_eq!(rejected[0].reason, fray::rules::actions::IllegalAction::BadHeldPlan);
    assert!(declared_by(&app, "b1").is_empty());
}

/// Runs the round to its end.
fn finish(app: &mut App) {
    let round = state(app).round;
    for _ in 0..3 {
        app.update();
        if state(app).round > round {
            break;
        }
    }
}
