//! Live hot reload without a window: a file written in a watched folder arrives as a message,
//! the menu re-reads an edited level, a battle in progress takes new names as it is and is
//! offered a restart for a rules change, and a broken edit shows its `file:line:column` notice
//! while the last good data stays. Each wait has a timeout; none is a speed test.

#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fray::game::model::session::Session;
use fray::game::watch::{LevelFileChanged, WatchedFolders};
use fray::game::{HotReload, LaunchOptions, LevelChoice, LevelSource, Screen, Seat};
use fray::levels::mods::ModSet;
use fray::rules::components::UnitId;

/// The longest any change may take to arrive before the test fails (a loaded CI machine is slow;
/// the game itself aims at well under a second).
const TIMEOUT: Duration = Duration::from_secs(10);
/// Pause between updates while waiting, so the watcher's thread gets a turn.
const TICK: Duration = Duration::from_millis(5);

/// The shipped duel, as a modder's copy starts.
fn duel_text() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/duel.ron")).expect("levels/duel.ron")
}

/// A fresh folder with a copy of the duel in it; returns the level's path.
fn duel_copy(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-hot-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("duel.ron");
    std::fs::write(&path, duel_text()).expect("the copy is written");
    path
}

/// Replaces the first `from` in the file with `to`, in one write, as an editor saves.
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("the level reads");
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).expect("the level is written");
}

/// A headless game (engine, game logic, hot reload) with these launch options.
fn game(options: LaunchOptions) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, StatesPlugin))
        .add_plugins(fray::headless_plugin)
        .insert_resource(options)
        .add_plugins((fray::game::logic_plugin, fray::game::hot_reload_plugin));
    app.update();
    app.update();
    app
}

/// Updates until `done` holds; returns how long that took, failing after [`TIMEOUT`].
fn wait_for(app: &mut App, what: &str, done: impl Fn(&mut App) -> bool) -> Duration {
    let start = Instant::now();
    while start.elapsed() < TIMEOUT {
        app.update();
        if done(app) {
            return start.elapsed();
        }
        std::thread::sleep(TICK);
    }
    panic!("{what}: still not seen after {TIMEOUT:?}");
}

/// The level files the watcher reported, collected by a test system.
#[derive(Resource, Default)]
struct Seen(Vec<PathBuf>);

fn collect(mut changes: MessageReader<LevelFileChanged>, mut seen: ResMut<Seen>) {
    seen.0.extend(changes.read().map(|change| change.path.clone()));
}

#[test]
fn a_file_written_in_a_folder_added_at_run_time_arrives_as_a_message() {
    let level = duel_copy("message");
    let folder = level.parent().expect("a folder").to_path_buf();
    let mut app = game(LaunchOptions::default());
    app.init_resource::<Seen>().add_systems(Update, collect);
    app.world_mut().resource_mut::<WatchedFolders>().add(folder.clone());
    app.update();
    let fresh = folder.join("new_level.ron");
    std::fs::write(&fresh, duel_text()).expect("written");
    let seen = |app: &mut App| app.world().resource::<Seen>().0.iter().any(|path| path.ends_with("new_level.ron"));
    let took = wait_for(&mut app, "the new file's message", seen);
    eprintln!("watcher to message: {} ms", took.as_millis());
    // A burst of writes (an editor saving in steps) is one change once it settles.
    app.world_mut().resource_mut::<Seen>().0.clear();
    for step in 0..3 {
        std::fs::write(&fresh, format!("{}\n// step {step}", duel_text())).expect("written");
    }
    wait_for(&mut app, "the burst's message", seen);
    for _ in 0..20 {
        app.update();
        std::thread::sleep(TICK);
    }
    let count = app.world().resource::<Seen>().0.iter().filter(|path| path.ends_with("new_level.ron")).count();
    assert_eq!(count, 1, "three quick writes are one change");
}

/// The menu's entry for `path`.
fn menu_entry<'a>(app: &'a App, path: &Path) -> &'a LevelChoice {
    let session = app.world().resource::<Session>();
    session.levels.iter().find(|level| level.source == LevelSource::File(path.to_path_buf())).expect("listed")
}

#[test]
fn the_menu_rereads_an_edited_level_and_shows_a_broken_edit_until_it_is_fixed() {
    let level = duel_copy("menu");
    let mut app = game(LaunchOptions::default());
    {
        let mut session = app.world_mut().resource_mut::<Session>();
        session.levels.push(LevelChoice::load(LevelSource::File(level.clone()), &ModSet::default()));
        let at = session.levels.len() - 1;
        session.select(at);
    }
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu);
    edit(&level, "Duel at the Old Keep", "Duel at the New Keep");
    let renamed = |app: &mut App| menu_entry(app, &level).title == "Duel at the New Keep";
    let took = wait_for(&mut app, "the new name in the menu", renamed);
    eprintln!("write to menu (headless): {} ms", took.as_millis());

    edit(&level, "ruleset: \"stress_and_wounds\",", "ruleset: \"stress_and_wounds\"");
    let broken = |app: &mut App| app.world().resource::<Session>().error.is_some();
    wait_for(&mut app, "the notice of the broken edit", broken);
    let notice = app.world().resource::<Session>().error.clone().unwrap_or_default();
    assert!(notice.contains("duel.ron:"), "the notice names file:line:column: {notice}");
    let entry = menu_entry(&app, &level);
    assert_eq!(entry.title, "Duel at the New Keep", "the last good load stays");
    assert!(entry.template.is_some() && entry.error.is_some());

    edit(&level, "ruleset: \"stress_and_wounds\"", "ruleset: \"stress_and_wounds\",");
    wait_for(&mut app, "the notice to clear once fixed", |app| app.world().resource::<Session>().error.is_none());
    assert!(menu_entry(&app, &level).error.is_none());
}

#[test]
fn a_battle_takes_new_names_as_it_is_and_is_offered_a_restart_for_new_rules() {
    let level = duel_copy("battle");
    let seats = vec![("hunter".to_string(), Seat::Ai(fray::rules::components::AiKind::Greedy))];
    let mut app = game(LaunchOptions { level: Some(LevelSource::File(level.clone())), seats, ..Default::default() });
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    let ruusa = |app: &mut App| {
        let mut units = app.world_mut().query::<(Entity, &UnitId, &Name)>();
        units.iter(app.world()).find(|(_, id, _)| &*id.0 == "ruusa").map(|(entity, _, name)| (entity, name.to_string()))
    };
    let (entity, _) = ruusa(&mut app).expect("ruusa is on the field");

    edit(&level, "Some(\"Ruusa the Hunter\")", "Some(\"Ruusa of the Plains\")");
    wait_for(&mut app, "the unit's new name", |app| ruusa(app).is_some_and(|(_, name)| name == "Ruusa of the Plains"));
    assert_eq!(ruusa(&mut app).map(|(unit, _)| unit), Some(entity), "the same unit, not a new battle");
    assert_eq!(app.world().resource::<Session>().battles, 1, "no restart");
    assert!(app.world().resource::<HotReload>().restart_offer.is_none());

    edit(&level, "seed: Some(7)", "seed: Some(70)");
    wait_for(&mut app, "the restart offer", |app| app.world().resource::<HotReload>().restart_offer.is_some());
    let session = app.world().resource::<Session>();
    assert_eq!(session.battles, 1, "the battle goes on");
    assert_eq!(session.current.as_ref().and_then(|level| level.seed), Some(7), "with the data it started with");

    edit(&level, "units: [", "units: [[");
    wait_for(&mut app, "the broken edit's notice", |app| app.world().resource::<Session>().error.is_some());
    assert_eq!(ruusa(&mut app).map(|(unit, _)| unit), Some(entity), "the last good battle stays in play");
}

#[test]
fn a_ruleset_edited_during_a_battle_offers_a_restart_and_a_broken_one_shows_its_errors() {
    let level = duel_copy("ruleset");
    let root = level.parent().expect("a folder").to_path_buf();
    // The layout a mod has: levels/ and assets/rulesets/ side by side.
    let levels = root.join("levels");
    let rulesets = root.join("assets/rulesets");
    std::fs::create_dir_all(&levels).expect("a levels folder");
    std::fs::create_dir_all(&rulesets).expect("a rulesets folder");
    let level_path = levels.join("duel.ron");
    std::fs::rename(&level, &level_path).expect("the level moves into levels/");
    let ruleset = rulesets.join("stress_and_wounds.ron");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/stress_and_wounds.ron");
    std::fs::copy(shipped, &ruleset).expect("the ruleset is copied");
    let seats = vec![("hunter".to_string(), Seat::Ai(fray::rules::components::AiKind::Greedy))];
    let options = LaunchOptions { level: Some(LevelSource::File(level_path.clone())), seats, ..Default::default() };
    let mut app = game(options);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);

    edit(&ruleset, "name: \"stress_and_wounds\",", "name: \"house_stress_and_wounds\",");
    wait_for(&mut app, "the restart offer", |app| app.world().resource::<HotReload>().restart_offer.is_some());
    let offer = app.world().resource::<HotReload>().restart_offer.clone().unwrap_or_default();
    assert!(offer.contains(&"ruleset"), "{offer:?}");

    edit(&ruleset, "name: \"house_stress_and_wounds\",", "name: \"house_stress_and_wounds\" [[");
    wait_for(&mut app, "the broken ruleset's notice", |app| {
        app.world().resource::<Session>().error.as_ref().is_some_and(|error| error.contains("stress_and_wounds.ron:"))
    });
    edit(&ruleset, "name: \"house_stress_and_wounds\" [[", "name: \"stress_and_wounds\",");
    wait_for(&mut app, "the notice to clear and the offer to go", |app| {
        app.world().resource::<Session>().error.is_none() && app.world().resource::<HotReload>().restart_offer.is_none()
    });
}
