//! The window game's UI logic without a window: keys through leafwing, the declaration draft,
//! the hot-seat curtain and hidden declarations, asserted on the declarations and the log.

#![cfg(feature = "gui")]

use std::path::PathBuf;
use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fray::game::controls::load_bindings;
use fray::game::model::battle_ui::DeclarationOptions;
use fray::game::model::pace::RoundPacing;
use fray::game::model::session::Session;
use fray::game::{BattleUi, LaunchOptions, LevelSource, PlayerAction, Screen, Seat, UiCommand};
use fray::levels::mods::ModSet;
use fray::rules::CombatState;
use fray::rules::log::CombatLog;
use fray::rules::log::line::{self, Line};

/// Two soldiers face to face, and a second pair, so both sides have two units to declare for.
const FACE_OFF: &str = r#"(
    name: "face off",
    zones: [(id: "yard", adjacent: ["gate"]), (id: "gate")],
    sides: [(name: "red"), (name: "blue")],
    units: [
        (id: "r1", creature: "human_fighter", side: "red", zone: "yard"),
        (id: "b1", creature: "bandit", side: "blue", zone: "yard"),
        (id: "r2", creature: "human_fighter", side: "red", zone: "gate"),
        (id: "b2", creature: "bandit", side: "blue", zone: "gate"),
    ],
)"#;

fn level_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-ui-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("face_off.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// A headless app with the engine and the game's logic (no window, no egui), started on `level`.
fn game(level: PathBuf, seats: &[(&str, Seat)], settings: Option<PathBuf>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, StatesPlugin))
        .add_plugins(fray::headless_plugin)
        .insert_resource(LaunchOptions {
            level: Some(LevelSource::File(level)),
            seats: seats.iter().map(|(side, seat)| (side.to_string(), *seat)).collect(),
            seed: Some(5),
            settings,
            ..Default::default()
        })
        .add_plugins(fray::game::logic_plugin);
    app.update();
    app.world_mut().resource_mut::<RoundPacing>().delay = Duration::ZERO;
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle, "the launch options start the battle");
    app
}

/// Presses and releases a key over two frames, as a person would.
fn tap(app: &mut App, key: KeyCode) {
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(key);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().release(key);
    app.update();
}

fn declared(app: &App) -> Vec<(String, String)> {
    app.world()
        .resource::<CombatLog>()
        .lines::<line::Declared>()
        .map(|declared| (declared.unit.to_string(), declared.action.log_name().to_string()))
        .collect()
}

fn kind_index(app: &App, prefix: &str) -> usize {
    let options = app.world().resource::<DeclarationOptions>();
    options
        .kinds
        .iter()
        .position(|(label, _)| label.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in {:?}", options.kinds.iter().map(|k| &k.0).collect::<Vec<_>>()))
}

#[test]
fn a_human_declares_with_the_number_keys_and_enter() {
    let mut app = game(
        level_file("keys", FACE_OFF),
        &[("red", Seat::Human), ("blue", Seat::Ai(fray::rules::components::AiKind::Greedy))],
        None,
    );
    assert!(app.world().resource::<DeclarationOptions>().unit.is_some(), "r1 is asked to declare");
    let attack = kind_index(&app, "Attack");
    tap(&mut app, [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3][attack]);
    assert_eq!(app.world().resource::<BattleUi>().draft.kind, Some(attack));
    // The first target is the bandit in the yard; T cycles to it.
    tap(&mut app, KeyCode::KeyT);
    let options = app.world().resource::<DeclarationOptions>();
    let drafted = options.drafted(&app.world().resource::<BattleUi>().draft).expect("a complete draft");
    assert!(drafted.odds.is_some(), "an attack shows its odds before confirming");
    tap(&mut app, KeyCode::Enter);
    // r2 declares next (round robin: r1, b1, r2, b2 with the AI answering in turn).
    tap(&mut app, KeyCode::KeyE);
    for _ in 0..4 {
        app.update();
    }
    let declared = declared(&app);
    assert!(declared.contains(&("r1".into(), "attack".into())), "{declared:?}");
    assert!(declared.contains(&("r2".into(), "hold".into())), "{declared:?}");
    assert!(app.world().resource::<CombatState>().round >= 1);
}

#[test]
fn hot_seat_lowers_a_curtain_and_hides_declarations_until_resolution() {
    let mut app = game(level_file("curtain", FACE_OFF), &[("red", Seat::Human), ("blue", Seat::Human)], None);
    assert_eq!(app.world().resource::<BattleUi>().curtain, Some(0), "the first player gets a curtain too");
    tap(&mut app, KeyCode::Enter);
    assert_eq!(app.world().resource::<BattleUi>().seated, Some(0), "red holds the seat first");
    let hold = kind_index(&app, "Hold");
    app.world_mut().write_message(UiCommand::ChooseKind(hold));
    app.update();
    app.world_mut().write_message(UiCommand::Confirm);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<BattleUi>().curtain, Some(1), "blue's turn: pass to blue");
    assert!(declared(&app).is_empty(), "nothing declared is shown before everyone has declared");
    // Behind the curtain the battle cannot be touched.
    app.world_mut().write_message(UiCommand::EndDeclaration);
    app.update();
    assert_eq!(app.world().resource::<fray::rules::DeclarationQueue>().done.iter().filter(|done| **done).count(), 1);
    tap(&mut app, KeyCode::Enter);
    let ui = app.world().resource::<BattleUi>();
    assert_eq!((ui.curtain, ui.seated), (None, Some(1)), "Enter lifts the curtain for blue");
    tap(&mut app, KeyCode::KeyE);
    assert_eq!(app.world().resource::<BattleUi>().curtain, Some(0), "and back to red");
    assert!(declared(&app).is_empty());
}

#[test]
fn bindings_come_from_the_settings_file_and_a_bad_file_falls_back_to_the_defaults() {
    let dir = std::env::temp_dir().join(format!("fray-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.ron");
    std::fs::write(&good, r#"(bindings: { "confirm": ["K"] })"#).unwrap();
    let (map, problem) = load_bindings(Some(&good));
    assert!(problem.is_none());
    assert!(!map.get_buttonlike(&PlayerAction::Confirm).unwrap().is_empty());
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(bindings: { \"confirm\": [\"K\" }").unwrap();
    let (map, problem) = load_bindings(Some(&bad));
    let problem = problem.expect("a broken file is reported");
    assert!(problem.contains("bad.ron:1:"), "{problem}");
    assert!(map.get_buttonlike(&PlayerAction::Confirm).is_some(), "the defaults are used");

    let mut app = game(
        level_file("remap", FACE_OFF),
        &[("red", Seat::Human), ("blue", Seat::Ai(fray::rules::components::AiKind::Greedy))],
        Some(good),
    );
    let hold = kind_index(&app, "Hold");
    app.world_mut().write_message(UiCommand::ChooseKind(hold));
    app.update();
    tap(&mut app, KeyCode::KeyK);
    for _ in 0..3 {
        app.update();
    }
    assert!(
        app.world().resource::<fray::rules::DeclarationQueue>().done.first().copied().unwrap_or(false)
            || !declared(&app).is_empty(),
        "K confirms after remapping"
    );
}

/// Runs updates until the battle is over (AI against AI), within a bound.
fn play_to_the_end(app: &mut App) {
    const MAX_UPDATES: usize = 5_000;
    for _ in 0..MAX_UPDATES {
        if app.world().resource::<CombatState>().is_over() {
            return;
        }
        app.update();
    }
    panic!("the battle did not end in {MAX_UPDATES} updates");
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Sends a command and lets it take effect: applied, acted on, and any screen change made.
fn command(app: &mut App, command: UiCommand) {
    const FRAMES_TO_TAKE_EFFECT: usize = 3;
    app.world_mut().write_message(command);
    for _ in 0..FRAMES_TO_TAKE_EFFECT {
        app.update();
    }
}

#[test]
fn after_the_end_restart_and_back_to_menu_work_at_once() {
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("game-over", FACE_OFF), &[("red", greedy), ("blue", greedy)], None);
    play_to_the_end(&mut app);
    command(&mut app, UiCommand::Restart);
    assert_eq!(app.world().resource::<Session>().battles, 2, "Restart after the end starts a new battle");
    assert!(!app.world().resource::<CombatState>().is_over());
    play_to_the_end(&mut app);
    command(&mut app, UiCommand::BackToMenu);
    assert_eq!(screen(&app), Screen::Menu, "Back to menu after the end leaves at once");
}

#[test]
fn leaving_a_battle_in_progress_asks_first() {
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("leave", FACE_OFF), &[("red", Seat::Human), ("blue", greedy)], None);
    for (leave, key) in [(UiCommand::BackToMenu, KeyCode::KeyM), (UiCommand::Restart, KeyCode::KeyR)] {
        command(&mut app, leave);
        assert!(app.world().resource::<BattleUi>().confirm.is_some(), "{leave:?} asks first");
        tap(&mut app, KeyCode::Escape);
        assert!(app.world().resource::<BattleUi>().confirm.is_none(), "Esc stays");
        tap(&mut app, key);
        assert!(app.world().resource::<BattleUi>().confirm.is_some(), "{key:?} asks too");
        command(&mut app, UiCommand::StayInBattle);
        assert_eq!((screen(&app), app.world().resource::<Session>().battles), (Screen::Battle, 1));
    }
    tap(&mut app, KeyCode::KeyM);
    tap(&mut app, KeyCode::Enter);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Menu, "Enter answers yes");
}

#[test]
fn the_key_pressed_for_a_rebind_does_not_also_act_in_the_game() {
    use fray::game::model::settings::KeyCapture;
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("rebind-key", FACE_OFF), &[("red", Seat::Human), ("blue", greedy)], None);
    let paused = |app: &App| app.world().resource::<fray::game::model::pace::Pace>().paused;
    let before = paused(&app);
    app.insert_resource(KeyCapture(true));
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::KeyP);
    app.update();
    // The settings took the key and stopped waiting while it is still held.
    app.insert_resource(KeyCapture(false));
    app.update();
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().release(KeyCode::KeyP);
    app.update();
    assert_eq!(paused(&app), before, "P was the new binding, not a pause");
    tap(&mut app, KeyCode::KeyP);
    assert_ne!(paused(&app), before, "once let go, P pauses again");
}

#[test]
fn fray_play_starts_with_the_levels_own_seed() {
    let seeded = FACE_OFF.replacen("name: \"face off\",", "name: \"face off\",\n    seed: Some(42),", 1);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, StatesPlugin))
        .add_plugins(fray::headless_plugin)
        .insert_resource(LaunchOptions {
            level: Some(LevelSource::File(level_file("seed", &seeded))),
            ..Default::default()
        })
        .add_plugins(fray::game::logic_plugin);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<fray::rules::CombatInfo>().seed, 42);
}

#[test]
fn fray_play_seed_wins_over_the_levels_own_seed() {
    let seeded = FACE_OFF.replacen("name: \"face off\",", "name: \"face off\",\n    seed: Some(42),", 1);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, StatesPlugin))
        .add_plugins(fray::headless_plugin)
        .insert_resource(LaunchOptions {
            level: Some(LevelSource::File(level_file("seed-override", &seeded))),
            seed: Some(7),
            ..Default::default()
        })
        .add_plugins(fray::game::logic_plugin);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<fray::rules::CombatInfo>().seed, 7);
}

#[test]
fn enter_without_a_complete_draft_says_what_is_missing() {
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("hint", FACE_OFF), &[("red", Seat::Human), ("blue", greedy)], None);
    tap(&mut app, KeyCode::Enter);
    assert!(app.world().resource::<BattleUi>().hint.is_some(), "Enter with nothing chosen gives a hint");
    let full_defense = kind_index(&app, "Full defense");
    app.world_mut().write_message(UiCommand::ChooseKind(full_defense));
    app.update();
    let ui = app.world().resource::<BattleUi>();
    let options = app.world().resource::<DeclarationOptions>();
    let drafted = options.drafted(&ui.draft).expect("full defense is drafted whole");
    assert_eq!(drafted.action.move_to, None, "in place");
}

/// Runs updates until a human unit is asked to declare in `round`, within a bound.
fn until_declaring_in_round(app: &mut App, round: u32) {
    const MAX_UPDATES: usize = 2_000;
    for _ in 0..MAX_UPDATES {
        let declaring = app.world().resource::<DeclarationOptions>().unit.is_some();
        if declaring && app.world().resource::<CombatState>().round == round {
            return;
        }
        app.update();
    }
    panic!("no human unit declared in round {round} within {MAX_UPDATES} updates");
}

/// The declarations of `round`, as (unit, action).
fn declared_in_round(app: &App, round: u32) -> Vec<(String, String)> {
    app.world()
        .resource::<CombatLog>()
        .entries()
        .iter()
        .filter(|entry| entry.round == round)
        .filter_map(|entry| line::Declared::of(&entry.event))
        .map(|declared| (declared.unit.to_string(), declared.action.log_name().to_string()))
        .collect()
}

#[test]
fn same_for_all_then_repeat_declare_for_every_unit_of_the_side() {
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("order-all", FACE_OFF), &[("red", Seat::Human), ("blue", greedy)], None);
    let full_defense = kind_index(&app, "Full defense");
    command(&mut app, UiCommand::ChooseKind(full_defense));
    // F: r1 declares it, and r2 too when its turn comes after the AI's b1.
    tap(&mut app, KeyCode::KeyF);
    until_declaring_in_round(&mut app, 2);
    let first = declared_in_round(&app, 1);
    for unit in ["r1", "r2"] {
        assert!(first.contains(&(unit.into(), "full_defense".into())), "{unit} in round 1: {first:?}");
    }
    // G in round 2: both repeat it without another key.
    tap(&mut app, KeyCode::KeyG);
    until_declaring_in_round(&mut app, 3);
    let second = declared_in_round(&app, 2);
    for unit in ["r1", "r2"] {
        assert!(second.contains(&(unit.into(), "full_defense".into())), "{unit} in round 2: {second:?}");
    }
}

#[test]
fn same_for_all_stops_at_a_unit_that_cannot_take_the_order() {
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    // r2 and b2 fight three zones away from the yard, where r1's target stands.
    let apart = FACE_OFF
        .replacen(
            "(id: \"gate\")",
            "(id: \"gate\", adjacent: [\"road\"]), (id: \"road\", adjacent: [\"far\"]), (id: \"far\")",
            1,
        )
        .replace("zone: \"gate\"", "zone: \"far\"");
    assert!(apart.contains("(id: \"far\")") && apart.contains("zone: \"far\""), "{apart}");
    let mut app = game(level_file("order-stops", &apart), &[("red", Seat::Human), ("blue", greedy)], None);
    let attack = kind_index(&app, "Attack");
    command(&mut app, UiCommand::ChooseKind(attack));
    command(&mut app, UiCommand::NextTarget);
    command(&mut app, UiCommand::OrderAll);
    for _ in 0..10 {
        app.update();
    }
    // r2 is out of reach of r1's target: it is left to the player.
    let options = app.world().resource::<DeclarationOptions>();
    assert!(options.unit.is_some(), "r2 still has to declare");
    let hint = app.world().resource::<BattleUi>().hint.clone().unwrap_or_default();
    assert!(hint.contains("cannot take that order"), "the player is told why: {hint:?}");
    let mut units = app.world_mut().query::<(&fray::rules::components::UnitId, &fray::rules::components::Declared)>();
    let kinds: Vec<(String, Option<fray::rules::components::ActionKind>)> = units
        .iter(app.world())
        .map(|(id, declared)| (id.0.to_string(), declared.action.map(|action| action.kind)))
        .collect();
    assert!(kinds.contains(&("r1".into(), Some(fray::rules::components::ActionKind::Attack))), "{kinds:?}");
    assert!(kinds.contains(&("r2".into(), None)), "{kinds:?}");
}

#[test]
fn settings_round_trip_through_the_file_and_keep_their_bindings() {
    use fray::game::controls::default_bindings;
    use fray::game::model::settings::DisplaySettings;
    use fray::game::model::settings::Settings;
    use fray::game::settings::{read_settings, write_settings};
    let dir = std::env::temp_dir().join(format!("fray-ui-{}-settings", std::process::id()));
    let path = dir.join("fray-settings.ron");
    let mut bindings = default_bindings();
    bindings.insert("save".into(), vec!["Ctrl+W".into(), "F5".into()]);
    let display = DisplaySettings {
        ui_scale: 1.25,
        colour_blind_palette: true,
        show_names: false,
        animation_speed: 1.5,
        round_pause: 0.8,
    };
    let settings = Settings { bindings, display, audio: Default::default() };
    write_settings(&path, &settings).unwrap();
    assert_eq!(read_settings(&path).unwrap(), settings);
    let (map, problem) = load_bindings(Some(&path));
    assert_eq!(problem, None);
    assert!(map.get_buttonlike(&PlayerAction::Save).is_some_and(|inputs| inputs.len() == 2));
    // A file with only display settings keeps the default bindings, and the other way round.
    std::fs::write(&path, "(display: (colour_blind_palette: true))").unwrap();
    let only_display = read_settings(&path).unwrap();
    assert!(only_display.bindings.is_empty() && only_display.display.colour_blind_palette);
    assert_eq!(only_display.display.ui_scale, DisplaySettings::default().ui_scale);
    assert_eq!(only_display.display.round_pause, DisplaySettings::default().round_pause);
}

#[test]
fn audio_settings_persist_and_load() {
    use fray::game::model::settings::AudioSettings;
    use fray::game::model::settings::Settings;
    use fray::game::settings::{read_settings, write_settings};
    let dir = std::env::temp_dir().join(format!("fray-ui-{}-audio", std::process::id()));
    let path = dir.join("fray-settings.ron");
    let audio = AudioSettings { master: 0.6, music: 0.25, effects: 0.75, interface: 0.5, muted: true };
    let settings = Settings { bindings: Default::default(), display: Default::default(), audio: audio.clone() };
    write_settings(&path, &settings).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("music: 0.25") && text.contains("muted: true"), "{text}");
    assert_eq!(read_settings(&path).unwrap().audio, audio);
    // A file from before sound keeps the default volumes; one that sets only the music keeps
    // the rest.
    std::fs::write(&path, "(display: (show_names: false))").unwrap();
    assert_eq!(read_settings(&path).unwrap().audio, AudioSettings::default());
    std::fs::write(&path, "(audio: (music: 0.1))").unwrap();
    let read = read_settings(&path).unwrap().audio;
    assert_eq!((read.music, read.master), (0.1, AudioSettings::default().master));
    std::fs::write(&path, "(audio: (loudness: 0.1))").unwrap();
    let error = read_settings(&path).expect_err("an unknown field is an error");
    assert!(error.contains("fray-settings.ron:1:"), "{error}");
}

#[test]
fn rebinding_a_key_round_trips_through_the_file_and_reports_conflicts() {
    use fray::game::controls::{binding_conflicts, binding_name, default_bindings};
    use fray::game::model::settings::Settings;
    use fray::game::settings::{read_settings, rebind, write_settings};
    assert!(binding_conflicts(&default_bindings()).is_empty(), "the defaults share no key");
    assert_eq!(binding_name(KeyCode::KeyK, false).as_deref(), Some("K"));
    assert_eq!(binding_name(KeyCode::PageDown, false).as_deref(), Some("PageDown"));
    assert_eq!(binding_name(KeyCode::KeyS, true).as_deref(), Some("Ctrl+S"));
    let dir = std::env::temp_dir().join(format!("fray-ui-{}-rebind", std::process::id()));
    let path = dir.join("fray-settings.ron");
    let mut settings =
        Settings { bindings: Default::default(), display: Default::default(), audio: Default::default() };
    assert!(rebind(&mut settings, PlayerAction::Pause, "K").is_empty(), "K is free");
    assert_eq!(rebind(&mut settings, PlayerAction::Step, "T"), vec!["next_target"], "T already picks targets");
    write_settings(&path, &settings).unwrap();
    let read = read_settings(&path).unwrap();
    assert_eq!(read, settings);
    assert_eq!(read.bindings["pause"], vec!["K".to_string()]);
    let (map, problem) = load_bindings(Some(&path));
    assert_eq!(problem, None);
    let pause_keys = map.get_buttonlike(&PlayerAction::Pause).expect("pause is bound");
    assert_eq!(pause_keys.len(), 1, "the rebound key replaces the old ones");
}

/// The duel of the replay tests, AI against AI, as `fray sim --log` writes it.
fn logged_duel(name: &str) -> (PathBuf, Vec<String>) {
    use fray::levels::{BattleSetup, load_builtin_level};
    use fray::rules::components::{AiKind, Controller};
    let template = load_builtin_level("duel.ron", &ModSet::default()).expect("the duel loads");
    let greedy = Controller::Ai(AiKind::Greedy);
    let setup = BattleSetup { seed: 3, controllers: vec![(0, greedy), (1, greedy)], record_log: true };
    let mut battle = fray::headless::HeadlessBattle::new();
    battle.start(&template, &setup);
    battle.run_to_end();
    let text = battle.log().to_json_lines();
    let dir = std::env::temp_dir().join(format!("fray-ui-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("duel.jsonl");
    std::fs::write(&path, &text).unwrap();
    (path, text.lines().map(String::from).collect())
}

fn replay_app(path: &std::path::Path) -> App {
    let source =
        fray::game::model::playback::PlaybackSource::open(path, None, &ModSet::default()).expect("the log opens");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, StatesPlugin))
        .add_plugins(fray::headless_plugin)
        .insert_resource(LaunchOptions { playback: Some(source), ..Default::default() })
        .add_plugins(fray::game::logic_plugin);
    for _ in 0..3 {
        app.update();
    }
    app
}

/// Steps the replay and lets the board catch up; returns the events in view.
fn replay_step(app: &mut App, step: fray::game::model::playback::ReplayStep) -> usize {
    const FRAMES_TO_CATCH_UP: usize = 30;
    app.world_mut().write_message(UiCommand::Replay(step));
    for _ in 0..FRAMES_TO_CATCH_UP {
        app.update();
    }
    app.world().resource::<fray::game::model::playback::Playback>().cursor
}

fn logged_lines(app: &App) -> Vec<String> {
    app.world().resource::<CombatLog>().entries().iter().map(|entry| entry.to_json()).collect()
}

#[test]
fn a_replay_shows_the_logged_battle_and_steps_back_by_playing_it_again() {
    use fray::game::model::playback::ReplayStep;
    let (path, lines) = logged_duel("replay");
    let mut app = replay_app(&path);
    assert_eq!(screen(&app), Screen::Battle);
    assert!(app.world().resource::<fray::game::model::pace::Pace>().paused, "a replay opens paused");
    let mut cursor = 0;
    for _ in 0..4 {
        cursor = replay_step(&mut app, ReplayStep::RoundForward);
    }
    let shown = logged_lines(&app);
    assert!(shown.len() >= cursor, "the board has played every event in view");
    assert_eq!(shown[..], lines[..shown.len()], "the board plays the logged battle");
    let round = app.world().resource::<fray::game::model::playback::Playback>().round();
    assert_eq!(round, 3, "four round steps: the opening, then rounds 1 to 3");
    let back = replay_step(&mut app, ReplayStep::RoundBack);
    assert!(back < cursor);
    let shown = logged_lines(&app);
    assert_eq!(shown.len(), back, "the battle was played again only up to the end of round 2");
    assert_eq!(shown[..], lines[..back]);
    let forward = replay_step(&mut app, ReplayStep::EventForward);
    assert_eq!(forward, back + 1);
    assert_eq!(logged_lines(&app)[..forward], lines[..forward]);
}

#[test]
fn leaving_a_replay_half_way_asks_nothing_and_loses_nothing() {
    use fray::game::model::playback::ReplayStep;
    let (path, _) = logged_duel("leave-replay");
    let mut app = replay_app(&path);
    replay_step(&mut app, ReplayStep::RoundForward);
    replay_step(&mut app, ReplayStep::RoundForward);
    assert!(!app.world().resource::<CombatState>().is_over(), "the replayed battle is still on");
    command(&mut app, UiCommand::BackToMenu);
    assert_eq!(app.world().resource::<BattleUi>().confirm, None, "no 'the battle in progress will be lost'");
    assert_eq!(screen(&app), Screen::Menu, "a replay is left at once: its file stays");
}

#[test]
fn a_catch_up_shows_only_what_the_side_may_see() {
    use fray::game::catch_up::{CATCH_UP_LINES, summary};
    let (path, _) = logged_duel("catch-up");
    let source = fray::game::model::playback::PlaybackSource::open(&path, None, &ModSet::default()).unwrap();
    let mut battle = fray::headless::HeadlessBattle::new();
    battle.start(&source.template, &source.setup);
    battle.run_to_end();
    let entries = battle.log().entries();
    let hunter = summary(entries, 0, &["ruusa"]);
    assert!(!hunter.is_empty() && hunter.len() <= CATCH_UP_LINES, "{hunter:?}");
    for line in &hunter {
        assert!(line.starts_with("Round") || line.contains("Ruusa"), "not the hunter's to see: {line}");
    }
    assert!(summary(entries, 0, &[]).is_empty(), "round starts alone are no news");
    assert!(summary(entries, entries.len(), &["ruusa"]).is_empty(), "nothing since now");
}

mod replay_stepping {
    //! The replay viewer's stepping, without a battle: where each step goes and what the board
    //! must do.
    use std::time::Duration;

    use bevy::prelude::default;
    use fray::game::model::pace::{Pace, Speed};
    use fray::game::model::playback::{Drive, EVENT_INTERVAL, Playback, PlaybackSource, ReplayStep};
    use fray::game::model::playing_count::PlayingCount;
    use fray::levels::mods::ModSet;
    use fray::levels::{BattleSetup, load_builtin_level};

    fn playback(rounds: &[u32]) -> Playback {
        let template =
            load_builtin_level(fray::levels::DEFAULT_LEVEL, &ModSet::default()).expect("the default level loads");
        let source = PlaybackSource {
            file: "test.jsonl".into(),
            template,
            setup: BattleSetup::default(),
            declarations: None,
            rounds: rounds.to_vec(),
        };
        Playback::new(source)
    }

    #[test]
    fn steps_move_by_event_and_by_round_and_stop_at_the_ends() {
        let mut view = playback(&[0, 1, 1, 1, 2, 2, 3]);
        view.step(ReplayStep::EventBack);
        assert_eq!(view.cursor, 0);
        view.step(ReplayStep::RoundForward);
        assert_eq!((view.cursor, view.round()), (1, 0));
        view.step(ReplayStep::RoundForward);
        assert_eq!((view.cursor, view.round()), (4, 1));
        view.step(ReplayStep::EventForward);
        assert_eq!((view.cursor, view.round()), (5, 2));
        view.step(ReplayStep::RoundForward);
        assert_eq!((view.cursor, view.round()), (6, 2));
        view.step(ReplayStep::RoundBack);
        assert_eq!((view.cursor, view.round()), (4, 1));
        for _ in 0..10 {
            view.step(ReplayStep::RoundForward);
        }
        assert_eq!((view.cursor, view.round()), (7, 3));
    }

    #[test]
    fn the_board_advances_holds_or_starts_again() {
        let mut view = playback(&[0, 1, 1, 2, 2]);
        view.step(ReplayStep::RoundForward);
        view.step(ReplayStep::RoundForward);
        assert_eq!(view.drive_now(1), Drive::Advance, "round 1 has not been played");
        assert_eq!(view.drive_now(3), Drive::Hold);
        view.step(ReplayStep::EventForward);
        assert_eq!(view.drive_now(3), Drive::Advance, "round 2 goes on from the log's 3 events");
        assert_eq!(view.drive_now(5), Drive::Hold);
        view.step(ReplayStep::EventBack);
        assert_eq!(view.drive(5), Drive::Rebuild, "the board played on from the event now out of view");
    }

    #[test]
    fn playing_shows_an_event_per_interval_once_the_board_caught_up() {
        let mut view = playback(&[0, 1, 1, 2]);
        let none = PlayingCount::default();
        let mut pace = Pace { paused: true, ..default() };
        view.tick(EVENT_INTERVAL, &pace, 0, &none);
        assert_eq!(view.cursor, 0, "paused");
        pace.paused = false;
        view.tick(EVENT_INTERVAL, &pace, 0, &none);
        assert_eq!(view.cursor, 1);
        view.tick(EVENT_INTERVAL, &pace, 0, &none);
        assert_eq!(view.cursor, 1, "the board has not shown event 1 yet");
        pace.speed = Speed::Instant;
        view.tick(Duration::ZERO, &pace, 1, &none);
        assert_eq!(view.cursor, 3, "instant plays a round at a time");
    }
}

#[test]
fn hot_seat_players_get_a_catch_up_from_their_second_turn_on() {
    const TURNS: usize = 12;
    let mut app = game(level_file("catch-up-seat", FACE_OFF), &[("red", Seat::Human), ("blue", Seat::Human)], None);
    let mut summaries = Vec::new();
    for _ in 0..TURNS {
        tap(&mut app, KeyCode::Enter);
        let seated = app.world().resource::<BattleUi>().seated;
        if let Some((side, lines)) = app.world().resource::<fray::game::catch_up::CatchUp>().summary.clone() {
            assert_eq!(Some(side), seated, "the summary is for the player who took the seat");
            summaries.push((side, lines));
        }
        declare_an_attack_or_hold(&mut app);
    }
    assert!(app.world().resource::<CombatState>().round >= 2, "the rounds went on");
    // Blue declares last and watches each round resolve from the seat; red, who gave the seat
    // up before, is told what happened since.
    assert!(!summaries.is_empty() && summaries.iter().all(|(side, _)| *side == 0), "{summaries:?}");
    for line in summaries.iter().flat_map(|(_, lines)| lines) {
        assert!(line.starts_with("Round") || line.contains("[r1]") || line.contains("[r2]"), "not red's: {line}");
    }
}

/// The seated unit attacks the first target on offer, or holds when it cannot attack.
fn declare_an_attack_or_hold(app: &mut App) {
    let options = app.world().resource::<DeclarationOptions>();
    let Some(attack) = options.kinds.iter().position(|(label, _)| label.starts_with("Attack")) else {
        tap(app, KeyCode::KeyE);
        return;
    };
    for command in [UiCommand::ChooseKind(attack), UiCommand::NextTarget, UiCommand::Confirm] {
        app.world_mut().write_message(command);
        app.update();
    }
    app.update();
}

const SHOVING_MATCH: &str = r#"(
    name: "shoving match",
    ruleset: "zones_and_tests",
    zones: [(id: "yard", adjacent: ["gate", "ford", "marsh"]), (id: "gate"), (id: "ford"), (id: "marsh")],
    sides: [(name: "red"), (name: "blue")],
    units: [
        (id: "r1", creature: "human_fighter", side: "red", zone: "yard"),
        (id: "b1", creature: "bandit", side: "blue", zone: "yard"),
    ],
)"#;

#[test]
fn z_stunt_1_a_player_picks_the_zone_a_shove_pushes_into() {
    let blue = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("shove", SHOVING_MATCH), &[("red", Seat::Human), ("blue", blue)], None);
    // Blue may begin: its AI answers first.
    for _ in 0..20 {
        if app.world().resource::<DeclarationOptions>().unit.is_some() {
            break;
        }
        app.update();
    }
    let declarer = app.world().resource::<DeclarationOptions>().unit.expect("r1 declares");
    let shove = kind_index(&app, "Shove");
    let options = app.world().resource::<DeclarationOptions>();
    let labels: Vec<&str> = options.kinds[shove].1.iter().map(|entry| entry.label.as_str()).collect();
    for zone in ["gate", "ford", "marsh"] {
        assert!(
            labels.iter().any(|label| label.ends_with(&format!("pushing into {zone}"))),
            "one shove per zone it may push into: {labels:?}"
        );
    }
    assert!(options.kinds[shove].1.iter().all(|entry| entry.action.push_to.is_some()), "every shove names its zone");
    let marsh = labels.iter().position(|label| label.ends_with("pushing into marsh")).unwrap();
    let chosen = options.kinds[shove].1[marsh].action;
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    tap(&mut app, digits[shove]);
    // T steps through the kind's options, one press per option.
    for _ in 0..=marsh {
        tap(&mut app, KeyCode::KeyT);
    }
    let drafted = app.world().resource::<DeclarationOptions>().drafted(&app.world().resource::<BattleUi>().draft);
    assert_eq!(drafted.map(|entry| entry.action), Some(chosen), "the marsh shove is drafted");
    tap(&mut app, KeyCode::Enter);
    let declared = app.world().get::<fray::rules::components::Declared>(declarer).and_then(|declared| declared.action);
    assert_eq!(declared.map(|action| action.push_to), Some(chosen.push_to), "the declaration keeps the chosen zone");
}

const SPLIT_MOVE: &str = r#"(
    name: "split move",
    ruleset: "crucible",
    zones: [(id: "yard", adjacent: ["gate"]), (id: "gate")],
    sides: [(name: "red"), (name: "blue")],
    units: [
        (id: "r1", creature: "human_fighter", side: "red", zone: "yard"),
        (id: "b1", creature: "bandit", side: "blue", zone: "yard"),
    ],
)"#;

#[test]
fn c_move_1_a_player_strikes_then_moves_on_with_the_then_move_key() {
    let blue = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("split", SPLIT_MOVE), &[("red", Seat::Human), ("blue", blue)], None);
    for _ in 0..20 {
        if app.world().resource::<DeclarationOptions>().unit.is_some() {
            break;
        }
        app.update();
    }
    let declarer = app.world().resource::<DeclarationOptions>().unit.expect("r1 declares");
    let gate = app.world().resource::<fray::battlefield::Battlefield>().find("gate").expect("the gate");
    let attack = kind_index(&app, "Attack");
    let options = app.world().resource::<DeclarationOptions>();
    let in_place = options.kinds[attack]
        .1
        .iter()
        .position(|entry| entry.action.move_to.is_none() && entry.action.target.is_some())
        .expect("an attack where it stands");
    for command in [UiCommand::ChooseKind(attack), UiCommand::ChooseOption(in_place)] {
        app.world_mut().write_message(command);
        app.update();
    }
    assert!(app.world().resource::<DeclarationOptions>().after.contains(&gate), "the gate is in reach after the blow");
    tap(&mut app, KeyCode::KeyB);
    assert!(app.world().resource::<BattleUi>().picking_then_move, "B asks where to move after the action");
    app.world_mut().write_message(UiCommand::PickZone(gate));
    app.update();
    let ui = app.world().resource::<BattleUi>();
    assert_eq!(ui.draft.then_move, Some(gate));
    assert!(!ui.picking_then_move);
    // Escape drops the move after first, and the draft stays.
    tap(&mut app, KeyCode::Escape);
    let ui = app.world().resource::<BattleUi>();
    assert_eq!((ui.draft.then_move, ui.draft.option), (None, Some(in_place)));
    tap(&mut app, KeyCode::KeyB);
    app.world_mut().write_message(UiCommand::PickZone(gate));
    app.update();
    tap(&mut app, KeyCode::Enter);
    let declared = app.world().get::<fray::rules::components::Declared>(declarer).and_then(|declared| declared.action);
    assert_eq!(declared.map(|action| (action.move_to, action.move_after)), Some((None, Some(gate))));
}

const HOLDING_GROUND: &str = r#"(
    name: "holding ground",
    ruleset: "shock_and_cover",
    grid: Some((rows: ["........", "........", "........"], squares_per_zone: 6)),
    sides: [(name: "red"), (name: "blue")],
    units: [
        (id: "r1", creature: "human_fighter", side: "red", at: Some((2, 1))),
        (id: "b1", creature: "bandit", side: "blue", at: Some((7, 1))),
    ],
)"#;

#[test]
fn s_act_2_a_player_names_what_a_held_action_does() {
    let blue = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("hold", HOLDING_GROUND), &[("red", Seat::Human), ("blue", blue)], None);
    // Blue may begin: its AI answers first.
    for _ in 0..20 {
        if app.world().resource::<DeclarationOptions>().unit.is_some() {
            break;
        }
        app.update();
    }
    let declarer = app.world().resource::<DeclarationOptions>().unit.expect("r1 declares");
    let hold = kind_index(&app, "Hold your action");
    let options = app.world().resource::<DeclarationOptions>();
    let entries = &options.kinds[hold].1;
    let labels: Vec<&str> = entries.iter().map(|entry| entry.label.as_str()).collect();
    let strike = labels.iter().position(|label| label.ends_with("then: strike")).expect("a plain held strike");
    assert!(entries[strike].action.held.is_none(), "the plain strike names no plan: {labels:?}");
    let step = labels
        .iter()
        .position(|label| label.contains("then: move to"))
        .unwrap_or_else(|| panic!("a held step away among {labels:?}"));
    let chosen = entries[step].action;
    assert!(chosen.held.is_some_and(|plan| plan.move_to.is_some()), "the step names where: {labels:?}");
    app.world_mut().write_message(UiCommand::ChooseKind(hold));
    app.update();
    // Each NextTarget steps to the kind's next option.
    for _ in 0..=step {
        app.world_mut().write_message(UiCommand::NextTarget);
        app.update();
    }
    let drafted = app.world().resource::<DeclarationOptions>().drafted(&app.world().resource::<BattleUi>().draft);
    assert_eq!(drafted.map(|entry| entry.action), Some(chosen), "the held step is drafted");
    app.world_mut().write_message(UiCommand::Confirm);
    app.update();
    let declared = app.world().get::<fray::rules::components::Declared>(declarer).and_then(|declared| declared.action);
    assert_eq!(declared.map(|action| action.held), Some(chosen.held), "the declaration keeps the held plan");
}

/// Where the round stands: its number, phase and next slot.
fn stand(app: &App) -> (u32, fray::rules::CombatPhase, usize) {
    let state = app.world().resource::<CombatState>();
    (state.round, state.phase, state.cursor)
}

#[test]
fn the_window_resolves_a_round_count_by_count_and_a_step_plays_one() {
    use fray::game::model::pace::{Pace, ROUND_PAUSE};
    use fray::game::model::playing_count::PlayingCount;
    use fray::rules::{CombatPhase, ResolveByCount};
    let greedy = Seat::Ai(fray::rules::components::AiKind::Greedy);
    let mut app = game(level_file("by-count", FACE_OFF), &[("red", greedy), ("blue", greedy)], None);
    app.world_mut().insert_resource(ResolveByCount);
    app.world_mut().resource_mut::<Pace>().paused = true;
    for _ in 0..5 {
        app.update();
    }
    let still = stand(&app);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(stand(&app), still, "paused, nothing resolves");
    let mut single_counts = 0;
    for _ in 0..16 {
        let before = stand(&app);
        app.world_mut().write_message(UiCommand::Step);
        for _ in 0..3 {
            app.update();
        }
        let after = stand(&app);
        if before.1 == CombatPhase::Resolve && after.0 == before.0 && after.2 > before.2 {
            let state = app.world().resource::<CombatState>();
            let mut counts: Vec<i32> = state.schedule[before.2..after.2].iter().map(|slot| slot.initiative).collect();
            counts.dedup();
            assert_eq!(counts.len(), 1, "one step resolved several counts: {counts:?}");
            single_counts += 1;
        }
    }
    assert!(single_counts >= 2, "steps walked the counts one by one only {single_counts} times");
    // Played at 1x, a count stays on the board while it plays out, and then the next resolves.
    app.world_mut().resource_mut::<RoundPacing>().delay = ROUND_PAUSE;
    let mut more_to_come = false;
    for _ in 0..16 {
        app.world_mut().write_message(UiCommand::Step);
        for _ in 0..3 {
            app.update();
        }
        let state = app.world().resource::<CombatState>();
        if state.phase == CombatPhase::Resolve && state.cursor < state.schedule.len() {
            more_to_come = true;
            break;
        }
    }
    assert!(more_to_come, "no round with a count still to come");
    app.world_mut().resource_mut::<Pace>().paused = false;
    let on_show = stand(&app);
    app.update();
    app.update();
    assert_eq!(stand(&app), on_show, "the next count resolved while this one was on show");
    let length = app.world().resource::<PlayingCount>().length();
    let started = std::time::Instant::now();
    // Frames a tenth of a second apart, as a slow window's would be.
    for _ in 0..60 {
        std::thread::sleep(Duration::from_millis(100));
        app.update();
        if stand(&app) != on_show {
            break;
        }
    }
    let waited = started.elapsed().as_secs_f32();
    assert!(waited >= length * 0.9, "the next count came after {waited} s, before the count's {length} s were up");
    assert_ne!(stand(&app), on_show, "the next count never came after the count's {length} s");
}

#[test]
fn learn_to_play_starts_the_tutorial_and_its_lessons_wait_for_the_player() {
    use fray::game::tutorial::{StartTutorial, Tutorial};
    use fray::levels::lessons::LessonGoal;
    let mut app = game(level_file("tutorial", FACE_OFF), &[("red", Seat::Human)], None);
    assert!(app.world().resource::<Tutorial>().lessons.is_empty(), "an ordinary level teaches nothing");
    app.world_mut().write_message(StartTutorial::default());
    for _ in 0..3 {
        app.update();
    }
    let session = app.world().resource::<Session>();
    let level = session.current.as_ref().map(|template| template.level_name.clone());
    assert_eq!(level.as_deref(), Some("Learn to Play: the Training Yard"));
    let tutorial = app.world().resource::<Tutorial>().clone();
    assert!(tutorial.lessons.len() >= 5 && tutorial.at == 0, "{tutorial:?}");
    assert_eq!(tutorial.lessons[0].until, LessonGoal::Continue);
    // A lesson to read holds the battle: no round starts under it.
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(app.world().resource::<CombatState>().round, 0, "the battle went on under a lesson to read");
    app.world_mut().write_message(UiCommand::NextLesson);
    app.update();
    assert_eq!(app.world().resource::<Tutorial>().at, 1, "Continue moves on");
}

/// Updates until a human unit is asked to declare.
fn until_declaring(app: &mut App) {
    const MOST_FRAMES: usize = 100;
    for _ in 0..MOST_FRAMES {
        if app.world().resource::<DeclarationOptions>().unit.is_some() {
            return;
        }
        app.update();
    }
    panic!("nobody human was asked to declare");
}

#[test]
fn the_sight_and_cover_course_waits_for_a_shot_at_a_target_in_the_cover_it_asks_for() {
    use fray::battlefield::Square;
    use fray::game::tutorial::{Course, StartTutorial, Tutorial};
    use fray::levels::lessons::{LessonGoal, TaughtCover};
    let mut app = game(level_file("grid-tutorial", FACE_OFF), &[("red", Seat::Human)], None);
    app.world_mut().write_message(StartTutorial(Course::SightAndCover));
    for _ in 0..3 {
        app.update();
    }
    let level = app.world().resource::<Session>().current.as_ref().map(|template| template.level_name.clone());
    assert_eq!(level.as_deref(), Some("Learn to Play: Sight and Cover"));
    let lessons = app.world().resource::<Tutorial>().lessons.clone();
    assert!(lessons.iter().all(|lesson| !lesson.title.is_empty() && !lesson.text.is_empty()), "{lessons:?}");
    assert_eq!(lessons.last().map(|lesson| lesson.until), Some(LessonGoal::Continue), "it ends on a word to read");
    let lesson_for = |goal: LessonGoal| lessons.iter().position(|lesson| lesson.until == goal);
    let (Some(half), Some(open)) =
        (lesson_for(LessonGoal::Shoot(TaughtCover::Half)), lesson_for(LessonGoal::Shoot(TaughtCover::Open)))
    else {
        panic!("the course asks for a shot in half cover and one in the open: {lessons:?}");
    };
    assert_eq!(open, half + 1, "the shot in the open follows the one in cover");
    // Skip to the shot in the open (the move and the shot in cover before it too).
    for _ in 0..open {
        command(&mut app, UiCommand::NextLesson);
    }
    assert_eq!(app.world().resource::<Tutorial>().at, open);
    // Tamsin sees nobody where she starts. She shoots the archer after moving to (7, 2), where the
    // end of the wall gives him half cover: not what the lesson asks.
    shoot_from(&mut app, "archer", Some(Square::new(7, 2)));
    assert_eq!(app.world().resource::<Tutorial>().at, open, "a shot in half cover ended the lesson on the open");
    // From there the guard stands in the open.
    shoot_from(&mut app, "guard", None);
    assert_eq!(app.world().resource::<Tutorial>().at, open + 1, "the shot in the open did not end its lesson");
}

/// The human declaring attacks the unit with level id `target`, moving first to `square`.
fn shoot_from(app: &mut App, target: &str, square: Option<fray::battlefield::Square>) {
    use fray::battlefield::Battlefield;
    use fray::rules::components::UnitId;
    until_declaring(app);
    let world = app.world_mut();
    let target = world.query::<(Entity, &UnitId)>().iter(world).find(|(_, id)| &*id.0 == target).map(|(unit, _)| unit);
    let move_to = square.and_then(|square| app.world().resource::<Battlefield>().zone_at(square));
    let options = app.world().resource::<DeclarationOptions>();
    let (kind, option) = options
        .kinds
        .iter()
        .enumerate()
        .find_map(|(kind, (label, entries))| {
            let shot =
                entries.iter().position(|entry| entry.action.target == target && entry.action.move_to == move_to);
            shot.filter(|_| label.starts_with("Attack")).map(|shot| (kind, shot))
        })
        .expect("an attack at the target from there");
    command(app, UiCommand::ChooseKind(kind));
    command(app, UiCommand::ChooseOption(option));
    command(app, UiCommand::Confirm);
}

#[test]
fn a_side_handed_to_the_ai_plays_on_without_its_player_and_comes_back() {
    use fray::rules::components::{AiKind, Controller, SideIndex};
    let greedy = Seat::Ai(AiKind::Greedy);
    let mut app = game(level_file("hand-over", FACE_OFF), &[("red", Seat::Human), ("blue", greedy)], None);
    assert!(app.world().resource::<DeclarationOptions>().unit.is_some(), "red is asked to declare");
    app.world_mut().write_message(UiCommand::SetSeat(0, greedy));
    for _ in 0..40 {
        app.update();
    }
    assert!(app.world().resource::<CombatState>().round >= 3, "the AI played red's rounds");
    assert_eq!(app.world().resource::<Session>().seats[0], greedy, "the seat shows the handover");
    app.world_mut().write_message(UiCommand::SetSeat(0, Seat::Human));
    app.update();
    let world = app.world_mut();
    let mut units = world.query::<(&SideIndex, &Controller)>();
    assert!(
        units.iter(world).filter(|(side, _)| side.0 == 0).all(|(_, controller)| *controller == Controller::Human),
        "red is taken back"
    );
}
