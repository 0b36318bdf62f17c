//! The battle's shared state: phase and round, sides, the declaration queue, the resolution
//! schedule, victory conditions, and the messages that carry facts between stages.

use std::sync::Arc;

use bevy::prelude::*;

use super::components::Action;
use super::dice::CombatRng;
use super::log::CombatLog;
use super::ruleset::DeclarationOrder;

/// Where the pipeline stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CombatPhase {
    /// No battle loaded.
    #[default]
    Idle,
    /// Units are placed; the surprise stage runs next.
    Surprise,
    /// A round begins: rolls, arrivals.
    Initiative,
    /// Waiting for declarations.
    Declare,
    /// Resolving the schedule.
    Resolve,
    /// Morale checks.
    Morale,
    /// End of round.
    End,
    /// The battle is over.
    Over,
}

/// How a battle ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Winning side, if any.
    pub winner: Option<usize>,
    /// Why it ended.
    pub reason: super::log::EndReason,
    /// The last round played.
    pub rounds: u32,
}

/// One action waiting in the round's resolution order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The Round Initiative it resolves at.
    pub initiative: i32,
    /// Who acts.
    pub unit: Entity,
    /// Level order of the unit, to break ties deterministically.
    pub order: u32,
    /// What it does.
    pub action: Action,
}

/// Present when the battle is shown as it happens (the window game): the resolve stage then
/// resolves one initiative count per run, its simultaneous slots together, so each can be
/// played out on the board before the next. The order of resolution, and so every roll and the
/// log, is the same as when a run resolves the whole round; only when the stage runs again is
/// up to whoever schedules it.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ResolveByCount;

/// Phase, round and the round's schedule.
#[derive(Resource, Clone, Debug, Default)]
pub struct CombatState {
    /// Where the pipeline stands.
    pub phase: CombatPhase,
    /// Current round (0 before round 1).
    pub round: u32,
    /// This round's actions, in resolution order.
    pub schedule: Vec<Slot>,
    /// Next slot to resolve.
    pub cursor: usize,
    /// The initiative count reached so far this round.
    pub count: Option<i32>,
    /// Set when the battle is over.
    pub outcome: Option<Outcome>,
    /// Actions late joiners missed, to resolve next round at the missed-turn modifier (`W-INIT-5`).
    pub carried: Vec<Slot>,
    /// Turn-based rulesets: the round's turns in order, each a count and the units acting at it
    /// together; units declare when their turn comes.
    pub turns: Vec<(i32, Vec<Entity>)>,
    /// The next turn to declare.
    pub turn_cursor: usize,
    /// Units that delayed their turn this round (`A-INIT-1`): their turn has already begun, so
    /// what happens as a turn begins does not happen again.
    pub delayed: Vec<Entity>,
    /// Side initiative scores kept for the combat when they are never re-rolled (`S-INIT-1`).
    pub side_scores: Vec<i32>,
    /// The side that begins (`Z-INIT-1`), once rolled.
    pub first_side: Option<usize>,
    /// Swarm attacks made this round: (target, attacking side, assailants so far) (`S-SPEC-1`).
    pub swarms: Vec<(Entity, usize, i32)>,
    /// Every swarm attack made this round, used or not: (target, attacking side, assailants),
    /// for the chapter's four assailants a target at most (`S-SPEC-1`).
    pub swarm_assailants: Vec<(Entity, usize, u32)>,
    /// Units whose turn this round went on in a second part after a Move or Free action
    /// (`S-ACT-1`): what happens as a turn begins and ends happens once, at its first part.
    pub turn_parts: Vec<Entity>,
    /// Units that held their action this round (`S-ACT-2`), in the order they held it: the
    /// only ones a foe's turn can set off, so a turn looks at these and not at every unit.
    pub holding: Vec<Entity>,
    /// Spells begun and not yet taking effect (`C-CAST-1`).
    pub casting: Vec<CastInProgress>,
}

/// A spell being cast over several turns of the round (`C-CAST-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastInProgress {
    /// The caster.
    pub unit: Entity,
    /// The spell, as an index into the caster's spells.
    pub spell: usize,
    /// Its target.
    pub target: Entity,
    /// The turn count at which it takes effect; `None` after the round's last turn.
    pub completes_at: Option<i32>,
    /// Scheduled to take effect now: the resolve stage completes it.
    pub due: bool,
}

impl CastInProgress {
    /// Whether it is due before the turn at `count` (`None`: the round's turns are over).
    pub fn due_before(&self, count: Option<i32>) -> bool {
        match (count, self.completes_at) {
            (None, _) => true,
            (Some(count), Some(at)) => at <= count,
            (Some(_), None) => false,
        }
    }
}

impl CombatState {
    /// Whether the battle has ended.
    pub fn is_over(&self) -> bool {
        self.phase == CombatPhase::Over
    }

    /// Whether `side` has as many assailants swarming `target` this round as the ruleset
    /// allows (`S-SPEC-1`), so that no other of its units can join.
    pub fn swarm_full(&self, ruleset: &crate::rules::ruleset::Ruleset, target: Entity, side: usize) -> bool {
        let Some(most) = ruleset.attack.swarm.as_ref().and_then(|swarm| swarm.max_assailants) else {
            return false;
        };
        self.swarm_assailants.iter().any(|&(unit, by, count)| unit == target && by == side && count >= most)
    }
}

/// Who declares, in which order, and how far the declaring has got.
#[derive(Resource, Clone, Debug, Default)]
pub struct DeclarationQueue {
    /// Units in declaration order.
    pub order: Vec<Entity>,
    /// Index of the next unit to declare (sequential orders).
    pub next: usize,
    /// Which units have declared.
    pub done: Vec<bool>,
    /// Declarations are secret until everyone has declared.
    pub secret: bool,
    /// Late joiners declaring mid-round (`W-INIT-5`), rather than a new round.
    pub late: bool,
    /// Whether the queue was built for the current declare phase.
    pub open: bool,
    /// Where each unit stands in `order`.
    positions: bevy::ecs::entity::EntityHashMap<usize>,
}

impl DeclarationQueue {
    /// Starts a new declaration pass over `order`.
    pub fn begin(&mut self, order: Vec<Entity>, secret: bool, late: bool) {
        self.positions = order.iter().enumerate().map(|(at, &unit)| (unit, at)).collect();
        self.done = vec![false; order.len()];
        self.order = order;
        self.next = 0;
        self.secret = secret;
        self.late = late;
        self.open = true;
    }

    /// Units that may declare right now: every undeclared one when secret, else the next in turn.
    pub fn awaiting(&self) -> impl Iterator<Item = Entity> + '_ {
        let sequential_next = (!self.secret).then_some(self.next);
        self.order
            .iter()
            .enumerate()
            .filter(move |(at, _)| match sequential_next {
                Some(next) => *at >= next && !self.done[*at],
                None => !self.done[*at],
            })
            .map(|(_, &unit)| unit)
    }

    /// Whether every unit has declared.
    pub fn complete(&self) -> bool {
        self.done.iter().all(|&done| done)
    }

    /// Whether `unit` may declare now.
    pub fn may_declare(&self, unit: Entity) -> bool {
        match self.positions.get(&unit).copied() {
            Some(at) if self.secret => !self.done[at],
            Some(at) => at == self.next && !self.done[at],
            None => false,
        }
    }

    /// Marks `unit` as declared and moves the turn on.
    pub fn mark_done(&mut self, unit: Entity) {
        if let Some(&at) = self.positions.get(&unit) {
            self.done[at] = true;
        }
        while self.next < self.done.len() && self.done[self.next] {
            self.next += 1;
        }
    }
}

/// A side of the battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideInfo {
    /// Name (`"party"`).
    pub name: Arc<str>,
    /// The player characters' side.
    pub party: bool,
    /// Shift of the enemies' surprise range (`C-SURP-1`).
    pub surprise_range: i32,
    /// Its creatures roll for their reaction (`Z-REACT-1`).
    pub unscripted: bool,
}

/// The sides, in level order.
#[derive(Resource, Clone, Debug, Default)]
pub struct Sides(pub Vec<SideInfo>);

impl Sides {
    /// Whether `side` is the player characters' side.
    pub fn is_party(&self, side: usize) -> bool {
        self.0.get(side).is_some_and(|info| info.party)
    }
}

/// What the battle is, for the log.
#[derive(Resource, Clone, Debug, Default)]
pub struct CombatInfo {
    /// Level name.
    pub level: String,
    /// The seed the combat RNG started from.
    pub seed: u64,
    /// Declaration order the level chose over the ruleset's, if any.
    pub declaration_order: Option<DeclarationOrder>,
}

/// A way to win besides being the last side standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VictoryCondition {
    /// `side` wins if it still has a fighting unit at the end of round `rounds`.
    Survive {
        /// Side index.
        side: usize,
        /// Rounds to hold out.
        rounds: u32,
    },
    /// `side` wins as soon as `unit` is down, dead, fled or surrendered.
    Eliminate {
        /// The unit.
        unit: Entity,
        /// Side index that wins.
        side: usize,
    },
}

/// The level's extra victory conditions.
#[derive(Resource, Clone, Debug, Default)]
pub struct VictoryConditions(pub Vec<VictoryCondition>);

/// A controller's choice for a unit: the UI and the AIs write it, the declare stage checks it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionChosen {
    /// The declaring unit.
    pub unit: Entity,
    /// Its action.
    pub action: Action,
}

/// The verdicts an AI reached on its own choices of one declaration pass, checked
/// ([`super::actions::check`]) against the units as its view cache held them: the declare
/// stage, run next in the same frame, takes a choice's verdict from here instead of looking the
/// actor and its target up in the world again. Nothing changes a unit between the two, so the
/// verdict is the one the stage would reach; it is only taken while nothing it reads changed
/// since it was reached, and for the same choice, in the same order.
#[derive(Resource, Clone, Debug, Default)]
pub struct CheckedChoices {
    /// When the verdicts were reached.
    pub checked_at: bevy::ecs::change_detection::Tick,
    /// Each choice, as written, with its verdict (the Initiative modifier, or why it is refused).
    pub verdicts: Vec<(Entity, Action, Result<i32, super::actions::IllegalAction>)>,
}

/// A controller's choice that the rules refused, and why.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationRejected {
    /// The unit.
    pub unit: Entity,
    /// The refused action.
    pub action: Action,
    /// Why.
    pub reason: super::actions::IllegalAction,
}

/// Damage a unit took, for the morale stage (more than half its Wound Points in one hit).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DamageDealt {
    /// Who took it.
    pub unit: Entity,
    /// The round it was taken in.
    pub round: u32,
    /// Wound Points lost.
    pub wounds_lost: i32,
    /// Stress lost.
    pub stress_lost: i32,
}

/// A unit's declared action that came to nothing as the resolve stage played it (its
/// `action_lost` log line; a held action that lapses unanswered, `S-ACT-2`, lapses in the declare
/// stage and is not one).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionLost {
    /// Whose action it was.
    pub unit: Entity,
    /// The round it was lost in.
    pub round: u32,
}

/// An Intimidation check aimed at a unit, which then checks morale against it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intimidated {
    /// The target.
    pub unit: Entity,
    /// The check's result.
    pub result: i32,
}

/// What the morale stage has heard of the round so far: the resolve stage's damage and
/// intimidation messages, kept as they arrive. A round resolved count by count (the window's,
/// [`ResolveByCount`]) or paused for late joiners' declarations spans more frames than a message
/// lives, so the morale stage reads them here rather than straight from the messages.
#[derive(Resource, Clone, Debug, Default)]
pub struct MoraleInbox {
    /// Damage taken, in order.
    pub dealt: Vec<DamageDealt>,
    /// Intimidation checks aimed at units, in order.
    pub intimidated: Vec<Intimidated>,
}

/// A unit that failed its morale and flees in panic, under a ruleset whose foes strike at a
/// fleeing back (`C-WDRAW-1`); it leaves the battle once they have.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fleeing {
    /// The unit running away.
    pub unit: Entity,
}

/// Registers the shared state and messages.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CombatState>()
        .init_resource::<DeclarationQueue>()
        .init_resource::<CheckedChoices>()
        .init_resource::<Sides>()
        .init_resource::<super::unit::TouchedUnits>()
        .init_resource::<CombatInfo>()
        .init_resource::<VictoryConditions>()
        .init_resource::<CombatRng>()
        .init_resource::<CombatLog>()
        .init_resource::<super::ruleset::Ruleset>()
        .init_resource::<super::equipment::InjuryTables>()
        .add_message::<ActionChosen>()
        .add_message::<DeclarationRejected>()
        .add_message::<DamageDealt>()
        .add_message::<ActionLost>()
        .add_message::<Intimidated>()
        .add_message::<Fleeing>()
        .init_resource::<MoraleInbox>();
}

/// A run condition: the pipeline is in `phase`.
pub fn in_phase(phase: CombatPhase) -> impl Fn(Res<CombatState>) -> bool + Clone {
    move |state: Res<CombatState>| state.phase == phase
}

/// Online play: where the dice seed of each declaration pass comes from. Present only in an
/// online battle (the referee's, a follower's, or the replay of an online save); offline battles
/// roll one stream from the seed in `combat_started`.
///
/// Each time a declaration pass closes, the combat stream is reseeded with the next seed, and a
/// `dice_reseeded` line records it. The referee draws the seed from a secret stream only at that
/// moment, so no one declaring could have tried their options against the dice to come.
#[derive(Resource, Clone, Debug, Default)]
pub struct PassSeeds {
    /// The referee's secret stream; `None` where the seeds are given.
    draw: Option<rand_chacha::ChaCha8Rng>,
    /// Seeds the referee sent, not used yet. A pass waits to close until its seed is here.
    given: std::collections::VecDeque<u64>,
    /// Every seed used so far, in order.
    used: Vec<u64>,
}

impl PassSeeds {
    /// The referee's seeds, drawn from a stream started from `secret`.
    pub fn drawn_from(secret: u64) -> Self {
        use rand::SeedableRng;
        Self { draw: Some(rand_chacha::ChaCha8Rng::seed_from_u64(secret)), ..Self::default() }
    }

    /// A follower's seeds: `seeds` first, then those given later with [`Self::give`].
    pub fn given(seeds: impl IntoIterator<Item = u64>) -> Self {
        Self { given: seeds.into_iter().collect(), ..Self::default() }
    }

    /// Adds a seed the referee sent.
    pub fn give(&mut self, seed: u64) {
        self.given.push_back(seed);
    }

    /// The seeds used so far, in order.
    pub fn used(&self) -> &[u64] {
        &self.used
    }

    /// The seed for the pass closing now, if there is one yet.
    pub fn take_next(&mut self) -> Option<u64> {
        let seed = match &mut self.draw {
            Some(stream) => Some(rand::Rng::random(stream)),
            None => self.given.pop_front(),
        }?;
        self.used.push(seed);
        Some(seed)
    }

    /// Whether a pass could close now.
    pub fn ready(&self) -> bool {
        self.draw.is_some() || !self.given.is_empty()
    }
}

/// Present while the battle follows a referee (online, or an online save replayed): every
/// declaration comes from the record, and no local AI declares.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Following;
