//! A round played out count by count: the window resolves one initiative count at a time
//! ([`ResolveByCount`]) and shows it before the next. Each count's log lines are laid out on a
//! short timeline (a walk a square at a time, a beat per blow) that the board, the floating texts
//! and the log window follow, and the next count waits until this one has been seen: about a
//! second at 1x, half that at 2x, nothing at Instant. Paused, Step resolves one count.

use std::ops::Range;

use super::spine::GameSystems;
use bevy::prelude::*;

use super::feedback::popups;
use super::model::pace::{Pace, ROUND_PAUSE, RoundPacing};
use super::model::playing_count::{PlayingCount, ShownLog};
use crate::rules::components::{Status, Stress, Wounds};
use crate::rules::log::{CombatLog, LogEntry, LogEvent, StatusChange, line};
use crate::rules::{CombatPhase, CombatState, CombatSystems, ResolveByCount, Slot};

/// One step of a walk, in seconds at 1x.
const STEP_SECONDS: f32 = 0.16;
/// A line that shows something over a token (a hit, a miss, a fall), in seconds at 1x.
const SHOWN_LINE_SECONDS: f32 = 0.4;
/// A line with nothing to show on the board (a roll folded into the next), in seconds at 1x.
const QUIET_LINE_SECONDS: f32 = 0.1;

impl PlayingCount {
    /// A count that resolved just now, its lines laid out in time.
    pub fn new(round: u32, count: Option<i32>, slots: Vec<Slot>, lines: Range<usize>, entries: &[LogEntry]) -> Self {
        let at = timeline(entries.get(lines.clone()).unwrap_or_default());
        Self { round, count, slots, lines, at, age: 0.0 }
    }
}

/// When each of `entries` shows, in seconds at 1x: a walk takes a step at a time, a line the
/// board shows takes a beat, a quiet one a moment.
pub fn timeline(entries: &[LogEntry]) -> Vec<f32> {
    let mut now = 0.0;
    entries
        .iter()
        .map(|entry| {
            let shows_at = now;
            now += match &entry.event {
                LogEvent::Moved(_) => STEP_SECONDS,
                event if !popups(event).is_empty() => SHOWN_LINE_SECONDS,
                _ => QUIET_LINE_SECONDS,
            };
            shows_at
        })
        .collect()
}

/// Where the resolve stage stood before it last ran: the round, its cursor and the log's length.
#[derive(Resource, Debug, Default, Clone, Copy)]
struct BeforeResolve {
    round: u32,
    cursor: usize,
    logged: usize,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayingCount>()
        .init_resource::<ShownLog>()
        .init_resource::<BeforeResolve>()
        .configure_sets(Update, CombatSystems::Resolve.run_if(count_pacing_ready))
        .add_systems(
            Update,
            (
                play_on.in_set(GameSystems::Session),
                note_before_resolve.after(CombatSystems::Declare).before(CombatSystems::Resolve),
                note_resolved_count.after(CombatSystems::Resolve).before(CombatSystems::Morale),
                show_log.in_set(GameSystems::Aftermath),
            ),
        );
}

/// How many seconds of a count's timeline pass in one second now: faster at 2x and under a
/// shorter round pause (autoplay's, a test's), without end at Instant or with no pause at all.
fn pace_rate(pace: &Pace, pacing: &RoundPacing) -> f32 {
    let share = pace.speed.pause_share() * (pacing.delay.as_secs_f32() / ROUND_PAUSE.as_secs_f32()).min(1.0);
    if share <= 0.0 { f32::INFINITY } else { 1.0 / share }
}

/// The count on show ages with time at the pace chosen; a pause does not stop it (it has
/// happened), only the next one.
fn play_on(time: Res<Time>, pace: Res<Pace>, pacing: Res<RoundPacing>, mut playing: ResMut<PlayingCount>) {
    if !playing.playing() {
        return;
    }
    let rate = pace_rate(&pace, &pacing);
    playing.age = if rate.is_finite() { playing.age + time.delta_secs() * rate } else { playing.length() };
}

/// The next count may resolve once this one has been seen, or, paused, on a Step. The replay
/// viewer resolves a count when its view needs one (a save's too); a loaded save's rounds
/// replay at once.
fn count_pacing_ready(
    by_count: Option<Res<ResolveByCount>>,
    playing: Res<PlayingCount>,
    pace: Res<Pace>,
    replay: Option<Res<crate::save::Replay>>,
    (playback, log): (Option<Res<super::model::playback::Playback>>, Res<CombatLog>),
    following: Option<Res<crate::rules::Following>>,
) -> bool {
    if by_count.is_none() {
        return true;
    }
    if let Some(wanted) = super::model::playback::playback_wants_round(playback.as_deref(), log.entries().len()) {
        return wanted;
    }
    if super::model::pace::fast_forward(replay.as_deref(), &log, following.is_some()) {
        return true;
    }
    if pace.paused {
        return pace.steps > 0;
    }
    !playing.playing()
}

fn note_before_resolve(state: Res<CombatState>, log: Res<CombatLog>, mut before: ResMut<BeforeResolve>) {
    *before = BeforeResolve { round: state.round, cursor: state.cursor, logged: log.entries().len() };
}

/// A count that resolved this frame goes on show; paused, it used up the Step.
fn note_resolved_count(
    (by_count, replay): (Option<Res<ResolveByCount>>, Option<Res<crate::save::Replay>>),
    playback: Option<Res<super::model::playback::Playback>>,
    state: Res<CombatState>,
    log: Res<CombatLog>,
    before: Res<BeforeResolve>,
    mut playing: ResMut<PlayingCount>,
    (mut pace, following): (ResMut<Pace>, Option<Res<crate::rules::Following>>),
) {
    // A loaded save's rounds replay unseen, up to where it was saved; in the replay viewer they
    // are what is watched.
    let catching_up = super::model::pace::fast_forward(replay.as_deref(), &log, following.is_some());
    let shown = by_count.is_some() && (!catching_up || playback.is_some());
    let resolved = state.round == before.round && state.cursor > before.cursor && state.phase != CombatPhase::Idle;
    if !shown || !resolved {
        return;
    }
    let slots = state.schedule.get(before.cursor..state.cursor).unwrap_or_default().to_vec();
    let lines = before.logged..log.entries().len();
    *playing = PlayingCount::new(state.round, state.count, slots, lines, log.entries());
    if pace.paused {
        pace.steps = pace.steps.saturating_sub(1);
    }
}

/// How much of the log is on show. In the replay viewer, no more than the events in view, and,
/// paused (or at Instant), the count on show stands where the view is, not where time took it.
fn show_log(
    log: Res<CombatLog>,
    mut playing: ResMut<PlayingCount>,
    (playback, pace): (Option<Res<super::model::playback::Playback>>, Res<Pace>),
    mut shown: ResMut<ShownLog>,
) {
    let logged = log.entries().len();
    let Some(playback) = playback else {
        shown.set_if_neq(ShownLog(playing.shown(logged)));
        return;
    };
    let stepping = pace.paused || pace.speed == super::model::pace::Speed::Instant;
    if stepping
        && let Some(age) = playback.count_age(&playing)
        && playing.age != age
    {
        playing.age = age;
    }
    shown.set_if_neq(ShownLog(playing.shown(logged).min(playback.cursor)));
}

/// Ring around a unit acting now, and its arrow.
const ACTING_COLOUR: Color = Color::srgb(1.0, 0.93, 0.45);
/// The acting ring's size, in token radii.
const ACTING_RING: f32 = 1.45;
/// How far the acting ring swells and shrinks, in token radii.
const ACTING_SWELL: f32 = 0.12;
/// Swells of the acting ring per second.
const ACTING_PULSE_RATE: f32 = 3.0;
/// Arrowheads' length, in board pixels at token scale 1.
const ARROW_TIP: f32 = 14.0;
/// A path still to walk.
const WALK_COLOUR: Color = Color::srgba(0.5, 1.0, 0.65, 0.8);
/// How long a blow's motion lasts from its line coming up, in seconds at 1x: a melee lunge
/// there and back, or a missile's flight.
const STRIKE_SECONDS: f32 = 0.3;
/// Farthest apart, in places (squares, or zones), an attacker and its target are for a blow to
/// be a lunge rather than a missile's flight.
const LUNGE_PLACES: f32 = 1.6;
/// How far a lunge leans toward the target, as a share of the way there.
const LUNGE_SHARE: f32 = 0.35;
/// A missile in flight: its radius in board pixels at token scale 1, and its colour.
const MISSILE_RADIUS: f32 = 5.0;
/// See [`MISSILE_RADIUS`].
const MISSILE_COLOUR: Color = Color::srgb(1.0, 1.0, 1.0);

/// A blow whose motion is under way.
#[derive(Clone, Copy, Debug)]
struct Blow {
    attacker: Entity,
    target: Entity,
    /// How far through its motion, 0 to 1.
    through: f32,
    /// Whether it is a thrown item, which flies whatever the distance.
    thrown: bool,
}

impl Blow {
    /// Whether it shows as a lunge (else a missile's flight) between tokens at `from` and `to`.
    fn lunges(&self, board: &super::model::board::BoardLayout, from: Vec2, to: Vec2) -> bool {
        !self.thrown && self.attacker != self.target && from.distance(to) <= board.cell.max_element() * LUNGE_PLACES
    }
}

/// The blows of the count on show whose motion is under way.
fn blows_under_way<'a>(
    playing: &'a PlayingCount,
    log: &'a CombatLog,
    ids: &'a std::collections::HashMap<&str, Entity>,
) -> impl Iterator<Item = Blow> + 'a {
    let entries = log.entries().get(playing.lines.clone()).unwrap_or_default();
    entries.iter().zip(&playing.at).filter_map(move |(entry, at)| {
        let LogEvent::Attack(attack) = &entry.event else {
            return None;
        };
        let through = (playing.age - at) / STRIKE_SECONDS;
        if !(0.0..1.0).contains(&through) {
            return None;
        }
        let (attacker, target) = (*ids.get(&*attack.attacker)?, *ids.get(&*attack.target)?);
        Some(Blow { attacker, target, through, thrown: attack.kind == crate::rules::log::AttackKind::Thrown })
    })
}

/// A melee blow leans its attacker toward the target and back while its line comes up.
fn strike_motions(
    playing: Res<PlayingCount>,
    log: Res<CombatLog>,
    places: PlaceFinder,
    tokens: Query<(&super::board::Token, &Transform)>,
    mut nudges: ResMut<super::board::ShownNudges>,
) {
    let mut leaning = std::collections::HashMap::new();
    if playing.playing() {
        let ids = places.ids();
        let at: std::collections::HashMap<Entity, Vec2> =
            tokens.iter().map(|(token, transform)| (token.0, transform.translation.truncate())).collect();
        for blow in blows_under_way(&playing, &log, &ids) {
            let (Some(&from), Some(&to)) = (at.get(&blow.attacker), at.get(&blow.target)) else {
                continue;
            };
            if blow.lunges(&places.board, from, to) {
                // There and back: the lean is greatest half way through.
                let lean = (blow.through * std::f32::consts::PI).sin();
                leaning.insert(blow.attacker, (to - from) * LUNGE_SHARE * lean);
            }
        }
    }
    if nudges.0 != leaning {
        nudges.0 = leaning;
    }
}

/// The board's part: walks follow the timeline square by square, and the acting units are
/// ringed, with arrows to their targets.
pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            (walk_tokens, strike_motions, show_vitals).in_set(GameSystems::Motion),
            (draw_count, follow_the_actor).in_set(GameSystems::OverBoard),
        )
            .run_if(in_state(super::model::screen::Screen::Battle)),
    );
}

/// Where each walker stands on the count's timeline: the end of its last step shown, or where it
/// set out from.
fn walk_tokens(
    playing: Res<PlayingCount>,
    log: Res<CombatLog>,
    places: PlaceFinder,
    mut shown: ResMut<super::board::ShownPlaces>,
) {
    let mut walkers = std::collections::HashMap::new();
    if playing.playing() {
        let ids = places.ids();
        let entries = log.entries().get(playing.lines.clone()).unwrap_or_default();
        for (entry, at) in entries.iter().zip(&playing.at) {
            let LogEvent::Moved(line::Moved { unit, from, to }) = &entry.event else {
                continue;
            };
            let Some(&entity) = ids.get(&**unit) else {
                continue;
            };
            if *at <= playing.age {
                walkers.insert(entity, places.point(to));
            } else {
                walkers.entry(entity).or_insert_with(|| places.point(from));
            }
        }
    }
    let walkers: std::collections::HashMap<Entity, Vec2> =
        walkers.into_iter().filter_map(|(unit, point)| Some((unit, point?))).collect();
    if shown.0 != walkers {
        shown.0 = walkers;
    }
}

/// What each unit hurt or felled in the count on show looks like until its lines come up: its
/// Stress and Wounds after the last of its blows shown (before the first, while none is), and
/// its status after the last of its falls shown (else its status before the count).
fn show_vitals(
    playing: Res<PlayingCount>,
    (log, shown_log): (Res<CombatLog>, Res<ShownLog>),
    places: PlaceFinder,
    units: Query<(&Stress, &Wounds, &Status)>,
    mut shown: ResMut<super::board::ShownVitals>,
) {
    // The vitals follow the lines shown, not the clock: the log is read again only when a line
    // comes up or is logged.
    if !shown_log.is_changed() && !log.is_changed() {
        return;
    }
    let mut vitals = std::collections::HashMap::new();
    if playing.playing() {
        let ids = places.ids();
        let entries = log.entries();
        for (id, at) in units_with_lines_to_come(entries, &playing, shown_log.0) {
            let Some(&unit) = ids.get(id) else {
                continue;
            };
            let Ok((stress, wounds, status)) = units.get(unit) else {
                continue;
            };
            let now = super::board::Vitals { stress: stress.current, wounds: wounds.current, status: *status };
            vitals.insert(unit, vitals_before(entries, id, at, now));
        }
    }
    let vitals = super::board::ShownVitals(vitals);
    if *shown != vitals {
        *shown = vitals;
    }
}

/// The units with a blow or a fall among the count's lines not shown yet (those from `shown`
/// on), by log id, with the first such line.
fn units_with_lines_to_come<'a>(
    entries: &'a [LogEntry],
    playing: &PlayingCount,
    shown: usize,
) -> std::collections::HashMap<&'a str, usize> {
    let mut units = std::collections::HashMap::new();
    let to_come = shown.max(playing.lines.start)..playing.lines.end;
    for at in to_come {
        let unit = match entries.get(at).map(|entry| &entry.event) {
            Some(LogEvent::Damage(damage)) => &*damage.unit,
            Some(LogEvent::Status(change)) => &*change.unit,
            _ => continue,
        };
        units.entry(unit).or_insert(at);
    }
    units
}

/// Unit `id`'s vitals just before the log's line `at`, from its lines before it: the Stress and
/// Wounds a blow left (or, for its first blow from `at` on, what it had before that blow), and
/// its last status. `now` stands in where the log does not say.
fn vitals_before(entries: &[LogEntry], id: &str, at: usize, now: super::board::Vitals) -> super::board::Vitals {
    let mut vitals = now;
    let mut pools_known = false;
    let mut status_known = false;
    for entry in entries[..at].iter().rev() {
        match &entry.event {
            LogEvent::Damage(damage) if !pools_known && &*damage.unit == id => {
                (vitals.stress, vitals.wounds) = (damage.stress, damage.wounds);
                pools_known = true;
            }
            LogEvent::Status(change) if !status_known && &*change.unit == id => {
                if let StatusChange::Became(status) = change.status {
                    vitals.status = status;
                }
                status_known = true;
            }
            _ => {}
        }
        if pools_known && status_known {
            break;
        }
    }
    if !status_known {
        // No fall logged before: it stood as it began the battle.
        vitals.status = Status::Active;
    }
    if !pools_known
        && let Some(LogEvent::Damage(first)) = entries[at..]
            .iter()
            .map(|entry| &entry.event)
            .find(|event| matches!(event, LogEvent::Damage(damage) if &*damage.unit == id))
    {
        (vitals.stress, vitals.wounds) = (first.stress + first.stress_lost, first.wounds + first.wounds_lost);
    }
    vitals
}

/// Finds units by their log id and places on the board.
#[derive(bevy::ecs::system::SystemParam)]
struct PlaceFinder<'w, 's> {
    units: Query<'w, 's, (Entity, &'static crate::rules::components::UnitId)>,
    board: Res<'w, super::model::board::BoardLayout>,
    battlefield: Res<'w, crate::battlefield::Battlefield>,
}

impl PlaceFinder<'_, '_> {
    /// Every unit by its log id, looked up once per frame rather than once per line.
    fn ids(&self) -> std::collections::HashMap<&str, Entity> {
        self.units.iter().map(|(entity, unit)| (&*unit.0, entity)).collect()
    }

    /// Where a token stands in `place`: its square's centre, or the middle of its zone's tokens.
    fn point(&self, place: &crate::battlefield::Place) -> Option<Vec2> {
        match place {
            crate::battlefield::Place::Square([x, y]) => {
                Some(super::model::board::square_centre(crate::battlefield::Square::new(*x, *y)))
            }
            crate::battlefield::Place::Zone(id) => {
                let zone = usize::from(self.battlefield.find(id)?);
                self.board.token_areas.get(zone).map(Rect::center).or_else(|| self.board.centres.get(zone).copied())
            }
        }
    }
}

/// Rings the units acting in the count on show and draws an arrow from each to its target, and
/// the rest of a walker's path.
fn draw_count(
    mut gizmos: Gizmos,
    time: Res<Time>,
    playing: Res<PlayingCount>,
    log: Res<CombatLog>,
    places: PlaceFinder,
    tokens: Query<(&super::board::Token, &Transform, &super::board::TokenScale)>,
) {
    if !playing.playing() {
        return;
    }
    // One pass over the tokens, not one per slot: a mass battle's count holds hundreds.
    let places_of: std::collections::HashMap<Entity, (Vec2, f32)> =
        tokens.iter().map(|(token, transform, scale)| (token.0, (transform.translation.truncate(), scale.0))).collect();
    let token_at = |unit: Entity| places_of.get(&unit).copied();
    let swell = 1.0 + ACTING_SWELL * (time.elapsed_secs() * ACTING_PULSE_RATE * std::f32::consts::TAU).sin();
    // A blow from afar is a missile flying from the attacker to its target.
    for blow in blows_under_way(&playing, &log, &places.ids()) {
        if let (Some((from, scale)), Some((to, _))) = (token_at(blow.attacker), token_at(blow.target))
            && !blow.lunges(&places.board, from, to)
        {
            gizmos.circle_2d(from.lerp(to, blow.through), MISSILE_RADIUS * scale, MISSILE_COLOUR);
        }
    }
    for slot in &playing.slots {
        let Some((at, scale)) = token_at(slot.unit) else {
            continue;
        };
        let radius = super::board::TOKEN_RADIUS * scale;
        gizmos.circle_2d(at, radius * ACTING_RING * swell, ACTING_COLOUR);
        gizmos.circle_2d(at, radius * ACTING_RING * swell + 1.5, ACTING_COLOUR);
        if let Some(target) = slot.action.target.filter(|target| *target != slot.unit)
            && let Some((there, their_scale)) = token_at(target)
            && let Some((from, to)) = super::overlays::trim(
                at,
                there,
                radius * ACTING_RING,
                super::board::TOKEN_RADIUS * their_scale * ACTING_RING,
            )
        {
            gizmos.arrow_2d(from, to, ACTING_COLOUR).with_tip_length(ARROW_TIP * scale);
        }
    }
    // The steps still to come of each walk.
    let entries = log.entries().get(playing.lines.clone()).unwrap_or_default();
    for (entry, at) in entries.iter().zip(&playing.at) {
        if let LogEvent::Moved(line::Moved { from, to, .. }) = &entry.event
            && *at > playing.age
            && let (Some(from), Some(to)) = (places.point(from), places.point(to))
        {
            gizmos.line_2d(from, to, WALK_COLOUR);
            gizmos.circle_2d(to, super::board::TOKEN_RADIUS * 0.2, WALK_COLOUR);
        }
    }
}

/// How far inside the board's view an acting unit must stand not to move the camera, in token
/// radii.
const FOLLOW_MARGIN: f32 = 2.0;
/// How fast the camera glides to an actor out of view, per second (exponential).
const FOLLOW_RATE: f32 = 6.0;

/// When the count on show begins with its actor out of view, the camera glides to it.
fn follow_the_actor(
    time: Res<Time>,
    playing: Res<PlayingCount>,
    window: Option<Single<&Window>>,
    mut contexts: bevy_egui::EguiContexts,
    tokens: Query<(&super::board::Token, &Transform), Without<super::camera::BoardCamera>>,
    mut cameras: Query<(&mut Transform, &Projection), With<super::camera::BoardCamera>>,
    mut goal: Local<Option<Vec2>>,
) {
    let Ok((mut camera, projection)) = cameras.single_mut() else {
        return;
    };
    let scale = super::camera::zoom_of(projection);
    let window = window.map_or(super::camera::DEFAULT_WINDOW, |window| window.size());
    let ui_scale = contexts.ctx_mut().map_or(1.0, |ctx| ctx.zoom_factor());
    let (free, offset) = super::camera::board_view(window, ui_scale);
    // The board point at the middle of the part of the window the panels leave.
    let shift = Vec2::new(offset.x, -offset.y) * scale;
    if playing.is_changed() && playing.playing() {
        let actor = playing.slots.first().and_then(|slot| tokens.iter().find(|(token, _)| token.0 == slot.unit));
        if let Some((_, at)) = actor {
            let at = at.translation.truncate();
            let seen = Rect::from_center_size(camera.translation.truncate() + shift, free * scale)
                .inflate(-super::board::TOKEN_RADIUS * FOLLOW_MARGIN);
            if !seen.contains(at) {
                *goal = Some(at - shift);
            }
        }
    }
    let Some(target) = *goal else {
        return;
    };
    let here = camera.translation.truncate();
    let next = here.lerp(target, 1.0 - (-FOLLOW_RATE * time.delta_secs()).exp());
    camera.translation = next.extend(camera.translation.z);
    if next.distance(target) < 1.0 {
        *goal = None;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::battlefield::Place;
    use crate::game::model::playing_count::{COUNT_SECONDS, QUIET_COUNT_SECONDS};

    fn moved(x: i32) -> LogEntry {
        let unit: Arc<str> = "wren".into();
        let event = LogEvent::Moved(line::Moved { unit, from: Place::Square([x, 0]), to: Place::Square([x + 1, 0]) });
        LogEntry { round: 1, event }
    }

    fn fell() -> LogEntry {
        LogEntry {
            round: 1,
            event: LogEvent::Status(line::Status { unit: "wren".into(), status: Status::Dying.into() }),
        }
    }

    #[test]
    fn a_walk_takes_a_step_at_a_time_and_a_blow_a_beat() {
        let entries = [moved(0), moved(1), fell(), moved(2)];
        let at = timeline(&entries);
        assert_eq!(at, vec![0.0, STEP_SECONDS, 2.0 * STEP_SECONDS, 2.0 * STEP_SECONDS + SHOWN_LINE_SECONDS]);
    }

    #[test]
    fn the_board_shows_a_count_s_lines_as_they_come_up_and_everything_else_at_once() {
        let entries = [fell(), moved(0), moved(1), fell()];
        let mut playing = PlayingCount::new(1, Some(7), vec![slot()], 1..4, &entries);
        assert_eq!(playing.shown(4), 2, "the count's first line shows at its start");
        playing.age = STEP_SECONDS;
        assert_eq!(playing.shown(4), 3);
        assert!(playing.holds(2) && !playing.holds(0));
        playing.age = playing.length();
        assert_eq!(playing.shown(4), 4, "once played out, all of it");
        assert!(!playing.playing() && !playing.holds(2));
        assert!(playing.length() >= COUNT_SECONDS, "a count stays long enough to see");
        let quiet = PlayingCount::new(1, Some(7), vec![slot()], 4..4, &entries);
        assert_eq!(quiet.length(), QUIET_COUNT_SECONDS, "a count with nothing to show is only glanced at");
    }

    fn blow(kind: crate::rules::log::AttackKind) -> LogEntry {
        let roll = crate::vocabulary::dice::DiceRoll {
            expr: crate::vocabulary::dice::Dice::new(1, 20),
            dice: vec![12],
            total: 12,
        };
        let attack = line::Attack {
            attacker: "wolf".into(),
            target: "wren".into(),
            initiative: 7,
            roll,
            total: 12,
            defense: 10,
            hit: true,
            critical: false,
            kind,
            damage_roll: None,
            extra: Default::default(),
        };
        LogEntry { round: 1, event: LogEvent::Attack(attack) }
    }

    #[test]
    fn a_blow_moves_while_its_line_comes_up_and_a_throw_always_flies() {
        use crate::rules::log::AttackKind;
        let entries = [moved(0), blow(AttackKind::Normal), blow(AttackKind::Thrown)];
        let mut playing = PlayingCount::new(1, Some(7), vec![slot()], 0..3, &entries);
        let mut log = CombatLog::default();
        for entry in &entries {
            log.record(entry.round, || entry.event.clone());
        }
        let (wolf, wren) = (Entity::from_raw_u32(1).expect("an id"), Entity::from_raw_u32(2).expect("an id"));
        let ids = std::collections::HashMap::from([("wolf", wolf), ("wren", wren)]);
        assert_eq!(blows_under_way(&playing, &log, &ids).count(), 0, "the walk comes first");
        // Part way into the first blow, before the throw's line comes up.
        let into = (playing.at[2] - playing.at[1]).min(STRIKE_SECONDS) / 2.0;
        playing.age = playing.at[1] + into;
        let blows: Vec<Blow> = blows_under_way(&playing, &log, &ids).collect();
        assert_eq!(blows.len(), 1);
        let through = into / STRIKE_SECONDS;
        assert!((blows[0].through - through).abs() < 1e-4 && blows[0].attacker == wolf && blows[0].target == wren);
        let board = crate::game::model::board::BoardLayout { cell: Vec2::splat(80.0), ..Default::default() };
        assert!(blows[0].lunges(&board, Vec2::ZERO, Vec2::new(80.0, 0.0)), "a blow next door lunges");
        assert!(!blows[0].lunges(&board, Vec2::ZERO, Vec2::new(400.0, 0.0)), "a blow from afar flies");
        playing.age = playing.at[2] + STRIKE_SECONDS / 2.0;
        let thrown: Vec<Blow> = blows_under_way(&playing, &log, &ids).filter(|blow| blow.thrown).collect();
        assert_eq!(thrown.len(), 1, "the throw is under way");
        assert!(!thrown[0].lunges(&board, Vec2::ZERO, Vec2::new(80.0, 0.0)), "a throw flies, however near");
    }

    fn damage(unit: &str, (stress, stress_lost): (i32, i32), (wounds, wounds_lost): (i32, i32)) -> LogEntry {
        let event = LogEvent::Damage(line::Damage {
            unit: unit.into(),
            source: "wolf".into(),
            amount: stress_lost + wounds_lost,
            damage_type: crate::rules::equipment::DamageType::Slashing,
            critical: false,
            stress_lost,
            wounds_lost,
            stress,
            wounds,
            roll: None,
        });
        LogEntry { round: 1, event }
    }

    #[test]
    fn a_token_shows_its_unit_as_it_was_until_the_count_s_blows_and_falls_come_up() {
        use crate::game::board::Vitals;
        use crate::rules::log::AttackKind;
        // Hurt in an earlier count; then, in this one, cut down and felled. Tobiah's first blow
        // is in this count.
        let entries = [
            damage("wren", (8, 2), (10, 0)),
            blow(AttackKind::Normal),
            damage("wren", (0, 8), (7, 3)),
            fell(),
            damage("tobiah", (4, 2), (9, 0)),
        ];
        let playing = PlayingCount::new(1, Some(7), vec![slot()], 1..5, &entries);
        let now = Vitals { stress: 0, wounds: 7, status: Status::Dying };
        let to_come = units_with_lines_to_come(&entries, &playing, 1);
        assert_eq!(to_come.get("wren"), Some(&2));
        assert_eq!(vitals_before(&entries, "wren", 2, now), Vitals { stress: 8, wounds: 10, status: Status::Active });
        assert_eq!(vitals_before(&entries, "wren", 3, now), Vitals { stress: 0, wounds: 7, status: Status::Active });
        let tobiah = Vitals { stress: 4, wounds: 9, status: Status::Active };
        assert_eq!(
            vitals_before(&entries, "tobiah", 4, tobiah),
            Vitals { stress: 6, wounds: 9, status: Status::Active }
        );
        assert!(units_with_lines_to_come(&entries, &playing, 5).is_empty(), "all shown: the units as they are");
    }

    fn slot() -> Slot {
        let action = crate::rules::components::Action::simple(crate::rules::components::ActionKind::Move);
        Slot { initiative: 7, unit: Entity::PLACEHOLDER, order: 0, action }
    }
}
