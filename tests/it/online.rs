//! Online play in one process: a referee, players whose seats local AIs play, and a spectator,
//! joined by replicon's test links (no sockets). Every copy of the battle must write the
//! referee's log, byte for byte, and no client may learn a secret before its pass closes.

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon::test_app::{ServerTestAppExt, TestClientEntity};
use fray::levels::load_builtin_level;
use fray::levels::mods::ModSet;
use fray::net::protocol::{FromWire, Order, Release};
use fray::net::{Follower, Hello, Link, RefereeConfig, Role, SeatPlan, ToClient, ToServer};
use fray::rules::CombatState;
use fray::rules::components::AiKind;
use fray::rules::log::CombatLog;

/// Updates a battle may take, past which a test fails rather than hangs.
const MAX_STEPS: usize = 4000;

/// A referee and its clients in one process.
struct Table {
    referee: App,
    clients: Vec<App>,
}

fn hello(name: &str, role: Role) -> Hello {
    Hello::new(name, role)
}

fn config(sides: usize) -> RefereeConfig {
    RefereeConfig::new(vec![SeatPlan::Remote; sides], 0x5EC2E7, 5)
}

impl Table {
    fn new(level: &str, config: RefereeConfig, clients: Vec<(Hello, Option<AiKind>)>) -> Self {
        let template = load_builtin_level(level, &ModSet::default()).expect("the level loads");
        let mut referee = fray::net::referee_app(template, config, Link::InProcess);
        let clients = clients
            .into_iter()
            .map(|(hello, delegate)| {
                let mut client = fray::net::follower_app(hello, delegate, Link::InProcess);
                referee.connect_client(&mut client);
                client
            })
            .collect();
        Self { referee, clients }
    }

    /// One update of everyone, with the messages moved both ways.
    fn step(&mut self) {
        self.referee.update();
        for client in &mut self.clients {
            if client.world().get_resource::<TestClientEntity>().is_none() {
                continue;
            }
            self.referee.exchange_with_client(client);
            client.update();
            self.referee.exchange_with_client(client);
        }
    }

    fn over(app: &App) -> bool {
        app.world().get_resource::<CombatState>().is_some_and(CombatState::is_over)
    }

    /// Plays until the referee's battle and every follower's are over.
    fn play_out(&mut self) {
        for _ in 0..MAX_STEPS {
            if Self::over(&self.referee) && self.clients.iter().all(Self::over) {
                return;
            }
            self.step();
        }
        panic!(
            "the battle did not end in {MAX_STEPS} updates: {}",
            self.referee.world().resource::<CombatState>().round
        );
    }

    fn log(app: &App) -> String {
        app.world().resource::<CombatLog>().to_json_lines()
    }

    fn received(&self, client: usize) -> &[(usize, ToClient)] {
        &self.clients[client].world().resource::<Follower>().received
    }
}

fn assert_same_logs(table: &Table) {
    let referee = Table::log(&table.referee);
    assert!(referee.contains("combat_ended"), "the referee's battle ended");
    assert!(referee.contains("dice_reseeded"), "online passes reseed the dice");
    for (at, client) in table.clients.iter().enumerate() {
        let follower = client.world().resource::<Follower>();
        assert!(follower.refused.is_none(), "client {at} was refused: {:?}", follower.refused);
        assert_eq!(Table::log(client), referee, "client {at}'s log differs from the referee's");
    }
}

fn two_players_and_a_spectator(first: &str, second: &str) -> Vec<(Hello, Option<AiKind>)> {
    vec![
        (hello("Ann", Role::Side(first.into())), Some(AiKind::Greedy)),
        (hello("Bo", Role::Side(second.into())), Some(AiKind::Random)),
        (hello("Cy", Role::Spectator), None),
    ]
}

#[test]
fn a_secret_pass_battle_is_the_same_on_every_client() {
    let mut table = Table::new("sealed_orders.ron", config(2), two_players_and_a_spectator("wardens", "bandits"));
    table.play_out();
    assert_same_logs(&table);
}

#[test]
fn a_turn_order_grid_battle_is_the_same_on_every_client() {
    let template = load_builtin_level("shock_and_cover_skirmish.ron", &ModSet::default()).unwrap();
    let sides: Vec<String> = template.sides.iter().map(|side| side.name.to_string()).collect();
    let mut table = Table::new(
        "shock_and_cover_skirmish.ron",
        config(sides.len()),
        two_players_and_a_spectator(&sides[0], &sides[1]),
    );
    table.play_out();
    assert_same_logs(&table);
}

/// Sends `message` from client `at` as if it had written it.
fn send(table: &mut Table, at: usize, message: ToServer) {
    table.clients[at].world_mut().write_message(FromWire::Read(message));
}

/// Steps until client `at` is welcomed and its battle awaits a declaration.
fn until_declaring(table: &mut Table, at: usize) {
    for _ in 0..100 {
        let world = table.clients[at].world();
        let welcomed = world.resource::<Follower>().welcomed;
        if welcomed && world.resource::<fray::rules::DeclarationQueue>().open {
            return;
        }
        table.step();
    }
    panic!("client {at} never came to declare");
}

/// The refusals client `at` received, in order.
fn refusals(table: &Table, at: usize) -> Vec<String> {
    table
        .received(at)
        .iter()
        .filter_map(|(_, message)| match message {
            ToClient::Rejected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

fn order(round: u32, unit: &str, kind: fray::save::format::SavedKind, target: Option<&str>) -> Order {
    Order {
        round,
        unit: unit.into(),
        by: fray::rules::components::Controller::Human,
        kind,
        target: target.map(Into::into),
        move_to: None,
        bonus: None,
        push_to: None,
        move_after: None,
        held: None,
    }
}

/// Hands client `at`'s seat to a local greedy AI, as if it had joined with one.
fn let_the_ai_play(table: &mut Table, at: usize, side: usize) {
    let world = table.clients[at].world_mut();
    world.resource_mut::<Follower>().delegate = Some(AiKind::Greedy);
    world.insert_resource(fray::ai::Delegated::new(side, AiKind::Greedy));
}

#[test]
fn each_bad_declaration_is_refused_to_its_sender_and_the_battle_goes_on() {
    use fray::save::format::SavedKind;
    let clients = vec![
        (hello("Ann", Role::Side("wardens".into())), None),
        (hello("Bo", Role::Side("bandits".into())), Some(AiKind::Greedy)),
        (hello("Cy", Role::Spectator), None),
    ];
    let mut table = Table::new("sealed_orders.ron", config(2), clients);
    until_declaring(&mut table, 0);
    let round = table.clients[0].world().resource::<CombatState>().round;
    // Illegal: a warden attacking her own ally.
    send(&mut table, 0, ToServer::Declare { pass: 0, order: order(round, "ruusa", SavedKind::Attack, Some("brand")) });
    // Another side's unit.
    send(&mut table, 0, ToServer::Declare { pass: 0, order: order(round, "varro", SavedKind::Hold, None) });
    // A pass that closed long ago.
    send(&mut table, 0, ToServer::Declare { pass: 7, order: order(round, "ruusa", SavedKind::Hold, None) });
    // A spectator declaring.
    send(&mut table, 2, ToServer::Declare { pass: 0, order: order(round, "cutter", SavedKind::Hold, None) });
    // An oversized message.
    send(&mut table, 0, ToServer::Chat("x".repeat(fray::net::protocol::MAX_CLIENT_MESSAGE * 2)));
    // Garbage bytes on the declarations' channel.
    let channel = table
        .referee
        .world()
        .resource::<bevy_replicon::shared::message::registry::RemoteMessageRegistry>()
        .client_message_channel::<FromWire>()
        .expect("the messages are registered");
    table.clients[0].world_mut().resource_mut::<ClientMessages>().send(channel, vec![0xFF, 0xFE, 0xFD, 0x00, 0x42]);
    for _ in 0..4 {
        table.step();
    }
    let ann = refusals(&table, 0);
    let expected = ["wrong side", "is not your unit", "has closed", "over the limit", "could not read"];
    assert_eq!(ann.len(), expected.len(), "Ann's refusals: {ann:?}");
    // The rules' own refusal comes after the referee's checks of the same update.
    for words in expected {
        assert!(ann.iter().any(|reason| reason.contains(words)), "no refusal says {words:?}: {ann:?}");
    }
    let cy = refusals(&table, 2);
    assert!(cy.len() == 1 && cy[0].contains("spectators do not declare"), "{cy:?}");
    assert!(refusals(&table, 1).is_empty(), "Bo did nothing wrong");
    let_the_ai_play(&mut table, 0, 0);
    table.play_out();
    assert_same_logs(&table);
}

#[test]
fn no_client_learns_a_secret_declaration_or_its_seed_before_the_pass_closes() {
    let mut table = Table::new("sealed_orders.ron", config(2), two_players_and_a_spectator("wardens", "bandits"));
    table.play_out();
    let template = load_builtin_level("sealed_orders.ron", &ModSet::default()).unwrap();
    let side_of = |unit: &str| template.units.iter().find(|entry| &*entry.id == unit).map(|entry| entry.side);
    for (at, own_side) in [(0, Some(0)), (1, Some(1)), (2, None)] {
        let mut orders_seen = 0;
        for (pass, message) in table.received(at) {
            let ToClient::Released(items) = message else {
                if let ToClient::Welcome { record, .. } = message {
                    assert!(!record.contains("pass_seeds: Some([0"), "client {at} was welcomed with a record");
                }
                continue;
            };
            // Every pass is secret here: a declaration of another side reaches a client only in
            // the same release as the seed its pass closed with, after it.
            let seed_at = items.iter().position(|item| matches!(item, Release::Seed(_)));
            for (place, item) in items.iter().enumerate() {
                if let Release::Order(order) = item {
                    orders_seen += 1;
                    if side_of(&order.unit) != own_side {
                        assert!(
                            seed_at.is_some_and(|seed| seed > place),
                            "client {at} got {}'s declaration in pass {pass} before its pass closed: {items:?}",
                            order.unit
                        );
                    }
                }
            }
            assert!(
                items.iter().filter(|item| matches!(item, Release::Seed(_))).count() <= 1,
                "one pass closes at a time: {items:?}"
            );
        }
        assert!(orders_seen > 0, "client {at} saw the battle's declarations");
    }
}

#[test]
fn a_player_who_drops_and_rejoins_within_the_grace_period_finishes_the_battle() {
    let mut table = Table::new("sealed_orders.ron", config(2), two_players_and_a_spectator("wardens", "bandits"));
    for _ in 0..30 {
        table.step();
    }
    let token = table.clients[0].world().resource::<Follower>().hello.token;
    assert_ne!(token, 0, "the player was given a token");
    let mut gone = table.clients.remove(0);
    table.referee.disconnect_client(&mut gone);
    for _ in 0..10 {
        table.step();
    }
    let mut back = hello("Ann", Role::Side("wardens".into()));
    back.token = token;
    let mut client = fray::net::follower_app(back, Some(AiKind::Greedy), Link::InProcess);
    table.referee.connect_client(&mut client);
    table.clients.insert(0, client);
    table.play_out();
    assert_same_logs(&table);
    let log = Table::log(&table.referee);
    assert!(log.contains("\"controller\":\"human\""), "the wardens stayed a human seat");
}

#[test]
fn a_seat_left_past_its_grace_period_is_played_by_the_ai_to_the_end() {
    let mut setup = config(2);
    setup.grace = std::time::Duration::ZERO;
    let mut table = Table::new("sealed_orders.ron", setup, two_players_and_a_spectator("wardens", "bandits"));
    for _ in 0..30 {
        table.step();
    }
    let mut gone = table.clients.remove(0);
    table.referee.disconnect_client(&mut gone);
    table.play_out();
    assert_same_logs(&table);
    let notes = &table.referee.world().resource::<fray::net::Referee>().notes;
    assert!(notes.iter().any(|note| note.contains("AI plays it")), "{notes:?}");
    let save = fray::save::capture(
        table.referee.world_mut(),
        &load_builtin_level("sealed_orders.ron", &ModSet::default()).unwrap(),
    );
    assert!(save.declarations.iter().any(|entry| entry.by != fray::rules::components::Controller::Human));
}

#[test]
fn a_side_whose_player_does_not_return_in_time_forfeits_and_the_save_replays_it() {
    let mut setup = config(2);
    setup.grace = std::time::Duration::ZERO;
    setup.after_grace = fray::net::AfterGrace::Forfeit;
    let mut table = Table::new("sealed_orders.ron", setup, two_players_and_a_spectator("wardens", "bandits"));
    for _ in 0..30 {
        table.step();
    }
    assert!(!Table::over(&table.referee), "the battle is still on when the wardens' player drops");
    let mut gone = table.clients.remove(0);
    table.referee.disconnect_client(&mut gone);
    table.play_out();
    assert_same_logs(&table);
    let log = Table::log(&table.referee);
    assert!(log.contains(r#""status":"forfeited""#), "the wardens' units forfeited:\n{log}");
    let last = log.lines().last().unwrap_or_default();
    assert!(last.ends_with(r#""reason":"forfeit","winner":"bandits"}"#), "the bandits won by forfeit: {last}");
    let told = fray::net::Notice::Forfeited("wardens forfeited: Ann did not return within the grace period".into());
    for at in 0..table.clients.len() {
        let notices = &table.clients[at].world().resource::<Follower>().notices;
        assert!(notices.contains(&told), "client {at} was told: {notices:?}");
    }
    let template = load_builtin_level("sealed_orders.ron", &ModSet::default()).unwrap();
    let save = fray::save::capture(table.referee.world_mut(), &template);
    assert_eq!(save.forfeits.len(), 1, "the save carries the forfeit");
    let record = table.referee.world().resource::<fray::net::Referee>().record();
    assert_eq!(record.forfeits, save.forfeits, "a follower's match record carries it too");
    let path = std::env::temp_dir().join(format!("fray-forfeit-{}.ron", std::process::id()));
    save.write(&path).unwrap();
    let verdict = fray::save::verify::verify_save(&path, &ModSet::default());
    let _ = std::fs::remove_file(&path);
    assert!(matches!(verdict, Ok(fray::save::verify::Verdict::Reproduced(1))), "{verdict:?}");
}

#[test]
fn a_follower_that_goes_out_of_sync_is_told_the_first_differing_line_and_resynced() {
    let mut table = Table::new("sealed_orders.ron", config(2), two_players_and_a_spectator("wardens", "bandits"));
    until_declaring(&mut table, 2);
    // Corrupt the spectator's copy: a unit it believes much weaker than it is.
    let world = table.clients[2].world_mut();
    let mut wounds = world.query::<(&fray::rules::components::UnitId, &mut fray::rules::components::Stress)>();
    for (id, mut stress) in wounds.iter_mut(world) {
        if &*id.0 == "brand" {
            stress.current = 1;
        }
    }
    table.play_out();
    assert_same_logs(&table);
    let notices = &table.clients[2].world().resource::<Follower>().notices;
    assert!(
        notices.iter().any(|notice| matches!(notice, fray::net::Notice::Resynced(text) if text.contains("log line"))),
        "{notices:?}"
    );
    let notes = &table.referee.world().resource::<fray::net::Referee>().notes;
    assert!(notes.iter().any(|note| note.contains("went out of sync at log line")), "{notes:?}");
}

#[test]
fn a_clock_expiry_declares_a_hold_and_the_save_replays_it() {
    let mut setup = config(2);
    setup.clock = Some(std::time::Duration::from_millis(300));
    let clients = vec![
        (hello("Ann", Role::Side("wardens".into())), None),
        (hello("Bo", Role::Side("bandits".into())), Some(AiKind::Greedy)),
    ];
    let mut table = Table::new("sealed_orders.ron", setup, clients);
    table
        .referee
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_millis(100)));
    table.play_out();
    assert_same_logs(&table);
    let template = load_builtin_level("sealed_orders.ron", &ModSet::default()).unwrap();
    let save = fray::save::capture(table.referee.world_mut(), &template);
    let holds = save.declarations.iter().filter(|entry| &*entry.unit == "ruusa").count();
    assert!(holds > 0, "the clock declared for the wardens");
    let path = std::env::temp_dir().join(format!("fray-clock-{}.ron", std::process::id()));
    save.write(&path).unwrap();
    let replayed = fray::save::load_headless(&path, &ModSet::default());
    let _ = std::fs::remove_file(&path);
    let (_, _, battle) = replayed.expect("the save replays");
    assert_eq!(battle.log().to_json_lines(), Table::log(&table.referee));
}

/// The units of `side` in client `at`'s battle, by level id.
fn units_of(table: &mut Table, at: usize, side: usize) -> Vec<(Entity, String)> {
    let world = table.clients[at].world_mut();
    let mut units = world.query::<(Entity, &fray::rules::components::UnitId, &fray::rules::components::SideIndex)>();
    units.iter(world).filter(|(_, _, unit_side)| unit_side.0 == side).map(|(e, id, _)| (e, id.0.to_string())).collect()
}

#[test]
fn a_persons_declarations_go_to_the_referee_and_come_back_when_the_pass_closes() {
    let clients = vec![(hello("Ann", Role::Side("wardens".into())), None)];
    let mut plan = config(2);
    plan.seats[1] = SeatPlan::Ai(AiKind::Greedy);
    let mut table = Table::new("sealed_orders.ron", plan, clients);
    until_declaring(&mut table, 0);
    let wardens = units_of(&mut table, 0, 0);
    let hold = fray::rules::components::Action::simple(fray::rules::components::ActionKind::Hold);
    for (unit, _) in &wardens {
        table.clients[0].world_mut().resource_mut::<fray::net::Declarations>().outbox.push((*unit, hold));
    }
    table.step();
    let pending = table.clients[0].world().resource::<fray::net::Declarations>().pending.len();
    assert_eq!(pending, wardens.len(), "each sent declaration waits for the referee");
    for _ in 0..50 {
        table.step();
    }
    let referee = Table::log(&table.referee);
    for (_, id) in &wardens {
        let held = format!("\"event\":\"declared\",\"round\":1,\"unit\":\"{id}\",\"action\":\"hold\"");
        assert!(referee.contains(&held), "the referee took {id}'s hold: {referee}");
    }
    assert!(
        table.referee.world().resource::<CombatState>().round >= 2,
        "the sealed pass closed and round 1 was played"
    );
    assert_eq!(Table::log(&table.clients[0]), referee, "the follower wrote the referee's log");
    assert!(table.clients[0].world().resource::<fray::net::Declarations>().pending.is_empty());
}

/// Steps the table `updates` times.
fn steps(table: &mut Table, updates: usize) {
    for _ in 0..updates {
        table.step();
    }
}

#[test]
fn a_lobby_waits_for_every_player_to_be_ready_and_for_the_host_to_start() {
    use fray::net::{Lobby, LobbyStart};
    const HOST_KEY: u64 = 77;
    let mut setup = config(2);
    setup.lobby = Some(Lobby { start: LobbyStart::ByHost, host_key: HOST_KEY });
    let host = Hello { host_key: HOST_KEY, ..hello("Ann", Role::Side("wardens".into())) };
    let clients = vec![
        (host, None),
        // A local AI's seat says it is ready by itself.
        (hello("Bo", Role::Side("bandits".into())), Some(AiKind::Random)),
        (hello("Cy", Role::Spectator), None),
    ];
    let mut table = Table::new("sealed_orders.ron", setup, clients);
    steps(&mut table, 20);
    for at in 0..3 {
        let follower = table.clients[at].world().resource::<Follower>();
        assert!(follower.lobby.is_some(), "client {at} is in the lobby");
        assert!(!follower.welcomed, "client {at} is not in the battle before it starts");
    }
    assert!(table.clients[0].world().resource::<Follower>().lobby.as_ref().unwrap().host, "Ann is the host");
    assert!(!table.clients[1].world().resource::<Follower>().lobby.as_ref().unwrap().host, "Bo is not");
    use fray::save::format::SavedKind;
    send(&mut table, 0, ToServer::Declare { pass: 0, order: order(1, "ruusa", SavedKind::Hold, None) });
    send(&mut table, 1, ToServer::Start);
    send(&mut table, 0, ToServer::Start);
    steps(&mut table, 5);
    let ann = refusals(&table, 0);
    assert!(ann.iter().any(|reason| reason.contains("the lobby is still open")), "{ann:?}");
    assert!(ann.iter().any(|reason| reason.contains("waiting for wardens")), "{ann:?}");
    assert!(refusals(&table, 1).iter().any(|reason| reason.contains("only the host")), "{:?}", refusals(&table, 1));
    send(&mut table, 0, ToServer::Ready(true));
    steps(&mut table, 5);
    assert!(!table.clients[0].world().resource::<Follower>().welcomed, "ready is not started: the host starts");
    let seats = table.clients[2].world().resource::<Follower>().seats.clone();
    assert!(seats.iter().all(|seat| seat.ready), "the spectator sees both players ready: {seats:?}");
    send(&mut table, 0, ToServer::Start);
    steps(&mut table, 5);
    for at in 0..3 {
        assert!(table.clients[at].world().resource::<Follower>().welcomed, "client {at} is in the battle");
    }
    let_the_ai_play(&mut table, 0, 0);
    table.play_out();
    assert_same_logs(&table);
}

#[test]
fn a_player_who_leaves_the_lobby_frees_their_seat() {
    use fray::net::{Lobby, LobbyStart};
    let mut setup = config(2);
    setup.lobby = Some(Lobby { start: LobbyStart::WhenReady, host_key: 0 });
    let clients = vec![(hello("Ann", Role::Side("wardens".into())), None)];
    let mut table = Table::new("sealed_orders.ron", setup, clients);
    steps(&mut table, 10);
    table.referee.disconnect_client(&mut table.clients[0]);
    steps(&mut table, 5);
    let mut late = fray::net::follower_app(hello("Dee", Role::Side("wardens".into())), None, Link::InProcess);
    table.referee.connect_client(&mut late);
    table.clients.push(late);
    steps(&mut table, 10);
    let dee = table.clients[1].world().resource::<Follower>();
    assert!(dee.refused.is_none(), "the seat Ann left is open again: {:?}", dee.refused);
    assert_eq!(dee.lobby.as_ref().map(|place| place.sides.clone()), Some(vec!["wardens".to_string()]));
}

#[test]
fn a_side_out_of_chess_clock_time_holds_and_the_save_replays_it() {
    use fray::net::ChessClock;
    use std::time::Duration;
    let mut setup = config(2);
    setup.chess_clock = Some(ChessClock { bank: Duration::from_secs(2), increment: Duration::from_millis(100) });
    let clients = vec![
        // Ann never declares: her clock runs out and her side holds.
        (hello("Ann", Role::Side("wardens".into())), None),
        (hello("Bo", Role::Side("bandits".into())), Some(AiKind::Greedy)),
    ];
    let mut table = Table::new("sealed_orders.ron", setup, clients);
    table.referee.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_millis(100)));
    table.play_out();
    assert_same_logs(&table);
    let clocks: Vec<Option<u32>> = table
        .received(0)
        .iter()
        .filter_map(|(_, message)| match message {
            ToClient::Seats(list) => Some(list[0].clock_left),
            _ => None,
        })
        .collect();
    assert!(clocks.iter().all(Option::is_some), "every seat list shows the clock: {clocks:?}");
    assert_eq!(clocks.last(), Some(&Some(0)), "the wardens' clock ran out");
    let template = load_builtin_level("sealed_orders.ron", &ModSet::default()).unwrap();
    let save = fray::save::capture(table.referee.world_mut(), &template);
    let holds = save.declarations.iter().filter(|entry| &*entry.unit == "ruusa").count();
    assert!(holds > 0, "the chess clock declared for the wardens");
    let path = std::env::temp_dir().join(format!("fray-chess-clock-{}.ron", std::process::id()));
    save.write(&path).unwrap();
    let replayed = fray::save::load_headless(&path, &ModSet::default());
    let _ = std::fs::remove_file(&path);
    let (_, _, battle) = replayed.expect("the save replays");
    assert_eq!(battle.log().to_json_lines(), Table::log(&table.referee));
}

/// One machine holding both sides (hot-seat online), its seats played by a local AI, and a
/// spectator.
fn one_machine_for_both_sides_and_a_spectator(first: &str, second: &str) -> Vec<(Hello, Option<AiKind>)> {
    vec![
        (hello("Ann", Role::Sides(vec![first.into(), second.into()])), Some(AiKind::Greedy)),
        (hello("Cy", Role::Spectator), None),
    ]
}

/// Writes the referee's save, replays it headless, and checks it writes the referee's log.
fn assert_save_replays(table: &mut Table, level: &str, name: &str) {
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let save = fray::save::capture(table.referee.world_mut(), &template);
    let path = std::env::temp_dir().join(format!("fray-{name}-{}.ron", std::process::id()));
    save.write(&path).unwrap();
    let replayed = fray::save::load_headless(&path, &ModSet::default());
    let _ = std::fs::remove_file(&path);
    let (_, _, battle) = replayed.expect("the save replays");
    assert_eq!(battle.log().to_json_lines(), Table::log(&table.referee));
}

#[test]
fn one_machine_holding_both_sides_of_a_secret_pass_battle_plays_it_to_the_end() {
    let clients = one_machine_for_both_sides_and_a_spectator("wardens", "bandits");
    let mut table = Table::new("sealed_orders.ron", config(2), clients);
    table.play_out();
    assert_same_logs(&table);
    let ann = table.clients[0].world().resource::<Follower>();
    assert_eq!(ann.sides, ["wardens", "bandits"], "one client holds both seats");
    let seats = &ann.seats;
    assert!(seats.iter().all(|seat| seat.player.as_deref() == Some("Ann")), "{seats:?}");
    let log = Table::log(&table.referee);
    assert!(!log.contains("\"controller\":\"ai"), "both sides stayed human seats: no AI took one over");
    assert_save_replays(&mut table, "sealed_orders.ron", "hot-seat-secret");
}

#[test]
fn one_machine_holding_both_sides_of_a_turn_order_grid_battle_plays_it_to_the_end() {
    let level = "shock_and_cover_skirmish.ron";
    let template = load_builtin_level(level, &ModSet::default()).unwrap();
    let sides: Vec<String> = template.sides.iter().map(|side| side.name.to_string()).collect();
    let clients = one_machine_for_both_sides_and_a_spectator(&sides[0], &sides[1]);
    let mut table = Table::new(level, config(sides.len()), clients);
    table.play_out();
    assert_same_logs(&table);
    assert_save_replays(&mut table, level, "hot-seat-grid");
}

#[test]
fn a_client_asking_for_several_seats_one_of_them_taken_gets_none_of_them() {
    let clients = vec![
        (hello("Ann", Role::Side("wardens".into())), None),
        (hello("Bo", Role::Sides(vec!["bandits".into(), "wardens".into()])), None),
    ];
    let mut table = Table::new("sealed_orders.ron", config(2), clients);
    steps(&mut table, 10);
    let bo = table.clients[1].world().resource::<Follower>();
    let refusal = bo.refused.clone().expect("Bo is refused");
    assert!(refusal.contains("side wardens is taken by Ann"), "{refusal}");
    assert!(bo.sides.is_empty() && !bo.welcomed, "Bo holds no seat");
    // The bandits' seat was not kept for Bo: another player takes it.
    let mut dee = fray::net::follower_app(hello("Dee", Role::Side("bandits".into())), None, Link::InProcess);
    table.referee.connect_client(&mut dee);
    table.clients.push(dee);
    steps(&mut table, 10);
    let dee = table.clients[2].world().resource::<Follower>();
    assert!(dee.refused.is_none(), "the bandits' seat is still open: {:?}", dee.refused);
    assert_eq!(dee.sides, ["bandits"]);
}

#[test]
fn a_client_holding_two_seats_rejoins_both_with_its_one_token() {
    let clients = one_machine_for_both_sides_and_a_spectator("wardens", "bandits");
    let mut table = Table::new("sealed_orders.ron", config(2), clients);
    steps(&mut table, 30);
    let token = table.clients[0].world().resource::<Follower>().hello.token;
    assert_ne!(token, 0, "the player was given a token");
    let mut gone = table.clients.remove(0);
    table.referee.disconnect_client(&mut gone);
    steps(&mut table, 10);
    let away = table.clients[0].world().resource::<Follower>().seats.clone();
    assert!(away.iter().all(|seat| matches!(seat.state, fray::net::protocol::SeatState::Away { .. })), "{away:?}");
    // Back with the token alone: the role it asks for does not matter.
    let mut back = hello("Ann", Role::AnySide);
    back.token = token;
    let mut client = fray::net::follower_app(back, Some(AiKind::Greedy), Link::InProcess);
    table.referee.connect_client(&mut client);
    table.clients.insert(0, client);
    table.play_out();
    assert_same_logs(&table);
    assert_eq!(table.clients[0].world().resource::<Follower>().sides, ["wardens", "bandits"]);
    assert!(!Table::log(&table.referee).contains("\"controller\":\"ai"), "neither seat went to an AI");
}

#[test]
fn each_seat_of_a_hot_seat_machine_has_its_own_ready_mark_in_the_lobby() {
    use fray::net::protocol::SeatState;
    use fray::net::{Lobby, LobbyStart};
    let mut setup = config(2);
    setup.lobby = Some(Lobby { start: LobbyStart::WhenReady, host_key: 0 });
    let clients = vec![(hello("Ann", Role::Sides(vec!["wardens".into(), "bandits".into()])), None)];
    let mut table = Table::new("sealed_orders.ron", setup, clients);
    steps(&mut table, 10);
    send(&mut table, 0, ToServer::ReadyAs { side: "bandits".into(), ready: true });
    steps(&mut table, 10);
    let ann = table.clients[0].world().resource::<Follower>();
    let ready: Vec<bool> = ann.seats.iter().map(|seat| seat.ready).collect();
    assert_eq!(ready, [false, true], "only the bandits' player is ready");
    assert!(!ann.welcomed, "the battle waits for the wardens' player");
    assert!(ann.seats.iter().all(|seat| seat.state == SeatState::Connected));
    send(&mut table, 0, ToServer::ReadyAs { side: "wardens".into(), ready: true });
    steps(&mut table, 10);
    assert!(table.clients[0].world().resource::<Follower>().welcomed, "both are ready: the battle starts");
}

#[test]
fn a_hot_seat_machine_s_first_side_declares_unseen_until_its_second_side_closes_the_pass() {
    let clients = vec![(hello("Ann", Role::Sides(vec!["wardens".into(), "bandits".into()])), None)];
    let mut table = Table::new("sealed_orders.ron", config(2), clients);
    until_declaring(&mut table, 0);
    let hold = fray::rules::components::Action::simple(fray::rules::components::ActionKind::Hold);
    let declare_all = |table: &mut Table, side: usize| {
        for (unit, _) in units_of(table, 0, side) {
            table.clients[0].world_mut().resource_mut::<fray::net::Declarations>().outbox.push((unit, hold));
        }
    };
    declare_all(&mut table, 0);
    steps(&mut table, 30);
    // The wardens' holds wait with the referee: this machine's copy of the battle has none of
    // them, so the bandits' player cannot read them off it.
    let client_log = Table::log(&table.clients[0]);
    assert!(!client_log.contains("\"event\":\"declared\""), "nothing declared shows yet: {client_log}");
    let released: usize = table
        .received(0)
        .iter()
        .filter_map(|(_, message)| match message {
            ToClient::Released(items) => Some(items.iter().filter(|item| matches!(item, Release::Order(_))).count()),
            _ => None,
        })
        .sum();
    assert_eq!(released, 0, "no declaration was released before the pass closed");
    let declared = &table.clients[0].world().resource::<Follower>().declared;
    assert_eq!(declared.len(), 2, "the referee said only who declared: {declared:?}");
    assert_eq!(table.referee.world().resource::<CombatState>().round, 1, "the pass waits for the bandits");
    declare_all(&mut table, 1);
    steps(&mut table, 50);
    let referee = Table::log(&table.referee);
    for id in ["ruusa", "brand", "varro", "cutter"] {
        let held = format!("\"event\":\"declared\",\"round\":1,\"unit\":\"{id}\",\"action\":\"hold\"");
        assert!(referee.contains(&held), "the referee took {id}'s hold from the one machine: {referee}");
    }
    assert_eq!(Table::log(&table.clients[0]), referee, "the follower wrote the referee's log");
}
