//! The greedy AI: strikes the target it can hurt most for the least risk, stabilises fallen
//! friends, casts and throws when that beats its weapon, closes distance without walking into
//! Repostes for nothing, and turns to full defense when it is losing the exchange.

use super::choice::Choice;
use super::view::AiView;
use crate::battlefield::{Cover, UNREACHABLE, ZoneIdx};
use crate::rules::actions::{self, ViewCache};
use crate::rules::components::*;
use crate::rules::equipment::Effect;
use crate::rules::ruleset::RangedInMelee;
use crate::rules::unit::{self, UnitView};
use bevy::prelude::Entity;

mod commitments;
mod movement;
mod odds;
mod offence;
mod support;

pub use commitments::CommitmentBook;
use commitments::{Commitments, ally_claims};
use movement::{Walk, approach, charge, stay_chance};
pub(super) use movement::{engaged, step_away_after};
use odds::{cast_chance, full_defense_risk};
pub(super) use odds::{expected_damage, refine_attack};
use offence::{AlikeTargets, best_offence, is_weapon_blow, within_budget};
use support::{
    expected_healing, incoming_damage, parry_while_falling_back, restore_an_ally, self_rescue, stabilise_an_ally,
    summon,
};

/// Below this share of its Stress and Wounds, a unit counts itself as badly hurt.
const BADLY_HURT: f64 = 0.35;
/// A downed enemy is worth this share of a standing one as a target: it is already out of the fight.
const DOWNED_TARGET_WEIGHT: f64 = 0.05;
/// How much a provoked Reposte's expected damage weighs against the damage the move buys.
const REPOSTE_AVERSION: f64 = 1.0;
/// Stress share below which an ally is worth a restoring spell or item.
const HEAL_STRESS_SHARE: f64 = 0.4;
/// Below this chance to hit, an aimed attack goes for centre mass rather than a wound.
const AIM_FOR_WOUNDS_HIT_CHANCE: f64 = 0.6;
/// Below this chance to hit, a unit would rather swarm for an ally who strikes later.
const SWARM_BELOW_HIT_CHANCE: f64 = 0.4;
/// Chance an enemy with no foe in its reach is still where it stood when a blade walks up to it:
/// such a unit is free to move off, and usually does (to its own target).
const UNENGAGED_STAY_CHANCE: f64 = 0.35;
/// Share of a target's remaining health still worth striking once allies' declared blows are
/// expected to drop it: spare blows go to other targets.
const OVERKILL_FLOOR: f64 = 0.1;
/// Healing already declared on an ally covers this share of what it is missing: no one adds more.
const HEALING_ENOUGH: f64 = 0.8;
/// At most this many enemies are weighed as targets in one choice. In a crowd, a unit looks at
/// the nearest enemies first and takes an evenly spread sample of the zone that would overflow
/// the budget, so a round's cost grows with the units, not with their square. No shipped
/// skirmish goes past it (the Great Melee has 32 a side).
const MAX_PROSPECTS: usize = 32;
/// At most this many units nearby are looked at when a choice sizes up the crowd around it
/// (allies to heal, enemies that could strike): beyond it, an evenly spread sample stands in
/// for the rest. No shipped level has more units than this.
const MAX_NEIGHBOURS: usize = 64;

/// What is left of a unit to take down.
fn remaining(unit: &UnitView) -> f64 {
    (unit.body.stress.current.max(0) + unit.body.wounds.current.max(0) + 1) as f64
}

fn health_share(unit: &UnitView) -> f64 {
    let max = (unit.body.stress.max + unit.body.wounds.max).max(1) as f64;
    (unit.body.stress.current.max(0) + unit.body.wounds.current.max(0)) as f64 / max
}

/// The greedy AI's choice for the unit choosing.
pub fn choose(choice: &Choice) -> Action {
    let commitments = || Commitments::of_allies(choice);
    choose_with(choice, commitments)
}

/// The greedy AI's choice in a declaration pass whose choices so far `book` has filed (every
/// one in the choice's `just_declared`, and no other): the same choice as [`choose`], found
/// without going over the whole pass.
pub(super) fn choose_in_pass(choice: &Choice, book: &CommitmentBook) -> Action {
    let commitments = || Commitments::Booked { book, side: *choice.actor.standing.side, actor: choice.actor.entity };
    choose_with(choice, commitments)
}

fn choose_with<'c>(choice: &Choice, commitments: impl FnOnce() -> Commitments<'c>) -> Action {
    let Choice { view, units, actor, .. } = *choice;
    let ctx = view.ctx();
    let hold = Action::simple(ActionKind::Hold);
    if actor.standing.status.is_down() {
        return self_rescue(choice).unwrap_or(hold);
    }
    if let Some(action) = super::manhandle::stand_up(choice) {
        return action;
    }
    if let Some(action) = stabilise_an_ally(choice) {
        return action;
    }
    let commitments = commitments();
    if let Some(action) = restore_an_ally(choice, &commitments) {
        return action;
    }
    if let Some(action) = summon(choice) {
        return action;
    }
    if let Some(action) = parry_while_falling_back(choice) {
        return action;
    }
    let best_attack = best_offence(choice, &commitments);
    let outgoing = best_attack.as_ref().map_or(0.0, |(_, expected, _)| *expected);
    // Losing the exchange: badly hurt, and it would go down before its best target does. Never
    // twice running, so two defenders facing each other do not stall the fight for ever.
    let defended_last_round = actor.round.declared.previous == Some(ActionKind::FullDefense);
    let losing = health_share(actor) < BADLY_HURT && !defended_last_round && {
        let incoming = incoming_damage(choice, actor.standing.zone.0);
        let rounds_to_fall = remaining(actor) / incoming.max(f64::EPSILON);
        let rounds_to_win =
            best_attack.as_ref().map_or(f64::INFINITY, |(_, _, left)| left / outgoing.max(f64::EPSILON));
        incoming > 0.0 && rounds_to_fall < rounds_to_win
    };
    if losing {
        let defend = Action::simple(ActionKind::FullDefense);
        if actions::check(ctx, actor, &defend, units).is_ok() {
            return defend;
        }
    }
    if let Some(action) = super::manhandle::manhandle(choice, outgoing) {
        return action;
    }
    if let Some((action, ..)) = best_attack {
        let refined = refine_attack(choice, action);
        return step_away_after(choice, refined);
    }
    if let Some(action) = super::hindrance::shake_off(choice) {
        return action;
    }
    if let Some(action) = charge(choice) {
        return action;
    }
    approach(choice).unwrap_or(hold)
}
