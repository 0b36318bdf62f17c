//! Loading a level: parse, merge the catalog, check every reference and rule (see
//! [`checker`](super::checker)), and build the battle template that spawns the same battle any
//! number of times; and `fray check` on any kind of file.

use std::path::{Path, PathBuf};

use super::catalog::{AssetSource, Catalog, builtin, parse, read_text};
pub use super::checker::{MAX_ZONES, build};
use super::checker::{build_checked, check_catalog};
use super::error::{LoadError, LoadErrors, LoadWarning, SourceMap, not_found};
use super::mods::ModSet;
use super::ruleset_check::ruleset_warnings;
use super::schema::LevelFile;
use super::template::BattleTemplate;
use crate::rules::ruleset::Ruleset;

/// Loads and checks the level at `path`, with the catalog found near it and `mods` over it
/// (and the mod the file is in).
pub fn load_level(path: &Path, mods: &ModSet) -> Result<BattleTemplate, LoadErrors> {
    let text = read_text(path)?;
    load_level_text(&text, path, &AssetSource::near(path, mods))
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
    let (mut template, level_warnings) = build_checked(level, catalog, ruleset, path, &map)?;
    template.mods = source.mods.stamps();
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
    /// The glossary of rules words (`glossary.ron`).
    Glossary,
    /// The mapping from log events to sounds (`sounds.ron`), which the window game plays.
    Sounds,
}

/// The sound mapping's file name (`assets/sounds.ron`).
const SOUNDS_FILE: &str = "sounds.ron";

/// The glossary's file name (`assets/glossary.ron`).
const GLOSSARY_FILE: &str = "glossary.ron";

/// Guesses a file's kind from its name and first value.
pub fn file_kind(path: &Path, text: &str) -> FileKind {
    const CATALOG_FILES: [&str; 6] =
        ["creatures.ron", "weapons.ron", "armour.ron", "spells.ron", "items.ron", "injuries.ron"];
    let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    if let Some(known) = CATALOG_FILES.iter().find(|known| **known == name) {
        return FileKind::Catalog(known);
    }
    if name == GLOSSARY_FILE {
        return FileKind::Glossary;
    }
    if name == SOUNDS_FILE {
        return FileKind::Sounds;
    }
    let first_value =
        text.lines().map(str::trim).find(|line| !line.is_empty() && !line.starts_with("//")).unwrap_or_default();
    let in_rulesets = path.parent().and_then(Path::file_name).is_some_and(|dir| dir == "rulesets");
    if first_value.starts_with("Ruleset") || in_rulesets { FileKind::Ruleset } else { FileKind::Level }
}

/// Checks a sound mapping: its fields where the window game is built in, its RON otherwise.
#[cfg(feature = "gui")]
fn check_sounds(text: &str, path: &Path) -> Result<Checked, LoadErrors> {
    let map = parse::<crate::game::audio::cues::SoundMap>(text, path)?;
    Ok(Checked::clean(format!("sound mapping: {} cues, {} events silent", map.cues.len(), map.silent.len())))
}

/// Checks a sound mapping: its fields where the window game is built in, its RON otherwise.
#[cfg(not(feature = "gui"))]
fn check_sounds(text: &str, path: &Path) -> Result<Checked, LoadErrors> {
    parse::<ron::Value>(text, path)?;
    Ok(Checked::clean("sound mapping: read as RON (this build has no window game to check its fields)".into()))
}

/// A file that checks: a one-line summary, and warnings that do not fail it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Checked {
    /// What the file holds (`level "Duel": 3 zones, ...`).
    pub summary: String,
    /// What loads but is probably not what was meant.
    pub warnings: Vec<LoadWarning>,
    /// What is worth knowing and fine: entries a mod replaces on purpose.
    pub notes: Vec<String>,
}

impl Checked {
    fn clean(summary: String) -> Self {
        Self { summary, ..Self::default() }
    }
}

/// Checks one file of any kind, with `mods` (and the mod the file is in) over the catalog; a
/// shipped level named when no such file exists (see [`builtin_level_for`]) is checked as
/// built into the binary.
pub fn check_file(path: &Path, mods: &ModSet) -> Result<Checked, LoadErrors> {
    if let Some(file_name) = builtin_level_for(path) {
        let text = builtin::level(file_name).map(|(_, text)| text).unwrap_or_default();
        return check_level(text, &builtin_path(file_name), &AssetSource::with_mods(mods.clone()));
    }
    let text = read_text(path)?;
    let source = AssetSource::near(path, mods);
    match file_kind(path, &text) {
        FileKind::Level => check_level(&text, path, &source),
        FileKind::Ruleset => {
            let ruleset = parse::<Ruleset>(&text, path)?;
            let warnings = ruleset_warnings(&ruleset, &text, path);
            Ok(Checked { summary: format!("ruleset \"{}\"", ruleset.name), warnings, notes: Vec::new() })
        }
        FileKind::Sounds => check_sounds(&text, path),
        FileKind::Glossary => {
            let glossary = crate::rules::glossary::Glossary::load(&text, path).map_err(|error| match error {
                crate::rules::glossary::GlossaryError::Load(error) => LoadErrors(vec![error]),
            })?;
            let summary =
                format!("glossary: {} terms, {} ruleset overviews", glossary.terms.len(), glossary.overviews.len());
            Ok(Checked::clean(summary))
        }
        FileKind::Catalog(_) if super::mods::owner_of(path).is_some() => {
            // A mod's catalog file adds to the built-in catalog, so it is checked as the mod.
            let catalog = Catalog::load(&source)?;
            let notes = override_notes(&catalog, |over| over.path == path);
            Ok(Checked { summary: format!("{}: checked with its mod", file_label(path)), warnings: Vec::new(), notes })
        }
        FileKind::Catalog(name) => {
            // A catalog file is checked together with its siblings, as a level would load them.
            let siblings = AssetSource { dir: path.parent().map(Path::to_path_buf), ..AssetSource::default() };
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

/// Checks a level's text: its one-line summary and warnings, or its errors.
fn check_level(text: &str, path: &Path, source: &AssetSource) -> Result<Checked, LoadErrors> {
    let CheckedLevel { template, warnings } = check_level_text(text, path, source)?;
    let summary = format!(
        "level \"{}\": {} zones, {} sides, {} units, ruleset {}",
        template.level_name,
        template.battlefield.len(),
        template.sides.len(),
        template.units.len(),
        template.ruleset.name
    );
    Ok(Checked { summary, warnings, notes: Vec::new() })
}

/// Loads one of the levels built into the binary, with the built-in catalog and `mods` over it.
pub fn load_builtin_level(file_name: &str, mods: &ModSet) -> Result<BattleTemplate, LoadErrors> {
    let text = builtin::level(file_name).map(|(_, text)| text).unwrap_or_default();
    load_level_text(text, &builtin_path(file_name), &AssetSource::with_mods(mods.clone()))
}

/// Loads the level a command line names, with `mods`: the file at `path`, or, when there is no
/// such file, the shipped level it names (see [`builtin_level_for`]).
pub fn load_level_or_builtin(path: &Path, mods: &ModSet) -> Result<BattleTemplate, LoadErrors> {
    match builtin_level_for(path) {
        Some(file_name) => load_builtin_level(file_name, mods),
        None => load_level(path, mods),
    }
}

/// The file name of the shipped level that `path` names when no file is there: by its usual path
/// (`levels/duel.ron`), its file name (`duel.ron`) or its level name (`Duel at the Old Keep`).
/// `None` when `path` is a file on disk or names no shipped level.
pub fn builtin_level_for(path: &Path) -> Option<&'static str> {
    if path.is_file() {
        return None;
    }
    let in_levels_folder = match path.parent() {
        None => true,
        Some(parent) => {
            parent.as_os_str().is_empty()
                || parent == Path::new(".")
                || parent.file_name().is_some_and(|dir| dir == "levels")
        }
    };
    let file_name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    if in_levels_folder && let Some((known, _)) = builtin::level(file_name) {
        return Some(known);
    }
    let wanted = path.to_str()?;
    builtin::every_level()
        .find(|(name, text)| parse::<LevelFile>(text, &builtin_path(name)).is_ok_and(|level| level.name == wanted))
        .map(|(name, _)| name)
}

/// The path a built-in level is reported under.
fn builtin_path(file_name: &str) -> PathBuf {
    PathBuf::from(format!("<built-in>/levels/{file_name}"))
}

fn file_label(path: &Path) -> String {
    path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `file:line:column: note: mod `b` replaces creature `ghoul` from `a`` for each override chosen.
fn override_notes(catalog: &Catalog, chosen: impl Fn(&super::catalog::Override) -> bool) -> Vec<String> {
    catalog
        .overrides
        .iter()
        .filter(|over| chosen(over))
        .map(|over| {
            let text = read_text(&over.path).unwrap_or_default();
            // The entry's name is the map key, quoted and followed by a colon: `"ghoul": (...)`.
            let map = SourceMap::new(&text);
            let key = format!("\"{}\"", over.name);
            let at = text.match_indices(&key).map(|(at, _)| at).find(|&at| {
                let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
                !text[line_start..at].contains("//") && text[at + key.len()..].trim_start().starts_with(':')
            });
            let (line, column) = at.map_or((1, 1), |at| map.position(at));
            format!("{}:{line}:{column}: note: {over}", over.path.display())
        })
        .collect()
}

/// Checks a whole mod, as loaded with `mods` (which include it): its catalog files over the
/// built-in catalog and the mods before it, then each of its rulesets and levels.
pub fn check_mod(one: &super::mods::Mod, mods: &ModSet) -> Result<Checked, LoadErrors> {
    let catalog = Catalog::load(&AssetSource::with_mods(mods.clone()))?;
    let mut checked = Checked { notes: override_notes(&catalog, |over| over.by == one.id()), ..Checked::default() };
    let mut errors = Vec::new();
    let rulesets = one.files_in("rulesets");
    let levels = one.files_in("levels");
    for file in rulesets.iter().chain(&levels) {
        match check_file(file, mods) {
            Ok(file_checked) => checked.warnings.extend(file_checked.warnings),
            Err(file_errors) => errors.extend(file_errors.0),
        }
    }
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    let added = |kind: &str| {
        let from_this_mod = |origin: &super::catalog::Origin| matches!(origin, super::catalog::Origin::Mod { id, .. } if id == one.id());
        catalog.origins.iter().filter(|((of, _), origin)| *of == kind && from_this_mod(origin)).count()
    };
    let counts: Vec<String> = ["creature", "weapon", "armour", "spell", "item", "injury table"]
        .into_iter()
        .map(|kind| (kind, added(kind)))
        .filter(|(_, count)| *count > 0)
        .chain([("ruleset", rulesets.len()), ("level", levels.len())])
        .map(|(kind, count)| format!("{count} {kind}{}", if count == 1 || kind == "armour" { "" } else { "s" }))
        .collect();
    checked.summary = format!("mod `{}` {}: {}", one.id(), one.manifest.version, counts.join(", "));
    Ok(checked)
}
