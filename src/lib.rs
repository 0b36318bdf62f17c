//! Fray: a turn-based tactical skirmish engine that plays tabletop combat chapters as written.
//!
//! The crate is a library of Bevy plugins (the rules core, the battlefield, levels, the AIs)
//! and a thin binary on top. Everything here is headless.

pub mod ai;
pub mod battlefield;
pub mod cli;
pub mod files;
#[cfg(feature = "gui")]
pub mod game;
pub mod headless;
pub mod levels;
pub mod net;
pub mod rules;
pub mod save;
pub mod vocabulary;

use bevy::prelude::*;

/// The headless engine: rules, battlefield, level loading, the AI controllers and the
/// declaration record that saves are made of.
pub fn headless_plugin(app: &mut App) {
    app.add_plugins((rules::plugin, battlefield::plugin, ai::plugin, save::plugin));
}

/// An app of the headless engine whose schedules run on the calling thread: a round is a
/// handful of small systems, so threads would cost more than they save, and one thread keeps
/// every battle (and every search simulation) on one core.
pub fn single_threaded_headless_app() -> App {
    let mut app = App::new();
    app.add_plugins(headless_plugin);
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
    app
}

#[cfg(test)]
mod tests {
    /// Every file under `assets/` (the game's data, icons, sounds and music) has its line in
    /// `assets/CREDITS.md`: its path from `assets/` in backticks, or, for an icon, its name.
    #[test]
    fn every_file_under_assets_has_a_credits_line() {
        let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let credits = std::fs::read_to_string(assets.join("CREDITS.md")).expect("assets/CREDITS.md");
        let mut folders = vec![assets.clone()];
        let mut missing = Vec::new();
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("a readable folder").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let relative = path.strip_prefix(&assets).expect("under assets").to_string_lossy().replace('\\', "/");
                let icon = relative
                    .strip_prefix("icons/")
                    .and_then(|name| name.strip_suffix(".png"))
                    .is_some_and(|name| credits.contains(&format!("| `{name}` |")));
                if !icon && !credits.contains(&format!("`{relative}`")) {
                    missing.push(relative);
                }
            }
        }
        missing.sort();
        assert!(missing.is_empty(), "files under assets/ with no line in assets/CREDITS.md: {missing:?}");
    }
}
