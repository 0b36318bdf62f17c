//! The board's sizes and colours: spacing, token and bar measures, side palettes (with the
//! colour-blind one) and how a token's look shades its colour.

use super::*;

/// Board pixels between zone centres, across.
pub const ZONE_SPACING: f32 = 280.0;
/// A zone's drawn width.
pub const ZONE_WIDTH: f32 = 255.0;
/// Board pixels between one zone's bottom and the next one's top.
pub(super) const ZONE_GAP_DOWN: f32 = 30.0;
/// Least height of a zone.
pub(super) const ZONE_HEIGHT_MIN: f32 = 220.0;
/// Greatest height of a zone.
pub(super) const ZONE_HEIGHT_MAX: f32 = 450.0;
/// Room kept clear inside a zone's edges.
pub(super) const ZONE_PADDING: f32 = 8.0;
/// Height of a line of zone label, as a share of its font size.
pub(super) const LINE_HEIGHT: f32 = 1.25;
/// Size of the grid's row and column numbers, in board pixels: two fifths of a square, so they stay
/// readable (about 10 screen pixels) when a 28-square-wide field is seen whole.
pub(super) const GRID_NUMBER_SIZE: f32 = GRID_TILE * 0.4;
/// A token's radius.
pub const TOKEN_RADIUS: f32 = 20.0;
/// What a token's disc and bars take up at scale 1, with a little room around.
pub(super) const TOKEN_BODY: Vec2 = Vec2::new(52.0, 58.0);
/// How far the disc's centre lies below the middle of the body (the bars are above it).
pub(super) const TOKEN_LIFT: f32 = 6.0;
/// Room around a name line, in screen pixels.
pub(super) const LABEL_ROOM: f32 = 3.0;
/// Width on screen, in pixels, of a token that reads well: its portrait, bars and marks. A crowd
/// gives its tokens this size before it gives their names more characters.
pub(super) const GOOD_TOKEN_PX: f32 = 48.0;
/// Characters of a name that read well.
pub(super) const GOOD_NAME_CHARS: f32 = 8.0;
/// Smallest token scale worth keeping a name line for.
pub(super) const LEAST_NAMED_SCALE: f32 = 0.45;
/// Largest scale of a token in a roomy zone, so a few units read well on a wide board.
pub(super) const ZONE_TOKEN_MAX_SCALE: f32 = 1.25;
/// A token's scale on a grid square, as large as the square leaves room for.
pub(super) const GRID_TOKEN_SCALE: f32 = 1.2;
/// Layouts whose quality differs by less than this are as good, and the larger scale wins.
pub(super) const FIT_TOLERANCE: f32 = 0.02;
/// Rows of tokens spread apart to at most this many times their height.
pub(super) const ROW_SPREAD: f32 = 1.3;
/// Width of a token's Stress and Wound bars.
pub(super) const BAR_WIDTH: f32 = 44.0;
/// Height of a bar.
pub(super) const BAR_HEIGHT: f32 = 5.0;
/// Height of the Wound bar's centre above the disc's edge (the Stress bar is above it).
pub(super) const WOUND_BAR_RISE: f32 = 4.0;
/// Height of the Stress bar's centre above the disc's edge.
pub(super) const STRESS_BAR_RISE: f32 = 10.0;
/// Zone label size, in board pixels.
pub(super) const ZONE_LABEL_SIZE: f32 = 22.0;
/// Token status mark size, in board pixels.
pub(super) const TOKEN_LABEL_SIZE: f32 = 15.0;
/// How fast tokens glide to where they stand (fraction of the way per second, exponential).
pub(super) const GLIDE_RATE: f32 = 8.0;
/// A gliding token this close to where it stands, in board pixels, is there: it then stops
/// changing, so its parts are not moved again every frame.
pub(super) const GLIDE_SNAP: f32 = 0.05;
/// Least radius on screen of the board's largest token, in screen pixels, at which tokens' small
/// parts (rim, icon, weapon badge, status mark and name) are drawn. The 4-vs-4 grids framed whole in the default window
/// draw tokens of about 6 to 8 pixels; the 64x64 siege framed whole about 3, where those parts
/// are specks, and drawing them for a thousand tokens took most of each frame.
pub(super) const DETAIL_RADIUS_PX: f32 = 5.0;
/// Fallen units' tokens shrink to this.
pub(super) const FALLEN_SCALE: f32 = 0.8;
/// A fallen unit sharing its square with another lies this much smaller, in a corner.
pub(super) const SHARED_SQUARE_SCALE: f32 = 0.6;
/// How far into the corner of its square a fallen unit lies, as a share of the square.
pub(super) const FALLEN_CORNER: f32 = 0.22;
/// Depth of a fighting unit's token (fallen ones lie under it).
pub(super) const TOKEN_Z: f32 = 5.0;
/// Depth of a fallen unit's token.
pub(super) const FALLEN_Z: f32 = 4.0;
/// Depth of the adjacency lines: over the zones, under their labels and the tokens.
pub(super) const LINK_Z: f32 = 0.5;
/// Width of an adjacency line, in board pixels.
pub(super) const LINK_WIDTH: f32 = 4.0;
/// Depth of a token's rim, under its disc.
pub(super) const RIM_Z: f32 = -0.1;
/// Depth of the cross on a dead unit's token, over its disc and bars.
pub(super) const CROSS_Z: f32 = 1.5;
/// Width of the dark rim around a token, in board pixels.
pub(super) const RIM_WIDTH: f32 = 2.5;
/// Length of each stroke of the cross on a dead unit's token, as a share of its diameter.
pub(super) const CROSS_LENGTH: f32 = 1.1;
/// Width of a stroke of the cross.
pub(super) const CROSS_WIDTH: f32 = 5.0;
/// How far the pointer may be from a token's centre to hover it, in radii.
pub(super) const HOVER_REACH: f32 = 1.2;
/// How long a hit flashes, in seconds.
pub(super) const FLASH_SECONDS: f32 = 0.45;
/// How much a hit token swells at the start of its flash.
pub(super) const FLASH_SWELL: f32 = 0.35;
/// How much of its side's colour a downed unit keeps (the rest is grey).
const DOWN_SATURATION: f32 = 0.5;
/// How much of its side's colour a fallen unit keeps.
const FALLEN_SATURATION: f32 = 0.15;
/// How bright a fallen unit's grey is, against the living (light enough for its cross to show).
const FALLEN_BRIGHTNESS: f32 = 0.95;
/// Side colours, by side index.
pub const SIDE_COLOURS: [Color; 6] = [
    Color::srgb(0.25, 0.55, 0.95),
    Color::srgb(0.9, 0.3, 0.25),
    Color::srgb(0.3, 0.75, 0.35),
    Color::srgb(0.85, 0.7, 0.2),
    Color::srgb(0.65, 0.4, 0.85),
    Color::srgb(0.3, 0.8, 0.8),
];
/// The Okabe–Ito colours (blue, vermillion, bluish green, orange, reddish purple, sky blue):
/// they stay apart with every common colour-vision deficiency.
pub const OKABE_ITO_COLOURS: [Color; 6] = [
    Color::srgb(0.0, 0.447, 0.698),
    Color::srgb(0.835, 0.369, 0.0),
    Color::srgb(0.0, 0.62, 0.451),
    Color::srgb(0.902, 0.624, 0.0),
    Color::srgb(0.8, 0.475, 0.655),
    Color::srgb(0.337, 0.706, 0.914),
];

/// The colours the sides take, as the settings screen chooses: the board's tokens read it as
/// a resource, and the panels from the egui context it is copied into (`ui::share_palette`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SidePalette {
    /// The standard side colours.
    #[default]
    Standard,
    /// The Okabe–Ito colours, which stay apart for colour-blind players.
    ColourBlind,
}

impl SidePalette {
    /// The palette the settings' switch chooses.
    pub fn chosen(colour_blind: bool) -> Self {
        if colour_blind { Self::ColourBlind } else { Self::Standard }
    }

    /// A side's colour in this palette.
    pub fn colour(self, side: usize) -> Color {
        let palette = match self {
            Self::Standard => &SIDE_COLOURS,
            Self::ColourBlind => &OKABE_ITO_COLOURS,
        };
        palette[side % palette.len()]
    }
}

/// Adjacency lines.
pub(super) const LINK_COLOUR: Color = Color::srgba(0.62, 0.62, 0.55, 0.45);
/// The dark rim around every token, so it stands out from any ground.
pub(super) const RIM_COLOUR: Color = Color::srgb(0.06, 0.06, 0.08);
/// The cross on a dead unit's token.
pub(super) const CROSS_COLOUR: Color = Color::srgba(0.1, 0.1, 0.1, 0.85);
/// Stress bar fill.
pub(super) const STRESS_BAR_COLOUR: Color = Color::srgb(0.35, 0.6, 1.0);
/// Wound bar fill.
pub(super) const WOUND_BAR_COLOUR: Color = Color::srgb(0.9, 0.2, 0.2);
/// Zone labels.
pub(super) const ZONE_LABEL_COLOUR: Color = Color::srgba(0.9, 0.9, 0.85, 0.85);
/// Status marks.
pub(super) const STATUS_MARK_COLOUR: Color = Color::srgb(1.0, 0.85, 0.3);
/// An open grid square.
pub(crate) const OPEN_TILE_COLOUR: Color = Color::srgb(0.4, 0.42, 0.37);
/// Difficult ground (rubble, mud).
pub(crate) const DIFFICULT_TILE_COLOUR: Color = Color::srgb(0.42, 0.34, 0.2);
/// A wall, and the solid part of a slit.
pub(crate) const WALL_TILE_COLOUR: Color = Color::srgb(0.08, 0.08, 0.1);
/// Row and column numbers.
pub(super) const GRID_NUMBER_COLOUR: Color = Color::srgba(0.85, 0.85, 0.8, 0.75);
/// Outline of the places the drafted action can move to.
pub(super) const DESTINATION_COLOUR: Color = Color::srgba(0.4, 1.0, 0.6, 0.35);
/// Outline of the drafted destination.
pub(super) const DRAFTED_DESTINATION_COLOUR: Color = Color::srgb(0.4, 1.0, 0.6);
/// Outline of a place the drafted action's unit may move to after acting (`C-MOVE-1`).
pub(super) const THEN_MOVE_OFFERED_COLOUR: Color = Color::srgba(0.5, 0.7, 1.0, 0.35);
/// Outline of where the drafted action's unit moves after acting (`C-MOVE-1`).
pub(super) const THEN_MOVE_COLOUR: Color = Color::srgb(0.5, 0.7, 1.0);
/// Outline of the square under the pointer.
pub(super) const HOVER_SQUARE_COLOUR: Color = Color::srgba(0.95, 0.95, 0.95, 0.6);
/// The cover tag of a target in half cover.
pub(super) const HALF_COVER_COLOUR: Color = Color::srgb(0.95, 0.8, 0.3);
/// The cover tag of a target in full cover.
pub(super) const FULL_COVER_COLOUR: Color = Color::srgb(1.0, 0.5, 0.15);
/// The cover tag of a target in the open.
pub(super) const NO_COVER_COLOUR: Color = Color::srgb(0.85, 0.95, 0.85);
/// Cover tag size, in board pixels.
pub(super) const COVER_TAG_SIZE: f32 = 17.0;
/// The broken ring of a threatened unit.
pub(super) const THREAT_COLOUR: Color = Color::srgb(1.0, 0.45, 0.85);
/// How many arcs a threatened unit's ring is broken into.
pub(super) const THREAT_ARCS: usize = 4;
/// Each arc's angle, in radians (a little over half of its quarter, so the gaps show).
pub(super) const THREAT_ARC: f32 = 0.9;
/// Segments of each threat arc around a token too small for detail.
pub(super) const SPECK_ARC_SEGMENTS: u32 = 2;
/// The threat ring's radius, in token radii: outside the corners of square and diamond tokens.
pub(super) const THREAT_RING_REACH: f32 = 1.3;
/// The ring of the selected unit.
pub(super) const SELECTED_COLOUR: Color = Color::srgb(1.0, 0.9, 0.2);
/// The ring of the unit under the pointer.
pub(super) const HOVER_COLOUR: Color = Color::srgb(0.95, 0.95, 0.95);
/// The ring of the unit declaring now.
pub(super) const DECLARER_COLOUR: Color = Color::srgb(0.4, 1.0, 0.6);
/// The ring of the drafted target.
pub(super) const TARGET_COLOUR: Color = Color::srgb(1.0, 0.55, 0.1);

/// How a token is drawn, by its unit's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// In the fight: its side's colour.
    Fighting,
    /// Down but alive (incapacitated, dying): paler.
    Down,
    /// Dead, fled or surrendered: grey, and shrunk where it fell.
    Fallen,
}

impl Look {
    /// The look of a unit of this status.
    pub fn of(status: Status) -> Self {
        match status {
            Status::Active | Status::Reserve => Self::Fighting,
            Status::Incapacitated | Status::Dying | Status::Unconscious => Self::Down,
            Status::Dead | Status::Fled | Status::Surrendered => Self::Fallen,
        }
    }
}

/// A token's disc colour: its side's, greyed as the unit goes down and falls.
pub fn token_colour(side: Color, look: Look) -> Color {
    let colour = side.to_srgba();
    // Perceived brightness, so the grey keeps the side's lightness.
    let grey = 0.3 * colour.red + 0.59 * colour.green + 0.11 * colour.blue;
    let keep = |saturation: f32, brightness: f32| {
        let channel = |value: f32| (grey + (value - grey) * saturation) * brightness;
        Color::srgba(channel(colour.red), channel(colour.green), channel(colour.blue), colour.alpha)
    };
    match look {
        Look::Fighting => side,
        Look::Down => keep(DOWN_SATURATION, 1.0),
        Look::Fallen => keep(FALLEN_SATURATION, FALLEN_BRIGHTNESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallen_are_grey_and_the_down_paler() {
        let side = SIDE_COLOURS[1];
        let spread = |colour: Color| {
            let colour = colour.to_srgba();
            let channels = [colour.red, colour.green, colour.blue];
            channels.iter().copied().fold(f32::MIN, f32::max) - channels.iter().copied().fold(f32::MAX, f32::min)
        };
        assert_eq!(token_colour(side, Look::Fighting), side);
        assert!(spread(token_colour(side, Look::Down)) < spread(side));
        assert!(spread(token_colour(side, Look::Fallen)) < spread(token_colour(side, Look::Down)));
        assert_eq!(Look::of(Status::Dying), Look::Down);
        assert_eq!(Look::of(Status::Fled), Look::Fallen);
    }
}
