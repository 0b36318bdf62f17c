//! The editor's board, drawn with egui's painter: grid squares painted with the mouse (brush,
//! line, rectangle, fill), zones dragged and connected, unit tokens placed, selected and moved,
//! and whatever the live check names outlined in red. Squares and zones are noted under
//! `square X,Y` and `zone ID` for scripted clicks.

use bevy_egui::egui::{self, Color32, Pos2, Rect, Sense, Stroke, Vec2};

use bevy::color::{ColorToPacked, Mix};

use super::{EditorState, Tool};
use crate::game::board;
use crate::game::ui::widgets::{ERROR_COLOUR, side_colour, tracked};
use crate::levels::edit::{self, Concern, Place, Square, Terrain};
use crate::levels::schema::LevelFile;

/// Smallest and largest square drawn, in points.
const CELL_RANGE: (f32, f32) = (8.0, 48.0);
/// Distance between zone centres one position step apart, in points.
const ZONE_SPACING: f32 = 170.0;
/// A zone's box, in points.
const ZONE_SIZE: Vec2 = Vec2::new(130.0, 80.0);
/// A token's radius on a zone, in points.
const ZONE_TOKEN_RADIUS: f32 = 11.0;
/// Outline of what the checker names and of the selection, in points.
const OUTLINE_WIDTH: f32 = 2.5;
/// The selection's outline.
const SELECTED_COLOUR: Color32 = Color32::from_rgb(250, 215, 80);
/// Line and rectangle previews.
const PREVIEW_COLOUR: Color32 = Color32::from_rgba_premultiplied(120, 170, 255, 90);
/// The share of a token's radius its icon takes.
const ICON_SHARE: f32 = 0.75;
/// The icon's colour over the side's colour.
const ICON_TINT: Color32 = Color32::from_gray(20);
/// The whole of an image, in texture coordinates.
const FULL_IMAGE: Rect = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
/// Adjacency lines between zones.
const LINK_COLOUR: Color32 = Color32::from_gray(150);

/// A symbol the editor does not know: loud, so it is fixed.
const UNKNOWN_TERRAIN_COLOUR: Color32 = Color32::from_rgb(150, 40, 150);

/// A square's colour: the battle's own, so a level looks the same in the editor as in play
/// (dark walls, lighter floor). A slit, an opening in a wall, is the two half and half.
fn terrain_colour(symbol: char) -> Color32 {
    let colour = match Terrain::from_symbol(symbol) {
        Some(Terrain::Floor) => board::OPEN_TILE_COLOUR,
        Some(Terrain::Wall) => board::WALL_TILE_COLOUR,
        Some(Terrain::Slit) => board::WALL_TILE_COLOUR.mix(&crate::game::model::board::SLIT_GAP_COLOUR, HALF),
        Some(Terrain::Difficult) => board::DIFFICULT_TILE_COLOUR,
        None => return UNKNOWN_TERRAIN_COLOUR,
    };
    let [red, green, blue, alpha] = colour.to_srgba().to_u8_array();
    Color32::from_rgba_unmultiplied(red, green, blue, alpha)
}

/// Half and half, for [`Mix::mix`].
const HALF: f32 = 0.5;

/// Draws the board and applies its mouse edits to `draft`; returns whether a stroke (a brush
/// or drag that should undo as one step) is under way.
pub(super) fn board(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) -> bool {
    if draft.grid.is_some() { grid_board(ui, state, draft) } else { zone_board(ui, state, draft) }
}

/// The side index of unit `side`, for its colour.
fn side_index(draft: &LevelFile, side: &str) -> usize {
    draft.sides.iter().position(|known| known.name == side).unwrap_or(usize::MAX / 2)
}

/// A grid's geometry on screen.
struct GridView {
    origin: Pos2,
    cell: f32,
    size: (usize, usize),
}

impl GridView {
    fn rect(&self, (x, y): Square) -> Rect {
        Rect::from_min_size(self.origin + Vec2::new(x as f32, y as f32) * self.cell, Vec2::splat(self.cell))
    }

    fn square(&self, at: Pos2) -> Option<Square> {
        let offset = (at - self.origin) / self.cell;
        let (x, y) = (offset.x.floor(), offset.y.floor());
        let inside = x >= 0.0 && y >= 0.0 && (x as usize) < self.size.0 && (y as usize) < self.size.1;
        inside.then_some((x as i32, y as i32))
    }
}

fn grid_board(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) -> bool {
    let Some(grid) = draft.grid.as_ref() else {
        return false;
    };
    let size = edit::grid_size(&grid.rows);
    let free = ui.available_rect_before_wrap();
    let across = (size.0.max(1) as f32, size.1.max(1) as f32);
    let cell = (free.width() / across.0).min(free.height() / across.1).clamp(CELL_RANGE.0, CELL_RANGE.1);
    let origin = free.center() - Vec2::new(across.0, across.1) * cell / 2.0;
    let view = GridView { origin, cell, size };
    let response =
        ui.allocate_rect(Rect::from_min_size(origin, Vec2::new(across.0, across.1) * cell), Sense::click_and_drag());
    for y in 0..size.1 as i32 {
        for x in 0..size.0 as i32 {
            let id = ui.id().with(("square", x, y));
            tracked(ui.interact(view.rect((x, y)), id, Sense::hover()), &format!("square {x},{y}"));
        }
    }
    let stroke = grid_input(ui, state, draft, &view, &response);
    draw_grid(ui, state, draft, &view, &response);
    stroke
}

/// Applies the tool to the square under the pointer; returns whether a stroke is under way.
fn grid_input(
    ui: &egui::Ui,
    state: &mut EditorState,
    draft: &mut LevelFile,
    view: &GridView,
    response: &egui::Response,
) -> bool {
    let pointer = ui.ctx().pointer_latest_pos().and_then(|at| view.square(at));
    let pressed_on = ui.input(|input| input.pointer.press_origin()).and_then(|at| view.square(at));
    let down = response.is_pointer_button_down_on();
    let released = response.clicked() || response.drag_stopped();
    let (Some(square), Some(grid)) = (pointer, draft.grid.as_mut()) else {
        return false;
    };
    match state.tool {
        Tool::Brush if down => {
            edit::paint(&mut grid.rows, &[square], state.terrain);
            return true;
        }
        Tool::Line | Tool::Rectangle if down && state.anchor.is_none() => state.anchor = pressed_on,
        Tool::Line | Tool::Rectangle if released => {
            if let Some(anchor) = state.anchor.take() {
                let squares = shape(state, anchor, square);
                edit::paint(&mut grid.rows, &squares, state.terrain);
            }
        }
        Tool::Fill if response.clicked() => {
            let region = edit::fill_region(&grid.rows, square);
            edit::paint(&mut grid.rows, &region, state.terrain);
        }
        Tool::PlaceUnit if response.clicked() => place_unit(state, draft, Place::Square(square)),
        Tool::Select if down && !response.dragged() => {
            if let Some(from) = pressed_on {
                state.selected_unit = edit::unit_at(draft, &Place::Square(from));
            }
        }
        Tool::Select if response.drag_stopped() => {
            if let Some(id) = state.selected_unit.clone()
                && edit::unit_at(draft, &Place::Square(square)).is_none()
            {
                edit::move_unit(draft, &id, Place::Square(square));
            }
        }
        _ => {}
    }
    false
}

/// The squares the line or rectangle tool paints from `anchor` to `end`.
fn shape(state: &EditorState, anchor: Square, end: Square) -> Vec<Square> {
    match state.tool {
        Tool::Line => edit::line(anchor, end),
        _ => edit::rectangle(anchor, end, state.filled),
    }
}

fn place_unit(state: &mut EditorState, draft: &mut LevelFile, place: Place) {
    let Some(side) = draft.sides.get(state.side).map(|side| side.name.clone()) else {
        state.status = "Add a side first.".into();
        return;
    };
    if state.creature.is_empty() {
        state.status = "Choose a creature first.".into();
        return;
    }
    if matches!(place, Place::Square(_)) && edit::unit_at(draft, &place).is_some() {
        state.status = "That square is taken.".into();
        return;
    }
    let creature = state.creature.clone();
    state.selected_unit = Some(edit::add_unit(draft, &creature, &side, place));
}

fn draw_grid(ui: &egui::Ui, state: &EditorState, draft: &LevelFile, view: &GridView, response: &egui::Response) {
    let painter = ui.painter();
    let Some(grid) = draft.grid.as_ref() else {
        return;
    };
    let gap = (view.cell * 0.04).max(0.5);
    for (y, row) in grid.rows.iter().enumerate() {
        for (x, symbol) in row.chars().enumerate() {
            let square = (x as i32, y as i32);
            let rect = view.rect(square).shrink(gap);
            painter.rect_filled(rect, 1.0, terrain_colour(symbol));
            if state.flagged(&Concern::Square(square)) {
                painter.rect_stroke(rect, 1.0, Stroke::new(OUTLINE_WIDTH, ERROR_COLOUR), egui::StrokeKind::Inside);
            }
        }
    }
    if let (Some(anchor), true) = (state.anchor, response.is_pointer_button_down_on())
        && let Some(end) = ui.ctx().pointer_latest_pos().and_then(|at| view.square(at))
    {
        for square in shape(state, anchor, end) {
            painter.rect_filled(view.rect(square), 0.0, PREVIEW_COLOUR);
        }
    }
    for unit in &draft.units {
        let Some(square) = unit.at else {
            continue;
        };
        let centre = view.rect(square).center();
        let selected = state.selected_unit.as_deref() == Some(unit.id.as_str());
        token(ui, centre, view.cell * 0.4, (draft, unit), selected, state);
    }
}

/// A unit's token: a disc in its side's colour with the unit's icon (its id's first letters
/// until the icon is in), outlined when selected or named by the checker.
fn token(
    ui: &egui::Ui,
    centre: Pos2,
    radius: f32,
    (draft, unit): (&LevelFile, &crate::levels::schema::UnitFile),
    selected: bool,
    state: &EditorState,
) {
    let painter = ui.painter();
    painter.circle_filled(centre, radius, side_colour(painter.ctx(), side_index(draft, &unit.side)));
    let outline = if state.flagged(&Concern::Unit(unit.id.clone())) {
        Some(ERROR_COLOUR)
    } else {
        selected.then_some(SELECTED_COLOUR)
    };
    if let Some(colour) = outline {
        painter.circle_stroke(centre, radius + 1.0, Stroke::new(OUTLINE_WIDTH, colour));
    }
    let picture = Rect::from_center_size(centre, Vec2::splat(radius * ICON_SHARE * 2.0));
    match state.icon_textures.get(state.unit_icon(unit)) {
        // Dark on the side's colour, as the battle's tokens show their icons.
        Some(texture) => {
            painter.image(*texture, picture, FULL_IMAGE, ICON_TINT);
        }
        None => {
            let letters: String = unit.id.chars().take(2).collect();
            painter.text(centre, egui::Align2::CENTER_CENTER, letters, egui::FontId::proportional(radius), ICON_TINT);
        }
    }
}

/// Where zone `at` is drawn on screen.
fn zone_centre(centre: Pos2, (x, y): (f32, f32)) -> Pos2 {
    // Positions count rows up, as the battle board draws them; the screen counts down.
    centre + Vec2::new(x, -y) * ZONE_SPACING
}

fn zone_board(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile) -> bool {
    let centre = ui.available_rect_before_wrap().center();
    let positions = edit::zone_positions(draft);
    let painter = ui.painter().clone();
    for (at, zone) in draft.zones.iter().enumerate() {
        for other in &zone.adjacent {
            if let Some(to) = draft.zones.iter().position(|known| known.id == *other) {
                let line = [zone_centre(centre, positions[at]), zone_centre(centre, positions[to])];
                painter.line_segment(line, Stroke::new(2.0, LINK_COLOUR));
            }
        }
    }
    let mut stroke = false;
    for (at, position) in positions.into_iter().enumerate() {
        stroke |= zone_box(ui, state, draft, zone_centre(centre, position), at);
    }
    stroke
}

/// One zone: its box (dragged, clicked for the tool) and the tokens of the units in it.
fn zone_box(ui: &mut egui::Ui, state: &mut EditorState, draft: &mut LevelFile, at_screen: Pos2, at: usize) -> bool {
    let id = draft.zones[at].id.clone();
    let rect = Rect::from_center_size(at_screen, ZONE_SIZE);
    let response =
        tracked(ui.interact(rect, ui.id().with(("zone", &id)), Sense::click_and_drag()), &format!("zone {id}"));
    let mut stroke = false;
    if response.dragged() && matches!(state.tool, Tool::Select) {
        let delta = response.drag_delta() / ZONE_SPACING;
        let (x, y) = edit::zone_positions(draft)[at];
        draft.zones[at].position = Some((x + delta.x, y - delta.y));
        stroke = true;
    }
    if response.clicked() {
        zone_clicked(state, draft, &id);
    }
    let selected = state.selected_zone.as_deref() == Some(id.as_str());
    let painter = ui.painter();
    let outline = if state.flagged(&Concern::Zone(id.clone())) {
        Stroke::new(OUTLINE_WIDTH, ERROR_COLOUR)
    } else if selected {
        Stroke::new(OUTLINE_WIDTH, SELECTED_COLOUR)
    } else {
        Stroke::new(1.0, LINK_COLOUR)
    };
    painter.rect_filled(rect, 6.0, terrain_colour(Terrain::Floor.symbol()));
    painter.rect_stroke(rect, 6.0, outline, egui::StrokeKind::Inside);
    let title = draft.zones[at].name.clone().unwrap_or_else(|| id.clone());
    painter.text(
        rect.center_top() + Vec2::new(0.0, 12.0),
        egui::Align2::CENTER_CENTER,
        title,
        egui::FontId::proportional(13.0),
        Color32::WHITE,
    );
    let members: Vec<usize> = (0..draft.units.len()).filter(|&unit| draft.units[unit].zone == id).collect();
    for (slot, unit) in members.into_iter().enumerate() {
        let offset = Vec2::new((slot as f32 - 2.0) * ZONE_TOKEN_RADIUS * 2.2, 14.0);
        let selected = state.selected_unit.as_deref() == Some(draft.units[unit].id.as_str());
        token(ui, rect.center() + offset, ZONE_TOKEN_RADIUS, (draft, &draft.units[unit]), selected, state);
    }
    stroke
}

fn zone_clicked(state: &mut EditorState, draft: &mut LevelFile, id: &str) {
    match state.tool {
        Tool::Connect => match state.selected_zone.take() {
            Some(first) if first != id => {
                edit::toggle_adjacent(draft, &first, id);
            }
            _ => state.selected_zone = Some(id.to_string()),
        },
        Tool::PlaceUnit => place_unit(state, draft, Place::Zone(id.to_string())),
        _ => {
            state.selected_zone = Some(id.to_string());
            state.zone_id_field = id.to_string();
            // Clicking a zone steps through the units in it.
            let members: Vec<String> =
                draft.units.iter().filter(|unit| unit.zone == id).map(|unit| unit.id.clone()).collect();
            let next = state.selected_unit.as_ref().and_then(|current| members.iter().position(|unit| unit == current));
            state.selected_unit = members.get(next.map_or(0, |at| at + 1)).cloned();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sum of a colour's channels: enough to say which of two greys is the lighter.
    fn lightness(colour: Color32) -> u32 {
        u32::from(colour.r()) + u32::from(colour.g()) + u32::from(colour.b())
    }

    #[test]
    fn the_editor_draws_walls_dark_and_floor_light_as_the_battle_does() {
        let (wall, floor) = (terrain_colour(Terrain::Wall.symbol()), terrain_colour(Terrain::Floor.symbol()));
        assert!(lightness(wall) < lightness(floor), "wall {wall:?} is lighter than floor {floor:?}");
        let [red, green, blue, _] = board::WALL_TILE_COLOUR.to_srgba().to_u8_array();
        assert_eq!(wall, Color32::from_rgb(red, green, blue), "the battle's wall colour");
    }
}
