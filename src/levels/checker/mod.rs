//! The level checker: checks a parsed level part by part (catalog, battlefield, sides, units,
//! summons, victory) against the catalog and the ruleset, collecting every problem at its
//! `file:line:column`, and builds the battle template when there is none.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::catalog::{Catalog, Origin};
use super::error::{LoadError, LoadErrors, LoadWarning, SourceMap, not_found};
use super::icons::unknown_icon;
use super::ron_file::read_text;
use super::schema::{ControllerFile, CreatureFile, GridFile, LevelFile, SideFile, UnitFile, VictoryFile, party_sides};
use super::template::{BattleTemplate, SideTemplate, UnitTemplate, VictoryTemplate};
use super::terrain::BoardLooks;
use super::unit_parts::UnitSource;
use crate::battlefield::{Battlefield, GridMap, Square, ZoneDef, ZoneIdx};
use crate::rules::components::{AiKind, Controller};
use crate::rules::equipment::Effect;
use crate::rules::ruleset::Ruleset;
use looks::board_looks;

mod battlefield;
mod entries;
mod looks;
mod sides;
mod units;

pub(super) use entries::check_catalog;
use sides::side_templates;

/// Most zones a level may have: the battlefield keeps all-pairs distances, so this bounds its
/// memory (about 25 MB at the limit) and load time whatever a level file asks for.
pub const MAX_ZONES: usize = 2048;

/// Most names an error lists as "one of" when nothing is close to what was written.
const MAX_LISTED_NAMES: usize = 12;
/// A unit carrying its full capacity moves half its squares, rounded up (`A-MOVE-1`).
const CAPACITY_SPEED_DIVISOR: u32 = 2;

/// Checks a parsed level against the catalog and builds its template, reporting every problem.
pub fn build(
    level: LevelFile,
    catalog: Catalog,
    ruleset: Ruleset,
    path: &Path,
    map: &SourceMap,
) -> Result<BattleTemplate, LoadErrors> {
    build_checked(level, catalog, ruleset, path, map).map(|(template, _)| template)
}

/// [`build`], also returning the warnings: what loads but is probably not what was meant.
pub fn build_checked(
    level: LevelFile,
    mut catalog: Catalog,
    ruleset: Ruleset,
    path: &Path,
    map: &SourceMap,
) -> Result<(BattleTemplate, Vec<LoadWarning>), LoadErrors> {
    merge_level_entries(&mut catalog, &level);
    let mut checker = LevelChecker::new(&level, &catalog, &ruleset, path, map);
    checker.catalog();
    let battlefield = checker.battlefield()?;
    let looks = checker.looks(&battlefield);
    checker.sides();
    let units = checker.units(&battlefield);
    checker.sides_have_units();
    checker.summons();
    let conjurable = checker.conjurable(&units);
    let victory = checker.victory();
    let warnings = checker.finish()?;
    let template = BattleTemplate {
        level_name: level.name.clone(),
        description: level.description.clone(),
        source: path.to_path_buf(),
        seed: level.seed,
        declaration_order: level.declaration_order,
        battlefield,
        looks,
        pictures: super::template::ModPictures {
            icons: catalog.icon_files.clone(),
            textures: catalog.texture_files.clone(),
        },
        sides: side_templates(&level.sides),
        units,
        conjurable,
        victory,
        injuries: catalog.injuries.clone(),
        ruleset,
        mods: Vec::new(),
        lessons: level.lessons.clone(),
    };
    Ok((template, warnings))
}

/// The creatures, weapons, armour, spells and items a level defines join (or replace) the catalog's.
fn merge_level_entries(catalog: &mut Catalog, level: &LevelFile) {
    catalog.creatures.extend(level.creatures.clone());
    catalog.weapons.extend(level.weapons.clone());
    catalog.armour.extend(level.armour.clone());
    catalog.spells.extend(level.spells.clone());
    catalog.items.extend(level.items.clone());
}

/// Checks one level, part by part; each part records its problems and returns what it built.
pub(super) struct LevelChecker<'a> {
    level: &'a LevelFile,
    catalog: &'a Catalog,
    ruleset: &'a Ruleset,
    path: &'a Path,
    map: &'a SourceMap<'a>,
    /// Zone ids to battlefield indices (the first of a repeated id).
    zone_index: HashMap<&'a str, ZoneIdx>,
    /// Side names to side indices (the first of a repeated name).
    side_index: HashMap<&'a str, usize>,
    /// Squares per zone of distance, once a grid has been read and parsed.
    squares_per_zone: Option<u32>,
    /// The bytes of the list entry (a unit, a zone) being checked: its problems are located
    /// inside it first, so two entries with the same mistake are each reported where they are.
    scope: Option<Range<usize>>,
    errors: Vec<LoadError>,
    warnings: Vec<LoadWarning>,
}

/// What the units seen so far add up to, for the checks across units.
#[derive(Default)]
struct UnitTally<'a> {
    /// How many times each unit id has been seen.
    ids: HashMap<&'a str, usize>,
    /// Units present from the start, per zone.
    starting_per_zone: HashMap<ZoneIdx, u32>,
    /// The creature of the first unit of each (side, initiative group).
    groups: HashMap<(usize, &'a str), &'a str>,
    /// How many units so far name each initiative group, on any side (to point at the right one).
    group_names: HashMap<&'a str, usize>,
}

impl<'a> LevelChecker<'a> {
    /// A checker with nothing found yet.
    pub fn new(
        level: &'a LevelFile,
        catalog: &'a Catalog,
        ruleset: &'a Ruleset,
        path: &'a Path,
        map: &'a SourceMap<'a>,
    ) -> Self {
        Self {
            level,
            catalog,
            ruleset,
            path,
            map,
            zone_index: HashMap::new(),
            side_index: HashMap::new(),
            squares_per_zone: None,
            scope: None,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Records a problem at the `nth` `field: "value"` (see [`SourceMap::locate`]).
    fn invalid(&mut self, field: &str, value: &str, nth: usize, message: String) {
        let (line, column) = self.locate(field, value, nth);
        self.errors.push(LoadError::Invalid { path: self.path.to_path_buf(), line, column, message });
    }

    /// Records a warning at the `nth` `field: "value"`.
    fn warn(&mut self, field: &str, value: &str, nth: usize, message: String) {
        let (line, column) = self.locate(field, value, nth);
        self.warnings.push(LoadWarning { path: self.path.to_path_buf(), line, column, message });
    }

    /// Where `field: "value"` is written: in the entry being checked when it is there (its
    /// own, so the first), else the `nth` in the whole file.
    fn locate(&self, field: &str, value: &str, nth: usize) -> (usize, usize) {
        let scoped = self.scope.clone().and_then(|scope| self.map.locate_in(scope, field, value, 0));
        scoped.unwrap_or_else(|| self.map.locate(field, value, nth))
    }

    /// The bytes of each entry of the level's list `key`, one per entry read (`count`); all
    /// `None` when the text and the entries disagree, so nothing is located in the wrong one.
    fn entry_scopes(&self, key: &str, count: usize) -> Vec<Option<Range<usize>>> {
        let items = self.map.list_items(key);
        if items.len() == count { items.into_iter().map(Some).collect() } else { vec![None; count] }
    }

    /// The warnings, or every problem sorted by position.
    pub fn finish(mut self) -> Result<Vec<LoadWarning>, LoadErrors> {
        if self.errors.is_empty() {
            return Ok(self.warnings);
        }
        self.errors.sort_by_key(|error| match error {
            LoadError::Invalid { line, column, .. } | LoadError::Syntax { line, column, .. } => (*line, *column),
            LoadError::Unreadable { .. } => (0, 0),
        });
        Err(LoadErrors(self.errors))
    }

    /// The catalog with the level's entries: creatures refer to gear that exists.
    pub fn catalog(&mut self) {
        let catalog = self.catalog;
        check_catalog(catalog, &mut |field: &str, value: &str, nth: usize, message: String| {
            self.invalid(field, value, nth, message);
        });
    }
}

/// The names a catalog map defines, for "did you mean".
fn names<V>(entries: &BTreeMap<String, V>) -> Vec<&str> {
    entries.keys().map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::catalog::AssetSource;
    use crate::rules::ruleset::DEFAULT_RULESET;

    /// The path the test levels are reported under.
    const PATH: &str = "t.ron";

    /// Two zones, two sides, a bandit on each.
    const ZONES: &str = r#"(
    name: "Zones",
    zones: [
        (id: "a", adjacent: ["b"]),
        (id: "b", capacity: Some(1)),
    ],
    sides: [(name: "red"), (name: "blue", party: Some(true))],
    units: [
        (id: "r1", creature: "bandit", side: "red", zone: "a"),
        (id: "b1", creature: "bandit", side: "blue", zone: "b"),
    ],
)"#;

    /// A 4 x 3 grid with one wall, a bandit on each side.
    const GRID: &str = r#"(
    name: "Grid",
    ruleset: "shock_and_cover",
    grid: Some((rows: ["....", ".#..", "...."], squares_per_zone: 3)),
    sides: [(name: "red"), (name: "blue")],
    units: [
        (id: "r1", creature: "bandit", side: "red", at: Some((0, 0))),
        (id: "b1", creature: "bandit", side: "blue", at: Some((3, 2))),
    ],
)"#;

    /// What the parts found: their result, the errors and the warnings, rendered.
    struct Found<T> {
        built: T,
        errors: Vec<String>,
        warnings: Vec<String>,
    }

    /// Runs `parts` on a checker for `text` (in order, as [`build`] does).
    fn check<T>(text: &str, parts: impl FnOnce(&mut LevelChecker) -> T) -> Found<T> {
        let level: LevelFile = ron::from_str(text).unwrap_or_else(|error| panic!("test level: {error}\n{text}"));
        let mut catalog = Catalog::builtin().expect("the built-in catalog loads");
        merge_level_entries(&mut catalog, &level);
        let ruleset = AssetSource::default().ruleset(&level.ruleset, Path::new("")).expect("a shipped ruleset").0;
        let map = SourceMap::new(text);
        let mut checker = LevelChecker::new(&level, &catalog, &ruleset, Path::new(PATH), &map);
        let built = parts(&mut checker);
        let errors = checker.errors.iter().map(ToString::to_string).collect();
        let warnings = checker.warnings.iter().map(ToString::to_string).collect();
        Found { built, errors, warnings }
    }

    /// Runs every part up to the units, and the units.
    fn check_units(text: &str) -> Found<Vec<UnitTemplate>> {
        check(text, |checker| {
            let battlefield = checker.battlefield().expect("a battlefield");
            checker.sides();
            checker.units(&battlefield)
        })
    }

    /// `text` with `from` (which must occur exactly once) replaced by `to`.
    fn edit(text: &str, from: &str, to: &str) -> String {
        assert_eq!(text.matches(from).count(), 1, "`{from}` should occur once");
        text.replacen(from, to, 1)
    }

    /// `t.ron:line:column: message`, at the first `needle` in `text`.
    fn at(text: &str, needle: &str, message: &str) -> String {
        let offset = text.find(needle).unwrap_or_else(|| panic!("`{needle}` is not in the level"));
        let (line, column) = SourceMap::new(text).position(offset);
        format!("{PATH}:{line}:{column}: {message}")
    }

    #[test]
    fn the_test_levels_build() {
        for text in [ZONES, GRID] {
            let template = build(
                ron::from_str(text).expect("parses"),
                Catalog::builtin().expect("catalog"),
                AssetSource::default().ruleset("shock_and_cover", Path::new("")).expect("ruleset").0,
                Path::new(PATH),
                &SourceMap::new(text),
            )
            .unwrap_or_else(|errors| panic!("{errors}"));
            assert_eq!((template.sides.len(), template.units.len()), (2, 2));
        }
    }

    #[test]
    fn catalog_reports_a_level_creature_with_unknown_gear() {
        let text = edit(
            ZONES,
            "units: [",
            "creatures: {\"brute\": (name: \"Brute\", hd: \"2d8\", weapon: \"clubb\", speed: 1)},\n    units: [",
        );
        let found = check(&text, |checker| checker.catalog());
        let message = "creature \"brute\": weapon \"clubb\" not found; did you mean \"club\"?";
        assert_eq!(found.errors, [at(&text, "\"clubb\"", message)]);
    }

    #[test]
    fn battlefield_builds_zones_with_their_adjacency() {
        let found = check(ZONES, |checker| checker.battlefield().map(|field| field.len()));
        assert_eq!((found.built, found.errors), (Ok(2), vec![]));
    }

    #[test]
    fn battlefield_reports_no_zones_at_the_key() {
        let text = edit(ZONES, "(id: \"a\", adjacent: [\"b\"]),\n        (id: \"b\", capacity: Some(1)),", "");
        let found = check(&text, |checker| checker.battlefield());
        let message = "the level has no zones; expected at least one in `zones: [...]`, or a `grid: (rows: [...])`";
        assert_eq!(found.errors, [at(&text, "zones:", message)]);
    }

    #[test]
    fn battlefield_reports_a_repeated_zone_id_at_the_second() {
        let text = edit(ZONES, "(id: \"b\", capacity", "(id: \"a\"),\n        (id: \"b\", capacity");
        let found = check(&text, |checker| checker.battlefield());
        let second = text.match_indices("(id: \"a\")").next().expect("the repeat").0 + "(id: ".len();
        let (line, column) = SourceMap::new(&text).position(second);
        let message = "zone id \"a\" is used twice; zone ids must be unique";
        assert_eq!(found.errors, [format!("{PATH}:{line}:{column}: {message}")]);
    }

    #[test]
    fn battlefield_reports_adjacency_to_a_missing_zone() {
        let text = edit(ZONES, "adjacent: [\"b\"]", "adjacent: [\"b\", \"c\"]");
        let found = check(&text, |checker| checker.battlefield());
        let message = "zone \"a\" is adjacent to zone \"c\" not found; did you mean \"a\"?";
        assert_eq!(found.errors, [at(&text, "\"c\"", message)]);
    }

    #[test]
    fn battlefield_stops_at_too_many_zones() {
        let zones: String = (0..=MAX_ZONES).map(|at| format!("(id: \"z{at}\"), ")).collect();
        let text = edit(ZONES, "zones: [", &format!("zones: [{zones}"));
        let found = check(&text, |checker| checker.battlefield().map(|_| ()).map_err(|errors| errors.to_string()));
        let message = format!("the level has {} zones; at most {MAX_ZONES} are supported", MAX_ZONES + 3);
        assert_eq!(found.built, Err(at(&text, "zones:", &message)));
    }

    #[test]
    fn battlefield_builds_a_grid_of_open_squares() {
        let found = check(GRID, |checker| checker.battlefield().map(|field| field.len()));
        assert_eq!((found.built, found.errors), (Ok(11), vec![]));
    }

    #[test]
    fn battlefield_reports_both_zones_and_a_grid() {
        let text = edit(GRID, "grid:", "zones: [(id: \"a\")],\n    grid:");
        let found = check(&text, |checker| checker.battlefield());
        let message = "the level has both `zones` and a `grid`; expected one battlefield";
        assert_eq!(found.errors, [at(&text, "grid:", message)]);
    }

    #[test]
    fn battlefield_reports_an_invalid_grid() {
        let text = edit(GRID, "\".#..\"", "\".#.\"");
        let found = check(&text, |checker| checker.battlefield());
        assert_eq!(found.errors.len(), 1, "{:?}", found.errors);
        assert!(
            found.errors[0].starts_with(&at(&text, "grid:", "the grid is not a valid map: ")),
            "{:?}",
            found.errors
        );
    }

    #[test]
    fn battlefield_reports_zero_squares_per_zone() {
        let text = edit(GRID, "squares_per_zone: 3", "squares_per_zone: 0");
        let found = check(&text, |checker| checker.battlefield());
        let message = "`squares_per_zone` is 0; expected at least 1 (squares per zone of distance)";
        assert_eq!(found.errors, [at(&text, "squares_per_zone:", message)]);
    }

    #[test]
    fn sides_report_a_lone_side_and_a_repeated_name() {
        let text = edit(ZONES, "(name: \"blue\", party: Some(true))", "(name: \"red\")");
        let found = check(&text, |checker| checker.sides());
        let second = text.match_indices("\"red\"").nth(1).expect("the repeat").0;
        let (line, column) = SourceMap::new(&text).position(second);
        assert_eq!(
            found.errors,
            [format!("{PATH}:{line}:{column}: side name \"red\" is used twice; side names must be unique")]
        );
        let text = edit(ZONES, ", (name: \"blue\", party: Some(true))", "");
        let found = check(&text, |checker| checker.sides());
        assert_eq!(found.errors, [at(&text, "sides:", "the level has 1 side(s); a battle needs at least two")]);
    }

    #[test]
    fn sides_report_a_side_with_no_units() {
        let text = edit(ZONES, "side: \"blue\"", "side: \"red\"");
        let found = check(&text, |checker| {
            checker.sides();
            checker.sides_have_units();
        });
        let message = "side \"blue\" has no units; every side needs at least one";
        assert_eq!(found.errors, [at(&text, "\"blue\"", message)]);
    }

    #[test]
    fn side_templates_make_the_marked_side_the_party() {
        let level: LevelFile = ron::from_str(ZONES).expect("parses");
        let party: Vec<bool> = side_templates(&level.sides).iter().map(|side| side.party).collect();
        assert_eq!(party, [false, true], "only the marked side is the party (Z-INIT-1)");
        let controllers: Vec<Controller> = side_templates(&level.sides).iter().map(|side| side.controller).collect();
        assert_eq!(controllers, [Controller::Ai(AiKind::Greedy); 2]);
    }

    #[test]
    fn units_build_in_level_order() {
        let found = check_units(ZONES);
        let ids: Vec<&str> = found.built.iter().map(|unit| &*unit.id).collect();
        assert_eq!((ids, found.errors), (vec!["r1", "b1"], vec![]));
    }

    #[test]
    fn units_report_unknown_side_zone_and_creature() {
        let text = edit(
            ZONES,
            "creature: \"bandit\", side: \"red\", zone: \"a\"",
            "creature: \"bandt\", side: \"rde\", zone: \"c\"",
        );
        let found = check_units(&text);
        assert_eq!(
            found.errors,
            [
                at(&text, "\"rde\"", "unit \"r1\": side \"rde\" not found; did you mean \"red\"?"),
                at(&text, "\"c\"", "unit \"r1\": zone \"c\" not found; did you mean \"a\"?"),
                at(&text, "\"bandt\"", "unit \"r1\": creature \"bandt\" not found; did you mean \"bandit\"?"),
            ]
        );
        assert_eq!(found.built.len(), 1);
    }

    #[test]
    fn units_report_a_square_on_a_zone_level_and_suggest_a_zone() {
        let text = edit(ZONES, "zone: \"a\"", "at: Some((1, 2))");
        let found = check_units(&text);
        let message = "unit \"r1\" has `at: Some((1, 2))`, which places units on a grid level; this level has zones, expected `zone: \"...\"`, one of: a, b";
        assert_eq!(found.errors, [at(&text, "\"r1\"", message)]);
    }

    #[test]
    fn units_report_a_missing_zone_at_the_unit() {
        let text = edit(ZONES, ", zone: \"a\"", "");
        let found = check_units(&text);
        let message = "unit \"r1\" has no zone; expected `zone: \"...\"`, one of: a, b";
        assert_eq!(found.errors, [at(&text, "\"r1\"", message)]);
    }

    #[test]
    fn units_warn_of_a_square_beside_a_zone() {
        let text = edit(ZONES, "zone: \"a\"", "zone: \"a\", at: Some((1, 2))");
        let found = check_units(&text);
        let message = "warning: unit \"r1\": `at` is not read on a zone level; it starts in zone \"a\"";
        assert_eq!((found.errors, found.warnings), (vec![], vec![at(&text, "\"r1\"", message)]));
    }

    #[test]
    fn units_report_a_zone_on_a_grid_level() {
        let text = edit(GRID, "at: Some((0, 0))", "zone: \"a\"");
        let found = check_units(&text);
        let message = "unit \"r1\" has no square; on a grid level expected `at: Some((x, y))`, not `zone: \"a\"` (zones are for levels with `zones`)";
        assert_eq!(found.errors, [at(&text, "\"r1\"", message)]);
        let text = edit(GRID, "at: Some((0, 0))", "zone: \"a\", at: Some((0, 0))");
        let found = check_units(&text);
        let message = "warning: unit \"r1\": `zone` is not read on a grid level; it starts at (0, 0)";
        assert_eq!((found.errors, found.warnings), (vec![], vec![at(&text, "\"r1\"", message)]));
    }

    #[test]
    fn units_report_a_wall_square() {
        let text = edit(GRID, "at: Some((0, 0))", "at: Some((1, 1))");
        let found = check_units(&text);
        let message = "unit \"r1\" stands at (1, 1), which is a wall or off the map; expected an open square";
        assert_eq!(found.errors, [at(&text, "\"r1\"", message)]);
    }

    #[test]
    fn units_are_scaled_to_squares_on_a_grid() {
        let zones = check_units(
            &ZONES.replace("(\n    name: \"Zones\",", "(\n    name: \"Zones\",\n    ruleset: \"shock_and_cover\","),
        );
        let grid = check_units(GRID);
        assert_eq!(grid.built[0].speed.0, zones.built[0].speed.0 * 3, "3 squares per zone");
    }

    #[test]
    fn units_report_round_zero_arrivals_and_crowded_zones() {
        let text = edit(ZONES, "zone: \"a\")", "zone: \"b\")");
        let found = check_units(&text);
        let message = "zone \"b\" holds 2 units at the start but its capacity is 1";
        assert_eq!(found.errors, [at(&text, "\"b\", capacity", message)]);
        let text =
            edit(&text, "side: \"blue\", zone: \"b\")", "side: \"blue\", zone: \"b\", arrives: Some((round: 0)))");
        let found = check_units(&text);
        assert_eq!(found.errors, [at(&text, "\"b1\"", "unit \"b1\" arrives in round 0; rounds start at 1")]);
    }

    #[test]
    fn units_report_mixed_creatures_in_an_initiative_group() {
        let text = edit(
            ZONES,
            "zone: \"a\")",
            "zone: \"a\", initiative_group: Some(\"g\")),\n        (id: \"r2\", creature: \"wolf\", side: \"red\", zone: \"a\", initiative_group: Some(\"g\"))",
        );
        let found = check_units(&text);
        let second = text.match_indices("\"g\"").nth(1).expect("the second group").0;
        let (line, column) = SourceMap::new(&text).position(second);
        let message = "unit \"r2\" is a \"wolf\" but initiative group \"g\" is for \"bandit\"; only identical monsters share an initiative roll";
        assert_eq!(found.errors, [format!("{PATH}:{line}:{column}: {message}")]);
    }

    #[test]
    fn units_report_gear_problems_with_the_unit_name() {
        let text = edit(ZONES, "zone: \"b\")", "zone: \"b\", weapon: Some(\"longsord\"))");
        let found = check_units(&text);
        let message = "unit \"b1\": weapon \"longsord\" not found; did you mean \"longsword\"?";
        assert_eq!(found.errors, [at(&text, "\"longsord\"", message)]);
        assert_eq!(found.built.len(), 1, "only r1 builds");
    }

    #[test]
    fn encumbrance_sets_the_speed_unless_the_level_does() {
        let crucible = |fields: &str| {
            let text = edit(ZONES, "(\n    name: \"Zones\",", "(\n    name: \"Zones\",\n    ruleset: \"crucible\",");
            let text = edit(&text, "zone: \"a\")", &format!("zone: \"a\"{fields})"));
            check_units(&text).built[0].speed.0
        };
        let (light, heavy, set) = (
            crucible(", load: Some(0)"),
            crucible(", load: Some(1000)"),
            crucible(", load: Some(1000), speed: Some(5)"),
        );
        assert!(heavy < light, "a heavy load slows: {heavy} vs {light}");
        assert_eq!(set, 5);
    }

    #[test]
    fn summons_report_unknown_foreign_and_arriving_summoners() {
        let summoned = |summoner: &str, extra: &str| {
            let unit = format!(
                "zone: \"b\"),\n        (id: \"s\", creature: \"wolf\", side: \"blue\", zone: \"a\", summoned_by: Some(\"{summoner}\"){extra})"
            );
            let text = edit(ZONES, "zone: \"b\")", &unit);
            let found = check(&text, |checker| {
                checker.sides();
                checker.summons();
            });
            (text, found.errors)
        };
        let (text, errors) = summoned("b2", "");
        assert_eq!(errors, [at(&text, "\"b2\"", "unit \"s\": unit \"b2\" not found; did you mean \"b1\"?")]);
        let (text, errors) = summoned("r1", "");
        let message = "unit \"s\" is summoned by \"r1\" of another side; expected a unit of its own side";
        let summoner = text.find("Some(\"r1\")").expect("summoned_by") + "Some(".len();
        let (line, column) = SourceMap::new(&text).position(summoner);
        assert_eq!(errors, [format!("{PATH}:{line}:{column}: {message}")]);
        let (text, errors) = summoned("b1", ", arrives: Some((round: 2))");
        let message = "unit \"s\" both arrives and is summoned; expected one of `arrives` or `summoned_by`";
        let summoner = text.find("Some(\"b1\")").expect("summoned_by") + "Some(".len();
        let (line, column) = SourceMap::new(&text).position(summoner);
        assert_eq!(errors, [format!("{PATH}:{line}:{column}: {message}")]);
    }

    #[test]
    fn victory_builds_conditions_and_reports_unknown_names() {
        let text = edit(
            ZONES,
            "units: [",
            "victory: [Survive(side: \"blue\", rounds: 3), Eliminate(unit: \"r2\", side: \"bleu\")],\n    units: [",
        );
        let found = check(&text, |checker| {
            checker.sides();
            checker.victory()
        });
        assert_eq!(found.built, [VictoryTemplate::Survive { side: 1, rounds: 3 }]);
        assert_eq!(
            found.errors,
            [
                at(&text, "\"r2\"", "victory condition: unit \"r2\" not found; did you mean \"r1\"?"),
                at(&text, "\"bleu\"", "victory condition: side \"bleu\" not found; did you mean \"blue\"?"),
            ]
        );
    }

    #[test]
    fn finish_sorts_errors_by_position() {
        // The victory part runs last but is written first.
        let text = edit(ZONES, "sides:", "victory: [Survive(side: \"bleu\", rounds: 3)],\n    sides:");
        let text = edit(&text, "side: \"red\"", "side: \"rde\"");
        let level = ron::from_str(&text).expect("parses");
        let ruleset = AssetSource::default().ruleset(DEFAULT_RULESET, Path::new("")).expect("ruleset").0;
        let catalog = Catalog::builtin().expect("catalog");
        let errors = build(level, catalog, ruleset, Path::new(PATH), &SourceMap::new(&text)).expect_err("two errors");
        assert_eq!(
            errors.to_string(),
            [
                at(&text, "\"bleu\"", "victory condition: side \"bleu\" not found; did you mean \"blue\"?"),
                at(&text, "\"red\"", "side \"red\" has no units; every side needs at least one"),
                at(&text, "\"rde\"", "unit \"r1\": side \"rde\" not found; did you mean \"red\"?"),
            ]
            .join("\n")
        );
    }
}
