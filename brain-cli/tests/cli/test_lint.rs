//! `brain lint`.

use crate::common::TestEnv;

#[test]
fn lint_passes_on_the_example_store() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["lint"]), @r"
    0 errors, 0 warnings in 39 files
    [exit status: 0]
    ");
    let (json, _) = env.brain_json("lint", &["lint"]);
    insta::assert_json_snapshot!(json, @r#"
    {
      "files_checked": 39,
      "errors": 0,
      "warnings": 0,
      "findings": []
    }
    "#);
}

#[test]
fn lint_names_every_bad_file_with_a_line_and_exits_1() {
    let env = TestEnv::fixture("malformed");
    insta::assert_snapshot!("lint_malformed_text", env.brain(["lint"]));
    let (json, out) = env.brain_json("lint", &["lint"]);
    assert_eq!(out.status, 1);
    insta::assert_json_snapshot!("lint_malformed_json", json);
}

#[test]
fn lint_reports_structure_problems() {
    let env = TestEnv::example();
    let brain = env.root().join(".brain");
    // A memory in the wrong directory, a renamed file, a duplicate id, a dangling link.
    let decisions = brain.join("decisions");
    let file = std::fs::read_dir(&decisions)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains("status: active")
        })
        .unwrap();
    std::fs::copy(&file, brain.join("gotchas").join(file.file_name().unwrap())).unwrap();
    // A mistyped directory is never read: lint says so.
    std::fs::create_dir(brain.join("decision")).unwrap();
    std::fs::rename(&file, decisions.join("renamed-00000000.yaml")).unwrap();
    let text = std::fs::read_to_string(decisions.join("renamed-00000000.yaml")).unwrap();
    std::fs::write(
        decisions.join("renamed-00000000.yaml"),
        text.replacen(
            "provenance:",
            "lineage:\n  related:\n  - does-not-exist-00000000\nprovenance:",
            1,
        ),
    )
    .unwrap();
    let (json, out) = env.brain_json("lint", &["lint"]);
    assert_eq!(out.status, 1, "{out}");
    let mut codes: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    codes.sort_unstable();
    assert_eq!(
        codes,
        [
            "dangling-reference",
            "duplicate-id",
            "duplicate-id",
            "location",
            "location",
            "stray-file"
        ],
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("unexpected entry in `.brain/`; did you mean `decisions`?"),
        "{}",
        out.stdout
    );
}
