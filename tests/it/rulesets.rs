//! Scenario tests for the four presets beyond `stress_and_wounds`, named by rule ID: each builds a
//! small level under the preset, scripts the dice, declares as a controller would, and checks
//! the state and the log.

use crate::*;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, Place, Square};
use fray::levels::mods::ModSet;
use fray::rules::components::*;
use fray::rules::dice::CombatRng;
use fray::rules::equipment::{Attribute, Hindrance, Lingering, ShakeOffBy, Shock};
use fray::rules::log::StatusChange;
use fray::rules::log::{
    Affliction, AttackKind, CombatLog, EscalationChain, LogEvent, ManeuverOutcome, MoraleReason, ShockAbsorber,
    Withdrawal,
};
use fray::rules::{ActionChosen, CombatPhase};

/// A zone level in the shape of [`line_level`] under `ruleset`.
fn zone_level(ruleset: &str, units: &str) -> String {
    line_level(&format!("ruleset: \"{ruleset}\","), units)
}

/// A grid level under `ruleset` with sides `red` (the party) and `blue`.
fn grid_level(ruleset: &str, rows: &[&str], sides: &str, units: &str) -> String {
    let sides = if sides.is_empty() { RED_AND_BLUE } else { sides };
    grid_level_text(ruleset, rows, sides, TEST_CATALOG, units)
}

/// Sends a declaration whose destination is a grid square.
fn declare_at(app: &mut App, id: &str, kind: ActionKind, target: Option<&str>, to: (i32, i32)) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to = app.world().resource::<Battlefield>().zone_at(Square { x: to.0, y: to.1 }).expect("open square");
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action::new(kind, target, Some(move_to)) });
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

fn status(app: &mut App, id: &str) -> Status {
    get::<Status>(app, id)
}

/// Where in the log the first line matching `wanted` is.
fn position(app: &App, wanted: impl Fn(&LogEvent) -> bool) -> usize {
    app.world()
        .resource::<CombatLog>()
        .entries()
        .iter()
        .position(|entry| wanted(&entry.event))
        .expect("the line is in the log")
}

mod zones_and_tests {
    use super::*;

    const RULESET: &str = "zones_and_tests";

    /// r1 (party) and b1 face each other in zone a; the party begins (side roll 4), both roll 3.
    fn duel(faces: &[u32]) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        "#;
        let mut script = vec![4, 3, 3];
        script.extend_from_slice(faces);
        let mut app = scripted(&zone_level(RULESET, units), &script);
        hit_points(&mut app, "r1", 20);
        hit_points(&mut app, "b1", 20);
        app
    }

    #[test]
    fn z_init_1_one_roll_picks_the_side_then_1d6_plus_dex_high_first() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "r2", creature: "soldier", side: "red", zone: "a", attributes: Some((dexterity: 14))),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
        "#;
        // Side roll 2: the enemies begin. Then r1 rolls 3, r2 rolls 3 (+2 DEX), b1 rolls 1.
        let mut app = scripted(&zone_level(RULESET, units), &[2, 3, 3, 1]);
        app.update();
        let side = lines::<line::SideInitiative>(&app);
        assert_eq!(side.len(), 1);
        assert_eq!(&*side[0].side, "blue");
        assert_eq!(side[0].begins, Some(true));
        let (r1, r2, b1) = (unit(&mut app, "r1"), unit(&mut app, "r2"), unit(&mut app, "b1"));
        let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
        assert_eq!(order, vec![b1, r2, r1], "blue's side first, then the party by 1d6 + DEX, highest first");
        let rolls = lines::<line::Initiative>(&app);
        assert_eq!(rolls.iter().find(|roll| &*roll.unit == "r2").unwrap().base, 5);
    }

    #[test]
    fn z_atk_1_melee_is_a_strength_test_against_dr12() {
        // r1 rolls 10 + attack skill 2 = 12: a hit; damage 1d8 = 5, with no Strength added.
        let mut app = duel(&[10, 5]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!(attack.defense, 12);
        assert_eq!(attack.total, 12);
        assert!(attack.hit);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 15);
    }

    #[test]
    fn z_atk_2_the_party_rolls_dex_to_avoid_a_creatures_attack() {
        // r1 misses (face 2); b1's attack is r1's avoid test: 11 < 12 fails to avoid, 6 damage.
        let mut app = duel(&[2, 11, 6]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        let attack = &attacks_by(&app, "b1")[0];
        assert!(attack.extra.avoid, "the roll is the character's avoid test");
        assert!(attack.hit);
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 14);
    }

    #[test]
    fn z_crit_1_a_natural_20_doubles_the_damage_dice() {
        let mut app = duel(&[20, 5]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "r1")[0].critical);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 10, "1d8 = 5, doubled to 10");
    }

    #[test]
    fn z_crit_1_a_natural_1_on_the_avoid_test_doubles_the_damage() {
        let mut app = duel(&[2, 1, 4]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 12, "4 damage, doubled");
    }

    #[test]
    fn z_crit_1_a_natural_1_on_the_avoid_test_doubles_the_damage_after_armour() {
        // 5 damage against Armour 1 leaves 4, doubled to 8 (not 2 x 5 - 1 = 9).
        let mut app = duel(&[2, 1, 5]);
        set::<Armour>(&mut app, "r1", |armour| armour.0 = 1);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(lines::<line::Damage>(&app).last().unwrap().amount, 8);
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 12);
    }

    #[test]
    fn z_crit_1_a_natural_1_on_an_attack_marks_a_usage_on_the_weapon() {
        let mut app = duel(&[1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let usage = lines::<line::WeaponUsage>(&app);
        assert_eq!(usage.len(), 1);
        assert_eq!(&*usage[0].weapon, "blade");
        assert_eq!(get::<Conditions>(&mut app, "r1").usage_marks[Hand::Main.index()], 1);
    }

    #[test]
    fn z_disen_1_leaving_a_close_enemy_grants_it_a_free_attack() {
        let mut app = duel(&[15, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
        app.update();
        let free = attacks_by(&app, "b1");
        assert_eq!(free.len(), 1);
        assert_eq!(free[0].kind, AttackKind::FreeAttack);
    }

    #[test]
    fn z_disen_1_only_a_close_enemy_strikes_whatever_its_reach() {
        // b1's pike reaches one zone: from c it covers b and d. r1 leaves b, where no enemy is
        // Close, for a: no free attack, though it leaves the pike's reach.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "b"),
            (id: "b1", creature: "soldier", side: "blue", zone: "c", weapon: Some("pike")),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3, 15, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("a"));
        app.update();
        assert!(attacks_by(&app, "b1").is_empty(), "a pike in the next zone is not Close");

        // Now b1 stands Close, in b. r1 moves to c, still inside the pike's reach: a free attack.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "b"),
            (id: "b1", creature: "soldier", side: "blue", zone: "b", weapon: Some("pike")),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3, 15, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("c"));
        app.update();
        let free = attacks_by(&app, "b1");
        assert_eq!(free.len(), 1, "leaving a zone with an enemy Close");
        assert_eq!(free[0].kind, AttackKind::FreeAttack);
    }

    #[test]
    fn z_disen_1_disengaging_or_a_close_ally_spares_the_free_attack() {
        let mut app = duel(&[]);
        app.update();
        declare(&mut app, "r1", ActionKind::Disengage, None, Some("b"));
        app.update();
        assert!(attacks_by(&app, "b1").is_empty(), "disengaging provokes nothing");

        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "r2", creature: "soldier", side: "red", zone: "a"),
            (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 6, 1, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
        app.update();
        assert!(attacks_by(&app, "b1").is_empty(), "r2 stays Close and keeps b1 busy");
    }

    #[test]
    fn z_turn_1_a_turn_is_a_move_and_an_action_or_two_moves() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3]);
        set::<Speed>(&mut app, "r1", |speed| speed.0 = 1);
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("c"));
        app.update();
        assert_eq!(lines::<line::Moved>(&app).len(), 2, "moving is the action too: two zones");
        assert_eq!(state(&app).phase, CombatPhase::Declare);
    }

    #[test]
    fn z_turn_1_a_level_cannot_speed_a_unit_past_one_nearby_zone() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a", speed: Some(3)),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3]);
        assert_eq!(get::<Speed>(&mut app, "r1").0, 1, "the ruleset's max_speed caps the level's 3");
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("d"));
        app.update();
        assert!(lines::<line::Declared>(&app).is_empty(), "three zones is out of a move-only turn's two");
    }

    #[test]
    fn z_atk_3_healing_restores_the_one_pool_of_hit_points() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a", items: Some([("healing_draught", 1)])),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3, 4, 4]);
        hit_points(&mut app, "r1", 20);
        set::<Wounds>(&mut app, "r1", |wounds| wounds.current = 5);
        app.update();
        declare(&mut app, "r1", ActionKind::UseItem(0), Some("r1"), None);
        app.update();
        let healed = &lines::<line::Healed>(&app)[0];
        assert!(healed.wounds_restored > 0, "{healed:?}");
        assert_eq!(healed.stress, 0);
    }

    #[test]
    fn z_ongo_1_ongoing_damage_burns_at_the_start_of_the_sufferers_turn_and_is_tested_at_its_end() {
        // r1's torch hits (10 + 2 = 12), 1d4 = 2. At the start of b1's turn it loses 1 (r1's
        // level); at its end it fails the test (5). In round 2 it loses 1 more and passes (15).
        let mut app = duel(&[10, 2, 5, 15]);
        set::<Loadout>(&mut app, "r1", |loadout| {
            loadout.weapon.ongoing = Some(Lingering::at_turn_end(Attribute::Dexterity, 12))
        });
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Afflicted>(&app)[0].effect, Affliction::OngoingDamage);
        assert!(lines::<line::Lingering>(&app).is_empty(), "r1's turn ends without a test for b1");
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        let burn = position(&app, |event| matches!(event, LogEvent::Damage(damage) if &*damage.source == "ongoing"));
        let b1_declares =
            position(&app, |event| matches!(event, LogEvent::Declared(declared) if &*declared.unit == "b1"));
        let test = position(&app, |event| matches!(event, LogEvent::Lingering(_)));
        let round_ends = position(&app, |event| matches!(event, LogEvent::RoundEnded {}));
        assert!(burn < b1_declares, "the loss comes at the start of b1's turn");
        assert!(b1_declares < test && test < round_ends, "the test comes at the end of b1's turn");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 17, "2 from the hit, 1 burning");
        assert!(!lines::<line::Lingering>(&app)[0].shaken_off);

        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 17, "nothing burns in r1's turn");
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 16, "b1's second turn burns 1 more");
        assert!(lines::<line::Lingering>(&app)[1].shaken_off);
        assert!(get::<Conditions>(&mut app, "b1").ongoing.is_none());
    }

    #[test]
    fn z_hind_1_the_test_to_shake_off_a_hindrance_ends_the_sufferers_turn() {
        // r1 goes first; its test comes at the end of its own turn, before b1's.
        let mut app = duel(&[15]);
        set::<Conditions>(&mut app, "r1", |conditions| {
            conditions.hindrance = Some((Hindrance::Stuck, Lingering::at_turn_end(Attribute::Strength, 12)))
        });
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        app.update();
        let r1_declares =
            position(&app, |event| matches!(event, LogEvent::Declared(declared) if &*declared.unit == "r1"));
        let test = position(&app, |event| matches!(event, LogEvent::Lingering(_)));
        let b1_declares =
            position(&app, |event| matches!(event, LogEvent::Declared(declared) if &*declared.unit == "b1"));
        assert!(r1_declares < test && test < b1_declares, "the test ends r1's turn");
        assert_eq!(lines::<line::Lingering>(&app)[0].effect, Affliction::Hindrance(Hindrance::Stuck));
        assert!(get::<Conditions>(&mut app, "r1").hindrance.is_none(), "15 reaches 12");

        // A paralysed unit's turn passes without an action, but its test still comes then.
        let mut app = duel(&[15]);
        set::<Conditions>(&mut app, "r1", |conditions| {
            conditions.paralysed = true;
            conditions.hindrance = Some((Hindrance::Paralysed, Lingering::at_turn_end(Attribute::Strength, 12)))
        });
        app.update();
        assert_eq!(
            lines::<line::Lingering>(&app)[0].effect,
            Affliction::Hindrance(Hindrance::Paralysed),
            "r1's lost turn came first"
        );
        assert!(!get::<Conditions>(&mut app, "r1").paralysed);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert!(lines::<line::Declared>(&app).iter().all(|declared| &*declared.unit != "r1"), "r1's turn was lost");
        assert_eq!(state(&app).round, 2);
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        assert!(lines::<line::Declared>(&app).iter().any(|declared| &*declared.unit == "r1"), "free again in round 2");
    }

    #[test]
    fn z_hind_1_a_stuck_unit_cannot_move_and_a_distracted_one_cannot_act() {
        let mut app = duel(&[]);
        set::<Conditions>(&mut app, "r1", |conditions| {
            conditions.hindrance = Some((Hindrance::Stuck, Lingering::at_turn_end(Attribute::Strength, 12)))
        });
        app.update();
        declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
        app.update();
        assert!(lines::<line::Moved>(&app).is_empty(), "stuck");
        set::<Conditions>(&mut app, "r1", |conditions| {
            conditions.hindrance = Some((Hindrance::Distracted, Lingering::at_turn_end(Attribute::Insight, 12)))
        });
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(lines::<line::Attack>(&app).is_empty(), "distracted: no actions");
        declare(&mut app, "r1", ActionKind::Move, None, Some("b"));
        app.update();
        assert_eq!(lines::<line::Moved>(&app).len(), 1, "but it may move");
    }

    #[test]
    fn z_hind_1_a_hindrance_that_needs_an_action_is_shaken_off_only_by_declaring_shake_off() {
        // A net that must be cut free of: no free test at the end of r1's turn or of the round;
        // in round 2 r1 spends its action on the test, and 15 reaches 12.
        let by_action = Lingering { attribute: Attribute::Strength, tn: 12, by: ShakeOffBy::Action };
        let mut app = duel(&[15]);
        set::<Conditions>(&mut app, "r1", |conditions| conditions.hindrance = Some((Hindrance::Stuck, by_action)));
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert!(lines::<line::Lingering>(&app).is_empty(), "no test comes without the action");
        assert_eq!(get::<Conditions>(&mut app, "r1").hindrance, Some((Hindrance::Stuck, by_action)));

        declare(&mut app, "r1", ActionKind::ShakeOff, None, None);
        app.update();
        let declared = lines::<line::Declared>(&app);
        assert_eq!(declared.last().map(|declared| declared.action), Some(ActionKind::ShakeOff));
        let tests = lines::<line::Lingering>(&app);
        assert_eq!(tests.len(), 1, "one test, as r1's action");
        assert_eq!(tests[0].effect, Affliction::Hindrance(Hindrance::Stuck));
        assert!(tests[0].shaken_off, "15 reaches 12");
        assert!(get::<Conditions>(&mut app, "r1").hindrance.is_none());
    }

    #[test]
    fn z_hind_1_shake_off_is_refused_without_a_hindrance_that_needs_an_action() {
        let mut app = duel(&[]);
        set::<Conditions>(&mut app, "r1", |conditions| {
            conditions.hindrance = Some((Hindrance::Stuck, Lingering::at_turn_end(Attribute::Strength, 12)))
        });
        app.update();
        declare(&mut app, "r1", ActionKind::ShakeOff, None, None);
        app.update();
        let rejected: Vec<fray::rules::DeclarationRejected> =
            app.world_mut().resource_mut::<Messages<fray::rules::DeclarationRejected>>().drain().collect();
        assert_eq!(rejected.len(), 1, "refused: its test comes at the end of the turn by itself");
        assert_eq!(rejected[0].reason, fray::rules::actions::IllegalAction::NothingToShakeOff);
        assert!(lines::<line::Declared>(&app).is_empty());
    }

    #[test]
    fn z_hind_1_the_greedy_ai_cuts_itself_free_when_no_foe_is_in_reach() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3, 15]);
        let by_action = Lingering { attribute: Attribute::Strength, tn: 12, by: ShakeOffBy::Action };
        set::<Conditions>(&mut app, "r1", |conditions| conditions.hindrance = Some((Hindrance::Stuck, by_action)));
        let r1 = unit(&mut app, "r1");
        app.world_mut().entity_mut(r1).insert(Controller::Ai(AiKind::Greedy));
        app.update();
        let declared = lines::<line::Declared>(&app);
        let first = declared.first().map(|declared| (&*declared.unit, declared.action));
        assert_eq!(first, Some(("r1", ActionKind::ShakeOff)), "stuck, with nothing in reach: {declared:?}");
        assert!(get::<Conditions>(&mut app, "r1").hindrance.is_none(), "15 reaches 12");
    }

    #[test]
    fn z_stunt_1_a_push_is_an_opposed_strength_test_into_another_zone() {
        let mut app = duel(&[15, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Shove, Some("b1"), None);
        app.update();
        let maneuver = &lines::<line::Maneuver>(&app)[0];
        assert!(maneuver.won);
        assert!(lines::<line::Attack>(&app).is_empty(), "a stunt is a test, not an attack");
        assert_eq!(lines::<line::Moved>(&app)[0].to, Place::Zone("b".into()));
    }

    #[test]
    fn z_surp_1_a_surprised_side_skips_round_1() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "b1", creature: "soldier", side: "blue", zone: "d", surprised: Some(true)),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[1, 3, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        let declared = lines_in_round::<line::Declared>(&app, 1);
        assert_eq!(declared.len(), 1, "only r1 acts in round 1, though blue's side won the roll");
        assert_eq!(state(&app).round, 2);
    }

    #[test]
    fn z_mor_1_a_losing_side_tests_morale_and_parleys_on_failure() {
        // r1 stands Close to b1, so b1 cannot run: it parleys (tests/zones_partials.rs has the flight).
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "d"),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
            (id: "b2", creature: "soldier", side: "blue", zone: "d"),
        "#;
        let mut app = scripted(&zone_level(RULESET, units), &[4, 3, 3, 3, 5]);
        set::<Status>(&mut app, "b2", |status| *status = Status::Dead);
        let b1 = unit(&mut app, "b1");
        app.world_mut().entity_mut(b1).insert(ChecksMorale);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        let morale = lines::<line::Morale>(&app);
        assert_eq!(morale.len(), 1);
        assert_eq!(morale[0].reason, MoraleReason::Losing);
        assert_eq!(morale[0].tn, 12);
        assert!(!morale[0].passed);
        assert_eq!(status(&mut app, "b1"), Status::Surrendered);
        assert!(lines::<line::Status>(&app).iter().any(|line| line.status == StatusChange::Parley));
    }
}

#[test]
fn z_react_1_unscripted_creatures_roll_d10_and_only_the_hostile_and_wary_fight() {
    let text = line_level(
        r#"ruleset: "zones_and_tests","#,
        r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a"),
            (id: "b1", creature: "soldier", side: "blue", zone: "d"),
            (id: "b2", creature: "soldier", side: "blue", zone: "d"),
        "#,
    )
    .replace(r#"(name: "blue", controller: Human)"#, r#"(name: "blue", controller: Human, unscripted: true)"#);
    let mut app = scripted(&text, &[2, 5]);
    app.update();
    let reactions = lines::<line::Reaction>(&app);
    assert_eq!(reactions.len(), 2, "only the unscripted side rolls");
    assert_eq!((reactions[0].reaction.as_str(), reactions[0].fights), ("wary", true));
    assert_eq!((reactions[1].reaction.as_str(), reactions[1].fights), ("curious", false));
    assert_eq!(get::<Status>(&mut app, "b1"), Status::Active);
    assert_eq!(get::<Status>(&mut app, "b2"), Status::Surrendered, "the curious one stands aside");
}

mod shock_and_cover {
    use super::*;

    const RULESET: &str = "shock_and_cover";
    const OPEN: [&str; 3] = ["......", "......", "......"];

    /// r1 at (1,1) next to b1 at (2,1); the party's side goes first unless `blue_first`.
    fn adjacent(blue_first: bool, faces: &[u32]) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut script = if blue_first { vec![1, 8] } else { vec![8, 1] };
        script.extend_from_slice(faces);
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &script);
        hit_points(&mut app, "r1", 20);
        hit_points(&mut app, "b1", 20);
        app
    }

    fn give_shock(app: &mut App, id: &str) {
        set::<Loadout>(app, id, |loadout| loadout.weapon.shock = Some(Shock { damage: 2, max_defense: Some(13) }));
    }

    #[test]
    fn s_surp_1_a_surprised_side_gives_a_free_round_without_attacks_of_opportunity() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1)), surprised: Some(true)),
        "#;
        // Blue wins the side roll (8 against 1), but it is surprised: round 1 is red's alone.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[1, 8]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Move, None, (0, 1));
        finish_round(&mut app);
        assert_eq!(lines::<line::Moved>(&app).len(), 1, "r1 steps out of b1's reach");
        assert!(attacks_by(&app, "b1").is_empty(), "a surprised unit makes no attack of opportunity");
        let round_1 = lines_in_round::<line::Declared>(&app, 1);
        assert_eq!(round_1.len(), 1, "b1 neither declares nor acts in round 1");
        assert_eq!(state(&app).round, 2);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        app.update();
        let round_2 = lines_in_round::<line::Declared>(&app, 2);
        assert_eq!(&*round_2[0].unit, "b1", "from round 2 on, blue's side roll puts it first");
        assert_eq!(lines::<line::SideInitiative>(&app).len(), 2, "the side roll of round 1 stands");
    }

    #[test]
    fn s_dmg_1_weapon_dice_plus_strength_in_melee_never_below_the_shock() {
        // Strength 16 is +2 here: 1d8 = 4, plus 2.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((strength: 16))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 15, 4]);
        hit_points(&mut app, "b1", 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 14, "1d8 = 4, +2 Strength");

        // A bow adds no Strength.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("bow"), attributes: Some((strength: 16))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 15, 4]);
        hit_points(&mut app, "b1", 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 16, "1d6 = 4 and nothing more");

        // A hit that rolls 1 still deals the weapon's Shock of 2 against AC 10.
        let mut app = adjacent(false, &[15, 1]);
        give_shock(&mut app, "r1");
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "r1")[0].hit);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 18, "the hit never deals less than its Shock");
    }

    #[test]
    fn s_dmg_1_a_purely_unarmed_blow_and_a_grapple_s_squeeze_add_brawl() {
        // Bare hands: 1d3 = 2, + Brawl 2.
        let mut app = adjacent(false, &[15, 2]);
        set::<Skills>(&mut app, "r1", |skills| skills.brawl = 2);
        set::<Loadout>(&mut app, "r1", |loadout| {
            loadout.weapon = loadout.unarmed.clone();
            loadout.weapon_name = "unarmed".into();
        });
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(expr(attacks_by(&app, "r1")[0].damage_roll.as_ref()).as_deref(), Some("1d3+2"));
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 16);

        // The squeeze is an unarmed hit each round: 1d3 = 3, + Brawl 2.
        let mut app = adjacent(false, &[15, 6, 6, 1, 1, 3]);
        set::<Skills>(&mut app, "r1", |skills| skills.brawl = 2);
        app.update();
        declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        let squeeze = lines::<line::Damage>(&app).into_iter().find(|damage| &*damage.source == "r1").expect("squeezed");
        assert_eq!(expr(squeeze.roll.as_ref()).as_deref(), Some("1d3+2"));
        assert_eq!(squeeze.amount, 5);
    }

    #[test]
    fn s_dmg_1_a_dagger_takes_the_better_of_strength_and_dexterity_for_damage_and_shock() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), weapon: Some("dagger"), attributes: Some((dexterity: 16))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        // A hit: 1d4 = 3, + Dexterity's 2 (Strength 10 adds nothing).
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 15, 3]);
        hit_points(&mut app, "b1", 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(expr(attacks_by(&app, "r1")[0].damage_roll.as_ref()).as_deref(), Some("1d4+2"));
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 15);

        // A miss against AC 10: the dagger's Shock 1/AC 13, + Dexterity's 2.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 1]);
        hit_points(&mut app, "b1", 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(!attacks_by(&app, "r1")[0].hit);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 17);
    }

    #[test]
    fn s_init_1_sides_roll_1d8_the_party_adds_its_best_dex_and_wins_ties_never_rerolled() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 1)), attributes: Some((dexterity: 16))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        // Red rolls 3 (+2 best DEX = 5), blue rolls 5: a tie the party wins.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[3, 5]);
        app.update();
        let scores: Vec<i32> = lines::<line::SideInitiative>(&app).iter().map(|side| side.score).collect();
        assert_eq!(scores, vec![5, 5]);
        let b1 = unit(&mut app, "b1");
        let turns = state(&app).turns;
        assert_eq!(turns.last().unwrap().1, vec![b1], "blue acts after the whole party");
        for id in ["r1", "r2"] {
            declare(&mut app, id, ActionKind::Hold, None, None);
            app.update();
        }
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert_eq!(state(&app).round, 2);
        assert_eq!(lines::<line::SideInitiative>(&app).len(), 2, "initiative is never re-rolled");
    }

    #[test]
    fn s_shock_1_a_miss_still_deals_shock_against_a_low_armour_class() {
        let mut app = adjacent(false, &[1]);
        give_shock(&mut app, "r1");
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(!attacks_by(&app, "r1")[0].hit);
        let shock = lines::<line::Shock>(&app);
        assert_eq!(shock[0].amount, 2);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 18);
    }

    #[test]
    fn s_shock_1_a_shield_ignores_the_first_shock_and_total_defense_all() {
        let mut app = adjacent(false, &[1]);
        give_shock(&mut app, "r1");
        set::<Loadout>(&mut app, "b1", |loadout| loadout.shield = true);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Shock>(&app)[0].absorbed_by, Some(ShockAbsorber::Shield));
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 20);

        let mut app = adjacent(true, &[1]);
        give_shock(&mut app, "r1");
        app.update();
        declare(&mut app, "b1", ActionKind::FullDefense, None, None);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Shock>(&app)[0].absorbed_by, Some(ShockAbsorber::TotalDefense));
        assert_eq!(attacks_by(&app, "r1")[0].defense, 12, "total defense: +2 AC");
    }

    #[test]
    fn s_spec_1_total_defense_lasts_until_the_unit_s_next_turn() {
        // Blue goes first each round: b1 waits in round 1, r1 takes total defense after it.
        let mut app = adjacent(true, &[15, 3]);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "r1", ActionKind::FullDefense, None, None);
        finish_round(&mut app);
        assert!(get::<Conditions>(&mut app, "r1").full_defense, "round 2 has begun: still defending");
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].defense, 12, "b1's blow in round 2 meets AC 10 + 2");
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        assert!(!get::<Conditions>(&mut app, "r1").full_defense, "r1's own turn has come: it is over");
    }

    #[test]
    fn s_shock_1_shock_does_not_reach_a_high_armour_class() {
        let mut app = adjacent(false, &[1]);
        give_shock(&mut app, "r1");
        set::<Defense>(&mut app, "b1", |defense| defense.bonus = 5);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(lines::<line::Shock>(&app).is_empty(), "AC 15 is above Shock 2/AC 13");
    }

    #[test]
    fn s_cover_1_a_target_behind_an_arrow_slit_has_full_cover_and_a_wall_hides_it() {
        let rows = ["..r..", ".....", ".....", ".....", "##|##", "..b.."];
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((2, 0)), weapon: Some("bow")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 5))),
        "#;
        let rows_open: Vec<String> = rows.iter().map(|row| row.replace(['r', 'b'], ".")).collect();
        let rows_open: Vec<&str> = rows_open.iter().map(String::as_str).collect();
        let mut app = scripted(&grid_level(RULESET, &rows_open, "", units), &[8, 1, 10]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!(attack.extra.cover.map(|cover| cover.as_str()), Some("full"));
        assert_eq!(attack.total, 8, "10 + attack 2 - 4 for full cover");

        let walled: Vec<String> = rows_open.iter().map(|row| row.replace('|', "#")).collect();
        let walled: Vec<&str> = walled.iter().map(String::as_str).collect();
        let mut app = scripted(&grid_level(RULESET, &walled, "", units), &[8, 1, 10]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "r1").is_empty(), "S-LOS-1: no line of sight, no shot");
        assert_eq!(state(&app).phase, CombatPhase::Declare, "the refused declaration leaves r1 to choose again");
    }

    #[test]
    fn s_grid_1_walls_block_movement_and_paths_go_around() {
        let rows = ["....", ".##.", "...."];
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((3, 2))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &rows, "", units), &[8, 1]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Move, None, (3, 0));
        app.update();
        let moved = lines::<line::Moved>(&app);
        assert_eq!(moved.len(), 4, "around the wall, not past its corner: (0,0), (1,0), (2,0), (3,0)");
        assert_eq!(moved[0].from, Place::Square([0, 1]));
        assert_eq!(moved[3].to, Place::Square([3, 0]));
    }

    #[test]
    fn s_aoo_1_leaving_an_adjacent_foe_provokes_unless_disengaged() {
        let mut app = adjacent(false, &[15, 3]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Move, None, (0, 0));
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::Opportunity);

        let mut app = adjacent(false, &[]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Disengage, None, (0, 0));
        app.update();
        assert!(attacks_by(&app, "b1").is_empty());
    }

    #[test]
    fn s_aoo_1_using_a_skill_beside_an_armed_foe_provokes() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        // b1's attack of opportunity: 15 hits, 1d8 = 4; then r1's first aid rolls 2d6.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 15, 4, 6, 6]);
        hit_points(&mut app, "r1", 20);
        set::<Status>(&mut app, "r2", |status| *status = Status::Dying);
        app.update();
        declare(&mut app, "r1", ActionKind::Stabilize, Some("r2"), None);
        app.update();
        let attacks = attacks_by(&app, "b1");
        assert_eq!(attacks.len(), 1, "first aid beside b1 draws its attack of opportunity");
        assert_eq!(attacks[0].kind, AttackKind::Opportunity);
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 16);
        let order: Vec<&str> =
            app.world().resource::<CombatLog>().entries().iter().map(|entry| entry.event.name()).collect();
        let (struck, aided) =
            (order.iter().position(|event| *event == "attack"), order.iter().position(|event| *event == "stabilise"));
        assert!(struck < aided && aided.is_some(), "the blow comes first, then the first aid: {order:?}");
    }

    #[test]
    fn s_spec_1_swarming_allies_add_to_the_next_blow() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "r2", creature: "soldier", side: "red", at: Some((2, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 6, 4]);
        hit_points(&mut app, "b1", 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Swarm, Some("b1"), None);
        app.update();
        declare(&mut app, "r2", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r2")[0];
        assert_eq!(attack.extra.swarm_bonus, Some(2));
        assert_eq!(attack.total, 10, "6 + attack 2 + swarm 2");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 15, "1d8 = 4, +1 for one other assailant");
    }

    #[test]
    fn s_spec_1_a_charge_runs_straight_gains_2_to_hit_and_costs_2_ac() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 5, 4]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Charge, Some("b1"), (4, 1));
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert!(attack.extra.charge);
        assert_eq!(attack.total, 9, "5 + attack 2 + charge 2");
        assert!(get::<Conditions>(&mut app, "r1").charging, "its AC is 2 lower until the round ends");
    }

    #[test]
    fn s_dual_1_two_weapons_cost_1_to_hit_and_add_2_damage() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), offhand: Some("blade"),
             skills: Some((attack: 2, stab: 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 10, 4]);
        hit_points(&mut app, "b1", 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "r1")[0].total, 12, "10 + attack 2 + Stab 1 - 1 (Stab 1 allows two weapons)");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 14, "4 + 2");
    }

    #[test]
    fn s_atk_2_shooting_with_a_foe_in_melee_costs_4() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), weapon: Some("bow")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 10]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "r1")[0].total, 8, "10 + attack 2 - 4");
    }

    #[test]
    fn s_atk_2_a_prone_target_is_easier_to_hit_up_close_and_harder_from_afar() {
        // Adjacent: AC 10 - 2.
        let mut app = adjacent(false, &[10, 4]);
        set::<Conditions>(&mut app, "b1", |conditions| conditions.prone = true);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!((attack.total, attack.defense), (12, 8));

        // From four squares away with a bow: the -2 AC is undone and -2 more, 9 + 2 - 4 against 8.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("bow")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 9]);
        set::<Conditions>(&mut app, "b1", |conditions| conditions.prone = true);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!((attack.total, attack.defense), (7, 8));
        assert!(!attack.hit, "9 + 2 - 2 misses AC 10, as the chapter has it");
    }

    #[test]
    fn s_atk_2_a_melee_attack_made_while_prone_is_at_minus_4() {
        let mut app = adjacent(false, &[10]);
        set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "r1")[0].total, 8, "10 + attack 2 - 4");
    }

    #[test]
    fn s_atk_2_a_shot_past_the_normal_range_is_at_minus_2() {
        // The test bow reaches 2 zones, 12 squares: its normal range is half that, 6.
        let rows = ["...............", "...............", "..............."];
        for (at, total) in [(6, 12), (10, 10)] {
            let units = format!(
                r#"
                (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("bow")),
                (id: "b1", creature: "soldier", side: "blue", at: Some(({at}, 1))),
            "#
            );
            let mut app = scripted(&grid_level(RULESET, &rows, "", &units), &[8, 1, 10]);
            app.update();
            declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
            app.update();
            assert_eq!(attacks_by(&app, "r1")[0].total, total, "b1 {at} squares away");
        }
    }

    #[test]
    fn s_act_2_going_prone_provokes_nothing_and_a_prone_unit_cannot_again() {
        let mut app = adjacent(false, &[]);
        app.update();
        declare(&mut app, "r1", ActionKind::GoProne, None, None);
        app.update();
        assert!(get::<Conditions>(&mut app, "r1").prone);
        assert!(
            lines::<line::Status>(&app).iter().any(|line| &*line.unit == "r1" && line.status == StatusChange::Prone)
        );
        assert!(attacks_by(&app, "b1").is_empty(), "going prone draws no attack of opportunity");
        // Going prone is a Free action: the turn goes on.
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        declare(&mut app, "r1", ActionKind::GoProne, None, None);
        app.update();
        let round_2 = lines_in_round::<line::Declared>(&app, 2);
        assert!(round_2.is_empty(), "refused: it is prone already");
    }

    #[test]
    fn s_act_2_a_held_action_is_taken_after_the_round_s_last_turn_without_a_move() {
        // Red goes first; r1 holds, b1 attacks it (15, 3), then r1 strikes back (15, 3).
        let mut app = adjacent(false, &[15, 3, 15, 3]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::HoldAction, None, (1, 0));
        app.update();
        assert!(lines::<line::Declared>(&app).is_empty(), "refused: holding spends the move");
        declare(&mut app, "r1", ActionKind::HoldAction, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (1, 0));
        app.update();
        let declared = lines::<line::Declared>(&app);
        assert_eq!(declared.len(), 2, "the held turn refuses a move before its action");
        declare(&mut app, "r1", ActionKind::HoldAction, None, None);
        app.update();
        assert_eq!(lines::<line::Declared>(&app).len(), 2, "refused: only once a round");
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let declared = lines::<line::Declared>(&app);
        let turns: Vec<_> =
            declared.iter().map(|line| (&*line.unit, line.action.log_name(), line.initiative)).collect();
        let expected = [("r1", "hold_action", 1), ("b1", "attack", 2), ("r1", "attack", 3)];
        assert_eq!(turns, expected, "r1 acts after b1, in a turn of its own");
        let attacks = lines::<line::Attack>(&app);
        assert_eq!((&*attacks[0].attacker, &*attacks[1].attacker), ("b1", "r1"));
        finish_round(&mut app);
        assert_eq!(state(&app).round, 2, "the held turn was the round's last");
        assert!(!get::<Conditions>(&mut app, "r1").held_action, "a new round, a new move");
    }

    #[test]
    fn s_spec_1_a_charger_s_lowered_ac_also_meets_shoves_and_grapples() {
        for kind in [ActionKind::Shove, ActionKind::Grapple] {
            // b1 charged this round: AC 10 - 2. The roll of 6 + attack 2 = 8 reaches it.
            let mut app = adjacent(false, &[6, 6, 6, 1, 1]);
            app.update();
            set::<Conditions>(&mut app, "b1", |conditions| conditions.charging = true);
            declare(&mut app, "r1", kind, Some("b1"), None);
            app.update();
            let roll = &attacks_by(&app, "r1")[0];
            assert_eq!(roll.defense, 8, "{kind:?} against a charger");
            assert!(roll.hit, "{kind:?} against a charger");
        }
    }

    #[test]
    fn s_man_1_a_shove_pushes_a_step_away_or_knocks_down_where_there_is_no_room() {
        // Attack 15 hits AC 10; opposed 2d6: 6+6 against 1+1.
        let mut app = adjacent(false, &[15, 6, 6, 1, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Shove, Some("b1"), None);
        app.update();
        let maneuver = &lines::<line::Maneuver>(&app)[0];
        assert_eq!(maneuver.outcome, Some(ManeuverOutcome::Pushed));
        assert_eq!(lines::<line::Moved>(&app)[0].to, Place::Square([3, 1]));

        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &["....", "...#", "...."], "", units), &[8, 1, 15, 6, 6, 1, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Shove, Some("b1"), None);
        app.update();
        assert_eq!(
            lines::<line::Maneuver>(&app)[0].outcome,
            Some(ManeuverOutcome::KnockedProne),
            "a wall behind: down it goes"
        );
        assert!(get::<Conditions>(&mut app, "b1").prone);
    }

    #[test]
    fn s_man_1_a_grapple_holds_both_in_place_and_hurts_each_round() {
        let mut app = adjacent(false, &[15, 6, 6, 1, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Maneuver>(&app)[0].outcome, Some(ManeuverOutcome::Grappled));
        let held = get::<Conditions>(&mut app, "b1");
        assert_eq!(held.grappled_by.iter().collect::<Vec<_>>(), [unit(&mut app, "r1")]);
        declare_at(&mut app, "b1", ActionKind::Move, None, (4, 1));
        app.update();
        assert!(lines::<line::Moved>(&app).is_empty(), "the held cannot move");
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert!(
            lines::<line::Damage>(&app).iter().any(|damage| &*damage.unit == "b1" && &*damage.source == "r1"),
            "the end of the round squeezes the held"
        );
    }

    #[test]
    fn s_man_1_a_shover_may_knock_down_where_it_could_push() {
        // Open ground behind b1, yet the knock-down leaves it prone where it stands.
        let mut app = adjacent(false, &[15, 6, 6, 1, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::KnockDown, Some("b1"), None);
        app.update();
        let maneuver = &lines::<line::Maneuver>(&app)[0];
        assert_eq!((maneuver.maneuver.as_str(), maneuver.outcome), ("shove", Some(ManeuverOutcome::KnockedProne)));
        assert!(lines::<line::Moved>(&app).is_empty(), "not pushed");
        assert!(get::<Conditions>(&mut app, "b1").prone);
        assert_eq!(attacks_by(&app, "r1")[0].kind, AttackKind::Shove, "an attack roll first, as for any shove");
    }

    #[test]
    fn s_man_1_the_held_unit_spends_its_action_to_break_free() {
        // r1 grapples b1 (15 hits, 6+6 against 1+1). b1 breaks free: 5+5 against r1's 1+2.
        let mut app = adjacent(false, &[15, 6, 6, 1, 1, 5, 5, 1, 2]);
        app.update();
        declare(&mut app, "r1", ActionKind::BreakFree, None, None);
        app.update();
        assert!(lines::<line::Declared>(&app).is_empty(), "refused: r1 is not held");
        declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::BreakFree, None, None);
        app.update();
        let contest = &lines::<line::Maneuver>(&app)[1];
        assert_eq!(contest.maneuver, "break_free");
        assert_eq!((&*contest.unit, &*contest.target), ("b1", "r1"));
        assert_eq!(contest.roll.expr.to_string(), "2d6", "the held adds STR and Brawl (0 and 0), not its attack skill");
        assert!(contest.won);
        assert_eq!(contest.outcome, Some(ManeuverOutcome::BrokeFree));
        assert!(get::<Conditions>(&mut app, "b1").grappled_by.is_empty());
        assert_eq!(get::<Conditions>(&mut app, "r1").grappling, None);
        assert!(attacks_by(&app, "b1").is_empty(), "the struggle was its action");

        // A lost contest leaves the hold as it was; ties go to the grappler.
        let mut app = adjacent(false, &[15, 6, 6, 1, 1, 1, 1, 2, 2]);
        app.update();
        declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::BreakFree, None, None);
        app.update();
        assert!(!lines::<line::Maneuver>(&app)[1].won);
        assert_eq!(get::<Conditions>(&mut app, "b1").grappled_by.first(), Some(unit(&mut app, "r1")));
    }

    #[test]
    fn s_man_1_the_grappler_lets_go_and_both_take_up_their_weapons() {
        // r1 grapples b1 (15 hits, 6+6 against 1+1); the end of round 1 squeezes b1 for 2.
        let mut app = adjacent(false, &[15, 6, 6, 1, 1, 2]);
        app.update();
        declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::LetGo, None, None);
        app.update();
        assert_eq!(lines::<line::Declared>(&app).len(), 1, "refused: b1 holds nobody");
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        declare(&mut app, "r1", ActionKind::LetGo, None, None);
        app.update();
        assert!(get::<Conditions>(&mut app, "b1").grappled_by.is_empty());
        assert_eq!(get::<Conditions>(&mut app, "r1").grappling, None);
        for id in ["r1", "b1"] {
            let weapon =
                with_view(&mut app, id, |view, _| view.arms.loadout.usable_weapon(view.round.conditions).0.to_string());
            assert_eq!(weapon, "blade", "{id} fights with its weapon again");
        }
    }

    #[test]
    fn s_man_1_while_a_hold_lasts_both_fight_with_bare_hands() {
        let mut app = adjacent(false, &[15, 6, 6, 1, 1, 15, 2, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Grapple, Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Maneuver>(&app)[0].outcome, Some(ManeuverOutcome::Grappled));
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(
            expr(attacks_by(&app, "b1")[0].damage_roll.as_ref()).as_deref(),
            Some("1d3"),
            "the held strikes with its fists, not its blade"
        );
        finish_round(&mut app);
        assert_eq!(state(&app).round, 2, "the hold outlasts the round");
        assert_eq!(
            with_view(&mut app, "r1", |view, _| view.arms.loadout.usable_weapon(view.round.conditions).0.to_string()),
            "unarmed",
            "the grappler too"
        );
    }

    #[test]
    fn s_act_2_standing_up_draws_attacks_of_opportunity() {
        let mut app = adjacent(false, &[15, 3]);
        set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
        app.update();
        declare(&mut app, "r1", ActionKind::StandUp, None, None);
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::Opportunity);
        assert!(!get::<Conditions>(&mut app, "r1").prone);
    }

    #[test]
    fn s_exec_1_an_execution_attack_drops_an_unsuspecting_target_that_fails_its_save() {
        let mut app = adjacent(false, &[5]);
        let b1 = unit(&mut app, "b1");
        app.world_mut().entity_mut(b1).insert(Surprised);
        app.update();
        declare(&mut app, "r1", ActionKind::Execute, Some("b1"), None);
        app.update();
        let execution = &lines::<line::Execution>(&app)[0];
        assert!(!execution.saved, "5 - skill 2 is short of 15");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 0);
        assert_eq!(status(&mut app, "b1"), Status::Dying, "mortally wounded");

        let mut app = adjacent(false, &[19]);
        let b1 = unit(&mut app, "b1");
        app.world_mut().entity_mut(b1).insert(Surprised);
        app.update();
        declare(&mut app, "r1", ActionKind::Execute, Some("b1"), None);
        app.update();
        assert!(lines::<line::Execution>(&app)[0].saved);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 12, "a saved victim still takes the blade's 8");

        let mut app = adjacent(false, &[]);
        app.update();
        declare(&mut app, "r1", ActionKind::Execute, Some("b1"), None);
        app.update();
        assert!(lines::<line::Execution>(&app).is_empty(), "an alert target cannot be executed");
    }

    #[test]
    fn s_mor_1_a_losing_side_withdraws() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
            (id: "b2", creature: "soldier", side: "blue", at: Some((5, 2))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1]);
        set::<Status>(&mut app, "b2", |status| *status = Status::Dead);
        let b1 = unit(&mut app, "b1");
        app.world_mut().entity_mut(b1).insert(ChecksMorale);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert!(lines::<line::Morale>(&app)[0].automatic);
        assert_eq!(status(&mut app, "b1"), Status::Fled, "they're gone for now");
    }

    /// Hands `id` to the greedy AI.
    fn greedy(app: &mut App, id: &str) {
        let entity = unit(app, id);
        app.world_mut().entity_mut(entity).insert(Controller::Ai(AiKind::Greedy));
    }

    fn declared_action(app: &App, id: &str) -> ActionKind {
        lines::<line::Declared>(app).into_iter().find(|declared| &*declared.unit == id).expect("it declared").action
    }

    #[test]
    fn s_act_2_the_greedy_ai_stands_up_when_no_foe_can_strike_it_rising() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 2))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1]);
        set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
        greedy(&mut app, "r1");
        app.update();
        assert_eq!(declared_action(&app, "r1"), ActionKind::StandUp);
        assert!(!get::<Conditions>(&mut app, "r1").prone);
    }

    #[test]
    fn s_man_1_the_greedy_ai_grapples_where_the_hold_outweighs_its_blow() {
        // A tap of 1 against a foe with 100 hit points: the squeeze of a hold, round after round, is worth more.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), weapon: Some("tap")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1, 15, 6, 6, 1, 1]);
        hit_points(&mut app, "b1", 100);
        greedy(&mut app, "r1");
        app.update();
        assert_eq!(declared_action(&app, "r1"), ActionKind::Grapple);

        // With a real blade the blow is worth more.
        let units = units.replace(r#", weapon: Some("tap")"#, "");
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", &units), &[8, 1, 15, 4]);
        hit_points(&mut app, "b1", 100);
        greedy(&mut app, "r1");
        app.update();
        assert_eq!(declared_action(&app, "r1"), ActionKind::Attack);
    }

    #[test]
    fn s_man_1_the_greedy_ai_shoves_a_foe_against_a_wall_down_for_its_allies_axes() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), weapon: Some("tap")),
            (id: "r2", creature: "soldier", side: "red", at: Some((2, 0)), weapon: Some("axe12")),
            (id: "r3", creature: "soldier", side: "red", at: Some((2, 2)), weapon: Some("axe12")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let rows = ["....", "...#", "...."];
        let mut app = scripted(&grid_level(RULESET, &rows, "", units), &[8, 1, 15, 6, 6, 1, 1]);
        hit_points(&mut app, "b1", 100);
        greedy(&mut app, "r1");
        app.update();
        assert_eq!(
            declared_action(&app, "r1"),
            ActionKind::Shove,
            "no room behind: it falls, and two axes strike easier"
        );
        assert!(get::<Conditions>(&mut app, "b1").prone);
    }

    #[test]
    fn s_grid_1_difficult_ground_costs_two_squares_of_movement() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), speed: Some(1)),
            (id: "b1", creature: "soldier", side: "blue", at: Some((9, 2))),
        "#;
        let rows = ["~~~~~~~~~~", "~~~~~~~~~~", ".........."];
        let mut app = scripted(&grid_level(RULESET, &rows, "", units), &[8, 1]);
        app.update();
        // Six squares of speed (disengaging, so no second move): four squares of mud cost eight.
        declare_at(&mut app, "r1", ActionKind::Disengage, None, (4, 0));
        app.update();
        assert!(lines::<line::Moved>(&app).is_empty(), "too far through the mud");
        declare_at(&mut app, "r1", ActionKind::Disengage, None, (3, 0));
        app.update();
        assert_eq!(lines::<line::Moved>(&app).len(), 3);
    }

    #[test]
    fn s_atk_1_the_chapter_has_no_criticals_even_for_keen_weapons() {
        let mut app = adjacent(false, &[20, 4]);
        set::<Loadout>(&mut app, "r1", |loadout| loadout.weapon.critical_natural = Some(19));
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!((attack.hit, attack.critical), (true, false));
    }

    #[test]
    fn s_act_1_the_main_action_may_be_spent_on_a_second_move() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 2))),
        "#;
        let rows = ["...............", "...............", "..............."];
        let mut app = scripted(&grid_level(RULESET, &rows, "", units), &[8, 1]);
        set::<Speed>(&mut app, "r1", |speed| speed.0 = 6);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Move, None, (12, 0));
        app.update();
        assert_eq!(lines::<line::Moved>(&app).len(), 12, "two moves of 6 squares");
    }

    #[test]
    fn s_spec_1_snap_attack_strikes_a_deadly_attacker_first_at_minus_4_and_spends_the_main_action() {
        // r1's blade (1d8) could drop b1 at 5 hit points: b1, yet to take its turn, snaps first.
        let mut app = adjacent(false, &[15, 3, 15, 4]);
        hit_points(&mut app, "b1", 5);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attacks = lines::<line::Attack>(&app);
        assert_eq!(&*attacks[0].attacker, "b1", "the snap attack comes before the blow");
        assert_eq!(attacks[0].kind, AttackKind::Snap);
        assert_eq!(attacks[0].total, 13, "15 + attack 2 - 4");
        assert_eq!(&*attacks[1].attacker, "r1");
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 17);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 1);
        assert!(get::<Conditions>(&mut app, "b1").snapped);
        // Its Main action is gone: in its own turn it may only move (or hold).
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "b1").len(), 1, "no second attack this round");
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert_eq!(state(&app).round, 2);
        assert!(!get::<Conditions>(&mut app, "b1").snapped, "a new round, a new Main action");

        // Neither blow can drop anyone: no snap, the blow lands as declared.
        let mut app = adjacent(false, &[15, 4]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "b1").is_empty());
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 16);
    }

    #[test]
    fn s_spec_1_a_snap_attack_needs_training_and_an_unspent_turn() {
        // Attack skill 1 is below the preset's 2: no focus for a snap.
        let mut app = adjacent(false, &[15, 4]);
        set::<Skills>(&mut app, "b1", |skills| skills.attack = 1);
        hit_points(&mut app, "b1", 5);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "b1").is_empty());
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 1);

        // Blue acts first; red, which has had its turn, cannot snap back in round 1.
        let mut app = adjacent(true, &[15, 4]);
        hit_points(&mut app, "b1", 5);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        app.update();
        hit_points(&mut app, "r1", 5);
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "b1").is_empty(), "b1 has taken its turn this round");
    }

    /// Red's r1 (the ward) at (1,1) beside blue's b1 at (2,1); red's r2 starts at (0,0).
    fn screened(faces: &[u32]) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut script = vec![8, 1];
        script.extend_from_slice(faces);
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &script);
        for id in ["r1", "r2", "b1"] {
            hit_points(&mut app, id, 20);
        }
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare_at(&mut app, "r2", ActionKind::Screen, Some("r1"), (1, 0));
        app.update();
        // Screening is a Move action: the turn's Main action follows (`S-ACT-2`).
        declare(&mut app, "r2", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        app
    }

    #[test]
    fn s_spec_1_screen_an_ally_turns_the_attack_to_the_screener_when_it_wins_the_check() {
        // 2d6 + 2 each: r2 rolls 12 + 2, b1 2 + 2; the blow falls on r2.
        let app = screened(&[6, 6, 1, 1, 15, 4]);
        let mut app = app;
        let maneuver = &lines::<line::Maneuver>(&app)[0];
        assert_eq!(maneuver.maneuver, "screen");
        assert_eq!((&*maneuver.unit, &*maneuver.target), ("r2", "b1"));
        assert_eq!((maneuver.won, maneuver.outcome), (true, Some(ManeuverOutcome::Screened)));
        assert_eq!(&*attacks_by(&app, "b1")[0].target, "r2");
        assert_eq!(get::<Wounds>(&mut app, "r2").current, 16);
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 20);

        // b1 wins (ties would too): the ward takes it.
        let mut app = screened(&[1, 1, 6, 6, 15, 4]);
        let maneuver = &lines::<line::Maneuver>(&app)[0];
        assert!(!maneuver.won);
        assert!(maneuver.outcome.is_none());
        assert_eq!(&*attacks_by(&app, "b1")[0].target, "r1");
        assert_eq!(get::<Wounds>(&mut app, "r1").current, 16);
        assert_eq!(get::<Conditions>(&mut app, "r2").screens_made, 1);
    }

    #[test]
    fn s_spec_1_a_unit_cannot_screen_itself_and_a_screen_lapses_at_its_next_turn() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Screen, Some("r1"), None);
        app.update();
        assert!(lines::<line::Declared>(&app).is_empty(), "refused: a unit screens an ally, not itself");

        let mut app = screened(&[6, 6, 1, 1, 15, 4]);
        finish_round(&mut app);
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        assert!(get::<Conditions>(&mut app, "r2").screening.is_some(), "until r2's next turn");
        declare(&mut app, "r2", ActionKind::Hold, None, None);
        app.update();
        assert_eq!(get::<Conditions>(&mut app, "r2").screening, None);
    }
}

mod aimed_wounds {
    use super::*;

    const RULESET: &str = "aimed_wounds";
    const OPEN: [&str; 3] = ["......", "......", "......"];

    /// r1 (Agility 14, first) at (1,1) next to b1 (Agility 10) at (2,1).
    fn adjacent(faces: &[u32]) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), faces);
        hit_points(&mut app, "r1", 30);
        hit_points(&mut app, "b1", 30);
        app
    }

    #[test]
    fn a_init_1_highest_agility_first_and_the_initiator_last() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), initiated: true, attributes: Some((agility: 18))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "guard", side: "blue", at: Some((5, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[]);
        app.update();
        let (r1, r2, b1) = (unit(&mut app, "r1"), unit(&mut app, "r2"), unit(&mut app, "b1"));
        let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
        assert_eq!(order, vec![b1, r2, r1], "guard +2, then r2 +0; r1 struck first so goes last");
    }

    #[test]
    fn a_turn_1_one_move_then_one_action_and_standing_up_draws_free_hits() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), attributes: Some((agility: 14))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((7, 1))),
        "#;
        let rows = ["..........", "..........", ".........."];
        let mut app = scripted(&grid_level(RULESET, &rows, "", units), &[15, 3]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (7, 0));
        app.update();
        assert!(lines::<line::Moved>(&app).is_empty(), "seven squares is more than the Move Action's six");
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (6, 1));
        app.update();
        assert_eq!(lines::<line::Moved>(&app).len(), 6, "one move of six squares");
        assert_eq!(attacks_by(&app, "r1").len(), 1, "then the one attack");

        // With no Bonus Action left, standing up takes the action; the foe whose melee zone holds
        // the unit strikes a free hit.
        let mut app = adjacent(&[15, 3]);
        set::<Conditions>(&mut app, "r1", |conditions| {
            conditions.prone = true;
            conditions.bonus_actions_lost = 2;
        });
        app.update();
        declare(&mut app, "r1", ActionKind::StandUp, None, None);
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::FreeHit);
        assert!(
            lines::<line::Status>(&app).iter().any(|line| &*line.unit == "r1" && line.status == StatusChange::Standing)
        );
        assert!(!get::<Conditions>(&mut app, "r1").prone);
        declare(&mut app, "b1", ActionKind::StandUp, None, None);
        app.update();
        assert!(
            !lines::<line::Status>(&app)
                .iter()
                .any(|line| &*line.unit == "b1" && line.status == StatusChange::Standing),
            "only a prone unit may stand up"
        );
        assert_eq!(state(&app).round, 1, "the refused declaration leaves b1 to choose again");
    }

    #[test]
    fn a_turn_1_a_prone_unit_stands_up_with_a_bonus_action_and_keeps_its_attack() {
        // r1 gets up as its turn begins (no free hit), then strikes without moving: 8 + accuracy
        // 2 + 1 for the one Bonus Action left; 1d8 = 3 and no +1 damage.
        let mut app = adjacent(&[8, 3]);
        set::<Conditions>(&mut app, "r1", |conditions| conditions.prone = true);
        app.update();
        assert!(!get::<Conditions>(&mut app, "r1").prone);
        assert!(
            lines::<line::Status>(&app).iter().any(|line| &*line.unit == "r1" && line.status == StatusChange::Standing)
        );
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "b1").is_empty(), "getting up with a Bonus Action draws no free hit");
        assert_eq!(attacks_by(&app, "r1")[0].total, 11);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 27);
    }

    #[test]
    fn a_hit_1_accuracy_against_10_plus_agility() {
        let mut app = adjacent(&[8, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!(attack.defense, 10);
        assert_eq!(attack.total, 11, "8 + accuracy 2 + 1 from the bonus actions of a unit that stands");
        assert!(attack.hit);
    }

    #[test]
    fn a_aim_1_a_slowing_wound_costs_two_squares_and_one_agility() {
        // 15 hits; 1d8 = 7 net damage: a wound.
        let mut app = adjacent(&[15, 7]);
        app.update();
        declare(&mut app, "r1", ActionKind::Aimed(AimPoint::Slowing), Some("b1"), None);
        app.update();
        let wound = &lines::<line::Wound>(&app)[0];
        assert_eq!(wound.aim, AimPoint::Slowing);
        assert_eq!(wound.wounds, 1);
        let conditions = get::<Conditions>(&mut app, "b1");
        assert_eq!((conditions.speed_penalty, conditions.agility_penalty), (2, 1));
    }

    #[test]
    fn a_aim_1_a_weakening_wound_takes_away_a_bonus_action() {
        // r1 wounds b1's arms (15 hits, 7 + 1 damage). b1 then strikes without moving: 12 + accuracy
        // 2 + 1 for the one Bonus Action left; the second, which bought +1 damage, is gone.
        let mut app = adjacent(&[15, 7, 12, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Aimed(AimPoint::Weakening), Some("b1"), None);
        app.update();
        assert_eq!(get::<Conditions>(&mut app, "b1").bonus_actions_left(), 1);
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].total, 15);
        let damage = lines::<line::Damage>(&app);
        let to_r1 = damage.iter().find(|damage| &*damage.unit == "r1").expect("b1 hit r1");
        assert_eq!(to_r1.amount, 3 - 1, "1d8 = 3, -1 Strength, and no +1 damage");
    }

    #[test]
    fn a_wound_1_less_than_6_net_damage_deals_no_wound() {
        let mut app = adjacent(&[15, 4]);
        app.update();
        declare(&mut app, "r1", ActionKind::Aimed(AimPoint::Disrupting), Some("b1"), None);
        app.update();
        assert!(lines::<line::Wound>(&app).is_empty());
        assert_eq!(get::<Conditions>(&mut app, "b1").accuracy_penalty, 0);
    }

    #[test]
    fn a_aim_1_centre_mass_adds_1_to_hit() {
        let mut app = adjacent(&[7, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Aimed(AimPoint::CentreMass), Some("b1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "r1")[0].total, 11, "7 + attack 2 + 1 centre mass + 1 standing");
    }

    #[test]
    fn a_aim_1_a_fatal_wound_adds_16_on_the_chance_die() {
        let mut app = adjacent(&[15, 8, 4]);
        app.update();
        declare(&mut app, "r1", ActionKind::Aimed(AimPoint::Fatal), Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Wound>(&app)[0].extra_damage, 16);
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 30 - 25, "8 + 1 standing + 16");
    }

    #[test]
    fn a_crit_1_a_critical_doubles_and_escalates_to_defeat() {
        // Natural 20, damage 3, d4 = 4 (super critical), d6 = 6: defeated outright.
        let mut app = adjacent(&[20, 3, 4, 6]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let steps = lines::<line::Escalation>(&app);
        assert_eq!(steps.len(), 2);
        assert!(steps.iter().all(|step| step.chain == EscalationChain::Critical && step.escalated));
        assert_eq!(status(&mut app, "b1"), Status::Dead);

        // Natural 20, damage 3, d4 = 2: double damage only.
        let mut app = adjacent(&[20, 3, 2]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 22, "(3 + 1 standing) doubled");
    }

    #[test]
    fn a_fail_1_a_natural_1_in_a_melee_zone_gives_a_free_hit_a_tragedy_a_free_critical() {
        // Natural 1, d4 = 1: b1 strikes back (7 hits AC 12? no: r1's Defense is 12; 10 + 0 skill... face 15).
        let mut app = adjacent(&[1, 1, 15, 4]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let free = attacks_by(&app, "b1");
        assert_eq!(free[0].kind, AttackKind::FreeHit);
        assert!(!free[0].critical);

        // Natural 1, d4 = 4 (tragedy), d6 = 2: a free critical.
        let mut app = adjacent(&[1, 4, 2, 5, 3, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "b1")[0].critical);

        // Natural 1, d4 = 4, d6 = 6: the attacker dies.
        let mut app = adjacent(&[1, 4, 6]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(status(&mut app, "r1"), Status::Dead);
    }

    #[test]
    fn a_free_1_free_hit_slots_are_agility_plus_1_and_leaving_provokes() {
        let mut app = adjacent(&[15, 3]);
        app.update();
        assert_eq!(get::<Reactions>(&mut app, "r1").0, 3, "Agility +2, plus 1");
        assert_eq!(get::<Reactions>(&mut app, "b1").0, 1);
        declare_at(&mut app, "r1", ActionKind::Move, None, (0, 1));
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::FreeHit);
    }

    #[test]
    fn a_bonus_1_bonus_actions_go_into_the_blow_after_a_move_too() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), attributes: Some((agility: 14))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[8, 3]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (1, 1));
        app.update();
        assert_eq!(attacks_by(&app, "r1")[0].total, 11, "8 + accuracy 2 + 1: the Move Action paid for the step");
    }

    #[test]
    fn a_bonus_1_a_turn_that_leaves_a_bonus_action_free_dodges_until_the_next() {
        // r1 holds: its free Bonus Action dodges, so b1's 9 + accuracy 2 + 1 standing = 12
        // misses its Defense of 12 + 1.
        let mut app = adjacent(&[9]);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        assert_eq!(get::<Conditions>(&mut app, "r1").dodge_bonus, 1);
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        let attack = &attacks_by(&app, "b1")[0];
        assert_eq!(attack.defense, 13, "10 + Agility 2 + 1 dodging");
        assert_eq!((attack.total, attack.hit), (12, false));

        // A blow struck without moving spends both Bonus Actions on it: no dodge. Its next turn
        // ends the dodge of the last.
        let mut app = adjacent(&[10, 3, 10, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert_eq!(get::<Conditions>(&mut app, "r1").dodge_bonus, 1, "the dodge lasts through the round's end");
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(get::<Conditions>(&mut app, "r1").dodge_bonus, 0, "striking spends both on +1 and +1");
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].defense, 12);
        assert_eq!(get::<Conditions>(&mut app, "b1").dodge_bonus, 0, "b1 struck too");
    }

    #[test]
    fn a_cond_1_flat_footed_targets_are_hit_on_5_prone_on_5_plus_agility() {
        let mut app = adjacent(&[3, 3]);
        let b1 = unit(&mut app, "b1");
        app.world_mut().entity_mut(b1).insert(Surprised);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!(attack.defense, 5, "an unaware target is flat-footed");
        assert!(attack.extra.sneak_roll.is_some(), "and takes sneak damage");

        let mut app = adjacent(&[3, 3]);
        set::<Conditions>(&mut app, "b1", |conditions| conditions.prone = true);
        set::<Attributes>(&mut app, "b1", |attributes| attributes.0[1] = 14);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "r1")[0].defense, 7, "prone: 5 + Agility 2");
    }

    #[test]
    fn a_cond_1_an_ally_on_the_far_side_flanks() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14))),
            (id: "r2", creature: "soldier", side: "red", at: Some((3, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[5, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert!(attack.extra.flanking);
        assert_eq!(attack.total, 9, "5 + accuracy 2 + 1 standing + 1 flanking");
    }

    #[test]
    fn a_feat_1_feats_change_reach_movement_and_damage_dice() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), feats: [Reach, Athlete, WeaponFocus]),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[]);
        let loadout = get::<Loadout>(&mut app, "r1");
        assert_eq!(loadout.weapon.reach, 2, "the melee zone reaches two squares");
        assert_eq!(loadout.weapon.damage.count, 2, "one more damage die");
        assert_eq!(get::<Speed>(&mut app, "r1").0, 8, "six squares and two more");
    }

    /// r1 (Agility 14, first, `feats`) casts the full-round lightning_bolt at b1 beside it;
    /// b1 then strikes r1 (8, 1d8 = 3) while it channels.
    fn channelling(feats: &str) -> App {
        let units = format!(
            r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14)), spells: Some(["lightning_bolt"]), feats: [{feats}]),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#
        );
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", &units), &[8, 3, 15, 1, 1, 1]);
        hit_points(&mut app, "r1", 30);
        hit_points(&mut app, "b1", 30);
        set::<Mana>(&mut app, "r1", |mana| mana.current = 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
        finish_round(&mut app);
        app
    }

    #[test]
    fn a_cond_1_a_channelling_caster_is_flat_footed() {
        let app = channelling("");
        let attack = &attacks_by(&app, "b1")[0];
        assert_eq!(attack.defense, 5, "channelling a spell, it cannot dodge");
        assert!(attack.hit);
        assert!(lines::<line::Cast>(&app)[0].success, "the bolt still goes off at the round's end");
    }

    #[test]
    fn a_feat_1_a_battle_caster_dodges_normally_while_channelling() {
        let app = channelling("BattleCaster");
        let attack = &attacks_by(&app, "b1")[0];
        assert_eq!(attack.defense, 13, "10 + Agility 2 + 1 for the Bonus Action spent dodging");
        assert!(!attack.hit);
        // Maneuverer is accepted; Fray has no sneaking, swimming or tumbling for it to change.
        let units = r#"(id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), feats: [Maneuverer]),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),"#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[]);
        assert_eq!(get::<Speed>(&mut app, "r1").0, 6);
    }

    #[test]
    fn a_cond_1_a_disarmed_unit_picks_its_weapon_up_with_a_bonus_action() {
        // r1 stands and strikes: 8 + accuracy 2 + 1 for the one Bonus Action the pick-up left;
        // the blade's 1d8 = 3, no +1 damage.
        let mut app = adjacent(&[8, 3]);
        set::<Conditions>(&mut app, "r1", |conditions| conditions.disarmed = true);
        app.update();
        assert!(!get::<Conditions>(&mut app, "r1").disarmed, "picked up as its turn begins");
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!(attack.total, 11);
        assert_eq!(expr(attack.damage_roll.as_ref()).as_deref(), Some("1d8"));
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 27);

        // Without the option, the unit fights on with its fists.
        let mut app = adjacent(&[8, 1]);
        let mut ruleset = app.world_mut().resource_mut::<fray::rules::ruleset::Ruleset>();
        ruleset.attack.conditions.as_mut().expect("aimed_wounds has conditions").disarmed_recovers_with_bonus_action =
            false;
        set::<Conditions>(&mut app, "r1", |conditions| conditions.disarmed = true);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(get::<Conditions>(&mut app, "r1").disarmed);
        assert_ne!(expr(attacks_by(&app, "r1")[0].damage_roll.as_ref()).as_deref(), Some("1d8"), "unarmed");
    }

    #[test]
    fn a_summ_1_summoning_fills_slots_up_to_the_level_and_the_summoned_are_sick_at_first() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), spells: Some(["raise_dead"])),
            (id: "s1", creature: "soldier", side: "red", at: Some((0, 0)), summoned_by: Some("r1")),
            (id: "s2", creature: "soldier", side: "red", at: Some((0, 2)), summoned_by: Some("r1")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 1))),
        "#;
        // Casting 15 reaches TN 11 both times.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[15, 15]);
        set::<Mana>(&mut app, "r1", |mana| mana.current = 20);
        assert_eq!(get::<Status>(&mut app, "s1"), Status::Reserve, "summoned units wait to be called");
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("r1"), None);
        app.update();
        assert_eq!(get::<Status>(&mut app, "s1"), Status::Active);
        assert_eq!(&*lines::<line::Arrived>(&app)[0].unit, "s1");
        assert_eq!(get::<Conditions>(&mut app, "s1").sick_until, Some(2), "summoning sickness through round 2");
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        declare(&mut app, "r1", ActionKind::Cast(0), Some("r1"), None);
        app.update();
        assert_eq!(get::<Status>(&mut app, "s2"), Status::Reserve, "a level 1 summoner has one slot");
        assert!(lines::<line::ActionLost>(&app).iter().any(|lost| lost.reason == "no_summoning_slot"));
        let s1 = unit(&mut app, "s1");
        let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
        assert!(order.contains(&s1), "in the turn order, but it may not act yet");
        assert!(!fray::rules::unit::may_act(Status::Active, &get::<Conditions>(&mut app, "s1"), false, 2));
    }

    #[test]
    fn a_end_1_the_victors_regain_their_mana_and_unkept_summons_vanish() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14)), spells: Some(["raise_dead"])),
            (id: "s1", creature: "soldier", side: "red", at: Some((0, 0)), summoned_by: Some("r1")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[15]);
        set::<Mana>(&mut app, "r1", |mana| {
            mana.max = 20;
            mana.current = 20;
        });
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("r1"), None);
        app.update();
        assert_eq!(get::<Mana>(&mut app, "r1").current, 17);
        set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
        app.world_mut().resource_mut::<CombatRng>().push_script([15, 3]);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        for _ in 0..4 {
            app.update();
        }
        assert!(state(&app).is_over());
        assert_eq!(get::<Mana>(&mut app, "r1").current, 20, "the victor's MP is full again");
        assert_eq!(get::<Status>(&mut app, "s1"), Status::Fled);
        assert!(
            lines::<line::Status>(&app).iter().any(|line| &*line.unit == "s1" && line.status == StatusChange::Vanished)
        );
    }

    #[test]
    fn a_zone_1_the_melee_zone_is_the_adjacent_squares() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[]);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert!(attacks_by(&app, "r1").is_empty(), "two squares away is out of the melee zone");
    }

    #[test]
    fn a_move_1_six_squares_a_third_when_prone_and_bonus_squares_when_only_moving() {
        let mut app = adjacent(&[]);
        app.update();
        let ruleset = app.world().resource::<fray::rules::ruleset::Ruleset>().clone();
        let speed = get::<Speed>(&mut app, "r1");
        assert_eq!(speed.0, 6, "the chapter's one zone of speed is six squares");
        let mut conditions = Conditions::default();
        let attack =
            fray::rules::unit::movement_allowance(&ruleset, speed, Status::Active, &conditions, ActionKind::Attack);
        let moving = fray::rules::unit::action_allowance(
            &ruleset,
            speed,
            Status::Active,
            &conditions,
            &Action::simple(ActionKind::Move),
        );
        conditions.prone = true;
        let prone =
            fray::rules::unit::movement_allowance(&ruleset, speed, Status::Active, &conditions, ActionKind::Attack);
        assert_eq!((attack, moving, prone), (6, 10, 2), "prone a third; both bonus actions add 4 squares");
    }
}

mod crucible {
    use super::*;

    const RULESET: &str = "crucible";
    const OPEN: [&str; 4] = ["......", "......", "......", "......"];

    #[test]
    fn c_surp_1_a_side_rolling_1_to_4_on_d12_is_surprised_unless_both_are() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[2, 9]);
        app.update();
        let rolls = lines::<line::SurpriseRoll>(&app);
        assert_eq!(rolls.len(), 2);
        let surprise = lines::<line::Surprise>(&app);
        assert!(surprise[0].surprised);
        assert!(!surprise[1].surprised);

        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[2, 3]);
        app.update();
        assert!(lines::<line::Surprise>(&app).iter().all(|line| !line.surprised), "both surprised: neither");
    }

    #[test]
    fn c_surp_1_an_elf_on_point_widens_the_enemy_range_to_1_to_8() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        let sides = r#"(name: "red", controller: Human, surprise_range: 4), (name: "blue", controller: Human)"#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, sides, units), &[9, 7]);
        app.update();
        let rolls = lines::<line::SurpriseRoll>(&app);
        assert_eq!(rolls[1].range, 8);
        assert!(lines::<line::Surprise>(&app)[1].surprised);
    }

    #[test]
    fn c_surp_1_a_ranger_narrows_its_own_side_range_and_its_own_roll() {
        // A ranger (surprised -2) in red: red's range is 1-2, so its roll of 3 leaves it alert.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), surprise_shift: Some(-2)),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 2))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[3, 3]);
        app.update();
        let rolls = lines::<line::SurpriseRoll>(&app);
        assert_eq!((rolls[0].range, rolls[1].range), (2, 4));
        let caught: Vec<_> = lines::<line::Surprise>(&app).iter().map(|line| line.surprised).collect();
        assert_eq!(caught, [false, false, true], "blue's 3 is within 1-4; red's is not within 1-2");

        // With individual rolls the shift is the ranger's own: r1's 3 misses, r2's 3 is caught.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[3, 3, 9]);
        let mut ruleset = app.world_mut().resource_mut::<fray::rules::ruleset::Ruleset>();
        ruleset.surprise.roll.as_mut().expect("crucible rolls for surprise").individual = true;
        app.update();
        let ranges: Vec<_> = lines::<line::SurpriseRoll>(&app).iter().map(|line| line.range).collect();
        assert_eq!(ranges, [2, 4, 4]);
        let caught: Vec<_> = lines::<line::Surprise>(&app).iter().map(|line| line.surprised).collect();
        assert_eq!(caught, [false, true, false]);
    }

    #[test]
    fn c_init_1_sides_roll_d12_low_first_ties_simultaneous_rerolled_each_round() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        // Surprise rolls 9 and 9 (nobody), then both sides roll 5.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 5, 5, 2, 7]);
        app.update();
        let turns = state(&app).turns;
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].1.len(), 2, "a tie is simultaneous");
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert_eq!(state(&app).round, 2);
        assert_eq!(lines::<line::SideInitiative>(&app).len(), 4, "rolled again in round 2");
        let (r1, b1) = (unit(&mut app, "r1"), unit(&mut app, "b1"));
        let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
        assert_eq!(order, vec![r1, b1], "red's 2 goes before blue's 7");
    }

    #[test]
    fn c_surp_1_the_individual_option_rolls_for_each_unit() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 2))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
            (id: "b2", creature: "soldier", side: "blue", at: Some((5, 2))),
        "#;
        let individual = |faces: &[u32]| {
            let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), faces);
            let mut ruleset = app.world_mut().resource_mut::<fray::rules::ruleset::Ruleset>();
            ruleset.surprise.roll.as_mut().expect("crucible rolls for surprise").individual = true;
            app.update();
            app
        };
        // r1 rolls 2 and b1 3 (surprised), r2 9 and b2 10 (alert).
        let app = individual(&[2, 9, 3, 10, 5, 5]);
        let rolls = lines::<line::SurpriseRoll>(&app);
        let rolled: Vec<_> = rolls.iter().map(|roll| roll.unit.as_deref().unwrap_or("side")).collect();
        assert_eq!(rolled, ["r1", "r2", "b1", "b2"], "one roll per unit, in level order");
        assert_eq!(&*rolls[0].side, "red");
        for (id, caught) in [("r1", true), ("r2", false), ("b1", true), ("b2", false)] {
            let surprise = lines::<line::Surprise>(&app).into_iter().find(|surprise| &*surprise.unit == id).unwrap();
            assert_eq!(surprise.surprised, caught, "{id}");
        }

        // Everyone caught unaware: nobody is surprised.
        let app = individual(&[1, 2, 3, 4, 5, 5]);
        assert!(lines::<line::Surprise>(&app).iter().all(|line| !line.surprised));
    }

    #[test]
    fn c_init_1_the_individual_option_rolls_d12_for_each_unit_every_round() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 2)), attributes: Some((dexterity: 16))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        // No surprise (9, 9); then r1 5, r2 5 - 2 for Dexterity = 3, b1 5.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 5, 5, 5, 7, 1, 2]);
        if let fray::rules::ruleset::TurnOrder::SideRoll { individual_rolls, .. } =
            &mut app.world_mut().resource_mut::<fray::rules::ruleset::Ruleset>().turns.order
        {
            *individual_rolls = true;
        }
        app.update();
        assert!(lines::<line::SideInitiative>(&app).is_empty(), "no side rolls");
        let rolls = lines::<line::Initiative>(&app);
        let exprs: Vec<_> = rolls.iter().map(|roll| roll.roll.expr.to_string()).collect();
        assert_eq!(exprs, ["1d12", "1d12-2", "1d12"]);
        let (r1, r2, b1) = (unit(&mut app, "r1"), unit(&mut app, "r2"), unit(&mut app, "b1"));
        let turns = state(&app).turns;
        assert_eq!(turns[0].1, vec![r2], "the lowest score goes first");
        assert_eq!(turns[1].1, vec![r1, b1], "r1 and b1 tie on 5: they act together");

        declare(&mut app, "r2", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        assert_eq!(state(&app).round, 2);
        assert_eq!(lines::<line::Initiative>(&app).len(), 6, "everyone rolls again in round 2");
        let order: Vec<Entity> = state(&app).turns.iter().flat_map(|(_, group)| group.clone()).collect();
        assert_eq!(order, vec![r2, b1, r1], "r2 -1, b1 2, r1 7");
    }

    /// r1 at (1,1) next to b1 at (2,1), red first.
    fn adjacent(faces: &[u32]) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut script = vec![9, 9, 1, 8];
        script.extend_from_slice(faces);
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &script);
        hit_points(&mut app, "r1", 30);
        hit_points(&mut app, "b1", 30);
        app
    }

    #[test]
    fn c_move_1_the_5_ft_step_never_provokes() {
        let mut app = adjacent(&[]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Hold, None, (0, 1));
        app.update();
        // Hold may not move; a step before an attack is the 5-ft step.
        let mut app = adjacent(&[2]);
        app.update();
        set::<Loadout>(&mut app, "r1", |loadout| loadout.weapon.reach = 2);
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (0, 1));
        app.update();
        assert_eq!(lines::<line::Moved>(&app).len(), 1);
        assert!(attacks_by(&app, "b1").is_empty(), "the step provokes nothing");

        let mut app = adjacent(&[15, 3]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Move, None, (0, 1));
        app.update();
        assert_eq!(attacks_by(&app, "b1")[0].kind, AttackKind::Opportunity, "a plain move away does");
    }

    #[test]
    fn c_aoo_1_moving_more_than_5_ft_in_reach_provokes_once_a_round() {
        let mut app = adjacent(&[15, 3]);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Move, None, (3, 0));
        app.update();
        let opportunities = attacks_by(&app, "b1");
        assert_eq!(opportunities.len(), 1, "one attack of opportunity a round");
        assert_eq!(opportunities[0].kind, AttackKind::Opportunity);
        assert_eq!(get::<Reactions>(&mut app, "b1").0, 0);
    }

    #[test]
    fn c_wdraw_1_failed_morale_rolls_a_withdrawal_and_player_characters_never_check() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
            (id: "b2", creature: "soldier", side: "blue", at: Some((5, 2))),
        "#;
        // No surprise; red 1, blue 8; morale 2d6 = 1 + 1 fails; withdrawal d6 = 6: surrender.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 1, 1, 6]);
        set::<Status>(&mut app, "b2", |status| *status = Status::Dead);
        set::<Status>(&mut app, "r2", |status| *status = Status::Dead);
        for id in ["b1", "r1"] {
            let entity = unit(&mut app, id);
            app.world_mut().entity_mut(entity).insert(ChecksMorale);
        }
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        let morale = lines::<line::Morale>(&app);
        assert_eq!(morale.len(), 1, "only the monster checks; the party's player decides for r1");
        assert_eq!(&*morale[0].unit, "b1");
        assert_eq!(lines::<line::Withdrawal>(&app)[0].response, Withdrawal::Surrender);
        assert_eq!(status(&mut app, "b1"), Status::Surrendered);
    }

    #[test]
    fn c_wdraw_1_a_unit_fleeing_in_panic_takes_an_attack_of_opportunity_at_its_back() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "r2", creature: "soldier", side: "red", at: Some((5, 3))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
            (id: "b2", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        // No surprise; red 1, blue 8; b1's morale 2d6 = 1 + 1 fails; withdrawal d6 = 5: flee.
        // r1, beside it, strikes at its back (15 hits, 1d8 = 3); r2, far off, cannot.
        let flee = |app: &mut App| {
            set::<Status>(app, "b2", |status| *status = Status::Dead);
            let b1 = unit(app, "b1");
            app.world_mut().entity_mut(b1).insert(ChecksMorale);
            app.update();
            for id in ["r1", "r2", "b1"] {
                declare(app, id, ActionKind::Hold, None, None);
                app.update();
            }
            finish_round(app);
        };
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 1, 1, 5, 15, 3]);
        hit_points(&mut app, "b1", 30);
        flee(&mut app);
        assert_eq!(lines::<line::Withdrawal>(&app)[0].response, Withdrawal::Flee);
        let at_back = attacks_by(&app, "r1");
        assert_eq!(at_back.len(), 1, "one attack of opportunity, from the foe beside it only");
        assert_eq!((&*at_back[0].target, at_back[0].kind), ("b1", AttackKind::Opportunity));
        assert!(attacks_by(&app, "r2").is_empty());
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 27);
        assert_eq!(status(&mut app, "b1"), Status::Fled, "then it is gone");
        let struck = position(&app, |event| matches!(event, LogEvent::Attack(_)));
        let fled = position(
            &app,
            |event| matches!(event, LogEvent::Status(line) if line.status == StatusChange::Became(Status::Fled)),
        );
        assert!(struck < fled, "struck before it leaves");

        // A blow that drops it ends its flight where it falls.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 1, 1, 5, 15, 3]);
        hit_points(&mut app, "b1", 3);
        flee(&mut app);
        let fallen = status(&mut app, "b1");
        assert!(fallen == Status::Dead || fallen.is_down(), "{fallen:?}: fallen, not fled");
    }

    #[test]
    fn c_cast_1_a_caster_hurt_earlier_in_the_round_cannot_cast() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("bow")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1)), spells: Some(["firebolt"])),
        "#;
        // No surprise; red 1 goes first and shoots b1 (15, damage 3); b1's turn comes at 8.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 15, 3]);
        hit_points(&mut app, "b1", 30);
        set::<Mana>(&mut app, "b1", |mana| mana.current = 20);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        declare(&mut app, "b1", ActionKind::Cast(0), Some("r1"), None);
        app.update();
        let disrupted = lines::<line::SpellDisrupted>(&app);
        assert_eq!(disrupted.len(), 1);
        assert_eq!(disrupted[0].damage_taken, 3);
        assert!(lines::<line::Cast>(&app).is_empty());
    }

    /// r1 (red, turn 1) has `spell`; b2 (Dexterity 13, turn 2) stands two squares from it and b1
    /// (turn 3) further off. No surprise; red rolls 1, blue 8; then `faces`.
    fn three_turns(spell: &str, faces: &[u32]) -> App {
        let units = format!(
            r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), spells: Some(["{spell}"])),
            (id: "b2", creature: "soldier", side: "blue", at: Some((2, 1)), attributes: Some((dexterity: 13))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 3))),
        "#
        );
        let mut script = vec![9, 9, 1, 8];
        script.extend_from_slice(faces);
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", &units), &script);
        for id in ["r1", "b1", "b2"] {
            hit_points(&mut app, id, 30);
        }
        set::<Mana>(&mut app, "r1", |mana| mana.current = 20);
        app
    }

    #[test]
    fn c_cast_1_a_spell_takes_its_casting_time_in_turns_and_a_full_round_spell_resolves_last() {
        // withering_curse takes 2 turns: begun in turn 1, it strikes b1 (15 casts, 1d12 = 5)
        // before turn 3, after b2's turn.
        let mut app = three_turns("withering_curse", &[15, 5]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        assert!(lines::<line::Cast>(&app).is_empty(), "the spell has not taken effect yet");
        assert!(get::<Conditions>(&mut app, "r1").channelling, "the caster is casting");
        declare(&mut app, "b2", ActionKind::Hold, None, None);
        app.update();
        app.update();
        let cast = position(&app, |event| matches!(event, LogEvent::Cast(_)));
        let b2 = position(&app, |event| matches!(event, LogEvent::Declared(declared) if &*declared.unit == "b2"));
        assert!(cast > b2, "two turns later");
        assert!(!lines::<line::Declared>(&app).iter().any(|declared| &*declared.unit == "b1"), "before turn 3");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 25);
        assert!(!get::<Conditions>(&mut app, "r1").channelling);

        // lightning_bolt takes the full round: it goes off after the last turn.
        let mut app = three_turns("lightning_bolt", &[15, 1, 1, 1]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        declare(&mut app, "b2", ActionKind::Hold, None, None);
        app.update();
        app.update();
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        finish_round(&mut app);
        let cast = position(&app, |event| matches!(event, LogEvent::Cast(_)));
        let b1 = position(&app, |event| matches!(event, LogEvent::Declared(declared) if &*declared.unit == "b1"));
        let ended = position(&app, |event| matches!(event, LogEvent::RoundEnded {}));
        assert!(b1 < cast && cast < ended, "after every turn of the round, before it ends");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 27);
    }

    #[test]
    fn c_cast_1_a_caster_struck_while_casting_loses_the_spell_and_its_mana() {
        // b2 steps up and hits r1 (15, 1d8 = 3) while the curse is being cast.
        let mut app = three_turns("withering_curse", &[15, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        declare_at(&mut app, "b2", ActionKind::Attack, Some("r1"), (1, 1));
        app.update();
        app.update();
        let disrupted = lines::<line::SpellDisrupted>(&app);
        assert_eq!(disrupted.len(), 1);
        assert_eq!(disrupted[0].damage_taken, 3);
        assert!(lines::<line::Cast>(&app).is_empty());
        assert_eq!(get::<Mana>(&mut app, "r1").current, 18, "the lost spell's Mana is spent");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 30);
    }

    #[test]
    fn c_cast_1_a_cast_that_can_no_longer_be_paid_is_lost_with_a_reason() {
        let mut app = three_turns("withering_curse", &[15, 5]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        // The Mana is gone by the time the spell would take effect.
        set::<Mana>(&mut app, "r1", |mana| mana.current = 0);
        declare(&mut app, "b2", ActionKind::Hold, None, None);
        app.update();
        app.update();
        let lost = lines::<line::ActionLost>(&app);
        assert_eq!(lost.len(), 1);
        assert_eq!((&*lost[0].unit, lost[0].reason.as_str()), ("r1", "cannot_pay"));
        assert!(lines::<line::Cast>(&app).is_empty(), "no casting roll for a spell that cannot be paid");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 30);
    }

    #[test]
    fn c_multi_1_attacks_per_round_follow_the_level_bands() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8]);
        hit_points(&mut app, "b1", 100);
        set::<Level>(&mut app, "r1", |level| level.0 = 13);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        assert_eq!(attacks_by(&app, "r1").len(), 2, "level 13: two attacks a round");
    }

    #[test]
    fn c_reach_1_closing_in_the_longer_weapon_strikes_first() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1)), weapon: Some("pike")),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 15, 3]);
        hit_points(&mut app, "r1", 30);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (3, 1));
        app.update();
        let first = &lines::<line::Attack>(&app)[0];
        assert_eq!(&*first.attacker, "b1", "the pike strikes before the blade arrives");
        assert_eq!(first.kind, AttackKind::Reposte);
    }

    #[test]
    fn c_reach_1_a_weapon_beats_bare_hands_of_the_same_reach() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("unarmed")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 15, 3]);
        hit_points(&mut app, "r1", 30);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (3, 1));
        app.update();
        let first = &lines::<line::Attack>(&app)[0];
        assert_eq!(&*first.attacker, "b1", "the blade strikes before the fists arrive");
        assert_eq!(first.kind, AttackKind::Reposte);

        // Blade against blade: the same reach, so the mover strikes first in its own turn.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((4, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 15, 3]);
        hit_points(&mut app, "b1", 30);
        app.update();
        declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (3, 1));
        app.update();
        assert_eq!(&*lines::<line::Attack>(&app)[0].attacker, "r1");
    }

    #[test]
    fn c_miss_1_a_ready_missile_looses_before_initiative() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0)), weapon: Some("bow")),
        "#;
        // Red wins initiative (1 against 8), yet the blue archer with a target in sight goes first.
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8]);
        app.update();
        let b1 = unit(&mut app, "b1");
        assert_eq!(state(&app).turns[0].1, vec![b1]);
    }

    #[test]
    fn c_aoo_1_shooting_at_a_foe_in_melee_draws_its_attack_of_opportunity() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), weapon: Some("bow")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 1, 8, 15, 3, 15, 3]);
        hit_points(&mut app, "r1", 30);
        hit_points(&mut app, "b1", 30);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attacks = lines::<line::Attack>(&app);
        assert_eq!(&*attacks[0].attacker, "b1");
        assert_eq!(attacks[0].kind, AttackKind::Opportunity);
        assert_eq!(&*attacks[1].attacker, "r1");
    }

    #[test]
    fn c_init_2_the_weapon_speed_option_splits_a_tie() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), weapon: Some("club6")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0)), weapon: Some("claws0")),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[9, 9, 5, 5]);
        app.world_mut().resource_mut::<fray::rules::ruleset::Ruleset>().turns.tie_breaks =
            vec![fray::rules::ruleset::TieBreak::WeaponSpeed];
        app.update();
        let (r1, b1) = (unit(&mut app, "r1"), unit(&mut app, "b1"));
        let turns = state(&app).turns;
        assert_eq!(turns.len(), 2, "the tie is split");
        assert_eq!((turns[0].1.clone(), turns[1].1.clone()), (vec![b1], vec![r1]), "claws (0) before the club (3)");
    }

    #[test]
    fn c_move_1_the_load_carried_sets_the_movement_rate() {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), load: Some(80)),
            (id: "r2", creature: "soldier", side: "red", at: Some((0, 1)), load: Some(20)),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, "", units), &[]);
        assert_eq!(get::<Speed>(&mut app, "r1").0, 3, "very heavy: 6\" (3 squares)");
        assert_eq!(get::<Speed>(&mut app, "r2").0, 6, "light: 12\" (6 squares)");
    }

    #[test]
    fn c_init_1_same_seed_same_log() {
        let text = grid_level(
            RULESET,
            &OPEN,
            "",
            r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((5, 3))),
        "#,
        );
        let template = level_template(&text);
        let run = || {
            let mut app = app_with(&template, 7);
            for unit in ["r1", "b1"] {
                let entity = unit_entity(&mut app, unit);
                app.world_mut().entity_mut(entity).insert(Controller::Ai(AiKind::Greedy));
            }
            for _ in 0..200 {
                app.update();
                if state(&app).is_over() {
                    break;
                }
            }
            app.world().resource::<CombatLog>().to_json_lines()
        };
        let first = run();
        assert!(first.contains("combat_ended"), "the AI duel ends");
        assert_eq!(first, run());
        let _ = CombatRng::seeded(0);
    }

    fn unit_entity(app: &mut App, id: &str) -> Entity {
        unit(app, id)
    }
}

/// Every level in `levels/`, under whatever ruleset it names, plays to an end for many seeds
/// with the AI on every side: no panic, no stall, a result every time.
#[test]
fn every_shipped_level_plays_to_an_end_for_many_seeds() {
    const SEEDS: u64 = 25;
    const MOST_UPDATES: u32 = 20_000;
    let mut paths: Vec<_> = std::fs::read_dir("levels")
        .expect("levels/")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 12, "four shipped levels of seed 000 and two per other preset");
    let mut rulesets = std::collections::BTreeSet::new();
    for path in paths {
        let template = fray::levels::load_level(&path, &ModSet::default())
            .unwrap_or_else(|errors| panic!("{}: {errors}", path.display()));
        rulesets.insert(template.ruleset.name.clone());
        if template.units.len() > fray::levels::mass::MASS_BATTLE_UNITS {
            continue;
        }
        let controllers: Vec<(usize, Controller)> =
            (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
        for seed in 0..SEEDS {
            let mut battle = fray::headless::HeadlessBattle::new();
            let setup = fray::levels::BattleSetup { seed, controllers: controllers.clone(), record_log: false };
            battle.start(&template, &setup);
            let outcome = battle.run(MOST_UPDATES);
            assert!(outcome.is_some(), "{} seed {seed} did not end", path.display());
        }
    }
    assert_eq!(rulesets.len(), 5, "every preset has shipped levels: {rulesets:?}");
}

/// The greedy AI plays each preset with that preset's own actions and never has a declaration
/// refused: it aims under aimed_wounds, swarms and charges under shock_and_cover, and
/// disengages or takes a free attack's risk knowingly where leaving reach provokes.
#[test]
fn the_greedy_ai_uses_each_presets_actions_and_declares_only_legal_ones() {
    use std::collections::BTreeSet;
    const SEEDS: u64 = 12;
    let expectations: [(&str, &[&str]); 4] = [
        ("zones_and_tests_mill.ron", &["attack"]),
        ("shock_and_cover_breach.ron", &["swarm", "attack"]),
        ("aimed_wounds_skirmish.ron", &["aimed_attack"]),
        ("crucible_skirmish.ron", &["attack"]),
    ];
    for (level, wanted) in expectations {
        let template = fray::levels::load_builtin_level(level, &ModSet::default()).unwrap();
        let controllers: Vec<(usize, Controller)> =
            (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
        let mut kinds = BTreeSet::new();
        for seed in 0..SEEDS {
            let mut battle = fray::headless::HeadlessBattle::new();
            battle.start(
                &template,
                &fray::levels::BattleSetup { seed, controllers: controllers.clone(), record_log: true },
            );
            let mut rejected = 0;
            let mut updates = 0;
            while !battle.state().is_over() && updates < 20_000 {
                battle.step();
                updates += 1;
                let messages = battle.world().resource::<Messages<fray::rules::DeclarationRejected>>();
                rejected += messages.iter_current_update_messages().count();
            }
            assert_eq!(rejected, 0, "{level} seed {seed}: the greedy AI declared an illegal action");
            kinds.extend(battle.log().lines::<line::Declared>().map(|declared| declared.action.log_name()));
        }
        for kind in wanted {
            assert!(kinds.contains(*kind), "{level}: the AI never used {kind}; it used {kinds:?}");
        }
    }
}
