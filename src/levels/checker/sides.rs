//! Checking sides, summons and victory conditions.

use super::*;

impl<'a> LevelChecker<'a> {
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

    pub(super) fn side_names(&self) -> Vec<&'a str> {
        self.level.sides.iter().map(|side| side.name.as_str()).collect()
    }
}

impl<'a> LevelChecker<'a> {
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

    pub(super) fn summoner(&mut self, unit: &UnitFile, summoner: &str) {
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

/// The sides as a battle sees them: the marked sides are the party; with none marked, the first one is.
pub(super) fn side_templates(sides: &[SideFile]) -> Vec<SideTemplate> {
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
