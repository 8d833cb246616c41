//! The whole flow in a fresh git repository: init, one add per type, list,
//! schema validation, commit, and reads that leave the work tree clean.

use crate::common::{TestEnv, workspace};

#[test]
fn fresh_repository_flow_keeps_the_tree_clean() {
    let env = TestEnv::empty();
    env.git(&["init", "-q"]);
    env.brain(["init"]).success();
    let mut ids = Vec::new();
    for (kind, dir) in [
        ("decision", "decisions"),
        ("gotcha", "gotchas"),
        ("convention", "conventions"),
        ("pattern", "patterns"),
        ("goal", "goals"),
        ("working", "working"),
    ] {
        let (json, _) = env.brain_json(
            "add",
            &[
                "add",
                "--type",
                kind,
                "--title",
                &format!("A {kind} worth keeping"),
                "--summary",
                "It matters.",
            ],
        );
        let path = json["path"].as_str().unwrap().to_owned();
        assert!(path.starts_with(&format!(".brain/{dir}/")), "{path}");
        // The file validates against the memory schema.
        let text = std::fs::read_to_string(env.root().join(&path)).unwrap();
        let value = brain_core::yaml::to_json_value(&text).unwrap();
        let schema: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(workspace().join("schemas/memory.schema.json")).unwrap(),
        )
        .unwrap();
        assert!(
            jsonschema::validator_for(&schema).unwrap().is_valid(&value),
            "{path}"
        );
        ids.push(json["id"].as_str().unwrap().to_owned());
    }
    let (list, _) = env.brain_json("list", &["list"]);
    let listed: Vec<&str> = list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    for id in &ids {
        assert!(
            listed.contains(&id.as_str()),
            "{id} missing from {listed:?}"
        );
    }

    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "brain store"]);
    assert_eq!(env.git(&["status", "--porcelain"]), "");
    for args in [
        vec!["list"],
        vec!["--format", "json", "list"],
        vec!["show", ids[0].as_str()],
        vec!["stats"],
        vec!["lint"],
        vec!["normalize", "--check"],
    ] {
        env.brain(&args).success();
        assert_eq!(
            env.git(&["status", "--porcelain", "--ignored=no"]),
            "",
            "after {args:?}"
        );
    }
    assert!(
        env.root()
            .join(".brain/runtime/cache/catalog.bin")
            .is_file(),
        "the cache lives in runtime/"
    );
}
