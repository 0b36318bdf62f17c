//! The editor's live check (the same checker as `fray check`, run on the text a save would
//! write, a moment after the last edit) and saving that text.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::{CHECK_DELAY, CheckLine, EditorState};
use crate::game::model::screen::Screen;
use crate::levels::catalog::AssetSource;
use crate::levels::edit;
use crate::levels::load::check_level_text;
use crate::levels::mods::ModSet;
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
    let (errors, warnings) = check(level, &state.path, &state.mods);
    state.errors = errors;
    state.warnings = warnings;
}

/// What `fray check` says of `level` saved at `path`, with `mods`: its errors and its warnings,
/// with the file name left off the lines that are about this level.
pub fn check(level: &LevelFile, path: &Path, mods: &ModSet) -> (Vec<CheckLine>, Vec<String>) {
    let text = match edit::save_text(level) {
        Ok(text) => text,
        Err(error) => return (vec![CheckLine { text: error.to_string(), concerns: Vec::new() }], Vec::new()),
    };
    let own = format!("{}:", path.display());
    let shorten = |line: String| line.strip_prefix(&own).map(str::to_string).unwrap_or(line);
    match check_level_text(&text, path, &AssetSource::near(path, mods)) {
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

/// The level file's extension.
const LEVEL_EXTENSION: &str = ".ron";

/// What Save as makes of the path field: trimmed, ending in one `.ron` (added where the player
/// left it off; a doubled one taken back).
pub(super) fn save_as_path(field: &str) -> Result<PathBuf, String> {
    let mut name = field.trim().to_string();
    if name.is_empty() {
        return Err("Type a file name to save as, such as levels/my_level.ron".into());
    }
    while name.ends_with(&LEVEL_EXTENSION.repeat(2)) {
        name.truncate(name.len() - LEVEL_EXTENSION.len());
    }
    if !name.ends_with(LEVEL_EXTENSION) {
        name.push_str(LEVEL_EXTENSION);
    }
    Ok(PathBuf::from(name))
}

/// The folder that saving to `path` would have to create, if there is one.
pub(super) fn missing_folder(path: &Path) -> Option<PathBuf> {
    path.parent().filter(|folder| !folder.as_os_str().is_empty() && !folder.is_dir()).map(Path::to_path_buf)
}

/// Writes the level to `path` and makes that its path from now on. Under Save as (`typed`), a
/// folder that does not exist yet is created only when the player asks a second time for the
/// same one; Save writes where the editor itself chose, creating its `levels/` if need be.
pub(super) fn save_level(state: &mut EditorState, path: PathBuf, typed: bool) {
    if state.level.is_none() {
        return;
    }
    if typed
        && let Some(folder) = missing_folder(&path)
        && state.new_folder.as_ref() != Some(&folder)
    {
        state.status = format!(
            "The folder {} does not exist. Press Save as again to create it, or change the file name.",
            folder.display()
        );
        state.path_field = path.display().to_string();
        state.new_folder = Some(folder);
        return;
    }
    state.new_folder = None;
    let Some(level) = &state.level else {
        return;
    };
    // Through a temporary file, so a crash mid-write never loses the modder's level.
    let written = edit::save_text(level).map_err(|error| error.to_string()).and_then(|text| {
        crate::save::format::write_atomically(&path, text.as_bytes()).map_err(|error| error.to_string())
    });
    let (errors, warnings) = check(level, &path, &state.mods);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_as_ends_the_name_in_one_ron() {
        assert_eq!(save_as_path(" levels/mine ").unwrap(), PathBuf::from("levels/mine.ron"));
        assert_eq!(save_as_path("levels/mine.ron").unwrap(), PathBuf::from("levels/mine.ron"));
        assert_eq!(save_as_path("levels/mine.ron.ron").unwrap(), PathBuf::from("levels/mine.ron"));
        assert!(save_as_path("   ").is_err());
    }

    #[test]
    fn save_as_asks_before_it_makes_a_folder() {
        let root = std::env::temp_dir().join(format!("fray-editor-save-{}", std::process::id()));
        let path = root.join("nested/mine.ron");
        let starter = edit::new_level("stress_and_wounds", crate::levels::starter::StarterField::Zones(2));
        let mut state = EditorState { level: Some(starter.expect("a starter level")), ..default() };
        save_level(&mut state, path.clone(), true);
        assert!(!root.exists(), "no folder made without asking");
        assert!(state.status.contains("does not exist"), "{}", state.status);
        save_level(&mut state, path.clone(), true);
        assert!(path.is_file(), "asked twice, the folder is made and the level saved: {}", state.status);
        std::fs::remove_dir_all(&root).expect("the test's folder is removed");
    }
}
