//! Bonus Actions chosen on the declaration (`A-TURN-1`, `A-BONUS-1`): what a turn may spend them
//! on, what it spends when the declaration leaves the choice to the rules, and what a choice is
//! worth to movement.

use super::components::{Action, ActionKind, BonusUses, Conditions};
use super::ruleset::{BonusActionRules, Ruleset};

/// Why a declaration's Bonus Actions cannot be spent as it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BonusError {
    /// The ruleset has no Bonus Actions to choose.
    #[error("this ruleset has no Bonus Actions to spend")]
    NotOffered,
    /// More Bonus Actions than the unit has left this turn.
    #[error("the unit has only {left} Bonus Actions left this turn, and this spends {spent}")]
    TooMany {
        /// Bonus Actions left.
        left: u32,
        /// Bonus Actions the choice spends.
        spent: u32,
    },
    /// Disengaging with Bonus Actions is not in the ruleset.
    #[error("this ruleset does not sell a disengage for Bonus Actions")]
    NoDisengage,
    /// The extra attack needs the ruleset, an attack, and no move (it takes the Move Action).
    #[error("the extra attack needs an attack declared without a move, where the ruleset offers it")]
    NoExtraAttack,
    /// +hit and +damage are for attacks.
    #[error("+1 to hit and +1 damage go with an attack")]
    NotAnAttack,
    /// +hit, +damage and +dodge are bought once a turn each.
    #[error("+1 to hit, +1 damage and +1 dodge are each bought once a turn")]
    Repeated,
}

/// The ruleset's chosen Bonus Actions, if it has them.
pub fn rules(ruleset: &Ruleset) -> Option<&BonusActionRules> {
    ruleset.turns.bonus_actions.as_ref()
}

/// Whether `kind` makes the turn's own weapon attack, which +hit, +damage and the extra attack go with.
pub fn is_attack(kind: ActionKind) -> bool {
    matches!(kind, ActionKind::Attack | ActionKind::Aimed(_) | ActionKind::DefensiveAttack | ActionKind::Charge)
}

/// Bonus Actions the unit has left this turn: the ruleset's number, less weakening wounds and
/// what it already spent getting up or picking up its weapon.
pub fn left(rules: &BonusActionRules, conditions: &Conditions) -> u32 {
    rules.per_turn.saturating_sub(conditions.bonus_actions_lost).saturating_sub(conditions.bonus_actions_spent)
}

/// Bonus Actions `uses` spend.
pub fn cost(rules: &BonusActionRules, uses: &BonusUses) -> u32 {
    let single = u32::from(uses.hit) + u32::from(uses.damage) + u32::from(uses.dodge) + u32::from(uses.stride);
    let disengage = if uses.disengage { rules.disengage.unwrap_or(0) } else { 0 };
    // The extra attack takes every Bonus Action of the turn, as the seed says "both".
    let extra_attack = if uses.extra_attack { rules.per_turn } else { 0 };
    single + disengage + extra_attack
}

/// How a turn spends its Bonus Actions when the declaration does not say: a move-only turn or a
/// disengage strides further, an attack buys +1 to hit and then +1 damage, and any other turn
/// dodges. `None` when the ruleset has no chosen Bonus Actions.
pub fn default_uses(ruleset: &Ruleset, conditions: &Conditions, kind: ActionKind) -> Option<BonusUses> {
    let rules = rules(ruleset)?;
    let mut left = u8::try_from(left(rules, conditions)).unwrap_or(u8::MAX);
    let mut uses = BonusUses::default();
    match kind {
        ActionKind::Move | ActionKind::Disengage => uses.stride = left,
        kind if is_attack(kind) => {
            for step in [&mut uses.hit, &mut uses.damage] {
                if left > 0 {
                    *step = 1;
                    left -= 1;
                }
            }
        }
        _ => uses.dodge = left.min(1),
    }
    Some(uses)
}

/// What the turn spends: the declaration's choice, or the rules' default for it; nothing where
/// the ruleset has no chosen Bonus Actions.
pub fn effective(ruleset: &Ruleset, conditions: &Conditions, action: &Action) -> BonusUses {
    match (rules(ruleset), action.bonus) {
        (None, _) => BonusUses::default(),
        (Some(_), Some(uses)) => uses,
        (Some(_), None) => default_uses(ruleset, conditions, action.kind).unwrap_or_default(),
    }
}

/// Checks the declaration's own choice of Bonus Actions, if it makes one.
pub fn check(ruleset: &Ruleset, conditions: &Conditions, action: &Action) -> Result<(), BonusError> {
    let Some(uses) = action.bonus else {
        return Ok(());
    };
    let Some(rules) = rules(ruleset) else {
        return if uses == BonusUses::default() { Ok(()) } else { Err(BonusError::NotOffered) };
    };
    let (spent, left) = (cost(rules, &uses), left(rules, conditions));
    if spent > left {
        return Err(BonusError::TooMany { left, spent });
    }
    if uses.hit > 1 || uses.damage > 1 || uses.dodge > 1 {
        return Err(BonusError::Repeated);
    }
    if uses.disengage && rules.disengage.is_none() {
        return Err(BonusError::NoDisengage);
    }
    if uses.extra_attack && (!rules.extra_attack || action.move_to.is_some() || !is_attack(action.kind)) {
        return Err(BonusError::NoExtraAttack);
    }
    if (uses.hit > 0 || uses.damage > 0) && !is_attack(action.kind) && !matches!(action.kind, ActionKind::Throw(_)) {
        return Err(BonusError::NotAnAttack);
    }
    Ok(())
}

/// Squares (or zones) the turn's Bonus Actions add to its move.
pub fn extra_movement(ruleset: &Ruleset, conditions: &Conditions, action: &Action) -> u32 {
    rules(ruleset).map_or(0, |rules| rules.stride * u32::from(effective(ruleset, conditions, action).stride))
}

/// The (to hit, damage) the turn's Bonus Actions add to each of its own attacks.
pub fn attack_bonus(ruleset: &Ruleset, conditions: &Conditions, action: &Action) -> (i32, i32) {
    let Some(rules) = rules(ruleset) else {
        return (0, 0);
    };
    let uses = effective(ruleset, conditions, action);
    (rules.hit * i32::from(uses.hit), rules.damage * i32::from(uses.damage))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> BonusActionRules {
        BonusActionRules { per_turn: 2, hit: 1, damage: 1, dodge: 1, stride: 2, disengage: Some(2), extra_attack: true }
    }

    #[test]
    fn the_extra_attack_and_a_disengage_each_take_both_bonus_actions() {
        let rules = rules();
        assert_eq!(cost(&rules, &BonusUses { extra_attack: true, ..BonusUses::default() }), 2);
        assert_eq!(cost(&rules, &BonusUses { disengage: true, ..BonusUses::default() }), 2);
        assert_eq!(cost(&rules, &BonusUses { hit: 1, dodge: 1, ..BonusUses::default() }), 2);
    }

    #[test]
    fn a_weakened_unit_has_one_bonus_action_fewer() {
        let conditions = Conditions { bonus_actions_lost: 1, ..Conditions::default() };
        assert_eq!(left(&rules(), &conditions), 1);
    }
}
