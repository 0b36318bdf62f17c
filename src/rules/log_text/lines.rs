//! One line of plain English per log entry, by kind of event.

use super::*;

/// One readable line for a log entry, never empty.
pub fn describe(entry: &LogEntry, names: &Names) -> String {
    line(entry, names).unwrap_or_else(|| words(entry.event.name()))
}

/// The line of whichever family of events `entry` belongs to.
pub(super) fn line(entry: &LogEntry, names: &Names) -> Option<String> {
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
    let mut text = format!("{} {verb} {}", names.unit(unit), words(action.log_name()));
    if let Some(aim) = aim {
        text = format!("{text} ({})", aim_words(*aim));
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
            let mut text = format!("{source} wounds {unit} ({}): now {wounds} wound{plural}", aim_words(*aim));
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
                "{} takes {amount}{critical} {} damage from {}: loses {stress_lost} Stress \
                 and {wounds_lost} Wound Points (now {stress} Stress, {wounds} Wound Points)",
                names.unit(unit),
                damage_type.as_str(),
                names.unit(source)
            )
        }
        LogEvent::Status(line::Status { unit, status: StatusChange::Forfeited }) => {
            format!("{} leaves the fight: its side forfeited", names.unit(unit))
        }
        LogEvent::Status(line::Status { unit, status }) => format!("{} is now {}", names.unit(unit), status.as_str()),
        LogEvent::Injury(line::Injury { unit, table, injury, damage, .. }) => match injury {
            Some(injury) => {
                format!(
                    "{} suffers {injury} ({} injury from {damage} critical damage)",
                    names.unit(unit),
                    table.as_str()
                )
            }
            None => format!("{} escapes a {} injury", names.unit(unit), table.as_str()),
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
pub(super) fn words(name: &str) -> String {
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
