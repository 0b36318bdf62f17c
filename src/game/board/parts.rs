//! The board's components and resources: zone and token markers, token scale and detail, the
//! layout, and what the board shows (places, nudges, vitals, hover).

use super::*;

/// The tag naming the drafted target's cover, on a grid.
#[derive(Component, Debug)]
pub(super) struct CoverTag;

/// A unit's token, pointing at the unit.
#[derive(Component, Debug)]
pub struct Token(pub Entity);

/// A token's settled scale (without the flash of a hit), for laying out around it.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct TokenScale(pub f32);

/// Whether a token shows its small parts: while the board's largest token is drawn large
/// enough on screen for them to read (see [`DETAIL_RADIUS_PX`]); else only its disc, bars and
/// cross are drawn, and its name only while it is hovered, selected, declaring or targeted.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenDetail(pub bool);

impl Default for TokenDetail {
    fn default() -> Self {
        Self(true)
    }
}

impl Default for TokenScale {
    fn default() -> Self {
        Self(1.0)
    }
}

/// What a token's disc and bars cover, centred at `centre` and drawn at `scale`.
pub fn token_body(centre: Vec2, scale: f32) -> Rect {
    let top = TOKEN_RADIUS + STRESS_BAR_RISE + BAR_HEIGHT / 2.0;
    let half_width = TOKEN_RADIUS.max(BAR_WIDTH / 2.0);
    Rect::from_corners(
        centre + Vec2::new(-half_width, -TOKEN_RADIUS) * scale,
        centre + Vec2::new(half_width, top) * scale,
    )
}

/// A token's Stress bar.
#[derive(Component, Debug)]
pub(super) struct StressBar;

/// A token's Wound bar.
#[derive(Component, Debug)]
pub(super) struct WoundBar;

/// A token's status text.
#[derive(Component, Debug)]
pub(super) struct StatusMark;

/// The cross over a dead unit's token.
#[derive(Component, Debug)]
pub(super) struct FallenCross;

/// A token's name line, with the unit's whole name (the text shows as much of it as fits).
#[derive(Component, Debug)]
pub struct NameLabel {
    /// The unit's whole name.
    pub full: String,
}

/// What a token last showed, to notice hits.
#[derive(Component, Debug)]
pub(super) struct TokenMemory {
    pub(super) health: i32,
    pub(super) flash: f32,
    /// Fits tokens to the room their zone has.
    pub(super) crowd_scale: f32,
    /// The colour last given to its disc: its side's in the palette in force, for its look.
    pub(super) colour: Option<Color>,
}

impl Default for TokenMemory {
    fn default() -> Self {
        Self { health: i32::MIN, flash: 0.0, crowd_scale: 1.0, colour: None }
    }
}

/// Where some tokens stand for now instead of their unit's place: walkers part way along a path
/// while their count plays out (see [`crate::game::playout`]).
#[derive(Resource, Debug, Default)]
pub struct ShownPlaces(pub HashMap<Entity, Vec2>);

/// How far some tokens lean off their place for now, in board pixels: a melee blow's lunge
/// toward its target while its line plays (see [`crate::game::playout`]).
#[derive(Resource, Debug, Default)]
pub struct ShownNudges(pub HashMap<Entity, Vec2>);

/// What some tokens show for now instead of their unit's Stress, Wounds and status: units
/// whose blows and falls in the count on show have not come up yet (see [`crate::game::playout`]).
#[derive(Resource, Debug, Default, PartialEq)]
pub struct ShownVitals(pub HashMap<Entity, Vitals>);

/// A unit's Stress and Wound Points and its status, as a token shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vitals {
    /// Stress now.
    pub stress: i32,
    /// Wound Points now.
    pub wounds: i32,
    /// Its status.
    pub status: Status,
}

/// The unit under the pointer.
#[derive(Resource, Debug, Default)]
pub struct Hovered(pub Option<Entity>);

/// The zone (or grid square) under the pointer.
#[derive(Resource, Debug, Default)]
pub struct HoveredZone(pub Option<ZoneIdx>);
