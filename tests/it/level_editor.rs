//! The level editor's edits, undo stack and saves, without a window: every level it saves
//! passes the same checker as `fray check` and loads back to the same `LevelFile`, saving twice
//! gives the same bytes, and brush, line, rectangle, fill and resize paint what they should.

use std::path::{Path, PathBuf};

use fray::levels::catalog::{AssetSource, parse};
use fray::levels::edit::{self, Concern, History, Place, Terrain};
use fray::levels::load::check_level_text;
use fray::levels::mods::ModSet;
use fray::levels::schema::LevelFile;
use fray::levels::starter::StarterField;
use proptest::prelude::*;

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("levels")
}

/// Saves `level` as the editor does, checks the text with `fray check`'s checker and loads it
/// back; returns the saved text.
fn save_check_reload(level: &LevelFile) -> String {
    let path = levels_dir().join("edited.ron");
    let text = edit::save_text(level).expect("a level serialises");
    if let Err(errors) = check_level_text(&text, &path, &AssetSource::near(&path, &ModSet::default())) {
        panic!("the saved level fails the checker:\n{errors}\n{text}");
    }
    let back: LevelFile = parse(&text, &path).expect("the saved text parses");
    assert_eq!(&back, level, "the saved level loads back the same");
    assert_eq!(edit::save_text(&back).expect("serialises"), text, "saving again gives the same bytes");
    text
}

#[test]
fn every_shipped_level_round_trips_through_a_save() {
    let mut count = 0;
    for entry in std::fs::read_dir(levels_dir()).expect("levels/ exists") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|ext| ext != "ron") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let level: LevelFile = parse(&text, &path).expect("a shipped level parses");
        let saved = save_check_reload(&level);
        // Comments are the one thing a save drops: the hand-written file keeps them.
        assert!(!saved.contains("//"), "{}: a save writes no comments", path.display());
        count += 1;
    }
    assert!(count >= 10, "only {count} levels in levels/");
}

#[test]
fn new_grid_and_zone_levels_pass_the_checker() {
    for ruleset in ["stress_and_wounds", "zones_and_tests", "shock_and_cover", "aimed_wounds", "crucible"] {
        for field in [StarterField::Grid { width: 10, height: 8 }, StarterField::Zones(3)] {
            let level = edit::new_level(ruleset, field).expect("a starter level");
            save_check_reload(&level);
        }
    }
}

fn rows(text: &[&str]) -> Vec<String> {
    text.iter().map(ToString::to_string).collect()
}

#[test]
fn a_line_steps_one_square_at_a_time_between_its_ends() {
    assert_eq!(edit::line((0, 0), (3, 0)), vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
    assert_eq!(edit::line((2, 2), (0, 0)), vec![(2, 2), (1, 1), (0, 0)]);
    assert_eq!(edit::line((1, 1), (1, 1)), vec![(1, 1)]);
    let steep = edit::line((0, 0), (2, 5));
    assert_eq!(steep.first(), Some(&(0, 0)));
    assert_eq!(steep.last(), Some(&(2, 5)));
    assert_eq!(steep.len(), 6, "one square per row on a steep line");
    assert!(steep.windows(2).all(|pair| (pair[0].0 - pair[1].0).abs() <= 1 && (pair[0].1 - pair[1].1).abs() <= 1));
}

#[test]
fn a_rectangle_is_its_outline_or_all_its_squares() {
    assert_eq!(edit::rectangle((2, 1), (0, 0), true).len(), 6);
    let outline = edit::rectangle((0, 0), (3, 3), false);
    assert_eq!(outline.len(), 12);
    assert!(!outline.contains(&(1, 1)) && !outline.contains(&(2, 2)));
    let mut map = rows(&["....", "....", "....", "...."]);
    assert!(edit::paint(&mut map, &outline, Terrain::Wall));
    assert_eq!(map, rows(&["####", "#..#", "#..#", "####"]));
}

#[test]
fn fill_repaints_the_connected_region_only() {
    let mut map = rows(&["..#..", "..#..", "###..", "~...."]);
    let region = edit::fill_region(&map, (0, 0));
    assert_eq!(region, vec![(0, 0), (1, 0), (0, 1), (1, 1)]);
    edit::paint(&mut map, &region, Terrain::Difficult);
    assert_eq!(map, rows(&["~~#..", "~~#..", "###..", "~...."]));
    assert!(edit::fill_region(&map, (9, 9)).is_empty(), "off the map fills nothing");
    assert!(!edit::paint(&mut map, &[(0, 0)], Terrain::Difficult), "painting the same ground changes nothing");
}

#[test]
fn resizing_cuts_or_adds_open_floor_at_the_right_and_bottom() {
    let mut map = rows(&["###", "#.#", "###"]);
    edit::resize(&mut map, 5, 4);
    assert_eq!(map, rows(&["###..", "#.#..", "###..", "....."]));
    edit::resize(&mut map, 2, 2);
    assert_eq!(map, rows(&["##", "#."]));
    assert_eq!(edit::grid_size(&map), (2, 2));
}

#[test]
fn zones_rename_connect_and_disconnect_everywhere_they_are_named() {
    let mut level = edit::new_level("crucible", StarterField::Zones(2)).expect("starter");
    let added = edit::add_zone(&mut level, (0.0, 1.0));
    assert_eq!(added, "zone-1");
    assert!(edit::toggle_adjacent(&mut level, "zone_2", &added));
    assert!(edit::adjacent(&level, &added, "zone_2"));
    assert!(edit::rename_zone(&mut level, "zone_2", "keep"));
    assert!(edit::adjacent(&level, "keep", "zone_1") && edit::adjacent(&level, "keep", &added));
    assert!(level.units.iter().any(|unit| unit.zone == "keep"), "units follow their zone's new id");
    assert!(!edit::rename_zone(&mut level, "keep", "zone_1"), "a taken id is refused");
    assert!(edit::toggle_adjacent(&mut level, &added, "keep"));
    assert!(!edit::adjacent(&level, "keep", &added));
    assert!(edit::remove_zone(&mut level, &added));
    save_check_reload(&level);
}

#[test]
fn undo_and_redo_restore_the_exact_states() {
    let start = edit::new_level("stress_and_wounds", StarterField::Grid { width: 8, height: 6 }).expect("starter");
    let mut level = start.clone();
    let mut history = History::default();
    let mut states = vec![level.clone()];
    for x in 2..5 {
        history.record(level.clone());
        let grid = level.grid.as_mut().expect("a grid");
        edit::paint(&mut grid.rows, &[(x, 2)], Terrain::Wall);
        states.push(level.clone());
    }
    history.record(level.clone());
    edit::add_unit(&mut level, "goblin", "raiders", Place::Square((3, 4)));
    states.push(level.clone());
    for expected in states.iter().rev().skip(1) {
        level = history.undo(&level).expect("an edit to undo");
        assert_eq!(&level, expected);
    }
    assert!(!history.can_undo());
    assert_eq!(level, start);
    for expected in states.iter().skip(1) {
        level = history.redo(&level).expect("an edit to redo");
        assert_eq!(&level, expected);
    }
    assert!(!history.can_redo());
    level = history.undo(&level).expect("undo");
    history.record(level.clone());
    assert!(!history.can_redo(), "a new edit drops what could be redone");
}

#[test]
fn checker_messages_name_what_to_highlight() {
    let mut level = edit::new_level("crucible", StarterField::Grid { width: 8, height: 6 }).expect("starter");
    edit::add_unit(&mut level, "goblin", "raiders", Place::Square((1, 2)));
    let path = levels_dir().join("edited.ron");
    let text = edit::save_text(&level).expect("serialises");
    let errors = check_level_text(&text, &path, &AssetSource::near(&path, &ModSet::default()))
        .expect_err("two units on one square");
    let concerns: Vec<Concern> = errors.0.iter().flat_map(|error| edit::concerns(&error.to_string())).collect();
    assert!(concerns.contains(&Concern::Square((1, 2))), "{concerns:?} from {errors}");
}

/// One random edit the editor can make that keeps a level playable.
#[derive(Clone, Debug)]
enum Edit {
    Brush(i32, i32, usize),
    Line(i32, i32, i32, i32, usize),
    Rect(i32, i32, i32, i32, bool, usize),
    Fill(i32, i32, usize),
    AddUnit(i32, i32, bool),
    MoveUnit(usize, i32, i32),
    Grow(usize, usize),
    Seed(Option<u64>),
}

fn an_edit() -> impl Strategy<Value = Edit> {
    let terrain = 0..Terrain::ALL.len();
    prop_oneof![
        (0..12, 0..10, terrain.clone()).prop_map(|(x, y, t)| Edit::Brush(x, y, t)),
        (0..12, 0..10, 0..12, 0..10, terrain.clone()).prop_map(|(a, b, c, d, t)| Edit::Line(a, b, c, d, t)),
        (0..12, 0..10, 0..12, 0..10, any::<bool>(), terrain.clone())
            .prop_map(|(a, b, c, d, f, t)| Edit::Rect(a, b, c, d, f, t)),
        (0..12, 0..10, terrain).prop_map(|(x, y, t)| Edit::Fill(x, y, t)),
        (0..12, 0..10, any::<bool>()).prop_map(|(x, y, side)| Edit::AddUnit(x, y, side)),
        (0..8_usize, 0..12, 0..10).prop_map(|(unit, x, y)| Edit::MoveUnit(unit, x, y)),
        (0..3_usize, 0..3_usize).prop_map(|(w, h)| Edit::Grow(w, h)),
        proptest::option::of(any::<u64>()).prop_map(Edit::Seed),
    ]
}

/// Paints `squares` except where units stand (a unit on a wall is the checker's error, and
/// the property is about saves of playable levels).
fn paint_free(level: &mut LevelFile, squares: &[(i32, i32)], terrain: usize) {
    let taken: Vec<(i32, i32)> = level.units.iter().filter_map(|unit| unit.at).collect();
    let free: Vec<(i32, i32)> = squares.iter().copied().filter(|square| !taken.contains(square)).collect();
    let grid = level.grid.as_mut().expect("a grid level");
    edit::paint(&mut grid.rows, &free, Terrain::ALL[terrain]);
}

/// Whether `square` is open floor with nobody on it.
fn free_floor(level: &LevelFile, square: (i32, i32)) -> bool {
    let rows = &level.grid.as_ref().expect("a grid level").rows;
    edit::symbol_at(rows, square) == Some('.') && level.units.iter().all(|unit| unit.at != Some(square))
}

fn apply(level: &mut LevelFile, change: &Edit) {
    match *change {
        Edit::Brush(x, y, t) => paint_free(level, &[(x, y)], t),
        Edit::Line(a, b, c, d, t) => paint_free(level, &edit::line((a, b), (c, d)), t),
        Edit::Rect(a, b, c, d, filled, t) => paint_free(level, &edit::rectangle((a, b), (c, d), filled), t),
        Edit::Fill(x, y, t) => {
            let region = edit::fill_region(&level.grid.as_ref().expect("grid").rows, (x, y));
            paint_free(level, &region, t);
        }
        Edit::AddUnit(x, y, heroes) if free_floor(level, (x, y)) => {
            let (creature, side) = if heroes { ("human_fighter", "heroes") } else { ("goblin", "raiders") };
            edit::add_unit(level, creature, side, Place::Square((x, y)));
        }
        Edit::MoveUnit(unit, x, y) if free_floor(level, (x, y)) => {
            if let Some(id) = level.units.get(unit).map(|unit| unit.id.clone()) {
                edit::move_unit(level, &id, Place::Square((x, y)));
            }
        }
        Edit::Grow(w, h) => {
            let grid = level.grid.as_mut().expect("grid");
            let (width, height) = edit::grid_size(&grid.rows);
            edit::resize(&mut grid.rows, width + w, height + h);
        }
        Edit::Seed(seed) => level.seed = seed,
        Edit::AddUnit(..) | Edit::MoveUnit(..) => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any run of edits that keeps a level playable saves a file `fray check` passes, which
    /// loads back to the same level and saves to the same bytes; undoing every edit gives back
    /// the level it started from.
    #[test]
    fn random_edits_save_checked_stable_files(edits in proptest::collection::vec(an_edit(), 1..24)) {
        let start = edit::new_level("stress_and_wounds", StarterField::Grid { width: 10, height: 8 }).expect("starter");
        let mut level = start.clone();
        let mut history = History::default();
        for change in &edits {
            history.record(level.clone());
            apply(&mut level, change);
        }
        save_check_reload(&level);
        while let Some(previous) = history.undo(&level) {
            level = previous;
        }
        prop_assert_eq!(level, start);
    }
}
