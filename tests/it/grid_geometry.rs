//! Properties of the square grid (`S-GRID-1`, `S-LOS-1`, `S-COVER-1`) over random small maps: sight is symmetric,
//! cover only worsens as walls are added, paths are valid and cheapest, and distance is a metric.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use fray::battlefield::grid::{Cover, GridMap, Square, Terrain};
use proptest::prelude::*;

/// Largest side of a random map.
const MAX_SIDE: u16 = 12;

/// Relative weights of open, wall, slit and difficult squares in random maps.
const TERRAIN_WEIGHTS: [(u32, Terrain); 4] =
    [(6, Terrain::Open), (2, Terrain::Wall), (1, Terrain::Slit), (1, Terrain::Difficult)];

/// Bound on random coordinates for the distance properties; far beyond any map, small enough to sum in u64.
const COORDINATE_LIMIT: i32 = 1_000_000;

fn terrain() -> impl Strategy<Value = Terrain> {
    prop::strategy::Union::new_weighted(TERRAIN_WEIGHTS.iter().map(|&(weight, t)| (weight, Just(t).boxed())).collect())
}

/// A random map of up to `MAX_SIDE` × `MAX_SIDE` squares with walls, slits and mud.
fn map() -> impl Strategy<Value = GridMap> {
    (1..=MAX_SIDE, 1..=MAX_SIDE).prop_flat_map(|(width, height)| {
        prop::collection::vec(terrain(), usize::from(width) * usize::from(height)).prop_map(move |cells| {
            let mut map = GridMap::new(width, height).expect("sides are within MAX_SQUARES");
            for (index, t) in cells.into_iter().enumerate() {
                map.set(map.square(index), t);
            }
            map
        })
    })
}

/// The squares of `map` that satisfy `keep`, in index order.
fn squares_where(map: &GridMap, keep: impl Fn(Square) -> bool) -> Vec<Square> {
    let count = usize::from(map.width()) * usize::from(map.height());
    (0..count).map(|index| map.square(index)).filter(|&s| keep(s)).collect()
}

/// Picks one of `squares` by a random selector, or `None` if there are none.
fn pick(squares: &[Square], selector: prop::sample::Index) -> Option<Square> {
    (!squares.is_empty()).then(|| squares[selector.index(squares.len())])
}

/// How bad cover is for the target, not seeing it at all being worst.
fn badness(cover: Option<Cover>) -> u8 {
    match cover {
        Some(Cover::None) => 0,
        Some(Cover::Half) => 1,
        Some(Cover::Full) => 2,
        None => 3,
    }
}

/// Reference Dijkstra over `steps` and `step_cost`: the cheapest cost from `from` to every square (by index).
fn cheapest_costs(map: &GridMap, from: Square) -> Vec<Option<u32>> {
    let count = usize::from(map.width()) * usize::from(map.height());
    let mut best: Vec<Option<u32>> = vec![None; count];
    let Some(start) = map.index(from) else { return best };
    best[start] = Some(0);
    let mut queue = BinaryHeap::from([Reverse((0, start))]);
    while let Some(Reverse((cost, index))) = queue.pop() {
        if best[index].is_some_and(|known| known < cost) {
            continue;
        }
        for next in map.steps(map.square(index)) {
            let next_index = map.index(next).expect("steps stay on the map");
            let next_cost = cost + map.step_cost(next);
            if best[next_index].is_none_or(|known| next_cost < known) {
                best[next_index] = Some(next_cost);
                queue.push(Reverse((next_cost, next_index)));
            }
        }
    }
    best
}

fn square_anywhere() -> impl Strategy<Value = Square> {
    (-COORDINATE_LIMIT..=COORDINATE_LIMIT, -COORDINATE_LIMIT..=COORDINATE_LIMIT).prop_map(|(x, y)| Square { x, y })
}

proptest! {
    #[test]
    fn s_los_1_line_of_sight_is_symmetric(
        map in map(),
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
    ) {
        let passable = squares_where(&map, |s| map.passable(s));
        let (Some(a), Some(b)) = (pick(&passable, a), pick(&passable, b)) else { return Ok(()) };
        prop_assert_eq!(map.line_of_sight(a, b), map.line_of_sight(b, a), "{:?} {:?}\n{:#?}", a, b, map.to_rows());
        // Cover and sight agree: a target is visible exactly when it has some cover value.
        prop_assert_eq!(map.cover(a, b).is_some(), map.line_of_sight(a, b));
    }

    #[test]
    fn s_cover_1_open_map_never_gives_cover(
        width in 1..=MAX_SIDE,
        height in 1..=MAX_SIDE,
        mud in prop::collection::vec(any::<bool>(), usize::from(MAX_SIDE) * usize::from(MAX_SIDE)),
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
    ) {
        let mut map = GridMap::new(width, height).expect("small map");
        let count = usize::from(width) * usize::from(height);
        for (index, &muddy) in mud.iter().take(count).enumerate() {
            if muddy {
                map.set(map.square(index), Terrain::Difficult);
            }
        }
        let all = squares_where(&map, |_| true);
        let (Some(a), Some(b)) = (pick(&all, a), pick(&all, b)) else { return Ok(()) };
        prop_assert_eq!(map.cover(a, b), Some(Cover::None), "{:?} {:?} on {}×{}", a, b, width, height);
    }

    #[test]
    fn s_cover_1_moving_into_the_open_never_improves_cover(
        map in map(),
        attacker in any::<prop::sample::Index>(),
        target in any::<prop::sample::Index>(),
        changed in any::<prop::sample::Index>(),
    ) {
        // Removing a wall or slit never worsens cover; adding a wall never improves it.
        let passable = squares_where(&map, |s| map.passable(s));
        let (Some(attacker), Some(target)) = (pick(&passable, attacker), pick(&passable, target)) else {
            return Ok(());
        };
        let before = badness(map.cover(attacker, target));

        let solid = squares_where(&map, |s| matches!(map.terrain(s), Terrain::Wall | Terrain::Slit));
        if let Some(removed) = pick(&solid, changed) {
            let mut opened = map.clone();
            opened.set(removed, Terrain::Open);
            let after = badness(opened.cover(attacker, target));
            prop_assert!(after <= before, "opening {:?}: {} -> {}\n{:#?}", removed, before, after, map.to_rows());
        }

        let others = squares_where(&map, |s| s != attacker && s != target && map.terrain(s) != Terrain::Wall);
        if let Some(added) = pick(&others, changed) {
            let mut walled = map.clone();
            walled.set(added, Terrain::Wall);
            let after = badness(walled.cover(attacker, target));
            prop_assert!(after >= before, "walling {:?}: {} -> {}\n{:#?}", added, before, after, map.to_rows());
        }
    }

    #[test]
    fn s_grid_1_paths_never_cross_walls(
        map in map(),
        from in any::<prop::sample::Index>(),
        to in any::<prop::sample::Index>(),
    ) {
        let passable = squares_where(&map, |s| map.passable(s));
        let (Some(from), Some(to)) = (pick(&passable, from), pick(&passable, to)) else { return Ok(()) };
        let cheapest = cheapest_costs(&map, from)[map.index(to).expect("on the map")];
        let path = map.path(from, to);
        prop_assert_eq!(path.is_some(), cheapest.is_some(), "a path exists iff the squares are connected");
        let Some(path) = path else { return Ok(()) };
        let mut at = from;
        for &next in &path {
            prop_assert!(map.passable(next), "{:?} is not passable", next);
            prop_assert!(map.steps(at).any(|s| s == next), "{:?} -> {:?} is not a step", at, next);
            if next.x != at.x && next.y != at.y {
                let corners = [Square { x: next.x, y: at.y }, Square { x: at.x, y: next.y }];
                prop_assert!(corners.iter().all(|&c| map.passable(c)), "{:?} -> {:?} cuts a corner", at, next);
            }
            at = next;
        }
        prop_assert_eq!(at, to);
        let cost: u32 = path.iter().map(|&s| map.step_cost(s)).sum();
        prop_assert_eq!(Some(cost), cheapest);
        // The same question always gets the same answer.
        prop_assert_eq!(map.path(from, to), Some(path));
    }

    #[test]
    fn s_grid_1_distance_is_a_symmetric_metric(a in square_anywhere(), b in square_anywhere(), c in square_anywhere()) {
        let d = |p, q| u64::from(GridMap::distance(p, q));
        prop_assert_eq!(d(a, b), d(b, a));
        prop_assert!(d(a, c) <= d(a, b) + d(b, c));
        prop_assert_eq!(d(a, a), 0);
    }

    #[test]
    fn s_grid_1_edges_are_the_steps(map in map()) {
        let edges = map.edges();
        for &(a, b) in &edges {
            prop_assert!(a < b);
            prop_assert!(map.steps(map.square(a)).any(|s| s == map.square(b)));
            prop_assert!(map.steps(map.square(b)).any(|s| s == map.square(a)), "steps are symmetric");
        }
        let step_count: usize = squares_where(&map, |_| true).into_iter().map(|s| map.steps(s).count()).sum();
        prop_assert_eq!(step_count, 2 * edges.len());
    }

    #[test]
    fn s_grid_1_parse_never_panics(rows in prop::collection::vec("[.#|=~x]{0,6}", 0..6)) {
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        if let Ok(map) = GridMap::parse(&rows) {
            prop_assert_eq!(usize::from(map.height()), rows.len());
        }
    }
}
