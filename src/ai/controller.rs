//! Runs the AI controllers in the declare stage: each AI unit whose turn it is gets a choice.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::battlefield::{Battlefield, ZoneIndex};
use crate::rules::actions::{ActionContext, ThreatMap, ViewCache};
use crate::rules::components::{Action, AiKind, Controller};
use crate::rules::equipment::InjuryTables;
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::UnitReadOnly;
use crate::rules::{
    ActionChosen, CombatInfo, CombatState, CombatSystems, DeclarationQueue, DeclareSystems, Sides, VictoryConditions,
};

/// Choices made earlier in the same declaration pass, not yet recorded on the units.
pub type JustDeclared = bevy::ecs::entity::EntityHashMap<Action>;

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
    app.init_resource::<AiRng>();
    app.add_systems(
        Update,
        reseed_for_new_battle.run_if(resource_changed::<CombatInfo>).before(CombatSystems::Surprise),
    );
    app.add_systems(Update, declare_for_ai.in_set(DeclareSystems::Choose));
}

/// A new battle (a level spawned, with its seed) restarts the AI's stream from that seed, so
/// levels need not know the AI exists.
fn reseed_for_new_battle(info: Res<CombatInfo>, mut rng: ResMut<AiRng>) {
    *rng = AiRng::seeded(info.seed);
}

/// What an AI reads: the battle, read-only.
#[derive(SystemParam)]
pub struct AiView<'w, 's> {
    /// Every unit.
    pub units: Query<'w, 's, UnitReadOnly>,
    /// Zones.
    pub battlefield: Res<'w, Battlefield>,
    /// Who stands where.
    pub index: Res<'w, ZoneIndex>,
    /// Rules.
    pub ruleset: Res<'w, Ruleset>,
    /// Round.
    pub state: Res<'w, CombatState>,
    /// Whose turn.
    pub queue: Res<'w, DeclarationQueue>,
    /// Units waiting to be summoned, and by whom (`A-SUMM-1`).
    pub summoned:
        Query<'w, 's, (&'static crate::rules::components::Summoned, &'static crate::rules::components::Status)>,
    /// Every unit, whole, for the search's snapshot.
    pub snapshot: Query<'w, 's, super::forward::SnapshotData>,
    /// Extra victory conditions.
    pub victory: Res<'w, VictoryConditions>,
    /// The sides.
    pub sides: Res<'w, Sides>,
    /// The battle's name and seed.
    pub info: Res<'w, CombatInfo>,
    /// Injury tables.
    pub injuries: Res<'w, InjuryTables>,
}

/// Time each side's AI spent on each declaration pass (all its units' choices together); kept
/// only where the resource exists (`fray arena`), so plain battles pay nothing for it.
#[derive(Resource, Clone, Debug, Default)]
pub struct AiClock {
    /// Side index and time spent, one entry per side per pass.
    pub samples: Vec<(usize, std::time::Duration)>,
}

impl AiView<'_, '_> {
    /// The legality context.
    pub fn ctx(&self) -> ActionContext<'_> {
        ActionContext {
            ruleset: &self.ruleset,
            battlefield: &self.battlefield,
            index: &self.index,
            round: self.state.round,
        }
    }

    /// The action `unit` has declared, if the AI may see it (never while declarations are
    /// secret). `just_declared` holds the choices made earlier in this same pass.
    pub fn visible_declaration(&self, unit: Entity, just_declared: &JustDeclared) -> Option<Action> {
        if self.queue.secret {
            return None;
        }
        just_declared.get(&unit).copied().or_else(|| self.units.get(unit).ok().and_then(|view| view.declared.action))
    }
}

/// Declares for every AI unit that may declare now; in turn-based orders it stops at the first
/// human, who declares through the UI. A search AI plans its side's awaiting units together.
fn declare_for_ai(
    view: AiView,
    mut rng: ResMut<AiRng>,
    mut chosen: MessageWriter<ActionChosen>,
    mut tactician: Local<super::tactician::Tactician>,
    mut clock: Option<ResMut<AiClock>>,
) {
    if !view.queue.open {
        return;
    }
    let awaiting: Vec<Entity> = view.queue.awaiting().collect();
    if awaiting.is_empty() {
        return;
    }
    let units = ViewCache::new(&view.units);
    let threats = ThreatMap::build(view.battlefield.len(), units.iter());
    let mut just_declared = JustDeclared::default();
    let mut planned = JustDeclared::default();
    let mut spent: Vec<(usize, std::time::Duration)> = Vec::new();
    for (at, &unit) in awaiting.iter().enumerate() {
        let Some(actor) = units.get(unit) else {
            continue;
        };
        let kind = match *actor.controller {
            Controller::Ai(kind) => kind,
            Controller::Human if view.queue.secret => continue,
            Controller::Human => break,
        };
        let started = std::time::Instant::now();
        let action = match (kind, super::tactician::Budget::of(kind)) {
            (_, Some(budget)) => {
                if !planned.contains_key(&unit) {
                    // Secret: the whole side at once. In turn: only this unit, as the next may see more.
                    let members: Vec<Entity> = if view.queue.secret {
                        awaiting[at..]
                            .iter()
                            .copied()
                            .filter(|&other| {
                                units.get(other).is_some_and(|other| {
                                    other.side == actor.side && *other.controller == Controller::Ai(kind)
                                })
                            })
                            .collect()
                    } else {
                        vec![unit]
                    };
                    let plan = tactician.plan(&view, &units, &threats, &members, &just_declared, &mut rng.0, budget);
                    planned.extend(plan);
                }
                planned.get(&unit).copied().unwrap_or(Action::simple(crate::rules::components::ActionKind::Hold))
            }
            (AiKind::Random, None) => super::random::choose(&view, &units, actor, &mut rng.0),
            (AiKind::Easy, None) => {
                super::tactician::easy_choice(&view, &units, &threats, actor, &just_declared, &mut rng.0)
            }
            _ => super::greedy::choose(&view, &units, &threats, actor, &just_declared),
        };
        if clock.is_some() {
            let side = actor.side.0;
            match spent.iter_mut().find(|(other, _)| *other == side) {
                Some((_, time)) => *time += started.elapsed(),
                None => spent.push((side, started.elapsed())),
            }
        }
        just_declared.insert(unit, action);
        chosen.write(ActionChosen { unit, action });
    }
    if let Some(clock) = clock.as_mut() {
        clock.samples.extend(spent);
    }
}
