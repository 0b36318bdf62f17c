//! Reach and target rules: how far an action carries, what its target must be, and whether the
//! actor may move only the short step this turn.

use bevy::prelude::*;

use super::{ActionContext, IllegalAction};
use crate::battlefield::{Battlefield, UNREACHABLE, ZoneIdx};
use crate::rules::components::*;
use crate::rules::equipment::Weapon;
use crate::rules::unit::{self, UnitView};

/// What an action's target must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetRule {
    /// No target.
    None,
    /// An enemy within `range` zones.
    Enemy { range: u32, optional: bool },
    /// An ally (or oneself) within `range` zones.
    Ally { range: u32 },
    /// A fallen ally, Close.
    FallenAlly,
}

/// Intimidation carries to Nearby zones: a shout, not a whisper.
const INTIMIDATION_RANGE: u32 = 1;

/// A held action may wait for a foe this many of the holder's Speeds beyond its weapon's reach:
/// as far as a foe running (or charging) as fast could come from and end its move in reach.
const HELD_WATCH_SPEEDS: u32 = 2;

/// How an action reaches its target: the one answer that declaration, resolution, the AIs and
/// the window all ask, so they never disagree on what is in reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Who may be targeted, and how far away.
    pub rule: TargetRule,
    /// Whether it flies (a missile, a spell, a shout): it needs sight and measures the straight
    /// line. Otherwise it walks, and walls lengthen the way.
    pub ranged: bool,
}

impl Reach {
    /// How far the target may be, in zones (squares on a grid); `None` for an action without one.
    pub fn range(&self, battlefield: &Battlefield) -> Option<u32> {
        match self.rule {
            TargetRule::Enemy { range, .. } | TargetRule::Ally { range } => Some(range),
            TargetRule::FallenAlly => Some(battlefield.melee_reach(0)),
            TargetRule::None => None,
        }
    }

    /// The distance from `from` to `to` as this action measures it; `None` when a ranged action
    /// cannot see there or nothing walks there.
    pub fn distance(&self, battlefield: &Battlefield, from: ZoneIdx, to: ZoneIdx) -> Option<u32> {
        let distance = if self.ranged {
            battlefield.sight(from, to)?;
            battlefield.line_distance(from, to)
        } else {
            battlefield.distance(from, to)
        };
        (distance != UNREACHABLE).then_some(distance)
    }

    /// Whether a target in `to` is in reach from `from`.
    pub fn reaches(&self, battlefield: &Battlefield, from: ZoneIdx, to: ZoneIdx) -> bool {
        let range = self.range(battlefield);
        self.distance(battlefield, from, to).is_some_and(|distance| range.is_some_and(|range| distance <= range))
    }
}

/// How `actor` reaches the target of `kind` (an error when it has nothing to do it with).
pub fn reach(actor: &UnitView, kind: ActionKind) -> Result<Reach, IllegalAction> {
    Ok(Reach { rule: target_rule(actor, kind)?, ranged: is_ranged(actor, kind) })
}

/// Whether `kind` flies to its target: spells, items, throws and shouts always, attacks when
/// the weapon in hand is a missile weapon.
pub fn is_ranged(actor: &UnitView, kind: ActionKind) -> bool {
    match kind {
        ActionKind::Cast(_) | ActionKind::UseItem(_) | ActionKind::Throw(_) | ActionKind::Intimidate => true,
        ActionKind::Attack
        | ActionKind::Aimed(_)
        | ActionKind::Swarm
        | ActionKind::DefensiveAttack
        | ActionKind::Execute => actor.arms.loadout.usable_weapon(actor.round.conditions).1.is_ranged(),
        ActionKind::FullDefense
        | ActionKind::Move
        | ActionKind::Hold
        | ActionKind::Stabilize
        | ActionKind::Disengage
        | ActionKind::Charge
        | ActionKind::Shove
        | ActionKind::Grapple
        | ActionKind::StandUp
        | ActionKind::Screen
        | ActionKind::GoProne
        | ActionKind::BreakFree
        | ActionKind::KnockDown
        | ActionKind::LetGo
        | ActionKind::HoldAction
        | ActionKind::Delay
        | ActionKind::Drag
        | ActionKind::Hurl
        | ActionKind::ShakeOff => false,
    }
}

pub(crate) fn target_rule(actor: &UnitView, kind: ActionKind) -> Result<TargetRule, IllegalAction> {
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).1;
    let weapon_range = weapon_range(weapon);
    Ok(match kind {
        ActionKind::Attack | ActionKind::Aimed(_) | ActionKind::Swarm => {
            TargetRule::Enemy { range: weapon_range, optional: false }
        }
        // A charge may end in a throw (`S-SPEC-1`): `check_charge_throw` sees to the rest.
        ActionKind::Charge => TargetRule::Enemy { range: weapon.reach.max(throw_reach(actor)), optional: false },
        ActionKind::Shove | ActionKind::KnockDown => TargetRule::Enemy { range: weapon.reach, optional: false },
        // A missile weapon executes at its range, where the ruleset allows it (`S-EXEC-1`).
        ActionKind::Execute => TargetRule::Enemy { range: weapon_range, optional: false },
        // Grappling is done with bare hands.
        ActionKind::Grapple => TargetRule::Enemy { range: actor.arms.loadout.unarmed.reach, optional: false },
        // A held unit struggles against whoever holds it: the grappler needs no naming.
        // A grappler drags or hurls the one foe it holds: it needs no naming either. A hindrance
        // is shaken off by its sufferer alone.
        ActionKind::StandUp
        | ActionKind::GoProne
        | ActionKind::BreakFree
        | ActionKind::LetGo
        | ActionKind::Drag
        | ActionKind::Hurl
        | ActionKind::ShakeOff => TargetRule::None,
        // A held action may wait for a foe that could come into reach in its turn (`S-ACT-2`).
        ActionKind::HoldAction => TargetRule::Enemy {
            range: weapon_range.saturating_add(actor.body.speed.0.saturating_mul(HELD_WATCH_SPEEDS)),
            optional: true,
        },
        // A screener stands where its bare hands reach the ward: beside it (`S-SPEC-1`).
        ActionKind::Screen => TargetRule::Ally { range: actor.arms.loadout.unarmed.reach },
        ActionKind::DefensiveAttack => TargetRule::Enemy { range: weapon_range, optional: true },
        ActionKind::FullDefense | ActionKind::Move | ActionKind::Hold | ActionKind::Disengage | ActionKind::Delay => {
            TargetRule::None
        }
        ActionKind::Cast(at) => {
            let (_, spell) = actor.magic.spells.0.get(at).ok_or(IllegalAction::NothingToUse)?;
            if spell.effect.is_hostile() {
                TargetRule::Enemy { range: spell.range, optional: false }
            } else {
                TargetRule::Ally { range: spell.range }
            }
        }
        ActionKind::UseItem(at) => {
            let stack = actor
                .arms
                .inventory
                .0
                .get(at)
                .filter(|stack| stack.count > 0 && !stack.item.thrown)
                .ok_or(IllegalAction::NothingToUse)?;
            if stack.item.effect.is_hostile() {
                TargetRule::Enemy { range: stack.item.range, optional: false }
            } else {
                TargetRule::Ally { range: stack.item.range }
            }
        }
        ActionKind::Throw(at) => {
            let stack = actor
                .arms
                .inventory
                .0
                .get(at)
                .filter(|stack| stack.count > 0 && stack.item.thrown)
                .ok_or(IllegalAction::NothingToUse)?;
            TargetRule::Enemy { range: stack.item.range, optional: false }
        }
        ActionKind::Stabilize => TargetRule::FallenAlly,
        ActionKind::Intimidate => TargetRule::Enemy { range: INTIMIDATION_RANGE, optional: false },
    })
}

/// The farthest any throwable item `actor` carries flies; 0 with none.
fn throw_reach(actor: &UnitView) -> u32 {
    actor
        .arms
        .inventory
        .0
        .iter()
        .filter(|stack| stack.count > 0 && stack.item.thrown)
        .map(|stack| stack.item.range)
        .max()
        .unwrap_or(0)
}

/// The first throwable item `actor` carries that flies `distance`, by its place in the inventory:
/// what a charge at a foe beyond melee reach throws (`S-SPEC-1`).
pub fn charge_throw_item(actor: &UnitView, distance: u32) -> Option<usize> {
    actor.arms.inventory.0.iter().position(|stack| stack.count > 0 && stack.item.thrown && stack.item.range >= distance)
}

/// Zones a weapon's attack reaches.
pub fn weapon_range(weapon: &Weapon) -> u32 {
    weapon.range.unwrap_or(weapon.reach)
}

/// Whether `actor` may move no more than the 5-ft step this turn on a grid, so that its move
/// comes after its action (`C-MOVE-1`, where the ruleset splits movement). A zone is more
/// than 5 ft, so this never holds on zones.
pub fn short_mover(ctx: ActionContext, actor: &UnitView, action: &Action) -> bool {
    let rules = ctx.ruleset;
    rules.movement.split_move
        && ctx.battlefield.is_grid()
        && rules.reposte.free_step > 0
        && action.kind != ActionKind::Move
        && unit::action_allowance(rules, *actor.body.speed, *actor.standing.status, actor.round.conditions, action)
            <= rules.reposte.free_step
}
