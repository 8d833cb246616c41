use jiff::Timestamp;

use super::apply::plan;
use super::*;
use crate::model::{
    Confidence, Lineage, Preference, PreferenceKind, Provenance, Review, ReviewState,
    SchemaVersion, Source, Status, TargetType, Validity,
};
use crate::store::Loaded;

fn now() -> Timestamp {
    "2026-11-20T12:00:00Z".parse().unwrap()
}

fn event(json: &str) -> Result<Event, (&'static str, String)> {
    Event::from_input(serde_json::from_str(json).unwrap())
}

fn pref(
    id: &str,
    target_type: TargetType,
    target: &str,
    kind: PreferenceKind,
    status: Status,
    confidence: f64,
) -> Loaded<Preference> {
    let review = match status {
        Status::Candidate => Review {
            state: Some(ReviewState::Pending),
            ..Review::default()
        },
        Status::Dismissed => Review {
            state: Some(ReviewState::Rejected),
            ..Review::default()
        },
        _ => Review::default(),
    };
    Loaded {
        path: format!(".brain/preferences/{id}.yaml"),
        record: Preference {
            schema_version: SchemaVersion::CURRENT,
            id: MemoryId::new(id).unwrap(),
            status,
            target_type,
            target: target.to_owned(),
            preference: kind,
            confidence: Confidence::new(confidence).unwrap(),
            reason: String::new(),
            task_hints: Vec::new(),
            path_hints: Vec::new(),
            validity: Validity::default(),
            lineage: Lineage::default(),
            provenance: Provenance {
                source: Source::Manual,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
            review,
        },
    }
}

#[test]
fn events_are_validated_and_normalised() {
    type Expect = Result<(TargetType, &'static str), (&'static str, &'static str)>;
    let cases: &[(&str, Expect)] = &[
        (
            r#"{"type":"skill_rejected_by_user","skill":"Playwright E2E"}"#,
            Ok((TargetType::Skill, "playwright-e2e")),
        ),
        (
            r#"{"type":"skill_followed","skill":"x","workflow":"tdd"}"#,
            Ok((TargetType::Skill, "x")),
        ),
        (
            r#"{"type":"workflow_too_heavy","workflow":"Full_Test  Suite","skill":"x"}"#,
            Ok((TargetType::Workflow, "full-test-suite")),
        ),
        (
            r#"{"type":"routing_conflict_escalated","workflow":"deploy"}"#,
            Ok((TargetType::Workflow, "deploy")),
        ),
        (
            r#"{"type":"routing_conflict_escalated","skill":"a","workflow":"b"}"#,
            Ok((TargetType::Skill, "a")),
        ),
        (
            r#"{"type":"skill_ignored","workflow":"tdd"}"#,
            Err(("skill", "needs a `skill`")),
        ),
        (
            r#"{"type":"workflow_success","skill":"tdd"}"#,
            Err(("workflow", "needs a `workflow`")),
        ),
        (
            r#"{"type":"routing_conflict_escalated","notes":"help"}"#,
            Err(("skill", "needs a `skill` or a `workflow`")),
        ),
        (
            r#"{"type":"skill_followed","skill":"  _ "}"#,
            Err(("skill", "is empty")),
        ),
        (
            r#"{"type":"skill_followed","skill":"a\nb"}"#,
            Err(("skill", "one line")),
        ),
        (
            r#"{"type":"skill_followed","skill":"a","strength":1.5}"#,
            Err(("strength", "outside the range 0 to 1")),
        ),
        (
            r#"{"type":"skill_followed","skill":"a","strength":-0.1}"#,
            Err(("strength", "outside the range 0 to 1")),
        ),
        (
            r#"{"type":"skill_followed","skill":"a","plan_id":"0123456789ABCDEF"}"#,
            Err(("plan_id", "16 lowercase hex digits")),
        ),
        (
            r#"{"type":"skill_followed","skill":"a","plan_id":"0123"}"#,
            Err(("plan_id", "not a plan id")),
        ),
        (
            r#"{"type":"skill_followed","skill":"a","id":"has space"}"#,
            Err(("id", "not an event id")),
        ),
    ];
    for (json, expect) in cases {
        match (event(json), expect) {
            (Ok(e), Ok((tt, target))) => {
                assert_eq!((e.target_type, e.target.as_str()), (*tt, *target), "{json}");
            }
            (Err((field, message)), Err((want_field, want))) => {
                assert_eq!(field, *want_field, "{json}");
                assert!(message.contains(want), "{json}: {message}");
            }
            (got, _) => panic!("{json}: {got:?}"),
        }
    }
    let long = format!(
        r#"{{"type":"skill_followed","skill":"a","notes":"{}"}}"#,
        "x".repeat(MAX_NOTES_CHARS + 1)
    );
    assert_eq!(event(&long).unwrap_err().0, "notes");
}

#[test]
fn ids_depend_on_content_not_spelling() {
    let base = event(r#"{"type":"skill_rejected_by_user","skill":"playwright-e2e","plan_id":"0123456789abcdef","notes":"too slow"}"#).unwrap();
    assert_eq!(base.id.len(), 16);
    assert!(base.id.bytes().all(|b| b.is_ascii_hexdigit()));
    let same = [
        r#"{"type":"skill_rejected_by_user","skill":"Playwright_E2E","plan_id":"0123456789abcdef","notes":"  too slow\n","strength":1}"#,
        r#"{"notes":"too slow","strength":1.0,"plan_id":"0123456789abcdef","skill":"playwright e2e","type":"skill_rejected_by_user"}"#,
    ];
    for json in same {
        assert_eq!(event(json).unwrap().id, base.id, "{json}");
    }
    let different = [
        r#"{"type":"skill_rejected_by_user","skill":"playwright-e2e","plan_id":"0123456789abcdef","notes":"too slow!"}"#,
        r#"{"type":"skill_rejected_by_user","skill":"playwright-e2e","plan_id":"0123456789abcdee","notes":"too slow"}"#,
        r#"{"type":"skill_ignored","skill":"playwright-e2e","plan_id":"0123456789abcdef","notes":"too slow"}"#,
        r#"{"type":"skill_rejected_by_user","skill":"playwright-e2e","plan_id":"0123456789abcdef","notes":"too slow","strength":0.9}"#,
        r#"{"type":"skill_rejected_by_user","skill":"playwright-e2e","plan_id":"0123456789abcdef","notes":"too slow","at":"2026-11-20T12:00:00Z"}"#,
    ];
    for json in different {
        assert_ne!(event(json).unwrap().id, base.id, "{json}");
    }
    let explicit = event(r#"{"type":"skill_followed","skill":"a","id":"sess-42:evt.7"}"#).unwrap();
    assert_eq!(explicit.id, "sess-42:evt.7");
}

#[test]
fn secrets_in_notes_never_reach_the_event() {
    let e = event(r#"{"type":"skill_rejected_by_user","skill":"deploy","notes":"token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 leaked"}"#).unwrap();
    let notes = e.notes.unwrap();
    assert!(!notes.contains("ghp_"), "{notes}");
    assert!(notes.contains("[REDACTED:"), "{notes}");
}

#[test]
fn strength_levels() {
    use EventType as T;
    let cases = [
        (0.0, Level::Weak),
        (0.34, Level::Weak),
        (0.35, Level::Normal),
        (0.69, Level::Normal),
        (0.7, Level::Strong),
        (1.0, Level::Strong),
    ];
    for (s, level) in cases {
        assert_eq!(Level::of(s), level, "{s}");
    }
    let negative = [
        (T::SkillRejectedByUser, Level::Normal, true),
        (T::SkillRejectedByUser, Level::Weak, false),
        (T::WorkflowTooHeavy, Level::Normal, true),
        (T::WorkflowFailure, Level::Strong, true),
        (T::SkillIgnored, Level::Normal, false),
        (T::SkillIgnored, Level::Strong, true),
        (T::RoutingConflictEscalated, Level::Strong, false),
        (T::SkillFollowed, Level::Strong, false),
    ];
    for (t, level, want) in negative {
        assert_eq!(t.is_negative(level), want, "{t:?} {level:?}");
    }
}

/// The store every planning case starts from.
fn store() -> Vec<Loaded<Preference>> {
    use PreferenceKind::{Avoid, Prefer, RequireReview};
    use Status::{Active, Candidate, Dismissed, Superseded};
    use TargetType::{Skill, TaskClass, Workflow};
    let mut pending = pref(
        "prefer-pending-00000004",
        Skill,
        "pending",
        Prefer,
        Active,
        0.8,
    );
    pending.record.review.state = Some(ReviewState::Pending);
    let mut old = pref(
        "prefer-old-00000009",
        Skill,
        "playwright-e2e",
        Prefer,
        Superseded,
        0.5,
    );
    old.record.lineage.superseded_by = Some(MemoryId::new("x-1").unwrap());
    let mut expired = pref(
        "prefer-expired-0000000a",
        Skill,
        "expired",
        Prefer,
        Active,
        0.8,
    );
    expired.record.validity.valid_until = Some("2026-01-01T00:00:00Z".parse().unwrap());
    vec![
        pref(
            "prefer-ledger-00000001",
            Skill,
            "Ledger Invariant Check",
            Prefer,
            Active,
            0.8,
        ),
        pref(
            "prefer-ledger-00000002",
            Skill,
            "ledger-invariant-check",
            Prefer,
            Candidate,
            0.5,
        ),
        pref(
            "prefer-e2e-00000003",
            Skill,
            "playwright-e2e",
            Prefer,
            Candidate,
            0.6,
        ),
        pending,
        pref(
            "avoid-router-00000005",
            Skill,
            "legacy-router",
            Avoid,
            Active,
            0.9,
        ),
        pref(
            "avoid-slow-00000006",
            Workflow,
            "full-suite",
            Avoid,
            Candidate,
            0.7,
        ),
        pref("avoid-gone-00000007", Skill, "gone", Avoid, Dismissed, 0.7),
        pref(
            "review-auth-00000008",
            Skill,
            "auth-change",
            RequireReview,
            Active,
            1.0,
        ),
        old,
        expired,
        pref(
            "prefer-capped-0000000b",
            Skill,
            "capped",
            Prefer,
            Active,
            1.0,
        ),
        pref(
            "prefer-near-0000000c",
            Workflow,
            "tdd",
            Prefer,
            Active,
            0.93,
        ),
        pref(
            "prefer-class-0000000d",
            TaskClass,
            "tdd",
            Prefer,
            Active,
            0.5,
        ),
    ]
}

#[test]
fn planning_table() {
    use ChangeAction::{ConfidenceRaised, Created, EvidenceAdded, MarkedPendingReview, Unchanged};
    type Case = (
        &'static str,
        Outcome,
        &'static [(&'static str, ChangeAction, f64)],
    );
    let cases: &[Case] = &[
        // Positive: every open prefer of the same target and type, by 0.05.
        (
            r#"{"type":"skill_followed","skill":"ledger_invariant_check"}"#,
            Outcome::ConfidenceRaised,
            &[
                ("prefer-ledger-00000001", ConfidenceRaised, 0.85),
                ("prefer-ledger-00000002", ConfidenceRaised, 0.55),
            ],
        ),
        (
            r#"{"type":"skill_followed","skill":"playwright-e2e","strength":0.4}"#,
            Outcome::ConfidenceRaised,
            &[("prefer-e2e-00000003", ConfidenceRaised, 0.65)],
        ),
        // Never above the cap; a value above it is not lowered.
        (
            r#"{"type":"workflow_success","workflow":"tdd"}"#,
            Outcome::ConfidenceRaised,
            &[("prefer-near-0000000c", ConfidenceRaised, 0.95)],
        ),
        (
            r#"{"type":"skill_followed","skill":"capped"}"#,
            Outcome::ConfidenceAtCap,
            &[("prefer-capped-0000000b", Unchanged, 1.0)],
        ),
        (
            r#"{"type":"skill_followed","skill":"legacy-router"}"#,
            Outcome::NoPreferPreference,
            &[],
        ),
        (
            r#"{"type":"skill_followed","skill":"ledger-invariant-check","strength":0.2}"#,
            Outcome::TooWeak,
            &[],
        ),
        // Negative against an active prefer: strong marks it, normal does not.
        (
            r#"{"type":"skill_rejected_by_user","skill":"ledger-invariant-check"}"#,
            Outcome::PreferPendingReview,
            &[("prefer-ledger-00000001", MarkedPendingReview, 0.8)],
        ),
        (
            r#"{"type":"skill_rejected_by_user","skill":"ledger-invariant-check","strength":0.5}"#,
            Outcome::ConflictNotStrong,
            &[("prefer-ledger-00000001", Unchanged, 0.8)],
        ),
        (
            r#"{"type":"skill_rejected_by_user","skill":"pending"}"#,
            Outcome::AlreadyPendingReview,
            &[("prefer-pending-00000004", EvidenceAdded, 0.8)],
        ),
        // A candidate prefer does not block an avoid candidate.
        (
            r#"{"type":"skill_rejected_by_user","skill":"playwright-e2e"}"#,
            Outcome::AvoidProposed,
            &[("avoid-playwright-e2e-", Created, 0.9)],
        ),
        (
            r#"{"type":"workflow_failure","workflow":"tdd","strength":0.5}"#,
            Outcome::ConflictNotStrong,
            &[("prefer-near-0000000c", Unchanged, 0.93)],
        ),
        (
            r#"{"type":"skill_rejected_by_user","skill":"legacy-router"}"#,
            Outcome::AlreadyAvoided,
            &[("avoid-router-00000005", Unchanged, 0.9)],
        ),
        (
            r#"{"type":"skill_rejected_by_user","skill":"auth-change"}"#,
            Outcome::AlreadyAvoided,
            &[("review-auth-00000008", Unchanged, 1.0)],
        ),
        (
            r#"{"type":"workflow_too_heavy","workflow":"full-suite","strength":0.5}"#,
            Outcome::EvidenceAdded,
            &[("avoid-slow-00000006", EvidenceAdded, 0.7)],
        ),
        (
            r#"{"type":"skill_rejected_by_user","skill":"gone"}"#,
            Outcome::PreviouslyDismissed,
            &[("avoid-gone-00000007", Unchanged, 0.7)],
        ),
        // An expired prefer is not in force, so it does not block.
        (
            r#"{"type":"workflow_failure","workflow":"expired","strength":0.35}"#,
            Outcome::AvoidProposed,
            &[("avoid-expired-", Created, 0.64)],
        ),
        // skill_ignored: a reminder, negative only when strong.
        (
            r#"{"type":"skill_ignored","skill":"new-skill","strength":0.6}"#,
            Outcome::ReminderQueued,
            &[],
        ),
        (
            r#"{"type":"skill_ignored","skill":"new-skill","strength":0.7}"#,
            Outcome::AvoidProposed,
            &[("avoid-new-skill-", Created, 0.78)],
        ),
        (
            r#"{"type":"routing_conflict_escalated","skill":"legacy-router"}"#,
            Outcome::ReminderQueued,
            &[],
        ),
    ];
    let prefs = store();
    for (json, outcome, changes) in cases {
        let e = event(json).unwrap();
        let p = plan(&e, &prefs, now(), Some("Ann <ann@example.com>"));
        assert_eq!(p.outcome, *outcome, "{json}");
        let got: Vec<(String, ChangeAction, f64)> = p
            .changes
            .iter()
            .map(|c| (c.record.id.to_string(), c.action, c.record.confidence.get()))
            .collect();
        assert_eq!(got.len(), changes.len(), "{json}: {got:?}");
        for ((id, action, conf), (want_id, want_action, want_conf)) in got.iter().zip(*changes) {
            assert!(id.starts_with(want_id), "{json}: {got:?}");
            assert_eq!(action, want_action, "{json}: {got:?}");
            assert!((conf - want_conf).abs() < 1e-9, "{json}: {got:?}");
        }
        for c in &p.changes {
            if c.action != Unchanged {
                assert!(
                    c.record
                        .provenance
                        .evidence
                        .iter()
                        .any(|ev| ev.value.starts_with(&format!("routing feedback {}:", e.id))),
                    "{json}: the event is its evidence"
                );
            }
            if c.action == Created {
                assert_eq!(c.record.status, Status::Candidate);
                assert_eq!(c.record.review.state, Some(ReviewState::Pending));
                assert_eq!(c.record.preference, PreferenceKind::Avoid);
                assert_eq!(c.record.provenance.source, Source::Feedback);
                assert!(c.record.problems().is_empty(), "{:?}", c.record.problems());
            }
            if c.action == MarkedPendingReview {
                assert_eq!(c.record.status, Status::Active);
                assert_eq!(c.record.review.state, Some(ReviewState::Pending));
                assert!(!crate::route::preference_eligible(&c.record, now()));
            }
        }
    }
}

#[test]
fn a_second_event_for_the_same_avoid_adds_evidence_and_a_replayed_one_nothing() {
    let mut prefs = store();
    let first =
        event(r#"{"type":"skill_rejected_by_user","skill":"new-skill","notes":"slow"}"#).unwrap();
    let p = plan(&first, &prefs, now(), None);
    let created = p.changes[0].record.clone();
    assert_eq!(created.id, avoid_id(TargetType::Skill, "new-skill"));
    prefs.push(Loaded {
        path: format!(".brain/preferences/{}.yaml", created.id),
        record: created,
    });
    let second = event(r#"{"type":"workflow_too_heavy","workflow":"x","notes":"n"}"#).unwrap();
    assert_eq!(
        plan(&second, &prefs, now(), None).outcome,
        Outcome::AvoidProposed
    );
    let other = event(r#"{"type":"skill_ignored","skill":"New Skill","strength":0.9}"#).unwrap();
    let p = plan(&other, &prefs, now(), None);
    assert_eq!(p.outcome, Outcome::EvidenceAdded);
    assert_eq!(p.changes[0].record.provenance.evidence.len(), 2);
    // The first event again (its ledger line lost): its evidence is there.
    let p = plan(&first, &prefs, now(), None);
    assert_eq!(p.outcome, Outcome::EvidenceAdded);
    assert_eq!(p.changes[0].action, ChangeAction::Unchanged);
}

#[test]
fn the_avoid_id_depends_on_the_target_only() {
    let a = avoid_id(TargetType::Skill, "playwright-e2e");
    assert!(a.as_str().starts_with("avoid-playwright-e2e-"), "{a}");
    assert_eq!(a, avoid_id(TargetType::Skill, "playwright-e2e"));
    assert_ne!(a, avoid_id(TargetType::Workflow, "playwright-e2e"));
}

#[test]
fn parse_reports_each_bad_line_and_keeps_the_good_ones() {
    let text = "{\"type\":\"skill_followed\",\"skill\":\"a\"}\n{\"type\":\"skill_loved\",\"skill\":\"a\"}\n{\"type\":\"skill_followed\",\"skill\":\"a\",\"colour\":1}\n{\"type\":\"skill_followed\"\n{\"type\":\"skill_followed\",\"skill\":\"b\",\"strength\":2}\n";
    let parsed = parse(text).unwrap();
    assert_eq!(parsed.events.len(), 1);
    assert_eq!(parsed.events[0].0, 1);
    let kinds: Vec<(usize, LineErrorKind, Option<&str>)> = parsed
        .errors
        .iter()
        .map(|e| (e.line, e.kind, e.field.as_deref()))
        .collect();
    assert_eq!(
        kinds,
        [
            (2, LineErrorKind::UnknownType, Some("type")),
            (3, LineErrorKind::InvalidField, Some("colour")),
            (4, LineErrorKind::InvalidJson, None),
            (5, LineErrorKind::InvalidValue, Some("strength")),
        ]
    );
    assert!(
        parsed.errors[0]
            .message
            .starts_with("unknown variant `skill_loved`, expected one of `skill_followed`"),
        "{}",
        parsed.errors[0].message
    );
}
