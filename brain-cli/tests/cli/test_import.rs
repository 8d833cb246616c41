//! `brain import --from-repobrain`: migrating a RepoBrain store.

use std::path::Path;

use crate::common::{TestEnv, copy_tree, workspace};

/// An initialized store with the RepoBrain fixture copied to `legacy/`.
fn env_with_repobrain() -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["init"]).success();
    copy_tree(
        &workspace().join("tests/fixtures/repobrain"),
        &env.root().join("legacy"),
    );
    env
}

/// Every record file in the store, relative to `.brain/`, sorted.
fn record_files(root: &Path) -> Vec<String> {
    let brain = root.join(".brain");
    let mut files = Vec::new();
    for dir in [
        "decisions",
        "gotchas",
        "conventions",
        "patterns",
        "goals",
        "working",
        "preferences",
    ] {
        let Ok(entries) = std::fs::read_dir(brain.join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml") {
                let name = path.file_name().unwrap().to_string_lossy();
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

fn assert_store_is_clean(env: &TestEnv) {
    let (lint, out) = env.brain_json("lint", &["lint"]);
    assert_eq!(lint["errors"], 0, "{out}");
    let out = env.brain(["normalize", "--check"]);
    assert_eq!(out.status, 0, "{out}");
}

#[test]
fn import_migrates_the_fixture_and_reports_what_it_could_not_map() {
    let env = env_with_repobrain();
    let out = env.brain(["import", "--from-repobrain", "legacy"]);
    assert_eq!(out.status, 1, "one file is broken: {out}");
    insta::assert_snapshot!("import_text", out);
    assert_eq!(record_files(env.root()).len(), 6);
    assert_store_is_clean(&env);
    for file in record_files(env.root()) {
        let text = std::fs::read_to_string(env.root().join(".brain").join(&file)).unwrap();
        for usage in ["score", "hit_count", "last_used"] {
            assert!(!text.contains(usage), "{file} carries {usage}");
        }
    }
    insta::assert_snapshot!(
        "import_superseded_record",
        std::fs::read_to_string(env.root().join(
            ".brain/decisions/run-scheduled-jobs-under-postgres-advisory-locks-54311966.yaml"
        ))
        .unwrap()
    );
}

#[test]
fn import_json_matches_the_schema() {
    let env = env_with_repobrain();
    let (json, out) = env.brain_json("import", &["import", "--from-repobrain", "legacy/.brain"]);
    assert_eq!(out.status, 1, "{out}");
    insta::assert_json_snapshot!("import_json", json);
}

#[test]
fn importing_again_writes_nothing_new() {
    let env = env_with_repobrain();
    let _ = env.brain(["import", "--from-repobrain", "legacy"]);
    let before = record_files(env.root());
    let texts: Vec<String> = before
        .iter()
        .map(|f| std::fs::read_to_string(env.root().join(".brain").join(f)).unwrap())
        .collect();
    let (json, out) = env.brain_json("import", &["import", "--from-repobrain", "legacy"]);
    assert_eq!(out.status, 1, "{out}");
    assert_eq!(json["imported"].as_array().unwrap().len(), 0, "{out}");
    assert_eq!(
        json["skipped_existing"].as_array().unwrap().len(),
        6,
        "{out}"
    );
    assert_eq!(record_files(env.root()), before);
    for (f, text) in before.iter().zip(&texts) {
        assert_eq!(
            &std::fs::read_to_string(env.root().join(".brain").join(f)).unwrap(),
            text,
            "{f}"
        );
    }
    let text = env.brain(["import", "--from-repobrain", "legacy"]);
    assert!(
        text.stdout
            .contains("0 records imported, 6 already imported, 1 not imported, from 7 files"),
        "{text}"
    );
}

#[test]
fn dry_run_writes_nothing() {
    let env = env_with_repobrain();
    let out = env.brain(["import", "--from-repobrain", "legacy", "--dry-run"]);
    assert_eq!(out.status, 1, "{out}");
    assert!(out.stdout.contains("would import "), "{out}");
    assert!(out.stdout.contains("(dry run: nothing written)"), "{out}");
    assert!(record_files(env.root()).is_empty());
    let (json, _) = env.brain_json(
        "import",
        &["import", "--from-repobrain", "legacy", "--dry-run"],
    );
    assert_eq!(json["dry_run"], true);
    assert_eq!(json["imported"].as_array().unwrap().len(), 6);
    assert!(record_files(env.root()).is_empty());
}

#[test]
fn import_needs_a_repobrain_directory_and_a_store() {
    let env = env_with_repobrain();
    let out = env.brain(["import", "--from-repobrain", "nowhere"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("is not a RepoBrain"), "{out}");
    let out = env.brain(["import"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("--from-repobrain"), "{out}");

    let bare = TestEnv::fixture("repobrain");
    let out = bare.brain(["import", "--from-repobrain", "."]);
    assert_eq!(out.status, 2, "{out}");
}

#[test]
fn generated_repobrain_store_imports_cleanly() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if !python.is_ok_and(|o| o.status.success()) {
        println!("note: python3 is not available; skipping the generated-store import test");
        return;
    }
    let env = TestEnv::empty();
    env.brain(["init"]).success();
    let generated = env.root().join("generated");
    // The RepoBrain store generator of the benchmarks; `BRAIN_TEST_GEN_BRAIN`
    // points at another copy.
    let script = std::env::var_os("BRAIN_TEST_GEN_BRAIN").map_or_else(
        || workspace().join("../shared/bench/gen_brain.py"),
        std::path::PathBuf::from,
    );
    if !script.is_file() {
        println!(
            "note: {} is not available; skipping the generated-store import test",
            script.display()
        );
        return;
    }
    let status = std::process::Command::new("python3")
        .arg(&script)
        .args(["--out"])
        .arg(&generated)
        .args(["--n", "50", "--seed", "7", "--now", "2026-11-20"])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let (json, out) = env.brain_json("import", &["import", "--from-repobrain", "generated"]);
    assert_eq!(out.status, 0, "{out}");
    let imported = json["imported"].as_array().unwrap().len();
    assert!(imported >= 50, "{imported} imported: {out}");
    assert_eq!(json["not_imported"].as_array().unwrap().len(), 0, "{out}");
    assert_eq!(record_files(env.root()).len(), imported);
    assert_store_is_clean(&env);
}
