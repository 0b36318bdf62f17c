//! The pace of a battle in the window: the pause between rounds, the player's speed, pausing and
//! stepping, and whether a battle replays unseen to catch up.

use std::time::Duration;

use bevy::prelude::*;

use crate::rules::log::CombatLog;
use crate::save::Replay;

/// Time between rounds so the board's animations can be followed.
#[derive(Resource, Clone, Debug)]
pub struct RoundPacing {
    /// How long a round stays on screen before the next one starts.
    pub delay: Duration,
    /// Time since the last round ended.
    pub elapsed: Duration,
    /// The round last seen.
    pub round: u32,
}

/// A round's pause in the window game at normal speed: long enough to follow the floating
/// numbers and read the round's log lines.
pub const ROUND_PAUSE: Duration = Duration::from_millis(2200);

/// How fast rounds follow each other in the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Speed {
    /// A full pause between rounds.
    #[default]
    Normal,
    /// Half the pause.
    Double,
    /// No pause at all.
    Instant,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 3] = [Speed::Normal, Speed::Double, Speed::Instant];

    /// Its label on the speed buttons.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Normal => "1x",
            Speed::Double => "2x",
            Speed::Instant => "Instant",
        }
    }

    /// The share of the round pause kept at this speed.
    pub(in crate::game) fn pause_share(self) -> f32 {
        match self {
            Speed::Normal => 1.0,
            Speed::Double => 0.5,
            Speed::Instant => 0.0,
        }
    }

    /// The next speed up (`faster`) or down, stopping at the ends.
    pub fn step(self, faster: bool) -> Speed {
        let at = Self::ALL.iter().position(|speed| *speed == self).unwrap_or(0);
        let next = if faster { (at + 1).min(Self::ALL.len() - 1) } else { at.saturating_sub(1) };
        Self::ALL[next]
    }
}

/// The player's control over pacing: the speed, a pause, and single rounds while paused.
#[derive(Resource, Clone, Debug, Default)]
pub struct Pace {
    /// How fast rounds follow each other.
    pub speed: Speed,
    /// No new round starts while paused (declaring still works).
    pub paused: bool,
    /// Rounds still to play while paused.
    pub steps: u32,
}

impl Default for RoundPacing {
    fn default() -> Self {
        Self { delay: ROUND_PAUSE, elapsed: Duration::ZERO, round: 0 }
    }
}

/// Whether the battle replays unseen to catch up (a loaded save, or a follower's record up to
/// the moment it joined); once caught up, a follower's battle is paced and shown as any other.
pub fn fast_forward(replay: Option<&Replay>, log: &CombatLog, following: bool) -> bool {
    replay.is_some_and(|replay| !following || log.entries().len() < replay.target_events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_step_up_and_down_and_stop_at_the_ends() {
        assert_eq!(Speed::Normal.step(true), Speed::Double);
        assert_eq!(Speed::Double.step(true), Speed::Instant);
        assert_eq!(Speed::Instant.step(true), Speed::Instant);
        assert_eq!(Speed::Normal.step(false), Speed::Normal);
        assert_eq!(Speed::Instant.step(false), Speed::Double);
    }
}
