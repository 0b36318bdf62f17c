//! Runs the AI controllers in the declare stage: each AI unit whose turn it is gets a choice.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::battlefield::{Battlefield, ZoneIndex};
use crate::rules::actions::{ActionContext, ThreatMap, ViewCache};
use crate::rules::components::{Action, AiKind, Controller};
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::UnitReadOnly;
use crate::rules::{ActionChosen, CombatInfo, CombatState, CombatSystems, DeclarationQueue, DeclareSystems};

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
/// human, who declares through the UI.
fn declare_for_ai(view: AiView, mut rng: ResMut<AiRng>, mut chosen: MessageWriter<ActionChosen>) {
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
    for unit in awaiting {
        let Some(actor) = units.get(unit) else {
            continue;
        };
        let kind = match *actor.controller {
            Controller::Ai(kind) => kind,
            Controller::Human if view.queue.secret => continue,
            Controller::Human => break,
        };
        let action = match kind {
            AiKind::Random => super::random::choose(&view, &units, actor, &mut rng.0),
            AiKind::Greedy => super::greedy::choose(&view, &units, &threats, actor, &just_declared),
        };
        just_declared.insert(unit, action);
        chosen.write(ActionChosen { unit, action });
    }
}
