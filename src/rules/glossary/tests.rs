//! The glossary covers every word the game shows, for every shipped ruleset.

use std::path::Path;

use strum::IntoEnumIterator;

use super::*;
use crate::rules::components::Conditions;
use crate::rules::equipment::{Attribute, Hindrance, Lingering};

use crate::rules::log::Affliction;

/// A shake-off test for the conditions that need one.
const LINGERING: Lingering = Lingering::at_turn_end(Attribute::Strength, 12);

/// The shipped rulesets' names.
fn shipped_rulesets() -> Vec<&'static str> {
    builtin::RULESETS.iter().map(|(name, _)| *name).collect()
}

/// A term the game shows must have words in the shipped glossary for at least one ruleset.
fn assert_explained(term: Term, shown_as: &str) {
    let glossary = Glossary::builtin();
    let explained = shipped_rulesets().iter().any(|ruleset| glossary.explain(term, ruleset).is_some());
    assert!(explained, "`{shown_as}` ({term:?}) has no glossary words for any ruleset");
}

#[test]
fn every_term_has_an_entry_with_general_words() {
    let glossary = Glossary::builtin();
    for term in Term::all() {
        let entry = glossary.entry(term).unwrap_or_else(|| panic!("{term:?} has no entry `{}`", term.key()));
        assert!(!entry.general.trim().is_empty(), "{term:?} has empty general words");
        assert!(!term.label().is_empty(), "{term:?} has no label");
    }
}

#[test]
fn every_override_and_applies_names_a_shipped_ruleset() {
    let rulesets = shipped_rulesets();
    for (key, entry) in &Glossary::builtin().terms {
        let named = entry.applies.iter().flatten().chain(entry.rulesets.keys());
        for name in named {
            assert!(rulesets.contains(&name.as_str()), "`{key}` names `{name}`, not a shipped ruleset");
        }
        for (ruleset, words) in &entry.rulesets {
            assert!(!words.trim().is_empty(), "`{key}` has empty words for {ruleset}");
            assert!(entry.applies_to(ruleset), "`{key}` explains itself for {ruleset}, which it does not apply to");
        }
    }
}

#[test]
fn every_ruleset_has_an_overview_and_every_term_some_ruleset() {
    let glossary = Glossary::builtin();
    for ruleset in shipped_rulesets() {
        let overview = glossary.overview(ruleset).unwrap_or_else(|| panic!("{ruleset} has no overview"));
        assert!(!overview.trim().is_empty(), "{ruleset}'s overview is empty");
        assert!(glossary.terms_for(ruleset).count() > 0, "{ruleset} has no terms");
    }
    for term in Term::all() {
        assert_explained(term, term.label());
    }
}

#[test]
fn explain_prefers_the_ruleset_words_and_hides_what_a_ruleset_lacks() {
    let glossary = Glossary::builtin();
    let general = &glossary.entry(Term::Defense).expect("Defense has an entry").general;
    assert_eq!(glossary.explain(Term::Defense, "stress_and_wounds"), Some(general.as_str()));
    let aimed = glossary.explain(Term::Defense, "aimed_wounds").expect("Defense exists in aimed_wounds");
    assert_ne!(aimed, general, "aimed_wounds has its own Defense");
    assert!(aimed.contains("Agility"), "{aimed}");
    assert_eq!(glossary.explain(Term::Shock, "stress_and_wounds"), None);
    assert!(glossary.explain(Term::Shock, "shock_and_cover").is_some());
    assert_eq!(glossary.explain(Term::Stress, "crucible"), None);
    // A ruleset the glossary does not know (a mod's) gets the general words of the words every
    // ruleset has, and none of those some rulesets lack.
    assert_eq!(glossary.explain(Term::Defense, "a_mod_ruleset"), Some(general.as_str()));
    assert_eq!(glossary.explain(Term::Stress, "a_mod_ruleset"), None);
}

#[test]
fn terms_are_found_by_key_label_and_spelling() {
    for term in Term::all() {
        assert_eq!(Term::from_key(term.key()), Some(term), "{term:?} by key");
        assert_eq!(Term::from_label(term.label()), Some(term), "{term:?} by its label `{}`", term.label());
        assert_eq!(Term::from_label(&term.label().to_uppercase()), Some(term), "{term:?} by its label in capitals");
    }
    assert_eq!(Term::from_label("Armour Class"), Some(Term::Defense));
    assert_eq!(Term::from_label("total defense"), Some(Term::FullDefense));
    assert_eq!(Term::from_label("free_hit"), Some(Term::FreeHit));
    assert_eq!(Term::from_label("Hold"), Some(Term::Hold));
    assert_eq!(Term::from_label("nonsense"), None);
}

#[test]
fn every_status_the_engine_logs_has_an_entry() {
    for status in Status::iter() {
        let term = Term::for_status(status);
        assert_eq!(Term::from_label(status.log_name()), Some(term), "status `{}`", status.log_name());
        assert_explained(term, status.log_name());
    }
}

#[test]
fn every_action_kind_the_ui_lists_has_an_entry() {
    for offer in Offer::iter() {
        let term = Term::for_offer(offer);
        assert_explained(term, &format!("{offer:?}"));
    }
    for kind in [ActionKind::Attack, ActionKind::Cast(0), ActionKind::Stabilize, ActionKind::HoldAction] {
        assert_eq!(Term::from_label(kind.log_name()), Some(Term::for_action(kind)), "action `{}`", kind.log_name());
    }
}

#[test]
fn every_ruleset_explains_the_actions_it_offers() {
    let glossary = Glossary::builtin();
    for (name, text) in builtin::RULESETS {
        let ruleset: crate::rules::ruleset::Ruleset =
            parse(text, Path::new(name)).unwrap_or_else(|error| panic!("{name} parses: {error}"));
        let offers = ruleset.turns.offered.unwrap_or_else(|| crate::rules::actions::SEED_000_OFFERS.to_vec());
        for offer in offers {
            let term = Term::for_offer(offer);
            assert!(
                glossary.explain(term, name).is_some(),
                "{name} offers {offer:?} but {term:?} does not apply to it"
            );
        }
    }
}

#[test]
fn every_attack_kind_the_log_writes_has_an_entry() {
    let kinds = [
        AttackKind::Reposte,
        AttackKind::Thrown,
        AttackKind::FreeAttack,
        AttackKind::Opportunity,
        AttackKind::FreeHit,
        AttackKind::Execution,
        AttackKind::Shove,
        AttackKind::Grapple,
        AttackKind::Snap,
        AttackKind::Held,
    ];
    for kind in kinds {
        let term = Term::for_attack_kind(kind).unwrap_or_else(|| panic!("{kind:?} has no term"));
        assert_eq!(Term::from_label(kind.as_str()), Some(term), "attack kind `{}`", kind.as_str());
        assert_explained(term, kind.as_str());
    }
    assert_eq!(Term::for_attack_kind(AttackKind::Normal), None);
}

#[test]
fn every_condition_the_unit_card_lists_has_an_entry() {
    let mut conditions = Conditions {
        prone: true,
        slowed: true,
        main_arm_useless: true,
        off_arm_useless: true,
        acts_every_other_round: Some(1),
        paralysed: true,
        suffocating: true,
        stabilised: true,
        full_defense: true,
        disengaged: true,
        charging: true,
        dodging: true,
        channelling: true,
        disarmed: true,
        ongoing: Some((1, LINGERING)),
        aimed_wounds: 2,
        usage_marks: [1; 3],
        broken: [true; 2],
        ..Conditions::default()
    };
    for hindrance in [Hindrance::Weakened, Hindrance::Distracted, Hindrance::Stuck, Hindrance::Paralysed] {
        conditions.hindrance = Some((hindrance, LINGERING));
        for name in conditions.names() {
            let term = Term::for_condition(&name).unwrap_or_else(|| panic!("condition `{name}` has no term"));
            assert_explained(term, &name);
        }
    }
    assert_eq!(Term::for_condition("wounds 2"), Some(Term::Wound));
    assert_eq!(Term::for_condition(Affliction::OngoingDamage.as_str()), Some(Term::OngoingDamage));
}

/// The rules words the log writes in lower case, each checked to be in `log_text/` so the list
/// cannot outlive the log.
const LOG_WORDS: &[&str] = &[
    "initiative",
    "modifier",
    "surprised",
    "critical",
    "fumble",
    "cover",
    "charging",
    "flanking",
    "sneak attack",
    "with disadvantage",
    "avoid test",
    "morale",
    "withdraws",
    "flees",
    "surrenders",
    "reacts",
    "injury",
    "stabilise",
    "intimidate",
    "execution",
    "screen",
    "hold",
    "usage mark",
    "escalation",
    "total defense",
    "shield",
    "dying",
    "side initiative",
    "hazard",
    "casts",
    "disrupted",
];

/// The production part of `log_text/` (its tests quote made-up lines; `mod.rs` comes last, as
/// the part after its `#[cfg(test)]` is cut).
fn log_text_source() -> &'static str {
    let source = concat!(
        include_str!("../log_text/names.rs"),
        include_str!("../log_text/lines.rs"),
        include_str!("../log_text/rolls.rs"),
        include_str!("../log_text/mod.rs"),
    );
    source.split("#[cfg(test)]").next().unwrap_or(source)
}

#[test]
fn every_rules_word_the_log_writes_has_an_entry() {
    let source = log_text_source();
    for word in LOG_WORDS {
        assert!(source.contains(word), "`{word}` is no longer in log_text/: drop it from LOG_WORDS");
        let term = Term::from_label(word).unwrap_or_else(|| panic!("the log writes `{word}`, which has no term"));
        assert_explained(term, word);
    }
}

/// Words the log capitalises that are not rules words.
const NOT_TERMS: &[&str] = &["The"];

#[test]
fn every_capitalised_word_in_the_log_lines_has_an_entry() {
    for phrase in capitalised_phrases(log_text_source()) {
        if NOT_TERMS.contains(&phrase.as_str()) {
            continue;
        }
        let term = Term::from_label(&phrase).unwrap_or_else(|| panic!("the log writes `{phrase}`, which has no term"));
        assert_explained(term, &phrase);
    }
}

/// Runs of capitalised words (`Wound Points`, `TN`) inside the string literals of `source`,
/// with `{placeholders}` left out.
fn capitalised_phrases(source: &str) -> Vec<String> {
    let mut phrases = Vec::new();
    for literal in source.split('"').skip(1).step_by(2) {
        let mut run: Vec<&str> = Vec::new();
        let text: String = strip_placeholders(literal);
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            if word.chars().next().is_some_and(char::is_uppercase) {
                run.push(word);
            } else {
                // A lower-case word or a punctuation mark ends the run.
                flush(&mut run, &mut phrases);
            }
        }
        flush(&mut run, &mut phrases);
    }
    phrases.sort();
    phrases.dedup();
    phrases
}

/// Ends a run of capitalised words.
fn flush(run: &mut Vec<&str>, phrases: &mut Vec<String>) {
    if !run.is_empty() {
        phrases.push(run.join(" "));
        run.clear();
    }
}

/// `{unit} takes {amount}` → `  takes  `.
fn strip_placeholders(literal: &str) -> String {
    let mut text = String::new();
    let mut depth = 0_usize;
    for c in literal.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => text.push(c),
            _ => text.push(' '),
        }
    }
    text
}

#[test]
fn a_malformed_glossary_names_the_file_line_and_column() {
    let path = Path::new("assets/glossary.ron");
    let broken = "(\n    terms: {\n        \"stress\": (general: 3),\n    },\n    overviews: {},\n)";
    let error = Glossary::load(broken, path).expect_err("a number is not words").to_string();
    assert!(error.starts_with("assets/glossary.ron:3:"), "{error}");
    let unknown = "(\n    terms: {\n        \"strese\": (general: \"x\"),\n    },\n    overviews: {},\n)";
    let error = Glossary::load(unknown, path).expect_err("no such term").to_string();
    assert!(error.starts_with("assets/glossary.ron:3:9:"), "{error}");
    assert!(error.contains("did you mean \"stress\""), "{error}");
    let ruleset = "(\n    terms: {\n        \"stress\": (general: \"x\", applies: Some([\"stres_and_wounds\"])),\n    },\n    overviews: {},\n)";
    let error = Glossary::load(ruleset, path).expect_err("no such ruleset").to_string();
    assert!(error.starts_with("assets/glossary.ron:3:"), "{error}");
    assert!(error.contains("ruleset"), "{error}");
}

#[test]
fn fray_check_knows_the_glossary_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/glossary.ron");
    let checked = crate::levels::check_file(&path, &crate::levels::mods::ModSet::default())
        .unwrap_or_else(|errors| panic!("the glossary checks: {errors}"));
    assert!(checked.summary.starts_with("glossary: "), "{}", checked.summary);
}

#[test]
fn a_line_s_terms_are_found_by_whole_words() {
    let glossary = Glossary::builtin();
    let line = "Tobiah the Red takes 13 critical piercing damage: loses 0 Stress and 13 Wound Points (now dying)";
    let terms: Vec<Term> = glossary.terms_in(line, "stress_and_wounds").into_iter().map(|(term, _)| term).collect();
    for wanted in [Term::Stress, Term::WoundPoints, Term::Critical] {
        assert!(terms.contains(&wanted), "{wanted:?} not found in {terms:?}");
    }
    // Inside a longer word is no mention: "stressful" names no Stress.
    let none = glossary.terms_in("a stressful day", "stress_and_wounds");
    assert!(!none.iter().any(|(term, _)| *term == Term::Stress), "{none:?}");
}
