//! Sound effects that follow the battle as it is shown: each log line is heard when the round's
//! playout brings it up (`ShownLog`), never before, and a declaration never (it may be a secret
//! behind the hot-seat curtain). At 2x they are thinned to a few per moment; at Instant only
//! the end-of-battle stinger plays. Also the interface's clicks and the call to declare.

use std::collections::{HashSet, VecDeque};

use bevy::prelude::*;

use super::{AudioSystems, Sounds, cues, play};
use crate::game::model::battle_ui::{BattleUi, UiCommand};
use crate::game::model::pace::{Pace, Speed};
use crate::game::model::playing_count::ShownLog;
use crate::game::model::screen::Screen;
use crate::game::model::session::{Seat, Session};
use crate::rules::components::{Loadout, UnitId};
use crate::rules::log::{AttackKind, CombatLog, LogEvent};
use crate::rules::{CombatPhase, CombatState};

/// The moment over which effects are counted for thinning, in seconds of real time.
const THINNING_WINDOW_SECONDS: f32 = 0.25;
/// The most effects that start within one thinning window at 1x: a blow, its hit and a cry.
const EFFECTS_PER_WINDOW_AT_1X: usize = 4;
/// The same at 2x, where twice as many lines come up.
const EFFECTS_PER_WINDOW_AT_2X: usize = 2;

/// The most effects that may start within a thinning window at `speed` (none at Instant).
pub fn effects_per_window(speed: Speed) -> usize {
    match speed {
        Speed::Normal => EFFECTS_PER_WINDOW_AT_1X,
        Speed::Double => EFFECTS_PER_WINDOW_AT_2X,
        Speed::Instant => 0,
    }
}

/// When the last effects started, to thin them.
#[derive(Debug, Default)]
pub struct Thinning {
    started: VecDeque<f32>,
}

impl Thinning {
    /// Whether one more effect may start at `now` (seconds) under a cap of `cap` a window; if
    /// so, it is counted.
    pub fn admit(&mut self, now: f32, cap: usize) -> bool {
        while self.started.front().is_some_and(|at| now - at >= THINNING_WINDOW_SECONDS) {
            self.started.pop_front();
        }
        if self.started.len() >= cap {
            return false;
        }
        self.started.push_back(now);
        true
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (hear_the_log, interface_sounds, call_to_declare).in_set(AudioSystems).run_if(in_state(Screen::Battle)),
    );
}

/// What the log's listener reads.
#[derive(bevy::ecs::system::SystemParam)]
struct LogView<'w, 's> {
    log: Res<'w, CombatLog>,
    shown: Res<'w, ShownLog>,
    pace: Res<'w, Pace>,
    state: Res<'w, CombatState>,
    session: Res<'w, Session>,
    replay: Option<Res<'w, crate::save::Replay>>,
    units: Query<'w, 's, (&'static UnitId, &'static Loadout)>,
}

/// Plays the lines the board has brought up since last frame.
fn hear_the_log(
    mut commands: Commands,
    view: LogView,
    mut sounds: ResMut<Sounds>,
    screen: Res<crate::game::model::settings::SettingsScreen>,
    time: Res<Time<Real>>,
    mut heard: Local<usize>,
    mut thinning: Local<Thinning>,
) {
    let shown = view.shown.0.min(view.log.entries().len());
    // A new battle, or a replay stepped back: start listening from here.
    let from = (*heard).min(shown);
    *heard = shown;
    // A loaded save's rounds replay unseen up to where it was saved.
    if from == shown || view.replay.is_some() {
        return;
    }
    let cap = effects_per_window(view.pace.speed);
    let mut archers: Option<HashSet<&str>> = None;
    for entry in &view.log.entries()[from..shown] {
        if let LogEvent::CombatEnded(_) = entry.event {
            play(&mut commands, &mut sounds, &screen.audio, cues::end_key(won_here(&view)));
            continue;
        }
        // A blow of the unit's own choosing with a missile weapon is a shot; a free attack or a
        // reposte is a blow at hand.
        let ranged = match &entry.event {
            LogEvent::Attack(attack)
                if matches!(attack.kind, AttackKind::Normal | AttackKind::Held | AttackKind::Snap) =>
            {
                archers.get_or_insert_with(|| missile_wielders(&view)).contains(&*attack.attacker)
            }
            _ => false,
        };
        for key in cues::keys(&entry.event, ranged) {
            if thinning.admit(time.elapsed_secs(), cap) {
                play(&mut commands, &mut sounds, &screen.audio, &key);
            }
        }
    }
}

/// The log ids of the units whose main weapon is a missile weapon.
fn missile_wielders<'a>(view: &'a LogView) -> HashSet<&'a str> {
    view.units.iter().filter(|(_, loadout)| loadout.weapon.is_ranged()).map(|(id, _)| &*id.0).collect()
}

/// Whether the battle's end is a victory for whoever plays at this machine: a side of theirs
/// won, or, with no one playing here (AI against AI), anyone did.
fn won_here(view: &LogView) -> bool {
    let Some(winner) = view.state.outcome.as_ref().and_then(|outcome| outcome.winner) else {
        return false;
    };
    view.session.humans() == 0 || view.session.seats.get(winner) == Some(&Seat::Human)
}

/// The clicks: a unit or an option picked, a declaration made or refused, a draft dropped.
fn interface_sounds(
    mut commands: Commands,
    mut read: MessageReader<UiCommand>,
    ui: Res<BattleUi>,
    mut sounds: ResMut<Sounds>,
    screen: Res<crate::game::model::settings::SettingsScreen>,
) {
    for command in read.read() {
        let key = match command {
            UiCommand::Select(_)
            | UiCommand::SelectNext
            | UiCommand::SelectPrevious
            | UiCommand::ChooseKind(_)
            | UiCommand::ChooseOption(_)
            | UiCommand::NextTarget
            | UiCommand::NextKind
            | UiCommand::PickZone(_) => "ui.select",
            // A confirmed draft is cleared; one the rules refused stays drafted, with a hint.
            UiCommand::Confirm if ui.draft.kind.is_some() => "ui.refused",
            UiCommand::Confirm | UiCommand::EndDeclaration | UiCommand::LiftCurtain | UiCommand::ConfirmLeave => {
                "ui.confirm"
            }
            UiCommand::Cancel | UiCommand::StayInBattle => "ui.cancel",
            _ => continue,
        };
        play(&mut commands, &mut sounds, &screen.audio, key);
    }
}

/// A chime when the declarations open and someone at this machine has units to declare for.
fn call_to_declare(
    mut commands: Commands,
    state: Res<CombatState>,
    session: Res<Session>,
    replay: Option<Res<crate::save::Replay>>,
    mut sounds: ResMut<Sounds>,
    screen: Res<crate::game::model::settings::SettingsScreen>,
    mut was: Local<Option<CombatPhase>>,
) {
    let now = state.phase;
    let opened = now == CombatPhase::Declare && *was != Some(CombatPhase::Declare);
    *was = Some(now);
    if opened && session.humans() > 0 && replay.is_none() {
        play(&mut commands, &mut sounds, &screen.audio, "ui.your_turn");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_are_thinned_at_2x_and_silent_at_instant() {
        let mut thinning = Thinning::default();
        let started = (0..10).filter(|_| thinning.admit(0.0, effects_per_window(Speed::Double))).count();
        assert_eq!(started, EFFECTS_PER_WINDOW_AT_2X, "at 2x, a burst of lines is thinned");
        assert!(thinning.admit(THINNING_WINDOW_SECONDS, effects_per_window(Speed::Double)), "the next moment plays");
        let mut at_1x = Thinning::default();
        let started = (0..10).filter(|_| at_1x.admit(0.0, effects_per_window(Speed::Normal))).count();
        assert!(started > EFFECTS_PER_WINDOW_AT_2X, "1x thins less");
        let mut instant = Thinning::default();
        assert!(!instant.admit(0.0, effects_per_window(Speed::Instant)), "at Instant, no effects");
    }
}
