//! Small defects found on the way (issue 33), run through the built binary: the shipped levels
//! answer to their usual path, file name and level name from any directory, and `fray sim` shows
//! only the pools its ruleset uses.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty directory under the temp directory, removed when dropped: nothing of the
/// repository (no `levels/`, no `assets/`) is in reach from it.
struct Elsewhere(PathBuf);

impl Elsewhere {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("fray-elsewhere-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the temp directory");
        Self(dir)
    }

    /// Runs `fray ARGS` from this directory, with no installed mods.
    fn fray(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_fray"))
            .current_dir(&self.0)
            .arg("--no-installed-mods")
            .args(args)
            .output()
            .expect("run the fray binary")
    }
}

impl Drop for Elsewhere {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asserts the command succeeded, showing what it said when it did not.
fn assert_ok(output: &Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{what} failed ({:?}):\n{stdout}\n{stderr}", output.status.code());
    stdout
}

#[test]
fn sim_plays_a_shipped_level_by_its_usual_path_from_any_directory() {
    let elsewhere = Elsewhere::new("sim");
    assert!(!elsewhere.0.join("levels/duel.ron").exists());
    let stdout = assert_ok(&elsewhere.fray(&["sim", "levels/duel.ron", "--games", "2"]), "sim levels/duel.ron");
    assert!(stdout.contains("Duel at the Old Keep: 2 games"), "{stdout}");
    let stdout = assert_ok(&elsewhere.fray(&["sim", "melee.ron", "--seed", "3"]), "sim melee.ron");
    assert!(stdout.contains("The Great Melee"), "{stdout}");
}

#[test]
fn check_finds_shipped_levels_by_path_file_name_and_level_name_from_any_directory() {
    let elsewhere = Elsewhere::new("check");
    for (named, level) in [
        ("levels/duel.ron", "Duel at the Old Keep"),
        ("duel.ron", "Duel at the Old Keep"),
        ("Duel at the Old Keep", "Duel at the Old Keep"),
        // The siege is shipped but left out of the menu: built in all the same.
        ("The Siege of Harrow Keep", "The Siege of Harrow Keep"),
        ("levels/siege.ron", "The Siege of Harrow Keep"),
    ] {
        let stdout = assert_ok(&elsewhere.fray(&["check", named]), &format!("check {named}"));
        assert!(stdout.contains(&format!("level \"{level}\"")), "check {named}: {stdout}");
    }
    // A name that is no shipped level is still a file that cannot be read.
    let output = elsewhere.fray(&["check", "levels/nowhere.ron"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read the file"));
}

#[test]
fn a_file_on_disk_wins_over_the_shipped_level_of_the_same_name() {
    let elsewhere = Elsewhere::new("own-duel");
    std::fs::create_dir_all(elsewhere.0.join("levels")).unwrap();
    let duel = include_str!("../../levels/duel.ron").replace("Duel at the Old Keep", "My Own Duel");
    std::fs::write(elsewhere.0.join("levels/duel.ron"), duel).unwrap();
    let stdout = assert_ok(&elsewhere.fray(&["check", "levels/duel.ron"]), "check levels/duel.ron");
    assert!(stdout.contains("level \"My Own Duel\""), "{stdout}");
}

#[test]
fn replay_verifies_a_log_of_a_shipped_level_from_any_directory() {
    let elsewhere = Elsewhere::new("replay");
    let log = "duel.jsonl";
    assert_ok(&elsewhere.fray(&["sim", "levels/duel.ron", "--seed", "5", "--log", log]), "sim --log");
    assert!(Path::new(&elsewhere.0.join(log)).is_file());
    let stdout = assert_ok(&elsewhere.fray(&["replay", "--verify", log]), "replay --verify");
    assert!(stdout.contains("reproduced byte for byte"), "{stdout}");
    let stdout = assert_ok(
        &elsewhere.fray(&["replay", "--verify", log, "--level", "levels/duel.ron"]),
        "replay --verify --level levels/duel.ron",
    );
    assert!(stdout.contains("reproduced byte for byte"), "{stdout}");
}

#[test]
fn sim_shows_only_the_pools_the_ruleset_uses() {
    let elsewhere = Elsewhere::new("pools");
    // zones_and_tests has one pool of hit points and no Stress.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/zones_and_tests_skirmish.ron");
    let stdout = assert_ok(&elsewhere.fray(&["sim", path.to_str().unwrap(), "--seed", "1"]), "sim zones_and_tests");
    let units: Vec<&str> = stdout.lines().filter(|line| line.starts_with("  ")).collect();
    assert!(!units.is_empty(), "{stdout}");
    for line in &units {
        assert!(!line.contains("stress"), "no Stress under zones_and_tests: {line}");
        assert!(line.contains("hit points"), "the one pool is hit points: {line}");
    }
    // stress_and_wounds has both.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/duel.ron");
    let stdout = assert_ok(&elsewhere.fray(&["sim", path.to_str().unwrap(), "--seed", "1"]), "sim duel");
    let units: Vec<&str> = stdout.lines().filter(|line| line.starts_with("  ")).collect();
    assert!(!units.is_empty(), "{stdout}");
    for line in &units {
        assert!(line.contains("stress") && line.contains("wounds"), "{line}");
    }
}
