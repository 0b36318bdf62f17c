//! Actions and declarations: action kinds and their offers, aim points, held plans, bonus uses
//! and what was declared.

use super::*;

/// What a unit can do with its round (`W-DECL-2`).
///
/// [`Offer`] is derived from it: the same kinds without their payloads, which is what a ruleset
/// lists as offered, so the two can never drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumDiscriminants)]
#[strum_discriminants(
    name(Offer),
    derive(Hash, Serialize, Deserialize, schemars::JsonSchema, strum::EnumIter),
    doc = "Which actions the ruleset offers, by name (all of seed 000's when not listed): an [`ActionKind`] without its payload."
)]
pub enum ActionKind {
    /// Attack with the usable weapon.
    Attack,
    /// Attack (or not) without provoking Repostes on the way in.
    DefensiveAttack,
    /// +Defense, Reposte when attacked, half speed.
    FullDefense,
    /// Cast the spell at this index of [`Spells`].
    Cast(usize),
    /// Use the consumable at this index of [`Inventory`].
    UseItem(usize),
    /// Throw the item at this index of [`Inventory`].
    Throw(usize),
    /// Only move.
    Move,
    /// Do nothing (incapacitated units crawl or wait).
    Hold,
    /// Heal check to stabilise a fallen ally.
    Stabilize,
    /// Intimidation check against an enemy, which must then check morale.
    Intimidate,
    /// Spend the action to move away without free attacks (`Z-DISEN-1`, `S-ACT-2`, `A-BONUS-1`).
    Disengage,
    /// Double move in a straight line and a melee attack at its end (`S-SPEC-1`).
    Charge,
    /// Help swarm a target: the next ally's attack on it this round gains (`S-SPEC-1`).
    Swarm,
    /// An attack aimed at a part of the body (`A-AIM-1`).
    // Rulesets name the whole family `Aim`.
    #[strum_discriminants(serde(rename = "Aim"))]
    Aimed(AimPoint),
    /// Push a foe a step away or knock it down (`S-MAN-1`, `Z-STUNT-1`).
    Shove,
    /// Seize a foe so neither moves (`S-MAN-1`, `Z-STUNT-1`).
    Grapple,
    /// Get up from prone (`S-ACT-2`).
    StandUp,
    /// Strike an unsuspecting foe to kill (`S-EXEC-1`).
    Execute,
    /// Step beside an ally and block the attacks made at it until the unit's next turn (`S-SPEC-1`).
    Screen,
    /// Drop to the ground: harder to shoot from afar, easier to strike up close (`S-ACT-2`).
    GoProne,
    /// A held unit's opposed check to break its grappler's hold, spending its action (`S-MAN-1`).
    BreakFree,
    /// A shove that knocks the foe down where it stands rather than pushing it (`S-MAN-1`).
    KnockDown,
    /// A grappler releases the foe it holds (`S-MAN-1`).
    LetGo,
    /// Spend the move to act later: the unit takes its action in a turn of its own after the
    /// round's last (`S-ACT-2`'s hold an action); turn-based orders only.
    HoldAction,
    /// Put the turn off until after the next one this round (`A-INIT-1`); turn-based orders only.
    Delay,
    /// A grappler moves with the foe it holds (`S-MAN-1`): both go to `push_to` (the grappler's
    /// destination; the victim keeps its place beside it), or the first room there is.
    Drag,
    /// A grappler hurls the foe it holds a step away (`S-MAN-1`): it lands prone in `push_to`,
    /// or the first room there is, free of every hold.
    Hurl,
    /// Spend the action on the test that ends a hindrance which needs one (`Z-HIND-1`: a net to
    /// cut free of, glue to scrape off).
    ShakeOff,
}

/// Where an aimed attack aims (`A-AIM-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AimPoint {
    /// Throat, heart, head: a wound may add heavy damage.
    Fatal,
    /// Legs: a wound costs movement and Agility.
    Slowing,
    /// Arms: a wound costs Strength.
    Weakening,
    /// Eyes, ears, hands: a wound costs accuracy.
    Disrupting,
    /// The body: easier to hit, no wound effect.
    CentreMass,
}

impl AimPoint {
    /// Every aim point.
    pub const ALL: [AimPoint; 5] = [Self::Fatal, Self::Slowing, Self::Weakening, Self::Disrupting, Self::CentreMass];

    /// Its name in the log.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Fatal => "fatal",
            Self::Slowing => "slowing",
            Self::Weakening => "weakening",
            Self::Disrupting => "disrupting",
            Self::CentreMass => "centre_mass",
        }
    }
}

impl ActionKind {
    /// The snake_case name the log uses.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Attack => "attack",
            Self::DefensiveAttack => "defensive_attack",
            Self::FullDefense => "full_defense",
            Self::Cast(_) => "cast",
            Self::UseItem(_) => "use_item",
            Self::Throw(_) => "throw",
            Self::Move => "move",
            Self::Hold => "hold",
            Self::Stabilize => "stabilize",
            Self::Intimidate => "intimidate",
            Self::Disengage => "disengage",
            Self::Charge => "charge",
            Self::Swarm => "swarm",
            Self::Aimed(_) => "aimed_attack",
            Self::Shove => "shove",
            Self::Grapple => "grapple",
            Self::StandUp => "stand_up",
            Self::Execute => "execute",
            Self::Screen => "screen",
            Self::GoProne => "go_prone",
            Self::BreakFree => "break_free",
            Self::KnockDown => "knock_down",
            Self::HoldAction => "hold_action",
            Self::LetGo => "let_go",
            Self::Delay => "delay",
            Self::Drag => "drag",
            Self::Hurl => "hurl",
            Self::ShakeOff => "shake_off",
        }
    }

    /// Whether the action counts as an action for the costs of the down (crawling and waiting do not).
    pub fn is_exertion(self) -> bool {
        match self {
            Self::Move | Self::Hold | Self::HoldAction | Self::Delay => false,
            Self::Attack
            | Self::DefensiveAttack
            | Self::FullDefense
            | Self::Cast(_)
            | Self::UseItem(_)
            | Self::Throw(_)
            | Self::Stabilize
            | Self::Intimidate
            | Self::Disengage
            | Self::Charge
            | Self::Swarm
            | Self::Aimed(_)
            | Self::Shove
            | Self::Grapple
            | Self::StandUp
            | Self::Execute
            | Self::Screen
            | Self::GoProne
            | Self::BreakFree
            | Self::KnockDown
            | Self::LetGo
            | Self::Drag
            | Self::Hurl
            | Self::ShakeOff => true,
        }
    }
}

impl Offer {
    /// One action of this kind, with the first payload where it takes one (the first spell,
    /// the first item, a fatal aim): with [`Offer::iter`](strum::IntoEnumIterator::iter),
    /// every kind there is, so a list of kinds is never written out by hand.
    pub fn sample(self) -> ActionKind {
        match self {
            Self::Attack => ActionKind::Attack,
            Self::DefensiveAttack => ActionKind::DefensiveAttack,
            Self::FullDefense => ActionKind::FullDefense,
            Self::Cast => ActionKind::Cast(0),
            Self::UseItem => ActionKind::UseItem(0),
            Self::Throw => ActionKind::Throw(0),
            Self::Move => ActionKind::Move,
            Self::Hold => ActionKind::Hold,
            Self::Stabilize => ActionKind::Stabilize,
            Self::Intimidate => ActionKind::Intimidate,
            Self::Disengage => ActionKind::Disengage,
            Self::Charge => ActionKind::Charge,
            Self::Swarm => ActionKind::Swarm,
            Self::Aimed => ActionKind::Aimed(AimPoint::Fatal),
            Self::Shove => ActionKind::Shove,
            Self::Grapple => ActionKind::Grapple,
            Self::StandUp => ActionKind::StandUp,
            Self::Execute => ActionKind::Execute,
            Self::Screen => ActionKind::Screen,
            Self::GoProne => ActionKind::GoProne,
            Self::BreakFree => ActionKind::BreakFree,
            Self::KnockDown => ActionKind::KnockDown,
            Self::LetGo => ActionKind::LetGo,
            Self::HoldAction => ActionKind::HoldAction,
            Self::Delay => ActionKind::Delay,
            Self::Drag => ActionKind::Drag,
            Self::Hurl => ActionKind::Hurl,
            Self::ShakeOff => ActionKind::ShakeOff,
        }
    }
}

/// A declared action: what, at whom, and where to move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// What.
    pub kind: ActionKind,
    /// At whom, if anyone.
    pub target: Option<Entity>,
    /// Zone to move to before acting, if any.
    pub move_to: Option<ZoneIdx>,
    /// How the turn spends its Bonus Actions, where the ruleset has chosen ones (`A-BONUS-1`);
    /// `None` lets the rules spend them as [`bonus::default_uses`](crate::rules::bonus::default_uses) says.
    pub bonus: Option<BonusUses>,
    /// Where a shove pushes its target, when the aggressor chooses (`Z-STUNT-1`): one of the
    /// zones the push may go to; `None` pushes into the first of them, as the rules pick.
    pub push_to: Option<ZoneIdx>,
    /// Where the unit moves once its action is done (`C-MOVE-1`, `movement.split_move`): the
    /// turn's movement split before and after the action; `None`: all of it comes first.
    pub move_after: Option<ZoneIdx>,
    /// Only on a `HoldAction` against a foe (`S-ACT-2`): what the held action does when that
    /// foe's turn comes; `None` strikes the foe with the weapon in hand.
    pub held: Option<HeldPlan>,
}

impl Action {
    /// An action with no target and no move.
    pub fn simple(kind: ActionKind) -> Self {
        Self { kind, target: None, move_to: None, bonus: None, push_to: None, move_after: None, held: None }
    }

    /// An action at `target`, moving to `move_to` first, its Bonus Actions spent as the rules suggest.
    pub fn new(kind: ActionKind, target: Option<Entity>, move_to: Option<ZoneIdx>) -> Self {
        Self { kind, target, move_to, bonus: None, push_to: None, move_after: None, held: None }
    }

    /// A held action against `foe` that does `plan` when the foe's turn comes (`S-ACT-2`).
    pub fn hold_against(foe: Entity, plan: HeldPlan) -> Self {
        Self { held: Some(plan), ..Self::new(ActionKind::HoldAction, Some(foe), None) }
    }
}

/// What a held action does when the foe it waits for comes to act (`S-ACT-2`): the holder's
/// Main action, named when it holds and checked again, against the board of that moment, when
/// it is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeldPlan {
    /// What: any Main action that needs no move of its own (a `move` is the Main action spent
    /// moving, at Speed).
    pub kind: ActionKind,
    /// At whom, if anyone: the awaited foe, another foe, an ally.
    pub target: Option<Entity>,
    /// Where a held `move` goes.
    pub move_to: Option<ZoneIdx>,
}

impl HeldPlan {
    /// The plan of a hold against `foe` that names none: strike the foe.
    pub fn strike(foe: Entity) -> Self {
        Self { kind: ActionKind::Attack, target: Some(foe), move_to: None }
    }

    /// The plan as an action of its own, the way it is checked and resolved.
    pub fn action(self) -> Action {
        Action::new(self.kind, self.target, self.move_to)
    }

    /// Whether an action of `kind` may be held for a foe's turn: a Main action with no move
    /// of its own and no second part of the turn after it.
    pub fn may_hold(kind: ActionKind) -> bool {
        !matches!(
            kind,
            ActionKind::HoldAction
                | ActionKind::Delay
                | ActionKind::Hold
                | ActionKind::Charge
                | ActionKind::Disengage
                | ActionKind::Screen
                | ActionKind::StandUp
                | ActionKind::GoProne
        )
    }
}

/// What a turn spends its Bonus Actions on (`A-TURN-1`, `A-BONUS-1`): each count is a number of
/// Bonus Actions; a disengage and the extra attack take several at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct BonusUses {
    /// +to hit on the turn's own attacks, one step per Bonus Action.
    pub hit: u8,
    /// +damage on the turn's own melee attacks, one step per Bonus Action.
    pub damage: u8,
    /// +Defense until the unit's next turn, one step per Bonus Action.
    pub dodge: u8,
    /// Extra squares of movement, one stride per Bonus Action.
    pub stride: u8,
    /// Leave melee zones without giving free hits, for the ruleset's price in Bonus Actions.
    pub disengage: bool,
    /// A second attack, for the Move Action and both Bonus Actions: no move this turn.
    pub extra_attack: bool,
}

/// The action a unit declared for this round and its Initiative modifier.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// The action, once declared.
    pub action: Option<Action>,
    /// Its Initiative modifier.
    pub modifier: i32,
    /// What it did last round, for controllers that plan ahead.
    pub previous: Option<ActionKind>,
}

#[cfg(test)]
mod tests {
    use strum::IntoEnumIterator;

    use super::*;

    #[test]
    fn every_offer_samples_an_action_of_its_own_kind() {
        for offer in Offer::iter() {
            assert_eq!(Offer::from(offer.sample()), offer);
        }
    }
}
