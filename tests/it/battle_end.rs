//! How every battle ends (`W-END-1`, `A-SUMM-1`): a stalled battle runs to its round limit and
//! says so in `combat_ended`; summons vanish before it; and, over every shipped level, many seeds
//! and both AIs, `combat_ended` is written once, as the last line, by the round limit at latest.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::*;
use fray::battlefield::Place;
use fray::headless::HeadlessBattle;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, BattleTemplate, load_level};
use fray::rules::components::*;
use fray::rules::dice::CombatRng;
use fray::rules::log::StatusChange;
use fray::rules::log::{LogEntry, LogEvent};

/// The reasons `combat_ended` may give (docs/combat-log.md).
const REASONS: [&str; 5] = ["side_defeated", "mutual_defeat", "survived", "target_eliminated", "max_rounds"];

/// The AIs of the contract test, each playing every side, with the seeds each plays every level
/// with. The seeds lie past the golden logs' 0..25 and include the crypt's 232 (summons vanish)
/// and 249 (a stalemate). The random AI plays fewer: its battles on the big levels run about ten
/// times longer, and the test should stay near 30 s in a debug build.
const AIS: [(AiKind, std::ops::Range<u64>); 2] = [(AiKind::Greedy, 220..260), (AiKind::Random, 220..230)];

/// Plays `template` with `ai` on every side and returns the log's lines.
fn play(battle: &mut HeadlessBattle, template: &BattleTemplate, ai: AiKind, seed: u64) -> Vec<LogEntry> {
    let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(ai))).collect();
    battle.start(template, &BattleSetup { seed, controllers, record_log: true });
    battle.run_to_end();
    battle.log().entries().to_vec()
}

/// The `combat_ended` line of the log's last line, if it is one.
fn last_ended(log: &[LogEntry]) -> Option<&line::CombatEnded> {
    log.last().and_then(|entry| line::CombatEnded::of(&entry.event))
}

/// What is wrong with how this battle's log ends, if anything.
fn ending_fault(log: &[LogEntry], max_rounds: u32) -> Option<String> {
    let ended: Vec<(usize, &line::CombatEnded)> = log
        .iter()
        .enumerate()
        .filter_map(|(at, entry)| line::CombatEnded::of(&entry.event).map(|end| (at, end)))
        .collect();
    let [(at, end)] = ended.as_slice() else {
        return Some(format!("{} combat_ended lines; last line {:?}", ended.len(), log.last()?));
    };
    if at + 1 != log.len() {
        return Some(format!("combat_ended is followed by {:?}", log[at + 1]));
    }
    let reason = end.reason.as_str();
    if !REASONS.contains(&reason) {
        return Some(format!("reason {reason:?} is not one of {REASONS:?}"));
    }
    let round = log[*at].round;
    (round > max_rounds).then(|| format!("ended in round {round}, past the limit {max_rounds}"))
}

/// Every level in `levels/`, sorted.
fn shipped_levels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("levels/")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn combat_log_contract_every_shipped_battle_ends_once_with_combat_ended_as_its_last_line() {
    let started = Instant::now();
    let levels = shipped_levels();
    assert!(levels.len() >= 12, "the shipped levels: {levels:?}");
    let mut battle = HeadlessBattle::new();
    let (mut played, mut faults) = (0, Vec::new());
    for path in &levels {
        let template =
            load_level(path, &ModSet::default()).unwrap_or_else(|errors| panic!("{}: {errors}", path.display()));
        if template.units.len() > fray::levels::mass::MASS_BATTLE_UNITS {
            continue;
        }
        let max_rounds = template.ruleset.end.max_rounds;
        for (ai, seeds) in AIS {
            for seed in seeds {
                let log = play(&mut battle, &template, ai, seed);
                played += 1;
                let outcome = battle.state().outcome.clone();
                let fault = match (ending_fault(&log, max_rounds), outcome) {
                    (Some(fault), _) => Some(fault),
                    (None, None) => Some("the engine has no outcome".to_string()),
                    (None, Some(_)) => None,
                };
                if let Some(fault) = fault {
                    faults.push(format!("{} {ai:?} seed {seed}: {fault}", path.display()));
                }
            }
        }
    }
    eprintln!("{played} battles in {:.1} s", started.elapsed().as_secs_f64());
    assert!(
        faults.is_empty(),
        "{} of {played} battles break the log's ending:\n{}",
        faults.len(),
        faults.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Two sides of three on zones with no path between them: nobody can ever reach a foe.
const NO_WAY_ACROSS: &str = r#"(
    name: "no way across",
    ruleset: "zones_and_tests",
    zones: [(id: "west"), (id: "east")],
    sides: [(name: "red", controller: Default), (name: "blue", controller: Default)],
    units: [
        (id: "r1", creature: "soldier", side: "red", zone: "west"),
        (id: "r2", creature: "soldier", side: "red", zone: "west"),
        (id: "r3", creature: "soldier", side: "red", zone: "west"),
        (id: "b1", creature: "soldier", side: "blue", zone: "east"),
        (id: "b2", creature: "soldier", side: "blue", zone: "east"),
        (id: "b3", creature: "soldier", side: "blue", zone: "east"),
    ],
)"#;

#[test]
fn w_end_1_a_stalemate_under_a_turn_based_ruleset_ends_at_max_rounds_with_combat_ended() {
    let text = NO_WAY_ACROSS.replace("units: [", &format!("{TEST_CATALOG}\n    units: ["));
    let template = level_template(&text);
    let max_rounds = template.ruleset.end.max_rounds;
    let mut battle = HeadlessBattle::new();
    let log = play(&mut battle, &template, AiKind::Greedy, 249);
    let outcome = battle.state().outcome.clone().expect("the battle ends");
    assert_eq!(outcome.reason, "max_rounds");
    assert_eq!(outcome.rounds, max_rounds);
    assert_eq!(ending_fault(&log, max_rounds), None);
    let last = last_ended(&log).expect("the log ends with combat_ended");
    assert_eq!(last.reason, "max_rounds");
    assert_eq!(last.winner, None);
    assert!(matches!(log[log.len() - 2].event, LogEvent::RoundEnded {}), "the last round is played out");
}

#[test]
fn a_summ_1_an_unkept_summon_vanishes_before_combat_ended_the_last_line() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 1)), attributes: Some((agility: 14)), spells: Some(["raise_dead"])),
        (id: "s1", creature: "soldier", side: "red", at: Some((0, 0)), summoned_by: Some("r1")),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let level = format!(
        r#"(
    name: "a summon at the end",
    ruleset: "aimed_wounds",
    grid: Some((rows: ["......", "......", "......"], squares_per_zone: 6)),
    sides: [(name: "red", controller: Human), (name: "blue", controller: Human)],
    {TEST_CATALOG}
    units: [{units}],
)"#
    );
    // r1 raises s1 (cast 15 against TN 11), then strikes b1, left at 1 Wound Point, down.
    let mut app = scripted(&level, &[15]);
    set::<Mana>(&mut app, "r1", |mana| (mana.max, mana.current) = (20, 20));
    app.update();
    declare(&mut app, "r1", ActionKind::Cast(0), Some("r1"), None);
    app.update();
    set::<Wounds>(&mut app, "b1", |wounds| wounds.current = 1);
    app.world_mut().resource_mut::<CombatRng>().push_script([15, 3]);
    declare(&mut app, "b1", ActionKind::Hold, None, None);
    for _ in 0..3 {
        app.update();
        if state(&app).round > 1 {
            break;
        }
    }
    declare(&mut app, "r1", ActionKind::Attack, Some("b1"), None);
    for _ in 0..4 {
        app.update();
    }
    assert!(state(&app).is_over());
    let log = log_entries(&app);
    let vanished =
        line_position(&log, |status: &line::Status| status.status == StatusChange::Vanished && &*status.unit == "s1");
    let ended = line_position(&log, |_: &line::CombatEnded| true);
    assert!(vanished.is_some() && ended.is_some(), "both lines are written");
    assert!(vanished < ended, "the summon vanishes before the battle's last line");
    assert_eq!(ended, Some(log.len() - 1), "combat_ended is the last line");
}

/// The log's first `arrived` line and the round it came in.
fn arrival(log: &[LogEntry]) -> Option<(u32, &line::Arrived)> {
    log.iter().find_map(|entry| line::Arrived::of(&entry.event).map(|arrived| (entry.round, arrived)))
}

/// A grid level under `aimed_wounds` where red's conjurer knows a spell creating `creature`,
/// against two tough guards.
fn conjuring_level(creature: &str) -> String {
    format!(
        r#"(
    name: "a conjured soldier",
    ruleset: "aimed_wounds",
    grid: Some((rows: ["........", "........", "........"], squares_per_zone: 6)),
    sides: [(name: "red", controller: Default), (name: "blue", controller: Default)],
    weapons: {{
        "blade": (damage: "1d8", damage_type: slashing, speed: 2),
        "tap": (damage: "1", damage_type: blunt, speed: 2),
    }},
    spells: {{
        "call_soldier": (tn: 5, mana: 3, range: 0, effect: Conjure(creature: "{creature}", count: 1)),
    }},
    creatures: {{
        "soldier": (name: "Soldier", hd: "8d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 6)),
        "conjurer": (name: "Conjurer", hd: "2d8", attributes: (agility: 14), weapon: "tap", speed: 2, mana: 6, spells: ["call_soldier"], skills: (spellcasting: 10)),
        "guard": (name: "Guard", hd: "3d8", attributes: (agility: 8), weapon: "tap", speed: 2),
    }},
    units: [
        (id: "r1", creature: "conjurer", side: "red", at: Some((0, 1))),
        (id: "b1", creature: "guard", side: "blue", at: Some((7, 0))),
        (id: "b2", creature: "guard", side: "blue", at: Some((7, 2))),
    ],
)"#
    )
}

#[test]
fn a_summ_1_a_spell_creates_a_new_unit_that_fights_and_vanishes_before_combat_ended() {
    let template = level_template(&conjuring_level("soldier"));
    let mut battle = HeadlessBattle::new();
    let log = play(&mut battle, &template, AiKind::Greedy, 7);
    let (arrived_in, arrived) = arrival(&log).expect("the spell brings a unit in");
    let id = &*arrived.unit;
    assert_eq!(id, "soldier-1", "a fresh id, used by no unit of the level");
    let attacked = log.iter().filter_map(|entry| line::Attack::of(&entry.event)).any(|attack| &*attack.attacker == id);
    assert!(attacked, "the new unit fights");
    let first_turn =
        log.iter().find(|entry| line::Declared::of(&entry.event).is_some_and(|declared| &*declared.unit == id));
    let sick_through = arrived_in + 1;
    assert!(first_turn.is_some_and(|entry| entry.round > sick_through), "sick in its first round");
    let vanished =
        line_position(&log, |status: &line::Status| status.status == StatusChange::Vanished && &*status.unit == id);
    let ended = line_position(&log, |_: &line::CombatEnded| true);
    assert!(vanished.is_some(), "the new unit vanishes as the battle ends");
    assert!(vanished < ended, "before the battle's last line");
    assert_eq!(ended, Some(log.len() - 1), "combat_ended is the last line");
    assert_eq!(ending_fault(&log, template.ruleset.end.max_rounds), None);
    assert_eq!(last_ended(&log).and_then(|end| end.winner.as_deref()), Some("red"), "it fought for its side");
}

#[test]
fn a_summ_1_a_spell_creating_an_unknown_creature_is_a_checker_error() {
    let text = conjuring_level("soldeir");
    let errors = match fray::levels::load_level_text(&text, Path::new("conjure.ron"), &Default::default()) {
        Ok(_) => panic!("a spell creating an unknown creature loads"),
        Err(errors) => errors.to_string(),
    };
    let line = text.lines().position(|line| line.contains("\"soldeir\"")).expect("written") + 1;
    let column = text.lines().nth(line - 1).and_then(|written| written.find("\"soldeir\"")).expect("at") + 1;
    let expected = format!(
        "conjure.ron:{line}:{column}: spell \"call_soldier\" creates creature \"soldeir\" not found; did you mean \"soldier\"?"
    );
    assert!(errors.contains(&expected), "expected {expected:?} in:\n{errors}");
}

#[test]
fn a_summ_1_on_zones_the_new_unit_appears_in_its_casters_zone_and_rolls_initiative_next_round() {
    let text = conjuring_level("soldier")
        .replace("    ruleset: \"aimed_wounds\",\n", "")
        .replace(
            "grid: Some((rows: [\"........\", \"........\", \"........\"], squares_per_zone: 6)),",
            "zones: [(id: \"a\", adjacent: [\"b\"]), (id: \"b\")],",
        )
        .replace("at: Some((0, 1))", "zone: \"a\"")
        .replace("at: Some((7, 0))", "zone: \"b\"")
        .replace("at: Some((7, 2))", "zone: \"b\"");
    let template = level_template(&text);
    let mut battle = HeadlessBattle::new();
    let log = play(&mut battle, &template, AiKind::Greedy, 7);
    let (arrived_in, arrived) = arrival(&log).expect("the spell brings a unit in");
    assert_eq!(&*arrived.unit, "soldier-1");
    assert_eq!(arrived.zone, Place::Zone("a".into()), "in its caster's zone");
    let rolled = log
        .iter()
        .find(|entry| line::Initiative::of(&entry.event).is_some_and(|initiative| &*initiative.unit == "soldier-1"));
    let next_round = arrived_in + 1;
    assert!(rolled.is_some_and(|entry| entry.round == next_round), "it rolls as the next round starts");
    assert_eq!(ending_fault(&log, template.ruleset.end.max_rounds), None);
}
