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
