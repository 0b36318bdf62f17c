//! Every legal action of a unit without checking every unit on the field: a per-pass index of
//! who may be targeted in each zone, by side and by what the action asks of its target, and the
//! legal actions as groups (one kind, one destination) whose targets are slices of that index,
//! so they can be counted and picked by position without being listed.

use bevy::prelude::*;

use super::actions::{self, ActionContext, TargetRule, UnitLookup, offered};
use strum::IntoEnumIterator;

use super::components::{Action, ActionKind, AimPoint, HeldPlan};
use super::ruleset::Offer;
use super::unit::{self, UnitView};
use crate::battlefield::ZoneIdx;

/// What an action asks of its target beyond the side, as the index files units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wanted {
    /// Any enemy on the field.
    Enemy,
    /// An enemy that checks morale (intimidation).
    FearfulEnemy,
    /// An enemy caught by surprise (execution attacks).
    SurprisedEnemy,
    /// Any ally on the field, oneself included.
    Ally,
    /// A fallen ally not yet stabilised (never oneself).
    FallenAlly,
}

/// How many [`Wanted`] lists each zone keeps per side.
const WANTED_KINDS: usize = 5;

impl Wanted {
    fn slot(self) -> usize {
        self as usize
    }

    /// What an action of `kind` with target rule `rule` wants; `None` when it takes no target.
    fn of(kind: ActionKind, rule: TargetRule) -> Option<Self> {
        match rule {
            TargetRule::None => None,
            TargetRule::Enemy { .. } => Some(match kind {
                ActionKind::Intimidate => Self::FearfulEnemy,
                ActionKind::Execute => Self::SurprisedEnemy,
                _ => Self::Enemy,
            }),
            TargetRule::Ally { .. } => Some(Self::Ally),
            TargetRule::FallenAlly => Some(Self::FallenAlly),
        }
    }
}

/// Who may be targeted in each zone, for each side and each [`Wanted`], in the zone index's
/// order. Built once for a declaration pass, when nobody moves or falls. Only zones with someone
/// in them have lists: the lists of zone `z` start at `starts[zone_base[z]]`, one after another
/// (side by side, [`Wanted`] by [`Wanted`]), all in the one array `units`, so a 64×64 field
/// costs no more to index than the units on it.
pub struct TargetIndex {
    sides: usize,
    zone_base: Vec<u32>,
    starts: Vec<u32>,
    units: Vec<Entity>,
    /// Fighting units with a melee weapon: zone, side, reach (`S-ATK-2`'s "in melee").
    melee_threats: Vec<(ZoneIdx, usize, u32)>,
}

/// `zone_base` of a zone nobody stands in.
const NO_LISTS: u32 = u32::MAX;

/// Every [`Wanted`], in slot order.
const ALL_WANTED: [Wanted; WANTED_KINDS] =
    [Wanted::Enemy, Wanted::FearfulEnemy, Wanted::SurprisedEnemy, Wanted::Ally, Wanted::FallenAlly];

/// What the index keeps of a unit on the field: its zone, side, and what it may be targeted by.
struct Filed {
    zone: ZoneIdx,
    unit: Entity,
    side: usize,
    fearful: bool,
    surprised: bool,
    fallen: bool,
}

impl Filed {
    /// Whether side `viewer` finds this unit among the targets it `wanted`.
    fn belongs(&self, viewer: usize, wanted: Wanted) -> bool {
        let ally = viewer == self.side;
        match wanted {
            Wanted::Ally => ally,
            Wanted::FallenAlly => ally && self.fallen,
            Wanted::Enemy => !ally,
            Wanted::FearfulEnemy => !ally && self.fearful,
            Wanted::SurprisedEnemy => !ally && self.surprised,
        }
    }
}

impl TargetIndex {
    /// Files every unit on the field of `ctx`'s zone index.
    pub fn build(ctx: ActionContext, units: &impl UnitLookup) -> Self {
        let zones = ctx.battlefield.len();
        let mut filed = Vec::new();
        let mut melee_threats = Vec::new();
        for zone in 0..zones as ZoneIdx {
            for &unit in ctx.index.occupants(zone) {
                melee_threats.extend(units.with_view(unit, |view| melee_threat(zone, view)).flatten());
                let facts = units.with_view(unit, |view| {
                    debug_assert_eq!(view.standing.zone.0, zone, "the zone index agrees with the unit");
                    view.standing.status.on_field().then(|| Filed {
                        zone,
                        unit,
                        side: view.standing.side.0,
                        fearful: view.body.checks_morale,
                        surprised: view.round.surprised,
                        fallen: view.standing.status.is_down() && !view.round.conditions.stabilised,
                    })
                });
                filed.extend(facts.flatten());
            }
        }
        let sides = filed.iter().map(|unit| unit.side + 1).max().unwrap_or(0);
        let mut index =
            Self { sides, zone_base: vec![NO_LISTS; zones], starts: Vec::new(), units: Vec::new(), melee_threats };
        // `filed` runs zone by zone: each zone's units are one stretch of it.
        for here in filed.chunk_by(|a, b| a.zone == b.zone) {
            index.zone_base[here[0].zone as usize] = index.starts.len() as u32;
            for viewer in 0..sides {
                for wanted in ALL_WANTED {
                    index.starts.push(index.units.len() as u32);
                    index.units.extend(here.iter().filter(|unit| unit.belongs(viewer, wanted)).map(|unit| unit.unit));
                }
            }
            index.starts.push(index.units.len() as u32);
        }
        index
    }

    fn list(&self, zone: ZoneIdx, side: usize, wanted: Wanted) -> &[Entity] {
        let base = self.zone_base.get(zone as usize).copied().unwrap_or(NO_LISTS);
        if side >= self.sides || base == NO_LISTS {
            return &[];
        }
        let at = base as usize + side * WANTED_KINDS + wanted.slot();
        &self.units[self.starts[at] as usize..self.starts[at + 1] as usize]
    }

    /// Whether an enemy of `side` has `zone` in its melee reach: the same answer as
    /// [`actions::threateners_of`] being non-empty.
    pub fn threatened(&self, ctx: ActionContext, zone: ZoneIdx, side: usize) -> bool {
        self.melee_threats.iter().any(|&(here, by, reach)| by != side && ctx.battlefield.distance(here, zone) <= reach)
    }

    /// Enemies of `side` on the field in `zone`, in the zone index's order.
    pub fn enemies(&self, zone: ZoneIdx, side: usize) -> &[Entity] {
        self.list(zone, side, Wanted::Enemy)
    }
}

/// One kind of action with one destination: whether it is legal without a target, and which
/// slices of the index hold its legal targets.
struct Group {
    kind: ActionKind,
    move_to: Option<ZoneIdx>,
    untargeted: bool,
    /// Range into [`LegalActions::segments`].
    segments: std::ops::Range<usize>,
    /// Units in the segments that are not legal targets after all (the actor, for stabilising).
    skip: Option<Entity>,
}

/// Every legal action of one unit, grouped; the same actions, in the same order, that checking
/// each kind, destination and target with [`actions::check`] would find.
pub struct LegalActions<'t> {
    groups: Vec<Group>,
    segments: Vec<&'t [Entity]>,
    len: usize,
}

/// A unit's melee threat as [`actions::threateners_of`] counts it: fighting, a melee weapon in hand.
fn melee_threat(zone: ZoneIdx, view: &UnitView) -> Option<(ZoneIdx, usize, u32)> {
    let weapon = view.arms.loadout.usable_weapon(view.round.conditions).1;
    (unit::is_fighting(*view.standing.status, view.round.conditions) && !weapon.is_ranged()).then_some((
        zone,
        view.standing.side.0,
        weapon.reach,
    ))
}

/// Every kind of action a unit might declare, in the order legal actions are listed.
fn kinds_of(ctx: ActionContext, actor: &UnitView) -> Vec<ActionKind> {
    let mut offers: Vec<Offer> = Offer::iter().collect();
    offers.sort_by_key(|&offer| listing_place(offer));
    let mut kinds = Vec::new();
    for offer in offers {
        match offer {
            Offer::Aimed => kinds.extend(AimPoint::ALL.map(ActionKind::Aimed)),
            Offer::Cast => kinds.extend((0..actor.magic.spells.0.len()).map(ActionKind::Cast)),
            // Items come in the inventory's order, thrown or used.
            Offer::UseItem => {
                kinds.extend(
                    actor.arms.inventory.0.iter().enumerate().map(|(at, stack)| {
                        if stack.item.thrown { ActionKind::Throw(at) } else { ActionKind::UseItem(at) }
                    }),
                )
            }
            // Thrown items came with the used ones; a charge is declared with its destination.
            Offer::Throw | Offer::Charge => {}
            plain => kinds.push(plain.sample()),
        }
    }
    kinds.retain(|&kind| offered(ctx.ruleset, kind));
    kinds
}

/// Where the actions of `offer` stand in the list of choices: the order the AI weighs them in,
/// so a new kind takes the next place rather than moving the others.
fn listing_place(offer: Offer) -> u8 {
    match offer {
        Offer::Attack => 0,
        Offer::DefensiveAttack => 1,
        Offer::FullDefense => 2,
        Offer::Move => 3,
        Offer::Hold => 4,
        Offer::Stabilize => 5,
        Offer::Intimidate => 6,
        Offer::Disengage => 7,
        Offer::Swarm => 8,
        Offer::Shove => 9,
        Offer::Grapple => 10,
        Offer::StandUp => 11,
        Offer::Execute => 12,
        Offer::Screen => 13,
        Offer::GoProne => 14,
        Offer::BreakFree => 15,
        Offer::KnockDown => 16,
        Offer::HoldAction => 17,
        Offer::LetGo => 18,
        Offer::Delay => 19,
        Offer::Drag => 20,
        Offer::Hurl => 21,
        Offer::Aimed => 22,
        Offer::Cast => 23,
        Offer::UseItem | Offer::Throw => 24,
        Offer::Charge => 25,
        Offer::ShakeOff => 26,
    }
}

/// Where `actor` may declare from: staying, then every zone a move or a charge could reach.
fn destinations(ctx: ActionContext, actor: &UnitView) -> Vec<Option<ZoneIdx>> {
    let here = actor.standing.zone.0;
    let allowance = [ActionKind::Move, ActionKind::Charge]
        .into_iter()
        .map(|kind| {
            unit::action_allowance(
                ctx.ruleset,
                *actor.body.speed,
                *actor.standing.status,
                actor.round.conditions,
                &Action::simple(kind),
            )
        })
        .max()
        .unwrap_or(0);
    std::iter::once(None)
        .chain(ctx.battlefield.within(here, allowance).filter(|&zone| zone != here).map(Some))
        .collect()
}

/// How many units of `list` are targets: all but `skip`, if it is there (only stabilising skips
/// anyone, and its lists are short).
fn targets_in(list: &[Entity], skip: Option<Entity>) -> usize {
    match skip {
        Some(unit) if list.contains(&unit) => list.len() - 1,
        _ => list.len(),
    }
}

impl<'t> LegalActions<'t> {
    /// The legal actions of `actor`, their targets taken from `targets`.
    pub fn of(ctx: ActionContext, actor: &UnitView, targets: &'t TargetIndex) -> Self {
        let mut legal = Self { groups: Vec::new(), segments: Vec::new(), len: 0 };
        if !unit::may_act(*actor.standing.status, actor.round.conditions, actor.round.surprised, ctx.round) {
            return legal;
        }
        let kinds = kinds_of(ctx, actor);
        let max_range = kinds
            .iter()
            .filter_map(|&kind| match actions::target_rule(actor, kind).ok()? {
                TargetRule::Enemy { range, .. } | TargetRule::Ally { range } => Some(range),
                TargetRule::FallenAlly => Some(ctx.battlefield.melee_reach(0)),
                TargetRule::None => None,
            })
            .max()
            .unwrap_or(0);
        let charge = offered(ctx.ruleset, ActionKind::Charge).then_some(ActionKind::Charge);
        let mut zones: Vec<ZoneIdx> = Vec::new();
        for move_to in destinations(ctx, actor) {
            let standing = actions::standing_after(actor, move_to);
            zones.clear();
            zones.extend(ctx.battlefield.within(standing, max_range));
            for &kind in kinds.iter().chain(charge.as_ref()) {
                legal.add_group(ctx, actor, targets, kind, move_to, &zones);
            }
        }
        legal
    }

    /// Adds the legal actions of `kind` to `move_to`, their targets in `zones` (nearest first).
    fn add_group(
        &mut self,
        ctx: ActionContext,
        actor: &UnitView,
        targets: &'t TargetIndex,
        kind: ActionKind,
        move_to: Option<ZoneIdx>,
        zones: &[ZoneIdx],
    ) {
        let Ok(reach) = actions::check_untargeted(ctx, actor, kind, move_to) else {
            return;
        };
        if actions::check_needs(actor, kind).is_err() {
            return;
        }
        let standing = actions::standing_after(actor, move_to);
        // A bow or crossbow is never fired in melee (`S-ATK-2`), as `actions::check` refuses it.
        let bow = actions::fires_forbidden_bow(ctx.ruleset, actor, kind);
        if bow && targets.threatened(ctx, standing, actor.standing.side.0) {
            return;
        }
        let untargeted = matches!(reach.rule, TargetRule::None | TargetRule::Enemy { optional: true, .. });
        let first = self.segments.len();
        let mut skip = None;
        if let Some(wanted) = Wanted::of(kind, reach.rule) {
            skip = (wanted == Wanted::FallenAlly || kind == ActionKind::Screen).then_some(actor.entity);
            for &zone in zones {
                let adjacent = ctx.battlefield.distance(standing, zone) <= ctx.battlefield.melee_reach(0);
                if reach.reaches(ctx.battlefield, standing, zone) && !(bow && adjacent) {
                    let list = targets.list(zone, actor.standing.side.0, wanted);
                    if !list.is_empty() {
                        self.segments.push(list);
                    }
                }
            }
        }
        let segments = first..self.segments.len();
        let count = usize::from(untargeted)
            + self.segments[segments.clone()].iter().map(|list| targets_in(list, skip)).sum::<usize>();
        if count > 0 {
            self.len += count;
            self.groups.push(Group { kind, move_to, untargeted, segments, skip });
        }
    }

    /// How many legal actions there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The legal action at position `at` of the list, found without listing the others.
    pub fn get(&self, mut at: usize) -> Option<Action> {
        for group in &self.groups {
            if group.untargeted {
                if at == 0 {
                    return Some(Action::new(group.kind, None, group.move_to));
                }
                at -= 1;
            }
            for list in &self.segments[group.segments.clone()] {
                let size = targets_in(list, group.skip);
                if at < size {
                    let target = list.iter().copied().filter(|&unit| Some(unit) != group.skip).nth(at)?;
                    return Some(Action::new(group.kind, Some(target), group.move_to));
                }
                at -= size;
            }
        }
        None
    }

    /// Every legal action, in order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.groups.iter().flat_map(move |group| {
            let untargeted = group.untargeted.then_some(Action::new(group.kind, None, group.move_to));
            let targeted = self.segments[group.segments.clone()]
                .iter()
                .flat_map(|list| list.iter().copied())
                .filter(move |&unit| Some(unit) != group.skip)
                .map(move |target| Action::new(group.kind, Some(target), group.move_to));
            untargeted.into_iter().chain(targeted)
        })
    }
}

/// What a hold against `foe` may name as its plan (`S-ACT-2`), for a player to choose from:
/// every action of `legal` (the unit's legal actions now) that needs no move, but the plain
/// strike at the foe, which a hold naming nothing makes; each hostile kind aimed at the foe
/// even where the foe is out of reach now (it may come closer); and a step away, to the place
/// within the held move's reach farthest from the foe. The rules check each again when it is
/// taken.
pub fn held_plans(ctx: ActionContext, actor: &UnitView, foe: (Entity, ZoneIdx), legal: &[Action]) -> Vec<HeldPlan> {
    let (foe, foe_zone) = foe;
    let mut plans: Vec<HeldPlan> = Vec::new();
    let mut add = |plan: HeldPlan| {
        if !plans.contains(&plan) {
            plans.push(plan);
        }
    };
    let strike = HeldPlan::strike(foe);
    for action in legal.iter().filter(|action| action.move_to.is_none() && HeldPlan::may_hold(action.kind)) {
        let plan = HeldPlan { kind: action.kind, target: action.target, move_to: None };
        if plan != strike {
            add(plan);
        }
    }
    for kind in kinds_of(ctx, actor) {
        let hostile = matches!(actions::target_rule(actor, kind), Ok(TargetRule::Enemy { optional: false, .. }));
        if hostile
            && HeldPlan::may_hold(kind)
            && kind != ActionKind::Attack
            && actions::check_needs(actor, kind).is_ok()
        {
            add(HeldPlan { kind, target: Some(foe), move_to: None });
        }
    }
    let mut held = actor.round.conditions.clone();
    held.held_action = true;
    let reach = unit::action_allowance(
        ctx.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        &held,
        &Action::simple(ActionKind::Move),
    );
    let here = actor.standing.zone.0;
    let away = ctx
        .battlefield
        .within(here, reach)
        .filter(|&zone| ctx.battlefield.zone(zone).capacity.is_none_or(|room| (ctx.index.count(zone) as u32) < room))
        .filter(|&zone| actions::move_cost(ctx.battlefield, actor, here, zone) <= reach)
        .map(|zone| (ctx.battlefield.distance(zone, foe_zone), std::cmp::Reverse(zone)))
        .max()
        .filter(|&(distance, _)| distance > ctx.battlefield.distance(here, foe_zone));
    if offered(ctx.ruleset, ActionKind::Move)
        && let Some((_, std::cmp::Reverse(zone))) = away
    {
        add(HeldPlan { kind: ActionKind::Move, target: None, move_to: Some(zone) });
    }
    plans
}
