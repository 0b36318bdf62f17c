//! Loading a level: parse, merge the catalog, check every reference and rule (see
//! [`checker`](super::checker)), and build the battle template that spawns the same battle any
//! number of times; and `fray check` on any kind of file.

use std::path::{Path, PathBuf};

use super::catalog::{AssetSource, Catalog, parse, read_text};
pub use super::checker::{MAX_ZONES, build};
use super::checker::{build_checked, check_catalog};
use super::error::{LoadError, LoadErrors, LoadWarning, SourceMap, not_found};
use super::ruleset_check::ruleset_warnings;
use super::schema::LevelFile;
use super::template::BattleTemplate;
use crate::rules::ruleset::Ruleset;

/// Loads and checks the level at `path`, with the catalog found near it.
pub fn load_level(path: &Path) -> Result<BattleTemplate, LoadErrors> {
    let text = read_text(path)?;
    load_level_text(&text, path, &AssetSource::near(path))
}

/// Loads and checks a level from its text; `path` is used for messages and relative rulesets.
pub fn load_level_text(text: &str, path: &Path, source: &AssetSource) -> Result<BattleTemplate, LoadErrors> {
    check_level_text(text, path, source).map(|checked| checked.template)
}

/// A level that loads, with what looks wrong in it (and in its ruleset) all the same.
#[derive(Debug)]
pub struct CheckedLevel {
    /// The level, ready to spawn.
    pub template: BattleTemplate,
    /// Warnings, in the level's file and its ruleset's.
    pub warnings: Vec<LoadWarning>,
}

/// [`load_level_text`], keeping the warnings.
pub fn check_level_text(text: &str, path: &Path, source: &AssetSource) -> Result<CheckedLevel, LoadErrors> {
    let level: LevelFile = parse(text, path)?;
    let catalog = Catalog::load(source)?;
    let relative_to = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let map = SourceMap::new(text);
    let (ruleset_text, ruleset_path) = match source.ruleset_text(&level.ruleset, &relative_to) {
        Ok(found) => found,
        Err(errors) if errors.0.is_empty() => {
            let names = source.ruleset_names();
            let known: Vec<&str> = names.iter().map(String::as_str).collect();
            let (line, column) = map.locate("ruleset", &level.ruleset, 0);
            let message = not_found("ruleset", &level.ruleset, &known);
            return Err(LoadError::Invalid { path: path.to_path_buf(), line, column, message }.into());
        }
        Err(errors) => return Err(errors),
    };
    let ruleset = parse::<Ruleset>(&ruleset_text, &ruleset_path)?;
    let mut warnings = ruleset_warnings(&ruleset, &ruleset_text, &ruleset_path);
    let (template, level_warnings) = build_checked(level, catalog, ruleset, path, &map)?;
    warnings.extend(level_warnings);
    Ok(CheckedLevel { template, warnings })
}

/// What kind of file `fray check` was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A level.
    Level,
    /// A ruleset.
    Ruleset,
    /// A catalog file (`creatures.ron`, ...).
    Catalog(&'static str),
}

/// Guesses a file's kind from its name and first value.
pub fn file_kind(path: &Path, text: &str) -> FileKind {
    const CATALOG_FILES: [&str; 6] =
        ["creatures.ron", "weapons.ron", "armour.ron", "spells.ron", "items.ron", "injuries.ron"];
    let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    if let Some(known) = CATALOG_FILES.iter().find(|known| **known == name) {
        return FileKind::Catalog(known);
    }
    let first_value =
        text.lines().map(str::trim).find(|line| !line.is_empty() && !line.starts_with("//")).unwrap_or_default();
    let in_rulesets = path.parent().and_then(Path::file_name).is_some_and(|dir| dir == "rulesets");
    if first_value.starts_with("Ruleset") || in_rulesets { FileKind::Ruleset } else { FileKind::Level }
}

/// A file that checks: a one-line summary, and warnings that do not fail it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// What the file holds (`level "Duel": 3 zones, ...`).
    pub summary: String,
    /// What loads but is probably not what was meant.
    pub warnings: Vec<LoadWarning>,
}

impl Checked {
    fn clean(summary: String) -> Self {
        Self { summary, warnings: Vec::new() }
    }
}

/// Checks one file of any kind.
pub fn check_file(path: &Path) -> Result<Checked, LoadErrors> {
    let text = read_text(path)?;
    let source = AssetSource::near(path);
    match file_kind(path, &text) {
        FileKind::Level => {
            let CheckedLevel { template, warnings } = check_level_text(&text, path, &source)?;
            let summary = format!(
                "level \"{}\": {} zones, {} sides, {} units, ruleset {}",
                template.level_name,
                template.battlefield.len(),
                template.sides.len(),
                template.units.len(),
                template.ruleset.name
            );
            Ok(Checked { summary, warnings })
        }
        FileKind::Ruleset => {
            let ruleset = parse::<Ruleset>(&text, path)?;
            let warnings = ruleset_warnings(&ruleset, &text, path);
            Ok(Checked { summary: format!("ruleset \"{}\"", ruleset.name), warnings })
        }
        FileKind::Catalog(name) => {
            // A catalog file is checked together with its siblings, as a level would load them.
            let siblings = AssetSource { dir: path.parent().map(Path::to_path_buf) };
            let catalog = Catalog::load(&siblings)?;
            let count = match name {
                "creatures.ron" => catalog.creatures.len(),
                "weapons.ron" => catalog.weapons.len(),
                "armour.ron" => catalog.armour.len(),
                "spells.ron" => catalog.spells.len(),
                "items.ron" => catalog.items.len(),
                _ => catalog.injuries.0.len(),
            };
            let map = SourceMap::new(&text);
            let mut errors = Vec::new();
            check_catalog(&catalog, &mut |field: &str, value: &str, nth: usize, message: String| {
                let (line, column) = map.locate(field, value, nth);
                errors.push(LoadError::Invalid { path: PathBuf::from(path), line, column, message });
            });
            if errors.is_empty() {
                Ok(Checked::clean(format!("{name}: {count} entries")))
            } else {
                Err(LoadErrors(errors))
            }
        }
    }
}

/// Loads one of the levels built into the binary.
pub fn load_builtin_level(file_name: &str) -> Result<BattleTemplate, LoadErrors> {
    let text = super::catalog::builtin::LEVELS
        .iter()
        .find(|(name, _)| *name == file_name)
        .map(|(_, text)| *text)
        .unwrap_or_default();
    let path = PathBuf::from(format!("<built-in>/levels/{file_name}"));
    let source = AssetSource::default();
    load_level_text(text, &path, &source)
}
