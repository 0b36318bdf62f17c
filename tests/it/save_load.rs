//! Saves: save → load → the rest of the battle is byte-identical to never having saved, on
//! every shipped level and several seeds; changed levels, wrong versions and corrupt files are
//! refused with clear errors and never overwrite the last good save; undo puts back the exact
//! prior state; `replay --verify` reproduces every shipped level and catches a tampered log.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use fray::battlefield::{Battlefield, ZoneIndex};
use fray::headless::HeadlessBattle;
use fray::levels::catalog::builtin::LEVELS;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, BattleTemplate, load_builtin_level};
use fray::rules::actions::{self, ActionContext, ViewCache};
use fray::rules::components::{AiKind, Controller, Declared, UnitId};
use fray::rules::ruleset::Ruleset;
use fray::rules::unit::UnitReadOnly;
use fray::rules::{ActionChosen, CombatPhase, CombatState, DeclarationQueue, DeclareSystems};
use fray::save::format::fnv1a;
use fray::save::undo::{UndoError, undo_last};
use fray::save::verify::{Verdict, verify_log, verify_save};
use fray::save::{Recording, SaveError, SaveFile, capture, load_headless};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeds each level is saved and loaded with.
const SEEDS: [u64; 3] = [0, 5, 11];
/// More updates than any shipped battle needs, one human declaration per update included.
const MAX_UPDATES: u32 = 4000;

/// A scratch folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-save-tests-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Stands in for a person: declares one human unit per update, a legal action chosen from the
/// battle's state alone (round and unit), so the same state always gets the same choice.
fn human_stand_in(
    units: Query<UnitReadOnly>,
    queue: Res<DeclarationQueue>,
    state: Res<CombatState>,
    ruleset: Res<Ruleset>,
    battlefield: Res<Battlefield>,
    index: Res<ZoneIndex>,
    mut chosen: MessageWriter<ActionChosen>,
) {
    if !queue.open || state.phase != CombatPhase::Declare {
        return;
    }
    let cache = ViewCache::new(&units);
    let ctx = ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
    let Some(actor) = queue
        .awaiting()
        .filter_map(|unit| cache.get(unit))
        .find(|actor| *actor.standing.controller == Controller::Human && queue.may_declare(actor.entity))
    else {
        return;
    };
    let legal = actions::legal_actions(ctx, actor, &cache);
    let mut rng = ChaCha8Rng::seed_from_u64(fnv1a(format!("{}/{}", state.round, actor.standing.id.0).as_bytes()));
    let mut action = if legal.is_empty() {
        fray::rules::components::Action::simple(fray::rules::components::ActionKind::Hold)
    } else {
        legal[rng.random_range(0..legal.len())]
    };
    // A hold against a foe names one of its plans at random, or none (`S-ACT-2`), so saves
    // carry held plans too.
    if action.kind == fray::rules::components::ActionKind::HoldAction
        && let Some(foe) = action.target.and_then(|foe| cache.get(foe))
    {
        let plans = fray::rules::legal::held_plans(ctx, actor, (foe.entity, foe.standing.zone.0), &legal);
        let pick = rng.random_range(0..=plans.len());
        action.held = plans.get(pick).copied();
    }
    chosen.write(ActionChosen { unit: actor.entity, action });
}

fn with_stand_in(battle: &mut HeadlessBattle) {
    battle.app_mut().add_systems(Update, human_stand_in.in_set(DeclareSystems::Choose));
}

/// The first side human (played by the stand-in), the others by an AI chosen by the seed.
fn setup(template: &BattleTemplate, seed: u64) -> BattleSetup {
    let ai = if seed.is_multiple_of(2) { AiKind::Greedy } else { AiKind::Random };
    let controllers = (0..template.sides.len())
        .map(|side| (side, if side == 0 { Controller::Human } else { Controller::Ai(ai) }))
        .collect();
    BattleSetup { seed, controllers, record_log: true }
}

fn run_out(battle: &mut HeadlessBattle) {
    for _ in 0..MAX_UPDATES {
        if battle.state().is_over() {
            return;
        }
        battle.step();
    }
    panic!("the battle did not end in {MAX_UPDATES} updates");
}

/// Plays `level` with `seed`, saving after `save_at` updates; returns the whole log and the save.
fn play_and_save(level: &str, seed: u64, save_at: u32, path: &Path) -> (String, SaveFile) {
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    with_stand_in(&mut battle);
    battle.start(&template, &setup(&template, seed));
    for _ in 0..save_at {
        if battle.state().is_over() {
            break;
        }
        battle.step();
    }
    let save = capture(battle.world_mut(), &template);
    save.write(path).unwrap();
    run_out(&mut battle);
    (battle.log().to_json_lines(), save)
}

#[test]
fn save_then_load_plays_the_rest_of_the_battle_byte_identically() {
    let dir = scratch("identical");
    let mut mid_declaration = 0;
    for (level, _) in LEVELS {
        for seed in SEEDS {
            let save_at = 2 + (seed as u32 % 5);
            let path = dir.join(format!("{level}-{seed}.ron"));
            let (never_saved, save) = play_and_save(level, seed, save_at, &path);
            let (loaded_save, _, mut battle) =
                load_headless(&path, &ModSet::default()).unwrap_or_else(|error| panic!("{level} seed {seed}: {error}"));
            assert_eq!(loaded_save, save, "{level} seed {seed}: the file holds what was saved");
            let queue = battle.world().resource::<DeclarationQueue>();
            if queue.open && queue.done.iter().any(|&done| done) && !queue.complete() {
                mid_declaration += 1;
            }
            with_stand_in(&mut battle);
            run_out(&mut battle);
            assert!(
                battle.log().to_json_lines() == never_saved,
                "{level} seed {seed}: the loaded battle's log differs from the one never saved"
            );
        }
    }
    assert!(mid_declaration > 0, "some saves must fall between two declarations of a round");
}

#[test]
fn a_changed_level_or_ruleset_is_refused_naming_what_changed() {
    let dir = scratch("changed");
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    let level = levels.join("duel.ron");
    let text = LEVELS.iter().find(|(name, _)| *name == "duel.ron").unwrap().1;
    std::fs::write(&level, text).unwrap();
    let template = fray::levels::load_level(&level, &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    with_stand_in(&mut battle);
    battle.start(&template, &setup(&template, 3));
    battle.step();
    battle.step();
    let path = dir.join("duel-save.ron");
    capture(battle.world_mut(), &template).write(&path).unwrap();
    load_headless(&path, &ModSet::default()).expect("the unchanged level loads");

    std::fs::write(&level, text.replace("\"stress_and_wounds\"", "\"aimed_wounds\"")).unwrap();
    let error = load_headless(&path, &ModSet::default()).map(|_| ()).expect_err("a changed ruleset is refused");
    let message = error.to_string();
    assert!(matches!(error, SaveError::Changed { .. }), "{message}");
    assert!(message.contains("ruleset") && message.contains("duel-save.ron"), "{message}");

    std::fs::write(&level, text.replacen("zone: \"east_gate\"", "zone: \"courtyard\"", 1)).unwrap();
    let changed = fray::levels::load_level(&level, &ModSet::default()).expect("the moved unit still loads");
    assert_ne!(changed.units, template.units);
    match load_headless(&path, &ModSet::default()).map(|_| ()) {
        Err(SaveError::Changed { changed, .. }) => {
            assert_eq!(changed, ["level's units (or the catalog they come from)"]);
        }
        other => panic!("changed units must be refused, not {other:?}"),
    }
}

#[test]
fn a_save_of_another_format_is_refused_with_both_versions() {
    let dir = scratch("version");
    let path = dir.join("old.ron");
    let (_, save) = play_and_save("ambush.ron", 1, 3, &path);
    let text = save.to_text().replace("format: 1,", "format: 99,");
    std::fs::write(&path, text).unwrap();
    let message = SaveFile::read(&path).expect_err("format 99 is refused").to_string();
    assert!(message.contains("format 99") && message.contains("reads format 1"), "{message}");
}

#[test]
fn a_failed_write_leaves_the_last_good_save_whole() {
    let dir = scratch("atomic");
    let path = dir.join("battle.ron");
    let (_, save) = play_and_save("melee.ron", 2, 4, &path);
    let good = std::fs::read(&path).unwrap();
    // The temporary file cannot be created (a folder is in its way): the write fails cleanly.
    let blocker = dir.join("battle.ron.tmp");
    std::fs::create_dir_all(&blocker).unwrap();
    let mut later = save.clone();
    later.round += 1;
    assert!(matches!(later.write(&path), Err(SaveError::Io { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), good, "the last good save is untouched");
    std::fs::remove_dir(&blocker).unwrap();
    later.write(&path).unwrap();
    assert_eq!(SaveFile::read(&path).unwrap(), later);
}

/// A save's text, made once for the property test.
fn sample_save() -> String {
    let dir = scratch("sample");
    let (_, save) = play_and_save("ambush.ron", 4, 5, &dir.join("sample.ron"));
    assert!(!save.declarations.is_empty());
    save.to_text()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_truncated_save_is_an_error_with_a_location_and_the_good_save_survives(cut in 0.0f64..1.0) {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let text = TEXT.get_or_init(sample_save);
        let whole = text.trim_end().len();
        let at = ((whole as f64 * cut) as usize).min(whole - 1);
        let at = (0..=at).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
        let dir = scratch("truncated");
        let good = dir.join("good.ron");
        std::fs::write(&good, text).unwrap();
        let broken = dir.join(format!("broken-{at}.ron"));
        std::fs::write(&broken, &text[..at]).unwrap();
        let error = SaveFile::read(&broken).expect_err("a truncated save never loads");
        let message = error.to_string();
        prop_assert!(matches!(error, SaveError::Parse { line, column, .. } if line >= 1 && column >= 1), "{}", message);
        prop_assert!(message.contains(&format!("broken-{at}.ron:")), "{}", message);
        prop_assert_eq!(&std::fs::read_to_string(&good).unwrap(), text);
        prop_assert!(SaveFile::read(&good).is_ok());
        let _ = std::fs::remove_file(&broken);
    }
}

/// A battle of `level` stopped at the first round where the human side has declared some
/// units but not all.
fn battle_mid_declaration(level: &str, seed: u64) -> Option<(BattleTemplate, HeadlessBattle)> {
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    with_stand_in(&mut battle);
    battle.start(&template, &setup(&template, seed));
    for _ in 0..MAX_UPDATES {
        if battle.state().is_over() {
            return None;
        }
        battle.step();
        let humans_declared = battle
            .world()
            .resource::<Recording>()
            .entries
            .iter()
            .rev()
            .take_while(|entry| entry.round == battle.state().round)
            .any(|entry| entry.by == Controller::Human);
        let queue = battle.world().resource::<DeclarationQueue>();
        if queue.open && !queue.complete() && humans_declared && battle.state().phase == CombatPhase::Declare {
            return Some((template, battle));
        }
    }
    None
}

/// Everything a declaration touches, to compare before and after an undo: the units'
/// declarations, the queue, the record (in a secret pass its order is the order of arrival,
/// which a replay need not keep) and the AI's stream.
fn declaration_state(battle: &mut HeadlessBattle) -> [String; 4] {
    let world = battle.world_mut();
    let mut declared: Vec<(String, Declared)> =
        world.query::<(&UnitId, &Declared)>().iter(world).map(|(id, declared)| (id.0.to_string(), *declared)).collect();
    declared.sort_by(|a, b| a.0.cmp(&b.0));
    let queue = world.resource::<DeclarationQueue>();
    let mut entries: Vec<String> =
        world.resource::<Recording>().entries.iter().map(|entry| format!("{entry:?}")).collect();
    entries.sort();
    [
        format!("{declared:?}"),
        format!("{:?} {}", queue.done, queue.next),
        format!("{entries:?}"),
        format!("{:?}", world.resource::<fray::ai::AiRng>()),
    ]
}

#[test]
fn undo_restores_the_exact_prior_state_and_the_battle_plays_on_identically() {
    let mut checked = 0;
    for (level, _) in LEVELS {
        let Some((template, mut battle)) = battle_mid_declaration(level, 1) else {
            continue;
        };
        // Where the battle stood before the human side's last declaration: load a save
        // without it (the same rules, replayed), then compare after undoing it live.
        let mut save = capture(battle.world_mut(), &template);
        let undone = undo_last(battle.world_mut(), 0).unwrap_or_else(|error| panic!("{level}: {error}"));
        let last_human = save.declarations.iter().rposition(|entry| entry.by == Controller::Human).unwrap();
        assert_eq!(save.declarations[last_human].unit, undone);
        save.declarations.truncate(last_human);
        let dir = scratch("undo");
        let path = dir.join(format!("{level}.ron"));
        save.write(&path).unwrap();
        let (_, _, mut before) =
            load_headless(&path, &ModSet::default()).unwrap_or_else(|error| panic!("{level}: {error}"));
        let (after_undo, never_made) = (declaration_state(&mut battle), declaration_state(&mut before));
        for (part, (got, want)) in
            ["declared", "queue", "record", "AI stream"].iter().zip(after_undo.iter().zip(&never_made))
        {
            assert!(got == want, "{level}: after the undo the {part} differs:\n{got}\n{want}");
        }
        with_stand_in(&mut before);
        run_out(&mut battle);
        run_out(&mut before);
        assert!(
            battle.log().to_json_lines() == before.log().to_json_lines(),
            "{level}: the battle plays on identically"
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} levels stopped between two human declarations");
}

#[test]
fn undo_is_refused_while_resolving_and_for_another_side() {
    let (_, mut battle) = battle_mid_declaration("ambush.ron", 1).expect("ambush has a mid-declaration moment");
    assert_eq!(
        undo_last(battle.world_mut(), 1),
        Err(UndoError::NothingToUndo),
        "the AI side made no human declaration"
    );
    battle.world_mut().resource_mut::<CombatState>().phase = CombatPhase::Resolve;
    assert_eq!(undo_last(battle.world_mut(), 0), Err(UndoError::Resolving));
}

/// AI-only battles of every shipped level as `fray sim --log` writes them.
fn sim_log(level: &str, seeds: std::ops::Range<u64>) -> String {
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let mut battle = HeadlessBattle::new();
    let mut log = String::new();
    for seed in seeds {
        let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Random))).collect();
        battle.start(&template, &BattleSetup { seed, controllers, record_log: true });
        battle.run_to_end();
        log.push_str(&battle.log().to_json_lines());
    }
    log
}

#[test]
fn replay_verify_reproduces_every_shipped_level_and_catches_a_tampered_log() {
    let dir = scratch("verify");
    for (level, _) in LEVELS {
        let path = dir.join(format!("{level}.jsonl"));
        let log = sim_log(level, 0..3);
        std::fs::write(&path, &log).unwrap();
        assert_eq!(verify_log(&path, None, &ModSet::default()).unwrap(), Verdict::Reproduced(3), "{level}");
        let tampered = log.replacen("\"total\":", "\"total\":1", 1);
        assert_ne!(tampered, log);
        std::fs::write(&path, tampered).unwrap();
        assert!(
            matches!(verify_log(&path, None, &ModSet::default()).unwrap(), Verdict::Differs(_)),
            "{level}: a tampered log fails"
        );
    }
    let save = dir.join("save.ron");
    play_and_save("reinforcements.ron", 2, 6, &save);
    assert_eq!(verify_save(&save, &ModSet::default()).unwrap(), Verdict::Reproduced(1));
    let mut tampered = SaveFile::read(&save).unwrap();
    tampered.log_hash = "0000000000000000".into();
    tampered.write(&save).unwrap();
    assert!(matches!(verify_save(&save, &ModSet::default()).unwrap(), Verdict::Differs(_)));
}

#[test]
fn fray_replay_verify_exits_zero_on_a_sim_log_and_non_zero_when_tampered() {
    let dir = scratch("cli");
    let log = dir.join("sim.jsonl");
    let fray = env!("CARGO_BIN_EXE_fray");
    let status = std::process::Command::new(fray)
        .args(["sim", "--games", "3", "--ai", "monsters=random", "--log"])
        .arg(&log)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let verify =
        |path: &Path| std::process::Command::new(fray).args(["replay", "--verify"]).arg(path).output().unwrap();
    let output = verify(&log);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replacen("\"hit\":true", "\"hit\":false", 1)).unwrap();
    let output = verify(&log);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("does not reproduce"));
    let mid_line = text[text.len() / 2..].find('"').map_or(text.len() / 2, |at| text.len() / 2 + at);
    std::fs::write(&log, &text[..mid_line]).unwrap();
    assert_eq!(verify(&log).status.code(), Some(2), "a log cut mid-line cannot be verified");
}

/// Hands the first side (the stand-in's) to the AI, or back to the stand-in.
fn hand_first_side(battle: &mut HeadlessBattle, to: Controller) {
    let world = battle.world_mut();
    let mut units = world.query::<(&fray::rules::components::SideIndex, &mut Controller)>();
    for (side, mut controller) in units.iter_mut(world) {
        if side.0 == 0 {
            *controller = to;
        }
    }
}

#[test]
fn a_side_handed_to_the_ai_and_back_mid_battle_saves_and_loads_byte_identically() {
    let dir = scratch("handover");
    for (level, seed) in [("duel.ron", 0), ("ambush.ron", 5), ("crucible_skirmish.ron", 11)] {
        let template = load_builtin_level(level, &ModSet::default()).unwrap();
        let mut battle = HeadlessBattle::new();
        with_stand_in(&mut battle);
        battle.start(&template, &setup(&template, seed));
        let mut handed = false;
        for step in 0..40 {
            if battle.state().is_over() {
                break;
            }
            // Handed to the greedy AI after a few updates, taken back later.
            if step == 6 {
                hand_first_side(&mut battle, Controller::Ai(AiKind::Greedy));
                handed = true;
            }
            if step == 20 {
                hand_first_side(&mut battle, Controller::Human);
            }
            if step == 30 {
                hand_first_side(&mut battle, Controller::Ai(AiKind::Easy));
            }
            battle.step();
        }
        let path = dir.join(level);
        let save = capture(battle.world_mut(), &template);
        save.write(&path).unwrap();
        assert!(handed, "{level}: the battle ended before the handover");
        let by_ai = save.declarations.iter().filter(|entry| entry.by != Controller::Human);
        assert!(by_ai.count() > 0, "{level}: no declaration was made by an AI");
        // Played on as it is now: the first side by the easy AI.
        run_out(&mut battle);
        let never_saved = battle.log().to_json_lines();
        let (_, _, mut loaded) =
            load_headless(&path, &ModSet::default()).unwrap_or_else(|error| panic!("{level}: {error}"));
        with_stand_in(&mut loaded);
        run_out(&mut loaded);
        assert!(
            loaded.log().to_json_lines() == never_saved,
            "{level}: the loaded battle's log differs from the one never saved"
        );
    }
}
