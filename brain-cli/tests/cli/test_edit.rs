//! `brain edit`: fields set directly or in an editor, checked like every
//! write; an invalid edit, a failing editor or an unchanged file changes
//! nothing.

use std::path::PathBuf;

use crate::common::TestEnv;

/// A store with one candidate decision; returns it and the candidate's id.
fn store_with_candidate() -> (TestEnv, String) {
    let env = TestEnv::empty();
    env.brain(["init", "--workflow", "recommended-semi-auto"])
        .success();
    let id = env
        .brain([
            "add",
            "--type",
            "decision",
            "--title",
            "Payment gateway timeout is 10 seconds",
            "--summary",
            "Calls to the acquirer abort after 10 s.",
            "--path",
            "src/payments/**",
            "--status",
            "candidate",
        ])
        .success()
        .stdout
        .trim()
        .to_owned();
    (env, id)
}

/// Writes an executable editor script that runs `body` on the file (`$1`).
fn editor(env: &TestEnv, name: &str, body: &str) -> String {
    let path = env.root().join(format!(".home/{name}"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.display().to_string()
}

fn file(env: &TestEnv, kind: &str, id: &str) -> PathBuf {
    env.root().join(format!(".brain/{kind}/{id}.yaml"))
}

#[test]
fn set_changes_fields_without_an_editor() {
    let (env, id) = store_with_candidate();
    let out = env
        .brain([
            "edit",
            &id,
            "--set",
            "title=Payment gateway timeout is 30 seconds",
            "--set",
            "tags=payments, timeouts",
            "--set",
            "importance=high",
        ])
        .success();
    insta::assert_snapshot!(out, @"
    edited payment-gateway-timeout-is-10-seconds-ea5f1f07 (.brain/decisions/payment-gateway-timeout-is-10-seconds-ea5f1f07.yaml): title, importance, tags
    [exit status: 0]
    ");
    let text = std::fs::read_to_string(file(&env, "decisions", &id)).unwrap();
    assert!(
        text.contains("title: Payment gateway timeout is 30 seconds"),
        "{text}"
    );
    assert!(text.contains("- timeouts"), "{text}");
    env.brain(["lint"]).success();
}

#[test]
fn edit_reports_as_one_json_document() {
    let (env, id) = store_with_candidate();
    let (json, out) = env.brain_json("edit", &["edit", &id, "--set", "paths="]);
    insta::assert_snapshot!(out, @r#"
    {
      "id": "payment-gateway-timeout-is-10-seconds-ea5f1f07",
      "path": ".brain/decisions/payment-gateway-timeout-is-10-seconds-ea5f1f07.yaml",
      "moved_from": null,
      "changed": true,
      "fields": [
        "scope"
      ],
      "redactions": []
    }
    [exit status: 0]
    "#);
    assert_eq!(json["changed"], true);
}

#[test]
fn the_editor_opens_the_yaml_and_what_it_saves_is_written() {
    let (env, id) = store_with_candidate();
    let ed = editor(
        &env,
        "editor.sh",
        "sed -i 's/^summary: .*/summary: Calls to the acquirer abort after 30 s./' \"$1\"",
    );
    let out = env
        .brain_with_env(&[("EDITOR", ed.as_str())], ["edit", &id])
        .success();
    insta::assert_snapshot!(out, @"
    edited payment-gateway-timeout-is-10-seconds-ea5f1f07 (.brain/decisions/payment-gateway-timeout-is-10-seconds-ea5f1f07.yaml): summary
    [exit status: 0]
    ");
    let text = std::fs::read_to_string(file(&env, "decisions", &id)).unwrap();
    assert!(text.contains("abort after 30 s."), "{text}");
    // `VISUAL` wins over `EDITOR`, and the draft under runtime/ is removed.
    let visual = editor(
        &env,
        "visual.sh",
        "sed -i 's/^title: .*/title: Set by VISUAL/' \"$1\"",
    );
    env.brain_with_env(
        &[("EDITOR", ed.as_str()), ("VISUAL", visual.as_str())],
        ["edit", &id],
    )
    .success();
    let text = std::fs::read_to_string(file(&env, "decisions", &id)).unwrap();
    assert!(text.contains("title: Set by VISUAL"), "{text}");
    let drafts: Vec<_> = std::fs::read_dir(env.root().join(".brain/runtime"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("EDIT-"))
        .collect();
    assert!(drafts.is_empty(), "{drafts:?}");
}

#[test]
fn an_invalid_edit_writes_nothing_and_says_which_field_is_wrong() {
    let (env, id) = store_with_candidate();
    let path = file(&env, "decisions", &id);
    let before = std::fs::read_to_string(&path).unwrap();
    insta::assert_snapshot!(env.brain(["edit", &id, "--set", "type=decisoin"]), @"
    --- stderr ---
    error: invalid edit of `payment-gateway-timeout-is-10-seconds-ea5f1f07`, field `type`: unknown variant `decisoin`, expected one of `decision`, `gotcha`, `convention`, `pattern`, `goal`, `working`
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["edit", &id, "--set", "colour=red"]), @"
    --- stderr ---
    error: invalid edit of `payment-gateway-timeout-is-10-seconds-ea5f1f07`, field `colour`: `--set` takes `title`, `summary`, `detail`, `notes`, `type`, `importance`, `risk`, `confidence`, `tags`, `paths`, `modules`
    [exit status: 2]
    ");
    let empty = editor(
        &env,
        "empty.sh",
        "sed -i 's/^summary: .*/summary: \"\"/' \"$1\"",
    );
    insta::assert_snapshot!(env.brain_with_env(&[("EDITOR", empty.as_str())], ["edit", &id]), @"
    --- stderr ---
    error: invalid edit of `payment-gateway-timeout-is-10-seconds-ea5f1f07`, field `summary`, line 6: summary is empty
    [exit status: 2]
    ");
    let broken = editor(
        &env,
        "broken.sh",
        "sed -i 's/^importance: .*/importance: [/; s/^title: .*/title: [unclosed/' \"$1\"",
    );
    let out = env.brain_with_env(&[("EDITOR", broken.as_str())], ["edit", &id]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("field `title`, line 5"), "{out}");
    let status = editor(
        &env,
        "status.sh",
        "sed -i 's/^status: .*/status: active/' \"$1\"",
    );
    let out = env.brain_with_env(&[("EDITOR", status.as_str())], ["edit", &id]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("field `status`, line 4"), "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn a_failing_editor_or_an_unchanged_file_changes_nothing() {
    let (env, id) = store_with_candidate();
    let path = file(&env, "decisions", &id);
    let before = std::fs::read_to_string(&path).unwrap();
    let fails = editor(
        &env,
        "fails.sh",
        "sed -i 's/^title: .*/title: Half done/' \"$1\"; exit 1",
    );
    insta::assert_snapshot!(env.brain_with_env(&[("EDITOR", fails.as_str())], ["edit", &id]), @"
    --- stderr ---
    error: the editor `.home/fails.sh` exited with exit status: 1; nothing was changed
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain_with_env(&[("EDITOR", "true")], ["edit", &id]), @"
    unchanged payment-gateway-timeout-is-10-seconds-ea5f1f07 (.brain/decisions/payment-gateway-timeout-is-10-seconds-ea5f1f07.yaml)
    [exit status: 0]
    ");
    insta::assert_snapshot!(env.brain(["edit", &id]), @"
    --- stderr ---
    error: no editor: set `VISUAL` or `EDITOR`, or give the fields with `--set FIELD=VALUE`
    [exit status: 2]
    ");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn a_new_type_moves_the_file_and_secrets_are_redacted() {
    let (env, id) = store_with_candidate();
    let out = env
        .brain([
            "edit",
            &id,
            "--set",
            "type=gotcha",
            "--set",
            "detail=Staging uses STRIPE_SECRET_KEY=sk_live_51HfQ2kLmN8pQrStUvWxYz0123 for now.",
        ])
        .success();
    insta::assert_snapshot!(out, @"
    edited payment-gateway-timeout-is-10-seconds-ea5f1f07 (.brain/gotchas/payment-gateway-timeout-is-10-seconds-ea5f1f07.yaml): type, detail
    moved from .brain/decisions/payment-gateway-timeout-is-10-seconds-ea5f1f07.yaml
    --- stderr ---
    warning: redacted stripe_key in detail of payment-gateway-timeout-is-10-seconds-ea5f1f07
    [exit status: 0]
    ");
    assert!(!file(&env, "decisions", &id).exists());
    let text = std::fs::read_to_string(file(&env, "gotchas", &id)).unwrap();
    assert!(
        text.contains("type: gotcha") && !text.contains("sk_live"),
        "{text}"
    );
    env.brain(["lint"]).success();
}
