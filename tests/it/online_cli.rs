//! Online play over real sockets: `fray serve` and two `fray join --headless` processes on
//! 127.0.0.1, played to the end, with the same log everywhere and a save that replays; and the
//! game password of secure mode, which keeps out a client that does not know it.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// The game password of the real-socket battle.
const PASSWORD: &str = "correct horse battery staple";

fn fray() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fray"))
}

#[test]
fn serve_and_two_headless_joins_play_to_the_end_with_one_log() {
    let dir = std::env::temp_dir().join(format!("fray-online-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name);
    let mut server = fray()
        .args(["serve", "sealed_orders.ron", "--port", "0", "--lobby", "--password", PASSWORD, "--log"])
        .arg(path("server.jsonl"))
        .arg("--save")
        .arg(path("server.ron"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("fray serve starts");
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let address =
        first.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("first line: {first:?}")).to_string();
    let join = |side: &str, ai: &str, log: &str| {
        fray()
            .args(["join", &address, "--headless", "--side", side, "--ai", ai, "--name", side, "--log"])
            .env("FRAY_PASSWORD", PASSWORD)
            .arg(path(log))
            .spawn()
            .expect("fray join starts")
    };
    let mut wardens = join("wardens", "greedy", "wardens.jsonl");
    let mut bandits = join("bandits", "random", "bandits.jsonl");
    for (name, child) in [("serve", &mut server), ("wardens", &mut wardens), ("bandits", &mut bandits)] {
        let status = child.wait().unwrap();
        assert!(status.success(), "fray {name} failed: {status}");
    }
    let read = |name: &str| std::fs::read_to_string(path(name)).unwrap();
    let log = read("server.jsonl");
    assert!(log.contains("combat_ended"), "{log}");
    assert_eq!(read("wardens.jsonl"), log, "the wardens' log is the referee's");
    assert_eq!(read("bandits.jsonl"), log, "the bandits' log is the referee's");
    let verify = fray().args(["replay", "--verify"]).arg(path("server.ron")).output().unwrap();
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stderr));
    // The log alone cannot replay: its dice came pass by pass from the referee.
    let from_log = fray().args(["replay", "--verify"]).arg(path("server.jsonl")).output().unwrap();
    let said = String::from_utf8_lossy(&from_log.stderr).to_string() + &String::from_utf8_lossy(&from_log.stdout);
    assert_eq!(from_log.status.code(), Some(2), "{said}");
    assert!(said.contains("verify the referee's save"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_client_without_the_game_password_is_kept_out_and_one_with_it_gets_in() {
    use bevy::prelude::*;
    use bevy_replicon::prelude::{ClientState, ConnectedClient};
    use fray::net::transport::{GamePassword, connect, listen};
    use fray::net::{Follower, Hello, Link, RefereeConfig, Role, SeatPlan};
    let template =
        fray::levels::load_builtin_level("sealed_orders.ron", &fray::levels::mods::ModSet::default()).unwrap();
    let config = RefereeConfig::new(vec![SeatPlan::Remote; 2], 9, 9);
    let mut referee = fray::net::referee_app(template, config, Link::Udp);
    let password = GamePassword::new(PASSWORD);
    let address = listen(&mut referee, 0, password.as_ref()).expect("the referee listens");
    let client = |name: &str, password: Option<&GamePassword>| {
        let mut app = fray::net::follower_app(Hello::new(name, Role::Spectator), None, Link::Udp);
        connect(&mut app, address, password).expect("the client's socket opens");
        app
    };
    let mut stranger = client("stranger", GamePassword::new("guess").as_ref());
    let mut friend = client("friend", password.as_ref());
    // Loopback answers in well under a second; two seconds of updates leave no doubt.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while std::time::Instant::now() < until {
        for app in [&mut referee, &mut stranger, &mut friend] {
            app.update();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(*friend.world().resource::<State<ClientState>>().get(), ClientState::Connected);
    assert!(friend.world().resource::<Follower>().welcomed, "the friend was welcomed");
    assert_ne!(*stranger.world().resource::<State<ClientState>>().get(), ClientState::Connected);
    assert!(!stranger.world().resource::<Follower>().welcomed, "the stranger heard nothing");
    let connected = referee.world_mut().query::<&ConnectedClient>().iter(referee.world()).count();
    assert_eq!(connected, 1, "only the friend reached the referee");
}

#[test]
fn a_follower_whose_link_drops_connects_again_by_itself_and_finishes_the_battle() {
    use bevy::prelude::*;
    use bevy_replicon_renet::RenetClient;
    use fray::net::transport::{Reconnect, connect, listen};
    use fray::net::{Follower, Hello, Link, RefereeConfig, Role, SeatPlan};
    use fray::rules::components::AiKind;
    let template =
        fray::levels::load_builtin_level("sealed_orders.ron", &fray::levels::mods::ModSet::default()).unwrap();
    let config = RefereeConfig::new(vec![SeatPlan::Remote, SeatPlan::Ai(AiKind::Greedy)], 3, 3);
    let mut referee = fray::net::referee_app(template, config, Link::Udp);
    let address = listen(&mut referee, 0, None).expect("the referee listens");
    let mut player =
        fray::net::follower_app(Hello::new("Ann", Role::Side("wardens".into())), Some(AiKind::Greedy), Link::Udp);
    connect(&mut player, address, None).expect("the client's socket opens");
    let over = |app: &App| app.world().get_resource::<fray::rules::CombatState>().is_some_and(|state| state.is_over());
    let mut dropped = false;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !(over(&referee) && over(&player) && player.world().resource::<Follower>().ended) {
        assert!(std::time::Instant::now() < until, "the battle did not end in two minutes");
        referee.update();
        player.update();
        let passes = player.world().get_resource::<fray::rules::PassSeeds>().map_or(0, |seeds| seeds.used().len());
        if passes == 2 && !dropped {
            // The link goes down mid-battle, as a router's would.
            dropped = true;
            player.world_mut().resource_mut::<RenetClient>().disconnect();
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(dropped, "the battle lasted past its second pass");
    assert!(player.world().resource::<Reconnect>().tries >= 1, "the follower connected again");
    assert!(player.world().resource::<Follower>().welcomes >= 2, "the referee welcomed it back");
    let log = |app: &App| app.world().resource::<fray::rules::log::CombatLog>().to_json_lines();
    assert_eq!(log(&player), log(&referee), "the rejoined follower's log is the referee's");
}
