//! Estimates behind the choices: full-defence risk, expected damage, casting chance, and
//! refining an attack's aim.

use super::*;

/// The Reposte a target in (visibly declared) full defense would answer a melee attack with.
/// `declared` is the target's visible declaration ([`visible_declaration`]).
pub(super) fn full_defense_risk(choice: &Choice, target: &UnitView, declared: Option<Action>) -> f64 {
    let Choice { view, actor, .. } = *choice;
    let in_full_defense = declared.is_some_and(|action| action.kind == ActionKind::FullDefense);
    if in_full_defense {
        REPOSTE_AVERSION * actions::attack_odds(&view.ruleset, target, actor).expected / remaining(actor).sqrt()
    } else {
        0.0
    }
}

/// The damage `actor` may expect to deal `target` in one action of `kind`.
pub(in crate::ai) fn expected_damage(view: &AiView, actor: &UnitView, target: &UnitView, kind: ActionKind) -> f64 {
    match kind {
        kind if is_weapon_blow(kind) => actions::attack_odds(&view.ruleset, actor, target).expected,
        ActionKind::Cast(at) => actor.magic.spells.0.get(at).map_or(0.0, |(_, spell)| {
            let chance = cast_chance(view, actor.body.skills.spellcasting, spell.tn);
            match spell.effect {
                Effect::Damage { dice, .. } => chance * dice.mean(),
                _ => 0.0,
            }
        }),
        ActionKind::Throw(at) => {
            let Some(weapon) = actor.arms.inventory.0.get(at).and_then(|stack| stack.item.as_thrown_weapon()) else {
                return 0.0;
            };
            let dice = actions::damage_dice(&view.ruleset, actor, &weapon, true);
            let defense = unit::defense_score(
                &view.ruleset,
                target.body.attributes,
                target.arms.defense,
                target.round.conditions,
            );
            let bonus = actions::roll_bonus(&view.ruleset, actor, &weapon, true);
            actions::odds_against(&view.ruleset, bonus, &weapon, dice, defense, target.arms.armour.0).expected
        }
        _ => 0.0,
    }
}

/// Chance the casting check reaches `tn`.
pub(super) fn cast_chance(view: &AiView, skill: i32, tn: i32) -> f64 {
    let die = view.ruleset.spells.casting_die;
    let sides = die.sides.max(1) as i32;
    let needed = tn - skill - die.modifier;
    ((sides - needed + 1).clamp(0, sides)) as f64 / sides as f64
}

/// Refines a chosen weapon attack with what the ruleset offers: an aim (`A-AIM-1`), a swarm
/// that sets up a later ally's blow (`S-SPEC-1`), or a charge when the target is out of a walk's
/// reach.
pub(in crate::ai) fn refine_attack(choice: &Choice, action: Action) -> Action {
    let Choice { view, units, actor, .. } = *choice;
    let ctx = view.ctx();
    let Some(target) = action.target.and_then(|target| units.get(target)) else {
        return action;
    };
    if action.kind != ActionKind::Attack {
        return action;
    }
    // An unsuspecting foe in reach: an execution attack (`S-EXEC-1`).
    if target.round.surprised {
        let execution = Action { kind: ActionKind::Execute, ..action };
        if actions::check(ctx, actor, &execution, units).is_ok() {
            return execution;
        }
    }
    let odds = actions::attack_odds(&view.ruleset, actor, target);
    if let Some(aiming) = &view.ruleset.attack.aiming
        && actions::offered(&view.ruleset, ActionKind::Aimed(AimPoint::CentreMass))
    {
        // A wound needs 6+ net damage; when the weapon can wound and usually hits, go for the
        // most telling spot, otherwise take centre mass's surer hit.
        let aim = if odds.damage_max < aiming.wound_threshold || odds.hit < AIM_FOR_WOUNDS_HIT_CHANCE {
            AimPoint::CentreMass
        } else if target.body.wounds.current <= aiming.fatal_damage {
            AimPoint::Fatal
        } else {
            AimPoint::Slowing
        };
        let aimed = Action { kind: ActionKind::Aimed(aim), ..action };
        if actions::check(ctx, actor, &aimed, units).is_ok() {
            return aimed;
        }
    }
    if odds.hit < SWARM_BELOW_HIT_CHANCE && actions::offered(&view.ruleset, ActionKind::Swarm) {
        // Another ally who acts later this round and can reach the target takes the boosted blow.
        let my_turn = actor.round.initiative.round.unwrap_or(i32::MAX);
        let reach = actions::weapon_range(actor.arms.loadout.usable_weapon(actor.round.conditions).1);
        let later_ally = view.battlefield.within(target.standing.zone.0, reach.max(1)).any(|zone| {
            view.index.occupants(zone).iter().any(|&other| {
                units.get(other).is_some_and(|ally| {
                    ally.entity != actor.entity
                        && ally.standing.side == actor.standing.side
                        && unit::is_fighting(*ally.standing.status, ally.round.conditions)
                        && ally.round.initiative.round.is_some_and(|turn| turn > my_turn)
                })
            })
        });
        let swarm = Action { kind: ActionKind::Swarm, ..action };
        let full = view.state.swarm_full(&view.ruleset, target.entity, actor.standing.side.0);
        if later_ally && !full && actions::check(ctx, actor, &swarm, units).is_ok() {
            return swarm;
        }
    }
    action
}
