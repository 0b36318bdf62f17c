//! The turn flow said out loud: as each round begins, a banner names it and any surprise (who is
//! caught unaware, and that they cannot act), and the declaring order gets its reason in words.

use bevy::prelude::*;

use super::model::session::BattleStarted;
use crate::rules::components::{SideIndex, Status, Surprised};
use crate::rules::ruleset::{DeclarationOrder, Ruleset};
use crate::rules::{CombatInfo, CombatState, CombatSystems, Sides};

/// How long a round's banner shows, in seconds.
pub const ANNOUNCEMENT_SECONDS: f32 = 2.5;

/// The banner over the board: what the round that just began holds in store.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Announcement {
    /// Its heading (`Round 2`).
    pub title: String,
    /// What to know about the round, a line each.
    pub lines: Vec<String>,
    /// Seconds it has shown.
    pub age: f32,
    /// The round it announces.
    round: u32,
}

impl Announcement {
    /// Whether it is still on show.
    pub fn showing(&self) -> bool {
        !self.title.is_empty() && self.age < ANNOUNCEMENT_SECONDS
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Announcement>().add_systems(
        Update,
        (forget_on_new_battle, announce_round.after(CombatSystems::Initiative).before(CombatSystems::Declare), age)
            .chain(),
    );
}

fn forget_on_new_battle(mut started: MessageReader<BattleStarted>, mut announcement: ResMut<Announcement>) {
    if started.read().count() > 0 {
        *announcement = Announcement::default();
    }
}

fn age(time: Res<Time>, mut announcement: ResMut<Announcement>) {
    if announcement.showing() {
        announcement.age += time.delta_secs();
    }
}

/// A new round: its banner, naming the sides caught by surprise.
fn announce_round(
    state: Res<CombatState>,
    sides: Res<Sides>,
    units: Query<(&SideIndex, &Status), With<Surprised>>,
    mut announcement: ResMut<Announcement>,
) {
    if state.round == 0 || state.round == announcement.round {
        return;
    }
    let mut surprised: Vec<usize> =
        units.iter().filter(|(_, status)| status.on_field()).map(|(side, _)| side.0).collect();
    surprised.sort_unstable();
    surprised.dedup();
    let name = |side: usize| super::ui::widgets::side_name(&sides, side);
    let lines = surprised
        .into_iter()
        .map(|side| format!("Surprise! The {} are caught unaware and cannot act this round.", name(side)))
        .collect();
    *announcement = Announcement { title: format!("Round {}", state.round), lines, age: 0.0, round: state.round };
}

/// Why the units declare in the order they do, in words, for the declaring player.
pub fn declaring_order_words(ruleset: &Ruleset, info: &CombatInfo) -> &'static str {
    if ruleset.turns.order.on_turn() {
        return "Units declare when their turn comes, in the order rolled for the round.";
    }
    match info.declaration_order.unwrap_or(ruleset.declaration.order) {
        DeclarationOrder::RoundRobinBySide => {
            "The sides take turns to declare, one unit each, in the level's order; everyone sees what was \
             declared before them."
        }
        DeclarationOrder::ByAgility => {
            "Units declare by Agility, highest first; everyone sees what was declared before them."
        }
        DeclarationOrder::SimultaneousSecret => {
            "Everyone declares in secret; every choice is shown once the last unit has declared."
        }
    }
}
