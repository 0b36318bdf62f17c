//! The board in Bevy 2D: zones as labelled areas joined by their adjacency (or, on a grid
//! battlefield, a grid of square tiles: open, wall, slit and difficult ground), units as tokens
//! coloured by side with Stress and Wound bars and status marks, threat, hover and selection
//! rings, the drafted target's cover, and short animations for moves and hits.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;
use leafwing_input_manager::prelude::ActionState;

use super::controls::{BattleUi, DeclarationOptions, Player, PlayerAction, UiCommand};
use super::session::Screen;
use crate::battlefield::grid::{SCALE, SLIT_HALF_WIDTH};
use crate::battlefield::{Battlefield, Cover, GridMap, Square, Terrain, ZoneIdx};
use crate::rules::components::*;

/// Board pixels per zone step.
pub const ZONE_SPACING: f32 = 280.0;
/// A zone's drawn size.
pub const ZONE_SIZE: Vec2 = Vec2::new(255.0, 200.0);
/// A grid square's drawn size, in board pixels.
pub const GRID_TILE: f32 = 80.0;
/// Gap between grid tiles, which draws the grid lines.
const GRID_GAP: f32 = 2.0;
/// Size of the grid's row and column numbers, in board pixels.
const GRID_NUMBER_SIZE: f32 = 18.0;
/// A token's radius.
pub const TOKEN_RADIUS: f32 = 20.0;
/// Distance between token centres inside a zone.
const TOKEN_PITCH: f32 = 60.0;
/// Tokens per row inside a zone.
const TOKENS_PER_ROW: usize = 4;
/// Width of a token's Stress and Wound bars.
const BAR_WIDTH: f32 = 44.0;
/// Height of a bar.
const BAR_HEIGHT: f32 = 5.0;
/// Zone label size, in board pixels.
const ZONE_LABEL_SIZE: f32 = 22.0;
/// Token name and mark size, in board pixels.
const TOKEN_LABEL_SIZE: f32 = 15.0;
/// How fast tokens glide to where they stand (fraction of the way per second, exponential).
const GLIDE_RATE: f32 = 8.0;
/// Fallen units' tokens shrink to this.
const FALLEN_SCALE: f32 = 0.6;
/// How long a hit flashes, in seconds.
const FLASH_SECONDS: f32 = 0.45;
/// Side colours, by side index.
pub const SIDE_COLOURS: [Color; 6] = [
    Color::srgb(0.25, 0.55, 0.95),
    Color::srgb(0.9, 0.3, 0.25),
    Color::srgb(0.3, 0.75, 0.35),
    Color::srgb(0.85, 0.7, 0.2),
    Color::srgb(0.65, 0.4, 0.85),
    Color::srgb(0.3, 0.8, 0.8),
];
/// A plain zone.
const ZONE_COLOUR: Color = Color::srgb(0.2, 0.22, 0.2);
/// A zone with a hazard.
const HAZARD_ZONE_COLOUR: Color = Color::srgb(0.3, 0.22, 0.12);
/// A zone with a capacity limit.
const NARROW_ZONE_COLOUR: Color = Color::srgb(0.17, 0.2, 0.28);
/// Adjacency lines.
const LINK_COLOUR: Color = Color::srgba(0.8, 0.8, 0.7, 0.35);
/// An open grid square.
const OPEN_TILE_COLOUR: Color = Color::srgb(0.4, 0.42, 0.37);
/// Difficult ground (rubble, mud).
const DIFFICULT_TILE_COLOUR: Color = Color::srgb(0.42, 0.34, 0.2);
/// A wall, and the solid part of a slit.
const WALL_TILE_COLOUR: Color = Color::srgb(0.08, 0.08, 0.1);
/// The opening of an arrow slit.
const SLIT_GAP_COLOUR: Color = Color::srgb(0.3, 0.32, 0.28);
/// The lines between grid squares.
const GRID_LINE_COLOUR: Color = Color::srgb(0.16, 0.17, 0.15);
/// Row and column numbers.
const GRID_NUMBER_COLOUR: Color = Color::srgba(0.85, 0.85, 0.8, 0.6);
/// Outline of the places the drafted action can move to.
const DESTINATION_COLOUR: Color = Color::srgba(0.4, 1.0, 0.6, 0.35);
/// Outline of the drafted destination.
const DRAFTED_DESTINATION_COLOUR: Color = Color::srgb(0.4, 1.0, 0.6);
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
/// The ring of a threatened unit.
const THREAT_COLOUR: Color = Color::srgb(1.0, 0.25, 0.2);
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
struct BoardZone;

/// The tag naming the drafted target's cover, on a grid.
#[derive(Component, Debug)]
struct CoverTag;

/// A unit's token, pointing at the unit.
#[derive(Component, Debug)]
pub struct Token(pub Entity);

/// A token's Stress bar.
#[derive(Component, Debug)]
struct StressBar;

/// A token's Wound bar.
#[derive(Component, Debug)]
struct WoundBar;

/// A token's status text.
#[derive(Component, Debug)]
struct StatusMark;

/// What a token last showed, to notice hits.
#[derive(Component, Debug, Default)]
struct TokenMemory {
    health: i32,
    flash: f32,
    /// Shrinks tokens in crowded zones to the room they have.
    crowd_scale: f32,
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

/// The unit under the pointer.
#[derive(Resource, Debug, Default)]
pub struct Hovered(pub Option<Entity>);

/// The zone (or grid square) under the pointer.
#[derive(Resource, Debug, Default)]
pub struct HoveredZone(pub Option<ZoneIdx>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardLayout>().init_resource::<Hovered>().init_resource::<HoveredZone>().add_systems(
        Update,
        (
            rebuild_zones,
            sync_tokens,
            place_tokens,
            refresh_tokens,
            (hover_and_pick).run_if(not(egui_wants_any_pointer_input)),
            show_cover,
            draw_links_and_rings,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
}

/// Where a grid square is drawn: column x to the right, row 0 at the top.
pub fn square_centre(square: Square) -> Vec2 {
    Vec2::new(square.x as f32, -(square.y as f32)) * GRID_TILE
}

/// Zone centres: on a grid, each square where it lies; else the level's positions where given,
/// else columns by distance from the first zone.
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
    let mut centres = vec![Vec2::ZERO; count];
    for (column, zones) in &columns {
        let height = zones.len() as f32;
        for (row, zone) in zones.iter().enumerate() {
            let x = (*column as f32 - widest / 2.0) * ZONE_SPACING;
            let y = ((height - 1.0) / 2.0 - row as f32) * ZONE_SPACING * 0.8;
            centres[*zone as usize] = Vec2::new(x, y);
        }
    }
    for (at, zone) in battlefield.zones().iter().enumerate() {
        if let Some((x, y)) = zone.position {
            centres[at] = Vec2::new(x, y) * ZONE_SPACING;
        }
    }
    centres
}

fn rebuild_zones(
    mut commands: Commands,
    battlefield: Res<Battlefield>,
    zones: Query<Entity, With<BoardZone>>,
    mut board: ResMut<BoardLayout>,
    mut laid_out: Local<Option<usize>>,
) {
    // The resource is replaced at every battle start; rebuild then.
    if !battlefield.is_changed() && laid_out.is_some() {
        return;
    }
    *laid_out = Some(battlefield.len());
    for zone in &zones {
        commands.entity(zone).despawn();
    }
    board.centres = layout(&battlefield);
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
        board.cell = Vec2::splat(GRID_TILE);
        let cells = usize::from(grid.width()) * usize::from(grid.height());
        let squares = (0..cells).map(|cell| battlefield.zone_at(grid.square(cell))).collect();
        board.squares = Some((grid.width(), squares));
        spawn_grid(&mut commands, grid);
        return;
    }
    board.cell = ZONE_SIZE;
    board.squares = None;
    for (at, zone) in battlefield.zones().iter().enumerate() {
        let colour = match (&zone.hazard, zone.capacity) {
            (Some(_), _) => HAZARD_ZONE_COLOUR,
            (None, Some(_)) => NARROW_ZONE_COLOUR,
            (None, None) => ZONE_COLOUR,
        };
        let mut notes = Vec::new();
        if let Some(capacity) = zone.capacity {
            notes.push(format!("holds {capacity}"));
        }
        if let Some(hazard) = &zone.hazard {
            notes.push(format!("{} (TN {})", hazard.name, hazard.tn));
        }
        let label = if notes.is_empty() { zone.name.clone() } else { format!("{}\n{}", zone.name, notes.join(", ")) };
        let centre = board.centres[at];
        commands
            .spawn((
                BoardZone,
                DespawnOnExit(Screen::Battle),
                Sprite::from_color(colour, ZONE_SIZE),
                Transform::from_translation(centre.extend(0.0)),
            ))
            .with_child((
                Text2d::new(label),
                TextFont::from_font_size(ZONE_LABEL_SIZE),
                TextColor(Color::srgba(0.9, 0.9, 0.85, 0.85)),
                Transform::from_xyz(0.0, ZONE_SIZE.y / 2.0 - ZONE_LABEL_SIZE * 1.2, 1.0),
            ));
    }
}

/// Draws a grid battlefield: a tile per square on a background that shows as the grid lines,
/// walls solid and merging, slits as walls with a gap, and row and column numbers around it.
fn spawn_grid(commands: &mut Commands, grid: &GridMap) {
    let (width, height) = (i32::from(grid.width()), i32::from(grid.height()));
    let top_left = square_centre(Square::new(0, 0));
    let bottom_right = square_centre(Square::new(width - 1, height - 1));
    let extent = Vec2::new(width as f32, height as f32) * GRID_TILE;
    commands.spawn((
        BoardZone,
        DespawnOnExit(Screen::Battle),
        Sprite::from_color(GRID_LINE_COLOUR, extent + Vec2::splat(GRID_GAP)),
        Transform::from_translation(((top_left + bottom_right) / 2.0).extend(-1.0)),
    ));
    let solid = |x: i32, y: i32| {
        let square = Square::new(x, y);
        grid.contains(square) && grid.terrain(square).solid()
    };
    // The slit's opening is a band around its centre, as wide as the rules' sight opening.
    let gap = GRID_TILE * (2 * SLIT_HALF_WIDTH) as f32 / SCALE as f32;
    for y in 0..height {
        for x in 0..width {
            let square = Square::new(x, y);
            let centre = square_centre(square);
            let tile = |colour: Color, size: Vec2| {
                (
                    BoardZone,
                    DespawnOnExit(Screen::Battle),
                    Sprite::from_color(colour, size),
                    Transform::from_translation(centre.extend(0.0)),
                )
            };
            let inset = Vec2::splat(GRID_TILE - GRID_GAP);
            match grid.terrain(square) {
                Terrain::Open => {
                    commands.spawn(tile(OPEN_TILE_COLOUR, inset));
                }
                Terrain::Difficult => {
                    commands.spawn(tile(DIFFICULT_TILE_COLOUR, inset)).with_children(|tile| {
                        // A few stones, so difficult ground reads as more than a colour.
                        for (dx, dy, size) in [(-0.22, 0.2, 0.14), (0.18, 0.05, 0.1), (-0.05, -0.24, 0.12)] {
                            tile.spawn((
                                Sprite::from_color(WALL_TILE_COLOUR.with_alpha(0.35), Vec2::splat(GRID_TILE * size)),
                                Transform::from_xyz(dx * GRID_TILE, dy * GRID_TILE, 0.1),
                            ));
                        }
                    });
                }
                Terrain::Wall => {
                    // Full size, so neighbouring walls merge into one mass.
                    commands.spawn(tile(WALL_TILE_COLOUR, Vec2::splat(GRID_TILE)));
                }
                Terrain::Slit => {
                    let across = solid(x - 1, y) || solid(x + 1, y);
                    let along = solid(x, y - 1) || solid(x, y + 1);
                    // A wall running left–right is pierced top to bottom, and the other way round;
                    // a lone slit (or a corner) shows its opening as a hole in the middle.
                    let opening = match (across, along) {
                        (true, false) => Vec2::new(gap, GRID_TILE),
                        (false, true) => Vec2::new(GRID_TILE, gap),
                        _ => Vec2::splat(gap),
                    };
                    commands
                        .spawn(tile(WALL_TILE_COLOUR, Vec2::splat(GRID_TILE)))
                        .with_child((Sprite::from_color(SLIT_GAP_COLOUR, opening), Transform::from_xyz(0.0, 0.0, 0.1)));
                }
            }
        }
    }
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

/// One token per unit on the field; tokens of units gone from the world go too.
fn sync_tokens(
    mut commands: Commands,
    units: Query<(Entity, &Name, &SideIndex, &Status), With<UnitId>>,
    tokens: Query<(Entity, &Token)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let mut have: HashMap<Entity, Entity> = HashMap::new();
    for (token, Token(unit)) in &tokens {
        if units.get(*unit).is_ok() {
            have.insert(*unit, token);
        } else {
            commands.entity(token).despawn();
        }
    }
    for (unit, name, side, status) in &units {
        if have.contains_key(&unit) || *status == Status::Reserve {
            continue;
        }
        let colour = SIDE_COLOURS[side.0 % SIDE_COLOURS.len()];
        commands
            .spawn((
                Token(unit),
                TokenMemory { health: i32::MIN, flash: 0.0, crowd_scale: 1.0 },
                DespawnOnExit(Screen::Battle),
                Mesh2d(meshes.add(Circle::new(TOKEN_RADIUS))),
                MeshMaterial2d(materials.add(ColorMaterial::from(colour))),
                Transform::from_xyz(0.0, 0.0, 5.0),
            ))
            .with_children(|token| {
                token.spawn((
                    Text2d::new(short_name(name.as_str())),
                    TextFont::from_font_size(TOKEN_LABEL_SIZE),
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, -TOKEN_RADIUS - TOKEN_LABEL_SIZE * 0.8, 1.0),
                ));
                token.spawn((
                    StressBar,
                    Sprite::from_color(Color::srgb(0.35, 0.6, 1.0), Vec2::new(BAR_WIDTH, BAR_HEIGHT)),
                    Transform::from_xyz(0.0, TOKEN_RADIUS + 12.0, 1.0),
                ));
                token.spawn((
                    WoundBar,
                    Sprite::from_color(Color::srgb(0.9, 0.2, 0.2), Vec2::new(BAR_WIDTH, BAR_HEIGHT)),
                    Transform::from_xyz(0.0, TOKEN_RADIUS + 5.0, 1.0),
                ));
                token.spawn((
                    StatusMark,
                    Text2d::new(""),
                    TextFont::from_font_size(TOKEN_LABEL_SIZE),
                    TextColor(Color::srgb(1.0, 0.85, 0.3)),
                    Transform::from_xyz(0.0, 0.0, 2.0),
                ));
            });
    }
}

fn short_name(name: &str) -> String {
    const MOST_CHARS: usize = 12;
    let first = name.split([' ', ',']).next().unwrap_or(name);
    first.chars().take(MOST_CHARS).collect()
}

/// How much a token shrinks in a zone of `crowd` occupants, so neighbours do not overlap.
fn crowd_scale(crowd: usize) -> f32 {
    let per_row = TOKENS_PER_ROW.max((crowd as f32).sqrt().ceil() as usize);
    let room = ZONE_SIZE.x - 2.0 * TOKEN_RADIUS;
    (room / (per_row as f32 - 1.0).max(1.0) / TOKEN_PITCH).min(1.0)
}

/// Where a unit stands: its zone's centre, offset by its place among the zone's `crowd`
/// occupants; a crowded zone packs its tokens closer so they stay inside it.
fn slot(centre: Vec2, place: usize, crowd: usize) -> Vec2 {
    let per_row = TOKENS_PER_ROW.max((crowd as f32).sqrt().ceil() as usize);
    let rows = crowd.div_ceil(per_row).max(1);
    let room = ZONE_SIZE - Vec2::splat(2.0 * TOKEN_RADIUS);
    let pitch_x = TOKEN_PITCH.min(room.x / (per_row as f32 - 1.0).max(1.0));
    let pitch_y = TOKEN_PITCH.min(room.y * 0.8 / (rows as f32 - 1.0).max(1.0));
    let row = (place / per_row) as f32;
    let column = (place % per_row) as f32;
    let width = (per_row as f32 - 1.0) * pitch_x;
    centre + Vec2::new(column * pitch_x - width / 2.0, -row * pitch_y + TOKEN_PITCH / 3.0)
}

/// Tokens glide to their unit's place, so moves can be followed.
fn place_tokens(
    time: Res<Time>,
    board: Res<BoardLayout>,
    units: Query<(&Zone, &SpawnOrder, &Status)>,
    mut tokens: Query<(&Token, &mut Transform, &mut TokenMemory)>,
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
    for (token, mut transform, mut memory) in &mut tokens {
        let Ok((zone, _, status)) = units.get(token.0) else {
            continue;
        };
        let Some(centre) = board.centres.get(zone.0 as usize) else {
            continue;
        };
        let crowd = by_zone.get(&zone.0).map_or(1, Vec::len);
        let goal = if grid {
            // One unit stands on a square; the fallen it may share it with lie aside in a corner.
            memory.crowd_scale = 1.0;
            let fallen_before = by_zone.get(&zone.0).map_or(0, |list| {
                list.iter()
                    .take_while(|(_, unit)| *unit != token.0)
                    .filter(|(_, unit)| units.get(*unit).is_ok_and(|(_, _, status)| !status.on_field()))
                    .count()
            });
            if status.on_field() || crowd == 1 {
                *centre
            } else {
                const CORNERS: [Vec2; 4] =
                    [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)];
                *centre + CORNERS[fallen_before % CORNERS.len()] * GRID_TILE * 0.22
            }
        } else {
            let place =
                by_zone.get(&zone.0).and_then(|list| list.iter().position(|(_, unit)| *unit == token.0)).unwrap_or(0);
            memory.crowd_scale = crowd_scale(crowd);
            slot(*centre, place, crowd)
        };
        let here = transform.translation.truncate();
        // A new token appears where it stands rather than flying in from the middle.
        let next = if here == Vec2::ZERO { goal } else { here.lerp(goal, glide) };
        transform.translation = next.extend(transform.translation.z);
    }
}

/// Bars, marks, and a flash on every hit.
#[expect(clippy::type_complexity, reason = "one query per part of the token")]
fn refresh_tokens(
    time: Res<Time>,
    units: Query<(&Stress, &Wounds, &Status, &Conditions, Has<Surprised>)>,
    mut tokens: Query<(&Token, &mut TokenMemory, &Children, &mut Transform), Without<StressBar>>,
    mut stress_bars: Query<&mut Transform, (With<StressBar>, Without<WoundBar>, Without<Token>)>,
    mut wound_bars: Query<&mut Transform, (With<WoundBar>, Without<StressBar>, Without<Token>)>,
    mut marks: Query<&mut Text2d, With<StatusMark>>,
) {
    for (token, mut memory, children, mut transform) in &mut tokens {
        let Ok((stress, wounds, status, conditions, surprised)) = units.get(token.0) else {
            continue;
        };
        let health = stress.current + wounds.current;
        if memory.health != i32::MIN && health < memory.health {
            memory.flash = FLASH_SECONDS;
        }
        memory.health = health;
        memory.flash = (memory.flash - time.delta_secs()).max(0.0);
        let pulse = 1.0 + 0.35 * (memory.flash / FLASH_SECONDS);
        let fallen = matches!(status, Status::Dead | Status::Fled | Status::Surrendered);
        transform.scale = Vec3::splat(memory.crowd_scale * if fallen { FALLEN_SCALE } else { pulse });
        for child in children.iter() {
            if let Ok(mut bar) = stress_bars.get_mut(child) {
                let share = stress.current.max(0) as f32 / stress.max.max(1) as f32;
                bar.scale.x = share;
                bar.translation.x = -BAR_WIDTH * (1.0 - share) / 2.0;
            }
            if let Ok(mut bar) = wound_bars.get_mut(child) {
                let share = wounds.current.max(0) as f32 / wounds.max.max(1) as f32;
                bar.scale.x = share;
                bar.translation.x = -BAR_WIDTH * (1.0 - share) / 2.0;
            }
            if let Ok(mut mark) = marks.get_mut(child) {
                mark.0 = status_mark(*status, conditions, surprised);
            }
        }
    }
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
) {
    let pointer = windows.iter().next().and_then(Window::cursor_position);
    let world = pointer.and_then(|pointer| {
        cameras.iter().find_map(|(camera, transform)| camera.viewport_to_world_2d(transform, pointer).ok())
    });
    hovered.0 = world.and_then(|world| {
        tokens
            .iter()
            .map(|(token, transform)| (token.0, transform.translation().truncate().distance(world)))
            .filter(|(_, distance)| *distance <= TOKEN_RADIUS * 1.2)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(unit, _)| unit)
    });
    let zone = world.and_then(|world| board.zone_at(world));
    if hovered_zone.0 != zone {
        hovered_zone.0 = zone;
    }
    let picked = players.iter().any(|state| state.just_pressed(&PlayerAction::Pick));
    if !picked {
        return;
    }
    if let Some(unit) = hovered.0 {
        commands.write(UiCommand::Select(unit));
    } else if let Some(zone) = zone {
        commands.write(UiCommand::PickZone(zone));
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

#[expect(clippy::too_many_arguments, reason = "rings say many things about many units")]
fn draw_links_and_rings(
    mut gizmos: Gizmos,
    battlefield: Res<Battlefield>,
    board: Res<BoardLayout>,
    tokens: Query<(&Token, &GlobalTransform)>,
    threatened: Query<(), With<Threatened>>,
    ui: Res<BattleUi>,
    options: Res<DeclarationOptions>,
    hovered: Res<Hovered>,
    hovered_zone: Res<HoveredZone>,
) {
    if ui.curtain.is_none() {
        draw_destinations(&mut gizmos, &board, &ui, &options, hovered_zone.0);
    }
    // A grid's adjacency is plain to see; only zones need their links drawn.
    let links = if battlefield.is_grid() { 0 } else { battlefield.len() };
    for zone in 0..links as ZoneIdx {
        for &neighbour in battlefield.neighbours(zone) {
            if neighbour > zone
                && let (Some(a), Some(b)) = (board.centres.get(zone as usize), board.centres.get(neighbour as usize))
            {
                gizmos.line_2d(*a, *b, LINK_COLOUR);
            }
        }
    }
    if ui.curtain.is_some() {
        return;
    }
    let target = options.drafted(&ui.draft).and_then(|entry| entry.action.target);
    for (token, transform) in &tokens {
        let centre = transform.translation().truncate();
        let mut ring = |colour: Color, extra: f32| {
            gizmos.circle_2d(Isometry2d::from_translation(centre), TOKEN_RADIUS + extra, colour);
        };
        if threatened.get(token.0).is_ok() {
            ring(THREAT_COLOUR, 3.0);
        }
        if options.unit == Some(token.0) {
            ring(DECLARER_COLOUR, 7.0);
        }
        if target == Some(token.0) {
            ring(TARGET_COLOUR, 11.0);
        }
        if ui.selected == Some(token.0) {
            ring(SELECTED_COLOUR, 15.0);
        }
        if hovered.0 == Some(token.0) {
            ring(HOVER_COLOUR, 19.0);
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
}
