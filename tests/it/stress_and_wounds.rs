//! Scenario tests of the `stress_and_wounds` ruleset, one or more per `W-*` rule of the rules
//! map, with the dice scripted so each test replays the rule's arithmetic exactly.

use crate::*;
use fray::battlefield::{Battlefield, Place, ZoneIndex};
use fray::rules::actions::{self, ActionContext, IllegalAction};
use fray::rules::components::*;
use fray::rules::equipment::Attribute;
use fray::rules::log::StatusChange;
use fray::rules::log::{AttackKind, MoraleReason};
use fray::rules::ruleset::Ruleset;
use fray::rules::unit::{self, UnitReadOnly};
use fray::rules::{CombatPhase, DeclarationQueue};

const RED_AND_BLUE: &str = r#"
    (id: "r1", creature: "soldier", side: "red", zone: "a"),
    (id: "b1", creature: "soldier", side: "blue", zone: "a"),
"#;

fn duel(faces: &[u32]) -> bevy::prelude::App {
    scripted(&line_level("", RED_AND_BLUE), faces)
}

fn duel_with(units: &str, faces: &[u32]) -> bevy::prelude::App {
    scripted(&line_level("", units), faces)
}

fn check(
    app: &mut bevy::prelude::App,
    id: &str,
    kind: ActionKind,
    target: Option<&str>,
    move_to: Option<&str>,
) -> Result<i32, IllegalAction> {
    use bevy::ecs::system::RunSystemOnce;
    use bevy::prelude::{Query, Res};
    let target = target.map(|target| unit(app, target));
    let move_to = move_to.map(|zone| app.world().resource::<Battlefield>().find(zone).expect("zone"));
    let entity = unit(app, id);
    let action = Action::new(kind, target, move_to);
    app.world_mut()
        .run_system_once(
            move |units: Query<UnitReadOnly>,
                  ruleset: Res<Ruleset>,
                  battlefield: Res<Battlefield>,
                  index: Res<ZoneIndex>,
                  state: Res<fray::rules::CombatState>| {
                let ctx =
                    ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
                let actor = units.get(entity).expect("actor");
                actions::check(ctx, &actor, &action, &units)
            },
        )
        .expect("the check runs")
}

fn status(app: &mut bevy::prelude::App, id: &str) -> Status {
    get::<Status>(app, id)
}

#[test]
fn w_surp_1_surprised_units_roll_but_neither_declare_nor_act_in_round_one() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", surprised: Some(true)),
    "#;
    let mut app = duel_with(units, &[3, 4]);
    app.update();
    let surprise = lines::<line::Surprise>(&app);
    assert_eq!(&*surprise[1].unit, "b1");
    assert!(surprise[1].surprised);
    assert_eq!(lines::<line::Initiative>(&app).len(), 2, "the surprised unit still rolls Base Initiative");
    let b1 = unit(&mut app, "b1");
    assert!(
        !app.world().resource::<DeclarationQueue>().order.contains(&b1),
        "a surprised unit does not declare in round 1"
    );
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    app.update();
    app.update();
    assert_eq!(state(&app).round, 2);
    assert!(app.world().resource::<DeclarationQueue>().order.contains(&b1), "surprise is over in round 2");
}

#[test]
fn w_init_1_base_initiative_subtracts_the_agility_modifier() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", attributes: Some((strength: 10, agility: 14))),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", attributes: Some((strength: 10, agility: 8))),
    "#;
    let mut app = duel_with(units, &[7, 7]);
    app.update();
    let rolls = lines::<line::Initiative>(&app);
    assert_eq!(rolls[0].roll.expr.to_string(), "1d12-2", "+2 Agility rolls 1d12-2");
    assert_eq!(rolls[0].base, 5);
    assert_eq!(rolls[1].roll.expr.to_string(), "1d12+1", "-1 Agility rolls 1d12+1");
    assert_eq!(rolls[1].base, 8);
    assert_eq!(get::<Initiative>(&mut app, "r1").base, Some(5));
}

#[test]
fn w_init_2_round_initiative_is_base_plus_the_action_modifier() {
    let mut app = duel(&[7, 5, 1]);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::FullDefense, None, None);
    app.update();
    let declared = lines::<line::Declared>(&app);
    assert_eq!(&*declared[0].unit, "r1");
    assert_eq!(declared[0].modifier, 2, "blade speed 2");
    assert_eq!(declared[0].initiative, 9);
    assert_eq!(declared[1].initiative, 4, "full defense is -1");
}

#[test]
fn w_init_3_equal_initiatives_resolve_simultaneously_and_can_kill_each_other() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("axe12")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", weapon: Some("axe12")),
    "#;
    let mut app = duel_with(units, &[5, 5, 15, 15]);
    for id in ["r1", "b1"] {
        set::<Stress>(&mut app, id, |stress| stress.current = 0);
        set::<Wounds>(&mut app, id, |wounds| wounds.current = 1);
    }
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(attacks.len(), 2, "both act at initiative 7");
    assert!(attacks.iter().all(|attack| attack.hit && attack.initiative == 7));
    assert_eq!(status(&mut app, "r1"), Status::Dead);
    assert_eq!(status(&mut app, "b1"), Status::Dead);
    let ended = lines::<line::CombatEnded>(&app);
    assert_eq!(ended[0].winner, None, "a double KO has no winner");
}

#[test]
fn w_init_3_lower_initiative_acts_first_and_the_fallen_do_not_act() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("axe12")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", weapon: Some("axe12")),
    "#;
    let mut app = duel_with(units, &[3, 9, 15]);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 0);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(attacks.len(), 1);
    assert_eq!(&*attacks[0].attacker, "r1");
    assert_eq!(attacks[0].initiative, 5);
    let lost = lines::<line::ActionLost>(&app);
    assert_eq!(&*lost[0].unit, "b1");
}

#[test]
fn w_init_4_grouped_monsters_share_one_initiative_roll() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b", initiative_group: Some("pack")),
        (id: "b2", creature: "soldier", side: "blue", zone: "b", initiative_group: Some("pack")),
        (id: "b3", creature: "soldier", side: "blue", zone: "b"),
    "#;
    let mut app = duel_with(units, &[4, 7, 2]);
    app.update();
    let rolls = lines::<line::Initiative>(&app);
    assert_eq!(rolls.len(), 4);
    assert_eq!(rolls[1].roll, rolls[2].roll, "one roll for the whole group");
    assert_eq!(rolls[1].group.as_deref(), Some("pack"));
    assert_eq!(get::<Initiative>(&mut app, "b2").base, Some(7));
    assert_eq!(get::<Initiative>(&mut app, "b3").base, Some(2), "the next unit rolls the next die");
}

#[test]
fn w_init_5_the_ghoul_joining_at_13_with_base_8_acts_at_minus_4_and_8_next_round() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        (id: "ghoul", creature: "soldier", side: "blue", zone: "a", weapon: Some("claws0"), arrives: Some((round: 1, at_initiative: Some(13)))),
    "#;
    let mut app = duel_with(units, &[12, 11, 8, 1, 1, 1]);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(
        state(&app).phase,
        CombatPhase::Declare,
        "the count passed 13: the ghoul arrives and declares mid-round"
    );
    let joined = lines::<line::Initiative>(&app);
    assert_eq!(&*joined.last().unwrap().unit, "ghoul");
    assert_eq!(joined.last().unwrap().base, 8);
    declare(&mut app, "ghoul", ActionKind::Attack, Some("r1"), None);
    app.update();
    assert_eq!(state(&app).round, 1);
    let round_one = lines_in_round::<line::Attack>(&app, 1);
    assert!(round_one.iter().all(|attack| &*attack.attacker != "ghoul"), "its initiative 8 had passed");
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    declare(&mut app, "ghoul", ActionKind::Attack, Some("r1"), None);
    app.update();
    let ghoul_declared: Vec<_> =
        lines_in_round::<line::Declared>(&app, 2).into_iter().filter(|declared| &*declared.unit == "ghoul").collect();
    let mut initiatives: Vec<i32> = ghoul_declared.iter().map(|declared| declared.initiative).collect();
    initiatives.sort();
    assert_eq!(initiatives, vec![-4, 8]);
    assert!(ghoul_declared.iter().any(|declared| declared.carried_over && declared.initiative == -4));
    let ghoul_attacks: Vec<i32> = lines_in_round::<line::Attack>(&app, 2)
        .into_iter()
        .filter(|attack| &*attack.attacker == "ghoul")
        .map(|attack| attack.initiative)
        .collect();
    assert_eq!(ghoul_attacks, vec![-4, 8], "it attacks the same creature twice in round 2");
}

#[test]
fn w_decl_1_round_robin_by_side_and_nothing_resolves_until_all_have_declared() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "r2", creature: "soldier", side: "red", zone: "a", attributes: Some((agility: 16))),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", attributes: Some((agility: 12))),
        (id: "b2", creature: "soldier", side: "blue", zone: "a", attributes: Some((agility: 8))),
    "#;
    let mut app = duel_with(units, &[1, 2, 3, 4]);
    app.update();
    let order: Vec<_> = app.world().resource::<DeclarationQueue>().order.clone();
    let ids: Vec<_> = ["r1", "b1", "r2", "b2"].iter().map(|id| unit(&mut app, id)).collect();
    assert_eq!(order, ids);
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    declare(&mut app, "r2", ActionKind::Hold, None, None);
    app.update();
    let queue = app.world().resource::<DeclarationQueue>();
    assert_eq!(queue.done, vec![true, false, false, false], "r2 declared out of turn and was refused");
    assert_eq!(state(&app).phase, CombatPhase::Declare);
    assert!(lines::<line::Declared>(&app).is_empty(), "nothing is revealed or resolved before everyone has declared");
}

#[test]
fn w_decl_1_declaration_by_agility_and_simultaneous_secret() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "r2", creature: "soldier", side: "red", zone: "a", attributes: Some((agility: 16))),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", attributes: Some((agility: 12))),
        (id: "b2", creature: "soldier", side: "blue", zone: "a", attributes: Some((agility: 8))),
    "#;
    let mut app = scripted(&line_level("declaration_order: Some(ByAgility),", units), &[1, 2, 3, 4]);
    app.update();
    let order = app.world().resource::<DeclarationQueue>().order.clone();
    let ids: Vec<_> = ["r2", "b1", "r1", "b2"].iter().map(|id| unit(&mut app, id)).collect();
    assert_eq!(order, ids, "highest Agility first");

    let mut app = scripted(&line_level("declaration_order: Some(SimultaneousSecret),", units), &[1, 2, 3, 4]);
    app.update();
    assert!(app.world().resource::<DeclarationQueue>().secret);
    declare(&mut app, "b2", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(
        app.world().resource::<DeclarationQueue>().done,
        vec![false, false, false, true],
        "any order is fine in secret"
    );
}

#[test]
fn w_decl_2_action_modifiers() {
    let extra = r#"
        spells: { "spark": (tn: 14, mana: 1, range: 2, effect: Damage(dice: "1d6", damage_type: fire)) },
        items: {
            "tonic": (effect: RestoreStress(dice: "1d4")),
            "stone": (thrown: true, range: 1, effect: Damage(dice: "1d4", damage_type: blunt)),
        },
    "#;
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("club6"), spells: Some(["spark"]), items: Some([("tonic", 1), ("stone", 2)])),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let mut app = scripted(&line_level(extra, units), &[5, 5]);
    let ruleset = Ruleset::default();
    with_view(&mut app, "r1", |view, _| {
        assert_eq!(actions::modifier(&ruleset, view, ActionKind::Attack, true), 3, "+ weapon speed");
        assert_eq!(actions::modifier(&ruleset, view, ActionKind::Cast(0), true), 4, "+ spell speed = TN - 10");
        assert_eq!(actions::modifier(&ruleset, view, ActionKind::UseItem(0), true), 6, "consumable +6");
        assert_eq!(actions::modifier(&ruleset, view, ActionKind::Throw(1), true), 2, "throw +2");
        assert_eq!(actions::modifier(&ruleset, view, ActionKind::FullDefense, false), -1);
        assert_eq!(actions::modifier(&ruleset, view, ActionKind::DefensiveAttack, true), 4, "weapon speed + 1");
        assert_eq!(
            actions::modifier(&ruleset, view, ActionKind::DefensiveAttack, false),
            1,
            "speed 0 + 1 when not attacking"
        );
    });
}

#[test]
fn w_decl_3_full_defense_adds_4_defense_halves_speed_and_repostes() {
    let mut app = duel(&[6, 6, 10, 10, 3]);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::FullDefense, None, None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(&*attacks[0].attacker, "r1");
    assert_eq!(attacks[0].defense, 14, "10 + 4 in full defense");
    assert!(!attacks[0].hit);
    assert_eq!(&*attacks[1].attacker, "b1");
    assert_eq!(attacks[1].kind, AttackKind::Reposte);
    assert!(attacks[1].hit);
    let ruleset = Ruleset::default();
    let allowance =
        unit::movement_allowance(&ruleset, Speed(2), Status::Active, &Conditions::default(), ActionKind::FullDefense);
    assert_eq!(allowance, 1, "full defense moves at most half speed");
}

#[test]
fn w_decl_4_a_defensive_attack_enters_a_threat_range_without_a_reposte() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#;
    let mut app = duel_with(units, &[5, 9, 1, 1]);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), Some("b"));
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(attacks[0].kind, AttackKind::Reposte, "walking into b1's zone provokes its Reposte");
    assert_eq!(&*attacks[0].attacker, "b1");

    let mut app = duel_with(units, &[5, 9, 1]);
    app.update();
    declare(&mut app, "r1", ActionKind::DefensiveAttack, Some("b1"), Some("b"));
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(attacks.len(), 1);
    assert_eq!(&*attacks[0].attacker, "r1");
    assert_eq!(attacks[0].kind, AttackKind::Normal);
}

#[test]
fn w_hit_1_an_attack_hits_when_its_total_reaches_defense() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "guard", side: "blue", zone: "a"),
    "#;
    let mut app = duel_with(units, &[5, 9, 11, 4, 10]);
    with_view(&mut app, "b1", |view, _| {
        let ruleset = Ruleset::default();
        assert_eq!(
            unit::defense_score(&ruleset, view.body.attributes, view.arms.defense, view.round.conditions),
            13,
            "10 + Agility 2 + bonus 1"
        );
    });
    for _ in 0..2 {
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        app.update();
    }
    let attacks = lines::<line::Attack>(&app);
    assert_eq!((attacks[0].total, attacks[0].hit), (13, true), "13 vs 13 hits");
    assert_eq!((attacks[1].total, attacks[1].hit), (12, false), "12 vs 13 misses");
}

#[test]
fn w_dmg_2_and_w_dmg_4_stress_first_then_wounds_recorded_as_injuries() {
    let mut app = duel(&[5, 9, 15, 5]);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 2);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let damage = &lines::<line::Damage>(&app)[0];
    assert_eq!((damage.stress_lost, damage.wounds_lost), (2, 3));
    let wounds = get::<Wounds>(&mut app, "b1");
    assert_eq!(wounds.current, 7);
    assert_eq!(wounds.injuries.len(), 1);
    assert_eq!(wounds.injuries[0].amount, 3);
}

#[test]
fn w_dmg_3_the_leonin_hunter_starts_with_41_stress() {
    let units = r#"
        (id: "r1", creature: "leonin_hunter", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let mut app = duel_with(units, &[5, 9]);
    app.update();
    let started = &lines::<line::CombatStarted>(&app)[0];
    assert_eq!(started.units[0].stats.hd, "5d8");
    assert_eq!(started.units[0].stats.stress_max, 41);
}

#[test]
fn w_dmg_1_armour_reduces_each_hit() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("club6")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a", armour: Some("chain")),
    "#;
    let mut app = duel_with(units, &[5, 9, 19]);
    let armour = get::<Armour>(&mut app, "b1").0;
    assert!(armour > 0);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(lines::<line::Damage>(&app)[0].amount, 6 - armour);
}

#[test]
fn w_crit_1_a_critical_multiplies_damage_and_bypasses_stress() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("club6")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let mut app = duel_with(units, &[5, 9, 20, 100]);
    set::<Wounds>(&mut app, "b1", |wounds| *wounds = Wounds { current: 30, max: 30, injuries: Vec::new() });
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let damage = &lines::<line::Damage>(&app)[0];
    assert!(damage.critical);
    assert_eq!(damage.amount, 18, "6 x3");
    assert_eq!((damage.stress_lost, damage.wounds_lost), (0, 18));
    assert_eq!(get::<Stress>(&mut app, "b1").current, 12, "Stress untouched");
    let injury = &lines::<line::Injury>(&app)[0];
    assert_eq!(injury.chance.total, 100);
    assert_eq!(injury.injury, None, "100 is over 18: no combat injury");
}

#[test]
fn w_crit_2_a_critical_can_break_a_shin() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("club6")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let mut app = duel_with(units, &[5, 9, 20, 5, 2, 3]);
    set::<Wounds>(&mut app, "b1", |wounds| *wounds = Wounds { current: 30, max: 30, injuries: Vec::new() });
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let injury = &lines::<line::Injury>(&app)[0];
    assert_eq!(injury.table, fray::rules::equipment::DamageType::Blunt);
    assert_eq!(injury.injury.as_deref(), Some("Broken Shin"));
    assert_eq!(injury.effects[0].roll.total, 3);
    assert_eq!(get::<Attributes>(&mut app, "b1").score(Attribute::Agility), 7, "1d8 Agility damage");
    assert!(get::<Conditions>(&mut app, "b1").slowed, "moves at half speed");
    assert_eq!(get::<Wounds>(&mut app, "b1").injuries[0].combat_injury.as_deref(), Some("Broken Shin"));
}

#[test]
fn w_move_1_speed_limits_the_zones_moved_in_a_round() {
    let mut app = duel(&[5, 9]);
    app.update();
    assert!(check(&mut app, "r1", ActionKind::Move, None, Some("c")).is_ok(), "two zones with Speed 2");
    assert_eq!(check(&mut app, "r1", ActionKind::Move, None, Some("d")), Err(IllegalAction::TooFar));
}

#[test]
fn w_stress_1_stress_pays_for_mana_one_for_one() {
    let extra = r#"
        spells: { "spark3": (tn: 12, mana: 3, range: 2, effect: Damage(dice: "1d6", damage_type: fire)) },
    "#;
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", spells: Some(["spark3"]), skills: Some((spellcasting: 5))),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let mut app = scripted(&line_level(extra, units), &[5, 9, 10, 2]);
    set::<Mana>(&mut app, "r1", |mana| *mana = Mana { current: 1, max: 1 });
    app.update();
    declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let cast = &lines::<line::Cast>(&app)[0];
    assert_eq!((cast.mana_spent, cast.stress_spent), (1, 2));
    assert!(cast.success);
    assert_eq!(get::<Stress>(&mut app, "r1").current, 10);
    assert_eq!(lines::<line::Declared>(&app)[0].initiative, 7, "spell speed 12 - 10 = +2");
}

#[test]
fn w_wound_1_incapacitated_at_zero_and_acting_costs_a_wound_point() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("tap")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        (id: "b2", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let mut app = duel_with(units, &[5, 9, 9, 15, 1]);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 0);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    declare(&mut app, "b2", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(status(&mut app, "b1"), Status::Incapacitated);
    assert_eq!(check(&mut app, "b1", ActionKind::Move, None, Some("b")), Err(IllegalAction::TooFar), "it only crawls");
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    declare(&mut app, "b1", ActionKind::Attack, Some("r1"), None);
    declare(&mut app, "b2", ActionKind::Hold, None, None);
    app.update();
    let exertion: Vec<_> =
        lines::<line::Damage>(&app).into_iter().filter(|damage| &*damage.source == "exertion").collect();
    assert_eq!(exertion.len(), 1);
    assert_eq!(exertion[0].wounds_lost, 1);
    assert_eq!(status(&mut app, "b1"), Status::Dying);
}

#[test]
fn w_wound_2_the_dying_lose_a_wound_point_each_round_and_cannot_move_and_act() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        (id: "b2", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let mut app = duel_with(units, &[5, 9, 9]);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = -1);
    set::<Status>(&mut app, "b1", |status| *status = Status::Dying);
    app.world_mut().resource_mut::<Ruleset>().wounds.crawl_zones = 1;
    app.update();
    assert_eq!(
        check(&mut app, "b1", ActionKind::Attack, Some("r1"), Some("b")),
        Err(IllegalAction::DyingCannotMoveAndAct)
    );
    assert!(check(&mut app, "b1", ActionKind::Move, None, Some("b")).is_ok());
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    declare(&mut app, "b2", ActionKind::Hold, None, None);
    app.update();
    let dying: Vec<_> = lines::<line::Damage>(&app).into_iter().filter(|damage| &*damage.source == "dying").collect();
    assert_eq!(dying.len(), 1);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, -2);
}

#[test]
fn w_wound_3_death_at_minus_the_strength_score() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        (id: "b2", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let mut app = duel_with(units, &[5, 9, 9]);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = -9);
    set::<Status>(&mut app, "b1", |status| *status = Status::Dying);
    app.update();
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    declare(&mut app, "b2", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(get::<Wounds>(&mut app, "b1").current, -10);
    assert_eq!(status(&mut app, "b1"), Status::Dead, "Strength 10: dead at -10");
    assert!(
        lines::<line::Status>(&app)
            .iter()
            .any(|change| &*change.unit == "b1" && change.status == StatusChange::Became(Status::Dead))
    );
}

#[test]
fn w_wound_3_with_strength_0_the_first_wound_point_lost_is_death() {
    // 0 Wound Points is at or below minus a Strength of 0: dead, not incapacitated.
    let mut app = duel(&[5, 9, 15, 1]);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 0);
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
    set::<Attributes>(&mut app, "b1", |attributes| attributes.0[Attribute::Strength.index()] = 0);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 0);
    assert_eq!(status(&mut app, "b1"), Status::Dead);
}

#[test]
fn w_wound_4_a_heal_check_stabilises_and_stops_the_bleeding() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", skills: Some((heal: 3))),
        (id: "r2", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let mut app = duel_with(units, &[5, 6, 7, 11]);
    set::<Status>(&mut app, "r2", |status| *status = Status::Dying);
    set::<Wounds>(&mut app, "r2", |wounds| {
        wounds.current = -1;
        wounds.injuries.push(Injury {
            damage_type: fray::rules::equipment::DamageType::Slashing,
            amount: 4,
            combat_injury: None,
            round: 0,
        });
    });
    app.update();
    declare(&mut app, "r1", ActionKind::Stabilize, Some("r2"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    declare(&mut app, "r2", ActionKind::Hold, None, None);
    app.update();
    let check = &lines::<line::Stabilise>(&app)[0];
    assert_eq!(check.tn, 14, "10 + the highest injury (4)");
    assert_eq!(check.roll.total, 14);
    assert!(check.success);
    assert!(get::<Conditions>(&mut app, "r2").stabilised);
    assert_eq!(get::<Wounds>(&mut app, "r2").current, -1, "no dying loss once stabilised");
}

#[test]
fn w_mor_1_and_w_mor_2_an_outnumbered_monster_checks_3d6_plus_hd_against_11_plus_opponents() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "r2", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let text = line_level("", units)
        .replace(r#"(name: "blue", controller: Human)"#, r#"(name: "blue", controller: Human, checks_morale: true)"#);
    let mut app = scripted(&text, &[5, 6, 7, 1, 1, 1]);
    app.update();
    for id in ["r1", "b1", "r2"] {
        declare(&mut app, id, ActionKind::Hold, None, None);
    }
    app.update();
    let morale = &lines::<line::Morale>(&app)[0];
    assert_eq!(&*morale.unit, "b1");
    assert_eq!(morale.reason, MoraleReason::Outnumbered);
    assert_eq!(morale.roll.expr.to_string(), "3d6+2", "+ Insight 0 + 2 HD + 0 allies");
    assert_eq!(morale.tn, 13, "11 + 2 opponents");
    assert!(!morale.passed);
    assert_eq!(status(&mut app, "b1"), Status::Fled);
    let ended = &lines::<line::CombatEnded>(&app)[0];
    assert_eq!(ended.winner.as_deref(), Some("red"), "W-END-1: the monsters ran away");
    assert_eq!(ended.reason, "side_defeated");
    assert_eq!(get::<Initiative>(&mut app, "r1"), Initiative::default(), "W-END-1: initiative is wiped");
}

#[test]
fn w_mor_2_an_obvious_defeat_fails_whatever_the_roll() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "r2", creature: "soldier", side: "red", zone: "a"),
        (id: "r3", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "d"),
    "#;
    let text = line_level("", units)
        .replace(r#"(name: "blue", controller: Human)"#, r#"(name: "blue", controller: Human, checks_morale: true)"#);
    let mut app = scripted(&text, &[5, 6, 7, 8, 6, 6, 6]);
    app.update();
    for id in ["r1", "b1", "r2", "r3"] {
        declare(&mut app, id, ActionKind::Hold, None, None);
    }
    app.update();
    let morale = &lines::<line::Morale>(&app)[0];
    assert_eq!(morale.total, 20);
    assert!(morale.automatic, "three to one is obvious");
    assert!(!morale.passed);
}

#[test]
fn w_mor_1_a_big_hit_forces_a_check() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", weapon: Some("axe12")),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let text = line_level("", units)
        .replace(r#"(name: "blue", controller: Human)"#, r#"(name: "blue", controller: Human, checks_morale: true)"#);
    let mut app = scripted(&text, &[5, 9, 15, 6, 6, 6]);
    set::<Stress>(&mut app, "b1", |stress| stress.current = 0);
    set::<Wounds>(&mut app, "b1", |wounds| *wounds = Wounds { current: 20, max: 20, injuries: Vec::new() });
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let morale = &lines::<line::Morale>(&app)[0];
    assert_eq!(morale.reason, MoraleReason::BigHit, "12 of 20 Wound Points in one hit");
    assert_eq!(morale.tn, 12);
    assert!(morale.passed);
    assert_eq!(status(&mut app, "b1"), Status::Active);
}

#[test]
fn w_mor_1_an_intimidated_monster_checks_against_the_intimidation_result() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", skills: Some((intimidation: 5))),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let text = line_level("", units)
        .replace(r#"(name: "blue", controller: Human)"#, r#"(name: "blue", controller: Human, checks_morale: true)"#);
    let mut app = scripted(&text, &[5, 9, 6, 6, 6, 1, 1, 1]);
    app.update();
    declare(&mut app, "r1", ActionKind::Intimidate, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let morale = &lines::<line::Morale>(&app)[0];
    assert_eq!(morale.reason, MoraleReason::Intimidated);
    assert_eq!(morale.tn, 23, "3d6+5 came up 23");
    assert_eq!(status(&mut app, "b1"), Status::Fled);
}

#[test]
fn w_mor_1_intimidation_reaches_only_a_target_still_in_range_when_it_resolves() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a", skills: Some((intimidation: 5))),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    "#;
    let text = line_level("", units)
        .replace(r#"(name: "blue", controller: Human)"#, r#"(name: "blue", controller: Human, checks_morale: true)"#);
    // b1 rolls the lower initiative, so it runs two zones off before the shout.
    let mut app = scripted(&text, &[9, 5, 6, 6, 6, 1, 1, 1]);
    app.update();
    declare(&mut app, "r1", ActionKind::Intimidate, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Move, None, Some("c"));
    app.update();
    assert!(lines::<line::Intimidation>(&app).is_empty(), "b1 was out of range when r1 shouted");
    assert!(lines::<line::Morale>(&app).is_empty(), "so it has nothing to check");
    assert_eq!(status(&mut app, "b1"), Status::Active);
}

#[test]
fn z_zone_3_capacity_and_hazards() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "b"),
    "#;
    let text = line_level("", units)
        .replace(r#"(id: "b", adjacent: ["c"])"#, r#"(id: "b", adjacent: ["c"], capacity: Some(1))"#)
        .replace(
            r#"(id: "a", adjacent: ["b"])"#,
            r#"(id: "a", adjacent: ["b"], hazard: Some((name: "spores", test: "1d20", attribute: Agility, tn: 15, damage: "3", damage_type: poison)))"#,
        );
    let mut app = scripted(&text, &[5, 9, 2]);
    app.update();
    assert_eq!(check(&mut app, "r1", ActionKind::Move, None, Some("b")), Err(IllegalAction::ZoneFull));
    declare(&mut app, "r1", ActionKind::Hold, None, None);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    app.update();
    let hazard = &lines::<line::Hazard>(&app)[0];
    assert_eq!((&*hazard.unit, hazard.passed), ("r1", false));
    let damage = &lines::<line::Damage>(&app)[0];
    assert_eq!((&*damage.source, damage.amount), ("spores", 3));
}

#[test]
fn z_zone_1_threatened_comes_from_the_zone_index() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "r2", creature: "soldier", side: "red", zone: "c"),
        (id: "r3", creature: "soldier", side: "red", zone: "d"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        (id: "b2", creature: "soldier", side: "blue", zone: "b", weapon: Some("pike")),
    "#;
    let mut app = duel_with(units, &[1, 2, 3, 4, 5]);
    app.update();
    let threatened = |app: &mut bevy::prelude::App, id: &str| {
        let entity = unit(app, id);
        app.world().get::<Threatened>(entity).is_some()
    };
    assert!(threatened(&mut app, "r1"), "an enemy stands Close");
    assert!(threatened(&mut app, "r2"), "the pike reaches the next zone");
    assert!(!threatened(&mut app, "r3"));
}

#[test]
fn w_move_1_a_blade_follows_a_target_that_stepped_away_with_the_speed_it_has_left() {
    // r1 rolls 9 and b1 5: b1 walks off to `b` before r1's blow comes.
    let faces = [9, 5, 1, 15, 3, 3, 3, 3];
    let mut app = duel(&faces);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Move, None, Some("b"));
    app.update();
    let moves: Vec<_> = lines::<line::Moved>(&app).into_iter().filter(|moved| &*moved.unit == "r1").collect();
    assert_eq!(moves.len(), 1, "r1 follows b1 one zone");
    assert_eq!((&moves[0].from, &moves[0].to), (&Place::Zone("a".into()), &Place::Zone("b".into())));
    let attacks = lines::<line::Attack>(&app);
    assert_eq!(&*attacks[0].attacker, "b1", "walking into b1's zone provokes its Reposte");
    assert_eq!(attacks[0].kind, AttackKind::Reposte);
    assert_eq!(&*attacks[1].attacker, "r1", "then r1's declared blow falls");
    assert_eq!(attacks[1].kind, AttackKind::Normal);
    assert!(lines::<line::ActionLost>(&app).is_empty());

    // With the option off the target is simply gone.
    let mut app = duel(&faces);
    app.world_mut().resource_mut::<Ruleset>().movement.pursue_target = false;
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    declare(&mut app, "b1", ActionKind::Move, None, Some("b"));
    app.update();
    assert!(lines::<line::Moved>(&app).iter().all(|moved| &*moved.unit != "r1"));
    let lost = lines::<line::ActionLost>(&app);
    assert_eq!((&*lost[0].unit, lost[0].reason.as_str()), ("r1", "target_out_of_reach"));
}

#[test]
fn w_move_1_a_blade_that_has_walked_its_speed_cannot_follow() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "c"),
    "#;
    let mut app = duel_with(units, &[9, 5, 3, 3, 3, 3]);
    app.update();
    declare(&mut app, "r1", ActionKind::DefensiveAttack, Some("b1"), Some("c"));
    declare(&mut app, "b1", ActionKind::Move, None, Some("d"));
    app.update();
    let moves: Vec<_> = lines::<line::Moved>(&app).into_iter().filter(|moved| &*moved.unit == "r1").collect();
    assert_eq!(moves.last().map(|moved| &moved.to), Some(&Place::Zone("c".into())), "both zones of its Speed 2 walked");
    let lost = lines::<line::ActionLost>(&app);
    assert_eq!((&*lost[0].unit, lost[0].reason.as_str()), ("r1", "target_out_of_reach"));
}

#[test]
fn z_hind_1_shake_off_is_offered_wherever_a_hindrance_needs_it() {
    // `stress_and_wounds` lists no `shake_off`, yet glue that needs an action must never stick
    // for good: the action comes with the hindrance, and only with it.
    use fray::rules::equipment::{Hindrance, Lingering, ShakeOffBy};
    let mut app = duel(&[]);
    app.update();
    assert_eq!(check(&mut app, "r1", ActionKind::ShakeOff, None, None), Err(IllegalAction::NothingToShakeOff));
    let glue = Lingering { attribute: Attribute::Strength, tn: 12, by: ShakeOffBy::Action };
    set::<Conditions>(&mut app, "r1", |conditions| conditions.hindrance = Some((Hindrance::Stuck, glue)));
    assert!(check(&mut app, "r1", ActionKind::ShakeOff, None, None).is_ok());
}
