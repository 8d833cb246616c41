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
