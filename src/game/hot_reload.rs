//! Live hot reload: what the game does with a level, ruleset or catalog file changed on disk
//! (see [`watch`](super::watch)). The menu re-reads the level at once; a battle in progress
//! takes new names and map art as it is, and offers a restart where the rules changed; a broken
//! edit shows its `file:line:column` notice while the last good data stays in play.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::board::{NameLabel, Token};
use super::model::playback::Playback;
use super::model::screen::Screen;
use super::model::session::{BattleStarted, LevelChoice, LevelSource, Session};
use super::watch::{CatalogChanged, LEVELS_DIR, LevelFileChanged, same_file};
use crate::battlefield::Battlefield;
use crate::levels::change::{LevelChange, classify};
use crate::levels::mods::{ActiveMods, ModSet};
use crate::levels::{BattleTemplate, ModPictures, load_level};
use crate::rules::components::UnitId;
use crate::rules::{CombatInfo, Sides};

/// What hot reload has to tell the player.
#[derive(Resource, Clone, Debug, Default)]
pub struct HotReload {
    /// The level in play changed on disk in ways the rules read (these parts, in words): the
    /// battle goes on as it was, and a banner offers a restart.
    pub restart_offer: Option<Vec<&'static str>>,
    /// The level whose failed reload the notice shows, so its next good load clears it.
    notice_for: Option<PathBuf>,
}

/// The messages hot reload reacts to, read once per system.
#[derive(bevy::ecs::system::SystemParam)]
struct Changes<'w, 's> {
    levels: MessageReader<'w, 's, LevelFileChanged>,
    catalogs: MessageReader<'w, 's, CatalogChanged>,
}

impl Changes<'_, '_> {
    /// The level files changed, and whether any catalog file or ruleset did.
    fn take(&mut self) -> (Vec<PathBuf>, bool) {
        let levels = self.levels.read().map(|change| change.path.clone()).collect();
        (levels, self.catalogs.read().count() > 0)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HotReload>()
        .add_systems(
            Update,
            (reload_menu_levels, reload_battle.run_if(in_state(Screen::Battle)), rename_tokens).chain(),
        )
        .add_systems(Update, forget_restart_offer.run_if(on_message::<BattleStarted>))
        .add_systems(OnEnter(Screen::Menu), forget_restart_offer);
}

/// Re-reads every level of the menu whose file changed (all of them when the catalog or a
/// ruleset did); a new file in `levels/` joins the list. On the menu, a level that no longer
/// loads shows its errors in the notice, and its next good load clears them.
fn reload_menu_levels(
    mut changes: Changes,
    mut session: ResMut<Session>,
    mut hot: ResMut<HotReload>,
    (screen, mods): (Res<State<Screen>>, Res<ActiveMods>),
) {
    let (files, catalog) = changes.take();
    if files.is_empty() && !catalog {
        return;
    }
    let on_menu = *screen.get() == Screen::Menu;
    for path in &files {
        let Some(at) = menu_position(&mut session, path, &mods.0) else {
            continue;
        };
        let outcome = reload_choice(&mut session.levels[at], &mods.0);
        if on_menu {
            report(&mut session, &mut hot, path, outcome);
        }
    }
    if !catalog {
        return;
    }
    let selected = session.selected;
    for at in 0..session.levels.len() {
        let LevelSource::File(path) = session.levels[at].source.clone() else {
            continue;
        };
        let outcome = reload_choice(&mut session.levels[at], &mods.0);
        let noticed = hot.notice_for.as_deref().is_some_and(|shown| same_file(shown, &path));
        if on_menu && (at == selected || noticed) {
            report(&mut session, &mut hot, &path, outcome);
        }
    }
}

/// Where the level at `path` is in the menu; a level file new to `levels/` is added (in place of
/// the built-in copy of the same name, if any).
fn menu_position(session: &mut Session, path: &Path, mods: &ModSet) -> Option<usize> {
    let listed = session
        .levels
        .iter()
        .position(|level| matches!(&level.source, LevelSource::File(file) if same_file(file, path)));
    if listed.is_some() {
        return listed;
    }
    let levels_dir = Path::new(LEVELS_DIR).canonicalize().ok();
    let in_levels_dir = levels_dir.is_some() && path.parent().and_then(|dir| dir.canonicalize().ok()) == levels_dir;
    if !in_levels_dir || !path.is_file() {
        return None;
    }
    let fresh = LevelChoice::load(LevelSource::File(path.to_path_buf()), mods);
    let builtin = session.levels.iter().position(
        |level| matches!(&level.source, LevelSource::Builtin(name) if path.file_name().is_some_and(|file| file == *name)),
    );
    match builtin {
        Some(at) => session.levels[at] = fresh,
        None => session.levels.push(fresh),
    }
    // Already read: no second load for it.
    None
}

/// Loads a menu level afresh: a good load replaces its title and data; a bad one keeps the
/// last good data (and its place in the list) beside the errors.
fn reload_choice(choice: &mut LevelChoice, mods: &ModSet) -> Result<(), String> {
    match choice.source.load(mods) {
        Ok(template) => {
            choice.title = template.level_name.clone();
            choice.template = Some(template);
            choice.error = None;
            Ok(())
        }
        Err(errors) => {
            let message = errors.to_string();
            choice.error = Some(message.clone());
            Err(message)
        }
    }
}

/// Shows a failed reload of `level` in the notice, or clears the notice its last failure left.
fn report(session: &mut Session, hot: &mut HotReload, level: &Path, outcome: Result<(), String>) {
    match outcome {
        Err(message) => {
            session.error = Some(message);
            hot.notice_for = Some(level.to_path_buf());
        }
        Ok(()) => {
            if hot.notice_for.as_deref().is_some_and(|shown| same_file(shown, level)) {
                session.error = None;
                hot.notice_for = None;
            }
        }
    }
}

/// What of a battle in progress shows its level's names and map art.
#[derive(bevy::ecs::system::SystemParam)]
struct ShownBattle<'w, 's> {
    units: Query<'w, 's, (&'static UnitId, &'static mut Name)>,
    sides: ResMut<'w, Sides>,
    battlefield: ResMut<'w, Battlefield>,
    info: ResMut<'w, CombatInfo>,
    looks: Option<ResMut<'w, crate::levels::terrain::BoardLooks>>,
    pictures: Option<ResMut<'w, ModPictures>>,
}

impl ShownBattle<'_, '_> {
    /// Gives the battle `new`'s names and map art, leaving every rules value as it is.
    fn take_presentation(&mut self, new: &BattleTemplate) {
        for (id, mut name) in &mut self.units {
            if let Some(unit) = new.units.iter().find(|unit| unit.id == id.0)
                && name.as_str() != unit.name
            {
                name.set(unit.name.clone());
            }
        }
        for (side, template) in self.sides.0.iter_mut().zip(&new.sides) {
            if side.name != template.name {
                side.name = template.name.clone();
            }
        }
        if self.battlefield.zones() != new.battlefield.zones() {
            // A new resource: the board redraws the zones (their names, their places).
            *self.battlefield = new.battlefield.clone();
        }
        if let Some(pictures) = self.pictures.as_mut()
            && **pictures != new.pictures
        {
            // Before the looks, so the board redraws with the mods' pictures the new looks name.
            **pictures = new.pictures.clone();
        }
        if let Some(looks) = self.looks.as_mut()
            && **looks != new.looks
        {
            // The board redraws when its looks change.
            **looks = new.looks.clone();
        }
        // A changed `CombatInfo` means a new battle to the AI and the save recorder: the name
        // goes in without telling them.
        self.info.bypass_change_detection().level = new.level_name.clone();
    }
}

/// Re-checks the level in play when its file, a catalog file or a ruleset changed: presentation
/// goes in at once, a rules change is offered as a restart, a broken file keeps the last good
/// data and shows its errors.
fn reload_battle(
    mut changes: Changes,
    mut session: ResMut<Session>,
    mut hot: ResMut<HotReload>,
    (mut shown, playback, mods): (ShownBattle, Option<Res<Playback>>, Res<ActiveMods>),
) {
    let (files, catalog) = changes.take();
    // A replay shows a recorded battle as it was: there is nothing to restart.
    if (files.is_empty() && !catalog) || playback.is_some() {
        return;
    }
    let Some(source) = session.current.as_ref().map(|current| current.source.clone()) else {
        return;
    };
    let concerned = catalog || files.iter().any(|path| same_file(path, &source));
    // A built-in level has no file to change.
    if !concerned || !source.is_file() {
        return;
    }
    let new = match load_level(&source, &mods.0) {
        Ok(new) => new,
        Err(errors) => return report(&mut session, &mut hot, &source, Err(errors.to_string())),
    };
    report(&mut session, &mut hot, &source, Ok(()));
    let Some(current) = &session.current else {
        return;
    };
    match classify(current, &new) {
        LevelChange::Same => hot.restart_offer = None,
        LevelChange::Presentational => {
            shown.take_presentation(&new);
            session.current = Some(new);
            hot.restart_offer = None;
        }
        LevelChange::Rules(parts) => hot.restart_offer = Some(parts),
    }
}

/// A token's name line follows its unit's name.
fn rename_tokens(
    renamed: Query<&Name, Changed<Name>>,
    tokens: Query<(&Token, &Children)>,
    mut labels: Query<&mut NameLabel>,
) {
    if renamed.is_empty() {
        return;
    }
    for (Token(unit), children) in &tokens {
        let Ok(name) = renamed.get(*unit) else {
            continue;
        };
        for child in children.iter() {
            if let Ok(mut label) = labels.get_mut(child)
                && label.full != name.as_str()
            {
                label.full = name.to_string();
            }
        }
    }
}

/// A new battle (or the menu) has nothing left to restart for.
fn forget_restart_offer(mut hot: ResMut<HotReload>) {
    hot.restart_offer = None;
}
