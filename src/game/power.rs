//! Power: the window updates only on input, or while something on screen still moves or the
//! battle runs on its own, so a battle waiting for a declaration does not spin a CPU core.
//!
//! Two things in bevy_egui 0.42 kept an idle window drawing every frame (about 50–70% of a
//! core under Xvfb): it hands egui a "modifier keys changed" event every frame, changed or not,
//! and egui answers any input event with an immediate repaint; and it turns *any* pending egui
//! repaint into a redraw at once, even one egui wants seconds from now (a tooltip's delay, a
//! text cursor's blink). So this file drops the modifier event when the modifiers did not
//! change, reads egui's own repaint delay, drops every redraw request of the frame, and asks
//! again only for input, a running battle or replay, an animation still settling, or egui's
//! repaint once it is due. Set `FRAY_POWER_TRACE=1` to print, each second, the frames drawn
//! and why.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiFullOutput, EguiInput, EguiPostUpdateSet, EguiPreUpdateSet, egui};

use super::model::battle_ui::{BattleUi, DeclarationOptions};
use super::model::launch::LaunchOptions;
use super::model::pace::Pace;
use super::model::screen::Screen;
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
/// The environment variable that turns on the once-a-second trace of frames and their causes.
const TRACE_VARIABLE: &str = "FRAY_POWER_TRACE";
/// How often the trace prints.
const TRACE_EVERY: Duration = Duration::from_secs(1);

/// When egui next wants to be drawn: `Some(ZERO)` now, `Some(delay)` that long after the
/// frame it asked in (a tooltip or a blinking cursor), `None` never.
#[derive(Resource, Debug, Default)]
struct EguiRepaint {
    due: Option<Duration>,
    /// Where egui's code asked for it (for the trace).
    causes: String,
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive(FOCUSED_WAKE),
        unfocused_mode: UpdateMode::reactive_low_power(UNFOCUSED_WAKE),
    })
    .init_resource::<EguiRepaint>()
    .add_systems(
        PreUpdate,
        drop_unchanged_modifiers.after(EguiPreUpdateSet::ProcessInput).before(EguiPreUpdateSet::BeginPass),
    )
    .add_systems(
        PostUpdate,
        read_egui_repaint.after(EguiPostUpdateSet::EndPass).before(EguiPostUpdateSet::ProcessOutput),
    )
    .add_systems(Last, keep_awake);
}

/// Removes the frame's "modifiers changed" event when they did not change: egui repaints at
/// once for any event, so an unchanged one every frame would never let the window sleep.
fn drop_unchanged_modifiers(mut inputs: Query<&mut EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        input.0.events.retain(|event| match event {
            egui::Event::ModifiersChanged(modifiers) => {
                let changed = *last != Some(*modifiers);
                *last = Some(*modifiers);
                changed
            }
            _ => true,
        });
    }
}

/// Notes when egui wants its next frame, before bevy_egui turns any pending repaint into a
/// redraw request (which `keep_awake` then overrules).
fn read_egui_repaint(
    outputs: Query<&EguiFullOutput>,
    time: Res<Time<Real>>,
    mut repaint: ResMut<EguiRepaint>,
    mut contexts: bevy_egui::EguiContexts,
    trace: Local<Trace>,
) {
    if trace.on
        && let Ok(ctx) = contexts.ctx_mut()
    {
        repaint.causes = format!(
            "{:?} events {:?} delta {:?}",
            ctx.repaint_causes(),
            ctx.input(|input| input.raw.events.clone()),
            ctx.input(|input| input.pointer.delta())
        );
    }
    let delay = outputs
        .iter()
        .filter_map(|output| output.0.as_ref())
        .flat_map(|output| output.viewport_output.values().map(|viewport| viewport.repaint_delay))
        .min();
    let due = delay.and_then(|delay| time.elapsed().checked_add(delay));
    // A new frame's request replaces the old one: egui repeats any it still wants.
    repaint.due = due;
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
    playback: Option<Res<'w, super::model::playback::Playback>>,
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

    /// Whether a replay plays on, or its board still catches up with the events in view.
    fn replaying(&self) -> bool {
        self.playback.as_ref().is_some_and(|playback| {
            let playing = !self.pace.paused && playback.cursor < playback.total();
            playing || playback.drive(self.log.entries().len()) != super::model::playback::Drive::Hold
        })
    }

    /// Whether a key or button is held (the camera pans while it is).
    fn holding_input(&self) -> bool {
        self.keys.get_pressed().next().is_some() || self.buttons.get_pressed().next().is_some()
    }
}

/// Asks for the next frame while there is work; otherwise lets the window sleep until input.
/// Every redraw request of the frame (bevy_egui's among them) is dropped first, so this is
/// the only one that counts.
fn keep_awake(
    activity: Activity,
    egui: Res<EguiRepaint>,
    mut seen: Local<(usize, Option<CombatPhase>, u32)>,
    mut last_change: Local<Duration>,
    mut redraws: ResMut<Messages<RequestRedraw>>,
    mut trace: Local<Trace>,
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
    let egui_due = egui.due.is_some_and(|due| due <= now);
    let reasons = [
        ("unattended", unattended),
        ("settling", settling),
        ("loading", activity.replay.is_some()),
        ("battle runs", activity.battle_runs()),
        ("replay", activity.replaying()),
        ("input held", activity.holding_input()),
        ("egui", egui_due),
    ];
    redraws.clear();
    let awake = reasons.iter().any(|(_, reason)| *reason);
    if awake {
        redraws.write(RequestRedraw);
    }
    trace.frame(now, &reasons, &egui.causes);
}

/// Counts frames and their causes for `FRAY_POWER_TRACE`.
#[derive(Debug)]
struct Trace {
    on: bool,
    since: Duration,
    frames: u32,
    causes: std::collections::BTreeMap<&'static str, u32>,
}

impl Default for Trace {
    fn default() -> Self {
        Self { on: std::env::var_os(TRACE_VARIABLE).is_some(), since: Duration::ZERO, frames: 0, causes: default() }
    }
}

impl Trace {
    /// Counts one frame and why the next was asked for; prints once every [`TRACE_EVERY`].
    fn frame(&mut self, now: Duration, reasons: &[(&'static str, bool)], egui_causes: &str) {
        if !self.on {
            return;
        }
        self.frames += 1;
        for (name, _) in reasons.iter().filter(|(_, reason)| *reason) {
            *self.causes.entry(name).or_default() += 1;
        }
        if now.saturating_sub(self.since) >= TRACE_EVERY {
            eprintln!(
                "power: {} frames in {:.1?}, next frame asked for by {:?}; egui's last causes: {egui_causes}",
                self.frames,
                now - self.since,
                self.causes
            );
            self.since = now;
            self.frames = 0;
            self.causes.clear();
        }
    }
}
