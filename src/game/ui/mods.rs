//! The menu's Mods section: the mods installed in the data folder's `mods/`, each with a box to
//! enable it, buttons to move it up or down the load order, and its errors beside it. Changes
//! are written to `mods/enabled.ron` and take effect at once: the level list is rebuilt with
//! the new mods. A mod folder copied in while the menu shows appears within a second.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};

use super::ERROR_COLOUR;
use super::widgets::tracked;
use crate::game::model::launch::LaunchOptions;
use crate::game::model::session::Session;
use crate::game::session::level_choices;
use crate::levels::mods::{self, ActiveMods, ModEntry, ModSet};

/// The section's heading, by which scripted tests open it.
const MODS_LABEL: &str = "Mods";

/// The installed mods as the section shows them.
#[derive(Resource, Clone, Debug)]
pub(in crate::game) struct ModsScreen {
    /// The installed-mods folder.
    installed: PathBuf,
    /// Every installed mod, enabled ones first in load order.
    entries: Vec<ModEntry>,
    /// A problem writing the enabled list or loading the mods, for the line under the list.
    problem: Option<String>,
}

impl Default for ModsScreen {
    fn default() -> Self {
        let installed = mods::installed_dir();
        Self { entries: mods::installed_entries(&installed), installed, problem: None }
    }
}

/// What the player did to one row this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowEdit {
    Toggle,
    Up,
    Down,
}

/// Draws the section and applies an edit to `active`, the mods in play (`folders`: the `--mod`
/// ones, loaded after the enabled ones); true when they changed, so the level list must be
/// rebuilt ([`relist_levels`]).
pub(super) fn mods_section(
    ui: &mut egui::Ui,
    screen: &mut ModsScreen,
    active: &mut ActiveMods,
    folders: &[PathBuf],
) -> bool {
    let enabled = screen.entries.iter().filter(|entry| entry.enabled).count();
    let heading = format!("{MODS_LABEL} ({enabled} of {} enabled)", screen.entries.len());
    let mut edit = None;
    // Open from the start when there is anything to see: a player who installed mods wants them.
    let open = !screen.entries.is_empty();
    egui::CollapsingHeader::new(heading).id_salt("mods").default_open(open).show(ui, |ui| {
        ui.label(RichText::new(format!("Installed in {}", screen.installed.display())).small());
        if screen.entries.is_empty() {
            ui.label("No mods installed: put a mod folder (with its mod.ron) there, or start with --mod DIR.");
        }
        for (at, entry) in screen.entries.iter().enumerate() {
            if let Some(what) = mod_row(ui, entry, at, screen.entries.len()) {
                edit = Some((at, what));
            }
        }
        if let Some(problem) = &screen.problem {
            ui.label(RichText::new(problem).color(ERROR_COLOUR).monospace());
        }
    });
    let Some((at, what)) = edit else { return false };
    apply(screen, at, what);
    reload(screen, active, folders);
    true
}

/// One mod: enabled box, name and version, up/down, then its description and errors.
fn mod_row(ui: &mut egui::Ui, entry: &ModEntry, at: usize, count: usize) -> Option<RowEdit> {
    let mut edit = None;
    let name = entry.manifest.as_ref().map_or_else(|| entry.folder_name(), |manifest| manifest.name.clone());
    ui.horizontal(|ui| {
        let mut enabled = entry.enabled;
        if tracked(ui.checkbox(&mut enabled, RichText::new(&name).strong()), &name).changed() {
            edit = Some(RowEdit::Toggle);
        }
        if let Some(manifest) = &entry.manifest {
            ui.label(format!("{} {}", manifest.id, manifest.version));
        }
        if ui.add_enabled(at > 0, egui::Button::new("Up")).clicked() {
            edit = Some(RowEdit::Up);
        }
        if ui.add_enabled(at + 1 < count, egui::Button::new("Down")).clicked() {
            edit = Some(RowEdit::Down);
        }
    });
    ui.indent(("mod", at), |ui| {
        if let Some(description) = entry.manifest.as_ref().and_then(|manifest| manifest.description.as_ref()) {
            ui.label(description);
        }
        for error in &entry.errors {
            ui.label(RichText::new(error).color(ERROR_COLOUR).monospace());
        }
    });
    edit
}

fn apply(screen: &mut ModsScreen, at: usize, edit: RowEdit) {
    match edit {
        RowEdit::Toggle => screen.entries[at].enabled = !screen.entries[at].enabled,
        RowEdit::Up => screen.entries.swap(at, at - 1),
        RowEdit::Down => screen.entries.swap(at, at + 1),
    }
}

/// Saves the enabled list and makes the mods active when they load.
fn reload(screen: &mut ModsScreen, active: &mut ActiveMods, folders: &[PathBuf]) {
    screen.problem = mods::save_enabled(&screen.installed, &screen.entries)
        .err()
        .map(|error| format!("{}: cannot write the enabled list: {error}", screen.installed.display()));
    screen.entries = mods::installed_entries(&screen.installed);
    activate(screen, active, folders);
}

/// Puts the enabled mods, then the `--mod` `folders`, in play, when they load.
fn activate(screen: &mut ModsScreen, active: &mut ActiveMods, folders: &[PathBuf]) {
    let enabled: Vec<PathBuf> =
        screen.entries.iter().filter(|entry| entry.enabled).map(|entry| entry.dir.clone()).collect();
    match ModSet::open(&mods::with_command_line(enabled, folders)) {
        Ok(set) => active.0 = set,
        Err(errors) => {
            // The errors show beside their mods; the last mods that loaded stay in play.
            screen
                .problem
                .get_or_insert_with(|| format!("{} mod error(s): the mods in play are unchanged", errors.len()));
        }
    }
}

/// Lists the levels again with `mods`, the mods now in play, keeping the chosen place in the list.
pub(super) fn relist_levels(session: &mut Session, mods: &ModSet) {
    session.levels = level_choices(Path::new("levels"), mods);
    let selected = session.selected.min(session.levels.len().saturating_sub(1));
    session.select(selected);
}

/// How often the menu looks in the installed-mods folder for mods copied in or taken out.
const RESCAN_SECONDS: f32 = 1.0;

/// Adds the [`ModsScreen`] resource, and keeps its list in step with the folder while the menu
/// shows.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ModsScreen>().add_systems(
        Update,
        rescan_installed
            .run_if(in_state(crate::game::model::screen::Screen::Menu))
            .run_if(bevy::time::common_conditions::on_real_timer(std::time::Duration::from_secs_f32(RESCAN_SECONDS))),
    );
}

fn rescan_installed(
    mut screen: ResMut<ModsScreen>,
    mut session: ResMut<Session>,
    (mut active, options): (ResMut<ActiveMods>, Res<LaunchOptions>),
) {
    if refresh_listing(&mut screen) {
        activate(&mut screen, &mut active, &options.mod_folders);
        relist_levels(&mut session, &active.0);
    }
}

/// Lists the installed mods again when folders came or went; true when the list changed. A new
/// mod is enabled or not as the enabled list says (all are, before the player first chooses).
fn refresh_listing(screen: &mut ModsScreen) -> bool {
    let mut listed: Vec<&Path> = screen.entries.iter().map(|entry| entry.dir.as_path()).collect();
    listed.sort();
    let found = mods::discover(&screen.installed);
    if found.iter().map(PathBuf::as_path).eq(listed) {
        return false;
    }
    screen.entries = mods::installed_entries(&screen.installed);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mod_copied_in_while_the_menu_shows_is_listed_without_a_restart() {
        let installed = std::env::temp_dir().join(format!("fray-mods-rescan-{}", std::process::id()));
        std::fs::create_dir_all(&installed).expect("a scratch folder");
        let mut screen =
            ModsScreen { entries: mods::installed_entries(&installed), installed: installed.clone(), problem: None };
        assert!(!refresh_listing(&mut screen), "nothing came or went");
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mods/marsh_folk");
        let copy = installed.join("marsh_folk");
        std::fs::create_dir_all(&copy).expect("the mod's folder");
        std::fs::copy(example.join("mod.ron"), copy.join("mod.ron")).expect("the manifest copies");
        assert!(refresh_listing(&mut screen), "the new folder is seen");
        assert_eq!(screen.entries.len(), 1);
        assert_eq!(screen.entries[0].folder_name(), "marsh_folk");
        std::fs::remove_dir_all(&installed).expect("the scratch folder is removed");
    }
}
