//! The battle's panels: the top bar, the initiative track on the left, and the unit card and
//! declaration panel on the right.

mod declaration;
mod unit_card;

use std::collections::HashMap;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::widgets::{dock, side_colour, tracked, tracked_button};
use super::{ERROR_COLOUR, SECTION_SPACING, UiSystems};
use crate::game::model::battle_read::BattleRead;
use crate::game::model::battle_ui::DeclarationOptions;
use crate::game::model::battle_ui::{BattleUi, UiCommand};
use crate::game::model::pace::{Pace, Speed};
use crate::game::model::playing_count::PlayingCount;
use crate::game::model::screen::Screen;
use crate::game::model::screen::{LEFT_PANEL_WIDTH, RIGHT_PANEL_WIDTH, top_bar_has_two_rows, top_bar_height};
use crate::game::model::session::Session;
use crate::game::turn_flow::{Announcement, declaring_order_words};
use crate::rules::CombatPhase;
use crate::rules::components::{Action, Status};
use crate::rules::gear_text;
use crate::rules::ruleset::InitiativeOrder;
use crate::rules::unit::UnitView;
use declaration::{declaration_footer, declaration_panel};
use unit_card::unit_card;

/// Draws the top bar and side panels during a battle, and lets the status line fade.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_battle_panels.run_if(in_state(Screen::Battle)).in_set(UiSystems::Panels),
    )
    .add_systems(Update, expire_status.run_if(in_state(Screen::Battle)));
}

/// How long the status line ("Saved to ...") shows, in seconds of real time.
const STATUS_SECONDS: f64 = 6.0;

/// Clears the status line once it has shown for [`STATUS_SECONDS`] unchanged.
fn expire_status(time: Res<Time<Real>>, mut ui: ResMut<BattleUi>, mut shown: Local<Option<(String, f64)>>) {
    let now = time.elapsed_secs_f64();
    let Some(status) = &ui.status else {
        *shown = None;
        return;
    };
    match &*shown {
        Some((text, since)) if text == status => {
            if now - since >= STATUS_SECONDS {
                ui.status = None;
                *shown = None;
            }
        }
        _ => *shown = Some((status.clone(), now)),
    }
}

/// What the battle panels read.
#[derive(SystemParam)]
struct BattleView<'w, 's> {
    session: Res<'w, Session>,
    /// The battle, read-only, with its naming helpers.
    battle: BattleRead<'w, 's>,
    options: Res<'w, DeclarationOptions>,
    ui: Res<'w, BattleUi>,
    pace: Res<'w, Pace>,
    /// Present while a replay plays back: nothing can be saved, undone or restarted in it.
    playback: Option<Res<'w, crate::game::model::playback::Playback>>,
    /// A search AI planning in the background, if one is.
    thinking: Option<Res<'w, crate::ai::SearchInFlight>>,
    /// Present while the battle follows a referee online: the other sides are other players.
    online: Option<Res<'w, crate::net::Follower>>,
    /// The count being played out on the board.
    playing: Res<'w, PlayingCount>,
    /// The banner of the round that just began.
    announcement: Res<'w, Announcement>,
    /// The level's own settings (its declaration order).
    info: Res<'w, crate::rules::CombatInfo>,
    /// Units within a foe's reach.
    threatened: Query<'w, 's, (), With<crate::rules::components::Threatened>>,
}

impl BattleView<'_, '_> {
    /// Whether `side`'s declared actions may show: in secret declaration nobody learns another
    /// side's choices before everyone has declared.
    fn declarations_visible(&self, side: usize) -> bool {
        !(self.battle.state.phase == CombatPhase::Declare && self.battle.queue.secret) || self.ui.seated == Some(side)
    }

    /// Where a unit stands, in words: `in the ford`, or `at (3, 4)` on a grid.
    fn whereabouts(&self, zone: crate::battlefield::ZoneIdx) -> String {
        let preposition = if self.battle.battlefield.is_grid() { "at" } else { "in" };
        format!("{preposition} {}", self.battle.zone_name(zone))
    }

    /// Whether units take turns in an order rolled for the round, declaring when their turn comes.
    fn turn_based(&self) -> bool {
        self.battle.ruleset.turns.order.on_turn()
    }

    /// A declared action of `actor` in words (`cast frost ray on Wren, moving to ford`).
    fn action_text(&self, actor: &UnitView, action: &Action) -> String {
        gear_text::declared_sentence(
            action,
            actor.magic.spells,
            actor.arms.inventory,
            |unit| self.battle.unit_name(unit),
            |zone| self.battle.zone_name(zone).to_string(),
        )
    }
}

/// The top bar and the two side panels.
fn draw_battle_panels(mut contexts: EguiContexts, view: BattleView, mut commands: MessageWriter<UiCommand>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let mut out = Vec::new();
    let top = egui::Rect::from_min_size(screen.min, egui::vec2(screen.width(), top_bar_height(screen.width())));
    let below = screen.height() - top.height();
    // Online, the online panel takes the bottom of the left column.
    let online = if view.online.is_some() { crate::game::model::screen::ONLINE_PANEL_HEIGHT } else { 0.0 };
    let left = egui::Rect::from_min_size(
        egui::pos2(screen.left(), top.bottom()),
        egui::vec2(LEFT_PANEL_WIDTH, (below - online).max(0.0)),
    );
    let right = egui::Rect::from_min_size(
        egui::pos2(screen.right() - RIGHT_PANEL_WIDTH, top.bottom()),
        egui::vec2(RIGHT_PANEL_WIDTH, below),
    );
    dock(ctx, "top_bar", top, |ui| top_bar(ui, &view, &mut out));
    dock(ctx, "initiative", left, |ui| initiative_panel(ui, &view, &mut out));
    dock(ctx, "unit_panel", right, |ui| right_panel(ui, &view, &mut out));
    if view.ui.curtain.is_none() {
        board_banner(ctx, &view, screen);
    }
    if let Some(status) = &view.ui.status {
        // What the last save, load or undo did, under the board where it covers nothing.
        egui::Area::new(egui::Id::new("status")).anchor(egui::Align2::CENTER_BOTTOM, STATUS_OFFSET).show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(status));
        });
    }
    commands.write_batch(out);
    Ok(())
}

/// The most slots of one count the banner names; the rest are counted.
const MOST_BANNER_SLOTS: usize = 3;
/// The banner's least width, in points: a short line does not squeeze it.
const BANNER_MIN_WIDTH: f32 = 320.0;
/// The banner's greatest width, in points: longer lines wrap.
const BANNER_MAX_WIDTH: f32 = 480.0;
/// Gap between the top bar and the banner under it, in points.
const BANNER_GAP: f32 = 10.0;

/// Over the top of the board: the round's banner as it begins, then the count being played out
/// (who acts, doing what, and whether others act at the same count).
fn board_banner(ctx: &egui::Context, view: &BattleView, screen: egui::Rect) {
    // One heading: the round as it begins, then the count being played out; and their lines.
    let mut titles = Vec::new();
    let mut lines = Vec::new();
    if view.announcement.showing() {
        titles.push(view.announcement.title.clone());
        lines.extend(view.announcement.lines.iter().cloned());
    }
    if view.playing.playing() {
        let (title, slots) = count_words(view);
        titles.push(title);
        lines.extend(slots);
    }
    if titles.is_empty() {
        return;
    }
    let (left, right) = (screen.left() + LEFT_PANEL_WIDTH, screen.right() - RIGHT_PANEL_WIDTH);
    // Within the board's part of the window, never over the panels.
    let width = (right - left - 2.0 * BANNER_GAP).clamp(0.0, BANNER_MAX_WIDTH);
    let at = egui::pos2((left + right) / 2.0, screen.top() + top_bar_height(screen.width()) + BANNER_GAP);
    egui::Area::new(egui::Id::new("board_banner"))
        .fixed_pos(at)
        .pivot(egui::Align2::CENTER_TOP)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_min_width(width.min(BANNER_MIN_WIDTH));
                ui.set_max_width(width);
                ui.vertical_centered(|ui| {
                    ui.label(RichText::new(titles.join(" · ")).strong());
                    for line in lines {
                        ui.label(RichText::new(line).small());
                    }
                });
            });
        });
}

/// The count being played out in words: its heading, and each slot's unit and action.
fn count_words(view: &BattleView) -> (String, Vec<String>) {
    let playing = &*view.playing;
    let count = playing.count.map_or_else(String::new, |count| format!(" {count}"));
    let mut title = if view.turn_based() { format!("Turn{count}") } else { format!("Initiative count{count}") };
    if playing.slots.len() > 1 {
        title = format!("{title} · {} at once", playing.slots.len());
    }
    let mut lines: Vec<String> = playing
        .slots
        .iter()
        .take(MOST_BANNER_SLOTS)
        .filter_map(|slot| {
            let actor = view.battle.units.get(slot.unit).ok()?;
            Some(format!("{}: {}", actor.standing.name.as_str(), view.action_text(&actor, &slot.action)))
        })
        .collect();
    if let Some(more) = playing.slots.len().checked_sub(MOST_BANNER_SLOTS).filter(|more| *more > 0) {
        lines.push(format!("and {more} more"));
    }
    if playing.slots.len() > 1 && !view.turn_based() {
        lines.push("Simultaneous: their blows land together.".to_string());
    }
    (title, lines)
}

/// Where the status line sits: above the bottom edge, in points.
const STATUS_OFFSET: [f32; 2] = [0.0, -12.0];

/// Largest share of the top bar's room for words that the level's name takes.
const LEVEL_NAME_SHARE: f32 = 0.35;

/// Level, round, stage, who declares, and the Log/Help/Undo/Save/Restart/Menu buttons; in a
/// narrow window (a large UI scale) the round, stage and who declares take a second row.
fn top_bar(ui: &mut egui::Ui, view: &BattleView, out: &mut Vec<UiCommand>) {
    let two_rows = top_bar_has_two_rows(ui.ctx().content_rect().width());
    // The buttons first, from the right, so they always have their room; the battle's state
    // takes what is left and is cut short rather than run under them.
    let row_height = ui.available_height() / if two_rows { 2.0 } else { 1.0 };
    ui.allocate_ui_with_layout(
        egui::vec2(ui.available_width(), row_height),
        egui::Layout::right_to_left(egui::Align::Center),
        |ui| {
            // Right to left: the last button added sits leftmost.
            let buttons = [
                ("Quit", UiCommand::Quit),
                ("Menu", UiCommand::BackToMenu),
                ("Restart", UiCommand::Restart),
                ("Save", UiCommand::Save),
                ("Undo", UiCommand::Undo),
                ("Help", UiCommand::ToggleHelp),
            ];
            let live_only =
                |command: &UiCommand| matches!(command, UiCommand::Restart | UiCommand::Save | UiCommand::Undo);
            // A replay is watched, and an online battle's record is the referee's: neither is
            // restarted, saved or undone from here.
            let own_battle = view.playback.is_none() && view.online.is_none();
            for (label, command) in buttons.into_iter().filter(|(_, command)| own_battle || !live_only(command)) {
                if tracked_button(ui, label).clicked() {
                    out.push(command);
                }
            }
            if tracked(ui.selectable_label(view.ui.show_log, "Log"), "Log").clicked() {
                out.push(UiCommand::ToggleLog);
            }
            // A replay's seats are the recorded battle's; online, each player holds their own.
            if own_battle
                && tracked_button(ui, "Seats").on_hover_text("Hand a side to the AI, or take it back").clicked()
            {
                out.push(UiCommand::ToggleSeats);
            }
            ui.separator();
            speed_buttons(ui, view, out);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.set_clip_rect(ui.max_rect().intersect(ui.clip_rect()));
                let level = view.session.current.as_ref().map_or("—", |template| template.level_name.as_str());
                // A long level name gives way first (its whole name shows on hover), so the round
                // and the turn keep their room.
                let name_room = ui.available_width() * if two_rows { 1.0 } else { LEVEL_NAME_SHARE };
                ui.scope(|ui| {
                    ui.set_max_width(name_room);
                    ui.add(egui::Label::new(RichText::new(level).strong()).truncate());
                });
                if !two_rows {
                    ui.separator();
                    battle_state(ui, view);
                }
            });
        },
    );
    if two_rows {
        ui.allocate_ui_with_layout(
            egui::vec2(ui.available_width(), row_height),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| battle_state(ui, view),
        );
    }
}

/// The round and turn, the stage, and who is declaring (or who the battle waits for).
fn battle_state(ui: &mut egui::Ui, view: &BattleView) {
    let round = match current_turn(view) {
        Some(turn) => format!("Round {} · Turn {turn}", view.battle.state.round),
        None => format!("Round {}", view.battle.state.round),
    };
    ui.add(egui::Label::new(round).wrap_mode(egui::TextWrapMode::Extend));
    ui.separator();
    ui.label(phase_label(view.battle.state.phase));
    if let Some(unit) = view.options.unit
        && let Ok(declarer) = view.battle.units.get(unit)
    {
        ui.separator();
        ui.label("Declaring:").on_hover_text(declaring_order_words(&view.battle.ruleset, &view.info));
        ui.label(
            RichText::new(declarer.standing.name.as_str())
                .strong()
                .color(side_colour(ui.ctx(), declarer.standing.side.0)),
        );
        ui.label(
            RichText::new(format!("({})", view.battle.side_name(declarer.standing.side.0)))
                .color(side_colour(ui.ctx(), declarer.standing.side.0)),
        );
    } else if view.thinking.as_ref().is_some_and(|search| search.thinking()) {
        ui.separator();
        ui.add(egui::Spinner::new());
        ui.label(RichText::new("the AI is thinking").weak());
    } else if view.battle.state.phase == CombatPhase::Declare && view.battle.queue.open && view.online.is_some() {
        ui.separator();
        ui.label(RichText::new("waiting for the other players (see Online)").weak());
    } else if view.battle.state.phase == CombatPhase::Declare && view.battle.queue.open {
        ui.separator();
        ui.label(RichText::new("the AI is declaring").weak());
    }
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
        .on_hover_text("Play on by one initiative count, or start the next round")
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
    if !view.turn_based() || !matches!(view.battle.state.phase, CombatPhase::Declare | CombatPhase::Resolve) {
        return None;
    }
    // The cursor moves past a turn once its declarations close and it goes to resolution.
    let at = if view.battle.queue.open {
        view.battle.state.turn_cursor
    } else {
        view.battle.state.turn_cursor.checked_sub(1)?
    };
    view.battle.state.turns.get(at).map(|(count, _)| *count)
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
    let acted: std::collections::HashSet<Entity> = view.battle.state.schedule
        [..view.battle.state.cursor.min(view.battle.state.schedule.len())]
        .iter()
        .map(|slot| slot.unit)
        .collect();
    let mut track: Vec<TrackEntry> = view
        .battle
        .units
        .iter()
        .filter(|unit| *unit.standing.status != Status::Reserve)
        .map(|unit| TrackEntry { acted: acted.contains(&unit.entity), view: unit })
        .collect();
    // Turn counts run 1, 2, 3… whichever way the ruleset's initiative count runs.
    let order = if view.turn_based() { InitiativeOrder::LowestFirst } else { view.battle.ruleset.initiative.order };
    track.sort_by_key(|entry| track_key(&entry.view, order));
    let scroll = egui::ScrollArea::vertical().id_salt("initiative_track").auto_shrink([false, false]);
    scroll.show_viewport(ui, |ui, viewport| {
        // The content's top, from which the viewport is measured.
        let origin = ui.max_rect().top();
        let heights_id = ui.id().with("entry_heights");
        let mut heights: HashMap<Entity, f32> = ui.data_mut(|data| data.get_temp(heights_id)).unwrap_or_default();
        let mut rest = track.as_slice();
        while let Some(first) = rest.first() {
            let together = match first.view.round.initiative.round {
                Some(round) => rest.iter().take_while(|entry| entry.view.round.initiative.round == Some(round)).count(),
                None => 1,
            };
            let (group, tail) = rest.split_at(together);
            rest = tail;
            // An entry out of view, once measured, only keeps its room: laying out every line of
            // a thousand-unit track each frame took a sixth of the siege's frame.
            let top = ui.cursor().top();
            let key = first.view.entity;
            if let Some(&height) = heights.get(&key) {
                let (from, to) = (top - origin, top - origin + height);
                if to < viewport.min.y || from > viewport.max.y {
                    ui.add_space(height);
                    continue;
                }
            }
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
            heights.insert(key, ui.cursor().top() - top);
        }
        ui.data_mut(|data| data.insert_temp(heights_id, heights));
    });
}

/// Sort key on the track: known Round Initiatives first, in count order, then by Base
/// Initiative, then level order.
fn track_key(unit: &UnitView, order: InitiativeOrder) -> (bool, i32, u32) {
    let value = unit.round.initiative.round.or(unit.round.initiative.base);
    let in_count_order = match (value, order) {
        (Some(value), InitiativeOrder::LowestFirst) => value,
        (Some(value), InitiativeOrder::HighestFirst) => -value,
        // Not rolled yet: after everyone who has.
        (None, _) => i32::MAX,
    };
    (unit.round.initiative.round.is_none(), in_count_order, unit.standing.order.0)
}

/// One unit's line on the track; a click inspects (or targets) it.
fn track_row(ui: &mut egui::Ui, view: &BattleView, entry: &TrackEntry, out: &mut Vec<UiCommand>) {
    let unit = &entry.view;
    let colour = side_colour(ui.ctx(), unit.standing.side.0);
    let acting = view.playing.playing() && view.playing.slots.iter().any(|slot| slot.unit == unit.entity);
    ui.horizontal_wrapped(|ui| {
        let mark = if acting {
            "▶"
        } else if entry.acted {
            "✔"
        } else {
            "•"
        };
        ui.label(RichText::new(mark).color(colour));
        let name = RichText::new(unit.standing.name.as_str()).color(colour).strong();
        if ui.selectable_label(view.ui.selected == Some(unit.entity), name).clicked() {
            out.push(UiCommand::Select(unit.entity));
        }
        ui.label(RichText::new(view.battle.side_name(unit.standing.side.0)).small().color(colour));
    });
    ui.horizontal_wrapped(|ui| {
        if view.turn_based() {
            // The turn counts are rolled before anyone declares, so they give nothing away.
            let turn = unit.round.initiative.round.map_or("—".to_string(), |turn| turn.to_string());
            let mut text = format!("Turn {turn}");
            if let Some(base) = unit.round.initiative.base {
                text = format!("{text} · Base {base}");
            }
            ui.label(RichText::new(text).small());
            let declaring = view.battle.state.phase == CombatPhase::Declare
                && view.battle.queue.open
                && view.battle.queue.order.contains(&unit.entity);
            if declaring {
                ui.label(RichText::new("turn now").small().strong());
            }
        } else {
            let base = unit.round.initiative.base.map_or("—".to_string(), |base| base.to_string());
            // Round Initiative is only set once declarations have closed, so it never gives a
            // secret declaration away.
            let round = unit.round.initiative.round.map_or("—".to_string(), |round| round.to_string());
            ui.label(RichText::new(format!("Base {base} · Round {round}")).small());
        }
        if acting {
            ui.label(RichText::new("acting now").small().strong());
        } else if entry.acted {
            ui.label(RichText::new("acted").small().weak());
        }
        if unit.round.surprised {
            ui.label(RichText::new("surprised").small().color(ERROR_COLOUR));
        }
        if *unit.standing.status != Status::Active {
            ui.label(RichText::new(unit.standing.status.log_name()).small().color(ERROR_COLOUR));
        }
    });
    if let Some(action) = unit.round.declared.action {
        let text = if view.declarations_visible(unit.standing.side.0) {
            format!("declared: {}", view.action_text(unit, &action))
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
    // The declaration's buttons keep their place at the foot of the panel, and the rest scrolls
    // in the room above them: the footer's height, as drawn last frame, is kept free.
    let footer_id = ui.id().with("declaration_footer_height");
    let footer = if view.options.unit.is_some() {
        ui.data(|data| data.get_temp::<f32>(footer_id)).unwrap_or(FOOTER_GUESS)
    } else {
        0.0
    };
    let room = (ui.available_height() - footer).max(0.0);
    egui::ScrollArea::vertical().id_salt("unit_panel_scroll").auto_shrink([false, false]).max_height(room).show(
        ui,
        |ui| {
            if view.options.unit.is_some() {
                declaration_panel(ui, view, out);
                ui.separator();
            }
            unit_card(ui, view);
        },
    );
    let top = ui.cursor().top();
    declaration_footer(ui, view, out);
    let drawn = ui.cursor().top() - top;
    ui.data_mut(|data| data.insert_temp(footer_id, drawn));
}

/// The declaration footer's height before it has been drawn once, in points.
const FOOTER_GUESS: f32 = 90.0;

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn the_status_line_goes_away_after_a_few_seconds_unless_it_changes() {
        let start = Instant::now();
        let mut world = World::new();
        world.insert_resource(Time::<Real>::new(start));
        world.insert_resource(BattleUi { status: Some("Saved to a.ron".into()), ..default() });
        let expire = world.register_system(expire_status);
        let at = |world: &mut World, seconds: f64| {
            world.resource_mut::<Time<Real>>().update_with_instant(start + Duration::from_secs_f64(seconds));
            world.run_system(expire).expect("the system runs");
        };
        at(&mut world, 1.0);
        at(&mut world, 1.0 + STATUS_SECONDS / 2.0);
        world.resource_mut::<BattleUi>().status = Some("Saved to b.ron".into());
        at(&mut world, 1.0 + STATUS_SECONDS);
        assert_eq!(world.resource::<BattleUi>().status.as_deref(), Some("Saved to b.ron"), "a new status starts over");
        at(&mut world, 2.0 + STATUS_SECONDS * 2.0);
        assert_eq!(world.resource::<BattleUi>().status, None);
    }
}
