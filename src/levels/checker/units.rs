//! Checking units: side, place, creature, arrival, initiative group, encumbrance and zone capacity.

use super::*;

impl<'a> LevelChecker<'a> {
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
    pub(super) fn unit(
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
    pub(super) fn square(&mut self, unit: &UnitFile, battlefield: &Battlefield) -> Option<ZoneIdx> {
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
    pub(super) fn zone(&mut self, unit: &UnitFile) -> Option<ZoneIdx> {
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

    pub(super) fn creature(&mut self, unit: &UnitFile) -> Option<&'a CreatureFile> {
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
}
