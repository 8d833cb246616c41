//! `brain hook`: every agent's stored payloads, the output shapes, and the
//! promises to the agent (exit 0, one JSON object or nothing, no repeats).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;

use crate::common::{CliOutput, NOW, TestEnv, workspace};

/// The fixtures of one agent, in the order a session sends them.
const ORDER: [&str; 13] = [
    "session-start",
    "prompt",
    "file-read",
    "file-edit",
    "file-pre-tool",
    "file-windows",
    "file",
    "file-vscode-format",
    "file-bash",
    "turn-end",
    "pre-compact",
    "session-end",
    "session-start-compact",
];

/// Runs `brain hook <args>` with `stdin` as the event, at `now`.
fn hook_at(env: &TestEnv, now: &str, args: &[&str], stdin: &[u8]) -> CliOutput {
    let mut full = vec!["hook"];
    full.extend_from_slice(args);
    let mut child = env
        .command(full)
        .env("BRAIN_NOW", now)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // The hook may stop reading early (a payload over 1 MiB); a closed pipe
    // is no failure of the test.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    let output = child.wait_with_output().unwrap();
    CliOutput {
        stdout: String::from_utf8_lossy(&output.stdout)
            .replace(&env.root().display().to_string(), "[ROOT]"),
        stderr: String::from_utf8_lossy(&output.stderr)
            .replace(&env.root().display().to_string(), "[ROOT]"),
        status: output.status.code().unwrap_or(-1),
    }
}

fn hook(env: &TestEnv, args: &[&str], stdin: &str) -> CliOutput {
    hook_at(env, NOW, args, stdin.as_bytes())
}

/// The stored payload `<agent>/<name>.json` for the repository at `root`.
fn payload(agent: &str, name: &str, root: &Path) -> String {
    let path = workspace()
        .join("tests/fixtures/hooks")
        .join(agent)
        .join(format!("{name}.json"));
    std::fs::read_to_string(path)
        .unwrap()
        .replace("{{ROOT}}", &root.display().to_string())
}

/// The event a fixture is for: its name up to the variant suffix.
fn event_of(name: &str) -> &'static str {
    [
        "session-start",
        "prompt",
        "file",
        "turn-end",
        "pre-compact",
        "session-end",
    ]
    .into_iter()
    .find(|e| name == *e || name.starts_with(&format!("{e}-")))
    .unwrap()
}

/// Checks the output is nothing or one JSON object the agent reads, and
/// returns it for the snapshot: the JSON with the context taken out, then
/// the context as text.
fn checked(agent: &str, out: &CliOutput) -> String {
    assert_eq!(out.status, 0, "{out}");
    if out.stdout.is_empty() {
        return "(nothing)\n".to_owned();
    }
    assert_eq!(out.stdout.lines().count(), 1, "one line: {out}");
    let mut v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v.is_object(), "{out}");
    let context = match agent {
        "claude" | "codex" | "gemini" => {
            let specific = v["hookSpecificOutput"].as_object_mut().unwrap();
            assert_eq!(specific.len(), 2, "{out}");
            let event = specific["hookEventName"].as_str().unwrap();
            let allowed: &[&str] = if agent == "gemini" {
                &["SessionStart", "BeforeAgent", "AfterTool"]
            } else {
                &["SessionStart", "UserPromptSubmit", "PostToolUse"]
            };
            assert!(allowed.contains(&event), "{out}");
            specific.insert("additionalContext".to_owned(), "<context>".into())
        }
        "cursor" => {
            let obj = v.as_object_mut().unwrap();
            assert_eq!(obj.len(), 1, "{out}");
            if obj.contains_key("continue") {
                assert_eq!(obj["continue"], true);
                None
            } else {
                obj.insert("additional_context".to_owned(), "<context>".into())
            }
        }
        _ => panic!("{agent} reads no hook output, but got {out}"),
    };
    let mut text = format!("{v}\n");
    if let Some(c) = context {
        let c = c.as_str().unwrap();
        assert!(c.starts_with("<!-- brain:context v1 -->"), "{c}");
        text.push_str(c);
    }
    text
}

#[test]
fn every_stored_payload_of_every_agent() {
    for agent in ["claude", "codex", "cursor", "copilot", "gemini"] {
        let env = TestEnv::example_with_critical_rule();
        let dir = workspace().join("tests/fixtures/hooks").join(agent);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter_map(|n| n.strip_suffix(".json").map(str::to_owned))
            .collect();
        for n in &names {
            assert!(
                ORDER.contains(&n.as_str()),
                "{agent}/{n}.json is not in ORDER"
            );
        }
        names.sort_by_key(|n| ORDER.iter().position(|o| o == n));
        let mut report = String::new();
        for name in &names {
            let stdin = payload(agent, name, env.root());
            // Once detected, once named: the same answer (the second run is
            // a minute later, so it is no repeat of the first).
            let detected = hook(&env, &[event_of(name)], &stdin);
            let _ = write!(report, "== {name} ==\n{}", checked(agent, &detected));
            assert!(!detected.stderr.contains("deadline"), "{detected}");
        }
        insta::assert_snapshot!(format!("hook_{agent}"), report);
    }
}

#[test]
fn agent_flag_and_detection_agree() {
    for agent in ["claude", "codex", "cursor", "copilot", "gemini"] {
        let a = TestEnv::example_with_critical_rule();
        let b = TestEnv::example_with_critical_rule();
        for name in ["session-start", "prompt"] {
            let stdin = payload(agent, name, a.root());
            let detected = hook(&a, &[name], &stdin);
            let stdin = payload(agent, name, b.root());
            let named = hook(&b, &[name, "--agent", agent], &stdin);
            assert_eq!(
                detected.stdout.replace("[ROOT]", ""),
                named.stdout.replace("[ROOT]", ""),
                "{agent} {name}"
            );
        }
    }
}

#[test]
fn no_store_means_no_output_and_exit_0() {
    let env = TestEnv::empty();
    for agent in ["claude", "codex", "cursor", "copilot", "gemini"] {
        for name in ["session-start", "prompt", "turn-end"] {
            let out = hook(&env, &[name], &payload(agent, name, env.root()));
            assert_eq!(
                (out.status, out.stdout.as_str()),
                (0, ""),
                "{agent} {name}: {out}"
            );
        }
    }
    assert!(!env.root().join(".brain").exists());
}

#[test]
fn bad_input_never_fails_the_agent() {
    let env = TestEnv::example_with_critical_rule();
    std::fs::write(
        env.root().join(".brain/conventions/broken.yaml"),
        "id: [unclosed\n\ttabs: everywhere",
    )
    .unwrap();
    // A corrupt memory: the rest still answers.
    let out = hook(&env, &["prompt"], &payload("claude", "prompt", env.root()));
    assert_eq!(out.status, 0, "{out}");
    checked("claude", &out);
    assert!(out.stdout.contains("additionalContext"), "{out}");
    // Not JSON, empty, an unknown event, an unknown agent's fields.
    for (args, stdin) in [
        (vec!["prompt"], "{not json"),
        (vec!["prompt"], ""),
        (vec!["Notification"], "{}"),
        (vec!["file"], r#"{"tool_input": {"file_path": 42}}"#),
        (
            vec!["session-end"],
            r#"{"transcript_path": "/no/such/file.jsonl"}"#,
        ),
    ] {
        let out = hook(&env, &args, stdin);
        assert_eq!(
            (out.status, out.stdout.as_str()),
            (0, ""),
            "{args:?} {stdin}: {out}"
        );
    }
    // A 1 MiB prompt is read; a larger event is ignored.
    let big = |size: usize| {
        let head = r#"{"session_id":"big","hook_event_name":"UserPromptSubmit","prompt":""#;
        let tail = r#""}"#;
        let mut s = String::from(head);
        s.push_str(&"refund ledger ".repeat((size - head.len() - tail.len()) / 14));
        s.push_str(tail);
        s
    };
    let out = hook_at(
        &env,
        "2026-11-20T12:01:00Z",
        &["prompt"],
        big(1 << 20).as_bytes(),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    checked("claude", &out);
    let out = hook_at(
        &env,
        "2026-11-20T12:02:00Z",
        &["prompt"],
        big((1 << 20) + 100).as_bytes(),
    );
    assert_eq!((out.status, out.stdout.as_str()), (0, ""), "{}", out.stderr);
    assert!(out.stderr.contains("larger than 1 MiB"), "{}", out.stderr);
}

#[test]
fn a_session_sees_each_memory_and_file_once() {
    let env = TestEnv::example_with_critical_rule();
    let at = |s: u32| format!("2026-11-20T12:{s:02}:00Z");
    let prompt = payload("claude", "prompt", env.root());
    let first = hook_at(&env, &at(1), &["prompt"], prompt.as_bytes());
    assert!(first.stdout.contains("additionalContext"), "{first}");
    // The same prompt again, later: a repeat only of memories already shown.
    let again = hook_at(&env, &at(2), &["prompt"], prompt.as_bytes());
    assert_eq!(again.stdout, "", "{again}");
    // Another session is shown them.
    let other = prompt.replace("\"c-1\"", "\"c-2\"");
    let out = hook_at(&env, &at(3), &["prompt"], other.as_bytes());
    assert!(out.stdout.contains("additionalContext"), "{out}");
    // A file is looked up once per session.
    let read = payload("claude", "file-edit", env.root()).replace("\"c-1\"", "\"c-3\"");
    let out = hook_at(&env, &at(4), &["file"], read.as_bytes());
    assert!(out.stdout.contains("CONCURRENTLY"), "{out}");
    let out = hook_at(&env, &at(5), &["file"], read.as_bytes());
    assert_eq!(out.stdout, "", "{out}");
    // After compaction the context is gone: the index comes back, and so
    // may the memories.
    let compact = payload("claude", "session-start-compact", env.root());
    let out = hook_at(&env, &at(6), &["session-start"], compact.as_bytes());
    assert!(out.stdout.contains("Always-on rules"), "{out}");
    let out = hook_at(&env, &at(7), &["prompt"], prompt.as_bytes());
    assert!(out.stdout.contains("additionalContext"), "{out}");
}

#[test]
fn a_repeated_event_is_answered_once() {
    // Copilot CLI runs `.github/hooks` and `.claude/settings.json` hooks
    // for one event: two runs within seconds.
    let env = TestEnv::example_with_critical_rule();
    let start = payload("claude", "session-start", env.root());
    let first = hook(&env, &["session-start"], &start);
    assert!(first.stdout.contains("Always-on rules"), "{first}");
    let second = hook(&env, &["session-start", "--agent", "claude"], &start);
    assert_eq!(second.stdout, "", "{second}");
}

#[test]
fn hooks_leave_the_tracked_tree_clean() {
    let env = TestEnv::example_with_critical_rule();
    env.git(&["init", "-q"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "init"]);
    for name in ORDER {
        let path = workspace().join(format!("tests/fixtures/hooks/claude/{name}.json"));
        if path.exists() {
            let _ = hook(
                &env,
                &[event_of(name)],
                &payload("claude", name, env.root()),
            );
        }
    }
    assert_eq!(env.git(&["status", "--porcelain"]), "");
}

#[test]
fn capture_reads_agent_transcripts_as_candidates() {
    for (file, expected) in [
        ("claude-code.jsonl", "migrations/*.sql"),
        ("codex-rollout.jsonl", "src/ledger/**"),
    ] {
        let env = TestEnv::example();
        let path = workspace().join("tests/fixtures/transcripts").join(file);
        let out = env.brain(
            ["--format", "json", "capture", "--from-transcript"]
                .into_iter()
                .map(str::to_owned)
                .chain([path.display().to_string()]),
        );
        assert_eq!(out.status, 0, "{out}");
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let written = v["written"].as_array().unwrap();
        assert_eq!(written.len(), 1, "{file}: {}", out.stdout);
        assert_eq!(written[0]["status"], "candidate", "{file}");
        assert!(out.stdout.contains(expected), "{file}: {}", out.stdout);
    }
}

#[test]
fn capture_detach_returns_at_once() {
    let env = TestEnv::example();
    let out = env.brain(["capture", "--from-transcript", "missing.jsonl", "--detach"]);
    assert_eq!((out.status, out.stdout.as_str()), (0, ""), "{out}");
    let out = env.brain(["capture", "--detach"]);
    assert_eq!(out.status, 2, "{out}");
}
