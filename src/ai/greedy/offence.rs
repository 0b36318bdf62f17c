//! Choosing an attack: the offence options a unit has, the targets weighed within budget, and
//! the ranking of candidates.

use super::*;

/// An enemy the actor could strike this round, looked at once.
pub(super) struct Prospect<'a, 'c> {
    view: &'a UnitView<'c, 'c>,
    weight: f64,
    remaining: f64,
    /// What is left of it once the blows allies already declared land, as expected.
    left_after_allies: f64,
    /// Chance it is still where it stands when a melee blow that must walk to it lands.
    stay_chance: f64,
    /// Where this prospect's expected damage per option starts in the shared table.
    first: usize,
    full_defense_risk: f64,
}

/// One way the actor could do damage this round: an action kind and how far it reaches.
#[derive(Clone, Copy)]
pub(super) struct OffenceOption {
    kind: ActionKind,
    range: u32,
}

/// Every kind of damaging action the actor has to hand, with its range. Each kind is gathered by
/// a small function of its own: a new kind of offence (a shove, a grapple) adds one here, and
/// [`expected_damage`] says what it is worth against a target.
fn offence_options(actor: &UnitView) -> Vec<OffenceOption> {
    let mut options = vec![weapon_attack(actor)];
    options.extend(hostile_spells(actor));
    options.extend(throwables(actor));
    options
}

/// A blow or shot with the weapon in hand.
fn weapon_attack(actor: &UnitView) -> OffenceOption {
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).1;
    OffenceOption { kind: ActionKind::Attack, range: actions::weapon_range(weapon) }
}

/// Hostile spells the actor has the Mana for.
fn hostile_spells<'a>(actor: &'a UnitView) -> impl Iterator<Item = OffenceOption> + 'a {
    actor.magic.spells.0.iter().enumerate().filter_map(|(at, (_, spell))| {
        // Spend Mana, not Stress: Stress is what keeps the caster standing.
        (spell.effect.is_hostile() && actor.magic.mana.current >= spell.mana)
            .then_some(OffenceOption { kind: ActionKind::Cast(at), range: spell.range })
    })
}

/// Thrown items the actor still carries.
fn throwables<'a>(actor: &'a UnitView) -> impl Iterator<Item = OffenceOption> + 'a {
    actor.arms.inventory.0.iter().enumerate().filter_map(|(at, stack)| {
        (stack.item.thrown && stack.count > 0)
            .then_some(OffenceOption { kind: ActionKind::Throw(at), range: stack.item.range })
    })
}

/// A scored offensive action: its score, the damage it is expected to deal, and what is left of
/// its target.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    score: f64,
    action: Action,
    expected: f64,
    left: f64,
}

/// The actor's offence as it is weighed: the choice it belongs to, and what it works out once
/// for that choice.
pub(super) struct Offence<'a, 'c> {
    choice: Choice<'a, 'c>,
    /// How far it may walk before it strikes.
    allowance: u32,
    options: Vec<OffenceOption>,
    /// How many allies chose to move into each zone earlier in this pass, counted once and only
    /// when a zone with a capacity is asked about.
    claims: std::cell::OnceCell<std::collections::HashMap<ZoneIdx, usize>>,
}

/// The best damaging action (attack, throw or spell, with a move if needed), its expected
/// damage, and what is left of its target.
pub(super) fn best_offence(choice: &Choice, commitments: &Commitments) -> Option<(Action, f64, f64)> {
    let Choice { view, actor, .. } = *choice;
    let allowance = unit::movement_allowance(
        &view.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        actor.round.conditions,
        ActionKind::Attack,
    );
    let options = offence_options(actor);
    let claims = std::cell::OnceCell::new();
    let offence = Offence { choice: *choice, allowance, options, claims };
    let (prospects, expected_table) = offence.prospects(commitments);
    let candidates = offence.candidates(&prospects, &expected_table);
    offence.finish(best_first(candidates))
}

/// The enemies in `lists` (nearest zone first) that one choice weighs: all of them when they fit
/// in `budget`, else every one of the nearer zones that fit whole and an evenly spaced sample of
/// the first zone that does not. Where the sample starts depends on the chooser, so neighbours in
/// a crowd weigh overlapping but different targets.
/// Taken as the caller goes, with nothing collected on the way.
pub(super) fn within_budget<'a, 'l: 'a>(
    lists: &'a [&'l [Entity]],
    chooser: Entity,
    budget: usize,
) -> impl Iterator<Item = Entity> + 'a {
    let mut left = budget;
    lists
        .iter()
        .map_while(move |&list| {
            // How many of this zone are weighed: all while they fit, else what is left.
            let take = list.len().min(left);
            (left > 0).then(|| {
                left -= take;
                (list, take)
            })
        })
        .flat_map(move |(list, take)| {
            let len = list.len();
            let start = if take < len { chooser.index_u32() as usize % len } else { 0 };
            (0..take).map(move |nth| if take < len { list[(start + nth * len / take) % len] } else { list[nth] })
        })
}

/// How many enemies [`within_budget`] weighs from `lists`.
fn budgeted_count(lists: &[&[Entity]], budget: usize) -> usize {
    lists.iter().map(|list| list.len()).sum::<usize>().min(budget)
}

impl<'a, 'c> Offence<'a, 'c> {
    /// Every enemy in reach this round, with what each option would do to it, computed once
    /// into one shared table.
    fn prospects(&self, commitments: &Commitments) -> (Vec<Prospect<'a, 'c>>, Vec<f64>) {
        let Choice { view, units, actor, .. } = self.choice;
        let max_range = self.options.iter().map(|option| option.range).max().unwrap_or(0);
        let melee = !actor.arms.loadout.usable_weapon(actor.round.conditions).1.is_ranged();
        let mut alike = AlikeTargets::default();
        let targets = units.targets(view.ctx());
        // The nearest enemies first, and no more of them than the budget weighs: the lists after
        // those that fill it would not be read.
        let mut reachable: Vec<&[Entity]> = Vec::new();
        let mut listed = 0;
        // Zones nearer than the nearest unit of another side hold no enemy: passed over.
        let nearest = units.foe_distance_floor(view.ctx(), actor.standing.zone.0, actor.standing.side.0);
        for zone in view.battlefield.within_from(actor.standing.zone.0, nearest, self.allowance + max_range) {
            if listed >= MAX_PROSPECTS {
                break;
            }
            let enemies = targets.enemies(zone, actor.standing.side.0);
            if !enemies.is_empty() {
                listed += enemies.len();
                reachable.push(enemies);
            }
        }
        let count = budgeted_count(&reachable, MAX_PROSPECTS);
        // Sized once: one row of options per enemy weighed.
        let mut expected_table: Vec<f64> = Vec::with_capacity(count * self.options.len());
        let mut prospects = Vec::with_capacity(count);
        let picked = within_budget(&reachable, actor.entity, MAX_PROSPECTS);
        prospects.extend(picked.filter_map(|other| units.get(other)).map(|target| {
            // Looked up once for both of the melee risks below.
            let declared = if melee { visible_declaration(&self.choice, target.entity) } else { None };
            Prospect {
                view: target,
                weight: if target.standing.status.is_down() { DOWNED_TARGET_WEIGHT } else { 1.0 },
                remaining: remaining(target),
                left_after_allies: (remaining(target) - commitments.damage_on(target.entity))
                    .max(OVERKILL_FLOOR * remaining(target)),
                stay_chance: if melee { stay_chance(&self.choice, target, declared) } else { 1.0 },
                first: {
                    let first = expected_table.len();
                    expected_table.extend(
                        self.options
                            .iter()
                            .enumerate()
                            .map(|(at, option)| alike.expected(&self.choice, target, at, option.kind)),
                    );
                    first
                },
                full_defense_risk: if melee { full_defense_risk(&self.choice, target, declared) } else { 0.0 },
            }
        }));
        (prospects, expected_table)
    }

    /// One candidate per target and option, scored without the Repostes a move provokes (which
    /// can only lower a score).
    fn candidates(&self, prospects: &[Prospect], expected_table: &[f64]) -> Vec<Ranked> {
        let mut candidates = Vec::with_capacity(prospects.len() * self.options.len());
        for prospect in prospects {
            let expected_per_option = &expected_table[prospect.first..prospect.first + self.options.len()];
            for (&option, &expected) in self.options.iter().zip(expected_per_option) {
                if let Some(candidate) = self.candidate(prospect, option, expected) {
                    candidates.push(Ranked { candidate, at: candidates.len() });
                }
            }
        }
        candidates
    }

    /// `option` against `prospect`: from where it stands if in reach, else from a step just far
    /// enough along the shortest path; `None` when it cannot get there or it is not worth it.
    fn candidate(&self, prospect: &Prospect, option: OffenceOption, expected: f64) -> Option<Candidate> {
        let OffenceOption { kind, range } = option;
        let target_zone = prospect.view.standing.zone.0;
        // Missiles and spells fly straight and need sight; blades walk.
        let shoots = actions::is_ranged(self.choice.actor, kind);
        let move_to = self.strike_from(target_zone, shoots, range)?;
        // A shooter on a grid takes cover: the free spot in range and sight of its target
        // where the target sees least of it, if one is as near as the plain choice.
        let move_to = if shoots && self.choice.view.battlefield.is_grid() {
            self.take_cover(target_zone, range, move_to)
        } else {
            move_to
        };
        let score = self.score(prospect, kind, expected, move_to, shoots);
        (score > 0.0).then_some(Candidate {
            score,
            action: Action::new(kind, Some(prospect.view.entity), move_to),
            expected,
            left: prospect.remaining,
        })
    }

    /// Where to strike `target_zone` from with a reach of `range`: `Some(None)` from where the
    /// actor stands, `None` when no free spot in reach this round will do.
    fn strike_from(&self, target_zone: ZoneIdx, shoots: bool, range: u32) -> Option<Option<ZoneIdx>> {
        let field = &self.choice.view.battlefield;
        let here = self.choice.actor.standing.zone.0;
        let walking = field.distance(here, target_zone);
        let distance_now = if !shoots {
            walking
        } else if field.sight(here, target_zone).is_some() {
            field.line_distance(here, target_zone)
        } else {
            walking.max(range + 1)
        };
        if distance_now <= range {
            return Some(None);
        }
        if distance_now - range > self.allowance {
            return None;
        }
        match field.step_toward(here, target_zone, distance_now - range) {
            Some(zone) if !self.full(zone) => Some(Some(zone)),
            // The square on the straight way is taken: any free one in reach of the target and
            // in a walk of here, looked for from whichever of the two is the smaller circle.
            _ => {
                let in_reach = |zone: &ZoneIdx| field.distance(target_zone, *zone) <= range;
                let in_walk = |zone: &ZoneIdx| field.distance(here, *zone) <= self.allowance;
                // Both searches find the least `(walk from here, index)` among free spots in
                // reach and in the walk. From here the search stops at the first such spot, and
                // none lies nearer here than `walking - range`: when that is less than the reach,
                // the circle searched from here is the smaller one too (a shooter's circle round
                // its target is wide).
                if self.allowance < range || walking.saturating_sub(range) < range {
                    // `within` goes nearest first, ties by index: the first free spot is the
                    // nearest (lowest index among the nearest), so the search stops there. It
                    // starts `walking - range` out: a spot nearer here is more than `range` from
                    // the target, or the walk through it would be shorter than `walking`.
                    return field
                        .within_from(here, walking.saturating_sub(range), self.allowance)
                        .filter(in_reach)
                        .find(|&zone| !self.full(zone))
                        .map(Some);
                }
                field
                    .within(target_zone, range)
                    .filter(in_walk)
                    .filter(|&zone| !self.full(zone))
                    .map(|zone| (field.distance(here, zone), zone))
                    .min()
                    .map(|(_, zone)| Some(zone))
            }
        }
    }

    /// The spot a shooter should shoot from: among free spots it can reach before it strikes
    /// that keep the target in range and sight, the one where the target has the least sight of
    /// it (most cover), then the one nearest to where it stands; `planned` when nothing is better.
    fn take_cover(&self, target_zone: ZoneIdx, range: u32, planned: Option<ZoneIdx>) -> Option<ZoneIdx> {
        let Choice { view, actor, .. } = self.choice;
        let field = &view.battlefield;
        let here = actor.standing.zone.0;
        let cover_at = |zone: ZoneIdx| field.sight(target_zone, zone).map_or(Cover::Full, |cover| cover);
        let planned_spot = planned.unwrap_or(here);
        let planned_cover = cover_at(planned_spot);
        // Only more cover than the plan's replaces it.
        if planned_cover == Cover::Full {
            return planned;
        }
        let planned_walk = field.distance(here, planned_spot);
        // The most cover, then the shortest walk, then the lowest index: `within` goes nearest
        // first (ties by index), so the first spot with the most cover is the one, and a spot with
        // full cover ends the search.
        let mut best: Option<(Cover, ZoneIdx)> = None;
        // A spot whose walk from here is shorter than `line - range` is more than `range` from the
        // target in a straight line (no walk is shorter than the straight line), so the search
        // starts that far out.
        let nearest = field.line_distance(here, target_zone).saturating_sub(range);
        for zone in field.within_from(here, nearest, self.allowance) {
            // The distance first: it is the cheapest test, then the room, then the sight.
            if field.line_distance(zone, target_zone) > range || (zone != here && self.full(zone)) {
                continue;
            }
            // Sight is symmetric (`S-LOS-1`): the spot sees the target exactly when the target sees
            // the spot, so one look tells both that and the spot's cover.
            let Some(cover) = field.sight(target_zone, zone) else {
                continue;
            };
            if best.is_none_or(|(best_cover, _)| cover > best_cover) {
                best = Some((cover, zone));
                if cover == Cover::Full {
                    break;
                }
            }
        }
        let (cover, zone) = best?;
        let walk = field.distance(here, zone);
        if cover > planned_cover && walk <= planned_walk.max(1) + 1 {
            Some(zone).filter(|&zone| zone != here)
        } else {
            planned
        }
    }

    /// Whether `zone` has no room left, counting squares allies just chose in this same pass
    /// (never the enemy's: secret).
    pub(super) fn full(&self, zone: ZoneIdx) -> bool {
        let view = self.choice.view;
        view.battlefield.capacity(zone).is_some_and(|capacity| {
            let standing = view.index.count(zone);
            // A zone full of those standing there needs no look at the claims (a hashed look-up).
            standing as u32 >= capacity || {
                let claims = self.claims.get_or_init(|| ally_claims(&self.choice));
                (standing + claims.get(&zone).copied().unwrap_or(0)) as u32 >= capacity
            }
        })
    }

    /// A candidate's score before the Repostes its move provokes: the damage it does where it
    /// counts, less the risks of where it strikes from.
    pub(super) fn score(
        &self,
        prospect: &Prospect,
        kind: ActionKind,
        expected: f64,
        move_to: Option<ZoneIdx>,
        shoots: bool,
    ) -> f64 {
        let Choice { view, units, threats, actor, .. } = self.choice;
        let mut score = prospect.weight * expected.min(prospect.left_after_allies) / prospect.remaining.sqrt();
        // A blade that must walk up to an unpinned foe often finds it gone.
        if move_to.is_some() && !shoots {
            score *= prospect.stay_chance;
        }
        let standing = move_to.unwrap_or(actor.standing.zone.0);
        // Shooting or casting from inside an enemy's reach draws its attack where the ruleset
        // says so: weigh that like a Reposte.
        if shoots && view.ruleset.attack.ranged_in_melee == crate::rules::ruleset::RangedInMelee::Provokes {
            let risk: f64 = threats
                .threateners(view.ctx(), standing, *actor.standing.side)
                .filter(|threat| threat.can_react)
                .filter_map(|threat| units.get(threat.unit))
                .map(|enemy| actions::attack_odds(&view.ruleset, enemy, actor).expected)
                .sum();
            score -= REPOSTE_AVERSION * risk / remaining(actor).sqrt();
        }
        if matches!(kind, ActionKind::Attack) && view.battlefield.distance(standing, prospect.view.standing.zone.0) == 0
        {
            score -= prospect.full_defense_risk;
        }
        score
    }

    /// Best first, each candidate is finished off with the Repostes its move provokes (or turned
    /// into a defensive attack) and checked, until none left can beat the best so far.
    fn finish(&self, candidates: impl Iterator<Item = Candidate>) -> Option<(Action, f64, f64)> {
        let Choice { view, units, actor, .. } = self.choice;
        let mut walks: Vec<Walk> = Vec::new();
        let mut best: Option<Candidate> = None;
        for Candidate { score: bound, mut action, expected, left } in candidates {
            if best.as_ref().is_some_and(|best| bound <= best.score) {
                break;
            }
            let walk = self.walk(&mut walks, action.move_to);
            let mut score = bound;
            if walk.provokes {
                // A defensive attack enters threat ranges without provoking, for one count of initiative.
                if action.kind == ActionKind::Attack && actions::offered(&view.ruleset, ActionKind::DefensiveAttack) {
                    action.kind = ActionKind::DefensiveAttack;
                } else {
                    score -= walk.reposte_risk;
                }
            }
            if score > 0.0
                && best.as_ref().is_none_or(|best| score > best.score)
                && actions::check(view.ctx(), actor, &action, units).is_ok()
            {
                best = Some(Candidate { score, action, expected, left });
            }
        }
        best.map(|best| (best.action, best.expected, best.left))
    }

    /// The Repostes a walk to `move_to` provokes, worked out once per destination.
    pub(super) fn walk(&self, walks: &mut Vec<Walk>, move_to: Option<ZoneIdx>) -> Walk {
        if let Some(walk) = walks.iter().find(|walk| walk.to == move_to) {
            return *walk;
        }
        let Choice { view, units, threats, actor, .. } = self.choice;
        let walk = Action::new(ActionKind::Attack, None, move_to);
        let provoked = actions::repostes_on_path(view.ctx(), threats, actor, &walk);
        let reposte_risk = provoked
            .iter()
            .filter_map(|&enemy| units.get(enemy))
            .map(|enemy| actions::attack_odds(&view.ruleset, enemy, actor).expected)
            .sum::<f64>()
            * REPOSTE_AVERSION
            / remaining(actor).sqrt();
        let walk = Walk { to: move_to, provokes: !provoked.is_empty(), reposte_risk };
        walks.push(walk);
        walk
    }
}

/// A candidate and its place in the order candidates were made: ranked by score, equal scores
/// in that order.
pub(super) struct Ranked {
    candidate: Candidate,
    at: usize,
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.candidate.score.total_cmp(&other.candidate.score).then(other.at.cmp(&self.at))
    }
}

/// `candidates` best score first, equal scores in the order they came (as a stable sort would
/// give them), taken from a heap as asked: the search usually stops after a few. The heap is
/// made in the candidates' own list.
fn best_first(candidates: Vec<Ranked>) -> impl Iterator<Item = Candidate> {
    let mut heap = std::collections::BinaryHeap::from(candidates);
    std::iter::from_fn(move || heap.pop().map(|ranked| ranked.candidate))
}

/// Expected damage of each option against targets alike in Defense and Armour (all it depends
/// on besides the actor), worked out once per choice: a crowd wears few kinds of armour. The
/// actor's half of a weapon blow's odds is worked out once too, at the first blow weighed.
#[derive(Default)]
pub(super) struct AlikeTargets<'a> {
    pub(super) seen: Vec<((usize, i32, i32), f64)>,
    pub(super) blow: Option<actions::AttackerOdds<'a>>,
}

impl<'a> AlikeTargets<'a> {
    /// The expected damage of the choosing unit's `option`, of `kind`, against `target`.
    pub(super) fn expected(
        &mut self,
        choice: &Choice<'a, '_>,
        target: &UnitView,
        option: usize,
        kind: ActionKind,
    ) -> f64 {
        let Choice { view, actor, .. } = *choice;
        let defense =
            unit::defense_score(&view.ruleset, target.body.attributes, target.arms.defense, target.round.conditions);
        let key = (option, defense, target.arms.armour.0);
        if let Some(&(_, expected)) = self.seen.iter().find(|(seen, _)| *seen == key) {
            return expected;
        }
        // The same as `expected_damage`, with the actor's half of a blow's odds kept.
        let expected = if is_weapon_blow(kind) {
            let ruleset = &view.ruleset;
            let blow = self.blow.get_or_insert_with(|| actions::AttackerOdds::of(ruleset, actor));
            blow.against(ruleset, defense, target.arms.armour.0).expected
        } else {
            expected_damage(view, actor, target, kind)
        };
        self.seen.push((key, expected));
        expected
    }
}

/// Whether `kind` strikes with the weapon in hand, so [`actions::attack_odds`] gives its odds.
pub(super) fn is_weapon_blow(kind: ActionKind) -> bool {
    matches!(
        kind,
        ActionKind::Attack
            | ActionKind::DefensiveAttack
            | ActionKind::Aimed(_)
            | ActionKind::Charge
            | ActionKind::Execute
    )
}

/// What `unit` has visibly declared, as [`AiView::visible_declaration`] says, read from the views
/// cached for this pass rather than the world.
pub(super) fn visible_declaration(choice: &Choice, unit: bevy::prelude::Entity) -> Option<Action> {
    let Choice { view, units, just_declared, .. } = *choice;
    if view.queue.secret {
        return None;
    }
    just_declared.get(&unit).copied().or_else(|| units.get(unit).and_then(|seen| seen.round.declared.action))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(from: u32, count: u32) -> Vec<Entity> {
        (from..from + count).map(Entity::from_raw_u32).map(Option::unwrap).collect()
    }

    #[test]
    fn a_few_enemies_are_all_weighed_in_their_order() {
        let (near, far) = (units(1, 3), units(10, 4));
        let picked: Vec<Entity> = within_budget(&[&near, &far], Entity::from_raw_u32(99).unwrap(), 32).collect();
        assert_eq!(picked, [near, far].concat());
    }

    #[test]
    fn a_crowd_is_sampled_nearest_first_and_spread_by_the_chooser() {
        let (near, crowd) = (units(1, 10), units(100, 200));
        let budget = 32;
        let chooser = |index| Entity::from_raw_u32(index).unwrap();
        let first: Vec<Entity> = within_budget(&[&near, &crowd], chooser(5), budget).collect();
        assert_eq!(first.len(), budget);
        assert_eq!(first[..near.len()], near[..], "the nearest zone fits, so it is taken whole");
        let mut sampled = first[near.len()..].to_vec();
        sampled.sort();
        sampled.dedup();
        assert_eq!(sampled.len(), budget - near.len(), "the sample never repeats a unit");
        let second: Vec<Entity> = within_budget(&[&near, &crowd], chooser(6), budget).collect();
        assert_ne!(first, second, "another chooser starts its sample elsewhere");
    }
}
