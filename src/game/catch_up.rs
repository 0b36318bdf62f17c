//! Hot-seat catch-up: when a player takes the seat again, a short summary of what happened
//! since their last turn, from their own side's view: what befell their units and what their
//! units did, never another side's declarations (secret or not yet resolved).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde_json::Value;

use super::model::battle_ui::BattleUi;
use super::model::screen::Screen;
use super::model::session::{BattleStarted, Session};
use crate::rules::components::{SideIndex, UnitId};
use crate::rules::log::{CombatLog, LogEntry, LogEvent};
use crate::rules::log_text::{self, Names};

/// The most lines a catch-up shows (the latest ones): a summary, not the whole log.
pub const CATCH_UP_LINES: usize = 12;

/// The catch-up of the player who just took the seat, and where each side last left it.
#[derive(Resource, Debug, Default)]
pub struct CatchUp {
    /// Log length when each side last gave up the seat (by side index).
    left_at: Vec<Option<usize>>,
    /// The side whose seat it was last frame.
    seated: Option<usize>,
    /// The side the summary is for, and its lines; `None` once dismissed.
    pub summary: Option<(usize, Vec<String>)>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CatchUp>().add_systems(
        Update,
        (forget_on_new_battle, follow_the_seat).chain().in_set(super::spine::GameSystems::Answers),
    );
}

/// The window's part: the summary over the board until dismissed.
pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_catch_up.run_if(in_state(Screen::Battle)));
}

fn forget_on_new_battle(mut started: MessageReader<BattleStarted>, mut catch_up: ResMut<CatchUp>) {
    if started.read().count() > 0 {
        *catch_up = CatchUp::default();
    }
}

/// When the seat passes in hot-seat play: notes where the last player left, and sums up for
/// the new one what happened since they last left.
fn follow_the_seat(
    ui: Res<BattleUi>,
    session: Res<Session>,
    log: Res<CombatLog>,
    units: Query<(&UnitId, &SideIndex)>,
    mut catch_up: ResMut<CatchUp>,
) {
    if session.humans() < 2 || ui.seated == catch_up.seated {
        return;
    }
    let now = log.entries().len();
    if let Some(left) = catch_up.seated {
        set_left_at(&mut catch_up.left_at, left, now);
    }
    catch_up.seated = ui.seated;
    let Some(side) = ui.seated else {
        return;
    };
    let Some(since) = catch_up.left_at.get(side).copied().flatten() else {
        // A first turn has nothing to catch up on.
        return;
    };
    let own: Vec<&str> = units.iter().filter(|(_, unit_side)| unit_side.0 == side).map(|(id, _)| &*id.0).collect();
    let lines = summary(log.entries(), since, &own);
    catch_up.summary = (!lines.is_empty()).then_some((side, lines));
}

fn set_left_at(left_at: &mut Vec<Option<usize>>, side: usize, at: usize) {
    if left_at.len() <= side {
        left_at.resize(side + 1, None);
    }
    left_at[side] = Some(at);
}

/// The lines since `since` that a side with units `own` may read: round starts, and events
/// naming one of its units, but no declarations (its own it knows; others' are not its to see).
/// Nothing at all when nothing befell the side (round starts alone are no news).
pub fn summary(entries: &[LogEntry], since: usize, own: &[&str]) -> Vec<String> {
    let names = Names::from_log(entries);
    let chosen: Vec<&LogEntry> = entries
        .iter()
        .skip(since)
        .filter(|entry| match entry.event {
            LogEvent::RoundStarted {} => true,
            LogEvent::Declared(_) => false,
            _ => mentions(entry, own),
        })
        .collect();
    if chosen.iter().all(|entry| matches!(entry.event, LogEvent::RoundStarted {})) {
        return Vec::new();
    }
    let shown: Vec<String> = chosen.into_iter().map(|entry| log_text::describe(entry, &names)).collect();
    let skip = shown.len().saturating_sub(CATCH_UP_LINES);
    shown.into_iter().skip(skip).collect()
}

/// Whether the event names one of these units anywhere in its fields.
fn mentions(entry: &LogEntry, units: &[&str]) -> bool {
    fn walk(value: &Value, units: &[&str]) -> bool {
        match value {
            Value::String(text) => units.contains(&text.as_str()),
            Value::Array(items) => items.iter().any(|item| walk(item, units)),
            Value::Object(fields) => fields.values().any(|field| walk(field, units)),
            _ => false,
        }
    }
    serde_json::from_str::<Value>(&entry.to_json()).is_ok_and(|value| walk(&value, units))
}

/// The summary in a window over the board, until the player dismisses it.
fn draw_catch_up(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    sides: Res<crate::rules::Sides>,
    mut catch_up: ResMut<CatchUp>,
) -> Result {
    // Behind the curtain nothing of the battle shows.
    if ui_state.curtain.is_some() {
        return Ok(());
    }
    let Some((side, lines)) = &catch_up.summary else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut dismissed = false;
    egui::Window::new("Since your last turn")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            let name = super::ui::widgets::side_name(&sides, *side);
            ui.label(
                egui::RichText::new(format!("What {name} saw happen"))
                    .color(super::ui::widgets::side_colour(ui.ctx(), *side)),
            );
            for line in lines {
                ui.label(line);
            }
            dismissed = super::ui::widgets::tracked_button(ui, "Got it").clicked();
        });
    if dismissed {
        catch_up.summary = None;
    }
    Ok(())
}
