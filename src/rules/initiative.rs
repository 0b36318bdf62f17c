//! Initiative stage: Base Initiative rolls (`W-INIT-1`, `W-INIT-4`), a new round, and
//! reinforcements that arrive at the start of it (`W-INIT-5`).

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::CombatSystems;
use super::actions;
use super::battle::Battle;
use super::components::*;
use super::dice::{CombatRng, Dice, DiceRoll, Draw};
use super::equipment::Attribute;
use super::log::{CombatLog, LogEvent};
use super::ruleset::{InitiativeOrder, Ruleset, TurnOrder};
use super::state::{CombatPhase, CombatState, Sides};
use super::unit::{self, UnitItem, UnitsMut};
use crate::battlefield::{Battlefield, ZoneIndex};
use crate::rules::log::line;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, start_round.in_set(CombatSystems::Initiative));
}

/// The Base Initiative dice of a unit with `agility_modifier`: 1d12−2 for +2, 1d12+1 for −1.
pub fn initiative_dice(ruleset: &Ruleset, agility_modifier: i32) -> Dice {
    ruleset.initiative.die.plus(ruleset.initiative.agility_factor * agility_modifier)
}

/// Rolls Base Initiative for every unit in `arrivals` that has none, sharing one roll per
/// initiative group and side, and logs each.
pub(super) fn roll_base_initiative(
    ruleset: &Ruleset,
    rng: &mut CombatRng,
    log: &mut CombatLog,
    round: u32,
    arrivals: &mut [UnitItem],
    groups: &Query<&InitiativeGroup>,
) {
    let mut shared: HashMap<(usize, Arc<str>), DiceRoll> = HashMap::new();
    arrivals.sort_by_key(|unit| *unit.standing.order);
    for unit in arrivals.iter_mut().filter(|unit| unit.round.initiative.base.is_none()) {
        let group = groups.get(unit.entity).ok().map(|group| group.0.clone());
        let agility = unit::modifier(ruleset, &unit.body.attributes, Attribute::Agility);
        let roll = match &group {
            Some(name) => shared
                .entry((unit.standing.side.0, name.clone()))
                .or_insert_with(|| rng.roll(initiative_dice(ruleset, agility)))
                .clone(),
            None => rng.roll(initiative_dice(ruleset, agility)),
        };
        unit.round.initiative.base = Some(roll.total);
        let id = unit.standing.id.0.clone();
        log.record(round, || LogEvent::Initiative(line::Initiative { unit: id, base: roll.total, roll, group }));
    }
}

/// Brings `unit` onto the field in its zone.
pub(super) fn arrive(
    unit: &mut UnitItem,
    index: &mut ZoneIndex,
    battlefield: &Battlefield,
    log: &mut CombatLog,
    round: u32,
) {
    *unit.standing.status = Status::Active;
    index.insert(unit.entity, unit.standing.zone.0);
    let zone = battlefield.place(unit.standing.zone.0);
    let id = unit.standing.id.0.clone();
    log.record(round, || LogEvent::Arrived(line::Arrived { unit: id, zone }));
}

/// Starts a round: first rolls, round counter, arrivals, per-round resets.
fn start_round(
    mut battle: Battle,
    groups: Query<&InitiativeGroup>,
    reinforcements: Query<(Entity, &Reinforcement)>,
    initiators: Query<(), With<Initiator>>,
) {
    let on_turn = battle.ruleset.turns.order.on_turn();
    if battle.state.round == 0 && !on_turn {
        let Battle { log, rng, units, ruleset, .. } = &mut battle;
        let mut starters: Vec<UnitItem> = units.iter_mut().filter(|unit| unit.standing.status.on_field()).collect();
        roll_base_initiative(ruleset, rng, log, 0, &mut starters, &groups);
    }
    battle.state.round += 1;
    let round = battle.state.round;
    battle.rng.key(round, || None, Draw::Initiative);
    battle.log.record(round, || LogEvent::RoundStarted {});
    bring_reinforcements(&mut battle, &reinforcements, &groups);
    for mut unit in battle.units.iter_mut() {
        refresh_unit(&battle.ruleset, &mut unit);
    }
    let state = &mut battle.state;
    state.schedule.clear();
    state.cursor = 0;
    state.count = None;
    state.swarms.clear();
    state.swarm_assailants.clear();
    state.holding.clear();
    state.casting.clear();
    if on_turn {
        let Battle { state, log, rng, units, ruleset, battlefield, sides, .. } = &mut battle;
        let ordering = TurnOrdering { ruleset, rng, log, state, units, sides, battlefield };
        let turns = order_turns(ordering, &initiators);
        battle.state.turns = turns;
        battle.state.turn_cursor = 0;
        battle.state.delayed.clear();
        battle.state.turn_parts.clear();
    }
    battle.state.phase = CombatPhase::Declare;
}

/// Reinforcements due this round arrive, in level order, and roll their Base Initiative where
/// the round is counted down (`W-INIT-5`).
fn bring_reinforcements(
    battle: &mut Battle,
    reinforcements: &Query<(Entity, &Reinforcement)>,
    groups: &Query<&InitiativeGroup>,
) {
    let Battle { state, log, rng, index, units, ruleset, battlefield, .. } = battle;
    let round = state.round;
    let on_turn = ruleset.turns.order.on_turn();
    let arriving: Vec<Entity> = reinforcements
        .iter()
        // Turn-based rulesets have no count to arrive at mid-round: arrivals join at the round's start.
        .filter(|(_, arrival)| {
            arrival.round <= round && (on_turn || arrival.at_initiative.is_none() || arrival.round < round)
        })
        .map(|(entity, _)| entity)
        .collect();
    // Units a spell created last round (`A-SUMM-1`) have no Base Initiative yet: they roll with
    // this round's arrivals. Every other unit on the field rolled when it came.
    let conjured =
        |unit: &UnitItem| !on_turn && *unit.standing.status != Status::Reserve && unit.round.initiative.base.is_none();
    let mut arrivals: Vec<UnitItem> = units
        .iter_mut()
        .filter(|unit| (*unit.standing.status == Status::Reserve && arriving.contains(&unit.entity)) || conjured(unit))
        .collect();
    arrivals.sort_by_key(|unit| *unit.standing.order);
    for unit in arrivals.iter_mut().filter(|unit| *unit.standing.status == Status::Reserve) {
        arrive(unit, index, battlefield, log, round);
    }
    if !on_turn {
        roll_base_initiative(ruleset, rng, log, round, &mut arrivals, groups);
    }
}

/// A unit's per-round reset: its Repostes, its round record, and the conditions that last a round.
fn refresh_unit(ruleset: &Ruleset, unit: &mut UnitItem) {
    unit.round.reactions.0 = match ruleset.reposte.reactions_from_agility {
        // Never used up: each one taken comes off a count no round reaches (`S-AOO-1`).
        _ if ruleset.reposte.unlimited_reactions => u32::MAX,
        Some(extra) => {
            let agility = unit::modifier(ruleset, &unit.body.attributes, Attribute::Agility)
                - unit.round.conditions.agility_penalty;
            (agility + extra).max(0) as u32
        }
        None => ruleset.reposte.reactions_per_round,
    };
    *unit.round.record = RoundRecord::default();
    let conditions = &mut unit.round.conditions;
    // Where it lasts to the unit's next turn, that turn's opening ends it (`S-SPEC-1`); a unit
    // down since has no turn to wait for.
    let lasts = ruleset.attack.full_defense_until_next_turn && ruleset.turns.order.on_turn();
    if !lasts || unit.standing.status.is_down() {
        conditions.full_defense = false;
    }
    conditions.disengaged = false;
    conditions.charging = false;
    conditions.shield_used = false;
    conditions.round_accuracy_penalty = 0;
    conditions.channelling = false;
    conditions.screens_made = 0;
    conditions.snapped = false;
    conditions.held_action = false;
    conditions.held_against = None;
    conditions.held_plan = None;
    conditions.turn_taken = false;
    unit.round.initiative.round = None;
}

/// Room for tie-break keys under one initiative count.
const TIE_SPREAD: i64 = 1 << 20;
/// A tie-break factor's weight, so earlier tie-breaks dominate later ones.
const TIE_FACTOR: i64 = 1 << 8;

/// Where `unit` stands among those tied with it (`C-INIT-2`): lower goes first. Each tie-break
/// counts in turn: weapon speed, then more attacks, then the casting time of a declared spell
/// (or the weapon's speed) — read from what the unit has ready, since turn orders are set before
/// anyone declares.
fn tie_key(ruleset: &Ruleset, unit: &UnitItem, round: u32) -> i64 {
    let weapon = unit.arms.loadout.usable_weapon(&unit.round.conditions).1;
    let mut key = 0;
    for tie_break in &ruleset.turns.tie_breaks {
        let part = match tie_break {
            super::ruleset::TieBreak::WeaponSpeed => weapon.speed as i64,
            super::ruleset::TieBreak::MoreAttacks => {
                let class = unit.body.class.map(|class| &*class.0);
                -(attacks_per_round(ruleset, unit.body.level.map_or(1, |level| level.0), class, round) as i64)
            }
            super::ruleset::TieBreak::CastingTime => unit
                .magic
                .spells
                .0
                .iter()
                .filter_map(|(_, spell)| spell.speed)
                .min()
                .map_or(weapon.speed as i64, |speed| speed as i64),
            // Read from the declarations, when the turn resolves (`resolve/ties.rs`).
            super::ruleset::TieBreak::MissileBeforeSpell => 0,
        };
        key = key * TIE_FACTOR + part.clamp(-(TIE_FACTOR / 2) + 1, TIE_FACTOR / 2 - 1);
    }
    key
}

/// Weapon attacks in `round` for a unit of `level` and `class` under the ruleset's level bands
/// (`C-MULTI-1`): the class's own column where the ruleset lists one, else the fighter's.
pub fn attacks_per_round(ruleset: &Ruleset, level: u32, class: Option<&str>, round: u32) -> u32 {
    let column = class.and_then(|class| ruleset.turns.attacks_by_class.get(class));
    let bands = column.unwrap_or(&ruleset.turns.attacks_by_level);
    let band = bands.iter().filter(|(from, ..)| *from <= level).max_by_key(|(from, ..)| *from);
    match band {
        Some(&(_, attacks, per_rounds)) if per_rounds > 0 => {
            let upto = |round: u32| attacks * round / per_rounds;
            (upto(round) - upto(round.saturating_sub(1))).max(1)
        }
        _ => 1,
    }
}

/// One unit's place in a turn-based order.
struct TurnKey {
    entity: Entity,
    /// Sort key: lower goes first.
    key: (i64, i64, i64, u32),
    /// Units with equal `together` keys act simultaneously.
    together: Option<(i64, i64)>,
}

/// The parts of the battle a turn order reads (the dice, the sides, the units and the field) and
/// writes (the rolls it logs, the initiative it sets), borrowed from [`Battle`] for one call.
struct TurnOrdering<'a, 'w, 's> {
    ruleset: &'a Ruleset,
    rng: &'a mut CombatRng,
    log: &'a mut CombatLog,
    state: &'a mut CombatState,
    units: &'a mut UnitsMut<'w, 's>,
    sides: &'a Sides,
    battlefield: &'a Battlefield,
}

/// The round's turns for turn-based rulesets (`Z-INIT-1`, `S-INIT-1`, `C-INIT-1`, `A-INIT-1`):
/// rolls what must be rolled (logging each roll), then lists the turns in order, each with the
/// units that act together at it.
fn order_turns(ordering: TurnOrdering, initiators: &Query<(), With<Initiator>>) -> Vec<(i32, Vec<Entity>)> {
    let TurnOrdering { ruleset, rng, log, state, units, sides, battlefield } = ordering;
    let round = state.round;
    let mut present: Vec<UnitItem> = units.iter_mut().filter(|unit| unit.standing.status.on_field()).collect();
    present.sort_by_key(|unit| *unit.standing.order);
    let side_count = sides.0.len().max(present.iter().map(|unit| unit.standing.side.0 + 1).max().unwrap_or(0));
    let ready_missiles = if ruleset.turns.ready_missiles_first && round == 1 {
        ready_missiles(battlefield, &present)
    } else {
        Vec::new()
    };
    let mut rolls = Rolls { ruleset, rng, log, sides, round, side_count };
    let keys = match &ruleset.turns.order {
        TurnOrder::DeclaredInitiative => return Vec::new(),
        TurnOrder::FirstSideThenIndividual { side_die, party_first_at, individual, attribute } => {
            if state.first_side.is_none() {
                state.first_side = Some(rolls.first_side(*side_die, *party_first_at));
            }
            let first = state.first_side.unwrap_or(0);
            rolls.first_side_keys(&mut present, first, *individual, *attribute)
        }
        TurnOrder::SideRoll {
            die,
            attribute,
            party_only,
            individual_adjustment,
            order,
            party_wins_ties,
            reroll_each_round,
            individual_rolls,
        } => {
            let rule = SideRoll {
                die: *die,
                attribute: *attribute,
                party_only: *party_only,
                individual_adjustment: *individual_adjustment,
                order: *order,
                party_wins_ties: *party_wins_ties,
                individual_rolls: *individual_rolls,
                reroll_each_round: *reroll_each_round,
            };
            let side_roll_due = state.side_scores.len() != side_count || *reroll_each_round;
            if side_roll_due && !rule.individual_rolls {
                state.side_scores = rolls.side_scores(&present, &rule);
            }
            rolls.side_roll_keys(&mut present, &rule, &state.side_scores, &ready_missiles)
        }
        TurnOrder::ByAttribute { attribute } => rolls.attribute_keys(&mut present, *attribute, initiators),
    };
    let turns = group_turns(keys);
    for (count, group) in &turns {
        for &entity in group {
            if let Ok(mut unit) = units.get_mut(entity) {
                unit.round.initiative.round = Some(*count);
            }
        }
    }
    turns
}

/// The units in `present` with a missile ready and a foe in sight and range: they loose before
/// initiative (`C-MISS-1`).
fn ready_missiles(battlefield: &Battlefield, present: &[UnitItem]) -> Vec<Entity> {
    present
        .iter()
        .filter(|unit| !unit.round.surprised && unit::is_fighting(*unit.standing.status, &unit.round.conditions))
        .filter(|unit| {
            let weapon = unit.arms.loadout.usable_weapon(&unit.round.conditions).1;
            weapon.is_ranged()
                && present.iter().any(|other| {
                    other.standing.side != unit.standing.side
                        && battlefield.sight(unit.standing.zone.0, other.standing.zone.0).is_some()
                        && battlefield.line_distance(unit.standing.zone.0, other.standing.zone.0)
                            <= actions::weapon_range(weapon)
                })
        })
        .map(|unit| unit.entity)
        .collect()
}

/// Sorts `keys` and numbers the turns, one per unit except where units tie on their `together`
/// key with the unit just before them: those share its turn.
fn group_turns(mut keys: Vec<TurnKey>) -> Vec<(i32, Vec<Entity>)> {
    keys.sort_by_key(|turn| turn.key);
    let mut turns: Vec<(i32, Vec<Entity>)> = Vec::with_capacity(keys.len());
    let mut previous: Option<(i64, i64)> = None;
    for turn in keys {
        match (turn.together, previous, turns.last_mut()) {
            (Some(together), Some(before), Some((_, group))) if together == before => group.push(turn.entity),
            _ => {
                let count = turns.len() as i32 + 1;
                turns.push((count, vec![turn.entity]));
            }
        }
        previous = turn.together;
    }
    turns
}

/// A side-roll turn order's settings ([`TurnOrder::SideRoll`]), copied out of the ruleset.
struct SideRoll {
    die: Dice,
    attribute: Attribute,
    party_only: bool,
    individual_adjustment: bool,
    order: InitiativeOrder,
    party_wins_ties: bool,
    individual_rolls: bool,
    reroll_each_round: bool,
}

impl SideRoll {
    /// +1 when the count runs high first, −1 when it runs low first: a better modifier then
    /// lowers the score.
    fn sign(&self) -> i32 {
        match self.order {
            InitiativeOrder::HighestFirst => 1,
            InitiativeOrder::LowestFirst => -1,
        }
    }
}

/// What a turn order rolls with and logs to in one round: the dice, the log and the sides.
struct Rolls<'a> {
    ruleset: &'a Ruleset,
    rng: &'a mut CombatRng,
    log: &'a mut CombatLog,
    sides: &'a Sides,
    round: u32,
    side_count: usize,
}

impl Rolls<'_> {
    /// The name of `side` for the log, `?` for a side the level does not name.
    fn side_name(&self, side: usize) -> Arc<str> {
        self.sides.0.get(side).map(|info| info.name.clone()).unwrap_or_else(|| "?".into())
    }

    /// Rolls which side begins the battle (`S-INIT-1`) and logs it: the party begins on at least
    /// `party_first_at`.
    fn first_side(&mut self, side_die: Dice, party_first_at: i32) -> usize {
        let roll = self.rng.roll(side_die);
        // A level with no party at all: the first side takes the party's place in this roll.
        let party = (0..self.side_count).find(|&side| self.sides.is_party(side)).unwrap_or(0);
        let party_begins = roll.total >= party_first_at;
        let first = if party_begins { party } else { (0..self.side_count).find(|&side| side != party).unwrap_or(0) };
        let score = roll.total;
        let side = self.side_name(first);
        self.log.record(self.round, || {
            LogEvent::SideInitiative(line::SideInitiative { side, roll, score, begins: Some(true) })
        });
        first
    }

    /// Rolls the individual initiative of each unit that has none, and keys everyone: the `first`
    /// side's units before the rest, each side's units by their score, highest first.
    fn first_side_keys(
        &mut self,
        present: &mut [UnitItem],
        first: usize,
        individual: Dice,
        attribute: Attribute,
    ) -> Vec<TurnKey> {
        let mut keys = Vec::with_capacity(present.len());
        for unit in present.iter_mut() {
            if unit.round.initiative.base.is_none() {
                let bonus = unit::modifier(self.ruleset, &unit.body.attributes, attribute);
                let roll = self.rng.roll(individual.plus(bonus));
                unit.round.initiative.base = Some(roll.total);
                let id = unit.standing.id.0.clone();
                self.log.record(self.round, || {
                    LogEvent::Initiative(line::Initiative { unit: id, base: roll.total, roll, group: None })
                });
            }
            let side_rank = if unit.standing.side.0 == first { 0 } else { 1 + unit.standing.side.0 as i64 };
            let score = unit.round.initiative.base.unwrap_or(0) as i64;
            keys.push(TurnKey {
                entity: unit.entity,
                key: (0, side_rank, -score, unit.standing.order.0),
                together: None,
            });
        }
        keys
    }

    /// Rolls and logs each side's score, adding the side's best modifier where `rule` says so.
    fn side_scores(&mut self, present: &[UnitItem], rule: &SideRoll) -> Vec<i32> {
        let mut scores = Vec::with_capacity(self.side_count);
        for side in 0..self.side_count {
            let adds = !rule.individual_adjustment && (!rule.party_only || self.sides.is_party(side));
            let bonus = if adds { rule.sign() * self.best_modifier(side, present, rule.attribute) } else { 0 };
            let roll = self.rng.roll(rule.die.plus(bonus));
            let score = roll.total;
            scores.push(score);
            let side = self.side_name(side);
            self.log.record(self.round, || {
                LogEvent::SideInitiative(line::SideInitiative { side, roll, score, begins: None })
            });
        }
        scores
    }

    /// The best `attribute` modifier among `side`'s units in `present`, 0 for none.
    fn best_modifier(&self, side: usize, present: &[UnitItem], attribute: Attribute) -> i32 {
        present
            .iter()
            .filter(|unit| unit.standing.side.0 == side)
            .map(|unit| unit::modifier(self.ruleset, &unit.body.attributes, attribute))
            .max()
            .unwrap_or(0)
    }

    /// Keys every unit by its side's score (adjusted by its own modifier where `rule` says so),
    /// with ready missiles first and ties broken by the ruleset.
    fn side_roll_keys(
        &mut self,
        present: &mut [UnitItem],
        rule: &SideRoll,
        side_scores: &[i32],
        ready_missiles: &[Entity],
    ) -> Vec<TurnKey> {
        let mut keys = Vec::with_capacity(present.len());
        for unit in present.iter_mut() {
            let score = self.side_roll_score(unit, rule, side_scores);
            let ordered = match rule.order {
                InitiativeOrder::HighestFirst => -(score as i64),
                InitiativeOrder::LowestFirst => score as i64,
            };
            let party_rank = if self.sides.is_party(unit.standing.side.0) { 0 } else { 1 };
            let ready = i64::from(!ready_missiles.contains(&unit.entity));
            let tie = tie_key(self.ruleset, unit, self.round);
            let key = if rule.party_wins_ties {
                (ready, ordered, party_rank, unit.standing.order.0)
            } else {
                (ready, ordered, tie, unit.standing.order.0)
            };
            // Still tied after the tie-breaks: simultaneous.
            let together = (!rule.party_wins_ties).then_some((ready, ordered * TIE_SPREAD + tie));
            keys.push(TurnKey { entity: unit.entity, key, together });
        }
        keys
    }

    /// `unit`'s score under a side roll: its side's score, adjusted by its own modifier where
    /// `rule` says so. Sets its Base Initiative, logging it when it is the unit's own count.
    fn side_roll_score(&mut self, unit: &mut UnitItem, rule: &SideRoll, side_scores: &[i32]) -> i32 {
        if rule.individual_rolls {
            return self.individual_roll(unit, rule);
        }
        let side_score = side_scores.get(unit.standing.side.0).copied().unwrap_or(0);
        let score = if rule.individual_adjustment {
            side_score + rule.sign() * unit::modifier(self.ruleset, &unit.body.attributes, rule.attribute)
        } else {
            side_score
        };
        if unit.round.initiative.base != Some(score) {
            unit.round.initiative.base = Some(score);
            if rule.individual_adjustment {
                // The unit's own count: its side's roll adjusted by its modifier; no die of its own.
                let roll = self.rng.roll(Dice::flat(score));
                let id = unit.standing.id.0.clone();
                self.log.record(self.round, || {
                    LogEvent::Initiative(line::Initiative { unit: id, base: score, roll, group: None })
                });
            }
        }
        score
    }

    /// `unit`'s own roll under a side-roll order with `individual_rolls` (`C-INIT-1` option): the
    /// side's die adjusted by the unit's modifier, rolled the first time and again every round
    /// where the ruleset re-rolls, each roll an `initiative` line.
    fn individual_roll(&mut self, unit: &mut UnitItem, rule: &SideRoll) -> i32 {
        if let Some(score) = unit.round.initiative.base.filter(|_| !rule.reroll_each_round) {
            return score;
        }
        let bonus = rule.sign() * unit::modifier(self.ruleset, &unit.body.attributes, rule.attribute);
        let roll = self.rng.roll(rule.die.plus(bonus));
        let score = roll.total;
        unit.round.initiative.base = Some(score);
        let id = unit.standing.id.0.clone();
        self.log
            .record(self.round, || LogEvent::Initiative(line::Initiative { unit: id, base: score, roll, group: None }));
        score
    }

    /// Keys every unit by its `attribute` modifier less its agility penalty, highest first, logging
    /// the modifier as its Base Initiative the first time.
    fn attribute_keys(
        &mut self,
        present: &mut [UnitItem],
        attribute: Attribute,
        initiators: &Query<(), With<Initiator>>,
    ) -> Vec<TurnKey> {
        let mut keys = Vec::with_capacity(present.len());
        for unit in present.iter_mut() {
            let modifier =
                unit::modifier(self.ruleset, &unit.body.attributes, attribute) - unit.round.conditions.agility_penalty;
            if unit.round.initiative.base.is_none() {
                let roll = self.rng.roll(Dice::flat(modifier));
                unit.round.initiative.base = Some(modifier);
                let id = unit.standing.id.0.clone();
                self.log.record(self.round, || {
                    LogEvent::Initiative(line::Initiative { unit: id, base: modifier, roll, group: None })
                });
            }
            // Whoever started the fight is placed last in the lineup, which holds for the battle.
            let last = i64::from(initiators.contains(unit.entity));
            keys.push(TurnKey {
                entity: unit.entity,
                key: (0, last, -(modifier as i64), unit.standing.order.0),
                together: None,
            });
        }
        keys
    }
}
