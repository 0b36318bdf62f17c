//! Rules for the turn's frame: attribute modifiers, surprise, initiative, declaration order,
//! turn and bonus actions, ties and turn order.

use super::*;

/// Attribute scores to modifiers: `floor((score - base) / step)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttributeRules {
    /// The score whose modifier is 0.
    pub modifier_base: i32,
    /// Points of score per point of modifier.
    pub modifier_step: i32,
}

impl AttributeRules {
    /// The modifier of `score`.
    pub fn modifier(&self, score: i32) -> i32 {
        (score as i64 - self.modifier_base as i64).div_euclid(self.modifier_step.max(1) as i64) as i32
    }
}

/// What being surprised costs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SurpriseRules {
    /// Rounds in which surprised units neither declare nor act (nor react).
    pub rounds_lost: u32,
    /// A surprise roll per side at the start (`C-SURP-1`); without it only the level decides.
    #[serde(default)]
    pub roll: Option<SurpriseRoll>,
    /// The reaction table unscripted sides roll on when the fight starts (`Z-REACT-1`).
    #[serde(default)]
    pub reaction: Option<ReactionTable>,
}

/// A reaction roll for creatures with no set mind: each row names a reaction up to a roll, and
/// whether a creature feeling it joins the fight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReactionTable {
    /// The die (`1d10`).
    pub die: Dice,
    /// Rows in rising order: `(up_to, reaction, fights)`.
    pub rows: Vec<(i32, String, bool)>,
}

/// Each side rolls; at or under its range it is surprised. Neither or both surprised: nobody is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SurpriseRoll {
    /// The die (`1d12`).
    pub die: Dice,
    /// Highest roll that means surprised (4 for 1–4); a side's `surprise_range` shifts its enemies' range.
    pub surprised_at_most: i32,
    /// Each unit rolls for itself instead of its side (`C-SURP-1` option); a unit that rolls
    /// surprised is surprised only while some enemy did not.
    #[serde(default)]
    pub individual: bool,
}

/// Which way the initiative count runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum InitiativeOrder {
    /// Lowest Round Initiative acts first (stress_and_wounds).
    LowestFirst,
    /// Highest acts first.
    HighestFirst,
}

/// Base and Round Initiative.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InitiativeRules {
    /// The Base Initiative die, before the Agility modifier.
    pub die: Dice,
    /// Multiplier applied to the Agility modifier before it is added (−1 subtracts it).
    pub agility_factor: i32,
    /// Which way the count runs.
    pub order: InitiativeOrder,
    /// Added to the Round Initiative of an action a late joiner missed, acted next round.
    pub missed_turn_modifier: i32,
}

/// How units take turns declaring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum DeclarationOrder {
    /// One unit per side in turn, sides in level order.
    RoundRobinBySide,
    /// Highest Agility score first.
    ByAgility,
    /// Everyone writes their action down; nothing is seen until all have declared.
    SimultaneousSecret,
}

/// Declaration and the action modifiers of `W-DECL-2`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclarationRules {
    /// Declaration order for the whole combat; a level may override it.
    pub order: DeclarationOrder,
    /// Use a consumable item, unless the item says otherwise.
    pub use_item_modifier: i32,
    /// Throw an item, unless the item says otherwise.
    pub throw_modifier: i32,
    /// Full defense.
    pub full_defense_modifier: i32,
    /// Added to weapon speed for a defensive attack.
    pub defensive_attack_extra: i32,
    /// Spell speed = casting TN + this, unless the spell states its speed.
    pub spell_speed_offset: i32,
    /// Moving without any other action.
    pub move_modifier: i32,
    /// Doing nothing this round.
    pub hold_modifier: i32,
    /// A Heal check to stabilise a fallen ally.
    pub stabilise_modifier: i32,
    /// An Intimidation check against a monster.
    pub intimidate_modifier: i32,
}

/// Turn order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnRules {
    /// How the order is found.
    #[serde(default)]
    pub order: TurnOrder,
    /// The actions offered; `None` offers seed 000's list.
    #[serde(default)]
    pub offered: Option<Vec<Offer>>,
    /// Units with a missile weapon ready and a foe in sight and range act before everyone else
    /// in the first round (`C-MISS-1`).
    #[serde(default)]
    pub ready_missiles_first: bool,
    /// How simultaneous turns are split, in order (`C-INIT-2`); none keeps ties simultaneous.
    #[serde(default)]
    pub tie_breaks: Vec<TieBreak>,
    /// Weapon attacks per round by level band (`C-MULTI-1`): `(from_level, attacks, per_rounds)`;
    /// 3 attacks per 2 rounds alternate one and two. The highest band the unit's level reaches counts.
    #[serde(default)]
    pub attacks_by_level: Vec<(u32, u32, u32)>,
    /// Other classes' columns of the same table (`C-MULTI-1`), by the creature's `class`, in
    /// the same `(from_level, attacks, per_rounds)` rows; a class not listed uses `attacks_by_level`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub attacks_by_class: std::collections::BTreeMap<String, Vec<(u32, u32, u32)>>,
    /// A prone unit gets up with a Bonus Action as its turn begins, before it declares, and
    /// keeps its action (`A-TURN-1`, `A-BONUS-1`); turn-based orders only.
    #[serde(default)]
    pub bonus_action_stands_up: bool,
    /// A prone unit gets up at once, out of its turn, after the turn that left it prone, paying
    /// with a Bonus Action of its next turn, if that turn has one left (`A-BONUS-1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_up_out_of_turn: bool,
    /// Standing up spends only the turn's Move action (`S-ACT-2`): a unit that stands up without
    /// moving first declares its Main action next, in the same turn; turn-based orders only.
    #[serde(default)]
    pub stand_up_is_move: bool,
    /// Going prone is a Free action (`S-ACT-1`, `S-ACT-2`): the unit declares the rest of its
    /// turn next, with its Move still to make unless it moved before dropping; turn-based orders only.
    #[serde(default)]
    pub go_prone_is_free: bool,
    /// Screening an ally is a Move action (`S-ACT-2`, `S-SPEC-1`): the screener declares its
    /// Main action next, in the same turn, with no move before it; turn-based orders only.
    #[serde(default)]
    pub screen_is_move: bool,
    /// A held action waiting for a foe whose turn never came to answer it (`S-ACT-2`) is lost
    /// when the round's turns are over ("until the end of the round, after which they are
    /// lost"), with an `action_lost` line `held_action_lapsed`; off, the holder takes it in a
    /// turn of its own after the round's last, declared then. A hold that named no foe always
    /// gets that turn; turn-based orders only.
    #[serde(default)]
    pub unanswered_hold_lapses: bool,
    /// A zone's hazard tests each unit standing in it as its turn begins, right after any
    /// ongoing damage, instead of at the end of the round (`Z-ZONE-3`); turn-based orders only.
    #[serde(default)]
    pub hazards_each_turn: bool,
    /// Bonus Actions each declaration spends as it chooses (`A-TURN-1`, `A-BONUS-1`); `None`
    /// keeps the automatic `attack.standing_bonus`, `attack.dodge_bonus` and
    /// `movement.move_only_extra`.
    #[serde(default)]
    pub bonus_actions: Option<BonusActionRules>,
}

/// What Bonus Actions buy when a declaration chooses how to spend them (`A-BONUS-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BonusActionRules {
    /// Bonus Actions in a turn (weakening wounds take some away).
    pub per_turn: u32,
    /// To hit per Bonus Action, on the turn's own attacks.
    pub hit: i32,
    /// Damage per Bonus Action, on the turn's own melee and thrown attacks.
    pub damage: i32,
    /// Defense per Bonus Action, until the unit's next turn.
    pub dodge: i32,
    /// Squares (zones on a zone battlefield) per Bonus Action spent moving further.
    pub stride: u32,
    /// Bonus Actions that buy a disengage; `None`: only the `Disengage` action does.
    pub disengage: Option<u32>,
    /// The Move Action and every Bonus Action buy one more attack with the weapon's bare dice
    /// (no Strength, no feats); the unit then does not move.
    pub extra_attack: bool,
}

impl TurnRules {
    /// Whether hazards bite at the start of each unit's turn rather than at the end of the round.
    pub fn hazards_on_turn(&self) -> bool {
        self.hazards_each_turn && self.order.on_turn()
    }
}

/// A way to split a tie in a side-roll order (`C-INIT-2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum TieBreak {
    /// The lower weapon speed factor strikes first.
    WeaponSpeed,
    /// Whoever makes more attacks this round goes first.
    MoreAttacks,
    /// A spell's casting time against the other's weapon speed: the lower goes first.
    CastingTime,
    /// Once a simultaneous turn has declared, a spell whose casting time (its speed) is higher
    /// than its caster's initiative die goes off after the turn's missiles and throws, and after
    /// everything else in the turn.
    MissileBeforeSpell,
}

/// How the round's order is found. With anything but `DeclaredInitiative`, units declare when
/// their turn comes, seeing everything that happened before it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum TurnOrder {
    /// Everyone declares, then actions resolve by Base Initiative + action modifier (seed 000).
    #[default]
    DeclaredInitiative,
    /// One roll picks the side that begins (the party at `party_first_at` or more); each unit
    /// then rolls `individual` + the attribute's modifier, highest first within its side (`Z-INIT-1`).
    FirstSideThenIndividual {
        /// The side roll.
        side_die: Dice,
        /// Lowest side roll at which the party begins.
        party_first_at: i32,
        /// Each unit's roll.
        individual: Dice,
        /// Its attribute.
        attribute: Attribute,
    },
    /// Each side rolls `die` + the best modifier of `attribute` among its units (only the party's
    /// when `party_only`); sides act in `order` (`S-INIT-1`, `C-INIT-1`).
    SideRoll {
        /// The side die.
        die: Dice,
        /// The attribute whose best modifier is added (subtracted when the count runs low first).
        attribute: Attribute,
        /// Only the party adds it.
        party_only: bool,
        /// Each unit adjusts the side roll by its own modifier instead of the side's best (`C-INIT-1` option).
        individual_adjustment: bool,
        /// Which way the count runs.
        order: InitiativeOrder,
        /// The party acts first on a tie; otherwise tied sides act simultaneously.
        party_wins_ties: bool,
        /// Roll again every round.
        reroll_each_round: bool,
        /// Each unit rolls `die` itself, adjusted by its own modifier, instead of its side rolling
        /// (`C-INIT-1` option): no side rolls are made.
        #[serde(default)]
        individual_rolls: bool,
    },
    /// By the attribute's modifier, highest first; the unit that started the fight goes last (`A-INIT-1`).
    ByAttribute {
        /// The attribute.
        attribute: Attribute,
    },
}

impl TurnOrder {
    /// Whether units declare on their turn rather than all before resolution.
    pub fn on_turn(&self) -> bool {
        !matches!(self, Self::DeclaredInitiative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_round_down_both_ways() {
        let rules = AttributeRules { modifier_base: 10, modifier_step: 2 };
        assert_eq!(rules.modifier(14), 2);
        assert_eq!(rules.modifier(15), 2);
        assert_eq!(rules.modifier(10), 0);
        assert_eq!(rules.modifier(9), -1);
        assert_eq!(rules.modifier(8), -1);
        assert_eq!(rules.modifier(7), -2);
    }
}
