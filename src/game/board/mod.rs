//! The board in Bevy 2D: zones as labelled areas joined by their adjacency (or, on a grid
//! battlefield, a grid of square tiles: open, wall, slit and difficult ground), units as tokens
//! coloured by side with Stress and Wound bars and status marks, threat, hover and selection
//! rings, the drafted target's cover, and short animations for moves and hits.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::window::WindowResized;
use bevy_egui::input::egui_wants_any_pointer_input;
use leafwing_input_manager::prelude::ActionState;

use super::icons::Icons;
use super::model::battle_ui::{BattleUi, DeclarationOptions, Player, UiCommand};
use super::model::board::{
    BoardLayout, BoardZone, CHAR_WIDTH as LABEL_CHAR_WIDTH, DetailPart, FEWEST_CHARS, GRID_TILE, LABEL_PX,
    LINE_HEIGHT as LABEL_LINE_HEIGHT, square_centre,
};
use super::model::player_action::PlayerAction;
use super::model::screen::Screen;
use super::spine::GameSystems;
use super::terrain_art::TerrainArt;
use super::token_art::{SIDE_SHAPES, TokenPictures, badge_parts, side_shape, side_speck, spawn_pictures};
use crate::battlefield::{Battlefield, Cover, Square, ZoneIdx};
use crate::levels::icons::Icon;
use crate::levels::terrain::{BoardLooks, Looks, ZoneTerrain};
use crate::rules::components::*;

mod layout;
mod palette;
mod parts;
mod pointer;
mod tokens;
mod zone_sprites;

use layout::token_area;
pub use layout::{crowd_slot, layout, zone_height};
use palette::{
    BAR_HEIGHT, BAR_WIDTH, COVER_TAG_SIZE, CROSS_COLOUR, CROSS_LENGTH, CROSS_WIDTH, CROSS_Z, DECLARER_COLOUR,
    DESTINATION_COLOUR, DETAIL_RADIUS_PX, DRAFTED_DESTINATION_COLOUR, FALLEN_CORNER, FALLEN_SCALE, FALLEN_Z,
    FIT_TOLERANCE, FLASH_SECONDS, FLASH_SWELL, FULL_COVER_COLOUR, GLIDE_RATE, GLIDE_SNAP, GOOD_NAME_CHARS,
    GOOD_TOKEN_PX, GRID_NUMBER_COLOUR, GRID_NUMBER_SIZE, GRID_TOKEN_SCALE, HALF_COVER_COLOUR, HOVER_COLOUR,
    HOVER_REACH, HOVER_SQUARE_COLOUR, LABEL_ROOM, LEAST_NAMED_SCALE, LINE_HEIGHT, LINK_COLOUR, LINK_WIDTH, LINK_Z,
    NO_COVER_COLOUR, RIM_COLOUR, RIM_WIDTH, RIM_Z, ROW_SPREAD, SELECTED_COLOUR, SHARED_SQUARE_SCALE,
    SPECK_ARC_SEGMENTS, STATUS_MARK_COLOUR, STRESS_BAR_COLOUR, STRESS_BAR_RISE, TARGET_COLOUR, THEN_MOVE_COLOUR,
    THEN_MOVE_OFFERED_COLOUR, THREAT_ARC, THREAT_ARCS, THREAT_COLOUR, THREAT_RING_REACH, TOKEN_BODY, TOKEN_LABEL_SIZE,
    TOKEN_LIFT, TOKEN_Z, WOUND_BAR_COLOUR, WOUND_BAR_RISE, ZONE_GAP_DOWN, ZONE_HEIGHT_MAX, ZONE_HEIGHT_MIN,
    ZONE_LABEL_COLOUR, ZONE_LABEL_SIZE, ZONE_PADDING, ZONE_TOKEN_MAX_SCALE,
};
pub(crate) use palette::{DIFFICULT_TILE_COLOUR, OPEN_TILE_COLOUR, WALL_TILE_COLOUR};
pub use palette::{Look, SidePalette, TOKEN_RADIUS, ZONE_SPACING, ZONE_WIDTH, token_colour};
use parts::{CoverTag, FallenCross, StatusMark, StressBar, TokenMemory, WoundBar};
pub use parts::{
    Hovered, HoveredZone, NameLabel, ShownNudges, ShownPlaces, ShownVitals, Token, TokenDetail, TokenScale, Vitals,
    token_body,
};
use pointer::{draw_rings, forget_hover, hover_and_pick, show_cover};
pub use tokens::TokenPalette;
use tokens::{place_tokens, refresh_tokens, sync_tokens};
use zone_sprites::rebuild_zones;
#[cfg(test)]
use zone_sprites::zone_label;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardLayout>()
        .init_resource::<SidePalette>()
        .init_resource::<Hovered>()
        .init_resource::<HoveredZone>()
        .init_resource::<TokenPalette>()
        .init_resource::<ShownPlaces>()
        .init_resource::<ShownNudges>()
        .init_resource::<ShownVitals>()
        .add_systems(
            Update,
            (
                rebuild_zones,
                sync_tokens,
                place_tokens,
                refresh_tokens,
                hover_and_pick.run_if(not(egui_wants_any_pointer_input)),
                // Over a panel the board hovers nothing, so nothing stays hovered behind it.
                forget_hover.run_if(egui_wants_any_pointer_input),
                show_cover,
                draw_rings,
            )
                .chain()
                .in_set(GameSystems::Board)
                .run_if(in_state(Screen::Battle)),
        );
}
