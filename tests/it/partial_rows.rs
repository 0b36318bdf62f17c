//! Scenario tests for the rows of the `crucible`, `zones_and_tests` and `aimed_wounds` "Not
//! implemented yet" tables that were partly built, named by rule ID: class columns of the
//! attacks-per-round table (`C-MULTI-1`), spells and items that linger (`Z-ONGO-1`, `Z-HIND-1`),
//! encumbrance by race and Strength (`C-MOVE-1`), carrying capacity (`A-MOVE-1`), parrying
//! while falling back (`C-WDRAW-1`), conjured thralls (`A-SUMM-1`), the missile-versus-spell
//! tie-break (`C-INIT-2`), standing up out of turn (`A-BONUS-1`) and the aggressor's choice of
//! where a shove pushes (`Z-STUNT-1`).

use crate::*;
use bevy::prelude::*;
use fray::battlefield::Place;
use fray::rules::ActionChosen;
use fray::rules::components::*;
use fray::rules::equipment::Hindrance;
use fray::rules::log::Affliction;
use fray::rules::log::StatusChange;

/// The test catalog's weapons plus creatures with a class and a level.
const CATALOG: &str = r#"
    weapons: {
        "blade": (damage: "1d8", damage_type: slashing, speed: 2),
        "bow": (damage: "1d6", damage_type: piercing, speed: 3, range: Some(2)),
    },
    creatures: {
        "soldier": (name: "Soldier", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2)),
        "veteran": (name: "Veteran", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2), level: 13),
        "halfling": (name: "Halfling", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, race: Some("halfling")),
        "ranger": (name: "Ranger", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2), level: 13, class: Some("ranger")),
    },
"#;

/// A grid level under `ruleset` with sides `red` and `blue`, [`CATALOG`] and `units`.
fn grid_level(ruleset: &str, rows: &[&str], units: &str) -> String {
    grid_level_text(ruleset, rows, RED_AND_BLUE, CATALOG, units)
}

mod crucible {
    use super::*;

    const RULESET: &str = "crucible";
    const OPEN: [&str; 4] = ["......", "......", "......", "......"];

    /// `attacker` (red, at (1, 1)) attacks b1 (blue, at (2, 1), 100 hit points) in round 1.
    fn first_round_attacks(attacker: &str) -> usize {
        let units = format!(
            r#"(id: "r1", creature: "{attacker}", side: "red", at: Some((1, 1))),
               (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),"#
        );
        let mut app = scripted(&grid_level(RULESET, &OPEN, &units), &[9, 9, 1, 8]);
        hit_points(&mut app, "b1", 100);
        app.update();
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        app.update();
        attacks_by(&app, "r1").len()
    }

    /// The squares a lone `creature` (red, at (0, 0)) with the level entry's `extra` moves.
    fn speed_of(ruleset: &str, creature: &str, extra: &str) -> u32 {
        let units = format!(
            r#"(id: "r1", creature: "{creature}", side: "red", at: Some((0, 0)){extra}),
               (id: "b1", creature: "soldier", side: "blue", at: Some((5, 3))),"#
        );
        let mut app = scripted(&grid_level(ruleset, &OPEN, &units), &[]);
        get::<Speed>(&mut app, "r1").0
    }

    #[test]
    fn c_move_1_a_halfling_moves_by_its_own_column() {
        assert_eq!(speed_of(RULESET, "soldier", ""), 6, "a human carrying nothing listed: 6 squares");
        assert_eq!(speed_of(RULESET, "halfling", ""), 4, "a halfling: 4 squares even with no load given");
        assert_eq!(speed_of(RULESET, "halfling", ", load: Some(50)"), 3, "heavy: 3");
        assert_eq!(speed_of(RULESET, "soldier", ", load: Some(50)"), 4, "a human, heavy: 4");
        assert_eq!(speed_of(RULESET, "halfling", ", load: Some(200)"), 0, "an encumbered halfling cannot move");
    }

    #[test]
    fn c_move_1_strength_moves_the_weight_limits() {
        // Strength 16 is +2 under crucible: every limit 20 lb higher, so 50 lb is still light.
        let strong = ", attributes: Some((strength: 16, agility: 10)), load: Some(50)";
        assert_eq!(speed_of(RULESET, "soldier", strong), 6);
        let weak = ", attributes: Some((strength: 4, agility: 10)), load: Some(30)";
        assert_eq!(speed_of(RULESET, "soldier", weak), 4, "Strength 4 is -2: 30 lb is already heavy");
    }

    #[test]
    fn a_move_1_a_unit_at_its_carrying_capacity_moves_half() {
        // Strength 10 carries 150 lb under aimed_wounds (15 lb a point).
        assert_eq!(speed_of("aimed_wounds", "soldier", ", load: Some(100)"), 6);
        assert_eq!(speed_of("aimed_wounds", "soldier", ", load: Some(150)"), 3, "full capacity: half of 6");
        let set = speed_of("aimed_wounds", "soldier", ", load: Some(150), speed: Some(1)");
        assert_eq!(set, 6, "the level's speed (one zone of 6 squares) wins");
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

    #[test]
    fn c_wdraw_1_a_unit_falling_back_parries_instead_of_attacking() {
        // No surprise; red 1, blue 8; b1's morale 2d6 = 1 + 1 fails; withdrawal d6 = 1: it falls
        // back a square. In round 2 (red 1, blue 8) the greedy AI has it parry, not attack.
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1))),
            (id: "r2", creature: "soldier", side: "red", at: Some((5, 3))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
            (id: "b2", creature: "soldier", side: "blue", at: Some((5, 0))),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, units), &[9, 9, 1, 8, 1, 1, 1, 1, 8]);
        set::<Status>(&mut app, "b2", |status| *status = Status::Dead);
        let b1 = unit(&mut app, "b1");
        app.world_mut().entity_mut(b1).insert(ChecksMorale);
        app.update();
        for id in ["r1", "r2", "b1"] {
            declare(&mut app, id, ActionKind::Hold, None, None);
            app.update();
        }
        finish_round(&mut app);
        assert_eq!(lines::<line::Withdrawal>(&app)[0].response, fray::rules::log::Withdrawal::FallBack);
        assert!(get::<Conditions>(&mut app, "b1").falling_back);
        set::<Controller>(&mut app, "b1", |controller| *controller = Controller::Ai(AiKind::Greedy));
        for id in ["r1", "r2"] {
            declare(&mut app, id, ActionKind::Hold, None, None);
            app.update();
        }
        app.update();
        let declared = lines::<line::Declared>(&app);
        let last = declared.iter().rfind(|declaration| &*declaration.unit == "b1").expect("b1 declared in round 2");
        assert_eq!(last.action, ActionKind::FullDefense, "falling back, it parries: {last:?}");
    }

    /// r1 (bow) and b1 (firebolt, casting time 13) act in the same turn (both sides roll 5)
    /// three squares apart; r1 shoots b1 (15 hits, 1d6 = 3) as b1 casts at r1 (15, 2d6 = 4 + 4).
    fn archer_against_caster(tie_breaks: Vec<fray::rules::ruleset::TieBreak>) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 1)), weapon: Some("bow")),
            (id: "b1", creature: "soldier", side: "blue", at: Some((3, 1)), spells: Some(["firebolt"])),
        "#;
        let mut app = scripted(&grid_level(RULESET, &OPEN, units), &[9, 9, 5, 5, 15, 3, 15, 4, 4]);
        let mut ruleset = app.world_mut().resource_mut::<fray::rules::ruleset::Ruleset>();
        // Round 1's readied missile (C-MISS-1) would put the archer first on its own.
        ruleset.turns.ready_missiles_first = false;
        ruleset.turns.tie_breaks = tie_breaks;
        set::<Mana>(&mut app, "b1", |mana| mana.current = 10);
        hit_points(&mut app, "r1", 30);
        hit_points(&mut app, "b1", 30);
        app.update();
        assert_eq!(state(&app).turns[0].1.len(), 2, "one turn for both");
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        declare(&mut app, "b1", ActionKind::Cast(0), Some("r1"), None);
        app.update();
        app
    }

    #[test]
    fn c_init_2_a_missile_beats_a_spell_slower_than_the_initiative_die() {
        use fray::rules::ruleset::TieBreak;
        let app = archer_against_caster(Vec::new());
        assert_eq!(lines::<line::Cast>(&app).len(), 1, "without the tie-break both go off together");
        assert!(lines::<line::SpellDisrupted>(&app).is_empty());

        let app = archer_against_caster(vec![TieBreak::MissileBeforeSpell]);
        assert_eq!(attacks_by(&app, "r1").len(), 1);
        assert!(lines::<line::Cast>(&app).is_empty(), "the arrow lands first");
        assert_eq!(lines::<line::SpellDisrupted>(&app)[0].damage_taken, 3);
    }

    #[test]
    fn c_multi_1_a_class_uses_its_own_column_of_the_table() {
        assert_eq!(first_round_attacks("veteran"), 2, "no class: the fighter's column, 2/1 from level 13");
        assert_eq!(first_round_attacks("ranger"), 1, "a ranger of level 13 is still at 3/2: one attack in round 1");
    }
}

mod zones_and_tests {
    use super::*;

    /// r1 (party, with the shipped lingering spells and items) and b1 share zone a;
    /// the party begins (side roll 4), both roll 3, then `faces`.
    fn duel(faces: &[u32]) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", zone: "a", spells: Some(["clinging_flame", "snaring_vines"]), items: Some([("tanglefoot_bag", 1), ("alchemist_fire", 1)])),
            (id: "b1", creature: "soldier", side: "blue", zone: "a"),
        "#;
        let mut script = vec![4, 3, 3];
        script.extend_from_slice(faces);
        let mut app = scripted(&line_level(r#"ruleset: "zones_and_tests","#, units), &script);
        hit_points(&mut app, "b1", 20);
        set::<Mana>(&mut app, "r1", |mana| mana.current = 10);
        app
    }

    #[test]
    fn z_ongo_1_a_spell_leaves_ongoing_damage_that_burns_in_the_targets_turn() {
        // The casting test passes (15 against 12) and clinging_flame's 1d4 deals 2. At the start
        // of b1's turn it burns for r1's level (1); at its end b1 fails the test (5).
        let mut app = duel(&[15, 2, 5]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        let afflicted = lines::<line::Afflicted>(&app);
        assert_eq!(afflicted.len(), 1, "the spell lingers");
        assert_eq!((afflicted[0].effect, &*afflicted[0].source), (Affliction::OngoingDamage, "r1"));
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        for _ in 0..3 {
            app.update();
        }
        assert_eq!(get::<Wounds>(&mut app, "b1").current, 17, "2 from the spell, 1 burning");
        assert!(get::<Conditions>(&mut app, "b1").ongoing.is_some(), "the failed test keeps it burning");
    }

    #[test]
    fn z_ongo_1_a_failed_casting_leaves_nothing() {
        let mut app = duel(&[2]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("b1"), None);
        app.update();
        assert!(lines::<line::Afflicted>(&app).is_empty());
        assert!(get::<Conditions>(&mut app, "b1").ongoing.is_none());
    }

    #[test]
    fn z_hind_1_a_thrown_item_leaves_a_hindrance() {
        // The throw at a Close target has disadvantage: both DEX tests pass (15, 15); the bag
        // deals its 1 and leaves b1 stuck.
        let mut app = duel(&[15, 15]);
        app.update();
        declare(&mut app, "r1", ActionKind::Throw(0), Some("b1"), None);
        app.update();
        let afflicted = lines::<line::Afflicted>(&app);
        assert_eq!(afflicted.len(), 1, "the bag hinders: {afflicted:?}");
        assert_eq!(afflicted[0].effect, Affliction::Hindrance(Hindrance::Stuck));
        assert_eq!(get::<Conditions>(&mut app, "b1").hindrance.map(|(hindrance, _)| hindrance), Some(Hindrance::Stuck));
    }

    #[test]
    fn z_hind_1_a_spell_leaves_a_hindrance() {
        let mut app = duel(&[15]);
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(1), Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Afflicted>(&app)[0].effect, Affliction::Hindrance(Hindrance::Stuck));
        assert_eq!(get::<Conditions>(&mut app, "b1").hindrance.map(|(hindrance, _)| hindrance), Some(Hindrance::Stuck));
    }

    /// Zone a opens onto b, c and d, and d's spores (1d20 + Agility against 15, 30 poison) test
    /// whoever stands there; r1 (red, `red` controls it) and b1 share zone a. The party begins
    /// (side roll 4), both roll 3, then `faces`.
    fn fork(red: &str, faces: &[u32]) -> App {
        let level = format!(
            r#"(
    name: "fork",
    ruleset: "zones_and_tests",
    zones: [
        (id: "a", adjacent: ["b", "c", "d"]), (id: "b"), (id: "c"),
        (id: "d", hazard: Some((name: "spores", test: "1d20", attribute: Agility, tn: 15, damage: "30", damage_type: poison))),
    ],
    sides: [(name: "red", controller: {red}), (name: "blue", controller: Human)],
    {CATALOG}
    units: [
        (id: "r1", creature: "soldier", side: "red", zone: "a"),
        (id: "b1", creature: "soldier", side: "blue", zone: "a"),
    ],
)"#
        );
        let mut script = vec![4, 3, 3];
        script.extend_from_slice(faces);
        let mut app = scripted(&level, &script);
        hit_points(&mut app, "b1", 40);
        app
    }

    /// r1's shove at b1, pushing into zone `push_to`.
    fn shove_into(app: &mut App, push_to: &str) {
        let (r1, b1) = (unit(app, "r1"), unit(app, "b1"));
        let zone = app.world().resource::<fray::battlefield::Battlefield>().find(push_to).expect("zone");
        let action = Action {
            kind: ActionKind::Shove,
            target: Some(b1),
            move_to: None,
            bonus: None,
            push_to: Some(zone),
            move_after: None,
            held: None,
        };
        app.world_mut().write_message(ActionChosen { unit: r1, action });
    }

    #[test]
    fn z_stunt_1_the_aggressor_chooses_the_zone_it_pushes_into() {
        // The opposed test is won (15 against 3). Left to the rules the push would go to b, the
        // first zone in level order; r1 picks c.
        let mut app = fork("Human", &[15, 3]);
        app.update();
        // Zone a is not farther from r1 than where b1 stands: refused, nothing rolled.
        shove_into(&mut app, "a");
        app.update();
        assert!(lines::<line::Maneuver>(&app).is_empty(), "a push must go farther from the aggressor");
        shove_into(&mut app, "c");
        app.update();
        assert!(lines::<line::Maneuver>(&app)[0].won);
        assert_eq!(lines::<line::Moved>(&app)[0].to, Place::Zone("c".into()), "pushed where the aggressor chose");
    }

    #[test]
    fn z_stunt_1_the_greedy_ai_pushes_a_foe_into_a_hazard() {
        let mut app = fork("Ai(greedy)", &[15, 3, 15, 3, 15, 3]);
        app.update();
        app.update();
        let maneuver = &lines::<line::Maneuver>(&app)[0];
        assert_eq!(maneuver.maneuver, "shove", "a push into the spores beats a blow: {maneuver:?}");
        assert_eq!(lines::<line::Moved>(&app)[0].to, Place::Zone("d".into()), "into the hazard, not the first zone");
    }

    #[test]
    fn z_ongo_1_a_thrown_item_leaves_ongoing_damage() {
        // The throw at a Close target has disadvantage: both DEX tests pass (15, 15); the
        // flask's 1d4 deals 3.
        let mut app = duel(&[15, 15, 3]);
        app.update();
        declare(&mut app, "r1", ActionKind::Throw(1), Some("b1"), None);
        app.update();
        assert_eq!(lines::<line::Afflicted>(&app)[0].effect, Affliction::OngoingDamage);
        assert!(get::<Conditions>(&mut app, "b1").ongoing.is_some());
    }
}

mod aimed_wounds {
    use super::*;

    /// r1 (Agility 14, Mana `mana`, the shipped `call_wolf`) conjures a wolf in round 1 (15
    /// against TN 11), then fells b1 (left at 1 Wound Point) in round 2, ending the battle.
    fn conjure_then_win(mana: i32) -> App {
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14)), spells: Some(["call_wolf"])),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let rows = ["......", "......", "......"];
        let mut app = scripted(&grid_level("aimed_wounds", &rows, units), &[15]);
        set::<Mana>(&mut app, "r1", |pool| (pool.max, pool.current) = (mana, mana));
        app.update();
        declare(&mut app, "r1", ActionKind::Cast(0), Some("r1"), None);
        app.update();
        set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
        app.world_mut().resource_mut::<fray::rules::dice::CombatRng>().push_script([15, 3]);
        declare(&mut app, "b1", ActionKind::Hold, None, None);
        for _ in 0..3 {
            app.update();
            if state(&app).round > 1 {
                break;
            }
        }
        declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
        for _ in 0..4 {
            app.update();
        }
        assert!(state(&app).is_over());
        app
    }

    fn vanished(app: &App) -> Vec<String> {
        lines::<line::Status>(app)
            .iter()
            .filter(|change| change.status == StatusChange::Vanished)
            .map(|change| change.unit.to_string())
            .collect()
    }

    #[test]
    fn a_summ_1_a_conjured_thrall_stays_when_its_caster_pays() {
        let mut app = conjure_then_win(20);
        assert_eq!(&*lines::<line::Arrived>(&app)[0].unit, "wolf-1");
        assert!(vanished(&app).is_empty(), "the wolf is kept as a thrall");
        // The victors' Mana is restored (20), then the level-1 wolf's cost (6) is paid.
        assert_eq!(get::<Mana>(&mut app, "r1").current, 14);
    }

    #[test]
    fn a_summ_1_a_conjured_thrall_its_caster_cannot_pay_for_vanishes() {
        let app = conjure_then_win(5);
        assert_eq!(vanished(&app), ["wolf-1"]);
    }

    #[test]
    fn a_bonus_1_a_prone_unit_stands_up_out_of_turn_paying_with_its_next_bonus_action() {
        // r1 (Agility 16) goes first and holds; b1 lies prone. Right after r1's turn b1 gets up,
        // so r2 (Agility 14) strikes a standing b1, not a prone one (Defense 5).
        let units = r#"
            (id: "r1", creature: "soldier", side: "red", at: Some((0, 0)), attributes: Some((agility: 16))),
            (id: "r2", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14))),
            (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
        "#;
        let rows = ["......", "......", "......"];
        let mut app = scripted(&grid_level("aimed_wounds", &rows, units), &[15, 3, 15, 3]);
        hit_points(&mut app, "b1", 30);
        set::<Conditions>(&mut app, "b1", |conditions| conditions.prone = true);
        app.update();
        declare(&mut app, "r1", ActionKind::Hold, None, None);
        app.update();
        assert!(!get::<Conditions>(&mut app, "b1").prone, "up as r1's turn ends");
        declare(&mut app, "r2", ActionKind::Attack, Some("b1"), None);
        app.update();
        let attack = &attacks_by(&app, "r2")[0];
        assert_ne!(attack.defense, 5, "b1 is standing: {attack:?}");
        let log = app.world().resource::<CombatLog>().entries();
        let standing = log
            .iter()
            .position(|entry| {
                line::Status::of(&entry.event)
                    .is_some_and(|change| change.status == StatusChange::Standing && &*change.unit == "b1")
            })
            .expect("b1 stands up");
        let r2_declares = log
            .iter()
            .position(|entry| line::Declared::of(&entry.event).is_some_and(|declared| &*declared.unit == "r2"))
            .expect("r2 declares");
        assert!(standing < r2_declares, "it stands before r2's turn");
        // One of b1's next turn's two Bonus Actions paid for getting up: owed until that turn
        // begins, spent from then on.
        let conditions = get::<Conditions>(&mut app, "b1");
        assert_eq!(conditions.bonus_actions_owed + conditions.bonus_actions_spent, 1);
    }
}
