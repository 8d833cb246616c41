//! `brain route` / `brain start` / `brain suggest-skills`: the invocation
//! plan, its JSON contract, and the layer rules end to end.

use crate::common::TestEnv;

const TASK: &str = "issue a refund for a duplicate charge";

fn route_json(env: &TestEnv, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["route", "--task", TASK, "--path", "src/ledger/post.ts"];
    args.extend_from_slice(extra);
    let (json, out) = env.brain_json("../route", &args);
    assert_eq!(out.status, 0, "{out}");
    assert!(
        !out.stdout.contains("[ROOT]"),
        "the plan names no absolute path:\n{}",
        out.stdout
    );
    json
}

/// Every string in a JSON value.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[test]
fn route_prints_the_plan_and_the_context_and_validates_against_its_schema() {
    let env = TestEnv::example();
    env.git(&["init", "-q"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-qm", "store"]);
    let text = env
        .brain(["route", "--task", TASK, "--path", "src/ledger/post.ts"])
        .success();
    insta::assert_snapshot!(text);
    let json = route_json(&env, &[]);
    assert_eq!(json["contract_version"], 1);
    assert_eq!(json["path_source"], "explicit");
    assert_eq!(
        json["invocation_plan"]["required"],
        serde_json::json!(["ledger-invariant-check"])
    );
    assert_eq!(json["display_mode"], "silent-ok");
    let matched = json["matched_memories"].as_array().unwrap();
    assert!(!matched.is_empty());
    for m in matched {
        assert!(m["path"].as_str().unwrap().starts_with(".brain/"), "{m}");
        assert!(m.get("summary").is_none() && m.get("detail").is_none());
    }
    let mut all = Vec::new();
    strings(&json, &mut all);
    assert!(
        all.iter().all(|s| !s.starts_with('/')),
        "no absolute path anywhere"
    );
    let block = json["context"]["block"].as_str().unwrap();
    assert!(block.starts_with("<!-- brain:context v1 -->"));
    assert!(json["context"]["used_tokens"].as_u64().unwrap() <= 1200);
    // `start` is the same command; the plan id is stable for the same inputs.
    let (again, _) = env.brain_json(
        "../route",
        &["start", "--task", TASK, "--path", "src/ledger/post.ts"],
    );
    assert_eq!(again["plan_id"], json["plan_id"]);
    // A read: nothing tracked changes.
    assert_eq!(env.git(&["status", "--porcelain"]), "");
}

#[test]
fn suggest_skills_is_the_plan_without_context() {
    let env = TestEnv::example();
    let (json, out) = env.brain_json(
        "../route",
        &[
            "suggest-skills",
            "--task",
            TASK,
            "--path",
            "src/ledger/post.ts",
        ],
    );
    assert_eq!(out.status, 0, "{out}");
    assert!(json.get("context").is_none());
    assert_eq!(
        json["invocation_plan"]["required"],
        serde_json::json!(["ledger-invariant-check"])
    );
    assert_eq!(json["plan_id"], route_json(&env, &[])["plan_id"]);
}

fn write(env: &TestEnv, rel: &str, text: &str) {
    let path = env.root().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const GLOBAL_AVOID: &str = "schema_version: 1
id: avoid-ledger-invariant-check-global
status: active
target_type: skill
target: ledger-invariant-check
preference: avoid
confidence: 1.0
reason: The invariant check is slow on laptops.
provenance:
  source: manual
  captured_at: \"2026-11-01T00:00:00Z\"
";

const HIGH_RISK_SUPPRESSION: &str = "schema_version: 1
id: ledger-check-is-off-during-the-migration
type: gotcha
status: active
title: Ledger invariant check is off while the ledger migration runs
summary: The invariant check reads the old ledger tables and reports false breaks until the migration finishes.
importance: high
risk: high
scope:
  paths:
  - src/ledger/**
routing:
  suppressed_skills:
  - ledger-invariant-check
  trigger_paths:
  - src/ledger/**
provenance:
  source: manual
  captured_at: \"2026-11-01T00:00:00Z\"
";

#[test]
fn a_global_avoid_cannot_remove_a_required_skill_but_a_high_risk_suppression_blocks_it() {
    let env = TestEnv::example();
    write(
        &env,
        ".brain/preferences/avoid-ledger-invariant-check-global.yaml",
        GLOBAL_AVOID,
    );
    env.brain(["lint"]).success();
    let json = route_json(&env, &[]);
    assert_eq!(
        json["invocation_plan"]["required"],
        serde_json::json!(["ledger-invariant-check"]),
        "{json:#}"
    );
    assert_eq!(json["invocation_plan"]["suppress"], serde_json::json!([]));
    let why = &json["routing_explanation"]["ledger-invariant-check"];
    assert_eq!(why["deciding_layer"], "required");
    assert!(
        why["overridden"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["source"] == "preference:avoid-ledger-invariant-check-global"),
        "{why:#}"
    );
    assert_eq!(json["display_mode"], "silent-ok");

    write(
        &env,
        ".brain/gotchas/ledger-check-is-off-during-the-migration.yaml",
        HIGH_RISK_SUPPRESSION,
    );
    env.brain(["lint"]).success();
    let json = route_json(&env, &[]);
    assert_eq!(
        json["invocation_plan"]["blocked"],
        serde_json::json!(["ledger-invariant-check"]),
        "{json:#}"
    );
    assert_eq!(json["invocation_plan"]["required"], serde_json::json!([]));
    assert_eq!(json["display_mode"], "needs-review");
    let conflict = &json["conflicts"][0];
    assert_eq!(conflict["kind"], "required_vs_suppressed");
    assert_eq!(conflict["resolution"], "blocked");
    assert!(
        conflict["deciding"]
            .to_string()
            .contains("ledger-check-is-off-during-the-migration")
    );
    assert!(
        conflict["overridden"]
            .to_string()
            .contains("ledger-entries-are-append-only")
    );
    let text = env
        .brain(["route", "--task", TASK, "--path", "src/ledger/post.ts"])
        .success();
    insta::assert_snapshot!(text);
}

#[test]
fn a_session_prefer_beats_an_avoid_preference_but_not_a_block() {
    let env = TestEnv::example();
    let avoid = GLOBAL_AVOID
        .replace("ledger-invariant-check", "playwright-e2e")
        .replace(
            "The invariant check is slow on laptops.",
            "End-to-end runs are too slow for ledger work.",
        );
    write(
        &env,
        ".brain/preferences/avoid-playwright-e2e-global.yaml",
        &avoid,
    );
    env.brain(["lint"]).success();
    let plan = |env: &TestEnv| {
        let (json, out) = env.brain_json(
            "../route",
            &[
                "suggest-skills",
                "--task",
                TASK,
                "--path",
                "src/ledger/post.ts",
            ],
        );
        assert_eq!(out.status, 0, "{out}");
        json
    };
    let before = plan(&env);
    assert_eq!(
        before["invocation_plan"]["suppress"],
        serde_json::json!(["playwright-e2e"]),
        "{before:#}"
    );

    // The session asks for it: it moves to prefer_first, over the avoid.
    env.brain(["session", "set", "--prefer-skill", "playwright-e2e"])
        .success();
    env.brain(["session", "set", "--prefer-skill", "ledger-invariant-check"])
        .success();
    let with_session = plan(&env);
    assert_eq!(
        with_session["invocation_plan"]["prefer_first"],
        serde_json::json!(["playwright-e2e"]),
        "{with_session:#}"
    );
    assert_eq!(
        with_session["routing_explanation"]["playwright-e2e"]["deciding_layer"],
        "session"
    );
    assert_ne!(with_session["plan_id"], before["plan_id"]);
    // A static required skill stays required whatever the session says.
    assert_eq!(
        with_session["invocation_plan"]["required"],
        serde_json::json!(["ledger-invariant-check"])
    );

    // But not over a block: a high-risk suppression wins.
    write(
        &env,
        ".brain/gotchas/ledger-check-is-off-during-the-migration.yaml",
        HIGH_RISK_SUPPRESSION,
    );
    let blocked = plan(&env);
    assert_eq!(
        blocked["invocation_plan"]["blocked"],
        serde_json::json!(["ledger-invariant-check"]),
        "{blocked:#}"
    );
    assert_eq!(blocked["display_mode"], "needs-review");
}
