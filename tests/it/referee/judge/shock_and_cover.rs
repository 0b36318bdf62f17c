//! `shock_and_cover` (seed 002): side initiative (1d8, the party adding its best Dexterity, the
//! party first on a tie), attacks against Armour Class with no criticals, damage never under the
//! roll, Shock on a miss, morale.

use serde_json::Value;

use super::general::{morale, turn_order};
use super::{Faults, Hit, Roster, Sides, event, hits_and_damage, int, natural, text, walk};

/// Runs every `shock_and_cover` check.
pub fn check(sides: &Sides, log: &[Value], faults: &mut Faults) {
    let mut scores: Vec<(String, i64)> = Vec::new();
    walk(log, |_, at, line| match event(line) {
        "side_initiative" => {
            side_roll(sides, at, line, faults);
            scores.push((text(line, "side").to_string(), int(line, "score")));
        }
        "attack" => armour_class(at, line, faults),
        "shock" => shock(log, at, line, faults),
        "morale" => morale(at, line, "S-MOR-1", faults),
        _ => {}
    });
    let rank = |roster: &Roster, id: &str| {
        let unit = roster.unit(id)?;
        let score = scores.iter().find(|(side, _)| *side == unit.side)?.1;
        let party_first = if unit.side == sides.party { 0 } else { 1 };
        let side = sides.names.iter().position(|name| *name == unit.side)?;
        Some((-score, party_first, side, unit.order))
    };
    turn_order(log, "S-INIT-1", false, rank, faults);
    hits_and_damage(log, |hit| damage(log, &hit, faults));
}

/// `S-INIT-1`: each side rolls 1d8; only the party adds anything (its best Dexterity modifier,
/// which the log's sheets do not show: they carry Agility).
fn side_roll(sides: &Sides, at: usize, line: &Value, faults: &mut Faults) {
    let party = text(line, "side") == sides.party;
    let roll = &line["roll"];
    let plain = int(roll, "total") == natural(roll);
    let holds = text(roll, "expr").starts_with("1d8") && (party || plain) && int(line, "score") == int(roll, "total");
    faults.expect(holds, "S-INIT-1", at, || format!("1d8, and only the party adds: {line}"));
    faults.expect(int(line, "round") == 1, "S-INIT-1", at, || format!("initiative is never re-rolled: {line}"));
}

/// `S-ATK-1`: the total against Armour Class, no critical hits and no automatic misses.
fn armour_class(at: usize, line: &Value, faults: &mut Faults) {
    let holds = line["critical"] == false && (line["hit"] == true) == (int(line, "total") >= int(line, "defense"));
    faults.expect(holds, "S-ATK-1", at, || format!("a hit is a total at or over the AC: {line}"));
}

/// `S-DMG-1`: a hit deals at least its roll (nothing soaks it; swarms, two weapons and Shock add).
fn damage(log: &[Value], hit: &Hit, faults: &mut Faults) {
    let (attack, damage) = (&log[hit.attack_at], &log[hit.damage_at]);
    let Some(roll) = attack.get("damage_roll") else { return };
    let want = int(roll, "total").max(0);
    faults.expect(int(damage, "amount") >= want, "S-DMG-1", hit.damage_at, || {
        format!("at least {want}: {attack} → {damage}")
    });
}

/// `S-SHOCK-1`: Shock follows a miss; absorbed Shock deals nothing, and the Shock that lands is the
/// next line's damage.
fn shock(log: &[Value], at: usize, line: &Value, faults: &mut Faults) {
    let amount = int(line, "amount");
    let previous = log[..at].iter().rev().find(|before| event(before) == "attack");
    let after_a_miss = previous.is_some_and(|attack| {
        attack["hit"] == false && attack["attacker"] == line["attacker"] && attack["target"] == line["target"]
    });
    faults.expect(after_a_miss, "S-SHOCK-1", at, || format!("Shock without a miss before it: {line}"));
    if line.get("absorbed_by").is_some() {
        faults.expect(amount == 0, "S-SHOCK-1", at, || format!("absorbed Shock deals nothing: {line}"));
    } else if amount > 0 {
        let next = log.get(at + 1);
        let lands = next.is_some_and(|next| {
            event(next) == "damage" && next["unit"] == line["target"] && int(next, "amount") == amount
        });
        faults.expect(lands, "S-SHOCK-1", at, || format!("the Shock's damage line is missing: {line} → {next:?}"));
    }
}
