//! Shared panel helpers: buttons tracked by label for scripted tests, side colours and names,
//! and the full-screen and docked areas panels are laid out in.

use crate::rules::glossary::{Glossary, Term};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use crate::game::board::SidePalette;
use crate::game::spine::UiSystems;

/// Errors and warnings.
pub(in crate::game) const ERROR_COLOUR: Color32 = Color32::from_rgb(235, 85, 75);
/// How much lighter side names are than the board's side colours.
const TEXT_LIGHTEN: f32 = 0.08;

/// Notes the buttons drawn each pass for the script driver, and keeps game keys off buttons.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ButtonRects>()
        .add_systems(EguiPrimaryContextPass, (drop_button_focus, note_button_rects).chain().in_set(UiSystems::Buttons))
        // Before any panel draws, so the panels' first frame has the palette in force.
        .add_systems(Update, share_palette);
}

/// A button whose place is noted under its label, so scripted real-window tests can click it
/// by name (see [`crate::game::script`]).
pub(crate) fn tracked_button(ui: &mut egui::Ui, label: &str) -> egui::Response {
    tracked(ui.button(label), label)
}

/// Notes where a widget was drawn, under `label`, for scripted clicks.
pub(crate) fn tracked(response: egui::Response, label: &str) -> egui::Response {
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

/// Docked panels drawn, by id: where, and in which pass.
#[derive(Clone, Debug, Default)]
struct TrackedDocks(std::collections::HashMap<String, (egui::Rect, u64)>);

/// Where egui keeps the docked panels between passes.
const TRACKED_DOCKS: &str = "fray_tracked_docks";

/// What the last pass drew where, in window coordinates (logical pixels), for the script driver:
/// the clickable part of each tracked button by label, and each docked panel.
#[derive(Resource, Debug, Default)]
pub struct ButtonRects {
    /// Each enabled tracked button's clickable part, by label.
    pub buttons: std::collections::HashMap<String, Rect>,
    /// The docked panels (the top bar and the side panels), which the board must keep clear of.
    pub docks: Vec<Rect>,
}

impl ButtonRects {
    /// The centre of the button with this label, if it was drawn.
    pub fn centre(&self, label: &str) -> Option<Vec2> {
        self.buttons.get(label).map(Rect::center)
    }
}

/// An egui rectangle in window pixels, `zoom` of them to the point.
fn in_pixels(rect: egui::Rect, zoom: f32) -> Rect {
    Rect::new(rect.min.x * zoom, rect.min.y * zoom, rect.max.x * zoom, rect.max.y * zoom)
}

/// Copies the buttons and panels drawn in this pass for the script driver.
fn note_button_rects(mut contexts: EguiContexts, mut rects: ResMut<ButtonRects>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let pass = ctx.cumulative_pass_nr();
    let tracked: TrackedButtons = ctx.data(|data| data.get_temp(egui::Id::new(TRACKED_BUTTONS))).unwrap_or_default();
    let docks: TrackedDocks = ctx.data(|data| data.get_temp(egui::Id::new(TRACKED_DOCKS))).unwrap_or_default();
    let zoom = ctx.zoom_factor();
    rects.buttons = tracked
        .0
        .into_iter()
        .filter(|(_, (_, drawn, enabled))| *drawn == pass && *enabled)
        .map(|(label, (rect, _, _))| (label, in_pixels(rect, zoom)))
        .collect();
    rects.docks =
        docks.0.into_values().filter(|(_, drawn)| *drawn == pass).map(|(rect, _)| in_pixels(rect, zoom)).collect();
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

/// Hovering `response` explains `term` as `ruleset` has it, where the glossary has words for it.
pub(crate) fn explained(response: egui::Response, term: Term, ruleset: &str) -> egui::Response {
    match Glossary::builtin().explain(term, ruleset) {
        Some(words) => response.on_hover_text(format!("{}: {words}", term.label())),
        None => response,
    }
}

/// Where the egui context keeps the side palette in force, for the panels' plain functions.
fn palette_id() -> egui::Id {
    egui::Id::new("fray_side_palette")
}

/// Copies the side palette into the egui context whenever the settings change it, where
/// [`side_colour`] reads it.
pub(crate) fn share_palette(palette: Res<SidePalette>, mut contexts: EguiContexts) -> Result {
    if palette.is_changed() {
        let palette = *palette;
        contexts.ctx_mut()?.data_mut(|data| data.insert_temp(palette_id(), palette));
    }
    Ok(())
}

/// The colour of a side in the palette in force in `ctx`.
pub(crate) fn side_colour(ctx: &egui::Context, side: usize) -> Color32 {
    let palette = ctx.data(|data| data.get_temp::<SidePalette>(palette_id())).unwrap_or_default();
    // The board's palette, lightened a little so names read well on the dark panels.
    let colour = palette.colour(side).to_srgba().lighter(TEXT_LIGHTEN);
    let channel = |value: f32| (value.clamp(0.0, 1.0) * f32::from(u8::MAX)).round() as u8;
    Color32::from_rgb(channel(colour.red), channel(colour.green), channel(colour.blue))
}

pub(crate) use crate::game::model::battle_read::side_name;

/// A full-screen background [`egui::Ui`] to lay panels out in.
pub(crate) fn screen_ui(ctx: &egui::Context, id: &str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(id),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.content_rect()),
    )
}

/// A panel docked at `rect`. It is an [`egui::Area`] rather than an [`egui::Panel`] because
/// egui counts the pointer as over egui only above areas and windows, and the board must not
/// take clicks meant for a panel.
pub(crate) fn dock<R>(
    ctx: &egui::Context,
    id: &str,
    rect: egui::Rect,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let shown = egui::Area::new(egui::Id::new(id))
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
        });
    let (drawn, pass) = (shown.response.rect, ctx.cumulative_pass_nr());
    ctx.data_mut(|data| {
        let docks: &mut TrackedDocks = data.get_temp_mut_or_default(egui::Id::new(TRACKED_DOCKS));
        docks.0.insert(id.to_string(), (drawn, pass));
    });
    shown.inner
}
