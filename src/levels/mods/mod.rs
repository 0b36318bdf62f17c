//! Mods as folders: a `mod.ron` manifest beside any of the catalog files, `rulesets/`,
//! `levels/` and `icons/`; opening one, the errors that name it, where installed mods live,
//! and the set of mods the commands load over the built-in catalog.

mod order;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::Resource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use self::order::load_order;
use super::error::{LoadError, SourceMap};
use super::ron_file::{parse, read_text};
pub use super::stamp::ModStamp;

/// The manifest's file name inside a mod folder.
pub const MANIFEST_FILE: &str = "mod.ron";
/// The file in the installed-mods folder that lists the enabled mods, in load order.
pub const ENABLED_FILE: &str = "enabled.ron";
/// The Fray version mods are checked against (`requires_fray`).
pub const FRAY_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `mod.ron`: who a mod is and what it needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename = "Mod", deny_unknown_fields)]
pub struct ModManifest {
    /// A short unique name (`marsh_folk`): letters, digits, `_` and `-`. Saves and other
    /// mods' `depends_on` name the mod by it.
    pub id: String,
    /// The name players see.
    pub name: String,
    /// The mod's own version, semver (`1.2.0`).
    pub version: String,
    /// The Fray versions it works with, a semver requirement (`>=0.1, <0.3`).
    pub requires_fray: String,
    /// Mods that must be enabled too; they load first.
    #[serde(default)]
    pub depends_on: Vec<String>,
    /// Mods that load first when they are enabled, without being needed.
    #[serde(default)]
    pub load_after: Vec<String>,
    /// What it adds or changes.
    #[serde(default)]
    pub description: Option<String>,
    /// Who made it.
    #[serde(default)]
    pub authors: Vec<String>,
}

/// Where in a file something is, printed `file:line:column`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

/// Why a mod, or a list of mods, cannot load.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModError {
    /// The folder has no `mod.ron`.
    #[error("{}: not a mod: there is no {MANIFEST_FILE} in this folder; expected a folder with a {MANIFEST_FILE} manifest", dir.display())]
    NoManifest {
        /// The folder.
        dir: PathBuf,
    },
    /// `mod.ron` (or one of the mod's files) does not parse or cannot be read.
    #[error("{error} (in mod `{id}`)")]
    File {
        /// The mod's id, or its folder's name when the manifest did not parse.
        id: String,
        /// The error, with its `file:line:column`.
        error: LoadError,
    },
    /// A manifest field holds a value of the wrong shape.
    #[error("{at}: mod `{id}`: {message}")]
    BadField {
        /// The field.
        at: Place,
        /// The mod.
        id: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// `requires_fray` does not match this Fray.
    #[error(
        "{at}: mod `{id}` requires Fray {wanted}, but this is Fray {FRAY_VERSION}; expected a mod made for this version"
    )]
    WrongFray {
        /// The `requires_fray` value.
        at: Place,
        /// The mod.
        id: String,
        /// The requirement.
        wanted: String,
    },
    /// Two enabled mods have the same id.
    #[error("{at}: mod `{id}` is enabled twice (the other is {}); expected each id once", other.display())]
    DuplicateId {
        /// The second one's `id`.
        at: Place,
        /// The id.
        id: String,
        /// The first one's folder.
        other: PathBuf,
    },
    /// A dependency is not enabled.
    #[error(
        "{at}: mod `{id}` depends on mod `{missing}`, which is not enabled; expected it among the enabled mods (or remove it from `depends_on`)"
    )]
    MissingDependency {
        /// The `depends_on` entry.
        at: Place,
        /// The mod.
        id: String,
        /// The dependency.
        missing: String,
    },
    /// The mods' `depends_on` and `load_after` go round in a circle.
    #[error(
        "{at}: mod `{id}` is in a load-order cycle ({cycle}); expected `depends_on` and `load_after` to leave a first mod"
    )]
    Cycle {
        /// The entry that closes the circle, in the first mod of it.
        at: Place,
        /// That mod.
        id: String,
        /// The circle, `a -> b -> a` (each loads after the next).
        cycle: String,
    },
}

impl ModError {
    /// The mod the error is about (its id, or for a folder without a manifest, its path).
    pub fn mod_id(&self) -> String {
        match self {
            Self::NoManifest { dir } => dir.display().to_string(),
            Self::File { id, .. }
            | Self::BadField { id, .. }
            | Self::WrongFray { id, .. }
            | Self::DuplicateId { id, .. }
            | Self::MissingDependency { id, .. }
            | Self::Cycle { id, .. } => id.clone(),
        }
    }
}

/// A mod folder whose manifest parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mod {
    /// The manifest.
    pub manifest: ModManifest,
    /// The folder.
    pub dir: PathBuf,
    /// Its `mod.ron`.
    pub manifest_path: PathBuf,
    /// The manifest's text, to point errors at its fields.
    manifest_text: String,
}

impl Mod {
    /// Opens the mod in `dir`: reads and checks its manifest (not yet against other mods).
    pub fn open(dir: &Path) -> Result<Self, ModError> {
        let manifest_path = dir.join(MANIFEST_FILE);
        if !manifest_path.is_file() {
            return Err(ModError::NoManifest { dir: dir.to_path_buf() });
        }
        let folder_id = || dir.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let file_error = |error| ModError::File { id: folder_id(), error };
        let manifest_text = read_text(&manifest_path).map_err(file_error)?;
        let manifest: ModManifest = parse(&manifest_text, &manifest_path).map_err(file_error)?;
        let opened = Self { manifest, dir: dir.to_path_buf(), manifest_path, manifest_text };
        opened.check_fields()?;
        Ok(opened)
    }

    /// The mod's id.
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    /// Where `value` is written as `field` in `mod.ron` (the `nth` time).
    pub fn place(&self, field: &str, value: &str, nth: usize) -> Place {
        let (line, column) = SourceMap::new(&self.manifest_text).locate(field, value, nth);
        Place { path: self.manifest_path.clone(), line, column }
    }

    fn bad_field(&self, field: &str, value: &str, message: String) -> ModError {
        ModError::BadField { at: self.place(field, value, 0), id: self.id().to_string(), message }
    }

    fn check_fields(&self) -> Result<(), ModError> {
        let manifest = &self.manifest;
        let is_id_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if manifest.id.is_empty() || !manifest.id.chars().all(is_id_char) {
            let message = format!(
                "id \"{}\" is not a mod id; expected letters, digits, `_` and `-` (like \"marsh_folk\")",
                manifest.id
            );
            return Err(self.bad_field("id", &manifest.id, message));
        }
        if let Err(error) = semver::Version::parse(&manifest.version) {
            let message = format!("version \"{}\" is not semver ({error}); expected like \"1.0.0\"", manifest.version);
            return Err(self.bad_field("version", &manifest.version, message));
        }
        if let Err(error) = semver::VersionReq::parse(&manifest.requires_fray) {
            let message = format!(
                "requires_fray \"{}\" is not a semver requirement ({error}); expected like \"^{FRAY_VERSION}\"",
                manifest.requires_fray
            );
            return Err(self.bad_field("requires_fray", &manifest.requires_fray, message));
        }
        Ok(())
    }

    /// Whether `requires_fray` matches this Fray.
    pub fn fits_this_fray(&self) -> Result<(), ModError> {
        let fray = semver::Version::parse(FRAY_VERSION).expect("Cargo's package version is semver");
        // `check_fields` parsed it already; a failure here would be caught there.
        let fits = semver::VersionReq::parse(&self.manifest.requires_fray).is_ok_and(|wanted| wanted.matches(&fray));
        if fits {
            return Ok(());
        }
        let wanted = self.manifest.requires_fray.clone();
        Err(ModError::WrongFray { at: self.place("requires_fray", &wanted, 0), id: self.id().to_string(), wanted })
    }

    /// The mod's `name` file (`creatures.ron`, `rulesets/x.ron`), if it has one.
    pub fn file(&self, name: &str) -> Option<PathBuf> {
        Some(self.dir.join(name)).filter(|path| path.is_file())
    }

    /// The `.ron` files in one of its folders (`levels`, `rulesets`), sorted.
    pub fn files_in(&self, folder: &str) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.join(folder))
            .map(|entries| entries.flatten().map(|entry| entry.path()).collect())
            .unwrap_or_default();
        files.retain(|path| path.extension().is_some_and(|ext| ext == "ron"));
        files.sort();
        files
    }

    /// Its icons: `icons/<name>.png` by name, sorted.
    pub fn icons(&self) -> Vec<(String, PathBuf)> {
        self.pictures("icons")
    }

    /// Its terrain textures: `textures/<name>.png` by name, sorted.
    pub fn textures(&self) -> Vec<(String, PathBuf)> {
        self.pictures("textures")
    }

    /// The PNGs in its `folder`, by name, sorted.
    fn pictures(&self, folder: &str) -> Vec<(String, PathBuf)> {
        let mut icons: Vec<(String, PathBuf)> = std::fs::read_dir(self.dir.join(folder))
            .map(|entries| entries.flatten().map(|entry| entry.path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|path| path.extension().is_some_and(|ext| ext == "png"))
            .filter_map(|path| Some((path.file_stem()?.to_str()?.to_string(), path.clone())))
            .collect();
        icons.sort();
        icons
    }

    /// FNV-1a over every file in the folder (relative path and bytes, in path order): any edit,
    /// added or removed file changes it.
    pub fn content_hash(&self) -> String {
        let mut files = Vec::new();
        collect_files(&self.dir, &mut files);
        files.sort();
        let mut bytes = Vec::new();
        for path in files {
            let relative = path.strip_prefix(&self.dir).unwrap_or(&path);
            bytes.extend(relative.to_string_lossy().replace('\\', "/").as_bytes());
            bytes.push(0);
            // An unreadable file hashes as empty: the load itself reports it.
            bytes.extend(std::fs::read(&path).unwrap_or_default());
            bytes.push(0);
        }
        super::stamp::hash_bytes(&bytes)
    }

    /// What a save records of this mod.
    pub fn stamp(&self) -> ModStamp {
        ModStamp { id: self.id().to_string(), version: self.manifest.version.clone(), hash: self.content_hash() }
    }
}

fn collect_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, into);
        } else {
            into.push(path);
        }
    }
}

/// The mods in play, in load order (later ones win).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModSet(Arc<[Mod]>);

impl ModSet {
    /// Opens each folder and puts the mods in load order; every error found, each naming its mod.
    pub fn open(dirs: &[PathBuf]) -> Result<Self, Vec<ModError>> {
        let mut mods = Vec::new();
        let mut errors = Vec::new();
        for dir in dirs {
            match Mod::open(dir) {
                Ok(opened) => mods.push(opened),
                Err(error) => errors.push(error),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        load_order(mods).map(Self::from)
    }

    /// The mods, in load order.
    pub fn iter(&self) -> impl Iterator<Item = &Mod> {
        self.0.iter()
    }

    /// No mods.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What a save records: one stamp per mod, in load order.
    pub fn stamps(&self) -> Vec<ModStamp> {
        self.iter().map(Mod::stamp).collect()
    }

    /// These mods, with the mod `file` belongs to added last when it is not among them, so
    /// that `fray check mods/x/levels/y.ron` checks the level with its own mod. When that mod
    /// cannot join (a missing dependency, ...), these mods alone: checking its manifest reports why.
    pub fn with_owner_of(&self, file: &Path) -> ModSet {
        let Some(dir) = owner_of(file) else { return self.clone() };
        let same = |one: &Mod| one.dir.canonicalize().ok() == dir.canonicalize().ok();
        if self.iter().any(same) {
            return self.clone();
        }
        let Ok(owner) = Mod::open(&dir) else { return self.clone() };
        let mut mods: Vec<Mod> = self.iter().filter(|one| one.id() != owner.id()).cloned().collect();
        mods.push(owner);
        load_order(mods).map_or_else(|_| self.clone(), ModSet::from)
    }
}

/// The mods an app plays with, for the systems that load levels: the window's (set at launch
/// from the command line, replaced by its Mods screen) and an online follower's.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActiveMods(pub ModSet);

impl From<Vec<Mod>> for ModSet {
    fn from(mods: Vec<Mod>) -> Self {
        Self(mods.into())
    }
}

/// Set to use this folder for saves and installed mods instead of the platform's.
pub const DATA_DIR_VARIABLE: &str = "FRAY_DATA_DIR";

/// Fray's data folder: `$FRAY_DATA_DIR`, else the platform's (`~/.local/share/fray` on Linux),
/// else the current folder.
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DATA_DIR_VARIABLE) {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("", "", "Fray").map_or_else(|| PathBuf::from("."), |dirs| dirs.data_dir().into())
}

/// Where installed mods live: `mods/` in [`data_dir`].
pub fn installed_dir() -> PathBuf {
    data_dir().join("mods")
}

/// The installed mods that are enabled, in the order to offer them: the folders listed in
/// `mods/enabled.ron` (a list of folder names), or when there is no such file every folder in
/// `mods/` with a `mod.ron`, by folder name.
pub fn enabled_installed(installed: &Path) -> Result<Vec<PathBuf>, ModError> {
    let list = installed.join(ENABLED_FILE);
    if list.is_file() {
        let id = ENABLED_FILE.to_string();
        let text = read_text(&list).map_err(|error| ModError::File { id: id.clone(), error })?;
        let names: Vec<String> = parse(&text, &list).map_err(|error| ModError::File { id, error })?;
        return Ok(names.into_iter().map(|name| installed.join(name)).collect());
    }
    Ok(discover(installed))
}

/// Every folder in `dir` with a `mod.ron`, by name.
pub fn discover(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|entries| entries.flatten().map(|entry| entry.path()).collect()).unwrap_or_default();
    found.retain(|path| path.join(MANIFEST_FILE).is_file());
    found.sort();
    found
}

/// The folders to load, in the order given to [`load_order`]: the enabled installed mods, then
/// each `--mod` folder in command-line order. A `--mod` folder whose manifest has the id of an
/// installed mod takes that mod's place (to try a working copy of an installed mod).
pub fn with_command_line(installed: Vec<PathBuf>, extra: &[PathBuf]) -> Vec<PathBuf> {
    let id_of = |dir: &PathBuf| Mod::open(dir).ok().map(|opened| opened.manifest.id);
    let extra_ids: Vec<Option<String>> = extra.iter().map(id_of).collect();
    let mut dirs: Vec<PathBuf> =
        installed.into_iter().filter(|dir| id_of(dir).is_none_or(|id| !extra_ids.contains(&Some(id)))).collect();
    dirs.extend(extra.iter().cloned());
    dirs
}

/// The mod folder a file belongs to: its own folder or the one above (`levels/`, `rulesets/`)
/// when that holds a `mod.ron`.
pub fn owner_of(file: &Path) -> Option<PathBuf> {
    let parent = file.parent()?;
    std::iter::successors(Some(parent), |dir| dir.parent())
        .take(2)
        .find(|dir| dir.join(MANIFEST_FILE).is_file())
        .map(Path::to_path_buf)
}

/// An installed mod as the Mods screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModEntry {
    /// Its folder.
    pub dir: PathBuf,
    /// Whether it is enabled.
    pub enabled: bool,
    /// Its manifest, when it parses.
    pub manifest: Option<ModManifest>,
    /// What stops it (or the enabled list) from loading, one line each.
    pub errors: Vec<String>,
}

impl ModEntry {
    /// The folder's name, as `enabled.ron` lists it.
    pub fn folder_name(&self) -> String {
        self.dir.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

/// Every mod in `installed`: the enabled ones in load-list order, then the others by name,
/// each with the errors that concern it when the enabled ones are loaded together.
pub fn installed_entries(installed: &Path) -> Vec<ModEntry> {
    let enabled = enabled_installed(installed).unwrap_or_default();
    let mut dirs = enabled.clone();
    dirs.extend(discover(installed).into_iter().filter(|dir| !enabled.contains(dir)));
    let mut entries: Vec<ModEntry> = dirs
        .into_iter()
        .map(|dir| {
            let opened = Mod::open(&dir);
            ModEntry {
                enabled: enabled.contains(&dir),
                manifest: opened.as_ref().ok().map(|one| one.manifest.clone()),
                errors: opened.err().map(|error| error.to_string()).into_iter().collect(),
                dir,
            }
        })
        .collect();
    attach_order_errors(&mut entries);
    entries
}

/// Adds the load-order errors of the enabled mods to the mod each names.
pub fn attach_order_errors(entries: &mut [ModEntry]) {
    let mods: Vec<Mod> =
        entries.iter().filter(|entry| entry.enabled).filter_map(|entry| Mod::open(&entry.dir).ok()).collect();
    let Err(errors) = load_order(mods) else { return };
    for error in errors {
        let id = error.mod_id();
        let owner = entries.iter_mut().find(|entry| entry.manifest.as_ref().is_some_and(|manifest| manifest.id == id));
        if let Some(entry) = owner {
            entry.errors.push(error.to_string());
        }
    }
}

/// Writes the enabled entries' folder names, in order, as `enabled.ron` in `installed`.
pub fn save_enabled(installed: &Path, entries: &[ModEntry]) -> std::io::Result<()> {
    let names: Vec<String> = entries.iter().filter(|entry| entry.enabled).map(ModEntry::folder_name).collect();
    let text = ron::ser::to_string_pretty(&names, ron::ser::PrettyConfig::default()).map_err(std::io::Error::other)?;
    crate::files::write_atomically(
        &installed.join(ENABLED_FILE),
        format!("// The enabled mods, in load order (Fray's Mods screen writes this).\n{text}\n").as_bytes(),
    )
}
