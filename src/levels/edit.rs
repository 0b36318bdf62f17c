//! The level editor's edits as plain functions over a [`LevelFile`]: painting grid terrain
//! (brush, line, rectangle, fill), resizing, zones and their adjacency, units, the undo stack,
//! the stable RON text the editor saves, and which unit, zone or square a checker message names.
//! No window is needed, so all of it is tested headless.

use std::collections::BTreeSet;

use super::schema::{LevelFile, UnitFile, ZoneFile};
use super::starter::{StarterError, StarterField, starter_level};

/// Ground a grid square can have, as the grid format writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// `.`: open floor.
    Floor,
    /// `#`: a wall (what a brush lays first).
    #[default]
    Wall,
    /// `|`: an arrow slit or window (seen and shot through, not walked through).
    Slit,
    /// `~`: difficult ground.
    Difficult,
}

impl Terrain {
    /// Every terrain, in the editor's palette order.
    pub const ALL: [Terrain; 4] = [Terrain::Floor, Terrain::Wall, Terrain::Slit, Terrain::Difficult];

    /// The character the grid's rows use.
    pub fn symbol(self) -> char {
        match self {
            Terrain::Floor => '.',
            Terrain::Wall => '#',
            Terrain::Slit => '|',
            Terrain::Difficult => '~',
        }
    }

    /// The terrain a row character means (`=` is a slit too); `None` for anything else.
    pub fn from_symbol(symbol: char) -> Option<Terrain> {
        match symbol {
            '.' => Some(Terrain::Floor),
            '#' => Some(Terrain::Wall),
            '|' | '=' => Some(Terrain::Slit),
            '~' => Some(Terrain::Difficult),
            _ => None,
        }
    }

    /// Its name in the palette.
    pub fn label(self) -> &'static str {
        match self {
            Terrain::Floor => "Floor",
            Terrain::Wall => "Wall",
            Terrain::Slit => "Slit",
            Terrain::Difficult => "Difficult",
        }
    }
}

/// A grid square `(x, y)`, from the top left.
pub type Square = (i32, i32);

/// The squares of a straight line from `from` to `to`, both ends included (Bresenham).
pub fn line(from: Square, to: Square) -> Vec<Square> {
    let (dx, dy) = ((to.0 - from.0).abs(), -(to.1 - from.1).abs());
    let (step_x, step_y) = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
    let (mut x, mut y, mut error) = (from.0, from.1, dx + dy);
    let mut squares = vec![(x, y)];
    while (x, y) != to {
        let doubled = 2 * error;
        if doubled >= dy {
            error += dy;
            x += step_x;
        }
        if doubled <= dx {
            error += dx;
            y += step_y;
        }
        squares.push((x, y));
    }
    squares
}

/// The squares of the rectangle with corners `a` and `b`: all of them when `filled`, else its
/// outline; top row first, left to right.
pub fn rectangle(a: Square, b: Square, filled: bool) -> Vec<Square> {
    let (left, right) = (a.0.min(b.0), a.0.max(b.0));
    let (top, bottom) = (a.1.min(b.1), a.1.max(b.1));
    let mut squares = Vec::new();
    for y in top..=bottom {
        for x in left..=right {
            let edge = x == left || x == right || y == top || y == bottom;
            if filled || edge {
                squares.push((x, y));
            }
        }
    }
    squares
}

/// The grid's rows as characters.
fn cells(rows: &[String]) -> Vec<Vec<char>> {
    rows.iter().map(|row| row.chars().collect()).collect()
}

/// The character at `square`, if it is on the map.
pub fn symbol_at(rows: &[String], (x, y): Square) -> Option<char> {
    let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
    rows.get(y)?.chars().nth(x)
}

/// The squares reachable from `start` through squares of the same character, four ways
/// (what a fill repaints), in row order; none when `start` is off the map.
pub fn fill_region(rows: &[String], start: Square) -> Vec<Square> {
    let Some(target) = symbol_at(rows, start) else {
        return Vec::new();
    };
    let map = cells(rows);
    let mut seen = BTreeSet::from([start]);
    let mut frontier = vec![start];
    while let Some((x, y)) = frontier.pop() {
        for next in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            let same = usize::try_from(next.0)
                .ok()
                .zip(usize::try_from(next.1).ok())
                .and_then(|(nx, ny)| map.get(ny)?.get(nx))
                .is_some_and(|symbol| *symbol == target);
            if same && seen.insert(next) {
                frontier.push(next);
            }
        }
    }
    let mut squares: Vec<Square> = seen.into_iter().collect();
    squares.sort_by_key(|&(x, y)| (y, x));
    squares
}

/// Paints `terrain` on every square of `squares` that is on the map; says whether anything
/// changed.
pub fn paint(rows: &mut [String], squares: &[Square], terrain: Terrain) -> bool {
    let mut map = cells(rows);
    let mut changed = false;
    for &(x, y) in squares {
        let cell = usize::try_from(x).ok().zip(usize::try_from(y).ok()).and_then(|(x, y)| map.get_mut(y)?.get_mut(x));
        if let Some(cell) = cell
            && *cell != terrain.symbol()
        {
            *cell = terrain.symbol();
            changed = true;
        }
    }
    for (row, new) in rows.iter_mut().zip(map) {
        *row = new.into_iter().collect();
    }
    changed
}

/// The grid's size (width of the first row, number of rows).
pub fn grid_size(rows: &[String]) -> (usize, usize) {
    (rows.first().map_or(0, |row| row.chars().count()), rows.len())
}

/// Resizes the map to `width` × `height`: rows and columns are cut at the right and bottom,
/// or added there as open floor. Units left outside are the checker's to report.
pub fn resize(rows: &mut Vec<String>, width: usize, height: usize) {
    let open = Terrain::Floor.symbol();
    rows.resize(height, String::new());
    for row in rows.iter_mut() {
        let mut chars: Vec<char> = row.chars().collect();
        chars.resize(width, open);
        *row = chars.into_iter().collect();
    }
}

/// Where a unit stands: a square on a grid, a zone on zones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A grid square.
    Square(Square),
    /// A zone id.
    Zone(String),
}

/// An id not yet used by any of `taken`: `stem-1`, `stem-2`, ...
fn fresh_id<'a>(stem: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    (1..)
        .map(|count| format!("{stem}-{count}"))
        .find(|candidate| !taken.clone().any(|id| id == candidate))
        .unwrap_or_else(|| stem.to_string())
}

/// Adds a unit of catalog `creature` on `side` at `place` and returns its new id.
pub fn add_unit(level: &mut LevelFile, creature: &str, side: &str, place: Place) -> String {
    let id = fresh_id(creature, level.units.iter().map(|unit| unit.id.as_str()));
    let mut unit = UnitFile::new(&id, creature, side);
    set_place(&mut unit, place);
    level.units.push(unit);
    id
}

fn set_place(unit: &mut UnitFile, place: Place) {
    match place {
        Place::Square(square) => {
            unit.at = Some(square);
            unit.zone.clear();
        }
        Place::Zone(zone) => {
            unit.zone = zone;
            unit.at = None;
        }
    }
}

/// Moves unit `id` to `place`; says whether there was such a unit.
pub fn move_unit(level: &mut LevelFile, id: &str, place: Place) -> bool {
    match level.units.iter_mut().find(|unit| unit.id == id) {
        Some(unit) => {
            set_place(unit, place);
            true
        }
        None => false,
    }
}

/// Removes unit `id`; says whether there was such a unit.
pub fn remove_unit(level: &mut LevelFile, id: &str) -> bool {
    let before = level.units.len();
    level.units.retain(|unit| unit.id != id);
    level.units.len() != before
}

/// The id of the unit standing at `place` (the last one listed, as the board draws it on top).
pub fn unit_at(level: &LevelFile, place: &Place) -> Option<String> {
    level
        .units
        .iter()
        .rev()
        .find(|unit| match place {
            Place::Square(square) => unit.at == Some(*square),
            Place::Zone(zone) => unit.zone == *zone,
        })
        .map(|unit| unit.id.clone())
}

/// Adds a zone drawn at `position` and returns its new id.
pub fn add_zone(level: &mut LevelFile, position: (f32, f32)) -> String {
    let id = fresh_id("zone", level.zones.iter().map(|zone| zone.id.as_str()));
    level.zones.push(ZoneFile {
        id: id.clone(),
        name: None,
        adjacent: Vec::new(),
        capacity: None,
        hazard: None,
        position: Some(position),
        terrain: None,
        texture: None,
    });
    id
}

/// Removes zone `id` and every adjacency to it; units in it stay for the checker to report
/// (or the player to move). Says whether there was such a zone.
pub fn remove_zone(level: &mut LevelFile, id: &str) -> bool {
    let before = level.zones.len();
    level.zones.retain(|zone| zone.id != id);
    for zone in &mut level.zones {
        zone.adjacent.retain(|other| other != id);
    }
    level.zones.len() != before
}

/// Renames zone `from` to `to` everywhere it is named (adjacency, units); refuses an empty or
/// taken id.
pub fn rename_zone(level: &mut LevelFile, from: &str, to: &str) -> bool {
    if to.is_empty() || from == to || level.zones.iter().any(|zone| zone.id == to) {
        return false;
    }
    let Some(zone) = level.zones.iter_mut().find(|zone| zone.id == from) else {
        return false;
    };
    zone.id = to.to_string();
    for zone in &mut level.zones {
        for other in &mut zone.adjacent {
            if other == from {
                *other = to.to_string();
            }
        }
    }
    for unit in &mut level.units {
        if unit.zone == from {
            unit.zone = to.to_string();
        }
    }
    true
}

/// Whether zones `a` and `b` are adjacent (listed on either side).
pub fn adjacent(level: &LevelFile, a: &str, b: &str) -> bool {
    let lists = |from: &str, to: &str| {
        level.zones.iter().any(|zone| zone.id == from && zone.adjacent.iter().any(|other| other == to))
    };
    lists(a, b) || lists(b, a)
}

/// Connects zones `a` and `b` when they are not adjacent, else disconnects them (from both
/// lists). Says whether anything changed.
pub fn toggle_adjacent(level: &mut LevelFile, a: &str, b: &str) -> bool {
    let known = |id: &str| level.zones.iter().any(|zone| zone.id == id);
    if a == b || !known(a) || !known(b) {
        return false;
    }
    if adjacent(level, a, b) {
        for zone in &mut level.zones {
            if zone.id == a {
                zone.adjacent.retain(|other| other != b);
            } else if zone.id == b {
                zone.adjacent.retain(|other| other != a);
            }
        }
    } else if let Some(zone) = level.zones.iter_mut().find(|zone| zone.id == a) {
        zone.adjacent.push(b.to_string());
    }
    true
}

/// Where the editor draws zone `at` of `count` that has no position of its own: along a row,
/// one zone width apart.
pub fn row_position(at: usize, count: usize) -> (f32, f32) {
    (at as f32 - (count as f32 - 1.0) / 2.0, 0.0)
}

/// Where the editor draws each zone: its own position, or its place along the row.
pub fn zone_positions(level: &LevelFile) -> Vec<(f32, f32)> {
    let count = level.zones.len();
    level.zones.iter().enumerate().map(|(at, zone)| zone.position.unwrap_or_else(|| row_position(at, count))).collect()
}

/// A new level of the kind `fray new-level` writes, for the editor to start from.
pub fn new_level(ruleset: &str, field: StarterField) -> Result<LevelFile, StarterError> {
    let text = starter_level(ruleset, field)?;
    // The starter text is the checked output of `fray new-level`; it always parses.
    Ok(ron::Options::default().from_str(&text).unwrap_or_else(|error| unreachable!("starter level: {error}")))
}

/// Most snapshots the undo stack keeps; older ones are dropped.
pub const UNDO_DEPTH: usize = 200;

/// Undo and redo over whole snapshots of the level.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<LevelFile>,
    redo: Vec<LevelFile>,
}

impl History {
    /// Notes `before`, the level as it was before an edit; an edit clears what could be redone.
    pub fn record(&mut self, before: LevelFile) {
        if self.undo.last() == Some(&before) {
            return;
        }
        self.undo.push(before);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Steps back: returns the level before the last edit, keeping `current` for redo.
    pub fn undo(&mut self, current: &LevelFile) -> Option<LevelFile> {
        let previous = self.undo.pop()?;
        self.redo.push(current.clone());
        Some(previous)
    }

    /// Steps forward again after an undo.
    pub fn redo(&mut self, current: &LevelFile) -> Option<LevelFile> {
        let next = self.redo.pop()?;
        self.undo.push(current.clone());
        Some(next)
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

/// The RON layout every save uses, fixed so the same level always gives the same bytes.
fn pretty_config() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .indentor("    ".to_string())
        .new_line("\n".to_string())
        .struct_names(false)
        .separate_tuple_members(false)
        .enumerate_arrays(false)
        .compact_arrays(false)
}

/// Field lines that only repeat a default (`initiated: false,`, `summoned_by: None,`, ...);
/// the save leaves them out so it reads like a hand-written level.
fn is_default_line(line: &str) -> bool {
    const DEFAULT_VALUES: [&str; 6] = ["None,", "false,", "[],", "{},", "\"\",", "0,"];
    let trimmed = line.trim_start();
    let Some((field, value)) = trimmed.split_once(": ") else {
        return false;
    };
    // Only a field of a struct: an indented plain name, not part of a string or a map entry.
    let plain = !field.is_empty() && field.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    plain && line.len() > trimmed.len() && DEFAULT_VALUES.contains(&value)
}

/// The level as the editor saves it: readable RON with fields in the schema's order, maps in
/// key order and default fields left out, so the same level always gives the same bytes and
/// loads back to the same [`LevelFile`].
pub fn save_text(level: &LevelFile) -> Result<String, ron::Error> {
    let full = ron::ser::to_string_pretty(level, pretty_config())?;
    let short: String = full.lines().filter(|line| !is_default_line(line)).map(|line| format!("{line}\n")).collect();
    // Leaving a field out means its serde default, which is not always the value written
    // (a level of 0, say): keep the full text unless the short one reads back the same.
    let same = ron::Options::default().from_str::<LevelFile>(&short).is_ok_and(|back| back == *level);
    Ok(if same { short } else { format!("{full}\n") })
}

/// What a checker message is about, for the editor to highlight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Concern {
    /// A unit, by id.
    Unit(String),
    /// A zone, by id.
    Zone(String),
    /// A grid square.
    Square(Square),
}

/// The units, zones and squares a checker message names (`unit "x"`, `zone "y"`,
/// `square (3, 4)`).
pub fn concerns(message: &str) -> Vec<Concern> {
    let mut found = Vec::new();
    for (marker, make) in [("unit \"", Concern::Unit as fn(String) -> Concern), ("zone \"", Concern::Zone)] {
        for (at, _) in message.match_indices(marker) {
            let rest = &message[at + marker.len()..];
            if let Some(end) = rest.find('"') {
                found.push(make(rest[..end].to_string()));
            }
        }
    }
    for (at, _) in message.match_indices("square (") {
        let rest = &message[at + "square (".len()..];
        let numbers = rest.split(')').next().unwrap_or_default();
        let mut parts = numbers.split(',').map(|part| part.trim().parse::<i32>());
        if let (Some(Ok(x)), Some(Ok(y))) = (parts.next(), parts.next()) {
            found.push(Concern::Square((x, y)));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_lines_are_only_plain_indented_fields() {
        assert!(is_default_line("        initiated: false,"));
        assert!(is_default_line("    seed: None,"));
        assert!(!is_default_line("seed: None,"));
        assert!(!is_default_line("        \"a: b\": None,"));
        assert!(!is_default_line("        level: 1,"));
    }

    #[test]
    fn concerns_read_units_zones_and_squares() {
        let message = "unit \"orc-1\": zone \"keep\" holds 2 units; 2 units start on square (3, 4)";
        assert_eq!(
            concerns(message),
            vec![Concern::Unit("orc-1".into()), Concern::Zone("keep".into()), Concern::Square((3, 4))]
        );
    }
}
