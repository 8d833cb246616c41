//! `brain supersede` and `brain dismiss`: status changes that follow the
//! transition table and leave a store that lints clean.

use crate::common::TestEnv;

const OLD: &str = "version-the-public-api-with-a-url-prefix-8d05caf7";
const NEW: &str = "use-integer-cents-for-all-money-amounts-36ab1f00";
const CANDIDATE: &str = "adopt-kysely-for-new-data-access-code-a68b47b2";

fn read(env: &TestEnv, rel: &str) -> String {
    std::fs::read_to_string(env.root().join(rel)).unwrap()
}

#[test]
fn supersede_links_both_ways_and_bumps_the_version() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["supersede", NEW, "version-the"]), @"
    version-the-public-api-with-a-url-prefix-8d05caf7 is superseded by use-integer-cents-for-all-money-amounts-36ab1f00 (now version 2)
    [exit status: 0]
    ");
    let old = read(&env, &format!(".brain/decisions/{OLD}.yaml"));
    assert!(old.contains("status: superseded\n"), "{old}");
    assert!(
        old.contains(&format!("lineage:\n  superseded_by: {NEW}\n")),
        "{old}"
    );
    let new = read(&env, &format!(".brain/decisions/{NEW}.yaml"));
    assert!(
        new.contains(&format!("  supersedes:\n  - {OLD}\n")),
        "{new}"
    );
    assert!(new.contains("  version: 2\n"), "{new}");
    let lint = env.brain(["lint"]);
    assert_eq!(lint.stdout, "0 errors, 0 warnings in 39 files\n", "{lint}");
    env.brain(["normalize", "--check"]).success();
}

#[test]
fn supersede_json_matches_its_schema() {
    let env = TestEnv::example();
    let (json, _) = env.brain_json("supersede", &["supersede", NEW, OLD]);
    insta::assert_json_snapshot!(json, @r#"
    {
      "new": {
        "id": "use-integer-cents-for-all-money-amounts-36ab1f00",
        "path": ".brain/decisions/use-integer-cents-for-all-money-amounts-36ab1f00.yaml",
        "from": "active",
        "to": "active",
        "version": 2
      },
      "old": {
        "id": "version-the-public-api-with-a-url-prefix-8d05caf7",
        "path": ".brain/decisions/version-the-public-api-with-a-url-prefix-8d05caf7.yaml",
        "from": "active",
        "to": "superseded",
        "version": 1
      }
    }
    "#);
}

#[test]
fn supersede_refuses_what_the_transition_table_forbids() {
    let env = TestEnv::example();
    let before = read(&env, &format!(".brain/decisions/{OLD}.yaml"));
    let cases: &[(&str, &str, &str)] = &[
        (CANDIDATE, OLD, "is `candidate`; approve it first"),
        (NEW, "generate-invoices-with", "it is `superseded`"),
        (NEW, NEW, "cannot supersede itself"),
        (NEW, "no-such-memory", "no memory has the id"),
    ];
    for (new, old, message) in cases {
        let out = env.brain(["supersede", new, old]);
        assert_eq!(out.status, 2, "{new} {old}: {out}");
        assert!(out.stderr.contains(message), "{new} {old}: {out}");
    }
    assert_eq!(
        read(&env, &format!(".brain/decisions/{OLD}.yaml")),
        before,
        "nothing written"
    );
}

#[test]
fn dismiss_records_who_when_and_why() {
    let env = TestEnv::example();
    insta::assert_snapshot!(env.brain(["dismiss", "adopt-kysely", "--reason", "we stay on raw SQL"]), @"
    dismissed adopt-kysely-for-new-data-access-code-a68b47b2
    1 candidate dismissed
    [exit status: 0]
    ");
    let text = read(&env, &format!(".brain/decisions/{CANDIDATE}.yaml"));
    insta::assert_snapshot!(text.split("review:").nth(1).unwrap(), @r#"

    state: rejected
    decided_at: "2026-11-20T12:00:00Z"
    decided_by: Dana Okafor <dana@tollbooth.example>
    reason: we stay on raw SQL
    "#);
    assert!(text.contains("status: dismissed\n"));
    env.brain(["lint"]).success();
    let again = env.brain(["dismiss", CANDIDATE]);
    assert_eq!(again.status, 2);
    assert!(
        again
            .stderr
            .contains("it is `dismissed`; only candidates can be dismissed"),
        "{again}"
    );
}

#[test]
fn dismiss_all_takes_every_candidate_and_nothing_else() {
    let env = TestEnv::example();
    let (json, _) = env.brain_json("dismiss", &["dismiss", "--all"]);
    let ids: Vec<&str> = json["dismissed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let (list, _) = env.brain_json("list", &["list", "--status", "candidate"]);
    assert_eq!(list["memories"].as_array().unwrap().len(), 0);
    env.brain(["lint"]).success();
    let usage = env.brain(["dismiss"]);
    assert_eq!(usage.status, 2, "{usage}");
}

#[test]
fn dismiss_validates_every_id_before_writing_any() {
    let env = TestEnv::example();
    let before = read(&env, &format!(".brain/decisions/{CANDIDATE}.yaml"));
    let out = env.brain(["dismiss", CANDIDATE, NEW]);
    assert_eq!(out.status, 2, "{out}");
    assert!(out.stderr.contains("it is `active`"), "{out}");
    assert_eq!(
        read(&env, &format!(".brain/decisions/{CANDIDATE}.yaml")),
        before
    );
}
