//! `fray new-level`: the starter level passes the checker `fray check` uses for every shipped
//! ruleset and both battlefield kinds, is the same bytes each time, and the command refuses to
//! overwrite or to guess a misspelt ruleset.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fray::levels::catalog::builtin;
use fray::levels::check_file;
use fray::levels::mods::ModSet;
use fray::levels::starter::{StarterField, starter_level};

const FIELDS: [StarterField; 5] = [
    StarterField::Zones(1),
    StarterField::Zones(3),
    StarterField::Zones(8),
    StarterField::Grid { width: 4, height: 4 },
    StarterField::Grid { width: 16, height: 10 },
];

/// A fresh folder under the target dir for this test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("new_level").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn new_level(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fray")).arg("new-level").args(args).output().expect("fray runs")
}

#[test]
fn every_preset_and_battlefield_kind_passes_fray_check_without_warnings() {
    let dir = scratch("every_preset");
    for (ruleset, _) in builtin::RULESETS {
        for (at, field) in FIELDS.into_iter().enumerate() {
            let path = dir.join(format!("{ruleset}-{at}.ron"));
            std::fs::write(&path, starter_level(ruleset, field).expect("a starter level")).unwrap();
            match check_file(&path, &ModSet::default()) {
                Ok(checked) => {
                    // The shipped rulesets' own warnings are theirs; the starter adds none.
                    let file = path.to_string_lossy();
                    let own: Vec<String> =
                        checked.warnings.iter().map(ToString::to_string).filter(|w| w.starts_with(&*file)).collect();
                    assert!(own.is_empty(), "{ruleset} {field:?}: {own:?}");
                    assert!(checked.summary.contains("2 sides, 4 units"), "{}", checked.summary);
                }
                Err(errors) => panic!("{ruleset} {field:?} does not check:\n{errors}"),
            }
        }
    }
}

#[test]
fn the_command_writes_a_level_that_checks_and_the_same_bytes_each_time() {
    let dir = scratch("same_bytes");
    for (kind, extra) in [("zones", ["--zones", "4"]), ("grid", ["--grid", "12x8"])] {
        let first = dir.join(format!("{kind}-a.ron"));
        let second = dir.join(format!("{kind}-b.ron"));
        for path in [&first, &second] {
            let output = new_level(&[path.to_str().unwrap(), "--ruleset", "shock_and_cover", extra[0], extra[1]]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            assert!(String::from_utf8_lossy(&output.stdout).starts_with("wrote "));
        }
        let bytes = std::fs::read(&first).unwrap();
        assert_eq!(bytes, std::fs::read(&second).unwrap(), "{kind}: same arguments, same bytes");
        assert!(check_file(&first, &ModSet::default()).is_ok());
    }
}

#[test]
fn an_existing_file_is_kept_unless_forced() {
    let dir = scratch("force");
    let path = dir.join("mine.ron");
    std::fs::write(&path, "// my level\n").unwrap();
    let file = path.to_str().unwrap();
    let refused = new_level(&[file, "--ruleset", "crucible"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("pass --force"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "// my level\n");
    let forced = new_level(&[file, "--ruleset", "crucible", "--force"]);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert!(check_file(&path, &ModSet::default()).is_ok());
}

#[test]
fn a_misspelt_ruleset_is_refused_with_a_suggestion() {
    let dir = scratch("misspelt");
    let path = dir.join("level.ron");
    let output = new_level(&[path.to_str().unwrap(), "--ruleset", "stres_and_wounds"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ruleset \"stres_and_wounds\" not found; did you mean \"stress_and_wounds\"?"), "{stderr}");
    assert!(!path.exists(), "nothing is written");
}

#[test]
fn bad_sizes_are_usage_errors() {
    let dir = scratch("sizes");
    let file = dir.join("level.ron");
    let file = file.to_str().unwrap();
    for args in [["--grid", "3x9"], ["--grid", "ten"], ["--zones", "0"]] {
        let output = new_level(&[file, "--ruleset", "crucible", args[0], args[1]]);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    let both = new_level(&[file, "--ruleset", "crucible", "--grid", "8x8", "--zones", "2"]);
    assert_eq!(both.status.code(), Some(2), "--grid and --zones conflict");
}
