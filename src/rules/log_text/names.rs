//! The names the log's text gives units and zones in place of their ids.

use super::*;

/// The display names a log line uses for the ids a [`LogEvent`] carries.
///
/// An id it does not know (a cause such as `dying`, or a log from another battle) reads as itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Unit id to the name shown, made unique when two units share a display name.
    pub(super) units: HashMap<Arc<str>, String>,
    /// Zone id to the zone's display name (grid squares need none: they read as `(x, y)`).
    pub(super) zones: HashMap<Arc<str>, String>,
}

impl Names {
    /// Names for units given as `(id, display name)`. Units that share a display name each get
    /// their id in brackets (`Hobgoblin Warrior [warrior-2]`), so every line says who it means;
    /// a unit without a name reads as its id.
    pub fn from_units<S: Into<String>>(units: impl IntoIterator<Item = (Arc<str>, S)>) -> Self {
        let units: Vec<(Arc<str>, String)> = units.into_iter().map(|(id, name)| (id, name.into())).collect();
        let mut uses: HashMap<&str, usize> = HashMap::new();
        for (_, name) in &units {
            *uses.entry(name.as_str()).or_default() += 1;
        }
        let shown = units
            .iter()
            .map(|(id, name)| {
                let text = match uses.get(name.as_str()) {
                    _ if name.trim().is_empty() => id.to_string(),
                    Some(&count) if count > 1 => format!("{name} [{id}]"),
                    _ => name.clone(),
                };
                (id.clone(), text)
            })
            .collect();
        Self { units: shown, zones: HashMap::new() }
    }

    /// Unit names from the log's `combat_started` line, which lists every unit of the battle
    /// (reinforcements too); no names when the log has none.
    pub fn from_log(entries: &[LogEntry]) -> Self {
        let units = entries.iter().find_map(|entry| match &entry.event {
            LogEvent::CombatStarted(line::CombatStarted { units, .. }) => Some(units),
            _ => None,
        });
        Self::from_units(units.into_iter().flatten().map(|unit| (unit.id.clone(), unit.name.clone())))
    }

    /// Adds the zone names of `battlefield`.
    pub fn with_zones(mut self, battlefield: &Battlefield) -> Self {
        // A grid's squares are zones too, but the log names them by their coordinates.
        let zones = battlefield.zones().iter().filter(|zone| zone.square.is_none());
        self.zones.extend(zones.map(|zone| (zone.id.clone(), zone.name.clone())));
        self
    }

    /// The name shown for the unit with level id `id`.
    pub fn unit<'a>(&'a self, id: &'a str) -> &'a str {
        self.units.get(id).map_or(id, String::as_str)
    }

    /// The name shown for the zone with level id `id`.
    pub fn zone<'a>(&'a self, id: &'a str) -> &'a str {
        self.zones.get(id).map_or(id, String::as_str)
    }

    /// A place in words: a zone's name, or `(x, y)` for a grid square.
    pub fn place(&self, place: &Place) -> String {
        match place {
            Place::Zone(id) => self.zone(id).to_string(),
            Place::Square(_) => place.to_string(),
        }
    }
}
