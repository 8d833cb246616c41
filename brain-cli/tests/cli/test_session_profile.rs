//! `brain session set|show|clear|promote`: the session profile in
//! `.brain/runtime/session-profile.json`. Every flag and negation is read
//! back through `show --format json`; the profile never changes a tracked
//! file; `promote` writes candidates once.

use serde_json::{Value, json};

use crate::common::{TestEnv, validate_json};

const PROFILE: &str = ".brain/runtime/session-profile.json";
const GITHUB_TOKEN: &str = "ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1234";

/// The example store, committed, so that `git status` shows what a command
/// changed.
fn committed_example() -> TestEnv {
    let env = TestEnv::example();
    env.git(&["init", "-q", "-b", "main"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "example store"]);
    env
}

fn status(env: &TestEnv) -> String {
    env.git(&["status", "--porcelain", "--untracked-files=all"])
}

/// `brain session set <args>`, which must succeed.
fn set(env: &TestEnv, args: &[&str]) {
    let mut full = vec!["session", "set"];
    full.extend_from_slice(args);
    env.brain(&full).success();
}

/// The stored profile as `show --format json` reports it (`null` when none).
fn profile(env: &TestEnv) -> Value {
    let (json, out) = env.brain_json("session-show", &["session", "show"]);
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["exists"], !json["profile"].is_null(), "{json}");
    json["profile"].clone()
}

fn profile_bytes(env: &TestEnv) -> Option<Vec<u8>> {
    std::fs::read(env.root().join(PROFILE)).ok()
}

#[test]
fn help_of_session_commands() {
    let env = TestEnv::empty();
    for cmd in [
        &["session", "--help"][..],
        &["session", "set", "--help"],
        &["session", "show", "--help"],
        &["session", "clear", "--help"],
        &["session", "promote", "--help"],
    ] {
        insta::assert_snapshot!(
            format!("help_{}", cmd[..cmd.len() - 1].join("_")),
            env.brain(cmd).success()
        );
    }
}

#[test]
fn show_without_a_profile_says_so_and_succeeds() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["session", "show"]), @"
    no session profile (.brain/runtime/session-profile.json)
    [exit status: 0]
    ");
    insta::assert_snapshot!(env.brain(["--format", "json", "session", "show"]), @r#"
    {
      "path": ".brain/runtime/session-profile.json",
      "exists": false,
      "profile": null
    }
    [exit status: 0]
    "#);
    assert!(profile(&env).is_null());
}

#[test]
fn every_flag_and_its_negation_round_trip() {
    let env = TestEnv::example();
    let flags = ["minimal_change", "skip_full_tests", "no_schema_changes"];
    let mut want =
        json!({"minimal_change": false, "skip_full_tests": false, "no_schema_changes": false});
    // Each flag on, then each negation (and alias) off again, one at a time:
    // a flag never changes another, and a negation is never ignored.
    let steps: [(&str, &str, bool); 12] = [
        ("--minimal-change", "minimal_change", true),
        ("--skip-full-tests", "skip_full_tests", true),
        ("--no-schema-changes", "no_schema_changes", true),
        ("--no-minimal-change", "minimal_change", false),
        ("--full-tests", "skip_full_tests", false),
        ("--schema-changes", "no_schema_changes", false),
        ("--minimal-change", "minimal_change", true),
        ("--skip-full-tests", "skip_full_tests", true),
        ("--no-schema-changes", "no_schema_changes", true),
        ("--no-skip-full-tests", "skip_full_tests", false),
        ("--allow-schema-changes", "no_schema_changes", false),
        ("--no-minimal-change", "minimal_change", false),
    ];
    for (flag, key, value) in steps {
        set(&env, &[flag]);
        want[key] = json!(value);
        let got = profile(&env);
        for k in flags {
            assert_eq!(got[k], want[k], "after {flag}: {k} in {got}");
        }
        assert_eq!(got["updated_at"], "2026-11-20T12:00:00Z");
    }
    // Both of a pair at once is a usage error that writes nothing.
    let before = profile_bytes(&env);
    for pair in [
        ["--minimal-change", "--no-minimal-change"],
        ["--skip-full-tests", "--full-tests"],
        ["--skip-full-tests", "--no-skip-full-tests"],
        ["--no-schema-changes", "--schema-changes"],
        ["--no-schema-changes", "--allow-schema-changes"],
    ] {
        let out = env.brain(["session", "set", pair[0], pair[1]]);
        assert_eq!(out.status, 2, "{out}");
        assert!(out.stderr.contains("cannot be used with"), "{out}");
        assert_eq!(profile_bytes(&env), before);
    }
}

#[test]
fn every_skill_and_hint_option_round_trips() {
    let env = TestEnv::example();
    let lists = |p: &Value| {
        json!({
            "prefer": p["prefer_skills"], "avoid": p["avoid_skills"],
            "review": p["review_skills"], "hints": p["hints"],
        })
    };
    // (arguments, the lists afterwards)
    let steps: Vec<(Vec<&str>, Value)> = vec![
        (
            vec![
                "touch only the ledger module",
                "--prefer-skill",
                "Playwright E2E",
            ],
            json!({"prefer": ["playwright-e2e"], "avoid": [], "review": [], "hints": ["touch only the ledger module"]}),
        ),
        (
            vec![
                "--avoid-skill",
                "legacy_router",
                "--avoid-skill",
                "full-test-suite",
            ],
            json!({"prefer": ["playwright-e2e"], "avoid": ["full-test-suite", "legacy-router"], "review": [], "hints": ["touch only the ledger module"]}),
        ),
        (
            vec!["--review-skill", "db-migrate", "no new  dependencies"],
            json!({"prefer": ["playwright-e2e"], "avoid": ["full-test-suite", "legacy-router"], "review": ["db-migrate"], "hints": ["touch only the ledger module", "no new dependencies"]}),
        ),
        (
            vec!["--drop-skill", "full-test-suite"],
            json!({"prefer": ["playwright-e2e"], "avoid": ["legacy-router"], "review": ["db-migrate"], "hints": ["touch only the ledger module", "no new dependencies"]}),
        ),
        (
            vec!["--clear-hints", "only billing"],
            json!({"prefer": ["playwright-e2e"], "avoid": ["legacy-router"], "review": ["db-migrate"], "hints": ["only billing"]}),
        ),
        (
            vec!["--clear-skills", "--review-skill", "auth-change"],
            json!({"prefer": [], "avoid": [], "review": ["auth-change"], "hints": ["only billing"]}),
        ),
        (
            vec!["--replace", "--prefer-skill", "superpowers:tdd"],
            json!({"prefer": ["superpowers:tdd"], "avoid": [], "review": [], "hints": []}),
        ),
    ];
    for (args, want) in steps {
        set(&env, &args);
        assert_eq!(lists(&profile(&env)), want, "after {args:?}");
    }
}

#[test]
fn set_merges_and_replace_starts_over() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain([
        "session", "set", "touch only the ledger module",
        "--prefer-skill", "playwright-e2e", "--avoid-skill", "legacy-router",
        "--minimal-change", "--no-schema-changes",
    ]), @"
    session profile .brain/runtime/session-profile.json, updated 2026-11-20T12:00:00Z
      prefer skills      playwright-e2e
      avoid skills       legacy-router
      review skills      -
      hints              touch only the ledger module
      minimal change     yes
      skip full tests    no
      no schema changes  yes
    --- stderr ---
    created .brain/runtime/session-profile.json
    [exit status: 0]
    ");
    insta::assert_snapshot!(env.brain(["session", "set", "--review-skill", "db-migrate", "--skip-full-tests"]), @"
    session profile .brain/runtime/session-profile.json, updated 2026-11-20T12:00:00Z
      prefer skills      playwright-e2e
      avoid skills       legacy-router
      review skills      db-migrate
      hints              touch only the ledger module
      minimal change     yes
      skip full tests    yes
      no schema changes  yes
    --- stderr ---
    updated .brain/runtime/session-profile.json
    [exit status: 0]
    ");
    let merged = profile(&env);
    assert_eq!(merged["prefer_skills"], json!(["playwright-e2e"]));
    assert_eq!(merged["review_skills"], json!(["db-migrate"]));
    assert_eq!(merged["minimal_change"], true);
    insta::assert_snapshot!(env.brain(["session", "set", "--replace", "--avoid-skill", "legacy-router"]), @"
    session profile .brain/runtime/session-profile.json, updated 2026-11-20T12:00:00Z
      prefer skills      -
      avoid skills       legacy-router
      review skills      -
      hints              -
      minimal change     no
      skip full tests    no
      no schema changes  no
    --- stderr ---
    replaced .brain/runtime/session-profile.json
    [exit status: 0]
    ");
    let (json, out) = env.brain_json(
        "session-set",
        &["session", "set", "--replace", "only billing"],
    );
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["replaced"], true);
    assert_eq!(json["created"], false);
    assert_eq!(
        json["profile"],
        json!({
            "updated_at": "2026-11-20T12:00:00Z",
            "prefer_skills": [], "avoid_skills": [], "review_skills": [],
            "hints": ["only billing"],
            "minimal_change": false, "skip_full_tests": false, "no_schema_changes": false,
        })
    );
    assert_eq!(json["profile"], profile(&env));
    // The file itself is the profile, valid against its schema.
    let text = std::fs::read_to_string(env.root().join(PROFILE)).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file, json["profile"]);
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            crate::common::workspace().join("schemas/session-profile.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&file), "{text}");
    assert!(!validator.is_valid(&json!({"prefer_skill": []})));
}

#[test]
fn a_later_call_moves_a_skill_between_lists() {
    let env = TestEnv::example();
    set(
        &env,
        &[
            "--prefer-skill",
            "playwright-e2e",
            "--review-skill",
            "legacy-router",
        ],
    );
    insta::assert_snapshot!(env.brain([
        "session", "set", "--avoid-skill", "Playwright_E2E", "--avoid-skill", "legacy-router",
    ]), @"
    session profile .brain/runtime/session-profile.json, updated 2026-11-20T12:00:00Z
      prefer skills      -
      avoid skills       legacy-router
                         playwright-e2e
      review skills      -
      hints              -
      minimal change     no
      skip full tests    no
      no schema changes  no
    --- stderr ---
    moved `legacy-router` from review_skills to avoid_skills
    moved `playwright-e2e` from prefer_skills to avoid_skills
    updated .brain/runtime/session-profile.json
    [exit status: 0]
    ");
    let (json, _) = env.brain_json(
        "session-set",
        &["session", "set", "--prefer-skill", "legacy-router"],
    );
    assert_eq!(
        json["moved"],
        json!([{"skill": "legacy-router", "from": "avoid_skills", "to": "prefer_skills"}])
    );
    assert_eq!(json["profile"]["prefer_skills"], json!(["legacy-router"]));
    assert_eq!(json["profile"]["avoid_skills"], json!(["playwright-e2e"]));
    let out = env.brain(["session", "set", "--drop-skill", "never-there"]);
    insta::assert_snapshot!(out, @"
    session profile .brain/runtime/session-profile.json, updated 2026-11-20T12:00:00Z
      prefer skills      legacy-router
      avoid skills       playwright-e2e
      review skills      -
      hints              -
      minimal change     no
      skip full tests    no
      no schema changes  no
    --- stderr ---
    warning: `never-there` is in no skill list of the session profile; nothing to drop
    updated .brain/runtime/session-profile.json
    [exit status: 0]
    ");
}

#[test]
fn one_skill_in_two_lists_of_one_call_is_refused_and_nothing_written() {
    let env = TestEnv::example();
    let refused = [
        vec![
            "--prefer-skill",
            "playwright-e2e",
            "--avoid-skill",
            "Playwright E2E",
        ],
        vec![
            "--avoid-skill",
            "db-migrate",
            "--review-skill",
            "db-migrate",
        ],
        vec!["--prefer-skill", "x", "--review-skill", "x"],
        vec!["--prefer-skill", "x", "--drop-skill", "x"],
    ];
    // Without a profile no file appears; with one it keeps its bytes.
    for existing in [false, true] {
        if existing {
            set(&env, &["a hint", "--prefer-skill", "x"]);
        }
        let before = profile_bytes(&env);
        assert_eq!(before.is_some(), existing);
        for args in &refused {
            let mut full = vec!["session", "set", "a new hint"];
            full.extend_from_slice(args);
            let out = env.brain(&full);
            assert_eq!(out.status, 2, "{out}");
            assert_eq!(profile_bytes(&env), before, "{args:?}");
        }
    }
    insta::assert_snapshot!(env.brain([
        "session", "set", "--prefer-skill", "playwright-e2e", "--avoid-skill", "Playwright E2E",
    ]), @"
    --- stderr ---
    error: skill `playwright-e2e` cannot be both preferred and avoided in one request
    hint: give each skill to one list per call; a later call that names it again moves it
    [exit status: 2]
    ");
    let (json, out) = env.brain_json(
        "error",
        &[
            "session",
            "set",
            "--avoid-skill",
            "a",
            "--review-skill",
            "A",
        ],
    );
    assert_eq!(out.status, 2);
    assert_eq!(
        json["error"]["message"],
        "skill `a` cannot be both avoided and sent to review in one request"
    );
    insta::assert_snapshot!(env.brain(["session", "set"]), @"
    --- stderr ---
    error: nothing to set: give a hint, a skill or a flag
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["session", "set", "--prefer-skill", " - "]), @"
    --- stderr ---
    error: invalid skill: ` - ` is not a skill name: nothing is left once it is normalised
    [exit status: 2]
    ");
}

#[test]
fn a_corrupt_profile_is_an_error_naming_the_file() {
    let env = TestEnv::example();
    std::fs::create_dir_all(env.root().join(".brain/runtime")).unwrap();
    let file = env.root().join(PROFILE);
    for (text, name) in [
        ("{\n  \"prefer_skills\": [\"a\",\n", "truncated"),
        ("{\"prefer_skill\": [\"a\"]}\n", "unknown_key"),
        ("{\"minimal_change\": \"yes\"}\n", "wrong_type"),
    ] {
        std::fs::write(&file, text).unwrap();
        insta::assert_snapshot!(
            format!("corrupt_show_{name}"),
            env.brain(["session", "show"])
        );
    }
    let (json, out) = env.brain_json("error", &["session", "show"]);
    assert_eq!(out.status, 2);
    assert_eq!(
        json["error"]["message"],
        "invalid session profile `.brain/runtime/session-profile.json` at line 1 column 24"
    );
    // Merging into it and promoting it are refused and leave it as it is.
    for args in [
        vec!["session", "set", "--minimal-change"],
        vec!["session", "promote", "--to", "memory"],
        vec!["session", "promote", "--to", "preference"],
    ] {
        let out = env.brain(&args);
        assert_eq!(out.status, 2, "{out}");
        assert!(
            out.stderr.contains("hint: run `brain session clear`"),
            "{out}"
        );
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "{\"minimal_change\": \"yes\"}\n"
        );
    }
    // `--replace` does not read it; `clear` removes it.
    set(&env, &["--replace", "fresh start"]);
    assert_eq!(profile(&env)["hints"], json!(["fresh start"]));
    std::fs::write(&file, "not json").unwrap();
    insta::assert_snapshot!(env.brain(["session", "clear"]), @"
    removed .brain/runtime/session-profile.json
    [exit status: 0]
    ");
    assert!(!file.exists());
}

#[test]
fn clear_is_idempotent() {
    let env = TestEnv::example();
    set(&env, &["--minimal-change"]);
    let (json, _) = env.brain_json("session-clear", &["session", "clear"]);
    assert_eq!(json, json!({"path": PROFILE, "removed": true}));
    insta::assert_snapshot!(env.brain(["session", "clear"]), @"
    no session profile to remove (.brain/runtime/session-profile.json)
    [exit status: 0]
    ");
    let (json, _) = env.brain_json("session-clear", &["session", "clear"]);
    assert_eq!(json["removed"], false);
    assert!(profile(&env).is_null());
}

#[test]
fn the_profile_never_changes_a_tracked_file() {
    let env = committed_example();
    for args in [
        vec!["session", "show"],
        vec![
            "session",
            "set",
            "touch only the ledger module",
            "--prefer-skill",
            "playwright-e2e",
            "--minimal-change",
        ],
        vec![
            "session",
            "set",
            "--avoid-skill",
            "playwright-e2e",
            "--full-tests",
        ],
        vec!["--format", "json", "session", "show"],
        vec!["session", "show"],
        vec!["session", "clear"],
        vec!["session", "clear"],
    ] {
        env.brain(&args).success();
        assert_eq!(status(&env), "", "after {args:?}");
    }
}

#[test]
fn promote_to_preference_writes_each_candidate_once() {
    let env = committed_example();
    set(
        &env,
        &[
            "--prefer-skill",
            "playwright-e2e",
            "--avoid-skill",
            "legacy-router",
            "--review-skill",
            "db-migrate",
            "--minimal-change",
        ],
    );
    let first = env.brain(["session", "promote", "--to", "preference"]);
    insta::assert_snapshot!("promote_preference_first", first);
    let changed = status(&env);
    let mut files: Vec<&str> = changed.lines().collect();
    files.sort_unstable();
    assert_eq!(files.len(), 3, "{changed}");
    assert!(
        files
            .iter()
            .all(|l| l.starts_with("?? .brain/preferences/")),
        "{changed}"
    );
    for line in &files {
        let path = line.trim_start_matches("?? ");
        let text = std::fs::read_to_string(env.root().join(path)).unwrap();
        assert!(text.contains("status: candidate\n"), "{text}");
        assert!(text.contains("  source: session\n"), "{text}");
        assert!(
            text.contains("session profile .brain/runtime/session-profile.json"),
            "{text}"
        );
    }
    insta::assert_snapshot!(
        "promote_preference_file",
        std::fs::read_to_string(env.root().join(files[2].trim_start_matches("?? "))).unwrap()
    );
    // Again, later and by someone else: nothing new.
    let again = env
        .command([
            "--format",
            "json",
            "session",
            "promote",
            "--to",
            "preference",
        ])
        .env("BRAIN_NOW", "2026-11-21T08:00:00Z")
        .env("BRAIN_ACTOR", "Lee Park <lee@tollbooth.example>")
        .output()
        .unwrap();
    assert!(again.status.success());
    let json = validate_json("session-promote", &String::from_utf8(again.stdout).unwrap());
    assert_eq!(json["written"], json!([]));
    assert_eq!(json["unchanged"].as_array().unwrap().len(), 3, "{json}");
    assert!(
        json["unchanged"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["status"] == "candidate")
    );
    assert_eq!(status(&env), changed);
    // Once a candidate is dismissed, promoting again does not propose it anew.
    let dismissed = env
        .root()
        .join(json["unchanged"][0]["path"].as_str().unwrap());
    let text = std::fs::read_to_string(&dismissed).unwrap();
    std::fs::write(
        &dismissed,
        text.replace("status: candidate", "status: dismissed")
            .replace("state: pending", "state: rejected"),
    )
    .unwrap();
    let (json, _) = env.brain_json(
        "session-promote",
        &["session", "promote", "--to", "preference"],
    );
    assert_eq!(json["written"], json!([]));
    assert_eq!(json["unchanged"][0]["status"], "dismissed");
    // The promoted preferences lint clean.
    env.brain(["lint"]).success();
}

#[test]
fn promote_to_preference_relates_to_team_preferences() {
    let env = committed_example();
    // The example's `prefer-playwright-e2e-109afbaf` has hints, so it is not
    // the same scope as a global session wish; global ones written by hand
    // are: the same policy is not proposed again, another policy is named.
    let team = |id: &str, target: &str, preference: &str| {
        std::fs::write(
            env.root().join(format!(".brain/preferences/{id}.yaml")),
            format!(
                "schema_version: 1\nid: {id}\nstatus: active\ntarget_type: skill\n\
                 target: {target}\npreference: {preference}\nprovenance:\n  source: manual\n  \
                 captured_at: \"2026-01-01T00:00:00Z\"\n"
            ),
        )
        .unwrap();
    };
    team("prefer-red-green-0000aaaa", "Red Green_Refactor", "prefer");
    team("avoid-auth-change-0000bbbb", "auth-change", "avoid");
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "team preferences"]);
    set(
        &env,
        &[
            "--prefer-skill",
            "red-green-refactor",
            "--prefer-skill",
            "playwright-e2e",
            "--prefer-skill",
            "auth-change",
        ],
    );
    let out = env.brain(["session", "promote", "--to", "preference"]);
    insta::assert_snapshot!(out, @"
    wrote      .brain/preferences/prefer-auth-change-bad1c15b.yaml     candidate  prefer auth-change
    wrote      .brain/preferences/prefer-playwright-e2e-b384ab9f.yaml  candidate  prefer playwright-e2e
    unchanged  .brain/preferences/prefer-red-green-0000aaaa.yaml       active     prefer Red Green_Refactor
    2 candidates written, 1 already in the store
    --- stderr ---
    warning: `prefer auth-change` contradicts the active preference `avoid-auth-change-0000bbbb`; it stays a candidate until one of them is retired
    the candidates wait for review; routing ignores them until approved
    [exit status: 0]
    ");
    let (json, out) = env.brain_json(
        "session-promote",
        &["session", "promote", "--to", "preference"],
    );
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["written"], json!([]));
    let unchanged: Vec<&str> = json["unchanged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(unchanged.len(), 3, "{json}");
    assert!(unchanged.contains(&"prefer-red-green-0000aaaa"), "{json}");
    assert_eq!(status(&env).lines().count(), 2, "{}", status(&env));
}

#[test]
fn promote_to_memory_writes_one_convention_once() {
    let env = committed_example();
    set(
        &env,
        &[
            "touch only the ledger module",
            "no new dependencies",
            "--prefer-skill",
            "playwright-e2e",
            "--no-schema-changes",
            "--skip-full-tests",
        ],
    );
    let first = env.brain(["session", "promote", "--to", "memory"]);
    insta::assert_snapshot!("promote_memory_first", first);
    let changed = status(&env);
    assert_eq!(changed.lines().count(), 1, "{changed}");
    let path = changed.trim().trim_start_matches("?? ");
    assert!(path.starts_with(".brain/conventions/"), "{changed}");
    insta::assert_snapshot!(
        "promote_memory_file",
        std::fs::read_to_string(env.root().join(path)).unwrap()
    );
    let (json, _) = env.brain_json("session-promote", &["session", "promote", "--to", "memory"]);
    assert_eq!(json["written"], json!([]));
    assert_eq!(json["unchanged"][0]["path"], path);
    assert_eq!(status(&env), changed);
    // The profile is left as it is.
    assert_eq!(
        profile(&env)["hints"],
        json!(["touch only the ledger module", "no new dependencies"])
    );
    env.brain(["lint"]).success();
}

#[test]
fn promote_filters_by_skill_and_hint() {
    let env = committed_example();
    set(
        &env,
        &[
            "touch only the ledger module",
            "no new dependencies",
            "--prefer-skill",
            "playwright-e2e",
            "--avoid-skill",
            "legacy-router",
            "--minimal-change",
        ],
    );
    let (json, _) = env.brain_json(
        "session-promote",
        &[
            "session",
            "promote",
            "--to",
            "preference",
            "--skill",
            "Legacy Router",
        ],
    );
    let written: Vec<&str> = json["written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["description"].as_str().unwrap())
        .collect();
    assert_eq!(written, ["avoid legacy-router"]);
    let (json, _) = env.brain_json(
        "session-promote",
        &[
            "session",
            "promote",
            "--to",
            "memory",
            "--hint",
            "no new dependencies",
        ],
    );
    assert_eq!(json["written"][0]["description"], "No new dependencies");
    assert_eq!(status(&env).lines().count(), 2, "{}", status(&env));
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "preference", "--skill", "nope"]), @"
    --- stderr ---
    error: invalid skill: `nope` is in no skill list of the session profile
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "memory", "--hint", "other"]), @"
    --- stderr ---
    error: invalid hint: `other` is not a hint of the session profile
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "memory", "--skill", "x"]), @"
    --- stderr ---
    error: `--skill` goes with `--to preference`
    hint: run `brain session promote --help` for usage
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "preference", "--hint", "x"]), @"
    --- stderr ---
    error: `--hint` goes with `--to memory`
    hint: run `brain session promote --help` for usage
    [exit status: 2]
    ");
    assert_eq!(status(&env).lines().count(), 2);
}

#[test]
fn promote_needs_a_profile_with_something_in_it() {
    let env = committed_example();
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "memory"]), @"
    --- stderr ---
    error: there is no session profile (`.brain/runtime/session-profile.json`)
    hint: run `brain session set` to create one
    [exit status: 2]
    ");
    set(&env, &["--prefer-skill", "playwright-e2e"]);
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "memory"]), @"
    --- stderr ---
    error: nothing to promote: the session profile has no hints and no flag set
    [exit status: 2]
    ");
    set(&env, &["--replace", "a hint"]);
    insta::assert_snapshot!(env.brain(["session", "promote", "--to", "preference"]), @"
    --- stderr ---
    error: nothing to promote: the session profile lists no skills
    [exit status: 2]
    ");
    assert_eq!(status(&env), "");
}

#[test]
fn secrets_in_hints_never_reach_a_file() {
    let env = committed_example();
    let hint = format!("push with {GITHUB_TOKEN}");
    let out = env.brain(["session", "set", hint.as_str()]);
    assert_eq!(out.status, 0, "{out}");
    assert!(!out.stdout.contains(GITHUB_TOKEN) && !out.stderr.contains(GITHUB_TOKEN));
    assert!(
        out.stderr
            .contains("warning: redacted github_token in hint 1 of the session profile"),
        "{out}"
    );
    let stored = std::fs::read_to_string(env.root().join(PROFILE)).unwrap();
    assert!(
        stored.contains("push with [REDACTED:github_token]"),
        "{stored}"
    );
    assert!(!stored.contains(GITHUB_TOKEN));

    // A profile written by hand (or by another tool) still goes through the
    // firewall when promoted.
    std::fs::write(
        env.root().join(PROFILE),
        format!("{{\"hints\": [\"deploy with {GITHUB_TOKEN}\"]}}\n"),
    )
    .unwrap();
    let (json, out) = env.brain_json("session-promote", &["session", "promote", "--to", "memory"]);
    assert_eq!(out.status, 0, "{out}");
    assert!(
        out.stderr
            .contains("warning: redacted github_token in hints of "),
        "{out}"
    );
    assert_eq!(json["redactions"][0]["kind"], "github_token");
    assert!(!out.stdout.contains(GITHUB_TOKEN));
    let path = json["written"][0]["path"].as_str().unwrap();
    let text = std::fs::read_to_string(env.root().join(path)).unwrap();
    assert!(
        !text.contains(GITHUB_TOKEN) && !path.contains("ghp"),
        "{text}"
    );
    assert!(text.contains("[REDACTED:github_token]"), "{text}");
}

#[test]
fn json_outputs_match_their_schemas() {
    let env = TestEnv::example();
    env.brain_json("session-show", &["session", "show"]);
    let (set, _) = env.brain_json(
        "session-set",
        &["session", "set", "a", "--prefer-skill", "x"],
    );
    assert_eq!(set["created"], true);
    assert_eq!(set["path"], PROFILE);
    env.brain_json("session-show", &["session", "show"]);
    env.brain_json(
        "session-promote",
        &["session", "promote", "--to", "preference"],
    );
    env.brain_json("session-promote", &["session", "promote", "--to", "memory"]);
    env.brain_json("session-clear", &["session", "clear"]);
}
