//! Resolving initiative counts: mid-round arrivals, turn starts, a group acting at once, and
//! spells completed or lost.

use super::*;

/// What one unit's turn in a simultaneous group has come to so far: one record per slot, so a
/// group makes one list rather than one per question.
#[derive(Default)]
pub(super) struct GroupTurn {
    /// It may act this count.
    able: bool,
    /// Where it sets off, when what it walks this count is measured: for a split move's first
    /// leg (`C-MOVE-1`), or for what is left to follow its target with (`movement.pursue_target`).
    set_off: Option<ZoneIdx>,
    /// Its move was cut short: it does not act.
    interrupted: bool,
    /// The steps of its move inside enemies' reach.
    inside: movement::InsideSteps,
    /// What it walked before its action, for a split move (`C-MOVE-1`); 0 for any other.
    walked: u32,
}

impl GroupTurn {
    /// Whether it goes on to act after moving.
    pub(super) fn acts(&self) -> bool {
        self.able && !self.interrupted
    }
}

/// Something a simultaneous group does to a unit, applied once the whole group has acted.
#[derive(Clone, Debug)]
pub(super) enum Pending {
    Damage(DamageHit),
    Restore { target: Entity, source: Arc<str>, roll: DiceRoll, wounds: bool },
    Stabilize { target: Entity },
}

impl Pending {
    /// The unit it lands on.
    pub(super) fn target(&self) -> Entity {
        match self {
            Pending::Damage(hit) => hit.target,
            Pending::Restore { target, .. } | Pending::Stabilize { target } => *target,
        }
    }
}

impl<'w, 's> Resolver<'w, 's> {
    /// Brings in reinforcements whose count has passed before the group at `next` (or at the
    /// round's end); they roll and declare at once. Returns whether the stage must wait for them.
    pub(super) fn bring_in_mid_round_arrivals(&mut self, next: Option<i32>) -> bool {
        if self.ruleset.turns.order.on_turn() {
            return false;
        }
        // Nobody due before `next`: the group resolves as scheduled.
        let Some((first, entities)) = self.arrivals_due(next) else {
            return false;
        };
        let round = self.round();
        let mut arrivals: Vec<UnitItem> =
            self.units.iter_mut().filter(|unit| entities.contains(&unit.entity)).collect();
        for unit in arrivals.iter_mut() {
            arrive(unit, &mut self.index, &self.battlefield, &mut self.log, round);
        }
        roll_base_initiative(&self.ruleset, &mut self.rng, &mut self.log, round, &mut arrivals, &self.groups);
        let mut late: Vec<(u32, Entity)> = arrivals
            .iter_mut()
            .filter(|unit| !unit.round.surprised)
            .map(|unit| {
                *unit.round.declared = Declared::default();
                (unit.standing.order.0, unit.entity)
            })
            .collect();
        late.sort_unstable();
        self.state.count = Some(first);
        if late.is_empty() {
            return false;
        }
        let secret = self.queue.secret;
        self.queue.begin(late.into_iter().map(|(_, entity)| entity).collect(), secret, true);
        self.state.phase = CombatPhase::Declare;
        true
    }

    /// The reserves due to arrive before the count `next`: the first such count and who arrives at it.
    fn arrivals_due(&self, next: Option<i32>) -> Option<(i32, Vec<Entity>)> {
        let round = self.round();
        let order = self.ruleset.initiative.order;
        let due_at = |at: i32| next.is_none_or(|next| has_passed(order, at, next) && at != next);
        let due: Vec<(i32, Entity)> = self
            .reinforcements
            .iter()
            .filter_map(|(entity, arrival)| {
                let at = arrival.at_initiative?;
                (arrival.round == round && due_at(at)).then_some((at, entity))
            })
            .filter(|&(_, entity)| self.units.get(entity).is_ok_and(|view| *view.standing.status == Status::Reserve))
            .collect();
        let first = match order {
            InitiativeOrder::LowestFirst => due.iter().map(|&(at, _)| at).min(),
            InitiativeOrder::HighestFirst => due.iter().map(|&(at, _)| at).max(),
        }?;
        Some((first, due.into_iter().filter(|&(at, _)| at == first).map(|(_, entity)| entity).collect()))
    }

    /// Starts the turn of every unit in a simultaneous group, and reads, with the same one
    /// look-up per unit, whether it may act and where it sets off: both are read before its
    /// turn starts, and starting a turn changes only its own conditions, which neither reads.
    fn start_turns(&mut self, group: &[Slot]) -> Vec<GroupTurn> {
        let round = self.round();
        let dodge_bonus = self.ruleset.attack.dodge_bonus;
        let standing_bonus = self.ruleset.attack.standing_bonus.is_some();
        let chosen = crate::rules::bonus::rules(&self.ruleset).copied();
        let mut turns: Vec<GroupTurn> = Vec::with_capacity(group.len());
        for slot in group {
            let kind = slot.action.kind;
            let Ok(mut unit) = self.units.get_mut(slot.unit) else {
                turns.push(GroupTurn::default());
                continue;
            };
            let able = unit::may_act(*unit.standing.status, &unit.round.conditions, unit.round.surprised, round);
            let measured = slot.action.move_after.is_some() || self.ruleset.movement.pursue_target;
            turns.push(GroupTurn { able, set_off: measured.then_some(unit.standing.zone.0), ..default() });
            // Chosen Bonus Actions (`A-BONUS-1`): dodging lasts until the next turn.
            let uses = crate::rules::bonus::effective(&self.ruleset, &unit.round.conditions, &slot.action);
            unit.round.conditions.dodge_bonus = match chosen {
                Some(rules) if able => rules.dodge * i32::from(uses.dodge),
                _ => 0,
            };
            unit.round.conditions.disengaged |= kind == ActionKind::Disengage || uses.disengage;
            unit.round.conditions.charging |= kind == ActionKind::Charge;
            // Its turn starts: last turn's screen lapses (`S-SPEC-1`); not the one just
            // made in the first part of this turn (`S-ACT-2`).
            if !self.state.turn_parts.contains(&slot.unit) {
                unit.round.conditions.screening = None;
            }
            unit.round.conditions.turn_taken = true;
            // The turn starts: last turn's dodge is over, and this one may dodge anew.
            unit.round.conditions.dodging = able
                && dodge_bonus.is_some()
                && unit.round.conditions.bonus_actions_left() > 0
                && leaves_a_bonus_action(&slot.action, standing_bonus);
        }
        turns
    }

    /// One initiative count: moves, then actions against the state after the moves, then all
    /// damage at once.
    pub(super) fn resolve_group(&mut self, group: &[Slot]) {
        self.answer_held_actions(group);
        let mut turns = self.start_turns(group);
        for (turn, slot) in turns.iter_mut().zip(group) {
            if !turn.able {
                self.lose(slot.unit, LostReason::CannotAct);
                continue;
            }
            if let Some(to) = slot.action.move_to {
                self.key_dice(slot.unit, Draw::Move);
                let (still_able, steps) = self.perform_move(slot, to);
                turn.interrupted = !still_able;
                turn.inside = steps;
            }
        }
        for (turn, slot) in turns.iter_mut().zip(group) {
            self.key_dice(slot.unit, Draw::Pursuit);
            if let Some(from) = turn.set_off
                && turn.acts()
                && let Some(still_able) = self.pursue(slot, from, &mut turn.inside)
            {
                turn.interrupted = !still_able;
            }
        }
        // What each unit walked before its action, for a move after it (`C-MOVE-1`): only a
        // split move reads it.
        for (turn, slot) in turns.iter_mut().zip(group) {
            if slot.action.move_after.is_some() {
                turn.walked = self.walked(slot.unit, turn.set_off);
            }
        }
        // A foe that walked into a held action's reach meets it before its action (`S-ACT-2`).
        self.answer_held_actions(group);
        let mut pending = Vec::new();
        for (turn, slot) in turns.iter().zip(group) {
            if turn.acts() {
                self.key_dice(slot.unit, Draw::Action);
                self.perform_action(slot, &mut pending);
            }
        }
        for effect in pending {
            self.key_dice(effect.target(), Draw::Landing);
            self.apply(effect);
        }
        self.drop_lost_casts();
        // Split moves (`C-MOVE-1`): once the whole count has acted and its damage has landed,
        // each unit still able walks the rest of its move.
        for (turn, slot) in turns.iter_mut().zip(group) {
            if turn.acts() {
                self.key_dice(slot.unit, Draw::MoveAfter);
                self.move_after_acting(slot, turn.walked, std::mem::take(&mut turn.inside));
            }
        }
    }

    /// What `unit` has walked since it set off `from` (`None`: nothing to measure it for),
    /// measured as a single move is (`C-MOVE-1`).
    pub(super) fn walked(&self, unit: Entity, from: Option<ZoneIdx>) -> u32 {
        let Some(from) = from else {
            return 0;
        };
        match self.units.get(unit) {
            Ok(view) if view.standing.zone.0 != from => {
                actions::move_cost(&self.battlefield, &view, from, view.standing.zone.0)
            }
            _ => 0,
        }
    }

    /// Whether `actor` acts now to complete a spell it began earlier (`C-CAST-1`).
    pub(super) fn completes_a_cast(&self, actor: Entity) -> bool {
        self.state.casting.iter().any(|cast| cast.unit == actor && cast.due)
    }

    /// Spells that were due and did not take effect (the caster could not act, or its target
    /// was gone) are lost: their casters stop channelling (`C-CAST-1`).
    fn drop_lost_casts(&mut self) {
        let lost: Vec<Entity> = self.state.casting.iter().filter(|cast| cast.due).map(|cast| cast.unit).collect();
        self.state.casting.retain(|cast| !cast.due);
        for caster in lost {
            if let Ok(mut unit) = self.units.get_mut(caster) {
                unit.round.conditions.channelling = false;
            }
        }
    }
}
