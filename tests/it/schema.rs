//! `fray schema KIND`: the schemas kept in `docs/schema/` are exactly what the command prints,
//! and the level schema names the fields real levels use.
//!
//! After changing a RON type on purpose, rewrite the copies with
//! `FRAY_BLESS_SCHEMA=1 cargo test --no-default-features --test it schema::`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use fray::levels::catalog::builtin;
use fray::levels::editor_schema::SchemaKind;
use fray::levels::schema::LevelFile;
use strum::IntoEnumIterator;

fn printed(kind: SchemaKind) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_fray")).args(["schema", kind.name()]).output().expect("fray runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn committed_schemas_equal_what_fray_schema_prints() {
    let bless = std::env::var_os("FRAY_BLESS_SCHEMA").is_some();
    for kind in SchemaKind::iter() {
        let path = Path::new("docs/schema").join(format!("{}.json", kind.name()));
        let fresh = printed(kind);
        if bless {
            std::fs::write(&path, &fresh).expect("docs/schema is writable");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{} differs from `fray schema {}`; the RON types changed: rerun with FRAY_BLESS_SCHEMA=1",
            path.display(),
            kind.name()
        );
    }
}

#[test]
fn schema_files_and_kinds_match_one_to_one() {
    let on_disk: BTreeSet<String> = std::fs::read_dir("docs/schema")
        .expect("docs/schema exists")
        .map(|entry| entry.expect("readable").file_name().to_string_lossy().into_owned())
        .collect();
    let kinds: BTreeSet<String> = SchemaKind::iter().map(|kind| format!("{}.json", kind.name())).collect();
    assert_eq!(on_disk, kinds);
}

fn level_schema() -> serde_json::Value {
    serde_json::from_str(&printed(SchemaKind::Level)).expect("valid JSON")
}

fn names(value: &serde_json::Value) -> BTreeSet<String> {
    value.as_object().expect("an object").keys().cloned().collect()
}

#[test]
fn level_schema_names_every_field_a_level_has_and_no_other() {
    let schema = level_schema();
    // The tutorial: the one level with lessons, the only field a level leaves out when empty.
    let (_, tutorial) =
        builtin::UNLISTED_LEVELS.iter().find(|(name, _)| *name == "tutorial.ron").expect("the tutorial ships");
    let level: LevelFile = ron::from_str(tutorial).expect("the tutorial parses");
    // Serialising writes every field the type has, so this is the level's real field list.
    let serialised = serde_json::to_value(&level).expect("a level serialises");
    assert_eq!(names(&schema["properties"]), names(&serialised));
    let required: BTreeSet<String> =
        schema["required"].as_array().expect("a list").iter().map(|name| name.as_str().unwrap().to_string()).collect();
    assert_eq!(required, ["name", "sides", "units"].map(String::from).into());
    assert_eq!(schema["additionalProperties"], false, "levels deny unknown fields");
}

#[test]
fn every_field_a_shipped_level_writes_is_in_the_level_schema() {
    let properties = names(&level_schema()["properties"]);
    for (file, text) in builtin::LEVELS {
        let ron::Value::Map(fields) = ron::from_str::<ron::Value>(text).expect("parses") else {
            panic!("{file} is not a struct");
        };
        for (key, _) in fields.iter() {
            let ron::Value::String(key) = key else { panic!("{file}: field name {key:?}") };
            assert!(properties.contains(key), "{file} writes `{key}`, which the level schema lacks");
        }
    }
}

#[test]
fn the_dice_pattern_accepts_exactly_what_dice_parse_reads() {
    use fray::vocabulary::dice::{DICE_PATTERN, Dice};
    let pattern = regex::Regex::new(DICE_PATTERN).expect("the pattern compiles");
    let samples = [
        "1d20",
        "2d6+3",
        "1d12-2",
        "d%",
        "D8",
        "4",
        "-2",
        "+3",
        " 3d6 + 1 ",
        "5d8+15",
        "d",
        "2d",
        "d+3",
        "2d6++1",
        "2d6+-1",
        "0d6",
        "2d0",
        "02d06",
        "00d6",
        "x",
        "",
        "1d20x",
        "2x6",
        "d%+2",
        "3d%",
    ];
    for text in samples {
        assert_eq!(pattern.is_match(text), Dice::parse(text).is_ok(), "`{text}`");
    }
}

#[test]
fn the_mod_schema_names_every_manifest_field_and_requires_the_essential_ones() {
    let schema: serde_json::Value = serde_json::from_str(&printed(SchemaKind::Mod)).expect("JSON");
    let properties: BTreeSet<String> = schema["properties"].as_object().expect("an object").keys().cloned().collect();
    let expected = ["authors", "depends_on", "description", "id", "load_after", "name", "requires_fray", "version"];
    assert_eq!(properties, expected.into_iter().map(str::to_string).collect());
    let required: BTreeSet<&str> =
        schema["required"].as_array().expect("a list").iter().filter_map(serde_json::Value::as_str).collect();
    assert_eq!(required, BTreeSet::from(["id", "name", "requires_fray", "version"]));
    let example = std::fs::read_to_string("examples/mods/marsh_folk/mod.ron").expect("the example mod ships");
    let manifest: fray::levels::mods::ModManifest = ron::from_str(&example).expect("the example manifest parses");
    assert_eq!(manifest.id, "marsh_folk");
}
