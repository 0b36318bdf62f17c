//! The unit query and the combat numbers derived from its components (Defense, Speed, modifiers).

use std::ops::Deref;

use bevy::ecs::query::{QueryData, QueryEntityError, QueryIter};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::components::*;
use super::equipment::Attribute;
use super::ruleset::Ruleset;

/// Everything the stages read or change on a unit, in parts a stage or a view may also fetch
/// alone (`Query<Standing>`, `Query<(Entity, BodyReadOnly)>`): a look-up sets up only the
/// columns of the parts asked for.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Unit {
    /// The entity.
    pub entity: Entity,
    /// Who it is and where it stands.
    pub standing: Standing,
    /// The creature's own numbers.
    pub body: Body,
    /// What it fights with.
    pub arms: Arms,
    /// Its spells and the mana to cast them.
    pub magic: Magic,
    /// What it has done and may still do this round.
    pub round: RoundState,
}

/// Who a unit is, whose it is, and where and how it stands.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Standing {
    /// Level id.
    pub id: &'static UnitId,
    /// Display name.
    pub name: &'static Name,
    /// Side.
    pub side: &'static SideIndex,
    /// Level order.
    pub order: &'static SpawnOrder,
    /// Who controls it.
    pub controller: &'static Controller,
    /// Status.
    pub status: &'static mut Status,
    /// Zone.
    pub zone: &'static mut Zone,
    /// Not arrived yet.
    pub reinforcement: Option<&'static Reinforcement>,
}

/// The creature's own numbers: what it can take and what it is made of.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Body {
    /// Stress.
    pub stress: &'static mut Stress,
    /// Wound Points.
    pub wounds: &'static mut Wounds,
    /// Attributes.
    pub attributes: &'static mut Attributes,
    /// Hit Dice.
    pub hit_dice: &'static HitDice,
    /// Speed.
    pub speed: &'static Speed,
    /// Skills.
    pub skills: &'static Skills,
    /// Size (`S-MAN-1`).
    pub size: &'static Size,
    /// Checks morale.
    pub checks_morale: Has<ChecksMorale>,
    /// Character level, where the level gives one.
    pub level: Option<&'static Level>,
    /// Character class, where the creature has one (`C-MULTI-1`).
    pub class: Option<&'static CharacterClass>,
}

/// What a unit fights and protects itself with.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Arms {
    /// Defense bonus.
    pub defense: &'static Defense,
    /// Armour.
    pub armour: &'static Armour,
    /// Weapons.
    pub loadout: &'static Loadout,
    /// Items.
    pub inventory: &'static mut Inventory,
}

/// A unit's spells and mana.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Magic {
    /// Mana.
    pub mana: &'static mut Mana,
    /// Spells.
    pub spells: &'static Spells,
}

/// What a unit has done and may still do this round.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct RoundState {
    /// Initiative.
    pub initiative: &'static mut Initiative,
    /// Conditions.
    pub conditions: &'static mut Conditions,
    /// Reactions left.
    pub reactions: &'static mut Reactions,
    /// This round so far.
    pub record: &'static mut RoundRecord,
    /// Declared action.
    pub declared: &'static mut Declared,
    /// Surprised now.
    pub surprised: Has<Surprised>,
}

/// The units a stage may have written since the declare stage last marked threats
/// ([`Threatened`]): every unit a stage looked up for writing through [`UnitsMut`] (a superset
/// of those whose zone, status, conditions or loadout changed), or everyone. Starts as everyone,
/// and anything that writes units other than through [`UnitsMut`] must say everyone
/// ([`touch_everyone`](Self::touch_everyone)): the marking only looks again at the units named.
#[derive(Resource, Debug)]
pub struct TouchedUnits {
    /// Every unit may have changed.
    everyone: bool,
    /// The units looked up for writing (with repeats), while not everyone.
    units: Vec<Entity>,
}

impl Default for TouchedUnits {
    fn default() -> Self {
        Self { everyone: true, units: Vec::new() }
    }
}

impl TouchedUnits {
    /// Notes that `unit` may have changed.
    pub fn touch(&mut self, unit: Entity) {
        if !self.everyone {
            self.units.push(unit);
        }
    }

    /// Notes that any unit may have changed.
    pub fn touch_everyone(&mut self) {
        self.everyone = true;
        self.units.clear();
    }

    /// The units noted since the last call (with repeats), or `None` for everyone; starts over.
    pub(super) fn take(&mut self) -> Option<Vec<Entity>> {
        let everyone = std::mem::take(&mut self.everyone);
        let units = std::mem::take(&mut self.units);
        (!everyone).then_some(units)
    }
}

/// Every unit, to read and to change: each look-up for writing is noted in [`TouchedUnits`].
/// Reads go through the query itself (`Deref`); only writes are noted.
#[derive(SystemParam)]
pub struct UnitsMut<'w, 's> {
    /// The units.
    query: Query<'w, 's, Unit>,
    /// Who was looked up for writing.
    touched: ResMut<'w, TouchedUnits>,
}

impl<'w, 's> Deref for UnitsMut<'w, 's> {
    type Target = Query<'w, 's, Unit>;

    fn deref(&self) -> &Self::Target {
        &self.query
    }
}

impl<'s> UnitsMut<'_, 's> {
    /// `entity`, to change, noted as touched.
    pub fn get_mut(&mut self, entity: Entity) -> Result<UnitItem<'_, 's>, QueryEntityError> {
        self.touched.touch(entity);
        self.query.get_mut(entity)
    }

    /// Every unit, to change: everyone is noted as touched.
    pub fn iter_mut(&mut self) -> QueryIter<'_, 's, Unit, ()> {
        self.touched.touch_everyone();
        self.query.iter_mut()
    }

    /// Notes `entity` as touched: a unit spawned, or changed, through commands.
    pub fn touch(&mut self, entity: Entity) {
        self.touched.touch(entity);
    }

    /// Notes every unit as touched: components inserted through commands.
    pub fn touch_everyone(&mut self) {
        self.touched.touch_everyone();
    }
}

/// For tests: makes the declare stage check, at every pass that looks only at the
/// [`TouchedUnits`], that Bevy's change detection over every unit finds no other unit whose
/// threat could have changed.
#[derive(Resource, Debug, Default)]
pub struct ThreatAudit {
    /// Passes checked.
    pub passes: u64,
    /// Units found changed but not noted as touched, over all passes (should stay 0).
    pub missed: u64,
}

/// Read-only view of a unit, as the AI, the UI and legality checks see it.
pub type UnitView<'w, 's> = UnitReadOnlyItem<'w, 's>;

/// Attribute modifier of a unit.
pub fn modifier(ruleset: &Ruleset, attributes: &Attributes, attribute: Attribute) -> i32 {
    ruleset.attributes.modifier(attributes.score(attribute))
}

/// Defense = base + Agility modifier + bonus (+ full defense, − prone) (`W-HIT-1`, `W-DECL-3`).
pub fn defense_score(ruleset: &Ruleset, attributes: &Attributes, defense: &Defense, conditions: &Conditions) -> i32 {
    let mut score = ruleset.attack.base_defense + modifier(ruleset, attributes, Attribute::Agility) + defense.bonus;
    if conditions.full_defense {
        score += ruleset.attack.full_defense_bonus;
    }
    if conditions.dodging {
        score += ruleset.attack.dodge_bonus.unwrap_or(0);
    }
    score += conditions.dodge_bonus;
    if conditions.prone {
        score -= ruleset.attack.prone_defense_penalty;
    }
    score - conditions.agility_penalty
}

/// Zones the unit may move this round, given its status, conditions and action (`W-MOVE-1`).
pub fn movement_allowance(
    ruleset: &Ruleset,
    speed: Speed,
    status: Status,
    conditions: &Conditions,
    kind: ActionKind,
) -> u32 {
    let stuck = matches!(conditions.hindrance, Some((crate::rules::equipment::Hindrance::Stuck, _)));
    if conditions.paralysed
        || stuck
        || !conditions.grappled_by.is_empty()
        || conditions.grappling.is_some()
        || !status.on_field()
    {
        return 0;
    }
    let rules = &ruleset.movement;
    if status.is_down() && !conditions.stabilised {
        return ruleset.wounds.crawl_zones.min(speed.0);
    }
    let mut zones = speed.0.saturating_sub(conditions.speed_penalty);
    if conditions.prone {
        if rules.prone_speed_divisor == 0 {
            return ruleset.wounds.crawl_zones.min(speed.0);
        }
        zones /= rules.prone_speed_divisor;
    }
    match kind {
        // After a snap attack the Main action is gone: no second move (`S-SPEC-1`).
        // After a held action the Move is gone: a move is the Main action's, at Speed (`S-ACT-2`).
        ActionKind::Move if conditions.snapped || conditions.held_action => {}
        ActionKind::Move => {
            // The extra squares are bought with Bonus Actions: a weakened unit has fewer to spend.
            let extra = rules.move_only_extra * conditions.bonus_actions_left() / BONUS_ACTIONS_PER_TURN;
            zones = zones.saturating_mul(rules.move_only_multiplier.max(1)) + extra
        }
        ActionKind::Charge => {
            zones = zones.saturating_mul(ruleset.attack.charge.as_ref().map_or(1, |charge| charge.speed_multiplier))
        }
        _ => {}
    }
    if conditions.slowed || conditions.stabilised {
        zones /= ruleset.movement.slowed_speed_divisor.max(1);
    }
    if kind == ActionKind::FullDefense {
        zones /= ruleset.movement.full_defense_speed_divisor.max(1);
    }
    zones
}

/// Zones (or squares) the unit may move for this declaration: [`movement_allowance`] for its
/// kind, and any strides its Bonus Actions buy (`A-BONUS-1`) when it can move at all.
pub fn action_allowance(
    ruleset: &Ruleset,
    speed: Speed,
    status: Status,
    conditions: &Conditions,
    action: &Action,
) -> u32 {
    let base = movement_allowance(ruleset, speed, status, conditions, action.kind);
    if base == 0 {
        return 0;
    }
    base + super::bonus::extra_movement(ruleset, conditions, action)
}

/// Whether the unit is weakened: every test it makes is rolled with disadvantage (`Z-HIND-1`).
pub fn weakened(conditions: &Conditions) -> bool {
    matches!(conditions.hindrance, Some((crate::rules::equipment::Hindrance::Weakened, _)))
}

/// Whether the unit is still fighting: on its feet, present, able to act.
pub fn is_fighting(status: Status, conditions: &Conditions) -> bool {
    status == Status::Active && !conditions.paralysed
}

/// Whether the unit may declare and act this round at all.
pub fn may_act(status: Status, conditions: &Conditions, surprised: bool, round: u32) -> bool {
    if !status.on_field()
        || status == Status::Unconscious
        || conditions.paralysed
        || surprised
        || conditions.sick_until.is_some_and(|last| round <= last)
    {
        return false;
    }
    match conditions.acts_every_other_round {
        Some(since) => round.saturating_sub(since) % 2 == 0,
        None => true,
    }
}

/// A second handle on the same read-only view (every field is a shared reference or a copy),
/// so a controller can look each unit up once and reuse the view.
pub fn copy_view<'a, 'w: 'a, 's: 'a>(view: &'a UnitView<'w, 's>) -> UnitView<'a, 'a> {
    UnitReadOnlyItem {
        entity: view.entity,
        standing: StandingReadOnlyItem {
            id: view.standing.id,
            name: view.standing.name,
            side: view.standing.side,
            order: view.standing.order,
            controller: view.standing.controller,
            status: view.standing.status,
            zone: view.standing.zone,
            reinforcement: view.standing.reinforcement,
        },
        body: BodyReadOnlyItem {
            stress: view.body.stress,
            wounds: view.body.wounds,
            attributes: view.body.attributes,
            hit_dice: view.body.hit_dice,
            speed: view.body.speed,
            skills: view.body.skills,
            size: view.body.size,
            checks_morale: view.body.checks_morale,
            level: view.body.level,
            class: view.body.class,
        },
        arms: ArmsReadOnlyItem {
            defense: view.arms.defense,
            armour: view.arms.armour,
            loadout: view.arms.loadout,
            inventory: view.arms.inventory,
        },
        magic: MagicReadOnlyItem { mana: view.magic.mana, spells: view.magic.spells },
        round: RoundStateReadOnlyItem {
            initiative: view.round.initiative,
            conditions: view.round.conditions,
            reactions: view.round.reactions,
            record: view.round.record,
            declared: view.round.declared,
            surprised: view.round.surprised,
        },
    }
}
