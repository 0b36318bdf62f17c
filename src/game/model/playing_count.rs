//! The initiative count being played out on the board, with the timeline of its log lines, and
//! how much of the combat log is on show.

use std::ops::Range;

use bevy::prelude::*;

use crate::rules::Slot;

/// The least time a count stays on the board at 1x, in seconds: long enough to see who acts
/// and at whom.
pub const COUNT_SECONDS: f32 = 1.0;
/// How long a count in which nothing happened stays on the board (a hold), in seconds at 1x.
pub(in crate::game) const QUIET_COUNT_SECONDS: f32 = 0.4;
/// Time left to read a count's results once its last line has shown, in seconds at 1x.
const READING_SECONDS: f32 = 0.6;

/// The count being played out, with the timeline of its log lines.
#[derive(Resource, Debug, Default, Clone)]
pub struct PlayingCount {
    /// The round it belongs to.
    pub round: u32,
    /// The initiative count (`None` before the first of a battle).
    pub count: Option<i32>,
    /// Its slots: one, or several resolving together.
    pub slots: Vec<Slot>,
    /// Its lines in the combat log.
    pub lines: Range<usize>,
    /// When each line shows, in seconds at 1x from the count's start.
    pub at: Vec<f32>,
    /// Seconds at 1x since the count resolved.
    pub age: f32,
}

impl PlayingCount {
    /// How long the count holds the board, in seconds at 1x: its lines, then time to read them.
    pub fn length(&self) -> f32 {
        match self.at.last() {
            Some(last) => (last + READING_SECONDS).max(COUNT_SECONDS),
            // Nothing happened (a hold, an action that came to nothing): a glance is enough.
            None => QUIET_COUNT_SECONDS,
        }
    }

    /// Whether it is still on show.
    pub fn playing(&self) -> bool {
        !self.slots.is_empty() && self.age < self.length()
    }

    /// How many entries of a log of `logged` the board shows now: all but this count's lines
    /// still to come, and anything logged after them.
    pub fn shown(&self, logged: usize) -> usize {
        if !self.playing() || self.lines.end > logged {
            return logged;
        }
        let due = self.at.iter().take_while(|at| **at <= self.age).count();
        self.lines.start + due
    }

    /// Whether `line` (a log index) is one of this count's lines.
    pub fn holds(&self, line: usize) -> bool {
        self.playing() && self.lines.contains(&line)
    }
}

/// How much of the combat log the board, its floating texts and the log window show: all of
/// it, but for the lines of the count being played out that have not come up yet.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ShownLog(pub usize);
