//! Test play: the edited level is written to a scratch file and started through the menu's
//! own start-battle path; leaving that battle (Back to menu, during it or at its end) comes
//! back to the editor with the edits as they were.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::EditorState;
use crate::game::model::screen::Screen;
use crate::game::model::session::{LevelChoice, LevelSource, Session, StartBattle};
use crate::levels::catalog::AssetSource;
use crate::levels::edit;
use crate::levels::mods::ModSet;

/// Starts a battle of the level being edited.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct TestPlay;

/// The test battle's entry in the session's level list and what to put back afterwards.
#[derive(Resource, Debug)]
struct TestBattle {
    /// The scratch file the battle loads.
    file: PathBuf,
    /// The level chosen in the menu before the test play.
    selected: usize,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<TestPlay>()
        .add_systems(Update, start_test_play.run_if(in_state(Screen::Editor)))
        .add_systems(OnEnter(Screen::Menu), back_to_editor);
}

/// The scratch file of a test play: in the temporary folder, unless the level reads a ruleset
/// beside it or a catalog the temporary folder would not find; then beside the level.
fn scratch_path(level_path: &Path, ruleset: &str, mods: &ModSet) -> PathBuf {
    let stem = level_path.file_stem().and_then(|stem| stem.to_str()).unwrap_or("level");
    let name = format!(".{stem}.test-play.ron");
    let temporary = std::env::temp_dir().join("fray-editor").join(&name);
    let same_catalog = AssetSource::near(level_path, mods) == AssetSource::near(&temporary, mods);
    if ruleset.ends_with(".ron") || !same_catalog { level_path.with_file_name(name) } else { temporary }
}

fn start_test_play(
    mut requests: MessageReader<TestPlay>,
    mut commands: Commands,
    mut state: ResMut<EditorState>,
    mut session: ResMut<Session>,
    mut start: MessageWriter<StartBattle>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let Some(level) = &state.level else {
        return;
    };
    let file = scratch_path(&state.path, &level.ruleset, &state.mods);
    let written = edit::save_text(level).map_err(|error| error.to_string()).and_then(|text| {
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder).map_err(|error| error.to_string())?;
        }
        std::fs::write(&file, text).map_err(|error| error.to_string())
    });
    if let Err(error) = written {
        state.status = format!("Test play: cannot write {}: {error}", file.display());
        return;
    }
    let entry = LevelChoice::load(LevelSource::File(file.clone()), &state.mods);
    if let Some(error) = entry.error {
        state.status = format!("Test play needs a level that passes the check:\n{error}");
        let _ = std::fs::remove_file(&file);
        return;
    }
    let selected = session.selected;
    session.levels.push(entry);
    let at = session.levels.len() - 1;
    session.select(at);
    commands.insert_resource(TestBattle { file, selected });
    state.test_playing = true;
    state.status = "Back from test play.".into();
    start.write(StartBattle);
}

/// Leaving a test battle for the menu comes back to the editor instead, and takes the test
/// level off the menu's list.
fn back_to_editor(
    mut commands: Commands,
    mut state: ResMut<EditorState>,
    mut session: ResMut<Session>,
    test: Option<Res<TestBattle>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(test) = test else {
        return;
    };
    if !state.test_playing {
        return;
    }
    state.test_playing = false;
    let _ = std::fs::remove_file(&test.file);
    let file = LevelSource::File(test.file.clone());
    session.levels.retain(|level| level.source != file);
    session.select(test.selected);
    commands.remove_resource::<TestBattle>();
    next.set(Screen::Editor);
}
