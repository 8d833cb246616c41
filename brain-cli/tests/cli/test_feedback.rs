//! `brain routing-feedback` and `brain reinforce`: idempotent feedback,
//! per-line errors, capped confidence, review marks, reminders, `--explain`.

use std::io::Write as _;
use std::process::Stdio;

use crate::common::{CliOutput, TestEnv, validate_json, workspace};

/// Runs `brain <args>` with `input` on stdin and `vars` set.
pub(crate) fn brain_stdin(
    env: &TestEnv,
    args: &[&str],
    input: &str,
    vars: &[(&str, &str)],
) -> CliOutput {
    let mut cmd = env.command(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let root = env.root().display().to_string();
    let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&root, "[ROOT]");
    CliOutput {
        stdout: clean(&output.stdout),
        stderr: clean(&output.stderr),
        status: output.status.code().unwrap_or(-1),
    }
}

fn read(env: &TestEnv, rel: &str) -> String {
    std::fs::read_to_string(env.root().join(rel)).unwrap()
}

fn preference_files(env: &TestEnv) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(env.root().join(".brain/preferences"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

const PLAYWRIGHT: &str = ".brain/preferences/prefer-playwright-e2e-109afbaf.yaml";
const LEDGER_PREFER: &str = ".brain/preferences/prefer-ledger-invariant-check-74b0a056.yaml";
const RED_GREEN: &str = ".brain/preferences/prefer-red-green-refactor-c292991e.yaml";

/// A negative signal, a second one that asks for the same avoid, and a
/// positive one for the candidate `prefer` (confidence 0.6).
const FEEDBACK: &str = r#"{"type":"skill_rejected_by_user","skill":"Playwright E2E","plan_id":"4f1c9a0b7d2e8c35","notes":"too slow for a one-line fix","strength":0.9}
{"type":"skill_ignored","skill":"playwright_e2e","plan_id":"4f1c9a0b7d2e8c35","notes":"skipped: no UI change","strength":0.8}
{"type":"skill_followed","skill":"playwright-e2e","task":"add a header to the invoices API"}
"#;

#[test]
fn the_same_feedback_sent_twice_makes_one_candidate_and_raises_confidence_once() {
    let env = TestEnv::example();
    let before = preference_files(&env);
    let first = brain_stdin(&env, &["routing-feedback"], FEEDBACK, &[]);
    insta::assert_snapshot!("feedback_first_run", first);
    let after_first = preference_files(&env);
    let new: Vec<&String> = after_first.iter().filter(|n| !before.contains(n)).collect();
    assert_eq!(new.len(), 1, "{after_first:?}");
    let avoid = format!(".brain/preferences/{}", new[0]);
    let avoid_text = read(&env, &avoid);
    insta::assert_snapshot!("feedback_avoid_candidate", avoid_text);
    let playwright = read(&env, PLAYWRIGHT);
    assert!(playwright.contains("confidence: 0.65"), "{playwright}");

    let second = brain_stdin(&env, &["routing-feedback"], FEEDBACK, &[]);
    insta::assert_snapshot!("feedback_second_run", second);
    assert_eq!(preference_files(&env), after_first);
    assert_eq!(read(&env, &avoid), avoid_text);
    assert_eq!(read(&env, PLAYWRIGHT), playwright);
    // The reminder of the skill_ignored event was queued once.
    let queue = read(&env, ".brain/runtime/reinforce-queue.jsonl");
    assert_eq!(queue.lines().count(), 1, "{queue}");
    // The store stays valid: the candidate is a well-formed preference.
    env.brain(["lint"]).success();

    // The same events as one JSON array are the same events.
    let as_array = format!("[\n{}\n]\n", FEEDBACK.trim_end().replace('\n', ",\n"));
    let (json, out) = {
        let out = brain_stdin(
            &env,
            &["--format", "json", "routing-feedback"],
            &as_array,
            &[],
        );
        (validate_json("routing-feedback", &out.stdout), out)
    };
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["summary"]["duplicates"], 3, "{json}");
    let lines: Vec<u64> = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 3, 4]);
}

const MIXED: &str = r#"{"type":"workflow_too_heavy","workflow":"Full Test Suite","notes":"40 minutes for a typo fix"}
{"type":"skill_loved","skill":"playwright-e2e"}
{"type":"workflow_success","workflow":"red-green-refactor"

{"type":"skill_followed","skill":"playwright-e2e","colour":"blue"}
{"type":"skill_followed","workflow":"red-green-refactor"}
{"type":"workflow_failure","workflow":"deploy-preview","strength":1.5}
[1, 2]
{"type":"workflow_success","workflow":"red-green-refactor"}
"#;

#[test]
fn unknown_types_and_malformed_lines_are_reported_per_line_and_the_rest_applied() {
    let env = TestEnv::example();
    let out = brain_stdin(&env, &["routing-feedback"], MIXED, &[]);
    assert_eq!(out.status, 1, "{out}");
    insta::assert_snapshot!("feedback_mixed_text", out);
    // Both valid lines were applied.
    assert!(read(&env, RED_GREEN).contains("confidence: 0.85"));
    assert!(
        preference_files(&env)
            .iter()
            .any(|n| n.starts_with("avoid-full-test-suite-"))
    );

    let env = TestEnv::example();
    let out = brain_stdin(&env, &["--format", "json", "routing-feedback"], MIXED, &[]);
    assert_eq!(out.status, 1, "{out}");
    let json = validate_json("routing-feedback", &out.stdout);
    insta::assert_json_snapshot!("feedback_mixed_json", json["errors"]);
    assert_eq!(json["summary"]["applied"], 2);
    assert_eq!(json["summary"]["errors"], 6);

    // The schema of the input contract agrees with the parser, line by line.
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(workspace().join("schemas/feedback-event.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let refused: Vec<u64> = json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    for (i, line) in MIXED.lines().enumerate() {
        let n = i as u64 + 1;
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        // Line 7 is well-formed but out of range: the schema knows the range too.
        assert_eq!(
            validator.is_valid(&value),
            !refused.contains(&n),
            "line {n}: {line}"
        );
    }
}

#[test]
fn a_broken_array_is_refused_whole_and_nothing_is_applied() {
    let env = TestEnv::example();
    let before = read(&env, RED_GREEN);
    let out = brain_stdin(
        &env,
        &["routing-feedback"],
        "[\n  {\"type\":\"workflow_success\",\"workflow\":\"red-green-refactor\"},\n  {\"type\":\"skill_followed\",\"skill\":\"x\"}\n",
        &[],
    );
    insta::assert_snapshot!(out, @r"
    --- stderr ---
    error: invalid feedback input: line 1 column 1: the array that starts here is never closed with `]`
    [exit status: 2]
    ");
    assert_eq!(read(&env, RED_GREEN), before);
    assert!(
        !env.root()
            .join(".brain/runtime/feedback-ledger.jsonl")
            .exists()
    );

    let out = brain_stdin(&env, &["routing-feedback"], "\n\n", &[]);
    insta::assert_snapshot!(out, @r"
    0 events: 0 applied, 0 duplicates, 0 lines refused; 0 avoid proposed, 0 evidence added, 0 confidence raised, 0 marked for review, 0 reminders queued
    --- stderr ---
    warning: stdin holds no events
    [exit status: 0]
    ");
}

#[test]
fn positive_signals_raise_confidence_in_steps_up_to_the_cap() {
    let env = TestEnv::example();
    // Five different successes (different `at`), one at a time: 0.80 → 0.95, then capped.
    let mut confidences = Vec::new();
    for day in 1..=5 {
        let event = format!(
            r#"{{"type":"workflow_success","workflow":"red-green-refactor","at":"2026-11-0{day}T09:00:00Z"}}"#
        );
        let out = brain_stdin(&env, &["--format", "json", "routing-feedback"], &event, &[]);
        let json = validate_json("routing-feedback", &out.stdout);
        let e = &json["events"][0];
        confidences.push(format!(
            "{} {}",
            e["outcome"].as_str().unwrap(),
            e["preferences"][0]["confidence_after"]
        ));
    }
    assert_eq!(
        confidences,
        [
            "confidence_raised 0.85",
            "confidence_raised 0.9",
            "confidence_raised 0.95",
            "confidence_at_cap 0.95",
            "confidence_at_cap 0.95",
        ]
    );
    assert!(read(&env, RED_GREEN).contains("confidence: 0.95"));
    // A preference above the cap is not lowered, and nothing new is created.
    let before = preference_files(&env);
    let out = brain_stdin(
        &env,
        &["routing-feedback"],
        r#"{"type":"skill_followed","skill":"ledger-invariant-check"}
{"type":"skill_followed","skill":"no-such-skill"}
{"type":"skill_followed","skill":"playwright-e2e","strength":0.2}
"#,
        &[],
    );
    insta::assert_snapshot!("feedback_capped", out);
    assert_eq!(preference_files(&env), before);
}

#[test]
fn a_strong_rejection_of_an_active_prefer_marks_it_for_review_instead_of_contradicting_it() {
    let env = TestEnv::example();
    let before = preference_files(&env);
    let out = brain_stdin(
        &env,
        &["routing-feedback"],
        r#"{"type":"skill_rejected_by_user","skill":"ledger-invariant-check","strength":0.5,"notes":"not for docs changes"}
{"type":"skill_rejected_by_user","skill":"ledger-invariant-check","plan_id":"0123456789abcdef","task":"fix a typo in the refund docs"}
{"type":"skill_rejected_by_user","skill":"legacy-router"}
"#,
        &[],
    );
    insta::assert_snapshot!("feedback_conflict", out);
    assert_eq!(preference_files(&env), before, "no contradicting file");
    insta::assert_snapshot!("feedback_conflict_prefer_file", read(&env, LEDGER_PREFER));
    // Routing no longer uses it; `--explain` says so.
    let (json, _) = env.brain_json(
        "routing-feedback-explain",
        &["routing-feedback", "--explain", "ledger-invariant-check"],
    );
    assert_eq!(json["preferences"][0]["in_force"], false, "{json}");
    assert_eq!(json["preferences"][0]["review_state"], "pending", "{json}");
    // An active preference waiting for review is a valid record.
    env.brain(["lint"]).success();
    // Approving it puts it back in force.
    env.brain(["preference", "approve", "prefer-ledger-invariant-check"])
        .success();
    let (json, _) = env.brain_json(
        "routing-feedback-explain",
        &["routing-feedback", "--explain", "ledger-invariant-check"],
    );
    assert_eq!(json["preferences"][0]["in_force"], true, "{json}");
}

#[test]
fn reminders_are_queued_listed_and_acknowledged() {
    let env = TestEnv::example();
    let events = r#"{"type":"skill_ignored","skill":"ledger-invariant-check","plan_id":"0123456789abcdef","task":"issue a refund","notes":"agent skipped the check","strength":0.5,"id":"sess-7:ignored"}
{"type":"routing_conflict_escalated","skill":"playwright-e2e","workflow":"red-green-refactor","notes":"prefer and avoid disagree","id":"sess-7:conflict"}
{"type":"skill_ignored","skill":"ledger-invariant-check","strength":0.1,"id":"sess-7:weak"}
"#;
    brain_stdin(&env, &["routing-feedback"], events, &[]).success();
    insta::assert_snapshot!("reinforce_pending", env.brain(["reinforce"]).success());
    let (json, _) = env.brain_json("reinforce", &["reinforce", "--pending"]);
    insta::assert_json_snapshot!("reinforce_pending_json", json);

    // An unknown or ambiguous id removes nothing.
    let out = env.brain(["reinforce", "--ack", "sess-8"]);
    insta::assert_snapshot!(out, @r"
    --- stderr ---
    error: invalid --ack: no queued reminder has the id or id prefix `sess-8`; `brain reinforce --pending` lists them
    [exit status: 2]
    ");
    let out = env.brain(["reinforce", "--ack", "sess-7"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(
        out.stderr
            .contains("`sess-7` matches 2 reminders (sess-7:ignored, sess-7:conflict)"),
        "{out}"
    );
    insta::assert_snapshot!(env.brain(["reinforce", "--ack", "sess-7:ig"]).success(), @"
    acknowledged sess-7:ignored (skill_ignored)
    sess-7:conflict  routing_conflict_escalated (skill `playwright-e2e`, workflow `red-green-refactor`), queued 2026-11-20T12:00:00Z
        notes: prefer and avoid disagree
    1 reminder pending
    [exit status: 0]
    ");
    // Sending the events again does not queue them again.
    brain_stdin(&env, &["routing-feedback"], events, &[]).success();
    let (json, _) = env.brain_json("reinforce", &["reinforce", "--ack-all"]);
    assert_eq!(json["acknowledged"][0]["id"], "sess-7:conflict", "{json}");
    assert_eq!(json["pending"].as_array().unwrap().len(), 0, "{json}");
    insta::assert_snapshot!(env.brain(["reinforce"]).success(), @"
    0 reminders pending
    [exit status: 0]
    ");
}

#[test]
fn explain_shows_the_history_behind_a_skill() {
    let env = TestEnv::example();
    brain_stdin(&env, &["routing-feedback"], FEEDBACK, &[]).success();
    insta::assert_snapshot!(
        "feedback_explain_text",
        env.brain(["routing-feedback", "--explain", "Playwright E2E"])
            .success()
    );
    let (json, _) = env.brain_json(
        "routing-feedback-explain",
        &["routing-feedback", "--explain", "playwright-e2e"],
    );
    insta::assert_json_snapshot!("feedback_explain_json", json);
    insta::assert_snapshot!(
        env.brain(["routing-feedback", "--explain", "never-mentioned"]).success(),
        @"
    never-mentioned
    preferences: none
    events: none
    reminders: none
    [exit status: 0]
    "
    );
}

#[test]
fn help_texts() {
    let env = TestEnv::empty();
    for cmd in ["routing-feedback", "reinforce"] {
        insta::assert_snapshot!(format!("help_{cmd}"), env.brain([cmd, "--help"]).success());
    }
}
