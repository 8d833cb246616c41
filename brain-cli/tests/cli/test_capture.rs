//! `brain capture`, `extract`, `extract-commit`, `suggest-extract` and rule
//! `import`: candidates first, each with its own type and scope.

use std::io::Write;
use std::process::Stdio;

use crate::common::{TestEnv, workspace};

/// An hour after [`crate::common::NOW`]: a second capture is a run of its own (the
/// candidates of one run are siblings, never merged into each other).
const LATER: &str = "2026-11-20T13:00:00Z";

fn store(workflow: &str) -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["init", "--workflow", workflow]).success();
    env
}

fn fixture(name: &str) -> String {
    workspace()
        .join("tests/fixtures/capture")
        .join(name)
        .display()
        .to_string()
}

fn count(env: &TestEnv, status: &str) -> usize {
    let (json, _) = env.brain_json("list", &["list", "--status", status]);
    json["memories"].as_array().unwrap().len()
}

/// Runs brain with `input` on stdin.
fn with_stdin(env: &TestEnv, args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = env
        .command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from a thread: brain may refuse the input before reading it all.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under `.brain/` except the runtime directory.
fn brain_files(env: &TestEnv) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in walkdir(env.root().join(".brain")) {
        let rel = entry
            .strip_prefix(env.root())
            .unwrap()
            .display()
            .to_string();
        if rel.contains("/runtime/") {
            continue;
        }
        out.push((rel, std::fs::read_to_string(&entry).unwrap_or_default()));
    }
    out.sort();
    out
}

fn walkdir(dir: std::path::PathBuf) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn a_session_becomes_one_candidate_per_piece_of_knowledge_each_with_its_own_scope() {
    let env = store("recommended-semi-auto");
    let session = fixture("session-refunds.md");
    let out = env
        .brain([
            "capture",
            "--input-file",
            &session,
            "--task",
            "make refunds idempotent",
        ])
        .success();
    insta::assert_snapshot!(out);
    // An hour later: another run, not a sibling of the first run's candidates.
    let (json, _) = env.brain_json_at(
        LATER,
        "capture",
        &["capture", "--input-file", &session, "--dry-run"],
    );
    let written = json["written"].as_array().unwrap();
    let got: Vec<(String, Vec<String>)> = written
        .iter()
        .map(|w| {
            (
                w["type"].as_str().unwrap().to_owned(),
                w["paths"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "decision".to_owned(),
                vec!["src/billing/ledger.rs".to_owned()]
            ),
            (
                "gotcha".to_owned(),
                vec!["src/webhooks/stripe.ts".to_owned()]
            ),
            ("convention".to_owned(), vec!["db/migrations/**".to_owned()]),
        ]
    );
    // The dry run decided against the first run's candidates: duplicates.
    for w in written {
        assert_eq!(w["decision"], "merge", "{w}");
        assert_eq!(w["relation"], "duplicate", "{w}");
    }
    let reasons: Vec<&str> = json["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["action_log", "action_log"]);
    assert_eq!(count(&env, "candidate"), 3);
    assert_eq!(count(&env, "active"), 0);
    // Each file holds its own scope only.
    let (list, _) = env.brain_json("list", &["list"]);
    for m in list["memories"].as_array().unwrap() {
        let id = m["id"].as_str().unwrap();
        let (show, _) = env.brain_json("show", &["show", id]);
        let paths = show["memory"]["scope"]["paths"].as_array().unwrap();
        assert_eq!(paths.len(), 1, "{show}");
        assert_eq!(show["memory"]["provenance"]["source"], "session");
        assert_eq!(show["memory"]["review"]["state"], "pending");
    }
}

#[test]
fn capturing_the_same_text_twice_merges_into_one_memory_on_approval() {
    let env = store("recommended-semi-auto");
    let session = fixture("session-refunds.md");
    env.brain(["capture", "--input-file", &session]).success();
    env.brain(["approve", "--all"]).success();
    assert_eq!(count(&env, "active"), 3);
    let (json, _) = env.brain_json_at(LATER, "capture", &["capture", "--input-file", &session]);
    for w in json["written"].as_array().unwrap() {
        assert_eq!(w["decision"], "merge", "{w}");
        assert_eq!(w["relation"], "duplicate", "{w}");
        assert_eq!(w["targets"].as_array().unwrap().len(), 1);
    }
    let (review, _) = env.brain_json("review", &["review"]);
    assert_eq!(review["items"].as_array().unwrap().len(), 3);
    let (approved, _) = env.brain_json("approve", &["approve", "--all"]);
    for a in approved["approved"].as_array().unwrap() {
        assert_eq!(a["decision"], "merge", "{a}");
    }
    assert_eq!(count(&env, "active"), 3);
    assert_eq!(count(&env, "candidate"), 0);
    let (list, _) = env.brain_json("list", &["list"]);
    assert_eq!(list["memories"].as_array().unwrap().len(), 3, "{list}");
}

#[test]
fn no_longer_wording_supersedes_and_links_both_ways() {
    let env = store("recommended-semi-auto");
    let old = env
        .brain([
            "add",
            "--type",
            "decision",
            "--title",
            "Store sessions in Redis",
            "--summary",
            "User sessions are stored in Redis with a 24 h TTL so that every API node can read them.",
            "--path",
            "src/session/**",
            "--status",
            "active",
        ])
        .success()
        .stdout
        .trim()
        .to_owned();
    let (json, _) = env.brain_json(
        "capture",
        &[
            "capture",
            "--input",
            "We no longer use Redis for sessions in src/session/; switch to signed, encrypted cookies because the Redis cluster was a single point of failure.",
        ],
    );
    let w = &json["written"][0];
    assert_eq!(w["decision"], "supersede", "{json}");
    assert_eq!(w["targets"][0], old.as_str());
    let new = w["id"].as_str().unwrap().to_owned();
    env.brain(["approve", &new]).success();
    let (old_show, _) = env.brain_json("show", &["show", &old]);
    assert_eq!(old_show["memory"]["status"], "superseded");
    assert_eq!(old_show["memory"]["lineage"]["superseded_by"], new.as_str());
    let (new_show, _) = env.brain_json("show", &["show", &new]);
    assert_eq!(new_show["memory"]["status"], "active");
    assert_eq!(new_show["memory"]["lineage"]["supersedes"][0], old.as_str());
    let (active, _) = env.brain_json("list", &["list", "--status", "active"]);
    let ids: Vec<&str> = active["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [new.as_str()]);
    env.brain(["lint"]).success();
}

#[test]
fn the_default_preset_never_writes_active_memories() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    env.brain(["init"]).success();
    let session = fixture("session-refunds.md");
    env.brain(["capture", "--input-file", &session]).success();
    let (code, _, err) = with_stdin(
        &env,
        &["extract"],
        b"Gotcha: the CSV exporter silently truncates rows longer than 64 KB, so long invoices lose lines.",
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        env.root().join("pricing.rs"),
        "pub fn price() -> i64 { 100 }\n",
    )
    .unwrap();
    env.git(&["add", "pricing.rs"]);
    env.git(&[
        "commit",
        "-q",
        "-m",
        "Round toll prices half-even\n\nWe decided to round toll prices half-even in pricing.rs because half-up overcharged frequent drivers by a cent a week.",
    ]);
    let (commit, _) = env.brain_json("capture", &["extract-commit"]);
    assert_eq!(commit["written"].as_array().unwrap().len(), 1, "{commit}");
    assert_eq!(commit["written"][0]["paths"][0], "pricing.rs");
    // The same commit again: nothing new.
    let (again, _) = env.brain_json("capture", &["extract-commit", "--rev", "HEAD"]);
    assert!(again["written"].as_array().unwrap().is_empty(), "{again}");
    assert_eq!(again["unchanged"].as_array().unwrap().len(), 1, "{again}");
    // `capture --rev` takes the commit's files as session facts.
    let (with_rev, _) = env.brain_json(
        "capture",
        &[
            "capture",
            "--dry-run",
            "--rev",
            "HEAD",
            "--input",
            "Gotcha: pricing.rs must never round with f64, because cents drift on long trips.",
        ],
    );
    assert_eq!(
        with_rev["written"][0]["paths"][0], "pricing.rs",
        "{with_rev}"
    );
    env.brain(["import", &fixture("AGENTS.md")]).success();
    assert_eq!(count(&env, "active"), 0);
    // The capture, the extract, the commit, and one per rule of AGENTS.md.
    assert_eq!(count(&env, "candidate"), 3 + 1 + 1 + 5);
    env.brain(["lint"]).success();
}

#[test]
fn direct_capture_writes_active_only_what_is_novel_and_safe() {
    let env = store("ultra-safe-manual");
    let session = fixture("session-refunds.md");
    env.brain(["capture", "--input-file", &session]).success();
    assert_eq!(count(&env, "active"), 3);
    // The same again, later, is a duplicate: candidates for review, not
    // active copies.
    env.brain_json_at(LATER, "capture", &["capture", "--input-file", &session]);
    assert_eq!(count(&env, "active"), 3);
    assert_eq!(count(&env, "candidate"), 3);
}

#[test]
fn explain_shows_every_stage() {
    let env = store("recommended-semi-auto");
    let out = env
        .brain([
            "capture",
            "--dry-run",
            "--explain",
            "--input",
            "Ok thanks. Fixed typo in README. Careful: `make release` silently skips the changelog unless CHANGELOG.md is staged.",
        ])
        .success();
    insta::assert_snapshot!(out);
    assert_eq!(count(&env, "candidate"), 0);
}

#[test]
fn chatter_is_nothing_worth_extracting_and_signals_alone_do_not_force_it() {
    let env = store("recommended-semi-auto");
    let out = env
        .brain([
            "capture",
            "--input",
            "ok thanks, looks good. Ran tests.",
            "--test-summary",
            "2 failed -> 40 passed",
            "--task",
            "ship it",
        ])
        .success();
    insta::assert_snapshot!(out);
    let (json, _) = env.brain_json(
        "suggest-extract",
        &[
            "suggest-extract",
            "--input",
            "ok thanks, looks good. Ran tests.",
        ],
    );
    assert_eq!(json["assessment"]["decision"], "skip");
    assert_eq!(count(&env, "candidate"), 0);
}

#[test]
fn suggest_extract_scores_without_a_store() {
    let env = TestEnv::empty();
    let out = env
        .brain([
            "suggest-extract",
            "--input-file",
            &fixture("session-refunds.md"),
            "--test-summary",
            "3 failed, 40 passed -> 43 passed",
        ])
        .success();
    insta::assert_snapshot!(out);
    assert!(!env.root().join(".brain").exists());
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let env = store("recommended-semi-auto");
    let before = brain_files(&env);
    let cases: &[(&[&str], &[u8], &str)] = &[
        (&["capture"], b"", "nothing worth extracting"),
        (&["capture"], b"   \n\t\n  ", "nothing worth extracting"),
        (&["extract"], b"", "nothing worth extracting"),
        (&["capture"], b"PK\x03\x04\x00\x00binary", "input is binary"),
        (&["extract"], b"caf\xe9 au lait", "not valid UTF-8"),
    ];
    for (args, input, expect) in cases {
        let (code, stdout, stderr) = with_stdin(&env, args, input);
        let all = format!("{stdout}{stderr}");
        assert!(all.contains(expect), "{args:?}: {all}");
        if expect.starts_with("nothing") {
            assert_eq!(code, 0, "{all}");
        } else {
            assert_eq!(code, 2, "{all}");
        }
    }
    // 50 MB on stdin: refused after reading just past the limit.
    let big = vec![b'a'; 50 * 1024 * 1024];
    let (code, _, stderr) = with_stdin(&env, &["capture"], &big);
    assert_eq!(code, 2);
    assert!(stderr.contains("input is larger than"), "{stderr}");
    let out = env.brain(["extract-commit", "--rev", "does-not-exist"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("not inside a git repository"), "{out}");
    std::fs::write(env.root().join("logo.png"), b"\x89PNG\r\n\x1a\n\x00").unwrap();
    let out = env.brain(["import", "logo.png"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("logo.png"), "{out}");
    std::fs::write(env.root().join("main.rs"), "fn main() {}\n").unwrap();
    let out = env.brain(["import", "main.rs"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("not a rule file"), "{out}");
    assert_eq!(brain_files(&env), before);
}

#[test]
fn a_missing_commit_is_a_clear_error() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    env.brain(["init"]).success();
    std::fs::write(env.root().join("a.txt"), "a\n").unwrap();
    env.git(&["add", "a.txt"]);
    env.git(&["commit", "-q", "-m", "first"]);
    let out = env.brain(["extract-commit", "--rev", "does-not-exist"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("no commit `does-not-exist`"), "{out}");
    // A commit whose message says nothing reusable writes nothing.
    let (json, _) = env.brain_json("capture", &["extract-commit"]);
    assert!(json["written"].as_array().unwrap().is_empty(), "{json}");
}

#[test]
fn rule_files_import_by_section_once() {
    let env = store("recommended-semi-auto");
    let agents = env.root().join("AGENTS.md");
    std::fs::copy(fixture("AGENTS.md"), &agents).unwrap();
    let dry = env.brain(["import", "--dry-run", "AGENTS.md"]).success();
    assert_eq!(count(&env, "candidate"), 0);
    let out = env.brain(["import", "AGENTS.md"]).success();
    assert_eq!(
        dry.stdout
            .replace("would write", "wrote")
            .replace(" to write, ", " written, ")
            .replace(" (dry run: nothing written)", ""),
        out.stdout
    );
    insta::assert_snapshot!(out);
    let (list, _) = env.brain_json("list", &["list", "--format", "json"]);
    let memories = list["memories"].as_array().unwrap();
    // The introduction under the document title is not a rule; each of the
    // three conventions is one.
    assert_eq!(memories.len(), 5);
    // The fenced block is whole, `#` lines inside it included.
    let gotcha = memories.iter().find(|m| m["type"] == "gotcha").unwrap();
    let (show, _) = env.brain_json("show", &["show", gotcha["id"].as_str().unwrap()]);
    let detail = show["memory"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("```sh\n# reset the shared database\nmake db-reset\n## this line is inside the fence, not a heading\ncargo test --features integration\n```"),
        "{detail}"
    );
    assert_eq!(
        show["memory"]["provenance"]["evidence"][0]["value"],
        "AGENTS.md"
    );
    let again = env.brain(["import", "AGENTS.md"]).success();
    assert!(
        again
            .stdout
            .contains("0 memories written, 5 unchanged, 1 rejected"),
        "{again}"
    );
    assert_eq!(count(&env, "candidate"), 5);
}

#[test]
fn cursor_rules_take_their_scope_from_globs() {
    let env = store("recommended-semi-auto");
    let dir = env.root().join(".cursor/rules");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("sql.mdc"),
        "---\ndescription: SQL migrations\nglobs: db/migrations/**/*.sql, db/seeds/**\nalwaysApply: false\n---\n\nNever edit a migration that has been merged to main; add a new migration instead.\n",
    )
    .unwrap();
    let (json, _) = env.brain_json("import-rules", &["import", ".cursor/rules/sql.mdc"]);
    let w = &json["files"][0]["written"][0];
    assert_eq!(w["type"], "convention", "{json}");
    assert_eq!(
        w["paths"],
        serde_json::json!(["db/migrations/**/*.sql", "db/seeds/**"])
    );
}

#[test]
fn a_seeded_secret_never_reaches_the_store() {
    let env = store("recommended-semi-auto");
    let key = "sk_live_51HqT9vK2eZvKYlo2C8xQ4mN7pR0sT3uV";
    let text = format!(
        "Watch out: the billing worker in `src/billing/worker.ts` fails silently when STRIPE_SECRET_KEY={key} is rotated, because it caches the client at startup."
    );
    let out = env.brain(["capture", "--input", &text]).success();
    assert!(out.stderr.contains("redacted"), "{out}");
    assert!(!out.stdout.contains(key));
    let agents = env.root().join("CLAUDE.md");
    std::fs::write(
        &agents,
        format!("## Deploys\nDeploy with `DATABASE_URL=postgres://deploy:{key}@db.internal/prod make deploy` and never from a laptop.\n"),
    )
    .unwrap();
    env.brain(["import", "CLAUDE.md"]).success();
    let files = brain_files(&env);
    assert!(files.len() >= 3);
    for (path, text) in files {
        assert!(!text.contains(key), "{path} holds the secret");
        assert!(
            !text.contains(&key[8..20]),
            "{path} holds part of the secret"
        );
    }
}

#[test]
fn a_failing_hanging_or_lying_extractor_falls_back_to_the_local_pipeline() {
    let env = store("recommended-semi-auto");
    let text = "Gotcha: the PDF renderer in `src/pdf/render.rs` leaks file handles when a font is missing, so long batch runs crash.";
    let cases = [
        ("exit 3", "exited with status 3"),
        ("sleep 30", "timed out after 1s"),
        ("echo 'here are your memories!'", "not JSON"),
        (r#"echo '{"memories":[{"type":"gotcha"}]}'"#, "memories[0]"),
    ];
    for (i, (command, why)) in cases.iter().enumerate() {
        let out = env
            .command(["--format", "json", "capture", "--dry-run", "--input", text])
            .env(
                "BRAIN_EXTRACTOR_COMMAND",
                format!("cat >/dev/null; {command}"),
            )
            .env("BRAIN_EXTRACTOR_TIMEOUT", "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{command}: {stderr}");
        let json = crate::common::validate_json("capture", &stdout);
        assert_eq!(json["extractor"]["kind"], "local", "{command}");
        let reason = json["extractor"]["fallback_reason"].as_str().unwrap();
        assert!(reason.contains(why), "{command}: {reason}");
        assert_eq!(
            json["written"].as_array().unwrap().len(),
            1,
            "{command}: {json}"
        );
        assert!(stderr.contains("using the local pipeline"), "{stderr}");
        let log = std::fs::read_to_string(env.root().join(".brain/runtime/extractor.log")).unwrap();
        assert_eq!(log.lines().count(), i + 1, "{log}");
        assert!(
            log.lines().last().unwrap().contains(why),
            "{command}: {log}"
        );
    }
    // A good extractor's drafts are used as they are.
    let good = r#"cat >/dev/null; echo '{"memories":[{"type":"gotcha","title":"PDF renderer leaks file handles","summary":"A missing font leaks a handle per page.","paths":["src/pdf/render.rs"]}]}'"#;
    let out = env
        .command(["--format", "json", "capture", "--input", text])
        .env("BRAIN_EXTRACTOR_COMMAND", good)
        .output()
        .unwrap();
    let json = crate::common::validate_json("capture", &String::from_utf8_lossy(&out.stdout));
    assert_eq!(json["extractor"]["kind"], "external");
    assert_eq!(
        json["written"][0]["title"],
        "PDF renderer leaks file handles"
    );
    assert_eq!(count(&env, "candidate"), 1);
}

#[test]
fn a_plain_cursorrules_file_becomes_one_candidate_per_rule() {
    let env = store("recommended-semi-auto");
    std::fs::copy(fixture("cursorrules"), env.root().join(".cursorrules")).unwrap();
    let (json, _) = env.brain_json("import-rules", &["import", ".cursorrules"]);
    let file = &json["files"][0];
    assert_eq!(file["format"], "cursor_rules");
    let titles: Vec<&str> = file["written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Always use functional components with hooks; never class components",
            "Put shared types in `src/types/` and import them with the `@/types` alias",
            "Never call `fetch` directly in components",
            "Prefer named exports over default exports",
        ]
    );
    assert_eq!(
        file["written"][1]["paths"],
        serde_json::json!(["src/types/**"])
    );
    assert_eq!(
        file["written"][2]["paths"],
        serde_json::json!(["src/lib/api.ts"])
    );
    // The persona line is not a rule.
    assert_eq!(file["rejected"][0]["reason"], "weak_type_signal");
}
