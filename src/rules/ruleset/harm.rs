//! Rules for harm: damage, pools, stress, wounds, injuries and repostes.

use super::*;

/// Damage, Stress and Wound Points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageRules {
    /// Add the attacker's Strength modifier to melee and thrown damage.
    pub strength_to_damage: bool,
    /// Armour is subtracted after the critical multiplier (true) or before it.
    pub armour_after_multiplier: bool,
    /// Whether critical damage skips Stress and goes to Wound Points.
    pub critical_bypasses_stress: bool,
    /// How maximum Stress is worked out from Hit Dice.
    pub stress_method: StressMethod,
    /// Stress and Wound Points, or one hit-point pool.
    #[serde(default)]
    pub pools: Pools,
    /// A hit never does less than this, when positive.
    #[serde(default)]
    pub minimum: i32,
    /// A purely unarmed blow adds the unit's Brawl skill (`S-DMG-1`).
    #[serde(default)]
    pub unarmed_skill_to_damage: bool,
    /// A weapon that lists `attributes` adds the best of their modifiers to its damage instead of
    /// Strength (`S-DMG-1`).
    #[serde(default)]
    pub weapon_attributes: bool,
    /// A weapon's `attack_bonus` (a magic weapon's bonus) adds to its damage and its Shock too,
    /// not only to the attack roll (`S-ATK-1`, `S-SHOCK-1`).
    #[serde(default)]
    pub weapon_bonus_to_damage: bool,
}

/// The pools damage comes off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Pools {
    /// Stress soaks first, Wound Points after (`W-DMG-2`).
    #[default]
    StressAndWounds,
    /// One pool of hit points from the Hit Dice (worked out as Stress would be), reported as
    /// `wounds` with zero Stress.
    HitPoints,
}

/// Maximum Stress from Hit Dice (`W-DMG-3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum StressMethod {
    /// The first Hit Die in full, the others at their average, plus Strength modifier per HD,
    /// rounded down: the seed's 5d8+15 → 41.
    FirstMaxThenAverage,
    /// Every Hit Die at its average, rounded down.
    Average,
    /// Every Hit Die in full.
    Maximum,
}

/// Wound Point thresholds, dying and stabilising.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WoundRules {
    /// Wound Points lost at the end of each round while dying and not stabilised.
    pub dying_loss_per_round: i32,
    /// Wound Points an incapacitated or dying unit pays for an action (after any free one).
    pub action_cost_when_down: i32,
    /// Zones an incapacitated unit may crawl per round (a yard is far less than a zone).
    pub crawl_zones: u32,
    /// The Heal check die; the healer's Heal skill is added.
    pub heal_die: Dice,
    /// Stabilise TN = this + the highest single injury.
    pub stabilise_tn_base: i32,
    /// Actions per round a stabilised unit takes without paying Wound Points.
    pub stabilised_free_actions: u32,
    /// What zero and negative Wound Points mean.
    #[serde(default)]
    pub thresholds: WoundThresholds,
}

/// What zero and negative Wound Points (or hit points) mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum WoundThresholds {
    /// 0 incapacitated, below 0 dying, at −Strength dead (`W-WOUND-1..3`).
    #[default]
    StrengthBased,
    /// 0 or less is death (or defeat).
    DeadAtZero,
    /// 0 or less is mortally wounded: dying, losing `dying_loss_per_round`, dead at −Strength.
    DyingAtZero,
}

/// Combat injuries (`W-CRIT-2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InjuryRules {
    /// Whether critical hits can cause injuries at all.
    pub enabled: bool,
    /// The chance roll; an injury happens when it is at or under the damage dealt.
    pub chance_die: Dice,
    /// The table roll.
    pub table_die: Dice,
    /// The die choosing main (low half) or off hand (high half) for arm injuries.
    pub arm_die: Dice,
}

/// Repostes (`W-DECL-3`, `W-DECL-4`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReposteRules {
    /// A unit in full defense may Reposte when attacked in melee.
    pub when_attacked_in_full_defense: bool,
    /// A unit may Reposte an enemy that enters its threat range (unless that enemy attacks defensively).
    pub when_threat_range_entered: bool,
    /// Reactions a unit may make per round.
    pub reactions_per_round: u32,
    /// Reactions are not counted: a unit makes every attack it is owed in a round, and
    /// `reactions_per_round` is not read (`S-AOO-1`: the chapter grants one each time an action
    /// provokes). Off, `reactions_per_round` caps them (`C-AOO-1`: "Generally only one AoO per
    /// round per character").
    #[serde(default)]
    pub unlimited_reactions: bool,
    /// Leaving an enemy's reach gives it a free attack (`Z-DISEN-1`, `S-AOO-1`, `A-FREE-1`, `C-AOO-1`).
    #[serde(default)]
    pub when_reach_left: bool,
    /// No free attack for leaving while an ally also stands in the enemy's reach (`Z-DISEN-1`).
    #[serde(default)]
    pub ally_in_reach_covers: bool,
    /// Only enemies Close (in the zone being left) are owed a free attack, for any move to another
    /// zone, whatever their weapons' reach; an ally covers only from that zone too (`Z-DISEN-1`).
    /// Off, the trigger is leaving an enemy's reach, which follows reach weapons.
    #[serde(default)]
    pub only_close_enemies: bool,
    /// Moving more than this many steps while staying inside an enemy's reach also provokes it
    /// (`A-FREE-1`: 2 squares; `C-AOO-1`: 1).
    #[serde(default)]
    pub steps_within_reach: Option<u32>,
    /// A move of at most this many steps as a unit's only movement never provokes (`C-MOVE-1`'s 5-ft step).
    #[serde(default)]
    pub free_step: u32,
    /// Entering an enemy's reach provokes only an enemy whose weapon reaches further than the
    /// mover's: the longer weapon strikes first (`C-REACH-1`).
    #[serde(default)]
    pub longer_weapon_first: bool,
    /// Reactions per round are the Agility modifier + this (`A-FREE-1`'s Free Hit Slots), not `reactions_per_round`.
    #[serde(default)]
    pub reactions_from_agility: Option<i32>,
    /// The `kind` the log gives attacks provoked by leaving reach.
    #[serde(default)]
    pub name: ReactionKind,
    /// Using a skill (first aid, intimidation) beside an armed foe provokes it, as leaving its
    /// reach does (`S-AOO-1`).
    #[serde(default)]
    pub when_using_skill: bool,
    /// Standing up from prone draws no attacks, even where leaving reach does (`Z-STUNT-1`: the
    /// unit stays in its zone).
    #[serde(default)]
    pub standing_up_is_free: bool,
}

/// What a ruleset calls an attack provoked by movement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ReactionKind {
    /// `reposte` (seed 000).
    #[default]
    Reposte,
    /// `free_attack` (`Z-DISEN-1`).
    FreeAttack,
    /// `opportunity` (`S-AOO-1`, `C-AOO-1`).
    Opportunity,
    /// `free_hit` (`A-FREE-1`).
    FreeHit,
}

impl ReactionKind {
    /// The log's `kind` of the attack it provokes.
    pub fn attack_kind(self) -> AttackKind {
        match self {
            Self::Reposte => AttackKind::Reposte,
            Self::FreeAttack => AttackKind::FreeAttack,
            Self::Opportunity => AttackKind::Opportunity,
            Self::FreeHit => AttackKind::FreeHit,
        }
    }
}
