//! What a token looks like beyond its colour: an outline shape per side (so sides never differ
//! by colour alone), the unit's icon on its disc, and a badge with its main weapon's icon.

use bevy::ecs::hierarchy::ChildSpawnerCommands;
use bevy::prelude::*;

use super::icons::Icons;
use super::model::board::DetailPart;
use crate::levels::icons::weapon_icon;

/// How many outline shapes the sides take in turn.
pub const SIDE_SHAPES: usize = 4;
/// The icon's size on a token's disc, as a share of the disc's diameter.
const ICON_SHARE: f32 = 0.78;
/// Depth of the icon, over the disc and under the bars and marks.
const ICON_Z: f32 = 0.5;
/// The weapon badge's radius, as a share of the token's.
const BADGE_SHARE: f32 = 0.42;
/// Where the badge's centre sits, as a share of the token's radius right and down.
const BADGE_OFFSET: f32 = 0.78;
/// Depth of the weapon badge, over the icon.
const BADGE_Z: f32 = 0.8;
/// The weapon icon's size inside its badge, as a share of the badge's diameter.
const BADGE_ICON_SHARE: f32 = 0.8;
/// The badge's ground: dark, so the white weapon reads on any side colour.
const BADGE_COLOUR: Color = Color::srgb(0.1, 0.1, 0.12);
/// The icons are white silhouettes; a touch of warmth keeps them from glaring.
const ICON_TINT: Color = Color::srgb(0.98, 0.97, 0.92);
/// A square the size that looks as large as a disc of the same radius.
const SQUARE_SIDE_PER_RADIUS: f32 = 1.8;
/// A hexagon's corner radius per disc radius.
const HEXAGON_PER_RADIUS: f32 = 1.08;
/// A diamond's corner radius per disc radius.
const DIAMOND_PER_RADIUS: f32 = 1.22;

/// A token's outline for side `side`, at `radius`: a disc, a square, a hexagon, a diamond.
pub fn side_shape(side: usize, radius: f32) -> Mesh {
    match side % SIDE_SHAPES {
        0 => Circle::new(radius).into(),
        1 => Rectangle::from_length(radius * SQUARE_SIDE_PER_RADIUS).into(),
        2 => RegularPolygon::new(radius * HEXAGON_PER_RADIUS, 6).into(),
        _ => RegularPolygon::new(radius * DIAMOND_PER_RADIUS, 4).into(),
    }
}

/// Corners of the disc drawn for a token too small on screen for detail: at a few pixels across
/// it looks as round as the full disc, at a fifth of its triangles.
const SPECK_CORNERS: u32 = 8;

/// A token's outline for side `side` at `radius`, for when it is drawn too small for detail:
/// the disc with few corners, the other shapes as they are (they have few already).
pub fn side_speck(side: usize, radius: f32) -> Mesh {
    match side % SIDE_SHAPES {
        0 => Circle::new(radius).mesh().resolution(SPECK_CORNERS).build(),
        _ => side_shape(side, radius),
    }
}

/// The name of side `side`'s outline shape, for the panels' legend.
pub fn side_shape_name(side: usize) -> &'static str {
    match side % SIDE_SHAPES {
        0 => "disc",
        1 => "square",
        2 => "hexagon",
        _ => "diamond",
    }
}

/// The pictures on a token: which icon its disc shows and, when it says something the icon
/// does not, which weapon its badge shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenPictures {
    /// The unit's own icon.
    pub icon: String,
    /// Its main weapon's icon, unless that is the unit's icon already.
    pub weapon: Option<&'static str>,
}

impl TokenPictures {
    /// The pictures of a unit with `icon` wielding `weapon_name`.
    pub fn of(icon: &str, weapon_name: &str, weapon: &crate::rules::equipment::Weapon) -> Self {
        let weapon = weapon_icon(weapon_name, weapon);
        Self { icon: icon.to_string(), weapon: (weapon != icon).then_some(weapon) }
    }
}

/// Spawns a token's icon and weapon badge under it, sized for a disc of `radius` (both drawn
/// only while the token shows detail).
pub fn spawn_pictures(
    token: &mut ChildSpawnerCommands,
    pictures: &TokenPictures,
    icons: &Icons,
    radius: f32,
    badge: (&Handle<Mesh>, &Handle<ColorMaterial>),
) {
    token.spawn((
        DetailPart,
        Sprite {
            image: icons.handle(&pictures.icon),
            custom_size: Some(Vec2::splat(2.0 * radius * ICON_SHARE)),
            color: ICON_TINT,
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, ICON_Z),
    ));
    let Some(weapon) = pictures.weapon else {
        return;
    };
    let (badge_mesh, badge_material) = badge;
    let at = Vec2::new(1.0, -1.0) * radius * BADGE_OFFSET;
    token
        .spawn((
            DetailPart,
            Mesh2d(badge_mesh.clone()),
            MeshMaterial2d(badge_material.clone()),
            Transform::from_translation(at.extend(BADGE_Z)),
        ))
        .with_children(|badge| {
            badge.spawn((
                Sprite {
                    image: icons.handle(weapon),
                    custom_size: Some(Vec2::splat(2.0 * radius * BADGE_SHARE * BADGE_ICON_SHARE)),
                    color: ICON_TINT,
                    ..default()
                },
                Transform::from_xyz(0.0, 0.0, 0.1),
            ));
        });
}

/// The badge's disc and ground, for a token of `radius`.
pub fn badge_parts(
    radius: f32,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
) -> (Handle<Mesh>, Handle<ColorMaterial>) {
    (meshes.add(Circle::new(radius * BADGE_SHARE)), materials.add(ColorMaterial::from(BADGE_COLOUR)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::catalog::Catalog;

    #[test]
    fn neighbouring_sides_get_different_shapes() {
        let names: Vec<&str> = (0..SIDE_SHAPES).map(side_shape_name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), SIDE_SHAPES, "shapes repeat within one turn: {names:?}");
        assert_eq!(side_shape_name(SIDE_SHAPES), side_shape_name(0));
    }

    #[test]
    fn a_weapon_badge_shows_only_what_the_icon_does_not() {
        let catalog = Catalog::builtin().expect("the built-in catalog loads");
        let longbow = &catalog.weapons["longbow"];
        assert_eq!(TokenPictures::of("bowman", "longbow", longbow).weapon, Some("pocket-bow"));
        assert_eq!(TokenPictures::of("pocket-bow", "longbow", longbow).weapon, None);
    }
}
