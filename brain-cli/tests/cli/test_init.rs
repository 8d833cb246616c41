//! `brain init`.

use crate::common::TestEnv;

#[test]
fn init_creates_the_layout_and_is_idempotent() {
    let env = TestEnv::empty();
    insta::assert_snapshot!(env.brain(["init"]), @r"
    created .brain/config.yaml (workflow recommended-semi-auto: trigger detect, capture candidate, safe auto-approval off)
    --- stderr ---
    next steps:
      brain add --type gotcha --title .. --summary ..   record a memory (a candidate until reviewed)
      brain review                                      the reviewer's verdict on each candidate
      brain approve --safe                              approve what the reviewer accepts
      git add .brain && git commit                      share the store through review like code
      docs/integrations.md                              connect an agent and the git hooks
    [exit status: 0]
    ");
    assert_eq!(TestEnv::empty().brain(["--quiet", "init"]).stderr, "");
    for dir in [
        "decisions",
        "gotchas",
        "conventions",
        "patterns",
        "goals",
        "working",
        "preferences",
    ] {
        assert!(env.root().join(".brain").join(dir).is_dir(), "{dir}");
    }
    assert_eq!(
        std::fs::read_to_string(env.root().join(".brain/.gitignore")).unwrap(),
        "runtime/\n.tmp-*.partial\n"
    );
    assert_eq!(
        std::fs::read_to_string(env.root().join(".brain/config.yaml")).unwrap(),
        "schema_version: 1\nworkflow: recommended-semi-auto\n"
    );
    let (json, _) = env.brain_json("init", &["init"]);
    insta::assert_json_snapshot!(json, @r#"
    {
      "outcome": "already_initialized",
      "config_path": ".brain/config.yaml",
      "workflow": "recommended-semi-auto",
      "settings": {
        "trigger_mode": "detect",
        "capture_mode": "candidate",
        "auto_approve_safe": false
      }
    }
    "#);
}

#[test]
fn init_refuses_a_different_config_without_force() {
    let env = TestEnv::empty();
    env.brain(["init"]).success();
    insta::assert_snapshot!(env.brain(["init", "--workflow", "automation-first"]), @"
    --- stderr ---
    error: `.brain/config.yaml` already exists with different settings
    hint: pass `--force` to replace it, or edit `.brain/config.yaml` by hand
    [exit status: 2]
    ");
    let (json, out) = env.brain_json("error", &["init", "--workflow", "automation-first"]);
    assert_eq!(out.status, 2);
    assert_eq!(json["error"]["exit_code"], 2);
    insta::assert_snapshot!(env.brain(["init", "--workflow", "automation-first", "--force"]), @r"
    overwrote .brain/config.yaml (workflow automation-first: trigger detect, capture candidate, safe auto-approval on)
    [exit status: 0]
    ");
}

#[test]
fn init_in_a_subdirectory_of_a_repository_uses_the_repository_root() {
    let env = TestEnv::empty();
    env.git(&["init", "-q"]);
    std::fs::create_dir_all(env.root().join("src/deep")).unwrap();
    let out = env
        .command(["init"])
        .current_dir(env.root().join("src/deep"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(env.root().join(".brain/config.yaml").is_file());
    assert!(!env.root().join("src/deep/.brain").exists());
}

#[test]
fn unknown_config_keys_warn_and_bad_values_fail_naming_the_key() {
    let env = TestEnv::empty();
    env.brain(["init"]).success();
    let config = env.root().join(".brain/config.yaml");
    std::fs::write(
        &config,
        "schema_version: 1\nmaxInjectTokens: 5\ninject:\n  budget_tokens: 900\n",
    )
    .unwrap();
    insta::assert_snapshot!(env.brain(["stats"]).stderr, @"warning: .brain/config.yaml: unknown key `maxInjectTokens` is ignored");
    std::fs::write(&config, "schema_version: 1\nworkflow: yolo\n").unwrap();
    let out = env.brain(["list"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("at line 2 column 11 (key `workflow`)"),
        "{out}"
    );
    assert!(out.stderr.contains("yolo"), "{out}");
    std::fs::write(&config, "schema_version: 1\ninject:\n  budget_tokens: 0\n").unwrap();
    insta::assert_snapshot!(env.brain(["list"]), @"
    --- stderr ---
    error: invalid config `.brain/config.yaml`: `inject.budget_tokens` must be a positive number of tokens
    [exit status: 2]
    ");
}

#[test]
fn commands_without_a_store_say_how_to_make_one() {
    let env = TestEnv::empty();
    insta::assert_snapshot!(env.brain(["list"]), @r"
    --- stderr ---
    error: no brain store at `[ROOT]` (missing `.brain/config.yaml`)
    hint: run `brain init` to create a store, or pass `-C <dir>`
    [exit status: 2]
    ");
}
