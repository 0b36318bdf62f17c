//! The replay being watched (`fray replay FILE`): the recorded battle, the events in view, how
//! the view steps, and what the battle on the board must do to show them.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;

use super::pace::{Pace, Speed};
use super::playing_count::PlayingCount;
use crate::levels::{BattleSetup, BattleTemplate};
use crate::save::Declaration;

/// Time between events outside a count (a roll for initiative, a declaration, the end of a
/// round) when playing at normal speed.
pub const EVENT_INTERVAL: Duration = Duration::from_millis(600);

/// One way of stepping through the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayStep {
    /// One event back.
    EventBack,
    /// One event on.
    EventForward,
    /// Back to the end of the round before.
    RoundBack,
    /// On to the end of the next event's round.
    RoundForward,
}

/// A recorded battle to play back: how to start it again and the round of each logged event.
#[derive(Clone, Debug)]
pub struct PlaybackSource {
    /// The file it came from.
    pub file: PathBuf,
    /// The level it was fought on.
    pub template: BattleTemplate,
    /// Its seed and seats.
    pub setup: BattleSetup,
    /// A save's human declarations (a log holds AI-only battles, which need none).
    pub declarations: Option<Vec<Declaration>>,
    /// The round of each event, in log order.
    pub rounds: Vec<u32>,
}

/// The replay being watched: its events and how many of them are in view.
#[derive(Resource, Debug)]
pub struct Playback {
    /// What is played back.
    pub source: PlaybackSource,
    /// Events in view (0 before the first).
    pub cursor: usize,
    /// The log's length when the battle on the board last went on (`None` since it was
    /// spawned): a view that ends before it lacks what the board has played since.
    pub board_from: Option<usize>,
    /// Time since the last event came into view while playing.
    since_event: Duration,
}

/// What the battle on the board must do to show the events in view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Play on: the next count (or stage of the round) holds events still to show.
    Advance,
    /// Stay: every event in view has happened.
    Hold,
    /// Start again: the board is past the events in view.
    Rebuild,
}

impl Playback {
    /// A playback of `source`, before its first event.
    pub fn new(source: PlaybackSource) -> Self {
        Self { source, cursor: 0, board_from: None, since_event: Duration::ZERO }
    }

    /// Events in the whole replay.
    pub fn total(&self) -> usize {
        self.source.rounds.len()
    }

    /// The round of the last event in view (0 before round 1).
    pub fn round(&self) -> u32 {
        self.cursor.checked_sub(1).and_then(|at| self.source.rounds.get(at)).copied().unwrap_or(0)
    }

    /// The replay's last round.
    pub fn last_round(&self) -> u32 {
        self.source.rounds.last().copied().unwrap_or(0)
    }

    /// How many events have happened by the end of `round`.
    fn end_of_round(&self, round: u32) -> usize {
        self.source.rounds.partition_point(|at| *at <= round)
    }

    /// How many events happened before `round` began.
    fn start_of_round(&self, round: u32) -> usize {
        self.source.rounds.partition_point(|at| *at < round)
    }

    /// Moves the view (a step back past what the board has played asks for the battle again,
    /// see [`Self::drive`]).
    pub fn step(&mut self, step: ReplayStep) {
        let before = self.round();
        self.cursor = match step {
            ReplayStep::EventBack => self.cursor.saturating_sub(1),
            ReplayStep::EventForward => (self.cursor + 1).min(self.total()),
            ReplayStep::RoundBack => self.start_of_round(before),
            ReplayStep::RoundForward => match self.source.rounds.get(self.cursor) {
                Some(next) => self.end_of_round(*next),
                None => self.cursor,
            },
        };
        self.since_event = Duration::ZERO;
    }

    /// What the battle must do, given how many events it has logged. It goes on only while the
    /// view is ahead of it, so each count it resolves begins with an event in view; it starts
    /// again when the view went back before the first event of what it played last.
    pub fn drive(&self, logged: usize) -> Drive {
        if self.board_from.is_some_and(|from| from >= self.cursor) {
            Drive::Rebuild
        } else if logged < self.cursor {
            Drive::Advance
        } else {
            Drive::Hold
        }
    }

    /// What the battle must do this frame, as [`Self::drive`], noting where the board goes on
    /// from when it goes on.
    pub fn drive_now(&mut self, logged: usize) -> Drive {
        let drive = self.drive(logged);
        if drive == Drive::Advance {
            self.board_from = Some(logged);
        }
        drive
    }

    /// How far into its timeline the count on show stands with the events in view: when its
    /// last line in view came up, or its end once all of them are in view. `None` without a
    /// count on show, or while none of its lines is in view (the battle is about to start again).
    pub fn count_age(&self, count: &PlayingCount) -> Option<f32> {
        if count.slots.is_empty() {
            return None;
        }
        let last_in_view = self.cursor.checked_sub(count.lines.start)?.checked_sub(1)?;
        Some(count.at.get(last_in_view).copied().unwrap_or_else(|| count.length()))
    }

    /// Plays on while not paused, once the board has caught up: a count's events as its
    /// timeline brings them up (at 1x and 2x), any other event an interval after the last (a
    /// whole round at once at Instant), and nothing new until the count on show has been seen.
    pub fn tick(&mut self, elapsed: Duration, pace: &Pace, logged: usize, count: &PlayingCount) {
        if pace.paused || self.cursor >= self.total() || self.drive(logged) != Drive::Hold {
            return;
        }
        let instant = pace.speed == Speed::Instant;
        if count.playing() && !instant {
            if self.cursor < count.lines.end {
                let due = count.shown(logged).min(self.total());
                if due > self.cursor {
                    self.cursor = due;
                    self.since_event = Duration::ZERO;
                }
                return;
            }
            // Its results are read while the next event's interval runs.
            self.since_event += elapsed;
            return;
        }
        self.since_event += elapsed;
        let interval = match pace.speed {
            Speed::Normal => EVENT_INTERVAL,
            Speed::Double => EVENT_INTERVAL / 2,
            Speed::Instant => Duration::ZERO,
        };
        if self.since_event >= interval {
            let step = if instant { ReplayStep::RoundForward } else { ReplayStep::EventForward };
            self.step(step);
        }
    }
}

/// Whether the round pacing may start a round: `None` without a playback (the pace decides),
/// else only while the board has events still to show.
pub fn playback_wants_round(playback: Option<&Playback>, logged: usize) -> Option<bool> {
    playback.map(|playback| playback.drive(logged) == Drive::Advance)
}
