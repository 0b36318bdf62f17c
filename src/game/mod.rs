//! The window game: menu, board, panels and controls on top of the headless engine. Everything
//! the player sees comes from the rules code; this layer declares actions and draws state.

pub mod audio;
mod autoplay;
mod board;
mod camera;
pub mod catch_up;
pub mod controls;
pub mod editor;
pub mod feedback;
pub mod host;
mod hot_reload;
mod hover;
pub mod icons;
mod labels;
mod lobby;
pub mod model;
pub mod online;
mod overlays;
mod plan;
pub mod playback;
pub mod playout;
mod power;
pub mod saves;
pub mod script;
pub mod seats;
pub mod session;
pub mod settings;
mod spine;
pub mod standing_orders;
mod terrain_art;
mod token_art;
pub mod turn_flow;
pub mod tutorial;
mod ui;
pub mod watch;

use bevy::prelude::*;
use bevy_egui::EguiPlugin;

use crate::levels::mods::{ActiveMods, ModSet};

pub use hot_reload::HotReload;
pub use model::battle_ui::{BattleUi, Draft, UiCommand};
pub use model::launch::LaunchOptions;
pub use model::player_action::PlayerAction;
pub use model::screen::Screen;
pub use model::session::{LevelChoice, LevelSource, Seat, Session, StartBattle};

/// Everything the window game adds to the headless engine, without the window itself (tests
/// add it to a headless app with `MinimalPlugins` and drive it through [`UiCommand`]s).
pub fn logic_plugin(app: &mut App) {
    app.add_plugins((
        spine::plugin,
        session::plugin,
        controls::plugin,
        standing_orders::plugin,
        saves::plugin,
        playback::plugin,
        playout::plugin,
        turn_flow::plugin,
        tutorial::plugin,
        seats::plugin,
        catch_up::plugin,
    ));
}

/// Live hot reload: the file watcher and what the menu and a battle do with a changed level,
/// ruleset or catalog file (headless tests add it beside [`logic_plugin`]).
pub fn hot_reload_plugin(app: &mut App) {
    app.add_plugins((watch::plugin, hot_reload::plugin));
}

/// Builds and runs the window game, with `mods` in play until its Mods screen changes them.
pub fn run(options: LaunchOptions, mods: ModSet) -> AppExit {
    // A replay is not a battle of the player's: it writes no autosave over theirs.
    // Nor is a battle followed online: the referee keeps its record.
    let autosave = options.playback.is_none() && options.join.is_none();
    let join = options.join.clone();
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "Fray".into(), resolution: (1280, 800).into(), ..default() }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins(crate::headless_plugin)
    .insert_resource(options)
    .insert_resource(ActiveMods(mods))
    .add_plugins((
        logic_plugin,
        board::plugin,
        camera::plugin,
        ui::plugin,
        autoplay::plugin,
        script::plugin,
        icons::plugin,
        terrain_art::plugin,
        power::plugin,
        settings::plugin,
        audio::plugin,
        hot_reload_plugin,
        editor::plugin,
    ));
    if autosave {
        app.insert_resource(saves::Autosave);
    }
    // The window keeps drawing while a search AI thinks.
    app.insert_resource(crate::ai::SearchThread::Background);
    // The board's readability layers: names, feedback, hover cards and grid overlays.
    app.add_plugins((labels::plugin, feedback::plugin, hover::plugin, overlays::plugin, plan::plugin));
    app.add_plugins((
        playback::window_plugin,
        catch_up::window_plugin,
        playout::window_plugin,
        tutorial::window_plugin,
        seats::window_plugin,
    ));
    app.add_plugins((online::window_plugin, host::plugin, lobby::plugin));
    if let Some(join) = &join {
        online::start_joining(app.world_mut(), join);
    }
    // The round is shown count by count.
    app.insert_resource(crate::rules::ResolveByCount);
    app.run()
}
