//! The game session: which screen shows, the levels on offer, the seats, starting (and
//! hot-reloading) battles, and pacing rounds so a person can follow them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::spine::GameSystems;
use bevy::prelude::*;

use super::LaunchOptions;
use crate::levels::catalog::builtin;
use crate::levels::{BattleSetup, BattleTemplate, DEFAULT_LEVEL, load_builtin_level, load_level};
use crate::rules::components::{AiKind, Controller, UnitId};
use crate::rules::log::CombatLog;
use crate::rules::{CombatPhase, CombatState, CombatSystems};

/// Which screen is showing.
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Level and seat choice.
    #[default]
    Menu,
    /// A battle, through to its game-over screen.
    Battle,
    /// The level editor.
    Editor,
}

/// Where a level comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelSource {
    /// Built into the binary, by file name.
    Builtin(&'static str),
    /// A file on disk, re-read at every battle start.
    File(PathBuf),
}

impl LevelSource {
    /// Loads and checks the level.
    pub fn load(&self) -> Result<BattleTemplate, crate::levels::LoadErrors> {
        match self {
            Self::Builtin(name) => load_builtin_level(name),
            Self::File(path) => load_level(path),
        }
    }
}

/// A level the menu offers.
#[derive(Clone, Debug)]
pub struct LevelChoice {
    /// Menu title.
    pub title: String,
    /// Where it comes from.
    pub source: LevelSource,
    /// Its last good load, if any.
    pub template: Option<BattleTemplate>,
    /// Its last load error, if the file is broken now.
    pub error: Option<String>,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person at this machine.
    Human,
    /// An AI.
    Ai(AiKind),
}

impl Seat {
    /// Every seat the menu offers: a person, or an AI at each difficulty (and the random one).
    pub const ALL: [Seat; 6] = [
        Seat::Human,
        Seat::Ai(AiKind::Easy),
        Seat::Ai(AiKind::Greedy),
        Seat::Ai(AiKind::Hard),
        Seat::Ai(AiKind::Master),
        Seat::Ai(AiKind::Random),
    ];

    /// The controller it means.
    pub fn controller(self) -> Controller {
        match self {
            Seat::Human => Controller::Human,
            Seat::Ai(kind) => Controller::Ai(kind),
        }
    }

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            Seat::Human => "Human",
            Seat::Ai(AiKind::Greedy) => "AI: normal (greedy)",
            Seat::Ai(AiKind::Random) => "AI: random moves",
            Seat::Ai(AiKind::Easy) => "AI: easy",
            Seat::Ai(AiKind::Hard) => "AI: hard (search)",
            Seat::Ai(AiKind::Master) => "AI: master (deep search)",
        }
    }

    /// Parses `human`, `ai` (greedy), or `ai:KIND` / `KIND` for any AI kind (`ai:hard`, `master`, ...).
    pub fn parse(text: &str) -> Option<Seat> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" => Some(Seat::Human),
            "ai" => Some(Seat::Ai(AiKind::Greedy)),
            other => AiKind::parse(other.strip_prefix("ai:").unwrap_or(other)).map(Seat::Ai),
        }
    }
}

/// The menu's choices and the battle being played.
#[derive(Resource, Debug, Default)]
pub struct Session {
    /// Levels on offer.
    pub levels: Vec<LevelChoice>,
    /// The chosen level.
    pub selected: usize,
    /// A seat per side of the chosen level.
    pub seats: Vec<Seat>,
    /// The seats the player chose in the menu, by side position: they carry over to the next
    /// level picked, as far as it has sides.
    pub chosen_seats: Vec<Seat>,
    /// Seed of the next battle.
    pub seed: u64,
    /// The battle being played (its last good data).
    pub current: Option<BattleTemplate>,
    /// A load error to show over the game, with `file:line:column`.
    pub error: Option<String>,
    /// Battles started since the game opened (restarts count).
    pub battles: u32,
}

/// Whether the menu's Play online window (host or join a battle) is open.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayOnlineOpen(pub bool);

impl Session {
    /// The chosen level.
    pub fn level(&self) -> Option<&LevelChoice> {
        self.levels.get(self.selected)
    }

    /// Chooses the level at `source`, adding it to the levels on offer if it is not there (a
    /// level named on the command line, the tutorial), as [`Self::select`] does.
    pub fn select_source(&mut self, source: LevelSource) {
        let at = match self.levels.iter().position(|level| level.source == source) {
            Some(at) => at,
            None => {
                self.levels.push(choice(source));
                self.levels.len() - 1
            }
        };
        self.select(at);
    }

    /// Chooses level `at` and resets the seats to its sides' defaults and the seed to the
    /// level's own (0 when it names none), as `fray sim` does.
    pub fn select(&mut self, at: usize) {
        self.selected = at.min(self.levels.len().saturating_sub(1));
        self.seed =
            self.level().and_then(|level| level.template.as_ref()).and_then(|template| template.seed).unwrap_or(0);
        self.seats = self
            .level()
            .and_then(|level| level.template.as_ref())
            .map(|template| {
                template
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(at, side)| match side.controller {
                        // The first side is the player's unless the level says otherwise.
                        Controller::Ai(_) if at > 0 => Seat::Ai(AiKind::Greedy),
                        Controller::Ai(kind) => Seat::Ai(kind),
                        Controller::Human => Seat::Human,
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Some(first) = self.seats.first_mut() {
            *first = Seat::Human;
        }
        for (seat, chosen) in self.seats.iter_mut().zip(&self.chosen_seats) {
            *seat = *chosen;
        }
    }

    /// The player sets the seats in the menu; later levels keep them.
    pub fn choose_seats(&mut self, seats: Vec<Seat>) {
        self.chosen_seats.clone_from(&seats);
        self.seats = seats;
    }

    /// Number of human seats.
    pub fn humans(&self) -> usize {
        self.seats.iter().filter(|seat| **seat == Seat::Human).count()
    }
}

/// Starts (or restarts) the chosen level with the chosen seats, re-reading its files.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct StartBattle;

/// Leaves the battle for the menu.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BackToMenu;

/// A battle was just spawned (a first start or a restart): what shows it resets with it.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BattleStarted;

/// Time between rounds so the board's animations can be followed.
#[derive(Resource, Clone, Debug)]
pub struct RoundPacing {
    /// How long a round stays on screen before the next one starts.
    pub delay: Duration,
    /// Time since the last round ended.
    pub elapsed: Duration,
    /// The round last seen.
    pub round: u32,
}

/// A round's pause in the window game at normal speed: long enough to follow the floating
/// numbers and read the round's log lines.
pub const ROUND_PAUSE: Duration = Duration::from_millis(2200);

/// How fast rounds follow each other in the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Speed {
    /// A full pause between rounds.
    #[default]
    Normal,
    /// Half the pause.
    Double,
    /// No pause at all.
    Instant,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 3] = [Speed::Normal, Speed::Double, Speed::Instant];

    /// Its label on the speed buttons.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Normal => "1x",
            Speed::Double => "2x",
            Speed::Instant => "Instant",
        }
    }

    /// The share of the round pause kept at this speed.
    pub(super) fn pause_share(self) -> f32 {
        match self {
            Speed::Normal => 1.0,
            Speed::Double => 0.5,
            Speed::Instant => 0.0,
        }
    }

    /// The next speed up (`faster`) or down, stopping at the ends.
    pub fn step(self, faster: bool) -> Speed {
        let at = Self::ALL.iter().position(|speed| *speed == self).unwrap_or(0);
        let next = if faster { (at + 1).min(Self::ALL.len() - 1) } else { at.saturating_sub(1) };
        Self::ALL[next]
    }
}

/// The player's control over pacing: the speed, a pause, and single rounds while paused.
#[derive(Resource, Clone, Debug, Default)]
pub struct Pace {
    /// How fast rounds follow each other.
    pub speed: Speed,
    /// No new round starts while paused (declaring still works).
    pub paused: bool,
    /// Rounds still to play while paused.
    pub steps: u32,
}

impl Default for RoundPacing {
    fn default() -> Self {
        Self { delay: ROUND_PAUSE, elapsed: Duration::ZERO, round: 0 }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<Session>()
        .init_resource::<RoundPacing>()
        .init_resource::<Pace>()
        .init_resource::<LaunchOptions>()
        .add_message::<StartBattle>()
        .add_message::<BackToMenu>()
        .add_message::<BattleStarted>()
        .configure_sets(Update, CombatSystems::Initiative.run_if(round_pacing_ready))
        .add_systems(Startup, (discover_levels, apply_launch_options).chain())
        .add_systems(Update, (start_battle, back_to_menu, tick_pacing).chain().in_set(GameSystems::Session))
        .add_systems(OnEnter(Screen::Menu), end_battle);
}

/// The levels in the menu: the built-in ones (or their copies in `levels/`, which win so that
/// edits hot-reload), then any other `.ron` in `levels/`. The shipped levels kept out of the
/// list (the siege, the tutorials) stay out even where their files are on disk.
pub fn level_choices(dir: &Path) -> Vec<LevelChoice> {
    let mut choices = Vec::new();
    for (name, _) in builtin::LEVELS {
        let on_disk = dir.join(name);
        let source = if on_disk.is_file() { LevelSource::File(on_disk) } else { LevelSource::Builtin(name) };
        choices.push(choice(source));
    }
    let mut extra: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|entries| entries.flatten().map(|entry| entry.path()).collect()).unwrap_or_default();
    extra.retain(|path| {
        path.extension().is_some_and(|ext| ext == "ron")
            && !builtin::every_level().any(|(name, _)| path.file_name().is_some_and(|file| file == name))
    });
    extra.sort();
    choices.extend(extra.into_iter().map(|path| choice(LevelSource::File(path))));
    choices.extend(mod_level_choices());
    choices
}

/// The levels in each active mod's `levels/`, titled with the mod's name.
fn mod_level_choices() -> Vec<LevelChoice> {
    let mods = crate::levels::mods::active();
    let mut choices = Vec::new();
    for one in mods.iter() {
        for path in one.files_in("levels") {
            let mut level = choice(LevelSource::File(path));
            level.title = format!("{}: {}", one.manifest.name, level.title);
            choices.push(level);
        }
    }
    choices
}

impl LevelChoice {
    /// Loads `source` for the menu: its title and data, or its errors.
    pub fn load(source: LevelSource) -> Self {
        choice(source)
    }
}

/// The menu entry of the level at `source`, loaded and checked now.
fn choice(source: LevelSource) -> LevelChoice {
    let fallback = match &source {
        LevelSource::Builtin(name) => name.to_string(),
        LevelSource::File(path) => path.display().to_string(),
    };
    match source.load() {
        Ok(template) => {
            LevelChoice { title: template.level_name.clone(), source, template: Some(template), error: None }
        }
        Err(errors) => LevelChoice { title: fallback, source, template: None, error: Some(errors.to_string()) },
    }
}

fn discover_levels(mut session: ResMut<Session>) {
    session.levels = level_choices(Path::new("levels"));
    let default = session
        .levels
        .iter()
        .position(|level| {
            matches!(&level.source, LevelSource::Builtin(name) if *name == DEFAULT_LEVEL)
                || matches!(&level.source, LevelSource::File(path) if path.file_name().is_some_and(|file| file == DEFAULT_LEVEL))
        })
        .unwrap_or(0);
    session.select(default);
}

/// `fray play LEVEL --seat SIDE=...`: choose, seat and start at once.
pub(super) fn apply_launch_options(
    options: Res<LaunchOptions>,
    mut session: ResMut<Session>,
    mut start: MessageWriter<StartBattle>,
) {
    let Some(source) = options.level.clone() else {
        if let Some(seed) = options.seed {
            session.seed = seed;
        }
        return;
    };
    // After `select`, which resets the seed to the level's own: `--seed` wins over it.
    session.select_source(source);
    if let Some(seed) = options.seed {
        session.seed = seed;
    }
    for (side, seat) in &options.seats {
        let index =
            session.level().and_then(|level| level.template.as_ref()).and_then(|template| template.side_index(side));
        if let Some(index) = index
            && let Some(slot) = session.seats.get_mut(index)
        {
            *slot = *seat;
        }
    }
    // Unattended play photographs the menu first and starts the battle from there.
    if options.screenshots.is_none() || options.script.is_some() {
        start.write(StartBattle);
    }
}

/// Loads the chosen level afresh and spawns the battle. A broken file keeps the last good
/// data and shows its errors; a level that never loaded stays in the menu.
pub(super) fn start_battle(world: &mut World) {
    let requested = world.resource_mut::<Messages<StartBattle>>().drain().count() > 0;
    if !requested {
        return;
    }
    let template = {
        let mut session = world.resource_mut::<Session>();
        let at = session.selected;
        let Some(level) = session.levels.get_mut(at) else {
            return;
        };
        match level.source.load() {
            Ok(template) => {
                level.template = Some(template.clone());
                level.error = None;
                session.error = None;
                template
            }
            Err(errors) => {
                let message = errors.to_string();
                level.error = Some(message.clone());
                let last_good = level.template.clone();
                session.error = Some(message);
                match last_good {
                    Some(template) => template,
                    None => return,
                }
            }
        }
    };
    let (seed, controllers) = {
        let mut session = world.resource_mut::<Session>();
        let seed = session.seed;
        session.seed = session.seed.wrapping_add(1);
        let controllers = session.seats.iter().enumerate().map(|(side, seat)| (side, seat.controller())).collect();
        (seed, controllers)
    };
    template.spawn(world, &BattleSetup { seed, controllers, record_log: true });
    show_new_battle(world, template);
}

/// After `template` was spawned: it becomes the current battle, the pacing starts afresh and
/// the battle screen shows (a fresh start, a restart or a loaded save alike).
pub(super) fn show_new_battle(world: &mut World, template: BattleTemplate) {
    // A battle started anew is not the replay of a save.
    world.remove_resource::<crate::save::Replay>();
    let mut session = world.resource_mut::<Session>();
    session.current = Some(template);
    session.battles += 1;
    *world.resource_mut::<RoundPacing>() = RoundPacing { delay: world.resource::<RoundPacing>().delay, ..default() };
    // A restart stays on the battle screen: leaving and re-entering it would despawn the
    // freshly drawn board along with the old one.
    NextState::set_if_neq(&mut world.resource_mut::<NextState<Screen>>(), Screen::Battle);
    world.write_message(BattleStarted);
}

fn back_to_menu(mut requests: MessageReader<BackToMenu>, mut next: ResMut<NextState<Screen>>) {
    if requests.read().count() > 0 {
        next.set(Screen::Menu);
    }
}

/// Clears the battle when the menu shows again.
fn end_battle(
    mut commands: Commands,
    units: Query<Entity, With<UnitId>>,
    mut state: ResMut<CombatState>,
    mut log: ResMut<CombatLog>,
) {
    for unit in &units {
        commands.entity(unit).despawn();
    }
    *state = CombatState::default();
    log.clear();
}

fn tick_pacing(time: Res<Time>, state: Res<CombatState>, mut pacing: ResMut<RoundPacing>, mut pace: ResMut<Pace>) {
    if state.round != pacing.round {
        // A round that started while paused used up one step.
        if pace.paused && state.round > pacing.round {
            pace.steps = pace.steps.saturating_sub(1);
        }
        pacing.round = state.round;
        pacing.elapsed = Duration::ZERO;
    } else {
        pacing.elapsed += time.delta();
    }
}

/// A new round starts once the last one has been on screen long enough at the chosen speed
/// and the player has not paused (the first round at once).
fn round_pacing_ready(
    state: Res<CombatState>,
    pacing: Res<RoundPacing>,
    pace: Res<Pace>,
    replay: Option<Res<crate::save::Replay>>,
    (playback, log): (Option<Res<super::playback::Playback>>, Res<CombatLog>),
    following: Option<Res<crate::rules::Following>>,
) -> bool {
    // A replay plays a round when its view needs one, whatever the pace.
    if let Some(wanted) = super::playback::playback_wants_round(playback.as_deref(), log.entries().len()) {
        return wanted;
    }
    // A loaded save replays its rounds at once, up to where it was saved.
    let catching_up = super::online::fast_forward(replay.as_deref(), &log, following.is_some());
    if state.round == 0 || state.phase != CombatPhase::Initiative || catching_up {
        return true;
    }
    if pace.paused {
        return pace.steps > 0;
    }
    // Autoplay holds a round with an endless delay, which no scaling may overflow.
    let delay = Duration::try_from_secs_f64(pacing.delay.as_secs_f64() * f64::from(pace.speed.pause_share()))
        .unwrap_or(Duration::MAX);
    pacing.elapsed >= delay
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_parse_from_the_command_line() {
        assert_eq!(Seat::parse("human"), Some(Seat::Human));
        assert_eq!(Seat::parse("ai:random"), Some(Seat::Ai(AiKind::Random)));
        assert_eq!(Seat::parse("AI"), Some(Seat::Ai(AiKind::Greedy)));
        assert_eq!(Seat::parse("ai:hard"), Some(Seat::Ai(AiKind::Hard)));
        assert_eq!(Seat::parse("ai:tactician"), Some(Seat::Ai(AiKind::Hard)));
        assert_eq!(Seat::parse("master"), Some(Seat::Ai(AiKind::Master)));
        // The menu offers every difficulty, each under its own label.
        for kind in [AiKind::Easy, AiKind::Greedy, AiKind::Hard, AiKind::Master] {
            assert!(Seat::ALL.contains(&Seat::Ai(kind)), "{kind:?} is missing from the menu");
        }
        let labels: std::collections::HashSet<_> = Seat::ALL.iter().map(|seat| seat.label()).collect();
        assert_eq!(labels.len(), Seat::ALL.len());
        assert_eq!(Seat::parse("robot"), None);
    }

    #[test]
    fn speeds_step_up_and_down_and_stop_at_the_ends() {
        assert_eq!(Speed::Normal.step(true), Speed::Double);
        assert_eq!(Speed::Double.step(true), Speed::Instant);
        assert_eq!(Speed::Instant.step(true), Speed::Instant);
        assert_eq!(Speed::Normal.step(false), Speed::Normal);
        assert_eq!(Speed::Instant.step(false), Speed::Double);
    }

    #[test]
    fn seats_chosen_in_the_menu_carry_over_to_the_next_level_picked() {
        let mut session = Session { levels: level_choices(Path::new("/nonexistent")), ..Default::default() };
        let two_sided = |session: &Session| {
            session
                .levels
                .iter()
                .enumerate()
                .filter(|(_, level)| level.template.as_ref().is_some_and(|t| t.sides.len() == 2))
                .map(|(at, _)| at)
                .collect::<Vec<_>>()
        };
        let levels = two_sided(&session);
        session.select(levels[0]);
        let chosen = vec![Seat::Ai(AiKind::Hard), Seat::Human];
        session.choose_seats(chosen.clone());
        session.select(levels[1]);
        assert_eq!(session.seats, chosen, "picking another level keeps the seats the player chose");
    }

    #[test]
    fn the_built_in_levels_are_always_offered() {
        let choices = level_choices(Path::new("/nonexistent"));
        assert_eq!(choices.len(), builtin::LEVELS.len());
        assert!(choices.iter().all(|choice| choice.template.is_some()));
    }
}
