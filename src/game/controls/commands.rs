//! Command application: how each UI command changes the selection, the draft, the declaration
//! queue or the session.

use super::*;

/// What applying the UI commands reads and writes besides the UI state.
#[derive(SystemParam)]
pub struct CommandTargets<'w, 's> {
    options: Res<'w, DeclarationOptions>,
    chosen: crate::game::online::Declarer<'w>,
    units: Query<'w, 's, (Entity, &'static SpawnOrder, &'static Status)>,
    start: MessageWriter<'w, StartBattle>,
    menu: MessageWriter<'w, BackToMenu>,
    exit: MessageWriter<'w, AppExit>,
    pace: ResMut<'w, Pace>,
    overlays: ResMut<'w, crate::game::model::board::BoardOverlays>,
    state: Res<'w, CombatState>,
    screen: Res<'w, State<Screen>>,
    /// Present while a replay plays back: leaving one loses nothing, its file stays.
    playback: Option<Res<'w, crate::game::model::playback::Playback>>,
    /// Present while the battle follows a referee: the referee, not this window, restarts it.
    online: Option<Res<'w, crate::net::Follower>>,
}

impl CommandTargets<'_, '_> {
    /// Whether leaving now would throw away a battle still being fought (a replay is not one).
    fn battle_in_progress(&self) -> bool {
        *self.screen.get() == Screen::Battle
            && self.playback.is_none()
            && self.state.phase != CombatPhase::Idle
            && !self.state.is_over()
    }

    /// Restart, back to the menu, or quit.
    pub(super) fn leave(&mut self, leave: Leave) {
        match leave {
            Leave::Restart => {
                self.start.write(StartBattle);
            }
            Leave::Menu => {
                self.menu.write(BackToMenu);
            }
            Leave::Quit => {
                self.exit.write(AppExit::Success);
            }
        }
    }
}

/// Applies the commands of this frame, in every screen and every stage of a battle: the
/// declaration commands only do something while a human unit declares.
pub(in crate::game) fn apply_commands(
    mut commands: MessageReader<UiCommand>,
    mut ui: ResMut<BattleUi>,
    mut targets: CommandTargets,
) {
    for command in commands.read() {
        if ui.confirm.is_some() {
            confirm_or_stay(*command, &mut ui, &mut targets);
            continue;
        }
        if ui.curtain.is_some() {
            if *command == UiCommand::Confirm {
                lift_curtain(&mut ui);
                continue;
            }
            if !allowed_behind_curtain(*command) {
                // Behind the curtain nothing of the battle may be touched.
                continue;
            }
        }
        if !session_command(*command, &mut ui, &mut targets) {
            declaration_command(*command, &mut ui, &mut targets);
        }
    }
}

/// Commands that work behind the hot-seat curtain: none of them shows or changes the battle.
fn allowed_behind_curtain(command: UiCommand) -> bool {
    matches!(
        command,
        UiCommand::LiftCurtain
            | UiCommand::ToggleHelp
            | UiCommand::BackToMenu
            | UiCommand::Restart
            | UiCommand::Quit
            | UiCommand::Save
            | UiCommand::ToggleSettings
            | UiCommand::ToggleMute
    )
}

/// While "are you sure?" shows, only yes (Confirm) or no (Cancel) count.
fn confirm_or_stay(command: UiCommand, ui: &mut BattleUi, targets: &mut CommandTargets) {
    match command {
        UiCommand::ConfirmLeave | UiCommand::Confirm => {
            if let Some(leave) = ui.confirm.take() {
                targets.leave(leave);
            }
        }
        UiCommand::StayInBattle | UiCommand::Cancel => ui.confirm = None,
        _ => {}
    }
}

/// Panels, pacing and leaving; returns whether `command` was one of them.
fn session_command(command: UiCommand, ui: &mut BattleUi, targets: &mut CommandTargets) -> bool {
    let leave = match command {
        UiCommand::Restart if targets.online.is_some() => return true,
        UiCommand::Restart => Some(Leave::Restart),
        UiCommand::BackToMenu => Some(Leave::Menu),
        UiCommand::Quit => Some(Leave::Quit),
        _ => None,
    };
    if let Some(leave) = leave {
        if leave == Leave::Menu && *targets.screen.get() == Screen::Menu {
            return true;
        }
        if targets.battle_in_progress() {
            ui.confirm = Some(leave);
        } else {
            targets.leave(leave);
        }
        return true;
    }
    match command {
        // Saving and undoing need the whole world: `saves` reads these commands itself.
        UiCommand::ConfirmLeave
        | UiCommand::StayInBattle
        | UiCommand::Save
        | UiCommand::Undo
        | UiCommand::ToggleSettings
        | UiCommand::ToggleMute => {}
        UiCommand::LiftCurtain => lift_curtain(ui),
        UiCommand::ToggleLog => ui.show_log = !ui.show_log,
        UiCommand::ToggleHelp => ui.show_help = !ui.show_help,
        UiCommand::TogglePause => {
            targets.pace.paused = !targets.pace.paused;
            targets.pace.steps = 0;
        }
        UiCommand::Step => {
            targets.pace.paused = true;
            targets.pace.steps += 1;
        }
        // A replay's steps are the playback's (`playback.rs`); stepping stops the playing.
        UiCommand::Replay(_) => targets.pace.paused = true,
        UiCommand::SetSpeed(speed) => targets.pace.speed = speed,
        UiCommand::ChangeSpeed(faster) => targets.pace.speed = targets.pace.speed.step(faster),
        UiCommand::ToggleOverlays => targets.overlays.toggle(),
        _ => return false,
    }
    true
}

/// Selecting units and drafting, confirming or holding the declaration.
fn declaration_command(command: UiCommand, ui: &mut BattleUi, targets: &mut CommandTargets) {
    let options = &targets.options;
    match command {
        UiCommand::Select(entity) => select_or_target(ui, options, entity),
        UiCommand::SelectNext | UiCommand::SelectPrevious => {
            cycle_selection(ui, &targets.units, command == UiCommand::SelectNext)
        }
        UiCommand::ChooseKind(kind) => choose_kind(ui, options, kind),
        UiCommand::NextKind if !options.kinds.is_empty() => {
            let next = ui.draft.kind.map_or(0, |kind| (kind + 1) % options.kinds.len());
            choose_kind(ui, options, next);
        }
        UiCommand::ChooseOption(option)
            if ui
                .draft
                .kind
                .and_then(|kind| options.kinds.get(kind))
                .is_some_and(|(_, entries)| option < entries.len()) =>
        {
            ui.draft = Draft { option: Some(option), then_move: None, ..ui.draft };
            ui.hint = None;
        }
        UiCommand::PickZone(zone) if ui.picking_then_move => pick_then_move(ui, options, zone),
        UiCommand::PickZone(zone) => {
            if let Some((kind, option)) = option_for_zone(options, &ui.draft, zone) {
                ui.draft = Draft { kind: Some(kind), option: Some(option), then_move: None };
                ui.hint = None;
            }
        }
        UiCommand::ThenMove => then_move(ui, options),
        UiCommand::NextTarget => {
            if let Some((_, entries)) = ui.draft.kind.and_then(|kind| options.kinds.get(kind))
                && !entries.is_empty()
            {
                let option = Some(ui.draft.option.map_or(0, |option| (option + 1) % entries.len()));
                ui.draft = Draft { option, then_move: None, ..ui.draft };
                ui.hint = None;
            }
        }
        UiCommand::Confirm => confirm_draft(ui, targets),
        UiCommand::Cancel if ui.picking_then_move || ui.draft.then_move.is_some() => {
            // The move after the action goes first, then the draft itself.
            ui.picking_then_move = false;
            ui.draft.then_move = None;
            ui.hint = None;
        }
        UiCommand::Cancel => {
            ui.hint = None;
            if ui.draft != Draft::default() {
                ui.draft = Draft::default();
            } else {
                ui.selected = None;
            }
        }
        UiCommand::EndDeclaration => {
            if let Some(unit) = options.unit {
                targets.chosen.declare(unit, Action::simple(ActionKind::Hold));
                ui.draft = Draft::default();
                ui.picking_then_move = false;
                ui.hint = None;
            }
        }
        _ => {}
    }
}

/// B: the next place picked is the drafted action's move after it (`C-MOVE-1`); with one set,
/// or while picking, drops it. A hint says when the draft or the ruleset allows none.
pub(super) fn then_move(ui: &mut BattleUi, options: &DeclarationOptions) {
    if ui.picking_then_move || ui.draft.then_move.is_some() {
        ui.picking_then_move = false;
        ui.draft.then_move = None;
        ui.hint = None;
    } else if options.drafted(&ui.draft).is_none() {
        ui.hint = Some("Draft an action first; then B and a click set where to move after it.".into());
    } else if options.after.is_empty() {
        ui.hint = Some("This action cannot be followed by a move here.".into());
    } else {
        ui.picking_then_move = true;
        ui.hint = Some("Click where to move after the action (B or Esc: no move after).".into());
    }
}

/// A place picked for the move after the action: kept when the rules allow it (`C-MOVE-1`).
fn pick_then_move(ui: &mut BattleUi, options: &DeclarationOptions, zone: ZoneIdx) {
    if options.after.contains(&zone) {
        ui.draft.then_move = Some(zone);
        ui.picking_then_move = false;
        ui.hint = None;
    } else {
        ui.hint = Some("The unit cannot move there after its action: too far, taken, or out of the way.".into());
    }
}

/// A click on a unit: its card, or, while drafting, the target (keeping the drafted
/// destination when the target can be reached from it).
fn select_or_target(ui: &mut BattleUi, options: &DeclarationOptions, entity: Entity) {
    let moving_to = options.drafted(&ui.draft).and_then(|entry| entry.action.move_to);
    let targeted = ui.draft.kind.and_then(|kind| options.kinds.get(kind)).and_then(|(_, entries)| {
        let aimed_at = |entry: &&OptionEntry| entry.action.target == Some(entity);
        entries
            .iter()
            .position(|entry| aimed_at(&entry) && entry.action.move_to == moving_to)
            .or_else(|| entries.iter().position(|entry| aimed_at(&entry)))
    });
    match targeted {
        Some(option) => {
            ui.draft = Draft { option: Some(option), then_move: None, ..ui.draft };
            ui.hint = None;
        }
        None => ui.selected = Some(entity),
    }
}

/// Tab and its reverse: the next unit on the field, in spawn order.
fn cycle_selection(ui: &mut BattleUi, units: &Query<(Entity, &SpawnOrder, &Status)>, forward: bool) {
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|(_, _, status)| **status != Status::Reserve)
        .map(|(entity, order, _)| (order.0, entity))
        .collect();
    order.sort_unstable();
    if order.is_empty() {
        return;
    }
    let at = ui.selected.and_then(|selected| order.iter().position(|(_, entity)| *entity == selected));
    let next = match (at, forward) {
        (None, _) => 0,
        (Some(at), true) => (at + 1) % order.len(),
        (Some(at), false) => (at + order.len() - 1) % order.len(),
    };
    ui.selected = Some(order[next].1);
}

/// Drafts a kind of action. A kind with one option (hold), or whose options are all places to
/// stand with one of them "in place" (full defense), is drafted whole, so Enter confirms it.
fn choose_kind(ui: &mut BattleUi, options: &DeclarationOptions, kind: usize) {
    let Some((_, entries)) = options.kinds.get(kind) else {
        return;
    };
    let untargeted = entries.iter().all(|entry| entry.action.target.is_none());
    let in_place = entries.iter().position(|entry| entry.action.move_to.is_none());
    let option = if entries.len() == 1 {
        Some(0)
    } else if untargeted {
        in_place
    } else {
        None
    };
    ui.draft = Draft { kind: Some(kind), option, then_move: None };
    ui.picking_then_move = false;
    ui.hint = None;
}

/// Enter: declares the drafted option, or says what the draft still needs.
fn confirm_draft(ui: &mut BattleUi, targets: &mut CommandTargets) {
    let options = &targets.options;
    let Some(unit) = options.unit else {
        return;
    };
    match options.drafted(&ui.draft) {
        Some(entry) => {
            // A move after the action only where the rules still allow it (`C-MOVE-1`).
            let move_after = ui.draft.then_move.filter(|zone| options.after.contains(zone));
            targets.chosen.declare(unit, Action { move_after, ..entry.action });
            ui.draft = Draft::default();
            ui.picking_then_move = false;
            ui.hint = None;
        }
        None if ui.draft.kind.is_some() => {
            let needs_target = ui
                .draft
                .kind
                .and_then(|kind| options.kinds.get(kind))
                .is_some_and(|(_, entries)| entries.iter().any(|entry| entry.action.target.is_some()));
            ui.hint = Some(if needs_target {
                "Pick a target first: click it, or press T to cycle targets.".into()
            } else {
                "Pick where to go first: click a place, or press T to cycle them.".into()
            });
        }
        None => ui.hint = Some("Choose an action first: press its number, or click it.".into()),
    }
}

fn lift_curtain(ui: &mut BattleUi) {
    if let Some(side) = ui.curtain.take() {
        ui.seated = Some(side);
        ui.draft = Draft::default();
        ui.picking_then_move = false;
        ui.selected = None;
    }
}

/// In hot-seat play, a different side's turn to declare lowers the curtain until its player
/// takes the seat, so nobody sees another side's choices or options. With one human side there
/// is nobody to hide anything from.
pub(super) fn update_curtain(
    mut ui: ResMut<BattleUi>,
    options: Res<DeclarationOptions>,
    session: Res<crate::game::model::session::Session>,
) {
    let Some(side) = options.side else {
        return;
    };
    if session.humans() < 2 {
        ui.seated = Some(side);
        return;
    }
    if ui.seated != Some(side) && ui.curtain.is_none() {
        ui.curtain = Some(side);
    }
}
