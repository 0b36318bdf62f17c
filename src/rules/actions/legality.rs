//! Legality checks: the actor, its move, its target and what the action needs, in a fixed order,
//! and the list of legal actions.

use bevy::prelude::*;

use super::reach::{Reach, TargetRule, charge_throw_item, is_ranged, reach, short_mover, target_rule};
use super::threats::is_threatened;
use super::{ActionContext, IllegalAction, UnitLookup, modifier, offered};
use crate::battlefield::{Battlefield, UNREACHABLE, ZoneIdx};
use crate::rules::components::*;
use crate::rules::ruleset::Ruleset;
use crate::rules::unit::{self, UnitView};

/// Checks a declaration and returns its Initiative modifier. The checks run in a fixed order
/// (the actor, its move, the target, what the action itself needs), so a refusal always names
/// the same first reason.
pub fn check(
    ctx: ActionContext,
    actor: &UnitView,
    action: &Action,
    units: &impl UnitLookup,
) -> Result<i32, IllegalAction> {
    crate::rules::bonus::check(ctx.ruleset, actor.round.conditions, action)?;
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
        && units.with_view(action.target.unwrap_or(Entity::PLACEHOLDER), |target| target.round.surprised) == Some(false)
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
    let side = |target: Entity| units.with_view(target, |other| *other.standing.side == *actor.standing.side);
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
    let Some(zone) = units.with_view(target, |other| other.standing.zone.0) else {
        return Err(IllegalAction::TargetGone);
    };
    if ctx.battlefield.distance(standing, zone) <= actor.arms.loadout.usable_weapon(actor.round.conditions).1.reach {
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
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).1;
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
    let target_zone = action.target.and_then(|target| units.with_view(target, |view| view.standing.zone.0));
    let pressed = match target_zone {
        Some(zone) => shooting_in_melee(ctx, standing, zone, *actor.standing.side, units),
        None => is_threatened(ctx, standing, *actor.standing.side, units),
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
    let at = action
        .target
        .and_then(|target| units.with_view(target, |view| view.standing.zone.0))
        .ok_or(IllegalAction::NoTarget)?;
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
    let victim = actor.round.conditions.grappling.ok_or(IllegalAction::NotGrappling)?;
    let at = units.with_view(victim, |view| view.standing.zone.0).ok_or(IllegalAction::TargetGone)?;
    if haul_destinations(ctx, actor.standing.zone.0, at, kind).contains(&zone) {
        Ok(())
    } else {
        Err(IllegalAction::BadHaul)
    }
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
        let steps = crate::rules::ruleset::HaulRules::steps_on(haul.drag_steps, field);
        field.drag_destinations(ctx.index, grappler, victim, steps).into_iter().map(|(to, _)| to).collect()
    } else {
        field.throw_destinations(
            ctx.index,
            grappler,
            victim,
            crate::rules::ruleset::HaulRules::steps_on(haul.throw_steps, field),
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
    rules: &crate::rules::ruleset::ManeuverRules,
    unit: &UnitView,
    check: ManeuverCheck,
    aggressor: bool,
) -> i32 {
    let attribute = unit::modifier(ruleset, unit.body.attributes, rules.attribute);
    match rules.check_skill {
        crate::rules::ruleset::ManeuverSkill::AttackSkill => {
            attribute + if aggressor { unit.body.skills.attack } else { 0 }
        }
        crate::rules::ruleset::ManeuverSkill::BrawlOrExert { npc_hit_dice } => {
            if let Some(npc) = unit.body.skills.npc_attack.filter(|_| npc_hit_dice) {
                return npc;
            }
            let skill = match check {
                ManeuverCheck::Hold => unit.body.skills.brawl,
                ManeuverCheck::Shove => unit.body.skills.brawl.max(unit.body.skills.exert),
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
                    .magic
                    .spells
                    .0
                    .get(at)
                    .is_some_and(|(_, spell)| spell.casting_time == crate::rules::equipment::CastingTime::Instant)
        }
        _ => true,
    }
}

/// A move after the action (`C-MOVE-1`): offered by the ruleset, after an action done in the
/// turn, to a zone with room, the two legs together no longer than the unit may move this
/// round, each measured as a single move is.
fn check_move_after(ctx: ActionContext, actor: &UnitView, action: &Action) -> Result<(), IllegalAction> {
    if action.move_to.is_some_and(|to| to != actor.standing.zone.0) && short_mover(ctx, actor, action) {
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
    if *actor.standing.status == Status::Dying {
        return Err(IllegalAction::DyingCannotMoveAndAct);
    }
    if actor.round.conditions.held_action {
        return Err(IllegalAction::MoveSpent);
    }
    if ctx.battlefield.distance(first, after) == UNREACHABLE {
        return Err(IllegalAction::TooFar);
    }
    let allowance =
        unit::action_allowance(ctx.ruleset, *actor.body.speed, *actor.standing.status, actor.round.conditions, action);
    let walked = move_cost(ctx.battlefield, actor, actor.standing.zone.0, first);
    if walked + move_cost(ctx.battlefield, actor, first, after) > allowance {
        return Err(IllegalAction::SplitTooFar);
    }
    // The unit's own place, if it comes back to it, is not taken by itself.
    let own = u32::from(after == actor.standing.zone.0);
    if let Some(capacity) = ctx.battlefield.capacity(after)
        && (ctx.index.count(after) as u32).saturating_sub(own) >= capacity
    {
        return Err(IllegalAction::ZoneFull);
    }
    Ok(())
}

/// Where `actor` stands once it has moved to `move_to`.
pub fn standing_after(actor: &UnitView, move_to: Option<ZoneIdx>) -> ZoneIdx {
    move_to.unwrap_or(actor.standing.zone.0)
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
    if !unit::may_act(*actor.standing.status, actor.round.conditions, actor.round.surprised, ctx.round) {
        return Err(IllegalAction::CannotAct);
    }
    // Only a turn-based order has a later turn to delay to (`A-INIT-1`).
    if !offered(ctx.ruleset, kind) || (kind == ActionKind::Delay && !ctx.ruleset.turns.order.on_turn()) {
        return Err(IllegalAction::NotOffered);
    }
    // Distracted: may move, nothing else (`Z-HIND-1`).
    if matches!(actor.round.conditions.hindrance, Some((crate::rules::equipment::Hindrance::Distracted, _)))
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
    if actor.round.conditions.snapped && !matches!(kind, ActionKind::Move | ActionKind::Hold) && !move_or_free {
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
        if !ctx.ruleset.turns.order.on_turn() || actor.round.conditions.held_action {
            return Err(IllegalAction::CannotHold);
        }
        if move_to.is_some() {
            return Err(IllegalAction::MoveSpent);
        }
    }
    let needs_the_move = kind == ActionKind::Charge || (move_to.is_some() && kind != ActionKind::Move);
    if actor.round.conditions.held_action && needs_the_move {
        return Err(IllegalAction::MoveSpent);
    }
    Ok(())
}

/// What walking from `here` to `to` costs `actor`: difficult ground costs double on a grid
/// (`S-GRID-1` terrain; the water, climbs and crawls that halve speed, `A-MOVE-1`), except for a
/// Maneuverer, who moves through it normally (`A-FEAT-1`); zones cost one each.
pub fn move_cost(battlefield: &Battlefield, actor: &UnitView, here: ZoneIdx, to: ZoneIdx) -> u32 {
    if battlefield.is_grid() && !actor.arms.loadout.maneuverer {
        battlefield.path_cost(here, to)
    } else {
        battlefield.distance(here, to)
    }
}

/// The move part of a declaration (`W-MOVE-1`): where to, how far, into what room.
fn check_move(ctx: ActionContext, actor: &UnitView, action: &Action) -> Result<(), IllegalAction> {
    let (kind, move_to) = (action.kind, action.move_to);
    let here = actor.standing.zone.0;
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
    let allowance =
        unit::action_allowance(ctx.ruleset, *actor.body.speed, *actor.standing.status, actor.round.conditions, action);
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
    if *actor.standing.status == Status::Dying && !matches!(kind, ActionKind::Move | ActionKind::Hold) {
        return Err(IllegalAction::DyingCannotMoveAndAct);
    }
    // A charge runs straight: on a grid its path is as short as the line (`S-SPEC-1`).
    if kind == ActionKind::Charge
        && (ctx.battlefield.line_distance(here, to) != distance
            || actor.arms.loadout.usable_weapon(actor.round.conditions).1.is_ranged())
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
    if !other.standing.status.on_field() {
        return Err(IllegalAction::TargetGone);
    }
    if reach.ranged && ctx.battlefield.sight(standing, other.standing.zone.0).is_none() {
        return Err(IllegalAction::OutOfSight);
    }
    let wants_enemy = match reach.rule {
        TargetRule::Enemy { .. } => true,
        TargetRule::Ally { .. } => false,
        TargetRule::FallenAlly => {
            if !other.standing.status.is_down() || other.round.conditions.stabilised || other.entity == actor.entity {
                return Err(IllegalAction::NotDown);
            }
            false
        }
        TargetRule::None => return Err(IllegalAction::UnexpectedTarget),
    };
    if (other.standing.side != actor.standing.side) != wants_enemy {
        return Err(IllegalAction::WrongSide);
    }
    if kind == ActionKind::Intimidate && !other.body.checks_morale {
        return Err(IllegalAction::Fearless);
    }
    if kind == ActionKind::Screen && other.entity == actor.entity {
        return Err(IllegalAction::ScreenSelf);
    }
    if !reach.reaches(ctx.battlefield, standing, other.standing.zone.0) {
        return Err(IllegalAction::OutOfReach);
    }
    Ok(())
}

/// What the action itself needs of the actor, whatever the target: a prone body to stand up,
/// Mana and Stress to pay for a spell.
pub fn check_needs(actor: &UnitView, kind: ActionKind) -> Result<(), IllegalAction> {
    let conditions = actor.round.conditions;
    let refused = |needed: bool, why: IllegalAction| if needed { Ok(()) } else { Err(why) };
    match kind {
        ActionKind::StandUp => refused(conditions.prone, IllegalAction::NotProne),
        ActionKind::GoProne => refused(!conditions.prone, IllegalAction::AlreadyProne),
        ActionKind::BreakFree => refused(!conditions.grappled_by.is_empty(), IllegalAction::NotHeld),
        ActionKind::LetGo | ActionKind::Hurl => refused(conditions.grappling.is_some(), IllegalAction::NotGrappling),
        ActionKind::Drag => {
            refused(conditions.grappling.is_some(), IllegalAction::NotGrappling)?;
            // A grappler someone else holds cannot move from its place (`S-MAN-1`).
            refused(conditions.grappled_by.is_empty(), IllegalAction::HeldInPlace)
        }
        ActionKind::ShakeOff => {
            refused(conditions.hindrance_needing_action().is_some(), IllegalAction::NothingToShakeOff)
        }
        ActionKind::Cast(at) => {
            let (_, spell) = &actor.magic.spells.0[at];
            refused(actor.magic.mana.current + actor.body.stress.current >= spell.mana, IllegalAction::CannotPay)
        }
        // Their needs (a weapon in reach, a target, room) are the target and reach checks'.
        ActionKind::Attack
        | ActionKind::DefensiveAttack
        | ActionKind::FullDefense
        | ActionKind::UseItem(_)
        | ActionKind::Throw(_)
        | ActionKind::Move
        | ActionKind::Hold
        | ActionKind::Stabilize
        | ActionKind::Intimidate
        | ActionKind::Disengage
        | ActionKind::Charge
        | ActionKind::Swarm
        | ActionKind::Aimed(_)
        | ActionKind::Shove
        | ActionKind::Grapple
        | ActionKind::Execute
        | ActionKind::Screen
        | ActionKind::KnockDown
        | ActionKind::HoldAction
        | ActionKind::Delay => Ok(()),
    }
}

/// Every legal action of `actor` now: each kind, each reachable zone, each target in reach, in
/// the order [`crate::rules::legal::LegalActions`] gives them.
pub fn legal_actions(ctx: ActionContext, actor: &UnitView, units: &impl UnitLookup) -> Vec<Action> {
    let targets = crate::rules::legal::TargetIndex::build(ctx, units);
    crate::rules::legal::LegalActions::of(ctx, actor, &targets).iter().collect()
}
