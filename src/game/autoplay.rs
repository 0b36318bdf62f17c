//! Unattended play for the real-window test: shows the menu, starts an AI-only battle through
//! the same messages the UI sends, saves screenshots of the menu, the battle and the game-over
//! screen, and quits.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use super::LaunchOptions;
use super::session::{RoundPacing, Screen, Seat, Session, StartBattle};
use crate::rules::CombatState;
use crate::rules::components::AiKind;

/// Frames to let a screen settle (layout, fonts, egui) before photographing it.
const SETTLE_FRAMES: u32 = 45;
/// Round pause while autoplaying: quick, yet every round still draws.
const AUTOPLAY_PAUSE: Duration = Duration::from_millis(120);
/// The round to photograph the battle at.
const MID_BATTLE_ROUND: u32 = 3;
/// Frames after which autoplay gives up and quits with an error.
const GIVE_UP_FRAMES: u32 = 20_000;

/// Where autoplay has got to.
#[derive(Resource, Debug, Default)]
struct Autoplay {
    dir: PathBuf,
    step: Step,
    frames: u32,
    total: u32,
    pending: Option<PathBuf>,
    /// Frames drawn during the battle and the time they took, for the frame-time report.
    battle_frames: u32,
    battle_time: Duration,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Step {
    #[default]
    Menu,
    Battle,
    GameOver,
    Done,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, begin).add_systems(Update, advance.run_if(resource_exists::<Autoplay>));
}

fn begin(mut commands: Commands, options: Res<LaunchOptions>, mut pacing: ResMut<RoundPacing>) {
    let Some(dir) = options.screenshots.clone() else {
        return;
    };
    if let Err(error) = std::fs::create_dir_all(&dir) {
        error!("cannot create {}: {error}", dir.display());
    }
    pacing.delay = AUTOPLAY_PAUSE;
    commands.insert_resource(Autoplay { dir, ..default() });
}

#[expect(clippy::too_many_arguments, reason = "autoplay drives the whole game")]
fn advance(
    mut commands: Commands,
    mut autoplay: ResMut<Autoplay>,
    mut session: ResMut<Session>,
    screen: Res<State<Screen>>,
    state: Res<CombatState>,
    mut start: MessageWriter<StartBattle>,
    mut exit: MessageWriter<AppExit>,
    mut pacing: ResMut<RoundPacing>,
    time: Res<Time>,
    units: Query<(), With<crate::rules::components::UnitId>>,
) {
    autoplay.frames += 1;
    autoplay.total += 1;
    if *screen.get() == Screen::Battle {
        autoplay.battle_frames += 1;
        autoplay.battle_time += time.delta();
    }
    if autoplay.total > GIVE_UP_FRAMES {
        error!("autoplay did not finish; giving up");
        exit.write(AppExit::error());
        return;
    }
    // Wait for the last screenshot to reach the disk before moving on.
    if let Some(path) = &autoplay.pending {
        if !path.is_file() {
            return;
        }
        autoplay.pending = None;
        autoplay.frames = 0;
    }
    let ready = autoplay.frames >= SETTLE_FRAMES;
    match autoplay.step {
        Step::Menu if ready && *screen.get() == Screen::Menu => {
            shoot(&mut commands, &mut autoplay, "menu.png");
            for seat in &mut session.seats {
                *seat = Seat::Ai(AiKind::Greedy);
            }
            start.write(StartBattle);
            autoplay.step = Step::Battle;
        }
        Step::Battle if *screen.get() == Screen::Battle && (state.round >= MID_BATTLE_ROUND || state.is_over()) => {
            // Hold the battle at this round until the board has settled and been photographed.
            pacing.delay = Duration::MAX;
            if ready {
                shoot(&mut commands, &mut autoplay, "battle.png");
                autoplay.step = Step::GameOver;
            }
        }
        Step::GameOver if !state.is_over() => {
            pacing.delay = AUTOPLAY_PAUSE;
        }
        Step::GameOver if state.is_over() && ready => {
            shoot(&mut commands, &mut autoplay, "game_over.png");
            autoplay.step = Step::Done;
        }
        Step::Done if ready => {
            let frames = autoplay.battle_frames.max(1);
            let mean = autoplay.battle_time.as_secs_f64() * 1000.0 / f64::from(frames);
            info!("autoplay: {} units, {frames} battle frames, mean frame time {mean:.1} ms", units.iter().count());
            println!("mean frame time {mean:.1} ms over {frames} battle frames with {} units", units.iter().count());
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

fn shoot(commands: &mut Commands, autoplay: &mut Autoplay, name: &str) {
    let path = autoplay.dir.join(name);
    let _ = std::fs::remove_file(&path);
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
    autoplay.pending = Some(path);
    autoplay.frames = 0;
}
