//! What a unit holds and knows: hands and loadout, grapplers, skills, mana, spells and inventory.

use super::*;

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
    pub(super) held_by: [Option<Entity>; MAX_GRAPPLERS],
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
