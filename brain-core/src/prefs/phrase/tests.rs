//! Table-driven tests of the phrase parser.

use super::*;
use PreferenceKind::{Avoid, Prefer, RequireReview};
use TargetType::{Skill, TaskClass, Workflow};

type Expect = (
    PreferenceKind,
    &'static str,
    Option<TargetType>,
    &'static [&'static str],
    &'static [&'static str],
);

/// Every phrasing the brief and the docs promise, plus negations and
/// sentences that state no preference.
#[test]
fn phrasings_table() {
    let ok: &[(&str, Expect)] = &[
        (
            "avoid the legacy-router skill for payments work",
            (Avoid, "legacy-router", Some(Skill), &["payments"], &[]),
        ),
        (
            "prefer playwright-e2e over cypress for UI tests",
            (Prefer, "playwright-e2e", None, &["ui tests"], &[]),
        ),
        (
            "always ask a human before running db-reset",
            (RequireReview, "db-reset", None, &[], &[]),
        ),
        (
            "require review for the schema-migration workflow",
            (RequireReview, "schema-migration", Some(Workflow), &[], &[]),
        ),
        (
            "don't use full-test-suite for docs-only changes",
            (Avoid, "full-test-suite", None, &["docs-only changes"], &[]),
        ),
        (
            "use the `lint-fix` skill first when touching src/**/*.ts",
            (Prefer, "lint-fix", Some(Skill), &[], &["src/**/*.ts"]),
        ),
        (
            "Never run db-reset without asking a human first.",
            (RequireReview, "db-reset", None, &[], &[]),
        ),
        (
            "Do not use moment-js in new code.",
            (Avoid, "moment-js", None, &["new code"], &[]),
        ),
        (
            "Stop using the legacy_router skill.",
            (Avoid, "legacy-router", Some(Skill), &[], &[]),
        ),
        (
            "Please use superpowers:tdd for bugfixes",
            (Prefer, "superpowers:tdd", None, &["bugfixes"], &[]),
        ),
        (
            "We never use \"Playwright E2E\" on the billing service",
            (Avoid, "playwright-e2e", None, &["billing service"], &[]),
        ),
        (
            "Require human review for the auth-change task class when touching src/auth/**",
            (
                RequireReview,
                "auth-change",
                Some(TaskClass),
                &[],
                &["src/auth/**"],
            ),
        ),
        (
            "db-reset needs human approval",
            (RequireReview, "db-reset", None, &[], &[]),
        ),
        (
            "Use ledger-invariant-check instead of manual review for refunds and invoices",
            (
                Prefer,
                "ledger-invariant-check",
                None,
                &["refunds", "invoices"],
                &[],
            ),
        ),
        (
            "When editing migrations/*.sql, require review for the schema-migration workflow",
            (
                RequireReview,
                "schema-migration",
                Some(Workflow),
                &[],
                &["migrations/*.sql"],
            ),
        ),
        (
            "prefer the red-green-refactor workflow for bugfix tasks",
            (
                Prefer,
                "red-green-refactor",
                Some(Workflow),
                &["bugfix"],
                &[],
            ),
        ),
        ("avoid cypress", (Avoid, "cypress", None, &[], &[])),
        (
            "go with the playwright-e2e skill when working on src/api/**",
            (Prefer, "playwright-e2e", Some(Skill), &[], &["src/api/**"]),
        ),
        (
            "Avoid running full-test-suite on docs changes",
            (Avoid, "full-test-suite", None, &["docs changes"], &[]),
        ),
        (
            "I prefer not to use cypress for UI tests.",
            (Avoid, "cypress", None, &["ui tests"], &[]),
        ),
        (
            "Agents must not run the db-reset script in production",
            (Avoid, "db-reset", None, &["production"], &[]),
        ),
        (
            "For payments work, avoid 'legacy router'",
            (Avoid, "legacy-router", None, &["payments"], &[]),
        ),
        (
            "The legacy-router skill is deprecated",
            (Avoid, "legacy-router", Some(Skill), &[], &[]),
        ),
        (
            "never ever use the Legacy Router skill for refunds; it double-posts",
            (Avoid, "legacy-router", Some(Skill), &["refunds"], &[]),
        ),
        (
            "- Get approval before running the data-backfill workflow in src/ledger/",
            (
                RequireReview,
                "data-backfill",
                Some(Workflow),
                &[],
                &["src/ledger/"],
            ),
        ),
        (
            "Don't run db-reset unless a human approves it",
            (RequireReview, "db-reset", None, &[], &[]),
        ),
    ];
    for (sentence, (kind, target, ty, tasks, paths)) in ok {
        let text = sentences(sentence).remove(0).text;
        let got = parse(&text).unwrap_or_else(|e| panic!("{sentence:?}: {e:?}"));
        assert_eq!(
            (
                got.kind,
                got.target.as_str(),
                got.target_type,
                got.task_hints
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
                got.path_hints
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            ),
            (*kind, *target, *ty, tasks.to_vec(), paths.to_vec()),
            "{sentence:?}"
        );
    }
    let none: &[(&str, NoPreference)] = &[
        ("The build was slow today.", NoPreference::NoPolicy),
        ("Thanks, that fixed it!", NoPreference::NoPolicy),
        ("We use postgres for storage.", NoPreference::NoPolicy),
        (
            "Should we use cypress for UI tests?",
            NoPreference::Question,
        ),
        (
            "Don't forget to update the changelog.",
            NoPreference::NoPolicy,
        ),
        ("don't use it", NoPreference::NoTarget),
        ("Never use that again.", NoPreference::NoTarget),
        ("Run the tests before committing.", NoPreference::NoTarget),
        (
            "The tests pass now and the diff is small.",
            NoPreference::NoPolicy,
        ),
    ];
    for (sentence, why) in none {
        assert_eq!(parse(sentence), Err(*why), "{sentence:?}");
    }
}

#[test]
fn over_names_the_alternative_only_for_prefer() {
    let p = parse("prefer playwright-e2e over cypress for UI tests").unwrap();
    assert_eq!(p.alternative.as_deref(), Some("cypress"));
    let p = parse("use `Playwright E2E` instead of Cypress").unwrap();
    assert_eq!(
        (p.target.as_str(), p.alternative.as_deref()),
        ("playwright-e2e", Some("cypress"))
    );
    assert_eq!(parse("avoid cypress over there").unwrap().alternative, None);
}

#[test]
fn sentences_split_outside_quotes_and_keep_lines() {
    let text = "Avoid `legacy.router`. Use lint-fix first when touching src/**/*.ts.\n\n- never run db-reset; ask first\n2. Is this ok?";
    let split = sentences(text);
    let got: Vec<(usize, &str)> = split.iter().map(|s| (s.line, s.text.as_str())).collect();
    assert_eq!(
        got,
        [
            (1, "Avoid `legacy.router`."),
            (1, "Use lint-fix first when touching src/**/*.ts."),
            (3, "never run db-reset"),
            (3, "ask first"),
            (4, "Is this ok?"),
        ]
    );
}
