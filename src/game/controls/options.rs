//! Option building: the legal declarations the rules offer the unit declaring, worked out each
//! frame.

use super::*;
use crate::game::model::battle_read::BattleRead;

/// What the options system reads: the battle, read-only.
pub type OptionsView<'w, 's> = BattleRead<'w, 's>;

/// The human unit that declares now: the next in turn, or in secret declaration the first
/// undeclared unit of the seated side (then of any human side).
pub fn current_declarer(
    queue: &DeclarationQueue,
    units: &Query<UnitReadOnly>,
    seated: Option<usize>,
    own: &crate::game::online::OwnUnits,
) -> Option<Entity> {
    if !queue.open {
        return None;
    }
    let human = |unit: &Entity| {
        units.get(*unit).is_ok_and(|view| {
            *view.standing.controller == Controller::Human && own.takes_orders(*unit, view.standing.side.0)
        })
    };
    if !queue.secret {
        return queue.awaiting().next().filter(human);
    }
    let side_of = |unit: &Entity| units.get(*unit).map(|view| view.standing.side.0).ok();
    let waiting: Vec<Entity> = queue.awaiting().filter(human).collect();
    waiting.iter().copied().find(|unit| side_of(unit) == seated).or_else(|| waiting.first().copied())
}

pub(super) fn compute_options(
    view: OptionsView,
    own: crate::game::online::OwnUnits,
    ui: Res<BattleUi>,
    mut options: ResMut<DeclarationOptions>,
) {
    let declarer = if view.state.phase == CombatPhase::Declare {
        current_declarer(&view.queue, &view.units, ui.seated, &own)
    } else {
        None
    };
    let Some(unit) = declarer else {
        if options.unit.is_some() {
            *options = DeclarationOptions::default();
        }
        return;
    };
    let Ok(actor) = view.units.get(unit) else {
        return;
    };
    let ctx = view.ctx();
    let cache = ViewCache::new(&view.units);
    let threats = ThreatMap::build(view.battlefield.len(), cache.iter());
    let base = actor.round.initiative.base.unwrap_or(0);
    let mut kinds: Vec<(String, Vec<OptionEntry>)> = Vec::new();
    let legal = actions::legal_actions(ctx, &actor, &cache);
    let choices = legal.iter().flat_map(|&action| with_push_choices(&view, &actor, action));
    let choices: Vec<Action> =
        choices.flat_map(|action| with_held_choices(ctx, &view, &actor, &legal, action)).collect();
    for action in choices {
        let Ok(modifier) = actions::check(ctx, &actor, &action, &cache) else {
            continue;
        };
        let kind_label = kind_label(&actor, action.kind);
        let target = action.target.and_then(|target| view.units.get(target).ok());
        let standing = action.move_to.unwrap_or(actor.standing.zone.0);
        let cover = match &target {
            Some(target) if view.battlefield.is_grid() && actions::is_ranged(&actor, action.kind) => {
                view.battlefield.sight(standing, target.standing.zone.0)
            }
            _ => None,
        };
        // The odds count the cover the shot is taken through (`S-COVER-1`).
        let through = cover.unwrap_or(Cover::None);
        let odds = match (action.kind, &target) {
            (
                ActionKind::Attack | ActionKind::DefensiveAttack | ActionKind::Charge | ActionKind::Aimed(_),
                Some(target),
            ) => Some(actions::attack_odds_in_cover(&view.ruleset, &actor, target, through)),
            (ActionKind::Throw(at), Some(target)) => forecast::throw_odds(&view.ruleset, &actor, target, (at, through)),
            _ => None,
        };
        let forecast = target.as_ref().and_then(|target| forecast::forecast(&view.ruleset, &actor, target, &action));
        let mut label = match &target {
            Some(target) => format!("{} ({})", target.standing.name.as_str(), target.standing.id.0),
            None => match action.kind {
                ActionKind::DefensiveAttack => "no attack".to_string(),
                _ => String::new(),
            },
        };
        if let Some(zone) = action.move_to {
            let zone = &view.battlefield.zone(zone).name;
            let verb = if action.kind == ActionKind::Charge { "charging" } else { "moving" };
            label = if label.is_empty() { format!("to {zone}") } else { format!("{label}, {verb} to {zone}") };
        }
        if let Some(zone) = action.push_to {
            let verb = match action.kind {
                ActionKind::Drag => "dragging it to",
                ActionKind::Hurl => "hurling it into",
                _ => "pushing into",
            };
            let zone = &view.battlefield.zone(zone).name;
            label = if label.is_empty() { format!("{verb} {zone}") } else { format!("{label}, {verb} {zone}") };
        }
        if action.kind == ActionKind::HoldAction && action.target.is_some() {
            label = format!("{label}, then: {}", held_plan_label(&view, &actor, action.held));
        }
        if label.is_empty() {
            label = "in place".into();
        }
        let repostes = actions::repostes_on_path(ctx, &threats, &actor, &action).len();
        let entry =
            OptionEntry { action, modifier, initiative: base + modifier, label, odds, forecast, repostes, cover };
        match kinds.iter_mut().find(|(label, _)| *label == kind_label) {
            Some((_, entries)) => entries.push(entry),
            None => kinds.push((kind_label, vec![entry])),
        }
    }
    // Offer kinds in a fixed order players learn, whatever order the rules listed them in.
    kinds.sort_by_key(|(_, entries)| entries.first().map_or(usize::MAX, |entry| kind_rank(entry.action.kind)));
    let drafted = kinds.get(ui.draft.kind.unwrap_or(usize::MAX)).and_then(|(_, entries)| entries.get(ui.draft.option?));
    let after = drafted.map_or_else(Vec::new, |entry| moves_after(ctx, &actor, &cache, entry.action));
    *options = DeclarationOptions { unit: Some(unit), side: Some(actor.standing.side.0), kinds, after };
}

/// Where `action`'s unit may move once it has acted, each checked by the rules (`C-MOVE-1`);
/// none unless the ruleset splits movement.
fn moves_after(
    ctx: ActionContext,
    actor: &crate::rules::unit::UnitView,
    units: &ViewCache,
    action: Action,
) -> Vec<ZoneIdx> {
    if !ctx.ruleset.movement.split_move || !actions::may_move_after(ctx.ruleset, actor, action.kind) {
        return Vec::new();
    }
    let standing = actions::standing_after(actor, action.move_to);
    let allowance = crate::rules::unit::action_allowance(
        ctx.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        actor.round.conditions,
        &action,
    );
    ctx.battlefield
        .within(standing, allowance)
        .filter(|&zone| {
            let split = Action { move_after: Some(zone), ..action };
            actions::check(ctx, actor, &split, units).is_ok()
        })
        .collect()
}

/// A shove offered once per zone it may push its target into, so the player picks the zone
/// (`Z-STUNT-1`), and a drag or hurl once per place it may take the held foe (`S-MAN-1`); any
/// other action, or one with nowhere to go, as it is.
fn with_push_choices(view: &OptionsView, actor: &crate::rules::unit::UnitView, action: Action) -> Vec<Action> {
    if matches!(action.kind, ActionKind::Drag | ActionKind::Hurl) {
        let victim = actor
            .round
            .conditions
            .grappling
            .and_then(|victim| view.units.get(victim).ok())
            .map(|view| view.standing.zone.0);
        let ctx = view.ctx();
        let choices: Vec<Action> = victim
            .map(|at| actions::haul_destinations(ctx, actor.standing.zone.0, at, action.kind))
            .unwrap_or_default()
            .into_iter()
            .map(|zone| Action { push_to: Some(zone), ..action })
            .collect();
        return if choices.is_empty() { vec![action] } else { choices };
    }
    let target_zone = action.target.and_then(|target| view.units.get(target).ok()).map(|target| target.standing.zone.0);
    let (ActionKind::Shove, Some(at)) = (action.kind, target_zone) else {
        return vec![action];
    };
    let from = actions::standing_after(actor, action.move_to);
    let choices: Vec<Action> = view
        .battlefield
        .push_destinations(&view.index, from, at)
        .map(|zone| Action { push_to: Some(zone), ..action })
        .collect();
    if choices.is_empty() { vec![action] } else { choices }
}

/// A hold against a foe offered once per plan it may name (`S-ACT-2`): striking the foe (the
/// hold as the rules list it), then each plan [`legal::held_plans`] finds, so the player chooses
/// what the held action does when the foe comes; any other action as it is.
fn with_held_choices(
    ctx: ActionContext,
    view: &OptionsView,
    actor: &crate::rules::unit::UnitView,
    legal: &[Action],
    action: Action,
) -> Vec<Action> {
    let foe = action
        .target
        .and_then(|target| view.units.get(target).ok())
        .map(|target| (target.entity, target.standing.zone.0));
    let (ActionKind::HoldAction, Some(foe)) = (action.kind, foe) else {
        return vec![action];
    };
    let plans = legal::held_plans(ctx, actor, foe, legal);
    std::iter::once(action).chain(plans.into_iter().map(|plan| Action { held: Some(plan), ..action })).collect()
}

/// What a held action will do, in words (`strike`, `cast heal on Ana (a1)`, `move to (3, 1)`).
fn held_plan_label(view: &OptionsView, actor: &crate::rules::unit::UnitView, plan: Option<HeldPlan>) -> String {
    let Some(plan) = plan else {
        return "strike".into();
    };
    let mut text = kind_label(actor, plan.kind).to_lowercase();
    if let Some(target) = plan.target.and_then(|target| view.units.get(target).ok()) {
        text = format!("{text} on {} ({})", target.standing.name.as_str(), target.standing.id.0);
    }
    if let Some(zone) = plan.move_to {
        text = format!("{text} to {}", view.battlefield.zone(zone).name);
    }
    text
}

/// The option a click on `zone` picks: of the drafted kind, the one moving there (keeping the
/// drafted target if it can); failing that, a plain move there. Returns (kind, option).
pub fn option_for_zone(options: &DeclarationOptions, draft: &Draft, zone: ZoneIdx) -> Option<(usize, usize)> {
    let target = options.drafted(draft).and_then(|entry| entry.action.target);
    let in_kind = |kind: usize| {
        let entries = &options.kinds.get(kind)?.1;
        let moving = |entry: &&OptionEntry| entry.action.move_to == Some(zone);
        entries
            .iter()
            .position(|entry| moving(&entry) && target.is_some() && entry.action.target == target)
            .or_else(|| entries.iter().position(|entry| moving(&entry) && entry.action.target.is_none()))
            .or_else(|| entries.iter().position(|entry| moving(&entry)))
            .map(|option| (kind, option))
    };
    let plain_move = options
        .kinds
        .iter()
        .position(|(_, entries)| entries.first().is_some_and(|entry| entry.action.kind == ActionKind::Move));
    draft.kind.and_then(in_kind).or_else(|| plain_move.and_then(in_kind))
}
