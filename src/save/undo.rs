//! Taking a declaration back: allowed until the round (or, in turn orders, the turn) starts
//! resolving, and in hot-seat only by the side that made it. The units, the declaration queue,
//! the record and the AI's stream go back exactly to where they stood before it.

use std::sync::Arc;

use bevy::prelude::*;

use super::record::Recording;
use crate::ai::AiRng;
use crate::rules::components::{Controller, Declared, SideIndex, UnitId};
use crate::rules::log_text::Names;
use crate::rules::{CombatPhase, CombatState, DeclarationQueue};

/// Why a declaration cannot be taken back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    /// The round (or turn) is already resolving, or the battle is over.
    #[error("too late: the declarations are being resolved")]
    Resolving,
    /// The side has made no declaration it can take back.
    #[error("nothing to take back")]
    NothingToUndo,
    /// Another side declared since, and its choice would be taken back too.
    #[error("another side has declared since; only its own declarations can be taken back")]
    OtherSideSince,
}

/// Takes back `side`'s last declaration of the current pass; returns the unit it was for.
pub fn undo_last(world: &mut World, side: usize) -> Result<Arc<str>, UndoError> {
    let state = world.resource::<CombatState>();
    let queue = world.resource::<DeclarationQueue>();
    if state.phase != CombatPhase::Declare || !queue.open {
        return Err(UndoError::Resolving);
    }
    let round = state.round;
    let secret = queue.secret;
    let pass = current_pass(world, round);
    let entries = &world.resource::<Recording>().entries;
    let side_of = |at: usize| pass.iter().find(|(index, ..)| *index == at).map(|(_, _, side, human)| (*side, *human));
    let Some(first) =
        pass.iter().rev().find(|(_, _, unit_side, human)| *unit_side == side && *human).map(|(at, ..)| *at)
    else {
        return Err(UndoError::NothingToUndo);
    };
    // In a secret pass nobody saw the declaration, so it goes alone; in a sequential one every
    // later declaration may have depended on it, so those go too (and must be this side's or an AI's).
    let undone: Vec<usize> = if secret { vec![first] } else { (first..entries.len()).collect() };
    if undone.iter().any(|&at| side_of(at).is_some_and(|(unit_side, human)| human && unit_side != side)) {
        return Err(UndoError::OtherSideSince);
    }
    let unit = entries[first].unit.clone();
    take_back(world, &undone, !secret);
    Ok(unit)
}

/// What the window says once `unit`'s declaration is taken back, naming the unit as the board
/// and the log do (`Took back Sir Aldous's declaration`), not by its level id.
pub fn took_back_message(world: &mut World, unit: &str) -> String {
    let mut units = world.query::<(&UnitId, &Name)>();
    let names = Names::from_units(units.iter(world).map(|(id, name)| (id.0.clone(), name.as_str().to_string())));
    format!("Took back {}'s declaration", names.unit(unit))
}

/// The current pass's declarations: (index in the record, entity, side, made by a human).
fn current_pass(world: &mut World, round: u32) -> Vec<(usize, Entity, usize, bool)> {
    let queue = world.resource::<DeclarationQueue>().clone();
    let entries = world.resource::<Recording>().entries.clone();
    let mut units = world.query::<(Entity, &UnitId, &SideIndex, &Controller)>();
    let units: Vec<(Entity, Arc<str>, usize, Controller)> =
        units.iter(world).map(|(entity, id, side, controller)| (entity, id.0.clone(), side.0, *controller)).collect();
    let mut pass = Vec::new();
    for (at, entry) in entries.iter().enumerate().rev() {
        if entry.round != round {
            break;
        }
        let Some(&(entity, _, side, _)) = units.iter().find(|(_, id, ..)| *id == entry.unit) else {
            break;
        };
        let declared_now = queue.order.iter().position(|&unit| unit == entity).is_some_and(|at| queue.done[at]);
        if !declared_now {
            break;
        }
        pass.push((at, entity, side, entry.by == Controller::Human));
    }
    pass.reverse();
    pass
}

/// Clears the declarations at `undone` (indices into the record) from the units, the queue and
/// the record; `rewind_ai` puts the AI's stream back to where it stood before the first.
fn take_back(world: &mut World, undone: &[usize], rewind_ai: bool) {
    let Some(&first) = undone.first() else {
        return;
    };
    let mut recording = world.resource::<Recording>().clone();
    let stream = recording.ai_streams.get(first).cloned();
    let ids: Vec<Arc<str>> = undone.iter().map(|&at| recording.entries[at].unit.clone()).collect();
    for &at in undone.iter().rev() {
        recording.entries.remove(at);
        recording.ai_streams.remove(at);
        if at < recording.turns.len() {
            recording.turns.remove(at);
        }
    }
    world.insert_resource(recording);
    if rewind_ai && let Some(stream) = stream {
        world.insert_resource::<AiRng>(stream);
    }
    let mut units = world.query::<(Entity, &UnitId, &mut Declared)>();
    let mut cleared = Vec::new();
    for (entity, id, mut declared) in units.iter_mut(world) {
        if ids.contains(&id.0) {
            *declared = Declared { previous: declared.previous, ..Declared::default() };
            cleared.push(entity);
        }
    }
    let mut queue = world.resource_mut::<DeclarationQueue>();
    for entity in cleared {
        if let Some(at) = queue.order.iter().position(|&unit| unit == entity) {
            queue.done[at] = false;
            queue.next = queue.next.min(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taking_back_names_the_unit_not_its_id() {
        let mut world = World::new();
        world.spawn((UnitId("fighter".into()), Name::new("Sir Aldous")));
        world.spawn((UnitId("warrior-1".into()), Name::new("Hobgoblin Warrior")));
        world.spawn((UnitId("warrior-2".into()), Name::new("Hobgoblin Warrior")));
        assert_eq!(took_back_message(&mut world, "fighter"), "Took back Sir Aldous's declaration");
        assert_eq!(
            took_back_message(&mut world, "warrior-2"),
            "Took back Hobgoblin Warrior [warrior-2]'s declaration",
            "two units of one name are told apart as in the log"
        );
    }
}
