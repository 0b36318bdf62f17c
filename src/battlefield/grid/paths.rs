//! Walking a grid: Chebyshev distance, shortest paths and the walking graph's edges.

use super::*;

impl GridMap {
    /// Straight-line distance in squares, diagonal = 1 (Chebyshev), ignoring walls.
    pub fn distance(a: Square, b: Square) -> u32 {
        let dx = (i64::from(a.x) - i64::from(b.x)).unsigned_abs();
        let dy = (i64::from(a.y) - i64::from(b.y)).unsigned_abs();
        // Two i32 differ by at most u32::MAX, so this never saturates.
        u32::try_from(dx.max(dy)).unwrap_or(u32::MAX)
    }

    /// Shortest walking path from `from` to `to`, excluding `from` (empty if they are the same square), or `None` if
    /// either square is impassable or no path joins them.
    ///
    /// A* over [`Self::steps`] with [`Self::step_cost`]; ties are broken by square index and by the fixed neighbour
    /// order, so the same map always gives the same path.
    pub fn path(&self, from: Square, to: Square) -> Option<Vec<Square>> {
        if !self.passable(from) || !self.passable(to) {
            return None;
        }
        let (start, goal) = (self.index(from)?, self.index(to)?);
        if start == goal {
            return Some(Vec::new());
        }
        let mut best = vec![u32::MAX; self.cells.len()];
        let mut came_from: Vec<Option<usize>> = vec![None; self.cells.len()];
        // Chebyshev distance never overestimates: every step moves at most one square and costs at least one.
        let estimate = |s: Square| Self::distance(s, to);
        let mut open = BinaryHeap::new();
        best[start] = 0;
        open.push(Reverse((estimate(from), start)));
        while let Some(Reverse((guess, index))) = open.pop() {
            if index == goal {
                break;
            }
            let here = self.square(index);
            let cost_here = best[index];
            if guess > cost_here.saturating_add(estimate(here)) {
                continue; // a cheaper way here was found after this entry was queued
            }
            for next in self.steps(here) {
                let Some(next_index) = self.index(next) else { continue };
                let cost = cost_here.saturating_add(self.step_cost(next));
                if cost < best[next_index] {
                    best[next_index] = cost;
                    came_from[next_index] = Some(index);
                    open.push(Reverse((cost.saturating_add(estimate(next)), next_index)));
                }
            }
        }
        let mut path = Vec::new();
        let mut at = goal;
        while at != start {
            path.push(self.square(at));
            at = came_from[at]?;
        }
        path.reverse();
        Some(path)
    }

    /// Every edge of the walking graph as (index, index) pairs with a < b, sorted, for building a zone-style graph.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut edges = Vec::new();
        for index in 0..self.cells.len() {
            for next in self.steps(self.square(index)) {
                if let Some(next_index) = self.index(next)
                    && index < next_index
                {
                    edges.push((index, next_index));
                }
            }
        }
        edges.sort_unstable();
        edges
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s_grid_1_walls_block_movement() {
        let map = GridMap::parse(&["...", "###", "..."]).unwrap();
        assert_eq!(map.steps(Square::new(1, 0)).filter(|s| s.y == 1).count(), 0);
        assert_eq!(map.path(Square::new(0, 0), Square::new(0, 2)), None);
    }

    #[test]
    fn s_grid_1_one_square_gap_lets_units_through() {
        let map = GridMap::parse(&["...", "#.#", "..."]).unwrap();
        let gap = Square::new(1, 1);
        assert_eq!(map.path(Square::new(1, 0), Square::new(1, 2)), Some(vec![gap, Square::new(1, 2)]));
        // From the side the gap's wall corners forbid diagonals, so the way is straight through it.
        let path = map.path(Square::new(0, 0), Square::new(0, 2)).unwrap();
        assert_eq!(path, vec![Square::new(1, 0), gap, Square::new(1, 2), Square::new(0, 2)]);
    }

    #[test]
    fn s_grid_1_diagonal_corner_cutting_refused() {
        let map = GridMap::parse(&[".#", ".."]).unwrap();
        let steps: Vec<Square> = map.steps(Square::new(0, 0)).collect();
        assert_eq!(steps, vec![Square::new(0, 1)], "no diagonal past the wall's corner");
        assert_eq!(map.path(Square::new(0, 0), Square::new(1, 1)).unwrap().len(), 2);
        let open = GridMap::new(2, 2).unwrap();
        assert_eq!(open.path(Square::new(0, 0), Square::new(1, 1)), Some(vec![Square::new(1, 1)]));
    }

    #[test]
    fn s_grid_1_difficult_terrain_costs_two() {
        let map = GridMap::parse(&["...", "~~~", "..."]).unwrap();
        assert_eq!(map.step_cost(Square::new(0, 1)), DIFFICULT_STEP_COST);
        assert_eq!(map.step_cost(Square::new(0, 0)), STEP_COST);
        // A detour around mud costs more than wading: the path crosses it.
        let path = map.path(Square::new(1, 0), Square::new(1, 2)).unwrap();
        let cost: u32 = path.iter().map(|&s| map.step_cost(s)).sum();
        assert_eq!(cost, DIFFICULT_STEP_COST + STEP_COST);
        // A cheap detour is preferred to a long stretch of mud.
        let map = GridMap::parse(&["~~~~", "....", "~~~~"]).unwrap();
        let path = map.path(Square::new(0, 0), Square::new(3, 0)).unwrap();
        assert_eq!(path.iter().map(|&s| map.step_cost(s)).sum::<u32>(), STEP_COST * 2 + DIFFICULT_STEP_COST);
    }

    #[test]
    fn s_grid_1_edges_match_steps() {
        let map = GridMap::parse(&[".#", ".."]).unwrap();
        assert_eq!(map.edges(), vec![(0, 2), (2, 3)]);
        assert_eq!(GridMap::new(2, 2).unwrap().edges().len(), 6);
    }

    #[test]
    fn s_grid_1_distance_is_chebyshev() {
        assert_eq!(GridMap::distance(Square::new(0, 0), Square::new(3, -5)), 5);
        assert_eq!(GridMap::distance(Square::new(i32::MIN, 0), Square::new(i32::MAX, 0)), u32::MAX);
    }
}
