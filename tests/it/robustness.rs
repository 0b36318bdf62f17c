//! No input makes the loaders panic: arbitrary bytes, every truncation and random one-character
//! mutations of the shipped levels, hostile numbers and sizes, and the dice parser.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fray::levels::catalog::AssetSource;
use fray::levels::mods::ModSet;
use fray::levels::{BattleTemplate, LoadError, LoadErrors, load_level, load_level_text};
use fray::rules::dice::{Dice, MAX_DICE, MAX_MODIFIER, MAX_SIDES};
use proptest::prelude::*;

const DUEL: &str = include_str!("../../levels/duel.ron");
const AMBUSH: &str = include_str!("../../levels/ambush.ron");
const REINFORCEMENTS: &str = include_str!("../../levels/reinforcements.ron");
const SHIPPED: [(&str, &str); 3] = [("duel.ron", DUEL), ("ambush.ron", AMBUSH), ("reinforcements.ron", REINFORCEMENTS)];

/// Generous bound for one load in a debug build; catches a quadratic blow-up, not jitter.
const SLOW: Duration = Duration::from_secs(30);

fn load(text: &str) -> Result<BattleTemplate, LoadErrors> {
    load_level_text(text, Path::new("fuzz.ron"), &AssetSource::default())
}

/// Every error carries a sane location: 1-based and inside the text (or just past its end).
fn assert_locations_inside(text: &str, errors: &LoadErrors) {
    assert!(!errors.0.is_empty(), "an Err must carry at least one error");
    let lines: Vec<&str> = text.split('\n').collect();
    for error in &errors.0 {
        let (line, column) = match error {
            LoadError::Syntax { line, column, .. } | LoadError::Invalid { line, column, .. } => (*line, *column),
            LoadError::Unreadable { .. } => continue,
        };
        assert!(line >= 1 && column >= 1, "positions are 1-based: {error}");
        assert!(line <= lines.len(), "line {line} is past the end of a {}-line text: {error}", lines.len());
        let width = lines[line - 1].chars().count();
        assert!(column <= width + 1, "column {column} is past the end of line {line} ({width} chars): {error}");
    }
}

/// Loads `text`; an error must be well formed. Returns whether it loaded.
fn load_checked(text: &str) -> bool {
    match load(text) {
        Ok(_) => true,
        Err(errors) => {
            assert_locations_inside(text, &errors);
            false
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Deterministic: truncations of the shipped levels
// ---------------------------------------------------------------------------------------------

#[test]
fn shipped_levels_load() {
    for (name, text) in SHIPPED {
        let template = load(text).unwrap_or_else(|errors| panic!("{name} should load:\n{errors}"));
        assert!(template.units.len() >= 2, "{name}");
    }
}

#[test]
fn every_truncation_of_the_shipped_levels_is_an_error_not_a_panic() {
    for (name, text) in SHIPPED {
        let closing = text.rfind(')').expect("a level ends with `)`");
        let mut cuts = 0;
        for (at, _) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            let prefix = &text[..at];
            let loaded = load_checked(prefix);
            if at <= closing {
                assert!(!loaded, "{name} cut at byte {at} (before its closing paren) should not load");
            } else {
                assert!(loaded, "{name} cut at byte {at} (after its closing paren) should still load");
            }
            cuts += 1;
        }
        assert_eq!(cuts, text.chars().count() + 1, "{name}");
    }
}

#[test]
fn every_single_line_removal_of_ambush_is_handled() {
    let lines: Vec<&str> = AMBUSH.lines().collect();
    for skip in 0..lines.len() {
        let text: String =
            lines.iter().enumerate().filter(|(at, _)| *at != skip).map(|(_, line)| format!("{line}\n")).collect();
        load_checked(&text);
    }
}

// ---------------------------------------------------------------------------------------------
// Deterministic: hostile levels
// ---------------------------------------------------------------------------------------------

/// The duel with `extra` inserted among Ruusa's fields.
fn duel_with_unit_fields(extra: &str) -> String {
    let anchor = "weapon: Some(\"spear\"),\n";
    assert_eq!(DUEL.matches(anchor).count(), 1);
    DUEL.replacen(anchor, &format!("{anchor}            {extra}\n"), 1)
}

#[test]
fn hostile_largest_speed_loads() {
    let text = duel_with_unit_fields("speed: Some(4294967295),");
    let template = load(&text).unwrap_or_else(|errors| panic!("u32::MAX speed is legal:\n{errors}"));
    assert_eq!(template.units[0].speed.0, u32::MAX);
}

#[test]
fn hostile_speed_past_u32_is_an_error() {
    let text = duel_with_unit_fields("speed: Some(4294967296),");
    let errors = load(&text).expect_err("speed does not fit in u32");
    assert_locations_inside(&text, &errors);
}

#[test]
fn hostile_huge_hit_dice_are_an_error() {
    // Within what a dice expression may say, but far more dice than a level may give a unit.
    let text = duel_with_unit_fields("hd: Some(\"1000d1000000\"),");
    let errors = load(&text).expect_err("1000 Hit Dice are absurd");
    assert_locations_inside(&text, &errors);
    assert!(errors.to_string().contains("Hit Dice 1000d1000000 are more than"), "{errors}");

    // Past what a dice expression may say at all.
    for hd in ["1001d6", "1d1000001", "1d6+1000001", "99999999999999999999999d6", "1d6-99999999999999999999"] {
        let text = duel_with_unit_fields(&format!("hd: Some(\"{hd}\"),"));
        let errors = load(&text).expect_err(hd);
        assert_locations_inside(&text, &errors);
    }
}

#[test]
fn hostile_largest_allowed_hit_dice_load() {
    let text = duel_with_unit_fields("hd: Some(\"100d1000000+1000000\"),");
    let template = load(&text).unwrap_or_else(|errors| panic!("100 Hit Dice are allowed:\n{errors}"));
    assert!(template.units[0].stress.max > 0);
}

#[test]
fn hostile_zero_capacity_is_fine_when_empty_and_an_error_when_occupied() {
    let empty = DUEL.replacen("(id: \"courtyard\",", "(id: \"courtyard\", capacity: Some(0),", 1);
    load(&empty).unwrap_or_else(|errors| panic!("an empty zone may have no room:\n{errors}"));
    let occupied = DUEL.replacen("(id: \"east_gate\",", "(id: \"east_gate\", capacity: Some(0),", 1);
    let errors = load(&occupied).expect_err("Ruusa starts in a zone with no room");
    assert!(errors.to_string().contains("capacity is 0"), "{errors}");
}

#[test]
fn hostile_extreme_but_typed_numbers_load_or_error() {
    for extra in [
        "arrives: Some((round: 4294967295, at_initiative: Some(-2147483648))),",
        "arrives: Some((round: 1, at_initiative: Some(2147483647))),",
        "items: Some([(\"healing_draught\", 4294967295)]),",
        "skills: Some((attack: 2147483647, heal: -2147483648, intimidation: 2147483647, spellcasting: -2147483648)),",
        "hd: Some(\"-1000000\"),",
        "hd: Some(\"1000000\"),",
        "hd: Some(\"d%\"),",
        "name: Some(\"\"),",
        "initiative_group: Some(\"\"),",
        "spells: Some([]),",
        "items: Some([]),",
        "items: Some([(\"healing_draught\", 0)]),",
    ] {
        let text = duel_with_unit_fields(extra);
        if let Err(errors) = load(&text) {
            assert_locations_inside(&text, &errors);
        }
    }
    let seeded = DUEL.replacen("seed: Some(7),", "seed: Some(18446744073709551615),", 1);
    assert_eq!(load(&seeded).expect("u64::MAX seed").seed, Some(u64::MAX));
}

#[test]
fn hostile_empty_and_degenerate_levels_are_errors() {
    for text in [
        "()",
        "(name: \"\")",
        "(name: \"x\", zones: [], sides: [], units: [])",
        "(name: \"x\", zones: [(id: \"a\")], sides: [(name: \"s\")], units: [])",
        "(name: \"x\", zones: [(id: \"a\", adjacent: [\"a\"])], sides: [(name: \"s\"), (name: \"s\")], units: [])",
        "(name: \"x\", ruleset: \"\", zones: [(id: \"\")], sides: [(name: \"\")], units: [(id: \"\", creature: \"\", side: \"\", zone: \"\")])",
        "(name: \"x\", ruleset: \"no-such-ruleset.ron\", zones: [(id: \"a\")], sides: [], units: [])",
    ] {
        let errors = load(text).expect_err(text);
        assert_locations_inside(text, &errors);
    }
}

/// A level of `zones` zones in a chain (or unconnected), two wolves in the first two zones.
fn many_zones(zones: usize, connected: bool, missing_neighbours: bool) -> String {
    let mut text = String::from("(\n    name: \"Many zones\",\n    zones: [\n");
    for at in 0..zones {
        let mut adjacent = Vec::new();
        if connected && at + 1 < zones {
            adjacent.push(format!("\"z{}\"", at + 1));
        }
        if missing_neighbours {
            adjacent.push(format!("\"missing{at}\""));
        }
        text.push_str(&format!("        (id: \"z{at}\", adjacent: [{}], capacity: Some(2)),\n", adjacent.join(", ")));
    }
    text.push_str(
        "    ],\n    sides: [(name: \"a\"), (name: \"b\")],\n    units: [\n        \
         (id: \"u1\", creature: \"wolf\", side: \"a\", zone: \"z0\"),\n        \
         (id: \"u2\", creature: \"wolf\", side: \"b\", zone: \"z1\"),\n    ],\n)\n",
    );
    text
}

#[test]
fn hostile_two_thousand_zones_load_quickly() {
    let text = many_zones(2_000, true, false);
    let started = Instant::now();
    let template = load(&text).unwrap_or_else(|errors| panic!("a 2000-zone chain is legal:\n{errors}"));
    assert!(started.elapsed() < SLOW, "took {:?}", started.elapsed());
    assert_eq!(template.battlefield.len(), 2_000);
}

#[test]
fn hostile_too_many_zones_is_an_error() {
    // One past the 16-bit limit, unconnected so the error path stays linear.
    let zones = fray::levels::load::MAX_ZONES + 1;
    let text = many_zones(zones, false, false);
    let started = Instant::now();
    let errors = load(&text).expect_err("more zones than a zone index can hold");
    assert!(started.elapsed() < SLOW, "took {:?}", started.elapsed());
    assert!(errors.to_string().contains(&format!("the level has {zones} zones; at most")), "{errors}");
}

#[test]
fn hostile_thousand_missing_neighbours_are_all_reported() {
    let text = many_zones(1_000, true, true);
    let started = Instant::now();
    let errors = load(&text).expect_err("every zone names a missing neighbour");
    assert!(started.elapsed() < SLOW, "took {:?}", started.elapsed());
    assert_eq!(errors.0.len(), 1_000, "one error per missing neighbour");
    assert_locations_inside(&text, &errors);
}

#[test]
fn hostile_deep_nesting_is_an_error() {
    for depth in [64, 10_000] {
        let text = format!("{}{}", "(".repeat(depth), ")".repeat(depth));
        let errors = load(&text).expect_err("nested parens are not a level");
        assert_locations_inside(&text, &errors);
        let text = format!("(name: \"x\", zones: {}{}", "[".repeat(depth), "]".repeat(depth));
        let errors = load(&text).expect_err("nested lists are not zones");
        assert_locations_inside(&text, &errors);
    }
}

#[test]
fn hostile_long_names_are_handled() {
    let long = "x".repeat(5_000);
    let text = DUEL.replacen("id: \"ruusa\"", &format!("id: \"{long}\""), 1);
    load(&text).unwrap_or_else(|errors| panic!("a long unit id is legal:\n{errors}"));
    let text = DUEL.replacen("zone: \"east_gate\"", &format!("zone: \"{long}\""), 1);
    let started = Instant::now();
    let errors = load(&text).expect_err("no such zone");
    assert!(started.elapsed() < SLOW, "took {:?}", started.elapsed());
    assert_locations_inside(&text, &errors);
}

#[test]
fn hostile_ruleset_paths_are_errors() {
    for ruleset in ["/", "/dev/null/x.ron", "../../../../../../no/such/file.ron", "levels.ron", ".ron"] {
        let text = DUEL.replacen("ruleset: \"stress_and_wounds\"", &format!("ruleset: \"{ruleset}\""), 1);
        load(&text).expect_err(ruleset);
    }
}

// ---------------------------------------------------------------------------------------------
// Known bugs in src/ (ignored until fixed; run with `cargo test --test it robustness:: -- --ignored`)
// ---------------------------------------------------------------------------------------------

#[test]
fn hostile_strength_with_hit_dice_modifier_does_not_panic() {
    let text = duel_with_unit_fields("hd: Some(\"5d8+1\"), attributes: Some((strength: 2147483647)),");
    if let Err(errors) = load(&text) {
        assert_locations_inside(&text, &errors);
    }
}

#[test]
fn hostile_lowest_strength_does_not_panic() {
    let text = duel_with_unit_fields("attributes: Some((strength: -2147483648)),");
    if let Err(errors) = load(&text) {
        assert_locations_inside(&text, &errors);
    }
}

/// The duel where Varro is a level-defined `brute` with `fields` (which must include `hd`), wearing `armour`.
fn duel_with_brute(fields: &str, armour: &str) -> String {
    let brute = format!(
        "    creatures: {{\"brute\": (name: \"Brute\", weapon: \"club\", speed: 1, {fields})}},\n    victory: [],"
    );
    DUEL.replacen("    victory: [],", &brute, 1).replacen(
        "creature: \"bandit_captain\",",
        &format!("creature: \"brute\", armour: Some(\"{armour}\"),"),
        1,
    )
}

#[test]
fn hostile_creature_defense_does_not_panic() {
    let text = duel_with_brute("hd: \"1d8\", defense: 2147483647", "shield");
    if let Err(errors) = load(&text) {
        assert_locations_inside(&text, &errors);
    }
}

#[test]
fn hostile_creature_wounds_bonus_does_not_panic() {
    let text = duel_with_brute("hd: \"1d8\", wounds_bonus: 5, attributes: (strength: 2147483647)", "leather");
    if let Err(errors) = load(&text) {
        assert_locations_inside(&text, &errors);
    }
}

#[test]
fn dice_parse_of_i64_min_does_not_panic() {
    assert!(Dice::parse("-9223372036854775808").is_err());
    let text = duel_with_unit_fields("hd: Some(\"-9223372036854775808\"),");
    load(&text).expect_err("that modifier is out of range");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whole-range attribute scores, defense and wounds bonus: the bugs above, found by search.
    #[test]
    fn extreme_creature_numbers_do_not_panic(
        strength in any::<i32>(),
        defense in any::<i32>(),
        wounds_bonus in any::<i32>(),
        modifier in -MAX_MODIFIER..=MAX_MODIFIER,
    ) {
        let fields = format!(
            "hd: \"2d8{modifier:+}\", defense: {defense}, wounds_bonus: {wounds_bonus}, attributes: (strength: {strength})"
        );
        let text = duel_with_brute(&fields, "shield");
        if let Err(errors) = load(&text) {
            assert_locations_inside(&text, &errors);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

/// One character, biased towards the ones RON cares about.
fn ron_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(vec!['(', ')', '[', ']', '{', '}', ',', ':', '"', '\\', '\n', ' ', '/', '*', '0', '9', '-', '+', '.', 'd', 'e', 'r', '#']),
        1 => any::<char>(),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete,
    Insert(char),
    Replace(char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![Just(Mutation::Delete), ron_char().prop_map(Mutation::Insert), ron_char().prop_map(Mutation::Replace),]
}

/// `text` with one mutation at the char boundary chosen by `at`.
fn mutate(text: &str, at: prop::sample::Index, mutation: &Mutation) -> String {
    let boundaries: Vec<usize> = text.char_indices().map(|(offset, _)| offset).collect();
    let offset = boundaries[at.index(boundaries.len())];
    let next = offset + text[offset..].chars().next().map_or(0, char::len_utf8);
    match mutation {
        Mutation::Delete => format!("{}{}", &text[..offset], &text[next..]),
        Mutation::Insert(c) => format!("{}{c}{}", &text[..offset], &text[offset..]),
        Mutation::Replace(c) => format!("{}{c}{}", &text[..offset], &text[next..]),
    }
}

/// Text that looks like a dice expression more often than random text would.
fn dice_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ +-]?[0-9]{0,21}",
        "[ ]?[0-9]{0,5}[dD ]?([0-9]{0,8}|%)([+-][+-]?[0-9]{0,21})?[ ]?",
        "[0-9]{1,4}d[0-9]{1,7}[+-][0-9]{1,7}",
        "[-+0-9dD% \\t]{0,16}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic_the_loader(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let text = String::from_utf8_lossy(&bytes);
        load_checked(&text);
    }

    #[test]
    fn arbitrary_text_never_panics_the_loader(text in "\\PC{0,512}") {
        load_checked(&text);
    }

    #[test]
    fn one_character_mutations_of_ambush_never_panic(at in any::<prop::sample::Index>(), mutation in mutation()) {
        let text = mutate(AMBUSH, at, &mutation);
        load_checked(&text);
    }

    #[test]
    fn two_character_mutations_of_reinforcements_never_panic(
        first in (any::<prop::sample::Index>(), mutation()),
        second in (any::<prop::sample::Index>(), mutation()),
    ) {
        let text = mutate(&mutate(REINFORCEMENTS, first.0, &first.1), second.0, &second.1);
        load_checked(&text);
    }

    #[test]
    fn dice_parse_never_panics_and_round_trips(text in dice_like()) {
        if let Ok(dice) = Dice::parse(&text) {
            prop_assert!(dice.count <= MAX_DICE && dice.sides <= MAX_SIDES, "{dice:?} from {text:?}");
            prop_assert!(dice.modifier.abs() <= MAX_MODIFIER, "{dice:?} from {text:?}");
            prop_assert_eq!(dice.count == 0, dice.sides == 0, "{:?} from {:?}", dice, text);
            prop_assert_eq!(Dice::parse(&dice.to_string()), Ok(dice), "{} from {:?}", dice, text);
        }
    }

    #[test]
    fn valid_dice_print_and_parse_back(
        count in 1..=MAX_DICE,
        sides in 1..=MAX_SIDES,
        modifier in -MAX_MODIFIER..=MAX_MODIFIER,
    ) {
        let dice = Dice { count, sides, modifier };
        let shown = dice.to_string();
        prop_assert_eq!(Dice::parse(&shown), Ok(dice), "{}", shown);
        prop_assert_eq!(Dice::parse(&shown.to_uppercase()), Ok(dice), "{}", shown);
        let spaced = shown.replace('d', " d ").replace('+', " + ").replace('-', " - ");
        prop_assert_eq!(Dice::parse(&spaced), Ok(dice), "{}", spaced);
        prop_assert_eq!(Dice::parse(&modifier.to_string()), Ok(Dice::flat(modifier)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The same bytes through the file path: reading, UTF-8 checking and the assets lookup.
    #[test]
    fn arbitrary_files_never_panic_the_loader(bytes in proptest::collection::vec(any::<u8>(), 0..512), case in any::<u64>()) {
        let path: PathBuf =
            std::env::temp_dir().join(format!("fray-robustness-arbitrary-files-{}-{case}.ron", std::process::id()));
        std::fs::write(&path, &bytes).expect("write the temp file");
        let result = load_level(&path, &ModSet::default());
        let _ = std::fs::remove_file(&path);
        let errors = result.expect_err("random bytes are not a level");
        if let Ok(text) = std::str::from_utf8(&bytes) {
            assert_locations_inside(text, &errors);
        }
    }
}
