//! Unit tests of the RepoBrain mapping.

use super::*;

/// A RepoBrain memory file with the keys every file has, plus `extra` lines.
fn memory_file(kind: &str, title: &str, extra: &str) -> String {
    format!(
        "---\ntype: \"{kind}\"\ntitle: \"{title}\"\nsummary: \"Summary of {title}.\"\nimportance: \"high\"\ncreated_at: \"2026-01-02T03:04:05.678Z\"\ndate: \"2026-01-02T03:04:05.678Z\"\n{extra}---\n\n## {}\n\nBody of {title}.\n",
        kind.to_uppercase()
    )
}

fn file(path: &str, text: &str) -> RepoBrainFile {
    RepoBrainFile {
        path: path.to_owned(),
        text: Ok(text.to_owned()),
    }
}

fn memory(plan: &Plan, from: &str) -> Memory {
    let found = plan.records.iter().find(|r| r.from == from);
    match found.map(|r| &r.record) {
        Some(Migrated::Memory(m)) => m.clone(),
        other => panic!("no memory from {from}: {other:?}\n{plan:#?}"),
    }
}

fn notes_of(plan: &Plan, from: &str) -> Vec<String> {
    plan.notes
        .iter()
        .filter(|n| n.from == from)
        .map(|n| n.message.clone())
        .collect()
}

#[test]
fn front_matter_is_split_at_the_second_marker() {
    let cases: &[(&str, Option<(&str, &str)>)] = &[
        ("---\na: 1\n---\nbody\n", Some(("a: 1\n", "body\n"))),
        ("---\r\na: 1\r\n---\r\nbody", Some(("a: 1\r\n", "body"))),
        ("\u{feff}---\n---\n", Some(("", ""))),
        ("---\na: '---'\n----\n", None),
        ("a: 1\n---\n", None),
        ("", None),
    ];
    for (text, expected) in cases {
        assert_eq!(split_front_matter(text), *expected, "{text:?}");
    }
}

#[test]
fn status_shapes_table() {
    // (extra front-matter, expected status, expected review state, note contains)
    let cases: &[(&str, Status, Option<ReviewState>, Option<&str>)] = &[
        ("status: \"active\"\n", Status::Active, None, None),
        ("", Status::Active, None, None),
        (
            "status: \"active\"\nreview_state: \"cleared\"\n",
            Status::Active,
            Some(ReviewState::Approved),
            None,
        ),
        (
            "status: \"active\"\nstale: true\n",
            Status::Stale,
            None,
            None,
        ),
        ("status: \"stale\"\n", Status::Stale, None, None),
        (
            "status: \"candidate\"\n",
            Status::Candidate,
            Some(ReviewState::Pending),
            None,
        ),
        (
            "status: \"candidate\"\nreview_state: \"pending_review\"\n",
            Status::Candidate,
            Some(ReviewState::Pending),
            None,
        ),
        (
            "status: \"active\"\nreview_state: \"pending_review\"\n",
            Status::Candidate,
            Some(ReviewState::Pending),
            Some("pending review"),
        ),
        (
            "status: \"superseded\"\nsuperseded_by: null\n",
            Status::Dismissed,
            Some(ReviewState::Rejected),
            Some("RepoBrain dismissal"),
        ),
        (
            "status: \"superseded\"\nsuperseded_by: \"decisions/gone.md\"\n",
            Status::Stale,
            None,
            Some("names no imported RepoBrain record"),
        ),
    ];
    for (extra, status, review, note) in cases {
        let plan = plan(&[file("working/a.md", &memory_file("working", "A", extra))]);
        assert!(plan.not_imported.is_empty(), "{extra}: {plan:#?}");
        let m = memory(&plan, "working/a.md");
        assert_eq!(m.status, *status, "{extra}");
        assert_eq!(m.review.state, *review, "{extra}");
        if *status == Status::Dismissed {
            assert_eq!(m.review.reason.as_deref(), Some("dismissed in RepoBrain"));
        }
        let notes = notes_of(&plan, "working/a.md");
        match note {
            Some(text) => assert!(notes.iter().any(|n| n.contains(text)), "{extra}: {notes:?}"),
            None => assert!(notes.is_empty(), "{extra}: {notes:?}"),
        }
    }
}

#[test]
fn done_goal_is_kept_and_done_decision_is_refused() {
    let plan = plan(&[
        file(
            "archive/g.md",
            &memory_file("goal", "G", "status: \"done\"\n"),
        ),
        file(
            "decisions/d.md",
            &memory_file("decision", "D", "status: \"done\"\n"),
        ),
    ]);
    assert_eq!(memory(&plan, "archive/g.md").status, Status::Done);
    assert_eq!(plan.not_imported.len(), 1);
    assert_eq!(plan.not_imported[0].from, "decisions/d.md");
    assert!(
        plan.not_imported[0].reason.contains("`status`"),
        "{plan:#?}"
    );
}

#[test]
fn lineage_paths_resolve_to_migrated_ids() {
    let old = memory_file(
        "decision",
        "Old",
        "status: \"active\"\nstale: true\nsuperseded_by: \"decisions/new.md\"\nsupersession_reason: \"replaced\"\nrelated:\n  - \".brain/gotchas/g.md\"\n  - \"decisions/missing.md\"\n",
    );
    let new = memory_file(
        "decision",
        "New",
        "version: 2\nsupersedes: \"decisions/old.md\"\nrelated:\n  - \"g\"\n",
    );
    let g = memory_file("gotcha", "G", "");
    let plan = plan(&[
        file("decisions/new.md", &new),
        file("decisions/old.md", &old),
        file("gotchas/g.md", &g),
    ]);
    assert!(plan.not_imported.is_empty(), "{plan:#?}");
    let (old, new, g) = (
        memory(&plan, "decisions/old.md"),
        memory(&plan, "decisions/new.md"),
        memory(&plan, "gotchas/g.md"),
    );
    assert_eq!(old.status, Status::Superseded);
    assert_eq!(old.lineage.superseded_by.as_ref(), Some(&new.id));
    assert_eq!(old.lineage.related, std::slice::from_ref(&g.id));
    assert_eq!(old.notes, "Supersession reason (RepoBrain): replaced");
    assert_eq!(new.lineage.supersedes, std::slice::from_ref(&old.id));
    assert_eq!(new.lineage.version, 2);
    assert_eq!(new.lineage.related, std::slice::from_ref(&g.id));
    assert_eq!(
        notes_of(&plan, "decisions/old.md"),
        ["`related`: `decisions/missing.md` names no imported RepoBrain record; reference dropped"]
    );
}

#[test]
fn references_to_a_record_that_fails_are_dropped() {
    let bad = memory_file("decision", "Bad", "importance: \"urgent\"\n")
        .replace("importance: \"high\"\n", "");
    let old = memory_file(
        "decision",
        "Old",
        "superseded_by: \"decisions/bad.md\"\nstatus: \"superseded\"\n",
    );
    let plan = plan(&[
        file("decisions/bad.md", &bad),
        file("decisions/old.md", &old),
    ]);
    assert_eq!(plan.not_imported.len(), 1, "{plan:#?}");
    assert!(plan.not_imported[0].reason.contains("urgent"));
    let old = memory(&plan, "decisions/old.md");
    assert_eq!(old.status, Status::Stale);
    assert_eq!(old.lineage.superseded_by, None);
}

#[test]
fn ids_are_stable_and_depend_on_the_source_path() {
    let text = memory_file("pattern", "Retry with backoff", "");
    let a = plan(&[file("patterns/a.md", &text)]);
    let again = plan(&[file("patterns/a.md", &text)]);
    let b = plan(&[file("patterns/b.md", &text)]);
    let id = a.records[0].record.id();
    assert_eq!(id, again.records[0].record.id());
    assert_ne!(id, b.records[0].record.id());
    assert!(id.as_str().starts_with("retry-with-backoff-"), "{id}");
    assert_eq!(
        *id,
        MemoryId::generate(
            "Retry with backoff",
            &[
                "pattern",
                "2026-01-02T03:04:05.678Z",
                "repobrain",
                "patterns/a.md"
            ]
        )
    );
}

#[test]
fn fields_map_to_their_places() {
    let extra = "tags:\n  - \"Ledger\"\nscore: 80\nhit_count: 3\nlast_used: null\nupdated: \"2026-02-01\"\nsource: \"git-commit\"\norigin: \"failure\"\npath_scope:\n  - \"src/ledger/**\"\nfiles:\n  - \"src/a.ts\"\nrecommended_skills:\n  - \"r\"\nrequired_skills:\n  - \"q\"\nsuppressed_skills:\n  - \"s\"\nskill_trigger_paths:\n  - \"src/**\"\nskill_trigger_tasks:\n  - \"refund\"\narea: \"db\"\nexpires: \"2026-12-31\"\nvalid_from: \"2026-01-02\"\nvalid_until: \"2026-12-30\"\nobserved_at: \"2026-01-03T00:00:00Z\"\nconfidence: 0.7\nsource_episode: \"sess-1\"\ninvocation_mode: \"required\"\nrisk_level: \"high\"\nfavourite_colour: \"blue\"\n";
    let plan = plan(&[file("gotchas/x.md", &memory_file("gotcha", "X", extra))]);
    let m = memory(&plan, "gotchas/x.md");
    assert_eq!(m.detail, "Body of X.");
    assert_eq!(m.importance, crate::model::Importance::High);
    assert_eq!(m.risk, crate::model::Risk::High);
    assert_eq!(m.confidence, Confidence::new(0.7).unwrap());
    assert_eq!(m.tags, ["ledger"]);
    assert_eq!(m.scope.paths, ["src/a.ts", "src/ledger/**"]);
    assert_eq!(m.scope.modules, ["db"]);
    assert_eq!(m.routing.recommended_skills, ["r"]);
    assert_eq!(m.routing.required_skills, ["q"]);
    assert_eq!(m.routing.suppressed_skills, ["s"]);
    assert_eq!(m.routing.trigger_paths, ["src/**"]);
    assert_eq!(m.routing.trigger_tasks, ["refund"]);
    assert_eq!(
        m.routing.invocation_mode,
        crate::model::InvocationMode::Required
    );
    assert_eq!(m.validity.expires, Some("2026-12-31".parse().unwrap()));
    assert_eq!(
        m.validity.valid_from,
        Some("2026-01-02T00:00:00Z".parse().unwrap())
    );
    assert_eq!(
        m.validity.valid_until,
        Some("2026-12-30T23:59:59Z".parse().unwrap())
    );
    assert_eq!(
        m.validity.observed_at,
        Some("2026-01-03T00:00:00Z".parse().unwrap())
    );
    assert_eq!(m.provenance.source, Source::Failure);
    assert_eq!(
        m.provenance.captured_at,
        "2026-01-02T03:04:05.678Z".parse::<Timestamp>().unwrap()
    );
    assert_eq!(
        m.provenance.evidence,
        [
            Evidence {
                kind: EvidenceKind::Session,
                value: "sess-1".into()
            },
            note_evidence("imported from RepoBrain gotchas/x.md"),
        ]
    );
    assert_eq!(
        plan.unmapped,
        [UnmappedFields {
            from: "gotchas/x.md".into(),
            fields: vec!["favourite_colour".into()],
        }]
    );
    let dropped: Vec<(&str, usize)> = plan
        .dropped_usage
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(dropped, [("hit_count", 1), ("score", 1), ("updated", 1)]);
}

#[test]
fn sources_table() {
    let cases: &[(&str, Source, bool)] = &[
        ("", Source::Import, false),
        ("source: \"session\"\n", Source::Session, false),
        ("source: \"git-commit\"\n", Source::Commit, false),
        ("source: \"manual\"\n", Source::Manual, false),
        ("source: \"pr\"\n", Source::Commit, true),
        (
            "source: \"manual\"\norigin: \"failure\"\n",
            Source::Failure,
            false,
        ),
    ];
    for (extra, source, pr_note) in cases {
        let plan = plan(&[file("decisions/a.md", &memory_file("decision", "A", extra))]);
        let m = memory(&plan, "decisions/a.md");
        assert_eq!(m.provenance.source, *source, "{extra}");
        let has_pr = m
            .provenance
            .evidence
            .iter()
            .any(|e| e.value.contains("`pr`"));
        assert_eq!(has_pr, *pr_note, "{extra}");
    }
}

#[test]
fn heading_is_stripped_only_when_conventional() {
    let cases: &[(MemoryType, &str, &str)] = &[
        (MemoryType::Decision, "\n## DECISION\n\nWhy.\n", "\nWhy.\n"),
        (
            MemoryType::Decision,
            "## GOTCHA\nWhy.\n",
            "## GOTCHA\nWhy.\n",
        ),
        (MemoryType::Gotcha, "## Gotcha\nWhy.\n", "## Gotcha\nWhy.\n"),
        (MemoryType::Working, "## WORKING", ""),
    ];
    for (kind, body, expected) in cases {
        assert_eq!(strip_heading(body, *kind), *expected, "{body:?}");
    }
}

#[test]
fn preferences_map() {
    let text = "---\nkind: \"routing_preference\"\ntarget_type: \"skill\"\ntarget: \"auth-debugger\"\npreference: \"require_review\"\nsource: \"manual\"\ncreated_at: \"2026-08-28T00:00:00.000Z\"\nupdated_at: \"2026-08-28T00:00:00.000Z\"\nstatus: \"active\"\nvalid_until: \"2027-01-01\"\ntask_hints:\n  - \"rate limit\"\npath_hints:\n  - \"./src/auth/\"\n---\n\nTeam preference: review auth changes.\n";
    let plan = plan(&[file("preferences/pref-skill-auth-debugger.md", text)]);
    assert!(plan.not_imported.is_empty(), "{plan:#?}");
    let Migrated::Preference(p) = &plan.records[0].record else {
        panic!("not a preference");
    };
    assert!(
        p.id.as_str().starts_with("require-review-auth-debugger-"),
        "{}",
        p.id
    );
    assert_eq!(p.target_type, TargetType::Skill);
    assert_eq!(p.preference, PreferenceKind::RequireReview);
    assert_eq!(p.confidence, Confidence::new(0.5).unwrap());
    assert_eq!(p.reason, "Team preference: review auth changes.");
    assert_eq!(p.task_hints, ["rate limit"]);
    assert_eq!(p.path_hints, ["src/auth"]);
    assert_eq!(p.status, Status::Active);
    assert_eq!(
        p.validity.valid_until,
        Some("2027-01-01T23:59:59Z".parse().unwrap())
    );
    assert_eq!(plan.dropped_usage.get("updated_at"), Some(&1));

    let dismissed = text.replace("status: \"active\"", "status: \"superseded\"");
    let plan = super::plan(&[file("preferences/p.md", &dismissed)]);
    let Migrated::Preference(p) = &plan.records[0].record else {
        panic!("not a preference");
    };
    assert_eq!(p.status, Status::Dismissed);
    assert_eq!(p.review.state, Some(ReviewState::Rejected));
}

#[test]
fn broken_files_are_reported_with_the_reason() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "decisions/a.md",
            "no front matter\n",
            "no YAML front-matter",
        ),
        (
            "decisions/b.md",
            "---\ntitle: [unclosed\n---\n",
            "invalid YAML front-matter at line 2",
        ),
        ("decisions/c.md", "---\n- a\n---\n", "not a mapping"),
        (
            "decisions/d.md",
            "---\ntitle: \"t\"\ncreated_at: \"2026-01-01\"\n---\n",
            "`type` is missing",
        ),
        (
            "decisions/e.md",
            "---\ntype: \"decision\"\ntitle: \"t\"\n---\n",
            "no capture time",
        ),
        (
            "decisions/f.md",
            "---\ntype: \"decision\"\ntitle: \"t\"\ndate: \"2026-01-01\"\n---\n",
            "`summary`: summary is empty",
        ),
        (
            "decisions/g.md",
            "---\ntype: \"decision\"\ntitle: \"t\"\nsummary: \"s\"\ndate: \"2026-01-01\"\nconfidence: 2\n---\n",
            "`confidence` must be a number from 0 to 1",
        ),
        (
            "preferences/h.md",
            "---\nkind: \"note\"\n---\n",
            "not `routing_preference`",
        ),
    ];
    for (path, text, reason) in cases {
        let plan = plan(&[file(path, text)]);
        assert!(plan.records.is_empty(), "{path}");
        assert_eq!(plan.not_imported.len(), 1, "{path}");
        assert!(
            plan.not_imported[0].reason.contains(reason),
            "{path}: {}",
            plan.not_imported[0].reason
        );
    }
    let unreadable = RepoBrainFile {
        path: "decisions/x.txt".into(),
        text: Err("not a Markdown (`.md`) file".into()),
    };
    let plan = plan(&[unreadable]);
    assert_eq!(plan.not_imported[0].reason, "not a Markdown (`.md`) file");
}
