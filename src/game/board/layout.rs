//! Board geometry: where zones and grid squares sit, how tall a zone is, and how a crowd of
//! tokens fits a zone.

use super::*;

/// Where zones lie, in steps (columns across, rows up): on a grid, each square where it lies;
/// else the level's positions where given, else columns by distance from the first zone.
pub fn layout(battlefield: &Battlefield) -> Vec<Vec2> {
    if battlefield.is_grid() {
        return battlefield.zones().iter().map(|zone| zone.square.map_or(Vec2::ZERO, square_centre)).collect();
    }
    let count = battlefield.len();
    let mut columns: HashMap<u32, Vec<ZoneIdx>> = HashMap::new();
    for zone in 0..count as ZoneIdx {
        let distance = battlefield.distance(0, zone);
        let column = if distance == crate::battlefield::UNREACHABLE { count as u32 } else { distance };
        columns.entry(column).or_default().push(zone);
    }
    let mut ordered: Vec<(u32, Vec<ZoneIdx>)> = columns.into_iter().collect();
    ordered.sort_by_key(|(distance, _)| *distance);
    let mut steps = vec![Vec2::ZERO; count];
    for (at, step) in fold_columns(&ordered.iter().map(|(_, zones)| zones.len()).collect::<Vec<_>>()) {
        let (column, row) = at;
        steps[usize::from(ordered[column].1[row])] = step;
    }
    for (at, zone) in battlefield.zones().iter().enumerate() {
        if let Some((x, y)) = zone.position {
            steps[at] = Vec2::new(x, y);
        }
    }
    steps
}

/// Most columns of zones side by side before the board folds into another band below: a
/// long chain of zones in one row would leave every zone, and its tokens, tiny.
const COLUMNS_PER_BAND: usize = 3;

/// Where the zones of columns of these heights go, as `((column, place in it), step)`: the
/// columns side by side, folded into bands of [`COLUMNS_PER_BAND`] that snake down the board
/// (left to right, then right to left), so the last column of a band lies over the first of
/// the next and neighbours stay side by side; the whole centred on the origin.
fn fold_columns(heights: &[usize]) -> Vec<((usize, usize), Vec2)> {
    let across = heights.len().min(COLUMNS_PER_BAND);
    let mut places = Vec::new();
    let mut top = 0.0;
    for (band, chunk) in heights.chunks(COLUMNS_PER_BAND).enumerate() {
        let tallest = chunk.iter().copied().max().unwrap_or(1) as f32;
        for (within, height) in chunk.iter().enumerate() {
            let slot = if band % 2 == 0 { within } else { across - 1 - within };
            let x = slot as f32 - (across as f32 - 1.0) / 2.0;
            for row in 0..*height {
                let y = top - (tallest - *height as f32) / 2.0 - row as f32;
                places.push(((band * COLUMNS_PER_BAND + within, row), Vec2::new(x, y)));
            }
        }
        top -= tallest;
    }
    let lowest = places.iter().map(|(_, step)| step.y).fold(0.0, f32::min);
    places.into_iter().map(|(at, step)| (at, step - Vec2::new(0.0, lowest / 2.0))).collect()
}

/// How tall zones are drawn so that the board, framed with a zone's room around it, has the
/// shape of the window's free area `free`: a wide board gets tall zones, whose rows of tokens
/// leave names room, at no cost in zoom.
pub fn zone_height(steps: &[Vec2], free: Vec2) -> f32 {
    let (min, max) = steps
        .iter()
        .fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(min, max), step| (min.min(*step), max.max(*step)));
    let span = (max - min).max(Vec2::ZERO);
    let width = span.x * ZONE_SPACING + 2.0 * ZONE_WIDTH;
    // Height = span.y · (h + gap) + 2h, solved for h at the free area's shape.
    let height = width * free.y / free.x.max(1.0);
    ((height - span.y * ZONE_GAP_DOWN) / (span.y + 2.0)).clamp(ZONE_HEIGHT_MIN, ZONE_HEIGHT_MAX)
}

/// Where a zone's tokens stand: its box, less its padding and the label's lines at the top.
pub(super) fn token_area(centre: Vec2, size: Vec2, label_lines: usize) -> Rect {
    let header = label_lines as f32 * ZONE_LABEL_SIZE * LINE_HEIGHT + ZONE_PADDING;
    let half = size / 2.0 - Vec2::splat(ZONE_PADDING);
    Rect::from_corners(centre - half, centre + Vec2::new(half.x, half.y - header))
}

/// How a zone's tokens are laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdFit {
    /// Tokens per row.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// The tokens' scale.
    pub scale: f32,
    /// Whether each keeps a line for its name under it.
    pub named: bool,
}

/// Height of a token's name line on the board seen at `zoom`.
fn name_line(zoom: f32) -> f32 {
    (LABEL_PX * LABEL_LINE_HEIGHT + LABEL_ROOM) * zoom
}

/// How `count` tokens fill a zone's token area of `room` when the board is seen at `zoom`.
/// Each token needs its disc and bars at its scale and a line for its name at the names' size
/// on screen; the layouts that best serve both a good size on screen and a name of several
/// characters win, and of those the one with the largest tokens.
pub fn crowd_fit(room: Vec2, count: usize, zoom: f32) -> CrowdFit {
    let count = count.max(1);
    let char_width = LABEL_PX * LABEL_CHAR_WIDTH * zoom;
    let candidates: Vec<(CrowdFit, f32)> = (1..=count)
        .map(|columns| {
            let rows = count.div_ceil(columns);
            let cell = Vec2::new(room.x / columns as f32, room.y / rows as f32);
            let across = cell.x / TOKEN_BODY.x;
            let named = across.min((cell.y - name_line(zoom)) / TOKEN_BODY.y).min(ZONE_TOKEN_MAX_SCALE);
            let chars = (cell.x / char_width).floor();
            if named >= LEAST_NAMED_SCALE && chars >= FEWEST_CHARS as f32 {
                let on_screen = TOKEN_BODY.x * named / zoom;
                let quality = (on_screen / GOOD_TOKEN_PX).min(chars / GOOD_NAME_CHARS).min(1.0);
                (CrowdFit { columns, rows, scale: named, named: true }, quality)
            } else {
                // No name fits: the token takes the whole cell, its name is in the hover card.
                let scale = across.min(cell.y / TOKEN_BODY.y).min(ZONE_TOKEN_MAX_SCALE);
                (CrowdFit { columns, rows, scale, named: false }, 0.0)
            }
        })
        .collect();
    let best_quality = candidates.iter().map(|(_, quality)| *quality).fold(0.0, f32::max);
    candidates
        .into_iter()
        .filter(|(_, quality)| *quality >= best_quality - FIT_TOLERANCE)
        .map(|(fit, _)| fit)
        .max_by(|a, b| a.scale.total_cmp(&b.scale).then(b.columns.cmp(&a.columns)))
        .unwrap_or(CrowdFit { columns: 1, rows: count, scale: LEAST_NAMED_SCALE, named: false })
}

/// Where the `place`-th of `count` tokens in a zone stands, and its scale: in rows across the
/// zone's token area (seen at `zoom`), the last row centred, every token inside the area.
pub fn crowd_slot(area: Rect, place: usize, count: usize, zoom: f32) -> (Vec2, f32) {
    let count = count.max(1);
    let fit = crowd_fit(area.size(), count, zoom);
    let name = if fit.named { name_line(zoom) } else { 0.0 };
    let footprint = TOKEN_BODY.y * fit.scale + name;
    let pitch =
        Vec2::new(area.width() / fit.columns as f32, (area.height() / fit.rows as f32).min(footprint * ROW_SPREAD));
    let row = place / fit.columns;
    let in_row = if row + 1 == fit.rows { count - row * fit.columns } else { fit.columns };
    let column = place % fit.columns;
    let x = (column as f32 - (in_row as f32 - 1.0) / 2.0) * pitch.x;
    let y = ((fit.rows as f32 - 1.0) / 2.0 - row as f32) * pitch.y;
    // The body sits at the top of the footprint, the name line under it; the disc lies below
    // the body's middle (the bars are above it).
    let lift = name / 2.0 - TOKEN_LIFT * fit.scale;
    (area.center() + Vec2::new(x, y + lift), fit.scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zone's token area as the board lays out a zone of `height` with a one-line label.
    fn area(height: f32) -> Rect {
        token_area(Vec2::ZERO, Vec2::new(ZONE_WIDTH, height), 1)
    }

    #[test]
    fn every_token_of_a_crowd_stays_inside_its_zone() {
        for height in [ZONE_HEIGHT_MIN, ZONE_HEIGHT_MAX] {
            for zoom in [0.5, 1.0, 2.0, 4.0] {
                for count in 1..=40 {
                    let area = area(height);
                    for place in 0..count {
                        let (at, scale) = crowd_slot(area, place, count, zoom);
                        let body = token_body(at, scale);
                        let inside = area.inflate(0.5).contains(body.min) && area.inflate(0.5).contains(body.max);
                        assert!(inside, "{count} at zoom {zoom}, height {height}: #{place} {body:?} not in {area:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_few_tokens_get_full_size_and_room_for_their_names() {
        let zoom = 1.0;
        let fit = crowd_fit(area(ZONE_HEIGHT_MAX).size(), 2, zoom);
        assert!(fit.named && TOKEN_BODY.x * fit.scale / zoom >= GOOD_TOKEN_PX, "{fit:?}");
        // A crowd gives up names before its tokens shrink to nothing.
        let crowd = crowd_fit(area(ZONE_HEIGHT_MIN).size(), 40, 2.0);
        assert!(!crowd.named && crowd.scale > 0.0, "{crowd:?}");
    }
    /// The on-screen radius of a fighting token on a grid of `width` by `height` squares framed
    /// whole in the default window.
    fn framed_radius(width: i32, height: i32) -> f32 {
        let centres = (0..height).flat_map(|y| (0..width).map(move |x| square_centre(Square::new(x, y)))).collect();
        let squares = Some((width as u16, Vec::new()));
        let board = BoardLayout { centres, cell: Vec2::splat(GRID_TILE), squares, token_areas: Vec::new() };
        let (_, zoom) =
            crate::game::camera::framing(&board, crate::game::camera::DEFAULT_WINDOW, 1.0).expect("laid out");
        TOKEN_RADIUS * GRID_TOKEN_SCALE / zoom
    }

    #[test]
    fn four_a_side_grids_framed_whole_keep_detail_and_the_siege_drops_it() {
        // The largest shipped 4-vs-4 grid (the Forest Road, 30x18) and the 64x64 siege.
        assert!(framed_radius(30, 18) >= DETAIL_RADIUS_PX, "{}", framed_radius(30, 18));
        assert!(framed_radius(64, 64) < DETAIL_RADIUS_PX, "{}", framed_radius(64, 64));
    }

    /// A token is at least this wide on screen in the default window, where its zone has room.
    const LEAST_TOKEN_PX: f32 = 40.0;
    /// A zone has room for tokens that wide while it holds at most this many (a 4-vs-4 side
    /// and its foes); the Great Melee's crowds of sixteen shrink theirs to fit.
    const ROOMY_CROWD: usize = 8;

    /// The on-screen width of the tokens in each zone of shipped level `name` as its battle
    /// starts, framed whole in the default window: `(zone, tokens in it, width in pixels)`.
    fn starting_token_widths(name: &str) -> Vec<(String, usize, f32)> {
        let template = crate::levels::load_level(
            &std::path::Path::new("levels").join(name),
            &crate::levels::mods::ModSet::default(),
        )
        .expect("a shipped level");
        let battlefield = &template.battlefield;
        let window = crate::game::camera::DEFAULT_WINDOW;
        let steps = layout(battlefield);
        let cell = Vec2::new(ZONE_WIDTH, zone_height(&steps, crate::game::camera::board_view(window, 1.0).0).round());
        let centres: Vec<Vec2> =
            steps.iter().map(|step| *step * Vec2::new(ZONE_SPACING, cell.y + ZONE_GAP_DOWN)).collect();
        let token_areas = battlefield
            .zones()
            .iter()
            .zip(&centres)
            .map(|(zone, centre)| token_area(*centre, cell, zone_label(zone).lines().count()))
            .collect::<Vec<_>>();
        let board = BoardLayout { centres, cell, squares: None, token_areas: token_areas.clone() };
        let (_, zoom) = crate::game::camera::framing(&board, window, 1.0).expect("laid out");
        battlefield
            .zones()
            .iter()
            .enumerate()
            .filter_map(|(at, zone)| {
                let count = template
                    .units
                    .iter()
                    .filter(|unit| usize::from(unit.zone) == at && unit.arrives.is_none() && unit.summoned_by.is_none())
                    .count();
                let fit = crowd_fit(token_areas[at].size(), count, zoom);
                (count > 0).then(|| (zone.name.clone(), count, TOKEN_BODY.x * fit.scale / zoom))
            })
            .collect()
    }

    #[test]
    fn tokens_are_40_px_across_at_1280x800_wherever_their_zone_has_room() {
        // Every shipped level of zones; on a grid a token takes its square's size.
        let levels: Vec<String> = std::fs::read_dir("levels")
            .expect("the shipped levels")
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".ron"))
            .filter(|name| {
                !crate::levels::load_level(
                    &std::path::Path::new("levels").join(name),
                    &crate::levels::mods::ModSet::default(),
                )
                .expect("a shipped level")
                .battlefield
                .is_grid()
            })
            .collect();
        assert!(levels.len() >= 8, "zone levels found: {levels:?}");
        let small: Vec<String> = levels
            .iter()
            .flat_map(|level| {
                starting_token_widths(level)
                    .into_iter()
                    .filter(|(_, count, width)| *count <= ROOMY_CROWD && *width < LEAST_TOKEN_PX)
                    .map(move |(zone, count, width)| format!("{level}, {zone}: {count} tokens {width:.1} px across"))
            })
            .collect();
        assert!(small.is_empty(), "tokens under {LEAST_TOKEN_PX} px: {small:#?}");
    }

    #[test]
    fn a_long_chain_of_zones_folds_into_bands_that_snake_down_the_board() {
        let steps: Vec<Vec2> = fold_columns(&[1; 7]).into_iter().map(|(_, step)| step).collect();
        let widest = steps.iter().map(|step| step.x).fold(f32::MIN, f32::max);
        assert!(widest <= 1.0, "{steps:?}");
        // Each zone of the chain lies one step from the next, across or down.
        for pair in steps.windows(2) {
            assert!((pair[1] - pair[0]).length() <= 1.0 + f32::EPSILON, "{steps:?}");
        }
        // A short board keeps its one row.
        let row: Vec<Vec2> = fold_columns(&[1, 2, 1]).into_iter().map(|(_, step)| step).collect();
        assert_eq!(row, [Vec2::new(-1.0, 0.0), Vec2::new(0.0, 0.5), Vec2::new(0.0, -0.5), Vec2::new(1.0, 0.0)]);
    }

    #[test]
    fn wide_boards_get_tall_zones_and_tall_boards_short_ones() {
        let wide: Vec<Vec2> = (0..5).map(|x| Vec2::new(x as f32, 0.0)).collect();
        let tall: Vec<Vec2> = (0..5).map(|y| Vec2::new(0.0, y as f32)).collect();
        let window = Vec2::new(700.0, 760.0);
        assert_eq!(zone_height(&wide, window), ZONE_HEIGHT_MAX);
        assert_eq!(zone_height(&tall, window), ZONE_HEIGHT_MIN);
    }
}
