//! What `fray check` says about a ruleset beyond parsing: options that load but do nothing,
//! reported as warnings at `file:line:column`.

use std::path::Path;

use super::error::{LoadWarning, SourceMap};
use crate::rules::ruleset::{Offer, Ruleset};

/// An offered action that does nothing without an `attack` option.
struct NeededOption {
    offer: Offer,
    /// The option's name in `attack`.
    option: &'static str,
    /// An example value, for the warning.
    example: &'static str,
    /// Whether the ruleset sets it.
    is_set: fn(&Ruleset) -> bool,
}

/// An example `attack.maneuvers`, for the warning.
const MANEUVERS_EXAMPLE: &str =
    "Some((die: \"2d6\", attribute: Strength, attack_roll_first: true, grapple_damage: true))";

fn has_maneuvers(ruleset: &Ruleset) -> bool {
    ruleset.attack.maneuvers.is_some()
}

/// An example `attack.maneuvers.haul`, for the warning (`S-MAN-1`'s drag and hurl).
const HAUL_EXAMPLE: &str = "Some((drag_steps: 2, throw_steps: 1))";

fn has_haul(ruleset: &Ruleset) -> bool {
    ruleset.attack.maneuvers.as_ref().is_some_and(|rules| rules.haul.is_some())
}

const NEEDED_OPTIONS: [NeededOption; 8] = [
    NeededOption { offer: Offer::Shove, option: "maneuvers", example: MANEUVERS_EXAMPLE, is_set: has_maneuvers },
    NeededOption { offer: Offer::KnockDown, option: "maneuvers", example: MANEUVERS_EXAMPLE, is_set: has_maneuvers },
    NeededOption { offer: Offer::Grapple, option: "maneuvers", example: MANEUVERS_EXAMPLE, is_set: has_maneuvers },
    NeededOption { offer: Offer::BreakFree, option: "maneuvers", example: MANEUVERS_EXAMPLE, is_set: has_maneuvers },
    NeededOption { offer: Offer::Drag, option: "maneuvers.haul", example: HAUL_EXAMPLE, is_set: has_haul },
    NeededOption { offer: Offer::Hurl, option: "maneuvers.haul", example: HAUL_EXAMPLE, is_set: has_haul },
    NeededOption {
        offer: Offer::Execute,
        option: "execution",
        example: "Some((save_die: \"1d20\", save_tn: 15))",
        is_set: |ruleset| ruleset.attack.execution.is_some(),
    },
    NeededOption {
        offer: Offer::Screen,
        option: "screen",
        example: "Some((die: \"2d6\"))",
        is_set: |ruleset| ruleset.attack.screen.is_some(),
    },
];

/// Warnings for the ruleset parsed from `text` at `path`.
pub fn ruleset_warnings(ruleset: &Ruleset, text: &str, path: &Path) -> Vec<LoadWarning> {
    let map = SourceMap::new(text);
    let Some(offered) = &ruleset.turns.offered else { return Vec::new() };
    NEEDED_OPTIONS
        .iter()
        .filter(|needed| offered.contains(&needed.offer) && !(needed.is_set)(ruleset))
        .map(|NeededOption { offer, option, example, .. }| {
            let (line, column) = map.locate_word_after("offered", &format!("{offer:?}"));
            let message = format!(
                "`offered` lists {offer:?}, but `attack.{option}` is not set, so the action is declared and does nothing; expected `{option}: {example}` in `attack`, or {offer:?} left out of `offered`"
            );
            LoadWarning { path: path.to_path_buf(), line, column, message }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::catalog::builtin::RULESETS;
    use crate::levels::catalog::parse;

    /// The shipped `shock_and_cover` ruleset, which offers Shove, Grapple and Execute, with
    /// `edit` applied to its text.
    fn shock_and_cover(edit: impl Fn(&str) -> String) -> (Ruleset, String) {
        let (_, text) = RULESETS.iter().find(|(name, _)| *name == "shock_and_cover").expect("shipped");
        let text = edit(text);
        let ruleset = parse::<Ruleset>(&text, Path::new("r.ron")).expect("the edited ruleset parses");
        (ruleset, text)
    }

    fn rendered(ruleset: &Ruleset, text: &str) -> Vec<String> {
        ruleset_warnings(ruleset, text, Path::new("r.ron")).iter().map(ToString::to_string).collect()
    }

    fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
        SourceMap::new(text).position(offset)
    }

    #[test]
    fn the_shipped_rulesets_have_no_warnings() {
        for (name, text) in RULESETS {
            let ruleset = parse::<Ruleset>(text, Path::new(name)).expect("a shipped ruleset parses");
            assert_eq!(rendered(&ruleset, text), Vec::<String>::new(), "{name}");
        }
    }

    #[test]
    fn warns_of_execute_offered_without_execution() {
        let (ruleset, text) = shock_and_cover(|text| {
            let start = text.find("execution: Some(").expect("has execution");
            let end = start + text[start..].find('\n').expect("one line");
            format!("{}{}", &text[..start], &text[end..])
        });
        let offered = text.find("offered:").expect("offers");
        let at = offered + text[offered..].find("Execute").expect("offers Execute");
        let (line, column) = line_and_column(&text, at);
        assert_eq!(
            rendered(&ruleset, &text),
            [format!(
                "r.ron:{line}:{column}: warning: `offered` lists Execute, but `attack.execution` is not set, so the action is declared and does nothing; expected `execution: Some((save_die: \"1d20\", save_tn: 15))` in `attack`, or Execute left out of `offered`"
            )]
        );
    }

    #[test]
    fn warns_of_the_manoeuvres_offered_without_maneuvers() {
        let (ruleset, text) = shock_and_cover(|text| {
            let start = text.find("maneuvers: Some(").expect("has maneuvers");
            let end = start + text[start..].find('\n').expect("one line");
            format!("{}{}", &text[..start], &text[end..])
        });
        let warnings = rendered(&ruleset, &text);
        assert_eq!(warnings.len(), 6, "{warnings:?}");
        let offers = ["Shove", "KnockDown", "Grapple", "BreakFree", "Drag", "Hurl"];
        let options = ["maneuvers", "maneuvers", "maneuvers", "maneuvers", "maneuvers.haul", "maneuvers.haul"];
        for ((warning, offer), option) in warnings.iter().zip(offers).zip(options) {
            let expected = format!(": warning: `offered` lists {offer}, but `attack.{option}` is not set");
            assert!(warning.contains(&expected), "{warning}");
        }
    }

    #[test]
    fn s_man_1_warns_of_drag_and_hurl_offered_without_haul() {
        let (ruleset, text) = shock_and_cover(|text| text.replace(", haul: Some((drag_steps: 2, throw_steps: 1))", ""));
        let warnings = rendered(&ruleset, &text);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        for (warning, offer) in warnings.iter().zip(["Drag", "Hurl"]) {
            let expected = format!(
                ": warning: `offered` lists {offer}, but `attack.maneuvers.haul` is not set, so the action is declared and does nothing; expected `maneuvers.haul: Some((drag_steps: 2, throw_steps: 1))`"
            );
            assert!(warning.contains(&expected), "{warning}");
        }
    }

    #[test]
    fn no_offered_list_offers_nothing_that_needs_options() {
        let (mut ruleset, text) = shock_and_cover(str::to_string);
        ruleset.attack.maneuvers = None;
        ruleset.attack.execution = None;
        ruleset.turns.offered = None;
        assert!(rendered(&ruleset, &text).is_empty());
    }
}
