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
mod hindrance;
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
};
use super::unit::{self, UnitItem, UnitView, UnitsMut};
use crate::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use crate::rules::log::line;
pub(super) use wounds::{DamageHit, Harm};

mod groups;
mod performing;
mod threats;

use groups::Pending;
pub(super) use performing::Strike;
use performing::{is_strike, leaves_a_bonus_action};
pub(super) use threats::SpentReactions;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, resolve_round.in_set(CombatSystems::Resolve));
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

impl<'w, 's> Resolver<'w, 's> {
    fn round(&self) -> u32 {
        self.state.round
    }
}

impl<'w, 's> Resolver<'w, 's> {
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
        self.rng.key(self.state.round, || self.units.get(unit).ok().map(|unit| unit.standing.order.0), draw);
    }

    /// Logs that `unit` lost its action, and why, and tells whoever listens (the search AI
    /// weighs a plan whose action would be lost).
    fn lose(&mut self, unit: Entity, reason: LostReason) {
        let (round, id) = (self.round(), self.id(unit));
        self.log.record(round, || LogEvent::ActionLost(line::ActionLost { unit: id, reason }));
        self.lost.write(ActionLost { unit, round });
    }
}
