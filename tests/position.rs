//! Position cases over the persistent protocol: the play-ttt fixture suite's players (a Python adapter
//! answering `game` + `turn`) asked for one move at given tic-tac-toe states. The Morris suite covers the
//! per-move protocol (tests/morris.rs).

use serde_json::Value;

use crate::util::{copy_dir, grader, read, repo, scratch};

/// The play-ttt fixture with its games replaced by position cases.
const GROUPS: &str = r#"
[[groups]]
name = "positions"
points = 4
visibility = "public"

[[groups.cases]]
name = "any-move"
position = { state = "x---o----", side = "x", expect = "legal" }

[[groups.cases]]
name = "win"
position = { state = "xx-oo----", side = "x", expect = "win" }

[[groups.cases]]
name = "block"
position = { state = "xx--o----", side = "o", expect = "block" }

[[groups.cases]]
name = "corner-taken"
position = { state = "x---o---x", side = "o", expect = "legal" }
"#;

#[test]
fn persistent_players_are_asked_once_per_position() {
    let dir = scratch();
    let suite = dir.path().join("positions");
    copy_dir(&repo().join("tests/fixtures/play-ttt"), &suite);
    let toml = read(&suite.join("suite.toml"));
    let head = &toml[..toml.find("[[manual]]").unwrap()];
    std::fs::write(suite.join("suite.toml"), format!("{head}{GROUPS}")).unwrap();
    let class = dir.path().join("class");
    for s in ["good", "illegal"] {
        copy_dir(
            &repo().join("tests/fixtures/play-ttt-class").join(s),
            &class.join(s),
        );
    }
    let out = dir.path().join("results");
    let o = grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--sandbox", "basic", "--jobs", "2"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let result = |student: &str| -> Value {
        serde_json::from_str(&read(
            &out.join("positions").join(student).join("result.json"),
        ))
        .unwrap()
    };
    let summaries = |r: &Value| -> Vec<(String, String)> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["verdict"].as_str().unwrap().to_string(),
                    c["summary"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let good = result("good");
    assert_eq!(good["score"].as_f64(), Some(4.0), "{:?}", summaries(&good));
    assert_eq!(summaries(&good)[1].1, "you played `2`, which wins at once");
    // The illegal player always answers `0`: taken in every position here.
    let bad = summaries(&result("illegal"));
    assert_eq!(
        bad[1],
        (
            "wrong-answer".to_string(),
            "you printed `0`, which is not a legal move for x from `xx-oo----`".to_string()
        )
    );
    assert!(bad.iter().all(|(v, _)| v == "wrong-answer"), "{bad:?}");
}
