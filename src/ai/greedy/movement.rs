//! Moving: engagement and staying chances, approaching the nearest enemies, guarded walks,
//! stepping away and charging.

use super::*;

/// Whether `target` has a fighting foe of `side` within its weapon's reach: pinned there, it has
/// no reason to walk away before a blow lands.
pub(in crate::ai) fn engaged(
    view: &AiView,
    units: &ViewCache,
    target: &UnitView,
    side: crate::rules::components::SideIndex,
) -> bool {
    let reach = actions::weapon_range(target.arms.loadout.usable_weapon(target.round.conditions).1);
    view.battlefield.within(target.standing.zone.0, reach).any(|zone| units.has_fighting(view.ctx(), zone, side))
}

/// Chance a melee target is still in reach when the blow falls: certain when its (visible)
/// declaration says it stays, or when it is pinned by one of ours; otherwise it may well walk off.
/// `declared` is the target's visible declaration ([`visible_declaration`]).
pub(super) fn stay_chance(choice: &Choice, target: &UnitView, declared: Option<Action>) -> f64 {
    if let Some(action) = declared {
        return if action.move_to.is_none_or(|to| to == target.standing.zone.0) { 1.0 } else { UNENGAGED_STAY_CHANCE };
    }
    if !unit::is_fighting(*target.standing.status, target.round.conditions)
        || engaged(choice.view, choice.units, target, *choice.actor.standing.side)
    {
        1.0
    } else {
        UNENGAGED_STAY_CHANCE
    }
}

/// A walk to a spot to strike from, and the Repostes it would provoke.
#[derive(Clone, Copy)]
pub(super) struct Walk {
    pub(super) to: Option<ZoneIdx>,
    pub(super) provokes: bool,
    /// Their expected damage, weighed against what the actor has left.
    pub(super) reposte_risk: f64,
}

/// Moves toward the nearest fighting enemy; attacks defensively on the way when the move
/// enters a threat range, so it provokes no Reposte.
pub(super) fn approach(choice: &Choice) -> Option<Action> {
    let Choice { view, actor, .. } = *choice;
    let allowance = unit::action_allowance(
        &view.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        actor.round.conditions,
        &Action::simple(ActionKind::Move),
    );
    if allowance == 0 {
        return None;
    }
    let enemy_zones = nearest_enemy_zones(choice);
    // Distances are symmetric (every way between zones goes both ways): read from the enemies'
    // rows of the table, a few rows for all the squares around, not a row per square.
    let nearest = |zone: ZoneIdx| {
        enemy_zones.iter().map(|&enemy| view.battlefield.distance(enemy, zone)).min().unwrap_or(UNREACHABLE)
    };
    let here = nearest(actor.standing.zone.0);
    let mut closer: Vec<(u32, u32, ZoneIdx)> = view
        .battlefield
        .within(actor.standing.zone.0, allowance)
        .filter(|&zone| zone != actor.standing.zone.0)
        .filter(|&zone| view.battlefield.has_room(&view.index, zone))
        .map(|zone| (nearest(zone), view.battlefield.distance(actor.standing.zone.0, zone), zone))
        .filter(|&(distance, ..)| distance < here)
        .collect();
    // Difficult ground costs double on a grid: a square in walking distance may be out of a
    // move's reach. A path is worked out only for the best squares, best first, until one is.
    closer.sort_unstable();
    let destination = closer
        .into_iter()
        .find(|&(.., zone)| actions::move_cost(&view.battlefield, actor, actor.standing.zone.0, zone) <= allowance)?
        .2;
    guarded_walk(choice, Action::new(ActionKind::Move, None, Some(destination)))
}

/// The zones holding a fighting enemy nearest the unit choosing, all at the same walking
/// distance: found nearest first from where it stands.
fn nearest_enemy_zones(choice: &Choice) -> Vec<ZoneIdx> {
    let Choice { view, units, actor, .. } = *choice;
    let ctx = view.ctx();
    let has_enemy = |zone: ZoneIdx| {
        // The side and standing suffice: no need to view every ally on the way.
        view.index.occupants(zone).iter().any(|&other| units.is_fighting_foe(other, *actor.standing.side))
    };
    // `within` goes nearest first: the first zone with an enemy is the nearest, and the others
    // as near follow it up to the end of `within` that distance. No distance is read on the way:
    // on a 64x64 grid the table is 64 MiB, and a read a square was most of this search.
    let mut enemy_zones: Vec<ZoneIdx> = Vec::new();
    // Zones nearer than the nearest unit of another side hold no enemy: counted as looked at.
    let nearest_foe = units.foe_distance_floor(ctx, actor.standing.zone.0, actor.standing.side.0);
    let mut around = view.battlefield.within_from(actor.standing.zone.0, nearest_foe, UNREACHABLE - 1);
    let mut looked =
        nearest_foe.checked_sub(1).map_or(0, |nearer| view.battlefield.within(actor.standing.zone.0, nearer).count());
    if let Some(first) = around.by_ref().inspect(|_| looked += 1).find(|&zone| has_enemy(zone)) {
        let as_near = view
            .battlefield
            .within(actor.standing.zone.0, view.battlefield.distance(actor.standing.zone.0, first))
            .count();
        enemy_zones.push(first);
        enemy_zones.extend(around.take(as_near.saturating_sub(looked)).filter(|&zone| has_enemy(zone)));
    }
    enemy_zones
}

/// `step` as it is when it provokes no Reposte on the way, else as a defensive attack or a
/// disengage if the rules allow one of them, else as it is if legal at all.
fn guarded_walk(choice: &Choice, step: Action) -> Option<Action> {
    let Choice { view, units, threats, actor, .. } = *choice;
    let ctx = view.ctx();
    if actions::repostes_on_path(ctx, threats, actor, &step).is_empty() {
        return Some(step);
    }
    // Walk past without provoking: a defensive attack (seed 000) or disengaging first.
    for kind in [ActionKind::DefensiveAttack, ActionKind::Disengage] {
        let guarded = Action { kind, ..step };
        if actions::check(ctx, actor, &guarded, units).is_ok() {
            return Some(guarded);
        }
    }
    actions::check(ctx, actor, &step, units).is_ok().then_some(step)
}

/// Where the ruleset splits movement (`C-MOVE-1`), a unit that would rather not end its turn in
/// a foe's melee reach (it shoots or casts, or it is badly hurt) walks out of every foe's reach
/// after its action with the movement it has left: to the nearest such place, and only when the
/// walk provokes no attack (the foes it leaves have spent their attack of opportunity, perhaps on
/// the shot or spell itself). Otherwise the action is left as it was.
pub(in crate::ai) fn step_away_after(choice: &Choice, action: Action) -> Action {
    let Choice { view, units, threats, actor, .. } = *choice;
    let (ctx, field, ruleset) = (view.ctx(), &view.battlefield, &view.ruleset);
    if !ruleset.movement.split_move
        || action.move_after.is_some()
        || !actions::may_move_after(ruleset, actor, action.kind)
    {
        return action;
    }
    let ranged = actions::is_ranged(actor, action.kind);
    if !ranged && health_share(actor) >= BADLY_HURT {
        return action;
    }
    let side = *actor.standing.side;
    let standing = actions::standing_after(actor, action.move_to);
    if threats.threateners(ctx, standing, side).next().is_none() {
        return action;
    }
    let allowance =
        unit::action_allowance(ruleset, *actor.body.speed, *actor.standing.status, actor.round.conditions, &action);
    let left = allowance.saturating_sub(actions::move_cost(field, actor, actor.standing.zone.0, standing));
    if left == 0 {
        return action;
    }
    // A shot or spell in reach draws each reacting foe's one attack of opportunity first (`C-AOO-1`).
    let spent_on_action: Vec<bevy::prelude::Entity> = if ranged
        && ruleset.attack.ranged_in_melee == RangedInMelee::Provokes
        && ruleset.reposte.reactions_per_round <= 1
    {
        threats.threateners(ctx, standing, side).filter(|threat| threat.can_react).map(|threat| threat.unit).collect()
    } else {
        Vec::new()
    };
    let mut spots: Vec<(u32, ZoneIdx)> = field
        .within(standing, left)
        .filter(|&zone| zone != standing && threats.threateners(ctx, zone, side).next().is_none())
        .map(|zone| (actions::move_cost(field, actor, standing, zone), zone))
        .filter(|&(cost, _)| cost <= left)
        .collect();
    spots.sort_unstable();
    spots
        .into_iter()
        .find_map(|(_, zone)| {
            let provoked = actions::repostes_between(ctx, threats, actor, action.kind, (standing, zone), false);
            if provoked.iter().any(|foe| !spent_on_action.contains(foe)) {
                return None;
            }
            let split = Action { move_after: Some(zone), ..action };
            actions::check(ctx, actor, &split, units).is_ok().then_some(split)
        })
        .unwrap_or(action)
}

/// A charge at the best enemy a walk cannot reach but a straight double run can (`S-SPEC-1`).
pub(super) fn charge(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    if !actions::offered(&view.ruleset, ActionKind::Charge) {
        return None;
    }
    let ctx = view.ctx();
    let allowance = unit::movement_allowance(
        &view.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        actor.round.conditions,
        ActionKind::Charge,
    );
    let reach = actor.arms.loadout.usable_weapon(actor.round.conditions).1.reach;
    let mut best: Option<(f64, Action)> = None;
    // An army's enemies are mostly alike: their odds are worked out once per kind.
    let mut alike = AlikeTargets::default();
    // The free spots in reach of a foe standing in `target_zone` that a charge gets to.
    let spots = |target_zone: ZoneIdx| {
        view.battlefield
            .within(target_zone, reach)
            .filter(|&spot| spot != actor.standing.zone.0)
            .filter(|&spot| view.battlefield.has_room(&view.index, spot))
            .map(|spot| (view.battlefield.distance(actor.standing.zone.0, spot), spot))
            .filter(|&(distance, _)| distance <= allowance)
    };
    // Zones nearer than the nearest unit of another side hold no foe: passed over.
    let nearest = units.foe_distance_floor(ctx, actor.standing.zone.0, actor.standing.side.0);
    for zone in view.battlefield.within_from(actor.standing.zone.0, nearest, allowance + reach) {
        // Whether the zone has a free spot to charge a foe standing there from, asked once and
        // only for a unit not known to be an ally.
        let mut has_spot = None;
        for &other in view.index.occupants(zone) {
            // Allies are passed over without viewing them, and so, before its brief is read, is
            // a foe with no free spot to charge it from (on a grid, a reach of 0 leaves only its
            // own square, which it fills): it could never be the charge. The index files each
            // unit under the zone it stands in, so this zone is where it would be charged.
            if units.seen_ally(other, *actor.standing.side)
                || !*has_spot.get_or_insert_with(|| spots(zone).next().is_some())
            {
                continue;
            }
            // The fallen are passed over too.
            if units.fighting_foe_at(other, *actor.standing.side).is_none() {
                continue;
            }
            let Some(target) = units.get(other) else { continue };
            let expected = alike.expected(choice, target, 0, ActionKind::Attack);
            if best.as_ref().is_some_and(|(score, _)| *score >= expected) {
                continue;
            }
            let spot = spots(target.standing.zone.0)
                .filter(|&(_, spot)| {
                    let action = Action::new(ActionKind::Charge, Some(other), Some(spot));
                    actions::check(ctx, actor, &action, units).is_ok()
                })
                .min();
            if let Some((_, spot)) = spot {
                best = Some((expected, Action::new(ActionKind::Charge, Some(other), Some(spot))));
            }
        }
    }
    best.map(|(_, action)| action)
}
