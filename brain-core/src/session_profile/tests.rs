use jiff::Timestamp;

use super::promote::{self, PromoteRequest, PromoteTarget};
use super::*;
use crate::model::{PreferenceKind, Status};

const PATH: &str = ".brain/runtime/session-profile.json";
const GITHUB_TOKEN: &str = "ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1234";

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn now() -> Timestamp {
    ts("2026-11-20T12:00:00Z")
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// The profile of the routing docs' example.
fn ledger_profile() -> SessionPolicy {
    SessionPolicy {
        updated_at: Some(ts("2026-06-01T09:00:00Z")),
        prefer_skills: strings(&["playwright-e2e"]),
        avoid_skills: strings(&["legacy-router"]),
        review_skills: Vec::new(),
        hints: strings(&["touch only the ledger module"]),
        minimal_change: true,
        skip_full_tests: false,
        no_schema_changes: true,
    }
}

#[test]
fn keys_are_the_serialized_keys_in_order() {
    let value = serde_json::to_value(ledger_profile()).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, KEYS);
}

#[test]
fn written_text_parses_back_to_the_same_profile() {
    for profile in [SessionPolicy::default(), ledger_profile()] {
        let text = to_text(&profile);
        assert!(text.ends_with("}\n"), "{text}");
        assert_eq!(parse(text.as_bytes()).unwrap(), profile);
    }
}

#[test]
fn parse_is_strict_and_says_where() {
    // (input, expected profile or (line, column, message))
    type Want = Result<SessionPolicy, (Option<usize>, Option<usize>, &'static str)>;
    let cases: Vec<(&str, &[u8], Want)> = vec![
        ("empty object", b"{}", Ok(SessionPolicy::default())),
        (
            "the docs' example",
            br#"{
  "updated_at": "2026-06-01T09:00:00Z",
  "prefer_skills": ["playwright-e2e"],
  "avoid_skills": ["legacy-router"],
  "review_skills": [],
  "hints": ["touch only the ledger module"],
  "minimal_change": true,
  "skip_full_tests": false,
  "no_schema_changes": true
}"#,
            Ok(ledger_profile()),
        ),
        (
            "a flag alone",
            br#"{"skip_full_tests": true}"#,
            Ok(SessionPolicy {
                skip_full_tests: true,
                ..SessionPolicy::default()
            }),
        ),
        (
            "truncated",
            b"{\n  \"hints\": [\"a\"",
            Err((Some(2), Some(15), "EOF while parsing a list")),
        ),
        (
            "wrong type",
            b"{\n  \"minimal_change\": \"yes\"\n}",
            Err((
                Some(2),
                Some(25),
                "invalid type: string \"yes\", expected a boolean",
            )),
        ),
        (
            "typo in a key",
            br#"{"prefer_skill": ["x"]}"#,
            Err((
                None,
                None,
                "unknown key `prefer_skill` (did you mean `prefer_skills`?)",
            )),
        ),
        (
            "unrelated key",
            br#"{"task": "x"}"#,
            Err((
                None,
                None,
                "unknown key `task`; known keys: updated_at, prefer_skills, avoid_skills, review_skills, hints, minimal_change, skip_full_tests, no_schema_changes",
            )),
        ),
        (
            "not an object",
            b"[]",
            Err((None, None, "expected a JSON object with the profile's keys")),
        ),
        (
            "empty file",
            b"",
            Err((Some(1), Some(0), "EOF while parsing a value")),
        ),
        (
            "not UTF-8",
            b"{\"hints\": [\"\xff\"]}",
            Err((None, None, "the file is not valid UTF-8")),
        ),
        (
            "bad timestamp",
            br#"{"updated_at": "yesterday"}"#,
            Err((Some(1), Some(26), "")),
        ),
    ];
    for (name, input, want) in cases {
        let got = parse(input);
        match (got, want) {
            (Ok(p), Ok(w)) => assert_eq!(p, w, "{name}"),
            (Err(e), Err((line, column, message))) => {
                assert_eq!(e.line, line, "{name}: {e:?}");
                if line.is_some() && column == Some(0) {
                    // serde_json reports column 0 at the very start.
                    assert_eq!(e.column, None, "{name}: {e:?}");
                } else {
                    assert_eq!(e.column, column, "{name}: {e:?}");
                }
                assert!(e.message.starts_with(message), "{name}: {e:?}");
                assert!(!e.message.contains(" at line "), "{name}: {e:?}");
            }
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}

/// The interesting part of a profile: the lists, hints and flags.
/// Prefer, avoid, review, hints and the three flags.
type Lists<'a> = (
    Vec<&'a str>,
    Vec<&'a str>,
    Vec<&'a str>,
    Vec<&'a str>,
    [bool; 3],
);

fn view(p: &SessionPolicy) -> Lists<'_> {
    fn v(l: &[String]) -> Vec<&str> {
        l.iter().map(String::as_str).collect()
    }
    (
        v(&p.prefer_skills),
        v(&p.avoid_skills),
        v(&p.review_skills),
        v(&p.hints),
        [p.minimal_change, p.skip_full_tests, p.no_schema_changes],
    )
}

type View<'a> = (
    &'a [&'a str],
    &'a [&'a str],
    &'a [&'a str],
    &'a [&'a str],
    [bool; 3],
);

#[test]
fn apply_merges_replaces_moves_and_sets_each_flag() {
    let base = ledger_profile();
    let cases: Vec<(&str, Option<SessionPolicy>, SessionUpdate, View<'_>)> = vec![
        (
            "a hint on no profile",
            None,
            SessionUpdate {
                hints: strings(&["stay in src/ledger"]),
                ..SessionUpdate::default()
            },
            (&[], &[], &[], &["stay in src/ledger"], [false; 3]),
        ),
        (
            "merge adds skills and hints, keeps the rest",
            Some(base.clone()),
            SessionUpdate {
                prefer: strings(&["Superpowers:TDD"]),
                review: strings(&["db_migrate"]),
                hints: strings(&["  no new\n dependencies "]),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e", "superpowers:tdd"],
                &["legacy-router"],
                &["db-migrate"],
                &["touch only the ledger module", "no new dependencies"],
                [true, false, true],
            ),
        ),
        (
            "replace starts from empty",
            Some(base.clone()),
            SessionUpdate {
                replace: true,
                avoid: strings(&["full-test-suite"]),
                ..SessionUpdate::default()
            },
            (&[], &["full-test-suite"], &[], &[], [false; 3]),
        ),
        (
            "clear-skills keeps hints and flags",
            Some(base.clone()),
            SessionUpdate {
                clear_skills: true,
                review: strings(&["auth-change"]),
                ..SessionUpdate::default()
            },
            (
                &[],
                &[],
                &["auth-change"],
                &["touch only the ledger module"],
                [true, false, true],
            ),
        ),
        (
            "clear-hints keeps skills and flags",
            Some(base.clone()),
            SessionUpdate {
                clear_hints: true,
                hints: strings(&["only billing"]),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e"],
                &["legacy-router"],
                &[],
                &["only billing"],
                [true, false, true],
            ),
        ),
        (
            "avoiding a preferred skill moves it",
            Some(base.clone()),
            SessionUpdate {
                avoid: strings(&["Playwright E2E"]),
                ..SessionUpdate::default()
            },
            (
                &[],
                &["legacy-router", "playwright-e2e"],
                &[],
                &["touch only the ledger module"],
                [true, false, true],
            ),
        ),
        (
            "drop removes from every list",
            Some(base.clone()),
            SessionUpdate {
                drop: strings(&["legacy_router"]),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e"],
                &[],
                &[],
                &["touch only the ledger module"],
                [true, false, true],
            ),
        ),
        (
            "a repeated hint and skill are kept once",
            Some(base.clone()),
            SessionUpdate {
                prefer: strings(&["playwright-e2e", "playwright_e2e"]),
                hints: strings(&["touch only the  ledger module"]),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e"],
                &["legacy-router"],
                &[],
                &["touch only the ledger module"],
                [true, false, true],
            ),
        ),
        (
            "set every flag",
            Some(SessionPolicy::default()),
            SessionUpdate {
                minimal_change: Some(true),
                skip_full_tests: Some(true),
                no_schema_changes: Some(true),
                ..SessionUpdate::default()
            },
            (&[], &[], &[], &[], [true, true, true]),
        ),
        (
            "unset every flag",
            Some(SessionPolicy {
                minimal_change: true,
                skip_full_tests: true,
                no_schema_changes: true,
                ..SessionPolicy::default()
            }),
            SessionUpdate {
                minimal_change: Some(false),
                skip_full_tests: Some(false),
                no_schema_changes: Some(false),
                ..SessionUpdate::default()
            },
            (&[], &[], &[], &[], [false, false, false]),
        ),
        (
            "only minimal_change",
            Some(base.clone()),
            SessionUpdate {
                minimal_change: Some(false),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e"],
                &["legacy-router"],
                &[],
                &["touch only the ledger module"],
                [false, false, true],
            ),
        ),
        (
            "only skip_full_tests",
            Some(base.clone()),
            SessionUpdate {
                skip_full_tests: Some(true),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e"],
                &["legacy-router"],
                &[],
                &["touch only the ledger module"],
                [true, true, true],
            ),
        ),
        (
            "only no_schema_changes",
            Some(base.clone()),
            SessionUpdate {
                no_schema_changes: Some(false),
                ..SessionUpdate::default()
            },
            (
                &["playwright-e2e"],
                &["legacy-router"],
                &[],
                &["touch only the ledger module"],
                [true, false, false],
            ),
        ),
        (
            "a hand-edited profile is canonicalised",
            Some(SessionPolicy {
                prefer_skills: strings(&["Zeta", "  ", "alpha_one", "alpha-one"]),
                hints: strings(&["", "a  b", "a b"]),
                ..SessionPolicy::default()
            }),
            SessionUpdate {
                clear_hints: false,
                minimal_change: Some(true),
                ..SessionUpdate::default()
            },
            (
                &["alpha-one", "zeta"],
                &[],
                &[],
                &["a b"],
                [true, false, false],
            ),
        ),
    ];
    for (name, base, update, want) in cases {
        let applied =
            apply(base.as_ref(), &update, now()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (prefer, avoid, review, hints, flags) = view(&applied.profile);
        assert_eq!(
            (
                prefer.as_slice(),
                avoid.as_slice(),
                review.as_slice(),
                hints.as_slice(),
                flags
            ),
            want,
            "{name}"
        );
        assert_eq!(applied.profile.updated_at, Some(now()), "{name}");
    }
}

#[test]
fn apply_reports_moves_drops_and_no_ops() {
    let applied = apply(
        Some(&ledger_profile()),
        &SessionUpdate {
            avoid: strings(&["playwright-e2e"]),
            review: strings(&["legacy-router"]),
            drop: strings(&["never-there"]),
            ..SessionUpdate::default()
        },
        now(),
    )
    .unwrap();
    assert_eq!(
        applied.moved,
        vec![
            SkillMove {
                skill: "legacy-router".into(),
                from: SkillList::AvoidSkills,
                to: SkillList::ReviewSkills,
            },
            SkillMove {
                skill: "playwright-e2e".into(),
                from: SkillList::PreferSkills,
                to: SkillList::AvoidSkills,
            },
        ]
    );
    assert!(applied.dropped.is_empty());
    assert_eq!(
        applied.warnings,
        ["`never-there` is in no skill list of the session profile; nothing to drop"]
    );
    let dropped = apply(
        Some(&ledger_profile()),
        &SessionUpdate {
            drop: strings(&["Legacy Router"]),
            ..SessionUpdate::default()
        },
        now(),
    )
    .unwrap();
    assert_eq!(dropped.dropped, ["legacy-router"]);
    assert!(dropped.warnings.is_empty());
}

#[test]
fn apply_refuses_contradictions_and_empty_input() {
    let cases: Vec<(&str, SessionUpdate, &str)> = vec![
        (
            "prefer and avoid",
            SessionUpdate {
                prefer: strings(&["playwright-e2e"]),
                avoid: strings(&["Playwright_E2E"]),
                ..SessionUpdate::default()
            },
            "skill `playwright-e2e` cannot be both preferred and avoided in one request",
        ),
        (
            "avoid and review",
            SessionUpdate {
                avoid: strings(&["db-migrate"]),
                review: strings(&["db-migrate"]),
                ..SessionUpdate::default()
            },
            "skill `db-migrate` cannot be both avoided and sent to review in one request",
        ),
        (
            "prefer and drop",
            SessionUpdate {
                prefer: strings(&["x"]),
                drop: strings(&["x"]),
                ..SessionUpdate::default()
            },
            "skill `x` cannot be both preferred and dropped in one request",
        ),
        (
            "empty skill",
            SessionUpdate {
                review: strings(&[" _- "]),
                ..SessionUpdate::default()
            },
            "invalid skill: ` _- ` is not a skill name: nothing is left once it is normalised",
        ),
        (
            "empty hint",
            SessionUpdate {
                hints: strings(&[" \n "]),
                ..SessionUpdate::default()
            },
            "invalid hint: a hint cannot be empty",
        ),
        (
            "nothing",
            SessionUpdate::default(),
            "nothing to set: give a hint, a skill or a flag",
        ),
    ];
    for (name, update, message) in cases {
        let err = apply(Some(&ledger_profile()), &update, now()).unwrap_err();
        assert_eq!(err.to_string(), message, "{name}");
    }
}

#[test]
fn apply_redacts_secrets_in_hints() {
    let applied = apply(
        None,
        &SessionUpdate {
            hints: strings(&["ok", &format!("push with {GITHUB_TOKEN}")]),
            ..SessionUpdate::default()
        },
        now(),
    )
    .unwrap();
    assert_eq!(
        applied.profile.hints,
        ["ok", "push with [REDACTED:github_token]"]
    );
    assert_eq!(applied.redactions.len(), 1);
    assert_eq!(applied.redactions[0].hint, 1);
    assert_eq!(applied.redactions[0].column, 11);
    assert!(!to_text(&applied.profile).contains(GITHUB_TOKEN));
}

#[test]
fn promoted_preferences_follow_the_lists_with_caution_and_stable_ids() {
    let profile = SessionPolicy {
        prefer_skills: strings(&["playwright-e2e", "ledger-check"]),
        avoid_skills: strings(&["legacy-router", "ledger-check"]),
        review_skills: strings(&["db-migrate"]),
        ..ledger_profile()
    };
    let (prefs, warnings) = promote::preferences(&profile, &[], PATH, now(), Some("ann")).unwrap();
    let got: Vec<(&str, PreferenceKind)> = prefs
        .iter()
        .map(|p| (p.target.as_str(), p.preference))
        .collect();
    assert_eq!(
        got,
        [
            ("db-migrate", PreferenceKind::RequireReview),
            ("ledger-check", PreferenceKind::Avoid),
            ("legacy-router", PreferenceKind::Avoid),
            ("playwright-e2e", PreferenceKind::Prefer),
        ]
    );
    assert_eq!(
        warnings,
        [
            "`ledger-check` is in prefer_skills and avoid_skills; promoting the cautious claim only (avoid)"
        ]
    );
    for p in &prefs {
        assert_eq!(p.status, Status::Candidate);
        assert!(p.problems().is_empty(), "{p:?}");
        assert!(p.task_hints.is_empty() && p.path_hints.is_empty());
        assert_eq!(p.provenance.source, crate::model::Source::Session);
    }
    assert_eq!(
        prefs[3].provenance.evidence[0].value,
        "session profile .brain/runtime/session-profile.json (prefer_skills, updated 2026-06-01T09:00:00Z)"
    );
    // Another time and actor: the same ids.
    let (again, _) =
        promote::preferences(&profile, &[], PATH, ts("2027-01-01T00:00:00Z"), None).unwrap();
    let ids = |ps: &[crate::model::Preference]| ps.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&prefs), ids(&again));
    assert!(prefs[3].id.as_str().starts_with("prefer-playwright-e2e-"));

    let (only, _) =
        promote::preferences(&profile, &strings(&["Legacy Router"]), PATH, now(), None).unwrap();
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].target, "legacy-router");
    let err = promote::preferences(&profile, &strings(&["nope"]), PATH, now(), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid skill: `nope` is in no skill list of the session profile"
    );
    let err = promote::preferences(&SessionPolicy::default(), &[], PATH, now(), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nothing to promote: the session profile lists no skills"
    );
}

#[test]
fn promoted_memory_is_one_convention_of_hints_and_flags() {
    let profile = SessionPolicy {
        hints: strings(&["touch only the ledger module", "no new dependencies"]),
        skip_full_tests: true,
        ..ledger_profile()
    };
    let (m, redactions) = promote::memory(&profile, &[], PATH, now(), Some("ann")).unwrap();
    assert!(redactions.is_empty());
    assert_eq!(m.kind, crate::model::MemoryType::Convention);
    assert_eq!(m.status, Status::Candidate);
    assert!(m.problems().is_empty(), "{m:?}");
    assert_eq!(m.tags, ["session-profile"]);
    assert_eq!(
        m.summary,
        "Touch only the ledger module; no new dependencies; keep changes as small as possible; \
         run only the affected tests, not the full suite; do not change the database schema."
    );
    assert_eq!(
        m.title,
        "Touch only the ledger module; no new dependencies; keep changes as small as possible; run only…"
    );
    assert!(m.title.chars().count() <= 97);
    assert!(
        m.detail.contains("\n- do not change the database schema\n"),
        "{}",
        m.detail
    );
    // The id depends on the content only.
    let (again, _) =
        promote::memory(&profile, &[], PATH, ts("2027-01-01T00:00:00Z"), Some("bob")).unwrap();
    assert_eq!(m.id, again.id);

    // Chosen hints only, without flags, in profile order.
    let (only, _) = promote::memory(
        &profile,
        &strings(&["no new  dependencies", "touch only the ledger module"]),
        PATH,
        now(),
        None,
    )
    .unwrap();
    assert_eq!(
        only.summary,
        "Touch only the ledger module; no new dependencies."
    );
    assert_ne!(only.id, m.id);
    let err = promote::memory(&profile, &strings(&["other"]), PATH, now(), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid hint: `other` is not a hint of the session profile"
    );
    let err = promote::memory(&SessionPolicy::default(), &[], PATH, now(), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nothing to promote: the session profile has no hints and no flag set"
    );
}

#[test]
fn promoted_memory_never_carries_a_secret_even_in_a_cut_title() {
    // The token straddles the title's cut: redacting after the cut would
    // leave a prefix the firewall cannot recognise.
    let hint = format!("{} {GITHUB_TOKEN} for deploys", "x".repeat(80));
    let profile = SessionPolicy {
        hints: vec![hint],
        ..SessionPolicy::default()
    };
    let (m, redactions) = promote::memory(&profile, &[], PATH, now(), None).unwrap();
    let text = crate::yaml::memory_to_string(&m);
    assert!(!text.contains("ghp_"), "{text}");
    assert!(text.contains("[REDACTED:github_token]"), "{text}");
    assert_eq!(redactions.len(), 1);
    assert_eq!(redactions[0].id, m.id);
    assert_eq!(redactions[0].field, "hints");
}

fn store() -> (tempfile::TempDir, Brain) {
    let tmp = tempfile::tempdir().unwrap();
    Brain::init(tmp.path(), crate::config::Workflow::default(), false).unwrap();
    let brain = Brain::open(tmp.path()).unwrap();
    (tmp, brain)
}

#[test]
fn facade_sets_shows_clears_and_refuses_a_corrupt_file() {
    let (tmp, brain) = store();
    assert!(!brain.session_show().unwrap().exists);
    let set = brain
        .session_set(
            &SessionUpdate {
                prefer: strings(&["playwright-e2e"]),
                ..SessionUpdate::default()
            },
            now(),
        )
        .unwrap();
    assert!(set.created);
    assert_eq!(set.path, PATH);
    let shown = brain.session_show().unwrap();
    assert_eq!(shown.profile.as_ref(), Some(&set.profile));

    let file = tmp.path().join(PATH);
    std::fs::write(&file, "{\"prefer_skills\": [1]}").unwrap();
    let err = brain.session_show().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid session profile `.brain/runtime/session-profile.json` at line 1 column 20"
    );
    let merge = brain.session_set(
        &SessionUpdate {
            hints: strings(&["x"]),
            ..SessionUpdate::default()
        },
        now(),
    );
    assert!(matches!(merge, Err(Error::Corrupt { .. })), "{merge:?}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{\"prefer_skills\": [1]}",
        "a refused set writes nothing"
    );
    // --replace does not read the old file.
    let replaced = brain
        .session_set(
            &SessionUpdate {
                replace: true,
                hints: strings(&["x"]),
                ..SessionUpdate::default()
            },
            now(),
        )
        .unwrap();
    assert!(!replaced.created && replaced.replaced);
    assert!(brain.session_clear().unwrap().removed);
    assert!(!brain.session_clear().unwrap().removed);
    assert!(matches!(
        brain.session_promote(
            &PromoteRequest {
                to: PromoteTarget::Memory,
                skills: Vec::new(),
                hints: Vec::new(),
            },
            now(),
            None,
        ),
        Err(Error::Missing { .. })
    ));
}

#[test]
fn facade_promotes_once_and_recognises_equivalent_preferences() {
    let (tmp, brain) = store();
    brain
        .session_set(
            &SessionUpdate {
                prefer: strings(&["playwright-e2e"]),
                avoid: strings(&["legacy-router"]),
                hints: strings(&["touch only the ledger module"]),
                minimal_change: Some(true),
                ..SessionUpdate::default()
            },
            now(),
        )
        .unwrap();
    // A team preference that already avoids legacy-router, under its own id.
    let existing = "schema_version: 1\nid: avoid-legacy-router-fa32f161\nstatus: active\n\
        target_type: skill\ntarget: Legacy_Router\npreference: avoid\n\
        provenance:\n  source: manual\n  captured_at: \"2026-04-14T10:10:00Z\"\n";
    std::fs::write(
        tmp.path()
            .join(".brain/preferences/avoid-legacy-router-fa32f161.yaml"),
        existing,
    )
    .unwrap();
    let to_prefs = PromoteRequest {
        to: PromoteTarget::Preference,
        skills: Vec::new(),
        hints: Vec::new(),
    };
    let first = brain
        .session_promote(&to_prefs, now(), Some("ann"))
        .unwrap();
    let written: Vec<&str> = first
        .written
        .iter()
        .map(|r| r.description.as_str())
        .collect();
    assert_eq!(written, ["prefer playwright-e2e"]);
    assert_eq!(first.unchanged.len(), 1);
    assert_eq!(
        first.unchanged[0].id.as_str(),
        "avoid-legacy-router-fa32f161"
    );
    assert_eq!(first.unchanged[0].status, Some(Status::Active));
    let again = brain
        .session_promote(&to_prefs, ts("2026-11-21T00:00:00Z"), Some("bob"))
        .unwrap();
    assert!(again.written.is_empty());
    assert_eq!(again.unchanged.len(), 2);
    assert_eq!(again.unchanged[1].id, first.written[0].id);
    assert_eq!(again.unchanged[1].status, Some(Status::Candidate));

    let to_memory = PromoteRequest {
        to: PromoteTarget::Memory,
        skills: Vec::new(),
        hints: Vec::new(),
    };
    let memory = brain.session_promote(&to_memory, now(), None).unwrap();
    assert_eq!(memory.written.len(), 1);
    assert!(memory.written[0].path.starts_with(".brain/conventions/"));
    let twice = brain.session_promote(&to_memory, now(), None).unwrap();
    assert!(twice.written.is_empty());
    assert_eq!(twice.unchanged[0].id, memory.written[0].id);
    // Every file written is a valid candidate.
    let catalog = brain.store().load_uncached();
    assert!(catalog.problems.is_empty(), "{:?}", catalog.problems);
    assert_eq!(catalog.memories.len(), 1);
    assert_eq!(catalog.preferences.len(), 2);
}

#[test]
fn promote_relates_each_skill_to_stored_preferences_of_the_same_scope() {
    // (stored preference: status, target, kind, hints; what promoting
    // `prefer x` does: the stored id reported unchanged, or written with
    // the number of contradiction warnings)
    type Case<'a> = (&'a str, &'a str, &'a str, &'a str, Result<&'a str, usize>);
    let cases: [Case<'_>; 7] = [
        ("active", "X", "prefer", "", Ok("stored-x-00000001")),
        ("stale", "x", "prefer", "", Ok("stored-x-00000001")),
        ("dismissed", "x", "prefer", "", Ok("stored-x-00000001")),
        ("superseded", "x", "prefer", "", Err(0)),
        ("active", "x", "prefer", "task_hints:\n- refunds\n", Err(0)),
        ("active", "x", "avoid", "", Err(1)),
        ("candidate", "x", "avoid", "", Err(0)),
    ];
    for (status, target, kind, hints, want) in cases {
        let (tmp, brain) = store();
        let lineage = if status == "superseded" {
            "lineage:\n  superseded_by: other-00000002\n"
        } else {
            ""
        };
        let review = match status {
            "dismissed" => "review:\n  state: rejected\n",
            "candidate" => "review:\n  state: pending\n",
            _ => "",
        };
        std::fs::write(
            tmp.path().join(".brain/preferences/stored-x-00000001.yaml"),
            format!(
                "schema_version: 1\nid: stored-x-00000001\nstatus: {status}\ntarget_type: skill\n\
                 target: {target}\npreference: {kind}\n{hints}{lineage}provenance:\n  source: manual\n  \
                 captured_at: \"2026-01-01T00:00:00Z\"\n{review}"
            ),
        )
        .unwrap();
        brain
            .session_set(
                &SessionUpdate {
                    prefer: strings(&["x"]),
                    ..SessionUpdate::default()
                },
                now(),
            )
            .unwrap();
        let report = brain
            .session_promote(
                &PromoteRequest {
                    to: PromoteTarget::Preference,
                    skills: Vec::new(),
                    hints: Vec::new(),
                },
                now(),
                None,
            )
            .unwrap();
        let case = format!("{status} {kind} {target} {hints:?}");
        match want {
            Ok(id) => {
                assert!(report.written.is_empty(), "{case}: {report:?}");
                assert_eq!(report.unchanged[0].id.as_str(), id, "{case}");
            }
            Err(warnings) => {
                assert_eq!(report.written.len(), 1, "{case}: {report:?}");
                assert_eq!(report.warnings.len(), warnings, "{case}: {report:?}");
            }
        }
    }
}
