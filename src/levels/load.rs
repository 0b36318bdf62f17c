//! Loading a level: parse, merge the catalog, check every reference and rule, and build the
//! battle template that spawns the same battle any number of times.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::catalog::{AssetSource, Catalog, parse, read_text};
use super::error::{LoadError, LoadErrors, SourceMap, not_found};
use super::icons::{is_icon, unknown_icon, weapon_icon};
use super::schema::{ControllerFile, CreatureFile, LevelFile, UnitFile, VictoryFile, party_sides};
use super::template::{BattleTemplate, SideTemplate, UnitTemplate, VictoryTemplate};
use crate::battlefield::{Battlefield, GridMap, Square, ZoneDef, ZoneIdx};
use crate::rules::components::*;
use crate::rules::damage::maximum_stress;
use crate::rules::dice::Dice;
use crate::rules::equipment::{Attribute, Effect};
use crate::rules::ruleset::{Pools, Ruleset};

/// Most zones a level may have: the battlefield keeps all-pairs distances, so this bounds its
/// memory (about 25 MB at the limit) and load time whatever a level file asks for.
pub const MAX_ZONES: usize = 2048;

/// Loads and checks the level at `path`, with the catalog found near it.
pub fn load_level(path: &Path) -> Result<BattleTemplate, LoadErrors> {
    let text = read_text(path)?;
    load_level_text(&text, path, &AssetSource::near(path))
}

/// Loads and checks a level from its text; `path` is used for messages and relative rulesets.
pub fn load_level_text(text: &str, path: &Path, source: &AssetSource) -> Result<BattleTemplate, LoadErrors> {
    let level: LevelFile = parse(text, path)?;
    let catalog = Catalog::load(source)?;
    let relative_to = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let map = SourceMap::new(text);
    let ruleset = match source.ruleset(&level.ruleset, &relative_to) {
        Ok((ruleset, _)) => ruleset,
        Err(errors) if errors.0.is_empty() => {
            let names = source.ruleset_names();
            let known: Vec<&str> = names.iter().map(String::as_str).collect();
            let (line, column) = map.locate("ruleset", &level.ruleset, 0);
            return Err(LoadError::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                message: not_found("ruleset", &level.ruleset, &known),
            }
            .into());
        }
        Err(errors) => return Err(errors),
    };
    build(level, catalog, ruleset, path, &map)
}

/// Checks a parsed level against the catalog and builds its template, reporting every problem.
pub fn build(
    level: LevelFile,
    mut catalog: Catalog,
    ruleset: Ruleset,
    path: &Path,
    map: &SourceMap,
) -> Result<BattleTemplate, LoadErrors> {
    let mut errors = Vec::new();
    let mut invalid = |field: &str, value: &str, nth: usize, message: String| {
        let (line, column) = map.locate(field, value, nth);
        errors.push(LoadError::Invalid { path: path.to_path_buf(), line, column, message });
    };
    catalog.creatures.extend(level.creatures.clone());
    catalog.weapons.extend(level.weapons.clone());
    catalog.armour.extend(level.armour.clone());
    catalog.spells.extend(level.spells.clone());
    catalog.items.extend(level.items.clone());

    // Catalog consistency: creatures refer to gear that exists; thrown items deal damage.
    check_catalog(&catalog, &mut invalid);

    // Zones, or a grid.
    let grid = match &level.grid {
        Some(file) => {
            if !level.zones.is_empty() {
                invalid("grid", "", 0, "the level has both `zones` and a `grid`; expected one battlefield".into());
            }
            let rows: Vec<&str> = file.rows.iter().map(String::as_str).collect();
            match GridMap::parse(&rows) {
                Ok(map) => Some((map, file.squares_per_zone.max(1))),
                Err(error) => {
                    invalid("grid", "", 0, format!("the grid is not a valid map: {error}"));
                    None
                }
            }
        }
        None => None,
    };
    if level.zones.is_empty() && level.grid.is_none() {
        invalid(
            "zones",
            "",
            0,
            "the level has no zones; expected at least one in `zones: [...]`, or a `grid: (rows: [...])`".into(),
        );
    }
    if level.zones.len() > MAX_ZONES {
        let message = format!("the level has {} zones; at most {MAX_ZONES} are supported", level.zones.len());
        // Checking the rest would only list thousands of consequences of this one problem.
        let (line, column) = map.locate("zones", "", 0);
        return Err(LoadError::Invalid { path: path.to_path_buf(), line, column, message }.into());
    }
    let mut zone_index: HashMap<&str, ZoneIdx> = HashMap::new();
    let mut seen_zone_ids: HashMap<&str, usize> = HashMap::new();
    for zone in &level.zones {
        let seen = seen_zone_ids.entry(zone.id.as_str()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            let message = format!("zone id \"{}\" is used twice; zone ids must be unique", zone.id);
            invalid("id", &zone.id, *seen - 1, message);
        } else {
            zone_index.insert(zone.id.as_str(), zone_index.len() as ZoneIdx);
        }
    }
    let zone_names: Vec<&str> = level.zones.iter().map(|zone| zone.id.as_str()).collect();
    let mut edges = Vec::new();
    for zone in &level.zones {
        for neighbour in &zone.adjacent {
            match (zone_index.get(zone.id.as_str()), zone_index.get(neighbour.as_str())) {
                (Some(&a), Some(&b)) => edges.push((a, b)),
                (_, None) => invalid(
                    "adjacent",
                    neighbour,
                    0,
                    format!("zone \"{}\" is adjacent to {}", zone.id, not_found("zone", neighbour, &zone_names)),
                ),
                _ => {}
            }
        }
    }
    let battlefield = match &grid {
        Some((map, _)) => Battlefield::from_grid(map.clone()),
        None => {
            let mut seen = std::collections::HashSet::new();
            let zones = level
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
                .collect();
            Battlefield::new(zones, &edges)
        }
    };
    let squares_per_zone = grid.as_ref().map(|(_, scale)| *scale);

    // Sides.
    if level.sides.len() < 2 {
        invalid("sides", "", 0, format!("the level has {} side(s); a battle needs at least two", level.sides.len()));
    }
    let mut side_index: HashMap<&str, usize> = HashMap::new();
    for side in &level.sides {
        if side_index.insert(side.name.as_str(), side_index.len()).is_some() {
            invalid(
                "name",
                &side.name,
                1,
                format!("side name \"{}\" is used twice; side names must be unique", side.name),
            );
        }
    }
    let side_names: Vec<&str> = level.sides.iter().map(|side| side.name.as_str()).collect();

    // Units.
    let creature_names: Vec<&str> = catalog.creatures.keys().map(String::as_str).collect();
    let mut unit_ids: HashMap<&str, usize> = HashMap::new();
    let mut starting_per_zone: HashMap<ZoneIdx, u32> = HashMap::new();
    let mut groups: HashMap<(usize, &str), &str> = HashMap::new();
    let mut units = Vec::new();
    for unit in &level.units {
        let seen = unit_ids.entry(unit.id.as_str()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            invalid(
                "id",
                &unit.id,
                *seen - 1,
                format!("unit id \"{}\" is used twice; unit ids must be unique", unit.id),
            );
        }
        let side = side_index.get(unit.side.as_str()).copied();
        if side.is_none() {
            invalid(
                "side",
                &unit.side,
                0,
                format!("unit \"{}\": {}", unit.id, not_found("side", &unit.side, &side_names)),
            );
        }
        let zone = if level.grid.is_some() {
            match unit.at {
                Some((x, y)) => {
                    let found = battlefield.zone_at(Square { x, y });
                    if found.is_none() && grid.is_some() {
                        invalid(
                            "id",
                            &unit.id,
                            0,
                            format!(
                                "unit \"{}\" stands at ({x}, {y}), which is a wall or off the map; expected an open square",
                                unit.id
                            ),
                        );
                    }
                    found
                }
                None => {
                    invalid(
                        "id",
                        &unit.id,
                        0,
                        format!("unit \"{}\" has no square; on a grid level expected `at: Some((x, y))`", unit.id),
                    );
                    None
                }
            }
        } else {
            let found = zone_index.get(unit.zone.as_str()).copied();
            if found.is_none() {
                invalid(
                    "zone",
                    &unit.zone,
                    0,
                    format!("unit \"{}\": {}", unit.id, not_found("zone", &unit.zone, &zone_names)),
                );
            }
            found
        };
        let creature = catalog.creatures.get(&unit.creature);
        if creature.is_none() {
            invalid(
                "creature",
                &unit.creature,
                0,
                format!("unit \"{}\": {}", unit.id, not_found("creature", &unit.creature, &creature_names)),
            );
        }
        if let Some(icon) = &unit.icon
            && !is_icon(icon)
        {
            invalid("icon", icon, 0, format!("unit \"{}\": {}", unit.id, unknown_icon(icon)));
        }
        if let Some(arrival) = &unit.arrives
            && arrival.round == 0
        {
            invalid("id", &unit.id, 0, format!("unit \"{}\" arrives in round 0; rounds start at 1", unit.id));
        }
        if let (Some(zone), None) = (zone, &unit.arrives) {
            *starting_per_zone.entry(zone).or_insert(0) += 1;
        }
        if let (Some(side), Some(group)) = (side, &unit.initiative_group) {
            let first = groups.entry((side, group.as_str())).or_insert(unit.creature.as_str());
            if *first != unit.creature {
                invalid(
                    "initiative_group",
                    group,
                    0,
                    format!(
                        "unit \"{}\" is a \"{}\" but initiative group \"{group}\" is for \"{first}\"; only identical monsters share an initiative roll",
                        unit.id, unit.creature
                    ),
                );
            }
        }
        if let (Some(side), Some(zone), Some(creature)) = (side, zone, creature) {
            match unit_template(unit, creature, side, zone, &level, &catalog, &ruleset) {
                Ok(mut template) => {
                    if let Some(scale) = squares_per_zone {
                        template.scale_to_squares(scale);
                    }
                    // Encumbrance (`C-MOVE-1`): the tier of the load sets the speed, unless the
                    // level sets the speed itself.
                    if let Some(load) = unit.load
                        && unit.speed.is_none()
                        && let Some(&(_, speed)) = ruleset
                            .movement
                            .encumbrance
                            .iter()
                            .find(|(most, _)| load <= *most)
                            .or(ruleset.movement.encumbrance.last())
                    {
                        template.speed.0 = speed;
                    }
                    let feats = creature.feats.iter().chain(&unit.feats);
                    template.apply_feats(feats, squares_per_zone.is_some());
                    units.push(template)
                }
                Err((field, value, message)) => invalid(field, &value, 0, format!("unit \"{}\": {message}", unit.id)),
            }
        }
    }
    let mut crowded: Vec<(&ZoneIdx, &u32)> = starting_per_zone.iter().collect();
    crowded.sort_unstable();
    for (&zone, &count) in crowded {
        let def = battlefield.zone(zone);
        if let Some(capacity) = def.capacity
            && count > capacity
        {
            let units = if count == 1 { "unit" } else { "units" };
            let message = match def.square {
                Some(square) => {
                    format!("{count} units start on square ({}, {}); a square holds one", square.x, square.y)
                }
                None => {
                    format!("zone \"{}\" holds {count} {units} at the start but its capacity is {capacity}", def.id)
                }
            };
            invalid("id", &def.id, 0, message);
        }
    }
    for (at, side) in level.sides.iter().enumerate() {
        if !level.units.iter().any(|unit| side_index.get(unit.side.as_str()) == Some(&at)) {
            invalid(
                "name",
                &side.name,
                0,
                format!("side \"{}\" has no units; every side needs at least one", side.name),
            );
        }
    }

    // Summoned units wait for a summoner of their own side.
    for unit in &level.units {
        let Some(summoner) = &unit.summoned_by else { continue };
        match level.units.iter().find(|other| &other.id == summoner) {
            None => invalid(
                "summoned_by",
                summoner,
                0,
                format!(
                    "unit \"{}\": {}",
                    unit.id,
                    not_found("unit", summoner, &level.units.iter().map(|unit| unit.id.as_str()).collect::<Vec<_>>())
                ),
            ),
            Some(other) if other.side != unit.side => invalid(
                "summoned_by",
                summoner,
                0,
                format!(
                    "unit \"{}\" is summoned by \"{summoner}\" of another side; expected a unit of its own side",
                    unit.id
                ),
            ),
            Some(_) if unit.arrives.is_some() => invalid(
                "summoned_by",
                summoner,
                0,
                format!(
                    "unit \"{}\" both arrives and is summoned; expected one of `arrives` or `summoned_by`",
                    unit.id
                ),
            ),
            Some(_) => {}
        }
    }

    // Victory conditions.
    let unit_names: Vec<&str> = level.units.iter().map(|unit| unit.id.as_str()).collect();
    let mut victory = Vec::new();
    for condition in &level.victory {
        match condition {
            VictoryFile::Survive { side, rounds } => match side_index.get(side.as_str()) {
                Some(&side) => victory.push(VictoryTemplate::Survive { side, rounds: *rounds }),
                None => {
                    invalid("side", side, 0, format!("victory condition: {}", not_found("side", side, &side_names)))
                }
            },
            VictoryFile::Eliminate { unit, side } => {
                let target = level.units.iter().position(|candidate| &candidate.id == unit);
                if target.is_none() {
                    invalid("unit", unit, 0, format!("victory condition: {}", not_found("unit", unit, &unit_names)));
                }
                let winner = side_index.get(side.as_str()).copied();
                if winner.is_none() {
                    invalid("side", side, 0, format!("victory condition: {}", not_found("side", side, &side_names)));
                }
                if let (Some(unit), Some(side)) = (target, winner) {
                    victory.push(VictoryTemplate::Eliminate { unit, side });
                }
            }
        }
    }

    if !errors.is_empty() {
        errors.sort_by_key(|error| match error {
            LoadError::Invalid { line, column, .. } | LoadError::Syntax { line, column, .. } => (*line, *column),
            LoadError::Unreadable { .. } => (0, 0),
        });
        return Err(LoadErrors(errors));
    }
    let sides = level
        .sides
        .iter()
        .zip(party_sides(&level.sides))
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
        .collect();
    Ok(BattleTemplate {
        level_name: level.name.clone(),
        description: level.description.clone(),
        source: path.to_path_buf(),
        seed: level.seed,
        declaration_order: level.declaration_order,
        battlefield,
        sides,
        units,
        victory,
        injuries: catalog.injuries.clone(),
        ruleset,
    })
}

type Invalid<'a> = dyn FnMut(&str, &str, usize, String) + 'a;

fn check_catalog(catalog: &Catalog, invalid: &mut Invalid) {
    let weapon_names: Vec<&str> = catalog.weapons.keys().map(String::as_str).collect();
    let armour_names: Vec<&str> = catalog.armour.keys().map(String::as_str).collect();
    let spell_names: Vec<&str> = catalog.spells.keys().map(String::as_str).collect();
    let item_names: Vec<&str> = catalog.items.keys().map(String::as_str).collect();
    for (name, creature) in &catalog.creatures {
        for weapon in std::iter::once(&creature.weapon).chain(creature.offhand.iter()) {
            if !catalog.weapons.contains_key(weapon) {
                invalid(
                    "weapon",
                    weapon,
                    0,
                    format!("creature \"{name}\": {}", not_found("weapon", weapon, &weapon_names)),
                );
            }
        }
        if let Some(armour) = &creature.armour
            && !catalog.armour.contains_key(armour)
        {
            invalid(
                "armour",
                armour,
                0,
                format!("creature \"{name}\": {}", not_found("armour", armour, &armour_names)),
            );
        }
        for spell in &creature.spells {
            if !catalog.spells.contains_key(spell) {
                invalid(
                    "spells",
                    spell,
                    0,
                    format!("creature \"{name}\": {}", not_found("spell", spell, &spell_names)),
                );
            }
        }
        for (item, _) in &creature.items {
            if !catalog.items.contains_key(item) {
                invalid("items", item, 0, format!("creature \"{name}\": {}", not_found("item", item, &item_names)));
            }
        }
        if let Some(icon) = &creature.icon
            && !is_icon(icon)
        {
            invalid("icon", icon, 0, format!("creature \"{name}\": {}", unknown_icon(icon)));
        }
    }
    for (name, item) in &catalog.items {
        if item.thrown && !matches!(item.effect, Effect::Damage { .. }) {
            invalid(
                "thrown",
                name,
                0,
                format!("item \"{name}\" is thrown but does not deal damage; expected `effect: Damage(...)`"),
            );
        }
    }
}

/// Highest attribute score a level may give (scores below 0 make no sense).
const MAX_SCORE: i32 = 1000;
/// Largest flat bonus (Defense, Wound Points, Mana) in either direction.
const MAX_BONUS: i32 = 10_000;

/// Most dice and sides a Hit Dice expression may have before Stress is absurd.
const MAX_HIT_DICE: u32 = 100;

fn unit_template(
    unit: &UnitFile,
    creature: &CreatureFile,
    side: usize,
    zone: ZoneIdx,
    level: &LevelFile,
    catalog: &Catalog,
    ruleset: &Ruleset,
) -> Result<UnitTemplate, (&'static str, String, String)> {
    let weapon_names: Vec<&str> = catalog.weapons.keys().map(String::as_str).collect();
    let lookup_weapon = |name: &str| {
        catalog
            .weapons
            .get(name)
            .cloned()
            .ok_or_else(|| ("weapon", name.to_string(), not_found("weapon", name, &weapon_names)))
    };
    let weapon_name = unit.weapon.clone().unwrap_or_else(|| creature.weapon.clone());
    let weapon = lookup_weapon(&weapon_name)?;
    let offhand = match unit.offhand.clone().or_else(|| creature.offhand.clone()) {
        Some(name) => Some((Arc::from(name.as_str()), lookup_weapon(&name)?)),
        None => None,
    };
    let unarmed = catalog.weapons.get("unarmed").cloned().unwrap_or_else(fallback_unarmed);
    let armour_name = unit.armour.clone().or_else(|| creature.armour.clone());
    let armour = match &armour_name {
        Some(name) => catalog.armour.get(name).cloned().ok_or_else(|| {
            let known: Vec<&str> = catalog.armour.keys().map(String::as_str).collect();
            ("armour", name.clone(), not_found("armour", name, &known))
        })?,
        None => Default::default(),
    };
    let spell_names: Vec<&str> = catalog.spells.keys().map(String::as_str).collect();
    let spells = unit
        .spells
        .clone()
        .unwrap_or_else(|| creature.spells.clone())
        .into_iter()
        .map(|name| match catalog.spells.get(&name) {
            Some(spell) => Ok((Arc::from(name.as_str()), spell.clone())),
            None => Err(("spells", name.clone(), not_found("spell", &name, &spell_names))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let item_names: Vec<&str> = catalog.items.keys().map(String::as_str).collect();
    let inventory = unit
        .items
        .clone()
        .unwrap_or_else(|| creature.items.clone())
        .into_iter()
        .map(|(name, count)| match catalog.items.get(&name) {
            Some(item) => Ok(ItemStack { name: Arc::from(name.as_str()), item: item.clone(), count }),
            None => Err(("items", name.clone(), not_found("item", &name, &item_names))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let hit_dice = unit.hd.unwrap_or(creature.hd);
    if hit_dice.count > MAX_HIT_DICE {
        return Err(("hd", hit_dice.to_string(), format!("Hit Dice {hit_dice} are more than {MAX_HIT_DICE} dice")));
    }
    let attributes = Attributes(unit.attributes.unwrap_or(creature.attributes).scores());
    let strength = attributes.score(Attribute::Strength);
    let stress_max = maximum_stress(ruleset, Dice { modifier: 0, ..hit_dice }, ruleset.attributes.modifier(strength))
        .saturating_add(hit_dice.modifier);
    // One hit-point pool: the Hit Dice give it, as they give Stress in seed 000.
    let (stress_max, wounds_max) = match ruleset.damage.pools {
        Pools::StressAndWounds => (stress_max, strength.saturating_add(creature.wounds_bonus)),
        Pools::HitPoints => (0, stress_max.max(1).saturating_add(creature.wounds_bonus)),
    };
    let scores = attributes.0;
    if let Some(score) = scores.iter().find(|score| !(0..=MAX_SCORE).contains(*score)) {
        return Err((
            "attributes",
            String::new(),
            format!("attribute score {score} is out of range; expected 0 to {MAX_SCORE}"),
        ));
    }
    let numbers = [creature.defense, creature.wounds_bonus, creature.mana];
    if let Some(number) = numbers.iter().find(|number| number.unsigned_abs() > MAX_BONUS as u32) {
        return Err((
            "defense",
            String::new(),
            format!(
                "{number} is out of range for a defense, wounds or mana bonus; expected -{MAX_BONUS} to {MAX_BONUS}"
            ),
        ));
    }
    let skills = unit.skills.unwrap_or(creature.skills);
    let side_file = &level.sides[side];
    let icon = unit.icon.as_deref().or(creature.icon.as_deref()).unwrap_or_else(|| weapon_icon(&weapon_name, &weapon));
    Ok(UnitTemplate {
        id: unit.id.as_str().into(),
        name: unit.name.clone().unwrap_or_else(|| creature.name.clone()),
        side,
        zone,
        surprised: unit.surprised.unwrap_or(side_file.surprised),
        initiative_group: unit.initiative_group.as_deref().map(Arc::from),
        arrives: unit
            .arrives
            .map(|arrival| Reinforcement { round: arrival.round, at_initiative: arrival.at_initiative }),
        checks_morale: side_file.checks_morale || creature.checks_morale,
        initiated: unit.initiated,
        level: Level(creature.level.max(1)),
        summoning_slots: creature.level.max(1),
        summoned_by: unit.summoned_by.as_ref().and_then(|summoner| {
            level.units.iter().position(|other| &other.id == summoner).map(|at| (at, unit.thrall))
        }),
        attributes,
        hit_dice: HitDice(Dice { modifier: 0, ..hit_dice }),
        stress: Stress { current: stress_max.max(0), max: stress_max.max(0) },
        wounds: Wounds { current: wounds_max, max: wounds_max, injuries: Vec::new() },
        // An Armour Class ruleset counts armour toward Defense instead of soaking damage.
        defense: Defense {
            bonus: creature
                .defense
                .saturating_add(armour.defense)
                .saturating_add(if ruleset.attack.armour_is_defense { armour.armour } else { 0 }),
        },
        armour: Armour(if ruleset.attack.armour_is_defense { 0 } else { armour.armour }),
        speed: Speed(unit.speed.or(ruleset.movement.speed).unwrap_or(creature.speed)),
        loadout: Loadout {
            weapon_name: weapon_name.as_str().into(),
            weapon,
            offhand,
            unarmed,
            armour_name: armour_name.as_deref().map(Arc::from),
            shield: armour.shield,
            sneak_dice: 0,
        },
        skills: Skills {
            attack: skills.attack,
            heal: skills.heal,
            intimidation: skills.intimidation,
            spellcasting: skills.spellcasting,
        },
        mana: Mana { current: creature.mana, max: creature.mana },
        spells: Spells(spells),
        inventory: Inventory(inventory),
        icon: Arc::from(icon),
    })
}

/// Fists, for catalogs that define no `unarmed` weapon.
fn fallback_unarmed() -> crate::rules::equipment::Weapon {
    crate::rules::equipment::Weapon {
        damage: Dice::new(1, 3),
        damage_type: crate::rules::equipment::DamageType::Blunt,
        speed: 0,
        critical_multiplier: 2,
        critical_natural: None,
        reach: 0,
        range: None,
        attack_bonus: 0,
        shock: None,
        ongoing: None,
        hinders: None,
    }
}

/// What kind of file `fray check` was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A level.
    Level,
    /// A ruleset.
    Ruleset,
    /// A catalog file (`creatures.ron`, ...).
    Catalog(&'static str),
}

/// Guesses a file's kind from its name and first value.
pub fn file_kind(path: &Path, text: &str) -> FileKind {
    const CATALOG_FILES: [&str; 6] =
        ["creatures.ron", "weapons.ron", "armour.ron", "spells.ron", "items.ron", "injuries.ron"];
    let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    if let Some(known) = CATALOG_FILES.iter().find(|known| **known == name) {
        return FileKind::Catalog(known);
    }
    let first_value =
        text.lines().map(str::trim).find(|line| !line.is_empty() && !line.starts_with("//")).unwrap_or_default();
    let in_rulesets = path.parent().and_then(Path::file_name).is_some_and(|dir| dir == "rulesets");
    if first_value.starts_with("Ruleset") || in_rulesets { FileKind::Ruleset } else { FileKind::Level }
}

/// Checks one file of any kind; `Ok` carries a one-line summary.
pub fn check_file(path: &Path) -> Result<String, LoadErrors> {
    let text = read_text(path)?;
    let source = AssetSource::near(path);
    match file_kind(path, &text) {
        FileKind::Level => {
            let template = load_level_text(&text, path, &source)?;
            Ok(format!(
                "level \"{}\": {} zones, {} sides, {} units, ruleset {}",
                template.level_name,
                template.battlefield.len(),
                template.sides.len(),
                template.units.len(),
                template.ruleset.name
            ))
        }
        FileKind::Ruleset => {
            parse::<Ruleset>(&text, path).map(|ruleset| format!("ruleset \"{}\"", ruleset.name)).map_err(Into::into)
        }
        FileKind::Catalog(name) => {
            // A catalog file is checked together with its siblings, as a level would load them.
            let siblings = AssetSource { dir: path.parent().map(Path::to_path_buf) };
            let catalog = Catalog::load(&siblings)?;
            let count = match name {
                "creatures.ron" => catalog.creatures.len(),
                "weapons.ron" => catalog.weapons.len(),
                "armour.ron" => catalog.armour.len(),
                "spells.ron" => catalog.spells.len(),
                "items.ron" => catalog.items.len(),
                _ => catalog.injuries.0.len(),
            };
            let map = SourceMap::new(&text);
            let mut errors = Vec::new();
            check_catalog(&catalog, &mut |field: &str, value: &str, nth: usize, message: String| {
                let (line, column) = map.locate(field, value, nth);
                errors.push(LoadError::Invalid { path: PathBuf::from(path), line, column, message });
            });
            if errors.is_empty() { Ok(format!("{name}: {count} entries")) } else { Err(LoadErrors(errors)) }
        }
    }
}

/// Loads one of the levels built into the binary.
pub fn load_builtin_level(file_name: &str) -> Result<BattleTemplate, LoadErrors> {
    let text = super::catalog::builtin::LEVELS
        .iter()
        .find(|(name, _)| *name == file_name)
        .map(|(_, text)| *text)
        .unwrap_or_default();
    let path = PathBuf::from(format!("<built-in>/levels/{file_name}"));
    let source = AssetSource::default();
    load_level_text(text, &path, &source)
}
