//! `brain setup`: merging into files other tools already wrote, a second
//! run that changes nothing, and `--check`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::common::{TestEnv, files_under};

/// The brain binary as setup writes it into commands.
fn exe() -> String {
    std::path::Path::new(env!("CARGO_BIN_EXE_brain"))
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

/// The files setup manages, as one text, with the binary's path replaced.
fn rendered(files: &BTreeMap<String, String>) -> String {
    let mut s = String::new();
    for (path, text) in files {
        let _ = write!(s, "=== {path} ===\n{}", text.replace(&exe(), "[BRAIN]"));
    }
    s
}

#[test]
fn setup_keeps_foreign_entries_and_a_second_run_changes_nothing() {
    let env = TestEnv::fixture("setup/existing");
    let before = files_under(env.root(), &[".git", ".home"]);
    let first = env.brain(["setup"]);
    insta::assert_snapshot!("setup_first_run", first.success().to_string());
    let after = files_under(env.root(), &[".git", ".home"]);
    insta::assert_snapshot!("setup_files", rendered(&after));
    // Every foreign entry is still there.
    for (file, needles) in [
        (
            ".claude/settings.json",
            &[
                "json.schemastore.org",
                "Bash(npm run test:*)",
                "Read(./.env)",
                "npx prettier --write",
                "./scripts/log-prompt.sh",
                "DISABLE_TELEMETRY",
            ][..],
        ),
        (".mcp.json", &["api.githubcopilot.com"]),
        (
            ".codex/config.toml",
            &[
                "# Team defaults for Codex.",
                "approval_policy = \"on-request\"",
                "web_search_request = true # keep this on",
                "[mcp_servers.docs]",
            ],
        ),
        (".codex/hooks.json", &["notify-send codex done"]),
        (".cursor/mcp.json", &["mcp.linear.app"]),
        (
            ".cursor/hooks.json",
            &[".cursor/hooks/format.sh", ".cursor/hooks/guard.sh"],
        ),
        (
            ".vscode/mcp.json",
            &["promptString", "@playwright/mcp@latest"],
        ),
        (
            ".gemini/settings.json",
            &[
                "\"theme\": \"GitHub\"",
                "GEMINI.md",
                "mcp.figma.com",
                "./guard.sh",
            ],
        ),
        (
            "AGENTS.md",
            &["# Agent instructions", "- Use pnpm, never npm."],
        ),
    ] {
        for needle in needles {
            assert!(
                after[file].contains(needle),
                "{file} lost {needle}:\n{}",
                after[file]
            );
        }
    }
    // Files of other tools are not touched; CLAUDE.md is never created.
    assert_eq!(
        after[".github/hooks/audit.json"],
        before[".github/hooks/audit.json"]
    );
    assert_eq!(after[".gitattributes"], before[".gitattributes"]);
    assert!(!after.contains_key("CLAUDE.md"));
    assert!(!after.contains_key(".rules"));
    // The stale brain hook of an old install was replaced, not added to.
    assert!(!after[".claude/settings.json"].contains("/old/install"));
    assert_eq!(
        after[".claude/settings.json"]
            .matches(" hook prompt ")
            .count(),
        1
    );

    let second = env.brain(["setup"]);
    assert!(
        second.stdout.lines().all(|l| l.starts_with("unchanged")),
        "{second}"
    );
    assert_eq!(
        files_under(env.root(), &[".git", ".home"]),
        after,
        "a second run changed bytes"
    );
    let check = env.brain(["setup", "--check"]);
    assert_eq!(check.status, 0, "{check}");
    assert!(check.stdout.ends_with("setup is up to date\n"), "{check}");
}

#[test]
fn check_exits_1_after_a_hand_edit_and_writes_nothing() {
    let env = TestEnv::fixture("setup/existing");
    env.brain(["setup"]).success();
    let mcp = env.root().join(".mcp.json");
    let edited = std::fs::read_to_string(&mcp)
        .unwrap()
        .replace("\"mcp\"", "\"serve\"");
    std::fs::write(&mcp, &edited).unwrap();
    let agents = env.root().join("AGENTS.md");
    let text = std::fs::read_to_string(&agents)
        .unwrap()
        .replace("Do not edit files", "Feel free to edit files");
    std::fs::write(&agents, &text).unwrap();
    let check = env.brain(["setup", "--check"]);
    assert_eq!(check.status, 1, "{check}");
    assert!(check.stdout.contains("would update  .mcp.json"), "{check}");
    assert!(check.stdout.contains("would update  AGENTS.md"), "{check}");
    assert!(check.stdout.contains("setup is out of date"), "{check}");
    assert_eq!(std::fs::read_to_string(&mcp).unwrap(), edited);
    // JSON for programs.
    let (v, _) = env.brain_json("setup", &["setup", "--check"]);
    assert_eq!(v["drift"], true);
    // Setup repairs it; the check passes again.
    env.brain(["setup"]).success();
    assert_eq!(env.brain(["setup", "--check"]).status, 0);
}

#[test]
fn dry_run_and_agent_selection() {
    let env = TestEnv::empty();
    let dry = env.brain(["setup", "--dry-run"]);
    assert_eq!(dry.status, 0, "{dry}");
    assert!(
        dry.stdout.contains("would create  .claude/settings.json"),
        "{dry}"
    );
    assert!(
        files_under(env.root(), &[".git", ".home"]).is_empty(),
        "a dry run wrote files"
    );
    env.brain(["setup", "--agents", "claude", "--hooks"])
        .success();
    let files: Vec<String> = files_under(env.root(), &[".git", ".home"])
        .into_keys()
        .collect();
    assert_eq!(files, [".claude/settings.json", "AGENTS.md"]);
}

#[test]
fn a_file_that_does_not_parse_is_left_alone() {
    let env = TestEnv::empty();
    let jsonc = "{\n  // my servers\n  \"servers\": {}\n}\n";
    std::fs::create_dir_all(env.root().join(".vscode")).unwrap();
    std::fs::write(env.root().join(".vscode/mcp.json"), jsonc).unwrap();
    let out = env.brain(["setup", "--agents", "copilot", "--mcp"]);
    assert_eq!(out.status, 1, "{out}");
    assert!(
        out.stdout
            .contains("skipped       .vscode/mcp.json: not valid JSON"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(env.root().join(".vscode/mcp.json")).unwrap(),
        jsonc
    );
}

#[test]
fn git_setup_chains_an_existing_post_commit_hook() {
    let env = TestEnv::fixture("setup/existing");
    env.git(&["init", "-q"]);
    let hook = env.root().join(".git/hooks/post-commit");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    std::fs::write(&hook, "#!/bin/sh\necho committed\n").unwrap();
    let out = env.brain(["setup", "--git"]);
    insta::assert_snapshot!(
        "setup_git",
        format!(
            "{}=== post-commit ===\n{}=== .gitattributes ===\n{}",
            out.success(),
            std::fs::read_to_string(&hook).unwrap(),
            std::fs::read_to_string(env.root().join(".gitattributes")).unwrap()
        )
        .replace(&exe(), "[BRAIN]")
    );
    assert_eq!(
        env.git(&["config", "--local", "merge.brain.driver"]).trim(),
        format!("{} merge-driver %O %A %B %L %P", exe())
    );
    let again = env.brain(["setup", "--git", "--check"]);
    assert_eq!(again.status, 0, "{again}");
    env.git(&["config", "--local", "merge.brain.driver", "true"]);
    let drift = env.brain(["setup", "--git", "--check"]);
    assert_eq!(drift.status, 1, "{drift}");
    assert!(
        drift
            .stdout
            .contains("would update  git config merge.brain.driver"),
        "{drift}"
    );
}
