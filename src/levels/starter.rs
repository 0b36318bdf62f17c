//! The starter level `fray new-level` writes: two sides of two units from the built-in catalog on
//! a small zone line or walled grid, every field commented, ready for `fray check`.

use std::fmt::Write as _;

use crate::battlefield::GridMap;

/// The party's units: (id, catalog creature), placed on the west edge.
const HEROES: [(&str, &str); 2] = [("fighter", "human_fighter"), ("rogue", "human_rogue")];
/// Their foes: (id, catalog creature), placed on the east edge.
const RAIDERS: [(&str, &str); 2] = [("hobgoblin", "hobgoblin_warrior"), ("orc", "orc_brute")];
/// A grid needs a wall all round and two open squares on each edge for the units.
const MIN_GRID_SIDE: u16 = 4;
/// The most zones a starter line has; a line longer than this is a map to draw by hand.
pub const MAX_STARTER_ZONES: u32 = 64;
/// Squares per zone of distance on a starter grid (the checker's default).
const SQUARES_PER_ZONE: u32 = 6;

/// The battlefield of a starter level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StarterField {
    /// A walled square grid, this wide and high (walls included).
    Grid {
        /// Squares across.
        width: u16,
        /// Squares down.
        height: u16,
    },
    /// This many zones in a line.
    Zones(u32),
}

/// Why a starter level cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StarterError {
    /// The grid is too small or too large.
    #[error(
        "a {width}x{height} grid does not fit a starter level; expected each side at least {MIN_GRID_SIDE} and at most {} squares in all",
        GridMap::MAX_SQUARES
    )]
    GridSize {
        /// Requested width.
        width: u16,
        /// Requested height.
        height: u16,
    },
    /// No zones, or too many.
    #[error("{0} zones do not fit a starter level; expected 1 to {MAX_STARTER_ZONES}")]
    ZoneCount(u32),
}

/// The text of a starter level for `ruleset` on `field`: the same arguments give the same bytes.
pub fn starter_level(ruleset: &str, field: StarterField) -> Result<String, StarterError> {
    validate(field)?;
    let mut out = String::new();
    header(&mut out, ruleset, field);
    battlefield(&mut out, field);
    sides(&mut out);
    units(&mut out, field);
    footer(&mut out);
    Ok(out)
}

fn validate(field: StarterField) -> Result<(), StarterError> {
    match field {
        StarterField::Grid { width, height } => {
            let squares = usize::from(width) * usize::from(height);
            if width < MIN_GRID_SIDE || height < MIN_GRID_SIDE || squares > GridMap::MAX_SQUARES {
                return Err(StarterError::GridSize { width, height });
            }
        }
        StarterField::Zones(count) => {
            if !(1..=MAX_STARTER_ZONES).contains(&count) {
                return Err(StarterError::ZoneCount(count));
            }
        }
    }
    Ok(())
}

fn header(out: &mut String, ruleset: &str, field: StarterField) {
    let shape = match field {
        StarterField::Grid { width, height } => format!("a walled {width}x{height} grid"),
        StarterField::Zones(count) => format!("{count} zone(s) in a line"),
    };
    let _ = write!(
        out,
        r#"// A starter level written by `fray new-level`: {shape}, two units a side.
// Check it with `fray check FILE`, watch the AIs fight it with `fray sim FILE`.
// Every field is explained in docs/modding.md; `fray schema level` prints them all for editors.
(
    // The name the menu and the combat log show.
    name: "New level",
    // A line or two for the menu.
    description: "Two adventurers hold the road against two raiders.",
    // The ruleset: a name from assets/rulesets/ or a path to a `.ron` file beside this level.
    ruleset: "{ruleset}",
    // The seed when the command line gives no `--seed`, e.g. `Some(7)`; same seed, same battle.
    seed: None,
    // Overrides the ruleset's declaration order (`Some(SimultaneousSecret)`, ...); `None` keeps the ruleset's.
    declaration_order: None,
"#
    );
}

fn battlefield(out: &mut String, field: StarterField) {
    match field {
        StarterField::Grid { width, height } => grid(out, width, height),
        StarterField::Zones(count) => zones(out, count),
    }
}

fn grid(out: &mut String, width: u16, height: u16) {
    out.push_str(
        r#"    // The battlefield is either `zones: [...]` or a `grid`, never both.
    // The map, one string per row, top row first; a unit's square is `(x, y)` from the top
    // left, starting at 0. `.` open, `#` wall, `|` or `=` arrow slit or window, `~` difficult
    // ground. Every row is as long as the first.
    grid: Some((
        rows: [
"#,
    );
    let wall = "#".repeat(usize::from(width));
    let open = format!("#{}#", ".".repeat(usize::from(width) - 2));
    for row in 0..height {
        let line = if row == 0 || row == height - 1 { &wall } else { &open };
        let _ = writeln!(out, "            \"{line}\",");
    }
    let _ = write!(
        out,
        r#"        ],
        // Squares per zone of distance: speeds and ranges written in zones are multiplied by it.
        squares_per_zone: {SQUARES_PER_ZONE},
    )),
"#
    );
}

fn zones(out: &mut String, count: u32) {
    out.push_str(
        r#"    // The battlefield is either `zones: [...]` or a `grid`, never both.
    // Each zone: a unique `id`; `name` (defaults to the id); `adjacent` zone ids (listing a
    // neighbour on one side is enough); optional `capacity: Some(n)`, a `hazard: Some((...))`
    // tested at the end of each round, and a board `position: Some((x, y))` in zone widths.
    zones: [
"#,
    );
    for at in 1..=count {
        let adjacent = if at < count { format!("\"zone_{}\"", at + 1) } else { String::new() };
        let _ = writeln!(out, "        (id: \"zone_{at}\", name: Some(\"Zone {at}\"), adjacent: [{adjacent}]),");
    }
    out.push_str("    ],\n");
}

fn sides(out: &mut String) {
    out.push_str(
        r#"    // The sides, in declaration (round-robin) order. `controller`: `Human`, `Ai(greedy)`
    // (or `random`, `easy`, `hard`, `master`) or `Default` (the greedy AI unless the command
    // line seats a person). `checks_morale`: its units check morale (monsters do, player
    // characters do not). `surprised`: the whole side starts surprised. `party`: `Some(true)`
    // marks the player characters' side (the first side when none is marked).
    // `surprise_range` shifts the range at which this side's enemies are surprised.
    // `unscripted`: each unit rolls on the ruleset's reaction table at the start.
    sides: [
        (name: "heroes", controller: Default, checks_morale: false, surprised: false, party: Some(true), surprise_range: 0, unscripted: false),
        (name: "raiders", controller: Ai(greedy), checks_morale: true, surprised: false, party: None, surprise_range: 0, unscripted: false),
    ],
"#,
    );
}

fn units(out: &mut String, field: StarterField) {
    out.push_str(
        r#"    // The units. `id` is unique; `creature` names an entry of assets/creatures.ron; `side`
    // names a side. On zones a unit starts in `zone`; on a grid at `at: Some((x, y))`.
    // Optional: `name: Some("...")` (defaults to the creature's), `weapon`, `offhand`, `armour`,
    // `hd`, `attributes`, `speed`, `skills`, `items`, `spells` and `icon` override the
    // creature's; `feats` add to its feats; `initiated: true` started the fight; `surprised`
    // overrides the side's; `initiative_group` shares one roll; `arrives: Some((round: 2))`
    // makes a reinforcement; `summoned_by` and `thrall` are for summoned units; `load: Some(n)`
    // is pounds carried.
    units: [
"#,
    );
    let teams = [(&HEROES, "heroes", true), (&RAIDERS, "raiders", false)];
    for (team, side, west) in teams {
        for (row, (id, creature)) in team.iter().enumerate() {
            let place = placement(field, west, row);
            let _ = writeln!(out, "        (id: \"{id}\", creature: \"{creature}\", side: \"{side}\", {place}),");
        }
    }
    out.push_str("    ],\n");
}

/// Where the `row`th unit of the west or east team starts.
fn placement(field: StarterField, west: bool, row: usize) -> String {
    match field {
        StarterField::Grid { width, height } => {
            let x = if west { 1 } else { i32::from(width) - 2 };
            // Beside each other around the middle row, inside the walls.
            let top = (i32::from(height) / 2 - 1).max(1);
            let y = top + i32::try_from(row).unwrap_or(0);
            format!("at: Some(({x}, {y}))")
        }
        StarterField::Zones(count) => {
            let zone = if west { 1 } else { count };
            format!("zone: \"zone_{zone}\"")
        }
    }
}

fn footer(out: &mut String) {
    out.push_str(
        r#"    // Extra ways to win; the last side standing always wins. For example
    // `Survive(side: "heroes", rounds: 5)` or `Eliminate(unit: "orc", side: "heroes")`.
    victory: [],
    // Catalog entries defined or overridden for this level only, by name, written as in
    // assets/creatures.ron, weapons.ron, armour.ron, spells.ron and items.ron.
    creatures: {},
    weapons: {},
    armour: {},
    spells: {},
    items: {},
)
"#,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_smaller_than_the_walls_and_four_units_are_refused() {
        let field = StarterField::Grid { width: 3, height: 8 };
        assert_eq!(starter_level("crucible", field), Err(StarterError::GridSize { width: 3, height: 8 }));
    }

    #[test]
    fn zero_zones_are_refused() {
        assert_eq!(starter_level("crucible", StarterField::Zones(0)), Err(StarterError::ZoneCount(0)));
    }

    #[test]
    fn grid_rows_have_the_asked_size() {
        let text = starter_level("crucible", StarterField::Grid { width: 7, height: 5 }).unwrap();
        assert_eq!(text.matches("\"#######\"").count(), 2);
        assert_eq!(text.matches("\"#.....#\"").count(), 3);
    }
}
