//! Movement in the resolve stage: walking step by step, the free attacks a move or a shot
//! provokes (`W-DECL-3/4`, `Z-DISEN-1`, `S-AOO-1`, `A-FREE-1`, `C-AOO-1`), allies that cover a
//! retreat, and where a shove pushes.

use crate::rules::log::LostReason;
use bevy::prelude::*;

use super::Resolver;
use super::attack::AttackRequest;
use crate::battlefield::ZoneIdx;
use crate::rules::actions;
use crate::rules::components::*;
use crate::rules::log::line;
use crate::rules::log::{AttackKind, LogEvent};
use crate::rules::ruleset::{RangedInMelee, ReposteRules};
use crate::rules::state::Slot;
use crate::rules::unit;

/// Steps a unit has walked inside each enemy's reach this turn.
pub(super) type InsideSteps = Vec<(Entity, u32)>;

/// One unit's walk: what it watches for at each step.
struct Walk {
    /// Where it stands now.
    here: ZoneIdx,
    /// Its side.
    side: SideIndex,
    /// Its status when it set off: any change stops the walk.
    status_before: Status,
    /// The ruleset's free-attack rules.
    rules: ReposteRules,
    /// Enemies whose threat range it enters may Reposte.
    entering: bool,
    /// Enemies whose reach it leaves get a free attack.
    leaving: bool,
    /// Whether anyone is watching at all (not on a free step).
    watched: bool,
    /// Steps walked so far inside each enemy's reach.
    inside_steps: InsideSteps,
}

impl Resolver<'_, '_> {
    /// Moves a unit step by step. Enemies whose threat range it enters may Reposte at once
    /// (`W-DECL-3/4`); in rulesets that say so, enemies whose reach it leaves, or inside whose
    /// reach it walks too far, get a free attack unless it disengaged (`Z-DISEN-1`, `S-AOO-1`,
    /// `A-FREE-1`, `C-AOO-1`). Returns whether it is still able to act, and the steps it walked
    /// inside each enemy's reach, which a move after its action goes on counting (`C-MOVE-1`).
    pub(super) fn perform_move(&mut self, slot: &Slot, to: ZoneIdx) -> (bool, InsideSteps) {
        // The 5-ft step is a lone shift: not when the turn moves again after acting (`C-MOVE-1`).
        self.walk(slot, to, slot.action.move_after.is_none(), Vec::new())
    }

    /// The move after the action of a split move (`C-MOVE-1`): from where the unit stands once
    /// its action is done (pushed, it sets off from where it landed), with what is left of its
    /// movement after the move before the action (`walked`, measured as a single move is).
    /// Nothing happens when the unit can no longer act or the destination is now beyond what is
    /// left; it provokes as any move does, and is never the 5-ft step. The two legs are one move:
    /// the steps walked inside a foe's reach before the action count on (`inside`).
    pub(super) fn move_after_acting(&mut self, slot: &Slot, walked: u32, inside: InsideSteps) {
        let Some(to) = slot.action.move_after else {
            return;
        };
        let round = self.round();
        let Some(view) = self.unit(slot.unit, "moving it after its action") else {
            return;
        };
        if !unit::may_act(*view.standing.status, view.round.conditions, view.round.surprised, round)
            || view.standing.zone.0 == to
        {
            return;
        }
        let allowance = unit::action_allowance(
            &self.ruleset,
            *view.body.speed,
            *view.standing.status,
            view.round.conditions,
            &slot.action,
        );
        let here = view.standing.zone.0;
        let reachable = self.battlefield.distance(here, to) != crate::battlefield::UNREACHABLE;
        if !reachable || walked + actions::move_cost(&self.battlefield, &view, here, to) > allowance {
            return;
        }
        self.walk(slot, to, false, inside);
    }

    /// A blade whose target has stepped out of its reach by the count's moves follows it
    /// (`movement.pursue_target`, `W-MOVE-1`): to the nearest free place its blow reaches the
    /// target from, within the movement it has left after walking from `from`, provoking as any
    /// move does; `inside` goes on counting the steps walked inside enemies' reach. `None` when it
    /// has no reason or no way to follow; else whether it is still able to act.
    pub(super) fn pursue(&mut self, slot: &Slot, from: ZoneIdx, inside: &mut InsideSteps) -> Option<bool> {
        let kind = slot.action.kind;
        if !matches!(kind, ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Aimed(_)) {
            return None;
        }
        let target = slot.action.target?;
        let view = self.unit(slot.unit, "following its target")?;
        let target_zone = self.units.get(target).ok().filter(|other| other.standing.status.on_field())?.standing.zone.0;
        let reach = actions::reach(&view, kind).ok().filter(|reach| !reach.ranged)?;
        let here = view.standing.zone.0;
        if reach.reaches(&self.battlefield, here, target_zone) {
            return None;
        }
        let left = unit::action_allowance(
            &self.ruleset,
            *view.body.speed,
            *view.standing.status,
            view.round.conditions,
            &slot.action,
        )
        .saturating_sub(self.walked(slot.unit, Some(from)));
        let free = |zone: ZoneIdx| {
            self.battlefield.zone(zone).capacity.is_none_or(|capacity| (self.index.count(zone) as u32) < capacity)
        };
        let to = self
            .battlefield
            .within(here, left)
            .filter(|&zone| reach.reaches(&self.battlefield, zone, target_zone) && free(zone))
            .map(|zone| (actions::move_cost(&self.battlefield, &view, here, zone), zone))
            .filter(|&(cost, _)| cost <= left)
            .min()?
            .1;
        let (still_able, steps) = self.walk(slot, to, false, std::mem::take(inside));
        *inside = steps;
        Some(still_able)
    }

    /// Walks a unit to `to`; `free_step` says whether a short enough walk is the 5-ft step, and
    /// `inside` what it has already walked inside enemies' reach this turn.
    fn walk(&mut self, slot: &Slot, to: ZoneIdx, free_step: bool, inside: InsideSteps) -> (bool, InsideSteps) {
        // `set_off` has recorded a mover that is not a unit.
        let Some(mut walk) = self.set_off(slot, to, free_step) else {
            return (false, inside);
        };
        walk.inside_steps = inside;
        let path = self.battlefield.path(walk.here, to);
        let grid = self.battlefield.is_grid();
        // On a grid units pass through each other's squares but must end on a free one.
        if grid && self.index.count(to) as u32 >= self.battlefield.zone(to).capacity.unwrap_or(u32::MAX) {
            self.lose(slot.unit, LostReason::ZoneFull);
            return (true, walk.inside_steps);
        }
        for step in path {
            if !grid
                && let Some(capacity) = self.battlefield.zone(step).capacity
                && self.index.count(step) as u32 >= capacity
            {
                self.lose(slot.unit, LostReason::ZoneFull);
                break;
            }
            if !self.take_step(slot, &mut walk, step) {
                return (false, walk.inside_steps);
            }
        }
        (true, walk.inside_steps)
    }

    /// How a unit sets off towards `to`; `None` (a fault) when the mover is not a unit.
    fn set_off(&self, slot: &Slot, to: ZoneIdx, free_step: bool) -> Option<Walk> {
        let view = self.unit(slot.unit, "moving it")?;
        let kind = slot.action.kind;
        let rules = self.ruleset.reposte.clone();
        let here = view.standing.zone.0;
        // The 5-ft step: a short shift before acting, as the unit's only movement (`C-MOVE-1`).
        let free_step =
            free_step && self.battlefield.path(here, to).len() as u32 <= rules.free_step && kind != ActionKind::Move;
        let entering = rules.when_threat_range_entered && kind != ActionKind::DefensiveAttack;
        let leaving = rules.when_reach_left && !view.round.conditions.disengaged;
        Some(Walk {
            here,
            side: *view.standing.side,
            status_before: *view.standing.status,
            watched: (entering || leaving) && !free_step,
            entering,
            leaving,
            rules,
            inside_steps: Vec::new(),
        })
    }

    /// One step of a walk, with the free attacks it provokes. Returns whether the walker is
    /// still as it set off (not downed or otherwise changed).
    fn take_step(&mut self, slot: &Slot, walk: &mut Walk, step: ZoneIdx) -> bool {
        let side = walk.side;
        let (before, after) = if walk.watched {
            // Only an enemy that can still react is owed anything for a step (`provoked_attacks`
            // passes over the rest), and one that cannot now will not again this round.
            let after = self.reacting_threateners(step, side);
            // Entering reach asks of `before` only which of `after` are in it; only leaving
            // reach needs all of it (in a crowd, everyone around the walker).
            let before = if walk.leaving {
                self.reacting_threateners(walk.here, side)
            } else {
                self.also_threatening(&after, walk.here, side)
            };
            (before, after)
        } else {
            (Vec::new(), Vec::new())
        };
        // Leaving reach, or walking on inside it: struck before the step, while still in reach.
        let leaving_attacks = if walk.leaving { self.left_behind(slot, walk, &before, &after) } else { Vec::new() };
        self.provoked_attacks(slot, &leaving_attacks, walk.rules.name.attack_kind());
        if !self.unchanged(slot.unit, walk.status_before) {
            return false;
        }
        let was = (self.index.changed_at(walk.here), self.index.changed_at(step));
        self.index.relocate(slot.unit, walk.here, step);
        let now = (self.index.changed_at(walk.here), self.index.changed_at(step));
        self.spent.stepped((slot.unit, side.0), (walk.here, step), was, now);
        if let Ok(mut unit) = self.units.get_mut(slot.unit) {
            unit.standing.zone.0 = step;
        }
        let (round, id) = (self.round(), self.id(slot.unit));
        let (from, to) = (self.battlefield.place(walk.here), self.battlefield.place(step));
        self.log.record(round, || LogEvent::Moved(line::Moved { unit: id, from, to }));
        walk.here = step;
        if walk.entering {
            let entered = self.entered_reach(slot.unit, walk, &before, &after);
            self.provoked_attacks(slot, &entered, AttackKind::Reposte);
        }
        self.unchanged(slot.unit, walk.status_before)
    }

    /// Whether `unit` still has the status it set off with.
    fn unchanged(&self, unit: Entity, status: Status) -> bool {
        self.units.get(unit).is_ok_and(|view| *view.standing.status == status)
    }

    /// The enemies a step leaves behind (reach left, or too many steps walked inside it), each
    /// owed a free attack unless an ally keeps it busy.
    fn left_behind(&self, slot: &Slot, walk: &mut Walk, before: &[Entity], after: &[Entity]) -> Vec<Entity> {
        let mut attackers = Vec::new();
        let close_only = walk.rules.only_close_enemies;
        let after = Among::new(after);
        for &other in before {
            if close_only && !self.units.get(other).is_ok_and(|view| view.standing.zone.0 == walk.here) {
                // A reach weapon from the next zone is not Close: leaving its reach provokes nothing.
                continue;
            }
            if close_only || !after.has(other) {
                if !(walk.rules.ally_in_reach_covers && self.ally_covers(other, slot.unit, walk.here, close_only)) {
                    attackers.push(other);
                }
            } else if let Some(limit) = walk.rules.steps_within_reach {
                let walked = match walk.inside_steps.iter_mut().find(|(unit, _)| *unit == other) {
                    Some((_, walked)) => {
                        *walked += 1;
                        *walked
                    }
                    None => {
                        walk.inside_steps.push((other, 1));
                        1
                    }
                };
                if walked == limit + 1 {
                    attackers.push(other);
                }
            }
        }
        attackers
    }

    /// The enemies whose threat range a step enters; where the longer weapon strikes first
    /// (`C-REACH-1`), only those with a longer reach than the walker's, or the same reach with a
    /// weapon against the walker's bare hands.
    fn entered_reach(&self, mover: Entity, walk: &Walk, before: &[Entity], after: &[Entity]) -> Vec<Entity> {
        let own = self.strike_length(mover).unwrap_or((0, true));
        let longer_only = walk.rules.longer_weapon_first;
        let before = Among::new(before);
        after
            .iter()
            .copied()
            .filter(|&other| !before.has(other))
            .filter(|&other| !longer_only || self.strike_length(other).is_some_and(|theirs| strikes_first(theirs, own)))
            .collect()
    }

    /// The reach of the weapon `unit` fights with now, and whether that is its bare hands.
    fn strike_length(&self, unit: Entity) -> Option<(u32, bool)> {
        let view = self.units.get(unit).ok()?;
        let (name, weapon) = view.arms.loadout.usable_weapon(view.round.conditions);
        Some((weapon.reach, name == UNARMED))
    }

    /// Shooting or casting with foes in melee reach gives each an attack of opportunity first,
    /// in rulesets that say so (`C-AOO-1`), and so does using a skill (`S-AOO-1`).
    pub(super) fn provoke_by_acting(&mut self, slot: &Slot) {
        if self.ruleset.attack.ranged_in_melee != RangedInMelee::Provokes && !self.ruleset.reposte.when_using_skill {
            return;
        }
        let Some(view) = self.unit(slot.unit, "checking whether it shoots in melee") else {
            return;
        };
        let shoots = match slot.action.kind {
            ActionKind::Cast(_) | ActionKind::Throw(_) => true,
            ActionKind::Attack | ActionKind::Aimed(_) => {
                view.arms.loadout.usable_weapon(view.round.conditions).1.is_ranged()
            }
            _ => false,
        };
        let shoots_provoke = shoots && self.ruleset.attack.ranged_in_melee == RangedInMelee::Provokes;
        // Using a skill beside an armed foe (`S-AOO-1`); a unit that disengaged provokes nothing.
        let uses_skill = matches!(slot.action.kind, ActionKind::Stabilize | ActionKind::Intimidate)
            && self.ruleset.reposte.when_using_skill
            && !view.round.conditions.disengaged;
        if !(shoots_provoke || uses_skill) {
            return;
        }
        let (zone, side) = (view.standing.zone.0, *view.standing.side);
        let foes = self.threateners_of(zone, side);
        let kind = self.ruleset.reposte.name.attack_kind();
        self.provoked_attacks(slot, &foes, kind);
    }

    /// Free attacks provoked by a move, each by an enemy that can still react, until the mover falls.
    pub(super) fn provoked_attacks(&mut self, slot: &Slot, attackers: &[Entity], kind: AttackKind) {
        for &threatener in attackers {
            if !self.units.get(slot.unit).is_ok_and(|view| view.standing.status.on_field()) {
                break;
            }
            if !self.units.get(threatener).is_ok_and(|view| actions::can_react(&view)) {
                continue;
            }
            if let Ok(mut other) = self.units.get_mut(threatener) {
                other.round.reactions.0 = other.round.reactions.0.saturating_sub(1);
            }
            let mut reaction = Vec::new();
            self.attack(AttackRequest::new(threatener, slot.unit, slot.initiative, kind), &mut reaction);
            for effect in reaction {
                self.apply(effect);
            }
        }
    }

    /// Whether another fighting ally of `mover` stands within `enemy`'s reach (or in the zone it
    /// leaves), keeping the enemy busy (`Z-DISEN-1`).
    /// With `close_only`, only an ally in the zone being left counts.
    fn ally_covers(&self, enemy: Entity, mover: Entity, zone: ZoneIdx, close_only: bool) -> bool {
        let (Some(enemy_view), Some(mover_view)) =
            (self.unit(enemy, "checking ally cover"), self.unit(mover, "checking ally cover"))
        else {
            return false;
        };
        let reach =
            if close_only { 0 } else { enemy_view.arms.loadout.usable_weapon(enemy_view.round.conditions).1.reach };
        let side = *mover_view.standing.side;
        self.battlefield.within(enemy_view.standing.zone.0, reach).chain(std::iter::once(zone)).any(|near| {
            self.index.occupants(near).iter().any(|&other| {
                other != mover
                    && self.units.get(other).is_ok_and(|view| {
                        *view.standing.side == side && unit::is_fighting(*view.standing.status, view.round.conditions)
                    })
            })
        })
    }

    /// Where a shove from `from` pushes a unit at `at`: the aggressor's `chosen` zone while the
    /// push may still go there (`Z-STUNT-1`), else the free step straight away on a grid, or the
    /// first free zone farther from the shover; `None` when there is no room (it falls instead).
    pub(super) fn push_destination(&self, from: ZoneIdx, at: ZoneIdx, chosen: Option<ZoneIdx>) -> Option<ZoneIdx> {
        let mut open = self.battlefield.push_destinations(&self.index, from, at);
        let first = open.next();
        // The chosen zone may have filled up since the declaration; then the rules pick.
        match chosen {
            Some(zone) if first == Some(zone) || open.any(|allowed| allowed == zone) => Some(zone),
            _ => first,
        }
    }
}

/// Lists of units this long or shorter are searched one by one; longer ones are sorted first.
const SHORT_LIST: usize = 16;

/// A list of units to ask whether a unit is among them: a walker in a crowd compares two long
/// lists of threateners at each step, which one by one would cost their product.
enum Among<'a> {
    /// Short: searched in place.
    Short(&'a [Entity]),
    /// Long: a sorted copy, searched by halves.
    Sorted(Vec<Entity>),
}

impl<'a> Among<'a> {
    fn new(list: &'a [Entity]) -> Self {
        if list.len() <= SHORT_LIST {
            return Self::Short(list);
        }
        let mut sorted = list.to_vec();
        sorted.sort_unstable();
        Self::Sorted(sorted)
    }

    /// Whether `unit` is in the list.
    fn has(&self, unit: Entity) -> bool {
        match self {
            Self::Short(list) => list.contains(&unit),
            Self::Sorted(sorted) => sorted.binary_search(&unit).is_ok(),
        }
    }
}

/// The weapon name of bare hands (`Loadout::usable_weapon`).
const UNARMED: &str = "unarmed";

/// Whether a weapon of `(reach, bare)` strikes before one of `other`: it reaches further, or as
/// far while the other is bare hands, since weapons beat the unarmed (`C-REACH-1`).
fn strikes_first((reach, bare): (u32, bool), (other_reach, other_bare): (u32, bool)) -> bool {
    reach > other_reach || (reach == other_reach && other_bare && !bare)
}
