//! The view cache: every unit viewed at most once in a pass, with its brief read first.

use bevy::prelude::*;

use super::zone_tables::{Brief, Briefs, EnemyLists, FightingSides, SCANNED_DIRECTLY, SideRows};
use super::{ActionContext, UnitLookup};
use crate::battlefield::ZoneIdx;
use crate::rules::components::*;
use crate::rules::unit::{UnitReadOnly, UnitView};

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
    targets: std::cell::OnceCell<crate::rules::legal::TargetIndex>,
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
                side: view.standing.side.0,
                zone: view.standing.zone.0,
                status: *view.standing.status,
                conditions: view.round.conditions,
            });
            if view.standing.status.on_field() {
                sides_on_field = sides_on_field.max(view.standing.side.0 + 1);
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

/// A [`ViewCache`] slot with no view.
pub(super) const NO_VIEW: u32 = u32::MAX;

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
            let brief = Brief {
                side: view.standing.side.0,
                zone: view.standing.zone.0,
                status: *view.standing.status,
                conditions: view.round.conditions,
            };
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
    pub(super) fn place(&self, unit: Entity) -> Option<u32> {
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

impl<'w> Briefs<'w> for ViewCache<'w, '_> {
    fn brief(&self, unit: Entity) -> Option<Brief<'w>> {
        ViewCache::brief(self, unit)
    }

    fn side_seen(&self, unit: Entity) -> Option<usize> {
        ViewCache::side_seen(self, unit)
    }

    fn sides_filed(&self, ctx: ActionContext) -> usize {
        ViewCache::sides_filed(self, ctx)
    }

    fn sides_walked(&self) -> usize {
        self.walk().briefs.iter().map(|brief| brief.side + 1).max().unwrap_or(0)
    }
}

impl UnitLookup for ViewCache<'_, '_> {
    fn with_view<R>(&self, unit: Entity, read: impl FnOnce(&UnitView) -> R) -> Option<R> {
        self.get(unit).map(read)
    }
}

/// The targets of the moment a [`ViewCache`] was taken, as [`ViewCache::targets`] gives them:
/// a zone whose occupants are all targets (or none is) is answered from the zone index itself;
/// other zones from the whole [`crate::rules::legal::TargetIndex`], built on first need.
#[derive(Clone, Copy)]
pub struct Targets<'a, 'w, 's> {
    ctx: ActionContext<'a>,
    units: &'a ViewCache<'w, 's>,
}

impl<'a> Targets<'a, '_, '_> {
    /// The whole target index.
    pub fn index(self) -> &'a crate::rules::legal::TargetIndex {
        self.units.targets.get_or_init(|| crate::rules::legal::TargetIndex::build(self.ctx, self.units))
    }

    /// Enemies of `side` on the field in `zone`, in the zone index's order: the same list as
    /// [`crate::rules::legal::TargetIndex::enemies`].
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
