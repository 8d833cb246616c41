//! Rule files end to end: one memory per rule, `@file` imports, spans that
//! make a re-import a no-op after merges, scopes that are real paths; paths
//! given from anywhere; and the always-on index at session start.

use crate::common::TestEnv;

const CLAUDE_MD: &str =
    "@AGENTS.md\n\n## Claude only\n\n- NEVER add yourself as a co-author of a commit.\n";

const AGENTS_MD: &str = "# Guide

- ALWAYS run `cargo xwin clippy` before pushing a change that touches Windows code.
- NEVER update all dependencies in the lockfile; use `cargo update --precise`.
- PREFER `if let` chains over nested matches in `lock/mod.rs` and elsewhere.
- AVOID `.unwrap()` in library code; I/O errors must carry their path.

## Patches

**Key rules:**

- Fix existing patches rather than creating new ones for every upstream change.
- Never change TODO assignees (`TODO(name)` must retain the original name).

## Install

```bash
npm i -g @example/build-tools
```
";

/// A repository with CLAUDE.md importing AGENTS.md, and one source file.
fn repo() -> TestEnv {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    std::fs::write(env.root().join("CLAUDE.md"), CLAUDE_MD).unwrap();
    std::fs::write(env.root().join("AGENTS.md"), AGENTS_MD).unwrap();
    std::fs::create_dir_all(env.root().join("crates/resolver/src/lock")).unwrap();
    std::fs::write(
        env.root().join("crates/resolver/src/lock/mod.rs"),
        "// lock\n",
    )
    .unwrap();
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "rules"]);
    env.brain(["init"]).success();
    env
}

fn titles(json: &serde_json::Value) -> Vec<String> {
    json["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["written"].as_array().unwrap().iter())
        .map(|w| w["title"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn claude_md_imports_agents_md_once_with_one_memory_per_rule() {
    let env = repo();
    let out = env.brain(["import", "CLAUDE.md", "AGENTS.md"]).success();
    insta::assert_snapshot!(out);
    let (json, _) = env.brain_json("import-rules", &["import", "--dry-run", "CLAUDE.md"]);
    // Already imported: nothing to write.
    assert!(titles(&json).is_empty(), "{json}");
    let (list, _) = env.brain_json("list", &["list", "--status", "candidate"]);
    let memories = list["memories"].as_array().unwrap();
    let all_titles: Vec<&str> = memories
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    assert_eq!(memories.len(), 8, "{all_titles:?}");
    assert!(all_titles.iter().all(|t| !t.starts_with("Untitled")));
    assert!(all_titles.contains(&"Install"), "{all_titles:?}");
    assert!(
        all_titles.contains(
            &"Fix existing patches rather than creating new ones for every upstream change"
        ),
        "{all_titles:?}"
    );
    // Scopes: the partial path resolves to the tracked file; `.unwrap()`
    // and `I/O` are not paths.
    let scopes: Vec<String> = memories
        .iter()
        .map(|m| {
            let (show, _) = env.brain_json("show", &["show", m["id"].as_str().unwrap()]);
            show["memory"]["scope"]["paths"].to_string()
        })
        .collect();
    assert!(
        scopes.contains(&r#"["crates/resolver/src/lock/mod.rs"]"#.to_owned()),
        "{scopes:?}"
    );
    assert!(
        scopes
            .iter()
            .all(|s| !s.contains("unwrap") && !s.contains("I/O")),
        "{scopes:?}"
    );
}

#[test]
fn a_second_import_writes_nothing_even_after_approval_merged_candidates() {
    let env = repo();
    env.brain(["import", "CLAUDE.md"]).success();
    env.brain(["approve", "--all"]).success();
    let before = env.git(&["status", "--porcelain", "--untracked-files=all"]);
    let (json, _) = env.brain_json("import-rules", &["import", "CLAUDE.md", "AGENTS.md"]);
    assert!(titles(&json).is_empty(), "{json}");
    assert_eq!(
        env.git(&["status", "--porcelain", "--untracked-files=all"]),
        before
    );
    // A rule merged into another memory by hand is still recognised.
    let (list, _) = env.brain_json("list", &["list"]);
    let ids: Vec<String> = list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_owned())
        .collect();
    let victim = ids.last().unwrap();
    let file = list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == victim.as_str())
        .unwrap()["path"]
        .as_str()
        .unwrap()
        .to_owned();
    let text = std::fs::read_to_string(env.root().join(&file)).unwrap();
    let span = text
        .lines()
        .skip_while(|l| !l.contains("kind: span"))
        .nth(1)
        .unwrap()
        .trim()
        .trim_start_matches("value: ")
        .to_owned();
    std::fs::remove_file(env.root().join(&file)).unwrap();
    // The span now lives on another memory's evidence, as a merge leaves it.
    let keeper = list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] != victim.as_str())
        .unwrap()["path"]
        .as_str()
        .unwrap()
        .to_owned();
    let keeper_text = std::fs::read_to_string(env.root().join(&keeper)).unwrap();
    let keeper_text = keeper_text.replacen(
        "  - kind: span\n",
        &format!("  - kind: span\n    value: {span}\n  - kind: span\n"),
        1,
    );
    std::fs::write(env.root().join(&keeper), keeper_text).unwrap();
    env.brain(["lint"]).success();
    let (json, _) = env.brain_json("import-rules", &["import", "CLAUDE.md"]);
    assert!(titles(&json).is_empty(), "{json}");
}

#[test]
fn paths_from_anywhere_match_like_paths_from_the_root() {
    let env = repo();
    env.brain(["import", "CLAUDE.md"]).success();
    env.brain(["approve", "--all"]).success();
    let task = "make the resolver lock code easier to read";
    let ids = |json: &serde_json::Value| -> (serde_json::Value, Vec<String>) {
        let ids = json["selected"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_owned())
            .collect();
        (json["paths"].clone(), ids)
    };
    let from_root = |path: &str| {
        let (json, _) = env.brain_json("inject", &["inject", "--task", task, "--path", path]);
        ids(&json)
    };
    let expected = from_root("crates/resolver/src/lock/mod.rs");
    assert_eq!(
        expected.0,
        serde_json::json!(["crates/resolver/src/lock/mod.rs"])
    );
    let abs = env.root().join("crates/resolver/src/lock/mod.rs");
    assert_eq!(from_root(abs.to_str().unwrap()), expected);
    assert_eq!(from_root("./crates/resolver/src/lock/mod.rs"), expected);
    assert_eq!(from_root("crates\\resolver\\src\\lock\\mod.rs"), expected);
    // From a subdirectory, relative to it.
    let sub = env.root().join("crates/resolver");
    let json_of = |cmd: &mut std::process::Command| -> serde_json::Value {
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let json = json_of(
        env.command([
            "--format",
            "json",
            "inject",
            "--task",
            task,
            "--path",
            "src/lock/mod.rs",
        ])
        .current_dir(&sub),
    );
    assert_eq!(ids(&json), expected);
    assert!(!expected.1.is_empty());
    // With `-C` from outside the root, relative to the root, as `git -C`
    // reads it.
    let elsewhere = tempfile::tempdir().unwrap();
    let json = json_of(
        env.command(["--format", "json", "-C"])
            .arg(env.root())
            .args(["inject", "--task", task, "--path"])
            .arg("crates/resolver/src/lock/mod.rs")
            .current_dir(elsewhere.path()),
    );
    assert_eq!(ids(&json), expected);
    // Outside the repository: a warning, left out.
    let out = env
        .brain(["inject", "--task", task, "--path", "/etc/hosts"])
        .success();
    assert!(out.stderr.contains("outside the repository"), "{out}");
}

#[test]
fn working_tree_paths_leave_out_the_store_and_are_capped() {
    let env = repo();
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "store"]);
    for i in 0..230 {
        std::fs::write(env.root().join(format!("f{i:03}.txt")), "x\n").unwrap();
    }
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "files"]);
    for i in 0..230 {
        std::fs::write(env.root().join(format!("f{i:03}.txt")), "y\n").unwrap();
    }
    std::fs::write(env.root().join(".brain/config.yaml"), "schema_version: 1\n").unwrap();
    let (json, _) = env.brain_json("inject", &["inject", "--task", "tidy the files"]);
    let paths = json["paths"].as_array().unwrap();
    assert_eq!(json["path_source"], "git_diff");
    assert_eq!(paths.len(), 200);
    assert_eq!(json["paths_omitted"], 30);
    assert!(
        paths
            .iter()
            .all(|p| !p.as_str().unwrap().starts_with(".brain"))
    );
}

#[test]
fn session_start_gets_the_always_on_index() {
    let env = repo();
    env.brain(["import", "CLAUDE.md"]).success();
    env.brain(["approve", "--all"]).success();
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "store"]);
    let inject = env.brain(["inject"]).success();
    insta::assert_snapshot!(inject);
    for rule in [
        "ALWAYS run",
        "NEVER update all dependencies",
        "NEVER add yourself",
    ] {
        assert!(inject.stdout.contains(rule), "{rule}: {inject}");
    }
    assert!(!inject.stdout.contains("PREFER"), "{inject}");
    let (route, _) = env.brain_json("../route", &["route"]);
    assert_eq!(route["context"]["block"].as_str().unwrap(), inject.stdout);
    let (start, _) = env.brain_json("conversation-start", &["conversation-start", "--force"]);
    assert!(
        start["context"]["block"]
            .as_str()
            .unwrap()
            .contains("Always-on rules"),
        "{start}"
    );
    // A small budget holds fewer lines, never more tokens.
    let (small, _) = env.brain_json("inject", &["inject", "--budget", "80"]);
    assert!(small["used_tokens"].as_u64().unwrap() <= 80, "{small}");
}

#[test]
fn a_directory_imports_the_rule_files_under_it_and_windsurf_and_cline_files_are_rule_files() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    let rules = env.root().join(".cursor/rules/frontend");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(
        env.root().join(".cursor/rules/testing.mdc"),
        "---\nalwaysApply: true\n---\n\n- Run `pnpm test -- --watch false`; watch mode never exits in CI.\n",
    )
    .unwrap();
    std::fs::write(
        rules.join("react.mdc"),
        "---\nglobs: src/**/*.tsx\n---\n\n- Never call fetch inside a component; use the query hooks.\n",
    )
    .unwrap();
    std::fs::write(rules.join("notes.txt"), "not a rule file\n").unwrap();
    std::fs::write(
        env.root().join(".windsurfrules"),
        "# Style\n\n- Prefer named exports over default exports.\n",
    )
    .unwrap();
    std::fs::create_dir_all(env.root().join("empty")).unwrap();
    std::fs::write(env.root().join("empty/logo.png"), "png").unwrap();
    env.brain(["init"]).success();

    let (json, _) = env.brain_json(
        "import-rules",
        &["import", ".cursor/rules", ".windsurfrules"],
    );
    let files: Vec<&str> = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            ".cursor/rules/frontend/react.mdc",
            ".cursor/rules/testing.mdc",
            ".windsurfrules"
        ],
        "{json}"
    );
    assert_eq!(
        titles(&json),
        [
            "Never call fetch inside a component; use the query hooks",
            "Run `pnpm test -- --watch false`; watch mode never exits in CI",
            "Prefer named exports over default exports"
        ],
        "{json}"
    );

    // A directory without a rule file is an error that names it, and
    // nothing is written.
    let candidates = || {
        env.brain(["list", "--status", "candidate"])
            .success()
            .stdout
    };
    let before = candidates();
    let out = env.brain(["import", "empty"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(
        out.stderr
            .contains("empty: a directory with no rule file in it"),
        "{out}"
    );
    assert_eq!(candidates(), before);
}

/// A rule file's sections are guidance, never reports of work: a command
/// list, steps in the imperative and the definition of a kind of change
/// are imported, whatever words they open with.
#[test]
fn rule_file_sections_that_read_like_work_reports_are_still_imported() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    std::fs::write(
        env.root().join("AGENTS.md"),
        "## Commands\n\n\
         - Fast Go linting (changed packages): `make lint-code-fast`\n\
         - Formatting imports: `make fmt-imports`\n\n\
         ## Verification loop\n\n\
         1. Make changes\n\
         2. Format with prettier\n\
         3. Run `docker buildx bake lint vale`\n\n\
         ## Change types\n\n\
         Chore: typos, comments, build config, CI config, and similar work.\n",
    )
    .unwrap();
    env.brain(["init"]).success();
    let (json, _) = env.brain_json("import-rules", &["import", "AGENTS.md"]);
    let rejected = &json["files"][0]["rejected"];
    assert_eq!(rejected.as_array().map(Vec::len), Some(0), "{json}");
    assert_eq!(titles(&json).len(), 3, "{json}");
}

/// A rule edited in its rule file replaces, on the next import, the memory
/// the old wording made: the section it sits in pairs the two, however
/// little their words share, and approving carries the replacement out.
#[test]
fn an_edited_rule_replaces_the_memory_of_its_old_wording() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    let write = |testing: &str| {
        std::fs::write(
            env.root().join("AGENTS.md"),
            format!(
                "# Guide\n\n## Testing\n\n{testing}\n\n## Style\n\n\
                 - Use tabs for indentation in Go files.\n\
                 - NEVER commit generated files under dist/.\n"
            ),
        )
        .unwrap();
    };
    write("Run unit tests with `yarn jest`; the config is in jest.config.js.");
    env.brain(["init"]).success();
    env.brain(["import", "AGENTS.md"]).success();
    env.brain(["approve", "--all"]).success();
    let (list, _) = env.brain_json("list", &["list"]);
    let old = list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["title"].as_str().unwrap().contains("jest"))
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    write("Unit tests run under `pnpm vitest`, configured in web/vitest.config.ts.");
    let later = "2026-03-02T10:00:00Z";
    let (json, _) = env.brain_json_at(later, "import-rules", &["import", "AGENTS.md"]);
    let written = json["files"][0]["written"].as_array().unwrap();
    assert_eq!(written.len(), 1, "{json}");
    assert_eq!(written[0]["decision"], "supersede", "{json}");
    assert_eq!(written[0]["targets"][0], old.as_str(), "{json}");
    assert_eq!(
        json["files"][0]["unchanged"].as_array().unwrap().len(),
        2,
        "{json}"
    );
    // The old wording is replaced, not reported as dropped.
    assert_eq!(json["files"][0]["gone"], serde_json::json!([]), "{json}");

    let new = written[0]["id"].as_str().unwrap().to_owned();
    env.brain_with_env(&[("BRAIN_NOW", later)], ["approve", new.as_str()])
        .success();
    let (shown, _) = env.brain_json("show", &["show", old.as_str()]);
    assert_eq!(shown["memory"]["status"], "superseded", "{shown}");
    // The file as it is now imports as nothing new.
    let (json, _) = env.brain_json_at(later, "import-rules", &["import", "AGENTS.md"]);
    assert!(titles(&json).is_empty(), "{json}");
}

/// A rule dropped from its file is reported, with the memory it made, so
/// that a person can retire it; nothing is changed by the import.
#[test]
fn a_rule_dropped_from_its_file_is_reported_as_gone() {
    let env = TestEnv::empty();
    env.git(&["init", "-q", "-b", "main"]);
    let rules = [
        "- Use tabs for indentation in Go files.",
        "- NEVER commit generated files under dist/.",
    ];
    std::fs::write(
        env.root().join("AGENTS.md"),
        format!("## Style\n\n{}\n", rules.join("\n")),
    )
    .unwrap();
    env.brain(["init"]).success();
    env.brain(["import", "AGENTS.md"]).success();
    env.brain(["approve", "--all"]).success();
    std::fs::write(
        env.root().join("AGENTS.md"),
        format!("## Style\n\n{}\n", rules[0]),
    )
    .unwrap();
    let later = "2026-03-02T10:00:00Z";
    let (json, _) = env.brain_json_at(later, "import-rules", &["import", "AGENTS.md"]);
    let gone = json["files"][0]["gone"].as_array().unwrap();
    assert_eq!(gone.len(), 1, "{json}");
    assert_eq!(
        gone[0]["title"], "NEVER commit generated files under dist/",
        "{json}"
    );
    assert!(titles(&json).is_empty(), "{json}");
    let text = env.brain_with_env(&[("BRAIN_NOW", later)], ["import", "AGENTS.md"]);
    assert!(
        text.stdout
            .contains("gone from the file: never-commit-generated-files"),
        "{}",
        text.stdout
    );
    // The memory itself is left as it was.
    let id = gone[0]["id"].as_str().unwrap();
    let (shown, _) = env.brain_json("show", &["show", id]);
    assert_eq!(shown["memory"]["status"], "active", "{shown}");
}
