//! The combat state of a unit, one component per concern.

use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use strum::EnumDiscriminants;

use super::dice::Dice;
use super::equipment::{Attribute, DamageType, Item, Spell, Weapon};
use crate::battlefield::ZoneIdx;

mod conditions;
mod declarations;
mod gear;
mod identity;
mod round;
mod vitals;

pub use conditions::{BONUS_ACTIONS_PER_TURN, Conditions};
pub use declarations::Offer;
pub use declarations::{Action, ActionKind, AimPoint, BonusUses, Declared, HeldPlan};
pub use gear::{Grapplers, Hand, Inventory, ItemStack, Loadout, MAX_GRAPPLERS, Mana, Skills, Spells};
pub use identity::{
    AiKind, CharacterClass, Controller, Initiative, InitiativeGroup, Level, SideIndex, Size, SpawnOrder, UnitId,
};
pub use round::{
    ChecksMorale, Conjurable, ConjureFn, Conjuring, Initiator, Reactions, RoundRecord, StoodAside, Summoned,
    SummoningSlots, SurpriseShift,
};
pub use vitals::{
    Armour, Attributes, Defense, HitDice, Injury, Reinforcement, Speed, Status, Stress, Surprised, Threatened, Wounds,
    Zone,
};
