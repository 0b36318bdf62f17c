//! A checked level, ready to spawn: every unit's components resolved once, so a battle (or a
//! thousand simulated ones) starts by cloning them into a fresh world.

use std::path::PathBuf;
use std::sync::Arc;

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
    pub mods: Vec<crate::levels::mods::ModStamp>,
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
            .map(|(order, unit)| self.spawn_unit(world, setup, &mut index, order, unit))
            .collect();
        for (unit, &entity) in self.units.iter().zip(&entities) {
            if let Some((summoner, thrall)) = unit.summoned_by
                && let Some(&summoner) = entities.get(summoner)
            {
                world.entity_mut(entity).insert(Summoned { summoner, thrall });
            }
        }
        world.insert_resource(index);
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
    /// in `index`.
    fn spawn_unit(
        &self,
        world: &mut World,
        setup: &BattleSetup,
        index: &mut ZoneIndex,
        order: usize,
        unit: &UnitTemplate,
    ) -> Entity {
        let loadout = &unit.loadout;
        for weapon in std::iter::once(&loadout.weapon).chain(loadout.offhand.as_ref().map(|(_, weapon)| weapon)) {
            if !weapon.is_ranged() {
                index.note_reach(weapon.reach);
            }
        }
        let controller = setup
            .controllers
            .iter()
            .find(|(side, _)| *side == unit.side)
            .map(|(_, controller)| *controller)
            .unwrap_or(self.sides[unit.side].controller);
        let mut entity = world.spawn(unit_bundle(unit, order, controller));
        // Inserted one by one in this order: the order archetypes are made in sets the order
        // queries (and so the log) visit units in.
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

/// Spawns a unit a spell creates from its creature's `template`: on the field at once, sick,
/// and summoned by its caster, so it vanishes when the battle ends unless it is a thrall its
/// caster pays for (`A-SUMM-1`).
fn spawn_conjured(commands: &mut Commands, template: &UnitTemplate, call: Conjuring) -> Entity {
    let unit = UnitTemplate { id: call.id, zone: call.zone, arrives: None, ..template.clone() };
    let mut entity = commands.spawn(unit_bundle(&unit, call.order as usize, call.controller));
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
fn unit_bundle(unit: &UnitTemplate, order: usize, controller: Controller) -> impl Bundle {
    (
        (
            UnitId(unit.id.clone()),
            Name::new(unit.name.clone()),
            SideIndex(unit.side),
            SpawnOrder(order as u32),
            controller,
            if unit.arrives.is_some() { Status::Reserve } else { Status::Active },
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
