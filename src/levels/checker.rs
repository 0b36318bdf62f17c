//! The level checker: checks a parsed level part by part (catalog, battlefield, sides, units,
//! summons, victory) against the catalog and the ruleset, collecting every problem at its
//! `file:line:column`, and builds the battle template when there is none.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::catalog::{Catalog, Origin, read_text};
use super::error::{LoadError, LoadErrors, LoadWarning, SourceMap, not_found};
use super::icons::unknown_icon;
use super::schema::{ControllerFile, CreatureFile, GridFile, LevelFile, SideFile, UnitFile, VictoryFile, party_sides};
use super::template::{BattleTemplate, SideTemplate, UnitTemplate, VictoryTemplate};
use super::terrain::{BoardLooks, board_looks};
use super::unit_parts::UnitSource;
use crate::battlefield::{Battlefield, GridMap, Square, ZoneDef, ZoneIdx};
use crate::rules::components::{AiKind, Controller};
use crate::rules::equipment::Effect;
use crate::rules::ruleset::Ruleset;

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

    // -----------------------------------------------------------------------------------------
    // The battlefield
    // -----------------------------------------------------------------------------------------

    /// The battlefield: a parsed grid, or the zones with their adjacency. A level with too many
    /// zones fails at once with that one error, since checking on would list thousands.
    pub fn battlefield(&mut self) -> Result<Battlefield, LoadErrors> {
        let level = self.level;
        let grid = level.grid.as_ref().and_then(|file| self.grid(file));
        if level.zones.is_empty() && level.grid.is_none() {
            let message = "the level has no zones; expected at least one in `zones: [...]`, or a `grid: (rows: [...])`";
            self.invalid("zones", "", 0, message.into());
        }
        if level.zones.len() > MAX_ZONES {
            let message = format!("the level has {} zones; at most {MAX_ZONES} are supported", level.zones.len());
            let (line, column) = self.map.locate("zones", "", 0);
            return Err(LoadError::Invalid { path: self.path.to_path_buf(), line, column, message }.into());
        }
        self.index_zones();
        let edges = self.edges();
        Ok(match grid {
            Some(map) => Battlefield::from_grid(map),
            None => Battlefield::new(zone_defs(level), &edges),
        })
    }

    /// How the board looks; reports terrain areas off the map or fitting no square, and
    /// textures no mod brings.
    pub fn looks(&mut self, battlefield: &Battlefield) -> BoardLooks {
        let (looks, problems) = board_looks(self.level, battlefield.grid());
        for problem in problems {
            match &problem.value {
                Some(value) => self.invalid(problem.field, value, problem.nth, problem.message),
                None => {
                    let (line, column) = self.map.locate_key(problem.field, problem.nth);
                    let path = self.path.to_path_buf();
                    self.errors.push(LoadError::Invalid { path, line, column, message: problem.message });
                }
            }
        }
        looks
    }

    /// The grid map, if it parses; notes its scale.
    fn grid(&mut self, file: &GridFile) -> Option<GridMap> {
        if !self.level.zones.is_empty() {
            self.invalid("grid", "", 0, "the level has both `zones` and a `grid`; expected one battlefield".into());
        }
        if file.squares_per_zone == 0 {
            let message = "`squares_per_zone` is 0; expected at least 1 (squares per zone of distance)";
            self.invalid("squares_per_zone", "", 0, message.into());
        }
        let rows: Vec<&str> = file.rows.iter().map(String::as_str).collect();
        match GridMap::parse(&rows) {
            Ok(map) => {
                self.squares_per_zone = Some(file.squares_per_zone.max(1));
                Some(map)
            }
            Err(error) => {
                self.invalid("grid", "", 0, format!("the grid is not a valid map: {error}"));
                None
            }
        }
    }

    /// Zone ids are unique; indexes the first of each.
    fn index_zones(&mut self) {
        let level = self.level;
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for zone in &level.zones {
            let count = seen.entry(zone.id.as_str()).or_insert(0);
            *count += 1;
            if *count > 1 {
                let (nth, message) =
                    (*count - 1, format!("zone id \"{}\" is used twice; zone ids must be unique", zone.id));
                self.invalid("id", &zone.id, nth, message);
            } else {
                self.zone_index.insert(zone.id.as_str(), self.zone_index.len() as ZoneIdx);
            }
        }
    }

    /// Adjacency between existing zones.
    fn edges(&mut self) -> Vec<(ZoneIdx, ZoneIdx)> {
        let level = self.level;
        let zone_names: Vec<&str> = level.zones.iter().map(|zone| zone.id.as_str()).collect();
        let mut edges = Vec::new();
        for (zone, scope) in level.zones.iter().zip(self.entry_scopes("zones", level.zones.len())) {
            self.scope = scope;
            for neighbour in &zone.adjacent {
                let here = self.zone_index.get(zone.id.as_str()).copied();
                match (here, self.zone_index.get(neighbour.as_str()).copied()) {
                    (Some(a), Some(b)) => edges.push((a, b)),
                    (_, None) => {
                        let missing = not_found("zone", neighbour, &zone_names);
                        self.invalid(
                            "adjacent",
                            neighbour,
                            0,
                            format!("zone \"{}\" is adjacent to {missing}", zone.id),
                        );
                    }
                    _ => {}
                }
            }
        }
        self.scope = None;
        edges
    }

    // -----------------------------------------------------------------------------------------
    // Sides
    // -----------------------------------------------------------------------------------------

    /// At least two sides with unique names; indexes the first of each.
    pub fn sides(&mut self) {
        let level = self.level;
        if level.sides.len() < 2 {
            let message = format!("the level has {} side(s); a battle needs at least two", level.sides.len());
            self.invalid("sides", "", 0, message);
        }
        for side in &level.sides {
            if self.side_index.insert(side.name.as_str(), self.side_index.len()).is_some() {
                let message = format!("side name \"{}\" is used twice; side names must be unique", side.name);
                self.invalid("name", &side.name, 1, message);
            }
        }
    }

    /// Every side has a unit.
    pub fn sides_have_units(&mut self) {
        let level = self.level;
        for (at, side) in level.sides.iter().enumerate() {
            if !level.units.iter().any(|unit| self.side_index.get(unit.side.as_str()) == Some(&at)) {
                let message = format!("side \"{}\" has no units; every side needs at least one", side.name);
                self.invalid("name", &side.name, 0, message);
            }
        }
    }

    fn side_names(&self) -> Vec<&'a str> {
        self.level.sides.iter().map(|side| side.name.as_str()).collect()
    }

    // -----------------------------------------------------------------------------------------
    // Units
    // -----------------------------------------------------------------------------------------

    /// Every unit checked, and the templates of those that could be built; then the zones'
    /// starting capacity.
    pub fn units(&mut self, battlefield: &Battlefield) -> Vec<UnitTemplate> {
        let level = self.level;
        let mut tally = UnitTally::default();
        let mut templates = Vec::new();
        for (unit, scope) in level.units.iter().zip(self.entry_scopes("units", level.units.len())) {
            self.scope = scope;
            templates.extend(self.unit(unit, battlefield, &mut tally));
        }
        self.scope = None;
        self.capacities(battlefield, &tally.starting_per_zone);
        templates
    }

    /// One unit: its id, side, place, creature, icon, arrival and initiative group, then its
    /// gear and numbers.
    fn unit(
        &mut self,
        unit: &'a UnitFile,
        battlefield: &Battlefield,
        tally: &mut UnitTally<'a>,
    ) -> Option<UnitTemplate> {
        self.unit_id(unit, tally);
        let side = self.unit_side(unit);
        let zone = if self.level.grid.is_some() { self.square(unit, battlefield) } else { self.zone(unit) };
        let creature = self.creature(unit);
        self.unit_icon(unit);
        self.arrival(unit);
        if let (Some(zone), None) = (zone, &unit.arrives) {
            *tally.starting_per_zone.entry(zone).or_insert(0) += 1;
        }
        self.initiative_group(unit, side, tally);
        self.speed_cap(unit);
        self.unit_template(unit, creature?, side?, zone?)
    }

    /// A unit's own `speed` above the ruleset's `max_speed` is cut down to it (`Z-TURN-1`): a warning.
    fn speed_cap(&mut self, unit: &UnitFile) {
        if let (Some(speed), Some(max)) = (unit.speed, self.ruleset.movement.max_speed)
            && speed > max
        {
            let message = format!(
                "unit \"{}\" has `speed: Some({speed})`, but the ruleset's `movement.max_speed` is {max}; it moves {max}",
                unit.id
            );
            self.warn("id", &unit.id, 0, message);
        }
    }

    fn unit_id(&mut self, unit: &'a UnitFile, tally: &mut UnitTally<'a>) {
        let count = tally.ids.entry(unit.id.as_str()).or_insert(0);
        *count += 1;
        if *count > 1 {
            let (nth, message) =
                (*count - 1, format!("unit id \"{}\" is used twice; unit ids must be unique", unit.id));
            self.invalid("id", &unit.id, nth, message);
        }
    }

    fn unit_side(&mut self, unit: &UnitFile) -> Option<usize> {
        let side = self.side_index.get(unit.side.as_str()).copied();
        if side.is_none() {
            let missing = not_found("side", &unit.side, &self.side_names());
            self.invalid("side", &unit.side, 0, format!("unit \"{}\": {missing}", unit.id));
        }
        side
    }

    /// The zone of a unit on a grid level: its square, which must be open.
    fn square(&mut self, unit: &UnitFile, battlefield: &Battlefield) -> Option<ZoneIdx> {
        let Some((x, y)) = unit.at else {
            let hint = match unit.zone.as_str() {
                "" => String::new(),
                zone => format!(", not `zone: \"{zone}\"` (zones are for levels with `zones`)"),
            };
            let message =
                format!("unit \"{}\" has no square; on a grid level expected `at: Some((x, y))`{hint}", unit.id);
            self.invalid("id", &unit.id, 0, message);
            return None;
        };
        if !unit.zone.is_empty() {
            let message = format!("unit \"{}\": `zone` is not read on a grid level; it starts at ({x}, {y})", unit.id);
            self.warn("id", &unit.id, 0, message);
        }
        let found = battlefield.zone_at(Square { x, y });
        // A grid that did not parse has been reported already; its squares cannot be judged.
        if found.is_none() && self.squares_per_zone.is_some() {
            let message = format!(
                "unit \"{}\" stands at ({x}, {y}), which is a wall or off the map; expected an open square",
                unit.id
            );
            self.invalid("id", &unit.id, 0, message);
        }
        found
    }

    /// The zone of a unit on a zone level, named by `zone` (`at` is for grids).
    fn zone(&mut self, unit: &UnitFile) -> Option<ZoneIdx> {
        let level = self.level;
        let zone_names: Vec<&str> = level.zones.iter().map(|zone| zone.id.as_str()).collect();
        let expected = match zone_names.len() {
            0 => "expected `zone: \"...\"`".to_string(),
            count if count <= MAX_LISTED_NAMES => {
                format!("expected `zone: \"...\"`, one of: {}", zone_names.join(", "))
            }
            _ => "expected `zone: \"...\"` with a zone id".to_string(),
        };
        match (unit.at, unit.zone.as_str()) {
            (Some((x, y)), "") => {
                let message = format!(
                    "unit \"{}\" has `at: Some(({x}, {y}))`, which places units on a grid level; this level has zones, {expected}",
                    unit.id
                );
                self.invalid("id", &unit.id, 0, message);
                return None;
            }
            (None, "") => {
                let message = format!("unit \"{}\" has no zone; {expected}", unit.id);
                self.invalid("id", &unit.id, 0, message);
                return None;
            }
            (Some(_), zone) => {
                let message =
                    format!("unit \"{}\": `at` is not read on a zone level; it starts in zone \"{zone}\"", unit.id);
                self.warn("id", &unit.id, 0, message);
            }
            (None, _) => {}
        }
        let found = self.zone_index.get(unit.zone.as_str()).copied();
        if found.is_none() {
            let missing = not_found("zone", &unit.zone, &zone_names);
            self.invalid("zone", &unit.zone, 0, format!("unit \"{}\": {missing}", unit.id));
        }
        found
    }

    fn creature(&mut self, unit: &UnitFile) -> Option<&'a CreatureFile> {
        let catalog = self.catalog;
        let creature = catalog.creatures.get(&unit.creature);
        if creature.is_none() {
            let known: Vec<&str> = catalog.creatures.keys().map(String::as_str).collect();
            let missing = not_found("creature", &unit.creature, &known);
            self.invalid("creature", &unit.creature, 0, format!("unit \"{}\": {missing}", unit.id));
        }
        creature
    }

    fn unit_icon(&mut self, unit: &UnitFile) {
        if let Some(icon) = &unit.icon
            && !self.catalog.has_icon(icon)
        {
            self.invalid("icon", icon, 0, format!("unit \"{}\": {}", unit.id, unknown_icon(icon)));
        }
    }

    fn arrival(&mut self, unit: &UnitFile) {
        if let Some(arrival) = &unit.arrives
            && arrival.round == 0
        {
            self.invalid("id", &unit.id, 0, format!("unit \"{}\" arrives in round 0; rounds start at 1", unit.id));
        }
    }

    /// Only identical creatures of one side share an initiative group.
    fn initiative_group(&mut self, unit: &'a UnitFile, side: Option<usize>, tally: &mut UnitTally<'a>) {
        let Some(group) = &unit.initiative_group else { return };
        let uses = tally.group_names.entry(group.as_str()).or_insert(0);
        let nth = *uses;
        *uses += 1;
        let Some(side) = side else { return };
        let first = *tally.groups.entry((side, group.as_str())).or_insert(unit.creature.as_str());
        if first != unit.creature {
            let message = format!(
                "unit \"{}\" is a \"{}\" but initiative group \"{group}\" is for \"{first}\"; only identical monsters share an initiative roll",
                unit.id, unit.creature
            );
            self.invalid("initiative_group", group, nth, message);
        }
    }

    /// The unit's gear and numbers, then what the level and ruleset change: squares, encumbrance,
    /// carrying capacity, feats.
    fn unit_template(
        &mut self,
        unit: &'a UnitFile,
        creature: &'a CreatureFile,
        side: usize,
        zone: ZoneIdx,
    ) -> Option<UnitTemplate> {
        let level = self.level;
        let source =
            UnitSource { unit, creature, side_file: &level.sides[side], catalog: self.catalog, ruleset: self.ruleset };
        let summoned_by = unit.summoned_by.as_ref().and_then(|summoner| {
            level.units.iter().position(|other| &other.id == summoner).map(|at| (at, unit.thrall))
        });
        let mut template = match source.template(side, zone, summoned_by) {
            Ok(template) => template,
            Err(problem) => {
                self.invalid(problem.field, &problem.value, 0, format!("unit \"{}\": {}", unit.id, problem.message));
                return None;
            }
        };
        if let Some(scale) = self.squares_per_zone {
            template.scale_to_squares(scale);
        }
        let strength = template.attributes.score(crate::rules::equipment::Attribute::Strength);
        if let Some(speed) = self.encumbered_speed(unit, creature, strength) {
            template.speed.0 = speed;
        }
        if self.at_carrying_capacity(unit, strength) {
            template.speed.0 = template.speed.0.div_ceil(CAPACITY_SPEED_DIVISOR);
        }
        template.apply_feats(creature.feats.iter().chain(&unit.feats), self.squares_per_zone.is_some());
        Some(template)
    }

    /// Encumbrance (`C-MOVE-1`): the tier of the load in the race's column sets the speed,
    /// unless the level sets the speed itself. Each point of Strength modifier moves every limit
    /// by the ruleset's `strength_pounds`. A race with its own column moves at its lightest tier
    /// even with no load given.
    fn encumbered_speed(&self, unit: &UnitFile, creature: &CreatureFile, strength: i32) -> Option<u32> {
        if unit.speed.is_some() {
            return None;
        }
        let movement = &self.ruleset.movement;
        let column = creature.race.as_ref().and_then(|race| movement.encumbrance_by_race.get(race));
        let load = unit.load.or(column.map(|_| 0))?;
        let tiers = column.unwrap_or(&movement.encumbrance);
        let shift = i64::from(self.ruleset.attributes.modifier(strength)) * i64::from(movement.strength_pounds);
        let fits = |most: u32| i64::from(load) <= i64::from(most) + shift;
        tiers.iter().find(|(most, _)| fits(*most)).or(tiers.last()).map(|&(_, speed)| speed)
    }

    /// Whether the unit carries its full capacity (`A-MOVE-1`): its `load` reaches the ruleset's
    /// `carrying_capacity` times its Strength score.
    fn at_carrying_capacity(&self, unit: &UnitFile, strength: i32) -> bool {
        let (Some(load), Some(per_point)) = (unit.load, self.ruleset.movement.carrying_capacity) else {
            return false;
        };
        unit.speed.is_none() && i64::from(load) >= i64::from(per_point) * i64::from(strength.max(0))
    }

    /// No zone holds more units at the start than its capacity (one on a square).
    fn capacities(&mut self, battlefield: &Battlefield, starting_per_zone: &HashMap<ZoneIdx, u32>) {
        let mut crowded: Vec<(&ZoneIdx, &u32)> = starting_per_zone.iter().collect();
        crowded.sort_unstable();
        for (&zone, &count) in crowded {
            let def = battlefield.zone(zone);
            let Some(capacity) = def.capacity.filter(|capacity| count > *capacity) else { continue };
            let units = if count == 1 { "unit" } else { "units" };
            let message = match def.square {
                Some(square) => {
                    format!("{count} units start on square ({}, {}); a square holds one", square.x, square.y)
                }
                None => {
                    format!("zone \"{}\" holds {count} {units} at the start but its capacity is {capacity}", def.id)
                }
            };
            self.invalid("id", &def.id, 0, message);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Summons and victory
    // -----------------------------------------------------------------------------------------

    /// Summoned units wait for a summoner of their own side, and do not also arrive.
    pub fn summons(&mut self) {
        let level = self.level;
        for (unit, scope) in level.units.iter().zip(self.entry_scopes("units", level.units.len())) {
            if let Some(summoner) = &unit.summoned_by {
                self.scope = scope;
                self.summoner(unit, summoner);
            }
        }
        self.scope = None;
    }

    fn summoner(&mut self, unit: &UnitFile, summoner: &str) {
        let level = self.level;
        let message = match level.units.iter().find(|other| other.id == summoner) {
            None => {
                let unit_names: Vec<&str> = level.units.iter().map(|unit| unit.id.as_str()).collect();
                format!("unit \"{}\": {}", unit.id, not_found("unit", summoner, &unit_names))
            }
            Some(other) if other.side != unit.side => format!(
                "unit \"{}\" is summoned by \"{summoner}\" of another side; expected a unit of its own side",
                unit.id
            ),
            Some(_) if unit.arrives.is_some() => {
                format!("unit \"{}\" both arrives and is summoned; expected one of `arrives` or `summoned_by`", unit.id)
            }
            Some(_) => return,
        };
        self.invalid("summoned_by", summoner, 0, message);
    }

    /// What the units' spells and items may create, made once for each caster's side
    /// (`A-SUMM-1`). Unknown creatures are reported with the catalog.
    pub fn conjurable(&mut self, units: &[UnitTemplate]) -> Vec<(Arc<str>, usize, UnitTemplate)> {
        let mut wanted: Vec<(String, usize)> = Vec::new();
        units.iter().for_each(|unit| conjures(unit, &mut wanted));
        let mut made: Vec<(Arc<str>, usize, UnitTemplate)> = Vec::new();
        // A created creature may know such a spell too: its creatures are made ready as well.
        let mut next = 0;
        while let Some((creature, side)) = wanted.get(next).cloned() {
            next += 1;
            if let Some(template) = self.conjured(&creature, side) {
                conjures(&template, &mut wanted);
                made.push((Arc::from(creature.as_str()), side, template));
            }
        }
        made
    }

    /// The template a spell's new unit of `name` on `side` spawns from.
    fn conjured(&mut self, name: &str, side: usize) -> Option<UnitTemplate> {
        let (creature, side_file) = (self.catalog.creatures.get(name)?, self.level.sides.get(side)?);
        let unit = UnitFile::new(name, name, &side_file.name);
        let source = UnitSource { unit: &unit, creature, side_file, catalog: self.catalog, ruleset: self.ruleset };
        let mut template = match source.template(side, ZoneIdx::default(), None) {
            Ok(template) => template,
            Err(problem) => {
                let message = format!("creature \"{name}\", which a spell creates: {}", problem.message);
                self.invalid("creature", name, 0, message);
                return None;
            }
        };
        if let Some(scale) = self.squares_per_zone {
            template.scale_to_squares(scale);
        }
        template.apply_feats(&creature.feats, self.squares_per_zone.is_some());
        Some(template)
    }

    /// The extra victory conditions, by side and unit position.
    pub fn victory(&mut self) -> Vec<VictoryTemplate> {
        let level = self.level;
        level.victory.iter().filter_map(|condition| self.victory_condition(condition)).collect()
    }

    fn victory_condition(&mut self, condition: &VictoryFile) -> Option<VictoryTemplate> {
        match condition {
            VictoryFile::Survive { side, rounds } => {
                Some(VictoryTemplate::Survive { side: self.victory_side(side)?, rounds: *rounds })
            }
            VictoryFile::Eliminate { unit, side } => {
                let target = self.victory_unit(unit);
                let winner = self.victory_side(side);
                Some(VictoryTemplate::Eliminate { unit: target?, side: winner? })
            }
        }
    }

    fn victory_side(&mut self, side: &str) -> Option<usize> {
        let found = self.side_index.get(side).copied();
        if found.is_none() {
            let missing = not_found("side", side, &self.side_names());
            self.invalid("side", side, 0, format!("victory condition: {missing}"));
        }
        found
    }

    fn victory_unit(&mut self, unit: &str) -> Option<usize> {
        let level = self.level;
        let found = level.units.iter().position(|candidate| candidate.id == unit);
        if found.is_none() {
            let unit_names: Vec<&str> = level.units.iter().map(|unit| unit.id.as_str()).collect();
            self.invalid("unit", unit, 0, format!("victory condition: {}", not_found("unit", unit, &unit_names)));
        }
        found
    }
}

/// The zones of a zone level, the first of each repeated id.
fn zone_defs(level: &LevelFile) -> Vec<ZoneDef> {
    let mut seen = HashSet::new();
    level
        .zones
        .iter()
        .filter(|zone| seen.insert(zone.id.as_str()))
        .map(|zone| ZoneDef {
            id: zone.id.as_str().into(),
            name: zone.name.clone().unwrap_or_else(|| zone.id.clone()),
            capacity: zone.capacity,
            hazard: zone.hazard.clone(),
            position: zone.position,
            square: None,
            enter_cost: 1,
        })
        .collect()
}

/// The sides as a battle sees them: the marked sides are the party; with none marked, the first one is.
fn side_templates(sides: &[SideFile]) -> Vec<SideTemplate> {
    sides
        .iter()
        .zip(party_sides(sides))
        .map(|(side, party)| SideTemplate {
            name: side.name.as_str().into(),
            party,
            surprise_range: side.surprise_range,
            unscripted: side.unscripted,
            controller: match side.controller {
                ControllerFile::Human => Controller::Human,
                ControllerFile::Ai(kind) => Controller::Ai(kind),
                ControllerFile::Default => Controller::Ai(AiKind::Greedy),
            },
        })
        .collect()
}

/// Adds the (creature, side) pairs `unit`'s spells and items create to `wanted`, once each.
fn conjures(unit: &UnitTemplate, wanted: &mut Vec<(String, usize)>) {
    let spells = unit.spells.0.iter().map(|(_, spell)| &spell.effect);
    for effect in spells.chain(unit.inventory.0.iter().map(|stack| &stack.item.effect)) {
        if let Effect::Conjure { creature, .. } = effect
            && !wanted.iter().any(|(name, side)| name == creature && *side == unit.side)
        {
            wanted.push((creature.clone(), unit.side));
        }
    }
}

/// Reports a problem: the field and value to point at, which occurrence, and the message.
pub(super) type Invalid<'a> = dyn FnMut(&str, &str, usize, String) + 'a;

/// Catalog consistency: creatures refer to gear that exists; thrown items deal damage.
pub(super) fn check_catalog(catalog: &Catalog, invalid: &mut Invalid) {
    check_catalog_entries(catalog, &mut |_kind: &str, _name: &str, field: &str, value: &str, nth: usize, message| {
        invalid(field, value, nth, message);
    });
}

/// Reports a problem with one catalog entry: its kind and name, then as [`Invalid`].
type EntryInvalid<'a> = dyn FnMut(&'static str, &str, &str, &str, usize, String) + 'a;

/// [`check_catalog`], saying which entry each problem is in.
fn check_catalog_entries(catalog: &Catalog, invalid: &mut EntryInvalid) {
    for (name, creature) in &catalog.creatures {
        check_creature(catalog, name, creature, &mut |field: &str, value: &str, nth: usize, message: String| {
            invalid("creature", name, field, value, nth, message);
        });
    }
    let effects = catalog.spells.iter().map(|(name, spell)| ("spell", name, &spell.effect));
    for (kind, name, effect) in effects.chain(catalog.items.iter().map(|(name, item)| ("item", name, &item.effect))) {
        if let Effect::Conjure { creature, .. } = effect
            && !catalog.creatures.contains_key(creature)
        {
            let missing = not_found("creature", creature, &names(&catalog.creatures));
            invalid(kind, name, "creature", creature, 0, format!("{kind} \"{name}\" creates {missing}"));
        }
    }
    for (name, item) in &catalog.items {
        if item.thrown && !matches!(item.effect, Effect::Damage { .. }) {
            invalid(
                "item",
                name,
                "thrown",
                name,
                0,
                format!("item \"{name}\" is thrown but does not deal damage; expected `effect: Damage(...)`"),
            );
        }
    }
}

/// The catalog checks for entries that come from mods, reported in the mod's file and naming
/// the mod; problems in built-in entries are left to the level that uses them.
pub(super) fn check_mod_entries(catalog: &Catalog, errors: &mut Vec<LoadError>) {
    check_catalog_entries(catalog, &mut |kind, name: &str, field: &str, value: &str, nth: usize, message| {
        let Some(Origin::Mod { id, path }) = catalog.origins.get(&(kind, name.to_string())) else {
            return;
        };
        let text = read_text(path).unwrap_or_default();
        let (line, column) = SourceMap::new(&text).locate(field, value, nth);
        errors.push(LoadError::Invalid { path: path.clone(), line, column, message: format!("mod `{id}`: {message}") });
    });
}

/// A creature's weapons, armour, spells, items and icon exist.
fn check_creature(catalog: &Catalog, name: &str, creature: &CreatureFile, invalid: &mut Invalid) {
    for weapon in std::iter::once(&creature.weapon).chain(creature.offhand.iter()) {
        if !catalog.weapons.contains_key(weapon) {
            let missing = not_found("weapon", weapon, &names(&catalog.weapons));
            invalid("weapon", weapon, 0, format!("creature \"{name}\": {missing}"));
        }
    }
    if let Some(armour) = &creature.armour
        && !catalog.armour.contains_key(armour)
    {
        let missing = not_found("armour", armour, &names(&catalog.armour));
        invalid("armour", armour, 0, format!("creature \"{name}\": {missing}"));
    }
    for spell in creature.spells.iter().filter(|spell| !catalog.spells.contains_key(*spell)) {
        let missing = not_found("spell", spell, &names(&catalog.spells));
        invalid("spells", spell, 0, format!("creature \"{name}\": {missing}"));
    }
    for (item, _) in creature.items.iter().filter(|(item, _)| !catalog.items.contains_key(item)) {
        let missing = not_found("item", item, &names(&catalog.items));
        invalid("items", item, 0, format!("creature \"{name}\": {missing}"));
    }
    if let Some(icon) = &creature.icon
        && !catalog.has_icon(icon)
    {
        invalid("icon", icon, 0, format!("creature \"{name}\": {}", unknown_icon(icon)));
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
