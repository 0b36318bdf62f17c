//! The combat log: every fact of a battle in order, written as the JSON Lines of `docs/combat-log.md`.

use std::io::{self, Write};
use std::sync::Arc;

use bevy::prelude::*;
use serde::Serialize;

use super::dice::DiceRoll;
use super::equipment::Hindrance;
pub use super::ruleset::Withdrawal;

/// How an attack came about: the log's `kind` of an `attack` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A declared attack.
    Normal,
    /// A Reposte provoked by moving past a threatening foe (`W-REPO-1`).
    Reposte,
    /// A thrown item.
    Thrown,
    /// A free attack for leaving a fight (`Z-DISEN-1`).
    FreeAttack,
    /// An attack of opportunity (`S-AOO-1`, `C-AOO-1`).
    Opportunity,
    /// A free hit from a melee zone (`A-FREE-1`).
    FreeHit,
    /// An execution attack on an unaware target.
    Execution,
    /// A shove's attack roll.
    Shove,
    /// A grapple's attack roll.
    Grapple,
    /// An attack made out of turn at the cost of the Main action (`S-SPEC-1`).
    Snap,
    /// A held action's strike at the foe it waited for, before that foe's action (`S-ACT-2`).
    Held,
}

impl AttackKind {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Reposte => "reposte",
            Self::Thrown => "thrown",
            Self::FreeAttack => "free_attack",
            Self::Opportunity => "opportunity",
            Self::FreeHit => "free_hit",
            Self::Execution => "execution",
            Self::Shove => "shove",
            Self::Grapple => "grapple",
            Self::Snap => "snap",
            Self::Held => "held",
        }
    }
}

/// What absorbed a miss's Shock (`S-SHOCK-1`): the log's `absorbed_by`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShockAbsorber {
    /// A shield, once per battle.
    Shield,
    /// Total defense, even against a swarm.
    TotalDefense,
}

impl ShockAbsorber {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Shield => "shield",
            Self::TotalDefense => "total_defense",
        }
    }
}

/// A lingering effect a hit leaves (`Z-ONGO-1`, `Z-HIND-1`): the log's `effect` of `afflicted`
/// and `lingering` lines, written `ongoing_damage` or the hindrance's own name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Affliction {
    /// Ongoing damage each round until shaken off.
    OngoingDamage,
    /// A hindrance, written by its own name (`weakened`, `stuck`, ...).
    #[serde(untagged)]
    Hindrance(Hindrance),
}

impl Affliction {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OngoingDamage => "ongoing_damage",
            Self::Hindrance(hindrance) => hindrance.log_name(),
        }
    }
}

/// Which chain an escalation step belongs to (`A-CRIT-1`, `A-FAIL-1`): the log's `chain` of an
/// `escalation` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EscalationChain {
    /// A critical hit's chain.
    Critical,
    /// A fumble's chain of tragedies.
    Tragedy,
}

/// What made a unit check its morale (`W-MOR-1`): the log's `reason` of a `morale` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoraleReason {
    /// It was intimidated this round.
    Intimidated,
    /// One hit took more than half its Wound Points.
    BigHit,
    /// Its side is outnumbered.
    Outnumbered,
    /// Its side lost the ruleset's share of those it fielded.
    Losing,
}

impl MoraleReason {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Intimidated => "intimidated",
            Self::BigHit => "big_hit",
            Self::Outnumbered => "outnumbered",
            Self::Losing => "losing",
        }
    }
}

/// A unit's entry in `combat_started`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitEntry {
    /// Level id.
    pub id: Arc<str>,
    /// Display name.
    pub name: String,
    /// Side name.
    pub side: Arc<str>,
    /// `human`, `random` or `greedy`.
    pub controller: &'static str,
    /// Combat numbers at the start.
    pub stats: UnitStats,
    /// Zone it starts in (or arrives in).
    pub zone: crate::battlefield::Place,
    /// For reinforcements: when they arrive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrives: Option<Arrival>,
}

/// When a reinforcement arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Arrival {
    /// Round.
    pub round: u32,
    /// Initiative count it arrives after, if mid-round.
    pub at_initiative: Option<i32>,
}

/// The `stress_and_wounds` stats block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnitStats {
    /// Agility modifier.
    pub agility_mod: i32,
    /// Strength score.
    pub strength: i32,
    /// Hit Dice, e.g. `5d8`.
    pub hd: String,
    /// Defense.
    pub defense: i32,
    /// Armour.
    pub armour: i32,
    /// Current Stress.
    pub stress: i32,
    /// Maximum Stress.
    pub stress_max: i32,
    /// Current Wound Points.
    pub wounds: i32,
    /// Maximum Wound Points.
    pub wounds_max: i32,
    /// Speed in zones per round.
    pub speed: u32,
    /// Weapon name.
    pub weapon: Arc<str>,
}

/// One fact of the battle. Field names are the public contract; add, never rename.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LogEvent {
    /// The battle begins.
    CombatStarted {
        /// Level name.
        level: String,
        /// Ruleset name.
        ruleset: String,
        /// Seed of the combat RNG.
        seed: u64,
        /// Every unit, reinforcements included.
        units: Vec<UnitEntry>,
    },
    /// Whether a unit is surprised.
    Surprise {
        /// Unit id.
        unit: Arc<str>,
        /// Surprised or not.
        surprised: bool,
    },
    /// A Base Initiative roll.
    Initiative {
        /// Unit id.
        unit: Arc<str>,
        /// The roll.
        roll: DiceRoll,
        /// Base Initiative.
        base: i32,
        /// The shared-roll group, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        group: Option<Arc<str>>,
    },
    /// A round begins.
    RoundStarted {},
    /// A reinforcement enters the battle.
    Arrived {
        /// Unit id.
        unit: Arc<str>,
        /// Zone id.
        zone: crate::battlefield::Place,
    },
    /// A declared action.
    Declared {
        /// Unit id.
        unit: Arc<str>,
        /// Action kind.
        action: &'static str,
        /// Target unit id.
        target: Option<Arc<str>>,
        /// Initiative modifier.
        modifier: i32,
        /// Round Initiative it resolves at.
        initiative: i32,
        /// Zone (or square) it moves to first, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        move_to: Option<crate::battlefield::Place>,
        /// Where an aimed attack aims (`A-AIM-1`).
        #[serde(skip_serializing_if = "Option::is_none")]
        aim: Option<&'static str>,
        /// Weapon, spell or item used, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        using: Option<Arc<str>>,
        /// A missed action carried from the previous round (`W-INIT-5`).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        carried_over: bool,
        /// Zone (or square) it moves to once its action is done (`C-MOVE-1`), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        move_after: Option<crate::battlefield::Place>,
        /// A held action taken in answer to the turn of the foe it waited for, at that foe's
        /// count (`S-ACT-2`).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        held: bool,
    },
    /// A unit changed zones.
    Moved {
        /// Unit id.
        unit: Arc<str>,
        /// Zone (or square) left.
        from: crate::battlefield::Place,
        /// Zone (or square) entered.
        to: crate::battlefield::Place,
    },
    /// An attack roll.
    Attack {
        /// Attacker id.
        attacker: Arc<str>,
        /// Target id.
        target: Arc<str>,
        /// The count it happened at.
        initiative: i32,
        /// The roll.
        roll: DiceRoll,
        /// Roll total with all bonuses.
        total: i32,
        /// Defense it had to reach.
        defense: i32,
        /// Whether it hit.
        hit: bool,
        /// Whether it was a critical.
        critical: bool,
        /// How the attack came about.
        kind: AttackKind,
        /// Damage roll, if it hit.
        #[serde(skip_serializing_if = "Option::is_none")]
        damage_roll: Option<DiceRoll>,
        /// Extras some rulesets add (cover, aim, avoid tests, disadvantage).
        #[serde(flatten)]
        extra: AttackExtra,
    },
    /// A side's initiative roll (`Z-INIT-1`, `S-INIT-1`, `C-INIT-1`).
    SideInitiative {
        /// Side name.
        side: Arc<str>,
        /// The roll.
        roll: DiceRoll,
        /// The side's score (roll and bonus).
        score: i32,
        /// Whether the side begins (`Z-INIT-1`'s one roll for who goes first).
        #[serde(skip_serializing_if = "Option::is_none")]
        begins: Option<bool>,
    },
    /// A side's surprise roll (`C-SURP-1`).
    SurpriseRoll {
        /// Side name.
        side: Arc<str>,
        /// The unit that rolled, under individual surprise rolls (`C-SURP-1` option); absent when
        /// the side rolls.
        #[serde(skip_serializing_if = "Option::is_none")]
        unit: Option<Arc<str>>,
        /// The roll.
        roll: DiceRoll,
        /// Highest roll that surprises it.
        range: i32,
        /// Whether the roll alone would surprise it.
        surprised: bool,
    },
    /// Shock from a missed attack (`S-SHOCK-1`).
    Shock {
        /// Attacker id.
        attacker: Arc<str>,
        /// Target id.
        target: Arc<str>,
        /// Damage it deals (0 when absorbed).
        amount: i32,
        /// What stopped it: `shield` or `total_defense`.
        #[serde(skip_serializing_if = "Option::is_none")]
        absorbed_by: Option<ShockAbsorber>,
    },
    /// A wound from one big hit (`A-WOUND-1`, `A-AIM-1`).
    Wound {
        /// Unit id.
        unit: Arc<str>,
        /// Who dealt it.
        source: Arc<str>,
        /// Where the attack aimed.
        aim: &'static str,
        /// The unit's wounds now.
        wounds: u32,
        /// The fatal aim's chance roll.
        #[serde(skip_serializing_if = "Option::is_none")]
        roll: Option<DiceRoll>,
        /// Extra damage the wound added.
        extra_damage: i32,
    },
    /// One step of a critical or fumble chain (`A-CRIT-1`, `A-FAIL-1`).
    Escalation {
        /// The attacker.
        unit: Arc<str>,
        /// `critical` or `tragedy`.
        chain: EscalationChain,
        /// Step, from 1.
        step: u32,
        /// The roll.
        roll: DiceRoll,
        /// Whether it escalated.
        escalated: bool,
    },
    /// A fumble marked a usage on the weapon (`Z-CRIT-1`).
    WeaponUsage {
        /// Unit id.
        unit: Arc<str>,
        /// The weapon.
        weapon: Arc<str>,
        /// The weapon's marks now.
        marks: u32,
        /// This mark wore the weapon out and broke it (`weapon_wear`); written only when true.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        broken: bool,
    },
    /// A spell not cast because the caster was hurt earlier in the round (`C-CAST-1`).
    SpellDisrupted {
        /// Caster id.
        unit: Arc<str>,
        /// Spell name.
        spell: Arc<str>,
        /// Damage taken this round before its turn.
        damage_taken: i32,
    },
    /// An unscripted creature's reaction roll (`Z-REACT-1`).
    Reaction {
        /// Unit id.
        unit: Arc<str>,
        /// The roll.
        roll: DiceRoll,
        /// `hostile`, `wary`, `curious`, `kind`, `helpful` (the ruleset's names).
        reaction: String,
        /// Whether it joins the fight.
        fights: bool,
    },
    /// A lingering effect's end-of-turn test (`Z-ONGO-1`, `Z-HIND-1`).
    Lingering {
        /// Unit id.
        unit: Arc<str>,
        /// Ongoing damage or the hindrance.
        effect: Affliction,
        /// The test.
        roll: DiceRoll,
        /// Its difficulty.
        tn: i32,
        /// Whether the effect ends.
        shaken_off: bool,
        /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
        #[serde(skip_serializing_if = "Option::is_none")]
        disadvantage_roll: Option<DiceRoll>,
    },
    /// A hit left a lingering effect (`Z-ONGO-1`, `Z-HIND-1`).
    Afflicted {
        /// Unit id.
        unit: Arc<str>,
        /// Ongoing damage or the hindrance.
        effect: Affliction,
        /// Who caused it.
        source: Arc<str>,
    },
    /// An opposed check of a shove or grapple (`S-MAN-1`, `Z-STUNT-1`).
    Maneuver {
        /// The one shoving or grappling.
        unit: Arc<str>,
        /// Its target.
        target: Arc<str>,
        /// `shove` or `grapple`.
        maneuver: &'static str,
        /// The attacker's check.
        roll: DiceRoll,
        /// The target's check.
        against: DiceRoll,
        /// Whether the attacker won (ties go to the target).
        won: bool,
        /// What came of it: `pushed`, `knocked_prone`, `grappled`, `broke_free`, or null.
        #[serde(skip_serializing_if = "Option::is_none")]
        outcome: Option<&'static str>,
        /// The other roll of `roll` when the one making it is weakened (`Z-HIND-1`).
        #[serde(skip_serializing_if = "Option::is_none")]
        disadvantage_roll: Option<DiceRoll>,
        /// The other roll of `against` when the one making it is weakened.
        #[serde(skip_serializing_if = "Option::is_none")]
        against_disadvantage_roll: Option<DiceRoll>,
    },
    /// An execution attack's save (`S-EXEC-1`).
    Execution {
        /// The assassin.
        unit: Arc<str>,
        /// The victim.
        target: Arc<str>,
        /// The victim's save, the attacker's attack skill taken off.
        roll: DiceRoll,
        /// The number to reach.
        tn: i32,
        /// Whether it survived the blow (taking maximum damage instead).
        saved: bool,
    },
    /// A withdrawal response after failed morale (`C-WDRAW-1`).
    Withdrawal {
        /// Unit id.
        unit: Arc<str>,
        /// The table roll.
        roll: DiceRoll,
        /// `fall_back`, `disengage`, `flee` or `surrender`.
        response: Withdrawal,
    },
    /// Damage taken.
    Damage {
        /// Unit id.
        unit: Arc<str>,
        /// Attacker id, or a cause (`dying`, a hazard).
        source: Arc<str>,
        /// Damage after armour.
        amount: i32,
        /// Damage type.
        damage_type: &'static str,
        /// From a critical hit.
        critical: bool,
        /// Stress lost.
        stress_lost: i32,
        /// Wound Points lost.
        wounds_lost: i32,
        /// Stress after.
        stress: i32,
        /// Wound Points after.
        wounds: i32,
        /// The damage roll, for damage no `attack` line rolled (spells, items, hazards).
        #[serde(skip_serializing_if = "Option::is_none")]
        roll: Option<DiceRoll>,
    },
    /// A change of status.
    Status {
        /// Unit id.
        unit: Arc<str>,
        /// New status.
        status: &'static str,
    },
    /// A combat injury.
    Injury {
        /// Unit id.
        unit: Arc<str>,
        /// The d% chance roll.
        chance: DiceRoll,
        /// Critical damage it had to be at or under.
        damage: i32,
        /// The table roll, if the chance came up.
        #[serde(skip_serializing_if = "Option::is_none")]
        roll: Option<DiceRoll>,
        /// Table (damage type).
        table: &'static str,
        /// The injury's name, if one was suffered.
        #[serde(skip_serializing_if = "Option::is_none")]
        injury: Option<String>,
        /// Other rolls the injury made (attribute damage, which arm).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        effects: Vec<InjuryRoll>,
    },
    /// A spell cast.
    Cast {
        /// Caster id.
        unit: Arc<str>,
        /// Spell name.
        spell: Arc<str>,
        /// Target id.
        target: Option<Arc<str>>,
        /// Casting check.
        roll: DiceRoll,
        /// Casting TN.
        tn: i32,
        /// Whether it worked.
        success: bool,
        /// Mana spent.
        mana_spent: i32,
        /// Stress spent in place of Mana.
        stress_spent: i32,
        /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
        #[serde(skip_serializing_if = "Option::is_none")]
        disadvantage_roll: Option<DiceRoll>,
    },
    /// Stress or Wound Points restored.
    Healed {
        /// Unit id.
        unit: Arc<str>,
        /// Who did it.
        source: Arc<str>,
        /// The roll.
        roll: DiceRoll,
        /// Stress restored.
        stress_restored: i32,
        /// Wound Points restored.
        wounds_restored: i32,
        /// Stress after.
        stress: i32,
        /// Wound Points after.
        wounds: i32,
        /// The aim of the wound the healing closed, if it closed one (`A-WOUND-1`).
        #[serde(skip_serializing_if = "Option::is_none")]
        wound_closed: Option<&'static str>,
    },
    /// A consumable used.
    ItemUsed {
        /// Unit id.
        unit: Arc<str>,
        /// Item name.
        item: Arc<str>,
        /// Target id.
        target: Option<Arc<str>>,
    },
    /// A Heal check to stabilise.
    Stabilise {
        /// Healer id.
        unit: Arc<str>,
        /// Patient id.
        target: Arc<str>,
        /// The check.
        roll: DiceRoll,
        /// TN.
        tn: i32,
        /// Whether it worked.
        success: bool,
    },
    /// An Intimidation check.
    Intimidation {
        /// Intimidator id.
        unit: Arc<str>,
        /// Target id.
        target: Arc<str>,
        /// The check.
        roll: DiceRoll,
    },
    /// A hazard test at the end of the round.
    Hazard {
        /// Unit id.
        unit: Arc<str>,
        /// Zone id.
        zone: Arc<str>,
        /// Hazard name.
        hazard: String,
        /// Test.
        roll: DiceRoll,
        /// TN.
        tn: i32,
        /// Whether it was resisted.
        passed: bool,
        /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
        #[serde(skip_serializing_if = "Option::is_none")]
        disadvantage_roll: Option<DiceRoll>,
    },
    /// A declared action that could not be carried out.
    ActionLost {
        /// Unit id.
        unit: Arc<str>,
        /// Why.
        reason: &'static str,
    },
    /// A morale check.
    Morale {
        /// Unit id.
        unit: Arc<str>,
        /// 3d6 roll.
        roll: DiceRoll,
        /// Roll plus bonuses.
        total: i32,
        /// TN.
        tn: i32,
        /// Passed.
        passed: bool,
        /// What triggered it.
        reason: MoraleReason,
        /// Failed without regard to the roll because defeat was obvious.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        automatic: bool,
        /// The other roll of a test made with disadvantage by a weakened unit (`Z-HIND-1`); the lower counts.
        #[serde(skip_serializing_if = "Option::is_none")]
        disadvantage_roll: Option<DiceRoll>,
    },
    /// A round ends.
    RoundEnded {},
    /// The battle ends.
    CombatEnded {
        /// Why.
        reason: &'static str,
        /// Winning side, if any.
        winner: Option<Arc<str>>,
    },
}

impl LogEvent {
    /// The `event` name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::CombatStarted { .. } => "combat_started",
            Self::Surprise { .. } => "surprise",
            Self::Initiative { .. } => "initiative",
            Self::RoundStarted {} => "round_started",
            Self::Arrived { .. } => "arrived",
            Self::Declared { .. } => "declared",
            Self::Moved { .. } => "moved",
            Self::Attack { .. } => "attack",
            Self::SideInitiative { .. } => "side_initiative",
            Self::SurpriseRoll { .. } => "surprise_roll",
            Self::Shock { .. } => "shock",
            Self::Wound { .. } => "wound",
            Self::Escalation { .. } => "escalation",
            Self::WeaponUsage { .. } => "weapon_usage",
            Self::Withdrawal { .. } => "withdrawal",
            Self::Lingering { .. } => "lingering",
            Self::Maneuver { .. } => "maneuver",
            Self::Execution { .. } => "execution",
            Self::Afflicted { .. } => "afflicted",
            Self::SpellDisrupted { .. } => "spell_disrupted",
            Self::Reaction { .. } => "reaction",
            Self::Damage { .. } => "damage",
            Self::Status { .. } => "status",
            Self::Injury { .. } => "injury",
            Self::Cast { .. } => "cast",
            Self::Healed { .. } => "healed",
            Self::ItemUsed { .. } => "item_used",
            Self::Stabilise { .. } => "stabilise",
            Self::Intimidation { .. } => "intimidation",
            Self::Hazard { .. } => "hazard",
            Self::ActionLost { .. } => "action_lost",
            Self::Morale { .. } => "morale",
            Self::RoundEnded {} => "round_ended",
            Self::CombatEnded { .. } => "combat_ended",
        }
    }
}

/// Attack-line fields that only some rulesets write.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AttackExtra {
    /// The target's cover on a grid: `half` or `full`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover: Option<&'static str>,
    /// Where an aimed attack aimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aim: Option<&'static str>,
    /// The roll was the target's avoid test (`Z-ATK-2`): `hit` is true when it failed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub avoid: bool,
    /// The off-hand weapon's damage roll when the higher of two counts (`Z-ATK-3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_damage_roll: Option<DiceRoll>,
    /// The other roll of a roll with disadvantage (the lower one counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disadvantage_roll: Option<DiceRoll>,
    /// To-hit bonus from swarming assailants (`S-SPEC-1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swarm_bonus: Option<i32>,
    /// A charge's to-hit bonus.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub charge: bool,
    /// An ally on the target's far side gave the flanking bonus (`A-COND-1`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flanking: bool,
    /// Sneak damage added against an unaware target (`A-COND-1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sneak_roll: Option<DiceRoll>,
}

/// A secondary roll made by an injury.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InjuryRoll {
    /// What it decided (`agility`, `arm`).
    pub what: String,
    /// The roll.
    pub roll: DiceRoll,
}

/// One log line: the round it happened in and the event.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// Round (0 before round 1).
    pub round: u32,
    /// The event.
    pub event: LogEvent,
}

impl LogEntry {
    /// The JSON object, `event` first and `round` second.
    pub fn to_json(&self) -> String {
        let body =
            serde_json::to_string(&self.event).unwrap_or_else(|_| format!("{{\"event\":\"{}\"}}", self.event.name()));
        // The tag is the first member; splice `round` right after it so every line starts the same way.
        let tag_end = "{\"event\":\"".len() + self.event.name().len() + 1;
        let (head, tail) = body.split_at(tag_end.min(body.len()));
        if tail == "}" {
            format!("{head},\"round\":{}}}", self.round)
        } else {
            format!("{head},\"round\":{}{tail}", self.round)
        }
    }
}

/// The battle's log. Recording can be switched off for bulk simulation, where only the result matters.
#[derive(Resource, Clone, Debug)]
pub struct CombatLog {
    recording: bool,
    entries: Vec<LogEntry>,
}

impl Default for CombatLog {
    fn default() -> Self {
        Self { recording: true, entries: Vec::new() }
    }
}

impl CombatLog {
    /// A log that records nothing.
    pub fn silent() -> Self {
        Self { recording: false, entries: Vec::new() }
    }

    /// Whether events are kept.
    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// Adds an event built by `make`, which is not called when not recording.
    pub fn record(&mut self, round: u32, make: impl FnOnce() -> LogEvent) {
        if self.recording {
            self.entries.push(LogEntry { round, event: make() });
        }
    }

    /// Everything recorded so far.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Forgets everything (a new battle).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The whole log as JSON Lines.
    pub fn to_json_lines(&self) -> String {
        let mut text = String::new();
        for entry in &self.entries {
            text.push_str(&entry.to_json());
            text.push('\n');
        }
        text
    }

    /// Writes the JSON Lines to `out`.
    pub fn write_json_lines(&self, out: &mut impl Write) -> io::Result<()> {
        for entry in &self.entries {
            writeln!(out, "{}", entry.to_json())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_follows_the_event_tag() {
        let entry = LogEntry { round: 3, event: LogEvent::Status { unit: "a".into(), status: "dead" } };
        assert_eq!(entry.to_json(), r#"{"event":"status","round":3,"unit":"a","status":"dead"}"#);
        let empty = LogEntry { round: 1, event: LogEvent::RoundStarted {} };
        assert_eq!(empty.to_json(), r#"{"event":"round_started","round":1}"#);
    }

    #[test]
    fn a_silent_log_keeps_nothing() {
        let mut log = CombatLog::silent();
        log.record(0, || panic!("a silent log must not build events"));
        assert!(log.entries().is_empty());
    }

    #[test]
    fn afflictions_and_morale_reasons_write_their_snake_case_names() {
        let afflictions = [
            Affliction::OngoingDamage,
            Affliction::Hindrance(Hindrance::Weakened),
            Affliction::Hindrance(Hindrance::Distracted),
            Affliction::Hindrance(Hindrance::Stuck),
            Affliction::Hindrance(Hindrance::Paralysed),
        ];
        for effect in afflictions {
            let entry =
                LogEntry { round: 2, event: LogEvent::Afflicted { unit: "a".into(), effect, source: "b".into() } };
            let expected =
                format!(r#"{{"event":"afflicted","round":2,"unit":"a","effect":"{}","source":"b"}}"#, effect.as_str());
            assert_eq!(entry.to_json(), expected);
        }
        assert_eq!(Affliction::Hindrance(Hindrance::Stuck).as_str(), "stuck");
        let reasons =
            [MoraleReason::Intimidated, MoraleReason::BigHit, MoraleReason::Outnumbered, MoraleReason::Losing];
        let names: Vec<String> =
            reasons.iter().map(|reason| serde_json::to_string(reason).unwrap_or_default()).collect();
        assert_eq!(names, [r#""intimidated""#, r#""big_hit""#, r#""outnumbered""#, r#""losing""#]);
    }
}
