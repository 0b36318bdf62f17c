//! Looking after allies and oneself: parrying while falling back, rescue, stabilising and
//! restoring allies, healing expected and damage incoming.

use super::*;

/// Expected Stress or Wound Points a restoring spell or item brings back.
pub(super) fn expected_healing(view: &AiView, actor: &UnitView, kind: ActionKind) -> f64 {
    let restore = |effect: &Effect| match effect {
        Effect::RestoreStress { dice } | Effect::RestoreWounds { dice } => dice.mean(),
        _ => 0.0,
    };
    match kind {
        ActionKind::Cast(at) => actor.magic.spells.0.get(at).map_or(0.0, |(_, spell)| {
            cast_chance(view, actor.body.skills.spellcasting, spell.tn) * restore(&spell.effect)
        }),
        ActionKind::UseItem(at) => actor.arms.inventory.0.get(at).map_or(0.0, |stack| restore(&stack.item.effect)),
        _ => 0.0,
    }
}

/// A unit falling back after failed morale parries instead of attacking while a foe can reach
/// it this round (`C-WDRAW-1`: "you can parry instead of attack").
pub(super) fn parry_while_falling_back(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    if !actor.round.conditions.falling_back || incoming_damage(choice, actor.standing.zone.0) <= 0.0 {
        return None;
    }
    let parry = Action::simple(ActionKind::FullDefense);
    actions::check(view.ctx(), actor, &parry, units).is_ok().then_some(parry)
}

/// A downed unit drinks a restoring draught if it has one (the Wound Point it costs is worth it).
pub(super) fn self_rescue(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    actor.arms.inventory.0.iter().enumerate().find_map(|(at, stack)| {
        let heals = matches!(stack.item.effect, Effect::RestoreWounds { .. }) && !stack.item.thrown && stack.count > 0;
        let action = Action::new(ActionKind::UseItem(at), Some(actor.entity), None);
        (heals && actions::check(view.ctx(), actor, &action, units).is_ok()).then_some(action)
    })
}

/// A healer Close to a fallen ally tries to stabilise it, when it has the skill for it.
pub(super) fn stabilise_an_ally(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    if actor.body.skills.heal <= 0 {
        return None;
    }
    view.index.occupants(actor.standing.zone.0).iter().find_map(|&other| {
        // Only a fallen unit can be stabilised (`check_target`): the standing ones are passed
        // over on the cache's brief, without checking or viewing them.
        if !units.side_and_status(other).is_some_and(|(_, status)| status.is_down()) {
            return None;
        }
        let action = Action::new(ActionKind::Stabilize, Some(other), None);
        actions::check(view.ctx(), actor, &action, units).is_ok().then_some(action)
    })
}

/// Casts or uses a restoring spell or item on the most worn-down ally in reach.
pub(super) fn restore_an_ally(choice: &Choice, commitments: &Commitments) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let mut kinds: Vec<ActionKind> = Vec::new();
    for (at, (_, spell)) in actor.magic.spells.0.iter().enumerate() {
        if !spell.effect.is_hostile() && !spell.effect.summons() && actor.magic.mana.current >= spell.mana {
            kinds.push(ActionKind::Cast(at));
        }
    }
    for (at, stack) in actor.arms.inventory.0.iter().enumerate() {
        if !stack.item.effect.is_hostile() && !stack.item.thrown {
            kinds.push(ActionKind::UseItem(at));
        }
    }
    if kinds.is_empty() {
        return None;
    }
    let mut best: Option<(f64, Action)> = None;
    let nearby: Vec<&[Entity]> =
        view.battlefield.within(actor.standing.zone.0, 1).map(|zone| view.index.occupants(zone)).collect();
    for other in within_budget(&nearby, actor.entity, MAX_NEIGHBOURS) {
        // Enemies, the fallen and those off the field are passed over on the cache's brief,
        // without viewing them.
        let Some((side, status)) = units.side_and_status(other) else {
            continue;
        };
        if side != actor.standing.side.0 || !status.on_field() || status.is_down() {
            continue;
        }
        let Some(ally) = units.get(other) else {
            continue;
        };
        // One-pool rulesets heal hit points: judge by the whole of what is left.
        let share = if ally.body.stress.max > 0 {
            ally.body.stress.current as f64 / ally.body.stress.max as f64
        } else {
            health_share(ally)
        };
        if share >= HEAL_STRESS_SHARE {
            continue;
        }
        // Healing beyond what it is missing is wasted: leave it to the allies already on it.
        let missing = if ally.body.stress.max > 0 {
            ally.body.stress.max - ally.body.stress.current
        } else {
            ally.body.wounds.max - ally.body.wounds.current
        };
        if commitments.healing_on(other) >= HEALING_ENOUGH * missing.max(0) as f64 {
            continue;
        }
        for &kind in &kinds {
            let action = Action::new(kind, Some(other), None);
            if actions::check(view.ctx(), actor, &action, units).is_ok()
                && best.as_ref().is_none_or(|(worst, _)| share < *worst)
            {
                best = Some((share, action));
            }
        }
    }
    best.map(|(_, action)| action)
}

/// Expected damage per round the enemies that can reach `zone` would deal to the unit choosing.
pub(super) fn incoming_damage(choice: &Choice, zone: ZoneIdx) -> f64 {
    let Choice { view, units, actor, .. } = *choice;
    const FURTHEST_THREAT: u32 = 3;
    let around: Vec<&[Entity]> =
        view.battlefield.within(zone, FURTHEST_THREAT).map(|here| view.index.occupants(here)).collect();
    let crowd: usize = around.iter().map(|units| units.len()).sum();
    let mut total = 0.0;
    let mut weighed = 0;
    for other in within_budget(&around, actor.entity, MAX_NEIGHBOURS) {
        weighed += 1;
        let Some(enemy) = units.get(other) else {
            continue;
        };
        let distance = view.battlefield.distance(enemy.standing.zone.0, zone);
        if enemy.standing.side == actor.standing.side
            || !unit::is_fighting(*enemy.standing.status, enemy.round.conditions)
        {
            continue;
        }
        let weapon = enemy.arms.loadout.usable_weapon(enemy.round.conditions).1;
        let reach = actions::weapon_range(weapon)
            + unit::movement_allowance(
                &view.ruleset,
                *enemy.body.speed,
                *enemy.standing.status,
                enemy.round.conditions,
                ActionKind::Attack,
            );
        if reach >= distance {
            total += actions::attack_odds(&view.ruleset, enemy, actor).expected;
        }
    }
    // A sampled crowd stands for the whole of it.
    if weighed < crowd { total * crowd as f64 / weighed as f64 } else { total }
}

/// Calls a waiting summoned unit while a slot is free, or conjures new ones while none of its
/// summons is on the field: more bodies beat one more blow (`A-SUMM-1`).
pub(super) fn summon(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let mine = |wanted: fn(&Status) -> bool| {
        view.summoned.iter().any(|(summoned, status)| summoned.summoner == actor.entity && wanted(status))
    };
    let waiting = mine(|status| *status == Status::Reserve);
    let fielded = mine(|status| status.on_field());
    actor.magic.spells.0.iter().enumerate().find_map(|(at, (_, spell))| {
        let wanted = match spell.effect {
            Effect::Summon => waiting,
            Effect::Conjure { .. } => !fielded,
            _ => false,
        };
        let action = Action::new(ActionKind::Cast(at), Some(actor.entity), None);
        (wanted && actions::check(view.ctx(), actor, &action, units).is_ok()).then_some(action)
    })
}
