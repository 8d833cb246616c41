//! The secret firewall on every write path, against the corpus in
//! `tests/fixtures/secrets/corpus.yaml`: every secret, in its context
//! sentence, goes through every command that writes under `.brain/`, and
//! then no file under `.brain/` (runtime included) holds any part of it.
//! Look-alikes go through `add` and `inject` and must come out as they went
//! in.

use std::io::Write;
use std::process::Stdio;

use crate::common::{TestEnv, workspace};

/// One entry of the corpus.
struct Entry {
    kind: String,
    value: String,
    context: String,
}

impl Entry {
    /// The context sentence with the value in it.
    fn text(&self) -> String {
        self.context.replace("{}", &self.value)
    }

    /// The value where it is recognisable without its context (a token
    /// with a prefix), else `bare`: a path or hint made of it.
    fn bare(&self) -> &str {
        let first = self.value.lines().next().unwrap_or_default();
        if brain_core::secrets::redact(first).1.is_empty() {
            "bare"
        } else {
            first
        }
    }

    /// The first line of the text, cut to a title's length.
    fn title(&self) -> String {
        let line = self.text().lines().next().unwrap_or_default().to_owned();
        line.chars().take(160).collect()
    }
}

fn corpus(section: &str) -> Vec<Entry> {
    let text =
        std::fs::read_to_string(workspace().join("tests/fixtures/secrets/corpus.yaml")).unwrap();
    let json = brain_core::yaml::to_json_value(&text).unwrap();
    json[section]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Entry {
            kind: e["kind"].as_str().unwrap().to_owned(),
            value: e["value"].as_str().unwrap().to_owned(),
            context: e["context"].as_str().unwrap().to_owned(),
        })
        .collect()
}

fn secrets() -> Vec<Entry> {
    let secrets = corpus("secrets");
    assert!(secrets.len() >= 60, "only {} secrets", secrets.len());
    secrets
}

/// The parts of a secret that must not reach a file: every run of 6 or more
/// characters between line breaks (a PEM block is checked line by line).
fn needles(value: &str) -> Vec<&str> {
    value
        .split(['\n', ' '])
        .flat_map(|l| l.split("\\n"))
        .filter(|p| p.len() >= 6 && !p.starts_with("-----"))
        .collect()
}

/// Every file under `.brain/`, runtime included, with its text.
fn brain_files(env: &TestEnv) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![env.root().join(".brain")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                let rel = path.strip_prefix(env.root()).unwrap().display().to_string();
                files.push((rel, String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    files.sort();
    files
}

/// Fails, naming the write path, the file and the secret's kind, when any
/// part of any secret is in any file under `.brain/` (also with YAML's
/// line folding and JSON's escapes undone).
fn assert_no_leak(env: &TestEnv, path: &str, secrets: &[Entry]) {
    let mut leaks = Vec::new();
    for (file, text) in brain_files(env) {
        let squeezed: String = text
            .replace("\\n", "")
            .replace("\\/", "/")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        for (n, s) in secrets.iter().enumerate() {
            if needles(&s.value)
                .iter()
                .any(|needle| text.contains(needle) || squeezed.contains(needle))
            {
                leaks.push(format!("  {file}: secret {n} ({})", s.kind));
            }
        }
    }
    leaks.dedup();
    assert!(
        leaks.is_empty(),
        "`brain {path}` let {} secret(s) through:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

fn store() -> TestEnv {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    env.brain(["init", "--workflow", "recommended-semi-auto"])
        .success();
    env
}

/// Runs brain with `input` on stdin; returns the exit status and stderr.
fn with_stdin(env: &TestEnv, args: &[&str], input: &str) -> (i32, String) {
    let mut child = env
        .command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts that a command ran (0, or 1 for "nothing to write"), and that
/// what it reports on stderr (warnings, "redacted …") holds no secret either.
fn ran(out: &crate::common::CliOutput, what: &str, s: &Entry) {
    assert!(
        out.status == 0 || out.status == 1,
        "`brain {what}` failed for a {}:\n{out}",
        s.kind
    );
    for needle in needles(&s.value) {
        assert!(
            !out.stderr.contains(needle),
            "`brain {what}` printed a {}:\n{out}",
            s.kind
        );
    }
}

/// Like [`ran`], for a command that writes records: its report on stdout
/// holds no secret either.
fn wrote(out: &crate::common::CliOutput, what: &str, s: &Entry) {
    ran(out, what, s);
    for needle in needles(&s.value) {
        assert!(
            !out.stdout.contains(needle) && !out.stderr.contains(needle),
            "`brain {what}` printed a {}:\n{out}",
            s.kind
        );
    }
}

#[test]
fn add_writes_no_secret() {
    let env = store();
    let secrets = secrets();
    for s in &secrets {
        let text = s.text();
        let out = env.brain([
            "add",
            "-t",
            "gotcha",
            "--title",
            &s.title(),
            "--summary",
            &text,
            "--detail",
            &text,
        ]);
        wrote(&out, "add", s);
    }
    assert_no_leak(&env, "add", &secrets);
}

#[test]
fn capture_extract_and_extract_commit_write_no_secret() {
    let env = store();
    let secrets = secrets();
    for (n, s) in secrets.iter().enumerate() {
        let session = format!("Gotcha: {}\n", s.text());
        let out = env.brain([
            "capture",
            "--force",
            "--task",
            &s.text(),
            "--input",
            &session,
        ]);
        wrote(&out, "capture", s);
        let out = env.brain(["extract", "--input", &session]);
        wrote(&out, "extract", s);
        let file = format!("notes/{n}.txt");
        std::fs::create_dir_all(env.root().join("notes")).unwrap();
        std::fs::write(env.root().join(&file), "x\n").unwrap();
        env.git(&["add", &file]);
        env.git(&[
            "commit",
            "-q",
            "-m",
            &format!("{}\n\nWe learned that {}", s.title(), s.text()),
        ]);
        let out = env.brain(["extract-commit"]);
        wrote(&out, "extract-commit", s);
    }
    // The runs wrote candidates: the derived fields were exercised.
    let (list, _) = env.brain_json("list", &["list", "--status", "candidate"]);
    assert!(
        list["memories"].as_array().unwrap().len() >= secrets.len(),
        "{list}"
    );
    assert_no_leak(&env, "capture/extract/extract-commit", &secrets);
}

#[test]
fn import_writes_no_secret() {
    let env = store();
    let secrets = secrets();
    let legacy = env.root().join("legacy/.brain/gotchas");
    std::fs::create_dir_all(&legacy).unwrap();
    for (n, s) in secrets.iter().enumerate() {
        let title = serde_json::to_string(&s.title()).unwrap();
        let summary = serde_json::to_string(&s.text()).unwrap();
        std::fs::write(
            legacy.join(format!("2025-06-14-note-{n}.md")),
            format!(
                "---\ntype: \"gotcha\"\ntitle: {title}\nsummary: {summary}\n\
                 created_at: \"2025-06-14T14:12:10.042Z\"\nstatus: \"active\"\n---\n\n{}\n",
                s.text()
            ),
        )
        .unwrap();
    }
    let out = env.brain(["import", "--from-repobrain", "legacy"]);
    assert_eq!(out.status, 0, "{out}");
    std::fs::remove_dir_all(env.root().join("legacy")).unwrap();
    assert_no_leak(&env, "import", &secrets);
}

#[test]
fn preference_add_and_capture_write_no_secret() {
    let env = store();
    let secrets = secrets();
    for (n, s) in secrets.iter().enumerate() {
        let out = env.brain([
            "preference",
            "add",
            "--target",
            &format!("deploy-{n}"),
            "--avoid",
            "--target-type",
            "skill",
            "--reason",
            &s.text(),
            "--task-hint",
            &s.title(),
            "--path-hint",
            &format!("deploy/{}", s.bare()),
        ]);
        wrote(&out, "preference add", s);
        let sentence = format!(
            "Avoid the release-{n} skill when touching config/{}.env. {}",
            s.bare(),
            s.text()
        );
        let out = env.brain(["preference", "capture", &sentence]);
        wrote(&out, "preference capture", s);
    }
    assert_no_leak(&env, "preference add/capture", &secrets);
}

#[test]
fn failure_record_and_routing_feedback_write_no_secret() {
    let env = store();
    let secrets = secrets();
    let mut failures = String::new();
    let mut events = String::new();
    for (n, s) in secrets.iter().enumerate() {
        let failure = serde_json::json!({
            "command": format!("./deploy.sh --verbose {}", s.title()),
            "kind": "runtime",
            "message": s.text(),
            "task": s.text(),
            "paths": ["deploy.sh"],
            "id": format!("failure-{n}"),
        });
        failures.push_str(&failure.to_string());
        failures.push('\n');
        let event = serde_json::json!({
            "type": "skill_rejected_by_user",
            "skill": format!("deploy-{n}"),
            "notes": s.text(),
            "task": s.text(),
            "strength": 0.9,
            "id": format!("event-{n}"),
        });
        events.push_str(&event.to_string());
        events.push('\n');
    }
    // Twice: the second time every failure repeats and becomes a memory.
    for _ in 0..2 {
        let (code, err) = with_stdin(&env, &["failure", "record"], &failures);
        assert_eq!(code, 0, "{err}");
    }
    assert_no_leak(&env, "failure record", &secrets);
    let (code, err) = with_stdin(&env, &["routing-feedback"], &events);
    assert_eq!(code, 0, "{err}");
    assert_no_leak(&env, "routing-feedback", &secrets);
}

#[test]
fn session_set_and_task_text_write_no_secret() {
    let env = store();
    env.brain([
        "add",
        "-t",
        "gotcha",
        "--title",
        "Deploys need the VPN",
        "--summary",
        "Deploys fail outside the VPN.",
        "--status",
        "active",
    ])
    .success();
    let secrets = secrets();
    for s in &secrets {
        let text = s.text();
        let out = env.brain(["session", "set", &text]);
        ran(&out, "session set", s);
        for command in ["inject", "route", "conversation-start"] {
            let out = env.brain([command, "--task", &text]);
            ran(&out, command, s);
        }
    }
    assert_no_leak(
        &env,
        "session set/inject/route/conversation-start",
        &secrets,
    );
}

#[test]
fn look_alikes_pass_through_unchanged() {
    let env = store();
    let lookalikes = corpus("lookalikes");
    assert!(
        lookalikes.len() >= 50,
        "only {} look-alikes",
        lookalikes.len()
    );
    for e in &lookalikes {
        let text = e.text();
        env.brain([
            "add",
            "-t",
            "gotcha",
            "--title",
            &e.title(),
            "--summary",
            &text,
            "--detail",
            &text,
        ])
        .success();
        env.brain(["inject", "--task", &text]).success();
    }
    let details: Vec<String> = brain_files(&env)
        .into_iter()
        .filter(|(f, _)| f.starts_with(".brain/gotchas/"))
        .map(|(_, t)| brain_core::yaml::parse_memory(&t).unwrap().detail)
        .collect();
    let log = std::fs::read_to_string(env.root().join(".brain/runtime/activity.jsonl")).unwrap();
    let tasks: Vec<String> = log
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["task"].as_str().unwrap_or_default().to_owned()
        })
        .collect();
    let altered: Vec<String> = lookalikes
        .iter()
        .filter(|e| {
            !details.iter().any(|d| d.contains(&e.value))
                || !tasks.iter().any(|t| t.contains(&e.value))
        })
        .map(|e| format!("  {}: {}", e.kind, e.value))
        .collect();
    assert!(
        altered.len() <= 2,
        "{} look-alikes were altered:\n{}",
        altered.len(),
        altered.join("\n")
    );
}
