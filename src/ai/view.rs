//! What an AI reads of the battle, read-only: the view every strategy takes, the choices made
//! earlier in a pass, and the declarations a search forces. It imports no strategy, so the
//! strategies and the controller that runs them all read it one way.

use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::battlefield::{Battlefield, ZoneIndex};
use crate::rules::actions::ActionContext;
use crate::rules::components::*;
use crate::rules::dice::Dice;
use crate::rules::equipment::InjuryTables;
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::UnitReadOnly;
use crate::rules::{CombatInfo, CombatState, DeclarationQueue, Sides, VictoryConditions};

/// Choices made earlier in the same declaration pass, not yet recorded on the units.
pub type JustDeclared = bevy::ecs::entity::EntityHashMap<Action>;

/// Declarations already decided for some AI units: the search's plan, played out in its forward
/// model. The controller declares each as it stands when the unit's turn comes, in the same pass
/// as its own choices, so the units after it weigh it exactly as they weigh any ally's choice.
#[derive(Resource, Clone, Debug, Default)]
pub struct ForcedDeclarations(pub JustDeclared);

/// Odds of dice the greedy AI's manhandling asks for again and again, once worked out: pure
/// functions of their keys, so a remembered value is the one working it out again would give.
#[derive(Debug, Default)]
pub struct OddsMemo {
    /// The chance a die plus an edge beats another roll of it, by die and edge: asked for every
    /// foe a manoeuvre is weighed against (thousands of times a battle on the grid skirmishes).
    pub opposed_odds: std::cell::RefCell<std::collections::HashMap<(Dice, i32), f64>>,
    /// The chance a test falls short, by die, modifier and target number.
    pub failed_tests: std::cell::RefCell<std::collections::HashMap<(Dice, i32, i32), f64>>,
}

/// What an AI reads: the battle, read-only.
#[derive(SystemParam)]
pub struct AiView<'w, 's> {
    /// Every unit.
    pub units: Query<'w, 's, UnitReadOnly>,
    /// Every unit's side, zone and standing: what a pass's view cache reads of most units.
    pub briefs: Query<'w, 's, crate::rules::actions::BriefParts>,
    /// Every entity, for the bound on their indices.
    pub entities: &'w bevy::ecs::entity::Entities,
    /// Zones.
    pub battlefield: Res<'w, Battlefield>,
    /// Who stands where.
    pub index: Res<'w, ZoneIndex>,
    /// Rules.
    pub ruleset: Res<'w, Ruleset>,
    /// Round.
    pub state: Res<'w, CombatState>,
    /// Whose turn.
    pub queue: Res<'w, DeclarationQueue>,
    /// Units waiting to be summoned, and by whom (`A-SUMM-1`).
    pub summoned:
        Query<'w, 's, (&'static crate::rules::components::Summoned, &'static crate::rules::components::Status)>,
    /// Every unit, whole, for the search's snapshot.
    pub snapshot: Query<'w, 's, SnapshotData>,
    /// Extra victory conditions.
    pub victory: Res<'w, VictoryConditions>,
    /// The sides.
    pub sides: Res<'w, Sides>,
    /// The battle's name and seed.
    pub info: Res<'w, CombatInfo>,
    /// Injury tables.
    pub injuries: Res<'w, InjuryTables>,
    /// Dice odds worked out so far, kept by the system that reads this view.
    pub odds: Local<'s, OddsMemo>,
}

impl AiView<'_, '_> {
    /// The legality context.
    pub fn ctx(&self) -> ActionContext<'_> {
        ActionContext {
            ruleset: &self.ruleset,
            battlefield: &self.battlefield,
            index: &self.index,
            round: self.state.round,
        }
    }

    /// The action `unit` has declared, if the AI may see it (never while declarations are
    /// secret). `just_declared` holds the choices made earlier in this same pass.
    pub fn visible_declaration(&self, unit: Entity, just_declared: &JustDeclared) -> Option<Action> {
        if self.queue.secret {
            return None;
        }
        just_declared
            .get(&unit)
            .copied()
            .or_else(|| self.units.get(unit).ok().and_then(|view| view.round.declared.action))
    }

    /// The declarations already made in the open declaration window (this round's, or this
    /// turn's where units act on their turn), none of them resolved yet. A pass that starts
    /// after some of them (a human declared in between, or a search made the pass wait a frame)
    /// takes them as made earlier in the pass: splitting a window over frames changes no choice.
    pub fn declared_this_window(&self) -> JustDeclared {
        self.queue
            .order
            .iter()
            .zip(&self.queue.done)
            .filter(|(_, done)| **done)
            .filter_map(|(&unit, _)| {
                self.units.get(unit).ok().and_then(|view| Some((unit, view.round.declared.action?)))
            })
            .collect()
    }
}

/// Every component a unit carries in the rules, read-only: what a snapshot copies.
#[derive(QueryData)]
pub struct SnapshotData {
    /// The unit as the stages see it.
    pub(super) unit: UnitReadOnly,
    /// What the stages' query leaves out.
    pub(super) markers: Markers,
}

/// The marker and optional components of a unit that [`UnitReadOnly`] does not read.
#[derive(QueryData)]
pub struct Markers {
    pub(super) initiator: Has<Initiator>,
    pub(super) threatened: Has<Threatened>,
    pub(super) stood_aside: Has<StoodAside>,
    pub(super) group: Option<&'static InitiativeGroup>,
    pub(super) slots: Option<&'static SummoningSlots>,
    pub(super) summoned: Option<&'static Summoned>,
}
