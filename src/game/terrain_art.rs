//! The board's terrain art: the shipped tileable textures (`assets/textures/`, from OpenClonk,
//! see `assets/CREDITS.md`), built into the binary and decoded once, the tint each terrain
//! draws its texture with, and mod textures (a mod's `textures/<name>.png`) decoded when a level
//! names them. Looks only: see [`crate::levels::terrain`].

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageAddressMode, ImageSampler, ImageSamplerDescriptor, ImageType};
use bevy::prelude::*;

use super::model::board::{BoardZone, GRID_GAP, GRID_LINE_COLOUR, GRID_TILE, SLIT_GAP_COLOUR, square_centre};
use super::model::screen::Screen;
use crate::battlefield::grid::{SCALE, SLIT_HALF_WIDTH};
use crate::battlefield::{GridMap, Square, Terrain};
use crate::levels::terrain::{Looks, SquareTerrain, ZoneTerrain};

/// A shipped texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Texture {
    /// Brick and stone courses.
    Wall,
    /// Smooth stone slabs.
    Floor,
    /// Rounded grey stones.
    Stone,
    /// Dark broken rock.
    Rubble,
    /// Bare brown earth.
    Earth,
    /// Earth with roots.
    Roots,
    /// Wet, spongy earth.
    Mud,
    /// Rippled sand.
    Sand,
    /// Water.
    Water,
}

/// Every shipped texture with the bytes of its PNG.
const TEXTURE_BYTES: [(Texture, &[u8]); 9] = [
    (Texture::Wall, include_bytes!("../../assets/textures/wall.png")),
    (Texture::Floor, include_bytes!("../../assets/textures/floor.png")),
    (Texture::Stone, include_bytes!("../../assets/textures/stone.png")),
    (Texture::Rubble, include_bytes!("../../assets/textures/rubble.png")),
    (Texture::Earth, include_bytes!("../../assets/textures/earth.png")),
    (Texture::Roots, include_bytes!("../../assets/textures/roots.png")),
    (Texture::Mud, include_bytes!("../../assets/textures/mud.png")),
    (Texture::Sand, include_bytes!("../../assets/textures/sand.png")),
    (Texture::Water, include_bytes!("../../assets/textures/water.png")),
];

/// Texture pixels across one grid square: half a shipped texture, so its pattern spans two
/// squares and reads as ground, not as a tile per square.
pub const TEXELS_PER_SQUARE: f32 = 64.0;
/// Texture pixels across one board unit on a zone: zones are a few hundred units wide, so a
/// texture repeats two or three times across one.
pub const TEXELS_PER_ZONE_UNIT: f32 = 0.6;

/// How a zone of `terrain` is drawn: its texture and the tint multiplied in (zones are darkened
/// so their light labels and the tokens stand out).
pub fn zone_art(terrain: ZoneTerrain) -> (Texture, Color) {
    match terrain {
        ZoneTerrain::Field => (Texture::Roots, Color::srgb(0.5, 0.68, 0.36)),
        ZoneTerrain::Road => (Texture::Earth, Color::srgb(0.85, 0.78, 0.66)),
        ZoneTerrain::Forest => (Texture::Roots, Color::srgb(0.3, 0.46, 0.26)),
        ZoneTerrain::River => (Texture::Water, Color::srgb(0.85, 0.9, 1.0)),
        ZoneTerrain::Bridge => (Texture::Stone, Color::srgb(0.62, 0.56, 0.48)),
        ZoneTerrain::Ruins => (Texture::Wall, Color::srgb(0.45, 0.43, 0.42)),
        ZoneTerrain::Hall => (Texture::Floor, Color::srgb(0.62, 0.6, 0.58)),
        ZoneTerrain::Marsh => (Texture::Mud, Color::srgb(0.55, 0.62, 0.45)),
        ZoneTerrain::Rough => (Texture::Rubble, Color::srgb(0.95, 0.85, 0.75)),
        ZoneTerrain::Passage => (Texture::Floor, Color::srgb(0.45, 0.47, 0.56)),
        ZoneTerrain::Sand => (Texture::Sand, Color::srgb(0.7, 0.66, 0.58)),
    }
}

/// How a grid square of `terrain` is drawn: its texture and tint. Ground is light and walls
/// are dark brick, so a wall reads as a wall at a glance; difficult ground is mud, rubble or
/// water, never plain floor.
pub fn square_art(terrain: SquareTerrain) -> (Texture, Color) {
    match terrain {
        SquareTerrain::Floor => (Texture::Floor, Color::srgb(0.85, 0.85, 0.8)),
        SquareTerrain::Grass => (Texture::Roots, Color::srgb(0.62, 0.82, 0.45)),
        SquareTerrain::Dirt => (Texture::Earth, Color::srgb(0.9, 0.82, 0.7)),
        SquareTerrain::Sand => (Texture::Sand, Color::srgb(0.9, 0.88, 0.8)),
        SquareTerrain::Flagstones => (Texture::Stone, Color::srgb(0.85, 0.84, 0.8)),
        SquareTerrain::Wall | SquareTerrain::ArrowSlit => (Texture::Wall, Color::srgb(0.45, 0.4, 0.4)),
        SquareTerrain::Rock => (Texture::Rubble, Color::srgb(0.75, 0.72, 0.7)),
        SquareTerrain::Rubble => (Texture::Stone, Color::srgb(0.78, 0.62, 0.42)),
        SquareTerrain::Mud => (Texture::Mud, Color::WHITE),
        SquareTerrain::Shallows => (Texture::Water, Color::srgb(1.0, 1.0, 1.0)),
    }
}

/// The decoded textures: image handles for sprites, and the images themselves for the painted
/// floor of a big grid (see `board::floor_image`).
#[derive(Resource, Debug, Default)]
pub struct TerrainArt {
    shipped: HashMap<Texture, (Handle<Image>, Image)>,
    /// Mod textures by file, decoded when first drawn (`None`: it would not load).
    mods: HashMap<PathBuf, Option<(Handle<Image>, Image)>>,
}

impl TerrainArt {
    /// The sprite image and its decoded pixels for a shipped texture.
    pub fn shipped(&self, texture: Texture) -> Option<&(Handle<Image>, Image)> {
        self.shipped.get(&texture)
    }

    /// The mod texture `name` (a mod's `textures/<name>.png`, found in `textures`: the mods'
    /// textures of the level in play), decoded on first use; `None` when no mod brings it or it
    /// will not decode (the terrain's own texture is drawn instead).
    pub fn modded(
        &mut self,
        name: &str,
        textures: &BTreeMap<String, PathBuf>,
        images: &mut Assets<Image>,
    ) -> Option<&(Handle<Image>, Image)> {
        let path = textures.get(name)?;
        if !self.mods.contains_key(path) {
            let loaded = match std::fs::read(path).map_err(|error| error.to_string()).and_then(|bytes| decode(&bytes)) {
                Ok(image) => Some((images.add(image.clone()), image)),
                Err(error) => {
                    // `fray check` accepted the name; a PNG that will not decode costs its look only.
                    warn!("mod texture \"{name}\" ({}) did not load: {error}", path.display());
                    None
                }
            };
            self.mods.insert(path.clone(), loaded);
        }
        self.mods.get(path).and_then(Option::as_ref)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TerrainArt>().add_systems(Startup, decode_shipped);
}

/// Decodes every shipped texture once.
fn decode_shipped(mut art: ResMut<TerrainArt>, mut images: ResMut<Assets<Image>>) {
    for (texture, bytes) in TEXTURE_BYTES {
        match decode(bytes) {
            Ok(image) => {
                art.shipped.insert(texture, (images.add(image.clone()), image));
            }
            Err(error) => error!("texture {texture:?} did not decode: {error}"),
        }
    }
}

/// A PNG as an image that repeats past its edges, so a sprite's rect can tile it.
fn decode(bytes: &[u8]) -> Result<Image, String> {
    const IS_SRGB: bool = true;
    let sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        ..ImageSamplerDescriptor::linear()
    });
    let image = Image::from_buffer(
        bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        IS_SRGB,
        sampler.clone(),
        RenderAssetUsages::default(),
    )
    .map_err(|error| error.to_string())?;
    // The painted floor reads pixels as RGBA bytes; a palette PNG may decode to another layout.
    let mut image = image
        .convert(bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb)
        .ok_or_else(|| "not RGBA".to_string())?;
    // Converting makes a new image with the default sampler, which would clamp at the edges.
    image.sampler = sampler;
    Ok(image)
}

/// A look as drawn: the sprite image, its pixels, and the tint.
type Drawn = (Handle<Image>, Image, Color);

/// Each distinct look of a grid's squares, resolved once: a mod texture (untinted) where one is
/// named and loads, else the terrain's shipped texture and tint.
fn resolve_squares(
    looks: &[Looks<SquareTerrain>],
    (art, textures): (&mut TerrainArt, &BTreeMap<String, PathBuf>),
    images: &mut Assets<Image>,
) -> HashMap<Looks<SquareTerrain>, Drawn> {
    let mut drawn = HashMap::new();
    for look in looks {
        if drawn.contains_key(look) {
            continue;
        }
        let modded = look.texture.as_deref().and_then(|name| art.modded(name, textures, images)).cloned();
        let resolved = modded.map(|(handle, image)| (handle, image, Color::WHITE)).or_else(|| {
            let (texture, tint) = square_art(look.terrain);
            art.shipped(texture).map(|(handle, image)| (handle.clone(), image.clone(), tint))
        });
        if let Some(resolved) = resolved {
            drawn.insert(look.clone(), resolved);
        }
    }
    drawn
}

/// How zone `look` is drawn (`textures`: the mods' textures of the level in play): its sprite
/// image (none if it failed to decode) and tint.
pub fn zone_sprite(
    look: &Looks<ZoneTerrain>,
    (art, textures): (&mut TerrainArt, &BTreeMap<String, PathBuf>),
    images: &mut Assets<Image>,
    size: Vec2,
) -> Sprite {
    let modded =
        look.texture.as_deref().and_then(|name| art.modded(name, textures, images)).map(|(handle, _)| handle.clone());
    let (texture, tint) = zone_art(look.terrain);
    let (image, tint) = match modded {
        Some(handle) => (Some(handle), Color::WHITE),
        None => (art.shipped(texture).map(|(handle, _)| handle.clone()), tint),
    };
    let Some(image) = image else {
        return Sprite::from_color(tint, size);
    };
    // A rect larger than the image repeats it (its sampler wraps), tiling the zone in one quad.
    let rect = Rect::from_corners(Vec2::ZERO, size * TEXELS_PER_ZONE_UNIT);
    Sprite { custom_size: Some(size), rect: Some(rect), color: tint, ..Sprite::from_image(image) }
}

/// From this many squares up, the floor is one painted picture instead of a sprite per square:
/// a 64x64 siege field would otherwise be four thousand sprites to draw every frame.
const PAINTED_FLOOR_SQUARES: usize = 32 * 32;
/// Pixels a side of one square in the painted floor; its lines are one pixel wide.
const PAINTED_SQUARE_PIXELS: usize = 20;

/// Draws a grid battlefield's squares as their terrain looks (`looks`, row by row; squares it
/// does not cover look as their kind): a tile per square on a background that shows as the grid
/// lines, walls full size so they merge, slits as walls with a gap; a big grid as one picture.
pub(super) fn spawn_grid_squares(
    commands: &mut Commands,
    grid: &GridMap,
    looks: &[Looks<SquareTerrain>],
    (art, textures): (&mut TerrainArt, &BTreeMap<String, PathBuf>),
    images: &mut Assets<Image>,
) {
    let (width, height) = (i32::from(grid.width()), i32::from(grid.height()));
    let cells = usize::from(grid.width()) * usize::from(grid.height());
    let look_of = |cell: usize| {
        looks.get(cell).cloned().unwrap_or_else(|| Looks {
            terrain: SquareTerrain::default_for(grid.terrain(grid.square(cell))),
            texture: None,
        })
    };
    let all: Vec<Looks<SquareTerrain>> = (0..cells).map(look_of).collect();
    let drawn = resolve_squares(&all, (art, textures), images);
    let top_left = square_centre(Square::new(0, 0));
    let bottom_right = square_centre(Square::new(width - 1, height - 1));
    let extent = Vec2::new(width as f32, height as f32) * GRID_TILE;
    let middle = (top_left + bottom_right) / 2.0;
    if cells >= PAINTED_FLOOR_SQUARES {
        let floor = floor_image(grid, &all, &drawn);
        commands.spawn((
            BoardZone,
            DespawnOnExit(Screen::Battle),
            Sprite { custom_size: Some(extent), ..Sprite::from_image(images.add(floor)) },
            Transform::from_translation(middle.extend(0.0)),
        ));
        return;
    }
    commands.spawn((
        BoardZone,
        DespawnOnExit(Screen::Battle),
        Sprite::from_color(GRID_LINE_COLOUR, extent + Vec2::splat(GRID_GAP)),
        Transform::from_translation(middle.extend(-1.0)),
    ));
    // The slit's opening is a band around its centre, as wide as the rules' sight opening.
    let gap = GRID_TILE * (2 * SLIT_HALF_WIDTH) as f32 / SCALE as f32;
    for (cell, look) in all.iter().enumerate() {
        let square = grid.square(cell);
        let kind = grid.terrain(square);
        // Walls fill their square, so neighbouring walls merge into one mass; ground leaves
        // the grid line showing.
        let size = if kind.solid() { Vec2::splat(GRID_TILE) } else { Vec2::splat(GRID_TILE - GRID_GAP) };
        let sprite = match drawn.get(look) {
            Some((handle, _, tint)) => {
                // Each square shows its own part of the texture, so the ground runs on unbroken.
                let texels = TEXELS_PER_SQUARE / GRID_TILE;
                let corner = Vec2::new(square.x as f32, square.y as f32) * TEXELS_PER_SQUARE;
                let rect = Rect::from_corners(corner, corner + size * texels);
                Sprite { custom_size: Some(size), rect: Some(rect), color: *tint, ..Sprite::from_image(handle.clone()) }
            }
            None => Sprite::from_color(GRID_LINE_COLOUR, size),
        };
        let mut tile = commands.spawn((
            BoardZone,
            DespawnOnExit(Screen::Battle),
            sprite,
            Transform::from_translation(square_centre(square).extend(0.0)),
        ));
        if kind == Terrain::Slit {
            let opening = slit_opening(grid, square, gap);
            tile.with_child((Sprite::from_color(SLIT_GAP_COLOUR, opening), Transform::from_xyz(0.0, 0.0, 0.1)));
        }
    }
}

/// Whether the square at `(x, y)` is on the map and stops sight.
fn solid(grid: &GridMap, x: i32, y: i32) -> bool {
    let square = Square::new(x, y);
    grid.contains(square) && grid.terrain(square).solid()
}

/// A slit's opening, `gap` wide: a wall running left–right is pierced top to bottom, and the
/// other way round; a lone slit (or a corner) shows it as a hole in the middle.
fn slit_opening(grid: &GridMap, square: Square, gap: f32) -> Vec2 {
    let (x, y) = (square.x, square.y);
    let across = solid(grid, x - 1, y) || solid(grid, x + 1, y);
    let along = solid(grid, x, y - 1) || solid(grid, x, y + 1);
    match (across, along) {
        (true, false) => Vec2::new(gap, GRID_TILE),
        (false, true) => Vec2::new(GRID_TILE, gap),
        _ => Vec2::splat(gap),
    }
}

/// The floor of `grid` painted as one picture, square by square as the sprites would draw it:
/// each square's texture at the same scale, a line on the top and left edge of ground, walls
/// solid and merging, slits as walls with their opening.
fn floor_image(grid: &GridMap, looks: &[Looks<SquareTerrain>], drawn: &HashMap<Looks<SquareTerrain>, Drawn>) -> Image {
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    let side = PAINTED_SQUARE_PIXELS;
    let (width, height) = (usize::from(grid.width()), usize::from(grid.height()));
    let line = GRID_LINE_COLOUR.to_srgba().to_u8_array();
    let gap_colour = SLIT_GAP_COLOUR.to_srgba().to_u8_array();
    let half_gap = (side * SLIT_HALF_WIDTH as usize / SCALE as usize).max(1);
    let middle = side / 2;
    let texels = TEXELS_PER_SQUARE / side as f32;
    let mut pixels = vec![0u8; width * side * height * side * 4];
    for (cell, look) in looks.iter().enumerate() {
        let square = grid.square(cell);
        let kind = grid.terrain(square);
        let resolved = drawn.get(look).map(|(_, image, tint)| {
            let tint = tint.to_srgba();
            (image, [tint.red, tint.green, tint.blue])
        });
        let opening = (kind == Terrain::Slit).then(|| slit_opening(grid, square, 1.0));
        let (x, y) = (square.x as usize, square.y as usize);
        for dy in 0..side {
            for dx in 0..side {
                let (px, py) = (x * side + dx, y * side + dy);
                let in_opening = opening.is_some_and(|opening| {
                    (opening.x >= GRID_TILE || dx.abs_diff(middle) < half_gap)
                        && (opening.y >= GRID_TILE || dy.abs_diff(middle) < half_gap)
                });
                let colour = if !kind.solid() && (dx == 0 || dy == 0) {
                    line
                } else if in_opening {
                    gap_colour
                } else {
                    resolved.map_or(line, |(image, tint)| {
                        sample(image, (px as f32 * texels) as usize, (py as f32 * texels) as usize, tint)
                    })
                };
                let at = (py * width * side + px) * 4;
                pixels[at..at + 4].copy_from_slice(&colour);
            }
        }
    }
    let size = Extent3d { width: (width * side) as u32, height: (height * side) as u32, depth_or_array_layers: 1 };
    let mut image =
        Image::new(size, TextureDimension::D2, pixels, TextureFormat::Rgba8UnormSrgb, RenderAssetUsages::RENDER_WORLD);
    // Seen whole, a square is a few pixels: blending keeps every line equally faint.
    image.sampler = ImageSampler::linear();
    image
}

/// The colour of texture `image`'s pixel at `(x, y)`, wrapping past its edges, times `tint`.
pub fn sample(image: &Image, x: usize, y: usize, tint: [f32; 3]) -> [u8; 4] {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let at = ((y % height.max(1)) * width + x % width.max(1)) * 4;
    let Some(pixel) = image.data.as_ref().and_then(|data| data.get(at..at + 4)) else {
        return [0, 0, 0, 255];
    };
    let shade = |channel: usize| (f32::from(pixel[channel]) * tint[channel]).round().clamp(0.0, 255.0) as u8;
    [shade(0), shade(1), shade(2), 255]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_texture_decodes_to_rgba_at_128_pixels() {
        for (texture, bytes) in TEXTURE_BYTES {
            let image = decode(bytes).unwrap_or_else(|error| panic!("{texture:?}: {error}"));
            assert_eq!((image.width(), image.height()), (128, 128), "{texture:?}");
            assert_eq!(image.data.as_ref().map(Vec::len), Some(128 * 128 * 4), "{texture:?}");
        }
    }

    #[test]
    fn walls_are_darker_than_any_ground_so_they_read_as_walls() {
        let brightness = |terrain: SquareTerrain| {
            let (texture, tint) = square_art(terrain);
            let bytes = TEXTURE_BYTES.iter().find(|(shipped, _)| *shipped == texture).expect("shipped").1;
            let image = decode(bytes).expect("decodes");
            let tint = tint.to_srgba();
            let data = image.data.expect("pixels");
            let sum: f32 = data
                .chunks(4)
                // Relative luminance (Rec. 709 weights), as the eye judges light and dark.
                .map(|pixel| {
                    0.2126 * f32::from(pixel[0]) * tint.red
                        + 0.7152 * f32::from(pixel[1]) * tint.green
                        + 0.0722 * f32::from(pixel[2]) * tint.blue
                })
                .sum();
            sum / (data.len() / 4) as f32
        };
        let wall = brightness(SquareTerrain::Wall);
        for ground in [SquareTerrain::Floor, SquareTerrain::Grass, SquareTerrain::Sand, SquareTerrain::Flagstones] {
            assert!(brightness(ground) > wall * 1.2, "{ground:?} is not clearly lighter than a wall");
        }
    }
}
