//! Mass battles: the shipped siege loads and plays, and the legal actions found through the
//! per-pass target index are exactly those that checking every kind, destination and nearby unit
//! with `actions::check` finds, in the same order (the random AI's picks depend on that order).
//! The other per-pass tables (threats, fighting sides, the view cache) agree with asking every
//! unit.

use std::path::Path;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, ZoneIdx, ZoneIndex};
use fray::headless::HeadlessBattle;
use fray::levels::mass::{MASS_BATTLE_UNITS, grid_field_text, load_generated, melee_zones_text};
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, BattleTemplate, load_level};
use fray::rules::CombatState;
use fray::rules::actions::{self, ActionContext, BriefParts, TargetRule, ThreatMap, ViewCache, ViewScratch};
use fray::rules::components::*;
use fray::rules::legal::{LegalActions, TargetIndex};
use fray::rules::ruleset::Ruleset;
use fray::rules::unit::{self, ThreatAudit, UnitReadOnly, UnitView};

/// The legal actions as `actions::legal_actions` listed them before the target index: every
/// kind, every destination, and every unit in the zones within the longest range, each checked.
fn listed_by_checking(ctx: ActionContext, actor: &UnitView, units: &ViewCache) -> Vec<Action> {
    let mut found = Vec::new();
    if !unit::may_act(*actor.standing.status, actor.round.conditions, actor.round.surprised, ctx.round) {
        return found;
    }
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
    let destinations: Vec<Option<ZoneIdx>> = std::iter::once(None)
        .chain(ctx.battlefield.within(here, allowance).filter(|&zone| zone != here).map(Some))
        .collect();
    let mut kinds = vec![
        ActionKind::Attack,
        ActionKind::DefensiveAttack,
        ActionKind::FullDefense,
        ActionKind::Move,
        ActionKind::Hold,
        ActionKind::Stabilize,
        ActionKind::Intimidate,
        ActionKind::Disengage,
        ActionKind::Swarm,
        ActionKind::Shove,
        ActionKind::Grapple,
        ActionKind::StandUp,
        ActionKind::Execute,
        ActionKind::Screen,
        ActionKind::GoProne,
        ActionKind::BreakFree,
        ActionKind::KnockDown,
        ActionKind::HoldAction,
        ActionKind::LetGo,
        ActionKind::Delay,
        ActionKind::Drag,
        ActionKind::Hurl,
        ActionKind::ShakeOff,
    ];
    kinds.extend(AimPoint::ALL.map(ActionKind::Aimed));
    kinds.extend((0..actor.magic.spells.0.len()).map(ActionKind::Cast));
    for (at, stack) in actor.arms.inventory.0.iter().enumerate() {
        kinds.push(if stack.item.thrown { ActionKind::Throw(at) } else { ActionKind::UseItem(at) });
    }
    kinds.retain(|&kind| actions::offered(ctx.ruleset, kind));
    let max_range =
        kinds.iter().filter_map(|&kind| actions::reach(actor, kind).ok()?.range(ctx.battlefield)).max().unwrap_or(0);
    let charge = actions::offered(ctx.ruleset, ActionKind::Charge).then_some(ActionKind::Charge);
    for &move_to in &destinations {
        let standing = move_to.unwrap_or(here);
        let candidates: Vec<Entity> = ctx
            .battlefield
            .within(standing, max_range)
            .flat_map(|zone| ctx.index.occupants(zone).iter().copied())
            .collect();
        for &kind in kinds.iter().chain(charge.as_ref()) {
            let untargeted = Action::new(kind, None, move_to);
            if actions::check(ctx, actor, &untargeted, units).is_ok() {
                found.push(untargeted);
            }
            if !matches!(actions::reach(actor, kind), Ok(reach) if reach.rule != TargetRule::None) {
                continue;
            }
            for &target in &candidates {
                let action = Action::new(kind, Some(target), move_to);
                if actions::check(ctx, actor, &action, units).is_ok() {
                    found.push(action);
                }
            }
        }
    }
    found
}

/// Compares both listings for every unit now; returns how many actions were compared.
fn compare_listings(
    units: Query<UnitReadOnly>,
    ruleset: Res<Ruleset>,
    battlefield: Res<Battlefield>,
    index: Res<ZoneIndex>,
    state: Res<CombatState>,
) -> usize {
    let cache = ViewCache::new(&units);
    let ctx = ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
    let mut compared = 0;
    for actor in cache.iter() {
        let expected = listed_by_checking(ctx, actor, &cache);
        let legal = LegalActions::of(ctx, actor, cache.targets(ctx).index());
        let listed: Vec<Action> = legal.iter().collect();
        assert_eq!(listed, expected, "{} in round {}", actor.standing.id.0, state.round);
        assert_eq!(legal.len(), expected.len());
        for (at, action) in expected.iter().enumerate() {
            assert_eq!(legal.get(at), Some(*action), "{}: action {at}", actor.standing.id.0);
        }
        assert_eq!(legal.get(expected.len()), None);
        compared += expected.len();
    }
    compared
}

/// Plays `template` with the random AI, comparing the listings at the start of each round.
fn listings_agree_through(template: &BattleTemplate, rounds: u32) {
    let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Random))).collect();
    let mut battle = HeadlessBattle::new();
    battle.start(template, &BattleSetup { seed: 7, controllers, record_log: false });
    let mut compared = 0;
    for _ in 0..rounds {
        compared += battle.world_mut().run_system_once(compare_listings).expect("the comparison runs");
        let round = battle.state().round;
        while battle.state().round == round && !battle.state().is_over() {
            battle.step();
        }
    }
    assert!(compared > 1000, "only {compared} actions compared");
}

#[test]
fn w_decl_2_legal_actions_from_the_target_index_match_checking_every_unit_on_zones() {
    let template = load_generated(&melee_zones_text(48), "melee48.ron").expect("the melee loads");
    listings_agree_through(&template, 4);
}

#[test]
fn s_grid_1_legal_actions_from_the_target_index_match_checking_every_unit_on_a_grid() {
    let template = load_generated(&grid_field_text(24, "shock_and_cover"), "field24.ron").expect("the field loads");
    listings_agree_through(&template, 3);
}

#[test]
fn the_siege_is_a_mass_battle_that_plays_headless() {
    let template =
        load_level(Path::new("levels/siege.ron"), &ModSet::default()).unwrap_or_else(|errors| panic!("{errors}"));
    assert!(template.units.len() >= 1000, "{} units", template.units.len());
    assert!(template.units.len() > MASS_BATTLE_UNITS);
    let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 1, controllers, record_log: true });
    while battle.state().round < 3 && !battle.state().is_over() {
        battle.step();
    }
    let log = battle.log().to_json_lines();
    assert!(log.contains("\"attack\"") || log.contains("\"moved\""), "the armies close and fight");
}

/// Checks the per-pass tables (threats, fighting sides, enemies) against asking every unit now,
/// or the whole target index; returns how many zone and side pairs were compared.
fn compare_threat_tables(
    units: Query<UnitReadOnly>,
    ruleset: Res<Ruleset>,
    battlefield: Res<Battlefield>,
    index: Res<ZoneIndex>,
    state: Res<CombatState>,
) -> usize {
    let cache = ViewCache::new(&units);
    let ctx = ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
    for view in cache.iter() {
        assert_eq!(cache.get(view.entity).map(|found| found.entity), Some(view.entity));
    }
    let threats = ThreatMap::build(battlefield.len(), cache.iter());
    let sides = cache.iter().map(|view| view.standing.side.0 + 1).max().unwrap_or(0);
    // A fresh cache answers enemies from its briefs alone, never from a built index.
    let fresh = ViewCache::new(&units);
    let whole_index = TargetIndex::build(ctx, &cache);
    let mut compared = 0;
    for zone in 0..battlefield.len() as ZoneIdx {
        for side in 0..=sides {
            assert_eq!(
                fresh.targets(ctx).enemies(zone, side),
                whole_index.enemies(zone, side),
                "enemies of side {side} in zone {zone}"
            );
        }
        for side in (0..sides).map(SideIndex) {
            let mut filed: Vec<Entity> = threats.threateners(ctx, zone, side).map(|threat| threat.unit).collect();
            let mut asked: Vec<Entity> = actions::threateners_of(ctx, zone, side, &cache)
                .into_iter()
                .filter(|&unit| cache.get(unit).is_some_and(|view| view.standing.status.on_field()))
                .collect();
            filed.sort();
            asked.sort();
            assert_eq!(filed, asked, "threats on zone {zone} against side {}", side.0);
            let fighting_here = index.occupants(zone).iter().any(|&other| {
                cache.get(other).is_some_and(|view| {
                    *view.standing.side == side && unit::is_fighting(*view.standing.status, view.round.conditions)
                })
            });
            assert_eq!(cache.has_fighting(ctx, zone, side), fighting_here, "side {} in zone {zone}", side.0);
            compared += 1;
        }
    }
    compared
}

/// Plays `template` with the greedy AI, comparing the threat tables at the start of each round.
fn threat_tables_agree_through(template: &BattleTemplate, rounds: u32) {
    let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
    let mut battle = HeadlessBattle::new();
    battle.start(template, &BattleSetup { seed: 3, controllers, record_log: false });
    let mut compared = 0;
    for _ in 0..rounds {
        compared += battle.world_mut().run_system_once(compare_threat_tables).expect("the comparison runs");
        let round = battle.state().round;
        while battle.state().round == round && !battle.state().is_over() {
            battle.step();
        }
    }
    assert!(compared > 10, "only {compared} zone and side pairs compared");
}

#[test]
fn w_decl_4_per_pass_threat_tables_agree_with_asking_every_unit_on_zones() {
    let template = load_generated(&melee_zones_text(48), "melee48.ron").expect("the melee loads");
    threat_tables_agree_through(&template, 4);
}

#[test]
fn w_decl_4_per_pass_threat_tables_agree_with_asking_every_unit_on_a_grid() {
    let template = load_generated(&grid_field_text(24, "shock_and_cover"), "field24.ron").expect("the field loads");
    threat_tables_agree_through(&template, 3);
}

/// How many schedule runs the threat audits below play.
const AUDITED_UPDATES: u32 = 4_000;

#[test]
fn w_decl_4_threat_marking_for_the_touched_units_only_misses_no_changed_unit_on_a_grid() {
    let mut battle = greedy_battle_on_a_24_square_field();
    battle.world_mut().init_resource::<ThreatAudit>();
    battle.run(AUDITED_UPDATES);
    let audit = battle.world().resource::<ThreatAudit>();
    assert!(audit.passes > 50, "only {} passes looked at the touched units alone", audit.passes);
    assert_eq!(audit.missed, 0, "changed units not noted as touched, over {} passes", audit.passes);
}

#[test]
fn w_decl_4_the_threat_audit_sees_a_unit_changed_behind_the_stages_back() {
    let mut battle = greedy_battle_on_a_24_square_field();
    battle.world_mut().init_resource::<ThreatAudit>();
    while battle.world().resource::<ThreatAudit>().passes == 0 {
        battle.step();
    }
    // A write no stage noted: one unit's status, marked changed as any write through it would.
    let world = battle.world_mut();
    let mut statuses = world.query::<&mut Status>();
    statuses.iter_mut(world).next().expect("a unit").set_changed();
    let passes = battle.world().resource::<ThreatAudit>().passes;
    while battle.world().resource::<ThreatAudit>().passes == passes {
        battle.step();
    }
    assert_eq!(battle.world().resource::<ThreatAudit>().missed, 1, "the unwritten-down change is found");
}

/// The 24x24 shock_and_cover field, greedy on every side, seed 3, started.
fn greedy_battle_on_a_24_square_field() -> HeadlessBattle {
    let template = load_generated(&grid_field_text(24, "shock_and_cover"), "field24.ron").expect("the field loads");
    let controllers = (0..template.sides.len()).map(|side| (side, Controller::Ai(AiKind::Greedy))).collect();
    let mut battle = HeadlessBattle::new();
    battle.start(&template, &BattleSetup { seed: 3, controllers, record_log: false });
    battle
}

/// What a declaration pass builds its lazy view cache from, as a test system reads it.
#[derive(bevy::ecs::system::SystemParam)]
struct CacheInputs<'w, 's> {
    units: Query<'w, 's, UnitReadOnly>,
    parts: Query<'w, 's, BriefParts>,
    entities: &'w bevy::ecs::entity::Entities,
    ruleset: Res<'w, Ruleset>,
    battlefield: Res<'w, Battlefield>,
    index: Res<'w, ZoneIndex>,
    state: Res<'w, CombatState>,
    scratch: Local<'s, ViewScratch>,
}

impl CacheInputs<'_, '_> {
    /// Sizes the scratch for every entity, as the controller does before a pass.
    fn fit(&mut self) {
        self.scratch.fit(self.entities.len() as usize);
    }

    fn ctx(&self) -> ActionContext<'_> {
        ActionContext {
            ruleset: &self.ruleset,
            battlefield: &self.battlefield,
            index: &self.index,
            round: self.state.round,
        }
    }
}

/// Checks a declaration pass's lazy view cache (briefs read as asked, through the few parts, and
/// sides kept between passes) against the eager one; returns how many units were compared.
fn compare_lazy_caches(mut inputs: CacheInputs) -> usize {
    inputs.fit();
    let CacheInputs { units, parts, battlefield, scratch, .. } = &inputs;
    let eager = ViewCache::new(units);
    let ctx = inputs.ctx();
    let sides = eager.iter().map(|view| view.standing.side.0 + 1).max().unwrap_or(0);
    let mut compared = 0;
    // The second cache starts with the sides the first one read, as a pass after a pass does.
    for _ in 0..2 {
        let lazy = ViewCache::lazy(units, parts, scratch);
        for zone in 0..battlefield.len() as ZoneIdx {
            for side in 0..=sides {
                let enemies = lazy.targets(ctx).enemies(zone, side);
                assert_eq!(enemies, eager.targets(ctx).enemies(zone, side), "enemies of {side} in {zone}");
                let fighting = lazy.has_fighting(ctx, zone, SideIndex(side));
                assert_eq!(fighting, eager.has_fighting(ctx, zone, SideIndex(side)), "side {side} in {zone}");
            }
        }
        for view in eager.iter() {
            for side in (0..=sides).map(SideIndex) {
                let lazy_foe = lazy.fighting_foe_at(view.entity, side);
                assert_eq!(
                    lazy_foe,
                    eager.fighting_foe_at(view.entity, side),
                    "{} against {}",
                    view.standing.id.0,
                    side.0
                );
            }
            assert_eq!(lazy.side_and_status(view.entity), eager.side_and_status(view.entity));
            assert_eq!(lazy.get(view.entity).map(|seen| seen.entity), Some(view.entity));
            compared += 1;
        }
        let order: Vec<Entity> = lazy.iter().map(|view| view.entity).collect();
        let eager_order: Vec<Entity> = eager.iter().map(|view| view.entity).collect();
        assert_eq!(order, eager_order, "the walk keeps the query's order");
    }
    compared
}

#[test]
fn lazy_view_caches_agree_with_reading_every_unit_on_a_grid() {
    let mut battle = greedy_battle_on_a_24_square_field();
    let mut compared = 0;
    for _ in 0..3 {
        compared += battle.world_mut().run_system_once(compare_lazy_caches).expect("the comparison runs");
        let round = battle.state().round;
        while battle.state().round == round && !battle.state().is_over() {
            battle.step();
        }
    }
    assert!(compared > 50, "only {compared} units compared");
}

/// Checks every zone's floor on the distance to the nearest unit of another side, as a lazy
/// cache works it out from the rows its scratch keeps between passes, against every unit's
/// place: never more than the walk there, and on the open field exactly the straight line.
fn check_foe_distance_floors(mut inputs: CacheInputs) -> usize {
    inputs.fit();
    let CacheInputs { units, parts, battlefield, index, scratch, .. } = &inputs;
    let ctx = inputs.ctx();
    let lazy = ViewCache::lazy(units, parts, scratch);
    // Where every unit the index holds stands, with its side.
    let standing: Vec<(ZoneIdx, usize)> = (0..battlefield.len() as ZoneIdx)
        .flat_map(|zone| index.occupants(zone).iter().map(move |&unit| (zone, unit)))
        .filter_map(|(zone, unit)| units.get(unit).ok().map(|view| (zone, view.standing.side.0)))
        .collect();
    let sides = standing.iter().map(|&(_, side)| side + 1).max().unwrap_or(0);
    let mut checked = 0;
    for zone in 0..battlefield.len() as ZoneIdx {
        let square = battlefield.zone(zone).square.expect("a grid square");
        for side in 0..=sides {
            let others = standing.iter().filter(|&&(_, held_by)| held_by != side);
            let walk = others.clone().map(|&(at, _)| battlefield.distance(zone, at)).min();
            let straight = others
                .map(|&(at, _)| fray::battlefield::GridMap::distance(square, battlefield.zone(at).square.unwrap()))
                .min();
            let floor = lazy.foe_distance_floor(ctx, zone, side);
            assert!(floor <= walk.unwrap_or(u32::MAX), "side {side} in {zone}: {floor} beyond the walk {walk:?}");
            assert_eq!(Some(floor).filter(|&floor| floor != u32::MAX), straight, "side {side} in {zone}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn foe_distance_floors_stay_below_the_walk_as_units_move() {
    let mut battle = greedy_battle_on_a_24_square_field();
    // One system, so its scratch (and the rows in it) lives from check to check, brought up to
    // date from the zones the index says changed.
    let check = battle.world_mut().register_system(check_foe_distance_floors);
    let mut checked = 0;
    for _ in 0..40 {
        checked += battle.world_mut().run_system(check).expect("the check runs");
        if battle.state().is_over() {
            break;
        }
        battle.step();
    }
    assert!(checked > 10_000, "only {checked} floors checked");
}
