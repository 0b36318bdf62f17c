//! Controls without egui: the leafwing action enum and its remappable bindings, the battle UI
//! state (selection, the declaration being drafted, the hot-seat curtain), the legal options the
//! rules offer the unit declaring, and the commands that panels, clicks and keys all send.

use std::collections::BTreeMap;
use std::path::Path;

use crate::game::spine::GameSystems;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::model::launch::LaunchOptions;
use super::model::pace::Pace;
use super::model::playback::ReplayStep;
use super::model::screen::Screen;
use super::model::session::{BackToMenu, BattleStarted, StartBattle};
use crate::battlefield::{Cover, ZoneIdx};
use crate::rules::actions::{self, ActionContext, ThreatMap, ViewCache};
use crate::rules::components::*;
use crate::rules::forecast;
use crate::rules::legal;
use crate::rules::unit::UnitReadOnly;
use crate::rules::{CombatPhase, CombatState, DeclarationQueue};

mod bindings;
mod commands;
mod options;
mod wording;

use super::model::battle_ui::{BattleUi, DeclarationOptions, Draft, Leave, OptionEntry, Player, UiCommand};
use super::model::player_action::PlayerAction;
use super::model::settings::{BindingsChanged, KeyCapture, Settings};
pub use bindings::{
    Binding, MOUSE_BINDINGS, binding_conflicts, binding_name, default_bindings, key_names, load_bindings, parse_binding,
};
pub use commands::CommandTargets;
pub(super) use commands::apply_commands;
use commands::update_curtain;
use options::compute_options;
pub use options::{OptionsView, current_declarer, option_for_zone};
pub use wording::kind_description;
use wording::{kind_label, kind_rank};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<PlayerAction>::default())
        .init_resource::<BattleUi>()
        .init_resource::<KeyCapture>()
        .init_resource::<DeclarationOptions>()
        .init_resource::<super::model::board::BoardOverlays>()
        .add_message::<UiCommand>()
        .add_message::<BindingsChanged>()
        .add_systems(Startup, spawn_player)
        .add_systems(Update, reload_bindings.before(read_player_actions))
        // Every screen and every stage of a battle: restarting after the end or opening the
        // log during resolution must work as well as declaring does. Options are worked out
        // after the declaration order opens, and choices land before it records them. The level
        // editor reads its own keys: Q or R over its board must not quit or start a battle.
        .add_systems(
            Update,
            (
                reset_ui,
                read_player_actions
                    .run_if(not(typing))
                    .run_if(not(capturing_key))
                    .run_if(not(in_state(Screen::Editor))),
                compute_options,
                apply_commands,
                update_curtain,
            )
                .chain()
                .in_set(GameSystems::Commands),
        );
}

/// Whether keys are the settings' to capture: while they wait for a new binding, and after, until
/// every key held is let go (the captured key must not act once the wait ends).
fn capturing_key(capture: Res<KeyCapture>, keys: Res<ButtonInput<KeyCode>>, mut held_over: Local<bool>) -> bool {
    let capturing = capture.0 || (*held_over && keys.get_pressed().next().is_some());
    *held_over = capturing;
    capturing
}

/// Whether the player is typing into a text field (the menu's seed), so keys are text.
fn typing(wants: Option<Res<bevy_egui::input::EguiWantsInput>>) -> bool {
    wants.is_some_and(|wants| wants.wants_any_keyboard_input())
}

fn spawn_player(mut commands: Commands, options: Res<LaunchOptions>, mut ui: ResMut<BattleUi>) {
    let path = super::model::settings::settings_path(&options);
    let (map, problem) = load_bindings(Some(&path));
    ui.notice = problem;
    commands.spawn((Player, map, ActionState::<PlayerAction>::default()));
}

/// Reads the bindings again after the settings window rewrote them, so a rebound key works
/// at once.
fn reload_bindings(
    mut changed: MessageReader<BindingsChanged>,
    options: Res<LaunchOptions>,
    mut maps: Query<&mut InputMap<PlayerAction>, With<Player>>,
    mut ui: ResMut<BattleUi>,
) {
    if changed.read().count() == 0 {
        return;
    }
    let (map, problem) = load_bindings(Some(&super::model::settings::settings_path(&options)));
    for mut current in &mut maps {
        *current = map.clone();
    }
    ui.notice = problem;
}

/// A new battle (or a restart) starts with a clean UI; only a settings problem stays.
fn reset_ui(mut started: MessageReader<BattleStarted>, mut ui: ResMut<BattleUi>) {
    if started.read().count() == 0 {
        return;
    }
    let notice = ui.notice.take();
    *ui = BattleUi { notice, ..default() };
}

/// Keys and buttons become commands (egui absorbs its own clicks before they get here).
fn read_player_actions(
    players: Query<&ActionState<PlayerAction>, With<Player>>,
    mut commands: MessageWriter<UiCommand>,
) {
    for state in &players {
        for action in PlayerAction::ALL {
            if !state.just_pressed(&action) {
                continue;
            }
            let command = match action {
                PlayerAction::NextUnit => UiCommand::SelectNext,
                PlayerAction::PreviousUnit => UiCommand::SelectPrevious,
                PlayerAction::NextTarget => UiCommand::NextTarget,
                PlayerAction::Confirm => UiCommand::Confirm,
                PlayerAction::Cancel => UiCommand::Cancel,
                PlayerAction::EndDeclaration => UiCommand::EndDeclaration,
                PlayerAction::ThenMove => UiCommand::ThenMove,
                PlayerAction::ToggleLog => UiCommand::ToggleLog,
                PlayerAction::Help => UiCommand::ToggleHelp,
                PlayerAction::NextKind => UiCommand::NextKind,
                PlayerAction::Pause => UiCommand::TogglePause,
                PlayerAction::Step => UiCommand::Step,
                PlayerAction::Faster => UiCommand::ChangeSpeed(true),
                PlayerAction::Slower => UiCommand::ChangeSpeed(false),
                PlayerAction::Restart => UiCommand::Restart,
                PlayerAction::MainMenu => UiCommand::BackToMenu,
                PlayerAction::Quit => UiCommand::Quit,
                PlayerAction::RepeatOrders => UiCommand::RepeatOrders,
                PlayerAction::OrderAll => UiCommand::OrderAll,
                PlayerAction::ToggleOverlays => UiCommand::ToggleOverlays,
                PlayerAction::Save => UiCommand::Save,
                PlayerAction::ToggleMute => UiCommand::ToggleMute,
                PlayerAction::Undo => UiCommand::Undo,
                PlayerAction::ReplayEventBack => UiCommand::Replay(ReplayStep::EventBack),
                PlayerAction::ReplayEventForward => UiCommand::Replay(ReplayStep::EventForward),
                PlayerAction::ReplayRoundBack => UiCommand::Replay(ReplayStep::RoundBack),
                PlayerAction::ReplayRoundForward => UiCommand::Replay(ReplayStep::RoundForward),
                other => match other.choice() {
                    Some(number) => UiCommand::ChooseKind(number - 1),
                    // Panning, zooming and picking are the board's and the camera's.
                    None => continue,
                },
            };
            commands.write(command);
        }
    }
}
