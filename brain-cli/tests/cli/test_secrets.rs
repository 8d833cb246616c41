//! The secret firewall on `brain add`: secrets never reach `.brain/`, and
//! every redaction is reported by kind, never by value.

use crate::common::TestEnv;

const AWS_KEY: &str = "AKIAFAKEFAKEFAKEFAKE";
const GITHUB_TOKEN: &str = "ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1234";
const DB_PASSWORD: &str = "Fak3Passw0rdFake";

fn init() -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["init", "--workflow", "recommended-semi-auto"])
        .success();
    env
}

fn add_args(summary: &str, detail: &str) -> Vec<String> {
    [
        "add",
        "-t",
        "gotcha",
        "--title",
        "Deploy credentials",
        "--summary",
        summary,
        "--detail",
        detail,
    ]
    .map(str::to_owned)
    .to_vec()
}

fn summary() -> String {
    format!("The deploy script reads {AWS_KEY} from the environment.")
}

fn detail() -> String {
    format!(
        "Push with {GITHUB_TOKEN}.\nDATABASE_URL=postgres://app:{DB_PASSWORD}@db.internal:5432/app\n"
    )
}

/// Every file under `.brain/`, with its text.
fn brain_files(env: &TestEnv) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![env.root().join(".brain")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.push((
                    path.display().to_string(),
                    String::from_utf8_lossy(&bytes).into_owned(),
                ));
            }
        }
    }
    files
}

#[test]
fn add_redacts_secrets_before_writing() {
    let env = init();
    let out = env.brain(add_args(&summary(), &detail()));
    assert_eq!(out.status, 0, "{out}");
    let files = brain_files(&env);
    for (path, text) in &files {
        for secret in [AWS_KEY, GITHUB_TOKEN, DB_PASSWORD] {
            assert!(!text.contains(secret), "{path} holds a secret:\n{text}");
        }
    }
    let record = files
        .iter()
        .find(|(p, _)| p.contains("/gotchas/"))
        .map(|(_, t)| t.as_str())
        .unwrap();
    assert!(record.contains("[REDACTED:aws_access_key_id]"), "{record}");
    assert!(record.contains("[REDACTED:github_token]"), "{record}");
    assert!(
        record.contains("postgres://app:[REDACTED:url_password]@db.internal:5432/app"),
        "{record}"
    );
    insta::assert_snapshot!(out.stderr, @"
    warning: redacted aws_access_key_id in summary of deploy-credentials-c1af1142
    warning: redacted github_token in detail of deploy-credentials-c1af1142
    warning: redacted url_password in detail of deploy-credentials-c1af1142
    added gotcha .brain/gotchas/deploy-credentials-c1af1142.yaml as candidate
    ");
    for secret in [AWS_KEY, GITHUB_TOKEN, DB_PASSWORD] {
        assert!(!out.stdout.contains(secret) && !out.stderr.contains(secret));
    }
}

#[test]
fn add_json_lists_redactions_without_values() {
    let env = init();
    let owned = add_args(&summary(), &detail());
    let argv: Vec<&str> = owned.iter().map(String::as_str).collect();
    let (json, out) = env.brain_json("add", &argv);
    assert_eq!(out.status, 0, "{out}");
    for secret in [AWS_KEY, GITHUB_TOKEN, DB_PASSWORD] {
        assert!(!out.stdout.contains(secret), "{}", out.stdout);
    }
    insta::assert_json_snapshot!(json["redactions"], @r#"
    [
      {
        "id": "deploy-credentials-c1af1142",
        "field": "summary",
        "kind": "aws_access_key_id",
        "line": 1,
        "column": 25
      },
      {
        "id": "deploy-credentials-c1af1142",
        "field": "detail",
        "kind": "github_token",
        "line": 1,
        "column": 11
      },
      {
        "id": "deploy-credentials-c1af1142",
        "field": "detail",
        "kind": "url_password",
        "line": 2,
        "column": 29
      }
    ]
    "#);
}

#[test]
fn import_redacts_secrets_in_migrated_records() {
    let env = init();
    let legacy = env.root().join("legacy/.brain/gotchas");
    std::fs::create_dir_all(&legacy).unwrap();
    std::fs::write(
        legacy.join("2025-06-14-deploy-key-141210042.md"),
        format!(
            "---\ntype: \"gotcha\"\ntitle: \"Deploy key {GITHUB_TOKEN}\"\nsummary: \"CI pushes with {GITHUB_TOKEN}.\"\n\
             created_at: \"2025-06-14T14:12:10.042Z\"\nstatus: \"active\"\n---\n\n\
             DATABASE_URL=postgres://app:{DB_PASSWORD}@db.internal:5432/app\n"
        ),
    )
    .unwrap();
    let out = env.brain(["import", "--from-repobrain", "legacy"]);
    assert_eq!(out.status, 0, "{out}");
    // Not in any file, nor in any file name (ids are slugs of the redacted title).
    let token_slug = brain_core::model::id::slugify(GITHUB_TOKEN, 200);
    let token_tail = &token_slug[..12];
    for (path, text) in brain_files(&env) {
        for secret in [GITHUB_TOKEN, DB_PASSWORD] {
            assert!(!text.contains(secret), "{path} holds a secret:\n{text}");
        }
        assert!(
            !path.contains(token_tail),
            "{path} holds the token in its name"
        );
    }
    assert!(
        out.stderr
            .contains("warning: redacted github_token in summary of deploy-key-"),
        "{out}"
    );
    assert!(
        out.stderr
            .contains("warning: redacted url_password in detail of"),
        "{out}"
    );
    // The redacted record is canonical and valid.
    let (lint, out) = env.brain_json("lint", &["lint"]);
    assert_eq!(lint["errors"], 0, "{out}");
    assert_eq!(env.brain(["normalize", "--check"]).status, 0);
}

#[test]
fn approve_redacts_a_candidate_written_by_hand() {
    let env = init();
    let id = "hand-written-2f1c9a7e";
    std::fs::write(
        env.root().join(format!(".brain/gotchas/{id}.yaml")),
        format!(
            "schema_version: 1\nid: {id}\ntype: gotcha\nstatus: candidate\n\
             title: Hand-written note\nsummary: The staging token is {GITHUB_TOKEN}.\n\
             provenance:\n  source: manual\n  captured_at: \"2026-11-01T00:00:00Z\"\n\
             review:\n  state: pending\n"
        ),
    )
    .unwrap();
    let (json, out) = env.brain_json("approve", &["approve", id]);
    assert_eq!(out.status, 0, "{out}");
    assert!(
        out.stderr.contains(&format!(
            "warning: redacted github_token in summary of {id}"
        )),
        "{out}"
    );
    assert_eq!(json["redactions"][0]["kind"], "github_token");
    assert!(!out.stdout.contains(GITHUB_TOKEN));
    // The git-ignored cache under `runtime/` was filled from the file as it
    // was before approval; every tracked file is clean.
    for (path, text) in brain_files(&env)
        .into_iter()
        .filter(|(p, _)| !p.contains("/runtime/"))
    {
        assert!(
            !text.contains(GITHUB_TOKEN),
            "{path} holds a secret:\n{text}"
        );
    }
}

// Finding 3: the runtime log kept the raw task text of context loads.
#[test]
fn context_loads_log_the_task_redacted() {
    let env = init();
    let task = format!("rotate {GITHUB_TOKEN} and {AWS_KEY} after the leak");
    for command in ["inject", "route", "conversation-start"] {
        let out = env.brain([command, "--task", &task]);
        assert_eq!(out.status, 0, "{out}");
    }
    let log = std::fs::read_to_string(env.root().join(".brain/runtime/activity.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");
    for line in log.lines() {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            entry["task"],
            "rotate [REDACTED:github_token] and [REDACTED:aws_access_key_id] after the leak",
            "{line}"
        );
    }
    // The redacted log still recognises the same task: no refresh.
    let (json, out) = env.brain_json(
        "conversation-start",
        &["conversation-start", "--task", &task],
    );
    assert_eq!(out.status, 0, "{out}");
    assert_ne!(json["decision"], "start", "{json}");
}
