//! Per-round and summoning state: reactions, morale checks, standing aside, the initiator,
//! summons and conjuring, surprise shift and round records.

use super::*;

/// Reactions (Repostes) still available this round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reactions(pub u32);

/// This unit checks morale (monsters do; player characters do not).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ChecksMorale;

/// The unit's reaction kept it out of the fight from the start (`Z-REACT-1`): not a loss to its side.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct StoodAside;

/// The unit started the fight by attacking, and so takes its turn last (`A-INIT-1`).
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct Initiator;

/// A unit that comes into the battle when its summoner calls it (`A-SUMM-1`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summoned {
    /// Who calls it.
    pub summoner: Entity,
    /// Kept after the battle for its thrall cost; otherwise it vanishes when the battle ends.
    pub thrall: bool,
}

/// How many summoned units a unit may have in the battle at once: its level, plus feats (`A-SUMM-1`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SummoningSlots(pub u32);

/// A new unit a spell creates (`A-SUMM-1`): everything about it that is not its creature's.
#[derive(Clone, Debug)]
pub struct Conjuring {
    /// Its fresh id, used by no other unit of the battle.
    pub id: Arc<str>,
    /// Where it appears.
    pub zone: ZoneIdx,
    /// Its place after every unit the level lists.
    pub order: u32,
    /// Its summoner's controller.
    pub controller: Controller,
    /// Who created it.
    pub summoner: Entity,
    /// The round its summoning sickness lasts through.
    pub sick_until: u32,
    /// Kept after the battle if its summoner pays its thrall cost (`A-SUMM-1`).
    pub thrall: bool,
}

/// Spawns one conjured unit of a creature on a side and returns its entity.
pub type ConjureFn = Arc<dyn Fn(&mut Commands, Conjuring) -> Entity + Send + Sync>;

/// The creatures this battle's spells may create, per (creature, side), made ready when the
/// level was checked, and the units created so far (`A-SUMM-1`).
#[derive(Resource, Clone, Default)]
pub struct Conjurable {
    /// How to spawn each (creature, side index).
    pub creatures: Vec<(Arc<str>, usize, ConjureFn)>,
    /// The next unit's spawn order: after every unit the level lists and every one made so far.
    pub next_order: u32,
    /// Every unit created so far: its id, its summoner and its entity. Kept here because a
    /// unit spawned this stage is not in the queries until the stage ends.
    pub made: Vec<(Arc<str>, Entity, Entity)>,
}

impl Conjurable {
    /// The spawner for `creature` on `side`.
    pub fn spawner(&self, creature: &str, side: usize) -> Option<ConjureFn> {
        self.creatures.iter().find(|(name, at, _)| &**name == creature && *at == side).map(|(_, _, make)| make.clone())
    }
}

/// How far a unit's own surprise range is shifted (`C-SURP-1`: a ranger −2); absent means 0.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurpriseShift(pub i32);

/// What a unit has done this round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundRecord {
    /// Actions it has taken this round (for the costs of the down).
    pub actions_taken: u32,
    /// Damage it has taken this round (a caster so hurt cannot cast, `C-CAST-1`).
    pub damage_taken: i32,
}
