//! The glossary: every rules word the game shows a player, explained in plain words, per ruleset.
//!
//! [`Term`] names the words; `assets/glossary.ron` (built into the binary) holds what they mean:
//! a general explanation for each, the ruleset's own where the word means something else there,
//! and which rulesets have the word at all. It also holds a short overview of each ruleset's round
//! for a rules browser. Tooltips ask [`Glossary::explain`]; the browser walks [`Term::iter`] and
//! [`Glossary::overview`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use bevy::prelude::Resource;
use serde::Deserialize;
use strum::{EnumIter, IntoEnumIterator, IntoStaticStr};

use crate::levels::LoadError;
use crate::levels::catalog::{builtin, parse};
use crate::levels::error::{SourceMap, not_found};
use crate::rules::components::{ActionKind, Offer, Status};
use crate::rules::log::AttackKind;

/// The shipped glossary, `assets/glossary.ron`.
pub const BUILTIN_GLOSSARY: &str = include_str!("../../../assets/glossary.ron");

/// Where the built-in glossary says it comes from in error messages.
const BUILTIN_PATH: &str = "<built-in>/assets/glossary.ron";

/// A rules word the game shows a player: in the panels, the unit card, the log and the action
/// list. Its [`key`](Term::key) is the entry's name in `assets/glossary.ron`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, EnumIter, IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Term {
    // Pools and numbers.
    /// Stamina that soaks ordinary hits first (`stress_and_wounds`).
    Stress,
    /// The body's pool; hit points outside `stress_and_wounds`.
    WoundPoints,
    /// The one pool of the rulesets without Stress.
    HitPoints,
    /// What spells cost.
    Mana,
    /// The number an attack must reach (Armour Class in some rulesets).
    Defense,
    /// What worn armour does.
    Armour,
    /// How far a unit moves.
    Speed,
    /// The number a check must reach.
    TargetNumber,
    /// Strength, Agility, Dexterity, Insight and the other scores.
    Attribute,
    // Turn flow.
    /// A round of the battle.
    Round,
    /// A unit's turn in a round.
    Turn,
    /// The team a unit fights for.
    Side,
    /// Who acts when.
    Initiative,
    /// The roll made once a battle (`stress_and_wounds`).
    BaseInitiative,
    /// Base Initiative plus the action's modifier.
    RoundInitiative,
    /// What an action adds to Base Initiative.
    InitiativeModifier,
    /// A roll a whole side makes for its place in the order.
    SideInitiative,
    /// Choosing an action.
    Declaration,
    /// Actions at the same count resolving together.
    Simultaneous,
    /// Being caught unawares.
    Surprise,
    /// A reinforcement that has not arrived yet.
    Reserve,
    // Statuses.
    /// Fighting.
    Active,
    /// At 0 Wound Points.
    Incapacitated,
    /// Below 0 (or at 0) and bleeding.
    Dying,
    /// Out for good.
    Dead,
    /// Ran from the battle.
    Fled,
    /// Laid down its arms.
    Surrendered,
    /// Asked for terms and left the fight.
    Parley,
    /// Never joined the fight (`zones_and_tests` reactions).
    StandAside,
    /// Knocked out by an execution attack.
    Unconscious,
    /// A down unit whose bleeding was stopped.
    Stabilised,
    /// The Wound Points a down unit pays to act.
    Exertion,
    // Conditions.
    /// Lying on the ground.
    Prone,
    /// Moving at half speed from an injury.
    Slowed,
    /// Unable to move or act.
    Paralysed,
    /// Losing Wound Points each round for want of air.
    Suffocating,
    /// An arm that cannot attack.
    UselessArm,
    /// Acting only every other round.
    ActsEveryOtherRound,
    /// Held in a grapple.
    Grappled,
    /// The reach of a foe's melee weapon.
    Threatened,
    /// Damage each turn until shaken off.
    OngoingDamage,
    /// A lingering effect a hit leaves.
    Hindrance,
    /// The hindrance that gives disadvantage on every test.
    Weakened,
    /// The hindrance that allows only moving or holding.
    Distracted,
    /// The hindrance that stops moving.
    Stuck,
    /// Rolling twice and keeping the lower.
    Disadvantage,
    /// A party member's roll to get out of the way.
    AvoidTest,
    /// A mark of wear on a weapon.
    UsageMark,
    /// Defense lowered by casting a slow spell (or surprise, or paralysis).
    Channelling,
    /// Without the weapon it held.
    Disarmed,
    /// Extra Defense bought with Bonus Actions.
    Dodging,
    /// An ally on the far side of the target.
    Flanking,
    /// Extra damage against a surprised foe.
    SneakAttack,
    // Attacks and damage.
    /// A natural 20.
    Critical,
    /// A natural 1.
    Fumble,
    /// The dice that follow a critical or a fumble (`aimed_wounds`).
    Escalation,
    /// A lasting hurt from a critical hit (`stress_and_wounds`).
    Injury,
    /// A wound from an aimed attack (`aimed_wounds`).
    Wound,
    /// Damage a heavy weapon deals even on a miss (`shock_and_cover`).
    Shock,
    /// A shield turning the first Shock of a round.
    ShieldBlock,
    /// A wall between shooter and target.
    Cover,
    /// A stroke a move provokes (`stress_and_wounds`).
    Reposte,
    /// A blow at a unit leaving its zone (`zones_and_tests`).
    FreeAttack,
    /// A blow at a unit leaving a melee zone (`aimed_wounds`).
    FreeHit,
    /// A blow at a unit leaving reach (`shock_and_cover`, `crucible`).
    AttackOfOpportunity,
    /// Something done out of turn, or a creature's first attitude.
    Reaction,
    /// How far a melee weapon strikes.
    Reach,
    /// How far a missile, spell or item carries.
    Range,
    // The battlefield.
    /// A place on a zone battlefield.
    Zone,
    /// A square of a grid battlefield.
    Square,
    /// A danger in a zone.
    Hazard,
    // Actions.
    /// Strike with the weapon in hand.
    Attack,
    /// An attack aimed at a part of the body (`aimed_wounds`).
    AimedAttack,
    /// An attack that provokes nothing on the way in.
    DefensiveAttack,
    /// All-out defense for the round (total defense, parrying).
    FullDefense,
    /// Cast a spell.
    Cast,
    /// A caster hurt before the spell went off.
    SpellDisrupted,
    /// Use a consumable.
    UseItem,
    /// Throw an item.
    Throw,
    /// Only move.
    Move,
    /// Do nothing.
    Hold,
    /// Give up the move to act later.
    HeldAction,
    /// Put the turn off.
    Delay,
    /// Try to stop an ally's dying.
    Stabilise,
    /// Shout a foe down.
    Intimidate,
    /// Move away without free blows.
    Disengage,
    /// Run and strike.
    Charge,
    /// Set up an ally's blow.
    Swarm,
    /// Take the blows meant for an ally.
    Screen,
    /// Strike first at a foe about to strike.
    SnapAttack,
    /// Strike down an unaware foe.
    Execution,
    /// Push a foe away.
    Shove,
    /// Knock a foe down where it stands.
    KnockDown,
    /// Seize a foe.
    Grapple,
    /// Break a hold.
    BreakFree,
    /// Release a hold.
    LetGo,
    /// Move with a held foe.
    Drag,
    /// Throw a held foe.
    Hurl,
    /// Spend the action on ending a hindrance.
    ShakeOff,
    /// Get up from prone.
    StandUp,
    /// Drop to the ground.
    GoProne,
    /// The move before and after an action (`crucible`).
    SplitMove,
    /// The two small extras of an `aimed_wounds` turn.
    BonusAction,
    // The end of a fight.
    /// Whether a creature keeps fighting.
    Morale,
    /// What a losing unit does when its nerve fails.
    Withdrawal,
}

impl Term {
    /// The stable snake_case name of the term: its entry in `assets/glossary.ron`.
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// Every term, in the order the glossary lists them.
    pub fn all() -> impl Iterator<Item = Term> {
        Self::iter()
    }

    /// The term whose key is `key`.
    pub fn from_key(key: &str) -> Option<Term> {
        Self::iter().find(|term| term.key() == key)
    }

    /// The term a word shown in the game names: its label, key or another spelling (`AC`,
    /// `total defense`, `free_hit`), ignoring case, `_` and `-`. Trailing numbers are dropped
    /// (`modifier +3`); for the unit card's condition names see [`Term::for_condition`].
    pub fn from_label(word: &str) -> Option<Term> {
        let wanted = normalise(word);
        let bare = wanted.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '+' || c == '-');
        let named = |name: &str| {
            let name = normalise(name);
            name == wanted || name == bare
        };
        Self::iter().find(|term| named(term.label()) || named(term.key()) || term.aliases().iter().copied().any(named))
    }

    /// The term for one of the names a unit card lists under Conditions
    /// ([`Conditions::names`](crate::rules::components::Conditions::names)): `prone`,
    /// `wounds 2` (aimed wounds), `main weapon usage 1`, `off-hand weapon broken`.
    pub fn for_condition(name: &str) -> Option<Term> {
        let words = normalise(name);
        let bare = words.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '+' || c == '-');
        if bare == "wounds" {
            return Some(Self::Wound);
        }
        if bare.ends_with(" usage") || bare.ends_with(" broken") {
            return Some(Self::UsageMark);
        }
        Self::from_label(bare)
    }

    /// The term for a unit's status (`dying`, `fled`).
    pub fn for_status(status: Status) -> Term {
        match status {
            Status::Active => Self::Active,
            Status::Incapacitated => Self::Incapacitated,
            Status::Dying => Self::Dying,
            Status::Dead => Self::Dead,
            Status::Fled => Self::Fled,
            Status::Surrendered => Self::Surrendered,
            Status::Reserve => Self::Reserve,
            Status::Unconscious => Self::Unconscious,
        }
    }

    /// The term for a kind of action in the action list.
    pub fn for_action(kind: ActionKind) -> Term {
        Self::for_offer(kind.into())
    }

    /// The term for a kind of action a ruleset offers.
    pub fn for_offer(offer: Offer) -> Term {
        match offer {
            Offer::Attack => Self::Attack,
            Offer::DefensiveAttack => Self::DefensiveAttack,
            Offer::FullDefense => Self::FullDefense,
            Offer::Cast => Self::Cast,
            Offer::UseItem => Self::UseItem,
            Offer::Throw => Self::Throw,
            Offer::Move => Self::Move,
            Offer::Hold => Self::Hold,
            Offer::Stabilize => Self::Stabilise,
            Offer::Intimidate => Self::Intimidate,
            Offer::Disengage => Self::Disengage,
            Offer::Charge => Self::Charge,
            Offer::Swarm => Self::Swarm,
            Offer::Aimed => Self::AimedAttack,
            Offer::Shove => Self::Shove,
            Offer::Grapple => Self::Grapple,
            Offer::StandUp => Self::StandUp,
            Offer::Execute => Self::Execution,
            Offer::Screen => Self::Screen,
            Offer::GoProne => Self::GoProne,
            Offer::BreakFree => Self::BreakFree,
            Offer::KnockDown => Self::KnockDown,
            Offer::LetGo => Self::LetGo,
            Offer::HoldAction => Self::HeldAction,
            Offer::Delay => Self::Delay,
            Offer::Drag => Self::Drag,
            Offer::Hurl => Self::Hurl,
            Offer::ShakeOff => Self::ShakeOff,
        }
    }

    /// The term for how an attack came about (`reposte`, `free_hit`); none for a declared attack.
    pub fn for_attack_kind(kind: AttackKind) -> Option<Term> {
        match kind {
            AttackKind::Normal => None,
            AttackKind::Reposte => Some(Self::Reposte),
            AttackKind::Thrown => Some(Self::Throw),
            AttackKind::FreeAttack => Some(Self::FreeAttack),
            AttackKind::Opportunity => Some(Self::AttackOfOpportunity),
            AttackKind::FreeHit => Some(Self::FreeHit),
            AttackKind::Execution => Some(Self::Execution),
            AttackKind::Shove => Some(Self::Shove),
            AttackKind::Grapple => Some(Self::Grapple),
            AttackKind::Snap => Some(Self::SnapAttack),
            AttackKind::Held => Some(Self::HeldAction),
        }
    }
}

/// `Stress` → `stress`, `Wound_Points` → `wound points`: the form [`Term::from_label`] compares.
fn normalise(word: &str) -> String {
    word.trim().to_lowercase().replace(['_', '-'], " ")
}

/// One term's entry in the glossary file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// What the word means, in one to three plain sentences, for every ruleset that has it.
    pub general: String,
    /// The rulesets that have the word, by name; every ruleset when absent.
    #[serde(default)]
    pub applies: Option<Vec<String>>,
    /// What the word means in a ruleset where it means something else, by ruleset name.
    #[serde(default)]
    pub rulesets: BTreeMap<String, String>,
}

impl Entry {
    /// Whether the ruleset named `ruleset` has the word.
    pub fn applies_to(&self, ruleset: &str) -> bool {
        self.applies.as_ref().is_none_or(|names| names.iter().any(|name| name == ruleset))
    }
}

/// The glossary file: every term's entry by key, and each ruleset's overview by name. A
/// [`Resource`] for the window (`Glossary::builtin().clone()`); the headless code reads
/// [`Glossary::builtin`].
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Glossary {
    /// Every term's entry, by [`Term::key`].
    pub terms: BTreeMap<String, Entry>,
    /// Each ruleset's round in a few plain sentences, by ruleset name.
    pub overviews: BTreeMap<String, String>,
}

/// A glossary that does not load.
#[derive(Debug, thiserror::Error)]
pub enum GlossaryError {
    /// Not RON for the schema, or a name the game does not know (`file:line:column: what`).
    #[error(transparent)]
    Load(#[from] LoadError),
}

static BUILTIN: LazyLock<Glossary> = LazyLock::new(|| {
    Glossary::load(BUILTIN_GLOSSARY, Path::new(BUILTIN_PATH))
        .unwrap_or_else(|error| panic!("the built-in glossary must load: {error}"))
});

impl Glossary {
    /// The shipped glossary, parsed once. The unit tests prove it loads.
    pub fn builtin() -> &'static Glossary {
        &BUILTIN
    }

    /// Parses a glossary file; `path` names it in errors. Every term key must be a [`Term`], and
    /// every ruleset named (in `applies`, `rulesets` and `overviews`) one the game ships.
    pub fn load(text: &str, path: &Path) -> Result<Glossary, GlossaryError> {
        let glossary: Glossary = parse(text, path)?;
        glossary.check(text, path)?;
        Ok(glossary)
    }

    /// The words for `term` in the ruleset named `ruleset`: its own explanation there if any,
    /// else the general one; `None` when the ruleset does not have the word (or the glossary
    /// has no entry for it).
    pub fn explain(&self, term: Term, ruleset: &str) -> Option<&str> {
        let entry = self.entry(term)?;
        if !entry.applies_to(ruleset) {
            return None;
        }
        Some(entry.rulesets.get(ruleset).unwrap_or(&entry.general))
    }

    /// The terms the ruleset named `ruleset` has, in glossary order: the rules browser's list.
    pub fn terms_for<'a>(&'a self, ruleset: &'a str) -> impl Iterator<Item = (Term, &'a str)> + 'a {
        Term::iter().filter_map(move |term| self.explain(term, ruleset).map(|text| (term, text)))
    }

    /// The terms `text` mentions by their label or another spelling (whole words, any case),
    /// each once, in glossary order, with their words under the ruleset named `ruleset`: what
    /// a log line's or a banner's tooltip explains.
    pub fn terms_in<'a>(&'a self, text: &str, ruleset: &'a str) -> Vec<(Term, &'a str)> {
        let text = text.to_lowercase();
        Term::iter()
            .filter(|term| {
                std::iter::once(term.label())
                    .chain(term.aliases().iter().copied())
                    .any(|name| mentions(&text, &name.to_lowercase()))
            })
            .filter_map(|term| self.explain(term, ruleset).map(|words| (term, words)))
            .collect()
    }

    /// The entry for `term`.
    pub fn entry(&self, term: Term) -> Option<&Entry> {
        self.terms.get(term.key())
    }

    /// The overview of the ruleset named `ruleset`: its round in a few plain sentences.
    pub fn overview(&self, ruleset: &str) -> Option<&str> {
        self.overviews.get(ruleset).map(String::as_str)
    }

    /// Every term key a [`Term`], every ruleset name a shipped ruleset's.
    fn check(&self, text: &str, path: &Path) -> Result<(), LoadError> {
        let source = SourceMap::new(text);
        let invalid = |(line, column): (usize, usize), message: String| LoadError::Invalid {
            path: PathBuf::from(path),
            line,
            column,
            message,
        };
        let keys: Vec<&str> = Term::iter().map(Term::key).collect();
        if let Some(key) = self.terms.keys().find(|key| Term::from_key(key).is_none()) {
            return Err(invalid(source.locate("terms", key, 0), not_found("term", key, &keys)));
        }
        let rulesets: Vec<&str> = builtin::RULESETS.iter().map(|(name, _)| *name).collect();
        let unknown = |name: &&String| !rulesets.contains(&name.as_str());
        for entry in self.terms.values() {
            let named = entry.applies.iter().flatten().chain(entry.rulesets.keys());
            if let Some(name) = named.clone().find(unknown) {
                return Err(invalid(source.locate("applies", name, 0), not_found("ruleset", name, &rulesets)));
            }
        }
        if let Some(name) = self.overviews.keys().find(unknown) {
            return Err(invalid(source.locate("overviews", name, 0), not_found("ruleset", name, &rulesets)));
        }
        Ok(())
    }
}

impl Term {
    /// The word as the game shows it (`Wound Points`, `Attack of opportunity`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Stress => "Stress",
            Self::WoundPoints => "Wound Points",
            Self::HitPoints => "Hit points",
            Self::Mana => "Mana",
            Self::Defense => "Defense",
            Self::Armour => "Armour",
            Self::Speed => "Speed",
            Self::TargetNumber => "TN",
            Self::Attribute => "Attribute",
            Self::Round => "Round",
            Self::Turn => "Turn",
            Self::Side => "Side",
            Self::Initiative => "Initiative",
            Self::BaseInitiative => "Base Initiative",
            Self::RoundInitiative => "Round Initiative",
            Self::InitiativeModifier => "Initiative modifier",
            Self::SideInitiative => "Side initiative",
            Self::Declaration => "Declare",
            Self::Simultaneous => "Simultaneous",
            Self::Surprise => "Surprise",
            Self::Reserve => "Reserve",
            Self::Active => "Active",
            Self::Incapacitated => "Incapacitated",
            Self::Dying => "Dying",
            Self::Dead => "Dead",
            Self::Fled => "Fled",
            Self::Surrendered => "Surrendered",
            Self::Parley => "Parley",
            Self::StandAside => "Stands aside",
            Self::Unconscious => "Unconscious",
            Self::Stabilised => "Stabilised",
            Self::Exertion => "Exertion",
            Self::Prone => "Prone",
            Self::Slowed => "Slowed",
            Self::Paralysed => "Paralysed",
            Self::Suffocating => "Suffocating",
            Self::UselessArm => "Useless arm",
            Self::ActsEveryOtherRound => "Acts every other round",
            Self::Grappled => "Grappled",
            Self::Threatened => "Threatened",
            Self::OngoingDamage => "Ongoing damage",
            Self::Hindrance => "Hindrance",
            Self::Weakened => "Weakened",
            Self::Distracted => "Distracted",
            Self::Stuck => "Stuck",
            Self::Disadvantage => "Disadvantage",
            Self::AvoidTest => "Avoid test",
            Self::UsageMark => "Usage mark",
            Self::Channelling => "Channelling",
            Self::Disarmed => "Disarmed",
            Self::Dodging => "Dodging",
            Self::Flanking => "Flanking",
            Self::SneakAttack => "Sneak attack",
            Self::Critical => "Critical hit",
            Self::Fumble => "Fumble",
            Self::Escalation => "Escalation",
            Self::Injury => "Injury",
            Self::Wound => "Wound",
            Self::Shock => "Shock",
            Self::ShieldBlock => "Shield block",
            Self::Cover => "Cover",
            Self::Reposte => "Reposte",
            Self::FreeAttack => "Free attack",
            Self::FreeHit => "Free hit",
            Self::AttackOfOpportunity => "Attack of opportunity",
            Self::Reaction => "Reaction",
            Self::Reach => "Reach",
            Self::Range => "Range",
            Self::Zone => "Zone",
            Self::Square => "Square",
            Self::Hazard => "Hazard",
            Self::Attack => "Attack",
            Self::AimedAttack => "Aimed attack",
            Self::DefensiveAttack => "Defensive attack",
            Self::FullDefense => "Full defense",
            Self::Cast => "Cast",
            Self::SpellDisrupted => "Spell disrupted",
            Self::UseItem => "Use item",
            Self::Throw => "Throw",
            Self::Move => "Move",
            Self::Hold => "Hold",
            Self::HeldAction => "Hold your action",
            Self::Delay => "Delay",
            Self::Stabilise => "Stabilise",
            Self::Intimidate => "Intimidate",
            Self::Disengage => "Disengage",
            Self::Charge => "Charge",
            Self::Swarm => "Swarm",
            Self::Screen => "Screen",
            Self::SnapAttack => "Snap attack",
            Self::Execution => "Execution attack",
            Self::Shove => "Shove",
            Self::KnockDown => "Knock down",
            Self::Grapple => "Grapple",
            Self::BreakFree => "Break free",
            Self::LetGo => "Let go",
            Self::Drag => "Drag",
            Self::Hurl => "Hurl",
            Self::ShakeOff => "Shake off",
            Self::StandUp => "Stand up",
            Self::GoProne => "Go prone",
            Self::SplitMove => "Then move",
            Self::BonusAction => "Bonus Action",
            Self::Morale => "Morale",
            Self::Withdrawal => "Withdrawal",
        }
    }

    /// Other spellings the game and the log use for the term.
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Self::WoundPoints => &["Wounds", "Wound Point"],
            Self::HitPoints => &["HP", "hit point"],
            Self::Defense => &["Armour Class", "AC"],
            Self::TargetNumber => &["target number"],
            Self::Attribute => &["Strength", "Agility", "Dexterity", "Insight", "Perception", "Memory"],
            Self::Initiative => &["turn order"],
            Self::InitiativeModifier => &["modifier"],
            Self::Declaration => &["declares", "declaration", "declaring"],
            Self::Surprise => &["surprised"],
            Self::Reserve => &["reinforcement"],
            Self::Fled => &["flees", "flee"],
            Self::Surrendered => &["surrenders", "surrender"],
            Self::StandAside => &["stands_aside", "stays out of the fight"],
            Self::Stabilised => &["stabilized"],
            Self::Exertion => &["bleeding from exertion"],
            Self::Paralysed => &["paralyzed"],
            Self::UselessArm => &["main_arm_useless", "off_arm_useless"],
            Self::Grappled => &["grappling", "grappled_by"],
            Self::Threatened => &["threat range"],
            Self::Disadvantage => &["with disadvantage"],
            Self::UsageMark => &["usage", "broken"],
            Self::Channelling => &["channeling", "flat-footed"],
            Self::Critical => &["critical", "critical hit!", "super critical"],
            Self::Fumble => &["tragedy", "natural 1"],
            Self::Escalation => &["escalates"],
            Self::Wound => &["wounded", "aimed wound"],
            Self::ShieldBlock => &["shield"],
            Self::Reposte => &["riposte", "repostes"],
            Self::AttackOfOpportunity => &["opportunity", "attacks of opportunity"],
            Self::Reaction => &["reacts"],
            Self::Square => &["grid"],
            Self::AimedAttack => &["aim", "aimed", "aimed_attack"],
            Self::FullDefense => &["total defense", "parry"],
            Self::Cast => &["spell", "casts", "casting"],
            Self::SpellDisrupted => &["disrupted"],
            Self::Throw => &["thrown"],
            Self::HeldAction => &["hold_action", "held action", "held"],
            Self::Stabilise => &["stabilize"],
            Self::Intimidate => &["intimidation", "intimidated"],
            Self::Disengage => &["disengaged", "disengage and move"],
            Self::Charge => &["charging"],
            Self::Swarm => &["swarmed"],
            Self::Screen => &["screening", "screen an ally"],
            Self::SnapAttack => &["snap"],
            Self::Execution => &["execute"],
            Self::SplitMove => &["split move", "move after", "then move..."],
            Self::BonusAction => &["bonus actions"],
            Self::Morale => &["nerve"],
            Self::Withdrawal => &["withdraws", "withdraw", "falls back", "fall back"],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests;

/// Whether lower-case `text` holds `phrase` as whole words: not inside a longer word.
fn mentions(text: &str, phrase: &str) -> bool {
    !phrase.is_empty()
        && text.match_indices(phrase).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + phrase.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
}
