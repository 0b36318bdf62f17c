//! The search AI's forward model: the real rules code, run in a private headless world that is
//! rebuilt from a plain-data snapshot of the battle, so a declaration can be tried, a round
//! resolved with dice of the AI's own choosing, and the result read back.

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;

use super::view::{ForcedDeclarations, SnapshotData, SnapshotDataItem};
use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use crate::rules::components::*;
use crate::rules::dice::CombatRng;
use crate::rules::equipment::InjuryTables;
use crate::rules::log::CombatLog;
use crate::rules::ruleset::Ruleset;
use crate::rules::{
    ActionLost, CombatInfo, CombatPhase, CombatState, DeclarationQueue, Sides, Slot, VictoryCondition,
    VictoryConditions,
};

/// Schedule runs one simulated round may take at most: turn-based rulesets declare and resolve
/// once per turn, and a round has at most one turn per unit.
const MAX_UPDATES_PER_ROUND: u32 = 256;

/// One unit as plain data.
#[derive(Clone, Debug)]
pub struct UnitState {
    /// The unit in the real world.
    pub entity: Entity,
    /// Its side.
    pub side: usize,
    /// Its level order.
    pub order: u32,
    core: (UnitId, Name, SideIndex, SpawnOrder, Status, Zone, Initiative, Stress, Wounds, Attributes, HitDice),
    gear: (Defense, Armour, Speed, Loadout, Conditions, Skills, Mana, Spells, Inventory, Reactions, RoundRecord),
    declared: Declared,
    size: Size,
    class: Option<CharacterClass>,
    surprised: bool,
    checks_morale: bool,
    initiator: bool,
    threatened: bool,
    stood_aside: bool,
    level: Option<Level>,
    group: Option<InitiativeGroup>,
    slots: Option<SummoningSlots>,
    reinforcement: Option<Reinforcement>,
    summoned: Option<Summoned>,
}

impl UnitState {
    /// Its id in the level and the log.
    pub fn id(&self) -> &str {
        &self.core.0.0
    }

    /// Its declaration this round, as the snapshot holds it.
    pub fn declared_action(&self) -> Option<Action> {
        self.declared.action
    }

    /// Copies one unit.
    pub fn capture(data: &SnapshotDataItem) -> Self {
        let (unit, markers) = (&data.unit, &data.markers);
        Self {
            entity: unit.entity,
            side: unit.standing.side.0,
            order: unit.standing.order.0,
            core: (
                unit.standing.id.clone(),
                unit.standing.name.clone(),
                *unit.standing.side,
                *unit.standing.order,
                *unit.standing.status,
                *unit.standing.zone,
                *unit.round.initiative,
                *unit.body.stress,
                unit.body.wounds.clone(),
                *unit.body.attributes,
                *unit.body.hit_dice,
            ),
            gear: (
                *unit.arms.defense,
                *unit.arms.armour,
                *unit.body.speed,
                unit.arms.loadout.clone(),
                unit.round.conditions.clone(),
                *unit.body.skills,
                *unit.magic.mana,
                unit.magic.spells.clone(),
                unit.arms.inventory.clone(),
                *unit.round.reactions,
                *unit.round.record,
            ),
            declared: *unit.round.declared,
            size: *unit.body.size,
            class: unit.body.class.cloned(),
            surprised: unit.round.surprised,
            checks_morale: unit.body.checks_morale,
            initiator: markers.initiator,
            threatened: markers.threatened,
            stood_aside: markers.stood_aside,
            level: unit.body.level.copied(),
            group: markers.group.cloned(),
            slots: markers.slots.copied(),
            reinforcement: unit.standing.reinforcement.copied(),
            summoned: markers.summoned.copied(),
        }
    }
}

/// The battle as plain data, at a declaration: units and the pipeline's state. Nothing of the
/// combat dice is kept, and only what `viewer` may know of the declarations.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Units in level order.
    pub units: Vec<UnitState>,
    state: CombatState,
    queue: DeclarationQueue,
    index: ZoneIndex,
    victory: VictoryConditions,
    sides: Sides,
    info: CombatInfo,
    ruleset: Ruleset,
    injuries: InjuryTables,
    battlefield: Battlefield,
}

/// The resources a snapshot copies, borrowed.
pub struct SnapshotSources<'a> {
    /// Round, phase and schedule.
    pub state: &'a CombatState,
    /// Who declares.
    pub queue: &'a DeclarationQueue,
    /// Who stands where.
    pub index: &'a ZoneIndex,
    /// Extra victory conditions.
    pub victory: &'a VictoryConditions,
    /// Sides.
    pub sides: &'a Sides,
    /// The battle's name and seed.
    pub info: &'a CombatInfo,
    /// Rules.
    pub ruleset: &'a Ruleset,
    /// Injury tables.
    pub injuries: &'a InjuryTables,
    /// Zones.
    pub battlefield: &'a Battlefield,
}

impl Snapshot {
    /// Copies the battle as `viewer` may see it: when declarations are secret, every other
    /// side's declaration this round is wiped and its units wait to declare again (the search
    /// plays them with its own model of the enemy).
    pub fn capture<'a>(
        units: impl Iterator<Item = SnapshotDataItem<'a, 'a>>,
        sources: SnapshotSources,
        viewer: Option<usize>,
    ) -> Self {
        let mut units: Vec<UnitState> = units.map(|unit| UnitState::capture(&unit)).collect();
        units.sort_by_key(|unit| unit.order);
        let mut queue = sources.queue.clone();
        if let Some(viewer) = viewer
            && queue.secret
        {
            let hidden: Vec<Entity> = units.iter().filter(|unit| unit.side != viewer).map(|unit| unit.entity).collect();
            for unit in units.iter_mut().filter(|unit| unit.side != viewer) {
                unit.declared = Declared { previous: unit.declared.previous, ..Declared::default() };
            }
            let done: Vec<bool> =
                queue.order.iter().zip(&queue.done).map(|(unit, &done)| done && !hidden.contains(unit)).collect();
            let (order, secret, late) = (queue.order.clone(), queue.secret, queue.late);
            queue.begin(order.clone(), secret, late);
            for (unit, done) in order.iter().zip(done) {
                if done {
                    queue.mark_done(*unit);
                }
            }
        }
        Self {
            units,
            state: sources.state.clone(),
            queue,
            index: sources.index.clone(),
            victory: sources.victory.clone(),
            sides: sources.sides.clone(),
            info: sources.info.clone(),
            ruleset: sources.ruleset.clone(),
            injuries: sources.injuries.clone(),
            battlefield: sources.battlefield.clone(),
        }
    }

    /// Copies the whole battle from a world (tests, benchmarks): everything, declarations included.
    pub fn from_world(world: &mut World) -> Self {
        Self::from_world_as(world, None)
    }

    /// Copies the battle from a world as `viewer` may see it (see [`capture`](Self::capture)).
    pub fn from_world_as(world: &mut World, viewer: Option<usize>) -> Self {
        let mut query = world.query::<SnapshotData>();
        let sources = SnapshotSources {
            state: world.resource::<CombatState>(),
            queue: world.resource::<DeclarationQueue>(),
            index: world.resource::<ZoneIndex>(),
            victory: world.resource::<VictoryConditions>(),
            sides: world.resource::<Sides>(),
            info: world.resource::<CombatInfo>(),
            ruleset: world.resource::<Ruleset>(),
            injuries: world.resource::<InjuryTables>(),
            battlefield: world.resource::<Battlefield>(),
        };
        Self::capture(query.iter(world), sources, viewer)
    }

    /// Whether `unit` counts as having declared in this pass.
    pub fn has_declared(&self, unit: Entity) -> bool {
        self.queue.order.iter().position(|&other| other == unit).is_some_and(|at| self.queue.done[at])
    }

    /// The round the snapshot was taken in.
    pub fn round(&self) -> u32 {
        self.state.round
    }

    /// The unit that is `entity` in the real world.
    pub fn unit(&self, entity: Entity) -> Option<&UnitState> {
        self.units.iter().find(|unit| unit.entity == entity)
    }
}

/// How a simulated round came out, for the evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundResult {
    /// The winning side, if the battle ended.
    pub winner: Option<usize>,
    /// Whether the battle ended.
    pub over: bool,
}

/// A private headless world with the rules in it, loaded from a [`Snapshot`].
pub struct ForwardModel {
    /// A world taken out of a headless app (a world, unlike an app, may live in a system's state).
    world: World,
    /// Real entity to simulated entity.
    to_sim: EntityHashMap<Entity>,
    /// Simulated entity to real entity.
    to_real: EntityHashMap<Entity>,
    /// The simulated units, in snapshot order.
    sim_units: Vec<Entity>,
    /// Where reading the world's lost actions left off.
    lost_cursor: MessageCursor<ActionLost>,
    /// Simulated units whose action came to nothing since the last reset, with the round.
    lost: Vec<(Entity, u32)>,
}

impl Default for ForwardModel {
    fn default() -> Self {
        Self::new()
    }
}

impl ForwardModel {
    /// A world with the rules, the battlefield and the greedy AI (the model of every unit the
    /// search does not declare for itself); no window, one thread.
    pub fn new() -> Self {
        let mut app = crate::single_threaded_headless_app();
        app.finish();
        app.cleanup();
        Self {
            world: std::mem::take(app.world_mut()),
            to_sim: EntityHashMap::default(),
            to_real: EntityHashMap::default(),
            sim_units: Vec::new(),
            lost_cursor: MessageCursor::default(),
            lost: Vec::new(),
        }
    }

    /// Spawns the snapshot's units (replacing any earlier ones) and maps entities both ways.
    /// Call [`reset`](Self::reset) before each simulated round.
    pub fn load(&mut self, snapshot: &Snapshot) {
        let world = &mut self.world;
        for entity in self.sim_units.drain(..) {
            world.despawn(entity);
        }
        self.to_sim.clear();
        self.to_real.clear();
        for unit in &snapshot.units {
            let sim = world.spawn_empty().id();
            self.to_sim.insert(unit.entity, sim);
            self.to_real.insert(sim, unit.entity);
            self.sim_units.push(sim);
        }
        world.insert_resource(snapshot.ruleset.clone());
        world.insert_resource(snapshot.injuries.clone());
        world.insert_resource(snapshot.battlefield.clone());
        world.insert_resource(snapshot.sides.clone());
        world.insert_resource(snapshot.info.clone());
    }

    /// Puts the world back to the snapshot, with `rng` as the dice and a log if `record_log`.
    pub fn reset(&mut self, snapshot: &Snapshot, rng: CombatRng, record_log: bool) {
        let map = |entity: Entity| self.to_sim.get(&entity).copied().unwrap_or(entity);
        let (state, queue, index, victory) = sim_resources(snapshot, &map);
        let world = &mut self.world;
        world.insert_resource(state);
        world.insert_resource(queue);
        crate::battlefield::install_zone_index(world, index);
        world.insert_resource(victory);
        world.insert_resource(rng);
        world.insert_resource(if record_log { CombatLog::default() } else { CombatLog::silent() });
        world.insert_resource(ForcedDeclarations::default());
        // Nothing the last simulation reported may press on this one's morale.
        world.insert_resource(crate::rules::state::MoraleInbox::default());
        for (unit, &sim) in snapshot.units.iter().zip(&self.sim_units) {
            restore_unit(world, sim, unit, &map);
        }
        // The units were rewritten outside the stages: their threats are marked afresh.
        world.insert_resource(crate::rules::unit::TouchedUnits::default());
        self.lost.clear();
        self.lost_cursor = world.resource::<Messages<ActionLost>>().get_cursor_current();
    }

    /// Declares `action` for the real unit `unit` (targets are real entities too) when its turn
    /// to declare comes this round, in the same pass as the greedy AI's choices for the others;
    /// the rules check it as they check any controller's choice.
    pub fn declare(&mut self, unit: Entity, action: Action) {
        let Some(&sim) = self.to_sim.get(&unit) else {
            return;
        };
        let action = self.to_sim_action(action);
        self.world.resource_mut::<ForcedDeclarations>().0.insert(sim, action);
    }

    /// Resolves the rest of the round (declarations not given are the greedy AI's); called
    /// again, it plays the next round whole, with the greedy AI declaring for everyone.
    pub fn resolve_round(&mut self) -> RoundResult {
        for _ in 0..MAX_UPDATES_PER_ROUND {
            // What `App::update` does for the main app: the main schedule, then the trackers.
            self.world.run_schedule(Main);
            self.world.clear_trackers();
            // Messages live two updates: read this one's before the next.
            let lost = self.lost_cursor.read(self.world.resource::<Messages<ActionLost>>());
            self.lost.extend(lost.map(|lost| (lost.unit, lost.round)));
            // The end of round hands over to the next round's initiative, and stops there.
            let phase = self.world.resource::<CombatState>().phase;
            if matches!(phase, CombatPhase::Over | CombatPhase::Initiative) {
                break;
            }
        }
        // A unit that never came to declare (it fell first) keeps no choice for the next round.
        self.world.resource_mut::<ForcedDeclarations>().0.clear();
        let state = self.world.resource::<CombatState>();
        RoundResult {
            winner: state.outcome.as_ref().and_then(|outcome| outcome.winner),
            over: state.phase == CombatPhase::Over,
        }
    }

    /// The simulated world, to read the result.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The log of the simulated round (when reset with a log).
    pub fn log(&self) -> &CombatLog {
        self.world.resource::<CombatLog>()
    }

    /// Whether the real unit `unit` lost its action in the simulated round `round` (since the
    /// last reset).
    pub fn lost_action(&self, unit: Entity, round: u32) -> bool {
        self.to_sim.get(&unit).is_some_and(|&sim| self.lost.contains(&(sim, round)))
    }

    /// The simulated entity that stands for a real one.
    pub fn sim(&self, real: Entity) -> Option<Entity> {
        self.to_sim.get(&real).copied()
    }

    /// The real entity a simulated one stands for.
    pub fn real(&self, sim: Entity) -> Option<Entity> {
        self.to_real.get(&sim).copied()
    }

    fn to_sim_action(&self, action: Action) -> Action {
        map_action(action, &|target| self.to_sim.get(&target).copied().unwrap_or(target))
    }
}

fn map_slot(slot: &Slot, map: &impl Fn(Entity) -> Entity) -> Slot {
    Slot { unit: map(slot.unit), action: map_action(slot.action, map), ..*slot }
}

/// An action with its target and its held plan's target mapped (`S-ACT-2`).
fn map_action(action: Action, map: &impl Fn(Entity) -> Entity) -> Action {
    Action { target: action.target.map(map), held: action.held.map(|plan| map_plan(plan, map)), ..action }
}

/// A held action's plan with its target mapped (`S-ACT-2`).
fn map_plan(plan: HeldPlan, map: &impl Fn(Entity) -> Entity) -> HeldPlan {
    HeldPlan { target: plan.target.map(map), ..plan }
}

/// The snapshot's round state, declaration queue, zone index and victory conditions with every
/// real entity in them replaced by its simulated one (`map`).
fn sim_resources(
    snapshot: &Snapshot,
    map: &impl Fn(Entity) -> Entity,
) -> (CombatState, DeclarationQueue, ZoneIndex, VictoryConditions) {
    let mut state = snapshot.state.clone();
    for slot in state.schedule.iter_mut().chain(state.carried.iter_mut()) {
        *slot = map_slot(slot, &map);
    }
    for (_, units) in &mut state.turns {
        units.iter_mut().for_each(|unit| *unit = map(*unit));
    }
    for unit in &mut state.holding {
        *unit = map(*unit);
    }
    for (target, ..) in &mut state.swarms {
        *target = map(*target);
    }
    for cast in &mut state.casting {
        cast.unit = map(cast.unit);
        cast.target = map(cast.target);
    }
    let mut queue = DeclarationQueue::default();
    let order: Vec<Entity> = snapshot.queue.order.iter().map(|&unit| map(unit)).collect();
    queue.begin(order.clone(), snapshot.queue.secret, snapshot.queue.late);
    for (unit, &done) in order.iter().zip(&snapshot.queue.done) {
        if done {
            queue.mark_done(*unit);
        }
    }
    queue.open = snapshot.queue.open;
    let mut index = ZoneIndex::new(snapshot.battlefield.len());
    index.note_reach(snapshot.index.longest_reach());
    for zone in 0..snapshot.battlefield.len() as ZoneIdx {
        for &unit in snapshot.index.occupants(zone) {
            index.insert(map(unit), zone);
        }
    }
    let victory = VictoryConditions(
        snapshot
            .victory
            .0
            .iter()
            .map(|condition| match condition {
                VictoryCondition::Eliminate { unit, side } => {
                    VictoryCondition::Eliminate { unit: map(*unit), side: *side }
                }
                other => other.clone(),
            })
            .collect(),
    );
    (state, queue, index, victory)
}

/// Writes `unit`'s components onto `sim`, entity references mapped. Every simulated unit is
/// played by the greedy AI unless the search declares for it.
fn restore_unit(world: &mut World, sim: Entity, unit: &UnitState, map: &impl Fn(Entity) -> Entity) {
    let core = unit.core.clone();
    let mut gear = unit.gear.clone();
    let conditions = &mut gear.4;
    conditions.grappled_by = conditions.grappled_by.map(map);
    conditions.grappling = conditions.grappling.map(map);
    conditions.screening = conditions.screening.map(map);
    conditions.held_against = conditions.held_against.map(map);
    conditions.held_plan = conditions.held_plan.map(|plan| map_plan(plan, map));
    let declared = Declared { action: unit.declared.action.map(|action| map_action(action, map)), ..unit.declared };
    let mut entity = world.entity_mut(sim);
    entity.insert((core, gear, declared, unit.size, Controller::Ai(AiKind::Greedy)));
    set_marker(&mut entity, unit.surprised, Surprised);
    set_marker(&mut entity, unit.checks_morale, ChecksMorale);
    set_marker(&mut entity, unit.initiator, Initiator);
    set_marker(&mut entity, unit.threatened, Threatened);
    set_marker(&mut entity, unit.stood_aside, StoodAside);
    set_optional(&mut entity, unit.level);
    set_optional(&mut entity, unit.group.clone());
    set_optional(&mut entity, unit.slots);
    set_optional(&mut entity, unit.reinforcement);
    set_optional(&mut entity, unit.class.clone());
    set_optional(&mut entity, unit.summoned.map(|summoned| Summoned { summoner: map(summoned.summoner), ..summoned }));
}

fn set_marker<T: Component>(entity: &mut EntityWorldMut, on: bool, marker: T) {
    match (on, entity.contains::<T>()) {
        (true, false) => {
            entity.insert(marker);
        }
        (false, true) => {
            entity.remove::<T>();
        }
        _ => {}
    }
}

fn set_optional<T: Component>(entity: &mut EntityWorldMut, value: Option<T>) {
    match value {
        Some(value) => {
            entity.insert(value);
        }
        None => {
            if entity.contains::<T>() {
                entity.remove::<T>();
            }
        }
    }
}
