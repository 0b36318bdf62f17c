//! Drawing the battlefield: zone and grid-square sprites, zone labels, links between zones and
//! grid numbers.

use super::*;
use crate::levels::ModPictures;

/// Draws the battlefield afresh when a battle starts (its resource is replaced), when the board
/// was cleared (leaving the screen), and, on zones, when the window's shape changes the zones'.
pub(super) fn rebuild_zones(
    mut commands: Commands,
    battlefield: Res<Battlefield>,
    zones: Query<Entity, With<BoardZone>>,
    window: Option<Single<&Window>>,
    mut resized: MessageReader<WindowResized>,
    (mut board, pictures): (ResMut<BoardLayout>, Option<Res<ModPictures>>),
    (mut images, looks, mut art): (ResMut<Assets<Image>>, Option<Res<BoardLooks>>, ResMut<TerrainArt>),
) {
    let no_pictures = ModPictures::default();
    let textures = &pictures.as_deref().unwrap_or(&no_pictures).textures;
    let resized = resized.read().count() > 0;
    let looks_changed = looks.as_ref().is_some_and(|looks| looks.is_changed());
    if !battlefield.is_changed() && !zones.is_empty() && !resized && !looks_changed {
        return;
    }
    let steps = layout(&battlefield);
    let window = window.map_or(crate::game::camera::DEFAULT_WINDOW, |window| window.size());
    let cell = if battlefield.is_grid() {
        Vec2::splat(GRID_TILE)
    } else {
        // Zones take their shape from the view at the default UI scale; another scale only zooms.
        Vec2::new(ZONE_WIDTH, zone_height(&steps, crate::game::camera::board_view(window, 1.0).0).round())
    };
    if !battlefield.is_changed() && !zones.is_empty() && board.cell == cell && !looks_changed {
        return;
    }
    for zone in &zones {
        commands.entity(zone).despawn();
    }
    board.cell = cell;
    board.centres = if battlefield.is_grid() {
        steps
    } else {
        steps.iter().map(|step| *step * Vec2::new(ZONE_SPACING, cell.y + ZONE_GAP_DOWN)).collect()
    };
    commands.spawn((
        BoardZone,
        CoverTag,
        DespawnOnExit(Screen::Battle),
        Text2d::new(""),
        TextFont::from_font_size(COVER_TAG_SIZE),
        TextColor(NO_COVER_COLOUR),
        Transform::from_xyz(0.0, 0.0, 20.0),
        Visibility::Hidden,
    ));
    if let Some(grid) = battlefield.grid() {
        let cells = usize::from(grid.width()) * usize::from(grid.height());
        let squares = (0..cells).map(|cell| battlefield.zone_at(grid.square(cell))).collect();
        board.squares = Some((grid.width(), squares));
        board.token_areas = Vec::new();
        let squares = looks.as_ref().map_or(&[][..], |looks| looks.squares.as_slice());
        crate::game::terrain_art::spawn_grid_squares(&mut commands, grid, squares, (&mut art, textures), &mut images);
        spawn_grid_numbers(&mut commands, i32::from(grid.width()), i32::from(grid.height()));
        return;
    }
    board.squares = None;
    spawn_links(&mut commands, &battlefield, &board.centres);
    let zone_looks = looks.as_ref().map_or(&[][..], |looks| looks.zones.as_slice());
    let mut ground = |at: usize, size: Vec2| {
        let zone = battlefield.zones().get(at);
        let look = zone_looks.get(at).cloned().unwrap_or_else(|| Looks {
            terrain: ZoneTerrain::default_for(
                zone.is_some_and(|zone| zone.hazard.is_some()),
                zone.is_some_and(|zone| zone.capacity.is_some()),
            ),
            texture: None,
        });
        crate::game::terrain_art::zone_sprite(&look, (&mut art, textures), &mut images, size)
    };
    board.token_areas = spawn_zones(&mut commands, &battlefield, &board.centres, cell, &mut ground);
}

/// Draws each zone as a box of `cell` size at its centre, its ground as `ground` draws the
/// `n`th zone's, labelled at the top with its name and notes; returns where each zone's tokens
/// stand.
fn spawn_zones(
    commands: &mut Commands,
    battlefield: &Battlefield,
    centres: &[Vec2],
    cell: Vec2,
    ground: &mut impl FnMut(usize, Vec2) -> Sprite,
) -> Vec<Rect> {
    let mut token_areas = Vec::with_capacity(battlefield.len());
    for (at, (zone, centre)) in battlefield.zones().iter().zip(centres).enumerate() {
        let label = zone_label(zone);
        token_areas.push(token_area(*centre, cell, label.lines().count()));
        commands
            .spawn((
                BoardZone,
                DespawnOnExit(Screen::Battle),
                ground(at, cell),
                Transform::from_translation(centre.extend(0.0)),
            ))
            .with_child((
                Text2d::new(label),
                TextFont::from_font_size(ZONE_LABEL_SIZE),
                TextColor(ZONE_LABEL_COLOUR),
                TextLayout::justify(Justify::Center),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, cell.y / 2.0 - ZONE_PADDING, 1.0),
            ));
    }
    token_areas
}

/// A zone's label: its name, and a line of notes (how many it holds, its hazard) if it has any,
/// each broken at spaces into lines that fit across the zone.
pub(super) fn zone_label(zone: &crate::battlefield::ZoneDef) -> String {
    let mut notes = Vec::new();
    if let Some(capacity) = zone.capacity {
        notes.push(format!("holds {capacity}"));
    }
    if let Some(hazard) = &zone.hazard {
        // A no-break space keeps "(TN 8)" on one line when the label wraps.
        notes.push(format!("{} (TN\u{a0}{})", hazard.name, hazard.tn));
    }
    let label = if notes.is_empty() { zone.name.clone() } else { format!("{}\n{}", zone.name, notes.join(", ")) };
    let fits = ((ZONE_WIDTH - 2.0 * ZONE_PADDING) / (ZONE_LABEL_SIZE * LABEL_CHAR_WIDTH)).floor() as usize;
    label.lines().flat_map(|line| wrap(line, fits)).collect::<Vec<_>>().join("\n")
}

/// `line` broken at spaces (never at a no-break space) into lines of at most `width`
/// characters; a word longer than that keeps a line of its own.
fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in line.split(' ').filter(|word| !word.is_empty()) {
        match lines.last_mut() {
            Some(last) if last.chars().count() + 1 + word.chars().count() <= width => {
                last.push(' ');
                last.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// The zones' adjacency as lines between their centres, drawn over the zones and under their
/// labels and tokens (gizmos would draw over everything).
fn spawn_links(commands: &mut Commands, battlefield: &Battlefield, centres: &[Vec2]) {
    for zone in 0..battlefield.len() as ZoneIdx {
        for &neighbour in battlefield.neighbours(zone) {
            let (Some(a), Some(b)) = (centres.get(usize::from(zone)), centres.get(usize::from(neighbour))) else {
                continue;
            };
            if neighbour <= zone {
                continue;
            }
            let span = *b - *a;
            commands.spawn((
                BoardZone,
                DespawnOnExit(Screen::Battle),
                Sprite::from_color(LINK_COLOUR, Vec2::new(span.length(), LINK_WIDTH)),
                Transform::from_translation(((*a + *b) / 2.0).extend(LINK_Z))
                    .with_rotation(Quat::from_rotation_z(span.to_angle())),
            ));
        }
    }
}

/// Row and column numbers around a grid of `width` by `height` squares.
fn spawn_grid_numbers(commands: &mut Commands, width: i32, height: i32) {
    let number = |text: String, at: Vec2| {
        (
            BoardZone,
            DespawnOnExit(Screen::Battle),
            Text2d::new(text),
            TextFont::from_font_size(GRID_NUMBER_SIZE),
            TextColor(GRID_NUMBER_COLOUR),
            Transform::from_translation(at.extend(1.0)),
        )
    };
    for x in 0..width {
        commands.spawn(number(x.to_string(), square_centre(Square::new(x, 0)) + Vec2::new(0.0, GRID_TILE * 0.75)));
    }
    for y in 0..height {
        commands.spawn(number(y.to_string(), square_centre(Square::new(0, y)) - Vec2::new(GRID_TILE * 0.75, 0.0)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_zone_labels_break_at_spaces_to_fit_across_the_zone() {
        assert_eq!(wrap("The Collapsed Corridor", 18), ["The Collapsed", "Corridor"]);
        assert_eq!(wrap("the cold race and the wheel (TN 10)", 18), ["the cold race and", "the wheel (TN 10)"]);
        assert_eq!(wrap("Gate", 18), ["Gate"]);
        assert_eq!(wrap("tearing thorns (TN\u{a0}8)", 18), ["tearing thorns", "(TN\u{a0}8)"]);
        assert_eq!(wrap("Supercalifragilistic road", 10), ["Supercalifragilistic", "road"]);
    }
}
