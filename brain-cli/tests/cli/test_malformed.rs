//! One malformed file never stops a read command.

use crate::common::TestEnv;

#[test]
fn reads_work_around_malformed_files() {
    let env = TestEnv::fixture("malformed");
    insta::assert_snapshot!("malformed_list", env.brain(["list"]));
    let (json, out) = env.brain_json("list", &["list"]);
    assert_eq!(out.status, 0);
    assert_eq!(json["memories"].as_array().unwrap().len(), 4);
    assert_eq!(json["skipped"].as_array().unwrap().len(), 5);

    let show = env.brain(["show", "use-sqlx-for-queries-0a1b2c3d"]);
    assert_eq!(show.status, 0, "{show}");
    assert!(show.stdout.contains("title: Use sqlx for queries"));
    assert!(
        show.stderr
            .contains("warning: skipped .brain/gotchas/broken-yaml-5e6f7a8b.yaml:6:"),
        "{show}"
    );

    let stats = env.brain(["stats"]);
    assert_eq!(stats.status, 0, "{stats}");
    assert!(stats.stdout.contains("invalid files: 5"), "{stats}");
}
