//! Scenario tests for the rows of the `crucible`, `zones_and_tests` and `aimed_wounds` "Not
//! implemented yet" tables that were partly built, named by rule ID: class columns of the
//! attacks-per-round table (`C-MULTI-1`), and the parts that followed.

mod common;

use bevy::prelude::*;
use common::*;
use fray::battlefield::{Battlefield, Square};
use fray::rules::ActionChosen;
use fray::rules::components::*;

/// The test catalog's weapons plus creatures with a class and a level.
const CATALOG: &str = r#"
    weapons: {
        "blade": (damage: "1d8", damage_type: slashing, speed: 2),
    },
    creatures: {
        "soldier": (name: "Soldier", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2)),
        "veteran": (name: "Veteran", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2), level: 13),
        "ranger": (name: "Ranger", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2), level: 13, class: Some("ranger")),
    },
"#;

/// A grid level under `ruleset` with sides `red` and `blue`, [`CATALOG`] and `units`.
fn grid_level(ruleset: &str, rows: &[&str], units: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|row| format!("\"{row}\"")).collect();
    format!(
        r#"(
    name: "grid scenario",
    ruleset: "{ruleset}",
    grid: Some((rows: [{}], squares_per_zone: 6)),
    sides: [(name: "red", controller: Human), (name: "blue", controller: Human)],
    {CATALOG}
    units: [{units}],
)"#,
        rows.join(", ")
    )
}

/// Declares `kind` for `id` with a move to square `to`.
fn declare_at(app: &mut App, id: &str, kind: ActionKind, target: Option<&str>, to: (i32, i32)) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to = app.world().resource::<Battlefield>().zone_at(Square { x: to.0, y: to.1 }).expect("open square");
    app.world_mut().write_message(ActionChosen {
        unit: entity,
        action: Action { kind, target, move_to: Some(move_to), bonus: None },
    });
}

fn attacks_by(app: &App, attacker: &str) -> Vec<serde_json::Value> {
    events(app, "attack").into_iter().filter(|attack| attack["attacker"] == attacker).collect()
}

fn hit_points(app: &mut App, id: &str, points: i32) {
    set::<Wounds>(app, id, |wounds| {
        wounds.current = points;
        wounds.max = wounds.max.max(points);
    });
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

    #[test]
    fn c_multi_1_a_class_uses_its_own_column_of_the_table() {
        assert_eq!(first_round_attacks("veteran"), 2, "no class: the fighter's column, 2/1 from level 13");
        assert_eq!(first_round_attacks("ranger"), 1, "a ranger of level 13 is still at 3/2: one attack in round 1");
    }
}
