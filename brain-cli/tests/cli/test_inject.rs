//! `brain inject` and `brain search`: the right few memories, within the
//! budget, and a clean tree afterwards.

use crate::common::TestEnv;

#[test]
fn inject_returns_the_ledger_memories_and_no_unrelated_goal() {
    let env = TestEnv::example();
    let out = env
        .brain([
            "inject",
            "--task",
            "fix duplicate refund ledger write",
            "--path",
            "src/payments/ledger.ts",
        ])
        .success();
    insta::assert_snapshot!(out);
    let (json, _) = env.brain_json(
        "inject",
        &[
            "inject",
            "--task",
            "fix duplicate refund ledger write",
            "--path",
            "src/payments/ledger.ts",
        ],
    );
    let selected = json["selected"].as_array().unwrap();
    assert!(!selected.is_empty());
    for s in selected {
        assert_ne!(s["type"], "goal", "{s}");
        assert!(
            s["title"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("ledger")
                || s["matched_terms"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|t| t == "ledger"),
            "{s}"
        );
    }
    assert_eq!(json["path_source"], "explicit");
    assert!(json["used_tokens"].as_u64().unwrap() <= 1200);
    // Near-misses say why they were left out.
    assert!(
        json["near_misses"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["reason"].is_string())
    );
}

#[test]
fn a_task_that_opens_like_a_flag_is_the_task() {
    // A pasted test log opens with `--- FAIL`; every free-text option takes it.
    let env = TestEnv::example();
    let log = "--- FAIL: TestRefund (0.31s)\n    ledger_test.go:41: duplicate refund ledger write";
    for args in [
        vec!["inject", "--task", log],
        vec!["route", "--task", log],
        vec!["conversation-start", "--task", log],
    ] {
        let out = env.brain(&args).success();
        assert!(
            !out.stdout.contains("unexpected argument"),
            "{args:?}: {out}"
        );
    }
    let (json, _) = env.brain_json("inject", &["inject", "--task", log]);
    assert_eq!(json["task"].as_str(), Some(log), "{json}");
    assert!(!json["selected"].as_array().unwrap().is_empty(), "{json}");
}

#[test]
fn an_unrelated_task_injects_nothing_and_says_so() {
    let env = TestEnv::example();
    let (json, _) = env.brain_json(
        "inject",
        &[
            "inject",
            "--task",
            "update the company holiday calendar page copy",
        ],
    );
    assert!(json["selected"].as_array().unwrap().is_empty(), "{json}");
    assert!(
        json["block"]
            .as_str()
            .unwrap()
            .contains("No stored memory is relevant to this task.")
    );
}

#[test]
fn budgets_are_never_exceeded_and_tiny_ones_are_refused() {
    let env = TestEnv::example();
    for budget in ["24", "200", "800", "1200"] {
        for layer in ["index", "summary", "full"] {
            let (json, _) = env.brain_json(
                "inject",
                &[
                    "inject",
                    "--task",
                    "ledger invoices refunds webhooks migrations",
                    "--budget",
                    budget,
                    "--layer",
                    layer,
                ],
            );
            let used = json["used_tokens"].as_u64().unwrap();
            let block = json["block"].as_str().unwrap();
            assert!(used <= budget.parse().unwrap(), "{budget} {layer}: {used}");
            assert_eq!(used, (block.len() as u64).div_ceil(4));
        }
    }
    let out = env.brain(["inject", "--budget", "10"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("at least 24"), "{out}");
}

#[test]
fn reads_leave_the_tree_clean_and_record_activity_in_runtime() {
    let env = TestEnv::example();
    env.git(&["init", "-q", "-b", "main"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "example store"]);
    env.brain(["inject", "--task", "ledger corrections"])
        .success();
    env.brain(["search", "ledger"]).success();
    assert_eq!(env.git(&["status", "--porcelain"]), "");
    let log = std::fs::read_to_string(env.root().join(".brain/runtime/activity.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 1, "{log}");
    // Without --path, the changed files come from git.
    std::fs::write(env.root().join("notes.txt"), "x\n").unwrap();
    env.git(&["add", "notes.txt"]);
    let (json, _) = env.brain_json("inject", &["inject", "--task", "ledger corrections"]);
    assert_eq!(json["path_source"], "git_diff");
    assert_eq!(json["paths"], serde_json::json!(["notes.txt"]));
}

#[test]
fn search_matches_whole_words_and_marks_them() {
    let env = TestEnv::example();
    let out = env.brain(["search", "ledger", "--limit", "3"]).success();
    insta::assert_snapshot!(out);
    let (json, _) = env.brain_json("search", &["search", "refunds", "--lexical-only"]);
    assert_eq!(json["mode"], "lexical");
    for h in json["hits"].as_array().unwrap() {
        assert!(h["snippet"].as_str().unwrap().contains("**"), "{h}");
    }
    // A word inside another word is not a match.
    let (json, _) = env.brain_json("search", &["search", "ledg"]);
    assert!(json["hits"].as_array().unwrap().is_empty(), "{json}");
}
