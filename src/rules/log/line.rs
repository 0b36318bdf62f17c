//! The body of each log line as a struct of its own, so code and tests read a line's fields by
//! name and type: `CombatLog::lines::<line::Attack>()` rather than JSON look-ups.

use std::sync::Arc;

use serde::Serialize;

use super::*;

/// A log line's typed body, taken out of a [`LogEvent`].
pub trait Line: 'static {
    /// This line's body, if `event` is a line of this kind.
    fn of(event: &LogEvent) -> Option<&Self>;
}

/// `Line` for each struct, matched to the `LogEvent` variant of the same name.
macro_rules! impl_line {
    ($($name:ident),* $(,)?) => {
        $(impl Line for $name {
            fn of(event: &LogEvent) -> Option<&Self> {
                match event {
                    LogEvent::$name(line) => Some(line),
                    _ => None,
                }
            }
        })*
    };
}

impl_line!(
    CombatStarted,
    Surprise,
    Initiative,
    Arrived,
    Declared,
    Moved,
    Attack,
    SideInitiative,
    SurpriseRoll,
    Shock,
    Wound,
    Escalation,
    WeaponUsage,
    SpellDisrupted,
    Reaction,
    Lingering,
    Afflicted,
    Maneuver,
    Execution,
    Withdrawal,
    Damage,
    Status,
    Injury,
    Cast,
    Healed,
    ItemUsed,
    Stabilise,
    Intimidation,
    Hazard,
    ActionLost,
    Morale,
    CombatEnded
);

/// The battle begins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatStarted {
    /// Level name.
    pub level: String,
    /// Ruleset name.
    pub ruleset: String,
    /// Seed of the combat RNG.
    pub seed: u64,
    /// Every unit, reinforcements included.
    pub units: Vec<UnitEntry>,
}

/// Whether a unit is surprised.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Surprise {
    /// Unit id.
    pub unit: Arc<str>,
    /// Surprised or not.
    pub surprised: bool,
}

/// A Base Initiative roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Initiative {
    /// Unit id.
    pub unit: Arc<str>,
    /// The roll.
    pub roll: DiceRoll,
    /// Base Initiative.
    pub base: i32,
    /// The shared-roll group, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<Arc<str>>,
}

/// A reinforcement enters the battle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Arrived {
    /// Unit id.
    pub unit: Arc<str>,
    /// Zone id.
    pub zone: crate::battlefield::Place,
}

/// A declared action.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declared {
    /// Unit id.
    pub unit: Arc<str>,
    /// Action kind, written by its log name.
    #[serde(serialize_with = "super::write_action_name")]
    pub action: ActionKind,
    /// Target unit id.
    pub target: Option<Arc<str>>,
    /// Initiative modifier.
    pub modifier: i32,
    /// Round Initiative it resolves at.
    pub initiative: i32,
    /// Zone (or square) it moves to first, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_to: Option<crate::battlefield::Place>,
    /// Where an aimed attack aims (`A-AIM-1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aim: Option<AimPoint>,
    /// Weapon, spell or item used, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub using: Option<Arc<str>>,
    /// A missed action carried from the previous round (`W-INIT-5`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub carried_over: bool,
    /// Zone (or square) it moves to once its action is done (`C-MOVE-1`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_after: Option<crate::battlefield::Place>,
    /// A held action taken in answer to the turn of the foe it waited for, at that foe's
    /// count (`S-ACT-2`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
}

/// A unit changed zones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moved {
    /// Unit id.
    pub unit: Arc<str>,
    /// Zone (or square) left.
    pub from: crate::battlefield::Place,
    /// Zone (or square) entered.
    pub to: crate::battlefield::Place,
}

/// An attack roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attack {
    /// Attacker id.
    pub attacker: Arc<str>,
    /// Target id.
    pub target: Arc<str>,
    /// The count it happened at.
    pub initiative: i32,
    /// The roll.
    pub roll: DiceRoll,
    /// Roll total with all bonuses.
    pub total: i32,
    /// Defense it had to reach.
    pub defense: i32,
    /// Whether it hit.
    pub hit: bool,
    /// Whether it was a critical.
    pub critical: bool,
    /// How the attack came about.
    pub kind: AttackKind,
    /// Damage roll, if it hit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_roll: Option<DiceRoll>,
    /// Extras some rulesets add (cover, aim, avoid tests, disadvantage).
    #[serde(flatten)]
    pub extra: AttackExtra,
}

/// A side's initiative roll (`Z-INIT-1`, `S-INIT-1`, `C-INIT-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideInitiative {
    /// Side name.
    pub side: Arc<str>,
    /// The roll.
    pub roll: DiceRoll,
    /// The side's score (roll and bonus).
    pub score: i32,
    /// Whether the side begins (`Z-INIT-1`'s one roll for who goes first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub begins: Option<bool>,
}

/// A side's surprise roll (`C-SURP-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SurpriseRoll {
    /// Side name.
    pub side: Arc<str>,
    /// The unit that rolled, under individual surprise rolls (`C-SURP-1` option); absent when
    /// the side rolls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<Arc<str>>,
    /// The roll.
    pub roll: DiceRoll,
    /// Highest roll that surprises it.
    pub range: i32,
    /// Whether the roll alone would surprise it.
    pub surprised: bool,
}

/// Shock from a missed attack (`S-SHOCK-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shock {
    /// Attacker id.
    pub attacker: Arc<str>,
    /// Target id.
    pub target: Arc<str>,
    /// Damage it deals (0 when absorbed).
    pub amount: i32,
    /// What stopped it: `shield` or `total_defense`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absorbed_by: Option<ShockAbsorber>,
}

/// A wound from one big hit (`A-WOUND-1`, `A-AIM-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wound {
    /// Unit id.
    pub unit: Arc<str>,
    /// Who dealt it.
    pub source: Arc<str>,
    /// Where the attack aimed.
    pub aim: AimPoint,
    /// The unit's wounds now.
    pub wounds: u32,
    /// The fatal aim's chance roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<DiceRoll>,
    /// Extra damage the wound added.
    pub extra_damage: i32,
}

/// One step of a critical or fumble chain (`A-CRIT-1`, `A-FAIL-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Escalation {
    /// The attacker.
    pub unit: Arc<str>,
    /// `critical` or `tragedy`.
    pub chain: EscalationChain,
    /// Step, from 1.
    pub step: u32,
    /// The roll.
    pub roll: DiceRoll,
    /// Whether it escalated.
    pub escalated: bool,
}

/// A fumble marked a usage on the weapon (`Z-CRIT-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeaponUsage {
    /// Unit id.
    pub unit: Arc<str>,
    /// The weapon.
    pub weapon: Arc<str>,
    /// The weapon's marks now.
    pub marks: u32,
    /// This mark wore the weapon out and broke it (`weapon_wear`); written only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub broken: bool,
}

/// A spell not cast because the caster was hurt earlier in the round (`C-CAST-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpellDisrupted {
    /// Caster id.
    pub unit: Arc<str>,
    /// Spell name.
    pub spell: Arc<str>,
    /// Damage taken this round before its turn.
    pub damage_taken: i32,
}

/// An unscripted creature's reaction roll (`Z-REACT-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reaction {
    /// Unit id.
    pub unit: Arc<str>,
    /// The roll.
    pub roll: DiceRoll,
    /// `hostile`, `wary`, `curious`, `kind`, `helpful` (the ruleset's names).
    pub reaction: String,
    /// Whether it joins the fight.
    pub fights: bool,
}

/// A lingering effect's end-of-turn test (`Z-ONGO-1`, `Z-HIND-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lingering {
    /// Unit id.
    pub unit: Arc<str>,
    /// Ongoing damage or the hindrance.
    pub effect: Affliction,
    /// The test.
    pub roll: DiceRoll,
    /// Its difficulty.
    pub tn: i32,
    /// Whether the effect ends.
    pub shaken_off: bool,
    /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disadvantage_roll: Option<DiceRoll>,
}

/// A hit left a lingering effect (`Z-ONGO-1`, `Z-HIND-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Afflicted {
    /// Unit id.
    pub unit: Arc<str>,
    /// Ongoing damage or the hindrance.
    pub effect: Affliction,
    /// Who caused it.
    pub source: Arc<str>,
}

/// An opposed check of a shove or grapple (`S-MAN-1`, `Z-STUNT-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Maneuver {
    /// The one shoving or grappling.
    pub unit: Arc<str>,
    /// Its target.
    pub target: Arc<str>,
    /// Which contest.
    pub maneuver: super::ManeuverKind,
    /// The attacker's check.
    pub roll: DiceRoll,
    /// The target's check.
    pub against: DiceRoll,
    /// Whether the attacker won (ties go to the target).
    pub won: bool,
    /// What came of it: `pushed`, `knocked_prone`, `grappled`, `broke_free`, or null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<ManeuverOutcome>,
    /// The other roll of `roll` when the one making it is weakened (`Z-HIND-1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disadvantage_roll: Option<DiceRoll>,
    /// The other roll of `against` when the one making it is weakened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against_disadvantage_roll: Option<DiceRoll>,
}

/// An execution attack's save (`S-EXEC-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Execution {
    /// The assassin.
    pub unit: Arc<str>,
    /// The victim.
    pub target: Arc<str>,
    /// The victim's save, the attacker's attack skill taken off.
    pub roll: DiceRoll,
    /// The number to reach.
    pub tn: i32,
    /// Whether it survived the blow (taking maximum damage instead).
    pub saved: bool,
}

/// A withdrawal response after failed morale (`C-WDRAW-1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Withdrawal {
    /// Unit id.
    pub unit: Arc<str>,
    /// The table roll.
    pub roll: DiceRoll,
    /// `fall_back`, `disengage`, `flee` or `surrender`.
    pub response: super::Withdrawal,
}

/// Damage taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Damage {
    /// Unit id.
    pub unit: Arc<str>,
    /// Attacker id, or a cause (`dying`, a hazard).
    pub source: Arc<str>,
    /// Damage after armour.
    pub amount: i32,
    /// Damage type.
    pub damage_type: DamageType,
    /// From a critical hit.
    pub critical: bool,
    /// Stress lost.
    pub stress_lost: i32,
    /// Wound Points lost.
    pub wounds_lost: i32,
    /// Stress after.
    pub stress: i32,
    /// Wound Points after.
    pub wounds: i32,
    /// The damage roll, for damage no `attack` line rolled (spells, items, hazards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<DiceRoll>,
}

/// A change of status.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Status {
    /// Unit id.
    pub unit: Arc<str>,
    /// New status.
    pub status: StatusChange,
}

/// A combat injury.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Injury {
    /// Unit id.
    pub unit: Arc<str>,
    /// The d% chance roll.
    pub chance: DiceRoll,
    /// Critical damage it had to be at or under.
    pub damage: i32,
    /// The table roll, if the chance came up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<DiceRoll>,
    /// Table (damage type).
    pub table: DamageType,
    /// The injury's name, if one was suffered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injury: Option<String>,
    /// Other rolls the injury made (attribute damage, which arm).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<InjuryRoll>,
}

/// A spell cast.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cast {
    /// Caster id.
    pub unit: Arc<str>,
    /// Spell name.
    pub spell: Arc<str>,
    /// Target id.
    pub target: Option<Arc<str>>,
    /// Casting check.
    pub roll: DiceRoll,
    /// Casting TN.
    pub tn: i32,
    /// Whether it worked.
    pub success: bool,
    /// Mana spent.
    pub mana_spent: i32,
    /// Stress spent in place of Mana.
    pub stress_spent: i32,
    /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disadvantage_roll: Option<DiceRoll>,
}

/// Stress or Wound Points restored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Healed {
    /// Unit id.
    pub unit: Arc<str>,
    /// Who did it.
    pub source: Arc<str>,
    /// The roll.
    pub roll: DiceRoll,
    /// Stress restored.
    pub stress_restored: i32,
    /// Wound Points restored.
    pub wounds_restored: i32,
    /// Stress after.
    pub stress: i32,
    /// Wound Points after.
    pub wounds: i32,
    /// The aim of the wound the healing closed, if it closed one (`A-WOUND-1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wound_closed: Option<AimPoint>,
}

/// A consumable used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemUsed {
    /// Unit id.
    pub unit: Arc<str>,
    /// Item name.
    pub item: Arc<str>,
    /// Target id.
    pub target: Option<Arc<str>>,
}

/// A Heal check to stabilise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stabilise {
    /// Healer id.
    pub unit: Arc<str>,
    /// Patient id.
    pub target: Arc<str>,
    /// The check.
    pub roll: DiceRoll,
    /// TN.
    pub tn: i32,
    /// Whether it worked.
    pub success: bool,
}

/// An Intimidation check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Intimidation {
    /// Intimidator id.
    pub unit: Arc<str>,
    /// Target id.
    pub target: Arc<str>,
    /// The check.
    pub roll: DiceRoll,
}

/// A hazard test at the end of the round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hazard {
    /// Unit id.
    pub unit: Arc<str>,
    /// Zone id.
    pub zone: Arc<str>,
    /// Hazard name.
    pub hazard: String,
    /// Test.
    pub roll: DiceRoll,
    /// TN.
    pub tn: i32,
    /// Whether it was resisted.
    pub passed: bool,
    /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disadvantage_roll: Option<DiceRoll>,
}

/// A declared action that could not be carried out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionLost {
    /// Unit id.
    pub unit: Arc<str>,
    /// Why.
    pub reason: super::LostReason,
}

/// A morale check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Morale {
    /// Unit id.
    pub unit: Arc<str>,
    /// 3d6 roll.
    pub roll: DiceRoll,
    /// Roll plus bonuses.
    pub total: i32,
    /// TN.
    pub tn: i32,
    /// Passed.
    pub passed: bool,
    /// What triggered it.
    pub reason: MoraleReason,
    /// Failed without regard to the roll because defeat was obvious.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub automatic: bool,
    /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disadvantage_roll: Option<DiceRoll>,
}

/// The battle ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatEnded {
    /// Why.
    pub reason: super::EndReason,
    /// Winning side, if any.
    pub winner: Option<Arc<str>>,
}

/// Online play: the seed a declaration pass's close gave the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiceReseeded {
    /// The new seed of the combat stream.
    pub seed: u64,
}
