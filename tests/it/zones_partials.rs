//! Scenario tests for the parts of `zones_and_tests` that the first version left partial, named
//! by rule ID: worn-out weapons (`Z-CRIT-1`), hazards in each unit's turn (`Z-ZONE-3`), and
//! stunts (`Z-STUNT-1`).

use crate::*;
use bevy::prelude::*;
use fray::battlefield::Place;
use fray::rules::components::*;
use fray::rules::equipment::{Attribute, Hindrance, Lingering};
use fray::rules::log::StatusChange;
use fray::rules::log::{Affliction, ManeuverOutcome};

const RULESET: &str = "zones_and_tests";

/// A zone level in the shape of [`line_level`] under `zones_and_tests`.
fn zone_level(units: &str) -> String {
    line_level(&format!("ruleset: \"{RULESET}\","), units)
}

/// r1 (party) and b1 face each other in zone a; the party begins (side roll 4), both roll 3.
fn duel(units: &str, faces: &[u32]) -> App {
    let mut script = vec![4, 3, 3];
    script.extend_from_slice(faces);
    let mut app = scripted(&zone_level(units), &script);
    for id in ["r1", "b1"] {
        set::<Wounds>(&mut app, id, |wounds| {
            wounds.current = 20;
            wounds.max = 20;
        });
    }
    app
}

const DUEL: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "a"),
    (id: "b1", creature: "soldier", side: "blue", zone: "a"),
"#;

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

/// Plays r1's attack on b1 and b1's hold, to the start of the next round.
fn r1_attacks(app: &mut App) {
    declare(app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    declare(app, "b1", ActionKind::Hold, None, None);
    finish_round(app);
}

#[test]
fn z_crit_1_the_third_usage_mark_breaks_the_weapon() {
    // Two fumbles wear the blade; the third breaks it. Then r1 fights bare-handed.
    let mut app = duel(DUEL, &[1, 1, 1]);
    app.update();
    for _ in 0..3 {
        r1_attacks(&mut app);
    }
    let usage = lines::<line::WeaponUsage>(&app);
    let marks: Vec<_> = usage.iter().map(|mark| (mark.marks, mark.broken)).collect();
    assert_eq!(marks, [(1, false), (2, false), (3, true)], "only the third mark breaks the blade");
    let conditions = get::<Conditions>(&mut app, "r1");
    assert!(conditions.is_broken(Hand::Main));
    let loadout = get::<Loadout>(&mut app, "r1");
    assert_eq!(loadout.usable_weapon(&conditions).0, "unarmed");
}

#[test]
fn z_crit_1_a_broken_weapon_leaves_the_off_hand_one_with_marks_of_its_own() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", offhand: Some("tap")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    // The blade has two marks already: one fumble breaks it. The next fumble is the tap's first
    // mark; then a hit with the tap deals its 1 damage (no second weapon to keep the higher of).
    let mut app = duel(units, &[1, 1, 15, 1]);
    set::<Conditions>(&mut app, "r1", |conditions| conditions.usage_marks[Hand::Main.index()] = 2);
    app.update();
    r1_attacks(&mut app);
    r1_attacks(&mut app);
    let usage = lines::<line::WeaponUsage>(&app);
    assert_eq!(&*usage[0].weapon, "blade");
    assert!(usage[0].broken);
    assert_eq!(&*usage[1].weapon, "tap");
    assert_eq!(usage[1].marks, 1);
    r1_attacks(&mut app);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 19, "the tap's 1 damage, not the broken blade's 1d8");
}

/// Zones `a - b`, `a` full of spores that test Agility against 15 and deal 3 poison.
fn spore_level(units: &str) -> String {
    hazard_level("", units)
}

/// [`spore_level`] with `extra` fields in the spores' hazard.
fn hazard_level(extra: &str, units: &str) -> String {
    format!(
        r#"(
    name: "spores",
    ruleset: "{RULESET}",
    zones: [
        (id: "a", adjacent: ["b"], hazard: Some((name: "spores", test: "1d20", attribute: Agility, tn: 15, damage: "3", damage_type: poison{extra}))),
        (id: "b"),
    ],
    sides: [(name: "red", controller: Human), (name: "blue", controller: Human)],
    {TEST_CATALOG}
    units: [{units}],
)"#
    )
}

#[test]
fn z_zone_3_a_hazard_tests_each_unit_as_its_turn_begins() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#;
    // The party begins; r1's turn opens in the spores: it rolls 2 and takes 3 before it declares.
    let mut app = scripted(&spore_level(units), &[4, 3, 3, 2]);
    let before = get::<Wounds>(&mut app, "r1").current;
    app.update();
    let hazard = lines::<line::Hazard>(&app);
    assert_eq!(hazard.len(), 1, "tested as its turn begins, before it declares");
    assert_eq!((&*hazard[0].unit, hazard[0].passed), ("r1", false));
    assert_eq!(get::<Wounds>(&mut app, "r1").current, before - 3);
    // It walks out of the spores: no test at the end of the round, nor in its next turn.
    declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    assert_eq!(state(&app).round, 2);
    assert_eq!(lines::<line::Hazard>(&app).len(), 1, "no end-of-round test");
}

#[test]
fn z_stunt_1_a_held_unit_tests_to_break_free_as_its_turn_begins() {
    // r1 grapples b1 (15 + 2 against 3). As b1's turn begins it tests to break free: 14 + 2
    // against r1's 5. Free again, it walks off in the same turn.
    let mut app = duel(DUEL, &[15, 3, 14, 5]);
    app.update();
    declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
    app.update();
    assert!(!get::<Conditions>(&mut app, "b1").grappled_by.is_empty());
    // Its test comes as its turn begins, before its declaration is checked.
    declare(&mut app, "b1", ActionKind::Disengage, None, Some("b"));
    app.update();
    let maneuvers = lines::<line::Maneuver>(&app);
    assert_eq!(maneuvers.len(), 2);
    assert_eq!(maneuvers[0].outcome, Some(ManeuverOutcome::Grappled));
    assert_eq!(maneuvers[1].maneuver, "break_free");
    assert_eq!(&*maneuvers[1].unit, "b1");
    assert_eq!(&*maneuvers[1].target, "r1");
    assert_eq!(maneuvers[1].outcome, Some(ManeuverOutcome::BrokeFree));
    assert_eq!(get::<Conditions>(&mut app, "r1").grappling, None);
    assert_eq!(lines::<line::Moved>(&app).last().expect("b1 moves").to, Place::Zone("b".into()));
}

#[test]
fn z_stunt_1_a_failed_break_free_keeps_the_hold() {
    // 3 + 2 against 12: ties or worse keep b1 held.
    let mut app = duel(DUEL, &[15, 3, 3, 12]);
    app.update();
    declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let maneuvers = lines::<line::Maneuver>(&app);
    assert!(!maneuvers[1].won);
    assert_eq!(maneuvers[1].outcome, None);
    assert!(!get::<Conditions>(&mut app, "b1").grappled_by.is_empty());
}

#[test]
fn z_stunt_1_a_unit_shoved_into_a_dead_end_gets_up_without_a_free_attack() {
    // r1's pike reaches d from c. Pushed from d there is nowhere farther from r1: b1 falls. In
    // its turn it stands up; the pike that reaches it strikes no free attack.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "c", weapon: Some("pike")),
        (id: "b1", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let mut app = duel(units, &[15, 3]);
    app.update();
    declare(&mut app, "r1", ActionKind::Shove, Some("b1"), None);
    app.update();
    assert_eq!(lines::<line::Maneuver>(&app)[0].outcome, Some(ManeuverOutcome::KnockedProne));
    assert!(get::<Conditions>(&mut app, "b1").prone);
    declare(&mut app, "b1", ActionKind::StandUp, None, None);
    app.update();
    assert!(!get::<Conditions>(&mut app, "b1").prone, "standing again");
    assert!(lines::<line::Attack>(&app).is_empty(), "rising in its own zone gives no free attack");
}

/// r1 in `r1_zone`, b1 and a dead b2 in d; b1 checks morale and fails it (5 against 12).
fn losing_side(r1_zone: &str) -> App {
    let units = format!(
        r#"
        (id: "r1", creature: "soldier", side: "red", zone: "{r1_zone}"),
        (id: "b1", creature: "soldier", side: "blue", zone: "d"),
        (id: "b2", creature: "soldier", side: "blue", zone: "d"),
    "#
    );
    let mut app = scripted(&zone_level(&units), &[4, 3, 3, 3, 5]);
    set::<Status>(&mut app, "b2", |status| *status = Status::Dead);
    let b1 = unit(&mut app, "b1");
    app.world_mut().entity_mut(b1).insert(ChecksMorale);
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    assert!(!lines::<line::Morale>(&app)[0].passed);
    app
}

#[test]
fn z_mor_1_a_failing_unit_with_no_foe_close_flees() {
    let mut app = losing_side("a");
    assert_eq!(get::<Status>(&mut app, "b1"), Status::Fled);
    assert!(
        lines::<line::Status>(&app)
            .iter()
            .any(|change| &*change.unit == "b1" && change.status == StatusChange::Became(Status::Fled))
    );
}

#[test]
fn z_mor_1_a_failing_unit_with_a_foe_close_parleys() {
    let mut app = losing_side("d");
    assert_eq!(get::<Status>(&mut app, "b1"), Status::Surrendered);
    assert!(
        lines::<line::Status>(&app).iter().any(|change| &*change.unit == "b1" && change.status == StatusChange::Parley)
    );
}

/// Makes `id` weakened until it passes a Strength test it cannot pass.
fn weaken(app: &mut App, id: &str) {
    let lingering = Lingering::at_turn_end(Attribute::Strength, 30);
    set::<Conditions>(app, id, |conditions| conditions.hindrance = Some((Hindrance::Weakened, lingering)));
}

#[test]
fn z_hind_1_a_weakened_party_member_avoids_with_disadvantage() {
    // r1 holds; its end-of-turn test to shake the weakness off rolls twice (5, 6). b1 attacks:
    // r1's avoid test rolls 15 and 4, and the lower counts: the blow lands for 5.
    let mut app = duel(DUEL, &[5, 6, 15, 4, 5]);
    weaken(&mut app, "r1");
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    app.update();
    let lingering = &lines::<line::Lingering>(&app)[0];
    let other = lingering.disadvantage_roll.as_ref().map(|roll| roll.total);
    assert_eq!(other, Some(6), "the test to shake it off is a test too");
    let attack = &lines::<line::Attack>(&app)[0];
    assert!(attack.extra.avoid);
    assert_eq!(attack.total, 4);
    assert_eq!(attack.extra.disadvantage_roll.as_ref().map(|roll| roll.total), Some(15));
    assert!(attack.hit);
    assert_eq!(get::<Wounds>(&mut app, "r1").current, 15);
}

#[test]
fn z_hind_1_a_weakened_unit_rolls_its_hazard_test_with_disadvantage() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#;
    // 16 would resist the spores (TN 15); the second roll, 2, counts.
    let mut app = scripted(&spore_level(units), &[4, 3, 3, 16, 2]);
    weaken(&mut app, "r1");
    app.update();
    let hazard = &lines::<line::Hazard>(&app)[0];
    assert_eq!(hazard.roll.total, 2);
    assert_eq!(hazard.disadvantage_roll.as_ref().map(|roll| roll.total), Some(16));
    assert!(!hazard.passed);
}

#[test]
fn z_hind_1_a_weakened_aggressor_rolls_its_stunt_with_disadvantage() {
    // r1 rolls 15 and 3 for its grapple: 3 + 2 against b1's 10 loses.
    let mut app = duel(DUEL, &[15, 3, 10]);
    weaken(&mut app, "r1");
    app.update();
    declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
    app.update();
    let maneuver = &lines::<line::Maneuver>(&app)[0];
    assert_eq!(maneuver.roll.total, 5);
    assert_eq!(maneuver.disadvantage_roll.as_ref().map(|roll| roll.total), Some(17));
    assert!(!maneuver.won);
}

#[test]
fn z_hind_1_a_hazard_can_leave_a_hindrance_shaken_off_by_its_own_test() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#;
    // r1 fails the spores (2) and is weakened. Its end-of-turn test is the spores' own, Agility
    // against 15, rolled with disadvantage: 16 and 17, the 16 counts and shakes it off.
    let mut app = scripted(&hazard_level(", hinders: Some(weakened)", units), &[4, 3, 3, 2, 16, 17]);
    app.update();
    let afflicted = &lines::<line::Afflicted>(&app)[0];
    assert_eq!((afflicted.effect, &*afflicted.source), (Affliction::Hindrance(Hindrance::Weakened), "spores"));
    assert!(unit_weakened(&mut app, "r1"));
    declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let lingering = &lines::<line::Lingering>(&app)[0];
    assert_eq!((lingering.tn, lingering.shaken_off), (15, true));
    assert_eq!(lingering.roll.total, 16);
    assert!(!unit_weakened(&mut app, "r1"));
}

#[test]
fn z_ongo_1_a_hazard_can_leave_ongoing_damage() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#;
    // r1 fails (2): 3 poison and 2 a turn until it passes Agility against 15 (it rolls 4).
    let mut app = scripted(&hazard_level(", ongoing: Some(2)", units), &[4, 3, 3, 2, 4]);
    let start = get::<Wounds>(&mut app, "r1").current;
    app.update();
    assert_eq!(lines::<line::Afflicted>(&app)[0].effect, Affliction::OngoingDamage);
    declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
    app.update();
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    finish_round(&mut app);
    assert!(!lines::<line::Lingering>(&app)[0].shaken_off);
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(get::<Wounds>(&mut app, "r1").current, start - 3 - 2, "the spores, then 2 as its next turn began");
}

fn unit_weakened(app: &mut App, id: &str) -> bool {
    matches!(get::<Conditions>(app, id).hindrance, Some((Hindrance::Weakened, _)))
}
