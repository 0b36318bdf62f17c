//! The shared catalog in `assets/`: creatures, weapons, armour, spells, items, injury tables
//! and rulesets, read from disk when present and built into the binary otherwise.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::{LoadError, LoadErrors};
use super::mods::{Mod, ModSet};
pub use super::ron_file::{parse, read_text};
use super::schema::CreatureFile;
use crate::rules::equipment::{ArmourPiece, InjuryTables, Item, Spell, Weapon};
use crate::rules::ruleset::Ruleset;

/// The shipped data, built into the binary so the game runs from any directory.
pub mod builtin {
    /// `assets/creatures.ron`.
    pub const CREATURES: &str = include_str!("../../assets/creatures.ron");
    /// `assets/weapons.ron`.
    pub const WEAPONS: &str = include_str!("../../assets/weapons.ron");
    /// `assets/armour.ron`.
    pub const ARMOUR: &str = include_str!("../../assets/armour.ron");
    /// `assets/spells.ron`.
    pub const SPELLS: &str = include_str!("../../assets/spells.ron");
    /// `assets/items.ron`.
    pub const ITEMS: &str = include_str!("../../assets/items.ron");
    /// `assets/injuries.ron`.
    pub const INJURIES: &str = crate::rules::equipment::BUILTIN_INJURY_TABLES;
    /// The shipped rulesets by name.
    pub const RULESETS: &[(&str, &str)] = &[
        ("stress_and_wounds", crate::rules::ruleset::BUILTIN_STRESS_AND_WOUNDS),
        ("zones_and_tests", include_str!("../../assets/rulesets/zones_and_tests.ron")),
        ("shock_and_cover", include_str!("../../assets/rulesets/shock_and_cover.ron")),
        ("aimed_wounds", include_str!("../../assets/rulesets/aimed_wounds.ron")),
        ("crucible", include_str!("../../assets/rulesets/crucible.ron")),
    ];
    /// The shipped levels by file name; the first is the default.
    pub const LEVELS: &[(&str, &str)] = &[
        ("ambush.ron", include_str!("../../levels/ambush.ron")),
        ("duel.ron", include_str!("../../levels/duel.ron")),
        ("reinforcements.ron", include_str!("../../levels/reinforcements.ron")),
        ("melee.ron", include_str!("../../levels/melee.ron")),
        ("zones_and_tests_skirmish.ron", include_str!("../../levels/zones_and_tests_skirmish.ron")),
        ("zones_and_tests_mill.ron", include_str!("../../levels/zones_and_tests_mill.ron")),
        ("shock_and_cover_skirmish.ron", include_str!("../../levels/shock_and_cover_skirmish.ron")),
        ("shock_and_cover_breach.ron", include_str!("../../levels/shock_and_cover_breach.ron")),
        ("aimed_wounds_skirmish.ron", include_str!("../../levels/aimed_wounds_skirmish.ron")),
        ("aimed_wounds_crypt.ron", include_str!("../../levels/aimed_wounds_crypt.ron")),
        ("crucible_skirmish.ron", include_str!("../../levels/crucible_skirmish.ron")),
        ("crucible_forest_road.ron", include_str!("../../levels/crucible_forest_road.ron")),
    ];
    /// Shipped levels kept out of the menu's list and of the tests that play every level (the
    /// 1,024-unit siege; the tutorials, which the menu's Learn to play starts; the sealed-orders
    /// level made for online play), built in all the same so every command finds them outside
    /// the repository.
    pub const UNLISTED_LEVELS: &[(&str, &str)] = &[
        ("siege.ron", include_str!("../../levels/siege.ron")),
        ("tutorial.ron", include_str!("../../levels/tutorial.ron")),
        ("tutorial_grid.ron", include_str!("../../levels/tutorial_grid.ron")),
        ("sealed_orders.ron", include_str!("../../levels/sealed_orders.ron")),
    ];

    /// Every shipped level by file name: [`LEVELS`], then [`UNLISTED_LEVELS`].
    pub fn every_level() -> impl Iterator<Item = (&'static str, &'static str)> {
        LEVELS.iter().chain(UNLISTED_LEVELS).copied()
    }

    /// The shipped level with this file name (`duel.ron`), as its file name and text.
    pub fn level(file_name: &str) -> Option<(&'static str, &'static str)> {
        every_level().find(|(name, _)| *name == file_name)
    }
}

/// Where catalog files come from: a folder on disk (falling back per file to the built-in copy),
/// then the mods in load order, entry by entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssetSource {
    /// The `assets` folder, if one was found.
    pub dir: Option<PathBuf>,
    /// The mods laid over it, in load order.
    pub mods: ModSet,
}

impl AssetSource {
    /// The `assets` folder beside a level's `levels` folder, else `./assets`, else built-in
    /// only; with `mods` over it (and the mod the file is in, see [`ModSet::with_owner_of`]).
    pub fn near(level: &Path, mods: &ModSet) -> Self {
        let beside = level.parent().and_then(Path::parent).map(|root| root.join("assets"));
        let candidates = beside.into_iter().chain(std::iter::once(PathBuf::from("assets")));
        let mods = mods.with_owner_of(level);
        Self { dir: candidates.into_iter().find(|dir| dir.is_dir()), mods }
    }

    /// The built-in catalog with `mods` over it.
    pub fn with_mods(mods: ModSet) -> Self {
        Self { dir: None, mods }
    }

    /// Reads `name` from the folder, or the built-in text; returns the text and the path to report.
    pub fn read(&self, name: &str, builtin: &str) -> Result<(String, PathBuf), LoadError> {
        if let Some(dir) = &self.dir {
            let path = dir.join(name);
            if path.is_file() {
                return read_text(&path).map(|text| (text, path));
            }
        }
        Ok((builtin.to_string(), PathBuf::from(format!("<built-in>/assets/{name}"))))
    }

    /// The ruleset called `name` (or at the path `name`, relative to `relative_to`).
    pub fn ruleset(&self, name: &str, relative_to: &Path) -> Result<(Ruleset, PathBuf), LoadErrors> {
        let (text, path) = self.ruleset_text(name, relative_to)?;
        parse::<Ruleset>(&text, &path).map(|ruleset| (ruleset, path)).map_err(Into::into)
    }

    /// The text of the ruleset called `name` (or at the path `name`, relative to
    /// `relative_to`) and the path to report; no errors at all when there is no such ruleset.
    pub fn ruleset_text(&self, name: &str, relative_to: &Path) -> Result<(String, PathBuf), LoadErrors> {
        if name.ends_with(".ron") {
            let path = relative_to.join(name);
            return Ok((read_text(&path)?, path));
        }
        let file = format!("rulesets/{name}.ron");
        // The last mod in load order wins, as it does for catalog entries.
        if let Some(path) = self.mods.iter().filter_map(|one| one.file(&file)).last() {
            return Ok((read_text(&path)?, path));
        }
        let builtin = builtin::RULESETS.iter().find(|(known, _)| *known == name).map(|(_, text)| *text);
        let on_disk =
            self.dir.as_ref().map(|dir| dir.join("rulesets").join(format!("{name}.ron"))).filter(|path| path.is_file());
        match (on_disk, builtin) {
            (Some(path), _) => Ok((read_text(&path)?, path)),
            (None, Some(text)) => {
                Ok((text.to_string(), PathBuf::from(format!("<built-in>/assets/rulesets/{name}.ron"))))
            }
            (None, None) => Err(LoadErrors::default()),
        }
    }

    /// Names of every ruleset available.
    pub fn ruleset_names(&self) -> Vec<String> {
        let mut names: Vec<String> = builtin::RULESETS.iter().map(|(name, _)| name.to_string()).collect();
        let folders = self.dir.iter().map(|dir| dir.join("rulesets"));
        let folders = folders.chain(self.mods.iter().map(|one| one.dir.join("rulesets")));
        for entry in folders.filter_map(|folder| std::fs::read_dir(folder).ok()).flatten().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|ext| ext == "ron")
                && let Some(stem) = path.file_stem().and_then(|stem| stem.to_str())
                && !names.iter().any(|known| known == stem)
            {
                names.push(stem.to_string());
            }
        }
        names.sort();
        names
    }
}

/// Everything levels can reference by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Catalog {
    /// Creatures.
    pub creatures: BTreeMap<String, CreatureFile>,
    /// Weapons.
    pub weapons: BTreeMap<String, Weapon>,
    /// Armour.
    pub armour: BTreeMap<String, ArmourPiece>,
    /// Spells.
    pub spells: BTreeMap<String, Spell>,
    /// Items.
    pub items: BTreeMap<String, Item>,
    /// Injury tables.
    pub injuries: InjuryTables,
    /// Icons from mods (`icons/<name>.png`) by name, beside the shipped ones.
    pub icon_files: BTreeMap<String, PathBuf>,
    /// Textures from mods (`textures/<name>.png`) by name, for a level's looks to name.
    pub texture_files: BTreeMap<String, PathBuf>,
    /// Which mod each mod-made entry comes from, by kind and name.
    pub origins: BTreeMap<(&'static str, String), Origin>,
    /// Entries a mod replaced, in load order, for `fray check` to report.
    pub overrides: Vec<Override>,
}

/// Where a catalog entry comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The built-in catalog (or the `assets` folder).
    Builtin,
    /// A mod: its id and the file that defines the entry.
    Mod {
        /// The mod's id.
        id: String,
        /// The file.
        path: PathBuf,
    },
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Builtin => write!(f, "the built-in catalog"),
            Self::Mod { id, .. } => write!(f, "`{id}`"),
        }
    }
}

/// A mod replacing an entry someone else defined: on purpose, and said so by `fray check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    /// The mod that replaces it.
    pub by: String,
    /// `creature`, `weapon`, ...
    pub kind: &'static str,
    /// The entry's name.
    pub name: String,
    /// Whose entry it replaced.
    pub over: Origin,
    /// The mod's file that replaces it.
    pub path: PathBuf,
}

impl std::fmt::Display for Override {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "mod `{}` replaces {} `{}` from {}", self.by, self.kind, self.name, self.over)
    }
}

impl Catalog {
    /// Reads every catalog file and lays the mods' entries over them, collecting all errors.
    /// [`Catalog::load`] (in `checker/`) reads and then checks the mods' entries.
    pub(super) fn read(source: &AssetSource) -> Result<Self, LoadErrors> {
        let mut errors = Vec::new();
        let mut catalog = Catalog { injuries: InjuryTables(Default::default()), ..Default::default() };
        load_into(source, "creatures.ron", builtin::CREATURES, &mut catalog.creatures, &mut errors);
        load_into(source, "weapons.ron", builtin::WEAPONS, &mut catalog.weapons, &mut errors);
        load_into(source, "armour.ron", builtin::ARMOUR, &mut catalog.armour, &mut errors);
        load_into(source, "spells.ron", builtin::SPELLS, &mut catalog.spells, &mut errors);
        load_into(source, "items.ron", builtin::ITEMS, &mut catalog.items, &mut errors);
        load_into(source, "injuries.ron", builtin::INJURIES, &mut catalog.injuries, &mut errors);
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        for one in source.mods.iter() {
            catalog.lay_over(one, &mut errors);
        }
        if errors.is_empty() { Ok(catalog) } else { Err(LoadErrors(errors)) }
    }

    /// Adds (or replaces) every entry of `one`'s catalog files, and its icons and textures (a
    /// later mod's picture of the same name wins).
    fn lay_over(&mut self, one: &Mod, errors: &mut Vec<LoadError>) {
        let mut layer = Layer { by: one, origins: &mut self.origins, overrides: &mut self.overrides, errors };
        layer.merge("creatures.ron", "creature", &mut self.creatures);
        layer.merge("weapons.ron", "weapon", &mut self.weapons);
        layer.merge("armour.ron", "armour", &mut self.armour);
        layer.merge("spells.ron", "spell", &mut self.spells);
        layer.merge("items.ron", "item", &mut self.items);
        if one.file("injuries.ron").is_some() {
            let keyed = |tables: &InjuryTables| -> BTreeMap<String, _> {
                tables.0.iter().map(|(kind, table)| (injury_key(kind), (*kind, table.clone()))).collect()
            };
            let mut injuries = keyed(&self.injuries);
            layer.merge_with("injuries.ron", "injury table", &mut injuries, |tables: InjuryTables| keyed(&tables));
            self.injuries = InjuryTables(std::sync::Arc::new(injuries.into_values().collect()));
        }
        self.icon_files.extend(one.icons());
        self.texture_files.extend(one.textures());
    }

    /// Whether `name` is an icon a creature or unit may show: shipped, or from a mod.
    pub fn has_icon(&self, name: &str) -> bool {
        super::icons::is_icon(name) || self.icon_files.contains_key(name)
    }

    /// The built-in catalog.
    pub fn builtin() -> Result<Self, LoadErrors> {
        Self::load(&AssetSource::default())
    }
}

/// One mod being laid over the catalog.
struct Layer<'a> {
    by: &'a Mod,
    origins: &'a mut BTreeMap<(&'static str, String), Origin>,
    overrides: &'a mut Vec<Override>,
    errors: &'a mut Vec<LoadError>,
}

impl Layer<'_> {
    fn merge<T: DeserializeOwned>(&mut self, file: &str, kind: &'static str, into: &mut BTreeMap<String, T>) {
        self.merge_with(file, kind, into, |entries: BTreeMap<String, T>| entries);
    }

    /// Parses the mod's `file` as `F`, turns it into entries and lays them over `into`.
    fn merge_with<F: DeserializeOwned, T>(
        &mut self,
        file: &str,
        kind: &'static str,
        into: &mut BTreeMap<String, T>,
        entries: impl FnOnce(F) -> BTreeMap<String, T>,
    ) {
        let Some(path) = self.by.file(file) else { return };
        let id = self.by.id().to_string();
        let parsed = read_text(&path).and_then(|text| parse::<F>(&text, &path));
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(error) => return self.errors.push(in_mod(error, &id)),
        };
        for (name, entry) in entries(parsed) {
            let origin = Origin::Mod { id: id.clone(), path: path.clone() };
            let previous = self.origins.insert((kind, name.clone()), origin);
            if into.insert(name.clone(), entry).is_some() {
                let over = previous.unwrap_or(Origin::Builtin);
                self.overrides.push(Override { by: id.clone(), kind, name, over, path: path.clone() });
            }
        }
    }
}

/// `error`, saying which mod its file belongs to.
pub fn in_mod(error: LoadError, id: &str) -> LoadError {
    match error {
        LoadError::Syntax { path, line, column, message } => {
            LoadError::Syntax { path, line, column, message: format!("mod `{id}`: {message}") }
        }
        LoadError::Invalid { path, line, column, message } => {
            LoadError::Invalid { path, line, column, message: format!("mod `{id}`: {message}") }
        }
        LoadError::Unreadable { path, reason } => {
            LoadError::Unreadable { path, reason: format!("mod `{id}`: {reason}") }
        }
    }
}

/// An injury table's damage type as an entry name (`slashing`).
fn injury_key(kind: &crate::rules::equipment::DamageType) -> String {
    ron::to_string(kind).unwrap_or_else(|_| format!("{kind:?}")).to_lowercase()
}

fn load_into<T: DeserializeOwned>(
    source: &AssetSource,
    name: &str,
    builtin: &str,
    into: &mut T,
    errors: &mut Vec<LoadError>,
) {
    match source.read(name, builtin).and_then(|(text, path)| parse::<T>(&text, &path)) {
        Ok(value) => *into = value,
        Err(error) => errors.push(error),
    }
}
