//! A referee that reads a battle's JSON Lines combat log the way a person with the seed in hand
//! would, and lists every line that breaks the preset's rules. It knows the rules and the level's
//! sides; everything else it learns from the log itself (the unit sheets in `combat_started`, the
//! rolls, the declarations, the statuses).

pub mod aimed_wounds;
pub mod crucible;
pub mod general;
pub mod shock_and_cover;
pub mod stress_and_wounds;
pub mod zones_and_tests;

use std::collections::HashMap;
use std::fmt;

use serde_json::Value;

/// One broken rule: which rule, on which line (0-based), and what the referee saw.
#[derive(Clone, Debug)]
pub struct Fault {
    /// The rule's ID in the rules map (or `LOG-…` for the combat-log contract).
    pub rule: &'static str,
    /// The offending line, counted from 0.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{} at line {}: {}", self.rule, self.line + 1, self.what)
    }
}

/// The faults found so far.
#[derive(Default)]
pub struct Faults(pub Vec<Fault>);

impl Faults {
    /// Records a fault unless `holds`.
    pub fn expect(&mut self, holds: bool, rule: &'static str, line: usize, what: impl FnOnce() -> String) {
        if !holds {
            self.0.push(Fault { rule, line, what: what() });
        }
    }
}

/// What the referee is told about the level beyond the log: its sides, in level order, which of
/// them is the party (the players' side), and which units start the fight by attacking.
#[derive(Clone, Debug)]
pub struct Sides {
    /// Side names in level order.
    pub names: Vec<String>,
    /// The party's side name.
    pub party: String,
    /// Units marked `initiated` (`A-INIT-1`: they go last).
    pub initiated: Vec<String>,
}

/// The five presets the referee knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Seed 000.
    StressAndWounds,
    /// Seed 001.
    ZonesAndTests,
    /// Seed 002.
    ShockAndCover,
    /// Seed 003.
    AimedWounds,
    /// Seed 004.
    Crucible,
}

impl Preset {
    /// The ruleset name the log's `combat_started` carries.
    pub fn name(self) -> &'static str {
        match self {
            Self::StressAndWounds => "stress_and_wounds",
            Self::ZonesAndTests => "zones_and_tests",
            Self::ShockAndCover => "shock_and_cover",
            Self::AimedWounds => "aimed_wounds",
            Self::Crucible => "crucible",
        }
    }
}

/// Reads the whole log and returns every fault: the contract every preset shares, then the
/// preset's own rules.
pub fn judge(preset: Preset, sides: &Sides, log: &[Value]) -> Vec<Fault> {
    let mut faults = Faults::default();
    general::check(preset, log, &mut faults);
    match preset {
        Preset::StressAndWounds => stress_and_wounds::check(log, &mut faults),
        Preset::ZonesAndTests => zones_and_tests::check(sides, log, &mut faults),
        Preset::ShockAndCover => shock_and_cover::check(sides, log, &mut faults),
        Preset::AimedWounds => aimed_wounds::check(sides, log, &mut faults),
        Preset::Crucible => crucible::check(log, &mut faults),
    }
    faults.0
}

/// An integer field, or `i64::MIN` when it is missing (so a missing field never passes a check).
pub fn int(line: &Value, key: &str) -> i64 {
    line[key].as_i64().unwrap_or(i64::MIN)
}

/// A string field, or "" when missing.
pub fn text<'a>(line: &'a Value, key: &str) -> &'a str {
    line[key].as_str().unwrap_or_default()
}

/// The first die of a dice object: the natural roll.
pub fn natural(roll: &Value) -> i64 {
    roll["dice"][0].as_i64().unwrap_or(0)
}

/// The sum of a dice object's faces.
pub fn faces(roll: &Value) -> i64 {
    roll["dice"].as_array().map_or(0, |dice| dice.iter().filter_map(Value::as_i64).sum())
}

/// The event name of a line.
pub fn event(line: &Value) -> &str {
    text(line, "event")
}

/// One unit as the log has shown it so far.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// Its side's name.
    pub side: String,
    /// Its place in the level's unit list.
    pub order: usize,
    /// Agility (Dexterity) modifier at the start.
    pub agility_mod: i64,
    /// Strength score now (injuries drain it).
    pub strength: i64,
    /// Defense or Armour Class at the start.
    pub defense: i64,
    /// Armour at the start.
    pub armour: i64,
    /// Stress now.
    pub stress: i64,
    /// Stress maximum.
    pub stress_max: i64,
    /// Wound Points (hit points) now.
    pub wounds: i64,
    /// Wound Points maximum.
    pub wounds_max: i64,
    /// The last of `active`, `incapacitated`, `dying`, `dead` logged for it.
    pub condition: String,
    /// It has left the battle (dead, fled, surrendered, parleyed, vanished, stood aside).
    pub gone: bool,
    /// Surprised at the start.
    pub surprised: bool,
    /// Lying prone now.
    pub prone: bool,
    /// An injury changed it (its Defense or speed may no longer be the sheet's).
    pub injured: bool,
    /// Its Base Initiative, or its latest initiative score.
    pub base: Option<i64>,
    /// Slowing wounds taken (`A-AIM-1`).
    pub slowing: i64,
    /// Slowing wounds taken before this round (the round's order is set at its start).
    pub slowing_at_round_start: i64,
    /// Declarations this round: action, Round Initiative, line.
    pub declared: Vec<(String, i64, usize)>,
}

/// Every unit by id, as the log has shown them up to some line.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    /// Units by id.
    pub units: HashMap<String, Unit>,
    /// The round the log is in.
    pub round: i64,
}

/// Statuses after which a unit never acts again.
pub const GONE: [&str; 7] = ["dead", "fled", "surrendered", "parley", "vanished", "stands_aside", "withdrawn"];

impl Roster {
    /// The unit named `id`, if the log introduced it.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.get(id)
    }

    /// Takes in one line.
    pub fn apply(&mut self, at: usize, line: &Value) {
        self.round = int(line, "round");
        let id = text(line, "unit").to_string();
        match event(line) {
            "combat_started" => self.start(line),
            "round_started" => self.units.values_mut().for_each(|unit| {
                unit.declared.clear();
                unit.slowing_at_round_start = unit.slowing;
            }),
            _ => {}
        }
        let Some(unit) = self.units.get_mut(&id) else { return };
        match event(line) {
            "surprise" => unit.surprised = line["surprised"] == true,
            "initiative" => unit.base = Some(int(line, "base")),
            "declared" => unit.declared.push((text(line, "action").to_string(), int(line, "initiative"), at)),
            // Stress paid for a spell has no damage line of its own (`W-STRESS-1`).
            "cast" => unit.stress -= int(line, "stress_spent"),
            "damage" | "healed" => (unit.stress, unit.wounds) = (int(line, "stress"), int(line, "wounds")),
            "status" => unit.take_status(text(line, "status")),
            "injury" => unit.take_injury(line),
            "wound" if text(line, "aim") == "slowing" => unit.slowing += 1,
            _ => {}
        }
    }

    fn start(&mut self, line: &Value) {
        for (order, entry) in line["units"].as_array().into_iter().flatten().enumerate() {
            let stats = &entry["stats"];
            let unit = Unit {
                side: text(entry, "side").to_string(),
                order,
                agility_mod: int(stats, "agility_mod"),
                strength: int(stats, "strength"),
                defense: int(stats, "defense"),
                armour: int(stats, "armour"),
                stress: int(stats, "stress"),
                stress_max: int(stats, "stress_max"),
                wounds: int(stats, "wounds"),
                wounds_max: int(stats, "wounds_max"),
                condition: "active".into(),
                ..Unit::default()
            };
            self.units.insert(text(entry, "id").to_string(), unit);
        }
    }
}

impl Unit {
    fn take_status(&mut self, status: &str) {
        match status {
            "active" | "incapacitated" | "dying" | "dead" => self.condition = status.to_string(),
            "prone" => self.prone = true,
            "standing" => self.prone = false,
            _ => {}
        }
        if GONE.contains(&status) {
            self.gone = true;
        }
    }

    fn take_injury(&mut self, line: &Value) {
        if line.get("injury").is_none() {
            return;
        }
        self.injured = true;
        for effect in line["effects"].as_array().into_iter().flatten() {
            if text(effect, "what").split('+').any(|what| what == "strength") {
                self.strength = (self.strength - int(&effect["roll"], "total")).max(0);
            }
        }
    }
}

/// Walks the log, showing `visit` each line with the roster as it stood just before it.
pub fn walk(log: &[Value], mut visit: impl FnMut(&Roster, usize, &Value)) {
    let mut roster = Roster::default();
    for (at, line) in log.iter().enumerate() {
        visit(&roster, at, line);
        roster.apply(at, line);
    }
}

/// A hit and the `damage` line it caused.
#[derive(Clone, Debug)]
pub struct Hit {
    /// The attack line.
    pub attack_at: usize,
    /// The damage line.
    pub damage_at: usize,
    /// The target as it stood when the attack was rolled.
    pub target: Unit,
}

/// Pairs each hit with the `damage` line it caused: the first later `damage` line in the round on
/// the same target from the same attacker. A simultaneous group deals its hits' damage after all
/// of its attacks, in order, but an opportunity attack provoked within the group deals its damage
/// at once: a damage line goes to a pending opportunity attack first.
pub fn hits_and_damage(log: &[Value], mut visit: impl FnMut(Hit)) {
    let mut pending: HashMap<(String, String), Vec<(usize, Unit)>> = HashMap::new();
    walk(log, |roster, at, line| match event(line) {
        "attack" if line["hit"] == true => {
            let key = (text(line, "attacker").to_string(), text(line, "target").to_string());
            if let Some(target) = roster.unit(&key.1) {
                pending.entry(key).or_default().push((at, target.clone()));
            }
        }
        "damage" => {
            let key = (text(line, "source").to_string(), text(line, "unit").to_string());
            if let Some(queue) = pending.get_mut(&key).filter(|queue| !queue.is_empty()) {
                let interrupting = queue.iter().rposition(|(attack_at, _)| log[*attack_at]["kind"] == "opportunity");
                let (attack_at, target) = queue.remove(interrupting.unwrap_or(0));
                visit(Hit { attack_at, damage_at: at, target });
            }
        }
        "round_ended" => pending.clear(),
        _ => {}
    });
}
