//! Fray's integration tests in one binary, so Bevy is linked once rather than once per file:
//! scenario tests by rule ID, property tests, the referee, the golden logs, the command line and
//! the window-free parts of the game. The real-window tests keep their own binary
//! (`tests/window.rs`).
//!
//! The crate root holds the shared harness: a headless app with the rules, a level written
//! inline, scripted dice, declarations sent as a controller would, and the log, read as typed
//! lines (`lines::<line::Attack>(&app)`) or, for the tests of the public contract, as JSON.

mod ai;
mod aimed_partials;
mod arena_cli;
mod battle_end;
mod check_errors;
mod determinism;
mod forecast;
mod golden;
mod grapple;
mod grid_geometry;
mod held_actions;
mod hot_reload;
mod invariants;
mod level_editor;
mod mass_battle;
mod mods;
mod new_level;
mod online;
mod online_cli;
mod partial_rows;
mod party_side;
mod playout_figures;
mod referee;
mod robustness;
mod rulesets;
mod save_load;
mod schema;
mod shock_actions;
mod shock_and_cover_attacks;
mod small_defects;
mod split_move;
mod stress_and_wounds;
mod tactician;
mod tactician_positions;
mod ui_logic;
mod zones_partials;

use std::path::Path;

use bevy::prelude::*;
use fray::levels::catalog::AssetSource;
use fray::levels::{BattleSetup, BattleTemplate, load_level_text};
use fray::rules::components::*;
use fray::rules::dice::CombatRng;
pub use fray::rules::log::line::{self, Line};
use fray::rules::log::{CombatLog, LogEntry};
use fray::rules::unit::UnitReadOnly;
use fray::rules::{ActionChosen, CombatState};
use serde_json::Value;

/// Weapons and creatures every scenario level can use, with round numbers so the arithmetic is easy.
pub const TEST_CATALOG: &str = r#"
    weapons: {
        "blade": (damage: "1d8", damage_type: slashing, speed: 2),
        "club6": (damage: "6", damage_type: blunt, speed: 3, critical_multiplier: 3),
        "axe12": (damage: "12", damage_type: chopping, speed: 2),
        "tap": (damage: "1", damage_type: blunt, speed: 2),
        "pike": (damage: "1d6", damage_type: piercing, speed: 3, reach: 1),
        "bow": (damage: "1d6", damage_type: piercing, speed: 3, range: Some(2)),
        "claws0": (damage: "1d4", damage_type: slashing, speed: 0),
    },
    creatures: {
        "soldier": (name: "Soldier", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2)),
        "guard": (name: "Guard", hd: "2d8", attributes: (agility: 14), defense: 1, weapon: "blade", speed: 2),
    },
"#;

/// The sides of most scenarios: `red` and `blue`, both declared by hand.
pub const RED_AND_BLUE: &str = r#"(name: "red", controller: Human), (name: "blue", controller: Human)"#;

/// A grid level under `ruleset` with these `rows` (squares per zone 6), `sides`, a `catalog`
/// block (such as [`TEST_CATALOG`]) and `units`.
pub fn grid_level_text(ruleset: &str, rows: &[&str], sides: &str, catalog: &str, units: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|row| format!("\"{row}\"")).collect();
    format!(
        r#"(
    name: "grid scenario",
    ruleset: "{ruleset}",
    grid: Some((rows: [{}], squares_per_zone: 6)),
    sides: [{sides}],
    {catalog}
    units: [{units}],
)"#,
        rows.join(", ")
    )
}

/// A level with zones `a - b - c - d` in a line, sides `red` and `blue`, the test catalog, and `units`.
pub fn line_level(extra: &str, units: &str) -> String {
    format!(
        r#"(
    name: "scenario",
    zones: [(id: "a", adjacent: ["b"]), (id: "b", adjacent: ["c"]), (id: "c", adjacent: ["d"]), (id: "d")],
    sides: [(name: "red", controller: Human), (name: "blue", controller: Human)],
    {TEST_CATALOG}
    {extra}
    units: [{units}],
)"#
    )
}

/// Loads a level from text with the built-in assets; panics with the errors if it does not load.
pub fn level_template(text: &str) -> BattleTemplate {
    match load_level_text(text, Path::new("scenario.ron"), &AssetSource::default()) {
        Ok(template) => template,
        Err(errors) => panic!("the scenario level does not load:\n{errors}\n{text}"),
    }
}

/// A headless app (MinimalPlugins + the engine) with the battle spawned, dice seeded by `seed`.
pub fn app_with(template: &BattleTemplate, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(fray::headless_plugin);
    template.spawn(app.world_mut(), &BattleSetup { seed, controllers: Vec::new(), record_log: true });
    app
}

/// A headless app whose dice come up `faces`, in order.
pub fn scripted(text: &str, faces: &[u32]) -> App {
    let mut app = app_with(&level_template(text), 0);
    app.world_mut().insert_resource(CombatRng::scripted(faces.iter().copied()));
    app
}

/// The entity of the unit with level id `id`.
pub fn unit(app: &mut App, id: &str) -> Entity {
    let world = app.world_mut();
    world
        .query::<(Entity, &UnitId)>()
        .iter(world)
        .find(|(_, unit)| &*unit.0 == id)
        .map(|(entity, _)| entity)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// A component of a unit.
pub fn get<T: Component + Clone>(app: &mut App, id: &str) -> T {
    let entity = unit(app, id);
    app.world().get::<T>(entity).cloned().unwrap_or_else(|| panic!("{id} has no such component"))
}

/// Changes a component of a unit.
pub fn set<T: Component<Mutability = bevy::ecs::component::Mutable>>(
    app: &mut App,
    id: &str,
    change: impl FnOnce(&mut T),
) {
    let entity = unit(app, id);
    let mut component = app.world_mut().get_mut::<T>(entity).expect("component present");
    change(&mut component);
}

/// Sends a declaration for `id`, as the UI or an AI would.
pub fn declare(app: &mut App, id: &str, kind: ActionKind, target: Option<&str>, move_to: Option<&str>) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to =
        move_to.map(|zone| app.world().resource::<fray::battlefield::Battlefield>().find(zone).expect("zone"));
    app.world_mut().write_message(ActionChosen { unit: entity, action: Action::new(kind, target, move_to) });
}

/// The bodies of the log's lines of kind `L` so far, in order: `lines::<line::Attack>(&app)`.
pub fn lines<L: Line + Clone>(app: &App) -> Vec<L> {
    app.world().resource::<CombatLog>().lines::<L>().cloned().collect()
}

/// The bodies of the log's lines of kind `L` logged in `round`, in order.
pub fn lines_in_round<L: Line + Clone>(app: &App, round: u32) -> Vec<L> {
    let log = app.world().resource::<CombatLog>();
    log.entries().iter().filter(|entry| entry.round == round).filter_map(|entry| L::of(&entry.event)).cloned().collect()
}

/// A roll's dice expression as the log writes it (`"1d3+2"`), if the roll was made.
pub fn expr(roll: Option<&fray::rules::dice::DiceRoll>) -> Option<String> {
    roll.map(|roll| roll.expr.to_string())
}

/// Every log line so far, in order, for tests about the order of lines of different kinds.
pub fn log_entries(app: &App) -> Vec<LogEntry> {
    app.world().resource::<CombatLog>().entries().to_vec()
}

/// Where the first line of kind `L` that `wanted` picks stands in `log`, if any.
pub fn line_position<L: Line>(log: &[LogEntry], wanted: impl Fn(&L) -> bool) -> Option<usize> {
    log.iter().position(|entry| L::of(&entry.event).is_some_and(&wanted))
}

/// The whole log so far, as JSON values: for the tests of the public log contract.
pub fn log(app: &App) -> Vec<Value> {
    app.world()
        .resource::<CombatLog>()
        .to_json_lines()
        .lines()
        .map(|line| serde_json::from_str(line).expect("every log line is JSON"))
        .collect()
}

/// Log events named `event`.
pub fn events(app: &App, event: &str) -> Vec<Value> {
    log(app).into_iter().filter(|value| value["event"] == event).collect()
}

/// The pipeline state.
pub fn state(app: &App) -> CombatState {
    app.world().resource::<CombatState>().clone()
}

/// Runs `f` with a read-only view of the unit.
pub fn with_view<R>(app: &mut App, id: &str, f: impl FnOnce(&fray::rules::unit::UnitView, &World) -> R) -> R {
    let entity = unit(app, id);
    let world = app.world_mut();
    let mut query = world.query::<UnitReadOnly>();
    let world = &*world;
    let view = query.get(world, entity).expect("unit");
    f(&view, world)
}

/// Gives the unit `points` hit points (raising its maximum to match), so no blow in a scenario
/// threatens to drop it.
pub fn hit_points(app: &mut App, id: &str, points: i32) {
    set::<Wounds>(app, id, |wounds| {
        wounds.current = points;
        wounds.max = wounds.max.max(points);
    });
}

/// The `attack` lines `attacker` has made.
pub fn attacks_by(app: &App, attacker: &str) -> Vec<line::Attack> {
    lines::<line::Attack>(app).into_iter().filter(|attack| &*attack.attacker == attacker).collect()
}
