//! A battle without a window: the headless app, driven update by update until the battle ends.

use bevy::app::First;
use bevy::prelude::*;

use crate::levels::{BattleSetup, BattleTemplate, WalkedPaths};
use crate::rules::components::UnitId;
use crate::rules::log::CombatLog;
use crate::rules::{CombatPhase, CombatState, Outcome};

/// Schedule runs a round of a declared-initiative ruleset may take: one for the round itself, one
/// more for each group of reinforcements that arrives mid-round and must declare. Turn-based
/// rulesets take one more for each turn (see [`HeadlessBattle::run_to_end`]).
pub const UPDATES_PER_ROUND: u32 = 4;

/// Schedule runs a round may take per unit in the battle: a turn-based ruleset gives each unit a
/// turn of its own, and a unit arriving mid-round may add a declaration pass of its own.
const UPDATES_PER_UNIT: u32 = 2;

/// A headless app holding one battle at a time.
pub struct HeadlessBattle {
    app: App,
    /// Every unit, kept between rounds: building a query afresh each round (to size the round's
    /// budget) cost about 3% of a 4-vs-4 battle.
    units: QueryState<(), With<UnitId>>,
    /// The units' paths of tables this world has made, so each battle after the first spawns
    /// its units whole.
    walked: WalkedPaths,
}

impl Default for HeadlessBattle {
    fn default() -> Self {
        Self::new()
    }
}

impl HeadlessBattle {
    /// An app with the rules, the battlefield and the AI controllers, and nothing else.
    pub fn new() -> Self {
        let mut app = crate::single_threaded_headless_app();
        let units = app.world_mut().query_filtered::<(), With<UnitId>>();
        Self { app, units, walked: WalkedPaths::default() }
    }

    /// One frame of the headless engine: `First` (where the message buffers turn over) and
    /// `Update` (the combat pipeline), then the removed-component trackers are cleared, as
    /// `App::update` does. The headless plugins have systems in no other schedule (no startup
    /// systems either), and `Main` running all its schedules each frame, most of them empty,
    /// cost about a tenth of a 4-vs-4 battle. Systems added through [`Self::app_mut`] belong in
    /// `Update`.
    fn frame(&mut self) {
        let world = self.app.world_mut();
        world.run_schedule(First);
        world.run_schedule(Update);
        world.clear_trackers();
    }

    /// Starts a fresh battle from `template`, replacing any previous one.
    pub fn start(&mut self, template: &BattleTemplate, setup: &BattleSetup) {
        template.spawn_along(self.app.world_mut(), setup, &mut self.walked);
    }

    /// Runs one schedule pass.
    pub fn step(&mut self) {
        self.frame();
    }

    /// Runs until the battle ends or `max_updates` passes have run; returns the outcome if it ended.
    pub fn run(&mut self, max_updates: u32) -> Option<Outcome> {
        for _ in 0..max_updates {
            if self.state().phase == CombatPhase::Over {
                break;
            }
            self.frame();
        }
        self.state().outcome.clone()
    }

    /// Runs to the end. The engine ends every battle by the ruleset's round limit (`max_rounds`
    /// in `combat_ended`), so this stops early, without an outcome, only when one round takes more
    /// schedule runs than it can: a battle waiting for a human, or an engine fault.
    pub fn run_to_end(&mut self) -> Option<Outcome> {
        let mut round = self.state().round;
        let mut budget = self.round_budget();
        let mut spent = 0;
        while !self.state().is_over() {
            if spent >= budget {
                return None;
            }
            self.frame();
            spent += 1;
            if self.state().round != round {
                round = self.state().round;
                budget = self.round_budget();
                spent = 0;
            }
        }
        self.state().outcome.clone()
    }

    /// Most schedule runs one round can take with the units now in the battle.
    fn round_budget(&mut self) -> u32 {
        let units = self.units.iter(self.app.world()).count() as u32;
        units.saturating_mul(UPDATES_PER_UNIT).saturating_add(UPDATES_PER_ROUND)
    }

    /// The pipeline state.
    pub fn state(&self) -> &CombatState {
        self.app.world().resource::<CombatState>()
    }

    /// The combat log.
    pub fn log(&self) -> &CombatLog {
        self.app.world().resource::<CombatLog>()
    }

    /// The world, to inspect units.
    pub fn world(&self) -> &World {
        self.app.world()
    }

    /// The world, to change it (tests).
    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// The app itself.
    pub fn app_mut(&mut self) -> &mut App {
        &mut self.app
    }
}
