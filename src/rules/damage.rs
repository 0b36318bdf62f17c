//! Damage: Stress before Wounds, criticals that bypass Stress, Wound thresholds, maximum Stress.

use super::components::{Injury, Status, Stress, Wounds};
use super::dice::Dice;
use super::equipment::DamageType;
use super::ruleset::{Ruleset, StressMethod, WoundThresholds};

/// What a hit took (`W-DMG-2`, `W-CRIT-1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DamageTaken {
    /// Stress lost.
    pub stress_lost: i32,
    /// Wound Points lost.
    pub wounds_lost: i32,
}

/// Whether a hit skips Stress: criticals when the ruleset says so (`W-CRIT-1`), and bleeding,
/// which is blood, not stamina.
pub fn bypasses_stress(ruleset: &Ruleset, damage_type: DamageType, critical: bool) -> bool {
    (critical && ruleset.damage.critical_bypasses_stress) || damage_type == DamageType::Bleeding
}

/// Applies `amount` (already reduced by Armour): Stress first, the rest to Wound Points, or all
/// of it to Wound Points when it `bypasses_stress`. Wound damage is recorded as an injury (`W-DMG-4`).
pub fn apply_damage(
    stress: &mut Stress,
    wounds: &mut Wounds,
    amount: i32,
    damage_type: DamageType,
    bypass_stress: bool,
    round: u32,
) -> DamageTaken {
    let amount = amount.max(0);
    let to_stress = if bypass_stress { 0 } else { amount.min(stress.current.max(0)) };
    stress.current -= to_stress;
    let to_wounds = amount - to_stress;
    if to_wounds > 0 {
        wounds.current = wounds.current.saturating_sub(to_wounds);
        wounds.injuries.push(Injury { damage_type, amount: to_wounds, combat_injury: None, round });
    }
    DamageTaken { stress_lost: to_stress, wounds_lost: to_wounds }
}

/// The status Wound Points give (`W-WOUND-1..3`): 0 incapacitated, below 0 dying, at or below
/// minus the Strength score dead. Fled, surrendered and dead units keep their status.
pub fn status_for_wounds(current: Status, wounds: i32, strength: i32) -> Status {
    if !current.on_field() {
        return current;
    }
    // With Strength 0 the threshold is 0 itself: 0 is at or below minus 0.
    if wounds <= -strength {
        Status::Dead
    } else if wounds < 0 {
        Status::Dying
    } else if wounds == 0 {
        Status::Incapacitated
    } else {
        Status::Active
    }
}

/// The status Wound Points (or hit points) give under the ruleset's thresholds.
pub fn status_under(ruleset: &Ruleset, current: Status, wounds: i32, strength: i32) -> Status {
    if !current.on_field() {
        return current;
    }
    match ruleset.wounds.thresholds {
        WoundThresholds::StrengthBased => status_for_wounds(current, wounds, strength),
        WoundThresholds::DeadAtZero if wounds <= 0 => Status::Dead,
        WoundThresholds::DyingAtZero if wounds <= -strength.max(1) => Status::Dead,
        WoundThresholds::DyingAtZero if wounds <= 0 => Status::Dying,
        WoundThresholds::DeadAtZero | WoundThresholds::DyingAtZero => Status::Active,
    }
}

/// Maximum Stress from Hit Dice plus the Strength modifier per Hit Die (`W-DMG-3`).
pub fn maximum_stress(ruleset: &Ruleset, hit_dice: Dice, strength_modifier: i32) -> i32 {
    let count = hit_dice.count as i64;
    let sides = hit_dice.sides as i64;
    if count == 0 || sides == 0 {
        return hit_dice.modifier.max(0);
    }
    // Twice the total, to keep the half-point averages exact until the final rounding down.
    let doubled = match ruleset.damage.stress_method {
        StressMethod::FirstMaxThenAverage => 2 * sides + (count - 1) * (sides + 1),
        StressMethod::Average => count * (sides + 1),
        StressMethod::Maximum => 2 * count * sides,
    };
    let total = doubled / 2 + count * strength_modifier as i64 + hit_dice.modifier as i64;
    total.clamp(0, i32::MAX as i64) as i32
}

/// Damage after Armour for a hit of `rolled` with `multiplier` (1 for a normal hit).
pub fn damage_after_armour(ruleset: &Ruleset, rolled: i32, multiplier: i32, armour: i32) -> i32 {
    let multiplier = multiplier.max(1);
    let dealt = if ruleset.damage.armour_after_multiplier {
        rolled.saturating_mul(multiplier) - armour
    } else {
        (rolled - armour).max(0).saturating_mul(multiplier)
    };
    dealt.max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pools(stress: i32, wounds: i32) -> (Stress, Wounds) {
        (Stress { current: stress, max: stress }, Wounds { current: wounds, max: wounds, injuries: Vec::new() })
    }

    #[test]
    fn w_dmg_2_stress_before_wounds() {
        let ruleset = Ruleset::default();
        let (mut stress, mut wounds) = pools(5, 12);
        let taken = apply_damage(
            &mut stress,
            &mut wounds,
            8,
            DamageType::Slashing,
            bypasses_stress(&ruleset, DamageType::Slashing, false),
            1,
        );
        assert_eq!(taken, DamageTaken { stress_lost: 5, wounds_lost: 3 });
        assert_eq!((stress.current, wounds.current), (0, 9));
        assert_eq!(wounds.injuries.len(), 1, "W-DMG-4: the wound damage is recorded as an injury");
        assert_eq!(wounds.injuries[0].amount, 3);
    }

    #[test]
    fn w_crit_1_criticals_bypass_stress() {
        let ruleset = Ruleset::default();
        let (mut stress, mut wounds) = pools(30, 12);
        let taken = apply_damage(
            &mut stress,
            &mut wounds,
            6,
            DamageType::Blunt,
            bypasses_stress(&ruleset, DamageType::Blunt, true),
            1,
        );
        assert_eq!(taken, DamageTaken { stress_lost: 0, wounds_lost: 6 });
        assert_eq!(stress.current, 30);
    }

    #[test]
    fn one_pool_thresholds_kill_or_fell_at_zero() {
        let mut ruleset = Ruleset::default();
        ruleset.wounds.thresholds = WoundThresholds::DeadAtZero;
        assert_eq!(status_under(&ruleset, Status::Active, 0, 12), Status::Dead);
        assert_eq!(status_under(&ruleset, Status::Active, 1, 12), Status::Active);
        ruleset.wounds.thresholds = WoundThresholds::DyingAtZero;
        assert_eq!(status_under(&ruleset, Status::Active, 0, 12), Status::Dying);
        assert_eq!(status_under(&ruleset, Status::Dying, -12, 12), Status::Dead);
    }

    #[test]
    fn w_wound_thresholds() {
        assert_eq!(status_for_wounds(Status::Active, 1, 12), Status::Active);
        assert_eq!(status_for_wounds(Status::Active, 0, 12), Status::Incapacitated, "W-WOUND-1");
        assert_eq!(status_for_wounds(Status::Active, -1, 12), Status::Dying, "W-WOUND-2");
        assert_eq!(status_for_wounds(Status::Dying, -11, 12), Status::Dying);
        assert_eq!(status_for_wounds(Status::Dying, -12, 12), Status::Dead, "W-WOUND-3");
        assert_eq!(status_for_wounds(Status::Fled, -20, 12), Status::Fled);
        assert_eq!(status_for_wounds(Status::Active, 0, 0), Status::Dead, "W-WOUND-3: 0 <= -0");
        assert_eq!(status_for_wounds(Status::Active, 1, 0), Status::Active);
    }

    #[test]
    fn w_dmg_3_leonin_hunter_has_41_stress() {
        let ruleset = Ruleset::default();
        assert_eq!(maximum_stress(&ruleset, Dice::new(5, 8), 3), 41);
    }

    #[test]
    fn w_dmg_1_armour_reduces_each_hit_but_not_below_zero() {
        let ruleset = Ruleset::default();
        assert_eq!(damage_after_armour(&ruleset, 7, 1, 2), 5);
        assert_eq!(damage_after_armour(&ruleset, 1, 1, 4), 0);
        assert_eq!(damage_after_armour(&ruleset, 5, 3, 2), 13, "W-CRIT-1: multiplier before armour");
    }
}
