//! The event-to-sound mapping (`assets/sounds.ron`, which a mod's `sounds.ron` may override
//! cue by cue): the cue keys a log line is heard as, and the sounds each key plays.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::levels::error::LoadError;
use crate::rules::log::{AttackKind, EscalationChain, LogEvent};

/// The built-in mapping.
pub const BUILTIN_MAPPING: &str = include_str!("../../../assets/sounds.ron");
/// The mapping's file name, in `assets/` and in a mod folder.
pub const MAPPING_FILE: &str = "sounds.ron";
/// What separates the parts of a cue key (`attack.shot.miss`).
const KEY_SEPARATOR: char = '.';

/// Which volume slider a cue follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Blows, falls, steps and spells.
    Effects,
    /// Clicks and the call to declare.
    Interface,
    /// The themes and the end-of-battle stingers.
    Music,
}

/// One cue: the sounds that take turns playing it, and how loud.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cue {
    /// Sound names (`assets/sounds/<name>.ogg`, or a mod's); empty is a silent cue.
    pub sounds: Vec<String>,
    /// Loudness within its channel (1 is as recorded).
    #[serde(default = "full_volume")]
    pub volume: f32,
}

fn full_volume() -> f32 {
    1.0
}

/// The whole mapping, as `sounds.ron` writes it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundMap {
    /// Log events (by their `event` name) that make no sound, on purpose.
    #[serde(default)]
    pub silent: Vec<String>,
    /// Cue key → its sounds.
    #[serde(default)]
    pub cues: BTreeMap<String, Cue>,
}

impl SoundMap {
    /// The built-in mapping.
    pub fn builtin() -> Result<Self, LoadError> {
        crate::levels::catalog::parse(BUILTIN_MAPPING, Path::new("assets/sounds.ron"))
    }

    /// Reads a mapping file; errors read `file:line:column: what`.
    pub fn read(path: &Path) -> Result<Self, LoadError> {
        crate::levels::catalog::read_text(path).and_then(|text| crate::levels::catalog::parse(&text, path))
    }

    /// Lays `other` over this one: its cues replace these by key, its silent events add.
    pub fn lay_over(&mut self, other: SoundMap) {
        self.cues.extend(other.cues);
        self.silent.extend(other.silent);
    }

    /// The cue for `key`, or for the nearest shorter key (`attack.shot.miss`, then
    /// `attack.shot`, then `attack`), if any.
    pub fn cue(&self, key: &str) -> Option<&Cue> {
        let mut key = key;
        loop {
            if let Some(cue) = self.cues.get(key) {
                return Some(cue);
            }
            key = &key[..key.rfind(KEY_SEPARATOR)?];
        }
    }

    /// Whether the log event named `event` has a cue of its own or is silent on purpose.
    pub fn covers(&self, event: &str) -> bool {
        let prefix = format!("{event}{KEY_SEPARATOR}");
        self.silent.iter().any(|silent| silent == event)
            || self.cues.keys().any(|key| key == event || key.starts_with(&prefix))
    }
}

/// The channel a cue key plays on.
pub fn channel(key: &str) -> Channel {
    if key.starts_with("ui.") {
        Channel::Interface
    } else if key.starts_with("combat_ended.") {
        Channel::Music
    } else {
        Channel::Effects
    }
}

/// How a blow came: by hand, a missile shot, a thrown weapon, a shove or a grapple.
fn blow_kind(kind: AttackKind, ranged: bool) -> &'static str {
    match kind {
        AttackKind::Thrown => "thrown",
        AttackKind::Shove => "shove",
        AttackKind::Grapple => "grapple",
        _ if ranged => "shot",
        _ => "melee",
    }
}

/// The cue keys a log line is heard as, most specific first. `ranged` says whether an attack
/// line's blow is a shot (the attacker's weapon says; the log does not). The end of the battle is
/// heard by [`end_key`], for the player at this machine.
pub fn keys(event: &LogEvent, ranged: bool) -> Vec<String> {
    let outcome = |passed: bool| if passed { "success" } else { "failed" };
    match event {
        LogEvent::Attack(attack) => {
            let how = blow_kind(attack.kind, ranged);
            let result = match (attack.hit, attack.critical) {
                (true, true) => "critical",
                (true, false) => "hit",
                (false, _) => "miss",
            };
            let mut keys = vec![format!("attack.{how}.{result}")];
            if how == "shot" && !attack.hit {
                keys.push("attack.shot_missed".into());
            }
            keys
        }
        LogEvent::Damage(damage) => vec![format!("damage.{}", damage.damage_type.as_str())],
        LogEvent::Shock(shock) => match shock.absorbed_by {
            Some(absorber) => vec![format!("shock.{}", absorber.as_str())],
            None => vec!["shock".into()],
        },
        LogEvent::Escalation(step) => vec![match step.chain {
            EscalationChain::Critical => "escalation.critical".into(),
            EscalationChain::Tragedy => "escalation.tragedy".into(),
        }],
        LogEvent::WeaponUsage(usage) if usage.broken => vec!["weapon_usage.broken".into()],
        LogEvent::Maneuver(maneuver) => match maneuver.outcome {
            Some(result) => vec![format!("maneuver.{}", result.as_str())],
            None if !maneuver.won => vec!["maneuver.lost".into()],
            None => vec!["maneuver".into()],
        },
        LogEvent::Execution(execution) if execution.saved => vec!["execution.saved".into()],
        LogEvent::Afflicted(afflicted) => vec![format!("afflicted.{}", afflicted.effect.as_str())],
        LogEvent::Status(change) => vec![format!("status.{}", change.status.as_str())],
        LogEvent::Cast(cast) if !cast.success => vec!["cast.failed".into()],
        LogEvent::Cast(cast) => vec![format!("cast.{}", cast.spell)],
        LogEvent::Stabilise(aid) => vec![format!("stabilise.{}", outcome(aid.success))],
        LogEvent::Hazard(hazard) => vec![format!("hazard.{}", if hazard.passed { "passed" } else { "failed" })],
        LogEvent::Morale(check) => vec![format!("morale.{}", if check.passed { "passed" } else { "failed" })],
        // Heard by `end_key`, which knows who sits at this machine.
        LogEvent::CombatEnded(_) => Vec::new(),
        other => vec![other.name().to_string()],
    }
}

/// The stinger at the end of a battle: victory when a side played here won (or, with no one
/// playing here, when anyone did), else defeat.
pub fn end_key(won_here: bool) -> &'static str {
    if won_here { "combat_ended.victory" } else { "combat_ended.defeat" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::traits::DamageType;

    /// Every `event` name the log writes, read from `LogEvent::name`'s exhaustive match (a new
    /// event must be named there, so it shows up here too).
    fn event_names() -> Vec<String> {
        let source = include_str!("../../rules/log/mod.rs");
        let body = source.split("pub fn name(&self)").nth(1).expect("LogEvent::name");
        let body = body.split("\n    }\n").next().expect("the end of LogEvent::name");
        body.lines()
            .filter_map(|line| line.split("=> \"").nth(1))
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_builtin_mapping_reads() {
        SoundMap::builtin().unwrap_or_else(|error| panic!("{error}"));
    }

    #[test]
    fn every_log_event_has_a_sound_or_is_silent_on_purpose() {
        let map = SoundMap::builtin().expect("the built-in mapping");
        let names = event_names();
        assert!(names.len() > 30, "read the event names: {names:?}");
        let unheard: Vec<&String> = names.iter().filter(|name| !map.covers(name)).collect();
        assert!(unheard.is_empty(), "events with no cue in assets/sounds.ron and not in `silent`: {unheard:?}");
        let unknown: Vec<&String> = map.silent.iter().filter(|name| !names.contains(name)).collect();
        assert!(unknown.is_empty(), "`silent` names events the log does not write: {unknown:?}");
    }

    #[test]
    fn every_damage_type_has_its_own_sound() {
        let map = SoundMap::builtin().expect("the built-in mapping");
        for damage_type in DamageType::ALL {
            let key = format!("damage.{}", damage_type.as_str());
            assert!(map.cues.contains_key(&key), "no cue `{key}`");
        }
    }

    #[test]
    fn every_cue_names_a_shipped_sound() {
        let map = SoundMap::builtin().expect("the built-in mapping");
        for (key, cue) in &map.cues {
            for sound in &cue.sounds {
                assert!(super::super::library::is_shipped(sound), "cue `{key}` names `{sound}`, which is not shipped");
            }
        }
    }

    #[test]
    fn the_player_s_cues_are_all_there() {
        let map = SoundMap::builtin().expect("the built-in mapping");
        for key in [
            "attack.melee.miss",
            "attack.melee.critical",
            "attack.shot.hit",
            "attack.thrown.miss",
            "cast.firebolt",
            "cast.failed",
            "healed",
            "shock",
            "escalation.tragedy",
            "status.prone",
            "status.dying",
            "status.dead",
            "status.fled",
            "status.surrendered",
            "morale.failed",
            "moved",
            "ui.select",
            "ui.confirm",
            "ui.cancel",
            "ui.refused",
            "ui.your_turn",
            "combat_ended.victory",
            "combat_ended.defeat",
        ] {
            let cue = map.cue(key).unwrap_or_else(|| panic!("no cue for `{key}`"));
            assert!(!cue.sounds.is_empty(), "`{key}` is silent");
        }
    }

    #[test]
    fn a_declaration_is_never_heard() {
        // Behind the hot-seat curtain (and, online, another player's) a declaration is a secret.
        let map = SoundMap::builtin().expect("the built-in mapping");
        assert!(map.silent.iter().any(|event| event == "declared"));
        assert!(map.cue("declared").is_none(), "a `declared` cue would give a secret away");
    }

    #[test]
    fn a_key_falls_back_to_its_shorter_keys() {
        let map = SoundMap::builtin().expect("the built-in mapping");
        assert_eq!(map.cue("attack.shot.miss"), map.cues.get("attack.shot"));
        assert_eq!(map.cue("cast.frost_ray"), map.cues.get("cast"));
        assert!(map.cue("no_such_event").is_none());
    }

    #[test]
    fn a_broken_mapping_names_its_line_and_column() {
        let error = crate::levels::catalog::parse::<SoundMap>(
            "(\n  cues: {\n \"x\": (volume: 1.0) },\n)",
            Path::new("mod/sounds.ron"),
        )
        .expect_err("a cue needs its sounds");
        let text = error.to_string();
        assert!(text.starts_with("mod/sounds.ron:3:"), "{text}");
    }

    #[test]
    fn a_mod_replaces_cues_one_by_one() {
        let mut map = SoundMap::builtin().expect("the built-in mapping");
        let before = map.cues.len();
        let layer: SoundMap = ron::from_str(r#"(cues: { "moved": (sounds: ["my_step"]) })"#).expect("a layer");
        map.lay_over(layer);
        assert_eq!(map.cues.len(), before);
        assert_eq!(map.cue("moved").map(|cue| cue.sounds.clone()), Some(vec!["my_step".to_string()]));
    }

    #[test]
    fn a_plain_event_is_heard_by_its_name_and_a_cue_by_its_channel() {
        let keys = keys(&LogEvent::RoundStarted {}, false);
        assert_eq!(keys, vec!["round_started"]);
        assert_eq!(channel("ui.select"), Channel::Interface);
        assert_eq!(channel("combat_ended.victory"), Channel::Music);
        assert_eq!(channel("damage.fire"), Channel::Effects);
    }
}
