//! Mass-battle levels made to order: the Great Melee's fort with any number of units, and an
//! open square field of any size. `fray bench`, the criterion benches and `levels/siege.ron`
//! come from here, so every measurement plays the same kind of battle.

use std::fmt::Write as _;
use std::path::Path;

use super::catalog::AssetSource;
use super::{BattleTemplate, LoadErrors, load_level_text};

/// The Great Melee's eight zones (`levels/melee.ron`): id, the zones it touches, map position.
const MELEE_ZONES: [(&str, &[&str], (f32, f32)); 8] = [
    ("north_gate", &["watchtower", "barracks", "courtyard"], (0.0, 1.0)),
    ("watchtower", &["east_wall"], (1.0, 1.0)),
    ("east_wall", &["courtyard", "south_gate"], (1.0, 0.0)),
    ("barracks", &["stables", "courtyard"], (-1.0, 1.0)),
    ("courtyard", &["stables", "south_gate"], (0.0, 0.0)),
    ("stables", &["west_wall"], (-1.0, 0.0)),
    ("west_wall", &["south_gate"], (-1.0, -1.0)),
    ("south_gate", &[], (0.0, -1.0)),
];

/// The garrison's fighters, in the order the Great Melee places them in each zone.
const GARRISON: [&str; 4] = ["human_fighter", "human_fighter", "human_rogue", "human_cleric"];
/// The raiders', likewise.
const RAIDERS: [&str; 4] = ["orc_brute", "hobgoblin_warrior", "hobgoblin_warrior", "orc_brute"];

/// Levels with more units than this are mass battles: the tests that play every shipped level
/// for many seeds leave them to `tests/it/mass_battle.rs`, which plays them for a few rounds.
pub const MASS_BATTLE_UNITS: usize = 256;

/// The smallest side of a generated square field: 64 squares, walls included.
pub const GRID_MIN_SIDE: usize = 64;
/// Open squares per unit on a generated field, in halves: a bigger army gets a bigger field, up
/// to the largest map a level may have.
const HALF_SQUARES_PER_UNIT: usize = 3;
/// Open rows between the two armies' front lines when the battle starts.
const NO_MANS_LAND: usize = 4;

/// The Great Melee with `units` fighters (rounded down to an even number, at least two), half
/// garrison and half raiders, dealt round the eight zones in turn as the original places them.
pub fn melee_zones_text(units: usize) -> String {
    let pairs = (units / 2).max(1);
    let mut text = String::from("(\n    name: \"The Great Melee (");
    let _ = write!(text, "{} units)\",\n    seed: Some(64),\n    zones: [\n", pairs * 2);
    for (id, adjacent, (x, y)) in MELEE_ZONES {
        let adjacent: Vec<String> = adjacent.iter().map(|zone| format!("\"{zone}\"")).collect();
        let _ = writeln!(
            text,
            "        (id: \"{id}\", adjacent: [{}], position: Some(({x:.1}, {y:.1}))),",
            adjacent.join(", ")
        );
    }
    text.push_str(
        "    ],\n    sides: [(name: \"garrison\"), (name: \"raiders\", checks_morale: true)],\n    units: [\n",
    );
    for pair in 0..pairs {
        let (zone, _, _) = MELEE_ZONES[pair % MELEE_ZONES.len()];
        let rank = pair / MELEE_ZONES.len();
        let garrison = GARRISON[rank % GARRISON.len()];
        let raider = RAIDERS[rank % RAIDERS.len()];
        let _ = writeln!(
            text,
            "        (id: \"g{pair}\", creature: \"{garrison}\", side: \"garrison\", zone: \"{zone}\"),"
        );
        let _ =
            writeln!(text, "        (id: \"r{pair}\", creature: \"{raider}\", side: \"raiders\", zone: \"{zone}\"),");
    }
    text.push_str("    ],\n)\n");
    text
}

/// The side of the square field that holds `units` (walls included).
pub fn grid_side(units: usize) -> usize {
    let open = units * HALF_SQUARES_PER_UNIT / 2;
    ((open as f64).sqrt().ceil() as usize + 2).max(GRID_MIN_SIDE)
}

/// An open walled field, [`grid_side`] squares a side, under `ruleset`, with two armies of
/// `units / 2` drawn up in ranks facing each other across a strip of open ground.
pub fn grid_field_text(units: usize, ruleset: &str) -> String {
    let side = grid_side(units);
    let open = side - 2;
    let per_side = (units / 2).max(1);
    let ranks = per_side.div_ceil(open);
    let middle = side / 2;
    let mut text = String::new();
    let _ = write!(
        text,
        "(\n    name: \"The Open Field ({} units)\",\n    ruleset: \"{ruleset}\",\n    seed: Some(64),\n    grid: Some((\n        rows: [\n",
        per_side * 2
    );
    for row in 0..side {
        let line: String = (0..side)
            .map(|column| if row == 0 || column == 0 || row == side - 1 || column == side - 1 { '#' } else { '.' })
            .collect();
        let _ = writeln!(text, "            \"{line}\",");
    }
    text.push_str("        ],\n    )),\n    sides: [(name: \"garrison\"), (name: \"raiders\", checks_morale: true)],\n    units: [\n");
    let gap = NO_MANS_LAND / 2;
    for at in 0..per_side {
        let (column, rank) = (1 + at % open, at / open);
        let garrison = GARRISON[at % GARRISON.len()];
        let raider = RAIDERS[at % RAIDERS.len()];
        let north = middle - gap - ranks + rank;
        let south = middle + gap + rank;
        let _ = writeln!(
            text,
            "        (id: \"g{at}\", creature: \"{garrison}\", side: \"garrison\", at: Some(({column}, {north}))),"
        );
        let _ = writeln!(
            text,
            "        (id: \"r{at}\", creature: \"{raider}\", side: \"raiders\", at: Some(({column}, {south}))),"
        );
    }
    text.push_str("    ],\n)\n");
    text
}

/// Loads generated level text as if it were a file in `levels/`.
pub fn load_generated(text: &str, name: &str) -> Result<BattleTemplate, LoadErrors> {
    load_level_text(text, &Path::new("levels").join(name), &AssetSource::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_melee_loads_with_every_unit() {
        let template = load_generated(&melee_zones_text(64), "melee64.ron").expect("the melee loads");
        assert_eq!(template.units.len(), 64);
    }

    #[test]
    fn the_generated_field_loads_and_grows_with_the_army() {
        assert_eq!(grid_side(16), GRID_MIN_SIDE);
        assert_eq!(grid_side(2048), GRID_MIN_SIDE, "2,048 units fit the smallest field");
        assert!(grid_side(4096) > GRID_MIN_SIDE);
        let template =
            load_generated(&grid_field_text(256, "shock_and_cover"), "field256.ron").expect("the field loads");
        assert_eq!(template.units.len(), 256);
    }
}
