//! Scenario tests for the attack rows of `shock_and_cover` (`S-ATK-2`, `S-DUAL-1`): a level on
//! a small grid with its own catalog, scripted dice, declarations sent as a controller would.

use crate::*;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, Square, ZoneIndex};
use fray::rules::CombatState;
use fray::rules::actions::{self, ActionContext, ViewCache};
use fray::rules::components::*;
use fray::rules::log::AttackKind;
use fray::rules::log::StatusChange;
use fray::rules::ruleset::Ruleset;
use fray::rules::unit::UnitReadOnly;
use fray::rules::{ActionChosen, CombatPhase};

/// Weapons and creatures of these scenarios: a bow and a crossbow need both hands, a sling one.
const CATALOG: &str = r#"
    weapons: {
        "blade": (damage: "1d8", damage_type: slashing, speed: 2),
        "knife": (damage: "1d4", damage_type: piercing, speed: 1, attributes: [Strength, Dexterity]),
        "bow": (damage: "1d6", damage_type: piercing, speed: 3, range: Some(2), two_handed: true),
        "sling": (damage: "1d4", damage_type: blunt, speed: 2, range: Some(1)),
        "sap": (damage: "1d4", damage_type: blunt, speed: 1, non_lethal: true),
    },
    creatures: {
        "soldier": (name: "Soldier", hd: "2d8", weapon: "blade", speed: 2, skills: (attack: 2)),
        "archer": (name: "Archer", hd: "2d8", weapon: "bow", speed: 2, skills: (attack: 2)),
        "thug": (name: "Thug", hd: "2d8", weapon: "sap", speed: 2, skills: (attack: 2)),
        "slinger": (name: "Slinger", hd: "2d8", weapon: "sling", speed: 2, skills: (attack: 2)),
        "duelist": (name: "Duelist", hd: "2d8", attributes: (strength: 16, dexterity: 13), weapon: "blade",
                    speed: 2, skills: (attack: 1, stab: 2, shoot: 1, brawl: 3)),
        "novice": (name: "Novice", hd: "2d8", attributes: (strength: 16), weapon: "blade", speed: 2,
                   skills: (attack: 3)),
        "knight": (name: "Knight", hd: "2d8", defense: 8, weapon: "blade", speed: 2, skills: (attack: 2)),
        "ogre": (name: "Ogre", hd: "2d8", weapon: "blade", speed: 2, size: Large),
        "giant": (name: "Giant", hd: "2d8", weapon: "blade", speed: 2, size: Huge),
        "brute": (name: "Brute", hd: "3d8", attributes: (strength: 16), weapon: "blade", speed: 2,
                  skills: (attack: 7, stab: 3, npc: Some(1))),
    },
"#;

/// An open field of 12 by 3 squares.
const OPEN: [&str; 3] = ["............", "............", "............"];

/// A `shock_and_cover` grid level with sides `red` (the party) and `blue`, and `units`.
fn level(units: &str) -> String {
    grid_level_text("shock_and_cover", &OPEN, RED_AND_BLUE, CATALOG, units)
}

/// The total of `attacker`'s first attack on b1, adjacent to it at (2, 1), from (1, 1), with
/// `weapon` in hand (the creature's own when `None`) and a d20 of 10.
fn first_attack_total(creature: &str, weapon: Option<&str>, unarmed: bool) -> i32 {
    let fields = weapon.map_or(String::new(), |weapon| format!(", weapon: Some(\"{weapon}\")"));
    first_blow(creature, &fields, unarmed).0
}

/// `creature`'s first attack on b1 (see [`first_attack_total`]), its level fields `fields`: the
/// attack's total and the hit points b1 has left of 40. The dice: 10 to hit, 1 for damage.
fn first_blow(creature: &str, fields: &str, unarmed: bool) -> (i32, i32) {
    let units = format!(
        r#"
        (id: "r1", creature: "{creature}", side: "red", at: Some((1, 1)){fields}),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#
    );
    let mut app = scripted(&level(&units), &[8, 1, 10, 1]);
    hit_points(&mut app, "r1", 40);
    hit_points(&mut app, "b1", 40);
    if unarmed {
        set::<Conditions>(&mut app, "r1", |conditions| conditions.disarmed = true);
    }
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    let total = attacks_by(&app, "r1")[0].total;
    (total, get::<Wounds>(&mut app, "b1").current)
}

/// The kinds and targets of every legal action of `id` now; `staying` keeps only those without
/// a move first.
fn legal_kinds(app: &mut App, id: &str, staying: bool) -> Vec<(ActionKind, Option<Entity>)> {
    let actor = unit(app, id);
    let listed = app.world_mut().run_system_once(
        move |units: Query<UnitReadOnly>,
              ruleset: Res<Ruleset>,
              battlefield: Res<Battlefield>,
              index: Res<ZoneIndex>,
              state: Res<CombatState>| {
            let cache = ViewCache::new(&units);
            let ctx = ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
            let view = cache.get(actor).expect("the actor is a unit");
            actions::legal_actions(ctx, view, &cache)
        },
    );
    let listed = listed.expect("the listing runs").into_iter();
    listed.filter(|action| !staying || action.move_to.is_none()).map(|action| (action.kind, action.target)).collect()
}

/// Sends a declaration whose destination is a grid square.
fn declare_at(app: &mut App, id: &str, kind: ActionKind, target: Option<&str>, to: (i32, i32)) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to = app.world().resource::<Battlefield>().zone_at(Square { x: to.0, y: to.1 }).expect("open square");
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action::new(kind, target, Some(move_to)) });
}

#[test]
fn s_atk_2_a_bow_cannot_be_fired_at_an_adjacent_foe() {
    let units = r#"
        (id: "r1", creature: "archer", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&level(units), &[8, 1, 15]);
    app.update();
    let b1 = unit(&mut app, "b1");
    assert!(
        !legal_kinds(&mut app, "r1", true).contains(&(ActionKind::Attack, Some(b1))),
        "no shot at a foe beside the archer is offered"
    );
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert!(attacks_by(&app, "r1").is_empty(), "the shot is refused");
    assert_eq!(state(&app).phase, CombatPhase::Declare, "the refused declaration leaves r1 to choose again");
}

#[test]
fn s_atk_2_a_bow_cannot_be_fired_at_anyone_while_a_foe_is_in_melee_reach() {
    let units = r#"
        (id: "r1", creature: "archer", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((6, 1))),
        (id: "b2", creature: "soldier", side: "blue", at: Some((0, 1))),
    "#;
    // b2's attack of opportunity rolls 2 and misses; the shot rolls 15 and deals 3.
    let mut app = scripted(&level(units), &[8, 1, 2, 15, 3]);
    app.update();
    let b1 = unit(&mut app, "b1");
    assert!(!legal_kinds(&mut app, "r1", true).contains(&(ActionKind::Attack, Some(b1))), "b2 presses the archer");
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert!(attacks_by(&app, "r1").is_empty(), "the shot at the distant b1 is refused too");

    // Stepping out of b2's reach first (and taking its attack of opportunity) frees the bow.
    let legal = legal_kinds(&mut app, "r1", false);
    assert!(legal.contains(&(ActionKind::Attack, Some(b1))), "a shot after a move away is offered");
    declare_at(&mut app, "r1", ActionKind::Attack, Some("b1"), (3, 1));
    app.update();
    let shots = attacks_by(&app, "r1");
    assert_eq!(shots.len(), 1, "the shot after the move is taken");
    assert_eq!(shots[0].total, 17, "15 + attack 2, no melee penalty once clear");
}

#[test]
fn s_atk_2_a_sling_is_fired_in_melee_at_minus_4() {
    let units = r#"
        (id: "r1", creature: "slinger", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&level(units), &[8, 1, 10]);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(attacks_by(&app, "r1")[0].total, 8, "10 + attack 2 - 4: a one-handed sling may shoot");
}

#[test]
fn s_atk_1_a_character_adds_the_weapons_attribute_and_its_combat_skill() {
    // Attack bonus 1, Strength 16 (+2), Stab 2.
    assert_eq!(first_attack_total("duelist", None, false), 15, "10 + 1 + STR 2 + Stab 2");
    // A knife lets it choose STR or DEX: it takes the better, STR.
    assert_eq!(first_attack_total("duelist", Some("knife"), false), 15, "10 + 1 + STR 2 + Stab 2");
    // A sling shot in melee: DEX 13 (+1) and Shoot 1, and the -4.
    assert_eq!(first_attack_total("duelist", Some("sling"), false), 9, "10 + 1 + DEX 1 + Shoot 1 - 4");
    // Bare hands: STR and Brawl 3.
    assert_eq!(first_attack_total("duelist", None, true), 16, "10 + 1 + STR 2 + Brawl 3");
}

#[test]
fn s_atk_1_an_npc_attacks_with_its_hit_dice_and_training_alone() {
    // 3 Hit Dice + training 1; its attack skill, Strength and Stab do not count.
    assert_eq!(first_attack_total("brute", None, false), 14, "10 + 3 HD + 1");
}

#[test]
fn s_dual_1_only_a_unit_with_stab_1_fights_with_two_weapons() {
    let offhand = r#", offhand: Some("knife")"#;
    // Stab 2: -1 to hit, and the hit (1 + STR 2) deals 2 more.
    assert_eq!(first_blow("duelist", offhand, false), (14, 40 - 5), "10 + 1 + 2 + 2 - 1");
    // Stab 0: the knife in the off hand changes nothing.
    assert_eq!(first_blow("novice", offhand, false), (15, 40 - 3), "10 + 3 + STR 2");
    // An NPC's Hit Dice and training stand in for the skill: 3 + 1 - 1.
    assert_eq!(first_blow("brute", offhand, false), (13, 40 - 5), "10 + 3 HD + 1 - 1");
}

/// An archer at (0, 1) shoots an execution at a surprised knight (AC 18) `at` squares away, with
/// the d20 coming up `face` and the knight's save 5; returns the attack line and the knight's
/// status after.
fn ranged_execution(at: i32, face: u32) -> (line::Attack, Status) {
    let units = format!(
        r#"
        (id: "r1", creature: "archer", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "knight", side: "blue", at: Some(({at}, 1)), surprised: Some(true)),
    "#
    );
    let mut app = scripted(&level(&units), &[8, 1, face, 5]);
    app.update();
    declare(&mut app, "r1", ActionKind::Execute, Some("b1"), None);
    app.update();
    let attack = attacks_by(&app, "r1").first().cloned().expect("the execution is shot");
    (attack, get::<Status>(&mut app, "b1"))
}

#[test]
fn s_exec_1_a_ranged_execution_rolls_against_10_with_range_bonuses() {
    // Within 10 ft (2 squares): 4 + attack 2 + 4 reaches 10, the knight's AC 18 ignored; the
    // save (5 - 2) fails and it drops.
    let (attack, status) = ranged_execution(2, 4);
    assert_eq!((attack.kind, attack.total, attack.defense), (AttackKind::Execution, 10, 10));
    assert!(attack.hit);
    assert_eq!(status, Status::Dying);
    // Within the bow's normal range (6 of its 12 squares): +2.
    let (attack, status) = ranged_execution(5, 6);
    assert_eq!((attack.total, attack.hit), (10, true));
    assert_eq!(status, Status::Dying);
    // Further: no bonus, 7 + 2 misses and nothing more happens.
    let (attack, status) = ranged_execution(8, 7);
    assert_eq!((attack.total, attack.hit), (9, false));
    assert_eq!(status, Status::Active);
}

/// A soldier shoves a `creature` beside it: the attack roll 15 hits, then 2d6 of 4 and 4
/// against the target's 1 and 1; returns the soldier's check total.
fn shove_check(creature: &str) -> i32 {
    let units = format!(
        r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "{creature}", side: "blue", at: Some((2, 1))),
    "#
    );
    let mut app = scripted(&level(&units), &[8, 1, 15, 4, 4, 1, 1]);
    hit_points(&mut app, "b1", 40);
    app.update();
    declare(&mut app, "r1", ActionKind::Shove, Some("b1"), None);
    app.update();
    let maneuver = lines::<line::Maneuver>(&app).first().cloned().expect("the shove lands and is contested");
    maneuver.roll.total
}

#[test]
fn s_man_1_shoving_a_larger_target_is_at_minus_2_and_a_much_larger_one_at_minus_4() {
    // STR/Brawl or STR/Exert: the soldier has neither (and its attack skill 2 is not added).
    assert_eq!(shove_check("soldier"), 8, "8 + Strength 0 + Brawl/Exert 0 against its equal");
    assert_eq!(shove_check("ogre"), 6, "one size larger: -2");
    assert_eq!(shove_check("giant"), 4, "two sizes larger: -4");
}

#[test]
fn s_exec_1_a_non_lethal_weapon_knocks_the_victim_unconscious() {
    // The thug's sap lands on the unsuspecting knight beside it; the save (5 - 2 = 3) fails.
    let units = r#"
        (id: "r1", creature: "thug", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "knight", side: "blue", at: Some((1, 1)), surprised: Some(true)),
    "#;
    let mut app = scripted(&level(units), &[8, 1, 5]);
    app.update();
    let before = get::<Wounds>(&mut app, "b1").current;
    declare(&mut app, "r1", ActionKind::Execute, Some("b1"), None);
    app.update();
    assert!(!lines::<line::Execution>(&app)[0].saved);
    assert_eq!(get::<Status>(&mut app, "b1"), Status::Unconscious, "knocked out, not mortally injured");
    assert_eq!(get::<Wounds>(&mut app, "b1").current, before, "a knock-out takes no hit points");
    let knocked_out = lines::<line::Status>(&app)
        .iter()
        .any(|status| &*status.unit == "b1" && status.status == StatusChange::Became(Status::Unconscious));
    assert!(knocked_out, "the log says so");
}

// --- Issue 37: where the engine departed from the chapter's explicit words ---

/// r1 (a soldier) at (1, 1) beside b1 (`creature`, with its level `fields`) at (2, 1), who holds
/// r2 at (3, 1) in a grapple; red acts first with `faces` after the side rolls.
fn beside_a_grappler(creature: &str, fields: &str, faces: &[u32]) -> App {
    let units = format!(
        r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "{creature}", side: "blue", at: Some((2, 1)){fields}),
        (id: "r2", creature: "soldier", side: "red", at: Some((3, 1))),
    "#
    );
    let mut script = vec![8, 1];
    script.extend_from_slice(faces);
    let mut app = scripted(&level(&units), &script);
    for id in ["r1", "b1", "r2"] {
        hit_points(&mut app, id, 40);
    }
    hold(&mut app, "b1", "r2");
    app
}

/// `grappler` holds `held` in a grapple, both with bare hands only, as a won grapple leaves them.
fn hold(app: &mut App, grappler: &str, held: &str) {
    let (grappler_entity, held_entity) = (unit(app, grappler), unit(app, held));
    set::<Conditions>(app, grappler, |conditions| {
        conditions.grappling = Some(held_entity);
        conditions.bare_hands_in_holds = true;
    });
    set::<Conditions>(app, held, |conditions| {
        conditions.grappled_by.insert(grappler_entity);
        conditions.bare_hands_in_holds = true;
    });
}

#[test]
fn s_aoo_1_a_crossbowman_in_a_hold_threatens_no_one() {
    // "Any adjacent foes armed with a melee weapon": the archer carries only its bow, so the
    // fists a hold leaves it do not make it armed. r1 walks away from it unharmed.
    let mut app = beside_a_grappler("archer", "", &[15, 2]);
    app.update();
    declare_at(&mut app, "r1", ActionKind::Move, None, (0, 1));
    app.update();
    let struck = attacks_by(&app, "b1");
    assert!(struck.is_empty(), "the archer strikes no attack of opportunity: {struck:?}");

    // With a knife in its off hand it is armed, and its fists strike as r1 leaves.
    let mut app = beside_a_grappler("archer", r#", offhand: Some("knife")"#, &[15, 2]);
    app.update();
    declare_at(&mut app, "r1", ActionKind::Move, None, (0, 1));
    app.update();
    let attacks = attacks_by(&app, "b1");
    assert_eq!(attacks.len(), 1, "an archer with a knife is armed with a melee weapon");
    assert_eq!(attacks[0].kind, AttackKind::Opportunity);
}

#[test]
fn s_aoo_1_a_foe_strikes_every_unit_that_leaves_it_in_a_round() {
    // b1 stands between r1 and r2; both walk away in red's turn. Each move provokes: the
    // chapter sets no limit of one attack of opportunity a round.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
        (id: "r2", creature: "soldier", side: "red", at: Some((3, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    // Both attacks of opportunity roll 2 and miss.
    let mut app = scripted(&level(units), &[8, 1, 2, 2]);
    app.update();
    declare_at(&mut app, "r1", ActionKind::Move, None, (0, 1));
    app.update();
    declare_at(&mut app, "r2", ActionKind::Move, None, (5, 1));
    app.update();
    let kinds: Vec<AttackKind> = attacks_by(&app, "b1").iter().map(|attack| attack.kind).collect();
    assert_eq!(kinds, [AttackKind::Opportunity; 2], "one attack of opportunity for each unit that leaves");
}

#[test]
fn s_dual_1_a_dual_wielder_in_a_hold_fights_with_its_fists_alone() {
    // The duelist (attack 1, STR +2, Brawl 3, Stab 2) holds b1: it fights with its fists, not
    // with the blade and knife it carries, so neither the -1 nor the +2 applies. The dice: 10 to
    // hit, 1 on the fists' 1d3.
    for weapons in [r#", offhand: Some("knife")"#, r#", weapon: Some("bow"), offhand: Some("knife")"#] {
        let units = format!(
            r#"
            (id: "r1", creature: "duelist", side: "red", at: Some((1, 1)){weapons}),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#
        );
        let mut app = scripted(&level(&units), &[8, 1, 10, 1]);
        hit_points(&mut app, "r1", 40);
        hit_points(&mut app, "b1", 40);
        hold(&mut app, "r1", "b1");
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r1")[0];
        assert_eq!(
            expr(attack.damage_roll.as_ref()).as_deref(),
            Some("1d3+5"),
            "{weapons}: the fists, STR 2 + Brawl 3"
        );
        assert_eq!(attack.total, 16, "{weapons}: 10 + 1 + STR 2 + Brawl 3, no -1 for two weapons");
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 40 - 6, "{weapons}: 1 + 5, no +2 for two weapons");
    }
}

use fray::rules::equipment::Shock;

/// The novice (attack 3, STR +2) at (1, 1) strikes b1 at (2, 1) with a blade of `shock`; blue
/// acts first, declaring `blue`. The dice: `faces` after the side rolls. Returns the app after
/// the blow, b1 with 40 hit points before it.
fn blow_with_shock(shock: Shock, blue: ActionKind, faces: &[u32], shield: bool) -> App {
    let units = r#"
        (id: "r1", creature: "novice", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut script = vec![1, 8];
    script.extend_from_slice(faces);
    let mut app = scripted(&level(units), &script);
    hit_points(&mut app, "r1", 40);
    hit_points(&mut app, "b1", 40);
    set::<Loadout>(&mut app, "r1", |loadout| loadout.weapon.shock = Some(shock));
    set::<Loadout>(&mut app, "b1", |loadout| loadout.shield = shield);
    app.update();
    declare(&mut app, "b1", blue, None, None);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    app
}

#[test]
fn s_shock_1_a_hit_has_no_shock_floor_against_a_target_immune_to_shock() {
    // A blade with Shock 3/- and STR +2 hits b1 in total defense (AC 12): 10 + 3 + 2 = 15, and
    // 1d8 = 2, + 2 = 4. A miss would have inflicted no Shock on it, so the hit deals 4, not 5.
    let cleaver = Shock { damage: 3, max_defense: None };
    let mut app = blow_with_shock(cleaver, ActionKind::FullDefense, &[10, 2], false);
    assert!(attacks_by(&app, "r1")[0].hit);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 40 - 4, "no floor of Shock 3 + 2 in total defense");

    // The same for a shield that has not yet turned a Shock this round: a miss would have
    // inflicted none, so the hit has no floor, and the shield is still unused after it.
    let mut app = blow_with_shock(cleaver, ActionKind::Hold, &[10, 2], true);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 40 - 4, "no floor against a fresh shield");
    assert!(!get::<Conditions>(&mut app, "b1").shield_used, "a hit is not Shock: the shield still waits");

    // Without either, the floor holds: 4 is raised to the Shock's 5.
    let mut app = blow_with_shock(cleaver, ActionKind::Hold, &[10, 2], false);
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 40 - 5, "a hit never deals less than its Shock");
}

#[test]
fn s_atk_2_a_reach_weapon_two_squares_from_a_prone_foe_gets_no_bonus() {
    // "Attacking an adjacent prone foe +2": a spear thrust from two squares away is not at an
    // adjacent foe. 7 + attack 2 = 9 misses the prone soldier's AC 10 (a 3 for damage, were it to hit).
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("spear")),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = scripted(&level(units), &[8, 1, 7, 3]);
    set::<Conditions>(&mut app, "b1", |conditions| conditions.prone = true);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    let attack = &attacks_by(&app, "r1")[0];
    assert_eq!(
        (attack.total, attack.defense),
        (7, 8),
        "the lowered AC 8 stands for the adjacent +2, so the thrust from afar takes -2: {attack:?}"
    );
    assert!(!attack.hit, "9 against AC 10, as the chapter has it");
}

#[test]
fn s_atk_1_a_magic_weapon_s_bonus_adds_to_damage_and_shock() {
    // A +1 blade with Shock 2/AC 13 in the novice's hand (attack 3, STR +2).
    let magic = |app: &mut App| {
        set::<Loadout>(app, "r1", |loadout| {
            loadout.weapon.attack_bonus = 1;
            loadout.weapon.shock = Some(Shock { damage: 2, max_defense: Some(13) });
        });
    };
    let units = r#"
        (id: "r1", creature: "novice", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    // A hit: 10 + 3 + 2 + 1; 1d8 = 3, + STR 2 + 1.
    let mut app = scripted(&level(units), &[8, 1, 10, 3]);
    hit_points(&mut app, "b1", 40);
    magic(&mut app);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    let attack = &attacks_by(&app, "r1")[0];
    assert_eq!(attack.total, 16);
    assert_eq!(expr(attack.damage_roll.as_ref()).as_deref(), Some("1d8+3"), "the weapon's +1 adds to damage");
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 40 - 6);

    // A miss against AC 10: Shock 2, + STR 2, + the weapon's 1.
    let mut app = scripted(&level(units), &[8, 1, 1]);
    hit_points(&mut app, "b1", 40);
    magic(&mut app);
    app.update();
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    app.update();
    assert_eq!(lines::<line::Shock>(&app)[0].amount, 5, "the weapon's +1 adds to Shock");
    assert_eq!(get::<Wounds>(&mut app, "b1").current, 40 - 5);
}
