//! The combat log in words: one readable line per [`LogEntry`], with units and zones called by
//! their display names instead of the level's ids. The window's log, the CLI and the tests all
//! read it; the JSON Lines of [`super::log::CombatLog`] are untouched by it.

use std::collections::HashMap;
use std::sync::Arc;

use super::components::AimPoint;
use super::dice::DiceRoll;
use super::log::{
    AttackExtra, AttackKind, EscalationChain, LogEntry, LogEvent, ManeuverKind, ManeuverOutcome, ShockAbsorber,
    Withdrawal,
};
use crate::battlefield::{Battlefield, Place};
use crate::rules::log::line;

/// The display names a log line uses for the ids a [`LogEvent`] carries.
///
/// An id it does not know (a cause such as `dying`, or a log from another battle) reads as itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Unit id to the name shown, made unique when two units share a display name.
    units: HashMap<Arc<str>, String>,
    /// Zone id to the zone's display name (grid squares need none: they read as `(x, y)`).
    zones: HashMap<Arc<str>, String>,
}

impl Names {
    /// Names for units given as `(id, display name)`. Units that share a display name each get
    /// their id in brackets (`Hobgoblin Warrior [warrior-2]`), so every line says who it means;
    /// a unit without a name reads as its id.
    pub fn from_units<S: Into<String>>(units: impl IntoIterator<Item = (Arc<str>, S)>) -> Self {
        let units: Vec<(Arc<str>, String)> = units.into_iter().map(|(id, name)| (id, name.into())).collect();
        let mut uses: HashMap<&str, usize> = HashMap::new();
        for (_, name) in &units {
            *uses.entry(name.as_str()).or_default() += 1;
        }
        let shown = units
            .iter()
            .map(|(id, name)| {
                let text = match uses.get(name.as_str()) {
                    _ if name.trim().is_empty() => id.to_string(),
                    Some(&count) if count > 1 => format!("{name} [{id}]"),
                    _ => name.clone(),
                };
                (id.clone(), text)
            })
            .collect();
        Self { units: shown, zones: HashMap::new() }
    }

    /// Unit names from the log's `combat_started` line, which lists every unit of the battle
    /// (reinforcements too); no names when the log has none.
    pub fn from_log(entries: &[LogEntry]) -> Self {
        let units = entries.iter().find_map(|entry| match &entry.event {
            LogEvent::CombatStarted(line::CombatStarted { units, .. }) => Some(units),
            _ => None,
        });
        Self::from_units(units.into_iter().flatten().map(|unit| (unit.id.clone(), unit.name.clone())))
    }

    /// Adds the zone names of `battlefield`.
    pub fn with_zones(mut self, battlefield: &Battlefield) -> Self {
        // A grid's squares are zones too, but the log names them by their coordinates.
        let zones = battlefield.zones().iter().filter(|zone| zone.square.is_none());
        self.zones.extend(zones.map(|zone| (zone.id.clone(), zone.name.clone())));
        self
    }

    /// The name shown for the unit with level id `id`.
    pub fn unit<'a>(&'a self, id: &'a str) -> &'a str {
        self.units.get(id).map_or(id, String::as_str)
    }

    /// The name shown for the zone with level id `id`.
    pub fn zone<'a>(&'a self, id: &'a str) -> &'a str {
        self.zones.get(id).map_or(id, String::as_str)
    }

    /// A place in words: a zone's name, or `(x, y)` for a grid square.
    pub fn place(&self, place: &Place) -> String {
        match place {
            Place::Zone(id) => self.zone(id).to_string(),
            Place::Square(_) => place.to_string(),
        }
    }
}

/// One readable line for a log entry, never empty.
pub fn describe(entry: &LogEntry, names: &Names) -> String {
    line(entry, names).unwrap_or_else(|| words(entry.event.name()))
}

/// The line of whichever family of events `entry` belongs to.
fn line(entry: &LogEntry, names: &Names) -> Option<String> {
    let event = &entry.event;
    flow_line(event, entry.round, names)
        .or_else(|| declared_line(event, names))
        .or_else(|| attack_line(event, names))
        .or_else(|| blow_line(event, names))
        .or_else(|| harm_line(event, names))
        .or_else(|| support_line(event, names))
        .or_else(|| nerve_line(event, names))
}

/// The battle's course: its start and end, rounds, surprise, initiative and movement.
fn flow_line(event: &LogEvent, round: u32, names: &Names) -> Option<String> {
    let text = match event {
        LogEvent::CombatStarted(line::CombatStarted { level, ruleset, seed, units }) => {
            format!("{level} begins: {} units, ruleset {ruleset}, seed {seed}", units.len())
        }
        LogEvent::Surprise(line::Surprise { unit, surprised }) => {
            let not = if *surprised { "" } else { "not " };
            format!("{} is {not}surprised", names.unit(unit))
        }
        LogEvent::Initiative(line::Initiative { unit, base, group, .. }) => {
            let group = group.as_deref().map(|group| format!(" (shared by {group})")).unwrap_or_default();
            format!("{} rolls Base Initiative {base}{group}", names.unit(unit))
        }
        LogEvent::RoundStarted {} => format!("Round {round} begins"),
        LogEvent::RoundEnded {} => format!("Round {round} ends"),
        LogEvent::DiceReseeded(line::DiceReseeded { seed }) => format!("The referee draws new dice (seed {seed})"),
        LogEvent::Arrived(line::Arrived { unit, zone }) => {
            format!("{} arrives at {}", names.unit(unit), names.place(zone))
        }
        LogEvent::Moved(line::Moved { unit, from, to }) => {
            format!("{} moves from {} to {}", names.unit(unit), names.place(from), names.place(to))
        }
        LogEvent::SideInitiative(line::SideInitiative { side, score, begins, .. }) => {
            let begins = match begins {
                Some(true) => ", and begins",
                Some(false) => ", and waits",
                None => "",
            };
            format!("Side {side} rolls initiative: {score}{begins}")
        }
        LogEvent::SurpriseRoll(line::SurpriseRoll { side, unit, roll, range, surprised }) => {
            let result = if *surprised { "surprised" } else { "not surprised" };
            let who = unit.as_deref().map_or_else(|| format!("Side {side}"), |unit| names.unit(unit).to_string());
            format!("{who} rolls for surprise: {} (surprised on {range} or less), {result}", roll.total)
        }
        LogEvent::CombatEnded(line::CombatEnded { reason, winner }) => {
            let winner = winner.as_deref().map_or("no winner".to_string(), |winner| format!("{winner} wins"));
            format!("The battle is over: {}; {winner}", words(reason.as_str()))
        }
        _ => return None,
    };
    Some(text)
}

/// A declared action, with its aim, means, target and move.
fn declared_line(event: &LogEvent, names: &Names) -> Option<String> {
    let LogEvent::Declared(line::Declared {
        unit,
        action,
        target,
        modifier,
        initiative,
        move_to,
        aim,
        using,
        carried_over,
        move_after,
        held,
    }) = event
    else {
        return None;
    };
    // A held action taken in answer to a foe's turn (`S-ACT-2`).
    let verb = if *held { "takes its held action:" } else { "declares" };
    let mut text = format!("{} {verb} {}", names.unit(unit), words(action));
    if let Some(aim) = aim {
        text = format!("{text} ({})", aim_words(aim));
    }
    if let Some(using) = using {
        text = format!("{text} with {}", words(using));
    }
    text.push_str(&on_target(target.as_deref(), names));
    if let Some(place) = move_to {
        text = format!("{text}, moving to {}", names.place(place));
    }
    if let Some(place) = move_after {
        text = format!("{text}, then moving on to {}", names.place(place));
    }
    text = format!("{text} (modifier {modifier:+}, initiative {initiative})");
    if *carried_over {
        text.push_str(", carried over from last round");
    }
    Some(text)
}

/// An attack roll (or the target's avoid test), with how it was made and what came of it.
fn attack_line(event: &LogEvent, names: &Names) -> Option<String> {
    let LogEvent::Attack(line::Attack {
        attacker, target, initiative, total, defense, hit, critical, kind, extra, ..
    }) = event
    else {
        return None;
    };
    let (attacker, target) = (names.unit(attacker), names.unit(target));
    let mut how = Vec::new();
    if *kind != AttackKind::Normal {
        how.push(words(kind.as_str()));
    }
    how.extend(attack_extras(extra));
    let how = if how.is_empty() { String::new() } else { format!(" ({})", how.join(", ")) };
    let result = match (hit, critical) {
        (true, true) => "critical hit!",
        (true, false) => "hit",
        (false, _) => "miss",
    };
    let text = if extra.avoid {
        // The roll was the target's: `hit` means the avoid test failed.
        let test = if *hit { "fails" } else { "passes" };
        format!(
            "{attacker} attacks {target}{how} at {initiative}: {target} {test} the avoid test, \
             {total} vs TN {defense}, {result}"
        )
    } else {
        format!("{attacker} attacks {target}{how} at {initiative}: {total} vs Defense {defense}, {result}")
    };
    Some(text)
}

/// What follows a blow: Shock, wounds, critical chains, worn weapons, shoves and executions.
fn blow_line(event: &LogEvent, names: &Names) -> Option<String> {
    let text = match event {
        LogEvent::Shock(line::Shock { attacker, target, amount, absorbed_by }) => {
            let (attacker, target) = (names.unit(attacker), names.unit(target));
            match absorbed_by {
                Some(ShockAbsorber::TotalDefense) => {
                    format!("{target}'s total defense turns the Shock of {attacker}'s miss")
                }
                Some(ShockAbsorber::Shield) => format!("{target}'s shield absorbs the Shock of {attacker}'s miss"),
                None => format!("{attacker}'s miss still deals {amount} Shock to {target}"),
            }
        }
        LogEvent::Wound(line::Wound { unit, source, aim, wounds, extra_damage, .. }) => {
            let plural = if *wounds == 1 { "" } else { "s" };
            let (unit, source) = (names.unit(unit), names.unit(source));
            let mut text = format!("{source} wounds {unit} ({}): now {wounds} wound{plural}", aim_words(aim));
            if *extra_damage > 0 {
                text.push_str(&format!(", +{extra_damage} damage"));
            }
            text
        }
        LogEvent::Escalation(line::Escalation { unit, chain, step, roll, escalated }) => {
            let chain = match chain {
                EscalationChain::Critical => "critical",
                EscalationChain::Tragedy => "fumble",
            };
            let result = if *escalated { "escalates" } else { "stops" };
            format!("{}'s {chain} {result} (step {step}: {})", names.unit(unit), roll.total)
        }
        LogEvent::WeaponUsage(line::WeaponUsage { unit, weapon, marks, broken }) => {
            let plural = if *marks == 1 { "" } else { "s" };
            let breaks = if *broken { " and breaks" } else { "" };
            format!("{}'s {} takes a usage mark ({marks} mark{plural} now){breaks}", names.unit(unit), words(weapon))
        }
        LogEvent::Maneuver(line::Maneuver { unit, target, maneuver, won, outcome, .. }) => {
            let (unit, target) = (names.unit(unit), names.unit(target));
            match (*maneuver, won, outcome) {
                (ManeuverKind::Screen, true, Some(_)) => format!("{unit} steps in and takes {target}'s attack"),
                (ManeuverKind::Screen, true, None) => {
                    format!("{unit} holds {target} off, but another takes the attack")
                }
                (ManeuverKind::Screen, false, _) => format!("{target} gets past {unit}'s screen"),
                // The held unit against its grappler (`Z-STUNT-1`).
                (ManeuverKind::BreakFree, true, _) => format!("{unit} breaks free of {target}'s hold"),
                (ManeuverKind::BreakFree, false, _) => format!("{target} keeps its hold on {unit}"),
                // The grappler moving the one it holds (`S-MAN-1`).
                (ManeuverKind::Drag, true, Some(ManeuverOutcome::Dragged)) => format!("{unit} drags {target} along"),
                (ManeuverKind::Hurl, true, _) => format!("{unit} hurls {target} to the ground"),
                (ManeuverKind::Drag | ManeuverKind::Hurl, false, _) => format!("{target} breaks free of {unit}'s hold"),
                (_, true, Some(outcome)) => {
                    format!("{unit}'s {} on {target}: {}", maneuver.as_str(), words(outcome.as_str()))
                }
                _ => format!("{target} resists {unit}'s {}", maneuver.as_str()),
            }
        }
        LogEvent::Execution(line::Execution { unit, target, saved, .. }) => {
            let (unit, target) = (names.unit(unit), names.unit(target));
            if *saved {
                format!("{target} survives {unit}'s execution attack, taking its full force")
            } else {
                format!("{unit}'s execution attack drops {target}")
            }
        }
        _ => return None,
    };
    Some(text)
}

/// Harm and its marks: damage, status, injuries, lingering effects, hazards, lost actions.
fn harm_line(event: &LogEvent, names: &Names) -> Option<String> {
    let text = match event {
        LogEvent::Damage(line::Damage {
            unit,
            source,
            amount,
            damage_type,
            critical,
            stress_lost,
            wounds_lost,
            stress,
            wounds,
            ..
        }) => {
            let critical = if *critical { " critical" } else { "" };
            format!(
                "{} takes {amount}{critical} {damage_type} damage from {}: loses {stress_lost} Stress \
                 and {wounds_lost} Wound Points (now {stress} Stress, {wounds} Wound Points)",
                names.unit(unit),
                names.unit(source)
            )
        }
        LogEvent::Status(line::Status { unit, status }) => format!("{} is now {status}", names.unit(unit)),
        LogEvent::Injury(line::Injury { unit, table, injury, damage, .. }) => match injury {
            Some(injury) => {
                format!("{} suffers {injury} ({table} injury from {damage} critical damage)", names.unit(unit))
            }
            None => format!("{} escapes a {table} injury", names.unit(unit)),
        },
        LogEvent::Lingering(line::Lingering { unit, effect, roll, tn, shaken_off, .. }) => {
            let result = if *shaken_off { "shaken off" } else { "lingers" };
            let effect = words(effect.as_str());
            format!("{} tests against {effect}: {} vs TN {tn}, {result}", names.unit(unit), roll.total)
        }
        LogEvent::Afflicted(line::Afflicted { unit, effect, source }) => {
            format!("{} leaves {} with {}", names.unit(source), names.unit(unit), words(effect.as_str()))
        }
        LogEvent::Hazard(line::Hazard { unit, zone, hazard, roll, tn, passed, .. }) => {
            let result = if *passed { "resisted" } else { "failed" };
            let (unit, zone) = (names.unit(unit), names.zone(zone));
            format!("{unit} faces {hazard} in {zone}: {} vs TN {tn}, {result}", roll.total)
        }
        LogEvent::ActionLost(line::ActionLost { unit, reason }) => {
            format!("{} loses its action: {}", names.unit(unit), words(reason.as_str()))
        }
        _ => return None,
    };
    Some(text)
}

/// Spells, healing and items.
fn support_line(event: &LogEvent, names: &Names) -> Option<String> {
    let text = match event {
        LogEvent::SpellDisrupted(line::SpellDisrupted { unit, spell, damage_taken }) => {
            let (unit, spell) = (names.unit(unit), words(spell));
            format!("{unit}'s {spell} is disrupted: hurt for {damage_taken} earlier in the round")
        }
        LogEvent::Cast(line::Cast { unit, spell, target, roll, tn, success, mana_spent, stress_spent, .. }) => {
            let result = if *success { "success" } else { "failure" };
            format!(
                "{} casts {}{}: {} vs TN {tn}, {result} ({mana_spent} Mana, {stress_spent} Stress spent)",
                names.unit(unit),
                words(spell),
                on_target(target.as_deref(), names),
                roll.total
            )
        }
        LogEvent::Healed(line::Healed { unit, source, stress_restored, wounds_restored, stress, wounds, .. }) => {
            format!(
                "{} heals {}: +{stress_restored} Stress, +{wounds_restored} Wound Points \
             (now {stress} Stress, {wounds} Wound Points)",
                names.unit(source),
                names.unit(unit)
            )
        }
        LogEvent::ItemUsed(line::ItemUsed { unit, item, target }) => {
            format!("{} uses {}{}", names.unit(unit), words(item), on_target(target.as_deref(), names))
        }
        LogEvent::Stabilise(line::Stabilise { unit, target, roll, tn, success }) => {
            let result = if *success { "stabilised" } else { "failed" };
            let (unit, target) = (names.unit(unit), names.unit(target));
            format!("{unit} tries to stabilise {target}: {} vs TN {tn}, {result}", roll.total)
        }
        _ => return None,
    };
    Some(text)
}

/// Nerve: reactions, intimidation, morale and withdrawal.
fn nerve_line(event: &LogEvent, names: &Names) -> Option<String> {
    let text = match event {
        LogEvent::Reaction(line::Reaction { unit, roll, reaction, fights }) => {
            let joins = if *fights { "joins the fight" } else { "stays out of the fight" };
            format!("{} reacts: {reaction} ({}), {joins}", names.unit(unit), roll.total)
        }
        LogEvent::Intimidation(line::Intimidation { unit, target, roll }) => {
            format!("{} tries to intimidate {}: {}", names.unit(unit), names.unit(target), roll.total)
        }
        LogEvent::Withdrawal(line::Withdrawal { unit, roll, response }) => {
            let response = match response {
                Withdrawal::FallBack => "falls back",
                Withdrawal::Disengage => "disengages",
                Withdrawal::Flee => "flees",
                Withdrawal::Surrender => "surrenders",
            };
            format!("{} withdraws: {} ({})", names.unit(unit), response, roll.total)
        }
        LogEvent::Morale(line::Morale { unit, total, tn, passed, reason, automatic, .. }) => {
            let (unit, reason) = (names.unit(unit), words(reason.as_str()));
            if *automatic {
                format!("{unit} breaks without a roll ({reason})")
            } else {
                let result = if *passed { "holds" } else { "breaks" };
                format!("{unit} checks morale ({reason}): {total} vs TN {tn}, {result}")
            }
        }
        _ => return None,
    };
    Some(text)
}

/// A catalog name in words: `shocking_grasp` reads `shocking grasp`.
fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// ` on Wren` for an action with a target, nothing without one.
fn on_target(target: Option<&str>, names: &Names) -> String {
    target.map(|target| format!(" on {}", names.unit(target))).unwrap_or_default()
}

/// The attack-line extras in words (`half cover`, `aimed at the legs`, `charging`).
fn attack_extras(extra: &AttackExtra) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(cover) = extra.cover {
        parts.push(format!("{} cover", cover.as_str()));
    }
    if let Some(aim) = extra.aim {
        parts.push(format!("aimed at the {}", aim_words(aim)));
    }
    if extra.charge {
        parts.push("charging".to_string());
    }
    if extra.flanking {
        parts.push("flanking".to_string());
    }
    if extra.sneak_roll.is_some() {
        parts.push("sneak attack".to_string());
    }
    if let Some(bonus) = extra.swarm_bonus {
        parts.push(format!("swarmed, {bonus:+} to hit"));
    }
    if extra.disadvantage_roll.is_some() {
        parts.push("with disadvantage".to_string());
    }
    parts
}

/// Where an aimed attack aims, in words (`legs`, `centre mass`), from its log name (`slowing`).
pub fn aim_words(log_name: &str) -> &str {
    match AimPoint::ALL.into_iter().find(|aim| aim.log_name() == log_name) {
        Some(AimPoint::Fatal) => "vitals",
        Some(AimPoint::Slowing) => "legs",
        Some(AimPoint::Weakening) => "arms",
        Some(AimPoint::Disrupting) => "eyes and hands",
        Some(AimPoint::CentreMass) => "centre mass",
        None => log_name,
    }
}

/// Every dice roll of an event, with what it was for.
pub fn rolls(event: &LogEvent) -> Vec<(String, &DiceRoll)> {
    let one = |what: &str, roll| vec![(what.to_string(), roll)];
    match event {
        LogEvent::Initiative(line::Initiative { roll, .. }) => one("initiative", roll),
        LogEvent::Attack(line::Attack { roll, damage_roll, extra, .. }) => {
            attack_rolls(roll, damage_roll.as_ref(), extra)
        }
        LogEvent::SideInitiative(line::SideInitiative { roll, .. }) => one("side initiative", roll),
        LogEvent::SurpriseRoll(line::SurpriseRoll { roll, .. }) => one("surprise", roll),
        LogEvent::Wound(line::Wound { roll: Some(roll), .. }) => one("fatal chance", roll),
        LogEvent::Escalation(line::Escalation { roll, .. }) => one("escalation", roll),
        LogEvent::Withdrawal(line::Withdrawal { roll, .. }) => one("withdrawal", roll),
        LogEvent::Maneuver(line::Maneuver { roll, against, .. }) => {
            let mut rolls = one("check", roll);
            rolls.push(("target's check".to_string(), against));
            rolls
        }
        LogEvent::Execution(line::Execution { roll, .. }) => one("save", roll),
        LogEvent::Reaction(line::Reaction { roll, .. }) => one("reaction", roll),
        LogEvent::Lingering(line::Lingering { roll, .. }) => one("lingering test", roll),
        LogEvent::Damage(line::Damage { roll: Some(roll), .. }) => one("damage", roll),
        LogEvent::Injury(line::Injury { chance, roll, effects, .. }) => {
            let mut rolls = one("injury chance", chance);
            rolls.extend(roll.iter().map(|roll| ("injury table".to_string(), roll)));
            rolls.extend(effects.iter().map(|effect| (effect.what.clone(), &effect.roll)));
            rolls
        }
        LogEvent::Cast(line::Cast { roll, .. }) => one("casting check", roll),
        LogEvent::Healed(line::Healed { roll, .. }) => one("healing", roll),
        LogEvent::Stabilise(line::Stabilise { roll, .. }) => one("heal check", roll),
        LogEvent::Intimidation(line::Intimidation { roll, .. }) => one("intimidation", roll),
        LogEvent::Hazard(line::Hazard { roll, .. }) => one("hazard test", roll),
        LogEvent::Morale(line::Morale { roll, .. }) => one("morale", roll),
        _ => Vec::new(),
    }
}

/// An attack's rolls: the attack (or avoid test), a discarded roll, damage and sneak damage.
fn attack_rolls<'a>(
    roll: &'a DiceRoll,
    damage: Option<&'a DiceRoll>,
    extra: &'a AttackExtra,
) -> Vec<(String, &'a DiceRoll)> {
    let mut rolls = vec![(if extra.avoid { "avoid test" } else { "attack" }.to_string(), roll)];
    rolls.extend(extra.disadvantage_roll.iter().map(|roll| ("discarded roll (disadvantage)".to_string(), roll)));
    rolls.extend(damage.map(|roll| ("damage".to_string(), roll)));
    rolls.extend(extra.other_damage_roll.iter().map(|roll| ("other weapon's damage".to_string(), roll)));
    rolls.extend(extra.sneak_roll.iter().map(|roll| ("sneak damage".to_string(), roll)));
    rolls
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::ZoneDef;
    use crate::rules::dice::Dice;
    use crate::rules::log::{InjuryRoll, UnitEntry, UnitStats};

    /// Faces of a d20, the die every sample roll uses.
    const D20: u32 = 20;

    fn roll(total: i32) -> DiceRoll {
        DiceRoll { expr: Dice::new(1, D20), dice: vec![total.max(1) as u32], total }
    }

    fn line(event: LogEvent) -> String {
        describe(&LogEntry { round: 2, event }, &Names::default())
    }

    fn unit_entry(id: &str, name: &str) -> UnitEntry {
        let stats = UnitStats {
            agility_mod: 0,
            strength: 10,
            hd: "1d8".into(),
            defense: 10,
            armour: 0,
            stress: 5,
            stress_max: 5,
            wounds: 5,
            wounds_max: 5,
            speed: 1,
            weapon: "club".into(),
        };
        UnitEntry {
            id: id.into(),
            name: name.into(),
            side: "red".into(),
            controller: "greedy",
            stats,
            zone: Place::Zone("ford".into()),
            arrives: None,
        }
    }

    fn zone(id: &str, name: &str) -> ZoneDef {
        ZoneDef {
            id: id.into(),
            name: name.into(),
            capacity: None,
            hazard: None,
            position: None,
            square: None,
            enter_cost: 1,
        }
    }

    fn attack(attacker: &str, target: &str, extra: AttackExtra) -> LogEvent {
        LogEvent::Attack(line::Attack {
            attacker: attacker.into(),
            target: target.into(),
            initiative: 3,
            roll: roll(14),
            total: 16,
            defense: 15,
            hit: true,
            critical: false,
            kind: AttackKind::Normal,
            damage_roll: Some(roll(4)),
            extra,
        })
    }

    #[test]
    fn names_replace_ids() {
        let started = LogEvent::CombatStarted(line::CombatStarted {
            level: "Ford".into(),
            ruleset: "stress_and_wounds".into(),
            seed: 1,
            units: vec![unit_entry("warrior-2", "Hobgoblin Warrior"), unit_entry("mage", "Tobiah the Red")],
        });
        let entries = [LogEntry { round: 0, event: started }];
        let field = Battlefield::new(vec![zone("east_gate", "The East Gate"), zone("ford", "The Ford")], &[(0, 1)]);
        let names = Names::from_log(&entries).with_zones(&field);
        let attacked =
            describe(&LogEntry { round: 1, event: attack("warrior-2", "mage", AttackExtra::default()) }, &names);
        assert_eq!(attacked, "Hobgoblin Warrior attacks Tobiah the Red at 3: 16 vs Defense 15, hit");
        let moved = LogEvent::Moved(line::Moved {
            unit: "mage".into(),
            from: Place::Zone("ford".into()),
            to: Place::Zone("east_gate".into()),
        });
        assert_eq!(
            describe(&LogEntry { round: 1, event: moved }, &names),
            "Tobiah the Red moves from The Ford to The East Gate"
        );
        let hazard = LogEvent::Hazard(line::Hazard {
            unit: "mage".into(),
            zone: "east_gate".into(),
            hazard: "thorns".into(),
            roll: roll(9),
            tn: 8,
            passed: true,
            disadvantage_roll: None,
        });
        let hazard = describe(&LogEntry { round: 1, event: hazard }, &names);
        assert_eq!(hazard, "Tobiah the Red faces thorns in The East Gate: 9 vs TN 8, resisted");
        // Ids nobody named (a cause of damage, a square) read as they are.
        assert_eq!(names.unit("dying"), "dying");
        assert_eq!(names.place(&Place::Square([3, 4])), "(3, 4)");
    }

    #[test]
    fn shared_names_keep_the_id_in_brackets() {
        let names = Names::from_units([
            (Arc::from("warrior-1"), "Hobgoblin Warrior"),
            (Arc::from("warrior-2"), "Hobgoblin Warrior"),
            (Arc::from("wolf"), "Grey Wolf"),
            (Arc::from("nameless"), ""),
        ]);
        assert_eq!(names.unit("warrior-1"), "Hobgoblin Warrior [warrior-1]");
        assert_eq!(names.unit("warrior-2"), "Hobgoblin Warrior [warrior-2]");
        assert_eq!(names.unit("wolf"), "Grey Wolf");
        assert_eq!(names.unit("nameless"), "nameless");
        let shock = LogEvent::Shock(line::Shock {
            attacker: "warrior-2".into(),
            target: "wolf".into(),
            amount: 2,
            absorbed_by: None,
        });
        let shock = describe(&LogEntry { round: 1, event: shock }, &names);
        assert_eq!(shock, "Hobgoblin Warrior [warrior-2]'s miss still deals 2 Shock to Grey Wolf");
    }

    #[test]
    fn a_real_battle_reads_in_names() {
        use crate::headless::HeadlessBattle;
        use crate::levels::{BattleSetup, load_builtin_level};
        let template = load_builtin_level("ambush.ron").expect("the ambush loads");
        let mut battle = HeadlessBattle::new();
        battle.start(&template, &BattleSetup { seed: 7, controllers: Vec::new(), record_log: true });
        battle.run_to_end();
        let entries = battle.log().entries();
        let names = Names::from_log(entries).with_zones(&template.battlefield);
        let lines: Vec<String> = entries.iter().map(|entry| describe(entry, &names)).collect();
        let said = |text: &str| lines.iter().any(|line| line.contains(text));
        assert!(said("Wren") && said("Hobgoblin Warrior [warrior-"), "{lines:#?}");
        // Zone ids never show where the zone has a name of its own.
        let moves = lines.iter().filter(|line| line.contains(" moves from "));
        assert!(moves.clone().all(|line| !line.contains(" road") && !line.contains(" ditch")), "{lines:#?}");
    }

    #[test]
    fn every_event_reads_as_a_line() {
        let samples = samples();
        let mut seen = [false; VARIANTS];
        for event in &samples {
            seen[ordinal(event)] = true;
            let entry = LogEntry { round: 1, event: event.clone() };
            let text = super::line(&entry, &Names::default());
            assert!(text.as_deref().is_some_and(|text| !text.trim().is_empty()), "{} has no line", event.name());
        }
        let missing: Vec<usize> = (0..VARIANTS).filter(|at| !seen[*at]).collect();
        assert!(missing.is_empty(), "no sample for the variants numbered {missing:?} in `ordinal`");
    }

    /// How many variants [`LogEvent`] has.
    const VARIANTS: usize = 35;

    /// A number per variant; the match has no wildcard, so a new variant fails to compile here
    /// until it gets a number and a sample.
    fn ordinal(event: &LogEvent) -> usize {
        match event {
            LogEvent::CombatStarted(_) => 0,
            LogEvent::Surprise(_) => 1,
            LogEvent::Initiative(_) => 2,
            LogEvent::RoundStarted {} => 3,
            LogEvent::Arrived(_) => 4,
            LogEvent::Declared(_) => 5,
            LogEvent::Moved(_) => 6,
            LogEvent::Attack(_) => 7,
            LogEvent::SideInitiative(_) => 8,
            LogEvent::SurpriseRoll(_) => 9,
            LogEvent::Shock(_) => 10,
            LogEvent::Wound(_) => 11,
            LogEvent::Escalation(_) => 12,
            LogEvent::WeaponUsage(_) => 13,
            LogEvent::SpellDisrupted(_) => 14,
            LogEvent::Reaction(_) => 15,
            LogEvent::Lingering(_) => 16,
            LogEvent::Afflicted(_) => 17,
            LogEvent::Maneuver(_) => 18,
            LogEvent::Execution(_) => 19,
            LogEvent::Withdrawal(_) => 20,
            LogEvent::Damage(_) => 21,
            LogEvent::Status(_) => 22,
            LogEvent::Injury(_) => 23,
            LogEvent::Cast(_) => 24,
            LogEvent::Healed(_) => 25,
            LogEvent::ItemUsed(_) => 26,
            LogEvent::Stabilise(_) => 27,
            LogEvent::Intimidation(_) => 28,
            LogEvent::Hazard(_) => 29,
            LogEvent::ActionLost(_) => 30,
            LogEvent::Morale(_) => 31,
            LogEvent::RoundEnded {} => 32,
            LogEvent::CombatEnded(_) => 33,
            LogEvent::DiceReseeded(_) => 34,
        }
    }

    /// One event of every kind.
    fn samples() -> Vec<LogEvent> {
        let mut events = flow_samples();
        events.extend(blow_samples());
        events.extend(other_samples());
        events
    }

    fn flow_samples() -> Vec<LogEvent> {
        let ford = || Place::Zone("ford".into());
        vec![
            LogEvent::CombatStarted(line::CombatStarted {
                level: "Ford".into(),
                ruleset: "crucible".into(),
                seed: 3,
                units: vec![unit_entry("orc", "Orc")],
            }),
            LogEvent::Surprise(line::Surprise { unit: "orc".into(), surprised: true }),
            LogEvent::Initiative(line::Initiative {
                unit: "orc".into(),
                roll: roll(4),
                base: 4,
                group: Some("orcs".into()),
            }),
            LogEvent::RoundStarted {},
            LogEvent::Arrived(line::Arrived { unit: "orc".into(), zone: ford() }),
            LogEvent::Declared(line::Declared {
                unit: "orc".into(),
                action: "attack",
                target: Some("nell".into()),
                modifier: 0,
                initiative: 4,
                move_to: None,
                aim: None,
                using: None,
                carried_over: true,
                move_after: None,
                held: false,
            }),
            LogEvent::Moved(line::Moved { unit: "orc".into(), from: ford(), to: Place::Square([1, 1]) }),
            LogEvent::SideInitiative(line::SideInitiative {
                side: "red".into(),
                roll: roll(3),
                score: 3,
                begins: None,
            }),
            LogEvent::SurpriseRoll(line::SurpriseRoll {
                side: "red".into(),
                unit: None,
                roll: roll(1),
                range: 2,
                surprised: true,
            }),
            LogEvent::RoundEnded {},
            LogEvent::DiceReseeded(line::DiceReseeded { seed: 9 }),
            LogEvent::CombatEnded(line::CombatEnded {
                reason: super::super::log::EndReason::SideDefeated,
                winner: None,
            }),
        ]
    }

    fn blow_samples() -> Vec<LogEvent> {
        vec![
            attack("orc", "nell", AttackExtra { flanking: true, sneak_roll: Some(roll(3)), ..AttackExtra::default() }),
            LogEvent::Shock(line::Shock {
                attacker: "orc".into(),
                target: "nell".into(),
                amount: 0,
                absorbed_by: Some(ShockAbsorber::TotalDefense),
            }),
            LogEvent::Wound(line::Wound {
                unit: "nell".into(),
                source: "orc".into(),
                aim: "slowing",
                wounds: 1,
                roll: None,
                extra_damage: 0,
            }),
            LogEvent::Escalation(line::Escalation {
                unit: "orc".into(),
                chain: EscalationChain::Critical,
                step: 2,
                roll: roll(19),
                escalated: true,
            }),
            LogEvent::WeaponUsage(line::WeaponUsage {
                unit: "orc".into(),
                weapon: "axe".into(),
                marks: 2,
                broken: false,
            }),
            LogEvent::Maneuver(line::Maneuver {
                unit: "orc".into(),
                target: "nell".into(),
                maneuver: ManeuverKind::Shove,
                roll: roll(12),
                against: roll(8),
                won: true,
                outcome: Some(ManeuverOutcome::KnockedProne),
                disadvantage_roll: None,
                against_disadvantage_roll: None,
            }),
            LogEvent::Execution(line::Execution {
                unit: "orc".into(),
                target: "nell".into(),
                roll: roll(5),
                tn: 10,
                saved: false,
            }),
        ]
    }

    fn other_samples() -> Vec<LogEvent> {
        vec![
            LogEvent::SpellDisrupted(line::SpellDisrupted {
                unit: "nell".into(),
                spell: "firebolt".into(),
                damage_taken: 3,
            }),
            LogEvent::Reaction(line::Reaction {
                unit: "orc".into(),
                roll: roll(6),
                reaction: "wary".into(),
                fights: false,
            }),
            LogEvent::Lingering(line::Lingering {
                unit: "orc".into(),
                effect: super::super::log::Affliction::OngoingDamage,
                roll: roll(13),
                tn: 12,
                shaken_off: true,
                disadvantage_roll: None,
            }),
            LogEvent::Afflicted(line::Afflicted {
                unit: "orc".into(),
                effect: super::super::log::Affliction::OngoingDamage,
                source: "nell".into(),
            }),
            LogEvent::Withdrawal(line::Withdrawal { unit: "orc".into(), roll: roll(2), response: Withdrawal::Flee }),
            LogEvent::Damage(line::Damage {
                unit: "orc".into(),
                source: "nell".into(),
                amount: 5,
                damage_type: "fire",
                critical: true,
                stress_lost: 3,
                wounds_lost: 2,
                stress: 0,
                wounds: 3,
                roll: None,
            }),
            LogEvent::Status(line::Status { unit: "orc".into(), status: "dying" }),
            LogEvent::Injury(line::Injury {
                unit: "orc".into(),
                chance: roll(10),
                damage: 5,
                roll: Some(roll(7)),
                table: "fire",
                injury: Some("scorched hands".into()),
                effects: vec![InjuryRoll { what: "arm".into(), roll: roll(1) }],
            }),
            LogEvent::Cast(line::Cast {
                unit: "nell".into(),
                spell: "firebolt".into(),
                target: Some("orc".into()),
                roll: roll(15),
                tn: 11,
                success: true,
                mana_spent: 2,
                stress_spent: 0,
                disadvantage_roll: None,
            }),
            LogEvent::Healed(line::Healed {
                unit: "nell".into(),
                source: "nell".into(),
                roll: roll(4),
                stress_restored: 4,
                wounds_restored: 0,
                stress: 9,
                wounds: 8,
                wound_closed: None,
            }),
            LogEvent::ItemUsed(line::ItemUsed { unit: "nell".into(), item: "potion".into(), target: None }),
            LogEvent::Stabilise(line::Stabilise {
                unit: "nell".into(),
                target: "orc".into(),
                roll: roll(9),
                tn: 10,
                success: false,
            }),
            LogEvent::Intimidation(line::Intimidation { unit: "orc".into(), target: "nell".into(), roll: roll(11) }),
            LogEvent::Hazard(line::Hazard {
                unit: "orc".into(),
                zone: "ford".into(),
                hazard: "current".into(),
                roll: roll(7),
                tn: 8,
                passed: false,
                disadvantage_roll: None,
            }),
            LogEvent::ActionLost(line::ActionLost {
                unit: "orc".into(),
                reason: super::super::log::LostReason::TargetOutOfReach,
            }),
            LogEvent::Morale(line::Morale {
                unit: "orc".into(),
                roll: roll(10),
                total: 12,
                tn: 11,
                passed: true,
                reason: super::super::log::MoraleReason::Losing,
                automatic: false,
                disadvantage_roll: None,
            }),
        ]
    }

    #[test]
    fn the_log_reads_the_new_events_and_attack_extras() {
        let extra = AttackExtra {
            cover: Some(crate::battlefield::Cover::Half),
            aim: Some("slowing"),
            charge: true,
            ..AttackExtra::default()
        };
        let attack = line(LogEvent::Attack(line::Attack {
            attacker: "mags".into(),
            target: "odile".into(),
            initiative: 3,
            roll: roll(14),
            total: 16,
            defense: 15,
            hit: true,
            critical: false,
            kind: AttackKind::Normal,
            damage_roll: None,
            extra,
        }));
        assert_eq!(attack, "mags attacks odile (half cover, aimed at the legs, charging) at 3: 16 vs Defense 15, hit");
        let avoid = AttackExtra { avoid: true, ..AttackExtra::default() };
        let avoided = line(LogEvent::Attack(line::Attack {
            attacker: "orc".into(),
            target: "odile".into(),
            initiative: 1,
            roll: roll(12),
            total: 12,
            defense: 10,
            hit: false,
            critical: false,
            kind: AttackKind::Normal,
            damage_roll: None,
            extra: avoid,
        }));
        assert!(avoided.contains("odile passes the avoid test, 12 vs TN 10"), "{avoided}");
        let shield = line(LogEvent::Shock(line::Shock {
            attacker: "orc".into(),
            target: "odile".into(),
            amount: 0,
            absorbed_by: Some(ShockAbsorber::Shield),
        }));
        assert_eq!(shield, "odile's shield absorbs the Shock of orc's miss");
        let shock = line(LogEvent::Shock(line::Shock {
            attacker: "orc".into(),
            target: "nell".into(),
            amount: 2,
            absorbed_by: None,
        }));
        assert_eq!(shock, "orc's miss still deals 2 Shock to nell");
        let wound = line(LogEvent::Wound(line::Wound {
            unit: "orc".into(),
            source: "nell".into(),
            aim: "fatal",
            wounds: 2,
            roll: Some(roll(6)),
            extra_damage: 6,
        }));
        assert_eq!(wound, "nell wounds orc (vitals): now 2 wounds, +6 damage");
        let side = line(LogEvent::SideInitiative(line::SideInitiative {
            side: "guards".into(),
            roll: roll(5),
            score: 7,
            begins: Some(true),
        }));
        assert_eq!(side, "Side guards rolls initiative: 7, and begins");
        let surprise = line(LogEvent::SurpriseRoll(line::SurpriseRoll {
            side: "guards".into(),
            unit: None,
            roll: roll(2),
            range: 2,
            surprised: true,
        }));
        assert_eq!(surprise, "Side guards rolls for surprise: 2 (surprised on 2 or less), surprised");
        let escalation = line(LogEvent::Escalation(line::Escalation {
            unit: "orc".into(),
            chain: EscalationChain::Tragedy,
            step: 1,
            roll: roll(3),
            escalated: false,
        }));
        assert_eq!(escalation, "orc's fumble stops (step 1: 3)");
        let freed = line(LogEvent::Maneuver(line::Maneuver {
            unit: "orc".into(),
            target: "axe".into(),
            maneuver: ManeuverKind::BreakFree,
            roll: roll(15),
            against: roll(3),
            won: true,
            outcome: Some(ManeuverOutcome::BrokeFree),
            disadvantage_roll: None,
            against_disadvantage_roll: None,
        }));
        assert_eq!(freed, "orc breaks free of axe's hold");
        let usage = line(LogEvent::WeaponUsage(line::WeaponUsage {
            unit: "orc".into(),
            weapon: "axe".into(),
            marks: 1,
            broken: false,
        }));
        assert_eq!(usage, "orc's axe takes a usage mark (1 mark now)");
        let broken = line(LogEvent::WeaponUsage(line::WeaponUsage {
            unit: "orc".into(),
            weapon: "axe".into(),
            marks: 3,
            broken: true,
        }));
        assert_eq!(broken, "orc's axe takes a usage mark (3 marks now) and breaks");
        let withdrawal = line(LogEvent::Withdrawal(line::Withdrawal {
            unit: "orc".into(),
            roll: roll(4),
            response: Withdrawal::FallBack,
        }));
        assert_eq!(withdrawal, "orc withdraws: falls back (4)");
        let moved = line(LogEvent::Moved(line::Moved {
            unit: "orc".into(),
            from: Place::Square([3, 4]),
            to: Place::Zone("ford".into()),
        }));
        assert_eq!(moved, "orc moves from (3, 4) to ford");
        let declared = line(LogEvent::Declared(line::Declared {
            unit: "nell".into(),
            action: "aimed_attack",
            target: Some("orc".into()),
            modifier: 2,
            initiative: 5,
            move_to: Some(Place::Square([1, 2])),
            aim: Some("weakening"),
            using: None,
            carried_over: false,
            move_after: None,
            held: false,
        }));
        assert_eq!(declared, "nell declares aimed attack (arms) on orc, moving to (1, 2) (modifier +2, initiative 5)");
    }
}
