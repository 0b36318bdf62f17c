//! The words for aim points and the dice rolls an event shows.

use super::*;

/// Where an aimed attack aims, in words (`legs`, `centre mass`).
pub fn aim_words(aim: AimPoint) -> &'static str {
    match aim {
        AimPoint::Fatal => "vitals",
        AimPoint::Slowing => "legs",
        AimPoint::Weakening => "arms",
        AimPoint::Disrupting => "eyes and hands",
        AimPoint::CentreMass => "centre mass",
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
