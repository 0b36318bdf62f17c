//! The unit icons for the board: every shipped game-icons.net PNG (`assets/icons/`), built into
//! the binary so the game plays from any directory, decoded once at startup into image handles.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

use crate::levels::ModPictures;
use crate::levels::icons::GENERIC_ICON;

/// `(name, the bytes of assets/icons/<name>.png)`.
macro_rules! icon {
    ($name:literal) => {
        ($name, include_bytes!(concat!("../../assets/icons/", $name, ".png")).as_slice())
    };
}

/// Every shipped icon's PNG, in [`ICON_NAMES`](crate::levels::icons::ICON_NAMES) order.
const ICON_BYTES: &[(&str, &[u8])] = &[
    icon!("crossed-swords"),
    icon!("lion"),
    icon!("lynx-head"),
    icon!("visored-helm"),
    icon!("hooded-assassin"),
    icon!("sun-priest"),
    icon!("wizard-face"),
    icon!("bandit"),
    icon!("bowman"),
    icon!("pirate-captain"),
    icon!("centurion-helmet"),
    icon!("woman-elf-face"),
    icon!("goblin-head"),
    icon!("goblin"),
    icon!("warlord-helmet"),
    icon!("witch-face"),
    icon!("ogre"),
    icon!("orc-head"),
    icon!("wolf-head"),
    icon!("direwolf"),
    icon!("skull-crossed-bones"),
    icon!("william-tell-skull"),
    icon!("shambling-zombie"),
    icon!("fist"),
    icon!("claw-slashes"),
    icon!("fangs"),
    icon!("wood-club"),
    icon!("wizard-staff"),
    icon!("plain-dagger"),
    icon!("broadsword"),
    icon!("battle-axe"),
    icon!("war-pick"),
    icon!("spiked-mace"),
    icon!("warhammer"),
    icon!("spear-hook"),
    icon!("halberd"),
    icon!("sling"),
    icon!("pocket-bow"),
    icon!("crossbow"),
    icon!("torch"),
    icon!("fishing-net"),
];

/// The decoded icons by name, for token sprites and egui images.
#[derive(Resource, Clone, Debug, Default)]
pub struct Icons {
    handles: HashMap<String, Handle<Image>>,
    /// The PNG each mod icon was decoded from, to notice a new or moved one.
    mod_files: HashMap<String, PathBuf>,
}

impl Icons {
    /// The image of icon `name` (a unit's [`Icon`](crate::levels::icons::Icon)), or the generic
    /// icon's when `name` is not shipped; the default (white) image if even that failed to decode.
    pub fn handle(&self, name: &str) -> Handle<Image> {
        self.handles.get(name).or_else(|| self.handles.get(GENERIC_ICON)).cloned().unwrap_or_default()
    }

    /// Decodes the PNGs of mod icons (`files`: a mod's `icons/<name>.png` by name) that are new
    /// or moved since the last look, so tokens of mod creatures show their own pictures.
    pub fn add_mod_icons(&mut self, files: &BTreeMap<String, PathBuf>, images: &mut Assets<Image>) {
        for (name, path) in files {
            if self.mod_files.get(name) == Some(path) {
                continue;
            }
            match std::fs::read(path)
                .map_err(|error| error.to_string())
                .and_then(|bytes| decode(&bytes).map_err(|error| error.to_string()))
            {
                Ok(image) => {
                    self.handles.insert(name.clone(), images.add(image));
                }
                // `fray check` accepted the name; a PNG that will not decode costs its picture only.
                Err(error) => warn!("mod icon \"{name}\" ({}) did not load: {error}", path.display()),
            }
            self.mod_files.insert(name.clone(), path.clone());
        }
    }
}

/// Adds the [`Icons`] resource (empty until Startup decodes the PNGs).
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Icons>().add_systems(Startup, load_icons).add_systems(PreUpdate, load_mod_icons);
}

fn load_icons(mut icons: ResMut<Icons>, mut images: ResMut<Assets<Image>>) {
    for &(name, bytes) in ICON_BYTES {
        match decode(bytes) {
            Ok(image) => {
                icons.handles.insert(name.to_string(), images.add(image));
            }
            // The shipped PNGs are checked by a test; a bad one costs its picture, not the game.
            Err(error) => warn!("icon \"{name}\" did not decode: {error}"),
        }
    }
}

/// Decodes the mod icons of the battle in play (its level's [`ModPictures`]) when a battle
/// brings new ones. Runs before the board spawns tokens.
fn load_mod_icons(mut icons: ResMut<Icons>, mut images: ResMut<Assets<Image>>, pictures: Option<Res<ModPictures>>) {
    if let Some(pictures) = pictures.filter(|pictures| pictures.is_changed()) {
        icons.add_mod_icons(&pictures.icons, &mut images);
    }
}

fn decode(bytes: &[u8]) -> Result<Image, bevy::image::TextureError> {
    // The silhouettes are white, so sRGB or not they read the same; sRGB keeps tinting honest.
    const IS_SRGB: bool = true;
    Image::from_buffer(
        bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        IS_SRGB,
        ImageSampler::linear(),
        RenderAssetUsages::default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::icons::ICON_NAMES;

    /// The side of every shipped icon, in pixels (`xtask` renders them at this size).
    const ICON_SIZE: u32 = 96;

    #[test]
    fn embeds_exactly_the_shipped_icons_in_order() {
        let embedded: Vec<&str> = ICON_BYTES.iter().map(|(name, _)| *name).collect();
        assert_eq!(embedded, ICON_NAMES, "ICON_BYTES and ICON_NAMES disagree");
    }

    #[test]
    fn every_icon_decodes_at_its_size() {
        for &(name, bytes) in ICON_BYTES {
            let image = decode(bytes).unwrap_or_else(|error| panic!("icon \"{name}\": {error}"));
            assert_eq!((image.width(), image.height()), (ICON_SIZE, ICON_SIZE), "icon \"{name}\"");
        }
    }

    #[test]
    fn unknown_names_fall_back_to_the_generic_icon() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default())).init_asset::<Image>().add_plugins(plugin);
        app.update();
        let icons = app.world().resource::<Icons>();
        assert_eq!(icons.handles.len(), ICON_NAMES.len());
        assert_eq!(icons.handle("no-such-icon"), icons.handle(GENERIC_ICON));
        assert_ne!(icons.handle("wolf-head"), icons.handle(GENERIC_ICON));
    }
}
