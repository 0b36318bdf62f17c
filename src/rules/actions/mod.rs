//! What a unit may declare: legality, Initiative modifiers (`W-DECL-2`), the list of legal actions,
//! Reposte exposure and attack odds. The AI and the UI both ask here; nothing else decides.

mod legality;
mod odds;
mod reach;
mod threats;
mod view_cache;
mod zone_tables;

pub use legality::{
    ManeuverCheck, check, check_needs, check_target, check_untargeted, fires_forbidden_bow, haul_destinations,
    legal_actions, maneuver_bonus, may_move_after, move_cost, shooting_in_melee, standing_after,
};
pub use odds::{
    AttackOdds, AttackerOdds, attack_bonus, attack_odds, attack_odds_in_cover, brawl_bonus, cover_penalty,
    critical_natural, damage_attribute_bonus, damage_dice, magic_damage_bonus, may_dual_wield, odds_against,
    roll_bonus, size_penalty, weapon_skill,
};
pub(crate) use reach::target_rule;
pub use reach::{Reach, TargetRule, charge_throw_item, is_ranged, reach, short_mover, weapon_range};
pub use threats::{
    Threat, ThreatMap, can_react, is_threatened, repostes_between, repostes_on_path, threatened_by, threateners_by,
    threateners_of, threatens,
};
pub use view_cache::{BriefParts, Targets, ViewCache, ViewScratch};

use bevy::prelude::*;

use super::components::*;
use super::ruleset::{Offer, Ruleset};
use super::unit::{Unit, UnitReadOnly, UnitView};
use crate::battlefield::{Battlefield, ZoneIndex};

/// Why a declaration was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// The unit is not awaiting a declaration.
    #[error("it is not this unit's turn to declare")]
    NotAwaiting,
    /// Dead, fled, paralysed or surprised.
    #[error("this unit cannot act this round")]
    CannotAct,
    /// The action needs a target.
    #[error("the action needs a target")]
    NoTarget,
    /// The action takes no target.
    #[error("the action takes no target")]
    UnexpectedTarget,
    /// The target is gone or unknown.
    #[error("the target is not on the battlefield")]
    TargetGone,
    /// The target is on the wrong side for the action.
    #[error("the target is on the wrong side for this action")]
    WrongSide,
    /// The target is further than the weapon, spell or item reaches.
    #[error("the target is out of reach")]
    OutOfReach,
    /// The destination is further than the unit can move this round.
    #[error("the destination is further than the unit can move this round")]
    TooFar,
    /// The destination is full.
    #[error("the destination zone is full")]
    ZoneFull,
    /// The destination does not exist.
    #[error("no such zone")]
    NoSuchZone,
    /// Holding means staying put.
    #[error("a unit that holds does not move; declare a move instead")]
    HoldingStill,
    /// A move action without a destination, or to where the unit already is.
    #[error("a move needs a different zone to move to")]
    NoDestination,
    /// Unknown spell or item, or none left.
    #[error("the unit has no such spell or item left")]
    NothingToUse,
    /// Not enough Mana and Stress for the spell.
    #[error("not enough Mana or Stress to cast")]
    CannotPay,
    /// Dying units cannot both move and act.
    #[error("a dying unit cannot both move and act")]
    DyingCannotMoveAndAct,
    /// The stabilise target is not down, or already stabilised, or the healer itself.
    #[error("only another ally who is down and not yet stabilised can be stabilised")]
    NotDown,
    /// The target never checks morale, so intimidating it does nothing.
    #[error("the target does not check morale")]
    Fearless,
    /// The ruleset does not offer this action.
    #[error("this ruleset does not offer that action")]
    NotOffered,
    /// A wall hides the target.
    #[error("the target is out of sight")]
    OutOfSight,
    /// Only a prone unit stands up.
    #[error("only a prone unit can stand up")]
    NotProne,
    /// A bow or crossbow cannot be fired in melee (`S-ATK-2`).
    #[error("a bow or crossbow cannot be fired with a foe in melee range")]
    BowInMelee,
    /// The ruleset has no executions with missile weapons.
    #[error("an execution attack needs a melee weapon under this ruleset")]
    NoRangedExecution,
    /// Execution attacks need a target unaware of danger.
    #[error("an execution attack needs a target that is unaware of danger")]
    TargetAlert,
    /// A charge runs in a straight line of at least one step and ends in melee.
    #[error(
        "a charge needs a straight run of at least one step ending in melee reach, or in throwing range of a carried throwable item where the ruleset allows"
    )]
    BadCharge,
    /// A prone unit cannot go prone.
    #[error("the unit is already prone")]
    AlreadyProne,
    /// The Move action went into holding the action: nothing but the Main action is left.
    #[error("the move was spent holding the action; only the main action is left")]
    MoveSpent,
    /// Holding an action needs turns to wait for.
    #[error("an action can be held only where units take turns, and only once a round")]
    CannotHold,
    /// A held action's plan (`S-ACT-2`) must fit: a hold against a foe, a Main action with no
    /// move of its own (a held `move` needs its destination), at a target of the right side.
    #[error(
        "a held action names what it does only when held against a foe: a main action without a move of its own (a move needs a destination), at a fitting target"
    )]
    BadHeldPlan,
    /// Only a grappler lets go.
    #[error("only a unit holding a foe in a grapple can let go")]
    NotGrappling,
    /// Only a held unit breaks free.
    #[error("only a unit held in a grapple can break free")]
    NotHeld,
    /// Only a hindrance that needs an action is shaken off by one (`Z-HIND-1`).
    #[error(
        "only a hindrance that needs an action to end (a net, glue) is shaken off by one; others are tested at the end of the turn"
    )]
    NothingToShakeOff,
    /// A grappler that is itself held cannot drag anyone (`S-MAN-1`).
    #[error("a grappler held by a foe cannot move, so it cannot drag the one it holds")]
    HeldInPlace,
    /// The chosen drag or hurl destination is not one the haul may reach (`S-MAN-1`).
    #[error(
        "the held foe cannot be moved there: a drag goes up to its distance with room for both, a hurl lands beyond the foe, away from the grappler, with room"
    )]
    BadHaul,
    /// A unit screens another, never itself.
    #[error("a unit screens an ally, not itself")]
    ScreenSelf,
    /// The Main action went into a snap attack: the turn has only its move left.
    #[error("the main action was spent out of turn (a snap attack or total defense) this round; only a move is left")]
    MainActionSpent,
    /// A delay needs a later turn this round to delay to (`A-INIT-1`).
    #[error("no unit acts after this one this round: there is no turn to delay to")]
    LastTurn,
    /// Only a shove, drag or hurl names where its target goes (`Z-STUNT-1`, `S-MAN-1`).
    #[error("only a shove, drag or hurl chooses where its target goes")]
    PushNotShove,
    /// The chosen push destination is not one the shove may push into (`Z-STUNT-1`).
    #[error(
        "the target cannot be pushed there: pick a neighbouring zone of the target's, farther from the shover, with room"
    )]
    BadPush,
    /// The ruleset keeps all of a turn's movement before its action (`C-MOVE-1`).
    #[error("this ruleset does not split movement: all of a turn's movement comes before its action")]
    NoSplitMove,
    /// Only an action done in the turn can be followed by a move (`C-MOVE-1`).
    #[error(
        "only an action done in the turn can be followed by a move: not a move, a wait, or a spell still being cast"
    )]
    NoMoveAfter,
    /// The move before the action and the move after it together go further than the unit may
    /// move this round (`C-MOVE-1`).
    #[error("the move before the action and the move after it together are longer than the unit can move this round")]
    SplitTooFar,
    /// A unit allowed no more than the 5-ft step moves after its action, not before (`C-MOVE-1`).
    #[error("a unit that may move only 5 ft (one square) makes that move after its action, not before")]
    ShortMoveComesAfter,
    /// The Bonus Actions cannot be spent as declared (`A-BONUS-1`).
    #[error(transparent)]
    Bonus(#[from] super::bonus::BonusError),
}

/// Seed 000's actions, offered when a ruleset lists none.
pub(crate) const SEED_000_OFFERS: [Offer; 10] = [
    Offer::Attack,
    Offer::DefensiveAttack,
    Offer::FullDefense,
    Offer::Cast,
    Offer::UseItem,
    Offer::Throw,
    Offer::Move,
    Offer::Hold,
    Offer::Stabilize,
    Offer::Intimidate,
];

/// Whether the ruleset offers `kind`; `shake_off` is offered everywhere (a hindrance that needs
/// it brings it).
pub fn offered(ruleset: &Ruleset, kind: ActionKind) -> bool {
    let offer = Offer::from(kind);
    // A hindrance that needs an action brings the action with it (`Z-HIND-1`), whatever the
    // ruleset lists: gear must never leave a unit with no way to end what it carries.
    if offer == Offer::ShakeOff {
        return true;
    }
    match &ruleset.turns.offered {
        Some(list) => list.contains(&offer),
        None => SEED_000_OFFERS.contains(&offer),
    }
}

/// The battle-wide context a legality check reads.
#[derive(Clone, Copy)]
pub struct ActionContext<'a> {
    /// The ruleset.
    pub ruleset: &'a Ruleset,
    /// The zones.
    pub battlefield: &'a Battlefield,
    /// Who stands where.
    pub index: &'a ZoneIndex,
    /// The current round.
    pub round: u32,
}

/// Looks units up by entity, read-only; implemented by both unit queries and the view cache.
pub trait UnitLookup {
    /// Reads the unit's view with `read`, if the unit exists: borrowed where views are kept
    /// (a [`ViewCache`]), so a lookup never copies one.
    fn with_view<R>(&self, unit: Entity, read: impl FnOnce(&UnitView) -> R) -> Option<R>;
}

impl UnitLookup for Query<'_, '_, Unit> {
    fn with_view<R>(&self, unit: Entity, read: impl FnOnce(&UnitView) -> R) -> Option<R> {
        self.get(unit).ok().map(|view| read(&view))
    }
}

impl UnitLookup for Query<'_, '_, UnitReadOnly> {
    fn with_view<R>(&self, unit: Entity, read: impl FnOnce(&UnitView) -> R) -> Option<R> {
        self.get(unit).ok().map(|view| read(&view))
    }
}

/// The Initiative modifier of `kind` for `actor` (`W-DECL-2`).
pub fn modifier(ruleset: &Ruleset, actor: &UnitView, kind: ActionKind, has_target: bool) -> i32 {
    let rules = &ruleset.declaration;
    let weapon_speed = actor.arms.loadout.usable_weapon(actor.round.conditions).1.speed;
    match kind {
        ActionKind::Attack | ActionKind::Charge | ActionKind::Aimed(_) | ActionKind::Swarm => weapon_speed,
        ActionKind::Disengage | ActionKind::StandUp | ActionKind::Screen | ActionKind::GoProne => rules.move_modifier,
        ActionKind::HoldAction => rules.hold_modifier,
        // Cutting free or scraping off is no blow: as quick as a step.
        ActionKind::LetGo | ActionKind::ShakeOff => rules.move_modifier,
        ActionKind::Shove | ActionKind::KnockDown | ActionKind::Grapple | ActionKind::Execute => weapon_speed,
        // Breaking a hold, dragging or hurling the held is bare-handed struggling, as quick as fists.
        ActionKind::BreakFree | ActionKind::Drag | ActionKind::Hurl => actor.arms.loadout.unarmed.speed,
        ActionKind::DefensiveAttack => (if has_target { weapon_speed } else { 0 }) + rules.defensive_attack_extra,
        ActionKind::FullDefense => rules.full_defense_modifier,
        ActionKind::Cast(at) => actor
            .magic
            .spells
            .0
            .get(at)
            .map_or(0, |(_, spell)| spell.speed.unwrap_or(spell.tn + rules.spell_speed_offset)),
        ActionKind::UseItem(at) => {
            actor.arms.inventory.0.get(at).and_then(|stack| stack.item.modifier).unwrap_or(rules.use_item_modifier)
        }
        ActionKind::Throw(at) => {
            actor.arms.inventory.0.get(at).and_then(|stack| stack.item.modifier).unwrap_or(rules.throw_modifier)
        }
        ActionKind::Move => rules.move_modifier,
        ActionKind::Hold | ActionKind::Delay => rules.hold_modifier,
        ActionKind::Stabilize => rules.stabilise_modifier,
        ActionKind::Intimidate => rules.intimidate_modifier,
    }
}
