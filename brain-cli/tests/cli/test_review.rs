//! `brain review`, `brain approve` and `brain promote-candidates`: the
//! reviewer's decisions are shown and carried out.

use crate::common::TestEnv;

fn store(workflow: &str) -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["init", "--workflow", workflow]).success();
    env
}

fn add(env: &TestEnv, args: &[&str]) -> String {
    let mut full = vec!["add"];
    full.extend_from_slice(args);
    env.brain(full).success().stdout.trim().to_owned()
}

fn count(env: &TestEnv, status: &str) -> usize {
    let (json, _) = env.brain_json("list", &["list", "--status", status]);
    json["memories"].as_array().unwrap().len()
}

const LEDGER: [&str; 8] = [
    "--type",
    "gotcha",
    "--title",
    "Ledger entries are append-only",
    "--summary",
    "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
    "--path",
    "src/ledger/**",
];

#[test]
fn the_same_knowledge_twice_leaves_one_active_memory() {
    let env = store("recommended-semi-auto");
    let first = add(&env, &LEDGER);
    let (json, _) = env.brain_json("approve", &["approve", &first]);
    assert_eq!(json["approved"][0]["decision"], "accept");
    let second = add(&env, &LEDGER);
    assert_ne!(first, second);
    let review = env.brain(["review"]).success();
    assert!(
        review
            .stdout
            .starts_with(&format!("{second}  merge  duplicate\n")),
        "{review}"
    );
    assert!(
        review.stdout.contains(&format!("targets: {first}")),
        "{review}"
    );
    let (json, _) = env.brain_json("review", &["review"]);
    assert_eq!(json["items"][0]["outcome"]["relation"], "duplicate");
    assert_eq!(json["safe"], 0);

    let approve = env.brain(["approve", &second]).success();
    assert!(
        approve
            .stdout
            .starts_with(&format!("merge into {first}: {second}")),
        "{approve}"
    );
    assert_eq!(count(&env, "active"), 1);
    assert_eq!(count(&env, "candidate"), 0);
    let (list, _) = env.brain_json("list", &["list"]);
    assert_eq!(
        list["memories"].as_array().unwrap().len(),
        1,
        "the candidate's file is gone"
    );
    let (show, _) = env.brain_json("show", &["show", &first]);
    assert_eq!(show["memory"]["lineage"]["version"], 2);
    assert_eq!(
        env.brain(["lint"]).stdout,
        "0 errors, 0 warnings in 1 file\n"
    );
}

#[test]
fn a_replacement_supersedes_and_links_both_ways() {
    let env = store("recommended-semi-auto");
    let old = add(
        &env,
        &[
            "--type",
            "decision",
            "--title",
            "Use raw SQL for data access",
            "--summary",
            "All queries are hand-written SQL through node-postgres.",
            "--path",
            "src/db/**",
            "--status",
            "active",
        ],
    );
    let new = add(
        &env,
        &[
            "--type",
            "decision",
            "--title",
            "Use Kysely for data access",
            "--summary",
            "We no longer hand-write SQL; switch to the Kysely query builder instead of raw SQL through node-postgres.",
            "--path",
            "src/db/**",
        ],
    );
    let (json, _) = env.brain_json("review", &["review", &new]);
    assert_eq!(
        json["items"][0]["outcome"]["decision"], "supersede",
        "{json:#}"
    );
    assert_eq!(json["items"][0]["outcome"]["targets"][0], old.as_str());
    let (json, _) = env.brain_json("approve", &["approve", &new]);
    assert_eq!(json["approved"][0]["decision"], "supersede");
    let (old_json, _) = env.brain_json("show", &["show", &old]);
    assert_eq!(old_json["memory"]["status"], "superseded");
    assert_eq!(old_json["memory"]["lineage"]["superseded_by"], new.as_str());
    let (new_json, _) = env.brain_json("show", &["show", &new]);
    assert_eq!(new_json["memory"]["status"], "active");
    assert_eq!(new_json["memory"]["lineage"]["supersedes"][0], old.as_str());
    assert_eq!(new_json["memory"]["lineage"]["version"], 2);
    assert_eq!(count(&env, "active"), 1);
    env.brain(["lint"]).success();
}

#[test]
fn safe_approval_takes_only_novel_non_temporary_knowledge() {
    let env = store("recommended-semi-auto");
    let novel = add(
        &env,
        &[
            "-t",
            "convention",
            "--title",
            "Return API errors as problem+json",
            "--summary",
            "Every error response uses application/problem+json.",
        ],
    );
    let working = add(
        &env,
        &[
            "-t",
            "working",
            "--title",
            "Backfilling October usage",
            "--summary",
            "The backfill job runs nightly.",
        ],
    );
    let temporary = add(
        &env,
        &[
            "-t",
            "pattern",
            "--title",
            "Skip the slow e2e suite",
            "--summary",
            "Run only unit tests for now while the suite is rewritten.",
        ],
    );
    let out = env.brain(["approve", "--safe", "--dry-run"]).success();
    assert!(
        out.stdout.contains(&format!("would accept: {novel}")),
        "{out}"
    );
    assert!(
        out.stdout
            .contains(&format!("skipped {working}: working notes")),
        "{out}"
    );
    assert!(
        out.stdout.contains(&format!(
            "skipped {temporary}: temporary wording (\"for now\")"
        )),
        "{out}"
    );
    assert_eq!(count(&env, "candidate"), 3, "a dry run writes nothing");

    let refused = env.brain(["promote-candidates"]);
    assert_eq!(refused.status, 2, "{refused}");
    assert!(
        refused
            .stderr
            .contains("safe auto-approval is off for the `recommended-semi-auto` workflow"),
        "{refused}"
    );

    let (json, _) = env.brain_json("approve", &["approve", "--safe"]);
    assert_eq!(json["approved"].as_array().unwrap().len(), 1);
    assert_eq!(count(&env, "active"), 1);
    assert_eq!(count(&env, "candidate"), 2);
}

#[test]
fn promote_candidates_runs_under_automation_first() {
    let env = store("automation-first");
    add(
        &env,
        &[
            "-t",
            "convention",
            "--title",
            "Return API errors as problem+json",
            "--summary",
            "Every error response uses application/problem+json.",
        ],
    );
    let (json, _) = env.brain_json("approve", &["promote-candidates"]);
    assert_eq!(json["approved"].as_array().unwrap().len(), 1);
    assert_eq!(count(&env, "active"), 1);
}

#[test]
fn repeats_of_dismissed_knowledge_are_rejected_and_shown_with_review_all() {
    let env = store("recommended-semi-auto");
    let first = add(&env, &LEDGER);
    env.brain(["dismiss", &first, "--reason", "covered by the runbook"])
        .success();
    let again = add(&env, &LEDGER);
    let (json, _) = env.brain_json("approve", &["approve", "--all"]);
    assert_eq!(json["approved"][0]["decision"], "reject", "{json:#}");
    assert_eq!(count(&env, "dismissed"), 2);
    let all = env.brain(["review", "--all"]).success();
    assert!(
        all.stdout.contains("dismissed: covered by the runbook"),
        "{all}"
    );
    assert!(
        all.stdout.contains(&format!("{again}  reject  duplicate")),
        "{all}"
    );
    env.brain(["lint"]).success();
}

#[test]
fn approve_refuses_non_candidates_and_needs_a_selection() {
    let env = store("recommended-semi-auto");
    let id = add(
        &env,
        &[
            "-t",
            "decision",
            "--title",
            "Use integer cents",
            "--summary",
            "Money is integer cents.",
            "--status",
            "active",
        ],
    );
    let out = env.brain(["approve", &id]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("only candidates are approved"), "{out}");
    assert_eq!(env.brain(["approve"]).status, 2);
}

#[test]
fn approve_as_new_overrides_a_merge() {
    let env = store("recommended-semi-auto");
    let first = add(&env, &LEDGER);
    env.brain(["approve", &first]).success();
    let second = add(&env, &LEDGER);
    let (review, _) = env.brain_json("review", &["review", &second]);
    assert_eq!(review["items"][0]["outcome"]["decision"], "merge");
    assert_eq!(env.brain(["approve", "--as-new"]).status, 2);
    let (json, _) = env.brain_json("approve", &["approve", "--as-new", &second]);
    let item = &json["approved"][0];
    assert_eq!(item["decision"], "accept", "{json:#}");
    assert_eq!(item["target"], serde_json::Value::Null);
    assert!(
        item["reason"].as_str().unwrap().starts_with(&format!(
            "approved as a new memory by a person, overriding `merge` `{first}`"
        )),
        "{json:#}"
    );
    assert_eq!(count(&env, "active"), 2);
    let (show, _) = env.brain_json("show", &["show", &second]);
    assert!(
        show["memory"]["review"]["reason"]
            .as_str()
            .unwrap()
            .contains("overriding `merge`"),
        "{show:#}"
    );
}

#[test]
fn a_changed_value_supersedes_and_the_new_value_is_the_active_one() {
    let env = store("recommended-semi-auto");
    let old = add(
        &env,
        &[
            "-t",
            "decision",
            "--title",
            "Payment gateway HTTP timeout is 10 seconds",
            "--summary",
            "Calls to the acquirer abort after 10 s and the payment is marked pending.",
            "--path",
            "src/payments/gateway/**",
            "--status",
            "active",
        ],
    );
    let new = env
        .brain_with_env(
            &[("BRAIN_NOW", "2026-12-01T12:00:00Z")],
            [
                "add",
                "-t",
                "decision",
                "--title",
                "The payment gateway HTTP timeout is now 30 seconds",
                "--summary",
                "3DS challenges took 12-20 s and were cut off at 10 s; calls abort after 30 s.",
                "--path",
                "src/payments/gateway/**",
                "--status",
                "candidate",
            ],
        )
        .success()
        .stdout
        .trim()
        .to_owned();
    let (review, _) = env.brain_json("review", &["review"]);
    let item = &review["items"][0];
    assert_eq!(item["outcome"]["decision"], "supersede", "{review:#}");
    assert_eq!(item["safe"], false);
    assert_eq!(
        item["outcome"]["evidence"][0]["changed_value"],
        "timeout: 10 seconds → 30 seconds"
    );
    env.brain(["approve", "--all"]).success();
    let (active, _) = env.brain_json("list", &["list", "--status", "active"]);
    let titles: Vec<&str> = active["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["The payment gateway HTTP timeout is now 30 seconds"]
    );
    let (show, _) = env.brain_json("show", &["show", &old]);
    assert_eq!(show["memory"]["status"], "superseded");
    assert_eq!(show["memory"]["lineage"]["superseded_by"], new.as_str());
}

/// A rule file whose sections say nearly the same for different services.
const SIBLING_RULES: &str = "# Agent rules

## Payments service

- ALWAYS run `make test` before pushing; CI runs the same suite and blocks the merge.

## Billing service

- ALWAYS run `make test` before pushing, CI runs the same suite and blocks merges.

## Notifications service

- ALWAYS run `make test` before pushing: CI runs the same suite and blocks a merge.
";

#[test]
fn the_sections_of_one_import_never_fold_into_each_other() {
    let env = store("recommended-semi-auto");
    std::fs::write(env.root().join("AGENTS.md"), SIBLING_RULES).unwrap();
    env.brain(["import", "AGENTS.md"]).success();
    let candidates = count(&env, "candidate");
    assert!(candidates >= 2, "{candidates} candidates");
    let (review, _) = env.brain_json("review", &["review"]);
    for item in review["items"].as_array().unwrap() {
        assert_eq!(item["outcome"]["decision"], "accept", "{item:#}");
    }
    // Approved in order, twice: nothing merges into or replaces a sibling,
    // and the second run has nothing left to do.
    let (first, _) = env.brain_json("approve", &["approve", "--all"]);
    for a in first["approved"].as_array().unwrap() {
        assert_eq!(a["decision"], "accept", "{first:#}");
    }
    let (second, _) = env.brain_json("approve", &["approve", "--all"]);
    assert_eq!(
        second["approved"].as_array().unwrap().len(),
        0,
        "{second:#}"
    );
    assert_eq!(count(&env, "active"), candidates);
    let (list, _) = env.brain_json("list", &["list"]);
    for m in list["memories"].as_array().unwrap() {
        let (show, _) = env.brain_json("show", &["show", m["id"].as_str().unwrap()]);
        let lineage = &show["memory"]["lineage"];
        let empty = |v: &serde_json::Value| v.is_null() || v.as_array().is_some_and(Vec::is_empty);
        assert!(empty(&lineage["supersedes"]), "{show:#}");
        assert!(empty(&lineage["superseded_by"]), "{show:#}");
    }
    env.brain(["lint"]).success();
}

#[test]
fn a_candidate_superseded_earlier_in_the_run_is_skipped_not_revived() {
    let env = store("recommended-semi-auto");
    let old = add(
        &env,
        &[
            "-t",
            "convention",
            "--title",
            "Use logrus with the JSON formatter for all services",
            "--summary",
            "logrus.WithFields for structured fields; the formatter is set up in internal/log.",
            "--status",
            "candidate",
        ],
    );
    let new = env
        .brain_with_env(
            &[("BRAIN_NOW", "2026-12-01T12:00:00Z")],
            [
                "add",
                "-t",
                "convention",
                "--title",
                "Migrated from logrus to log/slog",
                "--summary",
                "All services log through slog with a JSON handler in internal/log; logrus was removed.",
                "--status",
                "candidate",
            ],
        )
        .success()
        .stdout
        .trim()
        .to_owned();
    assert!(new < old, "the replacement is approved first");
    let (json, _) = env.brain_json("approve", &["approve", "--all"]);
    assert_eq!(json["approved"][0]["decision"], "supersede", "{json:#}");
    assert_eq!(json["approved"][0]["target"], old.as_str());
    assert_eq!(json["skipped"][0]["id"], old.as_str(), "{json:#}");
    let (show, _) = env.brain_json("show", &["show", &old]);
    assert_eq!(show["memory"]["status"], "superseded");
    env.brain(["lint"]).success();
}
