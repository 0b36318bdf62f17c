//! Rules for morale, withdrawal and the end of a battle.

use super::*;

/// What a failed morale check does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum MoraleFailure {
    /// The unit runs from the battle.
    Flee,
    /// The unit lays down its arms.
    Surrender,
    /// The unit asks for terms (`Z-MOR-1`): it stops fighting, as a surrender.
    Parley,
    /// The unit parleys when a fighting enemy stands Close (within bare-handed melee reach) and
    /// flees when none does (`Z-MOR-1`: "attempt to parley or flee").
    ParleyOrFlee,
    /// The unit falls back out of the fight (`S-MOR-1`, `C-WDRAW-1`): logged as fled.
    Withdraw,
    /// A roll on `withdrawal` picks the response (`C-WDRAW-1`).
    Withdrawal,
}

/// When units check morale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum MoraleTrigger {
    /// Big hits, being outnumbered and intimidation (`W-MOR-1`).
    #[default]
    Seed000,
    /// Once the side has lost at least `percent` of its units, every round (`Z-MOR-1`, `S-MOR-1`, `C-WDRAW-1`).
    SideLosing {
        /// Share of the side down, dead or gone, in percent.
        percent: u32,
    },
}

/// How the morale check is made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum MoraleCheck {
    /// `dice` + Insight + HD + allies against `tn_base` + opponents (`W-MOR-2`).
    #[default]
    Seed000,
    /// A test: `dice` + the attribute's modifier against `tn_base`.
    Test {
        /// The attribute.
        attribute: Attribute,
    },
    /// No roll: a side that is losing gives up ("they're gone for now", `S-MOR-1`).
    Automatic,
}

/// One response on the withdrawal table (`C-WDRAW-1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawalRow {
    /// Highest roll of the response.
    pub up_to: i32,
    /// The response.
    pub response: Withdrawal,
}

/// The four withdrawal responses. Rulesets spell them as in Rust (`FallBack`); the log writes
/// them in snake_case (`fall_back`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all(serialize = "snake_case"))]
pub enum Withdrawal {
    /// Steps back fighting: keeps fighting from one step further away.
    FallBack,
    /// An orderly retreat: leaves without fighting.
    Disengage,
    /// Runs: every enemy in reach gets a free attack at its back, none may pursue.
    Flee,
    /// Throws down its arms.
    Surrender,
}

impl Withdrawal {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FallBack => "fall_back",
            Self::Disengage => "disengage",
            Self::Flee => "flee",
            Self::Surrender => "surrender",
        }
    }
}

/// Monster morale (`W-MOR-1`, `W-MOR-2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoraleRules {
    /// The morale dice; Insight modifier, HD and allies are added.
    pub dice: Dice,
    /// TN = this + number of opponents.
    pub tn_base: i32,
    /// Check after losing more than half the maximum Wound Points in one hit.
    pub check_on_big_hit: bool,
    /// Check when the side is outnumbered.
    pub check_when_outnumbered: bool,
    /// Check when targeted by an Intimidation check.
    pub check_when_intimidated: bool,
    /// Active opponents per active ally (the unit included) at which defeat is obvious and the check fails on its own.
    pub obvious_defeat_ratio: u32,
    /// What failure does.
    pub on_failure: MoraleFailure,
    /// The Intimidation check die; the intimidator's Intimidation skill is added.
    pub intimidation_die: Dice,
    /// When to check.
    #[serde(default)]
    pub trigger: MoraleTrigger,
    /// How to check.
    #[serde(default)]
    pub check: MoraleCheck,
    /// Party units never check morale: their players decide (`C-WDRAW-1`).
    #[serde(default)]
    pub party_never_checks: bool,
    /// The withdrawal table's die and rows, for `on_failure: Withdrawal`.
    #[serde(default)]
    pub withdrawal: Option<(Dice, Vec<WithdrawalRow>)>,
    /// A unit that flees after failed morale gives every foe whose melee weapon reaches it an
    /// attack of opportunity at its back before it goes (`C-WDRAW-1`).
    #[serde(default)]
    pub flee_provokes: bool,
}

/// When combat ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndRules {
    /// A combat still running after this many rounds ends as interrupted, with no winner.
    pub max_rounds: u32,
    /// The winning side's units get their Mana back in full (`A-END-1`).
    #[serde(default)]
    pub victors_regain_mana: bool,
    /// Mana a summoner pays per level of each thrall it keeps when the battle ends (`A-SUMM-1`).
    #[serde(default)]
    pub thrall_cost_per_level: i32,
}
