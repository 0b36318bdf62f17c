//! Rules for attacks: rolls, situational modifiers, snap shots, screens, manoeuvres, hauls,
//! executions, conditions, styles, criticals, fumbles, wear, swarms, charges, aiming and dual
//! wielding.

use super::*;

/// Attack rolls against Defense.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackRules {
    /// The attack die; the attacker's attack bonus is added.
    pub die: Dice,
    /// Defense = this + Agility modifier + Defense bonus + equipment.
    pub base_defense: i32,
    /// Extra Defense while in full defense.
    pub full_defense_bonus: i32,
    /// Full defense lasts until the unit's next turn opens, not to the end of the round
    /// (`S-SPEC-1`); turn-based orders only.
    #[serde(default)]
    pub full_defense_until_next_turn: bool,
    /// Total defense is also an Instant action (`S-SPEC-1`): a unit that has not yet spent its
    /// Main action this round takes it after seeing an attack roll against it, when the bonus
    /// turns the hit into a miss and the blow could take it down. Its Main action is spent.
    #[serde(default)]
    pub full_defense_reaction: bool,
    /// A natural roll at or above this is a critical hit (weapons may lower it).
    pub critical_natural: u32,
    /// Whether a critical hits whatever the Defense.
    pub critical_always_hits: bool,
    /// A natural roll at or below this always misses.
    pub fumble_natural: u32,
    /// Defense lost while prone.
    pub prone_defense_penalty: i32,
    /// How an attack roll is judged.
    #[serde(default)]
    pub style: AttackStyle,
    /// Armour pieces add their `armour` to Defense (an Armour Class) instead of soaking damage.
    #[serde(default)]
    pub armour_is_defense: bool,
    /// Defense is `base_defense` + the Agility modifier alone (`A-HIT-1`: "the target's Agility
    /// modifier plus 10"): neither the creature's `defense` nor the armour's (a shield's included)
    /// adds to it. Armour still soaks damage. Off, both add.
    #[serde(default)]
    pub agility_defense_only: bool,
    /// What a natural critical does to damage.
    #[serde(default)]
    pub critical: CriticalRule,
    /// What a natural fumble does besides missing.
    #[serde(default)]
    pub fumble: FumbleRule,
    /// Usage marks wear a weapon out until it breaks (`Z-CRIT-1`); `None`: marks never break it.
    #[serde(default)]
    pub weapon_wear: Option<WeaponWear>,
    /// To-hit penalty against a target in half cover (`S-COVER-1`).
    #[serde(default = "default_half_cover")]
    pub half_cover_penalty: i32,
    /// To-hit penalty against a target in full cover.
    #[serde(default = "default_full_cover")]
    pub full_cover_penalty: i32,
    /// Ranged attacks while an enemy stands in melee reach: `None` allows them freely.
    #[serde(default)]
    pub ranged_in_melee: RangedInMelee,
    /// Shock damage on a miss (`S-SHOCK-1`), from weapons that have it.
    #[serde(default)]
    pub shock: bool,
    /// Swarm attacks (`S-SPEC-1`): to-hit and damage per other assailant, and their caps.
    #[serde(default)]
    pub swarm: Option<SwarmRules>,
    /// Charge (`S-SPEC-1`): to-hit bonus and the Defense it costs until the round ends.
    #[serde(default)]
    pub charge: Option<ChargeRules>,
    /// Aimed attacks and wounds (`A-AIM-1`, `A-WOUND-1`).
    #[serde(default)]
    pub aiming: Option<AimRules>,
    /// Extra damage when the wielder carries a second weapon that also reaches the target (`S-DUAL-1`).
    #[serde(default)]
    pub dual_wield: DualWield,
    /// Flat-footed, prone, flanking and sneak damage (`A-COND-1`).
    #[serde(default)]
    pub conditions: Option<ConditionRules>,
    /// An attack made without moving spends the bonus actions on +hit and +damage (`A-BONUS-1`).
    #[serde(default)]
    pub standing_bonus: Option<(i32, i32)>,
    /// A turn that leaves a Bonus Action unspent dodges with it: this much Defense until the
    /// unit's next turn (`A-BONUS-1`).
    #[serde(default)]
    pub dodge_bonus: Option<i32>,
    /// Shoving and grappling (`S-MAN-1`, `Z-STUNT-1`).
    #[serde(default)]
    pub maneuvers: Option<ManeuverRules>,
    /// Execution attacks against the unsuspecting (`S-EXEC-1`).
    #[serde(default)]
    pub execution: Option<ExecutionRules>,
    /// Prone and range modifiers by distance (`S-ATK-2`).
    #[serde(default)]
    pub situational: Option<SituationalRules>,
    /// Snap attacks: out of turn, at the cost of the Main action (`S-SPEC-1`).
    #[serde(default)]
    pub snap_attack: Option<SnapRules>,
    /// Screening an ally: opposed checks that turn attacks on the ward to the screener (`S-SPEC-1`).
    #[serde(default)]
    pub screen: Option<ScreenRules>,
    /// What an attack roll adds besides the attack skill and the weapon's bonus (`S-ATK-1`);
    /// `None`: nothing, the attack skill holds the whole bonus.
    #[serde(default)]
    pub attack_roll: Option<AttackRollRules>,
}

/// The parts of an attack roll's bonus (`S-ATK-1`): the attack skill is the attack bonus, and
/// these add to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackRollRules {
    /// Adds the weapon's attribute modifier: the best of the weapon's `attributes`, or Strength
    /// for melee weapons and bare hands, Dexterity for missile weapons, the better of the two
    /// for throws.
    pub attribute_modifier: bool,
    /// Adds the combat skill for the weapon: Brawl for bare hands, Shoot for missile weapons and
    /// throws, Stab for every other weapon.
    pub combat_skill: bool,
    /// A unit marked as an NPC (its skills' `npc`) attacks with its number of Hit Dice plus that
    /// training bonus instead, with no attribute modifier or combat skill.
    pub npc_hit_dice: bool,
}

/// Situational attack modifiers by distance and posture (`S-ATK-2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationalRules {
    /// To-hit change for a ranged attack at a prone target beyond the adjacent squares, on top
    /// of undoing `prone_defense_penalty` (which stands for the bonus against an adjacent prone
    /// foe; a melee attack from there, with a reach weapon, only undoes it).
    pub distant_prone_penalty: i32,
    /// To-hit penalty for a melee attack made while prone.
    pub attacking_prone_penalty: i32,
    /// To-hit penalty for a missile or throw past the weapon's normal range.
    pub long_range_penalty: i32,
    /// The normal range, as a percentage of the weapon's `range` (its long range).
    pub normal_range_percent: u32,
    /// A two-handed missile weapon (a bow or crossbow, the weapon's `two_handed`) cannot be fired
    /// at all in melee, where a one-handed one only takes `ranged_in_melee`.
    #[serde(default)]
    pub forbid_two_handed_missiles_in_melee: bool,
}

/// Snap attacks (`S-SPEC-1`): a unit that has not spent its Main action this round strikes an
/// attacker first, at a penalty, and gives up its Main action for the round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapRules {
    /// Taken off the snap attack's roll.
    pub penalty: i32,
    /// The attack skill a unit needs to snap: only the well-trained have the focus.
    pub min_attack_skill: i32,
}

/// Screening an ally (`S-SPEC-1`): an attacker of the ward rolls `die` + its better of Strength
/// and Dexterity + attack skill against the screener's same; the screener must win to take the
/// attack itself. A screener blocks as many attacks a round as its attack skill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenRules {
    /// The opposed check's die.
    pub die: Dice,
}

/// Shoves and grapples: an attack roll first where the chapter asks for one, then an opposed
/// check of `die` + the attribute's modifier + attack skill against the target's `die` + modifier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManeuverRules {
    /// The opposed check's die.
    pub die: Dice,
    /// The attribute both sides add.
    pub attribute: Attribute,
    /// An attack roll must hit before the opposed check (`S-MAN-1`).
    pub attack_roll_first: bool,
    /// A grappled unit takes the grappler's unarmed damage at the end of each round.
    pub grapple_damage: bool,
    /// While a hold lasts, the grappler and the held fight with bare hands only (`S-MAN-1`).
    #[serde(default)]
    pub unarmed_while_grappling: bool,
    /// A held unit tests to break free as each of its turns begins, without spending its action:
    /// its `die` + modifier + attack skill against the grappler's `die` + modifier, ties to the
    /// grappler (`Z-STUNT-1`); turn-based orders only.
    #[serde(default)]
    pub break_free: bool,
    /// Taken off the attacker's check against a target one size larger (`S-MAN-1`:
    /// "significantly larger but still humanoid").
    #[serde(default)]
    pub larger_target_penalty: i32,
    /// Taken off the attacker's check against a target two or more sizes larger ("only barely
    /// plausible for such manhandling").
    #[serde(default)]
    pub much_larger_target_penalty: i32,
    /// The skill each side adds to the opposed checks (`S-MAN-1`); `AttackSkill`, the default,
    /// when left out.
    #[serde(default)]
    pub check_skill: ManeuverSkill,
    /// Several grapplers may hold one foe at once, each squeezing it, and its struggle is one
    /// roll against them all (`S-MAN-1`); a grappler seizing a second foe lets go of the first.
    /// `false`: a new grapple on a held foe takes the hold over from the one before.
    #[serde(default)]
    pub many_grapplers: bool,
    /// A grappler's drag and hurl of the foe it holds (`S-MAN-1`); `None`: neither, even where
    /// offered.
    #[serde(default)]
    pub haul: Option<HaulRules>,
}

/// The skill the opposed checks of shoves, grapples and struggles add to the attribute's
/// modifier (`S-MAN-1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ManeuverSkill {
    /// The attacker (and a held unit breaking free) adds its attack skill; the other side adds
    /// no skill.
    #[default]
    AttackSkill,
    /// Both sides add Brawl (a shove: the better of Brawl and Exert), as "opposed STR/Brawl"
    /// says. With `npc_hit_dice`, a unit marked as an NPC (its skills' `npc`) adds its Hit Dice
    /// plus training instead of the attribute modifier and skill, as its attack roll does
    /// (`S-ATK-1`).
    BrawlOrExert {
        /// NPCs add their Hit Dice and training bonus instead.
        npc_hit_dice: bool,
    },
}

/// How far a grappler moves the foe it holds (`S-MAN-1`), in steps of the battlefield: squares
/// on a grid. On a zone battlefield each is at most one zone, the nearest a zone comes to the
/// chapter's 10 ft and 5 ft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HaulRules {
    /// How far a drag takes both the grappler and the held foe.
    pub drag_steps: u32,
    /// How far a hurl throws the held foe, which lands prone and free.
    pub throw_steps: u32,
}

impl HaulRules {
    /// The most steps a haul of `steps` goes on `battlefield`: as said on a grid, at most
    /// one zone on zones.
    pub fn steps_on(steps: u32, battlefield: &crate::battlefield::Battlefield) -> u32 {
        if battlefield.is_grid() { steps } else { steps.min(ZONE_HAUL_STEPS) }
    }
}

/// The most zones a drag or hurl crosses on a zone battlefield: 10 ft never carries a unit past
/// more than one zone's edge.
const ZONE_HAUL_STEPS: u32 = 1;

/// Execution attacks: a hit on an unaware target forces a save at a penalty of the attacker's
/// attack skill; a failure drops it to zero, a success still takes the hit's maximum damage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExecutionRules {
    /// The save die.
    pub save_die: Dice,
    /// The number the save must reach.
    pub save_tn: i32,
    /// Executions with missile weapons (`S-EXEC-1`); `None`: melee executions only.
    #[serde(default)]
    pub ranged: Option<RangedExecutionRules>,
}

/// A ranged execution attack (`S-EXEC-1`): the shooter's attack roll, with bonuses for a close
/// or normal-range shot, against the ruleset's `base_defense` (the victim's own Armour Class is
/// ignored). A hit leads to the same save as a melee execution; a miss does nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangedExecutionRules {
    /// Added to the roll within `point_blank` squares (zones on a zone battlefield).
    pub point_blank_bonus: i32,
    /// How near a point-blank shot is: 2 squares, 10 ft.
    pub point_blank: u32,
    /// Added to the roll further away but within the weapon's normal range
    /// (`situational.normal_range_percent` of its `range`).
    pub normal_range_bonus: i32,
}

/// How conditions change an attack (`A-COND-1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionRules {
    /// The Defense of a flat-footed target (surprised, paralysed): hit on this whatever its Agility.
    pub flat_footed_defense: i32,
    /// A prone target is semi flat-footed: this plus its Agility modifier.
    pub prone_defense: i32,
    /// To-hit for attacking with an ally on the far side of the target.
    pub flanking_bonus: i32,
    /// Extra damage against a target that has not noticed the attacker (surprised), multiplied by criticals.
    pub sneak_damage: Dice,
    /// A unit casting a spell over several turns (channelling) is flat-footed, unless it has the
    /// Battle Caster feat (`A-COND-1`, `A-FEAT-1`).
    #[serde(default)]
    pub channelling_flat_footed: bool,
    /// A disarmed unit spends a Bonus Action at the start of its turn to pick its weapon up, and
    /// fights unarmed until it has one to spend (`A-COND-1`).
    #[serde(default)]
    pub disarmed_recovers_with_bonus_action: bool,
}

fn default_half_cover() -> i32 {
    2
}

fn default_full_cover() -> i32 {
    4
}

/// How attack rolls are judged.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum AttackStyle {
    /// d20 + attack bonus against the target's Defense (or Armour Class).
    #[default]
    VsDefense,
    /// A test against a fixed difficulty (`Z-ATK-1`): melee adds one attribute's modifier, ranged another.
    /// With `player_facing`, a party member attacked rolls to avoid instead (`Z-ATK-2`).
    Test {
        /// The difficulty to reach.
        tn: i32,
        /// Melee attacks add this attribute's modifier.
        melee: Attribute,
        /// Ranged attacks add this one's.
        ranged: Attribute,
        /// Party members roll to avoid attacks made against them.
        player_facing: bool,
        /// The attribute of the avoid test.
        avoid: Attribute,
    },
}

/// What a natural critical does.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum CriticalRule {
    /// The weapon's multiplier applies to the whole damage (`W-CRIT-1`).
    #[default]
    WeaponMultiplier,
    /// The damage dice are doubled, modifiers are not (`Z-CRIT-1`).
    DoubleDice,
    /// Damage doubles, then each die of `chain` that rolls its maximum doubles it again; the
    /// last one rolling its maximum defeats the target outright (`A-CRIT-1`).
    Escalating {
        /// The escalation dice in order (`["1d4", "1d6"]`).
        chain: Vec<Dice>,
    },
}

/// What a natural fumble does besides missing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum FumbleRule {
    /// Only the miss.
    #[default]
    Miss,
    /// The weapon gets a usage mark (`Z-CRIT-1`).
    WeaponUsage,
    /// The target gets a free hit if the attacker stands in its melee reach; each die of `chain`
    /// rolling its maximum worsens it: a free critical, then the attacker's death (`A-FAIL-1`).
    Escalating {
        /// The escalation dice in order.
        chain: Vec<Dice>,
    },
}

/// How usage marks wear out a weapon (`Z-CRIT-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeaponWear {
    /// The mark that breaks the weapon: from then on its wielder fights with its off-hand
    /// weapon, or bare-handed.
    pub breaks_at: u32,
}

/// Whether a ranged attack is allowed with an enemy in melee reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum RangedInMelee {
    /// No effect.
    #[default]
    Allowed,
    /// Rolled twice, the lower counts (`Z-ATK-1`).
    Disadvantage,
    /// A flat penalty (`S-ATK-2`: −4 for thrown weapons; bows cannot fire at all).
    Penalty(i32),
    /// Shooting or casting with a foe in melee reach gives that foe an attack of opportunity first (`C-AOO-1`).
    Provokes,
}

/// Swarm attacks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SwarmRules {
    /// To-hit per other assailant.
    pub hit_per_assailant: i32,
    /// Damage per other assailant.
    pub damage_per_assailant: i32,
    /// Most to-hit.
    pub max_hit: i32,
    /// Most damage.
    pub max_damage: i32,
    /// Most units of one side that may swarm one target in a round; `None` for no limit.
    #[serde(default)]
    pub max_assailants: Option<u32>,
}

/// Charging.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeRules {
    /// To-hit bonus.
    pub hit_bonus: i32,
    /// Defense lost until the end of the round.
    pub defense_penalty: i32,
    /// Speed multiplier for the charge's straight-line move.
    pub speed_multiplier: u32,
    /// A charge at a foe beyond the weapon's melee reach ends in a throw of a carried throwable
    /// item instead of a blow (`S-SPEC-1`).
    #[serde(default)]
    pub thrown: bool,
}

/// Aimed attacks (`A-AIM-1`) and wounds (`A-WOUND-1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AimRules {
    /// Net damage in one attack that deals a wound.
    pub wound_threshold: i32,
    /// Healing in one instance that removes a wound.
    pub heal_threshold: i32,
    /// The fatal aim's chance die; its maximum face adds `fatal_damage`.
    pub fatal_die: Dice,
    /// Extra damage of a fatal wound.
    pub fatal_damage: i32,
    /// Centre mass to-hit bonus.
    pub centre_mass_bonus: i32,
    /// A slowing wound's lost squares of movement.
    pub slowing_speed: u32,
    /// A disrupting wound's accuracy loss for the rest of the battle.
    pub disrupting_accuracy: i32,
    /// And for the rest of the round.
    pub disrupting_accuracy_this_round: i32,
}

/// Dual wielding.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum DualWield {
    /// A second weapon changes nothing.
    #[default]
    None,
    /// Roll both weapons' damage and keep the higher (`Z-ATK-3`).
    KeepHigher,
    /// A to-hit penalty on every attack and extra damage when both reach (`S-DUAL-1`).
    Bonus {
        /// Added to the attack roll (negative).
        hit: i32,
        /// Added to damage on a hit.
        damage: i32,
        /// The weapon skill a unit needs to fight with two weapons (`S-DUAL-1`: Stab-1 for a
        /// mace and a sword); below it the off-hand weapon does nothing. The skill read is Stab
        /// where the ruleset adds combat skills, an NPC's attack bonus where it reads Hit Dice,
        /// and otherwise the attack skill.
        #[serde(default)]
        min_skill: i32,
    },
}
