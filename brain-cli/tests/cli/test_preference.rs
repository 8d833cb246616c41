//! `brain preference …`: add, list, show, approve, dismiss, supersede and
//! capture, with no duplicate files, conflicts refused, and only the intended
//! files changed.

use std::fmt::Write as _;
use std::io::Write;
use std::process::Stdio;

use crate::common::{CliOutput, TestEnv};

const CANDIDATE: &str = "prefer-playwright-e2e-109afbaf";
const AVOID: &str = "avoid-legacy-router-fa32f161";

/// The example store, committed, so that `git status` shows what a command
/// changed.
fn repo() -> TestEnv {
    let env = TestEnv::example();
    env.git(&["init", "-q", "-b", "main"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "brain store"]);
    env
}

fn status(env: &TestEnv) -> String {
    env.git(&["status", "--porcelain", "--untracked-files=all"])
}

fn preference_files(env: &TestEnv) -> usize {
    std::fs::read_dir(env.root().join(".brain/preferences"))
        .unwrap()
        .count()
}

fn read(env: &TestEnv, rel: &str) -> String {
    std::fs::read_to_string(env.root().join(rel)).unwrap()
}

fn assert_lint_clean(env: &TestEnv) {
    let lint = env.brain(["lint"]);
    assert_eq!(lint.status, 0, "{lint}");
    assert!(lint.stdout.starts_with("0 errors, 0 warnings"), "{lint}");
    env.brain(["normalize", "--check"]).success();
}

#[test]
fn add_writes_one_candidate_file_and_nothing_else() {
    let env = repo();
    insta::assert_snapshot!(env.brain([
        "preference", "add", "--target", "Cypress", "--target-type", "skill", "--avoid",
        "--task-hint", "UI tests", "--path-hint", "./web/src/", "--reason", "Flaky on CI; use playwright-e2e.",
        "--confidence", "0.7",
    ]), @"
    avoid-cypress-4286e13e
    --- stderr ---
    added avoid cypress (skill) .brain/preferences/avoid-cypress-4286e13e.yaml as candidate
    [exit status: 0]
    ");
    insta::assert_snapshot!(status(&env), @"?? .brain/preferences/avoid-cypress-4286e13e.yaml");
    insta::assert_snapshot!(read(&env, ".brain/preferences/avoid-cypress-4286e13e.yaml"), @r#"
    schema_version: 1
    id: avoid-cypress-4286e13e
    status: candidate
    target_type: skill
    target: cypress
    preference: avoid
    confidence: 0.7
    reason: Flaky on CI; use playwright-e2e.
    task_hints:
    - UI tests
    path_hints:
    - web/src
    provenance:
      source: manual
      captured_at: "2026-11-20T12:00:00Z"
      proposed_by: Dana Okafor <dana@tollbooth.example>
    review:
      state: pending
    "#);
    assert_lint_clean(&env);
}

#[test]
fn add_the_same_preference_twice_writes_one_file() {
    let env = repo();
    let args = [
        "preference",
        "add",
        "--target",
        "lint-fix",
        "--target-type",
        "skill",
        "--prefer",
        "--path-hint",
        "src/**/*.ts",
    ];
    env.brain(args).success();
    let before = preference_files(&env);
    // Another spelling of the same name, hints and kind: already present.
    insta::assert_snapshot!(env.brain([
        "preference", "add", "--target", "Lint_Fix", "--target-type", "skill", "--prefer",
        "--path-hint", "./src/**/*.ts",
    ]), @"
    already present: prefer-lint-fix-226adca8 (candidate); nothing written
    [exit status: 0]
    ");
    let (json, out) = env.brain_json("preference-add", &args);
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["outcome"], "already_present");
    assert_eq!(preference_files(&env), before, "no duplicate file");
    // An existing preference of the example store is recognised too.
    insta::assert_snapshot!(env.brain([
        "preference", "add", "--target", "legacy-router", "--target-type", "skill", "--avoid",
        "--path-hint", "src/api/**", "--status", "active",
    ]), @"
    already present: avoid-legacy-router-fa32f161 (active); nothing written
    [exit status: 0]
    ");
    assert_eq!(preference_files(&env), before);
    insta::assert_snapshot!(status(&env), @"?? .brain/preferences/prefer-lint-fix-226adca8.yaml");
}

#[test]
fn a_contradicting_preference_is_refused_until_it_supersedes_the_old_one() {
    let env = repo();
    let add = |status: &str| {
        env.brain([
            "preference",
            "add",
            "--target",
            "legacy-router",
            "--target-type",
            "skill",
            "--prefer",
            "--path-hint",
            "src/api/**",
            "--status",
            status,
        ])
    };
    insta::assert_snapshot!(add("active"), @"
    --- stderr ---
    error: `prefer legacy-router` conflicts with active preference `avoid-legacy-router-fa32f161` (avoid): same target and hints, another policy
    hint: add it with `--status candidate`, then replace the old one with `brain preference supersede NEW avoid-legacy-router-fa32f161`
    [exit status: 2]
    ");
    assert_eq!(status(&env), "", "nothing written");
    insta::assert_snapshot!(add("candidate"), @"
    prefer-legacy-router-d4c531aa
    --- stderr ---
    warning: prefer-legacy-router-d4c531aa conflicts with active preference avoid-legacy-router-fa32f161; approving it needs `brain preference supersede prefer-legacy-router-d4c531aa avoid-legacy-router-fa32f161`
    added prefer legacy-router (skill) .brain/preferences/prefer-legacy-router-d4c531aa.yaml as candidate
    [exit status: 0]
    ");
    let new = "prefer-legacy-router-d4c531aa";
    insta::assert_snapshot!(env.brain(["preference", "approve", new]), @"
    --- stderr ---
    error: `prefer legacy-router` conflicts with active preference `avoid-legacy-router-fa32f161` (avoid): same target and hints, another policy
    hint: to replace it, run `brain preference supersede prefer-legacy-router-d4c531aa avoid-legacy-router-fa32f161`; or dismiss this one
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["preference", "supersede", new, AVOID]), @"
    avoid-legacy-router-fa32f161 is superseded by prefer-legacy-router-d4c531aa (now version 2)
    prefer-legacy-router-d4c531aa approved (candidate → active)
    [exit status: 0]
    ");
    let old = read(&env, &format!(".brain/preferences/{AVOID}.yaml"));
    assert!(old.contains("status: superseded\n"), "{old}");
    assert!(old.contains(&format!("  superseded_by: {new}\n")), "{old}");
    let replacement = read(&env, &format!(".brain/preferences/{new}.yaml"));
    assert!(replacement.contains("status: active\n"), "{replacement}");
    assert!(
        replacement.contains(&format!("  supersedes:\n  - {AVOID}\n")),
        "{replacement}"
    );
    assert!(replacement.contains("  state: approved\n"), "{replacement}");
    insta::assert_snapshot!(status(&env), @"
     M .brain/preferences/avoid-legacy-router-fa32f161.yaml
    ?? .brain/preferences/prefer-legacy-router-d4c531aa.yaml
    ");
    assert_lint_clean(&env);
}

#[test]
fn list_marks_candidates_and_filters() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["preference", "list"]), @"
      require-review-auth-change-27780cf5       active      require_review  task_class  auth-change             tasks: api keys, authentication, tenant isolation; paths: src/api/middleware/**, src/auth/**
      prefer-ledger-invariant-check-74b0a056    active      prefer          skill       ledger-invariant-check  tasks: credits, invoices, ledger, refunds; paths: src/billing/**, src/ledger/**
      avoid-legacy-router-fa32f161              active      avoid           skill       legacy-router           paths: src/api/**
    ? prefer-playwright-e2e-109afbaf            candidate   prefer          skill       playwright-e2e          tasks: api, handlers; paths: src/api/**, test/e2e/**
      prefer-red-green-refactor-c292991e        active      prefer          workflow    red-green-refactor      tasks: bugfix, invoices, metering
      require-review-schema-migration-6100e86b  active      require_review  task_class  schema-migration        paths: migrations/*.sql
    --- stderr ---
    6 of 6 preferences (1 candidate, marked `?`: not in force until approved)
    [exit status: 0]
    ");
    insta::assert_snapshot!(env.brain(["preference", "list", "--status", "candidate"]), @"
    ? prefer-playwright-e2e-109afbaf  candidate   prefer          skill       playwright-e2e  tasks: api, handlers; paths: src/api/**, test/e2e/**
    --- stderr ---
    1 of 6 preferences (1 candidate, marked `?`: not in force until approved)
    [exit status: 0]
    ");
    insta::assert_snapshot!(env.brain(["preference", "list", "--target", "Legacy Router"]), @"
      avoid-legacy-router-fa32f161  active      avoid           skill       legacy-router  paths: src/api/**
    --- stderr ---
    1 of 6 preferences
    [exit status: 0]
    ");
    let (json, out) = env.brain_json("preference-list", &["preference", "list"]);
    assert_eq!(out.status, 0, "{out}");
    let entries = json["preferences"].as_array().unwrap();
    assert_eq!(entries.len(), 6);
    let candidate = entries.iter().find(|e| e["id"] == CANDIDATE).unwrap();
    assert_eq!(candidate["in_force"], false);
    assert_eq!(candidate["status"], "candidate");
}

#[test]
fn show_by_prefix_in_text_and_json() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["preference", "show", "prefer-play"]), @r#"
    # .brain/preferences/prefer-playwright-e2e-109afbaf.yaml
    # not in force: candidate, until approved with `brain preference approve prefer-playwright-e2e-109afbaf`
    schema_version: 1
    id: prefer-playwright-e2e-109afbaf
    status: candidate
    target_type: skill
    target: playwright-e2e
    preference: prefer
    confidence: 0.6
    reason: Sessions touching request handlers kept missing header and status-code regressions that only the e2e suite covers.
    task_hints:
    - api
    - handlers
    path_hints:
    - src/api/**
    - test/e2e/**
    provenance:
      source: session
      captured_at: "2026-11-10T16:55:00Z"
      proposed_by: agent:claude-code
      evidence:
      - kind: session
        value: sess-20261110-3c9f
    review:
      state: pending
    [exit status: 0]
    "#);
    let (json, out) = env.brain_json("preference-show", &["preference", "show", "avoid-legacy"]);
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["in_force"], true);
    assert_eq!(json["preference"]["id"], AVOID);
    assert_eq!(json["path"], format!(".brain/preferences/{AVOID}.yaml"));
}

#[test]
fn approve_and_dismiss_follow_the_transition_table() {
    let env = repo();
    insta::assert_snapshot!(env.brain(["preference", "approve", "prefer-play"]), @"
    approved prefer-playwright-e2e-109afbaf (candidate → active)
    [exit status: 0]
    ");
    let text = read(&env, &format!(".brain/preferences/{CANDIDATE}.yaml"));
    insta::assert_snapshot!(text.split("review:").nth(1).unwrap(), @r#"

    state: approved
    decided_at: "2026-11-20T12:00:00Z"
    decided_by: Dana Okafor <dana@tollbooth.example>
    "#);
    insta::assert_snapshot!(env.brain(["preference", "approve", CANDIDATE]), @"
    --- stderr ---
    error: cannot approve preference `prefer-playwright-e2e-109afbaf`: it is `active` and already approved; only candidates and preferences pending review are approved
    [exit status: 2]
    ");
    env.brain([
        "preference",
        "add",
        "--target",
        "db-reset",
        "--target-type",
        "skill",
        "--require-review",
    ])
    .success();
    let (json, out) = env.brain_json(
        "preference-dismiss",
        &[
            "preference",
            "dismiss",
            "require-review-db",
            "--reason",
            "db-reset only runs in CI",
        ],
    );
    assert_eq!(out.status, 0, "{out}");
    insta::assert_json_snapshot!(json, @r#"
    {
      "dismissed": {
        "id": "require-review-db-reset-37eb80f7",
        "path": ".brain/preferences/require-review-db-reset-37eb80f7.yaml",
        "from": "candidate",
        "to": "dismissed",
        "version": 1
      },
      "reason": "db-reset only runs in CI"
    }
    "#);
    insta::assert_snapshot!(env.brain(["preference", "dismiss", AVOID]), @"
    --- stderr ---
    error: cannot dismiss preference `avoid-legacy-router-fa32f161`: it is `active`; only candidates can be dismissed
    [exit status: 2]
    ");
    // A dismissed preference is not proposed again.
    insta::assert_snapshot!(env.brain([
        "preference", "add", "--target", "db-reset", "--target-type", "skill", "--require-review",
    ]), @"
    dismissed before: require-review-db-reset-37eb80f7 (db-reset only runs in CI); nothing written
    [exit status: 0]
    ");
    insta::assert_snapshot!(status(&env), @"
     M .brain/preferences/prefer-playwright-e2e-109afbaf.yaml
    ?? .brain/preferences/require-review-db-reset-37eb80f7.yaml
    ");
    assert_lint_clean(&env);
}

#[test]
fn capture_understands_several_phrasings_and_writes_candidates_once() {
    let env = repo();
    let text = "Avoid the legacy-router skill for payments work. \
        Prefer playwright-e2e over cypress for UI tests.\n\
        Always ask a human before running db-reset; the build was slow today.\n\
        - Require review for the data-backfill workflow\n\
        - Don't use full-test-suite for docs-only changes\n\
        - Use the `lint-fix` skill first when touching src/**/*.ts";
    insta::assert_snapshot!(env.brain(["preference", "capture", text]), @"
    captured candidate: avoid legacy-router (skill) avoid-legacy-router-36528a06
        applies: tasks: payments
        line 1: Avoid the legacy-router skill for payments work.
    captured candidate: prefer playwright-e2e (skill, as stored before) prefer-playwright-e2e-0c14b6dd
        applies: tasks: ui tests
        line 1: Prefer playwright-e2e over cypress for UI tests.
        over cypress: kept in the reason; no avoid preference is written for it
    captured candidate: require_review db-reset (skill, by default) require-review-db-reset-37eb80f7
        applies: everywhere
        line 2: Always ask a human before running db-reset
    captured candidate: require_review data-backfill (workflow) require-review-data-backfill-462a145a
        applies: everywhere
        line 3: Require review for the data-backfill workflow
    captured candidate: avoid full-test-suite (skill, by default) avoid-full-test-suite-7824301f
        applies: tasks: docs-only changes
        line 4: Don't use full-test-suite for docs-only changes
    captured candidate: prefer lint-fix (skill) prefer-lint-fix-226adca8
        applies: paths: src/**/*.ts
        line 5: Use the `lint-fix` skill first when touching src/**/*.ts
    ignored line 2: the build was slow today. (no prefer, avoid or require-review wording)
    6 preferences captured, 0 already present, 0 dismissed before, 1 sentence ignored
    [exit status: 0]
    ");
    insta::assert_snapshot!(status(&env), @"
    ?? .brain/preferences/avoid-full-test-suite-7824301f.yaml
    ?? .brain/preferences/avoid-legacy-router-36528a06.yaml
    ?? .brain/preferences/prefer-lint-fix-226adca8.yaml
    ?? .brain/preferences/prefer-playwright-e2e-0c14b6dd.yaml
    ?? .brain/preferences/require-review-data-backfill-462a145a.yaml
    ?? .brain/preferences/require-review-db-reset-37eb80f7.yaml
    ");
    let written = preference_files(&env);
    // The same feedback sent again writes nothing.
    let (json, out) = env.brain_json("preference-capture", &["preference", "capture", text]);
    assert_eq!(out.status, 0, "{out}");
    let outcomes: Vec<&str> = json["captured"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["already_present"; 6]);
    assert_eq!(preference_files(&env), written);
    insta::assert_snapshot!(
        read(&env, ".brain/preferences/require-review-data-backfill-462a145a.yaml"),
        @r#"
    schema_version: 1
    id: require-review-data-backfill-462a145a
    status: candidate
    target_type: workflow
    target: data-backfill
    preference: require_review
    reason: Require review for the data-backfill workflow
    provenance:
      source: feedback
      captured_at: "2026-11-20T12:00:00Z"
      proposed_by: Dana Okafor <dana@tollbooth.example>
    review:
      state: pending
    "#
    );
    assert_lint_clean(&env);
}

#[test]
fn capture_reads_stdin_and_refuses_text_without_a_preference() {
    let env = repo();
    insta::assert_snapshot!(env.brain(["preference", "capture", "Thanks, the tests pass now. Should we use cypress?"]), @r#"
    ignored line 1: Thanks, the tests pass now. (no prefer, avoid or require-review wording)
    ignored line 1: Should we use cypress? (a question, not a preference)
    no preference found: say prefer, avoid or require review and name the skill, workflow or task class ("avoid the legacy-router skill for payments work")
    [exit status: 1]
    "#);
    let (json, out) = env.brain_json(
        "preference-capture",
        &["preference", "capture", "The build was slow."],
    );
    assert_eq!(out.status, 1, "{out}");
    assert_eq!(json["captured"].as_array().unwrap().len(), 0);
    assert_eq!(status(&env), "", "nothing written");

    let mut child = env
        .command(["preference", "capture", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"never run db-reset without asking a human first\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let out = CliOutput {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        status: output.status.code().unwrap(),
    };
    insta::assert_snapshot!(out, @"
    captured candidate: require_review db-reset (skill, by default) require-review-db-reset-37eb80f7
        applies: everywhere
        line 1: never run db-reset without asking a human first
    1 preference captured, 0 already present, 0 dismissed before, 0 sentences ignored
    [exit status: 0]
    ");
}

#[test]
fn capture_sends_secrets_through_the_firewall() {
    let env = repo();
    let token = "ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1234";
    let out = env.brain([
        "preference",
        "capture",
        &format!("avoid the deploy-prod workflow for hotfixes, it pushes with {token}"),
    ]);
    insta::assert_snapshot!(out, @"
    captured candidate: avoid deploy-prod (workflow) avoid-deploy-prod-9ec3deea
        applies: tasks: hotfixes
        line 1: avoid the deploy-prod workflow for hotfixes, it pushes with [REDACTED:github_token]
    1 preference captured, 0 already present, 0 dismissed before, 0 sentences ignored
    --- stderr ---
    warning: redacted github_token in reason of avoid-deploy-prod-9ec3deea
    [exit status: 0]
    ");
    let status = status(&env);
    let file = status.trim().strip_prefix("?? ").unwrap();
    let text = read(&env, file);
    assert!(!text.contains(token), "{text}");
    assert!(text.contains("[REDACTED:github_token]"), "{text}");
}

#[test]
fn bad_input_is_refused_with_nothing_written() {
    let env = repo();
    let cases: &[(&[&str], &str)] = &[
        (&["preference", "show", "no-such-pref"], "no-such-pref"),
        (&["preference", "approve", "avoid-legacy-rooter"], "rooter"),
        (
            &[
                "preference",
                "add",
                "--target",
                "x",
                "--target-type",
                "skill",
                "--prefer",
                "--confidence",
                "1.5",
            ],
            "confidence",
        ),
        (
            &[
                "preference",
                "add",
                "--target",
                "x",
                "--target-type",
                "skill",
            ],
            "kind",
        ),
        (
            &[
                "preference",
                "add",
                "--target",
                "x",
                "--target-type",
                "plugin",
                "--avoid",
            ],
            "type",
        ),
        (
            &[
                "preference",
                "add",
                "--target",
                "x",
                "--target-type",
                "skill",
                "--avoid",
                "--status",
                "stale",
            ],
            "status",
        ),
        (&["preference", "dismiss", AVOID], "dismiss"),
        (&["preference", "supersede", AVOID, AVOID], "itself"),
    ];
    let mut all = String::new();
    for (args, what) in cases {
        let out = env.brain(*args);
        assert_eq!(out.status, 2, "{what}: {out}");
        writeln!(all, "$ brain {}\n{out}", args.join(" ")).unwrap();
    }
    insta::assert_snapshot!(all, @"
    $ brain preference show no-such-pref
    --- stderr ---
    error: no preference has the id or id prefix `no-such-pref`
    hint: `brain preference list` shows every id
    [exit status: 2]
    $ brain preference approve avoid-legacy-rooter
    --- stderr ---
    error: no preference has the id or id prefix `avoid-legacy-rooter`
    hint: did you mean `avoid-legacy-router-fa32f161`?
    [exit status: 2]
    $ brain preference add --target x --target-type skill --prefer --confidence 1.5
    --- stderr ---
    error: invalid confidence: 1.5 is outside the range 0 to 1
    [exit status: 2]
    $ brain preference add --target x --target-type skill
    --- stderr ---
    error: the following required arguments were not provided:
      <--prefer|--avoid|--require-review>

    Usage: brain preference add --target <TARGET> --target-type <TYPE> <--prefer|--avoid|--require-review>

    For more information, try '--help'.
    [exit status: 2]
    $ brain preference add --target x --target-type plugin --avoid
    --- stderr ---
    error: invalid value 'plugin' for '--target-type <TYPE>': unknown target type `plugin` (expected one of: skill, workflow, task_class)

    For more information, try '--help'.
    [exit status: 2]
    $ brain preference add --target x --target-type skill --avoid --status stale
    --- stderr ---
    error: invalid status: a new preference is `candidate` or `active`, not `stale`
    [exit status: 2]
    $ brain preference dismiss avoid-legacy-router-fa32f161
    --- stderr ---
    error: cannot dismiss preference `avoid-legacy-router-fa32f161`: it is `active`; only candidates can be dismissed
    [exit status: 2]
    $ brain preference supersede avoid-legacy-router-fa32f161 avoid-legacy-router-fa32f161
    --- stderr ---
    error: cannot supersede preference `avoid-legacy-router-fa32f161`: a preference cannot supersede itself
    [exit status: 2]
    ");
    assert_eq!(status(&env), "", "nothing written");
}

#[test]
fn a_malformed_preference_file_is_named_with_its_line() {
    let env = repo();
    let bad = ".brain/preferences/prefer-broken-0000aaaa.yaml";
    std::fs::write(
        env.root().join(bad),
        "schema_version: 1\nid: prefer-broken-0000aaaa\nstatus: active\ntarget_type: skill\ntarget: broken\npreference: prefer_maybe\nprovenance:\n  source: manual\n  captured_at: \"2026-01-01T00:00:00Z\"\n",
    )
    .unwrap();
    let before = status(&env);
    // A read skips it with a warning naming file and line.
    let list = env.brain(["preference", "list", "--status", "candidate"]);
    insta::assert_snapshot!(list, @"
    ? prefer-playwright-e2e-109afbaf  candidate   prefer          skill       playwright-e2e  tasks: api, handlers; paths: src/api/**, test/e2e/**
    --- stderr ---
    warning: skipped .brain/preferences/prefer-broken-0000aaaa.yaml:6:13: `preference`: unknown variant `prefer_maybe`, expected one of prefer, avoid, require_review
    1 of 6 preferences (1 candidate, marked `?`: not in force until approved)
    [exit status: 0]
    ");
    let (json, _) = env.brain_json("preference-list", &["preference", "list"]);
    assert_eq!(json["skipped"][0]["line"], 6);
    // A write refuses: the broken file might be the duplicate or the conflict.
    insta::assert_snapshot!(env.brain([
        "preference", "add", "--target", "broken", "--target-type", "skill", "--avoid",
    ]), @"
    --- stderr ---
    error: cannot check for equal or conflicting preferences: `.brain/preferences/prefer-broken-0000aaaa.yaml` line 6 column 13: `preference`: unknown variant `prefer_maybe`, expected one of prefer, avoid, require_review
    hint: fix or remove the file (`brain lint` shows every problem), then retry
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["preference", "capture", "avoid the broken skill"]), @"
    --- stderr ---
    error: cannot check for equal or conflicting preferences: `.brain/preferences/prefer-broken-0000aaaa.yaml` line 6 column 13: `preference`: unknown variant `prefer_maybe`, expected one of prefer, avoid, require_review
    hint: fix or remove the file (`brain lint` shows every problem), then retry
    [exit status: 2]
    ");
    assert_eq!(status(&env), before, "nothing written");
}

#[test]
fn every_subcommand_answers_json_valid_against_its_schema() {
    let env = TestEnv::example();
    let ok = |schema: &str, args: &[&str]| {
        let (json, out) = env.brain_json(schema, args);
        assert_eq!(out.status, 0, "{args:?}: {out}");
        json
    };
    ok(
        "preference-list",
        &["preference", "list", "--status", "active"],
    );
    ok("preference-show", &["preference", "show", CANDIDATE]);
    let added = ok(
        "preference-add",
        &[
            "preference",
            "add",
            "--target",
            "red-green-refactor",
            "--target-type",
            "workflow",
            "--avoid",
            "--task-hint",
            "refunds",
        ],
    );
    let new = added["id"].as_str().unwrap().to_owned();
    let captured = ok(
        "preference-capture",
        &[
            "preference",
            "capture",
            "avoid the red-green-refactor workflow for refunds",
        ],
    );
    assert_eq!(captured["captured"][0]["outcome"], "already_present");
    assert_eq!(captured["captured"][0]["id"], new.as_str());
    ok("preference-approve", &["preference", "approve", CANDIDATE]);
    ok("preference-approve", &["preference", "approve", &new]);
    let superseded = ok(
        "preference-supersede",
        &[
            "preference",
            "supersede",
            &new,
            "prefer-red-green-refactor-c",
        ],
    );
    assert_eq!(superseded["old"]["to"], "superseded");
    // Errors answer with the error document.
    let (json, out) = env.brain_json("error", &["preference", "show", "nope"]);
    assert_eq!(out.status, 2);
    insta::assert_json_snapshot!(json, @r#"
    {
      "error": {
        "message": "no preference has the id or id prefix `nope`",
        "causes": [],
        "hints": [
          "`brain preference list` shows every id"
        ],
        "exit_code": 2
      }
    }
    "#);
}

#[test]
fn help_of_every_preference_subcommand() {
    let env = TestEnv::empty();
    insta::assert_snapshot!(
        "help_preference",
        env.brain(["preference", "--help"]).success()
    );
    for sub in [
        "add",
        "list",
        "show",
        "approve",
        "dismiss",
        "supersede",
        "capture",
    ] {
        insta::assert_snapshot!(
            format!("help_preference_{sub}"),
            env.brain(["preference", sub, "--help"]).success()
        );
    }
}
