//! The modifiers of one attack, one small function per ruleset option. Each returns a typed
//! [`Modifier`] (or nothing when its option is off or does not apply); [`RULES`] lists them.
//! A new ruleset option is one more function here and one more line in [`RULES`].

use bevy::prelude::*;

use super::{AttackRequest, Engagement};
use crate::battlefield::{Cover, Square};
use crate::rules::actions;
use crate::rules::components::{AimPoint, BONUS_ACTIONS_PER_TURN};
use crate::rules::log::{AttackExtra, AttackKind};
use crate::rules::resolve::Resolver;
use crate::rules::ruleset::{DualWield, RangedInMelee};
use crate::rules::unit::{self, UnitView};

/// Where a modifier comes from, with what the log notes about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ModifierSource {
    /// The attacker's attack skill and weapon, less its accuracy penalties.
    Skill,
    /// The target's cover (`S-COVER-1`).
    Cover(Cover),
    /// An aimed blow (`A-AIM-1`).
    Aim(AimPoint),
    /// The end of a charge (`S-SPEC-1`).
    Charge,
    /// Allies swarming the target (`S-SPEC-1`); the swarm's damage is kept on the engagement.
    Swarm,
    /// A second weapon in hand (`Z-ATK-3`, `S-DUAL-1`).
    DualWield,
    /// The bonus actions went into the blow (`A-BONUS-1`).
    StoodStill,
    /// An ally fights the target from the far side (`A-COND-1`).
    Flanking,
    /// A weakened attacker (`Z-HIND-1`).
    Weakened,
    /// Shooting with foes in melee reach (`C-AOO-1`).
    RangedInMelee,
    /// A snap attack, out of turn (`S-SPEC-1`).
    Snap,
    /// A prone target attacked from beyond the adjacent squares, or a prone attacker in melee
    /// (`S-ATK-2`).
    Prone,
    /// A missile or throw past the weapon's normal range (`S-ATK-2`).
    LongRange,
}

/// One modifier to an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Modifier {
    /// Where it comes from.
    pub source: ModifierSource,
    /// Added to the attack roll.
    pub to_hit: i32,
    /// Added to the damage of a hit.
    pub damage: i32,
    /// The attack is rolled with disadvantage.
    pub disadvantage: bool,
}

impl Modifier {
    fn to_hit(source: ModifierSource, to_hit: i32) -> Self {
        Self { source, to_hit, damage: 0, disadvantage: false }
    }

    fn disadvantage(source: ModifierSource) -> Self {
        Self { source, to_hit: 0, damage: 0, disadvantage: true }
    }
}

/// The two units of an attack and what it stands on, as each modifier reads them.
pub(super) struct Matchup<'a, 'w, 's> {
    pub attacker: &'a UnitView<'w, 's>,
    pub target: &'a UnitView<'w, 's>,
    pub request: &'a AttackRequest,
    pub engagement: &'a Engagement,
}

/// One ruleset option's modifier.
type Rule = fn(&Resolver, &Matchup) -> Option<Modifier>;

/// Every modifier an attack may get.
const RULES: [Rule; 14] = [
    skill,
    cover,
    aim,
    charge,
    swarm,
    dual_wield,
    stood_still,
    flanking,
    weakened,
    ranged_in_melee,
    snap,
    prone_target_afar,
    prone_attacker,
    long_range,
];

/// The modifiers that apply to one attack.
#[derive(Clone, Debug, Default)]
pub(in crate::rules::resolve) struct Modifiers(Vec<Modifier>);

impl Modifiers {
    /// The total bonus to hit.
    pub fn to_hit(&self) -> i32 {
        self.0.iter().map(|modifier| modifier.to_hit).sum()
    }

    /// The total flat damage added to a hit.
    pub fn damage(&self) -> i32 {
        self.0.iter().map(|modifier| modifier.damage).sum()
    }

    /// Whether the attack is rolled with disadvantage.
    pub fn disadvantage(&self) -> bool {
        self.0.iter().any(|modifier| modifier.disadvantage)
    }

    /// Notes the modifiers the log shows.
    pub fn annotate(&self, extra: &mut AttackExtra) {
        for modifier in &self.0 {
            match modifier.source {
                ModifierSource::Cover(cover @ (Cover::Half | Cover::Full)) => extra.cover = Some(cover),
                ModifierSource::Aim(aim) => extra.aim = Some(aim),
                ModifierSource::Charge => extra.charge = true,
                ModifierSource::Swarm => extra.swarm_bonus = Some(modifier.to_hit),
                ModifierSource::Flanking => extra.flanking = true,
                ModifierSource::Cover(Cover::None)
                | ModifierSource::Skill
                | ModifierSource::DualWield
                | ModifierSource::StoodStill
                | ModifierSource::Weakened
                | ModifierSource::RangedInMelee
                | ModifierSource::Snap
                | ModifierSource::Prone
                | ModifierSource::LongRange => {}
            }
        }
    }
}

impl Resolver<'_, '_> {
    /// Gathers every modifier that applies to an attack.
    pub(super) fn gather_modifiers<'w, 's>(
        &self,
        request: &AttackRequest,
        engagement: &Engagement,
        attacker: &UnitView<'w, 's>,
        target: &UnitView<'w, 's>,
    ) -> Modifiers {
        let matchup = Matchup { attacker, target, request, engagement };
        Modifiers(RULES.iter().filter_map(|rule| rule(self, &matchup)).collect())
    }

    /// Whether an ally of the attacker stands on the far side of the target, in reach of it.
    fn flanked(&self, attacker: &UnitView, target: &UnitView) -> bool {
        // Flanking needs squares: zones have no far side.
        let (Some(from), Some(at)) = (
            self.battlefield.zone(attacker.standing.zone.0).square,
            self.battlefield.zone(target.standing.zone.0).square,
        ) else {
            return false;
        };
        let opposite = Square { x: 2 * at.x - from.x, y: 2 * at.y - from.y };
        // The far side may lie off the grid.
        let Some(zone) = self.battlefield.zone_at(opposite) else {
            return false;
        };
        self.index.occupants(zone).iter().any(|&other| {
            self.units.get(other).is_ok_and(|view| {
                view.standing.side == attacker.standing.side
                    && unit::is_fighting(*view.standing.status, view.round.conditions)
            })
        })
    }
}

/// The attacker's attack skill and weapon bonus, less its accuracy penalties, with the
/// attribute modifier and combat skill (or an NPC's Hit Dice) where the ruleset adds them (`S-ATK-1`).
fn skill(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let engagement = m.engagement;
    let bonus = actions::roll_bonus(&battle.ruleset, m.attacker, &engagement.weapon, engagement.thrown);
    Some(Modifier::to_hit(ModifierSource::Skill, bonus))
}

/// Cover from a ranged attack on a grid (`S-COVER-1`).
fn cover(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    if m.engagement.cover == Cover::None {
        return None;
    }
    let penalty = actions::cover_penalty(&battle.ruleset, m.engagement.cover);
    Some(Modifier::to_hit(ModifierSource::Cover(m.engagement.cover), -penalty))
}

/// An aimed blow; only aiming at centre mass is easier (`A-AIM-1`).
fn aim(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let aim = m.request.strike.aim?;
    let bonus = match aim {
        AimPoint::CentreMass => battle.ruleset.attack.aiming.as_ref().map_or(0, |aiming| aiming.centre_mass_bonus),
        _ => 0,
    };
    Some(Modifier::to_hit(ModifierSource::Aim(aim), bonus))
}

/// The end of a charge (`S-SPEC-1`).
fn charge(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    m.request.strike.charge.then_some(())?;
    let bonus = battle.ruleset.attack.charge.as_ref().map_or(0, |charge| charge.hit_bonus);
    Some(Modifier::to_hit(ModifierSource::Charge, bonus))
}

/// Allies swarming the target (`S-SPEC-1`).
fn swarm(_: &Resolver, m: &Matchup) -> Option<Modifier> {
    let (hit, _) = m.engagement.swarm;
    (hit > 0).then(|| Modifier::to_hit(ModifierSource::Swarm, hit))
}

/// A second melee weapon in hand (`Z-ATK-3`, `S-DUAL-1`): to hit, and damage when both reach.
fn dual_wield(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    // The other dual-wield rules change the damage roll, not the modifiers.
    let DualWield::Bonus { hit, damage, .. } = battle.ruleset.attack.dual_wield else {
        return None;
    };
    let engagement = m.engagement;
    (engagement.offhand.is_some() && !engagement.thrown).then_some(())?;
    let damage = if engagement.both_reach { damage } else { 0 };
    Some(Modifier { source: ModifierSource::DualWield, to_hit: hit, damage, disadvantage: false })
}

/// Attacking without moving first (`A-BONUS-1`).
fn stood_still(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    if battle.ruleset.turns.bonus_actions.is_some() {
        return chosen_bonus(m);
    }
    let (hit, damage) = battle.ruleset.attack.standing_bonus?;
    let strike = m.request.strike;
    (strike.primary && strike.stood_still).then_some(())?;
    // One Bonus Action buys the +hit, the second the +damage; a weakened unit keeps the first (`A-AIM-1`).
    let left = m.attacker.round.conditions.bonus_actions_left();
    (left > 0).then_some(())?;
    let damage = if left >= BONUS_ACTIONS_PER_TURN { damage } else { 0 };
    Some(Modifier { source: ModifierSource::StoodStill, to_hit: hit, damage, disadvantage: false })
}

/// Bonus Actions the declaration spent on its attacks (`A-BONUS-1`): +hit on each, +damage on
/// melee and thrown ones, since the seed sells the damage for melee weapons.
fn chosen_bonus(m: &Matchup) -> Option<Modifier> {
    let (hit, damage) = m.request.strike.bonus;
    let damage = if m.engagement.ranged && !m.engagement.thrown { 0 } else { damage };
    (hit != 0 || damage != 0).then_some(Modifier {
        source: ModifierSource::StoodStill,
        to_hit: hit,
        damage,
        disadvantage: false,
    })
}

/// An ally fights the target from the far side (`A-COND-1`).
fn flanking(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let conditions = battle.ruleset.attack.conditions.as_ref()?;
    (!m.engagement.ranged && battle.flanked(m.attacker, m.target)).then_some(())?;
    Some(Modifier::to_hit(ModifierSource::Flanking, conditions.flanking_bonus))
}

/// A weakened attacker rolls every test with disadvantage (`Z-HIND-1`).
fn weakened(_: &Resolver, m: &Matchup) -> Option<Modifier> {
    unit::weakened(m.attacker.round.conditions).then(|| Modifier::disadvantage(ModifierSource::Weakened))
}

/// Shooting with a foe in melee reach (`C-AOO-1`): disadvantage or a penalty, as the ruleset says.
fn ranged_in_melee(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let engagement = m.engagement;
    let pressed = engagement.ranged
        && (engagement.walking <= battle.battlefield.melee_reach(0)
            || battle.is_threatened(m.attacker.standing.zone.0, *m.attacker.standing.side));
    pressed.then_some(())?;
    match battle.ruleset.attack.ranged_in_melee {
        RangedInMelee::Disadvantage => Some(Modifier::disadvantage(ModifierSource::RangedInMelee)),
        RangedInMelee::Penalty(penalty) => Some(Modifier::to_hit(ModifierSource::RangedInMelee, -penalty)),
        // Provoking is handled before the action (see `provoke_by_acting`).
        RangedInMelee::Allowed | RangedInMelee::Provokes => None,
    }
}

/// A snap attack, struck out of turn (`S-SPEC-1`).
fn snap(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let rules = battle.ruleset.attack.snap_attack.as_ref()?;
    (m.request.kind == AttackKind::Snap).then(|| Modifier::to_hit(ModifierSource::Snap, -rules.penalty))
}

/// A prone target attacked from beyond the adjacent squares (`S-ATK-2`): its lowered Defense
/// stands for the bonus against "an adjacent prone foe", so a reach weapon's blow from further
/// off undoes it, and a distant shot undoes it and takes the penalty on top.
fn prone_target_afar(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let rules = battle.ruleset.attack.situational.as_ref()?;
    let afar = m.engagement.walking > battle.battlefield.melee_reach(0);
    (m.target.round.conditions.prone && afar).then(|| {
        let undo = battle.ruleset.attack.prone_defense_penalty;
        let distant = if m.engagement.ranged { rules.distant_prone_penalty } else { 0 };
        Modifier::to_hit(ModifierSource::Prone, -(undo + distant))
    })
}

/// A melee attack made from the ground (`S-ATK-2`).
fn prone_attacker(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let rules = battle.ruleset.attack.situational.as_ref()?;
    (m.attacker.round.conditions.prone && !m.engagement.ranged)
        .then(|| Modifier::to_hit(ModifierSource::Prone, -rules.attacking_prone_penalty))
}

/// A missile or throw past the weapon's normal range, a share of its long `range` (`S-ATK-2`).
fn long_range(battle: &Resolver, m: &Matchup) -> Option<Modifier> {
    let rules = battle.ruleset.attack.situational.as_ref()?;
    let long = m.engagement.weapon.range?;
    let normal = long.saturating_mul(rules.normal_range_percent) / 100;
    let distance = battle.battlefield.line_distance(m.attacker.standing.zone.0, m.target.standing.zone.0);
    (distance > normal).then(|| Modifier::to_hit(ModifierSource::LongRange, -rules.long_range_penalty))
}
