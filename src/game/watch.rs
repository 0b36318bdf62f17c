//! The file watcher behind live hot reload: watches `levels/`, `assets/` (catalog files and
//! rulesets), the folder of every level on offer or in play, and any folder in
//! [`WatchedFolders`] (mods add theirs at run time), and turns what changes on disk into
//! [`LevelFileChanged`] and [`CatalogChanged`] messages.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::model::session::{LevelSource, Session};
use crate::levels::catalog::{AssetSource, read_text};
use crate::levels::load::{FileKind, file_kind};
use crate::levels::mods::ActiveMods;

/// How long a file must stay quiet before its change is reported: editors save in several
/// steps (a temporary file, a rename, a second write), and one reload should follow them all.
pub const DEBOUNCE: Duration = Duration::from_millis(150);
/// How often folders that could not be watched yet (not made yet) are tried again.
const RETRY_EVERY: Duration = Duration::from_secs(1);
/// The folder of shipped levels the menu lists, relative to where the game runs.
pub const LEVELS_DIR: &str = "levels";
/// The catalog folder, relative to where the game runs.
pub const ASSETS_DIR: &str = "assets";

/// Folders to watch besides the ones the game finds itself; add to it at any time.
#[derive(Resource, Clone, Debug, Default)]
pub struct WatchedFolders(pub Vec<PathBuf>);

impl WatchedFolders {
    /// Watches `folder` from now on (once, however often it is added).
    pub fn add(&mut self, folder: impl Into<PathBuf>) {
        let folder = folder.into();
        if !self.0.contains(&folder) {
            self.0.push(folder);
        }
    }
}

/// A level file (or a file that may be one) was written, made, renamed or removed.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct LevelFileChanged {
    /// The file, as the watcher saw it.
    pub path: PathBuf,
}

/// A catalog file (`creatures.ron`, ...) or a ruleset changed: every level may read it.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct CatalogChanged {
    /// The file, as the watcher saw it.
    pub path: PathBuf,
}

/// A file the watcher saw written, made, renamed or removed, and when.
type Touched = (PathBuf, Instant);

/// The watcher, the channel its changes arrive on, and the changes still settling.
#[derive(Resource)]
struct FileWatch {
    watcher: Mutex<RecommendedWatcher>,
    changes: Mutex<Receiver<Touched>>,
    settling: Settling,
    /// Folders watched, as given.
    watching: BTreeSet<PathBuf>,
    /// Time since folders that failed were last tried.
    since_retry: Duration,
}

/// Changed files waiting for [`DEBOUNCE`] of quiet before they are reported.
#[derive(Clone, Debug, Default)]
pub struct Settling(BTreeMap<PathBuf, Instant>);

impl Settling {
    /// `path` changed at `at`: its quiet starts again.
    pub fn touch(&mut self, path: PathBuf, at: Instant) {
        let last = self.0.entry(path).or_insert(at);
        *last = (*last).max(at);
    }

    /// The files quiet for [`DEBOUNCE`] by `now`, each once; the rest keep settling.
    pub fn settled(&mut self, now: Instant) -> Vec<PathBuf> {
        let quiet: Vec<PathBuf> = self
            .0
            .iter()
            .filter(|(_, last)| now.saturating_duration_since(**last) >= DEBOUNCE)
            .map(|(path, _)| path.clone())
            .collect();
        for path in &quiet {
            self.0.remove(path);
        }
        quiet
    }
}

/// Whether an event changes what a file holds (or whether it is there): reads are not changes,
/// and the game's own reading of a file must not look like an edit.
fn is_change(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) | EventKind::Any)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<WatchedFolders>()
        .add_message::<LevelFileChanged>()
        .add_message::<CatalogChanged>()
        .add_systems(Startup, start_watching)
        .add_systems(PreUpdate, (note_level_folders, watch_folders, forward_changes).chain());
}

fn start_watching(mut commands: Commands, mut folders: ResMut<WatchedFolders>) {
    let (sender, changes) = channel::<Touched>();
    let forward = move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else {
            return;
        };
        if is_change(&event.kind) {
            let now = Instant::now();
            for path in event.paths {
                // The game may have quit: then nobody wants to hear.
                let _ = sender.send((path, now));
            }
        }
    };
    match notify::recommended_watcher(forward) {
        Ok(watcher) => commands.insert_resource(FileWatch {
            watcher: Mutex::new(watcher),
            changes: Mutex::new(changes),
            settling: Settling::default(),
            watching: BTreeSet::new(),
            since_retry: Duration::ZERO,
        }),
        // The game plays on without hot reload: it is a convenience for modders.
        Err(error) => warn!("file changes will not be picked up: {error}"),
    }
    folders.add(LEVELS_DIR);
    folders.add(ASSETS_DIR);
}

/// The folders of the levels offered and the one in play, the catalog beside each, and the
/// enabled mods' folders.
fn note_level_folders(session: Res<Session>, mods: Res<ActiveMods>, mut folders: ResMut<WatchedFolders>) {
    if !session.is_changed() {
        return;
    }
    let offered = session.levels.iter().filter_map(|level| match &level.source {
        LevelSource::File(path) => Some(path.clone()),
        LevelSource::Builtin(_) => None,
    });
    let playing = session.current.as_ref().map(|template| template.source.clone());
    let mut wanted: Vec<PathBuf> = Vec::new();
    for level in offered.chain(playing).filter(|path| path.is_file()) {
        let folder = level.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
        wanted.push(folder.to_path_buf());
        wanted.extend(AssetSource::near(&level, &mods.0).dir);
    }
    // Enabled mods bring catalog files and rulesets that any level may read.
    wanted.extend(mods.0.iter().map(|enabled| enabled.dir.clone()));
    for folder in wanted {
        if !folders.0.contains(&folder) {
            folders.add(folder);
        }
    }
}

/// Starts watching every folder of [`WatchedFolders`] not watched yet; folders that do not
/// exist yet are tried again every [`RETRY_EVERY`].
fn watch_folders(watch: Option<ResMut<FileWatch>>, folders: Res<WatchedFolders>, time: Res<Time<Real>>) {
    let Some(mut watch) = watch else {
        return;
    };
    watch.since_retry += time.delta();
    if !folders.is_changed() && watch.since_retry < RETRY_EVERY {
        return;
    }
    watch.since_retry = Duration::ZERO;
    let FileWatch { watcher, watching, .. } = &mut *watch;
    let Ok(watcher) = watcher.get_mut() else {
        return;
    };
    let new: Vec<&PathBuf> = folders.0.iter().filter(|folder| !watching.contains(*folder) && folder.is_dir()).collect();
    for folder in new {
        match watcher.watch(folder, RecursiveMode::Recursive) {
            Ok(()) => {
                watching.insert(folder.clone());
            }
            Err(error) => warn!("cannot watch {}: {error}", folder.display()),
        }
    }
}

/// Turns the changes that have settled into messages, one per file.
fn forward_changes(
    watch: Option<ResMut<FileWatch>>,
    mut levels: MessageWriter<LevelFileChanged>,
    mut catalogs: MessageWriter<CatalogChanged>,
) {
    let Some(mut watch) = watch else {
        return;
    };
    let FileWatch { changes, settling, .. } = &mut *watch;
    if let Ok(changes) = changes.get_mut() {
        for (path, at) in changes.try_iter() {
            settling.touch(path, at);
        }
    }
    for path in settling.settled(Instant::now()) {
        match watched_kind(&path) {
            Some(WatchedKind::Level) => {
                levels.write(LevelFileChanged { path });
            }
            Some(WatchedKind::Catalog) => {
                catalogs.write(CatalogChanged { path });
            }
            None => {}
        }
    }
}

/// What a changed file means for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchedKind {
    /// A level (or a file that may be one).
    Level,
    /// A catalog file or a ruleset.
    Catalog,
}

/// What a change to `path` means: only `.ron` files count, and not editors' hidden lock and
/// swap files. A ruleset is told by its folder or, for one beside a level, by its first value.
pub fn watched_kind(path: &Path) -> Option<WatchedKind> {
    let name = path.file_name()?.to_str()?;
    if name.starts_with('.') || path.extension().is_none_or(|ext| ext != "ron") {
        return None;
    }
    // A file just removed has no text: its name and folder still tell.
    let text = read_text(path).unwrap_or_default();
    match file_kind(path, &text) {
        FileKind::Level => Some(WatchedKind::Level),
        FileKind::Ruleset | FileKind::Catalog(_) => Some(WatchedKind::Catalog),
        // The glossary and the sound mapping are read at startup: an edit on disk changes nothing
        // in play.
        FileKind::Glossary | FileKind::Sounds => None,
    }
}

/// `path` made comparable with another spelling of it (relative or absolute, through links):
/// its folder resolved, its name kept, so a file that was just removed still compares.
pub fn same_file(a: &Path, b: &Path) -> bool {
    fn resolved(path: &Path) -> PathBuf {
        let folder = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let folder = folder.canonicalize().unwrap_or_else(|_| folder.to_path_buf());
        path.file_name().map_or(folder.clone(), |name| folder.join(name))
    }
    a == b || resolved(a) == resolved(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_writes_settles_into_one_change_once_quiet() {
        let start = Instant::now();
        let mut settling = Settling::default();
        let file = PathBuf::from("levels/duel.ron");
        for step in 0..3 {
            settling.touch(file.clone(), start + DEBOUNCE / 4 * step);
        }
        assert!(settling.settled(start + DEBOUNCE).is_empty(), "the last write is too recent");
        assert_eq!(settling.settled(start + DEBOUNCE * 2), vec![file]);
        assert!(settling.settled(start + DEBOUNCE * 3).is_empty(), "reported once");
    }

    #[test]
    fn only_ron_files_count_and_rulesets_and_catalog_files_are_told_apart() {
        assert_eq!(watched_kind(Path::new("levels/duel.ron")), Some(WatchedKind::Level));
        assert_eq!(watched_kind(Path::new("assets/creatures.ron")), Some(WatchedKind::Catalog));
        assert_eq!(watched_kind(Path::new("assets/rulesets/crucible.ron")), Some(WatchedKind::Catalog));
        assert_eq!(watched_kind(Path::new("levels/.#duel.ron")), None);
        assert_eq!(watched_kind(Path::new("levels/duel.ron.swp")), None);
        assert_eq!(watched_kind(Path::new("assets/icons/ghoul.png")), None);
    }

    #[test]
    fn a_path_is_the_same_file_however_it_is_written() {
        let here = std::env::current_dir().expect("a working folder");
        assert!(same_file(Path::new("levels/duel.ron"), &here.join("levels").join("duel.ron")));
        assert!(same_file(Path::new("levels/gone.ron"), &here.join("levels/../levels/gone.ron")));
        assert!(!same_file(Path::new("levels/duel.ron"), Path::new("levels/ambush.ron")));
    }
}
