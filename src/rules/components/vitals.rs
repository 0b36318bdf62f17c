//! A unit's stats and standing: stress, injury, wounds, attributes, hit dice, defence, armour,
//! speed, zone, threat, surprise, reinforcement and status.

use super::*;

/// Stamina that soaks damage before Wound Points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stress {
    /// Current Stress, never negative.
    pub current: i32,
    /// Maximum Stress.
    pub max: i32,
}

/// One instance of Wound Point damage (`W-DMG-4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Injury {
    /// Damage type of the hit.
    pub damage_type: DamageType,
    /// Wound Points it took.
    pub amount: i32,
    /// The combat injury it caused, if any (`Broken Shin`).
    pub combat_injury: Option<String>,
    /// Round it happened in.
    pub round: u32,
}

/// Bodily damage threshold and the injury list.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Wounds {
    /// Current Wound Points; may go negative while dying.
    pub current: i32,
    /// Maximum Wound Points.
    pub max: i32,
    /// Every instance of Wound Point damage, in order.
    pub injuries: Vec<Injury>,
}

impl Wounds {
    /// The largest single injury, for the stabilise TN.
    pub fn highest_injury(&self) -> i32 {
        self.injuries.iter().map(|injury| injury.amount).max().unwrap_or(0)
    }
}

/// Attribute scores, indexed by [`Attribute`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attributes(pub [i32; 6]);

impl Attributes {
    /// The score of `attribute`.
    pub fn score(&self, attribute: Attribute) -> i32 {
        self.0[attribute.index()]
    }
}

/// Hit Dice, which size Stress and count toward morale.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitDice(pub Dice);

/// Defense bonus from the creature and its gear (the base and Agility are added by the rules).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Defense {
    /// Defense bonus plus equipment.
    pub bonus: i32,
}

/// Armour score: subtracted from each hit's damage.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Armour(pub i32);

/// Zones the unit may move per round.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed(pub u32);

/// The zone the unit stands in.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Zone(pub ZoneIdx);

/// An enemy that can strike it in melee stands Close (maintained from the zone index).
/// Sparse: it comes and goes every round, and should not move the unit's table row.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct Threatened;

/// Unaware at the start: neither declares nor acts nor reacts while the ruleset says so.
/// Sparse: it is removed after the first round.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct Surprised;

/// A unit that is not on the field yet: it arrives in `round`, at the start of the round or
/// once the count passes `at_initiative` (`W-INIT-5`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reinforcement {
    /// The round it arrives in.
    pub round: u32,
    /// The initiative count after which it arrives, mid-round.
    pub at_initiative: Option<i32>,
}

/// Whether a unit still takes part, and how.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fighting.
    #[default]
    Active,
    /// At 0 Wound Points: crawls, and pays Wound Points to act.
    Incapacitated,
    /// Below 0 Wound Points: one action a turn, loses Wound Points each round.
    Dying,
    /// At or below minus its Strength score.
    Dead,
    /// Ran from the battle.
    Fled,
    /// Laid down its arms.
    Surrendered,
    /// A reinforcement that has not arrived yet.
    Reserve,
    /// Knocked out by a non-lethal execution (`S-EXEC-1`): down for the rest of the battle, but
    /// neither dying nor losing hit points.
    Unconscious,
}

impl Status {
    /// Every status, in declaration order.
    pub const ALL: [Self; 8] = [
        Self::Active,
        Self::Incapacitated,
        Self::Dying,
        Self::Dead,
        Self::Fled,
        Self::Surrendered,
        Self::Reserve,
        Self::Unconscious,
    ];

    /// The name the log uses.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Incapacitated => "incapacitated",
            Self::Dying => "dying",
            Self::Dead => "dead",
            Self::Fled => "fled",
            Self::Surrendered => "surrendered",
            Self::Reserve => "reserve",
            Self::Unconscious => "unconscious",
        }
    }

    /// Whether the unit is still on the field (alive, present).
    pub fn on_field(self) -> bool {
        matches!(self, Self::Active | Self::Incapacitated | Self::Dying | Self::Unconscious)
    }

    /// Whether the unit is down but alive, and still has a say: it may crawl, pay to act and be
    /// given first aid. An unconscious unit has none of that.
    pub fn is_down(self) -> bool {
        matches!(self, Self::Incapacitated | Self::Dying)
    }
}
