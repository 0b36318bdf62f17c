//! The checks every preset shares: the log contract (dice, the ending, the pools' arithmetic) and
//! what no preset allows (the gone acting, a surprised unit acting in round 1, a unit left standing
//! past its death threshold).

use serde_json::Value;

use super::{Faults, Preset, Roster, Unit, event, faces, int, text, walk};

/// Events in which a unit acts of its own accord (its `unit` or `attacker` field).
const ACTIONS: [&str; 8] =
    ["declared", "moved", "cast", "item_used", "stabilise", "intimidation", "maneuver", "attack"];

/// Attack kinds that are a unit's own action rather than a reaction.
pub const OWN_ATTACKS: [&str; 2] = ["normal", "thrown"];

/// Runs every shared check.
pub fn check(preset: Preset, log: &[Value], faults: &mut Faults) {
    for (at, line) in log.iter().enumerate() {
        every_dice_object(line, at, faults);
    }
    the_ending(log, faults);
    walk(log, |roster, at, line| {
        pools(roster, at, line, faults);
        the_gone_never_act(preset, roster, at, line, faults);
        the_surprised_lose_round_one(preset, roster, at, line, faults);
        if matches!(event(line), "round_ended" | "combat_ended") {
            thresholds(preset, roster, at, faults);
        }
        if event(line) == "attack" {
            faults.expect(int(line, "total") == int(&line["roll"], "total"), "LOG-ATTACK", at, || {
                format!("the attack's total is not its roll's: {line}")
            });
        }
    });
}

/// The actor of a line in which a unit acts, if it is one.
pub fn actor(line: &Value) -> Option<&str> {
    let name = event(line);
    if !ACTIONS.contains(&name) {
        return None;
    }
    // A free attack, Reposte or free hit is a reaction; the contract still forbids the gone one.
    Some(if name == "attack" { text(line, "attacker") } else { text(line, "unit") })
}

/// `LOG-DICE`: every dice object's faces fit its expression and add up to its total.
fn every_dice_object(value: &Value, at: usize, faults: &mut Faults) {
    match value {
        Value::Object(map) => {
            if map.contains_key("expr") && map.contains_key("dice") && map.contains_key("total") {
                faults.expect(dice_add_up(value), "LOG-DICE", at, || format!("a dice object does not add up: {value}"));
            }
            map.values().for_each(|inner| every_dice_object(inner, at, faults));
        }
        Value::Array(items) => items.iter().for_each(|inner| every_dice_object(inner, at, faults)),
        _ => {}
    }
}

/// Whether `{expr, dice, total}` is consistent: `NdS±K` or a flat `K`.
fn dice_add_up(roll: &Value) -> bool {
    let expr = text(roll, "expr").replace(' ', "");
    let dice: Vec<i64> = roll["dice"].as_array().into_iter().flatten().filter_map(Value::as_i64).collect();
    let (count, sides, flat) = match expr.split_once('d') {
        None => (0, 0, expr.parse::<i64>().ok()),
        Some((count, rest)) => {
            let cut = rest.find(['+', '-']).unwrap_or(rest.len());
            let (sides, flat) = rest.split_at(cut);
            let flat = if flat.is_empty() { Some(0) } else { flat.trim_start_matches('+').parse().ok() };
            (count.parse().unwrap_or(-1), sides.parse().unwrap_or(0), flat)
        }
    };
    let Some(flat) = flat else { return false };
    dice.len() as i64 == count
        && dice.iter().all(|face| (1..=sides).contains(face))
        && faces(roll) + flat == int(roll, "total")
}

/// `LOG-END` (and `W-END-1`): the log opens with `combat_started`, its rounds never go back, and
/// it has exactly one `combat_ended`, as its last line.
fn the_ending(log: &[Value], faults: &mut Faults) {
    faults.expect(log.first().is_some_and(|line| event(line) == "combat_started"), "LOG-END", 0, || {
        "the log does not open with combat_started".into()
    });
    let ended: Vec<usize> = (0..log.len()).filter(|at| event(&log[*at]) == "combat_ended").collect();
    faults.expect(ended == [log.len() - 1], "LOG-END", log.len() - 1, || {
        format!("combat_ended at lines {ended:?} of {}", log.len())
    });
    for at in 1..log.len() {
        faults.expect(int(&log[at], "round") >= int(&log[at - 1], "round"), "LOG-END", at, || {
            format!("the round goes back: {}", log[at])
        });
    }
}

/// `LOG-POOLS`: each `damage` and `healed` line's pools follow from the last ones logged.
fn pools(roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let Some(unit) = roster.unit(text(line, "unit")) else { return };
    match event(line) {
        "damage" => {
            let (stress_lost, wounds_lost) = (int(line, "stress_lost"), int(line, "wounds_lost"));
            let arithmetic = stress_lost >= 0
                && wounds_lost >= 0
                && stress_lost + wounds_lost == int(line, "amount")
                && int(line, "stress") == unit.stress - stress_lost
                && int(line, "wounds") == unit.wounds - wounds_lost;
            faults.expect(arithmetic, "LOG-POOLS", at, || {
                format!("from stress {} wounds {}, the damage does not add up: {line}", unit.stress, unit.wounds)
            });
        }
        "healed" => {
            let arithmetic = int(line, "stress") == unit.stress + int(line, "stress_restored")
                && int(line, "wounds") == unit.wounds + int(line, "wounds_restored")
                && int(line, "stress") <= unit.stress_max.max(0)
                && int(line, "wounds") <= unit.wounds_max;
            faults.expect(arithmetic, "LOG-POOLS", at, || {
                format!("from stress {} wounds {}, the healing does not add up: {line}", unit.stress, unit.wounds)
            });
            faults.expect(!unit.gone, "LOG-GONE", at, || format!("a unit that left the fight is healed: {line}"));
        }
        _ => {}
    }
}

/// The Wound Points at or below which the preset kills.
pub fn death_threshold(preset: Preset, unit: &Unit) -> i64 {
    match preset {
        Preset::StressAndWounds | Preset::ShockAndCover => -unit.strength,
        Preset::ZonesAndTests | Preset::AimedWounds | Preset::Crucible => 0,
    }
}

/// The condition a unit's Wound Points call for, and the rule that says so.
fn condition_for(preset: Preset, unit: &Unit) -> (&'static str, &'static str) {
    let dead = unit.wounds <= death_threshold(preset, unit);
    match preset {
        Preset::StressAndWounds if dead => ("dead", "W-WOUND-3"),
        Preset::StressAndWounds if unit.wounds < 0 => ("dying", "W-WOUND-2"),
        Preset::StressAndWounds if unit.wounds == 0 => ("incapacitated", "W-WOUND-1"),
        Preset::StressAndWounds => ("active", "W-WOUND-1"),
        Preset::ShockAndCover if dead => ("dead", "S-DMG-1"),
        Preset::ShockAndCover if unit.wounds <= 0 => ("dying", "S-DMG-1"),
        _ if dead => ("dead", rule_of_death(preset)),
        _ => ("active", rule_of_death(preset)),
    }
}

/// The rule that sets the hit-point threshold in the one-pool presets: the damage rule of each
/// seed (its ruleset doc's "Death" row).
fn rule_of_death(preset: Preset) -> &'static str {
    match preset {
        Preset::ZonesAndTests => "Z-ATK-3",
        Preset::AimedWounds => "A-WOUND-1",
        _ => "C-MULTI-1",
    }
}

/// The wound thresholds: at the end of each round, every unit still on the field stands in the
/// condition its Wound Points call for.
fn thresholds(preset: Preset, roster: &Roster, at: usize, faults: &mut Faults) {
    for (id, unit) in &roster.units {
        if unit.gone && unit.condition != "dead" {
            continue;
        }
        let (want, rule) = condition_for(preset, unit);
        faults.expect(unit.condition == want, rule, at, || {
            format!(
                "{id} at {} Wound Points (Strength {}) is {}, not {want}",
                unit.wounds, unit.strength, unit.condition
            )
        });
    }
}

/// `LOG-GONE`: a unit that died, fled or surrendered never acts again, and neither does one whose
/// Wound Points are past its death threshold.
fn the_gone_never_act(preset: Preset, roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let Some(id) = actor(line) else { return };
    let Some(unit) = roster.unit(id) else { return };
    faults.expect(!unit.gone, "LOG-GONE", at, || format!("{id} acts after leaving the fight: {line}"));
    faults.expect(unit.wounds > death_threshold(preset, unit), "LOG-GONE", at, || {
        format!("{id} acts at {} Wound Points, past its death threshold: {line}", unit.wounds)
    });
}

/// The surprise rule of each preset: a surprised unit loses round 1 (it neither declares, moves
/// nor attacks of its own accord).
fn the_surprised_lose_round_one(preset: Preset, roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let rule = match preset {
        Preset::StressAndWounds => "W-SURP-1",
        Preset::ZonesAndTests => "Z-SURP-1",
        Preset::ShockAndCover => "S-SURP-1",
        Preset::Crucible => "C-SURP-1",
        // A surprised unit there is only flat-footed (A-COND-1); it keeps its turn.
        Preset::AimedWounds => return,
    };
    if int(line, "round") != 1 {
        return;
    }
    // A `moved` line may be a shove, so moves are left out: the declaration is what counts.
    let own = match event(line) {
        "declared" | "cast" | "item_used" => true,
        "attack" => OWN_ATTACKS.contains(&text(line, "kind")),
        _ => false,
    };
    let Some(id) = actor(line).filter(|_| own) else { return };
    let surprised = roster.unit(id).is_some_and(|unit| unit.surprised);
    faults.expect(!surprised, rule, at, || format!("{id} was surprised but acts in round 1: {line}"));
}

/// Whether this attack is one the preset's order of turns places (not a reaction).
pub fn own_attack(line: &Value) -> bool {
    event(line) == "attack" && OWN_ATTACKS.contains(&text(line, "kind"))
}

/// A test line (`stabilise`, `cast`, `hazard`): `field` is true exactly when the roll reaches the TN.
/// A cast that paid nothing (neither Mana nor Stress was left to pay with when it resolved) fails
/// whatever the roll, so it is left out.
pub fn test_line(at: usize, line: &Value, field: &str, rule: &'static str, faults: &mut Faults) {
    if event(line) == "cast" && int(line, "mana_spent") + int(line, "stress_spent") == 0 {
        return;
    }
    let passed = int(&line["roll"], "total") >= int(line, "tn");
    faults.expect(line[field] == passed, rule, at, || format!("{field} should be {passed}: {line}"));
}

/// A morale line: its total is its roll, and it passes exactly when the total reaches the TN,
/// unless the outcome was obvious and it failed automatically.
pub fn morale(at: usize, line: &Value, rule: &'static str, faults: &mut Faults) {
    let total = int(line, "total");
    let passed = line["automatic"] != true && total >= int(line, "tn");
    let holds = line["passed"] == passed && total == int(&line["roll"], "total");
    faults.expect(holds, rule, at, || format!("passed should be {passed}: {line}"));
}

/// The turn-based presets' order: each round's `declared` lines give rising places (or the same
/// place for units acting together, when `together`), and come in the order `key` ranks the units.
/// Units the key cannot rank are skipped. A place may be skipped: a unit that cannot take its turn
/// (down, surprised, gone) keeps its place and declares nothing.
pub fn turn_order<K: PartialOrd + std::fmt::Debug>(
    log: &[Value],
    rule: &'static str,
    together: bool,
    mut key: impl FnMut(&Roster, &str) -> Option<K>,
    faults: &mut Faults,
) {
    let mut last: Option<(i64, i64, Option<K>)> = None;
    // Units that held their action (`S-ACT-2`) this round, and whether the held turns have begun:
    // they come after the round's last turn, in the order the units held, outside the ranking.
    let mut holding: Vec<(i64, String)> = Vec::new();
    let mut held_turns_of: Option<i64> = None;
    // The last declaration: a `stand_up`, `screen` or `go_prone` where they are Move or Free actions is
    // followed by the rest of the same turn, the same unit at the same place (`S-ACT-1`).
    let mut previous: Option<(i64, i64, String, String)> = None;
    walk(log, |roster, at, line| {
        if event(line) != "declared" {
            return;
        }
        let (round, place, unit) = (int(line, "round"), int(line, "initiative"), text(line, "unit"));
        let action = text(line, "action").to_string();
        // A held action taken in answer to a foe's turn (`S-ACT-2`) comes at that foe's place,
        // outside the order: it must answer a hold of this round, and it ends that hold.
        if line["held"] == true {
            let waiting = holding.iter().position(|(when, who)| *when == round && who == unit);
            faults.expect(waiting.is_some(), "S-ACT-2", at, || format!("a held action nobody held: {line}"));
            if let Some(at_hold) = waiting {
                holding.remove(at_hold);
            }
            return;
        }
        let second_part = previous.as_ref().is_some_and(|(r, p, who, what)| {
            *r == round && *p == place && who == unit && matches!(what.as_str(), "stand_up" | "go_prone" | "screen")
        });
        if action == "hold_action" && second_part {
            holding.push((round, unit.to_string()));
        }
        previous = Some((round, place, unit.to_string(), action));
        if second_part {
            return;
        }
        let held = holding.iter().position(|(when, who)| *when == round && who == unit);
        if let Some(at_hold) = held {
            holding.remove(at_hold);
            held_turns_of = Some(round);
        } else {
            let late = held_turns_of == Some(round);
            faults.expect(!late, "S-ACT-2", at, || format!("a held action's turn comes after every other: {line}"));
        }
        if text(line, "action") == "hold_action" {
            holding.push((round, unit.to_string()));
        }
        let rank = if held.is_some() { None } else { key(roster, unit) };
        if let Some((_, last_place, last_rank)) = last.take().filter(|(r, _, _)| *r == round) {
            let next = place > last_place || (together && place == last_place);
            faults.expect(next, rule, at, || format!("place {place} follows place {last_place}: {line}"));
            if let (Some(before), Some(now)) = (&last_rank, &rank) {
                let in_order = if place == last_place { before == now } else { before < now };
                faults.expect(in_order, rule, at, || format!("{before:?} then {now:?}: {line}"));
            }
        } else {
            faults.expect(place >= 1, rule, at, || format!("the round's first turn is place {place}: {line}"));
        }
        last = Some((round, place, rank));
    });
}
