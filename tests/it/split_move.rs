//! Scenario tests for the split move of `crucible` (`C-MOVE-1`, `movement.split_move`): a unit
//! moves before and after its attack or spell within its movement for the turn; the move after
//! provokes as any move does, is checked at declaration, logged after the action's lines, and
//! saved with the declaration.

use crate::*;
use bevy::prelude::*;
use fray::battlefield::{Battlefield, Place, Square, ZoneIdx, ZoneIndex};
use fray::rules::ActionChosen;
use fray::rules::actions::{self, ActionContext, IllegalAction};
use fray::rules::components::*;
use fray::rules::log::LogEvent;
use fray::rules::ruleset::Ruleset;
use fray::rules::unit::UnitReadOnly;

const RULESET: &str = "crucible";
/// Eight squares by four, open ground.
const OPEN: [&str; 4] = ["........", "........", "........", "........"];
/// No surprise (9, 9); red's side rolls 1 and blue's 8, so red takes the first turn.
const RED_FIRST: [u32; 4] = [9, 9, 1, 8];

const CATALOG: &str = r#"
    weapons: {
        "blade": (damage: "1d8", damage_type: slashing, speed: 2),
        "bow": (damage: "1d6", damage_type: piercing, speed: 3, range: Some(6)),
        "knife": (damage: "1d2", damage_type: piercing, speed: 1),
    },
    creatures: {
        "soldier": (name: "Soldier", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "blade", speed: 2, skills: (attack: 2)),
        "archer": (name: "Archer", hd: "2d8", attributes: (strength: 10, agility: 10), weapon: "bow", speed: 2, skills: (attack: 2)),
    },
"#;

/// A crucible grid level with sides `red` and `blue`, [`CATALOG`] and `units`.
fn grid_level(units: &str) -> String {
    grid_level_text(RULESET, &OPEN, RED_AND_BLUE, CATALOG, units)
}

/// A battle of `units` whose dice come up red first, then `faces`; every unit has 30 hit points.
fn battle(units: &str, faces: &[u32]) -> App {
    let mut script = RED_FIRST.to_vec();
    script.extend_from_slice(faces);
    let mut app = scripted(&grid_level(units), &script);
    for id in ["r1", "b1"] {
        hit_points(&mut app, id, 30);
    }
    app
}

/// The square at `(x, y)`.
fn square(app: &App, (x, y): (i32, i32)) -> ZoneIdx {
    app.world().resource::<Battlefield>().zone_at(Square { x, y }).expect("an open square")
}

/// `id`'s action of `kind` at `target`, moving to `before` first and to `after` once done.
fn split(
    app: &mut App,
    id: &str,
    kind: ActionKind,
    target: Option<&str>,
    before: Option<(i32, i32)>,
    after: Option<(i32, i32)>,
) -> (Entity, Action) {
    let entity = unit(app, id);
    let target = target.map(|target| unit(app, target));
    let move_to = before.map(|at| square(app, at));
    let move_after = after.map(|at| square(app, at));
    (entity, Action { kind, target, move_to, bonus: None, push_to: None, move_after, held: None })
}

/// Sends the declaration, as the window or an AI would.
fn send(app: &mut App, (unit, action): (Entity, Action)) {
    app.world_mut().write_message(ActionChosen { unit, action });
}

/// What the rules' own check says of the declaration.
fn check(app: &mut App, (entity, action): (Entity, Action)) -> Result<i32, IllegalAction> {
    use bevy::ecs::system::RunSystemOnce;
    app.world_mut()
        .run_system_once(
            move |units: Query<UnitReadOnly>,
                  ruleset: Res<Ruleset>,
                  battlefield: Res<Battlefield>,
                  index: Res<ZoneIndex>,
                  state: Res<fray::rules::CombatState>| {
                let ctx =
                    ActionContext { ruleset: &ruleset, battlefield: &battlefield, index: &index, round: state.round };
                let actor = units.get(entity).expect("actor");
                actions::check(ctx, &actor, &action, &units)
            },
        )
        .expect("the check runs")
}

/// The square `id` stands on.
fn standing(app: &mut App, id: &str) -> [i32; 2] {
    let zone = get::<Zone>(app, id).0;
    match app.world().resource::<Battlefield>().place(zone) {
        Place::Square(square) => square,
        Place::Zone(zone) => panic!("{id} stands in zone {zone}, not on a square"),
    }
}

/// The log's lines from `id`'s `declared` line on, each as `event` plus what says who did what.
fn turn_of(app: &App, id: &str) -> Vec<String> {
    let lines = log_entries(app);
    let declared_by =
        |event: &LogEvent, by: &str| matches!(event, LogEvent::Declared(declared) if &*declared.unit == by);
    let start = lines.iter().position(|line| declared_by(&line.event, id)).expect("declared");
    lines[start..]
        .iter()
        .take_while(|line| !matches!(line.event, LogEvent::Declared(_)) || declared_by(&line.event, id))
        .map(|line| describe(&line.event))
        .collect()
}

/// A line as its `event` and who did what: `moved r1 (3, 0)->(4, 0)`, `attack r1->b1 normal`.
fn describe(event: &LogEvent) -> String {
    match event {
        LogEvent::Moved(moved) => format!("moved {} {}->{}", moved.unit, moved.from, moved.to),
        LogEvent::Attack(attack) => format!("attack {}->{} {}", attack.attacker, attack.target, attack.kind.as_str()),
        LogEvent::Declared(declared) => format!("declared {} {}", declared.unit, declared.action.log_name()),
        other => other.name().to_string(),
    }
}

/// Where `needle` first appears in `lines`.
fn at(lines: &[String], needle: &str) -> usize {
    lines.iter().position(|line| line == needle).unwrap_or_else(|| panic!("no `{needle}` in {lines:#?}"))
}

#[test]
fn c_move_1_a_unit_strikes_then_falls_back_with_the_rest_of_its_move() {
    // r1 walks 2 squares to b1, strikes (15 hits, 3 damage), and walks the other 4 back: 6 in all.
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((2, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((5, 0))),
    "#;
    let mut app = battle(units, &[15, 3]);
    app.update();
    // b1 has already spent its one attack of opportunity this round: the fall back is free.
    set::<Reactions>(&mut app, "b1", |reactions| reactions.0 = 0);
    let declaration = split(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((4, 0)), Some((0, 0)));
    assert!(check(&mut app, declaration).is_ok());
    send(&mut app, declaration);
    app.update();
    let declared = lines::<line::Declared>(&app);
    assert_eq!(declared[0].move_to, Some(Place::Square([4, 0])));
    assert_eq!(declared[0].move_after, Some(Place::Square([0, 0])), "the declared line names the move after");
    let turn = turn_of(&app, "r1");
    let strike = at(&turn, "attack r1->b1 normal");
    assert!(at(&turn, "moved r1 (3, 0)->(4, 0)") < strike, "the first leg comes before the blow: {turn:#?}");
    let back: Vec<usize> =
        ["moved r1 (4, 0)->(3, 0)", "moved r1 (3, 0)->(2, 0)", "moved r1 (2, 0)->(1, 0)", "moved r1 (1, 0)->(0, 0)"]
            .iter()
            .map(|needle| at(&turn, needle))
            .collect();
    assert!(back.windows(2).all(|pair| pair[0] < pair[1]), "{turn:#?}");
    assert!(at(&turn, "damage") < back[0], "the second leg comes after the action's damage: {turn:#?}");
    assert_eq!(standing(&mut app, "r1"), [0, 0]);
    assert_eq!(attacks_by(&app, "b1").len(), 0, "nothing provoked");
}

#[test]
fn c_move_1_a_split_move_longer_than_the_speed_is_refused() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((3, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((6, 0))),
    "#;
    let mut app = battle(units, &[15, 3]);
    app.update();
    // 2 squares before and 5 after: 7, one more than the 6 a human moves.
    let long = split(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((5, 0)), Some((0, 0)));
    assert_eq!(check(&mut app, long), Err(IllegalAction::SplitTooFar));
    assert!(IllegalAction::SplitTooFar.to_string().contains("together are longer"), "a clear message");
    let exact = split(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((5, 0)), Some((1, 0)));
    assert!(check(&mut app, exact).is_ok(), "2 + 4 = 6 is the whole move");
    // A plain move is all movement already, and a ruleset without the option keeps every move first.
    let moving = split(&mut app, "r1", ActionKind::Move, None, Some((4, 0)), Some((2, 0)));
    assert_eq!(check(&mut app, moving), Err(IllegalAction::NoMoveAfter));
    app.world_mut().resource_mut::<Ruleset>().movement.split_move = false;
    assert_eq!(check(&mut app, exact), Err(IllegalAction::NoSplitMove));
    app.world_mut().resource_mut::<Ruleset>().movement.split_move = true;
    // Sent anyway, the over-long split is turned down: nothing is declared, nobody moves.
    send(&mut app, long);
    app.update();
    assert!(lines::<line::Declared>(&app).is_empty());
    assert!(lines::<line::Moved>(&app).is_empty());
    assert_eq!(standing(&mut app, "r1"), [3, 0]);
}

#[test]
fn c_move_1_the_second_leg_provokes_like_any_move() {
    // r1 strikes b1 beside it (15 hits, 3 damage), then steps back a square: no 5-ft step after
    // acting, so b1 strikes as it leaves (15 hits, 3 damage).
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 0))),
    "#;
    let mut app = battle(units, &[15, 3, 15, 3]);
    app.update();
    let in_place = split_in_place(&mut app);
    send_and_resolve(&mut app, in_place);
    let turn = turn_of(&app, "r1");
    let strike = at(&turn, "attack r1->b1 normal");
    let opportunity = at(&turn, "attack b1->r1 opportunity");
    let step = at(&turn, "moved r1 (1, 0)->(0, 0)");
    assert!(
        strike < opportunity && opportunity < step,
        "blow, then the attack of opportunity, then the step: {turn:#?}"
    );
    assert_eq!(get::<Reactions>(&mut app, "b1").0, 0);
    assert_eq!(standing(&mut app, "r1"), [0, 0]);

    // The same square stepped before the blow, as the turn's only movement, is the 5-ft step.
    let mut app = battle(units, &[15, 3]);
    app.update();
    let step_first = split(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((1, 1)), None);
    send_and_resolve(&mut app, step_first);
    assert!(attacks_by(&app, "b1").is_empty(), "the 5-ft step provokes nothing");

    // Split, the legs are one move: a square inside b1's reach before the blow and another
    // after it are 10 ft walked inside reach, and the second provokes (C-AOO-1).
    let beside = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1))),
    "#;
    let mut app = battle(beside, &[15, 3, 15, 3]);
    app.update();
    let both = split(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((1, 1)), Some((1, 2)));
    send_and_resolve(&mut app, both);
    let turn = turn_of(&app, "r1");
    let strike = at(&turn, "attack r1->b1 normal");
    let opportunity = at(&turn, "attack b1->r1 opportunity");
    assert!(
        at(&turn, "moved r1 (1, 0)->(1, 1)") < strike
            && strike < opportunity
            && opportunity < at(&turn, "moved r1 (1, 1)->(1, 2)"),
        "the first square inside reach is free, the second, after the blow, provokes: {turn:#?}"
    );
}

/// r1 strikes b1 where it stands, then steps back to (0, 0).
fn split_in_place(app: &mut App) -> (Entity, Action) {
    split(app, "r1", ActionKind::Attack, Some("b1"), None, Some((0, 0)))
}

fn send_and_resolve(app: &mut App, declaration: (Entity, Action)) {
    assert!(check(app, declaration).is_ok(), "{:?}", check(app, declaration));
    send(app, declaration);
    app.update();
}

#[test]
fn c_move_1_a_unit_allowed_only_5_ft_moves_after_its_action() {
    let units = r#"
        (id: "r1", creature: "soldier", side: "red", at: Some((1, 0))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 0))),
    "#;
    let mut app = battle(units, &[15, 3, 15, 3]);
    app.update();
    // Weighed down to a single square: no 5-ft step before acting, only a move after it.
    set::<Speed>(&mut app, "r1", |speed| speed.0 = 1);
    let before = split(&mut app, "r1", ActionKind::Attack, Some("b1"), Some((1, 1)), None);
    assert_eq!(check(&mut app, before), Err(IllegalAction::ShortMoveComesAfter));
    let in_place = split_in_place(&mut app);
    send_and_resolve(&mut app, in_place);
    let turn = turn_of(&app, "r1");
    assert!(at(&turn, "attack b1->r1 opportunity") < at(&turn, "moved r1 (1, 0)->(0, 0)"));
}

#[test]
fn c_move_1_a_shooter_steps_out_of_reach_after_shooting() {
    // An archer beside a knifeman: the greedy AI shoots (drawing b1's one attack of opportunity a
    // round: 5 misses), then steps out of its reach, which b1 can no longer punish (15, 3).
    let units = r#"
        (id: "r1", creature: "archer", side: "red", at: Some((1, 1))),
        (id: "b1", creature: "soldier", side: "blue", at: Some((2, 1)), weapon: Some("knife")),
    "#;
    let mut app = battle(units, &[5, 15, 3, 10, 10, 10, 10]);
    set::<Controller>(&mut app, "r1", |controller| *controller = Controller::Ai(AiKind::Greedy));
    app.update();
    let declared = lines::<line::Declared>(&app);
    let shot = declared.iter().find(|declaration| &*declaration.unit == "r1").expect("r1 declared");
    assert_eq!(shot.action, ActionKind::Attack, "{shot:?}");
    assert!(shot.move_after.is_some(), "it plans to step away: {shot:?}");
    let turn = turn_of(&app, "r1");
    let opportunity = at(&turn, "attack b1->r1 opportunity");
    let own = at(&turn, "attack r1->b1 normal");
    let away = turn.iter().position(|line| line.starts_with("moved r1 ")).expect("r1 moves");
    assert!(opportunity < own && own < away, "the shot's attack of opportunity, the shot, then the step: {turn:#?}");
    assert_eq!(attacks_by(&app, "b1").len(), 1, "the step away provokes nothing more");
    let zone = get::<Zone>(&mut app, "r1").0;
    let b1 = get::<Zone>(&mut app, "b1").0;
    let field = app.world().resource::<Battlefield>();
    assert!(field.distance(zone, b1) > field.melee_reach(0), "out of b1's reach");
}

#[test]
fn c_move_1_a_save_keeps_the_move_after_and_old_saves_load_without_it() {
    use fray::save::format::Declaration;
    let old = r#"(round: 1, unit: "r1", by: human, kind: attack, target: Some("b1"), move_to: Some(3))"#;
    let loaded: Declaration = ron::from_str(old).expect("an old declaration loads");
    assert_eq!(loaded.move_after, None);
    let split = Declaration { move_after: Some(7), ..loaded };
    let text = ron::to_string(&split).expect("saves");
    assert!(text.contains("move_after:Some(7)"), "{text}");
    let again: Declaration = ron::from_str(&text).expect("loads");
    assert_eq!(again.move_after, Some(7));
}
