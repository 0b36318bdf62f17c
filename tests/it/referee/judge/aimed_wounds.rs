//! `aimed_wounds` (seed 003): turns by Agility modifier (the initiator last), hits against 10 +
//! Agility, natural 20s that escalate and natural 1s that always miss, Armour off every hit, and
//! wounds from aimed hits of 6 or more net damage.

use serde_json::Value;

use super::general::{morale, test_line, turn_order};
use super::{Faults, Hit, Roster, Sides, event, hits_and_damage, int, natural, text, walk};

/// A flat-footed target's Defense, and the base of a prone one's (`A-COND-1`).
const FLAT_FOOTED: i64 = 5;
/// Dodge bonus actions a target may have spent this round (`A-BONUS-1`: +1 each).
const MOST_DODGE: i64 = 2;
/// Net damage that deals a wound (`A-WOUND-1`).
const WOUND_AT: i64 = 6;
/// The lowest natural roll any weapon scores a critical on (`A-CRIT-1`).
const WIDEST_CRITICAL: i64 = 18;
/// Flat damage modifiers an attack may carry besides its roll: +1 for standing still, −1 per
/// weakening wound (two at most in these battles).
const FLAT_BONUS: std::ops::RangeInclusive<i64> = -2..=1;
/// Aims whose wound has an effect (`A-AIM-1`); centre mass trades it for +1 to hit.
const WOUNDING_AIMS: [&str; 4] = ["fatal", "slowing", "weakening", "disrupting"];

/// Runs every `aimed_wounds` check.
pub fn check(sides: &Sides, log: &[Value], faults: &mut Faults) {
    walk(log, |roster, at, line| match event(line) {
        "initiative" => agility_order(roster, at, line, faults),
        "attack" => accuracy(log, roster, at, line, faults),
        "morale" => morale(at, line, "A-END-1", faults),
        "cast" => test_line(at, line, "success", "A-TURN-1", faults),
        _ => {}
    });
    let rank = |roster: &Roster, id: &str| {
        let unit = roster.unit(id)?;
        let initiated = sides.initiated.iter().any(|name| name == id);
        Some((initiated, -(unit.agility_mod - unit.slowing_at_round_start), unit.order))
    };
    turn_order(log, "A-INIT-1", false, rank, faults);
    hits_and_damage(log, |hit| damage_and_wounds(log, &hit, faults));
}

/// `A-INIT-1`: each unit's place is its Agility modifier, logged as a flat roll.
fn agility_order(roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let Some(unit) = roster.unit(text(line, "unit")) else { return };
    faults.expect(int(line, "base") == unit.agility_mod - unit.slowing, "A-INIT-1", at, || {
        format!("Agility modifier {} less {} slowing wounds: {line}", unit.agility_mod, unit.slowing)
    });
}

/// `A-HIT-1`, `A-CRIT-1`, `A-FAIL-1`: a natural 20 is a critical and hits, a natural 1 misses,
/// otherwise the total against Defense, which is 10 + Agility and the bonuses (less slowing
/// wounds, plus dodges), 5 flat-footed, or 5 + Agility prone.
fn accuracy(log: &[Value], roster: &Roster, at: usize, line: &Value, faults: &mut Faults) {
    let (nat, total, defense) = (natural(&line["roll"]), int(line, "total"), int(line, "defense"));
    let (hit, critical) = (line["hit"] == true, line["critical"] == true);
    let holds = if critical {
        hit && (nat >= WIDEST_CRITICAL || free_critical(log, at))
    } else {
        nat != 20 && if nat == 1 { !hit } else { hit == (total >= defense) }
    };
    let rule = match nat {
        20 => "A-CRIT-1",
        1 => "A-FAIL-1",
        _ => "A-HIT-1",
    };
    faults.expect(holds, rule, at, || format!("natural {nat}, total {total} against {defense}: {line}"));
    let Some(target) = roster.unit(text(line, "target")) else { return };
    let plain = target.defense - target.slowing;
    let known = [FLAT_FOOTED, FLAT_FOOTED + target.agility_mod - target.slowing];
    let fits = known.contains(&defense) || (plain..=plain + MOST_DODGE).contains(&defense);
    faults
        .expect(fits, "A-HIT-1", at, || format!("Defense {} less {} slowing: {line}", target.defense, target.slowing));
}

/// `A-FAIL-1`: a tragedy (the fumble chain's d4 came up 4, its d6 did not) gives the target a
/// free critical whatever it rolls.
fn free_critical(log: &[Value], at: usize) -> bool {
    log[at]["kind"] == "free_hit"
        && log[..at]
            .iter()
            .rev()
            .take_while(|line| event(line) == "escalation")
            .any(|line| text(line, "chain") == "tragedy" && line["escalated"] == true)
}

/// `A-CRIT-1`, `A-WOUND-1`: the roll (with sneak damage and the flat bonuses), doubled per
/// escalated critical step, less Armour; an aimed hit of 6+ net deals a wound, a smaller one never.
fn damage_and_wounds(log: &[Value], hit: &Hit, faults: &mut Faults) {
    let (attack, damage) = (&log[hit.attack_at], &log[hit.damage_at]);
    let Some(roll) = attack.get("damage_roll") else { return };
    // The wound is worked out with the blow, so its line may come just before the attack line.
    let before = log[..hit.attack_at]
        .iter()
        .rev()
        .take_while(|line| matches!(event(line), "wound" | "escalation" | "afflicted"));
    let after = log[hit.attack_at + 1..hit.damage_at].iter();
    let wound = before.chain(after).find(|line| event(line) == "wound" && line["unit"] == attack["target"]);
    let extra = wound.map_or(0, |wound| int(wound, "extra_damage"));
    let net = int(damage, "amount") - extra;
    let (multiplier, outright) = critical_steps(log, hit.attack_at);
    if !outright {
        let rolled = int(roll, "total") + attack.get("sneak_roll").map_or(0, |sneak| int(sneak, "total"));
        let fits = FLAT_BONUS.into_iter().any(|flat| ((rolled + flat) * multiplier - hit.target.armour).max(0) == net);
        faults.expect(fits, "A-CRIT-1", hit.damage_at, || {
            format!("×{multiplier}, Armour {}: {attack} → {damage}", hit.target.armour)
        });
    }
    let aim = attack.get("aim").and_then(Value::as_str).unwrap_or_default();
    if net < WOUND_AT {
        faults.expect(wound.is_none(), "A-WOUND-1", hit.damage_at, || {
            format!("{net} net damage wounds: {attack} → {damage}")
        });
    } else if WOUNDING_AIMS.contains(&aim) {
        faults.expect(wound.is_some(), "A-WOUND-1", hit.damage_at, || {
            format!("{net} net damage, no wound: {attack} → {damage}")
        });
    }
}

/// The critical's multiplier from the `escalation` lines just before the attack, and whether it
/// escalated to the end (defeated outright).
fn critical_steps(log: &[Value], attack_at: usize) -> (i64, bool) {
    if log[attack_at]["critical"] != true {
        return (1, false);
    }
    let steps: Vec<&Value> = log[..attack_at]
        .iter()
        .rev()
        .take_while(|line| matches!(event(line), "escalation" | "wound"))
        .filter(|line| event(line) == "escalation" && text(line, "chain") == "critical")
        .collect();
    let escalated = steps.iter().filter(|step| step["escalated"] == true).count();
    let outright = !steps.is_empty() && escalated == steps.len() && steps.len() > 1;
    (2 << escalated.min(1), outright)
}
