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
