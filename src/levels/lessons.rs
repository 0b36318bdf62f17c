//! Lessons a level may carry (the tutorial's): a prompt each, shown over the battle one after
//! another, each waiting for the player to do what it teaches before the next.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::battlefield::Cover;
use crate::rules::components::ActionKind;

/// One lesson: what to read, and what the player must do to go on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its heading.
    pub title: String,
    /// What it says, in plain words.
    pub text: String,
    /// What ends it.
    #[serde(default)]
    pub until: LessonGoal,
}

/// What the player must do for a lesson to end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum LessonGoal {
    /// Read it and press Continue; the battle waits meanwhile.
    #[default]
    Continue,
    /// Declare an action of this kind for one of the player's units.
    Declare(TaughtAction),
    /// Shoot at a foe that has this cover from where the shooter stands: one of the player's
    /// units declares an attack with a missile weapon (a bow, a crossbow, a sling) at it. On a
    /// grid only: zones have no cover.
    Shoot(TaughtCover),
    /// Watch the battle reach this round.
    Round(u32),
    /// Finish the battle.
    BattleOver,
}

/// The actions a lesson may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaughtAction {
    /// A weapon attack.
    Attack,
    /// A move.
    Move,
    /// Holding, doing nothing.
    Hold,
    /// Full defense.
    FullDefense,
    /// A defensive attack.
    DefensiveAttack,
    /// Moving away carefully, where the ruleset has it.
    Disengage,
}

impl TaughtAction {
    /// The action kind it stands for.
    pub fn kind(self) -> ActionKind {
        match self {
            Self::Attack => ActionKind::Attack,
            Self::Move => ActionKind::Move,
            Self::Hold => ActionKind::Hold,
            Self::FullDefense => ActionKind::FullDefense,
            Self::DefensiveAttack => ActionKind::DefensiveAttack,
            Self::Disengage => ActionKind::Disengage,
        }
    }
}

/// The cover a lesson may ask a shot to be taken against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaughtCover {
    /// No cover: the shooter sees all four corners of the target's square.
    Open,
    /// Half cover: a wall hides some of the corners.
    Half,
    /// Full cover: seen, but through an arrow slit, with no corner in sight.
    Full,
}

impl TaughtCover {
    /// The cover it stands for.
    pub fn cover(self) -> Cover {
        match self {
            Self::Open => Cover::None,
            Self::Half => Cover::Half,
            Self::Full => Cover::Full,
        }
    }
}
