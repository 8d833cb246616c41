//! Property: any memory or preference, once normalized, survives
//! YAML → record → YAML byte for byte, and the record is unchanged.

use brain_core::model::{
    Confidence, DateOrTime, Evidence, EvidenceKind, Importance, InvocationMode, Memory, MemoryId,
    MemoryType, Preference, PreferenceKind, Provenance, Review, ReviewState, Risk, SchemaVersion,
    Source, Status, TargetType,
};
use brain_core::yaml;
use jiff::Timestamp;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ._:#@&*!|>'\"%{}\\[\\],-]{0,40}",
        "\\PC{0,30}",
        // YAML 1.1 traps: must stay strings.
        prop::sample::select(vec![
            "yes",
            "no",
            "on",
            "off",
            "~",
            "null",
            "1e3",
            "0x10",
            "010",
            "1_000",
            "12:30:00",
            "2024-01-02",
            "- dash",
            ": colon",
            "#hash",
            "true",
            ".inf",
            "NaN",
            "  lead",
            "trail  ",
        ])
        .prop_map(str::to_owned),
    ]
}

fn multiline() -> impl Strategy<Value = String> {
    prop::collection::vec(text(), 0..5).prop_map(|lines| lines.join("\n"))
}

fn words() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(text(), 0..4)
}

fn id() -> impl Strategy<Value = MemoryId> {
    "[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?".prop_map(|s| MemoryId::new(s).unwrap())
}

fn timestamp() -> impl Strategy<Value = Timestamp> {
    (
        0i64..4_000_000_000,
        prop_oneof![Just(0i32), 0i32..1_000_000_000],
    )
        .prop_map(|(s, n)| Timestamp::new(s, n).unwrap())
}

fn opt<T: std::fmt::Debug + Clone>(
    s: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    prop::option::of(s)
}

fn provenance() -> impl Strategy<Value = Provenance> {
    (
        prop::sample::select(vec![
            Source::Manual,
            Source::Session,
            Source::Commit,
            Source::Import,
            Source::Feedback,
            Source::Failure,
        ]),
        timestamp(),
        opt(text()),
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    EvidenceKind::Commit,
                    EvidenceKind::File,
                    EvidenceKind::Session,
                    EvidenceKind::Url,
                    EvidenceKind::Note,
                ]),
                text(),
            )
                .prop_map(|(kind, value)| Evidence { kind, value }),
            0..3,
        ),
    )
        .prop_map(|(source, captured_at, proposed_by, evidence)| Provenance {
            source,
            captured_at,
            proposed_by,
            evidence,
        })
}

fn review() -> impl Strategy<Value = Review> {
    (
        opt(prop::sample::select(vec![
            ReviewState::Pending,
            ReviewState::Approved,
            ReviewState::Rejected,
        ])),
        opt(timestamp()),
        opt(text()),
        opt(text()),
    )
        .prop_map(|(state, decided_at, decided_by, reason)| Review {
            state,
            decided_at,
            decided_by,
            reason,
        })
}

fn status() -> impl Strategy<Value = Status> {
    prop::sample::select(Status::ALL.to_vec())
}

fn expires() -> impl Strategy<Value = DateOrTime> {
    prop_oneof![
        timestamp().prop_map(DateOrTime::Time),
        (2000i16..2100, 1i8..=12, 1i8..=28)
            .prop_map(|(y, m, d)| DateOrTime::Date(jiff::civil::date(y, m, d))),
    ]
}

fn memory() -> impl Strategy<Value = Memory> {
    let head = (
        id(),
        prop::sample::select(MemoryType::ALL.to_vec()),
        status(),
        text(),
        text(),
        multiline(),
        prop::sample::select(vec![
            Importance::Low,
            Importance::Medium,
            Importance::High,
            Importance::Critical,
        ]),
        prop::sample::select(vec![Risk::Low, Risk::Medium, Risk::High]),
        prop_oneof![Just(1.0f64), 0.0f64..=1.0],
        words(),
    );
    let scope_routing = (
        words(),
        words(),
        words(),
        words(),
        words(),
        words(),
        words(),
        prop::sample::select(vec![
            InvocationMode::Required,
            InvocationMode::Prefer,
            InvocationMode::Optional,
            InvocationMode::Suppress,
        ]),
    );
    let tail = (
        (
            opt(timestamp()),
            opt(timestamp()),
            opt(expires()),
            opt(timestamp()),
        ),
        (
            1u32..5,
            prop::collection::vec(id(), 0..3),
            opt(id()),
            prop::collection::vec(id(), 0..3),
        ),
        provenance(),
        review(),
        multiline(),
    );
    (head, scope_routing, tail).prop_map(|(h, sr, t)| {
        let (id, kind, status, title, summary, detail, importance, risk, confidence, tags) = h;
        let mut m = Memory::new(id, kind, status, title, summary, t.2);
        m.detail = detail;
        m.importance = importance;
        m.risk = risk;
        m.confidence = Confidence::new(confidence).unwrap();
        m.tags = tags;
        m.scope.paths = sr.0;
        m.scope.modules = sr.1;
        m.routing.recommended_skills = sr.2;
        m.routing.required_skills = sr.3;
        m.routing.suppressed_skills = sr.4;
        m.routing.trigger_paths = sr.5;
        m.routing.trigger_tasks = sr.6;
        m.routing.invocation_mode = sr.7;
        let (v, l, _, review, notes) = t;
        m.validity.valid_from = v.0;
        m.validity.valid_until = v.1;
        m.validity.expires = v.2;
        m.validity.observed_at = v.3;
        m.lineage.version = l.0;
        m.lineage.supersedes = l.1;
        m.lineage.superseded_by = l.2;
        m.lineage.related = l.3;
        m.review = review;
        m.notes = notes;
        m
    })
}

fn preference() -> impl Strategy<Value = Preference> {
    (
        id(),
        status(),
        prop::sample::select(vec![
            TargetType::Skill,
            TargetType::Workflow,
            TargetType::TaskClass,
        ]),
        text(),
        prop::sample::select(vec![
            PreferenceKind::Prefer,
            PreferenceKind::Avoid,
            PreferenceKind::RequireReview,
        ]),
        0.0f64..=1.0,
        multiline(),
        words(),
        words(),
        provenance(),
        review(),
    )
        .prop_map(
            |(id, status, target_type, target, preference, c, reason, th, ph, prov, review)| {
                Preference {
                    schema_version: SchemaVersion::CURRENT,
                    id,
                    status,
                    target_type,
                    target,
                    preference,
                    confidence: Confidence::new(c).unwrap(),
                    reason,
                    task_hints: th,
                    path_hints: ph,
                    validity: brain_core::model::Validity::default(),
                    lineage: brain_core::model::Lineage::default(),
                    provenance: prov,
                    review,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn memory_yaml_round_trip_is_byte_identical(mut m in memory()) {
        m.normalize();
        let text = yaml::memory_to_string(&m);
        let back = yaml::parse_memory(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(&back, &m, "{}", text);
        prop_assert_eq!(yaml::memory_to_string(&back), text);
    }

    #[test]
    fn normalize_is_idempotent(mut m in memory()) {
        m.normalize();
        let once = m.clone();
        m.normalize();
        prop_assert_eq!(m, once);
    }

    #[test]
    fn preference_yaml_round_trip_is_byte_identical(mut p in preference()) {
        p.normalize();
        let text = yaml::preference_to_string(&p);
        let back = yaml::parse_preference(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(&back, &p, "{}", text);
        prop_assert_eq!(yaml::preference_to_string(&back), text);
    }
}
