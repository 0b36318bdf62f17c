//! What a unit may declare: legality, Initiative modifiers (`W-DECL-2`), the list of legal actions,
//! Reposte exposure and attack odds. The AI and the UI both ask here; nothing else decides.

use bevy::prelude::*;

use super::components::*;
use super::dice::Dice;
use super::equipment::{Attribute, Weapon};
use super::ruleset::{AttackStyle, Offer, Ruleset};
use super::unit::{self, Unit, UnitReadOnly, UnitView};
use crate::battlefield::{Battlefield, Cover, UNREACHABLE, ZoneIdx, ZoneIndex};

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

/// Whether the ruleset offers `kind`.
pub fn offered(ruleset: &Ruleset, kind: ActionKind) -> bool {
    let offer = Offer::from(kind);
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
    let weapon_speed = actor.loadout.usable_weapon(actor.conditions).1.speed;
    match kind {
        ActionKind::Attack | ActionKind::Charge | ActionKind::Aimed(_) | ActionKind::Swarm => weapon_speed,
        ActionKind::Disengage | ActionKind::StandUp | ActionKind::Screen | ActionKind::GoProne => rules.move_modifier,
        ActionKind::HoldAction => rules.hold_modifier,
        ActionKind::LetGo => rules.move_modifier,
        ActionKind::Shove | ActionKind::KnockDown | ActionKind::Grapple | ActionKind::Execute => weapon_speed,
        // Breaking a hold, dragging or hurling the held is bare-handed struggling, as quick as fists.
        ActionKind::BreakFree | ActionKind::Drag | ActionKind::Hurl => actor.loadout.unarmed.speed,
        ActionKind::DefensiveAttack => (if has_target { weapon_speed } else { 0 }) + rules.defensive_attack_extra,
        ActionKind::FullDefense => rules.full_defense_modifier,
        ActionKind::Cast(at) => {
            actor.spells.0.get(at).map_or(0, |(_, spell)| spell.speed.unwrap_or(spell.tn + rules.spell_speed_offset))
        }
        ActionKind::UseItem(at) => {
            actor.inventory.0.get(at).and_then(|stack| stack.item.modifier).unwrap_or(rules.use_item_modifier)
        }
        ActionKind::Throw(at) => {
            actor.inventory.0.get(at).and_then(|stack| stack.item.modifier).unwrap_or(rules.throw_modifier)
        }
        ActionKind::Move => rules.move_modifier,
        ActionKind::Hold | ActionKind::Delay => rules.hold_modifier,
        ActionKind::Stabilize => rules.stabilise_modifier,
        ActionKind::Intimidate => rules.intimidate_modifier,
    }
}

/// What an action's target must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetRule {
    /// No target.
    None,
    /// An enemy within `range` zones.
    Enemy { range: u32, optional: bool },
    /// An ally (or oneself) within `range` zones.
    Ally { range: u32 },
    /// A fallen ally, Close.
    FallenAlly,
}

/// Intimidation carries to Nearby zones: a shout, not a whisper.
const INTIMIDATION_RANGE: u32 = 1;

/// A held action may wait for a foe this many of the holder's Speeds beyond its weapon's reach:
/// as far as a foe running (or charging) as fast could come from and end its move in reach.
const HELD_WATCH_SPEEDS: u32 = 2;

/// How an action reaches its target: the one answer that declaration, resolution, the AIs and
/// the window all ask, so they never disagree on what is in reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Who may be targeted, and how far away.
    pub rule: TargetRule,
    /// Whether it flies (a missile, a spell, a shout): it needs sight and measures the straight
    /// line. Otherwise it walks, and walls lengthen the way.
    pub ranged: bool,
}

impl Reach {
    /// How far the target may be, in zones (squares on a grid); `None` for an action without one.
    pub fn range(&self, battlefield: &Battlefield) -> Option<u32> {
        match self.rule {
            TargetRule::Enemy { range, .. } | TargetRule::Ally { range } => Some(range),
            TargetRule::FallenAlly => Some(battlefield.melee_reach(0)),
            TargetRule::None => None,
        }
    }

    /// The distance from `from` to `to` as this action measures it; `None` when a ranged action
    /// cannot see there or nothing walks there.
    pub fn distance(&self, battlefield: &Battlefield, from: ZoneIdx, to: ZoneIdx) -> Option<u32> {
        let distance = if self.ranged {
            battlefield.sight(from, to)?;
            battlefield.line_distance(from, to)
        } else {
            battlefield.distance(from, to)
        };
        (distance != UNREACHABLE).then_some(distance)
    }

    /// Whether a target in `to` is in reach from `from`.
    pub fn reaches(&self, battlefield: &Battlefield, from: ZoneIdx, to: ZoneIdx) -> bool {
        let range = self.range(battlefield);
        self.distance(battlefield, from, to).is_some_and(|distance| range.is_some_and(|range| distance <= range))
    }
}

/// How `actor` reaches the target of `kind` (an error when it has nothing to do it with).
pub fn reach(actor: &UnitView, kind: ActionKind) -> Result<Reach, IllegalAction> {
    Ok(Reach { rule: target_rule(actor, kind)?, ranged: is_ranged(actor, kind) })
}

/// Whether `kind` flies to its target: spells, items, throws and shouts always, attacks when
/// the weapon in hand is a missile weapon.
pub fn is_ranged(actor: &UnitView, kind: ActionKind) -> bool {
    match kind {
        ActionKind::Cast(_) | ActionKind::UseItem(_) | ActionKind::Throw(_) | ActionKind::Intimidate => true,
        ActionKind::Attack
        | ActionKind::Aimed(_)
        | ActionKind::Swarm
        | ActionKind::DefensiveAttack
        | ActionKind::Execute => actor.loadout.usable_weapon(actor.conditions).1.is_ranged(),
        _ => false,
    }
}

pub(crate) fn target_rule(actor: &UnitView, kind: ActionKind) -> Result<TargetRule, IllegalAction> {
    let weapon = actor.loadout.usable_weapon(actor.conditions).1;
    let weapon_range = weapon_range(weapon);
    Ok(match kind {
        ActionKind::Attack | ActionKind::Aimed(_) | ActionKind::Swarm => {
            TargetRule::Enemy { range: weapon_range, optional: false }
        }
        // A charge may end in a throw (`S-SPEC-1`): `check_charge_throw` sees to the rest.
        ActionKind::Charge => TargetRule::Enemy { range: weapon.reach.max(throw_reach(actor)), optional: false },
        ActionKind::Shove | ActionKind::KnockDown => TargetRule::Enemy { range: weapon.reach, optional: false },
        // A missile weapon executes at its range, where the ruleset allows it (`S-EXEC-1`).
        ActionKind::Execute => TargetRule::Enemy { range: weapon_range, optional: false },
        // Grappling is done with bare hands.
        ActionKind::Grapple => TargetRule::Enemy { range: actor.loadout.unarmed.reach, optional: false },
        // A held unit struggles against whoever holds it: the grappler needs no naming.
        // A grappler drags or hurls the one foe it holds: it needs no naming either.
        ActionKind::StandUp
        | ActionKind::GoProne
        | ActionKind::BreakFree
        | ActionKind::LetGo
        | ActionKind::Drag
        | ActionKind::Hurl => TargetRule::None,
        // A held action may wait for a foe that could come into reach in its turn (`S-ACT-2`).
        ActionKind::HoldAction => TargetRule::Enemy {
            range: weapon_range.saturating_add(actor.speed.0.saturating_mul(HELD_WATCH_SPEEDS)),
            optional: true,
        },
        // A screener stands where its bare hands reach the ward: beside it (`S-SPEC-1`).
        ActionKind::Screen => TargetRule::Ally { range: actor.loadout.unarmed.reach },
        ActionKind::DefensiveAttack => TargetRule::Enemy { range: weapon_range, optional: true },
        ActionKind::FullDefense | ActionKind::Move | ActionKind::Hold | ActionKind::Disengage | ActionKind::Delay => {
            TargetRule::None
        }
        ActionKind::Cast(at) => {
            let (_, spell) = actor.spells.0.get(at).ok_or(IllegalAction::NothingToUse)?;
            if spell.effect.is_hostile() {
                TargetRule::Enemy { range: spell.range, optional: false }
            } else {
                TargetRule::Ally { range: spell.range }
            }
        }
        ActionKind::UseItem(at) => {
            let stack = actor
                .inventory
                .0
                .get(at)
                .filter(|stack| stack.count > 0 && !stack.item.thrown)
                .ok_or(IllegalAction::NothingToUse)?;
            if stack.item.effect.is_hostile() {
                TargetRule::Enemy { range: stack.item.range, optional: false }
            } else {
                TargetRule::Ally { range: stack.item.range }
            }
        }
        ActionKind::Throw(at) => {
            let stack = actor
                .inventory
                .0
                .get(at)
                .filter(|stack| stack.count > 0 && stack.item.thrown)
                .ok_or(IllegalAction::NothingToUse)?;
            TargetRule::Enemy { range: stack.item.range, optional: false }
        }
        ActionKind::Stabilize => TargetRule::FallenAlly,
        ActionKind::Intimidate => TargetRule::Enemy { range: INTIMIDATION_RANGE, optional: false },
    })
}

/// The farthest any throwable item `actor` carries flies; 0 with none.
fn throw_reach(actor: &UnitView) -> u32 {
    actor
        .inventory
        .0
        .iter()
        .filter(|stack| stack.count > 0 && stack.item.thrown)
        .map(|stack| stack.item.range)
        .max()
        .unwrap_or(0)
}

/// The first throwable item `actor` carries that flies `distance`, by its place in the inventory:
/// what a charge at a foe beyond melee reach throws (`S-SPEC-1`).
pub fn charge_throw_item(actor: &UnitView, distance: u32) -> Option<usize> {
    actor.inventory.0.iter().position(|stack| stack.count > 0 && stack.item.thrown && stack.item.range >= distance)
}

/// Zones a weapon's attack reaches.
pub fn weapon_range(weapon: &Weapon) -> u32 {
    weapon.range.unwrap_or(weapon.reach)
}

/// Checks a declaration and returns its Initiative modifier. The checks run in a fixed order
/// (the actor, its move, the target, what the action itself needs), so a refusal always names
/// the same first reason.
pub fn check(
    ctx: ActionContext,
    actor: &UnitView,
    action: &Action,
    units: &impl UnitLookup,
) -> Result<i32, IllegalAction> {
    super::bonus::check(ctx.ruleset, actor.conditions, action)?;
    let reach = check_untargeted_with(ctx, actor, action)?;
    match (reach.rule, action.target) {
        (TargetRule::None, Some(_)) => return Err(IllegalAction::UnexpectedTarget),
        (TargetRule::None, None) | (TargetRule::Enemy { optional: true, .. }, None) => {}
        (_, None) => return Err(IllegalAction::NoTarget),
        (_, Some(target)) => {
            let standing = standing_after(actor, action.move_to);
            units
                .with_view(target, |other| check_target(ctx, actor, action.kind, reach, standing, other))
                .ok_or(IllegalAction::TargetGone)??;
        }
    }
    check_needs(actor, action.kind)?;
    check_charge_throw(ctx, actor, action, units)?;
    check_push(ctx, actor, action, units)?;
    check_move_after(ctx, actor, action)?;
    check_held_plan(ctx, actor, action, units)?;
    if action.kind == ActionKind::Execute
        && units.with_view(action.target.unwrap_or(Entity::PLACEHOLDER), |target| target.surprised) == Some(false)
    {
        return Err(IllegalAction::TargetAlert);
    }
    check_bow_in_melee(ctx, actor, action, units)?;
    Ok(modifier(ctx.ruleset, actor, action.kind, action.target.is_some()))
}

/// What a hold against a foe says it will do (`S-ACT-2`): an offered Main action with no move of
/// its own (a `move` goes somewhere), the holder has what it takes, and its target stands on the
/// side the action wants. Its reach is checked when it is taken, against the board of that moment.
fn check_held_plan(
    ctx: ActionContext,
    actor: &UnitView,
    action: &Action,
    units: &impl UnitLookup,
) -> Result<(), IllegalAction> {
    let Some(plan) = action.held else {
        return Ok(());
    };
    let fits = action.kind == ActionKind::HoldAction
        && action.target.is_some()
        && HeldPlan::may_hold(plan.kind)
        && offered(ctx.ruleset, plan.kind)
        && plan.move_to.is_some() == (plan.kind == ActionKind::Move)
        && check_needs(actor, plan.kind).is_ok();
    if !fits {
        return Err(IllegalAction::BadHeldPlan);
    }
    let side = |target: Entity| units.with_view(target, |other| *other.side == *actor.side);
    let target_fits = match (target_rule(actor, plan.kind)?, plan.target) {
        (TargetRule::None, None) | (TargetRule::Enemy { optional: true, .. }, None) => true,
        (TargetRule::Enemy { .. }, Some(target)) => side(target) == Some(false),
        (TargetRule::Ally { .. } | TargetRule::FallenAlly, Some(target)) => side(target) == Some(true),
        _ => false,
    };
    if !target_fits {
        return Err(IllegalAction::BadHeldPlan);
    }
    if let Some(to) = plan.move_to
        && to as usize >= ctx.battlefield.len()
    {
        return Err(IllegalAction::NoSuchZone);
    }
    Ok(())
}

/// A charge at a foe beyond the weapon's melee reach at the end of the run ends in a throw
/// (`S-SPEC-1`): the ruleset must allow it, and a carried throwable item must fly the straight-line
/// distance to a foe in sight.
fn check_charge_throw(
    ctx: ActionContext,
    actor: &UnitView,
    action: &Action,
    units: &impl UnitLookup,
) -> Result<(), IllegalAction> {
    let (ActionKind::Charge, Some(target)) = (action.kind, action.target) else {
        return Ok(());
    };
    let standing = standing_after(actor, action.move_to);
    let Some(zone) = units.with_view(target, |other| other.zone.0) else {
        return Err(IllegalAction::TargetGone);
    };
    if ctx.battlefield.distance(standing, zone) <= actor.loadout.usable_weapon(actor.conditions).1.reach {
        return Ok(());
    }
    let allowed = ctx.ruleset.attack.charge.as_ref().is_some_and(|charge| charge.thrown);
    let distance = ctx.battlefield.line_distance(standing, zone);
    if !allowed || charge_throw_item(actor, distance).is_none() {
        return Err(IllegalAction::BadCharge);
    }
    ctx.battlefield.sight(standing, zone).map(|_| ()).ok_or(IllegalAction::OutOfSight)
}

/// Whether an action of `kind` fires a two-handed missile weapon (a bow or crossbow) where the
/// ruleset forbids firing one in melee (`S-ATK-2`).
pub fn fires_forbidden_bow(ruleset: &Ruleset, actor: &UnitView, kind: ActionKind) -> bool {
    let forbidden = ruleset.attack.situational.as_ref().is_some_and(|rules| rules.forbid_two_handed_missiles_in_melee);
    let weapon = actor.loadout.usable_weapon(actor.conditions).1;
    forbidden
        && weapon.is_ranged()
        && weapon.two_handed
        && matches!(kind, ActionKind::Attack | ActionKind::Aimed(_) | ActionKind::DefensiveAttack | ActionKind::Execute)
}

/// Whether a shot from `standing` at a target in `target_zone` is made in melee (`S-ATK-2`, the
/// same test as the penalty's): the target is in melee range, or an enemy's melee weapon
/// reaches the shooter.
pub fn shooting_in_melee(
    ctx: ActionContext,
    standing: ZoneIdx,
    target_zone: ZoneIdx,
    side: SideIndex,
    units: &impl UnitLookup,
) -> bool {
    ctx.battlefield.distance(standing, target_zone) <= ctx.battlefield.melee_reach(0)
        || is_threatened(ctx, standing, side, units)
}

/// Refuses a bow or crossbow shot in melee where the ruleset forbids it (`S-ATK-2`).
fn check_bow_in_melee(
    ctx: ActionContext,
    actor: &UnitView,
    action: &Action,
    units: &impl UnitLookup,
) -> Result<(), IllegalAction> {
    if !fires_forbidden_bow(ctx.ruleset, actor, action.kind) {
        return Ok(());
    }
    let standing = standing_after(actor, action.move_to);
    let target_zone = action.target.and_then(|target| units.with_view(target, |view| view.zone.0));
    let pressed = match target_zone {
        Some(zone) => shooting_in_melee(ctx, standing, zone, *actor.side, units),
        None => is_threatened(ctx, standing, *actor.side, units),
    };
    if pressed { Err(IllegalAction::BowInMelee) } else { Ok(()) }
}

/// A chosen push destination (`Z-STUNT-1`): only on a shove, and only into a zone the shove
/// may push its target into from where the actor will stand.
fn check_push(
    ctx: ActionContext,
    actor: &UnitView,
    action: &Action,
    units: &impl UnitLookup,
) -> Result<(), IllegalAction> {
    let Some(zone) = action.push_to else {
        return Ok(());
    };
    if matches!(action.kind, ActionKind::Drag | ActionKind::Hurl) {
        return check_haul(ctx, actor, action.kind, zone, units);
    }
    if action.kind != ActionKind::Shove {
        return Err(IllegalAction::PushNotShove);
    }
    let at =
        action.target.and_then(|target| units.with_view(target, |view| view.zone.0)).ok_or(IllegalAction::NoTarget)?;
    let from = standing_after(actor, action.move_to);
    if ctx.battlefield.push_destinations(ctx.index, from, at).any(|allowed| allowed == zone) {
        Ok(())
    } else {
        Err(IllegalAction::BadPush)
    }
}

/// A chosen drag or hurl destination (`S-MAN-1`): one of the places the haul may take the foe
/// `actor` holds.
fn check_haul(
    ctx: ActionContext,
    actor: &UnitView,
    kind: ActionKind,
    zone: ZoneIdx,
    units: &impl UnitLookup,
) -> Result<(), IllegalAction> {
    let victim = actor.conditions.grappling.ok_or(IllegalAction::NotGrappling)?;
    let at = units.with_view(victim, |view| view.zone.0).ok_or(IllegalAction::TargetGone)?;
    if haul_destinations(ctx, actor.zone.0, at, kind).contains(&zone) { Ok(()) } else { Err(IllegalAction::BadHaul) }
}

/// Where a drag (the grappler's destinations) or a hurl (the victim's landings) from `grappler`
/// may take a victim at `victim` under the ruleset (`S-MAN-1`), nearest first; empty without
/// haul rules.
pub fn haul_destinations(ctx: ActionContext, grappler: ZoneIdx, victim: ZoneIdx, kind: ActionKind) -> Vec<ZoneIdx> {
    let Some(haul) = ctx.ruleset.attack.maneuvers.as_ref().and_then(|rules| rules.haul) else {
        return Vec::new();
    };
    let field = ctx.battlefield;
    if kind == ActionKind::Drag {
        let steps = super::ruleset::HaulRules::steps_on(haul.drag_steps, field);
        field.drag_destinations(ctx.index, grappler, victim, steps).into_iter().map(|(to, _)| to).collect()
    } else {
        field.throw_destinations(
            ctx.index,
            grappler,
            victim,
            super::ruleset::HaulRules::steps_on(haul.throw_steps, field),
        )
    }
}

/// Which opposed check of a manoeuvre a unit rolls (`S-MAN-1`): STR/Brawl, or for a shove
/// STR/Brawl or STR/Exert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManeuverCheck {
    /// A grapple, a drag or hurl, or a struggle against a hold.
    Hold,
    /// A shove or knock-down.
    Shove,
}

/// What `unit` adds to its roll in a manoeuvre's opposed check (`S-MAN-1`), before any size
/// penalty: the attribute's modifier plus, by the ruleset's `check_skill`, the attack skill
/// for the side that acts (`aggressor`), or Brawl (a shove: the better of Brawl and Exert) for
/// both sides; an NPC's Hit Dice and training where the ruleset says so.
pub fn maneuver_bonus(
    ruleset: &Ruleset,
    rules: &super::ruleset::ManeuverRules,
    unit: &UnitView,
    check: ManeuverCheck,
    aggressor: bool,
) -> i32 {
    let attribute = unit::modifier(ruleset, unit.attributes, rules.attribute);
    match rules.check_skill {
        super::ruleset::ManeuverSkill::AttackSkill => attribute + if aggressor { unit.skills.attack } else { 0 },
        super::ruleset::ManeuverSkill::BrawlOrExert { npc_hit_dice } => {
            if let Some(npc) = unit.skills.npc_attack.filter(|_| npc_hit_dice) {
                return npc;
            }
            let skill = match check {
                ManeuverCheck::Hold => unit.skills.brawl,
                ManeuverCheck::Shove => unit.skills.brawl.max(unit.skills.exert),
            };
            attribute + skill
        }
    }
}

/// Whether `kind` is done within the turn, so a move may follow it (`C-MOVE-1`): not a move or a
/// wait itself, and not a spell that the caster is still casting after its turn.
pub fn may_move_after(ruleset: &Ruleset, actor: &UnitView, kind: ActionKind) -> bool {
    match kind {
        ActionKind::Move
        | ActionKind::Disengage
        | ActionKind::Charge
        | ActionKind::Hold
        | ActionKind::Delay
        | ActionKind::HoldAction => false,
        ActionKind::Cast(at) => {
            !ruleset.spells.casting_times
                || actor
                    .spells
                    .0
                    .get(at)
                    .is_some_and(|(_, spell)| spell.casting_time == super::equipment::CastingTime::Instant)
        }
        _ => true,
    }
}

/// Whether `actor` may move no more than the 5-ft step this turn on a grid, so that its move
/// comes after its action (`C-MOVE-1`, where the ruleset splits movement). A zone is more
/// than 5 ft, so this never holds on zones.
pub fn short_mover(ctx: ActionContext, actor: &UnitView, action: &Action) -> bool {
    let rules = ctx.ruleset;
    rules.movement.split_move
        && ctx.battlefield.is_grid()
        && rules.reposte.free_step > 0
        && action.kind != ActionKind::Move
        && unit::action_allowance(rules, *actor.speed, *actor.status, actor.conditions, action)
            <= rules.reposte.free_step
}

/// A move after the action (`C-MOVE-1`): offered by the ruleset, after an action done in the
/// turn, to a zone with room, the two legs together no longer than the unit may move this
/// round, each measured as a single move is.
fn check_move_after(ctx: ActionContext, actor: &UnitView, action: &Action) -> Result<(), IllegalAction> {
    if action.move_to.is_some_and(|to| to != actor.zone.0) && short_mover(ctx, actor, action) {
        return Err(IllegalAction::ShortMoveComesAfter);
    }
    let Some(after) = action.move_after else {
        return Ok(());
    };
    if !ctx.ruleset.movement.split_move {
        return Err(IllegalAction::NoSplitMove);
    }
    if !may_move_after(ctx.ruleset, actor, action.kind) {
        return Err(IllegalAction::NoMoveAfter);
    }
    let first = standing_after(actor, action.move_to);
    if after == first {
        return Err(IllegalAction::NoDestination);
    }
    if after as usize >= ctx.battlefield.len() {
        return Err(IllegalAction::NoSuchZone);
    }
    if *actor.status == Status::Dying {
        return Err(IllegalAction::DyingCannotMoveAndAct);
    }
    if actor.conditions.held_action {
        return Err(IllegalAction::MoveSpent);
    }
    if ctx.battlefield.distance(first, after) == UNREACHABLE {
        return Err(IllegalAction::TooFar);
    }
    let allowance = unit::action_allowance(ctx.ruleset, *actor.speed, *actor.status, actor.conditions, action);
    let walked = move_cost(ctx.battlefield, actor, actor.zone.0, first);
    if walked + move_cost(ctx.battlefield, actor, first, after) > allowance {
        return Err(IllegalAction::SplitTooFar);
    }
    // The unit's own place, if it comes back to it, is not taken by itself.
    let own = u32::from(after == actor.zone.0);
    if let Some(capacity) = ctx.battlefield.capacity(after)
        && (ctx.index.count(after) as u32).saturating_sub(own) >= capacity
    {
        return Err(IllegalAction::ZoneFull);
    }
    Ok(())
}

/// Where `actor` stands once it has moved to `move_to`.
pub fn standing_after(actor: &UnitView, move_to: Option<ZoneIdx>) -> ZoneIdx {
    move_to.unwrap_or(actor.zone.0)
}

/// Everything a declaration of `kind` with `move_to` needs before its target is looked at: the
/// actor may act, the ruleset offers it, the move is legal, and the actor has what it takes.
/// Returns how the action reaches its target.
pub fn check_untargeted(
    ctx: ActionContext,
    actor: &UnitView,
    kind: ActionKind,
    move_to: Option<ZoneIdx>,
) -> Result<Reach, IllegalAction> {
    check_untargeted_with(ctx, actor, &Action::new(kind, None, move_to))
}

/// [`check_untargeted`] for a whole declaration, whose Bonus Actions may stride further (`A-BONUS-1`).
fn check_untargeted_with(ctx: ActionContext, actor: &UnitView, action: &Action) -> Result<Reach, IllegalAction> {
    let kind = action.kind;
    if !unit::may_act(*actor.status, actor.conditions, actor.surprised, ctx.round) {
        return Err(IllegalAction::CannotAct);
    }
    // Only a turn-based order has a later turn to delay to (`A-INIT-1`).
    if !offered(ctx.ruleset, kind) || (kind == ActionKind::Delay && !ctx.ruleset.turns.order.on_turn()) {
        return Err(IllegalAction::NotOffered);
    }
    // Distracted: may move, nothing else (`Z-HIND-1`).
    if matches!(actor.conditions.hindrance, Some((super::equipment::Hindrance::Distracted, _)))
        && !matches!(kind, ActionKind::Move | ActionKind::Hold)
    {
        return Err(IllegalAction::CannotAct);
    }
    // A snap attack spent the Main action: the turn keeps only its move (`S-SPEC-1`), and the
    // Move and Free actions of rising and dropping where the ruleset makes them so (`S-ACT-2`).
    let turns = &ctx.ruleset.turns;
    let move_or_free = (kind == ActionKind::StandUp && turns.stand_up_is_move)
        || (kind == ActionKind::Screen && turns.screen_is_move)
        || (kind == ActionKind::GoProne && turns.go_prone_is_free);
    if actor.conditions.snapped && !matches!(kind, ActionKind::Move | ActionKind::Hold) && !move_or_free {
        return Err(IllegalAction::MainActionSpent);
    }
    check_held(ctx, actor, kind, action.move_to)?;
    check_move(ctx, actor, action)?;
    check_ranged_execution(ctx.ruleset, actor, kind)?;
    reach(actor, kind)
}

/// An execution with a missile weapon needs a ruleset that has ranged executions (`S-EXEC-1`).
fn check_ranged_execution(ruleset: &Ruleset, actor: &UnitView, kind: ActionKind) -> Result<(), IllegalAction> {
    let allowed = ruleset.attack.execution.as_ref().is_some_and(|rules| rules.ranged.is_some());
    if kind == ActionKind::Execute && is_ranged(actor, kind) && !allowed {
        return Err(IllegalAction::NoRangedExecution);
    }
    Ok(())
}

/// Holding an action (`S-ACT-2`) spends the Move: it is declared without one, once a round, where
/// units take turns; the later turn has only its Main action (a move only as the `move` action).
fn check_held(
    ctx: ActionContext,
    actor: &UnitView,
    kind: ActionKind,
    move_to: Option<ZoneIdx>,
) -> Result<(), IllegalAction> {
    if kind == ActionKind::HoldAction {
        if !ctx.ruleset.turns.order.on_turn() || actor.conditions.held_action {
            return Err(IllegalAction::CannotHold);
        }
        if move_to.is_some() {
            return Err(IllegalAction::MoveSpent);
        }
    }
    let needs_the_move = kind == ActionKind::Charge || (move_to.is_some() && kind != ActionKind::Move);
    if actor.conditions.held_action && needs_the_move {
        return Err(IllegalAction::MoveSpent);
    }
    Ok(())
}

/// What walking from `here` to `to` costs `actor`: difficult ground costs double on a grid
/// (`S-GRID-1` terrain; the water, climbs and crawls that halve speed, `A-MOVE-1`), except for a
/// Maneuverer, who moves through it normally (`A-FEAT-1`); zones cost one each.
pub fn move_cost(battlefield: &Battlefield, actor: &UnitView, here: ZoneIdx, to: ZoneIdx) -> u32 {
    if battlefield.is_grid() && !actor.loadout.maneuverer {
        battlefield.path_cost(here, to)
    } else {
        battlefield.distance(here, to)
    }
}

/// The move part of a declaration (`W-MOVE-1`): where to, how far, into what room.
fn check_move(ctx: ActionContext, actor: &UnitView, action: &Action) -> Result<(), IllegalAction> {
    let (kind, move_to) = (action.kind, action.move_to);
    let here = actor.zone.0;
    let Some(to) = move_to.filter(|&to| to != here) else {
        return match kind {
            ActionKind::Move | ActionKind::Disengage => Err(IllegalAction::NoDestination),
            ActionKind::Charge => Err(IllegalAction::BadCharge),
            _ => Ok(()),
        };
    };
    if matches!(kind, ActionKind::Hold | ActionKind::Delay) {
        return Err(IllegalAction::HoldingStill);
    }
    if to as usize >= ctx.battlefield.len() {
        return Err(IllegalAction::NoSuchZone);
    }
    let allowance = unit::action_allowance(ctx.ruleset, *actor.speed, *actor.status, actor.conditions, action);
    let distance = ctx.battlefield.distance(here, to);
    let cost = move_cost(ctx.battlefield, actor, here, to);
    if distance == UNREACHABLE || cost > allowance {
        return Err(IllegalAction::TooFar);
    }
    if let Some(capacity) = ctx.battlefield.capacity(to)
        && ctx.index.count(to) as u32 >= capacity
    {
        return Err(IllegalAction::ZoneFull);
    }
    if *actor.status == Status::Dying && !matches!(kind, ActionKind::Move | ActionKind::Hold) {
        return Err(IllegalAction::DyingCannotMoveAndAct);
    }
    // A charge runs straight: on a grid its path is as short as the line (`S-SPEC-1`).
    if kind == ActionKind::Charge
        && (ctx.battlefield.line_distance(here, to) != distance
            || actor.loadout.usable_weapon(actor.conditions).1.is_ranged())
    {
        return Err(IllegalAction::BadCharge);
    }
    Ok(())
}

/// Whether `other` is a target `actor` may give an action of `kind` that reaches as `reach` does,
/// from `standing`.
pub fn check_target(
    ctx: ActionContext,
    actor: &UnitView,
    kind: ActionKind,
    reach: Reach,
    standing: ZoneIdx,
    other: &UnitView,
) -> Result<(), IllegalAction> {
    if !other.status.on_field() {
        return Err(IllegalAction::TargetGone);
    }
    if reach.ranged && ctx.battlefield.sight(standing, other.zone.0).is_none() {
        return Err(IllegalAction::OutOfSight);
    }
    let wants_enemy = match reach.rule {
        TargetRule::Enemy { .. } => true,
        TargetRule::Ally { .. } => false,
        TargetRule::FallenAlly => {
            if !other.status.is_down() || other.conditions.stabilised || other.entity == actor.entity {
                return Err(IllegalAction::NotDown);
            }
            false
        }
        TargetRule::None => return Err(IllegalAction::UnexpectedTarget),
    };
    if (other.side != actor.side) != wants_enemy {
        return Err(IllegalAction::WrongSide);
    }
    if kind == ActionKind::Intimidate && !other.checks_morale {
        return Err(IllegalAction::Fearless);
    }
    if kind == ActionKind::Screen && other.entity == actor.entity {
        return Err(IllegalAction::ScreenSelf);
    }
    if !reach.reaches(ctx.battlefield, standing, other.zone.0) {
        return Err(IllegalAction::OutOfReach);
    }
    Ok(())
}

/// What the action itself needs of the actor, whatever the target: a prone body to stand up,
/// Mana and Stress to pay for a spell.
pub fn check_needs(actor: &UnitView, kind: ActionKind) -> Result<(), IllegalAction> {
    if kind == ActionKind::StandUp && !actor.conditions.prone {
        return Err(IllegalAction::NotProne);
    }
    if kind == ActionKind::GoProne && actor.conditions.prone {
        return Err(IllegalAction::AlreadyProne);
    }
    if kind == ActionKind::BreakFree && actor.conditions.grappled_by.is_empty() {
        return Err(IllegalAction::NotHeld);
    }
    if matches!(kind, ActionKind::LetGo | ActionKind::Drag | ActionKind::Hurl) && actor.conditions.grappling.is_none() {
        return Err(IllegalAction::NotGrappling);
    }
    // A grappler someone else holds cannot move from its place (`S-MAN-1`).
    if kind == ActionKind::Drag && !actor.conditions.grappled_by.is_empty() {
        return Err(IllegalAction::HeldInPlace);
    }
    if let ActionKind::Cast(at) = kind {
        let (_, spell) = &actor.spells.0[at];
        if actor.mana.current + actor.stress.current < spell.mana {
            return Err(IllegalAction::CannotPay);
        }
    }
    Ok(())
}

/// Every legal action of `actor` now: each kind, each reachable zone, each target in reach, in
/// the order [`super::legal::LegalActions`] gives them.
pub fn legal_actions(ctx: ActionContext, actor: &UnitView, units: &impl UnitLookup) -> Vec<Action> {
    let targets = super::legal::TargetIndex::build(ctx, units);
    super::legal::LegalActions::of(ctx, actor, &targets).iter().collect()
}

/// Enemies whose Reposte `actor` would provoke by moving as `action` says (`W-DECL-3`,
/// `W-DECL-4`): each zone entered provokes the able threateners of that zone that did not
/// already threaten the zone left. A defensive attack provokes none. Resolution applies the
/// same rule step by step.
pub fn repostes_on_path(ctx: ActionContext, threats: &ThreatMap, actor: &UnitView, action: &Action) -> Vec<Entity> {
    let Some(to) = action.move_to.filter(|&to| to != actor.zone.0) else {
        return Vec::new();
    };
    // The 5-ft step is a lone short shift before acting (`C-MOVE-1`).
    let free = action.move_after.is_none() && !short_mover(ctx, actor, action);
    repostes_between(ctx, threats, actor, action.kind, (actor.zone.0, to), free)
}

/// Enemies whose Reposte `actor` would provoke by walking `from` to `to` with an action of
/// `kind`: [`repostes_on_path`] for either leg of a split move (`C-MOVE-1`). `free_step` says
/// whether a short enough walk may be the 5-ft step.
pub fn repostes_between(
    ctx: ActionContext,
    threats: &ThreatMap,
    actor: &UnitView,
    kind: ActionKind,
    (from, to): (ZoneIdx, ZoneIdx),
    free_step: bool,
) -> Vec<Entity> {
    let mut provoked = Vec::new();
    let rules = &ctx.ruleset.reposte;
    let entering = rules.when_threat_range_entered && kind != ActionKind::DefensiveAttack;
    let leaving = rules.when_reach_left && kind != ActionKind::Disengage && !actor.conditions.disengaged;
    let free_step = free_step && ctx.battlefield.distance(from, to) <= rules.free_step && kind != ActionKind::Move;
    if !(entering || leaving) || free_step {
        return provoked;
    }
    let side = *actor.side;
    let mut here = from;
    // Each zone's threats are listed once and kept for the next step, where that zone is the
    // one being left: listing them takes most of an AI's look at a walk.
    let mut threatening_here: Vec<Threat> = threats.threateners(ctx, here, side).collect();
    let mut threatening_step: Vec<Threat> = Vec::new();
    let among = |list: &[Threat], unit: Entity| list.iter().any(|threat| threat.unit == unit);
    while let Some(step) = ctx.battlefield.step_toward(here, to, 1) {
        threatening_step.clear();
        threatening_step.extend(threats.threateners(ctx, step, side));
        for threat in threatening_step.iter().filter(|threat| threat.can_react) {
            if entering && !among(&threatening_here, threat.unit) && !provoked.contains(&threat.unit) {
                provoked.push(threat.unit);
            }
        }
        // Leaving reach (`Z-DISEN-1`, `S-AOO-1`, `A-FREE-1`, `C-AOO-1`); allies that cover the
        // retreat are not counted here, so the estimate errs on the careful side.
        if leaving {
            for threat in threatening_here.iter().filter(|threat| threat.can_react) {
                if !among(&threatening_step, threat.unit) && !provoked.contains(&threat.unit) {
                    provoked.push(threat.unit);
                }
            }
        }
        std::mem::swap(&mut threatening_here, &mut threatening_step);
        here = step;
    }
    provoked
}

/// One unit's melee threat, as a [`ThreatMap`] keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threat {
    /// The threatening unit.
    pub unit: Entity,
    /// Its side.
    pub side: SideIndex,
    /// Zones its melee weapon reaches beyond its own.
    pub reach: u32,
    /// Whether it could make a Reposte now.
    pub can_react: bool,
}

/// Who threatens what, per zone, for a moment when nothing moves (a declaration pass). Taken from
/// a [`ViewCache`] ([`ThreatMap::of`]), a zone is looked up in the zone index as it is asked
/// about: a grid square holds one unit, and a turn-by-turn round has one pass per unit, so
/// filing every unit each pass made the round grow with the square of the units. A zone with
/// several threats gives them in the units' order, from the whole table ([`FiledThreats`]),
/// filed on first need.
pub struct ThreatMap<'c> {
    filed: std::cell::OnceCell<FiledThreats>,
    units: Option<&'c dyn ThreatSource>,
}

/// The threats of a zone of few occupants, in the units' order.
type FewThreats = [Option<Threat>; SCANNED_DIRECTLY];

/// Every zone's threats side by side in one array (`threats[starts[z]..starts[z + 1]]`), in the
/// order the units came: a 64x64 field costs two allocations, not one per square.
struct FiledThreats {
    starts: Vec<u32>,
    threats: Vec<Threat>,
}

/// Where a [`ThreatMap`] reads units from.
trait ThreatSource {
    /// The zone `unit` stands in and its threat if any; `None` for no such unit.
    fn threat_of(&self, unit: Entity) -> Option<(ZoneIdx, Option<Threat>)>;

    /// `unit`'s place in the units' order.
    fn place_of(&self, unit: Entity) -> u32;

    /// Every unit's threat filed by zone, in the units' order.
    fn file(&self, zones: usize) -> FiledThreats;
}

impl ThreatSource for ViewCache<'_, '_> {
    fn threat_of(&self, unit: Entity) -> Option<(ZoneIdx, Option<Threat>)> {
        let view = self.get(unit)?;
        Some((view.zone.0, threat(view)))
    }

    fn place_of(&self, unit: Entity) -> u32 {
        self.place(unit).unwrap_or(NO_VIEW)
    }

    fn file(&self, zones: usize) -> FiledThreats {
        FiledThreats::build(zones, self.iter())
    }
}

/// A unit's melee threat as a [`ThreatMap`] files it: on the field, fighting, armed with a melee
/// weapon ([`Loadout::threatening_weapon`]).
fn threat(view: &UnitView) -> Option<Threat> {
    let weapon = view.loadout.threatening_weapon(view.conditions)?;
    (view.status.on_field() && unit::is_fighting(*view.status, view.conditions)).then(|| Threat {
        unit: view.entity,
        side: *view.side,
        reach: weapon.reach,
        can_react: can_react(view),
    })
}

impl FiledThreats {
    /// Every fighting unit with a melee weapon, filed under the zone it stands in.
    fn build<'a, 'w: 'a, 's: 'a>(zones: usize, units: impl Iterator<Item = &'a UnitView<'w, 's>>) -> Self {
        let mut filed: Vec<(ZoneIdx, Threat)> = Vec::new();
        for view in units {
            if let Some(threat) = threat(view)
                && (view.zone.0 as usize) < zones
            {
                filed.push((view.zone.0, threat));
            }
        }
        // A counting sort by zone that keeps the units' order within each zone.
        let mut starts = vec![0u32; zones + 1];
        for &(zone, _) in &filed {
            starts[zone as usize + 1] += 1;
        }
        for at in 1..starts.len() {
            starts[at] += starts[at - 1];
        }
        let mut next = starts.clone();
        let placeholder = Threat { unit: Entity::PLACEHOLDER, side: SideIndex(0), reach: 0, can_react: false };
        let mut threats = vec![placeholder; filed.len()];
        for (zone, threat) in filed {
            let slot = &mut next[zone as usize];
            threats[*slot as usize] = threat;
            *slot += 1;
        }
        Self { starts, threats }
    }

    /// The threats filed under `zone`, in the order their units came.
    fn in_zone(&self, zone: ZoneIdx) -> &[Threat] {
        match (self.starts.get(zone as usize), self.starts.get(zone as usize + 1)) {
            (Some(&start), Some(&end)) => &self.threats[start as usize..end as usize],
            _ => &[],
        }
    }
}

impl<'c> ThreatMap<'c> {
    /// Every fighting unit with a melee weapon, filed under the zone it stands in, at once.
    pub fn build<'a, 'w: 'a, 's: 'a>(zones: usize, units: impl Iterator<Item = &'a UnitView<'w, 's>>) -> Self {
        Self { filed: std::cell::OnceCell::from(FiledThreats::build(zones, units)), units: None }
    }

    /// The threats of `units`' moment, each zone looked up in the zone index as it is asked about.
    pub fn of(units: &'c ViewCache<'_, '_>) -> Self {
        Self { filed: std::cell::OnceCell::new(), units: Some(units) }
    }

    /// The threats in `zone`, in the order their units came: the few there, or a slice of the
    /// whole table.
    fn in_zone<'a>(&'a self, ctx: ActionContext, zone: ZoneIdx) -> (FewThreats, &'a [Threat]) {
        let mut few = [None; SCANNED_DIRECTLY];
        let units = match (self.filed.get(), self.units) {
            (Some(filed), _) => return (few, filed.in_zone(zone)),
            (None, Some(units)) => units,
            (None, None) => return (few, &[]),
        };
        let whole = || self.filed.get_or_init(|| units.file(ctx.battlefield.len())).in_zone(zone);
        let mut found = 0;
        let mut threatening = [Entity::PLACEHOLDER; SCANNED_DIRECTLY];
        for &other in ctx.index.occupants(zone) {
            match units.threat_of(other) {
                // The table files units by where they stand: ask it when the index disagrees.
                Some((standing, _)) if standing != zone => return ([None; SCANNED_DIRECTLY], whole()),
                Some((_, Some(_))) if found == SCANNED_DIRECTLY => return ([None; SCANNED_DIRECTLY], whole()),
                Some((_, Some(threat))) => {
                    few[found] = Some(threat);
                    threatening[found] = other;
                    found += 1;
                }
                _ => {}
            }
        }
        // Kept in the units' order, as the table files them (places are distinct); a zone of
        // one threat, a grid square, needs no order, so no walk over every unit.
        if found > 1 {
            let mut placed: [(u32, Option<Threat>); SCANNED_DIRECTLY] = [(0, None); SCANNED_DIRECTLY];
            for at in 0..found {
                placed[at] = (units.place_of(threatening[at]), few[at]);
            }
            placed[..found].sort_unstable_by_key(|(place, _)| *place);
            for at in 0..found {
                few[at] = placed[at].1;
            }
        }
        (few, &[])
    }

    /// Enemies of `side` whose reach covers `zone`.
    pub fn threateners<'a>(
        &'a self,
        ctx: ActionContext<'a>,
        zone: ZoneIdx,
        side: SideIndex,
    ) -> impl Iterator<Item = Threat> + 'a {
        ctx.battlefield.within(zone, ctx.index.longest_reach()).flat_map(move |here| {
            let distance = ctx.battlefield.distance(here, zone);
            let (few, several) = self.in_zone(ctx, here);
            few.into_iter()
                .flatten()
                .chain(several.iter().copied())
                .filter(move |threat| threat.side != side && threat.reach >= distance)
        })
    }
}

/// Enemies of `side` whose melee weapons reach `zone` and who are fighting: the threat range
/// (`W-DECL-4`), found through the zone index within the longest reach on the field.
pub fn threateners_of(ctx: ActionContext, zone: ZoneIdx, side: SideIndex, units: &impl UnitLookup) -> Vec<Entity> {
    threateners_by(ctx, zone, |other, distance| {
        units
            .with_view(other, |view| threatens(*view.side, *view.status, view.conditions, view.loadout, side, distance))
    })
}

/// Whether any enemy of `side` threatens `zone`: [`threateners_of`] being non-empty, found
/// without listing them all (in a crowd the first one looked at usually is one).
pub fn is_threatened(ctx: ActionContext, zone: ZoneIdx, side: SideIndex, units: &impl UnitLookup) -> bool {
    threatened_by(ctx, zone, |other, distance| {
        units
            .with_view(other, |view| threatens(*view.side, *view.status, view.conditions, view.loadout, side, distance))
    })
}

/// Whether [`threateners_by`] with the same question would find anyone, stopping at the first.
pub fn threatened_by(
    ctx: ActionContext,
    zone: ZoneIdx,
    mut threatens_at: impl FnMut(Entity, u32) -> Option<bool>,
) -> bool {
    ctx.battlefield.within(zone, ctx.index.longest_reach()).any(|here| {
        let distance = ctx.battlefield.distance(here, zone);
        ctx.index.occupants(here).iter().any(|&other| threatens_at(other, distance) == Some(true))
    })
}

/// [`threateners_of`], reading each nearby unit's threat with `threatens_at(unit, distance)`
/// (`None` for no such unit): a caller that can read the four components it needs more
/// cheaply than a whole view says how.
pub fn threateners_by(
    ctx: ActionContext,
    zone: ZoneIdx,
    mut threatens_at: impl FnMut(Entity, u32) -> Option<bool>,
) -> Vec<Entity> {
    let mut found = Vec::new();
    for here in ctx.battlefield.within(zone, ctx.index.longest_reach()) {
        let distance = ctx.battlefield.distance(here, zone);
        for &other in ctx.index.occupants(here) {
            if threatens_at(other, distance) == Some(true) {
                found.push(other);
            }
        }
    }
    found
}

/// Whether a unit of `its_side` with this status, conditions and loadout threatens a unit of
/// `side` `distance` zones away: an enemy, fighting, armed with a melee weapon that reaches
/// ([`Loadout::threatening_weapon`]).
pub fn threatens(
    its_side: SideIndex,
    status: Status,
    conditions: &Conditions,
    loadout: &Loadout,
    side: SideIndex,
    distance: u32,
) -> bool {
    let reaches = loadout.threatening_weapon(conditions).is_some_and(|weapon| weapon.reach >= distance);
    its_side != side && unit::is_fighting(status, conditions) && reaches
}

/// Whether `unit` can make a Reposte now: a reaction left and not caught by surprise.
pub fn can_react(unit: &UnitView) -> bool {
    unit.reactions.0 > 0 && !unit.surprised
}

/// Chances and damage of one attack, computed exactly from the dice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackOdds {
    /// Chance to hit, 0 to 1.
    pub hit: f64,
    /// Chance of a critical, 0 to 1.
    pub critical: f64,
    /// Least damage on a hit, after Armour.
    pub damage_min: i32,
    /// Most damage on a critical hit, after Armour.
    pub damage_max: i32,
    /// Expected damage per attack, hits and criticals weighed.
    pub expected: f64,
}

/// The attack skill and the weapon's bonus, less the attacker's accuracy penalties: the whole
/// attack bonus unless the ruleset adds more ([`roll_bonus`]).
pub fn attack_bonus(attacker: &UnitView, weapon: &Weapon) -> i32 {
    attacker.skills.attack + weapon.attack_bonus
        - attacker.conditions.accuracy_penalty
        - attacker.conditions.round_accuracy_penalty
}

/// The attack roll's total bonus for `attacker` with `weapon` under `ruleset` (`S-ATK-1`): the
/// attack skill and the weapon's bonus, plus the attribute modifier and combat skill the
/// ruleset adds; an NPC's Hit Dice and training where the ruleset reads them.
pub fn roll_bonus(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    let base = attack_bonus(attacker, weapon);
    let Some(parts) = ruleset.attack.attack_roll else {
        return base;
    };
    if let Some(npc) = attacker.skills.npc_attack.filter(|_| parts.npc_hit_dice) {
        return base - attacker.skills.attack + npc;
    }
    let attribute =
        if parts.attribute_modifier { attack_attribute_modifier(ruleset, attacker, weapon, thrown) } else { 0 };
    let skill = if parts.combat_skill { combat_skill(attacker, weapon, thrown) } else { 0 };
    base + attribute + skill
}

/// The attribute modifier an attack with `weapon` adds (`S-ATK-1`): the best of the weapon's own
/// `attributes`; otherwise Strength for melee and bare hands, Dexterity for missiles, the
/// better of the two for a throw.
fn attack_attribute_modifier(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    // A weakening wound lowers the Strength modifier (`A-AIM-1`), as it does for damage.
    let modifier = |attribute: Attribute| {
        let penalty = if attribute == Attribute::Strength { attacker.conditions.strength_penalty } else { 0 };
        unit::modifier(ruleset, attacker.attributes, attribute) - penalty
    };
    let choices: &[Attribute] = if !weapon.attributes.is_empty() {
        &weapon.attributes
    } else if thrown {
        &[Attribute::Strength, Attribute::Dexterity]
    } else if weapon.is_ranged() {
        &[Attribute::Dexterity]
    } else {
        &[Attribute::Strength]
    };
    choices.iter().map(|&attribute| modifier(attribute)).max().unwrap_or(0)
}

/// The combat skill an attack with `weapon` adds (`S-ATK-1`): Brawl bare-handed, Shoot for
/// missiles and throws, Stab otherwise.
fn combat_skill(attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    if thrown || weapon.is_ranged() {
        attacker.skills.shoot
    } else if *weapon == attacker.loadout.unarmed {
        attacker.skills.brawl
    } else {
        attacker.skills.stab
    }
}

/// What the attacker of a shove or grapple takes off its check for the target's size (`S-MAN-1`).
pub fn size_penalty(rules: &super::ruleset::ManeuverRules, attacker: &UnitView, target: &UnitView) -> i32 {
    match attacker.size.steps_below(*target.size) {
        0 => 0,
        1 => rules.larger_target_penalty,
        _ => rules.much_larger_target_penalty,
    }
}

/// The unit's level in the skill for melee weapons, as the dual-wielding requirement reads it
/// (`S-DUAL-1`): Stab where the ruleset adds combat skills, an NPC's attack bonus (its Hit Dice
/// and training, which stand in for skill levels it does not have) where it reads those, and
/// otherwise the attack skill, which holds the whole bonus.
pub fn weapon_skill(ruleset: &Ruleset, unit: &UnitView) -> i32 {
    let Some(parts) = ruleset.attack.attack_roll else {
        return unit.skills.attack;
    };
    match unit.skills.npc_attack.filter(|_| parts.npc_hit_dice) {
        Some(npc) => npc,
        None if parts.combat_skill => unit.skills.stab,
        None => unit.skills.attack,
    }
}

/// Whether `unit` is trained to fight with two weapons where the ruleset asks for it (`S-DUAL-1`).
pub fn may_dual_wield(ruleset: &Ruleset, unit: &UnitView) -> bool {
    match ruleset.attack.dual_wield {
        super::ruleset::DualWield::Bonus { min_skill, .. } => weapon_skill(ruleset, unit) >= min_skill,
        _ => true,
    }
}

/// The damage dice of `weapon` for `attacker`: its attribute bonus ([`damage_attribute_bonus`]),
/// a magic weapon's bonus ([`magic_damage_bonus`]) and, for bare hands, Brawl ([`brawl_bonus`]).
pub fn damage_dice(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> Dice {
    weapon.damage.plus(
        damage_attribute_bonus(ruleset, attacker, weapon, thrown)
            + magic_damage_bonus(ruleset, weapon)
            + brawl_bonus(ruleset, attacker, weapon, thrown),
    )
}

/// What `weapon`'s own `attack_bonus` (a magic weapon's) adds to its damage and its Shock, where
/// the ruleset says so (`S-ATK-1`, `S-SHOCK-1`: "a magic weapon's bonus"); else nothing.
pub fn magic_damage_bonus(ruleset: &Ruleset, weapon: &Weapon) -> i32 {
    if ruleset.damage.weapon_bonus_to_damage { weapon.attack_bonus } else { 0 }
}

/// The attribute modifier added to the damage of `weapon` (and to its Shock, `S-SHOCK-1`): the
/// best of the weapon's own attributes where the ruleset reads them (`S-DMG-1`); otherwise
/// Strength for melee and thrown damage when the ruleset says so, never for missiles a bow or
/// sling throws for you.
pub fn damage_attribute_bonus(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    // A weakening wound lowers the Strength modifier (`A-AIM-1`).
    let modifier = |attribute: Attribute| {
        let penalty = if attribute == Attribute::Strength { attacker.conditions.strength_penalty } else { 0 };
        unit::modifier(ruleset, attacker.attributes, attribute) - penalty
    };
    if ruleset.damage.weapon_attributes && !weapon.attributes.is_empty() {
        return weapon.attributes.iter().map(|&attribute| modifier(attribute)).max().unwrap_or(0);
    }
    if ruleset.damage.strength_to_damage && (thrown || !weapon.is_ranged()) { modifier(Attribute::Strength) } else { 0 }
}

/// The Brawl skill added to a purely unarmed blow where the ruleset says so (`S-DMG-1`).
pub fn brawl_bonus(ruleset: &Ruleset, attacker: &UnitView, weapon: &Weapon, thrown: bool) -> i32 {
    let bare_hands = !thrown && *weapon == attacker.loadout.unarmed;
    if ruleset.damage.unarmed_skill_to_damage && bare_hands { attacker.skills.brawl } else { 0 }
}

/// The natural roll from which `weapon` scores a critical: its own range, or the ruleset's. A
/// ruleset whose critical natural lies beyond the die has no criticals at all, whatever the weapon.
pub fn critical_natural(ruleset: &Ruleset, weapon: &Weapon) -> u32 {
    if ruleset.attack.critical_natural > ruleset.attack.die.sides {
        return u32::MAX;
    }
    weapon.critical_natural.unwrap_or(ruleset.attack.critical_natural)
}

/// Odds of `attacker` striking `target` with its usable weapon now.
pub fn attack_odds(ruleset: &Ruleset, attacker: &UnitView, target: &UnitView) -> AttackOdds {
    attack_odds_in_cover(ruleset, attacker, target, Cover::None)
}

/// [`attack_odds`] for a ranged attack at a target in `cover`, whose penalty to hit
/// ([`cover_penalty`]) the odds count.
pub fn attack_odds_in_cover(ruleset: &Ruleset, attacker: &UnitView, target: &UnitView, cover: Cover) -> AttackOdds {
    let defense = match &ruleset.attack.style {
        AttackStyle::VsDefense => unit::defense_score(ruleset, target.attributes, target.defense, target.conditions),
        AttackStyle::Test { tn, .. } => *tn,
    };
    let mut attacker = AttackerOdds::of(ruleset, attacker);
    attacker.bonus -= cover_penalty(ruleset, cover);
    attacker.against(ruleset, defense, target.armour.0)
}

/// What `cover` takes from a ranged attack's roll to hit (`S-COVER-1`).
pub fn cover_penalty(ruleset: &Ruleset, cover: Cover) -> i32 {
    match cover {
        Cover::None => 0,
        Cover::Half => ruleset.attack.half_cover_penalty,
        Cover::Full => ruleset.attack.full_cover_penalty,
    }
}

/// The attacker's half of [`attack_odds`]: its usable weapon, damage dice and roll bonus, which
/// do not depend on the target. A unit weighing many targets works them out once.
#[derive(Clone, Copy)]
pub struct AttackerOdds<'a> {
    weapon: &'a Weapon,
    dice: Dice,
    bonus: i32,
}

impl<'a> AttackerOdds<'a> {
    /// `attacker`'s half of the odds under `ruleset`.
    pub fn of(ruleset: &Ruleset, attacker: &'a UnitView) -> Self {
        let weapon = attacker.loadout.usable_weapon(attacker.conditions).1;
        let dice = damage_dice(ruleset, attacker, weapon, false);
        let bonus = match &ruleset.attack.style {
            AttackStyle::VsDefense => roll_bonus(ruleset, attacker, weapon, false),
            AttackStyle::Test { melee, ranged, .. } => {
                // Avoid tests mirror the attack test closely enough for planning; the roll is the target's.
                let attribute = if weapon.is_ranged() { *ranged } else { *melee };
                attack_bonus(attacker, weapon) + unit::modifier(ruleset, attacker.attributes, attribute)
            }
        };
        Self { weapon, dice, bonus }
    }

    /// The odds against a target of `armour` whose Defense is `defense` ([`unit::defense_score`]);
    /// where the ruleset's attack is a test, its number stands in for the Defense.
    pub fn against(&self, ruleset: &Ruleset, defense: i32, armour: i32) -> AttackOdds {
        // The test's number stands in for the Defense: the target's own is not read.
        let defense = match &ruleset.attack.style {
            AttackStyle::VsDefense => defense,
            AttackStyle::Test { tn, .. } => *tn,
        };
        odds_against(ruleset, self.bonus, self.weapon, self.dice, defense, armour)
    }
}

/// Odds of an attack with `bonus` and `weapon` (damage `dice`) against `defense` and `armour`.
pub fn odds_against(
    ruleset: &Ruleset,
    bonus: i32,
    weapon: &Weapon,
    dice: Dice,
    defense: i32,
    armour: i32,
) -> AttackOdds {
    // Counted in closed form: the naturals that hit are an upper range of the die, and so are
    // the criticals among them.
    let sides = ruleset.attack.die.sides.max(1) as i64;
    let critical_at = (critical_natural(ruleset, weapon) as i64).min(i64::from(u32::MAX));
    let lowest_allowed = ruleset.attack.fumble_natural as i64 + 1;
    let needed = defense as i64 - ruleset.attack.die.modifier as i64 - bonus as i64;
    let lowest_hit = if ruleset.attack.critical_always_hits { needed.min(critical_at) } else { needed };
    let count_from = |lowest: i64| (sides - lowest.max(lowest_allowed).max(1) + 1).clamp(0, sides);
    let hits = count_from(lowest_hit);
    let crits = count_from(if ruleset.attack.critical_always_hits { critical_at } else { critical_at.max(needed) });
    // Expected damage from the mean roll, rounded half up without the float round call.
    let mean = (dice.mean() + 0.5) as i32;
    let normal = super::damage::damage_after_armour(ruleset, mean, 1, armour);
    let critical = super::damage::damage_after_armour(ruleset, mean, weapon.critical_multiplier, armour);
    let hit = hits as f64 / sides as f64;
    let crit = crits as f64 / sides as f64;
    AttackOdds {
        hit,
        critical: crit,
        damage_min: super::damage::damage_after_armour(ruleset, dice.min(), 1, armour),
        // Without a critical to roll (a ruleset or a target that allows none), a hit's best is the best.
        damage_max: super::damage::damage_after_armour(
            ruleset,
            dice.max(),
            if crits > 0 { weapon.critical_multiplier } else { 1 },
            armour,
        ),
        expected: (hit - crit) * normal as f64 + crit * critical as f64,
    }
}

/// Every unit viewed at most once, for a controller that looks units up many times in one pass:
/// a query lookup re-reads every component column, a cached one is an array read. A unit is
/// viewed when first asked about, so a pass that looks at a few units does not copy them all.
/// Made with [`ViewCache::lazy`], a unit's brief (side, zone, standing) is read on first asking
/// too, and the walk over every unit in the query's order waits until something needs that
/// order: a turn-by-turn grid round has one pass per unit, and most look at a few dozen units.
pub struct ViewCache<'w, 's> {
    units: &'w Query<'w, 's, UnitReadOnly>,
    /// The few parts a brief reads, for briefs taken on first asking (`None`: every brief comes
    /// from the walk, taken at once).
    parts: Option<&'w Query<'w, 's, BriefParts>>,
    /// Each unit's place among those asked about, and its side once read, by entity index.
    scratch: Scratch<'w>,
    /// The units asked about, in the order first asked, with their briefs.
    known: std::cell::RefCell<Vec<(Entity, Brief<'w>)>>,
    /// Each unit's view, at its place among those asked about, taken on first asking: in
    /// chunks of [`VIEW_CHUNK`] places, each made when a unit in it is first viewed.
    views: Vec<std::cell::OnceCell<Box<[ViewCell<'w, 's>]>>>,
    /// Every unit in the query's order, walked on first need.
    walk: std::cell::OnceCell<Walk<'w>>,
    /// Who may be targeted where, filed on first asking: nobody moves while the cache lives.
    targets: std::cell::OnceCell<super::legal::TargetIndex>,
    /// Each zone's enemies of each side, filed from the briefs on first asking.
    enemy_lists: std::cell::OnceCell<EnemyLists>,
    /// Which sides have a fighting unit in each zone, filed on first asking.
    fighting: std::cell::OnceCell<FightingSides>,
    /// One more than the highest side the target index files, worked out on first asking.
    sides_filed: std::cell::OnceCell<usize>,
    /// By side: whether the target index files a unit of that side or a higher one, as asked.
    filed_from: std::cell::RefCell<Vec<Option<bool>>>,
    /// Whether the scratch's [`SideRows`] were brought up to date with this pass's zone index.
    rows_current: std::cell::Cell<bool>,
    /// The last [`Self::foe_distance_floor`] worked out, for (zone, side): a choice asks the same
    /// one up to three times.
    last_floor: std::cell::Cell<Option<(ZoneIdx, usize, u32)>>,
}

/// A [`ViewCache`]'s place for one unit's view, filled on first asking.
type ViewCell<'w, 's> = std::cell::OnceCell<Box<UnitView<'w, 's>>>;

/// How many views' places a [`ViewCache`] makes at a time. A turn-by-turn pass views a few
/// hundred of the thousands of units there may be: setting up (and dropping) an empty place for
/// every unit, every pass, cost more than the views it took.
const VIEW_CHUNK: usize = 64;

/// Tables by entity index that a lazy [`ViewCache`] keeps between passes, so that a pass does
/// not clear one entry per entity there is: each unit's place among those a pass asked about
/// (cleared again for those units as the cache is dropped), and each unit's side once read. A
/// unit's side is set when it is spawned and never changes, and an entity index reused by a new
/// unit comes with a new generation, so a side kept here is that entity's for good.
#[derive(Debug, Default)]
pub struct ViewScratch {
    slots: Vec<std::cell::Cell<u32>>,
    sides: Vec<std::cell::Cell<Option<(Entity, usize)>>>,
    /// On a grid, the squares each side's units stand on (`None`: not a grid, not filed yet, or
    /// a unit the rows cannot place).
    rows: std::cell::RefCell<Option<SideRows>>,
}

impl ViewScratch {
    /// Room for every entity index below `bound`.
    pub fn fit(&mut self, bound: usize) {
        if self.slots.len() < bound {
            self.slots.resize(bound, std::cell::Cell::new(NO_VIEW));
            self.sides.resize(bound, std::cell::Cell::new(None));
        }
    }
}

/// A [`ViewCache`]'s tables by entity index: its own, or kept between passes by its maker.
enum Scratch<'w> {
    Own(ViewScratch),
    Kept(&'w ViewScratch),
}

impl Scratch<'_> {
    fn get(&self) -> &ViewScratch {
        match self {
            Self::Own(scratch) => scratch,
            Self::Kept(scratch) => scratch,
        }
    }
}

/// What a lazy [`ViewCache`] reads of a unit for its brief: a look-up of these four columns costs
/// a fraction of a whole view's thirty.
pub type BriefParts = (&'static SideIndex, &'static Zone, &'static Status, &'static Conditions);

/// Every unit of a [`ViewCache`] in the query's order, with its brief.
struct Walk<'w> {
    /// Every unit, in the query's order.
    order: Vec<Entity>,
    /// Each unit's brief, at its place in `order`.
    briefs: Vec<Brief<'w>>,
    /// Where each unit lies in `order`, by entity index ([`NO_VIEW`] for none): entity
    /// indices are small and dense, so a look-up is an array read, not a hash probe.
    slots: Vec<u32>,
    /// One more than the highest side of a unit on the field, as the views say.
    sides_on_field: usize,
}

impl<'w> Walk<'w> {
    /// Walks every unit of `units` in the query's order, reading only its entity and brief.
    fn of(units: &'w Query<'w, '_, UnitReadOnly>) -> Self {
        let walk = units.iter();
        let count = walk.len();
        let mut order = Vec::with_capacity(count);
        let mut briefs = Vec::with_capacity(count);
        let mut sides_on_field = 0;
        let mut len = 0;
        for view in walk {
            order.push(view.entity);
            len = len.max(view.entity.index_u32() as usize + 1);
            briefs.push(Brief {
                side: view.side.0,
                zone: view.zone.0,
                status: *view.status,
                conditions: view.conditions,
            });
            if view.status.on_field() {
                sides_on_field = sides_on_field.max(view.side.0 + 1);
            }
        }
        let mut slots = vec![NO_VIEW; len];
        for (at, unit) in order.iter().enumerate() {
            slots[unit.index_u32() as usize] = at as u32;
        }
        Self { order, briefs, slots, sides_on_field }
    }

    /// `unit`'s place in the query's order.
    fn place(&self, unit: Entity) -> Option<u32> {
        // The slot is the entity's index; the entity in that place tells a live unit from a
        // despawned one whose index was reused.
        let at = *self.slots.get(unit.index_u32() as usize)?;
        (self.order.get(at as usize) == Some(&unit)).then_some(at)
    }

    /// `unit`'s brief.
    fn brief(&self, unit: Entity) -> Option<Brief<'w>> {
        self.place(unit).and_then(|at| self.briefs.get(at as usize).copied())
    }
}

/// Zones with at most this many occupants are asked about directly rather than through a table
/// of every zone: a grid square holds one unit, and a turn-by-turn round would otherwise refile
/// every zone for every unit's turn.
const SCANNED_DIRECTLY: usize = 4;

/// The targets of the moment a [`ViewCache`] was taken, as [`ViewCache::targets`] gives them:
/// a zone whose occupants are all targets (or none is) is answered from the zone index itself;
/// other zones from the whole [`super::legal::TargetIndex`], built on first need.
#[derive(Clone, Copy)]
pub struct Targets<'a, 'w, 's> {
    ctx: ActionContext<'a>,
    units: &'a ViewCache<'w, 's>,
}

impl<'a> Targets<'a, '_, '_> {
    /// The whole target index.
    pub fn index(self) -> &'a super::legal::TargetIndex {
        self.units.targets.get_or_init(|| super::legal::TargetIndex::build(self.ctx, self.units))
    }

    /// Enemies of `side` on the field in `zone`, in the zone index's order: the same list as
    /// [`super::legal::TargetIndex::enemies`].
    pub fn enemies(self, zone: ZoneIdx, side: usize) -> &'a [Entity] {
        let occupants = self.ctx.index.occupants(zone);
        // A crowded zone is filed once rather than scanned at every asking.
        if occupants.len() > SCANNED_DIRECTLY {
            return self.units.enemy_lists(self.ctx).enemies(zone, side);
        }
        // An ally whose side is known is passed over without a look-up.
        let enemy = |other: &Entity| {
            self.units.side_seen(*other) != Some(side)
                && self.units.brief(*other).is_some_and(|brief| brief.on_field() && brief.side != side)
        };
        let Some(first) = occupants.iter().position(enemy) else {
            return &[];
        };
        let end = occupants[first..].iter().position(|other| !enemy(other)).map_or(occupants.len(), |run| first + run);
        // The enemies are one run of the zone's occupants (on a grid, the one unit there): that
        // run is the list, unless more of them come later. The index keeps lists only for the
        // sides it files (up to the highest).
        if !occupants[end..].iter().any(enemy) && self.units.files_side(self.ctx, side) {
            return &occupants[first..end];
        }
        self.units.enemy_lists(self.ctx).enemies(zone, side)
    }
}

/// Each zone's enemies of each side, in the zone index's order: the lists
/// [`super::legal::TargetIndex::enemies`] gives, filed from the briefs alone (side and standing),
/// so filing them views no unit.
struct EnemyLists {
    /// One more than the highest side filed ([`ViewCache::sides_filed`]): a side beyond it has
    /// no list, as in the target index.
    sides: usize,
    /// Where each (zone, side) list starts in `units`, zone by zone, and one past the last.
    starts: Vec<u32>,
    units: Vec<Entity>,
}

impl EnemyLists {
    /// Files the on-field occupants of every zone of `ctx`'s zone index, for each side they are
    /// enemies of.
    fn build(ctx: ActionContext, units: &ViewCache) -> Self {
        let sides = units.sides_filed(ctx);
        let zones = ctx.battlefield.len();
        let mut starts = Vec::with_capacity(zones * sides + 1);
        let mut filed = Vec::new();
        for zone in 0..zones as ZoneIdx {
            let occupants = ctx.index.occupants(zone);
            for viewer in 0..sides {
                starts.push(filed.len() as u32);
                filed.extend(
                    occupants.iter().copied().filter(|&other| {
                        units.brief(other).is_some_and(|brief| brief.on_field() && brief.side != viewer)
                    }),
                );
            }
        }
        starts.push(filed.len() as u32);
        Self { sides, starts, units: filed }
    }

    /// Enemies of `side` on the field in `zone`.
    fn enemies(&self, zone: ZoneIdx, side: usize) -> &[Entity] {
        if side >= self.sides {
            return &[];
        }
        let at = zone as usize * self.sides + side;
        match (self.starts.get(at), self.starts.get(at + 1)) {
            (Some(&from), Some(&to)) => &self.units[from as usize..to as usize],
            _ => &[],
        }
    }
}

/// What a [`ViewCache`] reads of a unit before viewing it (of every unit in a walk, or of one
/// on first asking): enough to tell friend from foe, and a fighter from the fallen.
#[derive(Clone, Copy)]
struct Brief<'w> {
    side: usize,
    zone: ZoneIdx,
    status: Status,
    /// Read only when asked whether the unit fights: a unit's conditions are a large component,
    /// and most units a pass briefs are only asked their side.
    conditions: &'w Conditions,
}

impl Brief<'_> {
    /// Whether the unit is on the field.
    fn on_field(&self) -> bool {
        self.status.on_field()
    }

    /// Whether the unit is fighting ([`unit::is_fighting`]).
    fn fighting(&self) -> bool {
        unit::is_fighting(self.status, self.conditions)
    }
}

/// A [`ViewCache`] slot with no view.
const NO_VIEW: u32 = u32::MAX;

/// Bits in one word of a [`SideRows`] row.
const ROW_WORD_BITS: usize = u64::BITS as usize;

/// Which squares of a grid hold units of each side: a bit a square, a row of words a grid row.
/// Enough to tell how near the nearest unit of another side stands in a straight line
/// (Chebyshev distance), which is never more than the walk there: a step goes to one of the eight
/// squares around, so it changes each coordinate by at most one. Kept between passes
/// ([`ViewScratch`]) and brought up to date from the zones the index says changed.
#[derive(Debug)]
struct SideRows {
    /// The zone index's [`ZoneIndex::version`] these rows were last brought up to.
    version: (u64, u64),
    /// Zones of the battlefield filed.
    zones: usize,
    width: usize,
    height: usize,
    /// Words per grid row.
    words: usize,
    /// By side the squares its units hold, and last those of units of no side the cache could
    /// read (counted as every side's enemies).
    held: Vec<Vec<u64>>,
    /// By side, then for any higher side: the squares held by the other sides' units (and by
    /// those of no known side), as of `version`.
    others: Vec<Vec<u64>>,
}

impl SideRows {
    /// Rows for `ctx`'s battlefield, brought up to date with its zone index: from `kept` where
    /// it is the same index and the index remembers every change since, else filed afresh.
    /// `None` off a grid, or where an occupied zone has no square on the grid.
    fn brought_up_to_date(kept: Option<Self>, ctx: ActionContext, units: &ViewCache) -> Option<Self> {
        let grid = ctx.battlefield.grid()?;
        let (width, height) = (usize::from(grid.width()), usize::from(grid.height()));
        let version = ctx.index.version();
        let zones = ctx.battlefield.len();
        let same_field = |rows: &Self| rows.zones == zones && rows.width == width && rows.height == height;
        // An index numbered 0 is a default one, never told apart from another.
        if let Some(mut rows) = kept.filter(|rows| same_field(rows) && rows.version.0 == version.0 && version.0 != 0)
            && let Some(touched) = ctx.index.touched_since(rows.version.1)
        {
            if rows.version.1 == version.1 {
                return Some(rows);
            }
            for zone in touched {
                rows.file(ctx, zone, units)?;
            }
            rows.version = version;
            rows.gather_others();
            return Some(rows);
        }
        let words = width.div_ceil(ROW_WORD_BITS);
        let mut rows =
            Self { version, zones, width, height, words, held: vec![vec![0; words * height]], others: Vec::new() };
        for zone in 0..zones {
            if !ctx.index.occupants(zone as ZoneIdx).is_empty() {
                rows.file(ctx, zone as ZoneIdx, units)?;
            }
        }
        rows.gather_others();
        Some(rows)
    }

    /// Files who stands in `zone` now; `None` if its square cannot be placed in the rows.
    fn file(&mut self, ctx: ActionContext, zone: ZoneIdx, units: &ViewCache) -> Option<()> {
        let square = ctx.battlefield.square(zone)?;
        let (x, y) = (usize::try_from(square.x).ok()?, usize::try_from(square.y).ok()?);
        if x >= self.width || y >= self.height {
            return None;
        }
        let (word, bit) = (y * self.words + x / ROW_WORD_BITS, 1u64 << (x % ROW_WORD_BITS));
        for map in &mut self.held {
            map[word] &= !bit;
        }
        for &unit in ctx.index.occupants(zone) {
            let map = match units.side_seen(unit).or_else(|| units.brief(unit).map(|brief| brief.side)) {
                Some(side) => {
                    if self.held.len() < side + 2 {
                        let unknown = self.held.pop().unwrap_or_default();
                        self.held.resize(side + 1, vec![0; self.words * self.height]);
                        self.held.push(unknown);
                    }
                    side
                }
                None => self.held.len() - 1,
            };
            self.held[map][word] |= bit;
        }
        Some(())
    }

    /// Works out `others` from `held`.
    fn gather_others(&mut self) {
        let unknown = self.held.len() - 1;
        self.others = (0..=unknown)
            .map(|side| {
                let mut others = vec![0; self.words * self.height];
                for (_, map) in
                    self.held.iter().enumerate().filter(|&(held_by, _)| held_by != side || held_by == unknown)
                {
                    for (into, &from) in others.iter_mut().zip(map) {
                        *into |= from;
                    }
                }
                others
            })
            .collect();
    }

    /// The straight-line distance from (`x`, `y`) to the nearest square held by a unit of another
    /// side than `side` ([`UNREACHABLE`] for none).
    fn nearest_other(&self, side: usize, x: usize, y: usize) -> u32 {
        let Some(map) = self.others.get(side).or(self.others.last()) else {
            return UNREACHABLE;
        };
        let mut nearest = UNREACHABLE as usize;
        // Rows outward from `y`: a row `dy` away holds nothing nearer than `dy`.
        for dy in 0..self.height {
            if dy >= nearest {
                break;
            }
            for row in [y.checked_sub(dy), (dy > 0).then_some(y + dy)].into_iter().flatten() {
                if row >= self.height {
                    continue;
                }
                let words = &map[row * self.words..(row + 1) * self.words];
                if let Some(dx) = nearest_bit(words, x) {
                    nearest = nearest.min(dx.max(dy));
                }
            }
        }
        u32::try_from(nearest).unwrap_or(UNREACHABLE)
    }
}

/// How far from bit `x` the nearest set bit of `row` lies.
fn nearest_bit(row: &[u64], x: usize) -> Option<usize> {
    let (at, bit) = (x / ROW_WORD_BITS, x % ROW_WORD_BITS);
    let word = *row.get(at)?;
    // Where in `row` the highest or lowest set bit of the word at `at` stands.
    let highest = |at: usize, word: u64| at * ROW_WORD_BITS + (ROW_WORD_BITS - 1 - word.leading_zeros() as usize);
    let lowest = |at: usize, word: u64| at * ROW_WORD_BITS + word.trailing_zeros() as usize;
    // At or before `x`: the highest set bit below it in its word, else in the words before.
    let low = word & (u64::MAX >> (ROW_WORD_BITS - 1 - bit));
    let before = if low != 0 {
        Some(highest(at, low))
    } else {
        row[..at].iter().rposition(|&word| word != 0).map(|found| highest(found, row[found]))
    };
    // At or after `x`.
    let high = word & (u64::MAX << bit);
    let after = if high != 0 {
        Some(lowest(at, high))
    } else {
        row[at + 1..].iter().position(|&word| word != 0).map(|found| lowest(at + 1 + found, row[at + 1 + found]))
    };
    [before.map(|before| x - before), after.map(|after| after - x)].into_iter().flatten().min()
}

/// Which sides have a fighting unit in each zone: `zones` rows of `sides` flags.
struct FightingSides {
    sides: usize,
    flags: Vec<bool>,
}

impl FightingSides {
    /// Files every fighting occupant of `index`'s zones by side.
    fn build(index: &ZoneIndex, zones: usize, units: &ViewCache) -> Self {
        let sides = units.walk().briefs.iter().map(|brief| brief.side + 1).max().unwrap_or(0);
        let mut flags = vec![false; zones * sides];
        for zone in 0..zones {
            for &other in index.occupants(zone as ZoneIdx) {
                if let Some(brief) = units.brief(other)
                    && brief.fighting()
                {
                    flags[zone * sides + brief.side] = true;
                }
            }
        }
        Self { sides, flags }
    }
}

impl<'w, 's> ViewCache<'w, 's> {
    /// The units of `units`, each viewed when first asked about; every unit's brief is read at
    /// once, in the query's order.
    pub fn new(units: &'w Query<'w, 's, UnitReadOnly>) -> Self {
        let walk = Walk::of(units);
        let mut scratch = ViewScratch::default();
        scratch.fit(walk.slots.len());
        let cache = Self::with_parts(units, None, Scratch::Own(scratch));
        let _ = cache.walk.set(walk);
        cache
    }

    /// The units of `units`, each viewed and briefed (through `parts`) when first asked about;
    /// the walk over every unit waits until the query's order is needed. `scratch` has room for
    /// every entity there is ([`ViewScratch::fit`] to [`bevy::ecs::entity::Entities::len`]) and
    /// no unit placed (as every cache leaves it).
    pub fn lazy(
        units: &'w Query<'w, 's, UnitReadOnly>,
        parts: &'w Query<'w, 's, BriefParts>,
        scratch: &'w ViewScratch,
    ) -> Self {
        Self::with_parts(units, Some(parts), Scratch::Kept(scratch))
    }

    fn with_parts(
        units: &'w Query<'w, 's, UnitReadOnly>,
        parts: Option<&'w Query<'w, 's, BriefParts>>,
        scratch: Scratch<'w>,
    ) -> Self {
        // No more units can be asked about than the query holds (counted table by table).
        let count = units.iter().len();
        Self {
            units,
            parts,
            scratch,
            known: std::cell::RefCell::new(Vec::new()),
            views: (0..count.div_ceil(VIEW_CHUNK)).map(|_| std::cell::OnceCell::new()).collect(),
            walk: std::cell::OnceCell::new(),
            targets: std::cell::OnceCell::new(),
            enemy_lists: std::cell::OnceCell::new(),
            fighting: std::cell::OnceCell::new(),
            sides_filed: std::cell::OnceCell::new(),
            filed_from: std::cell::RefCell::new(Vec::new()),
            rows_current: std::cell::Cell::new(false),
            last_floor: std::cell::Cell::new(None),
        }
    }

    /// No fewer steps than this lie between `zone` and the nearest unit of another side than
    /// `side` standing in `ctx`'s zone index, whatever its status ([`UNREACHABLE`] for none):
    /// every zone nearer holds no enemy of `side`, so a search for one may start there. Off a
    /// grid, 0.
    pub fn foe_distance_floor(&self, ctx: ActionContext, zone: ZoneIdx, side: usize) -> u32 {
        if let Some((asked, asked_side, floor)) = self.last_floor.get()
            && (asked, asked_side) == (zone, side)
        {
            return floor;
        }
        let floor = self.work_out_foe_distance_floor(ctx, zone, side);
        self.last_floor.set(Some((zone, side, floor)));
        floor
    }

    /// [`Self::foe_distance_floor`], worked out.
    fn work_out_foe_distance_floor(&self, ctx: ActionContext, zone: ZoneIdx, side: usize) -> u32 {
        let kept = &self.scratch.get().rows;
        if !self.rows_current.replace(true) {
            let rows = kept.borrow_mut().take();
            let rows = SideRows::brought_up_to_date(rows, ctx, self);
            *kept.borrow_mut() = rows;
        }
        let rows = kept.borrow();
        let Some(rows) = rows.as_ref() else {
            return 0;
        };
        let Some(square) = ctx.battlefield.square(zone) else {
            return 0;
        };
        match (usize::try_from(square.x), usize::try_from(square.y)) {
            (Ok(x), Ok(y)) if x < rows.width && y < rows.height => rows.nearest_other(side, x, y),
            _ => 0,
        }
    }

    /// Every unit in the query's order, walked on first need.
    fn walk(&self) -> &Walk<'w> {
        self.walk.get_or_init(|| Walk::of(self.units))
    }

    /// Whether a fighting unit of `side` stands in `zone` (by `ctx`'s zone index): a zone of few
    /// occupants is looked at directly, others in a table of every zone filed on first asking.
    pub fn has_fighting(&self, ctx: ActionContext, zone: ZoneIdx, side: SideIndex) -> bool {
        let occupants = ctx.index.occupants(zone);
        if occupants.len() <= SCANNED_DIRECTLY {
            return occupants.iter().any(|&other| {
                self.side_seen(other).is_none_or(|seen| seen == side.0)
                    && self.brief(other).is_some_and(|brief| brief.side == side.0 && brief.fighting())
            });
        }
        let table = self.fighting.get_or_init(|| FightingSides::build(ctx.index, ctx.battlefield.len(), self));
        side.0 < table.sides && table.flags.get(zone as usize * table.sides + side.0).copied().unwrap_or(false)
    }

    /// The targets of the moment these views were taken, looked up through `ctx`'s zone index.
    pub fn targets<'a>(&'a self, ctx: ActionContext<'a>) -> Targets<'a, 'w, 's> {
        Targets { ctx, units: self }
    }

    /// Whether `unit`, with its `brief`, is one the target index files: on the field, and in
    /// `ctx`'s zone index where it stands.
    fn filed(ctx: ActionContext, unit: Entity, brief: &Brief) -> bool {
        brief.on_field()
            && (brief.zone as usize) < ctx.battlefield.len()
            && ctx.index.occupants(brief.zone).contains(&unit)
    }

    /// One more than the highest side among the units the target index files (those on the
    /// field, in `ctx`'s zone index): the units on the field say at most how many, and the first
    /// filed one of the highest side ends the search.
    fn sides_filed(&self, ctx: ActionContext) -> usize {
        *self.sides_filed.get_or_init(|| {
            let walk = self.walk();
            let mut sides = 0;
            for (unit, brief) in walk.order.iter().zip(&walk.briefs) {
                if !Self::filed(ctx, *unit, brief) {
                    continue;
                }
                sides = sides.max(brief.side + 1);
                if sides == walk.sides_on_field {
                    break;
                }
            }
            sides
        })
    }

    /// Whether `side` is below [`Self::sides_filed`]: whether the target index files a unit of
    /// `side` or a higher one. Found without walking every unit where one such unit comes soon
    /// (any will do, so the query's order does not matter), and kept per side.
    fn files_side(&self, ctx: ActionContext, side: usize) -> bool {
        if let Some(&sides) = self.sides_filed.get() {
            return side < sides;
        }
        if let Some(Some(known)) = self.filed_from.borrow().get(side) {
            return *known;
        }
        let found = self.units.iter().any(|view| {
            let brief =
                Brief { side: view.side.0, zone: view.zone.0, status: *view.status, conditions: view.conditions };
            brief.side >= side && Self::filed(ctx, view.entity, &brief)
        });
        let mut known = self.filed_from.borrow_mut();
        if known.len() <= side {
            known.resize(side + 1, None);
        }
        known[side] = Some(found);
        found
    }

    /// The cached view of `unit`, borrowed.
    pub fn get(&self, unit: Entity) -> Option<&UnitView<'w, 's>> {
        let (at, _) = self.known(unit)?;
        let chunk = self
            .views
            .get(at / VIEW_CHUNK)?
            .get_or_init(|| (0..VIEW_CHUNK).map(|_| std::cell::OnceCell::new()).collect());
        let cell = chunk.get(at % VIEW_CHUNK)?;
        if let Some(view) = cell.get() {
            return Some(&**view);
        }
        let view = self.units.get(unit).ok()?;
        Some(&**cell.get_or_init(|| Box::new(view)))
    }

    /// `unit`'s place in the query's order.
    fn place(&self, unit: Entity) -> Option<u32> {
        self.walk().place(unit)
    }

    /// What was read of `unit` (from the walk once there is one, else from its few parts), and
    /// its place among the units asked about.
    fn known(&self, unit: Entity) -> Option<(usize, Brief<'w>)> {
        let scratch = self.scratch.get();
        let slot = scratch.slots.get(unit.index_u32() as usize)?;
        let at = slot.get();
        if at != NO_VIEW {
            // A place holds only a live unit: another entity of the same index is gone.
            let known = self.known.borrow();
            let (entity, brief) = known.get(at as usize)?;
            return (*entity == unit).then_some((at as usize, *brief));
        }
        let brief = match (self.parts, self.walk.get()) {
            (Some(parts), None) => {
                // A unit is what the whole view's query finds; the parts alone could be another
                // entity's.
                if !self.units.contains(unit) {
                    return None;
                }
                let (side, zone, status, conditions) = parts.get(unit).ok()?;
                Brief { side: side.0, zone: zone.0, status: *status, conditions }
            }
            _ => self.walk().brief(unit)?,
        };
        let mut known = self.known.borrow_mut();
        let at = known.len();
        known.push((unit, brief));
        slot.set(at as u32);
        if let Some(side) = scratch.sides.get(unit.index_u32() as usize) {
            side.set(Some((unit, brief.side)));
        }
        Some((at, brief))
    }

    /// `unit`'s side, if some pass has read it: without a look-up, an ally is passed over.
    fn side_seen(&self, unit: Entity) -> Option<usize> {
        let (seen, side) = self.scratch.get().sides.get(unit.index_u32() as usize)?.get()?;
        (seen == unit).then_some(side)
    }

    /// Whether some pass has read `unit`'s side and it is `side`: known without a look-up.
    pub fn seen_ally(&self, unit: Entity, side: SideIndex) -> bool {
        self.side_seen(unit) == Some(side.0)
    }

    /// What was read of `unit`.
    fn brief(&self, unit: Entity) -> Option<Brief<'w>> {
        self.known(unit).map(|(_, brief)| brief)
    }

    /// Each zone's enemies of each side, filed on first asking.
    fn enemy_lists(&self, ctx: ActionContext) -> &EnemyLists {
        self.enemy_lists.get_or_init(|| {
            // Filing reads every unit's brief: the walk reads them all at once.
            self.walk();
            EnemyLists::build(ctx, self)
        })
    }

    /// `unit`'s side and standing as the cache read them for every unit, without viewing it:
    /// the same side and status its view gives.
    pub fn side_and_status(&self, unit: Entity) -> Option<(usize, Status)> {
        self.brief(unit).map(|brief| (brief.side, brief.status))
    }

    /// Whether `unit` is fighting ([`unit::is_fighting`]) for another side than `side`, without
    /// viewing it: the side is told first, so an ally's conditions are never read.
    pub fn is_fighting_foe(&self, unit: Entity, side: SideIndex) -> bool {
        self.fighting_foe_at(unit, side).is_some()
    }

    /// Where `unit` stands, if it is fighting for another side than `side`
    /// ([`Self::is_fighting_foe`]): the zone its view gives, without viewing it.
    pub fn fighting_foe_at(&self, unit: Entity, side: SideIndex) -> Option<ZoneIdx> {
        if self.side_seen(unit) == Some(side.0) {
            return None;
        }
        self.brief(unit).filter(|brief| brief.side != side.0 && brief.fighting()).map(|brief| brief.zone)
    }

    /// Every unit's view, in the query's order.
    pub fn iter(&self) -> impl Iterator<Item = &UnitView<'w, 's>> {
        self.walk().order.iter().filter_map(|&unit| self.get(unit))
    }
}

impl Drop for ViewCache<'_, '_> {
    /// Leaves kept tables with no unit placed, for the next pass's cache.
    fn drop(&mut self) {
        let scratch = self.scratch.get();
        for (unit, _) in self.known.get_mut().iter() {
            if let Some(slot) = scratch.slots.get(unit.index_u32() as usize) {
                slot.set(NO_VIEW);
            }
        }
    }
}

impl UnitLookup for ViewCache<'_, '_> {
    fn with_view<R>(&self, unit: Entity, read: impl FnOnce(&UnitView) -> R) -> Option<R> {
        self.get(unit).map(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::equipment::DamageType;

    /// The odds by walking every face, to check the closed form against.
    fn counted(ruleset: &Ruleset, bonus: i32, critical_at: u32, defense: i32) -> (u32, u32) {
        let (mut hits, mut crits) = (0, 0);
        for natural in 1..=ruleset.attack.die.sides {
            let critical = natural >= critical_at;
            let total = natural as i32 + ruleset.attack.die.modifier + bonus;
            let hit = natural > ruleset.attack.fumble_natural
                && (total >= defense || (critical && ruleset.attack.critical_always_hits));
            if hit {
                hits += 1;
                crits += u32::from(critical);
            }
        }
        (hits, crits)
    }

    #[test]
    fn w_hit_1_closed_form_odds_match_every_face() {
        let mut ruleset = Ruleset::default();
        for always in [true, false] {
            ruleset.attack.critical_always_hits = always;
            for critical_at in [18, 19, 20, 21] {
                let weapon = Weapon {
                    damage: Dice::new(1, 8),
                    damage_type: DamageType::Slashing,
                    speed: 2,
                    critical_multiplier: 2,
                    critical_natural: Some(critical_at),
                    reach: 0,
                    range: None,
                    attack_bonus: 0,
                    shock: None,
                    ongoing: None,
                    hinders: None,
                    attributes: Vec::new(),
                    two_handed: false,
                    non_lethal: false,
                };
                for bonus in -5..=8 {
                    for defense in 0..=30 {
                        let odds = odds_against(&ruleset, bonus, &weapon, weapon.damage, defense, 0);
                        let (hits, crits) = counted(&ruleset, bonus, critical_at, defense);
                        assert_eq!(
                            (odds.hit * 20.0).round() as u32,
                            hits,
                            "hits: bonus {bonus} defense {defense} crit {critical_at} always {always}"
                        );
                        assert_eq!(
                            (odds.critical * 20.0).round() as u32,
                            crits,
                            "crits: bonus {bonus} defense {defense} crit {critical_at} always {always}"
                        );
                    }
                }
            }
        }
    }
}
