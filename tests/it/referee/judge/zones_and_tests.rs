//! `zones_and_tests` (seed 001): which side begins and 1d6 + Dexterity turns, tests against 12,
//! player-facing avoid tests, disadvantage, doubled dice on a natural 20, double damage on a
//! fumbled avoid test, the higher of two weapons, morale and hazard tests.

use serde_json::Value;

use super::general::{morale, test_line, turn_order};
use super::{Faults, Hit, Roster, Sides, event, faces, hits_and_damage, int, natural, text, walk};

/// Every test's target number (`Z-ATK-1`).
const TN: i64 = 12;
/// The side die's lowest roll at which the party begins (`Z-INIT-1`).
const PARTY_BEGINS_AT: i64 = 4;
/// The lowest natural roll any weapon scores a critical on (`Z-CRIT-1`).
const WIDEST_CRITICAL: i64 = 18;
/// How much a fumbled avoid test multiplies the hit (`Z-CRIT-1`).
const FUMBLED_AVOID: i64 = 2;

/// Runs every `zones_and_tests` check.
pub fn check(sides: &Sides, log: &[Value], faults: &mut Faults) {
    let mut begins: Option<String> = None;
    walk(log, |roster, at, line| match event(line) {
        "side_initiative" => begins = side_begins(sides, at, line, faults).or(begins.take()),
        "initiative" => individual_initiative(at, line, faults),
        "attack" => attack_test(sides, roster, at, line, faults),
        "morale" => morale(at, line, "Z-MOR-1", faults),
        "hazard" => test_line(at, line, "passed", "Z-ZONE-3", faults),
        "cast" => test_line(at, line, "success", "Z-TURN-1", faults),
        _ => {}
    });
    let first = begins.unwrap_or_default();
    let rank = |roster: &Roster, id: &str| {
        let unit = roster.unit(id)?;
        let side = sides.names.iter().position(|name| *name == unit.side)?;
        let side_rank = if unit.side == first { 0 } else { side + 1 };
        Some((side_rank, -unit.base?, unit.order))
    };
    turn_order(log, "Z-INIT-1", false, rank, faults);
    hits_and_damage(log, |hit| weapon_damage(log, &hit, faults));
}

/// `Z-INIT-1`: 1d6, the party begins on 4–6 and the first other side on 1–3. Returns the side
/// that begins.
fn side_begins(sides: &Sides, at: usize, line: &Value, faults: &mut Faults) -> Option<String> {
    let roll = int(&line["roll"], "total");
    let party = text(line, "side") == sides.party;
    let first_other =
        sides.names.iter().find(|name| **name != sides.party).is_some_and(|name| name == text(line, "side"));
    let want = if roll >= PARTY_BEGINS_AT { party } else { first_other };
    faults.expect((line["begins"] == true) == want, "Z-INIT-1", at, || format!("a side die of {roll}: {line}"));
    (line["begins"] == true).then(|| text(line, "side").to_string())
}

/// `Z-INIT-1`: each unit rolls 1d6 + its Dexterity modifier, once, in round 1. (The log's sheet
/// shows the Agility modifier, not Dexterity, so the modifier itself is the dice object's to vouch
/// for: `LOG-DICE` checks it adds up.)
fn individual_initiative(at: usize, line: &Value, faults: &mut Faults) {
    let roll = &line["roll"];
    let holds =
        text(roll, "expr").starts_with("1d6") && int(line, "base") == int(roll, "total") && int(line, "round") == 1;
    faults.expect(holds, "Z-INIT-1", at, || format!("1d6 + Dexterity, rolled in round 1: {line}"));
}

/// `Z-ATK-1`, `Z-ATK-2`, `Z-CRIT-1`: tests against 12, the party's avoid tests, disadvantage.
fn attack_test(sides: &Sides, roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let (nat, total) = (natural(&line["roll"]), int(line, "total"));
    let (hit, critical, avoid) = (line["hit"] == true, line["critical"] == true, line["avoid"] == true);
    faults.expect(int(line, "defense") == TN, "Z-ATK-1", at, || format!("every test is against {TN}: {line}"));
    let side = |key: &str| roster.unit(text(line, key)).map(|unit| unit.side.clone());
    if let (Some(attacker), Some(target)) = (side("attacker"), side("target")) {
        let facing = attacker != sides.party && target == sides.party;
        faults.expect(avoid == facing, "Z-ATK-2", at, || format!("avoid should be {facing}: {line}"));
    }
    let holds = if avoid {
        !critical && hit == (nat == 1 || total < TN)
    } else if critical {
        hit && nat >= WIDEST_CRITICAL
    } else {
        nat != 20 && if nat == 1 { !hit } else { hit == (total >= TN) }
    };
    faults.expect(holds, if avoid { "Z-ATK-2" } else { "Z-ATK-1" }, at, || {
        format!("natural {nat}, total {total}: {line}")
    });
    if let Some(other) = line.get("disadvantage_roll") {
        // The attacker's disadvantage: it keeps the lower roll, the avoiding party member the higher.
        let other = int(other, "total");
        let kept = if avoid { total >= other } else { total <= other };
        faults.expect(kept, "Z-ATK-1", at, || format!("the wrong roll of two counts: {line}"));
    }
}

/// `Z-ATK-3`, `Z-CRIT-1`: the weapon's dice (doubled on a critical, the flat part not) less Armour,
/// doubled when the avoid test was a natural 1; of two weapons, the higher roll counts.
fn weapon_damage(log: &[Value], hit: &Hit, faults: &mut Faults) {
    let (attack, damage) = (&log[hit.attack_at], &log[hit.damage_at]);
    let Some(roll) = attack.get("damage_roll") else { return };
    let flat = int(roll, "total") - faces(roll);
    let rolled = if attack["critical"] == true { faces(roll) * 2 + flat } else { int(roll, "total") };
    let mut want = (rolled - hit.target.armour).max(0);
    if attack["avoid"] == true && natural(&attack["roll"]) == 1 {
        want *= FUMBLED_AVOID;
    }
    let rule = if attack["critical"] == true || attack["avoid"] == true { "Z-CRIT-1" } else { "Z-ATK-3" };
    faults.expect(int(damage, "amount") == want, rule, hit.damage_at, || {
        format!("Armour {}: {want} expected from {attack} → {damage}", hit.target.armour)
    });
    if let Some(other) = attack.get("other_damage_roll") {
        let higher = int(roll, "total") >= int(other, "total");
        faults.expect(higher, "Z-ATK-3", hit.attack_at, || format!("the lower of two weapons counts: {attack}"));
    }
}
