//! The combat log: every fact of a battle in order, written as the JSON Lines of `docs/combat-log.md`.

use std::io::{self, Write};
use std::sync::Arc;

use bevy::prelude::*;
use serde::Serialize;

use super::components::{ActionKind, AimPoint, Controller, Status};
use super::dice::DiceRoll;
use super::equipment::DamageType;
use super::equipment::Hindrance;
pub mod line;
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

/// What came of a won contest: the `outcome` of a `maneuver` line (`S-MAN-1`, `Z-STUNT-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ManeuverOutcome {
    /// A shove moved its target.
    Pushed,
    /// A shove or knock-down left its target on the ground.
    KnockedProne,
    /// A grapple took hold.
    Grappled,
    /// The held unit broke its grappler's hold.
    BrokeFree,
    /// A drag moved the grappler and the one it holds.
    Dragged,
    /// A hurl threw the held unit down, prone and free.
    Thrown,
    /// A won grapple or drag that had no room: nothing changes.
    NoRoom,
    /// A screener stepped in and took the attack.
    Screened,
}

impl ManeuverOutcome {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pushed => "pushed",
            Self::KnockedProne => "knocked_prone",
            Self::Grappled => "grappled",
            Self::BrokeFree => "broke_free",
            Self::Dragged => "dragged",
            Self::Thrown => "thrown",
            Self::NoRoom => "no_room",
            Self::Screened => "screened",
        }
    }
}

/// Which contest a `maneuver` line records (`S-MAN-1`, `Z-STUNT-1`): its `maneuver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
pub enum ManeuverKind {
    /// A shove or a knock-down.
    Shove,
    /// A grapple.
    Grapple,
    /// A screener stepping in front of an attack.
    Screen,
    /// The held unit struggling against its grappler's hold.
    BreakFree,
    /// A grappler dragging the one it holds.
    Drag,
    /// A grappler hurling the one it holds to the ground.
    Hurl,
}

impl ManeuverKind {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Shove => "shove",
            Self::Grapple => "grapple",
            Self::Screen => "screen",
            Self::BreakFree => "break_free",
            Self::Drag => "drag",
            Self::Hurl => "hurl",
        }
    }
}

/// Why a declared action could not be carried out: the log's `reason` of an `action_lost` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
pub enum LostReason {
    /// The unit was unable to act when its count came.
    CannotAct,
    /// The target moved off, out of sight, or was no longer there.
    TargetOutOfReach,
    /// A zone on the path (on a grid, the destination square) was full.
    ZoneFull,
    /// The caster no longer had what the spell costs.
    CannotPay,
    /// Every summoning slot of the caster was taken (`A-SUMM-1`).
    NoSummoningSlot,
    /// As many units as may swarm the target already did this round (`S-SPEC-1`).
    SwarmFull,
    /// A held action's foe never came before the round's turns were over (`S-ACT-2`).
    HeldActionLapsed,
}

impl LostReason {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CannotAct => "cannot_act",
            Self::TargetOutOfReach => "target_out_of_reach",
            Self::ZoneFull => "zone_full",
            Self::CannotPay => "cannot_pay",
            Self::NoSummoningSlot => "no_summoning_slot",
            Self::SwarmFull => "swarm_full",
            Self::HeldActionLapsed => "held_action_lapsed",
        }
    }
}

/// Why a battle ended: the log's `reason` of a `combat_ended` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// One side is left fighting.
    SideDefeated,
    /// No side is.
    MutualDefeat,
    /// A `Survive` condition was met.
    Survived,
    /// An `Eliminate` condition was met.
    TargetEliminated,
    /// The round limit was reached.
    MaxRounds,
    /// Online: the other sides forfeited (their players did not return).
    Forfeit,
}

impl EndReason {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SideDefeated => "side_defeated",
            Self::MutualDefeat => "mutual_defeat",
            Self::Survived => "survived",
            Self::TargetEliminated => "target_eliminated",
            Self::MaxRounds => "max_rounds",
            Self::Forfeit => "forfeit",
        }
    }
}

/// What a `status` line says became of a unit: a new [`Status`] or one of the changes that
/// leave its status as it was (or that the log names apart from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
pub enum StatusChange {
    /// A failed morale check ended in talks: the unit leaves the fight, counted as surrendered.
    Parley,
    /// Online: its side forfeited, so it leaves the fight, counted as surrendered.
    Forfeited,
    /// A summoned unit leaves with the battle's end (`A-SUMM-1`).
    Vanished,
    /// Its reaction roll says it does not fight (`Z-REACT-1`).
    StandsAside,
    /// A Heal check stabilised it; it is still down.
    Stabilized,
    /// It was knocked down, or dropped of its own accord.
    Prone,
    /// A prone unit stood up.
    Standing,
    /// It took total defense out of turn (`S-SPEC-1`).
    FullDefense,
    /// Its status became this one, written by the status's own name (`dead`, `fled`, ...).
    #[serde(untagged)]
    Became(Status),
}

impl StatusChange {
    /// The snake_case name the log writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Parley => "parley",
            Self::Forfeited => "forfeited",
            Self::Vanished => "vanished",
            Self::StandsAside => "stands_aside",
            Self::Stabilized => "stabilized",
            Self::Prone => "prone",
            Self::Standing => "standing",
            Self::FullDefense => "full_defense",
            Self::Became(status) => status.log_name(),
        }
    }
}

impl From<Status> for StatusChange {
    fn from(status: Status) -> Self {
        Self::Became(status)
    }
}

/// Writes an action kind by its log name (`aimed_attack`, `cast`...), which leaves out the
/// payload the kind carries (which spell, item or aim).
fn write_action_name<S: serde::Serializer>(kind: &ActionKind, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(kind.log_name())
}

/// Writes a controller by its log name (`human`, `greedy`...), not by its save-file form.
fn write_controller_name<S: serde::Serializer>(controller: &Controller, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(controller.log_name())
}

/// A log enum equals the name the log writes for it, so a reader may compare it with a line's text.
macro_rules! equals_its_log_name {
    ($($kind:ty),*) => {$(
        impl PartialEq<&str> for $kind {
            fn eq(&self, name: &&str) -> bool {
                self.as_str() == *name
            }
        }
    )*};
}

equals_its_log_name!(ManeuverKind, LostReason, EndReason);

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
    /// Who chooses its actions, written `human`, `random`, `easy`, `greedy`, `hard` or `master`.
    #[serde(serialize_with = "write_controller_name")]
    pub controller: Controller,
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
    CombatStarted(line::CombatStarted),
    /// Whether a unit is surprised.
    Surprise(line::Surprise),
    /// A Base Initiative roll.
    Initiative(line::Initiative),
    /// A round begins.
    RoundStarted {},
    /// A reinforcement enters the battle.
    Arrived(line::Arrived),
    /// A declared action.
    Declared(line::Declared),
    /// A unit changed zones.
    Moved(line::Moved),
    /// An attack roll.
    Attack(line::Attack),
    /// A side's initiative roll (`Z-INIT-1`, `S-INIT-1`, `C-INIT-1`).
    SideInitiative(line::SideInitiative),
    /// A side's surprise roll (`C-SURP-1`).
    SurpriseRoll(line::SurpriseRoll),
    /// Shock from a missed attack (`S-SHOCK-1`).
    Shock(line::Shock),
    /// A wound from one big hit (`A-WOUND-1`, `A-AIM-1`).
    Wound(line::Wound),
    /// One step of a critical or fumble chain (`A-CRIT-1`, `A-FAIL-1`).
    Escalation(line::Escalation),
    /// A fumble marked a usage on the weapon (`Z-CRIT-1`).
    WeaponUsage(line::WeaponUsage),
    /// A spell not cast because the caster was hurt earlier in the round (`C-CAST-1`).
    SpellDisrupted(line::SpellDisrupted),
    /// An unscripted creature's reaction roll (`Z-REACT-1`).
    Reaction(line::Reaction),
    /// A lingering effect's end-of-turn test (`Z-ONGO-1`, `Z-HIND-1`).
    Lingering(line::Lingering),
    /// A hit left a lingering effect (`Z-ONGO-1`, `Z-HIND-1`).
    Afflicted(line::Afflicted),
    /// An opposed check of a shove or grapple (`S-MAN-1`, `Z-STUNT-1`).
    Maneuver(line::Maneuver),
    /// An execution attack's save (`S-EXEC-1`).
    Execution(line::Execution),
    /// A withdrawal response after failed morale (`C-WDRAW-1`).
    Withdrawal(line::Withdrawal),
    /// Damage taken.
    Damage(line::Damage),
    /// A change of status.
    Status(line::Status),
    /// A combat injury.
    Injury(line::Injury),
    /// A spell cast.
    Cast(line::Cast),
    /// Stress or Wound Points restored.
    Healed(line::Healed),
    /// A consumable used.
    ItemUsed(line::ItemUsed),
    /// A Heal check to stabilise.
    Stabilise(line::Stabilise),
    /// An Intimidation check.
    Intimidation(line::Intimidation),
    /// A hazard test at the end of the round.
    Hazard(line::Hazard),
    /// A declared action that could not be carried out.
    ActionLost(line::ActionLost),
    /// A morale check.
    Morale(line::Morale),
    /// A round ends.
    RoundEnded {},
    /// Online play only: a declaration pass closed and the referee drew the seed the dice roll
    /// from until the next pass closes.
    DiceReseeded(line::DiceReseeded),
    /// The battle ends.
    CombatEnded(line::CombatEnded),
}

impl LogEvent {
    /// The `event` name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::CombatStarted(_) => "combat_started",
            Self::Surprise(_) => "surprise",
            Self::Initiative(_) => "initiative",
            Self::RoundStarted {} => "round_started",
            Self::DiceReseeded(_) => "dice_reseeded",
            Self::Arrived(_) => "arrived",
            Self::Declared(_) => "declared",
            Self::Moved(_) => "moved",
            Self::Attack(_) => "attack",
            Self::SideInitiative(_) => "side_initiative",
            Self::SurpriseRoll(_) => "surprise_roll",
            Self::Shock(_) => "shock",
            Self::Wound(_) => "wound",
            Self::Escalation(_) => "escalation",
            Self::WeaponUsage(_) => "weapon_usage",
            Self::Withdrawal(_) => "withdrawal",
            Self::Lingering(_) => "lingering",
            Self::Maneuver(_) => "maneuver",
            Self::Execution(_) => "execution",
            Self::Afflicted(_) => "afflicted",
            Self::SpellDisrupted(_) => "spell_disrupted",
            Self::Reaction(_) => "reaction",
            Self::Damage(_) => "damage",
            Self::Status(_) => "status",
            Self::Injury(_) => "injury",
            Self::Cast(_) => "cast",
            Self::Healed(_) => "healed",
            Self::ItemUsed(_) => "item_used",
            Self::Stabilise(_) => "stabilise",
            Self::Intimidation(_) => "intimidation",
            Self::Hazard(_) => "hazard",
            Self::ActionLost(_) => "action_lost",
            Self::Morale(_) => "morale",
            Self::RoundEnded {} => "round_ended",
            Self::CombatEnded(_) => "combat_ended",
        }
    }
}

/// Attack-line fields that only some rulesets write.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AttackExtra {
    /// The target's cover on a grid: `half` or `full`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover: Option<crate::battlefield::Cover>,
    /// Where an aimed attack aimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aim: Option<AimPoint>,
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

    /// The bodies of every line of kind `L`, in order: `log.lines::<line::Attack>()`.
    pub fn lines<L: line::Line>(&self) -> impl Iterator<Item = &L> {
        self.entries.iter().filter_map(|entry| L::of(&entry.event))
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

    /// What serde writes for `value`, without the quotes.
    fn written(value: impl Serialize) -> String {
        serde_json::to_string(&value).expect("a log enum serialises").trim_matches('"').to_string()
    }

    #[test]
    fn every_log_enum_writes_the_name_its_readers_compare() {
        use strum::IntoEnumIterator;
        for kind in ManeuverKind::iter() {
            assert_eq!(written(kind), kind.as_str());
        }
        for reason in LostReason::iter() {
            assert_eq!(written(reason), reason.as_str());
        }
        for reason in EndReason::iter() {
            assert_eq!(written(reason), reason.as_str());
        }
        for cover in [crate::battlefield::Cover::Half, crate::battlefield::Cover::Full] {
            assert_eq!(written(cover), cover.as_str());
        }
        let changes = StatusChange::iter().filter(|change| !matches!(change, StatusChange::Became(_)));
        for change in changes.chain(Status::iter().map(StatusChange::Became)) {
            assert_eq!(written(change), change.as_str());
        }
        for damage_type in DamageType::ALL {
            assert_eq!(written(damage_type), damage_type.as_str());
        }
        for aim in AimPoint::ALL {
            assert_eq!(written(aim), aim.log_name());
        }
    }

    #[test]
    fn actions_and_controllers_are_written_by_their_log_names() {
        let declared = line::Declared {
            unit: "a".into(),
            action: ActionKind::Aimed(AimPoint::CentreMass),
            target: None,
            modifier: 0,
            initiative: 4,
            move_to: None,
            aim: Some(AimPoint::CentreMass),
            using: None,
            carried_over: false,
            move_after: None,
            held: false,
        };
        let entry = LogEntry { round: 1, event: LogEvent::Declared(declared) };
        let expected = r#"{"event":"declared","round":1,"unit":"a","action":"aimed_attack","target":null,"modifier":0,"initiative":4,"aim":"centre_mass"}"#;
        assert_eq!(entry.to_json(), expected);
        /// A controller as the log writes it.
        #[derive(Serialize)]
        struct Logged(#[serde(serialize_with = "write_controller_name")] Controller);
        let hard = Controller::Ai(crate::rules::components::AiKind::Hard);
        for (controller, name) in [(Controller::Human, "human"), (hard, "hard")] {
            assert_eq!(written(Logged(controller)), name);
        }
    }

    #[test]
    fn round_follows_the_event_tag() {
        let entry = LogEntry {
            round: 3,
            event: LogEvent::Status(line::Status { unit: "a".into(), status: Status::Dead.into() }),
        };
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
            let entry = LogEntry {
                round: 2,
                event: LogEvent::Afflicted(line::Afflicted { unit: "a".into(), effect, source: "b".into() }),
            };
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
