//! The zone tables the view cache files on first asking, from the units' briefs: each zone's
//! enemy lists, the grid's side rows and which sides fight where.

use bevy::prelude::*;

use super::ActionContext;
use crate::battlefield::{UNREACHABLE, ZoneIdx, ZoneIndex};
use crate::rules::components::{Conditions, Status};
use crate::rules::unit;

/// Zones with at most this many occupants are asked about directly rather than through a table
/// of every zone: a grid square holds one unit, and a turn-by-turn round would otherwise refile
/// every zone for every unit's turn.
pub(super) const SCANNED_DIRECTLY: usize = 4;

/// What the view cache reads of a unit before viewing it (of every unit in a walk, or of one
/// on first asking): enough to tell friend from foe, and a fighter from the fallen.
#[derive(Clone, Copy)]
pub(super) struct Brief<'w> {
    pub(super) side: usize,
    pub(super) zone: ZoneIdx,
    pub(super) status: Status,
    /// Read only when asked whether the unit fights: a unit's conditions are a large component,
    /// and most units a pass briefs are only asked their side.
    pub(super) conditions: &'w Conditions,
}

impl Brief<'_> {
    /// Whether the unit is on the field.
    pub(super) fn on_field(&self) -> bool {
        self.status.on_field()
    }

    /// Whether the unit is fighting ([`unit::is_fighting`]).
    pub(super) fn fighting(&self) -> bool {
        unit::is_fighting(self.status, self.conditions)
    }
}

/// Where the zone tables read units from: the view cache, as its briefs say.
pub(super) trait Briefs<'w> {
    /// `unit`'s brief, read on first asking.
    fn brief(&self, unit: Entity) -> Option<Brief<'w>>;

    /// `unit`'s side where it is known without a brief.
    fn side_seen(&self, unit: Entity) -> Option<usize>;

    /// One more than the highest side the target index files in `ctx`.
    fn sides_filed(&self, ctx: ActionContext) -> usize;

    /// One more than the highest side of every unit walked.
    fn sides_walked(&self) -> usize;
}

/// Each zone's enemies of each side, in the zone index's order: the lists
/// [`crate::rules::legal::TargetIndex::enemies`] gives, filed from the briefs alone (side and standing),
/// so filing them views no unit.
pub(super) struct EnemyLists {
    /// One more than the highest side filed ([`Briefs::sides_filed`]): a side beyond it has
    /// no list, as in the target index.
    sides: usize,
    /// Where each (zone, side) list starts in `units`, zone by zone, and one past the last.
    starts: Vec<u32>,
    units: Vec<Entity>,
}

impl EnemyLists {
    /// Files the on-field occupants of every zone of `ctx`'s zone index, for each side they are
    /// enemies of.
    pub(super) fn build<'w>(ctx: ActionContext, units: &impl Briefs<'w>) -> Self {
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
    pub(super) fn enemies(&self, zone: ZoneIdx, side: usize) -> &[Entity] {
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

/// Bits in one word of a [`SideRows`] row.
const ROW_WORD_BITS: usize = u64::BITS as usize;

/// Which squares of a grid hold units of each side: a bit a square, a row of words a grid row.
/// Enough to tell how near the nearest unit of another side stands in a straight line
/// (Chebyshev distance), which is never more than the walk there: a step goes to one of the eight
/// squares around, so it changes each coordinate by at most one. Kept between passes
/// (the view cache's scratch) and brought up to date from the zones the index says changed.
#[derive(Debug)]
pub(super) struct SideRows {
    /// The zone index's [`ZoneIndex::version`] these rows were last brought up to.
    version: (u64, u64),
    /// Zones of the battlefield filed.
    zones: usize,
    pub(super) width: usize,
    pub(super) height: usize,
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
    pub(super) fn brought_up_to_date<'w>(
        kept: Option<Self>,
        ctx: ActionContext,
        units: &impl Briefs<'w>,
    ) -> Option<Self> {
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
    fn file<'w>(&mut self, ctx: ActionContext, zone: ZoneIdx, units: &impl Briefs<'w>) -> Option<()> {
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
    pub(super) fn nearest_other(&self, side: usize, x: usize, y: usize) -> u32 {
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
pub(super) struct FightingSides {
    pub(super) sides: usize,
    pub(super) flags: Vec<bool>,
}

impl FightingSides {
    /// Files every fighting occupant of `index`'s zones by side.
    pub(super) fn build<'w>(index: &ZoneIndex, zones: usize, units: &impl Briefs<'w>) -> Self {
        let sides = units.sides_walked();
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
