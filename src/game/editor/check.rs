//! The editor's live check (the same checker as `fray check`, run on the text a save would
//! write, a moment after the last edit) and saving that text.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::{CHECK_DELAY, CheckLine, EditorState};
use crate::game::session::Screen;
use crate::levels::catalog::AssetSource;
use crate::levels::edit;
use crate::levels::load::check_level_text;
use crate::levels::schema::LevelFile;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, live_check.run_if(in_state(Screen::Editor)));
}

/// Checks the level once it has stood unchanged for [`CHECK_DELAY`].
fn live_check(time: Res<Time<Real>>, mut state: ResMut<EditorState>) {
    let Some(waited) = state.check_owed else {
        return;
    };
    let waited = waited + time.delta();
    if waited < CHECK_DELAY {
        state.check_owed = Some(waited);
        return;
    }
    state.check_owed = None;
    let Some(level) = &state.level else {
        return;
    };
    let (errors, warnings) = check(level, &state.path);
    state.errors = errors;
    state.warnings = warnings;
}

/// What `fray check` says of `level` saved at `path`: its errors and its warnings, with the
/// file name left off the lines that are about this level.
pub fn check(level: &LevelFile, path: &Path) -> (Vec<CheckLine>, Vec<String>) {
    let text = match edit::save_text(level) {
        Ok(text) => text,
        Err(error) => return (vec![CheckLine { text: error.to_string(), concerns: Vec::new() }], Vec::new()),
    };
    let own = format!("{}:", path.display());
    let shorten = |line: String| line.strip_prefix(&own).map(str::to_string).unwrap_or(line);
    match check_level_text(&text, path, &AssetSource::near(path)) {
        Ok(checked) => (Vec::new(), checked.warnings.iter().map(|warning| shorten(warning.to_string())).collect()),
        Err(errors) => {
            let lines = errors
                .0
                .iter()
                .map(|error| {
                    let text = shorten(error.to_string());
                    CheckLine { concerns: edit::concerns(&text), text }
                })
                .collect();
            (lines, Vec::new())
        }
    }
}

/// Writes the level to `path` (creating its folder) and makes that its path from now on.
pub(super) fn save_level(state: &mut EditorState, path: PathBuf) {
    let Some(level) = &state.level else {
        return;
    };
    let written = edit::save_text(level).map_err(|error| error.to_string()).and_then(|text| {
        if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|error| error.to_string())?;
        }
        std::fs::write(&path, text).map_err(|error| error.to_string())
    });
    let (errors, warnings) = check(level, &path);
    state.errors = errors;
    state.warnings = warnings;
    state.status = match written {
        Ok(()) => {
            let verdict = if state.errors.is_empty() { "passes fray check" } else { "has errors" };
            format!("Saved {} ({verdict})", path.display())
        }
        Err(error) => format!("Could not save {}: {error}", path.display()),
    };
    state.path_field = path.display().to_string();
    state.path = path;
}
