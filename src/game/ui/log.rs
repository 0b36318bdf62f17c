//! The combat log window: every entry with its rolls folded away, new dice tumbling a moment
//! before they settle, each round under its heading (and each turn, in rulesets that play in
//! turns), and the JSON Lines export.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::widgets::tracked_button;
use super::{NOTICE_GAP, UiSystems};
use crate::battlefield::Battlefield;
use crate::game::model::battle_ui::{BattleUi, UiCommand};
use crate::game::model::playing_count::{PlayingCount, ShownLog};
use crate::game::model::screen::Screen;
use crate::game::model::screen::{LEFT_PANEL_WIDTH, top_bar_height};
use crate::rules::CombatInfo;
use crate::rules::glossary::Glossary;
use crate::rules::log::{CombatLog, LogEntry, LogEvent, line};
use crate::rules::log_text::{self, Names};
use crate::rules::ruleset::Ruleset;

/// Room above a round's heading, in points.
const ROUND_HEADING_SPACE: f32 = 4.0;
/// Room above a turn's heading, in points.
const TURN_HEADING_SPACE: f32 = 2.0;
/// How strongly the lines of the count on the board are tinted.
const PLAYING_FILL: f32 = 0.45;
/// Room left over the log window for the banner over the board, in points.
const BANNER_ROOM: f32 = 170.0;
/// What marks a chat line in the log, so it is not read as the battle's.
const CHAT_MARK: &str = "Chat ·";
/// The colour of chat lines in the log: a soft blue apart from the battle's text.
const CHAT_COLOUR: egui::Color32 = egui::Color32::from_rgb(120, 170, 230);
/// Default size of the log window, in points.
const LOG_SIZE: [f32; 2] = [520.0, 300.0];

/// Draws the log window during a battle, while it is open.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_log.run_if(in_state(Screen::Battle)).in_set(UiSystems::Log));
}

/// The combat log window, with every roll expandable, and the JSON Lines export.
fn draw_log(
    mut contexts: EguiContexts,
    ui_state: Res<BattleUi>,
    (log, info): (Res<CombatLog>, Res<CombatInfo>),
    battlefield: Res<Battlefield>,
    mut commands: MessageWriter<UiCommand>,
    (time, mut window): (Res<Time>, Local<LogWindow>),
    (shown, playing, ruleset, follower): (
        Res<ShownLog>,
        Res<PlayingCount>,
        Res<Ruleset>,
        Option<Res<crate::net::Follower>>,
    ),
) -> Result {
    let chat = follower.as_deref().map_or_else(Vec::new, chat_lines);
    let now = time.elapsed_secs_f64();
    // The log keeps pace with the board: the count on show's lines come up as it plays.
    let entries = log.entries().get(..shown.0).unwrap_or(log.entries());
    window.arrivals.note(entries.len(), now);
    let LogWindow { export, arrivals, shown: was_shown, lines_seen } = &mut *window;
    // While a count plays out, each of its lines is brought into view as it comes up.
    let grew = entries.len() > std::mem::replace(lines_seen, entries.len());
    let new_line_up = grew && playing.playing();
    // Behind the curtain the log would show the battle to the wrong player.
    if !ui_state.show_log || ui_state.curtain.is_some() {
        *was_shown = false;
        return Ok(());
    }
    // Reopened, the log shows its newest line, not wherever it was left.
    let just_opened = !std::mem::replace(was_shown, true);
    let ctx = contexts.ctx_mut()?;
    // The log's first line lists every unit of the battle, reinforcements included.
    let names = Names::from_log(log.entries()).with_zones(&battlefield);
    let mut open = true;
    egui::Window::new("Combat log")
        .open(&mut open)
        .order(egui::Order::Foreground)
        .default_size(LOG_SIZE)
        // Left on the board, under the banner that says what is happening now and clear of
        // the game-over window at the bottom.
        .default_pos(egui::pos2(
            LEFT_PANEL_WIDTH + NOTICE_GAP,
            top_bar_height(ctx.content_rect().width()) + BANNER_ROOM,
        ))
        .vscroll(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if tracked_button(ui, "Export JSON Lines").clicked() {
                    *export = Some(export_log(&log, &info));
                }
                if let Some(message) = export.as_deref() {
                    ui.label(RichText::new(message).small());
                }
            });
            ui.separator();
            // In rulesets that play in turns, each turn opens under its own heading too.
            let turns = if ruleset.turns.order.on_turn() { turn_starts(entries) } else { HashMap::new() };
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                let mut chat = chat.iter().peekable();
                for (at, entry) in entries.iter().enumerate() {
                    while let Some((_, line)) = chat.next_if(|(said, _)| *said <= at) {
                        chat_line(ui, line);
                    }
                    let rolling = arrivals.rolling(at, now);
                    // Each round opens under its own heading.
                    let previous = at.checked_sub(1).and_then(|before| entries.get(before));
                    if entry.round > 0 && previous.is_none_or(|before| before.round != entry.round) {
                        ui.add_space(ROUND_HEADING_SPACE);
                        ui.label(RichText::new(format!("Round {}", entry.round)).strong());
                    }
                    if let Some(turn) = turns.get(&at) {
                        ui.add_space(TURN_HEADING_SPACE);
                        ui.label(RichText::new(turn.heading(entries, &names)).strong().small());
                    }
                    if playing.holds(at) {
                        // The lines of the count on the board stand out.
                        egui::Frame::new()
                            .fill(ui.visuals().selection.bg_fill.gamma_multiply(PLAYING_FILL))
                            .show(ui, |ui| log_entry(ui, at, entry, (&names, &ruleset.name), rolling));
                    } else {
                        log_entry(ui, at, entry, (&names, &ruleset.name), rolling);
                    }
                }
                for (_, line) in chat {
                    chat_line(ui, line);
                }
                if just_opened || new_line_up {
                    ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
                }
            });
        });
    if !open {
        commands.write(UiCommand::ToggleLog);
    }
    Ok(())
}

/// Online chat, each line with the number of log lines there were when it was said.
fn chat_lines(follower: &crate::net::Follower) -> Vec<(usize, String)> {
    follower
        .notices
        .iter()
        .filter_map(|notice| match notice {
            crate::net::Notice::Chat { from, text, at } => Some((*at, format!("{from}: {text}"))),
            _ => None,
        })
        .collect()
}

/// A chat line among the battle's: marked as chat, in the chat colour.
fn chat_line(ui: &mut egui::Ui, line: &str) {
    ui.label(RichText::new(format!("{CHAT_MARK} {line}")).italics().color(CHAT_COLOUR));
}

/// The start of a turn, in a ruleset that plays in turns: its place in the round and who takes
/// it (several units when they take it together).
#[derive(Debug, Clone, PartialEq, Eq)]
struct TurnStart {
    /// The turn's place in the round (1, 2, 3, ...).
    turn: i32,
    /// The log ids of the units that take it, in the order they declared.
    units: Vec<Arc<str>>,
}

impl TurnStart {
    /// `Turn 2 · Sir Aldous (party)`: the turn and whose it is, each unit with its side as the
    /// log's first line names it.
    fn heading(&self, entries: &[LogEntry], names: &Names) -> String {
        let sides: HashMap<&str, &str> = match entries.first().map(|entry| &entry.event) {
            Some(LogEvent::CombatStarted(started)) => {
                started.units.iter().map(|unit| (&*unit.id, &*unit.side)).collect()
            }
            _ => HashMap::new(),
        };
        let whose: Vec<String> = self
            .units
            .iter()
            .map(|unit| match sides.get(&**unit) {
                Some(side) => format!("{} ({side})", names.unit(unit)),
                None => names.unit(unit).to_string(),
            })
            .collect();
        format!("Turn {} · {}", self.turn, whose.join(", "))
    }
}

/// Where each turn starts in a log of a ruleset that plays in turns, by the index of its first
/// `declared` line: there, a unit's `initiative` is its turn's place in the round, so a new
/// place is a new turn. Units declaring one after another at the same place take that turn
/// together; a held action answering a foe's turn, or the rest of a unit's own turn, is part of
/// the turn it comes in. A turn's first lines before its `declared` line (burning, hazards) come
/// before its heading.
fn turn_starts(entries: &[LogEntry]) -> HashMap<usize, TurnStart> {
    let mut starts: HashMap<usize, TurnStart> = HashMap::new();
    // The turn going on: its round, its place and where its heading is.
    let mut current: Option<(u32, i32, usize)> = None;
    for (at, entry) in entries.iter().enumerate() {
        let LogEvent::Declared(line::Declared { unit, initiative, held, .. }) = &entry.event else {
            continue;
        };
        match current {
            Some((round, turn, heading)) if round == entry.round && turn == *initiative => {
                let start = starts.get_mut(&heading);
                if let Some(start) = start.filter(|start| !*held && !start.units.contains(unit)) {
                    start.units.push(unit.clone());
                }
            }
            _ => {
                starts.insert(at, TurnStart { turn: *initiative, units: vec![unit.clone()] });
                current = Some((entry.round, *initiative, at));
            }
        }
    }
    starts
}

/// What the log window keeps between frames.
#[derive(Debug, Default)]
struct LogWindow {
    /// What the last export said.
    export: Option<String>,
    /// When each entry arrived.
    arrivals: LogArrivals,
    /// Whether the window showed last frame.
    shown: bool,
    /// How many lines it showed last frame.
    lines_seen: usize,
}

/// When each log entry arrived, so the newest rolls tumble a moment before they settle.
#[derive(Debug, Default)]
struct LogArrivals {
    /// Arrival times, by entry index.
    times: Vec<f64>,
}

impl LogArrivals {
    /// Notes the entries new since the last frame (a restart's shorter log starts over).
    fn note(&mut self, entries: usize, now: f64) {
        if entries < self.times.len() {
            self.times.clear();
        }
        // The entries already there when the log first shows are history: no tumbling.
        let arrived = if self.times.is_empty() && entries > 0 { f64::NEG_INFINITY } else { now };
        self.times.resize(entries, arrived);
    }

    /// While entry `at` is new, how far its dice are into their tumble (0 to 1).
    fn rolling(&self, at: usize, now: f64) -> Option<f64> {
        let age = now - *self.times.get(at)?;
        (age < DICE_TUMBLE_SECONDS).then(|| age / DICE_TUMBLE_SECONDS)
    }
}

/// How long a new roll's dice tumble in the log before showing their faces.
const DICE_TUMBLE_SECONDS: f64 = 0.6;
/// How many times a second tumbling dice change face.
const DICE_TUMBLE_RATE: f64 = 14.0;

/// A die's face while it tumbles: any face but the real one's twin for a frame, the same for
/// everyone watching (a hash of the moment, not the combat RNG, which it must never touch).
fn tumbling_face(sides: u32, die: usize, progress: f64) -> u32 {
    let tick = (progress * DICE_TUMBLE_SECONDS * DICE_TUMBLE_RATE) as u64;
    let mixed = (tick.wrapping_add(1) ^ ((die as u64) << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 33) as u32 % sides.max(1) + 1
}

/// A roll's line in the log: `what: expr = total`, or its dice tumbling while it is new.
fn roll_line(what: &str, roll: &crate::rules::dice::DiceRoll, rolling: Option<f64>) -> String {
    match rolling {
        Some(progress) if roll.expr.sides > 0 && !roll.dice.is_empty() => {
            let faces: Vec<String> =
                (0..roll.dice.len()).map(|die| tumbling_face(roll.expr.sides, die, progress).to_string()).collect();
            format!("{what}: {} = [{}] ...", roll.expr, faces.join(" "))
        }
        _ => format!("{what}: {} = {}", roll.expr, roll.total),
    }
}

/// One entry: its line, and each of its rolls folded away (tumbling a moment when new).
fn log_entry(ui: &mut egui::Ui, at: usize, entry: &LogEntry, (names, ruleset): (&Names, &str), rolling: Option<f64>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("R{}", entry.round)).weak().monospace());
        let text = log_text::describe(entry, names);
        // The rules words the line uses, explained on hover.
        let terms = Glossary::builtin().terms_in(&text, ruleset);
        let line = ui.label(text);
        if !terms.is_empty() {
            let words: Vec<String> = terms.iter().map(|(term, words)| format!("{}: {words}", term.label())).collect();
            line.on_hover_text(words.join("\n\n"));
        }
    });
    for (roll_at, (what, roll)) in log_text::rolls(&entry.event).into_iter().enumerate() {
        ui.indent(("log_roll", at, roll_at), |ui| {
            egui::CollapsingHeader::new(RichText::new(roll_line(&what, roll, rolling)).small())
                .id_salt(("log_roll_header", at, roll_at))
                .show(ui, |ui| {
                    let faces: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
                    let faces = if faces.is_empty() { "none".to_string() } else { faces.join(", ") };
                    ui.label(RichText::new(format!("faces: {faces}")).small().monospace());
                    ui.label(RichText::new(format!("modifier: {:+}", roll.expr.modifier)).small().monospace());
                });
        });
    }
}

/// Writes the log as JSON Lines next to the game and says where (or why not).
fn export_log(log: &CombatLog, info: &CombatInfo) -> String {
    let level: String =
        info.level.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let path = PathBuf::from(format!("fray-log-{level}-{}.jsonl", info.seed));
    let shown = std::env::current_dir().map_or_else(|_| path.clone(), |dir| dir.join(&path));
    match crate::files::write_atomically(&path, log.to_json_lines().as_bytes()) {
        Ok(()) => format!("saved to {}", shown.display()),
        Err(error) => format!("could not write {}: {error}", shown.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::{BattleSetup, load_builtin_level};
    use crate::rules::components::{AiKind, Controller};

    fn declared(round: u32, unit: &str, turn: i32, held: bool) -> LogEntry {
        let event = LogEvent::Declared(line::Declared {
            unit: unit.into(),
            action: crate::rules::components::ActionKind::Attack,
            target: None,
            modifier: 0,
            initiative: turn,
            move_to: None,
            aim: None,
            using: None,
            carried_over: false,
            move_after: None,
            held,
        });
        LogEntry { round, event }
    }

    fn turn(turn: i32, units: &[&str]) -> TurnStart {
        TurnStart { turn, units: units.iter().map(|unit| Arc::from(*unit)).collect() }
    }

    #[test]
    fn each_turn_starts_at_its_first_declaration_and_names_who_takes_it() {
        let entries = [
            LogEntry { round: 1, event: LogEvent::RoundStarted {} },
            declared(1, "aldous", 1, false),
            declared(1, "maren", 2, false),
            declared(1, "tobiah", 2, false),
            // A held strike answering the bandit's turn, and the rest of the bandit's own turn.
            declared(1, "bandit", 3, false),
            declared(1, "aldous", 3, true),
            declared(1, "bandit", 3, false),
            LogEntry { round: 2, event: LogEvent::RoundStarted {} },
            // Turn 1 again, in a new round.
            declared(2, "bandit", 1, false),
        ];
        let starts = turn_starts(&entries);
        let expected = HashMap::from([
            (1, turn(1, &["aldous"])),
            (2, turn(2, &["maren", "tobiah"])),
            (4, turn(3, &["bandit"])),
            (8, turn(1, &["bandit"])),
        ]);
        assert_eq!(starts, expected);
    }

    #[test]
    fn a_battle_played_in_turns_has_a_heading_for_every_turn_of_every_round() {
        let template = load_builtin_level("shock_and_cover_skirmish.ron", &crate::levels::mods::ModSet::default())
            .expect("the level loads");
        assert!(template.ruleset.turns.order.on_turn(), "shock_and_cover plays in turns");
        let greedy = Controller::Ai(AiKind::Greedy);
        let setup = BattleSetup { seed: 7, controllers: vec![(0, greedy), (1, greedy)], record_log: true };
        let mut battle = crate::headless::HeadlessBattle::new();
        battle.start(&template, &setup);
        battle.run_to_end();
        let entries = battle.log().entries();
        let names = Names::from_log(entries);
        let starts = turn_starts(entries);
        let rounds: std::collections::BTreeSet<u32> = entries
            .iter()
            .filter(|entry| matches!(entry.event, LogEvent::Declared(_)))
            .map(|entry| entry.round)
            .collect();
        assert!(rounds.len() >= 2, "rounds with declarations: {rounds:?}");
        for round in rounds {
            let mut turns: Vec<(usize, &TurnStart)> =
                starts.iter().filter(|(at, _)| entries[**at].round == round).map(|(at, start)| (*at, start)).collect();
            turns.sort_unstable_by_key(|(at, _)| *at);
            let numbers: Vec<i32> = turns.iter().map(|(_, start)| start.turn).collect();
            assert_eq!(numbers.first(), Some(&1), "round {round} opens with turn 1: {numbers:?}");
            assert!(numbers.windows(2).all(|pair| pair[0] < pair[1]), "round {round}: {numbers:?}");
            for (at, start) in turns {
                let heading = start.heading(entries, &names);
                let LogEvent::Declared(first) = &entries[at].event else {
                    panic!("a turn starts at a declaration");
                };
                assert!(
                    heading.starts_with(&format!("Turn {} · {}", start.turn, names.unit(&first.unit))),
                    "{heading}"
                );
                assert!(heading.contains('(') && heading.ends_with(')'), "names the side: {heading}");
            }
        }
    }
}
