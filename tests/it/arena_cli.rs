//! `fray arena` from the command line: mirrored pairs, the JSON it promises, and clear usage errors.

use std::process::Command;

fn arena(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fray")).arg("arena").args(args).output().expect("fray runs")
}

#[test]
fn arena_json_reports_each_ai_with_the_promised_fields() {
    let output = arena(&["levels/duel.ron", "--ai", "a=greedy", "--ai", "b=random", "--games", "6", "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let value: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON object");
    assert_eq!(value["level"], "Duel at the Old Keep");
    assert_eq!(value["games"], 6);
    let ai = value["ai"].as_array().unwrap();
    assert_eq!(ai.len(), 2);
    assert_eq!(ai[0]["kind"], "greedy");
    assert_eq!(ai[1]["kind"], "random");
    for entry in ai {
        let games = ["wins", "draws", "losses"].iter().map(|field| entry[field].as_u64().unwrap()).sum::<u64>();
        assert_eq!(games, 6, "every game is a win, a draw or a loss: {entry}");
        for field in ["win_rate", "decision_ms_mean", "decision_ms_p95"] {
            assert!(entry[field].is_f64() || entry[field].is_u64(), "{field} missing in {entry}");
        }
    }
    // Mirrored: what one AI wins, the other loses.
    assert_eq!(ai[0]["wins"], ai[1]["losses"]);
    assert_eq!(ai[0]["draws"], ai[1]["draws"]);
}

#[test]
fn arena_table_shows_intervals_and_an_elo_table_for_three_kinds() {
    let output = arena(&["levels/duel.ron", "--ai", "greedy", "--ai", "random", "--ai", "easy", "--games", "2"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("95% CI"), "{text}");
    assert!(text.contains("mean rounds"), "{text}");
    assert!(text.contains("Elo"), "{text}");
}

#[test]
fn arena_refuses_an_unknown_ai_kind() {
    let output = arena(&["levels/duel.ron", "--ai", "a=genius", "--ai", "b=greedy"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown AI \"genius\""));
}

#[test]
fn sim_accepts_every_ai_kind() {
    for kind in ["random", "easy", "normal", "greedy", "hard", "tactician", "master"] {
        let output = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(["sim", "levels/duel.ron", "--ai", &format!("hunter={kind}"), "--seed", "1"])
            .output()
            .expect("fray runs");
        assert!(output.status.success(), "{kind}: {}", String::from_utf8_lossy(&output.stderr));
    }
}
