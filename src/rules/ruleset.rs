//! The `Ruleset` resource: every number and option the combat stages read, loaded from RON.

use bevy::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::dice::Dice;
use super::equipment::Attribute;
use super::log::AttackKind;

/// The default ruleset's name; levels that name no ruleset use it.
pub const DEFAULT_RULESET: &str = "stress_and_wounds";

/// A complete ruleset. Each field group belongs to one pipeline stage (or to the combat stats
/// those stages read); a modder changes the game by editing these values, never the stages.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// Short identifier, written to the log as `ruleset`.
    pub name: String,
    /// One line for menus and `fray check`.
    #[serde(default)]
    pub description: String,
    /// How attribute scores turn into modifiers.
    pub attributes: AttributeRules,
    /// Surprise stage.
    pub surprise: SurpriseRules,
    /// Initiative stage.
    pub initiative: InitiativeRules,
    /// Declare stage: order and action modifiers.
    pub declaration: DeclarationRules,
    /// Attack rolls and Defense.
    pub attack: AttackRules,
    /// Damage, Stress and Wound Points.
    pub damage: DamageRules,
    /// Incapacitated, dying, death and stabilising.
    pub wounds: WoundRules,
    /// Combat injuries after critical hits.
    pub injuries: InjuryRules,
    /// Repostes and the threat range.
    pub reposte: ReposteRules,
    /// Movement across zones.
    pub movement: MovementRules,
    /// Casting spells.
    pub spells: SpellRules,
    /// Monster morale.
    pub morale: MoraleRules,
    /// When a combat ends.
    pub end: EndRules,
    /// Who acts when: declared initiative (seed 000) or turns in an order rolled per side or unit.
    #[serde(default)]
    pub turns: TurnRules,
}

/// Attribute scores to modifiers: `floor((score - base) / step)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttributeRules {
    /// The score whose modifier is 0.
    pub modifier_base: i32,
    /// Points of score per point of modifier.
    pub modifier_step: i32,
}

impl AttributeRules {
    /// The modifier of `score`.
    pub fn modifier(&self, score: i32) -> i32 {
        (score as i64 - self.modifier_base as i64).div_euclid(self.modifier_step.max(1) as i64) as i32
    }
}

/// What being surprised costs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SurpriseRules {
    /// Rounds in which surprised units neither declare nor act (nor react).
    pub rounds_lost: u32,
    /// A surprise roll per side at the start (`C-SURP-1`); without it only the level decides.
    #[serde(default)]
    pub roll: Option<SurpriseRoll>,
    /// The reaction table unscripted sides roll on when the fight starts (`Z-REACT-1`).
    #[serde(default)]
    pub reaction: Option<ReactionTable>,
}

/// A reaction roll for creatures with no set mind: each row names a reaction up to a roll, and
/// whether a creature feeling it joins the fight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReactionTable {
    /// The die (`1d10`).
    pub die: Dice,
    /// Rows in rising order: `(up_to, reaction, fights)`.
    pub rows: Vec<(i32, String, bool)>,
}

/// Each side rolls; at or under its range it is surprised. Neither or both surprised: nobody is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SurpriseRoll {
    /// The die (`1d12`).
    pub die: Dice,
    /// Highest roll that means surprised (4 for 1–4); a side's `surprise_range` shifts its enemies' range.
    pub surprised_at_most: i32,
    /// Each unit rolls for itself instead of its side (`C-SURP-1` option); a unit that rolls
    /// surprised is surprised only while some enemy did not.
    #[serde(default)]
    pub individual: bool,
}

/// Which way the initiative count runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum InitiativeOrder {
    /// Lowest Round Initiative acts first (stress_and_wounds).
    LowestFirst,
    /// Highest acts first.
    HighestFirst,
}

/// Base and Round Initiative.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InitiativeRules {
    /// The Base Initiative die, before the Agility modifier.
    pub die: Dice,
    /// Multiplier applied to the Agility modifier before it is added (−1 subtracts it).
    pub agility_factor: i32,
    /// Which way the count runs.
    pub order: InitiativeOrder,
    /// Added to the Round Initiative of an action a late joiner missed, acted next round.
    pub missed_turn_modifier: i32,
}

/// How units take turns declaring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum DeclarationOrder {
    /// One unit per side in turn, sides in level order.
    RoundRobinBySide,
    /// Highest Agility score first.
    ByAgility,
    /// Everyone writes their action down; nothing is seen until all have declared.
    SimultaneousSecret,
}

/// Declaration and the action modifiers of `W-DECL-2`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclarationRules {
    /// Declaration order for the whole combat; a level may override it.
    pub order: DeclarationOrder,
    /// Use a consumable item, unless the item says otherwise.
    pub use_item_modifier: i32,
    /// Throw an item, unless the item says otherwise.
    pub throw_modifier: i32,
    /// Full defense.
    pub full_defense_modifier: i32,
    /// Added to weapon speed for a defensive attack.
    pub defensive_attack_extra: i32,
    /// Spell speed = casting TN + this, unless the spell states its speed.
    pub spell_speed_offset: i32,
    /// Moving without any other action.
    pub move_modifier: i32,
    /// Doing nothing this round.
    pub hold_modifier: i32,
    /// A Heal check to stabilise a fallen ally.
    pub stabilise_modifier: i32,
    /// An Intimidation check against a monster.
    pub intimidate_modifier: i32,
}

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
        /// mace and a sword); below it the off-hand weapon does nothing. See
        /// [`actions::weapon_skill`](super::actions::weapon_skill) for the skill read.
        #[serde(default)]
        min_skill: i32,
    },
}

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

/// Which actions the ruleset offers: derived from [`super::components::ActionKind`].
pub use super::components::Offer;

/// Turn order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnRules {
    /// How the order is found.
    #[serde(default)]
    pub order: TurnOrder,
    /// The actions offered; `None` offers seed 000's list.
    #[serde(default)]
    pub offered: Option<Vec<Offer>>,
    /// Units with a missile weapon ready and a foe in sight and range act before everyone else
    /// in the first round (`C-MISS-1`).
    #[serde(default)]
    pub ready_missiles_first: bool,
    /// How simultaneous turns are split, in order (`C-INIT-2`); none keeps ties simultaneous.
    #[serde(default)]
    pub tie_breaks: Vec<TieBreak>,
    /// Weapon attacks per round by level band (`C-MULTI-1`): `(from_level, attacks, per_rounds)`;
    /// 3 attacks per 2 rounds alternate one and two. The highest band the unit's level reaches counts.
    #[serde(default)]
    pub attacks_by_level: Vec<(u32, u32, u32)>,
    /// Other classes' columns of the same table (`C-MULTI-1`), by the creature's `class`, in
    /// the same `(from_level, attacks, per_rounds)` rows; a class not listed uses `attacks_by_level`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub attacks_by_class: std::collections::BTreeMap<String, Vec<(u32, u32, u32)>>,
    /// A prone unit gets up with a Bonus Action as its turn begins, before it declares, and
    /// keeps its action (`A-TURN-1`, `A-BONUS-1`); turn-based orders only.
    #[serde(default)]
    pub bonus_action_stands_up: bool,
    /// A prone unit gets up at once, out of its turn, after the turn that left it prone, paying
    /// with a Bonus Action of its next turn, if that turn has one left (`A-BONUS-1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_up_out_of_turn: bool,
    /// Standing up spends only the turn's Move action (`S-ACT-2`): a unit that stands up without
    /// moving first declares its Main action next, in the same turn; turn-based orders only.
    #[serde(default)]
    pub stand_up_is_move: bool,
    /// Going prone is a Free action (`S-ACT-1`, `S-ACT-2`): the unit declares the rest of its
    /// turn next, with its Move still to make unless it moved before dropping; turn-based orders only.
    #[serde(default)]
    pub go_prone_is_free: bool,
    /// Screening an ally is a Move action (`S-ACT-2`, `S-SPEC-1`): the screener declares its
    /// Main action next, in the same turn, with no move before it; turn-based orders only.
    #[serde(default)]
    pub screen_is_move: bool,
    /// A held action waiting for a foe whose turn never came to answer it (`S-ACT-2`) is lost
    /// when the round's turns are over ("until the end of the round, after which they are
    /// lost"), with an `action_lost` line `held_action_lapsed`; off, the holder takes it in a
    /// turn of its own after the round's last, declared then. A hold that named no foe always
    /// gets that turn; turn-based orders only.
    #[serde(default)]
    pub unanswered_hold_lapses: bool,
    /// A zone's hazard tests each unit standing in it as its turn begins, right after any
    /// ongoing damage, instead of at the end of the round (`Z-ZONE-3`); turn-based orders only.
    #[serde(default)]
    pub hazards_each_turn: bool,
    /// Bonus Actions each declaration spends as it chooses (`A-TURN-1`, `A-BONUS-1`); `None`
    /// keeps the automatic `attack.standing_bonus`, `attack.dodge_bonus` and
    /// `movement.move_only_extra`.
    #[serde(default)]
    pub bonus_actions: Option<BonusActionRules>,
}

/// What Bonus Actions buy when a declaration chooses how to spend them (`A-BONUS-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BonusActionRules {
    /// Bonus Actions in a turn (weakening wounds take some away).
    pub per_turn: u32,
    /// To hit per Bonus Action, on the turn's own attacks.
    pub hit: i32,
    /// Damage per Bonus Action, on the turn's own melee and thrown attacks.
    pub damage: i32,
    /// Defense per Bonus Action, until the unit's next turn.
    pub dodge: i32,
    /// Squares (zones on a zone battlefield) per Bonus Action spent moving further.
    pub stride: u32,
    /// Bonus Actions that buy a disengage; `None`: only the `Disengage` action does.
    pub disengage: Option<u32>,
    /// The Move Action and every Bonus Action buy one more attack with the weapon's bare dice
    /// (no Strength, no feats); the unit then does not move.
    pub extra_attack: bool,
}

impl TurnRules {
    /// Whether hazards bite at the start of each unit's turn rather than at the end of the round.
    pub fn hazards_on_turn(&self) -> bool {
        self.hazards_each_turn && self.order.on_turn()
    }
}

/// A way to split a tie in a side-roll order (`C-INIT-2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum TieBreak {
    /// The lower weapon speed factor strikes first.
    WeaponSpeed,
    /// Whoever makes more attacks this round goes first.
    MoreAttacks,
    /// A spell's casting time against the other's weapon speed: the lower goes first.
    CastingTime,
    /// Once a simultaneous turn has declared, a spell whose casting time (its speed) is higher
    /// than its caster's initiative die goes off after the turn's missiles and throws, and after
    /// everything else in the turn.
    MissileBeforeSpell,
}

/// How the round's order is found. With anything but `DeclaredInitiative`, units declare when
/// their turn comes, seeing everything that happened before it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum TurnOrder {
    /// Everyone declares, then actions resolve by Base Initiative + action modifier (seed 000).
    #[default]
    DeclaredInitiative,
    /// One roll picks the side that begins (the party at `party_first_at` or more); each unit
    /// then rolls `individual` + the attribute's modifier, highest first within its side (`Z-INIT-1`).
    FirstSideThenIndividual {
        /// The side roll.
        side_die: Dice,
        /// Lowest side roll at which the party begins.
        party_first_at: i32,
        /// Each unit's roll.
        individual: Dice,
        /// Its attribute.
        attribute: Attribute,
    },
    /// Each side rolls `die` + the best modifier of `attribute` among its units (only the party's
    /// when `party_only`); sides act in `order` (`S-INIT-1`, `C-INIT-1`).
    SideRoll {
        /// The side die.
        die: Dice,
        /// The attribute whose best modifier is added (subtracted when the count runs low first).
        attribute: Attribute,
        /// Only the party adds it.
        party_only: bool,
        /// Each unit adjusts the side roll by its own modifier instead of the side's best (`C-INIT-1` option).
        individual_adjustment: bool,
        /// Which way the count runs.
        order: InitiativeOrder,
        /// The party acts first on a tie; otherwise tied sides act simultaneously.
        party_wins_ties: bool,
        /// Roll again every round.
        reroll_each_round: bool,
        /// Each unit rolls `die` itself, adjusted by its own modifier, instead of its side rolling
        /// (`C-INIT-1` option): no side rolls are made.
        #[serde(default)]
        individual_rolls: bool,
    },
    /// By the attribute's modifier, highest first; the unit that started the fight goes last (`A-INIT-1`).
    ByAttribute {
        /// The attribute.
        attribute: Attribute,
    },
}

impl TurnOrder {
    /// Whether units declare on their turn rather than all before resolution.
    pub fn on_turn(&self) -> bool {
        !matches!(self, Self::DeclaredInitiative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_round_down_both_ways() {
        let rules = AttributeRules { modifier_base: 10, modifier_step: 2 };
        assert_eq!(rules.modifier(14), 2);
        assert_eq!(rules.modifier(15), 2);
        assert_eq!(rules.modifier(10), 0);
        assert_eq!(rules.modifier(9), -1);
        assert_eq!(rules.modifier(8), -1);
        assert_eq!(rules.modifier(7), -2);
    }
}

/// The built-in default ruleset's RON, so the game runs from any directory.
pub const BUILTIN_STRESS_AND_WOUNDS: &str = include_str!("../../assets/rulesets/stress_and_wounds.ron");

impl Default for Ruleset {
    fn default() -> Self {
        ron::from_str(BUILTIN_STRESS_AND_WOUNDS).expect("the built-in ruleset is checked by a unit test")
    }
}

#[cfg(test)]
mod builtin_tests {
    use super::*;

    #[test]
    fn the_builtin_ruleset_parses() {
        let ruleset: Ruleset = ron::from_str(BUILTIN_STRESS_AND_WOUNDS).unwrap();
        assert_eq!(ruleset.name, DEFAULT_RULESET);
        assert_eq!(ruleset.declaration.use_item_modifier, 6);
    }
}
