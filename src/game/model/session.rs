//! The session's data: the levels on offer, the seats, the chosen level and seed, the battle
//! being played, and the messages that start a battle, leave it, or say it started.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::levels::mods::ModSet;
use crate::levels::{BattleTemplate, load_builtin_level, load_level};
use crate::rules::components::{AiKind, Controller};

/// Where a level comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelSource {
    /// Built into the binary, by file name.
    Builtin(&'static str),
    /// A file on disk, re-read at every battle start.
    File(PathBuf),
}

impl LevelSource {
    /// Loads and checks the level, with `mods` (and, for a file in a mod, its own mod).
    pub fn load(&self, mods: &ModSet) -> Result<BattleTemplate, crate::levels::LoadErrors> {
        match self {
            Self::Builtin(name) => load_builtin_level(name, mods),
            Self::File(path) => load_level(path, mods),
        }
    }
}

/// A level the menu offers.
#[derive(Clone, Debug)]
pub struct LevelChoice {
    /// Menu title.
    pub title: String,
    /// Where it comes from.
    pub source: LevelSource,
    /// Its last good load, if any.
    pub template: Option<BattleTemplate>,
    /// Its last load error, if the file is broken now.
    pub error: Option<String>,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person at this machine.
    Human,
    /// An AI.
    Ai(AiKind),
}

impl Seat {
    /// Every seat the menu offers: a person, or an AI at each difficulty (and the random one).
    pub const ALL: [Seat; 6] = [
        Seat::Human,
        Seat::Ai(AiKind::Easy),
        Seat::Ai(AiKind::Greedy),
        Seat::Ai(AiKind::Hard),
        Seat::Ai(AiKind::Master),
        Seat::Ai(AiKind::Random),
    ];

    /// The controller it means.
    pub fn controller(self) -> Controller {
        match self {
            Seat::Human => Controller::Human,
            Seat::Ai(kind) => Controller::Ai(kind),
        }
    }

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            Seat::Human => "Human",
            Seat::Ai(AiKind::Greedy) => "AI: normal (greedy)",
            Seat::Ai(AiKind::Random) => "AI: random moves",
            Seat::Ai(AiKind::Easy) => "AI: easy",
            Seat::Ai(AiKind::Hard) => "AI: hard (search)",
            Seat::Ai(AiKind::Master) => "AI: master (deep search)",
        }
    }

    /// Parses `human`, `ai` (greedy), or `ai:KIND` / `KIND` for any AI kind (`ai:hard`, `master`, ...).
    pub fn parse(text: &str) -> Option<Seat> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" => Some(Seat::Human),
            "ai" => Some(Seat::Ai(AiKind::Greedy)),
            other => AiKind::parse(other.strip_prefix("ai:").unwrap_or(other)).map(Seat::Ai),
        }
    }
}

/// The menu's choices and the battle being played.
#[derive(Resource, Debug, Default)]
pub struct Session {
    /// Levels on offer.
    pub levels: Vec<LevelChoice>,
    /// The chosen level.
    pub selected: usize,
    /// A seat per side of the chosen level.
    pub seats: Vec<Seat>,
    /// The seats the player chose in the menu, by side position: they carry over to the next
    /// level picked, as far as it has sides.
    pub chosen_seats: Vec<Seat>,
    /// Seed of the next battle.
    pub seed: u64,
    /// The battle being played (its last good data).
    pub current: Option<BattleTemplate>,
    /// A load error to show over the game, with `file:line:column`.
    pub error: Option<String>,
    /// Battles started since the game opened (restarts count).
    pub battles: u32,
}

/// Whether the menu's Play online window (host or join a battle) is open.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayOnlineOpen(pub bool);

impl Session {
    /// The chosen level.
    pub fn level(&self) -> Option<&LevelChoice> {
        self.levels.get(self.selected)
    }

    /// Chooses the level at `source`, adding it to the levels on offer if it is not there (a
    /// level named on the command line, the tutorial), loaded with `mods`, as [`Self::select`]
    /// does.
    pub fn select_source(&mut self, source: LevelSource, mods: &ModSet) {
        let at = match self.levels.iter().position(|level| level.source == source) {
            Some(at) => at,
            None => {
                self.levels.push(LevelChoice::load(source, mods));
                self.levels.len() - 1
            }
        };
        self.select(at);
    }

    /// Chooses level `at` and resets the seats to its sides' defaults and the seed to the
    /// level's own (0 when it names none), as `fray sim` does.
    pub fn select(&mut self, at: usize) {
        self.selected = at.min(self.levels.len().saturating_sub(1));
        self.seed =
            self.level().and_then(|level| level.template.as_ref()).and_then(|template| template.seed).unwrap_or(0);
        self.seats = self
            .level()
            .and_then(|level| level.template.as_ref())
            .map(|template| {
                template
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(at, side)| match side.controller {
                        // The first side is the player's unless the level says otherwise.
                        Controller::Ai(_) if at > 0 => Seat::Ai(AiKind::Greedy),
                        Controller::Ai(kind) => Seat::Ai(kind),
                        Controller::Human => Seat::Human,
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Some(first) = self.seats.first_mut() {
            *first = Seat::Human;
        }
        for (seat, chosen) in self.seats.iter_mut().zip(&self.chosen_seats) {
            *seat = *chosen;
        }
    }

    /// The player sets the seats in the menu; later levels keep them.
    pub fn choose_seats(&mut self, seats: Vec<Seat>) {
        self.chosen_seats.clone_from(&seats);
        self.seats = seats;
    }

    /// Number of human seats.
    pub fn humans(&self) -> usize {
        self.seats.iter().filter(|seat| **seat == Seat::Human).count()
    }
}

/// Starts (or restarts) the chosen level with the chosen seats, re-reading its files.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct StartBattle;

/// Leaves the battle for the menu.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BackToMenu;

/// A battle was just spawned (a first start or a restart): what shows it resets with it.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BattleStarted;

impl LevelChoice {
    /// Loads `source` with `mods` for the menu: its title and data, or its errors.
    pub fn load(source: LevelSource, mods: &ModSet) -> Self {
        let fallback = match &source {
            LevelSource::Builtin(name) => name.to_string(),
            LevelSource::File(path) => path.display().to_string(),
        };
        match source.load(mods) {
            Ok(template) => {
                LevelChoice { title: template.level_name.clone(), source, template: Some(template), error: None }
            }
            Err(errors) => LevelChoice { title: fallback, source, template: None, error: Some(errors.to_string()) },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_parse_from_the_command_line() {
        assert_eq!(Seat::parse("human"), Some(Seat::Human));
        assert_eq!(Seat::parse("ai:random"), Some(Seat::Ai(AiKind::Random)));
        assert_eq!(Seat::parse("AI"), Some(Seat::Ai(AiKind::Greedy)));
        assert_eq!(Seat::parse("ai:hard"), Some(Seat::Ai(AiKind::Hard)));
        assert_eq!(Seat::parse("ai:tactician"), Some(Seat::Ai(AiKind::Hard)));
        assert_eq!(Seat::parse("master"), Some(Seat::Ai(AiKind::Master)));
        // The menu offers every difficulty, each under its own label.
        for kind in [AiKind::Easy, AiKind::Greedy, AiKind::Hard, AiKind::Master] {
            assert!(Seat::ALL.contains(&Seat::Ai(kind)), "{kind:?} is missing from the menu");
        }
        let labels: std::collections::HashSet<_> = Seat::ALL.iter().map(|seat| seat.label()).collect();
        assert_eq!(labels.len(), Seat::ALL.len());
        assert_eq!(Seat::parse("robot"), None);
    }
}
