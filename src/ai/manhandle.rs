//! The greedy AI's manhandling (`S-MAN-1`, `Z-STUNT-1`, `S-ACT-2`, `A-TURN-1`): standing up
//! from prone, knocking a foe down where prone costs Defense, grappling where the hold hurts
//! every round, shoving a foe into a hazard of the AI's choosing, and dragging or hurling a held
//! foe where that beats squeezing it (into a hazard, or down for its neighbours' blows). Each is
//! tried only where
//! the ruleset offers it and the declaration is legal, and a manoeuvre is chosen over the best
//! blow only when it is expected to be worth more.

use super::choice::Choice;
use super::view::{AiView, OddsMemo};
use crate::battlefield::ZoneIdx;
use crate::rules::actions::{self, ManeuverCheck};
use crate::rules::components::*;
use crate::rules::dice::Dice;
use crate::rules::equipment::Weapon;
use crate::rules::ruleset::ManeuverRules;
use crate::rules::unit::{self, UnitView};

/// A prone unit rises unless the free attacks rising draws could take this share of what it has left.
const RISING_RISK_SHARE: f64 = 0.5;
/// A hold or a fall is counted to pay off over at most this many rounds: a fallen foe gets up,
/// a held one is pushed apart or its grappler falls, and a grappler cannot move meanwhile.
const PAYOFF_ROUNDS: f64 = 2.0;

/// What is left of a unit to take down.
fn remaining(unit: &UnitView) -> f64 {
    f64::from((unit.body.stress.current + unit.body.wounds.current).max(0))
}

/// A prone unit gets up when the ruleset lets it, unless the free attacks it draws by rising
/// are likely to drop it.
pub(super) fn stand_up(choice: &Choice) -> Option<Action> {
    let Choice { view, units, threats, actor, .. } = *choice;
    if !actor.round.conditions.prone {
        return None;
    }
    let action = Action::simple(ActionKind::StandUp);
    actions::check(view.ctx(), actor, &action, units).ok()?;
    if view.ruleset.reposte.standing_up_is_free {
        return Some(action);
    }
    let risk: f64 = threats
        .threateners(view.ctx(), actor.standing.zone.0, *actor.standing.side)
        .filter(|threat| threat.can_react)
        .filter_map(|threat| units.get(threat.unit))
        .map(|enemy| actions::attack_odds(&view.ruleset, enemy, actor).expected)
        .sum();
    (risk < RISING_RISK_SHARE * remaining(actor)).then_some(action)
}

/// A shove or a grapple, without a move, against a foe in reach, when it is expected to be
/// worth more than `blow`, the expected damage of the best attack there is.
pub(super) fn manhandle(choice: &Choice, blow: f64) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let rules = view.ruleset.attack.maneuvers.as_ref()?;
    let mut best: Option<(f64, Action)> = break_free(choice, rules, blow);
    if let Some(haul) = haul(choice, rules).filter(|(value, _)| *value > blow)
        && best.as_ref().is_none_or(|(score, _)| haul.0 > *score)
    {
        best = Some(haul);
    }
    for &other in view.battlefield.within(actor.standing.zone.0, 1).flat_map(|zone| view.index.occupants(zone).iter()) {
        let Some(target) = units.get(other).filter(|target| target.standing.side != actor.standing.side) else {
            continue;
        };
        if !unit::is_fighting(*target.standing.status, target.round.conditions) {
            continue;
        }
        let push = push_choice(choice, rules, target);
        let felling = prone_value(choice, rules, target);
        let values = [
            (ActionKind::Grapple, grapple_value(choice, rules, target), None),
            // A push that only moves the foe is worth a blow to it only into a hazard.
            (ActionKind::Shove, push.map_or(felling, |(_, harm)| harm), push.map(|(zone, _)| zone)),
            (ActionKind::KnockDown, felling, None),
        ];
        for (kind, value, push_to) in values {
            let action = Action { push_to, ..Action::new(kind, Some(other), None) };
            let better = value > blow && best.as_ref().is_none_or(|(score, _)| value > *score);
            if better && actions::check(view.ctx(), actor, &action, units).is_ok() {
                best = Some((value, action));
            }
        }
    }
    best.map(|(_, action)| action)
}

/// Where a shove by the unit choosing pushes `target` (`Z-STUNT-1`), and what the push is worth: into the
/// zone whose hazard is expected to hurt it most, else the one with the fewest of its fighting
/// allies around, else the first in level order. `None` when there is no room and it would fall.
fn push_choice(choice: &Choice, rules: &ManeuverRules, target: &UnitView) -> Option<(ZoneIdx, f64)> {
    let Choice { view, units, actor, .. } = *choice;
    let allies_around = |zone: ZoneIdx| {
        view.battlefield
            .within(zone, 1)
            .flat_map(|near| view.index.occupants(near).iter())
            .filter_map(|&other| units.get(other))
            .filter(|ally| {
                ally.entity != target.entity
                    && ally.standing.side == target.standing.side
                    && unit::is_fighting(*ally.standing.status, ally.round.conditions)
            })
            .count()
    };
    let (zone, harm, _) = view
        .battlefield
        .push_destinations(&view.index, actor.standing.zone.0, target.standing.zone.0)
        .map(|zone| (zone, hazard_harm(view, target, zone), allies_around(zone)))
        // Most harm first, then fewest allies; `min_by` keeps the first of equals, in level order.
        .min_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)))?;
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).1;
    Some((zone, success_chance(choice, rules, target, weapon, ManeuverCheck::Shove) * harm))
}

/// The damage `zone`'s hazard is expected to deal `unit` standing in it once: the chance it
/// fails the test times the hazard's mean damage; nothing where there is no hazard.
fn hazard_harm(view: &AiView, unit: &UnitView, zone: ZoneIdx) -> f64 {
    let Some(hazard) = &view.battlefield.zone(zone).hazard else {
        return 0.0;
    };
    let modifier = unit::modifier(&view.ruleset, unit.body.attributes, hazard.attribute);
    fails_test(&view.odds, hazard.test, modifier, hazard.tn) * hazard.damage.mean().max(0.0)
}

/// The chance that `test` + `modifier` falls short of `tn`, remembered in `memo` like
/// [`wins_opposed`]: asked for every square a foe could be shoved into.
fn fails_test(memo: &OddsMemo, test: Dice, modifier: i32, tn: i32) -> f64 {
    *memo
        .failed_tests
        .borrow_mut()
        .entry((test, modifier, tn))
        .or_insert_with(|| distribution(test).iter().filter(|&&(total, _)| total + modifier < tn).map(|(_, p)| p).sum())
}

/// How many rounds a lasting edge over `target` is worth: until the actor's blows would drop
/// it anyway, at most [`PAYOFF_ROUNDS`].
fn payoff_rounds(choice: &Choice, target: &UnitView) -> f64 {
    let Choice { view, actor, .. } = *choice;
    let per_round = actions::attack_odds(&view.ruleset, actor, target).expected;
    if per_round <= 0.0 { PAYOFF_ROUNDS } else { (remaining(target) / per_round).min(PAYOFF_ROUNDS) }
}

/// A grapple's worth where the hold hurts every round (`S-MAN-1`): the chance it holds times
/// the squeeze over the rounds it pays off. A hold without damage is not worth a blow to it,
/// nor a second hold while the first lasts.
fn grapple_value(choice: &Choice, rules: &ManeuverRules, target: &UnitView) -> f64 {
    let Choice { view, actor, .. } = *choice;
    // A second hold would let go of the first.
    if !rules.grapple_damage || actor.round.conditions.grappling.is_some() {
        return 0.0;
    }
    let squeeze = actions::damage_dice(&view.ruleset, actor, &actor.arms.loadout.unarmed, false).mean().max(0.0);
    let rounds = payoff_rounds(choice, target);
    // Where holds are fought bare-handed, the later rounds' blows are fists instead of the weapon.
    let fists_cost = if rules.unarmed_while_grappling {
        (actions::attack_odds(&view.ruleset, actor, target).expected - fists_expected(choice, target)).max(0.0)
            * (rounds - 1.0).max(0.0)
    } else {
        0.0
    };
    success_chance(choice, rules, target, &actor.arms.loadout.unarmed, ManeuverCheck::Hold)
        * (squeeze * rounds - fists_cost)
}

/// The expected damage of the choosing unit's bare-handed blow at `target`.
fn fists_expected(choice: &Choice, target: &UnitView) -> f64 {
    let Choice { view, actor, .. } = *choice;
    let fists = &actor.arms.loadout.unarmed;
    let defense =
        unit::defense_score(&view.ruleset, target.body.attributes, target.arms.defense, target.round.conditions);
    let dice = actions::damage_dice(&view.ruleset, actor, fists, false);
    actions::odds_against(
        &view.ruleset,
        actions::roll_bonus(&view.ruleset, actor, fists, false),
        fists,
        dice,
        defense,
        target.arms.armour.0,
    )
    .expected
}

/// A held unit struggles free (`S-MAN-1`) when the squeezes it would escape over the rounds a
/// hold lasts, at the odds of beating each grappler, are worth more than `blow`.
fn break_free(choice: &Choice, rules: &ManeuverRules, blow: f64) -> Option<(f64, Action)> {
    let Choice { view, units, actor, .. } = *choice;
    if actor.round.conditions.grappled_by.is_empty() || !rules.grapple_damage {
        return None;
    }
    let action = Action::simple(ActionKind::BreakFree);
    actions::check(view.ctx(), actor, &action, units).ok()?;
    let own = actions::maneuver_bonus(&view.ruleset, rules, actor, ManeuverCheck::Hold, true);
    let value: f64 = actor
        .round
        .conditions
        .grappled_by
        .iter()
        .filter_map(|grappler| units.get(grappler))
        .map(|grappler| {
            let squeeze =
                actions::damage_dice(&view.ruleset, grappler, &grappler.arms.loadout.unarmed, false).mean().max(0.0);
            let theirs = actions::maneuver_bonus(&view.ruleset, rules, grappler, ManeuverCheck::Hold, false);
            wins_opposed(&view.odds, rules.die, own - theirs) * squeeze * PAYOFF_ROUNDS
        })
        .sum();
    (value > blow).then_some((value, action))
}

/// A grappler's drag or hurl of the foe it holds (`S-MAN-1`), the better of the two, with what
/// it is worth over keeping up the squeeze: a drag into the place whose hazard hurts the foe most
/// (less what the grappler's own new place costs it) while the hold goes on; a hurl into the
/// landing that hurts most, plus the blows the fall makes easier, less the squeezes given up.
/// A lost check frees the foe, so its squeezes are lost then too.
fn haul(choice: &Choice, rules: &ManeuverRules) -> Option<(f64, Action)> {
    let Choice { view, units, actor, .. } = *choice;
    rules.haul?;
    let victim = units.get(actor.round.conditions.grappling?)?;
    let squeeze = if rules.grapple_damage {
        actions::damage_dice(&view.ruleset, actor, &actor.arms.loadout.unarmed, false).mean().max(0.0) * PAYOFF_ROUNDS
    } else {
        0.0
    };
    let own = actions::maneuver_bonus(&view.ruleset, rules, actor, ManeuverCheck::Hold, true)
        - actions::size_penalty(rules, actor, victim);
    let theirs = actions::maneuver_bonus(&view.ruleset, rules, victim, ManeuverCheck::Hold, false);
    let wins = wins_opposed(&view.odds, rules.die, own - theirs);
    let ctx = view.ctx();
    let (here, at) = (actor.standing.zone.0, victim.standing.zone.0);
    let drags = actions::haul_destinations(ctx, here, at, ActionKind::Drag).into_iter().filter_map(|to| {
        let steps = rules.haul.map_or(0, |haul| haul.drag_steps);
        let steps = crate::rules::ruleset::HaulRules::steps_on(steps, &view.battlefield);
        let (_, along) =
            view.battlefield.drag_destinations(&view.index, here, at, steps).into_iter().find(|(d, _)| *d == to)?;
        let gain = (hazard_harm(view, victim, along) - hazard_harm(view, actor, to)) * PAYOFF_ROUNDS;
        Some((wins * gain - (1.0 - wins) * squeeze, ActionKind::Drag, to))
    });
    let fall = falling_worth(choice, victim, PAYOFF_ROUNDS);
    let hurls = actions::haul_destinations(ctx, here, at, ActionKind::Hurl)
        .into_iter()
        .map(|to| (wins * (hazard_harm(view, victim, to) + fall) - squeeze, ActionKind::Hurl, to));
    let (value, kind, to) = drags.chain(hurls).max_by(|a, b| a.0.total_cmp(&b.0))?;
    let action = Action { push_to: Some(to), ..Action::simple(kind) };
    actions::check(ctx, actor, &action, units).ok()?;
    Some((value, action))
}

/// What a foe falling prone is worth where prone costs Defense, over `rounds`: the blows of
/// its foes in reach that the lower Defense turns into hits.
fn falling_worth(choice: &Choice, target: &UnitView, rounds: f64) -> f64 {
    easier_blows(choice, target).map_or(0.0, |(easier, allies)| easier * allies * rounds)
}

/// How much more often a blow at `target` lands once it is prone, and what the blows of its foes
/// in reach do when they land; `None` where it is prone already or prone costs no Defense.
fn easier_blows(choice: &Choice, target: &UnitView) -> Option<(f64, f64)> {
    let Choice { view, units, .. } = *choice;
    let penalty = view.ruleset.attack.prone_defense_penalty;
    let sides = view.ruleset.attack.die.sides;
    if target.round.conditions.prone || penalty <= 0 || sides == 0 {
        return None;
    }
    // Each blow lands that much more often; what a landed blow does is its expected damage over its odds.
    let easier = f64::from(penalty) / f64::from(sides);
    let landed = |striker: &UnitView| {
        let odds = actions::attack_odds(&view.ruleset, striker, target);
        if odds.hit > 0.0 { odds.expected / odds.hit } else { 0.0 }
    };
    let allies: f64 = actions::threateners_of(view.ctx(), target.standing.zone.0, *target.standing.side, units)
        .into_iter()
        .filter_map(|ally| units.get(ally))
        .map(landed)
        .sum();
    Some((easier, allies))
}

/// What knocking a foe down is worth where prone costs Defense: the chance the shove lands
/// times the blows of the actor and its allies in reach that the lower Defense turns into hits.
fn prone_value(choice: &Choice, rules: &ManeuverRules, target: &UnitView) -> f64 {
    let Some((easier, allies)) = easier_blows(choice, target) else {
        return 0.0;
    };
    let actor = choice.actor;
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).1;
    success_chance(choice, rules, target, weapon, ManeuverCheck::Shove)
        * easier
        * allies
        * payoff_rounds(choice, target)
}

/// The chance a manoeuvre succeeds: the attack roll first where the ruleset asks for one (with
/// `weapon`), then the opposed check, which the target wins on a tie.
fn success_chance(
    choice: &Choice,
    rules: &ManeuverRules,
    target: &UnitView,
    weapon: &Weapon,
    check: ManeuverCheck,
) -> f64 {
    let Choice { view, actor, .. } = *choice;
    let lands = if rules.attack_roll_first {
        let defense =
            unit::defense_score(&view.ruleset, target.body.attributes, target.arms.defense, target.round.conditions);
        let dice = actions::damage_dice(&view.ruleset, actor, weapon, false);
        let bonus = actions::roll_bonus(&view.ruleset, actor, weapon, false);
        actions::odds_against(&view.ruleset, bonus, weapon, dice, defense, 0).hit
    } else {
        1.0
    };
    let own =
        actions::maneuver_bonus(&view.ruleset, rules, actor, check, true) - actions::size_penalty(rules, actor, target);
    let theirs = actions::maneuver_bonus(&view.ruleset, rules, target, check, false);
    lands * wins_opposed(&view.odds, rules.die, own - theirs)
}

/// The chance that `die` + `edge` beats another roll of `die`, remembered in `memo`: the same
/// value, bit for bit, as working it out again.
fn wins_opposed(memo: &OddsMemo, die: Dice, edge: i32) -> f64 {
    *memo.opposed_odds.borrow_mut().entry((die, edge)).or_insert_with(|| opposed_odds(die, edge))
}

/// [`wins_opposed`] worked out: every pair of totals.
fn opposed_odds(die: Dice, edge: i32) -> f64 {
    let totals = distribution(die);
    totals
        .iter()
        .flat_map(|&(own, p)| totals.iter().map(move |&(theirs, q)| if own + edge > theirs { p * q } else { 0.0 }))
        .sum()
}

/// Each total `die` can roll, with its chance.
fn distribution(die: Dice) -> Vec<(i32, f64)> {
    let mut totals = vec![(die.modifier, 1.0)];
    let sides = die.sides.max(1) as i32;
    for _ in 0..die.count {
        let mut next: Vec<(i32, f64)> = Vec::new();
        for &(total, p) in &totals {
            for face in 1..=sides {
                let value = total + if die.sides == 0 { 0 } else { face };
                match next.iter_mut().find(|(seen, _)| *seen == value) {
                    Some((_, q)) => *q += p / f64::from(sides),
                    None => next.push((value, p / f64::from(sides))),
                }
            }
        }
        totals = next;
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_opposed_d20_is_won_less_than_half_the_time_since_ties_go_to_the_target() {
        let memo = OddsMemo::default();
        let d20 = Dice { count: 1, sides: 20, modifier: 0 };
        assert!((wins_opposed(&memo, d20, 0) - 190.0 / 400.0).abs() < 1e-9);
        assert!((wins_opposed(&memo, d20, 20) - 1.0).abs() < 1e-9);
        let two_d6 = Dice { count: 2, sides: 6, modifier: 0 };
        let total: f64 = distribution(two_d6).iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    #[test]
    fn remembered_odds_are_the_worked_out_ones_bit_for_bit() {
        let memo = OddsMemo::default();
        let dice = [Dice { count: 1, sides: 20, modifier: 0 }, Dice { count: 2, sides: 6, modifier: 1 }];
        // Twice over: the first asks fill the memo, the second read it.
        for _ in 0..2 {
            for die in dice {
                for edge in -25..25 {
                    assert_eq!(wins_opposed(&memo, die, edge).to_bits(), opposed_odds(die, edge).to_bits());
                    let worked_out: f64 =
                        distribution(die).iter().filter(|&&(total, _)| total + edge < 11).map(|(_, p)| p).sum();
                    assert_eq!(fails_test(&memo, die, edge, 11).to_bits(), worked_out.to_bits());
                }
            }
        }
        // Different asks are told apart.
        assert_ne!(wins_opposed(&memo, dice[0], 3), wins_opposed(&memo, dice[0], -3));
        assert_ne!(fails_test(&memo, dice[0], 0, 5), fails_test(&memo, dice[0], 0, 15));
    }
}
