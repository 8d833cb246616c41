//! `brain merge-driver` under a real `git merge`, `brain check` against a
//! base, `brain extract-commit --detach`.

use std::process::Command;

use crate::common::TestEnv;

const MEMORY: &str = ".brain/gotchas/ledger-rows.yaml";

const BASE: &str = "schema_version: 1
id: ledger-rows
type: gotcha
status: active
title: Ledger rows are append-only
summary: Never UPDATE ledger_entries.
importance: high
tags:
- ledger
- sql
provenance:
  source: manual
  captured_at: \"2026-01-01T00:00:00Z\"
";

/// A repository with `.brain/` and the merge driver configured to run the
/// binary under test, with `MEMORY` committed on `main`.
fn repo() -> TestEnv {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    env.brain(["--quiet", "init"]).success();
    let driver = format!(
        "{} merge-driver %O %A %B %L %P",
        env!("CARGO_BIN_EXE_brain")
    );
    env.git(&["config", "merge.brain.driver", &driver]);
    env.git(&["config", "merge.brain.name", "brain field-aware merge"]);
    std::fs::write(
        env.root().join(".gitattributes"),
        ".brain/**/*.yaml merge=brain\n",
    )
    .unwrap();
    write(&env, BASE);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "base"]);
    env
}

fn write(env: &TestEnv, text: &str) {
    std::fs::write(env.root().join(MEMORY), text).unwrap();
}

fn commit_edit(env: &TestEnv, branch: &str, from: &str, to: &str) {
    env.git(&["checkout", "-q", branch]);
    let text = std::fs::read_to_string(env.root().join(MEMORY)).unwrap();
    assert!(text.contains(from), "{from:?} not in\n{text}");
    write(env, &text.replacen(from, to, 1));
    env.git(&["commit", "-q", "-am", &format!("edit on {branch}")]);
}

/// Runs `git merge`; returns whether it succeeded.
fn merge(env: &TestEnv, branch: &str) -> bool {
    Command::new("git")
        .args(["merge", "-q", "--no-edit", branch])
        .current_dir(env.root())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn git_merge_of_edits_to_different_fields_and_tags_is_clean() {
    let env = repo();
    env.git(&["branch", "topic"]);
    commit_edit(
        &env,
        "topic",
        "title: Ledger rows are append-only",
        "title: Ledger rows never change",
    );
    commit_edit(
        &env,
        "topic",
        "- ledger\n- sql\n",
        "- ledger\n- money\n- sql\n",
    );
    commit_edit(&env, "main", "importance: high", "importance: critical");
    commit_edit(
        &env,
        "main",
        "- ledger\n- sql\n",
        "- audit\n- ledger\n- sql\n",
    );
    assert!(merge(&env, "topic"), "the merge should be clean");
    let merged = std::fs::read_to_string(env.root().join(MEMORY)).unwrap();
    insta::assert_snapshot!(merged, @r#"
    schema_version: 1
    id: ledger-rows
    type: gotcha
    status: active
    title: Ledger rows never change
    summary: Never UPDATE ledger_entries.
    importance: critical
    tags:
    - audit
    - ledger
    - money
    - sql
    provenance:
      source: manual
      captured_at: "2026-01-01T00:00:00Z"
    "#);
    assert_eq!(env.git(&["status", "--porcelain"]), "");
    env.brain(["lint"]).success();
}

#[test]
fn git_merge_of_one_field_changed_on_both_sides_is_a_structured_conflict() {
    let env = repo();
    env.git(&["branch", "topic"]);
    commit_edit(
        &env,
        "topic",
        "summary: Never UPDATE ledger_entries.",
        "summary: Post a reversing entry.",
    );
    commit_edit(&env, "topic", "importance: high", "importance: critical");
    commit_edit(
        &env,
        "main",
        "summary: Never UPDATE ledger_entries.",
        "summary: Rows are immutable.",
    );
    assert!(
        !merge(&env, "topic"),
        "the merge should stop on the conflict"
    );
    assert_eq!(
        env.git(&["status", "--porcelain"]),
        format!("UU {MEMORY}\n")
    );
    let merged = std::fs::read_to_string(env.root().join(MEMORY)).unwrap();
    assert!(
        !merged.contains("<<<<<<<") && !merged.contains(">>>>>>>"),
        "{merged}"
    );
    insta::assert_snapshot!(merged, @r#"
    schema_version: 1
    id: ledger-rows
    type: gotcha
    status: active
    title: Ledger rows are append-only
    summary: Rows are immutable.
    importance: critical
    tags:
    - ledger
    - sql
    provenance:
      source: manual
      captured_at: "2026-01-01T00:00:00Z"
    conflicts:
    - field: summary
      base: Never UPDATE ledger_entries.
      ours: Rows are immutable.
      theirs: Post a reversing entry.
    "#);
    insta::assert_snapshot!(env.brain(["lint"]), @"
    .brain/gotchas/ledger-rows.yaml:14: error[merge-conflict]: unresolved merge conflict on `summary`: keep one value, then delete the `conflicts` list
    1 error, 0 warnings in 1 file
    [exit status: 1]
    ");
}

#[test]
fn merge_driver_leaves_ours_alone_when_a_version_is_not_yaml() {
    let env = TestEnv::empty();
    for (name, text) in [
        ("base", BASE),
        ("ours", BASE),
        ("theirs", "id: [unclosed\n"),
    ] {
        std::fs::write(env.root().join(name), text).unwrap();
    }
    insta::assert_snapshot!(env.brain(["merge-driver", "base", "ours", "theirs", "7", MEMORY]), @"
    --- stderr ---
    warning: .brain/gotchas/ledger-rows.yaml: cannot merge field by field (the theirs version is not a YAML mapping: unclosed bracket '['); left as ours
    [exit status: 1]
    ");
    assert_eq!(
        std::fs::read_to_string(env.root().join("ours")).unwrap(),
        BASE
    );
}

/// A repository whose branch `topic` deletes an active memory, moves another
/// back to `candidate`, changes a third one's id and leaves a file not in
/// canonical form; `main` is the base.
fn repo_with_bad_changes() -> TestEnv {
    let env = repo();
    for id in ["backwards", "renamed", "messy"] {
        let text = BASE.replace("id: ledger-rows", &format!("id: {id}"));
        std::fs::write(env.root().join(format!(".brain/gotchas/{id}.yaml")), text).unwrap();
    }
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "more"]);
    env.git(&["checkout", "-q", "-b", "topic"]);
    std::fs::remove_file(env.root().join(MEMORY)).unwrap();
    let gotchas = env.root().join(".brain/gotchas");
    let edit = |name: &str, from: &str, to: &str| {
        let path = gotchas.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit("backwards.yaml", "status: active", "status: candidate");
    edit("renamed.yaml", "id: renamed", "id: renamed-again");
    edit("messy.yaml", "- ledger\n- sql\n", "- sql\n- ledger\n");
    env
}

#[test]
fn check_reports_transitions_against_the_base_in_every_format() {
    let env = repo_with_bad_changes();
    insta::assert_snapshot!(env.brain(["check", "--base", "main"]), @r"
    .brain/gotchas/backwards.yaml:4: error[lint/transition]: status changed from `active` to `candidate` since the base, which is not allowed (from `active` a record may become: superseded, stale, done)
    .brain/gotchas/renamed.yaml:2: error[lint/location]: id `renamed-again` does not match the file name `renamed.yaml`
    .brain/gotchas/messy.yaml:9: error[normalize/not-canonical]: file is not in canonical form; run `brain normalize`
    .brain/gotchas/ledger-rows.yaml: error[transitions/deleted-active]: active memory `ledger-rows` was deleted; supersede it (`brain supersede NEW ledger-rows`) or mark it stale or done instead, so agents and history know why
    .brain/gotchas/renamed.yaml:2: error[transitions/id-changed]: id changed from `renamed` to `renamed-again` since the base; ids are permanent (add a new memory and supersede the old one)
    5 errors, 0 warnings in 3 files (lint, normalize, transitions, export; base main)
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.brain(["--format", "github", "check", "--base", "main"]), @r"
    ::error file=.brain/gotchas/backwards.yaml,line=4,title=brain lint/transition::status changed from `active` to `candidate` since the base, which is not allowed (from `active` a record may become: superseded, stale, done)
    ::error file=.brain/gotchas/renamed.yaml,line=2,title=brain lint/location::id `renamed-again` does not match the file name `renamed.yaml`
    ::error file=.brain/gotchas/messy.yaml,line=9,title=brain normalize/not-canonical::file is not in canonical form; run `brain normalize`
    ::error file=.brain/gotchas/ledger-rows.yaml,title=brain transitions/deleted-active::active memory `ledger-rows` was deleted; supersede it (`brain supersede NEW ledger-rows`) or mark it stale or done instead, so agents and history know why
    ::error file=.brain/gotchas/renamed.yaml,line=2,title=brain transitions/id-changed::id changed from `renamed` to `renamed-again` since the base; ids are permanent (add a new memory and supersede the old one)
    [exit status: 1]
    ");
    let (json, out) = env.brain_json("check", &["check", "--base", "main"]);
    assert_eq!(out.status, 1);
    assert_eq!(json["base"], "main");
    assert_eq!(
        json["checks"],
        serde_json::json!(["lint", "normalize", "transitions", "export"])
    );
    // The same state is clean once committed and checked against itself.
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "topic"]);
    env.brain(["--quiet", "normalize"]).success();
    let out = env.brain(["check", "--base", "HEAD"]);
    assert_eq!(out.status, 1, "{out}"); // the id still differs from the file name
    assert!(out.stdout.contains("error[lint/location]"), "{out}");
}

#[test]
fn check_reports_exported_rule_files_that_drifted_from_the_store() {
    let env = repo();
    // Nothing exported: no format is checked.
    env.brain(["check"]).success();
    env.brain(["--quiet", "export", "--to", "cursor"]).success();
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "export"]);
    env.brain(["check"]).success();
    // A memory edited without exporting again: the generated file drifts.
    let text = std::fs::read_to_string(env.root().join(MEMORY)).unwrap();
    write(
        &env,
        &text.replacen("title: ", "title: Never edit posted ledger rows; ", 1),
    );
    let out = env.brain(["check"]);
    assert_eq!(out.status, 1, "{out}");
    assert!(
        out.stdout.contains("error[export/export-drift]")
            && out.stdout.contains("brain export --to cursor"),
        "{out}"
    );
    env.brain(["--quiet", "export", "--to", "cursor"]).success();
    env.brain(["check"]).success();
}

#[test]
fn check_sarif_output_is_valid_sarif_2_1_0() {
    let env = repo_with_bad_changes();
    let out = env.brain(["--format", "sarif", "check", "--base", "main"]);
    assert_eq!(out.status, 1, "{out}");
    let log: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let schema_path =
        crate::common::workspace().join("tests/fixtures/sarif/sarif-schema-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{}", out.stdout);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() >= 4, "{}", out.stdout);
    // The schema is not a pushover: a result without a message is refused.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&broken));
}

#[test]
fn check_only_formats_are_refused_elsewhere_and_a_bad_base_is_a_user_error() {
    let env = repo();
    let out = env.brain(["--format", "sarif", "lint"]);
    assert_eq!(out.status, 2, "{out}");
    let out = env.brain(["check", "--base", "no-such-branch"]);
    assert_eq!(out.status, 2, "{out}");
    env.brain(["check"]).success();
}

#[test]
fn extract_commit_detach_returns_at_once_and_writes_candidates_only() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    // `direct` capture would write a novel, safe memory as active.
    env.brain(["--quiet", "init", "--workflow", "ultra-safe-manual"])
        .success();
    std::fs::write(
        env.root().join("pricing.rs"),
        "pub fn price() -> i64 { 100 }\n",
    )
    .unwrap();
    env.git(&["add", "-A"]);
    env.git(&[
        "commit",
        "-q",
        "-m",
        "Round toll prices half-even\n\nWe decided to round toll prices half-even in pricing.rs because half-up overcharged frequent drivers by a cent a week.",
    ]);
    let started = std::time::Instant::now();
    let out = env.brain(["extract-commit", "--detach"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    insta::assert_snapshot!(out, @"[exit status: 0]");
    let listed = |status: &str| {
        let (json, _) = env.brain_json("list", &["list", "--status", status]);
        json["memories"].as_array().unwrap().len()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while listed("candidate") == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "no candidate was written"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(listed("candidate"), 1);
    assert_eq!(listed("active"), 0);
    // Outside a repository it still returns 0 and says nothing.
    insta::assert_snapshot!(TestEnv::empty().brain(["extract-commit", "--detach"]), @"[exit status: 0]");
}
