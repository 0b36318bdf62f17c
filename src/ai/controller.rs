//! Runs the AI controllers in the declare stage: each AI unit whose turn it is gets a choice.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::choice::Choice;
use super::view::{AiView, ForcedDeclarations, JustDeclared};

use crate::rules::actions::{ThreatMap, ViewCache};
use crate::rules::components::{Action, AiKind, Controller};
use crate::rules::unit::UnitView;
use crate::rules::{ActionChosen, CheckedChoices, CombatInfo, CombatSystems, DeclareSystems};

/// The AI's own seeded stream, apart from the combat dice: AI choices are decisions, not rolls,
/// so they stay out of the log, yet the same seed still gives the same battle.
#[derive(Resource, Clone, Debug)]
pub struct AiRng(pub ChaCha8Rng);

/// Keeps the AI's stream apart from the combat stream seeded with the same number.
const AI_STREAM: u64 = 0xA1;

impl AiRng {
    /// The AI stream for a battle seed.
    pub fn seeded(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(AI_STREAM);
        Self(rng)
    }
}

impl Default for AiRng {
    fn default() -> Self {
        Self::seeded(0)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AiRng>()
        .init_resource::<SearchThread>()
        .init_resource::<SearchInFlight>()
        .init_resource::<ForcedDeclarations>();
    app.add_systems(
        Update,
        reseed_for_new_battle.run_if(resource_changed::<CombatInfo>).before(CombatSystems::Surprise),
    );
    app.add_systems(
        Update,
        declare_for_ai
            .in_set(DeclareSystems::Choose)
            .run_if(not(resource_exists::<crate::rules::Following>).or_else(resource_exists::<Delegated>)),
    );
}

/// Online, a player's seat played by a local AI (`fray join --headless --ai KIND`): the AI
/// chooses for that side's units, and its choices go to the referee rather than straight to the
/// rules, which hear of them when the referee releases them.
#[derive(Resource, Clone, Debug)]
pub struct Delegated {
    /// The sides the AI plays, by index.
    pub sides: Vec<usize>,
    /// How it plays.
    pub kind: AiKind,
    /// Choices made and not yet sent.
    pub outbox: Vec<(Entity, Action)>,
    /// Units already chosen for in the open pass: they wait for the referee.
    pub chosen: bevy::ecs::entity::EntityHashSet,
}

impl Delegated {
    /// The AI of `kind` playing side `side`.
    pub fn new(side: usize, kind: AiKind) -> Self {
        Self::for_sides(vec![side], kind)
    }

    /// The AI of `kind` playing every side in `sides` (a client holding several seats).
    pub fn for_sides(sides: Vec<usize>, kind: AiKind) -> Self {
        Self { sides, kind, outbox: Vec::new(), chosen: Default::default() }
    }
}

/// The seed of the AI's stream when it must not be the battle's (public) seed: online, the
/// referee's AI seats draw on a seed no player sees, so no one can foresee their choices.
#[derive(Resource, Clone, Copy, Debug)]
pub struct AiSeed(pub u64);

/// A new battle (a level spawned, with its seed) restarts the AI's stream from that seed, so
/// levels need not know the AI exists.
fn reseed_for_new_battle(
    info: Res<CombatInfo>,
    secret: Option<Res<AiSeed>>,
    mut rng: ResMut<AiRng>,
    mut in_flight: ResMut<SearchInFlight>,
) {
    *rng = AiRng::seeded(secret.map_or(info.seed, |secret| secret.0));
    // A search still thinking about the last battle would hand back that battle's stream.
    in_flight.running = None;
}

/// Time each side's AI spent on each declaration pass (all its units' choices together); kept
/// only where the resource exists (`fray arena`), so plain battles pay nothing for it.
#[derive(Resource, Clone, Debug, Default)]
pub struct AiClock {
    /// Side index and processor time spent, one entry per side per pass.
    pub samples: Vec<(usize, std::time::Duration)>,
}

/// This thread's processor time so far, from Linux's scheduler statistics; `None` where the
/// system does not tell. Decisions are timed with it rather than the wall clock, so other
/// programs loading the machine do not inflate them.
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(std::time::Duration::from_nanos(nanos))
}

/// Times one decision: processor time where the system tells it, else the wall clock.
struct Stopwatch {
    wall: std::time::Instant,
    cpu: Option<std::time::Duration>,
}

impl Stopwatch {
    fn start() -> Self {
        Self { wall: std::time::Instant::now(), cpu: thread_cpu_time() }
    }

    fn elapsed(&self) -> std::time::Duration {
        let wall = self.wall.elapsed();
        self.cpu.zip(thread_cpu_time()).map_or(wall, |(from, to)| to.saturating_sub(from))
    }
}

/// Where a search AI thinks: at once on the calling thread (headless runs and tests, where
/// nothing waits on a frame), or on Bevy's compute task pool while the window keeps drawing.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchThread {
    /// Search inside the declare stage, before the frame ends.
    #[default]
    Inline,
    /// Search on the async compute pool; the declaration pass waits, frame by frame, until it
    /// is done. The plan is the same either way: the budget counts simulated rounds, not time.
    Background,
}

/// A search running in the background, and the units it plans for.
#[derive(Resource, Default)]
pub struct SearchInFlight {
    running: Option<(Vec<Entity>, bevy::tasks::Task<super::tactician::SearchDone>)>,
}

impl SearchInFlight {
    /// Whether a search AI is thinking right now (the window shows it).
    pub fn thinking(&self) -> bool {
        self.running.is_some()
    }
}

/// Everything the AI controllers keep between frames.
#[derive(SystemParam)]
struct Minds<'w, 's> {
    rng: ResMut<'w, AiRng>,
    forced: ResMut<'w, ForcedDeclarations>,
    tactician: Local<'s, super::tactician::Tactician>,
    thread: Res<'w, SearchThread>,
    in_flight: ResMut<'w, SearchInFlight>,
}

impl Minds<'_, '_> {
    /// The search's plan for `request`'s units; `None` while it is still thinking in the
    /// background (then the declaration pass waits for a later frame).
    fn plan<'c>(
        &mut self,
        view: &AiView,
        units: &ViewCache<'c, 'c>,
        threats: &ThreatMap,
        request: &super::tactician::SearchRequest,
    ) -> Option<super::tactician::Plan> {
        if *self.thread == SearchThread::Inline {
            return Some(self.tactician.plan(view, units, threats, request, &mut self.rng.0));
        }
        if let Some((members, task)) = &mut self.in_flight.running
            && members.as_slice() == request.members
        {
            let done = bevy::tasks::block_on(bevy::tasks::futures_lite::future::poll_once(task))?;
            self.in_flight.running = None;
            let (plan, advanced) = self.tactician.finish(done);
            self.rng.0 = advanced;
            return Some(plan);
        }
        // A search for other units (a battle started afresh) is dropped with its task.
        self.in_flight.running = None;
        let Some(job) = self.tactician.prepare(view, units, threats, request, self.rng.0.clone()) else {
            return Some(Vec::new());
        };
        let pool = bevy::tasks::AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::default);
        let task = pool.spawn(async move { job.run() });
        self.in_flight.running = Some((request.members.to_vec(), task));
        None
    }
}

/// Declares for every AI unit that may declare now; in turn-based orders it stops at the first
/// human, who declares through the UI. A search AI plans its side's awaiting units together.
fn declare_for_ai(
    view: AiView,
    mut minds: Minds,
    mut outbox: Outbox,
    mut checked: ResMut<CheckedChoices>,
    ticks: bevy::ecs::system::SystemChangeTick,
    mut clock: Option<ResMut<AiClock>>,
    mut scratch: Local<crate::rules::actions::ViewScratch>,
) {
    if !checked.verdicts.is_empty() {
        checked.verdicts.clear();
    }
    if !view.queue.open {
        return;
    }
    let awaiting: Vec<Entity> = view.queue.awaiting().collect();
    if awaiting.is_empty() {
        return;
    }
    // A turn-by-turn grid round has a pass per unit: the cache reads units as they are asked about.
    scratch.fit(view.entities.len() as usize);
    let units = ViewCache::lazy(&view.units, &view.briefs, &scratch);
    let threats = ThreatMap::of(&units);
    let just_declared = view.declared_this_window();
    let book = commitments(&view, &units, &just_declared);
    let mut pass = Pass { view: &view, units: &units, threats: &threats, just_declared, book, planned: default() };
    let mut spent: Vec<(usize, std::time::Duration)> = Vec::new();
    for (at, &unit) in awaiting.iter().enumerate() {
        let Some(actor) = units.get(unit) else {
            continue;
        };
        let kind = match (outbox.delegated.as_deref(), *actor.standing.controller) {
            (Some(delegate), _)
                if delegate.sides.contains(&actor.standing.side.0) && !delegate.chosen.contains(&unit) =>
            {
                delegate.kind
            }
            (None, Controller::Ai(kind)) => kind,
            _ if view.queue.secret => continue,
            _ => break,
        };
        // Only `fray arena` keeps a clock: plain battles do not read the processor time.
        let started = clock.is_some().then(Stopwatch::start);
        let Some(action) = pass.choose(&mut minds, &awaiting[at..], actor, kind) else {
            break;
        };
        if let Some(started) = &started {
            add_time(&mut spent, actor.standing.side.0, started.elapsed());
        }
        pass.file(unit, action);
        // Checked here, where the actor and its target are already viewed: the declare stage
        // takes the verdict rather than looking them up in the world again.
        checked.checked_at = ticks.this_run();
        if let Some(delegate) = outbox.delegated.as_deref_mut() {
            delegate.chosen.insert(unit);
            delegate.outbox.push((unit, action));
            continue;
        }
        checked.verdicts.push((unit, action, crate::rules::actions::check(view.ctx(), actor, &action, &units)));
        outbox.chosen.write(ActionChosen { unit, action });
    }
    if let Some(clock) = clock.as_mut() {
        clock.samples.extend(spent);
    }
}

/// Where the AI's choices go: to the rules, or, for a seat played for a player online, to the
/// referee by way of [`Delegated`].
#[derive(SystemParam)]
struct Outbox<'w> {
    chosen: MessageWriter<'w, ActionChosen>,
    delegated: Option<ResMut<'w, Delegated>>,
}

/// One declaration pass: the battle as the AI sees it, and what the pass has chosen so far.
/// Two lifetimes, as a [`Choice`] has: the view's own shorten to the pass's borrow, the unit
/// cache's cannot (it is invariant).
struct Pass<'p, 'c> {
    view: &'p AiView<'p, 'p>,
    units: &'p ViewCache<'c, 'c>,
    threats: &'p ThreatMap<'p>,
    /// Every choice made in the open window, this pass's included.
    just_declared: JustDeclared,
    /// What those choices pledge: expected damage and healing on each unit.
    book: super::greedy::CommitmentBook,
    /// Choices a search made for units that have not declared yet (a side planned together).
    planned: JustDeclared,
}

impl<'c> Pass<'_, 'c> {
    /// What `actor`, run by `kind`, declares: a forced declaration, its search's plan, or its
    /// kind's choice. `None` while the search is still thinking in the background.
    /// `awaiting` holds `actor` and the units awaiting after it.
    fn choose(
        &mut self,
        minds: &mut Minds,
        awaiting: &[Entity],
        actor: &UnitView<'c, 'c>,
        kind: AiKind,
    ) -> Option<Action> {
        let (view, units, threats) = (self.view, self.units, self.threats);
        let unit = actor.entity;
        let action = match (minds.forced.0.remove(&unit), kind, super::tactician::Budget::of(kind)) {
            (Some(action), ..) => action,
            (None, _, Some(budget)) => {
                if !self.planned.contains_key(&unit) {
                    let members = search_members(view, units, awaiting, actor, kind);
                    let request = super::tactician::SearchRequest {
                        members: &members,
                        just_declared: &self.just_declared,
                        budget,
                    };
                    self.planned.extend(minds.plan(view, units, threats, &request)?);
                }
                self.planned.get(&unit).copied().unwrap_or(Action::simple(crate::rules::components::ActionKind::Hold))
            }
            (None, AiKind::Random, None) => super::random::choose(&self.choice(actor), &mut minds.rng.0),
            (None, AiKind::Easy, None) => super::tactician::easy_choice(&self.choice(actor), &mut minds.rng.0),
            _ => super::greedy::choose_in_pass(&self.choice(actor), &self.book),
        };
        Some(action)
    }

    /// What `actor`'s choice reads: this pass's view and caches, and the choices made before it.
    fn choice<'a>(&'a self, actor: &'a UnitView<'c, 'c>) -> Choice<'a, 'c> {
        Choice { view: self.view, units: self.units, threats: self.threats, actor, just_declared: &self.just_declared }
    }

    /// Files `unit`'s choice and its pledge.
    fn file(&mut self, unit: Entity, action: Action) {
        if self.just_declared.insert(unit, action).is_none() {
            self.book.record(self.view, self.units, unit, action);
        } else {
            // A unit that chose twice in one pass would leave its first pledge filed: sum afresh.
            self.book = commitments(self.view, self.units, &self.just_declared);
        }
    }
}

/// What the side has pledged so far this pass: each declaration's expected damage and healing.
fn commitments(view: &AiView, units: &ViewCache, just_declared: &JustDeclared) -> super::greedy::CommitmentBook {
    let mut book = super::greedy::CommitmentBook::default();
    for (&unit, &action) in just_declared {
        book.record(view, units, unit, action);
    }
    book
}

/// Adds `elapsed` to `side`'s time in this pass.
fn add_time(spent: &mut Vec<(usize, std::time::Duration)>, side: usize, elapsed: std::time::Duration) {
    match spent.iter_mut().find(|(other, _)| *other == side) {
        Some((_, time)) => *time += elapsed,
        None => spent.push((side, elapsed)),
    }
}

/// The units a search plans together with `actor`: with secret declarations its whole side
/// run by the same kind (of those still awaiting); in turn, only itself, as the next unit may
/// see more.
fn search_members(
    view: &AiView,
    units: &ViewCache,
    awaiting: &[Entity],
    actor: &crate::rules::unit::UnitView,
    kind: AiKind,
) -> Vec<Entity> {
    if !view.queue.secret {
        return vec![actor.entity];
    }
    awaiting
        .iter()
        .copied()
        .filter(|&other| {
            units.get(other).is_some_and(|other| {
                other.standing.side == actor.standing.side && *other.standing.controller == Controller::Ai(kind)
            })
        })
        .collect()
}
