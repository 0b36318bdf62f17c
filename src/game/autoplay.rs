//! Unattended play for the real-window test: shows the menu, starts an AI-only battle through
//! the same messages the UI sends, saves screenshots of the menu, the battle and the game-over
//! screen, and quits. Sides seated as human on the command line (`--seat side=human`) stay
//! human until their first declaration: autoplay drafts it through the declaration panel's
//! commands, photographs it (`declare.png`), confirms it, and hands those units to the AI.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use super::model::battle_ui::{BattleUi, UiCommand};
use super::model::battle_ui::{DeclarationOptions, Draft};
use super::model::launch::LaunchOptions;
use super::model::pace::RoundPacing;
use super::model::screen::Screen;
use super::model::session::{Seat, Session, StartBattle};
use crate::battlefield::Cover;
use crate::rules::CombatState;
use crate::rules::components::{AiKind, Controller};

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
    /// Whether the first human declaration has been photographed.
    declaration_shot: bool,
    /// Whether that declaration was confirmed and the human seats handed to the AI.
    handed_over: bool,
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
    // A script drives the game itself; autoplay is for unattended screenshots alone.
    let Some(dir) = options.screenshots.clone().filter(|_| options.script.is_none()) else {
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
    units: Query<(Entity, &Controller), With<crate::rules::components::UnitId>>,
    (options, declaration, ui): (Res<LaunchOptions>, Res<DeclarationOptions>, Res<BattleUi>),
    mut ui_commands: MessageWriter<UiCommand>,
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
    if *screen.get() == Screen::Battle && declaration.unit.is_some() && !autoplay.handed_over {
        if !autoplay.declaration_shot {
            declare_for_human(&mut commands, &mut autoplay, &declaration, &ui, &mut ui_commands);
            return;
        }
        // Photographed: confirm, and the AI plays the human seats from here as it plays the rest.
        ui_commands.write(UiCommand::Confirm);
        for (unit, controller) in &units {
            if *controller == Controller::Human {
                commands.entity(unit).insert(Controller::Ai(AiKind::Greedy));
            }
        }
        autoplay.handed_over = true;
        return;
    }
    match autoplay.step {
        Step::Menu if ready && *screen.get() == Screen::Menu => {
            shoot(&mut commands, &mut autoplay, "menu.png");
            let human_sides: Vec<&str> =
                options.seats.iter().filter(|(_, seat)| *seat == Seat::Human).map(|(side, _)| side.as_str()).collect();
            let names: Vec<String> = session
                .level()
                .and_then(|level| level.template.as_ref())
                .map(|template| template.sides.iter().map(|side| side.name.to_string()).collect())
                .unwrap_or_default();
            for (at, seat) in session.seats.iter_mut().enumerate() {
                let human = names.get(at).is_some_and(|name| human_sides.contains(&name.as_str()));
                *seat = if human { Seat::Human } else { Seat::Ai(AiKind::Greedy) };
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

/// Declares for a human seat: drafts an option (a ranged shot at a target in cover if there is
/// one, else an attack, else the first on offer) and photographs the draft.
fn declare_for_human(
    commands: &mut Commands,
    autoplay: &mut Autoplay,
    declaration: &DeclarationOptions,
    ui: &BattleUi,
    ui_commands: &mut MessageWriter<UiCommand>,
) {
    if ui.curtain.is_some() {
        ui_commands.write(UiCommand::LiftCurtain);
        return;
    }
    if declaration.drafted(&ui.draft).is_none() {
        let Some(draft) = autoplay_choice(declaration) else {
            ui_commands.write(UiCommand::EndDeclaration);
            return;
        };
        ui_commands.write(UiCommand::ChooseKind(draft.kind.unwrap_or(0)));
        ui_commands.write(UiCommand::ChooseOption(draft.option.unwrap_or(0)));
        autoplay.frames = 0;
        return;
    }
    if autoplay.frames >= SETTLE_FRAMES {
        autoplay.declaration_shot = true;
        shoot(commands, autoplay, "declare.png");
    }
}

/// The draft autoplay makes for a human seat.
fn autoplay_choice(declaration: &DeclarationOptions) -> Option<Draft> {
    let find = |wanted: &dyn Fn(&super::model::battle_ui::OptionEntry) -> bool| {
        declaration.kinds.iter().enumerate().find_map(|(kind, (_, entries))| {
            entries.iter().position(wanted).map(|option| Draft {
                kind: Some(kind),
                option: Some(option),
                then_move: None,
            })
        })
    };
    find(&|entry| matches!(entry.cover, Some(Cover::Half | Cover::Full)))
        .or_else(|| find(&|entry| entry.cover.is_some()))
        .or_else(|| find(&|entry| entry.odds.is_some()))
        .or_else(|| find(&|_| true))
}

fn shoot(commands: &mut Commands, autoplay: &mut Autoplay, name: &str) {
    let path = autoplay.dir.join(name);
    let _ = std::fs::remove_file(&path);
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
    autoplay.pending = Some(path);
    autoplay.frames = 0;
}
