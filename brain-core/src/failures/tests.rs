use super::*;
use crate::config::Config;
use crate::store::Store;

const ROOT: &str = "/home/ann/src/tollbooth";

fn now() -> Timestamp {
    "2026-11-20T12:00:00Z".parse().unwrap()
}

fn brain() -> (tempfile::TempDir, Brain) {
    let dir = tempfile::tempdir().unwrap();
    Store::init(dir.path(), &Config::default(), false).unwrap();
    let brain = Brain::open(dir.path()).unwrap();
    (dir, brain)
}

fn occurrence(n: u32, line: u32) -> String {
    format!(
        r#"{{"command":"cargo test -p billing","kind":"test","message":"thread 'refund_twice' panicked at {ROOT}/src/ledger.rs:{line}:5: left == right failed (took 1.{n}s)","paths":["src/ledger.rs"],"at":"2026-11-{:02}T10:00:00Z"}}"#,
        10 + n
    )
}

fn record(brain: &Brain, text: &str) -> FailureReport {
    let parsed = parse(text, Some(ROOT)).unwrap();
    brain
        .record_failures(
            parsed,
            FailureSource::Input,
            None,
            now(),
            Some("Ann <ann@example.com>"),
        )
        .unwrap()
}

#[test]
fn validation_table() {
    type Expect = Result<(), (&'static str, &'static str)>;
    let cases: &[(&str, Expect)] = &[
        (r#"{"command":"make","message":"boom"}"#, Ok(())),
        (
            r#"{"command":"  ","message":"boom"}"#,
            Err(("command", "is empty")),
        ),
        (
            r#"{"command":"make","message":"\n "}"#,
            Err(("message", "is empty")),
        ),
        (
            r#"{"command":"make","message":"m","paths":["../x"]}"#,
            Err(("paths", "`..` component")),
        ),
        (
            r#"{"command":"make","message":"m","paths":["C:\\x"]}"#,
            Err(("paths", "not absolute")),
        ),
        (
            r#"{"command":"make","message":"m","id":"a b"}"#,
            Err(("id", "not a failure id")),
        ),
    ];
    for (json, want) in cases {
        let got = Failure::from_input(serde_json::from_str(json).unwrap(), None);
        match (got, want) {
            (Ok(_), Ok(())) => {}
            (Err((field, message)), Err((want_field, want))) => {
                assert_eq!(field, *want_field, "{json}");
                assert!(message.contains(want), "{json}: {message}");
            }
            (got, _) => panic!("{json}: {got:?}"),
        }
    }
}

#[test]
fn secrets_never_reach_the_log() {
    let f = Failure::from_input(
        serde_json::from_str(
            r#"{"command":"GITHUB_TOKEN=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 gh pr create","message":"401 for ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"}"#,
        )
        .unwrap(),
        None,
    )
    .unwrap();
    for text in [&f.command, &f.message, &f.signature.message] {
        assert!(!text.contains("ghp_"), "{text}");
    }
    assert_eq!(f.signature.command, "gh pr create");
}

#[test]
fn the_third_occurrence_proposes_one_gotcha_and_the_fourth_nothing() {
    let (dir, brain) = brain();
    let first = record(
        &brain,
        &format!("{}\n{}\n", occurrence(1, 42), occurrence(2, 44)),
    );
    assert_eq!(first.summary.recorded, 2);
    assert!(first.gotchas.is_empty());
    assert_eq!(first.failures[1].occurrences, 2);
    assert_eq!(first.failures[0].signature, first.failures[1].signature);

    // The same two again: duplicates, no third occurrence.
    let again = record(
        &brain,
        &format!("{}\n{}\n", occurrence(1, 42), occurrence(2, 44)),
    );
    assert_eq!((again.summary.recorded, again.summary.duplicates), (0, 2));
    assert!(again.gotchas.is_empty());

    let third = record(&brain, &occurrence(3, 45));
    assert_eq!(third.summary.gotchas_proposed, 1);
    assert_eq!(third.gotchas.len(), 1);
    let g = &third.gotchas[0];
    assert_eq!((g.occurrences, g.outcome), (3, GotchaOutcome::Proposed));
    let gotchas = dir.path().join(".brain/gotchas");
    assert_eq!(std::fs::read_dir(&gotchas).unwrap().count(), 1);
    let memory =
        crate::yaml::parse_memory(&std::fs::read_to_string(dir.path().join(&g.path)).unwrap())
            .unwrap();
    assert_eq!(memory.status, Status::Candidate);
    assert_eq!(memory.review.state, Some(ReviewState::Pending));
    assert_eq!(memory.provenance.source, Source::Failure);
    assert_eq!(memory.scope.paths, ["src/ledger.rs"]);
    assert_eq!(memory.provenance.evidence.len(), 4);
    assert!(memory.problems().is_empty(), "{:?}", memory.problems());
    assert!(
        memory.title.starts_with(
            "`cargo test` fails repeatedly: thread 'refund_twice' panicked at src/ledger.rs:42:5"
        ),
        "{}",
        memory.title
    );

    let fourth = record(&brain, &occurrence(4, 46));
    assert_eq!(fourth.summary.gotchas_proposed, 0);
    assert_eq!(fourth.gotchas[0].outcome, GotchaOutcome::AlreadyPresent);
    assert_eq!(fourth.gotchas[0].occurrences, 4);
    assert_eq!(std::fs::read_dir(&gotchas).unwrap().count(), 1);
}

#[test]
fn different_signatures_count_apart() {
    let (_dir, brain) = brain();
    let other =
        r#"{"command":"cargo build","kind":"build","message":"error[E0308]: mismatched types"}"#;
    let text = format!("{}\n{other}\n{}\n", occurrence(1, 1), occurrence(2, 2));
    let report = record(&brain, &text);
    let counts: Vec<usize> = report.failures.iter().map(|f| f.occurrences).collect();
    assert_eq!(counts, [1, 1, 2]);
    assert!(report.gotchas.is_empty());
}
