//! Music: the menu theme on the menu and in the editor, the battle music in a battle, each
//! looping without a gap (the tracks are trimmed of silence at both ends), crossfading when the
//! screen changes, and the battle music dropping back once the battle is over for the stinger.

use bevy::audio::{AudioSinkPlayback, PlaybackSettings, Volume};
use bevy::prelude::*;

use super::{AudioSystems, Channel, Sounds};
use crate::game::model::screen::Screen;
use crate::rules::CombatState;

/// How long one theme takes to fade out as the other fades in, in seconds.
pub const CROSSFADE_SECONDS: f32 = 2.0;
/// How loud the battle music stays once the battle is over, as a share: the stinger plays over.
const OVER_SHARE: f32 = 0.35;

/// Which theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// On the menu and in the editor.
    Menu,
    /// During a battle.
    Battle,
}

/// A theme playing, and how far faded in (0 to 1).
#[derive(Component, Debug)]
struct Track {
    theme: Theme,
    faded_in: f32,
    /// Fading out, to be despawned once silent.
    leaving: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, crossfade.in_set(AudioSystems));
}

/// The theme a screen plays.
pub fn theme_for(screen: Screen) -> Theme {
    match screen {
        Screen::Battle => Theme::Battle,
        Screen::Menu | Screen::Editor => Theme::Menu,
    }
}

/// Where a fade stands after `seconds` more: toward 1 when wanted, toward 0 when leaving.
pub fn fade(faded_in: f32, leaving: bool, seconds: f32) -> f32 {
    let step = seconds / CROSSFADE_SECONDS;
    if leaving { (faded_in - step).max(0.0) } else { (faded_in + step).min(1.0) }
}

/// Starts the screen's theme if it is not playing, fades it in and any other out, and sets each
/// track's volume from the music slider.
fn crossfade(
    mut commands: Commands,
    screen: Res<State<Screen>>,
    (time, state): (Res<Time<Real>>, Res<CombatState>),
    sounds: Res<Sounds>,
    settings: Res<crate::game::model::settings::SettingsScreen>,
    mut tracks: Query<(Entity, &mut Track, Option<&mut AudioSink>)>,
) {
    let wanted = theme_for(*screen.get());
    let mut playing = false;
    let gain = settings.audio.gain(Channel::Music);
    for (entity, mut track, sink) in &mut tracks {
        track.leaving |= track.theme != wanted;
        playing |= !track.leaving;
        track.faded_in = fade(track.faded_in, track.leaving, time.delta_secs());
        if track.leaving && track.faded_in <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        let over = track.theme == Theme::Battle && state.outcome.is_some();
        let share = if over { OVER_SHARE } else { 1.0 };
        if let Some(mut sink) = sink {
            sink.set_volume(Volume::Linear(gain * share * track.faded_in));
        }
    }
    if !playing {
        let source = match wanted {
            Theme::Menu => sounds.menu.clone(),
            Theme::Battle => sounds.battle.clone(),
        };
        commands.spawn((
            AudioPlayer(source),
            PlaybackSettings::LOOP.with_volume(Volume::SILENT),
            Track { theme: wanted, faded_in: 0.0, leaving: false },
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_theme_fades_in_as_the_other_fades_out() {
        let half = CROSSFADE_SECONDS / 2.0;
        assert!((fade(0.0, false, half) - 0.5).abs() < 1e-6);
        assert!((fade(1.0, true, half) - 0.5).abs() < 1e-6);
        assert_eq!(fade(0.9, false, CROSSFADE_SECONDS), 1.0);
        assert_eq!(fade(0.1, true, CROSSFADE_SECONDS), 0.0);
        assert_eq!(theme_for(Screen::Battle), Theme::Battle);
        assert_eq!(theme_for(Screen::Editor), Theme::Menu);
    }
}
