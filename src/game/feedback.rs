//! Feedback a player can follow: each new miss, hit, heal and fall in the combat log rises as a
//! short text over its unit's token and fades, one after another over the same token or tokens
//! close by on screen; a critical hit also sends rings pulsing out from its target.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::board::{TOKEN_RADIUS, Token, TokenScale};
use super::camera::{BoardCamera, zoom_of};
use super::model::playing_count::ShownLog;
use super::model::screen::Screen;
use super::spine::GameSystems;
use crate::rules::components::{Status, UnitId};
use crate::rules::log::line;
use crate::rules::log::{CombatLog, LogEntry, LogEvent, StatusChange};

/// Size of a floating text on screen, in logical pixels.
const FLOAT_PX: f32 = 16.0;
/// How long a floating text lives, in seconds.
const FLOAT_SECONDS: f32 = 1.2;
/// How far a floating text rises over its life, in screen pixels: with the stagger, enough
/// that texts over one token never touch (rise · stagger / life > a line).
const FLOAT_RISE: f32 = 50.0;
/// Where a floating text starts, in screen pixels above the token's disc.
const FLOAT_START: f32 = 12.0;
/// Seconds between floating texts over the same token or near ones, so each can be read.
const FLOAT_STAGGER: f32 = 0.5;
/// Texts that would wait longer than this behind others over the same token or near ones are
/// dropped (a fast-forwarded battle would otherwise queue them for ever).
const FLOAT_BACKLOG: f32 = 1.5;
/// How near, across and up in screen pixels, another token may be for a text over it to wait
/// its turn as if over the same token: about a long text's width ("morale breaks") and a line's
/// height. In a mass battle framed whole, hundreds of specks would otherwise raise their texts
/// all at once in one unreadable heap.
const FLOAT_CLEARANCE_PX: Vec2 = Vec2::new(110.0, 24.0);
/// Share of its life after which a floating text fades.
const FADE_FROM: f32 = 0.55;
/// Depth of floating texts: over everything on the board.
const FLOAT_Z: f32 = 30.0;
/// A floating text's shadow, in screen pixels, so it reads on any ground.
const SHADOW_OFFSET: Vec2 = Vec2::new(1.5, -1.5);
/// How long a critical hit's pulse lasts, in seconds.
const PULSE_SECONDS: f32 = 0.8;
/// How far a pulse grows beyond the disc, in radii.
const PULSE_GROWTH: f32 = 2.0;
/// Rings drawn side by side to make a pulse thick enough to catch the eye.
const PULSE_RINGS: usize = 4;
/// Gap between those rings, in screen pixels.
const PULSE_RING_GAP: f32 = 1.0;

/// Damage taken.
const DAMAGE_COLOUR: Color = Color::srgb(1.0, 0.4, 0.32);
/// A critical hit and its damage.
const CRITICAL_COLOUR: Color = Color::srgb(1.0, 0.86, 0.2);
/// A miss, or a blow that did nothing.
const MISS_COLOUR: Color = Color::srgb(0.82, 0.84, 0.88);
/// Healing and help.
const HEAL_COLOUR: Color = Color::srgb(0.45, 0.95, 0.5);
/// A unit falling, fleeing or yielding.
const FALL_COLOUR: Color = Color::srgb(1.0, 0.6, 0.2);
/// Anything else worth a word (a wound, a lost action).
const NOTE_COLOUR: Color = Color::srgb(0.6, 0.82, 1.0);
/// Floating texts' shadow.
const SHADOW_COLOUR: Color = Color::srgba(0.0, 0.0, 0.0, 0.85);

/// What kind of news a floating text brings, which sets its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Damage taken.
    Damage,
    /// A critical hit (it also pulses).
    Critical,
    /// A miss, or nothing done.
    Miss,
    /// Healing or help.
    Heal,
    /// Falling, fleeing, yielding.
    Fall,
    /// Anything else.
    Note,
}

impl Tone {
    /// The text's colour.
    pub fn colour(self) -> Color {
        match self {
            Self::Damage => DAMAGE_COLOUR,
            Self::Critical => CRITICAL_COLOUR,
            Self::Miss => MISS_COLOUR,
            Self::Heal => HEAL_COLOUR,
            Self::Fall => FALL_COLOUR,
            Self::Note => NOTE_COLOUR,
        }
    }
}

/// A floating text that a log event calls for, over one unit's token.
#[derive(Clone, Debug, PartialEq)]
pub struct Popup {
    /// The unit's level id.
    pub unit: Arc<str>,
    /// What it says.
    pub text: String,
    /// Its kind.
    pub tone: Tone,
}

/// The floating texts an event calls for. Hits show as their damage (the `damage` line that
/// follows), so an attack itself only shows when it misses or is critical.
pub fn popups(event: &LogEvent) -> Vec<Popup> {
    let one = |unit: &Arc<str>, text: &str, tone: Tone| vec![Popup { unit: unit.clone(), text: text.into(), tone }];
    match event {
        LogEvent::Attack(line::Attack { target, hit: false, extra, .. }) => {
            one(target, if extra.avoid { "avoided" } else { "miss" }, Tone::Miss)
        }
        LogEvent::Attack(line::Attack { target, hit: true, critical: true, .. }) => {
            one(target, "CRITICAL", Tone::Critical)
        }
        LogEvent::Damage(line::Damage { unit, amount, critical, .. }) => {
            let tone = match (*amount, *critical) {
                (0, _) => Tone::Miss,
                (_, true) => Tone::Critical,
                (_, false) => Tone::Damage,
            };
            one(unit, &format!("-{amount}"), tone)
        }
        LogEvent::Shock(line::Shock { target, absorbed_by: Some(by), .. }) => {
            one(target, &format!("{} holds", by.as_str()), Tone::Miss)
        }
        LogEvent::Healed(line::Healed { unit, stress_restored, wounds_restored, .. }) => {
            one(unit, &format!("+{}", stress_restored + wounds_restored), Tone::Heal)
        }
        LogEvent::Status(line::Status { unit, status }) => match *status {
            StatusChange::Became(Status::Dead) => one(unit, "DEAD", Tone::Fall),
            StatusChange::Became(Status::Dying) => one(unit, "DYING", Tone::Fall),
            StatusChange::Became(Status::Incapacitated) => one(unit, "DOWN", Tone::Fall),
            StatusChange::Became(Status::Unconscious) => one(unit, "OUT COLD", Tone::Fall),
            StatusChange::Became(Status::Fled) => one(unit, "FLEES", Tone::Fall),
            StatusChange::Became(Status::Surrendered) => one(unit, "YIELDS", Tone::Fall),
            StatusChange::Forfeited => one(unit, "FORFEITS", Tone::Fall),
            // Getting back up, or a change another line already shows (the Heal check's
            // `stabilise`, the `maneuver` that knocked it down): nothing more over the unit.
            StatusChange::Became(Status::Active | Status::Reserve)
            | StatusChange::Parley
            | StatusChange::Vanished
            | StatusChange::StandsAside
            | StatusChange::Stabilized
            | StatusChange::Prone
            | StatusChange::Standing
            | StatusChange::FullDefense => Vec::new(),
        },
        LogEvent::Wound(line::Wound { unit, .. }) => one(unit, "wounded", Tone::Note),
        LogEvent::Stabilise(line::Stabilise { target, success: true, .. }) => one(target, "stabilised", Tone::Heal),
        LogEvent::Cast(line::Cast { unit, success: false, .. }) => one(unit, "fizzles", Tone::Miss),
        LogEvent::SpellDisrupted(line::SpellDisrupted { unit, .. }) => one(unit, "disrupted", Tone::Note),
        LogEvent::ActionLost(line::ActionLost { unit, .. }) => one(unit, "action lost", Tone::Note),
        LogEvent::Maneuver(line::Maneuver { target, outcome: Some(outcome), .. }) => {
            one(target, &outcome.as_str().replace('_', " "), Tone::Note)
        }
        LogEvent::Morale(line::Morale { unit, passed: false, .. }) => one(unit, "morale breaks", Tone::Fall),
        _ => Vec::new(),
    }
}

/// How far into the combat log the board has shown.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct LogCursor {
    /// Entries shown so far.
    shown: usize,
    /// The seed of the battle they belong to.
    battle: Option<u64>,
}

impl LogCursor {
    /// The entries of `entries` not shown yet, now counted as shown. A log that got shorter or
    /// starts another battle (a restart clears it) is shown from its start.
    pub fn advance(&mut self, entries: &[LogEntry]) -> Range<usize> {
        let battle = entries.first().and_then(|entry| match &entry.event {
            LogEvent::CombatStarted(line::CombatStarted { seed, .. }) => Some(*seed),
            _ => None,
        });
        if entries.len() < self.shown || battle != self.battle {
            self.shown = 0;
            self.battle = battle;
        }
        let new = self.shown..entries.len();
        self.shown = entries.len();
        new
    }

    /// As [`Self::advance`], but what was shown once stays seen: a shorter view of the same
    /// battle (a replay stepped back, or played again up to an earlier event) shows nothing
    /// anew, and only its entries past the furthest shown are new.
    pub fn advance_once(&mut self, entries: &[LogEntry]) -> Range<usize> {
        let battle = entries.first().and_then(|entry| match &entry.event {
            LogEvent::CombatStarted(line::CombatStarted { seed, .. }) => Some(*seed),
            _ => None,
        });
        if battle.is_some() && battle == self.battle && entries.len() <= self.shown {
            return self.shown..self.shown;
        }
        self.advance(entries)
    }
}

/// When floating texts may rise where: each one shown or waiting, by where its token stood and
/// until when the next one near it must wait.
#[derive(Debug, Default)]
struct FloatSchedule {
    /// Board position of the token and the time the place is free again, in seconds.
    busy: Vec<(Vec2, f32)>,
}

impl FloatSchedule {
    /// When a text over a token at `at` may start, at time `now` with `zoom` board units to a
    /// screen pixel: after every text near it on screen (the same token's included), or `None`
    /// when that is more than [`FLOAT_BACKLOG`] away and the text is dropped. Booked if shown.
    fn book(&mut self, at: Vec2, now: f32, zoom: f32) -> Option<f32> {
        self.busy.retain(|&(_, until)| until > now);
        let clearance = FLOAT_CLEARANCE_PX * zoom;
        let near = |other: Vec2| {
            let apart = (other - at).abs();
            apart.x < clearance.x && apart.y < clearance.y
        };
        let start = self.busy.iter().filter(|&&(other, _)| near(other)).map(|&(_, until)| until).fold(now, f32::max);
        if start - now > FLOAT_BACKLOG {
            return None;
        }
        self.busy.push((at, start + FLOAT_STAGGER));
        Some(start)
    }
}

/// A floating text over a token.
#[derive(Component, Debug)]
struct Floating {
    /// The token it rises over.
    token: Entity,
    /// Seconds since it appeared (below 0 while it waits its turn).
    age: f32,
    /// Where its token was last seen.
    at: Vec2,
}

/// A token, never a floating text (both have a place; only the text's moves here).
type TokenNotText = (With<Token>, Without<Floating>);

/// A critical hit's rings around a token.
#[derive(Component, Debug)]
struct Pulse {
    /// The token it pulses around.
    token: Entity,
    /// Seconds since it began (below 0 while it waits its turn).
    age: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogCursor>().add_systems(
        Update,
        (spawn_feedback, animate_floating, draw_pulses)
            .chain()
            .in_set(GameSystems::OverBoard)
            .run_if(in_state(Screen::Battle)),
    );
}

/// Turns the log's new entries into floating texts and pulses over their units' tokens.
fn spawn_feedback(
    mut commands: Commands,
    time: Res<Time>,
    (log, shown, mut cursor, playback): (
        Res<CombatLog>,
        Res<ShownLog>,
        ResMut<LogCursor>,
        Option<Res<super::model::playback::Playback>>,
    ),
    units: Query<(Entity, &UnitId)>,
    tokens: Query<(Entity, &Token, &Transform)>,
    cameras: Query<&Projection, With<BoardCamera>>,
    mut schedule: Local<FloatSchedule>,
) {
    // Only what the count on show has come to: each text rises as its line comes up.
    let entries = log.entries().get(..shown.0).unwrap_or(log.entries());
    // A replay stepped back shows again what it showed: no texts rise for it a second time.
    let new = if playback.is_some() { cursor.advance_once(entries) } else { cursor.advance(entries) };
    if new.is_empty() {
        return;
    }
    let by_id: HashMap<&str, Entity> = units.iter().map(|(entity, id)| (&*id.0, entity)).collect();
    let token_of: HashMap<Entity, (Entity, Vec2)> =
        tokens.iter().map(|(entity, token, transform)| (token.0, (entity, transform.translation.truncate()))).collect();
    let now = time.elapsed_secs();
    let zoom = cameras.iter().next().map_or(1.0, zoom_of);
    for entry in &log.entries()[new] {
        for popup in popups(&entry.event) {
            let Some(&(token, at)) = by_id.get(&*popup.unit).and_then(|unit| token_of.get(unit)) else {
                continue;
            };
            let Some(start) = schedule.book(at, now, zoom) else {
                continue;
            };
            let age = now - start;
            if popup.tone == Tone::Critical {
                commands.spawn((Pulse { token, age }, DespawnOnExit(Screen::Battle)));
            }
            commands.spawn((
                Floating { token, age, at },
                DespawnOnExit(Screen::Battle),
                Text2d::new(popup.text),
                TextFont::from_font_size(FLOAT_PX),
                TextColor(popup.tone.colour()),
                Text2dShadow { offset: SHADOW_OFFSET, color: SHADOW_COLOUR },
                Transform::from_translation(at.extend(FLOAT_Z)),
                Visibility::Hidden,
            ));
        }
    }
}

/// Floating texts follow their token, rise, fade and go.
fn animate_floating(
    mut commands: Commands,
    time: Res<Time>,
    cameras: Query<&Projection, With<BoardCamera>>,
    tokens: Query<(&Transform, &TokenScale), TokenNotText>,
    mut floating: Query<(Entity, &mut Floating, &mut Transform, &mut TextColor, &mut Text2dShadow, &mut Visibility)>,
) {
    let zoom = cameras.iter().next().map_or(1.0, zoom_of);
    for (entity, mut text, mut transform, mut colour, mut shadow, mut visibility) in &mut floating {
        text.age += time.delta_secs();
        if text.age < 0.0 {
            continue;
        }
        let life = text.age / FLOAT_SECONDS;
        if life >= 1.0 {
            commands.entity(entity).despawn();
            continue;
        }
        let scale = match tokens.get(text.token) {
            Ok((token, scale)) => {
                text.at = token.translation.truncate();
                scale.0
            }
            Err(_) => 1.0,
        };
        // A steady rise keeps the texts over one token evenly apart.
        let risen = FLOAT_RISE * life;
        let above = TOKEN_RADIUS * scale + (FLOAT_START + risen) * zoom;
        transform.translation = (text.at + Vec2::new(0.0, above)).extend(FLOAT_Z);
        transform.scale = Vec3::splat(zoom);
        let alpha = if life < FADE_FROM { 1.0 } else { 1.0 - (life - FADE_FROM) / (1.0 - FADE_FROM) };
        colour.0.set_alpha(alpha);
        shadow.color.set_alpha(alpha * SHADOW_COLOUR.alpha());
        shadow.offset = SHADOW_OFFSET;
        visibility.set_if_neq(Visibility::Inherited);
    }
}

/// A critical hit's rings swell out from the target's disc and fade.
fn draw_pulses(
    mut commands: Commands,
    mut gizmos: Gizmos,
    time: Res<Time>,
    cameras: Query<&Projection, With<BoardCamera>>,
    tokens: Query<(&Transform, &TokenScale), With<Token>>,
    mut pulses: Query<(Entity, &mut Pulse)>,
) {
    let zoom = cameras.iter().next().map_or(1.0, zoom_of);
    for (entity, mut pulse) in &mut pulses {
        pulse.age += time.delta_secs();
        let life = pulse.age / PULSE_SECONDS;
        let Ok((token, scale)) = tokens.get(pulse.token) else {
            commands.entity(entity).despawn();
            continue;
        };
        if life >= 1.0 {
            commands.entity(entity).despawn();
            continue;
        }
        if life < 0.0 {
            continue;
        }
        let radius = TOKEN_RADIUS * scale.0 * (1.0 + PULSE_GROWTH * life);
        let colour = CRITICAL_COLOUR.with_alpha(1.0 - life);
        let centre = Isometry2d::from_translation(token.translation.truncate());
        for ring in 0..PULSE_RINGS {
            gizmos.circle_2d(centre, radius + ring as f32 * PULSE_RING_GAP * zoom, colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{Dice, DiceRoll};
    use crate::rules::log::{AttackExtra, ShockAbsorber};

    fn roll(total: i32) -> DiceRoll {
        DiceRoll { expr: Dice::new(1, 20), dice: vec![total.max(1) as u32], total }
    }

    fn attack(hit: bool, critical: bool) -> LogEvent {
        LogEvent::Attack(line::Attack {
            attacker: "orc".into(),
            target: "wren".into(),
            initiative: 3,
            roll: roll(12),
            total: 14,
            defense: 13,
            hit,
            critical,
            kind: crate::rules::log::AttackKind::Normal,
            damage_roll: None,
            extra: AttackExtra::default(),
        })
    }

    fn damage(amount: i32, critical: bool) -> LogEvent {
        LogEvent::Damage(line::Damage {
            unit: "wren".into(),
            source: "orc".into(),
            amount,
            damage_type: crate::rules::equipment::DamageType::Slashing,
            critical,
            stress_lost: amount,
            wounds_lost: 0,
            stress: 3,
            wounds: 8,
            roll: None,
        })
    }

    fn texts(event: &LogEvent) -> Vec<(String, Tone)> {
        popups(event).into_iter().map(|popup| (popup.text, popup.tone)).collect()
    }

    #[test]
    fn misses_and_criticals_show_over_the_target_and_plain_hits_wait_for_their_damage() {
        assert_eq!(texts(&attack(false, false)), [("miss".to_string(), Tone::Miss)]);
        assert_eq!(texts(&attack(true, true)), [("CRITICAL".to_string(), Tone::Critical)]);
        assert!(texts(&attack(true, false)).is_empty());
        assert!(popups(&attack(false, false)).iter().all(|popup| &*popup.unit == "wren"));
    }

    #[test]
    fn damage_shows_as_a_number_coloured_by_how_it_landed() {
        assert_eq!(texts(&damage(5, false)), [("-5".to_string(), Tone::Damage)]);
        assert_eq!(texts(&damage(9, true)), [("-9".to_string(), Tone::Critical)]);
        assert_eq!(texts(&damage(0, false)), [("-0".to_string(), Tone::Miss)]);
    }

    #[test]
    fn heals_falls_and_quiet_events() {
        let healed = LogEvent::Healed(line::Healed {
            unit: "wren".into(),
            source: "maren".into(),
            roll: roll(4),
            stress_restored: 3,
            wounds_restored: 1,
            stress: 6,
            wounds: 9,
            wound_closed: None,
        });
        assert_eq!(texts(&healed), [("+4".to_string(), Tone::Heal)]);
        let dead = LogEvent::Status(line::Status { unit: "wren".into(), status: Status::Dead.into() });
        assert_eq!(texts(&dead), [("DEAD".to_string(), Tone::Fall)]);
        let knocked_out = LogEvent::Status(line::Status { unit: "wren".into(), status: Status::Unconscious.into() });
        assert_eq!(texts(&knocked_out), [("OUT COLD".to_string(), Tone::Fall)]);
        let back = LogEvent::Status(line::Status { unit: "wren".into(), status: Status::Active.into() });
        assert!(texts(&back).is_empty());
        assert!(texts(&LogEvent::RoundStarted {}).is_empty());
        let shield = LogEvent::Shock(line::Shock {
            attacker: "orc".into(),
            target: "wren".into(),
            amount: 0,
            absorbed_by: Some(ShockAbsorber::Shield),
        });
        assert_eq!(texts(&shield), [("shield holds".to_string(), Tone::Miss)]);
    }

    fn started(seed: u64) -> LogEntry {
        LogEntry {
            round: 0,
            event: LogEvent::CombatStarted(line::CombatStarted {
                level: "l".into(),
                ruleset: "r".into(),
                seed,
                units: Vec::new(),
            }),
        }
    }

    #[test]
    fn texts_over_one_token_or_near_ones_take_turns_and_far_ones_rise_together() {
        let mut schedule = FloatSchedule::default();
        let zoom = 2.0;
        let here = Vec2::new(100.0, 100.0);
        assert_eq!(schedule.book(here, 10.0, zoom), Some(10.0));
        // The same token, and one a few screen pixels off, wait for the first text.
        assert_eq!(schedule.book(here, 10.0, zoom), Some(10.0 + FLOAT_STAGGER));
        let beside = here + Vec2::new(FLOAT_CLEARANCE_PX.x * zoom * 0.5, 0.0);
        assert_eq!(schedule.book(beside, 10.0, zoom), Some(10.0 + 2.0 * FLOAT_STAGGER));
        // Beyond the clearance, at once.
        let far = here + Vec2::new(FLOAT_CLEARANCE_PX.x * zoom * 1.5, 0.0);
        assert_eq!(schedule.book(far, 10.0, zoom), Some(10.0));
        // A crowd's backlog is dropped, and the place frees once the texts have had their turn.
        let waits = (FLOAT_BACKLOG / FLOAT_STAGGER) as usize;
        let booked = (0..waits + 3).filter(|_| schedule.book(here, 10.0, zoom).is_some()).count();
        assert!(booked < waits + 3, "a heap of texts over one spot must be cut short");
        assert_eq!(schedule.book(here, 20.0, zoom), Some(20.0));
    }

    #[test]
    fn each_entry_shows_once_and_a_new_battle_starts_over() {
        let mut cursor = LogCursor::default();
        let mut entries = vec![started(1), LogEntry { round: 1, event: LogEvent::RoundStarted {} }];
        assert_eq!(cursor.advance(&entries), 0..2);
        assert_eq!(cursor.advance(&entries), 2..2);
        entries.push(LogEntry { round: 1, event: attack(false, false) });
        assert_eq!(cursor.advance(&entries), 2..3);
        // A restart clears the log: shorter, so shown from the start.
        let restarted = vec![started(2)];
        assert_eq!(cursor.advance(&restarted), 0..1);
        // A restart that already logged more than was shown is told apart by its seed.
        let mut longer = vec![started(3)];
        longer.extend(std::iter::repeat_n(LogEntry { round: 1, event: LogEvent::RoundStarted {} }, 4));
        assert_eq!(cursor.advance(&longer), 0..5);
        assert_eq!(cursor.advance(&[]), 0..0);
    }

    #[test]
    fn a_replay_stepped_back_shows_nothing_again() {
        let mut cursor = LogCursor::default();
        let round = LogEntry { round: 1, event: LogEvent::RoundStarted {} };
        let mut entries = vec![started(1), round.clone(), round.clone()];
        assert_eq!(cursor.advance_once(&entries), 0..3);
        assert_eq!(cursor.advance_once(&entries[..2]), 3..3, "a step back");
        assert_eq!(cursor.advance_once(&entries[..1]), 3..3, "the battle played again from its start");
        entries.push(round);
        assert_eq!(cursor.advance_once(&entries), 3..4, "only what was never shown is new");
        assert_eq!(cursor.advance_once(&[started(2)]), 0..1, "another battle starts over");
    }
}
