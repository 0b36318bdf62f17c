//! The save file: a header saying which battle it is (level and ruleset fingerprints, seed,
//! seats) and the declarations made so far. Loading replays them through the engine, so the
//! file stays small and a save is exactly as good as the rules that play it back.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::error::SaveError;
use crate::battlefield::ZoneIdx;
use crate::levels::BattleTemplate;
use crate::levels::mods::ModSet;
use crate::levels::stamp::ModStamp;
pub use crate::levels::stamp::{fnv1a, hash_bytes};
use crate::rules::components::{ActionKind, AimPoint, BonusUses, Controller};

/// The save format this build writes and reads.
pub const FORMAT: u32 = 1;

/// The path prefix a built-in level's template carries as its source.
const BUILTIN_PREFIX: &str = "<built-in>/levels/";

/// A saved battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Save")]
pub struct SaveFile {
    /// The save format ([`FORMAT`]).
    pub format: u32,
    /// The Fray version that wrote it.
    pub fray: String,
    /// Where the level comes from.
    pub level: LevelRef,
    /// The level's name, for lists of saves.
    pub level_name: String,
    /// The ruleset's name, for lists of saves.
    pub ruleset: String,
    /// Fingerprints of what the battle was played on.
    pub hashes: ContentHashes,
    /// The combat RNG's seed.
    pub seed: u64,
    /// Who played each side at the start, by side name.
    pub seats: Vec<(String, Controller)>,
    /// Who plays each side now, where a side was handed to the AI or taken back during the
    /// battle; each declaration's `by` says who made it, so the replay follows the handovers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats_now: Vec<(String, Controller)>,
    /// The round when it was saved.
    pub round: u32,
    /// Log lines written when it was saved: the replay runs until it has written as many.
    pub events: usize,
    /// FNV-1a of those log lines as JSON Lines, to prove the replay reproduced them.
    pub log_hash: String,
    /// Seconds since the Unix epoch when it was saved.
    pub saved_at: u64,
    /// Every declaration accepted so far, in the order the rules recorded them.
    pub declarations: Vec<Declaration>,
    /// The mods the battle was played with, in load order (none in saves from before mods).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<ModStamp>,
    /// An online battle's dice seeds, one per declaration pass closed, in order (`None` offline).
    /// Its declarations were all made elsewhere (the AI seats' too, on a seed no one saw), so a
    /// replay plays every one of them as made rather than asking the AI again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_seeds: Option<Vec<u64>>,
    /// An online battle's forfeits: the sides whose players did not return, each with the round
    /// at whose end its units left the fight (none offline, and in saves from before forfeits).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<SavedForfeit>,
}

/// Where a saved battle's level comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LevelRef {
    /// Built into the binary, by file name.
    Builtin(String),
    /// A level file.
    File(PathBuf),
}

impl LevelRef {
    /// Where `template` was loaded from.
    pub fn of(template: &BattleTemplate) -> Self {
        match template.source.to_str().and_then(|source| source.strip_prefix(BUILTIN_PREFIX)) {
            Some(name) => Self::Builtin(name.to_string()),
            None => Self::File(template.source.clone()),
        }
    }

    /// Loads the level, checked, with `mods`.
    pub fn load(&self, mods: &ModSet) -> Result<BattleTemplate, crate::levels::LoadErrors> {
        match self {
            Self::Builtin(name) => crate::levels::load_builtin_level(name, mods),
            // A shipped level saved by its path loads from the binary where the file is not.
            Self::File(path) => crate::levels::load_level_or_builtin(path, mods),
        }
    }
}

impl LevelRef {
    /// The mods loading the level with `mods` would use, even when it does not load.
    pub fn mods_now(&self, mods: &ModSet) -> Vec<ModStamp> {
        match self {
            Self::Builtin(_) => mods.stamps(),
            Self::File(path) => mods.with_owner_of(path).stamps(),
        }
    }
}

/// How the mods of a save differ from the mods in play, one line per mod; empty when they match.
pub fn mod_changes(saved: &[ModStamp], now: &[ModStamp]) -> Vec<String> {
    let mut changes = Vec::new();
    for before in saved {
        match now.iter().find(|current| current.id == before.id) {
            None => changes.push(format!("mod `{}` {} is not enabled", before.id, before.version)),
            Some(current) if current.version != before.version => changes.push(format!(
                "mod `{}` is version {} now, but the battle was played with {}",
                before.id, current.version, before.version
            )),
            Some(current) if current.hash != before.hash => changes.push(format!(
                "mod `{}` {} changed since the battle was played (its files differ)",
                before.id, before.version
            )),
            Some(_) => {}
        }
    }
    for current in now.iter().filter(|current| !saved.iter().any(|before| before.id == current.id)) {
        changes
            .push(format!("mod `{}` {} is enabled, but the battle was played without it", current.id, current.version));
    }
    changes
}

impl std::fmt::Display for LevelRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Builtin(name) => write!(f, "built-in {name}"),
            Self::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Fingerprints of each part of a battle's content, so a refusal can say what changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentHashes {
    /// Zones or squares, their hazards and links.
    pub battlefield: String,
    /// Sides.
    pub sides: String,
    /// Every unit with its resolved numbers (catalog changes show here).
    pub units: String,
    /// Victory conditions, declaration order and injury tables.
    pub victory: String,
    /// The ruleset.
    pub ruleset: String,
}

impl ContentHashes {
    /// The fingerprints of `template`.
    pub fn of(template: &BattleTemplate) -> Self {
        let battlefield = &template.battlefield;
        let links: Vec<&[ZoneIdx]> =
            (0..battlefield.len()).map(|zone| battlefield.neighbours(zone as ZoneIdx)).collect();
        let ruleset = ron::to_string(&template.ruleset).unwrap_or_else(|_| format!("{:?}", template.ruleset));
        Self {
            battlefield: hash_debug(&(battlefield.zones(), battlefield.grid(), links)),
            sides: hash_debug(&template.sides),
            units: hash_debug(&template.units),
            victory: hash_debug(&(&template.victory, template.declaration_order, &template.injuries)),
            ruleset: hash_text(&ruleset),
        }
    }

    /// What differs between two fingerprints, in words.
    pub fn changes(&self, now: &Self) -> Vec<&'static str> {
        [
            (self.battlefield != now.battlefield, "level's battlefield"),
            (self.sides != now.sides, "level's sides"),
            (self.units != now.units, "level's units (or the catalog they come from)"),
            (self.victory != now.victory, "level's victory conditions or injury tables"),
            (self.ruleset != now.ruleset, "ruleset"),
        ]
        .into_iter()
        .filter_map(|(changed, what)| changed.then_some(what))
        .collect()
    }
}

/// A hash as the save writes it.
pub fn hash_text(text: &str) -> String {
    hash_bytes(text.as_bytes())
}

fn hash_debug(value: &impl std::fmt::Debug) -> String {
    hash_text(&format!("{value:?}"))
}

/// One accepted declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// The round it was made in.
    pub round: u32,
    /// The declaring unit's level id.
    pub unit: Arc<str>,
    /// Who declared it: a human's choices are replayed, an AI's are checked against the AI.
    pub by: Controller,
    /// What.
    pub kind: SavedKind,
    /// At whom, by level id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Arc<str>>,
    /// The zone (or square) moved to first, by index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_to: Option<ZoneIdx>,
    /// The Bonus Actions, when the declaration chose them (`A-BONUS-1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<BonusUses>,
    /// The zone a shove pushes into, a drag takes the grappler to or a hurl lands the held foe
    /// in, when the declaration chose it (`Z-STUNT-1`, `S-MAN-1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_to: Option<ZoneIdx>,
    /// Where the unit moves once its action is done, when the declaration split its move (`C-MOVE-1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_after: Option<ZoneIdx>,
    /// What a hold against a foe does when the foe comes, when the declaration named it (`S-ACT-2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<SavedHeld>,
}

/// A side that gave up an online battle (see [`SaveFile::forfeits`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedForfeit {
    /// The round at whose end its units left the fight.
    pub round: u32,
    /// The side, by name.
    pub side: String,
}

/// A held action's plan (`S-ACT-2`) as a save writes it: its action, target and destination.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedHeld {
    /// What.
    pub kind: SavedKind,
    /// At whom, by level id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Arc<str>>,
    /// Where a held move goes, by index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_to: Option<ZoneIdx>,
}

/// [`ActionKind`] as a save writes it: the rules' own enum stays free of the file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[expect(missing_docs, reason = "each variant is the ActionKind of the same name")]
pub enum SavedKind {
    Attack,
    DefensiveAttack,
    FullDefense,
    Cast(usize),
    UseItem(usize),
    Throw(usize),
    Move,
    Hold,
    Stabilize,
    Intimidate,
    Disengage,
    Charge,
    Swarm,
    Aimed(AimPoint),
    Shove,
    Grapple,
    StandUp,
    Execute,
    Screen,
    GoProne,
    BreakFree,
    KnockDown,
    HoldAction,
    LetGo,
    Delay,
    Drag,
    Hurl,
    ShakeOff,
}

impl From<ActionKind> for SavedKind {
    fn from(kind: ActionKind) -> Self {
        match kind {
            ActionKind::Attack => Self::Attack,
            ActionKind::DefensiveAttack => Self::DefensiveAttack,
            ActionKind::FullDefense => Self::FullDefense,
            ActionKind::Cast(at) => Self::Cast(at),
            ActionKind::UseItem(at) => Self::UseItem(at),
            ActionKind::Throw(at) => Self::Throw(at),
            ActionKind::Move => Self::Move,
            ActionKind::Hold => Self::Hold,
            ActionKind::Stabilize => Self::Stabilize,
            ActionKind::Intimidate => Self::Intimidate,
            ActionKind::Disengage => Self::Disengage,
            ActionKind::Charge => Self::Charge,
            ActionKind::Swarm => Self::Swarm,
            ActionKind::Aimed(aim) => Self::Aimed(aim),
            ActionKind::Shove => Self::Shove,
            ActionKind::Grapple => Self::Grapple,
            ActionKind::StandUp => Self::StandUp,
            ActionKind::Execute => Self::Execute,
            ActionKind::Screen => Self::Screen,
            ActionKind::GoProne => Self::GoProne,
            ActionKind::BreakFree => Self::BreakFree,
            ActionKind::KnockDown => Self::KnockDown,
            ActionKind::HoldAction => Self::HoldAction,
            ActionKind::LetGo => Self::LetGo,
            ActionKind::Delay => Self::Delay,
            ActionKind::Drag => Self::Drag,
            ActionKind::Hurl => Self::Hurl,
            ActionKind::ShakeOff => Self::ShakeOff,
        }
    }
}

impl From<SavedKind> for ActionKind {
    fn from(kind: SavedKind) -> Self {
        match kind {
            SavedKind::Attack => Self::Attack,
            SavedKind::DefensiveAttack => Self::DefensiveAttack,
            SavedKind::FullDefense => Self::FullDefense,
            SavedKind::Cast(at) => Self::Cast(at),
            SavedKind::UseItem(at) => Self::UseItem(at),
            SavedKind::Throw(at) => Self::Throw(at),
            SavedKind::Move => Self::Move,
            SavedKind::Hold => Self::Hold,
            SavedKind::Stabilize => Self::Stabilize,
            SavedKind::Intimidate => Self::Intimidate,
            SavedKind::Disengage => Self::Disengage,
            SavedKind::Charge => Self::Charge,
            SavedKind::Swarm => Self::Swarm,
            SavedKind::Aimed(aim) => Self::Aimed(aim),
            SavedKind::Shove => Self::Shove,
            SavedKind::Grapple => Self::Grapple,
            SavedKind::StandUp => Self::StandUp,
            SavedKind::Execute => Self::Execute,
            SavedKind::Screen => Self::Screen,
            SavedKind::GoProne => Self::GoProne,
            SavedKind::BreakFree => Self::BreakFree,
            SavedKind::KnockDown => Self::KnockDown,
            SavedKind::HoldAction => Self::HoldAction,
            SavedKind::LetGo => Self::LetGo,
            SavedKind::Delay => Self::Delay,
            SavedKind::Drag => Self::Drag,
            SavedKind::Hurl => Self::Hurl,
            SavedKind::ShakeOff => Self::ShakeOff,
        }
    }
}

impl SaveFile {
    /// The save as RON text.
    pub fn to_text(&self) -> String {
        let config = ron::ser::PrettyConfig::new().depth_limit(2).struct_names(true);
        // A derived, fully owned value always serialises; a failure here would be a bug.
        ron::ser::to_string_pretty(self, config).unwrap_or_default()
    }

    /// Parses a save's text; `path` is for messages. Checks the format version.
    pub fn from_text(text: &str, path: &Path) -> Result<Self, SaveError> {
        let save: Self = ron::from_str(text).map_err(|error| SaveError::Parse {
            path: path.to_path_buf(),
            line: error.span.start.line,
            column: error.span.start.col,
            message: error.code.to_string(),
        })?;
        if save.format != FORMAT {
            return Err(SaveError::Version {
                path: path.to_path_buf(),
                found: save.format,
                expected: FORMAT,
                fray: env!("CARGO_PKG_VERSION"),
            });
        }
        Ok(save)
    }

    /// Reads a save file.
    pub fn read(path: &Path) -> Result<Self, SaveError> {
        let text = std::fs::read_to_string(path).map_err(|source| SaveError::Io { path: path.into(), source })?;
        Self::from_text(&text, path)
    }

    /// Writes the save to `path` without ever leaving a half-written file there: the text goes
    /// to a temporary file beside it, is flushed to disk, then renamed over the old save.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        write_atomically(path, self.to_text().as_bytes())
    }
}

/// Writes `bytes` to `path` with [`crate::files::write_atomically`]: the previous file stays
/// whole until the new one is complete.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    crate::files::write_atomically(path, bytes).map_err(|source| SaveError::Io { path: path.into(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_kind_survives_the_round_trip() {
        use strum::IntoEnumIterator;
        let payloads = [ActionKind::Cast(2), ActionKind::UseItem(1), ActionKind::Throw(3)];
        let kinds = crate::rules::ruleset::Offer::iter()
            .map(crate::rules::ruleset::Offer::sample)
            .chain(payloads)
            .chain(AimPoint::ALL.map(ActionKind::Aimed));
        for kind in kinds {
            assert_eq!(ActionKind::from(SavedKind::from(kind)), kind);
        }
    }

    #[test]
    fn a_held_plan_survives_the_round_trip_and_old_declarations_have_none() {
        let held = Declaration {
            round: 2,
            unit: "b1".into(),
            by: Controller::Human,
            kind: SavedKind::HoldAction,
            target: Some("r1".into()),
            move_to: None,
            bonus: None,
            push_to: None,
            move_after: None,
            held: Some(SavedHeld { kind: SavedKind::Cast(1), target: Some("b2".into()), move_to: None }),
        };
        let text = ron::to_string(&held).expect("a declaration writes");
        assert_eq!(ron::from_str::<Declaration>(&text).expect("and reads back"), held);
        let old = "(round: 2, unit: \"b1\", by: human, kind: hold_action, target: Some(\"r1\"))";
        assert_eq!(ron::from_str::<Declaration>(old).expect("an old declaration reads").held, None);
    }

    #[test]
    fn a_builtin_level_is_named_by_its_file() {
        let template =
            crate::levels::load_builtin_level("duel.ron", &crate::levels::mods::ModSet::default()).expect("duel loads");
        assert_eq!(LevelRef::of(&template), LevelRef::Builtin("duel.ron".into()));
        assert_eq!(ContentHashes::of(&template), ContentHashes::of(&template.clone()));
    }
}
