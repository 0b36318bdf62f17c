//! Forecasts for actions other than weapon attacks (`C-CAST-1`, `S-MAN-1`, `W-WOUND-4`): what a
//! spell, an item, a manoeuvre or a heal check would do to its target and how likely, worked out
//! exactly from the dice the resolve stage rolls. Weapon attacks have [`actions::attack_odds`].

use super::actions::{self, AttackOdds, ManeuverCheck};
use super::components::{Action, ActionKind};
use super::damage;
use super::dice::Dice;
use super::equipment::{Effect, Weapon};
use super::ruleset::{AttackStyle, Pools, Ruleset};
use super::unit::{self, UnitView};
use crate::battlefield::Cover;

/// The most totals a dice expression may have for its chances to be counted: beyond this the
/// forecast says what happens without a chance (hostile data cannot stall the window).
const MOST_TOTALS: u64 = 100_000;

/// Every total `dice` can roll with its chance, lowest first; `None` when there are too many.
pub fn totals(dice: Dice) -> Option<Vec<(i32, f64)>> {
    if dice.sides == 0 || dice.count == 0 {
        return Some(vec![(dice.modifier, 1.0)]);
    }
    if u64::from(dice.count) * u64::from(dice.sides) > MOST_TOTALS {
        return None;
    }
    // Chances of each sum of the dice so far, from the least sum (the count of dice) up.
    let mut sums = vec![1.0];
    let face = 1.0 / f64::from(dice.sides);
    for _ in 0..dice.count {
        let mut next = vec![0.0; sums.len() + dice.sides as usize - 1];
        for (at, chance) in sums.iter().enumerate() {
            for step in 0..dice.sides as usize {
                next[at + step] += chance * face;
            }
        }
        sums = next;
    }
    let least = dice.min();
    Some(sums.into_iter().enumerate().map(|(at, chance)| (least + at as i32, chance)).collect())
}

/// The totals of a test of `dice`, rolled twice keeping the lower with `disadvantage` (as
/// [`CombatRng::roll_test`](super::dice::CombatRng::roll_test)).
pub fn test_totals(dice: Dice, disadvantage: bool) -> Option<Vec<(i32, f64)>> {
    let once = totals(dice)?;
    if !disadvantage {
        return Some(once);
    }
    // The lower of two is at least v when both are: its chance of exactly v is S(v)² − S(v+1)².
    let mut at_least = once.iter().map(|(_, chance)| chance).rev().scan(0.0, |sum, chance| {
        *sum += chance;
        Some(*sum)
    });
    let mut tails: Vec<f64> = at_least.by_ref().collect();
    tails.reverse();
    let tail = |at: usize| tails.get(at).copied().unwrap_or(0.0);
    Some(once.iter().enumerate().map(|(at, (total, _))| (*total, tail(at).powi(2) - tail(at + 1).powi(2))).collect())
}

/// The chance a roll of `totals` reaches `tn`.
pub fn chance_at_least(totals: &[(i32, f64)], tn: i32) -> f64 {
    totals.iter().filter(|(total, _)| *total >= tn).map(|(_, chance)| chance).sum::<f64>().min(1.0)
}

/// The chance a roll of `ours` beats (is strictly above) a roll of `theirs`.
pub fn chance_above(ours: &[(i32, f64)], theirs: &[(i32, f64)]) -> f64 {
    let below = |total: i32| theirs.iter().filter(|(their, _)| *their < total).map(|(_, chance)| chance).sum::<f64>();
    ours.iter().map(|(total, chance)| chance * below(*total)).sum::<f64>().min(1.0)
}

/// The chance a check of `dice`, with disadvantage when `weakened` (`Z-HIND-1`), reaches `tn`;
/// `None` when the dice have too many totals to count.
pub fn check_chance(dice: Dice, weakened: bool, tn: i32) -> Option<f64> {
    test_totals(dice, weakened).map(|roll| chance_at_least(&roll, tn))
}

/// The chance a check of `ours` beats a check of `theirs` outright (`S-MAN-1`, `Z-STUNT-1`),
/// each rolled with disadvantage when weakened (`Z-HIND-1`).
pub fn opposed_chance(ours: Dice, ours_weakened: bool, theirs: Dice, theirs_weakened: bool) -> Option<f64> {
    Some(chance_above(&test_totals(ours, ours_weakened)?, &test_totals(theirs, theirs_weakened)?))
}

/// A pool an effect fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// Stress.
    Stress,
    /// Wound Points (hit points where the ruleset has one pool).
    Wounds,
}

/// What an action does to its target if it succeeds.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Damage, Armour already taken off.
    Damage {
        /// The least it deals.
        least: i32,
        /// The most it deals.
        most: i32,
    },
    /// Stress or Wound Points restored, no more than the target has lost.
    Restore {
        /// Which pool.
        pool: Pool,
        /// The least restored.
        least: i32,
        /// The most restored.
        most: i32,
    },
    /// Summons or conjures allies rather than touching the target.
    Summons,
    /// A fallen target is stabilised: it stops bleeding (`W-WOUND-4`).
    Stabilises,
    /// The target is pushed a step away, or knocked prone with no room (`S-MAN-1`).
    Pushed,
    /// The target is knocked prone where it stands.
    KnockedDown,
    /// The target is held: neither moves (`S-MAN-1`).
    Held,
    /// The target must test its morale at the end of the round.
    Intimidated,
    /// The next ally's attack on the target this round gains (`S-SPEC-1`).
    Swarmed,
    /// The actor blocks the attacks made at the target until its next turn (`S-SPEC-1`).
    Screened,
    /// An execution: failing its save, the target drops; saving, it takes `saved` damage.
    Executed {
        /// Damage on a saved execution, after Armour.
        saved: i32,
    },
}

/// The forecast of one non-weapon action at one target.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    /// The chance it succeeds, 0 to 1; `None` when it has no roll and simply happens.
    pub chance: Option<f64>,
    /// What success does.
    pub outcome: Outcome,
    /// A rule that may still spoil it, in plain words.
    pub caveat: Option<&'static str>,
}

/// The forecast of `action` by `actor` at `target`, for the kinds that are not weapon attacks
/// (those have [`actions::attack_odds`], and a throw [`throw_odds`]); `None` for kinds without
/// a target or anything to forecast.
pub fn forecast(ruleset: &Ruleset, actor: &UnitView, target: &UnitView, action: &Action) -> Option<Forecast> {
    match action.kind {
        ActionKind::Cast(at) => cast_forecast(ruleset, actor, target, at),
        ActionKind::UseItem(at) => {
            let stack = actor.arms.inventory.0.get(at)?;
            let outcome = effect_outcome(ruleset, &stack.item.effect, target, 0);
            Some(Forecast { chance: None, outcome, caveat: None })
        }
        ActionKind::Shove | ActionKind::KnockDown | ActionKind::Grapple => {
            maneuver_forecast(ruleset, actor, target, action.kind)
        }
        ActionKind::Stabilize => {
            let tn = ruleset.wounds.stabilise_tn_base + target.body.wounds.highest_injury();
            let chance = check_chance(ruleset.wounds.heal_die.plus(actor.body.skills.heal), false, tn);
            Some(Forecast { chance, outcome: Outcome::Stabilises, caveat: None })
        }
        ActionKind::Intimidate => Some(Forecast {
            chance: None,
            outcome: Outcome::Intimidated,
            caveat: (!ruleset.morale.check_when_intimidated).then_some("this ruleset asks no morale test for it"),
        }),
        ActionKind::Swarm => Some(Forecast { chance: None, outcome: Outcome::Swarmed, caveat: None }),
        ActionKind::Screen => Some(Forecast { chance: None, outcome: Outcome::Screened, caveat: None }),
        ActionKind::Execute => execute_forecast(ruleset, actor, target),
        _ => None,
    }
}

/// A spell (`C-CAST-1`): a casting check against its TN, then its effect.
fn cast_forecast(ruleset: &Ruleset, caster: &UnitView, target: &UnitView, at: usize) -> Option<Forecast> {
    let (_, spell) = caster.magic.spells.0.get(at)?;
    let check = ruleset.spells.casting_die.plus(caster.body.skills.spellcasting);
    let chance = check_chance(check, unit::weakened(caster.round.conditions), spell.tn);
    let armour = if ruleset.spells.armour_stops_spells { target.arms.armour.0 } else { 0 };
    let outcome = effect_outcome(ruleset, &spell.effect, target, armour);
    let caveat = ruleset.spells.damage_disrupts.then_some("a hit on the caster before it casts spoils the spell");
    Some(Forecast { chance, outcome, caveat })
}

/// What `effect` does to `target` through `armour` (as the resolve stage queues it).
fn effect_outcome(ruleset: &Ruleset, effect: &Effect, target: &UnitView, armour: i32) -> Outcome {
    match *effect {
        Effect::Damage { dice, .. } => Outcome::Damage {
            least: damage::damage_after_armour(ruleset, dice.min(), 1, armour),
            most: damage::damage_after_armour(ruleset, dice.max(), 1, armour),
        },
        Effect::RestoreStress { dice } | Effect::RestoreWounds { dice } => {
            // With one pool of hit points, whatever restores Stress restores hit points.
            let wounds = matches!(effect, Effect::RestoreWounds { .. }) || ruleset.damage.pools == Pools::HitPoints;
            let (pool, current, max) = if wounds {
                (Pool::Wounds, target.body.wounds.current, target.body.wounds.max)
            } else {
                (Pool::Stress, target.body.stress.current, target.body.stress.max)
            };
            let room = (max - current).max(0);
            Outcome::Restore { pool, least: dice.min().max(0).min(room), most: dice.max().max(0).min(room) }
        }
        Effect::Summon | Effect::Conjure { .. } => Outcome::Summons,
    }
}

/// A shove, knock-down or grapple (`S-MAN-1`, `Z-STUNT-1`): an attack roll first where the
/// ruleset asks for one, then an opposed check the actor must win outright.
fn maneuver_forecast(ruleset: &Ruleset, actor: &UnitView, target: &UnitView, kind: ActionKind) -> Option<Forecast> {
    let rules = ruleset.attack.maneuvers.as_ref()?;
    let grapple = kind == ActionKind::Grapple;
    let lands = if rules.attack_roll_first {
        let weapon = if grapple {
            &actor.arms.loadout.unarmed
        } else {
            actor.arms.loadout.usable_weapon(actor.round.conditions).1
        };
        let charge = ruleset.attack.charge.as_ref().map_or(0, |charge| charge.defense_penalty);
        let defense =
            unit::defense_score(ruleset, target.body.attributes, target.arms.defense, target.round.conditions)
                - if target.round.conditions.charging { charge } else { 0 };
        check_chance(ruleset.attack.die.plus(actions::roll_bonus(ruleset, actor, weapon, false)), false, defense)?
    } else {
        1.0
    };
    let check = if grapple { ManeuverCheck::Hold } else { ManeuverCheck::Shove };
    let ours =
        actions::maneuver_bonus(ruleset, rules, actor, check, true) - actions::size_penalty(rules, actor, target);
    let theirs = actions::maneuver_bonus(ruleset, rules, target, check, false);
    let weak = (unit::weakened(actor.round.conditions), unit::weakened(target.round.conditions));
    let wins = opposed_chance(rules.die.plus(ours), weak.0, rules.die.plus(theirs), weak.1)?;
    let outcome = match kind {
        ActionKind::Grapple => Outcome::Held,
        ActionKind::KnockDown => Outcome::KnockedDown,
        _ => Outcome::Pushed,
    };
    Some(Forecast { chance: Some(lands * wins), outcome, caveat: None })
}

/// An execution (`S-EXEC-1`): a melee one lands; the target saves at a penalty of the attacker's
/// attack skill. The chance forecast is the target failing its save. A ranged execution's aim
/// roll depends on the distance at the time, so it is not counted in.
fn execute_forecast(ruleset: &Ruleset, actor: &UnitView, target: &UnitView) -> Option<Forecast> {
    let rules = ruleset.attack.execution.as_ref()?;
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).1;
    let saves = check_chance(rules.save_die.plus(-actor.body.skills.attack), false, rules.save_tn)?;
    let dice = actions::damage_dice(ruleset, actor, weapon, false);
    let saved = damage::damage_after_armour(ruleset, dice.max(), 1, target.arms.armour.0);
    let caveat = weapon.is_ranged().then_some("a ranged execution must first hit");
    Some(Forecast { chance: Some(1.0 - saves), outcome: Outcome::Executed { saved }, caveat })
}

/// Odds of `attacker` throwing the item at `at` of its inventory at `target` in `cover`: an
/// attack with the item as a thrown weapon (as the resolve stage makes it); `None` if it is not
/// a damaging throw.
pub fn throw_odds(
    ruleset: &Ruleset,
    attacker: &UnitView,
    target: &UnitView,
    (at, cover): (usize, Cover),
) -> Option<AttackOdds> {
    let weapon = attacker.arms.inventory.0.get(at)?.item.as_thrown_weapon()?;
    let dice = actions::damage_dice(ruleset, attacker, &weapon, true);
    let (bonus, defense) = match &ruleset.attack.style {
        AttackStyle::VsDefense => (
            actions::roll_bonus(ruleset, attacker, &weapon, true),
            unit::defense_score(ruleset, target.body.attributes, target.arms.defense, target.round.conditions),
        ),
        AttackStyle::Test { tn, ranged, .. } => (thrown_test_bonus(ruleset, attacker, &weapon, *ranged), *tn),
    };
    let bonus = bonus - actions::cover_penalty(ruleset, cover);
    Some(actions::odds_against(ruleset, bonus, &weapon, dice, defense, target.arms.armour.0))
}

/// A throw's test bonus where attacks are tests, as [`actions::AttackerOdds`] reads a missile's.
fn thrown_test_bonus(
    ruleset: &Ruleset,
    attacker: &UnitView,
    weapon: &Weapon,
    ranged: super::equipment::Attribute,
) -> i32 {
    actions::attack_bonus(attacker, weapon) + unit::modifier(ruleset, attacker.body.attributes, ranged)
}

/// A percentage from a share.
const PERCENT: f64 = 100.0;

impl Forecast {
    /// The chance in words: `62% to work`, or `no roll: it happens`.
    pub fn chance_words(&self) -> String {
        match self.chance {
            Some(chance) => format!("{:.0}% to work", chance * PERCENT),
            None => "no roll: it happens".to_string(),
        }
    }

    /// What success does, in plain words (damage left to the caller, which knows the target).
    pub fn outcome_words(&self) -> String {
        match &self.outcome {
            Outcome::Damage { least, most } => format!("damage {least}–{most}"),
            Outcome::Restore { pool, least, most } => {
                let pool = match pool {
                    Pool::Stress => "Stress",
                    Pool::Wounds => "Wound Points",
                };
                if *most == 0 {
                    format!("restores no {pool}: none lost")
                } else {
                    format!("restores {least}–{most} {pool}")
                }
            }
            Outcome::Summons => "calls up allies beside the caster".to_string(),
            Outcome::Stabilises => "stabilises it: it stops losing Wound Points".to_string(),
            Outcome::Pushed => "pushes it a step away (prone if there is no room)".to_string(),
            Outcome::KnockedDown => "knocks it prone".to_string(),
            Outcome::Held => "holds it: neither of you can move away".to_string(),
            Outcome::Intimidated => "it must test its morale at the end of the round".to_string(),
            Outcome::Swarmed => "your next ally's attack on it this round gains a bonus".to_string(),
            Outcome::Screened => "you block the attacks made at it until your next turn".to_string(),
            Outcome::Executed { saved } => format!("it drops if it fails its save; saving, it takes {saved}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every total of `dice`, one per way its dice can fall: the odometer over every face of
    /// every die, counted without the convolution the forecast uses.
    fn every_fall(dice: Dice) -> Vec<i32> {
        let mut falls = vec![dice.modifier];
        for _ in 0..dice.count {
            falls = falls.iter().flat_map(|sum| (1..=dice.sides as i32).map(move |face| sum + face)).collect();
        }
        falls
    }

    /// A test's totals, one per way its roll (or two rolls, the lower kept) can fall.
    fn every_test(dice: Dice, disadvantage: bool) -> Vec<i32> {
        let falls = every_fall(dice);
        if !disadvantage {
            return falls;
        }
        falls.iter().flat_map(|first| falls.iter().map(move |second| *first.min(second))).collect()
    }

    /// The share of `falls` for which `wins` holds.
    fn share<T>(falls: &[T], wins: impl Fn(&T) -> bool) -> f64 {
        falls.iter().filter(|fall| wins(fall)).count() as f64 / falls.len() as f64
    }

    fn close(counted: f64, worked_out: f64, case: &str) {
        assert!((counted - worked_out).abs() < 1e-12, "{case}: every face gives {counted}, the forecast {worked_out}");
    }

    #[test]
    fn c_cast_1_casting_chance_on_a_d20_matches_every_face_with_and_without_disadvantage() {
        let die = Dice::new(1, 20);
        for skill in [-3, 0, 4, 10] {
            for tn in [2, 8, 12, 15, 21, 25, 30] {
                for weakened in [false, true] {
                    let counted = share(&every_test(die.plus(skill), weakened), |total| *total >= tn);
                    let worked_out = check_chance(die.plus(skill), weakened, tn).expect("countable");
                    close(counted, worked_out, &format!("d20{skill:+} vs TN {tn}, weakened {weakened}"));
                }
            }
        }
    }

    #[test]
    fn w_wound_4_stabilise_chance_on_2d6_and_3d6_matches_every_face() {
        // Shock and Cover heals on 2d6 against 8 + the highest injury; 3d6 as a many-dice case.
        for die in [Dice::new(2, 6), Dice::new(3, 6)] {
            for skill in [0, 2] {
                for injury in [0, 1, 3, 6, 12] {
                    let tn = 8 + injury;
                    let counted = share(&every_fall(die.plus(skill)), |total| *total >= tn);
                    close(
                        counted,
                        check_chance(die.plus(skill), false, tn).expect("countable"),
                        &format!("{die:?} vs {tn}"),
                    );
                }
            }
        }
    }

    #[test]
    fn s_man_1_opposed_2d6_checks_match_every_face_and_ties_go_to_the_defender() {
        let die = Dice::new(2, 6);
        for (ours, theirs) in [(0, 0), (3, 1), (-2, 2), (6, 0)] {
            let falls: Vec<(i32, i32)> = every_fall(die.plus(ours))
                .into_iter()
                .flat_map(|our| every_fall(die.plus(theirs)).into_iter().map(move |their| (our, their)))
                .collect();
            let counted = share(&falls, |(our, their)| our > their);
            let worked_out = opposed_chance(die.plus(ours), false, die.plus(theirs), false).expect("countable");
            close(counted, worked_out, &format!("2d6{ours:+} against 2d6{theirs:+}"));
        }
        // Equal bonuses: a tie is no win, so the actor wins less than half the time.
        assert!(opposed_chance(die, false, die, false).expect("countable") < 0.5);
    }

    #[test]
    fn z_stunt_1_opposed_d20_tests_with_weakened_sides_match_every_face() {
        let die = Dice::new(1, 20);
        for (ours_weak, theirs_weak) in [(false, false), (true, false), (false, true), (true, true)] {
            let falls: Vec<(i32, i32)> = every_test(die.plus(2), ours_weak)
                .into_iter()
                .flat_map(|our| every_test(die.plus(1), theirs_weak).into_iter().map(move |their| (our, their)))
                .collect();
            let counted = share(&falls, |(our, their)| our > their);
            let worked_out = opposed_chance(die.plus(2), ours_weak, die.plus(1), theirs_weak).expect("countable");
            close(counted, worked_out, &format!("weakened: ours {ours_weak}, theirs {theirs_weak}"));
        }
    }

    #[test]
    fn totals_of_many_huge_dice_are_not_counted_but_a_flat_number_is_certain() {
        assert_eq!(totals(Dice::new(1_000, 1_000_000)), None);
        assert_eq!(check_chance(Dice::flat(7), false, 7), Some(1.0));
        assert_eq!(check_chance(Dice::flat(6), false, 7), Some(0.0));
    }
}
