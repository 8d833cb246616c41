//! `brain normalize`.

use crate::common::TestEnv;

#[test]
fn example_store_is_canonical() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["normalize", "--check"]), @r"
    0 of 39 files not in canonical form
    [exit status: 0]
    ");
}

#[test]
fn editing_key_order_fails_the_check_and_normalize_repairs_it() {
    let env = TestEnv::example();
    let path = env
        .root()
        .join(".brain/goals/bring-p99-invoice-finalization-under-2-seconds-365860ce.yaml");
    let rel = path.strip_prefix(env.root()).unwrap().display().to_string();
    let original = std::fs::read_to_string(&path).unwrap();
    // Swap the `type:` and `status:` lines.
    let lines: Vec<&str> = original.lines().collect();
    let t = lines.iter().position(|l| l.starts_with("type:")).unwrap();
    let s = lines.iter().position(|l| l.starts_with("status:")).unwrap();
    let mut swapped = lines.clone();
    swapped.swap(t, s);
    std::fs::write(&path, swapped.join("\n") + "\n").unwrap();

    let out = env.brain(["normalize", "--check"]);
    assert_eq!(out.status, 1, "{out}");
    assert_eq!(
        out.stdout,
        format!("not canonical: {rel}\n1 of 39 files not in canonical form\n")
    );
    let (json, _) = env.brain_json("normalize", &["normalize", "--check", "--diff"]);
    assert_eq!(json["changed"][0], rel.as_str());
    insta::assert_json_snapshot!("normalize_check_json", json);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        swapped.join("\n") + "\n",
        "--check writes nothing"
    );

    let diff = env.brain(["normalize", "--check", "--diff"]);
    assert_eq!(diff.status, 1);
    insta::assert_snapshot!(diff.stdout.replace(&rel, "[FILE]"), @"
    not canonical: [FILE]
    --- [FILE]
    +++ [FILE]
    @@ -1,7 +1,7 @@
     schema_version: 1
     id: bring-p99-invoice-finalization-under-2-seconds-365860ce
    +type: goal
     status: active
    -type: goal
     title: Bring p99 invoice finalization under 2 seconds
     summary: invoice.build p99 is about 6.5s for customers with more than 50 meters; the target is under 2s without changing invoice output.
     detail: |
    1 of 39 files not in canonical form
    ");

    let lint = env.brain(["lint"]);
    assert_eq!(lint.status, 0, "not canonical is a warning");
    assert!(
        lint.stdout
            .contains(&format!("{rel}:3: warning[not-canonical]")),
        "{lint}"
    );

    let fixed = env.brain(["normalize"]).success();
    assert_eq!(
        fixed.stdout,
        format!("rewrote: {rel}\n1 of 39 files rewritten\n")
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    env.brain(["normalize", "--check"]).success();
}

#[test]
fn normalize_leaves_unparseable_files_alone() {
    let env = TestEnv::fixture("malformed");
    let before =
        std::fs::read_to_string(env.root().join(".brain/gotchas/broken-yaml-5e6f7a8b.yaml"))
            .unwrap();
    let (json, out) = env.brain_json("normalize", &["normalize"]);
    assert_eq!(out.status, 0, "{out}");
    assert_eq!(json["skipped"].as_array().unwrap().len(), 5);
    assert_eq!(
        std::fs::read_to_string(env.root().join(".brain/gotchas/broken-yaml-5e6f7a8b.yaml"))
            .unwrap(),
        before
    );
}
