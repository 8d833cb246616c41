//! `brain conversation-start` and `brain diff`: the decision turn by turn,
//! what changed since the last load, and a clean tree afterwards.

use crate::common::{TestEnv, validate_json};

const TASK: &str = "fix duplicate refund ledger write";

/// Runs `brain <args>` with the clock at `now`; returns stdout (checked to
/// be a success) with the root replaced.
fn at(env: &TestEnv, now: &str, args: &[&str]) -> String {
    let out = env
        .command(args)
        .env("BRAIN_NOW", now)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stdout =
        String::from_utf8_lossy(&out.stdout).replace(&env.root().display().to_string(), "[ROOT]");
    assert!(
        out.status.success(),
        "{args:?}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// `conversation-start --format json` at `now`, validated against the schema.
fn turn(env: &TestEnv, now: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--format", "json", "conversation-start"];
    args.extend_from_slice(extra);
    validate_json("conversation-start", &at(env, now, &args))
}

fn fired(json: &serde_json::Value) -> String {
    let trace = json["trace"].as_array().unwrap();
    let last = trace.last().unwrap();
    assert_eq!(last["fired"], true, "{json}");
    assert!(
        trace[..trace.len() - 1].iter().all(|s| s["fired"] == false),
        "{json}"
    );
    last["rule"].as_str().unwrap().to_owned()
}

#[test]
fn start_skip_inject_start() {
    let env = TestEnv::example();
    let path = "src/payments/ledger.ts";
    let first = at(
        &env,
        "2026-11-20T12:00:00Z",
        &["conversation-start", "--task", TASK, "--path", path],
    );
    insta::assert_snapshot!("conversation_start_start", first);
    let skip = at(
        &env,
        "2026-11-20T12:10:00Z",
        &["conversation-start", "--task", TASK, "--path", path],
    );
    insta::assert_snapshot!("conversation_start_skip", skip);
    let inject = at(
        &env,
        "2026-11-20T12:20:00Z",
        &[
            "conversation-start",
            "--task",
            "stripe webhook retries",
            "--path",
            path,
        ],
    );
    insta::assert_snapshot!("conversation_start_inject", inject);
    let next_day = turn(
        &env,
        "2026-11-21T13:00:00Z",
        &["--task", "stripe webhook retries", "--path", path],
    );
    assert_eq!(next_day["decision"], "start");
    assert_eq!(fired(&next_day), "stale");
    assert_eq!(next_day["context"]["layer"], "summary");

    // Each turn is in the log, with its decision; skips load nothing.
    let log = std::fs::read_to_string(env.root().join(".brain/runtime/activity.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let decisions: Vec<&str> = lines
        .iter()
        .map(|l| l["decision"].as_str().unwrap())
        .collect();
    assert_eq!(decisions, ["start", "skip", "inject", "start"]);
    assert!(lines.iter().all(|l| l["command"] == "conversation-start"));
    assert!(lines[1]["ids"].as_array().unwrap().is_empty());
    assert!(!lines[0]["ids"].as_array().unwrap().is_empty());
}

#[test]
fn json_carries_the_trace_and_the_context() {
    let env = TestEnv::example();
    let start = turn(&env, "2026-11-20T12:00:00Z", &["--task", TASK]);
    assert_eq!(start["decision"], "start");
    assert_eq!(start["mode"], "smart");
    assert_eq!(fired(&start), "no_previous_load");
    assert_eq!(start["context"]["layer"], "summary");
    assert!(start["last_load"].is_null());
    let skip = turn(&env, "2026-11-20T12:05:00Z", &["--task", TASK]);
    assert_eq!(skip["decision"], "skip");
    assert!(skip["context"].is_null());
    assert_eq!(skip["last_load"]["at"], "2026-11-20T12:00:00Z");
    // A skip is not a load: staleness still counts from 12:00.
    let stale = turn(
        &env,
        "2026-11-20T16:30:00Z",
        &["--task", TASK, "--refresh-mode", "task-change"],
    );
    assert_eq!(stale["decision"], "start", "{stale}");
    // A new module is a refresh, at the index layer.
    let module = turn(
        &env,
        "2026-11-20T16:35:00Z",
        &["--task", TASK, "--module", "billing"],
    );
    assert_eq!(module["decision"], "inject");
    assert_eq!(fired(&module), "modules_changed");
    assert_eq!(module["context"]["layer"], "index");
    // --force and --refresh-mode always start whatever the log says.
    for flag in ["--force", "--refresh-mode=always"] {
        let forced = turn(
            &env,
            "2026-11-20T16:40:00Z",
            &["--task", TASK, "--module", "billing", flag],
        );
        assert_eq!(forced["decision"], "start", "{flag}");
    }
}

#[test]
fn smart_mode_refreshes_when_memories_change() {
    let env = TestEnv::example();
    let now = "2026-11-20T12:00:00Z";
    assert_eq!(turn(&env, now, &["--task", TASK])["decision"], "start");
    let later = "2026-11-20T12:30:00Z";
    at(
        &env,
        later,
        &[
            "add",
            "--type",
            "gotcha",
            "--title",
            "Refund ledger rows need a reversal reason",
            "--summary",
            "Every reversing ledger entry carries reason_code.",
            "--status",
            "active",
        ],
    );
    let then = "2026-11-20T12:40:00Z";
    let tc = turn(
        &env,
        then,
        &["--task", TASK, "--refresh-mode", "task-change"],
    );
    assert_eq!(tc["decision"], "skip", "{tc}");
    let smart = turn(&env, then, &["--task", TASK]);
    assert_eq!(smart["decision"], "inject", "{smart}");
    assert_eq!(fired(&smart), "memories_changed");
    assert_eq!(smart["changes_since_last"], 1);
}

#[test]
fn diff_shows_an_added_memory() {
    let env = TestEnv::example();
    // No earlier load: everything counts as added.
    let (all, _) = env.brain_json("diff", &["diff"]);
    assert_eq!(all["since_source"], "none");
    assert!(all["since"].is_null());
    let n = all["changes"].as_array().unwrap().len();
    assert!(n > 10);
    assert_eq!(all["counts"]["added"], n);

    at(&env, "2026-11-20T12:00:00Z", &["inject", "--task", TASK]);
    at(
        &env,
        "2026-11-20T13:00:00Z",
        &[
            "add",
            "--type",
            "gotcha",
            "--title",
            "Refund ledger rows need a reversal reason",
            "--summary",
            "Every reversing ledger entry carries reason_code.",
        ],
    );
    let text = at(&env, "2026-11-20T14:00:00Z", &["diff"]);
    insta::assert_snapshot!("diff_after_add", text);
    let json = validate_json(
        "diff",
        &at(&env, "2026-11-20T14:00:00Z", &["--format", "json", "diff"]),
    );
    assert_eq!(json["since_source"], "last_load");
    assert_eq!(json["since"], "2026-11-20T12:00:00Z");
    assert_eq!(json["last_load"]["command"], "inject");
    let changes = json["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{json}");
    assert_eq!(changes[0]["change"], "added");
    assert_eq!(changes[0]["status"], "candidate");
    assert_eq!(changes[0]["evidence"], "provenance.captured_at");

    // --since and --since-days.
    let (since, _) = env.brain_json("diff", &["diff", "--since", "2026-11-17T00:00:00Z"]);
    assert_eq!(since["since_source"], "given");
    let (days, _) = env.brain_json("diff", &["diff", "--since-days", "3"]);
    assert_eq!(days["since"], "2026-11-17T12:00:00Z");
    assert!(
        since["changes"].as_array().unwrap().len() > 1,
        "memories captured on the 18th count too: {since}"
    );
    let out = env.brain(["diff", "--since", "yesterday"]);
    assert_eq!(out.status, 2, "{out}");
}

#[test]
fn the_tree_stays_clean_and_git_history_counts() {
    let env = TestEnv::example();
    env.git(&["init", "-q", "-b", "main"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "example store"]);
    env.brain(["conversation-start", "--task", TASK]).success();
    env.brain(["diff"]).success();
    env.brain(["diff", "--since-days", "1"]).success();
    assert_eq!(env.git(&["status", "--porcelain"]), "");
    // The example commit (2026-11-01) is before --since: nothing from git.
    let (json, _) = env.brain_json("diff", &["diff", "--since", "2026-11-19T00:00:00Z"]);
    assert!(
        json["changes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["evidence"] != "git"),
        "{json}"
    );
    // Since before the commit, every record file it added changed.
    let (json, _) = env.brain_json("diff", &["diff", "--since", "2026-10-31T00:00:00Z"]);
    assert!(
        json["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["evidence"] == "git"),
        "{json}"
    );
}
