//! Action wording: the ranks, labels and descriptions the panels show for kinds of action and
//! aim points.

use super::*;

/// Where a kind of action sits in the declaration panel: attacks first (plain, aimed, charge,
/// swarm, defensive), then defense and movement, then spells, throws and items, then the rest.
pub(super) fn kind_rank(kind: ActionKind) -> usize {
    const SLOTS_PER_LIST: usize = 100;
    match kind {
        ActionKind::Attack => 0,
        ActionKind::Aimed(aim) => 1 + aim_rank(aim),
        ActionKind::Charge => 10,
        ActionKind::Swarm => 11,
        ActionKind::DefensiveAttack => 12,
        ActionKind::FullDefense => 13,
        ActionKind::Move => 14,
        ActionKind::Disengage => 15,
        ActionKind::Shove => 16,
        ActionKind::Grapple => 17,
        ActionKind::Execute => 18,
        ActionKind::StandUp => 19,
        ActionKind::Screen => 20,
        ActionKind::GoProne => 21,
        ActionKind::BreakFree => 22,
        ActionKind::KnockDown => 23,
        ActionKind::HoldAction => 24,
        ActionKind::LetGo => 25,
        ActionKind::Drag => 26,
        ActionKind::Hurl => 27,
        ActionKind::ShakeOff => 28,
        ActionKind::Delay => 4 * SLOTS_PER_LIST + 3,
        ActionKind::Cast(at) => SLOTS_PER_LIST + at,
        ActionKind::Throw(at) => 2 * SLOTS_PER_LIST + at,
        ActionKind::UseItem(at) => 3 * SLOTS_PER_LIST + at,
        ActionKind::Stabilize => 4 * SLOTS_PER_LIST,
        ActionKind::Intimidate => 4 * SLOTS_PER_LIST + 1,
        ActionKind::Hold => 4 * SLOTS_PER_LIST + 2,
    }
}

/// Aim points in panel order: the easy shot first, then the wounds from least to most drastic.
fn aim_rank(aim: AimPoint) -> usize {
    match aim {
        AimPoint::CentreMass => 0,
        AimPoint::Slowing => 1,
        AimPoint::Weakening => 2,
        AimPoint::Disrupting => 3,
        AimPoint::Fatal => 4,
    }
}

/// The label of a kind of action for a unit (`Attack with spear`, `Cast firebolt`).
pub(super) fn kind_label(actor: &crate::rules::unit::UnitView, kind: ActionKind) -> String {
    // Catalog keys read as words in the panel: `throwing_knife` is "throwing knife".
    let weapon = actor.arms.loadout.usable_weapon(actor.round.conditions).0.replace('_', " ");
    let spell = |at: usize| actor.magic.spells.0.get(at).map_or("?".into(), |(name, _)| name.replace('_', " "));
    let item = |at: usize| actor.arms.inventory.0.get(at).map_or("?".into(), |stack| stack.name.replace('_', " "));
    match kind {
        ActionKind::Attack => format!("Attack with {weapon}"),
        ActionKind::DefensiveAttack => format!("Defensive attack with {weapon}"),
        ActionKind::FullDefense => "Full defense".into(),
        ActionKind::Cast(at) => format!("Cast {}", spell(at)),
        ActionKind::UseItem(at) => format!("Use {}", item(at)),
        ActionKind::Throw(at) => format!("Throw {}", item(at)),
        ActionKind::Move => "Move".into(),
        ActionKind::Hold => "Hold".into(),
        ActionKind::Stabilize => "Stabilise".into(),
        ActionKind::Intimidate => "Intimidate".into(),
        ActionKind::Disengage => "Disengage and move".into(),
        ActionKind::Shove => "Shove".into(),
        ActionKind::Grapple => "Grapple".into(),
        ActionKind::StandUp => "Stand up".into(),
        ActionKind::Screen => "Screen an ally".into(),
        ActionKind::GoProne => "Go prone".into(),
        ActionKind::BreakFree => "Break free".into(),
        ActionKind::KnockDown => "Knock down".into(),
        ActionKind::HoldAction => "Hold your action".into(),
        ActionKind::LetGo => "Let go".into(),
        ActionKind::Drag => "Drag the held foe".into(),
        ActionKind::Hurl => "Hurl the held foe".into(),
        ActionKind::ShakeOff => match actor.round.conditions.hindrance {
            Some((hindrance, _)) => format!("Shake off: {}", hindrance.log_name()),
            None => "Shake off".into(),
        },
        ActionKind::Delay => "Delay the turn".into(),
        ActionKind::Execute => format!("Execution attack with {weapon}"),
        ActionKind::Charge => format!("Charge with {weapon}"),
        ActionKind::Swarm => "Swarm".into(),
        ActionKind::Aimed(aim) => format!("Aimed attack ({})", crate::rules::log_text::aim_words(aim)),
    }
}

/// What a kind of action does, in a sentence for the declaration panel.
pub fn kind_description(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Attack => "Strike a target in reach with your weapon.",
        ActionKind::DefensiveAttack => "Attack, or not, without provoking Repostes on the way in.",
        ActionKind::FullDefense => "Raise your Defense for the round; move at reduced speed.",
        ActionKind::Cast(_) => "Cast the spell at a target in range.",
        ActionKind::UseItem(_) => "Use the item on yourself or a target in range.",
        ActionKind::Throw(_) => "Throw the item at an enemy in range.",
        ActionKind::Move => "Only move, as far as your speed allows.",
        ActionKind::Hold => "Do nothing this round.",
        ActionKind::Stabilize => "Try to stop a fallen ally's dying.",
        ActionKind::Intimidate => "Shout down an enemy nearby, who must then check morale.",
        ActionKind::Disengage => "Spend the action to move away without provoking free attacks.",
        ActionKind::Shove => "Push a foe a step away, or knock it down: an opposed Strength check.",
        ActionKind::Grapple => "Seize a foe bare-handed: neither of you moves while it holds.",
        ActionKind::StandUp => "Get up from prone (adjacent foes may strike as you rise).",
        ActionKind::Screen => "Step beside an ally and block the attacks at it until your next turn.",
        ActionKind::GoProne => "Drop to the ground: harder to shoot from afar, easier to strike up close.",
        ActionKind::BreakFree => "Struggle against the hold on you: win the contest of strength and you are free.",
        ActionKind::KnockDown => "Throw a foe to the ground where it stands instead of pushing it away.",
        ActionKind::HoldAction => {
            "Give up your move to act after everyone else this round, having seen what they did; or name a foe and what you will do when its turn comes (strike it, cast, shoot, tend an ally, step away): it goes first. A hold on a foe that never comes is lost at the round's end where the rules say so."
        }
        ActionKind::LetGo => "Release the foe you hold: both of you may move and take up weapons again.",
        ActionKind::Drag => "Move with the foe you hold, up to 10 ft: win the contest of strength, or it breaks free.",
        ActionKind::Hurl => {
            "Throw the foe you hold 5 ft: win the contest of strength and it lands prone and free; lose and it breaks free."
        }
        ActionKind::ShakeOff => {
            "Spend your action on the test that ends the hindrance on you (cutting free of a net, scraping off glue): reach its number and it is gone."
        }
        ActionKind::Delay => "Wait: act again after the next unit's turn this round.",
        ActionKind::Execute => "Strike a foe unaware of danger: it must save or drop.",
        ActionKind::Charge => "Run in a straight line and strike at its end: easier to hit, easier to be hit.",
        ActionKind::Swarm => "Harry a target so the next ally to attack it this round hits harder.",
        ActionKind::Aimed(AimPoint::CentreMass) => "Aim at the body: easier to hit, no wound effect.",
        ActionKind::Aimed(AimPoint::Slowing) => "Aim at the legs: a wound costs movement and Agility.",
        ActionKind::Aimed(AimPoint::Weakening) => "Aim at the arms: a wound costs Strength.",
        ActionKind::Aimed(AimPoint::Disrupting) => "Aim at eyes, ears and hands: a wound costs accuracy.",
        ActionKind::Aimed(AimPoint::Fatal) => "Aim at throat, heart or head: a wound may deal heavy damage.",
    }
}
