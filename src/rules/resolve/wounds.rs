//! Damage and what it leaves (`W-DMG-*`, `W-CRIT-2`, `W-WOUND-*`, `A-WOUND-1`, `Z-ONGO-1`,
//! `Z-HIND-1`): dealing a hit to Stress then Wounds, combat injuries after criticals, aimed
//! wounds, and the lingering effects a weapon leaves.

use std::sync::Arc;

use bevy::prelude::*;

use super::{EXERTION, Resolver};
use crate::battlefield::ZoneIndex;
use crate::rules::components::*;
use crate::rules::damage::{self, DamageTaken};
use crate::rules::dice::{CombatRng, DiceRoll};
use crate::rules::equipment::{Attribute, DamageType, Hindrance, InjuryEffect, InjuryTables, Lingering, Weapon};
use crate::rules::log::line;
use crate::rules::log::{Affliction, CombatLog, InjuryRoll, LogEvent};
use crate::rules::ruleset::{AimRules, Ruleset};
use crate::rules::state::DamageDealt;
use crate::rules::unit::{self, UnitItem, UnitsMut};

/// One hit to apply.
#[derive(Clone, Debug)]
pub(in crate::rules) struct DamageHit {
    /// Who takes it.
    pub target: Entity,
    /// Who or what dealt it.
    pub source: Arc<str>,
    /// Amount after Armour.
    pub amount: i32,
    /// Type.
    pub damage_type: DamageType,
    /// From a critical hit.
    pub critical: bool,
    /// The damage roll, when no other line of the log carries it.
    pub roll: Option<DiceRoll>,
}

/// The parts of the battle a hit touches: the units, the index, the log, the dice, the rules
/// and injury tables it reads, and the messages it writes. Resolution and the end of round
/// (dying, hazards, grapples, ongoing damage) deal their hits through it.
pub(in crate::rules) struct Harm<'a, 'w, 's, 'm> {
    pub units: &'a mut UnitsMut<'w, 's>,
    pub index: &'a mut ZoneIndex,
    pub log: &'a mut CombatLog,
    pub rng: &'a mut CombatRng,
    pub ruleset: &'a Ruleset,
    pub tables: &'a InjuryTables,
    pub dealt: &'a mut MessageWriter<'m, DamageDealt>,
    pub round: u32,
}

/// The dice and tables a combat injury reads, with the log it writes to.
struct InjuryRoller<'a> {
    log: &'a mut CombatLog,
    rng: &'a mut CombatRng,
    ruleset: &'a Ruleset,
    tables: &'a InjuryTables,
    round: u32,
}

impl Harm<'_, '_, '_, '_> {
    /// Deals a hit: Stress then Wounds, the `damage` line, a combat injury roll after a
    /// critical, and the new status. A unit already off the field takes nothing.
    pub fn deal(&mut self, hit: DamageHit) -> DamageTaken {
        let Harm { units, index, log, rng, ruleset, tables, dealt, round } = self;
        let round = *round;
        // Every hit names a unit (units are never despawned during a battle), and the resolve
        // stage has already reported any that does not; a hit on nothing takes nothing.
        let Ok(mut unit) = units.get_mut(hit.target) else {
            return DamageTaken::default();
        };
        if !unit.standing.status.on_field() {
            return DamageTaken::default();
        }
        let bypass = damage::bypasses_stress(ruleset, hit.damage_type, hit.critical);
        let taken = damage::apply_damage(
            &mut unit.body.stress,
            &mut unit.body.wounds,
            hit.amount,
            hit.damage_type,
            bypass,
            round,
        );
        let id = unit.standing.id.0.clone();
        let (stress, wounds) = (unit.body.stress.current, unit.body.wounds.current);
        log.record(round, || {
            LogEvent::Damage(line::Damage {
                unit: id.clone(),
                source: hit.source.clone(),
                amount: hit.amount,
                damage_type: hit.damage_type,
                critical: hit.critical,
                stress_lost: taken.stress_lost,
                wounds_lost: taken.wounds_lost,
                stress,
                wounds,
                roll: hit.roll.clone(),
            })
        });
        unit.round.record.damage_taken += taken.stress_lost + taken.wounds_lost;
        dealt.write(DamageDealt {
            unit: hit.target,
            round,
            wounds_lost: taken.wounds_lost,
            stress_lost: taken.stress_lost,
        });
        // A fresh wound undoes stabilising; the bleeding and strain of the down do not.
        if taken.wounds_lost > 0 && &*hit.source != EXERTION && hit.damage_type != DamageType::Bleeding {
            unit.round.conditions.stabilised = false;
        }
        if hit.critical && taken.wounds_lost > 0 && ruleset.injuries.enabled {
            InjuryRoller { log, rng, ruleset, tables, round }.roll(&mut unit, hit.amount, hit.damage_type);
        }
        let strength = unit.body.attributes.score(Attribute::Strength);
        let status = damage::status_under(ruleset, *unit.standing.status, unit.body.wounds.current, strength);
        if status != *unit.standing.status {
            *unit.standing.status = status;
            if status == Status::Dead {
                index.remove(hit.target, unit.standing.zone.0);
            }
            log.record(round, || LogEvent::Status(line::Status { unit: id, status: status.into() }));
        }
        taken
    }
}

impl InjuryRoller<'_> {
    /// d% at or under the damage dealt: roll on the damage type's table and apply it (`W-CRIT-2`).
    fn roll(&mut self, unit: &mut UnitItem, damage: i32, damage_type: DamageType) {
        let (ruleset, round) = (self.ruleset, self.round);
        let chance = self.rng.roll(ruleset.injuries.chance_die);
        let id = unit.standing.id.0.clone();
        let table = damage_type;
        if chance.total > damage {
            let effects = Vec::new();
            self.log.record(round, || {
                LogEvent::Injury(line::Injury { unit: id, chance, damage, roll: None, table, injury: None, effects })
            });
            return;
        }
        let roll = self.rng.roll(ruleset.injuries.table_die);
        let row = self.tables.0.get(&damage_type).and_then(|table| table.row(roll.total)).cloned();
        let mut effects = Vec::new();
        if let Some(row) = &row {
            for effect in &row.effects {
                apply_injury_effect(unit, effect, self.rng, ruleset, round, &mut effects);
            }
            if let Some(last) = unit.body.wounds.injuries.last_mut() {
                last.combat_injury = Some(row.name.clone());
            }
        }
        let injury = row.map(|row| row.name);
        let roll = Some(roll);
        self.log.record(round, || {
            LogEvent::Injury(line::Injury { unit: id, chance, damage, roll, table, injury, effects })
        });
    }
}

fn apply_injury_effect(
    unit: &mut UnitItem,
    effect: &InjuryEffect,
    rng: &mut CombatRng,
    ruleset: &Ruleset,
    round: u32,
    rolls: &mut Vec<InjuryRoll>,
) {
    let conditions = &mut unit.round.conditions;
    match effect {
        InjuryEffect::AttributeDamage { attributes, dice } => {
            let roll = rng.roll(*dice);
            for attribute in attributes {
                let score = &mut unit.body.attributes.0[attribute.index()];
                *score = (*score - roll.total).max(0);
            }
            let what = attributes
                .iter()
                .map(|attribute| format!("{attribute:?}").to_lowercase())
                .collect::<Vec<_>>()
                .join("+");
            rolls.push(InjuryRoll { what, roll });
        }
        InjuryEffect::HalfSpeed => conditions.slowed = true,
        InjuryEffect::Prone => conditions.prone = true,
        InjuryEffect::ArmUseless => {
            let roll = rng.roll(ruleset.injuries.arm_die);
            let main = roll.total <= (ruleset.injuries.arm_die.max() / 2).max(1);
            if main {
                conditions.main_arm_useless = true;
            } else {
                conditions.off_arm_useless = true;
            }
            rolls.push(InjuryRoll { what: if main { "main_arm".into() } else { "off_arm".into() }, roll });
        }
        InjuryEffect::ActsEveryOtherRound => conditions.acts_every_other_round = Some(round),
        InjuryEffect::Paralysed => conditions.paralysed = true,
        InjuryEffect::Suffocating => conditions.suffocating = true,
        InjuryEffect::CheckPenalty { check, amount } => conditions.check_penalties.push((check.clone(), *amount)),
        InjuryEffect::Condition(note) => conditions.notes.push(note.clone()),
    }
}

/// Closes the most recent wound and lifts its lasting penalties (`A-WOUND-1`): a slowing
/// wound's squares and Agility, a weakening wound's Strength and Bonus Action, a disrupting
/// wound's battle-long accuracy (the round's extra penalty stays for the round). Returns its aim.
pub(super) fn close_wound(conditions: &mut Conditions, rules: &AimRules) -> Option<AimPoint> {
    let aim = conditions.wound_aims.pop()?;
    match aim {
        AimPoint::Slowing => {
            conditions.speed_penalty = conditions.speed_penalty.saturating_sub(rules.slowing_speed);
            conditions.agility_penalty -= 1;
        }
        AimPoint::Weakening => {
            conditions.strength_penalty -= 1;
            let weakening = conditions.wound_aims.iter().filter(|&&aim| aim == AimPoint::Weakening).count();
            let weakening = u32::try_from(weakening).unwrap_or(u32::MAX);
            conditions.bonus_actions_lost = conditions.bonus_actions_lost.min(weakening);
        }
        AimPoint::Disrupting => conditions.accuracy_penalty -= rules.disrupting_accuracy,
        AimPoint::Fatal | AimPoint::CentreMass => {}
    }
    Some(aim)
}

/// Damage that takes anyone down whatever they have left: "defeated outright".
pub(super) fn lethal(view: &unit::UnitView) -> i32 {
    view.body.stress.current.max(0)
        + view.body.wounds.current.max(0)
        + view.body.attributes.score(Attribute::Strength).max(0)
        + 1
}

impl Resolver<'_, '_> {
    /// A wound from one hit of `amount` net damage aimed at `aim` (`A-WOUND-1`, `A-AIM-1`):
    /// applies its effect and returns any extra damage it adds.
    pub(super) fn wound(&mut self, target: Entity, source: &Arc<str>, aim: AimPoint, amount: i32) -> i32 {
        let round = self.round();
        // Without aiming rules, or below the threshold, a blow leaves no wound.
        let Some(rules) = self.ruleset.attack.aiming.clone() else {
            return 0;
        };
        if amount < rules.wound_threshold || aim == AimPoint::CentreMass {
            return 0;
        }
        let fatal_roll = (aim == AimPoint::Fatal).then(|| self.rng.roll(rules.fatal_die));
        let extra_damage = if fatal_roll.as_ref().is_some_and(|roll| roll.total >= rules.fatal_die.max()) {
            rules.fatal_damage
        } else {
            0
        };
        let Some(mut unit) = self.faults.found(self.units.get_mut(target), target, "wounding it") else {
            return extra_damage;
        };
        let conditions = &mut unit.round.conditions;
        conditions.aimed_wounds += 1;
        conditions.wound_aims.push(aim);
        match aim {
            AimPoint::Slowing => {
                conditions.speed_penalty = conditions.speed_penalty.saturating_add(rules.slowing_speed);
                conditions.agility_penalty += 1;
            }
            AimPoint::Weakening => {
                conditions.strength_penalty += 1;
                conditions.bonus_actions_lost = (conditions.bonus_actions_lost + 1).min(BONUS_ACTIONS_PER_TURN);
            }
            AimPoint::Disrupting => {
                conditions.accuracy_penalty += rules.disrupting_accuracy;
                conditions.round_accuracy_penalty += rules.disrupting_accuracy_this_round;
            }
            AimPoint::Fatal | AimPoint::CentreMass => {}
        }
        let (unit, wounds, source) = (unit.standing.id.0.clone(), unit.round.conditions.aimed_wounds, source.clone());
        let roll = fatal_roll;
        self.log.record(round, || LogEvent::Wound(line::Wound { unit, source, aim, wounds, roll, extra_damage }));
        extra_damage
    }

    /// A hit from a weapon that lingers: ongoing damage equal to the attacker's level (`Z-ONGO-1`)
    /// or a hindrance (`Z-HIND-1`), each until the sufferer shakes it off.
    pub(super) fn afflict(&mut self, attacker: Entity, target: Entity, weapon: &Weapon, source: &Arc<str>) {
        self.afflict_with(attacker, target, (weapon.ongoing, weapon.hinders), source);
    }

    /// Leaves `lasting`'s ongoing damage (at `attacker`'s level) and hindrance on `target`: a
    /// weapon's hit, a hostile spell's casting or an item's use (`Z-ONGO-1`, `Z-HIND-1`).
    pub(super) fn afflict_with(
        &mut self,
        attacker: Entity,
        target: Entity,
        lasting: (Option<Lingering>, Option<(Hindrance, Lingering)>),
        source: &Arc<str>,
    ) {
        if lasting == (None, None) {
            return;
        }
        let round = self.round();
        let level = self.levels.get(attacker).map_or(1, |(level, _)| level.0) as i32;
        let Some(mut unit) = self.faults.found(self.units.get_mut(target), target, "afflicting it") else {
            return;
        };
        let mut effects = Vec::new();
        if let Some(lingering) = lasting.0 {
            unit.round.conditions.ongoing = Some((level, lingering));
            effects.push(Affliction::OngoingDamage);
        }
        if let Some((hindrance, lingering)) = lasting.1 {
            unit.round.conditions.hinder(hindrance, lingering);
            effects.push(Affliction::Hindrance(hindrance));
        }
        let id = unit.standing.id.0.clone();
        for effect in effects {
            let (id, source) = (id.clone(), source.clone());
            self.log.record(round, || LogEvent::Afflicted(line::Afflicted { unit: id, effect, source }));
        }
    }
}
