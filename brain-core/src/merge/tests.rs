//! Table tests of the field-aware merge.

use super::*;

const PATH: &str = ".brain/gotchas/ledger-rows.yaml";

const BASE: &str = "schema_version: 1
id: ledger-rows
type: gotcha
status: active
title: Ledger rows are append-only
summary: Never UPDATE ledger_entries.
importance: high
tags:
- ledger
- sql
scope:
  paths:
  - src/ledger/**
provenance:
  source: manual
  captured_at: \"2026-01-01T00:00:00Z\"
  evidence:
  - kind: commit
    value: abc1234
";

/// `BASE` with each `(from, to)` replacement applied.
fn edit(edits: &[(&str, &str)]) -> String {
    let mut text = BASE.to_owned();
    for (from, to) in edits {
        assert!(text.contains(from), "{from:?} not in base");
        text = text.replacen(from, to, 1);
    }
    text
}

struct Case {
    name: &'static str,
    ours: &'static [(&'static str, &'static str)],
    theirs: &'static [(&'static str, &'static str)],
    /// Lines the merged text must contain.
    has: &'static [&'static str],
    /// Lines it must not contain.
    lacks: &'static [&'static str],
    /// Fields in conflict.
    conflicts: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "edits to different fields both land",
        ours: &[(
            "title: Ledger rows are append-only",
            "title: Ledger rows never change",
        )],
        theirs: &[("importance: high", "importance: critical")],
        has: &["title: Ledger rows never change", "importance: critical"],
        lacks: &["conflicts:"],
        conflicts: &[],
    },
    Case {
        name: "the same edit on both sides is no conflict",
        ours: &[(
            "summary: Never UPDATE ledger_entries.",
            "summary: Post a reversal.",
        )],
        theirs: &[(
            "summary: Never UPDATE ledger_entries.",
            "summary: Post a reversal.",
        )],
        has: &["summary: Post a reversal."],
        lacks: &["conflicts:"],
        conflicts: &[],
    },
    Case {
        name: "tags merge as sets: both additions kept, a removal honoured",
        ours: &[("- ledger\n- sql\n", "- ledger\n- money\n- sql\n")],
        theirs: &[("- ledger\n- sql\n", "- audit\n- ledger\n")],
        has: &["tags:\n- audit\n- ledger\n- money\nscope"],
        lacks: &["- sql", "conflicts:"],
        conflicts: &[],
    },
    Case {
        name: "scope paths and evidence merge as sets",
        ours: &[
            (
                "  - src/ledger/**\n",
                "  - src/ledger/**\n  - src/refunds/**\n",
            ),
            (
                "    value: abc1234\n",
                "    value: abc1234\n  - kind: note\n    value: INC-7\n",
            ),
        ],
        theirs: &[
            (
                "  - src/ledger/**\n",
                "  - src/billing/**\n  - src/ledger/**\n",
            ),
            (
                "    value: abc1234\n",
                "    value: abc1234\n  - kind: commit\n    value: def5678\n",
            ),
        ],
        has: &[
            "  - src/billing/**\n  - src/ledger/**\n  - src/refunds/**\n",
            "value: def5678",
            "value: INC-7",
        ],
        lacks: &["conflicts:"],
        conflicts: &[],
    },
    Case {
        name: "a scalar changed differently on both sides is a conflict, ours kept",
        ours: &[("summary: Never UPDATE ledger_entries.", "summary: Ours.")],
        theirs: &[
            ("summary: Never UPDATE ledger_entries.", "summary: Theirs."),
            ("importance: high", "importance: critical"),
        ],
        has: &[
            "summary: Ours.\n",
            "importance: critical",
            "conflicts:\n- field: summary\n  base: Never UPDATE ledger_entries.\n  ours: Ours.\n  theirs: Theirs.\n",
        ],
        lacks: &["<<<<<<<", "======="],
        conflicts: &["summary"],
    },
    Case {
        name: "a field deleted on one side and edited on the other is a conflict",
        ours: &[("importance: high\n", "")],
        theirs: &[("importance: high", "importance: critical")],
        has: &["- field: importance\n  base: high\n  theirs: critical\n"],
        lacks: &["importance: critical\ntags"],
        conflicts: &["importance"],
    },
    Case {
        name: "a nested scalar conflict is named by its dotted path",
        ours: &[("  source: manual", "  source: commit")],
        theirs: &[("  source: manual", "  source: session")],
        has: &["- field: provenance.source\n"],
        lacks: &[],
        conflicts: &["provenance.source"],
    },
];

#[test]
fn merge_table() {
    for case in CASES {
        let ours = edit(case.ours);
        let theirs = edit(case.theirs);
        let out =
            merge(PATH, BASE, &ours, &theirs).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for want in case.has {
            assert!(
                out.text.contains(want),
                "{}: want {want:?} in\n{}",
                case.name,
                out.text
            );
        }
        for bad in case.lacks {
            assert!(
                !out.text.contains(bad),
                "{}: {bad:?} in\n{}",
                case.name,
                out.text
            );
        }
        let fields: Vec<&str> = out.conflicts.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(fields, case.conflicts, "{}", case.name);
        // Always YAML, and the conflicts are what `unresolved` reads back.
        yaml::to_json_value(&out.text).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        match unresolved(&out.text) {
            None => assert!(case.conflicts.is_empty(), "{}", case.name),
            Some(f) => assert_eq!(f, case.conflicts, "{}", case.name),
        }
        if case.conflicts.is_empty() {
            // Clean merges are canonical records.
            let mut m = yaml::parse_memory(&out.text).unwrap();
            m.normalize();
            assert_eq!(yaml::memory_to_string(&m), out.text, "{}", case.name);
        }
    }
}

#[test]
fn merging_is_symmetric_for_clean_merges() {
    for case in CASES.iter().filter(|c| c.conflicts.is_empty()) {
        let (ours, theirs) = (edit(case.ours), edit(case.theirs));
        let a = merge(PATH, BASE, &ours, &theirs).unwrap();
        let b = merge(PATH, BASE, &theirs, &ours).unwrap();
        assert_eq!(a.text, b.text, "{}", case.name);
    }
}

#[test]
fn invalid_yaml_on_any_side_is_an_error_not_a_text() {
    let broken = "id: [unclosed\n";
    for (side, b, o, t) in [
        (Side::Base, broken, BASE, BASE),
        (Side::Ours, BASE, broken, BASE),
        (Side::Theirs, BASE, BASE, broken),
        (Side::Theirs, BASE, BASE, "- a list\n"),
    ] {
        match merge(PATH, b, o, t) {
            Err(Error::Unreadable { side: s, .. }) => assert_eq!(s, side),
            other => panic!("{side}: {other:?}"),
        }
    }
}

#[test]
fn a_clean_merge_that_breaks_the_record_is_an_error() {
    // Both sides add a different unknown key: each merges, the record does not parse.
    let ours = edit(&[("importance: high", "importance: high\nbogus: 1")]);
    assert!(matches!(
        merge(PATH, BASE, &ours, BASE),
        Err(Error::Invalid { .. })
    ));
}

#[test]
fn added_on_both_sides_merges_against_an_empty_base() {
    let ours = edit(&[("- sql\n", "- sql\n- money\n")]);
    let out = merge(PATH, "", &ours, BASE).unwrap();
    assert!(out.conflicts.is_empty());
    assert!(out.text.contains("- money"), "{}", out.text);
}

#[test]
fn earlier_conflicts_are_carried_over() {
    let ours = format!("{BASE}conflicts:\n- field: title\n  ours: A\n  theirs: B\n");
    let theirs = edit(&[("importance: high", "importance: critical")]);
    let out = merge(PATH, BASE, &ours, &theirs).unwrap();
    assert!(out.conflicts.is_empty());
    assert_eq!(unresolved(&out.text), Some(vec!["title".to_owned()]));
    assert!(out.text.contains("importance: critical"));
}

#[test]
fn paths_name_the_record_kind() {
    assert_eq!(kind_of(".brain/gotchas/a.yaml"), Kind::Memory);
    assert_eq!(kind_of("sub/.brain/preferences/a.yaml"), Kind::Preference);
    assert_eq!(kind_of(".brain/config.yaml"), Kind::Other);
    assert_eq!(kind_of(".brain/runtime/x/a.yaml"), Kind::Other);
    assert_eq!(kind_of("docs/a.yaml"), Kind::Other);
}
