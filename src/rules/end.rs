//! End stage (`W-WOUND-2`, `Z-ZONE-3`, `W-END-1`): the dying bleed, hazards bite, surprise wears
//! off, and the battle ends when at most one side is still fighting.

use crate::rules::log::StatusChange;
use crate::rules::log::{EndReason, ManeuverKind};
use bevy::prelude::*;

use super::EndSystems;
use super::actions::{self, ManeuverCheck};
use super::battle::Battle;
use super::components::*;
use super::dice::{Dice, Draw};
use super::equipment::{DamageType, Hindrance, InjuryTables, Lingering};
use super::forfeit::Forfeits;
use super::log::{Affliction, CombatLog, LogEvent};
use super::resolve::{DamageHit, Harm};
use super::ruleset::{ManeuverRules, Ruleset};
use super::state::{CombatPhase, DamageDealt, Outcome, VictoryCondition, VictoryConditions};
use super::unit::{self, Unit, UnitsMut};
use crate::battlefield::{Battlefield, Hazard};
use crate::rules::log::ManeuverOutcome;
use crate::rules::log::line;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, end_round.in_set(EndSystems::Close));
}

/// Cause of the dying's end-of-round loss.
const DYING: &str = "dying";
/// Cause of suffocation's end-of-round loss.
const SUFFOCATION: &str = "suffocation";

/// Ends a round: the dying bleed, hazards bite, grapples and lingering harm resolve, a side
/// that forfeited this round leaves, surprise wears off, and the battle ends or a new round
/// begins.
#[expect(clippy::too_many_arguments, reason = "a system: each parameter is something it reads or writes")]
fn end_round(
    mut commands: Commands,
    battle: Battle,
    mut dealt: MessageWriter<DamageDealt>,
    surprised: Query<Entity, With<Surprised>>,
    summoned: Query<(Entity, &Summoned)>,
    tables: Res<InjuryTables>,
    victory: Res<VictoryConditions>,
    forfeits: Res<Forfeits>,
) {
    let Battle { mut state, mut log, mut rng, mut index, mut units, ruleset, battlefield, sides } = battle;
    let round = state.round;
    rng.key(round, || None, Draw::Upkeep);
    let Exposure { bleeding, exposed, grapples } = round_end_exposure(&units, &battlefield);
    let mut upkeep = Harm {
        units: &mut units,
        index: &mut index,
        log: &mut log,
        rng: &mut rng,
        ruleset: &ruleset,
        tables: &tables,
        dealt: &mut dealt,
        round,
    };
    for &(_, entity, dying, suffocating) in &bleeding {
        bleed(&mut upkeep, entity, dying, suffocating);
    }
    // Where hazards bite at each unit's turn, `lingering.rs` tests them then (`Z-ZONE-3`).
    if !ruleset.turns.hazards_on_turn() {
        for &(_, entity) in &exposed {
            test_hazard(&mut upkeep, &battlefield, entity);
        }
    }
    // Turn-based rulesets deal with lingering effects at each sufferer's own turn (`lingering.rs`).
    if !ruleset.turns.order.on_turn() {
        linger(&mut upkeep);
    }
    // Only the resolve stage makes grapples, so none seen now means nothing to squeeze.
    if grapples {
        squeeze(&mut upkeep, &battlefield);
    }
    if round >= ruleset.surprise.rounds_lost {
        for entity in &surprised {
            commands.entity(entity).remove::<Surprised>();
        }
    }
    // Online, a side whose player did not return gives up as the round ends.
    let forfeited = super::forfeit::leave_the_fight(&forfeits, &mut units, &mut index, &mut log, round);
    log.record(round, || LogEvent::RoundEnded {});
    let outcome = decide(&units, &victory, round, ruleset.end.max_rounds).map(|outcome| match outcome.reason {
        EndReason::SideDefeated if forfeited => Outcome { reason: EndReason::Forfeit, ..outcome },
        _ => outcome,
    });
    match outcome {
        Some(outcome) => {
            // Summons vanish first: `combat_ended` is the battle's last line.
            settle_after_battle(&mut units, &mut log, &ruleset, outcome.winner, round, &summoned);
            let winner = outcome.winner.and_then(|side| sides.0.get(side)).map(|side| side.name.clone());
            log.record(round, || LogEvent::CombatEnded(line::CombatEnded { reason: outcome.reason, winner }));
            state.outcome = Some(outcome);
            state.phase = CombatPhase::Over;
            // Combat is over: initiative is wiped (`W-END-1`).
            for mut unit in units.iter_mut() {
                *unit.round.initiative = Initiative::default();
            }
        }
        None => state.phase = CombatPhase::Initiative,
    }
}

/// A bleeding unit at the end of the round: its order, the unit, whether it is dying and
/// whether it is suffocating.
type Bleeding = (u32, Entity, bool, bool);
/// A unit standing in a hazard at the end of the round: its order and the unit.
type Exposed = (u32, Entity);

/// What the end of the round has to resolve, seen in one pass over the units.
struct Exposure {
    /// The bleeding, in unit order.
    bleeding: Vec<Bleeding>,
    /// Those standing in a hazard, in unit order.
    exposed: Vec<Exposed>,
    /// Whether any unit grapples or is grappled (on the field or not).
    grapples: bool,
}

/// The units with something to resolve at the end of the round, each list in unit order: the
/// bleeding (order, unit, dying, suffocating) and those standing in a hazard (order, unit); and
/// whether there is any grapple to squeeze, so the squeeze's own passes over every unit run only
/// when there is.
fn round_end_exposure(units: &Query<Unit>, battlefield: &Battlefield) -> Exposure {
    let mut bleeding: Vec<Bleeding> = Vec::new();
    let mut exposed: Vec<Exposed> = Vec::new();
    let mut grapples = false;
    for view in units.iter() {
        grapples |= view.round.conditions.grappling.is_some() || !view.round.conditions.grappled_by.is_empty();
        if !view.standing.status.on_field() {
            continue;
        }
        let dying = *view.standing.status == Status::Dying && !view.round.conditions.stabilised;
        if dying || view.round.conditions.suffocating {
            bleeding.push((view.standing.order.0, view.entity, dying, view.round.conditions.suffocating));
        }
        if battlefield.zone(view.standing.zone.0).hazard.is_some() {
            exposed.push((view.standing.order.0, view.entity));
        }
    }
    bleeding.sort_unstable_by_key(|&(order, ..)| order);
    exposed.sort_unstable();
    Exposure { bleeding, exposed, grapples }
}

/// The end-of-round loss of a `dying` or `suffocating` unit: one hit for each that applies.
fn bleed(upkeep: &mut Harm, entity: Entity, dying: bool, suffocating: bool) {
    let causes = [(dying, DYING), (suffocating, SUFFOCATION)];
    for cause in causes.into_iter().filter(|(applies, _)| *applies).map(|(_, cause)| cause) {
        let hit = DamageHit {
            target: entity,
            source: cause.into(),
            amount: upkeep.ruleset.wounds.dying_loss_per_round,
            damage_type: DamageType::Bleeding,
            critical: false,
            roll: None,
        };
        upkeep.deal(hit);
    }
}

/// Tests a unit still on the field against its zone's hazard, logging the test; a failed test
/// deals the hazard's damage.
pub(super) fn test_hazard(upkeep: &mut Harm, battlefield: &Battlefield, entity: Entity) {
    let Ok(view) = upkeep.units.get(entity) else {
        return;
    };
    if !view.standing.status.on_field() {
        return;
    }
    let zone = battlefield.zone(view.standing.zone.0);
    let Some(hazard) = zone.hazard.clone() else {
        return;
    };
    let bonus = unit::modifier(upkeep.ruleset, view.body.attributes, hazard.attribute);
    let id = view.standing.id.0.clone();
    let (roll, disadvantage_roll) =
        upkeep.rng.roll_test(hazard.test.plus(bonus), unit::weakened(view.round.conditions));
    let passed = roll.total >= hazard.tn;
    let zone_id = zone.id.clone();
    upkeep.log.record(upkeep.round, || {
        LogEvent::Hazard(line::Hazard {
            unit: id,
            zone: zone_id,
            hazard: hazard.name.clone(),
            roll,
            tn: hazard.tn,
            passed,
            disadvantage_roll,
        })
    });
    if !passed {
        let roll = upkeep.rng.roll(hazard.damage);
        let amount = roll.total.max(0);
        let hit = DamageHit {
            target: entity,
            source: hazard.name.as_str().into(),
            amount,
            damage_type: hazard.damage_type,
            critical: false,
            roll: Some(roll),
        };
        upkeep.deal(hit);
        hazard_afflicts(upkeep, entity, &hazard);
    }
}

/// A failed hazard test's lingering harm, on a unit still on the field (`Z-ONGO-1`,
/// `Z-HIND-1`): shaken off by passing the hazard's own attribute and number.
fn hazard_afflicts(upkeep: &mut Harm, entity: Entity, hazard: &Hazard) {
    let Ok(mut unit) = upkeep.units.get_mut(entity) else {
        return;
    };
    if !unit.standing.status.on_field() {
        return;
    }
    let lingering = Lingering::at_turn_end(hazard.attribute, hazard.tn);
    let mut effects = Vec::new();
    if let Some(amount) = hazard.ongoing {
        unit.round.conditions.ongoing = Some((amount, lingering));
        effects.push(Affliction::OngoingDamage);
    }
    if let Some(hindrance) = hazard.hinders {
        unit.round.conditions.hinder(hindrance, lingering);
        effects.push(Affliction::Hindrance(hindrance));
    }
    let (id, source): (std::sync::Arc<str>, std::sync::Arc<str>) =
        (unit.standing.id.0.clone(), hazard.name.as_str().into());
    for effect in effects {
        let (unit, source) = (id.clone(), source.clone());
        upkeep.log.record(upkeep.round, || LogEvent::Afflicted(line::Afflicted { unit, effect, source }));
    }
}

/// Grapples at the end of the round (`S-MAN-1`): a grappler that is down or out of reach lets
/// go; otherwise the held unit takes each grappler's unarmed damage where the chapter says so
/// ("from each foe grappling them"), held units in level order, each one's grapplers oldest first.
fn squeeze(upkeep: &mut Harm, battlefield: &Battlefield) {
    release_stale_grapples(upkeep);
    let mut held: Vec<(u32, Entity, Entity)> = upkeep
        .units
        .iter()
        .flat_map(|view| {
            let (order, entity) = (view.standing.order.0, view.entity);
            view.round.conditions.grappled_by.iter().map(move |grappler| (order, entity, grappler)).collect::<Vec<_>>()
        })
        .collect();
    // Stable: each held unit's grapplers keep their order.
    held.sort_by_key(|&(order, ..)| order);
    let grapple_damage = upkeep.ruleset.attack.maneuvers.as_ref().is_some_and(|rules| rules.grapple_damage);
    for (_, entity, grappler) in held {
        match grip(upkeep, battlefield, entity, grappler) {
            Some(grip) if grapple_damage => crush(upkeep, entity, grip),
            Some(_) => {}
            None => let_go(upkeep, entity, grappler),
        }
    }
}

/// A grappler its foe no longer counts among its holders lets go.
fn release_stale_grapples(upkeep: &mut Harm) {
    let stale: Vec<Entity> = upkeep
        .units
        .iter()
        .filter(|view| {
            view.round.conditions.grappling.is_some_and(|victim| {
                upkeep.units.get(victim).map_or(true, |held| !held.round.conditions.grappled_by.contains(view.entity))
            })
        })
        .map(|view| view.entity)
        .collect();
    for entity in stale {
        if let Ok(mut view) = upkeep.units.get_mut(entity) {
            view.round.conditions.grappling = None;
        }
    }
}

/// A grappler's hold on its victim: the unarmed damage it squeezes with, of what type, and by whom.
struct Grip {
    dice: Dice,
    damage_type: DamageType,
    source: std::sync::Arc<str>,
}

/// The grip `grappler` keeps on `victim`, if it is still fighting, the victim still on the
/// field and within its reach.
fn grip(upkeep: &Harm, battlefield: &Battlefield, victim: Entity, grappler: Entity) -> Option<Grip> {
    let (Ok(victim), Ok(holder)) = (upkeep.units.get(victim), upkeep.units.get(grappler)) else {
        return None;
    };
    let reach = battlefield.melee_reach(0).max(holder.arms.loadout.unarmed.reach);
    let holding = unit::is_fighting(*holder.standing.status, holder.round.conditions)
        && victim.standing.status.on_field()
        && battlefield.distance(holder.standing.zone.0, victim.standing.zone.0) <= reach;
    holding.then(|| {
        // As if hit with an unarmed attack: Strength, and Brawl where the ruleset adds it (`S-DMG-1`).
        Grip {
            dice: crate::rules::actions::damage_dice(upkeep.ruleset, &holder, &holder.arms.loadout.unarmed, false),
            damage_type: holder.arms.loadout.unarmed.damage_type,
            source: holder.standing.id.0.clone(),
        }
    })
}

/// The held unit takes the grappler's unarmed damage.
fn crush(upkeep: &mut Harm, entity: Entity, grip: Grip) {
    let roll = upkeep.rng.roll(grip.dice);
    let hit = DamageHit {
        target: entity,
        source: grip.source,
        amount: roll.total.max(0),
        damage_type: grip.damage_type,
        critical: false,
        roll: Some(roll),
    };
    upkeep.deal(hit);
}

/// A held unit's test to break free as its turn begins (`Z-STUNT-1`), where the ruleset has
/// one: its check against its grappler's, ties to the grappler; a win ends the hold. A unit that
/// cannot act this turn does not try.
pub(super) fn break_free(upkeep: &mut Harm, entity: Entity) {
    let ruleset = upkeep.ruleset;
    let Some(rules) = ruleset.attack.maneuvers.as_ref().filter(|rules| rules.break_free) else {
        return;
    };
    let Ok(held) = upkeep.units.get(entity) else {
        return;
    };
    if held.round.conditions.grappled_by.is_empty() {
        return;
    }
    if !unit::may_act(*held.standing.status, held.round.conditions, held.round.surprised, upkeep.round) {
        return;
    }
    contest_hold(upkeep, entity, rules);
}

/// A held unit's struggle against its grapplers (`Z-STUNT-1`'s turn-start test, `S-MAN-1`'s
/// action): one roll of its `die` + bonus ([`actions::maneuver_bonus`]) against each grappler's
/// `die` + bonus, ties to the grappler ("the defender's single skill check is compared against
/// all of their foes"). It is free of each grappler it beats, and still held by the others.
/// Logged as one `maneuver` line named `break_free` per grappler, the held unit's roll repeated.
pub(in crate::rules) fn contest_hold(upkeep: &mut Harm, entity: Entity, rules: &ManeuverRules) {
    let ruleset = upkeep.ruleset;
    let Ok(held) = upkeep.units.get(entity) else {
        return;
    };
    let grapplers: Vec<Entity> = held.round.conditions.grappled_by.iter().collect();
    if grapplers.is_empty() {
        return;
    }
    let own = actions::maneuver_bonus(ruleset, rules, &held, ManeuverCheck::Hold, true);
    let unit = held.standing.id.0.clone();
    let (roll, disadvantage_roll) = upkeep.rng.roll_test(rules.die.plus(own), unit::weakened(held.round.conditions));
    for grappler in grapplers {
        let Ok(holder) = upkeep.units.get(grappler) else {
            continue;
        };
        let theirs = actions::maneuver_bonus(ruleset, rules, &holder, ManeuverCheck::Hold, false);
        let target = holder.standing.id.0.clone();
        let weak = unit::weakened(holder.round.conditions);
        let (against, against_disadvantage_roll) = upkeep.rng.roll_test(rules.die.plus(theirs), weak);
        let won = roll.total > against.total;
        if won {
            let_go(upkeep, entity, grappler);
        }
        let (unit, roll, disadvantage_roll) = (unit.clone(), roll.clone(), disadvantage_roll.clone());
        upkeep.log.record(upkeep.round, || {
            LogEvent::Maneuver(line::Maneuver {
                unit,
                target,
                maneuver: ManeuverKind::BreakFree,
                roll,
                against,
                won,
                outcome: won.then_some(ManeuverOutcome::BrokeFree),
                disadvantage_roll,
                against_disadvantage_roll,
            })
        });
    }
}

/// The grapple between `victim` and `grappler` ends.
pub(in crate::rules) fn let_go(upkeep: &mut Harm, victim: Entity, grappler: Entity) {
    if let Ok(mut view) = upkeep.units.get_mut(victim) {
        view.round.conditions.grappled_by.remove(grappler);
    }
    // Where one grappler holds a foe at a time, a grappler that seized a second foe kept its
    // hold on the first until that one lapsed, and the lapse cost it both: kept so, as the
    // rulesets without `many_grapplers` (Z-STUNT-1) have always played it.
    let many = upkeep.ruleset.attack.maneuvers.as_ref().is_some_and(|rules| rules.many_grapplers);
    if let Ok(mut view) = upkeep.units.get_mut(grappler)
        && (view.round.conditions.grappling == Some(victim) || !many)
    {
        view.round.conditions.grappling = None;
    }
}

/// After the battle (`A-END-1`, `A-SUMM-1`): the victors' Mana is restored; summoned units that
/// are not thralls vanish, and thralls stay only if their summoner can pay their cost.
fn settle_after_battle(
    units: &mut UnitsMut,
    log: &mut CombatLog,
    ruleset: &Ruleset,
    winner: Option<usize>,
    round: u32,
    summoned: &Query<(Entity, &Summoned)>,
) {
    if ruleset.end.victors_regain_mana {
        for mut unit in units.iter_mut() {
            if Some(unit.standing.side.0) == winner
                && unit.standing.status.on_field()
                && unit.magic.mana.current < unit.magic.mana.max
            {
                unit.magic.mana.current = unit.magic.mana.max;
            }
        }
    }
    let mut called: Vec<(u32, Entity, Summoned)> = summoned
        .iter()
        .filter_map(|(entity, summoned)| units.get(entity).ok().map(|view| (view.standing.order.0, entity, *summoned)))
        .collect();
    called.sort_unstable_by_key(|&(order, ..)| order);
    for (_, entity, summoned) in called {
        let Ok(view) = units.get(entity) else { continue };
        if !view.standing.status.on_field() {
            continue;
        }
        let cost = ruleset.end.thrall_cost_per_level * view.body.level.map_or(1, |level| level.0) as i32;
        let kept = summoned.thrall
            && units.get_mut(summoned.summoner).is_ok_and(|mut summoner| {
                let pays = summoner.standing.status.on_field() && summoner.magic.mana.current >= cost;
                if pays {
                    summoner.magic.mana.current -= cost;
                }
                pays
            });
        if !kept && let Ok(mut unit) = units.get_mut(entity) {
            *unit.standing.status = Status::Fled;
            let id = unit.standing.id.0.clone();
            log.record(round, || LogEvent::Status(line::Status { unit: id, status: StatusChange::Vanished }));
        }
    }
}

/// Cause of ongoing damage in the log.
const ONGOING: &str = "ongoing";

/// Lingering effects at the end of the round: ongoing damage is lost, then each sufferer tests to
/// shake off its ongoing damage and its hindrance (`Z-ONGO-1`, `Z-HIND-1`).
fn linger(upkeep: &mut Harm) {
    let mut afflicted: Vec<(u32, Entity)> = upkeep
        .units
        .iter()
        .filter(|view| {
            view.standing.status.on_field()
                && (view.round.conditions.ongoing.is_some() || view.round.conditions.hindrance.is_some())
        })
        .map(|view| (view.standing.order.0, view.entity))
        .collect();
    afflicted.sort_unstable();
    for (_, entity) in afflicted {
        suffer_ongoing(upkeep, entity);
        shake_off(upkeep, entity);
    }
}

/// Deals a unit's ongoing damage, if it has any (`Z-ONGO-1`).
pub(super) fn suffer_ongoing(upkeep: &mut Harm, entity: Entity) {
    let ongoing = upkeep.units.get(entity).ok().and_then(|view| view.round.conditions.ongoing);
    if let Some((amount, _)) = ongoing {
        let hit = DamageHit {
            target: entity,
            source: ONGOING.into(),
            amount,
            damage_type: DamageType::Bleeding,
            critical: false,
            roll: None,
        };
        upkeep.deal(hit);
    }
}

/// A unit still on the field tests against its ongoing damage, then its hindrance; each test
/// passed ends that effect. A hindrance that needs an action is left for the unit's
/// `shake_off` action ([`shake_off_by_action`]).
pub(super) fn shake_off(upkeep: &mut Harm, entity: Entity) {
    let Ok(unit) = upkeep.units.get(entity) else {
        return;
    };
    let conditions = unit.round.conditions;
    let tests = [
        conditions.ongoing.map(|(_, lingering)| (Affliction::OngoingDamage, lingering)),
        conditions
            .hindrance
            .filter(|(_, lingering)| !lingering.needs_action())
            .map(|(hindrance, lingering)| (Affliction::Hindrance(hindrance), lingering)),
    ];
    for (effect, lingering) in tests.into_iter().flatten() {
        test_lingering(upkeep, entity, effect, lingering);
    }
}

/// The test a unit spends its action on to end a hindrance that needs one (`Z-HIND-1`).
/// Returns whether there was such a hindrance to test against.
pub(super) fn shake_off_by_action(upkeep: &mut Harm, entity: Entity) -> bool {
    let hindrance = upkeep.units.get(entity).ok().and_then(|unit| unit.round.conditions.hindrance_needing_action());
    let Some((hindrance, lingering)) = hindrance else {
        return false;
    };
    test_lingering(upkeep, entity, Affliction::Hindrance(hindrance), lingering);
    true
}

/// One test against a lingering effect, by a unit still on the field (a `lingering` line); a
/// pass ends the effect.
fn test_lingering(upkeep: &mut Harm, entity: Entity, effect: Affliction, lingering: Lingering) {
    let Ok(mut unit) = upkeep.units.get_mut(entity) else {
        return;
    };
    if !unit.standing.status.on_field() {
        return;
    }
    let bonus = unit::modifier(upkeep.ruleset, &unit.body.attributes, lingering.attribute);
    let weakened = unit::weakened(&unit.round.conditions);
    let (roll, disadvantage_roll) = upkeep.rng.roll_test(upkeep.ruleset.attack.die.plus(bonus), weakened);
    let shaken_off = roll.total >= lingering.tn;
    if shaken_off {
        end_affliction(&mut unit.round.conditions, effect);
    }
    let id = unit.standing.id.0.clone();
    upkeep.log.record(upkeep.round, || {
        LogEvent::Lingering(line::Lingering { unit: id, effect, roll, tn: lingering.tn, shaken_off, disadvantage_roll })
    });
}

/// Ends one lingering effect: a paralysing hindrance frees the unit as it goes.
fn end_affliction(conditions: &mut Conditions, effect: Affliction) {
    match effect {
        Affliction::OngoingDamage => conditions.ongoing = None,
        Affliction::Hindrance(hindrance) => {
            if hindrance == Hindrance::Paralysed {
                conditions.paralysed = false;
            }
            conditions.hindrance = None;
        }
    }
}

/// Whether the battle is over after `round`, and how (`W-END-1`).
fn decide(units: &Query<Unit>, victory: &VictoryConditions, round: u32, max_rounds: u32) -> Option<Outcome> {
    let mut in_fight: Vec<usize> = units
        .iter()
        // Reinforcements on their way still count; a summoned unit nobody called does not.
        .filter(|view| {
            unit::is_fighting(*view.standing.status, view.round.conditions)
                || (*view.standing.status == Status::Reserve && view.standing.reinforcement.is_some())
        })
        .map(|view| view.standing.side.0)
        .collect();
    in_fight.sort_unstable();
    in_fight.dedup();
    for condition in &victory.0 {
        match *condition {
            VictoryCondition::Eliminate { unit, side } => {
                let gone = units.get(unit).is_ok_and(|view| {
                    !unit::is_fighting(*view.standing.status, view.round.conditions)
                        && *view.standing.status != Status::Reserve
                });
                if gone {
                    return Some(Outcome { winner: Some(side), reason: EndReason::TargetEliminated, rounds: round });
                }
            }
            VictoryCondition::Survive { side, rounds } => {
                if round >= rounds && in_fight.contains(&side) {
                    return Some(Outcome { winner: Some(side), reason: EndReason::Survived, rounds: round });
                }
            }
        }
    }
    match in_fight.as_slice() {
        [] => Some(Outcome { winner: None, reason: EndReason::MutualDefeat, rounds: round }),
        [side] => Some(Outcome { winner: Some(*side), reason: EndReason::SideDefeated, rounds: round }),
        _ if round >= max_rounds => Some(Outcome { winner: None, reason: EndReason::MaxRounds, rounds: round }),
        _ => None,
    }
}
