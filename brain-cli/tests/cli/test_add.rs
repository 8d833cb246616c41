//! `brain add`.

use std::io::Write;

use crate::common::TestEnv;

fn init(workflow: &str) -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["init", "--workflow", workflow]).success();
    env
}

#[test]
fn add_writes_a_candidate_by_default() {
    let env = init("recommended-semi-auto");
    let out = env.brain([
        "add",
        "--type",
        "decision",
        "--title",
        "Use integer cents for money",
        "--summary",
        "Store every amount as integer cents.",
        "--path",
        "src/billing/**",
        "--path",
        "./src/ledger/",
        "--tag",
        "Money",
        "--tag",
        "money",
        "--importance",
        "high",
    ]);
    insta::assert_snapshot!(out, @"
    use-integer-cents-for-money-b5320982
    --- stderr ---
    added decision .brain/decisions/use-integer-cents-for-money-b5320982.yaml as candidate
    [exit status: 0]
    ");
    let text = std::fs::read_to_string(
        env.root()
            .join(".brain/decisions/use-integer-cents-for-money-b5320982.yaml"),
    )
    .unwrap();
    insta::assert_snapshot!(text, @r#"
    schema_version: 1
    id: use-integer-cents-for-money-b5320982
    type: decision
    status: candidate
    title: Use integer cents for money
    summary: Store every amount as integer cents.
    importance: high
    tags:
    - money
    scope:
      paths:
      - src/billing/**
      - src/ledger
    provenance:
      source: manual
      captured_at: "2026-11-20T12:00:00Z"
      proposed_by: Dana Okafor <dana@tollbooth.example>
    review:
      state: pending
    "#);
}

#[test]
fn add_json_and_direct_capture() {
    let env = init("ultra-safe-manual");
    let (json, out) = env.brain_json(
        "add",
        &[
            "add",
            "-t",
            "gotcha",
            "--title",
            "Webhooks arrive twice",
            "--summary",
            "Dedupe on event id.",
        ],
    );
    insta::assert_json_snapshot!(json, @r#"
    {
      "id": "webhooks-arrive-twice-0e411b9b",
      "path": ".brain/gotchas/webhooks-arrive-twice-0e411b9b.yaml",
      "status": "active",
      "redactions": []
    }
    "#);
    assert!(out.stderr.contains("as active"));
}

#[test]
fn add_reads_detail_from_stdin() {
    let env = init("recommended-semi-auto");
    let mut child = env
        .command([
            "add",
            "-t",
            "pattern",
            "--title",
            "Outbox",
            "--summary",
            "Use an outbox.",
            "--detail",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"Write the event in the same transaction.\n\nA worker delivers it.\n\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let id = String::from_utf8(out.stdout).unwrap();
    let text = std::fs::read_to_string(
        env.root()
            .join(format!(".brain/patterns/{}.yaml", id.trim())),
    )
    .unwrap();
    assert!(text.contains("detail: |\n  Write the event in the same transaction.\n\n  A worker delivers it.\nimportance") || text.contains("detail: |\n  Write the event in the same transaction.\n\n  A worker delivers it.\nprovenance"), "{text}");
}

#[test]
fn add_rejects_bad_input_without_writing() {
    let env = init("recommended-semi-auto");
    let cases: &[(&[&str], &str)] = &[
        (
            &["add", "-t", "decision", "--title", " ", "--summary", "s"],
            "invalid title",
        ),
        (
            &["add", "-t", "decision", "--title", "t", "--summary", ""],
            "invalid summary",
        ),
        (
            &[
                "add",
                "-t",
                "decision",
                "--title",
                "t",
                "--summary",
                "s",
                "--status",
                "superseded",
            ],
            "not `superseded`",
        ),
        (
            &[
                "add",
                "-t",
                "decision",
                "--title",
                "t",
                "--summary",
                "s",
                "--importance",
                "urgent",
            ],
            "unknown importance `urgent`",
        ),
    ];
    for (args, message) in cases {
        let out = env.brain(*args);
        assert_eq!(out.status, 2, "{args:?}: {out}");
        assert!(out.stderr.contains(message), "{args:?}: {out}");
    }
    let files = walkdir_count(&env.root().join(".brain"));
    assert_eq!(files, 0, "nothing was written");
}

fn walkdir_count(dir: &std::path::Path) -> usize {
    let mut n = 0;
    for sub in [
        "decisions",
        "gotchas",
        "conventions",
        "patterns",
        "goals",
        "working",
    ] {
        n += std::fs::read_dir(dir.join(sub)).unwrap().count();
    }
    n
}

/// Runs `brain add … --detail -` with `input` on stdin.
fn add_with_detail_on_stdin(env: &TestEnv, input: Vec<u8>) -> (i32, String) {
    let mut child = env
        .command([
            "add",
            "-t",
            "gotcha",
            "--title",
            "Big detail",
            "--summary",
            "A detail from stdin.",
            "--detail",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // From a thread: brain stops reading at the limit.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// Finding 6: `add --detail -` read stdin without a limit and kept NUL bytes.
#[test]
fn add_detail_from_stdin_has_the_capture_limits() {
    let env = init("recommended-semi-auto");
    let (code, err) = add_with_detail_on_stdin(&env, vec![b'a'; 3 << 20]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than 1048576 bytes"), "{err}");
    let (code, err) = add_with_detail_on_stdin(&env, b"before\0after\n".to_vec());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("NUL byte at offset 6"), "{err}");
    // The same limits hold for a detail given inline.
    let out = env.brain([
        "add",
        "-t",
        "gotcha",
        "--title",
        "Bell",
        "--summary",
        "s",
        "--detail",
        "ring \u{7} ring",
    ]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("invalid detail"), "{out}");
    assert_eq!(
        walkdir_count(&env.root().join(".brain")),
        0,
        "nothing was written"
    );
}

// Finding 5: a title with a carriage return or an escape sequence could
// overwrite what `list` prints.
#[test]
fn add_refuses_control_characters_in_titles() {
    let env = init("recommended-semi-auto");
    for title in [
        "Fine\rSpoofed",
        "Red \u{1b}[31malert\u{1b}[0m",
        "Bell\u{7}ring",
    ] {
        let out = env.brain(["add", "-t", "gotcha", "--title", title, "--summary", "s"]);
        assert_eq!(out.status, 2, "{title:?}: {out}");
        assert!(
            out.stderr.contains("invalid title: control character"),
            "{out}"
        );
    }
    assert_eq!(
        walkdir_count(&env.root().join(".brain")),
        0,
        "nothing was written"
    );
}

#[test]
fn list_and_show_escape_control_characters_of_hand_written_records() {
    let env = init("recommended-semi-auto");
    let id = "spoof-0a1b2c3d";
    std::fs::write(
        env.root().join(format!(".brain/gotchas/{id}.yaml")),
        format!(
            "schema_version: 1\nid: {id}\ntype: gotcha\nstatus: candidate\n\
             title: \"Harmless\\rrm -rf \\e[2K\"\nsummary: s\n\
             provenance:\n  source: manual\n  captured_at: \"2026-11-01T00:00:00Z\"\n\
             review:\n  state: pending\n"
        ),
    )
    .unwrap();
    let list = env.brain(["list"]);
    assert_eq!(list.status, 0, "{list}");
    assert!(
        list.stdout.contains("Harmless\\rrm -rf \\u{1b}[2K"),
        "{list}"
    );
    let show = env.brain(["show", id]);
    for out in [&list, &show] {
        assert!(
            !out.stdout.contains('\r') && !out.stdout.contains('\u{1b}'),
            "{out}"
        );
    }
    // `lint` names the problem.
    let problems = env.brain(["lint"]);
    assert!(
        problems.stdout.contains("control character U+000D"),
        "{problems}"
    );
}
