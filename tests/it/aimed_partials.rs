//! Scenario tests for the `aimed_wounds` rules that were once partial (issue 10), named by rule
//! ID: chosen Bonus Actions (`A-TURN-1`, `A-BONUS-1`), delaying a turn (`A-INIT-1`), the
//! escalation chains (`A-CRIT-1`, `A-FAIL-1`), summoning spells (`A-SUMM-1`), slow ground
//! (`A-MOVE-1`, `A-FEAT-1`) and closing wounds (`A-WOUND-1`).

use crate::*;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, Square};
use fray::rules::ActionChosen;
use fray::rules::components::*;
use fray::rules::log::AttackKind;

const RULESET: &str = "aimed_wounds";

/// A grid level under `aimed_wounds` with sides `red` and `blue`, the test catalog, and `units`.
fn grid_level(rows: &[&str], units: &str) -> String {
    grid_level_text(RULESET, rows, RED_AND_BLUE, TEST_CATALOG, units)
}

/// Sends a declaration with its Bonus Actions chosen, moving first to the grid square `to` if given.
fn declare_with(
    app: &mut App,
    id: &str,
    kind: ActionKind,
    target: Option<&str>,
    to: Option<(i32, i32)>,
    bonus: Option<BonusUses>,
) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to =
        to.map(|to| app.world().resource::<Battlefield>().zone_at(Square { x: to.0, y: to.1 }).expect("open square"));
    app.world_mut().write_message(ActionChosen {
        unit: entity,
        action: Action { kind, target, move_to, bonus, push_to: None, move_after: None, held: None },
    });
}

/// r1 (Agility 14, first; Strength as given) at (1,1) next to b1 (Agility 10) at (2,1), on a
/// field twelve squares wide; both have 30 hit points.
fn adjacent(strength: u32, faces: &[u32]) -> App {
    let units = format!(
        r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14, strength: {strength}))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#
    );
    let rows = ["............", "............", "............"];
    let mut app = scripted(&grid_level(&rows, &units), faces);
    hit_points(&mut app, "r1", 30);
    hit_points(&mut app, "b1", 30);
    app
}

fn uses() -> BonusUses {
    BonusUses::default()
}

#[test]
fn a_bonus_1_a_declaration_chooses_what_its_bonus_actions_buy() {
    // Dodge and damage instead of hit and damage: 8 + accuracy 2 = 10 hits Defense 10; 1d8 = 3 + 1.
    let mut app = adjacent(10, &[8, 3]);
    app.update();
    declare_with(
        &mut app,
        "r1",
        ActionKind::Attack,
        Some("b1"),
        None,
        Some(BonusUses { dodge: 1, damage: 1, ..uses() }),
    );
    app.update();
    assert_eq!(attacks_by(&app, "r1")[0].total, 10, "no +1 to hit was bought");
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 30 - 4);
    assert_eq!(get::<Conditions>(&mut app, "r1").dodge_bonus, 1, "the other Bonus Action dodges until r1's next turn");

    // Left to the rules, an attack after a move still buys +1 to hit and +1 damage: moving is the
    // Move Action's, not the Bonus Actions'.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), attributes: Some((agility: 14))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&grid_level(&["......", "......", "......"], units), &[8, 3]);
    app.update();
    declare_with(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((1, 1)), None);
    app.update();
    assert_eq!(attacks_by(&app, "r1")[0].total, 11, "8 + accuracy 2 + 1 bought with a Bonus Action");

    // Three uses for two Bonus Actions, or the same +1 twice, are refused.
    for refused in [BonusUses { hit: 1, damage: 1, dodge: 1, ..uses() }, BonusUses { hit: 2, ..uses() }] {
        let mut app = adjacent(10, &[8, 3]);
        app.update();
        declare_with(&mut app, "r1", ActionKind::Attack, Some("b1"), None, Some(refused));
        app.update();
        assert!(attacks_by(&app, "r1").is_empty(), "{refused:?} is refused");
    }
}

#[test]
fn a_bonus_1_the_move_and_both_bonus_actions_buy_an_extra_attack_without_strength() {
    // Strength 14 (+2). The attack: 12 + 2 hits, 1d8 = 5 + 2. The extra attack: 12 + 2 hits,
    // 1d8 = 5 and no Strength.
    let mut app = adjacent(14, &[12, 5, 12, 5]);
    app.update();
    declare_with(
        &mut app,
        "r1",
        ActionKind::Attack,
        Some("b1"),
        None,
        Some(BonusUses { extra_attack: true, ..uses() }),
    );
    app.update();
    let attacks = attacks_by(&app, "r1");
    assert_eq!(attacks.len(), 2, "the attack and the extra attack");
    assert!(attacks.iter().all(|attack| attack.total == 14), "both Bonus Actions went into the extra attack");
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 30 - 7 - 5);

    // The extra attack takes the Move Action: no move that turn.
    let mut app = adjacent(14, &[12, 5, 12, 5]);
    app.update();
    declare_with(
        &mut app,
        "r1",
        ActionKind::Attack,
        Some("b1"),
        Some((1, 2)),
        Some(BonusUses { extra_attack: true, ..uses() }),
    );
    app.update();
    assert!(attacks_by(&app, "r1").is_empty(), "a move and the extra attack are refused");
}

#[test]
fn a_bonus_1_two_bonus_actions_disengage_and_keep_the_attack() {
    // r1 leaves b1's melee zone to strike b2. Disengaging with both Bonus Actions, b1 gets no
    // free hit and r1 still attacks.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((2, 2)), attributes: Some((agility: 14))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((3, 2))),
        (id: "b2", creature: "soldier", side: "blue", at: Some((0, 5))),
    "#;
    let rows = ["......", "......", "......", "......", "......", "......"];
    let faces = [10, 3, 10, 3, 10, 3];
    let mut app = scripted(&grid_level(&rows, units), &faces);
    app.update();
    declare_with(
        &mut app,
        "r1",
        ActionKind::Attack,
        Some("b2"),
        Some((1, 4)),
        Some(BonusUses { disengage: true, ..uses() }),
    );
    app.update();
    assert!(attacks_by(&app, "b1").is_empty(), "a disengage bought with Bonus Actions gives no free hit");
    assert_eq!(attacks_by(&app, "r1").len(), 1);
    assert_eq!(attacks_by(&app, "r1")[0].total, 12, "10 + accuracy 2: nothing left for +1 to hit");

    let mut app = scripted(&grid_level(&rows, units), &faces);
    app.update();
    declare_with(&mut app, "r1", ActionKind::Attack, Some("b2"), Some((1, 4)), None);
    app.update();
    assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::FreeHit, "without it, leaving the melee zone provokes");
}

#[test]
fn a_turn_1_two_bonus_actions_a_turn_and_one_fewer_when_weakened() {
    // A move-only turn strides with both Bonus Actions: 6 + 2 + 2 squares. Spent on a dodge,
    // they leave the Move Action's 6. (b1's free hit as r1 leaves misses on a 2.)
    let mut app = adjacent(10, &[2, 2, 2, 2]);
    app.update();
    declare_with(&mut app, "r1", ActionKind::Move, None, Some((11, 1)), Some(BonusUses { dodge: 1, ..uses() }));
    app.update();
    assert!(lines::<line::Moved>(&app).is_empty(), "ten squares is too far without the strides");
    declare_with(&mut app, "r1", ActionKind::Move, None, Some((11, 1)), None);
    app.update();
    assert_eq!(lines::<line::Moved>(&app).len(), 10, "six squares and two strides of two");

    // A weakened unit has one Bonus Action: +1 to hit alone, not +1 and +1, and no extra attack.
    let mut app = adjacent(10, &[8, 3]);
    set::<Conditions>(&mut app, "r1", |conditions| conditions.bonus_actions_lost = 1);
    app.update();
    for refused in [BonusUses { hit: 1, damage: 1, ..uses() }, BonusUses { extra_attack: true, ..uses() }] {
        declare_with(&mut app, "r1", ActionKind::Attack, Some("b1"), None, Some(refused));
        app.update();
        assert!(attacks_by(&app, "r1").is_empty(), "{refused:?} needs two Bonus Actions");
    }
    declare_with(&mut app, "r1", ActionKind::Attack, Some("b1"), None, Some(BonusUses { hit: 1, ..uses() }));
    app.update();
    assert_eq!(attacks_by(&app, "r1")[0].total, 11);
}

#[test]
fn a_init_1_a_unit_may_delay_its_turn_until_after_the_next() {
    // r1 (Agility 14) goes first, then b1 (12), then b2 (10).
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1)), attributes: Some((agility: 12))),
        (id: "b2", creature: "soldier", side: "blue", at: Some((5, 1))),
    "#;
    let mut app = scripted(&grid_level(&["......", "......", "......"], units), &[15, 3]);
    app.update();
    declare_with(&mut app, "r1", ActionKind::Delay, None, None, None);
    app.update();
    declare_with(&mut app, "b1", ActionKind::Hold, None, None, None);
    app.update();
    declare_with(&mut app, "r1", ActionKind::Attack, Some("b1"), None, None);
    app.update();
    // b2 is the last turn of the round: there is nothing to delay to.
    declare_with(&mut app, "b2", ActionKind::Delay, None, None, None);
    app.update();
    let declared: Vec<(String, &str)> = lines::<line::Declared>(&app)
        .iter()
        .map(|declared| (declared.unit.to_string(), declared.action.log_name()))
        .collect();
    let expected = [("r1", "delay"), ("b1", "hold"), ("r1", "attack")];
    assert_eq!(declared, expected.map(|(unit, action)| (unit.to_string(), action)));
    assert_eq!(attacks_by(&app, "r1").len(), 1, "r1 acts after b1");
    assert_eq!(state(&app).round, 1, "b2's refused delay leaves it to declare");
    declare_with(&mut app, "b2", ActionKind::Hold, None, None, None);
    app.update();
    assert_eq!(lines::<line::Declared>(&app).len(), 4);
}

#[test]
fn a_wound_1_closing_a_wound_by_healing_lifts_its_penalties() {
    // r1 wounds b1's legs (15 hits; 1d8 = 7 + 1 damage); b1 drinks a greater healing draught
    // (4d6 = 12, 8 restored up to its 30): 6 or more closes the wound and lifts its penalties.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1)), items: Some([("greater_healing_draught", 1)])),
    "#;
    let mut app = scripted(&grid_level(&["......", "......", "......"], units), &[15, 7, 3, 3, 3, 3]);
    hit_points(&mut app, "r1", 30);
    hit_points(&mut app, "b1", 30);
    app.update();
    declare_with(&mut app, "r1", ActionKind::Aimed(AimPoint::Slowing), Some("b1"), None, None);
    app.update();
    let wounded = get::<Conditions>(&mut app, "b1");
    assert_eq!((wounded.aimed_wounds, wounded.speed_penalty, wounded.agility_penalty), (1, 2, 1));
    declare_with(&mut app, "b1", ActionKind::UseItem(0), Some("b1"), None, None);
    app.update();
    let healed = &lines::<line::Healed>(&app)[0];
    assert_eq!(healed.wounds_restored, 8);
    assert_eq!(healed.wound_closed, Some(AimPoint::Slowing));
    let closed = get::<Conditions>(&mut app, "b1");
    assert_eq!((closed.aimed_wounds, closed.speed_penalty, closed.agility_penalty), (0, 0, 0), "the legs work again");
}

/// r1 (first) at the west end of a walled channel of difficult ground, b1 at the east end; r1 has `feats`.
fn channel(feats: &str) -> App {
    let units = format!(
        r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), attributes: Some((agility: 14)), feats: [{feats}]),
            (id: "b1", creature: "soldier", side: "blue", at: Some((11, 1))),
        "#
    );
    let rows = ["############", "~~~~~~~~~~~~", "############"];
    scripted(&grid_level(&rows, &units), &[])
}

/// Declares a move along the channel to `x`, its Bonus Actions spent on a dodge (no strides).
fn wade(app: &mut App, x: i32) {
    declare_with(app, "r1", ActionKind::Move, None, Some((x, 1)), Some(BonusUses { dodge: 1, ..uses() }));
    app.update();
}

#[test]
fn a_move_1_difficult_ground_halves_the_move() {
    // Water, climbs and crawls are the grid's difficult ground: two squares of movement each.
    let mut app = channel("");
    app.update();
    wade(&mut app, 4);
    assert!(lines::<line::Moved>(&app).is_empty(), "four squares of water cost eight");
    wade(&mut app, 3);
    assert_eq!(lines::<line::Moved>(&app).len(), 3, "half of six");
}

#[test]
fn a_feat_1_a_maneuverer_crosses_difficult_ground_at_full_speed() {
    let mut app = channel("Maneuverer");
    app.update();
    wade(&mut app, 7);
    assert!(lines::<line::Moved>(&app).is_empty(), "still six squares at most");
    wade(&mut app, 6);
    assert_eq!(lines::<line::Moved>(&app).len(), 6);
}

// --- Issue 37: where the engine departed from the chapter's explicit words ---

#[test]
fn a_hit_1_the_target_number_is_the_agility_modifier_plus_10() {
    // A guard (Agility 14, a natural defense of 1) in leather and shield (Defense 3): the
    // chapter's target is "the target's Agility modifier plus 10", 12, whatever it wears. r1's
    // d20 of 9, + accuracy 2, + the Bonus Action's 1, reaches it. 1d8 = 3 + 1, less Armour 1.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14))),
        (id: "b1", creature: "guard", side: "blue", at: Some((2, 1)), armour: Some("leather_and_shield")),
    "#;
    let rows = ["............", "............", "............"];
    let mut app = scripted(&grid_level(&rows, units), &[9, 3]);
    hit_points(&mut app, "b1", 30);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    let attack = &attacks_by(&app, "r1")[0];
    assert_eq!(attack.defense, 12, "10 + Agility 2; neither the creature's nor the armour's defense: {attack:?}");
    assert_eq!((attack.total, attack.hit), (12, true));
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 30 - 3, "armour still soaks damage");
}
