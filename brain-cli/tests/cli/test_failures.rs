//! `brain failure record` and `brain failure detect`: signatures, the
//! threshold of three, and a detector that fails, hangs or lies.

use crate::common::{TestEnv, validate_json};
use crate::test_feedback::brain_stdin;

/// One occurrence of the same test failure, on day `day`, with the line
/// number, the duration and the absolute path of the checkout varying.
fn occurrence(env: &TestEnv, day: u32) -> String {
    format!(
        r#"{{"command":"RUST_BACKTRACE=1 cargo test -p billing --lib","kind":"test","message":"thread 'refund_twice' panicked at {}/src/ledger/reverse.rs:{}:9:\nassertion `left == right` failed (took 0.{day}s)","exit_code":101,"paths":["src/ledger/reverse.rs"],"task":"issue refunds for duplicate charges","at":"2026-11-{:02}T10:00:00Z"}}"#,
        env.root().display(),
        40 + day,
        10 + day
    )
}

fn gotchas(env: &TestEnv) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(env.root().join(".brain/gotchas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("repeated-failure-"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_signature_seen_three_times_becomes_one_candidate_gotcha_and_a_fourth_adds_nothing() {
    let env = TestEnv::example();
    let two = format!("{}\n{}\n", occurrence(&env, 1), occurrence(&env, 2));
    let first = brain_stdin(&env, &["failure", "record"], &two, &[]);
    insta::assert_snapshot!("failure_two_occurrences", first);
    assert!(gotchas(&env).is_empty());

    // The same two again and a third: one gotcha.
    let three = format!("{two}{}\n", occurrence(&env, 3));
    let third = brain_stdin(&env, &["failure", "record"], &three, &[]);
    insta::assert_snapshot!("failure_third_occurrence", third);
    let written = gotchas(&env);
    assert_eq!(written.len(), 1, "{written:?}");
    let path = format!(".brain/gotchas/{}", written[0]);
    let text = std::fs::read_to_string(env.root().join(&path)).unwrap();
    assert!(!text.contains("[ROOT]") && !text.contains(&env.root().display().to_string()));
    insta::assert_snapshot!("failure_gotcha_file", text);
    env.brain(["lint"]).success();

    // A fourth occurrence, as a JSON array with a bad element: nothing new.
    let four = format!(
        "[\n{},\n{{\"command\":\"make\"}},\n{{\"command\":\"make\",\"message\":\"m\",\"kind\":\"flaky\"}}\n]",
        occurrence(&env, 4)
    );
    let out = brain_stdin(&env, &["--format", "json", "failure", "record"], &four, &[]);
    assert_eq!(out.status, 1, "{out}");
    let json = validate_json("failure", &out.stdout);
    insta::assert_json_snapshot!("failure_fourth_occurrence_json", json);
    assert_eq!(gotchas(&env), written);
    assert_eq!(
        std::fs::read_to_string(env.root().join(&path)).unwrap(),
        text
    );
}

fn detect(env: &TestEnv, command: &str) -> crate::common::CliOutput {
    brain_stdin(
        env,
        &["failure", "detect"],
        "running 12 tests\ntest ledger::refund_twice ... FAILED\n",
        &[
            ("BRAIN_FAILURE_DETECTOR_COMMAND", command),
            ("BRAIN_FAILURE_DETECTOR_TIMEOUT", "1"),
        ],
    )
}

#[test]
fn a_failing_hanging_or_lying_detector_falls_back_with_a_log_line() {
    let env = TestEnv::example();
    let good = r#"input=$(cat); case "$input" in *refund_twice*) ;; *) exit 9 ;; esac; printf '%s' '{"failures":[{"command":"cargo test","kind":"test","message":"test ledger::refund_twice ... FAILED","at":"2026-11-20T11:00:00Z"}]}'"#;
    insta::assert_snapshot!("detector_good", detect(&env, good));

    let failing = "cat >/dev/null; echo 'model overloaded' >&2; exit 3";
    insta::assert_snapshot!("detector_failing", detect(&env, failing));
    let started = std::time::Instant::now();
    insta::assert_snapshot!("detector_hanging", detect(&env, "sleep 30"));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let prose = "cat >/dev/null; echo 'Sure! I found one failure: refund_twice.'";
    insta::assert_snapshot!("detector_prose", detect(&env, prose));
    let lying = r#"cat >/dev/null; printf '%s' '{"failures":[{"command":"cargo test","message":"m","severity":"high"}]}'"#;
    let out = detect(&env, lying);
    assert_eq!(out.status, 0, "{out}");
    let log =
        std::fs::read_to_string(env.root().join(".brain/runtime/failure-detector.log")).unwrap();
    insta::assert_snapshot!("detector_log", log);
    // Only the good detector's failure was recorded.
    let failures =
        std::fs::read_to_string(env.root().join(".brain/runtime/failures.jsonl")).unwrap();
    assert_eq!(failures.lines().count(), 1, "{failures}");

    // Without a detector, nothing is recorded and nothing is logged.
    let out = brain_stdin(
        &env,
        &["--format", "json", "failure", "detect"],
        "log\n",
        &[],
    );
    let json = validate_json("failure", &out.stdout);
    assert_eq!(json["detector"]["outcome"], "not_configured", "{json}");
    assert!(
        out.stderr.contains("no failure detector configured"),
        "{out}"
    );
    // A bad timeout is a usage error.
    let out = brain_stdin(
        &env,
        &["failure", "detect"],
        "log\n",
        &[
            ("BRAIN_FAILURE_DETECTOR_COMMAND", "true"),
            ("BRAIN_FAILURE_DETECTOR_TIMEOUT", "soon"),
        ],
    );
    assert_eq!(out.status, 2, "{out}");
}

#[test]
fn help_texts() {
    let env = TestEnv::empty();
    for args in [
        &["failure", "--help"][..],
        &["failure", "record", "--help"],
        &["failure", "detect", "--help"],
    ] {
        let name = args[..args.len() - 1].join("_");
        insta::assert_snapshot!(format!("help_{name}"), env.brain(args).success());
    }
}
