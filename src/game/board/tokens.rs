//! Unit tokens: spawning their parts, placing them in their zones or squares, and refreshing
//! their colours, bars and marks.

use super::*;

/// What [`sync_tokens`] reads of a unit to draw its token.
pub(super) type TokenSource =
    (Entity, &'static Name, &'static SideIndex, &'static Status, &'static Icon, &'static Loadout);

/// One token per unit on the field; tokens of units gone from the world go too. A token's outline
/// is its side's shape, its disc shows the unit's icon and a badge its main weapon.
pub(super) fn sync_tokens(
    mut commands: Commands,
    units: Query<TokenSource, With<UnitId>>,
    tokens: Query<(Entity, &Token)>,
    icons: Res<Icons>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    // The token materials, and the colours the sides take.
    (mut palette, sides): (ResMut<TokenPalette>, Res<SidePalette>),
) {
    let palette = palette.as_mut();
    // Taken out while the palette lends materials, and put back: no copy each frame.
    let shared = palette.shared.take().unwrap_or_else(|| SharedTokenParts::new(&mut meshes, &mut materials));
    let mut have: HashMap<Entity, Entity> = HashMap::new();
    for (token, Token(unit)) in &tokens {
        if units.get(*unit).is_ok() {
            have.insert(*unit, token);
        } else {
            commands.entity(token).despawn();
        }
    }
    for (unit, name, side, status, icon, loadout) in &units {
        if have.contains_key(&unit) || *status == Status::Reserve {
            continue;
        }
        let colour = sides.colour(side.0);
        let pictures = TokenPictures::of(&icon.0, &loadout.weapon_name, &loadout.weapon);
        let shape = side.0 % SIDE_SHAPES;
        commands
            .spawn((
                Token(unit),
                TokenMemory::default(),
                TokenScale::default(),
                TokenDetail::default(),
                DespawnOnExit(Screen::Battle),
                Mesh2d(shared.discs[shape].clone()),
                MeshMaterial2d(palette.material(colour, &mut materials)),
                Transform::from_xyz(0.0, 0.0, TOKEN_Z),
            ))
            .with_children(|token| {
                spawn_token_parts(token, name.as_str(), (&shared.rims[shape], &shared.rim_material));
                spawn_pictures(token, &pictures, &icons, TOKEN_RADIUS, (&shared.badge.0, &shared.badge.1));
            });
    }
    palette.shared = Some(shared);
}

/// The meshes and materials every token shares: each side shape's disc (and its few-cornered
/// speck, for tokens too small for detail) and rim, the rim's colour and the weapon badge.
pub(super) struct SharedTokenParts {
    discs: Vec<Handle<Mesh>>,
    specks: Vec<Handle<Mesh>>,
    rims: Vec<Handle<Mesh>>,
    rim_material: Handle<ColorMaterial>,
    badge: (Handle<Mesh>, Handle<ColorMaterial>),
}

impl SharedTokenParts {
    pub(super) fn new(meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>) -> Self {
        Self {
            discs: (0..SIDE_SHAPES).map(|shape| meshes.add(side_shape(shape, TOKEN_RADIUS))).collect(),
            specks: (0..SIDE_SHAPES).map(|shape| meshes.add(side_speck(shape, TOKEN_RADIUS))).collect(),
            rims: (0..SIDE_SHAPES).map(|shape| meshes.add(side_shape(shape, TOKEN_RADIUS + RIM_WIDTH))).collect(),
            rim_material: materials.add(ColorMaterial::from(RIM_COLOUR)),
            badge: badge_parts(TOKEN_RADIUS, meshes, materials),
        }
    }
}

/// A token's parts, drawn over its disc: a dark rim under it, its name line, its Stress and
/// Wound bars, the cross of the dead and its status mark.
fn spawn_token_parts(
    token: &mut bevy::ecs::hierarchy::ChildSpawnerCommands,
    name: &str,
    (rim_mesh, rim_material): (&Handle<Mesh>, &Handle<ColorMaterial>),
) {
    token.spawn((
        DetailPart,
        Mesh2d(rim_mesh.clone()),
        MeshMaterial2d(rim_material.clone()),
        Transform::from_xyz(0.0, 0.0, RIM_Z),
    ));
    // Its text, size and place are the labels' to set, once the room is known.
    token.spawn((
        NameLabel { full: name.to_string() },
        Text2d::new(""),
        TextFont::from_font_size(LABEL_PX),
        TextColor(Color::WHITE),
        Transform::from_xyz(0.0, -TOKEN_RADIUS, 1.0),
        Visibility::Hidden,
    ));
    token.spawn((
        StressBar,
        Sprite::from_color(STRESS_BAR_COLOUR, Vec2::new(BAR_WIDTH, BAR_HEIGHT)),
        Transform::from_xyz(0.0, TOKEN_RADIUS + STRESS_BAR_RISE, 1.0),
    ));
    token.spawn((
        WoundBar,
        Sprite::from_color(WOUND_BAR_COLOUR, Vec2::new(BAR_WIDTH, BAR_HEIGHT)),
        Transform::from_xyz(0.0, TOKEN_RADIUS + WOUND_BAR_RISE, 1.0),
    ));
    token.spawn((FallenCross, Transform::from_xyz(0.0, 0.0, CROSS_Z), Visibility::Hidden)).with_children(|cross| {
        let stroke = Vec2::new(2.0 * TOKEN_RADIUS * CROSS_LENGTH, CROSS_WIDTH);
        for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
            cross.spawn((
                Sprite::from_color(CROSS_COLOUR, stroke),
                Transform::from_rotation(Quat::from_rotation_z(angle)),
            ));
        }
    });
    token.spawn((
        StatusMark,
        DetailPart,
        Text2d::new(""),
        TextFont::from_font_size(TOKEN_LABEL_SIZE),
        TextColor(STATUS_MARK_COLOUR),
        Transform::from_xyz(0.0, 0.0, 2.0),
    ));
}

/// Tokens glide to their unit's place, so moves can be followed.
pub(super) fn place_tokens(
    time: Res<Time>,
    board: Res<BoardLayout>,
    window: Option<Single<&Window>>,
    units: Query<(&Zone, &SpawnOrder, &Status)>,
    mut tokens: Query<(&Token, &mut Transform, &mut TokenMemory)>,
    (shown, nudges): (Res<ShownPlaces>, Res<ShownNudges>),
) {
    let mut by_zone: HashMap<ZoneIdx, Vec<(u32, Entity)>> = HashMap::new();
    for (token, ..) in &tokens {
        if let Ok((zone, order, status)) = units.get(token.0)
            && *status != Status::Reserve
        {
            by_zone.entry(zone.0).or_default().push((order.0, token.0));
        }
    }
    for list in by_zone.values_mut() {
        list.sort_unstable();
    }
    let glide = 1.0 - (-GLIDE_RATE * time.delta_secs()).exp();
    let grid = board.squares.is_some();
    // Laid out for the zoom that frames the board (at the default UI scale), so zooming in
    // gives names room, not reflow.
    let window = window.map_or(crate::game::camera::DEFAULT_WINDOW, |window| window.size());
    let zoom = crate::game::camera::framing(&board, window, 1.0).map_or(1.0, |(_, zoom)| zoom);
    for (token, mut transform, mut memory) in &mut tokens {
        let Ok((zone, _, status)) = units.get(token.0) else {
            continue;
        };
        let Some(centre) = board.centres.get(zone.0 as usize) else {
            continue;
        };
        let crowd = by_zone.get(&zone.0).map_or(&[][..], Vec::as_slice);
        let goal = if grid {
            // One unit stands on a square; the fallen it may share it with lie aside in a corner.
            memory.crowd_scale = GRID_TOKEN_SCALE;
            let fallen_before = crowd
                .iter()
                .take_while(|(_, unit)| *unit != token.0)
                .filter(|(_, unit)| units.get(*unit).is_ok_and(|(_, _, status)| !status.on_field()))
                .count();
            if status.on_field() || crowd.len() == 1 {
                *centre
            } else {
                memory.crowd_scale = GRID_TOKEN_SCALE * SHARED_SQUARE_SCALE;
                const CORNERS: [Vec2; 4] =
                    [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)];
                *centre + CORNERS[fallen_before % CORNERS.len()] * GRID_TILE * FALLEN_CORNER
            }
        } else {
            let place = crowd.iter().position(|(_, unit)| *unit == token.0).unwrap_or(0);
            let area =
                board.token_areas.get(zone.0 as usize).copied().unwrap_or(Rect::from_center_size(*centre, board.cell));
            let (at, scale) = crowd_slot(area, place, crowd.len(), zoom);
            memory.crowd_scale = scale;
            at
        };
        // A walker shows where its walk has got to.
        let goal = shown.0.get(&token.0).copied().unwrap_or(goal);
        let goal = goal + nudges.0.get(&token.0).copied().unwrap_or_default();
        let here = transform.translation.truncate();
        // A new token appears where it stands rather than flying in from the middle.
        let arrived = here == Vec2::ZERO || here.distance_squared(goal) < GLIDE_SNAP * GLIDE_SNAP;
        let next = if arrived { goal } else { here.lerp(goal, glide) };
        let depth = if Look::of(*status) == Look::Fallen { FALLEN_Z } else { TOKEN_Z };
        // Written only when it moves: a changed transform is propagated to all the token's parts.
        let at = next.extend(depth);
        if transform.translation != at {
            transform.translation = at;
        }
    }
}

/// A token's bar: where it is, and whether it shows.
pub(super) type Bar = (&'static mut Transform, &'static mut Visibility);
/// A Wound bar, told apart from the Stress bar and the token for the borrow checker.
pub(super) type WoundBarOnly = (With<WoundBar>, Without<StressBar>, Without<Token>);
/// Anything but a bar.
pub(super) type NotABar = (Without<StressBar>, Without<WoundBar>);
/// What a token shows of its unit.
pub(super) type UnitLooks =
    (&'static Stress, &'static Wounds, &'static Status, &'static Conditions, &'static SideIndex, Has<Surprised>);
/// A token as [`refresh_tokens`] redraws it.
pub(super) type TokenState = (
    &'static Token,
    &'static mut TokenMemory,
    &'static mut TokenScale,
    &'static mut TokenDetail,
    &'static Children,
    &'static mut Transform,
    &'static mut MeshMaterial2d<ColorMaterial>,
    &'static mut Mesh2d,
);
/// A part shown only with detail, told apart from the bars and the cross.
pub(super) type DetailOnly = (With<DetailPart>, NotABar, Without<FallenCross>);

/// The parts of a token that [`refresh_tokens`] redraws.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct TokenParts<'w, 's> {
    stress_bars: Query<'w, 's, Bar, (With<StressBar>, Without<Token>)>,
    wound_bars: Query<'w, 's, Bar, WoundBarOnly>,
    crosses: Query<'w, 's, &'static mut Visibility, (With<FallenCross>, NotABar)>,
    marks: Query<'w, 's, &'static mut Text2d, With<StatusMark>>,
    details: Query<'w, 's, &'static mut Visibility, DetailOnly>,
    cameras: Query<'w, 's, (&'static Projection, &'static mut Msaa), With<crate::game::camera::BoardCamera>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
    palette: ResMut<'w, TokenPalette>,
    /// The colours the sides take.
    sides: Res<'w, SidePalette>,
}

/// One disc material per colour, shared by every token of that colour: a thousand tokens of a
/// few colours are then drawn in a few batches, not one draw each.
/// It also keeps the meshes every token shares.
#[derive(Resource, Default)]
pub struct TokenPalette {
    pub(super) discs: HashMap<[u8; 4], Handle<ColorMaterial>>,
    pub(super) shared: Option<SharedTokenParts>,
}

impl TokenPalette {
    /// The shared material of `colour`, made the first time it is asked for.
    fn material(&mut self, colour: Color, materials: &mut Assets<ColorMaterial>) -> Handle<ColorMaterial> {
        self.discs
            .entry(colour.to_srgba().to_u8_array())
            .or_insert_with(|| materials.add(ColorMaterial::from(colour)))
            .clone()
    }
}

/// Bars, marks, the disc's colour (greyed as the unit falls), and a flash on every hit.
pub(super) fn refresh_tokens(
    (time, shown): (Res<Time>, Res<ShownVitals>),
    units: Query<UnitLooks>,
    mut tokens: Query<TokenState>,
    mut parts: TokenParts,
) {
    let zoom = parts.cameras.iter().next().map_or(1.0, |(projection, _)| crate::game::camera::zoom_of(projection));
    // The board's largest token decides for all, so a small level's fallen and crowded tokens
    // keep their detail beside full-size ones (the crowd scale is last frame's, as is the zoom).
    let largest = tokens.iter().map(|(_, memory, ..)| memory.crowd_scale).fold(0.0, f32::max);
    let detailed = tokens.is_empty() || TOKEN_RADIUS * largest >= DETAIL_RADIUS_PX * zoom;
    for (token, mut memory, mut settled, mut detail, children, mut transform, mut material, mut disc) in &mut tokens {
        let Ok((stress, wounds, status, conditions, side, surprised)) = units.get(token.0) else {
            continue;
        };
        // Until its count's lines come up, a token shows the unit as it was.
        let (stress_now, wounds_now, status) = match shown.0.get(&token.0) {
            Some(vitals) => (vitals.stress, vitals.wounds, &vitals.status),
            None => (stress.current, wounds.current, status),
        };
        let health = stress_now + wounds_now;
        if memory.health != i32::MIN && health < memory.health {
            memory.flash = FLASH_SECONDS;
        }
        memory.health = health;
        memory.flash = (memory.flash - time.delta_secs()).max(0.0);
        let pulse = 1.0 + FLASH_SWELL * (memory.flash / FLASH_SECONDS);
        let look = Look::of(*status);
        let fallen = look == Look::Fallen;
        let scale = memory.crowd_scale * if fallen { FALLEN_SCALE } else { 1.0 };
        settled.set_if_neq(TokenScale(scale));
        let drawn = Vec3::splat(scale * if fallen { 1.0 } else { pulse });
        if transform.scale != drawn {
            transform.scale = drawn;
        }
        if detail.set_if_neq(TokenDetail(detailed)) {
            if let Some(shared) = &parts.palette.shared {
                let shapes = if detailed { &shared.discs } else { &shared.specks };
                if let Some(shape) = shapes.get(side.0 % SIDE_SHAPES) {
                    disc.0 = shape.clone();
                }
            }
            let shown = if detailed { Visibility::Inherited } else { Visibility::Hidden };
            let mut parts_shown = parts.details.iter_many_mut(children.iter());
            while let Some(mut part) = parts_shown.fetch_next() {
                part.set_if_neq(shown);
            }
        }
        // The colour follows the look and the palette, which the settings may switch mid-battle.
        let colour = token_colour(parts.sides.colour(side.0), look);
        if memory.colour != Some(colour) {
            material.0 = parts.palette.material(colour, &mut parts.materials);
            memory.colour = Some(colour);
        }
        // The fallen need no bars: the grey and the mark say it all.
        let bars = if fallen { Visibility::Hidden } else { Visibility::Inherited };
        for child in children.iter() {
            if let Ok((mut bar, mut shown)) = parts.stress_bars.get_mut(child) {
                fill_bar(&mut bar, stress_now, stress.max);
                shown.set_if_neq(bars);
            }
            if let Ok((mut bar, mut shown)) = parts.wound_bars.get_mut(child) {
                fill_bar(&mut bar, wounds_now, wounds.max);
                shown.set_if_neq(bars);
            }
            if let Ok(mut cross) = parts.crosses.get_mut(child) {
                let dead = *status == Status::Dead;
                cross.set_if_neq(if dead { Visibility::Inherited } else { Visibility::Hidden });
            }
            if let Ok(mut mark) = parts.marks.get_mut(child) {
                // The cross marks the dead; the word would only cover it.
                let text =
                    if *status == Status::Dead { String::new() } else { status_mark(*status, conditions, surprised) };
                if mark.0 != text {
                    mark.0 = text;
                }
            }
        }
    }
    // When every token is a speck, smoothing their edges is lost on the eye but, on a software
    // renderer, multisampling took about half of each frame: the siege framed whole is drawn
    // without it. Any token large enough for detail brings it back.
    let msaa = if detailed { Msaa::default() } else { Msaa::Off };
    for (_, mut camera) in &mut parts.cameras {
        camera.set_if_neq(msaa);
    }
}

/// Shrinks a bar from the right to show `current` of `max` (touching it only when that changes).
fn fill_bar(bar: &mut Mut<Transform>, current: i32, max: i32) {
    let share = current.max(0) as f32 / max.max(1) as f32;
    let mut filled = **bar;
    filled.scale.x = share;
    filled.translation.x = -BAR_WIDTH * (1.0 - share) / 2.0;
    bar.set_if_neq(filled);
}

/// A token's status mark: one short glyph group a player learns at a glance.
pub fn status_mark(status: Status, conditions: &Conditions, surprised: bool) -> String {
    let mut mark = match status {
        Status::Active => String::new(),
        Status::Incapacitated => "INC".into(),
        Status::Dying => "DYING".into(),
        Status::Dead => "DEAD".into(),
        Status::Fled => "FLED".into(),
        Status::Surrendered => "YIELD".into(),
        Status::Reserve => String::new(),
        Status::Unconscious => "OUT".into(),
    };
    let mut add = |text: &str| {
        if !mark.is_empty() {
            mark.push(' ');
        }
        mark.push_str(text);
    };
    if surprised {
        add("?!");
    }
    if conditions.full_defense {
        add("DEF");
    }
    if conditions.stabilised {
        add("+");
    }
    mark
}
