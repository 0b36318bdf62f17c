//! Sound: the effects that follow a battle's log lines as the board shows them, the interface's
//! clicks, the menu and battle music with the end-of-battle stingers, and the volume settings
//! (master, music, effects, interface, mute). Window game only: the headless engine has no
//! audio crate. With no sound device Bevy warns once and everything here stays quiet.

pub mod cues;
mod effects;
pub mod library;
mod music;

use std::collections::HashMap;

use bevy::audio::{AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use super::model::settings::AudioSettings;
use crate::levels::mods::ActiveMods;

pub use cues::{Channel, SoundMap};

impl AudioSettings {
    /// How loud `channel` plays, 0 to 1, with the master volume and mute counted.
    pub fn gain(&self, channel: Channel) -> f32 {
        if self.muted {
            return 0.0;
        }
        let slider = match channel {
            Channel::Effects => self.effects,
            Channel::Interface => self.interface,
            Channel::Music => self.music,
        };
        (self.master * slider).clamp(0.0, 1.0)
    }
}

/// How long an effect's entity lives, in seconds: longer than any shipped effect, so that with
/// no sound device (where nothing ever finishes playing) effects do not pile up.
const EFFECT_LIFETIME_SECONDS: f32 = 6.0;

/// The decoded sounds and the mapping in force.
#[derive(Resource, Default)]
pub struct Sounds {
    /// Sound effects and stingers by name (shipped, then mods').
    effects: HashMap<String, Handle<AudioSource>>,
    /// The menu theme.
    menu: Handle<AudioSource>,
    /// The battle music.
    battle: Handle<AudioSource>,
    /// Event cue → sounds.
    pub map: SoundMap,
    /// Which of a cue's sounds plays next, by cue key (they take turns).
    turns: HashMap<String, usize>,
}

/// An effect playing: despawned after [`EFFECT_LIFETIME_SECONDS`] whatever the device does.
#[derive(Component)]
struct Effect(Timer);

/// Sound's place in the frame: after the controls have handled this frame's commands.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AudioSystems;

/// The window game's sound.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Sounds>()
        .configure_sets(Update, AudioSystems.in_set(super::spine::GameSystems::Aftermath))
        .add_systems(Startup, load_sounds)
        .add_systems(Update, (toggle_mute, end_effects).in_set(AudioSystems))
        .add_plugins((effects::plugin, music::plugin));
}

/// Decodes nothing yet (Bevy decodes as a sound starts): wraps the built-in bytes and any mod's
/// sounds as assets, and reads the mapping with every enabled mod's `sounds.ron` laid over it.
fn load_sounds(mut sounds: ResMut<Sounds>, mut assets: ResMut<Assets<AudioSource>>, mods: Res<ActiveMods>) {
    let mut add = |bytes: &[u8]| assets.add(AudioSource { bytes: bytes.into() });
    for &(name, bytes) in library::SOUND_BYTES {
        let handle = add(bytes);
        sounds.effects.insert(name.to_string(), handle);
    }
    sounds.menu = add(library::MENU_THEME.1);
    sounds.battle = add(library::BATTLE_THEME.1);
    sounds.map = SoundMap::builtin().unwrap_or_else(|error| {
        // A test reads the shipped mapping; should it ever break, the game plays on silent.
        error!("{error}");
        SoundMap::default()
    });
    for one in mods.0.iter() {
        for path in one.files_in("sounds") {
            let name = path.file_stem().and_then(|stem| stem.to_str()).map(str::to_string);
            match (name, std::fs::read(&path)) {
                (Some(name), Ok(bytes)) if path.extension().is_some_and(|ext| ext == "ogg") => {
                    let handle = add(&bytes);
                    sounds.effects.insert(name, handle);
                }
                (_, Err(error)) => warn!("{}: {error}", path.display()),
                _ => {}
            }
        }
        if let Some(path) = one.file(cues::MAPPING_FILE) {
            match SoundMap::read(&path) {
                Ok(layer) => sounds.map.lay_over(layer),
                Err(error) => warn!("{error}; the mod's sounds are left out"),
            }
        }
    }
}

impl Sounds {
    /// The sound to play for cue `key` now, and how loud within its channel: its sounds take
    /// turns. `None` for a silent or unknown cue.
    fn next(&mut self, key: &str) -> Option<(Handle<AudioSource>, f32)> {
        let cue = self.map.cue(key)?;
        if cue.sounds.is_empty() {
            return None;
        }
        let turn = self.turns.entry(key.to_string()).or_default();
        let name = &cue.sounds[*turn % cue.sounds.len()];
        *turn = turn.wrapping_add(1);
        let handle = self.effects.get(name).cloned();
        if handle.is_none() {
            warn_once!("cue `{key}` names the sound `{name}`, which no file provides");
        }
        Some((handle?, cue.volume))
    }
}

/// Plays cue `key` once at the volume its channel has under `settings`; nothing when muted.
fn play(commands: &mut Commands, sounds: &mut Sounds, settings: &AudioSettings, key: &str) {
    let gain = settings.gain(cues::channel(key));
    if gain <= 0.0 {
        return;
    }
    let Some((handle, volume)) = sounds.next(key) else {
        return;
    };
    debug!("sound: {key}");
    commands.spawn((
        AudioPlayer(handle),
        PlaybackSettings::DESPAWN.with_volume(Volume::Linear(gain * volume)),
        Effect(Timer::from_seconds(EFFECT_LIFETIME_SECONDS, TimerMode::Once)),
    ));
}

fn end_effects(mut commands: Commands, time: Res<Time<Real>>, mut effects: Query<(Entity, &mut Effect)>) {
    for (entity, mut effect) in &mut effects {
        if effect.0.tick(time.delta()).is_finished() {
            // Bevy may have despawned it as it finished this same frame.
            commands.entity(entity).try_despawn();
        }
    }
}

/// The mute key (or button) turns every sound off or back on.
fn toggle_mute(
    mut commands: MessageReader<super::UiCommand>,
    mut screen: ResMut<super::model::settings::SettingsScreen>,
) {
    if commands.read().filter(|command| **command == super::UiCommand::ToggleMute).count() % 2 == 1 {
        screen.audio.muted = !screen.audio.muted;
        let state = if screen.audio.muted { "Sound off" } else { "Sound on" };
        screen.status = Some(state.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mute_and_the_master_volume_scale_every_channel() {
        let settings = AudioSettings { master: 0.5, music: 0.4, effects: 1.0, interface: 0.2, muted: false };
        assert!((settings.gain(Channel::Music) - 0.2).abs() < 1e-6);
        assert!((settings.gain(Channel::Effects) - 0.5).abs() < 1e-6);
        assert!((settings.gain(Channel::Interface) - 0.1).abs() < 1e-6);
        let muted = AudioSettings { muted: true, ..settings };
        assert_eq!(muted.gain(Channel::Effects), 0.0);
    }
}
