//! Host game: the menu's Play online window, whose Host form starts a referee (`fray serve` with
//! a lobby) as a process of its own and joins it on 127.0.0.1 as an ordinary client, so the
//! host's window never holds another player's pending declaration. Its Join form joins a
//! battle someone else hosts.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::model::launch::{JoinOptions, LaunchOptions};
use super::model::screen::Screen;
use super::model::session::{LevelSource, PlayOnlineOpen, Seat, Session};
use super::online::{JoinForm, start_joining};
use crate::net::transport::GamePassword;
use crate::net::{Follower, Hello, Role};
use crate::rules::components::AiKind;

/// Space between the window and the edge of the screen, in points.
const WINDOW_MARGIN: f32 = 8.0;
/// The Host button's label, as scripts click it.
const HOST_LABEL: &str = "Host";
/// The grace period the form offers, in seconds (the referee's default).
const DEFAULT_GRACE_SECONDS: &str = "120";
/// What `fray serve` prints once it accepts connections.
const LISTENING: &str = "listening on ";
/// Where `fray serve` reads the game password from.
const PASSWORD_VARIABLE: &str = "FRAY_PASSWORD";
/// Lines of the server's own output kept to explain a failure.
const KEPT_SERVER_LINES: usize = 6;

/// Who plays a side of a hosted battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HostSeat {
    /// The host, at this window.
    Me,
    /// A player who joins over the network.
    Remote,
    /// An AI on the referee.
    Ai(AiKind),
}

impl HostSeat {
    /// Every choice the form offers.
    const ALL: [HostSeat; 7] = [
        HostSeat::Me,
        HostSeat::Remote,
        HostSeat::Ai(AiKind::Easy),
        HostSeat::Ai(AiKind::Greedy),
        HostSeat::Ai(AiKind::Hard),
        HostSeat::Ai(AiKind::Master),
        HostSeat::Ai(AiKind::Random),
    ];

    fn label(self) -> String {
        match self {
            HostSeat::Me => "Me".into(),
            HostSeat::Remote => "Open: a player who joins".into(),
            HostSeat::Ai(kind) => format!("AI: {}", kind.name()),
        }
    }

    /// The `--seat` value for `fray serve` (the host's own seat is a remote one).
    fn serve_arg(self, side: &str) -> String {
        match self {
            HostSeat::Me | HostSeat::Remote => format!("{side}=remote"),
            HostSeat::Ai(kind) => format!("{side}=ai:{}", kind.name()),
        }
    }
}

/// Which form the Play online window shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum OnlineTab {
    /// Host a battle.
    #[default]
    Host,
    /// Join one.
    Join,
}

/// What happens to a dropped player's seat, as the form offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GraceChoice {
    /// The greedy AI takes the seat.
    Ai,
    /// The seat waits as long as it takes.
    Wait,
    /// The side gives up the battle.
    Forfeit,
}

/// The menu's Host form.
#[derive(Resource, Debug)]
struct HostForm {
    tab: OnlineTab,
    /// The level and menu seats the form's seats were laid out from, so a new choice in the
    /// menu starts them afresh.
    laid_out_from: Option<(String, Vec<Seat>)>,
    seats: Vec<HostSeat>,
    name: String,
    port: String,
    clock: String,
    chess_clock: String,
    grace: String,
    after_grace: GraceChoice,
    password: String,
    problem: Option<String>,
}

impl Default for HostForm {
    fn default() -> Self {
        Self {
            tab: OnlineTab::default(),
            laid_out_from: None,
            seats: Vec::new(),
            name: "host".into(),
            port: super::online::DEFAULT_PORT.into(),
            clock: String::new(),
            chess_clock: String::new(),
            grace: DEFAULT_GRACE_SECONDS.into(),
            after_grace: GraceChoice::Ai,
            password: String::new(),
            problem: None,
        }
    }
}

/// A line the hosted referee wrote.
#[derive(Debug)]
enum ServerLine {
    /// On its standard output.
    Out(String),
    /// On its standard error.
    Err(String),
}

/// The referee process this window hosts. It is stopped when the host leaves.
#[derive(Resource)]
pub struct HostedServer {
    child: Child,
    lines: Mutex<Receiver<ServerLine>>,
    /// The role the host takes once the referee listens.
    hello: Hello,
    /// The game's password, if the host set one.
    password: Option<GamePassword>,
    /// Whether the host joined it.
    joined: bool,
    /// The port it listens on, once it does.
    pub port: Option<u16>,
    /// Its latest error lines.
    errors: Vec<String>,
}

impl Drop for HostedServer {
    fn drop(&mut self) {
        // A referee whose battle ended has exited already; one left in its lobby is stopped.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HostForm>().init_resource::<PlayOnlineOpen>();
    app.add_systems(
        EguiPrimaryContextPass,
        draw_play_online
            .run_if(in_state(Screen::Menu))
            .run_if(not(resource_exists::<Follower>))
            .run_if(|open: Res<PlayOnlineOpen>| open.0),
    );
    app.add_systems(Update, (watch_server, stop_server_once_left).chain().run_if(resource_exists::<HostedServer>));
}

/// The Play online window: Host and Join forms.
fn draw_play_online(
    mut contexts: EguiContexts,
    (host, join): (ResMut<HostForm>, ResMut<JoinForm>),
    (session, mut open): (Res<Session>, ResMut<PlayOnlineOpen>),
    mut commands: Commands,
    options: Res<LaunchOptions>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (host, join) = (host.into_inner(), join.into_inner());
    let mut joining = None;
    let mut hosting = None;
    egui::Window::new("Play online")
        .open(&mut open.0)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-WINDOW_MARGIN, WINDOW_MARGIN))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut host.tab, OnlineTab::Host, "Host a battle");
                ui.selectable_value(&mut host.tab, OnlineTab::Join, "Join a battle");
            });
            ui.separator();
            match host.tab {
                OnlineTab::Host => hosting = host_form_ui(ui, host, (&session, &options.mod_folders)),
                OnlineTab::Join => joining = super::online::join_form_ui(ui, join),
            }
        });
    if let Some(options) = joining {
        commands.queue(move |world: &mut World| start_joining(world, &options));
    }
    if let Some(launch) = hosting {
        match launch.spawn() {
            Ok(server) => {
                host.problem = None;
                commands.insert_resource(server);
            }
            Err(problem) => host.problem = Some(problem),
        }
    }
    Ok(())
}

/// What the Host button starts.
struct Launch {
    args: Vec<String>,
    hello: Hello,
    password: Option<GamePassword>,
    /// The password as typed, handed to the server in its environment, not on its command line.
    password_text: String,
}

impl Launch {
    /// Starts the referee process, reading its output on threads of its own.
    fn spawn(self) -> Result<HostedServer, String> {
        let program = std::env::current_exe().map_err(|error| format!("could not find Fray's program: {error}"))?;
        let mut child = Command::new(program)
            .args(&self.args)
            .env(PASSWORD_VARIABLE, &self.password_text)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("could not start the server: {error}"))?;
        let (sender, lines) = channel();
        if let Some(out) = child.stdout.take() {
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    let _ = sender.send(ServerLine::Out(line));
                }
            });
        }
        if let Some(err) = child.stderr.take() {
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    let _ = sender.send(ServerLine::Err(line));
                }
            });
        }
        Ok(HostedServer {
            child,
            lines: Mutex::new(lines),
            hello: self.hello,
            password: self.password,
            joined: false,
            port: None,
            errors: Vec::new(),
        })
    }
}

/// The Host form: the menu's chosen level, who plays each side, the port and the clocks.
/// Returns what to start once the player clicks Host and the form reads well.
/// (`mod_folders`: the `--mod` folders the window was started with, which the server loads too.)
fn host_form_ui(
    ui: &mut egui::Ui,
    form: &mut HostForm,
    (session, mod_folders): (&Session, &[PathBuf]),
) -> Option<Launch> {
    let Some(choice) = session.level() else {
        ui.label("Choose a level in the menu first.");
        return None;
    };
    let Some(template) = choice.template.as_ref() else {
        ui.label(
            egui::RichText::new("This level cannot be played until its file is fixed.")
                .color(super::ui::widgets::ERROR_COLOUR),
        );
        return None;
    };
    let from = (choice.title.clone(), session.seats.clone());
    if form.laid_out_from.as_ref() != Some(&from) || form.seats.len() != template.sides.len() {
        form.seats = host_seats(&session.seats, template.sides.len());
        form.laid_out_from = Some(from);
    }
    ui.label(egui::RichText::new(format!("Level: {} (chosen in the menu)", choice.title)).strong());
    egui::Grid::new("host_seats").num_columns(2).show(ui, |ui| {
        for (at, (side, seat)) in template.sides.iter().zip(form.seats.iter_mut()).enumerate() {
            ui.label(egui::RichText::new(&*side.name).color(super::ui::widgets::side_colour(ui.ctx(), at)));
            egui::ComboBox::from_id_salt(("host_seat", at)).selected_text(seat.label()).show_ui(ui, |ui| {
                for choice in HostSeat::ALL {
                    ui.selectable_value(seat, choice, choice.label());
                }
            });
            ui.end_row();
        }
    });
    settings_grid(ui, form);
    if let Some(problem) = &form.problem {
        ui.label(egui::RichText::new(problem).color(super::ui::widgets::ERROR_COLOUR));
    }
    if !super::ui::widgets::tracked_button(ui, HOST_LABEL).clicked() {
        return None;
    }
    let sides: Vec<String> = template.sides.iter().map(|side| side.name.to_string()).collect();
    match launch(form, &choice.source, &sides, mod_folders) {
        Ok(launch) => Some(launch),
        Err(problem) => {
            form.problem = Some(problem);
            None
        }
    }
}

/// The menu's seats as a hosted battle's: the first human seat is the host's, the other human
/// ones are open to players who join, and the AI seats stay AI.
fn host_seats(menu: &[Seat], sides: usize) -> Vec<HostSeat> {
    let mut host_taken = false;
    (0..sides)
        .map(|at| match menu.get(at).copied().unwrap_or(Seat::Human) {
            Seat::Ai(kind) => HostSeat::Ai(kind),
            Seat::Human if !host_taken => {
                host_taken = true;
                HostSeat::Me
            }
            Seat::Human => HostSeat::Remote,
        })
        .collect()
}

/// The name, port, clocks and grace period.
fn settings_grid(ui: &mut egui::Ui, form: &mut HostForm) {
    egui::Grid::new("host_settings").num_columns(2).show(ui, |ui| {
        ui.label("Your name");
        ui.text_edit_singleline(&mut form.name);
        ui.end_row();
        ui.label("Port");
        ui.text_edit_singleline(&mut form.port);
        ui.end_row();
        ui.label("Password");
        ui.add(egui::TextEdit::singleline(&mut form.password).password(true).hint_text("none: anyone may join"));
        ui.end_row();
        ui.label("Seconds per declaration");
        ui.add(egui::TextEdit::singleline(&mut form.clock).hint_text("no clock"));
        ui.end_row();
        ui.label("Chess clock");
        ui.add(egui::TextEdit::singleline(&mut form.chess_clock).hint_text("none; 600+10 is 10 min, +10 s each"));
        ui.end_row();
        ui.label("Grace for a dropped player (s)");
        ui.text_edit_singleline(&mut form.grace);
        ui.end_row();
        ui.label("After that");
        ui.horizontal(|ui| {
            ui.selectable_value(&mut form.after_grace, GraceChoice::Ai, "an AI plays the seat");
            ui.selectable_value(&mut form.after_grace, GraceChoice::Wait, "wait");
            ui.selectable_value(&mut form.after_grace, GraceChoice::Forfeit, "the side forfeits");
        });
        ui.end_row();
    });
}

/// `--mod DIR` for each of `dirs`, made absolute where it can be, so the server finds them
/// wherever it runs.
fn mod_args(dirs: &[PathBuf]) -> Vec<String> {
    dirs.iter()
        .flat_map(|dir| {
            let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
            ["--mod".to_string(), dir.display().to_string()]
        })
        .collect()
}

/// The `fray serve` command line and the host's hello the form asks for, or what is wrong.
fn launch(form: &HostForm, source: &LevelSource, sides: &[String], mod_folders: &[PathBuf]) -> Result<Launch, String> {
    let port: u16 = form.port.trim().parse().map_err(|_| format!("port {}: expected a number 0-65535", form.port))?;
    let level = match source {
        LevelSource::Builtin(name) => (*name).to_string(),
        LevelSource::File(path) => path.display().to_string(),
    };
    let host_key = crate::net::referee::fresh_secret().max(1);
    let mut args = vec!["serve".to_string(), level, "--port".into(), port.to_string(), "--lobby".into()];
    args.extend(["--host-key".into(), host_key.to_string()]);
    for (side, seat) in sides.iter().zip(&form.seats) {
        args.extend(["--seat".into(), seat.serve_arg(side)]);
    }
    let number = |text: &str, what: &str| -> Result<Option<String>, String> {
        let text = text.trim();
        match text {
            "" => Ok(None),
            _ => text
                .parse::<f64>()
                .map(|_| Some(text.to_string()))
                .map_err(|_| format!("{what} {text}: expected seconds")),
        }
    };
    if let Some(clock) = number(&form.clock, "seconds per declaration")? {
        args.extend(["--clock".into(), clock]);
    }
    if !form.chess_clock.trim().is_empty() {
        args.extend(["--chess-clock".into(), form.chess_clock.trim().to_string()]);
    }
    let grace = number(&form.grace, "grace")?.unwrap_or_else(|| DEFAULT_GRACE_SECONDS.into());
    args.extend(["--grace".into(), grace]);
    let after = match form.after_grace {
        GraceChoice::Ai => "ai:greedy",
        GraceChoice::Wait => "wait",
        GraceChoice::Forfeit => "forfeit",
    };
    args.extend(["--after-grace".into(), after.into()]);
    // The server plays with the mods this window was started with (`--mod`), as well as the
    // installed ones it finds itself.
    args.extend(mod_args(mod_folders));
    // Several seats marked Me are played hot-seat at this window, the curtain between them.
    let own: Vec<String> = sides
        .iter()
        .zip(&form.seats)
        .filter(|(_, seat)| **seat == HostSeat::Me)
        .map(|(side, _)| side.clone())
        .collect();
    let role = match own.as_slice() {
        [] => Role::Spectator,
        [side] => Role::Side(side.clone()),
        _ => Role::Sides(own),
    };
    let hello = Hello { host_key, ..Hello::new(form.name.trim(), role) };
    let password_text = form.password.clone();
    Ok(Launch { args, hello, password: GamePassword::new(&password_text), password_text })
}

/// Reads the hosted referee's output: once it listens, the host joins it; if it stops before
/// that, the form says why.
fn watch_server(world: &mut World) {
    let mut server = world.resource_mut::<HostedServer>();
    let lines: Vec<ServerLine> = match server.lines.lock() {
        Ok(receiver) => receiver.try_iter().collect(),
        Err(_) => Vec::new(),
    };
    let mut listening = None;
    for line in lines {
        match line {
            ServerLine::Out(line) => {
                if let Some(port) = line.strip_prefix(LISTENING).and_then(|address| address.rsplit(':').next()) {
                    listening = port.trim().parse::<u16>().ok();
                }
            }
            ServerLine::Err(line) => {
                server.errors.push(line);
                let excess = server.errors.len().saturating_sub(KEPT_SERVER_LINES);
                server.errors.drain(..excess);
            }
        }
    }
    if let (Some(port), false) = (listening, server.joined) {
        server.joined = true;
        server.port = Some(port);
        let options = JoinOptions {
            server: SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            hello: server.hello.clone(),
            password: server.password.clone(),
        };
        start_joining(world, &options);
        return;
    }
    let exited = world.resource_mut::<HostedServer>().child.try_wait().ok().flatten();
    let server = world.resource::<HostedServer>();
    if let (Some(status), false) = (exited, server.joined) {
        let why = server.errors.join("\n");
        world.resource_mut::<HostForm>().problem = Some(format!("the server stopped ({status}): {why}"));
        world.remove_resource::<HostedServer>();
    }
}

/// Once the host has left the battle (or the lobby), their referee goes too.
fn stop_server_once_left(world: &mut World) {
    let joined = world.resource::<HostedServer>().joined;
    if joined && !world.contains_resource::<Follower>() {
        world.remove_resource::<HostedServer>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_s_first_human_seat_is_the_host_s_and_the_others_are_open() {
        let menu = [Seat::Human, Seat::Ai(AiKind::Hard), Seat::Human];
        assert_eq!(host_seats(&menu, 3), [HostSeat::Me, HostSeat::Ai(AiKind::Hard), HostSeat::Remote]);
    }

    #[test]
    fn the_host_form_starts_a_lobby_server_with_its_seats_clocks_and_grace() {
        let form = HostForm {
            seats: vec![HostSeat::Me, HostSeat::Ai(AiKind::Greedy)],
            clock: "30".into(),
            chess_clock: "600+10".into(),
            password: "secret words".into(),
            ..HostForm::default()
        };
        let sides = ["wardens".to_string(), "bandits".to_string()];
        let launch = launch(&form, &LevelSource::Builtin("sealed_orders.ron"), &sides, &[]).expect("the form reads");
        let args = launch.args.join(" ");
        for part in [
            "serve sealed_orders.ron --port 5000 --lobby --host-key",
            "--seat wardens=remote --seat bandits=ai:greedy",
            "--clock 30 --chess-clock 600+10 --grace 120 --after-grace ai:greedy",
        ] {
            assert!(args.contains(part), "{part} in {args}");
        }
        assert!(!args.contains("secret"), "the password stays off the command line: {args}");
        assert_eq!(launch.hello.role, Role::Side("wardens".into()));
        assert_ne!(launch.hello.host_key, 0);
        assert!(launch.password.is_some());
    }

    #[test]
    fn several_seats_marked_me_are_all_the_host_s_to_play_hot_seat() {
        let form = HostForm { seats: vec![HostSeat::Me, HostSeat::Remote, HostSeat::Me], ..HostForm::default() };
        let sides = ["wardens".to_string(), "bandits".to_string(), "crows".to_string()];
        let launch = launch(&form, &LevelSource::Builtin("sealed_orders.ron"), &sides, &[]).expect("the form reads");
        assert_eq!(launch.hello.role, Role::Sides(vec!["wardens".into(), "crows".into()]));
        assert!(launch.args.join(" ").contains("--seat wardens=remote --seat bandits=remote --seat crows=remote"));
    }

    #[test]
    fn the_window_s_mod_folders_go_to_the_server_it_starts() {
        let args = mod_args(&["mods/marsh_folk".into(), "/srv/mods/crows".into()]);
        assert_eq!(args.len(), 4, "{args:?}");
        assert_eq!(args[0], "--mod");
        assert!(args[1].ends_with("mods/marsh_folk") && std::path::Path::new(&args[1]).is_absolute(), "{args:?}");
        assert_eq!(args[2..], ["--mod".to_string(), "/srv/mods/crows".to_string()]);
    }

    #[test]
    fn the_host_form_can_have_a_dropped_player_s_side_forfeit() {
        let form = HostForm { seats: vec![HostSeat::Me], after_grace: GraceChoice::Forfeit, ..HostForm::default() };
        let launch = launch(&form, &LevelSource::Builtin("duel.ron"), &["a".to_string()], &[]).expect("the form reads");
        assert!(launch.args.join(" ").contains("--after-grace forfeit"), "{:?}", launch.args);
    }

    #[test]
    fn a_port_that_is_not_a_number_is_refused_with_what_was_expected() {
        let form = HostForm { seats: vec![HostSeat::Me], port: "five".into(), ..HostForm::default() };
        let error = launch(&form, &LevelSource::Builtin("duel.ron"), &["a".to_string()], &[]).err().unwrap();
        assert!(error.contains("expected a number"), "{error}");
    }
}
