//! The board in Bevy 2D: zones as labelled areas joined by their adjacency (or, on a grid
//! battlefield, a grid of square tiles: open, wall, slit and difficult ground), units as tokens
//! coloured by side with Stress and Wound bars and status marks, threat, hover and selection
//! rings, the drafted target's cover, and short animations for moves and hits.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::window::WindowResized;
use bevy_egui::input::egui_wants_any_pointer_input;
use leafwing_input_manager::prelude::ActionState;

use super::controls::{BattleUi, DeclarationOptions, Player, PlayerAction, UiCommand};
use super::icons::Icons;
use super::labels::{CHAR_WIDTH as LABEL_CHAR_WIDTH, FEWEST_CHARS, LABEL_PX, LINE_HEIGHT as LABEL_LINE_HEIGHT};
use super::session::Screen;
use super::terrain_art::TerrainArt;
use super::token_art::{SIDE_SHAPES, TokenPictures, badge_parts, side_shape, side_speck, spawn_pictures};
use crate::battlefield::{Battlefield, Cover, Square, ZoneIdx};
use crate::levels::icons::Icon;
use crate::levels::terrain::{BoardLooks, Looks, ZoneTerrain};
use crate::rules::components::*;

/// Board pixels between zone centres, across.
pub const ZONE_SPACING: f32 = 280.0;
/// A zone's drawn width.
pub const ZONE_WIDTH: f32 = 255.0;
/// Board pixels between one zone's bottom and the next one's top.
const ZONE_GAP_DOWN: f32 = 30.0;
/// Least height of a zone.
const ZONE_HEIGHT_MIN: f32 = 220.0;
/// Greatest height of a zone.
const ZONE_HEIGHT_MAX: f32 = 450.0;
/// Room kept clear inside a zone's edges.
const ZONE_PADDING: f32 = 8.0;
/// Height of a line of zone label, as a share of its font size.
const LINE_HEIGHT: f32 = 1.25;
/// A grid square's drawn size, in board pixels.
pub const GRID_TILE: f32 = 80.0;
/// Gap between grid tiles, which draws the grid lines.
pub(crate) const GRID_GAP: f32 = 2.0;
/// Size of the grid's row and column numbers, in board pixels: two fifths of a square, so they stay
/// readable (about 10 screen pixels) when a 28-square-wide field is seen whole.
const GRID_NUMBER_SIZE: f32 = GRID_TILE * 0.4;
/// A token's radius.
pub const TOKEN_RADIUS: f32 = 20.0;
/// What a token's disc and bars take up at scale 1, with a little room around.
const TOKEN_BODY: Vec2 = Vec2::new(52.0, 58.0);
/// How far the disc's centre lies below the middle of the body (the bars are above it).
const TOKEN_LIFT: f32 = 6.0;
/// Room around a name line, in screen pixels.
const LABEL_ROOM: f32 = 3.0;
/// Token scale that reads well.
const GOOD_SCALE: f32 = 1.0;
/// Characters of a name that read well.
const GOOD_NAME_CHARS: f32 = 8.0;
/// Smallest token scale worth keeping a name line for.
const LEAST_NAMED_SCALE: f32 = 0.45;
/// Largest scale of a token in a roomy zone, so a few units read well on a wide board.
const ZONE_TOKEN_MAX_SCALE: f32 = 1.25;
/// A token's scale on a grid square, as large as the square leaves room for.
const GRID_TOKEN_SCALE: f32 = 1.2;
/// Layouts whose quality differs by less than this are as good, and the larger scale wins.
const FIT_TOLERANCE: f32 = 0.02;
/// Rows of tokens spread apart to at most this many times their height.
const ROW_SPREAD: f32 = 1.3;
/// Width of a token's Stress and Wound bars.
const BAR_WIDTH: f32 = 44.0;
/// Height of a bar.
const BAR_HEIGHT: f32 = 5.0;
/// Height of the Wound bar's centre above the disc's edge (the Stress bar is above it).
const WOUND_BAR_RISE: f32 = 4.0;
/// Height of the Stress bar's centre above the disc's edge.
const STRESS_BAR_RISE: f32 = 10.0;
/// Zone label size, in board pixels.
const ZONE_LABEL_SIZE: f32 = 22.0;
/// Token status mark size, in board pixels.
const TOKEN_LABEL_SIZE: f32 = 15.0;
/// How fast tokens glide to where they stand (fraction of the way per second, exponential).
const GLIDE_RATE: f32 = 8.0;
/// A gliding token this close to where it stands, in board pixels, is there: it then stops
/// changing, so its parts are not moved again every frame.
const GLIDE_SNAP: f32 = 0.05;
/// Least radius on screen of the board's largest token, in screen pixels, at which tokens' small
/// parts (rim, icon, weapon badge, status mark and name) are drawn. The 4-vs-4 grids framed whole in the default window
/// draw tokens of about 6 to 8 pixels; the 64x64 siege framed whole about 3, where those parts
/// are specks, and drawing them for a thousand tokens took most of each frame.
const DETAIL_RADIUS_PX: f32 = 5.0;
/// Fallen units' tokens shrink to this.
const FALLEN_SCALE: f32 = 0.8;
/// A fallen unit sharing its square with another lies this much smaller, in a corner.
const SHARED_SQUARE_SCALE: f32 = 0.6;
/// How far into the corner of its square a fallen unit lies, as a share of the square.
const FALLEN_CORNER: f32 = 0.22;
/// Depth of a fighting unit's token (fallen ones lie under it).
const TOKEN_Z: f32 = 5.0;
/// Depth of a fallen unit's token.
const FALLEN_Z: f32 = 4.0;
/// Depth of the adjacency lines: over the zones, under their labels and the tokens.
const LINK_Z: f32 = 0.5;
/// Width of an adjacency line, in board pixels.
const LINK_WIDTH: f32 = 4.0;
/// Depth of a token's rim, under its disc.
const RIM_Z: f32 = -0.1;
/// Depth of the cross on a dead unit's token, over its disc and bars.
const CROSS_Z: f32 = 1.5;
/// Width of the dark rim around a token, in board pixels.
const RIM_WIDTH: f32 = 2.5;
/// Length of each stroke of the cross on a dead unit's token, as a share of its diameter.
const CROSS_LENGTH: f32 = 1.1;
/// Width of a stroke of the cross.
const CROSS_WIDTH: f32 = 5.0;
/// How far the pointer may be from a token's centre to hover it, in radii.
const HOVER_REACH: f32 = 1.2;
/// How long a hit flashes, in seconds.
const FLASH_SECONDS: f32 = 0.45;
/// How much a hit token swells at the start of its flash.
const FLASH_SWELL: f32 = 0.35;
/// How much of its side's colour a downed unit keeps (the rest is grey).
const DOWN_SATURATION: f32 = 0.5;
/// How much of its side's colour a fallen unit keeps.
const FALLEN_SATURATION: f32 = 0.15;
/// How bright a fallen unit's grey is, against the living (light enough for its cross to show).
const FALLEN_BRIGHTNESS: f32 = 0.95;
/// Side colours, by side index.
pub const SIDE_COLOURS: [Color; 6] = [
    Color::srgb(0.25, 0.55, 0.95),
    Color::srgb(0.9, 0.3, 0.25),
    Color::srgb(0.3, 0.75, 0.35),
    Color::srgb(0.85, 0.7, 0.2),
    Color::srgb(0.65, 0.4, 0.85),
    Color::srgb(0.3, 0.8, 0.8),
];
/// The Okabe–Ito colours (blue, vermillion, bluish green, orange, reddish purple, sky blue):
/// they stay apart with every common colour-vision deficiency.
pub const OKABE_ITO_COLOURS: [Color; 6] = [
    Color::srgb(0.0, 0.447, 0.698),
    Color::srgb(0.835, 0.369, 0.0),
    Color::srgb(0.0, 0.62, 0.451),
    Color::srgb(0.902, 0.624, 0.0),
    Color::srgb(0.8, 0.475, 0.655),
    Color::srgb(0.337, 0.706, 0.914),
];

/// Whether sides take the Okabe–Ito colours. A process-wide switch, because the panels colour
/// side names in plain functions that have no world to read a resource from.
static COLOUR_BLIND_PALETTE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Chooses the side palette (the settings screen's switch).
pub fn use_colour_blind_palette(on: bool) {
    COLOUR_BLIND_PALETTE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// A side's colour in the palette in force.
pub fn side_base_colour(side: usize) -> Color {
    let palette = if COLOUR_BLIND_PALETTE.load(std::sync::atomic::Ordering::Relaxed) {
        &OKABE_ITO_COLOURS
    } else {
        &SIDE_COLOURS
    };
    palette[side % palette.len()]
}

/// Adjacency lines.
const LINK_COLOUR: Color = Color::srgba(0.62, 0.62, 0.55, 0.45);
/// The dark rim around every token, so it stands out from any ground.
const RIM_COLOUR: Color = Color::srgb(0.06, 0.06, 0.08);
/// The cross on a dead unit's token.
const CROSS_COLOUR: Color = Color::srgba(0.1, 0.1, 0.1, 0.85);
/// Stress bar fill.
const STRESS_BAR_COLOUR: Color = Color::srgb(0.35, 0.6, 1.0);
/// Wound bar fill.
const WOUND_BAR_COLOUR: Color = Color::srgb(0.9, 0.2, 0.2);
/// Zone labels.
const ZONE_LABEL_COLOUR: Color = Color::srgba(0.9, 0.9, 0.85, 0.85);
/// Status marks.
const STATUS_MARK_COLOUR: Color = Color::srgb(1.0, 0.85, 0.3);
/// An open grid square.
pub(crate) const OPEN_TILE_COLOUR: Color = Color::srgb(0.4, 0.42, 0.37);
/// Difficult ground (rubble, mud).
pub(crate) const DIFFICULT_TILE_COLOUR: Color = Color::srgb(0.42, 0.34, 0.2);
/// A wall, and the solid part of a slit.
pub(crate) const WALL_TILE_COLOUR: Color = Color::srgb(0.08, 0.08, 0.1);
/// The opening of an arrow slit.
pub(crate) const SLIT_GAP_COLOUR: Color = Color::srgb(0.3, 0.32, 0.28);
/// The lines between grid squares.
pub(crate) const GRID_LINE_COLOUR: Color = Color::srgb(0.16, 0.17, 0.15);
/// Row and column numbers.
const GRID_NUMBER_COLOUR: Color = Color::srgba(0.85, 0.85, 0.8, 0.75);
/// Outline of the places the drafted action can move to.
const DESTINATION_COLOUR: Color = Color::srgba(0.4, 1.0, 0.6, 0.35);
/// Outline of the drafted destination.
const DRAFTED_DESTINATION_COLOUR: Color = Color::srgb(0.4, 1.0, 0.6);
/// Outline of a place the drafted action's unit may move to after acting (`C-MOVE-1`).
const THEN_MOVE_OFFERED_COLOUR: Color = Color::srgba(0.5, 0.7, 1.0, 0.35);
/// Outline of where the drafted action's unit moves after acting (`C-MOVE-1`).
const THEN_MOVE_COLOUR: Color = Color::srgb(0.5, 0.7, 1.0);
/// Outline of the square under the pointer.
const HOVER_SQUARE_COLOUR: Color = Color::srgba(0.95, 0.95, 0.95, 0.6);
/// The cover tag of a target in half cover.
const HALF_COVER_COLOUR: Color = Color::srgb(0.95, 0.8, 0.3);
/// The cover tag of a target in full cover.
const FULL_COVER_COLOUR: Color = Color::srgb(1.0, 0.5, 0.15);
/// The cover tag of a target in the open.
const NO_COVER_COLOUR: Color = Color::srgb(0.85, 0.95, 0.85);
/// Cover tag size, in board pixels.
const COVER_TAG_SIZE: f32 = 17.0;
/// The broken ring of a threatened unit.
const THREAT_COLOUR: Color = Color::srgb(1.0, 0.45, 0.85);
/// How many arcs a threatened unit's ring is broken into.
const THREAT_ARCS: usize = 4;
/// Each arc's angle, in radians (a little over half of its quarter, so the gaps show).
const THREAT_ARC: f32 = 0.9;
/// Segments of each threat arc around a token too small for detail.
const SPECK_ARC_SEGMENTS: u32 = 2;
/// The threat ring's radius, in token radii: outside the corners of square and diamond tokens.
const THREAT_RING_REACH: f32 = 1.3;
/// The ring of the selected unit.
const SELECTED_COLOUR: Color = Color::srgb(1.0, 0.9, 0.2);
/// The ring of the unit under the pointer.
const HOVER_COLOUR: Color = Color::srgb(0.95, 0.95, 0.95);
/// The ring of the unit declaring now.
const DECLARER_COLOUR: Color = Color::srgb(0.4, 1.0, 0.6);
/// The ring of the drafted target.
const TARGET_COLOUR: Color = Color::srgb(1.0, 0.55, 0.1);

/// A zone's drawn area, or a grid tile (anything rebuilt with the battlefield).
#[derive(Component, Debug)]
pub(super) struct BoardZone;

/// The tag naming the drafted target's cover, on a grid.
#[derive(Component, Debug)]
struct CoverTag;

/// A unit's token, pointing at the unit.
#[derive(Component, Debug)]
pub struct Token(pub Entity);

/// A token's settled scale (without the flash of a hit), for laying out around it.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct TokenScale(pub f32);

/// Whether a token shows its small parts: while the board's largest token is drawn large
/// enough on screen for them to read (see [`DETAIL_RADIUS_PX`]); else only its disc, bars and
/// cross are drawn, and its name only while it is hovered, selected, declaring or targeted.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenDetail(pub bool);

impl Default for TokenDetail {
    fn default() -> Self {
        Self(true)
    }
}

/// A part of a token drawn only while the token shows detail: its rim, icon, weapon badge and
/// status mark.
#[derive(Component, Debug, Default)]
pub struct DetailPart;

impl Default for TokenScale {
    fn default() -> Self {
        Self(1.0)
    }
}

/// What a token's disc and bars cover, centred at `centre` and drawn at `scale`.
pub fn token_body(centre: Vec2, scale: f32) -> Rect {
    let top = TOKEN_RADIUS + STRESS_BAR_RISE + BAR_HEIGHT / 2.0;
    let half_width = TOKEN_RADIUS.max(BAR_WIDTH / 2.0);
    Rect::from_corners(
        centre + Vec2::new(-half_width, -TOKEN_RADIUS) * scale,
        centre + Vec2::new(half_width, top) * scale,
    )
}

/// A token's Stress bar.
#[derive(Component, Debug)]
struct StressBar;

/// A token's Wound bar.
#[derive(Component, Debug)]
struct WoundBar;

/// A token's status text.
#[derive(Component, Debug)]
struct StatusMark;

/// The cross over a dead unit's token.
#[derive(Component, Debug)]
struct FallenCross;

/// A token's name line, with the unit's whole name (the text shows as much of it as fits).
#[derive(Component, Debug)]
pub struct NameLabel {
    /// The unit's whole name.
    pub full: String,
}

/// What a token last showed, to notice hits.
#[derive(Component, Debug)]
struct TokenMemory {
    health: i32,
    flash: f32,
    /// Fits tokens to the room their zone has.
    crowd_scale: f32,
    /// The colour last given to its disc: its side's in the palette in force, for its look.
    colour: Option<Color>,
}

impl Default for TokenMemory {
    fn default() -> Self {
        Self { health: i32::MIN, flash: 0.0, crowd_scale: 1.0, colour: None }
    }
}

/// How a token is drawn, by its unit's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// In the fight: its side's colour.
    Fighting,
    /// Down but alive (incapacitated, dying): paler.
    Down,
    /// Dead, fled or surrendered: grey, and shrunk where it fell.
    Fallen,
}

impl Look {
    /// The look of a unit of this status.
    pub fn of(status: Status) -> Self {
        match status {
            Status::Active | Status::Reserve => Self::Fighting,
            Status::Incapacitated | Status::Dying | Status::Unconscious => Self::Down,
            Status::Dead | Status::Fled | Status::Surrendered => Self::Fallen,
        }
    }
}

/// A token's disc colour: its side's, greyed as the unit goes down and falls.
pub fn token_colour(side: Color, look: Look) -> Color {
    let colour = side.to_srgba();
    // Perceived brightness, so the grey keeps the side's lightness.
    let grey = 0.3 * colour.red + 0.59 * colour.green + 0.11 * colour.blue;
    let keep = |saturation: f32, brightness: f32| {
        let channel = |value: f32| (grey + (value - grey) * saturation) * brightness;
        Color::srgba(channel(colour.red), channel(colour.green), channel(colour.blue), colour.alpha)
    };
    match look {
        Look::Fighting => side,
        Look::Down => keep(DOWN_SATURATION, 1.0),
        Look::Fallen => keep(FALLEN_SATURATION, FALLEN_BRIGHTNESS),
    }
}

/// Where each zone is drawn.
#[derive(Resource, Debug, Default)]
pub struct BoardLayout {
    /// Zone centres, by zone index.
    pub centres: Vec<Vec2>,
    /// The drawn size of one zone (of one square, on a grid).
    pub cell: Vec2,
    /// On a grid: its width, and the zone on each square in row-major order (`None` for walls).
    pub squares: Option<(u16, Vec<Option<ZoneIdx>>)>,
    /// On zones: where each zone's tokens stand (its box under its label), by zone index.
    pub token_areas: Vec<Rect>,
}

impl BoardLayout {
    /// The zone (or grid square) drawn under the board point `at`, if any.
    pub fn zone_at(&self, at: Vec2) -> Option<ZoneIdx> {
        match &self.squares {
            Some((width, zones)) => {
                let (x, y) = ((at.x / GRID_TILE).round(), (-at.y / GRID_TILE).round());
                if x < 0.0 || y < 0.0 || x >= f32::from(*width) {
                    return None;
                }
                let cell = y as usize * usize::from(*width) + x as usize;
                zones.get(cell).copied().flatten()
            }
            None => self
                .centres
                .iter()
                .position(|centre| {
                    let offset = (at - *centre).abs();
                    offset.x <= self.cell.x / 2.0 && offset.y <= self.cell.y / 2.0
                })
                .map(|at| at as ZoneIdx),
        }
    }
}

/// Where some tokens stand for now instead of their unit's place: walkers part way along a path
/// while their count plays out (see [`super::playout`]).
#[derive(Resource, Debug, Default)]
pub struct ShownPlaces(pub HashMap<Entity, Vec2>);

/// How far some tokens lean off their place for now, in board pixels: a melee blow's lunge
/// toward its target while its line plays (see [`super::playout`]).
#[derive(Resource, Debug, Default)]
pub struct ShownNudges(pub HashMap<Entity, Vec2>);

/// What some tokens show for now instead of their unit's Stress, Wounds and status: units
/// whose blows and falls in the count on show have not come up yet (see [`super::playout`]).
#[derive(Resource, Debug, Default, PartialEq)]
pub struct ShownVitals(pub HashMap<Entity, Vitals>);

/// A unit's Stress and Wound Points and its status, as a token shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vitals {
    /// Stress now.
    pub stress: i32,
    /// Wound Points now.
    pub wounds: i32,
    /// Its status.
    pub status: Status,
}

/// The unit under the pointer.
#[derive(Resource, Debug, Default)]
pub struct Hovered(pub Option<Entity>);

/// The zone (or grid square) under the pointer.
#[derive(Resource, Debug, Default)]
pub struct HoveredZone(pub Option<ZoneIdx>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardLayout>()
        .init_resource::<Hovered>()
        .init_resource::<HoveredZone>()
        .init_resource::<TokenPalette>()
        .init_resource::<ShownPlaces>()
        .init_resource::<ShownNudges>()
        .init_resource::<ShownVitals>()
        .add_systems(
            Update,
            (
                rebuild_zones,
                sync_tokens,
                place_tokens,
                refresh_tokens,
                hover_and_pick.run_if(not(egui_wants_any_pointer_input)),
                // Over a panel the board hovers nothing, so nothing stays hovered behind it.
                forget_hover.run_if(egui_wants_any_pointer_input),
                show_cover,
                draw_rings,
            )
                .chain()
                .in_set(BoardSystems)
                .run_if(in_state(Screen::Battle)),
        );
}

/// The board's systems, for others to order themselves after (tokens placed, hover known).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardSystems;

/// Where a grid square is drawn: column x to the right, row 0 at the top.
pub fn square_centre(square: Square) -> Vec2 {
    Vec2::new(square.x as f32, -(square.y as f32)) * GRID_TILE
}

/// Where zones lie, in steps (columns across, rows up): on a grid, each square where it lies;
/// else the level's positions where given, else columns by distance from the first zone.
pub fn layout(battlefield: &Battlefield) -> Vec<Vec2> {
    if battlefield.is_grid() {
        return battlefield.zones().iter().map(|zone| zone.square.map_or(Vec2::ZERO, square_centre)).collect();
    }
    let count = battlefield.len();
    let mut columns: HashMap<u32, Vec<ZoneIdx>> = HashMap::new();
    for zone in 0..count as ZoneIdx {
        let distance = battlefield.distance(0, zone);
        let column = if distance == crate::battlefield::UNREACHABLE { count as u32 } else { distance };
        columns.entry(column).or_default().push(zone);
    }
    let widest = columns.keys().copied().max().unwrap_or(0) as f32;
    let mut steps = vec![Vec2::ZERO; count];
    for (column, zones) in &columns {
        let height = zones.len() as f32;
        for (row, zone) in zones.iter().enumerate() {
            steps[*zone as usize] = Vec2::new(*column as f32 - widest / 2.0, (height - 1.0) / 2.0 - row as f32);
        }
    }
    for (at, zone) in battlefield.zones().iter().enumerate() {
        if let Some((x, y)) = zone.position {
            steps[at] = Vec2::new(x, y);
        }
    }
    steps
}

/// How tall zones are drawn so that the board, framed with a zone's room around it, has the
/// shape of the window's free area `free`: a wide board gets tall zones, whose rows of tokens
/// leave names room, at no cost in zoom.
pub fn zone_height(steps: &[Vec2], free: Vec2) -> f32 {
    let (min, max) = steps
        .iter()
        .fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(min, max), step| (min.min(*step), max.max(*step)));
    let span = (max - min).max(Vec2::ZERO);
    let width = span.x * ZONE_SPACING + 2.0 * ZONE_WIDTH;
    // Height = span.y · (h + gap) + 2h, solved for h at the free area's shape.
    let height = width * free.y / free.x.max(1.0);
    ((height - span.y * ZONE_GAP_DOWN) / (span.y + 2.0)).clamp(ZONE_HEIGHT_MIN, ZONE_HEIGHT_MAX)
}

/// Draws the battlefield afresh when a battle starts (its resource is replaced), when the board
/// was cleared (leaving the screen), and, on zones, when the window's shape changes the zones'.
fn rebuild_zones(
    mut commands: Commands,
    battlefield: Res<Battlefield>,
    zones: Query<Entity, With<BoardZone>>,
    windows: Query<&Window>,
    mut resized: MessageReader<WindowResized>,
    mut board: ResMut<BoardLayout>,
    (mut images, looks, mut art): (ResMut<Assets<Image>>, Option<Res<BoardLooks>>, ResMut<TerrainArt>),
) {
    let resized = resized.read().count() > 0;
    let looks_changed = looks.as_ref().is_some_and(|looks| looks.is_changed());
    if !battlefield.is_changed() && !zones.is_empty() && !resized && !looks_changed {
        return;
    }
    let steps = layout(&battlefield);
    let window = windows.iter().next().map_or(super::camera::DEFAULT_WINDOW, Window::size);
    let cell = if battlefield.is_grid() {
        Vec2::splat(GRID_TILE)
    } else {
        // Zones take their shape from the view at the default UI scale; another scale only zooms.
        Vec2::new(ZONE_WIDTH, zone_height(&steps, super::camera::board_view(window, 1.0).0).round())
    };
    if !battlefield.is_changed() && !zones.is_empty() && board.cell == cell && !looks_changed {
        return;
    }
    for zone in &zones {
        commands.entity(zone).despawn();
    }
    board.cell = cell;
    board.centres = if battlefield.is_grid() {
        steps
    } else {
        steps.iter().map(|step| *step * Vec2::new(ZONE_SPACING, cell.y + ZONE_GAP_DOWN)).collect()
    };
    commands.spawn((
        BoardZone,
        CoverTag,
        DespawnOnExit(Screen::Battle),
        Text2d::new(""),
        TextFont::from_font_size(COVER_TAG_SIZE),
        TextColor(NO_COVER_COLOUR),
        Transform::from_xyz(0.0, 0.0, 20.0),
        Visibility::Hidden,
    ));
    if let Some(grid) = battlefield.grid() {
        let cells = usize::from(grid.width()) * usize::from(grid.height());
        let squares = (0..cells).map(|cell| battlefield.zone_at(grid.square(cell))).collect();
        board.squares = Some((grid.width(), squares));
        board.token_areas = Vec::new();
        let squares = looks.as_ref().map_or(&[][..], |looks| looks.squares.as_slice());
        super::terrain_art::spawn_grid_squares(&mut commands, grid, squares, &mut art, &mut images);
        spawn_grid_numbers(&mut commands, i32::from(grid.width()), i32::from(grid.height()));
        return;
    }
    board.squares = None;
    spawn_links(&mut commands, &battlefield, &board.centres);
    let zone_looks = looks.as_ref().map_or(&[][..], |looks| looks.zones.as_slice());
    let mut ground = |at: usize, size: Vec2| {
        let zone = battlefield.zones().get(at);
        let look = zone_looks.get(at).cloned().unwrap_or_else(|| Looks {
            terrain: ZoneTerrain::default_for(
                zone.is_some_and(|zone| zone.hazard.is_some()),
                zone.is_some_and(|zone| zone.capacity.is_some()),
            ),
            texture: None,
        });
        super::terrain_art::zone_sprite(&look, &mut art, &mut images, size)
    };
    board.token_areas = spawn_zones(&mut commands, &battlefield, &board.centres, cell, &mut ground);
}

/// Draws each zone as a box of `cell` size at its centre, its ground as `ground` draws the
/// `n`th zone's, labelled at the top with its name and notes; returns where each zone's tokens
/// stand.
fn spawn_zones(
    commands: &mut Commands,
    battlefield: &Battlefield,
    centres: &[Vec2],
    cell: Vec2,
    ground: &mut impl FnMut(usize, Vec2) -> Sprite,
) -> Vec<Rect> {
    let mut token_areas = Vec::with_capacity(battlefield.len());
    for (at, (zone, centre)) in battlefield.zones().iter().zip(centres).enumerate() {
        let label = zone_label(zone);
        token_areas.push(token_area(*centre, cell, label.lines().count()));
        commands
            .spawn((
                BoardZone,
                DespawnOnExit(Screen::Battle),
                ground(at, cell),
                Transform::from_translation(centre.extend(0.0)),
            ))
            .with_child((
                Text2d::new(label),
                TextFont::from_font_size(ZONE_LABEL_SIZE),
                TextColor(ZONE_LABEL_COLOUR),
                TextLayout::justify(Justify::Center),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, cell.y / 2.0 - ZONE_PADDING, 1.0),
            ));
    }
    token_areas
}

/// A zone's label: its name, and a line of notes (how many it holds, its hazard) if it has any.
fn zone_label(zone: &crate::battlefield::ZoneDef) -> String {
    let mut notes = Vec::new();
    if let Some(capacity) = zone.capacity {
        notes.push(format!("holds {capacity}"));
    }
    if let Some(hazard) = &zone.hazard {
        notes.push(format!("{} (TN {})", hazard.name, hazard.tn));
    }
    if notes.is_empty() { zone.name.clone() } else { format!("{}\n{}", zone.name, notes.join(", ")) }
}

/// Where a zone's tokens stand: its box, less its padding and the label's lines at the top.
fn token_area(centre: Vec2, size: Vec2, label_lines: usize) -> Rect {
    let header = label_lines as f32 * ZONE_LABEL_SIZE * LINE_HEIGHT + ZONE_PADDING;
    let half = size / 2.0 - Vec2::splat(ZONE_PADDING);
    Rect::from_corners(centre - half, centre + Vec2::new(half.x, half.y - header))
}

/// The zones' adjacency as lines between their centres, drawn over the zones and under their
/// labels and tokens (gizmos would draw over everything).
fn spawn_links(commands: &mut Commands, battlefield: &Battlefield, centres: &[Vec2]) {
    for zone in 0..battlefield.len() as ZoneIdx {
        for &neighbour in battlefield.neighbours(zone) {
            let (Some(a), Some(b)) = (centres.get(usize::from(zone)), centres.get(usize::from(neighbour))) else {
                continue;
            };
            if neighbour <= zone {
                continue;
            }
            let span = *b - *a;
            commands.spawn((
                BoardZone,
                DespawnOnExit(Screen::Battle),
                Sprite::from_color(LINK_COLOUR, Vec2::new(span.length(), LINK_WIDTH)),
                Transform::from_translation(((*a + *b) / 2.0).extend(LINK_Z))
                    .with_rotation(Quat::from_rotation_z(span.to_angle())),
            ));
        }
    }
}

/// Row and column numbers around a grid of `width` by `height` squares.
fn spawn_grid_numbers(commands: &mut Commands, width: i32, height: i32) {
    let number = |text: String, at: Vec2| {
        (
            BoardZone,
            DespawnOnExit(Screen::Battle),
            Text2d::new(text),
            TextFont::from_font_size(GRID_NUMBER_SIZE),
            TextColor(GRID_NUMBER_COLOUR),
            Transform::from_translation(at.extend(1.0)),
        )
    };
    for x in 0..width {
        commands.spawn(number(x.to_string(), square_centre(Square::new(x, 0)) + Vec2::new(0.0, GRID_TILE * 0.75)));
    }
    for y in 0..height {
        commands.spawn(number(y.to_string(), square_centre(Square::new(0, y)) - Vec2::new(GRID_TILE * 0.75, 0.0)));
    }
}

/// What [`sync_tokens`] reads of a unit to draw its token.
type TokenSource = (Entity, &'static Name, &'static SideIndex, &'static Status, &'static Icon, &'static Loadout);

/// One token per unit on the field; tokens of units gone from the world go too. A token's outline
/// is its side's shape, its disc shows the unit's icon and a badge its main weapon.
fn sync_tokens(
    mut commands: Commands,
    units: Query<TokenSource, With<UnitId>>,
    tokens: Query<(Entity, &Token)>,
    icons: Res<Icons>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut palette: ResMut<TokenPalette>,
) {
    let palette = palette.as_mut();
    // Taken out while the palette lends materials, and put back: no copy each frame.
    let shared = palette.shared.take().unwrap_or_else(|| SharedTokenParts::new(&mut meshes, &mut materials));
    let mut have: HashMap<Entity, Entity> = HashMap::new();
    for (token, Token(unit)) in &tokens {
        if units.get(*unit).is_ok() {
            have.insert(*unit, token);
        } else {
            commands.entity(token).despawn();
        }
    }
    for (unit, name, side, status, icon, loadout) in &units {
        if have.contains_key(&unit) || *status == Status::Reserve {
            continue;
        }
        let colour = side_base_colour(side.0);
        let pictures = TokenPictures::of(&icon.0, &loadout.weapon_name, &loadout.weapon);
        let shape = side.0 % SIDE_SHAPES;
        commands
            .spawn((
                Token(unit),
                TokenMemory::default(),
                TokenScale::default(),
                TokenDetail::default(),
                DespawnOnExit(Screen::Battle),
                Mesh2d(shared.discs[shape].clone()),
                MeshMaterial2d(palette.material(colour, &mut materials)),
                Transform::from_xyz(0.0, 0.0, TOKEN_Z),
            ))
            .with_children(|token| {
                spawn_token_parts(token, name.as_str(), (&shared.rims[shape], &shared.rim_material));
                spawn_pictures(token, &pictures, &icons, TOKEN_RADIUS, (&shared.badge.0, &shared.badge.1));
            });
    }
    palette.shared = Some(shared);
}

/// The meshes and materials every token shares: each side shape's disc (and its few-cornered
/// speck, for tokens too small for detail) and rim, the rim's colour and the weapon badge.
struct SharedTokenParts {
    discs: Vec<Handle<Mesh>>,
    specks: Vec<Handle<Mesh>>,
    rims: Vec<Handle<Mesh>>,
    rim_material: Handle<ColorMaterial>,
    badge: (Handle<Mesh>, Handle<ColorMaterial>),
}

impl SharedTokenParts {
    fn new(meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>) -> Self {
        Self {
            discs: (0..SIDE_SHAPES).map(|shape| meshes.add(side_shape(shape, TOKEN_RADIUS))).collect(),
            specks: (0..SIDE_SHAPES).map(|shape| meshes.add(side_speck(shape, TOKEN_RADIUS))).collect(),
            rims: (0..SIDE_SHAPES).map(|shape| meshes.add(side_shape(shape, TOKEN_RADIUS + RIM_WIDTH))).collect(),
            rim_material: materials.add(ColorMaterial::from(RIM_COLOUR)),
            badge: badge_parts(TOKEN_RADIUS, meshes, materials),
        }
    }
}

/// A token's parts, drawn over its disc: a dark rim under it, its name line, its Stress and
/// Wound bars, the cross of the dead and its status mark.
fn spawn_token_parts(
    token: &mut bevy::ecs::hierarchy::ChildSpawnerCommands,
    name: &str,
    (rim_mesh, rim_material): (&Handle<Mesh>, &Handle<ColorMaterial>),
) {
    token.spawn((
        DetailPart,
        Mesh2d(rim_mesh.clone()),
        MeshMaterial2d(rim_material.clone()),
        Transform::from_xyz(0.0, 0.0, RIM_Z),
    ));
    // Its text, size and place are the labels' to set, once the room is known.
    token.spawn((
        NameLabel { full: name.to_string() },
        Text2d::new(""),
        TextFont::from_font_size(LABEL_PX),
        TextColor(Color::WHITE),
        Transform::from_xyz(0.0, -TOKEN_RADIUS, 1.0),
        Visibility::Hidden,
    ));
    token.spawn((
        StressBar,
        Sprite::from_color(STRESS_BAR_COLOUR, Vec2::new(BAR_WIDTH, BAR_HEIGHT)),
        Transform::from_xyz(0.0, TOKEN_RADIUS + STRESS_BAR_RISE, 1.0),
    ));
    token.spawn((
        WoundBar,
        Sprite::from_color(WOUND_BAR_COLOUR, Vec2::new(BAR_WIDTH, BAR_HEIGHT)),
        Transform::from_xyz(0.0, TOKEN_RADIUS + WOUND_BAR_RISE, 1.0),
    ));
    token.spawn((FallenCross, Transform::from_xyz(0.0, 0.0, CROSS_Z), Visibility::Hidden)).with_children(|cross| {
        let stroke = Vec2::new(2.0 * TOKEN_RADIUS * CROSS_LENGTH, CROSS_WIDTH);
        for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
            cross.spawn((
                Sprite::from_color(CROSS_COLOUR, stroke),
                Transform::from_rotation(Quat::from_rotation_z(angle)),
            ));
        }
    });
    token.spawn((
        StatusMark,
        DetailPart,
        Text2d::new(""),
        TextFont::from_font_size(TOKEN_LABEL_SIZE),
        TextColor(STATUS_MARK_COLOUR),
        Transform::from_xyz(0.0, 0.0, 2.0),
    ));
}

/// How a zone's tokens are laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdFit {
    /// Tokens per row.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// The tokens' scale.
    pub scale: f32,
    /// Whether each keeps a line for its name under it.
    pub named: bool,
}

/// Height of a token's name line on the board seen at `zoom`.
fn name_line(zoom: f32) -> f32 {
    (LABEL_PX * LABEL_LINE_HEIGHT + LABEL_ROOM) * zoom
}

/// How `count` tokens fill a zone's token area of `room` when the board is seen at `zoom`.
/// Each token needs its disc and bars at its scale and a line for its name at the names' size
/// on screen; the layouts that best serve both a good scale and a name of several characters
/// win, and of those the one with the largest tokens.
pub fn crowd_fit(room: Vec2, count: usize, zoom: f32) -> CrowdFit {
    let count = count.max(1);
    let char_width = LABEL_PX * LABEL_CHAR_WIDTH * zoom;
    let candidates: Vec<(CrowdFit, f32)> = (1..=count)
        .map(|columns| {
            let rows = count.div_ceil(columns);
            let cell = Vec2::new(room.x / columns as f32, room.y / rows as f32);
            let across = cell.x / TOKEN_BODY.x;
            let named = across.min((cell.y - name_line(zoom)) / TOKEN_BODY.y).min(ZONE_TOKEN_MAX_SCALE);
            let chars = (cell.x / char_width).floor();
            if named >= LEAST_NAMED_SCALE && chars >= FEWEST_CHARS as f32 {
                let quality = (named / GOOD_SCALE).min(chars / GOOD_NAME_CHARS).min(1.0);
                (CrowdFit { columns, rows, scale: named, named: true }, quality)
            } else {
                // No name fits: the token takes the whole cell, its name is in the hover card.
                let scale = across.min(cell.y / TOKEN_BODY.y).min(ZONE_TOKEN_MAX_SCALE);
                (CrowdFit { columns, rows, scale, named: false }, 0.0)
            }
        })
        .collect();
    let best_quality = candidates.iter().map(|(_, quality)| *quality).fold(0.0, f32::max);
    candidates
        .into_iter()
        .filter(|(_, quality)| *quality >= best_quality - FIT_TOLERANCE)
        .map(|(fit, _)| fit)
        .max_by(|a, b| a.scale.total_cmp(&b.scale).then(b.columns.cmp(&a.columns)))
        .unwrap_or(CrowdFit { columns: 1, rows: count, scale: LEAST_NAMED_SCALE, named: false })
}

/// Where the `place`-th of `count` tokens in a zone stands, and its scale: in rows across the
/// zone's token area (seen at `zoom`), the last row centred, every token inside the area.
pub fn crowd_slot(area: Rect, place: usize, count: usize, zoom: f32) -> (Vec2, f32) {
    let count = count.max(1);
    let fit = crowd_fit(area.size(), count, zoom);
    let name = if fit.named { name_line(zoom) } else { 0.0 };
    let footprint = TOKEN_BODY.y * fit.scale + name;
    let pitch =
        Vec2::new(area.width() / fit.columns as f32, (area.height() / fit.rows as f32).min(footprint * ROW_SPREAD));
    let row = place / fit.columns;
    let in_row = if row + 1 == fit.rows { count - row * fit.columns } else { fit.columns };
    let column = place % fit.columns;
    let x = (column as f32 - (in_row as f32 - 1.0) / 2.0) * pitch.x;
    let y = ((fit.rows as f32 - 1.0) / 2.0 - row as f32) * pitch.y;
    // The body sits at the top of the footprint, the name line under it; the disc lies below
    // the body's middle (the bars are above it).
    let lift = name / 2.0 - TOKEN_LIFT * fit.scale;
    (area.center() + Vec2::new(x, y + lift), fit.scale)
}

/// Tokens glide to their unit's place, so moves can be followed.
fn place_tokens(
    time: Res<Time>,
    board: Res<BoardLayout>,
    windows: Query<&Window>,
    units: Query<(&Zone, &SpawnOrder, &Status)>,
    mut tokens: Query<(&Token, &mut Transform, &mut TokenMemory)>,
    (shown, nudges): (Res<ShownPlaces>, Res<ShownNudges>),
) {
    let mut by_zone: HashMap<ZoneIdx, Vec<(u32, Entity)>> = HashMap::new();
    for (token, ..) in &tokens {
        if let Ok((zone, order, status)) = units.get(token.0)
            && *status != Status::Reserve
        {
            by_zone.entry(zone.0).or_default().push((order.0, token.0));
        }
    }
    for list in by_zone.values_mut() {
        list.sort_unstable();
    }
    let glide = 1.0 - (-GLIDE_RATE * time.delta_secs()).exp();
    let grid = board.squares.is_some();
    // Laid out for the zoom that frames the board (at the default UI scale), so zooming in
    // gives names room, not reflow.
    let window = windows.iter().next().map_or(super::camera::DEFAULT_WINDOW, Window::size);
    let zoom = super::camera::framing(&board, window, 1.0).map_or(1.0, |(_, zoom)| zoom);
    for (token, mut transform, mut memory) in &mut tokens {
        let Ok((zone, _, status)) = units.get(token.0) else {
            continue;
        };
        let Some(centre) = board.centres.get(zone.0 as usize) else {
            continue;
        };
        let crowd = by_zone.get(&zone.0).map_or(&[][..], Vec::as_slice);
        let goal = if grid {
            // One unit stands on a square; the fallen it may share it with lie aside in a corner.
            memory.crowd_scale = GRID_TOKEN_SCALE;
            let fallen_before = crowd
                .iter()
                .take_while(|(_, unit)| *unit != token.0)
                .filter(|(_, unit)| units.get(*unit).is_ok_and(|(_, _, status)| !status.on_field()))
                .count();
            if status.on_field() || crowd.len() == 1 {
                *centre
            } else {
                memory.crowd_scale = GRID_TOKEN_SCALE * SHARED_SQUARE_SCALE;
                const CORNERS: [Vec2; 4] =
                    [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)];
                *centre + CORNERS[fallen_before % CORNERS.len()] * GRID_TILE * FALLEN_CORNER
            }
        } else {
            let place = crowd.iter().position(|(_, unit)| *unit == token.0).unwrap_or(0);
            let area =
                board.token_areas.get(zone.0 as usize).copied().unwrap_or(Rect::from_center_size(*centre, board.cell));
            let (at, scale) = crowd_slot(area, place, crowd.len(), zoom);
            memory.crowd_scale = scale;
            at
        };
        // A walker shows where its walk has got to.
        let goal = shown.0.get(&token.0).copied().unwrap_or(goal);
        let goal = goal + nudges.0.get(&token.0).copied().unwrap_or_default();
        let here = transform.translation.truncate();
        // A new token appears where it stands rather than flying in from the middle.
        let arrived = here == Vec2::ZERO || here.distance_squared(goal) < GLIDE_SNAP * GLIDE_SNAP;
        let next = if arrived { goal } else { here.lerp(goal, glide) };
        let depth = if Look::of(*status) == Look::Fallen { FALLEN_Z } else { TOKEN_Z };
        // Written only when it moves: a changed transform is propagated to all the token's parts.
        let at = next.extend(depth);
        if transform.translation != at {
            transform.translation = at;
        }
    }
}

/// A token's bar: where it is, and whether it shows.
type Bar = (&'static mut Transform, &'static mut Visibility);
/// A Wound bar, told apart from the Stress bar and the token for the borrow checker.
type WoundBarOnly = (With<WoundBar>, Without<StressBar>, Without<Token>);
/// Anything but a bar.
type NotABar = (Without<StressBar>, Without<WoundBar>);
/// What a token shows of its unit.
type UnitLooks =
    (&'static Stress, &'static Wounds, &'static Status, &'static Conditions, &'static SideIndex, Has<Surprised>);
/// A token as [`refresh_tokens`] redraws it.
type TokenState = (
    &'static Token,
    &'static mut TokenMemory,
    &'static mut TokenScale,
    &'static mut TokenDetail,
    &'static Children,
    &'static mut Transform,
    &'static mut MeshMaterial2d<ColorMaterial>,
    &'static mut Mesh2d,
);
/// A part shown only with detail, told apart from the bars and the cross.
type DetailOnly = (With<DetailPart>, NotABar, Without<FallenCross>);

/// The parts of a token that [`refresh_tokens`] redraws.
#[derive(bevy::ecs::system::SystemParam)]
struct TokenParts<'w, 's> {
    stress_bars: Query<'w, 's, Bar, (With<StressBar>, Without<Token>)>,
    wound_bars: Query<'w, 's, Bar, WoundBarOnly>,
    crosses: Query<'w, 's, &'static mut Visibility, (With<FallenCross>, NotABar)>,
    marks: Query<'w, 's, &'static mut Text2d, With<StatusMark>>,
    details: Query<'w, 's, &'static mut Visibility, DetailOnly>,
    cameras: Query<'w, 's, (&'static Projection, &'static mut Msaa), With<super::camera::BoardCamera>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
    palette: ResMut<'w, TokenPalette>,
}

/// One disc material per colour, shared by every token of that colour: a thousand tokens of a
/// few colours are then drawn in a few batches, not one draw each.
/// It also keeps the meshes every token shares.
#[derive(Resource, Default)]
pub struct TokenPalette {
    discs: HashMap<[u8; 4], Handle<ColorMaterial>>,
    shared: Option<SharedTokenParts>,
}

impl TokenPalette {
    /// The shared material of `colour`, made the first time it is asked for.
    fn material(&mut self, colour: Color, materials: &mut Assets<ColorMaterial>) -> Handle<ColorMaterial> {
        self.discs
            .entry(colour.to_srgba().to_u8_array())
            .or_insert_with(|| materials.add(ColorMaterial::from(colour)))
            .clone()
    }
}

/// Bars, marks, the disc's colour (greyed as the unit falls), and a flash on every hit.
fn refresh_tokens(
    (time, shown): (Res<Time>, Res<ShownVitals>),
    units: Query<UnitLooks>,
    mut tokens: Query<TokenState>,
    mut parts: TokenParts,
) {
    let zoom = parts.cameras.iter().next().map_or(1.0, |(projection, _)| super::camera::zoom_of(projection));
    // The board's largest token decides for all, so a small level's fallen and crowded tokens
    // keep their detail beside full-size ones (the crowd scale is last frame's, as is the zoom).
    let largest = tokens.iter().map(|(_, memory, ..)| memory.crowd_scale).fold(0.0, f32::max);
    let detailed = tokens.is_empty() || TOKEN_RADIUS * largest >= DETAIL_RADIUS_PX * zoom;
    for (token, mut memory, mut settled, mut detail, children, mut transform, mut material, mut disc) in &mut tokens {
        let Ok((stress, wounds, status, conditions, side, surprised)) = units.get(token.0) else {
            continue;
        };
        // Until its count's lines come up, a token shows the unit as it was.
        let (stress_now, wounds_now, status) = match shown.0.get(&token.0) {
            Some(vitals) => (vitals.stress, vitals.wounds, &vitals.status),
            None => (stress.current, wounds.current, status),
        };
        let health = stress_now + wounds_now;
        if memory.health != i32::MIN && health < memory.health {
            memory.flash = FLASH_SECONDS;
        }
        memory.health = health;
        memory.flash = (memory.flash - time.delta_secs()).max(0.0);
        let pulse = 1.0 + FLASH_SWELL * (memory.flash / FLASH_SECONDS);
        let look = Look::of(*status);
        let fallen = look == Look::Fallen;
        let scale = memory.crowd_scale * if fallen { FALLEN_SCALE } else { 1.0 };
        settled.set_if_neq(TokenScale(scale));
        let drawn = Vec3::splat(scale * if fallen { 1.0 } else { pulse });
        if transform.scale != drawn {
            transform.scale = drawn;
        }
        if detail.set_if_neq(TokenDetail(detailed)) {
            if let Some(shared) = &parts.palette.shared {
                let shapes = if detailed { &shared.discs } else { &shared.specks };
                if let Some(shape) = shapes.get(side.0 % SIDE_SHAPES) {
                    disc.0 = shape.clone();
                }
            }
            let shown = if detailed { Visibility::Inherited } else { Visibility::Hidden };
            let mut parts_shown = parts.details.iter_many_mut(children.iter());
            while let Some(mut part) = parts_shown.fetch_next() {
                part.set_if_neq(shown);
            }
        }
        // The colour follows the look and the palette, which the settings may switch mid-battle.
        let colour = token_colour(side_base_colour(side.0), look);
        if memory.colour != Some(colour) {
            material.0 = parts.palette.material(colour, &mut parts.materials);
            memory.colour = Some(colour);
        }
        // The fallen need no bars: the grey and the mark say it all.
        let bars = if fallen { Visibility::Hidden } else { Visibility::Inherited };
        for child in children.iter() {
            if let Ok((mut bar, mut shown)) = parts.stress_bars.get_mut(child) {
                fill_bar(&mut bar, stress_now, stress.max);
                shown.set_if_neq(bars);
            }
            if let Ok((mut bar, mut shown)) = parts.wound_bars.get_mut(child) {
                fill_bar(&mut bar, wounds_now, wounds.max);
                shown.set_if_neq(bars);
            }
            if let Ok(mut cross) = parts.crosses.get_mut(child) {
                let dead = *status == Status::Dead;
                cross.set_if_neq(if dead { Visibility::Inherited } else { Visibility::Hidden });
            }
            if let Ok(mut mark) = parts.marks.get_mut(child) {
                // The cross marks the dead; the word would only cover it.
                let text =
                    if *status == Status::Dead { String::new() } else { status_mark(*status, conditions, surprised) };
                if mark.0 != text {
                    mark.0 = text;
                }
            }
        }
    }
    // When every token is a speck, smoothing their edges is lost on the eye but, on a software
    // renderer, multisampling took about half of each frame: the siege framed whole is drawn
    // without it. Any token large enough for detail brings it back.
    let msaa = if detailed { Msaa::default() } else { Msaa::Off };
    for (_, mut camera) in &mut parts.cameras {
        camera.set_if_neq(msaa);
    }
}

/// Shrinks a bar from the right to show `current` of `max` (touching it only when that changes).
fn fill_bar(bar: &mut Mut<Transform>, current: i32, max: i32) {
    let share = current.max(0) as f32 / max.max(1) as f32;
    let mut filled = **bar;
    filled.scale.x = share;
    filled.translation.x = -BAR_WIDTH * (1.0 - share) / 2.0;
    bar.set_if_neq(filled);
}

/// A token's status mark: one short glyph group a player learns at a glance.
pub fn status_mark(status: Status, conditions: &Conditions, surprised: bool) -> String {
    let mut mark = match status {
        Status::Active => String::new(),
        Status::Incapacitated => "INC".into(),
        Status::Dying => "DYING".into(),
        Status::Dead => "DEAD".into(),
        Status::Fled => "FLED".into(),
        Status::Surrendered => "YIELD".into(),
        Status::Reserve => String::new(),
        Status::Unconscious => "OUT".into(),
    };
    let mut add = |text: &str| {
        if !mark.is_empty() {
            mark.push(' ');
        }
        mark.push_str(text);
    };
    if surprised {
        add("?!");
    }
    if conditions.full_defense {
        add("DEF");
    }
    if conditions.stabilised {
        add("+");
    }
    mark
}

/// The pointer hovers tokens and zones; a pick selects (or targets) the token under it, or
/// else picks the zone (or grid square) under it as the destination of a move.
#[expect(clippy::too_many_arguments, reason = "the pointer meets tokens, zones and squares")]
fn hover_and_pick(
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tokens: Query<(&Token, &GlobalTransform)>,
    players: Query<&ActionState<PlayerAction>, With<Player>>,
    board: Res<BoardLayout>,
    mut hovered: ResMut<Hovered>,
    mut hovered_zone: ResMut<HoveredZone>,
    mut commands: MessageWriter<UiCommand>,
    ui: Res<BattleUi>,
) {
    let pointer = windows.iter().next().and_then(Window::cursor_position);
    let world = pointer.and_then(|pointer| {
        cameras.iter().find_map(|(camera, transform)| camera.viewport_to_world_2d(transform, pointer).ok())
    });
    hovered.0 = world.and_then(|world| {
        tokens
            .iter()
            .map(|(token, transform)| {
                let reach = TOKEN_RADIUS * HOVER_REACH * transform.scale().x;
                let distance = transform.translation().truncate().distance(world);
                // The living lie over the fallen, so they win when both are under the pointer.
                (token.0, distance / reach, transform.translation().z)
            })
            .filter(|(_, reach, _)| *reach <= 1.0)
            .min_by(|a, b| b.2.total_cmp(&a.2).then(a.1.total_cmp(&b.1)))
            .map(|(unit, ..)| unit)
    });
    let zone = world.and_then(|world| board.zone_at(world));
    if hovered_zone.0 != zone {
        hovered_zone.0 = zone;
    }
    let picked = players.iter().any(|state| state.just_pressed(&PlayerAction::Pick));
    if !picked {
        return;
    }
    // Picking the move after the action (`C-MOVE-1`) picks a place, even under a token.
    if let Some(unit) = hovered.0.filter(|_| !ui.picking_then_move) {
        commands.write(UiCommand::Select(unit));
    } else if let Some(zone) = zone {
        commands.write(UiCommand::PickZone(zone));
    }
}

/// Nothing on the board is hovered while the pointer is over a panel.
fn forget_hover(mut hovered: ResMut<Hovered>, mut hovered_zone: ResMut<HoveredZone>) {
    if hovered.0.is_some() {
        hovered.0 = None;
    }
    if hovered_zone.0.is_some() {
        hovered_zone.0 = None;
    }
}

/// On a grid, tags the drafted target with its cover from where the actor will stand, for a
/// ranged action.
fn show_cover(
    options: Res<DeclarationOptions>,
    ui: Res<BattleUi>,
    tokens: Query<(&Token, &Transform), Without<CoverTag>>,
    cameras: Query<&Projection, With<super::camera::BoardCamera>>,
    mut tags: Query<(&mut Text2d, &mut TextColor, &mut Transform, &mut Visibility), With<CoverTag>>,
) {
    // The tag keeps a readable size on screen however far out a large grid is framed.
    let zoom = cameras
        .iter()
        .find_map(|projection| match projection {
            Projection::Orthographic(orthographic) => Some(orthographic.scale),
            _ => None,
        })
        .unwrap_or(1.0)
        .max(1.0);
    let drafted = options.drafted(&ui.draft).filter(|_| ui.curtain.is_none());
    let shown = drafted.and_then(|entry| {
        let target = entry.action.target?;
        let (_, transform) = tokens.iter().find(|(token, _)| token.0 == target)?;
        Some((entry.cover?, transform.translation.truncate()))
    });
    for (mut text, mut colour, mut transform, mut visibility) in &mut tags {
        let Some((cover, at)) = shown else {
            *visibility = Visibility::Hidden;
            continue;
        };
        let (words, tint) = match cover {
            Cover::None => ("no cover", NO_COVER_COLOUR),
            Cover::Half => ("half cover", HALF_COVER_COLOUR),
            Cover::Full => ("full cover", FULL_COVER_COLOUR),
        };
        if text.0 != words {
            text.0 = words.to_string();
        }
        colour.0 = tint;
        let above = TOKEN_RADIUS + 16.0 + COVER_TAG_SIZE * zoom / 2.0;
        transform.translation = (at + Vec2::new(0.0, above)).extend(transform.translation.z);
        transform.scale = Vec3::splat(zoom);
        *visibility = Visibility::Visible;
    }
}

/// What the rings are drawn from.
#[derive(bevy::ecs::system::SystemParam)]
struct RingView<'w, 's> {
    board: Res<'w, BoardLayout>,
    tokens: Query<'w, 's, (&'static Token, &'static GlobalTransform, &'static TokenDetail)>,
    threatened: Query<'w, 's, (), With<Threatened>>,
    ui: Res<'w, BattleUi>,
    options: Res<'w, DeclarationOptions>,
    hovered: Res<'w, Hovered>,
    hovered_zone: Res<'w, HoveredZone>,
}

/// Rings around tokens: threatened, declaring, targeted, selected, hovered.
fn draw_rings(mut gizmos: Gizmos, view: RingView) {
    let RingView { board, tokens, threatened, ui, options, hovered, hovered_zone } = view;
    if ui.curtain.is_some() {
        return;
    }
    draw_destinations(&mut gizmos, &board, &ui, &options, hovered_zone.0);
    let target = options.drafted(&ui.draft).and_then(|entry| entry.action.target);
    for (token, transform, detail) in &tokens {
        let centre = transform.translation().truncate();
        let radius = TOKEN_RADIUS * transform.scale().x;
        if threatened.get(token.0).is_ok() {
            // Broken into arcs, so a threat reads by its shape too and never merges with a side's
            // colour or the token's outline.
            for quarter in 0..THREAT_ARCS {
                let turn = std::f32::consts::TAU * quarter as f32 / THREAT_ARCS as f32;
                let at = Isometry2d::new(centre, Rot2::radians(turn));
                let arc = gizmos.arc_2d(at, THREAT_ARC, radius * THREAT_RING_REACH, THREAT_COLOUR);
                // Around a speck a bent stroke reads as well as a smooth arc.
                if !detail.0 {
                    arc.resolution(SPECK_ARC_SEGMENTS);
                }
            }
        }
        let mut ring = |colour: Color, extra: f32| {
            gizmos.circle_2d(Isometry2d::from_translation(centre), radius + extra, colour);
        };
        if options.unit == Some(token.0) {
            ring(DECLARER_COLOUR, 10.0);
        }
        if target == Some(token.0) {
            ring(TARGET_COLOUR, 14.0);
        }
        if ui.selected == Some(token.0) {
            ring(SELECTED_COLOUR, 18.0);
        }
        if hovered.0 == Some(token.0) {
            ring(HOVER_COLOUR, 22.0);
        }
    }
}

/// Outlines where the drafted move goes; on a grid also every square the drafted kind can move
/// to, and the square under the pointer.
fn draw_destinations(
    gizmos: &mut Gizmos,
    board: &BoardLayout,
    ui: &BattleUi,
    options: &DeclarationOptions,
    hovered: Option<ZoneIdx>,
) {
    if options.unit.is_none() {
        return;
    }
    let grid = board.squares.is_some();
    let mut outline = |zone: ZoneIdx, colour: Color, inset: f32| {
        if let Some(centre) = board.centres.get(usize::from(zone)) {
            gizmos.rect_2d(Isometry2d::from_translation(*centre), board.cell - Vec2::splat(inset), colour);
        }
    };
    if grid {
        if let Some((_, entries)) = ui.draft.kind.and_then(|kind| options.kinds.get(kind)) {
            let mut shown: Vec<ZoneIdx> = entries.iter().filter_map(|entry| entry.action.move_to).collect();
            shown.sort_unstable();
            shown.dedup();
            for zone in shown {
                outline(zone, DESTINATION_COLOUR, 10.0);
            }
        }
        if let Some(zone) = hovered {
            outline(zone, HOVER_SQUARE_COLOUR, 4.0);
        }
    }
    if let Some(zone) = options.drafted(&ui.draft).and_then(|entry| entry.action.move_to) {
        outline(zone, DRAFTED_DESTINATION_COLOUR, if grid { 6.0 } else { 0.0 });
    }
    // The move after the action (`C-MOVE-1`): the places on offer while picking, then the one set.
    if ui.picking_then_move {
        for &zone in &options.after {
            outline(zone, THEN_MOVE_OFFERED_COLOUR, if grid { 12.0 } else { 4.0 });
        }
    }
    if let Some(zone) = ui.draft.then_move {
        outline(zone, THEN_MOVE_COLOUR, 2.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zone's token area as the board lays out a zone of `height` with a one-line label.
    fn area(height: f32) -> Rect {
        token_area(Vec2::ZERO, Vec2::new(ZONE_WIDTH, height), 1)
    }

    #[test]
    fn every_token_of_a_crowd_stays_inside_its_zone() {
        for height in [ZONE_HEIGHT_MIN, ZONE_HEIGHT_MAX] {
            for zoom in [0.5, 1.0, 2.0, 4.0] {
                for count in 1..=40 {
                    let area = area(height);
                    for place in 0..count {
                        let (at, scale) = crowd_slot(area, place, count, zoom);
                        let body = token_body(at, scale);
                        let inside = area.inflate(0.5).contains(body.min) && area.inflate(0.5).contains(body.max);
                        assert!(inside, "{count} at zoom {zoom}, height {height}: #{place} {body:?} not in {area:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_few_tokens_get_full_size_and_room_for_their_names() {
        let fit = crowd_fit(area(ZONE_HEIGHT_MAX).size(), 2, 2.0);
        assert!(fit.named && fit.scale >= GOOD_SCALE, "{fit:?}");
        // A crowd gives up names before its tokens shrink to nothing.
        let crowd = crowd_fit(area(ZONE_HEIGHT_MIN).size(), 40, 2.0);
        assert!(!crowd.named && crowd.scale > 0.0, "{crowd:?}");
    }

    #[test]
    fn the_fallen_are_grey_and_the_down_paler() {
        let side = SIDE_COLOURS[1];
        let spread = |colour: Color| {
            let colour = colour.to_srgba();
            let channels = [colour.red, colour.green, colour.blue];
            channels.iter().copied().fold(f32::MIN, f32::max) - channels.iter().copied().fold(f32::MAX, f32::min)
        };
        assert_eq!(token_colour(side, Look::Fighting), side);
        assert!(spread(token_colour(side, Look::Down)) < spread(side));
        assert!(spread(token_colour(side, Look::Fallen)) < spread(token_colour(side, Look::Down)));
        assert_eq!(Look::of(Status::Dying), Look::Down);
        assert_eq!(Look::of(Status::Fled), Look::Fallen);
    }

    /// The on-screen radius of a fighting token on a grid of `width` by `height` squares framed
    /// whole in the default window.
    fn framed_radius(width: i32, height: i32) -> f32 {
        let centres = (0..height).flat_map(|y| (0..width).map(move |x| square_centre(Square::new(x, y)))).collect();
        let squares = Some((width as u16, Vec::new()));
        let board = BoardLayout { centres, cell: Vec2::splat(GRID_TILE), squares, token_areas: Vec::new() };
        let (_, zoom) =
            super::super::camera::framing(&board, super::super::camera::DEFAULT_WINDOW, 1.0).expect("laid out");
        TOKEN_RADIUS * GRID_TOKEN_SCALE / zoom
    }

    #[test]
    fn four_a_side_grids_framed_whole_keep_detail_and_the_siege_drops_it() {
        // The largest shipped 4-vs-4 grid (the Forest Road, 30x18) and the 64x64 siege.
        assert!(framed_radius(30, 18) >= DETAIL_RADIUS_PX, "{}", framed_radius(30, 18));
        assert!(framed_radius(64, 64) < DETAIL_RADIUS_PX, "{}", framed_radius(64, 64));
    }

    /// A token is at least this wide on screen in the default window, where its zone has room.
    const LEAST_TOKEN_PX: f32 = 40.0;
    /// A zone has room for tokens that wide while it holds at most this many (a 4-vs-4 side
    /// and its foes); the Great Melee's crowds of sixteen shrink theirs to fit.
    const ROOMY_CROWD: usize = 8;

    /// The on-screen width of the tokens in each zone of shipped level `name` as its battle
    /// starts, framed whole in the default window: `(zone, tokens in it, width in pixels)`.
    fn starting_token_widths(name: &str) -> Vec<(String, usize, f32)> {
        let template = crate::levels::load_level(&std::path::Path::new("levels").join(name)).expect("a shipped level");
        let battlefield = &template.battlefield;
        let window = super::super::camera::DEFAULT_WINDOW;
        let steps = layout(battlefield);
        let cell = Vec2::new(ZONE_WIDTH, zone_height(&steps, super::super::camera::board_view(window, 1.0).0).round());
        let centres: Vec<Vec2> =
            steps.iter().map(|step| *step * Vec2::new(ZONE_SPACING, cell.y + ZONE_GAP_DOWN)).collect();
        let token_areas = battlefield
            .zones()
            .iter()
            .zip(&centres)
            .map(|(zone, centre)| token_area(*centre, cell, zone_label(zone).lines().count()))
            .collect::<Vec<_>>();
        let board = BoardLayout { centres, cell, squares: None, token_areas: token_areas.clone() };
        let (_, zoom) = super::super::camera::framing(&board, window, 1.0).expect("laid out");
        battlefield
            .zones()
            .iter()
            .enumerate()
            .filter_map(|(at, zone)| {
                let count = template
                    .units
                    .iter()
                    .filter(|unit| usize::from(unit.zone) == at && unit.arrives.is_none() && unit.summoned_by.is_none())
                    .count();
                let fit = crowd_fit(token_areas[at].size(), count, zoom);
                (count > 0).then(|| (zone.name.clone(), count, TOKEN_BODY.x * fit.scale / zoom))
            })
            .collect()
    }

    #[test]
    fn tokens_are_40_px_across_at_1280x800_wherever_their_zone_has_room() {
        // Laid out for it so far: the ambush (two zones across, three down) and the levels
        // whose boards were already compact. Still under 40 px, their zones set in a long row
        // of columns: the Great Melee (eight zones of eight, about 37 px), reinforcements (39),
        // zones_and_tests_mill (26 to 34) and zones_and_tests_skirmish (26 to 31).
        let levels = ["ambush.ron", "duel.ron", "sealed_orders.ron", "tutorial.ron"];
        let small: Vec<String> = levels
            .iter()
            .flat_map(|level| {
                starting_token_widths(level)
                    .into_iter()
                    .filter(|(_, count, width)| *count <= ROOMY_CROWD && *width < LEAST_TOKEN_PX)
                    .map(move |(zone, count, width)| format!("{level}, {zone}: {count} tokens {width:.1} px across"))
            })
            .collect();
        assert!(small.is_empty(), "tokens under {LEAST_TOKEN_PX} px: {small:#?}");
    }

    #[test]
    fn wide_boards_get_tall_zones_and_tall_boards_short_ones() {
        let wide: Vec<Vec2> = (0..5).map(|x| Vec2::new(x as f32, 0.0)).collect();
        let tall: Vec<Vec2> = (0..5).map(|y| Vec2::new(0.0, y as f32)).collect();
        let window = Vec2::new(700.0, 760.0);
        assert_eq!(zone_height(&wide, window), ZONE_HEIGHT_MAX);
        assert_eq!(zone_height(&tall, window), ZONE_HEIGHT_MIN);
    }
}
