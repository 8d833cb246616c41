//! `brain status`, `brain sweep` and `brain completions`.

use std::collections::BTreeMap;

use crate::common::{TestEnv, validate_json};

fn memory(id: &str, kind: &str, title: &str, summary: &str, extra: &str) -> String {
    format!(
        "schema_version: 1\nid: {id}\ntype: {kind}\nstatus: active\ntitle: {title}\nsummary: {summary}\n{extra}\
         provenance:\n  source: manual\n  captured_at: \"2026-11-01T00:00:00Z\"\n"
    )
}

/// A store with an expired working note, one still in force, a pair of
/// duplicates and a memory last seen long ago.
fn store() -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["--quiet", "init"]).success();
    let write = |dir: &str, id: &str, text: String| {
        std::fs::write(env.root().join(format!(".brain/{dir}/{id}.yaml")), text).unwrap();
    };
    write(
        "working",
        "deploy-freeze",
        memory(
            "deploy-freeze",
            "working",
            "Deploy freeze this week",
            "No deploys until Friday.",
            "validity:\n  expires: 2026-11-10\n",
        ),
    );
    write(
        "working",
        "flaky-suite",
        memory(
            "flaky-suite",
            "working",
            "The e2e suite is flaky",
            "Rerun failures once before looking.",
            "validity:\n  expires: 2026-12-31\n",
        ),
    );
    for id in ["ledger-append-only", "ledger-rows-immutable"] {
        write(
            "gotchas",
            id,
            memory(
                id,
                "gotcha",
                "Ledger rows are append-only",
                "Never UPDATE ledger_entries; post a reversing entry.",
                "",
            ),
        );
    }
    write(
        "decisions",
        "use-cents",
        memory(
            "use-cents",
            "decision",
            "Use integer cents for money",
            "Amounts are integer cents, never floats.",
            "",
        )
        .replace("2026-11-01T00:00:00Z", "2025-01-01T00:00:00Z"),
    );
    env
}

fn tracked(env: &TestEnv) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for dir in ["working", "gotchas", "decisions"] {
        for e in std::fs::read_dir(env.root().join(".brain").join(dir)).unwrap() {
            let p = e.unwrap().path();
            out.insert(
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            );
        }
    }
    out
}

#[test]
fn sweep_expires_working_notes_once_and_only_reports_the_rest() {
    let env = store();
    let before = tracked(&env);
    insta::assert_snapshot!(env.brain(["sweep", "--dry-run"]), @"
    would expire  deploy-freeze  (expires 2026-11-10: active -> done)
    stale  use-cents  (last seen 2025-01-01T00:00:00Z, 688 days ago)
    near duplicate  ledger-append-only ~ ledger-rows-immutable  (duplicate)
    1 would expire, 1 stale (not seen for 90 days), 1 near-duplicate pair
    [exit status: 0]
    ");
    assert_eq!(tracked(&env), before, "--dry-run wrote something");
    insta::assert_snapshot!(env.brain(["sweep"]), @"
    expired  deploy-freeze  (expires 2026-11-10: active -> done)
    stale  use-cents  (last seen 2025-01-01T00:00:00Z, 688 days ago)
    near duplicate  ledger-append-only ~ ledger-rows-immutable  (duplicate)
    1 expired, 1 stale (not seen for 90 days), 1 near-duplicate pair
    [exit status: 0]
    ");
    let after = tracked(&env);
    let note =
        std::fs::read_to_string(env.root().join(".brain/working/deploy-freeze.yaml")).unwrap();
    assert!(note.contains("status: done"), "{note}");
    assert_eq!(
        after.iter().filter(|(k, v)| before[*k] != **v).count(),
        1,
        "only the expired note changes"
    );
    // Idempotent: the second run writes nothing.
    let (json, out) = env.brain_json("sweep", &["sweep"]);
    assert_eq!(out.status, 0);
    assert_eq!(json["expired"], serde_json::json!([]));
    assert_eq!(tracked(&env), after);
    env.brain(["lint"]).success();
}

#[test]
fn status_counts_and_suggests_the_next_step() {
    let env = store();
    insta::assert_snapshot!(env.brain(["status"]), @"
    memories:       5 (active 5)
    preferences:    0
    pending review: 0
    last load:      never
    problems:       0 errors, 2 warnings
    housekeeping:   1 expired, 1 stale
    next step:      run `brain sweep`: 1 working note past `expires`
    [exit status: 0]
    ");
    env.brain(["--quiet", "sweep"]).success();
    let (json, _) = env.brain_json("status", &["status"]);
    assert_eq!(json["expired"], 0);
    assert_eq!(
        json["next_step"],
        "run `brain sweep --dry-run`: 1 memory not seen for a while"
    );
    env.brain([
        "--quiet",
        "add",
        "--type",
        "gotcha",
        "--title",
        "CSV export truncates long rows",
        "--summary",
        "Rows over 64 KB lose lines.",
    ])
    .success();
    let (json, _) = env.brain_json("status", &["status"]);
    assert_eq!(json["pending_review"], 1);
    assert_eq!(json["next_step"], "run `brain review`: 1 candidate pending");
}

#[test]
fn status_of_the_example_store_is_one_json_document() {
    let env = TestEnv::example();
    let out = env.brain(["--format", "json", "status"]);
    assert_eq!(out.status, 0, "{out}");
    let json = validate_json("status", &out.stdout);
    assert_eq!(json["last_load"], serde_json::Value::Null);
}

#[test]
fn completions_are_generated_for_each_shell() {
    let env = TestEnv::empty();
    for (shell, start) in [
        ("bash", "_brain()"),
        ("zsh", "#compdef brain"),
        ("fish", "# Print an optspec"),
        ("powershell", "\nusing namespace"),
        ("elvish", "\nuse builtin;"),
    ] {
        let out = env.brain(["completions", shell]);
        assert_eq!(out.status, 0, "{out}");
        assert!(
            out.stdout.starts_with(start.trim_start_matches('\n'))
                || out.stdout.contains(start.trim()),
            "{shell}: {}",
            &out.stdout[..80.min(out.stdout.len())]
        );
        assert!(out.stdout.contains("merge-driver"), "{shell}");
    }
    assert_eq!(env.brain(["completions", "tcsh"]).status, 2);
}
