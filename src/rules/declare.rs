//! Declare stage (`W-DECL-1`, `W-INIT-2`, `W-INIT-5`): builds the declaration order, records the
//! controllers' choices, and once everyone has declared fixes the round's resolution order.

use crate::rules::log::LostReason;
use crate::rules::log::StatusChange;
use bevy::ecs::entity::Entities;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::actions::{self, ActionContext};
use super::components::*;
use super::dice::CombatRng;
use super::equipment::Attribute;
use super::log::{CombatLog, LogEvent};
use super::ruleset::{DeclarationOrder, InitiativeOrder, Ruleset};
use super::state::{
    ActionChosen, CheckedChoices, CombatInfo, CombatPhase, CombatState, DeclarationQueue, DeclarationRejected,
    PassSeeds, Slot,
};
use super::unit::{self, ThreatAudit, TouchedUnits, Unit, UnitsMut};
use super::{CombatSystems, DeclareSystems};
use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use crate::rules::log::line;

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (DeclareSystems::Open, DeclareSystems::Choose, DeclareSystems::Record, DeclareSystems::Close)
            .chain()
            .in_set(CombatSystems::Declare),
    );
    app.add_systems(
        Update,
        (
            (open_declarations, refresh_threats).chain().in_set(DeclareSystems::Open),
            record_declarations.in_set(DeclareSystems::Record),
            close_declarations.in_set(DeclareSystems::Close),
        ),
    );
}

/// Sorts slots into resolution order: by Round Initiative the way the ruleset counts, then level order.
pub(super) fn sort_schedule(slots: &mut [Slot], order: InitiativeOrder) {
    match order {
        InitiativeOrder::LowestFirst => slots.sort_by_key(|slot| (slot.initiative, slot.order)),
        InitiativeOrder::HighestFirst => slots.sort_by_key(|slot| (std::cmp::Reverse(slot.initiative), slot.order)),
    }
}

/// Whether a count of `initiative` has already passed when the count stands at `count`.
pub(super) fn has_passed(order: InitiativeOrder, initiative: i32, count: i32) -> bool {
    match order {
        InitiativeOrder::LowestFirst => initiative <= count,
        InitiativeOrder::HighestFirst => initiative >= count,
    }
}

/// Builds this round's declaration order from the units that may act.
fn open_declarations(
    mut queue: ResMut<DeclarationQueue>,
    mut state: ResMut<CombatState>,
    ruleset: Res<Ruleset>,
    info: Res<CombatInfo>,
    mut log: ResMut<CombatLog>,
    mut units: UnitsMut,
) {
    if queue.open {
        return;
    }
    if ruleset.turns.order.on_turn() {
        open_turn(&mut queue, &mut state, (&ruleset, &mut log), &mut units);
        return;
    }
    let mut eligible: Vec<(u32, usize, i32, Entity)> = units
        .iter_mut()
        .filter(|unit| unit::may_act(*unit.standing.status, &unit.round.conditions, unit.round.surprised, state.round))
        .map(|mut unit| {
            // Last round's action stays visible to controllers that plan ahead.
            let previous = unit.round.declared.action.map(|action| action.kind);
            *unit.round.declared = Declared { previous, ..Declared::default() };
            (unit.standing.order.0, unit.standing.side.0, unit.body.attributes.score(Attribute::Agility), unit.entity)
        })
        .collect();
    eligible.sort_unstable_by_key(|&(order, ..)| order);
    let order = info.declaration_order.unwrap_or(ruleset.declaration.order);
    let sequence: Vec<Entity> = match order {
        DeclarationOrder::RoundRobinBySide => {
            let sides = eligible.iter().map(|&(_, side, ..)| side + 1).max().unwrap_or(0);
            let mut per_side: Vec<std::collections::VecDeque<Entity>> = vec![Default::default(); sides];
            for &(_, side, _, entity) in &eligible {
                per_side[side].push_back(entity);
            }
            let mut sequence = Vec::with_capacity(eligible.len());
            while sequence.len() < eligible.len() {
                for side in per_side.iter_mut() {
                    if let Some(entity) = side.pop_front() {
                        sequence.push(entity);
                    }
                }
            }
            sequence
        }
        DeclarationOrder::ByAgility => {
            eligible.sort_by_key(|&(order, _, agility, _)| (std::cmp::Reverse(agility), order));
            eligible.iter().map(|&(.., entity)| entity).collect()
        }
        DeclarationOrder::SimultaneousSecret => eligible.iter().map(|&(.., entity)| entity).collect(),
    };
    queue.begin(sequence, order == DeclarationOrder::SimultaneousSecret, false);
}

/// Turn-based rulesets: opens the next turn whose units can act, or ends the round's actions.
fn open_turn(
    queue: &mut DeclarationQueue,
    state: &mut CombatState,
    (ruleset, log): (&Ruleset, &mut CombatLog),
    units: &mut UnitsMut,
) {
    let round = state.round;
    while state.turn_cursor < state.turns.len() {
        if schedule_due_casts(state, units, Some(state.turns[state.turn_cursor].0)) {
            return;
        }
        let mut group: Vec<Entity> = state.turns[state.turn_cursor]
            .1
            .iter()
            .copied()
            .filter(|&entity| {
                units.get(entity).is_ok_and(|unit| {
                    unit::may_act(*unit.standing.status, unit.round.conditions, unit.round.surprised, round)
                })
            })
            .collect();
        group.retain(|&entity| !lapse_unanswered_hold(ruleset, log, round, units, entity));
        if group.is_empty() {
            state.turn_cursor += 1;
            continue;
        }
        for &entity in &group {
            if let Ok(mut unit) = units.get_mut(entity) {
                let previous = unit.round.declared.action.map(|action| action.kind).or(unit.round.declared.previous);
                *unit.round.declared = Declared { previous, ..Declared::default() };
                // Last round's total defense holds until now (`S-SPEC-1`).
                if ruleset.attack.full_defense_until_next_turn {
                    unit.round.conditions.full_defense = false;
                }
                let id = unit.standing.id.0.clone();
                // A delayed turn already began once this round (`A-INIT-1`).
                let begun = state.delayed.contains(&entity);
                if !begun && spend_bonus_actions_first(ruleset, &mut unit.round.conditions) {
                    log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Standing }));
                }
            }
        }
        // Units taking one turn together write their actions down unseen by each other.
        let together = group.len() > 1;
        queue.begin(group, together, false);
        return;
    }
    if schedule_due_casts(state, units, None) {
        return;
    }
    state.phase = CombatPhase::Morale;
}

/// Whether `entity`'s turn is the one after the round's last of a held action still waiting
/// for its foe, lost there under `turns.unanswered_hold_lapses` (`S-ACT-2`): an `action_lost`
/// line `held_action_lapsed`, and no turn. A held action's unit has no other turn left this
/// round, so a hold still waiting for a foe marks that turn.
fn lapse_unanswered_hold(
    ruleset: &Ruleset,
    log: &mut CombatLog,
    round: u32,
    units: &mut UnitsMut,
    entity: Entity,
) -> bool {
    if !ruleset.turns.unanswered_hold_lapses {
        return false;
    }
    let Ok(mut unit) = units.get_mut(entity) else {
        return false;
    };
    if !unit.round.conditions.held_action || unit.round.conditions.held_against.is_none() {
        return false;
    }
    unit.round.conditions.held_against = None;
    unit.round.conditions.held_plan = None;
    let id = unit.standing.id.0.clone();
    log.record(round, || LogEvent::ActionLost(line::ActionLost { unit: id, reason: LostReason::HeldActionLapsed }));
    true
}

/// A new turn: before it declares, a prone unit spends a Bonus Action getting up (`A-TURN-1`,
/// `A-BONUS-1`) and a disarmed one a Bonus Action picking its weapon up (`A-COND-1`), where the
/// ruleset says so and it has one left. Returns whether the unit stood up.
fn spend_bonus_actions_first(ruleset: &Ruleset, conditions: &mut Conditions) -> bool {
    // Standing up out of turn was paid for with this turn's Bonus Action (`A-BONUS-1`).
    conditions.bonus_actions_spent = std::mem::take(&mut conditions.bonus_actions_owed);
    let stands = ruleset.turns.bonus_action_stands_up && conditions.prone && conditions.bonus_actions_left() > 0;
    if stands {
        conditions.prone = false;
        conditions.bonus_actions_spent += 1;
    }
    let recovers = ruleset.attack.conditions.as_ref().is_some_and(|rules| rules.disarmed_recovers_with_bonus_action);
    if recovers && conditions.disarmed && conditions.bonus_actions_left() > 0 {
        conditions.disarmed = false;
        conditions.bonus_actions_spent += 1;
    }
    stands
}

/// Spells whose casting time runs out before the turn at `count` (with `None`, once the round's
/// turns are over: full-round spells) take effect first, as a moment of their own (`C-CAST-1`).
/// Returns whether any is due: the resolve stage then completes them.
fn schedule_due_casts(state: &mut CombatState, units: &Query<Unit>, count: Option<i32>) -> bool {
    let after_last = state.turns.last().map_or(0, |(count, _)| *count) + 1;
    let mut slots = Vec::new();
    for cast in state.casting.iter_mut().filter(|cast| !cast.due && cast.due_before(count)) {
        let Ok(unit) = units.get(cast.unit) else {
            continue;
        };
        cast.due = true;
        let action = Action::new(ActionKind::Cast(cast.spell), Some(cast.target), None);
        let initiative = cast.completes_at.map_or(after_last, |at| at.min(after_last));
        slots.push(Slot { initiative, unit: cast.unit, order: unit.standing.order.0, action });
    }
    if slots.is_empty() {
        return false;
    }
    slots.sort_unstable_by_key(|slot| (slot.initiative, slot.order));
    let cursor = state.cursor;
    state.schedule.truncate(cursor);
    state.schedule.extend(slots);
    state.phase = CombatPhase::Resolve;
    true
}

/// What one unit adds to the threat table: a fighting unit with a melee weapon reaches every
/// zone within its reach of where it stands, for its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reaching {
    unit: Entity,
    zone: ZoneIdx,
    side: usize,
    reach: u32,
}

/// How many units of each side reach each zone in melee, kept between declaration passes and
/// updated for the units that changed since the last one: a turn-by-turn round has one pass per
/// unit, and a 64x64 grid has 4,096 zones, so refiling every unit each pass made the round grow
/// with the square of the units.
#[derive(Debug, Default)]
pub(super) struct ThreatTable {
    /// Zones the table covers (the battlefield's, when it was last filled).
    zones: usize,
    /// Sides per zone row.
    sides: usize,
    /// `zones` rows of `sides` counts.
    counts: Vec<u32>,
    /// What each unit added, by entity index.
    filed: Vec<Option<Reaching>>,
    /// The units standing in each zone when last seen, in no particular order.
    standing: Vec<Vec<Entity>>,
    /// Where each unit stood when last seen, by entity index: the unit, its zone, and its place
    /// in that zone's `standing` list.
    seen: Vec<Option<(Entity, ZoneIdx, usize)>>,
    /// Zones where a side's count went from none to some, or back, since they were last taken:
    /// only units standing there can have been threatened or freed by a refiling.
    turned: Vec<ZoneIdx>,
}

impl ThreatTable {
    /// An empty table for `zones` zones and `sides` sides.
    fn empty(zones: usize, sides: usize) -> Self {
        Self {
            zones,
            sides,
            counts: vec![0; zones * sides],
            filed: Vec::new(),
            standing: vec![Vec::new(); zones],
            seen: Vec::new(),
            turned: Vec::new(),
        }
    }

    /// Adds one unit's reach (`add`) or takes it back.
    fn count(&mut self, battlefield: &Battlefield, reaching: Reaching, add: bool) {
        for reached in battlefield.within(reaching.zone, reaching.reach) {
            let count = &mut self.counts[reached as usize * self.sides + reaching.side];
            let before = *count;
            *count = if add { before + 1 } else { before.saturating_sub(1) };
            if (before == 0) != (*count == 0) {
                self.turned.push(reached);
            }
        }
    }

    /// Files `unit`'s reach as it is now (`None`: it threatens nothing), replacing what it added
    /// before.
    fn file(&mut self, battlefield: &Battlefield, unit: Entity, now: Option<Reaching>) {
        let slot = unit.index_u32() as usize;
        if self.filed.len() <= slot {
            self.filed.resize(slot + 1, None);
        }
        // A slot holding another entity is a despawned unit's: the table is refilled whenever
        // units are despawned (a new battle brings a new battlefield), so it adds nothing.
        let before = self.filed[slot].filter(|before| before.unit == unit);
        if before == now {
            return;
        }
        if let Some(before) = before {
            self.count(battlefield, before, false);
        }
        if let Some(now) = now {
            self.count(battlefield, now, true);
        }
        self.filed[slot] = now;
    }

    /// Notes that `unit` stands in `zone`, taking it out of the list of where it stood before.
    fn stand(&mut self, unit: Entity, zone: ZoneIdx) {
        let slot = unit.index_u32() as usize;
        if self.seen.len() <= slot {
            self.seen.resize(slot + 1, None);
        }
        if let Some((_, from, at)) = self.seen[slot].filter(|(before, ..)| *before == unit) {
            if from == zone {
                return;
            }
            let list = &mut self.standing[from as usize];
            list.swap_remove(at);
            // The unit moved into the freed place is told its new one (unless it is a despawned
            // unit's leftover, which nothing looks up).
            if let Some(&moved) = list.get(at)
                && let Some(Some((seen, _, place))) = self.seen.get_mut(moved.index_u32() as usize)
                && *seen == moved
            {
                *place = at;
            }
        }
        self.seen[slot] = self.standing.get_mut(zone as usize).map(|list| {
            list.push(unit);
            (unit, zone, list.len() - 1)
        });
    }

    /// Whether a unit of `side` standing in `zone` has an enemy reaching it.
    fn threatens(&self, zone: ZoneIdx, side: usize) -> bool {
        let row = zone as usize * self.sides;
        self.counts
            .get(row..row + self.sides)
            .is_some_and(|row| row.iter().enumerate().any(|(other, &count)| other != side && count > 0))
    }

    /// The units standing in the zones whose rows turned since the last call (with repeats).
    fn take_turned(&mut self) -> Vec<Entity> {
        let mut units = Vec::new();
        for zone in self.turned.drain(..) {
            units.extend_from_slice(&self.standing[zone as usize]);
        }
        units
    }
}

/// A unit's reach as the threat table files it: fighting, armed with a melee weapon
/// ([`Loadout::threatening_weapon`]).
fn reaching(
    unit: Entity,
    side: &SideIndex,
    zone: &Zone,
    status: &Status,
    conditions: &Conditions,
    loadout: &Loadout,
) -> Option<Reaching> {
    let weapon = loadout.threatening_weapon(conditions)?;
    unit::is_fighting(*status, conditions).then_some(Reaching { unit, zone: zone.0, side: side.0, reach: weapon.reach })
}

/// The components a unit's threat depends on.
type ThreatParts = (&'static SideIndex, &'static Zone, &'static Status, &'static Conditions, &'static Loadout);

/// The threat-relevant parts of the units whose zone, status, conditions or loadout changed
/// since the system last ran. A unit's side is set only as it is spawned, together with its zone
/// (one bundle), and never changed: a changed side is always a changed zone, and the filter has
/// one tick fewer to read per unit.
type ChangedThreatParts<'w, 's> =
    Query<'w, 's, (Entity, ThreatParts), Or<(Changed<Zone>, Changed<Status>, Changed<Conditions>, Changed<Loadout>)>>;

/// Marks units an enemy can strike in melee right now as [`Threatened`]. The table of which
/// sides reach each zone is kept between passes ([`ThreatTable`]): only units whose side, zone,
/// status, conditions or loadout changed since the last pass are refiled, and a new battlefield
/// (a new battle, whose old units are gone) refills it. The change filter is asked only about
/// the units the stages looked up for writing since ([`TouchedUnits`]), unless something may
/// have written every unit: a turn-by-turn round has a pass per unit, and reading every unit's
/// change ticks at each was a sixth of a grid round. Then only the units that changed, or
/// stand where a row turned, are marked afresh: no other unit's mark can differ.
#[expect(clippy::too_many_arguments, reason = "a system: each parameter is something it reads or writes")]
pub(super) fn refresh_threats(
    mut commands: Commands,
    units: Query<(Entity, &SideIndex, &Zone, &Status, Has<Threatened>)>,
    parts: Query<(Entity, ThreatParts)>,
    changed: ChangedThreatParts,
    entities: &Entities,
    battlefield: Res<Battlefield>,
    (mut touched, audit): (ResMut<TouchedUnits>, Option<ResMut<ThreatAudit>>),
    mut table: Local<ThreatTable>,
) {
    let changed = changed_units(&changed, &mut touched, audit);
    let sides = changed.iter().map(|&(_, side, ..)| side + 1).max().unwrap_or(0);
    if battlefield.is_changed() || table.zones != battlefield.len() || sides > table.sides {
        let sides = parts.iter().map(|(_, (side, ..))| side.0 + 1).max().unwrap_or(0).max(table.sides);
        *table = ThreatTable::empty(battlefield.len(), sides);
        for (entity, (side, zone, status, conditions, loadout)) in &parts {
            table.file(&battlefield, entity, reaching(entity, side, zone, status, conditions, loadout));
        }
        table.turned.clear();
        for (entity, side, zone, status, marked) in &units {
            table.stand(entity, zone.0);
            mark(&mut commands, &table, entity, side, zone, status, marked);
        }
        return;
    }
    for &(entity, _, zone, reaching) in &changed {
        table.file(&battlefield, entity, reaching);
        table.stand(entity, zone);
    }
    let mut marking = table.take_turned();
    marking.extend(changed.iter().map(|&(entity, ..)| entity));
    // Marked in the order a walk over `units` would mark them, so the markers come and go in
    // the same order, and later queries meet the units in the same order: `Threatened` is
    // sparse, so such a query walks archetypes in the order they were made, and each one's
    // units by row.
    let mut marking: Vec<((usize, usize), Entity)> = marking
        .into_iter()
        .filter_map(|entity| entities.get_spawned(entity).ok().map(|at| (at, entity)))
        .map(|(at, entity)| ((at.archetype_id.index(), at.archetype_row.index()), entity))
        .collect();
    marking.sort_unstable();
    marking.dedup();
    for (_, entity) in marking {
        if let Ok((entity, side, zone, status, marked)) = units.get(entity) {
            mark(&mut commands, &table, entity, side, zone, status, marked);
        }
    }
}

/// The units whose zone, status, conditions or loadout changed since the last pass, with their
/// side, zone and reach: the change filter is asked about every unit, or only about those
/// [`TouchedUnits`] names (and, when a [`ThreatAudit`] asks, checked against every unit).
fn changed_units(
    changed: &ChangedThreatParts,
    touched: &mut TouchedUnits,
    audit: Option<ResMut<ThreatAudit>>,
) -> Vec<(Entity, usize, ZoneIdx, Option<Reaching>)> {
    let mut changed_units: Vec<(Entity, usize, ZoneIdx, Option<Reaching>)> = Vec::new();
    type Parts<'a> = (Entity, (&'a SideIndex, &'a Zone, &'a Status, &'a Conditions, &'a Loadout));
    let mut note = |(entity, (side, zone, status, conditions, loadout)): Parts| {
        changed_units.push((entity, side.0, zone.0, reaching(entity, side, zone, status, conditions, loadout)));
    };
    match touched.take() {
        // Read once: the change filter walks every unit. `for_each` runs Bevy's loop over
        // each table's rows, a fraction of the instructions of `next()` per unit (a collect).
        None => changed.iter().for_each(&mut note),
        // Only the units a stage looked up for writing can have changed: the filter is asked
        // about those alone. The order they are filed in changes nothing: the counts and the
        // marks they lead to are the same in any order.
        Some(mut units) => {
            units.sort_unstable();
            units.dedup();
            changed.iter_many(&units).for_each(&mut note);
            if let Some(mut audit) = audit {
                audit.passes += 1;
                audit.missed +=
                    changed.iter().filter(|(entity, _)| units.binary_search(entity).is_err()).count() as u64;
            }
        }
    }
    changed_units
}

/// Marks `entity` [`Threatened`] if an enemy reaches where it stands, and unmarks it if not.
fn mark(
    commands: &mut Commands,
    table: &ThreatTable,
    entity: Entity,
    side: &SideIndex,
    zone: &Zone,
    status: &Status,
    marked: bool,
) {
    let threatened = status.on_field() && table.threatens(zone.0, side.0);
    if threatened && !marked {
        commands.entity(entity).insert(Threatened);
    } else if !threatened && marked {
        commands.entity(entity).remove::<Threatened>();
    }
}

/// Checks each [`ActionChosen`] against the rules and the turn order; records the legal ones.
/// The units are read whole to check a choice, and only their [`Declared`] is written: a look-up
/// of the whole view costs some thirty component columns, so the write goes through a narrow one.
/// An AI's choices come with the verdicts it reached on them ([`CheckedChoices`]), which are
/// taken instead of checking again.
#[expect(clippy::too_many_arguments, reason = "a system: each parameter is something it reads or writes")]
fn record_declarations(
    mut chosen: MessageReader<ActionChosen>,
    mut rejected: MessageWriter<DeclarationRejected>,
    mut queue: ResMut<DeclarationQueue>,
    mut checked: ResMut<CheckedChoices>,
    ticks: bevy::ecs::system::SystemChangeTick,
    state: Res<CombatState>,
    index: Res<ZoneIndex>,
    ruleset: Res<Ruleset>,
    battlefield: Res<Battlefield>,
    mut units: ParamSet<(Query<Unit>, Query<&mut Declared>)>,
) {
    let ctx = ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
    // An AI's own verdicts hold while nothing a check reads changed since they were reached.
    let since = checked.checked_at;
    let changed = |tick: bevy::ecs::change_detection::Tick| tick.is_newer_than(since, ticks.this_run());
    let fresh = ![state.last_changed(), index.last_changed(), ruleset.last_changed(), battlefield.last_changed()]
        .into_iter()
        .any(changed)
        && !changed(queue.last_changed());
    let verdicts = std::mem::take(&mut checked.verdicts);
    let mut verdicts = verdicts.iter().filter(|_| fresh).peekable();
    for choice in chosen.read() {
        let known = verdicts
            .next_if(|(unit, action, _)| *unit == choice.unit && *action == choice.action)
            .map(|(.., verdict)| *verdict);
        let verdict = if !queue.may_declare(choice.unit) {
            Err(actions::IllegalAction::NotAwaiting)
        } else {
            let checked = known.unwrap_or_else(|| {
                let units = units.p0();
                match units.get(choice.unit) {
                    Ok(actor) => actions::check(ctx, &actor, &choice.action, &units),
                    Err(_) => Err(actions::IllegalAction::TargetGone),
                }
            });
            checked.and_then(|modifier| {
                // A delay goes after the next turn, so the round's last turn cannot (`A-INIT-1`).
                let last = state.turn_cursor + 1 >= state.turns.len();
                if choice.action.kind == ActionKind::Delay && last {
                    Err(actions::IllegalAction::LastTurn)
                } else {
                    Ok(modifier)
                }
            })
        };
        let accepted = match verdict {
            Ok(modifier) => Some((choice.action, modifier)),
            Err(reason) => {
                rejected.write(DeclarationRejected { unit: choice.unit, action: choice.action, reason });
                // An AI that errs must not stall the round: it holds instead.
                let is_ai =
                    units.p0().get(choice.unit).is_ok_and(|unit| matches!(unit.standing.controller, Controller::Ai(_)));
                (is_ai && queue.may_declare(choice.unit)).then(|| {
                    let hold = Action::simple(ActionKind::Hold);
                    (hold, ruleset.declaration.hold_modifier)
                })
            }
        };
        // Accepted means the chooser was found among the units above.
        if let Some((action, modifier)) = accepted
            && let Ok(mut declared) = units.p1().get_mut(choice.unit)
        {
            *declared = Declared { action: Some(action), modifier, previous: declared.previous };
            queue.mark_done(choice.unit);
        }
    }
}

/// What closing the declarations touches.
#[derive(SystemParam)]
struct Closing<'w, 's> {
    queue: ResMut<'w, DeclarationQueue>,
    state: ResMut<'w, CombatState>,
    log: ResMut<'w, CombatLog>,
    /// Every unit, whole (to log it), and the few parts entering a declaration changes: a look-up
    /// of the whole view costs some thirty component columns.
    units: ParamSet<'w, 's, (Query<'w, 's, Unit>, Query<'w, 's, Entering>)>,
    /// Noted for the threat marking: entering a declaration can change a unit's conditions.
    touched: ResMut<'w, TouchedUnits>,
    ruleset: Res<'w, Ruleset>,
    battlefield: Res<'w, Battlefield>,
}

/// What entering a unit's declaration into the schedule reads and changes.
type Entering = (&'static mut Initiative, &'static mut Conditions, &'static Declared, &'static SpawnOrder);

/// Once all have declared: Round Initiative = Base + modifier, the `declared` log lines, the
/// schedule (with last round's carried actions), full defense in force.
fn close_declarations(mut closing: Closing, seeds: Option<ResMut<PassSeeds>>, mut rng: ResMut<CombatRng>) {
    if !closing.queue.open || !closing.queue.complete() {
        return;
    }
    // Online, the pass closes only with its seed: a follower waits for the referee's.
    if let Some(mut seeds) = seeds {
        let Some(seed) = seeds.take_next() else {
            return;
        };
        rng.reseed(seed);
        let round = closing.state.round;
        closing.log.record(round, || LogEvent::DiceReseeded(line::DiceReseeded { seed }));
    }
    if closing.ruleset.turns.order.on_turn() {
        closing.close_turn();
    } else {
        closing.close_round();
    }
}

impl Closing<'_, '_> {
    /// Turn by turn: the declarers act on the current count, after what is already scheduled.
    fn close_turn(&mut self) {
        let count = self.state.turns.get(self.state.turn_cursor).map_or(0, |(count, _)| *count);
        let order = self.queue.order.clone();
        let mut slots: Vec<Slot> = order.into_iter().filter_map(|entity| self.enter(entity, Some(count))).collect();
        self.delay_turns(&mut slots);
        self.state.turn_cursor += 1;
        let cursor = self.state.cursor;
        self.state.schedule.truncate(cursor);
        self.state.schedule.extend(slots);
        self.queue.open = false;
        self.state.phase = CombatPhase::Resolve;
    }

    /// Units that declared a delay act again right after the next turn (`A-INIT-1`): their turn
    /// is put back into the order there, at that turn's count, and they declare anew when it comes.
    fn delay_turns(&mut self, slots: &mut Vec<Slot>) {
        let delayed: Vec<Entity> =
            slots.iter().filter(|slot| slot.action.kind == ActionKind::Delay).map(|slot| slot.unit).collect();
        if delayed.is_empty() {
            return;
        }
        slots.retain(|slot| slot.action.kind != ActionKind::Delay);
        let after_next = self.state.turn_cursor + 2;
        let Some(&(count, _)) = self.state.turns.get(after_next - 1) else {
            return;
        };
        self.state.delayed.extend(delayed.iter().copied());
        self.state.turns.insert(after_next, (count, delayed));
    }

    /// A round at once: last round's carried actions, then every declaration at its Round
    /// Initiative; a late declaration whose count has passed waits for next round.
    fn close_round(&mut self) {
        let order = self.ruleset.initiative.order;
        let mut slots = if self.queue.late { Vec::new() } else { self.carried_over() };
        for entity in self.queue.order.clone() {
            let Some(slot) = self.enter(entity, None) else {
                continue;
            };
            match self.state.count {
                Some(count) if self.queue.late && has_passed(order, slot.initiative, count) => {
                    let initiative = slot.initiative + self.ruleset.initiative.missed_turn_modifier;
                    self.state.carried.push(Slot { initiative, ..slot });
                }
                _ => slots.push(slot),
            }
        }
        self.schedule(slots);
        self.queue.open = false;
        self.queue.late = false;
        self.state.phase = CombatPhase::Resolve;
    }

    /// Last round's carried actions of units still on the field, logged again.
    fn carried_over(&mut self) -> Vec<Slot> {
        let round = self.state.round;
        let mut slots = Vec::with_capacity(self.queue.order.len() + self.state.carried.len());
        let units = self.units.p0();
        for carried in std::mem::take(&mut self.state.carried) {
            let Ok(unit) = units.get(carried.unit) else {
                continue;
            };
            if !unit.standing.status.on_field() {
                continue;
            }
            let line = DeclaredLine {
                action: &carried.action,
                initiative: carried.initiative,
                modifier: 0,
                carried_over: true,
            };
            log_declared(&mut self.log, round, &unit, line, &self.battlefield, &units);
            slots.push(carried);
        }
        slots
    }

    /// Fixes `entity`'s Round Initiative (`count` when acting on a count, else Base + modifier),
    /// puts full defense in force and logs the declaration; `None` if it declared nothing.
    fn enter(&mut self, entity: Entity, count: Option<i32>) -> Option<Slot> {
        let round = self.state.round;
        self.touched.touch(entity);
        let mut parts = self.units.p1();
        let (mut unit_initiative, mut conditions, declared, order) = parts.get_mut(entity).ok()?;
        let action = declared.action?;
        let modifier = if count.is_some() { 0 } else { declared.modifier };
        let initiative = count.unwrap_or_else(|| unit_initiative.base.unwrap_or(0) + modifier);
        unit_initiative.round = Some(initiative);
        if action.kind == ActionKind::FullDefense {
            conditions.full_defense = true;
        }
        let slot = Slot { initiative, unit: entity, order: order.0, action };
        // A silent log (bulk simulation) needs no look-up of the unit's whole view.
        if self.log.is_recording() {
            let units = self.units.p0();
            let unit = units.get(entity).ok()?;
            let line = DeclaredLine { action: &action, initiative, modifier, carried_over: false };
            log_declared(&mut self.log, round, &unit, line, &self.battlefield, &units);
        }
        Some(slot)
    }

    /// Puts the new slots in resolution order: after what already resolved for a late
    /// declaration, as the whole schedule otherwise.
    fn schedule(&mut self, mut slots: Vec<Slot>) {
        let order = self.ruleset.initiative.order;
        if self.queue.late {
            let cursor = self.state.cursor;
            let mut rest = self.state.schedule.split_off(cursor);
            rest.extend(slots);
            sort_schedule(&mut rest, order);
            self.state.schedule.extend(rest);
        } else {
            sort_schedule(&mut slots, order);
            self.state.schedule = slots;
            self.state.cursor = 0;
        }
    }
}

/// What a `declared` line says about the declaration itself.
struct DeclaredLine<'a> {
    /// The declared action.
    action: &'a Action,
    /// The Round Initiative it resolves at.
    initiative: i32,
    /// The action's initiative modifier.
    modifier: i32,
    /// Whether it was carried over from last round.
    carried_over: bool,
}

/// Logs `unit`'s declaration.
fn log_declared(
    log: &mut CombatLog,
    round: u32,
    unit: &unit::UnitView,
    line: DeclaredLine,
    battlefield: &Battlefield,
    units: &Query<Unit>,
) {
    let DeclaredLine { action, initiative, modifier, carried_over } = line;
    log.record(round, || {
        LogEvent::Declared(line::Declared {
            unit: unit.standing.id.0.clone(),
            action: action.kind,
            target: action.target.and_then(|target| units.get(target).ok()).map(|target| target.standing.id.0.clone()),
            modifier,
            initiative,
            move_to: action.move_to.map(|zone| battlefield.place(zone)),
            aim: match action.kind {
                ActionKind::Aimed(aim) => Some(aim),
                _ => None,
            },
            using: action_tool(unit, action),
            carried_over,
            move_after: action.move_after.map(|zone| battlefield.place(zone)),
            held: false,
        })
    });
}

/// The weapon, spell or item an action uses, by name.
pub(super) fn action_tool(unit: &unit::UnitView, action: &Action) -> Option<std::sync::Arc<str>> {
    match action.kind {
        ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_)
            if action.target.is_some() =>
        {
            Some(unit.arms.loadout.usable_weapon(unit.round.conditions).0.into())
        }
        ActionKind::Cast(at) => unit.magic.spells.0.get(at).map(|(name, _)| name.clone()),
        ActionKind::UseItem(at) | ActionKind::Throw(at) => {
            unit.arms.inventory.0.get(at).map(|stack| stack.name.clone())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Reaching, ThreatTable};
    use crate::battlefield::{Battlefield, ZoneDef};
    use bevy::prelude::Entity;

    fn zone(id: &str) -> ZoneDef {
        ZoneDef {
            id: id.into(),
            name: id.to_string(),
            capacity: None,
            hazard: None,
            position: None,
            square: None,
            enter_cost: 1,
        }
    }

    #[test]
    fn zone_threat_marks_only_units_an_other_side_reaches() {
        let field = Battlefield::new(vec![zone("a"), zone("b")], &[(0, 1)]);
        let mut table = ThreatTable::empty(field.len(), 3);
        let (first, second) = (Entity::from_raw_u32(1).unwrap(), Entity::from_raw_u32(2).unwrap());
        assert!(!table.threatens(0, 0));
        table.file(&field, first, Some(Reaching { unit: first, zone: 0, side: 0, reach: 0 }));
        assert!(!table.threatens(0, 0), "a side's own reach does not threaten it");
        assert!(table.threatens(0, 1) && !table.threatens(1, 1));
        table.file(&field, second, Some(Reaching { unit: second, zone: 1, side: 1, reach: 1 }));
        assert!(table.threatens(0, 0) && table.threatens(0, 2) && table.threatens(1, 0));
        // Refiling a unit takes back what it added before.
        table.file(&field, first, None);
        assert!(!table.threatens(0, 1) && table.threatens(0, 0));
        table.file(&field, second, Some(Reaching { unit: second, zone: 1, side: 1, reach: 0 }));
        assert!(!table.threatens(0, 0) && table.threatens(1, 0));
    }

    #[test]
    fn only_units_standing_where_a_row_turned_are_marked_afresh() {
        let field = Battlefield::new(vec![zone("a"), zone("b"), zone("c")], &[(0, 1), (1, 2)]);
        let mut table = ThreatTable::empty(field.len(), 2);
        let [striker, near, far, other] = [1, 2, 3, 4].map(|index| Entity::from_raw_u32(index).unwrap());
        for (unit, at) in [(striker, 0), (near, 1), (far, 2), (other, 1)] {
            table.stand(unit, at);
        }
        assert!(table.take_turned().is_empty());
        // A reach of 1 from `a` turns `a` and `b` for side 0: the units there are named.
        table.file(&field, striker, Some(Reaching { unit: striker, zone: 0, side: 0, reach: 1 }));
        let mut named = table.take_turned();
        named.sort_by_key(|unit| unit.index_u32());
        assert_eq!(named, [striker, near, other]);
        // Nothing turned since: nobody to mark afresh.
        assert!(table.take_turned().is_empty());
        // A second reach on the same zones turns no row; moving `near` away leaves `b` to `other`.
        table.file(&field, near, Some(Reaching { unit: near, zone: 0, side: 0, reach: 1 }));
        assert!(table.take_turned().is_empty());
        table.stand(near, 2);
        table.file(&field, striker, None);
        table.file(&field, near, None);
        let mut named = table.take_turned();
        named.sort_by_key(|unit| unit.index_u32());
        assert_eq!(named, [striker, other], "`near` stands in `c` now");
    }
}
