//! The battle UI model: the commands every input sends, the selection and declaration draft,
//! the hot-seat curtain and the options on offer.

use bevy::prelude::*;

use super::pace::Speed;
use super::playback::ReplayStep;
use super::session::Seat;
use crate::battlefield::{Cover, ZoneIdx};
use crate::rules::actions::AttackOdds;
use crate::rules::components::Action;
use crate::rules::forecast::Forecast;

/// The player's input entity.
#[derive(Component, Debug, Default)]
pub struct Player;

/// A request from the panels, the board or the keys; all UI changes go through these.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum UiCommand {
    /// On to the next lesson of the tutorial (its Continue or Skip).
    NextLesson,
    /// Open or close the battle's seats window.
    ToggleSeats,
    /// Hand a side (by index) to this seat from its next declaration on.
    SetSeat(usize, Seat),
    /// Inspect this unit (or, while picking a target, target it).
    Select(Entity),
    /// Inspect the next unit.
    SelectNext,
    /// Inspect the previous unit.
    SelectPrevious,
    /// Choose the n-th (0-based) kind of action on offer.
    ChooseKind(usize),
    /// Choose the n-th (0-based) option of the chosen kind.
    ChooseOption(usize),
    /// A zone (or grid square) was clicked: move there with the drafted kind, or with a plain
    /// move when the drafted kind cannot.
    PickZone(ZoneIdx),
    /// Cycle to the next option of the chosen kind.
    NextTarget,
    /// Confirm the draft.
    Confirm,
    /// Drop the draft or the selection.
    Cancel,
    /// The declaring unit holds.
    EndDeclaration,
    /// The next place picked is where the drafted action's unit moves after acting
    /// (`C-MOVE-1`); again, or with a move after already set, drops it.
    ThenMove,
    /// The next player has the seat: lift the curtain.
    LiftCurtain,
    /// Show or hide the log.
    ToggleLog,
    /// Show or hide the help overlay.
    ToggleHelp,
    /// Choose the next kind of action on offer (wrapping round).
    NextKind,
    /// Start the same level again (asks first while the battle is on).
    Restart,
    /// Back to the menu (asks first while the battle is on).
    BackToMenu,
    /// Quit the game (asks first while the battle is on).
    Quit,
    /// Yes, leave the battle as asked.
    ConfirmLeave,
    /// No, stay in the battle.
    StayInBattle,
    /// Pause or resume the rounds.
    TogglePause,
    /// While paused, play on by one initiative count (or start the next round).
    Step,
    /// Resolve rounds at this speed.
    SetSpeed(Speed),
    /// One speed faster (`true`) or slower.
    ChangeSpeed(bool),
    /// Each of the player's units repeats last round's order (see `standing_orders`).
    RepeatOrders,
    /// The drafted order for every one of the player's units that can take it.
    OrderAll,
    /// Show or hide the grid overlays.
    ToggleOverlays,
    /// Save the battle (done by `saves`, which reads these too).
    Save,
    /// Take back the seated side's last declaration (done by `saves`).
    Undo,
    /// Show or hide the settings window (done by `settings`).
    ToggleSettings,
    /// Turn every sound off or back on (done by `audio`).
    ToggleMute,
    /// Step through a replay (`fray replay FILE`).
    Replay(ReplayStep),
}

/// Where a player asked to go from a battle in progress, awaiting "are you sure?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Start the level again.
    Restart,
    /// Back to the main menu.
    Menu,
    /// Quit the game.
    Quit,
}

impl Leave {
    /// The question the confirmation asks.
    pub fn question(self) -> &'static str {
        match self {
            Leave::Restart => "Restart this battle? The battle in progress will be lost.",
            Leave::Menu => "Leave for the main menu? The battle in progress will be lost.",
            Leave::Quit => "Quit Fray? The battle in progress will be lost.",
        }
    }

    /// The label of the button that goes ahead.
    pub fn verb(self) -> &'static str {
        match self {
            Leave::Restart => "Restart",
            Leave::Menu => "Leave",
            Leave::Quit => "Quit",
        }
    }
}

/// The declaration being drafted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    /// Index into [`DeclarationOptions::kinds`].
    pub kind: Option<usize>,
    /// Index into the chosen kind's options.
    pub option: Option<usize>,
    /// Where the unit moves once its action is done (`C-MOVE-1`): one of
    /// [`DeclarationOptions::after`].
    pub then_move: Option<ZoneIdx>,
}

/// The battle UI's state, all egui-free.
#[derive(Resource, Debug, Default)]
pub struct BattleUi {
    /// The unit whose card shows.
    pub selected: Option<Entity>,
    /// The draft for the declaring unit.
    pub draft: Draft,
    /// The side waiting behind the "pass to" curtain, in hot-seat play.
    pub curtain: Option<usize>,
    /// The side whose player holds the seat now.
    pub seated: Option<usize>,
    /// Whether the log panel shows.
    pub show_log: bool,
    /// Whether the help overlay shows.
    pub show_help: bool,
    /// A problem to show (a bad settings file).
    pub notice: Option<String>,
    /// A leave request waiting for the player's yes or no.
    pub confirm: Option<Leave>,
    /// A short hint for the declaring player (what a key press still needs).
    pub hint: Option<String>,
    /// The next place picked is the drafted action's move after it (`C-MOVE-1`).
    pub picking_then_move: bool,
    /// What the last save, load or undo did (`Saved to ...`), for the top bar.
    pub status: Option<String>,
}

/// One legal declaration, with what the rules say of it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionEntry {
    /// The action.
    pub action: Action,
    /// Its Initiative modifier.
    pub modifier: i32,
    /// Its Round Initiative.
    pub initiative: i32,
    /// A readable label (`attack Wren`, `move to ford`).
    pub label: String,
    /// For attacks and throws: the exact odds.
    pub odds: Option<AttackOdds>,
    /// For spells, items, manoeuvres and other help at a unit: what it would do, and how likely.
    pub forecast: Option<Forecast>,
    /// How many Repostes the move provokes.
    pub repostes: usize,
    /// On a grid, for a ranged action: the target's cover from where the actor will stand.
    pub cover: Option<Cover>,
}

/// The legal declarations of the unit whose turn it is, grouped by kind.
#[derive(Resource, Debug, Default)]
pub struct DeclarationOptions {
    /// The unit declaring now (a human's), if any.
    pub unit: Option<Entity>,
    /// Its side.
    pub side: Option<usize>,
    /// Kinds on offer, in order, with their options.
    pub kinds: Vec<(String, Vec<OptionEntry>)>,
    /// Where the drafted option's unit may move after its action (`C-MOVE-1`): empty unless
    /// the ruleset splits movement and an option is drafted.
    pub after: Vec<ZoneIdx>,
}

impl DeclarationOptions {
    /// The drafted option, if complete.
    pub fn drafted(&self, draft: &Draft) -> Option<&OptionEntry> {
        self.kinds.get(draft.kind?)?.1.get(draft.option?)
    }
}
