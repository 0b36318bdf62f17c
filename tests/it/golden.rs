//! Golden logs: every shipped level, 25 seeds, each AI for every side, played headless; the hash
//! of each JSON Lines log is checked in (`tests/golden/logs.txt`). A refactoring that changes no
//! behaviour keeps every hash; a change of rules must bless the file anew, on purpose:
//!
//! ```sh
//! FRAY_BLESS_GOLDEN=1 cargo test --test it golden::
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;

use fray::headless::HeadlessBattle;
use fray::levels::catalog::builtin::LEVELS;
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, load_builtin_level};
use fray::rules::components::{AiKind, Controller};
use fray::rules::unit::ThreatAudit;

/// Seeds per level and AI.
const SEEDS: u64 = 25;
/// The AIs, each playing every side.
const AIS: [(&str, AiKind); 2] = [("greedy", AiKind::Greedy), ("random", AiKind::Random)];
/// Set to regenerate the golden file instead of checking it.
const BLESS: &str = "FRAY_BLESS_GOLDEN";

fn golden_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/logs.txt")
}

/// FNV-1a, 64 bits: a hash that stays the same on every platform and Rust version.
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(PRIME))
}

/// One line per battle: `level ai seed rounds hash`.
fn play_every_battle() -> String {
    let mut lines = String::new();
    let mut battle = HeadlessBattle::new();
    // Every declaration pass that marks threats for the touched units only is checked against
    // Bevy's change detection over every unit.
    battle.world_mut().init_resource::<ThreatAudit>();
    for (level, _) in LEVELS {
        let template = load_builtin_level(level, &ModSet::default()).unwrap_or_else(|error| panic!("{level}: {error}"));
        for (ai_name, ai) in AIS {
            let controllers: Vec<(usize, Controller)> =
                (0..template.sides.len()).map(|side| (side, Controller::Ai(ai))).collect();
            for seed in 0..SEEDS {
                let setup = BattleSetup { seed, controllers: controllers.clone(), record_log: true };
                battle.start(&template, &setup);
                battle.run_to_end();
                let log = battle.log().to_json_lines();
                let rounds = battle.state().round;
                writeln!(lines, "{level} {ai_name} {seed} {rounds} {:016x}", fnv1a(log.as_bytes())).unwrap();
            }
        }
    }
    let audit = battle.world().resource::<ThreatAudit>();
    assert!(audit.passes > 0, "no declaration pass marked threats for the touched units only");
    assert_eq!(audit.missed, 0, "units changed without being noted as touched, over {} passes", audit.passes);
    lines
}

#[test]
fn every_shipped_level_plays_exactly_as_the_golden_logs_say() {
    let played = play_every_battle();
    let path = golden_file();
    if std::env::var_os(BLESS).is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &played).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error} (bless it with {BLESS}=1)", path.display()));
    let expected: Vec<&str> = golden.lines().collect();
    let actual: Vec<&str> = played.lines().collect();
    let changed: Vec<String> = expected
        .iter()
        .zip(&actual)
        .filter(|(want, got)| want != got)
        .map(|(want, got)| format!("  want {want}\n  got  {got}"))
        .collect();
    assert!(
        changed.is_empty() && expected.len() == actual.len(),
        "{} of {} battles no longer play as they did ({} lines expected, {} played):\n{}",
        changed.len(),
        expected.len(),
        expected.len(),
        actual.len(),
        changed.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_hash_tells_logs_apart() {
    assert_ne!(fnv1a(b"{\"round\":1}"), fnv1a(b"{\"round\":2}"));
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
}
