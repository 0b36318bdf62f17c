//! Rules for movement and spells.

use super::*;

/// Movement over zones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// Speed is divided by this in full defense (rounded down).
    pub full_defense_speed_divisor: u32,
    /// Speed is divided by this when an injury halves it, or when stabilised.
    pub slowed_speed_divisor: u32,
    /// Speed is divided by this while prone (0: prone units only crawl).
    #[serde(default)]
    pub prone_speed_divisor: u32,
    /// Every unit's Speed in zones, unless its level entry sets one: the chapter's own movement
    /// rate, in place of the shared catalog's (`Z-TURN-1`: one Nearby zone; grids: 6 squares).
    #[serde(default)]
    pub speed: Option<u32>,
    /// No unit's Speed goes above this, whatever its level entry or creature says (`Z-TURN-1`:
    /// a turn's move reaches one Nearby zone). `fray check` warns about a level that asks for more.
    #[serde(default)]
    pub max_speed: Option<u32>,
    /// Encumbrance tiers (`C-MOVE-1`): `(most pounds carried, speed in squares or zones)`, lightest
    /// first; a unit whose level entry gives its `load` moves at its tier's speed.
    #[serde(default)]
    pub encumbrance: Vec<(u32, u32)>,
    /// Other races' columns of the same table (`C-MOVE-1`: a halfling's), by the creature's
    /// `race`. A unit of a listed race moves at its column's first tier even when its level entry
    /// gives no `load`; a race not listed uses `encumbrance`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub encumbrance_by_race: std::collections::BTreeMap<String, Vec<(u32, u32)>>,
    /// Pounds every encumbrance limit moves by per point of the unit's Strength modifier
    /// (`C-MOVE-1`: "strength bonuses or penalties will adjust those weight totals"); 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub strength_pounds: u32,
    /// Pounds a unit can carry per point of its Strength score (`A-MOVE-1`): a unit whose level
    /// entry's `load` reaches that much moves half its squares. `None`: loads never halve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carrying_capacity: Option<u32>,
    /// A unit that only moves goes this many times its Speed (a second move for its action).
    #[serde(default = "default_one")]
    pub move_only_multiplier: u32,
    /// And this many steps more (`A-BONUS-1`: bonus actions spent on movement).
    #[serde(default)]
    pub move_only_extra: u32,
    /// A declaration may split the turn's movement before and after its action (`C-MOVE-1`):
    /// `Action::move_after`, the two legs together within the unit's movement for the turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub split_move: bool,
    /// A blade whose target has stepped out of its reach by the blade's count walks after it with
    /// the movement it has left this round, and strikes if it gets there (`W-MOVE-1`: a creature
    /// moves as often as it likes within its speed). Off: the blow is lost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pursue_target: bool,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn default_one() -> u32 {
    1
}

/// Casting (`W-DECL-2`, `W-STRESS-1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpellRules {
    /// The casting check die; the caster's spellcasting skill is added and must reach the spell's TN.
    pub casting_die: Dice,
    /// Whether Stress may pay for Mana 1:1 when Mana runs short.
    pub stress_pays_for_mana: bool,
    /// Whether Armour reduces spell damage.
    pub armour_stops_spells: bool,
    /// Damage taken earlier in the round keeps a caster from casting for the rest of it (`C-CAST-1`).
    #[serde(default)]
    pub damage_disrupts: bool,
    /// Spells with a casting time take effect later in the round (`C-CAST-1`): the caster is
    /// casting (channelling, `A-COND-1`) until then. With `damage_disrupts`, damage taken while
    /// casting loses the spell and its Mana. Only turn-based orders have turns to count.
    #[serde(default)]
    pub casting_times: bool,
}
