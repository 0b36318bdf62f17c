//! One attack as a pipeline (`W-HIT-1`, `W-CRIT-1`, and the variants rulesets choose): engage
//! (reach and sight), gather the modifiers (`modifiers`), judge the roll by the ruleset's
//! `AttackStyle` (`judge`), let the target answer the roll with total defense (`total_defense`),
//! deal the damage by its `CriticalRule` (`damage`), Shock on a miss (`shock`) and fumbles
//! (`fumble`).

mod damage;
mod fumble;
mod judge;
mod modifiers;
mod shock;
mod total_defense;

use std::sync::Arc;

use bevy::prelude::*;

use self::judge::Judgement;
use self::modifiers::Modifiers;
use super::wounds::lethal;
use super::{Pending, Resolver, Strike};
use crate::battlefield::Cover;
use crate::rules::actions;
use crate::rules::components::{ActionKind, Hand};
use crate::rules::dice::{Dice, DiceRoll};
use crate::rules::equipment::{Shock, Weapon};
use crate::rules::log::line;
use crate::rules::log::{AttackExtra, AttackKind, LogEvent};
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::{self, UnitView};

/// One attack to make: who strikes whom, when, how and with what.
#[derive(Clone, Debug)]
pub(in crate::rules) struct AttackRequest {
    /// Who strikes.
    pub attacker: Entity,
    /// Whom.
    pub target: Entity,
    /// The count it resolves at.
    pub initiative: i32,
    /// How it came about.
    pub kind: AttackKind,
    /// A thrown item's weapon, in place of the attacker's own.
    pub thrown: Option<Weapon>,
    /// How it is made.
    pub strike: Strike,
}

impl AttackRequest {
    /// An ordinary strike with the attacker's weapon.
    pub fn new(attacker: Entity, target: Entity, initiative: i32, kind: AttackKind) -> Self {
        Self { attacker, target, initiative, kind, thrown: None, strike: Strike::default() }
    }

    /// Made this way.
    pub fn with(self, strike: Strike) -> Self {
        Self { strike, ..self }
    }

    /// With a thrown item.
    pub fn thrown(self, weapon: Weapon) -> Self {
        Self { thrown: Some(weapon), ..self }
    }
}

/// What an attack stands on, read from both units before any die is rolled.
#[derive(Clone, Debug)]
pub(super) struct Engagement {
    /// The weapon it is made with.
    weapon: Weapon,
    /// The name of the attacker's weapon in hand (worn by fumbles).
    weapon_name: Arc<str>,
    /// A thrown item.
    thrown: bool,
    /// A ranged weapon: straight-line range and sight.
    ranged: bool,
    /// Walking distance between the two.
    walking: u32,
    /// The target's cover from the attacker.
    cover: Cover,
    /// The target may answer with a Reposte (`W-DECL-3`).
    reposte: bool,
    /// The attacker stands in the target's melee reach (fumbles give it a free hit there).
    in_target_zone: bool,
    /// A second melee weapon in hand, when the attack is one of two (`Z-ATK-3`, `S-DUAL-1`).
    offhand: Option<Weapon>,
    /// Both weapons reach the target.
    both_reach: bool,
    /// The second weapon's damage dice.
    second_dice: Option<Dice>,
    /// The weapon's damage dice with the attacker's bonuses.
    damage_dice: Dice,
    /// Sneak damage against a target that has not noticed the attacker.
    sneak_dice: Option<Dice>,
    /// The weapon's Shock, where the ruleset uses it (`S-SHOCK-1`), and the attacker's bonus to it.
    shock: Option<(Shock, i32)>,
    /// The target's Armour.
    armour: i32,
    /// The attacker's side and the target's.
    sides: (usize, usize),
    /// Log ids.
    attacker_id: Arc<str>,
    target_id: Arc<str>,
    /// The target is in full defense, or still has an unused shield.
    target_full_defense: bool,
    target_shield: bool,
    /// Damage that defeats each outright.
    target_lethal: i32,
    attacker_lethal: i32,
    /// The swarm bonus the attack uses up (to hit, damage; `S-SPEC-1`).
    swarm: (i32, i32),
}

impl Resolver<'_, '_> {
    /// One attack (`W-HIT-1`, `W-CRIT-1`, and the variants rulesets choose: DR tests and avoid
    /// tests `Z-ATK-1/2`, cover `S-COVER-1`, Shock `S-SHOCK-1`, swarms and charges `S-SPEC-1`,
    /// dual wielding `Z-ATK-3`/`S-DUAL-1`, aimed wounds `A-AIM-1`/`A-WOUND-1`, escalating
    /// criticals and fumbles `A-CRIT-1`/`A-FAIL-1`, usage marks `Z-CRIT-1`). A hit queues its
    /// damage. Returns `None` when the target is out of reach or sight, else whether the target
    /// may answer with a Reposte.
    pub(in crate::rules::resolve) fn attack(
        &mut self,
        request: AttackRequest,
        pending: &mut Vec<Pending>,
    ) -> Option<bool> {
        // Both units are looked up once for what the attack stands on, its modifiers and the
        // roll it needs: nothing between these changes them (the swarm taken is the stage's).
        let (mut engagement, modifiers, test) = {
            let during = "an attack";
            let (Some(a), Some(t)) = (
                self.faults.found(self.units.get(request.attacker), request.attacker, during),
                self.faults.found(self.units.get(request.target), request.target, during),
            ) else {
                return None;
            };
            let mut engagement = self.engage(&request, &a, &t)?;
            if request.strike.primary {
                engagement.swarm =
                    take_swarm(&self.ruleset, &mut self.state.swarms, request.target, engagement.sides.0);
            }
            let modifiers = self.gather_modifiers(&request, &engagement, &a, &t);
            let test = self.test(&engagement, modifiers.to_hit(), &a, &t);
            (engagement, modifiers, test)
        };
        let mut extra = AttackExtra::default();
        modifiers.annotate(&mut extra);
        let mut judgement = self.judge(&request, &engagement, test, &modifiers, &mut extra);
        self.total_defense_reaction(&request, &mut engagement, &mut judgement);
        let damage_roll = judgement.hit.then(|| {
            let (roll, hit) = self.deal_blow(&request, &engagement, &judgement, &modifiers, &mut extra);
            pending.push(Pending::Damage(hit));
            roll
        });
        self.log_attack(&request, &engagement, &judgement, damage_roll, extra);
        if !judgement.hit && !judgement.avoid {
            self.shock_on_miss(&request, &engagement, &judgement, pending);
        }
        if judgement.fumbled && (request.strike.primary || request.strike.bonus_attack) && !judgement.avoid {
            self.fumble(&request, &engagement, pending);
        }
        Some(engagement.reposte)
    }

    /// Reads what the attack stands on; `None` when the target is off the field, out of the
    /// weapon's range or out of sight (or either is not a unit, a fault).
    fn engage(&self, request: &AttackRequest, a: &UnitView, t: &UnitView) -> Option<Engagement> {
        let thrown = request.thrown.is_some();
        let weapon =
            request.thrown.clone().unwrap_or_else(|| a.arms.loadout.usable_weapon(a.round.conditions).1.clone());
        let ranged = weapon.is_ranged();
        let walking = self.battlefield.distance(a.standing.zone.0, t.standing.zone.0);
        let distance =
            if ranged { self.battlefield.line_distance(a.standing.zone.0, t.standing.zone.0) } else { walking };
        if !t.standing.status.on_field() || distance > actions::weapon_range(&weapon) {
            return None;
        }
        let cover = if ranged { self.battlefield.sight(a.standing.zone.0, t.standing.zone.0)? } else { Cover::None };
        // A bow or crossbow cannot be fired in melee at all (`S-ATK-2`): declaration refuses it,
        // and a shot whose shooter is pressed by the time it comes is lost.
        if !thrown
            && actions::fires_forbidden_bow(&self.ruleset, a, ActionKind::Attack)
            && actions::shooting_in_melee(
                self.ctx(),
                a.standing.zone.0,
                t.standing.zone.0,
                *a.standing.side,
                &*self.units,
            )
        {
            return None;
        }
        let target_weapon = t.arms.loadout.usable_weapon(t.round.conditions).1;
        let reposte = !ranged && self.reposte_ready(request, t, target_weapon, distance);
        let in_target_zone = !target_weapon.is_ranged()
            && target_weapon.reach >= walking
            && unit::is_fighting(*t.standing.status, t.round.conditions);
        let offhand = if ranged || thrown { None } else { self.second_weapon(a) };
        // The Bonus Actions' extra attack rolls the weapon's own dice: no Strength, no feats (`A-BONUS-1`).
        let damage_dice = if request.strike.bonus_attack {
            weapon.damage.without_dice(a.arms.loadout.focus_dice)
        } else {
            actions::damage_dice(&self.ruleset, a, &weapon, thrown)
        };
        Some(Engagement {
            weapon_name: a.arms.loadout.usable_weapon(a.round.conditions).0.into(),
            thrown,
            ranged,
            walking,
            cover,
            reposte,
            in_target_zone,
            both_reach: offhand.as_ref().is_some_and(|second| second.reaches(distance)),
            second_dice: offhand.as_ref().map(|second| actions::damage_dice(&self.ruleset, a, second, false)),
            offhand,
            damage_dice,
            sneak_dice: self.sneak_dice(a, t),
            shock: weapon
                .shock
                .filter(|_| self.ruleset.attack.shock)
                .map(|shock| (shock, shock_bonus(&self.ruleset, a, &weapon, thrown))),
            armour: t.arms.armour.0,
            sides: (a.standing.side.0, t.standing.side.0),
            attacker_id: a.standing.id.0.clone(),
            target_id: t.standing.id.0.clone(),
            target_full_defense: t.round.conditions.full_defense,
            target_shield: t.arms.loadout.shield && !t.round.conditions.shield_used,
            target_lethal: lethal(t),
            attacker_lethal: lethal(a),
            swarm: (0, 0),
            weapon,
        })
    }

    /// Whether a target in full defense may answer this melee attack with a Reposte: it is a
    /// normal attack, the ruleset grants it, and the target can react, fights, and reaches the
    /// attacker with a melee weapon.
    /// `target_weapon` is the weapon `t` has in hand.
    fn reposte_ready(&self, request: &AttackRequest, t: &UnitView, target_weapon: &Weapon, distance: u32) -> bool {
        request.kind == AttackKind::Normal
            && self.ruleset.reposte.when_attacked_in_full_defense
            && t.round.conditions.full_defense
            && actions::can_react(t)
            && unit::is_fighting(*t.standing.status, t.round.conditions)
            && !target_weapon.is_ranged()
            && target_weapon.reach >= distance
    }

    /// The attacker's off-hand weapon for a melee attack with its main one: two weapons in hand
    /// only count when both are for melee, and when the blow is the main weapon's. Bare hands
    /// (a hold's, `S-DUAL-1`: the target is not "within range of both wielded weapons") or the
    /// off-hand weapon alone wield no second weapon.
    fn second_weapon(&self, a: &UnitView) -> Option<Weapon> {
        a.arms
            .loadout
            .offhand
            .as_ref()
            .map(|(_, weapon)| weapon.clone())
            .filter(|second| !second.is_ranged())
            .filter(|_| a.arms.loadout.usable_hand(a.round.conditions) == Hand::Main)
            // A broken weapon is no second weapon.
            .filter(|_| !a.round.conditions.is_broken(Hand::Off))
            // Only the trained fight with two (`S-DUAL-1`).
            .filter(|_| actions::may_dual_wield(&self.ruleset, a))
    }

    /// Sneak damage against a target that has not noticed the attacker, doubled by criticals.
    fn sneak_dice(&self, attacker: &UnitView, target: &UnitView) -> Option<Dice> {
        self.ruleset
            .attack
            .conditions
            .as_ref()
            .filter(|_| target.round.surprised)
            .map(|conditions| conditions.sneak_damage.times_dice(1 + attacker.arms.loadout.sneak_dice))
    }

    /// The attack's line in the log.
    fn log_attack(
        &mut self,
        request: &AttackRequest,
        engagement: &Engagement,
        judgement: &Judgement,
        damage_roll: Option<DiceRoll>,
        extra: AttackExtra,
    ) {
        let round = self.round();
        let roll = judgement.roll.clone();
        let total = roll.total;
        self.log.record(round, || {
            LogEvent::Attack(line::Attack {
                attacker: engagement.attacker_id.clone(),
                target: engagement.target_id.clone(),
                initiative: request.initiative,
                roll,
                total,
                defense: judgement.needed,
                hit: judgement.hit,
                critical: judgement.critical,
                kind: request.kind,
                damage_roll,
                extra,
            })
        });
    }
}

/// What adds to a weapon's Shock (`S-SHOCK-1`): "the wielder's relevant attribute modifier for
/// the weapon [...] and a magic weapon's bonus".
fn shock_bonus(ruleset: &Ruleset, a: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    actions::damage_attribute_bonus(ruleset, a, weapon, thrown) + actions::magic_damage_bonus(ruleset, weapon)
}

/// The swarm bonus an attack by `side` on `target` gets (to hit, damage), used up by the attack:
/// taken from the round's `swarms`.
fn take_swarm(ruleset: &Ruleset, swarms: &mut Vec<(Entity, usize, i32)>, target: Entity, side: usize) -> (i32, i32) {
    // Rulesets without swarms, and targets no one swarms, give nothing.
    let Some(rules) = &ruleset.attack.swarm else {
        return (0, 0);
    };
    // No one of this side swarms the target.
    let Some(at) = swarms.iter().position(|(unit, by, _)| *unit == target && *by == side) else {
        return (0, 0);
    };
    let (_, _, assailants) = swarms.remove(at);
    (
        (assailants * rules.hit_per_assailant).min(rules.max_hit),
        (assailants * rules.damage_per_assailant).min(rules.max_damage),
    )
}
