//! The one point where declarations are recorded (after the rules accept them) and where a
//! save's human declarations are fed back in, for loading, undo and replays.

use bevy::prelude::*;

use super::format::{Declaration, SavedHeld};
use crate::ai::AiRng;
use crate::rules::components::{Action, Controller, Declared, HeldPlan, UnitId};
use crate::rules::log::CombatLog;
use crate::rules::{ActionChosen, CombatInfo, CombatState, CombatSystems, DeclarationQueue, DeclareSystems};

/// Every declaration the rules accepted in this battle, in order.
#[derive(Resource, Clone, Debug, Default)]
pub struct Recording {
    /// The declarations.
    pub entries: Vec<Declaration>,
    /// The AI's stream as it stood when each entry was recorded, so an undo can rewind it.
    pub(super) ai_streams: Vec<AiRng>,
    /// The turn (its place in the round's order of turns) each entry was declared in, so that a
    /// unit declaring again in a later turn of the round (a held action's turn, the second part
    /// of a turn, `S-ACT-1`/`S-ACT-2`) is recorded again.
    pub(super) turns: Vec<usize>,
    /// Which unit has an entry in which turn of the latest round, so a pass of n declarations
    /// checks for repeats in n look-ups rather than n² comparisons.
    this_round: RoundEntries,
    /// Nothing is recorded: bulk simulation (`fray sim`) writes no save, and copying the AI's
    /// stream for each declaration cost about 5% of a 4-vs-4 battle.
    off: bool,
}

/// The keys (turn, unit) of the entries of one round, up to a length of `entries`. Anything
/// else that edits the entries (an undo, a load) leaves `upto` behind, and the table is built
/// again from the entries.
#[derive(Clone, Debug, Default)]
struct RoundEntries {
    round: u32,
    upto: usize,
    keys: std::collections::HashSet<(usize, std::sync::Arc<str>)>,
}

impl Recording {
    /// A record that keeps nothing, for battles no one will save.
    pub fn off() -> Self {
        Self { off: true, ..Self::default() }
    }

    /// Whether declarations are kept.
    pub fn is_on(&self) -> bool {
        !self.off
    }

    /// Whether `unit` already has an entry in `turn` of `round`, the latest round recorded.
    fn recorded(&mut self, round: u32, turn: usize, unit: &std::sync::Arc<str>) -> bool {
        if self.this_round.round != round || self.this_round.upto != self.entries.len() {
            let keys = self
                .entries
                .iter()
                .zip(&self.turns)
                .rev()
                .take_while(|(entry, _)| entry.round == round)
                .map(|(entry, &at)| (at, entry.unit.clone()))
                .collect();
            self.this_round = RoundEntries { round, upto: self.entries.len(), keys };
        }
        self.this_round.keys.contains(&(turn, unit.clone()))
    }

    /// Adds `entry`, declared in `turn`, with the AI's stream as it stood.
    fn push(&mut self, entry: Declaration, turn: usize, stream: AiRng) {
        // Entries and turns out of step (an old save) pair up from the front: rebuild then.
        let in_step = self.entries.len() == self.turns.len() && self.this_round.upto == self.entries.len();
        if in_step && entry.round == self.this_round.round {
            self.this_round.keys.insert((turn, entry.unit.clone()));
            self.this_round.upto += 1;
        }
        self.entries.push(entry);
        self.turns.push(turn);
        self.ai_streams.push(stream);
    }
}

/// A save being replayed: its declarations, fed to the rules as the turns come round.
#[derive(Resource, Clone, Debug, Default)]
pub struct Replay {
    /// The saved declarations.
    pub expected: Vec<Declaration>,
    /// Which have been sent (humans) or seen again (AIs).
    pub(super) matched: Vec<bool>,
    /// Which human ones were sent to the rules.
    pub(super) fed: Vec<bool>,
    /// Log lines the saved battle had written: the replay runs until it has as many.
    pub target_events: usize,
    /// The first way the replay differed from the save.
    pub diverged: Option<String>,
    /// Every declaration is fed as made, the AI's too: the battle follows a referee (online),
    /// whose AI seats drew on a stream no one else has.
    pub feed_every: bool,
}

impl Replay {
    /// A replay of `expected` up to `target_events` log lines.
    pub fn new(expected: Vec<Declaration>, target_events: usize) -> Self {
        let len = expected.len();
        Self {
            expected,
            matched: vec![false; len],
            fed: vec![false; len],
            target_events,
            diverged: None,
            feed_every: false,
        }
    }

    /// Adds a declaration the referee released, to be fed when its turn comes.
    pub fn push(&mut self, entry: Declaration) {
        self.expected.push(entry);
        self.matched.push(false);
        self.fed.push(false);
    }

    /// Whether every saved declaration has been made again.
    pub fn declarations_done(&self) -> bool {
        self.matched.iter().all(|&matched| matched)
    }

    /// Whether the replay has reached the saved moment (or went astray).
    pub fn caught_up(&self, log: &CombatLog) -> bool {
        self.diverged.is_some()
            || (self.declarations_done() && (!log.is_recording() || log.entries().len() >= self.target_events))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Recording>();
    app.add_systems(
        Update,
        forget_previous_battle.run_if(resource_changed::<CombatInfo>).before(CombatSystems::Surprise),
    );
    app.add_systems(
        Update,
        (
            (follow_saved_seats, feed_saved_declarations)
                .chain()
                .in_set(DeclareSystems::Choose)
                .run_if(resource_exists::<Replay>),
            record_accepted
                .after(DeclareSystems::Record)
                .before(DeclareSystems::Close)
                .in_set(CombatSystems::Declare)
                .run_if(|recording: Res<Recording>| recording.is_on()),
        ),
    );
}

/// A new battle starts with an empty record (kept off if it was off).
fn forget_previous_battle(mut recording: ResMut<Recording>) {
    *recording = Recording { off: recording.off, ..Recording::default() };
}

/// While a save replays, each unit declaring in this round is played by whoever made its saved
/// declaration (`by`): a side handed to the AI mid-battle, or taken back, replays as it was
/// played, the AI drawing on its stream exactly as it did.
fn follow_saved_seats(
    replay: Res<Replay>,
    queue: Res<DeclarationQueue>,
    state: Res<CombatState>,
    mut units: Query<(&UnitId, &mut Controller)>,
) {
    if !queue.open {
        return;
    }
    let mut seen: Vec<&std::sync::Arc<str>> = Vec::new();
    for (at, entry) in replay.expected.iter().enumerate() {
        if replay.matched[at] || entry.round != state.round || seen.contains(&&entry.unit) {
            continue;
        }
        seen.push(&entry.unit);
        if let Some((_, mut controller)) = units.iter_mut().find(|(id, _)| id.0 == entry.unit) {
            controller.set_if_neq(entry.by);
        }
    }
}

/// Sends the saved human declarations whose unit may declare now, in the saved order.
fn feed_saved_declarations(
    mut replay: ResMut<Replay>,
    queue: Res<DeclarationQueue>,
    state: Res<CombatState>,
    units: Query<(Entity, &UnitId, &Controller)>,
    mut chosen: MessageWriter<ActionChosen>,
) {
    if !queue.open || replay.diverged.is_some() {
        return;
    }
    let find = |id: &str| {
        units.iter().find(|(_, unit, _)| &*unit.0 == id).map(|(entity, _, controller)| (entity, *controller))
    };
    // A unit declares once a turn: its next saved declaration waits for its next turn.
    let mut fed_now: Vec<Entity> = Vec::new();
    for at in 0..replay.expected.len() {
        let entry = &replay.expected[at];
        if replay.fed[at] || replay.matched[at] || entry.round != state.round {
            continue;
        }
        let Some((entity, controller)) = find(&entry.unit) else {
            continue;
        };
        if controller != Controller::Human && !replay.feed_every {
            continue;
        }
        if !queue.may_declare(entity) || fed_now.contains(&entity) {
            continue;
        }
        fed_now.push(entity);
        match action_of(entry, |id| find(id).map(|(entity, _)| entity)) {
            Ok(action) => {
                chosen.write(ActionChosen { unit: entity, action });
                replay.fed[at] = true;
            }
            Err(problem) => {
                replay.diverged = Some(problem);
                return;
            }
        }
    }
}

/// The action a recorded declaration describes, its units found by level id with `find`; an
/// error names a target not in the battle.
pub fn action_of(entry: &Declaration, find: impl Fn(&str) -> Option<Entity>) -> Result<Action, String> {
    let look_up = |id: &Option<std::sync::Arc<str>>, what: &str| match id {
        Some(id) => find(id)
            .map(Some)
            .ok_or_else(|| format!("round {}: {}'s {what} {id} is not in the battle", entry.round, entry.unit)),
        None => Ok(None),
    };
    let target = look_up(&entry.target, "target")?;
    let held = match &entry.held {
        Some(plan) => {
            let target = look_up(&plan.target, "held target")?;
            Some(HeldPlan { kind: plan.kind.into(), target, move_to: plan.move_to })
        }
        None => None,
    };
    Ok(Action {
        kind: entry.kind.into(),
        target,
        move_to: entry.move_to,
        bonus: entry.bonus,
        push_to: entry.push_to,
        move_after: entry.move_after,
        held,
    })
}

/// The record of `action`, declared by `unit` (played by `by`) in `round`, its targets named
/// by level id with `name`.
pub fn declaration_of(
    round: u32,
    unit: std::sync::Arc<str>,
    by: Controller,
    action: &Action,
    name: impl Fn(Entity) -> Option<std::sync::Arc<str>>,
) -> Declaration {
    Declaration {
        round,
        unit,
        by,
        kind: action.kind.into(),
        target: action.target.and_then(&name),
        move_to: action.move_to,
        bonus: action.bonus,
        push_to: action.push_to,
        move_after: action.move_after,
        held: action.held.map(|plan| SavedHeld {
            kind: plan.kind.into(),
            target: plan.target.and_then(&name),
            move_to: plan.move_to,
        }),
    }
}

/// Records each declaration the rules accepted this pass, once; while replaying, checks it
/// against the save.
fn record_accepted(
    mut chosen: MessageReader<ActionChosen>,
    units: Query<(&UnitId, &Declared, &Controller)>,
    ids: Query<&UnitId>,
    state: Res<CombatState>,
    ai_rng: Option<Res<AiRng>>,
    mut recording: ResMut<Recording>,
    replay: Option<ResMut<Replay>>,
) {
    let mut replay = replay;
    for choice in chosen.read() {
        let Ok((id, declared, controller)) = units.get(choice.unit) else {
            continue;
        };
        let Some(action) = declared.action else {
            continue;
        };
        let (round, turn) = (state.round, state.turn_cursor);
        if recording.recorded(round, turn, &id.0) {
            continue;
        }
        let entry = declaration_of(round, id.0.clone(), *controller, &action, |target| {
            ids.get(target).ok().map(|target| target.0.clone())
        });
        if let Some(replay) = replay.as_deref_mut() {
            check_against_save(replay, &entry);
        }
        let stream = ai_rng.as_deref().cloned().unwrap_or_default();
        recording.push(entry, turn, stream);
    }
    if let Some(replay) = replay.as_deref_mut()
        && replay.diverged.is_none()
        && let Some(at) = (0..replay.expected.len()).find(|&at| replay.fed[at] && !replay.matched[at])
    {
        let entry = &replay.expected[at];
        replay.diverged = Some(format!(
            "round {}: the rules refused {}'s saved declaration ({:?})",
            entry.round, entry.unit, entry.kind
        ));
    }
}

/// Marks the saved entry `entry` repeats, or notes where the replay left the save.
fn check_against_save(replay: &mut Replay, entry: &Declaration) {
    if replay.diverged.is_some() {
        return;
    }
    let same_turn = (0..replay.expected.len()).find(|&at| {
        !replay.matched[at] && replay.expected[at].round == entry.round && replay.expected[at].unit == entry.unit
    });
    match same_turn {
        Some(at) if replay.expected[at] == *entry => replay.matched[at] = true,
        Some(at) => {
            replay.diverged = Some(format!(
                "round {}: {} declared {:?} but the save says {:?}",
                entry.round,
                entry.unit,
                describe(entry),
                describe(&replay.expected[at])
            ));
        }
        // Past the saved declarations the battle simply goes on.
        None if replay.declarations_done() => {}
        None => {
            replay.diverged = Some(format!(
                "round {}: {} declared {:?}, which the save does not have",
                entry.round,
                entry.unit,
                describe(entry)
            ));
        }
    }
}

/// A declaration in a few words, for messages.
fn describe(entry: &Declaration) -> String {
    let mut text = format!("{:?} (by {})", entry.kind, entry.by.log_name());
    if let Some(target) = &entry.target {
        text.push_str(&format!(" at {target}"));
    }
    if let Some(zone) = entry.move_to {
        text.push_str(&format!(" after moving to zone {zone}"));
    }
    if let Some(zone) = entry.push_to {
        text.push_str(&format!(" pushing into zone {zone}"));
    }
    if let Some(zone) = entry.move_after {
        text.push_str(&format!(" then moving to zone {zone}"));
    }
    if let Some(plan) = &entry.held {
        text.push_str(&format!(", held to {:?}", plan.kind));
        if let Some(target) = &plan.target {
            text.push_str(&format!(" at {target}"));
        }
    }
    text
}
