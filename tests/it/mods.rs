//! Mods as folders: the example mod loads, checks (reporting its override) and plays to the end;
//! two mods that change the same entry give the later one's in either order; a missing
//! dependency, a cycle and a too-new `requires_fray` are each one error naming the mod and its
//! `mod.ron`; a save made with a mod is refused once the mod changed; a mod's textures and icons
//! count only for the loads made with it.

use std::path::{Path, PathBuf};
use std::process::Command;

use fray::headless::HeadlessBattle;
use fray::levels::catalog::{AssetSource, Catalog};
use fray::levels::mods::{ModError, ModSet};
use fray::levels::{BattleSetup, check_mod, load_builtin_level, load_level, load_level_text};
use fray::save::{SaveError, capture, level_of};

const EXAMPLE: &str = "examples/mods/marsh_folk";
const EXAMPLE_LEVEL: &str = "examples/mods/marsh_folk/levels/reed_ford.ron";
/// A `requires_fray` every build of this Fray meets.
const ANY_FRAY: &str = ">=0.0.0";

/// A scratch folder for this test's mods.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-mod-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a mod `id` in `root` with these manifest lines and files.
fn write_mod(root: &Path, id: &str, manifest_extra: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = format!(
        "Mod(\n    id: \"{id}\",\n    name: \"{id}\",\n    version: \"1.0.0\",\n    requires_fray: \"{ANY_FRAY}\",\n{manifest_extra})\n"
    );
    std::fs::write(dir.join("mod.ron"), manifest).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn ghoul_with(hd: &str) -> String {
    format!(
        "{{\n    \"ghoul\": (\n        name: \"Ghoul\",\n        hd: \"{hd}\",\n        weapon: \"ghoul_claws\",\n        speed: 2,\n    ),\n}}\n"
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn the_one_error(dirs: &[PathBuf]) -> ModError {
    let errors = ModSet::open(dirs).expect_err("the mods do not load");
    assert_eq!(errors.len(), 1, "exactly one error: {errors:#?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn the_example_mod_loads_and_checks_reporting_its_override() {
    let mods = ModSet::open(&[PathBuf::from(EXAMPLE)]).expect("the example mod opens");
    let example = mods.iter().next().expect("one mod");
    let checked = check_mod(example, &mods).unwrap_or_else(|errors| panic!("the example mod checks:\n{errors}"));
    assert_eq!(checked.summary, "mod `marsh_folk` 1.0.0: 1 creature, 1 weapon, 1 ruleset, 1 level");
    assert_eq!(checked.notes.len(), 1, "{:?}", checked.notes);
    assert!(
        checked.notes[0].ends_with("note: mod `marsh_folk` replaces weapon `spear` from the built-in catalog"),
        "{}",
        checked.notes[0]
    );
    let catalog = Catalog::load(&AssetSource::with_mods(mods)).expect("the catalog loads");
    assert!(catalog.creatures.contains_key("marsh_goblin"));
    assert!(catalog.has_icon("marsh-goblin"), "the mod's icons/marsh-goblin.png is an icon");
    assert_eq!(catalog.weapons["spear"].attack_bonus, 1, "the mod's barbed spear replaced the built-in one");
}

#[test]
fn fray_check_on_the_example_mod_passes_and_prints_the_override() {
    let data = scratch("cli-data");
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["check", "--mod", EXAMPLE])
        .env("FRAY_DATA_DIR", &data)
        .output()
        .expect("fray runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("examples/mods/marsh_folk/weapons.ron:"), "{stdout}");
    assert!(stdout.contains("note: mod `marsh_folk` replaces weapon `spear` from the built-in catalog"), "{stdout}");
    assert!(stdout.contains("ok: examples/mods/marsh_folk: mod `marsh_folk` 1.0.0"), "{stdout}");
}

#[test]
fn the_example_level_plays_to_combat_ended_with_the_mods_creature_icon_and_ruleset() {
    let template = load_level(Path::new(EXAMPLE_LEVEL), &ModSet::default())
        .unwrap_or_else(|errors| panic!("the level loads:\n{errors}"));
    assert_eq!(&*template.ruleset.name, "reed_skirmish");
    assert!(template.units.iter().any(|unit| &*unit.icon == "marsh-goblin"), "the goblins show the mod's icon");
    let icon = Path::new(EXAMPLE).join("icons/marsh-goblin.png");
    assert_eq!(template.pictures.icons.get("marsh-goblin"), Some(&icon), "the window finds the icon's PNG");
    assert_eq!(template.mods.iter().map(|stamp| stamp.id.as_str()).collect::<Vec<_>>(), ["marsh_folk"]);
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 3, controllers: Vec::new(), record_log: true });
    battle.run_to_end();
    let log = battle.log().to_json_lines();
    assert!(log.lines().last().is_some_and(|line| line.contains("\"combat_ended\"")), "the battle ends: {log}");
}

#[test]
fn a_mods_texture_and_icon_belong_to_the_loads_made_with_that_mod_only() {
    let root = scratch("pictures");
    let dir = write_mod(&root, "reeds", "", &[]);
    for folder in ["textures", "icons"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    // The check looks for the file only; the window decodes it.
    std::fs::write(dir.join("textures/reeds.png"), "a picture").unwrap();
    std::fs::write(dir.join("icons/reed-cutter.png"), "a picture").unwrap();
    let with_mod = ModSet::open(std::slice::from_ref(&dir)).expect("the mod opens");
    let (_, duel) = fray::levels::catalog::builtin::level("duel.ron").expect("the duel is shipped");
    let textured = duel.replacen("(id: \"east_gate\",", "(id: \"east_gate\", texture: Some(\"reeds\"),", 1);
    assert_ne!(textured, duel, "the zone takes the texture");
    let path = root.join("reed_duel.ron");
    let template = load_level_text(&textured, &path, &AssetSource::with_mods(with_mod))
        .unwrap_or_else(|errors| panic!("the mod brings the texture:\n{errors}"));
    assert_eq!(template.pictures.textures.get("reeds"), Some(&dir.join("textures/reeds.png")));
    assert_eq!(template.pictures.icons.get("reed-cutter"), Some(&dir.join("icons/reed-cutter.png")));
    // Loaded after it in the same process, without the mod, the texture is unknown again.
    let errors = load_level_text(&textured, &path, &AssetSource::default()).expect_err("no mod brings the texture");
    assert!(errors.to_string().contains("texture \"reeds\" not found"), "{errors}");
    let plain = load_builtin_level("duel.ron", &ModSet::default()).expect("the duel loads");
    assert_eq!(plain.pictures, fray::levels::ModPictures::default(), "a level without mods has no mod pictures");
}

#[test]
fn the_later_mod_wins_a_conflicting_entry_in_either_order() {
    let root = scratch("conflict");
    let a = write_mod(&root, "a", "", &[("creatures.ron", &ghoul_with("3d8"))]);
    let b = write_mod(&root, "b", "", &[("creatures.ron", &ghoul_with("4d8"))]);
    for (order, winner, loser_note) in [
        ([a.clone(), b.clone()], "4d8", "mod `b` replaces creature `ghoul` from `a`"),
        ([b.clone(), a.clone()], "3d8", "mod `a` replaces creature `ghoul` from `b`"),
    ] {
        let mods = ModSet::open(&order).expect("both load");
        let catalog = Catalog::load(&AssetSource::with_mods(mods)).expect("the catalog loads");
        assert_eq!(catalog.creatures["ghoul"].hd.to_string(), winner);
        let notes: Vec<String> = catalog.overrides.iter().map(ToString::to_string).collect();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].ends_with("replaces creature `ghoul` from the built-in catalog"), "{notes:?}");
        assert_eq!(notes[1], loser_note);
    }
}

#[test]
fn a_missing_dependency_is_one_error_naming_the_mod_and_its_manifest() {
    let root = scratch("missing");
    let top = write_mod(&root, "top", "    depends_on: [\"base\"],\n", &[]);
    let error = the_one_error(&[top]);
    let message = error.to_string();
    let manifest = root.join("top/mod.ron").display().to_string();
    assert!(message.starts_with(&format!("{manifest}:6:18: ")), "{message}");
    assert!(message.contains("mod `top` depends on mod `base`, which is not enabled"), "{message}");
}

#[test]
fn a_cycle_is_one_error_naming_the_mod_and_its_manifest() {
    let root = scratch("cycle");
    let a = write_mod(&root, "a", "    depends_on: [\"b\"],\n", &[]);
    let b = write_mod(&root, "b", "    load_after: [\"a\"],\n", &[]);
    let message = the_one_error(&[a, b]).to_string();
    let manifest = root.join("a/mod.ron").display().to_string();
    assert!(message.starts_with(&format!("{manifest}:6:")), "{message}");
    assert!(message.contains("mod `a` is in a load-order cycle (a -> b -> a)"), "{message}");
}

#[test]
fn a_too_new_requires_fray_is_one_error_naming_the_mod_and_its_manifest() {
    let root = scratch("future");
    let dir = write_mod(&root, "future", "", &[]);
    let manifest = std::fs::read_to_string(dir.join("mod.ron")).unwrap().replace(ANY_FRAY, ">=99.0");
    std::fs::write(dir.join("mod.ron"), manifest).unwrap();
    let message = the_one_error(std::slice::from_ref(&dir)).to_string();
    let path = dir.join("mod.ron").display().to_string();
    assert!(message.starts_with(&format!("{path}:5:20: ")), "{message}");
    assert!(message.contains("mod `future` requires Fray >=99.0, but this is Fray"), "{message}");
}

#[test]
fn errors_in_a_mods_files_keep_their_place_and_name_the_mod() {
    let root = scratch("broken");
    let broken =
        write_mod(&root, "broken", "", &[("creatures.ron", &ghoul_with("2d8").replace("ghoul_claws", "ghoul_clawz"))]);
    let mods = ModSet::open(std::slice::from_ref(&broken)).expect("the manifest is fine");
    let errors = Catalog::load(&AssetSource::with_mods(mods)).expect_err("the weapon does not exist");
    let message = errors.to_string();
    let file = broken.join("creatures.ron").display().to_string();
    assert!(message.starts_with(&format!("{file}:5:17: mod `broken`: creature \"ghoul\": weapon \"ghoul_clawz\" not found; did you mean \"ghoul_claws\"?")), "{message}");
}

#[test]
fn a_save_made_with_a_mod_is_refused_once_the_mod_changed() {
    let root = scratch("save");
    let copy = root.join("marsh_folk");
    copy_dir(Path::new(EXAMPLE), &copy);
    let level = copy.join("levels/reed_ford.ron");
    let template = load_level(&level, &ModSet::default()).unwrap_or_else(|errors| panic!("the level loads:\n{errors}"));
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 1, controllers: Vec::new(), record_log: true });
    battle.run(20);
    let save = capture(battle.world_mut(), &template);
    assert_eq!(save.mods, template.mods, "the save names its mods");
    let path = root.join("save.ron");
    save.write(&path).unwrap();
    level_of(&save, &path, &ModSet::default()).expect("the unchanged mod loads the save");

    let weapons = copy.join("weapons.ron");
    let changed = std::fs::read_to_string(&weapons).unwrap().replace("attack_bonus: 1", "attack_bonus: 2");
    std::fs::write(&weapons, changed).unwrap();
    let error = level_of(&save, &path, &ModSet::default()).expect_err("a changed mod is refused");
    assert!(matches!(error, SaveError::Mods { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("mod `marsh_folk` 1.0.0 changed since the battle was played"), "{message}");
}

#[test]
fn saves_without_mods_write_no_mods_field_and_old_saves_read_as_none() {
    let template = fray::levels::load_builtin_level("duel.ron", &ModSet::default()).expect("the duel loads");
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 1, controllers: Vec::new(), record_log: true });
    battle.run(5);
    let save = capture(battle.world_mut(), &template);
    assert!(save.mods.is_empty());
    let text = save.to_text();
    assert!(!text.contains("mods:"), "an unmodded save looks as saves always did");
    let path = scratch("old").join("duel.ron");
    save.write(&path).unwrap();
    let read = fray::save::SaveFile::read(&path).expect("reads back");
    assert!(read.mods.is_empty());
    level_of(&read, &path, &ModSet::default()).expect("loads");
}

#[test]
fn the_installed_list_keeps_the_enabled_order_and_puts_errors_beside_their_mod() {
    use fray::levels::mods::{installed_entries, save_enabled};
    let root = scratch("installed");
    write_mod(&root, "a", "", &[]);
    write_mod(&root, "b", "    depends_on: [\"missing\"],\n", &[]);
    write_mod(&root, "c", "", &[]);
    let folders = |entries: &[fray::levels::mods::ModEntry]| -> Vec<(String, bool, usize)> {
        entries.iter().map(|entry| (entry.folder_name(), entry.enabled, entry.errors.len())).collect()
    };
    let mut entries = installed_entries(&root);
    let owned = |name: &str, enabled, errors| (name.to_string(), enabled, errors);
    assert_eq!(folders(&entries), [owned("a", true, 0), owned("b", true, 1), owned("c", true, 0)]);
    assert!(entries[1].errors[0].contains("mod `b` depends on mod `missing`"), "{:?}", entries[1].errors);

    entries[1].enabled = false;
    entries.swap(0, 2);
    save_enabled(&root, &entries).unwrap();
    let again = installed_entries(&root);
    assert_eq!(folders(&again), [owned("c", true, 0), owned("a", true, 0), owned("b", false, 0)]);
}

/// The game's logic in a headless app with `mods` in play, after its first frame.
#[cfg(feature = "gui")]
fn menu_with(mods: ModSet) -> bevy::app::App {
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::input::InputPlugin, bevy::state::app::StatesPlugin))
        .add_plugins(fray::headless_plugin)
        .insert_resource(fray::levels::mods::ActiveMods(mods))
        .add_plugins(fray::game::logic_plugin);
    app.update();
    app
}

#[cfg(feature = "gui")]
#[test]
fn each_window_lists_the_levels_of_its_own_mods() {
    let titles = |app: &bevy::app::App| -> Vec<String> {
        app.world().resource::<fray::game::Session>().levels.iter().map(|level| level.title.clone()).collect()
    };
    let example = ModSet::open(&[PathBuf::from(EXAMPLE)]).expect("the example mod opens");
    let modded = menu_with(example);
    let plain = menu_with(ModSet::default());
    let from_the_mod = |title: &String| title.starts_with("Marsh Folk: ");
    assert!(titles(&modded).iter().any(from_the_mod), "{:?}", titles(&modded));
    assert!(!titles(&plain).iter().any(from_the_mod), "the other app has no mods: {:?}", titles(&plain));
}
