//! What the side has already pledged this round: the commitment book and the claims allies have
//! on targets.

use super::*;

/// What the actor's allies already declared in this pass (never the enemy's: their declarations
/// are theirs): expected damage aimed at each enemy and expected healing aimed at each friend.
pub(super) enum Commitments<'a> {
    /// Summed over the pass's declarations for this one choice.
    Summed { damage: bevy::ecs::entity::EntityHashMap<f64>, healing: bevy::ecs::entity::EntityHashMap<f64> },
    /// Read from the pass's [`CommitmentBook`] for the actor's side.
    Booked { book: &'a CommitmentBook, side: SideIndex, actor: bevy::prelude::Entity },
}

impl Commitments<'_> {
    pub(super) fn of_allies(choice: &Choice) -> Self {
        let Choice { view, units, actor, just_declared, .. } = *choice;
        let mut damage = bevy::ecs::entity::EntityHashMap::<f64>::default();
        let mut healing = bevy::ecs::entity::EntityHashMap::<f64>::default();
        // Summed in a fixed order (level order), so the same pass always gives the same sums.
        let mut declared: Vec<(u32, &UnitView, Action)> = just_declared
            .iter()
            .filter_map(|(&unit, &action)| units.get(unit).map(|ally| (ally.standing.order.0, ally, action)))
            .filter(|(_, ally, _)| ally.standing.side == actor.standing.side && ally.entity != actor.entity)
            .collect();
        declared.sort_by_key(|(order, ..)| *order);
        for (_, ally, action) in declared {
            let Some(target) = action.target.and_then(|target| units.get(target)) else {
                continue;
            };
            if target.standing.side == actor.standing.side {
                *healing.entry(target.entity).or_default() += expected_healing(view, ally, action.kind);
            } else {
                *damage.entry(target.entity).or_default() += expected_damage(view, ally, target, action.kind);
            }
        }
        Self::Summed { damage, healing }
    }

    pub(super) fn damage_on(&self, unit: bevy::prelude::Entity) -> f64 {
        match self {
            Self::Summed { damage, .. } => damage.get(&unit).copied().unwrap_or(0.0),
            Self::Booked { book, side, actor } => CommitmentBook::sum(book.damage.get(&unit), *side, *actor),
        }
    }

    pub(super) fn healing_on(&self, unit: bevy::prelude::Entity) -> f64 {
        match self {
            Self::Summed { healing, .. } => healing.get(&unit).copied().unwrap_or(0.0),
            Self::Booked { book, side, actor } => CommitmentBook::sum(book.healing.get(&unit), *side, *actor),
        }
    }
}

/// One declared blow or cure, as a [`CommitmentBook`] files it under its target.
#[derive(Clone, Copy)]
pub(super) struct Pledge {
    /// The declaring unit's place in the level order: pledges are summed in that order.
    order: u32,
    ally: bevy::prelude::Entity,
    side: SideIndex,
    amount: f64,
}

/// The declarations of one pass, filed under their targets as they are made, in level order:
/// each later choice reads its allies' commitments to the targets it weighs, instead of going
/// over every declaration of the pass again (which made a big battle's pass quadratic). Sums
/// come out exactly as [`Commitments::of_allies`] adds them up.
#[derive(Default)]
pub struct CommitmentBook {
    pub(super) damage: bevy::ecs::entity::EntityHashMap<Vec<Pledge>>,
    pub(super) healing: bevy::ecs::entity::EntityHashMap<Vec<Pledge>>,
}

impl CommitmentBook {
    /// Files `unit`'s declared `action`, made in this pass.
    pub fn record(&mut self, view: &AiView, units: &ViewCache, unit: bevy::prelude::Entity, action: Action) {
        let Some(ally) = units.get(unit) else {
            return;
        };
        let Some(target) = action.target.and_then(|target| units.get(target)) else {
            return;
        };
        let (filed, amount) = if target.standing.side == ally.standing.side {
            (&mut self.healing, expected_healing(view, ally, action.kind))
        } else {
            (&mut self.damage, expected_damage(view, ally, target, action.kind))
        };
        let pledges = filed.entry(target.entity).or_default();
        let at = pledges.partition_point(|pledge| pledge.order <= ally.standing.order.0);
        pledges.insert(at, Pledge { order: ally.standing.order.0, ally: unit, side: *ally.standing.side, amount });
    }

    /// What `side`'s units other than `actor` pledged, added up in level order.
    pub(super) fn sum(pledges: Option<&Vec<Pledge>>, side: SideIndex, actor: bevy::prelude::Entity) -> f64 {
        pledges.map_or(0.0, |pledges| {
            pledges
                .iter()
                .filter(|pledge| pledge.side == side && pledge.ally != actor)
                .fold(0.0, |sum, pledge| sum + pledge.amount)
        })
    }
}

/// How many of the choosing unit's allies chose to move into each zone earlier in this pass:
/// squares they claimed are taken too (never the enemy's choices: those are secret).
pub(super) fn ally_claims(choice: &Choice) -> std::collections::HashMap<ZoneIdx, usize> {
    let Choice { units, actor, just_declared, .. } = *choice;
    let mut claims = std::collections::HashMap::new();
    for (unit, action) in just_declared {
        if let Some(zone) = action.move_to
            && units.get(*unit).is_some_and(|ally| ally.standing.side == actor.standing.side)
        {
            *claims.entry(zone).or_default() += 1;
        }
    }
    claims
}
