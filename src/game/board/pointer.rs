//! Pointing at the board: hover and picking, the cover tags, threat and selection rings, and
//! the destinations on offer.

use super::*;

/// The pointer hovers tokens and zones; a pick selects (or targets) the token under it, or
/// else picks the zone (or grid square) under it as the destination of a move.
#[expect(clippy::too_many_arguments, reason = "the pointer meets tokens, zones and squares")]
pub(super) fn hover_and_pick(
    window: Option<Single<&Window>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tokens: Query<(&Token, &GlobalTransform)>,
    players: Query<&ActionState<PlayerAction>, With<Player>>,
    board: Res<BoardLayout>,
    mut hovered: ResMut<Hovered>,
    mut hovered_zone: ResMut<HoveredZone>,
    mut commands: MessageWriter<UiCommand>,
    ui: Res<BattleUi>,
) {
    let pointer = window.and_then(|window| window.cursor_position());
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
pub(super) fn forget_hover(mut hovered: ResMut<Hovered>, mut hovered_zone: ResMut<HoveredZone>) {
    if hovered.0.is_some() {
        hovered.0 = None;
    }
    if hovered_zone.0.is_some() {
        hovered_zone.0 = None;
    }
}

/// On a grid, tags the drafted target with its cover from where the actor will stand, for a
/// ranged action.
pub(super) fn show_cover(
    options: Res<DeclarationOptions>,
    ui: Res<BattleUi>,
    tokens: Query<(&Token, &Transform), Without<CoverTag>>,
    cameras: Query<&Projection, With<crate::game::camera::BoardCamera>>,
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
pub(super) struct RingView<'w, 's> {
    board: Res<'w, BoardLayout>,
    tokens: Query<'w, 's, (&'static Token, &'static GlobalTransform, &'static TokenDetail)>,
    threatened: Query<'w, 's, (), With<Threatened>>,
    ui: Res<'w, BattleUi>,
    options: Res<'w, DeclarationOptions>,
    hovered: Res<'w, Hovered>,
    hovered_zone: Res<'w, HoveredZone>,
}

/// Rings around tokens: threatened, declaring, targeted, selected, hovered.
pub(super) fn draw_rings(mut gizmos: Gizmos, view: RingView) {
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
