//! The conditions a unit is under, and the bonus actions a turn allows.

use super::*;

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

    /// The hindrance, when only an action ends it (`Z-HIND-1`, `by: Action`).
    pub fn hindrance_needing_action(
        &self,
    ) -> Option<(crate::rules::equipment::Hindrance, crate::rules::equipment::Lingering)> {
        self.hindrance.filter(|(_, lingering)| lingering.needs_action())
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
