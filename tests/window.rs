//! The real-window tests: under a display (Xvfb in CI) the game starts, plays AI against AI
//! through the real UI, and saves menu, mid-battle and game-over screenshots that must not be
//! blank; scripted key presses and clicks (tests/scripts/) go through the window's own input
//! path and check the game loop never dead-ends. The command-line checks of `fray play` run
//! without a display.

#![cfg(feature = "gui")]

use std::path::Path;
use std::process::Command;

/// Distinct colours a drawn screen has at the least (a blank or single-colour frame has one or two).
const MIN_COLOURS: usize = 24;

fn distinct_colours(path: &Path) -> usize {
    let file = std::fs::File::open(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a sized PNG")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let channels = info.color_type.samples();
    let mut colours = std::collections::HashSet::new();
    for pixel in pixels[..info.buffer_size()].chunks(channels) {
        colours.insert(pixel.iter().take(3).copied().collect::<Vec<u8>>());
        if colours.len() > MIN_COLOURS * 4 {
            break;
        }
    }
    colours.len()
}

/// Whether a window can open; CI must always have one.
fn has_display() -> bool {
    let has_display = std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if !has_display {
        assert!(std::env::var_os("CI").is_none(), "CI must run this test under a display (Xvfb: DISPLAY=:99)");
        eprintln!("skipping a real-window test: no display; run it under Xvfb with DISPLAY=:99");
    }
    has_display
}

/// A fresh folder for one test's screenshots.
fn shots_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// One game window at a time: windows opened together on one X display stack over each other,
/// and the pointer events the server sends as they do would land in a script's clicks.
static ONE_WINDOW_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds the display for one game window (a failed test elsewhere does not block the rest).
fn window_turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_WINDOW_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `fray play` with a script and returns its stdout, failing with its output if it failed.
fn play_script(level: &str, seats: &[&str], script: &str, shots: &Path) -> String {
    let _turn = window_turn();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts").join(script);
    let mut command = Command::new(env!("CARGO_BIN_EXE_fray"));
    command.args(["play", level, "--mute", "--script"]).arg(&script).arg("--screenshots").arg(shots);
    for seat in seats {
        command.args(["--seat", seat]);
    }
    let output = command.output().expect("fray runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{} failed:\n{stdout}\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn assert_drawn(dir: &Path, names: &[&str]) {
    for name in names {
        let path = dir.join(name);
        assert!(path.is_file(), "{name} was not saved");
        let colours = distinct_colours(&path);
        assert!(colours >= MIN_COLOURS, "{name} looks blank: {colours} colours");
    }
}

#[test]
fn the_game_loop_never_dead_ends_buttons_and_keys_work_in_every_phase() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("game-loop");
    let stdout = play_script("duel.ron", &["hunter=ai:greedy", "bandits=ai:greedy"], "game_loop.ron", &dir);
    // The last step waits for the game to quit by itself (the quit key, confirmed); every step
    // before it passed.
    let steps = stdout.lines().filter(|line| line.starts_with("script: step")).count();
    assert!(stdout.contains("Screenshot(\"from_menu.png\")"), "the script stopped early:\n{stdout}");
    assert!(steps > 35, "only {steps} steps ran:\n{stdout}");
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    assert_drawn(&dir, &["ambush_over.png", "restarted.png", "from_menu.png"]);
}

#[test]
fn a_grid_battle_restarts_with_its_board_and_the_menu_starts_other_levels() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("grid-loop");
    let seats = ["defenders=ai:greedy", "goblins=ai:greedy"];
    let stdout = play_script("shock_and_cover_breach.ron", &seats, "grid_loop.ron", &dir);
    assert!(stdout.contains("Screenshot(\"millbrook_from_menu.png\")"), "the script stopped early:\n{stdout}");
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    let shots =
        ["grid_battle.png", "grid_over.png", "grid_restarted.png", "duel_from_menu.png", "millbrook_from_menu.png"];
    assert_drawn(&dir, &shots);
}

#[test]
fn a_round_at_1x_plays_out_count_by_count_on_the_board() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("round-playout");
    let stdout = play_script("ambush.ron", &["party=ai:greedy", "monsters=ai:greedy"], "round_playout.ron", &dir);
    assert!(stdout.contains("Screenshot(\"count_with_log.png\")"), "the script stopped early:\n{stdout}");
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    let shots = ["count_1.png", "count_2.png", "count_3.png", "count_with_log.png"];
    assert_drawn(&dir, &shots);
    // Each count shows a different moment of the round.
    let bytes: Vec<Vec<u8>> = shots.iter().map(|shot| std::fs::read(dir.join(shot)).unwrap()).collect();
    assert!(bytes.windows(2).all(|pair| pair[0] != pair[1]), "two counts look the same");
}

#[test]
fn the_tutorial_can_be_completed_by_keys_and_clicks() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("tutorial");
    let stdout = play_script("tutorial.ron", &[], "tutorial.ron", &dir);
    assert!(stdout.contains("WaitFor(TutorialDone)"), "the tutorial was not completed:\n{stdout}");
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    let shots = ["tutorial_welcome.png", "tutorial_declare.png", "tutorial_round.png", "tutorial_done.png"];
    assert_drawn(&dir, &shots);
}

#[test]
fn the_sight_and_cover_course_can_be_completed_by_keys_and_clicks() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("tutorial-grid");
    let stdout = play_script("tutorial_grid.ron", &[], "tutorial_grid.ron", &dir);
    assert!(stdout.contains("WaitFor(TutorialDone)"), "the course was not completed:\n{stdout}");
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    let shots =
        ["tutorial_grid_sight.png", "tutorial_grid_cover.png", "tutorial_grid_open.png", "tutorial_grid_done.png"];
    assert_drawn(&dir, &shots);
}

#[test]
fn a_spell_s_forecast_shows_on_its_target_s_hover_card() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("forecast-spell");
    let stdout = play_script("ambush.ron", &["party=human", "monsters=ai:greedy"], "forecast_spell.ron", &dir);
    assert!(stdout.contains("Screenshot(\"forecast_heal.png\")"), "the script stopped early:\n{stdout}");
    assert_drawn(&dir, &["forecast_spell.png", "forecast_heal.png"]);
}

#[test]
fn confirm_stays_clickable_under_a_long_list_of_targets() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("long-list");
    let stdout = play_script("melee.ron", &["garrison=human", "raiders=ai:greedy"], "long_list.ron", &dir);
    assert!(stdout.contains("Click(\"Confirm\")"), "Confirm was never clicked:\n{stdout}");
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    assert_drawn(&dir, &["long_list.png"]);
}

#[test]
fn at_ui_scale_1_5_the_menu_buttons_and_every_square_of_millbrook_stay_in_the_window() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("ui-scale-1-5");
    let config = dir.join("config");
    std::fs::create_dir_all(&config).expect("a settings folder");
    std::fs::write(config.join("fray-settings.ron"), "(display: (ui_scale: 1.5))").expect("a settings file");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/ui_scale_1_5.ron");
    let _turn = window_turn();
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["play", "--mute", "--script"])
        .arg(&script)
        .arg("--screenshots")
        .arg(&dir)
        .env("FRAY_CONFIG_DIR", &config)
        .env("FRAY_DATA_DIR", dir.join("data"))
        .output()
        .expect("fray runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("steps passed"), "the script stopped early:\n{stdout}");
    assert_drawn(&dir, &["menu_ui_scale_1_5.png", "millbrook_ui_scale_1_5.png", "millbrook_fitted_ui_scale_1_5.png"]);
}

#[test]
fn hot_seat_players_declare_by_keys_behind_a_curtain() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("hot-seat");
    let stdout = play_script("duel.ron", &["hunter=human", "bandits=human"], "hot_seat.ron", &dir);
    assert!(stdout.contains("steps passed"), "{stdout}");
    assert_drawn(&dir, &["curtain.png", "declare.png"]);
}

#[test]
fn a_level_edited_on_disk_shows_in_the_menu_and_the_battle_at_once() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("hot-reload");
    // The game runs in a folder of its own whose levels/duel.ron the script edits.
    let game = dir.join("game");
    std::fs::create_dir_all(game.join("levels")).expect("a levels folder");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(manifest.join("levels/duel.ron"), game.join("levels/duel.ron")).expect("the duel is copied");
    let script = manifest.join("tests/scripts/hot_reload.ron");
    let _turn = window_turn();
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(&game)
        .args(["play", "--mute", "--script"])
        .arg(&script)
        .arg("--screenshots")
        .arg(&dir)
        .env("FRAY_DATA_DIR", dir.join("data"))
        .output()
        .expect("fray runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("steps passed"), "{stdout}");
    for line in stdout.lines().filter(|line| line.contains("after the edit")) {
        eprintln!("{line}");
    }
    let shots = ["menu_renamed.png", "menu_broken_edit.png", "battle_renamed.png", "battle_restart_offer.png"];
    assert_drawn(&dir, &shots);
}

/// Runs `fray play` with these arguments and no display, expecting it to fail before any
/// window opens.
fn play_fails(args: &[&str]) -> (i32, String) {
    let _turn = window_turn();
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .arg("play")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("fray runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "fray panicked:\n{stderr}");
    (output.status.code().unwrap_or(-1), stderr)
}

#[test]
fn an_unknown_seat_side_is_an_error_with_a_suggestion() {
    let (code, stderr) = play_fails(&["duel.ron", "--seat", "bandit=human"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("side \"bandit\" not found; did you mean \"bandits\"?"), "{stderr}");
}

#[test]
fn a_broken_level_on_the_command_line_fails_with_file_line_column() {
    let dir = shots_dir("broken-level");
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let level = dir.join("broken.ron");
    std::fs::write(&level, "(\n    name: \"Broken\",\n    zones: [oops],\n)\n").expect("writes");
    let (code, stderr) = play_fails(&[level.to_str().expect("a UTF-8 path")]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("broken.ron:3:"), "no file:line:column in:\n{stderr}");
}

#[test]
fn without_a_display_the_game_says_so_instead_of_panicking() {
    let (code, stderr) = play_fails(&["duel.ron"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("no display"), "{stderr}");
}

#[test]
fn the_game_plays_in_a_real_window_and_its_screenshots_are_not_blank() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("window");
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["play", "--mute", "--seed", "3", "--screenshots"])
        .arg(&dir)
        .output()
        .expect("fray runs");
    assert!(output.status.success(), "fray play failed:\n{}", String::from_utf8_lossy(&output.stderr));
    for name in ["menu.png", "battle.png", "game_over.png"] {
        let path = dir.join(name);
        assert!(path.is_file(), "{name} was not saved");
        let colours = distinct_colours(&path);
        assert!(colours >= MIN_COLOURS, "{name} looks blank: {colours} colours");
    }
}

/// Runs `fray` with these arguments under the display, saves in `data`; fails with its output.
fn play_in(data: &Path, args: &[&str]) -> String {
    let _turn = window_turn();
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .arg("--mute")
        .env("FRAY_DATA_DIR", data)
        .output()
        .expect("fray runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "fray {args:?} failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

#[test]
fn a_battle_saved_mid_way_continues_after_quitting_and_finishes() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("save-continue");
    let data = dir.join("data");
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
    let shots = dir.to_str().expect("a UTF-8 path");
    let first = scripts.join("save_quit.ron");
    let seats = ["--seat", "hunter=human", "--seat", "bandits=ai:greedy", "--seed", "4"];
    let mut args = vec!["play", "duel.ron", "--script", first.to_str().unwrap(), "--screenshots", shots];
    args.extend(seats);
    let stdout = play_in(&data, &args);
    assert!(!stdout.contains("steps passed"), "the quit key did not quit:\n{stdout}");
    let saves: Vec<_> = std::fs::read_dir(data.join("saves")).expect("a save folder").flatten().collect();
    assert_eq!(saves.len(), 2, "an autosave and the Ctrl+S save: {saves:?}");
    for save in &saves {
        let verify =
            Command::new(env!("CARGO_BIN_EXE_fray")).args(["replay", "--verify"]).arg(save.path()).output().unwrap();
        assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stderr));
    }
    let second = scripts.join("continue_finish.ron");
    let stdout = play_in(&data, &["play", "--script", second.to_str().unwrap(), "--screenshots", shots]);
    assert!(stdout.contains("steps passed"), "{stdout}");
    assert_drawn(&dir, &["saved.png", "menu_with_saves.png", "continued_to_the_end.png"]);
}

#[test]
fn a_logged_battle_replays_in_the_window_stepping_both_ways() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("replay-viewer");
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let log = dir.join("duel.jsonl");
    let sim = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["sim", "levels/duel.ron", "--seed", "3", "--log"])
        .arg(&log)
        .output()
        .expect("fray sim runs");
    assert!(sim.status.success(), "{}", String::from_utf8_lossy(&sim.stderr));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/replay_viewer.ron");
    let _turn = window_turn();
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .arg("replay")
        .arg(&log)
        .arg("--mute")
        .arg("--script")
        .arg(&script)
        .arg("--screenshots")
        .arg(&dir)
        .output()
        .expect("fray replay runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "fray replay failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("steps passed"), "{stdout}");
    assert_drawn(
        &dir,
        &["replay_ruusa_walks.png", "replay_varro_first_step.png", "replay_varro_second_step.png", "replay.png"],
    );
}

#[test]
fn a_broken_replay_file_fails_before_any_window_opens() {
    let dir = shots_dir("replay-broken");
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let log = dir.join("broken.jsonl");
    std::fs::write(&log, "{\"event\":\"combat_started\"\nnot json\n").expect("writes");
    let output = Command::new(env!("CARGO_BIN_EXE_fray")).arg("replay").arg(&log).output().expect("fray runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("broken.jsonl:1:"), "no file:line in:\n{stderr}");
}

#[test]
fn the_level_editor_paints_places_units_saves_a_checked_level_and_test_plays_it() {
    if !has_display() {
        return;
    }
    let _turn = window_turn();
    // An empty folder as the working directory: the editor saves to its levels/.
    let work = shots_dir("level-editor");
    let shots = work.join("shots");
    std::fs::create_dir_all(&work).expect("a scratch folder");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/level_editor.ron");
    let output = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(&work)
        .env("FRAY_DATA_DIR", work.join("data"))
        .args(["play", "--mute", "--script"])
        .arg(&script)
        .arg("--screenshots")
        .arg(&shots)
        .output()
        .expect("fray runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the editor script failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("steps passed"), "{stdout}");
    let saved = work.join("levels/new_grid_1.ron");
    let checked = fray::levels::check_file(&saved, &fray::levels::mods::ModSet::default())
        .unwrap_or_else(|errors| panic!("the saved level fails: {errors}"));
    assert!(checked.summary.contains("6 units"), "{}", checked.summary);
    let text = std::fs::read_to_string(&saved).expect("saved");
    assert!(text.contains("\"#.....####.#\""), "the painted walls were saved:\n{text}");
    assert!(
        !work
            .join("levels")
            .read_dir()
            .expect("levels/")
            .any(|entry| { entry.is_ok_and(|entry| entry.file_name().to_string_lossy().contains("test-play")) })
    );
    assert_drawn(
        &shots,
        &["editor_grid.png", "editor_test_play.png", "editor_back_from_test_play.png", "editor_zones.png"],
    );
}

/// A `fray serve` child that is killed when dropped, however the test ends.
struct Referee(std::process::Child);

impl Drop for Referee {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `fray serve sealed_orders.ron --port 0` with `seats`, and reads where it listens.
fn serve_sealed_orders(seats: &[&str]) -> (Referee, String) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["serve", "sealed_orders.ron", "--port", "0"])
        .args(seats)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("fray serve runs");
    let stdout = child.stdout.take().expect("its stdout");
    let referee = Referee(child);
    let mut first = String::new();
    std::io::BufReader::new(stdout).read_line(&mut first).expect("fray serve says where it listens");
    let address = first.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("fray serve said {first:?}"));
    (referee, address.to_string())
}

/// Runs `fray join ADDRESS` with `args` and the script `name`, its screenshots in `dir`.
fn join_with_script(address: &str, args: &[&str], name: &str, dir: &Path) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts").join(name);
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["join", address])
        .args(args)
        .arg("--script")
        .arg(&script)
        .arg("--screenshots")
        .arg(dir)
        .output()
        .expect("fray join runs")
}

#[test]
fn a_player_joins_a_referees_battle_in_the_window_and_declares_with_clicks() {
    if !has_display() {
        return;
    }
    let _turn = window_turn();
    let (referee, address) = serve_sealed_orders(&["--seat", "bandits=ai:greedy"]);
    let dir = shots_dir("online-join");
    let output = join_with_script(&address, &["--side", "wardens", "--name", "Tess"], "online_join.ron", &dir);
    drop(referee);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "the join script failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_drawn(
        &dir,
        &["online_declaring.png", "online_first_declared.png", "online_after_hold.png", "online_round_two.png"],
    );
}

#[test]
fn two_players_at_one_window_share_an_online_battle_with_the_curtain_between_them() {
    if !has_display() {
        return;
    }
    let _turn = window_turn();
    let (referee, address) = serve_sealed_orders(&[]);
    let dir = shots_dir("online-hot-seat");
    let sides = ["--side", "wardens", "--side", "bandits", "--name", "Tess"];
    let output = join_with_script(&address, &sides, "online_hot_seat.ron", &dir);
    drop(referee);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "the script failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_drawn(
        &dir,
        &[
            "online_hot_seat_curtain.png",
            "online_hot_seat_wardens.png",
            "online_hot_seat_curtain_between.png",
            "online_hot_seat_bandits.png",
            "online_hot_seat_round_two.png",
        ],
    );
}

#[test]
fn a_player_hosts_a_battle_from_the_menu_readies_in_the_lobby_and_starts_it() {
    if !has_display() {
        return;
    }
    let dir = shots_dir("host-online");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/host_online.ron");
    // The menu's level (the ambush) with its first side the host's and its second an AI: the
    // window starts its own `fray serve --lobby` child and joins it.
    let (script, shots) = (script.to_str().expect("a UTF-8 path"), dir.to_str().expect("a UTF-8 path"));
    let stdout = play_in(&dir.join("data"), &["play", "--script", script, "--screenshots", shots]);
    assert!(stdout.contains("steps passed"), "{stdout}");
    assert_drawn(&dir, &["online_host_form.png", "online_lobby.png", "online_hosted_battle.png"]);
}
