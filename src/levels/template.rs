//! A checked level, ready to spawn: every unit's components resolved once, so a battle (or a
//! thousand simulated ones) starts by cloning them into a fresh world.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use bevy::ecs::world::WorldId;
use bevy::prelude::*;

use super::icons::Icon;
use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use crate::rules::components::*;
use crate::rules::dice::CombatRng;
use crate::rules::equipment::InjuryTables;
use crate::rules::log::CombatLog;
use crate::rules::ruleset::{DeclarationOrder, Ruleset};
use crate::rules::{
    CombatInfo, CombatPhase, CombatState, DeclarationQueue, SideInfo, Sides, VictoryCondition, VictoryConditions,
};

/// The pictures mods bring to a level, by name: where the window reads the PNGs of the icons
/// its units show and of the textures its board names. A unit's [`Icon`] and a look's texture
/// carry only the name (saves hash them, so they must not depend on where the mod folder is).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ModPictures {
    /// Icons (`icons/<name>.png`).
    pub icons: BTreeMap<String, PathBuf>,
    /// Terrain textures (`textures/<name>.png`).
    pub textures: BTreeMap<String, PathBuf>,
}

/// A side as the level sets it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideTemplate {
    /// Name.
    pub name: Arc<str>,
    /// Default controller.
    pub controller: Controller,
    /// The player characters' side.
    pub party: bool,
    /// Shift of the enemies' surprise range (`C-SURP-1`).
    pub surprise_range: i32,
    /// Its creatures roll for their reaction (`Z-REACT-1`).
    pub unscripted: bool,
}

/// A unit with every number resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitTemplate {
    /// Level id.
    pub id: Arc<str>,
    /// Display name.
    pub name: String,
    /// Side index.
    pub side: usize,
    /// Starting zone.
    pub zone: ZoneIdx,
    /// Surprised at the start.
    pub surprised: bool,
    /// Shared initiative group.
    pub initiative_group: Option<Arc<str>>,
    /// Arrival, for reinforcements.
    pub arrives: Option<Reinforcement>,
    /// Checks morale.
    pub checks_morale: bool,
    /// Started the fight by attacking (`A-INIT-1`).
    pub initiated: bool,
    /// Character level.
    pub level: Level,
    /// Character class, where the creature has one (`C-MULTI-1`).
    pub class: Option<Arc<str>>,
    /// Shift of its own surprise range (`C-SURP-1`).
    pub surprise_shift: i32,
    /// Summoning slots (its level, plus feats).
    pub summoning_slots: u32,
    /// The level position of the unit that summons it, and whether it is a thrall.
    pub summoned_by: Option<(usize, bool)>,
    /// Attributes.
    pub attributes: Attributes,
    /// Hit Dice.
    pub hit_dice: HitDice,
    /// Stress.
    pub stress: Stress,
    /// Wound Points.
    pub wounds: Wounds,
    /// Defense bonus.
    pub defense: Defense,
    /// Armour.
    pub armour: Armour,
    /// Speed.
    pub speed: Speed,
    /// Weapons.
    pub loadout: Loadout,
    /// Skills.
    pub skills: Skills,
    /// Size.
    pub size: Size,
    /// Mana.
    pub mana: Mana,
    /// Spells.
    pub spells: Spells,
    /// Items.
    pub inventory: Inventory,
    /// The picture on its token (a shipped icon name); presentation only.
    pub icon: Arc<str>,
}

impl UnitTemplate {
    /// Applies feats (`A-FEAT-1`): reach, movement, damage dice and sneak damage.
    pub fn apply_feats<'a>(&mut self, feats: impl IntoIterator<Item = &'a super::schema::Feat>, grid: bool) {
        use super::schema::Feat;
        /// Squares the Athlete feat adds.
        const ATHLETE_SQUARES: u32 = 2;
        /// Summoning slots the Legion Leader feat adds.
        const LEGION_LEADER_SLOTS: u32 = 2;
        for feat in feats {
            let loadout = &mut self.loadout;
            let weapons = std::iter::once(&mut loadout.weapon)
                .chain(loadout.offhand.as_mut().map(|(_, weapon)| weapon))
                .chain(std::iter::once(&mut loadout.unarmed));
            match feat {
                Feat::Reach => weapons.filter(|weapon| !weapon.is_ranged()).for_each(|weapon| weapon.reach += 1),
                // Zones are too coarse for two squares; the feat moves nothing there.
                Feat::Athlete if grid => self.speed.0 = self.speed.0.saturating_add(ATHLETE_SQUARES),
                Feat::Athlete => {}
                Feat::WeaponFocus => {
                    weapons.for_each(|weapon| weapon.damage = weapon.damage.with_extra_die());
                    loadout.focus_dice += 1;
                }
                Feat::SneakAttack => loadout.sneak_dice += 1,
                Feat::LegionLeader => self.summoning_slots += LEGION_LEADER_SLOTS,
                Feat::BattleCaster => loadout.battle_caster = true,
                // Difficult ground is where a unit swims, climbs or picks its way (`A-MOVE-1`).
                Feat::Maneuverer => loadout.maneuverer = true,
            }
        }
    }

    /// Converts the zone distances the catalog writes (speed, ranges) into squares, and melee
    /// reach into squares around the unit, for a grid battlefield.
    pub fn scale_to_squares(&mut self, squares_per_zone: u32) {
        let scale = |zones: u32| zones.saturating_mul(squares_per_zone);
        self.speed.0 = scale(self.speed.0);
        let loadout = &mut self.loadout;
        let weapons = std::iter::once(&mut loadout.weapon)
            .chain(loadout.offhand.as_mut().map(|(_, weapon)| weapon))
            .chain(std::iter::once(&mut loadout.unarmed));
        for weapon in weapons {
            match &mut weapon.range {
                Some(range) => *range = scale(*range).max(1),
                None => weapon.reach = weapon.reach.saturating_add(1),
            }
        }
        // Close (range 0) becomes the touching squares: one unit stands on a square.
        for (_, spell) in &mut self.spells.0 {
            spell.range = scale(spell.range).max(1);
        }
        for stack in &mut self.inventory.0 {
            stack.item.range = scale(stack.item.range).max(1);
        }
    }
}

/// A victory condition by unit position in the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VictoryTemplate {
    /// The side survives that many rounds.
    Survive {
        /// Side index.
        side: usize,
        /// Rounds.
        rounds: u32,
    },
    /// The side wins once the unit at this level position is down.
    Eliminate {
        /// Unit position in the level.
        unit: usize,
        /// Side index.
        side: usize,
    },
}

/// A checked level.
#[derive(Clone, Debug)]
pub struct BattleTemplate {
    /// Level name.
    pub level_name: String,
    /// Description.
    pub description: String,
    /// Where it was loaded from.
    pub source: PathBuf,
    /// The level's own seed.
    pub seed: Option<u64>,
    /// Declaration order override.
    pub declaration_order: Option<DeclarationOrder>,
    /// Zones.
    pub battlefield: Battlefield,
    /// How the board looks (the window draws it; no rule reads it).
    pub looks: crate::levels::terrain::BoardLooks,
    /// The pictures of the mods it was loaded with (the window draws them; no rule reads them).
    pub pictures: ModPictures,
    /// Sides.
    pub sides: Vec<SideTemplate>,
    /// Units in level order.
    pub units: Vec<UnitTemplate>,
    /// The creatures its spells and items may create, per (creature, side index) (`A-SUMM-1`).
    pub conjurable: Vec<(Arc<str>, usize, UnitTemplate)>,
    /// Extra victory conditions.
    pub victory: Vec<VictoryTemplate>,
    /// Injury tables.
    pub injuries: InjuryTables,
    /// The ruleset.
    pub ruleset: Ruleset,
    /// The mods its catalog and ruleset were loaded with, for saves to name.
    pub mods: Vec<crate::levels::stamp::ModStamp>,
    /// Its lessons, if it teaches.
    pub lessons: Vec<crate::levels::lessons::Lesson>,
}

/// How to start a battle from a template.
#[derive(Clone, Debug, Default)]
pub struct BattleSetup {
    /// Seed for the combat RNG.
    pub seed: u64,
    /// Controller per side index, overriding the level's.
    pub controllers: Vec<(usize, Controller)>,
    /// Keep a combat log.
    pub record_log: bool,
}

impl BattleTemplate {
    /// Replaces the world's battle with a fresh one from this template: despawns every unit,
    /// resets the resources, spawns the units, and sets the pipeline to its first stage.
    pub fn spawn(&self, world: &mut World, setup: &BattleSetup) {
        self.spawn_along(world, setup, &mut WalkedPaths::default());
        world.insert_resource(self.looks.clone());
        world.insert_resource(self.pictures.clone());
    }

    /// [`Self::spawn`], for a world that keeps `walked` beside it from battle to battle: a unit
    /// whose path of tables an earlier one walked is spawned whole (see [`WalkedPaths`]).
    pub fn spawn_along(&self, world: &mut World, setup: &BattleSetup, walked: &mut WalkedPaths) {
        walked.enter(world.id());
        let old: Vec<Entity> = world.query_filtered::<Entity, With<UnitId>>().iter(world).collect();
        for entity in old {
            world.despawn(entity);
        }
        self.insert_resources(world, setup);
        let mut index = ZoneIndex::new(self.battlefield.len());
        let entities: Vec<Entity> = self
            .units
            .iter()
            .enumerate()
            .map(|(order, unit)| self.spawn_unit(world, setup, (&mut index, &mut *walked), order, unit))
            .collect();
        for (unit, &entity) in self.units.iter().zip(&entities) {
            if let Some((summoner, thrall)) = unit.summoned_by
                && let Some(&summoner) = entities.get(summoner)
            {
                world.entity_mut(entity).insert(Summoned { summoner, thrall });
            }
        }
        crate::battlefield::install_zone_index(world, index);
        // Every unit is new: the declare stage marks threats afresh for all of them.
        world.insert_resource(crate::rules::unit::TouchedUnits::default());
        world.insert_resource(self.victory_conditions(&entities));
        world.insert_resource(self.conjurable(entities.len() as u32));
    }

    /// How this battle's spells create new units (`A-SUMM-1`): each numbered after the level's.
    fn conjurable(&self, next_order: u32) -> Conjurable {
        let creatures = self
            .conjurable
            .iter()
            .map(|(creature, side, template)| {
                let template = template.clone();
                let spawn: ConjureFn =
                    Arc::new(move |commands: &mut Commands, call: Conjuring| spawn_conjured(commands, &template, call));
                (creature.clone(), *side, spawn)
            })
            .collect();
        Conjurable { creatures, next_order, made: Vec::new() }
    }

    /// The battle's fresh resources: rules, field, dice, log, state and sides.
    fn insert_resources(&self, world: &mut World, setup: &BattleSetup) {
        world.insert_resource(self.ruleset.clone());
        world.insert_resource(self.injuries.clone());
        world.insert_resource(self.battlefield.clone());
        world.insert_resource(CombatRng::seeded(setup.seed));
        world.insert_resource(if setup.record_log { CombatLog::default() } else { CombatLog::silent() });
        world.insert_resource(CombatState { phase: CombatPhase::Surprise, ..Default::default() });
        world.insert_resource(DeclarationQueue::default());
        world.insert_resource(crate::rules::Forfeits::default());
        world.insert_resource(Sides(
            self.sides
                .iter()
                .map(|side| SideInfo {
                    name: side.name.clone(),
                    party: side.party,
                    surprise_range: side.surprise_range,
                    unscripted: side.unscripted,
                })
                .collect(),
        ));
        world.insert_resource(CombatInfo {
            level: self.level_name.clone(),
            seed: setup.seed,
            declaration_order: self.declaration_order,
        });
    }

    /// Spawns one unit (the `order`th of the level) and, unless it waits off the field, places it
    /// in `index`. The first unit of its [`ArchetypePath`] in this world gets its optional
    /// components one at a time, later ones all at once (see [`WalkedPaths`]).
    fn spawn_unit(
        &self,
        world: &mut World,
        setup: &BattleSetup,
        (index, walked): (&mut ZoneIndex, &mut WalkedPaths),
        order: usize,
        unit: &UnitTemplate,
    ) -> Entity {
        let loadout = &unit.loadout;
        for weapon in std::iter::once(&loadout.weapon).chain(loadout.offhand.as_ref().map(|(_, weapon)| weapon)) {
            if !weapon.is_ranged() {
                index.note_reach(weapon.reach);
            }
        }
        let controller = self.controller_of(setup, unit);
        let path = ArchetypePath::of(unit);
        let waits = unit.arrives.is_some() || unit.summoned_by.is_some();
        if walked.contains(path) {
            let entity = spawn_whole(world, unit, order, controller);
            if !waits {
                index.insert(entity, unit.zone);
            }
            return entity;
        }
        walked.note(path);
        let mut entity = world.spawn(unit_bundle(unit, order, controller, initial_status(unit)));
        insert_one_by_one(&mut entity, unit);
        if let Some(arrival) = unit.arrives {
            entity.insert(arrival);
        } else if unit.summoned_by.is_some() {
            // Waits out of the battle until called.
            entity.insert(Status::Reserve);
        } else {
            index.insert(entity.id(), unit.zone);
        }
        entity.id()
    }

    /// Who plays `unit`: its side's seat in `setup`, else the level's controller for the side.
    fn controller_of(&self, setup: &BattleSetup, unit: &UnitTemplate) -> Controller {
        setup
            .controllers
            .iter()
            .find(|(side, _)| *side == unit.side)
            .map(|(_, controller)| *controller)
            .unwrap_or(self.sides[unit.side].controller)
    }

    /// The level's extra victory conditions, with unit positions turned into entities.
    fn victory_conditions(&self, entities: &[Entity]) -> VictoryConditions {
        let conditions = self
            .victory
            .iter()
            .map(|condition| match *condition {
                VictoryTemplate::Survive { side, rounds } => VictoryCondition::Survive { side, rounds },
                VictoryTemplate::Eliminate { unit, side } => VictoryCondition::Eliminate { unit: entities[unit], side },
            })
            .collect();
        VictoryConditions(conditions)
    }

    /// The side index called `name`.
    pub fn side_index(&self, name: &str) -> Option<usize> {
        self.sides.iter().position(|side| &*side.name == name)
    }
}

/// The optional components a unit template asks for, inserted one by one in this order: the order
/// archetypes are made in sets the order queries (and so the log) visit units in (see
/// [`WalkedPaths`]). The arrival, or the wait in reserve, comes after them.
fn insert_one_by_one(entity: &mut EntityWorldMut, unit: &UnitTemplate) {
    if unit.surprised {
        entity.insert(Surprised);
    }
    if unit.checks_morale {
        entity.insert(ChecksMorale);
    }
    if unit.initiated {
        entity.insert(Initiator);
    }
    entity.insert(unit.level);
    if let Some(class) = &unit.class {
        entity.insert(CharacterClass(class.clone()));
    }
    if let Some(group) = &unit.initiative_group {
        entity.insert(InitiativeGroup(group.clone()));
    }
    entity.insert(SummoningSlots(unit.summoning_slots));
    if unit.surprise_shift != 0 {
        entity.insert(SurpriseShift(unit.surprise_shift));
    }
}

/// Which of the optional components [`BattleTemplate::spawn_unit`] inserts one at a time a unit
/// has, one bit each: the components, and their order, fix the tables the unit passes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ArchetypePath(u8);

impl ArchetypePath {
    /// The path `unit` takes.
    fn of(unit: &UnitTemplate) -> Self {
        let bits = [
            unit.surprised,
            unit.checks_morale,
            unit.initiated,
            unit.class.is_some(),
            unit.initiative_group.is_some(),
            unit.surprise_shift != 0,
            unit.arrives.is_some(),
        ];
        Self(bits.iter().enumerate().fold(0, |path, (bit, &has)| path | (u8::from(has) << bit)))
    }
}

/// The [`ArchetypePath`]s some unit of one world was spawned along, one component at a time.
///
/// Queries visit units table by table, in the order the tables were made, and the log follows
/// that order. Inserting a unit's optional components one by one makes a table for each step
/// (one a later unit may end in, or one a unit moves into mid-battle when a component is taken
/// away), so the first unit of each path in a world goes that way. Bevy never drops a table, so
/// once a path has been walked every table on it exists, and a later unit of the same path can be
/// spawned whole, straight into the last one, in the same place: about half of a 4-vs-4 battle's
/// set-up was the one-by-one inserts.
///
/// Kept beside the world, not in it: a resource is an entity, and a new one would shift the
/// entities of the units spawned after it, which the keyed dice read.
#[derive(Clone, Debug, Default)]
pub struct WalkedPaths {
    /// The world the paths were walked in.
    world: Option<WorldId>,
    /// One bit per [`ArchetypePath`].
    paths: u128,
}

impl WalkedPaths {
    /// Forgets the paths if they were walked in another world than `world`.
    fn enter(&mut self, world: WorldId) {
        if self.world != Some(world) {
            *self = Self { world: Some(world), paths: 0 };
        }
    }

    /// Whether `path` was walked in this world.
    fn contains(&self, path: ArchetypePath) -> bool {
        self.paths & (1 << path.0) != 0
    }

    /// `path` has been walked.
    fn note(&mut self, path: ArchetypePath) {
        self.paths |= 1 << path.0;
    }
}

/// How a unit of the level starts: waiting off the field until it arrives or is called, or on it.
fn initial_status(unit: &UnitTemplate) -> Status {
    if unit.arrives.is_some() || unit.summoned_by.is_some() { Status::Reserve } else { Status::Active }
}

/// Spawns a unit of the level with its components at once: only where its [`ArchetypePath`] was
/// walked before in this world (see [`WalkedPaths`]). It lands in the table the one-by-one inserts
/// reach with `SummoningSlots`, and its surprise shift and arrival, if any, follow one at a time
/// as they do there: every table it meets is on the walked path.
fn spawn_whole(world: &mut World, unit: &UnitTemplate, order: usize, controller: Controller) -> Entity {
    let base =
        (unit_bundle(unit, order, controller, initial_status(unit)), unit.level, SummoningSlots(unit.summoning_slots));
    let mut entity = match (unit.surprised, unit.checks_morale, unit.initiated) {
        (false, false, false) => spawn_with_labels(world, unit, base),
        (true, false, false) => spawn_with_labels(world, unit, (base, Surprised)),
        (false, true, false) => spawn_with_labels(world, unit, (base, ChecksMorale)),
        (true, true, false) => spawn_with_labels(world, unit, (base, Surprised, ChecksMorale)),
        (false, false, true) => spawn_with_labels(world, unit, (base, Initiator)),
        (true, false, true) => spawn_with_labels(world, unit, (base, Surprised, Initiator)),
        (false, true, true) => spawn_with_labels(world, unit, (base, ChecksMorale, Initiator)),
        (true, true, true) => spawn_with_labels(world, unit, (base, Surprised, ChecksMorale, Initiator)),
    };
    if unit.surprise_shift != 0 {
        entity.insert(SurpriseShift(unit.surprise_shift));
    }
    if let Some(arrival) = unit.arrives {
        entity.insert(arrival);
    }
    entity.id()
}

/// Spawns `bundle` with the unit's class and initiative group, where it has them.
fn spawn_with_labels<'w>(world: &'w mut World, unit: &UnitTemplate, bundle: impl Bundle) -> EntityWorldMut<'w> {
    let class = unit.class.clone().map(CharacterClass);
    let group = unit.initiative_group.clone().map(InitiativeGroup);
    match (class, group) {
        (Some(class), Some(group)) => world.spawn((bundle, class, group)),
        (Some(class), None) => world.spawn((bundle, class)),
        (None, Some(group)) => world.spawn((bundle, group)),
        (None, None) => world.spawn(bundle),
    }
}

/// Spawns a unit a spell creates from its creature's `template`: on the field at once, sick,
/// and summoned by its caster, so it vanishes when the battle ends unless it is a thrall its
/// caster pays for (`A-SUMM-1`).
fn spawn_conjured(commands: &mut Commands, template: &UnitTemplate, call: Conjuring) -> Entity {
    let unit = UnitTemplate { id: call.id, zone: call.zone, arrives: None, ..template.clone() };
    let mut entity = commands.spawn(unit_bundle(&unit, call.order as usize, call.controller, Status::Active));
    if unit.checks_morale {
        entity.insert(ChecksMorale);
    }
    entity.insert((
        unit.level,
        SummoningSlots(unit.summoning_slots),
        Summoned { summoner: call.summoner, thrall: call.thrall },
        Conditions { sick_until: Some(call.sick_until), ..Conditions::default() },
    ));
    if let Some(class) = &unit.class {
        entity.insert(CharacterClass(class.clone()));
    }
    entity.id()
}

/// The components every unit starts with.
fn unit_bundle(unit: &UnitTemplate, order: usize, controller: Controller, status: Status) -> impl Bundle {
    (
        (
            UnitId(unit.id.clone()),
            Name::new(unit.name.clone()),
            SideIndex(unit.side),
            SpawnOrder(order as u32),
            controller,
            status,
            Zone(unit.zone),
            Initiative::default(),
            unit.stress,
            unit.wounds.clone(),
            unit.attributes,
            unit.hit_dice,
            unit.defense,
            unit.armour,
            unit.speed,
        ),
        (
            unit.loadout.clone(),
            Conditions::default(),
            unit.skills,
            unit.size,
            unit.mana,
            unit.spells.clone(),
            unit.inventory.clone(),
            Reactions::default(),
            RoundRecord::default(),
            Declared::default(),
            // Spawned with the rest, not inserted later, so every unit's archetype gains it
            // alike and query order (which the log follows) stays as it was.
            Icon(unit.icon.clone()),
        ),
    )
}
