//! The board in Bevy 2D: zones as labelled areas joined by their adjacency, units as tokens
//! coloured by side with Stress and Wound bars and status marks, threat, hover and selection
//! rings, and short animations for moves and hits.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;
use leafwing_input_manager::prelude::ActionState;

use super::controls::{BattleUi, DeclarationOptions, Player, PlayerAction, UiCommand};
use super::session::Screen;
use crate::battlefield::{Battlefield, ZoneIdx};
use crate::rules::components::*;

/// Board pixels per zone step.
pub const ZONE_SPACING: f32 = 280.0;
/// A zone's drawn size.
pub const ZONE_SIZE: Vec2 = Vec2::new(255.0, 200.0);
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

/// A zone's drawn area.
#[derive(Component, Debug)]
struct BoardZone;

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
}

/// The unit under the pointer.
#[derive(Resource, Debug, Default)]
pub struct Hovered(pub Option<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardLayout>().init_resource::<Hovered>().add_systems(
        Update,
        (
            rebuild_zones,
            sync_tokens,
            place_tokens,
            refresh_tokens,
            (hover_and_pick).run_if(not(egui_wants_any_pointer_input)),
            draw_links_and_rings,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
}

/// Zone centres: the level's positions where given, else columns by distance from the first zone.
pub fn layout(battlefield: &Battlefield) -> Vec<Vec2> {
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
    for (token, mut transform, mut memory) in &mut tokens {
        let Ok((zone, ..)) = units.get(token.0) else {
            continue;
        };
        let Some(centre) = board.centres.get(zone.0 as usize) else {
            continue;
        };
        let crowd = by_zone.get(&zone.0).map_or(1, Vec::len);
        let place =
            by_zone.get(&zone.0).and_then(|list| list.iter().position(|(_, unit)| *unit == token.0)).unwrap_or(0);
        let goal = slot(*centre, place, crowd);
        memory.crowd_scale = crowd_scale(crowd);
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

/// The pointer hovers tokens; a pick selects (or targets) the token under it.
fn hover_and_pick(
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tokens: Query<(&Token, &GlobalTransform)>,
    players: Query<&ActionState<PlayerAction>, With<Player>>,
    mut hovered: ResMut<Hovered>,
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
    let picked = players.iter().any(|state| state.just_pressed(&PlayerAction::Pick));
    if picked && let Some(unit) = hovered.0 {
        commands.write(UiCommand::Select(unit));
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
) {
    for zone in 0..battlefield.len() as ZoneIdx {
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
