//! Who a unit is: its id, side, spawn order, AI kind and controller, initiative, size, level
//! and class.

use super::*;

/// The unit's id in its level (`"ghoul-1"`): how the log and the UI name it.
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnitId(pub Arc<str>);

/// The side a unit fights for, as an index into [`Sides`](crate::rules::Sides).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SideIndex(pub usize);

/// Where the unit stands in the level's unit list; breaks every tie deterministically.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SpawnOrder(pub u32);

/// The built-in AI controllers, from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AiKind {
    /// Picks uniformly among legal actions.
    Random,
    /// The greedy AI that now and then blunders into any legal action (difficulty `easy`).
    Easy,
    /// Attacks the best reachable target, defends when losing, closes distance sensibly
    /// (difficulty `normal`).
    #[serde(alias = "normal")]
    Greedy,
    /// Searches a portfolio of declarations with the real rules, about 100 ms a decision
    /// (difficulty `hard`; `tactician` names it too).
    #[serde(alias = "tactician")]
    Hard,
    /// The same search with about ten times the budget (difficulty `master`).
    Master,
}

impl AiKind {
    /// Every kind, weakest first.
    pub const ALL: [AiKind; 5] = [Self::Random, Self::Easy, Self::Greedy, Self::Hard, Self::Master];
    /// The names [`parse`](Self::parse) takes.
    pub const NAMES: [&str; 7] = ["random", "easy", "normal", "greedy", "hard", "tactician", "master"];

    /// Its name in the log and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Random => "random",
            Self::Easy => "easy",
            Self::Greedy => "greedy",
            Self::Hard => "hard",
            Self::Master => "master",
        }
    }

    /// A kind by name: `random`, `easy`, `normal` or `greedy`, `hard` or `tactician`, `master`.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Some(Self::Random),
            "easy" => Some(Self::Easy),
            "normal" | "greedy" => Some(Self::Greedy),
            "hard" | "tactician" => Some(Self::Hard),
            "master" => Some(Self::Master),
            _ => None,
        }
    }
}

/// Who chooses the unit's actions.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Controller {
    /// A person, through the game's UI.
    Human,
    /// One of the built-in AIs.
    Ai(AiKind),
}

impl Controller {
    /// The name the log uses.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Human => "human",
            Self::Ai(kind) => kind.name(),
        }
    }
}

/// Base Initiative (rolled once) and this round's Round Initiative.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Initiative {
    /// Base Initiative; `None` until rolled.
    pub base: Option<i32>,
    /// Round Initiative of the declared action this round.
    pub round: Option<i32>,
}

/// Identical monsters that share one initiative roll (`W-INIT-4`).
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InitiativeGroup(pub Arc<str>);

/// How big a creature is (`S-MAN-1`): shoving or grappling a bigger one is harder.
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum Size {
    /// A child, a goblin-sized creature.
    Small,
    /// A person: the chapter's "man-sized".
    #[default]
    Medium,
    /// Significantly larger but still humanoid: an ogre, a horse.
    Large,
    /// Only barely plausible to manhandle: a giant, an elephant.
    Huge,
}

impl Size {
    /// How many sizes `other` is above this one (0 when it is not bigger).
    pub fn steps_below(self, other: Size) -> u32 {
        (other as u32).saturating_sub(self as u32)
    }
}

/// Character level: attacks per round (`C-MULTI-1`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(pub u32);

impl Default for Level {
    fn default() -> Self {
        Self(1)
    }
}

/// Character class (`C-MULTI-1`): which column of the attacks-per-round table the unit uses;
/// absent means the fighter's (`turns.attacks_by_level`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct CharacterClass(pub std::sync::Arc<str>);
