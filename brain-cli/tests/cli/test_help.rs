//! The help text of every command is part of the interface.

use crate::common::TestEnv;

#[test]
fn help_of_every_command() {
    let env = TestEnv::empty();
    insta::assert_snapshot!("help_brain", env.brain(["--help"]).success());
    for cmd in [
        "init",
        "add",
        "list",
        "show",
        "stats",
        "lint",
        "normalize",
        "supersede",
        "dismiss",
        "import",
        "index",
        "review",
        "approve",
        "edit",
        "promote-candidates",
        "capture",
        "extract",
        "extract-commit",
        "suggest-extract",
        "inject",
        "search",
        "conversation-start",
        "diff",
        "mcp",
        "hook",
        "setup",
        "export",
        "merge-driver",
        "check",
        "status",
        "sweep",
        "completions",
    ] {
        insta::assert_snapshot!(format!("help_{cmd}"), env.brain([cmd, "--help"]).success());
    }
}

#[test]
fn usage_errors_exit_2() {
    let env = TestEnv::empty();
    insta::assert_snapshot!(env.brain(["frobnicate"]), @"
    --- stderr ---
    error: unrecognized subcommand 'frobnicate'

      tip: a similar subcommand exists: 'reinforce'

    Usage: brain [OPTIONS] <COMMAND>

    For more information, try '--help'.
    [exit status: 2]
    ");
    let (json, out) = env.brain_json("error", &["frobnicate"]);
    assert_eq!(out.status, 2);
    assert_eq!(
        json["error"]["message"],
        "unrecognized subcommand 'frobnicate'"
    );
    let out = env.brain(["add", "--type", "note", "--title", "t", "--summary", "s"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("unknown memory type `note`"), "{out}");
}
