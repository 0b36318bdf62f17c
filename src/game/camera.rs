//! The board camera: pans with keys, zooms with keys and the wheel (over the board only), frames
//! a new battle between the panels, and frames it again on a key, when the window changes size
//! and when the UI scale changes.

use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;
use bevy::window::WindowResized;
use bevy_egui::EguiContexts;
use bevy_egui::input::{EguiWantsInput, egui_wants_any_keyboard_input};
use leafwing_input_manager::prelude::ActionState;

use super::model::battle_ui::Player;
use super::model::board::BoardLayout;
use super::model::player_action::PlayerAction;
use super::model::screen::Screen;
use super::model::screen::{LEFT_PANEL_WIDTH, RIGHT_PANEL_WIDTH, top_bar_height};

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
            note_ui_scale,
            frame_board
                .run_if(resource_changed::<BoardLayout>.or_eager(on_message::<WindowResized>).or_eager(fit_pressed)),
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
/// far its centre lies from the window's centre (x to the right, y down), in screen pixels. The
/// panels are laid out in egui points, `ui_scale` screen pixels each.
pub fn board_view(window: Vec2, ui_scale: f32) -> (Vec2, Vec2) {
    let top = top_bar_height(window.x / ui_scale);
    let panels = Vec2::new(LEFT_PANEL_WIDTH + RIGHT_PANEL_WIDTH, top) * ui_scale;
    let free = (window - panels).max(window * LEAST_BOARD_SHARE);
    let offset = Vec2::new(LEFT_PANEL_WIDTH - RIGHT_PANEL_WIDTH, top) * ui_scale / 2.0;
    (free, offset)
}

/// When the UI scale in force changes, the panels take another share of the window: marks the
/// layout changed, so the board is framed again.
fn note_ui_scale(mut contexts: EguiContexts, mut layout: ResMut<BoardLayout>, mut framed_for: Local<Option<f32>>) {
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    let scale = ctx.zoom_factor();
    if framed_for.is_some_and(|old| old != scale) {
        layout.set_changed();
    }
    *framed_for = Some(scale);
}

/// Whether the player pressed the key that fits the board.
fn fit_pressed(players: Query<&ActionState<PlayerAction>, With<Player>>) -> bool {
    players.iter().any(|state| state.just_pressed(&PlayerAction::FitBoard))
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((BoardCamera, Camera2d));
}

/// Where the camera looks and its zoom to frame the whole board in the part of a window of
/// `window` size that the panels leave free; `None` before the board is laid out.
pub fn framing(board: &BoardLayout, window: Vec2, ui_scale: f32) -> Option<(Vec2, f32)> {
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
    let (free, offset) = board_view(window, ui_scale);
    let scale = ((size.x / free.x).max(size.y / free.y) * FRAME_MARGIN).clamp(ZOOM_MIN, ZOOM_MAX);
    // The camera looks at the window's centre; shift it so the board sits in the free part
    // (screen y runs down, the board's up).
    let centre = (min + max) / 2.0 - Vec2::new(offset.x, -offset.y) * scale;
    Some((centre, scale))
}

/// Centres the camera on the board and zooms so all of it shows between the panels.
fn frame_board(
    board: Res<BoardLayout>,
    window: Option<Single<&Window>>,
    mut contexts: EguiContexts,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let window = window.map_or(DEFAULT_WINDOW, |window| window.size());
    let ui_scale = contexts.ctx_mut().map_or(1.0, |ctx| ctx.zoom_factor());
    let Some((centre, scale)) = framing(&board, window, ui_scale) else {
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
    (mut wheel, egui_input): (MessageReader<MouseWheel>, Res<EguiWantsInput>),
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    // The wheel over a panel or the log scrolls it, not the board.
    let wheel_over_panel = wheel.read().count() > 0 && egui_input.wants_any_pointer_input();
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
    let zoom = if wheel_over_panel {
        1.0
    } else if state.just_pressed(&PlayerAction::ZoomIn) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::Square;
    use crate::game::model::board::{GRID_TILE, square_centre};

    /// Millbrook's grid (`levels/crucible_skirmish.ron`), walls included.
    const MILLBROOK: (i32, i32) = (28, 18);
    /// The UI scales the settings slider is expected to be used at.
    const UI_SCALES: [f32; 4] = [0.8, 1.0, 1.2, 1.5];
    /// The default window and a larger one. (In a 1024-wide window at UI scale 1.5 the panels
    /// alone take 855 of the 1,024 pixels: no board fits beside them.)
    const WINDOWS: [Vec2; 2] = [DEFAULT_WINDOW, Vec2::new(1920.0, 1080.0)];

    fn grid_board(width: i32, height: i32) -> BoardLayout {
        let centres = (0..height).flat_map(|y| (0..width).map(move |x| square_centre(Square::new(x, y)))).collect();
        let squares = Some((width as u16, Vec::new()));
        BoardLayout { centres, cell: Vec2::splat(GRID_TILE), squares, token_areas: Vec::new() }
    }

    /// Where board point `at` shows on screen (x right, y down) with the camera at `centre`.
    fn to_screen(at: Vec2, centre: Vec2, scale: f32, window: Vec2) -> Vec2 {
        let from_centre = (at - centre) / scale;
        window / 2.0 + Vec2::new(from_centre.x, -from_centre.y)
    }

    #[test]
    fn every_square_of_millbrook_fits_between_the_panels_at_every_ui_scale() {
        let board = grid_board(MILLBROOK.0, MILLBROOK.1);
        for window in WINDOWS {
            for ui_scale in UI_SCALES {
                let (centre, scale) = framing(&board, window, ui_scale).expect("laid out");
                let left = LEFT_PANEL_WIDTH * ui_scale;
                let right = window.x - RIGHT_PANEL_WIDTH * ui_scale;
                let top = top_bar_height(window.x / ui_scale) * ui_scale;
                for square in &board.centres {
                    for corner in [Vec2::new(-0.5, -0.5), Vec2::new(0.5, 0.5)] {
                        let at = to_screen(*square + corner * GRID_TILE, centre, scale, window);
                        assert!(
                            (left..=right).contains(&at.x) && (top..=window.y).contains(&at.y),
                            "a corner of the square at {square} shows at {at} in a {window} window at UI \
                             scale {ui_scale}, outside the board's area x {left}..{right}, y {top}..{}",
                            window.y
                        );
                    }
                }
            }
        }
    }
}
