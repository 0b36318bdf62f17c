//! `crucible` (seed 004): a side roll every round, units act from the lowest score up and together
//! on ties, attacks against Armour Class with no criticals or automatic misses, damage as rolled,
//! morale.

use std::collections::HashMap;

use serde_json::Value;

use super::general::{morale, test_line, turn_order};
use super::{Faults, Hit, Roster, event, hits_and_damage, int, natural, text, walk};

/// Full defense's bonus to Armour Class (the ruleset doc's Armour Class row).
const FULL_DEFENSE_BONUS: i64 = 2;

/// Runs every `crucible` check.
pub fn check(log: &[Value], faults: &mut Faults) {
    let mut scores: HashMap<(i64, String), i64> = HashMap::new();
    let mut adjustments: HashMap<String, i64> = HashMap::new();
    walk(log, |roster, at, line| match event(line) {
        "side_initiative" => {
            let roll = &line["roll"];
            let holds = int(line, "score") == int(roll, "total") && int(roll, "total") == natural(roll);
            faults.expect(holds, "C-INIT-1", at, || format!("the side's score is its 1d12: {line}"));
            scores.insert((int(line, "round"), text(line, "side").to_string()), int(line, "score"));
        }
        "initiative" => unit_score(&scores, &mut adjustments, roster, (at, line), faults),
        "attack" => armour_class(roster, at, line, faults),
        "morale" => morale(at, line, "C-WDRAW-1", faults),
        "cast" => test_line(at, line, "success", "C-CAST-1", faults),
        _ => {}
    });
    let rank = |roster: &Roster, id: &str| {
        let unit = roster.unit(id)?;
        // Round 1's missiles fire before everyone (C-MISS-1), so its order is not ranked.
        (roster.round > 1).then_some(())?;
        Some(scores.get(&(roster.round, unit.side.clone()))? - adjustments.get(id)?)
    };
    turn_order(log, "C-INIT-1", true, rank, faults);
    hits_and_damage(log, |hit| damage(log, &hit, faults));
}

/// `C-INIT-1`: a unit's score is its side's roll less its Dexterity modifier, the same modifier
/// every round (the log's sheets show Agility, not Dexterity, so the referee holds the unit to the
/// adjustment it first showed).
fn unit_score(
    scores: &HashMap<(i64, String), i64>,
    adjustments: &mut HashMap<String, i64>,
    roster: &Roster,
    (at, line): (usize, &Value),
    faults: &mut Faults,
) {
    let Some(unit) = roster.unit(text(line, "unit")) else { return };
    let Some(side) = scores.get(&(int(line, "round"), unit.side.clone())) else { return };
    let adjustment = *adjustments.entry(text(line, "unit").to_string()).or_insert(side - int(line, "base"));
    faults.expect(int(line, "base") == side - adjustment, "C-INIT-1", at, || {
        format!("side {side}, Dexterity adjustment {adjustment}: {line}")
    });
}

/// The attack roll (crucible.md's Attack roll, Critical hit and Natural 1 rows): the total against
/// Armour Class, +2 in full defense; no criticals, no automatic misses.
fn armour_class(roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let (total, defense) = (int(line, "total"), int(line, "defense"));
    let holds = line["critical"] == false && (line["hit"] == true) == (total >= defense);
    faults.expect(holds, "C-MULTI-1", at, || format!("a hit is a total at or over the AC: {line}"));
    let Some(target) = roster.unit(text(line, "target")) else { return };
    let full_defense = target.declared.iter().any(|(action, _, _)| action == "full_defense");
    let want = target.defense + if full_defense { FULL_DEFENSE_BONUS } else { 0 };
    faults.expect(defense == want, "C-MULTI-1", at, || {
        format!("AC {} (full defense {full_defense}): {line}", target.defense)
    });
}

/// Damage is the roll: nothing soaks it in this preset.
fn damage(log: &[Value], hit: &Hit, faults: &mut Faults) {
    let (attack, damage) = (&log[hit.attack_at], &log[hit.damage_at]);
    let Some(roll) = attack.get("damage_roll") else { return };
    let want = int(roll, "total").max(0);
    faults.expect(int(damage, "amount") == want, "C-MULTI-1", hit.damage_at, || format!("{want}: {attack} → {damage}"));
}
