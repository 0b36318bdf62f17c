//! The rules core: combat state as components and the six pipeline stages as ordered system sets.
//!
//! Nothing here renders; the headless simulator, the tests and the window game all run this code.

pub mod actions;
pub mod battle;
pub mod bonus;
pub mod components;
pub mod damage;
mod declare;
mod end;
pub mod equipment;
pub mod forecast;
mod forfeit;
pub mod gear_text;
pub mod glossary;
mod initiative;
pub mod legal;
mod lingering;
pub mod log;
pub mod log_text;
mod morale;
mod resolve;
pub mod ruleset;
pub mod state;
mod surprise;
pub mod unit;

/// Dice live in the shared vocabulary; `rules::dice` keeps the path every stage uses.
pub use crate::vocabulary::dice;

use bevy::prelude::*;

pub use forfeit::{Forfeits, SideForfeited};
pub use state::{
    ActionChosen, ActionLost, CheckedChoices, CombatInfo, CombatPhase, CombatState, DamageDealt, DeclarationQueue,
    DeclarationRejected, Following, Intimidated, Outcome, PassSeeds, ResolveByCount, SideInfo, Sides, Slot,
    VictoryCondition, VictoryConditions,
};

use state::in_phase;

/// The combat pipeline, one set per stage, run in this order every update.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CombatSystems {
    /// Who is surprised (once, at the start).
    Surprise,
    /// Base Initiative rolls, a new round, arrivals.
    Initiative,
    /// Controllers declare actions; waits for humans.
    Declare,
    /// Actions resolve in initiative order.
    Resolve,
    /// Monster morale checks.
    Morale,
    /// End of round: dying, hazards, victory.
    End,
}

/// The steps of the declare stage: controllers choose between opening and recording.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclareSystems {
    /// Builds the declaration order.
    Open,
    /// Controllers (AI, UI) write [`ActionChosen`].
    Choose,
    /// Checks and records the choices.
    Record,
    /// Once everyone has declared, fixes Round Initiatives and the resolution order.
    Close,
}

/// The steps of the end stage.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndSystems {
    /// Free strikes at the backs of the units that fled this round.
    Strikes,
    /// The round ends: the dying bleed, hazards bite, a forfeited side leaves, and the battle
    /// ends or the next round begins.
    Close,
}

/// Registers the rules: resources, messages and the six stages. Each stage runs only in its
/// phase of the battle: the condition sits on the stage's set, once, and every system that
/// joins the set (the stage's own, the record's, the controllers') takes it.
pub fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            CombatSystems::Surprise.run_if(in_phase(CombatPhase::Surprise)),
            CombatSystems::Initiative.run_if(in_phase(CombatPhase::Initiative)),
            CombatSystems::Declare.run_if(in_phase(CombatPhase::Declare)),
            CombatSystems::Resolve.run_if(in_phase(CombatPhase::Resolve)),
            CombatSystems::Morale.run_if(in_phase(CombatPhase::Morale)),
            CombatSystems::End.run_if(in_phase(CombatPhase::End)),
        )
            .chain(),
    );
    app.configure_sets(Update, (EndSystems::Strikes, EndSystems::Close).chain().in_set(CombatSystems::End));
    app.add_plugins((
        state::plugin,
        surprise::plugin,
        initiative::plugin,
        declare::plugin,
        lingering::plugin,
        resolve::plugin,
        morale::plugin,
        end::plugin,
        forfeit::plugin,
    ));
}
