//! Who threatens a zone during resolution, and the reactions already spent this run.

use super::*;

/// Units seen, during one run of the resolve stage, to be unable to answer a move with a
/// Reposte, with their sides: a walker through a crowd asks about hundreds of units at every
/// step, and most of them have long since spent their reaction. Within one run a unit that
/// cannot react never can again (reactions only fall, and surprise changes only between
/// rounds), and the stage never changes a unit's side or loadout, so what is noted here stays
/// true until the run ends.
#[derive(Default)]
pub(in crate::rules) struct SpentReactions {
    /// What was seen of each unit.
    pub(super) seen: SeenUnits,
    /// By zone: its occupants not seen to be spent, in the zone index's order, so that a step
    /// looks only at those.
    pub(super) zones: Vec<Candidates>,
}

/// By entity index: what was seen of each unit this run.
#[derive(Default)]
pub(super) struct SeenUnits {
    /// The current run of the stage, counted from one.
    run: u32,
    /// Valid where their `run` is the current one.
    units: Vec<Seen>,
}

/// What [`SpentReactions`] keeps of one unit.
#[derive(Clone, Copy, Default)]
pub(super) struct Seen {
    /// The run it was seen in.
    run: u32,
    /// Its side.
    side: usize,
    /// Whether it could no longer react.
    spent: bool,
    /// The longest reach of a melee weapon in its loadout (`None`: it has none): how far it
    /// could threaten whichever hand it fights with. The resolve stage only reads loadouts.
    reach: Option<u32>,
}

/// A zone's occupants not seen to be spent, in the zone index's order, each with its side where
/// known (else [`UNKNOWN_SIDE`]), so a walker passes over its own side without a look-up: right
/// while the run is `run` and the zone's occupants have not changed since `changed_at`.
#[derive(Default)]
pub(super) struct Candidates {
    run: u32,
    changed_at: u64,
    units: Vec<(Entity, usize)>,
}

/// The side of a [`Candidates`] unit not looked at yet.
const UNKNOWN_SIDE: usize = usize::MAX;

impl SeenUnits {
    /// What was seen of `unit` this run, if anything.
    pub(super) fn get(&self, unit: Entity) -> Option<Seen> {
        self.units.get(unit.index_u32() as usize).copied().filter(|seen| seen.run == self.run)
    }

    /// Notes what was seen of `unit`.
    pub(super) fn note(&mut self, unit: Entity, side: usize, spent: bool, reach: Option<u32>) {
        let at = unit.index_u32() as usize;
        if at >= self.units.len() {
            self.units.resize(at + 1, Seen::default());
        }
        self.units[at] = Seen { run: self.run, side, spent, reach };
    }
}

impl SpentReactions {
    /// Forgets everything: a new run of the stage begins.
    pub(super) fn next_run(&mut self) {
        self.seen.run = self.seen.run.wrapping_add(1).max(1);
        if self.seen.run == 1 {
            self.seen.units.clear();
            self.zones.clear();
        }
    }

    /// The candidates of `zone` this run, whose occupants are `occupants` as of `changed_at`:
    /// kept from the last look while still right, else all of them.
    fn candidates<'a>(
        zones: &'a mut Vec<Candidates>,
        run: u32,
        zone: ZoneIdx,
        occupants: &[Entity],
        changed_at: u64,
    ) -> &'a mut Vec<(Entity, usize)> {
        let at = zone as usize;
        if at >= zones.len() {
            zones.resize_with(at + 1, Candidates::default);
        }
        let kept = &mut zones[at];
        if kept.run != run || kept.changed_at != changed_at {
            kept.units.clear();
            kept.units.extend(occupants.iter().map(|&unit| (unit, UNKNOWN_SIDE)));
            kept.run = run;
            kept.changed_at = changed_at;
        }
        &mut kept.units
    }

    /// `unit` (of `side`) stepped from `from` to `to`, the zones' occupants having changed at `was` and
    /// now at `now` (each `(from, to)`): lists that were right before the step are kept right.
    pub(super) fn stepped(
        &mut self,
        (unit, side): (Entity, usize),
        (from, to): (ZoneIdx, ZoneIdx),
        was: (u64, u64),
        now: (u64, u64),
    ) {
        if from == to {
            return;
        }
        let run = self.seen.run;
        if let Some(kept) = self.zones.get_mut(from as usize)
            && kept.run == run
            && kept.changed_at == was.0
        {
            kept.units.retain(|&(other, _)| other != unit);
            kept.changed_at = now.0;
        }
        // The zone index puts an arrival last; it may still react, as far as is known here.
        if let Some(kept) = self.zones.get_mut(to as usize)
            && kept.run == run
            && kept.changed_at == was.1
        {
            kept.units.push((unit, side));
            kept.changed_at = now.1;
        }
    }
}

/// The longest reach of the melee weapons in `loadout`, of which `Loadout::usable_weapon` picks
/// one; `None` when all of them are ranged.
fn longest_melee_reach(loadout: &Loadout) -> Option<u32> {
    let offhand = loadout.offhand.as_ref().map(|(_, weapon)| weapon);
    [Some(&loadout.weapon), offhand, Some(&loadout.unarmed)]
        .into_iter()
        .flatten()
        .filter(|weapon| !weapon.is_ranged())
        .map(|weapon| weapon.reach)
        .max()
}

impl<'w, 's> Resolver<'w, 's> {
    /// Enemies of `side` whose melee weapons reach `zone` ([`actions::threateners_of`]). Reads
    /// only the four components a threat depends on: a whole unit view sets up some thirty
    /// columns per look-up, and a crowded zone asks about hundreds of units per step.
    pub(in crate::rules) fn threateners_of(&self, zone: ZoneIdx, side: SideIndex) -> Vec<Entity> {
        let mut units = self.units.as_readonly();
        let mut lens = units.transmute_lens::<(&SideIndex, &Status, &Conditions, &Loadout)>();
        let facts = lens.query();
        actions::threateners_by(self.ctx(), zone, |other, distance| {
            let (its_side, status, conditions, loadout) = facts.get(other).ok()?;
            Some(actions::threatens(*its_side, *status, conditions, loadout, side, distance))
        })
    }

    /// The units of `among` (threateners of some zone that can still react) that are also among
    /// [`Self::reacting_threateners`] of `zone`, in `among`'s order: found by asking each of them,
    /// not by listing everyone who threatens `zone`.
    pub(in crate::rules) fn also_threatening(&self, among: &[Entity], zone: ZoneIdx, side: SideIndex) -> Vec<Entity> {
        if among.is_empty() {
            return Vec::new();
        }
        let mut units = self.units.as_readonly();
        let mut lens = units.transmute_lens::<(&SideIndex, &Status, &Conditions, &Loadout, &Zone)>();
        let facts = lens.query();
        let longest = self.index.longest_reach();
        among
            .iter()
            .copied()
            .filter(|&other| {
                facts.get(other).is_ok_and(|(its_side, status, conditions, loadout, at)| {
                    // `actions::threateners_by` looks in the zones within the longest reach of
                    // `zone`, and measures from each back to `zone`.
                    self.battlefield.distance(zone, at.0) <= longest && {
                        let distance = self.battlefield.distance(at.0, zone);
                        actions::threatens(*its_side, *status, conditions, loadout, side, distance)
                    }
                })
            })
            .collect()
    }

    /// Whether any enemy of `side` threatens `zone`: [`Self::threateners_of`] being non-empty,
    /// without listing them all.
    pub(in crate::rules) fn is_threatened(&self, zone: ZoneIdx, side: SideIndex) -> bool {
        let mut units = self.units.as_readonly();
        let mut lens = units.transmute_lens::<(&SideIndex, &Status, &Conditions, &Loadout)>();
        let facts = lens.query();
        actions::threatened_by(self.ctx(), zone, |other, distance| {
            let (its_side, status, conditions, loadout) = facts.get(other).ok()?;
            Some(actions::threatens(*its_side, *status, conditions, loadout, side, distance))
        })
    }

    /// The threateners of `zone` ([`Self::threateners_of`]) that can still make a Reposte
    /// ([`actions::can_react`]), in the same order: the only ones a step can provoke. Units
    /// already seen this run to have no reaction left, or to be on `side`, are passed over
    /// without a look-up.
    pub(in crate::rules) fn reacting_threateners(&mut self, zone: ZoneIdx, side: SideIndex) -> Vec<Entity> {
        let mut spent = std::mem::take(&mut *self.spent);
        let ctx = self.ctx();
        let units = &self.units;
        let mut found = Vec::new();
        // The walk of `actions::threateners_by`, in its order, over each zone's candidates: the
        // occupants not yet seen to be spent, in the same order.
        for here in ctx.battlefield.within(zone, ctx.index.longest_reach()) {
            let occupants = ctx.index.occupants(here);
            // Most squares around a walker on a grid are empty: no list to keep for them. A kept
            // list is stamped with its zone's last change, so one not kept now is not mistaken
            // for a fresh one later.
            if occupants.is_empty() {
                continue;
            }
            let distance = ctx.battlefield.distance(here, zone);
            let changed_at = ctx.index.changed_at(here);
            let SpentReactions { seen, zones } = &mut spent;
            SpentReactions::candidates(zones, seen.run, here, occupants, changed_at).retain_mut(|(other, its)| {
                let other = *other;
                if *its == side.0 {
                    return true;
                }
                match seen.get(other) {
                    Some(known) if known.spent => return false,
                    Some(known) if known.side == side.0 => {
                        *its = known.side;
                        return true;
                    }
                    // Out of reach of anything it carries: no look-up, but still a candidate
                    // for nearer walkers.
                    Some(known) if known.reach.is_none_or(|reach| reach < distance) => return true,
                    _ => {}
                }
                // The whole view: a narrower lens of the unit query costs a new query state
                // (about 4,500 instructions) each time it is made, against some 650 a look-up, and
                // a walker looks up about two units a step.
                let Ok(unit) = units.get(other) else {
                    return true;
                };
                let can_react = actions::can_react(&unit);
                seen.note(other, unit.standing.side.0, !can_react, longest_melee_reach(unit.arms.loadout));
                *its = unit.standing.side.0;
                if can_react
                    && actions::threatens(
                        *unit.standing.side,
                        *unit.standing.status,
                        unit.round.conditions,
                        unit.arms.loadout,
                        side,
                        distance,
                    )
                {
                    found.push(other);
                }
                can_react
            });
        }
        *self.spent = spent;
        found
    }
}
