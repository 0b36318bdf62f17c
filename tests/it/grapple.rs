//! Scenario tests for `shock_and_cover`'s grappling (`S-MAN-1`): several grapplers on one foe,
//! each squeezing it; breaking free as one roll against them all; dragging and hurling the held;
//! and opposed checks of STR/Brawl (a shove: STR/Brawl or STR/Exert) on both sides.

use crate::*;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, Place, Square};
use fray::rules::ActionChosen;
use fray::rules::components::*;
use fray::rules::log::{ManeuverOutcome, StatusChange};

const RULESET: &str = "shock_and_cover";
const OPEN: [&str; 3] = ["......", "......", "......"];

fn grid_level(units: &str) -> String {
    grid_level_text(RULESET, &OPEN, RED_AND_BLUE, TEST_CATALOG, units)
}

/// A level of `units` with red's side first (side rolls 8 against 1), then `faces`; every unit
/// has 20 hit points.
fn red_first(units: &str, faces: &[u32]) -> App {
    let mut script = vec![8, 1];
    script.extend_from_slice(faces);
    let mut app = scripted(&grid_level(units), &script);
    for id in ["r1", "r2", "b1"] {
        if units.contains(&format!("\"{id}\"")) {
            hit_points(&mut app, id, 20);
        }
    }
    app
}

/// r1 at (1,1) beside b1 at (2,1).
const PAIR: &str = r#"
    (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
    (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
"#;

/// r1 at (1,1) and r2 at (2,0), both beside b1 at (2,1).
const TRIO: &str = r#"
    (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
    (id: "r2", creature: "soldier", side: "red", at: Some((2, 0))),
    (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
"#;

/// A grapple that lands: the attack roll 15 hits AC 10, then 6+6 against 1+1.
const GRAPPLE_WINS: [u32; 5] = [15, 6, 6, 1, 1];

/// Sends a drag or hurl for `id`, to the square `to` where given.
fn declare_haul(app: &mut App, id: &str, kind: ActionKind, to: Option<(i32, i32)>) {
    let entity = unit(app, id);
    let push_to = to.map(|(x, y)| app.world().resource::<Battlefield>().zone_at(Square { x, y }).expect("open square"));
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action { push_to, ..Action::simple(kind) } });
}

/// Resolves the last declared turn, then runs morale, the end of round and the next round's start.
fn finish_round(app: &mut App) {
    let round = state(app).round;
    for _ in 0..3 {
        app.update();
        if state(app).round > round {
            break;
        }
    }
}

/// The square `id` stands on.
fn square_of(app: &mut App, id: &str) -> [i32; 2] {
    let zone = get::<Zone>(app, id).0;
    let square = app.world().resource::<Battlefield>().zone(zone).square.expect("a grid square");
    [square.x, square.y]
}

fn holders(app: &mut App, id: &str) -> Vec<Entity> {
    get::<Conditions>(app, id).grappled_by.iter().collect()
}

/// Red's grapplers (`ids`, in turn order) seize b1, and b1 holds; the round is left open.
fn grapple_b1(app: &mut App, ids: &[&str]) {
    app.update();
    for id in ids {
        declare(app, id, ActionKind::Grapple, Some("b1"), None);
        app.update();
    }
}

#[test]
fn s_man_1_two_grapplers_hold_one_foe_and_both_squeeze_it() {
    // Both grapples land; the end of the round squeezes b1 for r1's 2 and r2's 3 (1d3, no bonus).
    let mut faces = [GRAPPLE_WINS, GRAPPLE_WINS].concat();
    faces.extend([2, 3]);
    let mut app = red_first(TRIO, &faces);
    grapple_b1(&mut app, &["r1", "r2"]);
    let outcomes: Vec<_> = lines::<line::Maneuver>(&app).iter().map(|contest| contest.outcome).collect();
    assert_eq!(outcomes, [Some(ManeuverOutcome::Grappled), Some(ManeuverOutcome::Grappled)]);
    let (r1, r2, b1) = (unit(&mut app, "r1"), unit(&mut app, "r2"), unit(&mut app, "b1"));
    assert_eq!(holders(&mut app, "b1"), [r1, r2], "the second grapple joins the first");
    assert_eq!(get::<Conditions>(&mut app, "r1").grappling, Some(b1));
    assert_eq!(get::<Conditions>(&mut app, "r2").grappling, Some(b1));
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    let damage = lines::<line::Damage>(&app);
    let squeezes: Vec<(&str, i32)> =
        damage.iter().filter(|hurt| &*hurt.unit == "b1").map(|hurt| (&*hurt.source, hurt.amount)).collect();
    assert_eq!(squeezes, [("r1", 2), ("r2", 3)], "each grappler squeezes");
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 15);
    assert_eq!(holders(&mut app, "b1"), [r1, r2], "both holds outlast the round");
}

#[test]
fn s_man_1_breaking_free_is_one_roll_against_every_grappler() {
    // b1 rolls 5+5 once: it beats r1's 1+2 and not r2's 6+6. r2 squeezes for 2 at the round's end.
    let mut faces = [GRAPPLE_WINS, GRAPPLE_WINS].concat();
    faces.extend([5, 5, 1, 2, 6, 6, 2]);
    let mut app = red_first(TRIO, &faces);
    grapple_b1(&mut app, &["r1", "r2"]);
    declare(&mut app, "b1", ActionKind::BreakFree, None, None);
    app.update();
    let contests: Vec<_> =
        lines::<line::Maneuver>(&app).into_iter().filter(|contest| contest.maneuver == "break_free").collect();
    assert_eq!(contests.len(), 2, "one line per grappler");
    for contest in &contests {
        assert_eq!(&*contest.unit, "b1");
        assert_eq!(contest.roll.dice, [5, 5], "the same single roll");
    }
    assert_eq!((&*contests[0].target, contests[0].won), ("r1", true));
    assert_eq!(contests[0].outcome, Some(ManeuverOutcome::BrokeFree));
    assert_eq!((&*contests[1].target, contests[1].won), ("r2", false));
    assert_eq!(contests[1].outcome, None);
    let (r2, b1) = (unit(&mut app, "r2"), unit(&mut app, "b1"));
    assert_eq!(holders(&mut app, "b1"), [r2], "still held by the one it did not beat");
    assert_eq!(get::<Conditions>(&mut app, "r1").grappling, None);
    assert_eq!(get::<Conditions>(&mut app, "r2").grappling, Some(b1));
    finish_round(&mut app);
    let damage = lines::<line::Damage>(&app);
    let sources: Vec<&str> = damage.iter().filter(|hurt| &*hurt.unit == "b1").map(|hurt| &*hurt.source).collect();
    assert_eq!(sources, ["r2"], "only the hold that lasts squeezes");
}

#[test]
fn s_man_1_a_grappler_drags_its_victim_ten_feet() {
    // Round 1: r1 grapples b1; the squeeze rolls 2. Round 2: the drag's check, 6+6 against 1+1.
    let mut faces = GRAPPLE_WINS.to_vec();
    faces.extend([2, 6, 6, 1, 1]);
    let mut app = red_first(PAIR, &faces);
    grapple_b1(&mut app, &["r1"]);
    declare_haul(&mut app, "b1", ActionKind::Drag, None);
    app.update();
    assert_eq!(lines::<line::Declared>(&app).len(), 1, "refused: b1 holds no one");
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    assert_eq!(state(&app).round, 2);
    declare_haul(&mut app, "r1", ActionKind::Drag, Some((4, 1)));
    app.update();
    assert_eq!(lines::<line::Declared>(&app).len(), 2, "refused: three squares is farther than 10 ft");
    declare_haul(&mut app, "r1", ActionKind::Drag, Some((3, 1)));
    app.update();
    let drag = lines::<line::Maneuver>(&app).pop().expect("the drag's check");
    assert_eq!((drag.maneuver.as_str(), &*drag.unit, &*drag.target), ("drag", "r1", "b1"));
    assert_eq!((drag.won, drag.outcome), (true, Some(ManeuverOutcome::Dragged)));
    assert_eq!(drag.roll.expr.to_string(), "2d6", "STR/Brawl, not the attack skill");
    let moved = lines::<line::Moved>(&app);
    let moves: Vec<_> = moved.iter().map(|step| (&*step.unit, step.from.clone(), step.to.clone())).collect();
    assert_eq!(
        moves,
        [("r1", Place::Square([1, 1]), Place::Square([3, 1])), ("b1", Place::Square([2, 1]), Place::Square([4, 1]))],
        "both move two squares, b1 still beside r1"
    );
    assert_eq!((square_of(&mut app, "r1"), square_of(&mut app, "b1")), ([3, 1], [4, 1]));
    let r1 = unit(&mut app, "r1");
    assert_eq!(holders(&mut app, "b1"), [r1], "the hold goes on");
}

#[test]
fn s_man_1_a_thrown_victim_lands_prone_and_free() {
    // Round 1: r1 and r2 grapple b1; the squeezes roll 2 and 2. Round 2: r1 hurls b1, 6+6 against 1+1.
    let mut faces = [GRAPPLE_WINS, GRAPPLE_WINS].concat();
    faces.extend([2, 2, 6, 6, 1, 1]);
    let mut app = red_first(TRIO, &faces);
    grapple_b1(&mut app, &["r1", "r2"]);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    declare_haul(&mut app, "r1", ActionKind::Hurl, Some((1, 1)));
    app.update();
    assert_eq!(
        lines::<line::Declared>(&app).len(),
        3,
        "refused: a hurl lands beyond the victim, not back on the thrower"
    );
    declare_haul(&mut app, "r1", ActionKind::Hurl, Some((3, 2)));
    app.update();
    let log = app.world().resource::<CombatLog>().entries();
    let at = log
        .iter()
        .position(|entry| line::Maneuver::of(&entry.event).is_some_and(|contest| contest.maneuver == "hurl"))
        .expect("the hurl");
    let hurl = line::Maneuver::of(&log[at].event).expect("the hurl");
    assert_eq!((hurl.won, hurl.outcome), (true, Some(ManeuverOutcome::Thrown)));
    let moved = line::Moved::of(&log[at - 2].event).expect("a move two lines before the hurl's check");
    assert_eq!((&moved.from, &moved.to), (&Place::Square([2, 1]), &Place::Square([3, 2])));
    let fell = line::Status::of(&log[at - 1].event).map(|change| change.status);
    assert_eq!(fell, Some(StatusChange::Prone));
    assert_eq!(square_of(&mut app, "b1"), [3, 2]);
    let held = get::<Conditions>(&mut app, "b1");
    assert!(held.prone);
    assert!(held.grappled_by.is_empty(), "free of every hold, r2's too");
    assert_eq!(get::<Conditions>(&mut app, "r1").grappling, None);
    assert_eq!(get::<Conditions>(&mut app, "r2").grappling, None);
}

#[test]
fn s_man_1_a_lost_drag_frees_the_victim() {
    // Round 1: r1 grapples b1; the squeeze rolls 2. Round 2: the drag's check ties, 3+3 against 4+2.
    let mut faces = GRAPPLE_WINS.to_vec();
    faces.extend([2, 3, 3, 4, 2]);
    let mut app = red_first(PAIR, &faces);
    grapple_b1(&mut app, &["r1"]);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    declare_haul(&mut app, "r1", ActionKind::Drag, Some((0, 1)));
    app.update();
    let drag = lines::<line::Maneuver>(&app).pop().expect("the drag's check");
    assert_eq!((drag.maneuver.as_str(), drag.won), ("drag", false), "ties go to the held");
    assert_eq!(drag.outcome, None);
    assert!(lines::<line::Moved>(&app).is_empty(), "nobody moved");
    assert!(get::<Conditions>(&mut app, "b1").grappled_by.is_empty(), "the defender breaks free");
    assert_eq!(get::<Conditions>(&mut app, "r1").grappling, None);
    assert_eq!((square_of(&mut app, "r1"), square_of(&mut app, "b1")), ([1, 1], [2, 1]));
}

#[test]
fn s_man_1_opposed_checks_use_brawl_and_exert() {
    // A shove: r1 adds the better of Brawl 1 and Exert 3, b1 the better of Brawl 2 and Exert 0;
    // neither adds its attack skill (r1's 5).
    let mut app = red_first(PAIR, &[15, 6, 6, 1, 1]);
    set::<Skills>(&mut app, "r1", |skills| {
        (skills.attack, skills.brawl, skills.exert) = (5, 1, 3);
    });
    set::<Skills>(&mut app, "b1", |skills| skills.brawl = 2);
    app.update();
    declare(&mut app, "r1", ActionKind::Shove, Some("b1"), None);
    app.update();
    let shove = &lines::<line::Maneuver>(&app)[0];
    assert_eq!([shove.roll.expr.to_string(), shove.against.expr.to_string()], ["2d6+3", "2d6+2"]);

    // A grapple is STR/Brawl alone; an NPC adds its Hit Dice and training (4) instead.
    let mut app = red_first(PAIR, &[15, 6, 6, 1, 1]);
    set::<Skills>(&mut app, "r1", |skills| {
        (skills.attack, skills.brawl, skills.exert) = (5, 1, 3);
    });
    set::<Skills>(&mut app, "b1", |skills| skills.npc_attack = Some(4));
    set::<Attributes>(&mut app, "r1", |attributes| attributes.0[0] = 16);
    app.update();
    declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
    app.update();
    let grapple = &lines::<line::Maneuver>(&app)[0];
    assert_eq!(
        [grapple.roll.expr.to_string(), grapple.against.expr.to_string()],
        ["2d6+3", "2d6+4"],
        "r1: Strength 16 (+2) and Brawl 1; b1: 4 for Hit Dice and training"
    );
}

/// Zone a opens onto b, c and d; with `spores`, d's spores (1d20 + Agility against 15, 30
/// poison) test whoever stands there. r1 (the greedy AI) holds b1 in zone a, and b1's armour
/// (AC 30) turns nearly every blow and shove. Red's side first (8 against 1), then `faces`.
fn held_near(spores: bool, faces: &[u32]) -> App {
    let hazard = if spores {
        r#", hazard: Some((name: "spores", test: "1d20", attribute: Agility, tn: 15, damage: "30", damage_type: poison))"#
    } else {
        ""
    };
    let level = format!(
        r#"(
    name: "spores",
    ruleset: "{RULESET}",
    zones: [
        (id: "a", adjacent: ["b", "c", "d"]), (id: "b"), (id: "c"),
        (id: "d"{hazard}),
    ],
    sides: [(name: "red", controller: Ai(greedy)), (name: "blue", controller: Human)],
    {TEST_CATALOG}
    units: [
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    ],
)"#
    );
    let mut script = vec![8, 1];
    script.extend_from_slice(faces);
    let mut app = scripted(&level, &script);
    hit_points(&mut app, "b1", 40);
    set::<Defense>(&mut app, "b1", |defense| defense.bonus = 20);
    let (r1, b1) = (unit(&mut app, "r1"), unit(&mut app, "b1"));
    set::<Conditions>(&mut app, "r1", |conditions| {
        conditions.grappling = Some(b1);
        conditions.bare_hands_in_holds = true;
    });
    set::<Conditions>(&mut app, "b1", |conditions| {
        conditions.grappled_by.insert(r1);
        conditions.bare_hands_in_holds = true;
    });
    app
}

#[test]
fn s_man_1_the_greedy_ai_hurls_its_victim_into_a_hazard() {
    // The hurl's check: 6+6 against 1+1. On zones a hurl lands in a neighbouring zone.
    let mut app = held_near(true, &[6, 6, 1, 1]);
    app.update();
    app.update();
    let declared = &lines::<line::Declared>(&app)[0];
    assert_eq!(declared.action, ActionKind::Hurl, "the spores beat a blow that cannot get through: {declared:?}");
    let hurl = lines::<line::Maneuver>(&app).pop().expect("the hurl's check");
    assert_eq!((hurl.maneuver.as_str(), hurl.outcome), ("hurl", Some(ManeuverOutcome::Thrown)));
    assert_eq!(lines::<line::Moved>(&app)[0].to, Place::Zone("d".into()), "into the spores, not the first zone");
    assert!(get::<Conditions>(&mut app, "b1").prone);
}

#[test]
fn s_man_1_the_greedy_ai_keeps_squeezing_where_no_hazard_waits() {
    // The same hold without the spores: hurling or dragging it would only give up the squeeze.
    let mut app = held_near(false, &[20, 2, 2, 2, 2, 2, 2]);
    app.update();
    app.update();
    let declared = &lines::<line::Declared>(&app)[0];
    assert_ne!(declared.action, ActionKind::Hurl, "{declared:?}");
    assert_ne!(declared.action, ActionKind::Drag, "{declared:?}");
    let r1 = unit(&mut app, "r1");
    assert_eq!(holders(&mut app, "b1"), [r1], "the hold goes on");
}
