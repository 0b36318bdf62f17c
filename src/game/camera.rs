//! The board camera: pans with keys, zooms with keys and the wheel, frames a new battle and
//! frames it again whenever the window changes size.

use bevy::prelude::*;
use bevy::window::WindowResized;
use bevy_egui::input::egui_wants_any_keyboard_input;
use leafwing_input_manager::prelude::ActionState;

use super::board::BoardLayout;
use super::controls::{Player, PlayerAction};
use super::session::Screen;
use super::ui::{LEFT_PANEL_WIDTH, RIGHT_PANEL_WIDTH, TOP_BAR_HEIGHT};

/// Pan speed, in board pixels per second at zoom 1.
const PAN_SPEED: f32 = 700.0;
/// Each zoom step scales the view by this much.
const ZOOM_STEP: f32 = 1.15;
/// Closest zoom.
const ZOOM_MIN: f32 = 0.3;
/// Farthest zoom (far enough to frame the largest grid).
const ZOOM_MAX: f32 = 8.0;
/// Room around the zones when framing a battle, as a share of the board.
const FRAME_MARGIN: f32 = 1.08;
/// Least share of the window the board is framed in, should the panels leave it less.
const LEAST_BOARD_SHARE: f32 = 0.3;
/// The window's size before it reports one.
pub const DEFAULT_WINDOW: Vec2 = Vec2::new(1280.0, 800.0);

/// The board camera.
#[derive(Component, Debug)]
pub struct BoardCamera;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera).add_systems(OnEnter(Screen::Battle), frame_board).add_systems(
        Update,
        (
            frame_board.run_if(resource_changed::<BoardLayout>.or_eager(on_message::<WindowResized>)),
            pan_and_zoom.run_if(not(egui_wants_any_keyboard_input)),
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
}

/// Board pixels per screen pixel: the camera's zoom (1 when it is not orthographic).
pub fn zoom_of(projection: &Projection) -> f32 {
    match projection {
        Projection::Orthographic(orthographic) => orthographic.scale,
        _ => 1.0,
    }
}

/// The part of a window of `window` size that the panels leave to the board: its size, and how
/// far its centre lies from the window's centre (x to the right, y down), in screen pixels.
pub fn board_view(window: Vec2) -> (Vec2, Vec2) {
    let panels = Vec2::new(LEFT_PANEL_WIDTH + RIGHT_PANEL_WIDTH, TOP_BAR_HEIGHT);
    let free = (window - panels).max(window * LEAST_BOARD_SHARE);
    let offset = Vec2::new(LEFT_PANEL_WIDTH - RIGHT_PANEL_WIDTH, TOP_BAR_HEIGHT) / 2.0;
    (free, offset)
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((BoardCamera, Camera2d));
}

/// Where the camera looks and its zoom to frame the whole board in the part of a window of
/// `window` size that the panels leave free; `None` before the board is laid out.
pub fn framing(board: &BoardLayout, window: Vec2) -> Option<(Vec2, f32)> {
    if board.centres.is_empty() {
        return None;
    }
    let (min, max) = board
        .centres
        .iter()
        .fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(min, max), c| (min.min(*c), max.max(*c)));
    // One zone's size beyond the centres; on a grid, room for the row and column numbers too.
    let border = if board.squares.is_some() { 2.0 } else { 1.0 };
    let size = (max - min) + board.cell * border;
    let (free, offset) = board_view(window);
    let scale = ((size.x / free.x).max(size.y / free.y) * FRAME_MARGIN).clamp(ZOOM_MIN, ZOOM_MAX);
    // The camera looks at the window's centre; shift it so the board sits in the free part
    // (screen y runs down, the board's up).
    let centre = (min + max) / 2.0 - Vec2::new(offset.x, -offset.y) * scale;
    Some((centre, scale))
}

/// Centres the camera on the board and zooms so all of it shows.
fn frame_board(
    board: Res<BoardLayout>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let window = windows.iter().next().map_or(DEFAULT_WINDOW, Window::size);
    let Some((centre, scale)) = framing(&board, window) else {
        return;
    };
    for (mut transform, mut projection) in &mut cameras {
        transform.translation = centre.extend(transform.translation.z);
        if let Projection::Orthographic(orthographic) = projection.as_mut() {
            orthographic.scale = scale;
        }
    }
}

fn pan_and_zoom(
    time: Res<Time>,
    players: Query<&ActionState<PlayerAction>, With<Player>>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let Some(state) = players.iter().next() else {
        return;
    };
    let mut direction = Vec2::ZERO;
    for (action, step) in [
        (PlayerAction::PanLeft, Vec2::NEG_X),
        (PlayerAction::PanRight, Vec2::X),
        (PlayerAction::PanUp, Vec2::Y),
        (PlayerAction::PanDown, Vec2::NEG_Y),
    ] {
        if state.pressed(&action) {
            direction += step;
        }
    }
    let zoom = if state.just_pressed(&PlayerAction::ZoomIn) {
        1.0 / ZOOM_STEP
    } else if state.just_pressed(&PlayerAction::ZoomOut) {
        ZOOM_STEP
    } else {
        1.0
    };
    for (mut transform, mut projection) in &mut cameras {
        let Projection::Orthographic(orthographic) = projection.as_mut() else {
            continue;
        };
        orthographic.scale = (orthographic.scale * zoom).clamp(ZOOM_MIN, ZOOM_MAX);
        let offset = direction.normalize_or_zero() * PAN_SPEED * orthographic.scale * time.delta_secs();
        transform.translation += offset.extend(0.0);
    }
}
