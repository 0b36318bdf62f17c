//! The egui panels: the menu, the battle's top bar, initiative track, unit card and declaration
//! panel, the log, help, notices, game over and the hot-seat curtain. Panels only draw state and
//! send [`UiCommand`]s (or [`StartBattle`]); they never change the battle themselves.

use std::path::PathBuf;

use bevy::diagnostic::FrameCount;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::{InputMap, MouseScrollDirection};

use super::controls::{self, Binding, DeclarationOptions, OptionEntry, Player};
use super::session::{LevelChoice, Pace, Screen, Seat, Session, Speed, StartBattle};
use super::{BattleUi, PlayerAction, UiCommand};
use crate::battlefield::Battlefield;
use crate::battlefield::Cover;
use crate::levels::BattleTemplate;
use crate::rules::components::{Action, Status};
use crate::rules::equipment::Attribute;
use crate::rules::log::{CombatLog, LogEntry};
use crate::rules::log_text::{self, Names};
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
pub(super) const TOP_BAR_HEIGHT: f32 = 34.0;
/// Gap between the game-over window and the bottom of the screen, so the board stays in view.
const GAME_OVER_MARGIN: f32 = 24.0;
/// Width of the initiative panel, in points.
pub(super) const LEFT_PANEL_WIDTH: f32 = 250.0;
/// Width of the unit card and declaration panel, in points.
pub(super) const RIGHT_PANEL_WIDTH: f32 = 320.0;
/// Width of the menu's column, in points.
const MENU_WIDTH: f32 = 620.0;
/// Largest share of the menu the level list may take, so the seats stay on screen.
const MENU_LIST_SHARE: f32 = 0.6;
/// Default width of the How to play page, in points.
const HOW_TO_PLAY_WIDTH: f32 = 460.0;
/// The menu's buttons, by the labels scripted tests click them by.
const START_LABEL: &str = "Start battle";
/// See [`START_LABEL`].
const HOW_TO_PLAY_LABEL: &str = "How to play";
/// See [`START_LABEL`].
const QUIT_LABEL: &str = "Quit";
/// Words a ruleset's title keeps in lower case unless they come first.
const MINOR_WORDS: [&str; 5] = ["and", "or", "of", "the", "with"];

/// The How to play page: a title and its paragraphs per section. The keys are the defaults;
/// the help window (F1) shows the player's own.
const HOW_TO_PLAY: [(&str, &[&str]); 3] = [
    (
        "A round",
        &[
            "Battles are fought in rounds, and every round goes the same way.",
            "Initiative: units (or whole sides, in some rulesets) roll to settle who acts first this round.",
            "Declaration: each unit says what it will do: attack, move, cast, use an item, defend or hold. \
             In some rulesets every side chooses at once and in secret, and nobody sees the others' choices \
             until all are in (at one machine, a curtain hides the board while the seat changes hands). \
             In others units take turns in initiative order and declare when their turn comes.",
            "Resolution: the declared actions happen in initiative order. A unit that falls before its turn \
             never acts, and a target that is gone wastes the action.",
            "After that, frightened units check their morale, hazards bite, and the battle ends once a side \
             is beaten.",
        ],
    ),
    (
        "Declaring",
        &[
            "When one of your units is to declare, the panel on the right lists what it can do.",
            "1-9 choose an action (or click it in the list). Click a unit on the board, or press T to step \
             through the targets, to aim it; click a zone or square to move there.",
            "Enter confirms. E holds: the unit does nothing this round. Esc drops the choice.",
            "Tab moves between units to read their cards. WASD or the arrows pan, the wheel or +/- zoom.",
            "F1 lists every key. They can be changed in fray-settings.ron (see docs/controls.md).",
        ],
    ),
    (
        "Reading the log",
        &[
            "L opens the combat log. Each line starts with its round (R2 is round two) and tells one thing \
             that happened: a declaration, an attack with its total against the target's Defense, the damage \
             it did and what is left, a fall, a morale check.",
            "Units and places are named as on the board; units that share a name carry their id in brackets.",
            "Under a line, each roll opens to show its dice and modifier. Export JSON Lines saves the whole \
             log, every number included, beside the game.",
        ],
    ),
];
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
/// The key of the tenth numbered kind of action.
const TENTH_KIND_KEY: &str = "0";
/// Units in a battle beyond which the end screen sums casualties up by kind, not by name.
const SUMMARY_UNITS: usize = 16;

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
const NAMED_INPUTS: [&str; 21] = [
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
    "BracketLeft",
    "BracketRight",
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
    app.init_resource::<ButtonRects>()
        .add_systems(EguiPrimaryContextPass, draw_menu.run_if(in_state(Screen::Menu)))
        .add_systems(
            EguiPrimaryContextPass,
            (draw_battle_panels, draw_log, draw_game_over, draw_help).chain().run_if(in_state(Screen::Battle)),
        )
        .add_systems(EguiPrimaryContextPass, draw_notices.after(draw_menu).after(draw_help))
        // The curtain goes last so that it covers everything drawn before it.
        .add_systems(EguiPrimaryContextPass, draw_curtain.after(draw_notices).run_if(in_state(Screen::Battle)))
        .add_systems(EguiPrimaryContextPass, draw_confirm.after(draw_curtain).run_if(in_state(Screen::Battle)))
        .add_systems(EguiPrimaryContextPass, (drop_button_focus, note_button_rects).chain().after(draw_confirm));
}

/// A button whose place is noted under its label, so scripted real-window tests can click it
/// by name (see [`super::script`]).
pub(super) fn tracked_button(ui: &mut egui::Ui, label: &str) -> egui::Response {
    tracked(ui.button(label), label)
}

/// Notes where a widget was drawn, under `label`, for scripted clicks.
pub(super) fn tracked(response: egui::Response, label: &str) -> egui::Response {
    let pass = response.ctx.cumulative_pass_nr();
    // The part a click can reach: a widget scrolled out of its list is not clickable.
    let rect = response.interact_rect;
    let enabled = response.enabled() && rect.height() * 2.0 >= response.rect.height() && rect.width() > 0.0;
    response.ctx.data_mut(|data| {
        let mut rects: TrackedButtons = data.get_temp(egui::Id::new(TRACKED_BUTTONS)).unwrap_or_default();
        rects.0.insert(label.to_string(), (rect, pass, enabled));
        data.insert_temp(egui::Id::new(TRACKED_BUTTONS), rects);
    });
    response
}

/// Where egui keeps the tracked buttons between passes.
const TRACKED_BUTTONS: &str = "fray_tracked_buttons";

/// Tracked buttons by label: where, in which pass, and whether enabled.
#[derive(Clone, Debug, Default)]
struct TrackedButtons(std::collections::HashMap<String, (egui::Rect, u64, bool)>);

/// Buttons drawn in the last pass, by label, in window coordinates (logical pixels).
#[derive(Resource, Debug, Default)]
pub struct ButtonRects(pub std::collections::HashMap<String, Vec2>);

/// Copies the buttons drawn in this pass for the script driver.
fn note_button_rects(mut contexts: EguiContexts, mut rects: ResMut<ButtonRects>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let pass = ctx.cumulative_pass_nr();
    let tracked: TrackedButtons = ctx.data(|data| data.get_temp(egui::Id::new(TRACKED_BUTTONS))).unwrap_or_default();
    let zoom = ctx.zoom_factor();
    rects.0 = tracked
        .0
        .into_iter()
        .filter(|(_, (_, drawn, enabled))| *drawn == pass && *enabled)
        .map(|(label, (rect, _, _))| (label, Vec2::new(rect.center().x, rect.center().y) * zoom))
        .collect();
    Ok(())
}

/// Game keys must never press a button by accident: Tab moves egui's focus onto a button and
/// the next Enter or Space would press it. Only a text field may keep the keyboard.
fn drop_button_focus(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !ctx.text_edit_focused()
        && let Some(focused) = ctx.memory(|memory| memory.focused())
    {
        ctx.memory_mut(|memory| memory.surrender_focus(focused));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Menu

/// The menu: levels by ruleset, seats, seed, and the Start battle, How to play and Quit buttons.
fn draw_menu(
    mut contexts: EguiContexts,
    mut session: ResMut<Session>,
    mut start: MessageWriter<StartBattle>,
    mut exit: MessageWriter<AppExit>,
    mut how_to_play_open: Local<bool>,
    (frames, mut last_drawn): (Res<FrameCount>, Local<u32>),
) -> Result {
    // On coming back to the menu its list shows the level just played, wherever it was scrolled.
    let reveal = frames.0 != last_drawn.wrapping_add(1);
    *last_drawn = frames.0;
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "menu");
    // Edits go to copies and are written back only when they change, so the session is not
    // marked changed every frame.
    let mut selected = session.selected;
    let mut seats = session.seats.clone();
    let mut seed = session.seed;
    let mut clicks = MenuClicks::default();
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| ui.heading(RichText::new("Fray").strong()));
        ui.add_space(SECTION_SPACING);
        let column = ui.available_width().min(MENU_WIDTH);
        let margin = (ui.available_width() - column) / 2.0;
        ui.horizontal_top(|ui| {
            ui.add_space(margin);
            ui.vertical(|ui| {
                ui.set_width(column);
                level_list(ui, &session, &mut selected, reveal);
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
                clicks = menu_buttons(ui, &session, *how_to_play_open);
            });
        });
    });
    if clicks.how_to_play {
        *how_to_play_open = !*how_to_play_open;
    }
    if *how_to_play_open {
        how_to_play(ctx, &mut how_to_play_open);
    }
    if selected != session.selected {
        session.select(selected);
    } else if seats != session.seats {
        session.seats = seats;
    }
    if seed != session.seed {
        session.seed = seed;
    }
    if clicks.start {
        start.write(StartBattle);
    }
    if clicks.quit {
        exit.write(AppExit::Success);
    }
    Ok(())
}

/// What was clicked in the menu's row of buttons this frame.
#[derive(Clone, Copy, Debug, Default)]
struct MenuClicks {
    /// Start battle.
    start: bool,
    /// How to play (opens or closes the page).
    how_to_play: bool,
    /// Quit.
    quit: bool,
}

/// Start battle (only for a level that loaded), How to play and Quit.
fn menu_buttons(ui: &mut egui::Ui, session: &Session, how_to_play_open: bool) -> MenuClicks {
    let mut clicks = MenuClicks::default();
    ui.horizontal(|ui| {
        let playable = session.level().is_some_and(|level| level.template.is_some());
        let start = egui::Button::new(RichText::new(START_LABEL).strong());
        clicks.start = tracked(ui.add_enabled(playable, start), START_LABEL).clicked();
        let how_to = egui::Button::new(HOW_TO_PLAY_LABEL).selected(how_to_play_open);
        clicks.how_to_play = tracked(ui.add(how_to), HOW_TO_PLAY_LABEL).clicked();
        clicks.quit = tracked_button(ui, QUIT_LABEL).clicked();
    });
    clicks
}

/// The levels on offer under a heading per ruleset, each with its battlefield and size; a
/// click chooses one.
fn level_list(ui: &mut egui::Ui, session: &Session, selected: &mut usize, reveal: bool) {
    ui.strong("Levels");
    let height = ui.ctx().content_rect().height() * MENU_LIST_SHARE;
    egui::ScrollArea::vertical().id_salt("levels").max_height(height).auto_shrink([false, true]).show(ui, |ui| {
        for (ruleset, members) in levels_by_ruleset(&session.levels) {
            let heading = ruleset.map_or_else(|| "Levels that need fixing".to_string(), ruleset_title);
            ui.label(RichText::new(heading).heading());
            ui.indent(("ruleset", ruleset), |ui| {
                for at in members {
                    let chosen = at == session.selected;
                    level_row(ui, &session.levels[at], (chosen, chosen && reveal), || *selected = at);
                }
            });
        }
    });
}

/// One level: its title (a click chooses it), ruleset, battlefield and size, description and
/// any load error. `(chosen, reveal)`: whether it is the chosen level, and whether to scroll it into view.
fn level_row(ui: &mut egui::Ui, level: &LevelChoice, (chosen, reveal): (bool, bool), choose: impl FnOnce()) {
    let title = tracked(ui.selectable_label(chosen, RichText::new(&level.title).strong()), &level.title);
    if reveal {
        title.scroll_to_me(Some(egui::Align::Center));
    }
    if title.clicked() {
        choose();
    }
    if let Some(template) = &level.template {
        ui.label(RichText::new(level_facts(template)).small());
        if !template.description.is_empty() {
            ui.label(RichText::new(&template.description).weak());
        }
    }
    if let Some(error) = &level.error {
        ui.label(RichText::new(error).color(ERROR_COLOUR).monospace());
    }
    ui.add_space(SECTION_SPACING);
}

/// The positions of `levels` grouped by ruleset name, groups in the order they first appear;
/// levels that did not load (`None`) come last.
fn levels_by_ruleset(levels: &[LevelChoice]) -> Vec<(Option<&str>, Vec<usize>)> {
    let mut groups: Vec<(Option<&str>, Vec<usize>)> = Vec::new();
    for (at, level) in levels.iter().enumerate() {
        let ruleset = level.template.as_ref().map(|template| template.ruleset.name.as_str());
        match groups.iter_mut().find(|(name, _)| *name == ruleset) {
            Some((_, members)) => members.push(at),
            None => groups.push((ruleset, vec![at])),
        }
    }
    groups.sort_by_key(|(name, _)| name.is_none());
    groups
}

/// A ruleset's name as a title: `stress_and_wounds` reads `Stress and Wounds`.
fn ruleset_title(name: &str) -> String {
    let words = name.trim_end_matches(".ron").split(['_', '-', ' ']).filter(|word| !word.is_empty());
    let words: Vec<String> = words
        .enumerate()
        .map(|(at, word)| {
            let mut letters = word.chars();
            match letters.next() {
                Some(first) if at == 0 || !MINOR_WORDS.contains(&word) => first.to_uppercase().chain(letters).collect(),
                _ => word.to_string(),
            }
        })
        .collect();
    words.join(" ")
}

/// A level at a glance: `stress_and_wounds · 6 zones · 4 vs 4`, or `grid 12×10` on a grid.
fn level_facts(template: &BattleTemplate) -> String {
    let field = match template.battlefield.grid() {
        Some(grid) => format!("grid {}×{}", grid.width(), grid.height()),
        None if template.battlefield.len() == 1 => "1 zone".to_string(),
        None => format!("{} zones", template.battlefield.len()),
    };
    format!("{} · {field} · {}", template.ruleset.name, side_sizes(template))
}

/// Units per side at the start (`4 vs 4`), and how many join the battle later.
fn side_sizes(template: &BattleTemplate) -> String {
    let mut starting = vec![0_usize; template.sides.len()];
    let mut later = 0;
    for unit in &template.units {
        match (unit.arrives.is_some(), starting.get_mut(unit.side)) {
            (false, Some(count)) => *count += 1,
            (true, _) => later += 1,
            (false, None) => {}
        }
    }
    let sizes: Vec<String> = starting.iter().map(usize::to_string).collect();
    let sizes = sizes.join(" vs ");
    if later > 0 { format!("{sizes}, {later} more arriving") } else { sizes }
}

/// The How to play page, over the menu until closed.
fn how_to_play(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new(HOW_TO_PLAY_LABEL)
        .open(open)
        .order(egui::Order::Foreground)
        .default_width(HOW_TO_PLAY_WIDTH)
        .vscroll(true)
        .show(ctx, |ui| {
            for (title, paragraphs) in HOW_TO_PLAY {
                ui.strong(title);
                for paragraph in paragraphs {
                    ui.label(*paragraph);
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
            // The board tells sides apart by shape too, so no one needs the colour alone.
            let shape = super::token_art::side_shape_name(at);
            ui.label(RichText::new(format!("{} ({shape} tokens)", side.name)).color(side_colour(at)));
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
    pace: Res<'w, Pace>,
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
            let buttons = [
                ("Quit", UiCommand::Quit),
                ("Menu", UiCommand::BackToMenu),
                ("Restart", UiCommand::Restart),
                ("Help", UiCommand::ToggleHelp),
            ];
            for (label, command) in buttons {
                if tracked_button(ui, label).clicked() {
                    out.push(command);
                }
            }
            if tracked(ui.selectable_label(view.ui.show_log, "Log"), "Log").clicked() {
                out.push(UiCommand::ToggleLog);
            }
            ui.separator();
            speed_buttons(ui, view, out);
        });
    });
}

/// Pause, step and the speeds, right to left.
fn speed_buttons(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    for speed in Speed::ALL.into_iter().rev() {
        let chosen = view.pace.speed == speed && !view.pace.paused;
        if tracked(ui.selectable_label(chosen, speed.label()), speed.label()).clicked() {
            out.push(UiCommand::SetSpeed(speed));
            if view.pace.paused {
                out.push(UiCommand::TogglePause);
            }
        }
    }
    if tracked(ui.add_enabled(view.pace.paused, egui::Button::new("Step")), "Step")
        .on_hover_text("Play one round")
        .clicked()
    {
        out.push(UiCommand::Step);
    }
    let pause = if view.pace.paused { "Resume" } else { "Pause" };
    if tracked_button(ui, pause).clicked() {
        out.push(UiCommand::TogglePause);
    }
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
        let text = match at + 1 {
            number if number < controls::NUMBERED_KINDS => format!("{number}. {label}"),
            controls::NUMBERED_KINDS => format!("{TENTH_KIND_KEY}. {label}"),
            _ => label.clone(),
        };
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
    if let Some(hint) = &view.ui.hint {
        ui.label(RichText::new(hint).color(COVER_COLOUR));
    }
    ui.horizontal(|ui| {
        let complete = options.drafted(&view.ui.draft).is_some();
        if tracked(ui.add_enabled(complete, egui::Button::new(RichText::new("Confirm").strong())), "Confirm").clicked()
        {
            out.push(UiCommand::Confirm);
        }
        if tracked_button(ui, "Hold").clicked() {
            out.push(UiCommand::EndDeclaration);
        }
        if tracked_button(ui, "Cancel").clicked() {
            out.push(UiCommand::Cancel);
        }
    });
    // Orders for many units at once: what a 32-unit side needs every round.
    ui.horizontal(|ui| {
        let complete = options.drafted(&view.ui.draft).is_some();
        let all = ui.add_enabled(complete, egui::Button::new("Same for all"));
        if tracked(all, "Same for all").on_hover_text(ORDER_ALL_HELP).clicked() {
            out.push(UiCommand::OrderAll);
        }
        if tracked_button(ui, "Repeat last round").on_hover_text(REPEAT_HELP).clicked() {
            out.push(UiCommand::RepeatOrders);
        }
    });
}

/// What "Same for all" does.
const ORDER_ALL_HELP: &str =
    "Declare this order, then the same for each of your units that can take it this round (F).";
/// What "Repeat last round" does.
const REPEAT_HELP: &str = "Each of your units declares what it did last round, while it still can (G).";

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
    battlefield: Res<Battlefield>,
    mut commands: MessageWriter<UiCommand>,
    (time, mut window): (Res<Time>, Local<LogWindow>),
) -> Result {
    let now = time.elapsed_secs_f64();
    window.arrivals.note(log.entries().len(), now);
    let LogWindow { export, arrivals } = &mut *window;
    // Behind the curtain the log would show the battle to the wrong player.
    if !ui_state.show_log || ui_state.curtain.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The log's first line lists every unit of the battle, reinforcements included.
    let names = Names::from_log(log.entries()).with_zones(&battlefield);
    let mut open = true;
    egui::Window::new("Combat log")
        .open(&mut open)
        .order(egui::Order::Foreground)
        .default_size(LOG_SIZE)
        // Top left of the board, clear of the game-over window at the bottom.
        .default_pos(egui::pos2(LEFT_PANEL_WIDTH + NOTICE_GAP, TOP_BAR_HEIGHT + NOTICE_GAP))
        .vscroll(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if tracked_button(ui, "Export JSON Lines").clicked() {
                    *export = Some(export_log(&log, &info));
                }
                if let Some(message) = export.as_deref() {
                    ui.label(RichText::new(message).small());
                }
            });
            ui.separator();
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                for (at, entry) in log.entries().iter().enumerate() {
                    let rolling = arrivals.rolling(at, now);
                    log_entry(ui, at, entry, &names, rolling);
                }
            });
        });
    if !open {
        commands.write(UiCommand::ToggleLog);
    }
    Ok(())
}

/// What the log window keeps between frames.
#[derive(Debug, Default)]
struct LogWindow {
    /// What the last export said.
    export: Option<String>,
    /// When each entry arrived.
    arrivals: LogArrivals,
}

/// When each log entry arrived, so the newest rolls tumble a moment before they settle.
#[derive(Debug, Default)]
struct LogArrivals {
    /// Arrival times, by entry index.
    times: Vec<f64>,
}

impl LogArrivals {
    /// Notes the entries new since the last frame (a restart's shorter log starts over).
    fn note(&mut self, entries: usize, now: f64) {
        if entries < self.times.len() {
            self.times.clear();
        }
        // The entries already there when the log first shows are history: no tumbling.
        let arrived = if self.times.is_empty() && entries > 0 { f64::NEG_INFINITY } else { now };
        self.times.resize(entries, arrived);
    }

    /// While entry `at` is new, how far its dice are into their tumble (0 to 1).
    fn rolling(&self, at: usize, now: f64) -> Option<f64> {
        let age = now - *self.times.get(at)?;
        (age < DICE_TUMBLE_SECONDS).then(|| age / DICE_TUMBLE_SECONDS)
    }
}

/// How long a new roll's dice tumble in the log before showing their faces.
const DICE_TUMBLE_SECONDS: f64 = 0.6;
/// How many times a second tumbling dice change face.
const DICE_TUMBLE_RATE: f64 = 14.0;

/// A die's face while it tumbles: any face but the real one's twin for a frame, the same for
/// everyone watching (a hash of the moment, not the combat RNG, which it must never touch).
fn tumbling_face(sides: u32, die: usize, progress: f64) -> u32 {
    let tick = (progress * DICE_TUMBLE_SECONDS * DICE_TUMBLE_RATE) as u64;
    let mixed = (tick.wrapping_add(1) ^ ((die as u64) << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 33) as u32 % sides.max(1) + 1
}

/// A roll's line in the log: `what: expr = total`, or its dice tumbling while it is new.
fn roll_line(what: &str, roll: &crate::rules::dice::DiceRoll, rolling: Option<f64>) -> String {
    match rolling {
        Some(progress) if roll.expr.sides > 0 && !roll.dice.is_empty() => {
            let faces: Vec<String> =
                (0..roll.dice.len()).map(|die| tumbling_face(roll.expr.sides, die, progress).to_string()).collect();
            format!("{what}: {} = [{}] ...", roll.expr, faces.join(" "))
        }
        _ => format!("{what}: {} = {}", roll.expr, roll.total),
    }
}

/// One entry: its line, and each of its rolls folded away (tumbling a moment when new).
fn log_entry(ui: &mut egui::Ui, at: usize, entry: &LogEntry, names: &Names, rolling: Option<f64>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("R{}", entry.round)).weak().monospace());
        ui.label(log_text::describe(entry, names));
    });
    for (roll_at, (what, roll)) in log_text::rolls(&entry.event).into_iter().enumerate() {
        ui.indent(("log_roll", at, roll_at), |ui| {
            egui::CollapsingHeader::new(RichText::new(roll_line(&what, roll, rolling)).small())
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

// ---------------------------------------------------------------------------------------------
// Game over, help, notices, curtain

/// The units the end screen reads.
type FallenQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static Name,
        &'static crate::rules::components::SideIndex,
        &'static Status,
        &'static crate::rules::components::SpawnOrder,
    ),
>;

/// The result of the battle, with Play again, Back to menu and Quit.
fn draw_game_over(
    mut contexts: EguiContexts,
    state: Res<CombatState>,
    sides: Res<Sides>,
    units: FallenQuery,
    mut commands: MessageWriter<UiCommand>,
) -> Result {
    let Some(outcome) = &state.outcome else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Battle over")
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -GAME_OVER_MARGIN))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            // "Winner: bandits" reads right whether a side's name is singular or plural.
            let winner = match outcome.winner {
                Some(side) => RichText::new(format!("Winner: {}", side_name(&sides, side))).color(side_colour(side)),
                None => RichText::new("No winner"),
            };
            ui.heading(winner.strong());
            ui.label(format!("{} after {} rounds", outcome.reason.replace('_', " "), outcome.rounds));
            ui.add_space(SECTION_SPACING);
            ui.strong("Casualties");
            let summarise = units.iter().count() > SUMMARY_UNITS;
            for (side, _) in sides.0.iter().enumerate() {
                let fallen = casualties(&units, side, summarise);
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{}:", side_name(&sides, side))).color(side_colour(side)));
                    ui.label(fallen);
                });
            }
            ui.add_space(SECTION_SPACING);
            ui.horizontal(|ui| {
                for (label, command) in [
                    ("Play again", UiCommand::Restart),
                    ("Back to menu", UiCommand::BackToMenu),
                    ("Quit", UiCommand::Quit),
                ] {
                    if tracked_button(ui, label).clicked() {
                        commands.write(command);
                    }
                }
            });
        });
    Ok(())
}

/// A side's fallen: by name in a small battle; in a big one, counted by kind of unit
/// (`Human Fighter ×5 (3 dead, 2 dying)`), so the list stays a few lines long.
fn casualties(units: &FallenQuery, side: usize, summarise: bool) -> String {
    let mut fallen: Vec<_> = units
        .iter()
        .filter(|(_, unit_side, status, _)| unit_side.0 == side && !matches!(status, Status::Active | Status::Reserve))
        .collect();
    if fallen.is_empty() {
        return "none".into();
    }
    fallen.sort_by_key(|(_, _, _, order)| **order);
    if !summarise {
        let named: Vec<String> =
            fallen.iter().map(|(name, _, status, _)| format!("{} ({})", name.as_str(), status.log_name())).collect();
        return named.join(", ");
    }
    let mut kinds: Vec<(&str, std::collections::BTreeMap<&str, usize>)> = Vec::new();
    for (name, _, status, _) in &fallen {
        let at = match kinds.iter().position(|(kind, _)| *kind == name.as_str()) {
            Some(at) => at,
            None => {
                kinds.push((name.as_str(), std::collections::BTreeMap::new()));
                kinds.len() - 1
            }
        };
        *kinds[at].1.entry(status.log_name()).or_default() += 1;
    }
    let total = fallen.len();
    let lines: Vec<String> = kinds
        .iter()
        .map(|(kind, by_status)| {
            let count: usize = by_status.values().sum();
            let detail: Vec<String> = by_status.iter().map(|(status, n)| format!("{n} {status}")).collect();
            format!("{kind} \u{d7}{count} ({})", detail.join(", "))
        })
        .collect();
    format!("{total} fallen: {}", lines.join("; "))
}

/// "Are you sure?" before a battle in progress is thrown away.
fn draw_confirm(mut contexts: EguiContexts, ui_state: Res<BattleUi>, mut commands: MessageWriter<UiCommand>) -> Result {
    let Some(leave) = ui_state.confirm else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Leave the battle?")
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(leave.question());
            ui.add_space(SECTION_SPACING);
            ui.horizontal(|ui| {
                if tracked(ui.button(RichText::new(leave.verb()).strong()), leave.verb()).clicked() {
                    commands.write(UiCommand::ConfirmLeave);
                }
                if tracked_button(ui, "Stay").clicked() {
                    commands.write(UiCommand::StayInBattle);
                }
            });
            ui.label(RichText::new("Enter: yes · Esc: stay").small().weak());
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
    queue: Res<DeclarationQueue>,
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
                    ui.label(if queue.secret {
                        "Declarations are secret: everyone else, look away."
                    } else {
                        "Your turn to declare."
                    });
                    ui.add_space(CURTAIN_SPACING);
                    let lift = format!("I am {name} — show the board");
                    if tracked(ui.button(RichText::new(&lift).strong()), "Show the board").clicked() {
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
pub(super) fn side_colour(side: usize) -> Color32 {
    // The board's palette, lightened a little so names read well on the dark panels.
    let colour = super::board::SIDE_COLOURS[side % super::board::SIDE_COLOURS.len()].to_srgba().lighter(TEXT_LIGHTEN);
    let channel = |value: f32| (value.clamp(0.0, 1.0) * f32::from(u8::MAX)).round() as u8;
    Color32::from_rgb(channel(colour.red), channel(colour.green), channel(colour.blue))
}

/// A side's name, or its number when the level has no such side.
pub(super) fn side_name(sides: &Sides, side: usize) -> String {
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
mod menu_tests {
    use std::path::Path;

    use super::*;
    use crate::game::session::level_choices;

    #[test]
    fn ruleset_names_read_as_titles() {
        assert_eq!(ruleset_title("stress_and_wounds"), "Stress and Wounds");
        assert_eq!(ruleset_title("shock_and_cover"), "Shock and Cover");
        assert_eq!(ruleset_title("crucible"), "Crucible");
        assert_eq!(ruleset_title("the_long_night.ron"), "The Long Night");
    }

    #[test]
    fn the_menu_groups_every_built_in_level_by_ruleset() {
        let levels = level_choices(Path::new("/nonexistent"));
        let groups = levels_by_ruleset(&levels);
        let listed: usize = groups.iter().map(|(_, members)| members.len()).sum();
        assert_eq!(listed, levels.len());
        assert!(groups.iter().all(|(ruleset, _)| ruleset.is_some()), "every built-in level loads");
        let names: Vec<&str> = groups.iter().filter_map(|(ruleset, _)| *ruleset).collect();
        for ruleset in ["stress_and_wounds", "zones_and_tests", "shock_and_cover", "aimed_wounds", "crucible"] {
            assert!(names.contains(&ruleset), "{ruleset} is missing from {names:?}");
        }
        let facts = |title: &str| {
            let level = levels.iter().find(|level| level.title == title).expect("a built-in level");
            level_facts(level.template.as_ref().expect("it loaded"))
        };
        assert_eq!(facts("The Great Melee"), "stress_and_wounds · 8 zones · 32 vs 32");
        let grids = levels.iter().filter_map(|level| level.template.as_ref()).filter(|t| t.battlefield.is_grid());
        assert!(grids.map(level_facts).all(|facts| facts.contains(" · grid ") && facts.contains('×')));
    }
}
