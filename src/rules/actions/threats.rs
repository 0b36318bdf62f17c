//! Melee threat and Reposte exposure (`W-DECL-3`, `W-DECL-4`): who threatens which zone, and
//! whom a move provokes.

use bevy::prelude::*;

use super::reach::short_mover;
use super::view_cache::{NO_VIEW, ViewCache};
use super::zone_tables::SCANNED_DIRECTLY;
use super::{ActionContext, UnitLookup};
use crate::battlefield::ZoneIdx;
use crate::rules::components::*;
use crate::rules::unit::{self, UnitView};

/// Enemies whose Reposte `actor` would provoke by moving as `action` says (`W-DECL-3`,
/// `W-DECL-4`): each zone entered provokes the able threateners of that zone that did not
/// already threaten the zone left. A defensive attack provokes none. Resolution applies the
/// same rule step by step.
pub fn repostes_on_path(ctx: ActionContext, threats: &ThreatMap, actor: &UnitView, action: &Action) -> Vec<Entity> {
    let Some(to) = action.move_to.filter(|&to| to != actor.standing.zone.0) else {
        return Vec::new();
    };
    // The 5-ft step is a lone short shift before acting (`C-MOVE-1`).
    let free = action.move_after.is_none() && !short_mover(ctx, actor, action);
    repostes_between(ctx, threats, actor, action.kind, (actor.standing.zone.0, to), free)
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
    let leaving = rules.when_reach_left && kind != ActionKind::Disengage && !actor.round.conditions.disengaged;
    let free_step = free_step && ctx.battlefield.distance(from, to) <= rules.free_step && kind != ActionKind::Move;
    if !(entering || leaving) || free_step {
        return provoked;
    }
    let side = *actor.standing.side;
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
        Some((view.standing.zone.0, threat(view)))
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
    let weapon = view.arms.loadout.threatening_weapon(view.round.conditions)?;
    (view.standing.status.on_field() && unit::is_fighting(*view.standing.status, view.round.conditions)).then(|| {
        Threat { unit: view.entity, side: *view.standing.side, reach: weapon.reach, can_react: can_react(view) }
    })
}

impl FiledThreats {
    /// Every fighting unit with a melee weapon, filed under the zone it stands in.
    fn build<'a, 'w: 'a, 's: 'a>(zones: usize, units: impl Iterator<Item = &'a UnitView<'w, 's>>) -> Self {
        let mut filed: Vec<(ZoneIdx, Threat)> = Vec::new();
        for view in units {
            if let Some(threat) = threat(view)
                && (view.standing.zone.0 as usize) < zones
            {
                filed.push((view.standing.zone.0, threat));
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

/// Whether `view`'s unit threatens a foe of `side` at `distance` ([`threatens`]).
fn view_threatens(view: &UnitView, side: SideIndex, distance: u32) -> bool {
    threatens(*view.standing.side, *view.standing.status, view.round.conditions, view.arms.loadout, side, distance)
}

/// Enemies of `side` whose melee weapons reach `zone` and who are fighting: the threat range
/// (`W-DECL-4`), found through the zone index within the longest reach on the field.
pub fn threateners_of(ctx: ActionContext, zone: ZoneIdx, side: SideIndex, units: &impl UnitLookup) -> Vec<Entity> {
    threateners_by(ctx, zone, |other, distance| units.with_view(other, |view| view_threatens(view, side, distance)))
}

/// Whether any enemy of `side` threatens `zone`: [`threateners_of`] being non-empty, found
/// without listing them all (in a crowd the first one looked at usually is one).
pub fn is_threatened(ctx: ActionContext, zone: ZoneIdx, side: SideIndex, units: &impl UnitLookup) -> bool {
    threatened_by(ctx, zone, |other, distance| units.with_view(other, |view| view_threatens(view, side, distance)))
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
    unit.round.reactions.0 > 0 && !unit.round.surprised
}
