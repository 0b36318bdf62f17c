//! The window game's UI logic without a window: keys through leafwing, the declaration draft,
//! the hot-seat curtain and hidden declarations, asserted on the declarations and the log.

#![cfg(feature = "gui")]

use std::path::PathBuf;
use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fray::game::controls::{DeclarationOptions, load_bindings};
use fray::game::session::{RoundPacing, Session};
use fray::game::{BattleUi, LaunchOptions, LevelSource, PlayerAction, Screen, Seat, UiCommand};
use fray::rules::CombatState;
use fray::rules::log::{CombatLog, LogEvent};

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
        .entries()
        .iter()
        .filter_map(|entry| match &entry.event {
            LogEvent::Declared { unit, action, .. } => Some((unit.to_string(), action.to_string())),
            _ => None,
        })
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
        .filter_map(|entry| match &entry.event {
            LogEvent::Declared { unit, action, .. } => Some((unit.to_string(), action.to_string())),
            _ => None,
        })
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
    use fray::game::controls::{Settings, default_bindings};
    use fray::game::settings::{DisplaySettings, read_settings, write_settings};
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
    let settings = Settings { bindings, display };
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
fn rebinding_a_key_round_trips_through_the_file_and_reports_conflicts() {
    use fray::game::controls::{Settings, binding_conflicts, binding_name, default_bindings};
    use fray::game::settings::{read_settings, rebind, write_settings};
    assert!(binding_conflicts(&default_bindings()).is_empty(), "the defaults share no key");
    assert_eq!(binding_name(KeyCode::KeyK, false).as_deref(), Some("K"));
    assert_eq!(binding_name(KeyCode::PageDown, false).as_deref(), Some("PageDown"));
    assert_eq!(binding_name(KeyCode::KeyS, true).as_deref(), Some("Ctrl+S"));
    let dir = std::env::temp_dir().join(format!("fray-ui-{}-rebind", std::process::id()));
    let path = dir.join("fray-settings.ron");
    let mut settings = Settings { bindings: Default::default(), display: Default::default() };
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
