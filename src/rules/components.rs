//! The combat state of a unit, one component per concern.

use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use strum::EnumDiscriminants;

use super::dice::Dice;
use super::equipment::{Attribute, DamageType, Item, Spell, Weapon};
use crate::battlefield::ZoneIdx;

/// The unit's id in its level (`"ghoul-1"`): how the log and the UI name it.
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnitId(pub Arc<str>);

/// The side a unit fights for, as an index into [`Sides`](super::Sides).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SideIndex(pub usize);

/// Where the unit stands in the level's unit list; breaks every tie deterministically.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SpawnOrder(pub u32);

/// The built-in AI controllers, from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AiKind {
    /// Picks uniformly among legal actions.
    Random,
    /// The greedy AI that now and then blunders into any legal action (difficulty `easy`).
    Easy,
    /// Attacks the best reachable target, defends when losing, closes distance sensibly
    /// (difficulty `normal`).
    #[serde(alias = "normal")]
    Greedy,
    /// Searches a portfolio of declarations with the real rules, about 100 ms a decision
    /// (difficulty `hard`; `tactician` names it too).
    #[serde(alias = "tactician")]
    Hard,
    /// The same search with about ten times the budget (difficulty `master`).
    Master,
}

impl AiKind {
    /// Every kind, weakest first.
    pub const ALL: [AiKind; 5] = [Self::Random, Self::Easy, Self::Greedy, Self::Hard, Self::Master];
    /// The names [`parse`](Self::parse) takes.
    pub const NAMES: [&str; 7] = ["random", "easy", "normal", "greedy", "hard", "tactician", "master"];

    /// Its name in the log and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Random => "random",
            Self::Easy => "easy",
            Self::Greedy => "greedy",
            Self::Hard => "hard",
            Self::Master => "master",
        }
    }

    /// A kind by name: `random`, `easy`, `normal` or `greedy`, `hard` or `tactician`, `master`.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Some(Self::Random),
            "easy" => Some(Self::Easy),
            "normal" | "greedy" => Some(Self::Greedy),
            "hard" | "tactician" => Some(Self::Hard),
            "master" => Some(Self::Master),
            _ => None,
        }
    }
}

/// Who chooses the unit's actions.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Controller {
    /// A person, through the game's UI.
    Human,
    /// One of the built-in AIs.
    Ai(AiKind),
}

impl Controller {
    /// The name the log uses.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Human => "human",
            Self::Ai(kind) => kind.name(),
        }
    }
}

/// Base Initiative (rolled once) and this round's Round Initiative.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Initiative {
    /// Base Initiative; `None` until rolled.
    pub base: Option<i32>,
    /// Round Initiative of the declared action this round.
    pub round: Option<i32>,
}

/// Identical monsters that share one initiative roll (`W-INIT-4`).
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InitiativeGroup(pub Arc<str>);

/// Stamina that soaks damage before Wound Points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stress {
    /// Current Stress, never negative.
    pub current: i32,
    /// Maximum Stress.
    pub max: i32,
}

/// One instance of Wound Point damage (`W-DMG-4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Injury {
    /// Damage type of the hit.
    pub damage_type: DamageType,
    /// Wound Points it took.
    pub amount: i32,
    /// The combat injury it caused, if any (`Broken Shin`).
    pub combat_injury: Option<String>,
    /// Round it happened in.
    pub round: u32,
}

/// Bodily damage threshold and the injury list.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Wounds {
    /// Current Wound Points; may go negative while dying.
    pub current: i32,
    /// Maximum Wound Points.
    pub max: i32,
    /// Every instance of Wound Point damage, in order.
    pub injuries: Vec<Injury>,
}

impl Wounds {
    /// The largest single injury, for the stabilise TN.
    pub fn highest_injury(&self) -> i32 {
        self.injuries.iter().map(|injury| injury.amount).max().unwrap_or(0)
    }
}

/// Attribute scores, indexed by [`Attribute`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attributes(pub [i32; 6]);

impl Attributes {
    /// The score of `attribute`.
    pub fn score(&self, attribute: Attribute) -> i32 {
        self.0[attribute.index()]
    }
}

/// How big a creature is (`S-MAN-1`): shoving or grappling a bigger one is harder.
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum Size {
    /// A child, a goblin-sized creature.
    Small,
    /// A person: the chapter's "man-sized".
    #[default]
    Medium,
    /// Significantly larger but still humanoid: an ogre, a horse.
    Large,
    /// Only barely plausible to manhandle: a giant, an elephant.
    Huge,
}

impl Size {
    /// How many sizes `other` is above this one (0 when it is not bigger).
    pub fn steps_below(self, other: Size) -> u32 {
        (other as u32).saturating_sub(self as u32)
    }
}

/// Hit Dice, which size Stress and count toward morale.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitDice(pub Dice);

/// Defense bonus from the creature and its gear (the base and Agility are added by the rules).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Defense {
    /// Defense bonus plus equipment.
    pub bonus: i32,
}

/// Armour score: subtracted from each hit's damage.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Armour(pub i32);

/// Zones the unit may move per round.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed(pub u32);

/// The zone the unit stands in.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Zone(pub ZoneIdx);

/// An enemy that can strike it in melee stands Close (maintained from the zone index).
/// Sparse: it comes and goes every round, and should not move the unit's table row.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct Threatened;

/// Unaware at the start: neither declares nor acts nor reacts while the ruleset says so.
/// Sparse: it is removed after the first round.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct Surprised;

/// A unit that is not on the field yet: it arrives in `round`, at the start of the round or
/// once the count passes `at_initiative` (`W-INIT-5`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reinforcement {
    /// The round it arrives in.
    pub round: u32,
    /// The initiative count after which it arrives, mid-round.
    pub at_initiative: Option<i32>,
}

/// Whether a unit still takes part, and how.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fighting.
    #[default]
    Active,
    /// At 0 Wound Points: crawls, and pays Wound Points to act.
    Incapacitated,
    /// Below 0 Wound Points: one action a turn, loses Wound Points each round.
    Dying,
    /// At or below minus its Strength score.
    Dead,
    /// Ran from the battle.
    Fled,
    /// Laid down its arms.
    Surrendered,
    /// A reinforcement that has not arrived yet.
    Reserve,
    /// Knocked out by a non-lethal execution (`S-EXEC-1`): down for the rest of the battle, but
    /// neither dying nor losing hit points.
    Unconscious,
}

impl Status {
    /// Every status, in declaration order.
    pub const ALL: [Self; 8] = [
        Self::Active,
        Self::Incapacitated,
        Self::Dying,
        Self::Dead,
        Self::Fled,
        Self::Surrendered,
        Self::Reserve,
        Self::Unconscious,
    ];

    /// The status the log names `name` ([`Self::log_name`]), if any.
    pub fn from_log_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.log_name() == name)
    }

    /// The name the log uses.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Incapacitated => "incapacitated",
            Self::Dying => "dying",
            Self::Dead => "dead",
            Self::Fled => "fled",
            Self::Surrendered => "surrendered",
            Self::Reserve => "reserve",
            Self::Unconscious => "unconscious",
        }
    }

    /// Whether the unit is still on the field (alive, present).
    pub fn on_field(self) -> bool {
        matches!(self, Self::Active | Self::Incapacitated | Self::Dying | Self::Unconscious)
    }

    /// Whether the unit is down but alive, and still has a say: it may crawl, pay to act and be
    /// given first aid. An unconscious unit has none of that.
    pub fn is_down(self) -> bool {
        matches!(self, Self::Incapacitated | Self::Dying)
    }
}

/// Lasting conditions from injuries and actions.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditions {
    /// Knocked down: Defense penalty, crawls only.
    pub prone: bool,
    /// Moves at a reduced Speed.
    pub slowed: bool,
    /// The main arm cannot attack.
    pub main_arm_useless: bool,
    /// The off arm cannot attack.
    pub off_arm_useless: bool,
    /// Acts only every other round, counting from the round given (the round of the injury).
    pub acts_every_other_round: Option<u32>,
    /// Cannot move or act.
    pub paralysed: bool,
    /// Loses Wound Points each round.
    pub suffocating: bool,
    /// Stabilised by a Heal check: no dying loss, half speed, one free action.
    pub stabilised: bool,
    /// In full defense this round.
    pub full_defense: bool,
    /// Checks penalised by injuries.
    pub check_penalties: Vec<(String, i32)>,
    /// Disengaged this round: leaving reach provokes nothing.
    pub disengaged: bool,
    /// Charged this round: Defense lowered until the round ends.
    pub charging: bool,
    /// The shield already turned a Shock this round.
    pub shield_used: bool,
    /// Usage marks from fumbles on the weapon in each hand, by [`Hand::index`] (`Z-CRIT-1`).
    pub usage_marks: [u32; Hand::COUNT],
    /// The main and off-hand weapons worn out and broke (`Z-CRIT-1`), by [`Hand::index`].
    pub broken: [bool; Hand::HELD],
    /// Wounds from aimed attacks (`A-WOUND-1`).
    pub aimed_wounds: u32,
    /// Accuracy lost for the battle (disrupting wounds).
    pub accuracy_penalty: i32,
    /// Accuracy lost for this round only.
    pub round_accuracy_penalty: i32,
    /// Movement lost (slowing wounds).
    pub speed_penalty: u32,
    /// Agility modifier lost (slowing wounds).
    pub agility_penalty: i32,
    /// Strength modifier lost (weakening wounds).
    pub strength_penalty: i32,
    /// The aims of the unit's open wounds, oldest first: healing closes the last (`A-WOUND-1`).
    pub wound_aims: Vec<AimPoint>,
    /// Bonus Actions lost for the battle (weakening wounds, `A-AIM-1`).
    pub bonus_actions_lost: u32,
    /// Spent a Bonus Action dodging in its last turn: more Defense until its next (`A-BONUS-1`).
    pub dodging: bool,
    /// Defense from Bonus Actions chosen for dodging, until the unit's next turn (`A-BONUS-1`).
    pub dodge_bonus: i32,
    /// Bonus Actions already spent this turn before the unit declared (picking up its weapon, `A-COND-1`).
    pub bonus_actions_spent: u32,
    /// Bonus Actions its next turn has already given up: it stood up out of turn (`A-BONUS-1`).
    pub bonus_actions_owed: u32,
    /// Casting a spell that takes effect later in the round (`C-CAST-1`): channelling, flat-footed
    /// where the ruleset says so (`A-COND-1`).
    pub channelling: bool,
    /// Its weapon was knocked from its hands: it fights unarmed until it picks it up (`A-COND-1`).
    pub disarmed: bool,
    /// Ongoing damage per turn and how to end it (`Z-ONGO-1`).
    pub ongoing: Option<(i32, crate::rules::equipment::Lingering)>,
    /// Summoning sickness: no actions and no dodging through the end of this round (`A-SUMM-1`).
    pub sick_until: Option<u32>,
    /// Held by these grapplers (`S-MAN-1`: several may cling to one foe): it cannot move while
    /// any hold lasts.
    pub grappled_by: Grapplers,
    /// Holding this unit in a grapple: it cannot move either.
    pub grappling: Option<Entity>,
    /// Its grapples are fought with bare hands only, while they last (`S-MAN-1`).
    pub bare_hands_in_holds: bool,
    /// A hindrance and how to shake it off (`Z-HIND-1`).
    pub hindrance: Option<(crate::rules::equipment::Hindrance, crate::rules::equipment::Lingering)>,
    /// Screening this ally until the unit's next turn (`S-SPEC-1`).
    pub screening: Option<Entity>,
    /// Attacks screened this round (at most the attack skill, `S-SPEC-1`).
    pub screens_made: i32,
    /// Its turn has come this round: too late for a snap attack (`S-SPEC-1`).
    pub turn_taken: bool,
    /// The Main action is spent out of turn this round, on a snap attack or total defense: the
    /// turn has only its move (`S-SPEC-1`).
    pub snapped: bool,
    /// It held its action this round (`S-ACT-2`): the move is spent, and its later turn has only
    /// the Main action (which may still be a move).
    pub held_action: bool,
    /// It fell back fighting at the last morale check (`C-WDRAW-1`): until the next one, it may
    /// parry instead of attacking, and the greedy AI has it do so while a foe can reach it.
    pub falling_back: bool,
    /// The foe its held action waits for (`S-ACT-2`): when that foe's turn comes, the held
    /// action goes first.
    pub held_against: Option<Entity>,
    /// What the held action does when that foe comes (`S-ACT-2`); `None` strikes it.
    pub held_plan: Option<HeldPlan>,
    /// Other lasting conditions, for the unit card.
    pub notes: Vec<String>,
}

impl Conditions {
    /// Leaves a hindrance, replacing any other (`Z-HIND-1`); a paralysing one stops the unit.
    pub fn hinder(
        &mut self,
        hindrance: crate::rules::equipment::Hindrance,
        lingering: crate::rules::equipment::Lingering,
    ) {
        self.hindrance = Some((hindrance, lingering));
        if hindrance == crate::rules::equipment::Hindrance::Paralysed {
            self.paralysed = true;
        }
    }

    /// Whether the weapon in this hand broke from wear (`Z-CRIT-1`); bare hands never break.
    pub fn is_broken(&self, hand: Hand) -> bool {
        self.broken.get(hand.index()).copied().unwrap_or(false)
    }

    /// The Bonus Actions left to spend each turn (`A-TURN-1`, `A-AIM-1`).
    pub fn bonus_actions_left(&self) -> u32 {
        BONUS_ACTIONS_PER_TURN.saturating_sub(self.bonus_actions_lost).saturating_sub(self.bonus_actions_spent)
    }

    /// Every condition by its log name.
    pub fn names(&self) -> Vec<String> {
        let flags = [
            (self.prone, "prone"),
            (self.slowed, "slowed"),
            (self.main_arm_useless, "main_arm_useless"),
            (self.off_arm_useless, "off_arm_useless"),
            (self.acts_every_other_round.is_some(), "acts_every_other_round"),
            (self.paralysed, "paralysed"),
            (self.suffocating, "suffocating"),
            (self.stabilised, "stabilized"),
            (self.full_defense, "full_defense"),
            (self.disengaged, "disengaged"),
            (self.charging, "charging"),
            (self.dodging || self.dodge_bonus > 0, "dodging"),
            (self.channelling, "channelling"),
            (self.disarmed, "disarmed"),
            (self.ongoing.is_some(), crate::rules::log::Affliction::OngoingDamage.as_str()),
        ];
        let mut names: Vec<String> = flags.iter().filter(|(on, _)| *on).map(|(_, name)| name.to_string()).collect();
        names.extend(self.check_penalties.iter().map(|(check, amount)| format!("{check} {amount:+}")));
        if let Some((hindrance, _)) = self.hindrance {
            names.push(hindrance.log_name().to_string());
        }
        if self.aimed_wounds > 0 {
            names.push(format!("wounds {}", self.aimed_wounds));
        }
        for hand in Hand::ALL {
            let marks = self.usage_marks[hand.index()];
            if marks > 0 {
                names.push(format!("{} usage {marks}", hand.log_name()));
            }
            if self.is_broken(hand) {
                names.push(format!("{} broken", hand.log_name()));
            }
        }
        names.extend(self.notes.iter().cloned());
        names
    }
}

/// Bonus Actions in a turn where the ruleset has them (`A-TURN-1`): the standing bonus and the
/// extra squares of a move-only turn are what both of them buy.
pub const BONUS_ACTIONS_PER_TURN: u32 = 2;

/// Which of its weapons a unit attacks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hand {
    /// The main weapon.
    Main,
    /// The off-hand weapon.
    Off,
    /// Bare hands: the unit's unarmed strike.
    Bare,
}

impl Hand {
    /// Every hand, in index order.
    pub const ALL: [Self; 3] = [Self::Main, Self::Off, Self::Bare];
    /// How many hands there are.
    pub const COUNT: usize = Self::ALL.len();
    /// How many of them hold a weapon that can break.
    pub const HELD: usize = 2;

    /// Its place in per-hand arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name on the unit card.
    pub fn log_name(self) -> &'static str {
        match self {
            Self::Main => "main weapon",
            Self::Off => "off-hand weapon",
            Self::Bare => "unarmed",
        }
    }
}

/// The unit's weapons and armour, named as in the data.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Loadout {
    /// Main weapon's name.
    pub weapon_name: Arc<str>,
    /// Main weapon.
    pub weapon: Weapon,
    /// Off-hand weapon, used when the main arm is useless.
    pub offhand: Option<(Arc<str>, Weapon)>,
    /// What it strikes with when no arm can hold a weapon.
    pub unarmed: Weapon,
    /// Worn armour's name, if any.
    pub armour_name: Option<Arc<str>>,
    /// Carries a shield: the first Shock each round is ignored (`S-SHOCK-1`).
    pub shield: bool,
    /// Extra dice of sneak damage from feats (`A-FEAT-1`).
    pub sneak_dice: u32,
    /// Extra damage dice on every weapon from Weapon Focus feats (`A-FEAT-1`), which the Bonus
    /// Actions' extra attack leaves out (`A-BONUS-1`).
    pub focus_dice: u32,
    /// Dodges normally while channelling a spell: the Battle Caster feat (`A-FEAT-1`).
    pub battle_caster: bool,
    /// Crosses difficult ground at full speed: the Maneuverer feat (`A-FEAT-1`, `A-MOVE-1`).
    pub maneuverer: bool,
}

impl Loadout {
    /// The weapon the unit can attack with now, given its arms and whether it holds its weapons.
    pub fn usable_weapon(&self, conditions: &Conditions) -> (&str, &Weapon) {
        match (self.usable_hand(conditions), &self.offhand) {
            (Hand::Main, _) => (&self.weapon_name, &self.weapon),
            (Hand::Off, Some((name, weapon))) => (name, weapon),
            (Hand::Off | Hand::Bare, _) => ("unarmed", &self.unarmed),
        }
    }

    /// The melee weapon the unit threatens the squares around it with now (`S-AOO-1`: only foes
    /// "armed with a melee weapon" strike at those who leave): the weapon it fights with, unless
    /// that is a missile weapon. The bare hands a hold leaves it count only when it carries a
    /// melee weapon: a crossbowman holding a foe is armed with nothing but its crossbow.
    pub fn threatening_weapon(&self, conditions: &Conditions) -> Option<&Weapon> {
        let weapon = self.usable_weapon(conditions).1;
        let carries_melee = !self.weapon.is_ranged() || self.offhand.as_ref().is_some_and(|(_, off)| !off.is_ranged());
        let armed = !bare_in_a_hold(conditions) || carries_melee;
        (armed && !weapon.is_ranged()).then_some(weapon)
    }

    /// The hand the unit attacks with now: its main weapon while its arm and the weapon are
    /// whole, else its off-hand weapon, else bare hands.
    pub fn usable_hand(&self, conditions: &Conditions) -> Hand {
        if conditions.disarmed || bare_in_a_hold(conditions) {
            return Hand::Bare;
        }
        if !conditions.main_arm_useless && !conditions.is_broken(Hand::Main) {
            return Hand::Main;
        }
        if self.offhand.is_some() && !conditions.off_arm_useless && !conditions.is_broken(Hand::Off) {
            return Hand::Off;
        }
        Hand::Bare
    }
}

/// Whether a hold leaves the unit its bare hands alone (`S-MAN-1`): it holds or is held, under a
/// ruleset where both then fight unarmed.
fn bare_in_a_hold(conditions: &Conditions) -> bool {
    let held = !conditions.grappled_by.is_empty() || conditions.grappling.is_some();
    conditions.bare_hands_in_holds && held
}

/// The most grapplers one unit can be held by at once (`S-MAN-1`): the eight squares around it
/// on a grid. A grapple on a unit already held this many times is refused.
pub const MAX_GRAPPLERS: usize = 8;

/// The grapplers holding a unit (`S-MAN-1`: "multiple attackers can cling to the same luckless
/// defender"), oldest first, at most [`MAX_GRAPPLERS`]. A fixed array, so it copies without
/// allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grapplers {
    held_by: [Option<Entity>; MAX_GRAPPLERS],
}

impl Grapplers {
    /// Whether no one holds the unit.
    pub fn is_empty(&self) -> bool {
        self.held_by[0].is_none()
    }

    /// How many hold it.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether no one more can take hold.
    pub fn is_full(&self) -> bool {
        self.held_by[MAX_GRAPPLERS - 1].is_some()
    }

    /// Whether `grappler` holds it.
    pub fn contains(&self, grappler: Entity) -> bool {
        self.iter().any(|held| held == grappler)
    }

    /// The grapplers, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = Entity> + '_ {
        self.held_by.iter().map_while(|held| *held)
    }

    /// The oldest grappler, if any.
    pub fn first(&self) -> Option<Entity> {
        self.held_by[0]
    }

    /// Adds `grappler` last; false when the list is full. Already holding is kept as it is.
    pub fn insert(&mut self, grappler: Entity) -> bool {
        if self.contains(grappler) {
            return true;
        }
        match self.held_by.iter_mut().find(|held| held.is_none()) {
            Some(free) => {
                *free = Some(grappler);
                true
            }
            None => false,
        }
    }

    /// Removes `grappler`, keeping the others in order; false when it was not holding.
    pub fn remove(&mut self, grappler: Entity) -> bool {
        let Some(at) = self.held_by.iter().position(|held| *held == Some(grappler)) else {
            return false;
        };
        self.held_by[at..].rotate_left(1);
        self.held_by[MAX_GRAPPLERS - 1] = None;
        true
    }

    /// Every grappler mapped through `map` (the search's simulated entities).
    pub fn map(self, map: impl Fn(Entity) -> Entity) -> Self {
        Self { held_by: self.held_by.map(|held| held.map(&map)) }
    }
}

/// Check bonuses the rules read.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skills {
    /// Added to attack rolls.
    pub attack: i32,
    /// Added to Heal checks.
    pub heal: i32,
    /// Added to Intimidation checks.
    pub intimidation: i32,
    /// Added to casting checks.
    pub spellcasting: i32,
    /// Added to purely unarmed damage where the ruleset says so (`S-DMG-1`), and to bare-handed
    /// attack rolls where it adds combat skills (`S-ATK-1`).
    pub brawl: i32,
    /// Added to melee attack rolls where the ruleset adds combat skills (`S-ATK-1`).
    pub stab: i32,
    /// Feats of strength: a shove's opposed check may use it instead of Brawl where the ruleset
    /// reads skills in manoeuvres (`S-MAN-1`).
    pub exert: i32,
    /// Added to missile and thrown attack rolls where the ruleset adds combat skills (`S-ATK-1`).
    pub shoot: i32,
    /// An NPC's attack bonus, its Hit Dice plus its training bonus (`S-ATK-1`); `None` for a
    /// character.
    pub npc_attack: Option<i32>,
}

/// Mana for spells; Stress can stand in for it 1:1 (`W-STRESS-1`).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mana {
    /// Current Mana.
    pub current: i32,
    /// Maximum Mana.
    pub max: i32,
}

/// Spells the unit knows, by name.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Spells(pub Vec<(Arc<str>, Spell)>);

/// Consumables and throwables carried, by name, with counts.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Inventory(pub Vec<ItemStack>);

/// A stack of one item.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemStack {
    /// Item name.
    pub name: Arc<str>,
    /// What it is.
    pub item: Item,
    /// How many are left.
    pub count: u32,
}

/// Reactions (Repostes) still available this round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reactions(pub u32);

/// This unit checks morale (monsters do; player characters do not).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ChecksMorale;

/// The unit's reaction kept it out of the fight from the start (`Z-REACT-1`): not a loss to its side.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct StoodAside;

/// The unit started the fight by attacking, and so takes its turn last (`A-INIT-1`).
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct Initiator;

/// A unit that comes into the battle when its summoner calls it (`A-SUMM-1`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summoned {
    /// Who calls it.
    pub summoner: Entity,
    /// Kept after the battle for its thrall cost; otherwise it vanishes when the battle ends.
    pub thrall: bool,
}

/// How many summoned units a unit may have in the battle at once: its level, plus feats (`A-SUMM-1`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SummoningSlots(pub u32);

/// A new unit a spell creates (`A-SUMM-1`): everything about it that is not its creature's.
#[derive(Clone, Debug)]
pub struct Conjuring {
    /// Its fresh id, used by no other unit of the battle.
    pub id: Arc<str>,
    /// Where it appears.
    pub zone: ZoneIdx,
    /// Its place after every unit the level lists.
    pub order: u32,
    /// Its summoner's controller.
    pub controller: Controller,
    /// Who created it.
    pub summoner: Entity,
    /// The round its summoning sickness lasts through.
    pub sick_until: u32,
    /// Kept after the battle if its summoner pays its thrall cost (`A-SUMM-1`).
    pub thrall: bool,
}

/// Spawns one conjured unit of a creature on a side and returns its entity.
pub type ConjureFn = Arc<dyn Fn(&mut Commands, Conjuring) -> Entity + Send + Sync>;

/// The creatures this battle's spells may create, per (creature, side), made ready when the
/// level was checked, and the units created so far (`A-SUMM-1`).
#[derive(Resource, Clone, Default)]
pub struct Conjurable {
    /// How to spawn each (creature, side index).
    pub creatures: Vec<(Arc<str>, usize, ConjureFn)>,
    /// The next unit's spawn order: after every unit the level lists and every one made so far.
    pub next_order: u32,
    /// Every unit created so far: its id, its summoner and its entity. Kept here because a
    /// unit spawned this stage is not in the queries until the stage ends.
    pub made: Vec<(Arc<str>, Entity, Entity)>,
}

impl Conjurable {
    /// The spawner for `creature` on `side`.
    pub fn spawner(&self, creature: &str, side: usize) -> Option<ConjureFn> {
        self.creatures.iter().find(|(name, at, _)| &**name == creature && *at == side).map(|(_, _, make)| make.clone())
    }
}

/// How far a unit's own surprise range is shifted (`C-SURP-1`: a ranger −2); absent means 0.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurpriseShift(pub i32);

/// Character level: attacks per round (`C-MULTI-1`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(pub u32);

impl Default for Level {
    fn default() -> Self {
        Self(1)
    }
}

/// Character class (`C-MULTI-1`): which column of the attacks-per-round table the unit uses;
/// absent means the fighter's (`turns.attacks_by_level`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct CharacterClass(pub std::sync::Arc<str>);

/// What a unit has done this round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundRecord {
    /// Actions it has taken this round (for the costs of the down).
    pub actions_taken: u32,
    /// Damage it has taken this round (a caster so hurt cannot cast, `C-CAST-1`).
    pub damage_taken: i32,
}

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
            | Self::Hurl => true,
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
    /// `None` lets the rules spend them as [`bonus::default_uses`](super::bonus::default_uses) says.
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
