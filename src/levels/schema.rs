//! The RON file formats modders write: levels and the shared catalog entries they reference.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::battlefield::Hazard;
use crate::levels::terrain::{TerrainAreaFile, ZoneTerrain};
use crate::rules::components::{AiKind, Size};
use crate::rules::dice::Dice;
use crate::rules::ruleset::{DEFAULT_RULESET, DeclarationOrder};

/// A level: the battlefield, the sides, the units, and how to win.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LevelFile {
    /// Display name, also written to the log.
    pub name: String,
    /// A line or two for the menu.
    #[serde(default)]
    pub description: String,
    /// Ruleset name (`assets/rulesets/<name>.ron`) or a path to a `.ron` file.
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    /// Seed used when the command line gives none.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Overrides the ruleset's declaration order for this level.
    #[serde(default)]
    pub declaration_order: Option<DeclarationOrder>,
    /// The zones (a zone battlefield).
    #[serde(default)]
    pub zones: Vec<ZoneFile>,
    /// The square grid (a grid battlefield), instead of zones.
    #[serde(default)]
    pub grid: Option<GridFile>,
    /// The sides, in declaration (round-robin) order.
    pub sides: Vec<SideFile>,
    /// The units.
    pub units: Vec<UnitFile>,
    /// Extra ways to win; the last side standing always wins.
    #[serde(default)]
    pub victory: Vec<VictoryFile>,
    /// Creatures defined or overridden by this level.
    #[serde(default)]
    pub creatures: BTreeMap<String, CreatureFile>,
    /// Weapons defined or overridden by this level.
    #[serde(default)]
    pub weapons: BTreeMap<String, crate::rules::equipment::Weapon>,
    /// Armour defined or overridden by this level.
    #[serde(default)]
    pub armour: BTreeMap<String, crate::rules::equipment::ArmourPiece>,
    /// Spells defined or overridden by this level.
    #[serde(default)]
    pub spells: BTreeMap<String, crate::rules::equipment::Spell>,
    /// Items defined or overridden by this level.
    #[serde(default)]
    pub items: BTreeMap<String, crate::rules::equipment::Item>,
    /// Lessons shown over the battle one after another, each waiting for the player to do
    /// what it teaches (the tutorial's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lessons: Vec<crate::levels::lessons::Lesson>,
}

fn default_ruleset() -> String {
    DEFAULT_RULESET.to_string()
}

/// A zone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneFile {
    /// Unique id.
    pub id: String,
    /// Display name (defaults to the id).
    #[serde(default)]
    pub name: Option<String>,
    /// Ids of adjacent zones (adjacency is mutual; listing it on one side is enough).
    #[serde(default)]
    pub adjacent: Vec<String>,
    /// Most units that fit.
    #[serde(default)]
    pub capacity: Option<u32>,
    /// A hazard tested at the end of each round.
    #[serde(default)]
    pub hazard: Option<Hazard>,
    /// Where the board draws it, in zone widths from the centre (`Some((1.0, -0.5))`); zones
    /// without one are laid out by distance from the first zone.
    #[serde(default)]
    pub position: Option<(f32, f32)>,
    /// What it looks like on the board (looks only: no rule reads it); without one, a zone with
    /// a hazard looks `Rough`, one with a capacity a `Passage`, any other a `Field`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<ZoneTerrain>,
    /// A picture from a mod's `textures/` folder (its name, without `.png`) drawn instead of
    /// the terrain's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<String>,
}

/// A square-grid battlefield (`S-GRID-1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridFile {
    /// The map, one string per row, top row first: `.` open, `#` wall, `|` or `=` arrow slit
    /// or window, `~` difficult ground.
    pub rows: Vec<String>,
    /// Squares per zone of distance: speeds and ranges written in zones are multiplied by it.
    #[serde(default = "default_squares_per_zone")]
    pub squares_per_zone: u32,
    /// How its squares look (looks only: no rule reads it): areas painted in order, each over
    /// the squares it fits. Squares no area covers look as their symbol says: `.` `Floor`,
    /// `#` `Wall`, `|` and `=` `ArrowSlit`, `~` `Rubble`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainAreaFile>,
}

fn default_squares_per_zone() -> u32 {
    6
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ControllerFile {
    /// A person.
    Human,
    /// The built-in AI of this kind.
    Ai(AiKind),
    /// The greedy AI (the default).
    #[default]
    Default,
}

/// A side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideFile {
    /// Unique name.
    pub name: String,
    /// Who plays it unless the command line says otherwise.
    #[serde(default)]
    pub controller: ControllerFile,
    /// Whether its units check morale (monsters); player characters never do.
    #[serde(default)]
    pub checks_morale: bool,
    /// Whether the whole side is surprised.
    #[serde(default)]
    pub surprised: bool,
    /// The player characters' side (rules that favour or spare the party). When no side says
    /// `Some(true)`, the first side is the party (unless it says `Some(false)`); see
    /// [`party_sides`].
    #[serde(default)]
    pub party: Option<bool>,
    /// Shifts the range at which this side's enemies are surprised (`C-SURP-1`: an elf on point +4).
    #[serde(default)]
    pub surprise_range: i32,
    /// Creatures with no set mind: each rolls on the ruleset's reaction table at the start (`Z-REACT-1`).
    #[serde(default)]
    pub unscripted: bool,
}

/// When a reinforcement arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArrivalFile {
    /// The round it arrives in (1 or later).
    pub round: u32,
    /// Arrives once the count passes this initiative, mid-round; otherwise at the round's start.
    #[serde(default)]
    pub at_initiative: Option<i32>,
}

/// Attribute scores; any left out are 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AttributesFile {
    /// Strength score.
    pub strength: i32,
    /// Agility score.
    pub agility: i32,
    /// Dexterity score.
    pub dexterity: i32,
    /// Insight score.
    pub insight: i32,
    /// Memory score.
    pub memory: i32,
    /// Perception score.
    pub perception: i32,
}

/// The score whose modifier is 0 under the shipped rulesets.
const AVERAGE_SCORE: i32 = 10;

/// Which of `sides` are the party (`Z-INIT-1`, `Z-ATK-2`, `S-INIT-1`, `C-WDRAW-1`): exactly the
/// sides marked `party: Some(true)` when any is; otherwise the first side, unless it is marked
/// `Some(false)`. An unmarked side is never the party once another side is marked.
pub fn party_sides(sides: &[SideFile]) -> Vec<bool> {
    let any_marked = sides.iter().any(|side| side.party == Some(true));
    sides.iter().enumerate().map(|(at, side)| side.party.unwrap_or(!any_marked && at == 0)).collect()
}

impl Default for AttributesFile {
    fn default() -> Self {
        Self {
            strength: AVERAGE_SCORE,
            agility: AVERAGE_SCORE,
            dexterity: AVERAGE_SCORE,
            insight: AVERAGE_SCORE,
            memory: AVERAGE_SCORE,
            perception: AVERAGE_SCORE,
        }
    }
}

impl AttributesFile {
    /// Scores in [`Attribute`](crate::rules::equipment::Attribute) order.
    pub fn scores(&self) -> [i32; 6] {
        [self.strength, self.agility, self.dexterity, self.insight, self.memory, self.perception]
    }
}

/// Check bonuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SkillsFile {
    /// Attack bonus.
    pub attack: i32,
    /// Heal skill.
    pub heal: i32,
    /// Intimidation skill.
    pub intimidation: i32,
    /// Spellcasting skill.
    pub spellcasting: i32,
    /// Brawl: added to purely unarmed damage where the ruleset says so (`S-DMG-1`), and to
    /// bare-handed attack rolls where the ruleset adds combat skills (`S-ATK-1`).
    pub brawl: i32,
    /// Stab: added to attack rolls with melee weapons where the ruleset adds combat skills
    /// (`S-ATK-1`).
    pub stab: i32,
    /// Shoot: added to attack rolls with missile weapons and throws where the ruleset adds
    /// combat skills (`S-ATK-1`).
    pub shoot: i32,
    /// Exert: feats of strength; a shove's opposed check may add it instead of Brawl where the
    /// ruleset reads skills in manoeuvres (`S-MAN-1`).
    pub exert: i32,
    /// Marks an NPC, with its training bonus (`S-ATK-1`): where the ruleset says so, its attack
    /// bonus is its number of Hit Dice plus this, and no attribute modifier or combat skill.
    pub npc: Option<i32>,
}

/// A creature's statistics, as the catalog holds them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatureFile {
    /// Display name.
    pub name: String,
    /// Hit Dice (`2d8`); Stress comes from them.
    pub hd: Dice,
    /// Attribute scores.
    #[serde(default)]
    pub attributes: AttributesFile,
    /// Defense bonus (natural; armour adds its own).
    #[serde(default)]
    pub defense: i32,
    /// Main weapon (a catalog name).
    pub weapon: String,
    /// Off-hand weapon.
    #[serde(default)]
    pub offhand: Option<String>,
    /// Worn armour.
    #[serde(default)]
    pub armour: Option<String>,
    /// Zones per round.
    pub speed: u32,
    /// Added to the Strength score for maximum Wound Points.
    #[serde(default)]
    pub wounds_bonus: i32,
    /// Check bonuses.
    #[serde(default)]
    pub skills: SkillsFile,
    /// Mana.
    #[serde(default)]
    pub mana: i32,
    /// Spells known (catalog names).
    #[serde(default)]
    pub spells: Vec<String>,
    /// Items carried: (catalog name, count).
    #[serde(default)]
    pub items: Vec<(String, u32)>,
    /// Whether it checks morale even on a side that does not.
    #[serde(default)]
    pub checks_morale: bool,
    /// Its size (`S-MAN-1`): shoving or grappling a bigger creature is harder.
    #[serde(default)]
    pub size: Size,
    /// Level (attacks per round, ongoing damage).
    #[serde(default = "default_level")]
    pub level: u32,
    /// Race (`C-MOVE-1`): picks the ruleset's `encumbrance_by_race` column (a halfling's); none,
    /// or a race the ruleset does not list, uses `encumbrance` (a human's).
    #[serde(default)]
    pub race: Option<String>,
    /// Character class (`C-MULTI-1`): picks the ruleset's `attacks_by_class` column; none, or a
    /// class the ruleset does not list, uses `attacks_by_level` (the fighter's column).
    #[serde(default)]
    pub class: Option<String>,
    /// Shifts the range at which this creature is surprised (`C-SURP-1`): a ranger −2, a monk
    /// of levels 9–12 −2, a monster surprised only 1 in 10 −3.
    #[serde(default)]
    pub surprise_shift: i32,
    /// Feats that change the rules for it (`A-FEAT-1`).
    #[serde(default)]
    pub feats: Vec<Feat>,
    /// The picture on its token: a shipped icon name (`Some("wolf-head")`, one of
    /// [`ICON_NAMES`](crate::levels::icons::ICON_NAMES)); `None` shows its main weapon's kind.
    #[serde(default)]
    pub icon: Option<String>,
}

/// Feats that change a unit's rules (`A-FEAT-1`), applied when the level is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Feat {
    /// Melee reach one square (or zone) further.
    Reach,
    /// Two more squares of movement.
    Athlete,
    /// One more damage die with its weapons.
    WeaponFocus,
    /// Another die of sneak damage.
    SneakAttack,
    /// Two more summoning slots.
    LegionLeader,
    /// Dodges normally while channelling a spell.
    BattleCaster,
    /// Moves normally while sneaking, swimming and tumbling: difficult ground costs it one
    /// square of movement per square, not two (`A-MOVE-1`).
    Maneuverer,
}

fn default_level() -> u32 {
    1
}

/// A unit placed in a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitFile {
    /// Unique id (`"ghoul-1"`).
    pub id: String,
    /// Catalog creature.
    pub creature: String,
    /// Side name.
    pub side: String,
    /// Starting (or arrival) zone id, on a zone battlefield.
    #[serde(default)]
    pub zone: String,
    /// Starting square `(x, y)`, on a grid battlefield.
    #[serde(default)]
    pub at: Option<(i32, i32)>,
    /// This unit started the fight by attacking (`A-INIT-1`: it takes its turn last).
    #[serde(default)]
    pub initiated: bool,
    /// Feats besides the creature's.
    #[serde(default)]
    pub feats: Vec<Feat>,
    /// A summoned unit: it waits out of the battle until this unit (same side) casts a summoning
    /// spell (`A-SUMM-1`).
    #[serde(default)]
    pub summoned_by: Option<String>,
    /// A summoned unit kept after the battle, its summoner paying the thrall cost.
    #[serde(default)]
    pub thrall: bool,
    /// Pounds carried: picks the ruleset's encumbrance tier (`C-MOVE-1`).
    #[serde(default)]
    pub load: Option<u32>,
    /// Display name (defaults to the creature's).
    #[serde(default)]
    pub name: Option<String>,
    /// Overrides the side's surprise.
    #[serde(default)]
    pub surprised: Option<bool>,
    /// Units of one side with the same group share one initiative roll.
    #[serde(default)]
    pub initiative_group: Option<String>,
    /// A reinforcement: when it arrives.
    #[serde(default)]
    pub arrives: Option<ArrivalFile>,
    /// Overrides the creature's weapon.
    #[serde(default)]
    pub weapon: Option<String>,
    /// Overrides the creature's off-hand weapon.
    #[serde(default)]
    pub offhand: Option<String>,
    /// Overrides the creature's armour.
    #[serde(default)]
    pub armour: Option<String>,
    /// Overrides the creature's Hit Dice.
    #[serde(default)]
    pub hd: Option<Dice>,
    /// Overrides the creature's attributes.
    #[serde(default)]
    pub attributes: Option<AttributesFile>,
    /// Overrides the creature's speed.
    #[serde(default)]
    pub speed: Option<u32>,
    /// Overrides the creature's `surprise_shift` (`C-SURP-1`).
    #[serde(default)]
    pub surprise_shift: Option<i32>,
    /// Overrides the creature's skills.
    #[serde(default)]
    pub skills: Option<SkillsFile>,
    /// Overrides the creature's items.
    #[serde(default)]
    pub items: Option<Vec<(String, u32)>>,
    /// Overrides the creature's spells.
    #[serde(default)]
    pub spells: Option<Vec<String>>,
    /// Overrides the creature's icon (a shipped icon name).
    #[serde(default)]
    pub icon: Option<String>,
}

impl UnitFile {
    /// A unit of `creature` on `side` with nothing of its own set, and no place yet.
    pub fn new(id: &str, creature: &str, side: &str) -> Self {
        Self {
            id: id.to_string(),
            creature: creature.to_string(),
            side: side.to_string(),
            zone: String::new(),
            at: None,
            initiated: false,
            feats: Vec::new(),
            summoned_by: None,
            thrall: false,
            load: None,
            name: None,
            surprised: None,
            initiative_group: None,
            arrives: None,
            weapon: None,
            offhand: None,
            armour: None,
            hd: None,
            attributes: None,
            speed: None,
            surprise_shift: None,
            skills: None,
            items: None,
            spells: None,
            icon: None,
        }
    }
}

/// An extra way to win.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum VictoryFile {
    /// `side` wins if it still fights after `rounds` rounds.
    Survive {
        /// Side name.
        side: String,
        /// Rounds to hold out.
        rounds: u32,
    },
    /// `side` wins once `unit` is down.
    Eliminate {
        /// Unit id.
        unit: String,
        /// Side name.
        side: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(marks: &[Option<bool>]) -> Vec<SideFile> {
        marks
            .iter()
            .enumerate()
            .map(|(at, &party)| SideFile {
                name: format!("side-{at}"),
                controller: ControllerFile::Default,
                checks_morale: false,
                surprised: false,
                party,
                surprise_range: 0,
                unscripted: false,
            })
            .collect()
    }

    #[test]
    fn with_no_side_marked_the_first_is_the_party() {
        assert_eq!(party_sides(&sides(&[None, None, None])), vec![true, false, false]);
    }

    #[test]
    fn marking_a_later_side_makes_exactly_that_side_the_party() {
        assert_eq!(party_sides(&sides(&[None, Some(true)])), vec![false, true]);
        assert_eq!(party_sides(&sides(&[None, None, Some(true)])), vec![false, false, true]);
    }

    #[test]
    fn a_first_side_marked_false_leaves_no_party_unless_another_is_marked() {
        assert_eq!(party_sides(&sides(&[Some(false), None])), vec![false, false]);
        assert_eq!(party_sides(&sides(&[Some(false), Some(true)])), vec![false, true]);
    }
}
