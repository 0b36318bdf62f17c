//! Everything a player can do with a key or a button: the leafwing action enum, with each
//! action's settings name and its words in the help window.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

/// How many kinds of action have a number key (`choose_1` … `choose_10`, the last on `0`).
pub const NUMBERED_KINDS: usize = 10;

/// Everything a player can do with a key or a button.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum PlayerAction {
    /// Inspect the next unit.
    NextUnit,
    /// Inspect the previous unit.
    PreviousUnit,
    /// Choose action 1.
    Choose1,
    /// Choose action 2.
    Choose2,
    /// Choose action 3.
    Choose3,
    /// Choose action 4.
    Choose4,
    /// Choose action 5.
    Choose5,
    /// Choose action 6.
    Choose6,
    /// Choose action 7.
    Choose7,
    /// Choose action 8.
    Choose8,
    /// Choose action 9.
    Choose9,
    /// Choose action 10.
    Choose10,
    /// Choose the next kind of action (for kinds past the numbered ones).
    NextKind,
    /// Cycle to the next legal target of the chosen action.
    NextTarget,
    /// Pick what is under the pointer (a unit to inspect or target).
    Pick,
    /// Confirm the drafted declaration (or lift the hot-seat curtain).
    Confirm,
    /// Drop the draft, or the selection.
    Cancel,
    /// The declaring unit holds this round.
    EndDeclaration,
    /// Then move: the next place clicked is where the drafted action's unit moves once it has
    /// acted, where the ruleset splits movement (`C-MOVE-1`); pressed again, drops that move.
    ThenMove,
    /// Pan the camera left.
    PanLeft,
    /// Pan the camera right.
    PanRight,
    /// Pan the camera up.
    PanUp,
    /// Pan the camera down.
    PanDown,
    /// Zoom in.
    ZoomIn,
    /// Zoom out.
    ZoomOut,
    /// Fit the whole board between the panels.
    FitBoard,
    /// Show or hide the combat log.
    ToggleLog,
    /// Show or hide the list of bindings.
    Help,
    /// Pause or resume the rounds.
    Pause,
    /// While paused, play on by one initiative count (or start the next round).
    Step,
    /// Resolve rounds faster (1x, 2x, instant).
    Faster,
    /// Resolve rounds slower.
    Slower,
    /// Start the same level again (asks first while the battle is on).
    Restart,
    /// Back to the main menu (asks first while the battle is on).
    MainMenu,
    /// Quit the game (asks first while the battle is on).
    Quit,
    /// Each of your units declares what it did last round, while it still can.
    RepeatOrders,
    /// Declare the drafted order, and the same for each of your units that can take it.
    OrderAll,
    /// Show or hide the grid overlays (path, sight lines, threatened squares).
    ToggleOverlays,
    /// Save the battle.
    Save,
    /// Turn every sound off, or back on.
    ToggleMute,
    /// Take back your last declaration of this round (or turn).
    Undo,
    /// In a replay: one event back.
    ReplayEventBack,
    /// In a replay: one event on.
    ReplayEventForward,
    /// In a replay: back to the round before.
    ReplayRoundBack,
    /// In a replay: on to the end of the next round.
    ReplayRoundForward,
}

impl PlayerAction {
    /// Every action, in help-overlay order.
    pub const ALL: [PlayerAction; 45] = [
        Self::NextUnit,
        Self::PreviousUnit,
        Self::Choose1,
        Self::Choose2,
        Self::Choose3,
        Self::Choose4,
        Self::Choose5,
        Self::Choose6,
        Self::Choose7,
        Self::Choose8,
        Self::Choose9,
        Self::Choose10,
        Self::NextKind,
        Self::NextTarget,
        Self::Pick,
        Self::Confirm,
        Self::Cancel,
        Self::EndDeclaration,
        Self::ThenMove,
        Self::RepeatOrders,
        Self::OrderAll,
        Self::Undo,
        Self::Save,
        Self::PanLeft,
        Self::PanRight,
        Self::PanUp,
        Self::PanDown,
        Self::ZoomIn,
        Self::ZoomOut,
        Self::FitBoard,
        Self::ToggleLog,
        Self::ToggleOverlays,
        Self::ToggleMute,
        Self::Help,
        Self::Pause,
        Self::Step,
        Self::Faster,
        Self::Slower,
        Self::Restart,
        Self::MainMenu,
        Self::Quit,
        Self::ReplayEventBack,
        Self::ReplayEventForward,
        Self::ReplayRoundBack,
        Self::ReplayRoundForward,
    ];

    /// The name used in the settings file and the help overlay.
    pub fn key(self) -> &'static str {
        match self {
            Self::NextUnit => "next_unit",
            Self::PreviousUnit => "previous_unit",
            Self::Choose1 => "choose_1",
            Self::Choose2 => "choose_2",
            Self::Choose3 => "choose_3",
            Self::Choose4 => "choose_4",
            Self::Choose5 => "choose_5",
            Self::Choose6 => "choose_6",
            Self::Choose7 => "choose_7",
            Self::Choose8 => "choose_8",
            Self::Choose9 => "choose_9",
            Self::Choose10 => "choose_10",
            Self::NextKind => "next_kind",
            Self::NextTarget => "next_target",
            Self::Pick => "pick",
            Self::Confirm => "confirm",
            Self::Cancel => "cancel",
            Self::EndDeclaration => "end_declaration",
            Self::ThenMove => "then_move",
            Self::PanLeft => "pan_left",
            Self::PanRight => "pan_right",
            Self::PanUp => "pan_up",
            Self::PanDown => "pan_down",
            Self::ZoomIn => "zoom_in",
            Self::ZoomOut => "zoom_out",
            Self::FitBoard => "fit_board",
            Self::ToggleLog => "toggle_log",
            Self::Help => "help",
            Self::Pause => "pause",
            Self::Step => "step",
            Self::Faster => "faster",
            Self::Slower => "slower",
            Self::Restart => "restart",
            Self::MainMenu => "main_menu",
            Self::Quit => "quit",
            Self::RepeatOrders => "repeat_orders",
            Self::OrderAll => "order_all",
            Self::ToggleOverlays => "toggle_overlays",
            Self::Save => "save",
            Self::ToggleMute => "toggle_mute",
            Self::Undo => "undo",
            Self::ReplayEventBack => "replay_event_back",
            Self::ReplayEventForward => "replay_event_forward",
            Self::ReplayRoundBack => "replay_round_back",
            Self::ReplayRoundForward => "replay_round_forward",
        }
    }

    /// What the action does, in the player's words (the help window's second column).
    pub fn describe(self) -> &'static str {
        match self {
            Self::NextUnit => "Look at the next unit",
            Self::PreviousUnit => "Look at the previous unit",
            Self::Choose1 => "Choose the 1st action in the list",
            Self::Choose2 => "Choose the 2nd action in the list",
            Self::Choose3 => "Choose the 3rd action in the list",
            Self::Choose4 => "Choose the 4th action in the list",
            Self::Choose5 => "Choose the 5th action in the list",
            Self::Choose6 => "Choose the 6th action in the list",
            Self::Choose7 => "Choose the 7th action in the list",
            Self::Choose8 => "Choose the 8th action in the list",
            Self::Choose9 => "Choose the 9th action in the list",
            Self::Choose10 => "Choose the 10th action in the list",
            Self::NextKind => "Choose the next kind of action, past the tenth",
            Self::NextTarget => "Cycle through the chosen action's targets",
            Self::Pick => "Pick the unit or place under the pointer",
            Self::Confirm => "Declare the drafted action (or lift the hot-seat curtain)",
            Self::Cancel => "Drop the draft, or the selection",
            Self::EndDeclaration => "The declaring unit holds: it does nothing this round",
            Self::ThenMove => "Add a move after the action (rulesets that split moves)",
            Self::PanLeft => "Move the view left",
            Self::PanRight => "Move the view right",
            Self::PanUp => "Move the view up",
            Self::PanDown => "Move the view down",
            Self::ZoomIn => "Zoom in",
            Self::ZoomOut => "Zoom out",
            Self::FitBoard => "Fit the whole board between the panels",
            Self::ToggleLog => "Show or hide the combat log",
            Self::Help => "Show or hide this list",
            Self::Pause => "Pause or resume the rounds",
            Self::Step => "While paused, play on by one initiative count, or start the next round",
            Self::Faster => "Play the rounds faster (1x, 2x, instant)",
            Self::Slower => "Play the rounds slower",
            Self::Restart => "Start this level again (asks first)",
            Self::MainMenu => "Back to the main menu (asks first)",
            Self::Quit => "Quit the game (asks first)",
            Self::RepeatOrders => "Each of your units repeats last round's order, where it still can",
            Self::OrderAll => "Give the drafted order to every unit of yours that can take it",
            Self::ToggleOverlays => "Show or hide the grid overlays: path, sight lines, threatened squares",
            Self::Save => "Save the battle",
            Self::ToggleMute => "Turn every sound off, or back on",
            Self::Undo => "Take back your last declaration this round",
            Self::ReplayEventBack => "Replay: one event back",
            Self::ReplayEventForward => "Replay: one event on",
            Self::ReplayRoundBack => "Replay: back to the round before",
            Self::ReplayRoundForward => "Replay: on to the end of the next round",
        }
    }

    /// The number of a Choose action (1–10).
    pub fn choice(self) -> Option<usize> {
        const FIRST_CHOICE: usize = 2;
        let at = Self::ALL.iter().position(|action| *action == self)?;
        (FIRST_CHOICE..FIRST_CHOICE + NUMBERED_KINDS).contains(&at).then(|| at + 1 - FIRST_CHOICE)
    }
}
