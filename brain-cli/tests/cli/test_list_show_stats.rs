//! `brain list`, `brain show` and `brain stats` on the example store.

use crate::common::TestEnv;

#[test]
fn list_text_and_json() {
    let env = TestEnv::example();
    insta::assert_snapshot!("list_text", env.brain(["list"]).success());
    let (json, _) = env.brain_json("list", &["list"]);
    insta::assert_json_snapshot!("list_json", json);
}

#[test]
fn list_filters_combine() {
    let env = TestEnv::example();
    insta::assert_snapshot!(
        env.brain([
            "list", "--type", "gotcha", "--status", "active", "--tag", "postgres"
        ])
        .success()
    );
    let (json, _) = env.brain_json(
        "list",
        &["list", "-t", "goal", "-t", "working", "-s", "done"],
    );
    let ids: Vec<&str> = json["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert!(
        json["memories"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["status"] == "done")
    );
}

#[test]
fn show_by_exact_id_and_prefix() {
    let env = TestEnv::example();
    let exact = env.brain([
        "show",
        "ledger-entries-are-append-only-never-update-ledg-3743c674",
    ]);
    insta::assert_snapshot!("show_text", exact.success());
    let (json, _) = env.brain_json("show", &["show", "ledger-entries"]);
    insta::assert_json_snapshot!("show_json", json);
}

#[test]
fn show_reports_unknown_and_ambiguous_ids() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["show", "nope"]), @r"
    --- stderr ---
    error: no memory has the id or id prefix `nope`
    hint: `brain list` shows every id
    [exit status: 2]
    ");
    let typo = env.brain(["show", "use-integer-cents-for-all-mony"]);
    assert_eq!(typo.status, 2);
    assert!(
        typo.stderr
            .contains("hint: did you mean `use-integer-cents-for-all-money-amounts-"),
        "{typo}"
    );
    insta::assert_snapshot!(env.brain(["show", "generate-invoices"]), @"
    --- stderr ---
    error: `generate-invoices` is ambiguous: it matches 2 ids (generate-invoices-from-ledger-snapshots-at-perio-f8a9b2df, generate-invoices-with-a-nightly-cron-batch-7eb78f3e)
    hint: give more characters of the id
    [exit status: 2]
    ");
    let (json, _) = env.brain_json("error", &["show", "generate-invoices"]);
    insta::assert_json_snapshot!(json, @r#"
    {
      "error": {
        "message": "`generate-invoices` is ambiguous: it matches 2 ids (generate-invoices-from-ledger-snapshots-at-perio-f8a9b2df, generate-invoices-with-a-nightly-cron-batch-7eb78f3e)",
        "causes": [],
        "hints": [
          "give more characters of the id"
        ],
        "exit_code": 2
      }
    }
    "#);
}

#[test]
fn stats_text_and_json() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["stats"]).success(), @"
    memories: 33
      by type:     decision 8, gotcha 9, convention 6, pattern 4, goal 3, working 3
      by status:   candidate 3, active 25, superseded 1, stale 1, dismissed 1, done 2
      importance:  low 1, medium 14, high 14, critical 4
    preferences: 6
      by policy:   prefer 3, avoid 1, require_review 2
      by status:   candidate 1, active 5
    invalid files: 0
    [exit status: 0]
    ");
    let (json, _) = env.brain_json("stats", &["stats"]);
    insta::assert_json_snapshot!(json, @r#"
    {
      "memories": 33,
      "by_type": {
        "decision": 8,
        "gotcha": 9,
        "convention": 6,
        "pattern": 4,
        "goal": 3,
        "working": 3
      },
      "by_status": {
        "candidate": 3,
        "active": 25,
        "superseded": 1,
        "stale": 1,
        "dismissed": 1,
        "done": 2
      },
      "by_importance": {
        "low": 1,
        "medium": 14,
        "high": 14,
        "critical": 4
      },
      "preferences": 6,
      "preferences_by_kind": {
        "prefer": 3,
        "avoid": 1,
        "require_review": 2
      },
      "preferences_by_status": {
        "candidate": 1,
        "active": 5
      },
      "invalid_files": 0
    }
    "#);
}
