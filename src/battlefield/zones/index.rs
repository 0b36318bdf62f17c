//! The zone index: which units stand in each zone, kept up to date as they move.

use super::*;

/// One zone's occupants, in the order they entered. Up to two are kept in the list itself (in
/// the room a `Vec` takes): a grid square holds one unit, and a search over the squares around a
/// unit then reads one table, not a separate allocation per square.
pub(super) type Occupants = smallvec::SmallVec<[Entity; 2]>;

/// Who stands in which zone, kept up to date as units move, fall and arrive, so that
/// threat, capacity and targeting never scan all pairs of units.
#[derive(Resource, Debug)]
pub struct ZoneIndex {
    pub(super) occupants: Vec<Occupants>,
    pub(super) longest_reach: u32,
    /// Changes made so far, all zones together: the clock of `changed_at`.
    pub(super) changes: u64,
    /// By zone: the value of `changes` when its occupants last changed.
    pub(super) changed_at: Vec<u64>,
    /// The zones the last [`RECENT_CHANGES`] changes touched: the change that set the clock to
    /// `c` touched `recent[c % RECENT_CHANGES]`.
    pub(super) recent: Vec<ZoneIdx>,
    /// Which index this is in the world that holds it: [`install_zone_index`] numbers each index after
    /// the one it replaces and [`Self::reset`] numbers it anew, so a reader that kept what it saw
    /// of one never takes another's changes for its own. 0 (a new or cloned index not yet
    /// installed) is never trusted.
    pub(super) id: u64,
}

/// How many of the last changes a [`ZoneIndex`] remembers the zones of: more than a turn makes.
const RECENT_CHANGES: usize = 256;

/// The [`ZoneIndex::id`] after `id`, never the untrusted 0.
fn next_id(id: u64) -> u64 {
    id.wrapping_add(1).max(1)
}

/// Puts `index` in `world` as its [`ZoneIndex`], numbered after the one it replaces: a reader
/// that kept what it saw of the old index then starts afresh on the new one.
pub fn install_zone_index(world: &mut World, mut index: ZoneIndex) {
    let replaced = world.get_resource::<ZoneIndex>().map_or(0, |old| old.id);
    index.id = next_id(replaced);
    world.insert_resource(index);
}

impl Default for ZoneIndex {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Clone for ZoneIndex {
    /// A copy of the occupants, as another index not yet installed: the two change apart from
    /// here on.
    fn clone(&self) -> Self {
        Self {
            occupants: self.occupants.clone(),
            longest_reach: self.longest_reach,
            changes: self.changes,
            changed_at: self.changed_at.clone(),
            recent: self.recent.clone(),
            id: 0,
        }
    }
}

impl ZoneIndex {
    /// An empty index for `zones` zones, not yet installed ([`install_zone_index`]).
    pub fn new(zones: usize) -> Self {
        Self {
            occupants: vec![Occupants::new(); zones],
            longest_reach: 0,
            changes: 0,
            changed_at: vec![0; zones],
            recent: vec![0; RECENT_CHANGES],
            id: 0,
        }
    }

    /// Which index this is and its clock (the changes made so far): with
    /// [`Self::touched_since`], what a reader kept of the index can be brought up to date.
    pub fn version(&self) -> (u64, u64) {
        (self.id, self.changes)
    }

    /// The zones whose occupants changed since the clock read `since` (with repeats), if the
    /// index still remembers every one of those changes.
    pub fn touched_since(&self, since: u64) -> Option<impl Iterator<Item = ZoneIdx> + '_> {
        let count = self.changes.checked_sub(since)?;
        (count <= RECENT_CHANGES as u64)
            .then(|| (since + 1..=self.changes).map(|change| self.recent[(change % RECENT_CHANGES as u64) as usize]))
    }

    /// When `zone`'s occupants last changed, on a clock that only runs forward: a list made
    /// from them stays right while this stays the same.
    pub fn changed_at(&self, zone: ZoneIdx) -> u64 {
        self.changed_at.get(zone as usize).copied().unwrap_or(u64::MAX)
    }

    /// Notes that `zone`'s occupants change now.
    pub(super) fn touch(&mut self, zone: ZoneIdx) {
        self.changes += 1;
        if let Some(at) = self.changed_at.get_mut(zone as usize) {
            *at = self.changes;
        }
        if let Some(recent) = self.recent.get_mut((self.changes % RECENT_CHANGES as u64) as usize) {
            *recent = zone;
        }
    }

    /// The longest melee reach of any unit in the battle, in zones: how far to look for threats.
    pub fn longest_reach(&self) -> u32 {
        self.longest_reach
    }

    /// Records a unit's melee reach.
    pub fn note_reach(&mut self, reach: u32) {
        self.longest_reach = self.longest_reach.max(reach);
    }

    /// Clears every zone, keeping the allocations.
    pub fn reset(&mut self, zones: usize) {
        self.occupants.resize_with(zones, Occupants::new);
        self.occupants.truncate(zones);
        for list in &mut self.occupants {
            list.clear();
        }
        self.changes += 1;
        self.changed_at.clear();
        self.changed_at.resize(zones, self.changes);
        // Every zone changed at once: readers start afresh.
        self.id = next_id(self.id);
    }

    /// Units in `zone`, in the order they entered.
    pub fn occupants(&self, zone: ZoneIdx) -> &[Entity] {
        self.occupants.get(zone as usize).map_or(&[], |list| list.as_slice())
    }

    /// How many units stand in `zone`.
    pub fn count(&self, zone: ZoneIdx) -> usize {
        self.occupants(zone).len()
    }

    /// Puts `unit` in `zone`.
    pub fn insert(&mut self, unit: Entity, zone: ZoneIdx) {
        if let Some(list) = self.occupants.get_mut(zone as usize) {
            list.push(unit);
        }
        self.touch(zone);
    }

    /// Takes `unit` out of `zone`.
    pub fn remove(&mut self, unit: Entity, zone: ZoneIdx) {
        if let Some(list) = self.occupants.get_mut(zone as usize)
            && let Some(at) = list.iter().position(|&other| other == unit)
        {
            list.remove(at);
        }
        self.touch(zone);
    }

    /// Moves `unit` between zones.
    pub fn relocate(&mut self, unit: Entity, from: ZoneIdx, to: ZoneIdx) {
        self.remove(unit, from);
        self.insert(unit, to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_installed_in_anothers_place_is_told_apart_from_it() {
        let mut world = World::new();
        install_zone_index(&mut world, ZoneIndex::new(2));
        let first = world.resource::<ZoneIndex>().version();
        // The same changes on a new index: only its number tells it from the first.
        install_zone_index(&mut world, ZoneIndex::new(2));
        let second = world.resource::<ZoneIndex>().version();
        assert_ne!(first.0, 0);
        assert_ne!(first.0, second.0);
        assert_eq!(first.1, second.1);
        let mut index = world.resource::<ZoneIndex>().clone();
        assert_eq!(index.version().0, 0, "a copy not installed is never trusted");
        let before = world.resource::<ZoneIndex>().version().0;
        world.resource_mut::<ZoneIndex>().reset(2);
        assert_ne!(world.resource::<ZoneIndex>().version().0, before);
        index.reset(2);
        assert_ne!(index.version().0, 0, "a reset index is numbered anew");
    }
}
