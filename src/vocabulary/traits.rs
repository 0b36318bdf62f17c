//! Words the whole game shares: damage types and attributes, which weapons, injuries, hazards
//! and levels all name.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Damage types; each has its own combat injury table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    /// Clubs, fists, falls.
    Blunt,
    /// Spears, arrows, bites.
    Piercing,
    /// Swords, claws.
    Slashing,
    /// Axes.
    Chopping,
    /// Flames.
    Fire,
    /// Frost.
    Cold,
    /// Lightning.
    Electric,
    /// Thunder, shrieks.
    Sonic,
    /// Acid.
    Acid,
    /// Radiant power.
    Holy,
    /// Necrotic power.
    Unholy,
    /// Toxins and spores (no injury table: poison does not cause criticals).
    Poison,
    /// Blood loss while dying, strain of acting while down, suffocation.
    Bleeding,
}

impl DamageType {
    /// Every damage type, in table order.
    pub const ALL: [DamageType; 13] = [
        Self::Blunt,
        Self::Piercing,
        Self::Slashing,
        Self::Chopping,
        Self::Fire,
        Self::Cold,
        Self::Electric,
        Self::Sonic,
        Self::Acid,
        Self::Holy,
        Self::Unholy,
        Self::Poison,
        Self::Bleeding,
    ];

    /// The snake_case name used in data and in the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Blunt => "blunt",
            Self::Piercing => "piercing",
            Self::Slashing => "slashing",
            Self::Chopping => "chopping",
            Self::Fire => "fire",
            Self::Cold => "cold",
            Self::Electric => "electric",
            Self::Sonic => "sonic",
            Self::Acid => "acid",
            Self::Holy => "holy",
            Self::Unholy => "unholy",
            Self::Poison => "poison",
            Self::Bleeding => "bleeding",
        }
    }
}

/// The six attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Attribute {
    /// Wound Points, Stress per HD, melee damage.
    Strength,
    /// Initiative and Defense.
    Agility,
    /// Fine work.
    Dexterity,
    /// Morale.
    Insight,
    /// Recall.
    Memory,
    /// Senses.
    Perception,
}

impl Attribute {
    /// Index into an attribute array.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The four hindrances (`Z-HIND-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Hindrance {
    /// Every test with disadvantage.
    Weakened,
    /// No actions, but may move.
    Distracted,
    /// No movement, but may act.
    Stuck,
    /// Neither.
    Paralysed,
}

impl Hindrance {
    /// The log's name.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Weakened => "weakened",
            Self::Distracted => "distracted",
            Self::Stuck => "stuck",
            Self::Paralysed => "paralysed",
        }
    }
}
