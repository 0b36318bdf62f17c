//! The plan on the board: every declared action the seated player may know of, drawn where it
//! will happen, as Into the Breach shows its enemies' intents. An arrow from each unit to its
//! target (red-orange at a foe, green at a friend), a line to where it will move, and its Round
//! Initiative at the arrow's start once declarations close, so the order reads off the board.
//! While the round resolves, only what is still to come is drawn.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::board::{TOKEN_RADIUS, Token, TokenScale};
use super::camera::{BoardCamera, zoom_of};
use super::hover::declaration_visible;
use super::model::battle_ui::BattleUi;
use super::model::board::BoardLayout;
use super::model::playing_count::PlayingCount;
use super::model::screen::Screen;
use super::spine::GameSystems;
use crate::rules::components::{Action, Declared, Initiative, SideIndex};
use crate::rules::{CombatPhase, CombatState, DeclarationQueue};

/// An action at a foe.
const HOSTILE_COLOUR: Color = Color::srgba(1.0, 0.45, 0.3, 0.75);
/// An action at a friend (healing, help).
const FRIENDLY_COLOUR: Color = Color::srgba(0.45, 0.95, 0.55, 0.75);
/// A move.
const MOVE_COLOUR: Color = Color::srgba(0.75, 0.85, 1.0, 0.7);
/// The order numbers.
const NUMBER_COLOUR: Color = Color::srgb(1.0, 0.95, 0.7);
/// Their shadow, so they read on any ground.
const NUMBER_SHADOW: Color = Color::srgba(0.0, 0.0, 0.0, 0.9);
/// Size of an order number on screen, in logical pixels.
const NUMBER_PX: f32 = 15.0;
/// Depth of the order numbers: over the tokens, under the floating texts.
const NUMBER_Z: f32 = 25.0;
/// Where a number sits from its token's centre, in token radii (up and to the left).
const NUMBER_OFFSET: Vec2 = Vec2::new(-1.1, 1.1);
/// Arrowheads' length, in board pixels at token scale 1.
const ARROW_TIP: f32 = 12.0;
/// A move's destination mark, in token radii.
const DESTINATION_MARK: f32 = 0.35;

/// A unit's order number on the board.
#[derive(Component, Debug)]
struct PlanNumber(Entity);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_plan.in_set(GameSystems::OverBoard).run_if(in_state(Screen::Battle)));
}

/// One planned action to draw: who, what, and its Round Initiative once known.
struct Planned {
    unit: Entity,
    action: Action,
    count: Option<i32>,
}

/// The declared actions the seated player may see, still to resolve.
fn visible_plan(
    state: &CombatState,
    queue: &DeclarationQueue,
    ui: &BattleUi,
    playing: &PlayingCount,
    units: &Query<(Entity, &Declared, &SideIndex, &Initiative)>,
) -> Vec<Planned> {
    if ui.curtain.is_some() {
        return Vec::new();
    }
    match state.phase {
        CombatPhase::Declare => units
            .iter()
            .filter(|(_, _, side, _)| declaration_visible(state.phase, queue.secret, ui.seated, side.0))
            .filter_map(|(unit, declared, _, initiative)| {
                Some(Planned { unit, action: declared.action?, count: initiative.round })
            })
            .collect(),
        CombatPhase::Resolve => {
            let playing_now = |unit: Entity| playing.playing() && playing.slots.iter().any(|slot| slot.unit == unit);
            state
                .schedule
                .get(state.cursor..)
                .unwrap_or_default()
                .iter()
                .filter(|slot| !playing_now(slot.unit))
                .map(|slot| Planned { unit: slot.unit, action: slot.action, count: Some(slot.initiative) })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Where each token stands and how large it is.
fn token_places(tokens: &Query<(&Token, &Transform, &TokenScale)>) -> HashMap<Entity, (Vec2, f32)> {
    tokens.iter().map(|(token, transform, scale)| (token.0, (transform.translation.truncate(), scale.0))).collect()
}

/// What the plan is drawn from.
#[derive(bevy::ecs::system::SystemParam)]
struct PlanView<'w, 's> {
    state: Res<'w, CombatState>,
    queue: Res<'w, DeclarationQueue>,
    ui: Res<'w, BattleUi>,
    playing: Res<'w, PlayingCount>,
    board: Res<'w, BoardLayout>,
    units: Query<'w, 's, (Entity, &'static Declared, &'static SideIndex, &'static Initiative)>,
    tokens: Query<'w, 's, (&'static Token, &'static Transform, &'static TokenScale)>,
}

/// The plan the seated player may see, worked out once a frame for its arrows and its numbers.
fn show_plan(
    mut gizmos: Gizmos,
    view: PlanView,
    mut commands: Commands,
    cameras: Query<&Projection, With<BoardCamera>>,
    mut numbers: Query<(Entity, &PlanNumber, &mut Text2d, &mut Transform), Without<Token>>,
) {
    let plan = visible_plan(&view.state, &view.queue, &view.ui, &view.playing, &view.units);
    let places = token_places(&view.tokens);
    draw_plan(&mut gizmos, &view, &plan, &places);
    let zoom = cameras.iter().next().map_or(1.0, zoom_of);
    number_plan(&mut commands, &plan, &places, zoom, &mut numbers);
}

/// Arrows to targets and lines to destinations.
fn draw_plan(gizmos: &mut Gizmos, view: &PlanView, plan: &[Planned], places: &HashMap<Entity, (Vec2, f32)>) {
    let (board, units) = (&view.board, &view.units);
    let side_of = |unit: Entity| units.get(unit).ok().map(|(_, _, side, _)| side.0);
    for planned in plan {
        let Some(&(at, scale)) = places.get(&planned.unit) else {
            continue;
        };
        let radius = TOKEN_RADIUS * scale;
        let mut from = at;
        if let Some(zone) = planned.action.move_to
            && let Some(&there) = board.centres.get(usize::from(zone))
            && there.distance(at) > radius
        {
            gizmos.line_2d(at, there, MOVE_COLOUR);
            gizmos.circle_2d(there, radius * DESTINATION_MARK, MOVE_COLOUR);
            from = there;
        }
        let Some(target) = planned.action.target.filter(|target| *target != planned.unit) else {
            continue;
        };
        let Some(&(there, their_scale)) = places.get(&target) else {
            continue;
        };
        let colour = if side_of(target) == side_of(planned.unit) { FRIENDLY_COLOUR } else { HOSTILE_COLOUR };
        let start = if from == at { radius } else { 0.0 };
        if let Some((from, to)) = super::overlays::trim(from, there, start, TOKEN_RADIUS * their_scale) {
            gizmos.arrow_2d(from, to, colour).with_tip_length(ARROW_TIP * scale);
        }
    }
}

/// Each planned unit's Round Initiative beside its token, once known: the order of the round.
fn number_plan(
    commands: &mut Commands,
    plan: &[Planned],
    places: &HashMap<Entity, (Vec2, f32)>,
    zoom: f32,
    numbers: &mut Query<(Entity, &PlanNumber, &mut Text2d, &mut Transform), Without<Token>>,
) {
    let wanted: HashMap<Entity, (Vec2, String)> = plan
        .iter()
        .filter_map(|planned| {
            let count = planned.count?;
            let (at, scale) = places.get(&planned.unit)?;
            Some((planned.unit, (*at + NUMBER_OFFSET * TOKEN_RADIUS * scale, count.to_string())))
        })
        .collect();
    let mut have = std::collections::HashSet::new();
    for (entity, number, mut text, mut transform) in numbers.iter_mut() {
        match wanted.get(&number.0) {
            Some((at, words)) => {
                have.insert(number.0);
                if text.0 != *words {
                    text.0.clone_from(words);
                }
                transform.translation = at.extend(NUMBER_Z);
                // The same size on screen whatever the zoom.
                transform.scale = Vec3::splat(zoom);
            }
            None => commands.entity(entity).despawn(),
        }
    }
    for (unit, (at, words)) in wanted.into_iter().filter(|(unit, _)| !have.contains(unit)) {
        commands.spawn((
            PlanNumber(unit),
            DespawnOnExit(Screen::Battle),
            Text2d::new(words),
            TextFont::from_font_size(NUMBER_PX),
            TextColor(NUMBER_COLOUR),
            Text2dShadow { offset: Vec2::new(1.5, -1.5), color: NUMBER_SHADOW },
            Transform::from_translation(at.extend(NUMBER_Z)).with_scale(Vec3::splat(zoom)),
        ));
    }
}
