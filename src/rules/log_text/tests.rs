//! Tests of the log's text: names, every event as a line, and attack extras.

use super::*;
use crate::battlefield::ZoneDef;
use crate::rules::components::{ActionKind, AiKind, Controller, Status};
use crate::rules::dice::Dice;
use crate::rules::equipment::DamageType;
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
        controller: Controller::Ai(AiKind::Greedy),
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
    let attacked = describe(&LogEntry { round: 1, event: attack("warrior-2", "mage", AttackExtra::default()) }, &names);
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
    let template = load_builtin_level("ambush.ron", &crate::levels::mods::ModSet::default()).expect("the ambush loads");
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
            action: ActionKind::Attack,
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
        LogEvent::SideInitiative(line::SideInitiative { side: "red".into(), roll: roll(3), score: 3, begins: None }),
        LogEvent::SurpriseRoll(line::SurpriseRoll {
            side: "red".into(),
            unit: None,
            roll: roll(1),
            range: 2,
            surprised: true,
        }),
        LogEvent::RoundEnded {},
        LogEvent::DiceReseeded(line::DiceReseeded { seed: 9 }),
        LogEvent::CombatEnded(line::CombatEnded { reason: crate::rules::log::EndReason::SideDefeated, winner: None }),
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
            aim: AimPoint::Slowing,
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
        LogEvent::WeaponUsage(line::WeaponUsage { unit: "orc".into(), weapon: "axe".into(), marks: 2, broken: false }),
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
            effect: crate::rules::log::Affliction::OngoingDamage,
            roll: roll(13),
            tn: 12,
            shaken_off: true,
            disadvantage_roll: None,
        }),
        LogEvent::Afflicted(line::Afflicted {
            unit: "orc".into(),
            effect: crate::rules::log::Affliction::OngoingDamage,
            source: "nell".into(),
        }),
        LogEvent::Withdrawal(line::Withdrawal { unit: "orc".into(), roll: roll(2), response: Withdrawal::Flee }),
        LogEvent::Damage(line::Damage {
            unit: "orc".into(),
            source: "nell".into(),
            amount: 5,
            damage_type: DamageType::Fire,
            critical: true,
            stress_lost: 3,
            wounds_lost: 2,
            stress: 0,
            wounds: 3,
            roll: None,
        }),
        LogEvent::Status(line::Status { unit: "orc".into(), status: Status::Dying.into() }),
        LogEvent::Injury(line::Injury {
            unit: "orc".into(),
            chance: roll(10),
            damage: 5,
            roll: Some(roll(7)),
            table: DamageType::Fire,
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
            reason: crate::rules::log::LostReason::TargetOutOfReach,
        }),
        LogEvent::Morale(line::Morale {
            unit: "orc".into(),
            roll: roll(10),
            total: 12,
            tn: 11,
            passed: true,
            reason: crate::rules::log::MoraleReason::Losing,
            automatic: false,
            disadvantage_roll: None,
        }),
    ]
}

#[test]
fn the_log_reads_the_new_events_and_attack_extras() {
    let extra = AttackExtra {
        cover: Some(crate::battlefield::Cover::Half),
        aim: Some(AimPoint::Slowing),
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
        aim: AimPoint::Fatal,
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
        action: ActionKind::Aimed(AimPoint::Weakening),
        target: Some("orc".into()),
        modifier: 2,
        initiative: 5,
        move_to: Some(Place::Square([1, 2])),
        aim: Some(AimPoint::Weakening),
        using: None,
        carried_over: false,
        move_after: None,
        held: false,
    }));
    assert_eq!(declared, "nell declares aimed attack (arms) on orc, moving to (1, 2) (modifier +2, initiative 5)");
}
