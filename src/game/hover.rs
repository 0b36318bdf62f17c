//! Hover cards: pointing at a token shows its unit's whole name, Stress and Wounds, status and
//! conditions, and its declared action where the rules let this player see it; pointing at a
//! zone or grid square shows its name, its ground and hazards, who stands there and, on a grid,
//! who can see it and with what cover.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::board::{Hovered, HoveredZone};
use super::model::battle_ui::{BattleUi, OptionEntry};
use super::model::board::GRID_TILE;
use super::model::screen::Screen;
use super::ui::widgets::{side_colour, side_name};
use crate::battlefield::{Cover, Square, Terrain, ZoneIdx};
use crate::game::model::battle_read::BattleRead;
use crate::rules::CombatPhase;
use crate::rules::components::Status;
use crate::rules::forecast::{Forecast, Outcome, Pool};
use crate::rules::gear_text;
use crate::rules::unit::UnitView;

/// How far from the pointer a card opens, in points, so it never sits under the pointer.
const CARD_OFFSET: egui::Vec2 = egui::vec2(18.0, 18.0);
/// Width of a card's Stress and Wound bars, in points.
const CARD_BAR_WIDTH: f32 = 170.0;
/// Most units listed by name on a card; the rest are counted.
const MOST_LISTED: usize = 8;
/// Stress bar fill (as the unit card's).
const STRESS_COLOUR: Color32 = Color32::from_rgb(200, 160, 60);
/// Wound Points bar fill (as the unit card's).
const WOUNDS_COLOUR: Color32 = Color32::from_rgb(180, 60, 60);
/// Bad news on a card (down, dying, hazards).
const WARNING_COLOUR: Color32 = Color32::from_rgb(235, 120, 80);
/// Good news on a card (healing).
const HEAL_COLOUR: Color32 = Color32::from_rgb(120, 200, 120);
/// Quiet details.
const DETAIL_COLOUR: Color32 = Color32::from_rgb(170, 170, 160);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_hover_card.run_if(in_state(Screen::Battle)));
}

/// Whether a unit of `side` may show its declared action now: in secret declaration nobody sees
/// another side's choice until everyone has declared (the panels' rule, for the hover card).
pub fn declaration_visible(phase: CombatPhase, secret: bool, seated: Option<usize>, side: usize) -> bool {
    !(phase == CombatPhase::Declare && secret) || seated == Some(side)
}

/// A cover in words, as seen from a viewer.
fn cover_words(cover: Cover) -> &'static str {
    match cover {
        Cover::None => "in the open",
        Cover::Half => "half cover",
        Cover::Full => "full cover",
    }
}

/// What the hover card reads.
#[derive(SystemParam)]
struct HoverView<'w, 's> {
    hovered: Res<'w, Hovered>,
    hovered_zone: Res<'w, HoveredZone>,
    ui: Res<'w, BattleUi>,
    /// The battle, read-only, with its naming helpers.
    battle: BattleRead<'w, 's>,
    window: Option<Single<'w, 's, &'static Window>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<super::camera::BoardCamera>>,
    options: Res<'w, super::model::battle_ui::DeclarationOptions>,
    /// How each zone or square looks, to name its ground.
    looks: Option<Res<'w, crate::levels::terrain::BoardLooks>>,
}

impl HoverView<'_, '_> {
    /// The grid square under the pointer, walls included (a wall has no zone to hover).
    fn square_under_pointer(&self) -> Option<Square> {
        let grid = self.battle.battlefield.grid()?;
        let pointer = self.window.as_ref()?.cursor_position()?;
        let (camera, transform) = self.cameras.iter().next()?;
        let world = camera.viewport_to_world_2d(transform, pointer).ok()?;
        let square = Square::new((world.x / GRID_TILE).round() as i32, (-world.y / GRID_TILE).round() as i32);
        grid.contains(square).then_some(square)
    }
}

/// The card for whatever the pointer is over on the board, next to the pointer.
fn draw_hover_card(mut contexts: EguiContexts, view: HoverView) -> Result {
    // Behind the hot-seat curtain the board is nobody's to read.
    if view.ui.curtain.is_some() {
        return Ok(());
    }
    let unit = view.hovered.0.and_then(|unit| view.battle.units.get(unit).ok());
    let wall = if view.hovered_zone.0.is_none() && unit.is_none() { view.square_under_pointer() } else { None };
    if unit.is_none() && view.hovered_zone.0.is_none() && wall.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Over a panel the board hovers nothing: no card for what lies behind it.
    let Some(pointer) = ctx.pointer_hover_pos().filter(|_| !ctx.is_pointer_over_egui()) else {
        return Ok(());
    };
    egui::Area::new(egui::Id::new("board_hover_card"))
        .order(egui::Order::Tooltip)
        .fixed_pos(pointer + CARD_OFFSET)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| match (&unit, view.hovered_zone.0, wall) {
                (Some(unit), ..) => unit_card(ui, &view, unit),
                (None, Some(zone), _) => zone_card(ui, &view, zone),
                (None, None, Some(square)) => wall_card(ui, &view, square),
                (None, None, None) => {}
            });
        });
    Ok(())
}

/// A unit's card: who, how hurt, what state, what it means to do.
fn unit_card(ui: &mut egui::Ui, view: &HoverView, unit: &UnitView) {
    let side = unit.standing.side.0;
    ui.label(RichText::new(unit.standing.name.as_str()).strong().color(side_colour(ui.ctx(), side)));
    ui.label(
        RichText::new(format!("{} · {}", unit.standing.id.0, side_name(&view.battle.sides, side)))
            .small()
            .color(DETAIL_COLOUR),
    );
    let preposition = if view.battle.battlefield.is_grid() { "at" } else { "in" };
    let status = RichText::new(format!(
        "{} {preposition} {}",
        unit.standing.status.log_name(),
        view.battle.zone_name(unit.standing.zone.0)
    ));
    ui.label(if *unit.standing.status == Status::Active { status } else { status.color(WARNING_COLOUR) });
    let bar = |ui: &mut egui::Ui, label: &str, current: i32, max: i32, colour: Color32| {
        let share = if max > 0 { (current as f32 / max as f32).clamp(0.0, 1.0) } else { 0.0 };
        let text = format!("{label} {current}/{max}");
        ui.add(egui::ProgressBar::new(share).desired_width(CARD_BAR_WIDTH).fill(colour).text(text));
    };
    // Rulesets without Stress give every unit a pool of 0.
    if unit.body.stress.max > 0 {
        bar(ui, "Stress", unit.body.stress.current, unit.body.stress.max, STRESS_COLOUR);
    }
    bar(ui, "Wounds", unit.body.wounds.current, unit.body.wounds.max, WOUNDS_COLOUR);
    let mut conditions =
        unit.round.conditions.names().into_iter().map(|name| name.replace('_', " ")).collect::<Vec<_>>();
    if unit.round.surprised {
        conditions.insert(0, "surprised".into());
    }
    if !conditions.is_empty() {
        ui.label(RichText::new(conditions.join(", ")).color(WARNING_COLOUR));
    }
    if let Some(action) = unit.round.declared.action {
        let text = if declaration_visible(view.battle.state.phase, view.battle.queue.secret, view.ui.seated, side) {
            let words = gear_text::declared_sentence(
                &action,
                unit.magic.spells,
                unit.arms.inventory,
                |unit| view.battle.unit_name(unit),
                |zone| view.battle.zone_name(zone).to_string(),
            );
            format!("declared: {words}")
        } else {
            "declared (secret)".to_string()
        };
        ui.label(RichText::new(text).italics());
    }
    forecast(ui, view, unit);
}

/// A percentage from a share.
const PERCENT: f64 = 100.0;

/// While a unit declares with a kind chosen: what each of its options at the hovered unit
/// would do to it, read off the exact odds the declaration panel shows.
fn forecast(ui: &mut egui::Ui, view: &HoverView, target: &UnitView) {
    let Some((kind, options)) = view.ui.draft.kind.and_then(|kind| view.options.kinds.get(kind)) else {
        return;
    };
    let mut at_target: Vec<(usize, &OptionEntry)> =
        options.iter().enumerate().filter(|(_, option)| option.action.target == Some(target.entity)).collect();
    // The option drafted speaks for itself; else acting from where the unit stands comes
    // first. Many places to act from (every square on a grid) would each repeat the forecast.
    at_target.sort_by_key(|(at, option)| (Some(*at) != view.ui.draft.option, option.action.move_to.is_some()));
    let Some((_, first)) = at_target.first() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(format!("Your {}", kind.to_lowercase())).strong());
    if first.action.move_to.is_some() || at_target.len() > 1 {
        ui.label(RichText::new(&first.label).small().color(DETAIL_COLOUR));
    }
    option_forecast(ui, target, first);
    let others = at_target.len() - 1;
    if others > 0 {
        let places = if others == 1 { "place" } else { "places" };
        let words = format!("or from {others} other {places}: choose one in the panel to see its odds");
        ui.label(RichText::new(words).small().color(DETAIL_COLOUR));
    }
}

/// What one option at `target` would do: a spell's, item's or manoeuvre's forecast, an attack's
/// odds, or when it acts.
fn option_forecast(ui: &mut egui::Ui, target: &UnitView, option: &OptionEntry) {
    if let Some(forecast) = &option.forecast {
        forecast_lines(ui, target, forecast);
        return;
    }
    let Some(odds) = &option.odds else {
        ui.label(RichText::new(format!("acts at initiative {}", option.initiative)).small());
        return;
    };
    ui.label(format!(
        "hit {:.0}% · damage {}–{} · critical {:.0}%",
        odds.hit * PERCENT,
        odds.damage_min,
        odds.damage_max,
        odds.critical * PERCENT
    ));
    ui.label(RichText::new(fall_words(target, odds.damage_min, odds.damage_max)).color(WARNING_COLOUR));
}

/// A spell's, item's or manoeuvre's forecast: its chance, what it does, and for damage what
/// that means for the target's Stress and Wounds.
fn forecast_lines(ui: &mut egui::Ui, target: &UnitView, forecast: &Forecast) {
    ui.label(format!("{} · {}", forecast.chance_words(), forecast.outcome_words()));
    match forecast.outcome {
        Outcome::Damage { least, most } => {
            ui.label(RichText::new(fall_words(target, least, most)).color(WARNING_COLOUR));
        }
        Outcome::Restore { pool, least, most } if most > 0 => {
            ui.label(RichText::new(restore_words(target, pool, least, most)).color(HEAL_COLOUR));
        }
        _ => {}
    }
    if let Some(caveat) = forecast.caveat {
        ui.label(RichText::new(caveat).small().color(DETAIL_COLOUR));
    }
}

/// Where healing of `least` to `most` takes `target`'s pool, and whether it gets it back up.
fn restore_words(target: &UnitView, pool: Pool, least: i32, most: i32) -> String {
    let (name, current, max) = match pool {
        Pool::Stress => ("Stress", target.body.stress.current, target.body.stress.max),
        Pool::Wounds => ("Wounds", target.body.wounds.current, target.body.wounds.max),
    };
    let (low, high) = (current + least, current + most);
    let range = if low == high { format!("{low}") } else { format!("{low}–{high}") };
    let rises = match pool {
        Pool::Wounds if current <= 0 && low > 0 => ": it is back on its feet",
        Pool::Wounds if current <= 0 && high > 0 => ": it may get back on its feet",
        Pool::Wounds if current <= 0 => ": still down",
        _ => "",
    };
    format!("{name} {current} now, {range} after (of {max}){rises}")
}

/// What the damage a hit may do means for `target`: damage wears its Stress away first, then
/// its Wound Points, and a unit with none left falls.
fn fall_words(target: &UnitView, least: i32, most: i32) -> String {
    let left = target.body.stress.current.max(0) + target.body.wounds.current.max(0);
    let pools = if target.body.stress.max > 0 {
        format!("Stress {} and Wounds {}", target.body.stress.current, target.body.wounds.current)
    } else {
        format!("Wounds {}", target.body.wounds.current)
    };
    if least >= left {
        format!("any hit takes {pools} to nothing: it falls")
    } else if most >= left {
        format!("its best hit takes {pools} to nothing: it can fall")
    } else {
        format!("{pools} are more than its best hit: it stands")
    }
}

/// A zone's or square's card: its name and ground, who stands there, and on a grid who sees it.
fn zone_card(ui: &mut egui::Ui, view: &HoverView, zone: ZoneIdx) {
    let def = view.battle.battlefield.zone(zone);
    ui.label(RichText::new(&def.name).strong());
    if let Some(square) = def.square
        && let Some(grid) = view.battle.battlefield.grid()
    {
        let looks = view.looks.as_ref().and_then(|looks| looks.squares.get(grid.index(square)?));
        let ground = looks.map_or("open ground", |looks| looks.terrain.words());
        let ground = match grid.terrain(square) {
            Terrain::Difficult => format!("difficult ground ({ground}): costs {} to enter", def.enter_cost),
            _ => ground.to_string(),
        };
        ui.label(RichText::new(ground).color(DETAIL_COLOUR));
    } else if let Some(looks) = view.looks.as_ref().and_then(|looks| looks.zones.get(usize::from(zone))) {
        ui.label(RichText::new(looks.terrain.words()).color(DETAIL_COLOUR));
    }
    if let Some(capacity) = def.capacity.filter(|_| !view.battle.battlefield.is_grid()) {
        ui.label(format!("holds {capacity} ({} here now)", view.battle.index.count(zone)));
    }
    if let Some(hazard) = &def.hazard {
        let text =
            format!("hazard: {} (TN {} {:?}, {} damage)", hazard.name, hazard.tn, hazard.attribute, hazard.damage);
        ui.label(RichText::new(text).color(WARNING_COLOUR));
    }
    let here: Vec<UnitView> =
        view.battle.index.occupants(zone).iter().filter_map(|unit| view.battle.units.get(*unit).ok()).collect();
    if !here.is_empty() {
        ui.label(RichText::new("Here").small().strong());
        unit_list(ui, here.iter().map(|unit| (unit, String::new())));
    }
    if view.battle.battlefield.is_grid() {
        sight_list(ui, view, zone);
    }
}

/// The units on the field that can see `zone`, with the cover it has from each.
fn sight_list(ui: &mut egui::Ui, view: &HoverView, zone: ZoneIdx) {
    let mut seers: Vec<(UnitView, Cover)> = view
        .battle
        .units
        .iter()
        .filter(|unit| unit.standing.status.on_field() && unit.standing.zone.0 != zone)
        .filter_map(|unit| {
            let cover = view.battle.battlefield.sight(unit.standing.zone.0, zone)?;
            Some((unit, cover))
        })
        .collect();
    seers.sort_by_key(|(unit, cover)| (unit.standing.side.0, *cover, unit.standing.order.0));
    ui.label(RichText::new("Seen by").small().strong());
    if seers.is_empty() {
        ui.label(RichText::new("nobody").small().color(DETAIL_COLOUR));
        return;
    }
    unit_list(ui, seers.iter().map(|(unit, cover)| (unit, format!(" ({})", cover_words(*cover)))));
}

/// Units by name in their side's colour, each with a note, at most [`MOST_LISTED`] of them.
fn unit_list<'a, 'w: 'a, 's: 'a>(
    ui: &mut egui::Ui,
    units: impl ExactSizeIterator<Item = (&'a UnitView<'w, 's>, String)>,
) {
    let total = units.len();
    for (unit, note) in units.take(MOST_LISTED) {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            ui.label(
                RichText::new(unit.standing.name.as_str()).small().color(side_colour(ui.ctx(), unit.standing.side.0)),
            );
            if *unit.standing.status != Status::Active {
                ui.label(RichText::new(format!(" {}", unit.standing.status.log_name())).small().color(WARNING_COLOUR));
            }
            ui.label(RichText::new(note).small().color(DETAIL_COLOUR));
        });
    }
    if total > MOST_LISTED {
        ui.label(RichText::new(format!("and {} more", total - MOST_LISTED)).small().color(DETAIL_COLOUR));
    }
}

/// A wall's or slit's card: what it stops.
fn wall_card(ui: &mut egui::Ui, view: &HoverView, square: Square) {
    let Some(grid) = view.battle.battlefield.grid() else {
        return;
    };
    let (name, note) = match grid.terrain(square) {
        Terrain::Slit => ("Arrow slit", "blocks movement; sight passes only through its narrow opening"),
        _ => ("Wall", "blocks movement and sight"),
    };
    ui.label(RichText::new(format!("{name} ({}, {})", square.x, square.y)).strong());
    ui.label(RichText::new(note).color(DETAIL_COLOUR));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_declarations_show_only_to_their_own_side_until_everyone_has_declared() {
        // Open declaration: everyone sees everything.
        assert!(declaration_visible(CombatPhase::Declare, false, Some(0), 1));
        // Secret, while declaring: only the seated side sees its own.
        assert!(declaration_visible(CombatPhase::Declare, true, Some(0), 0));
        assert!(!declaration_visible(CombatPhase::Declare, true, Some(0), 1));
        assert!(!declaration_visible(CombatPhase::Declare, true, None, 0));
        // Once declarations close, they are revealed.
        assert!(declaration_visible(CombatPhase::Resolve, true, Some(0), 1));
    }
}
