//! Token names that never overlap: each name shows under its token at one size on screen
//! whatever the zoom, cut short (or left out) where it would run into another name or token.
//! The most important tokens (hovered, selected, declaring, targeted, then the living) claim
//! their room first; the whole name is always in the hover card.

use super::spine::GameSystems;
use bevy::prelude::*;

use super::board::{Hovered, Look, NameLabel, TOKEN_RADIUS, Token, TokenDetail, TokenScale, token_body};
use super::camera::{BoardCamera, zoom_of};
use super::model::battle_ui::{BattleUi, DeclarationOptions};
use super::model::board::{BoardLayout, CHAR_WIDTH, FEWEST_CHARS, LABEL_PX, LINE_HEIGHT};
use super::model::screen::Screen;
use crate::rules::components::{SpawnOrder, Status};

/// Screen pixels between a token's disc and its name.
const LABEL_GAP: f32 = 1.0;
/// Room kept clear around a name, in screen pixels.
const LABEL_MARGIN: f32 = 1.0;
/// Least gap between the names of neighbours in a row, in screen pixels.
const LABEL_SPACING: f32 = 6.0;
/// Room a zone's edges keep clear of its tokens' names, in board pixels.
const ZONE_EDGE: f32 = 8.0;
/// Longest name shown under a token, in characters.
const MOST_CHARS: usize = 18;
/// Depth of a name over its token.
const LABEL_Z: f32 = 3.0;
/// The first key of a name's priority when its token is neither hovered, selected, declaring nor
/// targeted.
const UNMARKED: u8 = u8::MAX;
/// Short words dropped first when a name must be cut.
const FILLER_WORDS: [&str; 5] = ["the", "of", "a", "an", "de"];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, place_labels.in_set(GameSystems::OverBoard).run_if(in_state(Screen::Battle)));
}

/// `name` cut to at most `most` characters, keeping what tells units apart: the whole name if
/// it fits; else without filler words (`Tobiah the Red` → `Tobiah Red`); else cut short with a
/// full stop where that keeps the first word whole and two letters of the next (`Sir Aldo.`);
/// else the first word and the last one's initial (`Grishna W.`); else initials and the last
/// word (`H.Warrior`); else the first word cut short (`Hobgo.`). Empty when the name must be
/// cut below [`FEWEST_CHARS`].
pub fn elide(name: &str, most: usize) -> String {
    let fits = |text: &str| text.chars().count() <= most;
    if fits(name) {
        return name.to_string();
    }
    if most < FEWEST_CHARS {
        return String::new();
    }
    let all: Vec<&str> = name.split_whitespace().collect();
    let kept: Vec<&str> = all.iter().copied().filter(|word| !FILLER_WORDS.contains(word)).collect();
    let words = if kept.is_empty() { all } else { kept };
    let compact = words.join(" ");
    if fits(&compact) {
        return compact;
    }
    let cut = |text: &str, chars: usize| -> String {
        let mut kept: String = text.chars().take(chars).collect();
        kept.truncate(kept.trim_end().len());
        kept.push('.');
        kept
    };
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return cut(name, most - 1);
    };
    if words.len() > 1 {
        let shortened = cut(&compact, most - 1);
        let first_len = first.chars().count();
        // The cut keeps the first word whole, its space, and two letters of the second.
        if shortened.chars().count() > first_len + 3 {
            return shortened;
        }
        let initial = |word: &str| word.chars().next().map(|c| c.to_string()).unwrap_or_default();
        let first_and_initial = format!("{first} {}.", initial(last));
        if fits(&first_and_initial) {
            return first_and_initial;
        }
        let initials: String = words[..words.len() - 1].iter().map(|word| format!("{}.", initial(word))).collect();
        let initials_and_last = format!("{initials}{last}");
        if fits(&initials_and_last) {
            return initials_and_last;
        }
    }
    cut(first, most - 1)
}

/// The cuts of `name` worth trying, longest first.
fn cuts(name: &str) -> Vec<String> {
    let longest = name.chars().count().min(MOST_CHARS);
    let mut cuts: Vec<String> = Vec::new();
    for most in (1..=longest).rev() {
        let text = elide(name, most);
        if !text.is_empty() && cuts.last() != Some(&text) {
            cuts.push(text);
        }
    }
    cuts
}

/// What a name takes up on the board, in board pixels, under a token's disc at `centre`.
fn label_rect(centre: Vec2, scale: f32, chars: usize, zoom: f32) -> Rect {
    let size = Vec2::new(chars as f32 * CHAR_WIDTH * LABEL_PX, LINE_HEIGHT * LABEL_PX) * zoom;
    let top = centre.y - TOKEN_RADIUS * scale - LABEL_GAP * zoom;
    Rect::from_center_size(Vec2::new(centre.x, top - size.y / 2.0), size).inflate(LABEL_MARGIN * zoom)
}

/// Which names claim room first: hovered, selected, declaring, targeted, then the fighting,
/// the down and the fallen, each in level order.
#[derive(bevy::ecs::system::SystemParam)]
struct Priorities<'w, 's> {
    ui: Res<'w, BattleUi>,
    options: Res<'w, DeclarationOptions>,
    hovered: Res<'w, Hovered>,
    units: Query<'w, 's, (&'static Status, &'static SpawnOrder)>,
}

impl Priorities<'_, '_> {
    /// The sort key of `unit`'s name: lower claims room first; below [`UNMARKED`] for the
    /// hovered, selected, declaring and targeted.
    fn of(&self, unit: Entity) -> (u8, u8, u32) {
        let target = self.options.drafted(&self.ui.draft).and_then(|entry| entry.action.target);
        let marked = [self.hovered.0, self.ui.selected, self.options.unit, target]
            .iter()
            .position(|marked| *marked == Some(unit))
            .map_or(UNMARKED, |at| at as u8);
        let (status, order) =
            self.units.get(unit).map_or((Status::Active, u32::MAX), |(status, order)| (*status, order.0));
        let look = match Look::of(status) {
            Look::Fighting => 0,
            Look::Down => 1,
            Look::Fallen => 2,
        };
        (marked, look, order)
    }
}

/// The widest a name under the token at `centre` may be so that its neighbours in the same row
/// get their share: no wider than the distance to the nearest of them (each name then keeps to
/// its half of the gap). `peers` are the other tokens that compete for room.
fn fair_width(centre: Vec2, peers: impl Iterator<Item = Vec2>, line: f32, spacing: f32) -> f32 {
    peers
        .filter(|other| (other.y - centre.y).abs() < line && *other != centre)
        .map(|other| (other.x - centre.x).abs() - spacing)
        .fold(f32::INFINITY, f32::min)
}

/// Names every token: the longest cut of its name that keeps to its fair share of its row and
/// runs into no token and no name already placed, at one size on screen; none when even the
/// shortest does not fit. A token drawn too small for detail keeps a name only while it is
/// hovered, selected, declaring or targeted.
fn place_labels(
    cameras: Query<&Projection, With<BoardCamera>>,
    tokens: Query<(&Token, &Transform, &TokenScale, &TokenDetail, &Children), Without<NameLabel>>,
    mut labels: Query<(&NameLabel, &mut Text2d, &mut Transform, &mut Visibility)>,
    board: Res<BoardLayout>,
    priorities: Priorities,
    settings: Option<Res<super::model::settings::SettingsScreen>>,
) {
    if settings.is_some_and(|settings| !settings.display.show_names) {
        for (.., mut visibility) in &mut labels {
            visibility.set_if_neq(Visibility::Hidden);
        }
        return;
    }
    let zoom = cameras.iter().next().map_or(1.0, zoom_of);
    // On zones a name keeps inside its zone's box; on a grid it may run over empty squares.
    let zone_width = if board.squares.is_none() { board.cell.x - 2.0 * ZONE_EDGE } else { f32::INFINITY };
    let mut order: Vec<_> = tokens.iter().map(|token| (priorities.of(token.0.0), token)).collect();
    order.sort_by_key(|(key, _)| *key);
    let bodies: Vec<(Entity, Rect)> = order
        .iter()
        .map(|(_, (token, transform, scale, ..))| (token.0, token_body(transform.translation.truncate(), scale.0)))
        .collect();
    let line = LINE_HEIGHT * LABEL_PX * zoom;
    let char_width = CHAR_WIDTH * LABEL_PX * zoom;
    let mut placed: Vec<Rect> = Vec::with_capacity(order.len());
    for ((marked, look, _), (token, transform, scale, detail, children)) in &order {
        if !detail.0 && *marked == UNMARKED {
            let mut hidden = labels.iter_many_mut(children.iter());
            while let Some((.., mut visibility)) = hidden.fetch_next() {
                visibility.set_if_neq(Visibility::Hidden);
            }
            continue;
        }
        let centre = transform.translation.truncate();
        // The fallen give way to the living: they do not narrow a living unit's share.
        let peers = order
            .iter()
            .filter(|((_, other_look, _), _)| other_look <= look)
            .map(|(_, (_, transform, ..))| transform.translation.truncate());
        let widest = fair_width(centre, peers, line, LABEL_SPACING * zoom).min(zone_width);
        // The label is the token's child: undo the token's own scale (a hit's swell included).
        let parent_scale = transform.scale.x.max(f32::EPSILON);
        for child in children.iter() {
            let Ok((name, mut text, mut local, mut visibility)) = labels.get_mut(child) else {
                continue;
            };
            let free = |rect: &Rect| {
                placed.iter().all(|other| other.intersect(*rect).is_empty())
                    && bodies.iter().all(|(unit, body)| *unit == token.0 || body.intersect(*rect).is_empty())
            };
            let chosen = cuts(&name.full).into_iter().find_map(|cut| {
                let chars = cut.chars().count();
                let rect = label_rect(centre, scale.0, chars, zoom);
                (chars as f32 * char_width <= widest && free(&rect)).then_some((cut, rect))
            });
            let Some((cut, rect)) = chosen else {
                visibility.set_if_neq(Visibility::Hidden);
                continue;
            };
            placed.push(rect);
            if text.0 != cut {
                text.0 = cut;
            }
            let below = (rect.center() - centre) / parent_scale;
            // Set only when it moves: a changed transform is propagated again.
            local.set_if_neq(
                Transform::from_translation(below.extend(LABEL_Z)).with_scale(Vec3::splat(zoom / parent_scale)),
            );
            visibility.set_if_neq(Visibility::Inherited);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_fit_are_whole() {
        assert_eq!(elide("Wren", 9), "Wren");
        assert_eq!(elide("Sir Aldous", 10), "Sir Aldous");
    }

    #[test]
    fn long_names_keep_what_tells_units_apart() {
        assert_eq!(elide("Tobiah the Red", 10), "Tobiah Red");
        assert_eq!(elide("Sir Aldous", 9), "Sir Aldo.");
        assert_eq!(elide("Sister Maren", 9), "Sister M.");
        assert_eq!(elide("Grishna the Witch", 10), "Grishna W.");
        assert_eq!(elide("Hobgoblin Warrior", 9), "H.Warrior");
        assert_eq!(elide("Hobgoblin Warrior", 6), "Hobgo.");
    }

    #[test]
    fn cuts_never_exceed_the_room_and_vanish_below_the_least() {
        for name in ["Grishna the Witch", "Hobgoblin Warrior", "Captain Odile", "Wren", "Supercalifragilistic"] {
            for most in 0..20 {
                let cut = elide(name, most);
                let whole = name.chars().count() <= most;
                assert!(cut.chars().count() <= most, "{name} at {most}: {cut}");
                assert_eq!(cut.is_empty(), most < FEWEST_CHARS && !whole, "{name} at {most}: {cut}");
            }
        }
    }

    #[test]
    fn cuts_run_longest_first_without_repeats() {
        let all = cuts("Hobgoblin Warrior");
        assert_eq!(all.first().map(String::as_str), Some("Hobgoblin Warrior"));
        assert!(all.windows(2).all(|pair| pair[0].chars().count() >= pair[1].chars().count() && pair[0] != pair[1]));
    }

    #[test]
    fn neighbours_in_a_row_share_the_room_between_them() {
        let peers = [Vec2::new(-60.0, 2.0), Vec2::new(100.0, 0.0), Vec2::new(10.0, -80.0), Vec2::ZERO];
        assert_eq!(fair_width(Vec2::ZERO, peers.into_iter(), 20.0, 4.0), 56.0);
        assert_eq!(fair_width(Vec2::ZERO, std::iter::empty(), 20.0, 4.0), f32::INFINITY);
    }

    #[test]
    fn a_name_sits_under_its_token_and_grows_with_the_zoom() {
        let near = label_rect(Vec2::ZERO, 1.0, 6, 1.0);
        let far = label_rect(Vec2::ZERO, 1.0, 6, 2.0);
        assert!(near.max.y <= -TOKEN_RADIUS);
        assert!((far.width() / near.width() - 2.0).abs() < 1e-3);
    }
}
