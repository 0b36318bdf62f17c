//! Grid overlays for the unit declaring (or else the one selected): the path its move would walk
//! to the drafted or hovered square, its sight lines to the enemies it can see from where it
//! would stand, coloured by their cover, and the squares where moving would provoke a free
//! attack. Each can be switched off through [`BoardOverlays`].

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::board::{HoveredZone, TOKEN_RADIUS, Token, TokenScale};
use super::controls;
use super::model::battle_ui::{BattleUi, DeclarationOptions};
use super::model::board::{BoardLayout, BoardOverlays, GRID_TILE};
use super::model::screen::Screen;
use super::spine::GameSystems;
use crate::battlefield::{Cover, ZoneIdx};
use crate::game::model::battle_read::BattleRead;
use crate::rules::actions::ThreatMap;
use crate::rules::components::SideIndex;
use crate::rules::unit::UnitView;

/// A threatened square's tint: under the tokens, over the ground.
const THREAT_TILE_COLOUR: Color = Color::srgba(0.95, 0.2, 0.15, 0.22);
/// The outline of a destination of the drafted kind that provokes free attacks.
const PROVOKING_COLOUR: Color = Color::srgb(1.0, 0.3, 0.2);
/// The path a move walks.
const PATH_COLOUR: Color = Color::srgb(0.5, 1.0, 0.65);
/// A step of the path into a threatened square.
const THREATENED_STEP_COLOUR: Color = Color::srgb(1.0, 0.4, 0.3);
/// Most sight lines drawn at once: the nearest enemies in view.
const MAX_SIGHT_LINES: usize = 12;
/// A sight line to an enemy in the open.
const OPEN_SIGHT_COLOUR: Color = Color::srgba(0.9, 0.95, 0.9, 0.7);
/// A sight line to an enemy in half cover.
const HALF_COVER_SIGHT_COLOUR: Color = Color::srgba(0.95, 0.8, 0.3, 0.8);
/// A sight line to an enemy in full cover.
const FULL_COVER_SIGHT_COLOUR: Color = Color::srgba(1.0, 0.5, 0.15, 0.85);
/// Share of a square a threat tint covers (the rest shows the grid lines).
const TILE_FILL: f32 = 0.96;
/// Depth of threat tints: over the squares and their stones, under everything else.
const THREAT_Z: f32 = 0.3;
/// Radius of the dot marking each step of a path, in board pixels.
const STEP_DOT: f32 = 6.0;
/// Inset of a provoking destination's outline, in board pixels.
const PROVOKING_INSET: f32 = 14.0;

/// A threatened square's tint.
#[derive(Component, Debug)]
struct ThreatTile;

/// The squares where the overlays' unit would meet an enemy's ready reach, sorted.
#[derive(Resource, Debug, Default)]
struct ThreatenedSquares(Vec<ZoneIdx>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardOverlays>().init_resource::<ThreatenedSquares>().add_systems(
        Update,
        (tint_threats, draw_path_and_sight).chain().in_set(GameSystems::OverBoard).run_if(in_state(Screen::Battle)),
    );
}

/// What the overlays read.
#[derive(SystemParam)]
struct OverlayView<'w, 's> {
    overlays: Res<'w, BoardOverlays>,
    ui: Res<'w, BattleUi>,
    options: Res<'w, DeclarationOptions>,
    hovered_zone: Res<'w, HoveredZone>,
    board: Res<'w, BoardLayout>,
    /// The battle, read-only.
    battle: BattleRead<'w, 's>,
}

impl OverlayView<'_, '_> {
    /// The unit the overlays are for: the one declaring, else the one selected; on a grid, with
    /// the curtain up, only.
    fn subject(&self) -> Option<UnitView<'_, '_>> {
        if !self.battle.battlefield.is_grid() || self.ui.curtain.is_some() {
            return None;
        }
        let unit = self.battle.units.get(self.options.unit.or(self.ui.selected)?).ok()?;
        unit.standing.status.on_field().then_some(unit)
    }

    /// Where the declaring unit would move: the drafted square, else the square under the
    /// pointer if some option moves there.
    fn destination(&self, subject: &UnitView) -> Option<ZoneIdx> {
        if self.options.unit != Some(subject.entity) {
            return None;
        }
        if let Some(zone) = self.options.drafted(&self.ui.draft).and_then(|entry| entry.action.move_to) {
            return Some(zone);
        }
        let zone = self.hovered_zone.0?;
        let (kind, option) = controls::option_for_zone(&self.options, &self.ui.draft, zone)?;
        self.options.kinds.get(kind)?.1.get(option)?.action.move_to
    }

    /// The squares where a unit of `side` meets an enemy's reach, with a free attack ready.
    fn threatened(&self, side: SideIndex) -> Vec<ZoneIdx> {
        let views: Vec<UnitView> = self.battle.units.iter().collect();
        let threats = ThreatMap::build(self.battle.battlefield.len(), views.iter());
        let ctx = self.battle.ctx();
        (0..self.battle.battlefield.len() as ZoneIdx)
            .filter(|&zone| threats.threateners(ctx, zone, side).any(|threat| threat.can_react))
            .collect()
    }
}

/// Finds the squares where the subject's moving would provoke a free attack and tints them
/// (the tints are rebuilt only when the squares change).
fn tint_threats(
    mut commands: Commands,
    view: OverlayView,
    tiles: Query<Entity, With<ThreatTile>>,
    mut threatened: ResMut<ThreatenedSquares>,
) {
    let found = match view.subject() {
        Some(subject) if view.overlays.threat || view.overlays.path => view.threatened(*subject.standing.side),
        _ => Vec::new(),
    };
    if found != threatened.0 {
        threatened.0 = found;
    }
    let wanted: &[ZoneIdx] = if view.overlays.threat { &threatened.0 } else { &[] };
    // A new battle (or a cleared board) has no tiles whatever was shown before.
    if tiles.iter().count() == wanted.len() && !threatened.is_changed() {
        return;
    }
    for tile in &tiles {
        commands.entity(tile).despawn();
    }
    for &zone in wanted {
        if let Some(centre) = view.board.centres.get(usize::from(zone)) {
            commands.spawn((
                ThreatTile,
                DespawnOnExit(Screen::Battle),
                Sprite::from_color(THREAT_TILE_COLOUR, Vec2::splat(GRID_TILE * TILE_FILL)),
                Transform::from_translation(centre.extend(THREAT_Z)),
            ));
        }
    }
}

/// The path to the destination, the destinations that provoke, and the sight lines.
fn draw_path_and_sight(
    mut gizmos: Gizmos,
    view: OverlayView,
    threatened: Res<ThreatenedSquares>,
    tokens: Query<(&Token, &Transform, &TokenScale)>,
) {
    let Some(subject) = view.subject() else {
        return;
    };
    let from = subject.standing.zone.0;
    let destination = view.destination(&subject);
    if view.overlays.threat {
        draw_provoking(&mut gizmos, &view);
    }
    if view.overlays.path
        && let Some(to) = destination
    {
        draw_path(&mut gizmos, &view, from, to, &threatened.0);
    }
    if view.overlays.sight {
        draw_sight(&mut gizmos, &view, &subject, destination.unwrap_or(from), &tokens);
    }
}

/// Lines from where the subject will stand to the nearest enemies it sees, coloured by their
/// cover. In a mass battle a line to every enemy in view would paint the board white: only the
/// nearest [`MAX_SIGHT_LINES`] are drawn (hovering a square lists everyone who sees it).
fn draw_sight(
    gizmos: &mut Gizmos,
    view: &OverlayView,
    subject: &UnitView,
    standing: ZoneIdx,
    tokens: &Query<(&Token, &Transform, &TokenScale)>,
) {
    let Some(start) = view.board.centres.get(usize::from(standing)).copied() else {
        return;
    };
    let token_at: bevy::platform::collections::HashMap<Entity, (Vec2, f32)> = tokens
        .iter()
        .map(|(token, transform, scale)| (token.0, (transform.translation.truncate(), TOKEN_RADIUS * scale.0)))
        .collect();
    let own_radius = token_at.get(&subject.entity).map_or(TOKEN_RADIUS, |&(_, radius)| radius);
    let mut seen: Vec<(f32, Vec2, f32, Cover)> = view
        .battle
        .units
        .iter()
        .filter(|unit| unit.standing.side != subject.standing.side && unit.standing.status.on_field())
        .filter_map(|enemy| {
            let cover = view.battle.battlefield.sight(standing, enemy.standing.zone.0)?;
            let &(end, radius) = token_at.get(&enemy.entity)?;
            Some((start.distance_squared(end), end, radius, cover))
        })
        .collect();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    for &(_, end, radius, cover) in seen.iter().take(MAX_SIGHT_LINES) {
        let colour = match cover {
            Cover::None => OPEN_SIGHT_COLOUR,
            Cover::Half => HALF_COVER_SIGHT_COLOUR,
            Cover::Full => FULL_COVER_SIGHT_COLOUR,
        };
        if let Some((a, b)) = trim(start, end, own_radius, radius) {
            gizmos.line_2d(a, b, colour);
        }
    }
}

/// The segment from `a` to `b` less `from_a` at its start and `from_b` at its end (so it runs
/// between two discs' edges), or `None` when the discs meet.
pub fn trim(a: Vec2, b: Vec2, from_a: f32, from_b: f32) -> Option<(Vec2, Vec2)> {
    let span = b - a;
    let length = span.length();
    if length <= from_a + from_b {
        return None;
    }
    let direction = span / length;
    Some((a + direction * from_a, b - direction * from_b))
}

/// Outlines the drafted kind's destinations that provoke free attacks.
fn draw_provoking(gizmos: &mut Gizmos, view: &OverlayView) {
    let Some((_, entries)) = view.ui.draft.kind.and_then(|kind| view.options.kinds.get(kind)) else {
        return;
    };
    let mut provoking: Vec<ZoneIdx> =
        entries.iter().filter(|entry| entry.repostes > 0).filter_map(|entry| entry.action.move_to).collect();
    provoking.sort_unstable();
    provoking.dedup();
    for zone in provoking {
        if let Some(centre) = view.board.centres.get(usize::from(zone)) {
            let size = view.board.cell - Vec2::splat(PROVOKING_INSET);
            gizmos.rect_2d(Isometry2d::from_translation(*centre), size, PROVOKING_COLOUR);
        }
    }
}

/// The walk from `from` to `to`, square by square, its steps into threatened squares in red.
fn draw_path(gizmos: &mut Gizmos, view: &OverlayView, from: ZoneIdx, to: ZoneIdx, threatened: &[ZoneIdx]) {
    let centre = |zone: ZoneIdx| view.board.centres.get(usize::from(zone)).copied();
    let Some(mut here) = centre(from) else {
        return;
    };
    for step in view.battle.battlefield.path(from, to) {
        let Some(next) = centre(step) else {
            return;
        };
        let colour = if threatened.binary_search(&step).is_ok() { THREATENED_STEP_COLOUR } else { PATH_COLOUR };
        gizmos.line_2d(here, next, colour);
        gizmos.circle_2d(Isometry2d::from_translation(next), STEP_DOT, colour);
        here = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sight_lines_run_between_the_discs_edges() {
        let (a, b) = trim(Vec2::ZERO, Vec2::new(100.0, 0.0), 20.0, 10.0).unwrap();
        assert_eq!(a, Vec2::new(20.0, 0.0));
        assert_eq!(b, Vec2::new(90.0, 0.0));
        assert!(trim(Vec2::ZERO, Vec2::new(25.0, 0.0), 20.0, 10.0).is_none());
    }

    #[test]
    fn every_overlay_shows_until_switched_off() {
        let overlays = BoardOverlays::default();
        assert!(overlays.path && overlays.sight && overlays.threat);
    }
}
