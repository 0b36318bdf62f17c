//! Power: the window updates only on input, or while something on screen still moves or the
//! battle runs on its own, so a battle waiting for a declaration does not spin a CPU core.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};

use super::LaunchOptions;
use super::controls::{BattleUi, DeclarationOptions};
use super::session::{Pace, Screen};
use crate::rules::log::CombatLog;
use crate::rules::{CombatPhase, CombatState};

/// With focus and nothing happening, the window still wakes this often (a clock, a file
/// changed on disk).
const FOCUSED_WAKE: Duration = Duration::from_secs(1);
/// Without focus it sleeps longer and ignores raw mouse motion.
const UNFOCUSED_WAKE: Duration = Duration::from_secs(10);
/// After anything happens in the battle, frames keep coming this long so moves, floating
/// numbers and critical rings play out.
const SETTLE: Duration = Duration::from_secs(3);

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive(FOCUSED_WAKE),
        unfocused_mode: UpdateMode::reactive_low_power(UNFOCUSED_WAKE),
    })
    .add_systems(Last, keep_awake);
}

/// What tells whether the window has work of its own to do.
#[derive(bevy::ecs::system::SystemParam)]
struct Activity<'w> {
    time: Res<'w, Time<Real>>,
    state: Res<'w, CombatState>,
    log: Res<'w, CombatLog>,
    options: Res<'w, DeclarationOptions>,
    ui: Res<'w, BattleUi>,
    pace: Res<'w, Pace>,
    screen: Res<'w, State<Screen>>,
    launch: Res<'w, LaunchOptions>,
    replay: Option<Res<'w, crate::save::Replay>>,
    keys: Res<'w, ButtonInput<KeyCode>>,
    buttons: Res<'w, ButtonInput<MouseButton>>,
}

impl Activity<'_> {
    /// Whether the battle moves on by itself: rounds resolving, AIs declaring, a save replaying.
    fn battle_runs(&self) -> bool {
        if *self.screen.get() != Screen::Battle || self.state.is_over() || self.state.phase == CombatPhase::Idle {
            return false;
        }
        let waits_for_a_person =
            self.state.phase == CombatPhase::Declare && (self.options.unit.is_some() || self.ui.curtain.is_some());
        let paused = self.pace.paused && self.pace.steps == 0 && self.state.phase == CombatPhase::Initiative;
        !waits_for_a_person && !paused
    }

    /// Whether a key or button is held (the camera pans while it is).
    fn holding_input(&self) -> bool {
        self.keys.get_pressed().next().is_some() || self.buttons.get_pressed().next().is_some()
    }
}

/// Asks for the next frame while there is work; otherwise lets the window sleep until input.
fn keep_awake(
    activity: Activity,
    mut seen: Local<(usize, Option<CombatPhase>, u32)>,
    mut last_change: Local<Duration>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = activity.time.elapsed();
    let current = (activity.log.entries().len(), Some(activity.state.phase), activity.state.round);
    if *seen != current {
        *seen = current;
        *last_change = now;
    }
    // Scripted and unattended runs count frames: they always get them.
    let unattended = activity.launch.script.is_some() || activity.launch.screenshots.is_some();
    let settling = now.saturating_sub(*last_change) < SETTLE;
    if unattended || settling || activity.replay.is_some() || activity.battle_runs() || activity.holding_input() {
        redraw.write(RequestRedraw);
    }
}
