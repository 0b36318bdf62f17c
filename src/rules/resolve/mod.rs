//! Resolve stage (`W-INIT-3`, `W-HIT-1`, `W-DMG-*`, `W-CRIT-*`, `W-DECL-3/4`, `W-WOUND-*`):
//! actions resolve from one end of the count to the other; equal counts are simultaneous, so
//! their damage lands together and two units can take each other down.
//!
//! This file walks the schedule and dispatches each action; the rule families live beside it:
//! `movement` (moves, provoked attacks), `attack` (the attack pipeline), `maneuvers`, `magic`
//! (spells, items, summons, healing) and `wounds` (damage, aimed wounds, injuries).

mod attack;
mod charge_throw;
mod flight;
mod held;
mod instant;
mod magic;
mod maneuvers;
mod movement;
mod rising;
mod ties;
mod turn_parts;
mod wounds;

use crate::rules::log::LostReason;
use std::sync::{Arc, Mutex, PoisonError};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use self::attack::AttackRequest;
use super::CombatSystems;
use super::actions::{self, ActionContext};
use super::components::*;
use super::declare::has_passed;
use super::dice::{CombatRng, DiceRoll, Draw};
use super::equipment::{DamageType, InjuryTables};
use super::initiative::{arrive, roll_base_initiative};
use super::log::{AttackKind, CombatLog, LogEvent};
use super::ruleset::{InitiativeOrder, Ruleset};
use super::state::{
    ActionLost, CombatPhase, CombatState, DamageDealt, DeclarationQueue, Intimidated, ResolveByCount, Sides, Slot,
    in_phase,
};
use super::unit::{self, UnitItem, UnitView, UnitsMut};
use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use crate::rules::log::line;
pub(super) use wounds::{DamageHit, Harm};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, resolve_round.in_set(CombatSystems::Resolve).run_if(in_phase(CombatPhase::Resolve)));
    flight::plugin(app);
}

/// Cause names for damage that no unit dealt.
pub(super) const EXERTION: &str = "exertion";

/// Stands in the log for a unit with no id; only an engine bug leads there, and it is reported.
const MISSING_ID: &str = "?";

/// An engine bug met while resolving. The round still finishes; the stage then returns it.
#[derive(Debug, Clone, thiserror::Error)]
pub(super) enum ResolveError {
    /// Units are never despawned during a battle, so every entity the schedule or an effect
    /// names must be a unit.
    #[error("the resolve stage looked up {entity} while {during}, and it is not a unit")]
    MissingUnit {
        /// The entity looked up.
        entity: Entity,
        /// What the stage was doing.
        during: &'static str,
    },
}

/// Engine bugs met this round, returned once the schedule is done.
#[derive(Default)]
pub(super) struct Faults(Mutex<Vec<ResolveError>>);

impl Faults {
    fn record(&self, fault: ResolveError) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(fault);
    }

    /// A looked-up unit, or `None` with the miss recorded: units are never despawned during a
    /// battle, so every entity the schedule or an effect names must be one. Takes the lookup
    /// itself, so a caller can borrow the units mutably beside the faults.
    fn found<T, E>(&self, lookup: Result<T, E>, entity: Entity, during: &'static str) -> Option<T> {
        if lookup.is_err() {
            self.record(ResolveError::MissingUnit { entity, during });
        }
        lookup.ok()
    }
}

/// Everything the resolve stage reads and changes.
#[derive(SystemParam)]
pub(super) struct Resolver<'w, 's> {
    state: ResMut<'w, CombatState>,
    queue: ResMut<'w, DeclarationQueue>,
    log: ResMut<'w, CombatLog>,
    rng: ResMut<'w, CombatRng>,
    index: ResMut<'w, ZoneIndex>,
    units: UnitsMut<'w, 's>,
    ids: Query<'w, 's, &'static UnitId>,
    reinforcements: Query<'w, 's, (Entity, &'static Reinforcement)>,
    groups: Query<'w, 's, &'static InitiativeGroup>,
    ruleset: Res<'w, Ruleset>,
    battlefield: Res<'w, Battlefield>,
    tables: Res<'w, InjuryTables>,
    sides: Res<'w, Sides>,
    levels: Query<'w, 's, (&'static Level, Option<&'static CharacterClass>)>,
    summoned: Query<'w, 's, (Entity, &'static Summoned)>,
    slots: Query<'w, 's, &'static SummoningSlots>,
    conjurable: Option<ResMut<'w, Conjurable>>,
    commands: Commands<'w, 's>,
    dealt: MessageWriter<'w, DamageDealt>,
    lost: MessageWriter<'w, ActionLost>,
    intimidated: MessageWriter<'w, Intimidated>,
    faults: Local<'s, Faults>,
    spent: Local<'s, SpentReactions>,
}

/// Units seen, during one run of the resolve stage, to be unable to answer a move with a
/// Reposte, with their sides: a walker through a crowd asks about hundreds of units at every
/// step, and most of them have long since spent their reaction. Within one run a unit that
/// cannot react never can again (reactions only fall, and surprise changes only between
/// rounds), and the stage never changes a unit's side or loadout, so what is noted here stays
/// true until the run ends.
#[derive(Default)]
pub(super) struct SpentReactions {
    /// What was seen of each unit.
    seen: SeenUnits,
    /// By zone: its occupants not seen to be spent, in the zone index's order, so that a step
    /// looks only at those.
    zones: Vec<Candidates>,
}

/// By entity index: what was seen of each unit this run.
#[derive(Default)]
struct SeenUnits {
    /// The current run of the stage, counted from one.
    run: u32,
    /// Valid where their `run` is the current one.
    units: Vec<Seen>,
}

/// What [`SpentReactions`] keeps of one unit.
#[derive(Clone, Copy, Default)]
struct Seen {
    /// The run it was seen in.
    run: u32,
    /// Its side.
    side: usize,
    /// Whether it could no longer react.
    spent: bool,
    /// The longest reach of a melee weapon in its loadout (`None`: it has none): how far it
    /// could threaten whichever hand it fights with. The resolve stage only reads loadouts.
    reach: Option<u32>,
}

/// A zone's occupants not seen to be spent, in the zone index's order, each with its side where
/// known (else [`UNKNOWN_SIDE`]), so a walker passes over its own side without a look-up: right
/// while the run is `run` and the zone's occupants have not changed since `changed_at`.
#[derive(Default)]
struct Candidates {
    run: u32,
    changed_at: u64,
    units: Vec<(Entity, usize)>,
}

/// The side of a [`Candidates`] unit not looked at yet.
const UNKNOWN_SIDE: usize = usize::MAX;

impl SeenUnits {
    /// What was seen of `unit` this run, if anything.
    fn get(&self, unit: Entity) -> Option<Seen> {
        self.units.get(unit.index_u32() as usize).copied().filter(|seen| seen.run == self.run)
    }

    /// Notes what was seen of `unit`.
    fn note(&mut self, unit: Entity, side: usize, spent: bool, reach: Option<u32>) {
        let at = unit.index_u32() as usize;
        if at >= self.units.len() {
            self.units.resize(at + 1, Seen::default());
        }
        self.units[at] = Seen { run: self.run, side, spent, reach };
    }
}

impl SpentReactions {
    /// Forgets everything: a new run of the stage begins.
    fn next_run(&mut self) {
        self.seen.run = self.seen.run.wrapping_add(1).max(1);
        if self.seen.run == 1 {
            self.seen.units.clear();
            self.zones.clear();
        }
    }

    /// The candidates of `zone` this run, whose occupants are `occupants` as of `changed_at`:
    /// kept from the last look while still right, else all of them.
    fn candidates<'a>(
        zones: &'a mut Vec<Candidates>,
        run: u32,
        zone: ZoneIdx,
        occupants: &[Entity],
        changed_at: u64,
    ) -> &'a mut Vec<(Entity, usize)> {
        let at = zone as usize;
        if at >= zones.len() {
            zones.resize_with(at + 1, Candidates::default);
        }
        let kept = &mut zones[at];
        if kept.run != run || kept.changed_at != changed_at {
            kept.units.clear();
            kept.units.extend(occupants.iter().map(|&unit| (unit, UNKNOWN_SIDE)));
            kept.run = run;
            kept.changed_at = changed_at;
        }
        &mut kept.units
    }

    /// `unit` (of `side`) stepped from `from` to `to`, the zones' occupants having changed at `was` and
    /// now at `now` (each `(from, to)`): lists that were right before the step are kept right.
    fn stepped(
        &mut self,
        (unit, side): (Entity, usize),
        (from, to): (ZoneIdx, ZoneIdx),
        was: (u64, u64),
        now: (u64, u64),
    ) {
        if from == to {
            return;
        }
        let run = self.seen.run;
        if let Some(kept) = self.zones.get_mut(from as usize)
            && kept.run == run
            && kept.changed_at == was.0
        {
            kept.units.retain(|&(other, _)| other != unit);
            kept.changed_at = now.0;
        }
        // The zone index puts an arrival last; it may still react, as far as is known here.
        if let Some(kept) = self.zones.get_mut(to as usize)
            && kept.run == run
            && kept.changed_at == was.1
        {
            kept.units.push((unit, side));
            kept.changed_at = now.1;
        }
    }
}

/// The longest reach of the melee weapons in `loadout`, of which `Loadout::usable_weapon` picks
/// one; `None` when all of them are ranged.
fn longest_melee_reach(loadout: &Loadout) -> Option<u32> {
    let offhand = loadout.offhand.as_ref().map(|(_, weapon)| weapon);
    [Some(&loadout.weapon), offhand, Some(&loadout.unarmed)]
        .into_iter()
        .flatten()
        .filter(|weapon| !weapon.is_ranged())
        .map(|weapon| weapon.reach)
        .max()
}

/// What one unit's turn in a simultaneous group has come to so far: one record per slot, so a
/// group makes one list rather than one per question.
#[derive(Default)]
struct GroupTurn {
    /// It may act this count.
    able: bool,
    /// Where it sets off, when what it walks this count is measured: for a split move's first
    /// leg (`C-MOVE-1`), or for what is left to follow its target with (`movement.pursue_target`).
    set_off: Option<ZoneIdx>,
    /// Its move was cut short: it does not act.
    interrupted: bool,
    /// The steps of its move inside enemies' reach.
    inside: movement::InsideSteps,
    /// What it walked before its action, for a split move (`C-MOVE-1`); 0 for any other.
    walked: u32,
}

impl GroupTurn {
    /// Whether it goes on to act after moving.
    fn acts(&self) -> bool {
        self.able && !self.interrupted
    }
}

/// Something a simultaneous group does to a unit, applied once the whole group has acted.
#[derive(Clone, Debug)]
enum Pending {
    Damage(DamageHit),
    Restore { target: Entity, source: Arc<str>, roll: DiceRoll, wounds: bool },
    Stabilize { target: Entity },
}

impl Pending {
    /// The unit it lands on.
    fn target(&self) -> Entity {
        match self {
            Pending::Damage(hit) => hit.target,
            Pending::Restore { target, .. } | Pending::Stabilize { target } => *target,
        }
    }
}

/// Resolves the round's schedule, pausing for reinforcements that arrive mid-round.
fn resolve_round(mut battle: Resolver, by_count: Option<Res<ResolveByCount>>) -> Result {
    battle.spent.next_run();
    loop {
        let next = battle.state.schedule.get(battle.state.cursor).map(|slot| slot.initiative);
        if battle.bring_in_mid_round_arrivals(next) {
            return battle.faults();
        }
        let Some(count) = next else { break };
        let start = battle.state.cursor;
        let end = start + battle.state.schedule[start..].iter().take_while(|slot| slot.initiative == count).count();
        battle.state.count = Some(count);
        let group: Vec<Slot> = battle.state.schedule[start..end].to_vec();
        // A missile-versus-spell tie-break splits the turn in two (`C-INIT-2`).
        match battle.slow_spells_after_missiles(&group) {
            None => battle.resolve_group(&group),
            Some((first, later)) => {
                battle.resolve_group(&first);
                if !later.is_empty() {
                    battle.resolve_group(&later);
                }
            }
        }
        battle.stand_up_out_of_turn(&group);
        battle.state.cursor = end;
        // Shown count by count: the next one waits for the next run.
        if by_count.is_some() {
            return battle.faults();
        }
    }
    // Turn by turn: the next turn declares now, having seen this one.
    battle.state.phase = if battle.ruleset.turns.order.on_turn() { CombatPhase::Declare } else { CombatPhase::Morale };
    battle.faults()
}

/// How one attack is made, beyond who strikes whom.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Strike {
    /// Where it aims (`A-AIM-1`).
    pub aim: Option<AimPoint>,
    /// At the end of a charge (`S-SPEC-1`).
    pub charge: bool,
    /// A critical whatever the roll (`A-FAIL-1`'s free critical).
    pub forced_critical: bool,
    /// The action's own attack, rather than a reaction: fumbles and swarms count.
    pub primary: bool,
    /// Made without moving first: the bonus actions went into the blow (`A-BONUS-1`).
    pub stood_still: bool,
    /// To hit and damage the turn's chosen Bonus Actions add (`A-BONUS-1`).
    pub bonus: (i32, i32),
    /// The extra attack bought with the Move and both Bonus Actions: the weapon's own dice, no
    /// Strength and no feats (`A-BONUS-1`).
    pub bonus_attack: bool,
}

/// Whether an action is a weapon attack against its target.
fn is_strike(kind: ActionKind) -> bool {
    matches!(kind, ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_))
}

/// Whether a turn leaves a Bonus Action free for dodging (`A-BONUS-1`): moving further, a
/// disengage and a blow struck without moving (where the ruleset has the standing bonus) spend
/// both; anything else spends none.
fn leaves_a_bonus_action(action: &Action, standing_bonus: bool) -> bool {
    match action.kind {
        ActionKind::Move | ActionKind::Disengage => false,
        ActionKind::Attack | ActionKind::Aimed(_) => action.move_to.is_some() || !standing_bonus,
        _ => true,
    }
}

/// Whether an action needs a target; one that may go without (a defensive attack) acts on
/// one only when it names one.
fn needs_target(kind: ActionKind) -> bool {
    match kind {
        ActionKind::FullDefense
        | ActionKind::Move
        | ActionKind::Hold
        | ActionKind::DefensiveAttack
        | ActionKind::Disengage
        | ActionKind::StandUp
        | ActionKind::GoProne
        | ActionKind::BreakFree
        | ActionKind::HoldAction
        | ActionKind::LetGo
        | ActionKind::Delay
        | ActionKind::Drag
        | ActionKind::Hurl => false,
        ActionKind::Attack
        | ActionKind::Cast(_)
        | ActionKind::UseItem(_)
        | ActionKind::Throw(_)
        | ActionKind::Stabilize
        | ActionKind::Intimidate
        | ActionKind::Charge
        | ActionKind::Swarm
        | ActionKind::Aimed(_)
        | ActionKind::Shove
        | ActionKind::Grapple
        | ActionKind::Execute
        | ActionKind::Screen
        | ActionKind::KnockDown => true,
    }
}

impl<'w, 's> Resolver<'w, 's> {
    fn round(&self) -> u32 {
        self.state.round
    }

    /// Enemies of `side` whose melee weapons reach `zone` ([`actions::threateners_of`]). Reads
    /// only the four components a threat depends on: a whole unit view sets up some thirty
    /// columns per look-up, and a crowded zone asks about hundreds of units per step.
    pub(super) fn threateners_of(&self, zone: ZoneIdx, side: SideIndex) -> Vec<Entity> {
        let mut units = self.units.as_readonly();
        let mut lens = units.transmute_lens::<(&SideIndex, &Status, &Conditions, &Loadout)>();
        let facts = lens.query();
        actions::threateners_by(self.ctx(), zone, |other, distance| {
            let (its_side, status, conditions, loadout) = facts.get(other).ok()?;
            Some(actions::threatens(*its_side, *status, conditions, loadout, side, distance))
        })
    }

    /// The units of `among` (threateners of some zone that can still react) that are also among
    /// [`Self::reacting_threateners`] of `zone`, in `among`'s order: found by asking each of them,
    /// not by listing everyone who threatens `zone`.
    pub(super) fn also_threatening(&self, among: &[Entity], zone: ZoneIdx, side: SideIndex) -> Vec<Entity> {
        if among.is_empty() {
            return Vec::new();
        }
        let mut units = self.units.as_readonly();
        let mut lens = units.transmute_lens::<(&SideIndex, &Status, &Conditions, &Loadout, &Zone)>();
        let facts = lens.query();
        let longest = self.index.longest_reach();
        among
            .iter()
            .copied()
            .filter(|&other| {
                facts.get(other).is_ok_and(|(its_side, status, conditions, loadout, at)| {
                    // `actions::threateners_by` looks in the zones within the longest reach of
                    // `zone`, and measures from each back to `zone`.
                    self.battlefield.distance(zone, at.0) <= longest && {
                        let distance = self.battlefield.distance(at.0, zone);
                        actions::threatens(*its_side, *status, conditions, loadout, side, distance)
                    }
                })
            })
            .collect()
    }

    /// Whether any enemy of `side` threatens `zone`: [`Self::threateners_of`] being non-empty,
    /// without listing them all.
    pub(super) fn is_threatened(&self, zone: ZoneIdx, side: SideIndex) -> bool {
        let mut units = self.units.as_readonly();
        let mut lens = units.transmute_lens::<(&SideIndex, &Status, &Conditions, &Loadout)>();
        let facts = lens.query();
        actions::threatened_by(self.ctx(), zone, |other, distance| {
            let (its_side, status, conditions, loadout) = facts.get(other).ok()?;
            Some(actions::threatens(*its_side, *status, conditions, loadout, side, distance))
        })
    }

    /// The threateners of `zone` ([`Self::threateners_of`]) that can still make a Reposte
    /// ([`actions::can_react`]), in the same order: the only ones a step can provoke. Units
    /// already seen this run to have no reaction left, or to be on `side`, are passed over
    /// without a look-up.
    pub(super) fn reacting_threateners(&mut self, zone: ZoneIdx, side: SideIndex) -> Vec<Entity> {
        let mut spent = std::mem::take(&mut *self.spent);
        let ctx = self.ctx();
        let units = &self.units;
        let mut found = Vec::new();
        // The walk of `actions::threateners_by`, in its order, over each zone's candidates: the
        // occupants not yet seen to be spent, in the same order.
        for here in ctx.battlefield.within(zone, ctx.index.longest_reach()) {
            let occupants = ctx.index.occupants(here);
            // Most squares around a walker on a grid are empty: no list to keep for them. A kept
            // list is stamped with its zone's last change, so one not kept now is not mistaken
            // for a fresh one later.
            if occupants.is_empty() {
                continue;
            }
            let distance = ctx.battlefield.distance(here, zone);
            let changed_at = ctx.index.changed_at(here);
            let SpentReactions { seen, zones } = &mut spent;
            SpentReactions::candidates(zones, seen.run, here, occupants, changed_at).retain_mut(|(other, its)| {
                let other = *other;
                if *its == side.0 {
                    return true;
                }
                match seen.get(other) {
                    Some(known) if known.spent => return false,
                    Some(known) if known.side == side.0 => {
                        *its = known.side;
                        return true;
                    }
                    // Out of reach of anything it carries: no look-up, but still a candidate
                    // for nearer walkers.
                    Some(known) if known.reach.is_none_or(|reach| reach < distance) => return true,
                    _ => {}
                }
                // The whole view: a narrower lens of the unit query costs a new query state
                // (about 4,500 instructions) each time it is made, against some 650 a look-up, and
                // a walker looks up about two units a step.
                let Ok(unit) = units.get(other) else {
                    return true;
                };
                let can_react = actions::can_react(&unit);
                seen.note(other, unit.side.0, !can_react, longest_melee_reach(unit.loadout));
                *its = unit.side.0;
                if can_react
                    && actions::threatens(*unit.side, *unit.status, unit.conditions, unit.loadout, side, distance)
                {
                    found.push(other);
                }
                can_react
            });
        }
        *self.spent = spent;
        found
    }

    fn ctx(&self) -> ActionContext<'_> {
        ActionContext {
            ruleset: &self.ruleset,
            battlefield: &self.battlefield,
            index: &self.index,
            round: self.state.round,
        }
    }

    /// A unit's id for the log; a missing one is an engine bug, reported, and written as `?`.
    fn id(&self, unit: Entity) -> Arc<str> {
        match self.ids.get(unit) {
            Ok(id) => id.0.clone(),
            Err(_) => {
                self.fault(unit, "naming it in the log");
                MISSING_ID.into()
            }
        }
    }

    /// A unit the schedule or an effect names. Units are never despawned during a battle, so a
    /// missing one is an engine bug: it is recorded as a fault and the caller does nothing.
    fn unit(&self, entity: Entity, during: &'static str) -> Option<UnitView<'_, 's>> {
        self.faults.found(self.units.get(entity), entity, during)
    }

    fn fault(&self, entity: Entity, during: &'static str) {
        self.faults.record(ResolveError::MissingUnit { entity, during });
    }

    /// The first engine bug met so far, as the stage's result.
    fn faults(&mut self) -> Result {
        let faults = self.faults.0.get_mut().unwrap_or_else(PoisonError::into_inner);
        match faults.drain(..).next() {
            Some(fault) => Err(fault.into()),
            None => Ok(()),
        }
    }

    /// Starts `unit`'s draws for `draw` this round afresh on a keyed stream (the search's
    /// simulations); the real battle's plain stream is left alone, with no look-up.
    fn key_dice(&mut self, unit: Entity, draw: Draw) {
        self.rng.key(self.state.round, || self.units.get(unit).ok().map(|unit| unit.order.0), draw);
    }

    /// Logs that `unit` lost its action, and why, and tells whoever listens (the search AI
    /// weighs a plan whose action would be lost).
    fn lose(&mut self, unit: Entity, reason: LostReason) {
        let (round, id) = (self.round(), self.id(unit));
        self.log.record(round, || LogEvent::ActionLost(line::ActionLost { unit: id, reason }));
        self.lost.write(ActionLost { unit, round });
    }

    /// Brings in reinforcements whose count has passed before the group at `next` (or at the
    /// round's end); they roll and declare at once. Returns whether the stage must wait for them.
    fn bring_in_mid_round_arrivals(&mut self, next: Option<i32>) -> bool {
        if self.ruleset.turns.order.on_turn() {
            return false;
        }
        // Nobody due before `next`: the group resolves as scheduled.
        let Some((first, entities)) = self.arrivals_due(next) else {
            return false;
        };
        let round = self.round();
        let mut arrivals: Vec<UnitItem> =
            self.units.iter_mut().filter(|unit| entities.contains(&unit.entity)).collect();
        for unit in arrivals.iter_mut() {
            arrive(unit, &mut self.index, &self.battlefield, &mut self.log, round);
        }
        roll_base_initiative(&self.ruleset, &mut self.rng, &mut self.log, round, &mut arrivals, &self.groups);
        let mut late: Vec<(u32, Entity)> = arrivals
            .iter_mut()
            .filter(|unit| !unit.surprised)
            .map(|unit| {
                *unit.declared = Declared::default();
                (unit.order.0, unit.entity)
            })
            .collect();
        late.sort_unstable();
        self.state.count = Some(first);
        if late.is_empty() {
            return false;
        }
        let secret = self.queue.secret;
        self.queue.begin(late.into_iter().map(|(_, entity)| entity).collect(), secret, true);
        self.state.phase = CombatPhase::Declare;
        true
    }

    /// The reserves due to arrive before the count `next`: the first such count and who arrives at it.
    fn arrivals_due(&self, next: Option<i32>) -> Option<(i32, Vec<Entity>)> {
        let round = self.round();
        let order = self.ruleset.initiative.order;
        let due_at = |at: i32| next.is_none_or(|next| has_passed(order, at, next) && at != next);
        let due: Vec<(i32, Entity)> = self
            .reinforcements
            .iter()
            .filter_map(|(entity, arrival)| {
                let at = arrival.at_initiative?;
                (arrival.round == round && due_at(at)).then_some((at, entity))
            })
            .filter(|&(_, entity)| self.units.get(entity).is_ok_and(|view| *view.status == Status::Reserve))
            .collect();
        let first = match order {
            InitiativeOrder::LowestFirst => due.iter().map(|&(at, _)| at).min(),
            InitiativeOrder::HighestFirst => due.iter().map(|&(at, _)| at).max(),
        }?;
        Some((first, due.into_iter().filter(|&(at, _)| at == first).map(|(_, entity)| entity).collect()))
    }

    /// Starts the turn of every unit in a simultaneous group, and reads, with the same one
    /// look-up per unit, whether it may act and where it sets off: both are read before its
    /// turn starts, and starting a turn changes only its own conditions, which neither reads.
    fn start_turns(&mut self, group: &[Slot]) -> Vec<GroupTurn> {
        let round = self.round();
        let dodge_bonus = self.ruleset.attack.dodge_bonus;
        let standing_bonus = self.ruleset.attack.standing_bonus.is_some();
        let chosen = super::bonus::rules(&self.ruleset).copied();
        let mut turns: Vec<GroupTurn> = Vec::with_capacity(group.len());
        for slot in group {
            let kind = slot.action.kind;
            let Ok(mut unit) = self.units.get_mut(slot.unit) else {
                turns.push(GroupTurn::default());
                continue;
            };
            let able = unit::may_act(*unit.status, &unit.conditions, unit.surprised, round);
            let measured = slot.action.move_after.is_some() || self.ruleset.movement.pursue_target;
            turns.push(GroupTurn { able, set_off: measured.then_some(unit.zone.0), ..default() });
            // Chosen Bonus Actions (`A-BONUS-1`): dodging lasts until the next turn.
            let uses = super::bonus::effective(&self.ruleset, &unit.conditions, &slot.action);
            unit.conditions.dodge_bonus = match chosen {
                Some(rules) if able => rules.dodge * i32::from(uses.dodge),
                _ => 0,
            };
            unit.conditions.disengaged |= kind == ActionKind::Disengage || uses.disengage;
            unit.conditions.charging |= kind == ActionKind::Charge;
            // Its turn starts: last turn's screen lapses (`S-SPEC-1`); not the one just
            // made in the first part of this turn (`S-ACT-2`).
            if !self.state.turn_parts.contains(&slot.unit) {
                unit.conditions.screening = None;
            }
            unit.conditions.turn_taken = true;
            // The turn starts: last turn's dodge is over, and this one may dodge anew.
            unit.conditions.dodging = able
                && dodge_bonus.is_some()
                && unit.conditions.bonus_actions_left() > 0
                && leaves_a_bonus_action(&slot.action, standing_bonus);
        }
        turns
    }

    /// One initiative count: moves, then actions against the state after the moves, then all
    /// damage at once.
    fn resolve_group(&mut self, group: &[Slot]) {
        self.answer_held_actions(group);
        let mut turns = self.start_turns(group);
        for (turn, slot) in turns.iter_mut().zip(group) {
            if !turn.able {
                self.lose(slot.unit, LostReason::CannotAct);
                continue;
            }
            if let Some(to) = slot.action.move_to {
                self.key_dice(slot.unit, Draw::Move);
                let (still_able, steps) = self.perform_move(slot, to);
                turn.interrupted = !still_able;
                turn.inside = steps;
            }
        }
        for (turn, slot) in turns.iter_mut().zip(group) {
            self.key_dice(slot.unit, Draw::Pursuit);
            if let Some(from) = turn.set_off
                && turn.acts()
                && let Some(still_able) = self.pursue(slot, from, &mut turn.inside)
            {
                turn.interrupted = !still_able;
            }
        }
        // What each unit walked before its action, for a move after it (`C-MOVE-1`): only a
        // split move reads it.
        for (turn, slot) in turns.iter_mut().zip(group) {
            if slot.action.move_after.is_some() {
                turn.walked = self.walked(slot.unit, turn.set_off);
            }
        }
        // A foe that walked into a held action's reach meets it before its action (`S-ACT-2`).
        self.answer_held_actions(group);
        let mut pending = Vec::new();
        for (turn, slot) in turns.iter().zip(group) {
            if turn.acts() {
                self.key_dice(slot.unit, Draw::Action);
                self.perform_action(slot, &mut pending);
            }
        }
        for effect in pending {
            self.key_dice(effect.target(), Draw::Landing);
            self.apply(effect);
        }
        self.drop_lost_casts();
        // Split moves (`C-MOVE-1`): once the whole count has acted and its damage has landed,
        // each unit still able walks the rest of its move.
        for (turn, slot) in turns.iter_mut().zip(group) {
            if turn.acts() {
                self.key_dice(slot.unit, Draw::MoveAfter);
                self.move_after_acting(slot, turn.walked, std::mem::take(&mut turn.inside));
            }
        }
    }

    /// What `unit` has walked since it set off `from` (`None`: nothing to measure it for),
    /// measured as a single move is (`C-MOVE-1`).
    fn walked(&self, unit: Entity, from: Option<ZoneIdx>) -> u32 {
        let Some(from) = from else {
            return 0;
        };
        match self.units.get(unit) {
            Ok(view) if view.zone.0 != from => actions::move_cost(&self.battlefield, &view, from, view.zone.0),
            _ => 0,
        }
    }

    /// Whether `actor` acts now to complete a spell it began earlier (`C-CAST-1`).
    fn completes_a_cast(&self, actor: Entity) -> bool {
        self.state.casting.iter().any(|cast| cast.unit == actor && cast.due)
    }

    /// Spells that were due and did not take effect (the caster could not act, or its target
    /// was gone) are lost: their casters stop channelling (`C-CAST-1`).
    fn drop_lost_casts(&mut self) {
        let lost: Vec<Entity> = self.state.casting.iter().filter(|cast| cast.due).map(|cast| cast.unit).collect();
        self.state.casting.retain(|cast| !cast.due);
        for caster in lost {
            if let Ok(mut unit) = self.units.get_mut(caster) {
                unit.conditions.channelling = false;
            }
        }
    }

    /// Carries out one declared action, queueing its effects; a lost action costs no exertion.
    fn perform_action(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        let kind = slot.action.kind;
        let acted = if kind == ActionKind::StandUp {
            self.stand_up(slot);
            true
        } else if kind == ActionKind::GoProne {
            self.go_prone(slot.unit);
            true
        } else if kind == ActionKind::BreakFree {
            self.break_free(slot.unit)
        } else if kind == ActionKind::HoldAction {
            self.hold_action(slot.unit, &slot.action);
            true
        } else if kind == ActionKind::LetGo {
            self.let_go(slot.unit);
            true
        } else if matches!(kind, ActionKind::Drag | ActionKind::Hurl) {
            self.haul(slot.unit, &slot.action)
        } else if slot.action.target.is_some() || needs_target(kind) {
            self.act_on(slot, slot.action.target, pending)
        } else {
            true
        };
        if acted {
            self.pay_for_exertion(slot, pending);
        }
        if matches!(kind, ActionKind::StandUp | ActionKind::GoProne | ActionKind::Screen) {
            self.continue_turn(slot);
        }
    }

    /// An action aimed at `target` (`None` when it needed one and has none, which is lost like a
    /// target out of reach). Returns whether the action was carried out.
    fn act_on(&mut self, slot: &Slot, target: Option<Entity>, pending: &mut Vec<Pending>) -> bool {
        let (round, actor, kind) = (self.round(), slot.unit, slot.action.kind);
        // A spell taking effect after its casting time drew its attacks when it was begun.
        if !self.completes_a_cast(actor) {
            self.provoke_by_acting(slot);
        }
        if !self.units.get(actor).is_ok_and(|view| unit::may_act(*view.status, view.conditions, view.surprised, round))
        {
            return false;
        }
        let Some(target) = target.filter(|&target| is_strike(kind) || self.target_in_reach(slot, target)) else {
            self.lose(actor, LostReason::TargetOutOfReach);
            return false;
        };
        match kind {
            ActionKind::Charge if self.charge_throws(slot, target) => return self.charge_throw(slot, target, pending),
            ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_) => {
                return self.strike(slot, target, pending);
            }
            ActionKind::Throw(at) => return self.throw(slot, at, target, pending),
            ActionKind::Cast(at) => self.cast(actor, at, target, pending),
            ActionKind::UseItem(at) => self.use_item(actor, at, target, pending),
            ActionKind::Swarm => self.swarm(actor, target),
            ActionKind::Shove | ActionKind::KnockDown | ActionKind::Grapple => {
                self.maneuver(actor, target, &slot.action, slot.initiative);
            }
            ActionKind::Execute => self.execute(actor, target, slot.initiative, pending),
            ActionKind::Stabilize => self.stabilize(actor, target, pending),
            ActionKind::Intimidate => self.intimidate(actor, target),
            ActionKind::Screen => self.screen(actor, target),
            ActionKind::FullDefense
            | ActionKind::Move
            | ActionKind::Hold
            | ActionKind::Disengage
            | ActionKind::StandUp
            | ActionKind::GoProne
            | ActionKind::BreakFree
            | ActionKind::HoldAction
            | ActionKind::LetGo
            | ActionKind::Delay
            | ActionKind::Drag
            | ActionKind::Hurl => {}
        }
        true
    }

    /// A declared weapon attack, the Reposte of a target in full defense (`W-DECL-3`), and any
    /// extra attacks of a high level (`C-MULTI-1`). Returns whether the attack was made.
    fn strike(&mut self, slot: &Slot, target: Entity, pending: &mut Vec<Pending>) -> bool {
        let kind = slot.action.kind;
        // Instant defences come first (`S-SPEC-1`): a screen may take the blow, and whoever it
        // falls on may snap at the attacker before it lands.
        let target = self.screened_target(slot, target);
        if !self.snap_first(slot, target) {
            return false;
        }
        // What the turn's Bonus Actions add, from one look-up of the attacker (none without
        // Bonus Action rules).
        let no_bonus = ((0, 0), false);
        let (bonus, bonus_attack) = match super::bonus::rules(&self.ruleset) {
            None => no_bonus,
            Some(_) => self.units.get(slot.unit).map_or(no_bonus, |view| {
                (
                    super::bonus::attack_bonus(&self.ruleset, view.conditions, &slot.action),
                    super::bonus::effective(&self.ruleset, view.conditions, &slot.action).extra_attack,
                )
            }),
        };
        let strike = Strike {
            aim: match kind {
                ActionKind::Aimed(aim) => Some(aim),
                _ => None,
            },
            charge: kind == ActionKind::Charge,
            forced_critical: false,
            primary: true,
            stood_still: slot.action.move_to.is_none(),
            bonus,
            bonus_attack: false,
        };
        let request = AttackRequest::new(slot.unit, target, slot.initiative, AttackKind::Normal).with(strike);
        match self.attack(request.clone(), pending) {
            None => {
                self.lose(slot.unit, LostReason::TargetOutOfReach);
                return false;
            }
            Some(true) => {
                if let Ok(mut other) = self.units.get_mut(target) {
                    other.reactions.0 = other.reactions.0.saturating_sub(1);
                }
                self.attack(AttackRequest::new(target, slot.unit, slot.initiative, AttackKind::Reposte), pending);
            }
            Some(false) => {}
        }
        let extra = request.with(Strike { primary: false, ..strike });
        for _ in 1..self.attacks_this_round(slot.unit) {
            if !self.still_standing(target, pending) {
                break;
            }
            self.attack(extra.clone(), pending);
        }
        if bonus_attack && self.still_standing(target, pending) && self.still_able(slot.unit) {
            self.attack(extra.with(Strike { bonus_attack: true, primary: false, ..strike }), pending);
        }
        true
    }

    /// Whether `actor` may still act this round (a fumble's free hit may have felled it).
    fn still_able(&self, actor: Entity) -> bool {
        let round = self.round();
        self.units.get(actor).is_ok_and(|view| unit::may_act(*view.status, view.conditions, view.surprised, round))
    }

    /// Whether `target` is still active with more left than the damage queued against it.
    fn still_standing(&self, target: Entity, pending: &[Pending]) -> bool {
        let queued: i32 = pending
            .iter()
            .map(|effect| match effect {
                Pending::Damage(hit) if hit.target == target => hit.amount,
                _ => 0,
            })
            .sum();
        self.units
            .get(target)
            .is_ok_and(|view| *view.status == Status::Active && view.stress.current + view.wounds.current > queued)
    }

    /// Throws one item from the stack at `at`. Returns whether anything was thrown.
    fn throw(&mut self, slot: &Slot, at: usize, target: Entity, pending: &mut Vec<Pending>) -> bool {
        // The stack may have run out since the declaration, or hold nothing throwable.
        let Some(weapon) = self.take_item(slot.unit, at).and_then(|item| item.as_thrown_weapon()) else {
            return false;
        };
        let strike = Strike { primary: true, ..Strike::default() };
        let request = AttackRequest::new(slot.unit, target, slot.initiative, AttackKind::Thrown).with(strike);
        self.attack(request.thrown(weapon), pending);
        true
    }

    /// Weapon attacks `actor` makes this round (`C-MULTI-1`): one unless the ruleset's level bands say more.
    fn attacks_this_round(&self, actor: Entity) -> u32 {
        let (level, class) = self.levels.get(actor).map_or((1, None), |(level, class)| (level.0, class));
        super::initiative::attacks_per_round(&self.ruleset, level, class.map(|class| &*class.0), self.state.round)
    }

    /// Whether the declared target is still there and in reach after the move.
    fn target_in_reach(&self, slot: &Slot, target: Entity) -> bool {
        let (Ok(actor), Ok(other)) = (self.units.get(slot.unit), self.units.get(target)) else {
            self.fault(slot.unit, "checking the reach of an action");
            return false;
        };
        // The same reach the declaration was checked against, from where the actor stands now.
        other.status.on_field()
            && actions::reach(&actor, slot.action.kind)
                .is_ok_and(|reach| reach.reaches(&self.battlefield, actor.zone.0, other.zone.0))
    }

    /// Incapacitated and dying units pay Wound Points for exertion (`W-WOUND-1`, `W-WOUND-4`).
    fn pay_for_exertion(&mut self, slot: &Slot, pending: &mut Vec<Pending>) {
        if !slot.action.kind.is_exertion() {
            return;
        }
        let cost = self.ruleset.wounds.action_cost_when_down;
        let free = self.ruleset.wounds.stabilised_free_actions;
        let Some(mut unit) = self.faults.found(self.units.get_mut(slot.unit), slot.unit, "paying for exertion") else {
            return;
        };
        unit.record.actions_taken += 1;
        if !unit.status.is_down() || (unit.conditions.stabilised && unit.record.actions_taken <= free) {
            return;
        }
        pending.push(Pending::Damage(DamageHit {
            target: slot.unit,
            source: EXERTION.into(),
            amount: cost,
            damage_type: DamageType::Bleeding,
            critical: false,
            roll: None,
        }));
    }

    /// Applies one queued effect once its group has acted.
    fn apply(&mut self, effect: Pending) {
        match effect {
            Pending::Damage(hit) => {
                self.harm().deal(hit);
            }
            Pending::Restore { target, source, roll, wounds } => self.restore(target, source, roll, wounds),
            Pending::Stabilize { target } => self.stabilized(target),
        }
    }

    /// The parts of the battle damage touches, borrowed to deal a hit.
    fn harm(&mut self) -> Harm<'_, 'w, 's, 'w> {
        Harm {
            units: &mut self.units,
            index: &mut self.index,
            log: &mut self.log,
            rng: &mut self.rng,
            ruleset: &self.ruleset,
            tables: &self.tables,
            dealt: &mut self.dealt,
            round: self.state.round,
        }
    }
}
