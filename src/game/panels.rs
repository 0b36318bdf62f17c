//! The egui panels: the menu, the battle's top bar, initiative track, unit card and declaration
//! panel, the log, help, notices, game over and the hot-seat curtain. Panels only draw state and
//! send [`UiCommand`]s (or [`StartBattle`]); they never change the battle themselves.

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::{InputMap, MouseScrollDirection};

use super::controls::{self, Binding, DeclarationOptions, OptionEntry, Player};
use super::session::{Screen, Seat, Session, StartBattle};
use super::{BattleUi, PlayerAction, UiCommand};
use crate::battlefield::Battlefield;
use crate::battlefield::Cover;
use crate::rules::components::{Action, AimPoint, Status};
use crate::rules::dice::DiceRoll;
use crate::rules::equipment::Attribute;
use crate::rules::log::{AttackExtra, CombatLog, LogEntry, LogEvent};
use crate::rules::ruleset::{InitiativeOrder, Ruleset};
use crate::rules::unit::{self, UnitReadOnly, UnitView};
use crate::rules::{CombatInfo, CombatPhase, CombatState, DeclarationQueue, Sides};

/// How much lighter side names are than the board's side colours.
const TEXT_LIGHTEN: f32 = 0.08;
/// Errors and warnings.
const ERROR_COLOUR: Color32 = Color32::from_rgb(235, 85, 75);
/// Background of the notices window, dark enough for the red text to read.
const NOTICE_FILL: Color32 = Color32::from_rgb(40, 16, 16);
/// The hot-seat curtain: fully opaque so nothing of the board shows through.
const CURTAIN_FILL: Color32 = Color32::from_rgb(14, 14, 20);
/// Stress bar fill.
const STRESS_COLOUR: Color32 = Color32::from_rgb(200, 160, 60);
/// Wound Points bar fill.
const WOUNDS_COLOUR: Color32 = Color32::from_rgb(180, 60, 60);
/// A target's cover in the declaration panel (the board's cover tag uses the same hue).
const COVER_COLOUR: Color32 = Color32::from_rgb(235, 190, 80);

/// Height of the battle's top bar, in points.
const TOP_BAR_HEIGHT: f32 = 34.0;
/// Gap between the game-over window and the bottom of the screen, so the board stays in view.
const GAME_OVER_MARGIN: f32 = 24.0;
/// Width of the initiative panel, in points.
const LEFT_PANEL_WIDTH: f32 = 250.0;
/// Width of the unit card and declaration panel, in points.
const RIGHT_PANEL_WIDTH: f32 = 320.0;
/// Width of the menu's column, in points.
const MENU_WIDTH: f32 = 620.0;
/// Largest share of the menu the level list may take, so the seats stay on screen.
const MENU_LIST_SHARE: f32 = 0.45;
/// Default size of the log window, in points.
const LOG_SIZE: [f32; 2] = [520.0, 380.0];
/// Default width of the help window, in points.
const HELP_WIDTH: f32 = 360.0;
/// Gap between the top bar and the notices under it, in points.
const NOTICE_GAP: f32 = 8.0;
/// Width of the notices window, in points.
const NOTICE_WIDTH: f32 = 560.0;
/// Where the curtain's text starts, as a share of the screen's height.
const CURTAIN_TEXT_AT: f32 = 0.35;
/// Space between the curtain's lines, in points.
const CURTAIN_SPACING: f32 = 16.0;
/// Space between sections of a panel, in points.
const SECTION_SPACING: f32 = 6.0;
/// Converts a probability to a percentage.
const PERCENT: f64 = 100.0;
/// How many kinds of action have a number key (`choose_1` … `choose_9`).
const NUMBERED_KINDS: usize = 9;

/// Attributes in card order (the order of [`Attribute`] and of the data files).
const ATTRIBUTES: [(Attribute, &str); 6] = [
    (Attribute::Strength, "Strength"),
    (Attribute::Agility, "Agility"),
    (Attribute::Dexterity, "Dexterity"),
    (Attribute::Insight, "Insight"),
    (Attribute::Memory, "Memory"),
    (Attribute::Perception, "Perception"),
];

/// Binding names the settings file accepts besides letters, digits and F-keys, so the help
/// shows bindings as the player writes them.
const NAMED_INPUTS: [&str; 19] = [
    "MouseLeft",
    "MouseRight",
    "MouseMiddle",
    "WheelUp",
    "WheelDown",
    "Enter",
    "Space",
    "Escape",
    "Tab",
    "Backspace",
    "Backquote",
    "Equal",
    "Minus",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "ShiftLeft",
    "ControlLeft",
];
/// Function keys the settings file accepts (`F1` … `F12`).
const FUNCTION_KEYS: u32 = 12;

/// Draws the menu, the battle panels and the overlays, each only on its screen.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_menu.run_if(in_state(Screen::Menu)))
        .add_systems(
            EguiPrimaryContextPass,
            (draw_battle_panels, draw_log, draw_game_over, draw_help).chain().run_if(in_state(Screen::Battle)),
        )
        .add_systems(EguiPrimaryContextPass, draw_notices.after(draw_menu).after(draw_help))
        // The curtain goes last so that it covers everything drawn before it.
        .add_systems(EguiPrimaryContextPass, draw_curtain.after(draw_notices).run_if(in_state(Screen::Battle)));
}

// ---------------------------------------------------------------------------------------------
// Menu

/// The menu: levels, seats, seed and the start button.
fn draw_menu(
    mut contexts: EguiContexts,
    mut session: ResMut<Session>,
    mut start: MessageWriter<StartBattle>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "menu");
    // Edits go to copies and are written back only when they change, so the session is not
    // marked changed every frame.
    let mut selected = session.selected;
    let mut seats = session.seats.clone();
    let mut seed = session.seed;
    let mut start_clicked = false;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| ui.heading(RichText::new("Fray").strong()));
        ui.add_space(SECTION_SPACING);
        let column = ui.available_width().min(MENU_WIDTH);
        let margin = (ui.available_width() - column) / 2.0;
        ui.horizontal_top(|ui| {
            ui.add_space(margin);
            ui.vertical(|ui| {
                ui.set_width(column);
                level_list(ui, &session, &mut selected);
                ui.separator();
                if selected == session.selected {
                    seat_choice(ui, &session, &mut seats);
                }
                ui.add_space(SECTION_SPACING);
                ui.horizontal(|ui| {
                    ui.label("Seed");
                    ui.add(egui::DragValue::new(&mut seed));
                });
                ui.add_space(SECTION_SPACING);
                let playable = session.level().is_some_and(|level| level.template.is_some());
                let button = egui::Button::new(RichText::new("Start battle").strong());
                start_clicked = ui.add_enabled(playable, button).clicked();
            });
        });
    });
    if selected != session.selected {
        session.select(selected);
    } else if seats != session.seats {
        session.seats = seats;
    }
    if seed != session.seed {
        session.seed = seed;
    }
    if start_clicked {
        start.write(StartBattle);
    }
    Ok(())
}

/// The levels on offer, with descriptions and load errors; a click chooses one.
fn level_list(ui: &mut egui::Ui, session: &Session, selected: &mut usize) {
    ui.strong("Levels");
    let height = ui.ctx().content_rect().height() * MENU_LIST_SHARE;
    egui::ScrollArea::vertical().id_salt("levels").max_height(height).auto_shrink([false, true]).show(ui, |ui| {
        for (at, level) in session.levels.iter().enumerate() {
            if ui.selectable_label(at == session.selected, RichText::new(&level.title).strong()).clicked() {
                *selected = at;
            }
            if let Some(template) = &level.template
                && !template.description.is_empty()
            {
                ui.label(RichText::new(&template.description).weak());
            }
            if let Some(error) = &level.error {
                ui.label(RichText::new(error).color(ERROR_COLOUR).monospace());
            }
            ui.add_space(SECTION_SPACING);
        }
    });
}

/// Who plays each side of the chosen level.
fn seat_choice(ui: &mut egui::Ui, session: &Session, seats: &mut [Seat]) {
    let Some(template) = session.level().and_then(|level| level.template.as_ref()) else {
        ui.label(RichText::new("This level cannot be played until its file is fixed.").color(ERROR_COLOUR));
        return;
    };
    ui.strong("Seats");
    egui::Grid::new("seats").num_columns(2).show(ui, |ui| {
        for (at, (side, seat)) in template.sides.iter().zip(seats.iter_mut()).enumerate() {
            ui.label(RichText::new(&*side.name).color(side_colour(at)));
            egui::ComboBox::from_id_salt(("seat", at)).selected_text(seat.label()).show_ui(ui, |ui| {
                for choice in Seat::ALL {
                    ui.selectable_value(seat, choice, choice.label());
                }
            });
            ui.end_row();
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Battle: top bar and side panels

/// What the battle panels read.
#[derive(SystemParam)]
struct BattleView<'w, 's> {
    session: Res<'w, Session>,
    state: Res<'w, CombatState>,
    queue: Res<'w, DeclarationQueue>,
    options: Res<'w, DeclarationOptions>,
    ui: Res<'w, BattleUi>,
    sides: Res<'w, Sides>,
    ruleset: Res<'w, Ruleset>,
    battlefield: Res<'w, Battlefield>,
    units: Query<'w, 's, UnitReadOnly>,
}

impl BattleView<'_, '_> {
    /// A side's name.
    fn side_name(&self, side: usize) -> String {
        side_name(&self.sides, side)
    }

    /// A unit's display name.
    fn unit_name(&self, unit: Entity) -> String {
        self.units.get(unit).map_or_else(|_| "?".to_string(), |view| view.name.as_str().to_string())
    }

    /// A zone's display name.
    fn zone_name(&self, zone: crate::battlefield::ZoneIdx) -> &str {
        self.battlefield.zones().get(usize::from(zone)).map_or("?", |zone| zone.name.as_str())
    }

    /// Whether `side`'s declared actions may show: in secret declaration nobody learns another
    /// side's choices before everyone has declared.
    fn declarations_visible(&self, side: usize) -> bool {
        !(self.state.phase == CombatPhase::Declare && self.queue.secret) || self.ui.seated == Some(side)
    }

    /// Where a unit stands, in words: `in the ford`, or `at (3, 4)` on a grid.
    fn whereabouts(&self, zone: crate::battlefield::ZoneIdx) -> String {
        let preposition = if self.battlefield.is_grid() { "at" } else { "in" };
        format!("{preposition} {}", self.zone_name(zone))
    }

    /// Whether units take turns in an order rolled for the round, declaring when their turn comes.
    fn turn_based(&self) -> bool {
        self.ruleset.turns.order.on_turn()
    }

    /// A declared action in words (`attack Wren, moving to ford`).
    fn action_text(&self, action: &Action) -> String {
        let mut text = controls::action_name(action.kind);
        if let Some(target) = action.target {
            text = format!("{text} {}", self.unit_name(target));
        }
        if let Some(zone) = action.move_to {
            text = format!("{text}, moving to {}", self.zone_name(zone));
        }
        text
    }
}

/// The top bar and the two side panels.
fn draw_battle_panels(mut contexts: EguiContexts, view: BattleView, mut commands: MessageWriter<UiCommand>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let mut out = Vec::new();
    let top = egui::Rect::from_min_size(screen.min, egui::vec2(screen.width(), TOP_BAR_HEIGHT));
    let below = screen.height() - TOP_BAR_HEIGHT;
    let left = egui::Rect::from_min_size(egui::pos2(screen.left(), top.bottom()), egui::vec2(LEFT_PANEL_WIDTH, below));
    let right = egui::Rect::from_min_size(
        egui::pos2(screen.right() - RIGHT_PANEL_WIDTH, top.bottom()),
        egui::vec2(RIGHT_PANEL_WIDTH, below),
    );
    dock(ctx, "top_bar", top, |ui| top_bar(ui, &view, &mut out));
    dock(ctx, "initiative", left, |ui| initiative_panel(ui, &view, &mut out));
    dock(ctx, "unit_panel", right, |ui| right_panel(ui, &view, &mut out));
    commands.write_batch(out);
    Ok(())
}

/// Level, round, stage, who declares, and the Log/Help/Restart/Menu buttons.
fn top_bar(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    ui.horizontal_centered(|ui| {
        let level = view.session.current.as_ref().map_or("—", |template| template.level_name.as_str());
        ui.strong(level);
        ui.separator();
        ui.label(format!("Round {}", view.state.round));
        if let Some(turn) = current_turn(view) {
            ui.label(format!("· Turn {turn}"));
        }
        ui.separator();
        ui.label(phase_label(view.state.phase));
        if let Some(unit) = view.options.unit
            && let Ok(declarer) = view.units.get(unit)
        {
            ui.separator();
            ui.label("Declaring:");
            ui.label(RichText::new(declarer.name.as_str()).strong().color(side_colour(declarer.side.0)));
            ui.label(
                RichText::new(format!("({})", view.side_name(declarer.side.0))).color(side_colour(declarer.side.0)),
            );
        } else if view.state.phase == CombatPhase::Declare && view.queue.open {
            ui.separator();
            ui.label(RichText::new("the AI is declaring").weak());
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            // Right to left: the last button added sits leftmost.
            let buttons =
                [("Menu", UiCommand::BackToMenu), ("Restart", UiCommand::Restart), ("Help", UiCommand::ToggleHelp)];
            for (label, command) in buttons {
                if ui.button(label).clicked() {
                    out.push(command);
                }
            }
            if ui.selectable_label(view.ui.show_log, "Log").clicked() {
                out.push(UiCommand::ToggleLog);
            }
        });
    });
}

/// The stage's name in the top bar.
fn phase_label(phase: CombatPhase) -> &'static str {
    match phase {
        CombatPhase::Idle => "Waiting",
        CombatPhase::Surprise => "Surprise",
        CombatPhase::Initiative => "Initiative",
        CombatPhase::Declare => "Declare",
        CombatPhase::Resolve => "Resolve",
        CombatPhase::Morale => "Morale",
        CombatPhase::End => "End of round",
        CombatPhase::Over => "Battle over",
    }
}

/// The count of the turn declaring or resolving now, in a turn-based ruleset.
fn current_turn(view: &BattleView) -> Option<i32> {
    if !view.turn_based() || !matches!(view.state.phase, CombatPhase::Declare | CombatPhase::Resolve) {
        return None;
    }
    // The cursor moves past a turn once its declarations close and it goes to resolution.
    let at = if view.queue.open { view.state.turn_cursor } else { view.state.turn_cursor.checked_sub(1)? };
    view.state.turns.get(at).map(|(count, _)| *count)
}

/// One unit on the initiative track.
struct TrackEntry<'a> {
    view: UnitView<'a, 'a>,
    acted: bool,
}

/// The initiative track: every unit on the field in the order it acts, simultaneous ones together.
fn initiative_panel(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    ui.heading(if view.turn_based() { "Turn order" } else { "Initiative" });
    if view.ui.curtain.is_some() {
        ui.label(RichText::new("Hidden until the seat changes hands.").weak());
        return;
    }
    let acted = &view.state.schedule[..view.state.cursor.min(view.state.schedule.len())];
    let mut track: Vec<TrackEntry> = view
        .units
        .iter()
        .filter(|unit| *unit.status != Status::Reserve)
        .map(|unit| TrackEntry { acted: acted.iter().any(|slot| slot.unit == unit.entity), view: unit })
        .collect();
    // Turn counts run 1, 2, 3… whichever way the ruleset's initiative count runs.
    let order = if view.turn_based() { InitiativeOrder::LowestFirst } else { view.ruleset.initiative.order };
    track.sort_by_key(|entry| track_key(&entry.view, order));
    egui::ScrollArea::vertical().id_salt("initiative_track").auto_shrink([false, false]).show(ui, |ui| {
        let mut rest = track.as_slice();
        while let Some(first) = rest.first() {
            let together = match first.view.initiative.round {
                Some(round) => rest.iter().take_while(|entry| entry.view.initiative.round == Some(round)).count(),
                None => 1,
            };
            let (group, tail) = rest.split_at(together);
            rest = tail;
            if group.len() > 1 {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    let together = if view.turn_based() { "one turn together" } else { "simultaneous" };
                    ui.label(RichText::new(format!("{together} ({})", group.len())).small().italics());
                    for entry in group {
                        track_row(ui, view, entry, out);
                    }
                });
            } else {
                track_row(ui, view, first, out);
            }
        }
    });
}

/// Sort key on the track: known Round Initiatives first, in count order, then by Base
/// Initiative, then level order.
fn track_key(unit: &UnitView, order: InitiativeOrder) -> (bool, i32, u32) {
    let value = unit.initiative.round.or(unit.initiative.base);
    let in_count_order = match (value, order) {
        (Some(value), InitiativeOrder::LowestFirst) => value,
        (Some(value), InitiativeOrder::HighestFirst) => -value,
        // Not rolled yet: after everyone who has.
        (None, _) => i32::MAX,
    };
    (unit.initiative.round.is_none(), in_count_order, unit.order.0)
}

/// One unit's line on the track; a click inspects (or targets) it.
fn track_row(ui: &mut egui::Ui, view: &BattleView, entry: &TrackEntry, out: &mut Vec<UiCommand>) {
    let unit = &entry.view;
    let colour = side_colour(unit.side.0);
    ui.horizontal_wrapped(|ui| {
        let mark = if entry.acted { "✔" } else { "•" };
        ui.label(RichText::new(mark).color(colour));
        let name = RichText::new(unit.name.as_str()).color(colour).strong();
        if ui.selectable_label(view.ui.selected == Some(unit.entity), name).clicked() {
            out.push(UiCommand::Select(unit.entity));
        }
        ui.label(RichText::new(view.side_name(unit.side.0)).small().color(colour));
    });
    ui.horizontal_wrapped(|ui| {
        if view.turn_based() {
            // The turn counts are rolled before anyone declares, so they give nothing away.
            let turn = unit.initiative.round.map_or("—".to_string(), |turn| turn.to_string());
            let mut text = format!("Turn {turn}");
            if let Some(base) = unit.initiative.base {
                text = format!("{text} · Base {base}");
            }
            ui.label(RichText::new(text).small());
            let declaring =
                view.state.phase == CombatPhase::Declare && view.queue.open && view.queue.order.contains(&unit.entity);
            if declaring {
                ui.label(RichText::new("turn now").small().strong());
            }
        } else {
            let base = unit.initiative.base.map_or("—".to_string(), |base| base.to_string());
            // Round Initiative is only set once declarations have closed, so it never gives a
            // secret declaration away.
            let round = unit.initiative.round.map_or("—".to_string(), |round| round.to_string());
            ui.label(RichText::new(format!("Base {base} · Round {round}")).small());
        }
        if entry.acted {
            ui.label(RichText::new("acted").small().weak());
        }
        if unit.surprised {
            ui.label(RichText::new("surprised").small().color(ERROR_COLOUR));
        }
        if *unit.status != Status::Active {
            ui.label(RichText::new(unit.status.log_name()).small().color(ERROR_COLOUR));
        }
    });
    if let Some(action) = unit.declared.action {
        let text = if view.declarations_visible(unit.side.0) {
            format!("declared: {}", view.action_text(&action))
        } else {
            "declared (secret)".to_string()
        };
        ui.label(RichText::new(text).small().italics());
    }
    ui.add_space(SECTION_SPACING / 2.0);
}

/// The selected unit's card and, when a human unit declares, the declaration panel.
fn right_panel(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    if view.ui.curtain.is_some() {
        ui.heading("Unit");
        ui.label(RichText::new("Hidden until the seat changes hands.").weak());
        return;
    }
    egui::ScrollArea::vertical().id_salt("unit_panel_scroll").auto_shrink([false, false]).show(ui, |ui| {
        if view.options.unit.is_some() {
            declaration_panel(ui, view, out);
            ui.separator();
        }
        unit_card(ui, view);
    });
}

/// Everything about the selected unit.
fn unit_card(ui: &mut egui::Ui, view: &BattleView) {
    let Some(unit) = view.ui.selected.and_then(|unit| view.units.get(unit).ok()) else {
        ui.heading("Unit");
        ui.label(RichText::new("Click a unit, or press Tab, to inspect it.").weak());
        return;
    };
    let colour = side_colour(unit.side.0);
    ui.heading(RichText::new(unit.name.as_str()).color(colour));
    ui.label(format!("{} · {}", unit.id.0, view.side_name(unit.side.0)));
    ui.label(format!("{} {}", unit.status.log_name(), view.whereabouts(unit.zone.0)));
    meter(ui, "Stress", unit.stress.current, unit.stress.max, STRESS_COLOUR);
    meter(ui, "Wound Points", unit.wounds.current, unit.wounds.max, WOUNDS_COLOUR);
    ui.add_space(SECTION_SPACING);
    let defense = unit::defense_score(&view.ruleset, unit.attributes, unit.defense, unit.conditions);
    ui.label(format!("Defense {defense} · Armour {} · Speed {}", unit.armour.0, unit.speed.0));
    egui::Grid::new("attributes").num_columns(3).striped(true).show(ui, |ui| {
        for (attribute, name) in ATTRIBUTES {
            ui.label(name);
            ui.label(unit.attributes.score(attribute).to_string());
            ui.label(format!("{:+}", unit::modifier(&view.ruleset, unit.attributes, attribute)));
            ui.end_row();
        }
    });
    ui.add_space(SECTION_SPACING);
    let loadout = unit.loadout;
    ui.label(format!("Weapon: {}", loadout.weapon_name));
    if let Some((offhand, _)) = &loadout.offhand {
        ui.label(format!("Off hand: {offhand}"));
    }
    if loadout.shield {
        ui.label("Shield: turns the first Shock each round");
    }
    ui.label(format!("Armour: {}", loadout.armour_name.as_deref().unwrap_or("none")));
    let conditions = unit.conditions.names();
    let conditions = if conditions.is_empty() { "none".to_string() } else { conditions.join(", ") };
    ui.label(format!("Conditions: {conditions}"));
    if unit.surprised {
        ui.label(RichText::new("Surprised").color(ERROR_COLOUR));
    }
    list(
        ui,
        "Injuries",
        unit.wounds.injuries.iter().map(|injury| {
            let mut text = format!("{} {} (round {})", injury.amount, injury.damage_type.as_str(), injury.round);
            if let Some(combat_injury) = &injury.combat_injury {
                text = format!("{text}: {combat_injury}");
            }
            text
        }),
    );
    list(ui, "Items", unit.inventory.0.iter().map(|stack| format!("{} ×{}", stack.name, stack.count)));
    list(
        ui,
        "Spells",
        unit.spells.0.iter().map(|(name, spell)| format!("{name} (TN {}, {} mana)", spell.tn, spell.mana)),
    );
    if unit.mana.max > 0 || !unit.spells.0.is_empty() {
        ui.label(format!("Mana {}/{}", unit.mana.current, unit.mana.max));
    }
}

/// A labelled bar for a pool that runs from 0 to `max` (shown empty when below 0).
fn meter(ui: &mut egui::Ui, label: &str, current: i32, max: i32, colour: Color32) {
    let fraction = if max > 0 { (current as f32 / max as f32).clamp(0.0, 1.0) } else { 0.0 };
    ui.add(egui::ProgressBar::new(fraction).fill(colour).text(format!("{label} {current}/{max}")));
}

/// A titled list, or nothing when it is empty.
fn list(ui: &mut egui::Ui, title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        return;
    }
    ui.strong(title);
    for item in items {
        ui.label(format!("• {item}"));
    }
}

/// The kinds of action on offer, the drafted kind's options and Confirm/Hold/Cancel.
fn declaration_panel(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    let options = &view.options;
    let Some(unit) = options.unit else {
        return;
    };
    let side = options.side.unwrap_or_default();
    ui.heading(RichText::new(format!("Declare: {}", view.unit_name(unit))).color(side_colour(side)));
    for (at, (label, entries)) in options.kinds.iter().enumerate() {
        let text = if at < NUMBERED_KINDS { format!("{}. {label}", at + 1) } else { label.clone() };
        let description = entries.first().map_or("", |entry| controls::kind_description(entry.action.kind));
        if ui.selectable_label(view.ui.draft.kind == Some(at), text).on_hover_text(description).clicked() {
            out.push(UiCommand::ChooseKind(at));
        }
    }
    if let Some((label, entries)) = view.ui.draft.kind.and_then(|kind| options.kinds.get(kind)) {
        ui.add_space(SECTION_SPACING);
        ui.strong(label);
        if let Some(first) = entries.first() {
            ui.label(RichText::new(controls::kind_description(first.action.kind)).small().weak());
        }
        let moves = entries.iter().filter(|entry| entry.action.move_to.is_some()).count();
        // A grid offers a move to every square in reach: the board picks those, and the list
        // keeps to the options in place and the one drafted.
        let listed_moves = !view.battlefield.is_grid();
        if moves > 0 {
            let text = if listed_moves {
                "Click a zone on the board to move there.".to_string()
            } else {
                format!("Click a square on the board to move there ({moves} in reach).")
            };
            ui.label(RichText::new(text).small().weak());
        }
        for (at, entry) in entries.iter().enumerate() {
            let chosen = view.ui.draft.option == Some(at);
            if listed_moves || chosen || entry.action.move_to.is_none() {
                option_row(ui, view, entry, chosen, || out.push(UiCommand::ChooseOption(at)));
            }
        }
    }
    ui.add_space(SECTION_SPACING);
    ui.horizontal(|ui| {
        let complete = options.drafted(&view.ui.draft).is_some();
        if ui.add_enabled(complete, egui::Button::new(RichText::new("Confirm").strong())).clicked() {
            out.push(UiCommand::Confirm);
        }
        if ui.button("Hold").clicked() {
            out.push(UiCommand::EndDeclaration);
        }
        if ui.button("Cancel").clicked() {
            out.push(UiCommand::Cancel);
        }
    });
}

/// One legal option with what the rules say of it.
fn option_row(ui: &mut egui::Ui, view: &BattleView, entry: &OptionEntry, chosen: bool, mut on_click: impl FnMut()) {
    if ui.selectable_label(chosen, entry.label.as_str()).clicked() {
        on_click();
    }
    ui.indent(("option", &entry.label), |ui| {
        // ASCII arrow: egui's default fonts have no glyph for "→".
        ui.label(RichText::new(format!("modifier {:+} -> initiative {}", entry.modifier, entry.initiative)).small());
        if let Some(odds) = &entry.odds {
            ui.label(
                RichText::new(format!(
                    "hit {:.0}% · damage {}–{} · critical {:.0}%",
                    odds.hit * PERCENT,
                    odds.damage_min,
                    odds.damage_max,
                    odds.critical * PERCENT
                ))
                .small(),
            );
        }
        let rules = &view.ruleset.attack;
        match entry.cover {
            Some(Cover::Half) => {
                let text = format!("target in half cover: -{} to hit", rules.half_cover_penalty);
                ui.label(RichText::new(text).small().color(COVER_COLOUR));
            }
            Some(Cover::Full) => {
                let text = format!("target in full cover: -{} to hit", rules.full_cover_penalty);
                ui.label(RichText::new(text).small().color(COVER_COLOUR));
            }
            Some(Cover::None) => {
                ui.label(RichText::new("target in the open: no cover").small());
            }
            None => {}
        }
        if entry.repostes > 0 {
            let plural = if entry.repostes == 1 { "" } else { "s" };
            ui.label(RichText::new(format!("provokes {} Reposte{plural}", entry.repostes)).small().color(ERROR_COLOUR));
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Log

/// The combat log window, with every roll expandable, and the JSON Lines export.
fn draw_log(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    log: Res<CombatLog>,
    info: Res<CombatInfo>,
    mut commands: MessageWriter<UiCommand>,
    mut export: Local<Option<String>>,
) -> Result {
    // Behind the curtain the log would show the battle to the wrong player.
    if !ui_state.show_log || ui_state.curtain.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Combat log")
        .open(&mut open)
        .order(egui::Order::Foreground)
        .default_size(LOG_SIZE)
        .vscroll(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Export JSON Lines").clicked() {
                    *export = Some(export_log(&log, &info));
                }
                if let Some(message) = export.as_deref() {
                    ui.label(RichText::new(message).small());
                }
            });
            ui.separator();
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                for (at, entry) in log.entries().iter().enumerate() {
                    log_entry(ui, at, entry);
                }
            });
        });
    if !open {
        commands.write(UiCommand::ToggleLog);
    }
    Ok(())
}

/// One entry: its line, and each of its rolls folded away.
fn log_entry(ui: &mut egui::Ui, at: usize, entry: &LogEntry) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("R{}", entry.round)).weak().monospace());
        ui.label(describe(entry));
    });
    for (roll_at, (what, roll)) in rolls(&entry.event).into_iter().enumerate() {
        ui.indent(("log_roll", at, roll_at), |ui| {
            egui::CollapsingHeader::new(RichText::new(format!("{what}: {} = {}", roll.expr, roll.total)).small())
                .id_salt(("log_roll_header", at, roll_at))
                .show(ui, |ui| {
                    let faces: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
                    let faces = if faces.is_empty() { "none".to_string() } else { faces.join(", ") };
                    ui.label(RichText::new(format!("faces: {faces}")).small().monospace());
                    ui.label(RichText::new(format!("modifier: {:+}", roll.expr.modifier)).small().monospace());
                });
        });
    }
}

/// Writes the log as JSON Lines next to the game and says where (or why not).
fn export_log(log: &CombatLog, info: &CombatInfo) -> String {
    let level: String =
        info.level.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let path = PathBuf::from(format!("fray-log-{level}-{}.jsonl", info.seed));
    let shown = std::env::current_dir().map_or_else(|_| path.clone(), |dir| dir.join(&path));
    match std::fs::write(&path, log.to_json_lines()) {
        Ok(()) => format!("saved to {}", shown.display()),
        Err(error) => format!("could not write {}: {error}", shown.display()),
    }
}

/// One readable line for a log entry.
fn describe(entry: &LogEntry) -> String {
    let on_target =
        |unit: &Option<std::sync::Arc<str>>| unit.as_deref().map(|unit| format!(" on {unit}")).unwrap_or_default();
    match &entry.event {
        LogEvent::CombatStarted { level, ruleset, seed, units } => {
            format!("{level} begins: {} units, ruleset {ruleset}, seed {seed}", units.len())
        }
        LogEvent::Surprise { unit, surprised } => {
            if *surprised {
                format!("{unit} is surprised")
            } else {
                format!("{unit} is not surprised")
            }
        }
        LogEvent::Initiative { unit, base, group, .. } => {
            let group = group.as_deref().map(|group| format!(" (shared by {group})")).unwrap_or_default();
            format!("{unit} rolls Base Initiative {base}{group}")
        }
        LogEvent::RoundStarted {} => format!("Round {} begins", entry.round),
        LogEvent::Arrived { unit, zone } => format!("{unit} arrives at {zone}"),
        LogEvent::Declared { unit, action, target, modifier, initiative, move_to, aim, using, carried_over } => {
            let mut text = format!("{unit} declares {}", action.replace('_', " "));
            if let Some(aim) = aim {
                text = format!("{text} ({})", aim_words(aim));
            }
            if let Some(using) = using {
                text = format!("{text} with {using}");
            }
            text.push_str(&on_target(target));
            if let Some(zone) = move_to {
                text = format!("{text}, moving to {zone}");
            }
            text = format!("{text} (modifier {modifier:+}, initiative {initiative})");
            if *carried_over {
                text.push_str(", carried over from last round");
            }
            text
        }
        LogEvent::Moved { unit, from, to } => format!("{unit} moves from {from} to {to}"),
        LogEvent::Attack { attacker, target, initiative, total, defense, hit, critical, kind, extra, .. } => {
            let mut how = Vec::new();
            if *kind != "normal" {
                how.push(kind.replace('_', " "));
            }
            how.extend(attack_extras(extra));
            let how = if how.is_empty() { String::new() } else { format!(" ({})", how.join(", ")) };
            let result = match (hit, critical) {
                (true, true) => "critical hit!",
                (true, false) => "hit",
                (false, _) => "miss",
            };
            if extra.avoid {
                // The roll was the target's: `hit` means the avoid test failed.
                let test = if *hit { "fails" } else { "passes" };
                format!(
                    "{attacker} attacks {target}{how} at {initiative}: {target} {test} the avoid test, \
                     {total} vs TN {defense}, {result}"
                )
            } else {
                format!("{attacker} attacks {target}{how} at {initiative}: {total} vs Defense {defense}, {result}")
            }
        }
        LogEvent::SideInitiative { side, score, begins, .. } => {
            let begins = match begins {
                Some(true) => ", and begins",
                Some(false) => ", and waits",
                None => "",
            };
            format!("Side {side} rolls initiative: {score}{begins}")
        }
        LogEvent::SurpriseRoll { side, roll, range, surprised } => {
            let result = if *surprised { "surprised" } else { "not surprised" };
            format!("Side {side} rolls for surprise: {} (surprised on {range} or less), {result}", roll.total)
        }
        LogEvent::Shock { attacker, target, amount, absorbed_by } => match absorbed_by {
            Some("shield") => format!("{target}'s shield absorbs the Shock of {attacker}'s miss"),
            Some("total_defense") => format!("{target}'s total defense turns the Shock of {attacker}'s miss"),
            Some(other) => format!("{target}'s {} absorbs the Shock of {attacker}'s miss", other.replace('_', " ")),
            None => format!("{attacker}'s miss still deals {amount} Shock to {target}"),
        },
        LogEvent::Wound { unit, source, aim, wounds, extra_damage, .. } => {
            let plural = if *wounds == 1 { "" } else { "s" };
            let mut text = format!("{source} wounds {unit} ({}): now {wounds} wound{plural}", aim_words(aim));
            if *extra_damage > 0 {
                text.push_str(&format!(", +{extra_damage} damage"));
            }
            text
        }
        LogEvent::Escalation { unit, chain, step, roll, escalated } => {
            let chain = if *chain == "tragedy" { "fumble" } else { *chain };
            let result = if *escalated { "escalates" } else { "stops" };
            format!("{unit}'s {chain} {result} (step {step}: {})", roll.total)
        }
        LogEvent::WeaponUsage { unit, weapon, marks } => {
            let plural = if *marks == 1 { "" } else { "s" };
            format!("{unit}'s {weapon} takes a usage mark ({marks} mark{plural} now)")
        }
        LogEvent::SpellDisrupted { unit, spell, damage_taken } => {
            format!("{unit}'s {spell} is disrupted: hurt for {damage_taken} earlier in the round")
        }
        LogEvent::Reaction { unit, roll, reaction, fights } => {
            let joins = if *fights { "joins the fight" } else { "stays out of the fight" };
            format!("{unit} reacts: {reaction} ({}), {joins}", roll.total)
        }
        LogEvent::Lingering { unit, effect, roll, tn, shaken_off } => {
            let result = if *shaken_off { "shaken off" } else { "lingers" };
            format!("{unit} tests against {}: {} vs TN {tn}, {result}", effect.replace('_', " "), roll.total)
        }
        LogEvent::Afflicted { unit, effect, source } => {
            format!("{source} leaves {unit} with {}", effect.replace('_', " "))
        }
        LogEvent::Maneuver { unit, target, maneuver, won, outcome, .. } => match (won, outcome) {
            (true, Some(outcome)) => format!("{unit}'s {maneuver} on {target}: {}", outcome.replace('_', " ")),
            _ => format!("{target} resists {unit}'s {maneuver}"),
        },
        LogEvent::Execution { unit, target, saved, .. } => {
            if *saved {
                format!("{target} survives {unit}'s execution attack, taking its full force")
            } else {
                format!("{unit}'s execution attack drops {target}")
            }
        }
        LogEvent::Withdrawal { unit, roll, response } => {
            let response = match *response {
                "fall_back" => "falls back",
                "disengage" => "disengages",
                "flee" => "flees",
                "surrender" => "surrenders",
                other => other,
            };
            format!("{unit} withdraws: {} ({})", response.replace('_', " "), roll.total)
        }
        LogEvent::Damage {
            unit,
            source,
            amount,
            damage_type,
            critical,
            stress_lost,
            wounds_lost,
            stress,
            wounds,
            ..
        } => {
            let critical = if *critical { " critical" } else { "" };
            format!(
                "{unit} takes {amount}{critical} {damage_type} damage from {source}: loses {stress_lost} Stress \
                 and {wounds_lost} Wound Points (now {stress} Stress, {wounds} Wound Points)"
            )
        }
        LogEvent::Status { unit, status } => format!("{unit} is now {status}"),
        LogEvent::Injury { unit, table, injury, damage, .. } => match injury {
            Some(injury) => format!("{unit} suffers {injury} ({table} injury from {damage} critical damage)"),
            None => format!("{unit} escapes a {table} injury"),
        },
        LogEvent::Cast { unit, spell, target, roll, tn, success, mana_spent, stress_spent } => {
            let result = if *success { "success" } else { "failure" };
            format!(
                "{unit} casts {spell}{}: {} vs TN {tn}, {result} ({mana_spent} Mana, {stress_spent} Stress spent)",
                on_target(target),
                roll.total
            )
        }
        LogEvent::Healed { unit, source, stress_restored, wounds_restored, stress, wounds, .. } => format!(
            "{source} heals {unit}: +{stress_restored} Stress, +{wounds_restored} Wound Points \
             (now {stress} Stress, {wounds} Wound Points)"
        ),
        LogEvent::ItemUsed { unit, item, target } => format!("{unit} uses {item}{}", on_target(target)),
        LogEvent::Stabilise { unit, target, roll, tn, success } => {
            let result = if *success { "stabilised" } else { "failed" };
            format!("{unit} tries to stabilise {target}: {} vs TN {tn}, {result}", roll.total)
        }
        LogEvent::Intimidation { unit, target, roll } => {
            format!("{unit} tries to intimidate {target}: {}", roll.total)
        }
        LogEvent::Hazard { unit, zone, hazard, roll, tn, passed } => {
            let result = if *passed { "resisted" } else { "failed" };
            format!("{unit} faces {hazard} in {zone}: {} vs TN {tn}, {result}", roll.total)
        }
        LogEvent::ActionLost { unit, reason } => format!("{unit} loses its action: {}", reason.replace('_', " ")),
        LogEvent::Morale { unit, total, tn, passed, reason, automatic, .. } => {
            let reason = reason.replace('_', " ");
            if *automatic {
                format!("{unit} breaks without a roll ({reason})")
            } else {
                let result = if *passed { "holds" } else { "breaks" };
                format!("{unit} checks morale ({reason}): {total} vs TN {tn}, {result}")
            }
        }
        LogEvent::RoundEnded {} => format!("Round {} ends", entry.round),
        LogEvent::CombatEnded { reason, winner } => {
            let winner = winner.as_deref().map_or("no winner".to_string(), |winner| format!("{winner} wins"));
            format!("The battle is over: {}; {winner}", reason.replace('_', " "))
        }
    }
}

/// The attack-line extras in words (`half cover`, `aimed at the legs`, `charging`).
fn attack_extras(extra: &AttackExtra) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(cover) = extra.cover {
        words.push(format!("{cover} cover"));
    }
    if let Some(aim) = extra.aim {
        words.push(format!("aimed at the {}", aim_words(aim)));
    }
    if extra.charge {
        words.push("charging".to_string());
    }
    if let Some(bonus) = extra.swarm_bonus {
        words.push(format!("swarmed, {bonus:+} to hit"));
    }
    if extra.disadvantage_roll.is_some() {
        words.push("with disadvantage".to_string());
    }
    words
}

/// An aim point's log name in words (`slowing` → `legs`).
fn aim_words(log_name: &str) -> &str {
    match AimPoint::ALL.into_iter().find(|aim| aim.log_name() == log_name) {
        Some(aim) => controls::aim_label(aim),
        None => log_name,
    }
}

/// Every dice roll of an event, with what it was for.
fn rolls(event: &LogEvent) -> Vec<(String, &DiceRoll)> {
    let one = |what: &str, roll| vec![(what.to_string(), roll)];
    match event {
        LogEvent::Initiative { roll, .. } => one("initiative", roll),
        LogEvent::Attack { roll, damage_roll, extra, .. } => {
            let mut rolls = one(if extra.avoid { "avoid test" } else { "attack" }, roll);
            rolls
                .extend(extra.disadvantage_roll.iter().map(|roll| ("discarded roll (disadvantage)".to_string(), roll)));
            rolls.extend(damage_roll.iter().map(|roll| ("damage".to_string(), roll)));
            rolls.extend(extra.other_damage_roll.iter().map(|roll| ("other weapon's damage".to_string(), roll)));
            rolls
        }
        LogEvent::SideInitiative { roll, .. } => one("side initiative", roll),
        LogEvent::SurpriseRoll { roll, .. } => one("surprise", roll),
        LogEvent::Wound { roll: Some(roll), .. } => one("fatal chance", roll),
        LogEvent::Escalation { roll, .. } => one("escalation", roll),
        LogEvent::Withdrawal { roll, .. } => one("withdrawal", roll),
        LogEvent::Maneuver { roll, against, .. } => {
            let mut rolls = one("check", roll);
            rolls.push(("target's check".to_string(), against));
            rolls
        }
        LogEvent::Execution { roll, .. } => one("save", roll),
        LogEvent::Reaction { roll, .. } => one("reaction", roll),
        LogEvent::Lingering { roll, .. } => one("lingering test", roll),
        LogEvent::Damage { roll: Some(roll), .. } => one("damage", roll),
        LogEvent::Injury { chance, roll, effects, .. } => {
            let mut rolls = one("injury chance", chance);
            rolls.extend(roll.iter().map(|roll| ("injury table".to_string(), roll)));
            rolls.extend(effects.iter().map(|effect| (effect.what.clone(), &effect.roll)));
            rolls
        }
        LogEvent::Cast { roll, .. } => one("casting check", roll),
        LogEvent::Healed { roll, .. } => one("healing", roll),
        LogEvent::Stabilise { roll, .. } => one("heal check", roll),
        LogEvent::Intimidation { roll, .. } => one("intimidation", roll),
        LogEvent::Hazard { roll, .. } => one("hazard test", roll),
        LogEvent::Morale { roll, .. } => one("morale", roll),
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// Game over, help, notices, curtain

/// The result of the battle, with Restart and Back to menu.
fn draw_game_over(
    mut contexts: EguiContexts,
    state: Res<CombatState>,
    sides: Res<Sides>,
    units: Query<(&Name, &crate::rules::components::SideIndex, &Status, &crate::rules::components::SpawnOrder)>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(outcome) = &state.outcome else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut casualties: Vec<_> =
        units.iter().filter(|(_, _, status, _)| !matches!(status, Status::Active | Status::Reserve)).collect();
    casualties.sort_by_key(|(_, _, _, order)| **order);
    egui::Window::new("Battle over")
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -GAME_OVER_MARGIN))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let winner = match outcome.winner {
                Some(side) => RichText::new(format!("{} wins", side_name(&sides, side))).color(side_colour(side)),
                None => RichText::new("No winner"),
            };
            ui.heading(winner.strong());
            ui.label(outcome.reason.replace('_', " "));
            ui.label(format!("Rounds: {}", outcome.rounds));
            ui.add_space(SECTION_SPACING);
            ui.strong("Casualties");
            for (side, _) in sides.0.iter().enumerate() {
                let fallen: Vec<String> = casualties
                    .iter()
                    .filter(|(_, unit_side, _, _)| unit_side.0 == side)
                    .map(|(name, _, status, _)| format!("{} ({})", name.as_str(), status.log_name()))
                    .collect();
                let fallen = if fallen.is_empty() { "none".to_string() } else { fallen.join(", ") };
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{}:", side_name(&sides, side))).color(side_colour(side)));
                    ui.label(fallen);
                });
            }
            ui.add_space(SECTION_SPACING);
            ui.horizontal(|ui| {
                if ui.button("Restart").clicked() {
                    commands.write(UiCommand::Restart);
                }
                if ui.button("Back to menu").clicked() {
                    commands.write(UiCommand::BackToMenu);
                }
            });
        });
    Ok(())
}

/// Every action with its bindings, as the player's settings have them.
fn draw_help(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    players: Query<&InputMap<PlayerAction>, With<Player>>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    if !ui_state.show_help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let map = players.single().ok();
    let defaults = controls::default_bindings();
    let names = if map.is_some() { binding_names() } else { Vec::new() };
    let mut open = true;
    egui::Window::new("Controls").open(&mut open).order(egui::Order::Foreground).default_width(HELP_WIDTH).show(
        ctx,
        |ui| {
            egui::Grid::new("bindings").num_columns(2).striped(true).show(ui, |ui| {
                for action in PlayerAction::ALL {
                    let bindings = match map {
                        Some(map) => bound_inputs(map, action, &names),
                        None => defaults.get(action.key()).cloned().unwrap_or_default(),
                    };
                    ui.monospace(action.key());
                    ui.label(if bindings.is_empty() { "unbound".to_string() } else { bindings.join(", ") });
                    ui.end_row();
                }
            });
        },
    );
    if !open {
        commands.write(UiCommand::ToggleHelp);
    }
    Ok(())
}

/// Every binding name the settings file accepts, with the `Debug` text of the input it means,
/// to name the inputs of an [`InputMap`] the way the player wrote them.
fn binding_names() -> Vec<(String, String)> {
    let letters = ('A'..='Z').chain('0'..='9').map(String::from);
    let function_keys = (1..=FUNCTION_KEYS).map(|number| format!("F{number}"));
    NAMED_INPUTS
        .iter()
        .map(|name| name.to_string())
        .chain(letters)
        .chain(function_keys)
        .filter_map(|name| {
            let input = match controls::parse_binding(&name)? {
                Binding::Key(key) => format!("{key:?}"),
                Binding::Mouse(button) => format!("{button:?}"),
                Binding::WheelUp => format!("{:?}", MouseScrollDirection::UP),
                Binding::WheelDown => format!("{:?}", MouseScrollDirection::DOWN),
            };
            Some((input, name))
        })
        .collect()
}

/// The names of the inputs bound to `action` (an input without a settings name shows as is).
fn bound_inputs(map: &InputMap<PlayerAction>, action: PlayerAction, names: &[(String, String)]) -> Vec<String> {
    let Some(inputs) = map.get_buttonlike(&action) else {
        return Vec::new();
    };
    inputs
        .iter()
        .map(|input| {
            let debug = format!("{input:?}");
            names.iter().find(|(known, _)| *known == debug).map_or(debug, |(_, name)| name.clone())
        })
        .collect()
}

/// A level that failed to (re)load and a bad settings file, in a red window until dismissed.
fn draw_notices(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    mut session: ResMut<Session>,
    mut ui_state: ResMut<BattleUi>,
) -> Result {
    if session.error.is_none() && ui_state.notice.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let frame = egui::Frame::window(&ctx.global_style()).fill(NOTICE_FILL).stroke(egui::Stroke::new(1.0, ERROR_COLOUR));
    let mut dismissed = false;
    egui::Window::new("Notices")
        .title_bar(false)
        .frame(frame)
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, TOP_BAR_HEIGHT + NOTICE_GAP))
        .default_width(NOTICE_WIDTH)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(error) = &session.error {
                let what = match screen.get() {
                    Screen::Battle => "The level failed to reload; kept the last good data.",
                    Screen::Menu => "The level failed to load.",
                };
                ui.label(RichText::new(what).color(ERROR_COLOUR).strong());
                ui.label(RichText::new(error).color(ERROR_COLOUR).monospace());
            }
            if let Some(notice) = &ui_state.notice {
                ui.label(RichText::new("Settings").color(ERROR_COLOUR).strong());
                ui.label(RichText::new(notice).color(ERROR_COLOUR).monospace());
            }
            dismissed = ui.button("Dismiss").clicked();
        });
    if dismissed {
        session.error = None;
        ui_state.notice = None;
    }
    Ok(())
}

/// The hot-seat curtain: an opaque screen over everything until the next player takes the seat.
fn draw_curtain(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    sides: Res<Sides>,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(side) = ui_state.curtain else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.viewport_rect();
    let name = side_name(&sides, side);
    egui::Area::new(egui::Id::new("curtain"))
        .order(egui::Order::Foreground)
        .fixed_pos(screen.min)
        .movable(false)
        .constrain(false)
        .show(ctx, |ui| {
            egui::Frame::new().fill(CURTAIN_FILL).show(ui, |ui| {
                ui.set_min_size(screen.size());
                ui.set_max_size(screen.size());
                ui.vertical_centered(|ui| {
                    ui.add_space(screen.height() * CURTAIN_TEXT_AT);
                    ui.heading(RichText::new(format!("Pass to {name}")).color(side_colour(side)).strong());
                    ui.add_space(CURTAIN_SPACING);
                    ui.label("Declarations are secret: everyone else, look away.");
                    ui.add_space(CURTAIN_SPACING);
                    if ui.button(RichText::new(format!("I am {name} — show the board")).strong()).clicked() {
                        commands.write(UiCommand::LiftCurtain);
                    }
                });
            });
        });
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// The colour of a side.
fn side_colour(side: usize) -> Color32 {
    // The board's palette, lightened a little so names read well on the dark panels.
    let colour = super::board::SIDE_COLOURS[side % super::board::SIDE_COLOURS.len()].to_srgba().lighter(TEXT_LIGHTEN);
    let channel = |value: f32| (value.clamp(0.0, 1.0) * f32::from(u8::MAX)).round() as u8;
    Color32::from_rgb(channel(colour.red), channel(colour.green), channel(colour.blue))
}

/// A side's name, or its number when the level has no such side.
fn side_name(sides: &Sides, side: usize) -> String {
    sides.0.get(side).map_or_else(|| format!("side {}", side + 1), |info| info.name.to_string())
}

/// A full-screen background [`egui::Ui`] to lay panels out in.
fn screen_ui(ctx: &egui::Context, id: &str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(id),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.content_rect()),
    )
}

/// A panel docked at `rect`. It is an [`egui::Area`] rather than an [`egui::Panel`] because
/// egui counts the pointer as over egui only above areas and windows, and the board must not
/// take clicks meant for a panel.
fn dock<R>(ctx: &egui::Context, id: &str, rect: egui::Rect, add_contents: impl FnOnce(&mut egui::Ui) -> R) -> R {
    egui::Area::new(egui::Id::new(id))
        .order(egui::Order::Middle)
        .fixed_pos(rect.min)
        .movable(false)
        .constrain(false)
        .show(ctx, |ui| {
            let frame = egui::Frame::side_top_panel(ui.style());
            let inner = (rect.size() - frame.total_margin().sum()).max(egui::Vec2::ZERO);
            frame
                .show(ui, |ui| {
                    ui.set_min_size(inner);
                    ui.set_max_size(inner);
                    add_contents(ui)
                })
                .inner
        })
        .inner
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::Place;
    use crate::rules::dice::Dice;

    fn roll(total: i32) -> DiceRoll {
        DiceRoll { expr: Dice::new(1, 20), dice: vec![total.max(1) as u32], total }
    }

    fn line(event: LogEvent) -> String {
        describe(&LogEntry { round: 2, event })
    }

    #[test]
    fn the_log_reads_the_new_events_and_attack_extras() {
        let extra = AttackExtra { cover: Some("half"), aim: Some("slowing"), charge: true, ..AttackExtra::default() };
        let attack = line(LogEvent::Attack {
            attacker: "mags".into(),
            target: "odile".into(),
            initiative: 3,
            roll: roll(14),
            total: 16,
            defense: 15,
            hit: true,
            critical: false,
            kind: "normal",
            damage_roll: None,
            extra,
        });
        assert_eq!(attack, "mags attacks odile (half cover, aimed at the legs, charging) at 3: 16 vs Defense 15, hit");
        let avoid = AttackExtra { avoid: true, ..AttackExtra::default() };
        let avoided = line(LogEvent::Attack {
            attacker: "orc".into(),
            target: "odile".into(),
            initiative: 1,
            roll: roll(12),
            total: 12,
            defense: 10,
            hit: false,
            critical: false,
            kind: "normal",
            damage_roll: None,
            extra: avoid,
        });
        assert!(avoided.contains("odile passes the avoid test, 12 vs TN 10"), "{avoided}");
        let shield = line(LogEvent::Shock {
            attacker: "orc".into(),
            target: "odile".into(),
            amount: 0,
            absorbed_by: Some("shield"),
        });
        assert_eq!(shield, "odile's shield absorbs the Shock of orc's miss");
        let shock =
            line(LogEvent::Shock { attacker: "orc".into(), target: "nell".into(), amount: 2, absorbed_by: None });
        assert_eq!(shock, "orc's miss still deals 2 Shock to nell");
        let wound = line(LogEvent::Wound {
            unit: "orc".into(),
            source: "nell".into(),
            aim: "fatal",
            wounds: 2,
            roll: Some(roll(6)),
            extra_damage: 6,
        });
        assert_eq!(wound, "nell wounds orc (vitals): now 2 wounds, +6 damage");
        let side =
            line(LogEvent::SideInitiative { side: "guards".into(), roll: roll(5), score: 7, begins: Some(true) });
        assert_eq!(side, "Side guards rolls initiative: 7, and begins");
        let surprise = line(LogEvent::SurpriseRoll { side: "guards".into(), roll: roll(2), range: 2, surprised: true });
        assert_eq!(surprise, "Side guards rolls for surprise: 2 (surprised on 2 or less), surprised");
        let escalation = line(LogEvent::Escalation {
            unit: "orc".into(),
            chain: "tragedy",
            step: 1,
            roll: roll(3),
            escalated: false,
        });
        assert_eq!(escalation, "orc's fumble stops (step 1: 3)");
        let usage = line(LogEvent::WeaponUsage { unit: "orc".into(), weapon: "axe".into(), marks: 1 });
        assert_eq!(usage, "orc's axe takes a usage mark (1 mark now)");
        let withdrawal = line(LogEvent::Withdrawal { unit: "orc".into(), roll: roll(4), response: "fall_back" });
        assert_eq!(withdrawal, "orc withdraws: falls back (4)");
        let moved =
            line(LogEvent::Moved { unit: "orc".into(), from: Place::Square([3, 4]), to: Place::Zone("ford".into()) });
        assert_eq!(moved, "orc moves from (3, 4) to ford");
        let declared = line(LogEvent::Declared {
            unit: "nell".into(),
            action: "aimed_attack",
            target: Some("orc".into()),
            modifier: 2,
            initiative: 5,
            move_to: Some(Place::Square([1, 2])),
            aim: Some("weakening"),
            using: None,
            carried_over: false,
        });
        assert_eq!(declared, "nell declares aimed attack (arms) on orc, moving to (1, 2) (modifier +2, initiative 5)");
    }
}
